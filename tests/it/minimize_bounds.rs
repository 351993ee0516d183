//! The minimizer on large boards: a first pass that removes whole unrelated
//! regions at once, progress on stderr, and a search that ctrl-c, `--max-runs` or `--max-time`
//! stops while keeping the smallest scenario found so far.
//!
//! No test here measures time: the large boards are sized so that the old search (a full
//! adjudication of the board per ddmin step, and a quadratic look-up of each order's unit) would
//! run for minutes in the debug build, and each test asserts how many adjudications the search
//! took, which the old one could not meet.
//!
//! The boards at those sizes are the slow tier (`cargo test --test it -- --ignored`, which CI
//! runs after `cargo test`); each is also run by a default-tier test on a small board of the same
//! shape with the same assertions (the counts of adjudications do not depend on the size).

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::positions::{Convoys, random_position};
use common::{dipsandbox, temp_dir};
use dipsandbox_core::engine::decision::trace::{BackupRule, Event};
use dipsandbox_core::engine::{Adjudicator, Verdict};
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{Map, PowerId};
use dipsandbox_core::model::orders::{NameStyle, Order, format_order};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::{Expect, Expected, OrderEntry, Scenario};
use dipsandbox_core::tools::check::run;
use dipsandbox_core::tools::minimize::{
    Bounds, Goal, Minimized, Observer, Pass, Progress, Property, Size, Stage, Step, StopReason,
    minimize, minimize_with, regions,
};
use dipsandbox_core::tools::synth::{self, Pattern, Synthetic};
use proptest::prelude::*;

// ---- boards ----

/// A scenario of a synthetic position, on its own map (named `map_ref` when saved).
fn scenario(p: Synthetic, map_ref: &str) -> Scenario {
    let map = Arc::new(p.map);
    let mut s = Scenario::empty(map.clone(), map_ref);
    s.title = format!("{} units", p.units.len());
    s.units = p.units;
    s.orders = p
        .orders
        .into_iter()
        .map(|(power, order)| OrderEntry {
            power,
            text: format_order(&map, &order, NameStyle::Abbr),
            order,
        })
        .collect();
    s
}

/// The bouncing move of block `k` of [`synth::ring_blocks`] expected to succeed: a mismatch for
/// the minimizer to keep (it fails, bouncing on the Betan army that holds).
fn expect_wrongly(s: &mut Scenario, k: usize) -> String {
    // Found by its unit's province: a saved file lists the orders power by power.
    let p = dipsandbox_core::model::map::ProvinceId((4 * k + 2) as u32);
    let i = s
        .orders
        .iter()
        .position(|o| o.order.unit.is_some_and(|u| u.loc.province == p))
        .expect("the block's move");
    s.expect = Some(Expect {
        results: vec![(i, String::new(), Expected::Succeeds)],
        dislodged: None,
        positions: None,
    });
    s.orders[i].text.clone()
}

/// The ring of blocks with one wrong expectation, three quarters of the way round.
fn blocks_with_a_mismatch(n: usize) -> (Scenario, String) {
    let mut s = scenario(synth::ring_blocks(n, false).expect("ring"), "ring.ron");
    let k = s.units.len() / 4 * 3 / 4;
    let text = expect_wrongly(&mut s, k);
    (s, text)
}

fn goal(s: &Scenario, keep: &[&str]) -> Goal {
    Goal {
        keep: keep
            .iter()
            .map(|k| Property::parse(&s.map, k).expect("property"))
            .collect(),
        rules: Rules::default(),
        other: None,
    }
}

/// The backup rules applied to a scenario, from the resolver's trace.
fn backup_rules(s: &Scenario) -> Vec<BackupRule> {
    let r = run(s, None, true).expect("runs");
    let trace = r
        .result
        .decisions()
        .and_then(|m| m.trace.clone())
        .unwrap_or_default();
    trace
        .iter()
        .filter_map(|e| match e {
            Event::BackupApplied { rule, .. } => Some(*rule),
            _ => None,
        })
        .collect()
}

/// The verdict of the order written `text` when the scenario is adjudicated.
fn verdict_of(s: &Scenario, text: &str) -> Option<Verdict> {
    let r = run(s, None, false).expect("runs");
    let i = s.orders.iter().position(|o| o.text == text)?;
    r.phase().outcomes.get(i).map(|o| o.verdict)
}

fn sorted(v: &[Unit]) -> Vec<Unit> {
    let mut v = v.to_vec();
    v.sort();
    v
}

// ---- the regions pass on large boards ----

// 60,000 units in 30,000 unrelated pairs, one of which misses its expectation: the search
// adjudicates the board as a whole a few times, and the pair alone after that. (The old search
// took 37 adjudications of halving boards, after a look-up of each order's unit among all the
// units: 1.8 billion comparisons.)
// Slow tier (its size is what it guards); `a_small_ring_with_one_wrong_expectation_…` runs the
// same on 600 units.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_large_ring_with_one_wrong_expectation_comes_down_to_its_pair_in_a_few_runs() {
    ring_with_one_wrong_expectation(60_000);
}

#[test]
fn a_small_ring_with_one_wrong_expectation_comes_down_to_its_pair_in_a_few_runs() {
    ring_with_one_wrong_expectation(600);
}

