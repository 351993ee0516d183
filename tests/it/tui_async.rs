//! Engines off the UI thread, in-process: requests on a worker, a newer request superseding an
//! older one (a stale result never lands), cancelling, and an engine's error shown where the
//! verdicts would be. (The real binary with a sleeping and a crashing outside program is in
//! `pty.rs`.)

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dipsandbox::tui::app::App;
use dipsandbox::tui::event::Input;
use dipsandbox::tui::keymap::Key;
use dipsandbox::tui::session::RunState;
use dipsandbox::tui::{handle_input, take_result};
use dipsandbox_core::engine::outside::engine::OutsideEngine;
use dipsandbox_core::engine::{
    Adjudication, DecisionEngine, Engine, EngineError, PhaseInput, Registry, Verdict,
};
use ratatui::crossterm::event::KeyEvent;

use crate::common::{self, text};
use crate::toy_engine::hold::HoldEngine;

/// An engine that waits `delay` (in steps of 5 ms, ending early when its request's flag is
/// set) before it answers as `inner` does; it counts the phases it finished.
pub struct Slow {
    name: String,
    inner: Arc<dyn Engine>,
    delay: Duration,
    /// Phases begun.
    pub started: AtomicUsize,
    /// Phases answered or abandoned.
    pub finished: AtomicUsize,
    /// It fails instead of answering.
    fails: bool,
}

impl Slow {
    pub fn new(name: &str, inner: Arc<dyn Engine>, delay: Duration) -> Arc<Slow> {
        Arc::new(Slow {
            name: name.into(),
            inner,
            delay,
            started: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            fails: false,
        })
    }

    /// One that fails after `delay`, as a program that gives up would.
    pub fn failing(name: &str, delay: Duration) -> Arc<Slow> {
        Arc::new(Slow {
            name: name.into(),
            inner: Arc::new(DecisionEngine),
            delay,
            started: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            fails: true,
        })
    }
}

impl Engine for Slow {
    fn name(&self) -> &str {
        &self.name
    }

    fn title(&self) -> &str {
        "a slow engine (tests)"
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        self.adjudicate(input, trace)
    }

