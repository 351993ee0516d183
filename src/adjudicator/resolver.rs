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

use crate::board::Unit;
use crate::map::{Map, ProvinceId, ProvinceKind, UnitKind};
use crate::rules::{
    ConvoyedSelfAttack, DislodgedNoEffect, MultiRoute, Paradox, ParadoxFallback, Rules,
};

use super::legality::{Route, UnitOrder};
use super::trace::{BackupRule, CycleKind, Event, Tracer};

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

    /// The DATC name.
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
    /// Dependencies of each decision (the decisions its equation reads).
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
        let n = &self.ids[unit];
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
}

/// Static facts the equations read.
pub(crate) struct Board<'a> {
    pub map: &'a Map,
    pub units: &'a [Unit],
    pub orders: &'a [UnitOrder],
    pub rules: &'a Rules,
    /// Unit at each province.
    pub occ: Vec<Option<usize>>,
    here: Vec<ProvinceId>,
    /// Valid supports of each unit's move.
    move_supporters: Vec<Vec<usize>>,
    /// Valid hold supports of each unit.
    hold_supporters: Vec<Vec<usize>>,
    /// Units moving into each province.
    movers_into: Vec<Vec<usize>>,
    /// Valid convoying fleets of each army.
    convoy_fleets: Vec<Vec<usize>>,
}

impl<'a> Board<'a> {
    pub fn new(map: &'a Map, units: &'a [Unit], orders: &'a [UnitOrder], rules: &'a Rules) -> Self {
        let n = units.len();
        let occ = super::legality::occupancy(map, units);
        let here: Vec<ProvinceId> = units.iter().map(|u| map.province_of(u.loc)).collect();
        let mut move_supporters = vec![Vec::new(); n];
        let mut hold_supporters = vec![Vec::new(); n];
        let mut movers_into = vec![Vec::new(); map.province_count()];
        let mut convoy_fleets = vec![Vec::new(); n];
        for (u, o) in orders.iter().enumerate() {
            match o {
                UnitOrder::Support {
                    target,
                    dest,
                    void: None,
                } => match dest {
                    None => hold_supporters[*target].push(u),
                    Some(_) => move_supporters[*target].push(u),
                },
                UnitOrder::Move { dest, .. } => movers_into[dest.0 as usize].push(u),
                UnitOrder::Convoy {
                    army, void: None, ..
                } => convoy_fleets[*army].push(u),
                _ => {}
            }
        }
        Board {
            map,
            units,
            orders,
            rules,
            occ,
            here,
            move_supporters,
            hold_supporters,
            movers_into,
            convoy_fleets,
        }
    }

    /// Where the unit is.
    pub fn here(&self, u: usize) -> ProvinceId {
        self.here[u]
    }

    /// The units moving into a province.
    pub fn movers_into(&self, p: ProvinceId) -> &[usize] {
        &self.movers_into[p.0 as usize]
    }

    /// Valid supports of a unit's move.
    pub fn move_supporters(&self, u: usize) -> &[usize] {
        &self.move_supporters[u]
    }

    /// Valid hold supports of a unit.
    pub fn hold_supporters(&self, u: usize) -> &[usize] {
        &self.hold_supporters[u]
    }

    /// Valid convoying fleets for an army.
    pub fn convoy_fleets(&self, u: usize) -> &[usize] {
        &self.convoy_fleets[u]
    }

    fn move_of(&self, u: usize) -> Option<(ProvinceId, Route)> {
        match &self.orders[u] {
            UnitOrder::Move { dest, route, .. } => Some((*dest, *route)),
            _ => None,
        }
    }

    /// The unit at the destination of `u`'s move, if any.
    pub fn target_unit(&self, u: usize) -> Option<usize> {
        self.move_of(u).and_then(|(d, _)| self.occ[d.0 as usize])
    }

    /// Whether `t` moves to `u`'s province (an opposing move, head-to-head or by convoy).
    pub fn opposing(&self, u: usize, t: usize) -> bool {
        self.move_of(t).is_some_and(|(d, _)| d == self.here[u])
    }

    /// Fleets a convoy path of army `u` may use (valid, matching, not cancelled, on the written
    /// path if one counts).
    fn path_fleets(&self, u: usize, disabled: &[bool]) -> Vec<usize> {
        let path = match &self.orders[u] {
            UnitOrder::Move { path, .. } => path.clone(),
            _ => None,
        };
        self.convoy_fleets[u]
            .iter()
            .copied()
            .filter(|f| !disabled[*f])
            .filter(|f| path.as_ref().is_none_or(|p| p.contains(&self.here[*f])))
            .collect()
    }

