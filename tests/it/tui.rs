//! The TUI as a user meets it: whole scripted sessions against ratatui's `TestBackend` (keys
//! in, state and frames out), snapshots of every view at 120×40 and 80×24, and the colours that
//! carry meaning.

use crate::common;

use std::path::Path;

use common::{app, folders, run, text};

use dipsandbox::tui::action::Action;
use dipsandbox::tui::app::{App, Pending, Popup, Restoring, View};
use dipsandbox::tui::dispatch;
use dipsandbox::tui::editor::Field;
use dipsandbox::tui::event::{Input, Script};
use dipsandbox::tui::keymap::{Context, Keymap};
use dipsandbox::tui::layout::StepperPanels;
use dipsandbox::tui::run_app;
use dipsandbox::tui::session::Session;
use dipsandbox::tui::theme::Theme;
use dipsandbox_core::engine::decision::trace::Event;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

/// The cell where `needle` first starts on screen.
fn find(buf: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let n: Vec<char> = needle.chars().collect();
    for y in 0..buf.area.height {
        let row: Vec<String> = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        for x in 0..row.len() {
            if x + n.len() <= row.len() && (0..n.len()).all(|k| row[x + k] == n[k].to_string()) {
                return Some((x as u16, y));
            }
        }
    }
    None
}

/// The screen cell of a trace row (row 0 is "start"), while the trace is scrolled to its top.
fn trace_row(a: &App, row: u16) -> (u16, u16) {
    let r = a.panes().trace.expect("stepper view shows the trace");
    (r.x + 1, r.y + 1 + row)
}

#[test]
fn opens_on_the_builtin_scenario_with_results() {
    let mut a = app(None, "open");
    let buf = run(&mut a, 120, 40, "");
    let t = text(&buf);
    assert!(t.contains("Pandin's paradox"), "{t}");
    assert!(t.contains("expectations: all 8 met"), "{t}");
    // Every order is listed with a verdict glyph; the move that fails says why.
    assert!(t.contains("Orders (6)"), "{t}");
    assert!(t.contains("✗ Fra A Bre - Lon"), "{t}");
    assert_eq!(a.view, View::Board);
}

#[test]
fn snapshots_of_every_view() {
    for (w, h) in [(120, 40), (80, 24)] {
        let cases = [
            ("board", None, ""),
            ("stepper", None, "2"),
            ("stepper-start", None, "2 g"),
            ("rules", None, "3"),
            ("help", None, "?"),
            ("browser", None, "o 6.F.1"),
            (
                "retreat",
                Some("scenarios/year-1901/3-fall-1901-retreat.ron"),
                "2",
            ),
            (
                "adjustment",
                Some("scenarios/year-1901/4-winter-1901-adjustment.ron"),
                "2",
            ),
            ("circular", Some("scenarios/datc/6.C.1.ron"), "2 g ]"),
        ];
        for (name, file, keys) in cases {
            let mut a = app(file, &format!("snap-{name}-{w}"));
            let buf = run(&mut a, w, h, keys);
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), text(&buf));
        }
    }
}

#[test]
fn verdict_glyphs_carry_their_colours() {
    let mut a = app(None, "colours");
    let buf = run(&mut a, 120, 40, "");
    let (x, y) = find(&buf, "✗ Fra A Bre").expect("failed move listed");
    assert_eq!(buf[(x, y)].fg, Color::Red);
    let (x, y) = find(&buf, "✓ Eng F Lon").expect("given support listed");
    assert_eq!(buf[(x, y)].fg, Color::Green);
    // Without colour, the glyphs still tell them apart.
    let mut a = app(None, "nocolour");
    a.theme = Theme::new(false);
    let buf = run(&mut a, 120, 40, "");
    let (x, y) = find(&buf, "✗ Fra A Bre").expect("failed move listed");
    assert_eq!(buf[(x, y)].fg, Color::Reset);
}

#[test]
fn pandin_steps_to_the_szykman_event_and_back() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "pandin");
    // To the start, then the first cycle event.
    let buf = run(&mut a, 120, 40, "2 g ]");
    let t = text(&buf);
    assert!(t.contains("CYCLE (convoy paradox)"), "{t}");
    let st = a.session.stepper().expect("movement phase has a stepper");
    let Some(Event::CycleFound { members, .. }) = st.last_event() else {
        panic!("cursor on a cycle event: {:?}", st.last_event());
    };
    assert_eq!(members.len(), 6, "Pandin's cycle has six decisions");
    // Cycle members are marked in the decisions panel, in the cycle colour.
    let (x, y) = find(&buf, "↺").expect("a cycle member is marked");
    assert_eq!(buf[(x, y)].fg, Color::LightMagenta);
    // The next backup event names the rule.
    let buf = run(&mut a, 120, 40, "] ]");
    let t = text(&buf);
    assert!(t.contains("Szykman"), "{t}");
    // Back to the start: every decision open again.
    let buf = run(&mut a, 120, 40, "g");
    let t = text(&buf);
    assert!(t.contains("start: nothing decided yet"), "{t}");
    let st = a.session.stepper().expect("stepper");
    assert_eq!(st.cursor(), 0);
    // As of the start, no order has a verdict yet.
    assert_eq!(a.session.verdict_now(0), None);
}

#[test]
fn the_cursor_row_of_the_trace_is_highlighted() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "cursor");
    let buf = run(&mut a, 120, 40, "2 g n n");
    // The third trace row (after "start" and two steps) is the cursor: reversed on blue.
    let (x, y) = trace_row(&a, 2);
    assert_eq!(buf[(x, y)].symbol(), " ");
    assert_eq!(buf[(x + 3, y)].symbol(), "2");
    assert_eq!(buf[(x, y)].bg, Color::Blue);
    let (x, y) = trace_row(&a, 1);
    assert_ne!(buf[(x, y)].bg, Color::Blue);
}

#[test]
fn circular_movement_is_named() {
    let mut a = app(Some("scenarios/datc/6.C.1.ron"), "circ");
    let t = text(&run(&mut a, 120, 40, "2 g ] ]"));
    assert!(t.contains("circular movement"), "{t}");
}

