//! The TUI's second pass, the items of finding, dialogs, editing, messages, the
//! retreat board, small wrong things and the mouse: whole scripted sessions against
//! `TestBackend`.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{app, goto, run, run_script, text};

use dipsandbox::tui::app::{App, Message, Pending, Popup, View};
use dipsandbox::tui::browser::{Browser, Folders, Rank};
use dipsandbox::tui::event::{Input, Script};
use dipsandbox::tui::keymap::{Context, Key, Keymap};
use dipsandbox::tui::layout::decisions_split;
use dipsandbox::tui::run_app;
use dipsandbox::tui::state::MESSAGE_TIME;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Margin;
use ratatui::style::Modifier;

/// The browser over the bundled scenarios only.
fn bundled_browser() -> Browser {
    Browser::open(&Folders {
        bundled: Some(PathBuf::from("scenarios")),
        ..Folders::default()
    })
}

fn labels(b: &Browser) -> Vec<String> {
    b.visible().iter().map(|e| e.label.clone()).collect()
}

#[test]
fn the_browser_searches_titles_sources_and_descriptions() {
    let mut b = bundled_browser();
    for c in "paradox".chars() {
        b.type_char(c);
    }
    let hits = b.hits();
    // "Pandin's paradox" is only in titles and descriptions, never in a file name.
    assert!(hits.len() > 1, "{:?}", labels(&b));
    let pandin = hits
        .iter()
        .find(|(e, _)| e.label == "bundled: datc/6.F.16.ron")
        .expect("6.F.16 is found by its title");
    assert_eq!(pandin.1.rank, Rank::Words);
    let why = pandin
        .1
        .why
        .clone()
        .expect("says why it matched")
        .to_string();
    assert!(
        why.starts_with("title: ") && why.contains("paradox"),
        "{why}"
    );
    // A word in the source only (the DPjudge or DATC version) finds files too.
    let mut b = bundled_browser();
    for c in "datc v3.0 6.h.11".chars() {
        b.type_char(c);
    }
    assert!(
        labels(&b).contains(&"bundled: datc/6.H.11.ron".to_string()),
        "{:?}",
        labels(&b)
    );
    // Words found nowhere: nothing.
    let mut b = bundled_browser();
    for c in "zzqx-nowhere".chars() {
        b.type_char(c);
    }
    assert!(b.visible().is_empty());
}

#[test]
fn an_exact_name_comes_first_and_enter_opens_it() {
    let mut b = bundled_browser();
    for c in "6.F.16".chars() {
        b.type_char(c);
    }
    let l = labels(&b);
    assert_eq!(l[0], "bundled: datc/6.F.16.ron", "{l:?}");
    assert!(l.iter().any(|x| x.contains("6.F.16-1971")), "{l:?}");
    assert_eq!(b.hits()[0].1.rank, Rank::Exact);
    // In a session: o, the id, enter.
    let mut a = app(None, "search-open");
    let t = text(&run(&mut a, 120, 40, "o 6.F.16 enter"));
    assert!(a.popup.is_none(), "{t}");
    assert_eq!(
        a.session.path.as_deref(),
        Some(Path::new("scenarios/datc/6.F.16.ron"))
    );
}

#[test]
fn the_browser_shows_why_a_row_matched() {
    let mut a = app(None, "search-why");
    let t = text(&run(&mut a, 200, 60, "o paradox"));
    assert!(
        t.contains("datc/6.F.16.ron  title: Pandin's paradox"),
        "{t}"
    );
    // At 80×24 it is cut, but there.
    let mut a = app(None, "search-why-80");
    let t = text(&run(&mut a, 80, 24, "o paradox"));
    assert!(t.contains("  title"), "{t}");
}

