//! The TUI's second pass, the text items: the compare panel counts what
//! `dipsandbox diff` counts; reasons, cycles and rule values are never cut without "…"; the
//! help scrolls within bounds and names the actions a keymap file needs.

use std::path::PathBuf;

use dipsandbox::tui::app::App;
use dipsandbox::tui::layout::{View, layout};
use dipsandbox::tui::view::rules::summary;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::common::{app, dipsandbox, ron_files, run, text};
use dipsandbox_core::model::rules::PRESETS;
use dipsandbox_core::tools::diff::diff;

/// The app's current view drawn once at `w`×`h`.
fn draw_buf(a: &App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| {
        let vm = a.view_model(f.area());
        dipsandbox::tui::view::draw(f, &vm);
    })
    .expect("draws");
    t.backend().buffer().clone()
}

/// The app's current view drawn once at `w`×`h`, as text.
pub fn draw(a: &App, w: u16, h: u16) -> String {
    text(&draw_buf(a, w, h))
}

/// The rows inside a panel (its border left out), each as text.
fn panel_rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y + 1..r.bottom().saturating_sub(1))
        .map(|y| {
            (r.x + 1..r.right().saturating_sub(1))
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

/// Words joined by single spaces.
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `row` shows `s` whole, or a start of it cut with `…`.
fn whole_or_marked(row: &str, s: &str) -> bool {
    let row = row.trim_end();
    if row.contains(s) {
        return true;
    }
    let Some(cut) = row.strip_suffix('…') else {
        return false;
    };
    if cut.trim().is_empty() {
        // No room for a word: the mark alone.
        return true;
    }
    // Some end of the row starts `s`.
    let chars: Vec<char> = cut.chars().collect();
    (0..chars.len()).any(|i| {
        let tail: String = chars[i..].iter().collect();
        !tail.trim().is_empty() && s.starts_with(tail.trim_start())
    })
}

/// The DATC cases, sorted.
fn datc() -> Vec<PathBuf> {
    let mut files = Vec::new();
    ron_files(std::path::Path::new("scenarios/datc"), &mut files);
    files
}

/// The count the compare panel shows: `N differences` (`1 difference`), or 0 for "the same
/// result".
fn panel_count(screen: &str) -> Option<usize> {
    if screen.contains("the same result: no verdict") {
        return Some(0);
    }
    let at = screen
        .find(" differences: ")
        .or_else(|| screen.find(" difference: "))?;
    let head = &screen[..at];
    let digits: String = head
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// The DATC cases of the default tier's samples: every 8th case, from the first (the full sweeps
/// are in the slow tier).
fn datc_sample() -> Vec<PathBuf> {
    datc().into_iter().step_by(8).collect()
}

/// The compare panel on every DATC case (the slow tier).
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_compare_panel_counts_what_diff_counts_on_every_datc_case_under_every_preset() {
    let files = datc();
    assert!(files.len() > 200, "{} cases", files.len());
    compare_counts(&files);
}

/// The compare panel on a sample of the DATC cases (every 8th) under every preset, some of them
/// with differences on screen.
#[test]
fn the_compare_panel_counts_what_diff_counts_on_a_sample_of_datc_cases_under_every_preset() {
    let files = datc_sample();
    assert!(files.len() > 25, "{} cases", files.len());
    assert!(compare_counts(&files) > 0, "no difference drawn");
}

/// Every case in `files` under every preset: the session's diff is the library's, and where
/// something differs the panel on screen counts it and names each order. The number of
/// (case, preset) pairs with a difference drawn.
fn compare_counts(files: &[PathBuf]) -> usize {
    let mut checked = 0;
    let mut drawn = 0;
    for f in files {
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
                drawn += 1;
            }
            checked += 1;
        }
    }
    assert_eq!(checked, files.len() * PRESETS.len());
    drawn
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
    assert!(out.contains(": 3 differences"), "{out}");
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "compare-6f16");
    let t = text(&run(&mut a, 120, 40, "3 j l l"));
    assert_eq!(a.session.rules.paradox.as_str(), "Rule1982");
    assert!(t.contains("3 differences: 3 orders"), "{t}");
    // Both reasons of the order whose verdict stays but whose reason changes.
    assert!(t.contains("England: F Lon S F Wal - Eng"), "{t}");
    assert!(t.contains("the convoy of F Eng is cancelled"), "{t}");
    // The status message counts the same.
    let t = text(&run(&mut a, 120, 40, "h l"));
    assert!(t.contains("3 differences from"), "{t}");
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

/// Every DATC case at 80×24 and 120×40: each order's reason is on its row whole or cut with
/// "…", and whole in the detail once the order is selected; the stepper's cycle event names
/// every member in the trace's detail (and the event line cuts it with "…"); every rule row
/// shows its value whole. The slow tier; the default tier checks the same on a sample.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn reasons_cycles_and_rule_values_are_whole_or_cut_with_an_ellipsis() {
    let cycles = whole_or_cut(&datc());
    assert!(cycles > 10, "{cycles} cases with a cycle");
}