    /// Every phase (retreats and adjustments too) waits, then answers as `inner` does.
    fn adjudicate(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let end = Instant::now() + self.delay;
        let mut result = None;
        while Instant::now() < end {
            if input.cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
                result = Some(Err(EngineError {
                    engine: self.name.clone(),
                    message: "cancelled".into(),
                }));
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let r = result.unwrap_or_else(|| {
            if self.fails {
                return Err(EngineError {
                    engine: self.name.clone(),
                    message: format!("{}: it gave up (on purpose)", input.phase),
                });
            }
            let mut a = self.inner.adjudicate(input, trace)?;
            a.engine = self.name.clone();
            Ok(a)
        });
        self.finished.fetch_add(1, Ordering::SeqCst);
        r
    }
}

/// A key as the keymap file writes it.
fn key(k: &str) -> Input {
    let k = Key::parse(k).expect("a key");
    Input::Key(KeyEvent::new(k.code, k.mods))
}

/// An app on DATC 6.C.1 (three armies move in a circle: every move succeeds) whose requests
/// run on a worker and show as pending at once (no grace), with `engines` after the decision
/// engine in its registry.
fn app_on_worker(name: &str, engines: &[Arc<dyn Engine>]) -> App {
    let mut a = common::app(Some("scenarios/datc/6.C.1.ron"), name);
    let mut r = Registry::default();
    r.register(DecisionEngine);
    for e in engines {
        r.register_arc(e.clone());
    }
    a.session.set_registry(r);
    a.session.run_on_worker(Some(Duration::ZERO));
    a
}

/// Puts the app on a request on its way: a slow engine (300 ms) on a worker.
pub fn start_slow_request(a: &mut App) {
    let slow = Slow::new(
        "slow-for-keys",
        Arc::new(DecisionEngine),
        Duration::from_millis(300),
    );
    a.session.run_on_worker(Some(Duration::ZERO));
    a.session.set_engine(slow);
    assert!(a.session.state.is_pending(), "{:?}", a.session.state);
}

/// Back from [`start_slow_request`]: the decision engine, inline.
pub fn end_slow_request(a: &mut App) {
    a.session.cancel();
    a.session.run_on_worker(None);
    a.session.set_engine(Arc::new(DecisionEngine));
    assert_eq!(a.session.state, RunState::Current);
}

/// Waits (up to 10 s) until `done`.
fn wait_until(what: &str, done: &dyn Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every order's verdict, as the orders panel shows it now.
fn verdicts(a: &App) -> Vec<Option<Verdict>> {
    (0..a.session.scenario().orders.len())
        .map(|i| a.session.verdict_now(i))
        .collect()
}

/// A newer request supersedes an older one: the engine switch goes to a slow engine that
/// holds every unit (request 1), then at once to a slower one that decides as the decision
/// engine does (request 2). Request 1 ends (cancelled) while request 2 is still on its way,
/// and its result is dropped: the screen stays "adjudicating…" with no verdict until request 2
/// lands, and then shows request 2's verdicts (every move succeeds), never request 1's (every
/// move fails) nor its cancellation.
#[test]
fn a_newer_request_supersedes_an_older_one() {
    let hold = Slow::new(
        "slow-hold",
        Arc::new(HoldEngine),
        Duration::from_millis(200),
    );
    let decide = Slow::new(
        "slower-decisions",
        Arc::new(DecisionEngine),
        Duration::from_secs(3),
    );
    let mut a = app_on_worker("async-supersede", &[hold.clone(), decide.clone()]);
    handle_input(&mut a, key("E"));
    assert_eq!(a.session.engine.name(), "slow-hold");
    assert!(a.session.state.is_pending(), "{:?}", a.session.state);
    wait_until("request 1 never began", &|| {
        hold.started.load(Ordering::SeqCst) > 0
    });
    handle_input(&mut a, key("E"));
    assert_eq!(a.session.engine.name(), "slower-decisions");
    // Request 1 finishes (cancelled: its engine stops early) while request 2 works.
    wait_until("request 1 never finished", &|| {
        hold.finished.load(Ordering::SeqCst) > 0
    });
    assert!(!take_result(&mut a, Some(Duration::from_millis(50))));
    assert!(a.session.state.is_pending(), "{:?}", a.session.state);
    assert!(
        verdicts(&a).iter().all(Option::is_none),
        "{:?}",
        verdicts(&a)
    );
    let t = text(&common::draw(&mut a, 120, 40));
    assert!(t.contains("adjudicating… by slower-decisions"), "{t}");
    // Request 2 lands.
    assert!(take_result(&mut a, None));
    assert_eq!(a.session.state, RunState::Current);
    assert_eq!(a.session.run.result.engine, "slower-decisions");
    assert!(
        verdicts(&a).iter().all(|v| *v == Some(Verdict::Succeeds)),
        "{:?}",
        verdicts(&a)
    );
}

/// While a request is on its way, esc cancels it (and says so) instead of clearing the
/// selection, the status bar names the key, and no verdict is shown; with nothing on its way,
/// esc clears the selection as before.
#[test]
fn esc_cancels_a_pending_request_and_keeps_its_meaning_otherwise() {
    let slow = Slow::new("slow", Arc::new(DecisionEngine), Duration::from_secs(20));
    let engine: Arc<dyn Engine> = slow.clone();
    let mut a = app_on_worker("async-cancel", &[engine]);
    handle_input(&mut a, key("E"));
    assert!(a.session.state.is_pending());
    let t = text(&common::draw(&mut a, 120, 40));
    assert!(t.contains("adjudicating… by slow (esc cancels)"), "{t}");
    // Help opens while the engine works, and lists the cancel key; esc closes it (the
    // request goes on).
    handle_input(&mut a, key("?"));
    assert!(a.popup.is_some());
    let t = text(&common::draw(&mut a, 120, 40));
    assert!(t.contains("While adjudicating"), "{t}");
    assert!(t.contains("cancel the adjudication"), "{t}");
    handle_input(&mut a, key("esc"));
    assert!(a.popup.is_none());
    assert!(a.session.state.is_pending());
    let t = text(&common::draw(&mut a, 120, 40));
    assert!(t.contains("esc cancel"), "the status bar's hint: {t}");
    // The engine is at work (its phase began) when esc is pressed.
    wait_until("the engine never began", &|| {
        slow.started.load(Ordering::SeqCst) > 0
    });
    let t0 = Instant::now();
    handle_input(&mut a, key("esc"));
    assert_eq!(a.session.state, RunState::Cancelled("slow".into()));
    // The engine stopped at once (not after its 20 s).
    wait_until("the engine was not stopped", &|| {
        slow.finished.load(Ordering::SeqCst) > 0
    });
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert!(verdicts(&a).iter().all(Option::is_none));
    let t = text(&common::draw(&mut a, 120, 40));
    assert!(t.contains("cancelled the adjudication by slow"), "{t}");
    assert!(
        t.contains("no result: the adjudication by slow was cancelled"),
        "{t}"
    );
    // Nothing on its way: esc clears the selection, as it always did.
    a.board.province = a.session.order_province(0);
    handle_input(&mut a, key("esc"));
    assert_eq!(a.board.province, None);
    assert_eq!(a.session.state, RunState::Cancelled("slow".into()));
    // A new request asks again (here the engine switch, back to the decision engine): the
    // result comes.
    handle_input(&mut a, key("E"));
    take_result(&mut a, None);
    assert_eq!(a.session.state, RunState::Current);
    assert!(verdicts(&a).iter().all(|v| *v == Some(Verdict::Succeeds)));
}

/// A failing engine's error is shown where the verdicts would be, and no verdict of the
/// previous result is shown as current.
#[test]
fn a_failing_engine_shows_its_error_not_the_old_verdicts() {
    let mut a = common::app(Some("scenarios/datc/6.C.1.ron"), "async-fail");
    assert!(verdicts(&a).iter().all(|v| *v == Some(Verdict::Succeeds)));
    let spec = format!(
        "cmd:{} crash",
        crate::outside::example("broken_adapter").display()
    );
    let failing = OutsideEngine::from_spec(&spec)
        .expect("a cmd: spec")
        .expect("a command line");
    a.set_engine(Arc::new(failing));
    let RunState::Failed(e) = &a.session.state else {
        panic!("{:?}", a.session.state);
    };
    assert!(e.contains("giving up on purpose"), "{e}");
    assert!(
        verdicts(&a).iter().all(Option::is_none),
        "{:?}",
        verdicts(&a)
    );
    // Shown once in the status bar (the last line), until the next key.
    let t = text(&common::run(&mut a, 160, 40, ""));
    let status = t.lines().last().unwrap_or_default();
    assert!(status.starts_with("engine cmd:"), "{status}");
    assert!(
        a.message
            .as_ref()
            .is_some_and(|m| m.error && m.text.contains("exit status: 3")),
        "{:?}",
        a.message
    );
    assert!(t.contains("no result: engine cmd:"), "{t}");
    assert!(!t.contains("succeeds"), "{t}");
    let t = text(&common::run(&mut a, 160, 40, "2"));
    assert!(t.contains("no result: engine cmd:"), "{t}");
    assert!(!t.contains("succeeds"), "{t}");
}

/// The screens of the three states that are not a current result, at both sizes: a request on
/// its way (the board and the stepper view), one cancelled, one failed.
#[test]
fn snapshots_of_pending_cancelled_and_failed() {
    for (w, h) in [(120, 40), (80, 24)] {
        let slow = Slow::new("slow", Arc::new(DecisionEngine), Duration::from_secs(30));
        let mut a = app_on_worker(&format!("async-snap-{w}"), &[slow]);
        handle_input(&mut a, key("E"));
        handle_input(&mut a, key("?"));
        handle_input(&mut a, key("esc"));
        insta::assert_snapshot!(
            format!("pending_board_{w}x{h}"),
            text(&common::draw(&mut a, w, h))
        );
        handle_input(&mut a, key("2"));
        insta::assert_snapshot!(
            format!("pending_stepper_{w}x{h}"),
            text(&common::draw(&mut a, w, h))
        );
        handle_input(&mut a, key("esc"));
        insta::assert_snapshot!(
            format!("cancelled_stepper_{w}x{h}"),
            text(&common::draw(&mut a, w, h))
        );
        let failing = Slow::failing("gives-up", Duration::ZERO);
        let mut a = app_on_worker(&format!("async-snap-fail-{w}"), &[failing]);
        a.session.run_on_worker(None);
        handle_input(&mut a, key("E"));
        insta::assert_snapshot!(
            format!("failed_board_{w}x{h}"),
            text(&common::draw(&mut a, w, h))
        );
    }
}

/// Freezing the expectations with a slow engine: the edit asks the engine again, so the
/// message does not count checks it does not have yet ("0 checks"); once the result lands the
/// expectations are counted and all met.
#[test]
fn freezing_with_a_slow_engine_says_the_checks_come_with_the_result() {
    let slow = Slow::new(
        "slow-freeze",
        Arc::new(DecisionEngine),
        Duration::from_millis(150),
    );
    let slow: Arc<dyn Engine> = slow;
    let mut a = app_on_worker("async-freeze", &[slow]);
    handle_input(&mut a, key("E"));
    assert!(take_result(&mut a, None), "the first result lands");
    assert_eq!(a.session.state, RunState::Current);
    handle_input(&mut a, key("e"));
    let said = a
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(a.session.state.is_pending(), "{:?}", a.session.state);
    assert!(
        said.contains("checked when the adjudication ends"),
        "{said}"
    );
    assert!(!said.contains("0 checks"), "{said}");
    assert!(take_result(&mut a, None), "the result lands");
    let (bad, n) = a.session.expectations.clone().expect("expectations");
    assert!(n > 0 && bad.is_empty(), "{n} checks, {} differ", bad.len());
}

/// `W` draws the result on screen: while a request is on its way there is none, so it writes
/// nothing and says why (it neither draws the empty placeholder nor adjudicates again on the UI
/// thread); once the result is current it writes the picture and the page.
#[test]
fn the_picture_key_waits_for_a_current_result() {
    let mut a = common::app(Some("scenarios/datc/6.A.11.ron"), "tui_async_picture");
    let dir = a.folders.pictures.clone().expect("a pictures folder");
    let _ = std::fs::remove_file(dir.join("6.A.11.svg"));
    let _ = std::fs::remove_file(dir.join("6.A.11.html"));
    start_slow_request(&mut a);
    handle_input(&mut a, key("W"));
    let m = a.message.as_ref().expect("a message");
    assert!(m.error && m.text.contains("not current"), "{}", m.text);
    assert!(!dir.join("6.A.11.svg").exists());
    end_slow_request(&mut a);
    let t = text(&common::run(&mut a, 120, 40, "W"));
    assert!(dir.join("6.A.11.svg").is_file(), "{t}");
    assert!(dir.join("6.A.11.html").is_file(), "{t}");
}

/// A rule change against a replay's recording while the result is on its way says so (it read
/// "the recorded result" from the empty placeholder).
#[test]
fn a_rule_change_against_the_recording_while_adjudicating_says_so() {
    let file = crate::tui_replay::replays()[0].clone();
    let mut a = common::app(file.to_str(), "tui_async_recording");
    assert!(a.session.comparing_recording());
    start_slow_request(&mut a);
    assert!(a.session.comparing_recording());
    for k in ["3", "j", "l"] {
        handle_input(&mut a, key(k));
    }
    let m = &a.message.as_ref().expect("a message").text;
    assert!(
        m.starts_with("rules: ") && m.contains("adjudicating…"),
        "{m}"
    );
    assert!(!m.contains("the recorded result"), "{m}");
    end_slow_request(&mut a);
}
