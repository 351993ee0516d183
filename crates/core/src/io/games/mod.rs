//! Games recorded by other programs, read phase by phase into scenarios whose expectations are
//! the recorded results, for [`crate::tools::replay`]:
//!
//! - [`python`]: the Python `diplomacy` package's saved games (JSON: phases with their states,
//!   orders and results);
//! - [`godip`]: godip's game files (`variants/*/games/*.txt`: `PHASE`, `POSITIONS`, `ORDERS`).
//!
//! Both readers share what this module holds: placing a unit, the owners of the centres, the
//! phases' scenarios, and the retreat phase's attackers and standoffs, which neither format
//! records and which come from the movement phase before it.

pub mod godip;
pub mod python;

use std::sync::Arc;

use thiserror::Error;

use crate::model::board::{Dislodged, Phase, Unit};
use crate::model::map::{Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{Order, OrderKind, parse_order, parse_unit};
use crate::model::rules::Rules;
use crate::model::scenario::{Expect, OrderEntry, Scenario};
use crate::tools::replay::RecordedPhase;

/// Why a recorded game could not be read at all (a phase that cannot be read is only marked
/// unreadable, and the others are still replayed).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct GameError {
    /// The file.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
    /// What was found and what was expected.
    pub message: String,
}

/// A unit written `A BUD`, `F STP/SC`, `fleet len/sc` by `power`, placed on `map`: where its
/// kind can stand.
pub(crate) fn place(map: &Map, power: PowerId, kind: UnitKind, at: &str) -> Result<Unit, String> {
    let letter = match kind {
        UnitKind::Army => "A",
        UnitKind::Fleet => "F",
    };
    let spec = parse_unit(map, &format!("{letter} {at}"))
        .map_err(|e| format!("unit {letter} {at}: {}", e.message))?;
    let prov = map.province(spec.loc.province);
    let loc = match spec.loc.coast {
        Some(c) => prov
            .coast(c)
            .ok_or_else(|| format!("unit {letter} {at}: {} has no {}", prov.name, c.name()))?,
        None => prov.main,
    };
    match (kind, prov.kind) {
        (UnitKind::Army, ProvinceKind::Sea) => {
            return Err(format!("unit {letter} {at}: an army in a sea"));
        }
        (UnitKind::Fleet, ProvinceKind::Land) => {
            return Err(format!("unit {letter} {at}: a fleet inland"));
        }
        (UnitKind::Fleet, _) if prov.is_multi_coast() && loc == prov.main => {
            return Err(format!(
                "unit {letter} {at}: a fleet in {} without its coast",
                prov.name
            ));
        }
        _ => {}
    }
    Ok(Unit { power, kind, loc })
}

/// The first unit of `units` that stands in the same province as another, if one does.
pub(crate) fn doubled(map: &Map, units: &[Unit]) -> Option<String> {
    let mut seen = vec![false; map.province_count()];
    for u in units {
        let p = map.province_of(u.loc).0 as usize;
        match seen.get_mut(p) {
            Some(s) if *s => {
                return Some(format!(
                    "two units in {}; a province holds one unit",
                    map.province(map.province_of(u.loc)).name
                ));
            }
            Some(s) => *s = true,
            None => {}
        }
    }
    None
}

/// One order as recorded: its power, its text (in our words where the format's differ), and the
/// result recorded for it, if the format records one.
#[derive(Clone, Debug)]
pub(crate) struct RecordedOrder {
    pub power: PowerId,
    pub text: String,
    pub verdict: Option<crate::model::scenario::Expected>,
}

/// What a reader gathered for one phase.
#[derive(Clone, Debug)]
pub(crate) struct PhaseParts {
    /// The phase's name as the file gives it (made safe to show by [`check_phase_names`]).
    pub name: String,
    /// The line it starts on (1 where the format does not say).
    pub line: usize,
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub dislodged_units: Vec<Unit>,
    pub owners: Option<Vec<Option<PowerId>>>,
    pub orders: Vec<RecordedOrder>,
    /// Why the phase cannot be read, if it cannot.
    pub unreadable: Option<String>,
    /// The state after the last phase (the Python package's `COMPLETED`): the expected result
    /// of the phase before it, not a phase to replay.
    pub terminal: bool,
    /// The units this movement phase dislodged, as its recorded results say (the Python
    /// package's `dislodged`), when the format records them: a unit dislodged with nowhere to
    /// go is disbanded at once and never shows in the retreat phase's state.
    pub dislodged_recorded: Option<Vec<Unit>>,
}

/// The longest phase name kept as it is (longer ones are cut, with their length).
pub const MAX_PHASE_NAME: usize = crate::base::text::SHOWN;

/// Makes each phase's name safe to print and to put in a file name's place (control and
/// invisible characters escaped, cut to [`MAX_PHASE_NAME`] characters) and refuses a game that
/// names one phase twice: a recorded game passes through each phase once, and the phases of
/// one name would be written to one file.
pub(crate) fn check_phase_names(parts: &mut [PhaseParts], file: &str) -> Result<(), GameError> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, p) in parts.iter_mut().enumerate() {
        p.name = crate::base::text::cut(&p.name);
        if p.terminal {
            continue;
        }
        if let Some(first) = seen.insert(p.name.clone(), i) {
            return Err(GameError {
                file: file.to_string(),
                line: p.line,
                col: 1,
                message: format!(
                    "phase {} is phase {} and phase {} of the game; a recorded game passes through each phase once",
                    crate::base::text::quoted(&p.name),
                    first + 1,
                    i + 1
                ),
            });
        }
    }
    Ok(())
}

