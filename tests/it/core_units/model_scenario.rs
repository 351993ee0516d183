//! The unit tests of the core's `model::scenario`.
//!
//! The fast reader (`base::ron_subset`) against the `ron` crate on the scenario types: every
//! value it gives must be the value `ron` gives.

use dipsandbox_core::model::scenario::hooks::from_ron_with;
use dipsandbox_core::model::scenario::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Whether the fast reader read `text` (panicking, with both values, if `ron` reads it
/// otherwise).
fn checked(text: &str) -> Option<()> {
    match fast_reader_agrees(text) {
        Ok(true) => Some(()),
        Ok(false) => None,
        Err(e) => panic!("{e}\non:\n{text}"),
    }
}

/// Every RON file under `dir`, recursively.
fn ron_files(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ron")
            && let Ok(t) = std::fs::read_to_string(&p)
        {
            out.push((p, t));
        }
    }
}

fn scenario_files() -> &'static [(PathBuf, String)] {
    static FILES: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = Vec::new();
        ron_files(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
            &mut out,
        );
        out
    })
}

#[test]
fn reads_every_scenario_file_as_ron_does() {
    let files = scenario_files();
    assert!(
        files.len() > 250,
        "only {} scenario files found",
        files.len()
    );
    for (path, text) in files {
        assert!(
            checked(text).is_some(),
            "{} is outside the fast reader's subset",
            path.display()
        );
    }
}

#[test]
fn leaves_every_invalid_scenario_to_ron_or_agrees() {
    let mut files = Vec::new();
    ron_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid/scenarios"),
        &mut files,
    );
    assert!(files.len() > 40);
    for (_, text) in &files {
        checked(text);
    }
}

#[test]
fn reads_the_subset_and_leaves_the_rest() {
    let base = "Scenario(title: \"t\", phase: \"Spring 1901 Movement\"";
    // In the subset: escapes, comments, struct names, explicit and implicit Some, trailing commas.
    for tail in [
        ")",
        ",)",
        ", description: \"a \\\"b\\\" \\\\ c\\n\\t\")",
        ", // comment\n)",
        ", rules: Rules(paradox: Rule1982))",
        ", rules: (adjacent_convoy_fallback: true,),)",
        ", expect: Some((results: [(\"A Par H\", Fails)])))",
        ", expect: (results: [(\"A Par H\", Fails),], dislodged: None))",
        ", owners: {\"France\": [\"Paris\"]}, orders: {})",
        ", owners: None, expect: RawExpect(results: []))",
        ", dislodged: {\"France\": [Dislodged(unit: \"A Paris\", from: \"Burgundy\", by_convoy: true)]})",
        ", dislodged: {\"France\": [(from: \"Burgundy\", unit: \"A Paris\",)]})",
        ", retreats: Some((orders: {\"France\": [\"A Paris - Gascony\"]}, expect: None)))",
        ", retreats: RawFollowUp(expect: (positions: {})))",
        ", expect: (results: [(\"A Par H\", Void,)], positions: Some({})))",
    ] {
        let text = format!("{base}{tail}");
        assert!(checked(&text).is_some(), "not read: {text}");
    }
    // Outside the subset (or invalid): left to `ron`, whatever it says.
    for tail in [
        ", description: r\"raw\")",
        ", /* block */)",
        ", description: \"\\u{e9}\")",
        ", rules: (paradox: 3))",
        ", title: \"again\")",
        ", unknown: true)",
        ", rules: (paradox: Rule1982()))",
        ") trailing",
        ", expect: Some)",
        ", rules: Other(paradox: Rule1982))",
        " description: \"no comma\")",
        ", expect: (results: [(\"A Par H\")]))",
        ", expect: (results: [(\"A Par H\", Fails, Fails)]))",
        ", expect: (results: [(\"A Par H\", Wins)]))",
        ", expect: (results: [], results: []))",
        ", expect: (positions: {}, extra: 1))",
        ", dislodged: {\"France\": [(unit: \"A Paris\")]})",
        ", dislodged: {\"France\": [(unit: \"A Paris\", from: \"Bur\", by_convoy: yes)]})",
        ", dislodged: {\"France\": [Other(unit: \"A Paris\", from: \"Bur\")]})",
        ", retreats: (orders: {}, orders: {}))",
        ", units: {\"France\": \"A Paris\"})",
        ", units: {\"France\" [\"A Paris\"]})",
        ", contested: [\"Paris\" \"Bur\"])",
        ", phase: \"Fall 1901 Movement\")",
    ] {
        let text = format!("{base}{tail}");
        assert_eq!(fast_reader_agrees(&text), Ok(false), "read: {text}");
    }
    assert_eq!(
        fast_reader_agrees(&format!("#![enable(implicit_some)]\n{base})")),
        Ok(false)
    );
}

