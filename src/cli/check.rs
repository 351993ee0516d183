//! `check`: adjudicate scenario files and folders and compare with their expectations.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::Result;
use serde_json::{Value, json};

use dipsandbox::check::{compare, natural_key};
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

/// The scenario files under `path` (itself, or the `.ron` files of a folder, naturally sorted).
pub(super) fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    // Folders by their real path, so that a link back up (a loop) is walked once; files too, so
    // that a file reached through several links is checked once.
    let mut seen_dirs: Vec<PathBuf> = Vec::new();
    let mut seen_files: Vec<PathBuf> = out
        .iter()
        .filter_map(|f| std::fs::canonicalize(f).ok())
        .collect();
    let mut add = |f: &Path, out: &mut Vec<PathBuf>| {
        let real = std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf());
        if !seen_files.contains(&real) {
            seen_files.push(real);
            out.push(f.to_path_buf());
        }
    };
    if !path.is_dir() {
        add(path, out);
        return Ok(());
    }
    // Depth first, in natural order (files and folders interleaved as they sort), with an
    // explicit stack: a folder popped pushes its entries in reverse.
    let mut stack: Vec<PathBuf> = vec![path.to_path_buf()];
    while let Some(e) = stack.pop() {
        if e.is_dir() {
            let real = std::fs::canonicalize(&e)?;
            if seen_dirs.contains(&real) {
                continue;
            }
            seen_dirs.push(real);
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&e)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "ron"))
                .collect();
            entries.sort_by_key(|a| natural_key(a));
            stack.extend(entries.into_iter().rev());
        } else if e.is_file() {
            add(&e, out);
        } else {
            // Inside a folder only regular files count: a FIFO or device named `.ron` would
            // block or never end.
            errln!("{}: skipped: not a regular file", e.display());
        }
    }
    Ok(())
}

