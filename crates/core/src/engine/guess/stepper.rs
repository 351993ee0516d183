//! The guess engine's trace as a [`Replay`]: the 5.F administration (per order: open,
//! visited with its guess, left in the cycle with a stored result, resolved), the cycle list
//! and the recursion stack, as of any event. The generic [`Cursor`] steps through it exactly.

use std::sync::Arc;

use crate::engine::cursor::{Cursor, Replay};
use crate::engine::seam::{Landmark, Mark, PhaseInput, Section, Tone};

use super::trace::{Event, How};

/// The state of one order in 5.F's administration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Status {
    /// Not met yet (or met and left without a result).
    #[default]
    Open,
    /// Being adjudicated (on the recursion stack), with the guess a deeper visit reads.
    Visited {
        /// The guess: false on the first adjudication, true on the second.
        guess: bool,
    },
    /// Back from a recursion that met a cycle, not its ancestor: its result is stored for
    /// readers while the cycle is open.
    Stored {
        /// The stored result.
        value: bool,
    },
    /// Resolved for good.
    Resolved {
        /// The result.
        value: bool,
        /// Set by a backup rule.
        forced: bool,
    },
}

/// What an event overwrote.
#[derive(Clone, Copy, Debug)]
pub enum Undo {
    /// An order's status before.
    Status(u32, Status),
    /// The cycle's length before members were added.
    CycleLen(u32),
    /// A member taken off the end of the cycle.
    CyclePop(u32),
    /// An order taken off the recursion stack.
    Popped(u32),
    /// An order pushed onto the recursion stack.
    Pushed,
}

/// The 5.F administration as of a point of the trace.
#[derive(Clone, Debug)]
pub struct GuessReplay {
    /// Per unit, its order's status (units without a move, valid support or convoy stay open).
    pub status: Vec<Status>,
    /// The cycle list (5.F's global `cycle`), in order.
    pub cycle: Vec<u32>,
    /// The recursion: the orders whose `resolve` is running, outermost first.
    pub stack: Vec<u32>,
    /// Per unit, its order in short form (for describing events).
    pub labels: Arc<[String]>,
    /// Per unit, whether its order is a convoy (whose 5.F result is its CONVOY decision, 5.B.3:
    /// "succeeds" means the fleet is not dislodged, whatever becomes of the convoyed army).
    pub convoys: Arc<[bool]>,
}

/// A cursor over the guess engine's trace.
pub type GuessStepper = Cursor<GuessReplay>;

impl GuessReplay {
    /// The state before the first event, for the units labelled by `labels` (`convoys`: which
    /// of them convoy).
    pub fn start(labels: Arc<[String]>, convoys: Arc<[bool]>) -> GuessReplay {
        GuessReplay {
            status: vec![Status::Open; labels.len()],
            cycle: Vec::new(),
            stack: Vec::new(),
            labels,
            convoys,
        }
    }

    /// An order's result in words: `succeeds` / `fails`, and for a convoy what that means.
    fn result(&self, o: u32, v: bool) -> &'static str {
        match (self.convoys.get(o as usize).copied().unwrap_or(false), v) {
            (false, v) => word(v),
            (true, true) => "succeeds (the fleet is not dislodged)",
            (true, false) => "fails (the fleet is dislodged)",
        }
    }

    fn set(&mut self, o: u32, s: Status, undo: &mut Vec<Undo>) {
        if let Some(slot) = self.status.get_mut(o as usize) {
            undo.push(Undo::Status(o, *slot));
            *slot = s;
        }
    }

    fn cut(&mut self, keep: u32, undo: &mut Vec<Undo>) {
        while self.cycle.len() > keep as usize {
            if let Some(m) = self.cycle.pop() {
                undo.push(Undo::CyclePop(m));
            }
        }
    }

    fn join(&mut self, o: u32, undo: &mut Vec<Undo>) {
        if !self.cycle.contains(&o) {
            undo.push(Undo::CycleLen(self.cycle.len() as u32));
            self.cycle.push(o);
        }
    }

    fn pop(&mut self, undo: &mut Vec<Undo>) {
        if let Some(m) = self.stack.pop() {
            undo.push(Undo::Popped(m));
        }
    }

    /// An order's label.
    pub fn label(&self, o: u32) -> &str {
        self.labels.get(o as usize).map_or("?", |s| s.as_str())
    }

    /// The order being adjudicated (top of the recursion), if any.
    pub fn current(&self) -> Option<u32> {
        self.stack.last().copied()
    }
}