/// The same on a sample of the DATC cases (every 8th), cycles among them.
#[test]
fn reasons_cycles_and_rule_values_are_whole_or_cut_on_a_sample_of_datc_cases() {
    let files = datc_sample();
    assert!(files.len() > 25, "{} cases", files.len());
    let cycles = whole_or_cut(&files);
    assert!(cycles > 0, "{cycles} cases with a cycle");
}

/// The checks of [`reasons_cycles_and_rule_values_are_whole_or_cut_with_an_ellipsis`] on
/// `files`; the number of (case, size) pairs whose cycle event was checked.
fn whole_or_cut(files: &[PathBuf]) -> usize {
    let mut cycles = 0;
    for f in files {
        let f = f.to_string_lossy().into_owned();
        let mut a = app(Some(&f), "whole-text");
        for (w, h) in [(80, 24), (120, 40)] {
            // Board view, orders focused: each order selected in turn.
            run(&mut a, 20, 6, "1 G tab");
            let panes = layout(Rect::new(0, 0, w, h), View::Board);
            let orders = panes.orders.expect("orders pane");
            let n = a.session.scenario().orders.len();
            // Every order selected at 80×24; at 120×40 the first (the list is the same).
            for i in 0..if w == 80 { n } else { n.min(1) } {
                a.orders.order = i;
                let buf = draw_buf(&a, w, h);
                let rows = panel_rows(&buf, orders);
                let joined = words(&rows.join(" "));
                let reasons: Vec<String> = a
                    .session
                    .run
                    .phase()
                    .outcomes
                    .iter()
                    .map(|o| o.reason.clone())
                    .collect();
                // The selected order's reason whole in the detail.
                if let Some(r) = reasons.get(i) {
                    assert!(
                        joined.contains(&words(r)),
                        "{f} {w}x{h} order {i}: {r:?} not whole in\n{}",
                        rows.join("\n")
                    );
                }
                // Every listed order's reason whole or cut with "…" on its row.
                for (k, r) in reasons.iter().enumerate() {
                    if r.is_empty() {
                        continue;
                    }
                    let short = a.session.order_short(k);
                    // A list row: glyph, power, the order, then its reason.
                    let list_row = |row: &&String| {
                        let rest: String = row.chars().skip(6).collect();
                        "✓✗!∅·".contains(row.chars().next().unwrap_or(' '))
                            && rest
                                .strip_prefix(short.as_str())
                                .is_some_and(|t| t.starts_with([' ', '…']))
                    };
                    for row in rows.iter().filter(list_row) {
                        let rest: String = row.chars().skip(6 + short.chars().count()).collect();
                        let after = rest.trim_start();
                        // Orders written alike (two builds in one place) share rows.
                        let alike = (0..n).filter(|&j| a.session.order_short(j) == short);
                        let mut alike = alike.filter_map(|j| reasons.get(j));
                        assert!(
                            alike.any(|r| r.is_empty() || whole_or_marked(after, r)),
                            "{f} {w}x{h}: reason {r:?} cut without …: {row:?}"
                        );
                    }
                }
            }
            // Stepper: the first cycle event, if any.
            let has_cycle = a.session.stepper().is_some_and(|st| {
                st.events().iter().any(|e| {
                    matches!(
                        e,
                        dipsandbox_core::engine::decision::trace::Event::CycleFound { .. }
                    )
                })
            });
            if has_cycle {
                run(&mut a, 20, 6, "2 g ]");
                let (Some(st), Some(_)) = (a.session.stepper(), a.session.run.result.decisions())
                else {
                    continue;
                };
                let walk: Vec<String> = st
                    .events()
                    .iter()
                    .find_map(|e| match e {
                        dipsandbox_core::engine::decision::trace::Event::CycleFound {
                            walk,
                            ..
                        } => Some(walk.iter().map(|id| a.session.node_subject(*id)).collect()),
                        _ => None,
                    })
                    .unwrap_or_default();
                let panes = layout(Rect::new(0, 0, w, h), View::Stepper);
                let buf = draw_buf(&a, w, h);
                let rows = panel_rows(&buf, panes.trace.expect("trace pane"));
                let joined = words(&rows.join(" "));
                assert!(
                    joined.contains("CYCLE"),
                    "{f} {w}x{h}:\n{}",
                    rows.join("\n")
                );
                for m in &walk {
                    assert!(
                        joined.contains(&words(m)),
                        "{f} {w}x{h}: cycle member {m:?} missing:\n{}",
                        rows.join("\n")
                    );
                }
                let screen = text(&buf);
                let event = screen.lines().nth(usize::from(h) - 2).unwrap_or("");
                assert!(
                    event.contains("CYCLE")
                        && (event.ends_with('…')
                            || walk.iter().all(|m| event.contains(m.as_str()))),
                    "{f} {w}x{h}: event line {event:?}"
                );
                cycles += 1;
            }
            // Rules: every visible row ends with its value, whole.
            run(&mut a, 20, 6, "3");
            for top in [0, 99] {
                a.rules.row = top.min(a.session.rules.table().len() - 1);
                let panes = layout(Rect::new(0, 0, w, h), View::Rules);
                let buf = draw_buf(&a, w, h);
                let rows = panel_rows(&buf, panes.rules.expect("rules pane"));
                for row in a.session.rules.table() {
                    for line in rows.iter().filter(|l| {
                        l.split_whitespace().any(|wd| {
                            wd == row.field
                                || wd.trim_end_matches('…').len() > 3
                                    && row.field.starts_with(wd.trim_end_matches('…'))
                        }) && l.contains(row.issue)
                    }) {
                        let last = line.split_whitespace().last().unwrap_or("");
                        if line.contains(row.field) || line.contains('…') {
                            assert!(
                                row.values.contains(&last),
                                "{f} {w}x{h}: rule row {line:?} does not end in a whole value"
                            );
                        }
                    }
                }
            }
            run(&mut a, 20, 6, "1");
        }
    }
    cycles
}

