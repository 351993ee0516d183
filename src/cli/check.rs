//! `check`: adjudicate scenario files and folders and compare with their expectations.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::Result;
use rayon::prelude::*;
use serde_json::{Value, json};

use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{Wording, natural_key, verify_with};

/// The scenario files named on a command line, in order, each once: a file as it is; a folder's
/// `.ron` files, searched depth first in natural order (`6.A.2` before `6.A.10`).
///
/// A file is listed once however many names or links lead to it (files and folders are known by
/// their real paths, kept in sets). Links to folders inside a folder are not followed: one that
/// leads inside the folder given is walked anyway by its real path, and one that leads outside it
/// is skipped with a note on stderr (name it on the command line to check it) — a link to `/`
/// or a loop never walks the disk. Links to files are followed only to files inside the folder
/// given (one that leads outside is skipped with a note: a link to `/proc/self/environ` named
/// `a.ron` is not read).
#[derive(Debug, Default)]
pub(super) struct Collector {
    files: Vec<PathBuf>,
    seen_files: HashSet<PathBuf>,
    seen_dirs: HashSet<PathBuf>,
}

/// An entry waiting on [`Collector::add`]'s stack.
enum Entry {
    Dir(PathBuf),
    File(PathBuf),
}

impl Entry {
    fn path(&self) -> &Path {
        match self {
            Entry::Dir(p) | Entry::File(p) => p,
        }
    }
}

impl Collector {
    /// The files listed.
    pub(super) fn into_files(self) -> Vec<PathBuf> {
        self.files
    }

    fn add_file(&mut self, f: &Path) {
        let real = std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf());
        if self.seen_files.insert(real) {
            self.files.push(f.to_path_buf());
        }
    }

    /// Lists `path`: a file (or `-`) itself, a folder's scenario files.
    pub(super) fn add(&mut self, path: &Path) -> std::io::Result<()> {
        if !path.is_dir() {
            self.add_file(path);
            return Ok(());
        }
        let root = std::fs::canonicalize(path)?;
        // Depth first, files and folders interleaved as they sort, with an explicit stack: a
        // folder popped pushes its entries in reverse.
        let mut stack = vec![Entry::Dir(path.to_path_buf())];
        while let Some(e) = stack.pop() {
            let d = match e {
                Entry::File(f) => {
                    self.add_file(&f);
                    continue;
                }
                Entry::Dir(d) => d,
            };
            if !self.seen_dirs.insert(std::fs::canonicalize(&d)?) {
                continue;
            }
            let mut entries = Vec::new();
            for e in std::fs::read_dir(&d)?.flatten() {
                let p = e.path();
                let ron = p.extension().is_some_and(|x| x == "ron");
                let Ok(kind) = e.file_type() else { continue };
                if kind.is_dir() {
                    entries.push(Entry::Dir(p));
                } else if kind.is_file() {
                    if ron {
                        entries.push(Entry::File(p));
                    }
                } else if kind.is_symlink() {
                    match std::fs::metadata(&p) {
                        Ok(m) if m.is_dir() => {
                            if let Ok(real) = std::fs::canonicalize(&p)
                                && !real.starts_with(&root)
                            {
                                errln!(
                                    "{}: skipped: a link to a folder outside {} ({}); name it on the command line to check it",
                                    p.display(),
                                    path.display(),
                                    real.display()
                                );
                            }
                        }
                        Ok(m) if m.is_file() && ron => {
                            // A link to a file outside the folder given is not read: the user
                            // named the folder, not what a link in it leads to.
                            match std::fs::canonicalize(&p) {
                                Ok(real) if real.starts_with(&root) => {
                                    entries.push(Entry::File(p));
                                }
                                _ => errln!(
                                    "{}: skipped: a link to a file outside {}; name it on the command line to check it",
                                    p.display(),
                                    path.display()
                                ),
                            }
                        }
                        Ok(m) if !m.is_file() && ron => {
                            errln!("{}: skipped: not a regular file", p.display());
                        }
                        Err(_) if ron => {
                            errln!("{}: skipped: a link to nothing", p.display());
                        }
                        _ => {}
                    }
                } else if ron {
                    // Inside a folder only regular files count: a FIFO or device named `.ron`
                    // would block or never end.
                    errln!("{}: skipped: not a regular file", p.display());
                }
            }
            entries.sort_by_cached_key(|e| natural_key(e.path()));
            stack.extend(entries.into_iter().rev());
        }
        Ok(())
    }
}

