//! Running a scenario and comparing the result with its expectations.

use crate::engine::retreat::adjudicate_retreats;
use crate::engine::{
    Adjudication, DecisionEngine, Engine, EngineError, PhaseInput, PhaseResult, Verdict,
};
use crate::model::board::{PhaseKind, Unit};
use crate::model::map::Map;
use crate::model::orders::OrderKind;
use crate::model::rules::Rules;
use crate::model::scenario::{Expect, Expected, OrderEntry, Scenario};

/// The result of adjudicating a scenario: its own phase, by one engine, and the retreats that
/// follow when the scenario has a `retreats` section.
#[derive(Clone, Debug)]
pub struct Run {
    /// The rules used.
    pub rules: Rules,
    /// The engine's result for the scenario's phase (ask it what else it can show:
    /// [`Adjudication::shows`], [`Adjudication::decisions`], [`Adjudication::procedure`]).
    pub result: Adjudication,
    /// The retreat phase after it, if the scenario has one.
    pub retreats: Option<PhaseResult>,
}

impl Run {
    /// The scenario's phase result: outcomes, final units, dislodged units, standoffs.
    pub fn phase(&self) -> &PhaseResult {
        &self.result.phase
    }
}

/// Why a scenario cannot be run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RunError {
    /// A `retreats` section on a phase that is not a movement phase.
    #[error("{0}")]
    Invalid(String),
    /// The engine gave no result (an outside adjudicator that failed).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// [`adjudicate_scenario`] with the default engine (the decision engine): the convenience.
pub fn run(s: &Scenario, rules: Option<Rules>, trace: bool) -> Result<Run, RunError> {
    adjudicate_scenario(s, rules, &DecisionEngine, trace)
}

/// Adjudicates a scenario: its phase under its own rules, or `rules` when given, by `engine`
/// (`trace` records the engine's own events), then the retreats that follow when the scenario
/// has a `retreats` section (the same for every engine).
pub fn adjudicate_scenario(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
    trace: bool,
) -> Result<Run, RunError> {
    adjudicate_scenario_until(s, rules, engine, trace, None)
}

