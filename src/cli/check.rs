//! `check`: adjudicate scenario files and folders and compare with their expectations.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::Result;

use dipsandbox::check::{compare, natural_key, run};
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

/// The scenario files under `path` (itself, or the `.ron` files of a folder, naturally sorted).
pub(super) fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort_by_key(|a| natural_key(a));
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "ron") {
                collect(&e, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// `check`: one line per case, then `N passed, M failed`; exit 0, 1 (a case failed) or 2 (an
/// input could not be read).
pub fn check(paths: &[PathBuf], rules: Option<Rules>, verbose: bool) -> Result<ExitCode> {
    let mut files = Vec::new();
    let mut unreadable = 0;
    for p in paths {
        if !p.exists() {
            eprintln!("{}: no such file or folder", p.display());
            unreadable += 1;
            continue;
        }
        if let Err(e) = collect(p, &mut files) {
            eprintln!("{}: {e}", p.display());
            unreadable += 1;
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                println!("ERROR {e}");
                unreadable += 1;
                failed += 1;
                continue;
            }
        };
        let name = f.display();
        match run(&s, rules, false) {
            Err(e) => {
                println!("FAIL  {name}: cannot adjudicate: {e}");
                failed += 1;
            }
            Ok(r) => {
                let (bad, n) = compare(&s, &r);
                if s.expect.is_none() {
                    println!("ok    {name}  (no expectations)");
                    passed += 1;
                } else if bad.is_empty() {
                    println!("ok    {name}  ({n} checks)");
                    passed += 1;
                } else {
                    println!("FAIL  {name}  ({} of {n} checks failed)", bad.len());
                    if verbose {
                        for b in &bad {
                            println!("        - {b}");
                        }
                    } else {
                        println!("        - {}", bad[0]);
                    }
                    failed += 1;
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if unreadable > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
