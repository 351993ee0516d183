//! One cursor over any engine's trace: the state as of any event, forward and back, exactly and
//! without re-running the engine.
//!
//! An engine's trace state implements [`Replay`]: applying an event records what it overwrote
//! that the event itself does not carry (for the decision engine, the bounds a tightening
//! replaced; for the DPjudge procedure, the place an entry was removed from), and reverting an
//! event restores exactly that. [`Cursor::from_trace`] replays the trace once to record those
//! undo records in one flat buffer; after that, stepping either way costs one event's work and
//! stepping back restores exactly what stepping forward overwrote, even for a trace whose own
//! "from" values are wrong.
//!
//! Cursor `k` means `events[0..k]` are applied: 0 is the start, [`Cursor::len`] the end, and
//! "going to event `i`" is `seek(i + 1)`. No call panics, whatever the order of calls; a cursor
//! beyond the end is clamped.
//!
//! Each engine adds its own view of the state as inherent methods on its instantiation (the
//! decision engine's [`super::decision::stepper::Stepper`], the DPjudge's
//! [`super::dpjudge::stepper::DpStepper`]).

use std::any::Any;
use std::fmt;

use super::seam::{Mark, PhaseInput, Section, Steps};

/// An engine's trace state, which events change one at a time and which can take each change
/// back.
pub trait Replay: Clone + fmt::Debug + Send + 'static {
    /// One event of the engine's trace.
    type Event: Clone + fmt::Debug + Send + 'static;
    /// What an event overwrote that the event itself does not carry.
    type Undo: Copy + fmt::Debug + Send + 'static;

    /// Applies an event, pushing onto `undo` what it overwrote (nothing, when the event carries
    /// everything needed to take it back).
    fn apply(&mut self, e: &Self::Event, undo: &mut Vec<Self::Undo>);

    /// Takes an event back, given what its application pushed (in the order it pushed them).
    fn revert(&mut self, e: &Self::Event, undo: &[Self::Undo]);

    /// An event in one line, with the phase the trace was made from and the state as of the
    /// cursor.
    fn describe(&self, e: &Self::Event, input: &PhaseInput<'_>) -> String {
        let _ = input;
        format!("{e:?}")
    }

    /// The state in one line (empty by default), with the phase the trace was made from.
    fn summary(&self, input: &PhaseInput<'_>) -> String {
        let _ = input;
        String::new()
    }

    /// How an event stands out ([`Mark::default`] unless the engine says).
    fn mark(&self, e: &Self::Event) -> Mark {
        let _ = e;
        Mark::default()
    }

    /// The units an event is about (none unless the engine says).
    fn units(&self, e: &Self::Event) -> Vec<usize> {
        let _ = e;
        Vec::new()
    }

    /// The state in named sections (by default one with [`Replay::summary`], when it says
    /// anything).
    fn sections(&self, input: &PhaseInput<'_>) -> Vec<Section> {
        Section::of_summary(self.summary(input))
    }
}

/// A cursor over a recorded trace, with the state as of the cursor.
#[derive(Clone, Debug)]
pub struct Cursor<S: Replay> {
    events: Vec<S::Event>,
    state: S,
    cursor: usize,
    /// Per event, where its records start in `undo` (one more entry at the end).
    undo_start: Vec<u32>,
    /// What each event overwrote, event after event.
    undo: Vec<S::Undo>,
    /// Scratch for stepping forward (the records are already known).
    scratch: Vec<S::Undo>,
}

impl<S: Replay> Cursor<S> {
    /// A cursor at the start of `events`, from the state before the first of them. The trace is
    /// replayed once, on a copy of the state, to record what each event overwrites.
    pub fn from_trace(events: Vec<S::Event>, start: S) -> Cursor<S> {
        let mut s = start.clone();
        let mut undo_start = Vec::with_capacity(events.len() + 1);
        let mut undo = Vec::new();
        for e in &events {
            undo_start.push(u32::try_from(undo.len()).unwrap_or(u32::MAX));
            s.apply(e, &mut undo);
        }
        undo_start.push(u32::try_from(undo.len()).unwrap_or(u32::MAX));
        Cursor {
            events,
            state: start,
            cursor: 0,
            undo_start,
            undo,
            scratch: Vec::new(),
        }
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether the trace has no event.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// How many events are applied: 0 (the start) to `len()` (the end).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// All events, in order.
    pub fn events(&self) -> &[S::Event] {
        &self.events
    }

    /// The last applied event (`events()[cursor() - 1]`); None at the start.
    pub fn last_event(&self) -> Option<&S::Event> {
        self.cursor.checked_sub(1).and_then(|i| self.events.get(i))
    }

    /// The state as of the cursor.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// Applies the next event; false (and no change) at the end.
    pub fn forward(&mut self) -> bool {
        let Some(e) = self.events.get(self.cursor) else {
            return false;
        };
        self.scratch.clear();
        self.state.apply(e, &mut self.scratch);
        self.cursor += 1;
        true
    }

    /// Undoes the last applied event exactly; false (and no change) at the start.
    pub fn back(&mut self) -> bool {
        let Some(i) = self.cursor.checked_sub(1) else {
            return false;
        };
        let Some(e) = self.events.get(i) else {
            return false;
        };
        let a = self.undo_start.get(i).copied().unwrap_or(0) as usize;
        let b = self.undo_start.get(i + 1).copied().unwrap_or(0) as usize;
        let replaced = self.undo.get(a..b).unwrap_or(&[]);
        self.state.revert(e, replaced);
        self.cursor = i;
        true
    }

    /// Moves the cursor to `k` (clamped to `len()`), one event at a time: O(|k - cursor|).
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.events.len());
        while self.cursor < k && self.forward() {}
        while self.cursor > k && self.back() {}
    }
}

impl<S: Replay> Steps for Cursor<S> {
    fn len(&self) -> usize {
        Cursor::len(self)
    }
    fn cursor(&self) -> usize {
        Cursor::cursor(self)
    }
    fn forward(&mut self) -> bool {
        Cursor::forward(self)
    }
    fn back(&mut self) -> bool {
        Cursor::back(self)
    }
    fn seek(&mut self, k: usize) {
        Cursor::seek(self, k)
    }
    fn describe(&self, input: &PhaseInput<'_>, i: usize) -> String {
        self.events
            .get(i)
            .map(|e| self.state.describe(e, input))
            .unwrap_or_default()
    }
    fn summary(&self, input: &PhaseInput<'_>) -> String {
        self.state.summary(input)
    }
    fn mark(&self, i: usize) -> Mark {
        self.events
            .get(i)
            .map(|e| self.state.mark(e))
            .unwrap_or_default()
    }
    fn units(&self, i: usize) -> Vec<usize> {
        self.events
            .get(i)
            .map(|e| self.state.units(e))
            .unwrap_or_default()
    }
    fn sections(&self, input: &PhaseInput<'_>) -> Vec<Section> {
        self.state.sections(input)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
