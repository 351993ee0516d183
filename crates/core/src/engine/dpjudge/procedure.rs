//! The DPjudge procedure itself: steps 1–10 over marks, support counts, no help lists and combat
//! lists, as the text states them (the module documentation of [`super`] says where the text is
//! silent and what the engine does there).

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): unit indices index the per-
// unit marks, counts and lists, province ids the per-province tables (combat lists, occupancy),
// all sized from the board and the map before the steps run; every id comes from the board or the
// map it was sized from.
#![allow(clippy::indexing_slicing)]

use crate::engine::legality::{
    self, IllegalReason, OrderStatus, Prepared, Route, UnitOrder, VoidReason,
};
use crate::engine::outcome::{OrderOutcome, Verdict};
use crate::engine::reason::Reason;
use crate::engine::trace::{NoTrace, Recorder, Tracer};
use crate::model::board::{Dislodged, Unit};
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{NameStyle, OrderKind, Submitted, format_order};
use crate::model::rules::{
    MultiRoute, NoConvoyList, OwnVictim, PathSpecification, PhantomOrders, Rules, SwapVictim,
    ThreatCount,
};

use super::types::*;
use super::words::cause_words;

const NONE: u32 = u32::MAX;

/// Adjudicates a movement phase with the DPjudge procedure; `trace` records every step (without
/// it, every trace statement is compiled away).
pub fn adjudicate<O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    trace: bool,
) -> DpjudgeResult {
    if trace {
        let (mut r, tracer) = run(map, units, orders, rules, Recorder::default());
        r.trace = Some(tracer.events);
        r
    } else {
        run(map, units, orders, rules, NoTrace).0
    }
}

// ---------------------------------------------------------------------------------------------
// The engine.
// ---------------------------------------------------------------------------------------------

/// Internal order: unit and province indices as u32 (NONE for "no unit").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Hold,
    Move {
        dest: u32,
        dest_loc: LocId,
        convoyed: bool,
    },
    Support {
        target: u32,
        dest: u32,
    },
    Convoy {
        army: u32,
        dest: u32,
    },
}

impl Act {
    fn public(self) -> DpOrder {
        let opt = |x: u32| (x != NONE).then_some(x as usize);
        let prov = |x: u32| ProvinceId(x);
        match self {
            Act::Hold => DpOrder::Hold,
            Act::Move {
                dest,
                dest_loc,
                convoyed,
            } => DpOrder::Move {
                dest: prov(dest),
                dest_loc,
                convoyed,
            },
            Act::Support { target, dest } => DpOrder::Support {
                target: opt(target),
                dest: (dest != NONE).then(|| prov(dest)),
            },
            Act::Convoy { army, dest } => DpOrder::Convoy {
                army: opt(army),
                dest: prov(dest),
            },
        }
    }
}

struct Engine<'a, T: Tracer<DpEvent>> {
    map: &'a Map,
    units: &'a [Unit],
    rules: &'a Rules,
    n: usize,
    order: Vec<Act>,
    here: Vec<u32>,
    power: Vec<PowerId>,
    /// Per space, the unit that began the turn there.
    occupant: Vec<u32>,
    marks: Vec<Marks>,
    cause: Vec<Option<Cause>>,
    support: Vec<i32>,
    /// Per supporting unit, the unit whose no help list it is in (NONE: none).
    nohelp_of: Vec<u32>,
    nohelp_len: Vec<i32>,
    /// Per unit, the step whose game option changed its order to HOLD (0: none).
    held: Vec<u8>,
    /// Per unit, the void reason the legality step found in its designation, if any.
    designation_void: Vec<Option<Unmatched>>,
    /// Per unit, the written coast of a supported move (for the coast match of step 2).
    support_coast: Vec<Option<LocId>>,
    /// Per army, its written convoy path (indices into `paths`), or (NONE, 0).
    written: Vec<(u32, u32)>,
    paths: Vec<u32>,
    /// The convoying armies list, in unit order.
    convoying: Vec<u32>,
    /// Per army, its route fleets: `route_start[a]..route_start[a + 1]` in `route_fleets`.
    route_start: Vec<u32>,
    route_fleets: Vec<u32>,
    succeeded: Vec<bool>,
    /// Combat lists as doubly linked lists of entries: entry 2u is unit u's own order, 2u + 1
    /// its bounce entry. `slot[e]` is the space of the entry (NONE: in no list).
    head: Vec<u32>,
    tail: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
    slot: Vec<u32>,
    moved: Vec<bool>,
    dislodger: Vec<u32>,
    retreats: Vec<(usize, Vec<ProvinceId>)>,
    /// Per dislodged unit, its latest entry in `retreats` (NONE: none); per entry, the unit's
    /// entry before it and whether it still stands (the unbounce procedure takes a unit's
    /// entries back without a search of the list).
    retreat_last: Vec<u32>,
    retreat_prev: Vec<u32>,
    retreat_kept: Vec<bool>,
    /// Per army, the fleets ordered to convoy it, in unit order (`convoys_of_start[a]..` in
    /// `convoys_of`).
    convoys_of_start: Vec<u32>,
    convoys_of: Vec<u32>,
    /// Scratch for searches over spaces: a stamp per space, a queue, and the spaces a search
    /// starts from.
    stamp: Vec<u32>,
    stamp_now: u32,
    queue: Vec<u32>,
    seeds: Vec<u32>,
    /// Steps 7 and 8 look again only at the spaces whose combat list, counts or occupant
    /// changed since they last looked (a space that did not change would do nothing): per
    /// space, whether it waits for step 7 (bit 0) or step 8 (bit 1); the spaces waiting for
    /// each step's next pass; and, during a pass, the spaces still to look at in it.
    dirty: Vec<u8>,
    pending: [Vec<u32>; 2],
    pass: Option<(usize, u32)>,
    heap: std::collections::BinaryHeap<std::cmp::Reverse<u32>>,
    step: u8,
    tracer: T,
}

fn run<T: Tracer<DpEvent>, O: Submitted>(
    map: &Map,
    units: &[Unit],
    orders: &[O],
    rules: &Rules,
    tracer: T,
) -> (DpjudgeResult, T) {
    let prepared = legality::prepare(map, units, orders, rules);
    let mut e = Engine::new(map, units, orders, rules, &prepared, tracer);
    e.procedure();
    let outcomes = e.outcomes(orders, &prepared);
    let (mut r, tracer) = e.finish(outcomes);
    r.prepared = prepared;
    (r, tracer)
}

