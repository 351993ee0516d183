//! The orders a unit can be given in a movement phase, generated from the map and the position:
//! hold; a move to each place it borders (each coast for a fleet); a move by convoy wherever a
//! chain of fleets could carry it; a support of each unit it could support, holding or moving;
//! a convoy of each army it could carry. An editor offers these as a menu (anything else can
//! still be typed: odd and illegal orders are legitimate things to test). Retreat phases offer
//! each dislodged unit's retreats and disband; adjustment phases each power's builds, removals
//! and waive. A neutral unit has no menu (nobody orders it, dislodged it is disbanded); the
//! powers' units may support it holding.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): per-province and per-power
// tables are sized to the map's counts and indexed by ids of that map.
#![allow(clippy::indexing_slicing)]

use crate::engine::adjust::adjustments_due;
use crate::engine::legality::fleet_on_some_route_to_each;
use crate::engine::retreat::retreat_options;
use crate::model::board::Unit;
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{LocSpec, Order, OrderKind, UnitRef, UnitSpec};
use crate::model::scenario::Scenario;

fn loc_spec(map: &Map, l: LocId) -> LocSpec {
    LocSpec {
        province: map.province_of(l),
        coast: map.location(l).coast,
    }
}

fn province_spec(p: ProvinceId) -> LocSpec {
    LocSpec {
        province: p,
        coast: None,
    }
}

fn unit_spec(map: &Map, u: &Unit) -> UnitSpec {
    UnitSpec {
        kind: Some(u.kind),
        loc: loc_spec(map, u.loc),
    }
}

/// Where a unit could move on its own (each coast for a fleet).
fn moves(map: &Map, u: &Unit) -> Vec<LocId> {
    match u.kind {
        UnitKind::Army => map
            .army_neighbours(map.province_of(u.loc))
            .iter()
            .map(|p| map.province(*p).main)
            .collect(),
        UnitKind::Fleet => map.fleet_neighbours(u.loc).to_vec(),
    }
}

/// The provinces an army could reach by convoy through the fleets of the position: the coasts
/// (other than its own) that border a sea of the fleets' component reached from the army's
/// province through seas holding fleets. One search per army, the same set as asking
/// [`crate::engine::legality::convoy_chain_exists`] for each province (which searches that component each time).
/// Also the seas holding fleets that a convoy of the army could pass through (every fleet on a
/// convoy route of the army is one of them).
fn convoy_reach(map: &Map, u: &Unit, fleet_at: &[bool]) -> (Vec<ProvinceId>, Vec<ProvinceId>) {
    let here = map.province_of(u.loc);
    if u.kind != UnitKind::Army || map.province(here).kind != ProvinceKind::Coast {
        return (Vec::new(), Vec::new());
    }
    let sea = |p: ProvinceId| map.province(p).kind == ProvinceKind::Sea;
    let mut seen = vec![false; map.province_count()];
    let mut stack: Vec<ProvinceId> = Vec::new();
    for l in map.locations_of(here) {
        for &m in map.fleet_neighbours(l) {
            let p = map.province_of(m);
            if sea(p) && fleet_at[p.0 as usize] && !seen[p.0 as usize] {
                seen[p.0 as usize] = true;
                stack.push(p);
            }
        }
    }
    let mut reached = Vec::new();
    while let Some(p) = stack.pop() {
        reached.push(p);
        for &m in map.fleet_neighbours(map.province(p).main) {
            let q = map.province_of(m);
            if sea(q) && fleet_at[q.0 as usize] && !seen[q.0 as usize] {
                seen[q.0 as usize] = true;
                stack.push(q);
            }
        }
    }
    if reached.is_empty() {
        return (Vec::new(), reached);
    }
    // The coasts the reached seas border, in province order.
    let mut dests: Vec<ProvinceId> = reached
        .iter()
        .flat_map(|&p| map.fleet_neighbours(map.province(p).main))
        .map(|&l| map.province_of(l))
        .filter(|&to| to != here && map.province(to).kind == ProvinceKind::Coast)
        .collect();
    dests.sort_unstable();
    dests.dedup();
    (dests, reached)
}

/// What the menus of the other units need to know of a unit, found once per position: where it
/// can go by convoy, which seas a convoy of it passes through, and the provinces it could move
/// to (on its own or by convoy), sorted.
struct Reach {
    convoy: Vec<ProvinceId>,
    seas: Vec<ProvinceId>,
    dests: Vec<ProvinceId>,
}

