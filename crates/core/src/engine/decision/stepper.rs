//! The decision engine's trace state, for the generic cursor ([`crate::engine::cursor::Cursor`]):
//! the state of every decision as of any event, forward and back, exactly and without re-running
//! the resolver.
//!
//! The trace starts with [`Event::Start`] (every decision's initial bounds); each
//! [`Event::Tightened`] carries its from → to, and each [`Event::BackupApplied`] the values it
//! forced. When the stepper is built it replays the trace once and keeps, per event, the bounds
//! it replaced (for a tightening, its `from`; for a forced value, whatever the decision had), so
//! stepping either way is one store per changed decision and stepping back restores exactly what
//! stepping forward overwrote, even for a trace whose `from` values are wrong. The resolver traces
//! every change it makes to a decision (including its last, pessimistic settling of anything still
//! open), so stepping to the end gives exactly its final values.
//!
//! Cursor `k` means `events[0..k]` are applied: 0 is the start, [`Stepper::len`] the end, and
//! "going to event `i`" is `seek(i + 1)`.
//!
//! No call panics, whatever the order of calls: unknown decision or unit ids answer as documented
//! on each method, and a cursor beyond the end is clamped.
//!
//! ```
//! use dipsandbox_core::engine::decision::stepper::Stepper;
//! use dipsandbox_core::tools::check::run;
//! use dipsandbox_core::model::scenario::Scenario;
//!
//! let s = Scenario::builtin().unwrap();
//! let r = run(&s, None, true).unwrap();
//! let m = r.result.decisions().unwrap();
//! let mut st = Stepper::new(m).unwrap();
//! assert_eq!(st.cursor(), 0);
//! let cycle = st.next_backup_event().unwrap();
//! st.seek(cycle + 1);
//! st.seek(st.len());
//! assert!((0..m.graph.nodes.len() as u32).all(|id| st.bounds(id) == (m.graph.lo[id as usize], m.graph.hi[id as usize])));
//! ```

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): decision ids in the trace
// index bounds tables sized to the graph's decision count when the stepper is built; event indices
// range over the trace.
#![allow(clippy::indexing_slicing)]

use std::sync::Arc;

use crate::engine::cursor::{Cursor, Replay};
use crate::engine::seam::{Landmark, Mark, PhaseInput, Section, Tone};

use super::adjudicator::{MovementResult, value_text};
use super::resolver::NodeKind;
use super::trace::{CycleKind, Event};

const NONE: u32 = u32::MAX;

/// The decision engine's trace state: what the applied events say about every decision and unit,
/// and what the whole trace says (when each decision settled, where the backup events are).
/// Flags are counts of the applied events that set them, so undoing an event clears exactly what
/// it set.
#[derive(Clone, Debug)]
pub struct DecisionReplay {
    lo: Vec<i32>,
    hi: Vec<i32>,
    /// Per decision: how many applied cycle events contain it.
    cycle: Vec<u32>,
    /// Per decision: how many applied backup events forced it.
    forced: Vec<u32>,
    /// Per unit: how many applied events cancelled its convoy.
    cancelled: Vec<u32>,
    /// Per decision, the event that gave it its final value (NONE: it had it from the start).
    settled: Vec<u32>,
    /// Indices of cycle, cancellation and backup-rule events, ascending.
    backups: Vec<usize>,
    /// Per unit, its DISLODGE decision (NONE if it has none).
    dislodge_of: Vec<u32>,
    /// Per decision, its unit.
    node_unit: Vec<usize>,
    /// Words for the decisions and units, when the stepper was made for a phase.
    labels: Arc<Labels>,
}

/// What the decision engine's events are about, in words: per decision its kind and subject
/// (`SUPPORT F Lon S F Wal - Eng`), per unit its place (`F Eng`).
#[derive(Clone, Debug, Default)]
pub struct Labels {
    /// Per decision, its kind.
    kinds: Vec<NodeKind>,
    /// Per decision, its kind and its unit's order in short form.
    subjects: Vec<String>,
    /// Per unit, its kind and place.
    units: Vec<String>,
}

