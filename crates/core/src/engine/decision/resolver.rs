//! The decision graph of DATC chapter 5 and its partial-information resolver.
//!
//! Every decision (MOVE, SUPPORT, DISLODGE, PATH, ATTACK / HOLD / PREVENT / DEFEND STRENGTH) is a
//! node with lower and upper bounds. The resolver tightens bounds from the bounds of a node's
//! inputs (the optimistic and pessimistic evaluations of DATC 5.E in one step) with a work list
//! until nothing changes. Whatever is still open then lies on, or behind, a dependency cycle: the
//! resolver finds a cycle that depends on nothing else still open (a sink strongly connected
//! component — the ancestor-of-the-whole-cycle condition of 5.E's `recursion_hits`), applies the
//! backup rule to it (circular movement, or the chosen convoy paradox rule) and propagates again.
//!
//! Nothing here recurses: the work list and the strongly-connected-component search use explicit
//! stacks, so a ring of thousands of units costs time linear in its size, not stack depth.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): decision ids index the
// decision graph's flat arrays (bounds, dependency offsets), unit indices the per-unit tables and
// province ids the occupancy table; every id is made here, below the length of the table it
// indexes, which is sized once per call from the same board (the unit count, the map's province
// count, the decisions pushed).
#![allow(clippy::indexing_slicing)]

use crate::model::board::Unit;
use crate::model::map::{Map, ProvinceId, ProvinceKind, UnitKind};
use crate::model::rules::{ConvoyedSelfAttack, DislodgedNoEffect, MultiRoute, Paradox, Rules};

use super::trace::{BackupRule, CycleKind, Event};
use crate::engine::backup;
use crate::engine::legality::{Route, UnitOrder};
use crate::engine::trace::Tracer;

/// The kind of a decision (DATC 5.A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// MOVE: moves / fails.
    Move,
    /// SUPPORT: given / cut.
    Support,
    /// DISLODGE: sustains / dislodged.
    Dislodge,
    /// PATH: path / no path (for a convoy route).
    Path,
    /// ATTACK STRENGTH.
    Attack,
    /// HOLD STRENGTH of the unit's province.
    Hold,
    /// PREVENT STRENGTH.
    Prevent,
    /// DEFEND STRENGTH.
    Defend,
}

impl NodeKind {
    /// Whether the decision is a yes/no one (as opposed to a strength).
    pub fn is_bool(self) -> bool {
        matches!(
            self,
            NodeKind::Move | NodeKind::Support | NodeKind::Dislodge | NodeKind::Path
        )
    }

    /// The short name, as the stepper shows it (`ATTACK` for ATTACK STRENGTH).
    pub fn short(self) -> &'static str {
        match self {
            NodeKind::Move => "MOVE",
            NodeKind::Support => "SUPPORT",
            NodeKind::Dislodge => "DISLODGE",
            NodeKind::Path => "PATH",
            NodeKind::Attack => "ATTACK",
            NodeKind::Hold => "HOLD",
            NodeKind::Prevent => "PREVENT",
            NodeKind::Defend => "DEFEND",
        }
    }

    /// The DATC's name of the decision kind.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Move => "MOVE",
            NodeKind::Support => "SUPPORT",
            NodeKind::Dislodge => "DISLODGE",
            NodeKind::Path => "PATH",
            NodeKind::Attack => "ATTACK STRENGTH",
            NodeKind::Hold => "HOLD STRENGTH",
            NodeKind::Prevent => "PREVENT STRENGTH",
            NodeKind::Defend => "DEFEND STRENGTH",
        }
    }
}

/// A decision: its kind and the unit it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// Kind of decision.
    pub kind: NodeKind,
    /// The unit (index into the position's units).
    pub unit: usize,
}

const NONE: u32 = u32::MAX;

/// A province that more than this many units move into is a *crowded* one: each of its MOVE
/// decisions reads the other movers' PREVENT STRENGTHs through ordered sets of their bounds
/// kept for the province, instead of through an edge to each, so that k units moving into one
/// province cost k log k, not k² (a MOVE is evaluated again when the greatest two bounds of a
/// set change). Up to it, every edge is in the graph as it always was.
pub const CROWD: usize = 8;

/// The PREVENT STRENGTH bounds of the units moving into a crowded province, ordered: each
/// entry is a bound and the mover's place in [`Board::movers_into`] (reversed, so that of the
/// movers with the greatest bound the first listed is the last entry).
#[derive(Clone, Debug, Default)]
struct Crowd {
    /// The movers, as [`Board::movers_into`] lists them.
    movers: Vec<u32>,
    hi: std::collections::BTreeSet<(i32, std::cmp::Reverse<u32>)>,
    lo: std::collections::BTreeSet<(i32, std::cmp::Reverse<u32>)>,
}

/// The greatest bound in `set` of a mover other than the one at place `pos`, and that mover's
/// place (the first listed among those with it); None when there is no other.
fn strongest_other(
    set: &std::collections::BTreeSet<(i32, std::cmp::Reverse<u32>)>,
    pos: u32,
) -> Option<(i32, u32)> {
    set.iter()
        .rev()
        .find(|(_, p)| p.0 != pos)
        .map(|&(v, p)| (v, p.0))
}

/// What the MOVE decisions of a crowd read from a set: its greatest bound and the next one
/// (equal when two movers share the greatest). The greatest bound of the others of any mover
/// is the one or the other, by the mover's own bound; when neither changes, no mover's does.
fn crowd_key(
    set: &std::collections::BTreeSet<(i32, std::cmp::Reverse<u32>)>,
) -> (Option<i32>, Option<i32>) {
    let mut top = set.iter().rev().map(|e| e.0);
    (top.next(), top.next())
}

/// Per-unit node ids.
#[derive(Clone, Copy, Debug)]
struct UnitNodes {
    mv: u32,
    attack: u32,
    prevent: u32,
    defend: u32,
    path: u32,
    support: u32,
    dislodge: u32,
    hold: u32,
}

/// The decision graph with its final values.
#[derive(Clone, Debug)]
pub struct Graph {
    /// All decisions.
    pub nodes: Vec<Node>,
    /// Dependencies of each decision (the decisions its equation reads), ascending. A MOVE
    /// into a province that more than [`CROWD`] units move into lists, of the other movers'
    /// PREVENT STRENGTHs, only the strongest (the first listed among equals): it reads the
    /// others through their greatest bounds, not one by one.
    pub deps: Vec<Vec<u32>>,
    /// Final lower bounds (equal to the upper bounds once resolved).
    pub lo: Vec<i32>,
    /// Final upper bounds.
    pub hi: Vec<i32>,
    /// Decisions that were part of a cycle handed to a backup rule.
    pub in_cycle: Vec<bool>,
    /// Decisions whose value a backup rule forced.
    pub forced: Vec<bool>,
    ids: Vec<UnitNodes>,
}

impl Graph {
    /// The value of a decision (its lower bound; equal to the upper once resolved).
    pub fn value(&self, id: u32) -> i32 {
        self.lo[id as usize]
    }

    /// Node id of a unit's decision of the given kind, if it has one.
    pub fn node_of(&self, unit: usize, kind: NodeKind) -> Option<u32> {
        node_of(&self.ids, unit, kind)
    }
}

/// A list per key in one buffer (compressed sparse rows): key `k`'s items are
/// `items[off[k]..off[k + 1]]`, in the order they were added.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lists {
    off: Vec<u32>,
    items: Vec<usize>,
    cursor: Vec<u32>,
}

impl Lists {
    /// Refills the lists for `keys` keys from `(key, item)` pairs, which `pairs` produces
    /// twice (once to count, once to place) in the same order.
    fn fill(&mut self, keys: usize, pairs: impl Fn(&mut dyn FnMut(usize, usize))) {
        self.off.clear();
        self.off.resize(keys + 1, 0);
        pairs(&mut |k, _| self.off[k + 1] += 1);
        for k in 0..keys {
            self.off[k + 1] += self.off[k];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.off[..keys]);
        self.items.clear();
        self.items.resize(self.off[keys] as usize, 0);
        pairs(&mut |k, item| {
            let at = self.cursor[k];
            self.items[at as usize] = item;
            self.cursor[k] = at + 1;
        });
    }

    fn get(&self, k: usize) -> &[usize] {
        &self.items[self.off[k] as usize..self.off[k + 1] as usize]
    }
}

