//! The outside-adjudicator protocol, version [`PROTOCOL`]: the request dipsandbox writes for one
//! phase ([`Request`], built by [`request`]) and the answer it reads back ([`Answer`]), checked
//! and turned into the same [`PhaseResult`] the built-in engines give ([`answer_to_result`]).
//! The schema is published in `docs/json.md` ("The outside-adjudicator protocol").
//!
//! Places are written as the map's abbreviations with a capital (`Lon`, `Spa(nc)`), units as
//! `A Par` / `F Stp(sc)`, powers by name (`England`); answers may use any spelling the order
//! parser accepts (`F stp/sc`, `North Sea`).
//!
//! Neutral units ([`crate::model::map::PowerId::NEUTRAL`]) are not part of protocol 1: a
//! phase whose position has any is refused before a request is written (the engine says so),
//! rather than sent under a power name an adjudicator would take for a player.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::base::text::{bounded, cut, one_line};
use crate::engine::adjust::adjudicate_adjustments;
use crate::engine::legality::{self, Route, UnitOrder};
use crate::engine::outcome::{OrderOutcome, PhaseResult, Verdict};
use crate::engine::retreat::adjudicate_retreats;
use crate::engine::seam::PhaseInput;
use crate::model::board::{Dislodged, PhaseKind, Unit};
use crate::model::map::{LocId, Map, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{LocSpec, NameStyle, OrderKind, UnitSpec, format_order, parse_loc};
use crate::model::orders::{UnitRef, parse_unit};

/// The protocol version this dipsandbox speaks: requests carry it, answers must repeat it.
pub const PROTOCOL: u32 = 1;

/// One unit on the board, as the protocol writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitJson {
    /// The owner's name: `England`.
    pub power: String,
    /// The unit: `A Par`, `F Spa(nc)`.
    pub unit: String,
}

/// A dislodged unit waiting to retreat (in a retreat phase's request).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DislodgedJson {
    /// The owner's name.
    pub power: String,
    /// The unit, where it stood.
    pub unit: String,
    /// Where the unit that dislodged it came from: `Bur`.
    pub attacker_from: String,
    /// Whether that attacker came by convoy (DATC 4.A.5).
    pub by_convoy: bool,
}

/// A supply centre's owner (in an adjustment phase's request).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnerJson {
    /// The centre: `Lon`.
    pub province: String,
    /// Its owner's name.
    pub power: String,
}

/// One submitted order: as written, in the canonical short form, and taken apart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderJson {
    /// Its index in the phase's orders (from 0); the answer's results name orders by it.
    pub id: usize,
    /// The power whose order list it is in.
    pub power: String,
    /// The text exactly as the scenario wrote it.
    pub text: String,
    /// The order in the canonical short form: `F Lon S A Wal - Lon`, `A Yor - Nth - Bel`.
    pub order: String,
    /// `hold`, `move`, `support`, `convoy`, `disband`, `build`, `remove` or `waive` (a move
    /// of a retreat phase is a retreat).
    pub kind: &'static str,
    /// The ordered (built, removed) unit as written: `F Lon`, or `Lon` when the letter was
    /// left out; null for `waive`.
    pub unit: Option<String>,
    /// Where to: a move's destination, a supported move's destination, a convoy's destination.
    pub to: Option<String>,
    /// A move: `via Convoy` was written.
    pub via_convoy: bool,
    /// A move: the provinces of a written convoy path (`A Yor - Nth - Bel`: `["Nth"]`).
    pub path: Vec<String>,
    /// A support or convoy: the supported or convoyed unit as written (`A Wal`).
    pub target: Option<String>,
    /// A support or convoy: the nationality written before the target, if any.
    pub target_power: Option<String>,
}

