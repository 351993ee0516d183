//! `import` and `export`: jDip test files to scenarios and back.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox::check::{compare, run};
use dipsandbox::jdip::export_case;
use dipsandbox::scenario::Scenario;

/// A file name for a case: `6.A.1`, `6.G.14-test-case-bounce…` (letters, digits, dots, dashes).
fn file_name(case: &str) -> String {
    let mut out = String::new();
    for c in case.chars() {
        if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches(|c| c == '-' || c == '.').to_string();
    if out.is_empty() { "case".into() } else { out }
}

/// `import FILE --to DIR`: one scenario per case; problems on stderr with their lines. Exit 0,
/// or 1 when some case could not be imported.
pub fn import(file: &Path, to: &Path, pairing: Option<&Path>, force: bool) -> Result<ExitCode> {
    let text = dipsandbox::source::read_text(file).map_err(|e| eyre!("{e}"))?;
    if !dipsandbox::jdip::looks_like_jdip(&text) {
        return Err(eyre!(
            "{}: not a jDip test file (expected CASE … END blocks)",
            file.display()
        ));
    }
    let pairing = super::check::read_pairing(pairing)?;
    let jf = super::check::read_jdip(file, pairing.as_ref())
        .ok_or_else(|| eyre!("{}: not a jDip test file", file.display()))?;
    std::fs::create_dir_all(to).map_err(|e| eyre!("{}: {e}", to.display()))?;
    // Every file name first, so that nothing is written when one of them may not be replaced.
    let mut used: Vec<String> = Vec::new();
    let mut paths = Vec::with_capacity(jf.cases.len());
    for c in &jf.cases {
        let mut name = file_name(&c.name);
        while used.contains(&name) {
            name.push_str("-2");
        }
        used.push(name.clone());
        let path = to.join(format!("{name}.ron"));
        dipsandbox::scenario::check_target(&path, force, "give --force to replace the files")
            .map_err(|e| eyre!("{e}"))?;
        paths.push(path);
    }
    for (c, path) in jf.cases.iter().zip(paths) {
        // Destroyed units the file leaves out of its dislodged list go into the scenario's
        // (checked: they had no retreat), so that `check` on the scenario agrees.
        let mut s = c.scenario.clone();
        if let Ok(r) = run(&s, None, false) {
            let (s2, notes) = dipsandbox::jdip::with_destroyed_units(&s, &r);
            for note in notes {
                errln!(
                    "{}: case {}: {note}",
                    file.display(),
                    dipsandbox::text::cut(&c.name)
                );
            }
            s = s2;
        }
        s.save(&path).map_err(|e| eyre!("{e}"))?;
        for w in &c.warnings {
            errln!(
                "{}: case {}: {w}",
                file.display(),
                dipsandbox::text::cut(&c.name)
            );
        }
    }
    for p in &jf.problems {
        errln!("{p}");
    }
    outln!(
        "{} case(s) written to {}{}",
        jf.cases.len(),
        to.display(),
        if jf.problems.is_empty() {
            String::new()
        } else {
            format!("; {} problem(s) reported", jf.problems.len())
        }
    )?;
    Ok(if jf.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `export --format jdip PATHS… [-o FILE]`: every scenario whose expectations its own rules meet
/// (or that has none) as a case; the expected position is the adjudicated one.
pub fn export(
    format: &str,
    paths: &[PathBuf],
    output: Option<&Path>,
    force: bool,
) -> Result<ExitCode> {
    if !format.eq_ignore_ascii_case("jdip") {
        return Err(eyre!("--format {format}: the formats are: jdip"));
    }
    if let Some(p) = output {
        dipsandbox::scenario::check_target(p, force, "give --force to replace it")
            .map_err(|e| eyre!("{e}"))?;
    }
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            return Err(eyre!("{}: no such file or folder", p.display()));
        }
        super::check::collect(p, &mut files).map_err(|e| eyre!("{}: {e}", p.display()))?;
    }
    let mut out =
        String::from("# Written by dipsandbox (jDip test-file format)\nVARIANT_ALL Standard\n");
    let (mut written, mut skipped) = (0, 0);
    for f in &files {
        let s = Scenario::load(f).map_err(|e| eyre!("{e}"))?;
        let r = run(&s, None, false).map_err(|e| eyre!("{}: {e}", f.display()))?;
        let (bad, _) = compare(&s, &r);
        if !bad.is_empty() {
            errln!(
                "{}: skipped: its expectations are not met under its own rules ({})",
                f.display(),
                bad[0]
            );
            skipped += 1;
            continue;
        }
        if s.retreats.is_some() {
            errln!(
                "{}: its follow-up retreat orders are left out (a jDip case has one phase)",
                f.display()
            );
        }
        let name = f
            .file_stem()
            .map_or_else(|| "case".into(), |n| n.to_string_lossy().into_owned());
        let dislodged: Vec<_> = r.phase.dislodged.iter().map(|d| d.unit).collect();
        out.push('\n');
        out.push_str(&export_case(&s, &name, &r.phase.final_units, &dislodged));
        written += 1;
    }
    match output {
        Some(p) => {
            dipsandbox::scenario::write_atomic(p, &out).map_err(|e| eyre!("{e}"))?;
            errln!(
                "{written} case(s) written to {}; {skipped} skipped",
                p.display()
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