/// The scenario files of `paths` ([`Collector`]), or the first path that does not exist or
/// cannot be listed. `-` (standard input) is taken as a file, at most once.
pub(super) fn collect_all(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    super::input::stdin_once(paths.iter().map(PathBuf::as_path))?;
    let mut collector = Collector::default();
    for p in paths {
        if !super::input::is_stdin(p) && std::fs::symlink_metadata(p).is_err() {
            return Err(color_eyre::eyre::eyre!(
                "{}: no such file or folder",
                p.display()
            ));
        }
        collector
            .add(p)
            .map_err(|e| color_eyre::eyre::eyre!("{}: {e}", p.display()))?;
    }
    Ok(collector.into_files())
}

/// How `check` runs and reports.
#[derive(Clone, Copy, Debug)]
pub struct How<'a> {
    /// Every mismatch, not only the case line.
    pub verbose: bool,
    /// One JSON document.
    pub json: bool,
    /// A JUnit XML report to write, and whether it may replace a file.
    pub junit: Option<(&'a Path, bool)>,
    /// The pairing file for jDip cases.
    pub pairing: Option<&'a Path>,
    /// How expectations are held against verdicts (`--wording`).
    pub wording: Wording,
}

/// `check`: one line per case, then `N passed, M failed` (or, with `json`, one JSON document:
/// schema `dipsandbox.check/1`, see docs/json.md); exit 0, 1 (a case failed) or 2 (an input could
/// not be read). With `junit`, a JUnit XML report is written too.
pub fn check(
    paths: &[PathBuf],
    rules: Option<Rules>,
    engine: &super::input::EngineArg,
    how: &How<'_>,
) -> Result<ExitCode> {
    let How {
        verbose,
        json,
        junit,
        pairing: pairing_file,
        wording,
    } = *how;
    super::input::stdin_once(paths.iter().map(PathBuf::as_path).chain(pairing_file))?;
    let pairing = read_pairing(pairing_file)?;
    let mut collector = Collector::default();
    let mut tally = Tally::default();
    for p in paths {
        let problem = if !p.exists() && !super::input::is_stdin(p) {
            Some("no such file or folder".to_string())
        } else {
            collector.add(p).err().map(|e| e.to_string())
        };
        if let Some(m) = problem {
            errln!("{}: {m}", p.display());
            tally
                .problems
                .push(json!({ "path": p.display().to_string(), "error": m }));
            tally.unreadable += 1;
        }
    }
    let files = collector.into_files();
    let mut junit = junit_target(junit, &files, pairing_file)?;
    // Each file is one scenario, or (a jDip test file, known by its content) many cases. Files
    // are read and loaded, and cases adjudicated, on every core; what is printed keeps the
    // files' order.
    let loaded: Vec<(Vec<String>, Vec<Item>)> = files
        .par_iter()
        .map(|f| load_items(f, pairing.as_ref()))
        .collect();
    let mut items: Vec<Item> = Vec::new();
    for (warnings, its) in loaded {
        for w in warnings {
            errln!("{w}");
        }
        items.extend(its);
    }
    // The map files the scenarios read are inputs too: the report never replaces one.
    if let Some(t) = junit.as_mut() {
        for (_, s, _) in &items {
            if let Ok(s) = s
                && let Some(m) = &s.map_file
            {
                t.inputs.add(m);
            }
        }
    }
    let engine = &*engine.engine;
    let checked: Vec<Checked> = items
        .into_par_iter()
        .map(|item| check_item(item, rules, engine, wording))
        .collect();
    for c in checked {
        tally.record(c, verbose, json)?;
    }
    if let Some(target) = &junit {
        write_junit(target, &tally.cases)?;
    }
    tally.finish(json)
}

