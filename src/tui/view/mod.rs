//! The views: one file each, every draw function a pure function of the app state.
//!
//! - [`board`]: the map with units, centres, the selection and the results.
//! - [`orders`]: every order with its verdict glyph and reason.
//! - [`decisions`]: every decision of the resolver with its value as of the stepper's cursor.
//! - [`tree`]: the dependency tree of the selected decision.
//! - [`trace`]: the resolver's events with the stepper's cursor.
//! - [`rules`]: the rule options and the comparison with another rule set.
//! - [`procedure`]: the DPjudge engine's procedure: units with their marks, combat lists, steps.
//! - [`outcomes`]: retreat and adjustment phases (no decision graph): each order's outcome.
//! - [`browser`], [`help`], [`menu`]: the popups (the menu popup and the order editor in
//!   [`menu`]).
//! - [`status`]: tabs, the current event, hints and messages.

pub mod board;
pub mod browser;
pub mod decisions;
pub mod help;
pub mod menu;
pub mod orders;
pub mod outcomes;
pub mod procedure;
pub mod rules;
pub mod status;
pub mod trace;
pub mod tree;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};

use super::app::{App, Popup, View};
use super::keymap::Context;

/// Smallest size at which the views are drawn; below it a one-line notice is shown.
pub const MIN_SIZE: (u16, u16) = (20, 6);

/// Where each panel of the current view goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Panes {
    /// The tab bar (top row).
    pub tabs: Rect,
    /// The line with the stepper's current event.
    pub event: Rect,
    /// The status bar (bottom row).
    pub status: Rect,
    /// The board.
    pub board: Option<Rect>,
    /// The orders list.
    pub orders: Option<Rect>,
    /// The decisions list.
    pub decisions: Option<Rect>,
    /// The dependency tree.
    pub tree: Option<Rect>,
    /// The trace.
    pub trace: Option<Rect>,
    /// The rules list.
    pub rules: Option<Rect>,
    /// The comparison.
    pub compare: Option<Rect>,
    /// The terminal is too small for the views.
    pub too_small: bool,
}

impl Panes {
    /// The panels that take the focus, with their focus.
    pub fn focusable(&self) -> Vec<(Rect, Context)> {
        [
            (self.board, Context::Board),
            (self.orders, Context::Orders),
            (self.decisions, Context::Decisions),
            (self.tree, Context::Tree),
            (self.trace, Context::Trace),
            (self.rules, Context::Rules),
        ]
        .into_iter()
        .filter_map(|(r, f)| r.map(|r| (r, f)))
        .collect()
    }

    /// The tab under a click.
    pub fn tab_at(&self, x: u16, y: u16) -> Option<View> {
        if y != self.tabs.y {
            return None;
        }
        let mut at = self.tabs.x;
        for (view, label) in status::TABS {
            let w = label.chars().count() as u16;
            if x >= at && x < at + w {
                return Some(*view);
            }
            at += w + 1;
        }
        None
    }
}

/// Lays out the current view in `area`.
pub fn layout(area: Rect, app: &App) -> Panes {
    let mut p = Panes::default();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        p.too_small = true;
        return p;
    }
    let [tabs, main, event, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    p.tabs = tabs;
    p.event = event;
    p.status = status;
    let wide = main.width >= 70;
    match app.view {
        View::Board => {
            if wide {
                let side = if main.width >= 110 {
                    45
                } else {
                    (main.width * 2 / 5).max(28)
                };
                let [b, o] =
                    Layout::horizontal([Constraint::Min(10), Constraint::Length(side)]).areas(main);
                p.board = Some(b);
                p.orders = Some(o);
            } else {
                let [b, o] =
                    Layout::vertical([Constraint::Percentage(60), Constraint::Min(3)]).areas(main);
                p.board = Some(b);
                p.orders = Some(o);
            }
        }
        View::Stepper => {
            if wide {
                let [d, right] =
                    Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                        .areas(main);
                let [t, tr] =
                    Layout::vertical([Constraint::Percentage(45), Constraint::Percentage(55)])
                        .areas(right);
                p.decisions = Some(d);
                p.tree = Some(t);
                p.trace = Some(tr);
            } else {
                let [d, t, tr] = Layout::vertical([
                    Constraint::Percentage(40),
                    Constraint::Percentage(25),
                    Constraint::Percentage(35),
                ])
                .areas(main);
                p.decisions = Some(d);
                p.tree = Some(t);
                p.trace = Some(tr);
            }
        }
        View::Rules => {
            if wide {
                let [r, c] = Layout::horizontal([
                    Constraint::Length(56.min(main.width / 2 + 6)),
                    Constraint::Min(10),
                ])
                .areas(main);
                p.rules = Some(r);
                p.compare = Some(c);
            } else {
                let [r, c] =
                    Layout::vertical([Constraint::Percentage(55), Constraint::Min(3)]).areas(main);
                p.rules = Some(r);
                p.compare = Some(c);
            }
        }
    }
    p
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let panes = layout(area, app);
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
    status::draw_tabs(frame, app, panes.tabs);
    if let Some(r) = panes.board {
        board::draw(frame, app, r);
    }
    if let Some(r) = panes.orders {
        orders::draw(frame, app, r);
    }
    if app.session.stepper().is_some() {
        if let Some(r) = panes.decisions {
            decisions::draw(frame, app, r);
        }
        if let Some(r) = panes.tree {
            tree::draw(frame, app, r);
        }
        if let Some(r) = panes.trace {
            trace::draw(frame, app, r);
        }
    } else if app.session.dp().is_some() {
        if let Some(r) = panes.decisions {
            procedure::draw_units(frame, app, r);
        }
        if let Some(r) = panes.tree {
            procedure::draw_combat(frame, app, r);
        }
        if let Some(r) = panes.trace {
            procedure::draw_trace(frame, app, r);
        }
    } else if let (Some(d), Some(t), Some(tr)) = (panes.decisions, panes.tree, panes.trace) {
        outcomes::draw(frame, app, d.union(t).union(tr));
    }
    if let Some(r) = panes.rules {
        rules::draw(frame, app, r);
    }
    if let Some(r) = panes.compare {
        rules::draw_compare(frame, app, r);
    }
    status::draw_event(frame, app, panes.event);
    status::draw_status(frame, app, panes.status);
    match &app.popup {
        Some(Popup::Help(scroll)) => help::draw(frame, app, *scroll),
        Some(Popup::Browser(b)) => browser::draw(frame, app, b),
        Some(Popup::Menu(m)) => menu::draw_menu(frame, app, m),
        Some(Popup::Order(e)) => menu::draw_order(frame, app, e),
        Some(Popup::Confirm(q, _)) => menu::draw_confirm(frame, app, q),
        _ => {}
    }
}

/// A bordered panel, its border highlighted when it has the focus.
pub fn panel<'a>(app: &App, title: impl Into<Line<'a>>, focus: Context) -> Block<'a> {
    let b = Block::bordered().title(title);
    if app.focus == focus && app.popup.is_none() {
        b.border_style(app.theme.focus())
    } else {
        b.border_style(Style::new())
    }
}

/// The first row to show so that `selected` stays visible in a list of `len` rows of which
/// `height` fit: the selection is kept near the middle.
pub fn scroll(selected: usize, len: usize, height: usize) -> usize {
    if len <= height || height == 0 {
        return 0;
    }
    selected.saturating_sub(height / 2).min(len - height)
}

/// Cuts a string to `width` characters, with `…` when cut.
pub fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}
