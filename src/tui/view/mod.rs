//! The views: one file each, every draw function a pure function of the frame's
//! [`model::ViewModel`] (built once per frame from the app's state; the views never see the app).
//!
//! - [`model`]: the view-model.
//! - [`board`]: the map with units, centres, the selection and the results.
//! - [`orders`]: every order with its verdict glyph and reason.
//! - [`decisions`]: every decision of the resolver with its value as of the stepper's cursor.
//! - [`tree`]: the dependency tree of the selected decision.
//! - [`trace`]: the resolver's events with the stepper's cursor.
//! - [`rules`]: the rule options and the comparison with another rule set.
//! - [`ring`]: a cycle of decisions as a small picture (in the trace panel, where it fits).
//! - [`procedure`]: the DPjudge engine's procedure: units with their marks, combat lists.
//! - [`outcomes`]: retreat and adjustment phases (no decision graph): each order's outcome.
//! - [`steps`]: any engine's trace through the seam: its steps in words with the cursor and the
//!   step at the cursor in full (the procedure's trace panel, and for engines with no panels of
//!   their own — the guess engine, outside ones — the engine's state at the step beside it).
//! - [`browser`], [`help`], [`menu`]: the popups (the menu popup and the order editor in
//!   [`menu`]).
//! - [`status`]: tabs, the current event, hints and messages.
//! - [`run_state`]: the adjudication on its way, failed or cancelled, where the verdicts would
//!   be.
//! - [`parts`]: what the views share: panels, titles, text fitted to a width.

pub mod board;
pub mod browser;
pub mod decisions;
pub mod help;
pub mod menu;
pub mod model;
pub mod orders;
pub mod outcomes;
pub mod parts;
pub mod procedure;
pub mod ring;
pub mod rules;
pub mod run_state;
pub mod status;
pub mod steps;
pub mod trace;
pub mod tree;

use ratatui::Frame;
use ratatui::widgets::Paragraph;

use super::adapter::Family;
pub use super::layout::{MIN_SIZE, Panes, scroll};
use super::state::Popup;
use model::ViewModel;
pub use parts::{fit, panel};

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, vm: &ViewModel) {
    let area = frame.area();
    let panes = vm.panes;
    if panes.too_small {
        frame.render_widget(
            Paragraph::new(format!(
                "dipsandbox needs at least {}×{} (q quits)",
                MIN_SIZE.0, MIN_SIZE.1
            ))
            .wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    status::draw_tabs(frame, vm, panes.tabs);
    if let Some(r) = panes.board {
        board::draw(frame, vm, r);
    }
    if let Some(r) = panes.orders {
        orders::draw(frame, vm, r);
    }
    match vm.session.family() {
        Family::Decisions => {
            if let Some(r) = panes.decisions {
                decisions::draw(frame, vm, r);
            }
            if let Some(r) = panes.tree {
                tree::draw(frame, vm, r);
            }
            if let Some(r) = panes.trace {
                trace::draw(frame, vm, r);
            }
        }
        Family::Procedure => {
            if let Some(r) = panes.decisions {
                procedure::draw_units(frame, vm, r);
            }
            if let Some(r) = panes.tree {
                procedure::draw_combat(frame, vm, r);
            }
            if let Some(r) = panes.trace {
                steps::draw_trace(frame, vm, r);
            }
        }
        Family::Trace => {
            // The trace on the left; the step in full and the engine's state at it beside it.
            if let Some(r) = panes.trace {
                steps::draw_trace(frame, vm, r);
            }
            if let Some(r) = panes.detail {
                steps::draw_state(frame, vm, r);
            }
        }
        Family::Outcomes => {
            if let (Some(d), Some(t), Some(tr)) = (panes.decisions, panes.tree, panes.trace) {
                outcomes::draw(frame, vm, d.union(t).union(tr));
            }
        }
    }
    if let Some(r) = panes.rules {
        rules::draw(frame, vm, r);
    }
    if let Some(r) = panes.compare {
        rules::draw_compare(frame, vm, r);
    }
    status::draw_event(frame, vm, panes.event);
    status::draw_status(frame, vm, panes.status);
    match vm.popup {
        Some(Popup::Help(scroll)) => help::draw(frame, vm, *scroll),
        Some(Popup::Browser(b)) => browser::draw(frame, vm, b),
        Some(Popup::Menu(m)) => menu::draw_menu(frame, vm, m),
        Some(Popup::Order(e)) => menu::draw_order(frame, vm, e),
        Some(Popup::Confirm(q, _)) => menu::draw_confirm(frame, vm, q),
        _ => {}
    }
}
