//! The DPjudge procedure on the engine seam: [`DpjudgeEngine`], and its result
//! ([`DpjudgeResult`]) as the detail of an [`Adjudication`].

use std::any::Any;
use std::sync::Arc;

use crate::engine::departure::Departure;
use crate::engine::legality::CLASSING_OPTIONS;
use crate::engine::legality::Prepared;
use crate::engine::seam::{
    Adjudication, Detail, Engine, EngineError, OptionUse, PhaseInput, Shows, Steps,
};

use super::procedure::adjudicate;
use super::stepper::DpStepper;
use super::types::DpjudgeResult;

/// The DPjudge procedure as an engine on the seam.
#[derive(Clone, Copy, Debug, Default)]
pub struct DpjudgeEngine;

impl Engine for DpjudgeEngine {
    fn option_use(&self, field: &str) -> OptionUse {
        // The procedure classes the orders through the legality step, and reads
        // `path_specification` itself besides (a written path in steps 1 and 2).
        if CLASSING_OPTIONS.contains(&field) && field != "path_specification" {
            OptionUse::Classing
        } else {
            OptionUse::Direct
        }
    }

    fn name(&self) -> &str {
        "dpjudge"
    }

    fn departures(&self) -> Vec<Departure> {
        super::departures::departures()
    }

    fn title(&self) -> &str {
        "the DPjudge procedure (steps 1–10)"
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        let r = adjudicate(input.map, input.units, input.orders, input.rules, trace);
        Ok(Adjudication::with_detail(
            self.name(),
            r.phase(),
            Arc::new(r),
        ))
    }
}

impl Detail for DpjudgeResult {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn shows(&self) -> Shows {
        Shows {
            decisions: false,
            procedure: true,
            trace: self.trace.is_some(),
        }
    }

    fn steps(&self, input: &PhaseInput<'_>) -> Option<Box<dyn Steps>> {
        let st = DpStepper::new(self, input.units)?;
        Some(Box::new(st))
    }

    fn prepared(&self) -> Option<&Prepared> {
        Some(&self.prepared)
    }
}

impl Adjudication {
    /// The DPjudge procedure's result (marks, counts, trace), when it made this one.
    pub fn procedure(&self) -> Option<&DpjudgeResult> {
        self.detail::<DpjudgeResult>()
    }
}