/// A copy of the built-in scenario in the test's own folder, and an app on it with an edit
/// made (so that quitting and opening ask first).
fn dirty_copy(name: &str) -> (App, PathBuf) {
    let dir = common::temp_dir(&format!("{name}-file"));
    let file = dir.join("mine.ron");
    std::fs::copy("scenarios/datc/6.F.16.ron", &file).expect("copy");
    let mut a = App::open(Some(&file), None, common::folders(name)).expect("opens");
    a.theme = dipsandbox::tui::theme::Theme::new(true);
    run_script(&mut a, 120, 40, goto("lon").and_keys("x"));
    assert!(a.session.is_dirty());
    (a, file)
}

#[test]
fn the_quit_question_saves_with_the_key_it_names() {
    let (mut a, file) = dirty_copy("quit-save");
    let before = std::fs::read_to_string(&file).expect("read");
    let t = text(&run(&mut a, 120, 40, "q"));
    let Some(Popup::Confirm(q, Pending::Quit)) = &a.popup else {
        panic!("no quit question: {t}");
    };
    assert!(q.contains("ctrl-s saves"), "{q}");
    run(&mut a, 120, 40, "ctrl-s");
    assert!(a.popup.is_none());
    assert!(!a.quit);
    assert!(!a.session.is_dirty(), "{:?}", a.message);
    assert_ne!(std::fs::read_to_string(&file).expect("read"), before);
    // Nothing unsaved: q quits at once.
    run(&mut a, 120, 40, "q");
    assert!(a.quit);
}

#[test]
fn every_key_the_questions_name_works() {
    // Quit: n and esc stay, y quits.
    for (keys, quits) in [("q n", false), ("q esc", false), ("q y", true)] {
        let (mut a, _) = dirty_copy("quit-keys");
        run(&mut a, 120, 40, keys);
        assert_eq!(a.quit, quits, "{keys}");
        assert!(a.popup.is_none(), "{keys}");
    }
    // Open another with unsaved changes: the question names ctrl-s too, and it saves.
    let (mut a, file) = dirty_copy("open-save");
    run(&mut a, 120, 40, "o 6.H.11 enter");
    let Some(Popup::Confirm(q, Pending::Open(_))) = &a.popup else {
        panic!("no open question: {:?}", a.popup);
    };
    assert!(q.contains("ctrl-s saves"), "{q}");
    run(&mut a, 120, 40, "ctrl-s");
    assert!(!a.session.is_dirty());
    assert_eq!(a.session.path.as_deref(), Some(file.as_path()));
    // Every key a question's text names is a key of the question's context.
    let (mut a, _) = dirty_copy("named");
    run(&mut a, 120, 40, "q");
    let Some(Popup::Confirm(q, _)) = a.popup.clone() else {
        panic!("no question");
    };
    for word in ["y", "n", "ctrl-s"] {
        let k = Key::parse(word).expect("key");
        assert!(q.contains(word), "{q}");
        assert!(
            a.keymap
                .action(&[Context::Confirm], &KeyEvent::new(k.code, k.mods))
                .is_some(),
            "{word}"
        );
    }
}

#[test]
fn every_dialog_s_keys_are_in_the_help() {
    // Everything the help popup shows, scrolled through to its end.
    let mut a = app(None, "help-dialogs");
    let mut seen = text(&run(&mut a, 200, 60, "?"));
    for _ in 0..150 {
        seen.push_str(&text(&run(&mut a, 200, 60, "j")));
    }
    for ctx in [
        Context::Browser,
        Context::Menu,
        Context::OrderEditor,
        Context::Find,
        Context::SaveAs,
        Context::Field,
        Context::Confirm,
        Context::Restore,
    ] {
        assert!(seen.contains(ctx.title()), "{ctx:?} is not in the help");
    }
    assert!(seen.contains("unsaved changes: save them first"), "{seen}");
}