/// Pieces that matter to a RON reader, inserted into valid files.
const PIECES: &[&str] = &[
    ",", "(", ")", "[", "]", "{", "}", ":", "\"", "\\", "//", "/*", "*/", "None", "Some(", "Some",
    "r#", "#", "1", " ", "\n", "\t", "Scenario", "Rules", "é", "\u{85}", "\u{b}", "_x", "true",
    "Fails", "()", "\\n", "\\u{41}", "'", "b\"", "r\"",
];

fn mutate(text: &str, kind: u8, at: usize, len: usize, piece: usize) -> String {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let a = floor(at % (text.len() + 1));
    match kind % 4 {
        0 => {
            let b = floor(a + len % 8 + 1);
            format!("{}{}", &text[..a], &text[b..])
        }
        1 => format!(
            "{}{}{}",
            &text[..a],
            PIECES[piece % PIECES.len()],
            &text[a..]
        ),
        2 => {
            let b = floor(a + len % 8 + 1);
            format!(
                "{}{}{}",
                &text[..a],
                PIECES[piece % PIECES.len()],
                &text[b..]
            )
        }
        _ => {
            // A line duplicated.
            let lines: Vec<&str> = text.lines().collect();
            let i = at % lines.len().max(1);
            let mut out: Vec<&str> = lines.clone();
            if let Some(l) = lines.get(i) {
                out.insert(i, l);
            }
            out.join("\n")
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn mutated_files_read_as_ron_reads_them(
        file in 0usize..10_000,
        kind in 0u8..4,
        at in 0usize..100_000,
        len in 0usize..16,
        piece in 0usize..100,
        twice in any::<bool>(),
    ) {
        let files = scenario_files();
        let (_, text) = &files[file % files.len()];
        let mut m = mutate(text, kind, at, len, piece);
        if twice {
            m = mutate(&m, kind.wrapping_add(1), at / 3, len, piece / 2);
        }
        checked(&m);
    }
}

/// The fuzzers' corpus of scenario inputs (`fuzz/corpus/scenario_loader`, kept out of git),
/// when present: `cargo test --release --lib fuzz_corpus -- --ignored`.
#[test]
#[ignore = "reads fuzz/corpus/scenario_loader, which only a fuzzing machine has"]
fn fuzz_corpus_reads_as_ron_reads_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/scenario_loader");
    let (mut inputs, mut read) = (0, 0);
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            let Ok(bytes) = std::fs::read(e.path()) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            inputs += 1;
            read += usize::from(checked(&text).is_some());
        }
    }
    eprintln!("{inputs} corpus inputs, {read} read by the fast reader, all as ron reads them");
}

/// Result keys name the same orders whether they are matched by a scan or by the index.
#[test]
fn scan_and_index_match_the_same_orders() {
    let mut texts: Vec<String> = scenario_files().iter().map(|(_, t)| t.clone()).collect();
    // Repeated orders, keys with and without a power prefix, out of order, in other words.
    texts.push(
        r#"Scenario(
title: "keys",
phase: "Spring 1901 Movement",
units: { "France": ["A Paris", "A Marseilles"], "Germany": ["A Munich"], "Italy": ["A Venice"] },
orders: {
    "France": ["A Paris - Burgundy", "A Marseilles - Burgundy", "A Paris - Burgundy", "A Par H"],
    "Germany": ["A Munich - Burgundy", "A Paris - Burgundy"],
    "Italy": ["A Venice H"],
},
expect: (results: [
    ("Germany: A Paris - Burgundy", Illegal),
    ("A Venice Holds", Succeeds),
    ("A par - bur", Fails),
    ("France: A Paris - Burgundy", Fails),
    ("A Marseilles - Burgundy", Fails),
    ("A Munich - Burgundy", Fails),
]),
)"#
        .to_string(),
    );
    let mut compared = 0;
    for text in &texts {
        let scan = from_ron_with(text, "scan.ron", usize::MAX);
        let index = from_ron_with(text, "index.ron", 0);
        match (scan, index) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.expect, b.expect, "{text}");
                assert_eq!(a.retreats, b.retreats, "{text}");
                compared += usize::from(a.expect.is_some());
            }
            (Err(a), Err(b)) => assert_eq!(
                a.to_string().replace("scan.ron", "index.ron"),
                b.to_string()
            ),
            (a, b) => panic!(
                "one way loads, the other not: {:?} / {:?}",
                a.err(),
                b.err()
            ),
        }
    }
    assert!(compared > 200);
    let last = texts.last().map(|t| Scenario::from_ron(t, "keys.ron"));
    let Some(Ok(s)) = last else {
        panic!("the keys scenario does not load: {last:?}");
    };
    let matched: Vec<usize> = s
        .expect
        .iter()
        .flat_map(|e| e.results.iter().map(|r| r.0))
        .collect();
    // Germany's A Paris order (5); Italy's hold (6); the first unused French A Paris move
    // (0), the next one (2); Marseilles (1); Munich (4).
    assert_eq!(matched, vec![5, 6, 0, 2, 1, 4]);
}
