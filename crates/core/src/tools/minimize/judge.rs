//! The judge: builds a candidate scenario from the input by index, adjudicates it and says
//! whether the goal's properties still hold.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): item indices come from
// ranges over the very lists they index (units and orders of the scenario being cut, and subsets
// of those ranges).
#![allow(clippy::indexing_slicing)]

use std::collections::HashSet;
use std::mem::discriminant;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::engine::{Adjudicator, Engine, OrderOutcome, Reason, Verdict};
use crate::model::board::{PhaseKind, Unit};
use crate::model::map::{PowerId, ProvinceId};
use crate::model::orders::{NameStyle, Order, OrderKind, format_order};
use crate::model::rules::Rules;
use crate::model::scenario::{OrderEntry, Scenario};
use crate::tools::check::{Run, RunError, adjudicate_scenario, run};

use super::ddmin::Fingerprint;
use super::error::MinimizeError;
use super::holds::{backup_holds, differs, outcome_line, solutions_hold};
use super::property::Property;
use super::regions::Regions;
use super::types::{Bounds, Goal, Size, StopReason};

/// A candidate: which of the input's units and orders are kept, and which orders are holds.
#[derive(Clone, Debug)]
pub(super) struct Cand {
    /// Kept units, by pool index (board units, then dislodged units), ascending.
    pub(super) units: Vec<usize>,
    /// Kept orders, by pool index (the phase's, then the follow-up retreats'), ascending.
    pub(super) orders: Vec<usize>,
    /// Per phase order: replaced by a hold.
    pub(super) held: Vec<bool>,
}

/// A candidate made a scenario, with the maps from pool indices to its own.
pub(super) struct Built {
    pub(super) scenario: Scenario,
    /// Pool unit → index in the candidate's units (board units only; None when removed).
    pub(super) unit_at: Vec<Option<usize>>,
    /// Pool order → index in the candidate's phase or retreat orders (None when removed or
    /// made a hold).
    pub(super) order_at: Vec<Option<usize>>,
}

/// One mismatch of the input: what it observed, to be seen again.
#[derive(Clone, Debug)]
pub(super) enum Seen {
    /// An order (pool index) with an expected result its verdict misses.
    Order {
        pool: usize,
        verdict: Verdict,
        cause: std::mem::Discriminant<Reason>,
        line: String,
    },
    /// A board unit (pool index) whose fate the expectations do not give.
    Unit {
        pool: usize,
        ends: Option<Unit>,
        line: String,
    },
}

/// The buffers of [`Judge::judge_fast`], kept between candidates.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) adj: Adjudicator,
    pub(super) units: Vec<Unit>,
    pub(super) orders: Vec<(PowerId, Order)>,
    /// Pool unit → index in `units`.
    pub(super) unit_at: Vec<Option<usize>>,
    /// Pool order → index in `orders` (None when removed or made a hold).
    pub(super) order_at: Vec<Option<usize>>,
}