fn ring_with_one_wrong_expectation(n: usize) {
    let (s, text) = blocks_with_a_mismatch(n);
    let m = minimize(&s, &goal(&s, &["mismatch"]), &mut |_| {}).expect("minimizes");
    assert_eq!(m.regions, n / 2);
    assert_eq!(m.after.units, 2, "{}", m.scenario.to_ron());
    assert_eq!(m.after.orders, 1);
    assert_eq!(m.scenario.orders[0].text, text);
    assert!(m.runs <= 10, "{} runs", m.runs);
    assert!(m.stopped.is_none());
    assert_eq!(verdict_of(&m.scenario, &text), Some(Verdict::Fails));
}

// One circular movement of three armies on a ring of 40,000 otherwise quiet units: kept whole,
// the rest gone at once.
// Slow tier (its size is what it guards); `a_small_ring_with_one_circular_movement_…` runs the
// same on 400 units.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_large_ring_with_one_circular_movement_comes_down_to_the_circle() {
    ring_with_one_circular_movement(40_000);
}

#[test]
fn a_small_ring_with_one_circular_movement_comes_down_to_the_circle() {
    ring_with_one_circular_movement(400);
}

/// `n` a multiple of eight: the circle's block starts halfway round.
fn ring_with_one_circular_movement(n: usize) {
    let s = scenario(synth::ring_blocks(n, true).expect("ring"), "ring.ron");
    let circle: Vec<Unit> = s.units[n / 2..n / 2 + 3].to_vec();
    let mut steps = Vec::new();
    let m = minimize(&s, &goal(&s, &["backup:circular"]), &mut |st: &Step| {
        steps.push(st.clone())
    })
    .expect("minimizes");
    assert_eq!(sorted(&m.scenario.units), sorted(&circle));
    assert_eq!(m.after.orders, 3);
    assert!(m.runs <= 40, "{} runs", m.runs);
    assert_eq!(
        steps.first().map(|st| (&st.pass, st.after.units)),
        Some((&Pass::Regions, 3))
    );
    assert_eq!(backup_rules(&m.scenario), [BackupRule::CircularMovement]);
}

// The whole ring of 976 armies moving round (the figure of `docs/limits.md`): every unit and every order is
// needed. The backup rule decided every order, so the units and orders passes leave items out
// singly from the start (one adjudication of the board per unit, one per order, with none of
// ddmin's coarser tests, which would all fail); and the holds pass adjudicates nothing, each
// hold being the removal of its order that the orders pass already tried (a unit with no order
// holds). The search before took 8,775 runs: about four per unit in each of the units and orders
// passes, and one per order in the holds pass.
// Slow tier (the size of `docs/limits.md`); `a_small_ring_where_everything_is_needed_…` runs the same on 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_ring_where_everything_is_needed_is_proved_minimal_in_one_run_per_unit_and_order() {
    ring_where_everything_is_needed(976);
}

#[test]
fn a_small_ring_where_everything_is_needed_is_proved_minimal_in_one_run_per_unit_and_order() {
    ring_where_everything_is_needed(100);
}

fn ring_where_everything_is_needed(n: usize) {
    let s = scenario(
        synth::position(Pattern::Ring, n, 0).expect("ring"),
        "ring.ron",
    );
    /// Runs per stage, from the progress reports.
    struct PerStage {
        at: Option<(Stage, usize)>,
        runs: Vec<(Stage, usize)>,
    }
    impl Observer for PerStage {
        fn progress(&mut self, p: &Progress) {
            match self.at {
                Some((stage, from)) if stage == p.stage => {
                    if let Some(last) = self.runs.last_mut() {
                        last.1 = p.runs - from;
                    }
                }
                _ => {
                    self.at = Some((p.stage, p.runs));
                    self.runs.push((p.stage, 0));
                }
            }
        }
    }
    let mut obs = PerStage {
        at: None,
        runs: Vec::new(),
    };
    let m =
        minimize_with(&s, &goal(&s, &["backup"]), &Bounds::default(), &mut obs).expect("minimizes");
    assert!(m.stopped.is_none());
    assert_eq!(
        m.after,
        Size {
            units: n,
            orders: n,
            simplified: 0
        }
    );
    // The input's check, then per pass the empty set and one run per item.
    assert_eq!(
        obs.runs,
        [
            (Stage::Regions, 0),
            (Stage::Units, n + 1),
            (Stage::Orders, n + 1),
            (Stage::Holds, 0),
        ]
    );
    assert_eq!(m.runs, 2 * n + 3);
    assert_eq!(backup_rules(&m.scenario), [BackupRule::CircularMovement]);
}

// An outcome on a large random grid: every unit of the result is in the order's region (the
// regions pass removed everything else), and the order keeps its verdict.
// Slow tier (its size is what it guards); `an_outcome_on_a_small_grid_keeps_only_its_region`
// runs the same on 2,000 units.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn an_outcome_on_a_large_grid_keeps_only_its_region() {
    outcome_on_a_grid(20_000);
}

#[test]
fn an_outcome_on_a_small_grid_keeps_only_its_region() {
    outcome_on_a_grid(2_000);
}

