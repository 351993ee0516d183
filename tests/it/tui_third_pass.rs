//! The TUI's third pass (issue 41), the items of search, the compare panel at 80×24, undoing
//! `>`, the disagreement files' story and small wording: whole scripted sessions against
//! `TestBackend`, and the core's province search.

use crate::common;

use std::path::{Path, PathBuf};

use common::{app, dipsandbox, run, run_script, text};

use dipsandbox::tui::app::{App, Popup};
use dipsandbox::tui::event::{Input, Script};
use dipsandbox::tui::run_app;
use dipsandbox::tui::theme::Theme;
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::find::{How, provinces};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The names of the provinces a text finds on `map`, and how.
fn find(map: &Map, text: &str) -> Option<(How, Vec<String>)> {
    let f = provinces(map, text)?;
    let names = f
        .provinces
        .iter()
        .map(|&p| map.province(p).name.clone())
        .collect();
    Some((f.how, names))
}

fn map(name: &str) -> Map {
    Map::load(name).expect("built-in map")
}

// 4. Title search opens a rule variant first.

#[test]
fn a_title_search_lists_the_base_case_first_and_enter_opens_it() {
    let mut a = app(None, "third-title");
    let script = Script::keys("o").and_text("Pandin's paradox");
    let t = text(&run_script(&mut a, 80, 24, script));
    let Some(Popup::Browser(b)) = &a.popup else {
        panic!("no browser: {t}");
    };
    let labels: Vec<&str> = b.visible().iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels[0], "bundled: datc/6.F.16.ron", "{labels:?}");
    let base = labels.iter().position(|l| *l == "bundled: datc/6.F.16.ron");
    let variant = labels
        .iter()
        .position(|l| *l == "bundled: datc/6.F.16-1971.ron");
    assert!(base < variant, "{labels:?}");
    // At 80×24 each row shows the file's whole name and the title it matched.
    assert!(
        t.contains("bundled: datc/6.F.16.ron  title: Pandin's paradox"),
        "{t}"
    );
    assert!(
        t.contains("bundled: datc/6.F.16-1971.ron  title: Pandin's paradox"),
        "{t}"
    );
    run(&mut a, 80, 24, "enter");
    assert_eq!(
        a.session.path.as_deref(),
        Some(Path::new("scenarios/datc/6.F.16.ron"))
    );
}

#[test]
fn opening_a_rule_variant_says_its_rules() {
    let mut a = app(None, "third-variant");
    let t = text(&run(&mut a, 80, 24, "o 6.F.16-1971 enter"));
    assert_eq!(
        a.session.path.as_deref(),
        Some(Path::new("scenarios/datc/6.F.16-1971.ron"))
    );
    let m = a
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(m.contains("its own rules: paradox=Rule1971"), "{m}\n{t}");
}

#[test]
fn rows_show_titles_at_80x24_and_ctrl_u_clears_the_filter() {
    let mut a = app(None, "third-rows");
    let t = text(&run(&mut a, 80, 24, "o 6.F.1"));
    assert!(
        t.contains("bundled: datc/6.F.14.ron  Simple convoy paradox"),
        "{t}"
    );
    let all = match &a.popup {
        Some(Popup::Browser(b)) => b.entries.len(),
        _ => panic!("no browser: {t}"),
    };
    run(&mut a, 80, 24, "ctrl-u");
    let Some(Popup::Browser(b)) = &a.popup else {
        panic!("the browser closed");
    };
    assert_eq!(b.filter, "");
    assert_eq!(b.visible().len(), all);
}

#[test]
fn a_long_preview_scrolls_to_its_last_words() {
    // 6.G.10-Always's description (678 characters) does not fit the preview at 80×24.
    let mut a = app(None, "third-preview");
    let t = text(&run(&mut a, 80, 24, "o 6.G.10-Always"));
    let Some(Popup::Browser(b)) = &a.popup else {
        panic!("no browser: {t}");
    };
    let description = b
        .current()
        .and_then(|e| e.words.as_ref())
        .map(|w| w.description.clone())
        .unwrap_or_default();
    let tail: String = description
        .split_whitespace()
        .rev()
        .take(3)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!t.contains(&tail), "the description fits already: {t}");
    let t = text(&run(&mut a, 80, 24, &["shift-down"; 20].join(" ")));
    assert!(t.contains(&tail), "{tail}\n{t}");
}

