//! The decision engine's adjudicator: legality, the decision graph, the resolver, and outcomes
//! that name their cause.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): unit indices range over the
// board's units and index per-unit tables of that length; decision ids index the graph the
// resolver built; province ids index tables sized to the map.
#![allow(clippy::indexing_slicing)]

use crate::engine::legality::{self, OrderStatus, Prepared, Route, UnitOrder};
use crate::engine::outcome::{OrderOutcome, PhaseResult, UnitResult, Verdict};
use crate::engine::reason::{Against, Reason};
use crate::model::board::{Dislodged, Unit};
use crate::model::map::{Map, ProvinceId};
use crate::model::orders::{NameStyle, Submitted, format_order};
use crate::model::rules::Rules;

use super::resolver::{Board, BoardBuf, Graph, NodeKind, Solver, SolverBuf};
use super::trace::{BackupRule, Event};
use crate::engine::trace::{NoTrace, Recorder, Tracer};

/// Everything the movement adjudicator found.
#[derive(Clone, Debug)]
pub struct MovementResult {
    /// The classed orders.
    pub prepared: Prepared,
    /// The decision graph with final values.
    pub graph: Graph,
    /// Per submitted order, its outcome.
    pub outcomes: Vec<OrderOutcome>,
    /// Per unit, what happened to it.
    pub units: Vec<UnitResult>,
    /// Units after the phase (not counting the dislodged).
    pub final_units: Vec<Unit>,
    /// Units dislodged, with where their attackers came from.
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff (no retreat there).
    pub contested: Vec<ProvinceId>,
    /// Fleets whose convoy Szykman's rule cancelled.
    pub cancelled_convoys: Vec<usize>,
    /// Units whose move the All Hold rule failed.
    pub forced_hold: Vec<usize>,
    /// The trace, when asked for.
    pub trace: Option<Vec<Event>>,
}

/// The typed outcome of one submitted order, as [`Adjudicator`] returns it: no words until asked
/// for ([`Adjudicator::reason_text`], or [`adjudicate_movement`], which renders every one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Succeeds, fails, illegal or void.
    pub verdict: Verdict,
    /// Why, as data: the units involved by index.
    pub reason: Reason,
    /// The backup rule that decided it, if any.
    pub backup: Option<BackupRule>,
    /// For a move (or a convoy Szykman's rule cancelled) whose unit was also dislodged: by whom
    /// (the words add `, and is dislodged by …`).
    pub dislodged_by: Option<usize>,
}

/// A reusable movement adjudicator: it keeps every buffer between calls (orders classed, the
/// board's tables, the decisions and their dependency lists in flat arrays, outcomes), so that
/// after the first call on a board of a given size, adjudicating allocates nothing, and returns
/// typed outcomes ([`Outcome`]: [`Verdict`] and [`Reason`]) that are turned into words only
/// when asked.
///
/// ```
/// use dipsandbox_core::engine::{Adjudicator, Verdict, Reason};
/// use dipsandbox_core::model::board::Unit;
/// use dipsandbox_core::model::map::{Map, UnitKind};
/// use dipsandbox_core::model::orders::parse_order;
/// use dipsandbox_core::model::rules::Rules;
///
/// let map = Map::standard();
/// let ger = map.find_power("Germany").unwrap();
/// let rus = map.find_power("Russia").unwrap();
/// let unit = |p, k, name: &str| Unit { power: p, kind: k, loc: map.province(map.find_province(name).unwrap()).main };
/// let units = vec![unit(ger, UnitKind::Army, "ber"), unit(rus, UnitKind::Army, "war")];
/// let orders = vec![
///     (ger, parse_order(&map, "A Ber - Sil").unwrap()),
///     (rus, parse_order(&map, "A War - Sil").unwrap()),
/// ];
/// let mut adj = Adjudicator::new();
/// let out = adj.adjudicate(&map, &units, &orders, &Rules::default());
/// assert_eq!(out[0].verdict, Verdict::Fails);
/// assert!(matches!(out[0].reason, Reason::Bounced { unit: 1, .. }));
/// assert_eq!(adj.reason_text(&map, &units, &orders, 0).unwrap(), "attack 1 does not beat prevent 1 of A War - Sil");
/// assert_eq!(adj.contested().len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    prepared: Prepared,
    scratch: legality::PrepareScratch,
    board: BoardBuf,
    solver: SolverBuf,
    outcomes: Vec<Outcome>,
    units: Vec<UnitResult>,
    final_units: Vec<Unit>,
    dislodged: Vec<Dislodged>,
    contested: Vec<ProvinceId>,
    occupied_after: Vec<bool>,
}

