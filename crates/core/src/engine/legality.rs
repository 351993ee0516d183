//! Classing orders before resolution (DATC 4.E.1): illegal, void (legal but unmatched) or valid,
//! and turning the valid ones into dense per-unit orders for the resolver.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): unit indices come from the
// occupancy table built from this board's units, province and location ids from the map (a parsed
// order names only provinces of the map it was parsed against); per-unit and per-province buffers
// are resized to the unit and province counts before use.
#![allow(clippy::indexing_slicing)]

use std::fmt;

use crate::model::board::Unit;
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{LocSpec, Order, OrderKind, Submitted, UnitRef};
use crate::model::rules::{
    AdjacentConvoy, CoastGarbage, ConvoyFallback, Designation, IllegalOrders, ImpossibleCoast,
    MultipleOrders, OneCoastOmitted, PathSpecification, Rules, SupportCoast,
};

/// Why an order is illegal (ignored entirely; the unit holds and can receive hold support).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// The order belongs to another phase (e.g. a build in a movement phase).
    WrongPhase,
    /// There is no unit at the ordered place.
    NoUnit,
    /// The unit belongs to another power.
    ForeignUnit(PowerId),
    /// The unit is neutral ([`PowerId::NEUTRAL`]): nobody orders it, it holds.
    NeutralUnit,
    /// The unit letter is missing (4.C.1 choice a).
    MissingUnitType,
    /// The unit letter is wrong (4.C.2 choice a).
    WrongUnitType,
    /// The ordered unit's coast is wrong (4.B.5 choice a).
    WrongUnitCoast,
    /// An unknown or irrelevant coast was written (4.B.6 choice a).
    IrrelevantCoast,
    /// A move to the unit's own province.
    MoveToOwnProvince,
    /// An army ordered to a sea.
    ArmyToSea,
    /// A fleet ordered inland.
    FleetInland,
    /// The destination is not adjacent and no convoy route could exist.
    NotAdjacent,
    /// A fleet's move to a two-coast province needs a coast (4.B.1, 4.B.2 choice b).
    CoastNotSpecified,
    /// A fleet's move to a coast it cannot reach (4.B.3 choice b).
    ImpossibleCoast,
    /// A unit supporting itself.
    SupportSelf,
    /// A support to a province the supporter cannot move to.
    SupportUnreachable,
    /// A support of a move into the supporter's own province.
    SupportOwnArea,
    /// The supported or convoyed unit does not exist.
    NoSuchUnit,
    /// A support of a move that the supported unit could never make.
    SupportImpossibleMove,
    /// A support without the coast the rules require (4.B.4).
    SupportCoastMissing,
    /// A convoy by a fleet that is not in a sea.
    ConvoyNotAtSea,
    /// A convoy of a unit that is not an army.
    ConvoyNotArmy,
    /// A convoy order for which the fleet is on no possible convoy route.
    ConvoyNotOnRoute,
    /// A convoy of an army to its own province.
    ConvoyToOwnProvince,
    /// The unit has several different orders (4.D.3).
    MultipleOrders,
    /// Another order to the same unit was chosen (4.D.3 choices a, b; 4.C.x choice c).
    Superseded,
    /// A move whose convoy path must be written (4.A.6 choice c).
    PathRequired,
    /// An army ordered `via convoy` to a neighbouring province with no possible convoy route
    /// (`adjacent_convoy_fallback=PythonPackage`, the Python package's reading of 4.A.3).
    ViaConvoyNoRoute,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            IllegalReason::WrongPhase => "not an order of this phase",
            IllegalReason::NoUnit => "no unit there",
            IllegalReason::ForeignUnit(_) => "the unit belongs to another power",
            IllegalReason::NeutralUnit => "a neutral unit cannot be ordered: it holds",
            IllegalReason::MissingUnitType => "unit letter missing (4.C.1)",
            IllegalReason::WrongUnitType => "wrong unit letter (4.C.2)",
            IllegalReason::WrongUnitCoast => "wrong coast for the ordered unit (4.B.5)",
            IllegalReason::IrrelevantCoast => "unknown or irrelevant coast (4.B.6)",
            IllegalReason::MoveToOwnProvince => "a unit cannot move to its own province",
            IllegalReason::ArmyToSea => "an army cannot move to sea",
            IllegalReason::FleetInland => "a fleet cannot move inland",
            IllegalReason::NotAdjacent => "destination not adjacent and no convoy route possible",
            IllegalReason::CoastNotSpecified => {
                "the destination's coast must be named (4.B.1/4.B.2)"
            }
            IllegalReason::ImpossibleCoast => "the fleet cannot reach that coast (4.B.3)",
            IllegalReason::SupportSelf => "a unit cannot support itself",
            IllegalReason::SupportUnreachable => {
                "the supporter cannot move to the supported province"
            }
            IllegalReason::SupportOwnArea => "a support cannot target the supporter's own province",
            IllegalReason::NoSuchUnit => "no unit there to support or convoy",
            IllegalReason::SupportImpossibleMove => "the supported unit could never make that move",
            IllegalReason::SupportCoastMissing => "the support must name the coast (4.B.4)",
            IllegalReason::ConvoyNotAtSea => "only fleets at sea can convoy",
            IllegalReason::ConvoyNotArmy => "only armies can be convoyed",
            IllegalReason::ConvoyNotOnRoute => "the fleet is on no possible convoy route",
            IllegalReason::ConvoyToOwnProvince => "an army cannot be convoyed to its own province",
            IllegalReason::MultipleOrders => "the unit has several orders (4.D.3): it holds",
            IllegalReason::Superseded => "another order to the same unit counts (4.D.3)",
            IllegalReason::PathRequired => "the convoy path must be written (4.A.6)",
            IllegalReason::ViaConvoyNoRoute => {
                "ordered via convoy, but no convoy route is possible (4.A.3, the Python package's reading)"
            }
        };
        f.write_str(s)
    }
}

/// Why a legal support or convoy is void.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VoidReason {
    /// The supported unit moves, so a hold support does not match.
    SupportedUnitMoves,
    /// Under `illegal_orders=Fail` (DATC 4.E.1) the supported unit's illegal move stands as a
    /// failed move, so a hold support does not match.
    SupportedUnitIllegalMove,
    /// The supported unit does not make the supported move.
    MoveDoesNotMatch,
    /// The supported move goes to another coast.
    CoastDoesNotMatch,
    /// The army is not moving by convoy to that destination.
    ConvoyDoesNotMatch,
    /// The nationality written is missing or wrong and the rules reject it (4.C.5, 4.C.6).
    Nationality,
    /// The supported or convoyed unit's letter is wrong and the rules reject it.
    UnitType,
}

impl fmt::Display for VoidReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            VoidReason::SupportedUnitMoves => "the supported unit does not hold",
            VoidReason::SupportedUnitIllegalMove => {
                "the supported unit does not hold: its illegal move stands as a failed move (illegal_orders=Fail, DATC 4.E.1)"
            }
            VoidReason::MoveDoesNotMatch => "the supported unit does not make that move",
            VoidReason::CoastDoesNotMatch => "the supported move goes to another coast",
            VoidReason::ConvoyDoesNotMatch => {
                "the army does not move by convoy to that destination"
            }
            VoidReason::Nationality => "nationality missing or wrong (4.C.5/4.C.6)",
            VoidReason::UnitType => "supported unit's letter wrong (4.C.2)",
        };
        f.write_str(s)
    }
}

