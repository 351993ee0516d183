//! The dependency tree of the selected decision: the decisions its equation reads, folded open
//! on demand; a decision already on the path from the root is shown as a back-edge (`↺`),
//! which is how a cycle shows.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Panes, decisions, fit, panel, scroll};
use crate::tui::app::App;
use crate::tui::keymap::Context;

/// Rows are capped so that a huge graph unfolded everywhere stays cheap.
const MAX_ROWS: usize = 2000;

/// One row of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeRow {
    /// The decision.
    pub id: u32,
    /// The path of decisions from the root to this row (inclusive).
    pub path: Vec<u32>,
    /// The decision already appears above it on the path: a cycle.
    pub back_edge: bool,
    /// It reads other decisions.
    pub has_children: bool,
    /// It is unfolded.
    pub open: bool,
}

/// The visible rows, in order (no recursion: an explicit stack).
pub fn rows(app: &App) -> Vec<TreeRow> {
    let Some(m) = app.session.run.result.decisions() else {
        return Vec::new();
    };
    let deps = &m.graph.deps;
    let root = app.tree.root;
    if root as usize >= deps.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut stack = vec![(vec![root], false)];
    while let Some((path, back_edge)) = stack.pop() {
        if out.len() >= MAX_ROWS {
            break;
        }
        let id = *path.last().unwrap_or(&root);
        let children: &[u32] = deps.get(id as usize).map_or(&[], |d| d.as_slice());
        let open = !back_edge && app.tree.open.contains(&path);
        if open {
            for &c in children.iter().rev() {
                let mut p = path.clone();
                let back = path.contains(&c);
                p.push(c);
                stack.push((p, back));
            }
        }
        out.push(TreeRow {
            id,
            has_children: !children.is_empty(),
            back_edge,
            open,
            path,
        });
    }
    out
}

/// Draws the panel.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let s = &app.session;
    let title = if s.run.result.decisions().is_some() {
        format!(" Depends on: {} ", s.node_subject(app.tree.root))
    } else {
        " Dependencies ".into()
    };
    frame.render_widget(
        panel(app, fit(&title, area.width as usize), Context::Tree),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let rows = rows(app);
    let h = inner.height as usize;
    let top = scroll(app.tree.row, rows.len(), h);
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
        let (mark, style) = decisions::state(app, r.id);
        let value = s.node_value(r.id);
        let indent = "  ".repeat(depth.min(20));
        let subject = s.node_subject(r.id);
        let room = w.saturating_sub(indent.len() + 5 + value.chars().count() + 1);
        let mut line = Line::from(vec![
            Span::raw(indent),
            Span::styled(
                fold,
                if r.back_edge {
                    app.theme.cycle()
                } else {
                    app.theme.dim()
                },
            ),
            Span::styled(mark, style),
            Span::raw(" "),
            Span::raw(format!("{:<room$} ", fit(&subject, room))),
            Span::styled(value, style),
        ]);
        if i == app.tree.row {
            line = line.style(app.theme.selected());
        }
        lines.push(line);
    }
    if rows.is_empty() {
        lines.push(Line::styled("(select a decision)", app.theme.dim()));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The tree row under a click at row `y`.
pub fn row_at(app: &App, panes: &Panes, y: u16) -> Option<usize> {
    let inner = panes.tree?.inner(Margin::new(1, 1));
    if y < inner.y || y >= inner.bottom() {
        return None;
    }
    let n = rows(app).len();
    let i = scroll(app.tree.row, n, inner.height as usize) + (y - inner.y) as usize;
    (i < n).then_some(i)
}
