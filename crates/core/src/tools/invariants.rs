//! Invariants every adjudication must satisfy, checked after the fact.
//!
//! The adjudicator is judged here by what any correct result must look like, whatever the rules
//! and however odd the orders: every order has one outcome and every unit one fate; no two units
//! end in one province; a dislodged unit's attacker moved into its province; a unit moves only
//! where its order sent it; retreat options never include an occupied or contested province or
//! the attacker's origin (except after a convoy where DATC 4.A.5 allows it); builds happen only in
//! owned, empty home centres; a backup rule is reported whenever a decision cycle was broken; and
//! the result depends neither on the order in which units and orders are listed nor on tracing.
//!
//! Each check returns the [`Violation`]s it found (none for a sound result), each naming the
//! units and orders involved. The property tests, the DATC runner and the fuzz targets call them
//! on every adjudication.
//!
//! ```
//! use dipsandbox_core::engine::adjudicate_movement;
//! use dipsandbox_core::tools::invariants::{check_movement, check_movement_stable};
//! use dipsandbox_core::model::scenario::Scenario;
//!
//! let s = Scenario::builtin().unwrap();
//! let result = adjudicate_movement(&s.map, &s.units, &s.orders, &s.rules);
//! assert!(check_movement(&s.map, &s.units, &s.orders, &s.rules, &result).is_empty());
//! assert!(check_movement_stable(&s.map, &s.units, &s.orders, &s.rules, 7).is_empty());
//! ```

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): unit and order indices range
// over the lists being checked, province ids over tables sized to the map's province count; the
// result checked must come from the same map and board (the checker's callers pass them together).
#![allow(clippy::indexing_slicing)]

use std::collections::HashMap;
use std::fmt;

use crate::base::random::SplitMix64;
use crate::engine::adjust::adjustments_due;
use crate::engine::decision::resolver::NodeKind;
use crate::engine::decision::trace::BackupRule;
use crate::engine::legality::{OrderStatus, Route, UnitOrder};
use crate::engine::retreat::{occupied, retreat_options_marked, standoffs};
use crate::engine::{MovementResult, PhaseResult, Verdict, adjudicate_movement};
use crate::model::board::{Dislodged, PhaseKind, Season, Unit};
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{NameStyle, Order, OrderKind, Submitted, format_order};
use crate::model::rules::{MultipleOrders, RetreatAfterConvoy, Rules};
use crate::model::scenario::Scenario;
use crate::tools::check::Run;
use crate::tools::turn::Advanced;

/// Which invariant a [`Violation`] breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Invariant {
    /// The input is not a position the adjudicator is defined on (two units in one province, an
    /// owner list of the wrong length): nothing else was checked.
    Input,
    /// Every order has exactly one outcome, every unit exactly one fate (it ends somewhere, or
    /// it is dislodged).
    OneOutcome,
    /// No two units end in one province.
    OneUnitPerProvince,
    /// A dislodged unit's attacker moved into its province, from where the result says.
    Dislodgement,
    /// A unit moves only where its order sent it, and a move that succeeds is made.
    MovesAsOrdered,
    /// The parts of a result agree: final units, per-unit results, dislodged units, standoffs.
    Consistency,
    /// Every decision of the movement graph was resolved to one value.
    Resolved,
    /// Retreat options and retreats: never to an occupied or contested province, nor to the
    /// attacker's origin (unless DATC 4.A.5 allows it after a convoy); only where ordered.
    Retreat,
    /// Builds only in owned, empty home centres of powers due builds; removals only of powers
    /// due removals, exactly as many as due.
    Adjustment,
    /// The result does not depend on the order in which units and orders are listed.
    ListingOrder,
    /// Tracing the resolver does not change the result.
    Tracing,
    /// A backup rule is reported whenever a decision cycle was broken, and only then.
    BackupReported,
    /// The turn cycle: the next phase, its position, centre ownership, the winner.
    Turn,
    /// Neutral units hold: none is ordered, none moves, a dislodged one is disbanded (never
    /// retreats), none is built or removed, and none changes a centre's owner.
    Neutral,
}

impl Invariant {
    /// A short name: `one outcome`, `listing order`.
    pub fn name(self) -> &'static str {
        match self {
            Invariant::Input => "input",
            Invariant::OneOutcome => "one outcome",
            Invariant::OneUnitPerProvince => "one unit per province",
            Invariant::Dislodgement => "dislodgement",
            Invariant::MovesAsOrdered => "moves as ordered",
            Invariant::Consistency => "consistency",
            Invariant::Resolved => "resolved",
            Invariant::Retreat => "retreat",
            Invariant::Adjustment => "adjustment",
            Invariant::ListingOrder => "listing order",
            Invariant::Tracing => "tracing",
            Invariant::BackupReported => "backup reported",
            Invariant::Turn => "turn",
            Invariant::Neutral => "neutral units",
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A broken invariant, with a message that names the units and orders involved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{invariant}: {message}")]
pub struct Violation {
    /// Which invariant.
    pub invariant: Invariant,
    /// What was found, naming units (`English F London`) and orders (`England: F lon - nth`).
    pub message: String,
}

/// Joins violations into one text, one per line (for panics and failure messages).
pub fn report(violations: &[Violation]) -> String {
    let mut s = String::new();
    for v in violations {
        s.push_str(&v.to_string());
        s.push('\n');
    }
    s
}

/// Collects violations and names things on one map.
struct Checker<'a> {
    map: &'a Map,
    out: Vec<Violation>,
}

impl<'a> Checker<'a> {
    fn new(map: &'a Map) -> Self {
        Checker {
            map,
            out: Vec::new(),
        }
    }

    fn fail(&mut self, invariant: Invariant, message: String) {
        self.out.push(Violation { invariant, message });
    }

    fn unit(&self, u: &Unit) -> String {
        if (u.loc.0 as usize) < self.map.locations.len()
            && ((u.power.0 as usize) < self.map.powers.len() || u.power.is_neutral())
        {
            u.describe_owned(self.map)
        } else {
            format!("{u:?}")
        }
    }

    fn order<O: Submitted>(&self, orders: &[O], i: usize) -> String {
        match orders.get(i).map(|e| (e.power(), e.order())) {
            Some((p, o)) => {
                let o = Order {
                    power: None,
                    ..o.clone()
                };
                let who = if p.is_neutral() {
                    "Neutral"
                } else {
                    self.map
                        .powers
                        .get(p.0 as usize)
                        .map(|p| p.name.as_str())
                        .unwrap_or("?")
                };
                format!("{who}: {}", format_order(self.map, &o, NameStyle::Abbr))
            }
            None => format!("order #{i}"),
        }
    }

    fn province(&self, p: ProvinceId) -> String {
        self.map
            .provinces
            .get(p.0 as usize)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| format!("province #{}", p.0))
    }

    fn units(&self, units: &[Unit]) -> String {
        let v: Vec<String> = units.iter().map(|u| self.unit(u)).collect();
        v.join(", ")
    }