fn word(v: bool) -> &'static str {
    if v { "succeeds" } else { "fails" }
}

impl Replay for GuessReplay {
    type Event = Event;
    type Undo = Undo;

    fn apply(&mut self, e: &Event, undo: &mut Vec<Undo>) {
        match e {
            Event::Enter { order } => {
                self.set(*order, Status::Visited { guess: false }, undo);
                self.stack.push(*order);
                undo.push(Undo::Pushed);
            }
            Event::MetAgain { order, .. } => self.join(*order, undo),
            Event::ReadInCycle { .. } | Event::FirstResult { .. } | Event::SecondResult { .. } => {}
            Event::SecondGuess { order, keep } => {
                self.set(*order, Status::Visited { guess: true }, undo);
                self.cut(*keep, undo);
            }
            Event::Resolved {
                order, value, keep, ..
            } => {
                self.set(
                    *order,
                    Status::Resolved {
                        value: *value,
                        forced: false,
                    },
                    undo,
                );
                self.cut(*keep, undo);
                self.pop(undo);
            }
            Event::Retreat { order, value } => {
                self.set(*order, Status::Stored { value: *value }, undo);
                self.join(*order, undo);
                self.pop(undo);
            }
            Event::Backup {
                order,
                forced,
                keep,
                ..
            } => {
                for &(m, v) in forced {
                    self.set(
                        m,
                        Status::Resolved {
                            value: v,
                            forced: true,
                        },
                        undo,
                    );
                }
                if !forced.iter().any(|(m, _)| m == order) {
                    self.set(*order, Status::Open, undo);
                }
                self.cut(*keep, undo);
                self.pop(undo);
            }
        }
    }

    fn revert(&mut self, _e: &Event, undo: &[Undo]) {
        for u in undo.iter().rev() {
            match *u {
                Undo::Status(o, s) => {
                    if let Some(slot) = self.status.get_mut(o as usize) {
                        *slot = s;
                    }
                }
                Undo::CycleLen(n) => self.cycle.truncate(n as usize),
                Undo::CyclePop(m) => self.cycle.push(m),
                Undo::Popped(m) => self.stack.push(m),
                Undo::Pushed => {
                    self.stack.pop();
                }
            }
        }
    }

    fn summary(&self, _input: &PhaseInput<'_>) -> String {
        let stack: Vec<&str> = self.stack.iter().map(|&o| self.label(o)).collect();
        let cycle: Vec<&str> = self.cycle.iter().map(|&o| self.label(o)).collect();
        let resolved = self
            .status
            .iter()
            .filter(|s| matches!(s, Status::Resolved { .. }))
            .count();
        format!(
            "stack: {} · cycle: [{}] · {resolved} resolved",
            if stack.is_empty() {
                "-".to_string()
            } else {
                stack.join(" › ")
            },
            cycle.join(", ")
        )
    }

    fn units(&self, e: &Event) -> Vec<usize> {
        let mut v = vec![e.order() as usize];
        match e {
            Event::MetAgain { by, .. } | Event::ReadInCycle { by, .. } => v.push(*by as usize),
            Event::Backup { cycle, forced, .. } => {
                v.extend(cycle.iter().map(|&m| m as usize));
                v.extend(forced.iter().map(|&(m, _)| m as usize));
            }
            _ => {}
        }
        v.sort_unstable();
        v.dedup();
        v
    }

    fn mark(&self, e: &Event) -> Mark {
        let (landmark, tone) = match e {
            Event::Enter { .. } => (None, Tone::Plain),
            Event::MetAgain { .. } => (Some(Landmark::Cycle), Tone::Cycle),
            Event::ReadInCycle { .. } | Event::SecondGuess { .. } => (None, Tone::Cycle),
            Event::FirstResult { .. } | Event::SecondResult { .. } | Event::Retreat { .. } => {
                (None, Tone::Open)
            }
            Event::Resolved { .. } => (None, Tone::Settled),
            Event::Backup { .. } => (Some(Landmark::Backup), Tone::Forced),
        };
        Mark {
            minor: false,
            landmark,
            tone,
        }
    }