impl Adjudicator {
    /// An adjudicator with empty buffers (they grow on the first call).
    pub fn new() -> Adjudicator {
        Adjudicator::default()
    }

    /// Adjudicates a movement phase: one typed outcome per submitted order, in order. The
    /// other results of the call are kept until the next one ([`Adjudicator::units`],
    /// [`Adjudicator::final_units`], [`Adjudicator::dislodged`], [`Adjudicator::contested`]).
    pub fn adjudicate<O: Submitted>(
        &mut self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        rules: &Rules,
    ) -> &[Outcome] {
        self.adjudicate_with(map, units, orders, rules, NoTrace);
        &self.outcomes
    }

    /// [`Adjudicator::adjudicate`] with a tracer (e.g. [`Recorder`]), which it gives back with
    /// the resolver's reasoning recorded; the outcomes are in [`Adjudicator::outcomes`].
    pub fn adjudicate_with<T: Tracer<Event>, O: Submitted>(
        &mut self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        rules: &Rules,
        tracer: T,
    ) -> T {
        match self.run(map, units, orders, rules, tracer, false) {
            Ok(tracer) | Err(tracer) => tracer,
        }
    }

    /// [`Adjudicator::adjudicate_with`]; with `stop_if_acyclic`, Err (and the results empty)
    /// when the decisions' dependency graph has no cycle, before they are resolved.
    fn run<T: Tracer<Event>, O: Submitted>(
        &mut self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        rules: &Rules,
        tracer: T,
        stop_if_acyclic: bool,
    ) -> Result<T, T> {
        legality::occupancy_into(map, units, &mut self.board.occ);
        legality::prepare_into(
            map,
            units,
            orders,
            rules,
            &self.board.occ,
            &mut self.prepared,
            &mut self.scratch,
        );
        self.board.fill(map, units, &self.prepared.orders);
        let board = Board::new(map, units, &self.prepared.orders, rules, &self.board);
        let mut solver = Solver::new(&board, &mut self.solver, tracer);
        if stop_if_acyclic && solver.acyclic() {
            self.outcomes.clear();
            self.units.clear();
            self.final_units.clear();
            self.dislodged.clear();
            self.contested.clear();
            return Err(solver.tracer);
        }
        let tracer = solver.solve();
        Report {
            map,
            units,
            board: &board,
            g: &self.solver,
            prepared: &self.prepared,
        }
        .finish(Out {
            outcomes: &mut self.outcomes,
            units: &mut self.units,
            final_units: &mut self.final_units,
            dislodged: &mut self.dislodged,
            contested: &mut self.contested,
            occupied_after: &mut self.occupied_after,
        });
        Ok(tracer)
    }

    /// Whether a backup rule decides anything in a movement phase: [`Adjudicator::adjudicate`]
    /// then [`Adjudicator::backup_applied`], but where the decisions' dependency graph has no
    /// cycle (no backup rule can be applied to it) the answer is false without resolving the
    /// decisions, at about a third of the cost of an adjudication; the other results of the
    /// call are then empty. When the answer is true the results are those of
    /// [`Adjudicator::adjudicate`].
    pub fn backup_decides<O: Submitted>(
        &mut self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        rules: &Rules,
    ) -> bool {
        self.run(map, units, orders, rules, NoTrace, true).is_ok() && self.backup_applied()
    }

