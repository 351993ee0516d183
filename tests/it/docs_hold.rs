//! What the docs say of the code, checked against the code: the core's dependency list in
//! docs/ARCHITECTURE.md against `cargo metadata`, every module map (the `//!` text of a `lib.rs`
//! or `mod.rs`) against the modules the file declares, the crate paths the docs cite, the
//! CHANGELOG's versions; and the docs against each other and the program: the README is a first
//! screen with the two set-up commands CI runs, every link of README.md and docs/ leads to a
//! file and heading that exist, docs/commands.md covers every command and flag of `--help`,
//! docs/tui.md's key tables are the bundled keymap, the scenario of docs/scenarios.md loads
//! and meets its expectations, and every repository file the docs cite is there.

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

/// README.md and every `.md` file of docs/.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    for e in std::fs::read_dir("docs").expect("docs").flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            files.push(e.path());
        }
    }
    files.sort();
    files
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for l in text.lines() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push(l);
        }
    }
    out
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and `_` kept, spaces
/// made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading's with `-1`, `-2`, … as GitHub
/// makes them).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for l in prose_lines(text) {
        let Some(h) = l.strip_prefix('#') else {
            continue;
        };
        let base = slug(h.trim_start_matches('#'));
        let mut a = base.clone();
        let mut n = 0;
        while seen.contains(&a) {
            n += 1;
            a = format!("{base}-{n}");
        }
        seen.insert(a);
    }
    seen
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code blocks
/// and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in prose_lines(text) {
        // Code spans are the odd pieces between backquotes; a link's text may be one.
        let mut prose = String::new();
        for (i, piece) in l.split('`').enumerate() {
            prose.push_str(if i % 2 == 0 { piece } else { "code" });
        }
        let mut rest = prose.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else {
                break;
            };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// README.md is a first screen: under 200 lines, with the two commands that do all the set-up
/// (`cargo run --release`, `cargo test`) in one shell block, and CI runs that same test command.
#[test]
fn the_readme_is_a_first_screen_with_the_two_commands() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a ```sh block");
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(commands, ["cargo run --release", "cargo test"], "{block}");
    let ci = std::fs::read_to_string(".ci/run").expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test"),
        ".ci/run runs the README's test command"
    );
    for doc in ["commands", "tui", "scenarios", "rules", "testing"] {
        assert!(
            readme.contains(&format!("](docs/{doc}.md)")),
            "README.md links docs/{doc}.md"
        );
    }
}

/// Every relative link of README.md and docs/*.md names a file that exists, and an anchor
/// (`file.md#heading`, `#heading`) names a heading of that file.
#[test]
fn every_relative_link_of_the_docs_leads_somewhere() {
    let files = markdown_files();
    assert!(files.len() > 10, "{files:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let dir = f.parent().unwrap_or(Path::new(""));
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                f.clone()
            } else {
                dir.join(path)
            };
            if !file.exists() {
                broken.push(format!(
                    "{}: ({target}): no {}",
                    f.display(),
                    file.display()
                ));
                continue;
            }
            if let Some(a) = anchor {
                let there = std::fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&there).contains(a) {
                    broken.push(format!("{}: ({target}): no heading #{a}", f.display()));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} links found");
    assert!(broken.is_empty(), "broken links: {broken:#?}");
}

/// The anchors the link check computes are GitHub's.
#[test]
fn heading_anchors_are_githubs() {
    assert_eq!(slug(" `diff PATH…`"), "diff-path");
    assert_eq!(slug(" The TUI, and `--print`"), "the-tui-and---print");
    assert_eq!(
        slug(" jDip's variant test cases"),
        "jdips-variant-test-cases"
    );
    let a = anchors("# A\n```\n# not a heading\n```\n## A\n");
    assert_eq!(a, BTreeSet::from(["a".to_string(), "a-1".to_string()]));
}

/// docs/commands.md has a section for every command `dipsandbox --help` lists (and those of
/// `map` and `versus`), and names every flag each one takes; every command has a help text.
#[test]
fn the_command_reference_covers_every_command_and_flag() {
    use clap::CommandFactory;
    let doc = std::fs::read_to_string("docs/commands.md").expect("docs/commands.md");
    let heads: Vec<&str> = doc.lines().filter(|l| l.starts_with("## ")).collect();
    let root = dipsandbox::cli::Cli::command();
    let mut missing = Vec::new();
    let mut seen = 0;
    let mut visit = |cmd: &clap::Command, path: &str| {
        seen += 1;
        if cmd.get_about().is_none() {
            missing.push(format!("`{path}` has no help text"));
        }
        if !path.is_empty() && !heads.iter().any(|h| h.contains(&format!("`{path}"))) {
            missing.push(format!("no section for `{path}`"));
        }
        for a in cmd.get_arguments() {
            if let Some(long) = a.get_long()
                && !["help", "version"].contains(&long)
                && !doc.contains(&format!("--{long}"))
            {
                missing.push(format!("`{path}`: --{long}"));
            }
        }
    };
    visit(&root, "");
    for sub in root.get_subcommands() {
        let name = sub.get_name().to_string();
        visit(sub, &name);
        for subsub in sub.get_subcommands() {
            visit(subsub, &format!("{name} {}", subsub.get_name()));
        }
    }
    assert!(seen > 15, "{seen} commands");
    assert!(missing.is_empty(), "docs/commands.md: {missing:#?}");
}

