//! The one door from the TUI to an engine's own types, one module per view family. Everything
//! else in the TUI asks the engine seam ([`dipsandbox_core::engine::Adjudication`]: what it
//! [`Shows`], its [`Steps`]
//! with each event's words, [`Mark`](dipsandbox_core::engine::Mark) and the engine's state in
//! [`Section`](dipsandbox_core::engine::Section)s) and so draws any engine's trace, a new one
//! included, with no code here.
//!
//! - [`decision`]: the decision engine's graph and stepper, for the decisions, tree and trace
//!   panels and the board's results as of the cursor.
//! - [`procedure`]: the DPjudge procedure's stepper, for the units and combat panels.
//!
//! These are the only TUI modules that downcast (a test holds that).

pub mod decision;
pub mod procedure;

use dipsandbox_core::engine::{Adjudication, Shows, Steps};

/// The panels the stepper view draws for the session's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The decision graph: decisions, their dependency tree, the trace.
    Decisions,
    /// The DPjudge procedure: units with marks and counts, combat lists, the trace.
    Procedure,
    /// Any engine's trace with the engine's state at the step (the guess engine, outside and
    /// test engines).
    Trace,
    /// No trace: each order's outcome.
    Outcomes,
}

/// The family of panels that shows what `result` shows, given the cursor over its trace.
pub fn family(result: &Adjudication, cursor: Option<&dyn Steps>) -> Family {
    let Shows {
        decisions,
        procedure,
        trace,
    } = result.shows();
    if cursor.is_none() {
        Family::Outcomes
    } else if decisions && decision::stepper(cursor).is_some() {
        Family::Decisions
    } else if procedure && procedure::stepper(cursor).is_some() {
        Family::Procedure
    } else if trace {
        Family::Trace
    } else {
        Family::Outcomes
    }
}
