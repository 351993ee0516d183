//! `engine-check`: an outside adjudicator (or any engine) through a folder of cases, by
//! default the DATC's. Every answer is checked against the protocol's schema and the phase it
//! answers (an answer that is not valid is an error for its case); per case the line says
//! whether the answer meets the case's expectations and whether it agrees with the decision
//! engine; then a summary.

use std::path::PathBuf;
use std::process::ExitCode;

use color_eyre::eyre::Result;
use serde_json::{Value, json};

use dipsandbox_core::base::text::one_line;
use dipsandbox_core::engine::{DecisionEngine, Engine};
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::check::{Run, Wording, adjudicate_scenario, compare};
use dipsandbox_core::tools::departures::check_departures;

use super::input::{EngineArg, load_scenario};

/// The folder checked when no path is given.
pub const DEFAULT_FOLDER: &str = "scenarios/datc";

/// Where an answer departs from the decision engine's result.
struct Departure {
    /// Orders (indices) whose verdict differs.
    orders: Vec<usize>,
    dislodged: bool,
    positions: bool,
}

impl Departure {
    fn agrees(&self) -> bool {
        self.orders.is_empty() && !self.dislodged && !self.positions
    }

    fn words(&self) -> String {
        if self.agrees() {
            return "agrees with the decision engine".into();
        }
        let mut parts = Vec::new();
        if !self.orders.is_empty() {
            let n = self.orders.len();
            parts.push(format!("{n} order{}", if n == 1 { "" } else { "s" }));
        }
        if self.dislodged {
            parts.push("dislodged units".into());
        }
        if self.positions {
            parts.push("positions".into());
        }
        format!("differs from the decision engine on {}", parts.join(", "))
    }
}

fn sorted(mut v: Vec<Unit>) -> Vec<Unit> {
    v.sort_unstable();
    v
}

fn departure(ours: &Run, theirs: &Run) -> Departure {
    let (a, b) = (ours.phase(), theirs.phase());
    let mut orders: Vec<usize> = a
        .outcomes
        .iter()
        .zip(&b.outcomes)
        .enumerate()
        .filter(|(_, (x, y))| x.verdict != y.verdict)
        .map(|(i, _)| i)
        .collect();
    if let (Some(x), Some(y)) = (&ours.retreats, &theirs.retreats) {
        let base = a.outcomes.len();
        orders.extend(
            x.outcomes
                .iter()
                .zip(&y.outcomes)
                .enumerate()
                .filter(|(_, (p, q))| p.verdict != q.verdict)
                .map(|(i, _)| base + i),
        );
    }
    let units = |p: &dipsandbox_core::engine::PhaseResult| {
        sorted(p.dislodged.iter().map(|d| d.unit).collect())
    };
    Departure {
        orders,
        dislodged: units(a) != units(b),
        positions: sorted(a.final_units.clone()) != sorted(b.final_units.clone()),
    }
}

/// Runs the check; exit 0 when every answer was valid, 1 when some phase got no valid answer,
/// 2 when an input could not be read.
pub fn run(
    engine: &EngineArg,
    paths: &[PathBuf],
    rules: Option<Rules>,
    json_out: bool,
) -> Result<ExitCode> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(DEFAULT_FOLDER)]
    } else {
        paths.to_vec()
    };
    let files = super::check::collect_all(&paths)?;
    let e: &dyn Engine = &*engine.engine;
    let declared = e.departures();
    // The declared departure a case is named in, if any (by its file's stem: `6.G.8-Fallback`).
    let known_in = |f: &std::path::Path| -> Option<String> {
        let stem = f.file_stem()?.to_string_lossy().into_owned();
        declared
            .iter()
            .find(|d| d.cases.contains(&stem))
            .map(|d| d.name.clone())
    };
    let (mut answered, mut met, mut agree, mut errors, mut unreadable) = (0, 0, 0, 0, 0);
    let mut cases = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let s = match load_scenario(f) {
            Ok(s) => s,
            Err(m) => {
                unreadable += 1;
                if json_out {
                    cases.push(json!({ "file": name, "error": m, "unreadable": true }));
                } else {
                    outln!("{}", one_line(&format!("ERROR {name}: {m}")))?;
                }
                continue;
            }
        };
        let theirs = match adjudicate_scenario(&s, rules, e, false) {
            Ok(r) => r,
            Err(err) => {
                errors += 1;
                if json_out {
                    cases.push(json!({ "file": name, "error": err.to_string() }));
                } else {
                    outln!("{}", one_line(&format!("ERROR {name}: {err}")))?;
                }
                continue;
            }
        };
        answered += 1;
        let (bad, checks) = compare(&s, &theirs);
        let ours = adjudicate_scenario(&s, rules, &DecisionEngine, false)?;
        let d = departure(&ours, &theirs);
        met += usize::from(bad.is_empty());
        agree += usize::from(d.agrees());
        if json_out {
            cases.push(json!({
                "file": name,
                "error": Value::Null,
                "expectations": { "checks": checks, "failed": bad },
                "decisions": {
                    "agrees": d.agrees(),
                    "orders": d.orders,
                    "dislodged": d.dislodged,
                    "positions": d.positions,
                },
                "known_departure": known_in(f),
            }));
        } else {
            let exp = if bad.is_empty() {
                format!("meets its expectations ({checks} checks)")
            } else {
                format!("{} of {checks} expectations not met", bad.len())
            };
            let mark = if bad.is_empty() && d.agrees() {
                "ok   "
            } else {
                "DIFF "
            };
            let known = match known_in(f) {
                Some(k) if !(bad.is_empty() && d.agrees()) => format!(" (known departure: {k})"),
                _ => String::new(),
            };
            outln!(
                "{}",
                one_line(&format!("{mark}{name}: {exp}; {}{known}", d.words()))
            )?;
        }
    }
    let total = files.len();
    // The declared departures held to their DATC cases (each under its own rules), in effect.
    let checks = check_departures(e, &DecisionEngine, &declared, Wording::Effect);
    let holding = checks.iter().filter(|c| c.holds()).count();
    if json_out {
        super::out::json(&json!({
            "schema": "dipsandbox.engine-check/1",
            "engine": e.name(),
            "cases": cases,
            "departures": checks.iter().map(|c| json!({
                "departure": c.title,
                "cases": c.cases,
                "holds": c.holds(),
                "problems": c.problems,
            })).collect::<Vec<_>>(),
            "summary": {
                "cases": total,
                "answered": answered,
                "meet_expectations": met,
                "agree_with_decisions": agree,
                "errors": errors,
                "unreadable": unreadable,
                "departures": checks.len(),
                "departures_holding": holding,
            },
        }))?;
    } else {
        if !checks.is_empty() {
            outln!(
                "declared departures: {holding} of {} hold on their DATC cases (in effect, each case under its own rules)",
                checks.len()
            )?;
            for c in &checks {
                if c.holds() {
                    outln!("  holds  {}", one_line(&c.title))?;
                } else {
                    outln!("  FAILS  {}", one_line(&c.title))?;
                    for p in &c.problems {
                        outln!("           {}", one_line(p))?;
                    }
                }
            }
        }
        outln!(
            "{total} cases: {answered} answered validly ({met} meet their expectations, {agree} agree with the decision engine), {errors} without a valid answer{}",
            if unreadable > 0 {
                format!(", {unreadable} unreadable")
            } else {
                String::new()
            }
        )?;
    }
    Ok(if unreadable > 0 {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
