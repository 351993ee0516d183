//! Random command lines: the headless commands (`--print`, `show`, `check`, `explain`,
//! `advance`, `solve`, `diff`, `export`, `import`, `minimize`, `map opening`, `map art`) with
//! their flags, on scenario files of every phase and map, on malformed files from
//! `tests/invalid`, on a missing file, a folder, an empty file and `/dev/null`, with valid and
//! invalid rules and engines. Whatever the line, the program ends with a documented status (0
//! done, 1 failures or differences reported, 2 an error, 3 a time limit), never with a panic;
//! an error says what it is (on stderr, or in `check`'s report); and nothing is written in the
//! current folder or next to the inputs (outputs go where `-o` / `--to` say).

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use crate::common;

/// Scenario files that load, of every phase and on several maps.
const GOOD: [&str; 8] = [
    "scenarios/datc/6.F.16.ron",
    "scenarios/datc/6.A.1.ron",
    "scenarios/datc/6.H.3.ron",
    "scenarios/year-1901/4-winter-1901-adjustment.ron",
    "scenarios/variants/world-opening.ron",
    "scenarios/variants/chaos-first-builds-two-coasts.ron",
    "scenarios/variants/garrisons-neutral-dislodged-disbanded.ron",
    "scenarios/examples/math-figure-5.ron",
];

/// Inputs that are not scenarios, or not files.
const ODD: [&str; 4] = [
    "no-such-file.ron",
    "scenarios",
    "/dev/null",
    "tests/invalid/jdip",
];

/// A file argument: a good scenario, a malformed one (by index into `tests/invalid/scenarios`),
/// something odd, or an empty file.
#[derive(Clone, Debug)]
enum FileArg {
    Good(usize),
    Invalid(prop::sample::Index),
    Odd(usize),
    Empty,
}

/// One command line, before its paths are made.
#[derive(Clone, Debug)]
struct Line {
    command: usize,
    file: FileArg,
    rules: Option<&'static str>,
    engine: Option<&'static str>,
    json: bool,
    extra: bool,
}

const COMMANDS: usize = 13;

fn line() -> impl Strategy<Value = Line> {
    let file = prop_oneof![
        4 => (0..GOOD.len()).prop_map(FileArg::Good),
        2 => any::<prop::sample::Index>().prop_map(FileArg::Invalid),
        1 => (0..ODD.len()).prop_map(FileArg::Odd),
        1 => Just(FileArg::Empty),
    ];
    let rules = prop::option::weighted(
        0.3,
        prop::sample::select(vec![
            "datc",
            "1971",
            "dptg",
            "paradox=Rule1982",
            "datc,convoy_path=Legacy",
            "bogus",
            "paradox=",
            "",
        ]),
    );
    let engine = prop::option::weighted(
        0.3,
        prop::sample::select(vec!["decisions", "dpjudge", "guess", "nope", "cmd:"]),
    );
    (
        0..COMMANDS,
        file,
        rules,
        engine,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(command, file, rules, engine, json, extra)| Line {
            command,
            file,
            rules,
            engine,
            json,
            extra,
        })
}

/// The malformed scenario files, sorted.
fn invalid_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo("tests/invalid/scenarios"))
        .expect("tests/invalid/scenarios")
        .map(|e| e.expect("entry").path())
        .collect();
    v.sort();
    v
}