/// How a move travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Over land or along the coast.
    Land,
    /// By convoy only.
    Convoy,
    /// By convoy when the convoy succeeds, otherwise over land (4.A.3 1971 or fallback).
    ConvoyOrLand,
}

/// A unit's effective order, as the resolver sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitOrder {
    /// Holds (no order, a hold, or an illegal order).
    Hold,
    /// Moves.
    Move {
        /// Destination province.
        dest: ProvinceId,
        /// Destination location (coast for fleets).
        dest_loc: LocId,
        /// How it travels.
        route: Route,
        /// Provinces of a written path that the convoy must use (4.A.6 b/c), if any.
        path: Option<Vec<ProvinceId>>,
    },
    /// Supports `target` holding (`dest` None) or moving to `dest`.
    Support {
        /// Supported unit (index).
        target: usize,
        /// Destination of the supported move.
        dest: Option<ProvinceId>,
        /// Void reason, if the support does not match.
        void: Option<VoidReason>,
    },
    /// Convoys `army` to `dest`.
    Convoy {
        /// Convoyed army (index).
        army: usize,
        /// Its destination.
        dest: ProvinceId,
        /// Void reason, if the convoy does not match.
        void: Option<VoidReason>,
    },
}

/// The status of one submitted order after classing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderStatus {
    /// The order is the unit's effective order.
    Applied(usize),
    /// Illegal: ignored.
    Illegal(IllegalReason),
}

/// Result of classing all orders of a movement phase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prepared {
    /// Per unit, its effective order.
    pub orders: Vec<UnitOrder>,
    /// Per submitted order, its status.
    pub status: Vec<OrderStatus>,
    /// Per unit, the submitted order that applies (if any).
    pub source: Vec<Option<usize>>,
}

/// Unit index at each province (dense), for the units of a position.
pub fn occupancy(map: &Map, units: &[Unit]) -> Vec<Option<usize>> {
    let mut occ = vec![None; map.province_count()];
    for (i, u) in units.iter().enumerate() {
        occ[map.province_of(u.loc).0 as usize] = Some(i);
    }
    occ
}

/// Fills `occ` with the unit index at each province (dense), reusing its buffer.
pub fn occupancy_into(map: &Map, units: &[Unit], occ: &mut Vec<Option<usize>>) {
    occ.clear();
    occ.resize(map.province_count(), None);
    for (i, u) in units.iter().enumerate() {
        occ[map.province_of(u.loc).0 as usize] = Some(i);
    }
}

/// Whether fleets at `a` (a sea) and `b` (any province) border for convoy purposes.
fn convoy_adjacent(map: &Map, a: ProvinceId, b: ProvinceId) -> bool {
    map.provinces_adjacent(a, b)
}

/// Sea provinces holding a fleet, by the given predicate, through which an army at `from` could be
/// convoyed to `to`: returns whether a chain exists.
///
/// The search starts from the seas that border `from` and visits only seas holding fleets, so its
/// cost is the size of the fleets' component, not of the board.
pub fn convoy_chain_exists(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    is_fleet: &dyn Fn(ProvinceId) -> bool,
) -> bool {
    if map.province(from).kind != ProvinceKind::Coast
        || map.province(to).kind != ProvinceKind::Coast
    {
        return false;
    }
    let mut seen: Visited = Visited::default();
    let mut stack: Vec<ProvinceId> = Vec::new();
    for l in map.locations_of(from) {
        for &m in map.fleet_neighbours(l) {
            let p = map.province_of(m);
            if map.province(p).kind == ProvinceKind::Sea && is_fleet(p) && seen.insert(p.0) {
                stack.push(p);
            }
        }
    }
    while let Some(p) = stack.pop() {
        if convoy_adjacent(map, p, to) {
            return true;
        }
        for q in sea_neighbours(map, p) {
            if is_fleet(q) && seen.insert(q.0) {
                stack.push(q);
            }
        }
    }
    false
}

/// A set of province ids, sized by what it holds rather than by the board.
type Visited = rustc_hash::FxHashSet<u32>;

fn sea_neighbours(map: &Map, p: ProvinceId) -> impl Iterator<Item = ProvinceId> + '_ {
    let main = map.province(p).main;
    map.fleet_neighbours(main)
        .iter()
        .map(move |l| map.province_of(*l))
        .filter(move |q| map.province(*q).kind == ProvinceKind::Sea)
}

/// Whether the fleet at sea `f` is on some chordless convoy route from `from` to `to` through
/// seas holding fleets (DATC 4.E.1 / 6.G.19: a convoy order for a fleet that no route needs is
/// illegal).
///
/// A route is a sequence of fleet-holding seas `q1 … qm`: `q1` borders `from` and no later one
/// does, `qm` borders `to` and no earlier one does, consecutive seas border each other and no
/// others do. These are exactly the minimal sets of fleets that connect `from` to `to` (a
/// minimal set's shortest route through it uses all of it and is chordless; a chordless route's
/// fleets lose the connection if any one is removed), so "on some chordless route" is "necessary
/// for some route", the DATC's words.
///
/// Deciding it is NP-complete on arbitrary sea graphs (it is "is there an induced path from
/// `from` to `to` through `f`", and three-in-a-path reduces to it; see `docs/performance.md`), so
/// no exact method is polynomial unless P = NP. This one is exact on every board and depends only
/// on the seas of `f`'s fleet component, never on the board's size:
///
/// 1. The seas holding fleets that `f` reaches through seas holding fleets are numbered (a route
///    through `f` lies in that component).
/// 2. Routes are grown from `from` (a depth-first search with an explicit stack) only up to `f`:
///    each step keeps the route chordless and avoids seas bordering `to` (a route ends at the
///    first such sea).
/// 3. Once a route reaches `f`, whether it can be finished is one breadth-first search from `f`
///    through the seas that border none of the route before `f` (nor `from`): the shortest way
///    to a sea bordering `to` through them is itself chordless, so the route is finished if and
///    only if that search reaches one.
///
/// Only step 2 branches, and only over chordless routes from `from` to `f` that can still reach
/// `f` and then `to` (checked before each step by one search), so the work is polynomial per
/// route prefix; the number of prefixes is small on real maps (at most 19 seas on the standard
/// one) and is the exponential part only on contrived sea graphs.
pub fn fleet_on_some_route(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    f: ProvinceId,
    is_fleet: &dyn Fn(ProvinceId) -> bool,
) -> bool {
    if map.province(f).kind != ProvinceKind::Sea || !is_fleet(f) {
        return false;
    }
    // The common case, and no search: f alone borders both ends (the route `f`).
    if convoy_adjacent(map, from, f) && convoy_adjacent(map, f, to) {
        return true;
    }
    with_route_scratch(|scratch| scratch.on_some_route(map, from, to, f, is_fleet))
}