    /// The outcomes of the last call, one per submitted order.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// Per unit of the last call, what happened to it.
    pub fn units(&self) -> &[UnitResult] {
        &self.units
    }

    /// Units after the last call's phase (not counting the dislodged).
    pub fn final_units(&self) -> &[Unit] {
        &self.final_units
    }

    /// Units the last call dislodged, with where their attackers came from.
    pub fn dislodged(&self) -> &[Dislodged] {
        &self.dislodged
    }

    /// Provinces the last call left empty by a standoff.
    pub fn contested(&self) -> &[ProvinceId] {
        &self.contested
    }

    /// The classed orders of the last call.
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// Whether a backup rule decided anything in the last call.
    pub fn backup_applied(&self) -> bool {
        self.solver.forced.iter().any(|f| *f)
            || self.solver.disabled.iter().any(|d| *d)
            || self.solver.forced_fail.iter().any(|f| *f)
    }

    /// The words for a typed outcome of a call whose classed orders applied the submitted
    /// orders `source` (per unit, the index of its applied order: [`Prepared::source`]), with
    /// that call's map, units and orders: what [`Adjudicator::reason_text`] gives for the call
    /// that returned it, usable after later calls.
    pub fn render<O: Submitted>(
        map: &Map,
        units: &[Unit],
        orders: &[O],
        source: &[Option<usize>],
        o: &Outcome,
    ) -> String {
        render_reason(map, units, orders, source, o)
    }

    /// The words for the outcome of submitted order `i` of the last call (as
    /// [`adjudicate_movement`] gives them), with the same map, units and orders; None for an
    /// order the call did not have.
    pub fn reason_text<O: Submitted>(
        &self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        i: usize,
    ) -> Option<String> {
        let o = self.outcomes.get(i)?;
        Some(render_reason(map, units, orders, &self.prepared.source, o))
    }
}

/// The text of the order that applies to unit `u`, abbreviated; or the unit itself.
fn order_text<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    source: &[Option<usize>],
    u: usize,
) -> String {
    match source.get(u).copied().flatten() {
        Some(i) => {
            let mut o = orders[i].order().clone();
            o.power = None;
            format_order(map, &o, NameStyle::Abbr)
        }
        None => units
            .get(u)
            .map(|unit| format!("{} {}", unit.kind.letter(), map.loc_abbr(unit.loc)))
            .unwrap_or_default(),
    }
}

/// A typed outcome in words (the one place movement reasons become words), plus, for a unit
/// that did not stay, by whom it was dislodged.
fn render_reason<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    source: &[Option<usize>],
    o: &Outcome,
) -> String {
    let order = |u: usize| order_text(map, units, orders, source, u);
    let unit = |u: usize| {
        units
            .get(u)
            .map(|unit| format!("{} {}", unit.kind.letter(), map.loc_abbr(unit.loc)))
            .unwrap_or_default()
    };
    let mut reason = o.reason.render(&order, &unit, &|l| map.loc_name(l));
    if let Some(c) = o.dislodged_by {
        reason.push_str(&format!(", and is dislodged by {}", order(c)));
    }
    reason
}

/// Adjudicates a movement phase with the decision engine; `trace` records the resolver's
/// reasoning (without it, the tracer is [`NoTrace`] and every trace statement is compiled away).
pub fn adjudicate<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    trace: bool,
) -> MovementResult {
    if trace {
        let (mut r, rec) = run(map, units, orders, rules, Recorder::default());
        r.trace = Some(rec.events);
        r
    } else {
        run(map, units, orders, rules, NoTrace).0
    }
}

/// Adjudicates a movement phase with the decision engine, without a trace (the plain
/// convenience: [`adjudicate`] with `trace` off).
pub fn adjudicate_movement<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
) -> MovementResult {
    adjudicate(map, units, orders, rules, false)
}

thread_local! {
    /// One workspace per thread for [`adjudicate`]: its buffers (the classing scratch, the
    /// board, the solver, the outcomes) are kept from one call to the next, so the commands that
    /// adjudicate many phases (`check` of a folder, `diff`, `versus`, `replay`, `minimize`) do
    /// not allocate them again for every phase. A call made while another runs on the same
    /// thread finds it taken and uses a fresh one.
    static WORKSPACE: std::cell::RefCell<Option<Adjudicator>> =
        const { std::cell::RefCell::new(None) };
}

