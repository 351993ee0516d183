//! The TUI asks the engine seam, and every engine's reasoning reads whole at 80×24:
//!
//! - a toy engine defined only in this test crate (its events, landmarks and state through the
//!   seam) shows in the stepper, steps, jumps to its landmarks and shows its state — with no
//!   TUI code of its own;
//! - on every DATC paradox case (6.C.x, 6.F.14–6.F.25) and each built-in engine, every step of
//!   the trace is on screen whole once the stepper is on it (the status line does not count);
//! - only the adapter modules downcast to an engine's types.

use std::sync::Arc;

use dipsandbox::tui::app::App;
use dipsandbox::tui::layout::{Panes, View, layout_for};
use dipsandbox_core::engine::{Engine, PhaseInput, Registry};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::common::{self, run, text};
use crate::toy_engine::hold::HoldEngine;

/// An app on `file` adjudicating with the engine `name` (the toy `hold` registered too).
fn app_with(file: &str, engine: &str, name: &str) -> App {
    let mut a = common::app(Some(file), name);
    let mut r = Registry::builtin();
    r.register(HoldEngine);
    a.session.set_registry(r);
    let e: Arc<dyn Engine> = a
        .session
        .registry()
        .get(engine)
        .expect("registered")
        .clone();
    a.set_engine(e);
    assert_eq!(a.session.run.result.engine, engine);
    a
}

/// The step at the cursor in the engine's own words, through the seam (None at the start).
fn step_text(a: &App) -> Option<String> {
    let s = &a.session;
    let c = s.cursor()?;
    let applied = s.steps.partition_point(|&i| i < c.cursor());
    let i = *s.steps.get(applied.checked_sub(1)?)?;
    Some(c.describe(&PhaseInput::of(s.scenario(), &s.rules), i))
}

