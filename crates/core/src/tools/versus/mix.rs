//! The positions of a run: the mixes, position `i` of a run from `(seed, i, mix)` alone, and
//! the shape of a position.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::base::random::spread;
use crate::engine::decision::engine::DecisionEngine;
use crate::engine::seam::{Engine, PhaseInput};
use crate::model::board::{Phase, PhaseKind, Season};
use crate::model::map::{Map, PowerId, ProvinceId};
use crate::model::orders::{NameStyle, Order, OrderKind, format_order};
use crate::model::rules::Rules;
use crate::model::scenario::{OrderEntry, Scenario};
use crate::tools::menu::{adjustment_orders, retreat_orders};

use super::positions::{Recipe, Rng, random_position};

/// What kind of positions a run makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mix {
    /// Convoys next to supported attacks: the paradox core (DATC 6.F.14) in almost every
    /// position, convoys to neighbours (6.G) often.
    Paradox,
    /// Circular movement: rings of moves, no convoys.
    Circular,
    /// Head-to-head battles, often supported, no convoys.
    Head,
    /// Retreat phases: the dislodged units of a random movement phase, with random retreats.
    Retreat,
    /// Adjustment phases: random centre owners, random builds and removals, some powers with no
    /// orders (civil disorder).
    Adjust,
    /// A blend of all of them (the default).
    All,
}