/// Beside the stepper, the equation oracle's count: two solutions for the simple convoy paradox,
/// none for Pandin's, one for a bounce; and it follows a change of rules (Pandin under 1982 has
/// one).
#[test]
fn the_stepper_shows_how_many_solutions_the_equations_have() {
    for (file, line) in [
        (
            "scenarios/datc/6.F.14.ron",
            "2 solutions: the backup rule decides",
        ),
        (
            "scenarios/datc/6.F.16.ron",
            "0 solutions: the backup rule decides",
        ),
        (
            "scenarios/datc/6.A.11.ron",
            "1 solution: the equations decide",
        ),
    ] {
        for (w, h) in [(120, 40), (80, 24)] {
            let mut a = app(Some(file), "solutions");
            let t = text(&run(&mut a, w, h, "2"));
            assert!(t.contains(line), "{file} at {w}x{h}:\n{t}");
        }
    }
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "solutions-rules");
    run(&mut a, 120, 40, "3 j l l");
    assert_eq!(a.session.rules.paradox.as_str(), "Rule1982");
    let t = text(&run(&mut a, 120, 40, "2"));
    assert!(t.contains("1 solution: the equations decide"), "{t}");
    // The count is drawn in the colour of cycles where a backup rule decides.
    let mut a = app(Some("scenarios/datc/6.F.14.ron"), "solutions-colour");
    let buf = run(&mut a, 120, 40, "2");
    let (x, y) = find(&buf, "2 solutions").expect("count shown");
    assert_eq!(buf[(x, y)].fg, a.theme.cycle().fg.unwrap_or(Color::Reset));
}

/// An order with no expected result (added after the expectations were written) is counted in
/// the status bar, so that "all met" does not hide it.
#[test]
fn orders_without_an_expectation_are_counted() {
    let text = r#"Scenario(
    title: "Half checked",
    map: "standard",
    phase: "Spring 1901 Movement",
    units: { "France": ["A Paris", "A Marseilles"] },
    orders: { "France": ["A Paris - Burgundy", "A Marseilles - Piedmont"] },
    expect: (results: [("A Paris - Burgundy", Succeeds)]),
)"#;
    let s =
        dipsandbox_core::model::scenario::Scenario::from_ron(text, "inline.ron").expect("loads");
    let session = Session::new(s, None, None).expect("session");
    let mut a = App::new(
        session,
        Keymap::default(),
        Theme::new(true),
        folders("unchecked"),
    );
    let t = text_of(&run(&mut a, 120, 40, ""));
    assert!(
        t.contains("all 1 met; 1 order unchecked (e freezes)"),
        "{t}"
    );
    // Freezing gives every order its expectation (and the dislodged and positions).
    let t = text_of(&run(&mut a, 120, 40, "e"));
    assert!(t.contains("expectations: all 4 met"), "{t}");
    assert!(!t.contains("unchecked"), "{t}");
}

/// The order editor of an adjustment phase heads with the builds and removals due per power,
/// whole at 80 columns.
#[test]
fn the_adjustment_editor_heading_fits_80_columns() {
    let mut a = app(
        Some("scenarios/year-1901/4-winter-1901-adjustment.ron"),
        "adjust-heading",
    );
    let t = text(&run(&mut a, 80, 24, "i"));
    assert!(
        t.contains("builds due: Aus+2 Eng+1 Fra+2 Ger+2 Ita+1 Rus+2 Tur+1"),
        "{t}"
    );
}

#[test]
fn switching_the_paradox_rule_changes_outcomes_in_the_compare_view() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "rules");
    // Rules view, choose the paradox option, step its value to Rule1971, then Rule1982.
    let buf = run(&mut a, 120, 40, "3 j l l");
    assert_eq!(a.session.rules.paradox.as_str(), "Rule1982");
    let t = text(&buf);
    assert!(t.contains("* 4.A.2 paradox"), "{t}");
    // Pandin's paradox under 1982: the support is not cut, the army fails to move.
    assert!(t.contains("3 differences: 3 orders"), "{t}");
    // The expectations of the scenario (Szykman) no longer all hold.
    assert!(t.contains("expectations:"), "{t}");
    // Back to the scenario's rules.
    run(&mut a, 120, 40, "r");
    assert_eq!(a.session.rules, a.session.scenario().rules);
}

#[test]
fn selecting_an_order_selects_its_province_and_back() {
    let mut a = app(None, "select");
    run(&mut a, 120, 40, "tab j j");
    assert_eq!(a.focus, Context::Orders);
    assert_eq!(a.orders.order, 2);
    let map = a.session.scenario().map.clone();
    assert_eq!(a.board.province, map.find_province("bre"));
    // Find a province by name: its unit's order becomes the selected one.
    run(&mut a, 120, 40, "/ lon enter");
    assert_eq!(a.board.province, map.find_province("lon"));
    assert_eq!(a.orders.order, 0);
    // An unknown name is an error with a suggestion, and the selection stays.
    let t = text(&run(&mut a, 120, 40, "/ parsi enter"));
    assert!(t.contains("no province \"parsi\""), "{t}");
    assert_eq!(a.board.province, map.find_province("lon"));
}

#[test]
fn an_order_jumps_to_its_decisions() {
    let mut a = app(None, "jump");
    run(&mut a, 120, 40, "tab j j d");
    assert_eq!(a.view, View::Stepper);
    let m = a.session.run.result.decisions().expect("movement");
    let node = m.graph.nodes[a.stepper.decision];
    assert_eq!(node.kind.name(), "MOVE");
    assert_eq!(a.session.order_unit(2), Some(node.unit));
}