/// [`fleet_on_some_route`] for one army at `from` and several destinations: calls `found` with
/// each destination of `tos` for which fleet `f` is on some route. f's component is searched
/// once for them all (the move menus ask this of every fleet and army).
pub fn fleet_on_some_route_to_each(
    map: &Map,
    from: ProvinceId,
    tos: &[ProvinceId],
    f: ProvinceId,
    is_fleet: &dyn Fn(ProvinceId) -> bool,
    found: &mut dyn FnMut(ProvinceId),
) {
    if tos.is_empty() || map.province(f).kind != ProvinceKind::Sea || !is_fleet(f) {
        return;
    }
    let each = |scratch: &mut RouteScratch| {
        let near_from = convoy_adjacent(map, from, f);
        let mut ready = false;
        for &to in tos {
            // The single-fleet route needs no search.
            let on = if near_from && convoy_adjacent(map, f, to) {
                true
            } else {
                if !ready {
                    scratch.set_up(map, from, f, is_fleet);
                    ready = true;
                }
                scratch.reaches_to(map, to)
            };
            if on {
                found(to);
            }
        }
    };
    with_route_scratch(each);
}

/// `f` with this thread's route buffers (a fresh set when they are in use: a call made again
/// from inside `is_fleet`).
fn with_route_scratch<R>(f: impl FnOnce(&mut RouteScratch) -> R) -> R {
    ROUTE_SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut RouteScratch::default()),
    })
}

thread_local! {
    /// The buffers of [`fleet_on_some_route`], kept between calls: the move menus and the
    /// legality of convoy orders ask it many times per position.
    static ROUTE_SCRATCH: std::cell::RefCell<RouteScratch> =
        std::cell::RefCell::new(RouteScratch::default());
}

/// [`fleet_on_some_route`]'s buffers: f's component of fleet-holding seas and its adjacency.
#[derive(Default)]
struct RouteScratch {
    /// Per province of the map, its number in the component plus one (0: not in it); only the
    /// component's entries are set, and they are cleared after each call.
    index: Vec<u32>,
    /// The component's seas (f first).
    comp: Vec<ProvinceId>,
    /// The component's adjacency, flat: sea i's neighbours are `adj[off[i]..off[i + 1]]`.
    adj: Vec<usize>,
    off: Vec<usize>,
    by_from: Vec<bool>,
    by_to: Vec<bool>,
    blocked: Vec<u32>,
    seen: Vec<bool>,
    queue: Vec<usize>,
    path: Vec<usize>,
    next: Vec<usize>,
}

impl RouteScratch {
    fn on_some_route(
        &mut self,
        map: &Map,
        from: ProvinceId,
        to: ProvinceId,
        f: ProvinceId,
        is_fleet: &dyn Fn(ProvinceId) -> bool,
    ) -> bool {
        self.set_up(map, from, f, is_fleet);
        self.reaches_to(map, to)
    }

    /// Numbers f's component of fleet-holding seas, its adjacency, and the seas `from` borders.
    fn set_up(
        &mut self,
        map: &Map,
        from: ProvinceId,
        f: ProvinceId,
        is_fleet: &dyn Fn(ProvinceId) -> bool,
    ) {
        if self.index.len() < map.province_count() {
            self.index.resize(map.province_count(), 0);
        }
        // 1. f's component of fleet-holding seas, numbered from 0 (f itself).
        self.comp.clear();
        self.comp.push(f);
        self.index[f.0 as usize] = 1;
        let mut at = 0;
        while at < self.comp.len() {
            let p = self.comp[at];
            at += 1;
            for q in sea_neighbours(map, p) {
                if self.index[q.0 as usize] == 0 && is_fleet(q) {
                    self.comp.push(q);
                    self.index[q.0 as usize] = self.comp.len() as u32;
                }
            }
        }
        let k = self.comp.len();
        self.adj.clear();
        self.off.clear();
        self.off.push(0);
        for (i, &p) in self.comp.iter().enumerate() {
            let first = self.adj.len();
            for q in sea_neighbours(map, p) {
                let j = self.index[q.0 as usize] as usize;
                if j != 0 && j - 1 != i && !self.adj[first..].contains(&(j - 1)) {
                    self.adj.push(j - 1);
                }
            }
            self.off.push(self.adj.len());
        }
        // The seas `from` borders (`convoy_adjacent(from, p)`), from `from`'s own lists: its
        // army borders and its locations' fleet borders, marked by the component's numbers.
        self.by_from.clear();
        self.by_from.resize(k, false);
        for &q in map.army_neighbours(from) {
            if let Some(j) = self.index[q.0 as usize].checked_sub(1) {
                self.by_from[j as usize] = true;
            }
        }
        for l in map.locations_of(from) {
            for &n in map.fleet_neighbours(l) {
                if let Some(j) = self.index[map.province_of(n).0 as usize].checked_sub(1) {
                    self.by_from[j as usize] = true;
                }
            }
        }
        for &p in &self.comp {
            self.index[p.0 as usize] = 0;
        }
    }

    /// After [`RouteScratch::set_up`]: whether f is on some route from `from` to `to`.
    fn reaches_to(&mut self, map: &Map, to: ProvinceId) -> bool {
        let k = self.comp.len();
        self.by_to.clear();
        self.by_to
            .extend(self.comp.iter().map(|&p| convoy_adjacent(map, p, to)));
        if !self.by_from.contains(&true) || !self.by_to.contains(&true) {
            return false;
        }
        self.blocked.clear();
        self.blocked.resize(k, 0);
        self.seen.clear();
        self.seen.resize(k, false);
        self.queue.clear();
        self.path.clear();
        self.next.clear();
        RouteSearch {
            adj: &self.adj,
            off: &self.off,
            by_from: &self.by_from,
            by_to: &self.by_to,
            blocked: &mut self.blocked,
            seen: &mut self.seen,
            queue: &mut self.queue,
            path: &mut self.path,
            next: &mut self.next,
        }
        .run()
    }
}

/// The search of [`fleet_on_some_route`] over f's component (f is sea 0).
struct RouteSearch<'a> {
    adj: &'a [usize],
    off: &'a [usize],
    by_from: &'a [bool],
    by_to: &'a [bool],
    /// Per sea, how many seas of the route before its last border it or are it: a sea with a
    /// count above zero cannot come next (it would be a chord, or a repeat).
    blocked: &'a mut [u32],
    seen: &'a mut [bool],
    queue: &'a mut Vec<usize>,
    /// The route being grown, and for each of its seas the next neighbour to try.
    path: &'a mut Vec<usize>,
    next: &'a mut Vec<usize>,
}

