//! Replaying a recorded game: each phase, as another program recorded it, becomes a scenario
//! whose expectations are the recorded result (the verdicts it recorded, the units it dislodged,
//! the units on the board after it); an engine adjudicates it, and the phases whose result
//! differs are the disagreements, each with the rule options under which the engine would have
//! given the recorded result. The readers of the recorded formats (the Python `diplomacy`
//! package's saved games, godip's game files) are in [`crate::io::games`]; this module only
//! sees scenarios, so any reader, and any engine, fits.

use crate::engine::seam::{Engine, OptionUse};
use crate::model::rules::Rules;
use crate::model::scenario::Scenario;

use super::check::{RunError, Wording, verify, verify_with};

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
    /// The program that recorded it, in a few words (`diplomacy package`, `godip`).
    pub recorder: String,
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
        /// One line per difference, as `check` prints them (word for word; a difference of
        /// wording only says so).
        differences: Vec<String>,
        /// The single rule option changes (`field=Value`) under which the engine gives the
        /// recorded result in effect (every order acting or not as recorded, the same
        /// dislodgements and positions); empty when none does, or when only words differ.
        explained_by: Vec<String>,
        /// Whether the result differs in wording only: every order acts as recorded, the board
        /// is the recorded one, some order that does not act is worded otherwise (`fails`
        /// where the recorder says `void`).
        wording_only: bool,
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
                let wording_only =
                    verify_with(&p.scenario, options.rules, engine, Wording::Effect)?
                        .0
                        .is_empty();
                let explained_by = if options.explain && !wording_only {
                    explaining_options(&p.scenario, options.rules, engine)?
                } else {
                    Vec::new()
                };
                PhaseVerdict::Differs {
                    differences,
                    explained_by,
                    wording_only,
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
/// which `engine` meets every expectation of `s` in effect (each order acting or not as
/// expected, the dislodgements and positions: words are not for a rule option to explain).
/// Options the engine never reads ([`Engine::option_use`]) are not tried.
pub fn explaining_options(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
) -> Result<Vec<String>, RunError> {
    let mut out = Vec::new();
    for c in rules.unwrap_or(s.rules).single_changes() {
        if engine.option_use(c.row.field) == OptionUse::Never {
            continue;
        }
        if verify_with(s, Some(c.rules), engine, Wording::Effect)?
            .0
            .is_empty()
        {
            out.push(c.spec());
        }
    }
    Ok(out)
}

/// What a scenario file written by `replay` says of itself, in comment lines before the
/// scenario (which `check` and the scenario reader skip), so that the TUI can open it on the
/// engine's result against the recorded one:
///
/// ```text
/// // dipsandbox replay
/// // game: tests/data/games/python/game-1.json
/// // recorded by: diplomacy package
/// // phase: S1904M
/// // engine: decisions
/// // rules: datc
/// // explained by: adjacent_convoy=Rule1971, adjacent_convoy_fallback=true
/// // differences:
/// //   Italy: A ROM - NAP via convoy: expected Succeeds, got Fails (no path: …)
/// ```
///
/// `explained by: none` when no single option explains the phase. Every field is one line
/// (line breaks in a value become spaces).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayHeader {
    /// The game file, as the replay was given it.
    pub game: String,
    /// The program that recorded the game ([`RecordedGame::recorder`]).
    pub recorder: String,
    /// The phase's name as recorded (`S1904M`).
    pub phase: String,
    /// The engine that re-adjudicated it.
    pub engine: String,
    /// The rules it was adjudicated under (a preset's name or `field=Value,…`).
    pub rules: String,
    /// The single option changes (`field=Value`) under which the engine gives the recorded
    /// result.
    pub explained_by: Vec<String>,
    /// What differs, one line each, as `check` words it.
    pub differences: Vec<String>,
}

impl ReplayHeader {
    /// The first line of a file that has such a header.
    pub const MAGIC: &'static str = "// dipsandbox replay";

    /// The header as comment lines, each ending in a line break.
    pub fn to_comment(&self) -> String {
        // Each field one line of plain text: control and invisible characters escaped, so a
        // game file's name cannot end the comment or reach a terminal raw.
        let one = |s: &str| crate::base::text::one_line(s).into_owned();
        let mut out = format!("{}\n", Self::MAGIC);
        for (k, v) in [
            ("game", &self.game),
            ("recorded by", &self.recorder),
            ("phase", &self.phase),
            ("engine", &self.engine),
            ("rules", &self.rules),
        ] {
            out.push_str(&format!("// {k}: {}\n", one(v)));
        }
        let explained = if self.explained_by.is_empty() {
            "none".to_string()
        } else {
            self.explained_by.join(", ")
        };
        out.push_str(&format!("// explained by: {}\n", one(&explained)));
        out.push_str("// differences:\n");
        for d in &self.differences {
            out.push_str(&format!("//   {}\n", one(d)));
        }
        out
    }

    /// The header of a file's text, if its first line is [`ReplayHeader::MAGIC`]; fields it
    /// does not give are empty.
    pub fn parse(text: &str) -> Option<ReplayHeader> {
        let mut lines = text.lines();
        if lines.next()?.trim_end() != Self::MAGIC {
            return None;
        }
        let mut h = ReplayHeader::default();
        let mut in_differences = false;
        for line in lines {
            let Some(rest) = line.strip_prefix("//") else {
                break;
            };
            if in_differences && let Some(d) = rest.strip_prefix("   ") {
                h.differences
                    .push(crate::base::text::one_line(d.trim()).into_owned());
                continue;
            }
            in_differences = false;
            let Some((key, value)) = rest.trim().split_once(':') else {
                continue;
            };
            // As written, or a hand-edited file's raw control or invisible characters escaped:
            // what the TUI shows of a header is plain text.
            let value = crate::base::text::one_line(value.trim()).into_owned();
            match key {
                "game" => h.game = value,
                "recorded by" => h.recorder = value,
                "phase" => h.phase = value,
                "engine" => h.engine = value,
                "rules" => h.rules = value,
                "explained by" if value != "none" => {
                    h.explained_by = value.split(", ").map(str::to_string).collect();
                }
                "differences" => in_differences = true,
                _ => {}
            }
        }
        Some(h)
    }
}