/// The request for one phase: everything an adjudicator needs, written on one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Request {
    /// [`PROTOCOL`].
    pub protocol: u32,
    /// A number the answer repeats (counts up from 1 over a process's life).
    pub id: u64,
    /// The map's name: `standard`.
    pub map: String,
    /// The phase: `Spring 1901 Movement`.
    pub phase: String,
    /// `movement`, `retreat` or `adjustment`.
    pub kind: &'static str,
    /// The rule preset these rules equal (`datc`, `1971`, …), or null when options differ
    /// from every preset.
    pub rules: Option<&'static str>,
    /// Every rule option and its value (`"paradox": "Szykman"`), as `dipsandbox rules` lists
    /// them.
    pub options: BTreeMap<&'static str, &'static str>,
    /// The units on the board (a retreat phase: those not dislodged).
    pub units: Vec<UnitJson>,
    /// A retreat phase: the dislodged units.
    pub dislodged: Vec<DislodgedJson>,
    /// A retreat phase: the provinces a standoff left empty.
    pub contested: Vec<String>,
    /// An adjustment phase: every owned supply centre's owner.
    pub owners: Vec<OwnerJson>,
    /// The orders.
    pub orders: Vec<OrderJson>,
}

/// A verdict as the protocol writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictJson {
    /// The order succeeds.
    Succeeds,
    /// The order fails.
    Fails,
    /// The order is illegal (ignored).
    Illegal,
    /// A legal support or convoy that does not match.
    Void,
}

/// One order's verdict in an answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultJson {
    /// The order's `id` from the request.
    pub id: usize,
    /// The verdict.
    pub result: VerdictJson,
    /// Why, in the adjudicator's words.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A dislodged unit in a movement phase's answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DislodgedAnswer {
    /// The unit: `A Bur` (its owner is the unit's on the board).
    pub unit: String,
    /// Where its attacker came from; when left out, the province of the successful move into
    /// the unit's province.
    #[serde(default)]
    pub attacker_from: Option<String>,
    /// Whether the attacker came by convoy; when left out, whether the attacker's move was
    /// written `via Convoy` or its unit could not move there directly.
    #[serde(default)]
    pub by_convoy: Option<bool>,
}

/// The answer for one phase.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// [`PROTOCOL`].
    pub protocol: u32,
    /// The request's `id`.
    pub id: u64,
    /// The program could not adjudicate this phase: why. Nothing else is read.
    #[serde(default)]
    pub error: Option<String>,
    /// A retreat or adjustment phase: `true` leaves it to dipsandbox's own retreat and
    /// adjustment adjudicators (which every built-in engine shares). Nothing else is read.
    #[serde(default)]
    pub shared: bool,
    /// One verdict per order of the request.
    #[serde(default)]
    pub results: Vec<ResultJson>,
    /// A movement phase: the dislodged units (left out: none).
    #[serde(default)]
    pub dislodged: Option<Vec<DislodgedAnswer>>,
    /// A movement phase: the provinces a standoff left empty; when left out, worked out from
    /// the verdicts.
    #[serde(default)]
    pub contested: Option<Vec<String>>,
    /// The units after the phase (not the dislodged ones). Required for retreat and adjustment
    /// phases; for a movement phase, when left out, worked out from the verdicts.
    #[serde(default)]
    pub units: Option<Vec<UnitJson>>,
}

fn kind_word(k: PhaseKind) -> &'static str {
    match k {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreat",
        PhaseKind::Adjustment => "adjustment",
    }
}

fn place(map: &Map, l: &LocSpec) -> String {
    let mut s = String::new();
    let mut chars = map.province(l.province).abbr.chars();
    if let Some(c) = chars.next() {
        s.extend(c.to_uppercase());
        s.push_str(chars.as_str());
    }
    if let Some(c) = l.coast {
        s.push('(');
        s.push_str(c.abbr());
        s.push(')');
    }
    s
}

fn province_word(map: &Map, p: ProvinceId) -> String {
    place(
        map,
        &LocSpec {
            province: p,
            coast: None,
        },
    )
}

fn unit_spec_text(map: &Map, u: &UnitSpec) -> String {
    match u.kind {
        Some(k) => format!("{} {}", k.letter(), place(map, &u.loc)),
        None => place(map, &u.loc),
    }
}

/// A unit of the board in the protocol's form.
pub fn unit_json(map: &Map, u: &Unit) -> UnitJson {
    UnitJson {
        power: map.power(u.power).name.clone(),
        unit: format!("{} {}", u.kind.letter(), map.loc_abbr(u.loc)),
    }
}

