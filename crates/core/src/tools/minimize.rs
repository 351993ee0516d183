//! The minimizer: the smallest part of a scenario that still shows what it is kept for.
//!
//! Given a scenario and one or more [`Property`]s that hold on it (a backup rule is applied, an
//! order has a given outcome, the result misses the expectations, two rule sets disagree), the
//! minimizer first removes whole [`regions`] at once — groups of units and orders that cannot
//! affect one another: the regions where the properties were seen alone, then `ddmin` over the
//! regions — then removes units and orders by delta debugging — Zeller's `ddmin` ([`ddmin`])
//! over the units (a unit goes with its orders), then over the orders — then tries each
//! remaining order as a plain hold, and repeats until a whole round changes nothing, keeping
//! every step after which all the properties still hold. The result is 1-minimal: no single unit
//! or order can be removed, and no single order be made a hold, without losing a property.
//!
//! Every candidate is adjudicated, the regions pass's too, so what the regions say can only make
//! the search faster, never lose a property. On a large board where one place matters the
//! regions pass brings it down to that place in a few adjudications; where everything matters
//! (a ring of N armies all moving round) the proof of 1-minimality still takes an adjudication
//! of the board per unit and per order: a pass over items that were all seen taking part in the
//! properties leaves them out singly from the start, without ddmin's coarser tests, which would
//! all fail; a hold that is the same adjudication as its order's removal, already tried, is not
//! tried again; and a candidate without a cycle in its decisions is turned down for a backup
//! property before they are resolved. So [`minimize_with`] takes [`Bounds`] — a number of
//! adjudications, a time, a stop flag that a SIGINT handler sets — and then gives back the
//! smallest candidate found so far, and an [`Observer`] that hears of each step and of the
//! search's progress (the library prints nothing).
//!
//! ```
//! use dipsandbox_core::tools::minimize::{Goal, Property, minimize};
//! use dipsandbox_core::model::rules::Rules;
//! use dipsandbox_core::model::scenario::Scenario;
//!
//! let s = Scenario::builtin().unwrap(); // Pandin's paradox, six units
//! let goal = Goal {
//!     keep: vec![Property::parse(&s.map, "backup:szykman").unwrap()],
//!     rules: Rules::default(),
//!     other: None,
//! };
//! let small = minimize(&s, &goal, &mut |_| {}).unwrap();
//! // The simple convoy paradox (DATC 6.F.14) is inside it: four units.
//! assert_eq!(small.after.units, 4);
//! ```
//!
//! Candidates are built from the parsed scenario by index (nothing is parsed again), and the
//! search is iterative: its depth does not grow with the input.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): item indices come from
// ranges over the very lists they index (units and orders of the scenario being cut, and subsets
// of those ranges).
#![allow(clippy::indexing_slicing)]

use std::collections::HashSet;
use std::hash::{BuildHasher, Hash, RandomState};
use std::mem::discriminant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::decision::trace::{BackupRule, Event};
use crate::engine::{Adjudicator, Engine, OrderOutcome, Reason, Verdict};
use crate::model::board::{PhaseKind, Unit};
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{NameStyle, Order, OrderKind, format_order, parse_order};
use crate::model::rules::Rules;
use crate::model::scenario::{OrderEntry, Scenario};
use crate::tools::check::{Run, RunError, adjudicate_scenario, freeze_expectations, run};
use crate::tools::diff::verdict_word;

/// What a minimized scenario must keep showing.
#[derive(Clone, Debug, PartialEq)]
pub enum Property {
    /// A backup rule is applied by the movement resolver: any one (`None`) or this one.
    /// Needs a movement phase.
    Backup(Option<BackupRule>),
    /// An order, found by its parse (not its spelling), has exactly this verdict (`fails` means
    /// a legal order that fails, not an illegal or void one).
    Outcome {
        /// The order as the user wrote it.
        text: String,
        /// Its parse.
        order: Order,
        /// The verdict it must have.
        verdict: Verdict,
    },
    /// The result misses one of the scenario's expectations in the same way as the whole
    /// scenario does: an order's expected result with the same verdict and the same kind of
    /// cause, or (movement phases) a unit's expected dislodgement or end position with the same
    /// actual fate.
    Mismatch,
    /// The result (verdicts, dislodged units, positions, follow-up retreats; not the wording of
    /// reasons) differs between the rules in use and [`Goal::other`].
    Differs,
    /// The DATC 5.B equations of the phase have exactly this many solutions (the equation
    /// oracle, [`crate::tools::oracle`]): `solutions:0` keeps a paradox with no resolution, such as
    /// Pandin's, apart from the simpler one with two inside it. Needs a movement phase.
    Solutions(u128),
}

/// The property syntax, for error messages and help.
pub const SYNTAX: &str = "backup, backup:circular, backup:szykman, backup:all-hold, \
backup:all-fail, outcome:ORDER=succeeds|fails|illegal|void, mismatch, differs, solutions:N";

impl Property {
    /// Parses a property: `backup`, `backup:szykman` (also `circular`, `all-hold`,
    /// `all-fail`), `outcome:F Wales - English Channel=fails` (the order in any notation the
    /// scenario files take, with an optional `England:` prefix; the verdict `succeeds`, `fails`,
    /// `illegal` or `void`), `mismatch`, `differs`.
    pub fn parse(map: &Map, spec: &str) -> Result<Property, MinimizeError> {
        let bad = |why: String| MinimizeError::Syntax {
            spec: spec.to_string(),
            why,
        };
        let spec_t = spec.trim();
        let (head, rest) = match spec_t.split_once(':') {
            Some((h, r)) => (h.trim(), Some(r.trim())),
            None => (spec_t, None),
        };
        match (head.to_ascii_lowercase().as_str(), rest) {
            ("backup", None) => Ok(Property::Backup(None)),
            ("backup", Some(r)) => {
                let key: String = r
                    .chars()
                    .filter(|c| !matches!(c, '-' | '_' | ' '))
                    .collect::<String>()
                    .to_ascii_lowercase();
                let rule = match key.as_str() {
                    "circular" | "circularmovement" => BackupRule::CircularMovement,
                    "szykman" => BackupRule::Szykman,
                    "allhold" => BackupRule::AllHold,
                    "allfail" => BackupRule::AllFail,
                    _ => {
                        return Err(bad(format!(
                            "unknown backup rule {}; expected circular, szykman, all-hold or all-fail",
                            crate::model::error::quoted(r)
                        )));
                    }
                };
                Ok(Property::Backup(Some(rule)))
            }
            ("outcome", Some(r)) => {
                let Some((text, word)) = r.rsplit_once('=') else {
                    return Err(bad(
                        "expected outcome:ORDER=VERDICT, e.g. outcome:F Wales - English Channel=fails"
                            .into(),
                    ));
                };
                let verdict = match word.trim().to_ascii_lowercase().as_str() {
                    "succeeds" | "succeed" => Verdict::Succeeds,
                    "fails" | "fail" => Verdict::Fails,
                    "illegal" => Verdict::Illegal,
                    "void" => Verdict::Void,
                    w => {
                        return Err(bad(format!(
                            "unknown verdict {}; expected succeeds, fails, illegal or void",
                            crate::model::error::quoted(w)
                        )));
                    }
                };
                let text = text.trim();
                let order = parse_order(map, text).map_err(|e| {
                    bad(format!(
                        "order {}: column {}: {}",
                        crate::model::error::quoted(text),
                        e.col,
                        e.message
                    ))
                })?;
                Ok(Property::Outcome {
                    text: text.to_string(),
                    order,
                    verdict,
                })
            }
            ("outcome", None) => Err(bad(
                "expected outcome:ORDER=VERDICT, e.g. outcome:F Wales - English Channel=fails"
                    .into(),
            )),
            ("solutions", Some(n)) => n.parse::<u128>().map(Property::Solutions).map_err(|_| {
                bad(format!(
                    "expected a number of solutions, e.g. solutions:0 or solutions:2; found {}",
                    crate::model::error::quoted(n)
                ))
            }),
            ("solutions", None) => Err(bad(
                "expected solutions:N, the number of solutions of the equations, e.g. solutions:0"
                    .into(),
            )),
            ("mismatch", None) => Ok(Property::Mismatch),
            ("differs", None) => Ok(Property::Differs),
            ("mismatch" | "differs", Some(_)) => Err(bad(format!(
                "{head} takes no argument (differs compares the rule sets given with --rules)"
            ))),
            _ => Err(bad(format!("unknown property; expected one of {SYNTAX}"))),
        }
    }

    /// The property as `parse` reads it.
    pub fn spec(&self) -> String {
        match self {
            Property::Backup(None) => "backup".into(),
            Property::Backup(Some(r)) => format!("backup:{}", backup_word(*r)),
            Property::Outcome { text, verdict, .. } => {
                format!("outcome:{text}={}", verdict_word(*verdict))
            }
            Property::Mismatch => "mismatch".into(),
            Property::Differs => "differs".into(),
            Property::Solutions(n) => format!("solutions:{n}"),
        }
    }
}

fn backup_word(r: BackupRule) -> &'static str {
    match r {
        BackupRule::CircularMovement => "circular",
        BackupRule::Szykman => "szykman",
        BackupRule::AllHold => "all-hold",
        BackupRule::AllFail => "all-fail",
    }
}

/// What to minimize for.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The properties; all of them must hold after every accepted step.
    pub keep: Vec<Property>,
    /// The rules in use: every property is judged under them, and the minimized scenario
    /// carries them (with its expectations frozen under them).
    pub rules: Rules,
    /// The second rule set, for [`Property::Differs`].
    pub other: Option<Rules>,
}

