//! Where things go on the screen: the panes of each view, each pane's inner parts, the tabs and
//! the scrolling of lists. Plain functions of sizes and a few numbers, shared by the views (to
//! draw) and by [`super::hit`] (to hit-test clicks); nothing here knows the app.

use ratatui::layout::{Constraint, Layout, Margin, Rect};

use super::keymap::Context;

/// The views, one per tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Board and orders.
    Board,
    /// Decisions, dependency tree, trace.
    Stepper,
    /// Rules and compare.
    Rules,
}

/// Smallest size at which the views are drawn; below it a one-line notice is shown.
pub const MIN_SIZE: (u16, u16) = (20, 6);

/// The tabs, in order, with their labels.
pub const TABS: &[(View, &str)] = &[
    (View::Board, " 1 Board "),
    (View::Stepper, " 2 Stepper "),
    (View::Rules, " 3 Rules "),
];

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
    /// The step at the cursor in full and the engine's state at that step (the stepper of an
    /// engine with no panels of its own, beside its trace).
    pub detail: Option<Rect>,
    /// The stepper's first panel lists the DPjudge procedure's units (not decisions), and its
    /// second the combat lists (not a tree).
    pub procedure: bool,
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
            (
                self.decisions,
                if self.procedure {
                    Context::Units
                } else {
                    Context::Decisions
                },
            ),
            (self.tree.filter(|_| !self.procedure), Context::Tree),
            (self.trace, Context::Trace),
            (self.detail, Context::Detail),
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
        for (view, label) in TABS {
            let w = label.chars().count() as u16;
            if x >= at && x < at + w {
                return Some(*view);
            }
            at += w + 1;
        }
        None
    }
}

/// Which panels the stepper shows, by what the engine's result shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepperPanels {
    /// The decision graph's: decisions, their dependency tree, the trace (and the outcomes of
    /// a phase with no trace, in the same places).
    #[default]
    Graph,
    /// The DPjudge procedure's: its units with marks and counts, the combat lists, the trace.
    Procedure,
    /// Any engine's: the trace, and beside it the step in full with the engine's state.
    Trace,
}

/// The panels of a view, in focus order.
pub fn panels(view: View, stepper: StepperPanels) -> &'static [Context] {
    match (view, stepper) {
        (View::Board, _) => &[Context::Board, Context::Orders],
        (View::Stepper, StepperPanels::Trace) => &[Context::Trace, Context::Detail],
        (View::Stepper, StepperPanels::Procedure) => &[Context::Units, Context::Trace],
        (View::Stepper, StepperPanels::Graph) => {
            &[Context::Decisions, Context::Tree, Context::Trace]
        }
        (View::Rules, _) => &[Context::Rules],
    }
}

/// Lays out `view` in `area`, the stepper with the panels `stepper` says (for
/// [`StepperPanels::Trace`], the stepper's left half is the trace and its right half the detail).
pub fn layout_for(area: Rect, view: View, stepper: StepperPanels) -> Panes {
    let mut p = layout(area, view);
    if view != View::Stepper {
        return p;
    }
    match stepper {
        StepperPanels::Trace => {
            if let (Some(d), Some(t), Some(tr)) = (p.decisions, p.tree, p.trace) {
                p.trace = Some(d);
                p.detail = Some(t.union(tr));
                p.decisions = None;
                p.tree = None;
            }
        }
        StepperPanels::Procedure => p.procedure = true,
        StepperPanels::Graph => {}
    }
    p
}