fn outcome_on_a_grid(n: usize) {
    let s = scenario(
        synth::position(Pattern::Grid, n, 7).expect("grid"),
        "grid.ron",
    );
    let r = run(&s, None, false).expect("runs");
    // A move that fails, somewhere in the middle of the board.
    let i = (n / 2..n)
        .find(|&i| {
            matches!(
                s.orders[i].order.kind,
                dipsandbox_core::model::orders::OrderKind::Move { .. }
            ) && r.phase().outcomes[i].verdict == Verdict::Fails
        })
        .expect("a failing move");
    let text = s.orders[i].text.clone();
    let spec = format!("outcome:{text}=fails");
    let m = minimize(&s, &goal(&s, &[&spec]), &mut |_| {}).expect("minimizes");
    let regions = regions(&s);
    let region = regions.order[i];
    for u in &m.scenario.units {
        let j = s.units.iter().position(|x| x == u).expect("an input unit");
        assert_eq!(
            regions.unit[j], region,
            "{u:?} is outside the order's region"
        );
    }
    assert_eq!(verdict_of(&m.scenario, &text), Some(Verdict::Fails));
    assert!(m.runs < 200, "{} runs", m.runs);
}

// ---- bounds and interruption, in the library ----

/// Counts progress reports and sets a stop flag after `after` of them (a ctrl-c in the middle
/// of the search).
struct StopAfter {
    flag: Arc<AtomicBool>,
    after: usize,
    seen: Vec<Progress>,
}

impl Observer for StopAfter {
    fn progress(&mut self, p: &Progress) {
        self.seen.push(*p);
        if self.seen.len() >= self.after {
            self.flag.store(true, Ordering::Relaxed);
        }
    }
}

/// The smallest-so-far of a stopped search is a real reduction that keeps the property and is
/// no larger than the input.
fn assert_valid_partial(m: &Minimized, input: &Scenario) {
    assert!(m.stopped.is_some());
    assert!(m.after.units <= m.before.units && m.after.orders <= m.before.orders);
    assert_eq!(m.before.units, input.units.len());
    // Looked up in the sorted input (a search of the list per unit was 16 million comparisons
    // on the 4,000-unit board).
    let all = sorted(&input.units);
    for u in &m.scenario.units {
        assert!(all.binary_search(u).is_ok(), "{u:?} is not an input unit");
    }
    assert!(
        m.scenario.description.contains("stopped early"),
        "{}",
        m.scenario.description
    );
}

// The whole ring moving round: every unit is needed, the worst case for ddmin (quadratic in the
// ring's length). A bound on the number of adjudications stops it exactly there, with the
// circle intact.
#[test]
fn max_runs_stops_a_search_that_cannot_remove_anything() {
    let s = scenario(
        synth::position(Pattern::Ring, 1_000, 0).expect("ring"),
        "ring.ron",
    );
    let bounds = Bounds {
        max_runs: Some(25),
        ..Bounds::default()
    };
    let m = minimize_with(
        &s,
        &goal(&s, &["backup:circular"]),
        &bounds,
        &mut |_: &Step| {},
    )
    .expect("minimizes");
    assert_valid_partial(&m, &s);
    let st = m.stopped.expect("stopped");
    assert_eq!(st.reason, StopReason::MaxRuns(25));
    assert_eq!((st.stage, st.round), (Stage::Units, 1));
    assert_eq!(m.runs, 25);
    assert_eq!(m.after.units, 1_000);
    assert_eq!(backup_rules(&m.scenario), [BackupRule::CircularMovement]);
}

// A stop flag set (as ctrl-c sets it) at several points of the search: before its first step
// (the input comes back), after the regions pass (the pair and both its orders), in the units
// pass. Each result still misses the expectation the same way.
#[test]
fn a_stop_flag_keeps_the_smallest_scenario_found_so_far() {
    let (s, text) = blocks_with_a_mismatch(4_000);
    for (after, units, orders) in [(1usize, 4_000, 4_000), (3, 2, 2), (6, 2, 2)] {
        let flag = Arc::new(AtomicBool::new(false));
        let mut obs = StopAfter {
            flag: flag.clone(),
            after,
            seen: Vec::new(),
        };
        let bounds = Bounds {
            stop: Some(flag),
            ..Bounds::default()
        };
        let m = minimize_with(&s, &goal(&s, &["mismatch"]), &bounds, &mut obs).expect("minimizes");
        assert_valid_partial(&m, &s);
        assert_eq!(m.stopped.map(|st| st.reason), Some(StopReason::Interrupted));
        assert_eq!(
            (m.after.units, m.after.orders),
            (units, orders),
            "after {after}"
        );
        assert_eq!(verdict_of(&m.scenario, &text), Some(Verdict::Fails));
        assert!(
            m.witness
                .iter()
                .any(|w| w.starts_with(&format!("{text}: expected Succeeds, got Fails"))),
            "{:?}",
            m.witness
        );
        // The best size reported only goes down, and ends at the result's.
        for w in obs.seen.windows(2) {
            assert!(w[1].best.units <= w[0].best.units);
        }
        assert_eq!(obs.seen.last().map(|p| p.best), Some(m.after));
    }
}

