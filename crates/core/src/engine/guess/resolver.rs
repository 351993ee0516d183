//! DATC 5.F, the guess algorithm, in its final form (with `recursion_hits` and `guess_based`),
//! on an explicit stack.
//!
//! The text's `resolve` is recursive: `adjudicate(order)` calls `resolve` on the orders it
//! reads, which call `adjudicate` on theirs. Here a `Frame` stands for one running
//! `resolve(order)`, and the frames live in a `Vec`, so the depth of the recursion costs heap,
//! not machine stack. An adjudication ([`super::conditions`]) is a deterministic function of
//! the answers its `resolve` calls get. When it calls `resolve` on an order that needs a frame
//! of its own, it is *suspended*: the answers it got so far are kept (in call order, in one
//! shared buffer, their side effects on the cycle, `guess_based` and `recursion_hits` applied
//! once, when they were given), the new frame is pushed, and when that frame's `resolve`
//! returns, its answer is added to the list and the adjudication runs again from the start,
//! the recorded answers replayed without side effects, until it finishes or suspends at the
//! next new frame. The replayed calls are the same calls (same function, same answers), so the
//! run is exactly the recursive one. Buffers (frames, answers, the cycle, the chain search's
//! lists) are reused, so an adjudication allocates nothing beyond amortized growth.
//!
//! Two departures from the listing, which `docs/guess.md` explains (`literal` turns both
//! off, for tests that show what the listing does):
//! - The second guess is tried only by an order that was itself met again deeper in the
//!   recursion (it is in the cycle), as in the first 5.F listing and as the final listing's own
//!   comment says ("Deeper in the recursion we hit a cycle on this order"). The final listing
//!   tests only `recursion_hits == old_recursion_hits`, which also holds for an order that
//!   merely read the stored result of another order's open cycle (`guess_based` without a
//!   hit); it then accepts "same result both ways" for a result that rests on the other
//!   cycle's guess. In Pandin's paradox (6.F.16), resolving the orders as written, that makes
//!   F Bel - Eng succeed.
//! - After the second adjudication the order's own hit is counted off again (`recursion_hits
//!   -= 1` when the order is in the cycle), as after the first. The listing omits it; without
//!   it `recursion_hits` stays one too high after such a cycle, and an enclosing cycle's
//!   ancestor never sees its count come back.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): orders are unit indices
// below the board's unit count, which sizes every per-unit table here; answer positions are
// below the buffer's length (checked before reading).
#![allow(clippy::indexing_slicing)]

use crate::engine::backup;
use crate::engine::decision::resolver::{Board, NodeKind, Solver, SolverBuf};
use crate::engine::legality::UnitOrder;

use super::conditions::{Conditions, Reads, Scratch};
use super::trace::{BackupRule, Event, How};
use crate::engine::trace::{NoTrace, Tracer};

/// In which order the top level calls `resolve` ("The final program is then just calling
/// resolve for each order", 5.C; the text does not say in which order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StartOrder {
    /// The orders as they were written (the scenario's order list), first written first.
    #[default]
    Written,
    /// The same list, last written first.
    Reversed,
    /// The written list from its `k`-th order on (counting from 0), then from the start
    /// (5.F's own example: calling `resolve` on Wales first in 5.D's position is `From(1)` in
    /// DATC 6.F.16).
    From(u32),
}

/// One running `resolve(order)`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    order: u32,
    /// In the second adjudication (the guess "succeeds").
    second: bool,
    /// The first adjudication's result (once known).
    first: bool,
    /// Where this frame's recorded answers start in the shared buffer.
    start: u32,
    old_cycle_len: u32,
    old_guess_based: bool,
    old_hits: u32,
}

/// The 5.F administration, per order (a unit index).
#[derive(Clone, Debug, Default)]
pub(crate) struct State {
    pub resolved: Vec<bool>,
    pub resolution: Vec<bool>,
    visited: Vec<bool>,
    in_cycle: Vec<bool>,
    /// A backup rule set the resolution.
    pub forced: Vec<bool>,
    /// Szykman: the fleet's convoy is cancelled.
    pub cancelled: Vec<bool>,
    /// All Hold: the unit's move is part of the paradox and fails.
    pub held: Vec<bool>,
    /// All Hold: the unit's convoy route has no path (`crate::engine::backup::Hold`).
    pub no_path: Vec<bool>,
    /// The rules a backup applied, in order.
    pub rules: Vec<BackupRule>,
    cycle: Vec<u32>,
    guess_based: bool,
    hits: u32,
    frames: Vec<Frame>,
    answers: Vec<bool>,
}

