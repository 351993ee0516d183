//! The decisions panel: every decision of the resolver, its value (or bounds) as of the
//! stepper's cursor, and whether it is open, settled, in a cycle or forced by a backup rule;
//! `•` marks the decisions that decided the selected order. The first row gives the equation
//! oracle's count: one solution (the equations decide) or none or several (a backup rule does).

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Panes, fit, panel, scroll};
use crate::tui::app::App;
use crate::tui::keymap::Context;
use crate::tui::session::Equations;

/// The marker and style of a decision as of the cursor: `↺` in a cycle, `!` forced by a
/// backup rule, `?` open, ` ` settled.
pub fn state(app: &App, id: u32) -> (&'static str, Style) {
    let Some(st) = app.session.stepper() else {
        return (" ", Style::new());
    };
    let t = &app.theme;
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
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let s = &app.session;
    let Some(m) = s.run.result.decisions() else {
        return;
    };
    let Some(st) = s.stepper() else { return };
    let n = m.graph.nodes.len();
    let open = (0..n as u32).filter(|&id| !st.resolved(id)).count();
    let title = format!(" Decisions ({n}, {open} open) ");
    frame.render_widget(panel(app, title, Context::Decisions), area);
    let (head, inner) = split_head(area);
    if let Some(eq) = s.equations {
        let style = match eq {
            Equations::Solutions { agrees: false, .. } => app.theme.error(),
            Equations::Solutions { count: 1, .. } => app.theme.dim(),
            _ => app.theme.cycle(),
        };
        let text = eq.text();
        frame.render_widget(
            Paragraph::new(Line::styled(fit(&text, head.width as usize), style)),
            head,
        );
    }
    let h = inner.height as usize;
    let top = scroll(app.decision, n, h);
    let touched = st
        .cursor()
        .checked_sub(1)
        .map(|i| st.nodes_of(i))
        .unwrap_or_default();
    // The decisions that decided the selected order.
    let related = s.order_decisions(app.order);
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for id in top..(top + h).min(n) {
        let id32 = id as u32;
        let (mark, style) = state(app, id32);
        let value = s.node_value(id32);
        let here = if touched.contains(&id32) { "▶" } else { " " };
        let subject = s.node_subject(id32);
        let room = w.saturating_sub(value.chars().count() + 5);
        let mut line = Line::from(vec![
            Span::styled(here, app.theme.focus()),
            Span::styled(mark, style),
            Span::styled(
                if related.contains(&id32) { "•" } else { " " },
                app.theme.focus(),
            ),
            Span::raw(format!("{:<room$}", fit(&subject, room))),
            Span::raw(" "),
            Span::styled(value, style),
        ]);
        if id == app.decision {
            line = line.style(app.theme.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The panel's first row (the equation oracle's count) and the rows of decisions below it.
fn split_head(area: Rect) -> (Rect, Rect) {
    let inner = area.inner(Margin::new(1, 1));
    let head = Rect {
        height: inner.height.min(1),
        ..inner
    };
    let rows = Rect {
        y: inner.y + head.height,
        height: inner.height - head.height,
        ..inner
    };
    (head, rows)
}

/// The decision under a click at row `y`.
pub fn row_at(app: &App, panes: &Panes, y: u16) -> Option<usize> {
    let (_, inner) = split_head(panes.decisions?);
    let n = app.session.run.result.decisions()?.graph.nodes.len();
    if y < inner.y || y >= inner.bottom() {
        return None;
    }
    let i = scroll(app.decision, n, inner.height as usize) + (y - inner.y) as usize;
    (i < n).then_some(i)
}