// A time bound already passed when the input is checked: the input itself comes back, frozen,
// and marked as stopped.
#[test]
fn max_time_zero_gives_back_the_input() {
    let (s, _) = blocks_with_a_mismatch(400);
    let bounds = Bounds {
        max_time: Some(Duration::ZERO),
        ..Bounds::default()
    };
    let m = minimize_with(&s, &goal(&s, &["mismatch"]), &bounds, &mut |_: &Step| {})
        .expect("minimizes");
    assert_valid_partial(&m, &s);
    assert_eq!(
        m.stopped.map(|st| (st.reason, st.stage)),
        Some((StopReason::MaxTime(Duration::ZERO), Stage::Regions))
    );
    assert_eq!(m.after, m.before);
    assert_eq!(m.runs, 1);
}

// Without bounds, the search is the same as before bounds existed: 1-minimal and not stopped.
#[test]
fn unbounded_searches_are_not_stopped() {
    let (s, _) = blocks_with_a_mismatch(40);
    let m = minimize_with(
        &s,
        &goal(&s, &["mismatch"]),
        &Bounds::default(),
        &mut |_: &Step| {},
    )
    .expect("minimizes");
    assert!(m.stopped.is_none());
    assert_eq!(
        m.after,
        Size {
            units: 2,
            orders: 1,
            simplified: 0
        }
    );
    assert!(!m.scenario.description.contains("stopped"));
}

// ---- the command line ----

/// A map file for [`synth::ring_blocks`] (`n` a multiple of four), with the circle's chord when
/// `circle`; [`synth::position`]'s ring when `plain`. Same provinces in the same order, same
/// powers, so that synthetic positions read on it unchanged.
fn map_text(n: usize, chord: Option<usize>) -> String {
    let mut s = String::from("Map(\n    name: \"ring\",\n    title: \"Ring\",\n    powers: [\n");
    for (name, adj) in synth::POWERS {
        let _ = writeln!(
            s,
            "        Power(name: \"{name}\", adjective: \"{adj}\", home: [], start: []),"
        );
    }
    s.push_str("    ],\n    provinces: [\n");
    for i in 0..n {
        let mut army = vec![
            format!("\"p{}\"", (i + n - 1) % n),
            format!("\"p{}\"", (i + 1) % n),
        ];
        if let Some(c) = chord {
            if i == c {
                army.push(format!("\"p{}\"", c + 2));
            }
            if i == c + 2 {
                army.push(format!("\"p{c}\""));
            }
        }
        let _ = writeln!(
            s,
            "        Province(abbr: \"p{i}\", name: \"Province {i}\", kind: Land, supply_center: false, army: [{}]),",
            army.join(", ")
        );
    }
    s.push_str("    ],\n)\n");
    s
}

/// Writes a synthetic position and its map into `dir`: the scenario file's path.
fn write_board(dir: &Path, name: &str, p: Synthetic, chord: Option<usize>) -> PathBuf {
    let n = p.map.province_count();
    let map_path = dir.join(format!("{name}.map.ron"));
    std::fs::write(&map_path, map_text(n, chord)).expect("map written");
    let map = Map::load(&map_path.display().to_string()).expect("map loads");
    assert_eq!(map.province_count(), n);
    let mut s = scenario(
        Synthetic {
            map,
            units: p.units,
            orders: p.orders,
        },
        &format!("{name}.map.ron"),
    );
    s.map_file = Some(std::fs::canonicalize(&map_path).expect("map path"));
    let path = dir.join(format!("{name}.ron"));
    s.save(&path).expect("scenario saved");
    path
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The ring of blocks with a wrong expectation, as files: the scenario and the order's text.
fn blocks_file(dir: &Path, n: usize) -> (PathBuf, String) {
    let path = write_board(
        dir,
        "blocks",
        synth::ring_blocks(n, false).expect("ring"),
        None,
    );
    let mut s = Scenario::load(&path).expect("loads");
    let text = expect_wrongly(&mut s, n / 4 * 3 / 4);
    s.save(&path).expect("saved");
    (path, text)
}

/// The whole ring moving round, as files.
fn circle_file(dir: &Path, n: usize) -> PathBuf {
    write_board(
        dir,
        "circle",
        synth::position(Pattern::Ring, n, 0).expect("ring"),
        None,
    )
}

// The large board from the command line: the regions go at once, and the output shows the
// mismatch. (Progress lines are not written when stderr is not a terminal.)
// Slow tier (its size is what it guards); `the_command_line_brings_a_small_ring_down_at_once`
// runs the same on 400 units.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_command_line_brings_a_large_ring_down_at_once() {
    command_line_brings_a_ring_down(20_000, "r2-min-large");
}

#[test]
fn the_command_line_brings_a_small_ring_down_at_once() {
    command_line_brings_a_ring_down(400, "r2-min-small");
}

fn command_line_brings_a_ring_down(n: usize, name: &str) {
    let dir = temp_dir(name);
    let (input, text) = blocks_file(&dir, n);
    let out = dir.join("small.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "mismatch",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        format!("regions: units {n} → 2 (orders {n} → 2)\norders 2 → 1\n")
    );
    assert!(
        stdout.contains(&format!(
            "minimized: {n} units, {n} orders → 2 units, 1 order ("
        )),
        "{stdout}"
    );
    let small = Scenario::load(&out).expect("output loads");
    assert_eq!(verdict_of(&small, &text), Some(Verdict::Fails));
}