/// The board's tables, kept between calls so that their buffers are reused.
#[derive(Clone, Debug, Default)]
pub(crate) struct BoardBuf {
    /// Unit at each province.
    pub occ: Vec<Option<usize>>,
    here: Vec<ProvinceId>,
    /// Valid supports of each unit's move.
    move_supporters: Lists,
    /// Valid hold supports of each unit.
    hold_supporters: Lists,
    /// Units moving into each destination, by the destination's slot (`slot`).
    movers_into: Lists,
    /// Per province of the largest map seen, its slot in `movers_into`, or `u32::MAX` when no
    /// unit moves there. Only the entries `dests` lists are set, and they are reset at the next
    /// fill: a phase costs its moves, not the map's size.
    slot: Vec<u32>,
    /// The provinces that have a slot, in slot order.
    dests: Vec<ProvinceId>,
    /// Each unit's destination and route, None when it does not move (read often: a dense
    /// copy of the orders' move fields).
    moves: Vec<Option<(ProvinceId, Route)>>,
    /// Valid convoying fleets of each army.
    convoy_fleets: Lists,
    /// The convoy-chain search's buffers ([`Board::chain`]), reused from call to call.
    chain: std::cell::RefCell<ChainScratch>,
}

/// The buffers of one convoy-chain search: which of the listed fleets are reached, and which
/// are still to be expanded (positions in the list).
#[derive(Clone, Debug, Default)]
struct ChainScratch {
    seen: Vec<bool>,
    stack: Vec<usize>,
}

impl BoardBuf {
    /// Fills the tables for a position (`occ` must already hold its occupancy).
    pub fn fill(&mut self, map: &Map, units: &[Unit], orders: &[UnitOrder]) {
        let n = units.len();
        self.here.clear();
        self.here
            .extend(units.iter().map(|u| map.province_of(u.loc)));
        self.move_supporters.fill(n, |add| {
            for (u, o) in orders.iter().enumerate() {
                if let UnitOrder::Support {
                    target,
                    dest: Some(_),
                    void: None,
                } = o
                {
                    add(*target, u);
                }
            }
        });
        self.hold_supporters.fill(n, |add| {
            for (u, o) in orders.iter().enumerate() {
                if let UnitOrder::Support {
                    target,
                    dest: None,
                    void: None,
                } = o
                {
                    add(*target, u);
                }
            }
        });
        self.moves.clear();
        self.moves.extend(orders.iter().map(|o| match o {
            UnitOrder::Move { dest, route, .. } => Some((*dest, *route)),
            _ => None,
        }));
        for p in self.dests.drain(..) {
            self.slot[p.0 as usize] = u32::MAX;
        }
        if self.slot.len() < map.province_count() {
            self.slot.resize(map.province_count(), u32::MAX);
        }
        for o in orders {
            if let UnitOrder::Move { dest, .. } = o
                && self.slot[dest.0 as usize] == u32::MAX
            {
                self.slot[dest.0 as usize] = self.dests.len() as u32;
                self.dests.push(*dest);
            }
        }
        let slot = &self.slot;
        self.movers_into.fill(self.dests.len(), |add| {
            for (u, o) in orders.iter().enumerate() {
                if let UnitOrder::Move { dest, .. } = o {
                    add(slot[dest.0 as usize] as usize, u);
                }
            }
        });
        self.convoy_fleets.fill(n, |add| {
            for (u, o) in orders.iter().enumerate() {
                if let UnitOrder::Convoy {
                    army, void: None, ..
                } = o
                {
                    add(*army, u);
                }
            }
        });
    }
}

/// Static facts the equations read.
pub(crate) struct Board<'a> {
    pub map: &'a Map,
    pub units: &'a [Unit],
    pub orders: &'a [UnitOrder],
    pub rules: &'a Rules,
    /// Unit at each province.
    pub occ: &'a [Option<usize>],
    buf: &'a BoardBuf,
}

impl<'a> Board<'a> {
    /// The board over tables already filled for this position.
    pub fn new(
        map: &'a Map,
        units: &'a [Unit],
        orders: &'a [UnitOrder],
        rules: &'a Rules,
        buf: &'a BoardBuf,
    ) -> Self {
        Board {
            map,
            units,
            orders,
            rules,
            occ: &buf.occ,
            buf,
        }
    }

    /// Where the unit is.
    pub fn here(&self, u: usize) -> ProvinceId {
        self.buf.here[u]
    }

    /// The units moving into a province.
    pub fn movers_into(&self, p: ProvinceId) -> &[usize] {
        match self.buf.slot.get(p.0 as usize) {
            Some(&k) if k != u32::MAX => self.buf.movers_into.get(k as usize),
            _ => &[],
        }
    }

    /// Valid supports of a unit's move.
    pub fn move_supporters(&self, u: usize) -> &[usize] {
        self.buf.move_supporters.get(u)
    }

    /// Valid hold supports of a unit.
    pub fn hold_supporters(&self, u: usize) -> &[usize] {
        self.buf.hold_supporters.get(u)
    }

    /// Valid convoying fleets for an army.
    pub fn convoy_fleets(&self, u: usize) -> &[usize] {
        self.buf.convoy_fleets.get(u)
    }

    /// The destination and route of `u`'s move; None when it does not move.
    pub(crate) fn move_of(&self, u: usize) -> Option<(ProvinceId, Route)> {
        self.buf.moves.get(u).copied().flatten()
    }

    /// The unit at the destination of `u`'s move, if any.
    pub fn target_unit(&self, u: usize) -> Option<usize> {
        self.move_of(u).and_then(|(d, _)| self.occ[d.0 as usize])
    }

    /// Whether `t` moves to `u`'s province (an opposing move, head-to-head or by convoy).
    pub fn opposing(&self, u: usize, t: usize) -> bool {
        self.move_of(t).is_some_and(|(d, _)| d == self.here(u))
    }

    /// Whether fleet `f` may carry army `u` under a written path (4.A.6 b/c): always when the
    /// order names no path.
    fn on_written_path(&self, u: usize, f: usize) -> bool {
        match &self.orders[u] {
            UnitOrder::Move {
                path: Some(path), ..
            } => path.contains(&self.here(f)),
            _ => true,
        }
    }

    /// Whether the fleets `usable` among `fleets` form a chain from `u`'s province to its
    /// destination. A search over `fleets` (a short list: the army's convoying fleets) in the
    /// board's reused buffers; it allocates only when a longer list than any before comes.
    fn chain(&self, u: usize, usable: &dyn Fn(usize) -> bool, fleets: &[usize]) -> bool {
        let Some((dest, _)) = self.move_of(u) else {
            return false;
        };
        let from = self.here(u);
        let map = self.map;
        // Not re-entered (no `usable` searches a chain); a fresh buffer if it ever were.
        let mut fresh = ChainScratch::default();
        let mut held = self.buf.chain.try_borrow_mut();
        let scratch = match held.as_deref_mut() {
            Ok(s) => s,
            Err(_) => &mut fresh,
        };
        let ChainScratch { seen, stack } = scratch;
        seen.clear();
        seen.resize(fleets.len(), false);
        stack.clear();
        for (i, &f) in fleets.iter().enumerate() {
            if usable(f) && map.provinces_adjacent(from, self.here(f)) {
                seen[i] = true;
                stack.push(i);
            }
        }
        while let Some(i) = stack.pop() {
            let here = self.here(fleets[i]);
            if map.provinces_adjacent(here, dest) {
                return true;
            }
            for (j, &g) in fleets.iter().enumerate() {
                if !seen[j] && usable(g) && map.provinces_adjacent(here, self.here(g)) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        false
    }

    /// Fleets lying on some route of `u` among `fleets` (for the 1971 any-route rule).
    pub(crate) fn route_fleets(&self, u: usize, fleets: &[usize]) -> Vec<usize> {
        let Some((dest, _)) = self.move_of(u) else {
            return Vec::new();
        };
        let map = self.map;
        let reach = |start_adj: &dyn Fn(ProvinceId) -> bool| {
            let mut seen: Vec<usize> = Vec::new();
            let mut stack: Vec<usize> = Vec::new();
            for &f in fleets {
                if start_adj(self.here(f)) {
                    seen.push(f);
                    stack.push(f);
                }
            }
            while let Some(f) = stack.pop() {
                for &g in fleets {
                    if !seen.contains(&g) && map.provinces_adjacent(self.here(f), self.here(g)) {
                        seen.push(g);
                        stack.push(g);
                    }
                }
            }
            seen
        };
        let from = self.here(u);
        let a = reach(&|p| map.provinces_adjacent(from, p));
        let b = reach(&|p| map.provinces_adjacent(p, dest));
        a.into_iter().filter(|f| b.contains(f)).collect()
    }

    /// 2000/2023 rule: is fleet `f` necessary for army `u`'s convoy (on every route)?
    fn necessary(&self, u: usize, f: usize) -> bool {
        let fleets = self.convoy_fleets(u);
        if !fleets.contains(&f) {
            return false;
        }
        let all = self.chain(u, &|_| true, fleets);
        all && !self.chain(u, &|g| g != f, fleets)
    }

    /// Whether a convoyed attack by `c` on supporter `s` is exempt from cutting (and from cutting
    /// by dislodgement) under the chosen paradox rule, assuming `c` travels by convoy.
    pub(crate) fn paradox_exempt(&self, c: usize, s: usize) -> bool {
        let UnitOrder::Support { target, dest, .. } = &self.orders[s] else {
            return false;
        };
        match self.rules.paradox {
            Paradox::Szykman | Paradox::AllHold => false,
            Paradox::Rule1982 => {
                let p = dest.unwrap_or(self.here(*target));
                self.map.province(p).kind == ProvinceKind::Sea
                    && self.occ[p.0 as usize].is_some_and(|f| {
                        matches!(self.orders[f], UnitOrder::Convoy { void: None, .. })
                    })
            }
            Paradox::Rule1971 => dest.is_some_and(|d| {
                self.occ[d.0 as usize].is_some_and(|f| self.convoy_fleets(c).contains(&f))
            }),
            Paradox::Rule2000 => {
                dest.is_some_and(|d| self.occ[d.0 as usize].is_some_and(|f| self.necessary(c, f)))
            }
        }
    }
}

/// Three-valued condition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tri {
    F,
    T,
    U,
}

impl Tri {
    fn vals(self) -> &'static [bool] {
        match self {
            Tri::F => &[false],
            Tri::T => &[true],
            Tri::U => &[false, true],
        }
    }

