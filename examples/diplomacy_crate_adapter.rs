//! An outside adjudicator for dipsandbox: the `diplomacy` crate (0.2) behind the JSON protocol of
//! docs/json.md ("The outside-adjudicator protocol"). Copy it as the start of your own adapter.
//!
//! Build and use:
//!
//! ```text
//! cargo build --example diplomacy_crate_adapter
//! dipsandbox check scenarios/datc --engine 'cmd:target/debug/examples/diplomacy_crate_adapter'
//! ```
//!
//! Line-delimited: one request per line on standard input, one answer per line on standard
//! output, until standard input ends. It answers movement phases of the standard map, and
//! leaves retreat and adjustment phases to dipsandbox's own adjudicators (`"shared": true`).
//!
//! Its translation, order by order: the structured fields of each order (`kind`, `unit`, `to`,
//! `target`) become the crate's notation (`FRA: A par -> bur`); a unit written without its
//! letter takes the letter of the unit standing there; an order the crate cannot read is
//! answered `illegal`. `via Convoy` is passed on; a written convoy path is not (the crate has no
//! notation for it). The rulebook follows the request's
//! `adjacent_convoy` option (4.A.3): Rule1971 -> the 1971 edition, ViaConvoyOnly -> DPTG,
//! otherwise the 2023 edition.

use std::io::{BufRead, Write};

use diplomacy::geo::{RegionKey, standard_map};
use diplomacy::judge::{MappedMainOrder, OrderOutcome, OrderState, Rulebook, Submission};
use diplomacy::{ShortName, UnitPosition};
use serde_json::{Value, json};

/// `England` -> `ENG`, as the crate names nations.
fn nation(power: &str) -> String {
    power.chars().take(3).collect::<String>().to_uppercase()
}

/// `Spa(nc)` -> `spa(nc)`, as the crate names regions.
fn region(place: &str) -> String {
    place.to_lowercase()
}

/// The board's units: province (lower case, no coast) -> (letter, region, nation).
fn board(units: &[Value]) -> Vec<(String, String, String, String)> {
    units
        .iter()
        .filter_map(|u| {
            let power = u["power"].as_str()?;
            let (letter, place) = u["unit"].as_str()?.split_once(' ')?;
            let province = place.split('(').next()?.to_lowercase();
            Some((province, letter.to_string(), region(place), nation(power)))
        })
        .collect()
}

/// A unit as written in an order (`A Par`, or `Par` without its letter), in the crate's
/// notation: the letter as written, else the letter of the unit standing there.
fn unit_text(written: &str, board: &[(String, String, String, String)]) -> Option<String> {
    let (letter, place) = match written.split_once(' ') {
        Some((l, p)) => (Some(l.to_string()), p),
        None => (None, written),
    };
    let province = place.split('(').next()?.to_lowercase();
    let on_board = board.iter().find(|b| b.0 == province);
    let letter = letter.or_else(|| on_board.map(|b| b.1.clone()))?;
    Some(format!("{letter} {}", region(place)))
}

/// One order in the crate's notation; None when it cannot be written there.
fn their_order(o: &Value, board: &[(String, String, String, String)]) -> Option<String> {
    let head = format!(
        "{}: {}",
        nation(o["power"].as_str()?),
        unit_text(o["unit"].as_str()?, board)?
    );
    let to = || o["to"].as_str().map(region);
    let target = || unit_text(o["target"].as_str()?, board);
    Some(match o["kind"].as_str()? {
        "hold" => format!("{head} holds"),
        "move" if o["via_convoy"] == json!(true) => format!("{head} -> {} via convoy", to()?),
        "move" => format!("{head} -> {}", to()?),
        "support" => match to() {
            Some(to) => format!("{head} supports {} -> {to}", target()?),
            None => format!("{head} supports {}", target()?),
        },
        "convoy" => format!("{head} convoys {} -> {}", target()?, to()?),
        _ => return None,
    })
}

fn rulebook(request: &Value) -> Rulebook {
    match request["options"]["adjacent_convoy"].as_str() {
        Some("Rule1971") => Rulebook::edition_1971(),
        Some("ViaConvoyOnly") => Rulebook::edition_dptg(),
        _ => Rulebook::edition_2023(),
    }
}

/// The answer to one request.
fn answer(request: &Value) -> Value {
    let id = request["id"].clone();
    let refuse = |why: &str| json!({ "protocol": 1, "id": id, "error": why });
    if request["protocol"] != json!(1) {
        return refuse("this adapter speaks protocol 1");
    }
    if request["map"] != json!("standard") {
        return refuse("the diplomacy crate knows only the standard map");
    }
    if request["kind"] != json!("movement") {
        // Retreats and adjustments: dipsandbox's own adjudicators decide them.
        return json!({ "protocol": 1, "id": id, "shared": true });
    }
    let empty = Vec::new();
    let units = board(request["units"].as_array().unwrap_or(&empty));
    let positions: Vec<UnitPosition<'static, RegionKey>> = units
        .iter()
        .filter_map(|(_, letter, place, nation)| format!("{nation}: {letter} {place}").parse().ok())
        .collect();
    if positions.len() != units.len() {
        return refuse("a unit of the board cannot be written in the crate's notation");
    }
    let orders = request["orders"].as_array().unwrap_or(&empty);
    // Per request order: the crate's order, when it can read it.
    let theirs: Vec<Option<MappedMainOrder>> = orders
        .iter()
        .map(|o| their_order(o, &units)?.parse().ok())
        .collect();
    let submitted: Vec<MappedMainOrder> = theirs.iter().flatten().cloned().collect();
    let submission = Submission::new(standard_map(), &positions, submitted);
    let outcome = submission.adjudicate(rulebook(request));
    let results: Vec<Value> = orders
        .iter()
        .zip(&theirs)
        .map(|(o, t)| {
            let (result, reason) = match t.as_ref().and_then(|t| outcome.get(t)) {
                None => ("illegal", "the crate cannot read this order".to_string()),
                Some(oc @ OrderOutcome::Illegal(_)) => ("illegal", format!("{oc:?}")),
                Some(oc) => match OrderState::from(oc) {
                    OrderState::Succeeds => ("succeeds", format!("{oc:?}")),
                    OrderState::Fails => ("fails", format!("{oc:?}")),
                },
            };
            json!({ "id": o["id"], "result": result, "reason": reason })
        })
        .collect();
    let retreat = outcome.to_retreat_start();
    let dislodged: Vec<Value> = retreat
        .dislodged()
        .iter()
        .map(|(victim, by)| {
            json!({
                "unit": format!("{} {}", victim.unit_type.short_name(), victim.region),
                "attacker_from": by.region.province().short_name(),
            })
        })
        .collect();
    json!({ "protocol": 1, "id": id, "results": results, "dislodged": dislodged })
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Ok(request) => answer(&request),
            Err(e) => json!({ "protocol": 1, "id": 0, "error": format!("not JSON: {e}") }),
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