/// docs/tui.md's key tables are the bundled keymap (`src/tui/keys.ron`): each context's table
/// lists each of its actions with exactly its keys.
#[test]
fn the_key_tables_are_the_bundled_keymap() {
    let ron = std::fs::read_to_string("src/tui/keys.ron").expect("keys.ron");
    let doc = std::fs::read_to_string("docs/tui.md").expect("docs/tui.md");
    let mut context = None;
    let mut wrong = Vec::new();
    let mut rows = 0;
    for l in ron.lines().map(str::trim) {
        if let Some(name) = l.strip_prefix('"').and_then(|r| r.strip_suffix("\": {")) {
            context = Some(name);
            continue;
        }
        let (Some(ctx), Some((action, rest))) = (
            context,
            l.strip_prefix('"')
                .and_then(|r| r.split_once("\": (keys: [")),
        ) else {
            continue;
        };
        let keys: Vec<&str> = rest
            .split("],")
            .next()
            .unwrap_or("")
            .split('"')
            .skip(1)
            .step_by(2)
            .collect();
        let row = format!(
            "| {} | `{action}` |",
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        // The context's table: from its heading (`(`ctx`)`) to the next one.
        let table = doc
            .split(&format!("(`{ctx}`)\n"))
            .nth(1)
            .map(|t| t.split("\n**").next().unwrap_or(t));
        rows += 1;
        if !table.is_some_and(|t| t.lines().any(|r| r.starts_with(&row))) {
            wrong.push(format!("{ctx}: {row}"));
        }
    }
    assert!(rows > 80, "{rows} bindings read from keys.ron");
    assert!(wrong.is_empty(), "docs/tui.md lacks: {wrong:#?}");
}

/// The complete example of docs/scenarios.md loads, and adjudicated meets every expectation it
/// writes.
#[test]
fn the_scenario_example_loads_and_meets_its_expectations() {
    let doc = std::fs::read_to_string("docs/scenarios.md").expect("docs/scenarios.md");
    let example = doc
        .split("```ron\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a ```ron block");
    let s = dipsandbox_core::model::scenario::Scenario::from_ron(example, "docs/scenarios.md")
        .expect("the example loads");
    let run = dipsandbox_core::tools::check::run(&s, None, false).expect("it adjudicates");
    let (failures, checked) = dipsandbox_core::tools::check::compare(&s, &run);
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(checked >= 6, "{checked} expectations checked");
}

/// Every file or folder of the repository that README.md and docs/ cite in backquotes
/// outside code blocks (`tests/it/pty.rs`, `scenarios/allhold/`) is there; a placeholder in
/// capitals (`fuzz/corpus/TARGET/`, `maps/NAME.ron`) or a pattern (`*`) stands for many and is
/// not looked up.
#[test]
fn the_files_the_docs_cite_exist() {
    let tops = [
        "tests/",
        "src/",
        "crates/",
        "benches/",
        "scenarios/",
        "maps/",
        "examples/",
        "adapters/",
        "fuzz/",
        "docs/",
        ".ci/",
    ];
    let mut cited = BTreeSet::new();
    for f in markdown_files() {
        let text = std::fs::read_to_string(&f).expect("readable");
        let prose = prose_lines(&text).join("\n");
        for quoted in prose.split('`').skip(1).step_by(2) {
            for word in quoted.split_whitespace() {
                let w = word.trim_matches(|c: char| "(),;:".contains(c));
                let placeholder = w.contains('*')
                    || w.split('/').any(|s| {
                        let stem = s.split('.').next().unwrap_or(s);
                        stem.len() > 1 && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                    });
                if tops.iter().any(|t| w.starts_with(t))
                    && !placeholder
                    && w.chars().all(|c| c.is_alphanumeric() || "/._-".contains(c))
                {
                    cited.insert((f.display().to_string(), w.to_string()));
                }
            }
        }
    }
    assert!(cited.len() > 50, "{} paths cited", cited.len());
    let missing: Vec<String> = cited
        .iter()
        .filter(|(_, p)| !Path::new(p).exists())
        .map(|(f, p)| format!("{f}: `{p}`"))
        .collect();
    assert!(
        missing.is_empty(),
        "cited files that are not there: {missing:#?}"
    );
}

/// The README's picture of the TUI is what the TUI draws: the built-in scenario at 100×30 after
/// the keys the README names (`2`, `g`, `]`).
#[test]
fn the_readmes_picture_is_what_the_tui_draws() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let start = readme.find("```text\n").expect("a picture") + "```text\n".len();
    let len = readme[start..].find("```").expect("its end");
    let picture: Vec<&str> = readme[start..start + len].lines().collect();
    let mut a = crate::common::app(None, "readme-picture");
    let screen = crate::common::text(&crate::common::run(&mut a, 100, 30, "2 g ]"));
    let screen: Vec<&str> = screen.lines().collect();
    assert_eq!(picture, screen, "README.md's picture (keys: 2 g ])");
}
