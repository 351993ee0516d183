//! The adjudicators, behind one seam ([`seam`]): every engine takes a [`PhaseInput`] and gives
//! back an [`Adjudication`]; the [`registry`] lists them by name; one generic [`cursor`] steps
//! through any engine's trace.
//!
//! Shared by every engine (leaf modules): what an engine produces ([`outcome`]), why an order
//! had its outcome ([`reason`]), the legality step ([`legality`]), and the engine-independent
//! retreat ([`retreat`]) and adjustment ([`adjust`]) phases. The movement engines, each in its
//! own folder with an `engine.rs` that puts it on the seam: [`decision`] (the decision model of
//! DATC chapter 5, the default), [`dpjudge`] (the DPjudge's published procedure) and [`guess`]
//! (DATC 5.F's guess algorithm); and
//! [`outside`], any outside program speaking the JSON protocol. [`departure`]: an engine's
//! documented departures from the DATC, as data a bench can match. [`backup`]: the backup rules
//! after a paradox (which rule, which moves belong to the paradox, what failing them does),
//! one module both the decision and the guess engine call. [`trace`]: the one `Tracer` every
//! engine's resolver takes as a type parameter (`NoTrace`, free; `Recorder`, every event), each
//! engine with its own event type.
//!
//! This file only declares and re-exports: modules below import from the leaf files, never
//! from here.

pub mod adjust;
pub mod backup;
pub mod cursor;
pub mod decision;
pub mod departure;
pub mod dpjudge;
pub mod guess;
pub mod legality;
pub mod outcome;
pub mod outside;
pub mod reason;
pub mod registry;
pub mod retreat;
pub mod seam;
pub mod trace;

pub use cursor::{Cursor, Replay};
pub use decision::{
    Adjudicator, DecisionEngine, MovementResult, Outcome, adjudicate_movement, value_text,
};
pub use departure::{Departure, KnownBy};
pub use dpjudge::DpjudgeEngine;
pub use guess::GuessEngine;
pub use outcome::{BackupRule, OrderOutcome, PhaseResult, UnitResult, Verdict};
pub use reason::{Against, Reason};
pub use registry::Registry;
pub use seam::{
    Adjudication, Detail, Engine, EngineError, Landmark, Mark, OptionUse, PhaseInput, Section,
    Shows, Steps, Tone,
};