// `--max-runs`: the search stops after that many adjudications, writes the smallest scenario
// found so far, says so on stderr and exits with status 3; the file keeps the property.
#[test]
fn max_runs_writes_the_best_so_far_and_exits_3() {
    let dir = temp_dir("r2-min-max-runs");
    let input = circle_file(&dir, 600);
    let out = dir.join("small.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "backup:circular",
        "--max-runs",
        "20",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "stopped at --max-runs 20 in the units pass of round 1: the result is the smallest scenario found so far that keeps every property; a smaller one may too"
        ),
        "{stderr}"
    );
    assert!(
        stdout.contains("minimized: 600 units, 600 orders → 600 units, 600 orders (20 runs, "),
        "{stdout}"
    );
    assert!(
        stdout.contains("kept: Circular movement rule applied: A P0 - P1, "),
        "{stdout}"
    );
    assert!(stdout.contains(" and 588 more\n"), "{stdout}");
    let small = Scenario::load(&out).expect("output loads");
    assert_eq!(backup_rules(&small), [BackupRule::CircularMovement]);
    assert!(small.description.contains("stopped early"));
    let (code, out, _) = dipsandbox(&["check", arg(&out)]);
    assert_eq!(code, 0, "{out}");
}

// On a board where regions can go, a bound after two runs (the input's check and the region of
// the mismatch) already leaves the pair, with its order not yet cut: smaller than the input,
// larger than the end.
#[test]
fn max_runs_keeps_what_the_runs_so_far_found() {
    let dir = temp_dir("r2-min-partial");
    let (input, text) = blocks_file(&dir, 400);
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "mismatch",
        "--max-runs",
        "2",
    ]);
    assert_eq!(code, 3, "{stderr}");
    // Stopped before the units pass could begin.
    assert!(
        stderr.contains("stopped at --max-runs 2 in the regions pass:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("minimized: 400 units, 400 orders → 2 units, 2 orders (2 runs, "),
        "{stderr}"
    );
    // The scenario goes to stdout, whole.
    let small = Scenario::from_ron(&stdout, &dir.join("x.ron").display().to_string())
        .expect("printed scenario loads");
    assert_eq!(small.units.len(), 2);
    assert_eq!(verdict_of(&small, &text), Some(Verdict::Fails));
}

// `--max-time`: stops once the time is up (here before the first step); its syntax is checked.
#[test]
fn max_time_stops_and_its_syntax_is_checked() {
    let dir = temp_dir("r2-min-max-time");
    let input = circle_file(&dir, 300);
    let out = dir.join("small.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "backup",
        "--max-time",
        "0.000001",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(
        stderr.contains("stopped at --max-time 0.000001 in the regions pass after 1 run:"),
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    assert!(!stderr.contains("progress:"), "{stderr}");
    assert_eq!(Scenario::load(&out).expect("loads").units.len(), 300);
    for (bad, why) in [
        ("0", "expected a positive number of seconds"),
        ("-1", "expected a positive number of seconds"),
        ("NaN", "expected a positive number of seconds"),
        (
            "soon",
            "expected a number of seconds, e.g. 10 or 0.5; found \"soon\"",
        ),
        ("1e300", "\"1e300\" seconds is too long to wait"),
    ] {
        let (code, _, err) = dipsandbox(&[
            "minimize",
            arg(&input),
            "--keep",
            "backup",
            &format!("--max-time={bad}"),
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains(why), "{bad}: {err}");
    }
}

// `--progress` off a terminal: a line at the start of each pass (and one a second).
#[test]
fn progress_on_request_goes_to_stderr_only() {
    let dir = temp_dir("r2-min-progress");
    let (input, _) = blocks_file(&dir, 400);
    let out = dir.join("small.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "mismatch",
        "--progress",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let passes: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("progress: "))
        .collect();
    assert!(
        passes
            .first()
            .is_some_and(|l| l.starts_with("regions pass: 400 units, 400 orders; 1 run")),
        "{stderr}"
    );
    assert!(
        passes
            .iter()
            .any(|l| l.starts_with("units pass, round 1: 2 units, 2 orders; 2 runs")),
        "{stderr}"
    );
    assert!(!stdout.contains("pass"), "{stdout}");
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
}

// Ctrl-c in the middle of a long search (its units pass alone is about 2,000 adjudications of
// the 1,000-unit ring: seconds in the debug build, the signal comes as it starts): the search
// stops, the smallest scenario so far is written, and the exit status is 3.
#[cfg(unix)]
#[test]
fn sigint_stops_the_search_and_writes_the_best_so_far() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::Instant;

    let dir = temp_dir("r2-min-sigint");
    let input = circle_file(&dir, 1_000);
    let out = dir.join("small.ron");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args([
            "minimize",
            arg(&input),
            "--keep",
            "backup:circular",
            "--progress",
            "-o",
            arg(&out),
        ])
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    // Wait until the search is under way (its first progress line of the units pass).
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !lines
        .iter()
        .any(|l: &String| l.starts_with("progress: units pass"))
    {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(l) => lines.push(l),
            Err(_) if Instant::now() < deadline => {}
            Err(_) => {
                let _ = child.kill();
                panic!("no progress: {lines:?}");
            }
        }
    }
    let pid = child.id().to_string();
    let sent = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the search did not stop");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    while let Ok(l) = rx.recv_timeout(Duration::from_secs(5)) {
        lines.push(l);
    }
    let err = lines.join("\n");
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(
        err.contains("interrupted (ctrl-c) in the units pass of round 1 after "),
        "{err}"
    );
    let small = Scenario::load(&out).expect("the best so far is written");
    assert_eq!(small.units.len(), 1_000);
    assert_eq!(backup_rules(&small), [BackupRule::CircularMovement]);
}

// On a terminal the status line is redrawn in place and cleared before the summary.
#[cfg(unix)]
#[test]
fn on_a_terminal_the_status_line_is_redrawn_in_place() {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::Read;

    let dir = temp_dir("r2-min-tty");
    // Large enough that no build (an optimised one included) finishes within the time limit:
    // the run must be stopped by it (exit 3) for the test to see the status line.
    let input = circle_file(&dir, 3000);
    let out = dir.join("small.ron");
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pseudo-terminal");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_dipsandbox"));
    cmd.args([
        "minimize",
        arg(&input),
        "--keep",
        "backup",
        "--max-time",
        "1.5",
        "-o",
        arg(&out),
    ]);
    cmd.env("RUST_BACKTRACE", "0");
    let mut child = pty.slave.spawn_command(cmd).expect("binary starts");
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().expect("reader");
    let reading = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&all).into_owned()
    });
    let status = child.wait().expect("child ends");
    drop(pty.master);
    let text = reading.join().expect("reader ends");
    assert_eq!(status.exit_code(), 3, "{text:?}");
    assert!(
        text.contains("\r\x1b[Kunits pass, round 1: 3000 units, 3000 orders; "),
        "{text:?}"
    );
    // Cleared before the summary: the summary starts a line of its own.
    let summary = text.find("kept: ").expect("summary");
    assert!(text[..summary].ends_with("\r\x1b[K"), "{text:?}");
}