fn order_json(map: &Map, id: usize, e: &crate::model::scenario::OrderEntry) -> OrderJson {
    let mut o = e.order.clone();
    o.power = None;
    let order = format_order(map, &o, NameStyle::Abbr);
    let target_of = |r: &UnitRef| {
        (
            Some(unit_spec_text(map, &r.unit)),
            r.power.map(|p| map.power(p).name.clone()),
        )
    };
    let (kind, to, via_convoy, path, (target, target_power)) = match &o.kind {
        OrderKind::Hold => ("hold", None, false, Vec::new(), (None, None)),
        OrderKind::Move {
            dest,
            via_convoy,
            path,
        } => (
            "move",
            Some(place(map, dest)),
            *via_convoy,
            path.iter().map(|p| province_word(map, *p)).collect(),
            (None, None),
        ),
        OrderKind::Support { target, dest } => (
            "support",
            dest.as_ref().map(|d| place(map, d)),
            false,
            Vec::new(),
            target_of(target),
        ),
        OrderKind::Convoy { army, dest } => (
            "convoy",
            Some(place(map, dest)),
            false,
            Vec::new(),
            target_of(army),
        ),
        OrderKind::Disband => ("disband", None, false, Vec::new(), (None, None)),
        OrderKind::Build => ("build", None, false, Vec::new(), (None, None)),
        OrderKind::Remove => ("remove", None, false, Vec::new(), (None, None)),
        OrderKind::Waive => ("waive", None, false, Vec::new(), (None, None)),
    };
    OrderJson {
        id,
        power: map.power(e.power).name.clone(),
        text: e.text.clone(),
        order,
        kind,
        unit: o.unit.as_ref().map(|u| unit_spec_text(map, u)),
        to,
        via_convoy,
        path,
        target,
        target_power,
    }
}

/// The request for one phase, numbered `id`.
pub fn request(input: &PhaseInput<'_>, id: u64) -> Request {
    let map = input.map;
    let options = input
        .rules
        .table()
        .into_iter()
        .map(|row| (row.field, row.value))
        .collect();
    let owners = input
        .owners
        .iter()
        .enumerate()
        .filter_map(|(p, o)| {
            let p = ProvinceId(u32::try_from(p).ok()?);
            let o = (*o)?;
            Some(OwnerJson {
                province: province_word(map, p),
                power: map.power(o).name.clone(),
            })
        })
        .collect();
    Request {
        protocol: PROTOCOL,
        id,
        map: map.name.clone(),
        phase: input.phase.to_string(),
        kind: kind_word(input.phase.kind),
        rules: input.rules.preset_name(),
        options,
        units: input.units.iter().map(|u| unit_json(map, u)).collect(),
        dislodged: input
            .dislodged
            .iter()
            .map(|d| {
                let u = unit_json(map, &d.unit);
                DislodgedJson {
                    power: u.power,
                    unit: u.unit,
                    attacker_from: province_word(map, d.attacker_from),
                    by_convoy: d.by_convoy,
                }
            })
            .collect(),
        contested: input
            .contested
            .iter()
            .map(|p| province_word(map, *p))
            .collect(),
        owners,
        orders: input
            .orders
            .iter()
            .enumerate()
            .map(|(i, e)| order_json(map, i, e))
            .collect(),
    }
}

/// The location a written place stands for (a fleet on a two-coast province needs its coast).
fn loc_of(map: &Map, kind: UnitKind, l: &LocSpec) -> Result<LocId, String> {
    let p = map.province(l.province);
    match l.coast {
        Some(c) => p
            .coast(c)
            .ok_or_else(|| format!("{} has no {} coast", p.name, c.abbr())),
        None if kind == UnitKind::Fleet && p.is_multi_coast() => {
            Err(format!("a fleet in {} must name its coast", p.name))
        }
        None => Ok(p.main),
    }
}

