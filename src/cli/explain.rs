//! `explain`: every outcome with its reason; optionally the resolver's trace and the decision
//! graph as Graphviz DOT or as an SVG picture.

use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use super::input::EngineArg;
use dipsandbox_core::base::output::Target;
use dipsandbox_core::engine::PhaseInput;
use dipsandbox_core::engine::decision::MovementResult;
use dipsandbox_core::engine::decision::graphviz::to_dot;
use dipsandbox_core::engine::decision::svg::to_svg;
use dipsandbox_core::io::report;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{adjudicate_scenario, compare};
use serde_json::{Value, json};

/// Where the decision graph is written: Graphviz DOT, an SVG picture, both or neither.
#[derive(Clone, Copy, Debug, Default)]
pub struct Graphs<'a> {
    /// `--dot`.
    pub dot: Option<&'a Target>,
    /// `--svg`.
    pub svg: Option<&'a Target>,
}

impl Graphs<'_> {
    /// Whether either is asked for.
    fn any(&self) -> bool {
        self.dot.is_some() || self.svg.is_some()
    }
}

/// `explain`: the position, then the adjudication.
pub fn explain(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &EngineArg,
    trace: bool,
    graphs: Graphs<'_>,
) -> Result<ExitCode> {
    out!("{}", report::position_under(s, rules))?;
    outln!()?;
    adjudicate_and_print(s, rules, engine, trace, graphs)?;
    Ok(ExitCode::SUCCESS)
}

/// The decision graph's picture, or why there is none.
fn picture(s: &Scenario, m: &MovementResult) -> Result<String> {
    to_svg(m, &|u| m.unit_label(&s.map, &s.units, &s.orders, u)).map_err(|e| eyre!("{e}"))
}

/// `explain --svg -`: the decision graph's picture alone, on standard output.
pub fn svg_to_stdout(s: &Scenario, rules: Option<Rules>, engine: &EngineArg) -> Result<ExitCode> {
    let r = adjudicate_scenario(s, rules, &*engine.engine, false).map_err(|e| eyre!("{e}"))?;
    let Some(m) = r.result.decisions() else {
        return Err(eyre!(
            "--svg draws the decision graph of a movement phase under the decision model (engine `{}`, {} phase): there is none here",
            r.result.engine,
            s.phase
        ));
    };
    out!("{}", picture(s, m)?)?;
    Ok(ExitCode::SUCCESS)
}

/// Adjudicates and prints the results, the position after, the trace and DOT when asked, and
/// whether the expectations are met.
pub fn adjudicate_and_print(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &EngineArg,
    trace: bool,
    graphs: Graphs<'_>,
) -> Result<()> {
    let dot = graphs.dot;
    let r = adjudicate_scenario(s, rules, &*engine.engine, trace).map_err(|e| eyre!("{e}"))?;
    if !engine.default {
        let e = &engine.engine;
        outln!("Engine: {} — {}\n", e.name(), e.title())?;
    }
    let is_movement = r.result.decisions().is_some();
    out!(
        "{}",
        report::outcomes(&s.map, "Results", &s.orders, r.phase(), is_movement)
    )?;
    if let (Some(f), Some(rr)) = (&s.retreats, &r.retreats) {
        outln!()?;
        out!(
            "{}",
            report::outcomes(&s.map, "Retreats", &f.orders, rr, false)
        )?;
    }
    let end = r.retreats.as_ref().unwrap_or(r.phase());
    outln!()?;
    out!(
        "{}",
        report::units(&s.map, "After the phase", &end.final_units)
    )?;
    if let Some(m) = r.result.decisions() {
        if trace {
            outln!()?;
            out!("{}", report::trace(s, m, &s.orders))?;
        }
        if let Some(target) = dot {
            let text = to_dot(
                m,
                &|id| m.node_label(&s.map, &s.units, &s.orders, id),
                &|u| m.unit_label(&s.map, &s.units, &s.orders, u),
            );
            target.write(&text).map_err(|e| eyre!("{e}"))?;
            let path = target.path.display();
            outln!("\nDecision graph written to {path} (render: dot -Tsvg {path} -o graph.svg)")?;
        }
        if let Some(target) = graphs.svg {
            target.write(&picture(s, m)?).map_err(|e| eyre!("{e}"))?;
            outln!(
                "\nDecision graph drawn to {} ({} decisions)",
                target.path.display(),
                m.graph.nodes.len()
            )?;
        }
    } else if let Some(d) = r.result.procedure() {
        if trace {
            outln!()?;
            out!("{}", report::dpjudge_trace(s, d))?;
        }
        if graphs.any() {
            outln!(
                "\n(--dot and --svg draw the decision graph of the decision model; the DPjudge procedure has none: --trace prints its steps)"
            )?;
        }
    } else if let Some(st) = r
        .result
        .steps(&PhaseInput::of(s, &r.rules))
        .filter(|_| trace)
    {
        // Another engine's own trace, one event a line.
        let input = PhaseInput::of(s, &r.rules);
        outln!("\nTrace ({}):", r.result.engine)?;
        for i in 0..st.len() {
            outln!("  {:>3}. {}", i + 1, st.describe(&input, i))?;
        }
    } else if (trace || graphs.any())
        && s.phase.kind == dipsandbox_core::model::board::PhaseKind::Movement
    {
        // An engine that keeps no trace (an outside adjudicator).
        outln!(
            "\n(--trace, --dot and --svg: the engine {} keeps no trace and no decision graph)",
            r.result.engine
        )?;
    } else if trace || graphs.any() {
        outln!(
            "\n(--trace, --dot and --svg describe the movement resolver; this is a {} phase)",
            s.phase
        )?;
    }
    if s.expect.is_some() {
        let (bad, n) = compare(s, &r);
        if bad.is_empty() {
            outln!("\nExpectations: all {n} checks met.")?;
        } else {
            outln!("\nExpectations NOT met:")?;
            for b in bad {
                outln!("  - {b}")?;
            }
        }
    }
    Ok(())
}