impl RouteSearch<'_> {
    /// Sea `v`'s neighbours in the component.
    fn adj(&self, v: usize) -> &[usize] {
        &self.adj[self.off[v]..self.off[v + 1]]
    }

    /// Blocks (or unblocks) sea `v` and its neighbours.
    fn mark(&mut self, v: usize, up: bool) {
        let step = |c: &mut u32| {
            if up { *c += 1 } else { *c -= 1 }
        };
        step(&mut self.blocked[v]);
        for k in self.off[v]..self.off[v + 1] {
            let w = self.adj[k];
            step(&mut self.blocked[w]);
        }
    }

    /// Breadth-first search from `start` through open seas (not blocked, not bordering `from`
    /// unless it is `start`), passing through no sea that borders `to` (such a sea ends a route):
    /// whether it reaches a sea for which `goal` holds.
    fn reaches(&mut self, start: usize, goal: &dyn Fn(usize) -> bool) -> bool {
        self.seen.iter_mut().for_each(|s| *s = false);
        self.queue.clear();
        self.queue.push(start);
        self.seen[start] = true;
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            if goal(v) {
                return true;
            }
            if self.by_to[v] && v != start {
                continue;
            }
            for k in self.off[v]..self.off[v + 1] {
                let w = self.adj[k];
                if !self.seen[w] && self.blocked[w] == 0 && !self.by_from[w] {
                    self.seen[w] = true;
                    self.queue.push(w);
                }
            }
        }
        false
    }

    /// Whether the route whose last sea is f (the rest marked in `blocked`) can be finished.
    fn finish_from_f(&mut self) -> bool {
        if self.by_to[0] {
            return true;
        }
        let by_to = self.by_to;
        self.reaches(0, &|v| v != 0 && by_to[v])
    }

    fn run(&mut self) -> bool {
        // Routes that start at f.
        if self.by_from[0] && self.finish_from_f() {
            return true;
        }
        // Routes grown from each sea bordering `from` (not f, not bordering `to`) up to f.
        // The route is `path`; `next[i]` the next neighbour of path[i] to try. Every sea of the
        // route but the last is marked in `blocked`.
        for s in 1..self.by_from.len() {
            if !self.by_from[s] || self.by_to[s] {
                continue;
            }
            self.path.push(s);
            self.next.push(0);
            while let Some(&top) = self.path.last() {
                let d = self.path.len() - 1;
                let i = self.next[d];
                if i == 0 && !self.can_reach_f_then_to(top) {
                    self.next[d] = usize::MAX;
                }
                let i = self.next[d];
                if i >= self.adj(top).len() {
                    self.path.pop();
                    self.next.pop();
                    if let Some(&below) = self.path.last() {
                        self.mark(below, false);
                    }
                    continue;
                }
                self.next[d] += 1;
                let w = self.adj(top)[i];
                // Chordless: w borders no earlier sea of the route (nor is one), nor `from`.
                if self.blocked[w] > 0 || self.by_from[w] || self.path.contains(&w) {
                    continue;
                }
                self.mark(top, true);
                if w == 0 {
                    let done = self.finish_from_f();
                    self.mark(top, false);
                    if done {
                        return true;
                    }
                    continue;
                }
                if self.by_to[w] {
                    // The route would end at w, without f.
                    self.mark(top, false);
                    continue;
                }
                self.path.push(w);
                self.next.push(0);
            }
        }
        false
    }

    /// With the route up to `top` (earlier seas marked), whether f is still reachable from `top`
    /// through open seas and `to` from f: a necessary condition for finishing through f, which
    /// prunes routes that cannot.
    fn can_reach_f_then_to(&mut self, top: usize) -> bool {
        if !self.reaches(top, &|v| v == 0) {
            return false;
        }
        if self.by_to[0] {
            return true;
        }
        let by_to = self.by_to;
        self.reaches(0, &|v| v != 0 && by_to[v])
    }
}

struct Ctx<'a> {
    map: &'a Map,
    units: &'a [Unit],
    occ: &'a [Option<usize>],
    rules: &'a Rules,
}

