//! The third hostile review: outside engines, `versus`, `versus merge`, `replay` and
//! `map import` under hostile input. Each test is one of the review's failed checks, tried the
//! way the review tried it, and asserts what a user would check: no file read or written outside
//! what the user named, nothing unbounded, nothing lost, nothing forged on the screen.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use dipsandbox_core::base::output::FolderLock;
use dipsandbox_core::engine::outside::{Mode, OutsideEngine, Program};
use dipsandbox_core::engine::{Engine, PhaseInput};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::versus::{
    ClassRow, Summary, check_summary, load_summary, merge, merge_summaries, save_summary,
};

use crate::common::{dipsandbox, dipsandbox_in, temp_dir};
use crate::outside::example;

/// The broken adapter in `mode`, as `--engine` takes it.
fn broken(mode: &str) -> String {
    format!("cmd:{} {mode}", example("broken_adapter").display())
}

/// The broken adapter in `mode` as an engine, with a short timeout.
fn broken_engine(mode: &str, timeout_ms: u64) -> OutsideEngine {
    OutsideEngine::new(
        mode,
        Program {
            program: example("broken_adapter").display().to_string(),
            args: vec![mode.into()],
            mode: Mode::Lines,
            timeout: Duration::from_millis(timeout_ms),
        },
    )
}

fn case(path: &str) -> Scenario {
    Scenario::load(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Whether process `pid` is running (a zombie is not: it has ended, only its status is left).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            // pid (comm) STATE …: the state follows the last parenthesis.
            let state = stat.rsplit_once(')').map(|(_, r)| r.trim_start());
            !state.is_some_and(|s| s.starts_with('Z') || s.starts_with('X'))
        }
    }
}