/// The resolver over one board.
pub(crate) struct Resolver<'b, 'a, T: Tracer<Event>> {
    cond: Conditions<'b, 'a>,
    st: State,
    sc: Scratch,
    pub tracer: T,
    /// The final listing to the letter (no fixes; see the module's documentation).
    pub literal: bool,
    /// The decision graph's buffers, for finding an All Hold paradox's moves.
    decisions: SolverBuf,
}

/// `resolve` as an adjudication sees it: replayed answers first, then live ones, until it
/// meets an order that needs a frame (then it is suspended and every later answer is a dummy
/// without effect).
struct Reader<'s, T: Tracer<Event>> {
    st: &'s mut State,
    tracer: &'s mut T,
    by: u32,
    next: usize,
    suspended: Option<u32>,
}

impl<T: Tracer<Event>> Reads for Reader<'_, T> {
    fn resolve(&mut self, order: usize) -> bool {
        if self.suspended.is_some() {
            return false;
        }
        if let Some(&v) = self.st.answers.get(self.next) {
            self.next += 1;
            return v;
        }
        match quick(self.st, self.tracer, order as u32, self.by) {
            Some(v) => {
                self.st.answers.push(v);
                self.next += 1;
                v
            }
            None => {
                self.suspended = Some(order as u32);
                false
            }
        }
    }

    fn cancelled(&self, f: usize) -> bool {
        self.st.cancelled.get(f).copied().unwrap_or(false)
    }

    fn held(&self, u: usize) -> bool {
        self.st.held.get(u).copied().unwrap_or(false)
    }

    fn no_path(&self, u: usize) -> bool {
        self.st.no_path.get(u).copied().unwrap_or(false)
    }
}

/// The part of 5.F `resolve` that returns at once: a resolved order, an order in the cycle, an
/// order met again deeper in the recursion. None when the order needs a frame.
fn quick<T: Tracer<Event>>(st: &mut State, tracer: &mut T, o: u32, by: u32) -> Option<bool> {
    let i = o as usize;
    if st.resolved[i] {
        return Some(st.resolution[i]);
    }
    if st.in_cycle[i] {
        st.guess_based = true;
        if T::ON {
            tracer.event(Event::ReadInCycle {
                order: o,
                value: st.resolution[i],
                by,
            });
        }
        return Some(st.resolution[i]);
    }
    if st.visited[i] {
        st.in_cycle[i] = true;
        st.cycle.push(o);
        st.guess_based = true;
        st.hits = st.hits.saturating_add(1);
        if T::ON {
            tracer.event(Event::MetAgain {
                order: o,
                guess: st.resolution[i],
                by,
            });
        }
        return Some(st.resolution[i]);
    }
    None
}

impl<'b, 'a, T: Tracer<Event>> Resolver<'b, 'a, T> {
    /// A resolver for the board, nothing resolved yet.
    pub fn new(b: &'b Board<'a>, tracer: T) -> Self {
        let n = b.units.len();
        let st = State {
            resolved: vec![false; n],
            resolution: vec![false; n],
            visited: vec![false; n],
            in_cycle: vec![false; n],
            forced: vec![false; n],
            cancelled: vec![false; n],
            held: vec![false; n],
            no_path: vec![false; n],
            ..State::default()
        };
        Resolver {
            cond: Conditions { b },
            st,
            sc: Scratch::default(),
            tracer,
            literal: false,
            decisions: SolverBuf::default(),
        }
    }

    /// Whether unit `u` has an order 5.F resolves (a move, a valid support or convoy).
    pub fn is_order(&self, u: usize) -> bool {
        matches!(
            self.cond.b.orders.get(u),
            Some(
                UnitOrder::Move { .. }
                    | UnitOrder::Support { void: None, .. }
                    | UnitOrder::Convoy { void: None, .. }
            )
        )
    }

    /// Calls `resolve` on each order of `start` in turn (5.C: "the final program is then just
    /// calling resolve for each order"), and returns the state.
    pub fn run(mut self, start: &[u32]) -> (State, T) {
        for &o in start {
            if self.is_order(o as usize) {
                self.resolve(o);
            }
        }
        (self.st, self.tracer)
    }

    /// Enters a frame for `o` (5.F: visited, old values saved, `guess_based` cleared, the guess
    /// "fails" stored).
    fn enter(&mut self, o: u32) {
        let st = &mut self.st;
        let i = o as usize;
        st.visited[i] = true;
        st.frames.push(Frame {
            order: o,
            second: false,
            first: false,
            start: st.answers.len() as u32,
            old_cycle_len: st.cycle.len() as u32,
            old_guess_based: st.guess_based,
            old_hits: st.hits,
        });
        st.guess_based = false;
        st.resolution[i] = false;
        if T::ON {
            self.tracer.event(Event::Enter { order: o });
        }
    }