/// The input, indexed for building candidates and judging them.
pub(super) struct Judge<'a> {
    pub(super) s: &'a Scenario,
    pub(super) goal: &'a Goal,
    /// Board units in the pool (the rest are dislodged units of a retreat phase).
    pub(super) board: usize,
    /// Phase orders in the pool (the rest are follow-up retreat orders).
    pub(super) phase_orders: usize,
    /// Per pool order: the pool unit it orders, if any.
    pub(super) owner: Vec<Option<usize>>,
    /// Per phase order: its hold, when it can be made one.
    pub(super) hold: Vec<Option<OrderEntry>>,
    /// Per phase order: whether it is the only order of the input that names a unit in its
    /// province. Such an order made a hold is the same adjudication as the order removed (see
    /// [`Judge::key`]).
    pub(super) alone: Vec<bool>,
    /// Per [`Property::Outcome`] of the goal, in order: the pool order it names.
    pub(super) outcome_orders: Vec<usize>,
    /// The input's mismatches, for [`Property::Mismatch`].
    pub(super) seen: Vec<Seen>,
    /// Fingerprints of the candidates found failing (units, orders, orders made holds), so no
    /// pass tries one twice.
    pub(super) failed: HashSet<u128>,
    pub(super) fingerprint: Fingerprint,
    /// Whether candidates can be judged by [`Judge::judge_fast`]: a movement phase without
    /// follow-up retreats, and only backup, outcome and mismatch properties.
    pub(super) fast: bool,
    pub(super) buffers: Buffers,
    /// The orders of the phase a backup rule decided in the input (for the regions pass), and
    /// whether the candidate being judged is the input, whose ones they are.
    pub(super) backup_orders: Vec<usize>,
    pub(super) record_backup: bool,
    /// (board unit, province one of its orders moves it to), sorted (for
    /// [`Property::Mismatch`]).
    pub(super) moves_to: Vec<(usize, ProvinceId)>,
    pub(super) runs: usize,
    /// The engine that judges candidates, when it is not the decision engine (an outside
    /// adjudicator, say); None: the decision engine, with its fast paths.
    pub(super) engine: Option<Arc<dyn Engine>>,
    /// The bounds of the search, and when it began.
    pub(super) bounds: Bounds,
    pub(super) started: Instant,
    /// Set when a bound was reached.
    pub(super) stopped: Option<StopReason>,
}

/// Two orders are the same when their parses are, an `England:` prefix on `query` narrowing it
/// to that power's orders.
pub(super) fn same_order(query: &Order, entry: &OrderEntry) -> bool {
    let mut q = query.clone();
    q.power = None;
    let mut e = entry.order.clone();
    e.power = None;
    q == e && query.power.is_none_or(|p| p == entry.power)
}