/// A path of the repository, absolute (the commands run in a folder of their own).
fn repo(path: &str) -> String {
    if path.starts_with('/') {
        return path.to_string();
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// The arguments of a line, writing into `out`.
fn args(l: &Line, invalid: &[PathBuf], out: &Path) -> Vec<String> {
    let file = match &l.file {
        FileArg::Good(i) => repo(GOOD[*i]),
        FileArg::Invalid(i) => invalid[i.index(invalid.len())].display().to_string(),
        FileArg::Odd(i) => repo(ODD[*i]),
        FileArg::Empty => {
            let p = out.join("empty.ron");
            std::fs::write(&p, "").expect("an empty file");
            p.display().to_string()
        }
    };
    let o = |name: &str| out.join(name).display().to_string();
    let mut a: Vec<String> = match l.command {
        0 => vec!["--print".into(), file],
        1 => vec!["show".into(), file],
        2 => vec!["check".into(), file],
        3 => {
            let mut v = vec!["explain".into(), file];
            if l.extra {
                v.extend([
                    "--trace".into(),
                    "--dot".into(),
                    o("graph.dot"),
                    "--svg".into(),
                    o("graph.svg"),
                ]);
            }
            v
        }
        4 => vec!["advance".into(), file, "-o".into(), o("next.ron")],
        5 => vec!["solve".into(), file],
        6 => {
            let mut v = vec!["diff".into(), file];
            v.push(
                if l.extra {
                    "--all-presets"
                } else {
                    "--engines"
                }
                .into(),
            );
            v
        }
        7 => vec!["export".into(), file, "-o".into(), o("cases.txt")],
        8 => vec!["import".into(), file, "--to".into(), o("imported")],
        9 => {
            let keep = if l.extra { "backup" } else { "mismatch" };
            vec![
                "minimize".into(),
                file,
                "--keep".into(),
                keep.into(),
                "--max-time".into(),
                "0.5".into(),
                "-o".into(),
                o("small.ron"),
            ]
        }
        10 => vec![
            "map".into(),
            "opening".into(),
            if l.extra { "world" } else { "wrold" }.into(),
            "-o".into(),
            o("opening.ron"),
        ],
        11 => vec!["map".into(), "art".into(), file],
        _ => vec![file],
    };
    if let Some(r) = l.rules {
        a.extend(["--rules".into(), r.into()]);
    }
    if let Some(e) = l.engine {
        a.extend(["--engine".into(), e.into()]);
    }
    if l.json {
        a.push("--json".into());
    }
    a
}

/// The entries of the folders that hold the inputs (a command may not write next to them).
fn entries() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in [
        "scenarios",
        "scenarios/datc",
        "scenarios/year-1901",
        "scenarios/variants",
        "scenarios/examples",
        "tests/invalid/scenarios",
    ] {
        v.extend(
            std::fs::read_dir(repo(dir))
                .expect("a folder of the repository")
                .map(|e| e.expect("entry").path()),
        );
    }
    v.sort();
    v
}

/// Runs a command line in the output folder `name`, and checks how it ended.
fn run_line(l: &Line, name: &str) -> Result<(), TestCaseError> {
    {
        let out = common::temp_dir(name);
        let invalid = invalid_files();
        let a = args(l, &invalid, &out);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        // The command runs in an empty folder of its own, which it must leave empty.
        let cwd = common::temp_dir(&format!("{name}-cwd"));
        let before = entries();
        let (code, stdout, stderr) = common::dipsandbox_in(&cwd, &a);
        prop_assert!(
            [0, 1, 2, 3].contains(&code),
            "{a:?}: exit {code}\nstdout: {stdout}\nstderr: {stderr}"
        );
        prop_assert!(
            !stderr.contains("panicked") && !stdout.contains("panicked"),
            "{a:?}: {stderr}"
        );
        if code == 2 {
            // Most errors go to stderr; `check` lists an unreadable file in its report (its
            // JSON as an `error` field).
            prop_assert!(
                !stderr.trim().is_empty()
                    || stdout.contains("ERROR")
                    || stdout.contains("\"error\""),
                "{a:?}: an error without a word\nstdout: {stdout}"
            );
        }
        // What was written went where the line said: nothing in the current folder, nothing
        // next to the inputs.
        let left: Vec<PathBuf> = std::fs::read_dir(&cwd)
            .expect("the command's folder")
            .map(|e| e.expect("entry").path())
            .collect();
        prop_assert!(
            left.is_empty(),
            "{:?} wrote {:?} in the current folder",
            a,
            left
        );
        prop_assert_eq!(entries(), before, "{:?} wrote next to its input", a);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    /// 16 random command lines.
    #[test]
    fn random_command_lines_end_with_a_documented_status_and_no_panic(l in line()) {
        run_line(&l, "cli-random")?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 250, failure_persistence: None, ..ProptestConfig::default() })]

    /// 250 random command lines.
    #[test]
    #[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
    fn many_random_command_lines_end_with_a_documented_status_and_no_panic(l in line()) {
        run_line(&l, "cli-random-many")?;
    }
}
