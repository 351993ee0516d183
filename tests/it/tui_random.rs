//! Random sessions, as a newcomer trying keys gives them: every bound key of every context,
//! typed text, keys that nothing binds, clicks and wheel turns anywhere (off the screen too),
//! ticks, and the terminal resized between runs (from 1×1 to 160×50), on scenarios of every
//! phase, on variant maps and on a file of the user's own; a third of them crash (no quit)
//! and start again, offered their edits back. Nothing panics; the recovery file holds the
//! crashed session's edits; every file a session wrote (saved scenarios, the recovery file)
//! loads back; the scenario it ends with saves, loads back the same and saves to the same text.
//!
//! The loop is the main loop's ([`dipsandbox::tui::run_app`]'s `draw_frame` and
//! `handle_input`) with one guard: Enter on a save-as path outside the session's own folders
//! is pressed as Esc, so that a random path never writes into the repository or elsewhere.

use std::path::{Path, PathBuf};

use dipsandbox::tui::app::{App, Pending, Popup};
use dipsandbox::tui::event::{Input, Script};
use dipsandbox::tui::keymap::Keymap;
use dipsandbox::tui::theme::Theme;
use dipsandbox::tui::{draw_frame, handle_input, run_app};
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::PowerId;
use dipsandbox_core::model::scenario::{Expect, Scenario};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::common;