// ---- the regions pass never removes what matters ----

/// Two or three random dense positions on the standard map, on provinces of their own.
fn random_board(seed: u64) -> Scenario {
    let map = Arc::new(Map::standard());
    let mut s = Scenario::empty(map.clone(), "standard");
    let mut taken = vec![false; map.province_count()];
    for k in 0..(2 + seed % 2) {
        let (units, orders) =
            random_position(seed.wrapping_mul(3).wrapping_add(k), Convoys::Included);
        let mut kept = Vec::new();
        for u in units {
            let p = map.province_of(u.loc).0 as usize;
            if !taken[p] {
                taken[p] = true;
                kept.push(u);
            }
        }
        for (power, order) in orders {
            let here = order.unit.map(|u| u.loc.province);
            if here.is_some_and(|p| kept.iter().any(|u| map.province_of(u.loc) == p)) {
                s.orders.push(OrderEntry {
                    power,
                    text: format_order(&map, &order, NameStyle::Full),
                    order,
                });
            }
        }
        s.units.extend(kept);
    }
    s
}

/// The scenario with only the units and orders of one region.
fn only_region(s: &Scenario, region: usize) -> Scenario {
    let r = regions(s);
    let mut t = s.clone();
    t.units = s
        .units
        .iter()
        .zip(&r.unit)
        .filter(|(_, x)| **x == region)
        .map(|(u, _)| *u)
        .collect();
    t.orders = s
        .orders
        .iter()
        .zip(&r.order)
        .filter(|(_, x)| **x == region)
        .map(|(o, _)| o.clone())
        .collect();
    t
}

