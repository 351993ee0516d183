//! The equation oracle: every assignment of a movement phase's decisions that satisfies the
//! DATC 5.B equations, found by exhaustive search, with no backup rule.
//!
//! DATC 5.B.9: the decisions are equations; where they have exactly one solution, that solution
//! must be taken, and only where they have none or several does a backup rule (circular movement,
//! Szykman, …) decide. The [resolver](crate::engine::decision::resolver) gets there by partial
//! information and cycle detection; this module asks the question directly and independently of
//! it, sharing only the legality step ([`legality::prepare`]): it writes each equation out as
//! DATC 5.B states it (under the scenario's rule options) and enumerates the assignments of the
//! yes/no decisions — MOVE, SUPPORT and PATH; DISLODGE and the four strengths are derived from
//! them — that satisfy every equation.
//!
//! The search is exhaustive but not blind:
//! - the decisions fall apart into independent groups (no equation of one reads a decision of
//!   another), each searched on its own, so the number of solutions is the product of the groups';
//! - within a group, decisions are taken in dependency order (strongly connected components,
//!   dependencies first), and a decision whose inputs are all known is computed, not guessed —
//!   only decisions on a dependency cycle are ever guessed, and a guess is checked against its
//!   equation as soon as the equation's inputs are known.
//!
//! Every solution found is verified against every equation of its group before it is counted.
//! A position whose cycles need more guesses than [`Limits::steps`] allows is reported as too
//! large rather than searched for ever. Nothing recurses: the dependency ordering and the search
//! use explicit stacks.
//!
//! ```
//! use dipsandbox_core::tools::oracle::{solve, Limits};
//! use dipsandbox_core::model::scenario::Scenario;
//!
//! let s = Scenario::builtin().unwrap(); // Pandin's paradox (DATC 6.F.16)
//! let o = solve(&s.map, &s.units, &s.orders, &s.rules, Limits::default()).unwrap();
//! // A convoy that succeeds is disrupted; one that is disrupted succeeds: no solution, so the
//! // backup rule (Szykman's) decides.
//! assert_eq!(o.count, 0);
//! ```

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): decision and group indices
// are made while the equations are built and index tables of exactly that length; unit indices and
// province ids come from the prepared board the tables were sized from.
#![allow(clippy::indexing_slicing)]

use std::cell::RefCell;

use crate::engine::MovementResult;
use crate::engine::decision::resolver::NodeKind;
use crate::engine::legality::{self, Route, UnitOrder};
use crate::model::board::Unit;
use crate::model::map::{Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::Submitted;
use crate::model::rules::{ConvoyedSelfAttack, DislodgedNoEffect, MultiRoute, Paradox, Rules};

const NONE: u32 = u32::MAX;

/// How far the search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most guesses (search nodes) over all groups before giving up.
    pub steps: u64,
    /// The most solutions kept per group (all are counted).
    pub kept: usize,
}

impl Default for Limits {
    /// A million guesses (well under a second), 64 solutions kept per group.
    fn default() -> Self {
        Limits {
            steps: 1_000_000,
            kept: 64,
        }
    }
}

/// Why the oracle gave no answer.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OracleError {
    /// The search needed more guesses than allowed.
    #[error(
        "too large for exhaustive search: more than {steps} guesses (a group of {decisions} decisions, {cyclic} of them on dependency cycles); no count is given"
    )]
    TooLarge {
        /// The limit that was reached.
        steps: u64,
        /// The decisions of the group being searched.
        decisions: usize,
        /// How many of them lie on cycles.
        cyclic: usize,
    },
}

/// A yes/no decision the search assigns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// MOVE, SUPPORT or PATH.
    pub kind: NodeKind,
    /// The unit (index into the position's units).
    pub unit: usize,
}

/// A set of decisions whose equations read only each other: searched on its own.
#[derive(Clone, Debug)]
pub struct Group {
    /// The decisions (indices into [`Oracle::decisions`]), in dependency order.
    pub decisions: Vec<u32>,
    /// The decisions of the group that lie on a dependency cycle.
    pub cyclic: Vec<u32>,
    /// How many assignments of the group satisfy its equations.
    pub count: u64,
    /// The first solutions (up to [`Limits::kept`]), one value per entry of `decisions`.
    pub solutions: Vec<Vec<bool>>,
}

/// Everything the oracle found about a movement phase.
#[derive(Clone, Debug)]
pub struct Oracle {
    /// Every yes/no decision of the phase.
    pub decisions: Vec<Decision>,
    /// The independent groups, in the order of their first decision.
    pub groups: Vec<Group>,
    /// Solutions of the whole phase: the product of the groups' counts (saturating).
    pub count: u128,
    /// Guesses made.
    pub steps: u64,
    /// Per unit, the submitted order that applies to it (from the legality step).
    pub source: Vec<Option<usize>>,
    /// The equations, to derive strengths and dislodgements from an assignment.
    eqs: Equations,
}