impl<'a, T: Tracer<DpEvent>> Engine<'a, T> {
    fn new<O: Submitted>(
        map: &'a Map,
        units: &'a [Unit],
        orders: &[O],
        rules: &'a Rules,
        prepared: &Prepared,
        tracer: T,
    ) -> Self {
        let n = units.len();
        let np = map.province_count();
        let here: Vec<u32> = units.iter().map(|u| map.province_of(u.loc).0).collect();
        let mut occupant = vec![NONE; np];
        for (u, &p) in here.iter().enumerate() {
            if let Some(o) = occupant.get_mut(p as usize) {
                *o = u as u32;
            }
        }
        let idx = |x: usize| x as u32;
        let mut order = Vec::with_capacity(n);
        let mut designation_void = vec![None; n];
        let mut support_coast = vec![None; n];
        let mut written = vec![(NONE, 0u32); n];
        let mut paths = Vec::new();
        for u in 0..n {
            let uo = prepared.orders.get(u).unwrap_or(&UnitOrder::Hold);
            let o = match uo {
                UnitOrder::Hold => Act::Hold,
                UnitOrder::Move {
                    dest,
                    dest_loc,
                    route,
                    path,
                } => {
                    let convoyed = *route != Route::Land;
                    if convoyed
                        && rules.path_specification != PathSpecification::Ignored
                        && let Some(p) = path
                    {
                        written[u] = (paths.len() as u32, p.len() as u32);
                        paths.extend(p.iter().map(|x| x.0));
                    }
                    Act::Move {
                        dest: dest.0,
                        dest_loc: *dest_loc,
                        convoyed,
                    }
                }
                UnitOrder::Support { target, dest, void } => {
                    designation_void[u] = designation(void.as_ref());
                    if let Some(i) = prepared.source.get(u).copied().flatten()
                        && let Some(o) = orders.get(i)
                        && let OrderKind::Support { dest: Some(ds), .. } = &o.order().kind
                        && let Some(c) = ds.coast
                    {
                        support_coast[u] = map.province(ds.province).coast(c);
                    }
                    Act::Support {
                        target: idx(*target),
                        dest: dest.map_or(NONE, |d| d.0),
                    }
                }
                UnitOrder::Convoy { army, dest, void } => {
                    designation_void[u] = designation(void.as_ref());
                    Act::Convoy {
                        army: idx(*army),
                        dest: dest.0,
                    }
                }
            };
            order.push(o);
        }
        // Supports and convoys of units that do not exist: illegal for the decision engine; here
        // they stay the unit's order until steps 1 and 2 apply the game option to them.
        {
            let occ = legality::occupancy(map, units);
            for (i, st) in prepared.status.iter().enumerate() {
                if *st != OrderStatus::Illegal(IllegalReason::NoSuchUnit) {
                    continue;
                }
                let Some((power, o)) = orders.get(i).map(|e| (e.power(), e.order())) else {
                    continue;
                };
                let Some(u) = o
                    .unit
                    .and_then(|s| occ.get(s.loc.province.0 as usize).copied().flatten())
                else {
                    continue;
                };
                if units[u].power != power || prepared.source.get(u).copied().flatten().is_some() {
                    continue;
                }
                order[u] = match &o.kind {
                    OrderKind::Support { dest, .. } => Act::Support {
                        target: NONE,
                        dest: dest.map_or(NONE, |d| d.province.0),
                    },
                    OrderKind::Convoy { dest, .. } => Act::Convoy {
                        army: NONE,
                        dest: dest.province.0,
                    },
                    _ => continue,
                };
            }
        }
        // Per army, the fleets ordered to convoy it (for step 1, without a pass over every
        // unit per army).
        let mut convoys_of_start = vec![0u32; n + 1];
        for o in &order {
            if let Act::Convoy { army, .. } = *o
                && (army as usize) < n
            {
                convoys_of_start[army as usize + 1] += 1;
            }
        }
        for a in 0..n {
            convoys_of_start[a + 1] += convoys_of_start[a];
        }
        let mut convoys_of = vec![0u32; convoys_of_start[n] as usize];
        let mut fill = convoys_of_start.clone();
        for (f, o) in order.iter().enumerate() {
            if let Act::Convoy { army, .. } = *o
                && (army as usize) < n
            {
                convoys_of[fill[army as usize] as usize] = f as u32;
                fill[army as usize] += 1;
            }
        }
        Engine {
            map,
            units,
            rules,
            n,
            order,
            power: units.iter().map(|u| u.power).collect(),
            here,
            occupant,
            marks: vec![Marks::EMPTY; n],
            cause: vec![None; n],
            support: vec![0; n],
            nohelp_of: vec![NONE; n],
            nohelp_len: vec![0; n],
            held: vec![0; n],
            designation_void,
            support_coast,
            written,
            paths,
            convoying: Vec::new(),
            route_start: vec![0; n + 1],
            route_fleets: Vec::new(),
            succeeded: vec![false; n],
            head: vec![NONE; np],
            tail: vec![NONE; np],
            next: vec![NONE; 2 * n],
            prev: vec![NONE; 2 * n],
            slot: vec![NONE; 2 * n],
            moved: vec![false; n],
            dislodger: vec![NONE; n],
            retreats: Vec::new(),
            retreat_last: vec![NONE; n],
            retreat_prev: Vec::new(),
            retreat_kept: Vec::new(),
            convoys_of_start,
            convoys_of,
            stamp: vec![0; np],
            stamp_now: 0,
            queue: Vec::new(),
            seeds: Vec::new(),
            dirty: vec![0; np],
            pending: [Vec::new(), Vec::new()],
            pass: None,
            heap: std::collections::BinaryHeap::new(),
            step: 0,
            tracer,
        }
    }

    // -- small helpers -------------------------------------------------------------------------

    #[inline]
    fn ev(&mut self, e: impl FnOnce() -> DpEvent) {
        self.tracer.record(e);
    }

    fn enter(&mut self, step: u8, via: StepVia) {
        let prev = self.step;
        self.step = step;
        self.ev(|| DpEvent::Step { step, via, prev });
    }

    fn set_mark(&mut self, u: u32, m: Mark, cause: Option<Cause>) {
        let k = u as usize;
        let before = self.marks[k];
        if before.contains(m) {
            return;
        }
        self.marks[k] = before.with(m);
        // A mark on the unit that began in a space can let a move there through (step 8).
        self.touch(self.here[k]);
        // The dislodger is kept apart: a bounced unit keeps its bounce as its cause.
        if cause.is_some() && m != Mark::Dislodged {
            self.cause[k] = cause;
        }
        self.ev(|| DpEvent::Mark {
            unit: k,
            mark: m,
            set: true,
            before,
            cause,
        });
    }

    fn clear_mark(&mut self, u: u32, m: Mark, cause: Option<Cause>) {
        let k = u as usize;
        let before = self.marks[k];
        if !before.contains(m) {
            return;
        }
        self.marks[k] = before.without(m);
        self.touch(self.here[k]);
        self.touch(self.slot[2 * k]);
        self.ev(|| DpEvent::Mark {
            unit: k,
            mark: m,
            set: false,
            before,
            cause,
        });
    }

    fn set_support(&mut self, u: u32, to: i32, by: u32) {
        let k = u as usize;
        let from = self.support[k];
        self.support[k] = to;
        // The count of the unit's own entry, in the space whose list holds it.
        self.touch(self.slot[2 * k]);
        self.ev(|| DpEvent::SupportCount {
            unit: k,
            from,
            to,
            by: by as usize,
        });
    }

    fn is_move(&self, u: u32) -> bool {
        matches!(self.order[u as usize], Act::Move { .. })
    }

    fn dest(&self, u: u32) -> u32 {
        match self.order[u as usize] {
            Act::Move { dest, .. } => dest,
            _ => NONE,
        }
    }

    fn convoyed(&self, u: u32) -> bool {
        matches!(self.order[u as usize], Act::Move { convoyed: true, .. })
    }

    fn unmarked(&self, u: u32) -> bool {
        self.marks[u as usize].is_empty()
    }

    /// A fleet with a convoy order that is not marked void (cutSupport, criterion 3).
    fn convoying_fleet(&self, u: u32) -> bool {
        u != NONE
            && matches!(self.order[u as usize], Act::Convoy { .. })
            && !self.marks[u as usize].contains(Mark::Void)
    }

    fn occupant_of(&self, p: u32) -> u32 {
        self.occupant.get(p as usize).copied().unwrap_or(NONE)
    }

