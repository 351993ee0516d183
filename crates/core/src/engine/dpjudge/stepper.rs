//! A cursor over the DPjudge procedure's trace.

use crate::engine::cursor::{Cursor, Replay};
use crate::engine::seam::{Landmark, Mark, PhaseInput, Section, Tone};
use crate::model::board::Unit;
use crate::model::map::{LocId, Map, ProvinceId};

use super::types::*;
use super::words::{cause_words, step_title};

// ---------------------------------------------------------------------------------------------
// The stepper.
// ---------------------------------------------------------------------------------------------

/// One entry of a combat list as of the stepper's cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatEntry {
    /// The unit.
    pub unit: usize,
    /// What the entry stands for.
    pub entry: Entry,
}

/// The DPjudge procedure's trace state: marks, support counts, no help lists, combat lists,
/// the step, the orders as the procedure sees them, where units stand, and the convoy lists.
#[derive(Clone, Debug)]
pub struct DpState {
    marks: Vec<Marks>,
    support: Vec<i32>,
    no_help: Vec<Vec<usize>>,
    combat: Vec<Vec<CombatEntry>>,
    step: u8,
    orders: Vec<DpOrder>,
    locs: Vec<LocId>,
    listed: Vec<bool>,
    succeeded: Vec<bool>,
}

/// A cursor over a DPjudge trace, with the procedure's state as of the cursor.
///
/// The marks, support counts, no help lists and combat lists as of any event, forward and back,
/// exactly and without re-running the engine.
///
/// Cursor `k` means `events[0..k]` are applied: 0 is the start (every unit unmarked, every
/// count 0, every list empty), [`Cursor::len`] the end, where the marks and counts are the
/// result's. No call panics: unknown units and spaces answer empty, a cursor beyond the end is
/// clamped.
///
/// ```
/// use dipsandbox_core::engine::dpjudge::{self, DpStepper};
/// use dipsandbox_core::model::scenario::Scenario;
///
/// let s = Scenario::builtin().unwrap();
/// let r = dpjudge::adjudicate(&s.map, &s.units, &s.orders, &s.rules, true);
/// let mut st = DpStepper::new(&r, &s.units).unwrap();
/// st.seek(st.len());
/// assert!((0..s.units.len()).all(|u| st.marks(u) == r.marks[u]));
/// st.seek(0);
/// assert!((0..s.units.len()).all(|u| st.marks(u).is_empty()));
/// ```
pub type DpStepper = Cursor<DpState>;

/// The units a procedure event is about.
fn event_units(e: &DpEvent) -> Vec<usize> {
    match e {
        DpEvent::ToHold { unit, .. }
        | DpEvent::SupportCount { unit, .. }
        | DpEvent::Mark { unit, .. }
        | DpEvent::Combat { unit, .. }
        | DpEvent::Moved { unit, .. }
        | DpEvent::Retreats { unit, .. } => vec![*unit],
        DpEvent::NoHelp {
            unit, supporter, ..
        } => vec![*unit, *supporter],
        DpEvent::Listed { army }
        | DpEvent::Succeeded { army }
        | DpEvent::CheckDisruptions { army, .. } => vec![*army],
        _ => Vec::new(),
    }
}

impl Replay for DpState {
    type Event = DpEvent;
    /// The position an entry was removed from.
    type Undo = usize;

    fn apply(&mut self, e: &DpEvent, undo: &mut Vec<usize>) {
        if let Some(k) = self.apply_event(e) {
            undo.push(k);
        }
    }

    fn revert(&mut self, e: &DpEvent, undo: &[usize]) {
        self.unapply(e, undo.first().copied());
    }

    fn describe(&self, e: &DpEvent, input: &PhaseInput<'_>) -> String {
        self.describe_event(input.map, input.units, e)
    }

    fn units(&self, e: &DpEvent) -> Vec<usize> {
        event_units(e)
    }

