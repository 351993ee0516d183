//! The guess engine's trace: what a rule lawyer watches while [`super::resolver`] runs DATC
//! 5.F — which order was entered, which was met again deeper and guessed, the result under each
//! guess, "same result both ways", the cycle handed to the backup rule and what the rule
//! forced.
//!
//! The resolver takes a [`Tracer<Event>`](crate::engine::trace::Tracer) as a type parameter
//! (`engine/trace.rs`, shared by every engine): with `NoTrace` every event is compiled away and
//! the hot path pays nothing; `Recorder<Event>` keeps them for the stepper.

pub use crate::engine::outcome::BackupRule;

/// How an order got its final result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Its first adjudication read no guess: no cycle below it.
    NoCycle,
    /// It was the ancestor of a cycle and both guesses gave the same result.
    SameBothWays,
}

/// One event of the 5.F resolver. Orders are unit indices (the unit whose order it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `resolve` was called on an order with no stored result: it is now visited, and a visit
    /// deeper in the recursion will read its guess, failure (5.F: `order.resolution = False`).
    Enter {
        /// The order.
        order: u32,
    },
    /// An order being adjudicated was met again deeper in the recursion: it joins the cycle
    /// and the reader gets its current guess.
    MetAgain {
        /// The order met again.
        order: u32,
        /// The guess returned.
        guess: bool,
        /// The order whose adjudication read it.
        by: u32,
    },
    /// An order in the cycle (not yet resolved) was read: the reader gets its stored result.
    ReadInCycle {
        /// The order read.
        order: u32,
        /// The stored result returned.
        value: bool,
        /// The order whose adjudication read it.
        by: u32,
    },
    /// The first adjudication (with the guess "fails") is done.
    FirstResult {
        /// The order.
        order: u32,
        /// Its result.
        value: bool,
        /// Whether it read any guess (5.F's `guess_based`).
        guess_based: bool,
    },
    /// The order is the ancestor of the whole cycle: the cycle is cleared back to `keep`
    /// members and the order is adjudicated again with the guess "succeeds".
    SecondGuess {
        /// The order.
        order: u32,
        /// The cycle's length when the order was entered (what is kept).
        keep: u32,
    },
    /// The second adjudication (with the guess "succeeds") is done.
    SecondResult {
        /// The order.
        order: u32,
        /// Its result.
        value: bool,
    },
    /// The order is resolved for good.
    Resolved {
        /// The order.
        order: u32,
        /// Its result.
        value: bool,
        /// How.
        how: How,
        /// The cycle's length when the order was entered (what is kept).
        keep: u32,
    },
    /// Back from a recursion that met a cycle this order is not the ancestor of: it keeps its
    /// result, unresolved, in the cycle, and the recursion retreats further.
    Retreat {
        /// The order.
        order: u32,
        /// The result it keeps for readers while the cycle is open.
        value: bool,
    },
    /// The two guesses gave different results: the cycle's orders went to the backup rule.
    Backup {
        /// The ancestor of the cycle.
        order: u32,
        /// The cycle's orders (those added since the ancestor was entered), in order.
        cycle: Vec<u32>,
        /// The rule applied.
        rule: BackupRule,
        /// The orders whose result the rule set, with it.
        forced: Vec<(u32, bool)>,
        /// The cycle's length when the ancestor was entered (what is kept).
        keep: u32,
    },
}

impl Event {
    /// The order the event is about.
    pub fn order(&self) -> u32 {
        match self {
            Event::Enter { order }
            | Event::MetAgain { order, .. }
            | Event::ReadInCycle { order, .. }
            | Event::FirstResult { order, .. }
            | Event::SecondGuess { order, .. }
            | Event::SecondResult { order, .. }
            | Event::Resolved { order, .. }
            | Event::Retreat { order, .. }
            | Event::Backup { order, .. } => *order,
        }
    }
}
