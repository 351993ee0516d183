//! The decision engine on the engine seam: [`DecisionEngine`], and its result
//! ([`MovementResult`]) as the detail of an [`Adjudication`].

use std::any::Any;
use std::sync::Arc;

use crate::engine::legality::CLASSING_OPTIONS;
use crate::engine::legality::Prepared;
use crate::engine::outcome::PhaseResult;
use crate::engine::seam::{
    Adjudication, Detail, Engine, EngineError, OptionUse, PhaseInput, Shows, Steps,
};

use super::adjudicator::{MovementResult, adjudicate, adjudicate_verdicts};
use super::stepper::Stepper;

/// The decision engine on the seam.
#[derive(Clone, Copy, Debug, Default)]
pub struct DecisionEngine;

impl Engine for DecisionEngine {
    fn option_use(&self, field: &str) -> OptionUse {
        // The decision model reads the DATC options; the DPjudge game options are not its, and
        // the classing options reach it through the legality step only.
        if field.starts_with("dpjudge_") {
            OptionUse::Never
        } else if CLASSING_OPTIONS.contains(&field) {
            OptionUse::Classing
        } else {
            OptionUse::Direct
        }
    }

    fn name(&self) -> &str {
        "decisions"
    }

    fn title(&self) -> &str {
        "the decision model (DATC chapter 5)"
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        let r = adjudicate(input.map, input.units, input.orders, input.rules, trace);
        Ok(Adjudication::with_detail(
            self.name(),
            r.phase(),
            Arc::new(r),
        ))
    }

    fn movement_verdicts(&self, input: &PhaseInput<'_>) -> Result<PhaseResult, EngineError> {
        Ok(adjudicate_verdicts(
            input.map,
            input.units,
            input.orders,
            input.rules,
        ))
    }
}

impl Detail for MovementResult {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn shows(&self) -> Shows {
        Shows {
            decisions: true,
            procedure: false,
            trace: self.trace.is_some(),
        }
    }

    fn steps(&self, input: &PhaseInput<'_>) -> Option<Box<dyn Steps>> {
        let st = Stepper::for_phase(self, input)?;
        Some(Box::new(st))
    }

    fn prepared(&self) -> Option<&Prepared> {
        Some(&self.prepared)
    }
}

impl Adjudication {
    /// The decision engine's result (graph, classed orders, trace), when it made this one.
    pub fn decisions(&self) -> Option<&MovementResult> {
        self.detail::<MovementResult>()
    }
}
