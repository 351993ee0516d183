//! `diff`: what a change of rules changes — two rule sets compared, every preset in a table, or
//! the options that decide each case of a folder.

use std::path::PathBuf;
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox::diff::{Decider, RuleDiff, deciders, diff, preset_table, verdict_word};
use dipsandbox::rules::Rules;

use super::load;

/// A rule set with the name the user gave it.
struct Named {
    name: String,
    rules: Rules,
}

fn named(spec: &str) -> Result<Named> {
    Ok(Named {
        name: spec.to_string(),
        rules: Rules::parse_spec(spec).map_err(|e| eyre!("--rules {spec}: {e}"))?,
    })
}

/// `diff`: exit 0 when nothing differs, 1 when something does, 2 when an input is bad.
pub fn run(paths: &[PathBuf], specs: &[String], all_presets: bool) -> Result<ExitCode> {
    if specs.len() > 2 {
        return Err(eyre!(
            "--rules is given at most twice (the scenario's own rules stand in for a missing one)"
        ));
    }
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            return Err(eyre!("{}: no such file or folder", p.display()));
        }
        super::check::collect(p, &mut files).map_err(|e| eyre!("{}: {e}", p.display()))?;
    }
    let folder = paths.iter().any(|p| p.is_dir()) || files.len() > 1;
    if all_presets {
        if !specs.is_empty() {
            return Err(eyre!(
                "--all-presets compares the presets: leave out --rules"
            ));
        }
        return table(&files);
    }
    if specs.is_empty() {
        return deciding(&files, folder);
    }
    let mut differs = false;
    for f in &files {
        let s = load(f)?;
        let own = Named {
            name: "own rules".into(),
            rules: s.rules,
        };
        let (a, b) = match specs {
            [b] => (own, named(b)?),
            [a, b] => (named(a)?, named(b)?),
            _ => return Err(eyre!("--rules is given at most twice")),
        };
        let d = diff(&s, a.rules, b.rules).map_err(|e| eyre!("{}: {e}", f.display()))?;
        differs |= !d.is_empty();
        print_diff(&f.display().to_string(), &s.title, &a.name, &b.name, &d);
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_diff(file: &str, title: &str, a: &str, b: &str, d: &RuleDiff) {
    if d.is_empty() {
        println!("{file} ({title}): {a} and {b} give the same result");
        return;
    }
    println!("{file} ({title}): {a} vs {b}: {} difference(s)", d.len());
    let w = a.chars().count().max(b.chars().count());
    let orders = |heading: &str, list: &[dipsandbox::diff::OrderDiff]| {
        if !list.is_empty() && !heading.is_empty() {
            println!("  {heading}");
        }
        for o in list {
            println!("  {}", o.order);
            for (name, (v, why)) in [(a, &o.a), (b, &o.b)] {
                println!("    {name:<w$}  {:<9}{why}", verdict_word(*v));
            }
        }
    };
    orders("", &d.orders);
    for (what, u) in [("dislodged", &d.dislodged), ("positions", &d.positions)] {
        if !u.only_a.is_empty() {
            println!("  {what} only under {a}: {}", u.only_a.join(", "));
        }
        if !u.only_b.is_empty() {
            println!("  {what} only under {b}: {}", u.only_b.join(", "));
        }
    }
    orders("retreats:", &d.retreats);
}

fn table(files: &[PathBuf]) -> Result<ExitCode> {
    let mut differs = false;
    for f in files {
        let s = load(f)?;
        let t = preset_table(&s).map_err(|e| eyre!("{}: {e}", f.display()))?;
        println!("{} ({})", f.display(), s.title);
        let w = t
            .rows
            .iter()
            .map(|(o, _)| o.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        let mut head = format!("  {:<w$}", "order");
        for p in &t.presets {
            head.push_str(&format!("  {p:<8}"));
        }
        println!("{}", head.trim_end());
        for (order, vs) in &t.rows {
            let mut line = format!("  {order:<w$}");
            for v in vs {
                line.push_str(&format!("  {:<8}", verdict_word(*v)));
            }
            let split = vs.windows(2).any(|p| p[0] != p[1]);
            differs |= split;
            if split {
                line.push_str("  ← differs");
            }
            println!("{}", line.trim_end());
        }
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn deciding(files: &[PathBuf], folder: bool) -> Result<ExitCode> {
    // Per option value: the cases it decides.
    let mut by_option: Vec<(String, &'static str, Vec<String>)> = Vec::new();
    let mut decided = 0;
    for f in files {
        let s = load(f)?;
        let ds: Vec<Decider> = deciders(&s).map_err(|e| eyre!("{}: {e}", f.display()))?;
        let name = f.file_stem().map_or_else(
            || f.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if ds.is_empty() {
            if !folder {
                println!(
                    "{} ({}): no single option changes the result",
                    f.display(),
                    s.title
                );
            }
            continue;
        }
        decided += 1;
        let list: Vec<String> = ds
            .iter()
            .map(|d| format!("{}={} ({})", d.field, d.value, d.changes))
            .collect();
        println!("{name}: {}", list.join(", "));
        for d in ds {
            let key = format!("{}={}", d.field, d.value);
            match by_option.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, cases)) => cases.push(name.clone()),
                None => by_option.push((key, d.issue, vec![name.clone()])),
            }
        }
    }
    if folder {
        println!();
        println!(
            "{decided} of {} case(s) change under a single option; by option:",
            files.len()
        );
        for (key, issue, cases) in &by_option {
            println!(
                "  {key} ({issue}): {} case(s): {}",
                cases.len(),
                cases.join(" ")
            );
        }
    }
    Ok(if decided > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
