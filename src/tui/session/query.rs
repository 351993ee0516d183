//! What the views ask a session about its orders, units and decisions as of the cursor: which
//! unit an order moves, its verdict and fate so far, the provinces to highlight, the words for
//! a decision. Questions only: nothing here changes the session.

use dipsandbox_core::engine::decision::resolver::NodeKind;
use dipsandbox_core::engine::dpjudge::Mark;
use dipsandbox_core::engine::legality::{OrderStatus, UnitOrder};
use dipsandbox_core::engine::{Verdict, value_text};
use dipsandbox_core::model::map::ProvinceId;
use dipsandbox_core::model::orders::{NameStyle, OrderKind, format_order};

use super::Session;

impl Session {
    /// The unit (index) an order of the phase applies to, for movement phases.
    pub fn order_unit(&self, order: usize) -> Option<usize> {
        let prepared = self.prepared()?;
        match prepared.status.get(order)? {
            OrderStatus::Applied(u) => Some(*u),
            OrderStatus::Illegal(_) => None,
        }
    }

    /// The submitted order that applies to a unit, for movement phases.
    pub fn unit_order(&self, unit: usize) -> Option<usize> {
        let prepared = self.prepared()?;
        prepared.source.get(unit).copied().flatten()
    }

    /// The decision that says whether an order succeeds: MOVE for a move, SUPPORT for a
    /// support, DISLODGE for a hold or a convoy.
    pub fn main_decision(&self, order: usize) -> Option<u32> {
        let m = self.run.result.decisions()?;
        let u = self.order_unit(order)?;
        match m.prepared.orders.get(u)? {
            UnitOrder::Move { .. } => m.graph.node_of(u, NodeKind::Move),
            UnitOrder::Support { void: None, .. } => m.graph.node_of(u, NodeKind::Support),
            UnitOrder::Support { .. } | UnitOrder::Convoy { void: Some(_), .. } => None,
            UnitOrder::Hold | UnitOrder::Convoy { .. } => m.graph.node_of(u, NodeKind::Dislodge),
        }
    }

    /// The decisions that decided an order, its own first (see `Reason::decisions`): e.g. a
    /// move's MOVE, ATTACK and PATH and the strength it was measured against.
    pub fn order_decisions(&self, order: usize) -> Vec<u32> {
        let (Some(m), Some(u)) = (self.run.result.decisions(), self.order_unit(order)) else {
            return Vec::new();
        };
        let Some(out) = self.run.phase().outcomes.get(order) else {
            return Vec::new();
        };
        let mut v: Vec<u32> = self.main_decision(order).into_iter().collect();
        for id in dipsandbox_core::engine::decision::reason_decisions(&out.cause, &m.graph, u) {
            if !v.contains(&id) {
                v.push(id);
            }
        }
        v
    }

    /// An order's verdict as of the stepper's cursor: known once its main decision is settled
    /// (illegal and void orders are known from the start); None while open.
    pub fn verdict_now(&self, order: usize) -> Option<Verdict> {
        let out = self.run.phase().outcomes.get(order)?;
        if matches!(out.verdict, Verdict::Illegal | Verdict::Void) {
            return Some(out.verdict);
        }
        if let Some(dp) = self.dp() {
            // The procedure decides at its end: before it, only what the marks already say.
            if dp.cursor() >= dp.len() {
                return Some(out.verdict);
            }
            let u = self.order_unit(order)?;
            let m = dp.marks(u);
            return if m.contains(Mark::Cut) || m.contains(Mark::Dislodged) {
                Some(Verdict::Fails)
            } else if dp.location(u).is_some_and(|l| {
                self.scenario()
                    .units
                    .get(u)
                    .is_some_and(|unit| unit.loc != l)
            }) {
                Some(Verdict::Succeeds)
            } else {
                None
            };
        }
        match (self.stepper(), self.main_decision(order)) {
            (Some(st), Some(id)) if !st.resolved(id) => None,
            _ => Some(out.verdict),
        }
    }

    /// Whether a unit's move has succeeded / failed as of the cursor (None: open or no move).
    pub fn moved_now(&self, unit: usize) -> Option<bool> {
        if let Some(dp) = self.dp() {
            let here = self.scenario().units.get(unit)?.loc;
            if dp.location(unit).is_some_and(|l| l != here) {
                return Some(true);
            }
            let bounced = dp.marks(unit).contains(Mark::Bounce);
            return (bounced || dp.cursor() >= dp.len())
                .then_some(false)
                .filter(|_| self.unit_moves(unit));
        }
        let m = self.run.result.decisions()?;
        let id = m.graph.node_of(unit, NodeKind::Move)?;
        let st = self.stepper()?;
        let (lo, hi) = st.bounds(id);
        (lo == hi).then_some(lo == 1)
    }