/// The scenarios of a game's phases: each phase's position and orders, with the next phase's
/// position as the expected result (and the recorded verdicts). A retreat phase's attackers and
/// standoffs come from the movement phase before it: the successful move into each dislodged
/// unit's province, and the provinces two or more failed moves were made into and that nobody
/// holds.
pub(crate) fn scenarios(
    map: &Arc<Map>,
    map_name: &str,
    source: &str,
    parts: Vec<PhaseParts>,
) -> Vec<RecordedPhase> {
    let mut out: Vec<RecordedPhase> = Vec::with_capacity(parts.len());
    // The orders of each phase, parsed, for the retreat phase after it.
    let mut parsed_before: Vec<(Order, Option<crate::model::scenario::Expected>)> = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if p.terminal {
            break;
        }
        let mut unreadable = p.unreadable.clone();
        let mut orders = Vec::with_capacity(p.orders.len());
        for o in &p.orders {
            match parse_order(map, &o.text) {
                Ok(order) => orders.push(OrderEntry {
                    power: o.power,
                    text: o.text.clone(),
                    order,
                }),
                Err(e) => {
                    unreadable.get_or_insert_with(|| {
                        format!(
                            "{} order {}: column {}: {}",
                            map.power(o.power).name,
                            crate::base::text::quoted(&o.text),
                            e.col,
                            e.message
                        )
                    });
                }
            }
        }
        if unreadable.is_none() {
            unreadable = doubled(map, &p.units);
        }
        let mut dislodged = Vec::new();
        let mut contested = Vec::new();
        if p.phase.kind == crate::model::board::PhaseKind::Retreat {
            for d in &p.dislodged_units {
                let here = map.province_of(d.loc);
                let attacker = parsed_before
                    .iter()
                    .find_map(|(o, v)| match (&o.kind, o.unit) {
                        (
                            OrderKind::Move {
                                dest, via_convoy, ..
                            },
                            Some(u),
                        ) if dest.province == here
                            && *v == Some(crate::model::scenario::Expected::Succeeds) =>
                        {
                            Some((u.loc.province, *via_convoy))
                        }
                        _ => None,
                    });
                let (attacker_from, by_convoy) = attacker.unwrap_or((here, false));
                dislodged.push(Dislodged {
                    unit: *d,
                    attacker_from,
                    by_convoy,
                });
            }
            let mut failed: Vec<ProvinceId> = parsed_before
                .iter()
                .filter_map(|(o, v)| match &o.kind {
                    OrderKind::Move { dest, .. }
                        if v.is_some_and(|v| v != crate::model::scenario::Expected::Succeeds) =>
                    {
                        Some(dest.province)
                    }
                    _ => None,
                })
                .collect();
            failed.sort();
            for w in failed.windows(2) {
                if let [a, b] = w
                    && a == b
                    && !contested.contains(a)
                    && !p.units.iter().any(|u| map.province_of(u.loc) == *a)
                {
                    contested.push(*a);
                }
            }
        }
        // The expected result: the next phase's position (and, when it is the retreat phase of
        // this one, its dislodged units), and the verdicts recorded with the orders.
        let next = parts.get(i + 1);
        let expect = next.map(|n| {
            let results = p
                .orders
                .iter()
                .enumerate()
                .filter_map(|(k, o)| o.verdict.map(|v| (k, String::new(), v)))
                .filter(|(k, _, _)| *k < orders.len())
                .collect();
            Expect {
                results,
                // Only a record of the movement's own results says which units it dislodged: a
                // retreat phase's state leaves out those disbanded at once, having nowhere to
                // go (godip's files and the Python package's alike). Without such a record
                // the positions are compared, which show them gone.
                dislodged: p.dislodged_recorded.clone(),
                positions: Some(n.units.clone()),
            }
        });
        // The verdicts are indexed by the recorded orders; drop them when an order was not read.
        let expect = if orders.len() == p.orders.len() {
            expect
        } else {
            None
        };
        parsed_before = orders
            .iter()
            .zip(&p.orders)
            .map(|(e, o)| (e.order.clone(), o.verdict))
            .collect();
        let scenario = Scenario {
            title: format!("{source} {}", p.name),
            description: format!("Phase {} of the game recorded in {source}.", p.name),
            source: format!("replay of {source}, phase {}", p.name),
            map: Arc::clone(map),
            map_ref: map_name.to_string(),
            map_file: None,
            phase: p.phase,
            rules: Rules::default(),
            units: p.units.clone(),
            dislodged,
            contested,
            owners: p.owners.clone(),
            orders,
            expect,
            retreats: None,
        };
        out.push(RecordedPhase {
            name: p.name.clone(),
            scenario,
            unreadable,
        });
    }
    out
}
