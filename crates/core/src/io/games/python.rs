//! The Python `diplomacy` package's saved games (`to_saved_game_format`): a JSON object with
//! `map` and `phases`, each phase with its `name` (`S1901M`, `F1901R`, `W1901A`; the last state
//! is `COMPLETED`), its `state` (`units` by power, a dislodged unit written `*A BUD`; `centers`
//! by power), its `orders` by power (`A BUD - SER`, `F NTH C A LON - NWY`, `A LON - NWY VIA`,
//! `A BUD R SER`, `F NWY D`, `A BUD B`, `WAIVE`) and its `results` by unit (`bounce`, `cut`,
//! `dislodged`, `no convoy`, `void`, `disband`; none for an order that succeeded).
//!
//! Orders are read by our parser, which takes the package's notation as it is (a convoyed move's
//! bare `VIA` is read as `via convoy`). A movement
//! phase's verdicts are recorded: an order with no result succeeded; `void` on a support or
//! convoy is a void order; any other result is a failure. Retreat and adjustment phases are
//! compared by the position after them only (the package's results there — `disband`, `void`,
//! an empty string — do not say how each order fared).

use std::sync::Arc;

use serde_json::Value;

use crate::model::board::{Phase, PhaseKind, Season, Unit};
use crate::model::map::{Map, UnitKind};
use crate::model::scenario::Expected;
use crate::tools::replay::RecordedGame;

use super::{GameError, PhaseParts, RecordedOrder, check_phase_names, place, scenarios};

/// Whether a text looks like a saved game of the Python package (a JSON object with `phases`).
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && t.contains("\"phases\"")
}

/// Reads a saved game. `map_for` gives the map the game names (`standard`), or says why there
/// is none. A phase that cannot be read is kept as unreadable; an error is a file that is no
/// saved game at all.
pub fn read(
    text: &str,
    file: &str,
    map_for: &dyn Fn(&str) -> Result<Arc<Map>, String>,
) -> Result<RecordedGame, GameError> {
    let fail = |line: usize, col: usize, message: String| GameError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        fail(
            e.line(),
            e.column(),
            format!("not a saved game of the Python diplomacy package: {e}"),
        )
    })?;
    let map_name = v
        .get("map")
        .and_then(Value::as_str)
        .unwrap_or("standard")
        .to_string();
    let map = map_for(&map_name).map_err(|m| {
        fail(
            1,
            1,
            format!("map {}: {m}", crate::base::text::quoted(&map_name)),
        )
    })?;
    let Some(phases) = v.get("phases").and_then(Value::as_array) else {
        return Err(fail(
            1,
            1,
            "no \"phases\" list; expected a saved game of the Python diplomacy package (to_saved_game_format)".into(),
        ));
    };
    let mut parts = Vec::with_capacity(phases.len());
    for (i, p) in phases.iter().enumerate() {
        let name = p
            .get("name")
            .and_then(Value::as_str)
            .or_else(|| p.pointer("/state/name").and_then(Value::as_str))
            .unwrap_or_default()
            .to_string();
        let terminal = name == "COMPLETED" || name == "FORMING";
        let phase = parse_name(&name);
        let mut unreadable = match (&phase, terminal) {
            (Err(m), false) => Some(format!("phase {}: {m}", i + 1)),
            _ => None,
        };
        let phase = phase.unwrap_or(Phase {
            season: Season::Spring,
            year: 1901,
            kind: PhaseKind::Movement,
        });
        let (units, dislodged_units) = match units_of(&map, p.pointer("/state/units")) {
            Ok(u) => u,
            Err(m) => {
                unreadable.get_or_insert(m);
                (Vec::new(), Vec::new())
            }
        };
        let owners = match p.pointer("/state/centers") {
            Some(c) => match owners_of(&map, c) {
                Ok(o) => Some(o),
                Err(m) => {
                    unreadable.get_or_insert(m);
                    None
                }
            },
            None => None,
        };
        let results = p.get("results");
        let mut orders = Vec::new();
        if let Some(by_power) = p.get("orders").and_then(Value::as_object) {
            for (power, list) in by_power {
                let Some(pid) = map.find_power(power) else {
                    unreadable.get_or_insert(format!(
                        "unknown power {}",
                        crate::base::text::quoted(power)
                    ));
                    continue;
                };
                for o in list.as_array().map(Vec::as_slice).unwrap_or_default() {
                    let Some(text) = o.as_str() else { continue };
                    let verdict = match phase.kind {
                        PhaseKind::Movement => results.and_then(|r| verdict_of(text, r)),
                        PhaseKind::Retreat | PhaseKind::Adjustment => None,
                    };
                    // The package ends a convoyed move with a bare `VIA`.
                    let text = match text.strip_suffix(" VIA") {
                        Some(head) => format!("{head} via convoy"),
                        None => text.to_string(),
                    };
                    orders.push(RecordedOrder {
                        power: pid,
                        text,
                        verdict,
                    });
                }
            }
        }
        // The units the phase's results say were dislodged (a unit with nowhere to retreat is
        // disbanded at once: the retreat phase's state never lists it).
        let dislodged_recorded = match (phase.kind, results.and_then(Value::as_object)) {
            (PhaseKind::Movement, Some(r)) => Some(
                r.iter()
                    .filter(|(_, codes)| {
                        codes
                            .as_array()
                            .is_some_and(|c| c.iter().any(|x| x.as_str() == Some("dislodged")))
                    })
                    .filter_map(|(key, _)| {
                        let at = key.split_whitespace().nth(1)?;
                        let prov = map.find_province(at.split('/').next().unwrap_or(at))?;
                        units
                            .iter()
                            .find(|u| map.province_of(u.loc) == prov)
                            .copied()
                    })
                    .collect(),
            ),
            _ => None,
        };
        parts.push(PhaseParts {
            name,
            line: 1,
            dislodged_recorded,
            phase,
            units,
            dislodged_units,
            owners,
            orders,
            unreadable,
            terminal,
        });
    }
    check_phase_names(&mut parts, file)?;
    Ok(RecordedGame {
        source: file.to_string(),
        recorder: "diplomacy package".into(),
        map: map_name.clone(),
        phases: scenarios(&map, &map_name, file, parts),
    })
}

