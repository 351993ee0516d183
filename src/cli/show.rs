//! `show`, and the printed form of `dipsandbox [FILE]`.

use std::process::ExitCode;

use color_eyre::eyre::Result;

use dipsandbox::adjudicator::Engine;
use dipsandbox::report;
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

use super::EXAMPLES;
use super::explain::adjudicate_and_print;

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
    engine: Engine,
    builtin: bool,
) -> Result<ExitCode> {
    show(s, rules)?;
    outln!()?;
    adjudicate_and_print(s, rules, engine, false, None)?;
    if builtin {
        outln!("\n{}", EXAMPLES.replace("Examples:", "Try next:"))?;
    }
    Ok(ExitCode::SUCCESS)
}
