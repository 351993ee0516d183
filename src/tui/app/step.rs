//! The stepper, the dependency tree, the rules table and the board's selection: moving
//! through them, with the keys and with the mouse.

use std::sync::Arc;

use super::App;
use crate::tui::action::Action;
use crate::tui::grid::neighbour;
use crate::tui::keymap::Context;
use crate::tui::session::{RunState, Session, next_preset};
use crate::tui::state::{Tree, View};
use dipsandbox_core::engine::Engine;
use dipsandbox_core::model::map::ProvinceId;
use dipsandbox_core::model::rules::Rules;

impl App {
    /// Selects a province, and the order of its unit if it has one.
    pub fn select_province(&mut self, p: ProvinceId) {
        self.board.province = Some(p);
        self.board.pan = (0, 0);
        if let Some(i) = self.session.order_at(p) {
            self.orders.order = i;
        }
    }

    /// Selects an order, and its unit's province.
    pub fn select_order(&mut self, i: usize) {
        let n = self.session.scenario().orders.len();
        if n == 0 {
            return;
        }
        self.orders.order = i.min(n - 1);
        if let Some(p) = self.session.order_province(self.orders.order) {
            self.board.province = Some(p);
        }
    }

    pub(super) fn select_order_by(&mut self, d: isize) {
        let n = self.session.scenario().orders.len() as isize;
        if n > 0 {
            self.select_order((self.orders.order as isize + d).clamp(0, n - 1) as usize);
        }
    }

    /// Adjudicates with `engine` (the stepper shows its reasoning: the decision graph, or the
    /// DPjudge procedure's steps).
    pub fn set_engine(&mut self, engine: Arc<dyn Engine>) {
        if engine.name() == self.session.engine.name() {
            return;
        }
        self.session.set_engine(engine.clone());
        self.stepper.decision = 0;
        self.stepper.tree = Tree {
            root: 0,
            open: vec![vec![0]],
            row: 0,
        };
        self.info(format!("engine: {} — {}", engine.name(), engine.title()));
    }

    /// Rows of the stepper's first panel: decisions, or (DPjudge) units.
    pub(super) fn decision_count(&self) -> usize {
        if self.session.dp().is_some() {
            return self.session.scenario().units.len();
        }
        self.session
            .run
            .result
            .decisions()
            .as_ref()
            .map_or(0, |m| m.graph.nodes.len())
    }

    pub(super) fn select_decision_by(&mut self, d: isize) {
        let n = self.decision_count() as isize;
        if n > 0 {
            self.stepper.decision = (self.stepper.decision as isize + d).clamp(0, n - 1) as usize;
            self.set_tree_root(self.stepper.decision as u32);
        }
    }

    pub(super) fn set_tree_root(&mut self, id: u32) {
        if self.stepper.tree.root != id || self.stepper.tree.open.is_empty() {
            self.stepper.tree = Tree {
                root: id,
                open: vec![vec![id]],
                row: 0,
            };
        }
    }

    pub(super) fn toggle_tree_row(&mut self, want: Option<bool>) {
        let rows = self.stepper.tree.rows(&self.session);
        let Some(row) = rows.get(self.stepper.tree.row) else {
            return;
        };
        if row.back_edge || !row.has_children {
            return;
        }
        let pos = self.stepper.tree.open.iter().position(|p| *p == row.path);
        match (pos, want) {
            (Some(i), None | Some(false)) => {
                // Fold this row and everything under it.
                let path = self.stepper.tree.open.remove(i);
                self.stepper.tree.open.retain(|p| !p.starts_with(&path));
            }
            (None, None | Some(true)) => self.stepper.tree.open.push(row.path.clone()),
            _ => {}
        }
    }

    /// Moves the stepper by `d` steps (the events the engine does not mark minor); false when
    /// it could not move.
    pub fn step(&mut self, d: isize) -> bool {
        let Some(c) = self.session.cursor() else {
            self.info("this phase has no trace to step: its outcomes are in the stepper view");
            return false;
        };
        let steps = &self.session.steps;
        let cur = c.cursor();
        // The position of the cursor among the steps: how many are applied.
        let applied = steps.partition_point(|&i| i < cur);
        let target = applied as isize + d;
        if target < 0 || target as usize > steps.len() {
            return false;
        }
        let k = match (target as usize).checked_sub(1) {
            None => 0,
            Some(j) => match steps.get(j) {
                Some(s) => s + 1,
                None => return false,
            },
        };
        if k == cur {
            return false;
        }
        self.seek(k);
        true
    }