/// The values of one unit's decisions in a solution, with everything derived from them. A field
/// is `None` where the unit has no such decision, or where it reads a group with no solution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitValues {
    /// MOVE (movers).
    pub moves: Option<bool>,
    /// SUPPORT (valid, matching supports).
    pub support: Option<bool>,
    /// PATH (moves that may go by convoy).
    pub path: Option<bool>,
    /// DISLODGE.
    pub dislodged: Option<bool>,
    /// ATTACK STRENGTH (movers).
    pub attack: Option<i32>,
    /// HOLD STRENGTH of the unit's province.
    pub hold: Option<i32>,
    /// PREVENT STRENGTH (movers).
    pub prevent: Option<i32>,
    /// DEFEND STRENGTH (movers).
    pub defend: Option<i32>,
}

impl UnitValues {
    /// Each decision with its value (1/0 for yes/no decisions), in DATC order; `None` where
    /// the unit has no such decision or its value is not known.
    pub fn entries(&self) -> [(NodeKind, Option<i32>); 8] {
        let b = |x: Option<bool>| x.map(i32::from);
        [
            (NodeKind::Move, b(self.moves)),
            (NodeKind::Support, b(self.support)),
            (NodeKind::Dislodge, b(self.dislodged)),
            (NodeKind::Path, b(self.path)),
            (NodeKind::Attack, self.attack),
            (NodeKind::Hold, self.hold),
            (NodeKind::Prevent, self.prevent),
            (NodeKind::Defend, self.defend),
        ]
    }
}

/// A decision on which the resolver and the oracle's only solution differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The unit.
    pub unit: usize,
    /// The decision.
    pub kind: NodeKind,
    /// The oracle's value.
    pub oracle: Option<i32>,
    /// The resolver's value.
    pub resolver: Option<i32>,
}

/// How the resolver's result stands against the equations (DATC 5.B.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// One solution, and the resolver returned it without a backup rule.
    TakesTheSolution,
    /// None or several solutions, and the resolver applied a backup rule.
    BackupDecides,
    /// One solution, but the resolver's values differ from it.
    Differs(Vec<Disagreement>),
    /// One solution, but the resolver applied a backup rule anyway.
    NeedlessBackup,
    /// None or several solutions, but the resolver applied no backup rule.
    MissingBackup,
}

impl Agreement {
    /// Whether the resolver did what DATC 5.B.9 asks.
    pub fn is_agreement(&self) -> bool {
        matches!(self, Agreement::TakesTheSolution | Agreement::BackupDecides)
    }
}

impl Oracle {
    /// The values of every unit's decisions with `pick[g]` the solution taken for group `g`
    /// (an index into its kept solutions; `None`, or an index out of range, leaves the group's
    /// decisions unknown, and so whatever is derived from them).
    pub fn values(&self, pick: &[Option<usize>]) -> Vec<UnitValues> {
        let mut a: Vec<Option<bool>> = vec![None; self.decisions.len()];
        for (g, group) in self.groups.iter().enumerate() {
            let Some(sol) = pick
                .get(g)
                .copied()
                .flatten()
                .and_then(|k| group.solutions.get(k))
            else {
                continue;
            };
            for (k, &d) in group.decisions.iter().enumerate() {
                a[d as usize] = sol.get(k).copied();
            }
        }
        let vals = Partial(&a);
        let e = &self.eqs;
        (0..e.n)
            .map(|u| {
                let var = |v: u32| if v == NONE { None } else { vals.get(v) };
                let mover = e.is_mover(u);
                let if_mover = |x: Option<i32>| if mover { x } else { None };
                UnitValues {
                    moves: var(e.var_move[u]),
                    support: var(e.var_support[u]),
                    path: var(e.var_path[u]),
                    dislodged: e.dislodged(u, &vals),
                    attack: if_mover(e.attack(u, &vals)),
                    hold: e.hold(e.here[u], &vals),
                    prevent: if_mover(e.prevent(u, &vals)),
                    defend: if_mover(e.defend(u, &vals)),
                }
            })
            .collect()
    }

    /// The whole phase's only solution, when there is exactly one.
    pub fn unique(&self) -> Option<Vec<UnitValues>> {
        (self.count == 1).then(|| self.values(&vec![Some(0); self.groups.len()]))
    }

