//! Rule diffs: what a change of rules changes in a scenario's result. Two rule sets compared
//! order by order (with both reasons), dislodgement by dislodgement and unit by unit; a table of
//! every order's verdict under every preset; and, for a folder of cases, which single option
//! decides which case.

use crate::engine::decision::adjudicator::{Adjudicator, Outcome};
use crate::engine::legality;
use crate::engine::outcome::{OrderOutcome, PhaseResult, Verdict};
use crate::engine::retreat::adjudicate_retreats;
use crate::engine::seam::Engine;
use crate::model::board::{PhaseKind, Unit};
use crate::model::map::Map;
use crate::model::orders::{NameStyle, format_order};
use crate::model::rules::{PRESETS, Rules};
use crate::model::scenario::{Expect, Expected, OrderEntry, Scenario};
use crate::tools::check::{Run, RunError, adjudicate_scenario, meets};

/// One order whose outcome differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderDiff {
    /// Index into the phase's orders (or the retreat orders, for [`RuleDiff::retreats`]).
    pub index: usize,
    /// The order with its power: `England: F Lon S F Wal - Eng`.
    pub order: String,
    /// Verdict and reason under the first rules.
    pub a: (Verdict, String),
    /// Verdict and reason under the second rules.
    pub b: (Verdict, String),
}

/// Units present under one rule set and not the other (`A Par`, owner first: `France A Par`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitDiff {
    /// Only under the first rules.
    pub only_a: Vec<String>,
    /// Only under the second rules.
    pub only_b: Vec<String>,
}

impl UnitDiff {
    /// Whether the two lists agree.
    pub fn is_empty(&self) -> bool {
        self.only_a.is_empty() && self.only_b.is_empty()
    }
}

/// Everything that differs between two rule sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleDiff {
    /// Orders of the phase whose verdict differs (a reason that differs with the same verdict is
    /// listed too: the reason is part of the result).
    pub orders: Vec<OrderDiff>,
    /// Dislodged units.
    pub dislodged: UnitDiff,
    /// Final positions.
    pub positions: UnitDiff,
    /// Retreat orders that follow the phase, if the scenario has them.
    pub retreats: Vec<OrderDiff>,
}

impl RuleDiff {
    /// Whether the two rule sets give the same result.
    pub fn is_empty(&self) -> bool {
        self.orders.is_empty()
            && self.dislodged.is_empty()
            && self.positions.is_empty()
            && self.retreats.is_empty()
    }

    /// How many things differ.
    pub fn len(&self) -> usize {
        self.orders.len()
            + self.dislodged.only_a.len()
            + self.dislodged.only_b.len()
            + self.positions.only_a.len()
            + self.positions.only_b.len()
            + self.retreats.len()
    }
}

/// A verdict in one word.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Succeeds => "succeeds",
        Verdict::Fails => "fails",
        Verdict::Illegal => "illegal",
        Verdict::Void => "void",
    }
}

fn order_text(map: &Map, e: &OrderEntry) -> String {
    let mut o = e.order.clone();
    o.power = None;
    format!(
        "{}: {}",
        map.power(e.power).name,
        format_order(map, &o, NameStyle::Abbr)
    )
}

/// One adjudication of a scenario kept for comparing with another: a movement phase's typed
/// outcomes from the decision engine's workspace (words are made only for orders whose outcome
/// differs), or another phase's outcomes in words; the units after it and the retreats that
/// follow.
struct Kept {
    /// A movement phase: per submitted order, its typed outcome.
    typed: Vec<Outcome>,
    /// A movement phase: per unit, the submitted order that applied to it (the words of a
    /// reason name units by their orders).
    source: Vec<Option<usize>>,
    /// Another phase: per submitted order, its outcome in words.
    words: Vec<OrderOutcome>,
    /// The units after the phase, sorted (for [`unit_diff`]).
    final_units: Vec<Unit>,
    /// The dislodged units, sorted.
    dislodged: Vec<Unit>,
    retreats: Option<PhaseResult>,
}