/// `check`: one line per case, then `N passed, M failed` (or, with `json`, one JSON document:
/// schema `dipsandbox.check/1`, see docs/json.md); exit 0, 1 (a case failed) or 2 (an input could
/// not be read). With `junit`, a JUnit XML report is written too.
pub fn check(
    paths: &[PathBuf],
    rules: Option<Rules>,
    engine: dipsandbox::adjudicator::Engine,
    verbose: bool,
    json: bool,
    junit: Option<&Path>,
    pairing: Option<&Path>,
) -> Result<ExitCode> {
    let pairing = read_pairing(pairing)?;
    let mut files = Vec::new();
    let mut unreadable = 0;
    let mut cases: Vec<Value> = Vec::new();
    let mut problems: Vec<Value> = Vec::new();
    // Files that were read but did not load (each reported by an ERROR line).
    let mut not_loaded: Vec<String> = Vec::new();
    for p in paths {
        let problem = if !p.exists() && !super::is_stdin(p) {
            Some("no such file or folder".to_string())
        } else {
            collect(p, &mut files).err().map(|e| e.to_string())
        };
        if let Some(m) = problem {
            errln!("{}: {m}", p.display());
            problems.push(json!({ "path": p.display().to_string(), "error": m }));
            unreadable += 1;
        }
    }
    let (mut passed, mut failed) = (0, 0);
    // One line each: a line end in a file or case name is shown escaped.
    let say = |line: String| -> Result<(), super::out::StdoutError> {
        if !json {
            outln!("{}", dipsandbox::text::one_line(&line))?;
        }
        Ok(())
    };
    // Each file is one scenario, or (a jDip test file, known by its content) many cases.
    let mut items: Vec<(String, Result<Scenario, String>, bool)> = Vec::new();
    for f in &files {
        match read_jdip(f, pairing.as_ref()) {
            Some(jf) => {
                for p in &jf.problems {
                    items.push((format!("{}:{}", p.file, p.line), Err(p.to_string()), true));
                }
                for c in jf.cases {
                    for w in &c.warnings {
                        errln!(
                            "{}: case {}: {w}",
                            f.display(),
                            dipsandbox::text::cut(&c.name)
                        );
                    }
                    items.push((
                        format!("{}:{} {}", f.display(), c.line, c.name),
                        Ok(c.scenario),
                        true,
                    ));
                }
            }
            None => items.push((f.display().to_string(), super::load_scenario(f), false)),
        }
    }
    for (name, loaded, from_jdip) in items {
        let s = match loaded {
            Ok(s) => s,
            Err(e) => {
                say(format!("ERROR {e}"))?;
                cases.push(json!({
                    "file": name, "title": null, "status": "error", "checks": 0,
                    "mismatches": [], "positions_only": false, "error": e.to_string(),
                }));
                not_loaded.push(name.clone());
                unreadable += 1;
                failed += 1;
                continue;
            }
        };
        let positions_only = s.expect.as_ref().is_some_and(|e| {
            e.results.is_empty() && (e.positions.is_some() || e.dislodged.is_some())
        });
        match dipsandbox::check::run_with(&s, rules, engine, false) {
            Err(e) => {
                say(format!("FAIL  {name}: cannot adjudicate: {e}"))?;
                cases.push(json!({
                    "file": name, "title": s.title, "status": "error", "checks": 0,
                    "mismatches": [], "positions_only": positions_only, "error": e.to_string(),
                }));
                failed += 1;
            }
            Ok(r) => {
                let (bad, n) = if from_jdip {
                    let (bad, n, notes) = dipsandbox::jdip::compare(&s, &r);
                    for note in notes {
                        errln!("{name}: {note}");
                    }
                    (bad, n)
                } else {
                    compare(&s, &r)
                };
                let status = if bad.is_empty() { "pass" } else { "fail" };
                if s.expect.is_none() {
                    say(format!("ok    {name}  (no expectations)"))?;
                    passed += 1;
                } else if bad.is_empty() {
                    let what = if positions_only {
                        ", positions only"
                    } else {
                        ""
                    };
                    say(format!("ok    {name}  ({n} checks{what})"))?;
                    passed += 1;
                } else {
                    say(format!(
                        "FAIL  {name}  ({} of {n} checks failed)",
                        bad.len()
                    ))?;
                    let shown = if verbose { bad.len() } else { 1 };
                    for b in bad.iter().take(shown) {
                        say(format!("        - {b}"))?;
                    }
                    failed += 1;
                }
                cases.push(json!({
                    "file": name, "title": s.title, "status": status, "checks": n,
                    "mismatches": bad, "positions_only": positions_only, "error": null,
                }));
            }
        }
    }
    if let Some(path) = junit {
        write_junit(path, &cases)?;
    }
    if json {
        let doc = json!({
            "schema": "dipsandbox.check/1",
            "passed": passed,
            "failed": failed,
            "unreadable": problems,
            "cases": cases,
        });
        super::out::json(&doc)?;
    } else if unreadable > 0 {
        // The last line says why the status is 2.
        let what: Vec<String> = problems
            .iter()
            .map(|p| {
                format!(
                    "{} ({})",
                    p["path"].as_str().unwrap_or_default(),
                    p["error"].as_str().unwrap_or_default()
                )
            })
            .collect();
        let mut why = Vec::new();
        if !what.is_empty() {
            why.push(format!(
                "{} path(s) could not be read: {}",
                what.len(),
                what.join(", ")
            ));
        }
        if !not_loaded.is_empty() {
            why.push(format!(
                "{} file(s) could not be loaded (see ERROR above): {}",
                not_loaded.len(),
                not_loaded.join(", ")
            ));
        }
        let why = why.join("; ");
        outln!(
            "{passed} passed, {failed} failed; {}",
            dipsandbox::text::one_line(&why)
        )?;
    } else {
        outln!("{passed} passed, {failed} failed")?;
    }
    Ok(if unreadable > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The JUnit XML report: one suite, one test case per scenario file (named by the file, with
/// the title as its class name); a failure carries every mismatch, an error the located error.
fn write_junit(path: &Path, cases: &[Value]) -> Result<()> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut suite = TestSuite::new("dipsandbox check");
    for c in cases {
        let text = |k: &str| c[k].as_str().unwrap_or("").to_string();
        let status = match c["status"].as_str() {
            Some("pass") => TestCaseStatus::success(),
            Some("fail") => {
                let bad: Vec<&str> = c["mismatches"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
                st.set_message(format!(
                    "{} of {} checks failed",
                    bad.len(),
                    c["checks"].as_u64().unwrap_or(0)
                ));
                st.set_description(bad.join("\n"));
                st
            }
            _ => {
                let mut st = TestCaseStatus::non_success(NonSuccessKind::Error);
                st.set_message(text("error"));
                st
            }
        };
        let mut case = TestCase::new(text("file"), status);
        case.set_classname(text("title"));
        suite.add_test_case(case);
    }
    let mut report = Report::new("dipsandbox");
    report.add_test_suite(suite);
    let xml = report
        .to_string()
        .map_err(|e| color_eyre::eyre::eyre!("the JUnit report: {e}"))?;
    dipsandbox::scenario::write_atomic(path, &xml).map_err(|e| color_eyre::eyre::eyre!("{e}"))
}

/// A pairing file named on the command line: its text and its name.
pub(super) type Pairing = (String, String);

/// Reads the `--pairing` file, if one is named.
pub(super) fn read_pairing(path: Option<&Path>) -> Result<Option<Pairing>> {
    path.map(|p| {
        dipsandbox::source::read_text(p)
            .map(|t| (t, p.display().to_string()))
            .map_err(|e| color_eyre::eyre::eyre!("--pairing {e}"))
    })
    .transpose()
}

/// A jDip test file, when `f` is one (by content; `.ron` files are scenarios). Its cases are
/// paired with rules from `pairing` when given, else from `FILE.rules` beside it.
pub(super) fn read_jdip(f: &Path, pairing: Option<&Pairing>) -> Option<dipsandbox::jdip::File> {
    if f.extension().is_some_and(|x| x == "ron") {
        return None;
    }
    let text = super::read_input(f).ok()?;
    if !dipsandbox::jdip::looks_like_jdip(&text) {
        return None;
    }
    let name = if super::is_stdin(f) {
        "<stdin>".to_string()
    } else {
        f.display().to_string()
    };
    let mut jf = dipsandbox::jdip::parse(&text, &name, dipsandbox::map::Map::standard_arc());
    // `FILE.rules` beside it pairs cases with the rules their expectations assume.
    match pairing {
        Some((text, name)) => dipsandbox::jdip::apply_rules_file(&mut jf, text, name),
        None => {
            let mut side = f.as_os_str().to_owned();
            side.push(".rules");
            let side = PathBuf::from(side);
            if let Ok(t) = std::fs::read_to_string(&side) {
                dipsandbox::jdip::apply_rules_file(&mut jf, &t, &side.display().to_string());
            }
        }
    }
    Some(jf)
}
