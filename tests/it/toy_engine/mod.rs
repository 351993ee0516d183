//! The engine seam's proof: a toy engine that holds every unit, defined in this folder and
//! registered with one line, appears in `--engine`, in `diff --engines` (through the functions
//! the command line uses) and in the TUI's engine switch.

pub mod fixed;
pub mod hold;
pub mod worded;

use std::path::Path;
use std::process::ExitCode;

use dipsandbox::cli;
use dipsandbox::tui::session::Session;
use dipsandbox_core::engine::{DecisionEngine, Registry, Verdict};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::adjudicate_scenario;
use dipsandbox_core::tools::diff::diff_engines;

use crate::common;
use hold::{HeldState, HoldEngine};

/// The built-in engines and the toy one.
fn registry() -> Registry {
    let mut r = Registry::builtin();
    r.register(HoldEngine);
    r
}

/// Three armies move in a circle (DATC 6.C.1): every move succeeds under the decision model.
const CIRCLE: &str = "scenarios/datc/6.C.1.ron";

#[test]
fn the_toy_engine_holds_every_unit() {
    let s = Scenario::load(Path::new(CIRCLE)).expect("loads");
    let r = adjudicate_scenario(&s, None, &HoldEngine, true).expect("runs");
    assert_eq!(r.result.engine, "hold");
    assert!(
        r.phase()
            .outcomes
            .iter()
            .all(|o| o.verdict == Verdict::Fails)
    );
    assert_eq!(r.phase().final_units, s.units);
    assert!(r.phase().dislodged.is_empty());
    // Its own trace, stepped by the generic cursor, exactly both ways.
    let input = dipsandbox_core::engine::PhaseInput::of(&s, &r.rules);
    let mut st = r.result.steps(&input).expect("traced");
    assert_eq!(st.len(), s.units.len());
    assert_eq!(st.describe(&input, 0), "F Ank holds");
    st.seek(st.len());
    let cursor = st
        .as_any()
        .downcast_ref::<dipsandbox_core::engine::Cursor<HeldState>>();
    assert!(
        cursor
            .expect("the toy cursor")
            .state()
            .held
            .iter()
            .all(|h| *h)
    );
    st.seek(0);
    let cursor = st
        .as_any()
        .downcast_ref::<dipsandbox_core::engine::Cursor<HeldState>>();
    assert!(
        cursor
            .expect("the toy cursor")
            .state()
            .held
            .iter()
            .all(|h| !*h)
    );
}

#[test]
fn the_toy_engine_is_an_engine_of_the_command_line() {
    let reg = registry();
    assert_eq!(reg.names(), ["decisions", "dpjudge", "guess", "hold"]);
    // `--engine hold` parses with the extended registry, not with the built-in one.
    let args = ["dipsandbox", "--engine", "hold", "check", CIRCLE];
    let c = cli::parse_args(&reg, args).expect("parses");
    assert_eq!(c.engine().engine.name(), "hold");
    assert!(!c.engine().default);
    let e = cli::parse_args(&Registry::builtin(), args).expect_err("unknown to the built-in");
    assert!(
        e.to_string()
            .contains("unknown engine \"hold\"; expected decisions or dpjudge"),
        "{e}"
    );
    let e = cli::parse_args(&reg, ["dipsandbox", "--engine", "nope", "check", CIRCLE])
        .expect_err("unknown");
    assert!(
        e.to_string()
            .contains("unknown engine \"nope\"; expected decisions or dpjudge or guess or hold"),
        "{e}"
    );
    // `check --engine hold`: the circle's moves were expected to succeed.
    let c = cli::parse_args(&reg, args).expect("parses");
    assert_eq!(cli::run(c, &reg).expect("runs"), ExitCode::from(1));
    let c = cli::parse_args(&reg, ["dipsandbox", "check", CIRCLE]).expect("parses");
    assert_eq!(cli::run(c, &reg).expect("runs"), ExitCode::SUCCESS);
}

#[test]
fn diff_engines_compares_the_toy_engine() {
    let reg = registry();
    let (a, b) = cli::engines_arg(&reg, "decisions,hold").expect("two engines");
    assert_eq!((a.name(), b.name()), ("decisions", "hold"));
    assert!(cli::engines_arg(&Registry::builtin(), "decisions,hold").is_err());
    // What the command line compares per file: every move of the circle differs.
    let s = Scenario::load(Path::new(CIRCLE)).expect("loads");
    let d = diff_engines(&s, None, &*a, &*b).expect("compares");
    assert_eq!(d.orders.len(), s.orders.len());
    assert!(
        diff_engines(&s, None, &HoldEngine, &HoldEngine)
            .expect("compares")
            .is_empty()
    );
    // And the whole command: exit 1 when the engines disagree, 0 when they do not.
    let run = |spec: &str| {
        let c = cli::parse_args(&reg, ["dipsandbox", "diff", spec, CIRCLE]).expect("parses");
        cli::run(c, &reg).expect("runs")
    };
    assert_eq!(run("--engines=decisions,hold"), ExitCode::from(1));
    assert_eq!(run("--engines=hold,hold"), ExitCode::SUCCESS);
    let _ = DecisionEngine;
}

#[test]
fn the_tui_engine_switch_cycles_through_the_toy_engine() {
    let s = Scenario::load(Path::new(CIRCLE)).expect("loads");
    let session = Session::with_registry(s, None, None, registry()).expect("opens");
    assert_eq!(session.engine.name(), "decisions");
    let mut a = common::app(Some(CIRCLE), "toy-engine");
    a.session = session;
    let mut seen = Vec::new();
    for _ in 0..4 {
        common::run(&mut a, 120, 40, "E");
        seen.push(a.session.engine.name().to_string());
    }
    assert_eq!(seen, ["dpjudge", "guess", "hold", "decisions"]);
    // On the toy engine: its verdicts, its own trace under the generic cursor, its name shown.
    common::run(&mut a, 120, 40, "E E E");
    assert_eq!(a.session.engine.name(), "hold");
    assert!(
        a.session
            .run
            .phase()
            .outcomes
            .iter()
            .all(|o| o.verdict == Verdict::Fails)
    );
    let st = a.session.cursor().expect("the toy engine's trace");
    assert_eq!(st.cursor(), st.len());
    assert!(a.session.stepper().is_none() && a.session.dp().is_none());
    let t = common::text(&common::run(&mut a, 120, 40, ""));
    assert!(t.contains("engine: hold"), "{t}");
    // The stepper view draws its trace with no TUI code of its own (the generic panel).
    let t = common::text(&common::run(&mut a, 120, 40, "2"));
    assert!(t.contains("hold trace ("), "{t}");
}