/// Cases per property test: 48, or `R2_MINIMIZE_CASES` for a longer hunt.
fn cases() -> u32 {
    std::env::var("R2_MINIMIZE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    // What a region's orders do, and what becomes of its units, does not depend on the rest of
    // the board: adjudicated alone, each region gives the same verdicts, the same reasons and
    // the same fates as on the whole board, and the backup rules of the whole board are those of
    // its regions; under every preset's rules.
    #[test]
    fn a_region_adjudicated_alone_gives_the_same_results(seed in any::<u64>(), preset in 0usize..6) {
        let mut s = random_board(seed);
        let name = ["datc", "2023", "2000", "1982", "1971", "dptg"][preset];
        s.rules = Rules::parse_spec(name).expect("preset");
        let whole = run(&s, None, true).expect("runs");
        let r = regions(&s);
        let mut rules_whole = backup_rules(&s);
        let mut rules_parts = Vec::new();
        for region in 0..r.count {
            let t = only_region(&s, region);
            let alone = run(&t, None, false).expect("runs");
            let mut k = 0;
            for (i, o) in s.orders.iter().enumerate() {
                if r.order[i] != region {
                    continue;
                }
                let (a, b) = (&whole.phase().outcomes[i], &alone.phase().outcomes[k]);
                prop_assert_eq!(a.verdict, b.verdict, "{}", o.text);
                prop_assert_eq!(&a.reason, &b.reason, "{}", o.text);
                k += 1;
            }
            let ends_whole = &whole.result.decisions().expect("movement").units;
            let ends_alone = &alone.result.decisions().expect("movement").units;
            let mut k = 0;
            for (j, u) in s.units.iter().enumerate() {
                if r.unit[j] != region {
                    continue;
                }
                prop_assert_eq!(ends_whole[j].ends, ends_alone[k].ends, "{:?}", u);
                k += 1;
            }
            rules_parts.extend(backup_rules(&t));
        }
        rules_whole.sort_by_key(|b| b.name());
        rules_whole.dedup();
        rules_parts.sort_by_key(|b| b.name());
        rules_parts.dedup();
        prop_assert_eq!(rules_whole, rules_parts);
    }

    // Keeping an order's verdict: the result is no larger than the input, the order has the
    // same verdict in it (adjudicated here, not by the minimizer), and every unit left is in
    // the order's region.
    #[test]
    fn minimizing_keeps_the_property_and_only_the_region_that_matters(seed in any::<u64>(), pick in any::<usize>()) {
        let s = random_board(seed);
        prop_assume!(!s.orders.is_empty());
        let whole = run(&s, None, false).expect("runs");
        let i = pick % s.orders.len();
        let order: &Order = &s.orders[i].order;
        let verdict = whole.phase().outcomes[i].verdict;
        let word = match verdict {
            Verdict::Succeeds => "succeeds",
            Verdict::Fails => "fails",
            Verdict::Illegal => "illegal",
            Verdict::Void => "void",
        };
        let text = format_order(&s.map, order, NameStyle::Full);
        let power = s.map.power(s.orders[i].power).name.clone();
        let spec = format!("outcome:{power}: {text}={word}");
        // An order given twice by one power is found at its first copy.
        let first = s.orders.iter().position(|e| e.order == *order && e.power == s.orders[i].power);
        prop_assume!(first == Some(i));
        let m = minimize(&s, &goal(&s, &[&spec]), &mut |_| {}).expect("minimizes");
        prop_assert!(m.after.units <= m.before.units && m.after.orders <= m.before.orders);
        let after = run(&m.scenario, None, false).expect("runs");
        let at = m.scenario.orders.iter().position(|e| e.order == *order && e.power == s.orders[i].power);
        prop_assert!(at.is_some(), "the order is gone");
        prop_assert_eq!(after.phase().outcomes[at.unwrap_or(0)].verdict, verdict);
        let r = regions(&s);
        for u in &m.scenario.units {
            let j = s.units.iter().position(|x| x == u).expect("an input unit");
            prop_assert_eq!(r.unit[j], r.order[i], "{:?}", u);
        }
    }
}

/// The orders of a scenario as the adjudicator takes them.
fn submitted(s: &Scenario) -> Vec<(PowerId, Order)> {
    s.orders
        .iter()
        .map(|e| (e.power, e.order.clone()))
        .collect()
}

/// Preset `k` of the rules (by index, modulo their number).
fn preset(k: usize) -> Rules {
    let (name, _) =
        dipsandbox_core::model::rules::PRESETS[k % dipsandbox_core::model::rules::PRESETS.len()];
    Rules::parse_spec(name).expect("preset")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    // The minimizer's quick turn-down of a backup property: `backup_decides` says what a full
    // adjudication says of the backup rules (it answers false early only where the decisions
    // have no cycle), and when it says yes the results are the full adjudication's.
    #[test]
    fn backup_decides_agrees_with_a_full_adjudication(seed in any::<u64>(), k in 0usize..16) {
        let s = random_board(seed);
        let rules = preset(k);
        let orders = submitted(&s);
        let mut full = Adjudicator::new();
        full.adjudicate(&s.map, &s.units, &orders, &rules);
        let mut quick = Adjudicator::new();
        let decides = quick.backup_decides(&s.map, &s.units, &orders, &rules);
        prop_assert_eq!(decides, full.backup_applied());
        if decides {
            prop_assert_eq!(quick.outcomes(), full.outcomes());
            prop_assert_eq!(quick.units(), full.units());
        }
    }

    // An order that is the only one naming a unit in its province, made a hold, is the same
    // adjudication as the order removed (what lets the holds pass skip the holds whose removal
    // the orders pass tried): the same backup rules, the same fate for every unit, the same
    // outcome for every other order; under every preset's rules.
    #[test]
    fn an_order_made_a_hold_is_the_order_removed(seed in any::<u64>(), k in 0usize..16) {
        let s = random_board(seed);
        let rules = preset(k);
        let orders = submitted(&s);
        let province = |o: &Order| o.unit.map(|u| u.loc.province);
        for (i, (power, order)) in orders.iter().enumerate() {
            let alone = orders
                .iter()
                .filter(|(_, o)| province(o) == province(order))
                .count()
                == 1;
            let Some(unit) = order.unit else { continue };
            if !alone {
                continue;
            }
            let mut removed = orders.clone();
            removed.remove(i);
            let mut held = orders.clone();
            held[i] = (
                *power,
                Order {
                    power: order.power,
                    unit: Some(unit),
                    kind: dipsandbox_core::model::orders::OrderKind::Hold,
                },
            );
            let mut a = Adjudicator::new();
            let mut b = Adjudicator::new();
            a.adjudicate(&s.map, &s.units, &removed, &rules);
            b.adjudicate(&s.map, &s.units, &held, &rules);
            prop_assert_eq!(a.backup_applied(), b.backup_applied(), "{}", s.orders[i].text);
            prop_assert_eq!(a.units(), b.units(), "{}", s.orders[i].text);
            let others: Vec<_> = b
                .outcomes()
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| o)
                .collect();
            prop_assert_eq!(a.outcomes().iter().collect::<Vec<_>>(), others, "{}", s.orders[i].text);
        }
    }
}