/// Why a scenario cannot be minimized.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MinimizeError {
    /// A property that cannot be read.
    #[error("property {}: {why}", crate::model::error::quoted(.spec))]
    Syntax {
        /// The property as written.
        spec: String,
        /// What is wrong, with the expected syntax.
        why: String,
    },
    /// A property that does not hold on the scenario as given.
    #[error("property `{spec}` does not hold on the input: {why}")]
    DoesNotHold {
        /// The property.
        spec: String,
        /// Why not.
        why: String,
    },
    /// A property that needs a movement phase, on another phase.
    #[error("property `{spec}` needs a movement phase; this scenario is a {phase}")]
    NeedsMovement {
        /// The property.
        spec: String,
        /// The scenario's phase.
        phase: String,
    },
    /// `differs` without a second rule set.
    #[error(
        "property `differs` compares two rule sets: give a second one (on the command line: --rules B to compare with the scenario's own rules, or --rules A --rules B)"
    )]
    NoOtherRules,
    /// No property at all.
    #[error("nothing to keep: give at least one property ({SYNTAX})")]
    NoProperty,
    /// The scenario cannot be run.
    #[error("cannot adjudicate: {0}")]
    Run(String),
}

/// How big a scenario is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Units (on the board, and dislodged ones in a retreat phase).
    pub units: usize,
    /// Orders (the phase's and the follow-up retreats').
    pub orders: usize,
    /// Orders made plain holds by the minimizer.
    pub simplified: usize,
}

/// The minimizer's passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Whole regions removed at once: units and orders that cannot affect the rest (see
    /// [`regions`]).
    Regions,
    /// Units removed, with their orders.
    Units,
    /// Orders removed.
    Orders,
    /// One order made a hold: its text before and after.
    Hold {
        /// The order as it was.
        from: String,
        /// The hold that replaced it.
        to: String,
    },
}

/// One accepted reduction, for progress reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Which pass made it.
    pub pass: Pass,
    /// The size before.
    pub before: Size,
    /// The size after.
    pub after: Size,
}

/// The stages of the search, for progress reports: the regions pass once, then rounds of the
/// units, orders and holds passes until a round changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Whole regions removed at once ([`Pass::Regions`]).
    Regions,
    /// ddmin over the units ([`Pass::Units`]).
    Units,
    /// ddmin over the orders ([`Pass::Orders`]).
    Orders,
    /// Each order tried as a hold ([`Pass::Hold`]).
    Holds,
}

impl Stage {
    /// `regions`, `units`, `orders` or `holds`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Regions => "regions",
            Stage::Units => "units",
            Stage::Orders => "orders",
            Stage::Holds => "holds",
        }
    }
}

/// Where the search is: sent at the start of each pass and after each adjudicated candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The pass under way.
    pub stage: Stage,
    /// The round of the units, orders and holds passes (1 for the first; 0 in the regions
    /// pass).
    pub round: usize,
    /// The smallest candidate found so far that keeps every property.
    pub best: Size,
    /// Candidates adjudicated so far, the input's check included.
    pub runs: usize,
}

/// What hears of the minimizer's work. The library prints nothing: a caller that wants to show
/// progress implements this. Both methods do nothing by default; any `FnMut(&Step)` is an
/// observer of the steps alone.
pub trait Observer {
    /// An accepted reduction.
    fn step(&mut self, _step: &Step) {}
    /// At the start of each pass and after each adjudicated candidate: cheap, so a caller that
    /// draws should limit how often it does.
    fn progress(&mut self, _progress: &Progress) {}
}

impl<F: FnMut(&Step)> Observer for F {
    fn step(&mut self, step: &Step) {
        self(step)
    }
}

/// When to stop before the search is done. Each bound is checked before each candidate is
/// adjudicated (so a bound is overshot by at most one adjudication); the result is then the
/// smallest candidate found so far, which keeps every property but may not be 1-minimal
/// ([`Minimized::stopped`] says so).
#[derive(Clone, Debug, Default)]
pub struct Bounds {
    /// Stop once this many candidates have been adjudicated (the input's check included).
    pub max_runs: Option<usize>,
    /// Stop once this much time has passed since the search began.
    pub max_time: Option<Duration>,
    /// Stop as soon as this flag is set (e.g. by a SIGINT handler).
    pub stop: Option<Arc<AtomicBool>>,
}

/// Why a search stopped before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The stop flag of [`Bounds::stop`] was set.
    Interrupted,
    /// [`Bounds::max_runs`] candidates were adjudicated.
    MaxRuns(usize),
    /// [`Bounds::max_time`] passed.
    MaxTime(Duration),
}

/// A search that stopped before it was done: why, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Why.
    pub reason: StopReason,
    /// The pass it was in.
    pub stage: Stage,
    /// The round ([`Progress::round`]).
    pub round: usize,
}

/// The minimizer's result.
#[derive(Clone, Debug)]
pub struct Minimized {
    /// The minimized scenario: the rules in use, expectations frozen from its own result under
    /// them, title marked `(minimized)`, and the kept properties in its description.
    pub scenario: Scenario,
    /// The input's size.
    pub before: Size,
    /// The result's size.
    pub after: Size,
    /// How many candidates were adjudicated, the input's check included.
    pub runs: usize,
    /// Why each property holds on the result, one line each
    /// (`Szykman rule applied: A Bre - Lon, F Eng C A Bre - Lon`).
    pub witness: Vec<String>,
    /// How many regions the input falls into ([`regions`]).
    pub regions: usize,
    /// Set when the search stopped before it was done ([`Bounds`]): the result keeps every
    /// property, but a smaller scenario may too.
    pub stopped: Option<Stopped>,
}

/// A 128-bit fingerprint of index lists, for remembering failed candidates without keeping
/// them (two independently keyed hashes: a collision, which would only skip a candidate, is
/// out of reach).
struct Fingerprint(RandomState, RandomState);

impl Fingerprint {
    fn new() -> Fingerprint {
        Fingerprint(RandomState::new(), RandomState::new())
    }

    fn of<H: Hash + ?Sized>(&self, x: &H) -> u128 {
        (u128::from(self.0.hash_one(x)) << 64) | u128::from(self.1.hash_one(x))
    }
}

/// Zeller's `ddmin`: a 1-minimal subset of `items` (in their order) for which `test` holds,
/// given that it holds for all of them. Splits the current set into `n` chunks; keeps a chunk
/// that passes (back to 2 chunks), else a complement that passes (one chunk fewer), else doubles
/// the granularity, until the chunks are single items. The empty set is tried first. Failing
/// subsets are remembered, so none is tested twice. `reduced(from, to)` is called after each
/// accepted reduction. Iterative: no recursion.
pub fn ddmin<T: Clone>(
    items: &[T],
    mut test: impl FnMut(&[T]) -> bool,
    reduced: impl FnMut(usize, usize),
) -> Vec<T> {
    let kept = ddmin_ids(
        items.len(),
        Start::Halves,
        |ids| {
            let subset: Vec<T> = ids.iter().map(|&i| items[i].clone()).collect();
            Some(test(&subset))
        },
        reduced,
    );
    kept.into_iter().map(|i| items[i].clone()).collect()
}

/// Where [`ddmin_ids`] starts, after the empty set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Zeller's: two chunks, then finer.
    Halves,
    /// Each item left out in turn (dropping it when the rest passes), then, if any was dropped,
    /// single items as chunks. Where every item is expected to be needed this is the proof of
    /// 1-minimality alone — one test per item — without the coarser levels' tests, which would
    /// all fail and cost as much again.
    Singles,
}

/// [`ddmin`] over the indices `0..len`, which may be stopped: `test` returns None to stop the
/// search, which then returns the smallest passing set found so far.
fn ddmin_ids(
    len: usize,
    start: Start,
    mut test: impl FnMut(&[usize]) -> Option<bool>,
    mut reduced: impl FnMut(usize, usize),
) -> Vec<usize> {
    let fp = Fingerprint::new();
    let mut failed: HashSet<u128> = HashSet::new();
    let mut attempt = |ids: &[usize]| -> Option<bool> {
        let key = fp.of(ids);
        if failed.contains(&key) {
            return Some(false);
        }
        let ok = test(ids)?;
        if !ok {
            failed.insert(key);
        }
        Some(ok)
    };
    let mut current: Vec<usize> = (0..len).collect();
    if len == 0 {
        return current;
    }
    match attempt(&[]) {
        None => return current,
        Some(true) => {
            reduced(len, 0);
            return Vec::new();
        }
        Some(false) => {}
    }
    let mut n = 2usize;
    if start == Start::Singles {
        let mut dropped = false;
        let mut k = 0;
        while k < current.len() && current.len() >= 2 {
            let mut rest = current.clone();
            rest.remove(k);
            match attempt(&rest) {
                None => return current,
                Some(true) => {
                    reduced(current.len(), rest.len());
                    current = rest;
                    dropped = true;
                }
                Some(false) => k += 1,
            }
        }
        if !dropped {
            // No item can be left out (a single item: the empty set failed above).
            return current;
        }
        n = current.len();
    }
    while current.len() >= 2 {
        let n_eff = n.min(current.len());
        let chunks = split(&current, n_eff);
        let mut next: Option<(Vec<usize>, usize)> = None;
        for chunk in &chunks {
            match attempt(chunk) {
                None => return current,
                Some(true) => {
                    next = Some((chunk.clone(), 2));
                    break;
                }
                Some(false) => {}
            }
        }
        // With two chunks, each complement is the other chunk: already tried.
        if next.is_none() && n_eff > 2 {
            for k in 0..chunks.len() {
                let complement: Vec<usize> = chunks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect();
                match attempt(&complement) {
                    None => return current,
                    Some(true) => {
                        next = Some((complement, (n_eff - 1).max(2)));
                        break;
                    }
                    Some(false) => {}
                }
            }
        }
        match next {
            Some((smaller, n_next)) => {
                reduced(current.len(), smaller.len());
                current = smaller;
                n = n_next;
            }
            None if n_eff >= current.len() => break,
            None => n = (2 * n_eff).min(current.len()),
        }
    }
    current
}

