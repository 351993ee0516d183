//! Tracing, one way for every engine: an engine's resolver takes a [`Tracer`] of its own event
//! type as a type parameter and hands it each step of its reasoning. [`NoTrace`] has
//! `ON = false`, so every `if T::ON { … }` (and every [`Tracer::record`]) in a resolver is
//! compiled away and the hot path neither builds nor stores an event; [`Recorder`] keeps them
//! all, in order, for the engine's `Replay` ([`super::cursor`]).
//!
//! The events themselves are each engine's own: `decision::trace::Event` (the decision
//! model's bounds), `guess::trace::Event` (DATC 5.F's guesses) and `dpjudge::DpEvent` (the
//! DPjudge procedure's marks and lists).

/// Receives an engine's events of type `E`.
pub trait Tracer<E> {
    /// Whether events are recorded at all; when false the engine builds none.
    const ON: bool;

    /// Records one event.
    fn event(&mut self, e: E);

    /// Records the event `make` builds, building it only when [`Tracer::ON`].
    #[inline(always)]
    fn record(&mut self, make: impl FnOnce() -> E) {
        if Self::ON {
            self.event(make());
        }
    }
}

/// No tracing: free, for any event type.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl<E> Tracer<E> for NoTrace {
    const ON: bool = false;

    #[inline(always)]
    fn event(&mut self, _e: E) {}
}

/// Records every event, in order.
#[derive(Clone, Debug)]
pub struct Recorder<E> {
    /// The events, in order.
    pub events: Vec<E>,
}

impl<E> Default for Recorder<E> {
    fn default() -> Self {
        Recorder { events: Vec::new() }
    }
}

impl<E> Tracer<E> for Recorder<E> {
    const ON: bool = true;

    fn event(&mut self, e: E) {
        self.events.push(e);
    }
}