// `backup_decides` on the ring (a cycle: yes, with the full results) and on the ring with one
// army gone (a chain: no, nothing resolved).
#[test]
fn backup_decides_on_a_ring_and_a_chain() {
    let p = synth::position(Pattern::Ring, 12, 0).expect("ring");
    let rules = Rules::default();
    let mut adj = Adjudicator::new();
    assert!(adj.backup_decides(&p.map, &p.units, &p.orders, &rules));
    assert_eq!(adj.outcomes().len(), 12);
    assert!(
        adj.outcomes()
            .iter()
            .all(|o| o.verdict == Verdict::Succeeds)
    );
    assert!(!adj.backup_decides(&p.map, &p.units[1..], &p.orders[1..], &rules));
    assert!(adj.outcomes().is_empty());
    assert!(adj.units().is_empty());
    adj.adjudicate(&p.map, &p.units[1..], &p.orders[1..], &rules);
    assert!(!adj.backup_applied());
    assert_eq!(adj.outcomes().len(), 11);
}

// Found by the property test above: an army's move to a province it does not border is legal
// only if fleets at sea could convoy it, ordered to or not; so the fleets of the seas around
// it are in its region, and minimizing keeps one that no order names.
#[test]
fn a_move_that_needs_a_convoy_keeps_the_fleets_at_sea() {
    let s = Scenario::from_ron(
        r#"Scenario(
            title: "A move by convoy without a convoy order",
            phase: "Spring 1901 Movement",
            units: {
                "France": ["A Brest", "F Mid-Atlantic Ocean"],
                "Russia": ["A Moscow"],
            },
            orders: {
                "France": ["A Brest - Portugal", "F Mid-Atlantic Ocean Hold"],
                "Russia": ["A Moscow - Warsaw"],
            },
        )"#,
        "convoy",
    )
    .expect("loads");
    assert_eq!(verdict_of(&s, "A Brest - Portugal"), Some(Verdict::Fails));
    let r = regions(&s);
    assert_eq!(r.unit[0], r.unit[1]);
    assert_ne!(r.unit[0], r.unit[2]);
    let m = minimize(
        &s,
        &goal(&s, &["outcome:A Brest - Portugal=fails"]),
        &mut |_| {},
    )
    .expect("minimizes");
    assert_eq!(sorted(&m.scenario.units), sorted(&s.units[..2]));
    assert_eq!(m.after.orders, 1);
    // Without the fleet the move is not a failed move but an illegal one.
    let mut alone = s.clone();
    alone.units.remove(1);
    alone.orders.remove(1);
    assert_eq!(
        verdict_of(&alone, "A Brest - Portugal"),
        Some(Verdict::Illegal)
    );
}

// The regions of a small board: a unit and the orders that name it are together; unrelated
// pairs are apart; in an adjustment phase a power's units are one region.
#[test]
fn regions_of_a_small_ring_and_of_an_adjustment() {
    let s = scenario(synth::ring_blocks(16, false).expect("ring"), "ring.ron");
    let r = regions(&s);
    assert_eq!(r.count, 8);
    assert_eq!(r.unit[0], r.unit[1]);
    assert_eq!(r.unit[2], r.unit[3]);
    assert_ne!(r.unit[1], r.unit[2]);
    assert_ne!(r.unit[3], r.unit[4]);
    assert_eq!(r.order, r.unit);
    let mut adj = s.clone();
    adj.phase.kind = dipsandbox_core::model::board::PhaseKind::Adjustment;
    adj.orders.clear();
    let r = regions(&adj);
    // Alphan units (three of each block) and Betan ones (the fourth).
    assert_eq!(r.count, 2);
    assert!(
        adj.units
            .iter()
            .zip(&r.unit)
            .all(|(u, x)| *x == usize::from(u.power != PowerId(0)))
    );
}

// Progress reports carry the pass: regions first (round 0), then rounds of units, orders and
// holds.
#[test]
fn progress_reports_follow_the_passes() {
    let (s, _) = blocks_with_a_mismatch(40);
    struct Passes(Vec<(Stage, usize)>);
    impl Observer for Passes {
        fn progress(&mut self, p: &Progress) {
            if self.0.last() != Some(&(p.stage, p.round)) {
                self.0.push((p.stage, p.round));
            }
        }
    }
    let mut passes = Passes(Vec::new());
    minimize_with(
        &s,
        &goal(&s, &["mismatch"]),
        &Bounds::default(),
        &mut passes,
    )
    .expect("minimizes");
    assert_eq!(
        passes.0,
        [
            (Stage::Regions, 0),
            (Stage::Units, 1),
            (Stage::Orders, 1),
            (Stage::Holds, 1),
            (Stage::Units, 2),
            (Stage::Orders, 2),
            (Stage::Holds, 2),
        ]
    );
}