/// `ids` in `n` contiguous chunks whose sizes differ by at most one.
fn split(ids: &[usize], n: usize) -> Vec<Vec<usize>> {
    let n = n.clamp(1, ids.len().max(1));
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for k in 0..n {
        let end = start + (ids.len() - start) / (n - k);
        out.push(ids[start..end].to_vec());
        start = end;
    }
    out
}

/// The regions of a scenario: its units and orders in groups that cannot affect one another.
///
/// Two provinces are in one region when an order joins them: the province of the unit it
/// orders and every province it names (a move's destination and path, the supported or
/// convoyed unit and its destination). An order that may need a convoy (a move, or the support
/// of a move, between provinces that do not border; a convoy order) is joined with every fleet
/// at sea that a convoy route from the moving army's province could reach (through seas that
/// hold fleets): whether such a move is possible at all depends on those fleets, ordered or
/// not. A unit belongs
/// to the region of its province, an order to that of the province of its unit. Adjudication
/// reads nothing else: a unit that no order reaches holds, and only its own orders and orders
/// that name its province can change that, so the result of each order, and the fate of each
/// unit, depend on its region alone. In an adjustment phase every unit and order of a power is
/// in one region too (a power's units count against its centres), as are unit-less orders
/// (waives).
///
/// The minimizer first removes whole regions at once ([`Pass::Regions`]); every candidate is
/// still adjudicated, so a region that mattered after all is only kept, never lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    /// Per unit of the pool (board units, then dislodged units): its region.
    pub unit: Vec<usize>,
    /// Per order of the pool (the phase's orders, then the follow-up retreats'): its region.
    pub order: Vec<usize>,
    /// How many regions there are (numbered from 0 in the order they first appear: units first,
    /// then orders).
    pub count: usize,
}

/// Union-find over dense ids, with path halving and union by size; no recursion.
struct Dsu {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Dsu {
    fn new(n: usize) -> Dsu {
        Dsu {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            let p = p as usize;
            if p == x {
                break;
            }
            let grand = self.parent.get(p).copied().unwrap_or(p as u32);
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b || a >= self.parent.len() || b >= self.parent.len() {
            return;
        }
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small] = big as u32;
        self.size[big] += self.size[small];
    }
}

/// The provinces an order names besides its unit's.
fn named_provinces(o: &Order) -> impl Iterator<Item = ProvinceId> + '_ {
    let (a, b, path): (Option<ProvinceId>, Option<ProvinceId>, &[ProvinceId]) = match &o.kind {
        OrderKind::Move { dest, path, .. } => (Some(dest.province), None, path),
        OrderKind::Support { target, dest } => (
            Some(target.unit.loc.province),
            dest.map(|d| d.province),
            &[],
        ),
        OrderKind::Convoy { army, dest } => {
            (Some(army.unit.loc.province), Some(dest.province), &[])
        }
        _ => (None, None, &[]),
    };
    a.into_iter().chain(b).chain(path.iter().copied())
}

/// The province an order may need a convoy from: the moving army's, for a move or the support
/// of a move between provinces that do not border, and for a convoy order.
fn convoy_origin(map: &Map, here: Option<ProvinceId>, o: &Order) -> Option<ProvinceId> {
    match &o.kind {
        OrderKind::Move {
            dest,
            via_convoy,
            path,
        } => here
            .filter(|&h| *via_convoy || !path.is_empty() || !map.army_adjacent(h, dest.province)),
        OrderKind::Support {
            target,
            dest: Some(d),
        } => {
            let from = target.unit.loc.province;
            (!map.army_adjacent(from, d.province)).then_some(from)
        }
        OrderKind::Convoy { army, .. } => Some(army.unit.loc.province),
        _ => None,
    }
}

/// The seas that hold a fleet, in groups linked sea to sea by fleet borders through seas that
/// hold fleets (the only seas a convoy route can take): per province, its group (None for land,
/// coasts and seas without a fleet), and how many groups there are.
fn fleet_groups(map: &Map, units: &[Unit]) -> (Vec<Option<usize>>, usize) {
    let n = map.province_count();
    let mut fleet = vec![false; n];
    for u in units {
        let p = map.province_of(u.loc);
        if u.kind == UnitKind::Fleet
            && map.province(p).kind == ProvinceKind::Sea
            && let Some(f) = fleet.get_mut(p.0 as usize)
        {
            *f = true;
        }
    }
    let has_fleet = |p: ProvinceId| fleet.get(p.0 as usize).copied().unwrap_or(false);
    let mut dsu = Dsu::new(n);
    for p in map.province_ids().filter(|&p| has_fleet(p)) {
        for l in map.locations_of(p) {
            for &m in map.fleet_neighbours(l) {
                let q = map.province_of(m);
                if has_fleet(q) {
                    dsu.union(p.0 as usize, q.0 as usize);
                }
            }
        }
    }
    let mut group = vec![None; n];
    let mut id: Vec<Option<usize>> = vec![None; n];
    let mut count = 0;
    for p in map.province_ids().filter(|&p| has_fleet(p)) {
        let root = dsu.find(p.0 as usize);
        let g = match id.get(root).copied().flatten() {
            Some(g) => g,
            None => {
                if let Some(slot) = id.get_mut(root) {
                    *slot = Some(count);
                }
                count += 1;
                count - 1
            }
        };
        if let Some(slot) = group.get_mut(p.0 as usize) {
            *slot = Some(g);
        }
    }
    (group, count)
}

/// The regions of a scenario (see [`Regions`]): linear in its size.
pub fn regions(s: &Scenario) -> Regions {
    let map = &*s.map;
    let provinces = map.province_count();
    let (sea_group, seas) = fleet_groups(map, &s.units);
    // Provinces, then one node per possible power, then one per group of seas.
    let mut dsu = Dsu::new(provinces + usize::from(u8::MAX) + 1 + seas);
    let power_node = |p: PowerId| provinces + usize::from(p.0);
    let sea_node = |g: usize| provinces + usize::from(u8::MAX) + 1 + g;
    let mut touched = vec![false; seas];
    let adjustment = s.phase.kind == PhaseKind::Adjustment;
    let units: Vec<(usize, PowerId)> = s
        .units
        .iter()
        .chain(s.dislodged.iter().map(|d| &d.unit))
        .map(|u| (map.province_of(u.loc).0 as usize, u.power))
        .collect();
    if adjustment {
        for &(node, power) in &units {
            dsu.union(node, power_node(power));
        }
    }
    let retreats = s.retreats.iter().flat_map(|f| f.orders.iter());
    let orders: Vec<&OrderEntry> = s.orders.iter().chain(retreats).collect();
    let mut order_nodes = Vec::with_capacity(orders.len());
    for e in &orders {
        let node = match e.order.unit {
            Some(u) => u.loc.province.0 as usize,
            None => power_node(e.power),
        };
        for p in named_provinces(&e.order) {
            dsu.union(node, p.0 as usize);
        }
        let here = e.order.unit.map(|u| u.loc.province);
        if let Some(from) = convoy_origin(map, here, &e.order) {
            for l in map.locations_of(from) {
                for &m in map.fleet_neighbours(l) {
                    let group = sea_group.get(map.province_of(m).0 as usize).copied();
                    if let Some(g) = group.flatten() {
                        dsu.union(node, sea_node(g));
                        if let Some(t) = touched.get_mut(g) {
                            *t = true;
                        }
                    }
                }
            }
        }
        if adjustment {
            dsu.union(node, power_node(e.power));
        }
        order_nodes.push(node);
    }
    // The seas of each group a convoy may need, with the fleets in them.
    for (p, g) in sea_group.iter().enumerate() {
        if let Some(g) = *g
            && touched.get(g).copied().unwrap_or(false)
        {
            dsu.union(p, sea_node(g));
        }
    }
    // Number the regions as they first appear.
    let mut id: Vec<u32> = vec![u32::MAX; dsu.parent.len()];
    let mut count = 0usize;
    let mut region_of = |dsu: &mut Dsu, node: usize| -> usize {
        let root = dsu.find(node);
        match id.get_mut(root) {
            Some(slot) if *slot == u32::MAX => {
                *slot = count as u32;
                count += 1;
                count - 1
            }
            Some(slot) => *slot as usize,
            None => 0,
        }
    };
    let unit = units
        .iter()
        .map(|&(node, _)| region_of(&mut dsu, node))
        .collect();
    let order = order_nodes
        .iter()
        .map(|&node| region_of(&mut dsu, node))
        .collect();
    Regions { unit, order, count }
}

/// A candidate: which of the input's units and orders are kept, and which orders are holds.
#[derive(Clone, Debug)]
struct Cand {
    /// Kept units, by pool index (board units, then dislodged units), ascending.
    units: Vec<usize>,
    /// Kept orders, by pool index (the phase's, then the follow-up retreats'), ascending.
    orders: Vec<usize>,
    /// Per phase order: replaced by a hold.
    held: Vec<bool>,
}