    /// Checks that the units are a position on this map: valid ids, one unit per province,
    /// armies on land, fleets at sea or on a coast. Returns false (with a violation) otherwise.
    fn position(&mut self, what: &str, units: &[Unit]) -> bool {
        let map = self.map;
        let mut seen = vec![None::<usize>; map.province_count()];
        for (i, u) in units.iter().enumerate() {
            if u.loc.0 as usize >= map.locations.len()
                || (u.power.0 as usize >= map.powers.len() && !u.power.is_neutral())
            {
                self.fail(
                    Invariant::Input,
                    format!("{what}: unit #{i} {u:?} is not on this map"),
                );
                return false;
            }
            let p = map.province_of(u.loc);
            let kind = map.province(p).kind;
            let loc = map.location(u.loc);
            let bad_place = match u.kind {
                UnitKind::Army => kind == ProvinceKind::Sea || loc.coast.is_some(),
                UnitKind::Fleet => {
                    kind == ProvinceKind::Land
                        || (map.province(p).is_multi_coast() && loc.coast.is_none())
                }
            };
            if bad_place {
                self.fail(
                    Invariant::Input,
                    format!("{what}: {} cannot stand there", self.unit(u)),
                );
                return false;
            }
            if let Some(j) = seen[p.0 as usize] {
                self.fail(
                    Invariant::Input,
                    format!(
                        "{what}: two units in {}: {} and {}",
                        self.province(p),
                        self.unit(&units[j]),
                        self.unit(u)
                    ),
                );
                return false;
            }
            seen[p.0 as usize] = Some(i);
        }
        true
    }

    /// No two of `units` in one province.
    fn one_per_province(&mut self, when: &str, units: &[Unit]) {
        let mut at: HashMap<ProvinceId, &Unit> = HashMap::new();
        for u in units {
            let Some(p) = self.province_of(u.loc) else {
                self.fail(
                    Invariant::Consistency,
                    format!("{when}: {u:?} is not on this map"),
                );
                continue;
            };
            if let Some(other) = at.insert(p, u) {
                self.fail(
                    Invariant::OneUnitPerProvince,
                    format!(
                        "{when}: {} and {} both end in {}",
                        self.unit(other),
                        self.unit(u),
                        self.province(p)
                    ),
                );
            }
        }
    }

    fn province_of(&self, l: LocId) -> Option<ProvinceId> {
        self.map.locations.get(l.0 as usize).map(|x| x.province)
    }

    /// Retreat options of a dislodged unit given the position after the movement: each option is
    /// reachable, empty, not contested, not the attacker's origin (unless 4.A.5 allows it), and
    /// every place that meets those conditions is an option.
    ///
    /// `occ` marks the provinces held after the movement ([`occupied`]) and `standoff` those
    /// left empty by a standoff ([`standoffs`]), made once for every dislodged unit.
    fn retreat_options(&mut self, d: &Dislodged, occ: &[bool], standoff: &[bool], rules: &Rules) {
        let map = self.map;
        let contested = |p: ProvinceId| standoff.get(p.0 as usize).copied().unwrap_or(false);
        let mut opts = retreat_options_marked(map, d, occ, standoff, rules);
        let here = map.province_of(d.unit.loc);
        let origin_allowed =
            d.by_convoy && rules.retreat_after_convoy == RetreatAfterConvoy::Allowed;
        let reachable: Vec<LocId> = match d.unit.kind {
            UnitKind::Army => map
                .army_neighbours(here)
                .iter()
                .map(|p| map.province(*p).main)
                .collect(),
            UnitKind::Fleet => map.fleet_neighbours(d.unit.loc).to_vec(),
        };
        let allowed = |l: LocId| {
            let p = map.province_of(l);
            p != here
                && !occ[p.0 as usize]
                && !contested(p)
                && (p != d.attacker_from || origin_allowed)
        };
        // Sorted copies to look places up in (a unit with thousands of neighbours is checked
        // in n log n); the lists are still walked in their own order.
        let mut reachable_sorted = reachable.clone();
        reachable_sorted.sort_unstable();
        for &l in &opts {
            let p = map.province_of(l);
            let why = if reachable_sorted.binary_search(&l).is_err() {
                Some("which it cannot reach")
            } else if occ[p.0 as usize] {
                Some("which is occupied")
            } else if contested(p) {
                Some("which was left empty by a standoff")
            } else if p == d.attacker_from && !origin_allowed {
                Some("where its attacker came from")
            } else if p == here {
                Some("its own province")
            } else {
                None
            };
            if let Some(why) = why {
                self.fail(
                    Invariant::Retreat,
                    format!(
                        "dislodged {} (attacked from {}{}) may retreat to {}, {why}",
                        self.unit(&d.unit),
                        self.province(d.attacker_from),
                        if d.by_convoy { " by convoy" } else { "" },
                        map.loc_name(l)
                    ),
                );
            }
        }
        opts.sort_unstable();
        for &l in &reachable {
            if allowed(l) && opts.binary_search(&l).is_err() {
                self.fail(
                    Invariant::Retreat,
                    format!(
                        "dislodged {} may not retreat to {}, though it is reachable, empty, not \
                         contested and not forbidden as the attacker's origin",
                        self.unit(&d.unit),
                        map.loc_name(l)
                    ),
                );
            }
        }
    }
}

/// Whether the unit that moved `by` reached its destination by convoy (its PATH decided so).
fn came_by_convoy(r: &MovementResult, by: usize) -> bool {
    match r.prepared.orders.get(by) {
        Some(UnitOrder::Move {
            route: Route::Convoy,
            ..
        }) => true,
        Some(UnitOrder::Move {
            route: Route::ConvoyOrLand,
            ..
        }) => r
            .graph
            .node_of(by, NodeKind::Path)
            .is_some_and(|id| r.graph.value(id) == 1),
        _ => false,
    }
}

/// Checks a movement result against the position and orders it was adjudicated from: one
/// outcome per order and one fate per unit, one unit per province, dislodgements, moves as
/// ordered, the parts of the result agreeing, every decision resolved, the retreat options of
/// the dislodged units, and backup rules reported exactly where a cycle was broken.
pub fn check_movement<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    r: &MovementResult,
) -> Vec<Violation> {
    let mut c = Checker::new(map);
    if !c.position("the position", units) {
        return c.out;
    }
    let n = units.len();
    if r.outcomes.len() != orders.len() {
        c.fail(
            Invariant::OneOutcome,
            format!("{} orders but {} outcomes", orders.len(), r.outcomes.len()),
        );
        return c.out;
    }
    if r.units.len() != n
        || r.prepared.source.len() != n
        || r.prepared.orders.len() != n
        || r.prepared.status.len() != orders.len()
    {
        c.fail(
            Invariant::OneOutcome,
            format!(
                "{n} units but {} unit results ({} effective orders, {} sources); {} orders but {} statuses",
                r.units.len(),
                r.prepared.orders.len(),
                r.prepared.source.len(),
                orders.len(),
                r.prepared.status.len()
            ),
        );
        return c.out;
    }
    let g = &r.graph;
    let m = g.nodes.len();
    if g.lo.len() != m || g.hi.len() != m || g.in_cycle.len() != m || g.forced.len() != m {
        c.fail(
            Invariant::Consistency,
            format!("the decision graph has {m} decisions but bounds of other lengths"),
        );
        return c.out;
    }
    check_neutral_units(&mut c, units, orders, r);
    check_sources(&mut c, units, orders, r);
    for u in 0..n {
        check_fate(&mut c, units, orders, r, u);
    }
    check_result_parts(&mut c, units, r);
    c.one_per_province("after the movement", &r.final_units);
    check_contested(&mut c, r);
    check_resolved(&mut c, units, orders, r);
    // Retreat options.
    let occ = occupied(map, &r.final_units);
    let standoff = standoffs(map, &r.contested);
    for d in &r.dislodged {
        if d.unit.loc.0 as usize >= map.locations.len()
            || d.attacker_from.0 as usize >= map.province_count()
        {
            continue;
        }
        c.retreat_options(d, &occ, &standoff, rules);
    }

    check_backups(&mut c, units, orders, r);
    c.out
}

