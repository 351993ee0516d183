//! The stepper for any engine whose result has a trace but no view of its own (the guess
//! engine, and the next engine, with no TUI code): the phase's outcomes in the places of the
//! decisions and the tree, and the engine's events in words ([`Steps::describe`]) with the
//! cursor in the trace's place. Every event is one step.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::{fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::{scroll, trace_split};
use dipsandbox_core::engine::{PhaseInput, Steps};

/// Event `i` of the session's cursor in words (empty without a cursor).
pub fn describe(vm: &ViewModel, i: usize) -> String {
    let s = vm.session;
    let Some(c) = s.cursor() else {
        return String::new();
    };
    c.describe(&PhaseInput::of(s.scenario(), &s.rules), i)
}

/// The engine's events with the cursor.
pub fn draw_trace(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let Some(c) = s.cursor() else { return };
    let title = format!(" {} trace ({} events) ", s.engine.name(), c.len());
    frame.render_widget(
        panel(vm, super::parts::title(&title, area), Context::Trace),
        area,
    );
    let (list, detail) = trace_split(area);
    draw_events(frame, vm, c, list);
    if let Some(d) = detail {
        // The event at the cursor in full.
        let text = match c.cursor().checked_sub(1) {
            None => "start: nothing resolved yet".to_string(),
            Some(i) => describe(vm, i),
        };
        let mut lines = vec![Line::styled("─".repeat(d.width as usize), vm.theme.dim())];
        // The engine's state as of the cursor, when it tells one (the guess engine: the orders
        // being resolved, the cycle).
        let summary = c.summary(&PhaseInput::of(s.scenario(), &s.rules));
        if !summary.is_empty() {
            lines.push(Line::styled(summary, vm.theme.focus()));
        }
        lines.push(Line::styled(text, vm.theme.settled()));
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), d);
    }
}

fn draw_events(frame: &mut Frame, vm: &ViewModel, c: &dyn Steps, inner: Rect) {
    let input = PhaseInput::of(vm.session.scenario(), &vm.session.rules);
    let h = inner.height as usize;
    // Row k is event k; the cursor is after the last applied event (cursor - 1).
    let at = c.cursor().saturating_sub(1);
    let top = scroll(at, c.len(), h);
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for i in top..(top + h).min(c.len()) {
        let text = c.describe(&input, i);
        let applied = i < c.cursor();
        let style = if applied {
            vm.theme.settled()
        } else {
            vm.theme.dim()
        };
        let mut line = Line::from(Span::styled(fit(&format!("{:>4} {text}", i + 1), w), style));
        if c.cursor() > 0 && i == at {
            line = line.style(vm.theme.cursor());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
