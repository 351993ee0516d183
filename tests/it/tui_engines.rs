//! The engines travel with the app: opening a file (`o`, the browser), restoring kept edits, a new
//! scenario and opening a `versus` file keep the engines the app was started with (the
//! registry, engines registered at run time included) and the one selected.

use std::path::PathBuf;
use std::sync::Arc;

use dipsandbox::tui::app::App;
use dipsandbox::tui::recovery;
use dipsandbox::tui::session::DiskStamp;
use dipsandbox_core::engine::{DpjudgeEngine, Engine, Registry};
use dipsandbox_core::model::scenario::Scenario;

use crate::common::{self, folders, run};
use crate::toy_engine::hold::HoldEngine;

/// The built-in engines and the toy `hold`, registered at run time.
fn registry() -> Registry {
    let mut r = Registry::builtin();
    r.register(HoldEngine);
    r
}

/// An app on `file` with [`registry`], adjudicating with the DPjudge engine (as
/// `dipsandbox --engine dpjudge` starts it).
fn app_on(file: Option<&str>, f: dipsandbox::tui::browser::Folders) -> App {
    let mut a = App::open(file.map(std::path::Path::new), None, f).expect("opens");
    a.session.set_registry(registry());
    a.set_engine(Arc::new(DpjudgeEngine) as Arc<dyn Engine>);
    assert_eq!(a.session.engine.name(), "dpjudge");
    a
}

fn has_hold(a: &App) -> bool {
    a.session.registry().get("hold").is_some()
}

/// A scenario in the user's folder whose title the browser finds by `word`.
fn user_scenario(f: &dipsandbox::tui::browser::Folders, word: &str) -> PathBuf {
    let dir = f.user.clone().expect("user folder");
    let path = dir.join(format!("{word}.ron"));
    let text = std::fs::read_to_string("scenarios/datc/6.A.1.ron")
        .expect("6.A.1")
        .replacen("title: \"", &format!("title: \"{word} "), 1);
    std::fs::write(&path, text).expect("written");
    path
}

#[test]
fn opening_a_file_keeps_the_engines() {
    let f = folders("engines-open");
    let path = user_scenario(&f, "zebraregistry");
    let mut a = app_on(Some("scenarios/datc/6.E.6.ron"), f);
    run(&mut a, 120, 40, "o zebraregistry enter");
    assert_eq!(a.session.path.as_deref(), Some(path.as_path()));
    assert_eq!(a.session.engine.name(), "dpjudge", "the engine in use");
    assert_eq!(a.session.run.result.engine, "dpjudge", "and it adjudicated");
    assert!(has_hold(&a), "an engine registered at run time");
}

#[test]
fn restored_edits_keep_the_engines() {
    let f = folders("engines-restore");
    let s = Scenario::load(std::path::Path::new("scenarios/datc/6.E.6.ron")).expect("loads");
    let dir = common::temp_dir("engines-restore-files");
    let mine = dir.join("mine.ron");
    std::fs::copy("scenarios/datc/6.E.6.ron", &mine).expect("copied");
    let kept = f
        .recovery
        .clone()
        .expect("recovery")
        .join("recovery-999999998.ron");
    recovery::write(&kept, &s, Some((&mine, DiskStamp::of(&mine)))).expect("written");
    let mut a = app_on(None, f);
    run(&mut a, 120, 40, "y");
    assert_eq!(a.session.path.as_deref(), Some(mine.as_path()));
    assert!(a.session.is_dirty());
    assert_eq!(a.session.engine.name(), "dpjudge");
    assert_eq!(a.session.run.result.engine, "dpjudge");
    assert!(has_hold(&a));
    a.recovery.clear();
}

#[test]
fn a_new_scenario_keeps_the_engines() {
    let mut a = app_on(Some("scenarios/datc/6.E.6.ron"), folders("engines-new"));
    run(&mut a, 120, 40, "ctrl-n");
    run(&mut a, 120, 40, "enter");
    assert_eq!(a.session.path, None);
    assert_eq!(
        a.session.scenario().orders.len(),
        0,
        "the opening, no orders yet"
    );
    assert_eq!(a.session.engine.name(), "dpjudge");
    assert!(has_hold(&a));
}