    /// The values of each kept solution of group `g`, the other groups at their first
    /// solution (or unknown, for a group with none).
    pub fn group_values(&self, g: usize) -> Vec<Vec<UnitValues>> {
        let Some(group) = self.groups.get(g) else {
            return Vec::new();
        };
        let base: Vec<Option<usize>> = self
            .groups
            .iter()
            .map(|h| (!h.solutions.is_empty()).then_some(0))
            .collect();
        (0..group.solutions.len())
            .map(|k| {
                let mut pick = base.clone();
                pick[g] = Some(k);
                self.values(&pick)
            })
            .collect()
    }

    /// The groups with no solution or with several (by index): where a backup rule must decide.
    pub fn undecided(&self) -> impl Iterator<Item = (usize, &Group)> {
        self.groups.iter().enumerate().filter(|(_, g)| g.count != 1)
    }

    /// The resolver's result against the equations: DATC 5.B.9 asks that a lone solution be
    /// taken, without a backup rule, and that a backup rule decide where there is none or
    /// several.
    pub fn judge(&self, r: &MovementResult) -> Agreement {
        let backup = r.backup_applied();
        let Some(values) = self.unique() else {
            return if backup {
                Agreement::BackupDecides
            } else {
                Agreement::MissingBackup
            };
        };
        let mut diffs = Vec::new();
        for (u, v) in values.iter().enumerate() {
            for (kind, ours) in v.entries() {
                let theirs = r.graph.node_of(u, kind).map(|id| r.graph.value(id));
                if ours != theirs {
                    diffs.push(Disagreement {
                        unit: u,
                        kind,
                        oracle: ours,
                        resolver: theirs,
                    });
                }
            }
        }
        if !diffs.is_empty() {
            Agreement::Differs(diffs)
        } else if backup {
            Agreement::NeedlessBackup
        } else {
            Agreement::TakesTheSolution
        }
    }
}

/// Finds every solution of the DATC 5.B equations of a movement phase under `rules`.
pub fn solve<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    limits: Limits,
) -> Result<Oracle, OracleError> {
    let prepared = legality::prepare(map, units, orders, rules);
    let eqs = Equations::new(map, units, &prepared.orders, rules);
    let m = eqs.decisions.len();

    // What each equation reads: evaluated once with every decision known (false), recording.
    let mut deps: Vec<Vec<u32>> = Vec::with_capacity(m);
    for v in 0..m as u32 {
        let rec = Recording(RefCell::new(Vec::new()));
        let _ = eqs.eval(v, &rec);
        let mut d = rec.0.into_inner();
        d.sort_unstable();
        d.dedup();
        deps.push(d);
    }

    let order = dependency_order(&deps);
    let (comp, cyclic) = (order.component, order.cyclic);

    // Independent groups: connected components of the dependency graph, taken undirected.
    let mut uf = UnionFind::new(m);
    for (v, ds) in deps.iter().enumerate() {
        for &d in ds {
            uf.union(v, d as usize);
        }
    }
    let mut group_of: Vec<u32> = vec![NONE; m];
    let mut groups: Vec<Group> = Vec::new();
    for v in 0..m {
        let r = uf.find(v);
        if group_of[r] == NONE {
            group_of[r] = groups.len() as u32;
            groups.push(Group {
                decisions: Vec::new(),
                cyclic: Vec::new(),
                count: 0,
                solutions: Vec::new(),
            });
        }
    }
    // Decisions in dependency order, into their groups.
    for &v in &order.topo {
        let g = group_of[uf.find(v as usize)] as usize;
        groups[g].decisions.push(v);
        if cyclic[comp[v as usize] as usize] {
            groups[g].cyclic.push(v);
        }
    }
    for g in &mut groups {
        g.cyclic.sort_unstable();
    }

    let mut steps = 0u64;
    let mut count: u128 = 1;
    for g in &mut groups {
        search(&eqs, g, &mut steps, limits)?;
        count = count.saturating_mul(u128::from(g.count));
    }
    Ok(Oracle {
        decisions: eqs.decisions.clone(),
        groups,
        count,
        steps,
        source: prepared.source,
        eqs,
    })
}

// ---------------------------------------------------------------------------------------------
// The equations.
// ---------------------------------------------------------------------------------------------

/// A source of decision values: `None` for a decision not known yet.
trait Values {
    fn get(&self, v: u32) -> Option<bool>;
}

/// A partial assignment.
struct Partial<'a>(&'a [Option<bool>]);

impl Values for Partial<'_> {
    fn get(&self, v: u32) -> Option<bool> {
        self.0.get(v as usize).copied().flatten()
    }
}

/// Records what an equation reads (answering `false` to everything).
struct Recording(RefCell<Vec<u32>>);

impl Values for Recording {
    fn get(&self, v: u32) -> Option<bool> {
        self.0.borrow_mut().push(v);
        Some(false)
    }
}

