//! Running a scenario and comparing the result with its expectations.

use crate::adjudicator::{
    MovementResult, Verdict, adjudicate_movement, adjudicate_movement_traced,
};
use crate::board::{PhaseKind, Unit};
use crate::map::{Map, PowerId};
use crate::orders::Order;
use crate::rules::Rules;
use crate::scenario::{Expect, Expected, OrderEntry, Scenario};

/// The result of running a scenario.
#[derive(Clone, Debug)]
pub struct Run {
    /// The rules used.
    pub rules: Rules,
    /// The movement result.
    pub movement: MovementResult,
    /// The orders as (power, order) pairs, as given to the adjudicator.
    pub orders: Vec<(PowerId, Order)>,
}

/// Why a scenario cannot be run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RunError {
    /// Phases other than movement are not adjudicated yet.
    #[error("{0} phases are not adjudicated yet")]
    Unsupported(String),
}

/// Runs a scenario's movement phase with its rules, or `rules` when given.
pub fn run(s: &Scenario, rules: Option<Rules>, trace: bool) -> Result<Run, RunError> {
    if s.phase.kind != PhaseKind::Movement {
        return Err(RunError::Unsupported(
            format!("{:?}", s.phase.kind).to_lowercase(),
        ));
    }
    if s.retreats.is_some() {
        return Err(RunError::Unsupported("retreat".into()));
    }
    let rules = rules.unwrap_or(s.rules);
    let orders: Vec<(PowerId, Order)> = s
        .orders
        .iter()
        .map(|e| (e.power, e.order.clone()))
        .collect();
    let movement = if trace {
        adjudicate_movement_traced(&s.map, &s.units, &orders, &rules)
    } else {
        adjudicate_movement(&s.map, &s.units, &orders, &rules)
    };
    Ok(Run {
        rules,
        movement,
        orders,
    })
}

/// Whether an actual verdict satisfies an expectation. `Fails` is met by any verdict that is not
/// a success (failed, illegal or void); the others must match exactly.
pub fn meets(expected: Expected, actual: Verdict) -> bool {
    match expected {
        Expected::Succeeds => actual == Verdict::Succeeds,
        Expected::Fails => actual != Verdict::Succeeds,
        Expected::Illegal => actual == Verdict::Illegal,
        Expected::Void => actual == Verdict::Void,
    }
}

fn describe_set(map: &Map, units: &[Unit], owned: bool) -> String {
    if units.is_empty() {
        return "none".into();
    }
    let mut v: Vec<String> = units
        .iter()
        .map(|u| {
            if owned {
                u.describe_owned(map)
            } else {
                u.describe(map)
            }
        })
        .collect();
    v.sort();
    v.join(", ")
}

/// Compares a run with the scenario's expectations; returns one line per mismatch and the number
/// of checks made.
pub fn compare(s: &Scenario, run: &Run) -> (Vec<String>, usize) {
    let Some(expect) = &s.expect else {
        return (Vec::new(), 0);
    };
    compare_phase(&s.map, &s.orders, expect, run)
}

fn compare_phase(
    map: &Map,
    orders: &[OrderEntry],
    expect: &Expect,
    run: &Run,
) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut checks = 0;
    for (i, _key, exp) in &expect.results {
        checks += 1;
        let out = &run.movement.outcomes[*i];
        if !meets(*exp, out.verdict) {
            bad.push(format!(
                "{}: {}: expected {:?}, got {:?} ({})",
                map.power(orders[*i].power).name,
                orders[*i].text,
                exp,
                out.verdict,
                out.reason
            ));
        }
    }
    if let Some(d) = &expect.dislodged {
        checks += 1;
        let key = |u: &Unit| (u.kind, u.loc);
        let mut want: Vec<_> = d.iter().map(key).collect();
        let mut got: Vec<_> = run
            .movement
            .dislodged
            .iter()
            .map(|x| key(&x.unit))
            .collect();
        want.sort();
        got.sort();
        if want != got {
            let got_units: Vec<Unit> = run.movement.dislodged.iter().map(|x| x.unit).collect();
            bad.push(format!(
                "dislodged: expected {}, got {}",
                describe_set(map, d, false),
                describe_set(map, &got_units, false)
            ));
        }
    }
    if let Some(p) = &expect.positions {
        checks += 1;
        let mut want = p.clone();
        let mut got = run.movement.final_units.clone();
        want.sort();
        got.sort();
        if want != got {
            let missing: Vec<Unit> = want.iter().filter(|u| !got.contains(u)).copied().collect();
            let extra: Vec<Unit> = got.iter().filter(|u| !want.contains(u)).copied().collect();
            bad.push(format!(
                "positions: expected but missing: {}; present but not expected: {}",
                describe_set(map, &missing, true),
                describe_set(map, &extra, true)
            ));
        }
    }
    (bad, checks)
}