fn reach_of(map: &Map, x: &Unit, fleet_at: &[bool]) -> Reach {
    // A neutral unit never moves: nothing to support it into, no convoy to carry it.
    if x.power.is_neutral() {
        return Reach {
            convoy: Vec::new(),
            seas: Vec::new(),
            dests: Vec::new(),
        };
    }
    let (convoy, seas) = convoy_reach(map, x, fleet_at);
    let mut dests: Vec<ProvinceId> = moves(map, x)
        .into_iter()
        .map(|l| map.province_of(l))
        .chain(convoy.iter().copied())
        .collect();
    dests.sort_unstable();
    dests.dedup();
    Reach {
        convoy,
        seas,
        dests,
    }
}

/// Per province, whether a fleet of `units` that could convoy is at sea there (a power's: a
/// neutral fleet convoys nobody).
fn fleets_at_sea(map: &Map, units: &[Unit]) -> Vec<bool> {
    let mut fleet_at = vec![false; map.province_count()];
    for x in units {
        let p = map.province_of(x.loc);
        if x.kind == UnitKind::Fleet
            && !x.power.is_neutral()
            && map.province(p).kind == ProvinceKind::Sea
        {
            fleet_at[p.0 as usize] = true;
        }
    }
    fleet_at
}

/// Every order the unit `u` of `units` can be given in a movement phase, in menu order.
pub fn movement_orders(map: &Map, units: &[Unit], u: usize) -> Vec<Order> {
    let fleet_at = fleets_at_sea(map, units);
    let reach: Vec<Reach> = units.iter().map(|x| reach_of(map, x, &fleet_at)).collect();
    orders_of(map, units, u, &fleet_at, &reach)
}

/// [`movement_orders`] of every unit, in unit order: the same menus, with each army's convoy
/// destinations found once for all of them (what random positions and whole-board menus need).
pub fn movement_menus(map: &Map, units: &[Unit]) -> Vec<Vec<Order>> {
    let fleet_at = fleets_at_sea(map, units);
    let reach: Vec<Reach> = units.iter().map(|x| reach_of(map, x, &fleet_at)).collect();
    (0..units.len())
        .map(|u| orders_of(map, units, u, &fleet_at, &reach))
        .collect()
}

/// The menu of unit `u`; `reach` holds each unit's [`Reach`] through all the fleets of
/// `fleet_at`.
fn orders_of(
    map: &Map,
    units: &[Unit],
    u: usize,
    fleet_at: &[bool],
    reach_all: &[Reach],
) -> Vec<Order> {
    let Some(unit) = units.get(u) else {
        return Vec::new();
    };
    // Nobody orders a neutral unit: it holds.
    if unit.power.is_neutral() {
        return Vec::new();
    }
    let me = unit_spec(map, unit);
    let here = map.province_of(unit.loc);
    let order = |kind: OrderKind| Order {
        power: None,
        unit: Some(me),
        kind,
    };
    let mut out = vec![order(OrderKind::Hold)];
    let own = moves(map, unit);
    for &l in &own {
        out.push(order(OrderKind::Move {
            dest: loc_spec(map, l),
            via_convoy: false,
            path: Vec::new(),
        }));
    }
    for &to in &reach_all[u].convoy {
        let adjacent = own.iter().any(|l| map.province_of(*l) == to);
        out.push(order(OrderKind::Move {
            dest: province_spec(to),
            via_convoy: adjacent,
            path: Vec::new(),
        }));
    }
    // Supports: a unit may support into any province it could move to itself (coasts aside),
    // and a fleet cannot both support a convoyed move and carry it (DATC 6.D.31): the
    // supported unit's convoy routes leave the supporter out.
    let reach = |p: ProvinceId| map.can_reach(unit.kind, unit.loc, p);
    // Leaving out a fleet that is not at sea changes nothing: the shared destinations do.
    let at_sea = fleet_at[here.0 as usize];
    let fleet_but_me = at_sea.then(|| {
        let mut f = fleet_at.to_vec();
        f[here.0 as usize] = false;
        f
    });
    for (t, other) in units.iter().enumerate() {
        if t == u {
            continue;
        }
        let target = UnitRef {
            power: None,
            unit: unit_spec(map, other),
        };
        let there = map.province_of(other.loc);
        if reach(there) {
            out.push(order(OrderKind::Support { target, dest: None }));
        }
        let mine;
        let dests = match &fleet_but_me {
            // A convoy of the other unit through this fleet may be what made the shared list.
            Some(f) if reach_all[t].seas.contains(&here) => {
                mine = reach_of(map, other, f).dests;
                &mine
            }
            _ => &reach_all[t].dests,
        };
        for &d in dests {
            if d != here && reach(d) {
                out.push(order(OrderKind::Support {
                    target,
                    dest: Some(province_spec(d)),
                }));
            }
        }
    }
    // Convoys: a fleet at sea for each army it could help carry.
    if unit.kind == UnitKind::Fleet && map.province(here).kind == ProvinceKind::Sea {
        let is_fleet = |p: ProvinceId| fleet_at[p.0 as usize];
        for (t, other) in units.iter().enumerate() {
            if other.kind != UnitKind::Army {
                continue;
            }
            // A fleet on a route of the army is one of the seas its convoys pass through.
            if !reach_all[t].seas.contains(&here) {
                continue;
            }
            let from = map.province_of(other.loc);
            fleet_on_some_route_to_each(
                map,
                from,
                &reach_all[t].convoy,
                here,
                &is_fleet,
                &mut |d| {
                    out.push(order(OrderKind::Convoy {
                        army: UnitRef {
                            power: None,
                            unit: unit_spec(map, other),
                        },
                        dest: province_spec(d),
                    }));
                },
            );
        }
    }
    out
}