#[test]
fn the_rules_view_explains_the_selected_option_from_the_rules_doc_comments() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "rules-doc");
    let t = text(&run(&mut a, 120, 40, "3 j"));
    assert!(
        t.contains("4.A.2: how convoy disruption paradoxes are resolved."),
        "{t}"
    );
    assert!(t.contains("▸ Szykman: The convoying fleets"), "{t}");
    assert!(t.contains("Rule1982: 1982: a convoyed army"), "{t}");
    // Every option made by the option macro has its question and a meaning per value.
    for row in dipsandbox_core::model::rules::Rules::default().table() {
        assert_eq!(row.values.len(), row.meanings.len(), "{}", row.field);
        if row.field != "adjacent_convoy_fallback" && row.field != "dpjudge_beleaguered_disrupts" {
            assert!(!row.question.is_empty(), "{}", row.field);
            assert!(row.meanings.iter().all(|m| !m.is_empty()), "{}", row.field);
        }
    }
}

#[test]
fn the_stepper_draws_the_cycle_as_a_ring_where_there_is_room() {
    let mut a = app(Some("scenarios/datc/6.C.1.ron"), "ring");
    let t = text(&run(&mut a, 200, 60, "2 g ]"));
    assert!(t.contains("the cycle, as a ring:"), "{t}");
    assert!(t.contains("ATTACK A Smy - Ank  →  MOVE F Ank - Con"), "{t}");
    // No room at 80×24: the detail alone, with every member.
    let t = text(&run(&mut a, 80, 24, ""));
    assert!(!t.contains("the cycle, as a ring:"), "{t}");
}