impl Kept {
    /// The verdict of submitted order `i` (illegal for an order the run did not have).
    fn verdict(&self, i: usize) -> Verdict {
        self.typed
            .get(i)
            .map(|o| o.verdict)
            .or_else(|| self.words.get(i).map(|o| o.verdict))
            .unwrap_or(Verdict::Illegal)
    }
}

/// What [`Kept`] runs read: the scenario and its orders as the adjudicators take them.
struct Orders<'s> {
    s: &'s Scenario,
    orders: &'s [OrderEntry],
    retreat_orders: &'s [OrderEntry],
}

impl<'s> Orders<'s> {
    fn new(s: &'s Scenario) -> Result<Orders<'s>, RunError> {
        if s.retreats.is_some() && s.phase.kind != PhaseKind::Movement {
            return Err(RunError::Invalid(
                "`retreats` can only follow a movement phase".into(),
            ));
        }
        Ok(Orders {
            s,
            orders: &s.orders,
            retreat_orders: s.retreats.as_ref().map_or(&[][..], |f| &f.orders),
        })
    }

    /// A runner on these orders, with a movement workspace of its own.
    fn runner(&self) -> Runner<'_, 's> {
        Runner {
            o: self,
            adj: Adjudicator::new(),
        }
    }
}

/// Runs of one scenario: its orders, and one movement workspace used for every run.
struct Runner<'o, 's> {
    o: &'o Orders<'s>,
    adj: Adjudicator,
}

impl Runner<'_, '_> {
    /// The scenario adjudicated under `rules` (as [`crate::tools::check::run`] does, with the
    /// decision engine).
    fn run(&mut self, rules: &Rules) -> Kept {
        let s = self.o.s;
        if s.phase.kind != PhaseKind::Movement {
            let p = crate::tools::turn::adjudicate_phase(s, self.o.orders, rules);
            return Kept {
                typed: Vec::new(),
                source: Vec::new(),
                words: p.outcomes,
                final_units: sorted(p.final_units),
                dislodged: sorted(p.dislodged.iter().map(|d| d.unit).collect()),
                retreats: None,
            };
        }
        let typed = self
            .adj
            .adjudicate(&s.map, &s.units, self.o.orders, rules)
            .to_vec();
        let a = &self.adj;
        let retreats = s.retreats.as_ref().map(|_| {
            adjudicate_retreats(
                &s.map,
                a.final_units(),
                a.dislodged(),
                a.contested(),
                self.o.retreat_orders,
                rules,
            )
        });
        Kept {
            typed,
            source: a.prepared().source.clone(),
            words: Vec::new(),
            final_units: sorted(a.final_units().to_vec()),
            dislodged: sorted(a.dislodged().iter().map(|d| d.unit).collect()),
            retreats,
        }
    }

    /// What differs between two runs (`reasons`: a reason that differs under the same verdict
    /// counts).
    fn compare(&self, ra: &Kept, rb: &Kept, reasons: bool) -> RuleDiff {
        let s = self.o.s;
        let map = &*s.map;
        let retreats = match (&s.retreats, &ra.retreats, &rb.retreats) {
            (Some(f), Some(x), Some(y)) => {
                order_diffs(map, &f.orders, &x.outcomes, &y.outcomes, reasons)
            }
            _ => Vec::new(),
        };
        let orders = if s.phase.kind == PhaseKind::Movement {
            self.typed_diffs(ra, rb, reasons)
        } else {
            order_diffs(map, &s.orders, &ra.words, &rb.words, reasons)
        };
        RuleDiff {
            orders,
            dislodged: sorted_unit_diff(map, &ra.dislodged, &rb.dislodged),
            positions: sorted_unit_diff(map, &ra.final_units, &rb.final_units),
            retreats,
        }
    }