/// A unit of an answer's board, checked as a scenario's units are: a power of the map, a place
/// of the map where this kind of unit can stand (an army on land, in a province and not on a
/// coast; a fleet at sea or on a coast, on a two-coast province with its coast).
fn parse_board_unit(map: &Map, u: &UnitJson) -> Result<Unit, String> {
    let power = map
        .find_power(&u.power)
        .ok_or_else(|| format!("unknown power {}", cut(&u.power)))?;
    let spec = parse_unit(map, &u.unit).map_err(|e| format!("unit {}: {e}", cut(&u.unit)))?;
    let kind = spec
        .kind
        .ok_or_else(|| format!("unit {}: no unit letter", cut(&u.unit)))?;
    let loc = loc_of(map, kind, &spec.loc).map_err(|e| format!("unit {}: {e}", cut(&u.unit)))?;
    let prov = map.province(spec.loc.province);
    let cannot = match (kind, prov.kind) {
        (UnitKind::Army, ProvinceKind::Sea) => {
            Some(format!("an army cannot stand in {}, a sea", prov.name))
        }
        (UnitKind::Fleet, ProvinceKind::Land) => Some(format!(
            "a fleet cannot stand in {}, an inland province",
            prov.name
        )),
        (UnitKind::Army, _) if spec.loc.coast.is_some() => Some(format!(
            "an army stands in {}, not on one of its coasts",
            prov.name
        )),
        _ => None,
    };
    if let Some(why) = cannot {
        return Err(format!("unit {}: {why}", cut(&u.unit)));
    }
    Ok(Unit { power, kind, loc })
}

/// Whether `units` can be a board: each unit where its kind can stand (an army on land and
/// not on a coast, a fleet at sea or on a coast, on a two-coast province on one of its coasts),
/// at most one in a province.
fn check_board(map: &Map, units: &[Unit]) -> Result<(), String> {
    let mut held: rustc_hash::FxHashMap<ProvinceId, Unit> = rustc_hash::FxHashMap::default();
    for u in units {
        let p = map.province_of(u.loc);
        let prov = map.province(p);
        let on_coast = u.loc != prov.main;
        let cannot = match (u.kind, prov.kind) {
            (UnitKind::Army, ProvinceKind::Sea) => Some("an army cannot stand at sea"),
            (UnitKind::Fleet, ProvinceKind::Land) => Some("a fleet cannot stand inland"),
            (UnitKind::Army, _) if on_coast => Some("an army cannot stand on a coast"),
            (UnitKind::Fleet, _) if prov.is_multi_coast() && !on_coast => {
                Some("a fleet there must be on one of its coasts")
            }
            _ => None,
        };
        if let Some(why) = cannot {
            return Err(format!("{}: {why}", u.describe_owned(map)));
        }
        if let Some(other) = held.insert(p, *u) {
            return Err(format!(
                "two units in {}: {} and {}; a province holds one unit",
                prov.name,
                other.describe_owned(map),
                u.describe_owned(map)
            ));
        }
    }
    Ok(())
}

/// The units of an answer's board, each checked ([`parse_board_unit`]), at most one in a
/// province.
fn parse_board(map: &Map, units: &[UnitJson]) -> Result<Vec<Unit>, String> {
    let mut held: rustc_hash::FxHashMap<ProvinceId, usize> = rustc_hash::FxHashMap::default();
    let mut out = Vec::with_capacity(units.len());
    for (i, u) in units.iter().enumerate() {
        let unit = parse_board_unit(map, u)?;
        let p = map.province_of(unit.loc);
        if let Some(&j) = held.get(&p) {
            let other = units.get(j).map_or_else(String::new, |o| cut(&o.unit));
            return Err(format!(
                "two units in {}: {other} and {}; a province holds one unit",
                map.province(p).name,
                cut(&u.unit)
            ));
        }
        held.insert(p, i);
        out.push(unit);
    }
    Ok(out)
}

fn verdict_of(v: VerdictJson) -> Verdict {
    match v {
        VerdictJson::Succeeds => Verdict::Succeeds,
        VerdictJson::Fails => Verdict::Fails,
        VerdictJson::Illegal => Verdict::Illegal,
        VerdictJson::Void => Verdict::Void,
    }
}

/// The longest reason kept from an answer, in characters (a longer one is cut, with its length).
pub const MAX_REASON: usize = 1000;

/// The reason written for an order the program gave no reason for.
pub const NO_REASON: &str = "no reason given";