/// At 80×24 the compare panel of Pandin's paradox under 1982 holds more than fits: its last
/// cell says so ("…"), PgDn scrolls it to its last line (and no further: one PgUp moves it back
/// at once), and the verdict list's end is then on screen.
#[test]
fn the_compare_panel_scrolls_to_its_last_line() {
    // The compare panel: the right part of the rows between the panels' borders.
    let panel = |t: &str| -> Vec<String> {
        let lines: Vec<&str> = t.lines().collect();
        let bottom = lines
            .iter()
            .position(|l| l.starts_with('└'))
            .expect("panels");
        lines[2..bottom]
            .iter()
            .map(|l| {
                let at = l.find("││").map_or(0, |b| l[..b].chars().count() + 2);
                l.chars().skip(at).collect()
            })
            .collect()
    };
    let more_below = |p: &[String]| p.last().is_some_and(|l| l.trim_end().ends_with("…│"));
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "compare-scroll");
    let top = panel(&text(&run(&mut a, 80, 24, "3 j l l")));
    assert_eq!(a.session.rules.paradox.as_str(), "Rule1982");
    assert!(more_below(&top), "{top:#?}");
    let bottom = panel(&text(&run(&mut a, 80, 24, &vec!["pgdn"; 20].join(" "))));
    assert_ne!(bottom, top);
    // At the end: the verdict list's last order and the lines after it are shown (the
    // dislodgements, then the expectations in full, down to the last words of the last
    // mismatch), nothing below.
    assert!(
        bottom.iter().any(|l| l.starts_with("✗ ✗ F Bel - Eng")),
        "{bottom:#?}"
    );
    assert!(
        bottom
            .iter()
            .any(|l| l.starts_with("dislodged (both): none")),
        "{bottom:#?}"
    );
    assert!(
        bottom.last().is_some_and(|l| l
            .trim_end()
            .trim_end_matches('│')
            .trim_end()
            .ends_with("orders do)")),
        "{bottom:#?}"
    );
    assert!(!more_below(&bottom), "{bottom:#?}");
    // Clamped: one PgUp moves at once, and enough of them give the top again.
    let up = panel(&text(&run(&mut a, 80, 24, "pgup")));
    assert_ne!(up, bottom);
    let again = panel(&text(&run(&mut a, 80, 24, &vec!["pgup"; 20].join(" "))));
    assert_eq!(again, top);
}

/// An expectation no order owns (here the final positions) is in full in the orders panel's
/// detail at 80×24, whichever order is selected; the status bar has only its first words.
#[test]
fn a_missed_position_expectation_is_whole_in_the_detail() {
    let dir = crate::common::temp_dir("expect-positions");
    let text6a1 = std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("6.A.1");
    let at = text6a1.rfind("[\"F North Sea\"]").expect("positions");
    let mut wrong = text6a1.clone();
    wrong.replace_range(at..at + "[\"F North Sea\"]".len(), "[\"F Picardy\"]");
    let f = dir.join("wrong.ron");
    std::fs::write(&f, wrong).expect("write");
    let mut a = app(Some(f.to_str().expect("utf-8")), "expect-positions");
    let screen = text(&run(&mut a, 80, 24, ""));
    // The words, wrapped over the detail's rows: join them and look for the whole line.
    let joined: String = screen
        .lines()
        .filter_map(|l| l.split_once("││").map(|(_, right)| right))
        .map(|r| r.trim_matches(|c| c == '│' || c == ' ').to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let whole = "expectation: positions: expected but missing: English F Picardy; present but not expected: English F North Sea";
    assert!(joined.contains(whole), "{screen}");
}

/// The rules view explains the value in force first: after → → on the paradox rule at 80×24 the
/// 1982 rule's meaning is whole under the question, the others follow in the order → reaches them.
#[test]
fn the_value_in_force_is_explained_first() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "explain-first");
    let screen = text(&run(&mut a, 80, 24, "3 j l l"));
    let left: Vec<String> = screen
        .lines()
        .filter_map(|l| {
            l.split_once("││")
                .map(|(left, _)| left.trim_start_matches('│').to_string())
        })
        .collect();
    let q = left
        .iter()
        .position(|l| l.starts_with("4.A.2: how convoy disruption"))
        .expect("the question");
    let after: Vec<&String> = left.iter().skip(q).collect();
    let first = after
        .iter()
        .find(|l| l.starts_with('▸') || l.starts_with("Rule") || l.starts_with("Szykman"))
        .expect("a value");
    assert!(first.starts_with("▸ Rule1982: "), "{screen}");
    let joined = after.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("▸ Rule1982: 1982: a convoyed army does not cut a support of an action in a body of water holding a convoying fleet."),
        "{screen}"
    );
}