    fn of(lo: i32, hi: i32) -> Tri {
        match (lo > 0, hi > 0) {
            (true, _) => Tri::T,
            (false, false) => Tri::F,
            _ => Tri::U,
        }
    }
}

#[derive(Clone, Copy)]
struct Iv(i32, i32);

impl Iv {
    const EMPTY: Iv = Iv(i32::MAX, i32::MIN);
    fn union(self, o: Iv) -> Iv {
        Iv(self.0.min(o.0), self.1.max(o.1))
    }
}

/// The resolver's decisions, kept between calls so that their buffers are reused: decisions and
/// their dependency lists in flat arrays (offsets into one buffer), no list per decision.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolverBuf {
    /// All decisions.
    pub nodes: Vec<Node>,
    /// Lower bounds.
    pub lo: Vec<i32>,
    /// Upper bounds.
    pub hi: Vec<i32>,
    /// Decisions that were part of a cycle handed to a backup rule.
    pub in_cycle: Vec<bool>,
    /// Decisions whose value a backup rule forced.
    pub forced: Vec<bool>,
    ids: Vec<UnitNodes>,
    /// Dependencies of decision `i`: `deps[deps_off[i]..deps_off[i + 1]]`, sorted.
    deps_off: Vec<u32>,
    deps: Vec<u32>,
    /// Dependents (the reverse edges), the same way.
    rdeps_off: Vec<u32>,
    rdeps: Vec<u32>,
    rcursor: Vec<u32>,
    /// Szykman: fleets whose convoy is cancelled.
    pub disabled: Vec<bool>,
    /// All Hold: units whose move is part of the paradox (its MOVE, or its convoy PATH, was
    /// still open and is set to fail: `backup::paradox_moves`).
    pub forced_fail: Vec<bool>,
    fixed: Vec<bool>,
    queue: std::collections::VecDeque<u32>,
    queued: Vec<bool>,
    /// Every decision open after the first propagation, ascending; `open[open_head..]` holds
    /// every decision still open (and some closed since, skipped as they are met).
    open: Vec<u32>,
    open_head: usize,
    /// The PATH decisions, ascending.
    paths: Vec<u32>,
    /// Decisions the cycle search indexed (reset after each search).
    touched: Vec<u32>,
    /// The cycle search's state (reset after each search, entry by entry).
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    call: Vec<(u32, u32)>,
    /// How many convoys Szykman's rule has cancelled.
    cancelled: usize,
    /// [`Solver::acyclic`]'s state: per decision, its edges to decisions not yet ordered; and
    /// the decisions whose edges all are.
    left: Vec<u32>,
    ready: Vec<u32>,
    /// The crowded provinces ([`CROWD`]).
    crowds: Vec<Crowd>,
    /// Per unit moving into a crowded province: its crowd and its place in the crowd's movers
    /// (NONE: not in a crowd).
    crowd_of: Vec<(u32, u32)>,
}

impl SolverBuf {
    /// The decisions that decision `id` reads.
    pub fn deps(&self, id: usize) -> &[u32] {
        &self.deps[self.deps_off[id] as usize..self.deps_off[id + 1] as usize]
    }

    /// Node id of a unit's decision of the given kind, if it has one.
    pub fn node_of(&self, unit: usize, kind: NodeKind) -> Option<u32> {
        node_of(&self.ids, unit, kind)
    }

    /// The value of a decision (its lower bound; equal to the upper once resolved).
    pub fn value(&self, id: u32) -> i32 {
        self.lo[id as usize]
    }

    /// Every decision decision `v` reads: its edges, and for a MOVE into a crowded province
    /// every other mover's PREVENT STRENGTH.
    fn edges(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        let node = self.nodes[v as usize];
        let crowd = match node.kind {
            NodeKind::Move => self
                .crowd_of
                .get(node.unit)
                .and_then(|&(c, _)| self.crowds.get(c as usize)),
            _ => None,
        };
        let others = crowd
            .map_or(&[][..], |c| c.movers.as_slice())
            .iter()
            .filter(move |&&m| m as usize != node.unit)
            .map(|&m| self.ids[m as usize].prevent);
        self.deps(v as usize).iter().copied().chain(others)
    }

    /// For a MOVE into a crowded province, the PREVENT STRENGTH of the strongest other mover
    /// by the bounds as they are (the first listed among equals): the one the MOVE is measured
    /// against. None for any other decision.
    fn crowd_rival(&self, id: usize) -> Option<u32> {
        let node = self.nodes[id];
        if node.kind != NodeKind::Move || self.crowds.is_empty() {
            return None;
        }
        let &(c, pos) = self.crowd_of.get(node.unit)?;
        let crowd = self.crowds.get(c as usize)?;
        let (_, other) = strongest_other(&crowd.hi, pos)?;
        let unit = *crowd.movers.get(other as usize)? as usize;
        let p = self.ids[unit].prevent;
        (p != NONE).then_some(p)
    }

    /// The decisions decision `id` reads as they are shown (in the graph and the trace): its
    /// edges, and for a MOVE into a crowded province the strongest other mover's PREVENT
    /// STRENGTH ([`CROWD`]: the others are read through the crowd, not listed one by one).
    fn shown_deps(&self, id: usize) -> Vec<u32> {
        let mut v = self.deps(id).to_vec();
        if let Some(r) = self.crowd_rival(id) {
            let at = v.partition_point(|&d| d < r);
            if v.get(at) != Some(&r) {
                v.insert(at, r);
            }
        }
        v
    }

    /// The moves of the All Hold paradox whose core is `core` ([`backup::paradox_moves`]: the
    /// units whose MOVE, ATTACK STRENGTH, PATH or PREVENT STRENGTH is in it, and which of their
    /// MOVE and PATH decisions are still open).
    pub(crate) fn paradox_moves(&self, core: &[u32]) -> Vec<backup::Hold> {
        let parts = core.iter().filter_map(|&id| {
            let n = self.nodes.get(id as usize)?;
            let part = match n.kind {
                NodeKind::Move => backup::Part::Move,
                NodeKind::Attack => backup::Part::Attack,
                NodeKind::Path => backup::Part::Path,
                NodeKind::Prevent => backup::Part::Prevent,
                _ => return None,
            };
            Some((n.unit, part))
        });
        let open =
            |id: Option<u32>| id.is_some_and(|id| self.lo[id as usize] != self.hi[id as usize]);
        backup::paradox_moves(parts, |u| {
            (
                open(self.node_of(u, NodeKind::Move)),
                open(self.node_of(u, NodeKind::Path)),
            )
        })
    }

    /// The decision graph with its final values, as its own lists.
    pub fn to_graph(&self) -> Graph {
        Graph {
            nodes: self.nodes.clone(),
            deps: (0..self.nodes.len()).map(|i| self.shown_deps(i)).collect(),
            lo: self.lo.clone(),
            hi: self.hi.clone(),
            in_cycle: self.in_cycle.clone(),
            forced: self.forced.clone(),
            ids: self.ids.clone(),
        }
    }
}