/// The facts the equations read, computed from the classed orders. Every equation reads all of
/// its inputs before it looks at any value, so what it reads does not depend on the values —
/// which is what lets [`Recording`] find the dependencies.
#[derive(Clone, Debug)]
struct Equations {
    n: usize,
    decisions: Vec<Decision>,
    var_move: Vec<u32>,
    var_support: Vec<u32>,
    var_path: Vec<u32>,
    power: Vec<PowerId>,
    here: Vec<ProvinceId>,
    /// Per unit: destination and route of its move.
    mv: Vec<Option<(ProvinceId, Route)>>,
    /// Per unit: the supported unit and the supported move's destination (None: hold).
    sup: Vec<Option<(usize, Option<ProvinceId>)>>,
    /// Unit at each province.
    at: Vec<Option<usize>>,
    /// Units ordered to move into each province.
    into: Vec<Vec<usize>>,
    /// Per province, how many of the units moving into it have a PREVENT STRENGTH that reads
    /// no decision ([`Equations::prevent_fixed`]: it is 1), and the others, in order: a MOVE
    /// equation counts the first and reads only the second, so that k units moving into one
    /// province cost k, not k².
    fixed_into: Vec<u32>,
    varying_into: Vec<Vec<usize>>,
    /// Valid, matching supports of each unit's move, and of each unit's hold.
    move_support: Vec<Vec<usize>>,
    hold_support: Vec<Vec<usize>>,
    /// Fleets with a valid, matching convoy order for each army (all of them).
    convoys: Vec<Vec<usize>>,
    /// The same, restricted to the army's written path where the rules make it count: the
    /// fleets its PATH may use.
    usable: Vec<Vec<usize>>,
    /// Per unit: whether an army convoyed by it to a supporter's province is kept from cutting
    /// that support by the paradox rule, as a list of (army, supporter) pairs.
    exempt: Vec<(usize, usize)>,
    /// Province adjacency for convoy chains (fleet to fleet, coast to fleet).
    adjacent: Vec<Vec<ProvinceId>>,
    rules: Rules,
}

impl Equations {
    fn new(map: &Map, units: &[Unit], orders: &[UnitOrder], rules: &Rules) -> Equations {
        let n = units.len();
        let np = map.province_count();
        let here: Vec<ProvinceId> = units.iter().map(|u| map.province_of(u.loc)).collect();
        let mut at = vec![None; np];
        for (u, p) in here.iter().enumerate() {
            at[p.0 as usize] = Some(u);
        }
        let mut decisions = Vec::new();
        let mut var_move = vec![NONE; n];
        let mut var_support = vec![NONE; n];
        let mut var_path = vec![NONE; n];
        let mut mv = vec![None; n];
        let mut sup = vec![None; n];
        let mut into = vec![Vec::new(); np];
        let mut move_support = vec![Vec::new(); n];
        let mut hold_support = vec![Vec::new(); n];
        let mut convoys = vec![Vec::new(); n];
        let mut new_var = |kind: NodeKind, unit: usize| {
            decisions.push(Decision { kind, unit });
            (decisions.len() - 1) as u32
        };
        for (u, o) in orders.iter().enumerate() {
            match o {
                UnitOrder::Move { dest, route, .. } => {
                    var_move[u] = new_var(NodeKind::Move, u);
                    if *route != Route::Land {
                        var_path[u] = new_var(NodeKind::Path, u);
                    }
                    mv[u] = Some((*dest, *route));
                    into[dest.0 as usize].push(u);
                }
                UnitOrder::Support {
                    target,
                    dest,
                    void: None,
                } => {
                    var_support[u] = new_var(NodeKind::Support, u);
                    sup[u] = Some((*target, *dest));
                    match dest {
                        Some(_) => move_support[*target].push(u),
                        None => hold_support[*target].push(u),
                    }
                }
                UnitOrder::Convoy {
                    army, void: None, ..
                } => convoys[*army].push(u),
                _ => {}
            }
        }
        let usable: Vec<Vec<usize>> = (0..n)
            .map(|u| match &orders[u] {
                UnitOrder::Move {
                    path: Some(path), ..
                } => convoys[u]
                    .iter()
                    .copied()
                    .filter(|f| path.contains(&here[*f]))
                    .collect(),
                _ => convoys[u].clone(),
            })
            .collect();
        // Shared borders (army or fleet, any coast), from each province's neighbour lists.
        let adjacent: Vec<Vec<ProvinceId>> = map
            .province_ids()
            .map(|p| {
                let mut ns: Vec<ProvinceId> = map.army_neighbours(p).to_vec();
                for l in map.locations_of(p) {
                    ns.extend(map.fleet_neighbours(l).iter().map(|m| map.province_of(*m)));
                }
                ns.sort_unstable();
                ns.dedup();
                ns.retain(|&q| q != p);
                ns
            })
            .collect();
        let mut e = Equations {
            n,
            decisions,
            var_move,
            var_support,
            var_path,
            power: units.iter().map(|u| u.power).collect(),
            here,
            mv,
            sup,
            at,
            into,
            fixed_into: vec![0; np],
            varying_into: vec![Vec::new(); np],
            move_support,
            hold_support,
            convoys,
            usable,
            exempt: Vec::new(),
            adjacent,
            rules: *rules,
        };
        e.exempt = e.paradox_exemptions(map, units, orders);
        for u in 0..n {
            let Some((dest, _)) = e.mv[u] else {
                continue;
            };
            let d = dest.0 as usize;
            if e.prevent_fixed(u) {
                e.fixed_into[d] += 1;
            } else {
                e.varying_into[d].push(u);
            }
        }
        e
    }

