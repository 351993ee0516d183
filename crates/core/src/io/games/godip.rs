//! godip's game files (`variants/*/games/game_N.txt`): one block per phase, the position before
//! it and the orders given in it; the next block's position is the recorded result.
//!
//! ```text
//! PHASE 1901 Spring Movement
//! POSITIONS
//!     England: fleet lon
//!     England: army/dislodged yor
//!     England: supply lon
//! ORDERS
//!     lon move nth
//!     yor support lon move nth
//!     nth convoy yor move nwy
//!     edi hold
//!     yor disband
//!     build Army lvp
//!     remove edi
//! ```
//!
//! Orders name no power and no unit type: both come from the position (the unit in the
//! province; for a build, the owner of the centre). They are written in our words
//! (`A yor S F lon - nth`) before they are parsed, so every phase replays as a scenario would.

use std::sync::Arc;

use crate::model::board::{Phase, PhaseKind, Unit};
use crate::model::map::{Map, PowerId, UnitKind};
use crate::tools::replay::RecordedGame;

use super::{GameError, PhaseParts, RecordedOrder, check_phase_names, place, scenarios};

/// Whether a text looks like a godip game file (a `PHASE` line, then `POSITIONS`).
pub fn looks_like(text: &str) -> bool {
    let mut lines = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty());
    lines.next().is_some_and(|l| l.starts_with("PHASE "))
        && lines.next().is_some_and(|l| l == "POSITIONS")
}

/// Reads a godip game on `map` (godip's files do not name their map: the caller knows it from
/// the folder, `variants/NAME/games`, or is told). A phase that cannot be read is kept as
/// unreadable; an error is a file that is no game at all.
pub fn read(
    text: &str,
    file: &str,
    map: Arc<Map>,
    map_name: &str,
) -> Result<RecordedGame, GameError> {
    let fail = |line: usize, col: usize, message: String| GameError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    #[derive(PartialEq)]
    enum Section {
        None,
        Positions,
        Orders,
    }
    struct Block {
        line: usize,
        name: String,
        phase: Result<Phase, String>,
        positions: Vec<(usize, String)>,
        orders: Vec<(usize, String)>,
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut section = Section::None;
    for (i, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("PHASE ") {
            blocks.push(Block {
                line: n,
                name: rest.trim().to_string(),
                phase: parse_phase(rest),
                positions: Vec::new(),
                orders: Vec::new(),
            });
            section = Section::None;
            continue;
        }
        match line {
            "POSITIONS" => section = Section::Positions,
            "ORDERS" => section = Section::Orders,
            _ => {
                let Some(b) = blocks.last_mut() else {
                    return Err(fail(
                        n,
                        1,
                        format!(
                            "{} before the first PHASE line; expected PHASE <year> <season> <kind>",
                            crate::base::text::quoted(line)
                        ),
                    ));
                };
                match section {
                    Section::Positions => b.positions.push((n, line.to_string())),
                    Section::Orders => b.orders.push((n, line.to_string())),
                    Section::None => {
                        return Err(fail(
                            n,
                            1,
                            format!(
                                "{} outside POSITIONS and ORDERS; expected one of them after PHASE",
                                crate::base::text::quoted(line)
                            ),
                        ));
                    }
                }
            }
        }
    }
    if blocks.is_empty() {
        return Err(fail(
            1,
            1,
            "no PHASE line; expected a godip game file".into(),
        ));
    }
    let mut parts = Vec::with_capacity(blocks.len());
    for b in &blocks {
        let mut unreadable = b
            .phase
            .as_ref()
            .err()
            .map(|m| format!("line {}: {m}", b.line));
        let phase = b.phase.clone().unwrap_or(Phase {
            season: crate::model::board::Season::Spring,
            year: 1901,
            kind: PhaseKind::Movement,
        });
        let mut units: Vec<Unit> = Vec::new();
        let mut dislodged = Vec::new();
        let mut owners = vec![None; map.province_count()];
        for (n, l) in &b.positions {
            match position(&map, l) {
                Ok(Position::Unit(u)) => units.push(u),
                Ok(Position::Dislodged(u)) => dislodged.push(u),
                Ok(Position::Centre(power, p)) => {
                    if let Some(slot) = owners.get_mut(p.0 as usize) {
                        *slot = Some(power);
                    }
                }
                Err(m) => {
                    unreadable.get_or_insert(format!("line {n}: {m}"));
                }
            }
        }
        let mut orders = Vec::new();
        for (n, l) in &b.orders {
            match order(&map, l, &units, &dislodged, &owners, phase.kind) {
                Ok((power, text)) => orders.push(RecordedOrder {
                    power,
                    text,
                    verdict: None,
                }),
                Err(m) => {
                    unreadable.get_or_insert(format!("line {n}: {m}"));
                }
            }
        }
        parts.push(PhaseParts {
            name: b.name.clone(),
            line: b.line,
            phase,
            units,
            dislodged_units: dislodged,
            owners: Some(owners),
            orders,
            unreadable,
            terminal: false,
            dislodged_recorded: None,
        });
    }
    check_phase_names(&mut parts, file)?;
    Ok(RecordedGame {
        source: file.to_string(),
        recorder: "godip".into(),
        map: map_name.to_string(),
        phases: scenarios(&map, map_name, file, parts),
    })
}

/// `1901 Spring Movement` (godip writes the year first).
fn parse_phase(rest: &str) -> Result<Phase, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    match words.as_slice() {
        [year, season, kind] => Phase::parse(&format!("{season} {year} {kind}")).map_err(|m| {
            format!("{m} (godip writes PHASE <year> <season> <kind>; a season other than Spring, Fall or Winter is a variant's calendar, which this map does not have)")
        }),
        _ => Err(format!(
            "phase {}; expected PHASE <year> <season> <kind>, e.g. PHASE 1901 Spring Movement", crate::base::text::quoted(rest)
        )),
    }
}

