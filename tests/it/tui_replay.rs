//! A phase `replay` wrote opens in the TUI on the compare view: the engine's result on the
//! left, the recorded result on the right, the orders that differ named on both sides with
//! their verdicts, and the rule options that explain the difference; one key goes back to
//! comparing rules. Every file `replay` writes for the Python package's saved games in
//! tests/data/games is opened, at 120×40 and 80×24.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::{self, app, dipsandbox, run, run_script, temp_dir, text};
use dipsandbox::tui::app::View;
use dipsandbox::tui::event::Script;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::replay::ReplayHeader;

/// The files `replay --all` writes for the saved games (once per test run).
pub fn replays() -> &'static [PathBuf] {
    static FILES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FILES.get_or_init(|| {
        let out = temp_dir("replay-files");
        let (code, stdout, stderr) = dipsandbox(&[
            "replay",
            "tests/data/games/python",
            "--all",
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 1, "the games differ: {stdout}{stderr}");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&out)
            .expect("out")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        assert!(files.len() > 10, "{stdout}");
        files
    })
}

fn header(f: &Path) -> ReplayHeader {
    ReplayHeader::parse(&std::fs::read_to_string(f).expect("read")).expect("a replay header")
}

/// Text without whitespace, in lower case: wrapped text compares with the words it wraps.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The compare panel's rows (the right-hand panel of the rules view), without its borders.
fn compare_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .skip(2)
        .filter_map(|l| l.split_once("││").map(|(_, r)| r))
        .map(|r| r.strip_suffix('│').unwrap_or(r).to_string())
        .collect()
}

fn last_line(screen: &str) -> &str {
    screen.lines().last().unwrap_or("")
}

/// The glyph of a verdict word, as the compare panel draws it.
fn glyph(word: &str) -> &'static str {
    match word {
        "succeeds" => "✓",
        "fails" => "✗",
        "illegal" => "!",
        _ => "∅",
    }
}

/// An order that differs, from a replay header's line `Italy: A ROM - NAP via convoy: expected
/// Succeeds, got Fails (…)`: the order with its power, the recorded verdict and the engine's.
fn order_difference(line: &str) -> Option<(String, String, String)> {
    let (order, rest) = line.split_once(": expected ")?;
    let (recorded, rest) = rest.split_once(", got ")?;
    let got = rest.split([' ', '(']).next()?;
    Some((
        order.to_string(),
        recorded.to_lowercase(),
        got.to_lowercase(),
    ))
}

/// Every page of the compare panel (PgDn until it stops moving).
fn pages(a: &mut dipsandbox::tui::app::App, w: u16, h: u16, first: &str) -> Vec<Vec<String>> {
    let mut out = vec![compare_rows(first)];
    for _ in 0..20 {
        let rows = compare_rows(&text(&run(a, w, h, "pgdn")));
        if out.last() == Some(&rows) {
            break;
        }
        out.push(rows);
    }
    out
}