impl Labels {
    /// The words for `result`'s decisions and units in the phase `input`.
    pub fn of(result: &MovementResult, input: &PhaseInput<'_>) -> Labels {
        // Each unit's order once (a unit has several decisions).
        let orders: Vec<String> = (0..input.units.len())
            .map(|u| result.unit_label(input.map, input.units, input.orders, u))
            .collect();
        let subjects = result
            .graph
            .nodes
            .iter()
            .map(|n| {
                let order = orders.get(n.unit).map_or("", String::as_str);
                format!("{} {order}", n.kind.short())
            })
            .collect();
        Labels {
            kinds: result.graph.nodes.iter().map(|n| n.kind).collect(),
            subjects,
            units: input
                .units
                .iter()
                .map(|u| format!("{} {}", u.kind.letter(), input.map.loc_abbr(u.loc)))
                .collect(),
        }
    }

    /// A decision's kind and subject (`?` for an unknown id).
    pub fn subject(&self, id: u32) -> &str {
        self.subjects.get(id as usize).map_or("?", |s| s.as_str())
    }

    /// A value of decision `id` in words.
    fn value(&self, id: u32, lo: i32, hi: i32) -> String {
        match self.kinds.get(id as usize) {
            Some(k) => value_text(*k, lo, hi),
            None => format!("{lo}..{hi}"),
        }
    }
}

/// A cursor over a movement result's trace, with the bounds of every decision as of the cursor.
pub type Stepper = Cursor<DecisionReplay>;

impl DecisionReplay {
    /// Sets a decision's bounds, recording what they were (unknown ids: nothing).
    fn set(&mut self, id: u32, lo: i32, hi: i32, undo: &mut Vec<(u32, i32, i32)>) {
        if let (Some(l), Some(h)) = (self.lo.get_mut(id as usize), self.hi.get_mut(id as usize)) {
            undo.push((id, *l, *h));
            *l = lo;
            *h = hi;
        }
    }

    fn restore(&mut self, id: u32, lo: i32, hi: i32) {
        if let (Some(l), Some(h)) = (self.lo.get_mut(id as usize), self.hi.get_mut(id as usize)) {
            *l = lo;
            *h = hi;
        }
    }

    fn count(v: &mut [u32], i: usize, up: bool) {
        if let Some(c) = v.get_mut(i) {
            *c = if up {
                c.saturating_add(1)
            } else {
                c.saturating_sub(1)
            };
        }
    }

    fn counts(&mut self, e: &Event, up: bool) {
        match e {
            Event::BackupApplied { forced, .. } => {
                for &(id, _) in forced {
                    Self::count(&mut self.forced, id as usize, up);
                }
            }
            Event::CycleFound { members, .. } => {
                for &id in members {
                    Self::count(&mut self.cycle, id as usize, up);
                }
            }
            Event::ConvoysCancelled { fleets } => {
                for &f in fleets {
                    Self::count(&mut self.cancelled, f, up);
                }
            }
            Event::Start { .. }
            | Event::Visit { .. }
            | Event::Resolved { .. }
            | Event::Tightened { .. } => {}
        }
    }
}

impl Replay for DecisionReplay {
    type Event = Event;
    /// A decision and the bounds (low, high) an event replaced.
    type Undo = (u32, i32, i32);

    fn apply(&mut self, e: &Event, undo: &mut Vec<(u32, i32, i32)>) {
        match e {
            Event::Tightened { node, to, .. } => self.set(*node, to.0, to.1, undo),
            Event::BackupApplied { forced, .. } => {
                for &(id, v) in forced {
                    self.set(id, v, v, undo);
                }
            }
            _ => {}
        }
        self.counts(e, true);
    }

    fn revert(&mut self, e: &Event, undo: &[(u32, i32, i32)]) {
        for &(id, lo, hi) in undo.iter().rev() {
            self.restore(id, lo, hi);
        }
        self.counts(e, false);
    }

    fn describe(&self, e: &Event, _input: &PhaseInput<'_>) -> String {
        describe_event(&self.labels, e)
    }