#[test]
fn a_menu_filter_in_the_order_editor_is_not_a_parse_error() {
    let mut a = app(None, "filter");
    let t = text(&run_script(
        &mut a,
        120,
        40,
        goto("lon").and_keys("i").and_text("S F Wal"),
    ));
    assert!(matches!(a.popup, Some(Popup::Order(_))), "{t}");
    assert!(t.contains("S F Wal - Eng"), "{t}");
    assert!(!t.contains("✗ column"), "{t}");
    assert!(t.contains("filtering the menu"), "{t}");
    // Text that matches no row and does not parse is an error, with its column.
    let t = text(&run_script(
        &mut a,
        120,
        40,
        Script::keys("ctrl-u").and_text("S Xyz"),
    ));
    assert!(t.contains("✗ column"), "{t}");
}

/// The power of the place menu's highlighted row.
fn highlighted(a: &App) -> String {
    match &a.popup {
        Some(Popup::Menu(m)) => m.current().map(|i| i.label.clone()).unwrap_or_default(),
        other => panic!("no menu: {other:?}"),
    }
}

#[test]
fn the_place_menu_starts_on_the_power_last_placed_for() {
    let mut a = app(None, "place-last");
    // Bohemia is no centre: the first time, the first power.
    run_script(&mut a, 120, 40, goto("boh").and_keys("A"));
    assert!(
        highlighted(&a).starts_with("Austria"),
        "{}",
        highlighted(&a)
    );
    run_script(&mut a, 120, 40, Script::keys("esc"));
    // Place a Turkish army in Bohemia; then in Tyrolia (no centre) Turkey comes first.
    run_script(
        &mut a,
        120,
        40,
        Script::keys("A").and_text("turkey").and_keys("enter"),
    );
    assert!(a.session.scenario().units.len() > 6);
    run_script(&mut a, 120, 40, goto("tyr").and_keys("A"));
    assert!(highlighted(&a).starts_with("Turkey"), "{}", highlighted(&a));
    run_script(&mut a, 120, 40, Script::keys("esc"));
    // A home centre: its owner, whatever was placed last.
    run_script(&mut a, 120, 40, goto("vie").and_keys("A"));
    assert!(
        highlighted(&a).starts_with("Austria"),
        "{}",
        highlighted(&a)
    );
    run_script(&mut a, 120, 40, Script::keys("esc"));
    // A neutral centre: nobody's, so the last power again.
    run_script(&mut a, 120, 40, goto("ser").and_keys("A"));
    assert!(highlighted(&a).starts_with("Turkey"), "{}", highlighted(&a));
}

#[test]
fn messages_expire_with_time_and_at_the_next_action() {
    let mut a = app(None, "expire");
    let t = text(&run(&mut a, 120, 40, "a"));
    assert!(t.contains("showing the position after the phase"), "{t}");
    // Time passes (a script's clock: no sleeping).
    let t0 = Instant::now();
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    run_app(&mut term, &mut a, &mut Script::new([Input::Clock(t0)])).expect("runs");
    assert!(a.message.is_some(), "not yet");
    run_app(
        &mut term,
        &mut a,
        &mut Script::new([Input::Clock(t0 + MESSAGE_TIME - Duration::from_millis(1))]),
    )
    .expect("runs");
    assert!(a.message.is_some(), "not yet");
    run_app(
        &mut term,
        &mut a,
        &mut Script::new([Input::Clock(t0 + MESSAGE_TIME)]),
    )
    .expect("runs");
    assert!(a.message.is_none());
    // The key hints are back.
    let t = text(term.backend().buffer());
    assert!(t.contains("? help"), "{t}");
    // The next action clears a message too, and shows its own if it has one.
    run(&mut a, 120, 40, "+");
    assert!(
        a.message
            .as_ref()
            .is_some_and(|m| m.text.contains("autoplay"))
    );
    run(&mut a, 120, 40, "tab");
    assert!(a.message.is_none());
    // Errors stay longer than messages, and go in the end.
    let t1 = Instant::now();
    a.message = Some(Message {
        text: "something went wrong".into(),
        error: true,
        whole: true,
        expires: None,
    });
    run_app(
        &mut term,
        &mut a,
        &mut Script::new([Input::Clock(t1), Input::Clock(t1 + MESSAGE_TIME)]),
    )
    .expect("runs");
    assert!(a.message.is_some());
    run_app(
        &mut term,
        &mut a,
        &mut Script::new([Input::Clock(t1 + Duration::from_secs(60))]),
    )
    .expect("runs");
    assert!(a.message.is_none());
}