// 9. Province find needs the exact name.

#[test]
fn province_find_matches_prefixes_initials_words_and_other_names() {
    let hundred = map("hundred");
    let standard = map("standard");
    assert_eq!(
        find(&hundred, "nor"),
        Some((
            How::Prefix,
            vec![
                "Normandy".to_string(),
                "North Sea".to_string(),
                "Northumbria".to_string()
            ]
        ))
    );
    assert_eq!(
        find(&standard, "Picard"),
        Some((How::Prefix, vec!["Picardy".to_string()]))
    );
    assert_eq!(
        find(&standard, "english"),
        Some((How::Prefix, vec!["English Channel".to_string()]))
    );
    assert_eq!(
        find(&standard, "atlantic"),
        Some((
            How::Word,
            vec![
                "Mid-Atlantic Ocean".to_string(),
                "North Atlantic Ocean".to_string()
            ]
        ))
    );
    assert_eq!(
        find(&standard, "ec"),
        Some((How::Initials, vec!["English Channel".to_string()]))
    );
    // Other programs' names are exact: jDip's `nrg` for the Norwegian Sea.
    assert_eq!(
        find(&standard, "nrg"),
        Some((How::Exact, vec!["Norwegian Sea".to_string()]))
    );
    // Ranking: an exact name wins over the names it starts (`nor` is Norway's alias).
    assert_eq!(
        find(&standard, "nor"),
        Some((How::Exact, vec!["Norway".to_string()]))
    );
    // A typo is a guess, never a jump.
    let typo = provinces(&standard, "Picrady").expect("a guess");
    assert_eq!(typo.how, How::Fuzzy);
    assert_eq!(typo.unique(), None);
    assert_eq!(
        typo.provinces,
        vec![standard.find_province("pic").expect("pic")]
    );
    assert_eq!(provinces(&standard, "  "), None);
}

#[test]
fn find_jumps_on_one_match_and_lists_several() {
    let mut a = app(None, "third-find");
    let map = a.session.scenario().map.clone();
    run_script(&mut a, 80, 24, common::goto("Picard"));
    assert!(a.popup.is_none(), "{:?}", a.popup);
    assert_eq!(a.board.province, map.find_province("pic"));
    run_script(&mut a, 80, 24, common::goto("english"));
    assert_eq!(a.board.province, map.find_province("eng"));
    // Several: the prompt stays with the text, and every match is listed above it.
    let t = text(&run_script(&mut a, 80, 24, common::goto("sea")));
    assert_eq!(a.popup, Some(Popup::Goto("sea".into())), "{t}");
    for name in [
        "Adriatic Sea (adr)",
        "North Sea (nth)",
        "Norwegian Sea (nwg)",
    ] {
        assert!(t.contains(name), "{name}\n{t}");
    }
    assert!(t.contains("10 with a word starting with \"sea\""), "{t}");
    // Typing more chooses.
    run(&mut a, 80, 24, "ctrl-u");
    run_script(
        &mut a,
        80,
        24,
        Script::keys("").and_text("north").and_keys("enter"),
    );
    assert_eq!(a.board.province, map.find_province("nth"));
}

#[test]
fn find_on_the_hundred_map_lists_normandy_for_nor() {
    let mut a = app(
        Some("scenarios/variants/hundred-opening.ron"),
        "third-find-hundred",
    );
    let t = text(&run_script(&mut a, 80, 24, common::goto("nor")));
    assert!(t.contains("Normandy (nmd)"), "{t}");
    assert!(!t.contains("Lorraine"), "{t}");
    run(&mut a, 80, 24, "m enter");
    let map = a.session.scenario().map.clone();
    assert_eq!(a.board.province, map.find_province("nrm"));
}

// 5. Undoing `>` loses the file.

/// A copy of 6.F.16 in the test's own folder, and an app on it.
fn copy(name: &str) -> (App, PathBuf) {
    let dir = common::temp_dir(&format!("{name}-file"));
    let file = dir.join("mine.ron");
    std::fs::copy("scenarios/datc/6.F.16.ron", &file).expect("copy");
    let mut a = App::open(Some(&file), None, common::folders(name)).expect("opens");
    a.theme = Theme::new(true);
    (a, file)
}

