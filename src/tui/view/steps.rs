//! Any engine's trace, drawn through the engine seam alone: the steps in words
//! ([`Steps::describe`]) coloured by their [`Mark`], with the cursor, and the step at the cursor
//! in full; beside it, for an engine with no panels of its own (the guess engine, an outside
//! one, the next one), that step once more and the engine's state at it
//! ([`Steps::sections`]), then the phase's outcomes. No line here names an engine: a new
//! engine's trace shows with no TUI code.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::{self, fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::{trace_rows, trace_split};
use dipsandbox_core::engine::{Landmark, Mark, PhaseInput, Steps, Tone};

/// The style of an event with mark `m`.
pub fn style(vm: &ViewModel, m: Mark) -> Style {
    let t = &vm.theme;
    match (m.landmark, m.tone) {
        (Some(Landmark::Step), _) => t.focus(),
        (_, Tone::Plain) => t.dim(),
        (_, Tone::Open) => t.open(),
        (_, Tone::Settled) => t.settled(),
        (_, Tone::Cycle) => t.cycle(),
        (_, Tone::Forced) => t.forced(),
    }
}

/// Event `i` of the session's cursor in words, with its style (empty without a cursor).
pub fn describe(vm: &ViewModel, i: usize) -> (String, Style) {
    let s = vm.session;
    let Some(c) = s.cursor() else {
        return (String::new(), Style::new());
    };
    (
        c.describe(&PhaseInput::of(s.scenario(), &s.rules), i),
        style(vm, c.mark(i)),
    )
}

/// What the start of a trace says (row 0 of the list, and the detail before the first step).
pub const START: &str = "start: nothing decided yet";

/// How many steps are applied, and the step at the cursor in words with its style (the start
/// when none is).
pub fn at_cursor(vm: &ViewModel) -> (usize, String, Style) {
    let s = vm.session;
    let cur = s.cursor().map_or(0, |c| c.cursor());
    let applied = s.steps.partition_point(|&i| i < cur);
    match applied.checked_sub(1).and_then(|k| s.steps.get(k)) {
        Some(&i) => {
            let (text, style) = describe(vm, i);
            (applied, text, style)
        }
        None => (applied, START.to_string(), vm.theme.dim()),
    }
}

/// The trace panel: the steps with the cursor (row 0 is the start; rows cut to the width end in
/// "…") and, at the bottom, the step at the cursor in full — as many rows as its words take —
/// unless the detail panel beside it has it.
pub fn draw_trace(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let Some(c) = s.cursor() else { return };
    let title = format!(" {} trace ({} steps) ", s.engine.name(), s.steps.len());
    frame.render_widget(panel(vm, parts::title(&title, area), Context::Trace), area);
    if vm.panes.detail.is_some() {
        draw_list(frame, vm, c, area.inner(Margin::new(1, 1)));
        return;
    }
    let (list, detail) = trace_split(area);
    draw_list(frame, vm, c, list);
    let (_, text, style) = at_cursor(vm);
    // Under the list when there is room, else over its last rows; a long step (a cycle of many
    // decisions) may grow over the panel above it in the same column.
    let mut all = area.inner(Margin::new(1, 1));
    let need = parts::wrapped_rows(&[Line::raw(text.as_str())], all.width, true) + 1;
    if let Some(t) = vm.panes.tree
        && need + 1 > usize::from(all.height)
        && t.x == area.x
        && t.width == area.width
        && t.bottom() == area.y
    {
        let top = t.y.saturating_add(1);
        all = Rect::new(all.x, top, all.width, all.bottom().saturating_sub(top));
    }
    parts::detail(
        frame.buffer_mut(),
        all,
        detail.map_or(0, |d| d.height),
        vec![Line::styled(text, style)],
        vm.theme.dim(),
    );
}

fn draw_list(frame: &mut Frame, vm: &ViewModel, c: &dyn Steps, list: Rect) {
    let s = vm.session;
    let input = PhaseInput::of(s.scenario(), &s.rules);
    let applied = s.steps.partition_point(|&i| i < c.cursor());
    let (applied, top) = trace_rows(applied, s.steps.len(), list);
    let w = usize::from(list.width);
    let mut lines = Vec::new();
    for row in top..(top + usize::from(list.height)).min(s.steps.len() + 1) {
        let (text, st) = match row.checked_sub(1).and_then(|k| s.steps.get(k)) {
            None => (START.to_string(), vm.theme.dim()),
            Some(&i) => (c.describe(&input, i), style(vm, c.mark(i))),
        };
        let st = if row > applied { vm.theme.dim() } else { st };
        let mut line = Line::from(vec![
            Span::styled(format!("{row:>4} "), vm.theme.dim()),
            Span::styled(fit(&text, w.saturating_sub(5)), st),
        ]);
        if row == applied {
            line = line.style(vm.theme.cursor());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), list);
}

/// The lines of the detail panel: the step at the cursor in full, the engine's state at that
/// step section by section, then the phase's outcomes.
pub fn state_lines(vm: &ViewModel) -> Vec<Line<'static>> {
    let s = vm.session;
    let t = &vm.theme;
    let (applied, text, style) = at_cursor(vm);
    let mut lines = vec![
        Line::styled(format!("step {applied} of {}", s.steps.len()), t.focus()),
        Line::styled(text, style),
    ];
    if let Some(c) = s.cursor() {
        for sec in c.sections(&PhaseInput::of(s.scenario(), &s.rules)) {
            lines.push(Line::raw(""));
            lines.push(Line::styled(sec.title, t.focus()));
            lines.extend(sec.lines.into_iter().map(|l| Line::raw(format!("  {l}"))));
        }
        if c.cursor() < c.len() {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                "the outcomes below are the phase's, at the end of the trace",
                t.dim(),
            ));
        }
    }
    lines.push(Line::raw(""));
    lines.extend(super::outcomes::lines(vm));
    lines
}

/// The detail panel (in the tree's and the trace's place): [`state_lines`], wrapped, scrolled
/// by the panel's keys (stopping at the last row).
pub fn draw_state(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let title = format!(" {}: the step and its state ", vm.session.engine.name());
    frame.render_widget(panel(vm, parts::title(&title, area), Context::Detail), area);
    let inner = area.inner(Margin::new(1, 1));
    let lines = state_lines(vm);
    let rows = parts::wrapped_rows(&lines, inner.width, false);
    let max = rows.saturating_sub(usize::from(inner.height));
    let top = usize::from(vm.detail_scroll).min(max);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(top).unwrap_or(u16::MAX), 0)),
        inner,
    );
    if top < max && inner.height > 0 && inner.width > 0 {
        // More below: say so in the last cell.
        let cell = Rect::new(inner.right() - 1, inner.bottom() - 1, 1, 1);
        frame.render_widget(Paragraph::new("…"), cell);
    }
}