#[test]
fn the_browser_filters_opens_and_keeps_the_scenario_on_a_bad_file() {
    let f = folders("browser");
    let bad = f.user.clone().expect("user folder").join("broken.ron");
    std::fs::write(&bad, "Scenario(\n    title: \"x\",\n    nonsense: 3,\n)\n").expect("write");
    let mut a = App::open(None, None, f).expect("opens");
    let t = text(&run(&mut a, 120, 40, "o 6.C.1"));
    assert!(
        t.contains("Three army circular movement") || t.contains("6.C.1"),
        "{t}"
    );
    run(&mut a, 120, 40, "enter");
    assert!(a.popup.is_none());
    assert!(a.session.source_name().ends_with("6.C.1.ron"));
    // The user's broken file: a located error, the current scenario kept.
    let t = text(&run(&mut a, 120, 40, "o broken enter"));
    assert!(t.contains("broken.ron:"), "{t}");
    assert!(a.session.source_name().ends_with("6.C.1.ron"));
}

/// Every bound key at every size. The slow tier; the default tier presses each key at one of
/// the sizes ([`every_action_in_the_keymap_runs_at_one_size_each`]).
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn every_action_in_the_keymap_runs_in_a_session() {
    press_every_key(&|_, _| true);
}

/// Every bound key on both scenarios, each at one of the three sizes in turn (the k-th key at
/// size k mod 3): every key and every size, a third of the pairs.
#[test]
fn every_action_in_the_keymap_runs_at_one_size_each() {
    press_every_key(&|size, key| key % 3 == size);
}

/// Presses the bound keys in every context, on a movement and a retreat scenario, at a normal
/// and a tiny size: nothing panics, and each action does what its context says. `pick(size,
/// key)` says whether the key (its index among the keys) is pressed at the size (its index).
fn press_every_key(pick: &dyn Fn(usize, usize) -> bool) {
    let km = Keymap::default();
    for file in [None, Some("scenarios/year-1901/3-fall-1901-retreat.ron")] {
        for (size, (w, h)) in [(120, 40), (80, 24), (20, 10)].into_iter().enumerate() {
            let mut a = app(file, &format!("every-{w}"));
            let mut index = 0;
            for b in km.bindings() {
                if b.action == Action::Quit {
                    continue;
                }
                for k in &b.keys {
                    index += 1;
                    if !pick(size, index - 1) {
                        continue;
                    }
                    a.popup = None;
                    if matches!(b.context, Context::Decisions | Context::Tree) {
                        // The decision graph's panels: the decision engine (an earlier
                        // binding may have switched to another).
                        let de = a.session.registry().get("decisions").cloned();
                        a.set_engine(de.expect("the decision engine"));
                    }
                    let d = |a: &mut App, x: Action| dispatch(a, x);
                    match b.context {
                        Context::Help => d(&mut a, Action::Help),
                        Context::Browser => d(&mut a, Action::Open),
                        Context::Global => {}
                        Context::Board => d(&mut a, Action::ViewBoard),
                        Context::Orders => {
                            d(&mut a, Action::ViewBoard);
                            d(&mut a, Action::FocusNext);
                        }
                        Context::Decisions => d(&mut a, Action::ViewStepper),
                        Context::Tree => {
                            d(&mut a, Action::ViewStepper);
                            d(&mut a, Action::FocusNext);
                        }
                        Context::Trace => {
                            d(&mut a, Action::ViewStepper);
                            d(&mut a, Action::FocusPrev);
                        }
                        Context::Detail => {
                            // An engine with no panels of its own: its trace, then this.
                            let guess = a.session.registry().get("guess").cloned();
                            a.set_engine(guess.expect("the guess engine"));
                            d(&mut a, Action::ViewStepper);
                            d(&mut a, Action::FocusNext);
                            if !a.trace_only() {
                                // A retreat phase: no trace, so no such panel.
                                continue;
                            }
                        }
                        Context::Units => {
                            // The DPjudge procedure's units panel.
                            let dp = a.session.registry().get("dpjudge").cloned();
                            a.set_engine(dp.expect("the DPjudge engine"));
                            d(&mut a, Action::ViewStepper);
                            if a.stepper_panels() != StepperPanels::Procedure {
                                // A retreat phase: no procedure to show.
                                continue;
                            }
                        }
                        Context::Rules => d(&mut a, Action::ViewRules),
                        Context::Menu => d(&mut a, Action::Details),
                        Context::OrderEditor => {
                            d(&mut a, Action::ViewBoard);
                            let s = a.session.scenario();
                            a.board.province = s.units.first().map(|u| s.map.province_of(u.loc));
                            d(&mut a, Action::EditOrder);
                        }
                        Context::Find => d(&mut a, Action::Goto),
                        Context::SaveAs => d(&mut a, Action::SaveAs),
                        Context::Field => {
                            a.popup = Some(Popup::Field(Field::Title, "x".into()));
                        }
                        Context::Confirm => {
                            a.popup = Some(Popup::Confirm("?".into(), Pending::Quit));
                        }
                        Context::Adjudicating => crate::tui_async::start_slow_request(&mut a),
                        Context::Restore => {
                            a.popup = Some(Popup::Confirm(
                                "?".into(),
                                Pending::Restore(Restoring {
                                    file: "no-such-recovery.ron".into(),
                                    target: Some("no-such-target.ron".into()),
                                    stamp: None,
                                }),
                            ));
                        }
                    }
                    let key = ratatui::crossterm::event::KeyEvent::new(k.code, k.mods);
                    if b.context != Context::Global {
                        assert_eq!(
                            km.action(&a.contexts(), &key),
                            Some(b.action),
                            "{k} in {:?}",
                            b.context
                        );
                    }
                    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
                    run_app(&mut terminal, &mut a, &mut Script::new([Input::Key(key)]))
                        .expect("runs");
                    a.quit = false;
                    if b.context == Context::Adjudicating {
                        crate::tui_async::end_slow_request(&mut a);
                    }
                }
            }
        }
    }
}

#[test]
fn quit_ends_the_session() {
    let mut a = app(None, "quit");
    run(&mut a, 80, 24, "q");
    assert!(a.quit);
    // In the browser, q is typed into the filter; esc closes it.
    let mut a = app(None, "quit2");
    run(&mut a, 80, 24, "o q");
    assert!(!a.quit);
    assert!(matches!(&a.popup, Some(Popup::Browser(b)) if b.filter == "q"));
    run(&mut a, 80, 24, "esc");
    assert!(a.popup.is_none());
}