#[test]
fn undoing_next_phase_gives_the_file_back_unchanged_and_saved() {
    let (mut a, file) = copy("third-undo-advance");
    let before = std::fs::read_to_string(&file).expect("read");
    run(&mut a, 80, 24, ">");
    assert_eq!(a.session.path, None);
    assert!(a.session.is_dirty());
    run(&mut a, 80, 24, "u");
    assert_eq!(a.session.path.as_deref(), Some(file.as_path()));
    assert!(!a.session.is_dirty(), "back to the file as saved");
    let m = a
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert_eq!(
        m,
        format!("undone: the scenario of {}, as saved", file.display())
    );
    // An edit now is an edit to the file: the recovery file names it, and ctrl-s saves there
    // without asking where.
    run_script(&mut a, 80, 24, common::goto("lon").and_keys("x"));
    assert!(a.session.is_dirty());
    let rec = a.recovery.file().expect("a recovery file");
    let head = std::fs::read_to_string(&rec).expect("recovery");
    assert!(
        head.starts_with(&format!("// dipsandbox recovery of {}", file.display())),
        "{head}"
    );
    run(&mut a, 80, 24, "ctrl-s");
    assert!(a.popup.is_none(), "{:?}", a.popup);
    assert!(!a.session.is_dirty());
    assert_ne!(std::fs::read_to_string(&file).expect("read"), before);
    // Redo goes forward to the next phase again: a new scenario, no file.
    let (mut b, file) = copy("third-redo-advance");
    run(&mut b, 80, 24, "> u U");
    assert_eq!(b.session.path, None);
    run(&mut b, 80, 24, "u");
    assert_eq!(b.session.path.as_deref(), Some(file.as_path()));
}

#[test]
fn undoing_a_new_scenario_gives_the_file_back() {
    let (mut a, file) = copy("third-undo-new");
    run(&mut a, 80, 24, "ctrl-n down down enter");
    assert!(a.session.scenario().title.starts_with("Copy of"));
    assert_eq!(a.session.path, None);
    run(&mut a, 80, 24, "u");
    assert_eq!(a.session.path.as_deref(), Some(file.as_path()));
    assert!(!a.session.is_dirty());
}

// 8. The compare panel at 80×24.

/// The compare panel's rows at 80×24 (right of the rules panel).
fn compare_panel(t: &str) -> Vec<String> {
    let lines: Vec<&str> = t.lines().collect();
    let bottom = lines
        .iter()
        .position(|l| l.starts_with('└'))
        .unwrap_or(lines.len());
    lines[2..bottom]
        .iter()
        .map(|l| {
            let at = l.find("││").map_or(0, |b| l[..b].chars().count() + 2);
            let right: String = l.chars().skip(at).collect();
            right.trim_end().trim_end_matches('│').to_string()
        })
        .collect()
}

#[test]
fn the_compare_panel_names_its_scroll_keys_and_starts_at_its_top_after_a_change() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "third-compare");
    let t = text(&run(&mut a, 80, 24, "3"));
    let hints = t.lines().last().unwrap_or_default();
    assert!(hints.contains("pgdn scroll"), "{t}");
    let top = compare_panel(&t);
    run(&mut a, 80, 24, "pgdn pgdn");
    assert_ne!(compare_panel(&text(&run(&mut a, 80, 24, ""))), top);
    // End and Home reach both ends.
    let end = compare_panel(&text(&run(&mut a, 80, 24, "end")));
    assert!(end.iter().any(|l| l.starts_with("dislodged")), "{end:#?}");
    let home = compare_panel(&text(&run(&mut a, 80, 24, "home")));
    assert_eq!(home, top);
    // A rule change: the panel shows its new text from the top.
    run(&mut a, 80, 24, "pgdn pgdn");
    let t = text(&run(&mut a, 80, 24, "j l"));
    let p = compare_panel(&t);
    assert!(p[0].starts_with("options that differ"), "{p:#?}");
}