/// Neutral units: no order applies to one, and one ends where it stood or is dislodged.
fn check_neutral_units<O: Submitted>(
    c: &mut Checker,
    units: &[Unit],
    orders: &[O],
    r: &MovementResult,
) {
    let map = c.map;
    for (u, unit) in units.iter().enumerate() {
        if !unit.power.is_neutral() {
            continue;
        }
        if let Some(i) = r.prepared.source[u] {
            c.fail(
                Invariant::Neutral,
                format!(
                    "{} is neutral, but {} applies to it",
                    c.unit(unit),
                    c.order(orders, i)
                ),
            );
        }
        if let Some(e) = r.units[u].ends
            && e.loc != unit.loc
        {
            c.fail(
                Invariant::Neutral,
                format!(
                    "{} is neutral, but it ends in {}",
                    c.unit(unit),
                    map.loc_name(e.loc)
                ),
            );
        }
    }
}

/// Sources and statuses agree: a unit's order is applied to it, an illegal order fails as such.
fn check_sources<O: Submitted>(c: &mut Checker, units: &[Unit], orders: &[O], r: &MovementResult) {
    let n = units.len();
    for (u, unit) in units.iter().enumerate() {
        if let Some(i) = r.prepared.source[u]
            && r.prepared.status.get(i) != Some(&OrderStatus::Applied(u))
        {
            c.fail(
                Invariant::Consistency,
                format!(
                    "{} is said to follow {}, whose status is {:?}",
                    c.unit(unit),
                    c.order(orders, i),
                    r.prepared.status.get(i)
                ),
            );
        }
    }
    for (i, st) in r.prepared.status.iter().enumerate() {
        match st {
            OrderStatus::Applied(u) if *u >= n => c.fail(
                Invariant::Consistency,
                format!(
                    "{} is applied to unit #{u}, which does not exist",
                    c.order(orders, i)
                ),
            ),
            OrderStatus::Illegal(_) if r.outcomes[i].verdict != Verdict::Illegal => c.fail(
                Invariant::Consistency,
                format!(
                    "{} is illegal but its outcome is {:?}",
                    c.order(orders, i),
                    r.outcomes[i].verdict
                ),
            ),
            _ => {}
        }
    }
}

/// What unit `u`'s order says of its move, for the checks of its fate.
#[derive(Clone, Copy)]
struct OrderedMove {
    /// The order applied to the unit, if any.
    src: Option<usize>,
    /// The province that order moves it to, if it is a move.
    move_dest: Option<ProvinceId>,
    /// Whether that order succeeds.
    succeeded: bool,
}

/// Unit `u`'s fate: it ends somewhere or is dislodged, exactly one of the two.
fn check_fate<O: Submitted>(
    c: &mut Checker,
    units: &[Unit],
    orders: &[O],
    r: &MovementResult,
    u: usize,
) {
    let ur = &r.units[u];
    let unit = units[u];
    match (ur.ends, ur.dislodged_by) {
        (Some(_), Some(_)) | (None, None) => {
            c.fail(
                Invariant::OneOutcome,
                format!(
                    "{} ends at {:?} and is dislodged by {:?}: exactly one of the two",
                    c.unit(&unit),
                    ur.ends.map(|e| c.unit(&e)),
                    ur.dislodged_by
                        .and_then(|b| units.get(b))
                        .map(|b| c.unit(b))
                ),
            );
            return;
        }
        _ => {}
    }
    let src = r.prepared.source[u];
    let move_dest = src.and_then(|i| match &orders.get(i)?.order().kind {
        OrderKind::Move { dest, .. } => Some(dest.province),
        _ => None,
    });
    let succeeded = src.is_some_and(|i| r.outcomes[i].verdict == Verdict::Succeeds);
    let ordered = OrderedMove {
        src,
        move_dest,
        succeeded,
    };
    if let Some(e) = ur.ends {
        check_end(c, units, orders, r, u, e, ordered);
    }
    if let Some(by) = ur.dislodged_by {
        check_dislodged(c, units, orders, r, u, by, ordered);
    }
}

/// Unit `u` ends as `e`: the same unit, on the map, moved only as its order says (a move that
/// succeeds, to where its effective order goes) and moved if its move succeeds.
fn check_end<O: Submitted>(
    c: &mut Checker,
    units: &[Unit],
    orders: &[O],
    r: &MovementResult,
    u: usize,
    e: Unit,
    ordered: OrderedMove,
) {
    let map = c.map;
    let unit = units[u];
    let OrderedMove {
        src,
        move_dest,
        succeeded,
    } = ordered;
    if e.power != unit.power || e.kind != unit.kind {
        c.fail(
            Invariant::Consistency,
            format!("{} ends as {}", c.unit(&unit), c.unit(&e)),
        );
    }
    let Some(ep) = c.province_of(e.loc) else {
        c.fail(
            Invariant::Consistency,
            format!("{} ends off the map: {e:?}", c.unit(&unit)),
        );
        return;
    };
    if e.loc != unit.loc {
        match (src, move_dest) {
            (None, _) => c.fail(
                Invariant::MovesAsOrdered,
                format!(
                    "{} moved to {} without an order",
                    c.unit(&unit),
                    map.loc_name(e.loc)
                ),
            ),
            (Some(i), None) => c.fail(
                Invariant::MovesAsOrdered,
                format!(
                    "{} moved to {} on {}, which is not a move",
                    c.unit(&unit),
                    map.loc_name(e.loc),
                    c.order(orders, i)
                ),
            ),
            (Some(i), Some(d)) => {
                if d != ep {
                    c.fail(
                        Invariant::MovesAsOrdered,
                        format!(
                            "{} ended in {} on {}",
                            c.unit(&unit),
                            map.loc_name(e.loc),
                            c.order(orders, i)
                        ),
                    );
                }
                if !succeeded {
                    c.fail(
                        Invariant::MovesAsOrdered,
                        format!(
                            "{} moved to {} but {} is {:?}",
                            c.unit(&unit),
                            map.loc_name(e.loc),
                            c.order(orders, i),
                            r.outcomes[i].verdict
                        ),
                    );
                }
                let eff = matches!(
                    r.prepared.orders[u],
                    UnitOrder::Move { dest_loc, .. } if dest_loc == e.loc
                );
                if !eff {
                    c.fail(
                        Invariant::MovesAsOrdered,
                        format!(
                            "{} ended in {}, not where its effective order {:?} goes",
                            c.unit(&unit),
                            map.loc_name(e.loc),
                            r.prepared.orders[u]
                        ),
                    );
                }
            }
        }
    } else if let (Some(i), Some(_), true) = (src, move_dest, succeeded) {
        c.fail(
            Invariant::MovesAsOrdered,
            format!(
                "{} succeeds but {} stays where it is",
                c.order(orders, i),
                c.unit(&unit)
            ),
        );
    }
}

/// Unit `u` is dislodged by unit `by`: another unit, which ends in its province, and the
/// dislodged unit's hold or move did not succeed.
fn check_dislodged<O: Submitted>(
    c: &mut Checker,
    units: &[Unit],
    orders: &[O],
    r: &MovementResult,
    u: usize,
    by: usize,
    ordered: OrderedMove,
) {
    let map = c.map;
    let n = units.len();
    let here = |u: usize| map.province_of(units[u].loc);
    let unit = units[u];
    let OrderedMove {
        src,
        move_dest,
        succeeded,
    } = ordered;
    if by >= n || by == u {
        c.fail(
            Invariant::Dislodgement,
            format!("{} is dislodged by unit #{by}", c.unit(&unit)),
        );
        return;
    }
    let into = r.units[by].ends.and_then(|e| c.province_of(e.loc));
    if into != Some(here(u)) {
        c.fail(
            Invariant::Dislodgement,
            format!(
                "{} is dislodged by {}, which ends in {}",
                c.unit(&unit),
                c.unit(&units[by]),
                into.map(|p| c.province(p)).unwrap_or("nowhere".into())
            ),
        );
    }
    if let Some(i) = src {
        let holds = matches!(orders[i].order().kind, OrderKind::Hold);
        if succeeded && (holds || move_dest.is_some()) {
            c.fail(
                Invariant::Dislodgement,
                format!(
                    "{} is dislodged, yet {} succeeds",
                    c.unit(&unit),
                    c.order(orders, i)
                ),
            );
        }
    }
}

