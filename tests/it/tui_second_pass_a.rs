//! The TUI's second pass (issue 26), the text items: the compare panel counts what
//! `dipsandbox diff` counts; reasons, cycles and rule values are never cut without "…"; the
//! help scrolls within bounds and names the actions a keymap file needs.

use std::path::PathBuf;

use dipsandbox::tui::app::App;
use dipsandbox::tui::view::rules::summary;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::{app, dipsandbox, ron_files, run, text};
use dipsandbox_core::model::rules::PRESETS;
use dipsandbox_core::tools::diff::diff;

/// The app's current view drawn once at `w`×`h`, as text.
pub fn draw(a: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| {
        let vm = a.view_model(f.area());
        dipsandbox::tui::view::draw(f, &vm);
    })
    .expect("draws");
    text(t.backend().buffer())
}

/// The DATC cases, sorted.
fn datc() -> Vec<PathBuf> {
    let mut files = Vec::new();
    ron_files(std::path::Path::new("scenarios/datc"), &mut files);
    files
}

/// The count the compare panel shows: `N difference(s)`, or 0 for "the same result".
fn panel_count(screen: &str) -> Option<usize> {
    if screen.contains("the same result: no verdict") {
        return Some(0);
    }
    let at = screen.find(" difference(s): ")?;
    let head = &screen[..at];
    let digits: String = head
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

#[test]
fn the_compare_panel_counts_what_diff_counts_on_every_datc_case_under_every_preset() {
    let files = datc();
    assert!(files.len() > 200, "{} cases", files.len());
    let mut checked = 0;
    for f in &files {
        let f = f.to_string_lossy().into_owned();
        let mut a = app(Some(&f), "compare-counts");
        // The rules view, then every preset in turn with `p`, as a user steps through them.
        let mut keys = "3";
        for _ in PRESETS {
            run(&mut a, 20, 6, keys);
            keys = "p";
            let s = a.session.scenario();
            let expected = diff(s, a.session.rules, a.session.compare_rules)
                .unwrap_or_else(|e| panic!("{f}: {e}"));
            // The panel draws from the session's diff, which is the library's.
            assert_eq!(a.session.diff, expected, "{f}");
            assert_eq!(panel_count(&summary(&a.session.diff)), Some(expected.len()));
            // Where something differs, the panel on screen says how much and names each order.
            if !expected.is_empty() {
                let screen = draw(&a, 100, 70);
                assert_eq!(
                    panel_count(&screen),
                    Some(expected.len()),
                    "{f} under {:?} vs {:?}:\n{screen}",
                    a.session.rules,
                    a.session.compare_rules
                );
                for o in &expected.orders {
                    assert!(screen.contains(&o.order), "{f}: {}\n{screen}", o.order);
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, files.len() * PRESETS.len());
}

#[test]
fn pandins_paradox_under_1982_the_panel_and_the_cli_say_three() {
    let (code, out, _) = dipsandbox(&[
        "diff",
        "--rules",
        "paradox=Rule1982",
        "scenarios/datc/6.F.16.ron",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(": 3 difference(s)"), "{out}");
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "compare-6f16");
    let t = text(&run(&mut a, 120, 40, "3 j l l"));
    assert_eq!(a.session.rules.paradox.as_str(), "Rule1982");
    assert!(t.contains("3 difference(s): 3 order(s)"), "{t}");
    // Both reasons of the order whose verdict stays but whose reason changes.
    assert!(t.contains("England: F Lon S F Wal - Eng"), "{t}");
    assert!(t.contains("the convoy of F Eng is cancelled"), "{t}");
    // The status message counts the same.
    let t = text(&run(&mut a, 120, 40, "h l"));
    assert!(t.contains("3 difference(s) from"), "{t}");
}

#[test]
fn help_scrolls_within_its_text_and_pages() {
    let mut a = app(None, "help-scroll");
    let first = text(&run(&mut a, 80, 24, "?"));
    let downs = vec!["down"; 200].join(" ");
    let bottom = text(&run(&mut a, 80, 24, &downs));
    // After 200 ↓ the last lines are on screen, not a blank pane.
    assert!(bottom.contains("keys.ron in the config folder"), "{bottom}");
    // One ↑ moves up at once: the scroll stopped at the bottom.
    let up = text(&run(&mut a, 80, 24, "up"));
    assert_ne!(up, bottom);
    // Home, End, PgDn, PgUp.
    assert_eq!(text(&run(&mut a, 80, 24, "home")), first);
    assert_eq!(text(&run(&mut a, 80, 24, "end")), bottom);
    let page = text(&run(&mut a, 80, 24, "home pgdn"));
    assert_ne!(page, first);
    assert_eq!(text(&run(&mut a, 80, 24, "pgup")), first);
    // The `•` mark is explained, and each key's action name is shown for keys.ron.
    assert!(bottom.contains("•"), "{bottom}");
    assert!(first.contains("place_army"), "{first}");
    assert!(first.contains("(\"board\" in keys.ron)"), "{first}");
}

#[test]
fn a_panel_binding_that_hides_a_global_key_is_an_error_naming_both() {
    use dipsandbox::tui::keymap::Keymap;
    let e = Keymap::parse_patch("{ \"trace\": { \"step_back\": [\"n\"] } }", "keys.ron")
        .expect_err("refused")
        .to_string();
    assert!(e.contains("\"step_back\""), "{e}");
    assert!(e.contains("\"step_forward\""), "{e}");
    // A panel key no global binding has is fine.
    assert!(Keymap::parse_patch("{ \"trace\": { \"step_back\": [\"b\"] } }", "keys.ron").is_ok());
}

#[test]
fn an_unknown_action_names_the_nearest_first() {
    use dipsandbox::tui::keymap::Keymap;
    let e = Keymap::parse_patch("{ \"stepforward\": [\"v\"] }", "keys.ron")
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("unknown action \"stepforward\" (did you mean \"step_forward\"?); the help (?)"),
        "{e}"
    );
}
