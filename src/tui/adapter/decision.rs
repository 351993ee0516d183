//! The decision engine's view family: its stepper (the bounds of
//! every decision as of the cursor). The decisions, tree and trace panels and the board's
//! results as of the cursor read them through here.

use dipsandbox_core::engine::Steps;
use dipsandbox_core::engine::decision::stepper::Stepper;

/// The cursor as the decision engine's stepper, when that engine made the trace.
pub fn stepper(c: Option<&dyn Steps>) -> Option<&Stepper> {
    c?.as_any().downcast_ref()
}