impl<'a> Judge<'a> {
    pub(super) fn new(
        s: &'a Scenario,
        goal: &'a Goal,
        engine: Option<Arc<dyn Engine>>,
    ) -> Result<Judge<'a>, MinimizeError> {
        let map = &*s.map;
        let board = s.units.len();
        let phase_orders = s.orders.len();
        let province_of_order = |e: &OrderEntry| e.order.unit.map(|u| u.loc.province);
        // The first board unit and the first dislodged unit in each province, by province.
        let first = |at: &mut dyn Iterator<Item = ProvinceId>| {
            let mut table: Vec<Option<usize>> = vec![None; map.province_count()];
            for (i, p) in at.enumerate() {
                if let Some(slot @ None) = table.get_mut(p.0 as usize) {
                    *slot = Some(i);
                }
            }
            table
        };
        let board_first = first(&mut s.units.iter().map(|u| map.province_of(u.loc)));
        let dislodged_first = first(&mut s.dislodged.iter().map(|d| map.province_of(d.unit.loc)));
        let board_at = |p: ProvinceId| board_first.get(p.0 as usize).copied().flatten();
        let dislodged_at = |p: ProvinceId| {
            dislodged_first
                .get(p.0 as usize)
                .copied()
                .flatten()
                .map(|i| board + i)
        };
        let mut owner = Vec::new();
        for e in &s.orders {
            let o = match (s.phase.kind, province_of_order(e)) {
                (_, None) => None,
                (PhaseKind::Adjustment, Some(_)) if e.order.kind == OrderKind::Build => None,
                (PhaseKind::Retreat, Some(p)) => dislodged_at(p).or_else(|| board_at(p)),
                (_, Some(p)) => board_at(p),
            };
            owner.push(o);
        }
        if let Some(f) = &s.retreats {
            for e in &f.orders {
                owner.push(province_of_order(e).and_then(board_at));
            }
        }
        let hold = s
            .orders
            .iter()
            .map(|e| {
                let unit = e.order.unit?;
                if s.phase.kind != PhaseKind::Movement || e.order.kind == OrderKind::Hold {
                    return None;
                }
                let order = Order {
                    power: e.order.power,
                    unit: Some(unit),
                    kind: OrderKind::Hold,
                };
                Some(OrderEntry {
                    power: e.power,
                    text: format_order(map, &order, NameStyle::Full),
                    order,
                })
            })
            .collect();
        // Orders per province of the unit they name.
        let mut named = vec![0u32; map.province_count()];
        for p in s.orders.iter().filter_map(province_of_order) {
            if let Some(k) = named.get_mut(p.0 as usize) {
                *k = k.saturating_add(1);
            }
        }
        let alone = s
            .orders
            .iter()
            .map(|e| province_of_order(e).and_then(|p| named.get(p.0 as usize)) == Some(&1))
            .collect();
        let mut moves_to: Vec<(usize, ProvinceId)> = s
            .orders
            .iter()
            .zip(&owner)
            .filter_map(|(e, o)| match (&e.order.kind, o) {
                (OrderKind::Move { dest, .. }, Some(u)) => Some((*u, dest.province)),
                _ => None,
            })
            .collect();
        moves_to.sort_unstable();
        let mut judge = Judge {
            s,
            goal,
            board,
            phase_orders,
            owner,
            hold,
            alone,
            outcome_orders: Vec::new(),
            seen: Vec::new(),
            failed: HashSet::new(),
            fingerprint: Fingerprint::new(),
            fast: engine.is_none()
                && s.phase.kind == PhaseKind::Movement
                && s.retreats.is_none()
                && goal.keep.iter().all(|p| {
                    matches!(
                        p,
                        Property::Backup(_) | Property::Outcome { .. } | Property::Mismatch
                    )
                }),
            buffers: Buffers::default(),
            backup_orders: Vec::new(),
            record_backup: false,
            moves_to,
            runs: 0,
            engine,
            bounds: Bounds::default(),
            started: Instant::now(),
            stopped: None,
        };
        judge.prepare()?;
        Ok(judge)
    }

    /// Adjudicates a candidate with the judging engine (the decision engine unless one was
    /// given).
    pub(super) fn run(&self, s: &Scenario, rules: Rules, trace: bool) -> Result<Run, RunError> {
        match &self.engine {
            Some(e) => adjudicate_scenario(s, Some(rules), &**e, trace),
            None => run(s, Some(rules), trace),
        }
    }

    pub(super) fn all_orders(&self) -> impl Iterator<Item = &OrderEntry> {
        let retreat = self.s.retreats.iter().flat_map(|f| f.orders.iter());
        self.s.orders.iter().chain(retreat)
    }

    /// Checks the goal against the phase, finds the orders the outcomes name, and records the
    /// input's mismatches.
    pub(super) fn prepare(&mut self) -> Result<(), MinimizeError> {
        let s = self.s;
        if self.goal.keep.is_empty() {
            return Err(MinimizeError::NoProperty);
        }
        for p in &self.goal.keep {
            match p {
                Property::Backup(_) | Property::Solutions(_)
                    if s.phase.kind != PhaseKind::Movement =>
                {
                    return Err(MinimizeError::NeedsMovement {
                        spec: p.spec(),
                        phase: s.phase.to_string(),
                    });
                }
                Property::Differs if self.goal.other.is_none() => {
                    return Err(MinimizeError::NoOtherRules);
                }
                Property::Outcome { order, text, .. } => {
                    let found = self.all_orders().position(|e| same_order(order, e));
                    let Some(i) = found else {
                        let unit_orders: Vec<String> = order
                            .unit
                            .map(|u| {
                                self.all_orders()
                                    .filter(|e| {
                                        e.order.unit.map(|v| v.loc.province) == Some(u.loc.province)
                                    })
                                    .map(|e| e.text.clone())
                                    .collect()
                            })
                            .unwrap_or_default();
                        let hint = if unit_orders.is_empty() {
                            String::new()
                        } else {
                            format!("; the orders there: {}", unit_orders.join("; "))
                        };
                        return Err(MinimizeError::DoesNotHold {
                            spec: p.spec(),
                            why: format!(
                                "no order of the scenario is {}{hint}",
                                crate::model::error::quoted(text)
                            ),
                        });
                    };
                    self.outcome_orders.push(i);
                }
                _ => {}
            }
        }
        if self.goal.keep.contains(&Property::Mismatch) {
            self.seen = self.mismatches()?;
        }
        Ok(())
    }

    /// The provinces board unit `i` could end in: where it stands, and where its orders move
    /// it.
    pub(super) fn reachable(&self, i: usize) -> impl Iterator<Item = ProvinceId> + '_ {
        let map = &*self.s.map;
        let here = self.s.units.get(i).map(|u| map.province_of(u.loc));
        let from = self.moves_to.partition_point(|(u, _)| *u < i);
        let to = self.moves_to.partition_point(|(u, _)| *u <= i);
        let moves = self.moves_to.get(from..to).unwrap_or_default();
        here.into_iter().chain(moves.iter().map(|(_, p)| *p))
    }

    pub(super) fn full(&self) -> Cand {
        let units = self.board + self.s.dislodged.len();
        Cand {
            units: (0..units).collect(),
            orders: (0..self.owner.len()).collect(),
            held: vec![false; self.phase_orders],
        }
    }

    pub(super) fn size(&self, c: &Cand) -> Size {
        Size {
            units: c.units.len(),
            orders: c.orders.len(),
            simplified: c
                .orders
                .iter()
                .filter(|&&i| c.held.get(i).copied().unwrap_or(false))
                .count(),
        }
    }

    pub(super) fn build(&self, c: &Cand) -> Built {
        let s = self.s;
        let mut out = Scenario {
            title: s.title.clone(),
            description: String::new(),
            source: s.source.clone(),
            map: s.map.clone(),
            map_ref: s.map_ref.clone(),
            map_file: s.map_file.clone(),
            phase: s.phase,
            rules: self.goal.rules,
            units: Vec::with_capacity(c.units.len()),
            dislodged: Vec::new(),
            contested: s.contested.clone(),
            owners: s.owners.clone(),
            orders: Vec::with_capacity(c.orders.len()),
            expect: None,
            retreats: s.retreats.as_ref().map(|_| Default::default()),
        };
        let mut unit_at = vec![None; self.board + s.dislodged.len()];
        for &u in &c.units {
            if u < self.board {
                unit_at[u] = Some(out.units.len());
                out.units.push(s.units[u]);
            } else if let Some(d) = s.dislodged.get(u - self.board) {
                out.dislodged.push(*d);
            }
        }
        let mut order_at = vec![None; self.owner.len()];
        for &i in &c.orders {
            if i < self.phase_orders {
                match (&self.hold[i], c.held[i]) {
                    (Some(h), true) => out.orders.push(h.clone()),
                    _ => {
                        order_at[i] = Some(out.orders.len());
                        out.orders.push(s.orders[i].clone());
                    }
                }
            } else if let (Some(f), Some(of)) = (&s.retreats, &mut out.retreats)
                && let Some(e) = f.orders.get(i - self.phase_orders)
            {
                order_at[i] = Some(of.orders.len());
                of.orders.push(e.clone());
            }
        }
        Built {
            scenario: out,
            unit_at,
            order_at,
        }
    }

    /// The outcome of pool order `i` in a built candidate's run.
    pub(super) fn outcome<'r>(&self, b: &Built, r: &'r Run, i: usize) -> Option<&'r OrderOutcome> {
        let at = b.order_at.get(i).copied().flatten()?;
        if i < self.phase_orders {
            r.phase().outcomes.get(at)
        } else {
            r.retreats.as_ref()?.outcomes.get(at)
        }
    }

    /// Whether every property holds on a candidate; with `why`, the reason of each one that
    /// does not (or, when all hold, the witness of each).
    pub(super) fn judge(&mut self, c: &Cand, why: Option<&mut Vec<(bool, String)>>) -> bool {
        let key = self.key(c);
        if why.is_none() && self.failed.contains(&key) {
            return false;
        }
        let ok = self.judge_fresh(c, why);
        if !ok {
            self.failed.insert(key);
        }
        ok
    }

    /// The fingerprint of a candidate: its units, its orders and those made holds.
    ///
    /// Where candidates are judged on the adjudicator's typed results ([`Judge::fast`]), an
    /// order made a hold that is the only order naming a unit in its province
    /// ([`Judge::alone`]) is keyed as removed: the two are the same adjudication. The
    /// adjudicator gives the unit the same effective order either way (a unit without an order
    /// holds; a hold that is illegal is ignored, and one that is not is the unit's order, with
    /// no other order of the unit to compete with it; a hold is not a move, so an illegal move
    /// that fails under 4.E.1 "Fail" is not in play), so the decisions, the backup rules applied
    /// and every unit's fate are the same; the other orders' classing and outcomes do not read
    /// it; and the order itself has no outcome a property reads (an outcome or a mismatch on it
    /// does not hold either way). So the holds pass never adjudicates again a hold whose order's
    /// removal the orders pass found to lose a property.
    pub(super) fn key(&self, c: &Cand) -> u128 {
        let held = |i: usize| c.held.get(i).copied().unwrap_or(false);
        let as_removed = |i: usize| self.fast && held(i) && self.alone.get(i) == Some(&true);
        if !c.orders.iter().any(|&i| as_removed(i)) {
            let held: Vec<usize> = c.orders.iter().copied().filter(|&i| held(i)).collect();
            return self.fingerprint.of(&(&c.units, &c.orders, &held));
        }
        let orders: Vec<usize> = c
            .orders
            .iter()
            .copied()
            .filter(|&i| !as_removed(i))
            .collect();
        let held: Vec<usize> = orders.iter().copied().filter(|&i| held(i)).collect();
        self.fingerprint.of(&(&c.units, &orders, &held))
    }

    /// Whether a bound of the search is reached (and if so, records which).
    pub(super) fn stopping(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        let b = &self.bounds;
        self.stopped = if b.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            Some(StopReason::Interrupted)
        } else if let Some(m) = b.max_runs.filter(|m| self.runs >= *m) {
            Some(StopReason::MaxRuns(m))
        } else {
            b.max_time
                .filter(|t| self.started.elapsed() >= *t)
                .map(StopReason::MaxTime)
        };
        self.stopped.is_some()
    }

    /// [`Judge::judge`] during the search: None, without adjudicating, once a bound is reached.
    pub(super) fn try_judge(&mut self, c: &Cand) -> Option<bool> {
        if self.stopping() {
            return None;
        }
        Some(self.judge(c, None))
    }

    pub(super) fn judge_fresh(
        &mut self,
        c: &Cand,
        mut why: Option<&mut Vec<(bool, String)>>,
    ) -> bool {
        self.runs += 1;
        let backup = self
            .goal
            .keep
            .iter()
            .any(|p| matches!(p, Property::Backup(_)));
        if why.is_none() && self.fast {
            // Decided on the typed outcomes of a reused adjudicator: turned down here, or (a
            // backup rule applied) confirmed below, where the trace says which rule.
            if !self.judge_fast(c) {
                return false;
            }
            if !backup {
                return true;
            }
        }
        let b = self.build(c);
        let Ok(r) = self.run(&b.scenario, self.goal.rules, backup) else {
            return false;
        };
        if self.record_backup {
            // The orders a backup rule decided: where the regions pass looks first.
            self.backup_orders = (0..self.phase_orders)
                .filter(|&i| self.outcome(&b, &r, i).is_some_and(|o| o.backup.is_some()))
                .collect();
        }
        let other = match (self.goal.other, self.goal.keep.contains(&Property::Differs)) {
            (Some(o), true) => match self.run(&b.scenario, o, false) {
                Ok(x) => Some(x),
                Err(_) => return false,
            },
            _ => None,
        };
        let map = &*self.s.map;
        let mut all = true;
        let mut outcome_k = 0;
        for p in &self.goal.keep {
            let (ok, line) = match p {
                Property::Backup(want) => backup_holds(map, &b.scenario, &r, *want, why.is_some()),
                Property::Outcome { verdict, .. } => {
                    let i = self.outcome_orders.get(outcome_k).copied();
                    outcome_k += 1;
                    match i.and_then(|i| self.outcome(&b, &r, i).map(|o| (i, o))) {
                        None => (false, "the order is gone".into()),
                        Some((i, o)) => {
                            let text = self.all_orders().nth(i).map(|e| e.text.as_str());
                            (
                                o.verdict == *verdict,
                                outcome_line(text.unwrap_or_default(), o),
                            )
                        }
                    }
                }
                Property::Mismatch => self.mismatch_holds(&b, &r),
                Property::Differs => match &other {
                    Some(o) => differs(&b.scenario, &r, o),
                    None => (false, "no second rule set".into()),
                },
                Property::Solutions(n) => solutions_hold(&b.scenario, &r, *n),
            };
            all &= ok;
            if let Some(w) = why.as_deref_mut() {
                w.push((ok, line));
            } else if !all {
                return false;
            }
        }
        all
    }

    /// [`Judge::judge`] without words, for a movement phase without follow-up retreats and
    /// properties that read verdicts, causes and fates only (see [`Judge::fast`]): whether the
    /// outcomes and mismatches hold and, when a backup property is kept, whether a backup rule
    /// decided anything at all. The candidate's units and orders are put in reused buffers and
    /// adjudicated by a reused [`Adjudicator`], so that a run allocates next to nothing.
    pub(super) fn judge_fast(&mut self, c: &Cand) -> bool {
        let s = self.s;
        let f = &mut self.buffers;
        f.units.clear();
        f.orders.clear();
        f.unit_at.clear();
        f.unit_at.resize(self.board, None);
        f.order_at.clear();
        f.order_at.resize(self.phase_orders, None);
        for &u in &c.units {
            if let (Some(unit), Some(at)) = (s.units.get(u), f.unit_at.get_mut(u)) {
                *at = Some(f.units.len());
                f.units.push(*unit);
            }
        }
        for &i in &c.orders {
            let Some(e) = s.orders.get(i) else { continue };
            match (self.hold.get(i), c.held.get(i)) {
                (Some(Some(h)), Some(true)) => f.orders.push((h.power, h.order.clone())),
                _ => {
                    if let Some(at) = f.order_at.get_mut(i) {
                        *at = Some(f.orders.len());
                    }
                    f.orders.push((e.power, e.order.clone()));
                }
            }
        }
        // With a backup property, a candidate whose decisions have no cycle is turned down
        // before they are resolved: no backup rule can decide anything there.
        let backup = self
            .goal
            .keep
            .iter()
            .any(|p| matches!(p, Property::Backup(_)));
        if backup {
            if !f
                .adj
                .backup_decides(&s.map, &f.units, &f.orders, &self.goal.rules)
            {
                return false;
            }
        } else {
            f.adj
                .adjudicate(&s.map, &f.units, &f.orders, &self.goal.rules);
        }
        let f = &self.buffers;
        let outcomes = f.adj.outcomes();
        let outcome = |i: usize| {
            f.order_at
                .get(i)
                .copied()
                .flatten()
                .and_then(|at| outcomes.get(at))
        };
        let mut outcome_k = 0;
        for p in &self.goal.keep {
            let ok = match p {
                Property::Backup(_) => f.adj.backup_applied(),
                Property::Outcome { verdict, .. } => {
                    let i = self.outcome_orders.get(outcome_k).copied();
                    outcome_k += 1;
                    i.and_then(outcome).is_some_and(|o| o.verdict == *verdict)
                }
                Property::Mismatch => self.seen.iter().any(|item| match item {
                    Seen::Order {
                        pool,
                        verdict,
                        cause,
                        ..
                    } => outcome(*pool).is_some_and(|o| {
                        o.verdict == *verdict && discriminant(&o.reason) == *cause
                    }),
                    Seen::Unit { pool, ends, .. } => {
                        f.unit_at
                            .get(*pool)
                            .copied()
                            .flatten()
                            .and_then(|j| f.adj.units().get(j))
                            .map(|u| u.ends)
                            == Some(*ends)
                    }
                }),
                // Not judged here (see `fast`).
                Property::Differs | Property::Solutions(_) => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// The candidate with the units in `keep` (pool indices) and the orders of the others gone.
    pub(super) fn with_units(&self, c: &Cand, keep: &[usize]) -> Cand {
        let gone = |o: Option<usize>| o.is_some_and(|u| keep.binary_search(&u).is_err());
        Cand {
            units: keep.to_vec(),
            orders: c
                .orders
                .iter()
                .copied()
                .filter(|&i| !gone(self.owner[i]))
                .collect(),
            held: c.held.clone(),
        }
    }

    /// The regions where each property was seen on the input, sorted: the order an outcome
    /// names, the first mismatch, the orders a backup rule decided. None when a property does
    /// not say where it is seen (`differs`, `solutions`).
    pub(super) fn hint_regions(&self, regions: &Regions) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        for p in &self.goal.keep {
            match p {
                Property::Outcome { .. } => {}
                Property::Mismatch => match self.seen.first()? {
                    Seen::Order { pool, .. } => out.push(*regions.order.get(*pool)?),
                    Seen::Unit { pool, .. } => out.push(*regions.unit.get(*pool)?),
                },
                Property::Backup(_) if !self.backup_orders.is_empty() => {
                    for &i in &self.backup_orders {
                        out.push(*regions.order.get(i)?);
                    }
                }
                _ => return None,
            }
        }
        for &i in &self.outcome_orders {
            out.push(*regions.order.get(i)?);
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Where the properties were seen on the input, as (per pool unit, per pool order) flags:
    /// the orders a backup rule decided, the orders outcomes name, the orders and units of the
    /// mismatches, and the units of all those orders. A pass over items that were all seen
    /// starts with each item left out singly ([`Start::Singles`]): removing any of them most
    /// likely loses a property, and ddmin's coarser tests would all fail.
    pub(super) fn witnesses(&self) -> (Vec<bool>, Vec<bool>) {
        let mut units = vec![false; self.board + self.s.dislodged.len()];
        let mut orders = vec![false; self.owner.len()];
        let seen = self.seen.iter().map(|item| match item {
            Seen::Order { pool, .. } => (None, Some(*pool)),
            Seen::Unit { pool, .. } => (Some(*pool), None),
        });
        let named = self
            .backup_orders
            .iter()
            .chain(&self.outcome_orders)
            .map(|&i| (None, Some(i)));
        for (unit, order) in seen.chain(named) {
            let unit = unit.or_else(|| order.and_then(|i| self.owner.get(i).copied().flatten()));
            if let Some(flag) = unit.and_then(|u| units.get_mut(u)) {
                *flag = true;
            }
            if let Some(flag) = order.and_then(|i| orders.get_mut(i)) {
                *flag = true;
            }
        }
        (units, orders)
    }

    /// The candidate with only the units and orders of the regions in `keep`.
    pub(super) fn with_regions(&self, c: &Cand, regions: &Regions, keep: &[usize]) -> Cand {
        let mut kept = vec![false; regions.count];
        for &r in keep {
            if let Some(k) = kept.get_mut(r) {
                *k = true;
            }
        }
        let inside = |r: Option<&usize>| r.is_some_and(|r| kept.get(*r).copied().unwrap_or(false));
        Cand {
            units: c
                .units
                .iter()
                .copied()
                .filter(|&u| inside(regions.unit.get(u)))
                .collect(),
            orders: c
                .orders
                .iter()
                .copied()
                .filter(|&o| inside(regions.order.get(o)))
                .collect(),
            held: c.held.clone(),
        }
    }
}