fn node_of(ids: &[UnitNodes], unit: usize, kind: NodeKind) -> Option<u32> {
    let n = ids.get(unit)?;
    let id = match kind {
        NodeKind::Move => n.mv,
        NodeKind::Support => n.support,
        NodeKind::Dislodge => n.dislodge,
        NodeKind::Path => n.path,
        NodeKind::Attack => n.attack,
        NodeKind::Hold => n.hold,
        NodeKind::Prevent => n.prevent,
        NodeKind::Defend => n.defend,
    };
    (id != NONE).then_some(id)
}

/// Building the decision graph of a board, in steps ([`Solver::new`]).
impl SolverBuf {
    /// The decisions of `b`, numbered unit by unit (DATC 5.A): MOVE, ATTACK, PREVENT and DEFEND
    /// STRENGTH for a move (and PATH for one that may go by convoy), SUPPORT for a support not
    /// void, DISLODGE and HOLD STRENGTH for every unit; their bounds and cycle marks cleared.
    fn number_decisions(&mut self, b: &Board<'_>) {
        let nodes = &mut self.nodes;
        nodes.clear();
        self.ids.clear();
        for u in 0..b.units.len() {
            let mut un = UnitNodes {
                mv: NONE,
                attack: NONE,
                prevent: NONE,
                defend: NONE,
                path: NONE,
                support: NONE,
                dislodge: NONE,
                hold: NONE,
            };
            match &b.orders[u] {
                UnitOrder::Move { route, .. } => {
                    un.mv = add(nodes, NodeKind::Move, u);
                    un.attack = add(nodes, NodeKind::Attack, u);
                    un.prevent = add(nodes, NodeKind::Prevent, u);
                    un.defend = add(nodes, NodeKind::Defend, u);
                    if *route != Route::Land {
                        un.path = add(nodes, NodeKind::Path, u);
                    }
                }
                UnitOrder::Support { void: None, .. } => {
                    un.support = add(nodes, NodeKind::Support, u);
                }
                _ => {}
            }
            un.dislodge = add(nodes, NodeKind::Dislodge, u);
            un.hold = add(nodes, NodeKind::Hold, u);
            self.ids.push(un);
        }
        let m = self.nodes.len();
        self.lo.clear();
        self.lo.resize(m, 0);
        self.hi.clear();
        self.hi.resize(m, 0);
        reset(&mut self.in_cycle, m, false);
        reset(&mut self.forced, m, false);
    }

    /// The crowded provinces ([`CROWD`]): each made once, at its first mover. (`crowd_of` is
    /// sized only when there is a crowd; without one nothing reads it.)
    fn find_crowds(&mut self, b: &Board<'_>) {
        let n = b.units.len();
        self.crowds.clear();
        self.crowd_of.clear();
        for u in 0..n {
            if let Some((dest, _)) = b.move_of(u) {
                let movers = b.movers_into(dest);
                if movers.len() > CROWD && movers.first() == Some(&u) {
                    if self.crowds.is_empty() {
                        self.crowd_of.resize(n, (NONE, NONE));
                    }
                    let c = self.crowds.len() as u32;
                    for (pos, &m) in movers.iter().enumerate() {
                        self.crowd_of[m] = (c, pos as u32);
                    }
                    self.crowds.push(Crowd {
                        movers: movers.iter().map(|&m| m as u32).collect(),
                        ..Crowd::default()
                    });
                }
            }
        }
    }

    /// Each decision's dependencies (sorted, without repeats, at the end of the shared
    /// buffer) and its initial upper bound ([`SolverBuf::push_inputs`]); lower bounds start
    /// at 0.
    fn link_decisions(&mut self, b: &Board<'_>) {
        self.deps_off.clear();
        self.deps_off.push(0);
        self.deps.clear();
        for id in 0..self.nodes.len() {
            let at = self.deps.len();
            let hi = self.push_inputs(b, id);
            let deps = &mut self.deps;
            deps[at..].sort_unstable();
            let mut len = at;
            for k in at..deps.len() {
                if k == at || deps[k] != deps[len - 1] {
                    deps[len] = deps[k];
                    len += 1;
                }
            }
            deps.truncate(len);
            self.deps_off.push(len as u32);
            self.hi[id] = hi;
        }
    }

    /// The decisions decision `id`'s equation reads (DATC 5.B), pushed onto `deps` (perhaps
    /// repeated), and its initial upper bound: 1 for a yes/no decision, 1 and every possible
    /// support for a strength.
    fn push_inputs(&mut self, b: &Board<'_>, id: usize) -> i32 {
        let node = self.nodes[id];
        let u = node.unit;
        let ids = &self.ids;
        let un = ids[u];
        let deps = &mut self.deps;
        let path_dep = |x: usize, deps: &mut Vec<u32>| {
            if ids[x].path != NONE {
                deps.push(ids[x].path);
            }
        };
        match node.kind {
            NodeKind::Move => {
                deps.push(un.attack);
                if let Some(t) = b.target_unit(u) {
                    deps.push(ids[t].hold);
                    if b.opposing(u, t) {
                        deps.push(ids[t].defend);
                        path_dep(t, deps);
                    }
                }
                path_dep(u, deps);
                // A MOVE decision exists only for a unit ordered to move. In a crowded
                // province the others' PREVENT STRENGTHs are read through the crowd.
                if let Some((dest, _)) = b.move_of(u)
                    && (self.crowds.is_empty() || self.crowd_of[u].0 == NONE)
                {
                    for &c in b.movers_into(dest) {
                        if c != u {
                            deps.push(ids[c].prevent);
                        }
                    }
                }
                1
            }
            NodeKind::Attack | NodeKind::Prevent | NodeKind::Defend => {
                for &s in b.move_supporters(u) {
                    deps.push(ids[s].support);
                }
                if node.kind != NodeKind::Defend {
                    path_dep(u, deps);
                    if let Some(t) = b.target_unit(u) {
                        if node.kind == NodeKind::Attack && ids[t].mv != NONE {
                            deps.push(ids[t].mv);
                        }
                        if b.opposing(u, t) {
                            deps.push(ids[t].mv);
                            path_dep(t, deps);
                            if node.kind == NodeKind::Prevent
                                && b.rules.dislodged_no_effect == DislodgedNoEffect::Always
                            {
                                deps.push(un.mv);
                            }
                        }
                    }
                }
                1 + b.move_supporters(u).len() as i32
            }
            NodeKind::Path => {
                for &f in b.convoy_fleets(u) {
                    deps.push(ids[f].dislodge);
                }
                1
            }
            NodeKind::Support => {
                for &c in b.movers_into(b.here(u)) {
                    deps.push(ids[c].attack);
                    deps.push(ids[c].mv);
                    path_dep(c, deps);
                }
                1
            }
            NodeKind::Dislodge => {
                for &c in b.movers_into(b.here(u)) {
                    deps.push(ids[c].mv);
                }
                if un.mv != NONE {
                    deps.push(un.mv);
                }
                1
            }
            NodeKind::Hold => {
                if un.mv != NONE {
                    deps.push(un.mv);
                    1
                } else {
                    for &s in b.hold_supporters(u) {
                        deps.push(ids[s].support);
                    }
                    1 + b.hold_supporters(u).len() as i32
                }
            }
        }
    }

    /// The crowds' ordered sets, from the initial bounds.
    fn seed_crowd_sets(&mut self) {
        for c in self.crowds.iter_mut() {
            for (pos, &m) in c.movers.iter().enumerate() {
                let p = self.ids[m as usize].prevent as usize;
                let key = std::cmp::Reverse(pos as u32);
                c.hi.insert((self.hi[p], key));
                c.lo.insert((self.lo[p], key));
            }
        }
    }

    /// Dependents: the same edges reversed, each list in ascending order.
    fn reverse_dependencies(&mut self) {
        let m = self.nodes.len();
        self.rdeps_off.clear();
        self.rdeps_off.resize(m + 1, 0);
        for &d in &self.deps {
            self.rdeps_off[d as usize + 1] += 1;
        }
        for k in 0..m {
            self.rdeps_off[k + 1] += self.rdeps_off[k];
        }
        self.rcursor.clear();
        self.rcursor.extend_from_slice(&self.rdeps_off[..m]);
        self.rdeps.clear();
        self.rdeps.resize(self.deps.len(), 0);
        for id in 0..m {
            for k in self.deps_off[id]..self.deps_off[id + 1] {
                let d = self.deps[k as usize] as usize;
                self.rdeps[self.rcursor[d] as usize] = id as u32;
                self.rcursor[d] += 1;
            }
        }
    }