    /// Whether the fleets `usable` form a chain from `u`'s province to its destination.
    fn chain(&self, u: usize, usable: &dyn Fn(usize) -> bool, fleets: &[usize]) -> bool {
        let Some((dest, _)) = self.move_of(u) else {
            return false;
        };
        let from = self.here[u];
        let map = self.map;
        let mut seen: Vec<usize> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        for &f in fleets {
            if usable(f) && map.provinces_adjacent(from, self.here[f]) {
                seen.push(f);
                stack.push(f);
            }
        }
        while let Some(f) = stack.pop() {
            if map.provinces_adjacent(self.here[f], dest) {
                return true;
            }
            for &g in fleets {
                if usable(g)
                    && !seen.contains(&g)
                    && map.provinces_adjacent(self.here[f], self.here[g])
                {
                    seen.push(g);
                    stack.push(g);
                }
            }
        }
        false
    }

    /// Fleets lying on some route of `u` among `fleets` (for the 1971 any-route rule).
    fn route_fleets(&self, u: usize, fleets: &[usize]) -> Vec<usize> {
        let Some((dest, _)) = self.move_of(u) else {
            return Vec::new();
        };
        let map = self.map;
        let reach = |start_adj: &dyn Fn(ProvinceId) -> bool| {
            let mut seen: Vec<usize> = Vec::new();
            let mut stack: Vec<usize> = Vec::new();
            for &f in fleets {
                if start_adj(self.here[f]) {
                    seen.push(f);
                    stack.push(f);
                }
            }
            while let Some(f) = stack.pop() {
                for &g in fleets {
                    if !seen.contains(&g) && map.provinces_adjacent(self.here[f], self.here[g]) {
                        seen.push(g);
                        stack.push(g);
                    }
                }
            }
            seen
        };
        let from = self.here[u];
        let a = reach(&|p| map.provinces_adjacent(from, p));
        let b = reach(&|p| map.provinces_adjacent(p, dest));
        a.into_iter().filter(|f| b.contains(f)).collect()
    }

