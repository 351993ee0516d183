//! A cursor over a recorded trace: the state of every decision as of any event, forward and
//! back, exactly and without re-running the resolver.
//!
//! The trace starts with [`Event::Start`] (every decision's initial bounds); each
//! [`Event::Tightened`] carries its from → to, so stepping over it either way is one store.
//! Values forced by a backup rule carry only their new value: the bounds they replaced are worked
//! out once, when the stepper is built, by replaying the trace. Stepping to the end gives exactly
//! the resolver's final values.
//!
//! ```
//! use dipsandbox::adjudicator::stepper::Stepper;
//! use dipsandbox::check::run;
//! use dipsandbox::scenario::Scenario;
//!
//! let s = Scenario::builtin().unwrap();
//! let r = run(&s, None, true).unwrap();
//! let m = r.movement.as_ref().unwrap();
//! let mut st = Stepper::new(m).unwrap();
//! assert_eq!(st.cursor(), 0);
//! let cycle = st.next_backup_event().unwrap();
//! st.seek(cycle + 1);
//! st.seek(st.len());
//! assert!((0..m.graph.nodes.len() as u32).all(|id| st.bounds(id) == (m.graph.lo[id as usize], m.graph.hi[id as usize])));
//! ```

use super::MovementResult;
use super::trace::Event;

const NONE: u32 = u32::MAX;

/// A cursor over a movement result's trace.
#[derive(Clone, Debug)]
pub struct Stepper {
    events: Vec<Event>,
    lo: Vec<i32>,
    hi: Vec<i32>,
    cursor: usize,
    /// Per decision: how many applied cycle events contain it.
    cycle: Vec<u32>,
    /// Per decision: how many applied backup events forced it.
    forced: Vec<u32>,
    /// Per unit: how many applied events cancelled its convoy.
    cancelled: Vec<u32>,
    /// Per event, where its undo records start in `undo` (one more entry at the end).
    undo_start: Vec<u32>,
    /// The bounds that backup events replaced: (decision, low, high).
    undo: Vec<(u32, i32, i32)>,
    /// Per decision, the event after which it had its final value (NONE: from the start).
    settled: Vec<u32>,
    /// Indices of cycle, cancellation and backup events, ascending.
    backups: Vec<usize>,
}

fn is_backup(e: &Event) -> bool {
    matches!(
        e,
        Event::CycleFound { .. } | Event::ConvoysCancelled { .. } | Event::BackupApplied { .. }
    )
}

