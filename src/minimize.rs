//! The minimizer: the smallest part of a scenario that still shows what it is kept for.
//!
//! Given a scenario and one or more [`Property`]s that hold on it (a backup rule is applied, an
//! order has a given outcome, the result misses the expectations, two rule sets disagree), the
//! minimizer removes units and orders by delta debugging — Zeller's `ddmin` ([`ddmin`]) over the
//! units (a unit goes with its orders), then over the orders — then tries each remaining order
//! as a plain hold, and repeats until a whole round changes nothing, keeping every step after
//! which all the properties still hold. The result is 1-minimal: no single unit or order can be
//! removed, and no single order be made a hold, without losing a property.
//!
//! ```
//! use dipsandbox::minimize::{Goal, Property, minimize};
//! use dipsandbox::rules::Rules;
//! use dipsandbox::scenario::Scenario;
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
use std::mem::discriminant;

use crate::adjudicator::trace::{BackupRule, Event};
use crate::adjudicator::{OrderOutcome, Reason, Verdict};
use crate::board::{PhaseKind, Unit};
use crate::check::{Run, freeze_expectations, run};
use crate::diff::verdict_word;
use crate::map::Map;
use crate::orders::{NameStyle, Order, OrderKind, format_order, parse_order};
use crate::rules::Rules;
use crate::scenario::{OrderEntry, Scenario};

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
    /// oracle, [`crate::oracle`]): `solutions:0` keeps a paradox with no resolution, such as
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
                            crate::error::quoted(r)
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
                            crate::error::quoted(w)
                        )));
                    }
                };
                let text = text.trim();
                let order = parse_order(map, text).map_err(|e| {
                    bad(format!(
                        "order {}: column {}: {}",
                        crate::error::quoted(text),
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
                    crate::error::quoted(n)
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
    #[error("property {}: {why}", crate::error::quoted(.spec))]
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
    /// How many candidates were adjudicated.
    pub runs: usize,
    /// Why each property holds on the result, one line each
    /// (`Szykman rule applied: A Bre - Lon, F Eng C A Bre - Lon`).
    pub witness: Vec<String>,
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
    mut reduced: impl FnMut(usize, usize),
) -> Vec<T> {
    let mut failed: HashSet<Vec<usize>> = HashSet::new();
    let mut attempt = |ids: &[usize], failed: &mut HashSet<Vec<usize>>| -> bool {
        if failed.contains(ids) {
            return false;
        }
        let subset: Vec<T> = ids.iter().map(|&i| items[i].clone()).collect();
        let ok = test(&subset);
        if !ok {
            failed.insert(ids.to_vec());
        }
        ok
    };
    if items.is_empty() {
        return Vec::new();
    }
    if attempt(&[], &mut failed) {
        reduced(items.len(), 0);
        return Vec::new();
    }
    let mut current: Vec<usize> = (0..items.len()).collect();
    let mut n = 2usize;
    while current.len() >= 2 {
        let n_eff = n.min(current.len());
        let chunks = split(&current, n_eff);
        let mut next: Option<(Vec<usize>, usize)> = None;
        for chunk in &chunks {
            if attempt(chunk, &mut failed) {
                next = Some((chunk.clone(), 2));
                break;
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
                if attempt(&complement, &mut failed) {
                    next = Some((complement, (n_eff - 1).max(2)));
                    break;
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
    current.into_iter().map(|i| items[i].clone()).collect()
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
    /// Per [`Property::Outcome`] of the goal, in order: the pool order it names.
    outcome_orders: Vec<usize>,
    /// The input's mismatches, for [`Property::Mismatch`].
    seen: Vec<Seen>,
    /// Candidates found failing (units, orders, orders made holds), so no pass tries one twice.
    failed: HashSet<(Vec<usize>, Vec<usize>, Vec<usize>)>,
    runs: usize,
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
    fn new(s: &'a Scenario, goal: &'a Goal) -> Result<Judge<'a>, MinimizeError> {
        let map = &*s.map;
        let board = s.units.len();
        let phase_orders = s.orders.len();
        let province_of_order = |e: &OrderEntry| e.order.unit.map(|u| u.loc.province);
        let board_at = |p| s.units.iter().position(|u| map.province_of(u.loc) == p);
        let dislodged_at = |p| {
            s.dislodged
                .iter()
                .position(|d| map.province_of(d.unit.loc) == p)
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
        let mut judge = Judge {
            s,
            goal,
            board,
            phase_orders,
            owner,
            hold,
            outcome_orders: Vec::new(),
            seen: Vec::new(),
            failed: HashSet::new(),
            runs: 0,
        };
        judge.prepare()?;
        Ok(judge)
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
                                crate::error::quoted(text)
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
        let r =
            run(s, Some(self.goal.rules), false).map_err(|e| MinimizeError::Run(e.to_string()))?;
        let mut seen = Vec::new();
        let mut orders = |expect: &Option<crate::scenario::Expect>,
                          entries: &[OrderEntry],
                          outcomes: &[OrderOutcome],
                          base: usize,
                          prefix: &str| {
            let Some(e) = expect else { return };
            for (i, _, want) in &e.results {
                let (Some(out), Some(entry)) = (outcomes.get(*i), entries.get(*i)) else {
                    continue;
                };
                if !crate::check::meets(*want, out.verdict) {
                    seen.push(Seen::Order {
                        pool: base + i,
                        verdict: out.verdict,
                        cause: discriminant(&out.cause),
                        line: format!(
                            "{prefix}{}: expected {want:?}, got {:?} ({})",
                            crate::text::cut(&entry.text),
                            out.verdict,
                            out.reason
                        ),
                    });
                }
            }
        };
        orders(&s.expect, &s.orders, &r.phase.outcomes, 0, "");
        if let (Some(f), Some(rr)) = (&s.retreats, &r.retreats) {
            orders(
                &f.expect,
                &f.orders,
                &rr.outcomes,
                self.phase_orders,
                "retreats: ",
            );
        }
        if let (Some(m), Some(e)) = (&r.movement, &s.expect) {
            // Expected positions that some unit's actual end accounts for.
            let ends: Vec<Option<Unit>> = m.units.iter().map(|u| u.ends).collect();
            let unmatched: Vec<Unit> = e
                .positions
                .iter()
                .flatten()
                .filter(|p| !ends.contains(&Some(**p)))
                .copied()
                .collect();
            for (i, (unit, end)) in s.units.iter().zip(&ends).enumerate() {
                let listed = e
                    .dislodged
                    .as_ref()
                    .map(|d| d.iter().any(|x| x.kind == unit.kind && x.loc == unit.loc));
                let wrong = match end {
                    Some(at) => {
                        listed == Some(true)
                            || e.positions.as_ref().is_some_and(|p| !p.contains(at))
                    }
                    None => {
                        listed == Some(false)
                            || (listed.is_none()
                                && unmatched.iter().any(|p| {
                                    p.power == unit.power
                                        && p.kind == unit.kind
                                        && self.reachable(i, map.province_of(p.loc))
                                }))
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
        if seen.is_empty() {
            let (bad, _) = crate::check::compare(s, &r);
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

    /// Whether board unit `i` could end in province `p`: where it stands, or where one of its
    /// orders moves it.
    fn reachable(&self, i: usize, p: crate::map::ProvinceId) -> bool {
        let map = &*self.s.map;
        map.province_of(self.s.units[i].loc) == p
            || self.s.orders.iter().zip(&self.owner).any(|(e, o)| {
                *o == Some(i)
                    && matches!(&e.order.kind, OrderKind::Move { dest, .. } if dest.province == p)
            })
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
            r.phase.outcomes.get(at)
        } else {
            r.retreats.as_ref()?.outcomes.get(at)
        }
    }

    /// Whether every property holds on a candidate; with `why`, the reason of each one that
    /// does not (or, when all hold, the witness of each).
    fn judge(&mut self, c: &Cand, why: Option<&mut Vec<(bool, String)>>) -> bool {
        let key = (
            c.units.clone(),
            c.orders.clone(),
            c.orders
                .iter()
                .copied()
                .filter(|&i| c.held.get(i).copied().unwrap_or(false))
                .collect::<Vec<usize>>(),
        );
        if why.is_none() && self.failed.contains(&key) {
            return false;
        }
        let ok = self.judge_fresh(c, why);
        if !ok {
            self.failed.insert(key);
        }
        ok
    }

    fn judge_fresh(&mut self, c: &Cand, mut why: Option<&mut Vec<(bool, String)>>) -> bool {
        self.runs += 1;
        let b = self.build(c);
        let needs_trace = self
            .goal
            .keep
            .iter()
            .any(|p| matches!(p, Property::Backup(_)));
        let Ok(r) = run(&b.scenario, Some(self.goal.rules), needs_trace) else {
            return false;
        };
        let other = match (self.goal.other, self.goal.keep.contains(&Property::Differs)) {
            (Some(o), true) => match run(&b.scenario, Some(o), false) {
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
                Property::Backup(want) => backup_holds(map, &b.scenario, &r, *want),
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
                        r.movement
                            .as_ref()
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
}

/// The backup rules the resolver applied, from the trace.
fn applied(r: &Run) -> Vec<BackupRule> {
    let mut out = Vec::new();
    for e in r
        .movement
        .as_ref()
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
    let limits = crate::oracle::Limits::default();
    match crate::oracle::solve(&s.map, &s.units, &r.orders, &r.rules, limits) {
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

fn backup_holds(map: &Map, s: &Scenario, r: &Run, want: Option<BackupRule>) -> (bool, String) {
    let rules = applied(r);
    let hit = match want {
        None => rules.first().copied(),
        Some(w) => rules.iter().copied().find(|x| *x == w),
    };
    match hit {
        Some(rule) => {
            let decided: Vec<String> = s
                .orders
                .iter()
                .zip(&r.phase.outcomes)
                .filter(|(_, o)| o.backup == Some(rule))
                .map(|(e, _)| short(map, &e.order))
                .collect();
            let mut line = format!("{} applied", capitalized(rule.name()));
            if !decided.is_empty() {
                line.push_str(&format!(": {}", decided.join(", ")));
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
        .zip(a.phase.outcomes.iter().zip(&b.phase.outcomes))
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
    let dis = |r: &Run| set(&r.phase.dislodged.iter().map(|d| d.unit).collect::<Vec<_>>());
    if dis(a) != dis(b) {
        return (
            true,
            format!("the dislodged units differ under {na} and {nb}"),
        );
    }
    if set(&a.phase.final_units) != set(&b.phase.final_units) {
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
/// needs a movement phase on another phase.
pub fn minimize(
    s: &Scenario,
    goal: &Goal,
    progress: &mut dyn FnMut(&Step),
) -> Result<Minimized, MinimizeError> {
    let mut j = Judge::new(s, goal)?;
    let mut cand = j.full();
    let before = j.size(&cand);
    let mut why = Vec::new();
    if !j.judge(&cand, Some(&mut why)) {
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
    loop {
        let mut changed = false;
        // Units, each with its orders.
        let base = cand.clone();
        let mut steps = Vec::new();
        let kept = ddmin(
            &base.units,
            |keep| {
                let c = j.with_units(&base, keep);
                let ok = j.judge(&c, None);
                if ok {
                    steps.push(j.size(&c));
                }
                ok
            },
            |_, _| {},
        );
        if kept.len() < base.units.len() {
            let mut last = j.size(&base);
            for after in steps {
                progress(&Step {
                    pass: Pass::Units,
                    before: last,
                    after,
                });
                last = after;
            }
            cand = j.with_units(&base, &kept);
            changed = true;
        }
        // Orders.
        let base = cand.clone();
        let mut steps = Vec::new();
        let kept = ddmin(
            &base.orders,
            |keep| {
                let c = Cand {
                    orders: keep.to_vec(),
                    ..base.clone()
                };
                let ok = j.judge(&c, None);
                if ok {
                    steps.push(j.size(&c));
                }
                ok
            },
            |_, _| {},
        );
        if kept.len() < base.orders.len() {
            let mut last = j.size(&base);
            for after in steps {
                progress(&Step {
                    pass: Pass::Orders,
                    before: last,
                    after,
                });
                last = after;
            }
            cand.orders = kept;
            changed = true;
        }
        // Each remaining order as a hold.
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
            if j.judge(&c, None) {
                progress(&Step {
                    pass: Pass::Hold {
                        from: s.orders[i].text.clone(),
                        to,
                    },
                    before: j.size(&cand),
                    after: j.size(&c),
                });
                cand = c;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let after = j.size(&cand);
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
    out.description = description;
    let r = run(&out, None, false).map_err(|e| MinimizeError::Run(e.to_string()))?;
    freeze_expectations(&mut out, &r);
    Ok(Minimized {
        scenario: out,
        before,
        after,
        runs: j.runs,
        witness,
    })
}