impl Ctx<'_> {
    fn unit_at(&self, p: ProvinceId) -> Option<usize> {
        self.occ[p.0 as usize]
    }

    /// Whether a fleet that could convoy is at sea in `p`: a power's fleet (a neutral fleet
    /// cannot be ordered, so no convoy route passes through it).
    fn has_fleet_at_sea(&self, p: ProvinceId) -> bool {
        self.unit_at(p).is_some_and(|u| {
            self.units[u].kind == UnitKind::Fleet && !self.units[u].power.is_neutral()
        }) && self.map.province(p).kind == ProvinceKind::Sea
    }

    /// Resolves the coast written for a fleet's destination. Ok(loc) or the illegal reason.
    fn fleet_dest(&self, from: LocId, dest: &LocSpec) -> Result<LocId, IllegalReason> {
        let map = self.map;
        let prov = map.province(dest.province);
        let reachable = || {
            map.fleet_neighbours(from)
                .iter()
                .copied()
                .filter(|l| map.province_of(*l) == dest.province)
        };
        let only = {
            let mut r = reachable();
            match (r.next(), r.next()) {
                (Some(l), None) => Some(l),
                _ => None,
            }
        };
        if reachable().next().is_none() {
            return Err(IllegalReason::NotAdjacent);
        }
        if !prov.is_multi_coast() {
            if dest.coast.is_some() && self.rules.irrelevant_coast == CoastGarbage::Fail {
                return Err(IllegalReason::IrrelevantCoast);
            }
            return Ok(prov.main);
        }
        let written = match dest.coast {
            Some(c) if prov.coast(c).is_none() => {
                if self.rules.irrelevant_coast == CoastGarbage::Fail {
                    return Err(IllegalReason::IrrelevantCoast);
                }
                None
            }
            other => other,
        };
        // `written` is a coast of this province (others became `None` above).
        match written.and_then(|c| prov.coast(c)) {
            Some(l) => {
                if reachable().any(|r| r == l) {
                    Ok(l)
                } else if let Some(only) = only
                    && self.rules.impossible_coast == ImpossibleCoast::Ignore
                {
                    Ok(only)
                } else {
                    Err(IllegalReason::ImpossibleCoast)
                }
            }
            None => {
                if let Some(only) = only
                    && self.rules.one_coast_omitted == OneCoastOmitted::Infer
                {
                    Ok(only)
                } else {
                    Err(IllegalReason::CoastNotSpecified)
                }
            }
        }
    }

    /// Checks the ordered unit against the order's unit spec; returns the unit index.
    fn ordered_unit(&self, power: PowerId, o: &Order) -> Result<usize, IllegalReason> {
        let spec = o.unit.as_ref().ok_or(IllegalReason::WrongPhase)?;
        let u = self
            .unit_at(spec.loc.province)
            .ok_or(IllegalReason::NoUnit)?;
        let unit = &self.units[u];
        if unit.power.is_neutral() {
            return Err(IllegalReason::NeutralUnit);
        }
        if unit.power != power {
            return Err(IllegalReason::ForeignUnit(unit.power));
        }
        match spec.kind {
            None if self.rules.missing_unit_type == Designation::Invalid => {
                return Err(IllegalReason::MissingUnitType);
            }
            Some(k) if k != unit.kind && self.rules.wrong_unit_type == Designation::Invalid => {
                return Err(IllegalReason::WrongUnitType);
            }
            _ => {}
        }
        if let Some(c) = spec.loc.coast {
            let prov = self.map.province(spec.loc.province);
            let actual = self.map.location(unit.loc).coast;
            let relevant = unit.kind == UnitKind::Fleet && prov.coast(c).is_some();
            if relevant && actual != Some(c) && self.rules.wrong_unit_coast == CoastGarbage::Fail {
                return Err(IllegalReason::WrongUnitCoast);
            }
            if !relevant && self.rules.irrelevant_coast == CoastGarbage::Fail {
                return Err(IllegalReason::IrrelevantCoast);
            }
        }
        Ok(u)
    }

    /// Whether an army could move from `from` to `to`, over land or by a convoy through fleets
    /// other than the one in `without` (a fleet cannot convoy and support at once: 6.D.31).
    fn army_move_possible(
        &self,
        from: ProvinceId,
        to: ProvinceId,
        without: Option<ProvinceId>,
    ) -> bool {
        self.map.army_adjacent(from, to)
            || convoy_chain_exists(self.map, from, to, &|p| {
                Some(p) != without && self.has_fleet_at_sea(p)
            })
    }

    /// Whether unit `t` could ever move to `dest` while the unit in `supporter` supports it (for
    /// support legality).
    fn move_possible(&self, t: usize, dest: &LocSpec, supporter: ProvinceId) -> bool {
        let unit = &self.units[t];
        let tp = self.map.province_of(unit.loc);
        if tp == dest.province {
            return false;
        }
        match unit.kind {
            UnitKind::Army => {
                self.map.province(dest.province).kind != ProvinceKind::Sea
                    && self.army_move_possible(tp, dest.province, Some(supporter))
            }
            UnitKind::Fleet => match dest.coast {
                Some(c) => match self.map.province(dest.province).coast(c) {
                    Some(l) => self.map.fleet_adjacent(unit.loc, l),
                    None => self.map.fleet_reaches_province(unit.loc, dest.province),
                },
                None => self.map.fleet_reaches_province(unit.loc, dest.province),
            },
        }
    }

    fn classify(&self, power: PowerId, o: &Order) -> Result<(usize, UnitOrder), IllegalReason> {
        if matches!(
            o.kind,
            OrderKind::Build | OrderKind::Remove | OrderKind::Waive | OrderKind::Disband
        ) {
            return Err(IllegalReason::WrongPhase);
        }
        let u = self.ordered_unit(power, o)?;
        let unit = self.units[u];
        let here = self.map.province_of(unit.loc);
        let map = self.map;
        let uo = match &o.kind {
            OrderKind::Hold => UnitOrder::Hold,
            OrderKind::Move {
                dest,
                via_convoy,
                path,
            } => {
                if dest.province == here {
                    return Err(IllegalReason::MoveToOwnProvince);
                }
                let dprov = map.province(dest.province);
                match unit.kind {
                    UnitKind::Fleet => {
                        if dprov.kind == ProvinceKind::Land {
                            return Err(IllegalReason::FleetInland);
                        }
                        let dest_loc = self.fleet_dest(unit.loc, dest)?;
                        UnitOrder::Move {
                            dest: dest.province,
                            dest_loc,
                            route: Route::Land,
                            path: None,
                        }
                    }
                    UnitKind::Army => {
                        if dprov.kind == ProvinceKind::Sea {
                            return Err(IllegalReason::ArmyToSea);
                        }
                        if dest.coast.is_some() && self.rules.irrelevant_coast == CoastGarbage::Fail
                        {
                            return Err(IllegalReason::IrrelevantCoast);
                        }
                        let adjacent = map.army_adjacent(here, dest.province);
                        // The convoy search only matters when the land route is not enough.
                        let convoyable = (!adjacent || *via_convoy)
                            && convoy_chain_exists(map, here, dest.province, &|p| {
                                self.has_fleet_at_sea(p)
                            });
                        if !adjacent && !convoyable {
                            return Err(IllegalReason::NotAdjacent);
                        }
                        if *via_convoy
                            && !convoyable
                            && self.rules.adjacent_convoy_fallback == ConvoyFallback::PythonPackage
                        {
                            return Err(IllegalReason::ViaConvoyNoRoute);
                        }
                        let written_path = match self.rules.path_specification {
                            PathSpecification::Ignored => None,
                            _ if path.is_empty() => None,
                            _ => Some(path.clone()),
                        };
                        let route = if !adjacent {
                            Route::Convoy
                        } else if *via_convoy && convoyable {
                            // Intent and DPTG honour an explicit `via convoy`; 1971 decides later.
                            Route::Convoy
                        } else {
                            Route::Land
                        };
                        if route == Route::Convoy
                            && self.rules.path_specification == PathSpecification::Required
                            && path.is_empty()
                        {
                            return Err(IllegalReason::PathRequired);
                        }
                        UnitOrder::Move {
                            dest: dest.province,
                            dest_loc: dprov.main,
                            route,
                            path: written_path,
                        }
                    }
                }
            }
            OrderKind::Support { target, dest } => {
                let t = self
                    .unit_at(target.unit.loc.province)
                    .ok_or(IllegalReason::NoSuchUnit)?;
                if t == u {
                    return Err(IllegalReason::SupportSelf);
                }
                match dest {
                    None => {
                        if !map.can_reach(unit.kind, unit.loc, target.unit.loc.province) {
                            return Err(IllegalReason::SupportUnreachable);
                        }
                        UnitOrder::Support {
                            target: t,
                            dest: None,
                            void: self.designation_void(target, t, power),
                        }
                    }
                    Some(d) => {
                        if d.province == here {
                            return Err(IllegalReason::SupportOwnArea);
                        }
                        if !map.can_reach(unit.kind, unit.loc, d.province) {
                            return Err(IllegalReason::SupportUnreachable);
                        }
                        if !self.move_possible(t, d, here) {
                            return Err(IllegalReason::SupportImpossibleMove);
                        }
                        let tunit = &self.units[t];
                        let dprov = map.province(d.province);
                        if tunit.kind == UnitKind::Fleet
                            && dprov.is_multi_coast()
                            && d.coast.is_none()
                        {
                            match self.rules.support_coast {
                                SupportCoast::OmitAllowed => {}
                                SupportCoast::OmitOwnOnly if tunit.power == power => {}
                                _ => return Err(IllegalReason::SupportCoastMissing),
                            }
                        }
                        UnitOrder::Support {
                            target: t,
                            dest: Some(d.province),
                            void: self.designation_void(target, t, power),
                        }
                    }
                }
            }
            OrderKind::Convoy { army, dest } => {
                if unit.kind != UnitKind::Fleet || map.province(here).kind != ProvinceKind::Sea {
                    return Err(IllegalReason::ConvoyNotAtSea);
                }
                let a = self
                    .unit_at(army.unit.loc.province)
                    .ok_or(IllegalReason::NoSuchUnit)?;
                if self.units[a].kind != UnitKind::Army {
                    return Err(IllegalReason::ConvoyNotArmy);
                }
                let from = map.province_of(self.units[a].loc);
                if from == dest.province {
                    return Err(IllegalReason::ConvoyToOwnProvince);
                }
                if map.province(dest.province).kind != ProvinceKind::Coast {
                    return Err(IllegalReason::ConvoyNotOnRoute);
                }
                if !fleet_on_some_route(map, from, dest.province, here, &|p| {
                    self.has_fleet_at_sea(p)
                }) {
                    return Err(IllegalReason::ConvoyNotOnRoute);
                }
                UnitOrder::Convoy {
                    army: a,
                    dest: dest.province,
                    void: self.designation_void(army, a, power),
                }
            }
            OrderKind::Disband | OrderKind::Build | OrderKind::Remove | OrderKind::Waive => {
                return Err(IllegalReason::WrongPhase);
            }
        };
        Ok((u, uo))
    }

    /// Nationality and unit-letter checks on a supported or convoyed unit (4.C.2, 4.C.5, 4.C.6).
    fn designation_void(&self, r: &UnitRef, t: usize, ordering: PowerId) -> Option<VoidReason> {
        let unit = &self.units[t];
        match r.power {
            // The nationality is only required of foreign units.
            None if unit.power != ordering
                && self.rules.missing_nationality == Designation::Invalid =>
            {
                return Some(VoidReason::Nationality);
            }
            Some(p) if p != unit.power && self.rules.wrong_nationality == Designation::Invalid => {
                return Some(VoidReason::Nationality);
            }
            _ => {}
        }
        if let Some(k) = r.unit.kind
            && k != unit.kind
            && self.rules.wrong_unit_type == Designation::Invalid
        {
            return Some(VoidReason::UnitType);
        }
        None
    }
}

