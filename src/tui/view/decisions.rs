//! The decisions panel: every decision of the resolver, its value (or bounds) as of the
//! stepper's cursor, and whether it is open, settled, in a cycle or forced by a backup rule;
//! `•` marks the decisions that decided the selected order. The first row gives the equation
//! oracle's count: one solution (the equations decide) or none or several (a backup rule does).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::model::ViewModel;
use super::parts::{fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::decisions_split;
use crate::tui::layout::scroll;
use crate::tui::session::Equations;

/// The marker and style of a decision as of the cursor: `↺` in a cycle, `!` forced by a
/// backup rule, `?` open, ` ` settled.
pub fn state(vm: &ViewModel, id: u32) -> (&'static str, Style) {
    let Some(st) = vm.session.stepper() else {
        return (" ", Style::new());
    };
    let t = &vm.theme;
    if st.forced(id) {
        ("!", t.forced())
    } else if st.in_cycle(id) {
        ("↺", t.cycle())
    } else if st.resolved(id) {
        (" ", t.settled())
    } else {
        ("?", t.open())
    }
}

/// Draws the panel.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let Some(m) = s.run.result.decisions() else {
        return;
    };
    let Some(st) = s.stepper() else { return };
    let n = m.graph.nodes.len();
    let open = (0..n as u32).filter(|&id| !st.resolved(id)).count();
    let title = format!(" Decisions ({n}, {open} open) ");
    frame.render_widget(
        panel(vm, super::parts::title(&title, area), Context::Decisions),
        area,
    );
    let (head, inner) = decisions_split(area);
    if let Some(eq) = s.equations {
        let style = match eq {
            Equations::Solutions { agrees: false, .. } => vm.theme.error(),
            Equations::Solutions { count: 1, .. } => vm.theme.dim(),
            _ => vm.theme.cycle(),
        };
        let text = eq.text();
        frame.render_widget(
            Paragraph::new(Line::styled(fit(&text, head.width as usize), style)),
            head,
        );
    }
    let h = inner.height as usize;
    let top = scroll(vm.decision, n, h);
    let touched = st
        .cursor()
        .checked_sub(1)
        .map(|i| st.nodes_of(i))
        .unwrap_or_default();
    // The decisions that decided the selected order.
    let related = s.order_decisions(vm.order);
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for id in top..(top + h).min(n) {
        let id32 = id as u32;
        let (mark, style) = state(vm, id32);
        let value = s.node_value(id32);
        let here = if touched.contains(&id32) { "▶" } else { " " };
        let subject = s.node_subject(id32);
        let room = w.saturating_sub(value.chars().count() + 5);
        let mut line = Line::from(vec![
            Span::styled(here, vm.theme.focus()),
            Span::styled(mark, style),
            Span::styled(
                if related.contains(&id32) { "•" } else { " " },
                vm.theme.focus(),
            ),
            Span::raw(format!("{:<room$}", fit(&subject, room))),
            Span::raw(" "),
            Span::styled(value, style),
        ]);
        if id == vm.decision {
            line = line.style(vm.theme.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