#[test]
fn the_wheel_over_the_compare_panel_scrolls_it() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "third-wheel");
    let top = compare_panel(&text(&run(&mut a, 80, 24, "3")));
    let r = a.panes().compare.expect("a compare panel");
    let row = a.rules.row;
    let mut term = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
    let down = Input::Scroll(1, r.x + 2, r.y + 2);
    run_app(&mut term, &mut a, &mut Script::new([down])).expect("runs");
    let scrolled = compare_panel(&text(term.backend().buffer()));
    assert_ne!(scrolled, top);
    assert_eq!(a.rules.row, row, "the rules panel's row stays");
    let up = Input::Scroll(-1, r.x + 2, r.y + 2);
    run_app(&mut term, &mut a, &mut Script::new([up])).expect("runs");
    assert_eq!(compare_panel(&text(term.backend().buffer())), top);
}

#[test]
fn a_rule_values_description_scrolls_to_its_end() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "third-detail");
    // The paradox option: five values, their meanings longer than the panel's lower half.
    let t = text(&run(&mut a, 80, 24, "3 k k k j"));
    assert!(t.contains("4.A.2: how convoy disruption"), "{t}");
    assert!(!t.contains("AllHold: All moves in the paradox"), "{t}");
    let t = text(&run(&mut a, 80, 24, &["J"; 10].join(" ")));
    assert!(t.contains("AllHold: All moves in the paradox fail."), "{t}");
    // Another option: its description from the top again.
    let t = text(&run(&mut a, 80, 24, "j"));
    assert!(t.contains("4.A.2: the backup when"), "{t}");
}

#[test]
fn the_compare_panel_lists_every_expectation_that_differs_in_full() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "third-expect");
    // Under the 1971 rule the scenario's expectations are not met.
    let t = text(&run(&mut a, 200, 60, "3 k k k j l end"));
    let (bad, _) = a.session.expectations.clone().expect("expectations");
    assert!(!bad.is_empty());
    let flat: String = compare_panel(&t)
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for b in &bad {
        let b: String = b.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&b), "{b}\n{t}");
    }
}

// 10 and the disagreement files' story.

#[test]
fn a_versus_file_tells_what_explains_it_the_datc_case_and_how_to_rerun_it() {
    let dir = common::temp_dir("third-versus");
    let file = common::versus_class_file(
        &dir,
        &format!(
            "{}// shape: convoy paradox\n// like the DATC case: 6.F.16\n",
            common::VERSUS_LINE
        ),
    );
    let mut a = app(file.to_str(), "third-versus");
    let t = text(&run(&mut a, 200, 60, ""));
    let flat: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "explained: no single rule option explains it",
        "nearest DATC case: 6.F.16",
        "re-run: dipsandbox check --engine dpjudge",
        "found by: dipsandbox versus decisions dpjudge --seed 1 --mix paradox --count 8 (position 7)",
    ] {
        assert!(flat.contains(want), "{want}\n{t}");
    }
}

#[test]
fn replay_names_the_phase_the_recording_gives_no_result_for() {
    let (code, stdout, _) = dipsandbox(&["replay", "tests/data/games/godip/game-1.txt"]);
    assert_eq!(code, 0, "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.contains(" replayed: "))
        .unwrap_or_default();
    assert!(
        line.contains("1 not compared: the recording gives no result for "),
        "{stdout}"
    );
}

#[test]
fn one_centre_is_one_centre() {
    let text =
        std::fs::read_to_string("scenarios/variants/hundred-build-while-a-home-is-owned.ron")
            .expect("scenario");
    let text = text.replace(
        "\"France\": [\"Calais\", \"Normandy\"]",
        "\"France\": [\"Calais\"]",
    );
    let s = Scenario::from_ron(&text, "one.ron").expect("loads");
    let lines = dipsandbox_core::io::report::adjustments(&s);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("France: 1 centre, 1 unit:")),
        "{lines:?}"
    );
}

#[test]
fn the_board_legend_uses_one_word_at_every_width() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(Some("scenarios/datc/6.F.16.ron"), "third-legend");
        let t = text(&run(&mut a, w, h, ""));
        assert!(t.contains("sup helped"), "{w}×{h}\n{t}");
        assert!(!t.contains("sup supported"), "{w}×{h}\n{t}");
    }
}