#[test]
fn mouse_clicks_select_orders_decisions_and_trace_rows() {
    let mut a = app(None, "mouse");
    let buf = run(&mut a, 120, 40, "");
    let (x, y) = find(&buf, "✗ Ger F Bel").expect("order row");
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([Input::Click(x + 3, y)]),
    )
    .expect("runs");
    assert_eq!(a.orders.order, 5);
    assert_eq!(a.focus, Context::Orders);
    // A click on a tab switches the view; on a trace row, moves the cursor there.
    let buf = run(&mut a, 120, 40, "2 g");
    let (x, y) = trace_row(&a, 1);
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([Input::Click(x + 2, y)]),
    )
    .expect("runs");
    let st = a.session.stepper().expect("stepper");
    assert_eq!(st.cursor(), a.session.steps[0] + 1);
    let (x, y) = find(&buf, " 3 Rules ").expect("tab");
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([Input::Click(x + 1, y)]),
    )
    .expect("runs");
    assert_eq!(a.view, View::Rules);
}

#[test]
fn autoplay_steps_on_ticks_and_stops_at_the_end() {
    let mut a = app(None, "play");
    run(&mut a, 80, 24, "space");
    assert!(a.stepper.playing);
    assert_eq!(a.session.stepper().map(|s| s.cursor()), Some(0));
    let ticks = a.session.steps.len() + 2;
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new(vec![Input::Tick; ticks]),
    )
    .expect("runs");
    let st = a.session.stepper().expect("stepper");
    assert_eq!(st.cursor(), *a.session.steps.last().expect("steps") + 1);
    assert!(!a.stepper.playing);
}

#[test]
fn a_keymap_file_patches_the_keys_and_a_bad_one_is_located() {
    let f = folders("keys");
    let dir = f.config.clone().expect("config");
    std::fs::write(dir.join("keys.ron"), "{ \"step_forward\": [\"v\"] }\n").expect("write");
    let mut a = App::open(
        Some(Path::new("scenarios/datc/6.F.16.ron")),
        None,
        f.clone(),
    )
    .expect("opens");
    run(&mut a, 120, 40, "g v");
    let st = a.session.stepper().expect("stepper");
    assert_eq!(st.cursor(), a.session.steps[0] + 1, "v steps forward");
    // The help lists the patched key (44 rows: the board's pan keys come first in the help).
    let t = text(&run(&mut a, 120, 44, "?"));
    assert!(
        t.contains("v") && t.contains("step forward one event"),
        "{t}"
    );
    std::fs::write(
        dir.join("keys.ron"),
        "{\n  \"step_forward\": [\"v\"],\n  \"warp\": [\"w\"],\n}\n",
    )
    .expect("write");
    let mut a = App::open(None, None, f).expect("opens with default keys");
    let t = text(&run(&mut a, 120, 40, ""));
    assert!(t.contains("keys.ron:3:4: unknown action \"warp\""), "{t}");
    // In a config folder as deep as a user's can be, the message is longer than the status
    // line: it is there whole, in a box above it.
    let mut f = folders("keys-deep");
    let deep = f.config.as_ref().expect("config").join(
        "a-config-folder-whose-name-is-longer-than-a-status-line-of-one-hundred-and-twenty-columns",
    );
    std::fs::create_dir_all(&deep).expect("folder");
    std::fs::write(deep.join("keys.ron"), "{\n  \"warp\": [\"w\"],\n}\n").expect("write");
    f.config = Some(deep);
    let mut a = App::open(None, None, f).expect("opens with default keys");
    let t = text(&run(&mut a, 120, 40, ""));
    let squeezed: String = t
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect();
    assert!(t.contains("┌ error"), "{t}");
    assert!(
        squeezed.contains("a-config-folder-whose-name-is-longer-than-a-status-line-of-one-hundred-and-twenty-columns/keys.ron:2:4:unknownaction\"warp\""),
        "{t}"
    );
}

#[test]
fn session_verdicts_follow_the_cursor() {
    let s =
        dipsandbox_core::model::scenario::Scenario::load(Path::new("scenarios/datc/6.F.16.ron"))
            .expect("loads");
    let mut session = Session::new(s, None, None).expect("session");
    let n = session.scenario().orders.len();
    let finals: Vec<_> = (0..n).map(|i| session.verdict_now(i)).collect();
    assert!(finals.iter().all(Option::is_some));
    session.cursor_mut().expect("a trace").seek(0);
    assert!((0..n).all(|i| session.verdict_now(i).is_none()));
}

#[test]
fn every_abbreviation_is_on_the_board_at_120x40() {
    let mut a = app(None, "abbrs");
    let buf = run(&mut a, 120, 40, "");
    let board = a.panes().board.expect("board view");
    let map = a.session.scenario().map.clone();
    for p in map.province_ids() {
        let abbr = &map.province(p).abbr;
        let (x, y) = art_anchor_on_screen(&a, p);
        let shown: String = (0..3)
            .map(|k| buf[(x + k, y)].symbol().to_string())
            .collect();
        assert_eq!(&shown, abbr, "{abbr} at its anchor");
        assert!(board.contains((x, y).into()), "{abbr} outside the board");
    }
    // Supply centres carry the owner's colour: London is English (blue).
    let (x, y) = art_anchor_on_screen(&a, map.find_province("lon").expect("lon"));
    assert_eq!(buf[(x + 3, y)].symbol(), "*");
    assert_eq!(buf[(x + 3, y)].fg, Color::Blue);
    // A click on a province's region selects it.
    let art = map.art().expect("art");
    let par = map.find_province("par").expect("par");
    let (ax, ay) = art.anchor(par);
    let r = board.inner(ratatui::layout::Margin::new(1, 1));
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([Input::Click(r.x + ax + 1, r.y + ay)]),
    )
    .expect("runs");
    assert_eq!(a.board.province, Some(par));
}

