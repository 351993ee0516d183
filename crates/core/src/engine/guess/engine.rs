//! The guess engine on the engine seam: [`GuessEngine`], and its result ([`GuessResult`]) as
//! the detail of an [`Adjudication`].

use std::any::Any;
use std::sync::Arc;

use crate::engine::cursor::Cursor;
use crate::engine::decision::adjudicator::{MovementResult, Pins, adjudicate_pinned};
use crate::engine::decision::engine::DecisionEngine;
use crate::engine::decision::resolver::Board;
use crate::engine::legality::{OrderStatus, Prepared, UnitOrder};
use crate::engine::seam::{
    Adjudication, Detail, Engine, EngineError, OptionUse, PhaseInput, Shows, Steps,
};
use crate::model::board::Unit;
use crate::model::map::Map;
use crate::model::orders::Submitted;
use crate::model::rules::Rules;

use super::resolver::{Resolver, StartOrder};
use super::stepper::GuessReplay;
use super::trace::{BackupRule, Event};
use crate::engine::trace::{NoTrace, Recorder, Tracer};

/// The guess algorithm of DATC 5.F on the seam.
#[derive(Clone, Debug, Default)]
pub struct GuessEngine {
    /// In which order the top level calls `resolve`.
    pub start: StartOrder,
    /// The name for a start from the k-th order (`guess:K`), made once.
    label: Option<Arc<str>>,
}

impl GuessEngine {
    /// The engine with the orders resolved in the order given (the default: as written).
    pub fn with_start(start: StartOrder) -> GuessEngine {
        let label = match start {
            StartOrder::From(k) => Some(Arc::from(format!("guess:{}", k.saturating_add(1)))),
            StartOrder::Written | StartOrder::Reversed => None,
        };
        GuessEngine { start, label }
    }

    /// The engine a name asks for: `guess:K` resolves the K-th order as written first (5.F's own
    /// example, `resolve` called on Wales in 5.D's position, is `guess:2` on DATC 6.F.16), and
    /// `guess:reversed` the last first. None when the name is not of this form; an error when
    /// it is but K is not an order number.
    pub fn from_spec(name: &str) -> Option<Result<GuessEngine, String>> {
        let rest = name.strip_prefix("guess:")?;
        if rest.eq_ignore_ascii_case("reversed") {
            return Some(Ok(GuessEngine::with_start(StartOrder::Reversed)));
        }
        Some(match rest.trim().parse::<u32>() {
            Ok(k) if k >= 1 => Ok(GuessEngine::with_start(StartOrder::From(k - 1))),
            _ => Err(format!(
                "engine {name:?}: expected guess:K (K = the order, counting from 1 as the scenario lists them, that resolve is called on first) or guess:reversed"
            )),
        })
    }
}

/// What the guess engine found.
#[derive(Clone, Debug)]
pub struct GuessResult {
    /// The outcomes, derived from the orders' results the way the decision engine derives its
    /// own (so reasons, dislodgements and standoffs read alike), with the classed orders and
    /// every decision's value as it follows from those results.
    pub movement: MovementResult,
    /// Per unit, its order's result (None for units without a move, valid support or convoy).
    pub resolution: Vec<Option<bool>>,
    /// Per unit, whether a backup rule set its order's result.
    pub forced: Vec<bool>,
    /// The orders in the order the top level called `resolve` on them.
    pub start: Vec<u32>,
    /// The backup rules applied, in order.
    pub backups: Vec<BackupRule>,
    /// Orders 5.F left without a final result (taken at their stored one; should be empty).
    pub unresolved: Vec<u32>,
    /// The trace, when asked for.
    pub trace: Option<Vec<Event>>,
}

/// The top-level call order for the classed orders: each unit's order at the place of the
/// submitted order that applies, then (for `Reversed`) the list turned round.
fn start_order(prepared: &Prepared, start: StartOrder) -> Vec<u32> {
    let mut seen = vec![false; prepared.orders.len()];
    let mut out = Vec::new();
    for st in &prepared.status {
        if let OrderStatus::Applied(u) = st
            && let Some(s) = seen.get_mut(*u)
            && !*s
        {
            *s = true;
            out.push(*u as u32);
        }
    }
    match start {
        StartOrder::Written => {}
        StartOrder::Reversed => out.reverse(),
        StartOrder::From(k) => {
            if !out.is_empty() {
                let k = k as usize % out.len();
                out.rotate_left(k);
            }
        }
    }
    out
}

struct Decided<T> {
    resolution: Vec<Option<bool>>,
    forced: Vec<bool>,
    start: Vec<u32>,
    backups: Vec<BackupRule>,
    unresolved: Vec<u32>,
    tracer: T,
}