    /// The resolver's working state for `n` units: no convoy cancelled, no move forced to
    /// fail, nothing fixed, every decision open and queued, the cycle search cleared.
    fn reset_search(&mut self, n: usize) {
        let m = self.nodes.len();
        reset(&mut self.disabled, n, false);
        reset(&mut self.forced_fail, n, false);
        reset(&mut self.fixed, m, false);
        reset(&mut self.queued, m, true);
        self.queue.clear();
        self.queue.extend(0..m as u32);
        self.open.clear();
        self.open.extend(0..m as u32);
        self.open_head = 0;
        self.paths.clear();
        let nodes = &self.nodes;
        self.paths
            .extend((0..m as u32).filter(|&id| nodes[id as usize].kind == NodeKind::Path));
        self.index.clear();
        self.index.resize(m, u32::MAX);
        self.low.clear();
        self.low.resize(m, 0);
        reset(&mut self.on_stack, m, false);
        self.cancelled = 0;
    }
}

/// `v` cleared and filled with `len` copies of `x`.
fn reset(v: &mut Vec<bool>, len: usize, x: bool) {
    v.clear();
    v.resize(len, x);
}

/// The resolver: the board, the decisions' buffers and the tracer.
pub(crate) struct Solver<'b, 'a, T: Tracer<Event>> {
    b: &'b Board<'a>,
    g: &'b mut SolverBuf,
    pub tracer: T,
}

fn add(nodes: &mut Vec<Node>, kind: NodeKind, unit: usize) -> u32 {
    nodes.push(Node { kind, unit });
    (nodes.len() - 1) as u32
}

impl<'b, 'a, T: Tracer<Event>> Solver<'b, 'a, T> {
    /// The resolver of `b`'s decisions in `g` (its buffers reused): the decisions numbered,
    /// their initial bounds and dependencies, the crowded provinces, and every decision open and
    /// queued.
    pub fn new(b: &'b Board<'a>, g: &'b mut SolverBuf, tracer: T) -> Self {
        g.number_decisions(b);
        g.find_crowds(b);
        g.link_decisions(b);
        g.seed_crowd_sets();
        g.reverse_dependencies();
        g.reset_search(b.units.len());
        Solver { b, g, tracer }
    }

    fn tri(&self, id: u32) -> Tri {
        if id == NONE {
            return Tri::T;
        }
        Tri::of(self.g.lo[id as usize], self.g.hi[id as usize])
    }

    fn iv(&self, id: u32) -> Iv {
        Iv(self.g.lo[id as usize], self.g.hi[id as usize])
    }

    /// Whether `u`'s move can reach its destination at all: PATH for convoy routes.
    fn path_ok(&self, u: usize) -> Tri {
        match self.b.move_of(u) {
            Some((_, Route::Convoy)) => self.tri(self.g.ids[u].path),
            Some(_) => Tri::T,
            None => Tri::F,
        }
    }

    /// Whether `u` travels by convoy.
    fn uses_convoy(&self, u: usize) -> Tri {
        match self.b.move_of(u) {
            Some((_, Route::Convoy)) => Tri::T,
            Some((_, Route::ConvoyOrLand)) => self.tri(self.g.ids[u].path),
            _ => Tri::F,
        }
    }

    /// Head-to-head battle between `u` and `t` (each moving to the other's province, neither by convoy).
    fn hth(&self, u: usize, t: usize) -> Tri {
        if !self.b.opposing(u, t) || self.b.move_of(u).is_none() {
            return Tri::F;
        }
        match (self.uses_convoy(u), self.uses_convoy(t)) {
            (Tri::T, _) | (_, Tri::T) => Tri::F,
            (Tri::F, Tri::F) => Tri::T,
            _ => Tri::U,
        }
    }

    fn support_count(&self, u: usize, exclude_power: Option<crate::model::map::PowerId>) -> Iv {
        let mut lo = 0;
        let mut hi = 0;
        for &s in self.b.move_supporters(u) {
            if exclude_power.is_some_and(|p| self.b.units[s].power == p) {
                continue;
            }
            let id = self.g.ids[s].support as usize;
            lo += self.g.lo[id];
            hi += self.g.hi[id];
        }
        Iv(lo, hi)
    }

    /// The bounds decision `id`'s equation gives from its inputs' current bounds (the
    /// optimistic and pessimistic evaluations of DATC 5.E in one), by the decision's kind: each
    /// kind's equation is its own function below, named after it.
    fn eval(&self, id: u32) -> Iv {
        let node = self.g.nodes[id as usize];
        let u = node.unit;
        match node.kind {
            NodeKind::Attack => self.attack_strength(u),
            NodeKind::Prevent => self.prevent_strength(u),
            NodeKind::Defend => self.defend_strength(u),
            NodeKind::Hold => self.hold_strength(u),
            NodeKind::Move => self.move_decision(u),
            NodeKind::Dislodge => self.dislodge_decision(u),
            NodeKind::Path => self.path_decision(u),
            NodeKind::Support => self.support_decision(u),
        }
    }

    /// ATTACK STRENGTH (DATC 5.B.4, numbered as in the 2003 text): 0 without a path; against
    /// a unit that stays or meets it head to head, 0 if it is of the same power, else 1
    /// and the supports not of its power; into a province left empty, 1 and every support.
    fn attack_strength(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        let mut out = Iv::EMPTY;
        let t = b.target_unit(u);
        for &p in self.path_ok(u).vals() {
            if !p {
                out = out.union(Iv(0, 0));
                continue;
            }
            let all = self.support_count(u, None);
            let Some(t) = t else {
                out = out.union(Iv(1 + all.0, 1 + all.1));
                continue;
            };
            let t_moving = ids[t].mv != NONE;
            let hth = self.hth(u, t);
            let mv = if t_moving {
                self.tri(ids[t].mv)
            } else {
                Tri::F
            };
            for &h in hth.vals() {
                for &m in mv.vals() {
                    let empty = t_moving && !h && m;
                    let v = if empty {
                        Iv(1 + all.0, 1 + all.1)
                    } else if b.units[t].power == b.units[u].power {
                        Iv(0, 0)
                    } else {
                        let s = self.support_count(u, Some(b.units[t].power));
                        Iv(1 + s.0, 1 + s.1)
                    };
                    out = out.union(v);
                }
            }
        }
        out
    }

    /// PREVENT STRENGTH (5.B.6): 0 without a path, or for a unit beaten in a head-to-head
    /// battle (or, under 4.A.7's other choice, whose opponent moves while it fails); else 1
    /// and every support.
    fn prevent_strength(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        let mut out = Iv::EMPTY;
        let all = self.support_count(u, None);
        let full = Iv(1 + all.0, 1 + all.1);
        for &p in self.path_ok(u).vals() {
            if !p {
                out = out.union(Iv(0, 0));
                continue;
            }
            let opp = b.target_unit(u).filter(|&t| b.opposing(u, t));
            let Some(t) = opp else {
                out = out.union(full);
                continue;
            };
            match b.rules.dislodged_no_effect {
                DislodgedNoEffect::HeadToHeadOnly => {
                    for &h in self.hth(u, t).vals() {
                        let mt = if h { self.tri(ids[t].mv) } else { Tri::F };
                        for &m in mt.vals() {
                            out = out.union(if h && m { Iv(0, 0) } else { full });
                        }
                    }
                }
                DislodgedNoEffect::Always => {
                    for &mu in self.tri(ids[u].mv).vals() {
                        for &mt in self.tri(ids[t].mv).vals() {
                            out = out.union(if !mu && mt { Iv(0, 0) } else { full });
                        }
                    }
                }
            }
        }
        out
    }

    /// DEFEND STRENGTH (5.B.7): 1 and every support.
    fn defend_strength(&self, u: usize) -> Iv {
        let all = self.support_count(u, None);
        Iv(1 + all.0, 1 + all.1)
    }

    /// HOLD STRENGTH (5.B.5): for a unit ordered to move, 0 if it moves and 1 if it fails;
    /// else 1 and every support to hold.
    fn hold_strength(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        if ids[u].mv != NONE {
            match self.tri(ids[u].mv) {
                Tri::T => Iv(0, 0),
                Tri::F => Iv(1, 1),
                Tri::U => Iv(0, 1),
            }
        } else {
            let mut lo = 1;
            let mut hi = 1;
            for &s in b.hold_supporters(u) {
                let sid = ids[s].support as usize;
                lo += self.g.lo[sid];
                hi += self.g.hi[sid];
            }
            Iv(lo, hi)
        }
    }