#[test]
fn a_map_without_art_gets_a_generated_board() {
    let text = r#"Scenario(
    title: "Seven provinces",
    map: "test7",
    phase: "Spring 1901 Movement",
    units: { "North": ["A bor"], "South": ["F cal"] },
    orders: { "North": ["A bor - dun"], "South": ["F cal - dun/wc"] },
)"#;
    let s =
        dipsandbox_core::model::scenario::Scenario::from_ron(text, "inline.ron").expect("loads");
    let session = Session::new(s, None, None).expect("session");
    let mut a = App::new(
        session,
        Keymap::default(),
        Theme::new(true),
        folders("list"),
    );
    for (w, h) in [(120, 40), (80, 24), (20, 10)] {
        let t = text_of(&run(&mut a, w, h, "l j"));
        // Generated art (borders, every label on it) where a list of names used to be.
        if w >= 120 {
            assert!(t.contains("+--"), "{t}");
            for abbr in ["bor", "dun", "cal", "hav"] {
                assert!(t.contains(abbr), "{abbr}: {t}");
            }
        }
    }
}

/// A map too big for art (generated art is at most 1000×1000 cells: from about 15,500
/// provinces on) is drawn as a list of entries `Aabbr* Name` in columns. Its
/// columns were 22 cells wide for a three-letter abbreviation, so `p12345` ran into its name and
/// the centre mark fell inside it; and positions were counted in 16 bits, so from the
/// 65,536th province on entries were drawn over others. Every entry has a cell of its own, and
/// on screen, wherever the board is scrolled to, each reads its unit (or a space), its whole
/// abbreviation, its centre mark and its name; a click anywhere on an entry selects it.
/// Slow tier (its size is what it guards); `a_map_of_16000_provinces_is_listed_in_columns_that_do_not_overlap`
/// runs the same on the smallest map that gets the list.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_map_of_100000_provinces_is_listed_in_columns_that_do_not_overlap() {
    listed_in_columns(100_000, "list-100000");
}

#[test]
fn a_map_of_16000_provinces_is_listed_in_columns_that_do_not_overlap() {
    listed_in_columns(16_000, "list-16000");
}

fn listed_in_columns(n: usize, name: &str) {
    use std::fmt::Write as _;
    let d = common::temp_dir(name);
    // A ring of inland provinces, every tenth a supply centre; p0 is Alpha's home.
    let mut m = String::from(
        "Map(name: \"big\", title: \"Big\", powers: [Power(name: \"Alpha\", adjective: \"Alphan\", home: [\"p0\"], start: [\"A p0\"]), Power(name: \"Beta\", adjective: \"Betan\", home: [], start: [])], provinces: [\n",
    );
    for i in 0..n {
        let _ = writeln!(
            m,
            "Province(abbr: \"p{i}\", name: \"Province {i}\", kind: Land, supply_center: {}, army: [\"p{}\", \"p{}\"]),",
            i % 10 == 0,
            (i + n - 1) % n,
            (i + 1) % n
        );
    }
    m.push_str("])\n");
    let map_file = d.join("big.ron");
    std::fs::write(&map_file, m).expect("write");
    let last = n - 1;
    let text = format!(
        "Scenario(title: \"Big\", map: {:?}, phase: \"Spring 1901 Movement\", units: {{\"Alpha\": [\"A p0\"], \"Beta\": [\"A p{last}\"]}}, orders: {{}})",
        map_file.to_str().expect("utf-8 path")
    );
    let s = dipsandbox_core::model::scenario::Scenario::from_ron(&text, "big-scenario.ron")
        .expect("loads");
    let session = Session::new(s, None, None).expect("session");
    let mut a = App::new(session, Keymap::default(), Theme::new(true), folders(name));
    // A click on the last cell of an entry's name selects it.
    common::run(&mut a, 120, 40, "");
    let label = format!("p{last}").len() as u16;
    let p3 = a.session.scenario().map.find_province("p3");
    let (ax, ay) = a.board.art.grid.anchors[3];
    let view = dipsandbox::tui::layout::board_area(a.panes().board.expect("board")).0;
    let (ox, oy) =
        dipsandbox::tui::grid::viewport(&a.board.art.grid, a.board.province, a.board.pan, view);
    let click = Input::Click(view.x + ax - ox + label + 2 + 14, view.y + ay - oy);
    common::run_script(&mut a, 120, 40, Script::new([click]));
    assert_eq!(a.board.province, p3, "a click on p3's name");
    for (w, h) in [(120, 40), (80, 24)] {
        for target in [None, Some(n / 2), Some(70_000 % n), Some(last)] {
            let script = match target {
                None => Script::keys(""),
                Some(i) => common::goto(&format!("p{i}")),
            };
            let buf = common::run_script(&mut a, w, h, script);
            if let Some(i) = target {
                let want = a.session.scenario().map.find_province(&format!("p{i}"));
                assert_eq!(a.board.province, want, "p{i} selected");
            }
            entries_read_whole(&a, &buf, n);
        }
    }
}

/// Every entry of the list that the board shows whole reads `U` (its unit or a space), its
/// abbreviation, spaces, `*` for a supply centre, spaces, its name; no two share a cell.
fn entries_read_whole(a: &App, buf: &Buffer, n: usize) {
    use dipsandbox::tui::grid::viewport;
    use dipsandbox::tui::layout::board_area;
    let g = &a.board.art.grid;
    let map = a.session.scenario().map.clone();
    assert!(!g.art, "a map of {n} provinces gets the list");
    let mut cells = std::collections::HashSet::new();
    for (i, &(x, y)) in g.anchors.iter().enumerate() {
        assert!(
            cells.insert((x, y)),
            "p{i} at {x},{y} is drawn over another"
        );
        assert!(
            x < g.width && y < g.height,
            "p{i} at {x},{y} outside the list"
        );
    }
    assert_eq!(g.anchors.len(), n);
    let view = board_area(a.panes().board.expect("board")).0;
    let (ox, oy) = viewport(g, a.board.province, a.board.pan, view);
    let cell = |x: u16, y: u16| buf[(x, y)].symbol().to_string();
    let mut whole = 0;
    for p in map.province_ids() {
        let (ax, ay) = g.anchors[p.0 as usize];
        let prov = map.province(p);
        let width = prov.abbr.len() + 2 + prov.name.len();
        if ay < oy
            || ay >= oy + view.height
            || ax < ox + 1
            || ax as usize + width > (ox + view.width) as usize
        {
            continue;
        }
        let (sx, sy) = (view.x + ax - ox, view.y + ay - oy);
        let unit = cell(sx - 1, sy);
        assert!(
            unit == " " || unit == "A",
            "{}: {unit:?} where its unit goes",
            prov.abbr
        );
        let read: String = (sx..view.right()).map(|x| cell(x, sy)).collect();
        let rest = read
            .strip_prefix(prov.abbr.as_str())
            .unwrap_or_else(|| panic!("{} not whole at its anchor: {read:?}", prov.abbr));
        let after_mark = rest.trim_start_matches(' ');
        let (mark, after_mark) = match after_mark.strip_prefix('*') {
            Some(r) => (true, r),
            None => (false, after_mark),
        };
        assert_eq!(mark, prov.supply_center, "{}: {read:?}", prov.abbr);
        assert!(
            after_mark.trim_start_matches(' ').starts_with(&prov.name),
            "{}: {read:?}",
            prov.abbr
        );
        whole += 1;
    }
    assert!(whole >= 10, "only {whole} entries shown whole");
}