    fn mark(&self, e: &DpEvent) -> Mark {
        let (landmark, tone) = match e {
            DpEvent::Step { .. } => (Some(Landmark::Step), Tone::Plain),
            DpEvent::Start { .. } => (None, Tone::Plain),
            DpEvent::Moved { .. } => (None, Tone::Settled),
            DpEvent::Mark { .. } => (None, Tone::Cycle),
            _ => (None, Tone::Open),
        };
        Mark {
            minor: false,
            landmark,
            tone,
        }
    }

    fn sections(&self, input: &PhaseInput<'_>) -> Vec<Section> {
        let (map, units) = (input.map, input.units);
        let step = match self.step {
            0 => "nothing done yet (step 1 comes first)".to_string(),
            n => format!("step {n}: {}", step_title(n)),
        };
        let mut out = vec![Section::new("procedure", vec![step])];
        let counted: Vec<String> = self
            .marks
            .iter()
            .enumerate()
            .map(|(u, m)| (u, *m, self.support.get(u).copied().unwrap_or(0)))
            .filter(|&(_, marks, count)| !marks.is_empty() || count != 0)
            .map(|(u, marks, count)| {
                if marks.is_empty() {
                    format!("{}: count {count}", self.label(map, units, u))
                } else {
                    format!("{}: count {count} · {marks}", self.label(map, units, u))
                }
            })
            .collect();
        if !counted.is_empty() {
            out.push(Section::new("marks and support counts", counted));
        }
        let combat: Vec<String> = self
            .combat
            .iter()
            .enumerate()
            .filter(|(_, list)| !list.is_empty())
            .map(|(p, list)| {
                let space = if p < map.province_count() {
                    map.province(ProvinceId(p as u32)).abbr.clone()
                } else {
                    format!("space {p}")
                };
                let entries: Vec<String> = list
                    .iter()
                    .map(|e| match e.entry {
                        Entry::Order => format!(
                            "{} {}",
                            self.label(map, units, e.unit),
                            self.support.get(e.unit).copied().unwrap_or(0)
                        ),
                        Entry::Bounced => {
                            format!("{} (bounced back) 0", self.label(map, units, e.unit))
                        }
                    })
                    .collect();
                format!("{space}: {}", entries.join(" · "))
            })
            .collect();
        if !combat.is_empty() {
            out.push(Section::new("combat lists", combat));
        }
        for (title, list) in [
            ("convoying armies list", &self.listed),
            ("convoy succeeded list", &self.succeeded),
        ] {
            let armies: Vec<String> = list
                .iter()
                .enumerate()
                .filter(|(_, on)| **on)
                .map(|(u, _)| self.label(map, units, u))
                .collect();
            if !armies.is_empty() {
                out.push(Section::new(title, armies));
            }
        }
        out
    }
}

impl Cursor<DpState> {
    /// A stepper at the start of the result's trace; None when the result was made without a
    /// trace. `units` are the position's units (for the units' places before and after moves).
    pub fn new(result: &DpjudgeResult, units: &[Unit]) -> Option<DpStepper> {
        let events = result.trace.clone()?;
        let n = units.len();
        let spaces = events
            .iter()
            .filter_map(|e| match e {
                DpEvent::Start { spaces, .. } => Some(*spaces as usize),
                DpEvent::Combat { space, .. } | DpEvent::Unbounce { space } => {
                    Some(space.0 as usize + 1)
                }
                _ => None,
            })
            .max()
            .unwrap_or(0);
        // The orders before any HOLD change.
        let mut orders = result.orders.clone();
        orders.resize(n, DpOrder::Hold);
        for e in events.iter().rev() {
            if let DpEvent::ToHold { unit, was } = e
                && let Some(o) = orders.get_mut(*unit)
            {
                *o = *was;
            }
        }
        let state = DpState {
            marks: vec![Marks::EMPTY; n],
            support: vec![0; n],
            no_help: vec![Vec::new(); n],
            combat: vec![Vec::new(); spaces],
            step: 0,
            orders,
            locs: units.iter().map(|u| u.loc).collect(),
            listed: vec![false; n],
            succeeded: vec![false; n],
        };
        Some(Cursor::from_trace(events, state))
    }