/// `f` in this thread's workspace (a fresh one when it is in use: a call from inside `f`). The
/// workspace is used where it lies: moving it out and back copied its few kilobytes of vector
/// headers twice a phase.
fn in_workspace<R>(f: impl FnOnce(&mut Adjudicator) -> R) -> R {
    WORKSPACE.with(|w| match w.try_borrow_mut() {
        Ok(mut held) => f(held.get_or_insert_with(Adjudicator::default)),
        Err(_) => f(&mut Adjudicator::default()),
    })
}

fn run<T: Tracer<Event>, O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    tracer: T,
) -> (MovementResult, T) {
    in_workspace(|a| run_in(a, map, units, orders, rules, tracer))
}

/// The phase result alone (the decision engine's [`crate::engine::Engine::movement_verdicts`]):
/// verdicts with their typed causes, final units, dislodged units and standoffs, from this
/// thread's workspace. No words (each outcome's `reason` is empty) and no decision graph: what
/// `check`, `versus` and `replay` compare costs no more than the adjudication itself.
pub fn adjudicate_verdicts<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
) -> PhaseResult {
    in_workspace(|a| {
        a.adjudicate_with(map, units, orders, rules, NoTrace);
        PhaseResult {
            outcomes: a
                .outcomes
                .iter()
                .map(|o| OrderOutcome {
                    verdict: o.verdict,
                    reason: String::new(),
                    cause: o.reason.clone(),
                    backup: o.backup,
                })
                .collect(),
            final_units: a.final_units.clone(),
            dislodged: a.dislodged.clone(),
            contested: a.contested.clone(),
            notes: Vec::new(),
        }
    })
}

/// [`run`] in the workspace `a`: the results it keeps are moved out of it, its other buffers
/// stay for the next call.
fn run_in<T: Tracer<Event>, O: Submitted>(
    a: &mut Adjudicator,
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    tracer: T,
) -> (MovementResult, T) {
    let tracer = a.adjudicate_with(map, units, orders, rules, tracer);
    (movement_result(a, map, units, orders), tracer)
}

/// The result of the phase just adjudicated in `a`, in words and as a graph: the results it
/// keeps are moved out of the workspace, its other buffers stay for the next call.
fn movement_result<O: Submitted>(
    a: &mut Adjudicator,
    map: &Map,
    units: &[Unit],
    orders: &[O],
) -> MovementResult {
    let outcomes = a
        .outcomes
        .iter()
        .map(|o| OrderOutcome {
            verdict: o.verdict,
            reason: render_reason(map, units, orders, &a.prepared.source, o),
            cause: o.reason.clone(),
            backup: o.backup,
        })
        .collect();
    let cancelled_convoys = (0..units.len()).filter(|&u| a.solver.disabled[u]).collect();
    let forced_hold = (0..units.len())
        .filter(|&u| a.solver.forced_fail[u])
        .collect();
    MovementResult {
        graph: a.solver.to_graph(),
        prepared: std::mem::take(&mut a.prepared),
        outcomes,
        units: std::mem::take(&mut a.units),
        final_units: std::mem::take(&mut a.final_units),
        dislodged: std::mem::take(&mut a.dislodged),
        contested: std::mem::take(&mut a.contested),
        cancelled_convoys,
        forced_hold,
        trace: None,
    }
}

/// What another engine decided about a movement phase, for [`adjudicate_pinned`] to turn into
/// the decision engine's outcomes (with their typed reasons) and decision values.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pins {
    /// Per unit: the result of its MOVE or (valid) SUPPORT order; None for any other order.
    pub result: Vec<Option<bool>>,
    /// Per unit: whether a backup rule forced that result.
    pub forced: Vec<bool>,
    /// Fleets whose convoy Szykman's rule cancelled.
    pub cancelled: Vec<usize>,
    /// Units whose move the All Hold rule failed, each with whether its convoy route was set
    /// to 'no path' (`crate::engine::backup::Hold`).
    pub held: Vec<(usize, bool)>,
}