/// The JUnit report to write, if one is asked for: checked before any case runs, it is never
/// one of the files read (nor the pairing files beside them), and an existing file only with
/// --force.
fn junit_target(
    junit: Option<(&Path, bool)>,
    files: &[PathBuf],
    pairing_file: Option<&Path>,
) -> Result<Option<dipsandbox_core::base::output::Target>> {
    let Some((path, force)) = junit else {
        return Ok(None);
    };
    let mut inputs = dipsandbox_core::base::output::Inputs::new();
    for f in files {
        inputs.add(f);
        inputs.add(&side_file(f));
    }
    if let Some(p) = pairing_file {
        inputs.add(p);
    }
    Ok(Some(super::input::target(path, inputs, force)?))
}

/// Prints one line of the report, unless the output is JSON: a line end in a file or case name
/// is shown escaped.
fn say(json: bool, line: String) -> Result<(), super::out::StdoutError> {
    if !json {
        outln!("{}", dipsandbox_core::base::text::one_line(&line))?;
    }
    Ok(())
}

/// What the checks found so far: the counts, and the cases and problems for the JSON document
/// and the JUnit report.
#[derive(Default)]
struct Tally {
    /// Cases that passed.
    passed: usize,
    /// Cases that failed (or could not be loaded or run).
    failed: usize,
    /// Paths and files that could not be read or loaded.
    unreadable: usize,
    /// Each case, as the JSON document gives it.
    cases: Vec<Value>,
    /// Each path that could not be read, with why.
    problems: Vec<Value>,
    /// Files that were read but did not load (each reported by an ERROR line).
    not_loaded: Vec<String>,
}

impl Tally {
    /// Prints and counts one case's result.
    fn record(&mut self, c: Checked, verbose: bool, json: bool) -> Result<()> {
        match c {
            Checked::Unloaded { name, error } => {
                say(json, format!("ERROR {error}"))?;
                self.cases.push(json!({
                    "file": name, "title": null, "status": "error", "checks": 0,
                    "mismatches": [], "positions_only": false, "error": error,
                }));
                self.not_loaded.push(name.clone());
                self.unreadable += 1;
                self.failed += 1;
            }
            Checked::CannotRun {
                name,
                title,
                positions_only,
                error,
            } => {
                say(json, format!("FAIL  {name}: cannot adjudicate: {error}"))?;
                self.cases.push(json!({
                    "file": name, "title": title, "status": "error", "checks": 0,
                    "mismatches": [], "positions_only": positions_only, "error": error,
                }));
                self.failed += 1;
            }
            Checked::Ran {
                name,
                title,
                positions_only,
                expects,
                bad,
                n,
                notes,
            } => {
                for note in notes {
                    errln!("{name}: {note}");
                }
                let status = if bad.is_empty() { "pass" } else { "fail" };
                if !expects {
                    say(json, format!("ok    {name}  (no expectations)"))?;
                    self.passed += 1;
                } else if bad.is_empty() {
                    let what = if positions_only {
                        ", positions only"
                    } else {
                        ""
                    };
                    say(json, format!("ok    {name}  ({n} checks{what})"))?;
                    self.passed += 1;
                } else {
                    say(
                        json,
                        format!("FAIL  {name}  ({} of {n} checks failed)", bad.len()),
                    )?;
                    let shown = if verbose { bad.len() } else { 1 };
                    for b in bad.iter().take(shown) {
                        say(json, format!("        - {b}"))?;
                    }
                    self.failed += 1;
                }
                self.cases.push(json!({
                    "file": name, "title": title, "status": status, "checks": n,
                    "mismatches": bad, "positions_only": positions_only, "error": null,
                }));
            }
        }
        Ok(())
    }

