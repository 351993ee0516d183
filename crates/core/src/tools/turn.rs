//! The turn cycle: Spring movement → retreat (if anyone was dislodged) → Fall movement → retreat →
//! Winter adjustment (if anyone must adjust) → next Spring; supply centres change hands after the
//! Fall phases only.

use crate::engine::adjust::{adjudicate_adjustments, adjustments_due};
use crate::engine::decision::adjudicator::adjudicate_movement;
use crate::engine::outcome::PhaseResult;
use crate::engine::retreat::adjudicate_retreats;
use crate::engine::seam::{Engine, EngineError, PhaseInput};
use crate::model::board::{Phase, PhaseKind, Season, Unit};
use crate::model::map::{Map, PowerId};
use crate::model::orders::Submitted;
use crate::model::rules::Rules;
use crate::model::scenario::Scenario;

/// Supply-centre owners after a Fall phase: every centre with a power's unit on it belongs to
/// that unit's power; empty centres, and centres a neutral unit stands in, keep their owner.
pub fn update_owners(
    map: &Map,
    units: &[Unit],
    owners: &[Option<PowerId>],
) -> Vec<Option<PowerId>> {
    let mut o = owners.to_vec();
    for u in units {
        let p = map.province_of(u.loc);
        if map.province(p).supply_center
            && !u.power.is_neutral()
            && let Some(slot) = o.get_mut(p.0 as usize)
        {
            *slot = Some(u.power);
        }
    }
    o
}

/// Centres needed to win: the map's `victory` when it gives one, else more than half of the
/// supply centres (18 on the standard map).
pub fn victory_threshold(map: &Map) -> usize {
    map.victory
        .unwrap_or_else(|| map.provinces.iter().filter(|p| p.supply_center).count() / 2 + 1)
}

/// The power with a winning number of centres, if any.
pub fn winner(map: &Map, owners: &[Option<PowerId>]) -> Option<PowerId> {
    let counts = crate::engine::adjust::centre_counts(map, owners);
    let need = victory_threshold(map);
    map.power_ids()
        .find(|p| counts.get(p.0 as usize).is_some_and(|&c| c >= need))
}

/// Adjudicates the scenario's own phase with the given orders (the scenario's own, or others
/// for the same units), with the decision engine.
pub fn adjudicate_phase<O: Submitted>(s: &Scenario, orders: &[O], rules: &Rules) -> PhaseResult {
    match s.phase.kind {
        PhaseKind::Movement => adjudicate_movement(&s.map, &s.units, orders, rules).phase(),
        PhaseKind::Retreat => {
            adjudicate_retreats(&s.map, &s.units, &s.dislodged, &s.contested, orders, rules)
        }
        PhaseKind::Adjustment => {
            adjudicate_adjustments(&s.map, &s.units, &s.owners_or_home(), orders, rules)
        }
    }
}

/// The result of advancing a scenario by one phase.
#[derive(Clone, Debug)]
pub struct Advanced {
    /// The adjudicated phase's result.
    pub result: PhaseResult,
    /// The next phase's scenario, with empty orders.
    pub next: Scenario,
    /// A power that reached the victory threshold, if any.
    pub winner: Option<PowerId>,
}

/// The next phase would be in a year past [`Phase::LAST_YEAR`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{phase} is the last phase there is: the next would be in {next_year}, and years go up to {last}",
    next_year = i64::from(phase.year) + 1,
    last = Phase::LAST_YEAR
)]
pub struct PastLastYear {
    /// The phase that was adjudicated.
    pub phase: Phase,
}

/// Why a scenario could not be advanced with an engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdvanceError {
    /// The next phase would be past the last year.
    #[error(transparent)]
    PastLastYear(#[from] PastLastYear),
    /// The engine gave no result.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Adjudicates the scenario's phase and builds the next phase's scenario: positions, dislodged
/// units with their attackers, standoffs, centre owners; empty orders, no expectations. An
/// error when the next phase would be in a year past [`Phase::LAST_YEAR`] (never a year that
/// wrapped round).
pub fn advance(s: &Scenario, rules: &Rules) -> Result<Advanced, PastLastYear> {
    next_phase(s, adjudicate_phase(s, &s.orders, rules))
}

/// [`advance`], with the phase adjudicated by `engine`.
pub fn advance_with(
    s: &Scenario,
    rules: &Rules,
    engine: &dyn Engine,
) -> Result<Advanced, AdvanceError> {
    let result = engine.adjudicate(&PhaseInput::of(s, rules), false)?.phase;
    Ok(next_phase(s, result)?)
}

/// The next phase's scenario after `s`'s phase gave `result`.
fn next_phase(s: &Scenario, result: PhaseResult) -> Result<Advanced, PastLastYear> {
    let map = &*s.map;
    let owners = s.owners_or_home();
    let mut next = s.clone();
    next.orders.clear();
    next.expect = None;
    next.retreats = None;
    next.dislodged = Vec::new();
    next.contested = Vec::new();
    next.units = result.final_units.clone();
    let year = s.phase.year;
    let next_year = || s.phase.next_year().ok_or(PastLastYear { phase: s.phase });
    let after_fall = |units: &[Unit]| update_owners(map, units, &owners);
    let adjust_or_spring = |units: &[Unit], owners: &[Option<PowerId>]| {
        if adjustments_due(map, units, owners).iter().any(|d| *d != 0) {
            Ok(Phase {
                season: Season::Winter,
                year,
                kind: PhaseKind::Adjustment,
            })
        } else {
            Ok(Phase {
                season: Season::Spring,
                year: next_year()?,
                kind: PhaseKind::Movement,
            })
        }
    };
    let mut new_owners = owners.clone();
    next.phase = match (s.phase.season, s.phase.kind) {
        (season, PhaseKind::Movement) if !result.dislodged.is_empty() => {
            next.dislodged = result.dislodged.clone();
            next.contested = result.contested.clone();
            Phase {
                season,
                year,
                kind: PhaseKind::Retreat,
            }
        }
        (Season::Spring, _) => Phase {
            season: Season::Fall,
            year,
            kind: PhaseKind::Movement,
        },
        (Season::Fall, _) => {
            new_owners = after_fall(&result.final_units);
            adjust_or_spring(&result.final_units, &new_owners)?
        }
        (Season::Winter, _) => Phase {
            season: Season::Spring,
            year: next_year()?,
            kind: PhaseKind::Movement,
        },
    };
    next.owners = Some(new_owners.clone());
    next.title = format!("{} ({})", base_title(&s.title), next.phase);
    next.source = if base_source(&s.source).is_empty() {
        format!("advanced from {}", s.phase)
    } else {
        format!("{}; advanced from {}", base_source(&s.source), s.phase)
    };
    let winner = winner(map, &new_owners);
    Ok(Advanced {
        result,
        next,
        winner,
    })
}

fn base_title(t: &str) -> &str {
    match t.rfind(" (") {
        Some(i) if t.ends_with(')') => &t[..i],
        _ => t,
    }
}

/// A source without the phase it was last advanced from: each advance names only the phase
/// just played (the source of a scenario that had none starts with it, and that goes too).
fn base_source(t: &str) -> &str {
    if t.starts_with("advanced from ") {
        return "";
    }
    match t.find("; advanced from") {
        Some(i) => &t[..i],
        None => t,
    }
}
