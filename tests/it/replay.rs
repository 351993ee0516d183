//! `replay`: games recorded by other programs, re-adjudicated phase by phase. The games in
//! tests/data/games were played by the Python `diplomacy` package with seeded random orders
//! (`make_games.py` there), saved in its own format and written again as godip game files.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::{dipsandbox, temp_dir};
use dipsandbox_core::engine::DecisionEngine;
use dipsandbox_core::io::games::{godip, python};
use dipsandbox_core::model::map::Map;
use dipsandbox_core::tools::replay::{PhaseVerdict, ReplayOptions, replay};

fn standard(_: &str) -> Result<Arc<Map>, String> {
    Ok(Map::standard_arc())
}

fn python_game(n: u32) -> dipsandbox_core::tools::replay::RecordedGame {
    let f = format!("tests/data/games/python/game-{n}.json");
    let text = std::fs::read_to_string(&f).expect("game");
    python::read(&text, &f, &standard).expect("reads")
}

/// Both saved games replay to the end: every phase is read, every phase but the last (which has
/// no recorded result) is compared, and the phases that differ are the Python package's known
/// departures, each written as a scenario that `check` loads, that fails under the default rules
/// as the replay said, and that passes under every option the replay named as explaining it.
#[test]
fn saved_games_of_the_python_package_replay_to_the_end() {
    let out = temp_dir("replay-python");
    let (code, stdout, stderr) = dipsandbox(&[
        "replay",
        "tests/data/games/python",
        "--all",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("2 games: 0 agree with decisions in every phase, 2 differ, 0 have phases that could not be read, 0 could not be read"),
        "{stdout}"
    );
    assert!(!stdout.contains("UNREADABLE"), "{stdout}");
    let mut written: Vec<PathBuf> = std::fs::read_dir(&out)
        .expect("out")
        .map(|e| e.expect("entry").path())
        .collect();
    written.sort();
    let differs = stdout.matches("  DIFFERS ").count();
    assert_eq!(written.len(), differs, "{stdout}");
    for n in [1, 2] {
        let g = python_game(n);
        let reports = replay(
            &g,
            &DecisionEngine,
            ReplayOptions {
                all: true,
                rules: None,
                explain: true,
            },
        )
        .expect("replays");
        assert_eq!(reports.len(), g.phases.len());
        assert!(g.phases.len() > 25, "{}", g.phases.len());
        let last = reports.last().expect("phases");
        assert_eq!(last.verdict, PhaseVerdict::Unrecorded);
        for r in &reports[..reports.len() - 1] {
            match &r.verdict {
                PhaseVerdict::Agrees { checks } => assert!(*checks > 0),
                PhaseVerdict::Differs {
                    differences,
                    explained_by,
                    ..
                } => {
                    let file = out.join(format!("game-{n}-{}.ron", r.name));
                    let f = file.to_str().expect("utf-8");
                    let (code, o, e) = dipsandbox(&["check", f]);
                    assert_eq!(code, 1, "{f}: the default rules miss the recording: {o}{e}");
                    let n = differences.len();
                    assert!(
                        o.contains(&format!("({n} of ")),
                        "{f}: {n} differences: {o}"
                    );
                    assert!(o.contains(differences[0].as_str()), "{f}: {o}");
                    // An option explains the phase in effect: every order acts as recorded, the
                    // board is the recorded one (words are not for a rule to explain).
                    for opt in explained_by {
                        let (code, o, e) =
                            dipsandbox(&["check", f, "--rules", opt, "--wording", "effect"]);
                        assert_eq!(code, 0, "{f} under {opt}: {o}{e}");
                    }
                }
                other => panic!("game {n} {}: {other:?}", r.name),
            }
        }
    }
}

/// The departure the issue names (4.A.3): the Python package moves an army ordered "via convoy"
/// with no convoy over land, as `adjacent_convoy_fallback=true` does; the replay finds it in
/// game 2 and names that option.
#[test]
fn the_land_fallback_of_the_python_package_is_found_and_explained() {
    let g = python_game(2);
    let reports = replay(
        &g,
        &DecisionEngine,
        ReplayOptions {
            all: true,
            rules: None,
            explain: true,
        },
    )
    .expect("replays");
    let f1903 = reports.iter().find(|r| r.name == "F1903M").expect("F1903M");
    let PhaseVerdict::Differs {
        differences,
        explained_by,
        ..
    } = &f1903.verdict
    else {
        panic!("{:?}", f1903.verdict)
    };
    assert!(
        differences
            .iter()
            .any(|d| d.contains("A KIE - DEN via convoy: expected Succeeds, got Fails")),
        "{differences:?}"
    );
    assert!(
        explained_by.contains(&"adjacent_convoy_fallback=true".to_string()),
        "{explained_by:?}"
    );
    // Without --all the replay stops at the first phase that differs.
    let first = replay(&g, &DecisionEngine, ReplayOptions::default()).expect("replays");
    assert!(matches!(
        first.last().map(|r| &r.verdict),
        Some(PhaseVerdict::Differs { explained_by, .. }) if explained_by.is_empty()
    ));
    assert!(first.len() < reports.len());
}

/// The same games as godip game files (orders without powers or unit types, coasts as `stp/sc`)
/// replay to the end and agree in every recorded phase: godip's format records positions only,
/// and the positions agree.
#[test]
fn godip_game_files_replay_to_the_end() {
    for n in [1, 2] {
        let f = format!("tests/data/games/godip/game-{n}.txt");
        let text = std::fs::read_to_string(&f).expect("game");
        assert!(godip::looks_like(&text));
        let g = godip::read(&text, &f, Map::standard_arc(), "standard").expect("reads");
        let reports = replay(
            &g,
            &DecisionEngine,
            ReplayOptions {
                all: true,
                rules: None,
                explain: false,
            },
        )
        .expect("replays");
        assert_eq!(reports.len(), g.phases.len());
        let agree = reports
            .iter()
            .filter(|r| matches!(r.verdict, PhaseVerdict::Agrees { .. }))
            .count();
        assert_eq!(agree, reports.len() - 1, "{f}: {reports:?}");
    }
    let (code, stdout, _) = dipsandbox(&["replay", "tests/data/games/godip/game-1.txt"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("game-1.txt: 31 phases, 31 replayed: 30 agree"),
        "{stdout}"
    );
}

/// A file that is no game, a broken JSON file and a phase that names an unknown province: the
/// first two are errors naming the file (and line and column), the third is an unreadable phase
/// named with its reason while the other phases are still replayed; the exit status is 2.
#[test]
fn bad_games_are_named_and_the_rest_still_runs() {
    let dir = temp_dir("replay-bad");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"phases\": [\n  {\"name\": \"S1901M\",, }\n]}\n").expect("write");
    let (code, stdout, _) = dipsandbox(&["replay", broken.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(
        stdout.contains("broken.json:2:") && stdout.contains("not a saved game"),
        "{stdout}"
    );
    let other = dir.join("notes.txt");
    std::fs::write(&other, "just some notes\n").expect("write");
    let (code, stdout, _) = dipsandbox(&["replay", other.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(stdout.contains("not a recorded game"), "{stdout}");
    // One phase with a province no map has.
    let text = std::fs::read_to_string("tests/data/games/godip/game-1.txt").expect("game");
    let bad = text.replacen(
        "PHASE 1902 Spring Movement\nPOSITIONS\n",
        "PHASE 1902 Spring Movement\nPOSITIONS\n\tEngland: army xyz\n",
        1,
    );
    assert_ne!(bad, text);
    let f = dir.join("game.txt");
    std::fs::write(&f, bad).expect("write");
    let (code, stdout, _) = dipsandbox(&["replay", f.to_str().expect("utf-8"), "--all"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stdout.contains("UNREADABLE 1902 Spring Movement: line")
            && stdout.contains("unknown province \"xyz\""),
        "{stdout}"
    );
    assert!(stdout.contains("31 replayed: 29 agree"), "{stdout}");
}

/// `--json`: one object per game with its phases, each with its status and, when it differs,
/// the differences, the explaining options and the scenario written.
#[test]
fn replay_json_lists_every_phase() {
    let out = temp_dir("replay-json");
    let (code, stdout, stderr) = dipsandbox(&[
        "replay",
        "tests/data/games/python/game-2.json",
        "--json",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(
        v["schema"], "dipsandbox.replay/1",
        "every document names its schema"
    );
    assert_eq!(v["engine"], "decisions");
    let game = &v["games"][0];
    assert_eq!(game["map"], "standard");
    let phases = game["phases"].as_array().expect("phases");
    let last = phases.last().expect("a phase");
    assert_eq!(last["status"], "differs");
    assert!(
        last["differences"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    );
    let written = last["scenario"].as_str().expect("written");
    assert!(Path::new(written).is_file());
    assert!(
        phases[..phases.len() - 1]
            .iter()
            .all(|p| p["status"] == "agrees")
    );
}

/// The folder of the Python `diplomacy` package's own network games (`diplomacy/tests/network/`,
/// shipped in the package from PyPI), if the package is installed; otherwise says why the test
/// does nothing.
fn python_network_games() -> Option<PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import importlib.util, os, sys; s = importlib.util.find_spec('diplomacy'); sys.exit(1) if s is None else print(os.path.join(os.path.dirname(s.origin), 'tests', 'network'))",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let dir = out.filter(|d| d.join("1.json").is_file());
    if dir.is_none() {
        println!(
            "SKIPPED: python3 finds no `diplomacy` package with its network games: pip install diplomacy (.ci/run does)"
        );
    }
    dir
}

/// The Python package's three network games replay phase by phase: every one of their 159
/// recorded transitions agrees with the decision engine under `adjacent_convoy_fallback=true`
/// (the package's land fallback), dislodged units that had nowhere to go and were disbanded at
/// once included (they are read from the movement phase's results, not from the retreat phase,
/// which never lists them); under the DATC rules only that fallback differs.
#[test]
fn the_python_packages_network_games_agree_under_the_fallback_rule() {
    let Some(dir) = python_network_games() else {
        return;
    };
    let games: Vec<String> = ["1.json", "2.json", "3.json"]
        .iter()
        .map(|g| dir.join(g).display().to_string())
        .collect();
    let out = temp_dir("replay-network");
    let o = out.to_str().expect("utf-8");
    let mut args: Vec<&str> = vec![
        "replay",
        "--all",
        "-o",
        o,
        "--rules",
        "adjacent_convoy_fallback=true",
    ];
    args.extend(games.iter().map(String::as_str));
    let (code, stdout, stderr) = dipsandbox(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let agree: usize = stdout
        .lines()
        .filter_map(|l| l.split(" replayed: ").nth(1))
        .filter_map(|r| r.split(' ').next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(agree, 159, "{stdout}");
    assert!(
        stdout.contains("3 games: 3 agree with decisions in every phase"),
        "{stdout}"
    );
    // Under the DATC rules, what differs is the fallback, and the replay says so.
    let mut args = vec!["replay", "--all", "-o", o, "--force"];
    args.extend(games.iter().map(String::as_str));
    let (code, stdout, _) = dipsandbox(&args);
    assert_eq!(code, 1, "{stdout}");
    for line in stdout.lines().filter(|l| l.contains("DIFFERS")) {
        assert!(line.contains("adjacent_convoy_fallback=true"), "{line}");
    }
}

/// godip's Ancient Mediterranean game replays: its folder's name (`ancientmediterranean`) finds
/// the built-in map `ancmed`, its names for Thebes and the Tyrrhenian Sea are the map's aliases,
/// and every phase agrees but the two its recording lists one army twice in (reported, not
/// guessed at).
#[test]
fn godips_ancient_mediterranean_game_replays() {
    let out = temp_dir("replay-ancmed");
    let (code, stdout, _) = dipsandbox(&[
        "replay",
        "tests/data/games/godip/variants/ancientmediterranean/games/game_1.txt",
        "--all",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stdout.contains("29 phases, 29 replayed: 26 agree, 1 differ, 1 unreadable"),
        "{stdout}"
    );
    assert!(
        stdout.contains("UNREADABLE 3 Fall Adjustment: two units in Bithynia"),
        "{stdout}"
    );
    assert!(
        stdout.contains("expected but missing: Greek A Bithynia; present but not expected: none"),
        "{stdout}"
    );
}