    /// Whether a unit is dislodged as of the cursor.
    pub fn dislodged_now(&self, unit: usize) -> bool {
        if let Some(dp) = self.dp() {
            return dp.marks(unit).contains(Mark::Dislodged);
        }
        let (Some(m), Some(st)) = (self.run.result.decisions(), self.stepper()) else {
            return false;
        };
        m.graph
            .node_of(unit, NodeKind::Dislodge)
            .is_some_and(|id| st.bounds(id) == (1, 1))
    }

    /// Whether the unit's order (as classed) is a move.
    fn unit_moves(&self, unit: usize) -> bool {
        let Some(prepared) = self.prepared() else {
            return false;
        };
        matches!(prepared.orders.get(unit), Some(UnitOrder::Move { .. }))
    }

    /// A decision's subject: `MOVE A Bre - Lon`.
    pub fn node_subject(&self, id: u32) -> String {
        let Some(m) = self.run.result.decisions() else {
            return String::new();
        };
        let Some(node) = m.graph.nodes.get(id as usize) else {
            return String::new();
        };
        format!("{} {}", node.kind.short(), self.unit_text(node.unit))
    }

    /// A unit's order in short form (`A Bre - Lon`), or the unit when it has none.
    pub fn unit_text(&self, unit: usize) -> String {
        let s = self.scenario();
        match self.unit_order(unit) {
            Some(i) => self.order_short(i),
            None => s
                .units
                .get(unit)
                .map(|u| format!("{} {}", u.kind.letter(), s.map.loc_abbr(u.loc)))
                .unwrap_or_default(),
        }
    }

    /// An order in short form, without its power: `F Lon S F Wal - Eng`.
    pub fn order_short(&self, order: usize) -> String {
        let s = self.scenario();
        match s.orders.get(order) {
            Some(o) => {
                let mut o = o.order.clone();
                o.power = None;
                format_order(&s.map, &o, NameStyle::Abbr)
            }
            None => String::new(),
        }
    }

    /// A decision's value as of the cursor, in words.
    pub fn node_value(&self, id: u32) -> String {
        let (Some(m), Some(st)) = (self.run.result.decisions(), self.stepper()) else {
            return String::new();
        };
        let (lo, hi) = st.bounds(id);
        m.graph
            .nodes
            .get(id as usize)
            .map(|n| value_text(n.kind, lo, hi))
            .unwrap_or_default()
    }

    /// The province an order's unit stands in.
    pub fn order_province(&self, order: usize) -> Option<ProvinceId> {
        let o = self.scenario().orders.get(order)?;
        o.order.unit.map(|u| u.loc.province)
    }

    /// The province an order aims at (a move's destination, a supported move's destination or
    /// the supported unit's province, a convoy's destination).
    pub fn order_target(&self, order: usize) -> Option<ProvinceId> {
        let o = self.scenario().orders.get(order)?;
        match &o.order.kind {
            OrderKind::Move { dest, .. } => Some(dest.province),
            OrderKind::Support { target, dest } => {
                Some(dest.map(|d| d.province).unwrap_or(target.unit.loc.province))
            }
            OrderKind::Convoy { dest, .. } => Some(dest.province),
            _ => None,
        }
    }

    /// The province of the unit an order supports or convoys.
    pub fn order_helped(&self, order: usize) -> Option<ProvinceId> {
        let o = self.scenario().orders.get(order)?;
        match &o.order.kind {
            OrderKind::Support { target, .. } => Some(target.unit.loc.province),
            OrderKind::Convoy { army, .. } => Some(army.unit.loc.province),
            _ => None,
        }
    }

    /// The provinces of the units an order's reason names (who cut, bounced or dislodged it),
    /// as they stood before the phase.
    pub fn order_cause_provinces(&self, order: usize) -> Vec<ProvinceId> {
        let Some(out) = self.run.phase().outcomes.get(order) else {
            return Vec::new();
        };
        out.cause
            .units()
            .into_iter()
            .filter_map(|u| self.scenario().units.get(u))
            .map(|u| self.scenario().map.province_of(u.loc))
            .collect()
    }

    /// The first order whose unit stands in a province.
    pub fn order_at(&self, p: ProvinceId) -> Option<usize> {
        (0..self.scenario().orders.len()).find(|&i| self.order_province(i) == Some(p))
    }
}