/// Whether the written designation of an order is imperfect (for the "valid unless another order"
/// choices of 4.C.1, 4.C.2, 4.C.5, 4.C.6).
fn imperfect(units: &[Unit], o: &Order, u: usize, rules: &Rules, occ: &[Option<usize>]) -> bool {
    let unit = &units[u];
    let spec = match &o.unit {
        Some(s) => s,
        None => return false,
    };
    let letter_bad = match spec.kind {
        None => rules.missing_unit_type == Designation::ValidUnlessOther,
        Some(k) => k != unit.kind && rules.wrong_unit_type == Designation::ValidUnlessOther,
    };
    let nat_bad = |r: &UnitRef| {
        let Some(t) = occ[r.unit.loc.province.0 as usize] else {
            return false;
        };
        match r.power {
            None => {
                rules.missing_nationality == Designation::ValidUnlessOther
                    && units[t].power != unit.power
            }
            Some(p) => {
                p != units[t].power && rules.wrong_nationality == Designation::ValidUnlessOther
            }
        }
    };
    letter_bad
        || match &o.kind {
            OrderKind::Support { target, .. } => nat_bad(target),
            OrderKind::Convoy { army, .. } => nat_bad(army),
            _ => false,
        }
}

/// The rule options that the legality step ([`prepare`]) reads to class the orders (DATC 4.A.3
/// and 4.A.6, 4.B, 4.C.1, 4.C.2, 4.C.5, 4.C.6, 4.D.3, 4.E.1): an engine that reads them only
/// through that classing ([`crate::engine::OptionUse::Classing`]) gives the same result under
/// two rule sets that differ in them when its orders are classed alike.
pub const CLASSING_OPTIONS: [&str; 14] = [
    "adjacent_convoy",
    "adjacent_convoy_fallback",
    "path_specification",
    "one_coast_omitted",
    "impossible_coast",
    "support_coast",
    "wrong_unit_coast",
    "irrelevant_coast",
    "missing_unit_type",
    "wrong_unit_type",
    "missing_nationality",
    "wrong_nationality",
    "multiple_orders",
    "illegal_orders",
];

/// Classes every order of a movement phase and matches supports and convoys.
pub fn prepare<O: Submitted>(map: &Map, units: &[Unit], orders: &[O], rules: &Rules) -> Prepared {
    let mut occ = Vec::new();
    occupancy_into(map, units, &mut occ);
    let mut out = Prepared {
        orders: Vec::new(),
        status: Vec::new(),
        source: Vec::new(),
    };
    prepare_into(
        map,
        units,
        orders,
        rules,
        &occ,
        &mut out,
        &mut PrepareScratch::default(),
    );
    out
}

/// Buffers [`prepare_into`] reuses between calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct PrepareScratch {
    /// Per submitted order, its classed order (taken when applied).
    classed: Vec<Option<UnitOrder>>,
    /// Per unit, its first submitted order; per submitted order, the unit's next one.
    first: Vec<u32>,
    next: Vec<u32>,
    /// Valid convoy orders per army, (fleet, destination), in one buffer.
    convoy_off: Vec<u32>,
    convoys: Vec<(usize, ProvinceId)>,
    /// New routes of moves to adjacent provinces.
    routes: Vec<Option<Route>>,
    failed_mover: Vec<bool>,
}

const NO_ORDER: u32 = u32::MAX;

/// [`prepare`] into `out`, reusing its buffers and `scratch`'s; `occ` is the position's
/// occupancy ([`occupancy_into`]).
///
/// In steps, each deciding one thing: every order's class on its own ([`classify_orders`]);
/// which order applies to each unit when it has several (4.C.x, [`apply_orders`]); the route of
/// each army's move to a neighbour (4.A.3, [`set_adjacent_routes`]); which units keep an
/// illegal move as their order (4.E.1, [`mark_failed_movers`]); and whether each support and
/// convoy matches the order of the unit it helps ([`match_supports_and_convoys`]).
pub(crate) fn prepare_into<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    occ: &[Option<usize>],
    out: &mut Prepared,
    scratch: &mut PrepareScratch,
) {
    let ctx = Ctx {
        map,
        units,
        occ,
        rules,
    };
    classify_orders(&ctx, orders, &mut out.status, &mut scratch.classed);
    apply_orders(&ctx, orders, out, scratch);
    set_adjacent_routes(&ctx, orders, out, scratch);
    mark_failed_movers(&ctx, orders, out, &mut scratch.failed_mover);
    match_supports_and_convoys(map, orders, out, &scratch.failed_mover);
}

/// Each submitted order's class on its own: the unit it applies to and its classed order, or
/// why it is illegal (into `status` and `classed`, one slot per submitted order).
fn classify_orders<O: Submitted>(
    ctx: &Ctx<'_>,
    orders: &[O],
    status: &mut Vec<OrderStatus>,
    classed: &mut Vec<Option<UnitOrder>>,
) {
    status.clear();
    classed.clear();
    for e in orders {
        match ctx.classify(e.power(), e.order()) {
            Ok((u, uo)) => {
                classed.push(Some(uo));
                status.push(OrderStatus::Applied(u));
            }
            Err(r) => {
                classed.push(None);
                status.push(OrderStatus::Illegal(r));
            }
        }
    }
}

