//! A toy engine that holds every unit: every move fails, every unit stays where it is, nobody is
//! dislodged. It records a trace of its own (one event per unit held) so that the generic cursor
//! has something to step through.

use std::any::Any;
use std::sync::Arc;

use dipsandbox_core::engine::{
    Adjudication, Cursor, Detail, Engine, EngineError, Landmark, Mark, OrderOutcome, PhaseInput,
    PhaseResult, Replay, Section, Shows, Steps, Tone, Verdict,
};
use dipsandbox_core::model::map::UnitKind;
use dipsandbox_core::model::orders::OrderKind;

/// Holds every unit.
#[derive(Clone, Copy, Debug, Default)]
pub struct HoldEngine;

/// What the toy engine keeps beyond the phase result: its trace.
#[derive(Clone, Debug)]
pub struct Held {
    /// The units in the order they were held, when traced.
    pub trace: Option<Vec<usize>>,
}

/// The toy engine's trace state: which units are held so far (and which units are fleets).
#[derive(Clone, Debug)]
pub struct HeldState {
    /// Per unit, whether it is held yet.
    pub held: Vec<bool>,
    /// Per unit, whether it is a fleet.
    pub fleets: Vec<bool>,
}

impl Replay for HeldState {
    type Event = usize;
    type Undo = bool;

    fn apply(&mut self, e: &usize, undo: &mut Vec<bool>) {
        if let Some(h) = self.held.get_mut(*e) {
            undo.push(*h);
            *h = true;
        }
    }

    fn revert(&mut self, e: &usize, undo: &[bool]) {
        if let (Some(h), Some(was)) = (self.held.get_mut(*e), undo.first()) {
            *h = *was;
        }
    }

    fn describe(&self, e: &usize, input: &PhaseInput<'_>) -> String {
        match input.units.get(*e) {
            Some(u) => format!("{} {} holds", u.kind.letter(), input.map.loc_abbr(u.loc)),
            None => format!("unit {e} holds"),
        }
    }

    /// A fleet held is a landmark (the stepper's cycle keys go there); every event settles.
    fn mark(&self, e: &usize) -> Mark {
        Mark {
            minor: false,
            landmark: self
                .fleets
                .get(*e)
                .copied()
                .unwrap_or(false)
                .then_some(Landmark::Cycle),
            tone: Tone::Settled,
        }
    }

    fn sections(&self, input: &PhaseInput<'_>) -> Vec<Section> {
        let held: Vec<String> = input
            .units
            .iter()
            .zip(&self.held)
            .filter(|(_, h)| **h)
            .map(|(u, _)| format!("{} {}", u.kind.letter(), input.map.loc_abbr(u.loc)))
            .collect();
        vec![
            Section::new("held so far", held),
            Section::new(
                "toy count",
                vec![format!(
                    "{} of {} held",
                    self.held.iter().filter(|h| **h).count(),
                    self.held.len()
                )],
            ),
        ]
    }
}

impl Detail for Held {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn shows(&self) -> Shows {
        Shows {
            trace: self.trace.is_some(),
            ..Shows::default()
        }
    }

    fn steps(&self, input: &PhaseInput<'_>) -> Option<Box<dyn Steps>> {
        let events = self.trace.clone()?;
        let start = HeldState {
            held: vec![false; input.units.len()],
            fleets: input
                .units
                .iter()
                .map(|u| u.kind == UnitKind::Fleet)
                .collect(),
        };
        Some(Box::new(Cursor::from_trace(events, start)))
    }
}

impl Engine for HoldEngine {
    fn name(&self) -> &str {
        "hold"
    }

    fn title(&self) -> &str {
        "a toy engine (every unit holds)"
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        let outcomes = input
            .orders
            .iter()
            .map(|e| match e.order.kind {
                OrderKind::Move { .. } => {
                    OrderOutcome::text(Verdict::Fails, "the toy engine holds it".into())
                }
                _ => OrderOutcome::text(Verdict::Succeeds, "holds".into()),
            })
            .collect();
        let phase = PhaseResult {
            outcomes,
            final_units: input.units.to_vec(),
            ..PhaseResult::default()
        };
        let held = Held {
            trace: trace.then(|| (0..input.units.len()).collect()),
        };
        Ok(Adjudication::with_detail(
            self.name(),
            phase,
            Arc::new(held),
        ))
    }
}