    /// MOVE (5.B.1): the attack beats the hold strength at the destination (the defend
    /// strength in a head-to-head battle) and every other mover's prevent strength, read
    /// through the crowd's sets in a crowded province ([`CROWD`]).
    fn move_decision(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        let a = self.iv(ids[u].attack);
        // A MOVE decision exists only for a unit ordered to move.
        let Some((dest, _)) = b.move_of(u) else {
            return Iv(0, 0);
        };
        // Competitors: prevent strengths of other units moving to the same province.
        let mut comp_must = true; // attack surely beats every prevent
        let mut comp_can = true; // attack may beat every prevent
        let crowd = match self.g.crowds.is_empty() {
            true => None,
            false => {
                let (c, pos) = self.g.crowd_of[u];
                self.g.crowds.get(c as usize).map(|crowd| (crowd, pos))
            }
        };
        if let Some((crowd, pos)) = crowd {
            // The greatest bounds of the others, from the crowd's sets.
            if let Some((hi, _)) = strongest_other(&crowd.hi, pos) {
                comp_must = a.0 > hi;
            }
            if let Some((lo, _)) = strongest_other(&crowd.lo, pos) {
                comp_can = a.1 > lo;
            }
        } else {
            for &c in b.movers_into(dest) {
                if c == u {
                    continue;
                }
                let p = self.iv(ids[c].prevent);
                comp_must &= a.0 > p.1;
                comp_can &= a.1 > p.0;
            }
        }
        let mut must = true;
        let mut can = false;
        let t = b.target_unit(u);
        let branches: &[bool] = match t {
            Some(t) => self.hth(u, t).vals(),
            None => &[false],
        };
        for &h in branches {
            let opp = match t {
                None => Iv(0, 0),
                Some(t) if h => self.iv(ids[t].defend),
                Some(t) => self.iv(ids[t].hold),
            };
            must &= a.0 > opp.1 && comp_must;
            can |= a.1 > opp.0 && comp_can;
        }
        Iv(i32::from(must), i32::from(can))
    }

    /// DISLODGE (5.B.3): the unit stays (it holds, or its move fails) and a unit moving into
    /// its province moves.
    fn dislodge_decision(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        let mover = ids[u].mv;
        let stays = if mover == NONE {
            Tri::T
        } else {
            match self.tri(mover) {
                Tri::T => Tri::F,
                Tri::F => Tri::T,
                Tri::U => Tri::U,
            }
        };
        let mut sure = false;
        let mut possible = false;
        for &c in b.movers_into(b.here(u)) {
            let m = self.tri(ids[c].mv);
            sure |= m == Tri::T && stays == Tri::T;
            possible |= m != Tri::F && stays != Tri::F;
        }
        Iv(i32::from(sure), i32::from(possible))
    }

    /// PATH (5.B.8): the convoy route's fleets are not dislodged; which fleets may carry it and
    /// whether every route or one must hold follow the rules (4.A.1, 4.A.6, Szykman's
    /// cancelled convoys).
    fn path_decision(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        // The fleets a convoy path may use: valid, not cancelled, on the written
        // path if one counts.
        let fleets = b.convoy_fleets(u);
        let usable = |f: usize| !self.g.disabled[f] && b.on_written_path(u, f);
        let dis = |f: usize| {
            (
                self.g.lo[ids[f].dislodge as usize],
                self.g.hi[ids[f].dislodge as usize],
            )
        };
        match b.rules.multi_route_disruption {
            MultiRoute::AllRoutes => {
                let sure = b.chain(u, &|f| usable(f) && dis(f).1 == 0, fleets);
                let possible = b.chain(u, &|f| usable(f) && dis(f).0 == 0, fleets);
                Iv(i32::from(sure), i32::from(possible))
            }
            MultiRoute::AnyRoute => {
                if !b.chain(u, &usable, fleets) {
                    return Iv(0, 0);
                }
                let fleets: Vec<usize> = fleets.iter().copied().filter(|&f| usable(f)).collect();
                let on_route = b.route_fleets(u, &fleets);
                let sure = on_route.iter().all(|&f| dis(f).1 == 0);
                let possible = on_route.iter().all(|&f| dis(f).0 == 0);
                Iv(i32::from(sure), i32::from(possible))
            }
        }
    }

    /// SUPPORT (5.B.2): not cut by an attack from anywhere but the supported move's
    /// destination (4.A.4 for a convoyed one), nor by the supporter's dislodgement; a convoyed
    /// attack the paradox rule exempts (4.A.2) cuts neither way.
    fn support_decision(&self, u: usize) -> Iv {
        let b = self.b;
        let ids = &self.g.ids;
        let s = u;
        let (support_dest, _) = match &b.orders[s] {
            UnitOrder::Support { dest, target, .. } => (*dest, *target),
            _ => unreachable!("support node on a non-support order"),
        };
        let mut cut_possible = false;
        let mut cut_sure = false;
        for &c in b.movers_into(b.here(s)) {
            // The unit at the supported move's destination cannot cut (unless it comes
            // by convoy and 4.A.4 choice b is played).
            let at_dest = support_dest.is_some_and(|d| b.here(c) == d);
            let conv = self.uses_convoy(c);
            let att = self.iv(ids[c].attack);
            let mv = self.tri(ids[c].mv);
            let mut any_branch_cuts = false;
            let mut all_branches_cut = true;
            for &cv in conv.vals() {
                let exempt_dest = at_dest
                    && (!cv || b.rules.convoyed_attack_on_supporter == ConvoyedSelfAttack::NotCut);
                let exempt_paradox = cv && b.paradox_exempt(c, s);
                // Attack-cut and dislodgement-cut.
                let (cut_can, cut_must) = if exempt_dest || exempt_paradox {
                    (false, false)
                } else {
                    (att.1 > 0, att.0 > 0)
                };
                let (dis_can, dis_must) = if exempt_paradox {
                    (false, false)
                } else {
                    (mv != Tri::F, mv == Tri::T)
                };
                any_branch_cuts |= cut_can || dis_can;
                all_branches_cut &= cut_must || dis_must;
            }
            cut_possible |= any_branch_cuts;
            cut_sure |= all_branches_cut;
        }
        Iv(i32::from(!cut_possible), i32::from(!cut_sure))
    }

    fn push(&mut self, id: u32) {
        if !self.g.queued[id as usize] && !self.g.fixed[id as usize] {
            self.g.queued[id as usize] = true;
            self.g.queue.push_back(id);
        }
    }

    /// After the bounds of decision `id` changed from `was`: when it is the PREVENT STRENGTH
    /// of a unit moving into a crowded province, the crowd's sets follow, and when what the
    /// crowd's MOVE decisions read from them changed ([`crowd_key`]), they are evaluated again
    /// (the edges a small province has, from each PREVENT to each other MOVE, do that there).
    fn crowd_moved(&mut self, id: u32, was: (i32, i32)) {
        let i = id as usize;
        let node = self.g.nodes[i];
        if node.kind != NodeKind::Prevent || self.g.crowds.is_empty() {
            return;
        }
        let (c, pos) = self.g.crowd_of[node.unit];
        let (lo, hi) = (self.g.lo[i], self.g.hi[i]);
        let Some(crowd) = self.g.crowds.get_mut(c as usize) else {
            return;
        };
        let before = (crowd_key(&crowd.hi), crowd_key(&crowd.lo));
        let key = std::cmp::Reverse(pos);
        if was.1 != hi {
            crowd.hi.remove(&(was.1, key));
            crowd.hi.insert((hi, key));
        }
        if was.0 != lo {
            crowd.lo.remove(&(was.0, key));
            crowd.lo.insert((lo, key));
        }
        if (crowd_key(&crowd.hi), crowd_key(&crowd.lo)) == before {
            return;
        }
        let len = crowd.movers.len();
        for k in 0..len {
            let m = self.g.crowds[c as usize].movers[k] as usize;
            let mv = self.g.ids[m].mv;
            self.push(mv);
        }
    }

    fn propagate(&mut self) {
        while let Some(id) = self.g.queue.pop_front() {
            self.g.queued[id as usize] = false;
            if self.g.fixed[id as usize] {
                continue;
            }
            let i = id as usize;
            let (olo, ohi) = (self.g.lo[i], self.g.hi[i]);
            if T::ON {
                self.tracer.event(Event::Visit { node: id });
            }
            let new = self.eval(id);
            // Bounds only tighten, and a settled decision is never turned around: an
            // evaluation outside the bounds (which a backup rule that sets only open decisions
            // within their bounds never causes) changes nothing.
            let lo = new.0.max(olo);
            let hi = new.1.min(ohi);
            if lo > hi || (lo == olo && hi == ohi) {
                continue;
            }
            self.g.lo[i] = lo;
            self.g.hi[i] = hi;
            if !self.g.crowds.is_empty() {
                self.crowd_moved(id, (olo, ohi));
            }
            if T::ON {
                let bounds = |d: u32| (d, self.g.lo[d as usize], self.g.hi[d as usize]);
                let inputs = match self.g.crowd_rival(i) {
                    None => self.g.deps(i).iter().map(|&d| bounds(d)).collect(),
                    Some(_) => self.g.shown_deps(i).into_iter().map(bounds).collect(),
                };
                self.tracer.event(Event::Tightened {
                    node: id,
                    from: (olo, ohi),
                    to: (lo, hi),
                    inputs,
                });
                if lo == hi {
                    self.tracer.event(Event::Resolved {
                        node: id,
                        value: lo,
                    });
                }
            }
            for k in self.g.rdeps_off[i]..self.g.rdeps_off[i + 1] {
                let d = self.g.rdeps[k as usize];
                self.push(d);
            }
        }
    }