/// The order that applies to each unit (`out.orders`, `out.source`; a unit without one holds):
/// its one applied order, or, among several, the one the 4.C.x and multiple-order rules choose
/// ([`choose_among`]).
fn apply_orders<O: Submitted>(
    ctx: &Ctx<'_>,
    orders: &[O],
    out: &mut Prepared,
    scratch: &mut PrepareScratch,
) {
    let n = ctx.units.len();
    let status = &out.status;
    let classed = &mut scratch.classed;
    let (first, next) = (&mut scratch.first, &mut scratch.next);
    first.clear();
    first.resize(n, NO_ORDER);
    next.clear();
    next.resize(orders.len(), NO_ORDER);
    // Each unit's orders, linked in submission order (built back to front).
    for i in (0..orders.len()).rev() {
        if let OrderStatus::Applied(u) = status[i] {
            next[i] = first[u];
            first[u] = i as u32;
        }
    }
    out.orders.clear();
    out.orders.resize(n, UnitOrder::Hold);
    out.source.clear();
    out.source.resize(n, None);
    for (u, &head) in first.iter().enumerate() {
        if head == NO_ORDER {
            continue;
        }
        if next[head as usize] == NO_ORDER {
            // One order: it applies.
            let i = head as usize;
            out.orders[u] = classed[i].take().unwrap_or(UnitOrder::Hold);
            out.source[u] = Some(i);
            continue;
        }
        let mut list: Vec<(usize, UnitOrder)> = Vec::new();
        let mut at = head;
        while at != NO_ORDER {
            let i = at as usize;
            list.push((i, classed[i].take().unwrap_or(UnitOrder::Hold)));
            at = next[i];
        }
        choose_among(ctx, orders, u, &list, out);
    }
}

/// Of unit `u`'s several orders (`list`: submitted index and classed order, in submission
/// order), the one that applies, into `out.orders[u]` and `out.source[u]`; the others are
/// marked superseded, or all are marked as several orders when the rules let none apply.
fn choose_among<O: Submitted>(
    ctx: &Ctx<'_>,
    orders: &[O],
    u: usize,
    list: &[(usize, UnitOrder)],
    out: &mut Prepared,
) {
    // Orders identical as written (but for a `Power:` prefix) count once: each order's
    // class is the first of its kind in the list (hashed, so thousands of orders to one
    // unit cost time linear in their number).
    let bare = |i: usize| Order {
        power: None,
        ..orders[i].order().clone()
    };
    let mut first_of: std::collections::HashMap<Order, usize> =
        std::collections::HashMap::with_capacity(list.len());
    let mut class: Vec<usize> = Vec::with_capacity(list.len());
    let mut distinct: Vec<usize> = Vec::new();
    for (k, (i, _)) in list.iter().enumerate() {
        let c = *first_of.entry(bare(*i)).or_insert_with(|| {
            distinct.push(k);
            k
        });
        class.push(c);
    }
    // 4.C.x choice c: an imperfectly designated order yields to a perfect one.
    if distinct.len() > 1 {
        let perfect: Vec<usize> = distinct
            .iter()
            .copied()
            .filter(|&k| !imperfect(ctx.units, orders[list[k].0].order(), u, ctx.rules, ctx.occ))
            .collect();
        // The imperfect orders are then not chosen, and are marked with every other copy
        // of their text below: superseded when another order counts, several orders when
        // none does (marking only the first copy here made the reason of each copy depend
        // on the order the orders were listed in; found by a fuzz target).
        if !perfect.is_empty() && perfect.len() < distinct.len() {
            distinct = perfect;
        }
    }
    let chosen = if distinct.len() == 1 {
        Some(distinct[0])
    } else {
        match ctx.rules.multiple_orders {
            MultipleOrders::First => Some(distinct[0]),
            MultipleOrders::Last => distinct.last().copied(),
            MultipleOrders::Hold => None,
        }
    };
    let status = &mut out.status;
    for (k, (i, _)) in list.iter().enumerate() {
        let same_as_chosen = chosen.is_some_and(|c| class[k] == class[c]);
        if matches!(status[*i], OrderStatus::Illegal(_)) {
            continue;
        }
        if chosen.is_none() {
            status[*i] = OrderStatus::Illegal(IllegalReason::MultipleOrders);
        } else if !same_as_chosen {
            status[*i] = OrderStatus::Illegal(IllegalReason::Superseded);
        } else if Some(k) == chosen {
            out.orders[u] = list[k].1.clone();
            out.source[u] = Some(*i);
        }
    }
}

/// The valid convoy orders given to each army: (fleet, destination), in fleet order.
struct ConvoysByArmy<'s> {
    off: &'s [u32],
    list: &'s [(usize, ProvinceId)],
}

impl<'s> ConvoysByArmy<'s> {
    /// The index of `eff`'s valid convoy orders, built in `off` and `list`.
    fn build(
        eff: &[UnitOrder],
        off: &'s mut Vec<u32>,
        list: &'s mut Vec<(usize, ProvinceId)>,
    ) -> Self {
        let n = eff.len();
        off.clear();
        off.resize(n + 1, 0);
        for o in eff {
            if let UnitOrder::Convoy {
                army, void: None, ..
            } = o
            {
                off[*army + 1] += 1;
            }
        }
        for k in 0..n {
            off[k + 1] += off[k];
        }
        list.clear();
        list.resize(off[n] as usize, (0, ProvinceId(0)));
        // Filled in fleet order, as the lists were pushed before.
        let mut fill: Vec<u32> = Vec::new();
        if !list.is_empty() {
            fill.extend_from_slice(&off[..n]);
        }
        for (f, o) in eff.iter().enumerate() {
            if let UnitOrder::Convoy {
                army,
                dest,
                void: None,
            } = o
            {
                list[fill[*army] as usize] = (f, *dest);
                fill[*army] += 1;
            }
        }
        ConvoysByArmy { off, list }
    }

    /// The convoys given to army `u`.
    fn of(&self, u: usize) -> &'s [(usize, ProvinceId)] {
        &self.list[self.off[u] as usize..self.off[u + 1] as usize]
    }
}

/// 4.A.3: the route of each army's move to a neighbouring province (over land, by convoy, or by
/// convoy with the land route to fall back on), set in `out.orders`. New routes are worked out
/// first ([`adjacent_route`]) and set after, so that every decision reads the orders as classed
/// (only routes change here, and no decision reads another's route).
fn set_adjacent_routes<O: Submitted>(
    ctx: &Ctx<'_>,
    orders: &[O],
    out: &mut Prepared,
    scratch: &mut PrepareScratch,
) {
    let n = ctx.units.len();
    let eff = &out.orders;
    let convoys = ConvoysByArmy::build(eff, &mut scratch.convoy_off, &mut scratch.convoys);
    let routes = &mut scratch.routes;
    routes.clear();
    routes.resize(n, None);
    for u in 0..n {
        let UnitOrder::Move { dest, .. } = &eff[u] else {
            continue;
        };
        let here = ctx.map.province_of(ctx.units[u].loc);
        if ctx.units[u].kind != UnitKind::Army || !ctx.map.army_adjacent(here, *dest) {
            continue;
        }
        let via = out.source[u].is_some_and(|i| {
            matches!(
                orders[i].order().kind,
                OrderKind::Move {
                    via_convoy: true,
                    ..
                }
            )
        });
        routes[u] = Some(adjacent_route(ctx, eff, &convoys, u, *dest, via));
    }
    for (o, r) in out.orders.iter_mut().zip(routes.iter()) {
        if let (UnitOrder::Move { route, .. }, Some(r)) = (o, r) {
            *route = *r;
        }
    }
}