/// What a user debugging the disagreement checks, in every file at both sizes: the two sides
/// and what recorded the game; each order that differs, on both sides with its two verdicts,
/// and its row marked (`≠`) among the first of the verdict list; the explaining options; the status
/// line; nothing cut without `…`.
#[test]
fn every_replay_file_opens_on_the_engine_against_the_recording() {
    for f in replays() {
        let h = header(f);
        let game = Path::new(&h.game)
            .file_name()
            .expect("name")
            .to_string_lossy();
        for (w, ht) in [(120, 40), (80, 24)] {
            let what = format!("{} at {w}x{ht}", f.display());
            let mut a = app(f.to_str(), &format!("replay-{w}"));
            assert!(a.session.comparing_recording(), "{what}");
            assert_eq!(a.view, View::Rules, "{what}");
            assert_eq!(a.session.engine.name(), "decisions", "{what}");
            let screen = text(&run(&mut a, w, ht, ""));
            // The panel's title: the two sides, whole.
            let title = screen.lines().nth(1).expect("title row");
            assert!(
                title.contains("┌ decisions vs recorded"),
                "{what}\n{screen}"
            );
            if title.contains("recorded:") {
                assert!(
                    title.contains(&format!("recorded: {game} (diplomacy package) ─")),
                    "{what}: {title}"
                );
            }
            // The status line: what is shown, and the key back to the rules; cut only with `…`.
            let message = a.message.as_ref().expect("a message").text.clone();
            assert!(
                message.starts_with(
                    "V compares rules · replay file: decisions (left) vs the recording of game-"
                ),
                "{what}: {message}"
            );
            let status = last_line(&screen);
            let left = status
                .split("expectations:")
                .next()
                .unwrap_or("")
                .trim_end();
            assert!(
                left == message
                    || (left.ends_with('…')
                        && message.starts_with(left.trim_end_matches('…'))
                        && left.contains("V compares rules · replay file: decisions")),
                "{what}: {status}"
            );
            assert!(
                status.contains(" of ") && status.contains(" differ"),
                "{what}: {status}"
            );
            // The sides and the explanation, on the first page.
            let pages = pages(&mut a, w, ht, &screen);
            let first = squash(&pages[0].join(" "));
            assert!(first.contains("left:decisionsunderdatc"), "{what}: {first}");
            assert!(
                first.contains(&squash(&format!(
                    "right: recorded: {game} (diplomacy package), phase {}",
                    h.phase
                ))),
                "{what}: {first}"
            );
            match h.explained_by.first() {
                Some(opt) => assert!(
                    first.contains(&squash(&format!("explained by {opt}"))),
                    "{what}: {first}"
                ),
                None => assert!(
                    first.contains(&squash("no single rule option explains it")),
                    "{what}: {first}"
                ),
            }
            // Each order that differs: on one page, with the engine's verdict then the
            // recorded one; and its row in the verdict list marked.
            let orders: Vec<_> = h
                .differences
                .iter()
                .filter_map(|d| order_difference(d))
                .collect();
            assert!(
                !h.differences.is_empty(),
                "{what}: the header lists what differs"
            );
            for (order, recorded, got) in &orders {
                let found = pages.iter().any(|p| {
                    let t = squash(&p.join(" "));
                    t.find(&squash(order)).is_some_and(|i| {
                        let rest = &t[i..];
                        rest.find(&format!("decisions:{got}"))
                            .is_some_and(|j| rest[j..].contains(&format!("recorded:{recorded}")))
                    })
                });
                assert!(found, "{what}: {order}: {got} / {recorded}\n{pages:#?}");
                let bare = order.split_once(": ").map_or(order.as_str(), |(_, o)| o);
                let row = squash(&format!("{}≠{} {bare}", glyph(got), glyph(recorded)));
                assert!(
                    pages.iter().any(|p| p.iter().any(|r| squash(r) == row)),
                    "{what}: no row {row}\n{pages:#?}"
                );
            }
            // A dislodgement or a position differs in the panel where `check` found one.
            let all = squash(&pages.concat().join(" "));
            for kind in ["dislodged", "positions"] {
                assert_eq!(
                    all.contains(&format!("{kind}only")),
                    h.differences
                        .iter()
                        .any(|d| d.starts_with(&format!("{kind}:"))),
                    "{what}: {kind}\n{:#?}\n{pages:#?}",
                    h.differences
                );
            }
            // The marked rows come first (on each page: the pages overlap).
            let mark = |s: &str| {
                let c: Vec<char> = s.chars().take(3).collect();
                let glyph = |i: usize| c.get(i).is_some_and(|c| "✓✗!∅·".contains(*c));
                (glyph(0) && glyph(2)).then(|| c.get(1) == Some(&'≠'))
            };
            for p in &pages {
                let mut seen_plain = false;
                for t in p {
                    if mark(t) == Some(false) {
                        seen_plain = true;
                    } else if mark(t) == Some(true) {
                        assert!(
                            !seen_plain,
                            "{what}: a marked row after an unmarked one\n{p:#?}"
                        );
                    }
                }
            }
        }
    }
}

/// The key the status line names goes back to comparing rule sets; pressed again it compares
/// the engines, and again the recording.
#[test]
fn the_key_the_status_line_names_goes_back_to_the_rules_and_round_to_the_recording() {
    let f = &replays()[0];
    for (w, h) in [(120, 40), (80, 24)] {
        let mut a = app(f.to_str(), &format!("replay-key-{w}"));
        let screen = text(&run(&mut a, w, h, ""));
        let key = last_line(&screen)
            .split(" compares rules")
            .next()
            .expect("the key")
            .to_string();
        assert_eq!(key, "V");
        let screen = text(&run(&mut a, w, h, &key));
        assert!(!a.session.comparing_recording());
        assert!(!a.session.comparing_engines());
        assert!(screen.contains("Compare: datc"), "{screen}");
        assert!(
            last_line(&screen).starts_with("comparing with the 2023 rules (V: engines"),
            "{screen}"
        );
        let screen = text(&run(&mut a, w, h, &key));
        assert!(a.session.comparing_engines(), "{screen}");
        let screen = text(&run(&mut a, w, h, &key));
        assert!(a.session.comparing_recording());
        assert!(screen.contains("decisions vs recorded"), "{screen}");
    }
}