    /// [`order_diffs`] on typed outcomes: the words of a reason are made only where the typed
    /// outcomes differ (equal typed outcomes of runs that applied the same orders read the
    /// same), and compared as words, as [`order_diffs`] compares them.
    fn typed_diffs(&self, ra: &Kept, rb: &Kept, reasons: bool) -> Vec<OrderDiff> {
        let s = self.o.s;
        let map = &*s.map;
        let same_source = ra.source == rb.source;
        let words =
            |k: &Kept, o: &Outcome| Adjudicator::render(map, &s.units, self.o.orders, &k.source, o);
        let mut out = Vec::new();
        for (i, (e, (x, y))) in s
            .orders
            .iter()
            .zip(ra.typed.iter().zip(&rb.typed))
            .enumerate()
        {
            if x.verdict == y.verdict && (!reasons || (same_source && x == y)) {
                continue;
            }
            let (wx, wy) = (words(ra, x), words(rb, y));
            if x.verdict == y.verdict && wx == wy {
                continue;
            }
            out.push(OrderDiff {
                index: i,
                order: order_text(map, e),
                a: (x.verdict, wx),
                b: (y.verdict, wy),
            });
        }
        out
    }
}

fn order_diffs(
    map: &Map,
    orders: &[OrderEntry],
    a: &[OrderOutcome],
    b: &[OrderOutcome],
    reasons: bool,
) -> Vec<OrderDiff> {
    orders
        .iter()
        .zip(a.iter().zip(b))
        .enumerate()
        .filter(|(_, (_, (x, y)))| x.verdict != y.verdict || (reasons && x.reason != y.reason))
        .map(|(i, (e, (x, y)))| OrderDiff {
            index: i,
            order: order_text(map, e),
            a: (x.verdict, x.reason.clone()),
            b: (y.verdict, y.reason.clone()),
        })
        .collect()
}

fn sorted(mut v: Vec<Unit>) -> Vec<Unit> {
    v.sort_unstable();
    v
}

/// The units of `a` not in `b` and those of `b` not in `a`, named and sorted by name. Sorted
/// copies are searched, so that two lists of a whole board's units compare in n log n.
fn unit_diff(map: &Map, a: &[Unit], b: &[Unit]) -> UnitDiff {
    sorted_unit_diff(map, &sorted(a.to_vec()), &sorted(b.to_vec()))
}

/// [`unit_diff`] of two sorted lists.
fn sorted_unit_diff(map: &Map, a: &[Unit], b: &[Unit]) -> UnitDiff {
    let name = |u: &Unit| format!("{} {}", map.power(u.power).name, u.describe(map));
    let only = |v: &[Unit], other: &[Unit]| -> Vec<String> {
        let mut names: Vec<String> = v
            .iter()
            .filter(|u| other.binary_search(u).is_err())
            .map(name)
            .collect();
        names.sort();
        names
    };
    UnitDiff {
        only_a: only(a, b),
        only_b: only(b, a),
    }
}

/// Compares a scenario's result under two rule sets.
pub fn diff(s: &Scenario, a: Rules, b: Rules) -> Result<RuleDiff, RunError> {
    let orders = Orders::new(s)?;
    let mut runner = orders.runner();
    let ra = runner.run(&a);
    let rb = runner.run(&b);
    Ok(runner.compare(&ra, &rb, true))
}

/// Compares two engines (any two of a registry: the decision model and the DPjudge procedure,
/// say) on a scenario under `rules` (default: its own): the orders whose verdict differs (each with both
/// reasons; the engines word their reasons differently, so a reason alone does not count), the
/// dislodged units, the final positions and the follow-up retreats.
pub fn diff_engines(
    s: &Scenario,
    rules: Option<Rules>,
    a: &dyn Engine,
    b: &dyn Engine,
) -> Result<RuleDiff, RunError> {
    let ra = adjudicate_scenario(s, rules, a, false)?;
    let rb = adjudicate_scenario(s, rules, b, false)?;
    Ok(diff_runs(s, &ra, &rb))
}

/// [`diff_engines`] of two runs already made (by two engines under the same rules): what a
/// caller that shows both runs compares without adjudicating twice.
pub fn diff_runs(s: &Scenario, ra: &Run, rb: &Run) -> RuleDiff {
    compare_runs(s, ra, rb, false)
}

/// What differs between two runs of one scenario (`reasons`: a reason that differs under the
/// same verdict counts).
fn compare_runs(s: &Scenario, ra: &Run, rb: &Run, reasons: bool) -> RuleDiff {
    let map = &*s.map;
    let retreats = match (&s.retreats, &ra.retreats, &rb.retreats) {
        (Some(f), Some(x), Some(y)) => {
            order_diffs(map, &f.orders, &x.outcomes, &y.outcomes, reasons)
        }
        _ => Vec::new(),
    };
    RuleDiff {
        orders: order_diffs(
            map,
            &s.orders,
            &ra.phase().outcomes,
            &rb.phase().outcomes,
            reasons,
        ),
        dislodged: unit_diff(
            map,
            &dislodged_units(ra.phase()),
            &dislodged_units(rb.phase()),
        ),
        positions: unit_diff(map, &ra.phase().final_units, &rb.phase().final_units),
        retreats,
    }
}

/// Compares a run with the result the scenario's expectations record (a recorded game's, for a
/// scenario `replay` wrote): the run is the first side, the record the second. An order differs
/// when its expected verdict is not met (as `check` judges: an expected failure is met by an
/// illegal or void order too), and is given with the expected verdict and no reason; the
/// dislodged units and the positions are compared when the expectations give them, and so are
/// the follow-up retreats.
pub fn diff_expectations(s: &Scenario, run: &Run) -> RuleDiff {
    let map = &*s.map;
    let orders = |orders: &[OrderEntry], expect: Option<&Expect>, result: &PhaseResult| {
        let mut out = Vec::new();
        for (i, _, exp) in expect.map_or(&[][..], |e| &e.results[..]) {
            let (Some(e), Some(o)) = (orders.get(*i), result.outcomes.get(*i)) else {
                continue;
            };
            if !meets(*exp, o.verdict) {
                out.push(OrderDiff {
                    index: *i,
                    order: order_text(map, e),
                    a: (o.verdict, o.reason.clone()),
                    b: (expected_verdict(*exp), String::new()),
                });
            }
        }
        out.sort_by_key(|d| d.index);
        out
    };
    let expect = s.expect.as_ref();
    let phase = run.phase();
    let retreats = match (&s.retreats, &run.retreats) {
        (Some(f), Some(r)) => orders(&f.orders, f.expect.as_ref(), r),
        _ => Vec::new(),
    };
    RuleDiff {
        orders: orders(&s.orders, expect, phase),
        dislodged: expect
            .and_then(|e| e.dislodged.as_ref())
            .map(|d| dislodged_diff(map, &dislodged_units(phase), d))
            .unwrap_or_default(),
        positions: expect
            .and_then(|e| e.positions.as_ref())
            .map(|p| unit_diff(map, &phase.final_units, p))
            .unwrap_or_default(),
        retreats,
    }
}

/// The dislodged units of a run against those expected, compared by unit type and place (the
/// expectations name no power, as `check` compares them): the run's named with their power,
/// the expected ones without.
fn dislodged_diff(map: &Map, run: &[Unit], expected: &[Unit]) -> UnitDiff {
    let key = |u: &Unit| (u.kind, u.loc);
    // Both sorted by type and place, then merged (two whole boards compare in n log n).
    let mut a = run.to_vec();
    let mut b = expected.to_vec();
    a.sort_by_key(key);
    b.sort_by_key(key);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    loop {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if key(x) == key(y) => (i, j) = (i + 1, j + 1),
            (Some(x), Some(y)) if key(x) < key(y) => {
                only_a.push(format!("{} {}", map.power(x.power).name, x.describe(map)));
                i += 1;
            }
            (Some(x), None) => {
                only_a.push(format!("{} {}", map.power(x.power).name, x.describe(map)));
                i += 1;
            }
            (_, Some(y)) => {
                only_b.push(y.describe(map));
                j += 1;
            }
            (None, None) => break,
        }
    }
    only_a.sort();
    only_b.sort();
    UnitDiff { only_a, only_b }
}

