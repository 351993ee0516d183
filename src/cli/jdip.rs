//! `import` and `export`: jDip test files to scenarios and back.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::base::output::{Batch, Inputs};
use dipsandbox_core::io::jdip::{case_name, export_case};
use dipsandbox_core::tools::check::{compare, run};

/// The longest file name made from a case name, in bytes, before `-N` and `.ron`: far below the
/// 255 bytes file systems allow, so that a suffix always fits.
const MAX_NAME_BYTES: usize = 100;

/// Names Windows keeps for devices (`con.ron` is a device there too).
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// A file name for a case: `6.A.1`, `6.G.14-test-case-bounce…` (letters, digits, dots, dashes;
/// anything else becomes one dash), cut to at most [`MAX_NAME_BYTES`] bytes between two
/// characters.
fn file_name(case: &str) -> String {
    let mut out = String::new();
    for c in case.chars() {
        let c = if c.is_alphanumeric() || c == '.' || c == '-' {
            c
        } else if out.ends_with('-') {
            continue;
        } else {
            '-'
        };
        if out.len() + c.len_utf8() > MAX_NAME_BYTES {
            break;
        }
        out.push(c);
    }
    let out = out.trim_matches(|c| c == '-' || c == '.').to_string();
    if out.is_empty() {
        "case".into()
    } else if RESERVED.contains(&out.to_ascii_lowercase().as_str()) {
        format!("{out}-case")
    } else {
        out
    }
}

/// The file names of the cases, each unique (also where case does not count, as on macOS and
/// Windows): a second `same` is `same-2`, a third `same-3`, … In time linear in the cases: each
/// name remembers the next number to try.
fn file_names<'a>(cases: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    let mut next: HashMap<String, u64> = HashMap::new();
    let mut out = Vec::new();
    for case in cases {
        let base = file_name(case);
        let key = base.to_lowercase();
        let name = if used.insert(key.clone()) {
            base
        } else {
            let n = next.entry(key).or_insert(2);
            loop {
                let candidate = format!("{base}-{n}");
                *n += 1;
                if used.insert(candidate.to_lowercase()) {
                    break candidate;
                }
            }
        };
        out.push(format!("{name}.ron"));
    }
    out
}