/// Classes the orders and builds the decision engine's board, lets `decide` settle every MOVE
/// and SUPPORT order on it (another engine's method), then derives every other decision from
/// those results and reports outcomes, final units, dislodged units and standoffs exactly as
/// the decision engine does. Also returns how many decisions the pins left open (0 unless
/// `decide` left an order without a result).
pub(crate) fn adjudicate_pinned<O: Submitted, R>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    decide: impl FnOnce(&Board<'_>, &Prepared) -> (Pins, R),
) -> (MovementResult, R, usize) {
    // This thread's workspace, as `adjudicate` uses (the guess engine calls this per phase).
    in_workspace(|a| {
        legality::occupancy_into(map, units, &mut a.board.occ);
        legality::prepare_into(
            map,
            units,
            orders,
            rules,
            &a.board.occ,
            &mut a.prepared,
            &mut a.scratch,
        );
        a.board.fill(map, units, &a.prepared.orders);
        let board = Board::new(map, units, &a.prepared.orders, rules, &a.board);
        let (pins, r) = decide(&board, &a.prepared);
        let mut solver = Solver::new(&board, &mut a.solver, NoTrace);
        for &f in &pins.cancelled {
            solver.cancel_convoy(f);
        }
        for &(u, no_path) in &pins.held {
            solver.hold_fast(u, no_path);
        }
        for (u, res) in pins.result.iter().enumerate() {
            let Some(res) = *res else { continue };
            let forced = pins.forced.get(u).copied().unwrap_or(false);
            let kind = match board.orders.get(u) {
                Some(UnitOrder::Move { .. }) => NodeKind::Move,
                Some(UnitOrder::Support { void: None, .. }) => NodeKind::Support,
                _ => continue,
            };
            if let Some(id) = solver.node(u, kind) {
                solver.pin(id, i32::from(res), forced);
            }
        }
        let open = solver.settle();
        Report {
            map,
            units,
            board: &board,
            g: &a.solver,
            prepared: &a.prepared,
        }
        .finish(Out {
            outcomes: &mut a.outcomes,
            units: &mut a.units,
            final_units: &mut a.final_units,
            dislodged: &mut a.dislodged,
            contested: &mut a.contested,
            occupied_after: &mut a.occupied_after,
        });
        (movement_result(a, map, units, orders), r, open)
    })
}

/// Where [`Report::finish`] writes.
struct Out<'a> {
    outcomes: &'a mut Vec<Outcome>,
    units: &'a mut Vec<UnitResult>,
    final_units: &'a mut Vec<Unit>,
    dislodged: &'a mut Vec<Dislodged>,
    contested: &'a mut Vec<ProvinceId>,
    occupied_after: &'a mut Vec<bool>,
}

struct Report<'a, 'b> {
    map: &'a Map,
    units: &'a [Unit],
    board: &'a Board<'b>,
    g: &'a SolverBuf,
    prepared: &'a Prepared,
}

impl Report<'_, '_> {
    fn val(&self, u: usize, kind: NodeKind) -> Option<i32> {
        self.g.node_of(u, kind).map(|id| self.g.value(id))
    }

    fn forced(&self, u: usize, kind: NodeKind) -> bool {
        self.g
            .node_of(u, kind)
            .is_some_and(|id| self.g.forced[id as usize])
    }

    fn moved(&self, u: usize) -> bool {
        self.val(u, NodeKind::Move) == Some(1)
    }

    fn dislodger(&self, u: usize) -> Option<usize> {
        if self.val(u, NodeKind::Dislodge) != Some(1) {
            return None;
        }
        self.board
            .movers_into(self.board.here(u))
            .iter()
            .copied()
            .find(|&c| self.moved(c))
    }