    /// Notes that space `p` changed (an entry came or went, a count or its occupant's marks
    /// changed): steps 7 and 8 look at it again — in the pass under way when the pass has not
    /// reached it yet, else in the next. A space that did not change since a step last looked
    /// at it would do nothing there: the marks that step makes cannot let another move in the
    /// same space through, and counts change only through [`Engine::set_support`].
    fn touch(&mut self, p: u32) {
        let Some(d) = self.dirty.get_mut(p as usize) else {
            return;
        };
        for k in 0..2 {
            let bit = 1u8 << k;
            if *d & bit != 0 {
                continue;
            }
            *d |= bit;
            match self.pass {
                Some((step, ahead)) if step == k && p >= ahead => {
                    self.heap.push(std::cmp::Reverse(p));
                }
                _ => self.pending[k].push(p),
            }
        }
    }

    /// One pass of step 7 (`k` = 0) or step 8 (`k` = 1) over the spaces in province order, as
    /// the text has it, looking only at the spaces that changed since the step last looked
    /// ([`Engine::touch`]); whether it bounced a unit.
    fn pass_over_spaces(&mut self, k: usize) -> bool {
        let mut waiting = std::mem::take(&mut self.pending[k]);
        self.heap.clear();
        self.heap.extend(waiting.drain(..).map(std::cmp::Reverse));
        self.pending[k] = waiting;
        let mut any = false;
        while let Some(std::cmp::Reverse(p)) = self.heap.pop() {
            self.pass = Some((k, p + 1));
            self.dirty[p as usize] &= !(1u8 << k);
            any |= if k == 0 {
                self.step7_space(p)
            } else {
                self.step8_space(p)
            };
        }
        self.pass = None;
        any
    }

    // -- combat lists --------------------------------------------------------------------------

    fn entry_count(&self, e: u32) -> i32 {
        if e & 1 == 0 {
            self.support[(e >> 1) as usize]
        } else {
            0
        }
    }

    fn combat_add(&mut self, p: u32, e: u32) {
        let k = e as usize;
        if p == NONE || self.slot[k] != NONE || p as usize >= self.head.len() {
            return;
        }
        let t = self.tail[p as usize];
        self.prev[k] = t;
        self.next[k] = NONE;
        if t == NONE {
            self.head[p as usize] = e;
        } else {
            self.next[t as usize] = e;
        }
        self.tail[p as usize] = e;
        self.slot[k] = p;
        self.touch(p);
        self.ev(|| DpEvent::Combat {
            space: ProvinceId(p),
            unit: (e >> 1) as usize,
            entry: if e & 1 == 0 {
                Entry::Order
            } else {
                Entry::Bounced
            },
            added: true,
        });
    }

    fn combat_remove(&mut self, e: u32) {
        let k = e as usize;
        let p = self.slot[k];
        if p == NONE {
            return;
        }
        let (a, b) = (self.prev[k], self.next[k]);
        if a == NONE {
            self.head[p as usize] = b;
        } else {
            self.next[a as usize] = b;
        }
        if b == NONE {
            self.tail[p as usize] = a;
        } else {
            self.prev[b as usize] = a;
        }
        self.prev[k] = NONE;
        self.next[k] = NONE;
        self.slot[k] = NONE;
        self.touch(p);
        self.ev(|| DpEvent::Combat {
            space: ProvinceId(p),
            unit: (e >> 1) as usize,
            entry: if e & 1 == 0 {
                Entry::Order
            } else {
                Entry::Bounced
            },
            added: false,
        });
    }

    /// The greatest count in a space's combat list, how many entries have it, the first entry
    /// that has it, and the greatest count among the other entries (i32::MIN when none).
    fn top(&self, p: u32) -> Top {
        let mut t = Top {
            max: i32::MIN,
            at_max: 0,
            first: NONE,
            second: i32::MIN,
            second_first: NONE,
        };
        let mut e = self.head.get(p as usize).copied().unwrap_or(NONE);
        while e != NONE {
            let c = self.entry_count(e);
            if c > t.max {
                t.second = t.max;
                t.second_first = t.first;
                t.max = c;
                t.at_max = 1;
                t.first = e;
            } else if c == t.max {
                if c > t.second {
                    t.second_first = e;
                }
                t.second = c;
                t.at_max += 1;
            } else if c > t.second {
                t.second = c;
                t.second_first = e;
            }
            e = self.next[e as usize];
        }
        t
    }

    /// [`Engine::strongest_other`] read from the space's [`Top`], taken while its list is as it
    /// is now: the first strongest entry unless it is `skip`, else the first strongest of the
    /// others.
    fn strongest_other_from(t: &Top, skip: u32) -> (u32, i32) {
        let unit = |e: u32| if e == NONE { NONE } else { e >> 1 };
        if skip == t.first {
            (unit(t.second_first), t.second)
        } else {
            (unit(t.first), t.max)
        }
    }

    /// The strongest entry of a space's combat list other than `skip` (for a reason in words).
    fn strongest_other(&self, p: u32, skip: u32) -> (u32, i32) {
        let mut best = (NONE, i32::MIN);
        let mut e = self.head.get(p as usize).copied().unwrap_or(NONE);
        while e != NONE {
            if e != skip {
                let c = self.entry_count(e);
                if c > best.1 {
                    best = (e >> 1, c);
                }
            }
            e = self.next[e as usize];
        }
        best
    }

    // -- the procedures ------------------------------------------------------------------------

    /// The bounce procedure.
    fn bounce(&mut self, u: u32, cause: Cause) {
        self.set_mark(u, Mark::Bounce, Some(cause));
        let origin = self.here[u as usize];
        self.combat_add(origin, 2 * u + 1);
    }

    /// The support the cutSupport procedure for moving unit `u` would cut, if any (it changes
    /// nothing).
    fn cut_victim(&self, u: u32, step9: bool) -> Option<(u32, u32)> {
        let dest = self.dest(u);
        if dest == NONE {
            return None;
        }
        let s = self.occupant_of(dest);
        if s == NONE || s == u {
            return None;
        }
        let Act::Support {
            target,
            dest: sdest,
        } = self.order[s as usize]
        else {
            return None;
        };
        let ms = self.marks[s as usize];
        // 1. not already cut or void; 2. not of the moving unit's power.
        if ms.contains(Mark::Cut)
            || ms.contains(Mark::Void)
            || self.power[s as usize] == self.power[u as usize]
        {
            return None;
        }
        // 3. a convoyed army does not cut a support for or against a convoying fleet.
        if self.convoyed(u) {
            let against = if sdest == NONE {
                NONE
            } else {
                self.occupant_of(sdest)
            };
            if self.convoying_fleet(target) || self.convoying_fleet(against) {
                return None;
            }
        }
        // 4. outside step 9, not a support of a move into the moving unit's own space.
        if !step9 && sdest != NONE && sdest == self.here[u as usize] {
            return None;
        }
        Some((s, target))
    }

    /// The cutSupport procedure for moving unit `u`; whether it cut a support.
    fn cut_support(&mut self, u: u32, step9: bool) -> bool {
        let Some((s, target)) = self.cut_victim(u, step9) else {
            return false;
        };
        let step = self.step;
        self.set_mark(
            s,
            Mark::Cut,
            Some(Cause::Cut {
                step,
                by: u as usize,
            }),
        );
        if target != NONE {
            let c = self.support[target as usize];
            self.set_support(target, c - 1, s);
            if self.nohelp_of[s as usize] == target {
                self.nohelp_of[s as usize] = NONE;
                self.nohelp_len[target as usize] -= 1;
                self.ev(|| DpEvent::NoHelp {
                    unit: target as usize,
                    supporter: s as usize,
                    added: false,
                });
            }
        }
        true
    }

