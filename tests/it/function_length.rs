//! No function above 200 lines in the core (`crates/core/src`) and the app (`src`). The ones
//! that were, split one by one, were listed in [`STILL_LONG`] meanwhile; the list is now empty,
//! so any function over the limit fails the test.
//!
//! A function's length runs from its `fn` line to the first later line that starts with `}` at
//! the same indentation (the code is `rustfmt`-formatted, so that is its closing brace). A
//! function without a body (a trait's declaration) and a one-line function are not measured.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most lines a function may have.
const MAX_LINES: usize = 200;

/// Functions allowed over [`MAX_LINES`] for now, as (file from the repository's root, function
/// name): none. A function on it that is no longer long fails the test too.
const STILL_LONG: &[(&str, &str)] = &[];

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The function's name if `line` (without its indentation) opens a function: `fn name`, with
/// any of `pub`, `pub(…)`, `const`, `async`, `unsafe` and `extern "…"` before it.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line;
    loop {
        let word_end = rest.find([' ', '(']).unwrap_or(rest.len());
        let word = &rest[..word_end];
        match word {
            "pub" | "const" | "async" | "unsafe" => {
                rest = rest[word_end..].trim_start();
                if rest.starts_with('(') {
                    // `pub(crate)` and kin.
                    let close = rest.find(')')?;
                    rest = rest[close + 1..].trim_start();
                }
            }
            "extern" => {
                rest = rest[word_end..].trim_start();
                if rest.starts_with('"') {
                    let close = rest[1..].find('"')?;
                    rest = rest[close + 2..].trim_start();
                }
            }
            "fn" => {
                let name = rest[word_end..].trim_start();
                let end = name
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(name.len());
                return (end > 0).then(|| &name[..end]);
            }
            _ => return None,
        }
    }
}

/// The functions of `text` longer than [`MAX_LINES`], by name with their length.
fn long_functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start_matches(' ');
        let Some(name) = fn_name(body) else {
            continue;
        };
        let indent = line.len() - body.len();
        // No body: the signature ends with `;` before any `{`.
        let has_body = lines[i..]
            .iter()
            .find(|l| l.contains('{') || l.trim_end().ends_with(';'))
            .is_some_and(|l| l.contains('{'));
        if !has_body || body.trim_end().ends_with('}') {
            continue;
        }
        let close = lines[i + 1..].iter().position(|l| {
            let t = l.trim_start_matches(' ');
            l.len() - t.len() == indent && t.starts_with('}')
        });
        let Some(close) = close else {
            continue;
        };
        let length = close + 2;
        if length > MAX_LINES {
            long.push((name.to_string(), length));
        }
    }
    long
}

/// The measure finds a long function, skips short ones, one-liners and body-less declarations.
#[test]
fn the_measure_counts_from_fn_to_its_closing_brace() {
    let mut text = String::from("trait T {\n    fn declared(&self);\n}\n");
    text.push_str("fn one() -> u8 { 1 }\n");
    text.push_str("pub(crate) fn long(\n    x: u8,\n) -> u8 {\n");
    for _ in 0..MAX_LINES {
        text.push_str("    let _ = x;\n");
    }
    text.push_str("    x\n}\n");
    text.push_str("pub fn short() {\n    let _ = 1;\n}\n");
    assert_eq!(
        long_functions(&text),
        vec![("long".to_string(), MAX_LINES + 5)]
    );
}

/// The functions over [`MAX_LINES`] in the core and the app are exactly those of [`STILL_LONG`].
#[test]
fn no_function_is_longer_than_the_limit_but_the_listed_ones() {
    let mut files = Vec::new();
    rust_files(Path::new("crates/core/src"), &mut files);
    rust_files(Path::new("src"), &mut files);
    assert!(files.len() > 50, "the sources are found ({})", files.len());
    let mut found = BTreeSet::new();
    let mut report = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        let shown = file.to_string_lossy().replace('\\', "/");
        for (name, length) in long_functions(&text) {
            report.push(format!("{length} {shown} {name}"));
            found.insert((shown.clone(), name));
        }
    }
    let listed: BTreeSet<(String, String)> = STILL_LONG
        .iter()
        .map(|(f, n)| (f.to_string(), n.to_string()))
        .collect();
    let new: Vec<_> = found.difference(&listed).collect();
    let split: Vec<_> = listed.difference(&found).collect();
    assert!(
        new.is_empty() && split.is_empty(),
        "over {MAX_LINES} lines but not in STILL_LONG (split them): {new:?}\n\
         in STILL_LONG but no longer over {MAX_LINES} lines (take them off): {split:?}\n\
         all long functions:\n{}",
        report.join("\n")
    );
}