/// Where a province's label is on screen (the board unpanned, as at 120×40).
fn art_anchor_on_screen(a: &App, p: dipsandbox_core::model::map::ProvinceId) -> (u16, u16) {
    let r = a
        .panes()
        .board
        .expect("board")
        .inner(ratatui::layout::Margin::new(1, 1));
    let (x, y) = a.session.scenario().map.art().expect("art").anchor(p);
    (r.x + x, r.y + y)
}

fn text_of(buf: &Buffer) -> String {
    text(buf)
}

#[test]
fn the_cause_of_the_selected_order_is_marked_on_the_board() {
    let mut a = app(None, "cause");
    // F Wales - English Channel bounces on the prevent strength of F Belgium.
    let buf = run(&mut a, 120, 40, "tab j");
    let map = a.session.scenario().map.clone();
    let bel = map.find_province("bel").expect("bel");
    assert_eq!(a.session.order_cause_provinces(1), vec![bel]);
    let (x, y) = art_anchor_on_screen(&a, bel);
    assert_eq!(buf[(x, y)].bg, Color::Magenta);
}

#[test]
fn esc_then_a_key_read_as_alt_key_does_both() {
    let mut a = app(None, "alt");
    run(&mut a, 80, 24, "2 alt-3");
    assert_eq!(a.view, View::Rules);
}

#[test]
fn a_scenario_with_retreats_lists_them_under_the_orders() {
    let mut a = app(Some("scenarios/datc/6.H.1.ron"), "retreats");
    let t = text(&run(&mut a, 120, 40, ""));
    assert!(t.contains("Retreats after the phase:"), "{t}");
}

#[test]
fn an_orders_decisions_include_the_strength_it_met() {
    let mut a = app(None, "decided");
    // F Wales - English Channel: its MOVE first, and the PREVENT of F Belgium that stopped it.
    run(&mut a, 120, 40, "tab j d");
    let m = a.session.run.result.decisions().expect("movement");
    let ds = a.session.order_decisions(1);
    let kinds: Vec<&str> = ds
        .iter()
        .map(|id| m.graph.nodes[*id as usize].kind.name())
        .collect();
    assert_eq!(kinds[0], "MOVE");
    let map = &a.session.scenario().map;
    let bel = map.find_province("bel").expect("bel");
    let bel_unit = a
        .session
        .scenario()
        .units
        .iter()
        .position(|u| map.province_of(u.loc) == bel);
    assert!(
        ds.iter().any(|id| {
            let n = m.graph.nodes[*id as usize];
            n.kind.name() == "PREVENT STRENGTH" && Some(n.unit) == bel_unit
        }),
        "{kinds:?}"
    );
    assert_eq!(a.stepper.decision, ds[0] as usize);
}

#[test]
fn freeze_expectations_save_as_and_reload() {
    let f = folders("save");
    let user = f.user.clone().expect("user folder");
    let mut a = App::open(Some(Path::new("scenarios/datc/6.F.16.ron")), None, f).expect("opens");
    // Under the 1982 rule, make the result the expectations: they are met, and the scenario
    // now carries the 1982 rule (so that `check` agrees).
    let t = text(&run(&mut a, 120, 40, "3 j l l e"));
    assert!(t.contains("expectations: all"), "{t}");
    assert!(a.session.is_dirty());
    assert_eq!(a.session.scenario().rules.paradox.as_str(), "Rule1982");
    // Back to Szykman: the status line names what differs.
    let t = text(&run(&mut a, 120, 40, "h h"));
    assert!(t.contains("differ"), "{t}");
    // Undo the freeze and the rule change: the DATC's own expectations again.
    run(&mut a, 120, 40, "u u");
    assert_eq!(a.session.scenario().rules.paradox.as_str(), "Szykman");
    run(&mut a, 120, 40, "U U");
    assert_eq!(a.session.scenario().rules.paradox.as_str(), "Rule1982");
    // Save: a bundled file is never overwritten; the prompt offers the user folder.
    run(&mut a, 120, 40, "ctrl-s");
    let Some(Popup::SaveAs(default)) = a.popup.clone() else {
        panic!("save on a bundled file asks where: {:?}", a.popup);
    };
    assert!(
        default.starts_with(&user.display().to_string()),
        "{default}"
    );
    let t = text(&run(&mut a, 120, 40, "enter"));
    assert!(t.contains("saved to"), "{t}");
    assert!(!a.session.is_dirty());
    let saved = a.session.path.clone().expect("saved path");
    assert!(saved.starts_with(&user));
    let back =
        dipsandbox_core::model::scenario::Scenario::load(&saved).expect("the saved file loads");
    let r = dipsandbox_core::tools::check::run(&back, None, false).expect("runs");
    let (bad, n) = dipsandbox_core::tools::check::compare(&back, &r);
    assert!(bad.is_empty() && n > 0, "{bad:?}");
    // The bundled file is untouched.
    let original = std::fs::read_to_string("scenarios/datc/6.F.16.ron").expect("bundled");
    assert!(!original.contains("Rule1982"));
    // Changed on disk since the save: saving again asks first.
    run(&mut a, 120, 40, "e");
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        &saved,
        std::fs::read_to_string(&saved).expect("read") + "\n",
    )
    .expect("touch");
    run(&mut a, 120, 40, "ctrl-s");
    assert!(matches!(a.popup, Some(Popup::Confirm(..))), "{:?}", a.popup);
    run(&mut a, 120, 40, "y");
    assert!(!a.session.is_dirty());
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let mut a = app(None, "quitask");
    run(&mut a, 80, 24, "e q");
    assert!(!a.quit);
    assert!(matches!(a.popup, Some(Popup::Confirm(..))));
    run(&mut a, 80, 24, "n");
    assert!(!a.quit && a.popup.is_none());
    run(&mut a, 80, 24, "q y");
    assert!(a.quit);
}