    fn move_reason(&self, u: usize) -> (Verdict, Reason, Option<BackupRule>) {
        let b = self.board;
        let UnitOrder::Move { route, dest, .. } = &b.orders[u] else {
            unreachable!()
        };
        if self.moved(u) {
            if self.forced(u, NodeKind::Move) {
                return (
                    Verdict::Succeeds,
                    Reason::MovesCircular,
                    Some(BackupRule::CircularMovement),
                );
            }
            let attack = self.val(u, NodeKind::Attack).unwrap_or(0);
            let beat = match b.target_unit(u) {
                Some(t) if b.opposing(u, t) && self.hth_final(u, t) => Some((
                    t,
                    Against::Defend,
                    self.val(t, NodeKind::Defend).unwrap_or(0),
                )),
                Some(t) if !self.moved(t) => {
                    Some((t, Against::Hold, self.val(t, NodeKind::Hold).unwrap_or(0)))
                }
                _ => None,
            };
            let by_convoy = self.uses_convoy_final(u);
            return (
                Verdict::Succeeds,
                Reason::Moves {
                    attack,
                    beat,
                    by_convoy,
                },
                None,
            );
        }
        // All Hold is the cause only where it decided the move; a move that had already failed
        // on its own is explained by its own cause below.
        if self.g.forced_fail[u] && self.forced(u, NodeKind::Move) {
            return (Verdict::Fails, Reason::AllHold, Some(BackupRule::AllHold));
        }
        // A path All Hold took from a move that fails anyway is not its cause: the strengths
        // below are.
        let path_by_all_hold = self.g.forced_fail[u] && self.forced(u, NodeKind::Path);
        if *route == Route::Convoy && self.val(u, NodeKind::Path) == Some(0) && !path_by_all_hold {
            let fleets = b.convoy_fleets(u);
            if fleets.is_empty() {
                return (Verdict::Fails, Reason::NoConvoy, None);
            }
            if let Some(&fleet) = fleets.iter().find(|f| self.g.disabled[**f]) {
                return (
                    Verdict::Fails,
                    Reason::ConvoyCancelled { fleet },
                    Some(BackupRule::Szykman),
                );
            }
            if let Some(&fleet) = fleets
                .iter()
                .find(|f| self.val(**f, NodeKind::Dislodge) == Some(1))
            {
                let by = self.dislodger(fleet);
                return (Verdict::Fails, Reason::ConvoyDislodged { fleet, by }, None);
            }
            return (Verdict::Fails, Reason::NoChain, None);
        }
        let attack = self.val(u, NodeKind::Attack).unwrap_or(0);
        if let Some(t) = b.target_unit(u) {
            // Head to head: the defend strength; otherwise the hold strength of the province.
            let (against, strength) = if b.opposing(u, t) && self.hth_final(u, t) {
                (Against::Defend, self.val(t, NodeKind::Defend).unwrap_or(0))
            } else {
                (Against::Hold, self.val(t, NodeKind::Hold).unwrap_or(0))
            };
            if attack <= strength {
                let reason =
                    if attack == 0 && self.units[t].power == self.units[u].power && strength > 0 {
                        Reason::OwnUnit { unit: t }
                    } else {
                        Reason::Bounced {
                            attack,
                            against,
                            unit: t,
                            strength,
                        }
                    };
                return (Verdict::Fails, reason, None);
            }
        }
        for &c in b.movers_into(*dest) {
            if c == u {
                continue;
            }
            let p = self.val(c, NodeKind::Prevent).unwrap_or(0);
            if attack <= p {
                return (
                    Verdict::Fails,
                    Reason::Bounced {
                        attack,
                        against: Against::Prevent,
                        unit: c,
                        strength: p,
                    },
                    None,
                );
            }
        }
        (Verdict::Fails, Reason::Fails { attack }, None)
    }

    fn uses_convoy_final(&self, u: usize) -> bool {
        match &self.board.orders[u] {
            UnitOrder::Move {
                route: Route::Convoy,
                ..
            } => true,
            UnitOrder::Move {
                route: Route::ConvoyOrLand,
                ..
            } => self.val(u, NodeKind::Path) == Some(1),
            _ => false,
        }
    }