/// The rule option the replay names as explaining the difference, set in the rules panel, gives
/// the recorded result: the panel and the status line say so, and the recording stays.
#[test]
fn setting_the_explaining_option_makes_the_two_sides_agree() {
    let f = replays()
        .iter()
        .find(|f| {
            header(f)
                .explained_by
                .iter()
                .any(|o| o == "adjacent_convoy=Rule1971")
        })
        .expect("a phase the 1971 convoy rule explains");
    let row = Rules::default()
        .table()
        .iter()
        .position(|r| r.field == "adjacent_convoy")
        .expect("the option");
    let mut a = app(f.to_str(), "replay-explain");
    let keys = format!("{}right", "down ".repeat(row));
    let screen = text(&run(&mut a, 120, 40, &keys));
    assert!(a.session.comparing_recording());
    assert!(
        last_line(&screen).starts_with("rules: adjacent_convoy=Rule1971; the recorded result"),
        "{screen}"
    );
    assert!(
        squash(&compare_rows(&screen).join(" ")).contains(&squash("the same result")),
        "{screen}"
    );
    assert!(last_line(&screen).contains("expectations: all"), "{screen}");
}

/// From the browser (`o`, a few letters of the title, enter) a replay file opens the same way.
#[test]
fn a_replay_file_opened_from_the_browser_shows_the_recording() {
    let f = &replays()[0];
    let h = header(f);
    let mut a = app(None, "replay-browse");
    a.folders.user = f.parent().map(Path::to_path_buf);
    let screen = text(&common::run_script(
        &mut a,
        120,
        40,
        Script::keys("o")
            .and_text(&format!("{} {}", h.game, h.phase))
            .and_keys("enter"),
    ));
    assert!(a.session.comparing_recording(), "{screen}");
    assert_eq!(a.view, View::Rules);
    assert!(screen.contains("decisions vs recorded"), "{screen}");
    assert!(
        last_line(&screen).starts_with("V compares rules · replay file"),
        "{screen}"
    );
}

/// Making the current result the expectations (`e`) ends the comparison with the recording:
/// the expectations are no longer what the game recorded.
#[test]
fn freezing_the_result_leaves_the_recording() {
    let mut a = app(replays()[0].to_str(), "replay-freeze");
    let screen = text(&run(&mut a, 120, 40, "e"));
    assert!(a.session.replay.is_none());
    assert!(!a.session.comparing_recording());
    assert!(screen.contains("Compare: datc"), "{screen}");
}

/// A `versus` class file still opens on its two engines (its status line names the key first
/// too), and a replay file is no versus file.
#[test]
fn a_versus_file_still_opens_on_its_engines() {
    let file = common::versus_class_file(&temp_dir("replay-versus"), common::VERSUS_LINE);
    let mut a = app(file.to_str(), "replay-versus");
    assert!(a.session.replay.is_none());
    assert!(!a.session.comparing_recording());
    assert_eq!(a.session.compare_engine.name(), "dpjudge");
    let screen = text(&run(&mut a, 120, 40, ""));
    assert!(
        screen.contains("Compare engines under datc: decisions (left) vs dpjudge"),
        "{screen}"
    );
    assert!(
        last_line(&screen).starts_with(
            "V compares rules · versus file: decisions (left) against dpjudge (right)"
        ),
        "{screen}"
    );
    let b = app(replays()[0].to_str(), "replay-not-versus");
    assert_eq!(b.session.versus, None);
}

/// The compare view of a replay file at 120×40: the phase the 1971 convoy rule explains.
#[test]
fn snapshot_of_a_replay_file() {
    let f = replays()
        .iter()
        .find(|f| f.ends_with("game-1-S1904M.ron"))
        .expect("game 1, spring 1904");
    let mut a = app(f.to_str(), "replay-snap");
    let buf = run(&mut a, 120, 40, "");
    insta::assert_snapshot!("replay_120x40", text(&buf));
}