    /// 2000/2023 rule: is fleet `f` necessary for army `u`'s convoy (on every route)?
    fn necessary(&self, u: usize, f: usize) -> bool {
        let fleets = &self.convoy_fleets[u];
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
                let p = dest.unwrap_or(self.here[*target]);
                self.map.province(p).kind == ProvinceKind::Sea
                    && self.occ[p.0 as usize].is_some_and(|f| {
                        matches!(self.orders[f], UnitOrder::Convoy { void: None, .. })
                    })
            }
            Paradox::Rule1971 => dest.is_some_and(|d| {
                self.occ[d.0 as usize].is_some_and(|f| self.convoy_fleets[c].contains(&f))
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

/// The resolver state.
pub(crate) struct Solver<'b, 'a, T: Tracer> {
    b: &'b Board<'a>,
    g: Graph,
    /// Szykman: fleets whose convoy is cancelled.
    disabled: Vec<bool>,
    /// All Hold: units whose move is forced to fail.
    forced_fail: Vec<bool>,
    fixed: Vec<bool>,
    dependents: Vec<Vec<u32>>,
    queue: std::collections::VecDeque<u32>,
    queued: Vec<bool>,
    pub tracer: T,
}

fn add(nodes: &mut Vec<Node>, kind: NodeKind, unit: usize) -> u32 {
    nodes.push(Node { kind, unit });
    (nodes.len() - 1) as u32
}

impl<'b, 'a, T: Tracer> Solver<'b, 'a, T> {
    pub fn new(b: &'b Board<'a>, tracer: T) -> Self {
        let n = b.units.len();
        let mut nodes = Vec::new();
        let mut ids = Vec::with_capacity(n);
        for u in 0..n {
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
                    un.mv = add(&mut nodes, NodeKind::Move, u);
                    un.attack = add(&mut nodes, NodeKind::Attack, u);
                    un.prevent = add(&mut nodes, NodeKind::Prevent, u);
                    un.defend = add(&mut nodes, NodeKind::Defend, u);
                    if *route != Route::Land {
                        un.path = add(&mut nodes, NodeKind::Path, u);
                    }
                }
                UnitOrder::Support { void: None, .. } => {
                    un.support = add(&mut nodes, NodeKind::Support, u);
                }
                _ => {}
            }
            un.dislodge = add(&mut nodes, NodeKind::Dislodge, u);
            un.hold = add(&mut nodes, NodeKind::Hold, u);
            ids.push(un);
        }
        let m = nodes.len();
        let mut g = Graph {
            nodes,
            deps: vec![Vec::new(); m],
            lo: vec![0; m],
            hi: vec![0; m],
            in_cycle: vec![false; m],
            forced: vec![false; m],
            ids,
        };
        // Initial bounds and dependencies.
        for id in 0..m {
            let node = g.nodes[id];
            let u = node.unit;
            let un = g.ids[u];
            let mut deps: Vec<u32> = Vec::new();
            let path_dep = |x: usize, deps: &mut Vec<u32>, ids: &[UnitNodes]| {
                if ids[x].path != NONE {
                    deps.push(ids[x].path);
                }
            };
            let hi = match node.kind {
                NodeKind::Move => {
                    deps.push(un.attack);
                    if let Some(t) = b.target_unit(u) {
                        deps.push(g.ids[t].hold);
                        if b.opposing(u, t) {
                            deps.push(g.ids[t].defend);
                            path_dep(t, &mut deps, &g.ids);
                        }
                    }
                    path_dep(u, &mut deps, &g.ids);
                    let (dest, _) = b.move_of(u).expect("mover");
                    for &c in b.movers_into(dest) {
                        if c != u {
                            deps.push(g.ids[c].prevent);
                        }
                    }
                    1
                }
                NodeKind::Attack | NodeKind::Prevent | NodeKind::Defend => {
                    for &s in b.move_supporters(u) {
                        deps.push(g.ids[s].support);
                    }
                    if node.kind != NodeKind::Defend {
                        path_dep(u, &mut deps, &g.ids);
                        if let Some(t) = b.target_unit(u) {
                            if node.kind == NodeKind::Attack && g.ids[t].mv != NONE {
                                deps.push(g.ids[t].mv);
                            }
                            if b.opposing(u, t) {
                                deps.push(g.ids[t].mv);
                                path_dep(t, &mut deps, &g.ids);
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
                        deps.push(g.ids[f].dislodge);
                    }
                    1
                }
                NodeKind::Support => {
                    for &c in b.movers_into(b.here(u)) {
                        deps.push(g.ids[c].attack);
                        deps.push(g.ids[c].mv);
                        path_dep(c, &mut deps, &g.ids);
                    }
                    1
                }
                NodeKind::Dislodge => {
                    for &c in b.movers_into(b.here(u)) {
                        deps.push(g.ids[c].mv);
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
                            deps.push(g.ids[s].support);
                        }
                        1 + b.hold_supporters(u).len() as i32
                    }
                }
            };
            deps.sort_unstable();
            deps.dedup();
            g.deps[id] = deps;
            g.hi[id] = hi;
        }
        let mut dependents = vec![Vec::new(); m];
        for (id, ds) in g.deps.iter().enumerate() {
            for &d in ds {
                dependents[d as usize].push(id as u32);
            }
        }
        Solver {
            b,
            g,
            disabled: vec![false; n],
            forced_fail: vec![false; n],
            fixed: vec![false; m],
            dependents,
            queue: (0..m as u32).collect(),
            queued: vec![true; m],
            tracer,
        }
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
        if self.forced_fail[u] {
            return Tri::F;
        }
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

    fn support_count(&self, u: usize, exclude_power: Option<crate::map::PowerId>) -> Iv {
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

    fn eval(&self, id: u32) -> Iv {
        let node = self.g.nodes[id as usize];
        let u = node.unit;
        let b = self.b;
        let ids = &self.g.ids;
        match node.kind {
            NodeKind::Attack => {
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
            NodeKind::Prevent => {
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
            NodeKind::Defend => {
                let all = self.support_count(u, None);
                Iv(1 + all.0, 1 + all.1)
            }
            NodeKind::Hold => {
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
            NodeKind::Move => {
                if self.forced_fail[u] {
                    return Iv(0, 0);
                }
                let a = self.iv(ids[u].attack);
                let (dest, _) = b.move_of(u).expect("mover");
                // Competitors: prevent strengths of other units moving to the same province.
                let mut comp_must = true; // attack surely beats every prevent
                let mut comp_can = true; // attack may beat every prevent
                for &c in b.movers_into(dest) {
                    if c == u {
                        continue;
                    }
                    let p = self.iv(ids[c].prevent);
                    comp_must &= a.0 > p.1;
                    comp_can &= a.1 > p.0;
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
            NodeKind::Dislodge => {
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
            NodeKind::Path => {
                let fleets = b.path_fleets(u, &self.disabled);
                let dis = |f: usize| {
                    (
                        self.g.lo[ids[f].dislodge as usize],
                        self.g.hi[ids[f].dislodge as usize],
                    )
                };
                match b.rules.multi_route_disruption {
                    MultiRoute::AllRoutes => {
                        let sure = b.chain(u, &|f| dis(f).1 == 0, &fleets);
                        let possible = b.chain(u, &|f| dis(f).0 == 0, &fleets);
                        Iv(i32::from(sure), i32::from(possible))
                    }
                    MultiRoute::AnyRoute => {
                        if !b.chain(u, &|_| true, &fleets) {
                            return Iv(0, 0);
                        }
                        let on_route = b.route_fleets(u, &fleets);
                        let sure = on_route.iter().all(|&f| dis(f).1 == 0);
                        let possible = on_route.iter().all(|&f| dis(f).0 == 0);
                        Iv(i32::from(sure), i32::from(possible))
                    }
                }
            }
            NodeKind::Support => {
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
                            && (!cv
                                || b.rules.convoyed_attack_on_supporter
                                    == ConvoyedSelfAttack::NotCut);
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
        }
    }

    fn push(&mut self, id: u32) {
        if !self.queued[id as usize] && !self.fixed[id as usize] {
            self.queued[id as usize] = true;
            self.queue.push_back(id);
        }
    }

    fn propagate(&mut self) {
        while let Some(id) = self.queue.pop_front() {
            self.queued[id as usize] = false;
            if self.fixed[id as usize] {
                continue;
            }
            let i = id as usize;
            let (olo, ohi) = (self.g.lo[i], self.g.hi[i]);
            if T::ON {
                self.tracer.event(Event::Visit { node: id });
            }
            let new = self.eval(id);
            // Bounds only tighten.
            let lo = new.0.max(olo);
            let hi = new.1.min(ohi).max(lo);
            if lo == olo && hi == ohi {
                continue;
            }
            self.g.lo[i] = lo;
            self.g.hi[i] = hi;
            if T::ON {
                let inputs = self.g.deps[i]
                    .iter()
                    .map(|&d| (d, self.g.lo[d as usize], self.g.hi[d as usize]))
                    .collect();
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
            for k in 0..self.dependents[i].len() {
                let d = self.dependents[i][k];
                self.push(d);
            }
        }
    }

    fn open(&self, id: u32) -> bool {
        self.g.lo[id as usize] != self.g.hi[id as usize]
    }

    /// A strongly connected component of open decisions that depends on no other open decision,
    /// found with an iterative Tarjan search. Returns the first non-trivial one.
    fn sink_cycle(&self) -> Option<Vec<u32>> {
        let m = self.g.nodes.len();
        let mut index = vec![u32::MAX; m];
        let mut low = vec![0u32; m];
        let mut on_stack = vec![false; m];
        let mut stack: Vec<u32> = Vec::new();
        let mut counter = 0u32;
        let mut call: Vec<(u32, usize)> = Vec::new();
        for root in 0..m as u32 {
            if !self.open(root) || index[root as usize] != u32::MAX {
                continue;
            }
            call.push((root, 0));
            index[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (v, ref mut k)) = call.last_mut() {
                let deps = &self.g.deps[v as usize];
                if *k < deps.len() {
                    let w = deps[*k];
                    *k += 1;
                    if !self.open(w) {
                        continue;
                    }
                    if index[w as usize] == u32::MAX {
                        index[w as usize] = counter;
                        low[w as usize] = counter;
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
                    let mut comp = Vec::new();
                    loop {
                        let w = stack.pop().expect("tarjan stack");
                        on_stack[w as usize] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = comp.len() > 1 || self.g.deps[v as usize].contains(&v);
                    if cyclic {
                        comp.sort_unstable();
                        return Some(comp);
                    }
                }
            }
        }
        None
    }

    fn force(&mut self, id: u32, value: i32, forced: &mut Vec<(u32, i32)>) {
        let i = id as usize;
        self.g.lo[i] = value;
        self.g.hi[i] = value;
        self.g.forced[i] = true;
        self.fixed[i] = true;
        forced.push((id, value));
        for k in 0..self.dependents[i].len() {
            let d = self.dependents[i][k];
            self.push(d);
        }
    }

    fn apply_backup(&mut self, cycle: &[u32]) {
        let b = self.b;
        let cancelled_before = self.disabled.iter().filter(|d| **d).count();
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
        let rule = if !paradox {
            let moves: Vec<u32> = cycle
                .iter()
                .copied()
                .filter(|&id| self.g.nodes[id as usize].kind == NodeKind::Move)
                .collect();
            if moves.is_empty() {
                // Not a circular movement (cannot happen with standard orders): everything in
                // the cycle fails.
                for &id in cycle {
                    if self.g.nodes[id as usize].kind.is_bool() {
                        self.force(id, 0, &mut forced);
                    }
                }
                BackupRule::AllFail
            } else {
                for id in moves {
                    self.force(id, 1, &mut forced);
                }
                BackupRule::CircularMovement
            }
        } else {
            let szykman = match b.rules.paradox {
                Paradox::Szykman => true,
                Paradox::AllHold => false,
                _ => b.rules.paradox_fallback == ParadoxFallback::Szykman,
            };
            if szykman {
                let mut fleets = Vec::new();
                for &id in cycle {
                    let n = self.g.nodes[id as usize];
                    if n.kind == NodeKind::Dislodge
                        && matches!(b.orders[n.unit], UnitOrder::Convoy { void: None, .. })
                        && !self.disabled[n.unit]
                    {
                        fleets.push(n.unit);
                    }
                }
                for &f in &fleets {
                    self.disabled[f] = true;
                }
                if T::ON {
                    self.tracer.event(Event::ConvoysCancelled {
                        fleets: fleets.clone(),
                    });
                }
                // The paths that used them: a path the cancellation decides is set by the rule
                // (and listed as forced); the others are evaluated again.
                let paths: Vec<u32> = (0..self.g.nodes.len() as u32)
                    .filter(|&id| self.g.nodes[id as usize].kind == NodeKind::Path && self.open(id))
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
                BackupRule::Szykman
            } else {
                let mut units: Vec<usize> = cycle
                    .iter()
                    .map(|&id| self.g.nodes[id as usize])
                    .filter(|n| {
                        matches!(
                            n.kind,
                            NodeKind::Move | NodeKind::Attack | NodeKind::Path | NodeKind::Prevent
                        )
                    })
                    .map(|n| n.unit)
                    .collect();
                units.sort_unstable();
                units.dedup();
                for &u in &units {
                    // A move that partial information already let succeed stays as it is; the
                    // others hold: no attack, no prevent, no move.
                    if self.g.lo[self.g.ids[u].mv as usize] == 1 {
                        continue;
                    }
                    self.forced_fail[u] = true;
                    let un = self.g.ids[u];
                    for id in [un.attack, un.prevent] {
                        if self.open(id) {
                            self.force(id, 0, &mut forced);
                        }
                    }
                    if self.open(un.mv) {
                        self.force(un.mv, 0, &mut forced);
                    }
                    if un.path != NONE && self.open(un.path) {
                        self.push(un.path);
                    }
                }
                BackupRule::AllHold
            }
        };
        // Guarantee progress: a rule that changed nothing (no value forced, no convoy cancelled)
        // would find the same cycle again; settle the cycle at its lower bounds instead.
        let cancelled = self.disabled.iter().filter(|d| **d).count();
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
                for &w in &self.g.deps[v as usize] {
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

    /// Resolves every decision.
    pub fn solve(mut self) -> (Graph, Vec<bool>, Vec<bool>, T) {
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
        loop {
            self.propagate();
            let Some(cycle) = self.sink_cycle() else {
                break;
            };
            self.apply_backup(&cycle);
        }
        // Anything still open (should not happen) is settled pessimistically and reported.
        for id in 0..self.g.nodes.len() {
            if self.g.lo[id] != self.g.hi[id] {
                let from = (self.g.lo[id], self.g.hi[id]);
                self.g.hi[id] = self.g.lo[id];
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
        (self.g, self.disabled, self.forced_fail, self.tracer)
    }
}