// ---------------------------------------------------------------------------------------------
// The loop: prompts and questions are the keymap's, update returns effects, the keys are data.

/// The first key the keymap binds to `action` in `context`, as an input.
fn bound(km: &Keymap, context: Context, action: Action) -> Input {
    let k = km
        .bindings()
        .iter()
        .find(|b| b.context == context && b.action == action)
        .and_then(|b| b.keys.first())
        .unwrap_or_else(|| panic!("{action:?} is bound in {context:?}"));
    Input::Key(ratatui::crossterm::event::KeyEvent::new(k.code, k.mods))
}

fn typed(text: &str) -> Vec<Input> {
    text.chars()
        .map(|c| {
            Input::Key(ratatui::crossterm::event::KeyEvent::new(
                ratatui::crossterm::event::KeyCode::Char(c),
                ratatui::crossterm::event::KeyModifiers::NONE,
            ))
        })
        .collect()
}

#[test]
fn a_prompt_and_a_question_follow_the_keymap_only() {
    // Keys of the prompt and of the question moved by a keys.ron patch: the old ones stop
    // working, the new ones work, and the status bar and the help say so.
    let f = folders("loop-prompt");
    let dir = f.config.clone().expect("config");
    std::fs::write(
        dir.join("keys.ron"),
        "{\n  \"find\": { \"select\": [\"tab\"], \"delete_char\": [\"ctrl-h\"] },\n  \"confirm\": { \"yes\": [\"j\"] },\n}\n",
    )
    .expect("write");
    let mut a = App::open(None, None, f).expect("opens");
    a.theme = Theme::new(true);
    let km = a.keymap.clone();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    // The prompt: find "lon" (typing "lonx", deleting the x with the patched key), then take
    // it with the patched key.
    let mut script = vec![bound(&km, Context::Global, Action::Goto)];
    script.extend(typed("lonx"));
    script.push(bound(&km, Context::Find, Action::DeleteChar));
    run_app(&mut terminal, &mut a, &mut Script::new(script)).expect("runs");
    assert_eq!(a.popup, Some(Popup::Goto("lon".into())));
    let t = text(terminal.backend().buffer());
    assert!(
        t.contains("find province: lon▏  tab go · esc cancel"),
        "{t}"
    );
    // Enter no longer takes the name; the patched key does.
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::keys("enter").then(Script::new([bound(&km, Context::Find, Action::Select)])),
    )
    .expect("runs");
    assert!(a.popup.is_none(), "{:?}", a.popup);
    let map = a.session.scenario().map.clone();
    assert_eq!(a.board.province, map.find_province("lon"));
    // The question: quitting with unsaved changes asks; y is no longer yes, n is still no,
    // and j is yes.
    let freeze = bound(&km, Context::Global, Action::Freeze);
    let quit = bound(&km, Context::Global, Action::Quit);
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([freeze, quit.clone()]),
    )
    .expect("runs");
    // The question names its keys from the keymap.
    assert!(
        matches!(&a.popup, Some(Popup::Confirm(q, Pending::Quit)) if q.contains("Quit anyway? j / n (ctrl-s saves)")),
        "{:?}",
        a.popup
    );
    assert_eq!(a.contexts(), vec![Context::Confirm]);
    run_app(&mut terminal, &mut a, &mut Script::keys("y")).expect("runs");
    assert!(!a.quit && a.popup.is_some(), "y does nothing now");
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([bound(&km, Context::Confirm, Action::No)]),
    )
    .expect("runs");
    assert!(!a.quit && a.popup.is_none());
    run_app(
        &mut terminal,
        &mut a,
        &mut Script::new([quit, bound(&km, Context::Confirm, Action::Yes)]),
    )
    .expect("runs");
    assert!(a.quit);
    // The help lists the prompts' and questions' keys from the same keymap.
    let vm = a.view_model(ratatui::layout::Rect::new(0, 0, 120, 40));
    let lines = dipsandbox::tui::view::help::lines(&vm);
    let section = |c: Context| {
        let start = lines
            .iter()
            .position(|(h, _, _)| *h == Some(c))
            .unwrap_or_else(|| panic!("help lists {c:?}"));
        lines[start + 1..]
            .iter()
            .take_while(|(h, _, _)| h.is_none())
            .map(|(_, k, w)| format!("{k}: {w}"))
            .collect::<Vec<_>>()
    };
    let find = section(Context::Find);
    assert!(
        find.contains(&"tab: go to the province typed".to_string()),
        "{find:?}"
    );
    assert!(
        find.contains(&"ctrl-h: delete a character".to_string()),
        "{find:?}"
    );
    assert!(section(Context::Confirm).contains(&"j: yes: go ahead".to_string()));
}

