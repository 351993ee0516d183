//! The decision engine's view family: its result (the graph) and its stepper (the bounds of
//! every decision as of the cursor). The decisions, tree and trace panels and the board's
//! results as of the cursor read them through here.

use dipsandbox_core::engine::decision::MovementResult;
use dipsandbox_core::engine::decision::stepper::Stepper;
use dipsandbox_core::engine::{Adjudication, Steps};

/// The decision engine's result (graph, classed orders), when it made `a`.
pub fn result(a: &Adjudication) -> Option<&MovementResult> {
    a.decisions()
}

/// The cursor as the decision engine's stepper, when that engine made the trace.
pub fn stepper(c: Option<&dyn Steps>) -> Option<&Stepper> {
    c?.as_any().downcast_ref()
}