/// Text without any whitespace: what is left of a text wrapped over rows.
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The screen's columns of panels, each read top to bottom inside its borders' x range (the
/// rows of panels stacked in one column joined), squashed. The tab bar, the event line and the
/// status bar are left out: they never count as the place where a text reads whole.
fn columns(buf: &Buffer, panes: &Panes) -> Vec<String> {
    let rects: Vec<Rect> = [panes.decisions, panes.tree, panes.trace, panes.detail]
        .into_iter()
        .flatten()
        .collect();
    let mut cols: Vec<(u16, u16, u16, u16)> = Vec::new();
    for r in rects {
        match cols.iter_mut().find(|c| c.0 == r.x && c.1 == r.width) {
            Some(c) => {
                c.2 = c.2.min(r.y);
                c.3 = c.3.max(r.bottom());
            }
            None => cols.push((r.x, r.width, r.y, r.bottom())),
        }
    }
    cols.into_iter()
        .map(|(x, w, top, bottom)| {
            let mut s = String::new();
            for y in top + 1..bottom.saturating_sub(1) {
                for cx in x + 1..x + w - 1 {
                    s.push_str(buf[(cx, y)].symbol());
                }
            }
            squash(&s)
        })
        .collect()
}

/// The DATC paradox cases: 6.C.1–6.C.9 and 6.F.14–6.F.25, as the scenario files name them.
fn paradox_cases() -> Vec<String> {
    let mut out: Vec<String> = (1..=9).map(|k| format!("6.C.{k}")).collect();
    out.extend((14..=25).map(|k| format!("6.F.{k}")));
    out
}

#[test]
fn every_step_of_every_engines_trace_reads_whole_at_80x24_on_the_paradox_cases() {
    let mut checked = 0;
    for case in paradox_cases() {
        let file = format!("scenarios/datc/{case}.ron");
        for engine in ["decisions", "dpjudge", "guess"] {
            let mut a = app_with(&file, engine, "seam-walk");
            run(&mut a, 80, 24, "2 g");
            let steps = a.session.steps.len();
            assert!(steps > 0, "{case} under {engine}: a trace to step");
            for k in 1..=steps {
                let buf = run(&mut a, 80, 24, "n");
                let want = step_text(&a).expect("a step at the cursor");
                let panes = layout_for(Rect::new(0, 0, 80, 24), View::Stepper, a.stepper_panels());
                let cols = columns(&buf, &panes);
                assert!(
                    cols.iter().any(|c| c.contains(&squash(&want))),
                    "{case} under {engine}, step {k} of {steps}: {want:?} is not whole on screen:\n{}",
                    text(&buf)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "every step of 63 traces: {checked}");
}

#[test]
fn a_toy_engines_trace_shows_steps_and_jumps_in_the_stepper_with_no_tui_code() {
    // 6.F.16 (Pandin's paradox): six units, two of them fleets before the armies.
    let mut a = app_with("scenarios/datc/6.F.16.ron", "hold", "seam-toy");
    assert!(a.trace_only(), "an engine with no panels of its own");
    let buf = run(&mut a, 120, 40, "2 g");
    let screen = text(&buf);
    let n = a.session.scenario().units.len();
    assert!(
        screen.contains(&format!("hold trace ({n} steps)")),
        "{screen}"
    );
    assert!(screen.contains("start: nothing decided yet"), "{screen}");
    assert!(screen.contains("step 0 of"), "{screen}");
    // One step: the first unit holds, in the list, the detail and the toy's own state.
    let buf = run(&mut a, 120, 40, "n");
    let screen = text(&buf);
    let first = step_text(&a).expect("a step");
    assert!(first.ends_with(" holds"), "{first}");
    assert!(
        screen.contains(&format!("hold step 1/{n} {first}")),
        "{screen}"
    );
    assert!(screen.contains("held so far"), "{screen}");
    assert!(screen.contains(&format!("1 of {n} held")), "{screen}");
    // Back, then the cycle key: the first fleet held is the toy's landmark.
    run(&mut a, 120, 40, "N");
    assert_eq!(a.session.cursor().expect("cursor").cursor(), 0);
    let buf = run(&mut a, 120, 40, "]");
    let at = a.session.cursor().expect("cursor").cursor();
    let units = &a.session.scenario().units;
    let first_fleet = units
        .iter()
        .position(|u| u.kind == dipsandbox_core::model::map::UnitKind::Fleet)
        .expect("a fleet");
    assert_eq!(at, first_fleet + 1, "] went to the first fleet's step");
    let screen = text(&buf);
    assert!(
        screen.contains(&format!("{} of {n} held", first_fleet + 1)),
        "{screen}"
    );
    // The panels are the trace and the detail; tab goes to the detail, whose keys scroll it.
    assert_eq!(
        a.panels(),
        &[
            dipsandbox::tui::keymap::Context::Trace,
            dipsandbox::tui::keymap::Context::Detail
        ]
    );
    let buf = run(&mut a, 120, 40, "tab");
    assert!(text(&buf).contains("scroll"), "the detail's hint");
    // To the end: every unit held, as the toy's state says.
    let buf = run(&mut a, 120, 40, "G");
    assert!(text(&buf).contains(&format!("{n} of {n} held")));
}

#[test]
fn the_guess_engines_cycle_keys_and_state_work_through_the_seam() {
    // 6.F.16 under the guess engine: `]` goes to the first cycle met, then to the backup rule.
    let mut a = app_with("scenarios/datc/6.F.16.ron", "guess", "seam-guess");
    run(&mut a, 80, 24, "2 g");
    let buf = run(&mut a, 80, 24, "]");
    let first = step_text(&a).expect("a step");
    assert!(first.contains("met again"), "{first}");
    let screen = text(&buf);
    assert!(screen.contains("cycle"), "{screen}");
    let buf = run(&mut a, 80, 24, "] ]");
    let backup = step_text(&a).expect("a step");
    assert!(backup.contains("to the Szykman rule"), "{backup}");
    // Its state at the step, not the final outcomes: the orders met so far.
    assert!(text(&buf).contains("orders met"), "{}", text(&buf));
    // The guess view offers no decision-graph keys.
    let help = text(&run(&mut a, 80, 24, "?"));
    assert!(
        !help.contains("go to where this decision got its value"),
        "{help}"
    );
}

#[test]
fn only_the_adapter_modules_downcast_to_an_engines_types() {
    fn rs_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("a folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                rs_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    rs_files(std::path::Path::new("src/tui"), &mut files);
    assert!(files.len() > 20, "the TUI's files were read");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        if text.contains("downcast") {
            found.push(f.display().to_string());
        }
    }
    found.sort();
    assert_eq!(
        found,
        [
            "src/tui/adapter/decision.rs",
            "src/tui/adapter/mod.rs",
            "src/tui/adapter/procedure.rs"
        ]
    );
}

#[test]
fn every_engine_names_the_units_its_landmarks_are_about() {
    // Pandin's paradox under each built-in engine: every event names units of the position; a
    // cycle is about two units or more, a backup rule about one at least.
    let s = dipsandbox_core::model::scenario::Scenario::load(std::path::Path::new(
        "scenarios/datc/6.F.16.ron",
    ))
    .expect("loads");
    let input = PhaseInput::of(&s, &s.rules);
    for engine in ["decisions", "dpjudge", "guess"] {
        let e = Registry::builtin().get(engine).expect("built in").clone();
        let r = e.adjudicate(&input, true).expect("adjudicates");
        let c = r.steps(&input).expect("a trace");
        let mut cycles = 0;
        for i in 0..c.len() {
            let units = c.units(i);
            assert!(
                units.iter().all(|&u| u < s.units.len()),
                "{engine} event {i}"
            );
            match c.mark(i).landmark {
                Some(dipsandbox_core::engine::Landmark::Cycle) => {
                    cycles += 1;
                    assert!(
                        units.len() >= 2,
                        "{engine} event {i}: {}",
                        c.describe(&input, i)
                    );
                }
                Some(dipsandbox_core::engine::Landmark::Backup) => {
                    assert!(
                        !units.is_empty(),
                        "{engine} event {i}: {}",
                        c.describe(&input, i)
                    );
                }
                _ => {}
            }
        }
        assert!(c.units(c.len()).is_empty(), "beyond the end");
        if engine != "dpjudge" {
            assert!(cycles > 0, "{engine}: the paradox's cycle is a landmark");
        }
    }
}

#[test]
fn the_procedures_view_offers_only_keys_that_work_there() {
    // DPjudge on 6.F.16: the units panel has its own keys; the decision graph's (`s` settled,
    // enter tree) are neither hinted nor in the help.
    let mut a = app_with("scenarios/datc/6.F.16.ron", "dpjudge", "seam-dp");
    let t = text(&run(&mut a, 80, 24, "2"));
    assert_eq!(a.focus, dipsandbox::tui::keymap::Context::Units);
    let status = t.lines().last().unwrap_or_default();
    assert!(
        !status.contains("settled") && !status.contains("tree"),
        "{status}"
    );
    let help = text(&run(&mut a, 80, 24, "?"));
    assert!(help.contains("Units (DPjudge procedure)"), "{help}");
    assert!(
        !help.contains("go to where this decision got its value"),
        "{help}"
    );
    // The arrows select units (the panel's ▶ follows); tab goes to the trace.
    run(&mut a, 80, 24, "esc j j");
    assert_eq!(a.stepper.decision, 2);
    run(&mut a, 80, 24, "tab");
    assert_eq!(a.focus, dipsandbox::tui::keymap::Context::Trace);
}

#[test]
fn a_prompt_has_the_whole_status_line_at_80_columns() {
    // Finding a province at 80×24: what the text finds is not cut by the expectations.
    let mut a = common::app(Some("scenarios/datc/6.F.16.ron"), "prompt-line");
    let t = text(&run(&mut a, 80, 24, "1 / n o r"));
    let status = t.lines().last().unwrap_or_default();
    assert!(status.contains("find province: nor"), "{status}");
    assert!(!status.contains("expectations"), "{status}");
    assert!(!status.ends_with('…'), "{status}");
    // Closed, the expectations are back.
    let t = text(&run(&mut a, 80, 24, "esc"));
    assert!(
        t.lines()
            .last()
            .unwrap_or_default()
            .contains("expectations"),
        "{t}"
    );
}

#[test]
fn past_the_last_landmark_the_cycle_key_says_so_whole_at_80_columns() {
    let mut a = app_with("scenarios/datc/6.F.16.ron", "guess", "seam-last");
    let t = text(&run(&mut a, 80, 24, "2 G ]"));
    let status = t.lines().last().unwrap_or_default();
    assert!(
        status.contains("no later cycle, backup rule or step"),
        "{status}"
    );
    let t = text(&run(&mut a, 80, 24, "g ["));
    let status = t.lines().last().unwrap_or_default();
    assert!(
        status.contains("no earlier cycle, backup rule or step"),
        "{status}"
    );
}