/// The parts of the result agree: the final units are those that end somewhere, and the
/// dislodged units listed are those dislodged, each with its attacker's origin and route.
fn check_result_parts(c: &mut Checker, units: &[Unit], r: &MovementResult) {
    let map = c.map;
    let n = units.len();
    let here = |u: usize| map.province_of(units[u].loc);
    let ends: Vec<Unit> = r.units.iter().filter_map(|x| x.ends).collect();
    if r.final_units != ends {
        c.fail(
            Invariant::Consistency,
            format!(
                "the final units ({}) are not the units that end somewhere ({})",
                c.units(&r.final_units),
                c.units(&ends)
            ),
        );
    }
    let dislodged: Vec<usize> = (0..n)
        .filter(|&u| r.units[u].dislodged_by.is_some())
        .collect();
    if r.dislodged.len() != dislodged.len() {
        c.fail(
            Invariant::Consistency,
            format!(
                "{} units are dislodged but {} are listed as dislodged",
                dislodged.len(),
                r.dislodged.len()
            ),
        );
    } else {
        for (d, &u) in r.dislodged.iter().zip(&dislodged) {
            let Some(by) = r.units[u].dislodged_by.filter(|&b| b < n) else {
                continue;
            };
            if d.unit != units[u] {
                c.fail(
                    Invariant::Consistency,
                    format!(
                        "dislodged {} is listed as {}",
                        c.unit(&units[u]),
                        c.unit(&d.unit)
                    ),
                );
            }
            if d.attacker_from != here(by) {
                c.fail(
                    Invariant::Dislodgement,
                    format!(
                        "{} was dislodged by {} from {}, but its attacker is said to come from {}",
                        c.unit(&units[u]),
                        c.unit(&units[by]),
                        c.province(here(by)),
                        c.province(d.attacker_from)
                    ),
                );
            }
            if d.by_convoy != came_by_convoy(r, by) {
                c.fail(
                    Invariant::Dislodgement,
                    format!(
                        "{} was dislodged by {}; by convoy is {} but its path says {}",
                        c.unit(&units[u]),
                        c.unit(&units[by]),
                        d.by_convoy,
                        !d.by_convoy
                    ),
                );
            }
        }
    }
}

/// Each contested province (a standoff) is listed once, is empty after the movement, and had
/// a move there that failed.
fn check_contested(c: &mut Checker, r: &MovementResult) {
    let n = r.units.len();
    let held: std::collections::HashSet<ProvinceId> = r
        .final_units
        .iter()
        .filter_map(|u| c.province_of(u.loc))
        .collect();
    let mut tried: std::collections::HashSet<ProvinceId> = std::collections::HashSet::new();
    for u in 0..n {
        if let UnitOrder::Move { dest, .. } = r.prepared.orders[u]
            && r.units[u]
                .ends
                .is_none_or(|e| c.province_of(e.loc) != Some(dest))
        {
            tried.insert(dest);
        }
    }
    let mut seen_contested: std::collections::HashSet<ProvinceId> =
        std::collections::HashSet::new();
    for &p in &r.contested {
        if !seen_contested.insert(p) {
            c.fail(
                Invariant::Consistency,
                format!("{} is listed twice as contested", c.province(p)),
            );
        }
        if held.contains(&p) {
            c.fail(
                Invariant::Consistency,
                format!("{} is contested (a standoff) but occupied", c.province(p)),
            );
        }
        // A move there that failed: its unit stayed, or was dislodged where it stood (a
        // dislodged unit's failed move still makes a standoff).
        if !tried.contains(&p) {
            c.fail(
                Invariant::Consistency,
                format!(
                    "{} is contested but no failed move was made there",
                    c.province(p)
                ),
            );
        }
    }
}

/// Every decision of the graph is resolved.
fn check_resolved<O: Submitted>(c: &mut Checker, units: &[Unit], orders: &[O], r: &MovementResult) {
    let map = c.map;
    let g = &r.graph;
    let m = g.nodes.len();
    for id in 0..m {
        if g.lo[id] != g.hi[id] {
            let label = r.node_label(map, units, orders, id as u32);
            c.fail(
                Invariant::Resolved,
                format!("decision {label} is unresolved"),
            );
        }
    }
}

/// Backup rules: reported exactly where a cycle was broken, by the orders they decided, and
/// agreeing with what happened (a Szykman-cancelled convoy, a circular movement that moved, an
/// All Hold that did not).
fn check_backups<O: Submitted>(c: &mut Checker, units: &[Unit], orders: &[O], r: &MovementResult) {
    let g = &r.graph;
    let cycle = g.in_cycle.iter().any(|x| *x);
    let applied = r.backup_applied();
    if cycle != applied {
        c.fail(
            Invariant::BackupReported,
            if cycle {
                "a decision cycle was handed to a backup rule, but no backup rule is reported as applied"
                    .to_string()
            } else {
                "a backup rule is reported as applied, but no decision cycle was found".to_string()
            },
        );
    }
    let named: Vec<usize> = (0..orders.len())
        .filter(|&i| r.outcomes[i].backup.is_some())
        .collect();
    if !applied {
        for &i in &named {
            c.fail(
                Invariant::BackupReported,
                format!(
                    "{} names the {} though no backup rule was applied",
                    c.order(orders, i),
                    r.outcomes[i].backup.map(BackupRule::name).unwrap_or("")
                ),
            );
        }
    } else if named.is_empty() {
        c.fail(
            Invariant::BackupReported,
            "a backup rule was applied, but no order's outcome names it".to_string(),
        );
    }
    let cancelled: std::collections::HashSet<usize> = r.cancelled_convoys.iter().copied().collect();
    for (u, unit) in units.iter().enumerate() {
        let Some(i) = r.prepared.source[u] else {
            continue;
        };
        let backup = r.outcomes[i].backup;
        if cancelled.contains(&u)
            && matches!(orders[i].order().kind, OrderKind::Convoy { .. })
            && backup != Some(BackupRule::Szykman)
        {
            c.fail(
                Invariant::BackupReported,
                format!(
                    "the Szykman rule cancelled the convoy of {}, but {} reports {:?}",
                    c.unit(unit),
                    c.order(orders, i),
                    backup
                ),
            );
        }
        let forced_move = g
            .node_of(u, NodeKind::Move)
            .is_some_and(|id| g.forced[id as usize]);
        if forced_move && backup.is_none() {
            c.fail(
                Invariant::BackupReported,
                format!(
                    "a backup rule decided whether {} moves, but {} names none",
                    c.unit(unit),
                    c.order(orders, i)
                ),
            );
        }
        let moved = r.units[u].ends.is_some_and(|e| e.loc != unit.loc);
        match backup {
            Some(BackupRule::CircularMovement) if !moved => c.fail(
                Invariant::BackupReported,
                format!(
                    "{} reports the circular movement rule but {} did not move",
                    c.order(orders, i),
                    c.unit(unit)
                ),
            ),
            Some(BackupRule::AllHold) if moved => c.fail(
                Invariant::BackupReported,
                format!(
                    "{} reports the All Hold rule but {} moved",
                    c.order(orders, i),
                    c.unit(unit)
                ),
            ),
            _ => {}
        }
    }
}

