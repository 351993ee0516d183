//! Rule diffs: what a change of rules changes in a scenario's result. Two rule sets compared
//! order by order (with both reasons), dislodgement by dislodgement and unit by unit; a table of
//! every order's verdict under every preset; and, for a folder of cases, which single option
//! decides which case.

use crate::adjudicator::Engine;
use crate::adjudicator::{OrderOutcome, PhaseResult, Verdict};
use crate::board::Unit;
use crate::check::{Run, RunError, run, run_with};
use crate::map::Map;
use crate::orders::{NameStyle, format_order};
use crate::rules::{PRESETS, Rules};
use crate::scenario::{OrderEntry, Scenario};

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

fn unit_diff(map: &Map, a: &[Unit], b: &[Unit]) -> UnitDiff {
    let name = |u: &Unit| format!("{} {}", map.power(u.power).name, u.describe(map));
    let mut d = UnitDiff {
        only_a: a.iter().filter(|u| !b.contains(u)).map(name).collect(),
        only_b: b.iter().filter(|u| !a.contains(u)).map(name).collect(),
    };
    d.only_a.sort();
    d.only_b.sort();
    d
}

fn dislodged_units(p: &PhaseResult) -> Vec<Unit> {
    p.dislodged.iter().map(|d| d.unit).collect()
}

/// Compares a scenario's result under two rule sets.
pub fn diff(s: &Scenario, a: Rules, b: Rules) -> Result<RuleDiff, RunError> {
    let ra = run(s, Some(a), false)?;
    let rb = run(s, Some(b), false)?;
    Ok(compare_runs(s, &ra, &rb, true))
}

/// Compares the two engines — the decision model and the DPjudge procedure — on a scenario
/// under `rules` (default: its own): the orders whose verdict differs (each with both
/// reasons; the engines word their reasons differently, so a reason alone does not count), the
/// dislodged units, the final positions and the follow-up retreats.
pub fn diff_engines(s: &Scenario, rules: Option<Rules>) -> Result<RuleDiff, RunError> {
    let ra = run_with(s, rules, Engine::Decisions, false)?;
    let rb = run_with(s, rules, Engine::Dpjudge, false)?;
    Ok(compare_runs(s, &ra, &rb, false))
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
            &ra.phase.outcomes,
            &rb.phase.outcomes,
            reasons,
        ),
        dislodged: unit_diff(
            map,
            &dislodged_units(&ra.phase),
            &dislodged_units(&rb.phase),
        ),
        positions: unit_diff(map, &ra.phase.final_units, &rb.phase.final_units),
        retreats,
    }
}

/// Every order's verdict under every preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetTable {
    /// The presets, in [`PRESETS`] order.
    pub presets: Vec<&'static str>,
    /// Per order: its text and its verdict under each preset.
    pub rows: Vec<(String, Vec<Verdict>)>,
}

/// The verdict of every order under every preset.
pub fn preset_table(s: &Scenario) -> Result<PresetTable, RunError> {
    let presets: Vec<&'static str> = PRESETS.iter().map(|(n, _)| *n).collect();
    let mut rows: Vec<(String, Vec<Verdict>)> = s
        .orders
        .iter()
        .map(|e| (order_text(&s.map, e), Vec::new()))
        .collect();
    for p in &presets {
        let r = run(s, Rules::preset(p), false)?;
        for (row, out) in rows.iter_mut().zip(&r.phase.outcomes) {
            row.1.push(out.verdict);
        }
    }
    Ok(PresetTable { presets, rows })
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
    let mut out = Vec::new();
    for row in own.table() {
        for v in row.values.iter().filter(|v| **v != row.value) {
            let mut r = own;
            if r.set(row.field, v).is_err() {
                continue;
            }
            let d = diff(s, own, r)?;
            if !d.is_empty() {
                out.push(Decider {
                    field: row.field,
                    value: v,
                    issue: row.issue,
                    changes: d.len(),
                });
            }
        }
    }
    Ok(out)
}