    fn hth_final(&self, u: usize, t: usize) -> bool {
        self.board.opposing(u, t) && !self.uses_convoy_final(u) && !self.uses_convoy_final(t)
    }

    fn support_reason(&self, s: usize) -> (Verdict, Reason) {
        if self.val(s, NodeKind::Support) == Some(1) {
            // A convoyed attack the paradox rule kept from cutting it (also by dislodging it).
            let exempt = self
                .board
                .movers_into(self.board.here(s))
                .iter()
                .copied()
                .find(|&c| self.uses_convoy_final(c) && self.board.paradox_exempt(c, s));
            return match exempt {
                Some(attacker) => (
                    Verdict::Succeeds,
                    Reason::GivenExempt {
                        rule: self.board.rules.paradox,
                        attacker,
                        dislodged_by: self.dislodger(s),
                    },
                ),
                None => (Verdict::Succeeds, Reason::Given),
            };
        }
        if let Some(by) = self.dislodger(s) {
            return (Verdict::Fails, Reason::CutDislodged { by });
        }
        let cutter = self
            .board
            .movers_into(self.board.here(s))
            .iter()
            .copied()
            .find(|&c| self.val(c, NodeKind::Attack).unwrap_or(0) > 0);
        match cutter {
            Some(by) => (Verdict::Fails, Reason::CutBy { by }),
            None => (Verdict::Fails, Reason::Cut),
        }
    }

    /// A typed outcome; `dislodged_by` names who dislodged a unit whose order did not keep it
    /// in place.
    fn outcome(
        &self,
        verdict: Verdict,
        cause: Reason,
        backup: Option<BackupRule>,
        dislodged_by: Option<usize>,
    ) -> Outcome {
        Outcome {
            verdict,
            reason: cause,
            backup,
            dislodged_by,
        }
    }

    fn finish(self, out: Out<'_>) {
        let map = self.map;
        let b = self.board;
        let n = self.units.len();
        let Out {
            outcomes,
            units: unit_results,
            final_units,
            dislodged,
            contested,
            occupied_after,
        } = out;
        unit_results.clear();
        final_units.clear();
        dislodged.clear();
        for u in 0..n {
            let by = self.dislodger(u);
            let unit = self.units[u];
            let ends = if by.is_some() {
                None
            } else if self.moved(u) {
                let UnitOrder::Move { dest_loc, .. } = &b.orders[u] else {
                    unreachable!()
                };
                Some(Unit {
                    loc: *dest_loc,
                    ..unit
                })
            } else {
                Some(unit)
            };
            if let Some(e) = ends {
                final_units.push(e);
            }
            if let Some(c) = by {
                dislodged.push(Dislodged {
                    unit,
                    attacker_from: b.here(c),
                    by_convoy: self.uses_convoy_final(c),
                });
            }
            unit_results.push(UnitResult {
                ends,
                dislodged_by: by,
            });
        }
        outcomes.clear();
        for st in &self.prepared.status {
            let out = match st {
                OrderStatus::Illegal(r) => {
                    self.outcome(Verdict::Illegal, Reason::Illegal(r.clone()), None, None)
                }
                OrderStatus::Applied(u) => {
                    let u = *u;
                    let dis = unit_results[u].dislodged_by;
                    match &b.orders[u] {
                        UnitOrder::Hold => match dis {
                            Some(by) => {
                                self.outcome(Verdict::Fails, Reason::DislodgedBy { by }, None, None)
                            }
                            None => self.outcome(Verdict::Succeeds, Reason::Holds, None, None),
                        },
                        UnitOrder::Move { .. } => {
                            let (verdict, cause, backup) = self.move_reason(u);
                            self.outcome(verdict, cause, backup, dis)
                        }
                        UnitOrder::Support { void: Some(v), .. }
                        | UnitOrder::Convoy { void: Some(v), .. } => {
                            self.outcome(Verdict::Void, Reason::Void(v.clone()), None, None)
                        }
                        UnitOrder::Support { .. } => {
                            let (verdict, cause) = self.support_reason(u);
                            self.outcome(verdict, cause, None, None)
                        }
                        UnitOrder::Convoy { army, .. } => {
                            if self.g.disabled[u] {
                                self.outcome(
                                    Verdict::Fails,
                                    Reason::ConvoyHolds,
                                    Some(BackupRule::Szykman),
                                    dis,
                                )
                            } else if let Some(by) = dis {
                                self.outcome(Verdict::Fails, Reason::Disrupted { by }, None, None)
                            } else if self.g.forced_fail[*army] {
                                self.outcome(
                                    Verdict::Fails,
                                    Reason::ConvoyAllHold,
                                    Some(BackupRule::AllHold),
                                    None,
                                )
                            } else {
                                self.outcome(Verdict::Succeeds, Reason::Convoys, None, None)
                            }
                        }
                    }
                }
            };
            outcomes.push(out);
        }
        // Standoffs: nobody moved in, and some move there still had strength to prevent. Which
        // provinces are occupied after the phase is marked once (not searched per province).
        occupied_after.clear();
        occupied_after.resize(map.province_count(), false);
        for u in final_units.iter() {
            occupied_after[map.province_of(u.loc).0 as usize] = true;
        }
        contested.clear();
        for p in map.province_ids() {
            let movers = b.movers_into(p);
            if movers.is_empty() || movers.iter().any(|&c| self.moved(c)) {
                continue;
            }
            if !occupied_after[p.0 as usize]
                && movers
                    .iter()
                    .any(|&c| self.val(c, NodeKind::Prevent).unwrap_or(0) > 0)
            {
                contested.push(p);
            }
        }
    }
}