    /// Whether the PREVENT STRENGTH of mover `u` reads no decision: its move goes over land
    /// (or may), no unit supports it and no unit moves the other way. It is then 1.
    fn prevent_fixed(&self, u: usize) -> bool {
        self.mv[u].is_some_and(|(_, r)| r != Route::Convoy)
            && self.move_support[u].is_empty()
            && !self.target(u).is_some_and(|t| self.opposes(u, t))
    }

    fn is_mover(&self, u: usize) -> bool {
        self.mv[u].is_some()
    }

    fn adj(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.adjacent[a.0 as usize].binary_search(&b).is_ok()
    }

    /// Whether fleets `fleets` (those for which `ok` holds) chain from `from` to `to`.
    fn chain(&self, from: ProvinceId, to: ProvinceId, fleets: &[usize], ok: &[bool]) -> bool {
        let mut reached = vec![false; fleets.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (i, &f) in fleets.iter().enumerate() {
            if ok[i] && self.adj(from, self.here[f]) {
                reached[i] = true;
                stack.push(i);
            }
        }
        while let Some(i) = stack.pop() {
            let p = self.here[fleets[i]];
            if self.adj(p, to) {
                return true;
            }
            for (j, &g) in fleets.iter().enumerate() {
                if ok[j] && !reached[j] && self.adj(p, self.here[g]) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        false
    }

    /// The fleets among `fleets` reachable from `start`'s side: those a chain from a fleet
    /// adjacent to `start` reaches.
    fn reach(&self, start: ProvinceId, fleets: &[usize]) -> Vec<bool> {
        let mut reached = vec![false; fleets.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (i, &f) in fleets.iter().enumerate() {
            if self.adj(start, self.here[f]) {
                reached[i] = true;
                stack.push(i);
            }
        }
        while let Some(i) = stack.pop() {
            let p = self.here[fleets[i]];
            for (j, &g) in fleets.iter().enumerate() {
                if !reached[j] && self.adj(p, self.here[g]) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        reached
    }

    /// DATC 4.A.2: the (convoyed army, supporter) pairs in which the paradox rule in force keeps
    /// the army, when it comes by convoy, from cutting the support — by attack or by dislodging
    /// the supporter (the rule takes precedence over the dislodge rule, 6.F.17).
    fn paradox_exemptions(
        &self,
        map: &Map,
        units: &[Unit],
        orders: &[UnitOrder],
    ) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for s in 0..self.n {
            let Some((target, dest)) = self.sup[s] else {
                continue;
            };
            for &c in &self.into[self.here[s].0 as usize] {
                let Some((_, route)) = self.mv[c] else {
                    continue;
                };
                if route == Route::Land || units[c].kind != UnitKind::Army {
                    continue;
                }
                let exempt = match self.rules.paradox {
                    Paradox::Szykman | Paradox::AllHold => false,
                    // 1971: "a fleet which is supporting a fleet which is attacking one of the
                    // convoy fleets".
                    Paradox::Rule1971 => dest.is_some_and(|d| {
                        self.at[d.0 as usize].is_some_and(|f| self.convoys[c].contains(&f))
                    }),
                    // 1982: "supporting an action in a body of water; and that body of water
                    // contains a convoying fleet" (a fleet with a valid, matching convoy order).
                    Paradox::Rule1982 => {
                        let p = dest.unwrap_or(self.here[target]);
                        map.province(p).kind == ProvinceKind::Sea
                            && self.at[p.0 as usize].is_some_and(|f| {
                                matches!(orders[f], UnitOrder::Convoy { void: None, .. })
                            })
                    }
                    // 2000/2023: "an attack against one of the fleets necessary for the army to
                    // convoy": a fleet on every route of the fleets the army may use.
                    Paradox::Rule2000 => dest.is_some_and(|d| {
                        self.at[d.0 as usize].is_some_and(|f| self.necessary(c, f))
                    }),
                };
                if exempt {
                    out.push((c, s));
                }
            }
        }
        out
    }

    /// Whether fleet `f` is on every convoy route of army `c` (and there is one).
    fn necessary(&self, c: usize, f: usize) -> bool {
        let Some((dest, _)) = self.mv[c] else {
            return false;
        };
        let fleets = &self.usable[c];
        if !fleets.contains(&f) {
            return false;
        }
        let all = vec![true; fleets.len()];
        let without: Vec<bool> = fleets.iter().map(|&g| g != f).collect();
        self.chain(self.here[c], dest, fleets, &all)
            && !self.chain(self.here[c], dest, fleets, &without)
    }

    fn var(&self, v: u32, a: &impl Values) -> Option<bool> {
        a.get(v)
    }

    /// MOVE of a mover.
    fn moves(&self, u: usize, a: &impl Values) -> Option<bool> {
        self.var(self.var_move[u], a)
    }

    /// Whether the move can reach its destination at all: a move that must go by convoy needs
    /// its PATH; one that may go either way falls back to the land route.
    fn reaches(&self, u: usize, a: &impl Values) -> Option<bool> {
        match self.mv[u] {
            Some((_, Route::Convoy)) => self.var(self.var_path[u], a),
            Some(_) => Some(true),
            None => Some(false),
        }
    }

    /// Whether the move goes by convoy.
    fn by_convoy(&self, u: usize, a: &impl Values) -> Option<bool> {
        match self.mv[u] {
            Some((_, Route::Convoy)) => Some(true),
            Some((_, Route::ConvoyOrLand)) => self.var(self.var_path[u], a),
            _ => Some(false),
        }
    }

    /// The unit at the destination of `u`'s move.
    fn target(&self, u: usize) -> Option<usize> {
        self.mv[u].and_then(|(d, _)| self.at[d.0 as usize])
    }

    /// Whether `t` is ordered to move to `u`'s province.
    fn opposes(&self, u: usize, t: usize) -> bool {
        self.mv[t].is_some_and(|(d, _)| d == self.here[u])
    }

    /// Head to head: `u` and its target move to each other's province, neither by convoy.
    fn head_to_head(&self, u: usize, t: usize, a: &impl Values) -> Option<bool> {
        if !self.opposes(u, t) {
            return Some(false);
        }
        let cu = self.by_convoy(u, a)?;
        let ct = self.by_convoy(t, a)?;
        Some(!cu && !ct)
    }

    /// Given supports of `u`'s move, not counting supporters of `except`'s power.
    fn supports(&self, u: usize, except: Option<PowerId>, a: &impl Values) -> Option<i32> {
        let mut k = 0;
        for &s in &self.move_support[u] {
            let given = self.var(self.var_support[s], a)?;
            if given && except != Some(self.power[s]) {
                k += 1;
            }
        }
        Some(k)
    }

    /// 5.B.4 ATTACK STRENGTH.
    fn attack(&self, u: usize, a: &impl Values) -> Option<i32> {
        let reaches = self.reaches(u, a)?;
        let all = self.supports(u, None, a)?;
        let Some(t) = self.target(u) else {
            return Some(if reaches { 1 + all } else { 0 });
        };
        let foreign = self.supports(u, Some(self.power[t]), a)?;
        let t_moves = if self.is_mover(t) {
            self.moves(t, a)?
        } else {
            false
        };
        let hth = self.head_to_head(u, t, a)?;
        Some(if !reaches {
            0
        } else if t_moves && !hth {
            // "Empty": the unit in the target area moves away, not head to head.
            1 + all
        } else if self.power[t] == self.power[u] {
            0
        } else {
            1 + foreign
        })
    }

    /// 5.B.5 HOLD STRENGTH of a province.
    fn hold(&self, p: ProvinceId, a: &impl Values) -> Option<i32> {
        let Some(t) = self.at[p.0 as usize] else {
            return Some(0);
        };
        if self.is_mover(t) {
            return Some(if self.moves(t, a)? { 0 } else { 1 });
        }
        let mut k = 1;
        for &s in &self.hold_support[t] {
            if self.var(self.var_support[s], a)? {
                k += 1;
            }
        }
        Some(k)
    }

    /// 5.B.6 PREVENT STRENGTH, with 4.A.7.
    fn prevent(&self, u: usize, a: &impl Values) -> Option<i32> {
        let reaches = self.reaches(u, a)?;
        let all = self.supports(u, None, a)?;
        let opposing = self.target(u).filter(|&t| self.opposes(u, t));
        let beaten = match opposing {
            None => false,
            Some(t) => {
                let t_moves = self.moves(t, a)?;
                match self.rules.dislodged_no_effect {
                    // Zero when it loses a head-to-head battle.
                    DislodgedNoEffect::HeadToHeadOnly => self.head_to_head(u, t, a)? && t_moves,
                    // Zero whenever it fails and the opposing unit moves in (it is dislodged
                    // by the unit from the province it moves to).
                    DislodgedNoEffect::Always => !self.moves(u, a)? && t_moves,
                }
            }
        };
        Some(if !reaches || beaten { 0 } else { 1 + all })
    }

    /// 5.B.7 DEFEND STRENGTH.
    fn defend(&self, u: usize, a: &impl Values) -> Option<i32> {
        Some(1 + self.supports(u, None, a)?)
    }

    /// 5.B.3 DISLODGE: some unit moves in, and the unit does not move out.
    fn dislodged(&self, u: usize, a: &impl Values) -> Option<bool> {
        let mut entered = false;
        for &c in &self.into[self.here[u].0 as usize] {
            entered |= self.moves(c, a)?;
        }
        let left = if self.is_mover(u) {
            self.moves(u, a)?
        } else {
            false
        };
        Some(entered && !left)
    }

    /// 5.B.1 MOVE.
    fn move_equation(&self, u: usize, a: &impl Values) -> Option<bool> {
        let (dest, _) = self.mv[u]?;
        let attack = self.attack(u, a)?;
        let against = match self.target(u) {
            None => 0,
            Some(t) => {
                let hold = self.hold(dest, a)?;
                if self.opposes(u, t) {
                    let defend = self.defend(t, a)?;
                    if self.head_to_head(u, t, a)? {
                        defend
                    } else {
                        hold
                    }
                } else {
                    hold
                }
            }
        };
        // The others' PREVENT STRENGTHs: those that read no decision are 1 (counted), the
        // others evaluated.
        let d = dest.0 as usize;
        let fixed = self.fixed_into[d] - u32::from(self.prevent_fixed(u));
        let mut prevent = i32::from(fixed > 0);
        for &c in &self.varying_into[d] {
            if c != u {
                prevent = prevent.max(self.prevent(c, a)?);
            }
        }
        Some(attack > against && attack > prevent)
    }

    /// 5.B.2 SUPPORT, with 4.A.4 and the paradox rule of 4.A.2.
    fn support_equation(&self, s: usize, a: &impl Values) -> Option<bool> {
        let (_, dest) = self.sup[s]?;
        let mut cut = false;
        for &c in &self.into[self.here[s].0 as usize] {
            let attack = self.attack(c, a)?;
            let enters = self.moves(c, a)?;
            let convoyed = self.by_convoy(c, a)?;
            // The unit at the supported move's destination cannot cut it (unless it comes by
            // convoy and 4.A.4 says such an attack cuts).
            let from_dest = dest == Some(self.here[c])
                && (!convoyed
                    || self.rules.convoyed_attack_on_supporter == ConvoyedSelfAttack::NotCut);
            let paradox = convoyed && self.exempt.contains(&(c, s));
            if paradox {
                continue;
            }
            // Cut by an attack with strength, or by being dislodged (5.B.2's dislodge rule).
            cut |= (attack > 0 && !from_dest) || enters;
        }
        Some(!cut)
    }

    /// 5.B.8 PATH, with 4.A.1.
    fn path_equation(&self, u: usize, a: &impl Values) -> Option<bool> {
        let (dest, _) = self.mv[u]?;
        let fleets = &self.usable[u];
        let mut sustains = Vec::with_capacity(fleets.len());
        for &f in fleets {
            sustains.push(!self.dislodged(f, a)?);
        }
        let from = self.here[u];
        Some(match self.rules.multi_route_disruption {
            MultiRoute::AllRoutes => self.chain(from, dest, fleets, &sustains),
            MultiRoute::AnyRoute => {
                // Disrupted when any fleet on any route is dislodged.
                let all = vec![true; fleets.len()];
                if !self.chain(from, dest, fleets, &all) {
                    false
                } else {
                    let a_side = self.reach(from, fleets);
                    let b_side = self.reach(dest, fleets);
                    (0..fleets.len()).all(|i| !(a_side[i] && b_side[i]) || sustains[i])
                }
            }
        })
    }

    /// The equation of decision `v`: the value it must have, given the others.
    fn eval(&self, v: u32, a: &impl Values) -> Option<bool> {
        let d = self.decisions[v as usize];
        match d.kind {
            NodeKind::Move => self.move_equation(d.unit, a),
            NodeKind::Support => self.support_equation(d.unit, a),
            NodeKind::Path => self.path_equation(d.unit, a),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Dependency order and groups.
// ---------------------------------------------------------------------------------------------

struct DependencyOrder {
    /// Decisions, dependencies first (strongly connected components in reverse topological
    /// order of the reads-from relation).
    topo: Vec<u32>,
    /// Component of each decision.
    component: Vec<u32>,
    /// Per component: whether it is a cycle (several decisions, or one that reads itself).
    cyclic: Vec<bool>,
}

/// Tarjan's strongly connected components, iteratively. Components come out dependencies first.
fn dependency_order(deps: &[Vec<u32>]) -> DependencyOrder {
    let m = deps.len();
    let mut index = vec![NONE; m];
    let mut low = vec![0u32; m];
    let mut on_stack = vec![false; m];
    let mut stack: Vec<u32> = Vec::new();
    let mut component = vec![NONE; m];
    let mut cyclic: Vec<bool> = Vec::new();
    let mut topo = Vec::with_capacity(m);
    let mut counter = 0u32;
    let mut call: Vec<(u32, usize)> = Vec::new();
    for root in 0..m as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, 0));
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            let vi = v as usize;
            if let Some(&w) = deps[vi].get(*k) {
                *k += 1;
                let wi = w as usize;
                if index[wi] == NONE {
                    index[wi] = counter;
                    low[wi] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    call.push((w, 0));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                let pi = parent as usize;
                low[pi] = low[pi].min(low[vi]);
            }
            if low[vi] == index[vi] {
                let c = cyclic.len() as u32;
                let start = topo.len();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    component[w as usize] = c;
                    topo.push(w);
                    if w == v {
                        break;
                    }
                }
                let size = topo.len() - start;
                cyclic.push(size > 1 || deps[vi].contains(&v));
            }
        }
    }
    DependencyOrder {
        topo,
        component,
        cyclic,
    }
}

struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The search.
// ---------------------------------------------------------------------------------------------

/// Enumerates the solutions of one group: depth-first over its decisions in dependency order,
/// computing each decision whose inputs are known and guessing (false, then true) the first
/// one that is not; a guess is checked as soon as its equation can be evaluated.
fn search(
    eqs: &Equations,
    group: &mut Group,
    steps: &mut u64,
    limits: Limits,
) -> Result<(), OracleError> {
    let vars = &group.decisions;
    let mut a: Vec<Option<bool>> = vec![None; eqs.decisions.len()];
    // Assignments made, in order, to undo on backtracking.
    let mut trail: Vec<u32> = Vec::new();
    // Guessed decisions whose equation has not been checked yet.
    let mut pending: Vec<u32> = Vec::new();
    // Each guess: (decision, trail length before it, pending before it, value guessed).
    let mut guesses: Vec<(u32, usize, Vec<u32>, bool)> = Vec::new();
    let too_large = || OracleError::TooLarge {
        steps: limits.steps,
        decisions: vars.len(),
        cyclic: group.cyclic.len(),
    };
    loop {
        // Compute what can be computed; check what was guessed.
        let consistent = 'prop: loop {
            let mut changed = false;
            for &v in vars {
                if a[v as usize].is_none()
                    && let Some(x) = eqs.eval(v, &Partial(&a))
                {
                    a[v as usize] = Some(x);
                    trail.push(v);
                    changed = true;
                }
            }
            let mut k = 0;
            while k < pending.len() {
                let v = pending[k];
                match eqs.eval(v, &Partial(&a)) {
                    Some(x) if Some(x) != a[v as usize] => break 'prop false,
                    Some(_) => {
                        pending.swap_remove(k);
                    }
                    None => k += 1,
                }
            }
            if !changed {
                break true;
            }
        };
        let next = if consistent {
            vars.iter().copied().find(|&v| a[v as usize].is_none())
        } else {
            None
        };
        if consistent && next.is_none() {
            // A complete assignment: verify every equation, then count it.
            let full = Partial(&a);
            if vars.iter().all(|&v| eqs.eval(v, &full) == a[v as usize]) {
                group.count += 1;
                if group.solutions.len() < limits.kept {
                    group
                        .solutions
                        .push(vars.iter().map(|&v| a[v as usize] == Some(true)).collect());
                }
            }
        }
        if let Some(v) = next {
            *steps += 1;
            if *steps > limits.steps {
                return Err(too_large());
            }
            guesses.push((v, trail.len(), pending.clone(), false));
            a[v as usize] = Some(false);
            trail.push(v);
            pending.push(v);
            continue;
        }
        // Backtrack to the last guess that still has its other value to try.
        loop {
            let Some((v, len, saved, tried_true)) = guesses.pop() else {
                return Ok(());
            };
            for &w in &trail[len..] {
                a[w as usize] = None;
            }
            trail.truncate(len);
            pending = saved;
            if !tried_true {
                *steps += 1;
                if *steps > limits.steps {
                    return Err(too_large());
                }
                guesses.push((v, len, pending.clone(), true));
                a[v as usize] = Some(true);
                trail.push(v);
                pending.push(v);
                break;
            }
        }
    }
}