/// `import FILE --to DIR`: one scenario per case, written all at once (every file, or none when
/// one cannot be); problems on stderr with their lines. Exit 0, or 1 when some case could not be
/// imported.
pub fn import(
    file: &Path,
    to: &Path,
    pairing: Option<&Path>,
    force: bool,
    map: Option<&str>,
) -> Result<ExitCode> {
    super::input::stdin_once([file].into_iter().chain(pairing))?;
    let map = variant_map(map)?;
    let name = super::input::input_name(file);
    let text = super::input::read_input(file).map_err(|e| eyre!("{e}"))?;
    if !dipsandbox_core::io::jdip::looks_like_jdip(&text) {
        return Err(eyre!(
            "{name}: not a jDip test file (expected CASE … END blocks)"
        ));
    }
    let pairing_text = super::check::read_pairing(pairing)?;
    let mut jf = match &map {
        None => super::check::parse_jdip(file, &text, pairing_text.as_ref()),
        Some((m, _)) => super::check::parse_jdip_on(file, &text, pairing_text.as_ref(), m.clone()),
    };
    if let Some((_, Some(path))) = &map {
        // The scenarios name the map by a path from the folder they are written to.
        for c in &mut jf.cases {
            c.scenario.map_file = Some(path.clone());
        }
    }
    let mut inputs = Inputs::new();
    inputs.add(file);
    inputs.add(&super::check::side_file(file));
    if let Some(p) = pairing {
        inputs.add(p);
    }
    // The map file read (`--map FILE`) is never replaced by a case.
    if let Some((_, Some(path))) = &map {
        inputs.add(path);
    }
    // Every file name first, and every target checked, so that nothing is written when one of
    // them may not be.
    let names = file_names(jf.cases.iter().map(|c| c.name.as_str()));
    let mut batch = Batch::begin(
        to,
        names,
        &inputs,
        force,
        "give --force to replace the files",
    )
    .map_err(|e| eyre!("{e}; no file was written"))?;
    for (i, c) in jf.cases.iter().enumerate() {
        // Destroyed units the file leaves out of its dislodged list go into the scenario's
        // (checked: they had no retreat), so that `check` on the scenario agrees.
        let mut s = c.scenario.clone();
        if let Ok(r) = run(&s, None, false) {
            let (s2, notes) = dipsandbox_core::io::jdip::with_destroyed_units(&s, &r);
            for note in notes {
                errln!(
                    "{name}: case {}: {note}",
                    dipsandbox_core::base::text::cut(&c.name)
                );
            }
            s = s2;
        }
        let text = s.placed_at(&batch.path(i)).to_ron();
        batch
            .add(&text)
            .map_err(|e| eyre!("{e}; no file was written"))?;
        for w in &c.warnings {
            errln!(
                "{name}: case {}: {w}",
                dipsandbox_core::base::text::cut(&c.name)
            );
        }
    }
    batch
        .commit()
        .map_err(|e| eyre!("{e}; no file was written"))?;
    for p in &jf.problems {
        errln!("{p}");
    }
    outln!(
        "{} written to {}{}",
        dipsandbox_core::base::text::count(jf.cases.len(), "case"),
        to.display(),
        if jf.problems.is_empty() {
            String::new()
        } else {
            format!(
                "; {} reported",
                dipsandbox_core::base::text::count(jf.problems.len(), "problem")
            )
        }
    )?;
    Ok(if jf.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The map `import --map` names (a file; NAME in maps/ of the current folder, the file
/// [`Map::locate`](dipsandbox_core::model::map::Map::locate) finds and
/// [`Map::load`](dipsandbox_core::model::map::Map::load) reads; else a built-in map) with its
/// file's canonical path (None for a built-in map: the scenarios name it); None for the standard
/// map.
fn variant_map(
    map: Option<&str>,
) -> Result<
    Option<(
        std::sync::Arc<dipsandbox_core::model::map::Map>,
        Option<std::path::PathBuf>,
    )>,
> {
    use dipsandbox_core::model::map::Map;
    let Some(name) = map.filter(|m| *m != "standard") else {
        return Ok(None);
    };
    let m = Map::load(name).map_err(|e| eyre!("--map {name}: {e}"))?;
    let file = match Map::locate(name) {
        Some(p) => Some(
            std::fs::canonicalize(p)
                .map_err(|e| eyre!("--map {name}: the map's file cannot be found again: {e}"))?,
        ),
        None => None,
    };
    Ok(Some((std::sync::Arc::new(m), file)))
}

/// `export --format jdip PATHS… [-o FILE]`: every scenario whose expectations its own rules meet
/// (or that has none) and that the format can hold (the standard map) as a case; the expected
/// position is the adjudicated one. Case names are the files' names, made safe for the format
/// and unique (each change said on stderr).
pub fn export(
    format: &str,
    paths: &[PathBuf],
    output: Option<&Path>,
    force: bool,
) -> Result<ExitCode> {
    if !format.eq_ignore_ascii_case("jdip") {
        return Err(eyre!("--format {format}: the formats are: jdip"));
    }
    let files = super::check::collect_all(paths)?;
    let mut target = match output {
        Some(p) => {
            let mut inputs = Inputs::new();
            inputs.add_all(files.iter().map(PathBuf::as_path));
            Some(super::input::target(p, inputs, force)?)
        }
        None => None,
    };
    let mut out =
        String::from("# Written by dipsandbox (jDip test-file format)\nVARIANT_ALL Standard\n");
    let (mut written, mut skipped) = (0, 0);
    let mut names: HashSet<String> = HashSet::new();
    let mut next: HashMap<String, u64> = HashMap::new();
    for f in &files {
        let shown = super::input::input_name(f);
        let s = super::input::load(f)?;
        if let (Some(t), Some(m)) = (&mut target, &s.map_file) {
            t.inputs.add(m);
        }
        let r = run(&s, None, false).map_err(|e| eyre!("{shown}: {e}"))?;
        let (bad, _) = compare(&s, &r);
        if !bad.is_empty() {
            errln!(
                "{shown}: skipped: its expectations are not met under its own rules ({})",
                bad[0]
            );
            skipped += 1;
            continue;
        }
        let stem = if super::input::is_stdin(f) {
            "stdin".to_string()
        } else {
            f.file_stem()
                .map_or_else(|| "case".into(), |n| n.to_string_lossy().into_owned())
        };
        let mut name = case_name(&stem);
        if name != stem {
            errln!(
                "{shown}: case named {name:?}: a jDip case name is one line without `#` (the file's name is {stem:?})"
            );
        }
        if !names.insert(name.clone()) {
            let n = next.entry(name.clone()).or_insert(2);
            let unique = loop {
                let candidate = format!("{name}-{n}");
                *n += 1;
                if names.insert(candidate.clone()) {
                    break candidate;
                }
            };
            errln!("{shown}: case named {unique:?}: another case is named {name:?}");
            name = unique;
        }
        let dislodged: Vec<_> = r.phase().dislodged.iter().map(|d| d.unit).collect();
        let case = match export_case(&s, &name, &r.phase().final_units, &dislodged) {
            Ok(c) => c,
            Err(e) => {
                errln!("{shown}: skipped: {e}");
                skipped += 1;
                continue;
            }
        };
        if s.retreats.is_some() {
            errln!(
                "{shown}: its follow-up retreat orders are left out (a jDip case has one phase)"
            );
        }
        out.push('\n');
        out.push_str(&case);
        written += 1;
    }
    match &target {
        Some(t) => {
            t.write(&out).map_err(|e| eyre!("{e}"))?;
            errln!(
                "{} written to {}; {skipped} skipped",
                dipsandbox_core::base::text::count(written, "case"),
                t.path.display()
            );
        }
        None => out!("{out}")?,
    }
    Ok(if skipped > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
