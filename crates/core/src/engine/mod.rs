//! The adjudicators. Shared by every engine (leaf modules): what an engine produces
//! ([`outcome`]), why an order had its outcome ([`reason`]), the legality step ([`legality`]),
//! and the engine-independent retreat ([`retreat`]) and adjustment ([`adjust`]) phases. The
//! movement engines, each in its own folder: [`decision`] (the decision model of DATC chapter 5,
//! the default) and [`dpjudge`] (the DPjudge's published procedure).
//!
//! This file only declares and re-exports: modules below import from the leaf files, never
//! from here.

pub mod adjust;
pub mod choice;
pub mod decision;
pub mod dpjudge;
pub mod legality;
pub mod outcome;
pub mod reason;
pub mod retreat;

pub use choice::Engine;
pub use decision::{
    Adjudicator, MovementResult, Outcome, adjudicate_movement, adjudicate_movement_traced,
    graphviz, resolver, stepper, trace, value_text,
};
pub use outcome::{BackupRule, OrderOutcome, PhaseResult, UnitResult, Verdict};
pub use reason::{Against, Reason};