/// Where a province's label is on screen (the board unpanned).
fn anchor(a: &App, name: &str) -> (u16, u16) {
    let map = &a.session.scenario().map;
    let p = map.find_province(name).expect("province");
    let r = a.panes().board.expect("board").inner(Margin::new(1, 1));
    let (x, y) = map.art().expect("art").anchor(p);
    (r.x + x, r.y + y)
}

fn cell(buf: &Buffer, (x, y): (u16, u16), dx: i32) -> (String, bool) {
    let c = &buf[((x as i32 + dx) as u16, y)];
    (
        c.symbol().to_string(),
        c.modifier.contains(Modifier::REVERSED),
    )
}

#[test]
fn the_retreat_board_shows_and_names_the_dislodged_unit() {
    let mut a = app(
        Some("scenarios/year-1901/3-fall-1901-retreat.ron"),
        "retreat",
    );
    let buf = run_script(&mut a, 120, 40, goto("tri"));
    let at = anchor(&a, "tri");
    // The attacker (Austrian army) and, beside it, the dislodged Italian army.
    assert_eq!(cell(&buf, at, -1), ("A".into(), false));
    assert_eq!(cell(&buf, at, -2), ("a".into(), true));
    let t = text(&buf);
    assert!(
        t.contains("tri Trieste · Ita a Tri dislodged, attacker from Vie"),
        "{t}"
    );
    // The line under the views names it too.
    assert!(
        t.contains("Fall 1901 Retreat: dislodged: Italian A Trieste (attacker from Vienna)"),
        "{t}"
    );
}