    /// The step the procedure is in as of the cursor (0 before step 1).
    pub fn step(&self) -> u8 {
        self.state().step
    }

    /// A unit's marks as of the cursor (none for an unknown unit).
    pub fn marks(&self, unit: usize) -> Marks {
        self.state().marks.get(unit).copied().unwrap_or_default()
    }

    /// A unit's support count as of the cursor (0 for an unknown unit).
    pub fn support_count(&self, unit: usize) -> i32 {
        self.state().support.get(unit).copied().unwrap_or(0)
    }

    /// A unit's no help list as of the cursor.
    pub fn no_help(&self, unit: usize) -> &[usize] {
        self.state().no_help.get(unit).map_or(&[], |v| v.as_slice())
    }

    /// A space's combat list as of the cursor, in the order its entries were added.
    pub fn combat(&self, space: ProvinceId) -> &[CombatEntry] {
        self.state()
            .combat
            .get(space.0 as usize)
            .map_or(&[], |v| v.as_slice())
    }

    /// The count an entry stands with: the unit's support count, or 0 for a bounce entry.
    pub fn entry_count(&self, e: CombatEntry) -> i32 {
        match e.entry {
            Entry::Order => self.support_count(e.unit),
            Entry::Bounced => 0,
        }
    }

    /// A unit's order as of the cursor (HOLD once a game option changed it).
    pub fn order(&self, unit: usize) -> Option<DpOrder> {
        self.state().orders.get(unit).copied()
    }

    /// Where a unit stands as of the cursor (its destination once step 10 moved it).
    pub fn location(&self, unit: usize) -> Option<LocId> {
        self.state().locs.get(unit).copied()
    }

    /// Whether the army is in the convoying armies list as of the cursor.
    pub fn in_convoying_list(&self, unit: usize) -> bool {
        self.state().listed.get(unit).copied().unwrap_or(false)
    }

    /// Whether the army is in the convoy succeeded list as of the cursor.
    pub fn in_succeeded_list(&self, unit: usize) -> bool {
        self.state().succeeded.get(unit).copied().unwrap_or(false)
    }

    /// Event `i` in one line, e.g. `A Ber - Sil marked bounce: bounced in step 7: support count
    /// 0 is not greater than 0 of A War - Sil`.
    pub fn describe(&self, map: &Map, units: &[Unit], i: usize) -> String {
        match self.events().get(i) {
            Some(e) => self.state().describe_event(map, units, e),
            None => String::new(),
        }
    }
}

