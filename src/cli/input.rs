//! Command inputs and outputs shared by the subcommands: `-` for standard input (read once),
//! loading scenarios with their errors as messages, and output targets under the one rule of
//! [`dipsandbox_core::base::output`].

use std::path::Path;

use color_eyre::eyre::{Result, eyre};

use std::sync::Arc;

use dipsandbox_core::engine::Engine;
use dipsandbox_core::engine::registry::Registry;
use dipsandbox_core::model::scenario::Scenario;

/// Whether a path argument means standard input.
pub(super) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A file's text, or standard input's for `-` (read once, however often it is asked for).
pub(super) fn read_input(
    path: &Path,
) -> std::result::Result<String, dipsandbox_core::base::source::ReadError> {
    static STDIN: std::sync::OnceLock<
        std::result::Result<String, dipsandbox_core::base::source::ReadError>,
    > = std::sync::OnceLock::new();
    if is_stdin(path) {
        return STDIN
            .get_or_init(dipsandbox_core::base::source::read_stdin)
            .clone();
    }
    dipsandbox_core::base::source::read_text(path)
}

/// How a path names its input in messages: `<stdin>` for `-`.
pub(super) fn input_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Standard input is read once: `-` may stand for one input only.
pub(super) fn stdin_once<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<()> {
    let n = paths.into_iter().filter(|p| is_stdin(p)).count();
    if n > 1 {
        return Err(eyre!(
            "`-` (standard input) is given {n} times; standard input is read once: give files for the others"
        ));
    }
    Ok(())
}

/// Loads a scenario file (`-`: standard input), with its located error.
pub(super) fn load_scenario(path: &Path) -> std::result::Result<Scenario, String> {
    let text = read_input(path).map_err(|e| e.to_string())?;
    Scenario::from_ron(&text, &input_name(path)).map_err(|e| e.to_string())
}

/// Loads a scenario file (`-`: standard input), with its located error.
pub(super) fn load(path: &Path) -> Result<Scenario> {
    load_scenario(path).map_err(|e| eyre!("{e}"))
}

/// The files a scenario was read from: its own (or standard input) and its map's.
pub(super) fn scenario_inputs(file: &Path, s: &Scenario) -> dipsandbox_core::base::output::Inputs {
    let mut inputs = dipsandbox_core::base::output::Inputs::new();
    inputs.add(file);
    if let Some(m) = &s.map_file {
        inputs.add(m);
    }
    inputs
}

/// An output file of a command, checked before any work is done: never one of `inputs`, never
/// through a link, an existing file only with `--force` (`force`).
pub(super) fn target(
    path: &Path,
    inputs: dipsandbox_core::base::output::Inputs,
    force: bool,
) -> Result<dipsandbox_core::base::output::Target> {
    target_with_hint(path, inputs, force, "give --force to replace it")
}

/// [`target`], whose refusal of an existing file says `hint`.
pub(super) fn target_with_hint(
    path: &Path,
    inputs: dipsandbox_core::base::output::Inputs,
    force: bool,
    hint: &str,
) -> Result<dipsandbox_core::base::output::Target> {
    let mut t = dipsandbox_core::base::output::Target::new(path, inputs, force);
    t.hint = hint.to_string();
    t.check().map_err(|e| eyre!("{e}"))?;
    Ok(t)
}

/// An engine named with `--engine NAME`, looked up in the registry the command line was given.
#[derive(Clone, Debug)]
pub struct EngineArg {
    /// The engine.
    pub engine: Arc<dyn Engine>,
    /// Whether it is the registry's default (the printed forms then do not name it).
    pub default: bool,
}

impl EngineArg {
    /// The engine of `name` in `registry`; the error lists the names there are.
    /// Beyond the registry's names: an outside program, `cmd:PROGRAM ARGS` (or `cmd-once:`),
    /// or a name of `engines.ron` in the config folder ([`super::engines`]).
    pub fn parse(registry: &Registry, name: &str) -> std::result::Result<EngineArg, String> {
        let engine = match registry.parse(name) {
            Ok(e) => e,
            Err(unknown) => match super::engines::outside(name)? {
                Some(e) => e,
                None => return Err(unknown.to_string()),
            },
        };
        let default = registry
            .default_engine()
            .is_some_and(|d| d.name() == engine.name());
        Ok(EngineArg { engine, default })
    }
}
