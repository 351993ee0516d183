//! `explain`: every outcome with its reason; optionally the resolver's trace and the decision
//! graph as Graphviz DOT.

use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr, eyre};

use dipsandbox::adjudicator::graphviz::to_dot;
use dipsandbox::check::{compare, run};
use dipsandbox::report;
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

/// `explain`: the position, then the adjudication.
pub fn explain(
    s: &Scenario,
    rules: Option<Rules>,
    trace: bool,
    dot: Option<&Path>,
) -> Result<ExitCode> {
    print!("{}", report::position(s));
    println!();
    adjudicate_and_print(s, rules, trace, dot)?;
    Ok(ExitCode::SUCCESS)
}

/// Adjudicates and prints the results, the position after, the trace and DOT when asked, and
/// whether the expectations are met.
pub fn adjudicate_and_print(
    s: &Scenario,
    rules: Option<Rules>,
    trace: bool,
    dot: Option<&Path>,
) -> Result<()> {
    let r = run(s, rules, trace).map_err(|e| eyre!("{e}"))?;
    if rules.is_some() {
        let ov = r.rules.overrides();
        let text: Vec<String> = ov.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!(
            "Rules from the command line: {}\n",
            if text.is_empty() {
                "DATC v3.0 preferences".to_string()
            } else {
                text.join(", ")
            }
        );
    }
    let is_movement = r.movement.is_some();
    print!(
        "{}",
        report::outcomes(&s.map, "Results", &s.orders, &r.phase, is_movement)
    );
    if let (Some(f), Some(rr)) = (&s.retreats, &r.retreats) {
        println!();
        print!(
            "{}",
            report::outcomes(&s.map, "Retreats", &f.orders, rr, false)
        );
    }
    let end = r.retreats.as_ref().unwrap_or(&r.phase);
    println!();
    print!(
        "{}",
        report::units(&s.map, "After the phase", &end.final_units)
    );
    if let Some(m) = &r.movement {
        if trace {
            println!();
            print!("{}", report::trace(s, m, &r.orders));
        }
        if let Some(path) = dot {
            let text = to_dot(
                m,
                &|id| m.node_label(&s.map, &s.units, &r.orders, id),
                &|u| m.unit_label(&s.map, &s.units, &r.orders, u),
            );
            std::fs::write(path, text)
                .wrap_err_with(|| format!("cannot write {}", path.display()))?;
            println!(
                "\nDecision graph written to {} (render: dot -Tsvg {} -o graph.svg)",
                path.display(),
                path.display()
            );
        }
    } else if trace || dot.is_some() {
        println!(
            "\n(--trace and --dot describe the movement resolver; this is a {} phase)",
            s.phase
        );
    }
    if s.expect.is_some() {
        let (bad, n) = compare(s, &r);
        if bad.is_empty() {
            println!("\nExpectations: all {n} checks met.");
        } else {
            println!("\nExpectations NOT met:");
            for b in bad {
                println!("  - {b}");
            }
        }
    }
    Ok(())
}
