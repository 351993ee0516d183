//! `diff`: what a change of rules changes — two rule sets compared, every preset in a table, or
//! the options that decide each case of a folder.

use std::path::PathBuf;
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};
use serde_json::{Value, json};

use dipsandbox_core::base::text::one_line;
use std::sync::Arc;

use dipsandbox_core::engine::Engine;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::diff::{
    Decider, RuleDiff, deciders, diff, diff_engines, preset_comparison, verdict_word,
};

use super::input::load;

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
pub fn run(
    paths: &[PathBuf],
    specs: &[String],
    all_presets: bool,
    engines: Option<(Arc<dyn Engine>, Arc<dyn Engine>)>,
    json: bool,
) -> Result<ExitCode> {
    if specs.len() > 2 {
        return Err(eyre!(
            "--rules is given at most twice (the scenario's own rules stand in for a missing one)"
        ));
    }
    let files = super::check::collect_all(paths)?;
    let folder = paths.iter().any(|p| p.is_dir()) || files.len() > 1;
    if all_presets {
        if !specs.is_empty() {
            return Err(eyre!(
                "--all-presets compares the presets: leave out --rules"
            ));
        }
        return table(&files, json);
    }
    if let Some((a, b)) = engines {
        let rules = match specs {
            [] => None,
            [r] => Some(named(r)?.rules),
            _ => {
                return Err(eyre!(
                    "--engines compares the engines under one rule set: give --rules at most once"
                ));
            }
        };
        return engine_table(&files, rules, folder, json, &*a, &*b);
    }
    if specs.is_empty() {
        return deciding(&files, folder, json);
    }
    let mut differs = false;
    let mut docs = Vec::new();
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
        if json {
            docs.push(diff_json(
                &f.display().to_string(),
                &s.title,
                &a.name,
                &b.name,
                &d,
            ));
        } else {
            print_diff(&f.display().to_string(), &s.title, &a.name, &b.name, &d)?;
        }
    }
    if json {
        super::out::json(&json!({ "schema": "dipsandbox.diff/1", "cases": docs }))?;
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// An engine's title without its parenthesis: `the decision model`.
fn short_title(e: &dyn Engine) -> &str {
    let t = e.title();
    t.split_once(" (").map_or(t, |(head, _)| head)
}

/// `diff --engines`: per file, what two engines (the decision model and the DPjudge procedure,
/// by default) disagree on; over a folder, a table of the cases they disagree on
/// (docs/dpjudge.md explains each for the built-in pair).
fn engine_table(
    files: &[PathBuf],
    rules: Option<Rules>,
    folder: bool,
    json: bool,
    ea: &dyn Engine,
    eb: &dyn Engine,
) -> Result<ExitCode> {
    let (a, b) = (ea.name(), eb.name());
    let mut docs = Vec::new();
    let mut rows: Vec<(String, String, usize, usize, usize)> = Vec::new();
    let mut compared = 0;
    for f in files {
        let s = load(f)?;
        if s.phase.kind != dipsandbox_core::model::board::PhaseKind::Movement {
            // The engines share retreats and adjustments.
            continue;
        }
        compared += 1;
        let d = diff_engines(&s, rules, ea, eb).map_err(|e| eyre!("{}: {e}", f.display()))?;
        if json {
            docs.push(diff_json(&f.display().to_string(), &s.title, a, b, &d));
        } else if !folder {
            print_diff(&f.display().to_string(), &s.title, a, b, &d)?;
        }
        if !d.is_empty() {
            rows.push((
                case_name(f),
                s.title.clone(),
                d.orders.len() + d.retreats.len(),
                d.dislodged.only_a.len() + d.dislodged.only_b.len(),
                d.positions.only_a.len() + d.positions.only_b.len(),
            ));
        }
    }
    if json {
        super::out::json(
            &json!({ "schema": "dipsandbox.engines/1", "a": a, "b": b, "cases": docs }),
        )?;
    } else if folder {
        let w = rows
            .iter()
            .map(|r| r.0.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut first = short_title(ea).to_string();
        if let Some(c) = first.get(..1) {
            let upper = c.to_uppercase();
            first.replace_range(..1, &upper);
        }
        if rows.is_empty() {
            outln!(
                "{first} and {} agree on all {compared} movement cases: every order's verdict, the dislodged units and the positions.",
                short_title(eb)
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        outln!(
            "{first} and {} disagree on {} of {compared} movement cases:",
            short_title(eb),
            rows.len()
        )?;
        outln!("  {:<w$}  orders  dislodged  positions  title", "case")?;
        for (name, title, o, d, p) in &rows {
            let title = one_line(title);
            outln!("  {name:<w$}  {o:>6}  {d:>9}  {p:>9}  {title}")?;
        }
        let builtin = |n: &str| {
            dipsandbox_core::engine::Registry::builtin()
                .get(n)
                .is_some()
        };
        if builtin(a) && builtin(b) {
            // Each built-in engine other than the decision model has its page of departures.
            let page = if a == "guess" || b == "guess" {
                "docs/guess.md"
            } else {
                "docs/dpjudge.md"
            };
            outln!(
                "(why, case by case: {page}; one case: dipsandbox diff FILE --engines={a},{b})"
            )?;
        } else {
            // An outside engine: docs/outside-engines.md explains the diplomacy crate's rows.
            outln!(
                "(one case: dipsandbox diff FILE --engines=A,B; outside engines: docs/outside-engines.md)"
            )?;
        }
    }
    Ok(if rows.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn order_json(list: &[dipsandbox_core::tools::diff::OrderDiff]) -> Vec<Value> {
    list.iter()
        .map(|o| {
            json!({
                "index": o.index,
                "order": o.order,
                "a": { "verdict": verdict_word(o.a.0), "reason": o.a.1 },
                "b": { "verdict": verdict_word(o.b.0), "reason": o.b.1 },
            })
        })
        .collect()
}

fn diff_json(file: &str, title: &str, a: &str, b: &str, d: &RuleDiff) -> Value {
    json!({
        "file": file,
        "title": title,
        "a": a,
        "b": b,
        "same": d.is_empty(),
        "orders": order_json(&d.orders),
        "dislodged": { "only_a": d.dislodged.only_a, "only_b": d.dislodged.only_b },
        "positions": { "only_a": d.positions.only_a, "only_b": d.positions.only_b },
        "retreats": order_json(&d.retreats),
    })
}

fn print_diff(
    file: &str,
    title: &str,
    a: &str,
    b: &str,
    d: &RuleDiff,
) -> Result<(), super::out::StdoutError> {
    let title = one_line(title);
    if d.is_empty() {
        outln!("{file} ({title}): {a} and {b} give the same result")?;
        return Ok(());
    }
    outln!(
        "{file} ({title}): {a} vs {b}: {}",
        dipsandbox_core::base::text::count(d.len(), "difference")
    )?;
    let w = a.chars().count().max(b.chars().count());
    let orders = |heading: &str,
                  list: &[dipsandbox_core::tools::diff::OrderDiff]|
     -> Result<(), super::out::StdoutError> {
        if !list.is_empty() && !heading.is_empty() {
            outln!("  {heading}")?;
        }
        for o in list {
            outln!("  {}", o.order)?;
            for (name, (v, why)) in [(a, &o.a), (b, &o.b)] {
                outln!("    {name:<w$}  {:<9}{why}", verdict_word(*v))?;
            }
        }
        Ok(())
    };
    orders("", &d.orders)?;
    for (what, u) in [("dislodged", &d.dislodged), ("positions", &d.positions)] {
        if !u.only_a.is_empty() {
            outln!("  {what} only under {a}: {}", u.only_a.join(", "))?;
        }
        if !u.only_b.is_empty() {
            outln!("  {what} only under {b}: {}", u.only_b.join(", "))?;
        }
    }
    orders("retreats:", &d.retreats)
}

/// A case's short name: its file name without `.ron`.
fn case_name(f: &std::path::Path) -> String {
    f.file_stem().map_or_else(
        || f.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn table(files: &[PathBuf], json: bool) -> Result<ExitCode> {
    let mut differs = false;
    let mut docs = Vec::new();
    // Per preset other than the first (the DATC preferences): the cases whose result (verdicts,
    // dislodgements, positions, retreats) it changes.
    let datc = Rules::default();
    let others: Vec<&'static str> = dipsandbox_core::model::rules::PRESETS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| Rules::preset(n) != Some(datc))
        .collect();
    let mut changed: Vec<Vec<String>> = vec![Vec::new(); others.len()];
    for f in files {
        let s = load(f)?;
        let c = preset_comparison(&s).map_err(|e| eyre!("{}: {e}", f.display()))?;
        for (k, p) in others.iter().enumerate() {
            let d = c.changes.iter().find(|(name, _)| name == p);
            if d.is_some_and(|(_, d)| !d.is_empty()) {
                changed[k].push(case_name(f));
                differs = true;
            }
        }
        let t = c.table;
        let splits: Vec<bool> = t
            .rows
            .iter()
            .map(|(_, vs)| vs.windows(2).any(|p| p[0] != p[1]))
            .collect();
        differs |= splits.contains(&true);
        if json {
            let rows: Vec<Value> = t
                .rows
                .iter()
                .zip(&splits)
                .map(|((o, vs), split)| {
                    json!({
                        "order": o,
                        "verdicts": vs.iter().map(|v| verdict_word(*v)).collect::<Vec<_>>(),
                        "differs": split,
                    })
                })
                .collect();
            docs.push(json!({
                "file": f.display().to_string(),
                "title": s.title,
                "presets": t.presets,
                "rows": rows,
            }));
            continue;
        }
        outln!("{} ({})", f.display(), one_line(&s.title))?;
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
        outln!("{}", head.trim_end())?;
        if t.rows.is_empty() {
            outln!("  (no orders)")?;
        }
        for ((order, vs), split) in t.rows.iter().zip(&splits) {
            let mut line = format!("  {order:<w$}");
            for v in vs {
                line.push_str(&format!("  {:<8}", verdict_word(*v)));
            }
            if *split {
                line.push_str("  ← differs");
            }
            outln!("{}", line.trim_end())?;
        }
    }
    if json {
        let summary: serde_json::Map<String, Value> = others
            .iter()
            .zip(&changed)
            .map(|(p, cases)| (p.to_string(), json!(cases)))
            .collect();
        super::out::json(
            &json!({ "schema": "dipsandbox.presets/1", "cases": docs, "changed": summary }),
        )?;
    } else if files.len() > 1 {
        outln!(
            "\nThe cases each preset changes against the DATC preferences (verdicts, dislodgements, positions):"
        )?;
        for (p, cases) in others.iter().zip(&changed) {
            let list = if cases.is_empty() {
                "none".to_string()
            } else {
                cases.join(" ")
            };
            outln!("  {p:<5} ({:>3}): {list}", cases.len())?;
        }
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn deciding(files: &[PathBuf], folder: bool, json: bool) -> Result<ExitCode> {
    // Each case's deciders, computed once; then printed as JSON or text.
    let mut found: Vec<(&PathBuf, String, Vec<Decider>)> = Vec::new();
    for f in files {
        let s = load(f)?;
        let ds = deciders(&s).map_err(|e| eyre!("{}: {e}", f.display()))?;
        found.push((f, s.title, ds));
    }
    let decided = found.iter().filter(|(_, _, ds)| !ds.is_empty()).count();
    let code = if decided > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if json {
        let docs: Vec<Value> = found
            .iter()
            .map(|(f, title, ds)| {
                let list: Vec<Value> = ds
                    .iter()
                    .map(|d| {
                        json!({
                            "field": d.field, "value": d.value, "issue": d.issue, "changes": d.changes,
                        })
                    })
                    .collect();
                json!({ "file": f.display().to_string(), "title": title, "deciders": list })
            })
            .collect();
        super::out::json(&json!({ "schema": "dipsandbox.deciders/1", "cases": docs }))?;
        return Ok(code);
    }
    // Per option value: the cases it decides.
    let mut by_option: Vec<(String, &'static str, Vec<String>)> = Vec::new();
    for (f, title, ds) in &found {
        let name = case_name(f);
        if ds.is_empty() {
            if !folder {
                outln!(
                    "{} ({}): no single option changes the result",
                    f.display(),
                    one_line(title)
                )?;
            }
            continue;
        }
        let list: Vec<String> = ds
            .iter()
            .map(|d| format!("{}={} ({})", d.field, d.value, d.changes))
            .collect();
        outln!("{name}: {}", list.join(", "))?;
        for d in ds {
            let key = format!("{}={}", d.field, d.value);
            match by_option.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, cases)) => cases.push(name.clone()),
                None => by_option.push((key, d.issue, vec![name.clone()])),
            }
        }
    }
    if folder {
        outln!()?;
        outln!(
            "{decided} of {} change under a single option; by option:",
            dipsandbox_core::base::text::count(files.len(), "case")
        )?;
        for (key, issue, cases) in &by_option {
            outln!(
                "  {key} ({issue}): {}: {}",
                dipsandbox_core::base::text::count(cases.len(), "case"),
                cases.join(" ")
            )?;
        }
    }
    Ok(code)
}