impl DpState {
    /// An event in one line, as of this state.
    fn describe_event(&self, map: &Map, units: &[Unit], e: &DpEvent) -> String {
        let label = |u: usize| self.label(map, units, u);
        let space = |p: ProvinceId| {
            if (p.0 as usize) < map.province_count() {
                map.province(p).name.clone()
            } else {
                format!("space {}", p.0)
            }
        };
        match e {
            DpEvent::Start { units, .. } => format!("start: {units} units, nothing marked"),
            DpEvent::Step { step, via, .. } => {
                let title = step_title(*step);
                match via {
                    StepVia::Next => format!("step {step}: {title}"),
                    StepVia::Repeat => format!("repeat step {step}: {title}"),
                    StepVia::Return { from } => {
                        format!("return to step {step} (from step {from}): {title}")
                    }
                }
            }
            DpEvent::ToHold { unit, .. } => format!("{}: order changed to HOLD", label(*unit)),
            DpEvent::Listed { army } => {
                format!("{} put in the convoying armies list", label(*army))
            }
            DpEvent::Succeeded { army } => {
                format!("{} put in the convoy succeeded list", label(*army))
            }
            DpEvent::SupportCount { unit, from, to, by } => format!(
                "support count of {}: {from} → {to} ({} {})",
                label(*unit),
                label(*by),
                if to > from { "counted" } else { "cut" }
            ),
            DpEvent::NoHelp {
                unit,
                supporter,
                added,
            } => {
                if *added {
                    format!(
                        "{} added to the no help list of {}",
                        label(*supporter),
                        label(*unit)
                    )
                } else {
                    format!(
                        "{} removed from the no help list of {}",
                        label(*supporter),
                        label(*unit)
                    )
                }
            }
            DpEvent::Mark {
                unit,
                mark,
                set,
                cause,
                ..
            } => {
                let why = cause
                    .map(|c| format!(": {}", cause_words(Some(c), &label, &space)))
                    .unwrap_or_default();
                if *set {
                    format!("{} marked {}{why}", label(*unit), mark.name())
                } else {
                    format!("{}: mark {} removed{why}", label(*unit), mark.name())
                }
            }
            DpEvent::Combat {
                space: p,
                unit,
                entry,
                added,
            } => {
                let what = match entry {
                    Entry::Order => label(*unit),
                    Entry::Bounced => format!("{} (bounced, support count 0)", label(*unit)),
                };
                if *added {
                    format!("{what} added to the combat list of {}", space(*p))
                } else {
                    format!("{what} removed from the combat list of {}", space(*p))
                }
            }
            DpEvent::CheckDisruptions { army, endangered } => format!(
                "checkDisruptions for {}: {}",
                label(*army),
                if *endangered {
                    "convoy endangered"
                } else {
                    "no fleet of its path threatened"
                }
            ),
            DpEvent::Unbounce { space: p } => format!("unbounce {}", space(*p)),
            DpEvent::Moved { unit, to, .. } => {
                let u = units.get(*unit);
                format!(
                    "{} moves to {}",
                    u.map(|u| format!("{} {}", u.kind.letter(), map.loc_abbr(u.loc)))
                        .unwrap_or_else(|| "?".into()),
                    map.loc_name(*to)
                )
            }
            DpEvent::Retreats { unit, spaces } => {
                let list: Vec<String> = spaces.iter().map(|p| space(*p)).collect();
                format!(
                    "possible retreats of {}: {}",
                    label(*unit),
                    if list.is_empty() {
                        "none".into()
                    } else {
                        list.join(", ")
                    }
                )
            }
        }
    }

    /// A unit's order as of the cursor, short: `A War - Sil`, `F Nth S A Yor - Lon`, `A Ber`.
    fn label(&self, map: &Map, units: &[Unit], u: usize) -> String {
        let Some(unit) = units.get(u) else {
            return format!("unit {u}");
        };
        let who = format!("{} {}", unit.kind.letter(), map.loc_abbr(unit.loc));
        let abbr_of = |x: usize| {
            units
                .get(x)
                .map(|t| format!("{} {}", t.kind.letter(), map.loc_abbr(t.loc)))
                .unwrap_or_else(|| "?".into())
        };
        let prov = |p: ProvinceId| {
            if (p.0 as usize) < map.province_count() {
                map.loc_abbr(map.province(p).main)
            } else {
                "?".into()
            }
        };
        match self.orders.get(u) {
            Some(DpOrder::Move { dest_loc, .. }) => {
                format!("{who} - {}", map.loc_abbr(*dest_loc))
            }
            Some(DpOrder::Support { target, dest }) => {
                let t = target.map(abbr_of).unwrap_or_else(|| "?".into());
                match dest {
                    Some(d) => format!("{who} S {t} - {}", prov(*d)),
                    None => format!("{who} S {t}"),
                }
            }
            Some(DpOrder::Convoy { army, dest }) => {
                let a = army.map(abbr_of).unwrap_or_else(|| "?".into());
                format!("{who} C {a} - {}", prov(*dest))
            }
            _ => who,
        }
    }
}

