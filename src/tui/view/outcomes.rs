//! Retreat and adjustment phases have no decision graph: the stepper's place shows each order's
//! outcome and reason, each dislodged unit's retreat options, the builds and removals due per
//! power, and what happened without an order (civil disorder, with distances).

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::panel;
use crate::tui::keymap::Context;
use crate::tui::session::RunState;
use dipsandbox_core::io::report;
use dipsandbox_core::model::board::PhaseKind;

/// Draws the outcomes in the stepper's area.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let sc = &s.scenario();
    let title = if s.cursor().is_some() || s.state != RunState::Current {
        format!(" {} — outcomes ({}) ", sc.phase, s.engine.name())
    } else {
        format!(
            " {} — outcomes (no decision graph in this phase) ",
            sc.phase
        )
    };
    frame.render_widget(
        panel(vm, super::parts::title(&title, area), Context::Decisions),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    frame.render_widget(Paragraph::new(lines(vm)).wrap(Wrap { trim: false }), inner);
}

/// The outcomes in lines: the retreat options or the adjustments due, each order's outcome
/// and reason, what happened without an order.
pub fn lines(vm: &ViewModel) -> Vec<Line<'static>> {
    let s = vm.session;
    let sc = &s.scenario();
    let t = &vm.theme;
    let mut lines: Vec<Line> = super::run_state::full_line(vm).into_iter().collect();
    match sc.phase.kind {
        PhaseKind::Retreat => {
            lines.push(Line::styled(
                "Dislodged units and their retreats",
                t.focus(),
            ));
            for l in report::retreat_options(sc) {
                lines.push(Line::raw(format!("  {l}")));
            }
        }
        PhaseKind::Adjustment => {
            lines.push(Line::styled("Builds and removals due", t.focus()));
            for l in report::adjustments(sc) {
                lines.push(Line::raw(format!("  {l}")));
            }
        }
        PhaseKind::Movement => {}
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Orders", t.focus()));
    for (i, o) in sc.orders.iter().enumerate() {
        let out = s.run.phase().outcomes.get(i);
        let (g, st) = t.verdict(out.map(|o| o.verdict));
        lines.push(Line::from(vec![
            Span::styled(g, st),
            Span::raw(format!(
                " {}: {} — {}",
                sc.map.power(o.power).name,
                o.text,
                out.map(|o| o.reason.as_str()).unwrap_or("")
            )),
        ]));
    }
    if sc.orders.is_empty() {
        lines.push(Line::styled("  (no orders)", t.dim()));
    }
    if !s.run.phase().notes.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Without an order", t.focus()));
        for n in &s.run.phase().notes {
            lines.push(Line::raw(format!("  {n}")));
        }
    }
    lines
}