    fn units(&self, e: &Event) -> Vec<usize> {
        let unit = |id: &u32| self.node_unit.get(*id as usize).copied();
        let mut v: Vec<usize> = match e {
            Event::Start { .. } => Vec::new(),
            Event::Visit { node }
            | Event::Tightened { node, .. }
            | Event::Resolved { node, .. } => unit(node).into_iter().collect(),
            Event::CycleFound { members, .. } => members.iter().filter_map(unit).collect(),
            Event::ConvoysCancelled { fleets } => fleets.clone(),
            Event::BackupApplied { forced, .. } => {
                forced.iter().filter_map(|(id, _)| unit(id)).collect()
            }
        };
        v.sort_unstable();
        v.dedup();
        v
    }

    fn mark(&self, e: &Event) -> Mark {
        let (minor, landmark, tone) = match e {
            Event::Start { .. } | Event::Visit { .. } | Event::Resolved { .. } => {
                (true, None, Tone::Plain)
            }
            Event::Tightened { to, .. } if to.0 == to.1 => (false, None, Tone::Settled),
            Event::Tightened { .. } => (false, None, Tone::Open),
            Event::CycleFound { .. } => (false, Some(Landmark::Cycle), Tone::Cycle),
            Event::ConvoysCancelled { .. } | Event::BackupApplied { .. } => {
                (false, Some(Landmark::Backup), Tone::Forced)
            }
        };
        Mark {
            minor,
            landmark,
            tone,
        }
    }

    fn sections(&self, _input: &PhaseInput<'_>) -> Vec<Section> {
        let n = self.lo.len();
        let open: Vec<u32> = (0..n as u32)
            .filter(|&k| self.lo[k as usize] != self.hi[k as usize])
            .collect();
        let mut out = vec![Section::new(
            "decisions",
            vec![format!("{} settled, {} open", n - open.len(), open.len())],
        )];
        let cycle: Vec<String> = (0..n as u32)
            .filter(|&k| self.cycle[k as usize] > 0)
            .map(|k| self.labels.subject(k).to_string())
            .collect();
        if !cycle.is_empty() {
            out.push(Section::new("in a cycle", cycle));
        }
        let forced: Vec<String> = (0..n as u32)
            .filter(|&k| self.forced[k as usize] > 0)
            .map(|k| {
                format!(
                    "{} = {}",
                    self.labels.subject(k),
                    self.labels
                        .value(k, self.lo[k as usize], self.hi[k as usize])
                )
            })
            .collect();
        if !forced.is_empty() {
            out.push(Section::new("forced by a backup rule", forced));
        }
        if !open.is_empty() {
            out.push(Section::new(
                "open",
                open.iter()
                    .map(|&k| {
                        format!(
                            "{} = {}",
                            self.labels.subject(k),
                            self.labels
                                .value(k, self.lo[k as usize], self.hi[k as usize])
                        )
                    })
                    .collect(),
            ));
        }
        out
    }
}

/// One event in words.
fn describe_event(l: &Labels, e: &Event) -> String {
    match e {
        Event::Tightened { node, from, to, .. } => format!(
            "{}: {} → {}",
            l.subject(*node),
            l.value(*node, from.0, from.1),
            l.value(*node, to.0, to.1)
        ),
        Event::Resolved { node, value } => format!(
            "{} settled: {}",
            l.subject(*node),
            l.value(*node, *value, *value)
        ),
        Event::Visit { node } => format!("evaluate {}", l.subject(*node)),
        Event::Start { bounds } => {
            format!("start: {} decisions, none settled yet", bounds.len())
        }
        Event::CycleFound {
            members,
            walk,
            kind,
        } => {
            let what = match kind {
                CycleKind::CircularMovement => "circular movement",
                CycleKind::ConvoyParadox => "convoy paradox",
            };
            let names: Vec<&str> = walk.iter().map(|id| l.subject(*id)).collect();
            format!(
                "CYCLE ({what}) of {} decisions: {}",
                members.len(),
                names.join(" → ")
            )
        }
        Event::ConvoysCancelled { fleets } => {
            let names: Vec<&str> = fleets
                .iter()
                .map(|f| l.units.get(*f).map_or("?", |s| s.as_str()))
                .collect();
            if names.len() == 1 {
                format!(
                    "Szykman: the convoy of {} is cancelled; the fleet holds",
                    names.join(", ")
                )
            } else {
                format!(
                    "Szykman: the convoys of {} are cancelled; the fleets hold",
                    names.join(", ")
                )
            }
        }
        Event::BackupApplied { rule, forced } => {
            let f: Vec<String> = forced
                .iter()
                .map(|(id, v)| format!("{} = {}", l.subject(*id), l.value(*id, *v, *v)))
                .collect();
            format!(
                "BACKUP RULE: {}{}",
                rule.name(),
                if f.is_empty() {
                    String::new()
                } else {
                    format!(" — forced {}", f.join(", "))
                }
            )
        }
    }
}

