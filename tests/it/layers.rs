//! The shape of the code, checked: the core crate depends on no terminal, command-line or report
//! crate (from `Cargo.lock`, so a crate pulled in through another one counts too); inside each
//! crate no module imports one from a layer above its own, and no file imports, directly or
//! through others, a file that imports it back (no import circles). Imports are read from the
//! source text: `crate::` and `super::` paths, and a module's paths into its own children.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates an embedder of the core must not have to compile.
const NOT_IN_CORE: [&str; 8] = [
    "ratatui",
    "crossterm",
    "clap",
    "clap_complete",
    "color-eyre",
    "directories",
    "signal-hook",
    "quick-junit",
];

/// The core's layers, bottom up.
const CORE_LAYERS: [&str; 5] = ["base", "model", "engine", "tools", "io"];

#[test]
fn the_core_crate_depends_on_no_terminal_cli_or_report_crate() {
    let lock = std::fs::read_to_string("Cargo.lock").expect("Cargo.lock at the repository root");
    // Package name -> its dependency names, from the lock file's [[package]] tables.
    let mut deps: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for block in lock.split("[[package]]").skip(1) {
        let mut name = None;
        let mut list = Vec::new();
        let mut in_deps = false;
        for line in block.lines() {
            let line = line.trim();
            if let Some(n) = line.strip_prefix("name = ") {
                name = Some(n.trim_matches('"').to_string());
            } else if line.starts_with("dependencies = [") {
                in_deps = true;
            } else if in_deps && line.starts_with(']') {
                in_deps = false;
            } else if in_deps {
                // `"name"`, `"name 1.2.3"` or `"name 1.2.3 (registry+…)"`.
                let d = line.trim_matches(|c| c == '"' || c == ',');
                let d = d.split(' ').next().unwrap_or(d);
                list.push(d.to_string());
            }
        }
        if let Some(n) = name {
            deps.entry(n).or_default().extend(list);
        }
    }
    assert!(
        deps.contains_key("dipsandbox-core"),
        "the core is in the lock file"
    );
    assert!(
        deps["dipsandbox"].iter().any(|d| d == "ratatui"),
        "the lock file was read: the app depends on ratatui"
    );
    // Everything the core reaches (its dev-dependencies included: the lock file does not tell
    // them apart, which only makes the check stricter).
    let mut seen = BTreeSet::new();
    let mut stack = vec!["dipsandbox-core".to_string()];
    while let Some(p) = stack.pop() {
        if seen.insert(p.clone()) {
            stack.extend(deps.get(&p).into_iter().flatten().cloned());
        }
    }
    for banned in NOT_IN_CORE {
        assert!(
            !seen.contains(banned),
            "dipsandbox-core reaches {banned} (cargo tree -p dipsandbox-core -i {banned})"
        );
    }
}

/// A source file as a module: its path from the crate's `src/` and its module path.
struct Module {
    file: PathBuf,
    path: Vec<String>,
    text: String,
}

/// The crate's modules, one per `.rs` file under `src`.
fn modules(src: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("readable folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(src).expect("under src");
                let mut path: Vec<String> = rel
                    .with_extension("")
                    .iter()
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect();
                if path
                    .last()
                    .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
                {
                    path.pop();
                }
                let text = std::fs::read_to_string(&p).expect("readable");
                out.push(Module {
                    file: rel.to_path_buf(),
                    path,
                    text,
                });
            }
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// The code of a file without comments and without its test module (`#[cfg(test)]` to the end:
/// tests may reach anywhere).
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The module a path means from module `own`: `crate::a::b…`, `super::a…`, `self::a…` or a
/// path into one of `own`'s child modules (`use resolver::…` in a `mod.rs`), resolved to the
/// longest module path that exists (`super::Item` is the parent itself). `None` for paths that
/// lead outside the crate (`std::…`, `ron::…`, a local `x::y`).
fn resolve(own: &[String], segs: &[&str], mods: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let (mut base, rest): (Vec<String>, &[&str]) = match *segs.first()? {
        "crate" => (Vec::new(), &segs[1..]),
        "super" => (own[..own.len().saturating_sub(1)].to_vec(), &segs[1..]),
        "self" => (own.to_vec(), &segs[1..]),
        first => {
            let mut child = own.to_vec();
            child.push(first.to_string());
            if !mods.contains(&child) {
                return None;
            }
            (own.to_vec(), segs)
        }
    };
    let mut found = base.clone();
    for s in rest {
        base.push((*s).to_string());
        if mods.contains(&base) {
            found = base.clone();
        }
    }
    mods.contains(&found).then_some(found)
}

/// The modules of `mods` that file `m` imports (its test module left out).
fn imports(m: &Module, mods: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let code = code(&m.text);
    let bytes = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = BTreeSet::new();
    let mut add = |segs: &[&str]| {
        if let Some(t) = resolve(&m.path, segs, mods)
            && t != m.path
        {
            out.insert(t);
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        if !(ident(bytes[i]) && (i == 0 || !ident(bytes[i - 1]) && bytes[i - 1] != b':')) {
            i += 1;
            continue;
        }
        // A maximal run `a::b::c`.
        let start = i;
        let mut j = i;
        let end = loop {
            while j < bytes.len() && ident(bytes[j]) {
                j += 1;
            }
            if code[j..].starts_with("::") && j + 2 < bytes.len() && ident(bytes[j + 2]) {
                j += 2;
            } else {
                break j;
            }
        };
        let segs: Vec<&str> = code[start..end].split("::").collect();
        i = end.max(i + 1);
        if code[end..].starts_with("::{") {
            // A group: the prefix, and each first-level name in the braces joined to it.
            add(&segs);
            let inner = &code[end + 3..];
            let mut depth = 0usize;
            let mut item = String::new();
            for c in inner.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item.clear(),
                    c if depth == 0 && (c.is_alphanumeric() || c == '_' || c == ':') => {
                        item.push(c)
                    }
                    _ => {}
                }
                if depth == 0 && !item.is_empty() {
                    let mut path = segs.clone();
                    path.extend(item.split("::").filter(|s| !s.is_empty()));
                    add(&path);
                }
            }
        } else if segs.len() >= 2 {
            add(&segs);
        }
    }
    out
}