    /// The summary (the last line, or the JSON document) and the exit status: 2 if an input
    /// could not be read, 1 if a case failed, else 0.
    fn finish(self, json: bool) -> Result<ExitCode> {
        let Tally {
            passed,
            failed,
            unreadable,
            cases,
            problems,
            not_loaded,
        } = self;
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
                    "{} could not be read: {}",
                    dipsandbox_core::base::text::count(what.len(), "path"),
                    what.join(", ")
                ));
            }
            if !not_loaded.is_empty() {
                why.push(format!(
                    "{} could not be loaded (see ERROR above): {}",
                    dipsandbox_core::base::text::count(not_loaded.len(), "file"),
                    not_loaded.join(", ")
                ));
            }
            let why = why.join("; ");
            outln!(
                "{passed} passed, {failed} failed; {}",
                dipsandbox_core::base::text::one_line(&why)
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
}

/// One case to check: its name, the scenario (or why it did not load), and whether it came from
/// a jDip file (compared by positions, with notes).
type Item = (String, Result<Scenario, String>, bool);

/// The cases of one file, and the warnings its reading gave (for stderr).
fn load_items(f: &Path, pairing: Option<&Pairing>) -> (Vec<String>, Vec<Item>) {
    let mut warnings = Vec::new();
    let mut items = Vec::new();
    match read_jdip(f, pairing) {
        Some(jf) => {
            for p in &jf.problems {
                items.push((format!("{}:{}", p.file, p.line), Err(p.to_string()), true));
            }
            for c in jf.cases {
                for w in &c.warnings {
                    warnings.push(format!(
                        "{}: case {}: {w}",
                        f.display(),
                        dipsandbox_core::base::text::cut(&c.name)
                    ));
                }
                items.push((
                    format!("{}:{} {}", f.display(), c.line, c.name),
                    Ok(c.scenario),
                    true,
                ));
            }
        }
        None => items.push((
            f.display().to_string(),
            super::input::load_scenario(f),
            false,
        )),
    }
    (warnings, items)
}

/// What checking one case found, to print in the files' order.
enum Checked {
    /// The file did not load.
    Unloaded { name: String, error: String },
    /// The engine gave no result.
    CannotRun {
        name: String,
        title: String,
        positions_only: bool,
        error: String,
    },
    /// Adjudicated and compared.
    Ran {
        name: String,
        title: String,
        positions_only: bool,
        expects: bool,
        bad: Vec<String>,
        n: usize,
        notes: Vec<String>,
    },
}

fn check_item(
    (name, loaded, from_jdip): Item,
    rules: Option<dipsandbox_core::model::rules::Rules>,
    engine: &dyn dipsandbox_core::engine::Engine,
    wording: Wording,
) -> Checked {
    let s = match loaded {
        Ok(s) => s,
        Err(error) => return Checked::Unloaded { name, error },
    };
    let positions_only = s
        .expect
        .as_ref()
        .is_some_and(|e| e.results.is_empty() && (e.positions.is_some() || e.dislodged.is_some()));
    // A jDip case is compared by its own rules (positions, with notes on the orders), from the
    // full result; a scenario by `verify`, which adjudicates for the result alone and again in
    // full only when something differs.
    let checked = if from_jdip {
        dipsandbox_core::tools::check::adjudicate_scenario(&s, rules, engine, false)
            .map(|r| dipsandbox_core::io::jdip::compare(&s, &r))
    } else {
        verify_with(&s, rules, engine, wording).map(|(bad, n)| (bad, n, Vec::new()))
    };
    match checked {
        Err(e) => Checked::CannotRun {
            name,
            title: s.title,
            positions_only,
            error: e.to_string(),
        },
        Ok((bad, n, notes)) => Checked::Ran {
            name,
            title: s.title,
            positions_only,
            expects: s.expect.is_some(),
            bad,
            n,
            notes,
        },
    }
}

/// The JUnit XML report: one suite, one test case per scenario file (named by the file, with
/// the title as its class name); a failure carries every mismatch, an error the located error.
fn write_junit(target: &dipsandbox_core::base::output::Target, cases: &[Value]) -> Result<()> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut suite = TestSuite::new("dipsandbox check");
    for c in cases {
        // One plain line each: control and invisible characters escaped, as everything written.
        let text = |k: &str| {
            dipsandbox_core::base::text::one_line(c[k].as_str().unwrap_or("")).into_owned()
        };
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
    target
        .write(&xml)
        .map_err(|e| color_eyre::eyre::eyre!("{e}"))
}

