//! The unit tests of the core's `tools::diff`.

use dipsandbox_core::tools::diff::hooks::{ADJUSTMENT_ONLY, LEGALITY_ONLY};

/// The library's source files (path, text).
fn sources() -> Vec<(std::path::PathBuf, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let p = entry.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&p).expect("read");
                out.push((p, text));
            }
        }
    }
    out
}

/// The options the core's `tools::diff::deciders` takes as read by the legality step only are
/// read, in the decision engine's movement phase, by no other module: the resolver, the
/// result's assembly, reasons and traces never mention them.
#[test]
fn legality_options_are_read_only_by_the_legality_step() {
    let files = sources();
    let movement = [
        "engine/outcome.rs",
        "engine/decision/adjudicator.rs",
        "engine/decision/resolver.rs",
        "engine/decision/reasons.rs",
        "engine/reason.rs",
        "engine/decision/trace.rs",
    ];
    let mut seen = 0;
    for (p, text) in &files {
        let path = p.to_string_lossy().replace('\\', "/");
        if !movement.iter().any(|m| path.ends_with(m)) {
            continue;
        }
        seen += 1;
        for f in LEGALITY_ONLY {
            assert!(
                !text.contains(&format!(".{f}")),
                "{} reads the option {f}",
                p.display()
            );
        }
    }
    assert_eq!(seen, movement.len(), "the modules were found");
    // And the legality step does read each of them.
    let legality = files
        .iter()
        .find(|(p, _)| p.ends_with("engine/legality.rs"))
        .expect("legality.rs");
    for f in LEGALITY_ONLY {
        assert!(legality.1.contains(&format!(".{f}")), "{f}");
    }
}

/// The options the core's `tools::diff::reads` skips outside adjustment phases are read by no
/// other module: every mention of `.field` in the library's source is in the adjustment
/// adjudicator or the rules themselves.
#[test]
fn adjustment_options_are_read_only_by_the_adjustment_adjudicator() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let mut stack = vec![root];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let p = entry.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            seen += 1;
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if matches!(name, "adjust.rs" | "rules.rs" | "diff.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("read");
            for f in ADJUSTMENT_ONLY {
                assert!(
                    !text.contains(&format!(".{f}")),
                    "{} reads the adjustment option {f}",
                    p.display()
                );
            }
        }
    }
    assert!(seen > 30, "the source was found");
}
