//! `advance`: adjudicate a phase and write the next one.

use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::base::output::Target;
use dipsandbox_core::io::report;
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;

/// `advance`: prints the results (to stderr when the next phase goes to stdout) and writes the
/// next phase to `output` or stdout.
pub fn advance(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &super::input::EngineArg,
    output: Option<&Target>,
) -> Result<ExitCode> {
    let rules = rules.unwrap_or(s.rules);
    let adv = dipsandbox_core::tools::turn::advance_with(s, &rules, &*engine.engine)
        .map_err(|e| eyre!("{e}"))?;
    let mut summary = report::outcomes(
        &s.map,
        &format!("{} results", s.phase),
        &s.orders,
        &adv.result,
        s.phase.kind == PhaseKind::Movement,
    );
    summary.push_str(&format!("Next phase: {}", adv.next.phase));
    if let Some(w) = adv.winner {
        summary.push_str(&format!(
            "\nGAME OVER: {} holds {} or more supply centres.",
            s.map.power(w).name,
            dipsandbox_core::tools::turn::victory_threshold(&s.map)
        ));
    }
    match output {
        Some(target) => {
            outln!("{summary}")?;
            let text = adv.next.placed_at(&target.path).to_ron();
            target.write(&text).map_err(|e| eyre!("{e}"))?;
            outln!("Written to {}", target.path.display())?;
        }
        None => {
            errln!("{summary}");
            out!("{}", adv.next.to_ron())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
