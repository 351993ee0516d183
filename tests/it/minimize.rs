//! The minimizer as a user meets it: `dipsandbox minimize` on a padded Pandin's paradox and
//! other inputs, its output checked with `dipsandbox check`, `explain` and `diff`; and the
//! library's ddmin and minimizer checked for 1-minimality.

use crate::common;

use std::path::{Path, PathBuf};

use common::{dipsandbox, temp_dir};
use dipsandbox_core::engine::Verdict;
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::orders::{parse_order, parse_unit};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::{Expected, Scenario};
use dipsandbox_core::tools::check::{compare, freeze_expectations, run};
use dipsandbox_core::tools::edit::{Edit, Editor};
use dipsandbox_core::tools::minimize::{Goal, MinimizeError, Pass, Property, ddmin, minimize};
use proptest::prelude::*;

/// Twenty units of four powers far from the English Channel (the Balkans, Russia, Turkey, the
/// Mediterranean), with real orders among themselves: moves, supports, holds, a standoff, a
/// chain of moves. No cycle: nothing here calls for a backup rule.
const PADDING: &[(&str, &str, &str)] = &[
    ("Austria", "A Vienna", "A Vienna - Bohemia"),
    ("Austria", "A Budapest", "A Budapest Supports A Galicia"),
    ("Austria", "A Galicia", "A Galicia Hold"),
    ("Austria", "F Trieste", "F Trieste - Adriatic Sea"),
    ("Austria", "A Serbia", "A Serbia - Bulgaria"),
    ("Russia", "A Warsaw", "A Warsaw - Galicia"),
    (
        "Russia",
        "A Ukraine",
        "A Ukraine Supports A Warsaw - Galicia",
    ),
    ("Russia", "A Moscow", "A Moscow Hold"),
    ("Russia", "F Sevastopol", "F Sevastopol - Black Sea"),
    (
        "Russia",
        "F Rumania",
        "F Rumania Supports F Sevastopol - Black Sea",
    ),
    ("Turkey", "F Ankara", "F Ankara - Black Sea"),
    ("Turkey", "A Constantinople", "A Constantinople - Bulgaria"),
    ("Turkey", "A Smyrna", "A Smyrna - Syria"),
    (
        "Turkey",
        "F Aegean Sea",
        "F Aegean Sea Supports A Constantinople - Bulgaria",
    ),
    ("Turkey", "A Armenia", "A Armenia Hold"),
    (
        "Italy",
        "F Ionian Sea",
        "F Ionian Sea - Eastern Mediterranean",
    ),
    ("Italy", "F Naples", "F Naples - Ionian Sea"),
    ("Italy", "A Rome", "A Rome - Apulia"),
    ("Italy", "A Venice", "A Venice Supports A Rome - Apulia"),
    ("Italy", "F Tyrrhenian Sea", "F Tyrrhenian Sea Hold"),
];

fn pandin() -> Scenario {
    Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("6.F.16 loads")
}

/// DATC 6.F.16 with the padding placed and ordered through the editor, as an author would, and
/// the result frozen as its expectations (so the padded file passes `check`).
fn padded() -> Scenario {
    let s = pandin();
    let map = s.map.clone();
    let mut ed = Editor::new(s);
    for (power, unit, order) in PADDING {
        let p = map.find_power(power).expect("power");
        let spec = parse_unit(&map, unit).expect("unit parses");
        let u = Unit {
            power: p,
            kind: spec.kind.expect("unit letter"),
            loc: map.province(spec.loc.province).main,
        };
        ed.apply(Edit::PlaceUnit(u)).expect("unit placed");
        ed.apply(Edit::AddOrder(p, order.to_string()))
            .expect("order added");
    }
    let mut s = ed.scenario().clone();
    s.title = "Pandin's paradox, padded".into();
    let r = run(&s, None, false).expect("runs");
    freeze_expectations(&mut s, &r);
    s
}