    /// Drops the cycle's members from `keep` on.
    fn cut_cycle(&mut self, keep: u32) {
        let st = &mut self.st;
        for &m in st.cycle.get(keep as usize..).unwrap_or(&[]) {
            st.in_cycle[m as usize] = false;
        }
        st.cycle.truncate(keep as usize);
    }

    /// Ends the top frame with `value`, handing it to the frame below (recorded as the answer
    /// to its pending `resolve`).
    fn pop(&mut self, value: bool) {
        if let Some(f) = self.st.frames.pop() {
            self.st.answers.truncate(f.start as usize);
            if !self.st.frames.is_empty() {
                self.st.answers.push(value);
            }
        }
    }

    /// `resolve(o)` from the top level, run to the end on the frame stack.
    fn resolve(&mut self, o: u32) {
        if quick(&mut self.st, &mut self.tracer, o, o).is_some() {
            return;
        }
        self.enter(o);
        while let Some(&top) = self.st.frames.last() {
            let mut r = Reader {
                st: &mut self.st,
                tracer: &mut self.tracer,
                by: top.order,
                next: top.start as usize,
                suspended: None,
            };
            let value = self
                .cond
                .adjudicate(&mut self.sc, &mut r, top.order as usize);
            if let Some(x) = r.suspended {
                self.enter(x);
                continue;
            }
            self.after(top, value);
        }
    }

    /// What 5.F `resolve` does after an adjudication of the top frame's order.
    fn after(&mut self, f: Frame, value: bool) {
        let o = f.order;
        let i = o as usize;
        if !f.second {
            if T::ON {
                self.tracer.event(Event::FirstResult {
                    order: o,
                    value,
                    guess_based: self.st.guess_based,
                });
            }
            if !self.st.guess_based {
                // No cyclic dependency was met: take this result.
                self.st.guess_based = f.old_guess_based;
                self.settle(f, value, How::NoCycle);
                return;
            }
            let hit = self.st.in_cycle[i];
            if hit {
                self.st.hits = self.st.hits.saturating_sub(1);
            }
            if self.st.hits == f.old_hits && (hit || self.literal) {
                // The ancestor of the whole cycle: try the other guess.
                self.cut_cycle(f.old_cycle_len);
                self.st.resolution[i] = true;
                let st = &mut self.st;
                st.answers.truncate(f.start as usize);
                if let Some(top) = st.frames.last_mut() {
                    top.second = true;
                    top.first = value;
                }
                if T::ON {
                    self.tracer.event(Event::SecondGuess {
                        order: o,
                        keep: f.old_cycle_len,
                    });
                }
                return;
            }
            // Not the ancestor: keep the result, join the cycle, retreat further.
            if !self.st.in_cycle[i] {
                self.st.in_cycle[i] = true;
                self.st.cycle.push(o);
            }
            self.st.resolution[i] = value;
            self.st.visited[i] = false;
            if T::ON {
                self.tracer.event(Event::Retreat { order: o, value });
            }
            self.pop(value);
            return;
        }
        if T::ON {
            self.tracer.event(Event::SecondResult { order: o, value });
        }
        if self.st.in_cycle[i] && !self.literal {
            // Counted off as after the first adjudication (the listing omits it; see above).
            self.st.hits = self.st.hits.saturating_sub(1);
        }
        if f.first == value {
            // Although we hit a cycle, there is only one result.
            self.cut_cycle(f.old_cycle_len);
            self.st.guess_based = f.old_guess_based;
            self.settle(f, value, How::SameBothWays);
            return;
        }
        // Different results under different guesses: the backup rule.
        let members: Vec<u32> = self
            .st
            .cycle
            .get(f.old_cycle_len as usize..)
            .unwrap_or(&[])
            .to_vec();
        self.backup(o, &members, f.old_cycle_len);
        self.cut_cycle(f.old_cycle_len);
        self.st.guess_based = f.old_guess_based;
        self.st.visited[i] = false;
        // "return resolve(order)": the backup rule may not have resolved it. The frame is
        // replaced by the new call's (the frame below still waits for one answer).
        let Some(done) = self.st.frames.pop() else {
            return;
        };
        self.st.answers.truncate(done.start as usize);
        let below = self.st.frames.last().map_or(o, |b| b.order);
        match quick(&mut self.st, &mut self.tracer, o, below) {
            Some(v) => {
                if !self.st.frames.is_empty() {
                    self.st.answers.push(v);
                }
            }
            None => self.enter(o),
        }
    }