/// [`adjudicate_scenario`] that the caller can cancel from another thread with `cancel` (see
/// [`PhaseInput::cancel`]): the TUI's worker passes each request's own flag.
pub fn adjudicate_scenario_until(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
    trace: bool,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Run, RunError> {
    let rules = rules.unwrap_or(s.rules);
    check_retreats(s)?;
    let input = PhaseInput {
        cancel,
        ..PhaseInput::of(s, &rules)
    };
    let result = engine.adjudicate(&input, trace)?;
    let retreats = s
        .retreats
        .as_ref()
        .map(|f| retreats_after(s, &result.phase, &f.orders, &rules));
    Ok(Run {
        rules,
        result,
        retreats,
    })
}

/// What `check` asks of a scenario: the lines that say where the result of `engine` (under the
/// scenario's own rules, or `rules`) differs from the expectations, and the number of checks
/// made — the same as [`adjudicate_scenario`] then [`compare`]. The phase is adjudicated for its
/// result alone ([`Engine::verdicts`]: no words, no detail); only when something differs is it
/// adjudicated again in full, so that each line says why.
pub fn verify(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
) -> Result<(Vec<String>, usize), RunError> {
    verify_with(s, rules, engine, Wording::Strict)
}

/// [`verify`] under the wording rule `w`.
pub fn verify_with(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
    w: Wording,
) -> Result<(Vec<String>, usize), RunError> {
    let r = rules.unwrap_or(s.rules);
    check_retreats(s)?;
    let phase = engine.verdicts(&PhaseInput::of(s, &r))?;
    let retreats = s
        .retreats
        .as_ref()
        .map(|f| retreats_after(s, &phase, &f.orders, &r));
    let (bad, n) = compare_results(s, &phase, retreats.as_ref(), w);
    if bad.is_empty() {
        return Ok((bad, n));
    }
    Ok(compare_with(
        s,
        &adjudicate_scenario(s, rules, engine, false)?,
        w,
    ))
}

fn check_retreats(s: &Scenario) -> Result<(), RunError> {
    if s.retreats.is_some() && s.phase.kind != PhaseKind::Movement {
        return Err(RunError::Invalid(
            "`retreats` can only follow a movement phase".into(),
        ));
    }
    Ok(())
}

/// The scenario's follow-up retreats as a retreat phase of their own: the position after the
/// movement phase `run` adjudicated (its units, dislodged units with their attackers, standoffs),
/// the `retreats` section's orders and expectations, and a title that says so. With
/// `run.retreats` as its result it draws and reads like any retreat phase (`render --retreats`,
/// the page's retreat picture). None when the scenario has no `retreats` section.
pub fn retreat_phase(s: &Scenario, run: &Run) -> Option<Scenario> {
    let f = s.retreats.as_ref()?;
    let after = run.phase();
    let mut next = s.clone();
    next.phase.kind = PhaseKind::Retreat;
    next.units = after.final_units.clone();
    next.dislodged = after.dislodged.clone();
    next.contested = after.contested.clone();
    next.orders = f.orders.clone();
    next.expect = f.expect.clone();
    next.retreats = None;
    next.rules = run.rules;
    next.title = if s.title.trim().is_empty() {
        "the retreats".to_string()
    } else {
        format!("{}: the retreats", s.title)
    };
    Some(next)
}

/// The retreat phase that follows `phase` with `orders`.
fn retreats_after(
    s: &Scenario,
    phase: &PhaseResult,
    orders: &[OrderEntry],
    rules: &Rules,
) -> PhaseResult {
    adjudicate_retreats(
        &s.map,
        &phase.final_units,
        &phase.dislodged,
        &phase.contested,
        orders,
        rules,
    )
}

/// How expectations are held against verdicts: word for word, or by effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wording {
    /// Word for word (the default): `Fails` wants `fails`; an order that does not act but is
    /// `void` or `illegal` is a mismatch, said to be one of wording only.
    #[default]
    Strict,
    /// By effect for `Fails`: any verdict but a success meets it (a `void` or `illegal` order
    /// does not act either); `Succeeds`, `Illegal` and `Void` still want their word.
    Lenient,
    /// By effect only: whether each order with an effect of its own (a move, a build, a
    /// removal) is carried out (`Succeeds`) or not (any other word, expected or given); a
    /// support, convoy or hold is judged through the others' results and the board. What
    /// `replay` and `versus` call a difference in effect.
    Effect,
}

/// Whether an actual verdict satisfies an expectation word for word ([`Wording::Strict`]).
pub fn meets(expected: Expected, actual: Verdict) -> bool {
    meets_with(expected, actual, Wording::Strict)
}

/// Whether an actual verdict satisfies an expectation under the wording rule `w`.
pub fn meets_with(expected: Expected, actual: Verdict, w: Wording) -> bool {
    if w == Wording::Effect {
        return (expected == Expected::Succeeds) == (actual == Verdict::Succeeds);
    }
    match expected {
        Expected::Succeeds => actual == Verdict::Succeeds,
        Expected::Fails => match w {
            Wording::Strict => actual == Verdict::Fails,
            Wording::Lenient | Wording::Effect => actual != Verdict::Succeeds,
        },
        Expected::Illegal => actual == Verdict::Illegal,
        Expected::Void => actual == Verdict::Void,
    }
}

/// Whether a missed expectation of the order `kind` is missed in wording only: the order has
/// no effect of its own (a support, a convoy, a hold: what it does shows in the others'
/// results), or it is carried out neither as expected nor as it came out (`expected Fails, got
/// Illegal`).
pub fn wording_only(kind: &OrderKind, expected: Expected, actual: Verdict) -> bool {
    !kind.has_own_effect() || (expected == Expected::Succeeds) == (actual == Verdict::Succeeds)
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
    compare_with(s, run, Wording::Strict)
}