    pub(super) fn seek(&mut self, k: usize) {
        if let Some(c) = self.session.cursor_mut() {
            let n = c.len();
            c.seek(k.min(n));
        }
        self.stepper.detail = 0;
    }

    /// Scrolls the detail panel (the step in full and the engine's state) by `d` rows; the view
    /// stops it at the last row.
    pub(super) fn scroll_detail(&mut self, d: isize) {
        let v = (self.stepper.detail as isize + d).clamp(0, u16::MAX as isize);
        self.stepper.detail = v as u16;
    }

    /// The next (previous) landmark of the trace — a cycle, a backup rule, a step of a
    /// procedure — whatever the engine: the events it marks as such through the seam.
    pub(super) fn jump_backup(&mut self, forward: bool) {
        let Some(c) = self.session.cursor() else {
            return;
        };
        let cur = c.cursor();
        let is_landmark = |i: &usize| c.mark(*i).landmark.is_some();
        // Cursor k applies events 0..k: event i is "reached" at cursor i + 1.
        let target = if forward {
            (cur..c.len()).find(is_landmark)
        } else {
            (0..cur.saturating_sub(1)).rev().find(is_landmark)
        };
        match target {
            Some(i) => {
                self.seek(i + 1);
                // The decision graph's panels follow: the event's first decision is selected.
                if let Some(st) = self.session.stepper()
                    && let Some(first) = st.nodes_of(i).first()
                {
                    self.stepper.decision = *first as usize;
                    self.set_tree_root(*first);
                }
            }
            None => self.info(if forward {
                "no later cycle, backup rule or step"
            } else {
                "no earlier cycle, backup rule or step"
            }),
        }
    }

    pub(super) fn seek_settled(&mut self) {
        let id = if self.focus == Context::Tree {
            self.stepper
                .tree
                .rows(&self.session)
                .get(self.stepper.tree.row)
                .map(|r| r.id)
                .unwrap_or(self.stepper.decision as u32)
        } else {
            self.stepper.decision as u32
        };
        let Some(st) = self.session.stepper() else {
            return;
        };
        match st.settled_at(id) {
            Some(i) => self.seek(i + 1),
            None => self.info("this decision had its value from the start"),
        }
    }

    pub(super) fn jump_to_decisions(&mut self) {
        let ds = self.session.order_decisions(self.orders.order);
        match ds.first() {
            Some(&id) => {
                self.stepper.decision = id as usize;
                self.set_tree_root(id);
                self.view = View::Stepper;
                self.focus = Context::Decisions;
            }
            None => {
                let why = match self.session.run.result.decisions() {
                    None => "this phase has no decision graph",
                    Some(_) => "an illegal or void order has no decision",
                };
                self.info(why);
            }
        }
    }