fn decide<T: Tracer<Event>>(
    b: &Board<'_>,
    prepared: &Prepared,
    start: StartOrder,
    tracer: T,
    literal: bool,
) -> (Pins, Decided<T>) {
    let order = start_order(prepared, start);
    let mut resolver = Resolver::new(b, tracer);
    resolver.literal = literal;
    let is_order: Vec<bool> = (0..b.units.len()).map(|u| resolver.is_order(u)).collect();
    let (st, tracer) = resolver.run(&order);
    let n = b.units.len();
    let mut resolution = vec![None; n];
    let mut unresolved = Vec::new();
    for u in 0..n {
        if is_order.get(u).copied().unwrap_or(false) {
            if let Some(slot) = resolution.get_mut(u) {
                *slot = st.resolution.get(u).copied();
            }
            if !st.resolved.get(u).copied().unwrap_or(false) {
                unresolved.push(u as u32);
            }
        }
    }
    let pinned = resolution
        .iter()
        .enumerate()
        .map(|(u, r)| match b.orders.get(u) {
            Some(UnitOrder::Move { .. } | UnitOrder::Support { void: None, .. }) => *r,
            _ => None,
        })
        .collect();
    let cancelled = (0..n)
        .filter(|&u| st.cancelled.get(u).copied().unwrap_or(false))
        .collect();
    let held = (0..n)
        .filter(|&u| st.held.get(u).copied().unwrap_or(false))
        .map(|u| (u, st.no_path.get(u).copied().unwrap_or(false)))
        .collect();
    let pins = Pins {
        result: pinned,
        forced: st.forced.clone(),
        cancelled,
        held,
    };
    (
        pins,
        Decided {
            resolution,
            forced: st.forced,
            start: order,
            backups: st.rules,
            unresolved,
            tracer,
        },
    )
}

/// Adjudicates a movement phase with the guess algorithm; `trace` records its events.
pub fn adjudicate<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    start: StartOrder,
    trace: bool,
) -> GuessResult {
    fn finish<T>(
        (movement, d, _open): (MovementResult, Decided<T>, usize),
        trace: Option<Vec<Event>>,
    ) -> GuessResult {
        GuessResult {
            movement,
            resolution: d.resolution,
            forced: d.forced,
            start: d.start,
            backups: d.backups,
            unresolved: d.unresolved,
            trace,
        }
    }
    if trace {
        let (m, mut d, open) = adjudicate_pinned(map, units, orders, rules, |b, p| {
            decide(b, p, start, Recorder::default(), false)
        });
        let events = std::mem::take(&mut d.tracer.events);
        finish((m, d, open), Some(events))
    } else {
        let out = adjudicate_pinned(map, units, orders, rules, |b, p| {
            decide(b, p, start, NoTrace, false)
        });
        finish(out, None)
    }
}

/// Each order's result (per unit; None for units without a move, valid support or convoy)
/// under DATC 5.F's final listing taken to the letter, orders resolved as written: without the
/// two fixes `docs/guess.md` explains. For showing what the listing does; the engine never
/// uses it.
pub fn literal_results<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
) -> Vec<Option<bool>> {
    let (_, d, _) = adjudicate_pinned(map, units, orders, rules, |b, p| {
        decide(b, p, StartOrder::Written, NoTrace, true)
    });
    d.resolution
}

impl Engine for GuessEngine {
    fn option_use(&self, field: &str) -> OptionUse {
        // As the decision engine, whose report it uses.
        DecisionEngine.option_use(field)
    }

    fn name(&self) -> &str {
        match (&self.label, self.start) {
            (Some(l), _) => l,
            (None, StartOrder::Reversed) => "guess:reversed",
            (None, StartOrder::Written | StartOrder::From(_)) => "guess",
        }
    }

    fn title(&self) -> &str {
        match self.start {
            StartOrder::Reversed => "the guess algorithm (DATC 5.F), last order resolved first",
            StartOrder::From(_) => "the guess algorithm (DATC 5.F), from the order its name gives",
            StartOrder::Written => "the guess algorithm (DATC 5.F)",
        }
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        let r = adjudicate(
            input.map,
            input.units,
            input.orders,
            input.rules,
            self.start,
            trace,
        );
        let mut phase = r.movement.phase();
        if !r.unresolved.is_empty() {
            let labels: Vec<String> = r
                .unresolved
                .iter()
                .map(|&u| {
                    r.movement
                        .unit_label(input.map, input.units, input.orders, u as usize)
                })
                .collect();
            phase.notes.push(format!(
                "guess engine: 5.F left {} without a final result; taken at its last stored result",
                labels.join(", ")
            ));
        }
        Ok(Adjudication::with_detail(self.name(), phase, Arc::new(r)))
    }
}

impl GuessResult {
    /// A cursor at the start of the trace, labelling orders for `input`; None without a trace.
    pub fn stepper(&self, input: &PhaseInput<'_>) -> Option<Cursor<GuessReplay>> {
        let events = self.trace.clone()?;
        let labels: Arc<[String]> = (0..input.units.len())
            .map(|u| {
                self.movement
                    .unit_label(input.map, input.units, input.orders, u)
            })
            .collect();
        let convoys: Arc<[bool]> = (0..input.units.len())
            .map(|u| {
                matches!(
                    self.movement.prepared.orders.get(u),
                    Some(UnitOrder::Convoy { .. })
                )
            })
            .collect();
        Some(Cursor::from_trace(
            events,
            GuessReplay::start(labels, convoys),
        ))
    }
}

impl Detail for GuessResult {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn shows(&self) -> Shows {
        Shows {
            decisions: false,
            procedure: false,
            trace: self.trace.is_some(),
        }
    }

    fn steps(&self, input: &PhaseInput<'_>) -> Option<Box<dyn Steps>> {
        Some(Box::new(self.stepper(input)?))
    }

    fn prepared(&self) -> Option<&Prepared> {
        Some(&self.movement.prepared)
    }
}

impl Adjudication {
    /// The guess engine's result, when it made this one.
    pub fn guess(&self) -> Option<&GuessResult> {
        self.detail::<GuessResult>()
    }
}