impl DpState {
    /// Applies an event; returns what a removal replaced.
    fn apply_event(&mut self, e: &DpEvent) -> Option<usize> {
        match e {
            DpEvent::Step { step, .. } => self.step = *step,
            DpEvent::ToHold { unit, .. } => {
                if let Some(o) = self.orders.get_mut(*unit) {
                    *o = DpOrder::Hold;
                }
            }
            DpEvent::Listed { army } => set_flag(&mut self.listed, *army, true),
            DpEvent::Succeeded { army } => set_flag(&mut self.succeeded, *army, true),
            DpEvent::SupportCount { unit, to, .. } => {
                if let Some(c) = self.support.get_mut(*unit) {
                    *c = *to;
                }
            }
            DpEvent::NoHelp {
                unit,
                supporter,
                added,
            } => {
                if let Some(list) = self.no_help.get_mut(*unit) {
                    if *added {
                        list.push(*supporter);
                    } else if let Some(k) = list.iter().position(|s| s == supporter) {
                        list.remove(k);
                        return Some(k);
                    }
                }
            }
            DpEvent::Mark {
                unit, mark, set, ..
            } => {
                if let Some(m) = self.marks.get_mut(*unit) {
                    *m = if *set {
                        m.with(*mark)
                    } else {
                        m.without(*mark)
                    };
                }
            }
            DpEvent::Combat {
                space,
                unit,
                entry,
                added,
            } => {
                if let Some(list) = self.combat.get_mut(space.0 as usize) {
                    let ce = CombatEntry {
                        unit: *unit,
                        entry: *entry,
                    };
                    if *added {
                        list.push(ce);
                    } else if let Some(k) = list.iter().position(|x| *x == ce) {
                        list.remove(k);
                        return Some(k);
                    }
                }
            }
            DpEvent::Moved { unit, to, .. } => {
                if let Some(l) = self.locs.get_mut(*unit) {
                    *l = *to;
                }
            }
            DpEvent::Start { .. }
            | DpEvent::CheckDisruptions { .. }
            | DpEvent::Unbounce { .. }
            | DpEvent::Retreats { .. } => {}
        }
        None
    }

    /// Takes an event back, with what its application replaced.
    fn unapply(&mut self, e: &DpEvent, undo: Option<usize>) {
        match e {
            DpEvent::Step { prev, .. } => self.step = *prev,
            DpEvent::ToHold { unit, was } => {
                if let Some(o) = self.orders.get_mut(*unit) {
                    *o = *was;
                }
            }
            DpEvent::Listed { army } => set_flag(&mut self.listed, *army, false),
            DpEvent::Succeeded { army } => set_flag(&mut self.succeeded, *army, false),
            DpEvent::SupportCount { unit, from, .. } => {
                if let Some(c) = self.support.get_mut(*unit) {
                    *c = *from;
                }
            }
            DpEvent::NoHelp {
                unit,
                supporter,
                added,
            } => {
                if let Some(list) = self.no_help.get_mut(*unit) {
                    if *added {
                        if let Some(k) = list.iter().rposition(|s| s == supporter) {
                            list.remove(k);
                        }
                    } else if let Some(k) = undo {
                        list.insert(k.min(list.len()), *supporter);
                    }
                }
            }
            DpEvent::Mark { unit, before, .. } => {
                if let Some(m) = self.marks.get_mut(*unit) {
                    *m = *before;
                }
            }
            DpEvent::Combat {
                space,
                unit,
                entry,
                added,
            } => {
                if let Some(list) = self.combat.get_mut(space.0 as usize) {
                    let ce = CombatEntry {
                        unit: *unit,
                        entry: *entry,
                    };
                    if *added {
                        if let Some(k) = list.iter().rposition(|x| *x == ce) {
                            list.remove(k);
                        }
                    } else if let Some(k) = undo {
                        list.insert(k.min(list.len()), ce);
                    }
                }
            }
            DpEvent::Moved { unit, from, .. } => {
                if let Some(l) = self.locs.get_mut(*unit) {
                    *l = *from;
                }
            }
            DpEvent::Start { .. }
            | DpEvent::CheckDisruptions { .. }
            | DpEvent::Unbounce { .. }
            | DpEvent::Retreats { .. } => {}
        }
    }
}

fn set_flag(v: &mut [bool], i: usize, to: bool) {
    if let Some(f) = v.get_mut(i) {
        *f = to;
    }
}
