//! `show`, and the printed form of `dipsandbox [FILE]`.

use std::process::ExitCode;

use color_eyre::eyre::Result;

use super::input::EngineArg;
use dipsandbox_core::io::report;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;

use super::explain::adjudicate_and_print;

/// The examples of `--help`, and what to try next after the built-in scenario is printed.
pub(super) const EXAMPLES: &str = "\
Examples:
  dipsandbox                                   open the TUI on the built-in scenario (Pandin's paradox)
  dipsandbox scenarios/datc/6.F.16.ron         open a file in the TUI
  dipsandbox --print scenarios/datc/6.F.16.ron adjudicate and print (the default when not on a terminal)
  dipsandbox show scenarios/datc/6.A.1.ron     position and orders
  dipsandbox check scenarios/datc              adjudicate every scenario and compare with its expectations
  dipsandbox check suite.txt --pairing suite.rules   a jDip test file, cases paired with their rules
  dipsandbox explain scenarios/datc/6.F.16.ron --trace --dot pandin.dot
  dipsandbox explain scenarios/datc/6.F.16.ron --svg pandin.svg
                                               the decision graph drawn as SVG, no Graphviz needed
  dipsandbox explain FILE --rules 1982         the same orders under the 1982 paradox rule
  dipsandbox explain FILE --rules datc,multi_route_disruption=AnyRoute
  dipsandbox solve scenarios/datc/6.F.14.ron   how many solutions the equations have (2: a paradox)
  dipsandbox advance FILE -o NEXT.ron          adjudicate and write the next phase, ready for orders
  dipsandbox minimize FILE --keep backup -o SMALL.ron
                                               the fewest units and orders that still apply a backup rule
  dipsandbox maps                              the maps and their summaries

Every command and flag, with examples: docs/commands.md; the TUI's keys: docs/tui.md";

/// `show`: the position and the orders.
pub fn show(s: &Scenario, rules: Option<Rules>) -> Result<ExitCode> {
    out!("{}", report::position_under(s, rules))?;
    outln!()?;
    out!("{}", report::orders(s))?;
    Ok(ExitCode::SUCCESS)
}

/// `dipsandbox [FILE] --print`: position, orders, results; for the built-in scenario, what to
/// try next.
pub fn print_default(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &EngineArg,
    builtin: bool,
) -> Result<ExitCode> {
    show(s, rules)?;
    outln!()?;
    adjudicate_and_print(s, rules, engine, false, Default::default())?;
    if builtin {
        outln!("\n{}", EXAMPLES.replace("Examples:", "Try next:"))?;
    }
    Ok(ExitCode::SUCCESS)
}