/// Checks a retreat phase: `units` are the units that were not dislodged, `dislodged` the
/// dislodged ones, `contested` the standoffs of the movement before. Every order has one
/// outcome; the units that were not dislodged stay; each retreat is made only on an order that
/// succeeds, to a place among the unit's retreat options (reachable, empty, not contested, not the
/// attacker's origin unless 4.A.5 allows it); no two units end in one province.
pub fn check_retreats<O: Submitted>(
    map: &Map,
    units: &[Unit],
    dislodged: &[Dislodged],
    contested: &[ProvinceId],
    orders: &[O],
    rules: &Rules,
    r: &PhaseResult,
) -> Vec<Violation> {
    let mut c = Checker::new(map);
    if !c.position("the position", units) {
        return c.out;
    }
    let ds: Vec<Unit> = dislodged.iter().map(|d| d.unit).collect();
    if !c.position("the dislodged units", &ds) {
        return c.out;
    }
    if contested
        .iter()
        .chain(dislodged.iter().map(|d| &d.attacker_from))
        .any(|p| p.0 as usize >= map.province_count())
    {
        c.fail(
            Invariant::Input,
            "a contested province or an attacker's origin is not on this map".into(),
        );
        return c.out;
    }
    if r.outcomes.len() != orders.len() {
        c.fail(
            Invariant::OneOutcome,
            format!("{} orders but {} outcomes", orders.len(), r.outcomes.len()),
        );
        return c.out;
    }
    if !r.dislodged.is_empty() || !r.contested.is_empty() {
        c.fail(
            Invariant::Consistency,
            "a retreat phase dislodges nobody and leaves no standoff".into(),
        );
    }
    let occ = occupied(map, units);
    let standoff = standoffs(map, contested);
    for d in dislodged {
        c.retreat_options(d, &occ, &standoff, rules);
    }
    // The units that were not dislodged all stay; the others are retreats.
    let mut left: HashMap<Unit, usize> = HashMap::new();
    for u in &r.final_units {
        *left.entry(*u).or_default() += 1;
    }
    for u in units {
        match left.get_mut(u) {
            Some(k) if *k > 0 => *k -= 1,
            _ => c.fail(
                Invariant::Retreat,
                format!(
                    "{} was not dislodged but is not there after the retreats",
                    c.unit(u)
                ),
            ),
        }
    }
    let mut extra: Vec<Unit> = Vec::new();
    for (u, k) in left {
        extra.extend(std::iter::repeat_n(u, k));
    }
    extra.sort();
    // A dislodged neutral unit is disbanded: none comes back.
    for u in extra.iter().filter(|u| u.power.is_neutral()) {
        c.fail(
            Invariant::Neutral,
            format!(
                "{} is on the board after the retreats, but a dislodged neutral unit is disbanded",
                c.unit(u)
            ),
        );
    }
    // Successful retreat orders: (power, from, to).
    let moved: std::collections::HashSet<(PowerId, ProvinceId, ProvinceId)> = orders
        .iter()
        .map(|e| (e.power(), e.order()))
        .enumerate()
        .filter(|(i, _)| r.outcomes[*i].verdict == Verdict::Succeeds)
        .filter_map(|(_, (p, o))| match (&o.kind, o.unit) {
            (OrderKind::Move { dest, .. }, Some(spec)) => {
                Some((p, spec.loc.province, dest.province))
            }
            _ => None,
        })
        .collect();
    // The same, by (power, to): the places they came from; and the dislodged units by place.
    let mut moved_to: HashMap<(PowerId, ProvinceId), Vec<ProvinceId>> = HashMap::new();
    for &(p, from, to) in &moved {
        moved_to.entry((p, to)).or_default().push(from);
    }
    let mut dislodged_at: HashMap<ProvinceId, Vec<usize>> = HashMap::new();
    for (k, d) in dislodged.iter().enumerate() {
        dislodged_at
            .entry(map.province_of(d.unit.loc))
            .or_default()
            .push(k);
    }
    let mut used = vec![false; dislodged.len()];
    for e in &extra {
        let Some(ep) = c.province_of(e.loc) else {
            c.fail(Invariant::Consistency, format!("{e:?} ends off the map"));
            continue;
        };
        // The dislodged unit it is: same power and kind, with a successful order to go there
        // (the first in the list, among the places such orders came from).
        let found = moved_to
            .get(&(e.power, ep))
            .into_iter()
            .flatten()
            .flat_map(|from| dislodged_at.get(from).into_iter().flatten())
            .copied()
            .filter(|&k| {
                let d = &dislodged[k];
                !used[k] && d.unit.power == e.power && d.unit.kind == e.kind
            })
            .min();
        let Some(k) = found else {
            c.fail(
                Invariant::Retreat,
                format!(
                    "{} is there after the retreats, but no dislodged unit was ordered there with success",
                    c.unit(e)
                ),
            );
            continue;
        };
        used[k] = true;
        let d = &dislodged[k];
        let opts = retreat_options_marked(map, d, &occ, &standoff, rules);
        if !opts.contains(&e.loc) {
            c.fail(
                Invariant::Retreat,
                format!(
                    "dislodged {} retreated to {}, which is not among its options ({})",
                    c.unit(&d.unit),
                    map.loc_name(e.loc),
                    opts.iter()
                        .map(|l| map.loc_name(*l))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
    // A retreat that succeeds is made: a unit of its power, not one of those that stayed, in
    // its destination (the units after the phase looked up by province, not searched).
    let stayed: std::collections::HashSet<Unit> = units.iter().copied().collect();
    let mut after_at: HashMap<ProvinceId, Vec<Unit>> = HashMap::new();
    for u in &r.final_units {
        if let Some(p) = c.province_of(u.loc) {
            after_at.entry(p).or_default().push(*u);
        }
    }
    for (i, (p, o)) in orders.iter().map(|e| (e.power(), e.order())).enumerate() {
        let (Some(spec), OrderKind::Move { dest, .. }) = (o.unit, &o.kind) else {
            continue;
        };
        if r.outcomes[i].verdict != Verdict::Succeeds {
            continue;
        }
        let made = after_at
            .get(&dest.province)
            .is_some_and(|v| v.iter().any(|u| u.power == p && !stayed.contains(u)));
        if !made {
            c.fail(
                Invariant::Retreat,
                format!(
                    "{} succeeds, but no {} unit from {} is in {} afterwards",
                    c.order(orders, i),
                    map.powers
                        .get(p.0 as usize)
                        .map(|x| x.adjective.as_str())
                        .unwrap_or("?"),
                    c.province(spec.loc.province),
                    c.province(dest.province)
                ),
            );
        }
    }
    c.one_per_province("after the retreats", &r.final_units);
    c.out
}

/// Checks an adjustment phase: every order has one outcome; builds only in owned, empty home
/// centres of a power due builds (no more than due, as many as its successful builds);
/// removals only of units of a power due removals, exactly as many as due (civil disorder
/// completes them); every other unit stays; no two units end in one province.
pub fn check_adjustments<O: Submitted>(
    map: &Map,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[O],
    _rules: &Rules,
    r: &PhaseResult,
) -> Vec<Violation> {
    let mut c = Checker::new(map);
    if !c.position("the position", units) {
        return c.out;
    }
    if owners.len() != map.province_count()
        || owners
            .iter()
            .flatten()
            .any(|p| p.0 as usize >= map.powers.len())
    {
        c.fail(
            Invariant::Input,
            format!(
                "{} owner entries for {} provinces, or an owner not on this map",
                owners.len(),
                map.province_count()
            ),
        );
        return c.out;
    }
    if r.outcomes.len() != orders.len() {
        c.fail(
            Invariant::OneOutcome,
            format!("{} orders but {} outcomes", orders.len(), r.outcomes.len()),
        );
        return c.out;
    }
    if !r.dislodged.is_empty() || !r.contested.is_empty() {
        c.fail(
            Invariant::Consistency,
            "an adjustment phase dislodges nobody and leaves no standoff".into(),
        );
    }
    let due = adjustments_due(map, units, owners);
    let np = map.powers.len();
    // Removed: units that are gone; built: units that are new.
    let mut left: HashMap<Unit, usize> = HashMap::new();
    for u in &r.final_units {
        *left.entry(*u).or_default() += 1;
    }
    let mut removed = vec![0i64; np];
    for u in units {
        match left.get_mut(u) {
            Some(k) if *k > 0 => *k -= 1,
            _ if u.power.is_neutral() => {
                c.fail(
                    Invariant::Neutral,
                    format!(
                        "{} is removed, but neutral units are never removed",
                        c.unit(u)
                    ),
                );
            }
            _ => {
                removed[u.power.0 as usize] += 1;
                if due[u.power.0 as usize] >= 0 {
                    c.fail(
                        Invariant::Adjustment,
                        format!(
                            "{} is removed, but {} is due {} (no removals)",
                            c.unit(u),
                            map.power(u.power).name,
                            due[u.power.0 as usize]
                        ),
                    );
                }
            }
        }
    }
    let mut built = vec![0i64; np];
    let mut new_units: Vec<Unit> = Vec::new();
    for (u, k) in left {
        new_units.extend(std::iter::repeat_n(u, k));
    }
    new_units.sort();
    let occ = occupied(map, units);
    for b in &new_units {
        if b.power.is_neutral() {
            c.fail(
                Invariant::Neutral,
                format!("{} is built, but neutral units are never built", c.unit(b)),
            );
            continue;
        }
        let (Some(p), true) = (c.province_of(b.loc), (b.power.0 as usize) < np) else {
            c.fail(Invariant::Consistency, format!("{b:?} ends off the map"));
            continue;
        };
        built[b.power.0 as usize] += 1;
        let prov = map.province(p);
        let name = &map.power(b.power).name;
        let why = if !map.may_build_in(b.power, p) {
            Some(match map.build_sites {
                crate::model::map::BuildSites::Home => format!("not a home centre of {name}"),
                crate::model::map::BuildSites::Owned
                | crate::model::map::BuildSites::OwnedIfHomeOwned => {
                    "not a supply centre".to_string()
                }
            })
        } else if !map.may_build_at_all(b.power, owners) {
            Some(format!("{name} owns none of its home centres"))
        } else if owners[p.0 as usize] != Some(b.power) {
            Some(format!("a home centre {name} does not own"))
        } else if occ[p.0 as usize] {
            Some("occupied".to_string())
        } else if due[b.power.0 as usize] <= 0 {
            Some(format!("built though {name} is due no builds"))
        } else if (b.kind == UnitKind::Army && prov.kind == ProvinceKind::Sea)
            || (b.kind == UnitKind::Fleet
                && (prov.kind == ProvinceKind::Land
                    || (prov.is_multi_coast() && map.location(b.loc).coast.is_none())))
        {
            Some("a place this kind of unit cannot stand".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            c.fail(
                Invariant::Adjustment,
                format!("{} is built in {}: {why}", c.unit(b), prov.name),
            );
        }
    }
    for p in map.power_ids() {
        let k = p.0 as usize;
        let name = &map.power(p).name;
        let d = due[k] as i64;
        if d < 0 && removed[k] != -d {
            c.fail(
                Invariant::Adjustment,
                format!(
                    "{name} must remove {} but {} of its units are gone",
                    -d, removed[k]
                ),
            );
        }
        if built[k] > d.max(0) {
            c.fail(
                Invariant::Adjustment,
                format!("{name} may build {} but built {}", d.max(0), built[k]),
            );
        }
        let ok_builds = orders
            .iter()
            .map(|e| (e.power(), e.order()))
            .enumerate()
            .filter(|(i, (q, o))| {
                *q == p
                    && matches!(o.kind, OrderKind::Build)
                    && r.outcomes[*i].verdict == Verdict::Succeeds
            })
            .count() as i64;
        if ok_builds != built[k] {
            c.fail(
                Invariant::Adjustment,
                format!(
                    "{name} has {ok_builds} successful builds but {} new units",
                    built[k]
                ),
            );
        }
    }
    c.one_per_province("after the adjustments", &r.final_units);
    c.out
}

/// Checks the result of a scenario's own phase with the given orders and rules. For a movement
/// phase the phase is adjudicated again to get the decision graph: the result must be that
/// adjudication's, which [`check_movement`] then checks.
pub fn check_phase<O: Submitted>(
    s: &Scenario,
    orders: &[O],
    rules: &Rules,
    result: &PhaseResult,
) -> Vec<Violation> {
    let map = &*s.map;
    match s.phase.kind {
        PhaseKind::Movement => {
            let mut c = Checker::new(map);
            if !c.position("the position", &s.units) {
                return c.out;
            }
            let m = adjudicate_movement(map, &s.units, orders, rules);
            let p = m.phase();
            if p.outcomes != result.outcomes
                || p.final_units != result.final_units
                || p.dislodged != result.dislodged
                || p.contested != result.contested
            {
                c.fail(
                    Invariant::Consistency,
                    "the phase result is not what the movement adjudicator gives for this phase"
                        .into(),
                );
            }
            c.out
                .extend(check_movement(map, &s.units, orders, rules, &m));
            c.out
        }
        PhaseKind::Retreat => check_retreats(
            map,
            &s.units,
            &s.dislodged,
            &s.contested,
            orders,
            rules,
            result,
        ),
        PhaseKind::Adjustment => {
            check_adjustments(map, &s.units, &s.owners_or_home(), orders, rules, result)
        }
    }
}

/// Checks a [`Run`] of a scenario (what `dipsandbox check` compares with the expectations): its
/// own phase, and the retreats that follow when the scenario has them.
pub fn check_run(s: &Scenario, run: &Run) -> Vec<Violation> {
    let map = &*s.map;
    let mut out = match run.result.decisions() {
        Some(m) => check_movement(map, &s.units, &s.orders, &run.rules, m),
        None => check_phase(s, &s.orders, &run.rules, run.phase()),
    };
    if let (Some(f), Some(r)) = (&s.retreats, &run.retreats) {
        let orders = &f.orders;
        out.extend(check_retreats(
            map,
            &run.phase().final_units,
            &run.phase().dislodged,
            &run.phase().contested,
            orders,
            &run.rules,
            r,
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Listing order and tracing.
// ---------------------------------------------------------------------------------------------

/// A random permutation of `0..n` (position k of the permuted list holds element `perm[k]`) in
/// which elements with the same `group` key keep their relative order: where the rules make the
/// first or last of several orders count, that order is part of the input's meaning.
fn permutation(n: usize, rng: &mut SplitMix64, group: &dyn Fn(usize) -> Option<u64>) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
    let mut slots: HashMap<u64, Vec<usize>> = HashMap::new();
    for (k, &e) in v.iter().enumerate() {
        if let Some(g) = group(e) {
            slots.entry(g).or_default().push(k);
        }
    }
    for ks in slots.values() {
        let mut members: Vec<usize> = ks.iter().map(|&k| v[k]).collect();
        members.sort_unstable();
        for (&k, e) in ks.iter().zip(members) {
            v[k] = e;
        }
    }
    v
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn dislodged_set(v: &[Dislodged]) -> Vec<(Unit, ProvinceId, bool)> {
    let mut s: Vec<(Unit, ProvinceId, bool)> = v
        .iter()
        .map(|d| (d.unit, d.attacker_from, d.by_convoy))
        .collect();
    s.sort();
    s
}

/// The province an order names for its unit, as a grouping key for [`permutation`].
fn unit_key(o: &Order) -> Option<u64> {
    o.unit.map(|s| s.loc.province.0 as u64)
}

/// Re-adjudicates a movement phase with its orders listed in another order, with units and
/// orders both listed in another order, and traced, and compares each with the plain result:
/// the same outcomes (mapped back to the original lists), the same fates, final positions,
/// dislodgements, standoffs, cancelled convoys and forced holds. `seed` picks the permutations.
/// Where the rules make the first or last of a unit's orders count (4.D.3), that unit's orders
/// keep their relative order.
pub fn check_movement_stable<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    seed: u64,
) -> Vec<Violation> {
    let mut c = Checker::new(map);
    if !c.position("the position", units) {
        return c.out;
    }
    let base = adjudicate_movement(map, units, orders, rules);
    let mut rng = SplitMix64::new(seed);
    let free = rules.multiple_orders == MultipleOrders::Hold;
    let group = |i: usize| {
        if free {
            None
        } else {
            unit_key(orders[i].order())
        }
    };
    let described = |c: &Checker, up: &[usize], op: &[usize]| {
        let us: Vec<String> = up.iter().map(|&u| c.unit(&units[u])).collect();
        let os: Vec<String> = op.iter().map(|&i| c.order(orders, i)).collect();
        format!(
            "units listed as [{}], orders as [{}]",
            us.join("; "),
            os.join("; ")
        )
    };

    // 1. Orders listed in another order: everything identical, outcomes mapped back.
    let op = permutation(orders.len(), &mut rng, &group);
    let orders2: Vec<(PowerId, Order)> = op
        .iter()
        .map(|&i| (orders[i].power(), orders[i].order().clone()))
        .collect();
    let r2 = adjudicate_movement(map, units, &orders2, rules);
    let identity: Vec<usize> = (0..units.len()).collect();
    for (k, &i) in op.iter().enumerate() {
        if r2.outcomes.get(k) != base.outcomes.get(i) {
            c.fail(
                Invariant::ListingOrder,
                format!(
                    "{}: {:?} becomes {:?} with the {}",
                    c.order(orders, i),
                    base.outcomes.get(i).map(|o| (&o.verdict, &o.reason)),
                    r2.outcomes.get(k).map(|o| (&o.verdict, &o.reason)),
                    described(&c, &identity, &op)
                ),
            );
        }
    }
    if r2.units != base.units
        || r2.final_units != base.final_units
        || dislodged_set(&r2.dislodged) != dislodged_set(&base.dislodged)
        || r2.contested != base.contested
        || r2.cancelled_convoys != base.cancelled_convoys
        || r2.forced_hold != base.forced_hold
    {
        c.fail(
            Invariant::ListingOrder,
            format!(
                "the units' fates change (after: {} instead of {}) with the {}",
                c.units(&r2.final_units),
                c.units(&base.final_units),
                described(&c, &identity, &op)
            ),
        );
    }

    // 2. Units and orders both listed in another order: verdicts and backup rules per order,
    //    fates mapped back, final positions and dislodgements as sets.
    let up = permutation(units.len(), &mut rng, &|_| None);
    let op = permutation(orders.len(), &mut rng, &group);
    let units3: Vec<Unit> = up.iter().map(|&u| units[u]).collect();
    let orders3: Vec<(PowerId, Order)> = op
        .iter()
        .map(|&i| (orders[i].power(), orders[i].order().clone()))
        .collect();
    let r3 = adjudicate_movement(map, &units3, &orders3, rules);
    for (k, &i) in op.iter().enumerate() {
        let a = base.outcomes.get(i).map(|o| (o.verdict, o.backup));
        let b = r3.outcomes.get(k).map(|o| (o.verdict, o.backup));
        if a != b {
            c.fail(
                Invariant::ListingOrder,
                format!(
                    "{}: {:?} becomes {:?} with the {}",
                    c.order(orders, i),
                    a,
                    b,
                    described(&c, &up, &op)
                ),
            );
        }
    }
    for (k, &u) in up.iter().enumerate() {
        let (Some(x), Some(y)) = (r3.units.get(k), base.units.get(u)) else {
            continue;
        };
        if x.ends != y.ends
            || x.dislodged_by.map(|d| up.get(d).copied()) != y.dislodged_by.map(Some)
        {
            c.fail(
                Invariant::ListingOrder,
                format!(
                    "the fate of {} changes ({:?} instead of {:?}) with the {}",
                    c.unit(&units[u]),
                    x.ends.map(|e| c.unit(&e)),
                    y.ends.map(|e| c.unit(&e)),
                    described(&c, &up, &op)
                ),
            );
        }
    }
    let map_back = |v: &[usize]| -> Vec<usize> {
        let mut w: Vec<usize> = v.iter().filter_map(|&x| up.get(x).copied()).collect();
        w.sort_unstable();
        w
    };
    if sorted(&r3.final_units) != sorted(&base.final_units)
        || dislodged_set(&r3.dislodged) != dislodged_set(&base.dislodged)
        || sorted(&r3.contested) != sorted(&base.contested)
        || map_back(&r3.cancelled_convoys) != sorted(&base.cancelled_convoys)
        || map_back(&r3.forced_hold) != sorted(&base.forced_hold)
    {
        c.fail(
            Invariant::ListingOrder,
            format!(
                "the positions, dislodgements, standoffs or backup rules change with the {}",
                described(&c, &up, &op)
            ),
        );
    }

    // 3. Traced: exactly the same result, and a trace.
    let traced = crate::engine::decision::adjudicator::adjudicate(map, units, orders, rules, true);
    let mut diffs: Vec<&str> = Vec::new();
    if base.trace.is_some() || traced.trace.is_none() {
        diffs.push("trace presence");
    }
    if traced.outcomes != base.outcomes {
        diffs.push("outcomes");
    }
    if traced.units != base.units || traced.final_units != base.final_units {
        diffs.push("unit fates");
    }
    if traced.dislodged != base.dislodged || traced.contested != base.contested {
        diffs.push("dislodgements or standoffs");
    }
    if traced.cancelled_convoys != base.cancelled_convoys || traced.forced_hold != base.forced_hold
    {
        diffs.push("backup rules");
    }
    if traced.graph.lo != base.graph.lo
        || traced.graph.hi != base.graph.hi
        || traced.graph.forced != base.graph.forced
        || traced.graph.in_cycle != base.graph.in_cycle
    {
        diffs.push("decision values");
    }
    if !diffs.is_empty() {
        c.fail(
            Invariant::Tracing,
            format!("tracing changes the {}", diffs.join(", ")),
        );
    }
    c.out
}

/// [`check_movement_stable`] for a movement phase; for a retreat phase, the dislodged units and
/// the orders listed in other orders (a unit's orders keep their order where 4.D.3 makes it
/// count); for an adjustment phase, the units and the orders listed in other orders (each
/// power's orders keep theirs: 4.D.4–4.D.6 may make the first or last count). Outcomes are
/// compared per order, positions as sets.
pub fn check_phase_stable<O: Submitted>(
    s: &Scenario,
    orders: &[O],
    rules: &Rules,
    seed: u64,
) -> Vec<Violation> {
    let map = &*s.map;
    if s.phase.kind == PhaseKind::Movement {
        return check_movement_stable(map, &s.units, orders, rules, seed);
    }
    let mut c = Checker::new(map);
    if !c.position("the position", &s.units) {
        return c.out;
    }
    let base = crate::tools::turn::adjudicate_phase(s, orders, rules);
    let mut rng = SplitMix64::new(seed);
    let (s2, op) = match s.phase.kind {
        PhaseKind::Retreat => {
            let free = rules.multiple_orders == MultipleOrders::Hold;
            let op = permutation(orders.len(), &mut rng, &|i| {
                if free {
                    None
                } else {
                    unit_key(orders[i].order())
                }
            });
            let dp = permutation(s.dislodged.len(), &mut rng, &|_| None);
            let mut s2 = s.clone();
            s2.dislodged = dp.iter().map(|&k| s.dislodged[k]).collect();
            (s2, op)
        }
        _ => {
            let op = permutation(orders.len(), &mut rng, &|i| {
                Some(orders[i].power().0 as u64)
            });
            let up = permutation(s.units.len(), &mut rng, &|_| None);
            let mut s2 = s.clone();
            s2.units = up.iter().map(|&k| s.units[k]).collect();
            (s2, op)
        }
    };
    let orders2: Vec<(PowerId, Order)> = op
        .iter()
        .map(|&i| (orders[i].power(), orders[i].order().clone()))
        .collect();
    let r2 = crate::tools::turn::adjudicate_phase(&s2, &orders2, rules);
    let listed = op
        .iter()
        .map(|&i| c.order(orders, i))
        .collect::<Vec<String>>()
        .join("; ");
    for (k, &i) in op.iter().enumerate() {
        let a = base.outcomes.get(i);
        let b = r2.outcomes.get(k);
        // Retreat reasons name the other retreats in the dislodged units' order: compare
        // verdicts there, the whole outcome for adjustments.
        let same = match s.phase.kind {
            PhaseKind::Retreat => a.map(|o| o.verdict) == b.map(|o| o.verdict),
            _ => a == b,
        };
        if !same {
            c.fail(
                Invariant::ListingOrder,
                format!(
                    "{}: {:?} becomes {:?} with the orders listed as [{}]",
                    c.order(orders, i),
                    a.map(|o| (&o.verdict, &o.reason)),
                    b.map(|o| (&o.verdict, &o.reason)),
                    listed
                ),
            );
        }
    }
    if sorted(&r2.final_units) != sorted(&base.final_units)
        || sorted(&r2.notes) != sorted(&base.notes)
    {
        c.fail(
            Invariant::ListingOrder,
            format!(
                "the units after the phase change ({} instead of {}) with the orders listed as [{}] and the units in another order",
                c.units(&sorted(&r2.final_units)),
                c.units(&sorted(&base.final_units)),
                listed
            ),
        );
    }
    c.out
}

// ---------------------------------------------------------------------------------------------
// The turn cycle.
// ---------------------------------------------------------------------------------------------

/// Checks one step of the turn cycle ([`crate::tools::turn::advance`]): the phase result
/// ([`check_phase`]), and the next scenario — its units are the result's final units, with no
/// orders; dislodged units and standoffs carry over into a retreat phase exactly when the
/// movement dislodged someone; centres change hands only after the Fall phases (an occupied
/// centre then belongs to its occupant, an empty one keeps its owner); an adjustment phase
/// follows the Fall only when some power must adjust; the winner is the power with a winning
/// number of centres.
pub fn check_advance(s: &Scenario, rules: &Rules, adv: &Advanced) -> Vec<Violation> {
    let map = &*s.map;
    let mut out = check_phase(s, &s.orders, rules, &adv.result);
    let mut c = Checker::new(map);
    let next = &adv.next;
    let r = &adv.result;
    if next.units != r.final_units {
        c.fail(
            Invariant::Turn,
            format!(
                "the next phase has {} but the phase ended with {}",
                c.units(&next.units),
                c.units(&r.final_units)
            ),
        );
    }
    if !next.orders.is_empty() || next.expect.is_some() || next.retreats.is_some() {
        c.fail(
            Invariant::Turn,
            "the next phase starts with orders or expectations".into(),
        );
    }
    let to_retreat = s.phase.kind == PhaseKind::Movement && !r.dislodged.is_empty();
    if to_retreat {
        if next.phase.kind != PhaseKind::Retreat
            || next.phase.season != s.phase.season
            || next.phase.year != s.phase.year
        {
            c.fail(
                Invariant::Turn,
                format!(
                    "{} dislodged units, but {} follows {}",
                    r.dislodged.len(),
                    next.phase,
                    s.phase
                ),
            );
        }
        if next.dislodged != r.dislodged || next.contested != r.contested {
            c.fail(
                Invariant::Turn,
                "the retreat phase does not carry the dislodged units and standoffs over".into(),
            );
        }
    } else if !next.dislodged.is_empty() || !next.contested.is_empty() {
        c.fail(
            Invariant::Turn,
            format!(
                "{} has dislodged units or standoffs but follows no dislodgement",
                next.phase
            ),
        );
    }
    let before = s.owners_or_home();
    let after = next.owners_or_home();
    let fall_done = s.phase.season == Season::Fall && !to_retreat;
    if before.len() != map.province_count() || after.len() != map.province_count() {
        c.fail(Invariant::Input, "owner lists of the wrong length".into());
        out.extend(c.out);
        return out;
    }
    // The power of the first unit in each province after the phase (one pass, not one per
    // province).
    let mut occupant_of: Vec<Option<PowerId>> = vec![None; map.province_count()];
    for u in &r.final_units {
        if let Some(p) = c.province_of(u.loc)
            && let Some(o) = occupant_of.get_mut(p.0 as usize)
            && o.is_none()
        {
            *o = Some(u.power);
        }
    }
    for p in map.province_ids() {
        let k = p.0 as usize;
        let occupant = occupant_of[k];
        let expected = match occupant {
            // A neutral unit changes no centre's owner.
            Some(o) if fall_done && map.province(p).supply_center && !o.is_neutral() => Some(o),
            _ => before[k],
        };
        if after[k] != expected {
            c.fail(
                Invariant::Turn,
                format!(
                    "{} after {}: owned by {:?}, expected {:?}",
                    map.province(p).name,
                    s.phase,
                    after[k].map(|x| map.power(x).name.as_str()),
                    expected.map(|x| map.power(x).name.as_str())
                ),
            );
        }
    }
    if fall_done {
        let must_adjust = adjustments_due(map, &next.units, &after)
            .iter()
            .any(|d| *d != 0);
        let adjusts = next.phase.kind == PhaseKind::Adjustment;
        if must_adjust != adjusts {
            c.fail(
                Invariant::Turn,
                format!(
                    "{} follows {} though adjustments are {}due",
                    next.phase,
                    s.phase,
                    if must_adjust { "" } else { "not " }
                ),
            );
        }
    }
    let need = crate::tools::turn::victory_threshold(map);
    let counts = crate::engine::adjust::centre_counts(map, &after);
    let winner_ok = match adv.winner {
        Some(w) => counts.get(w.0 as usize).is_some_and(|&n| n >= need),
        None => counts.iter().all(|&n| n < need),
    };
    if !winner_ok {
        c.fail(
            Invariant::Turn,
            format!(
                "winner {:?} with centre counts {counts:?} (need {need})",
                adv.winner
            ),
        );
    }
    out.extend(c.out);
    out
}

/// Everything at once, as the fuzz targets use it: adjudicates the scenario's phase (and its
/// follow-up retreats), checks the run, its listing-order and tracing stability, and the step of
/// the turn cycle that [`crate::tools::turn::advance`] makes from it.
pub fn check_scenario(s: &Scenario, rules: &Rules, seed: u64) -> Vec<Violation> {
    let mut out = Vec::new();
    match crate::tools::check::run(s, Some(*rules), false) {
        Ok(run) => {
            out.extend(check_run(s, &run));
            out.extend(check_phase_stable(s, &s.orders, rules, seed));
        }
        Err(_) => {
            // A `retreats` section on a phase that is not a movement: the phase alone.
            let r = crate::tools::turn::adjudicate_phase(s, &s.orders, rules);
            out.extend(check_phase(s, &s.orders, rules, &r));
        }
    }
    // Past the last year there is no next phase to check (advance says so).
    if let Ok(adv) = crate::tools::turn::advance(s, rules) {
        out.extend(check_advance(s, rules, &adv));
    }
    out
}