/// [`compare`] under the wording rule `w`.
pub fn compare_with(s: &Scenario, run: &Run, w: Wording) -> (Vec<String>, usize) {
    compare_results(s, run.phase(), run.retreats.as_ref(), w)
}

/// [`compare`] on the phase's result and the retreats' that follow it.
fn compare_results(
    s: &Scenario,
    phase: &PhaseResult,
    retreats: Option<&PhaseResult>,
    w: Wording,
) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut checks = 0;
    if let Some(expect) = &s.expect {
        let (b, n) = compare_phase(&s.map, &s.orders, expect, phase, "", w);
        bad.extend(b);
        checks += n;
    }
    if let (Some(f), Some(r)) = (&s.retreats, retreats)
        && let Some(expect) = &f.expect
    {
        let (b, n) = compare_phase(&s.map, &f.orders, expect, r, "retreats: ", w);
        bad.extend(b);
        checks += n;
    }
    (bad, checks)
}

fn compare_phase(
    map: &Map,
    orders: &[OrderEntry],
    expect: &Expect,
    result: &PhaseResult,
    prefix: &str,
    w: Wording,
) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut checks = 0;
    for (i, _key, exp) in &expect.results {
        checks += 1;
        let (Some(out), Some(order)) = (result.outcomes.get(*i), orders.get(*i)) else {
            bad.push(format!(
                "{prefix}expectation for order {} of {}: no such order",
                i + 1,
                orders.len()
            ));
            continue;
        };
        // By effect, an order without an effect of its own (a support, a convoy, a hold) is
        // judged through the others' results and the board.
        let judged = w != Wording::Effect || order.order.kind.has_own_effect();
        if judged && !meets_with(*exp, out.verdict, w) {
            let words = if wording_only(&order.order.kind, *exp, out.verdict) {
                " — in wording only (`check --wording effect` compares what orders do)"
            } else {
                ""
            };
            bad.push(format!(
                "{prefix}{}: {}: expected {:?}, got {:?} ({}){words}",
                map.power(order.power).name,
                crate::base::text::cut(&order.text),
                exp,
                out.verdict,
                out.reason
            ));
        }
    }
    if let Some(d) = &expect.dislodged {
        checks += 1;
        let key = |u: &Unit| (u.kind, u.loc);
        let want = || d.iter().map(key);
        let got = || result.dislodged.iter().map(|x| key(&x.unit));
        if !same_multiset(want, got) {
            let got_units: Vec<Unit> = result.dislodged.iter().map(|x| x.unit).collect();
            bad.push(format!(
                "{prefix}dislodged: expected {}, got {}",
                describe_set(map, d, false),
                describe_set(map, &got_units, false)
            ));
        }
    }
    if let Some(p) = &expect.positions {
        checks += 1;
        if !same_multiset(|| p.iter().copied(), || result.final_units.iter().copied()) {
            let mut want = p.clone();
            let mut got = result.final_units.clone();
            want.sort();
            got.sort();
            // Both sorted: one merge-like walk finds what each has more of (a unit listed twice
            // where the other has it once is one too many, not nothing).
            let (mut missing, mut extra) = (Vec::new(), Vec::new());
            let (mut i, mut j) = (0, 0);
            while i < want.len() || j < got.len() {
                match (want.get(i), got.get(j)) {
                    (Some(w), Some(g)) if w == g => {
                        i += 1;
                        j += 1;
                    }
                    (Some(w), Some(g)) if w < g => {
                        missing.push(*w);
                        i += 1;
                    }
                    (Some(w), None) => {
                        missing.push(*w);
                        i += 1;
                    }
                    (_, Some(g)) => {
                        extra.push(*g);
                        j += 1;
                    }
                    (None, None) => break,
                }
            }
            bad.push(format!(
                "{prefix}positions: expected but missing: {}; present but not expected: {}",
                describe_set(map, &missing, true),
                describe_set(map, &extra, true)
            ));
        }
    }
    (bad, checks)
}