impl Mix {
    /// Every mix, in the order `--mix` lists them.
    pub const ALL: &'static [Mix] = &[
        Mix::Paradox,
        Mix::Circular,
        Mix::Head,
        Mix::Retreat,
        Mix::Adjust,
        Mix::All,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mix::Paradox => "paradox",
            Mix::Circular => "circular",
            Mix::Head => "head",
            Mix::Retreat => "retreat",
            Mix::Adjust => "adjust",
            Mix::All => "all",
        }
    }

    /// The mix of a name (any case).
    pub fn parse(s: &str) -> Option<Mix> {
        Mix::ALL
            .iter()
            .copied()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// The generator seed of position `i` of a run with seed `seed`.
pub fn position_seed(seed: u64, i: u64) -> u64 {
    spread(seed ^ spread(i.wrapping_add(0x5EED)))
}

/// Position `i` of a run: a phase on `map` with its units and orders (order texts are left
/// empty; [`with_texts`] fills them for printing). Depends only on `(seed, i, mix)`.
pub fn position(map: &Arc<Map>, seed: u64, i: u64, mix: Mix) -> Scenario {
    let ps = position_seed(seed, i);
    let mix = match mix {
        Mix::All => match ps % 100 {
            0..30 => Mix::Paradox,
            30..45 => Mix::Circular,
            45..60 => Mix::Head,
            60..72 => Mix::Retreat,
            72..84 => Mix::Adjust,
            _ => return movement(map, ps, Recipe::WITH_CONVOYS),
        },
        m => m,
    };
    match mix {
        Mix::Paradox => movement(
            map,
            ps,
            Recipe {
                paradox: 100,
                swap: 50,
                ..Recipe::WITH_CONVOYS
            },
        ),
        Mix::Circular => movement(
            map,
            ps,
            Recipe {
                ring: 100,
                ..Recipe::WITHOUT_CONVOYS
            },
        ),
        Mix::Head => movement(
            map,
            ps,
            Recipe {
                head: 100,
                ring: 10,
                ..Recipe::WITHOUT_CONVOYS
            },
        ),
        Mix::Retreat => retreat(map, ps),
        Mix::Adjust | Mix::All => adjustment(map, ps),
    }
}

fn entry(power: PowerId, order: Order) -> OrderEntry {
    OrderEntry {
        power,
        text: String::new(),
        order,
    }
}

fn movement(map: &Arc<Map>, seed: u64, recipe: Recipe) -> Scenario {
    let (units, orders) = random_position(map, seed, recipe);
    let mut s = Scenario::empty(map.clone(), &map.name);
    s.units = units;
    s.orders = orders.into_iter().map(|(p, o)| entry(p, o)).collect();
    s
}

/// A retreat phase: a random movement phase adjudicated by the decision engine under the
/// DATC's rules; its dislodged units retreat or disband at random (now and then they get no
/// order). Tries a few seeds for a phase with a dislodgement; else the movement phase itself.
fn retreat(map: &Arc<Map>, seed: u64) -> Scenario {
    let rules = Rules::default();
    let mut rng = Rng::new(seed);
    let mut first = None;
    for k in 0..8u64 {
        let m = movement(map, spread(seed ^ k), Recipe::WITH_CONVOYS);
        let input = PhaseInput::of(&m, &rules);
        let Ok(adj) = DecisionEngine.movement(&input, false) else {
            continue;
        };
        if adj.phase.dislodged.is_empty() {
            first.get_or_insert(m);
            continue;
        }
        let mut s = Scenario::empty(map.clone(), &map.name);
        s.phase = Phase {
            season: Season::Spring,
            year: 1901,
            kind: PhaseKind::Retreat,
        };
        s.units = adj.phase.final_units;
        s.dislodged = adj.phase.dislodged;
        s.contested = adj.phase.contested;
        for d in 0..s.dislodged.len() {
            if !rng.chance(85) {
                continue;
            }
            let menu = retreat_orders(&s, d);
            if let (Some(o), Some(du)) = (rng.pick(&menu).cloned(), s.dislodged.get(d)) {
                let p = du.unit.power;
                s.orders.push(entry(p, o));
            }
        }
        return s;
    }
    first.unwrap_or_else(|| movement(map, seed, Recipe::WITH_CONVOYS))
}

/// An adjustment phase: the units of a random position, supply centres owned at random (home
/// centres mostly by their power), and for each power a random part of its possible builds or
/// removals; now and then a power gives no order at all (civil disorder).
fn adjustment(map: &Arc<Map>, seed: u64) -> Scenario {
    let mut rng = Rng::new(seed);
    let (units, _) = random_position(map, spread(seed), Recipe::WITHOUT_CONVOYS);
    let mut s = Scenario::empty(map.clone(), &map.name);
    s.phase = Phase {
        season: Season::Winter,
        year: 1901,
        kind: PhaseKind::Adjustment,
    };
    s.units = units;
    let powers = map.power_ids().count().max(1);
    let owners: Vec<Option<PowerId>> = map
        .provinces
        .iter()
        .map(|p| {
            if !p.supply_center {
                None
            } else if p.home_of.is_some() && rng.chance(70) {
                p.home_of
            } else if rng.chance(60) {
                Some(PowerId(rng.below(powers.min(4)) as u8))
            } else {
                None
            }
        })
        .collect();
    s.owners = Some(owners);
    let all = adjustment_orders(&s);
    let silent: Vec<bool> = (0..powers).map(|_| rng.chance(25)).collect();
    for (p, o) in all {
        if silent.get(p.0 as usize).copied().unwrap_or(false) || !rng.chance(40) {
            continue;
        }
        s.orders.push(entry(p, o));
    }
    s
}

/// The scenario with each order's text written out (the form files and messages show).
pub fn with_texts(mut s: Scenario) -> Scenario {
    let map = s.map.clone();
    for e in &mut s.orders {
        let mut o = e.order.clone();
        o.power = None;
        e.text = format_order(&map, &o, NameStyle::Abbr);
    }
    s
}

/// The shape of a (shrunk) position, for classing: `convoy paradox` (a convoy, and an attack or
/// a support of an attack on a convoying fleet), `convoy`, `circular movement` (a ring of three
/// or more moves), `head-to-head`, `support cut` (a support whose unit is attacked), `retreat`,
/// `adjustment`, `other`.
pub fn shape(s: &Scenario) -> &'static str {
    match s.phase.kind {
        PhaseKind::Retreat => return "retreat",
        PhaseKind::Adjustment => return "adjustment",
        PhaseKind::Movement => {}
    }
    let here = |o: &Order| o.unit.map(|u| u.loc.province);
    let dest = |o: &Order| match &o.kind {
        OrderKind::Move { dest, .. } => Some(dest.province),
        _ => None,
    };
    let fleets: Vec<ProvinceId> = s
        .orders
        .iter()
        .filter(|e| matches!(e.order.kind, OrderKind::Convoy { .. }))
        .filter_map(|e| here(&e.order))
        .collect();
    if !fleets.is_empty() {
        let on_fleet = s.orders.iter().any(|e| match &e.order.kind {
            OrderKind::Move { dest, .. } => fleets.contains(&dest.province),
            OrderKind::Support { dest: Some(d), .. } => fleets.contains(&d.province),
            _ => false,
        });
        return if on_fleet { "convoy paradox" } else { "convoy" };
    }
    // Moves by province: from → to.
    let moves: Vec<(ProvinceId, ProvinceId)> = s
        .orders
        .iter()
        .filter_map(|e| Some((here(&e.order)?, dest(&e.order)?)))
        .collect();
    let next = |p: ProvinceId| moves.iter().find(|(f, _)| *f == p).map(|(_, t)| *t);
    for &(start, _) in &moves {
        let mut p = start;
        for n in 1..=moves.len() {
            match next(p) {
                Some(q) if q == start => {
                    if n >= 3 {
                        return "circular movement";
                    }
                    break;
                }
                Some(q) => p = q,
                None => break,
            }
        }
    }
    if moves
        .iter()
        .any(|&(f, t)| moves.iter().any(|&(f2, t2)| f2 == t && t2 == f))
    {
        return "head-to-head";
    }
    let attacked = |p: ProvinceId| moves.iter().any(|&(_, t)| t == p);
    if s.orders.iter().any(|e| {
        matches!(e.order.kind, OrderKind::Support { .. }) && here(&e.order).is_some_and(attacked)
    }) {
        return "support cut";
    }
    "other"
}