    fn open(&self, id: u32) -> bool {
        self.g.lo[id as usize] != self.g.hi[id as usize]
    }

    /// A strongly connected component of open decisions that depends on no other open decision,
    /// found with an iterative Tarjan search over the open decisions only (roots in ascending
    /// order). Returns the first non-trivial one, sorted, in `comp`.
    ///
    /// After a propagation every open decision reads another open one, so the search from the
    /// first open root ends at a cycle within the part of the graph that root reads: a call
    /// costs time in what it visits (reset entry by entry afterwards), and the list of open
    /// decisions is only ever advanced past closed ones, so many cycles on a large board cost
    /// time linear in the board, not cycles times open decisions.
    fn sink_cycle(&mut self, comp: &mut Vec<u32>) -> bool {
        self.cycle_where(comp, None)
    }

    /// As [`Solver::sink_cycle`], but with `want` (per unit) the first cyclic component found
    /// that holds a decision of a wanted unit (not necessarily a sink).
    fn cycle_where(&mut self, comp: &mut Vec<u32>, want: Option<&[bool]>) -> bool {
        let g = &mut *self.g;
        if g.open.len() == g.nodes.len() && g.open_head == 0 {
            // First call: from all decisions to the open ones (once).
            let (lo, hi) = (&g.lo, &g.hi);
            g.open.retain(|&id| lo[id as usize] != hi[id as usize]);
        }
        comp.clear();
        let SolverBuf {
            nodes,
            ids,
            crowds,
            crowd_of,
            lo,
            hi,
            deps_off,
            deps,
            open,
            open_head,
            index,
            low,
            on_stack,
            stack,
            call,
            touched,
            ..
        } = g;
        let is_open = |id: u32| lo[id as usize] != hi[id as usize];
        while *open_head < open.len() && !is_open(open[*open_head]) {
            *open_head += 1;
        }
        let deps_of =
            |id: u32| &deps[deps_off[id as usize] as usize..deps_off[id as usize + 1] as usize];
        // Edge `k` of decision `v`: its own edges, then for a MOVE into a crowded province the
        // other movers' PREVENT STRENGTHs (Some(None): not an edge, the mover itself); None
        // past the end.
        let edge = |v: u32, k: usize| -> Option<Option<u32>> {
            let ds = deps_of(v);
            if let Some(&w) = ds.get(k) {
                return Some(Some(w));
            }
            let node = nodes[v as usize];
            if node.kind != NodeKind::Move {
                return None;
            }
            let &(c, _) = crowd_of.get(node.unit)?;
            let crowd = crowds.get(c as usize)?;
            let m = *crowd.movers.get(k - ds.len())? as usize;
            Some((m != node.unit).then(|| ids[m].prevent))
        };
        let mut counter = 0u32;
        stack.clear();
        call.clear();
        touched.clear();
        let mut found = false;
        'roots: for &root in open[*open_head..].iter() {
            if !is_open(root) || index[root as usize] != u32::MAX {
                continue;
            }
            call.push((root, 0));
            index[root as usize] = counter;
            low[root as usize] = counter;
            touched.push(root);
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (v, ref mut k)) = call.last_mut() {
                if let Some(w) = edge(v, *k as usize) {
                    *k += 1;
                    let Some(w) = w else {
                        continue;
                    };
                    if !is_open(w) {
                        continue;
                    }
                    if index[w as usize] == u32::MAX {
                        index[w as usize] = counter;
                        low[w as usize] = counter;
                        touched.push(w);
                        counter += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        call.push((w, 0));
                    } else if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(index[w as usize]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    comp.clear();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = comp.len() > 1 || deps_of(v).contains(&v);
                    let wanted = want.is_none_or(|w| {
                        comp.iter().any(|&d| {
                            let unit = nodes[d as usize].unit;
                            w.get(unit).copied().unwrap_or(false)
                        })
                    });
                    if cyclic && wanted {
                        comp.sort_unstable();
                        found = true;
                        break 'roots;
                    }
                }
            }
        }
        // Reset what the search touched.
        for &id in touched.iter() {
            index[id as usize] = u32::MAX;
            on_stack[id as usize] = false;
        }
        if !found {
            comp.clear();
        }
        found
    }

    fn force(&mut self, id: u32, value: i32, forced: &mut Vec<(u32, i32)>) {
        let i = id as usize;
        let was = (self.g.lo[i], self.g.hi[i]);
        self.g.lo[i] = value;
        self.g.hi[i] = value;
        self.crowd_moved(id, was);
        self.g.forced[i] = true;
        self.g.fixed[i] = true;
        forced.push((id, value));
        for k in self.g.rdeps_off[i]..self.g.rdeps_off[i + 1] {
            let d = self.g.rdeps[k as usize];
            self.push(d);
        }
    }

    fn apply_backup(&mut self, cycle: &[u32]) {
        let b = self.b;
        let cancelled_before = self.g.cancelled;
        for &id in cycle {
            self.g.in_cycle[id as usize] = true;
        }
        let paradox = cycle.iter().any(|&id| {
            let n = self.g.nodes[id as usize];
            n.kind == NodeKind::Path
                || (n.kind == NodeKind::Dislodge
                    && b.units[n.unit].kind == UnitKind::Fleet
                    && matches!(b.orders[n.unit], UnitOrder::Convoy { void: None, .. }))
        });
        let kind = if paradox {
            CycleKind::ConvoyParadox
        } else {
            CycleKind::CircularMovement
        };
        if T::ON {
            self.tracer.event(Event::CycleFound {
                members: cycle.to_vec(),
                walk: self.cycle_walk(cycle),
                kind,
            });
        }
        let mut forced = Vec::new();
        let moves: Vec<u32> = cycle
            .iter()
            .copied()
            .filter(|&id| self.g.nodes[id as usize].kind == NodeKind::Move)
            .collect();
        let rule = backup::rule_for(b.rules, paradox, !moves.is_empty());
        match rule {
            BackupRule::AllFail => {
                // Not a circular movement (cannot happen with standard orders): everything in
                // the cycle fails.
                for &id in cycle {
                    if self.g.nodes[id as usize].kind.is_bool() {
                        self.force(id, 0, &mut forced);
                    }
                }
            }
            BackupRule::CircularMovement => {
                for id in moves {
                    self.force(id, 1, &mut forced);
                }
            }
            BackupRule::Szykman => {
                let mut fleets = Vec::new();
                for &id in cycle {
                    let n = self.g.nodes[id as usize];
                    if n.kind == NodeKind::Dislodge
                        && matches!(b.orders[n.unit], UnitOrder::Convoy { void: None, .. })
                        && !self.g.disabled[n.unit]
                    {
                        fleets.push(n.unit);
                    }
                }
                for &f in &fleets {
                    self.g.disabled[f] = true;
                }
                self.g.cancelled += fleets.len();
                if T::ON {
                    self.tracer.event(Event::ConvoysCancelled {
                        fleets: fleets.clone(),
                    });
                }
                // The paths that used them: a path the cancellation decides is set by the rule
                // (and listed as forced); the others are evaluated again.
                let paths: Vec<u32> = self
                    .g
                    .paths
                    .iter()
                    .copied()
                    .filter(|&id| self.open(id))
                    .collect();
                for p in paths {
                    let Iv(lo, hi) = self.eval(p);
                    let (lo, hi) = (lo.max(self.g.lo[p as usize]), hi.min(self.g.hi[p as usize]));
                    if lo == hi {
                        self.force(p, lo, &mut forced);
                    } else {
                        self.push(p);
                    }
                }
                if fleets.is_empty() {
                    // Defensive: a paradox cycle without a convoying fleet; fail its moves.
                    for &id in cycle {
                        if self.g.nodes[id as usize].kind == NodeKind::Move {
                            self.force(id, 0, &mut forced);
                        }
                    }
                }
            }
            BackupRule::AllHold => {
                // The moves of the paradox fail (`backup::paradox_moves`: one definition for
                // both engines); only decisions still open are set, so nothing partial
                // information settled turns around, and a failed move still prevents.
                for h in self.g.paradox_moves(cycle) {
                    self.g.forced_fail[h.unit] = true;
                    let un = self.g.ids[h.unit];
                    if h.fail_move {
                        self.force(un.mv, 0, &mut forced);
                    }
                    if h.no_path {
                        self.force(un.path, 0, &mut forced);
                    }
                }
            }
        }
        // Guarantee progress: a rule that changed nothing (no value forced, no convoy cancelled)
        // would find the same cycle again; settle the cycle at its lower bounds instead.
        let cancelled = self.g.cancelled;
        if forced.is_empty() && cancelled == cancelled_before {
            for &id in cycle {
                if self.open(id) {
                    let lo = self.g.lo[id as usize];
                    self.force(id, lo, &mut forced);
                }
            }
        }
        if T::ON {
            self.tracer.event(Event::BackupApplied { rule, forced });
        }
    }

    /// A closed walk along dependency edges (a decision → one its equation reads) through every
    /// member of a strongly connected component, starting and ending at the first member: from
    /// each point, a breadth-first search inside the component to the nearest member not yet
    /// walked (at the end, back to the first). Only built when tracing.
    ///
    /// Each search stops at the nearest unwalked member, so its cost is the part of the component
    /// within that distance: on the decision graphs of real positions and on rings of any size
    /// the whole walk costs time linear in the component (a ring of 16000 armies, 48000
    /// decisions, is walked in 64001 steps). The worst case, for graphs unlike these, is one
    /// search of the whole component per member.
    fn cycle_walk(&self, members: &[u32]) -> Vec<u32> {
        let Some(&start) = members.first() else {
            return Vec::new();
        };
        let inside = |id: u32| members.binary_search(&id).is_ok();
        let mut walked = vec![false; members.len()];
        let mut walk = vec![start];
        walked[0] = true;
        let mut at = start;
        let mut remaining = members.len() - 1;
        // Breadth-first parents, by node id; `touched` lists the entries to reset.
        let mut parent = vec![NONE; self.g.nodes.len()];
        let mut touched: Vec<u32> = Vec::new();
        let mut queue = std::collections::VecDeque::new();
        loop {
            // The nearest unwalked member (or, when all are walked, the start) from `at`.
            for &t in &touched {
                parent[t as usize] = NONE;
            }
            touched.clear();
            queue.clear();
            queue.push_back(at);
            parent[at as usize] = at;
            touched.push(at);
            let mut found = None;
            'search: while let Some(v) = queue.pop_front() {
                for w in self.g.edges(v) {
                    let target = remaining == 0 && w == start;
                    if !inside(w) || (parent[w as usize] != NONE && !target) {
                        continue;
                    }
                    parent[w as usize] = v;
                    touched.push(w);
                    let done = match members.binary_search(&w) {
                        Ok(i) if remaining > 0 => !walked[i],
                        _ => target,
                    };
                    if done {
                        found = Some(w);
                        break 'search;
                    }
                    queue.push_back(w);
                }
            }
            let Some(target) = found else {
                // Not strongly connected after all (cannot happen for a component): close it.
                walk.push(start);
                return walk;
            };
            // The path back from the target, reversed onto the walk.
            let mut path = vec![target];
            let mut v = parent[target as usize];
            while v != at && v != NONE {
                path.push(v);
                v = parent[v as usize];
            }
            for &n in path.iter().rev() {
                if let Ok(i) = members.binary_search(&n)
                    && !walked[i]
                {
                    walked[i] = true;
                    remaining -= 1;
                }
                walk.push(n);
            }
            if target == start && remaining == 0 {
                return walk;
            }
            at = target;
        }
    }

    /// Whether the decisions' dependency graph, as built, has no cycle. Then no backup rule can
    /// be applied: [`Solver::solve`] hands a backup rule only a strongly connected component
    /// with a cycle, found along these same edges (a subgraph of them: the decisions still
    /// open), so propagation alone settles the board. A board with a crowded province
    /// ([`CROWD`]) is not looked at (false): its movers' edges are read through the crowd.
    /// Linear in the graph (Kahn's order: decisions whose edges all lead to ordered ones).
    pub fn acyclic(&mut self) -> bool {
        let g = &mut *self.g;
        if !g.crowds.is_empty() {
            return false;
        }
        let m = g.nodes.len();
        g.left.clear();
        g.left
            .extend((0..m).map(|id| g.deps_off[id + 1] - g.deps_off[id]));
        g.ready.clear();
        g.ready
            .extend((0..m as u32).filter(|&id| g.left[id as usize] == 0));
        let mut ordered = 0;
        while let Some(v) = g.ready.pop() {
            ordered += 1;
            let v = v as usize;
            for k in g.rdeps_off[v]..g.rdeps_off[v + 1] {
                let d = g.rdeps[k as usize] as usize;
                g.left[d] -= 1;
                if g.left[d] == 0 {
                    g.ready.push(d as u32);
                }
            }
        }
        ordered == m
    }

    /// Fixes a decision at `value` before solving (another engine decided it); `forced` marks
    /// it as set by a backup rule. Pinned decisions are never evaluated.
    pub(crate) fn pin(&mut self, id: u32, value: i32, forced: bool) {
        let i = id as usize;
        let was = (self.g.lo[i], self.g.hi[i]);
        self.g.lo[i] = value;
        self.g.hi[i] = value;
        self.crowd_moved(id, was);
        self.g.fixed[i] = true;
        self.g.forced[i] = forced;
        self.g.in_cycle[i] = forced;
    }

    /// Node id of a unit's decision of the given kind, if it has one.
    pub(crate) fn node(&self, unit: usize, kind: NodeKind) -> Option<u32> {
        self.g.node_of(unit, kind)
    }

    /// Szykman's rule, decided by another engine: fleet `f`'s convoy is cancelled.
    pub(crate) fn cancel_convoy(&mut self, f: usize) {
        if !self.g.disabled[f] {
            self.g.disabled[f] = true;
            self.g.cancelled += 1;
        }
    }

    /// The All Hold rule, decided by another engine: unit `u`'s move is part of the paradox;
    /// with `no_path`, its convoy route has no path (a PATH decision it has is pinned at 'no
    /// path', as set by a backup rule). Its MOVE is pinned with the other results.
    pub(crate) fn hold_fast(&mut self, u: usize, no_path: bool) {
        self.g.forced_fail[u] = true;
        if no_path && let Some(p) = self.node(u, NodeKind::Path) {
            self.pin(p, 0, true);
        }
    }

    /// The moves of an All Hold paradox, for another engine that found the paradox on its own
    /// terms (the guess engine's 5.F cycle, a list of orders `units`): propagates from the pins
    /// (that engine's results so far), takes as the core the first cyclic component of open
    /// decisions that holds a decision of one of `units`, and returns its moves as
    /// [`backup::paradox_moves`] defines them for the decision engine; empty when the pins
    /// leave no such cycle.
    pub(crate) fn paradox_moves_of(mut self, units: &[usize]) -> Vec<backup::Hold> {
        self.propagate();
        let mut want = vec![false; self.b.units.len()];
        for &u in units {
            if let Some(w) = want.get_mut(u) {
                *w = true;
            }
        }
        let mut core = Vec::new();
        if !self.cycle_where(&mut core, Some(&want)) {
            return Vec::new();
        }
        self.g.paradox_moves(&core)
    }

    /// Propagates from the pinned decisions and the initial bounds, without any backup rule;
    /// returns how many decisions are still open (0 when the pins decide the board, which
    /// they do when every MOVE and SUPPORT is pinned: every cycle of the graph passes through
    /// one of them).
    pub(crate) fn settle(mut self) -> usize {
        self.propagate();
        (0..self.g.nodes.len())
            .filter(|&id| self.g.lo[id] != self.g.hi[id])
            .count()
    }

    /// Resolves every decision; the values are left in the buffer. Returns the tracer.
    pub fn solve(mut self) -> T {
        if T::ON {
            let bounds = self
                .g
                .lo
                .iter()
                .copied()
                .zip(self.g.hi.iter().copied())
                .collect();
            self.tracer.event(Event::Start { bounds });
        }
        let mut cycle = Vec::new();
        loop {
            self.propagate();
            if !self.sink_cycle(&mut cycle) {
                break;
            }
            self.apply_backup(&cycle);
        }
        // Anything still open (should not happen) is settled pessimistically and reported.
        for id in 0..self.g.nodes.len() {
            if self.g.lo[id] != self.g.hi[id] {
                let from = (self.g.lo[id], self.g.hi[id]);
                self.g.hi[id] = self.g.lo[id];
                self.crowd_moved(id as u32, from);
                if T::ON {
                    self.tracer.event(Event::Tightened {
                        node: id as u32,
                        from,
                        to: (from.0, from.0),
                        inputs: Vec::new(),
                    });
                }
            }
        }
        self.tracer
    }
}