/// `S1901M` → Spring 1901 Movement; `F1901R`, `W1901A`.
pub fn parse_name(name: &str) -> Result<Phase, String> {
    let bad = || {
        format!(
            "phase name {}; expected a season letter (S, F, W), a year and a kind letter (M, R, A), e.g. S1901M",
            crate::base::text::quoted(name)
        )
    };
    let mut chars = name.chars();
    let season = match chars.next() {
        Some('S') => Season::Spring,
        Some('F') => Season::Fall,
        Some('W') => Season::Winter,
        _ => return Err(bad()),
    };
    let kind = match name.chars().last() {
        Some('M') => PhaseKind::Movement,
        Some('R') => PhaseKind::Retreat,
        Some('A') => PhaseKind::Adjustment,
        _ => return Err(bad()),
    };
    let year: i32 = name
        .get(1..name.len().saturating_sub(1))
        .and_then(|y| y.parse().ok())
        .ok_or_else(bad)?;
    if !(Phase::FIRST_YEAR..=Phase::LAST_YEAR).contains(&year) {
        return Err(bad());
    }
    Ok(Phase { season, year, kind })
}

/// The units of a state (`{"AUSTRIA": ["A BUD", "*F TRI"]}`): those on the board and those
/// dislodged (written with a star).
fn units_of(map: &Map, v: Option<&Value>) -> Result<(Vec<Unit>, Vec<Unit>), String> {
    let mut units = Vec::new();
    let mut dislodged = Vec::new();
    let Some(by_power) = v.and_then(Value::as_object) else {
        return Ok((units, dislodged));
    };
    for (power, list) in by_power {
        let pid = map
            .find_power(power)
            .ok_or_else(|| format!("unknown power {}", crate::base::text::quoted(power)))?;
        for u in list.as_array().map(Vec::as_slice).unwrap_or_default() {
            let Some(text) = u.as_str() else { continue };
            let (star, text) = match text.strip_prefix('*') {
                Some(t) => (true, t),
                None => (false, text),
            };
            let (letter, at) = text.split_once(' ').ok_or_else(|| {
                format!(
                    "unit {}; expected A or F and a place",
                    crate::base::text::quoted(text)
                )
            })?;
            let kind = match letter {
                "A" | "a" => UnitKind::Army,
                "F" | "f" => UnitKind::Fleet,
                _ => {
                    return Err(format!(
                        "unit {}; expected A or F and a place",
                        crate::base::text::quoted(text)
                    ));
                }
            };
            let unit = place(map, pid, kind, at.trim())?;
            if star {
                dislodged.push(unit);
            } else {
                units.push(unit);
            }
        }
    }
    Ok((units, dislodged))
}

/// The owners of the centres (`{"AUSTRIA": ["BUD", "TRI"]}`), by province.
fn owners_of(map: &Map, v: &Value) -> Result<Vec<Option<crate::model::map::PowerId>>, String> {
    let mut owners = vec![None; map.province_count()];
    let Some(by_power) = v.as_object() else {
        return Ok(owners);
    };
    for (power, list) in by_power {
        let pid = map
            .find_power(power)
            .ok_or_else(|| format!("unknown power {}", crate::base::text::quoted(power)))?;
        for c in list.as_array().map(Vec::as_slice).unwrap_or_default() {
            let Some(c) = c.as_str() else { continue };
            let p = map
                .find_province(c)
                .ok_or_else(|| format!("unknown supply centre {}", crate::base::text::quoted(c)))?;
            if let Some(slot) = owners.get_mut(p.0 as usize) {
                *slot = Some(pid);
            }
        }
    }
    Ok(owners)
}

/// The verdict the package recorded for a movement order: its results are listed by the unit
/// the order begins with (`A BUD`, `F STP/SC`).
fn verdict_of(order: &str, results: &Value) -> Option<Expected> {
    let mut words = order.split_whitespace();
    let unit = format!("{} {}", words.next()?, words.next()?);
    let verb = words.next().unwrap_or_default();
    let list = results.get(&unit)?.as_array()?;
    let codes: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
    if codes.iter().all(|c| c.is_empty()) {
        return Some(Expected::Succeeds);
    }
    if codes.contains(&"void") && matches!(verb, "S" | "C") {
        return Some(Expected::Void);
    }
    Some(Expected::Fails)
}