    /// What a message says in place of a comparison while the result is not current: it is on
    /// its way, or there is none (failed or cancelled).
    fn no_result_yet(&self) -> Option<&'static str> {
        match &self.session.state {
            RunState::Current => None,
            RunState::Pending { .. } => Some("adjudicating…"),
            _ => Some("no result"),
        }
    }

    /// Re-adjudicates under `r`, compared with the scenario's own rules (or, when `r` are the
    /// scenario's own, with the next preset) so that the compare view shows what the change
    /// decides.
    pub(super) fn set_rules(&mut self, r: Rules) {
        if self.session.comparing_recording() {
            self.session.set_rules(r);
        } else {
            // Compared with the scenario's own rules (or the next preset): one request.
            let own = self.session.scenario().rules;
            self.session
                .set_rules_compared(r, if r == own { next_preset(&r, 1) } else { own });
        }
        // Against a replay's recording: the recording stays (which rules give it?).
        if self.session.comparing_recording() {
            let n = self.changed_outcomes();
            self.info(format!(
                "rules: {}; {}",
                Session::rules_name(&r),
                match n {
                    // No result yet (or none at all): nothing to compare.
                    _ if let Some(w) = self.no_result_yet() => w.to_string(),
                    0 => "the recorded result".to_string(),
                    n => format!(
                        "{} from the recording (3: Rules view)",
                        dipsandbox_core::base::text::count(n, "difference")
                    ),
                }
            ));
            return;
        }
        let changed = self.changed_outcomes();
        self.info(format!(
            "rules: {}; {}",
            Session::rules_name(&r),
            match changed {
                // No result yet (or none at all): nothing to compare.
                _ if let Some(w) = self.no_result_yet() => w.to_string(),
                0 => format!(
                    "the same result as {}",
                    Session::rules_name(&self.session.compare_rules)
                ),
                n => format!(
                    "{} from {} (3: Rules view)",
                    dipsandbox_core::base::text::count(n, "difference"),
                    Session::rules_name(&self.session.compare_rules)
                ),
            }
        ));
    }

    /// Pans the board by a quarter of its larger side in the direction of `a`, within the art.
    pub(super) fn pan(&mut self, a: Action) {
        let g = &self.board.art.grid;
        let (w, h) = (i32::from(g.width), i32::from(g.height));
        let (dx, dy) = match a {
            Action::PanLeft => (-(w / 4).max(1), 0),
            Action::PanRight => ((w / 4).max(1), 0),
            Action::PanUp => (0, -(h / 4).max(1)),
            _ => (0, (h / 4).max(1)),
        };
        let (px, py) = self.board.pan;
        self.board.pan = ((px + dx).clamp(-w, w), (py + dy).clamp(-h, h));
    }

    pub(super) fn arrow(&mut self, a: Action) {
        let (dx, dy): (i8, i8) = match a {
            Action::Up => (0, -1),
            Action::Down => (0, 1),
            Action::Left => (-1, 0),
            _ => (1, 0),
        };
        match self.focus {
            Context::Board => {
                let map = &self.session.scenario().map;
                let next = neighbour(map, &self.board.art.grid, self.board.province, dx, dy);
                if let Some(p) = next {
                    self.select_province(p);
                }
            }
            Context::Orders if dy != 0 => self.select_order_by(dy as isize),
            Context::Decisions | Context::Units if dy != 0 => self.select_decision_by(dy as isize),
            Context::Tree => match a {
                Action::Up => self.stepper.tree.row = self.stepper.tree.row.saturating_sub(1),
                Action::Down => {
                    let n = self.stepper.tree.rows(&self.session).len();
                    self.stepper.tree.row = (self.stepper.tree.row + 1).min(n.saturating_sub(1));
                }
                Action::Right => self.toggle_tree_row(Some(true)),
                _ => self.toggle_tree_row(Some(false)),
            },
            Context::Trace if dy != 0 => {
                self.step(dy as isize);
            }
            Context::Detail if dy != 0 => self.scroll_detail(dy as isize),
            Context::Rules => match a {
                Action::Up => self.rules.row = self.rules.row.saturating_sub(1),
                Action::Down => {
                    let n = self.session.rules.table().len();
                    self.rules.row = (self.rules.row + 1).min(n - 1);
                }
                _ => self.cycle_rule_value(dx as isize),
            },
            _ => {}
        }
    }

    /// Scrolls the compare panel by `d` rows, from 0 to its last line (as drawn now).
    pub(super) fn scroll_compare(&mut self, d: isize) {
        let screen = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let vm = self.view_model(screen);
        let most = vm
            .panes
            .compare
            .map_or(0, |r| crate::tui::view::rules::compare_max_scroll(&vm, r));
        let (now, most) = (
            i64::from(self.rules.compare_scroll.min(most)),
            i64::from(most),
        );
        let d = i64::try_from(d).unwrap_or(0);
        self.rules.compare_scroll = u16::try_from((now + d).clamp(0, most)).unwrap_or(0);
    }

    pub(super) fn cycle_rule_value(&mut self, step: isize) {
        let table = self.session.rules.table();
        let Some(row) = table.get(self.rules.row) else {
            return;
        };
        let n = row.values.len() as isize;
        let i = row.values.iter().position(|v| *v == row.value).unwrap_or(0) as isize;
        let Some(&v) = row.values.get((i + step).rem_euclid(n.max(1)) as usize) else {
            return;
        };
        let mut r = self.session.rules;
        if r.set(row.field, v).is_ok() {
            self.set_rules(r);
        }
    }

    /// Starts or stops autoplay (from the start when the trace is at its end).
    pub(super) fn play(&mut self) {
        if self.session.stepper().is_none() && self.session.dp().is_none() {
            self.info("this phase has no decision graph to play");
            return;
        }
        self.stepper.playing = !self.stepper.playing;
        if self.stepper.playing
            && self
                .session
                .stepper()
                .as_ref()
                .is_some_and(|s| s.cursor() == s.len())
        {
            self.seek(0);
        }
    }

    /// Compares with the next preset (never the rules in use).
    pub(super) fn next_compare(&mut self) {
        let mut r = next_preset(&self.session.compare_rules, 1);
        if r == self.session.rules {
            r = next_preset(&r, 1);
        }
        self.session.set_compare(r);
        self.info(format!(
            "comparing with the {} rules",
            Session::rules_name(&r)
        ));
    }

    /// Compares with the next engine under the same rules, or (again) rule sets.
    pub(super) fn compare_engines(&mut self) {
        self.session.toggle_compare_engines();
        if self.session.comparing_recording() {
            self.info(self.recording_words());
        } else if self.session.comparing_engines() {
            self.info(format!(
                "comparing {} with {} under the same rules",
                self.session.engine.name(),
                self.session.compare_engine.name()
            ));
        } else {
            // A replay's recording comes back after the engines.
            let back = if self.session.replay.is_some() {
                let key = self.key_name(Context::Global, Action::CompareEngines);
                format!(" ({key}: engines, {key} again: the recording)")
            } else {
                String::new()
            };
            self.info(format!(
                "comparing with the {} rules{back}",
                Session::rules_name(&self.session.compare_rules)
            ));
        }
    }

    pub(super) fn click_focus(&mut self, x: u16, y: u16) {
        let panes = self.panes();
        for (rect, f) in panes.focusable() {
            if rect.contains((x, y).into()) {
                self.focus = f;
            }
        }
    }

    /// A click: a tab, or a row or province of the panel under it.
    pub(super) fn click(&mut self, x: u16, y: u16) {
        use crate::tui::hit;
        if self.popup.is_some() {
            return;
        }
        let panes = self.panes();
        if let Some(v) = panes.tab_at(x, y) {
            self.set_view(v);
            return;
        }
        self.click_focus(x, y);
        match self.focus {
            Context::Board => {
                let map = &self.session.scenario().map;
                let g = &self.board.art.grid;
                if let Some(p) = crate::tui::grid::province_at(
                    map,
                    g,
                    self.board.province,
                    self.board.pan,
                    &panes,
                    x,
                    y,
                ) {
                    self.select_province(p);
                }
            }
            Context::Orders => {
                let n = self.session.scenario().orders.len();
                if let Some(i) = hit::order_at(&panes, y, self.orders.order, n) {
                    self.select_order(i);
                }
            }
            Context::Decisions | Context::Units => {
                let n = self.decision_count();
                if let Some(i) = hit::decision_at(&panes, y, self.stepper.decision, n) {
                    self.stepper.decision = i;
                    self.set_tree_root(i as u32);
                }
            }
            Context::Tree => {
                let n = self.stepper.tree.rows(&self.session).len();
                if let Some(i) = hit::tree_row_at(&panes, y, self.stepper.tree.row, n) {
                    self.stepper.tree.row = i;
                }
            }
            Context::Trace => {
                let s = &self.session;
                let applied = s
                    .stepper()
                    .as_ref()
                    .map_or(0, |st| s.steps.partition_point(|&i| i < st.cursor()));
                if let Some(k) = hit::cursor_at(&panes, y, &s.steps, applied) {
                    self.seek(k);
                }
            }
            Context::Rules => {
                let n = self.session.rules.table().len();
                if let Some(i) = hit::rule_at(&panes, y, self.rules.row, n) {
                    self.rules.row = i;
                }
            }
            // Not panels: the focus is never one of these.
            _ => {}
        }
    }
}