/// The outcomes of a phase as JSON: one object per order.
fn outcomes_json(
    map: &dipsandbox_core::model::map::Map,
    orders: &[dipsandbox_core::model::scenario::OrderEntry],
    p: &dipsandbox_core::engine::PhaseResult,
) -> Vec<Value> {
    orders
        .iter()
        .zip(&p.outcomes)
        .map(|(e, o)| {
            json!({
                "power": map.power(e.power).name,
                "order": e.text,
                "verdict": dipsandbox_core::tools::diff::verdict_word(o.verdict),
                "reason": o.reason,
                "backup": o.backup.map(|b| b.name()),
            })
        })
        .collect()
}

fn units_json(
    map: &dipsandbox_core::model::map::Map,
    units: &[dipsandbox_core::model::board::Unit],
) -> Vec<Value> {
    units
        .iter()
        .map(|u| json!({ "power": map.power(u.power).name, "unit": u.describe(map) }))
        .collect()
}

/// `explain --json`: schema `dipsandbox.explain/1` (docs/json.md).
pub fn explain_json(s: &Scenario, rules: Option<Rules>, engine: &EngineArg) -> Result<ExitCode> {
    let r = adjudicate_scenario(s, rules, &*engine.engine, false).map_err(|e| eyre!("{e}"))?;
    let map = &*s.map;
    let end = r.retreats.as_ref().unwrap_or(r.phase());
    let rules_obj: serde_json::Map<String, Value> = r
        .rules
        .overrides()
        .into_iter()
        .map(|(k, v)| (k.to_string(), Value::String(v)))
        .collect();
    let expectations = s.expect.as_ref().map(|_| {
        let (bad, n) = compare(s, &r);
        json!({ "checks": n, "mismatches": bad })
    });
    let doc = json!({
        "schema": "dipsandbox.explain/1",
        "title": s.title,
        "source": s.source,
        "phase": s.phase.to_string(),
        "engine": engine.engine.name(),
        "rules": {
            "preset": r.rules.preset_name(),
            "overrides": rules_obj,
        },
        "orders": outcomes_json(map, &s.orders, r.phase()),
        "dislodged": r.phase().dislodged.iter().map(|d| json!({
            "power": map.power(d.unit.power).name,
            "unit": d.unit.describe(map),
            "attacker_from": map.province(d.attacker_from).name,
        })).collect::<Vec<_>>(),
        "retreats": match (&s.retreats, &r.retreats) {
            (Some(f), Some(rr)) => Value::Array(outcomes_json(map, &f.orders, rr)),
            _ => Value::Null,
        },
        "positions": units_json(map, &end.final_units),
        "expectations": expectations,
    });
    super::out::json(&doc)?;
    Ok(ExitCode::SUCCESS)
}