/// Module path -> the modules it imports.
type Graph = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// The import graph of one crate.
fn graph(src: &Path) -> (Vec<Module>, Graph) {
    let mods = modules(src);
    let names: BTreeSet<Vec<String>> = mods.iter().map(|m| m.path.clone()).collect();
    let mut g = BTreeMap::new();
    for m in &mods {
        g.insert(m.path.clone(), imports(m, &names));
    }
    (mods, g)
}

/// The modules that lie on an import circle (each reaches itself), with the imports that
/// lead back to it.
fn circles(g: &Graph) -> Vec<String> {
    let reach = |from: &Vec<String>| {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&Vec<String>> = g[from].iter().collect();
        while let Some(k) = stack.pop() {
            if seen.insert(k.clone()) {
                stack.extend(g.get(k).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> =
        g.keys().map(|k| (k, reach(k))).collect();
    g.iter()
        .filter(|(k, _)| reaches[k].contains(*k))
        .map(|(k, v)| {
            let back: Vec<String> = v
                .iter()
                .filter(|t| reaches.get(t).is_some_and(|r| r.contains(k)))
                .map(|t| t.join("::"))
                .collect();
            format!("{} -> {}", k.join("::"), back.join(", "))
        })
        .collect()
}

#[test]
fn the_core_has_no_import_circles_and_no_upward_imports() {
    let (mods, g) = graph(Path::new("crates/core/src"));
    assert!(mods.len() > 30, "the core's files were found");
    assert!(
        g[&vec!["tools".to_string(), "check".to_string()]].contains(&vec!["engine".to_string()]),
        "imports are read: tools::check imports the engine"
    );
    let rank = |p: &Vec<String>| {
        p.first()
            .and_then(|l| CORE_LAYERS.iter().position(|x| x == l))
    };
    let mut upward = Vec::new();
    for (from, targets) in &g {
        for t in targets {
            if let (Some(a), Some(b)) = (rank(from), rank(t))
                && b > a
            {
                upward.push(format!("{} -> {}", from.join("::"), t.join("::")));
            }
        }
    }
    assert!(upward.is_empty(), "imports from a layer above: {upward:#?}");
    let c = circles(&g);
    assert!(c.is_empty(), "import circles in the core: {c:#?}");
}

#[test]
fn the_app_has_no_import_circles() {
    let (mods, g) = graph(Path::new("src"));
    assert!(mods.len() > 20, "the app's files were found");
    let c = circles(&g);
    assert!(c.is_empty(), "import circles in the app: {c:#?}");
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let a = vec!["a".to_string()];
    let b = vec!["b".to_string()];
    let c = vec!["c".to_string()];
    let mut g = BTreeMap::new();
    g.insert(a.clone(), BTreeSet::from([b.clone()]));
    g.insert(b.clone(), BTreeSet::from([a.clone()]));
    g.insert(c.clone(), BTreeSet::from([a.clone()]));
    let found = circles(&g);
    assert_eq!(found, vec!["a -> b".to_string(), "b -> a".to_string()]);
}