enum Position {
    Unit(Unit),
    Dislodged(Unit),
    Centre(PowerId, crate::model::map::ProvinceId),
}

/// `England: fleet lon`, `England: army/dislodged yor`, `England: supply lon`.
fn position(map: &Map, line: &str) -> Result<Position, String> {
    let (power, rest) = line.split_once(':').ok_or_else(|| {
        format!(
            "{}; expected Power: army|fleet|supply place",
            crate::base::text::quoted(line)
        )
    })?;
    let pid = map
        .find_power(power.trim())
        .ok_or_else(|| format!("unknown power {}", crate::base::text::quoted(power.trim())))?;
    let mut words = rest.split_whitespace();
    let (what, at) = (
        words.next().unwrap_or_default(),
        words.next().unwrap_or_default(),
    );
    let kind = |w: &str| match w {
        "army" => Some(UnitKind::Army),
        "fleet" => Some(UnitKind::Fleet),
        _ => None,
    };
    if what == "supply" {
        let p = map
            .find_province(at)
            .ok_or_else(|| format!("unknown supply centre {}", crate::base::text::quoted(at)))?;
        return Ok(Position::Centre(pid, p));
    }
    if let Some(k) = what.strip_suffix("/dislodged").and_then(kind) {
        return place(map, pid, k, at).map(Position::Dislodged);
    }
    match kind(what) {
        Some(k) => place(map, pid, k, at).map(Position::Unit),
        None => Err(format!(
            "{} in {}; expected army, fleet, army/dislodged, fleet/dislodged or supply",
            crate::base::text::quoted(what),
            crate::base::text::quoted(line)
        )),
    }
}

/// An order in our words, with the power that gave it.
fn order(
    map: &Map,
    line: &str,
    units: &[Unit],
    dislodged: &[Unit],
    owners: &[Option<PowerId>],
    kind: PhaseKind,
) -> Result<(PowerId, String), String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    // The unit in a province (for a retreat phase, the dislodged one first).
    // A place may name its coast (`stp/sc`); the unit is found by its province.
    let province = |at: &str| map.find_province(at.split('/').next().unwrap_or(at));
    let unit_at = |at: &str| -> Result<Unit, String> {
        let p = province(at).ok_or_else(|| {
            format!(
                "unknown province {} in {}",
                crate::base::text::quoted(at),
                crate::base::text::quoted(line)
            )
        })?;
        let pool: Vec<&Unit> = if kind == PhaseKind::Retreat {
            dislodged.iter().chain(units).collect()
        } else {
            units.iter().collect()
        };
        pool.into_iter()
            .find(|u| map.province_of(u.loc) == p)
            .copied()
            .ok_or_else(|| {
                format!(
                    "no unit in {} for {}",
                    crate::base::text::quoted(at),
                    crate::base::text::quoted(line)
                )
            })
    };
    let letter = |u: &Unit| match u.kind {
        UnitKind::Army => "A",
        UnitKind::Fleet => "F",
    };
    let named = |u: &Unit| format!("{} {}", letter(u), map.loc_abbr(u.loc));
    match w.as_slice() {
        ["build", kind_word, at] => {
            let p = province(at).ok_or_else(|| {
                format!(
                    "unknown province {} in {}",
                    crate::base::text::quoted(at),
                    crate::base::text::quoted(line)
                )
            })?;
            let power = owners.get(p.0 as usize).copied().flatten().ok_or_else(|| {
                format!(
                    "{} is owned by nobody; a build needs its owner",
                    crate::base::text::quoted(at)
                )
            })?;
            let l = if kind_word.eq_ignore_ascii_case("army") {
                "A"
            } else {
                "F"
            };
            Ok((power, format!("Build {l} {at}")))
        }
        ["remove", at] => {
            let u = unit_at(at)?;
            Ok((u.power, format!("Remove {}", named(&u))))
        }
        [at, "hold"] => {
            let u = unit_at(at)?;
            Ok((u.power, format!("{} H", named(&u))))
        }
        [at, "disband"] => {
            let u = unit_at(at)?;
            Ok((u.power, format!("{} Disband", named(&u))))
        }
        [at, "move", to] => {
            let u = unit_at(at)?;
            let verb = if kind == PhaseKind::Retreat { "R" } else { "-" };
            Ok((u.power, format!("{} {verb} {to}", named(&u))))
        }
        [at, "support", whom] => {
            let u = unit_at(at)?;
            let t = unit_at(whom)?;
            Ok((u.power, format!("{} S {}", named(&u), named(&t))))
        }
        [at, "support", whom, "move", to] => {
            let u = unit_at(at)?;
            let t = unit_at(whom)?;
            Ok((u.power, format!("{} S {} - {to}", named(&u), named(&t))))
        }
        [at, "convoy", whom, "move", to] => {
            let u = unit_at(at)?;
            let t = unit_at(whom)?;
            Ok((u.power, format!("{} C {} - {to}", named(&u), named(&t))))
        }
        _ => Err(format!(
            "order {}; expected PLACE hold|move|support|convoy|disband …, build KIND PLACE or remove PLACE",
            crate::base::text::quoted(line)
        )),
    }
}
