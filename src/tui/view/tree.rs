//! The dependency tree of the selected decision: the decisions its equation reads, folded open
//! on demand; a decision already on the path from the root is shown as a back-edge (`↺`),
//! which is how a cycle shows.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::decisions;
use super::model::ViewModel;
use super::parts::{fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::scroll;

/// Draws the panel.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let title = if s.run.result.decisions().is_some() {
        format!(" Depends on: {} ", s.node_subject(vm.tree.root))
    } else {
        " Dependencies ".into()
    };
    frame.render_widget(
        panel(vm, super::parts::title(&title, area), Context::Tree),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let rows = &vm.tree_rows;
    let h = inner.height as usize;
    let top = scroll(vm.tree.row, rows.len(), h);
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for (i, r) in rows.iter().enumerate().skip(top).take(h) {
        let depth = r.path.len() - 1;
        let fold = if r.back_edge {
            "↺ "
        } else if !r.has_children {
            "  "
        } else if r.open {
            "▾ "
        } else {
            "▸ "
        };
        let (mark, style) = decisions::state(vm, r.id);
        let value = s.node_value(r.id);
        let indent = "  ".repeat(depth.min(20));
        let subject = s.node_subject(r.id);
        let room = w.saturating_sub(indent.len() + 5 + value.chars().count() + 1);
        let mut line = Line::from(vec![
            Span::raw(indent),
            Span::styled(
                fold,
                if r.back_edge {
                    vm.theme.cycle()
                } else {
                    vm.theme.dim()
                },
            ),
            Span::styled(mark, style),
            Span::raw(" "),
            Span::raw(format!("{:<room$} ", fit(&subject, room))),
            Span::styled(value, style),
        ]);
        if i == vm.tree.row {
            line = line.style(vm.theme.selected());
        }
        lines.push(line);
    }
    if rows.is_empty() {
        lines.push(Line::styled("(select a decision)", vm.theme.dim()));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