/// Where a session starts.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// The built-in scenario.
    BuiltIn,
    /// A bundled file (never overwritten: saving it asks where).
    Bundled(&'static str),
    /// A copy of a bundled file in the user's scenario folder, which ctrl-s saves in place.
    Own(&'static str),
}

/// The scenarios the sessions start on: the built-in one, a retreat and an adjustment phase,
/// variant maps (a two-coast province; 170 provinces without hand-drawn art; 34 powers; neutral
/// units; an island), a convoy paradox, and a file of the user's own.
const STARTS: [Start; 10] = [
    Start::BuiltIn,
    Start::Bundled("scenarios/year-1901/3-fall-1901-retreat.ron"),
    Start::Bundled("scenarios/year-1901/4-winter-1901-adjustment.ron"),
    Start::Bundled("scenarios/variants/youngstown-two-coasts-egypt.ron"),
    Start::Bundled("scenarios/variants/world-opening.ron"),
    Start::Bundled("scenarios/variants/chaos-first-builds-two-coasts.ron"),
    Start::Bundled("scenarios/variants/garrisons-neutral-dislodged-disbanded.ron"),
    Start::Bundled("scenarios/variants/ancmed-island-convoy-dislodged.ron"),
    Start::Bundled("scenarios/examples/math-figure-5.ron"),
    Start::Own("scenarios/datc/6.F.16.ron"),
];

/// One input of a random session.
#[derive(Clone, Debug)]
enum Step {
    /// A key of the keymap (any context).
    Bound(KeyEvent),
    /// A character typed: letters (not `q`, which would end most sessions at once), digits,
    /// punctuation and wide or combining characters; never `.`, `/` or `~` (see the guard).
    Char(char),
    /// A key with modifiers, bound or not.
    Key(KeyCode, KeyModifiers),
    /// A click at (column, row), off the screen too.
    Click(u16, u16),
    /// A wheel turn at (column, row).
    Scroll(i8, u16, u16),
    /// Time passing (autoplay).
    Tick,
}

/// Every key of the default keymap, once for each binding that lists it.
fn bound_keys() -> Vec<KeyEvent> {
    Keymap::default()
        .bindings()
        .iter()
        .flat_map(|b| b.keys.iter().map(|k| KeyEvent::new(k.code, k.mods)))
        .collect()
}

fn step() -> impl Strategy<Value = Step> {
    let chars: Vec<char> = ('a'..='z')
        .filter(|&c| c != 'q')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain([
            ' ', '-', ',', '(', ')', '*', 'é', 'ß', '→', '漢', '\u{301}', '\u{7f}',
        ])
        .collect();
    let keys = vec![
        KeyCode::Esc,
        KeyCode::Enter,
        KeyCode::Backspace,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Delete,
        KeyCode::Insert,
        KeyCode::F(1),
        KeyCode::F(5),
        KeyCode::Char('z'),
        KeyCode::Char('s'),
        KeyCode::Char('u'),
        KeyCode::Char('r'),
        KeyCode::Char('n'),
        KeyCode::Char('y'),
    ];
    let mods = vec![
        KeyModifiers::NONE,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL | KeyModifiers::SHIFT,
    ];
    prop_oneof![
        8 => prop::sample::select(bound_keys()).prop_map(Step::Bound),
        4 => prop::sample::select(chars).prop_map(Step::Char),
        3 => (prop::sample::select(keys), prop::sample::select(mods))
            .prop_map(|(k, m)| Step::Key(k, m)),
        1 => (0u16..170, 0u16..60).prop_map(|(x, y)| Step::Click(x, y)),
        1 => (prop::sample::select(vec![-1i8, 1]), 0u16..170, 0u16..60)
            .prop_map(|(d, x, y)| Step::Scroll(d, x, y)),
        1 => Just(Step::Tick),
    ]
}

/// A terminal size: tiny, or usual to large.
fn size() -> impl Strategy<Value = (u16, u16)> {
    prop_oneof![
        1 => (1u16..=24, 1u16..=10),
        3 => (60u16..=160, 16u16..=50),
    ]
}

/// A run of steps at one terminal size.
type Run = ((u16, u16), Vec<Step>);

/// Where a session starts, its runs of steps, and (when `Some`) a crash after them: the
/// process ends without a quit, and the next start (with the runs given) is offered the edits
/// back from the recovery file.
type Session = (usize, Vec<Run>, Option<Vec<Run>>);

/// Runs of steps, each at its own size (the terminal resized between them); a third of the
/// sessions crash and start again.
fn session(steps: usize, runs: usize) -> impl Strategy<Value = Session> {
    let runs =
        move || prop::collection::vec((size(), prop::collection::vec(step(), 0..steps)), 1..=runs);
    (
        0..STARTS.len(),
        runs(),
        prop::option::weighted(0.33, runs()),
    )
}

/// The input a step gives.
fn input(step: &Step) -> Input {
    match *step {
        Step::Bound(k) => Input::Key(k),
        Step::Char(c) => Input::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        Step::Key(k, m) => Input::Key(KeyEvent::new(k, m)),
        Step::Click(x, y) => Input::Click(x, y),
        Step::Scroll(d, x, y) => Input::Scroll(d, x, y),
        Step::Tick => Input::Tick,
    }
}

/// Whether Enter now would save outside the session's scenario folder: a save-as path that is
/// absolute (the offered one, shortened by Backspace) or relative to the current folder. (A
/// relative path is in the scenario folder.)
fn saves_outside(app: &App, user: &Path) -> bool {
    let Some(Popup::SaveAs(text)) = &app.popup else {
        return false;
    };
    let t = text.trim();
    let p = Path::new(t);
    (p.is_absolute() || t.starts_with('.')) && !p.starts_with(user) || t.contains("..")
}

/// Plays a session from `STARTS[start]` in folders named after `name`: its runs, then, if it
/// is to crash and has unsaved edits, a restart from the recovery file and the runs after it.
fn play(name: &str, (start, runs, after_crash): &Session) -> Result<App, TestCaseError> {
    let folders = common::folders(name);
    let user = folders.user.clone().expect("a scenario folder");
    let file = match STARTS[*start] {
        Start::BuiltIn => None,
        Start::Bundled(f) => Some(PathBuf::from(f)),
        Start::Own(f) => {
            let own = user.join("own.ron");
            std::fs::copy(f, &own).expect("copied");
            Some(own)
        }
    };
    let open = || {
        let mut app = App::open(file.as_deref(), None, folders.clone()).expect("opens");
        app.theme = Theme::new(true);
        app
    };
    let mut app = open();
    play_runs(&mut app, runs, &user);
    if let Some(more) = after_crash
        && !app.quit
        && app.session.is_dirty()
    {
        // The crash: this process's recovery file is left as a dead process's (no process
        // has a number this high), and the app is gone without a quit.
        let ours = app.recovery.file().expect("a recovery folder");
        let theirs = ours.with_file_name("recovery-4000000000.ron");
        std::fs::rename(&ours, &theirs).expect("the edits are in the recovery file");
        let kept = Scenario::load(&theirs)
            .map_err(|e| TestCaseError::fail(format!("the recovery file does not load: {e}")))?;
        same_scenario(&kept, app.session.scenario())?;
        drop(app);
        app = open();
        prop_assert!(
            matches!(app.popup, Some(Popup::Confirm(_, Pending::Restore(_)))),
            "the next start offers the edits back: {:?}",
            app.popup
        );
        play_runs(&mut app, more, &user);
    }
    Ok(app)
}

/// Plays runs of steps: the main loop's work for each input, the terminal resized between runs.
fn play_runs(app: &mut App, runs: &[Run], user: &Path) {
    for ((w, h), steps) in runs {
        let mut terminal = Terminal::new(TestBackend::new(*w, *h)).expect("terminal");
        draw_frame(&mut terminal, app).expect("draws");
        for s in steps {
            if app.quit {
                return;
            }
            let mut i = input(s);
            if let Input::Key(k) = i
                && k.code == KeyCode::Enter
                && saves_outside(app, user)
            {
                i = Input::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
            }
            handle_input(app, i);
            draw_frame(&mut terminal, app).expect("draws");
            selections_are_on_the_scenario(app, s);
        }
    }
}

/// What the panes point at exists: the selected province on the map, the selected order among
/// the orders, the selected decision among the stepper's rows, the trace cursor within the trace.
fn selections_are_on_the_scenario(app: &App, after: &Step) {
    let s = app.session.scenario();
    if let Some(p) = app.board.province {
        assert!(
            (p.0 as usize) < s.map.province_count(),
            "after {after:?}: province {p:?} of a map of {}",
            s.map.province_count()
        );
    }
    assert!(
        app.orders.order < s.orders.len().max(1),
        "after {after:?}: order {} of {}",
        app.orders.order,
        s.orders.len()
    );
    // The stepper's list: the decision graph's nodes, or (DPjudge) a row per unit.
    let decisions = if app.session.dp().is_some() {
        s.units.len()
    } else {
        app.session
            .run
            .result
            .decisions()
            .as_ref()
            .map_or(0, |m| m.graph.nodes.len())
    };
    assert!(
        app.stepper.decision < decisions.max(1),
        "after {after:?}: decision {} of {decisions}",
        app.stepper.decision
    );
    if let Some(c) = app.session.cursor() {
        assert!(
            c.cursor() <= c.len(),
            "after {after:?}: step {} of {}",
            c.cursor(),
            c.len()
        );
    }
}

/// Every file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Expectations as they are compared: each result by its order (the key it is held by may
/// change: a save writes `"Italy: Waive"` where two powers waive), the unit lists as sets, and
/// the expected dislodged units by type and place (files name no power for them).
fn as_sets(e: &Option<Expect>) -> Option<Expect> {
    e.clone().map(|mut e| {
        for (_, key, _) in &mut e.results {
            key.clear();
        }
        for u in e.dislodged.iter_mut().flatten() {
            u.power = PowerId(0);
        }
        for list in [&mut e.positions, &mut e.dislodged].into_iter().flatten() {
            list.sort();
        }
        e
    })
}

/// What the session left: its files load, and its scenario saves (in the folder `name`) and
/// loads back the same.
fn check_what_is_left(app: &App, name: &str) -> Result<(), TestCaseError> {
    let mut written = Vec::new();
    for dir in [&app.folders.user, &app.folders.recovery]
        .into_iter()
        .flatten()
    {
        files(dir, &mut written);
    }
    for f in &written {
        // A picture (`W`) beside a scenario of the user's folder: an SVG, not a scenario.
        if f.extension().is_some_and(|e| e == "svg") {
            let text = std::fs::read_to_string(f).expect("readable");
            let doc = roxmltree::Document::parse(&text).map_err(|e| {
                TestCaseError::fail(format!("{}: not well-formed: {e}", f.display()))
            })?;
            if doc.root_element().tag_name().name() != "svg" {
                return Err(TestCaseError::fail(format!("{}: not an SVG", f.display())));
            }
            continue;
        }
        // Its page (`W` writes it beside the picture): a whole page with the trace's data.
        if f.extension().is_some_and(|e| e == "html") {
            let text = std::fs::read_to_string(f).expect("readable");
            if !(text.starts_with("<!DOCTYPE html>")
                && text.contains("id=\"steps-data\"")
                && text.trim_end().ends_with("</html>"))
            {
                return Err(TestCaseError::fail(format!(
                    "{}: not a whole page",
                    f.display()
                )));
            }
            continue;
        }
        if let Err(e) = Scenario::load(f) {
            return Err(TestCaseError::fail(format!(
                "{} was written by the session and does not load: {e}",
                f.display()
            )));
        }
    }
    let s = app.session.scenario();
    let dir = common::temp_dir(name);
    let (first, second) = (dir.join("final-1.ron"), dir.join("final-2.ron"));
    s.save_below(&first, "")
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = Scenario::load(&first)
        .map_err(|e| TestCaseError::fail(format!("the final scenario does not load: {e}")))?;
    same_scenario(&back, s)?;
    back.save_below(&second, "")
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let (a, b) = (
        std::fs::read_to_string(&first).expect("saved"),
        std::fs::read_to_string(&second).expect("saved"),
    );
    prop_assert_eq!(a, b, "saving what was loaded changed the text");
    Ok(())
}

/// `back` (a scenario saved and loaded) is `s`: every field, the units and the expected unit
/// lists as sets, each expected result by its order.
fn same_scenario(back: &Scenario, s: &Scenario) -> Result<(), TestCaseError> {
    prop_assert_eq!(&back.title, &s.title);
    prop_assert_eq!(&back.description, &s.description);
    prop_assert_eq!(&back.source, &s.source);
    prop_assert_eq!(back.phase, s.phase);
    prop_assert_eq!(&back.rules, &s.rules);
    let sorted = |u: &[Unit]| {
        let mut v = u.to_vec();
        v.sort();
        v
    };
    prop_assert_eq!(sorted(&back.units), sorted(&s.units));
    prop_assert_eq!(&back.dislodged, &s.dislodged);
    prop_assert_eq!(&back.contested, &s.contested);
    prop_assert_eq!(&back.owners, &s.owners);
    prop_assert_eq!(&back.orders, &s.orders);
    prop_assert_eq!(as_sets(&back.expect), as_sets(&s.expect));
    prop_assert_eq!(
        back.retreats
            .as_ref()
            .map(|r| (&r.orders, as_sets(&r.expect))),
        s.retreats.as_ref().map(|r| (&r.orders, as_sets(&r.expect)))
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// A dozen random sessions of up to three runs of up to 40 inputs.
    #[test]
    fn random_sessions_never_panic_and_keep_what_they_write(session in session(40, 3)) {
        let app = play("random", &session)?;
        check_what_is_left(&app, "random-final")?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same, 300 sessions of up to four runs of up to 120 inputs.
    #[test]
    #[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
    fn many_long_random_sessions_never_panic_and_keep_what_they_write(session in session(120, 4)) {
        let app = play("random-long", &session)?;
        check_what_is_left(&app, "random-long-final")?;
    }
}

/// Found by the random sessions: a new scenario on the world map (170 provinces), a province
/// selected there, then undo back to the standard map (75): the selection pointed past the
/// map's provinces and the next frame panicked. The selection now goes.
#[test]
fn undo_to_a_smaller_map_drops_a_selection_that_is_not_on_it() {
    let mut app = common::app(None, "undo-smaller-map");
    let script = Script::keys("ctrl-n")
        .and_text("the opening position on the map world")
        .and_keys("enter /")
        .and_text("Tajikistan")
        .and_keys("enter");
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    run_app(&mut terminal, &mut app, &mut script.clone()).expect("runs");
    assert_eq!(app.session.scenario().map.name, "world");
    let taj = app.board.province.expect("Tajikistan selected");
    assert!(
        taj.0 >= 75,
        "{taj:?} is on the standard map too: the test shows nothing"
    );
    run_app(&mut terminal, &mut app, &mut Script::keys("u")).expect("runs");
    assert_eq!(app.session.scenario().map.name, "standard");
    assert_eq!(app.board.province, None);
    // Redo brings the world back, and the board works on it.
    run_app(&mut terminal, &mut app, &mut Script::keys("U j l")).expect("runs");
    assert_eq!(app.session.scenario().map.name, "world");
}