/// The verdict an expectation names (an expected failure: [`Verdict::Fails`]).
pub fn expected_verdict(e: Expected) -> Verdict {
    match e {
        Expected::Succeeds => Verdict::Succeeds,
        Expected::Fails => Verdict::Fails,
        Expected::Illegal => Verdict::Illegal,
        Expected::Void => Verdict::Void,
    }
}

fn dislodged_units(p: &PhaseResult) -> Vec<Unit> {
    p.dislodged.iter().map(|d| d.unit).collect()
}

/// Every order's verdict under every preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetTable {
    /// The presets, in [`PRESETS`] order.
    pub presets: Vec<&'static str>,
    /// Per order: its text and its verdict under each preset.
    pub rows: Vec<(String, Vec<Verdict>)>,
}

/// Every preset on one scenario: the verdict of every order under each, and, for each preset
/// whose rules are not the DATC preferences ([`Rules::default`]), what it changes against them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetComparison {
    /// Every order's verdict under every preset.
    pub table: PresetTable,
    /// Per preset other than the DATC preferences, in [`PRESETS`] order: what it changes.
    pub changes: Vec<(&'static str, RuleDiff)>,
}

/// [`PresetComparison`] of a scenario: each preset adjudicated once (and the DATC preferences
/// once, when no preset is they).
pub fn preset_comparison(s: &Scenario) -> Result<PresetComparison, RunError> {
    let orders = Orders::new(s)?;
    let mut runner = orders.runner();
    let presets: Vec<&'static str> = PRESETS.iter().map(|(n, _)| *n).collect();
    let mut rows: Vec<(String, Vec<Verdict>)> = s
        .orders
        .iter()
        .map(|e| (order_text(&s.map, e), Vec::with_capacity(presets.len())))
        .collect();
    let datc = Rules::default();
    let mut runs: Vec<(&'static str, Rules, Kept)> = Vec::with_capacity(presets.len());
    for p in &presets {
        let rules = Rules::preset(p).unwrap_or(s.rules);
        let k = runner.run(&rules);
        for (i, row) in rows.iter_mut().enumerate() {
            row.1.push(k.verdict(i));
        }
        runs.push((p, rules, k));
    }
    let base = match runs.iter().position(|r| r.1 == datc) {
        Some(i) => i,
        None => {
            let k = runner.run(&datc);
            runs.push(("", datc, k));
            runs.len() - 1
        }
    };
    let mut changes = Vec::new();
    if let Some((_, _, b)) = runs.get(base) {
        for (p, rules, k) in &runs {
            if *rules != datc {
                changes.push((*p, runner.compare(b, k, true)));
            }
        }
    }
    Ok(PresetComparison {
        table: PresetTable { presets, rows },
        changes,
    })
}

/// One option value that changes a scenario's result, with how many things it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decider {
    /// The option, as in `--rules`.
    pub field: &'static str,
    /// The value that changes the result.
    pub value: &'static str,
    /// The DATC section that discusses the option.
    pub issue: &'static str,
    /// How many orders, dislodgements and positions differ.
    pub changes: usize,
}