#[test]
fn ctrl_c_is_a_binding_not_hard_wired() {
    // Given to nothing (quit is q only), ctrl-c does nothing; q still quits.
    let f = folders("loop-ctrl-c");
    let dir = f.config.clone().expect("config");
    std::fs::write(dir.join("keys.ron"), "{ \"quit\": [\"q\"] }\n").expect("write");
    let mut a = App::open(None, None, f).expect("opens");
    let t = text(&run(&mut a, 80, 24, "ctrl-c"));
    assert!(!a.quit);
    assert!(t.contains("ctrl-c does nothing here"), "{t}");
    run(&mut a, 80, 24, "q");
    assert!(a.quit);
    // By default ctrl-c quits, from the help popup too.
    let mut a = app(None, "loop-ctrl-c-help");
    run(&mut a, 80, 24, "? ctrl-c");
    assert!(a.quit);
}

#[test]
fn update_on_the_save_question_returns_a_save_effect_and_writes_nothing() {
    use dipsandbox::tui::effect::{Done, Effect};
    let f = folders("loop-save");
    let user = f.user.clone().expect("user");
    let target = user.join("mine.ron");
    std::fs::write(&target, "not touched\n").expect("write");
    let mut a = App::open(None, None, f).expect("opens");
    dispatch(&mut a, Action::Freeze);
    assert!(a.session.is_dirty());
    a.popup = Some(Popup::Confirm(
        "mine.ron exists. Overwrite? y / n".into(),
        Pending::Overwrite(target.clone()),
    ));
    let fx = a.update(Action::Yes);
    assert_eq!(
        fx,
        vec![Effect::Save {
            path: target.clone(),
            force: true,
            or_save_as: false
        }]
    );
    // Nothing was written: update does no I/O; the session is as it was, the question gone.
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "not touched\n"
    );
    assert!(a.session.is_dirty() && a.popup.is_none());
    // The runner does it, and what it came to goes back to update.
    let done = dipsandbox::tui::runner::perform(&mut a, fx[0].clone()).expect("a result");
    assert!(
        matches!(&done, Done::Saved(p, Some(_)) if *p == target),
        "{done:?}"
    );
    assert!(
        std::fs::read_to_string(&target)
            .expect("read")
            .contains("Scenario(")
    );
    assert!(a.session.is_dirty(), "not until update hears of it");
    assert!(
        a.update(dipsandbox::tui::action::Msg::Done(done))
            .is_empty()
    );
    assert!(!a.session.is_dirty());
    assert_eq!(a.session.path.as_deref(), Some(target.as_path()));
    // Quit from a clean session is an effect too; the flag is the loop's.
    assert_eq!(a.update(Action::Quit), vec![Effect::Quit]);
    assert!(!a.quit);
}

#[test]
fn the_bundled_keys_parse_bind_every_action_and_repeat_no_key_in_a_context() {
    use dipsandbox::tui::keyfile::{Entry, parse};
    use dipsandbox::tui::keymap::BUNDLED;
    let entries = parse(BUNDLED, "keys.ron").expect("the bundled keys parse");
    // Only per-context entries, each with a help text: the default names every binding.
    for e in &entries {
        assert!(
            matches!(e, Entry::In { help: Some(h), .. } if !h.is_empty()),
            "{e:?}"
        );
    }
    let km = Keymap::default();
    assert_eq!(km.bindings().len(), entries.len());
    // Every action has a key somewhere, but those left unbound on purpose (none today).
    const UNBOUND: &[Action] = &[];
    for action in Action::all() {
        let keys = km
            .bindings()
            .iter()
            .filter(|b| b.action == action)
            .map(|b| b.keys.len())
            .sum::<usize>();
        assert_eq!(
            keys == 0,
            UNBOUND.contains(&action),
            "{} has {keys} keys",
            action.name()
        );
    }
    // Every context has bindings, and no key is listed twice in one.
    for ctx in Context::all() {
        let mut seen = Vec::new();
        for b in km.bindings().iter().filter(|b| b.context == ctx) {
            for k in &b.keys {
                assert!(!seen.contains(k), "{k} twice in {}", ctx.name());
                seen.push(*k);
            }
        }
        assert!(!seen.is_empty(), "{} has no keys", ctx.name());
    }
    // The names strum derives are the keymap file's, and they go back and forth.
    for a in Action::all() {
        assert_eq!(Action::from_name(a.name()), Some(a));
    }
    assert_eq!(Action::from_name("step_forward"), Some(Action::StepForward));
    assert_eq!(
        Context::from_name("order_editor"),
        Some(Context::OrderEditor)
    );
    // The example the keymap's documentation gives is a valid patch.
    assert!(
        Keymap::parse_patch(
            "{ \"step_forward\": [\"n\", \"right\"], \"quit\": [\"q\", \"ctrl-c\"] }",
            "keys.ron"
        )
        .is_ok()
    );
}

#[test]
fn a_keys_ron_patches_one_context_and_a_bad_context_is_located() {
    let patch = Keymap::parse_patch(
        "{\n  \"board\": { \"decisions\": [\"D\"] },\n}\n",
        "keys.ron",
    );
    // D marks a unit dislodged on the board: the clash is refused where it is written.
    assert_eq!(
        patch.map(|_| ()).map_err(|e| e.to_string()),
        Err("keys.ron:2:29: key D of \"decisions\" already does \"dislodge\" in the Board panel; expected a key that does nothing else there (or give \"dislodge\" other keys too)".to_string())
    );
    let e = Keymap::parse_patch("{\n  \"bored\": { \"quit\": [\"x\"] },\n}\n", "keys.ron")
        .expect_err("no such context");
    assert!(
        e.to_string()
            .starts_with("keys.ron:2:4: unknown context \"bored\""),
        "{e}"
    );
    // One context's keys change; the same action elsewhere keeps its own.
    let entries = Keymap::parse_patch("{ \"orders\": { \"decisions\": [\"v\"] } }", "keys.ron")
        .expect("a patch");
    let mut km = Keymap::default();
    km.apply(&entries);
    let keys = |ctx: Context| {
        km.bindings()
            .iter()
            .find(|b| b.context == ctx && b.action == Action::Decisions)
            .map(|b| b.keys.iter().map(|k| k.to_string()).collect::<Vec<_>>())
    };
    assert_eq!(keys(Context::Orders), Some(vec!["v".to_string()]));
    assert_eq!(
        keys(Context::Board),
        Some(vec!["d".to_string(), "enter".to_string()])
    );
}
