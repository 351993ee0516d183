//! The engines `--engine` and `diff --engines` may name beyond the registry's: an outside
//! program given on the command line (`cmd:PROGRAM ARGS`, `cmd-once:PROGRAM ARGS`) or named in
//! `engines.ron` in the config folder (`$DIPSANDBOX_CONFIG_DIR`, else the platform's), whose
//! format is
//!
//! ```ron
//! {
//!     "crate": (command: "target/debug/examples/diplomacy_crate_adapter"),
//!     "python": (command: "python3", args: ["adapters/python_diplomacy.py"], mode: Once, timeout: 20.0,
//!                departures: "python.departures.ron"),
//! }
//! ```
//!
//! (`mode`: `Lines`, the default, or `Once`; `timeout`: seconds per phase, default 5;
//! `reads_rules: false`: the program ignores the request's rules, so it is never run again
//! under another rule option; `departures`: a file of the engine's known departures from the DATC,
//! [`dipsandbox_core::engine::departure::parse_departures`], named relative to the config
//! folder or absolutely).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use dipsandbox_core::base::position::{SourcePos, ron_message_in};
use dipsandbox_core::base::source::Locator;
use dipsandbox_core::base::source::read_text;
use dipsandbox_core::base::text::quoted;
use dipsandbox_core::engine::Engine;
use dipsandbox_core::engine::departure::{Departure, parse_departures};
use dipsandbox_core::engine::outside::engine::DEFAULT_TIMEOUT;
use dipsandbox_core::engine::outside::{Mode, OutsideEngine, Program};
use dipsandbox_core::tools::departures::is_datc_case;

/// The config file's name.
pub const FILE: &str = "engines.ron";

/// How a program of the config file is run.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
enum ModeRon {
    /// One process for many phases.
    #[default]
    Lines,
    /// One process per phase.
    Once,
}

/// One entry of the config file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    command: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    mode: ModeRon,
    #[serde(default = "default_timeout")]
    timeout: f64,
    #[serde(default)]
    departures: String,
    #[serde(default = "yes")]
    reads_rules: bool,
}

fn yes() -> bool {
    true
}

fn default_timeout() -> f64 {
    DEFAULT_TIMEOUT.as_secs_f64()
}

/// The config folder: `$DIPSANDBOX_CONFIG_DIR`, else the platform's config folder.
pub fn config_dir() -> Option<PathBuf> {
    std::env::var_os("DIPSANDBOX_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            directories::ProjectDirs::from("", "", "dipsandbox").map(|p| p.config_dir().into())
        })
}

/// Reads a config file's text: every named engine, or the located error. `dir` is the folder
/// a `departures` file is named relative to (the config folder); each such file is read.
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<Vec<(String, OutsideEngine)>, String> {
    let entries: BTreeMap<String, Entry> = ron::from_str(text).map_err(|e| {
        format!(
            "{}: {}; expected {{ \"name\": (command: \"PROGRAM\", args: [..], mode: Lines|Once, timeout: SECONDS, reads_rules: BOOL, departures: \"FILE\") }}",
            SourcePos::from_ron(file, text, &e),
            ron_message_in(&e, text)
        )
    })?;
    let at = |name: &str| {
        let offset = text.find(&format!("\"{name}\"")).unwrap_or(0);
        Locator::new(text, file).pos(offset)
    };
    let mut out = Vec::new();
    for (name, e) in entries {
        if name.trim().is_empty() || name.contains(':') || name.contains(',') {
            return Err(format!(
                "{}: engine name {}: give a name without `:` or `,`",
                at(&name),
                quoted(&name)
            ));
        }
        if e.command.trim().is_empty() {
            return Err(format!(
                "{}: engine {}: the command is empty",
                at(&name),
                quoted(&name)
            ));
        }
        let timeout = match e.timeout {
            t if t.is_finite() && t > 0.0 && t <= 86_400.0 => Duration::from_secs_f64(t),
            t => {
                return Err(format!(
                    "{}: engine {}: timeout {t} is not a number of seconds from above 0 to 86400",
                    at(&name),
                    quoted(&name)
                ));
            }
        };
        let program = Program {
            program: e.command,
            args: e.args,
            mode: match e.mode {
                ModeRon::Lines => Mode::Lines,
                ModeRon::Once => Mode::Once,
            },
            timeout,
        };
        let mut engine = OutsideEngine::new(&name, program).with_reads_rules(e.reads_rules);
        if !e.departures.is_empty() {
            let list = read_departures(&e.departures, dir)
                .map_err(|m| format!("{}: engine {}: departures: {m}", at(&name), quoted(&name)))?;
            engine = engine.with_departures(list);
        }
        out.push((name.clone(), engine));
    }
    Ok(out)
}

/// The departures file `name` (relative to `dir` unless absolute), read and checked: the
/// declared departures, or what is wrong, located in that file.
fn read_departures(name: &str, dir: &Path) -> Result<Vec<Departure>, String> {
    if name.trim().is_empty() {
        return Err("the file name is empty".into());
    }
    let path = dir.join(name);
    let text = read_text(&path).map_err(|e| e.to_string())?;
    let file = path.display().to_string();
    let list = parse_departures(&text, &file).map_err(|e| e.to_string())?;
    if let Some((d, c)) = list
        .iter()
        .find_map(|d| d.cases.iter().find(|c| !is_datc_case(c)).map(|c| (d, c)))
    {
        return Err(format!(
            "{file}: departure {}: case {}: no such DATC case; expected a name of scenarios/datc (6.G.8, 6.G.8-Fallback, …)",
            quoted(&d.name),
            quoted(c)
        ));
    }
    Ok(list)
}

/// The outside engine `name` stands for: a `cmd:` command line, or a name of the config file.
/// `Ok(None)` when it is neither (no config file, or no such name in it).
pub fn outside(name: &str) -> Result<Option<Arc<dyn Engine>>, String> {
    if let Some(e) = OutsideEngine::from_spec(name) {
        return e
            .map(|e| Some(Arc::new(e) as Arc<dyn Engine>))
            .map_err(|e| format!("engine {}: {e}", quoted(name)));
    }
    let Some(path) = config_dir().map(|d| d.join(FILE)) else {
        return Ok(None);
    };
    // No file: no names. Anything else there is read with the usual checks, so a FIFO, a
    // folder or a device is an error that says so, never silently passed over.
    if std::fs::metadata(&path).is_err() {
        return Ok(None);
    }
    let file = path.display().to_string();
    let text = dipsandbox_core::base::source::read_text(&path).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let engines = parse(&text, &file, dir)?;
    Ok(engines
        .into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, e)| Arc::new(e) as Arc<dyn Engine>))
}

/// Every engine `engines.ron` names (none when there is no such file or it does not read): for
/// the TUI, which opens files that name engines and runs only those the user has.
pub fn configured() -> Vec<Arc<dyn Engine>> {
    let Some(path) = config_dir().map(|d| d.join(FILE)) else {
        return Vec::new();
    };
    let Ok(text) = dipsandbox_core::base::source::read_text(&path) else {
        return Vec::new();
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    parse(&text, &path.display().to_string(), dir)
        .map(|v| {
            v.into_iter()
                .map(|(_, e)| Arc::new(e) as Arc<dyn Engine>)
                .collect()
        })
        .unwrap_or_default()
}