/// Checks an answer against its request and the phase, and turns it into a phase result. The
/// error says what is wrong (the caller names the phase and the program).
pub fn answer_to_result(
    input: &PhaseInput<'_>,
    id: u64,
    answer: Answer,
) -> Result<PhaseResult, String> {
    let map = input.map;
    if answer.protocol != PROTOCOL {
        return Err(format!(
            "the answer speaks protocol {}; dipsandbox speaks {PROTOCOL}",
            answer.protocol
        ));
    }
    if answer.id != id {
        return Err(format!(
            "the answer is for request {}, not for request {id}",
            answer.id
        ));
    }
    if let Some(e) = answer.error {
        return Err(format!("the program could not adjudicate it: {}", cut(&e)));
    }
    if answer.shared {
        return match input.phase.kind {
            PhaseKind::Movement => {
                Err("the answer leaves a movement phase to dipsandbox (`shared` is for retreat and adjustment phases)".into())
            }
            PhaseKind::Retreat => Ok(adjudicate_retreats(
                input.map,
                input.units,
                input.dislodged,
                input.contested,
                input.orders,
                input.rules,
            )),
            PhaseKind::Adjustment => Ok(adjudicate_adjustments(
                input.map,
                input.units,
                &input.owners,
                input.orders,
                input.rules,
            )),
        };
    }
    let n = input.orders.len();
    let mut verdicts: Vec<Option<(Verdict, String)>> = vec![None; n];
    for r in answer.results {
        let Some(slot) = verdicts.get_mut(r.id) else {
            return Err(format!(
                "the answer gives a result for order {}, but the phase has {n} orders (ids 0 to {})",
                r.id,
                n.saturating_sub(1)
            ));
        };
        if slot.is_some() {
            return Err(format!(
                "the answer gives order {} ({}) two results",
                r.id,
                order_label(input, r.id)
            ));
        }
        // A reason is one line of text, however the program wrote it: control characters
        // (line ends among them) and invisible format characters escaped, a long one cut.
        let reason = r.reason.filter(|s| !s.trim().is_empty()).map_or_else(
            || NO_REASON.to_string(),
            |s| one_line(&bounded(&s, MAX_REASON)).into_owned(),
        );
        *slot = Some((verdict_of(r.result), reason));
    }
    let mut outcomes = Vec::with_capacity(n);
    for (i, v) in verdicts.into_iter().enumerate() {
        let Some((verdict, reason)) = v else {
            return Err(format!(
                "the answer gives no result for order {i} ({}): every order must be classified",
                order_label(input, i)
            ));
        };
        outcomes.push(OrderOutcome::text(verdict, reason));
    }
    let movement = input.phase.kind == PhaseKind::Movement;
    let given_units = match answer.units {
        Some(units) => {
            Some(parse_board(map, &units).map_err(|e| format!("the answer's units: {e}"))?)
        }
        None if movement => None,
        None => {
            return Err(format!(
                "the answer gives no `units`: a {} phase's answer must list the units after it",
                kind_word(input.phase.kind)
            ));
        }
    };
    if !movement {
        if answer.dislodged.as_ref().is_some_and(|d| !d.is_empty()) {
            return Err("the answer lists dislodged units in a phase that dislodges none".into());
        }
        return Ok(PhaseResult {
            outcomes,
            final_units: given_units.unwrap_or_default(),
            dislodged: Vec::new(),
            contested: Vec::new(),
            notes: Vec::new(),
        });
    }
    let moves = Moves::new(input, &outcomes);
    let dislodged = match answer.dislodged {
        Some(d) => d
            .iter()
            .map(|d| moves.dislodged(d))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("the answer's dislodged units: {e}"))?,
        None => Vec::new(),
    };
    let mut seen = rustc_hash::FxHashSet::default();
    for d in &dislodged {
        let p = map.province_of(d.unit.loc);
        if !seen.insert(p) {
            return Err(format!(
                "the answer's dislodged units: {} is dislodged twice; a unit is dislodged once",
                d.unit.describe(map)
            ));
        }
    }
    let final_units = match given_units {
        Some(u) => {
            // The units after the phase are not the dislodged ones.
            if let Some(d) = dislodged.iter().find(|d| u.contains(&d.unit)) {
                return Err(format!(
                    "the answer lists {} both as dislodged and among the units after the phase; `units` leaves the dislodged out",
                    d.unit.describe_owned(map)
                ));
            }
            u
        }
        None => {
            // Worked out from the verdicts: a board the verdicts make must be one that can be
            // too (two moves into one province both said to succeed, or a move into a unit that
            // stays, would put two units there).
            let derived = moves.final_units(&dislodged);
            check_board(map, &derived)
                .map_err(|e| format!("the answer's verdicts make a board that cannot be: {e}"))?;
            derived
        }
    };
    let contested = match answer.contested {
        Some(c) => c
            .iter()
            .map(|p| {
                parse_loc(map, p)
                    .map(|l| l.province)
                    .map_err(|e| format!("the answer's contested provinces: {}: {e}", cut(p)))
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => moves.contested(&final_units, &dislodged),
    };
    Ok(PhaseResult {
        outcomes,
        final_units,
        dislodged,
        contested,
        notes: Vec::new(),
    })
}

fn order_label(input: &PhaseInput<'_>, i: usize) -> String {
    match input.orders.get(i) {
        Some(e) => format!("{}: {}", input.map.power(e.power).name, cut(&e.text)),
        None => "?".into(),
    }
}

/// The moves of a movement phase with the program's verdicts: what the answer leaves out is
/// worked out from them.
struct Moves<'a, 'i> {
    input: &'a PhaseInput<'i>,
    /// Per unit: where its move goes (province, location), whether it is written via convoy,
    /// and whether it succeeded.
    moves: Vec<Option<(ProvinceId, LocId, bool, bool)>>,
    /// Per unit: whether the run's rules class its move as convoyed only (no land route to
    /// fall back to, 4.A.3).
    convoy_only: Vec<bool>,
    /// The program's verdicts.
    outcomes: &'a [OrderOutcome],
}

impl<'a, 'i> Moves<'a, 'i> {
    fn new(input: &'a PhaseInput<'i>, outcomes: &'a [OrderOutcome]) -> Moves<'a, 'i> {
        let map = input.map;
        let prepared = legality::prepare(map, input.units, input.orders, input.rules);
        let mut moves = vec![None; input.units.len()];
        let mut convoy_only = vec![false; input.units.len()];
        for (u, unit) in input.units.iter().enumerate() {
            let here = map.province_of(unit.loc);
            // The order the program found successful for this unit, else the one we apply.
            let ordered = input.orders.iter().enumerate().filter(|(_, e)| {
                e.order
                    .unit
                    .as_ref()
                    .is_some_and(|s| s.loc.province == here)
                    && e.power == unit.power
            });
            let mut chosen = None;
            for (i, e) in ordered {
                let verdict = outcomes.get(i).map(|o| o.verdict);
                // An order the program ignored (illegal) moves nothing and prevents nothing:
                // its unit holds, so it makes no standoff.
                if verdict == Some(Verdict::Illegal) {
                    continue;
                }
                let ok = verdict == Some(Verdict::Succeeds);
                if ok || chosen.is_none() {
                    chosen = Some((i, e, ok));
                }
                if ok {
                    break;
                }
            }
            let Some((i, e, ok)) = chosen else {
                continue;
            };
            let OrderKind::Move {
                dest, via_convoy, ..
            } = &e.order.kind
            else {
                continue;
            };
            // Our classing gives the destination's coast where the order leaves it out.
            let loc = match (
                prepared.source.get(u).copied().flatten(),
                prepared.orders.get(u),
            ) {
                (Some(k), Some(UnitOrder::Move { dest_loc, .. })) if k == i => *dest_loc,
                _ => match loc_of(map, unit.kind, dest) {
                    Ok(l) => l,
                    Err(_) => map.province(dest.province).main,
                },
            };
            if let Some(slot) = moves.get_mut(u) {
                *slot = Some((dest.province, loc, *via_convoy, ok));
            }
            if let Some(flag) = convoy_only.get_mut(u) {
                *flag = matches!(
                    (prepared.source.get(u).copied().flatten(), prepared.orders.get(u)),
                    (Some(k), Some(UnitOrder::Move { route: Route::Convoy, .. })) if k == i
                );
            }
        }
        Moves {
            input,
            moves,
            convoy_only,
            outcomes,
        }
    }

    fn dislodged(&self, d: &DislodgedAnswer) -> Result<Dislodged, String> {
        let map = self.input.map;
        let spec = parse_unit(map, &d.unit).map_err(|e| format!("{}: {e}", cut(&d.unit)))?;
        let here = spec.loc.province;
        let unit = self
            .input
            .units
            .iter()
            .find(|u| map.province_of(u.loc) == here)
            .copied()
            .ok_or_else(|| format!("{}: no unit stands there", cut(&d.unit)))?;
        let attacker = self
            .input
            .units
            .iter()
            .zip(&self.moves)
            .find(|(_, m)| m.is_some_and(|(to, _, _, ok)| ok && to == here));
        let attacker_from = match &d.attacker_from {
            Some(p) => {
                parse_loc(map, p)
                    .map_err(|e| format!("{}: attacker_from {}: {e}", cut(&d.unit), cut(p)))?
                    .province
            }
            None => match attacker {
                Some((a, _)) => map.province_of(a.loc),
                None => {
                    return Err(format!(
                        "{}: no successful move into {} and no attacker_from given",
                        cut(&d.unit),
                        map.province(here).name
                    ));
                }
            },
        };
        let by_convoy = match d.by_convoy {
            Some(b) => b,
            None => self
                .input
                .units
                .iter()
                .zip(&self.moves)
                .find(|(a, _)| map.province_of(a.loc) == attacker_from)
                .is_some_and(|(a, m)| {
                    m.is_some_and(|(_, _, via, _)| via) || !map.can_reach(a.kind, a.loc, here)
                }),
        };
        Ok(Dislodged {
            unit,
            attacker_from,
            by_convoy,
        })
    }

    fn final_units(&self, dislodged: &[Dislodged]) -> Vec<Unit> {
        self.input
            .units
            .iter()
            .zip(&self.moves)
            .filter(|(u, _)| !dislodged.iter().any(|d| d.unit == **u))
            .map(|(u, m)| match m {
                Some((_, loc, _, true)) => Unit { loc: *loc, ..*u },
                _ => *u,
            })
            .collect()
    }

    /// Whether some convoy order of `army` to `to` succeeded.
    fn convoyed(&self, army: &Unit, to: ProvinceId) -> bool {
        let map = self.input.map;
        let from = map.province_of(army.loc);
        self.input.orders.iter().zip(self.outcomes).any(|(e, o)| {
            o.verdict == Verdict::Succeeds
                && matches!(&e.order.kind, OrderKind::Convoy { army: a, dest }
                        if a.unit.loc.province == from && dest.province == to)
        })
    }

    /// Standoffs: provinces some legal move failed to enter, none entered, empty after the phase,
    /// where a failed mover was not dislodged from the province it moved to (one that lost a
    /// head-to-head battle prevents nothing) and did not lack a convoy. An approximation of
    /// "some move there kept a prevent strength above 0": programs that know should answer
    /// `contested` themselves.
    fn contested(&self, final_units: &[Unit], dislodged: &[Dislodged]) -> Vec<ProvinceId> {
        let map = self.input.map;
        let mut out: Vec<ProvinceId> = Vec::new();
        for (k, (u, m)) in self.input.units.iter().zip(&self.moves).enumerate() {
            let Some((to, _, _, false)) = *m else {
                continue;
            };
            let entered = self
                .moves
                .iter()
                .any(|m| m.is_some_and(|(t, _, _, ok)| ok && t == to));
            let occupied = final_units.iter().any(|f| map.province_of(f.loc) == to);
            let lost_to_it = dislodged
                .iter()
                .any(|d| d.unit == *u && d.attacker_from == to);
            // A move that needs a convoy (no land route, or one the run's rules keep to its
            // convoy, 4.A.3) prevents only when a convoy of it succeeded (a convoy that failed
            // leaves it no path, and no strength).
            let needs_convoy = !map.can_reach(u.kind, u.loc, to)
                || self.convoy_only.get(k).copied().unwrap_or(false);
            let no_path = needs_convoy && !self.convoyed(u, to);
            if !entered && !occupied && !lost_to_it && !no_path && !out.contains(&to) {
                out.push(to);
            }
        }
        out.sort_unstable();
        out
    }
}
