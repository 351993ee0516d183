//! The DPjudge procedure's view family: its stepper (marks, support counts, combat lists and
//! where units stand, as of the cursor). The units and combat panels and the board's results as
//! of the cursor read it through here.

use dipsandbox_core::engine::Steps;
use dipsandbox_core::engine::dpjudge::DpStepper;

/// The cursor as the DPjudge procedure's stepper, when that engine made the trace.
pub fn stepper(c: Option<&dyn Steps>) -> Option<&DpStepper> {
    c?.as_any().downcast_ref()
}
