//! What the docs say of the code, checked against the code: the core's dependency list in
//! docs/ARCHITECTURE.md against `cargo metadata`, and every module map (the `//!` text of a
//! `lib.rs` or `mod.rs`) against the modules the file declares.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The core crate's direct dependencies (normal ones, every target), from `cargo metadata`.
fn core_dependencies() -> BTreeSet<String> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let core = v["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "dipsandbox-core"))
        .expect("the core package");
    core["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .filter(|d| d["kind"].is_null())
        .filter_map(|d| d["name"].as_str().map(String::from))
        .collect()
}

/// docs/ARCHITECTURE.md names every direct dependency of the core in its sentence "The core
/// depends on …", and no other crate there.
#[test]
fn the_architecture_lists_the_cores_dependencies() {
    let doc = std::fs::read_to_string("docs/ARCHITECTURE.md").expect("docs/ARCHITECTURE.md");
    let start = doc.find("The core depends on").expect("the sentence");
    let end = start + doc[start..].find("and nothing of").expect("its end");
    let named: BTreeSet<String> = doc[start..end]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect();
    assert_eq!(named, core_dependencies());
}

/// Every `lib.rs` and `mod.rs` under `dir`.
fn module_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            module_files(&p, out);
        } else if matches!(
            p.file_name().and_then(|n| n.to_str()),
            Some("lib.rs" | "mod.rs")
        ) {
            out.push(p);
        }
    }
}

/// Every module a `lib.rs` or `mod.rs` declares public is named in its module map (its `//!`
/// text, as `` [`name`] `` or `` `name` ``): a new module cannot hide from the map.
#[test]
fn every_module_map_names_its_modules() {
    let mut files = Vec::new();
    module_files(Path::new("crates/core/src"), &mut files);
    module_files(Path::new("src"), &mut files);
    assert!(files.len() > 10, "{files:?}");
    let mut missing = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let doc: String = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        for l in text.lines() {
            let Some(name) = l
                .trim()
                .strip_prefix("pub mod ")
                .and_then(|r| r.strip_suffix(';'))
            else {
                continue;
            };
            if !doc.contains(&format!("`{name}`")) {
                missing.push(format!("{}: {name}", f.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from their map: {missing:#?}"
    );
}

/// The module file (or folder's `mod.rs`) of `segs`, if there is one: under the app's `src` for
/// `cli` and `tui`, else under the core's.
fn module_file(segs: &[&str]) -> Option<PathBuf> {
    let root = match segs.first() {
        Some(&"cli" | &"tui") => "src",
        _ => "crates/core/src",
    };
    let mut p = PathBuf::from(root);
    for s in segs {
        p.push(s);
    }
    let file = p.with_extension("rs");
    if file.is_file() {
        return Some(file);
    }
    let m = p.join("mod.rs");
    m.is_file().then_some(m)
}

/// Every path from the top of a crate that README.md and docs/ cite in backquotes
/// (`engine::Reason`, `base::text::one_line`, `dipsandbox_core::tools::check`, `tui::app`) names
/// something that is there: a module, or an item the module declares or re-exports.
#[test]
fn the_paths_the_docs_cite_exist() {
    let mut files = vec![PathBuf::from("README.md")];
    for e in std::fs::read_dir("docs").expect("docs").flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            files.push(e.path());
        }
    }
    let mut cited = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        for quoted in text.split('`').skip(1).step_by(2) {
            let quoted = quoted.strip_prefix("dipsandbox_core::").unwrap_or(quoted);
            let segs: Vec<&str> = quoted.split("::").collect();
            let top = ["base", "model", "engine", "tools", "io", "cli", "tui"];
            if segs.len() >= 2
                && top.contains(&segs[0])
                && segs
                    .iter()
                    .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'))
            {
                cited.insert((f.display().to_string(), quoted.to_string()));
            }
        }
    }
    assert!(cited.len() >= 10, "{cited:?}");
    let mut missing = Vec::new();
    for (f, path) in &cited {
        let segs: Vec<&str> = path.split("::").collect();
        if module_file(&segs).is_some() {
            continue;
        }
        let (name, parent) = segs.split_last().expect("two segments");
        let found = module_file(parent).is_some_and(|m| {
            let text = std::fs::read_to_string(m).unwrap_or_default();
            ["fn", "struct", "enum", "type", "const", "trait", "static"]
                .iter()
                .any(|k| {
                    text.contains(&format!("pub {k} {name}("))
                        || text.contains(&format!("pub {k} {name} "))
                        || text.contains(&format!("pub {k} {name}<"))
                        || text.contains(&format!("pub {k} {name}:"))
                        || text.contains(&format!("pub {k} {name};"))
                })
                || text.split("pub use").skip(1).any(|u| {
                    u.split(';').next().is_some_and(|stmt| {
                        stmt.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .any(|w| w == *name)
                    })
                })
        });
        if !found {
            missing.push(format!("{f}: `{path}`"));
        }
    }
    assert!(
        missing.is_empty(),
        "cited paths that are not there: {missing:#?}"
    );
}

/// The CHANGELOG is in Keep a Changelog form: `## [Unreleased]` first, then one section per
/// version, newest first, the crate's own version among them (`## [0.1.0] - 2026-11-28`).
#[test]
fn the_changelog_has_the_crates_version() {
    let text = std::fs::read_to_string("CHANGELOG.md").expect("CHANGELOG.md");
    let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(heads.first(), Some(&"## [Unreleased]"), "{heads:?}");
    let version = format!("## [{}] - ", env!("CARGO_PKG_VERSION"));
    assert!(
        heads.iter().any(|h| h.starts_with(&version)),
        "no section for {}: {heads:?}",
        env!("CARGO_PKG_VERSION")
    );
    for h in heads.iter().skip(1) {
        let date = h.rsplit(" - ").next().unwrap_or("");
        assert!(
            date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
            "a version section names its date (YYYY-MM-DD): {h}"
        );
    }
}