    /// Stores a final result for the top frame's order and pops it.
    fn settle(&mut self, f: Frame, value: bool, how: How) {
        let i = f.order as usize;
        self.st.resolution[i] = value;
        self.st.resolved[i] = true;
        self.st.visited[i] = false;
        if T::ON {
            self.tracer.event(Event::Resolved {
                order: f.order,
                value,
                how,
                keep: self.st.cycle.len() as u32,
            });
        }
        self.pop(value);
    }

    /// The moves of an All Hold paradox whose 5.F cycle holds `units`
    /// ([`Solver::paradox_moves_of`] over the decision graph pinned with every result so far and
    /// the backup rules applied so far).
    fn paradox_moves(&mut self, units: &[usize]) -> Vec<backup::Hold> {
        let b = self.cond.b;
        let st = &self.st;
        let mut solver = Solver::new(b, &mut self.decisions, NoTrace);
        for u in 0..b.units.len() {
            if st.cancelled[u] {
                solver.cancel_convoy(u);
            }
            if st.held[u] {
                solver.hold_fast(u, st.no_path[u]);
            }
            if !st.resolved[u] {
                continue;
            }
            let kind = match b.orders.get(u) {
                Some(UnitOrder::Move { .. }) => NodeKind::Move,
                Some(UnitOrder::Support { void: None, .. }) => NodeKind::Support,
                _ => continue,
            };
            if let Some(id) = solver.node(u, kind) {
                solver.pin(id, i32::from(st.resolution[u]), st.forced[u]);
            }
        }
        solver.paradox_moves_of(units)
    }

    /// Sets one order's result by a backup rule.
    fn force(&mut self, o: u32, value: bool, forced: &mut Vec<(u32, bool)>) {
        let i = o as usize;
        self.st.resolution[i] = value;
        self.st.resolved[i] = true;
        self.st.forced[i] = true;
        forced.push((o, value));
    }

    /// 5.B.9's backup rules on the cycle `members` (ancestor `o`): circular movement when the
    /// cycle has no convoy, else the convoy paradox rule of the rules in force (Szykman, or All
    /// Hold; the 1971, 1982 and 2000 rules take their fallback, as in the decision engine).
    fn backup(&mut self, o: u32, members: &[u32], keep: u32) {
        let b = self.cond.b;
        let is_convoy = |m: u32| {
            matches!(
                b.orders.get(m as usize),
                Some(UnitOrder::Convoy { void: None, .. })
            )
        };
        let is_move = |m: u32| matches!(b.orders.get(m as usize), Some(UnitOrder::Move { .. }));
        let paradox = members.iter().any(|&m| is_convoy(m));
        let moves: Vec<u32> = members
            .iter()
            .copied()
            .filter(|&m| is_move(m) && !self.st.resolved[m as usize])
            .collect();
        let rule = backup::rule_for(b.rules, paradox, !moves.is_empty());
        let mut forced = Vec::new();
        match rule {
            BackupRule::AllFail => {
                for &m in members {
                    if !self.st.resolved[m as usize] {
                        self.force(m, false, &mut forced);
                    }
                }
            }
            BackupRule::CircularMovement => {
                for m in moves {
                    self.force(m, true, &mut forced);
                }
            }
            BackupRule::Szykman => {
                for &m in members {
                    if is_convoy(m) && !self.st.resolved[m as usize] {
                        self.st.cancelled[m as usize] = true;
                        self.force(m, false, &mut forced);
                    }
                }
            }
            BackupRule::AllHold => {
                // The moves in the paradox, as the decision engine defines them
                // (`backup::paradox_moves`): 5.F's cycle lists only the orders its recursion
                // met, so the paradox's core is found in the decision graph of the results
                // so far, as the component of open decisions that holds the cycle's orders.
                let units: Vec<usize> = members.iter().map(|&m| m as usize).collect();
                for h in self.paradox_moves(&units) {
                    let i = h.unit;
                    self.st.held[i] = true;
                    self.st.no_path[i] |= h.no_path;
                    if h.fail_move && !self.st.resolved[i] {
                        self.force(i as u32, false, &mut forced);
                    }
                }
            }
        }
        if forced.is_empty() {
            // A rule that set nothing would meet the same cycle again: fail what is open.
            for &m in members {
                if !self.st.resolved[m as usize] {
                    self.force(m, false, &mut forced);
                }
            }
        }
        self.st.rules.push(rule);
        if T::ON {
            self.tracer.event(Event::Backup {
                order: o,
                cycle: members.to_vec(),
                rule,
                forced,
                keep,
            });
        }
    }
}