/// Waits until `pid` has ended (at most `limit`); whether it did.
fn ends_within(pid: u32, limit: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < limit {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    !alive(pid)
}

/// The two process ids the `child` adapter writes (itself, its child), once it has.
fn pids_in(file: &Path, limit: Duration) -> (u32, u32) {
    let t = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Some((a, b)) = text.trim().split_once(' ')
            && let (Ok(a), Ok(b)) = (a.parse(), b.parse())
        {
            return (a, b);
        }
        assert!(
            t.elapsed() < limit,
            "the adapter wrote no process ids in {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The binary started in `dir` with `args` and the `child` adapter's pid file set.
fn spawn(dir: &Path, args: &[&str], pids: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .env("BROKEN_ADAPTER_PIDS", pids)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts")
}

fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(ok.success());
}

/// Waits for the child to end within `limit`: its status and output.
fn finish(mut c: Child, limit: Duration) -> (Option<i32>, String, String) {
    let t = Instant::now();
    loop {
        if let Ok(Some(_)) = c.try_wait() {
            break;
        }
        if t.elapsed() > limit {
            let _ = c.kill();
            let out = c.wait_with_output().expect("output");
            panic!(
                "still running after {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = c.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// ---- 1–3: reads and writes outside what the user named ----

/// A summary of one shard of a run of 100 positions, with one class whose file is `file`.
fn summary_with_class(file: &str, shard: &str) -> Summary {
    Summary {
        a: "decisions".into(),
        b: "dpjudge".into(),
        seed: 0,
        mix: "all".into(),
        map: "standard".into(),
        rules: "datc".into(),
        count: 100,
        shards: vec![shard.into()],
        positions: 50,
        disagreements: 1,
        errors: 0,
        first_error: None,
        interrupted: false,
        classes: vec![ClassRow {
            file: file.into(),
            shape: "move".into(),
            b_as_a: Vec::new(),
            a_as_b: Vec::new(),
            way: "w".into(),
            count: 1,
            explained: 0,
            first: 3,
            datc: Vec::new(),
            known: Vec::new(),
        }],
        wording_positions: 0,
        wording: Vec::new(),
    }
}

/// Item 1: `versus merge` reads a class file only inside its shard's folder: `../X`, an absolute
/// path and a link out are refused, and nothing is copied to the output.
#[test]
fn merge_reads_class_files_only_inside_the_shard() {
    let base = temp_dir("hostile-merge-paths");
    std::fs::write(base.join("secret.ron"), "hunter2_SECRET\n").expect("write");
    let shard = base.join("shard");
    std::fs::create_dir_all(&shard).expect("dir");
    std::os::unix::fs::symlink(base.join("secret.ron"), shard.join("link.ron")).expect("link");
    for file in [
        "../secret.ron",
        "/etc/passwd.ron",
        "link.ron",
        "sub/../x.ron",
    ] {
        save_summary(&shard, &summary_with_class(file, "0/2")).expect("saved");
        let out = base.join("out");
        let _ = std::fs::remove_dir_all(&out);
        let e = merge(std::slice::from_ref(&shard), &out, false)
            .expect_err(file)
            .to_string();
        assert!(!e.contains("hunter2"), "{file}: {e}");
        assert!(
            e.contains("class file") || e.contains("symbolic link"),
            "{file}: {e}"
        );
        let copied: Vec<_> = std::fs::read_dir(&out)
            .map(|d| d.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert!(
            copied.iter().all(|n| n != "secret.ron"),
            "{file}: {copied:?}"
        );
    }
}

/// Found by the `versus_summary` fuzz target (bug 7 of docs/fuzzing.md): a summary listing one
/// class file in two rows, each count within its disagreements, merged into one class counting
/// more positions than there are disagreements. A file named by two rows (two classes, or a
/// class and a wording row) is refused by the check and so by the merge.
#[test]
fn a_summary_naming_one_file_in_two_rows_is_refused() {
    let mut s = summary_with_class("move_x_00000001.ron", "0/2");
    s.disagreements = 8;
    s.classes[0].count = 8;
    assert!(check_summary(&s).is_ok(), "one row is possible");
    let mut twice = s.clone();
    twice.classes.push(s.classes[0].clone());
    let e = check_summary(&twice).expect_err("two rows, one file");
    assert!(
        e.contains("move_x_00000001.ron") && e.contains("two rows"),
        "{e}"
    );
    let (part, e) = merge_summaries(&[twice]).expect_err("the merge checks each part");
    assert_eq!(part, 0);
    assert!(e.contains("two rows"), "{e}");
    // A class and a wording row sharing one file are refused the same way.
    let mut shared = s.clone();
    shared.wording_positions = 1;
    shared.positions = 50;
    shared
        .wording
        .push(dipsandbox_core::tools::versus::WordingRow {
            file: "move_x_00000001.ron".into(),
            words: "w".into(),
            count: 1,
            first: 4,
            b_as_a: Vec::new(),
            b_as_a_held: Vec::new(),
            a_as_b: Vec::new(),
            a_as_b_held: Vec::new(),
            known: Vec::new(),
        });
    let e = check_summary(&shared).expect_err("a class and a wording row, one file");
    assert!(e.contains("two rows"), "{e}");
    // The same file in two shards' summaries is one class, summed (the merge's purpose).
    let other = summary_with_class("move_x_00000001.ron", "1/2");
    let (t, _) = merge_summaries(&[s, other]).expect("two shards merge");
    assert_eq!(t.classes.len(), 1);
    assert_eq!(t.classes[0].count, 9);
}

/// Item 2: the map a recorded game names is a built-in map's name or refused; a file of that
/// name is never opened (its first token was quoted back in the error).
#[test]
fn a_games_map_is_a_built_in_name_or_refused() {
    let dir = temp_dir("hostile-replay-map");
    let secret = dir.join("secret");
    std::fs::write(&secret, "hunter2_SECRET and more\n").expect("write");
    let game = std::fs::read_to_string("tests/data/games/python/game-1.json").expect("game");
    for map in [
        secret.display().to_string(),
        "secret".into(),
        "/proc/self/environ".into(),
    ] {
        let f = dir.join("g.json");
        let text = game.replacen(
            "\"map\": \"standard\"",
            &format!("\"map\": {}", serde_json::to_string(&map).expect("json")),
            1,
        );
        assert_ne!(text, game);
        std::fs::write(&f, text).expect("write");
        let (code, stdout, stderr) = dipsandbox_in(&dir, &["replay", "g.json"]);
        assert_eq!(code, 2, "{stdout}{stderr}");
        assert!(
            !stdout.contains("hunter2") && !stderr.contains("hunter2"),
            "{stdout}"
        );
        assert!(stdout.contains("not a built-in map"), "{map}: {stdout}");
    }
    // A godip game in variants/NAME/games/ takes NAME as a built-in map's name only.
    let games = dir.join("variants/secret/games");
    std::fs::create_dir_all(&games).expect("dir");
    std::fs::copy("tests/data/games/godip/game-1.txt", games.join("g.txt")).expect("copy");
    let (code, stdout, _) = dipsandbox_in(&dir, &["replay", "variants/secret/games/g.txt"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(!stdout.contains("hunter2"), "{stdout}");
    assert!(stdout.contains("not a built-in map"), "{stdout}");
    // The user may still name a map file with --map.
    let (code, stdout, _) = dipsandbox_in(
        &dir,
        &[
            "replay",
            "variants/secret/games/g.txt",
            "--map",
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("maps/standard.ron")
                .display()
                .to_string(),
        ],
    );
    assert_eq!(code, 0, "{stdout}");
}

/// A jDip variant (`variants.xml`) whose `<MAP>` names `uri` as its adjacency file.
fn jdip_variant(uri: &str) -> String {
    format!(
        "<VARIANTS>\n<VARIANT name=\"V\" version=\"1\">\n<POWER name=\"North\" adjective=\"Northern\" />\n<STARTINGTIME turn=\"Spring, 1901, Movement\" />\n<MAP adjacencyURI=\"{uri}\" />\n<SUPPLYCENTER province=\"aaa\" homepower=\"north\" owner=\"north\"/>\n</VARIANT>\n</VARIANTS>\n"
    )
}

const JDIP_ADJ: &str = r#"<PROVINCES>
  <PROVINCE shortname="aaa" fullname="Aland"><ADJACENCY type="mv" refs="bbb" /></PROVINCE>
  <PROVINCE shortname="bbb" fullname="Bland"><ADJACENCY type="mv" refs="aaa" /></PROVINCE>
</PROVINCES>"#;

/// Item 3: `map import` reads a jDip adjacency file and a DPjudge `USE` only inside the named
/// file's folder: `..`, an absolute path and a link out are refused, located, and the file
/// outside is never quoted.
#[test]
fn map_import_reads_only_inside_the_named_files_folder() {
    let base = temp_dir("hostile-map-import");
    let dir = base.join("variant");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(base.join("secret.xml"), "root:x:0:0:hunter2\n").expect("write");
    std::fs::write(base.join("secret.map"), "root:x:0:0:hunter2\n").expect("write");
    std::os::unix::fs::symlink(base.join("secret.xml"), dir.join("link.xml")).expect("link");
    std::os::unix::fs::symlink(base.join("secret.map"), dir.join("link.map")).expect("link");
    let out = base.join("out.ron");
    let o = out.to_str().expect("utf-8");
    let abs = base.join("secret.xml").display().to_string();
    for uri in ["../secret.xml", abs.as_str(), "link.xml"] {
        let v = dir.join("variants.xml");
        std::fs::write(&v, jdip_variant(uri)).expect("write");
        let (code, stdout, stderr) =
            dipsandbox(&["map", "import", v.to_str().expect("utf-8"), "-o", o]);
        assert_eq!(code, 2, "{uri}: {stdout}{stderr}");
        assert!(
            !stderr.contains("hunter2") && !stdout.contains("hunter2"),
            "{stderr}"
        );
        assert!(stderr.contains("variants.xml:5:"), "{uri}: {stderr}");
        assert!(stderr.contains("adjacencyURI"), "{uri}: {stderr}");
        assert!(!out.exists());
    }
    // The adjacency file beside it is read.
    std::fs::write(dir.join("adj.xml"), JDIP_ADJ).expect("write");
    let v = dir.join("variants.xml");
    std::fs::write(&v, jdip_variant("adj.xml")).expect("write");
    let (code, _, stderr) = dipsandbox(&["map", "import", v.to_str().expect("utf-8"), "-o", o]);
    assert_eq!(code, 0, "{stderr}");
    // DPjudge: USE of a file outside, by `..`, by an absolute path, through a link.
    let abs_map = base.join("secret").display().to_string();
    for used in ["../secret", abs_map.as_str(), "link"] {
        let m = dir.join("evil.map");
        std::fs::write(&m, format!("# a map\nUSE {used}\n")).expect("write");
        let (code, stdout, stderr) = dipsandbox(&[
            "map",
            "import",
            m.to_str().expect("utf-8"),
            "-o",
            o,
            "--force",
        ]);
        assert_eq!(code, 2, "{used}: {stdout}{stderr}");
        assert!(
            !stderr.contains("hunter2") && !stdout.contains("hunter2"),
            "{stderr}"
        );
        assert!(stderr.contains("evil.map:2:5: USE"), "{used}: {stderr}");
    }
}

// ---- 4, 5, 14, 15, 20: outside engines ----

/// Item 4: an adapter that answers with endless blank lines gets a named error within its
/// timeout (blank lines count), and its memory is bounded (the reader waits on the pipe).
#[test]
fn endless_blank_lines_end_in_an_error_within_the_timeout() {
    let s = case("scenarios/datc/6.A.1.ron");
    let rules = s.rules;
    let e = broken_engine("blank-flood", 2000);
    let t = Instant::now();
    let err = e
        .adjudicate(&PhaseInput::of(&s, &rules), false)
        .expect_err("no answer")
        .to_string();
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    assert!(
        err.contains("blank lines without an answer") || err.contains("no answer within 2 s"),
        "{err}"
    );
}

/// Item 14: an adapter that answers one phase and exits is started again for the next, as the
/// documentation says: every phase answered, one process each.
#[test]
fn an_adapter_that_exits_after_answering_is_started_again() {
    let s = case("scenarios/datc/6.A.1.ron");
    let rules = s.rules;
    let e = broken_engine("answer-exit", 5000);
    for k in 1..=6 {
        let r = e.adjudicate(&PhaseInput::of(&s, &rules), false);
        assert!(r.is_ok(), "phase {k}: {r:?}");
    }
    assert!(e.processes_started() >= 6, "{}", e.processes_started());
    let (code, stdout, stderr) = dipsandbox(&[
        "engine-check",
        &broken("answer-exit"),
        "scenarios/datc/6.A.1.ron",
        "scenarios/datc/6.A.2.ron",
        "scenarios/datc/6.A.3.ron",
        "scenarios/datc/6.C.1.ron",
        "scenarios/datc/6.D.1.ron",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("5 answered validly"), "{stdout}");
}

/// Item 15: the timeout ends the adapter's whole process group: the child it started goes too.
#[test]
fn a_timeout_ends_the_adapters_children() {
    let dir = temp_dir("hostile-children");
    let pids = dir.join("pids");
    let s = case("scenarios/datc/6.A.1.ron");
    let rules = s.rules;
    let e = OutsideEngine::new(
        "child",
        Program {
            program: "sh".into(),
            args: vec![
                "-c".into(),
                format!(
                    "BROKEN_ADAPTER_PIDS='{}' exec '{}' child",
                    pids.display(),
                    example("broken_adapter").display()
                ),
            ],
            mode: Mode::Lines,
            timeout: Duration::from_millis(1500),
        },
    );
    let err = e
        .adjudicate(&PhaseInput::of(&s, &rules), false)
        .expect_err("hangs")
        .to_string();
    assert!(err.contains("no answer within 1.5 s"), "{err}");
    let (adapter, child) = pids_in(&pids, Duration::from_secs(5));
    assert!(
        ends_within(adapter, Duration::from_secs(2)),
        "adapter {adapter}"
    );
    assert!(
        ends_within(child, Duration::from_secs(2)),
        "its child {child}"
    );
}

/// Items 5, 11 and 15: ctrl-c and SIGTERM end `versus` within a second while an adapter hangs,
/// with the adapter and its child; the folder then holds a summary that says the run was
/// interrupted, which `versus merge` reads and a rerun replaces only with `--force`.
#[test]
fn a_signal_ends_versus_and_its_adapter_at_once() {
    for sig in ["-INT", "-TERM"] {
        let dir = temp_dir(&format!("hostile-versus-signal{sig}"));
        let pids = dir.join("pids");
        let adapter = broken("child");
        let c = spawn(
            &dir,
            &[
                "versus",
                "decisions",
                &adapter,
                "--count",
                "40",
                "-o",
                "out",
            ],
            &pids,
        );
        let (adapter_pid, child_pid) = pids_in(&pids, Duration::from_secs(20));
        let t = Instant::now();
        signal(c.id(), sig);
        let (code, stdout, stderr) = finish(c, Duration::from_secs(5));
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{sig}: {:?}",
            t.elapsed()
        );
        assert_eq!(code, Some(3), "{sig}: {stdout}{stderr}");
        assert!(stderr.contains("interrupted after 0 positions"), "{stderr}");
        assert!(
            ends_within(adapter_pid, Duration::from_secs(2)),
            "{sig}: adapter"
        );
        assert!(
            ends_within(child_pid, Duration::from_secs(2)),
            "{sig}: child"
        );
        let s = load_summary(&dir.join("out")).expect("a summary");
        assert!(s.interrupted && s.positions == 0, "{s:?}");
        assert!(!dir.join("out/.dipsandbox.lock").exists());
        // merge reads it; a rerun needs --force, then replaces it.
        let (code, stdout, stderr) = dipsandbox_in(&dir, &["versus", "merge", "out", "-o", "m"]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("interrupted"), "{stdout}");
        let again = [
            "versus",
            "decisions",
            "dpjudge",
            "--count",
            "50",
            "-o",
            "out",
        ];
        let (code, _, stderr) = dipsandbox_in(&dir, &again);
        assert_eq!(code, 2);
        assert!(stderr.contains("holds a versus run already"), "{stderr}");
        let mut forced = again.to_vec();
        forced.push("--force");
        let (code, _, stderr) = dipsandbox_in(&dir, &forced);
        assert!(code == 0 || code == 1, "{stderr}");
        let s = load_summary(&dir.join("out")).expect("a summary");
        assert!(!s.interrupted && s.positions == 50, "{s:?}");
    }
}

/// Item 15: SIGTERM to a command that waits on an adapter (`explain`) ends the adapter and its
/// child with it.
#[test]
fn sigterm_ends_the_adapter_of_any_command() {
    let dir = temp_dir("hostile-explain-term");
    let pids = dir.join("pids");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/datc/6.A.1.ron");
    let c = spawn(
        &dir,
        &[
            "explain",
            case.to_str().expect("utf-8"),
            "--engine",
            &broken("child"),
        ],
        &pids,
    );
    let (adapter, child) = pids_in(&pids, Duration::from_secs(20));
    signal(c.id(), "-TERM");
    let (code, _, _) = finish(c, Duration::from_secs(5));
    assert_eq!(code, Some(143));
    assert!(ends_within(adapter, Duration::from_secs(2)), "adapter");
    assert!(ends_within(child, Duration::from_secs(2)), "child");
}

/// Item 20: an `engines.ron` that is a FIFO is an error that says so, not silently skipped.
#[test]
fn a_fifo_engines_file_is_an_error() {
    let dir = temp_dir("hostile-fifo-config");
    let fifo = dir.join("engines.ron");
    let ok = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(ok.success());
    let out = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(["explain", "scenarios/datc/6.A.1.ron", "--engine", "mine"])
        .env("DIPSANDBOX_CONFIG_DIR", &dir)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("engines.ron: cannot read: it is a FIFO"),
        "{stderr}"
    );
}

/// Item 20: a one-shot answer past the limit is said to be too long, not "it ended".
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn an_over_long_one_shot_answer_is_said_to_be_too_long() {
    let s = case("scenarios/datc/6.A.1.ron");
    let rules = s.rules;
    let e = OutsideEngine::new(
        "long",
        Program {
            program: example("broken_adapter").display().to_string(),
            args: vec!["long".into()],
            mode: Mode::Once,
            timeout: Duration::from_secs(60),
        },
    );
    let err = e
        .adjudicate(&PhaseInput::of(&s, &rules), false)
        .expect_err("too long")
        .to_string();
    assert!(err.contains("longer than 268435456 bytes"), "{err}");
}

// ---- 8, 9, 12, 13: versus and merge, the protocol's answers ----

/// Item 8: `-j` is capped, with a message.
#[test]
fn versus_jobs_are_capped() {
    let (code, _, stderr) = dipsandbox(&["versus", "decisions", "dpjudge", "-j", "100000"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("-j 100000: at most 256 worker threads"),
        "{stderr}"
    );
}

/// Item 9: a folder a run is writing is locked: a second run into it is refused and told which
/// process holds it; the lock goes with the run.
#[test]
fn a_second_run_into_a_held_folder_is_refused() {
    let dir = temp_dir("hostile-lock");
    let out = dir.join("out");
    let lock = FolderLock::take(&out, "the test's own run").expect("locks");
    let (code, _, stderr) = dipsandbox_in(
        &dir,
        &[
            "versus",
            "decisions",
            "dpjudge",
            "--count",
            "10",
            "-o",
            "out",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&format!(
            "another dipsandbox is writing this folder (process {}, the test's own run",
            std::process::id()
        )),
        "{stderr}"
    );
    assert!(FolderLock::take(&out, "again").is_err(), "held while held");
    drop(lock);
    assert!(!out.join(".dipsandbox.lock").exists());
    let (code, _, stderr) = dipsandbox_in(
        &dir,
        &[
            "versus",
            "decisions",
            "dpjudge",
            "--count",
            "10",
            "-o",
            "out",
        ],
    );
    assert!(code == 0 || code == 1, "{stderr}");
}

/// Item 12: `versus merge` takes the shards of one run, each once: the same folder twice, a
/// shard twice, another run's shard, a whole run with a shard, counts past 2^64 and a summary
/// whose counts cannot be (counts that would wrap past 2^64 among them) are refused; nothing is
/// written then.
#[test]
fn merge_takes_only_the_shards_of_one_run_each_once() {
    let base = temp_dir("hostile-merge-runs");
    let shard = |name: &str, s: &Summary| {
        let d = base.join(name);
        std::fs::create_dir_all(&d).expect("dir");
        for c in &s.classes {
            std::fs::write(d.join(&c.file), "// dipsandbox versus decisions dpjudge\n")
                .expect("write");
        }
        save_summary(&d, s).expect("saved");
        d
    };
    let zero = shard("zero", &summary_with_class("c.ron", "0/2"));
    let one = shard("one", &summary_with_class("c.ron", "1/2"));
    let mut other_seed = summary_with_class("c.ron", "1/2");
    other_seed.seed = 7;
    other_seed.b = "guess".into();
    let seven = shard("seven", &other_seed);
    let mut whole = summary_with_class("c.ron", "0/2");
    whole.shards.clear();
    let whole = shard("whole", &whole);
    let also_zero = shard("also-zero", &summary_with_class("c.ron", "0/2"));
    let mut big = summary_with_class("c.ron", "0/2");
    (big.count, big.positions, big.disagreements) = (u64::MAX, 1 << 63, 1);
    let big0 = shard("big0", &big);
    big.shards = vec!["1/2".into()];
    let big1 = shard("big1", &big);
    let mut impossible = summary_with_class("c.ron", "1/2");
    impossible.positions = 51;
    let impossible = shard("impossible", &impossible);
    let out = base.join("out");
    for (dirs, want) in [
        (vec![zero.clone(), zero.clone()], "given twice"),
        (vec![zero.clone(), base.join("zero/.")], "given twice"),
        (vec![zero.clone(), also_zero], "shard 0/2 is in"),
        (
            vec![zero.clone(), seven],
            "only the shards of one run merge",
        ),
        (vec![zero.clone(), whole], "a whole run"),
        // Two halves of 2^63 positions each would wrap: the second half of a run of 2^64 - 1
        // holds one position fewer, so its summary is refused before anything is added.
        (
            vec![big0, big1],
            "9223372036854775808 positions, but its 1 shard of a run of 18446744073709551615 hold 9223372036854775807",
        ),
        (
            vec![zero.clone(), impossible],
            "51 positions, but its 1 shard of a run of 100 hold 50",
        ),
        (vec![zero.clone(), out.clone()], "No such file"),
    ] {
        let e = merge(&dirs, &out, false).expect_err(want).to_string();
        assert!(e.contains(want), "{want}: {e}");
        assert!(!out.exists(), "{want}: written");
    }
    let m = merge(&[zero.clone(), one], &out, false).expect("merges");
    assert_eq!((m.positions, m.disagreements), (100, 2));
    assert_eq!(m.shards, ["0/2", "1/2"]);
    // The output cannot be one of the inputs.
    let e = merge(std::slice::from_ref(&out), &out, true)
        .expect_err("out is in")
        .to_string();
    assert!(e.contains("the output folder too"), "{e}");
}

/// Item 13: an engine's `units` answer is checked like a scenario: two units in a province and
/// a fleet inland are errors, and `advance` writes nothing.
#[test]
fn an_engines_units_are_checked_like_a_scenarios() {
    let dir = temp_dir("hostile-units");
    for (mode, case, want) in [
        (
            "two-units",
            "6.A.1",
            "two units in London: A Lon and F Lon; a province holds one unit",
        ),
        (
            "fleet-inland",
            "6.A.1",
            "a fleet cannot stand in Moscow, an inland province",
        ),
        // No units given: the board the verdicts make is checked too (the fuzzer's bug 6). In
        // 6.D.1 two armies move into Venice's neighbourhood: every order said to succeed puts
        // two units in one province.
        (
            "all-succeed",
            "6.D.1",
            "the answer's verdicts make a board that cannot be: two units in",
        ),
        (
            "dislodged-stays",
            "6.A.1",
            "both as dislodged and among the units after the phase",
        ),
    ] {
        let out = dir.join(format!("{mode}.ron"));
        let case = format!("scenarios/datc/{case}.ron");
        let (code, stdout, stderr) = dipsandbox(&[
            "advance",
            &case,
            "--engine",
            &broken(mode),
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 2, "{mode}: {stdout}{stderr}");
        assert!(stderr.contains(want), "{mode}: {stderr}");
        assert!(!out.exists(), "{mode}: written");
    }
}

// ---- 10, 16–19: replay's files and everything printed ----

/// Item 10: `replay` names its files so that none collides: two games of one name in two
/// folders, and a file already in the folder is replaced only with `--force` (none written
/// otherwise); a game that names a phase twice is refused.
#[test]
fn replay_files_never_collide_or_replace_without_force() {
    let dir = temp_dir("hostile-replay-names");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).expect("dir");
        std::fs::copy(
            "tests/data/games/python/game-2.json",
            dir.join(sub).join("game.json"),
        )
        .expect("copy");
    }
    let (code, stdout, _) =
        dipsandbox_in(&dir, &["replay", "a/game.json", "b/game.json", "-o", "out"]);
    assert_eq!(code, 1, "{stdout}");
    let mut files: Vec<String> = std::fs::read_dir(dir.join("out"))
        .expect("out")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(
        files[0].starts_with("a-game-") && files[1].starts_with("b-game-"),
        "{files:?}"
    );
    let before = std::fs::read_to_string(dir.join("out").join(&files[0])).expect("read");
    std::fs::write(dir.join("out").join(&files[0]), "mine\n").expect("write");
    let (code, stdout, stderr) =
        dipsandbox_in(&dir, &["replay", "a/game.json", "b/game.json", "-o", "out"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stderr.contains("exists; give --force"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out").join(&files[0])).expect("read"),
        "mine\n"
    );
    let (code, _, _) = dipsandbox_in(
        &dir,
        &[
            "replay",
            "a/game.json",
            "b/game.json",
            "-o",
            "out",
            "--force",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        std::fs::read_to_string(dir.join("out").join(&files[0])).expect("read"),
        before
    );
    // A phase named twice.
    let game = std::fs::read_to_string("tests/data/games/python/game-2.json").expect("game");
    let twice = game.replacen("\"name\": \"F1901M\"", "\"name\": \"S1901M\"", 1);
    assert_ne!(twice, game);
    std::fs::write(dir.join("twice.json"), twice).expect("write");
    let (code, stdout, _) = dipsandbox_in(&dir, &["replay", "twice.json", "-o", "out2"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stdout.contains("phase \"S1901M\" is phase 1 and phase 2 of the game"),
        "{stdout}"
    );
    assert!(!dir.join("out2").exists());
}

/// Items 16, 18, 19: a hostile phase name (line ends, ESC, a megabyte long) and a game file name
/// with ESC and BEL reach neither the terminal nor the files raw: escaped, and cut as
/// docs/limits.md says.
#[test]
fn replay_prints_and_writes_hostile_names_escaped_and_cut() {
    let dir = temp_dir("hostile-replay-text");
    let game = std::fs::read_to_string("tests/data/games/python/game-2.json").expect("game");
    let long = format!("S1901M\\r\\nFORGED LINE\\u001b[2J{}", "x".repeat(1 << 20));
    let evil = game.replacen("\"name\": \"S1901M\"", &format!("\"name\": \"{long}\""), 1);
    assert_ne!(evil, game);
    let name = "evil\u{1b}[2J\u{7}.json";
    std::fs::write(dir.join(name), evil).expect("write");
    let (code, stdout, stderr) = dipsandbox_in(&dir, &["replay", name, "-o", "out"]);
    assert!(code == 1 || code == 2, "{stdout}{stderr}");
    assert!(stdout.len() < 20_000, "{} bytes", stdout.len());
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{7}'),
        "{stdout}"
    );
    assert!(stdout.lines().all(|l| !l.starts_with("FORGED")), "{stdout}");
    assert!(
        stdout.contains("(1048603 characters)") || stdout.contains("characters)"),
        "{stdout}"
    );
    for f in std::fs::read_dir(dir.join("out")).expect("out").flatten() {
        let text = std::fs::read_to_string(f.path()).expect("read");
        let game_line = text
            .lines()
            .find(|l| l.starts_with("// game:"))
            .expect("header");
        assert!(
            game_line.contains("evil\\u{1b}[2J\\u{7}.json"),
            "{game_line}"
        );
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'));
        assert!(text.len() < 200_000, "{} bytes", text.len());
    }
}

/// Item 16: an engine's reasons are one line however it wrote them: no forged output line, no
/// escape sequence, no right-to-left override reaches the terminal raw.
#[test]
fn an_engines_reasons_cannot_forge_lines() {
    let (code, stdout, stderr) = dipsandbox(&[
        "explain",
        "scenarios/datc/6.A.1.ron",
        "--engine",
        &broken("newline-reason"),
    ]);
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
    assert!(stdout.lines().all(|l| !l.starts_with("FORGED")), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{202e}'),
        "{stdout}"
    );
    assert!(
        stdout.contains("bounced\\r\\nFORGED LINE \\u{1b}[2J\\u{202e}desrever"),
        "{stdout}"
    );
}

/// Item 17: a jDip map whose names hold a right-to-left override or a zero-width character is
/// refused at import (such a map made scenarios that did not load), and such characters in a
/// title print escaped.
#[test]
fn invisible_characters_in_map_names_are_refused() {
    let dir = temp_dir("hostile-bidi");
    for (bad, shown) in [
        ("Al\u{202e}and", "\\u{202e}"),
        ("Al\u{200b}and", "\\u{200b}"),
    ] {
        std::fs::write(dir.join("adj.xml"), JDIP_ADJ.replace("Aland", bad)).expect("write");
        let v = dir.join("variants.xml");
        std::fs::write(&v, jdip_variant("adj.xml")).expect("write");
        let out = dir.join("m.ron");
        let (code, _, stderr) = dipsandbox(&[
            "map",
            "import",
            v.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
            "--force",
        ]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "holds the invisible character {shown}; names are plain text"
            )),
            "{stderr}"
        );
        assert!(!stderr.contains('\u{202e}') && !stderr.contains('\u{200b}'));
    }
    let s = std::fs::read_to_string("scenarios/datc/6.A.1.ron")
        .expect("case")
        .replacen("title: \"", "title: \"\u{202e}", 1);
    let f = dir.join("t.ron");
    std::fs::write(&f, s).expect("write");
    let (code, stdout, _) = dipsandbox(&["show", f.to_str().expect("utf-8")]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("\\u{202e}") && !stdout.contains('\u{202e}'),
        "{stdout}"
    );
}

// ---- The fresh hostile pass after the fixes above (its findings, each as it was tried) ----

/// A jDip suite's side file `FILE.rules` that is a link out of the folder (to a credentials file)
/// is not read, and nothing of it is printed.
#[test]
fn a_side_file_that_links_out_is_not_read() {
    let dir = temp_dir("hostile2-side");
    let secret = dir.join("credentials");
    std::fs::write(&secret, "[default]\naws_secret = hunter2_SECRET\n").expect("write");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("dir");
    std::fs::copy("tests/data/jdip/datc-v2.4.txt", suite.join("datc.txt")).expect("copy");
    std::os::unix::fs::symlink(&secret, suite.join("datc.txt.rules")).expect("link");
    let (_, stdout, stderr) =
        dipsandbox(&["check", suite.join("datc.txt").to_str().expect("utf-8")]);
    assert!(
        !stdout.contains("hunter2") && !stderr.contains("hunter2"),
        "{stdout}{stderr}"
    );
    assert!(
        (stdout.clone() + &stderr).contains("a symbolic link leads out of the folder"),
        "{stdout}{stderr}"
    );
}

/// A scenario (a class file someone sent) whose `map:` names a file that is not a `.ron` map, by
/// an absolute path or through `..`, never has that file read or quoted.
#[test]
fn a_scenarios_map_is_a_ron_file_or_a_built_in_name() {
    let dir = temp_dir("hostile2-map");
    let token = dir.join("token");
    std::fs::write(&token, "ghp_hunter2SECRET\n").expect("write");
    let case = std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("case");
    for map in [
        token.display().to_string(),
        "../hostile2-map/token".into(),
        "/proc/self/environ".into(),
    ] {
        let text = if case.contains("map: \"standard\"") {
            case.replacen("map: \"standard\"", &format!("map: {map:?}"), 1)
        } else {
            case.replacen("Scenario(", &format!("Scenario(\n    map: {map:?},"), 1)
        };
        let f = dir.join("c.ron");
        std::fs::write(&f, text).expect("write");
        let (code, stdout, stderr) = dipsandbox(&["show", f.to_str().expect("utf-8")]);
        assert_eq!(code, 2, "{map}: {stdout}{stderr}");
        assert!(
            !stderr.contains("hunter2") && !stderr.contains("SHELL"),
            "{map}: {stderr}"
        );
        assert!(stderr.contains("no map named"), "{map}: {stderr}");
    }
}

/// `versus merge` reads a shard's `summary.versus` only in the shard's folder: a link to a
/// token file is refused and not quoted.
#[test]
fn a_summary_that_links_out_is_not_read() {
    let dir = temp_dir("hostile2-summary");
    let token = dir.join("token");
    std::fs::write(&token, "ghp_hunter2SECRET\n").expect("write");
    let shard = dir.join("sh");
    std::fs::create_dir_all(&shard).expect("dir");
    std::os::unix::fs::symlink(&token, shard.join("summary.versus")).expect("link");
    let e = merge(std::slice::from_ref(&shard), &dir.join("out"), false)
        .expect_err("a link out")
        .to_string();
    assert!(!e.contains("hunter2"), "{e}");
    assert!(e.contains("a symbolic link leads out of the folder"), "{e}");
}

/// The lock file of an output folder is never opened through a link (which would create or
/// read the file it leads to) nor when it is a FIFO.
#[test]
fn the_lock_file_is_never_a_link_or_a_fifo() {
    let dir = temp_dir("hostile2-lock");
    let out = dir.join("o");
    std::fs::create_dir_all(&out).expect("dir");
    let victim = dir.join("victim");
    std::os::unix::fs::symlink(&victim, out.join(".dipsandbox.lock")).expect("link");
    let e = FolderLock::take(&out, "test")
        .expect_err("a link")
        .to_string();
    assert!(e.contains("symbolic link"), "{e}");
    assert!(!victim.exists(), "the lock's link was followed");
    std::fs::remove_file(out.join(".dipsandbox.lock")).expect("rm");
    let ok = Command::new("mkfifo")
        .arg(out.join(".dipsandbox.lock"))
        .status()
        .expect("mkfifo");
    assert!(ok.success());
    let t = Instant::now();
    let e = FolderLock::take(&out, "test")
        .expect_err("a FIFO")
        .to_string();
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(e.contains("not a regular file"), "{e}");
}

/// `map import` never writes over a file it read — the map file, an included one, the SVG —
/// even with `--force`; and a FIFO named as the map is refused at once.
#[test]
fn map_import_never_writes_over_its_inputs() {
    let dir = temp_dir("hostile2-import");
    std::fs::write(dir.join("powers.map"), "# powers\n").expect("write");
    let top = dir.join("top.map");
    let pure = std::fs::read_to_string("tests/data/maps/pure.map").expect("pure");
    std::fs::write(&top, format!("USE powers\n{pure}")).expect("write");
    for target in [top.clone(), dir.join("powers.map")] {
        let before = std::fs::read_to_string(&target).expect("read");
        let (code, _, stderr) = dipsandbox(&[
            "map",
            "import",
            top.to_str().expect("utf-8"),
            "-o",
            target.to_str().expect("utf-8"),
            "--force",
        ]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("will not write over it"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), before);
    }
    let fifo = dir.join("top.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let t = Instant::now();
    let (code, _, stderr) = dipsandbox(&[
        "map",
        "import",
        fifo.to_str().expect("utf-8"),
        "-o",
        "x.ron",
    ]);
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(code, 2);
    assert!(stderr.contains("FIFO"), "{stderr}");
}

/// `replay --json` of a game whose file name holds a right-to-left override and a zero-width
/// character is JSON still; a replay header with such characters written raw by hand reads back
/// escaped.
#[test]
fn replay_json_and_headers_stay_plain() {
    let dir = temp_dir("hostile2-replay-json");
    let name = "evil\u{202e}txt\u{200b}.json";
    std::fs::copy("tests/data/games/python/game-2.json", dir.join(name)).expect("copy");
    let (_, stdout, _) = dipsandbox_in(&dir, &["replay", "--json", name, "-o", "out"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["games"][0]["file"], name);
    assert!(!stdout.contains('\u{202e}'));
    let h = dipsandbox_core::tools::replay::ReplayHeader::parse(
        "// dipsandbox replay\n// game: a\u{202e}b\u{1b}c\n// engine: decisions\n",
    )
    .expect("a header");
    assert_eq!(h.game, "a\\u{202e}b\\u{1b}c");
}

/// `export` writes no bidirectional or zero-width character into the jDip file: a title's and a
/// case name's become `-` or a space, as control characters do.
#[test]
fn export_writes_no_invisible_characters() {
    let dir = temp_dir("hostile2-export");
    let case = std::fs::read_to_string("scenarios/datc/6.A.1.ron")
        .expect("case")
        .replacen("title: \"", "title: \"T\u{202e}x\u{200b}", 1);
    let f = dir.join("ab\u{202e}cd.ron");
    std::fs::write(&f, case).expect("write");
    let out = dir.join("ex.txt");
    let (code, _, stderr) = dipsandbox(&[
        "export",
        f.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(
        !text.contains('\u{202e}') && !text.contains('\u{200b}'),
        "{text}"
    );
}

/// `check DIR` and `replay DIR` read no file a link in the folder leads to outside it.
#[test]
fn links_to_files_outside_a_folder_are_not_read() {
    let dir = temp_dir("hostile2-links");
    let secret = dir.join("secret.ron");
    std::fs::write(&secret, "hunter2_SECRET").expect("write");
    let folder = dir.join("cases");
    std::fs::create_dir_all(&folder).expect("dir");
    std::os::unix::fs::symlink(&secret, folder.join("a.ron")).expect("link");
    std::os::unix::fs::symlink("/proc/self/environ", folder.join("b.json")).expect("link");
    let (_, stdout, stderr) = dipsandbox(&["check", folder.to_str().expect("utf-8")]);
    assert!(
        !stdout.contains("hunter2") && !stderr.contains("hunter2"),
        "{stdout}{stderr}"
    );
    assert!(stderr.contains("a link to a file outside"), "{stderr}");
    let (_, stdout, stderr) = dipsandbox(&[
        "replay",
        folder.to_str().expect("utf-8"),
        "-o",
        dir.join("o").to_str().expect("utf-8"),
    ]);
    assert!(
        !stdout.contains("SHELL") && !stderr.contains("SHELL"),
        "{stdout}{stderr}"
    );
    assert!(stderr.contains("a link to a file outside"), "{stderr}");
}

/// The re-check's findings: an output never replaces a map file the command read (`check
/// --junit`, `import --map`, `replay --map`), even with `--force`; a hard-linked lock file is
/// refused (the holder's line went into the other file); a scenario's `.ron` map that is a link
/// to a file that is not one is not read.
#[test]
fn outputs_never_replace_a_map_read_and_a_hard_linked_lock_is_refused() {
    let dir = temp_dir("hostile3");
    let map = dir.join("tiny_map.ron");
    std::fs::copy("tests/data/tiny_map.ron", &map).expect("copy");
    let scen = dir.join("tiny_scenario.ron");
    std::fs::copy("tests/data/tiny_scenario.ron", &scen).expect("copy");
    let before = std::fs::read_to_string(&map).expect("read");
    let (code, _, stderr) = dipsandbox(&[
        "check",
        scen.to_str().expect("utf-8"),
        "--junit",
        map.to_str().expect("utf-8"),
        "--force",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("will not write over it"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&map).expect("read"), before);
    let (code, _, stderr) = dipsandbox(&[
        "replay",
        "tests/data/games/godip/game-1.txt",
        "--all",
        "--map",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("maps/standard.ron")
            .to_str()
            .expect("utf-8"),
        "-o",
        dir.join("r").to_str().expect("utf-8"),
    ]);
    assert!(code == 0 || code == 1, "{stderr}");
    // A hard-linked lock file.
    let out = dir.join("o");
    std::fs::create_dir_all(&out).expect("dir");
    let precious = dir.join("precious.txt");
    std::fs::write(&precious, "mine\n").expect("write");
    std::fs::hard_link(&precious, out.join(".dipsandbox.lock")).expect("link");
    let e = FolderLock::take(&out, "test")
        .expect_err("a hard link")
        .to_string();
    assert!(e.contains("hard link"), "{e}");
    assert_eq!(std::fs::read_to_string(&precious).expect("read"), "mine\n");
    // A `.ron` map that links to a token file.
    let m2 = dir.join("m2");
    std::fs::create_dir_all(&m2).expect("dir");
    std::fs::write(dir.join("secret.txt"), "ghp_hunter2SECRET\n").expect("write");
    std::os::unix::fs::symlink(dir.join("secret.txt"), m2.join("tok.ron")).expect("link");
    let case = std::fs::read_to_string("scenarios/datc/6.A.1.ron")
        .expect("case")
        .replacen("map: \"standard\"", "map: \"tok.ron\"", 1);
    assert!(case.contains("map: \"tok.ron\""));
    std::fs::write(m2.join("a.ron"), case).expect("write");
    let (code, _, stderr) = dipsandbox(&["show", m2.join("a.ron").to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
    assert!(stderr.contains("no map named \"tok.ron\""), "{stderr}");
}