/// The orders a dislodged unit (index into `s.dislodged`) can be given in a retreat phase: a
/// retreat to each place it may go (DATC 4.A.5 as the scenario's rules say), then disband.
pub fn retreat_orders(s: &Scenario, d: usize) -> Vec<Order> {
    let map = &*s.map;
    let Some(dis) = s.dislodged.get(d) else {
        return Vec::new();
    };
    // A dislodged neutral unit is disbanded: it is given no order.
    if dis.unit.power.is_neutral() {
        return Vec::new();
    }
    let occupied = crate::engine::retreat::occupied(map, &s.units);
    let me = unit_spec(map, &dis.unit);
    let order = |kind: OrderKind| Order {
        power: None,
        unit: Some(me),
        kind,
    };
    let mut out: Vec<Order> = retreat_options(map, dis, &occupied, &s.contested, &s.rules)
        .into_iter()
        .map(|l| {
            order(OrderKind::Move {
                dest: loc_spec(map, l),
                via_convoy: false,
                path: Vec::new(),
            })
        })
        .collect();
    out.push(order(OrderKind::Disband));
    out
}

/// The adjustment orders of every power, in power order: for a power due builds, a build of
/// each unit type (each coast for a fleet) in each owned, empty centre it may build in
/// ([`Map::build_sites_of`]: its home centres, or any centre on a map that builds in any owned
/// one), and `Waive`; for a
/// power due removals, the removal of each of its units.
pub fn adjustment_orders(s: &Scenario) -> Vec<(PowerId, Order)> {
    let map = &*s.map;
    let owners = s.owners_or_home();
    let due = adjustments_due(map, &s.units, &owners);
    let occupied = crate::engine::retreat::occupied(map, &s.units);
    let mut out = Vec::new();
    for p in map.power_ids() {
        let n = due[p.0 as usize];
        if n > 0 && map.may_build_at_all(p, &owners) {
            for h in map.build_sites_of(p) {
                if owners[h.0 as usize] != Some(p) || occupied[h.0 as usize] {
                    continue;
                }
                let prov = map.province(h);
                let mut places: Vec<(UnitKind, LocId)> = Vec::new();
                if prov.kind != ProvinceKind::Sea {
                    places.push((UnitKind::Army, prov.main));
                }
                if prov.kind == ProvinceKind::Coast {
                    if prov.is_multi_coast() {
                        places.extend(prov.coasts.iter().map(|(_, l)| (UnitKind::Fleet, *l)));
                    } else {
                        places.push((UnitKind::Fleet, prov.main));
                    }
                }
                for (kind, loc) in places {
                    out.push((
                        p,
                        Order {
                            power: None,
                            unit: Some(UnitSpec {
                                kind: Some(kind),
                                loc: loc_spec(map, loc),
                            }),
                            kind: OrderKind::Build,
                        },
                    ));
                }
            }
            out.push((
                p,
                Order {
                    power: None,
                    unit: None,
                    kind: OrderKind::Waive,
                },
            ));
        } else if n < 0 {
            for u in s.units.iter().filter(|u| u.power == p) {
                out.push((
                    p,
                    Order {
                        power: None,
                        unit: Some(unit_spec(map, u)),
                        kind: OrderKind::Remove,
                    },
                ));
            }
        }
    }
    out
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    use super::{Map, ProvinceId, Unit};

    /// Which provinces hold a fleet at sea, by province id.
    pub fn fleets_at_sea(map: &Map, units: &[Unit]) -> Vec<bool> {
        super::fleets_at_sea(map, units)
    }

    /// The destinations an army `u` reaches by convoy, and the seas the search went through.
    pub fn convoy_reach(
        map: &Map,
        u: &Unit,
        fleet_at: &[bool],
    ) -> (Vec<ProvinceId>, Vec<ProvinceId>) {
        super::convoy_reach(map, u, fleet_at)
    }
}