fn write(dir: &Path, name: &str, s: &Scenario) -> PathBuf {
    let p = dir.join(name);
    s.save(&p).expect("saved");
    p
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn sorted_units(s: &Scenario) -> Vec<Unit> {
    let mut v = s.units.clone();
    v.sort();
    v
}

/// `dipsandbox check FILE` passes.
fn assert_checks(file: &Path) {
    let (code, out, err) = dipsandbox(&["check", arg(file)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
}

/// Each progress line is `units A → B` or `orders A → B` (optionally `(orders A → B)`, and
/// after `regions: ` when whole regions went) with B < A, or `hold: … → …`; the unit counts go
/// down from `start`.
fn assert_progress(err: &str, start: usize) -> usize {
    let mut units = start;
    for line in err.lines() {
        let line = line.strip_prefix("regions: ").unwrap_or(line);
        if let Some(rest) = line.strip_prefix("units ") {
            let nums: Vec<usize> = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|w| !w.is_empty())
                .map(|w| w.parse().expect("number"))
                .collect();
            assert!(nums.len() == 2 || nums.len() == 4, "{line}");
            assert_eq!(nums[0], units, "{err}");
            assert!(nums[1] < nums[0], "{line}");
            units = nums[1];
        } else if let Some(rest) = line.strip_prefix("orders ") {
            let nums: Vec<usize> = rest
                .split(" → ")
                .map(|w| w.trim().parse().expect("number"))
                .collect();
            assert!(nums[1] < nums[0], "{line}");
        } else {
            assert!(line.starts_with("hold: ") && line.contains(" → "), "{line}");
        }
    }
    units
}

#[test]
fn the_padded_scenario_is_what_it_claims() {
    let s = padded();
    assert_eq!(s.units.len(), 26);
    assert_eq!(s.orders.len(), 26);
    let r = run(&s, None, false).expect("runs");
    // Every padding order is a real order: legal and matched.
    for (e, o) in s.orders.iter().zip(&r.phase().outcomes).skip(6) {
        assert!(
            matches!(o.verdict, Verdict::Succeeds | Verdict::Fails),
            "{}: {:?} {}",
            e.text,
            o.verdict,
            o.reason
        );
    }
    // Pandin's six orders have the same results as without the padding.
    let alone = run(&pandin(), None, false).expect("runs");
    for (x, y) in r.phase().outcomes.iter().zip(&alone.phase().outcomes) {
        assert_eq!(x, y);
    }
    // Nothing in the padding calls for a backup rule.
    let mut only = s.clone();
    only.units.retain(|u| !pandin().units.contains(u));
    only.orders.drain(..6);
    only.expect = None;
    let goal = Goal {
        keep: vec![Property::Backup(None)],
        rules: Rules::default(),
        other: None,
    };
    assert!(matches!(
        minimize(&only, &goal, &mut |_| {}),
        Err(MinimizeError::DoesNotHold { .. })
    ));
}

// `--keep backup`: the padding goes, and so do the German fleets: the Szykman rule already
// decides the simple convoy paradox inside Pandin's (DATC 6.F.14, four units).
#[test]
fn keep_backup_shrinks_padded_pandin_to_the_simple_convoy_paradox() {
    let dir = temp_dir("minimize-backup");
    let input = write(&dir, "padded.ron", &padded());
    assert_checks(&input);
    let out = dir.join("small.ron");
    let (code, stdout, stderr) =
        dipsandbox(&["minimize", arg(&input), "--keep", "backup", "-o", arg(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // The padding touches nothing of the paradox: its regions go at once, in one step.
    assert!(
        stderr.starts_with("regions: units 26 → 6 (orders 26 → 6)\nunits 6 → 4"),
        "{stderr}"
    );
    let last = assert_progress(&stderr, 26);
    let small = Scenario::load(&out).expect("output loads");
    assert_eq!(last, small.units.len());
    let f14 = Scenario::load(Path::new("scenarios/datc/6.F.14.ron")).expect("6.F.14 loads");
    assert_eq!(sorted_units(&small), sorted_units(&f14));
    assert!(
        stdout.contains("kept: Szykman rule applied: A Bre - Lon, F Eng C A Bre - Lon"),
        "{stdout}"
    );
    assert!(
        stdout.contains("minimized: 26 units, 26 orders → 4 units, 4 orders ("),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!("written to {}\n", out.display())),
        "{stdout}"
    );
    assert_checks(&out);
    let (code, explained, _) = dipsandbox(&["explain", arg(&out)]);
    assert_eq!(code, 0);
    assert!(explained.contains("[Szykman rule]"), "{explained}");
    assert!(small.title.ends_with("(minimized)"), "{}", small.title);
    assert!(
        small.description.contains("keeping backup"),
        "{}",
        small.description
    );
}

// With the outcome of the Welsh fleet kept too, the Germans are needed: all six units of
// Pandin's paradox, and none of the padding.
#[test]
fn keep_backup_and_an_outcome_gives_back_pandins_six_units() {
    let dir = temp_dir("minimize-six");
    let input = write(&dir, "padded.ron", &padded());
    let out = dir.join("six.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "backup:szykman",
        "--keep",
        "outcome:F Wal - Eng=fails",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(assert_progress(&stderr, 26), 6);
    let small = Scenario::load(&out).expect("output loads");
    let original = pandin();
    assert_eq!(sorted_units(&small), sorted_units(&original));
    assert_eq!(small.orders.len(), 6);
    for o in &original.orders {
        assert!(
            small.orders.iter().any(|x| x.order == o.order),
            "{} is kept",
            o.text
        );
    }
    assert_checks(&out);
    // Its re-derived expectations are those of DATC 6.F.16.
    let r = run(&original, None, false).expect("runs");
    let (bad, _) = compare(&small, &r);
    assert!(bad.is_empty(), "{bad:?}");
}

// Pandin's paradox has no solution at all (the simple convoy paradox inside it has two):
// keeping the equation oracle's count of 0 cuts the padded scenario back to its six units,
// with one property.
#[test]
fn keep_no_solution_gives_back_pandins_six_units() {
    let dir = temp_dir("minimize-solutions");
    let input = write(&dir, "padded.ron", &padded());
    let out = dir.join("six.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "solutions:0",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("kept: the equations have 0 solutions"),
        "{stdout}"
    );
    assert_eq!(assert_progress(&stderr, 26), 6);
    let small = Scenario::load(&out).expect("output loads");
    assert_eq!(sorted_units(&small), sorted_units(&pandin()));
    assert_eq!(small.orders.len(), 6);
    assert_checks(&out);
    // A count the input does not have is refused; so is a count that is not a number.
    let (code, _, err) = dipsandbox(&["minimize", arg(&input), "--keep", "solutions:2"]);
    assert_eq!(code, 2);
    assert!(err.contains("the equations have 0 solutions"), "{err}");
    let (code, _, err) = dipsandbox(&["minimize", arg(&input), "--keep", "solutions:x"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected a number of solutions"), "{err}");
}

// The order is found by its parse: abbreviations and a power prefix name the same order.
#[test]
fn keep_outcome_finds_the_order_by_its_parse() {
    let dir = temp_dir("minimize-outcome");
    let input = write(&dir, "padded.ron", &padded());
    let out = dir.join("outcome.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "outcome:England: F wal -> eng=fails",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("kept: F Wales - English Channel: fails ("),
        "{stdout}"
    );
    assert_checks(&out);
    let small = Scenario::load(&out).expect("output loads");
    assert!(small.units.len() < 6, "{}", small.to_ron());
    let (_, explained, _) = dipsandbox(&["explain", arg(&out)]);
    assert!(
        explained
            .lines()
            .any(|l| l.contains("FAIL F Wales - English Channel")),
        "{explained}"
    );
    // A power that did not give the order does not match it.
    let (code, _, err) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "outcome:France: F Wal - Eng=fails",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no order of the scenario is \"France: F Wal - Eng\"; the orders there: F Wales - English Channel"),
        "{err}"
    );
}

// A deliberately wrong expectation: the minimized scenario still shows the army failing for the
// same cause (the Szykman rule cancelling its convoy), and its own expectations say so.
#[test]
fn keep_mismatch_keeps_the_wrong_expectation_failing_for_the_same_cause() {
    let dir = temp_dir("minimize-mismatch");
    let mut s = padded();
    let orders = s.orders.clone();
    let e = s.expect.as_mut().expect("frozen expectations");
    // Found by its order's text (a key is "" when it repeats the order's text).
    let brest = e
        .results
        .iter_mut()
        .find(|(i, _, _)| orders.get(*i).is_some_and(|o| o.text == "A Brest - London"))
        .expect("an expectation for A Brest - London");
    brest.2 = Expected::Succeeds;
    let input = write(&dir, "wrong.ron", &s);
    let (code, out, _) = dipsandbox(&["check", arg(&input)]);
    assert_eq!(code, 1, "{out}");
    let output = dir.join("mismatch.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "mismatch",
        "-o",
        arg(&output),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "kept: A Brest - London: expected Succeeds, got Fails (no path: the convoy of F Eng is cancelled (Szykman rule))"
        ),
        "{stdout}"
    );
    assert_checks(&output);
    let small = Scenario::load(&output).expect("output loads");
    assert!(small.units.len() < 26 && small.units.len() <= 6);
    let (_, explained, _) = dipsandbox(&["explain", arg(&output)]);
    assert!(
        explained
            .lines()
            .any(|l| l.contains("FAIL A Brest - London")
                && l.contains("no path: the convoy of F Eng is cancelled")),
        "{explained}"
    );
}

// Two rule sets: what separates the DATC's Szykman rule from the 1982 paradox rule in the padded
// scenario is Pandin's paradox itself; the output keeps the difference and carries the first
// rule set.
#[test]
fn keep_differs_keeps_a_rule_difference() {
    let dir = temp_dir("minimize-differs");
    let input = write(&dir, "padded.ron", &padded());
    let out = dir.join("differs.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "differs",
        "--rules",
        "datc",
        "--rules",
        "1982",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("kept: F Eng C A Bre - Lon fails under datc, succeeds under 1982"),
        "{stdout}"
    );
    assert_checks(&out);
    let small = Scenario::load(&out).expect("output loads");
    let original = pandin();
    assert!(small.units.iter().all(|u| original.units.contains(u)));
    let (code, diffed, _) = dipsandbox(&["diff", arg(&out), "--rules", "datc", "--rules", "1982"]);
    assert_eq!(code, 1, "{diffed}");
    // The other way round the output carries the 1982 rules, and `check` uses them.
    let out82 = dir.join("differs-1982.ron");
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "differs",
        "--rules",
        "1982",
        "--rules",
        "datc",
        "-o",
        arg(&out82),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let small82 = Scenario::load(&out82).expect("output loads");
    assert_eq!(small82.rules, Rules::preset("1982").expect("preset"));
    assert_checks(&out82);
    let (code, _, _) = dipsandbox(&["check", arg(&out82), "--rules", "datc"]);
    assert_eq!(code, 1);
    // One rule set: compared with the scenario's own.
    let (code, stdout, stderr) = dipsandbox(&[
        "minimize",
        arg(&input),
        "--keep",
        "differs",
        "--rules",
        "1982",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let printed = Scenario::from_ron(&stdout, "stdout").expect("printed scenario loads");
    assert_eq!(sorted_units(&printed), sorted_units(&small));
}

#[test]
fn unknown_property_syntax_is_an_error() {
    for (keep, says) in [
        (
            "sometimes",
            "unknown property; expected one of backup, backup:circular",
        ),
        ("backup:never", "unknown backup rule \"never\""),
        ("outcome:F Wal - Eng", "expected outcome:ORDER=VERDICT"),
        ("outcome:F Wal - Eng=maybe", "unknown verdict \"maybe\""),
        ("outcome:F Wal - Engl=fails", "unknown province \"Engl\""),
        ("mismatch:all", "mismatch takes no argument"),
    ] {
        let (code, out, err) =
            dipsandbox(&["minimize", "scenarios/datc/6.F.16.ron", "--keep", keep]);
        assert_eq!(code, 2, "{keep}: {out}{err}");
        assert!(err.contains(says), "{keep}: {err}");
        assert!(out.is_empty(), "{keep}: {out}");
    }
    let (code, _, err) = dipsandbox(&["minimize", "scenarios/datc/6.F.16.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("--keep"), "{err}");
}

#[test]
fn a_property_that_does_not_hold_is_an_error_and_writes_nothing() {
    let dir = temp_dir("minimize-not-holding");
    let out = dir.join("never.ron");
    for (file, keep, says) in [
        (
            "scenarios/datc/6.A.1.ron",
            "backup",
            "property `backup` does not hold on the input: no backup rule is applied",
        ),
        (
            "scenarios/datc/6.F.16.ron",
            "backup:circular",
            "does not hold on the input: only the Szykman rule is applied",
        ),
        (
            "scenarios/datc/6.F.16.ron",
            "outcome:F Wal - Eng=succeeds",
            "does not hold on the input: F Wales - English Channel: fails (",
        ),
        (
            "scenarios/datc/6.F.16.ron",
            "mismatch",
            "does not hold on the input: the result meets every expectation under datc",
        ),
        (
            "scenarios/datc/6.F.16.ron",
            "outcome:A Par - Bur=fails",
            "no order of the scenario is \"A Par - Bur\"",
        ),
        (
            "scenarios/year-1901/4-winter-1901-adjustment.ron",
            "backup",
            "property `backup` needs a movement phase; this scenario is a Winter 1901 Adjustment",
        ),
    ] {
        let (code, stdout, err) = dipsandbox(&["minimize", file, "--keep", keep, "-o", arg(&out)]);
        assert_eq!(code, 2, "{keep}: {stdout}{err}");
        assert!(err.contains(says), "{keep}: {err}");
        assert!(!out.exists(), "{keep}: nothing is written");
    }
    // Two rule sets that agree.
    let (code, _, err) = dipsandbox(&[
        "minimize",
        "scenarios/datc/6.A.1.ron",
        "--keep",
        "differs",
        "--rules",
        "1982",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("datc and 1982 give the same verdicts, dislodgements and positions"),
        "{err}"
    );
    // `differs` needs a second rule set; two rule sets need `differs`.
    let (code, _, err) =
        dipsandbox(&["minimize", "scenarios/datc/6.F.16.ron", "--keep", "differs"]);
    assert_eq!(code, 2);
    assert!(err.contains("compares two rule sets"), "{err}");
    let (code, _, err) = dipsandbox(&[
        "minimize",
        "scenarios/datc/6.F.16.ron",
        "--keep",
        "backup",
        "--rules",
        "datc",
        "--rules",
        "1982",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--rules is given twice only with --keep differs"),
        "{err}"
    );
}

#[test]
fn missing_input_and_existing_output() {
    let (code, out, err) = dipsandbox(&["minimize", "no/such/file.ron", "--keep", "backup"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("no/such/file.ron: cannot read"), "{err}");
    let dir = temp_dir("minimize-exists");
    let out = dir.join("taken.ron");
    std::fs::write(&out, "keep me").expect("written");
    let (code, _, err) = dipsandbox(&[
        "minimize",
        "scenarios/datc/6.F.16.ron",
        "--keep",
        "backup",
        "-o",
        arg(&out),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("exists; give --force to overwrite it"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).expect("readable"), "keep me");
    let (code, stdout, err) = dipsandbox(&[
        "minimize",
        "scenarios/datc/6.F.16.ron",
        "--keep",
        "backup",
        "-o",
        arg(&out),
        "--force",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert_checks(&out);
    // Written atomically: no temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("taken.ron")]);
}

// Without -o the minimized scenario goes to stdout (and the summary to stderr).
#[test]
fn without_output_the_scenario_is_printed() {
    let (code, stdout, stderr) =
        dipsandbox(&["minimize", "scenarios/datc/6.F.16.ron", "--keep", "backup"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("minimized: 6 units, 6 orders → "),
        "{stderr}"
    );
    let s = Scenario::from_ron(&stdout, "stdout").expect("printed scenario loads");
    let r = run(&s, None, false).expect("runs");
    let (bad, n) = compare(&s, &r);
    assert!(bad.is_empty() && n > 0, "{bad:?}");
}

// ---- the library ----

fn goal(map: &dipsandbox_core::model::map::Map, keep: &[&str]) -> Goal {
    Goal {
        keep: keep
            .iter()
            .map(|k| Property::parse(map, k).expect("property parses"))
            .collect(),
        rules: Rules::default(),
        other: None,
    }
}

// Minimizing a minimized scenario again removes nothing: no single unit or order can go, and no
// order can become a hold.
#[test]
fn the_result_is_one_minimal() {
    let s = padded();
    for keep in [
        &["backup"][..],
        &["outcome:F Wales - English Channel=fails"],
        &["outcome:F London Supports F Wales - English Channel=succeeds"],
        &["backup", "outcome:F Belgium - English Channel=fails"],
    ] {
        let g = goal(&s.map, keep);
        let m = minimize(&s, &g, &mut |_| {}).expect("minimizes");
        assert!(m.after.units < m.before.units, "{keep:?}");
        let mut steps = Vec::new();
        let again = minimize(&m.scenario, &g, &mut |st| steps.push(st.clone())).expect("again");
        assert!(steps.is_empty(), "{keep:?}: {steps:?}");
        assert_eq!(again.after, m.after, "{keep:?}");
        // And by hand: without any one unit a property is lost.
        for i in 0..m.scenario.units.len() {
            let mut fewer = m.scenario.clone();
            let gone = fewer.units.remove(i);
            fewer.orders.retain(|o| {
                o.order.unit.map(|u| u.loc.province) != Some(s.map.province_of(gone.loc))
            });
            fewer.expect = None;
            assert!(
                minimize(&fewer, &g, &mut |_| {}).is_err(),
                "{keep:?}: {} could go",
                gone.describe(&s.map)
            );
        }
    }
}

// Each step reports sizes that go down, from the input's to the result's.
#[test]
fn progress_steps_go_from_the_input_size_to_the_result() {
    let s = padded();
    let mut steps = Vec::new();
    let m = minimize(&s, &goal(&s.map, &["backup"]), &mut |st| {
        steps.push(st.clone())
    })
    .expect("minimizes");
    assert_eq!(steps.first().map(|st| st.before), Some(m.before));
    assert_eq!(steps.last().map(|st| st.after), Some(m.after));
    for w in steps.windows(2) {
        assert_eq!(w[0].after, w[1].before);
    }
    for st in &steps {
        assert!(
            st.after.units < st.before.units
                || st.after.orders < st.before.orders
                || st.after.simplified > st.before.simplified,
            "{st:?}"
        );
    }
    assert!(m.runs > 0);
}

// An order that must stay for the property (a second order makes the army's first order
// illegal) but whose content does not matter becomes a hold.
#[test]
fn an_order_that_must_stay_becomes_a_hold() {
    let s = Scenario::from_ron(
        r#"Scenario(
            title: "Two orders for one army",
            phase: "Spring 1901 Movement",
            units: { "France": ["A Paris", "A Marseilles"], "Germany": ["A Munich"] },
            orders: {
                "France": ["A Paris - Burgundy", "A Paris - Picardy", "A Marseilles - Gascony"],
                "Germany": ["A Munich - Ruhr"],
            },
        )"#,
        "two-orders",
    )
    .expect("loads");
    let mut steps = Vec::new();
    let m = minimize(
        &s,
        &goal(&s.map, &["outcome:A Paris - Burgundy=illegal"]),
        &mut |st| steps.push(st.clone()),
    )
    .expect("minimizes");
    let texts: Vec<&str> = m.scenario.orders.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(texts, ["A Paris - Burgundy", "A Paris Hold"]);
    assert_eq!(m.after.simplified, 1);
    assert!(steps.iter().any(|st| st.pass
        == Pass::Hold {
            from: "A Paris - Picardy".into(),
            to: "A Paris Hold".into()
        }));
    let text = m.scenario.to_ron();
    let back = Scenario::from_ron(&text, "out").expect("output loads");
    let r = run(&back, None, false).expect("runs");
    assert!(compare(&back, &r).0.is_empty());
}

// Retreat and adjustment phases: `outcome`, `mismatch` and `differs` work on any phase; the
// follow-up retreats of a movement scenario are orders too.
#[test]
fn other_phases_and_follow_up_retreats() {
    let s =
        Scenario::load(Path::new("scenarios/year-1901/3-fall-1901-retreat.ron")).expect("loads");
    let m = minimize(
        &s,
        &goal(&s.map, &["outcome:A Tri - Ven=succeeds"]),
        &mut |_| {},
    )
    .expect("minimizes");
    assert_eq!(m.after.units, 1, "{}", m.scenario.to_ron());
    assert_eq!(m.scenario.dislodged.len(), 1);
    assert!(matches!(
        minimize(&s, &goal(&s.map, &["backup"]), &mut |_| {}),
        Err(MinimizeError::NeedsMovement { .. })
    ));
    // A wrong expectation in a retreat phase is kept by its order.
    let mut wrong = s.clone();
    let e = wrong.expect.as_mut().expect("expectations");
    assert_eq!(e.results.len(), 1);
    e.results[0].2 = Expected::Fails;
    let m = minimize(&wrong, &goal(&s.map, &["mismatch"]), &mut |_| {}).expect("minimizes");
    assert_eq!(m.after.units, 1, "{}", m.scenario.to_ron());
    assert!(
        m.witness[0].contains("expected Fails, got Succeeds"),
        "{:?}",
        m.witness
    );
    let s = Scenario::load(Path::new(
        "scenarios/year-1901/4-winter-1901-adjustment.ron",
    ))
    .expect("loads");
    let m = minimize(
        &s,
        &goal(&s.map, &["outcome:Build A Warsaw=fails"]),
        &mut |_| {},
    )
    .expect("minimizes");
    assert!(m.after.orders < m.before.orders);
    let r = run(&m.scenario, None, false).expect("runs");
    let i = m
        .scenario
        .orders
        .iter()
        .position(|o| o.text == "Build A Warsaw")
        .expect("kept");
    assert_eq!(r.phase().outcomes[i].verdict, Verdict::Fails);
    let s = Scenario::load(Path::new("scenarios/datc/6.H.7.ron")).expect("loads");
    let m = minimize(
        &s,
        &goal(&s.map, &["outcome:A Bohemia - Tyrolia=fails"]),
        &mut |_| {},
    )
    .expect("minimizes");
    let f = m.scenario.retreats.as_ref().expect("retreats kept");
    assert!(f.orders.iter().any(|o| o.text == "A Bohemia - Tyrolia"));
    let r = run(&m.scenario, None, false).expect("runs");
    assert!(compare(&m.scenario, &r).0.is_empty());
    // The minimized scenario's expectations cover the follow-up retreats too.
    assert!(f.expect.is_some());
}

// A mismatch in positions only (a jDip-style expectation): a unit's fate is kept.
#[test]
fn a_mismatch_in_positions_is_kept_by_unit() {
    let mut s = padded();
    let e = s.expect.as_mut().expect("frozen");
    e.results.clear();
    e.dislodged = None;
    // Expect the Austrian army in Vienna to stay, although it moves to Bohemia.
    let positions = e.positions.as_mut().expect("positions");
    let map = s.map.clone();
    let boh = map.find_province("Bohemia").expect("province");
    let vie = map.find_province("Vienna").expect("province");
    for u in positions.iter_mut() {
        if map.province_of(u.loc) == boh {
            u.loc = map.province(vie).main;
        }
    }
    let m = minimize(&s, &goal(&s.map, &["mismatch"]), &mut |_| {}).expect("minimizes");
    assert_eq!(m.after.units, 1, "{}", m.scenario.to_ron());
    assert_eq!(m.scenario.units[0].loc, map.province(vie).main);
    assert!(
        m.witness[0].starts_with("Austrian A Vienna ends in Bohemia"),
        "{:?}",
        m.witness
    );
}

#[test]
fn properties_read_back_from_their_spec() {
    let map = dipsandbox_core::model::map::Map::standard();
    for spec in [
        "backup",
        "backup:circular",
        "backup:szykman",
        "backup:all-hold",
        "backup:all-fail",
        "outcome:F Wales - English Channel=fails",
        "outcome:England: A Lvp - Edi=succeeds",
        "outcome:Build A Paris=illegal",
        "outcome:F Lon S F Wal - Eng=void",
        "mismatch",
        "differs",
        "solutions:0",
        "solutions:2",
    ] {
        let p = Property::parse(&map, spec).expect(spec);
        assert_eq!(Property::parse(&map, &p.spec()), Ok(p), "{spec}");
    }
    assert_eq!(
        Property::parse(&map, "Backup: All_Hold"),
        Property::parse(&map, "backup:all-hold")
    );
    let Ok(Property::Outcome { order, .. }) = Property::parse(&map, "outcome:F Wal => Eng=fails")
    else {
        panic!("parses");
    };
    assert_eq!(
        order,
        parse_order(&map, "F Wales - English Channel").expect("parses")
    );
}

// ---- ddmin ----

#[test]
fn ddmin_finds_the_needed_items() {
    let items: Vec<u32> = (0..100).collect();
    let mut tests = 0;
    let got = ddmin(
        &items,
        |s| {
            tests += 1;
            s.contains(&3) && s.contains(&71)
        },
        |_, _| {},
    );
    assert_eq!(got, [3, 71]);
    assert!(tests < 100, "{tests} tests");
    // Nothing needed: the empty set, in one test.
    let mut tests = 0;
    let got = ddmin(
        &items,
        |_| {
            tests += 1;
            true
        },
        |_, _| {},
    );
    assert!(got.is_empty());
    assert_eq!(tests, 1);
    assert!(ddmin(&Vec::<u32>::new(), |_| true, |_, _| {}).is_empty());
}

// Iterative: a needle in 200 000 items costs a few dozen tests and no deep stack.
#[test]
fn ddmin_on_a_large_input() {
    let items: Vec<u32> = (0..200_000).collect();
    let mut tests = 0;
    let mut reductions = Vec::new();
    let got = ddmin(
        &items,
        |s| {
            tests += 1;
            s.contains(&123_457)
        },
        |a, b| reductions.push((a, b)),
    );
    assert_eq!(got, [123_457]);
    assert!(tests < 100, "{tests} tests");
    assert_eq!(reductions.first().map(|r| r.0), Some(200_000));
    assert_eq!(reductions.last().map(|r| r.1), Some(1));
}

proptest! {
    // A monotone property (all of a hidden set present): ddmin finds exactly that set.
    #[test]
    fn ddmin_finds_a_hidden_set(n in 1usize..60, picks in proptest::collection::vec(0usize..60, 0..6)) {
        let items: Vec<usize> = (0..n).collect();
        let mut needed: Vec<usize> = picks.into_iter().filter(|p| *p < n).collect();
        needed.sort_unstable();
        needed.dedup();
        let got = ddmin(&items, |s| needed.iter().all(|x| s.contains(x)), |_, _| {});
        prop_assert_eq!(got, needed);
    }

    // Any property: the result passes and is 1-minimal (no single item can go).
    #[test]
    fn ddmin_is_one_minimal(n in 1usize..40, seed in any::<u64>()) {
        let items: Vec<usize> = (0..n).collect();
        // A deterministic pseudo-random property of the set, true on the whole set.
        let prop = |s: &[usize]| {
            if s.len() == n {
                return true;
            }
            let mut h = seed;
            for x in s {
                h = h.wrapping_mul(6364136223846793005).wrapping_add(*x as u64 + 1);
            }
            (h >> 61) < 3
        };
        let got = ddmin(&items, prop, |_, _| {});
        prop_assert!(prop(&got));
        for i in 0..got.len() {
            let mut fewer = got.clone();
            fewer.remove(i);
            prop_assert!(!prop(&fewer), "{:?} without {}", got, got[i]);
        }
    }
}