/// Lays out `view` in `area`.
pub fn layout(area: Rect, view: View) -> Panes {
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
    match view {
        View::Board => {
            let [b, o] = if wide {
                // The board's art is 73 columns wide: what is left beyond it goes to the
                // orders and their reasons.
                let side = if main.width >= 110 {
                    main.width.saturating_sub(75).max(45)
                } else {
                    (main.width * 2 / 5).max(28)
                };
                Layout::horizontal([Constraint::Min(10), Constraint::Length(side)]).areas(main)
            } else {
                Layout::vertical([Constraint::Percentage(60), Constraint::Min(3)]).areas(main)
            };
            p.board = Some(b);
            p.orders = Some(o);
        }
        View::Stepper => {
            let [d, t, tr] = if wide {
                let [d, right] =
                    Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                        .areas(main);
                let [t, tr] =
                    Layout::vertical([Constraint::Percentage(45), Constraint::Percentage(55)])
                        .areas(right);
                [d, t, tr]
            } else {
                Layout::vertical([
                    Constraint::Percentage(40),
                    Constraint::Percentage(25),
                    Constraint::Percentage(35),
                ])
                .areas(main)
            };
            p.decisions = Some(d);
            p.tree = Some(t);
            p.trace = Some(tr);
        }
        View::Rules => {
            let [r, c] = if wide {
                Layout::horizontal([
                    Constraint::Length(56.min(main.width / 2 + 6)),
                    Constraint::Min(10),
                ])
                .areas(main)
            } else {
                Layout::vertical([Constraint::Percentage(55), Constraint::Min(3)]).areas(main)
            };
            p.rules = Some(r);
            p.compare = Some(c);
        }
    }
    p
}

/// The first row to show so that `selected` stays visible in a list of `len` rows of which
/// `height` fit: the selection is kept near the middle.
pub fn scroll(selected: usize, len: usize, height: usize) -> usize {
    if len <= height || height == 0 {
        return 0;
    }
    selected.saturating_sub(height / 2).min(len - height)
}

/// Rows under the board for the selection and the legend.
const BOARD_FOOTER: u16 = 4;

/// The board panel's map area and the footer under it. On a short panel the footer gives way
/// first: it takes at most a third of the rows past the selection line, so the map keeps at
/// least two thirds of them.
pub fn board_area(area: Rect) -> (Rect, Rect) {
    let inner = area.inner(Margin::new(1, 1));
    let rows = inner.height.saturating_sub(1);
    let footer = BOARD_FOOTER.min(1 + rows / 3).min(rows);
    let map = Rect::new(inner.x, inner.y, inner.width, inner.height - footer);
    let foot = Rect::new(inner.x, inner.y + map.height, inner.width, footer);
    (map, foot)
}

/// Rows of the orders panel's detail (the selected order in full).
const ORDER_DETAIL: u16 = 5;

/// The orders panel's list and, when there is room, the detail under it.
pub fn orders_split(area: Rect) -> (Rect, Option<Rect>) {
    let inner = area.inner(Margin::new(1, 1));
    if inner.height > ORDER_DETAIL + 3 {
        let [list, detail] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(ORDER_DETAIL)]).areas(inner);
        (list, Some(detail))
    } else {
        (inner, None)
    }
}

/// The decisions panel's first row (the equation oracle's count) and the rows below it.
pub fn decisions_split(area: Rect) -> (Rect, Rect) {
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

/// Rows at the bottom of the trace panel that spell out the event at the cursor in full.
const TRACE_DETAIL: u16 = 4;

/// The trace panel's list and, when there is room, the detail under it.
pub fn trace_split(area: Rect) -> (Rect, Option<Rect>) {
    let inner = area.inner(Margin::new(1, 1));
    if inner.height > TRACE_DETAIL + 4 {
        let list = Rect::new(inner.x, inner.y, inner.width, inner.height - TRACE_DETAIL);
        let detail = Rect::new(inner.x, list.bottom(), inner.width, TRACE_DETAIL);
        (list, Some(detail))
    } else {
        (inner, None)
    }
}

/// The rows of the trace list: how many significant events are applied, and the first row
/// shown (row 0 is "start"; row r is step r - 1).
pub fn trace_rows(applied: usize, steps: usize, list: Rect) -> (usize, usize) {
    (applied, scroll(applied, steps + 1, list.height as usize))
}

/// Rows above the rules list (the keys and the legend).
pub const RULES_HEADER: u16 = 2;

/// The rules panel's list.
pub fn rules_list(area: Rect) -> Rect {
    let inner = area.inner(Margin::new(1, 1));
    let head = RULES_HEADER.min(inner.height);
    Rect::new(inner.x, inner.y + head, inner.width, inner.height - head)
}
