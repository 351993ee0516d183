//! The two engines everywhere: `--engine` on `explain`, `check`, `advance` and the
//! printed form; `diff --engines`; and in the TUI, one key switches the loaded scenario to the
//! DPjudge procedure, whose steps the stepper then walks, with the board as of the cursor.

use crate::common;

use std::collections::BTreeSet;

use common::{app, dipsandbox, run, text};
use dipsandbox_core::engine::Registry;

/// The case names of the departure table in `docs/dpjudge.md`.
fn documented() -> BTreeSet<String> {
    let doc = std::fs::read_to_string("docs/dpjudge.md").expect("docs/dpjudge.md");
    let start = doc.find("<!-- departures:start -->").expect("marker");
    let end = doc.find("<!-- departures:end -->").expect("marker");
    doc[start..end]
        .lines()
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .filter(|c| c.starts_with("6."))
        .map(str::to_string)
        .collect()
}

#[test]
fn explain_prints_the_procedure_step_by_step() {
    let (code, out, err) = dipsandbox(&[
        "explain",
        "scenarios/datc/6.C.3.ron",
        "--engine",
        "dpjudge",
        "--trace",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Engine: dpjudge — the DPjudge procedure"),
        "{out}"
    );
    assert!(out.contains("DPjudge procedure:"), "{out}");
    for line in [
        "step 3: cut all supports made by non-convoyed attacks",
        "F Ank - Con added to the combat list of Constantinople",
        "F Ank - Con marked bounce: bounced in step 7",
        "return to step 6 (from step 7)",
        "step 10: mark dislodged units and make all successful moves",
    ] {
        assert!(out.contains(line), "{line:?} missing in\n{out}");
    }
    // 6.C.3's expectations hold under the procedure too.
    assert!(out.contains("Expectations: all 6 checks met."), "{out}");
    // No decision graph to draw.
    let (_, out, _) = dipsandbox(&[
        "explain",
        "scenarios/datc/6.C.3.ron",
        "--engine",
        "dpjudge",
        "--dot",
        "/dev/null",
    ]);
    assert!(out.contains("the DPjudge procedure has none"), "{out}");
    let (code, out, _) = dipsandbox(&[
        "explain",
        "scenarios/datc/6.C.3.ron",
        "--engine",
        "dpjudge",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["engine"], "dpjudge");
}

/// `diff scenarios/datc --engines` lists exactly the cases the docs explain; `check` with the
/// DPjudge engine fails exactly those.
#[test]
fn the_engines_disagree_on_exactly_the_documented_cases() {
    let docs = documented();
    assert!(docs.len() >= 20, "{docs:?}");
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc", "--engines"]);
    assert_eq!(code, 1);
    let rows: BTreeSet<String> = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("case "))
        .skip(1)
        .filter(|l| l.starts_with("  6."))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert_eq!(rows, docs, "{out}");
    assert!(
        out.contains(&format!("disagree on {} of", docs.len())),
        "{out}"
    );

    let (code, out, _) = dipsandbox(&["check", "scenarios/datc", "--engine", "dpjudge"]);
    assert_eq!(code, 1);
    let failed: BTreeSet<String> = out
        .lines()
        .filter(|l| l.starts_with("FAIL"))
        .filter_map(|l| l.split_whitespace().nth(1))
        .filter_map(|f| {
            std::path::Path::new(f)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect();
    assert_eq!(failed, docs, "{out}");

    // One case: each differing order with both reasons.
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc/6.F.16.ron", "--engines"]);
    assert_eq!(code, 1);
    assert!(out.contains("decisions vs dpjudge"), "{out}");
    assert!(out.contains("F Eng C A Bre - Lon"), "{out}");
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc/6.A.11.ron", "--engines"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("give the same result"), "{out}");
    let (_, out, _) = dipsandbox(&["diff", "scenarios/datc/6.F.16.ron", "--engines", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["schema"], "dipsandbox.engines/1");
    assert_eq!(v["cases"][0]["a"], "decisions");
    assert_eq!(v["cases"][0]["same"], false);
}

/// `advance --engine dpjudge` writes the next phase from the procedure's result: in 6.E.6 the
/// engines leave different positions.
#[test]
fn advance_follows_the_engine() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("engines-advance");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut units = Vec::new();
    for e in Registry::builtin().names() {
        let out = dir.join(format!("{e}.ron"));
        let (code, _, err) = dipsandbox(&[
            "advance",
            "scenarios/datc/6.E.6.ron",
            "--engine",
            e,
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{err}");
        let s = dipsandbox_core::model::scenario::Scenario::load(&out)
            .unwrap_or_else(|e| panic!("{e}"));
        units.push((s.units.clone(), s.dislodged.len()));
    }
    assert_ne!(units[0], units[1]);
    let (code, _, err) = dipsandbox(&["check", "scenarios/datc/6.A.1.ron", "--engine", "nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown engine \"nope\"; expected decisions or dpjudge"),
        "{err}"
    );
}

/// In the TUI: 6.F.16 switched to the DPjudge engine with one key; the stepper walks the
/// procedure (units with marks, combat lists, events), the board shows the marks as of the
/// cursor, and the compare view compares the two engines.
#[test]
fn the_tui_switches_engines_and_steps_through_the_procedure() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "engines");
    let t = text(&run(&mut a, 120, 40, "E 2"));
    assert_eq!(a.session.engine.name(), "dpjudge");
    assert!(t.contains("engine: dpjudge"), "{t}");
    assert!(t.contains("DPjudge: step 10"), "{t}");
    assert!(t.contains("Combat lists"), "{t}");
    assert!(t.contains("dpjudge trace ("), "{t}");
    let len = a.session.dp().expect("procedure").len();
    // To the start: nothing marked; then step by step to the first bounce.
    let t = text(&run(&mut a, 120, 40, "g"));
    assert!(t.contains(&format!("dpjudge step 0/{len}")), "{t}");
    assert!(t.contains("start: nothing decided yet"), "{t}");
    let mut steps = 0;
    loop {
        let t = text(&run(&mut a, 120, 40, "n"));
        steps += 1;
        // The event at the cursor is spelled out on the line above the status bar.
        let event = t
            .lines()
            .find(|l| l.starts_with("dpjudge step "))
            .unwrap_or_default();
        if event.contains("marked bounce") {
            assert!(
                t.contains("count 1 · bounce") || t.contains("count 0 · bounce"),
                "{t}"
            );
            break;
        }
        assert!(steps < len, "no bounce in the procedure");
    }
    // `]` jumps from step to step.
    let at = a.session.dp().expect("procedure").cursor();
    run(&mut a, 120, 40, "]");
    let dp = a.session.dp().expect("procedure");
    assert!(dp.cursor() > at);
    assert!(matches!(
        dp.events().get(dp.cursor() - 1),
        Some(dipsandbox_core::engine::dpjudge::DpEvent::Step { .. })
    ));
    // Before the end the board does not yet show the convoy's verdict; at the end it does.
    run(&mut a, 120, 40, "g 1");
    assert_eq!(a.session.verdict_now(3), None);
    run(&mut a, 120, 40, "G");
    assert!(a.session.verdict_now(3).is_some());
    // The compare view: the two engines under the same rules.
    let t = text(&run(&mut a, 120, 40, "3 V"));
    assert!(a.session.comparing_engines());
    assert!(
        t.contains("Compare engines under datc: dpjudge (left) vs guess"),
        "{t}"
    );
    assert!(t.contains("1 difference: 1 order"), "{t}");
    // On to the guess engine, and back to the decision model.
    let t = text(&run(&mut a, 120, 40, "E 2"));
    assert_eq!(a.session.engine.name(), "guess");
    assert!(t.contains("guess trace ("), "{t}");
    let t = text(&run(&mut a, 120, 40, "E 2"));
    assert_eq!(a.session.engine.name(), "decisions");
    assert!(t.contains("Decisions ("), "{t}");
    // Small terminals draw it too.
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "engines-small");
    for (w, h) in [(80, 24), (20, 10)] {
        run(&mut a, w, h, "E 2 g n n ] 3 V 1");
    }
}

/// `check`'s lean path (`verify`: the result alone, then the words only when something differs)
/// says exactly what the full path says (`adjudicate_scenario` then `compare`), and every
/// engine's result alone is its full result but for the words: every scenario of the project,
/// every built-in engine, under each scenario's own rules and every preset (so that many
/// expectations are missed and the mismatch lines, with their reasons, are compared too).
/// Slow tier (every scenario under every preset); `the_lean_check_path_says_what_the_full_path_says_on_a_sample`
/// takes every scenario under its own rules and every third one under every preset.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_lean_check_path_says_what_the_full_path_says() {
    lean_path(1, 3000, 300);
}

#[test]
fn the_lean_check_path_says_what_the_full_path_says_on_a_sample() {
    lean_path(3, 1500, 100);
}

/// Every scenario under its own rules, and every `every`-th one (in sorted order) under every
/// preset too; more than `min_runs` runs, more than `min_missed` of them with mismatches.
fn lean_path(every: usize, min_runs: usize, min_missed: usize) {
    use dipsandbox_core::engine::PhaseInput;
    use dipsandbox_core::model::rules::{PRESETS, Rules};
    use dipsandbox_core::model::scenario::Scenario;
    use dipsandbox_core::tools::check::{adjudicate_scenario, compare, verify};

    let mut files = Vec::new();
    common::ron_files(std::path::Path::new("scenarios"), &mut files);
    let registry = Registry::builtin();
    let (mut runs, mut missed) = (0, 0);
    for (i, f) in files.iter().enumerate() {
        let Ok(s) = Scenario::load(f) else { continue };
        let mut sets: Vec<Option<Rules>> = vec![None];
        if i % every == 0 {
            sets.extend(
                PRESETS
                    .iter()
                    .filter_map(|(n, _)| Rules::preset(n))
                    .map(Some),
            );
        }
        for engine in registry.engines() {
            for rules in &sets {
                let full = adjudicate_scenario(&s, *rules, &**engine, false);
                let lean = verify(&s, *rules, &**engine);
                let (Ok(full), Ok(lean)) = (full, lean) else {
                    continue;
                };
                let said = compare(&s, &full);
                assert_eq!(lean, said, "{} {} {rules:?}", f.display(), engine.name());
                runs += 1;
                missed += usize::from(!said.0.is_empty());
                // The result alone: the same verdicts, causes, units and standoffs.
                let r = rules.unwrap_or(s.rules);
                let alone = engine.verdicts(&PhaseInput::of(&s, &r)).expect("runs");
                let whole = &full.result.phase;
                assert_eq!(alone.final_units, whole.final_units, "{}", f.display());
                assert_eq!(alone.dislodged, whole.dislodged, "{}", f.display());
                assert_eq!(alone.contested, whole.contested, "{}", f.display());
                assert_eq!(alone.outcomes.len(), whole.outcomes.len());
                for (a, w) in alone.outcomes.iter().zip(&whole.outcomes) {
                    assert_eq!(
                        (a.verdict, &a.cause, a.backup),
                        (w.verdict, &w.cause, w.backup),
                        "{}",
                        f.display()
                    );
                }
            }
        }
    }
    // Not a test that passes by comparing nothing.
    assert!(runs > min_runs, "{runs} runs");
    assert!(missed > min_missed, "{missed} runs with mismatches");
}

/// What each built-in engine claims through `Engine::option_use`, and what `versus` leaves
/// untried besides (convoy options where no order convoys, adjustment options outside
/// adjustment phases), held on `count` random positions of every mix: a change of an option
/// the engine never reads gives the same result; a change of an option it reads through the
/// classing only gives the same result wherever the orders are classed alike.
fn option_use_claims_hold(count: u64) {
    use dipsandbox_core::engine::legality::prepare;
    use dipsandbox_core::engine::{
        DecisionEngine, DpjudgeEngine, Engine, GuessEngine, OptionUse, PhaseInput,
    };
    use dipsandbox_core::model::board::PhaseKind;
    use dipsandbox_core::model::map::Map;
    use dipsandbox_core::model::orders::OrderKind;
    use dipsandbox_core::model::rules::Rules;
    use dipsandbox_core::tools::versus::{Mix, compare, position};
    const ADJUSTMENT: [&str; 6] = [
        "build_missing_type",
        "fleet_build_on_land",
        "too_many_builds",
        "same_province_builds",
        "too_many_disbands",
        "civil_disorder",
    ];
    const CONVOY: [&str; 4] = [
        "multi_route_disruption",
        "paradox",
        "paradox_fallback",
        "convoyed_attack_on_supporter",
    ];
    let guess = GuessEngine::default();
    let engines: [&dyn Engine; 3] = [&DecisionEngine, &DpjudgeEngine, &guess];
    let map = Map::standard_arc();
    let base = Rules::default();
    let mut tried = 0u64;
    for i in 0..count {
        let s = position(&map, 17, i, Mix::All);
        let convoys = s
            .orders
            .iter()
            .any(|e| matches!(e.order.kind, OrderKind::Convoy { .. }));
        let classed = (s.phase.kind == PhaseKind::Movement)
            .then(|| prepare(&s.map, &s.units, &s.orders, &base));
        for e in engines {
            let own = e
                .verdicts(&PhaseInput::of(&s, &base))
                .expect("a built-in engine answers");
            for c in base.single_changes() {
                let field = c.row.field;
                let untouched = match e.option_use(field) {
                    OptionUse::Never => true,
                    OptionUse::Classing => classed
                        .as_ref()
                        .is_some_and(|k| *k == prepare(&s.map, &s.units, &s.orders, &c.rules)),
                    OptionUse::Direct => {
                        (!convoys && CONVOY.contains(&field))
                            || (s.phase.kind != PhaseKind::Adjustment
                                && ADJUSTMENT.contains(&field))
                    }
                };
                if !untouched {
                    continue;
                }
                let other = e
                    .verdicts(&PhaseInput::of(&s, &c.rules))
                    .expect("a built-in engine answers");
                tried += 1;
                let cmp = compare(&s, &own, &other);
                assert!(
                    cmp.agree(),
                    "position {i}, engine {}, {}: a change it is said not to see changed the result: {:?}",
                    e.name(),
                    c.spec(),
                    cmp
                );
            }
        }
    }
    assert!(tried > 0);
}

/// [`option_use_claims_hold`] on 40 positions.
#[test]
fn what_an_engine_says_it_does_not_read_changes_nothing() {
    option_use_claims_hold(40);
}

/// [`option_use_claims_hold`] on 600 positions. The slow tier.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn what_an_engine_says_it_does_not_read_changes_nothing_on_600_positions() {
    option_use_claims_hold(600);
}