/// How many dislodged units the board shows (lower-case letters, reversed).
fn dislodged_on_board(a: &App, buf: &Buffer) -> usize {
    let r = a.panes().board.expect("board");
    let mut n = 0;
    for y in r.y..r.bottom().saturating_sub(6) {
        for x in r.x..r.right() {
            let c = &buf[(x, y)];
            if c.modifier.contains(Modifier::REVERSED) && (c.symbol() == "a" || c.symbol() == "f") {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_after_board_follows_the_cursor() {
    // 6.H.11: A Gascony - Marseilles via convoy succeeds and dislodges A Marseilles.
    let mut a = app(Some("scenarios/datc/6.H.11.ron"), "after-cursor");
    // No selection (its highlight is reversed too).
    let buf = run(&mut a, 120, 40, "esc a g");
    assert_eq!(a.board.province, None);
    let t = text(&buf);
    assert!(t.contains("after, as of the cursor"), "{t}");
    // Nothing decided yet: everybody where they were.
    assert_eq!(cell(&buf, anchor(&a, "gas"), -1).0, "A");
    assert_eq!(cell(&buf, anchor(&a, "mar"), -1).0, "A");
    // At the end: the final position, after the retreats too (the French army in Marseilles,
    // the Italian one retreated to Gascony; nobody dislodged any more).
    let buf = run(&mut a, 120, 40, "G");
    let t = text(&buf);
    assert!(t.contains("Spring 1901 Movement — after "), "{t}");
    assert_eq!(cell(&buf, anchor(&a, "gas"), -1), ("A".into(), false));
    assert_eq!(cell(&buf, anchor(&a, "mar"), -1), ("A".into(), false));
    assert_eq!(dislodged_on_board(&a, &buf), 0);
    // Somewhere in between, the move has succeeded and the Italian army is dislodged, both
    // in Marseilles.
    let mut buf = run(&mut a, 120, 40, "g");
    let mut seen = false;
    for _ in 0..2000 {
        buf = run(&mut a, 120, 40, "n");
        let gas = cell(&buf, anchor(&a, "gas"), -1).0;
        if gas == " " && dislodged_on_board(&a, &buf) == 1 {
            seen = true;
            assert_eq!(cell(&buf, anchor(&a, "mar"), -1), ("A".into(), false));
            break;
        }
    }
    assert!(seen, "{}", text(&buf));
}

#[test]
fn small_wrong_things() {
    // The DPjudge panel at step 0 says so; its rows are numbered as the event line counts.
    let mut a = app(None, "dp-title");
    let t = text(&run(&mut a, 120, 40, "E 2 g"));
    assert!(t.contains("DPjudge: nothing done yet"), "{t}");
    assert!(!t.contains("step 0 —"), "{t}");
    let t = text(&run(&mut a, 120, 40, "n n n"));
    assert!(t.contains("dpjudge step 3/"), "{t}");
    let row = t
        .lines()
        .find(|l| l.contains("   3 "))
        .expect("a row numbered 3");
    let _ = row;
    // A phase played on twice names only the phase just played.
    let mut a = app(None, "advance-source");
    run(&mut a, 120, 40, "ctrl-n enter > > >");
    let src = a.session.scenario().source.clone();
    assert_eq!(src.matches("advanced from").count(), 1, "{src}");
    // The save-as file name has no double hyphen.
    run(&mut a, 120, 40, "S");
    let Some(Popup::SaveAs(p)) = &a.popup else {
        panic!("no save-as prompt: {:?}", a.popup);
    };
    assert!(!p.contains("--"), "{p}");
    assert!(p.ends_with(".ron"), "{p}");
    // ctrl-\ arrives as ctrl-4 from the terminal and is named as typed.
    let k = KeyEvent::new(KeyCode::Char('4'), KeyModifiers::CONTROL);
    assert_eq!(Key::of(&k).to_string(), "ctrl-\\");
}

/// The tab bar keeps the phase, the rules and a second engine whole: the title is cut to make
/// room, then the words go, and the title goes last.
#[test]
fn the_tab_bar_keeps_the_phase_the_rules_and_the_engine_whole() {
    let mut a = app(None, "tab-bar");
    let first_row = |buf: &Buffer| text(buf).lines().next().unwrap_or_default().to_string();
    for (w, keys, want) in [
        (
            120,
            "",
            "Pandin's paradox · Spring 1901 Movement · rules: datc",
        ),
        (80, "", "Pandin's paradox · Spring 1901 Movement · datc"),
        (60, "", "Pandin's … · S1901M · datc"),
        (50, "", "S1901M · datc"),
        // Another engine than the default one is named beside the rules.
        (
            120,
            "E",
            "Pandin's paradox · Spring 1901 Movement · rules: datc · engine: dpjudge",
        ),
        (80, "", "Pandin's paradox · S1901M · datc · dpjudge"),
        (60, "", "S1901M · datc · dpjudge"),
    ] {
        let row = first_row(&run(&mut a, w, 24, keys));
        assert!(row.ends_with(want), "{w} columns: {row}");
    }
}

/// The legend under the board shows every mark with its meaning whole: one row per group on a
/// wide panel, flowing (and with shorter words) on a narrow one, cut with `…` only when even that
/// does not fit; on a short panel it gives way to the map.
#[test]
fn the_board_legend_keeps_every_mark_whole_where_it_can() {
    let mut a = app(None, "legend");
    // The board panel's rows from the powers' row down, inside its borders.
    let legend = |buf: &Buffer| -> Vec<String> {
        let screen = text(buf);
        let rows: Vec<&str> = screen.lines().collect();
        let Some(first) = rows.iter().position(|r| r.contains("│Aus Eng Fra")) else {
            return Vec::new();
        };
        rows[first..]
            .iter()
            .take_while(|r| !r.starts_with('└'))
            .map(|r| {
                r.split('│')
                    .nth(1)
                    .unwrap_or_default()
                    .trim_end()
                    .to_string()
            })
            .collect()
    };
    let marks = [
        "A/F army/fleet",
        "* centre",
        "a dislodged",
        "BUR standoff",
        "mov moved",
        "bnc failed",
        "tgt target",
        "why cause",
    ];
    for (w, h) in [(120, 40), (100, 30), (80, 24)] {
        let rows = legend(&run(&mut a, w, h, ""));
        assert_eq!(rows.len(), 3, "{w}x{h}: {rows:?}");
        let all = rows.join("\n");
        for m in marks {
            assert!(all.contains(m), "{w}x{h}: {m:?} not whole in {rows:?}");
        }
        assert!(
            all.contains("sup supported") || all.contains("sup helped"),
            "{w}x{h}: {rows:?}"
        );
        assert!(!all.contains('…'), "{w}x{h}: {rows:?}");
    }
    // Wide: the powers, the units' marks and the results' marks on a row each.
    let rows = legend(&run(&mut a, 120, 40, ""));
    assert!(rows[0].ends_with("Tur"), "{rows:?}");
    assert!(rows[1].starts_with("A/F army/fleet  * centre"), "{rows:?}");
    assert!(rows[2].starts_with("mov moved  bnc failed"), "{rows:?}");
    // Narrower than the legend can fit: the last row says it is cut.
    let rows = legend(&run(&mut a, 70, 24, ""));
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[2].ends_with('…'), "{rows:?}");
    // On a short terminal the legend gives way to the map: the map keeps at least twice its
    // rows.
    for (w, h) in [(48, 14), (60, 16), (80, 12)] {
        let screen = text(&run(&mut a, w, h, ""));
        let lines: Vec<&str> = screen.lines().collect();
        let top = lines
            .iter()
            .position(|r| r.starts_with("┌ Board"))
            .expect("board panel");
        let powers = lines
            .iter()
            .position(|r| r.contains("│Aus Eng Fra"))
            .unwrap_or_else(|| panic!("{w}x{h}: no legend\n{screen}"));
        let rows = legend(&run(&mut a, w, h, "")).len();
        // The rows between the top border and the selection line above the legend.
        let map = powers - top - 2;
        assert!(
            map >= 2 * rows,
            "{w}x{h}: {map} map rows, {rows} legend rows\n{screen}"
        );
    }
}

#[test]
fn the_restore_question_names_the_scenario() {
    let f = common::folders("restore-title");
    let dir = f.recovery.clone().expect("recovery");
    let mut a = App::open(None, None, f.clone()).expect("opens");
    run_script(&mut a, 120, 40, goto("lon").and_keys("x"));
    let file = a.recovery.file().expect("a recovery file");
    std::fs::rename(&file, dir.join("recovery-999999999.ron")).expect("orphan");
    let b = App::open(None, None, f).expect("opens");
    let Some(Popup::Confirm(q, Pending::Restore(_))) = &b.popup else {
        panic!("no restore question: {:?}", b.popup);
    };
    assert!(q.contains("“Pandin's paradox”"), "{q}");
}

fn click(a: &mut App, w: u16, h: u16, input: Input) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    run_app(&mut term, a, &mut Script::new([input])).expect("runs");
    term.backend().buffer().clone()
}

#[test]
fn the_mouse_selects_provinces_decisions_tree_rows_and_the_wheel_scrolls() {
    let mut a = app(None, "mouse-b");
    run(&mut a, 120, 40, "");
    // A province: a click on its label.
    let (x, y) = anchor(&a, "hol");
    click(&mut a, 120, 40, Input::Click(x + 1, y));
    let hol = a.session.scenario().map.find_province("hol");
    assert_eq!(a.board.province, hol);
    assert_eq!(a.focus, Context::Board);
    // The wheel over the orders moves the selection there.
    let r = a.panes().orders.expect("orders");
    click(&mut a, 120, 40, Input::Scroll(1, r.x + 2, r.y + 2));
    assert_eq!(a.focus, Context::Orders);
    assert_eq!(a.orders.order, 1);
    click(&mut a, 120, 40, Input::Scroll(1, r.x + 2, r.y + 2));
    click(&mut a, 120, 40, Input::Scroll(-1, r.x + 2, r.y + 2));
    assert_eq!(a.orders.order, 1);
    // A decision: a click on its row.
    run(&mut a, 120, 40, "2");
    assert_eq!(a.view, View::Stepper);
    let list = decisions_split(a.panes().decisions.expect("decisions")).1;
    click(&mut a, 120, 40, Input::Click(list.x + 2, list.y + 3));
    assert_eq!(a.stepper.decision, 3);
    assert_eq!(a.focus, Context::Decisions);
    assert_eq!(a.stepper.tree.root, 3);
    // A tree row: unfold the root, then click its second child.
    run(&mut a, 120, 40, "enter");
    assert_eq!(a.focus, Context::Tree);
    run(&mut a, 120, 40, "right");
    let rows = a.stepper.tree.rows(&a.session).len();
    assert!(rows > 2, "the decision reads others");
    let tree = a.panes().tree.expect("tree").inner(Margin::new(1, 1));
    click(&mut a, 120, 40, Input::Click(tree.x + 4, tree.y + 2));
    assert_eq!(a.stepper.tree.row, 2);
    // The wheel over the decisions scrolls them.
    click(&mut a, 120, 40, Input::Scroll(1, list.x + 2, list.y + 1));
    assert_eq!(a.focus, Context::Decisions);
    assert_eq!(a.stepper.decision, 4);
    // A click while a popup is open changes nothing; the wheel scrolls the popup.
    run(&mut a, 120, 40, "?");
    click(&mut a, 120, 40, Input::Click(list.x + 2, list.y + 1));
    assert_eq!(a.stepper.decision, 4);
    click(&mut a, 120, 40, Input::Scroll(1, 0, 0));
    assert_eq!(a.popup, Some(Popup::Help(1)));
    assert_eq!(a.focus, Context::Decisions);
    // The wheel in the browser moves its highlight.
    run(&mut a, 120, 40, "esc o");
    click(&mut a, 120, 40, Input::Scroll(1, 60, 20));
    click(&mut a, 120, 40, Input::Scroll(1, 60, 20));
    assert!(matches!(&a.popup, Some(Popup::Browser(b)) if b.row == 2));
}

#[test]
fn the_search_words_are_what_loading_reads() {
    let mut files = Vec::new();
    common::ron_files(Path::new("scenarios"), &mut files);
    assert!(files.len() > 200);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        let s = dipsandbox_core::model::scenario::Scenario::from_ron(&text, "x").expect("loads");
        let w = dipsandbox_core::model::scenario::words(&text).expect("words");
        assert_eq!(
            (w.title, w.source, w.description),
            (s.title, s.source, s.description),
            "{}",
            f.display()
        );
    }
    assert_eq!(
        dipsandbox_core::model::scenario::words("not a scenario"),
        None
    );
}

/// The line under the board names the keys the keymap binds (each alternative), in words when
/// they fit and shorter when not: nothing of it is cut at 80×24.
#[test]
fn the_hint_under_the_board_names_the_keymap_s_keys_and_fits() {
    let mut a = app(None, "board-hint");
    // An empty board: no province selected yet.
    run(&mut a, 80, 24, "ctrl-n down enter");
    let t = text(&run(&mut a, 80, 24, ""));
    assert!(
        t.contains("│←↓↑→ / hjkl select · / find · HJKL pan "),
        "{t}"
    );
    let t = text(&run(&mut a, 120, 40, ""));
    assert!(
        t.contains("│←↓↑→ / hjkl select a province, / finds one by name "),
        "{t}"
    );
    // A user's keys.ron moves them: the hint follows.
    let patch = Keymap::parse_patch(
        "{ \"left\": [\"left\"], \"goto\": [\"ctrl-f\"] }",
        "keys.ron",
    )
    .expect("a patch");
    a.keymap.apply(&patch);
    let t = text(&run(&mut a, 120, 40, ""));
    assert!(
        t.contains("│←↓↑→ / jkl select a province, ctrl-f finds one by name "),
        "{t}"
    );
}
