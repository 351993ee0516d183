//! The resolver's reasoning as an ordered event log (the DOT export is in
//! [`super::graphviz`]).
//!
//! The resolver takes a [`Tracer<Event>`](crate::engine::trace::Tracer) as a type parameter
//! (`engine/trace.rs`, shared by every engine): with `NoTrace` every event is compiled away and
//! the hot path pays nothing; `Recorder<Event>` keeps them for the stepper.

pub use crate::engine::outcome::BackupRule;

/// What a decision cycle was found to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleKind {
    /// Only moves (and their strengths): circular movement.
    CircularMovement,
    /// Involves a convoy: a convoy disruption paradox.
    ConvoyParadox,
}

/// One step of the resolver's reasoning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The first event: every decision's bounds before any reasoning (low, high), by node id.
    Start {
        /// Initial bounds of each decision.
        bounds: Vec<(i32, i32)>,
    },
    /// A decision's equation was evaluated.
    Visit {
        /// The decision.
        node: u32,
    },
    /// A decision's bounds tightened.
    Tightened {
        /// The decision.
        node: u32,
        /// Bounds before (low, high).
        from: (i32, i32),
        /// Bounds after.
        to: (i32, i32),
        /// The inputs' bounds at that moment.
        inputs: Vec<(u32, i32, i32)>,
    },
    /// A decision got its final value.
    Resolved {
        /// The decision.
        node: u32,
        /// Its value.
        value: i32,
    },
    /// No decision could tighten: a cycle of open decisions was found.
    CycleFound {
        /// The decisions in the cycle (sorted).
        members: Vec<u32>,
        /// The cycle in order: a closed walk along dependency edges (each decision is followed
        /// by one its equation reads) through every member, first and last the same.
        walk: Vec<u32>,
        /// What it is.
        kind: CycleKind,
    },
    /// Szykman's rule cancelled these fleets' convoys.
    ConvoysCancelled {
        /// Unit indices of the fleets.
        fleets: Vec<usize>,
    },
    /// A backup rule set these decisions (for Szykman: the PATH decisions its cancellation
    /// decided).
    BackupApplied {
        /// The rule.
        rule: BackupRule,
        /// Decisions and the values forced on them.
        forced: Vec<(u32, i32)>,
    },
}
