//! `minimize`: the smallest part of a scenario that keeps the given properties.

use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox::minimize::{Goal, Pass, Property, Size, Step, minimize};
use dipsandbox::rules::Rules;

use super::load;

fn rules(spec: &str) -> Result<Rules> {
    Rules::parse_spec(spec).map_err(|e| eyre!("--rules {spec}: {e}"))
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `26 units, 26 orders`, and how many orders were made holds.
fn size(s: Size) -> String {
    let mut out = format!("{}, {}", count(s.units, "unit"), count(s.orders, "order"));
    match s.simplified {
        0 => {}
        1 => out.push_str(" (1 made a hold)"),
        n => out.push_str(&format!(" ({n} made holds)")),
    }
    out
}

/// One progress line: `units 26 → 13 (orders 26 → 13)`, `orders 13 → 6`, `hold: … → …`.
fn step_line(step: &Step) -> String {
    let (b, a) = (step.before, step.after);
    match &step.pass {
        Pass::Units if a.orders != b.orders => format!(
            "units {} → {} (orders {} → {})",
            b.units, a.units, b.orders, a.orders
        ),
        Pass::Units => format!("units {} → {}", b.units, a.units),
        Pass::Orders => format!("orders {} → {}", b.orders, a.orders),
        Pass::Hold { from, to } => format!("hold: {from} → {to}"),
    }
}

/// `minimize`: progress on stderr, then what was kept, the sizes and where the result went
/// (stdout; stderr when the scenario itself goes to stdout).
pub fn run(
    file: &Path,
    keep: &[String],
    specs: &[String],
    output: Option<&Path>,
    force: bool,
) -> Result<ExitCode> {
    let s = load(file)?;
    if let Some(out) = output {
        dipsandbox::scenario::check_target(out, force, "give --force to overwrite it")
            .map_err(|e| eyre!("{e}"))?;
    }
    let keep: Vec<Property> = keep
        .iter()
        .map(|k| Property::parse(&s.map, k))
        .collect::<Result<_, _>>()
        .map_err(|e| eyre!("--keep {e}"))?;
    let differs = keep.contains(&Property::Differs);
    let (rules_in_use, other) = match (specs, differs) {
        ([], _) => (s.rules, None),
        ([b], true) => (s.rules, Some(rules(b)?)),
        ([a], false) => (rules(a)?, None),
        ([a, b], true) => (rules(a)?, Some(rules(b)?)),
        ([_, _], false) => {
            return Err(eyre!(
                "--rules is given twice only with --keep differs (the two rule sets it compares)"
            ));
        }
        _ => return Err(eyre!("--rules is given at most twice")),
    };
    let goal = Goal {
        keep,
        rules: rules_in_use,
        other,
    };
    let started = std::time::Instant::now();
    let mut m = minimize(&s, &goal, &mut |step| errln!("{}", step_line(step)))
        .map_err(|e| eyre!("{}: {e}", file.display()))?;
    m.scenario.description = format!("From {}. {}", file.display(), m.scenario.description);
    let mut summary = String::new();
    for w in &m.witness {
        summary.push_str(&format!("kept: {w}\n"));
    }
    summary.push_str(&format!(
        "minimized: {} → {} ({} runs, {} ms)",
        size(m.before),
        size(m.after),
        m.runs,
        started.elapsed().as_millis()
    ));
    match output {
        Some(path) => {
            m.scenario.save(path).map_err(|e| eyre!("{e}"))?;
            outln!("{summary}")?;
            outln!("written to {}", path.display())?;
        }
        None => {
            errln!("{summary}");
            out!("{}", m.scenario.to_ron())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