/// Which single changes to the scenario's own rules change its result: for each option, each of
/// its other values.
pub fn deciders(s: &Scenario) -> Result<Vec<Decider>, RunError> {
    let own = s.rules;
    let orders = Orders::new(s)?;
    // Every other value of every option the scenario's phase reads (an option it does not read
    // cannot change its result), each adjudicated once.
    let mut tries: Vec<(&'static str, &'static str, &'static str, Rules)> = Vec::new();
    for c in own.single_changes() {
        if reads(s, &c.row) {
            tries.push((c.row.field, c.value, c.row.issue, c.rules));
        }
    }
    // An option that only the legality step reads changes nothing when that step classes the
    // orders as under the scenario's own rules: only the classing is run for it then.
    let shortcut = s.phase.kind == PhaseKind::Movement && s.retreats.is_none();
    let classed = |r: &Rules| legality::prepare(&s.map, &s.units, orders.orders, r);
    let own_classes = shortcut.then(|| classed(&own));
    // The runs are independent: shared among the cores, each with its own workspace, against
    // the scenario's own result, computed once.
    let base = orders.runner().run(&own);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8)
        .min(tries.len().max(1));
    // Worker w takes tries w, w + workers, … (the cheap and the dear are spread evenly); the
    // results are put back in order.
    let mut found: Vec<(usize, Option<Decider>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (orders, base, own_classes, classed, tries) =
                    (&orders, &base, &own_classes, &classed, &tries);
                scope.spawn(move || {
                    let mut runner = orders.runner();
                    let mut out = Vec::new();
                    for (i, &(field, value, issue, r)) in
                        tries.iter().enumerate().skip(w).step_by(workers)
                    {
                        if LEGALITY_ONLY.contains(&field)
                            && own_classes.as_ref().is_some_and(|p| *p == classed(&r))
                        {
                            out.push((i, None));
                            continue;
                        }
                        let k = runner.run(&r);
                        let d = runner.compare(base, &k, true);
                        out.push((
                            i,
                            (!d.is_empty()).then(|| Decider {
                                field,
                                value,
                                issue,
                                changes: d.len(),
                            }),
                        ));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker that panicked (a bug) passes its panic on.
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    found.sort_by_key(|(i, _)| *i);
    Ok(found.into_iter().filter_map(|(_, d)| d).collect())
}

/// The options of a movement phase that only the legality step ([`legality::prepare`]) reads
/// (and, outside it, only the retreat, adjustment and DPjudge adjudicators; a test checks the
/// source): under the decision engine, a movement phase with no retreats that follow gives the
/// same result under two rule sets that differ in them when its orders are classed alike.
const LEGALITY_ONLY: [&str; 14] = crate::engine::legality::CLASSING_OPTIONS;

/// [`ADJUSTMENT_ONLY`], for the other tools: no change of them changes a movement or retreat
/// phase.
pub(crate) const ADJUSTMENT_OPTIONS: [&str; 6] = ADJUSTMENT_ONLY;

/// The options of the adjustment phase (DATC 4.C.3, 4.C.4, 4.D.4–4.D.6, 4.D.8): only the
/// adjustment adjudicator ([`crate::engine::adjust`]) reads them (a test checks the
/// source), so they cannot change a movement or retreat phase.
const ADJUSTMENT_ONLY: [&str; 6] = [
    "build_missing_type",
    "fleet_build_on_land",
    "too_many_builds",
    "same_province_builds",
    "too_many_disbands",
    "civil_disorder",
];

/// Whether the adjudication of `s` (with the decision engine, as [`diff`] runs it) reads the
/// option of `row`.
fn reads(s: &Scenario, row: &crate::model::rules::OptionRow) -> bool {
    if row.dpjudge_only {
        return false;
    }
    s.phase.kind == PhaseKind::Adjustment || !ADJUSTMENT_ONLY.contains(&row.field)
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    /// The options only the legality step reads.
    pub const LEGALITY_ONLY: [&str; 14] = super::LEGALITY_ONLY;

    /// The options only the adjustment adjudicator reads.
    pub const ADJUSTMENT_ONLY: [&str; 6] = super::ADJUSTMENT_ONLY;
}