/// A candidate made a scenario, with the maps from pool indices to its own.
struct Built {
    scenario: Scenario,
    /// Pool unit → index in the candidate's units (board units only; None when removed).
    unit_at: Vec<Option<usize>>,
    /// Pool order → index in the candidate's phase or retreat orders (None when removed or
    /// made a hold).
    order_at: Vec<Option<usize>>,
}

/// One mismatch of the input: what it observed, to be seen again.
#[derive(Clone, Debug)]
enum Seen {
    /// An order (pool index) with an expected result its verdict misses.
    Order {
        pool: usize,
        verdict: Verdict,
        cause: std::mem::Discriminant<Reason>,
        line: String,
    },
    /// A board unit (pool index) whose fate the expectations do not give.
    Unit {
        pool: usize,
        ends: Option<Unit>,
        line: String,
    },
}

/// The buffers of [`Judge::judge_fast`], kept between candidates.
#[derive(Default)]
struct Buffers {
    adj: Adjudicator,
    units: Vec<Unit>,
    orders: Vec<(PowerId, Order)>,
    /// Pool unit → index in `units`.
    unit_at: Vec<Option<usize>>,
    /// Pool order → index in `orders` (None when removed or made a hold).
    order_at: Vec<Option<usize>>,
}

/// The input, indexed for building candidates and judging them.
struct Judge<'a> {
    s: &'a Scenario,
    goal: &'a Goal,
    /// Board units in the pool (the rest are dislodged units of a retreat phase).
    board: usize,
    /// Phase orders in the pool (the rest are follow-up retreat orders).
    phase_orders: usize,
    /// Per pool order: the pool unit it orders, if any.
    owner: Vec<Option<usize>>,
    /// Per phase order: its hold, when it can be made one.
    hold: Vec<Option<OrderEntry>>,
    /// Per phase order: whether it is the only order of the input that names a unit in its
    /// province. Such an order made a hold is the same adjudication as the order removed (see
    /// [`Judge::key`]).
    alone: Vec<bool>,
    /// Per [`Property::Outcome`] of the goal, in order: the pool order it names.
    outcome_orders: Vec<usize>,
    /// The input's mismatches, for [`Property::Mismatch`].
    seen: Vec<Seen>,
    /// Fingerprints of the candidates found failing (units, orders, orders made holds), so no
    /// pass tries one twice.
    failed: HashSet<u128>,
    fingerprint: Fingerprint,
    /// Whether candidates can be judged by [`Judge::judge_fast`]: a movement phase without
    /// follow-up retreats, and only backup, outcome and mismatch properties.
    fast: bool,
    buffers: Buffers,
    /// The orders of the phase a backup rule decided in the input (for the regions pass), and
    /// whether the candidate being judged is the input, whose ones they are.
    backup_orders: Vec<usize>,
    record_backup: bool,
    /// (board unit, province one of its orders moves it to), sorted (for
    /// [`Property::Mismatch`]).
    moves_to: Vec<(usize, ProvinceId)>,
    runs: usize,
    /// The engine that judges candidates, when it is not the decision engine (an outside
    /// adjudicator, say); None: the decision engine, with its fast paths.
    engine: Option<Arc<dyn Engine>>,
    /// The bounds of the search, and when it began.
    bounds: Bounds,
    started: Instant,
    /// Set when a bound was reached.
    stopped: Option<StopReason>,
}

fn short(map: &Map, o: &Order) -> String {
    let mut o = o.clone();
    o.power = None;
    format_order(map, &o, NameStyle::Abbr)
}

/// Two orders are the same when their parses are, an `England:` prefix on `query` narrowing it
/// to that power's orders.
fn same_order(query: &Order, entry: &OrderEntry) -> bool {
    let mut q = query.clone();
    q.power = None;
    let mut e = entry.order.clone();
    e.power = None;
    q == e && query.power.is_none_or(|p| p == entry.power)
}

/// Rules in a few words: a preset's name, or the options that differ from the DATC's.
pub fn rules_name(r: &Rules) -> String {
    if let Some(p) = r.preset_name() {
        return p.to_string();
    }
    let ov: Vec<String> = r
        .overrides()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!("datc,{}", ov.join(","))
}