    /// Whether fleet `f` is threatened (checkDisruptions): Some((strongest foreign unit,
    /// beleaguered)).
    fn threatened(&self, f: u32) -> Option<(u32, bool)> {
        let p = self.here[f as usize];
        let t = self.top(p);
        if t.first == NONE {
            return None;
        }
        let fp = self.power[f as usize];
        if self.rules.dpjudge_threat_count == ThreatCount::NoHelp {
            if let Some(w) = self.no_help_threat(f, p, &t) {
                return Some((w, false));
            }
            // A single strongest entry is a threat only as above; a tie still goes to the
            // BELEAGUERED_DISRUPTS rule below.
            if t.at_max == 1 {
                return None;
            }
        } else if t.at_max == 1 {
            let w = t.first >> 1;
            return (self.power[w as usize] != fp).then_some((w, false));
        }
        if !self.rules.dpjudge_beleaguered_disrupts {
            return None;
        }
        // BELEAGUERED_DISRUPTS: several tied strongest, one foreign, the fleet not among them.
        let mut foreign = NONE;
        let mut e = self.head[p as usize];
        while e != NONE {
            if self.entry_count(e) == t.max {
                let w = e >> 1;
                if w == f {
                    return None;
                }
                if foreign == NONE && self.power[w as usize] != fp {
                    foreign = w;
                }
            }
            e = self.next[e as usize];
        }
        (foreign != NONE).then_some((foreign, true))
    }

    /// Under `dpjudge_threat_count: NoHelp`, the foreign attacker of fleet `f` (in space `p`,
    /// whose list's top is `t`) whose count less its no help list (the supports of the fleet's
    /// power, which cannot help dislodge it) is still greater than every other entry's count —
    /// as the DATC's attack strength must beat the others' hold and prevent strengths, which
    /// count every support.
    fn no_help_threat(&self, f: u32, p: u32, t: &Top) -> Option<u32> {
        let fp = self.power[f as usize];
        let mut e = self.head.get(p as usize).copied().unwrap_or(NONE);
        while e != NONE {
            let w = e >> 1;
            if e & 1 == 0 && w != f && self.power[w as usize] != fp {
                let attack = self.entry_count(e) - self.nohelp_len[w as usize];
                let others = if e == t.first && t.at_max == 1 {
                    t.second
                } else {
                    t.max
                };
                if attack > others {
                    return Some(w);
                }
            }
            e = self.next[e as usize];
        }
        None
    }