/// A recording that gives positions only (as godip's game files do) and an engine this session
/// does not have: the verdict list says the recording gives no verdict (`·`), the positions that
/// differ are named on both sides, and the status line says which engine adjudicates instead.
#[test]
fn a_recording_of_positions_only_shows_what_it_does_not_say() {
    let f = replays()
        .iter()
        .find(|f| f.ends_with("game-1-S1904M.ron"))
        .expect("game 1, spring 1904");
    let text_of = std::fs::read_to_string(f).expect("read");
    // Without the recorded verdicts (the lines from `results: [` to its `],`) and dislodged
    // units.
    let mut out = String::new();
    let mut skipping = false;
    for line in text_of.lines() {
        if line.trim() == "results: [" {
            skipping = true;
        } else if skipping && line.trim() == "]," {
            skipping = false;
        } else if line.trim() == "dislodged: []," {
            // Positions only, as godip records: no dislodged units either.
        } else if !skipping {
            out.push_str(&line.replace("// engine: decisions", "// engine: cmd:elsewhere"));
            out.push('\n');
        }
    }
    let dir = temp_dir("replay-positions-only");
    let file = dir.join("positions-only.ron");
    std::fs::write(&file, out).expect("write");
    let (code, stdout, _) = dipsandbox(&["check", file.to_str().expect("utf-8")]);
    assert_eq!(
        code, 1,
        "check still loads it and finds the positions: {stdout}"
    );
    let mut a = app(file.to_str(), "replay-positions-only");
    assert!(a.session.comparing_recording());
    let screen = text(&run(&mut a, 120, 40, ""));
    let panel = squash(&compare_rows(&screen).join(" "));
    assert!(
        panel.contains(&squash("positions only under decisions: Italy A Rome")),
        "{screen}"
    );
    assert!(
        panel.contains(&squash("positions only in the recording: Italy A Naples")),
        "{screen}"
    );
    assert!(
        panel.contains(&squash("✗ · A Rom - Nap via Convoy")),
        "{screen}"
    );
    let message = a
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(
        message.ends_with(
            "the replay's engine, cmd:elsewhere, is not registered here (open the file with --engine cmd:elsewhere)"
        ),
        "{message}"
    );
    let all = squash(&pages(&mut a, 120, 40, &screen).concat().join(" "));
    assert!(
        all.contains(&squash("· the recording gives no verdict")),
        "{all}"
    );
    assert!(
        all.contains(&squash(
            "dislodged under decisions: none; the recording does not say"
        )),
        "{all}"
    );
}

/// Saving a replay file keeps its header, so that it opens on the recording again; saving it as
/// a new file carries the header there too; a `versus` file keeps its lines the same way.
#[test]
fn saving_a_replay_or_versus_file_keeps_its_header() {
    let dir = temp_dir("replay-save");
    let file = dir.join("phase.ron");
    std::fs::copy(&replays()[0], &file).expect("copy");
    let before = header(&file);
    let mut a = app(file.to_str(), "replay-save");
    assert!(a.session.comparing_recording());
    run(&mut a, 120, 40, "ctrl-s");
    assert!(!a.session.is_dirty());
    assert_eq!(header(&file), before);
    assert!(
        app(file.to_str(), "replay-save-again")
            .session
            .comparing_recording()
    );

    // Save as: the new file in the user's folder has the header too.
    let user = a.folders.user.clone().expect("user folder");
    run_script(&mut a, 120, 40, Script::keys("S enter"));
    let saved: Vec<PathBuf> = std::fs::read_dir(&user)
        .expect("user folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(header(&saved[0]), before);
    assert!(
        app(saved[0].to_str(), "replay-save-as")
            .session
            .comparing_recording()
    );

    // A versus file: its comment lines come back as they were, above the scenario.
    let lines = format!("{}// rules of the run: datc\n", common::VERSUS_LINE);
    let versus = common::versus_class_file(&dir, &lines);
    let mut v = app(versus.to_str(), "replay-save-versus");
    run(&mut v, 120, 40, "ctrl-s");
    let text = std::fs::read_to_string(&versus).expect("read");
    assert!(text.starts_with(&lines), "{text}");
    let v = app(versus.to_str(), "replay-save-versus-again");
    assert_eq!(
        v.session.versus,
        Some(("decisions".to_string(), "dpjudge".to_string()))
    );

    // A header longer than the 16 KiB read first comes back whole too.
    let long = format!(
        "{}{}",
        common::VERSUS_LINE,
        "// a note on the run, kept as it is\n".repeat(800)
    );
    assert!(long.len() > 16 * 1024);
    let long_dir = dir.join("long");
    std::fs::create_dir_all(&long_dir).expect("folder");
    let versus = common::versus_class_file(&long_dir, &long);
    let mut v = app(versus.to_str(), "replay-save-versus-long");
    run(&mut v, 120, 40, "ctrl-s");
    let text = std::fs::read_to_string(&versus).expect("read");
    assert!(text.starts_with(&long), "{}", &text[..200]);
}