impl<'a> Judge<'a> {
    fn new(
        s: &'a Scenario,
        goal: &'a Goal,
        engine: Option<Arc<dyn Engine>>,
    ) -> Result<Judge<'a>, MinimizeError> {
        let map = &*s.map;
        let board = s.units.len();
        let phase_orders = s.orders.len();
        let province_of_order = |e: &OrderEntry| e.order.unit.map(|u| u.loc.province);
        // The first board unit and the first dislodged unit in each province, by province.
        let first = |at: &mut dyn Iterator<Item = ProvinceId>| {
            let mut table: Vec<Option<usize>> = vec![None; map.province_count()];
            for (i, p) in at.enumerate() {
                if let Some(slot @ None) = table.get_mut(p.0 as usize) {
                    *slot = Some(i);
                }
            }
            table
        };
        let board_first = first(&mut s.units.iter().map(|u| map.province_of(u.loc)));
        let dislodged_first = first(&mut s.dislodged.iter().map(|d| map.province_of(d.unit.loc)));
        let board_at = |p: ProvinceId| board_first.get(p.0 as usize).copied().flatten();
        let dislodged_at = |p: ProvinceId| {
            dislodged_first
                .get(p.0 as usize)
                .copied()
                .flatten()
                .map(|i| board + i)
        };
        let mut owner = Vec::new();
        for e in &s.orders {
            let o = match (s.phase.kind, province_of_order(e)) {
                (_, None) => None,
                (PhaseKind::Adjustment, Some(_)) if e.order.kind == OrderKind::Build => None,
                (PhaseKind::Retreat, Some(p)) => dislodged_at(p).or_else(|| board_at(p)),
                (_, Some(p)) => board_at(p),
            };
            owner.push(o);
        }
        if let Some(f) = &s.retreats {
            for e in &f.orders {
                owner.push(province_of_order(e).and_then(board_at));
            }
        }
        let hold = s
            .orders
            .iter()
            .map(|e| {
                let unit = e.order.unit?;
                if s.phase.kind != PhaseKind::Movement || e.order.kind == OrderKind::Hold {
                    return None;
                }
                let order = Order {
                    power: e.order.power,
                    unit: Some(unit),
                    kind: OrderKind::Hold,
                };
                Some(OrderEntry {
                    power: e.power,
                    text: format_order(map, &order, NameStyle::Full),
                    order,
                })
            })
            .collect();
        // Orders per province of the unit they name.
        let mut named = vec![0u32; map.province_count()];
        for p in s.orders.iter().filter_map(province_of_order) {
            if let Some(k) = named.get_mut(p.0 as usize) {
                *k = k.saturating_add(1);
            }
        }
        let alone = s
            .orders
            .iter()
            .map(|e| province_of_order(e).and_then(|p| named.get(p.0 as usize)) == Some(&1))
            .collect();
        let mut moves_to: Vec<(usize, ProvinceId)> = s
            .orders
            .iter()
            .zip(&owner)
            .filter_map(|(e, o)| match (&e.order.kind, o) {
                (OrderKind::Move { dest, .. }, Some(u)) => Some((*u, dest.province)),
                _ => None,
            })
            .collect();
        moves_to.sort_unstable();
        let mut judge = Judge {
            s,
            goal,
            board,
            phase_orders,
            owner,
            hold,
            alone,
            outcome_orders: Vec::new(),
            seen: Vec::new(),
            failed: HashSet::new(),
            fingerprint: Fingerprint::new(),
            fast: engine.is_none()
                && s.phase.kind == PhaseKind::Movement
                && s.retreats.is_none()
                && goal.keep.iter().all(|p| {
                    matches!(
                        p,
                        Property::Backup(_) | Property::Outcome { .. } | Property::Mismatch
                    )
                }),
            buffers: Buffers::default(),
            backup_orders: Vec::new(),
            record_backup: false,
            moves_to,
            runs: 0,
            engine,
            bounds: Bounds::default(),
            started: Instant::now(),
            stopped: None,
        };
        judge.prepare()?;
        Ok(judge)
    }

    /// Adjudicates a candidate with the judging engine (the decision engine unless one was
    /// given).
    fn run(&self, s: &Scenario, rules: Rules, trace: bool) -> Result<Run, RunError> {
        match &self.engine {
            Some(e) => adjudicate_scenario(s, Some(rules), &**e, trace),
            None => run(s, Some(rules), trace),
        }
    }

    fn all_orders(&self) -> impl Iterator<Item = &OrderEntry> {
        let retreat = self.s.retreats.iter().flat_map(|f| f.orders.iter());
        self.s.orders.iter().chain(retreat)
    }

    /// Checks the goal against the phase, finds the orders the outcomes name, and records the
    /// input's mismatches.
    fn prepare(&mut self) -> Result<(), MinimizeError> {
        let s = self.s;
        if self.goal.keep.is_empty() {
            return Err(MinimizeError::NoProperty);
        }
        for p in &self.goal.keep {
            match p {
                Property::Backup(_) | Property::Solutions(_)
                    if s.phase.kind != PhaseKind::Movement =>
                {
                    return Err(MinimizeError::NeedsMovement {
                        spec: p.spec(),
                        phase: s.phase.to_string(),
                    });
                }
                Property::Differs if self.goal.other.is_none() => {
                    return Err(MinimizeError::NoOtherRules);
                }
                Property::Outcome { order, text, .. } => {
                    let found = self.all_orders().position(|e| same_order(order, e));
                    let Some(i) = found else {
                        let unit_orders: Vec<String> = order
                            .unit
                            .map(|u| {
                                self.all_orders()
                                    .filter(|e| {
                                        e.order.unit.map(|v| v.loc.province) == Some(u.loc.province)
                                    })
                                    .map(|e| e.text.clone())
                                    .collect()
                            })
                            .unwrap_or_default();
                        let hint = if unit_orders.is_empty() {
                            String::new()
                        } else {
                            format!("; the orders there: {}", unit_orders.join("; "))
                        };
                        return Err(MinimizeError::DoesNotHold {
                            spec: p.spec(),
                            why: format!(
                                "no order of the scenario is {}{hint}",
                                crate::model::error::quoted(text)
                            ),
                        });
                    };
                    self.outcome_orders.push(i);
                }
                _ => {}
            }
        }
        if self.goal.keep.contains(&Property::Mismatch) {
            self.seen = self.mismatches()?;
        }
        Ok(())
    }

    /// The input's mismatches, as [`Seen`] items.
    fn mismatches(&self) -> Result<Vec<Seen>, MinimizeError> {
        let s = self.s;
        let map = &*s.map;
        let has_expect =
            s.expect.is_some() || s.retreats.as_ref().is_some_and(|f| f.expect.is_some());
        if !has_expect {
            return Err(MinimizeError::DoesNotHold {
                spec: Property::Mismatch.spec(),
                why: "the scenario has no expectations".into(),
            });
        }
        let mut seen = Vec::new();
        // A movement phase without follow-up retreats: typed outcomes, in words only where an
        // expectation is missed (a large board's reasons cost more than its adjudication).
        if self.fast {
            let mut adj = Adjudicator::new();
            adj.adjudicate(map, &s.units, &s.orders, &self.goal.rules);
            for (i, _, want) in s.expect.iter().flat_map(|e| &e.results) {
                let (Some(out), Some(entry)) = (adj.outcomes().get(*i), s.orders.get(*i)) else {
                    continue;
                };
                if !crate::tools::check::meets(*want, out.verdict) {
                    let reason = adj
                        .reason_text(map, &s.units, &s.orders, *i)
                        .unwrap_or_default();
                    seen.push(Seen::Order {
                        pool: *i,
                        verdict: out.verdict,
                        cause: discriminant(&out.reason),
                        line: format!(
                            "{}: expected {want:?}, got {:?} ({reason})",
                            entry.text, out.verdict
                        ),
                    });
                }
            }
            let ends: Vec<Option<Unit>> = adj.units().iter().map(|u| u.ends).collect();
            self.unit_mismatches(&ends, &mut seen);
            if !seen.is_empty() {
                return Ok(seen);
            }
        }
        let r = self
            .run(s, self.goal.rules, false)
            .map_err(|e| MinimizeError::Run(e.to_string()))?;
        if !self.fast {
            self.phase_mismatches(&r, &mut seen);
        }
        if seen.is_empty() {
            let (bad, _) = crate::tools::check::compare(s, &r);
            let why = if bad.is_empty() {
                format!(
                    "the result meets every expectation under {}",
                    rules_name(&self.goal.rules)
                )
            } else {
                format!(
                    "its only mismatches are positions no unit of the scenario can reach: {}",
                    bad.join("; ")
                )
            };
            return Err(MinimizeError::DoesNotHold {
                spec: Property::Mismatch.spec(),
                why,
            });
        }
        Ok(seen)
    }

    /// The mismatches of a run: its orders' (the phase's and the follow-up retreats'), and its
    /// units' fates.
    fn phase_mismatches(&self, r: &Run, seen: &mut Vec<Seen>) {
        let s = self.s;
        let mut orders = |expect: &Option<crate::model::scenario::Expect>,
                          entries: &[OrderEntry],
                          outcomes: &[OrderOutcome],
                          base: usize,
                          prefix: &str| {
            let Some(e) = expect else { return };
            for (i, _, want) in &e.results {
                let (Some(out), Some(entry)) = (outcomes.get(*i), entries.get(*i)) else {
                    continue;
                };
                if !crate::tools::check::meets(*want, out.verdict) {
                    seen.push(Seen::Order {
                        pool: base + i,
                        verdict: out.verdict,
                        cause: discriminant(&out.cause),
                        line: format!(
                            "{prefix}{}: expected {want:?}, got {:?} ({})",
                            crate::base::text::cut(&entry.text),
                            out.verdict,
                            out.reason
                        ),
                    });
                }
            }
        };
        orders(&s.expect, &s.orders, &r.phase().outcomes, 0, "");
        if let (Some(f), Some(rr)) = (&s.retreats, &r.retreats) {
            orders(
                &f.expect,
                &f.orders,
                &rr.outcomes,
                self.phase_orders,
                "retreats: ",
            );
        }
        if let Some(m) = r.result.decisions() {
            let ends: Vec<Option<Unit>> = m.units.iter().map(|u| u.ends).collect();
            self.unit_mismatches(&ends, seen);
        }
    }

    /// The units whose fate (`ends`, per board unit: where it ends, None when dislodged) the
    /// expected dislodged units or positions of a movement phase do not say.
    fn unit_mismatches(&self, ends: &[Option<Unit>], seen: &mut Vec<Seen>) {
        let s = self.s;
        let map = &*s.map;
        if let Some(e) = &s.expect {
            // Expected positions that some unit's actual end accounts for; sets, so that a
            // board of any size is compared in linear time.
            let ended: HashSet<Unit> = ends.iter().flatten().copied().collect();
            let positions: Option<HashSet<Unit>> =
                e.positions.as_ref().map(|p| p.iter().copied().collect());
            let dislodged: Option<HashSet<(UnitKind, LocId)>> = e
                .dislodged
                .as_ref()
                .map(|d| d.iter().map(|x| (x.kind, x.loc)).collect());
            // Unmatched expected positions, by (power, kind): the provinces they name.
            let mut unmatched: HashSet<(PowerId, UnitKind, ProvinceId)> = HashSet::new();
            for p in e.positions.iter().flatten() {
                if !ended.contains(p) {
                    unmatched.insert((p.power, p.kind, map.province_of(p.loc)));
                }
            }
            for (i, (unit, end)) in s.units.iter().zip(ends).enumerate() {
                let listed = dislodged
                    .as_ref()
                    .map(|d| d.contains(&(unit.kind, unit.loc)));
                let wrong = match end {
                    Some(at) => {
                        listed == Some(true) || positions.as_ref().is_some_and(|p| !p.contains(at))
                    }
                    None => {
                        listed == Some(false)
                            || (listed.is_none()
                                && self
                                    .reachable(i)
                                    .any(|p| unmatched.contains(&(unit.power, unit.kind, p))))
                    }
                };
                if wrong {
                    let fate = match end {
                        Some(at) if at.loc == unit.loc => "stays".to_string(),
                        Some(at) => format!("ends in {}", map.loc_name(at.loc)),
                        None => "is dislodged".to_string(),
                    };
                    seen.push(Seen::Unit {
                        pool: i,
                        ends: *end,
                        line: format!(
                            "{} {fate}, which the expected {} do not say",
                            unit.describe_owned(map),
                            if end.is_none() || listed == Some(true) {
                                "dislodged units or positions"
                            } else {
                                "positions"
                            }
                        ),
                    });
                }
            }
        }
    }

    /// The provinces board unit `i` could end in: where it stands, and where its orders move
    /// it.
    fn reachable(&self, i: usize) -> impl Iterator<Item = ProvinceId> + '_ {
        let map = &*self.s.map;
        let here = self.s.units.get(i).map(|u| map.province_of(u.loc));
        let from = self.moves_to.partition_point(|(u, _)| *u < i);
        let to = self.moves_to.partition_point(|(u, _)| *u <= i);
        let moves = self.moves_to.get(from..to).unwrap_or_default();
        here.into_iter().chain(moves.iter().map(|(_, p)| *p))
    }

    fn full(&self) -> Cand {
        let units = self.board + self.s.dislodged.len();
        Cand {
            units: (0..units).collect(),
            orders: (0..self.owner.len()).collect(),
            held: vec![false; self.phase_orders],
        }
    }

    fn size(&self, c: &Cand) -> Size {
        Size {
            units: c.units.len(),
            orders: c.orders.len(),
            simplified: c
                .orders
                .iter()
                .filter(|&&i| c.held.get(i).copied().unwrap_or(false))
                .count(),
        }
    }

    fn build(&self, c: &Cand) -> Built {
        let s = self.s;
        let mut out = Scenario {
            title: s.title.clone(),
            description: String::new(),
            source: s.source.clone(),
            map: s.map.clone(),
            map_ref: s.map_ref.clone(),
            map_file: s.map_file.clone(),
            phase: s.phase,
            rules: self.goal.rules,
            units: Vec::with_capacity(c.units.len()),
            dislodged: Vec::new(),
            contested: s.contested.clone(),
            owners: s.owners.clone(),
            orders: Vec::with_capacity(c.orders.len()),
            expect: None,
            retreats: s.retreats.as_ref().map(|_| Default::default()),
        };
        let mut unit_at = vec![None; self.board + s.dislodged.len()];
        for &u in &c.units {
            if u < self.board {
                unit_at[u] = Some(out.units.len());
                out.units.push(s.units[u]);
            } else if let Some(d) = s.dislodged.get(u - self.board) {
                out.dislodged.push(*d);
            }
        }
        let mut order_at = vec![None; self.owner.len()];
        for &i in &c.orders {
            if i < self.phase_orders {
                match (&self.hold[i], c.held[i]) {
                    (Some(h), true) => out.orders.push(h.clone()),
                    _ => {
                        order_at[i] = Some(out.orders.len());
                        out.orders.push(s.orders[i].clone());
                    }
                }
            } else if let (Some(f), Some(of)) = (&s.retreats, &mut out.retreats)
                && let Some(e) = f.orders.get(i - self.phase_orders)
            {
                order_at[i] = Some(of.orders.len());
                of.orders.push(e.clone());
            }
        }
        Built {
            scenario: out,
            unit_at,
            order_at,
        }
    }

    /// The outcome of pool order `i` in a built candidate's run.
    fn outcome<'r>(&self, b: &Built, r: &'r Run, i: usize) -> Option<&'r OrderOutcome> {
        let at = b.order_at.get(i).copied().flatten()?;
        if i < self.phase_orders {
            r.phase().outcomes.get(at)
        } else {
            r.retreats.as_ref()?.outcomes.get(at)
        }
    }

    /// Whether every property holds on a candidate; with `why`, the reason of each one that
    /// does not (or, when all hold, the witness of each).
    fn judge(&mut self, c: &Cand, why: Option<&mut Vec<(bool, String)>>) -> bool {
        let key = self.key(c);
        if why.is_none() && self.failed.contains(&key) {
            return false;
        }
        let ok = self.judge_fresh(c, why);
        if !ok {
            self.failed.insert(key);
        }
        ok
    }

    /// The fingerprint of a candidate: its units, its orders and those made holds.
    ///
    /// Where candidates are judged on the adjudicator's typed results ([`Judge::fast`]), an
    /// order made a hold that is the only order naming a unit in its province
    /// ([`Judge::alone`]) is keyed as removed: the two are the same adjudication. The
    /// adjudicator gives the unit the same effective order either way (a unit without an order
    /// holds; a hold that is illegal is ignored, and one that is not is the unit's order, with
    /// no other order of the unit to compete with it; a hold is not a move, so an illegal move
    /// that fails under 4.E.1 "Fail" is not in play), so the decisions, the backup rules applied
    /// and every unit's fate are the same; the other orders' classing and outcomes do not read
    /// it; and the order itself has no outcome a property reads (an outcome or a mismatch on it
    /// does not hold either way). So the holds pass never adjudicates again a hold whose order's
    /// removal the orders pass found to lose a property.
    fn key(&self, c: &Cand) -> u128 {
        let held = |i: usize| c.held.get(i).copied().unwrap_or(false);
        let as_removed = |i: usize| self.fast && held(i) && self.alone.get(i) == Some(&true);
        if !c.orders.iter().any(|&i| as_removed(i)) {
            let held: Vec<usize> = c.orders.iter().copied().filter(|&i| held(i)).collect();
            return self.fingerprint.of(&(&c.units, &c.orders, &held));
        }
        let orders: Vec<usize> = c
            .orders
            .iter()
            .copied()
            .filter(|&i| !as_removed(i))
            .collect();
        let held: Vec<usize> = orders.iter().copied().filter(|&i| held(i)).collect();
        self.fingerprint.of(&(&c.units, &orders, &held))
    }

    /// Whether a bound of the search is reached (and if so, records which).
    fn stopping(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        let b = &self.bounds;
        self.stopped = if b.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            Some(StopReason::Interrupted)
        } else if let Some(m) = b.max_runs.filter(|m| self.runs >= *m) {
            Some(StopReason::MaxRuns(m))
        } else {
            b.max_time
                .filter(|t| self.started.elapsed() >= *t)
                .map(StopReason::MaxTime)
        };
        self.stopped.is_some()
    }

    /// [`Judge::judge`] during the search: None, without adjudicating, once a bound is reached.
    fn try_judge(&mut self, c: &Cand) -> Option<bool> {
        if self.stopping() {
            return None;
        }
        Some(self.judge(c, None))
    }

    fn judge_fresh(&mut self, c: &Cand, mut why: Option<&mut Vec<(bool, String)>>) -> bool {
        self.runs += 1;
        let backup = self
            .goal
            .keep
            .iter()
            .any(|p| matches!(p, Property::Backup(_)));
        if why.is_none() && self.fast {
            // Decided on the typed outcomes of a reused adjudicator: turned down here, or (a
            // backup rule applied) confirmed below, where the trace says which rule.
            if !self.judge_fast(c) {
                return false;
            }
            if !backup {
                return true;
            }
        }
        let b = self.build(c);
        let Ok(r) = self.run(&b.scenario, self.goal.rules, backup) else {
            return false;
        };
        if self.record_backup {
            // The orders a backup rule decided: where the regions pass looks first.
            self.backup_orders = (0..self.phase_orders)
                .filter(|&i| self.outcome(&b, &r, i).is_some_and(|o| o.backup.is_some()))
                .collect();
        }
        let other = match (self.goal.other, self.goal.keep.contains(&Property::Differs)) {
            (Some(o), true) => match self.run(&b.scenario, o, false) {
                Ok(x) => Some(x),
                Err(_) => return false,
            },
            _ => None,
        };
        let map = &*self.s.map;
        let mut all = true;
        let mut outcome_k = 0;
        for p in &self.goal.keep {
            let (ok, line) = match p {
                Property::Backup(want) => backup_holds(map, &b.scenario, &r, *want, why.is_some()),
                Property::Outcome { verdict, .. } => {
                    let i = self.outcome_orders.get(outcome_k).copied();
                    outcome_k += 1;
                    match i.and_then(|i| self.outcome(&b, &r, i).map(|o| (i, o))) {
                        None => (false, "the order is gone".into()),
                        Some((i, o)) => {
                            let text = self.all_orders().nth(i).map(|e| e.text.as_str());
                            (
                                o.verdict == *verdict,
                                outcome_line(text.unwrap_or_default(), o),
                            )
                        }
                    }
                }
                Property::Mismatch => self.mismatch_holds(&b, &r),
                Property::Differs => match &other {
                    Some(o) => differs(&b.scenario, &r, o),
                    None => (false, "no second rule set".into()),
                },
                Property::Solutions(n) => solutions_hold(&b.scenario, &r, *n),
            };
            all &= ok;
            if let Some(w) = why.as_deref_mut() {
                w.push((ok, line));
            } else if !all {
                return false;
            }
        }
        all
    }

    /// [`Judge::judge`] without words, for a movement phase without follow-up retreats and
    /// properties that read verdicts, causes and fates only (see [`Judge::fast`]): whether the
    /// outcomes and mismatches hold and, when a backup property is kept, whether a backup rule
    /// decided anything at all. The candidate's units and orders are put in reused buffers and
    /// adjudicated by a reused [`Adjudicator`], so that a run allocates next to nothing.
    fn judge_fast(&mut self, c: &Cand) -> bool {
        let s = self.s;
        let f = &mut self.buffers;
        f.units.clear();
        f.orders.clear();
        f.unit_at.clear();
        f.unit_at.resize(self.board, None);
        f.order_at.clear();
        f.order_at.resize(self.phase_orders, None);
        for &u in &c.units {
            if let (Some(unit), Some(at)) = (s.units.get(u), f.unit_at.get_mut(u)) {
                *at = Some(f.units.len());
                f.units.push(*unit);
            }
        }
        for &i in &c.orders {
            let Some(e) = s.orders.get(i) else { continue };
            match (self.hold.get(i), c.held.get(i)) {
                (Some(Some(h)), Some(true)) => f.orders.push((h.power, h.order.clone())),
                _ => {
                    if let Some(at) = f.order_at.get_mut(i) {
                        *at = Some(f.orders.len());
                    }
                    f.orders.push((e.power, e.order.clone()));
                }
            }
        }
        // With a backup property, a candidate whose decisions have no cycle is turned down
        // before they are resolved: no backup rule can decide anything there.
        let backup = self
            .goal
            .keep
            .iter()
            .any(|p| matches!(p, Property::Backup(_)));
        if backup {
            if !f
                .adj
                .backup_decides(&s.map, &f.units, &f.orders, &self.goal.rules)
            {
                return false;
            }
        } else {
            f.adj
                .adjudicate(&s.map, &f.units, &f.orders, &self.goal.rules);
        }
        let f = &self.buffers;
        let outcomes = f.adj.outcomes();
        let outcome = |i: usize| {
            f.order_at
                .get(i)
                .copied()
                .flatten()
                .and_then(|at| outcomes.get(at))
        };
        let mut outcome_k = 0;
        for p in &self.goal.keep {
            let ok = match p {
                Property::Backup(_) => f.adj.backup_applied(),
                Property::Outcome { verdict, .. } => {
                    let i = self.outcome_orders.get(outcome_k).copied();
                    outcome_k += 1;
                    i.and_then(outcome).is_some_and(|o| o.verdict == *verdict)
                }
                Property::Mismatch => self.seen.iter().any(|item| match item {
                    Seen::Order {
                        pool,
                        verdict,
                        cause,
                        ..
                    } => outcome(*pool).is_some_and(|o| {
                        o.verdict == *verdict && discriminant(&o.reason) == *cause
                    }),
                    Seen::Unit { pool, ends, .. } => {
                        f.unit_at
                            .get(*pool)
                            .copied()
                            .flatten()
                            .and_then(|j| f.adj.units().get(j))
                            .map(|u| u.ends)
                            == Some(*ends)
                    }
                }),
                // Not judged here (see `fast`).
                Property::Differs | Property::Solutions(_) => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    fn mismatch_holds(&self, b: &Built, r: &Run) -> (bool, String) {
        for item in &self.seen {
            match item {
                Seen::Order {
                    pool,
                    verdict,
                    cause,
                    line,
                } => {
                    if let Some(o) = self.outcome(b, r, *pool)
                        && o.verdict == *verdict
                        && discriminant(&o.cause) == *cause
                    {
                        return (true, line.clone());
                    }
                }
                Seen::Unit { pool, ends, line } => {
                    let now = b.unit_at.get(*pool).copied().flatten().and_then(|j| {
                        r.result
                            .decisions()
                            .and_then(|m| m.units.get(j))
                            .map(|u| u.ends)
                    });
                    if now == Some(*ends) {
                        return (true, line.clone());
                    }
                }
            }
        }
        (false, "no mismatch of the input is left".into())
    }

    /// The candidate with the units in `keep` (pool indices) and the orders of the others gone.
    fn with_units(&self, c: &Cand, keep: &[usize]) -> Cand {
        let gone = |o: Option<usize>| o.is_some_and(|u| keep.binary_search(&u).is_err());
        Cand {
            units: keep.to_vec(),
            orders: c
                .orders
                .iter()
                .copied()
                .filter(|&i| !gone(self.owner[i]))
                .collect(),
            held: c.held.clone(),
        }
    }

    /// The regions where each property was seen on the input, sorted: the order an outcome
    /// names, the first mismatch, the orders a backup rule decided. None when a property does
    /// not say where it is seen (`differs`, `solutions`).
    fn hint_regions(&self, regions: &Regions) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        for p in &self.goal.keep {
            match p {
                Property::Outcome { .. } => {}
                Property::Mismatch => match self.seen.first()? {
                    Seen::Order { pool, .. } => out.push(*regions.order.get(*pool)?),
                    Seen::Unit { pool, .. } => out.push(*regions.unit.get(*pool)?),
                },
                Property::Backup(_) if !self.backup_orders.is_empty() => {
                    for &i in &self.backup_orders {
                        out.push(*regions.order.get(i)?);
                    }
                }
                _ => return None,
            }
        }
        for &i in &self.outcome_orders {
            out.push(*regions.order.get(i)?);
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Where the properties were seen on the input, as (per pool unit, per pool order) flags:
    /// the orders a backup rule decided, the orders outcomes name, the orders and units of the
    /// mismatches, and the units of all those orders. A pass over items that were all seen
    /// starts with each item left out singly ([`Start::Singles`]): removing any of them most
    /// likely loses a property, and ddmin's coarser tests would all fail.
    fn witnesses(&self) -> (Vec<bool>, Vec<bool>) {
        let mut units = vec![false; self.board + self.s.dislodged.len()];
        let mut orders = vec![false; self.owner.len()];
        let seen = self.seen.iter().map(|item| match item {
            Seen::Order { pool, .. } => (None, Some(*pool)),
            Seen::Unit { pool, .. } => (Some(*pool), None),
        });
        let named = self
            .backup_orders
            .iter()
            .chain(&self.outcome_orders)
            .map(|&i| (None, Some(i)));
        for (unit, order) in seen.chain(named) {
            let unit = unit.or_else(|| order.and_then(|i| self.owner.get(i).copied().flatten()));
            if let Some(flag) = unit.and_then(|u| units.get_mut(u)) {
                *flag = true;
            }
            if let Some(flag) = order.and_then(|i| orders.get_mut(i)) {
                *flag = true;
            }
        }
        (units, orders)
    }

    /// The candidate with only the units and orders of the regions in `keep`.
    fn with_regions(&self, c: &Cand, regions: &Regions, keep: &[usize]) -> Cand {
        let mut kept = vec![false; regions.count];
        for &r in keep {
            if let Some(k) = kept.get_mut(r) {
                *k = true;
            }
        }
        let inside = |r: Option<&usize>| r.is_some_and(|r| kept.get(*r).copied().unwrap_or(false));
        Cand {
            units: c
                .units
                .iter()
                .copied()
                .filter(|&u| inside(regions.unit.get(u)))
                .collect(),
            orders: c
                .orders
                .iter()
                .copied()
                .filter(|&o| inside(regions.order.get(o)))
                .collect(),
            held: c.held.clone(),
        }
    }
}

/// The backup rules the resolver applied, from the trace.
fn applied(r: &Run) -> Vec<BackupRule> {
    let mut out = Vec::new();
    for e in r
        .result
        .decisions()
        .and_then(|m| m.trace.as_ref())
        .into_iter()
        .flatten()
    {
        if let Event::BackupApplied { rule, .. } = e
            && !out.contains(rule)
        {
            out.push(*rule);
        }
    }
    out
}

/// Whether the equations of the phase have `want` solutions (the oracle's default limit; a
/// position too large to count does not hold).
fn solutions_hold(s: &Scenario, r: &Run, want: u128) -> (bool, String) {
    let limits = crate::tools::oracle::Limits::default();
    match crate::tools::oracle::solve(&s.map, &s.units, &s.orders, &r.rules, limits) {
        Ok(o) => {
            let line = match o.count {
                1 => "the equations have 1 solution".to_string(),
                n => format!("the equations have {n} solutions"),
            };
            (o.count == want, line)
        }
        Err(e) => (false, e.to_string()),
    }
}

/// How many orders a witness line names at most.
const LISTED: usize = 12;

/// Whether a backup rule (`want`, or any) is applied; with `line`, the witness line, which
/// names the orders it decided (the first [`LISTED`] of them).
fn backup_holds(
    map: &Map,
    s: &Scenario,
    r: &Run,
    want: Option<BackupRule>,
    line: bool,
) -> (bool, String) {
    let rules = applied(r);
    let hit = match want {
        None => rules.first().copied(),
        Some(w) => rules.iter().copied().find(|x| *x == w),
    };
    match hit {
        Some(_) if !line => (true, String::new()),
        Some(rule) => {
            let mut decided = s
                .orders
                .iter()
                .zip(&r.phase().outcomes)
                .filter(|(_, o)| o.backup == Some(rule));
            let listed: Vec<String> = decided
                .by_ref()
                .take(LISTED)
                .map(|(e, _)| short(map, &e.order))
                .collect();
            let more = decided.count();
            let mut line = format!("{} applied", capitalized(rule.name()));
            if !listed.is_empty() {
                line.push_str(&format!(": {}", listed.join(", ")));
            }
            if more > 0 {
                line.push_str(&format!(" and {more} more"));
            }
            (true, line)
        }
        None if rules.is_empty() => (false, "no backup rule is applied".into()),
        None => {
            let names: Vec<&str> = rules.iter().map(|x| x.name()).collect();
            (
                false,
                format!("only the {} is applied", names.join(" and the ")),
            )
        }
    }
}

/// `F Wales - English Channel: fails (attack 2 does not beat …)`; a reason that starts with the
/// verdict (`illegal: …`) is not repeated.
fn outcome_line(text: &str, o: &OrderOutcome) -> String {
    let word = verdict_word(o.verdict);
    if o.reason.starts_with(word) {
        format!("{text}: {}", o.reason)
    } else {
        format!("{text}: {word} ({})", o.reason)
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Whether two runs give different verdicts, dislodgements, positions or retreat verdicts.
fn differs(s: &Scenario, a: &Run, b: &Run) -> (bool, String) {
    let map = &*s.map;
    let (na, nb) = (rules_name(&a.rules), rules_name(&b.rules));
    for (e, (x, y)) in s
        .orders
        .iter()
        .zip(a.phase().outcomes.iter().zip(&b.phase().outcomes))
    {
        if x.verdict != y.verdict {
            return (
                true,
                format!(
                    "{} {} under {na}, {} under {nb}",
                    short(map, &e.order),
                    verdict_word(x.verdict),
                    verdict_word(y.verdict)
                ),
            );
        }
    }
    let set = |v: &[Unit]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    let dis = |r: &Run| {
        set(&r
            .phase()
            .dislodged
            .iter()
            .map(|d| d.unit)
            .collect::<Vec<_>>())
    };
    if dis(a) != dis(b) {
        return (
            true,
            format!("the dislodged units differ under {na} and {nb}"),
        );
    }
    if set(&a.phase().final_units) != set(&b.phase().final_units) {
        return (true, format!("the positions differ under {na} and {nb}"));
    }
    if let (Some(f), Some(x), Some(y)) = (&s.retreats, &a.retreats, &b.retreats) {
        for (e, (x, y)) in f.orders.iter().zip(x.outcomes.iter().zip(&y.outcomes)) {
            if x.verdict != y.verdict {
                return (
                    true,
                    format!(
                        "retreat {} {} under {na}, {} under {nb}",
                        short(map, &e.order),
                        verdict_word(x.verdict),
                        verdict_word(y.verdict)
                    ),
                );
            }
        }
    }
    (
        false,
        format!("{na} and {nb} give the same verdicts, dislodgements and positions"),
    )
}

/// Minimizes a scenario for a goal: removes units and orders, and makes orders holds, while
/// every property of the goal holds (see the module documentation). `progress` hears of each
/// accepted reduction. A property that does not hold on the input is an error, as is one that
/// needs a movement phase on another phase. [`minimize_with`] takes bounds and a fuller
/// observer.
pub fn minimize(
    s: &Scenario,
    goal: &Goal,
    progress: &mut dyn FnMut(&Step),
) -> Result<Minimized, MinimizeError> {
    minimize_with(s, goal, &Bounds::default(), &mut |step: &Step| {
        progress(step)
    })
}

/// The search's side of an [`Observer`]: the pass under way and the best size so far.
struct Watch<'o> {
    observer: &'o mut dyn Observer,
    stage: Stage,
    round: usize,
    best: Size,
}

impl Watch<'_> {
    fn progress(&mut self, runs: usize) {
        self.observer.progress(&Progress {
            stage: self.stage,
            round: self.round,
            best: self.best,
            runs,
        });
    }

    fn begin(&mut self, stage: Stage, round: usize, runs: usize) {
        self.stage = stage;
        self.round = round;
        self.progress(runs);
    }

    /// Adjudicates a candidate of a ddmin pass: None once a bound is reached; a candidate that
    /// passes is an accepted reduction.
    fn test(&mut self, j: &mut Judge, c: &Cand, pass: Pass) -> Option<bool> {
        let ok = j.try_judge(c)?;
        if ok {
            let after = j.size(c);
            self.observer.step(&Step {
                pass,
                before: self.best,
                after,
            });
            self.best = after;
        }
        self.progress(j.runs);
        Some(ok)
    }
}

/// [`minimize`] within bounds (a number of adjudications, a time, a stop flag), telling an
/// [`Observer`] of each step and of its progress. When a bound is reached the search stops and
/// the smallest candidate found so far is the result, with [`Minimized::stopped`] set: it keeps
/// every property, but it may not be 1-minimal.
///
/// The search begins with a pass over whole [`regions`] (ddmin over the regions, a region going
/// with all its units and orders), which brings a large board where one place matters down to
/// that place in a few dozen adjudications of shrinking size; then ddmin over the units, over
/// the orders, and holds, in rounds.
pub fn minimize_with(
    s: &Scenario,
    goal: &Goal,
    bounds: &Bounds,
    observer: &mut dyn Observer,
) -> Result<Minimized, MinimizeError> {
    minimize_on(s, goal, None, bounds, observer)
}

/// [`minimize_with`], with candidates judged by `engine` (None: the decision engine) — an
/// outside adjudicator, say, to find the smallest position where it misses an expectation
/// (`--keep mismatch`). A candidate the engine gives no result for does not keep the
/// properties. The minimized scenario's expectations are frozen with the decision engine, so
/// that checking it with `engine` shows the mismatch kept.
pub fn minimize_on(
    s: &Scenario,
    goal: &Goal,
    engine: Option<Arc<dyn Engine>>,
    bounds: &Bounds,
    observer: &mut dyn Observer,
) -> Result<Minimized, MinimizeError> {
    let mut j = Judge::new(s, goal, engine)?;
    j.bounds = bounds.clone();
    j.started = Instant::now();
    let mut cand = j.full();
    let before = j.size(&cand);
    // The input must show every property; words only to say why not.
    j.record_backup = true;
    let holds = j.judge(&cand, None);
    j.record_backup = false;
    let mut why = Vec::new();
    if !holds && !j.judge(&cand, Some(&mut why)) {
        let (p, (_, line)) = goal
            .keep
            .iter()
            .zip(&why)
            .find(|(_, (ok, _))| !ok)
            .ok_or_else(|| MinimizeError::Run("the input could not be adjudicated".into()))?;
        return Err(MinimizeError::DoesNotHold {
            spec: p.spec(),
            why: line.clone(),
        });
    }
    let mut w = Watch {
        observer,
        stage: Stage::Regions,
        round: 0,
        best: before,
    };
    // Whole regions.
    let regions = regions(s);
    w.begin(Stage::Regions, 0, j.runs);
    let mut present: Vec<usize> = cand.units.iter().map(|&u| regions.unit[u]).collect();
    present.extend(cand.orders.iter().map(|&o| regions.order[o]));
    present.sort_unstable();
    present.dedup();
    // First the regions where the properties were seen, alone: on a large board where one
    // place matters, one adjudication of that place.
    if let Some(hint) = j.hint_regions(&regions)
        && hint.len() < present.len()
    {
        let c = j.with_regions(&cand, &regions, &hint);
        if w.test(&mut j, &c, Pass::Regions) == Some(true) {
            cand = c;
            present = hint;
        }
    }
    if present.len() > 1 {
        let base = cand.clone();
        let kept = ddmin_ids(
            present.len(),
            Start::Halves,
            |ids| {
                let keep: Vec<usize> = ids.iter().map(|&i| present[i]).collect();
                let c = j.with_regions(&base, &regions, &keep);
                w.test(&mut j, &c, Pass::Regions)
            },
            |_, _| {},
        );
        let keep: Vec<usize> = kept.iter().map(|&i| present[i]).collect();
        cand = j.with_regions(&base, &regions, &keep);
    }
    let (seen_units, seen_orders) = j.witnesses();
    let start = |ids: &[usize], seen: &[bool]| {
        if !ids.is_empty() && ids.iter().all(|&i| seen.get(i) == Some(&true)) {
            Start::Singles
        } else {
            Start::Halves
        }
    };
    let mut round = 0;
    while !j.stopping() {
        round += 1;
        let mut changed = false;
        // Units, each with its orders.
        w.begin(Stage::Units, round, j.runs);
        let base = cand.clone();
        let kept = ddmin_ids(
            base.units.len(),
            start(&base.units, &seen_units),
            |ids| {
                let keep: Vec<usize> = ids.iter().map(|&i| base.units[i]).collect();
                let c = j.with_units(&base, &keep);
                w.test(&mut j, &c, Pass::Units)
            },
            |_, _| {},
        );
        if kept.len() < base.units.len() {
            let keep: Vec<usize> = kept.iter().map(|&i| base.units[i]).collect();
            cand = j.with_units(&base, &keep);
            changed = true;
        }
        if j.stopping() {
            break;
        }
        // Orders.
        w.begin(Stage::Orders, round, j.runs);
        let base = cand.clone();
        let kept = ddmin_ids(
            base.orders.len(),
            start(&base.orders, &seen_orders),
            |ids| {
                let c = Cand {
                    orders: ids.iter().map(|&i| base.orders[i]).collect(),
                    ..base.clone()
                };
                w.test(&mut j, &c, Pass::Orders)
            },
            |_, _| {},
        );
        if kept.len() < base.orders.len() {
            cand.orders = kept.iter().map(|&i| base.orders[i]).collect();
            changed = true;
        }
        if j.stopping() {
            break;
        }
        // Each remaining order as a hold.
        w.begin(Stage::Holds, round, j.runs);
        for &i in &cand.orders.clone() {
            let Some(to) = j
                .hold
                .get(i)
                .and_then(|h| h.as_ref())
                .map(|h| h.text.clone())
            else {
                continue;
            };
            if cand.held[i] {
                continue;
            }
            let mut c = cand.clone();
            c.held[i] = true;
            let pass = Pass::Hold {
                from: s.orders[i].text.clone(),
                to,
            };
            match w.test(&mut j, &c, pass) {
                None => break,
                Some(true) => {
                    cand = c;
                    changed = true;
                }
                Some(false) => {}
            }
        }
        if !changed {
            break;
        }
    }
    let stopped = j.stopped.map(|reason| Stopped {
        reason,
        stage: w.stage,
        round: w.round,
    });
    let after = j.size(&cand);
    let runs = j.runs;
    let mut why = Vec::new();
    j.judge(&cand, Some(&mut why));
    let witness: Vec<String> = why.into_iter().map(|(_, line)| line).collect();
    let mut out = j.build(&cand).scenario;
    out.title = format!("{} (minimized)", s.title);
    let specs: Vec<String> = goal.keep.iter().map(Property::spec).collect();
    let count = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    let mut description = format!(
        "Minimized by dipsandbox minimize from {} and {}, keeping {}",
        count(before.units, "unit"),
        count(before.orders, "order"),
        specs.join(" and ")
    );
    if let (Some(o), true) = (goal.other, goal.keep.contains(&Property::Differs)) {
        description.push_str(&format!(" (against {})", rules_name(&o)));
    }
    description.push_str(&format!(": {}.", witness.join("; ")));
    if let Some(st) = stopped {
        description.push_str(&format!(
            " The search was stopped early ({}), in the {} pass: a smaller scenario may keep the same properties.",
            stop_words(st.reason),
            st.stage.name()
        ));
    }
    out.description = description;
    let r = run(&out, None, false).map_err(|e| MinimizeError::Run(e.to_string()))?;
    freeze_expectations(&mut out, &r);
    Ok(Minimized {
        scenario: out,
        before,
        after,
        runs,
        witness,
        regions: regions.count,
        stopped,
    })
}

/// Why a search stopped, in a few words: `interrupted`, `after 100 runs`, `after
/// 2.5 s`.
pub fn stop_words(r: StopReason) -> String {
    match r {
        StopReason::Interrupted => "interrupted".into(),
        StopReason::MaxRuns(1) => "after 1 run".into(),
        StopReason::MaxRuns(n) => format!("after {n} runs"),
        StopReason::MaxTime(t) => format!("after {} s", t.as_secs_f64()),
    }
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    /// The stoppable ddmin over `0..len`, starting with halves.
    pub fn ddmin_halves(
        len: usize,
        test: impl FnMut(&[usize]) -> Option<bool>,
        reduced: impl FnMut(usize, usize),
    ) -> Vec<usize> {
        super::ddmin_ids(len, super::Start::Halves, test, reduced)
    }

    /// The union-find of the region split.
    pub struct Dsu(super::Dsu);

    impl Dsu {
        /// `n` singletons.
        pub fn new(n: usize) -> Dsu {
            Dsu(super::Dsu::new(n))
        }

        /// The root of `x`'s set.
        pub fn find(&mut self, x: usize) -> usize {
            self.0.find(x)
        }

        /// Joins the sets of `a` and `b`.
        pub fn union(&mut self, a: usize, b: usize) {
            self.0.union(a, b)
        }
    }
}
