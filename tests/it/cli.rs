//! The command line as a user runs it: output and exit status.

use crate::common;

use std::process::Command;

use common::dipsandbox;

// With no argument: the built-in scenario, its results with reasons, and what to try next.
#[test]
fn no_argument_adjudicates_the_builtin_scenario() {
    let (code, out, _) = dipsandbox(&[]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Pandin's paradox\n"), "{out}");
    assert!(
        out.contains("no path: the convoy of F Eng is cancelled (Szykman rule)"),
        "{out}"
    );
    assert!(out.contains("Try next:"), "{out}");
}

#[test]
fn show_prints_position_and_orders() {
    let (code, out, _) = dipsandbox(&["show", "scenarios/datc/6.A.11.ron"]);
    assert_eq!(code, 0);
    assert!(out.contains("Position:\n"), "{out}");
    assert!(out.contains("Orders:\n"), "{out}");
    assert!(out.contains("A Vienna - Tyrolia"), "{out}");
}

#[test]
fn check_exit_status_and_summary() {
    let (code, out, _) = dipsandbox(&[
        "check",
        "scenarios/datc/6.A.1.ron",
        "scenarios/datc/6.C.1.ron",
    ]);
    assert_eq!(code, 0);
    assert!(out.ends_with("2 passed, 0 failed\n"), "{out}");
    // A case checked under the wrong rules fails: exit 1.
    let (code, out, _) = dipsandbox(&["check", "scenarios/datc/6.F.18.ron", "--rules", "1982"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.ends_with("0 passed, 1 failed\n"), "{out}");
    // Unreadable input: exit 2, and the file named.
    let (code, out, err) = dipsandbox(&[
        "check",
        "tests/invalid/scenarios/unknown_field.ron",
        "no/such/dir",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.contains("ERROR tests/invalid/scenarios/unknown_field.ron:"),
        "{out}"
    );
    assert!(err.contains("no/such/dir: no such file or folder"), "{err}");
}

#[test]
fn explain_trace_shows_cycle_and_rule() {
    let (code, out, _) = dipsandbox(&["explain", "scenarios/datc/6.F.16.ron", "--trace"]);
    assert_eq!(code, 0);
    assert!(out.contains("CYCLE (convoy paradox)"), "{out}");
    assert!(out.contains("BACKUP RULE: Szykman rule"), "{out}");
    assert!(out.contains("Expectations: all 8 checks met."), "{out}");
    // One fleet's convoy, in the singular; two, in the plural.
    assert!(
        out.contains("Szykman: the convoy of F English Channel is cancelled; the fleet holds"),
        "{out}"
    );
    let (_, out, _) = dipsandbox(&["explain", "scenarios/datc/6.F.23.ron", "--trace"]);
    assert!(
        out.contains(
            "Szykman: the convoys of F English Channel, F North Sea are cancelled; the fleets hold"
        ),
        "{out}"
    );
}

#[test]
fn bad_rules_are_reported() {
    let (code, _, err) = dipsandbox(&["--rules", "paradox=Sometimes"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--rules: unknown value \"Sometimes\" for paradox"),
        "{err}"
    );
}

#[test]
fn advance_writes_the_next_phase() {
    let dir = std::env::temp_dir().join(format!("dipsandbox-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let next = dir.join("next.ron");
    let (code, out, _) = dipsandbox(&[
        "advance",
        "scenarios/year-1901/2-fall-1901-movement.ron",
        "-o",
        next.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Next phase: Fall 1901 Retreat"), "{out}");
    let (code, out, _) = dipsandbox(&["show", next.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Italian A Trieste (attacked from Vienna)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// `--print` (and any run whose stdout is not a terminal) keeps the printed form, so scripts
// keep working; a bad file is a located error before any terminal mode is touched.
#[test]
fn print_flag_prints_a_file_and_bad_files_are_located() {
    let (code, out, _) = dipsandbox(&["--print", "scenarios/datc/6.C.1.ron"]);
    assert_eq!(code, 0);
    assert!(out.contains("Results:"), "{out}");
    assert!(out.contains("moves (circular movement)"), "{out}");
    let (code, _, err) = dipsandbox(&["tests/invalid/scenarios/unknown_field.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown_field.ron:"), "{err}");
}

#[test]
fn diff_two_rule_sets_lists_each_differing_order_with_both_reasons() {
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc/6.F.16.ron", "--rules", "1982"]);
    assert_eq!(code, 1, "something differs: {out}");
    assert!(out.contains("own rules vs 1982: 3 differences"), "{out}");
    let convoy = out
        .find("France: F Eng C A Bre - Lon")
        .expect("the convoy differs");
    let rest = &out[convoy..];
    assert!(
        rest.contains("own rules  fails    fails: cancelled by the Szykman rule"),
        "{out}"
    );
    assert!(rest.contains("1982       succeeds convoys"), "{out}");
    let (code, out, _) = dipsandbox(&[
        "diff",
        "scenarios/datc/6.F.16.ron",
        "--rules",
        "2023",
        "--rules",
        "2000",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2023 and 2000 give the same result"), "{out}");
    let (code, _, err) = dipsandbox(&["diff", "scenarios/datc/6.F.16.ron", "--rules", "1983"]);
    assert_eq!(code, 2);
    assert!(err.contains("--rules 1983"), "{err}");
}

#[test]
fn diff_tables_every_preset_and_marks_the_rows_that_split() {
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc/6.F.16.ron", "--all-presets"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("order") && out.contains("datc") && out.contains("dptg"),
        "{out}"
    );
    let row = out
        .lines()
        .find(|l| l.contains("F Eng C A Bre - Lon"))
        .expect("the convoy's row");
    assert!(row.ends_with("← differs"), "{row}");
    let row = out
        .lines()
        .find(|l| l.contains("F Lon S F Wal - Eng"))
        .expect("the support's row");
    assert!(!row.contains("differs"), "{row}");
}

/// Over a folder, `--all-presets` ends with the cases each preset changes against the DATC
/// preferences — dislodgements and positions count too (civil disorder under the older rule).
#[test]
fn diff_all_presets_over_a_folder_lists_the_cases_each_preset_changes() {
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc", "--all-presets"]);
    assert_eq!(code, 1);
    let summary: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("The cases each preset changes"))
        .collect();
    assert_eq!(summary.len(), 6, "{out}");
    let line = |p: &str| {
        summary
            .iter()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap_or_else(|| panic!("no {p} line in {summary:?}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // Pandin's paradox differs under the 1982 rule, not under DPTG; 6.G.1 (adjacent convoy
    // without `via convoy`) the other way round; 6.J.6 (civil disorder) under the older rules.
    assert!(line("1982").contains(&"6.F.16".to_string()));
    assert!(!line("dptg").contains(&"6.F.16".to_string()));
    assert!(line("dptg").contains(&"6.G.1".to_string()));
    assert!(!line("1982").contains(&"6.G.1".to_string()));
    assert!(line("2000").contains(&"6.J.6".to_string()));
    assert!(!line("2023").contains(&"6.J.6".to_string()));
    // The count in brackets is the number of cases listed.
    let raw = summary
        .iter()
        .find(|l| l.trim_start().starts_with("1971"))
        .expect("1971 line");
    let (head, cases) = raw.split_once("):").expect("count, then the cases");
    let n: usize = head
        .split_once('(')
        .map(|(_, n)| n.trim())
        .and_then(|n| n.parse().ok())
        .expect("count");
    assert_eq!(n, cases.split_whitespace().count(), "{raw}");
}

#[test]
fn diff_over_a_folder_says_which_option_decides_which_case() {
    let (code, out, _) = dipsandbox(&["diff", "scenarios/datc"]);
    assert_eq!(code, 1);
    // DATC 6.G.10, 6.G.14 and 6.G.15 are the cases 4.A.7 decides (their "-Always" variants the
    // other way round).
    assert!(
        out.contains("dislodged_no_effect=Always (4.A.7): 3 cases: 6.G.10 6.G.14 6.G.15"),
        "{out}"
    );
    assert!(
        out.contains(
            "retreat_after_convoy=Allowed (4.A.5): 2 cases: 6.H.11-Forbidden 6.H.12-Forbidden"
        ),
        "{out}"
    );
    let pandin = out
        .lines()
        .find(|l| l.starts_with("6.F.16:"))
        .expect("6.F.16");
    assert!(pandin.contains("paradox=Rule1982"), "{pandin}");
    // A case no option touches is not listed.
    assert!(!out.lines().any(|l| l.starts_with("6.A.1:")), "{out}");
}

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let (code, out, err) = dipsandbox(args);
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v)
}

// The fields docs/json.md documents are there, with the documented types.
#[test]
fn json_output_parses_and_has_the_documented_fields() {
    let (code, v) = json(&[
        "check",
        "scenarios/datc/6.F.16.ron",
        "scenarios/datc/6.J.3.ron",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["schema"], "dipsandbox.check/1");
    assert_eq!(v["passed"], 2);
    assert_eq!(v["failed"], 0);
    assert!(v["unreadable"].as_array().is_some_and(|a| a.is_empty()));
    let cases = v["cases"].as_array().expect("cases");
    assert_eq!(cases[0]["status"], "pass");
    assert_eq!(cases[0]["title"], "Pandin's paradox");
    assert_eq!(cases[0]["checks"], 8);
    assert_eq!(cases[0]["positions_only"], false);
    assert!(cases[0]["error"].is_null());
    assert_eq!(
        cases[1]["positions_only"], true,
        "6.J.3 states positions only"
    );

    let (code, v) = json(&[
        "check",
        "scenarios/datc/6.F.16.ron",
        "--rules",
        "1982",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["cases"][0]["status"], "fail");
    assert!(
        !v["cases"][0]["mismatches"]
            .as_array()
            .expect("list")
            .is_empty()
    );

    let (code, v) = json(&["explain", "scenarios/datc/6.F.16.ron", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["schema"], "dipsandbox.explain/1");
    assert_eq!(v["phase"], "Spring 1901 Movement");
    assert_eq!(v["rules"]["preset"], "datc");
    let orders = v["orders"].as_array().expect("orders");
    assert_eq!(orders.len(), 6);
    let bre = orders
        .iter()
        .find(|o| o["order"].as_str().is_some_and(|t| t.contains("Brest")))
        .expect("A Bre");
    assert_eq!(bre["power"], "France");
    assert_eq!(bre["verdict"], "fails");
    assert_eq!(bre["backup"], "Szykman rule");
    assert_eq!(v["positions"].as_array().expect("positions").len(), 6);
    assert_eq!(v["expectations"]["checks"], 8);

    let (code, v) = json(&[
        "diff",
        "scenarios/datc/6.F.16.ron",
        "--rules",
        "1982",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["schema"], "dipsandbox.diff/1");
    let c = &v["cases"][0];
    assert_eq!(c["a"], "own rules");
    assert_eq!(c["b"], "1982");
    assert_eq!(c["same"], false);
    let convoy = c["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .find(|o| o["order"] == "France: F Eng C A Bre - Lon")
        .expect("the convoy");
    assert_eq!(convoy["a"]["verdict"], "fails");
    assert_eq!(convoy["b"]["verdict"], "succeeds");
    assert!(c["dislodged"]["only_a"].is_array() && c["positions"]["only_b"].is_array());

    let (_, v) = json(&[
        "diff",
        "scenarios/datc/6.F.16.ron",
        "--all-presets",
        "--json",
    ]);
    assert_eq!(v["schema"], "dipsandbox.presets/1");
    assert_eq!(
        v["cases"][0]["presets"].as_array().expect("presets").len(),
        6
    );
    assert!(
        v["cases"][0]["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .any(|r| r["differs"] == true)
    );

    let (_, v) = json(&["diff", "scenarios/datc/6.G.10.ron", "--json"]);
    assert_eq!(v["schema"], "dipsandbox.deciders/1");
    let ds = v["cases"][0]["deciders"].as_array().expect("deciders");
    assert!(ds.iter().any(|d| d["field"] == "dislodged_no_effect"
        && d["value"] == "Always"
        && d["issue"] == "4.A.7"));

    let (code, _, err) = dipsandbox(&["show", "scenarios/datc/6.F.16.ron", "--json"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--json is for check, explain, solve and diff"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        // Eight times the scenario folder: more than a pipe buffer holds, so the writer is
        // still writing when the reader goes away.
        .args(["check"])
        .args(["scenarios"; 8])
        .env("RUST_BACKTRACE", "0")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("some output");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        matches!(out.status.code(), Some(0 | 141)),
        "{:?}",
        out.status
    );
}

/// Every printing command, its stdout closed before it writes: it ends with status 141 and says
/// nothing (no panic); with stdout on a full disk, it says so in one line without colour escapes
/// and ends with status 2.
#[test]
fn every_printing_command_survives_a_closed_pipe_and_a_full_disk() {
    let commands: &[&[&str]] = &[
        &["check", "scenarios/datc"],
        &["explain", "scenarios/pandin.ron", "--trace"],
        &["explain", "scenarios/pandin.ron", "--json"],
        &["show", "scenarios/pandin.ron"],
        &["--print", "scenarios/pandin.ron"],
        &["solve", "scenarios/datc/6.F.14.ron"],
        &["solve", "scenarios/datc/6.F.14.ron", "--json"],
        &["diff", "scenarios/datc", "--all-presets"],
        &["diff", "scenarios/datc/6.F.16.ron", "--rules", "1982"],
        &["export", "scenarios/datc/6.A.1.ron"],
        &["advance", "scenarios/datc/6.A.1.ron"],
        &["rules"],
        &["maps"],
    ];
    for args in commands {
        // The reader is gone before the command starts: its first write fails.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
            .args(*args)
            .env("RUST_BACKTRACE", "0")
            .stdout(writer)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
        assert!(!err.contains("standard output"), "{args:?}: {err}");

        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            continue;
        };
        let out = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
            .args(*args)
            .env("RUST_BACKTRACE", "0")
            .stdout(full)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert_eq!(
            last, "error: cannot write to standard output: No space left on device (os error 28)",
            "{args:?}"
        );
        assert!(
            !err.contains('\u{1b}') && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn check_writes_a_junit_report_with_one_case_per_scenario() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-junit.xml");
    let _ = std::fs::remove_file(&out);
    let (code, _, _) = dipsandbox(&[
        "check",
        "scenarios/datc/6.F.16.ron",
        "scenarios/datc/6.A.1.ron",
        "--rules",
        "1982",
        "--junit",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1);
    let xml = std::fs::read_to_string(&out).expect("report written");
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
    assert!(
        xml.contains(r#"tests="2""#) && xml.contains(r#"failures="1""#),
        "{xml}"
    );
    assert!(
        xml.contains("<failure message=\"1 of 8 checks failed\">"),
        "{xml}"
    );
    assert!(xml.contains("expected Fails, got Succeeds"), "{xml}");
}

/// A scenario on a map of its own, in a folder of the test's own: `maps/m7.ron` (a copy of the
/// seven-province test map) at the top, the scenario two folders down naming it by name.
fn own_map_tree(name: &str) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("maps")).expect("maps");
    std::fs::create_dir_all(root.join("games/one")).expect("games");
    std::fs::copy("maps/test7.ron", root.join("maps/m7.ron")).expect("copy map");
    std::fs::write(
        root.join("games/one/start.ron"),
        r#"Scenario(
    title: "Seven provinces",
    map: "m7",
    phase: "Spring 1901 Movement",
    units: { "North": ["A bor"], "South": ["F cal"] },
    orders: { "North": ["A bor - dun"], "South": ["F cal - dun/wc"] },
)"#,
    )
    .expect("scenario");
    root
}

/// A map named by name is found in `maps/` above the scenario, from any current folder; a map
/// named by a path is found from the scenario's folder; and `advance -o` into another folder
/// writes a scenario whose map still resolves from there.
#[test]
fn maps_resolve_from_the_scenario_and_survive_a_move() {
    let root = own_map_tree("cli-own-map");
    let start = root.join("games/one/start.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(["check", start.to_str().expect("utf-8")])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // Written into a folder where `m7` is not found by name.
    let elsewhere =
        std::env::temp_dir().join(format!("dipsandbox-elsewhere-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&elsewhere);
    std::fs::create_dir_all(&elsewhere).expect("dir");
    let next = elsewhere.join("next.ron");
    let (code, _, err) = dipsandbox(&[
        "advance",
        start.to_str().expect("utf-8"),
        "-o",
        next.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&next).expect("written");
    assert!(!text.contains("map: \"m7\""), "{text}");
    let reloaded =
        dipsandbox_core::model::scenario::Scenario::load(&next).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reloaded.map.provinces.len(), 7);
    // Written beside the original, the name still resolves and is kept as written.
    let beside = root.join("games/one/next.ron");
    let (code, _, err) = dipsandbox(&[
        "advance",
        start.to_str().expect("utf-8"),
        "-o",
        beside.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&beside).expect("written");
    assert!(text.contains("map: \"m7\""), "{text}");
    let _ = std::fs::remove_dir_all(&elsewhere);
}

/// `advance -o`, `import --to` and `minimize -o` replace an existing file only with `--force`,
/// and never a folder, FIFO, device or read-only file; what was there is left untouched.
#[test]
fn writes_never_replace_what_they_should_not() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-targets");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8").to_string();
    let existing = dir.join("existing.ron");
    std::fs::write(&existing, "keep me").expect("write");
    let advance = |target: &std::path::Path, force: bool| {
        let mut args = vec![
            "advance".to_string(),
            "scenarios/datc/6.A.1.ron".into(),
            "-o".into(),
            arg(target),
        ];
        if force {
            args.push("--force".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        dipsandbox(&args)
    };
    let (code, _, err) = advance(&existing, false);
    assert_eq!(code, 2);
    assert!(err.contains("exists; give --force to replace it"), "{err}");
    assert_eq!(std::fs::read_to_string(&existing).expect("read"), "keep me");
    let (code, _, err) = advance(&existing, true);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&existing)
            .expect("read")
            .contains("Scenario(")
    );

    let (code, _, err) = advance(&dir, true);
    assert_eq!(code, 2);
    assert!(err.contains("it is a folder"), "{err}");
    let (code, _, err) = advance(std::path::Path::new("/dev/null"), true);
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
    let readonly = dir.join("readonly.ron");
    std::fs::write(&readonly, "mine").expect("write");
    let mut perms = std::fs::metadata(&readonly).expect("meta").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&readonly, perms).expect("chmod");
    let (code, _, err) = advance(&readonly, true);
    assert_eq!(code, 2);
    assert!(err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&readonly).expect("read"), "mine");
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        let made = Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let (code, _, err) = advance(&fifo, true);
            assert_eq!(code, 2);
            assert!(err.contains("not a regular file"), "{err}");
        }
    }

    // import: nothing is written when one file may not be replaced.
    let to = dir.join("cases");
    std::fs::create_dir_all(&to).expect("dir");
    let suite = "tests/data/jdip/datc-v2.4.txt";
    let (code, _, err) = dipsandbox(&["import", suite, "--to", &arg(&to)]);
    assert_eq!(code, 0, "{err}");
    let count = std::fs::read_dir(&to).expect("dir").count();
    let (code, _, err) = dipsandbox(&["import", suite, "--to", &arg(&to)]);
    assert_eq!(code, 2);
    assert!(err.contains("give --force to replace the files"), "{err}");
    assert_eq!(std::fs::read_dir(&to).expect("dir").count(), count);
    let (code, _, err) = dipsandbox(&["import", suite, "--to", &arg(&to), "--force"]);
    assert_eq!(code, 0, "{err}");

    // minimize: a folder is refused even with --force.
    let (code, _, err) = dipsandbox(&[
        "minimize",
        "scenarios/datc/6.F.14.ron",
        "--keep",
        "backup",
        "-o",
        &arg(&dir),
        "--force",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("it is a folder"), "{err}");
}

/// A folder with a link back up (a loop), a link to a file already listed, and a FIFO named
/// `.ron`: each scenario is checked once, the FIFO is skipped with a message, nothing hangs.
/// A device given by name (`/dev/zero`) is refused before it is read.
#[cfg(unix)]
#[test]
fn folders_with_loops_links_and_fifos_are_walked_once() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-loops");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).expect("dir");
    std::fs::copy("scenarios/datc/6.A.1.ron", dir.join("a/6.A.1.ron")).expect("copy");
    std::os::unix::fs::symlink("..", dir.join("a/up")).expect("link");
    std::os::unix::fs::symlink("6.A.1.ron", dir.join("a/again.ron")).expect("link");
    let fifo = dir.join("a/pipe.ron");
    let fifo_made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let (code, out, err) = dipsandbox(&["check", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
    if fifo_made {
        assert!(
            err.contains("pipe.ron: skipped: not a regular file"),
            "{err}"
        );
    }
    let (code, _, err) = dipsandbox(&["show", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("/dev/zero: cannot read: it is a FIFO, socket or device"),
        "{err}"
    );
}

/// A file that is not UTF-8 is located at its first bad byte; a megabyte-long word in an order
/// is reported once, cut short, and at once.
#[test]
fn bad_bytes_are_located_and_long_words_are_not_echoed() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-bytes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("latin1.ron");
    std::fs::write(&bad, b"Scenario(\n    title: \"Caf\xe9\",\n)").expect("write");
    let (code, out, _) = dipsandbox(&["check", bad.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(
        out.contains("latin1.ron:2:16: not UTF-8 text: byte 0xe9"),
        "{out}"
    );
    let long = dir.join("long.ron");
    let word = format!("A{}", "x".repeat(1_000_000));
    std::fs::write(
        &long,
        format!(
            "Scenario(title: \"t\", map: \"standard\", phase: \"Spring 1901 Movement\", \
             units: {{\"England\": [\"F London\"]}}, orders: {{\"England\": [\"F London - {word}\"]}})"
        ),
    )
    .expect("write");
    let (code, out, _) = dipsandbox(&["check", long.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(out.len() < 1000, "{} bytes of output", out.len());
    assert!(out.contains("(1000001 characters)"), "{out}");
}

/// What a newcomer runs into: the header names the rules in use; `rules` shows what each preset
/// sets; a word that is no file and no command lists the commands; single quotes get a hint;
/// `check` says in its last line why its status is 2; `-` reads standard input.
#[test]
fn newcomer_papercuts() {
    let (_, out, _) = dipsandbox(&["explain", "scenarios/datc/6.F.16.ron", "--rules", "1982"]);
    assert!(
        out.contains(
            "rules: the 1982 preset (from --rules; the scenario's own: DATC v3.0 preferences)"
        ),
        "{out}"
    );
    let (_, out, _) = dipsandbox(&["rules"]);
    assert!(
        out.contains("sets paradox=Rule1982, civil_disorder=Older"),
        "{out}"
    );
    let (code, _, err) = dipsandbox(&["chek"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("chek: no such file, and not a command (did you mean `dipsandbox check`?)"),
        "{err}"
    );
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-papercuts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let sq = dir.join("quotes.ron");
    std::fs::write(&sq, "Scenario(\n    title: 'Pandin',\n)").expect("write");
    let (code, _, err) = dipsandbox(&["show", sq.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("quotes.ron:2:11: expected a string in double quotes, found `'`; strings take double quotes"),
        "{err}"
    );
    let (code, out, _) = dipsandbox(&["check", "scenarios/datc/6.A.1.ron", "nope"]);
    assert_eq!(code, 2);
    assert!(
        out.ends_with(
            "1 passed, 0 failed; 1 path could not be read: nope (no such file or folder)\n"
        ),
        "{out}"
    );
    // A file that is read but does not load is named in the last line too.
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scenario(\n    title: \"x\",\n    units: [],\n)").expect("write");
    let bad = bad.to_str().expect("utf-8");
    let (code, out, _) = dipsandbox(&["check", "scenarios/datc/6.A.1.ron", bad]);
    assert_eq!(code, 2);
    assert!(
        out.ends_with(&format!(
            "1 passed, 1 failed; 1 file could not be loaded (see ERROR above): {bad}\n"
        )),
        "{out}"
    );
    let text = std::fs::read("scenarios/datc/6.F.14.ron").expect("read");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(["solve", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), &text).expect("write");
    let out = child.wait_with_output().expect("ends");
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("2 solutions:"), "{out}");
    // Shell completion scripts know the commands.
    let (code, out, _) = dipsandbox(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("_dipsandbox") && out.contains("minimize"),
        "{out}"
    );
}

/// A write killed half-way (SIGKILL, no chance to clean up) leaves the target as it was —
/// never a partial file — and the next write of the same file removes the killed writer's
/// temporary file. (`DIPSANDBOX_WRITE_PAUSE_MS`, a hook of the core's `test-hooks` feature, which
/// `cargo test` builds the program with, holds the writer half-way so the kill lands there.)
#[cfg(unix)]
#[test]
fn a_write_killed_midway_leaves_the_old_file_and_nothing_else() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-killed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let out = dir.join("next.ron");
    std::fs::write(&out, b"the old file").expect("write");
    let args = [
        "advance",
        "scenarios/datc/6.A.11.ron",
        "-o",
        out.to_str().expect("utf-8"),
        "--force",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(args)
        .env(
            dipsandbox_core::base::output::hooks::WRITE_PAUSE_VAR,
            "20000",
        )
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    // Wait until the temporary file has its first half, then kill.
    let started = std::time::Instant::now();
    let temp = loop {
        let t = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                p.to_string_lossy().contains(".tmp")
                    && std::fs::metadata(p).is_ok_and(|m| m.len() > 0)
            });
        if let Some(t) = t {
            break t;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "no temporary file appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    child.kill().expect("kill");
    let _ = child.wait();
    assert_eq!(std::fs::read(&out).expect("read"), b"the old file");
    assert!(
        temp.exists(),
        "the killed writer's temporary file is still there"
    );
    // The next write of the same file completes and removes it.
    let (code, _, err) = dipsandbox(&args);
    assert_eq!(code, 0, "{err}");
    assert!(!temp.exists(), "{} was left behind", temp.display());
    let written =
        dipsandbox_core::model::scenario::Scenario::load(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written.phase.to_string(), "Fall 1901 Movement");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dipsandbox --help` lists each command on one line a terminal holds: the details are in the
/// command's own `--help`.
#[test]
fn the_command_list_is_one_short_line_each() {
    for args in [&["--help"][..], &["map", "--help"], &["versus", "--help"]] {
        let (code, out, err) = dipsandbox(args);
        assert_eq!(code, 0, "{err}");
        let list: Vec<&str> = out
            .lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(list.len() >= 2, "{args:?}: {out}");
        for line in list {
            assert!(line.chars().count() <= 100, "{args:?}: {line}");
        }
    }
}