    fn route(&self, a: u32) -> std::ops::Range<usize> {
        let k = a as usize;
        self.route_start[k] as usize..self.route_start[k + 1] as usize
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp_now = self.stamp_now.wrapping_add(2);
        if self.stamp_now < 2 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp_now = 2;
        }
        self.stamp_now
    }

    /// The checkDisruptions procedure for army `a`.
    fn check_disruptions(&mut self, a: u32) {
        let range = self.route(a);
        let written = self.written[a as usize].0 != NONE;
        let mut found: Option<(u32, u32, bool)> = None;
        if written || self.rules.multi_route_disruption == MultiRoute::AnyRoute {
            for i in range {
                let f = self.route_fleets[i];
                if let Some((by, b)) = self.threatened(f) {
                    found = Some((f, by, b));
                    break;
                }
            }
        } else {
            // Every route must have a threatened fleet: search for a route of unthreatened
            // ones. Stamp s: a route sea; s + 1: reached.
            let s = self.next_stamp();
            let mut first_threat = None;
            self.seeds.clear();
            for i in range {
                let f = self.route_fleets[i];
                match self.threatened(f) {
                    Some((by, b)) => {
                        if first_threat.is_none() {
                            first_threat = Some((f, by, b));
                        }
                    }
                    None => {
                        let p = self.here[f as usize];
                        self.stamp[p as usize] = s;
                        self.seeds.push(p);
                    }
                }
            }
            if let Some(t) = first_threat
                && !self.route_exists(a, s, false)
            {
                found = Some(t);
            }
        }
        let step = self.step;
        if let Some((fleet, by, beleaguered)) = found {
            self.set_mark(
                a,
                Mark::ConvoyEndangered,
                Some(Cause::Endangered {
                    step,
                    fleet: fleet as usize,
                    by: by as usize,
                    beleaguered,
                    no_help: !beleaguered && self.rules.dpjudge_threat_count == ThreatCount::NoHelp,
                }),
            );
        }
        self.ev(|| DpEvent::CheckDisruptions {
            army: a as usize,
            endangered: found.is_some(),
        });
    }

    /// Whether seas stamped `s` form a route from army `a`'s space to its destination; marks
    /// the seas it reaches `s + 1` (all of them with `full`, else until a route is found) and
    /// leaves them in `queue`. `seeds` lists the seas stamped `s` (in any order: the seas
    /// reached are the same).
    fn route_exists(&mut self, a: u32, s: u32, full: bool) -> bool {
        let from = ProvinceId(self.here[a as usize]);
        let dest = self.dest(a);
        self.queue.clear();
        if dest == NONE {
            return false;
        }
        let to = ProvinceId(dest);
        let map = self.map;
        for &p in &self.seeds {
            let st = &mut self.stamp[p as usize];
            if *st == s && map.provinces_adjacent(from, ProvinceId(p)) {
                *st = s + 1;
                self.queue.push(p);
            }
        }
        let mut found = false;
        let mut i = 0;
        while let Some(&p) = self.queue.get(i) {
            i += 1;
            let pid = ProvinceId(p);
            if map.provinces_adjacent(pid, to) {
                found = true;
                if !full {
                    return true;
                }
            }
            for l in map.fleet_neighbours(map.province(pid).main) {
                let q = map.province_of(*l).0 as usize;
                if self.stamp.get(q) == Some(&s) {
                    self.stamp[q] = s + 1;
                    self.queue.push(q as u32);
                }
            }
        }
        found
    }

    /// The unbounce procedure for space `p`, as a loop; freed units go to `work`.
    fn unbounce(&mut self, mut p: u32, work: &mut Vec<u32>) {
        loop {
            self.ev(|| DpEvent::Unbounce {
                space: ProvinceId(p),
            });
            let t = self.top(p);
            if t.at_max != 1 || t.first & 1 == 1 {
                return;
            }
            let w = t.first >> 1;
            if !self.marks[w as usize].contains(Mark::Bounce) {
                return;
            }
            let cause = Cause::Unbounced {
                space: ProvinceId(p),
            };
            self.clear_mark(w, Mark::Bounce, Some(cause));
            self.cause[w as usize] = Some(cause);
            work.push(w);
            if self.marks[w as usize].contains(Mark::Dislodged) {
                self.clear_mark(w, Mark::Dislodged, Some(cause));
                self.dislodger[w as usize] = NONE;
                // The unit's possible-retreat lists are taken back.
                let mut r = std::mem::replace(&mut self.retreat_last[w as usize], NONE);
                while r != NONE {
                    self.retreat_kept[r as usize] = false;
                    r = self.retreat_prev[r as usize];
                }
                return;
            }
            self.combat_remove(2 * w + 1);
            p = self.here[w as usize];
        }
    }

    // -- the steps -----------------------------------------------------------------------------

    fn procedure(&mut self) {
        let n = self.n as u32;
        let spaces = self.head.len() as u32;
        self.ev(|| DpEvent::Start { units: n, spaces });
        self.step1();
        self.step2();
        self.step3();
        self.steps4_5();
        self.steps6_9();
        self.step10();
    }

    /// Step 1: invalid convoy orders; the convoying armies list.
    fn step1(&mut self) {
        self.enter(1, StepVia::Next);
        let n = self.n as u32;
        for a in 0..n {
            let Act::Move {
                dest,
                convoyed: true,
                ..
            } = self.order[a as usize]
            else {
                self.route_start[a as usize + 1] = self.route_fleets.len() as u32;
                continue;
            };
            let start = self.route_fleets.len();
            let verdict = if self.written[a as usize].0 != NONE {
                self.written_path(a, dest)
            } else {
                self.derived_path(a, dest)
            };
            match verdict {
                Ok(()) => {
                    self.convoying.push(a);
                    self.ev(|| DpEvent::Listed { army: a as usize });
                }
                Err(why) => {
                    self.route_fleets.truncate(start);
                    let phantom = matches!(why, NoRoute::NoFleet { .. });
                    if phantom && self.rules.dpjudge_phantom_orders == PhantomOrders::Hold {
                        let space = match why {
                            NoRoute::NoFleet { space } => Some(space),
                            _ => None,
                        };
                        self.change_to_hold(a, 1, space);
                    } else {
                        self.set_mark(a, Mark::NoConvoy, Some(Cause::NoConvoy(why)));
                    }
                }
            }
            self.route_start[a as usize + 1] = self.route_fleets.len() as u32;
        }
        // Fleets: the army must have ordered the matching convoyed move.
        for f in 0..n {
            let Act::Convoy { army, dest } = self.order[f as usize] else {
                continue;
            };
            if army == NONE && self.rules.dpjudge_phantom_orders == PhantomOrders::Hold {
                self.change_to_hold(f, 1, None);
                continue;
            }
            let why = if army == NONE {
                Some(Unmatched::NoUnit)
            } else if let Some(d) = self.designation_void[f as usize] {
                Some(d)
            } else {
                match self.order[army as usize] {
                    Act::Move {
                        dest: ad,
                        convoyed: true,
                        ..
                    } if ad == dest => {
                        let (start, len) = self.written[army as usize];
                        let here = self.here[f as usize];
                        if start != NONE
                            && !self
                                .paths
                                .get(start as usize..(start + len) as usize)
                                .is_some_and(|p| p.contains(&here))
                        {
                            Some(Unmatched::NotOnPath)
                        } else {
                            None
                        }
                    }
                    _ => Some(Unmatched::ArmyDoesNotMatch),
                }
            };
            if let Some(why) = why {
                self.set_mark(f, Mark::Void, Some(Cause::Void { step: 1, why }));
            }
        }
    }

    fn change_to_hold(&mut self, u: u32, step: u8, space: Option<ProvinceId>) {
        let was = self.order[u as usize].public();
        self.order[u as usize] = Act::Hold;
        self.held[u as usize] = step;
        self.cause[u as usize] = Some(Cause::ToHold { step, space });
        self.ev(|| DpEvent::ToHold {
            unit: u as usize,
            was,
        });
    }

    /// Whether fleet `f` ordered the convoy of army `a` to `dest` (with an acceptable
    /// designation).
    fn convoys(&self, f: u32, a: u32, dest: u32) -> bool {
        matches!(self.order[f as usize], Act::Convoy { army, dest: d } if army == a && d == dest)
            && self.designation_void[f as usize].is_none()
    }

    /// Step 1 for an army with a written path: its fleets go to `route_fleets`.
    fn written_path(&mut self, a: u32, dest: u32) -> Result<(), NoRoute> {
        let (start, len) = self.written[a as usize];
        let map = self.map;
        let mut prev = ProvinceId(self.here[a as usize]);
        for i in start..start + len {
            let Some(&s) = self.paths.get(i as usize) else {
                return Err(NoRoute::BrokenPath);
            };
            let f = self.occupant_of(s);
            let sea = ProvinceId(s);
            if f == NONE || self.units[f as usize].kind != UnitKind::Fleet {
                return Err(NoRoute::NoFleet { space: sea });
            }
            if !self.convoys(f, a, dest) {
                return Err(NoRoute::NotConvoying { fleet: f as usize });
            }
            if map.province(sea).kind != ProvinceKind::Sea || !map.provinces_adjacent(prev, sea) {
                return Err(NoRoute::BrokenPath);
            }
            self.route_fleets.push(f);
            prev = sea;
        }
        if len == 0 || !map.provinces_adjacent(prev, ProvinceId(dest)) {
            return Err(NoRoute::BrokenPath);
        }
        Ok(())
    }

    /// Step 1 for an army without a written path: the matching fleets on a route from its space
    /// to its destination go to `route_fleets`.
    fn derived_path(&mut self, a: u32, dest: u32) -> Result<(), NoRoute> {
        let map = self.map;
        // Seas of matching fleets: stamp s.
        let s = self.next_stamp();
        let fleets = self.convoys_of_start[a as usize] as usize
            ..self.convoys_of_start[a as usize + 1] as usize;
        self.seeds.clear();
        for k in fleets.clone() {
            let f = self.convoys_of[k];
            if self.convoys(f, a, dest) {
                let p = self.here[f as usize];
                if map.province(ProvinceId(p)).kind == ProvinceKind::Sea {
                    self.stamp[p as usize] = s;
                    self.seeds.push(p);
                }
            }
        }
        if self.seeds.is_empty() {
            return Err(NoRoute::NoRoute);
        }
        // Forward from the army (s + 1), then backward from the destination among the reached
        // (which the forward search leaves in `queue`).
        if !self.route_exists(a, s, true) {
            return Err(NoRoute::NoRoute);
        }
        let reached = s + 1;
        let to = ProvinceId(dest);
        std::mem::swap(&mut self.seeds, &mut self.queue);
        self.queue.clear();
        let back = self.next_stamp();
        for &p in &self.seeds {
            let st = &mut self.stamp[p as usize];
            if *st == reached && map.provinces_adjacent(ProvinceId(p), to) {
                *st = back;
                self.queue.push(p);
            }
        }
        let mut i = 0;
        while let Some(&p) = self.queue.get(i) {
            i += 1;
            for l in map.fleet_neighbours(map.province(ProvinceId(p)).main) {
                let q = map.province_of(*l).0 as usize;
                if self.stamp.get(q) == Some(&reached) {
                    self.stamp[q] = back;
                    self.queue.push(q as u32);
                }
            }
        }
        for k in fleets {
            let f = self.convoys_of[k];
            if self.convoys(f, a, dest)
                && self.stamp.get(self.here[f as usize] as usize) == Some(&back)
            {
                self.route_fleets.push(f);
            }
        }
        Ok(())
    }

    /// Step 2: invalid support orders; support counts and no help lists.
    fn step2(&mut self) {
        self.enter(2, StepVia::Next);
        for s in 0..self.n as u32 {
            let Act::Support { target, dest } = self.order[s as usize] else {
                continue;
            };
            if target == NONE && self.rules.dpjudge_phantom_orders == PhantomOrders::Hold {
                self.change_to_hold(s, 2, None);
                continue;
            }
            let why = if target == NONE {
                Some(Unmatched::NoUnit)
            } else if let Some(d) = self.designation_void[s as usize] {
                Some(d)
            } else {
                match (self.order[target as usize], dest) {
                    (Act::Move { .. }, NONE) => Some(Unmatched::SupportedUnitMoves),
                    (_, NONE) => None,
                    (
                        Act::Move {
                            dest: td, dest_loc, ..
                        },
                        d,
                    ) if td == d => match self.support_coast[s as usize] {
                        Some(w) if w != dest_loc => Some(Unmatched::CoastDoesNotMatch),
                        _ => None,
                    },
                    _ => Some(Unmatched::MoveDoesNotMatch),
                }
            };
            if let Some(why) = why {
                self.set_mark(s, Mark::Void, Some(Cause::Void { step: 2, why }));
                continue;
            }
            let c = self.support[target as usize];
            self.set_support(target, c + 1, s);
            if dest != NONE {
                let v = self.occupant_of(dest);
                if v != NONE && self.power[v as usize] == self.power[s as usize] {
                    self.nohelp_of[s as usize] = target;
                    self.nohelp_len[target as usize] += 1;
                    self.ev(|| DpEvent::NoHelp {
                        unit: target as usize,
                        supporter: s as usize,
                        added: true,
                    });
                }
            }
        }
    }

    /// Step 3: supports cut by non-convoyed attacks; the combat lists.
    fn step3(&mut self) {
        self.enter(3, StepVia::Next);
        let n = self.n as u32;
        for u in 0..n {
            if self.is_move(u) && !self.convoyed(u) {
                self.cut_support(u, false);
            }
        }
        // An army marked "no convoy" in step 1 still has a move order: read to the letter it is
        // "attempting to move" and goes in its destination's list (`AsWritten`); by default it
        // is put in its own space's, like a bounced unit.
        let literal = self.rules.dpjudge_no_convoy_list == NoConvoyList::AsWritten;
        for u in 0..n {
            match self.order[u as usize] {
                Act::Move { dest, .. }
                    if literal || !self.marks[u as usize].contains(Mark::NoConvoy) =>
                {
                    self.combat_add(dest, 2 * u);
                }
                Act::Move { .. } => {
                    let origin = self.here[u as usize];
                    self.combat_add(origin, 2 * u + 1);
                }
                _ => {
                    let origin = self.here[u as usize];
                    self.combat_add(origin, 2 * u);
                }
            }
        }
    }

    /// Steps 4 and 5: convoy success or failure.
    fn steps4_5(&mut self) {
        if self.convoying.is_empty() {
            return;
        }
        let mut via4 = StepVia::Next;
        loop {
            // Step 4, repeated while the convoy succeeded list grows.
            loop {
                self.enter(4, via4);
                let mut grew = false;
                for i in 0..self.convoying.len() {
                    let a = self.convoying[i];
                    if self.marks[a as usize].contains(Mark::NoConvoy) {
                        continue;
                    }
                    self.check_disruptions(a);
                    if self.unmarked(a) {
                        self.cut_support(a, false);
                        grew |= self.add_succeeded(a);
                    } else if self.marks[a as usize].contains(Mark::ConvoyEndangered) {
                        self.clear_mark(a, Mark::ConvoyEndangered, None);
                        self.set_mark(a, Mark::ConvoyUnderAttack, Some(Cause::UnderAttack));
                    }
                }
                if !grew {
                    break;
                }
                via4 = StepVia::Repeat;
            }
            // Step 5.
            self.enter(5, StepVia::Next);
            let mut grew = false;
            for i in 0..self.convoying.len() {
                let a = self.convoying[i];
                if self.marks[a as usize].contains(Mark::NoConvoy) {
                    continue;
                }
                self.check_disruptions(a);
                let m = self.marks[a as usize];
                if m.contains(Mark::ConvoyEndangered) {
                    let cause = self.cause[a as usize];
                    self.clear_mark(a, Mark::ConvoyEndangered, None);
                    self.clear_mark(a, Mark::ConvoyUnderAttack, None);
                    self.set_mark(a, Mark::NoConvoy, cause);
                    // It no longer attempts its move: it stays, like a bounced unit. Read to the
                    // letter (`AsWritten`) no combat list changes here.
                    if self.rules.dpjudge_no_convoy_list == NoConvoyList::Origin {
                        self.combat_remove(2 * a);
                        let origin = self.here[a as usize];
                        self.combat_add(origin, 2 * a + 1);
                    }
                } else if m.contains(Mark::ConvoyUnderAttack) {
                    self.clear_mark(a, Mark::ConvoyUnderAttack, None);
                    self.cut_support(a, false);
                    grew |= self.add_succeeded(a);
                }
            }
            if !grew {
                break;
            }
            via4 = StepVia::Return { from: 5 };
        }
    }

    fn add_succeeded(&mut self, a: u32) -> bool {
        if self.succeeded[a as usize] {
            return false;
        }
        self.succeeded[a as usize] = true;
        self.ev(|| DpEvent::Succeeded { army: a as usize });
        true
    }

    /// The unit `u` swaps places with in step 6, while both are unmarked: `u` moves (not by
    /// convoy) into the space of a unit that moves (not by convoy) into `u`'s.
    fn swap_partner(&self, u: u32) -> Option<u32> {
        let Act::Move {
            dest,
            convoyed: false,
            ..
        } = self.order[u as usize]
        else {
            return None;
        };
        if !self.unmarked(u) {
            return None;
        }
        let s = self.occupant_of(dest);
        if s == NONE || !self.unmarked(s) {
            return None;
        }
        let swaps = matches!(self.order[s as usize],
            Act::Move { dest: sd, convoyed: false, .. } if sd == self.here[u as usize]);
        swaps.then_some(s)
    }

    /// Steps 6 to 9: bounces and further support cuts.
    ///
    /// Each pass does what the text says, in the text's order, but looks only where something
    /// can happen. In these steps marks are only added, orders do not change, and counts only
    /// fall (a cut): so a unit that cannot bounce in step 6, or cut a support in step 9, never
    /// can again before step 10, and each of those steps keeps a list of the units that still
    /// might (after its first pass, none); steps 7 and 8 look at the spaces that changed since
    /// they last looked ([`Engine::touch`]). A chain of n moves that bounce one after the
    /// other then costs n passes of constant work, not n passes over every space.
    fn steps6_9(&mut self) {
        let n = self.n as u32;
        let mut swaps: Vec<u32> = (0..n).filter(|&u| self.swap_partner(u).is_some()).collect();
        let mut cutters: Vec<u32> = (0..n).filter(|&u| self.is_move(u)).collect();
        let mut via6 = StepVia::Next;
        loop {
            // Step 6, repeated while it bounces.
            loop {
                self.enter(6, via6);
                let mut any = false;
                for &u in &swaps {
                    let Some(s) = self.swap_partner(u) else {
                        continue;
                    };
                    let (cu, cs) = (self.support[u as usize], self.support[s as usize]);
                    if cu <= cs {
                        self.bounce(u, bounce_cause(6, cu, 0, s, cs));
                        any = true;
                    }
                    if cs <= cu {
                        self.bounce(s, bounce_cause(6, cs, 0, u, cu));
                        any = true;
                    }
                }
                swaps.retain(|&u| self.swap_partner(u).is_some());
                if !any {
                    break;
                }
                via6 = StepVia::Repeat;
            }
            // Step 7.
            self.enter(7, StepVia::Next);
            if self.pass_over_spaces(0) {
                via6 = StepVia::Return { from: 7 };
                continue;
            }
            // Step 8.
            self.enter(8, StepVia::Next);
            if self.pass_over_spaces(1) {
                via6 = StepVia::Return { from: 8 };
                continue;
            }
            // Step 9.
            self.enter(9, StepVia::Next);
            let mut cut = false;
            for &u in &cutters {
                if self.is_move(u) && self.unmarked(u) {
                    cut |= self.cut_support(u, true);
                }
            }
            cutters.retain(|&u| self.unmarked(u) && self.cut_victim(u, true).is_some());
            if cut {
                via6 = StepVia::Return { from: 9 };
                continue;
            }
            break;
        }
    }

    /// Step 7 in space `p`: every moving unit (not marked) there that is not alone with the
    /// greatest count bounces; whether one did.
    fn step7_space(&mut self, p: u32) -> bool {
        let t = self.top(p);
        let tail = self.tail[p as usize];
        let mut any = false;
        let mut e = self.head[p as usize];
        while e != NONE {
            let next = self.next[e as usize];
            let u = e >> 1;
            if e & 1 == 0 && self.is_move(u) && self.unmarked(u) {
                let c = self.entry_count(e);
                let greatest = c == t.max && t.at_max == 1;
                if !greatest {
                    // The list as `t` saw it, unless a bounce here added to it.
                    let (o, oc) = if self.tail[p as usize] == tail {
                        Self::strongest_other_from(&t, e)
                    } else {
                        self.strongest_other(p, e)
                    };
                    self.bounce(u, bounce_cause(7, c, 0, o, oc));
                    any = true;
                }
            }
            e = next;
        }
        any
    }

    /// Step 8 in space `p`: a move alone with the greatest count that cannot dislodge the unit
    /// there bounces; whether it did.
    fn step8_space(&mut self, p: u32) -> bool {
        let t = self.top(p);
        if t.at_max != 1 || t.first & 1 == 1 {
            return false;
        }
        let u = t.first >> 1;
        if !self.is_move(u) || !self.unmarked(u) {
            return false;
        }
        let v = self.occupant_of(p);
        if v == NONE || v == u {
            return false;
        }
        if self.is_move(v) && self.unmarked(v) {
            return false;
        }
        if self.power[v as usize] == self.power[u as usize] {
            // "No victim" to the letter; or, as the step's title and the program have it, the
            // move bounces: a unit never dislodges its own power's.
            if self.rules.dpjudge_own_victim == OwnVictim::Bounces {
                self.bounce(u, Cause::OwnVictim { victim: v as usize });
                return true;
            }
            return false;
        }
        let c = self.support[u as usize];
        let k = self.nohelp_len[u as usize];
        if c - k <= t.second {
            let (o, oc) = Self::strongest_other_from(&t, t.first);
            self.bounce(u, bounce_cause(8, c, k, o, oc));
            return true;
        }
        // The loser of a swap: the text compares with its bounce entry (above); the DATC's
        // head-to-head battle with its own support count (`dpjudge_swap_victim: SwapCount`).
        if self.rules.dpjudge_swap_victim == SwapVictim::SwapCount && self.swapped(u, v) {
            let cv = self.support[v as usize];
            if c - k <= cv {
                self.bounce(u, bounce_cause(8, c, k, v, cv));
                return true;
            }
        }
        false
    }

    /// Whether `u` and `v` move into each other's spaces, neither by convoy (a swap of step 6,
    /// whatever became of it since).
    fn swapped(&self, u: u32, v: u32) -> bool {
        let into = |x: u32, y: u32| {
            matches!(self.order[x as usize],
                Act::Move { dest, convoyed: false, .. } if dest == self.here[y as usize])
        };
        into(u, v) && into(v, u)
    }

    /// Step 10: dislodgements and moves.
    fn step10(&mut self) {
        self.enter(10, StepVia::Next);
        let n = self.n as u32;
        let mut work: Vec<u32> = (0..n)
            .filter(|&u| self.is_move(u) && self.unmarked(u))
            .collect();
        let mut i = 0;
        while let Some(&u) = work.get(i) {
            i += 1;
            if self.moved[u as usize] || !self.unmarked(u) {
                continue;
            }
            let Act::Move { dest, dest_loc, .. } = self.order[u as usize] else {
                continue;
            };
            let origin = self.here[u as usize];
            let v = self.occupant_of(dest);
            if v != NONE && v != u && (!self.unmarked(v) || !self.is_move(v)) {
                self.set_mark(
                    v,
                    Mark::Dislodged,
                    Some(Cause::Dislodged { by: u as usize }),
                );
                self.dislodger[v as usize] = u;
                let swapper = matches!(self.order[v as usize],
                    Act::Move { dest: vd, convoyed: false, .. } if vd == origin);
                if swapper && !self.convoyed(u) {
                    self.combat_remove(2 * v);
                }
                let list = self.possible_retreats(v, origin);
                self.ev(|| DpEvent::Retreats {
                    unit: v as usize,
                    spaces: list.clone(),
                });
                self.retreat_prev.push(self.retreat_last[v as usize]);
                self.retreat_last[v as usize] = self.retreats.len() as u32;
                self.retreat_kept.push(true);
                self.retreats.push((v as usize, list));
            }
            self.unbounce(origin, &mut work);
            self.moved[u as usize] = true;
            let from = self.units[u as usize].loc;
            self.ev(|| DpEvent::Moved {
                unit: u as usize,
                from,
                to: dest_loc,
            });
        }
    }

    /// The spaces a dislodged unit could move to without convoying, but not the attacker's
    /// space, nor any space with a combat list.
    fn possible_retreats(&self, v: u32, attacker_from: u32) -> Vec<ProvinceId> {
        let map = self.map;
        let unit = self.units[v as usize];
        let mut out: Vec<ProvinceId> = match unit.kind {
            UnitKind::Army => map.army_neighbours(map.province_of(unit.loc)).to_vec(),
            UnitKind::Fleet => map
                .fleet_neighbours(unit.loc)
                .iter()
                .map(|l| map.province_of(*l))
                .collect(),
        };
        out.sort_unstable();
        out.dedup();
        out.retain(|p| {
            p.0 != attacker_from && self.head.get(p.0 as usize).is_none_or(|h| *h == NONE)
        });
        out
    }

    // -- results -------------------------------------------------------------------------------

    /// The submitted order that applies to unit `u`, abbreviated; or the unit itself.
    fn label<O: Submitted>(&self, orders: &[O], prepared: &Prepared, u: usize) -> String {
        if let Some(o) = prepared
            .source
            .get(u)
            .copied()
            .flatten()
            .and_then(|i| orders.get(i))
        {
            let mut o = o.order().clone();
            o.power = None;
            return format_order(self.map, &o, NameStyle::Abbr);
        }
        match self.units.get(u) {
            Some(unit) => format!("{} {}", unit.kind.letter(), self.map.loc_abbr(unit.loc)),
            None => "?".into(),
        }
    }

    fn outcomes<O: Submitted>(&self, orders: &[O], prepared: &Prepared) -> Vec<OrderOutcome> {
        let label = |u: usize| self.label(orders, prepared, u);
        let space = |p: ProvinceId| self.map.province(p).name.clone();
        let mut out = Vec::with_capacity(orders.len());
        for (i, st) in prepared.status.iter().enumerate() {
            let o = match st {
                OrderStatus::Illegal(IllegalReason::NoSuchUnit) => {
                    let what = match orders.get(i).map(|o| &o.order().kind) {
                        Some(OrderKind::Convoy { .. }) => (1, "convoy"),
                        _ => (2, "support"),
                    };
                    let u = orders.get(i).and_then(|o| o.order().unit).and_then(|s| {
                        let p = s.loc.province.0 as usize;
                        self.occupant.get(p).copied().filter(|&x| x != NONE)
                    });
                    // The unit's order, unless another order of it was the one applied.
                    let own =
                        u.filter(|&u| prepared.source.get(u as usize).copied().flatten().is_none());
                    let void_kept = own.is_some_and(|u| {
                        self.marks[u as usize].contains(Mark::Void)
                            && matches!(
                                self.cause[u as usize],
                                Some(Cause::Void {
                                    why: Unmatched::NoUnit,
                                    ..
                                })
                            )
                    });
                    let held = own.is_some_and(|u| self.held[u as usize] != 0);
                    if !void_kept && !held {
                        OrderOutcome::new(
                            Verdict::Illegal,
                            Reason::Illegal(IllegalReason::NoSuchUnit),
                            format!("illegal: {}", IllegalReason::NoSuchUnit),
                        )
                    } else if void_kept {
                        OrderOutcome::text(
                            Verdict::Void,
                            format!(
                                "void in step {}: no unit there to {} (dpjudge_phantom_orders=Void)",
                                what.0, what.1
                            ),
                        )
                    } else {
                        OrderOutcome::text(
                            Verdict::Illegal,
                            format!(
                                "changed to HOLD in step {}: no unit there to {}",
                                what.0, what.1
                            ),
                        )
                    }
                }
                OrderStatus::Illegal(r) => OrderOutcome::new(
                    Verdict::Illegal,
                    Reason::Illegal(r.clone()),
                    format!("illegal: {r}"),
                ),
                OrderStatus::Applied(u) => self.unit_outcome(*u, &label, &space),
            };
            out.push(o);
        }
        out
    }

    fn unit_outcome(
        &self,
        u: usize,
        label: &dyn Fn(usize) -> String,
        space: &dyn Fn(ProvinceId) -> String,
    ) -> OrderOutcome {
        let m = self.marks[u];
        let dislodged = match self.dislodger[u] {
            NONE => None,
            d => Some(d as usize),
        };
        let suffix = match dislodged {
            Some(d) => format!(", and is dislodged in step 10 by {}", label(d)),
            None => String::new(),
        };
        let cause_text = |c: Option<Cause>| cause_words(c, label, space);
        if self.held[u] != 0 {
            let (verdict, text) = match dislodged {
                Some(d) => (
                    Verdict::Fails,
                    format!(
                        "{}, and is dislodged in step 10 by {}",
                        cause_text(self.cause[u]),
                        label(d)
                    ),
                ),
                None => (Verdict::Fails, cause_text(self.cause[u])),
            };
            return OrderOutcome::text(verdict, text);
        }
        match self.order[u] {
            Act::Hold => match dislodged {
                Some(d) => OrderOutcome::text(
                    Verdict::Fails,
                    format!("dislodged in step 10 by {}", label(d)),
                ),
                None => OrderOutcome::text(Verdict::Succeeds, "holds".into()),
            },
            Act::Move { convoyed, .. } => {
                if self.moved[u] {
                    let how = if convoyed { "by convoy " } else { "" };
                    let text = match self.cause[u] {
                        Some(Cause::Unbounced { space: p }) => format!(
                            "moves {how}in step 10 (unbounced when {} was vacated)",
                            space(p)
                        ),
                        _ => format!("moves {how}in step 10"),
                    };
                    OrderOutcome::text(Verdict::Succeeds, text)
                } else {
                    let words = cause_text(self.cause[u]);
                    let text = match self.cause[u] {
                        Some(Cause::Endangered { .. }) => format!("no convoy in step 5: {words}"),
                        _ => words,
                    };
                    // Read to the letter, a "no convoy" army never left its destination's list.
                    let stays = match self.order[u] {
                        Act::Move { dest, .. }
                            if m.contains(Mark::NoConvoy)
                                && self.rules.dpjudge_no_convoy_list == NoConvoyList::AsWritten =>
                        {
                            format!(
                                "; it stays in {}'s combat list (steps 3 and 5 as written)",
                                space(ProvinceId(dest))
                            )
                        }
                        _ => String::new(),
                    };
                    OrderOutcome::text(Verdict::Fails, format!("{text}{stays}{suffix}"))
                }
            }
            Act::Support { target, .. } => {
                if m.contains(Mark::Void) {
                    OrderOutcome::text(Verdict::Void, cause_text(self.cause[u]))
                } else if m.contains(Mark::Cut) {
                    OrderOutcome::text(
                        Verdict::Fails,
                        format!("{}{suffix}", cause_text(self.cause[u])),
                    )
                } else {
                    let count = match target {
                        NONE => 0,
                        t => self.support[t as usize],
                    };
                    OrderOutcome::text(
                        Verdict::Succeeds,
                        format!("support given (support count {count}){suffix}"),
                    )
                }
            }
            Act::Convoy { army, .. } => {
                if m.contains(Mark::Void) {
                    OrderOutcome::text(Verdict::Void, cause_text(self.cause[u]))
                } else if let Some(d) = dislodged {
                    OrderOutcome::text(
                        Verdict::Fails,
                        format!("dislodged in step 10 by {}", label(d)),
                    )
                } else if army != NONE && self.moved[army as usize] {
                    OrderOutcome::text(Verdict::Succeeds, "convoys (the army moves)".into())
                } else {
                    OrderOutcome::text(
                        Verdict::Succeeds,
                        "convoys (not dislodged; the army does not move)".into(),
                    )
                }
            }
        }
    }

    fn finish(self, outcomes: Vec<OrderOutcome>) -> (DpjudgeResult, T) {
        let map = self.map;
        let n = self.n;
        let mut final_units = Vec::with_capacity(n);
        let mut dislodged = Vec::new();
        for u in 0..n {
            let unit = self.units[u];
            let by = self.dislodger[u];
            if by != NONE {
                dislodged.push(Dislodged {
                    unit,
                    attacker_from: ProvinceId(self.here[by as usize]),
                    by_convoy: self.convoyed(by),
                });
                continue;
            }
            match self.order[u] {
                Act::Move { dest_loc, .. } if self.moved[u] => final_units.push(Unit {
                    loc: dest_loc,
                    ..unit
                }),
                _ => final_units.push(unit),
            }
        }
        let mut occupied = vec![false; self.head.len()];
        for f in &final_units {
            if let Some(o) = occupied.get_mut(map.province_of(f.loc).0 as usize) {
                *o = true;
            }
        }
        let contested = (0..self.head.len())
            .filter(|&p| !occupied[p] && self.head[p] != NONE)
            .map(|p| ProvinceId(p as u32))
            .collect();
        let mut retreats: Vec<(usize, Vec<ProvinceId>)> = self
            .retreats
            .into_iter()
            .zip(self.retreat_kept)
            .filter_map(|(r, kept)| kept.then_some(r))
            .collect();
        retreats.sort_by_key(|r| r.0);
        let result = DpjudgeResult {
            prepared: Prepared::default(),
            outcomes,
            final_units,
            dislodged,
            contested,
            retreats,
            marks: self.marks,
            support_counts: self.support,
            orders: self.order.iter().map(|o| o.public()).collect(),
            causes: self.cause,
            dislodged_by: self
                .dislodger
                .iter()
                .map(|&d| (d != NONE).then_some(d as usize))
                .collect(),
            moved: self.moved,
            trace: None,
        };
        (result, self.tracer)
    }
}

#[derive(Clone, Copy, Debug)]
struct Top {
    max: i32,
    at_max: u32,
    first: u32,
    /// The greatest count among the entries other than `first`, and the first entry that has
    /// it (NONE when there is none).
    second: i32,
    second_first: u32,
}

fn bounce_cause(step: u8, count: i32, no_help: i32, other: u32, other_count: i32) -> Cause {
    Cause::Bounce {
        step,
        count,
        no_help,
        other: (other != NONE).then_some(other as usize),
        other_count: if other == NONE { 0 } else { other_count },
    }
}

fn designation(v: Option<&VoidReason>) -> Option<Unmatched> {
    match v {
        Some(VoidReason::Nationality | VoidReason::UnitType) => Some(Unmatched::Designation),
        Some(VoidReason::SupportedUnitIllegalMove) => Some(Unmatched::IllegalMoveStands),
        _ => None,
    }
}