impl Stepper {
    /// A stepper at the start of the result's trace; None when it was adjudicated without
    /// tracing.
    pub fn new(result: &MovementResult) -> Option<Stepper> {
        let events = result.trace.clone()?;
        let m = result.graph.nodes.len();
        let (mut lo, mut hi) = match events.first() {
            Some(Event::Start { bounds }) if bounds.len() == m => bounds.iter().copied().unzip(),
            _ => (result.graph.lo.clone(), result.graph.hi.clone()),
        };
        lo.resize(m, 0);
        hi.resize(m, 0);
        let units = result.units.len();
        let mut st = Stepper {
            lo: Vec::new(),
            hi: Vec::new(),
            cursor: 0,
            cycle: vec![0; m],
            forced: vec![0; m],
            cancelled: vec![0; units],
            undo_start: Vec::with_capacity(events.len() + 1),
            undo: Vec::new(),
            settled: vec![NONE; m],
            backups: (0..events.len())
                .filter(|&i| is_backup(&events[i]))
                .collect(),
            events,
        };
        // Replay once to record what backup events replaced and when each decision settled.
        let (mut l, mut h) = (lo.clone(), hi.clone());
        for (i, e) in st.events.iter().enumerate() {
            st.undo_start.push(st.undo.len() as u32);
            let mut set = |id: u32, a: i32, b: i32, undo: Option<&mut Vec<(u32, i32, i32)>>| {
                let k = id as usize;
                if k >= m {
                    return;
                }
                if let Some(u) = undo {
                    u.push((id, l[k], h[k]));
                }
                l[k] = a;
                h[k] = b;
                if a == b && st.settled[k] == NONE {
                    st.settled[k] = i as u32;
                }
            };
            match e {
                Event::Tightened { node, to, .. } => set(*node, to.0, to.1, None),
                Event::BackupApplied { forced, .. } => {
                    for &(id, v) in forced {
                        set(id, v, v, Some(&mut st.undo));
                    }
                }
                _ => {}
            }
        }
        st.undo_start.push(st.undo.len() as u32);
        // Decisions resolved from the start have no settling event.
        for k in 0..m {
            if lo[k] == hi[k] {
                st.settled[k] = NONE;
            }
        }
        st.lo = lo;
        st.hi = hi;
        Some(st)
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

    /// All events.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The last applied event.
    pub fn last_event(&self) -> Option<&Event> {
        self.cursor.checked_sub(1).and_then(|i| self.events.get(i))
    }

    fn set(&mut self, id: u32, lo: i32, hi: i32) {
        if let (Some(l), Some(h)) = (self.lo.get_mut(id as usize), self.hi.get_mut(id as usize)) {
            *l = lo;
            *h = hi;
        }
    }

    fn count(v: &mut [u32], i: usize, up: bool) {
        if let Some(c) = v.get_mut(i) {
            *c = if up { *c + 1 } else { c.saturating_sub(1) };
        }
    }

    /// Applies the next event; false at the end.
    pub fn forward(&mut self) -> bool {
        let i = self.cursor;
        if i >= self.events.len() {
            return false;
        }
        // Take the event out to update the state without cloning it.
        let e = std::mem::replace(&mut self.events[i], Event::Visit { node: NONE });
        match &e {
            Event::Tightened { node, to, .. } => self.set(*node, to.0, to.1),
            Event::BackupApplied { forced, .. } => {
                for &(id, v) in forced {
                    self.set(id, v, v);
                    Self::count(&mut self.forced, id as usize, true);
                }
            }
            Event::CycleFound { members, .. } => {
                for &id in members {
                    Self::count(&mut self.cycle, id as usize, true);
                }
            }
            Event::ConvoysCancelled { fleets } => {
                for &f in fleets {
                    Self::count(&mut self.cancelled, f, true);
                }
            }
            Event::Start { .. } | Event::Visit { .. } | Event::Resolved { .. } => {}
        }
        self.events[i] = e;
        self.cursor += 1;
        true
    }

    /// Undoes the last applied event exactly; false at the start.
    pub fn back(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        let i = self.cursor - 1;
        let e = std::mem::replace(&mut self.events[i], Event::Visit { node: NONE });
        match &e {
            Event::Tightened { node, from, .. } => self.set(*node, from.0, from.1),
            Event::BackupApplied { forced, .. } => {
                let (a, b) = (self.undo_start[i] as usize, self.undo_start[i + 1] as usize);
                for k in (a..b).rev() {
                    let (id, lo, hi) = self.undo[k];
                    self.set(id, lo, hi);
                }
                for &(id, _) in forced {
                    Self::count(&mut self.forced, id as usize, false);
                }
            }
            Event::CycleFound { members, .. } => {
                for &id in members {
                    Self::count(&mut self.cycle, id as usize, false);
                }
            }
            Event::ConvoysCancelled { fleets } => {
                for &f in fleets {
                    Self::count(&mut self.cancelled, f, false);
                }
            }
            Event::Start { .. } | Event::Visit { .. } | Event::Resolved { .. } => {}
        }
        self.events[i] = e;
        self.cursor = i;
        true
    }

    /// Moves the cursor to `k` (clamped to `len()`), one event at a time.
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.events.len());
        while self.cursor < k && self.forward() {}
        while self.cursor > k && self.back() {}
    }

    /// A decision's bounds (low, high) as of the cursor; (0, 0) for an unknown id.
    pub fn bounds(&self, node: u32) -> (i32, i32) {
        match (self.lo.get(node as usize), self.hi.get(node as usize)) {
            (Some(l), Some(h)) => (*l, *h),
            _ => (0, 0),
        }
    }

    /// Whether a decision has its value as of the cursor.
    pub fn resolved(&self, node: u32) -> bool {
        let (l, h) = self.bounds(node);
        l == h
    }

    /// Whether a decision is part of a cycle found by the applied events.
    pub fn in_cycle(&self, node: u32) -> bool {
        self.cycle.get(node as usize).is_some_and(|c| *c > 0)
    }

    /// Whether a backup rule forced a decision's value, as of the cursor.
    pub fn forced(&self, node: u32) -> bool {
        self.forced.get(node as usize).is_some_and(|c| *c > 0)
    }

    /// Whether the Szykman rule cancelled this fleet's convoy, as of the cursor.
    pub fn cancelled(&self, unit: usize) -> bool {
        self.cancelled.get(unit).is_some_and(|c| *c > 0)
    }

    /// The index of the next cycle, cancellation or backup-rule event at or after the cursor.
    pub fn next_backup_event(&self) -> Option<usize> {
        let k = self.backups.partition_point(|&i| i < self.cursor);
        self.backups.get(k).copied()
    }

    /// The index of the previous such event, before the last applied one.
    pub fn prev_backup_event(&self) -> Option<usize> {
        let before = self.cursor.saturating_sub(1);
        let k = self.backups.partition_point(|&i| i < before);
        k.checked_sub(1).map(|k| self.backups[k])
    }

    /// The index of the event after which a decision had its final value; None when it had it
    /// from the start (or the id is unknown).
    pub fn settled_at(&self, node: u32) -> Option<usize> {
        self.settled
            .get(node as usize)
            .filter(|&&i| i != NONE)
            .map(|&i| i as usize)
    }

    /// The decisions an event is about (for highlighting): the decision of a tightening, the
    /// members of a cycle, the decisions a backup rule forced.
    pub fn nodes_of(&self, event: usize) -> Vec<u32> {
        match self.events.get(event) {
            Some(
                Event::Tightened { node, .. }
                | Event::Resolved { node, .. }
                | Event::Visit { node },
            ) => vec![*node],
            Some(Event::CycleFound { members, .. }) => members.clone(),
            Some(Event::BackupApplied { forced, .. }) => forced.iter().map(|f| f.0).collect(),
            _ => Vec::new(),
        }
    }
}