/// The route of army `u`'s move to the neighbouring province `d` (written `via convoy` when
/// `via`), under the rules' 4.A.3 choice and its fallback to the land route.
fn adjacent_route(
    ctx: &Ctx<'_>,
    eff: &[UnitOrder],
    convoys: &ConvoysByArmy<'_>,
    u: usize,
    d: ProvinceId,
    via: bool,
) -> Route {
    let (map, units) = (ctx.map, ctx.units);
    let here = map.province_of(units[u].loc);
    let own_convoy = || {
        convoys
            .of(u)
            .iter()
            .any(|&(f, fd)| fd == d && units[f].power == units[u].power)
    };
    let any_convoy = || convoys.of(u).iter().any(|&(_, fd)| fd == d);
    let new_route = match ctx.rules.adjacent_convoy {
        AdjacentConvoy::Intent => {
            if (via && any_convoy()) || own_convoy() {
                Route::Convoy
            } else if via {
                // `via convoy` with no convoy ordered at all: the convoy route has no path.
                Route::Convoy
            } else {
                Route::Land
            }
        }
        AdjacentConvoy::ViaConvoyOnly => {
            if via {
                Route::Convoy
            } else {
                Route::Land
            }
        }
        AdjacentConvoy::Rule1971 => {
            // Only when the unit at the destination moves the opposite way, and only while
            // the convoy is not disrupted.
            let opposite = ctx.unit_at(d).is_some_and(
                |t| matches!(&eff[t], UnitOrder::Move { dest: td, .. } if *td == here),
            );
            if opposite && any_convoy() {
                Route::ConvoyOrLand
            } else {
                Route::Land
            }
        }
    };
    // 4.A.3's fallback to the land route; DPjudge's reading keeps to the convoy when the land
    // attack would cut a support given to an attack on a fleet that convoys the army.
    let against_fleet = || {
        ctx.unit_at(d).is_some_and(|t| {
            matches!(&eff[t], UnitOrder::Support { dest: Some(p), .. }
            if convoys.of(u).iter().any(|&(f, fd)| {
                fd == d && map.province_of(units[f].loc) == *p
            }))
        })
    };
    let fallback = match ctx.rules.adjacent_convoy_fallback {
        ConvoyFallback::No => false,
        ConvoyFallback::Yes => true,
        ConvoyFallback::ExceptSupportAgainstFleet => !against_fleet(),
        // The Python package (game.py, `_resolve_moves` step 1A and `_check_disruptions`):
        // with no route of the fleets ordered to convoy the army, `via` is dropped and the
        // army moves by land; an army ordered `via convoy` never falls back from a route
        // it has; one convoyed by intent does, as DPjudge's reading.
        ConvoyFallback::PythonPackage => {
            if new_route == Route::Convoy {
                let ordered_route = convoy_chain_exists(map, here, d, &|p| {
                    convoys
                        .of(u)
                        .iter()
                        .any(|&(f, fd)| fd == d && map.province_of(units[f].loc) == p)
                });
                if !ordered_route {
                    return Route::Land;
                }
            }
            !via && !against_fleet()
        }
    };
    if new_route == Route::Convoy && fallback {
        Route::ConvoyOrLand
    } else {
        new_route
    }
}

/// 4.E.1 choice "Fail": an illegal move stays the unit's order and fails, so the unit is not
/// holding and cannot be supported in place. Marks, in `failed_mover`, each unit with no order
/// that applies and an illegal move that counts (not one for another's unit, the wrong phase,
/// or one of several orders).
fn mark_failed_movers<O: Submitted>(
    ctx: &Ctx<'_>,
    orders: &[O],
    out: &Prepared,
    failed_mover: &mut Vec<bool>,
) {
    failed_mover.clear();
    failed_mover.resize(ctx.units.len(), false);
    if ctx.rules.illegal_orders != IllegalOrders::Fail {
        return;
    }
    for (i, st) in out.status.iter().enumerate() {
        let OrderStatus::Illegal(reason) = st else {
            continue;
        };
        let counts = !matches!(
            reason,
            IllegalReason::NoUnit
                | IllegalReason::ForeignUnit(_)
                | IllegalReason::NeutralUnit
                | IllegalReason::WrongPhase
                | IllegalReason::MultipleOrders
                | IllegalReason::Superseded
        );
        if !counts || !matches!(orders[i].order().kind, OrderKind::Move { .. }) {
            continue;
        }
        if let Some(u) = orders[i]
            .order()
            .unit
            .and_then(|s| ctx.unit_at(s.loc.province))
            && out.source[u].is_none()
        {
            failed_mover[u] = true;
        }
    }
}

/// Matching of supports and convoys: each support or convoy that does not match the order of
/// the unit it helps is void, with the reason. A decision reads the supported or convoyed
/// unit's order, which this step never changes (it only sets `void` of supports and convoys),
/// so the orders are updated in place.
fn match_supports_and_convoys<O: Submitted>(
    map: &Map,
    orders: &[O],
    out: &mut Prepared,
    failed_mover: &[bool],
) {
    let (eff, source) = (&mut out.orders, &out.source);
    for u in 0..eff.len() {
        let void = match &eff[u] {
            UnitOrder::Support { target, dest, void } if void.is_none() => {
                let t = *target;
                match (&eff[t], dest) {
                    (UnitOrder::Move { .. }, None) => Some(VoidReason::SupportedUnitMoves),
                    (_, None) if failed_mover[t] => Some(VoidReason::SupportedUnitIllegalMove),
                    (_, None) => None,
                    (
                        UnitOrder::Move {
                            dest: td, dest_loc, ..
                        },
                        Some(d),
                    ) if td == d => {
                        // A written coast must match the move's coast.
                        let written = source[u].and_then(|i| match &orders[i].order().kind {
                            OrderKind::Support { dest: Some(ds), .. } => ds.coast,
                            _ => None,
                        });
                        let actual = map.location(*dest_loc).coast;
                        match (written, actual) {
                            (Some(w), Some(a)) if w != a => Some(VoidReason::CoastDoesNotMatch),
                            _ => None,
                        }
                    }
                    _ => Some(VoidReason::MoveDoesNotMatch),
                }
            }
            UnitOrder::Convoy { army, dest, void } if void.is_none() => match &eff[*army] {
                UnitOrder::Move {
                    dest: ad, route, ..
                } if ad == dest && *route != Route::Land => None,
                _ => Some(VoidReason::ConvoyDoesNotMatch),
            },
            _ => continue,
        };
        if let UnitOrder::Support { void: v, .. } | UnitOrder::Convoy { void: v, .. } = &mut eff[u]
        {
            *v = void;
        }
    }
}