impl MovementResult {
    /// Whether a backup rule decided anything (circular movement, Szykman, All Hold, or the
    /// last-resort failure of a cycle): the equations alone had no single solution somewhere.
    pub fn backup_applied(&self) -> bool {
        self.graph.forced.iter().any(|f| *f)
            || !self.cancelled_convoys.is_empty()
            || !self.forced_hold.is_empty()
    }

    /// The phase-level view: outcomes, final units, dislodged units, standoffs.
    pub fn phase(&self) -> PhaseResult {
        PhaseResult {
            outcomes: self.outcomes.clone(),
            final_units: self.final_units.clone(),
            dislodged: self.dislodged.clone(),
            contested: self.contested.clone(),
            notes: Vec::new(),
        }
    }

    /// A unit's order in short form (`A Ber - Sil`), or the unit when it has none.
    pub fn unit_label<O: Submitted>(
        &self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        u: usize,
    ) -> String {
        order_text(map, units, orders, &self.prepared.source, u)
    }

    /// A label for a decision: `MOVE A ber - sil = moves`.
    pub fn node_label<O: Submitted>(
        &self,
        map: &Map,
        units: &[Unit],
        orders: &[O],
        id: u32,
    ) -> String {
        let node = self.graph.nodes[id as usize];
        let who = self.unit_label(map, units, orders, node.unit);
        let (lo, hi) = (self.graph.lo[id as usize], self.graph.hi[id as usize]);
        format!(
            "{} [{}] = {}",
            node.kind.name(),
            who,
            value_text(node.kind, lo, hi)
        )
    }
}

/// A decision's value in words: `moves`, `fails`, `2`, `1..3`.
pub fn value_text(kind: NodeKind, lo: i32, hi: i32) -> String {
    if lo != hi {
        return if kind.is_bool() {
            "?".into()
        } else {
            format!("{lo}..{hi}")
        };
    }
    let v = lo;
    match kind {
        NodeKind::Move => if v == 1 { "moves" } else { "fails" }.into(),
        NodeKind::Support => if v == 1 { "given" } else { "cut" }.into(),
        NodeKind::Dislodge => if v == 1 { "dislodged" } else { "sustains" }.into(),
        NodeKind::Path => if v == 1 { "path" } else { "no path" }.into(),
        _ => v.to_string(),
    }
}
