//! Replaying a recorded game: each phase, as another program recorded it, becomes a scenario
//! whose expectations are the recorded result (the verdicts it recorded, the units it dislodged,
//! the units on the board after it); an engine adjudicates it, and the phases whose result
//! differs are the disagreements, each with the rule options under which the engine would have
//! given the recorded result. The readers of the recorded formats (the Python `diplomacy`
//! package's saved games, godip's game files) are in [`crate::io::games`]; this module only
//! sees scenarios, so any reader, and any engine, fits.

use crate::engine::seam::Engine;
use crate::model::rules::Rules;
use crate::model::scenario::Scenario;

use super::check::{RunError, verify};

/// One phase of a recorded game, ready to adjudicate.
#[derive(Clone, Debug)]
pub struct RecordedPhase {
    /// The phase's name as the recording writes it (`S1901M`, `1901 Spring Movement`).
    pub name: String,
    /// The phase as a scenario: the position, the orders, and as expectations the recorded
    /// result. A phase the recording gives no result for (the last one) has no expectations.
    pub scenario: Scenario,
    /// Why the phase cannot be compared (an order the reader could not read, a position it
    /// could not place), if it cannot; the replay then says so and goes on.
    pub unreadable: Option<String>,
}

/// A whole recorded game.
#[derive(Clone, Debug, Default)]
pub struct RecordedGame {
    /// Where it comes from (the file), for messages.
    pub source: String,
    /// The map's name as the recording gives it.
    pub map: String,
    /// Its phases in order.
    pub phases: Vec<RecordedPhase>,
}

/// What replaying one phase found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhaseVerdict {
    /// The engine gives the recorded result: every verdict, dislodgement and position checked.
    Agrees {
        /// How many things were checked.
        checks: usize,
    },
    /// The engine's result differs.
    Differs {
        /// One line per difference, as `check` prints them.
        differences: Vec<String>,
        /// The single rule option changes (`field=Value`) under which the engine gives the
        /// recorded result; empty when none does.
        explained_by: Vec<String>,
    },
    /// The recording gives no result for the phase (the last phase of a game).
    Unrecorded,
    /// The phase could not be compared: why.
    Unreadable(String),
}

/// One phase's replay.
#[derive(Clone, Debug)]
pub struct PhaseReport {
    /// Its index in the game.
    pub index: usize,
    /// Its name as recorded.
    pub name: String,
    /// What the replay found.
    pub verdict: PhaseVerdict,
}

/// Options for [`replay`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// Go on after the first phase that differs.
    pub all: bool,
    /// Adjudicate under these rules instead of each phase's own (the defaults).
    pub rules: Option<Rules>,
    /// Look for the rule options that explain a difference.
    pub explain: bool,
}

/// Replays `game` with `engine`: each phase in order, stopping after the first that differs
/// unless `options.all`. An engine error (an outside adjudicator that failed) stops the replay.
pub fn replay(
    game: &RecordedGame,
    engine: &dyn Engine,
    options: ReplayOptions,
) -> Result<Vec<PhaseReport>, RunError> {
    let mut out = Vec::with_capacity(game.phases.len());
    for (index, p) in game.phases.iter().enumerate() {
        let verdict = if let Some(why) = &p.unreadable {
            PhaseVerdict::Unreadable(why.clone())
        } else if p.scenario.expect.is_none() {
            PhaseVerdict::Unrecorded
        } else {
            let (differences, checks) = verify(&p.scenario, options.rules, engine)?;
            if differences.is_empty() {
                PhaseVerdict::Agrees { checks }
            } else {
                let explained_by = if options.explain {
                    explaining_options(&p.scenario, options.rules, engine)?
                } else {
                    Vec::new()
                };
                PhaseVerdict::Differs {
                    differences,
                    explained_by,
                }
            }
        };
        let differs = matches!(verdict, PhaseVerdict::Differs { .. });
        out.push(PhaseReport {
            index,
            name: p.name.clone(),
            verdict,
        });
        if differs && !options.all {
            break;
        }
    }
    Ok(out)
}

/// The single rule option changes (`field=Value`, from the rules `s` is adjudicated under) under
/// which `engine` meets every expectation of `s`. Options only the DPjudge engine reads are
/// tried only for it.
pub fn explaining_options(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
) -> Result<Vec<String>, RunError> {
    let mut out = Vec::new();
    for c in rules.unwrap_or(s.rules).single_changes() {
        if c.row.dpjudge_only && engine.name() != "dpjudge" {
            continue;
        }
        if verify(s, Some(c.rules), engine)?.0.is_empty() {
            out.push(c.spec());
        }
    }
    Ok(out)
}