/// A pairing file named on the command line: its text and its name.
pub(super) type Pairing = (String, String);

/// Reads the `--pairing` file, if one is named (`-`: standard input).
pub(super) fn read_pairing(path: Option<&Path>) -> Result<Option<Pairing>> {
    path.map(|p| {
        super::input::read_input(p)
            .map(|t| (t, super::input::input_name(p)))
            .map_err(|e| color_eyre::eyre::eyre!("--pairing {e}"))
    })
    .transpose()
}

/// The pairing file beside a jDip test file: `FILE.rules`.
pub(super) fn side_file(f: &Path) -> PathBuf {
    let mut side = f.as_os_str().to_owned();
    side.push(".rules");
    PathBuf::from(side)
}

/// A jDip test file, when `f` is one (by content; `.ron` files are scenarios). Its cases are
/// paired with rules from `pairing` when given, else from `FILE.rules` beside it.
pub(super) fn read_jdip(
    f: &Path,
    pairing: Option<&Pairing>,
) -> Option<dipsandbox_core::io::jdip::File> {
    if f.extension().is_some_and(|x| x == "ron") {
        return None;
    }
    let text = super::input::read_input(f).ok()?;
    if let Some(suite) =
        dipsandbox_core::io::jdip::order_parser_suite(&text, &super::input::input_name(f))
    {
        return Some(suite);
    }
    if !dipsandbox_core::io::jdip::looks_like_jdip(&text) {
        return None;
    }
    Some(parse_jdip(f, &text, pairing))
}

/// The cases of jDip test file `f`, whose text is `text`, paired with rules from `pairing` when
/// given, else from `FILE.rules` beside it (none for standard input).
pub(super) fn parse_jdip(
    f: &Path,
    text: &str,
    pairing: Option<&Pairing>,
) -> dipsandbox_core::io::jdip::File {
    parse_jdip_on(
        f,
        text,
        pairing,
        dipsandbox_core::model::map::Map::standard_arc(),
    )
}

/// [`parse_jdip`] on a given map (a variant's, for `import --map`).
pub(super) fn parse_jdip_on(
    f: &Path,
    text: &str,
    pairing: Option<&Pairing>,
    map: std::sync::Arc<dipsandbox_core::model::map::Map>,
) -> dipsandbox_core::io::jdip::File {
    let name = super::input::input_name(f);
    let mut jf = dipsandbox_core::io::jdip::parse(text, &name, map);
    // `FILE.rules` beside it pairs cases with the rules their expectations assume.
    match pairing {
        Some((text, name)) => dipsandbox_core::io::jdip::apply_rules_file(&mut jf, text, name),
        None if super::input::is_stdin(f) => {}
        None => {
            let side = side_file(f);
            // A side file that is there but cannot be read is said (its pairings would be
            // missed); one that is not there is no matter. It is a file the user did not name:
            // read only inside the jDip file's folder, never through a link that leads out.
            let dir = f.parent().unwrap_or(Path::new(""));
            let name = side
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if std::fs::symlink_metadata(&side).is_ok() {
                let read = dipsandbox_core::base::source::inside(dir, &name, "the rule pairings")
                    .map_err(|e| e.to_string())
                    .and_then(|p| {
                        dipsandbox_core::base::source::read_text(&p).map_err(|e| e.to_string())
                    });
                match read {
                    Ok(t) => dipsandbox_core::io::jdip::apply_rules_file(
                        &mut jf,
                        &t,
                        &side.display().to_string(),
                    ),
                    Err(e) => jf.problems.push(dipsandbox_core::io::jdip::Problem {
                        file: side.display().to_string(),
                        line: 1,
                        col: 1,
                        case: None,
                        message: format!("the rule pairings beside the file: {e}"),
                    }),
                }
            }
        }
    }
    jf
}
