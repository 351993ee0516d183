//! The fuzz targets' bodies on the stable compiler, without libFuzzer: every committed corpus
//! input (`fuzz/corpus/TARGET/`) and every past crash (`fuzz/regressions/TARGET/`) goes through
//! the same function the target runs (`fuzz/src/lib.rs`, included here as a module), so a fixed
//! bug that comes back fails `cargo test` even on a machine where cargo-fuzz cannot run. A
//! failing check panics, as it crashes the fuzzer.

#[allow(dead_code, unreachable_pub)]
#[path = "../../fuzz/src/lib.rs"]
mod harness;

use std::path::{Path, PathBuf};

/// The files of one folder of `fuzz/`, sorted (none when the folder is absent).
fn inputs(folder: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(folder)
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs `body` on every input of `target` in the corpus and the regressions; returns how many.
/// A panic names the file.
fn replay(target: &str, body: fn(&[u8])) -> (usize, usize) {
    let mut counts = (0, 0);
    for (folder, count) in [("corpus", &mut counts.0), ("regressions", &mut counts.1)] {
        for file in inputs(folder, target) {
            let data = std::fs::read(&file).expect("a committed input reads");
            let run = std::panic::catch_unwind(|| body(&data));
            if let Err(e) = run {
                let message = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("{target} fails on {}: {message}", file.display());
            }
            *count += 1;
        }
    }
    counts
}

#[test]
fn order_parser_corpus_replays() {
    let (corpus, _) = replay("order_parser", harness::order_parser);
    assert!(
        corpus > 100,
        "the committed corpus is there ({corpus} inputs)"
    );
}

#[test]
fn scenario_loader_corpus_and_past_crashes_replay() {
    let (corpus, crashes) = replay("scenario_loader", harness::scenario_loader);
    assert!(corpus > 10, "{corpus} corpus inputs");
    assert!(
        crashes >= 3,
        "bugs 3, 4 and 5 of docs/fuzzing.md ({crashes})"
    );
}

#[test]
fn map_loader_corpus_replays() {
    let (corpus, _) = replay("map_loader", harness::map_loader);
    assert!(corpus > 0, "{corpus} corpus inputs");
}

#[test]
fn jdip_import_corpus_and_past_crashes_replay() {
    let (corpus, crashes) = replay("jdip_import", harness::jdip_import);
    assert!(corpus > 0, "{corpus} corpus inputs");
    assert!(crashes >= 2, "bugs 1 and 2 of docs/fuzzing.md ({crashes})");
}

/// The structured target has no committed corpus (its inputs are whatever libFuzzer grew):
/// its harness runs on fixed pseudo-random byte strings, so that it is exercised on every
/// `cargo test` and stays in step with the library.
#[test]
fn adjudicate_harness_runs_on_fixed_inputs() {
    replay("adjudicate", harness::adjudicate);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut played = 0;
    for len in (0..4096).step_by(64) {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        harness::adjudicate(&bytes);
        played += 1;
    }
    assert_eq!(played, 64);
}

#[test]
fn protocol_answer_corpus_and_past_crashes_replay() {
    let (corpus, crashes) = replay("protocol_answer", harness::protocol_answer);
    assert!(corpus > 0, "{corpus} corpus inputs");
    assert!(crashes >= 1, "bug 6 of docs/fuzzing.md ({crashes})");
}

#[test]
fn versus_summary_corpus_and_past_crashes_replay() {
    let (corpus, crashes) = replay("versus_summary", harness::versus_summary);
    assert!(corpus > 0, "{corpus} corpus inputs");
    assert!(crashes >= 1, "bug 7 of docs/fuzzing.md ({crashes})");
}

#[test]
fn map_import_corpus_replays() {
    let (corpus, _) = replay("map_import", harness::map_import);
    assert!(corpus > 0, "{corpus} corpus inputs");
}

/// The past crashes are also regression tests of their own (`tests/fuzz_regressions.rs`); the
/// files here must keep the inputs those tests describe.
#[test]
fn every_past_crash_is_kept_as_a_file() {
    let names: Vec<String> = [
        "jdip_import",
        "scenario_loader",
        "protocol_answer",
        "versus_summary",
    ]
    .iter()
    .flat_map(|t| inputs("regressions", t))
    .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    .collect();
    for bug in ["bug1", "bug2", "bug3", "bug4", "bug5", "bug6", "bug7"] {
        assert!(
            names.iter().any(|n| n.starts_with(bug)),
            "{bug} missing from fuzz/regressions: {names:?}"
        );
    }
}