    fn sections(&self, _input: &PhaseInput<'_>) -> Vec<Section> {
        let stack: Vec<String> = self
            .stack
            .iter()
            .enumerate()
            .map(|(depth, &o)| format!("{}{}", "  ".repeat(depth), self.label(o)))
            .collect();
        let cycle: Vec<String> = self
            .cycle
            .iter()
            .map(|&o| self.label(o).to_string())
            .collect();
        let mut orders = Vec::new();
        let mut open = 0;
        for (o, st) in self.status.iter().enumerate() {
            let what = match *st {
                Status::Open => {
                    open += 1;
                    continue;
                }
                Status::Visited { guess } => format!("visited, guess {}", word(guess)),
                Status::Stored { value } => format!("in the cycle, keeps {}", word(value)),
                Status::Resolved {
                    value,
                    forced: false,
                } => format!("resolved: {}", self.result(o as u32, value)),
                Status::Resolved {
                    value,
                    forced: true,
                } => format!("resolved: {} (backup rule)", word(value)),
            };
            orders.push(format!("{}: {what}", self.label(o as u32)));
        }
        let none = |v: Vec<String>| {
            if v.is_empty() {
                vec!["(empty)".to_string()]
            } else {
                v
            }
        };
        let mut out = vec![
            Section::new("stack (outermost first)", none(stack)),
            Section::new("cycle", none(cycle)),
        ];
        if !orders.is_empty() {
            out.push(Section::new("orders met", orders));
        }
        if open > 0 {
            out.push(Section::new(
                "not met (or nothing to resolve)",
                vec![crate::base::text::count(open, "order")],
            ));
        }
        out
    }

    fn describe(&self, e: &Event, _input: &PhaseInput<'_>) -> String {
        let l = |o: u32| self.label(o);
        match e {
            Event::Enter { order } => {
                format!("enter {} (guess fails)", l(*order))
            }
            Event::MetAgain { order, guess, by } => format!(
                "{} met again (by {}): cycle, guess {}",
                l(*order),
                l(*by),
                word(*guess)
            ),
            Event::ReadInCycle { order, value, by } => format!(
                "{} in the cycle (read by {}): {}",
                l(*order),
                l(*by),
                word(*value)
            ),
            Event::FirstResult {
                order,
                value,
                guess_based,
            } => format!(
                "{}: first try {}{}",
                l(*order),
                self.result(*order, *value),
                if *guess_based { " (on a guess)" } else { "" }
            ),
            Event::SecondGuess { order, .. } => format!(
                "{}: ancestor of the cycle; second guess: succeeds",
                l(*order)
            ),
            Event::SecondResult { order, value } => {
                format!("{}: second try {}", l(*order), self.result(*order, *value))
            }
            Event::Resolved {
                order, value, how, ..
            } => match how {
                How::NoCycle => format!("{} resolved: {}", l(*order), self.result(*order, *value)),
                How::SameBothWays => format!(
                    "{}: same result both ways, accepted: {}",
                    l(*order),
                    word(*value)
                ),
            },
            Event::Retreat { order, value } => format!(
                "{}: not the ancestor; keeps {}, joins the cycle",
                l(*order),
                word(*value)
            ),
            Event::Backup {
                order,
                cycle,
                rule,
                forced,
                ..
            } => {
                let members: Vec<&str> = cycle.iter().map(|&m| l(m)).collect();
                let set: Vec<String> = forced
                    .iter()
                    .map(|&(m, v)| format!("{} {}", l(m), word(v)))
                    .collect();
                format!(
                    "{}: fails on one guess, succeeds on the other: cycle [{}] to the {}: {}",
                    l(*order),
                    members.join(", "),
                    rule.name(),
                    if set.is_empty() {
                        "nothing set".to_string()
                    } else {
                        set.join(", ")
                    }
                )
            }
        }
    }
}
