//! TEMPORARY scaffold of the stepper API (replaced by the real one from the stepper branch).
#![allow(missing_docs)]
use super::MovementResult;
use super::trace::Event;

#[derive(Clone, Debug)]
pub struct Stepper {
    events: Vec<Event>,
    lo: Vec<i32>,
    hi: Vec<i32>,
    undo: Vec<Vec<(u32, i32, i32)>>,
    cursor: usize,
    cycle: Vec<bool>,
    forced: Vec<bool>,
}

impl Stepper {
    pub fn new(result: &MovementResult) -> Option<Stepper> {
        let events = result.trace.clone()?;
        let mut lo = result.graph.lo.clone();
        let mut hi = result.graph.hi.clone();
        let mut seen = vec![false; lo.len()];
        for e in &events {
            if let Event::Tightened { node, from, .. } = e
                && !seen[*node as usize]
            {
                seen[*node as usize] = true;
                lo[*node as usize] = from.0;
                hi[*node as usize] = from.1;
            }
        }
        let n = lo.len();
        Some(Stepper {
            undo: vec![Vec::new(); events.len()],
            events,
            lo,
            hi,
            cursor: 0,
            cycle: vec![false; n],
            forced: vec![false; n],
        })
    }
    pub fn len(&self) -> usize {
        self.events.len()
    }
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
    pub fn cursor(&self) -> usize {
        self.cursor
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    pub fn last_event(&self) -> Option<&Event> {
        self.cursor.checked_sub(1).and_then(|i| self.events.get(i))
    }
    pub fn forward(&mut self) -> bool {
        let Some(e) = self.events.get(self.cursor) else {
            return false;
        };
        let mut u = Vec::new();
        match e {
            Event::Tightened { node, to, .. } => {
                let i = *node as usize;
                u.push((*node, self.lo[i], self.hi[i]));
                self.lo[i] = to.0;
                self.hi[i] = to.1;
            }
            Event::BackupApplied { forced, .. } => {
                for (id, v) in forced {
                    let i = *id as usize;
                    u.push((*id, self.lo[i], self.hi[i]));
                    self.lo[i] = *v;
                    self.hi[i] = *v;
                    self.forced[i] = true;
                }
            }
            Event::CycleFound { members, .. } => {
                for m in members {
                    self.cycle[*m as usize] = true;
                }
            }
            _ => {}
        }
        self.undo[self.cursor] = u;
        self.cursor += 1;
        true
    }
    pub fn back(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        for (id, lo, hi) in self.undo[self.cursor].clone() {
            self.lo[id as usize] = lo;
            self.hi[id as usize] = hi;
        }
        match &self.events[self.cursor] {
            Event::BackupApplied { forced, .. } => {
                for (id, _) in forced {
                    self.forced[*id as usize] = false;
                }
            }
            Event::CycleFound { members, .. } => {
                for m in members {
                    self.cycle[*m as usize] = false;
                }
            }
            _ => {}
        }
        true
    }
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.len());
        while self.cursor < k {
            self.forward();
        }
        while self.cursor > k {
            self.back();
        }
    }
    pub fn bounds(&self, node: u32) -> (i32, i32) {
        (
            self.lo.get(node as usize).copied().unwrap_or(0),
            self.hi.get(node as usize).copied().unwrap_or(0),
        )
    }
    pub fn resolved(&self, node: u32) -> bool {
        let (l, h) = self.bounds(node);
        l == h
    }
    pub fn in_cycle(&self, node: u32) -> bool {
        self.cycle.get(node as usize).copied().unwrap_or(false)
    }
    pub fn forced(&self, node: u32) -> bool {
        self.forced.get(node as usize).copied().unwrap_or(false)
    }
    pub fn cancelled(&self, unit: usize) -> bool {
        self.events[..self.cursor]
            .iter()
            .any(|e| matches!(e, Event::ConvoysCancelled { fleets } if fleets.contains(&unit)))
    }
    fn is_backup(e: &Event) -> bool {
        matches!(
            e,
            Event::CycleFound { .. } | Event::ConvoysCancelled { .. } | Event::BackupApplied { .. }
        )
    }
    pub fn next_backup_event(&self) -> Option<usize> {
        (self.cursor..self.len()).find(|&i| Self::is_backup(&self.events[i]))
    }
    pub fn prev_backup_event(&self) -> Option<usize> {
        (0..self.cursor.saturating_sub(1))
            .rev()
            .find(|&i| Self::is_backup(&self.events[i]))
    }
    pub fn settled_at(&self, node: u32) -> Option<usize> {
        self.events.iter().rposition(|e| match e {
            Event::Resolved { node: n, .. } => *n == node,
            Event::BackupApplied { forced, .. } => forced.iter().any(|(i, _)| *i == node),
            _ => false,
        })
    }
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