/// A `versus` class file of the decision engine against the toy engine, opened with `o`:
/// the session still has `hold`, so the file opens on both engines side by side.
#[test]
fn a_versus_file_opened_later_finds_an_engine_registered_at_start() {
    let f = folders("engines-versus");
    let dir = f.user.clone().expect("user folder");
    let text = std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("6.A.1");
    let body = text
        .lines()
        .filter(|l| !l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
        .replacen("title: \"", "title: \"quaggaversus ", 1);
    let path = dir.join("quagga.ron");
    std::fs::write(
        &path,
        format!("// dipsandbox versus decisions hold --seed 0 --mix all: position 7\n{body}\n"),
    )
    .expect("written");
    let mut a = app_on(Some("scenarios/datc/6.A.1.ron"), f);
    run(&mut a, 120, 40, "o quaggaversus enter");
    assert_eq!(a.session.path.as_deref(), Some(path.as_path()));
    assert!(a.session.comparing_engines(), "both engines side by side");
    assert_eq!(a.session.engine.name(), "decisions");
    assert_eq!(a.session.compare.result.engine, "hold");
}

/// The engine-compare panel names the engines it compares (by their titles), whichever they
/// are: with the DPjudge engine in use, `3` then `V` compares it with the guess engine, and the
/// panel says so (it used to say "the decision model vs the DPjudge procedure" whatever the
/// engines).
#[test]
fn the_compare_panel_names_the_engines_it_compares() {
    let mut a = app_on(
        Some("scenarios/datc/6.F.16.ron"),
        folders("engines-compare"),
    );
    let screen = common::text(&run(&mut a, 160, 40, "3 V"));
    assert!(a.session.comparing_engines());
    assert_eq!(a.session.compare_engine.name(), "guess");
    assert!(
        screen.contains("the DPjudge procedure (steps 1–10) vs the guess algorithm (DATC 5.F)"),
        "{screen}"
    );
    assert!(!screen.contains("the decision model vs"), "{screen}");
}

/// The help lists every mark the views draw, and says that `!` in the decisions list means a
/// backup rule forced it (in the orders list it means illegal).
#[test]
fn the_help_explains_every_mark() {
    let mut a = app_on(Some("scenarios/datc/6.F.16.ron"), folders("engines-help"));
    a.set_engine(Arc::new(dipsandbox_core::engine::DecisionEngine) as Arc<dyn Engine>);
    // The marks are at the end of the help.
    run(&mut a, 160, 60, "?");
    let seen = common::text(&run(&mut a, 160, 60, "end"));
    for mark in ["✓ ✗ ! ∅ ·", "↺ ! ?", "▶", "•", "≠", "…"] {
        assert!(seen.contains(mark), "{mark} missing from the help:\n{seen}");
    }
    assert!(seen.contains("forced by a backup rule"), "{seen}");
}

/// The decision engine, counting the phases it is asked (an outside adjudicator's costly call).
#[derive(Debug, Default)]
struct Counting(std::sync::atomic::AtomicUsize);

impl Engine for Counting {
    fn name(&self) -> &str {
        "counting"
    }

    fn title(&self) -> &str {
        "the decision engine, counting its phases"
    }

    fn movement(
        &self,
        input: &dipsandbox_core::engine::PhaseInput<'_>,
        trace: bool,
    ) -> Result<dipsandbox_core::engine::Adjudication, dipsandbox_core::engine::EngineError> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut a = dipsandbox_core::engine::DecisionEngine.movement(input, trace)?;
        a.engine = "counting".to_string();
        Ok(a)
    }
}

/// Comparing two engines asks each one phase per change, not a second for the comparison (an
/// outside adjudicator is a process to start and wait for).
#[test]
fn comparing_engines_asks_each_engine_once() {
    let counting = Arc::new(Counting::default());
    let mut r = Registry::builtin();
    r.register_arc(counting.clone());
    let mut a = App::open(
        Some(std::path::Path::new("scenarios/datc/6.F.16.ron")),
        None,
        folders("compare-once"),
    )
    .expect("opens");
    a.session.set_registry(r);
    a.set_engine(counting.clone() as Arc<dyn Engine>);
    let asked = || counting.0.load(std::sync::atomic::Ordering::SeqCst);
    // `V` in the rules view: compare with the next engine under the same rules, one request.
    run(&mut a, 120, 40, "3");
    let before = asked();
    run(&mut a, 120, 40, "V");
    assert!(a.session.comparing_engines(), "comparing engines");
    assert_ne!(a.session.compare_engine.name(), "counting");
    assert_eq!(a.session.rules, a.session.compare_rules);
    assert_eq!(
        asked() - before,
        1,
        "one phase for the run, none more for the comparison"
    );
    // The comparison is the two runs': the panel names both engines.
    let t = common::text(&run(&mut a, 120, 40, ""));
    assert!(t.contains("counting"), "{t}");
    // The same differences as the engine diff the command line runs.
    let want = dipsandbox_core::tools::diff::diff_engines(
        a.session.scenario(),
        Some(a.session.rules),
        &*a.session.engine,
        &*a.session.compare_engine,
    )
    .expect("compares");
    assert_eq!(a.session.diff, want);
}