fn is_backup(e: &Event) -> bool {
    matches!(
        e,
        Event::CycleFound { .. } | Event::ConvoysCancelled { .. } | Event::BackupApplied { .. }
    )
}

impl Cursor<DecisionReplay> {
    /// A stepper at the start of the result's trace; None when the result was adjudicated
    /// without tracing.
    ///
    /// The initial bounds come from the trace's [`Event::Start`]. A trace without one (not made
    /// by this resolver) starts each decision at the `from` of its first tightening, or else at
    /// its final bounds; stepping back and forth is exact either way (back restores what forward
    /// overwrote).
    pub fn new(result: &MovementResult) -> Option<Stepper> {
        Stepper::build(result, Labels::default())
    }

    /// [`Stepper::new`], with words for the events from the phase the result was made from
    /// (what [`Steps::describe`](crate::engine::Steps::describe) and the state's sections say).
    pub fn for_phase(result: &MovementResult, input: &PhaseInput<'_>) -> Option<Stepper> {
        Stepper::build(result, Labels::of(result, input))
    }

    fn build(result: &MovementResult, labels: Labels) -> Option<Stepper> {
        let events = result.trace.clone()?;
        let g = &result.graph;
        let m = g.nodes.len();
        let final_bounds = |k: usize| {
            (
                g.lo.get(k).copied().unwrap_or(0),
                g.hi.get(k).copied().unwrap_or(0),
            )
        };
        let (lo, hi): (Vec<i32>, Vec<i32>) = match events.first() {
            Some(Event::Start { bounds }) if bounds.len() == m => bounds.iter().copied().unzip(),
            _ => {
                let mut init: Vec<Option<(i32, i32)>> = vec![None; m];
                for e in &events {
                    match e {
                        Event::Tightened { node, from, .. } => {
                            if let Some(b @ None) = init.get_mut(*node as usize) {
                                *b = Some(*from);
                            }
                        }
                        Event::BackupApplied { forced, .. } => {
                            for &(id, _) in forced {
                                if let Some(b @ None) = init.get_mut(id as usize) {
                                    *b = Some(final_bounds(id as usize));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                (0..m)
                    .map(|k| init[k].unwrap_or_else(|| final_bounds(k)))
                    .unzip()
            }
        };
        let mut dislodge_of = vec![NONE; result.units.len()];
        for (id, n) in g.nodes.iter().enumerate() {
            if n.kind == NodeKind::Dislodge
                && let Some(d) = dislodge_of.get_mut(n.unit)
            {
                *d = id as u32;
            }
        }
        // When each decision last changed (a decision settled at its last change, if it ends
        // resolved).
        let (mut l, mut h) = (lo.clone(), hi.clone());
        let mut last_change = vec![NONE; m];
        for (i, e) in events.iter().enumerate() {
            let mut set = |id: u32, a: i32, b: i32| {
                let k = id as usize;
                if k >= m {
                    return;
                }
                if (l[k], h[k]) != (a, b) {
                    last_change[k] = i as u32;
                }
                l[k] = a;
                h[k] = b;
            };
            match e {
                Event::Tightened { node, to, .. } => set(*node, to.0, to.1),
                Event::BackupApplied { forced, .. } => {
                    for &(id, v) in forced {
                        set(id, v, v);
                    }
                }
                _ => {}
            }
        }
        let settled = (0..m)
            .map(|k| if l[k] == h[k] { last_change[k] } else { NONE })
            .collect();
        let backups = (0..events.len())
            .filter(|&i| is_backup(&events[i]))
            .collect();
        let start = DecisionReplay {
            lo,
            hi,
            cycle: vec![0; m],
            forced: vec![0; m],
            cancelled: vec![0; result.units.len()],
            settled,
            backups,
            dislodge_of,
            node_unit: g.nodes.iter().map(|n| n.unit).collect(),
            labels: Arc::new(labels),
        };
        Some(Cursor::from_trace(events, start))
    }

    /// A decision's bounds (low, high) as of the cursor; (0, 0) for an unknown id.
    pub fn bounds(&self, node: u32) -> (i32, i32) {
        match (
            self.state().lo.get(node as usize),
            self.state().hi.get(node as usize),
        ) {
            (Some(l), Some(h)) => (*l, *h),
            _ => (0, 0),
        }
    }

    /// Whether a decision has its value (low = high) as of the cursor; true for an unknown id,
    /// whose bounds are (0, 0).
    pub fn resolved(&self, node: u32) -> bool {
        let (l, h) = self.bounds(node);
        l == h
    }

    /// Whether a cycle event containing the decision has been applied; false for an unknown id.
    pub fn in_cycle(&self, node: u32) -> bool {
        self.state()
            .cycle
            .get(node as usize)
            .is_some_and(|c| *c > 0)
    }

    /// Whether a backup rule forced the decision's value, as of the cursor; false for an
    /// unknown id.
    pub fn forced(&self, node: u32) -> bool {
        self.state()
            .forced
            .get(node as usize)
            .is_some_and(|c| *c > 0)
    }

    /// Whether the Szykman rule has cancelled this fleet's convoy, as of the cursor; false for
    /// an unknown unit.
    pub fn cancelled(&self, unit: usize) -> bool {
        self.state().cancelled.get(unit).is_some_and(|c| *c > 0)
    }

    /// The index of the next cycle, cancellation or backup-rule event at or after the cursor
    /// (the first not yet applied); go to it with `seek(i + 1)`.
    pub fn next_backup_event(&self) -> Option<usize> {
        let k = self.state().backups.partition_point(|&i| i < self.cursor());
        self.state().backups.get(k).copied()
    }

    /// The index of the last such event strictly before the last applied event (so that, just
    /// after going to one, this gives the one before it).
    pub fn prev_backup_event(&self) -> Option<usize> {
        let before = self.cursor().saturating_sub(1);
        let k = self.state().backups.partition_point(|&i| i < before);
        k.checked_sub(1)
            .and_then(|k| self.state().backups.get(k).copied())
    }

    /// The index of the event that gave a decision its final value (its last change); None when
    /// it had its value from the start, or the id is unknown.
    pub fn settled_at(&self, node: u32) -> Option<usize> {
        self.state()
            .settled
            .get(node as usize)
            .filter(|&&i| i != NONE)
            .map(|&i| i as usize)
    }

    /// The decisions an event is about, for highlighting: the decision of a visit, tightening
    /// or resolution; the members of a cycle (ascending); the DISLODGE decisions of the fleets
    /// whose convoys were cancelled; the decisions a backup rule forced. Empty for the start
    /// event and for an index beyond the end.
    pub fn nodes_of(&self, event: usize) -> Vec<u32> {
        match self.events().get(event) {
            Some(
                Event::Tightened { node, .. }
                | Event::Resolved { node, .. }
                | Event::Visit { node },
            ) => vec![*node],
            Some(Event::CycleFound { members, .. }) => members.clone(),
            Some(Event::ConvoysCancelled { fleets }) => fleets
                .iter()
                .filter_map(|&f| self.state().dislodge_of.get(f).copied())
                .filter(|&d| d != NONE)
                .collect(),
            Some(Event::BackupApplied { forced, .. }) => forced.iter().map(|f| f.0).collect(),
            Some(Event::Start { .. }) | None => Vec::new(),
        }
    }
}
