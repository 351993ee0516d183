//! Hit-testing: which row, order, decision or trace position is under a click. Plain functions
//! of the panes, the row counts and the selections (as the views scroll them); nothing here
//! knows the app.

use ratatui::layout::{Margin, Rect};

use super::layout::{
    Panes, decisions_split, orders_split, rules_list, scroll, trace_rows, trace_split,
};

/// The row of a list of `len` rows in `list`, scrolled to keep `selected` in view, under row `y`.
fn list_row(list: Rect, y: u16, selected: usize, len: usize) -> Option<usize> {
    if y < list.y || y >= list.bottom() {
        return None;
    }
    let i = scroll(selected, len, list.height as usize) + (y - list.y) as usize;
    (i < len).then_some(i)
}

/// The order under a click at row `y` (`order` selected of `len`).
pub fn order_at(panes: &Panes, y: u16, order: usize, len: usize) -> Option<usize> {
    list_row(orders_split(panes.orders?).0, y, order, len)
}

/// The decision under a click at row `y` (`decision` selected of `len`).
pub fn decision_at(panes: &Panes, y: u16, decision: usize, len: usize) -> Option<usize> {
    list_row(decisions_split(panes.decisions?).1, y, decision, len)
}

/// The tree row under a click at row `y` (`row` highlighted of `len`).
pub fn tree_row_at(panes: &Panes, y: u16, row: usize, len: usize) -> Option<usize> {
    list_row(panes.tree?.inner(Margin::new(1, 1)), y, row, len)
}

/// The rule row under a click at row `y` (`row` selected of `len`).
pub fn rule_at(panes: &Panes, y: u16, row: usize, len: usize) -> Option<usize> {
    list_row(rules_list(panes.rules?), y, row, len)
}

/// The cursor position (events applied) for a click on row `y` of the trace, given the
/// significant events (`steps`) and how many of them are applied.
pub fn cursor_at(panes: &Panes, y: u16, steps: &[usize], applied: usize) -> Option<usize> {
    let (list, _) = trace_split(panes.trace?);
    if y < list.y || y >= list.bottom() {
        return None;
    }
    let (_, top) = trace_rows(applied, steps.len(), list);
    match top + (y - list.y) as usize {
        0 => Some(0),
        r => steps.get(r - 1).map(|k| k + 1),
    }
}