/// Whether two lists hold the same items as many times each, in any order. Short lists (a
/// DATC case's few units) are sorted on the stack; longer ones on the heap, so two whole boards
/// of 20,000 units compare in n log n.
fn same_multiset<T: Ord + Copy, A, B>(want: impl Fn() -> A, got: impl Fn() -> B) -> bool
where
    A: ExactSizeIterator<Item = T>,
    B: ExactSizeIterator<Item = T>,
{
    let n = want().len();
    if n != got().len() {
        return false;
    }
    const SHORT: usize = 16;
    if n <= SHORT {
        let mut a = [None; SHORT];
        let mut b = [None; SHORT];
        for (slot, x) in a.iter_mut().zip(want()) {
            *slot = Some(x);
        }
        for (slot, x) in b.iter_mut().zip(got()) {
            *slot = Some(x);
        }
        let (Some(a), Some(b)) = (a.get_mut(..n), b.get_mut(..n)) else {
            return false;
        };
        a.sort_unstable();
        b.sort_unstable();
        return a == b;
    }
    let mut a: Vec<T> = want().collect();
    let mut b: Vec<T> = got().collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// What a verdict is expected to be when the verdict itself is frozen as the expectation.
fn expected_of(v: Verdict) -> Expected {
    match v {
        Verdict::Succeeds => Expected::Succeeds,
        Verdict::Fails => Expected::Fails,
        Verdict::Illegal => Expected::Illegal,
        Verdict::Void => Expected::Void,
    }
}

fn expect_of(orders: &[OrderEntry], result: &PhaseResult, movement: bool) -> Expect {
    Expect {
        results: orders
            .iter()
            .zip(&result.outcomes)
            .enumerate()
            .map(|(i, (_, out))| (i, String::new(), expected_of(out.verdict)))
            .collect(),
        dislodged: movement.then(|| result.dislodged.iter().map(|d| d.unit).collect()),
        positions: Some(result.final_units.clone()),
    }
}

/// Makes a run's result the scenario's expectations — every order's verdict, the dislodged units
/// and the final positions, for its phase and for the retreats that follow — so that
/// [`compare`] finds them all met for this run and names what differs after a later change.
pub fn freeze_expectations(s: &mut Scenario, run: &Run) {
    let (phase, retreats) = expectations_of(s, run);
    s.expect = phase;
    if let Some(f) = &mut s.retreats {
        f.expect = retreats;
    }
}

/// The expectations [`freeze_expectations`] sets: the phase's, and the retreats' when the
/// scenario has a `retreats` section.
pub fn expectations_of(s: &Scenario, run: &Run) -> (Option<Expect>, Option<Expect>) {
    let movement = s.phase.kind == PhaseKind::Movement;
    let phase = Some(expect_of(&s.orders, run.phase(), movement));
    let retreats = match (&s.retreats, &run.retreats) {
        (Some(f), Some(rr)) => Some(expect_of(&f.orders, rr, false)),
        (Some(f), None) => f.expect.clone(),
        _ => None,
    };
    (phase, retreats)
}

/// Sorts `6.A.2` before `6.A.10`.
pub fn natural_key(p: &std::path::Path) -> Vec<(String, u64)> {
    let s = p.display().to_string();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut num = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            num.push(c);
        } else {
            if !num.is_empty() {
                out.push((std::mem::take(&mut text), num.parse().unwrap_or(0)));
                num.clear();
            }
            text.push(c);
        }
    }
    out.push((text, num.parse().unwrap_or(0)));
    out
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    /// Whether two lists hold the same items as many times each, in any order.
    pub fn same_multiset<T: Ord + Copy, A, B>(want: impl Fn() -> A, got: impl Fn() -> B) -> bool
    where
        A: ExactSizeIterator<Item = T>,
        B: ExactSizeIterator<Item = T>,
    {
        super::same_multiset(want, got)
    }
}
