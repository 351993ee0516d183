//! The regions of a scenario: groups of units and orders that cannot affect one another.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): item indices come from
// ranges over the very lists they index (units and orders of the scenario being cut, and subsets
// of those ranges).
#![allow(clippy::indexing_slicing)]

use crate::model::board::{PhaseKind, Unit};
use crate::model::map::{Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{Order, OrderKind};
use crate::model::scenario::{OrderEntry, Scenario};

/// The regions of a scenario: its units and orders in groups that cannot affect one another.
///
/// Two provinces are in one region when an order joins them: the province of the unit it
/// orders and every province it names (a move's destination and path, the supported or
/// convoyed unit and its destination). An order that may need a convoy (a move, or the support
/// of a move, between provinces that do not border; a convoy order) is joined with every fleet
/// at sea that a convoy route from the moving army's province could reach (through seas that
/// hold fleets): whether such a move is possible at all depends on those fleets, ordered or
/// not. A unit belongs
/// to the region of its province, an order to that of the province of its unit. Adjudication
/// reads nothing else: a unit that no order reaches holds, and only its own orders and orders
/// that name its province can change that, so the result of each order, and the fate of each
/// unit, depend on its region alone. In an adjustment phase every unit and order of a power is
/// in one region too (a power's units count against its centres), as are unit-less orders
/// (waives).
///
/// The minimizer first removes whole regions at once ([`Pass::Regions`](super::Pass::Regions)); every candidate is
/// still adjudicated, so a region that mattered after all is only kept, never lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    /// Per unit of the pool (board units, then dislodged units): its region.
    pub unit: Vec<usize>,
    /// Per order of the pool (the phase's orders, then the follow-up retreats'): its region.
    pub order: Vec<usize>,
    /// How many regions there are (numbered from 0 in the order they first appear: units first,
    /// then orders).
    pub count: usize,
}

/// Union-find over dense ids, with path halving and union by size; no recursion.
pub(super) struct Dsu {
    pub(super) parent: Vec<u32>,
    pub(super) size: Vec<u32>,
}

impl Dsu {
    pub(super) fn new(n: usize) -> Dsu {
        Dsu {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    pub(super) fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            let p = p as usize;
            if p == x {
                break;
            }
            let grand = self.parent.get(p).copied().unwrap_or(p as u32);
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    pub(super) fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b || a >= self.parent.len() || b >= self.parent.len() {
            return;
        }
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small] = big as u32;
        self.size[big] += self.size[small];
    }
}

/// The provinces an order names besides its unit's.
pub(super) fn named_provinces(o: &Order) -> impl Iterator<Item = ProvinceId> + '_ {
    let (a, b, path): (Option<ProvinceId>, Option<ProvinceId>, &[ProvinceId]) = match &o.kind {
        OrderKind::Move { dest, path, .. } => (Some(dest.province), None, path),
        OrderKind::Support { target, dest } => (
            Some(target.unit.loc.province),
            dest.map(|d| d.province),
            &[],
        ),
        OrderKind::Convoy { army, dest } => {
            (Some(army.unit.loc.province), Some(dest.province), &[])
        }
        _ => (None, None, &[]),
    };
    a.into_iter().chain(b).chain(path.iter().copied())
}

/// The province an order may need a convoy from: the moving army's, for a move or the support
/// of a move between provinces that do not border, and for a convoy order.
pub(super) fn convoy_origin(map: &Map, here: Option<ProvinceId>, o: &Order) -> Option<ProvinceId> {
    match &o.kind {
        OrderKind::Move {
            dest,
            via_convoy,
            path,
        } => here
            .filter(|&h| *via_convoy || !path.is_empty() || !map.army_adjacent(h, dest.province)),
        OrderKind::Support {
            target,
            dest: Some(d),
        } => {
            let from = target.unit.loc.province;
            (!map.army_adjacent(from, d.province)).then_some(from)
        }
        OrderKind::Convoy { army, .. } => Some(army.unit.loc.province),
        _ => None,
    }
}

/// The seas that hold a fleet, in groups linked sea to sea by fleet borders through seas that
/// hold fleets (the only seas a convoy route can take): per province, its group (None for land,
/// coasts and seas without a fleet), and how many groups there are.
pub(super) fn fleet_groups(map: &Map, units: &[Unit]) -> (Vec<Option<usize>>, usize) {
    let n = map.province_count();
    let mut fleet = vec![false; n];
    for u in units {
        let p = map.province_of(u.loc);
        if u.kind == UnitKind::Fleet
            && map.province(p).kind == ProvinceKind::Sea
            && let Some(f) = fleet.get_mut(p.0 as usize)
        {
            *f = true;
        }
    }
    let has_fleet = |p: ProvinceId| fleet.get(p.0 as usize).copied().unwrap_or(false);
    let mut dsu = Dsu::new(n);
    for p in map.province_ids().filter(|&p| has_fleet(p)) {
        for l in map.locations_of(p) {
            for &m in map.fleet_neighbours(l) {
                let q = map.province_of(m);
                if has_fleet(q) {
                    dsu.union(p.0 as usize, q.0 as usize);
                }
            }
        }
    }
    let mut group = vec![None; n];
    let mut id: Vec<Option<usize>> = vec![None; n];
    let mut count = 0;
    for p in map.province_ids().filter(|&p| has_fleet(p)) {
        let root = dsu.find(p.0 as usize);
        let g = match id.get(root).copied().flatten() {
            Some(g) => g,
            None => {
                if let Some(slot) = id.get_mut(root) {
                    *slot = Some(count);
                }
                count += 1;
                count - 1
            }
        };
        if let Some(slot) = group.get_mut(p.0 as usize) {
            *slot = Some(g);
        }
    }
    (group, count)
}

/// The regions of a scenario (see [`Regions`]): linear in its size.
pub fn regions(s: &Scenario) -> Regions {
    let map = &*s.map;
    let provinces = map.province_count();
    let (sea_group, seas) = fleet_groups(map, &s.units);
    // Provinces, then one node per possible power, then one per group of seas.
    let mut dsu = Dsu::new(provinces + usize::from(u8::MAX) + 1 + seas);
    let power_node = |p: PowerId| provinces + usize::from(p.0);
    let sea_node = |g: usize| provinces + usize::from(u8::MAX) + 1 + g;
    let mut touched = vec![false; seas];
    let adjustment = s.phase.kind == PhaseKind::Adjustment;
    let units: Vec<(usize, PowerId)> = s
        .units
        .iter()
        .chain(s.dislodged.iter().map(|d| &d.unit))
        .map(|u| (map.province_of(u.loc).0 as usize, u.power))
        .collect();
    if adjustment {
        for &(node, power) in &units {
            dsu.union(node, power_node(power));
        }
    }
    let retreats = s.retreats.iter().flat_map(|f| f.orders.iter());
    let orders: Vec<&OrderEntry> = s.orders.iter().chain(retreats).collect();
    let mut order_nodes = Vec::with_capacity(orders.len());
    for e in &orders {
        let node = match e.order.unit {
            Some(u) => u.loc.province.0 as usize,
            None => power_node(e.power),
        };
        for p in named_provinces(&e.order) {
            dsu.union(node, p.0 as usize);
        }
        let here = e.order.unit.map(|u| u.loc.province);
        if let Some(from) = convoy_origin(map, here, &e.order) {
            for l in map.locations_of(from) {
                for &m in map.fleet_neighbours(l) {
                    let group = sea_group.get(map.province_of(m).0 as usize).copied();
                    if let Some(g) = group.flatten() {
                        dsu.union(node, sea_node(g));
                        if let Some(t) = touched.get_mut(g) {
                            *t = true;
                        }
                    }
                }
            }
        }
        if adjustment {
            dsu.union(node, power_node(e.power));
        }
        order_nodes.push(node);
    }
    // The seas of each group a convoy may need, with the fleets in them.
    for (p, g) in sea_group.iter().enumerate() {
        if let Some(g) = *g
            && touched.get(g).copied().unwrap_or(false)
        {
            dsu.union(p, sea_node(g));
        }
    }
    // Number the regions as they first appear.
    let mut id: Vec<u32> = vec![u32::MAX; dsu.parent.len()];
    let mut count = 0usize;
    let mut region_of = |dsu: &mut Dsu, node: usize| -> usize {
        let root = dsu.find(node);
        match id.get_mut(root) {
            Some(slot) if *slot == u32::MAX => {
                *slot = count as u32;
                count += 1;
                count - 1
            }
            Some(slot) => *slot as usize,
            None => 0,
        }
    };
    let unit = units
        .iter()
        .map(|&(node, _)| region_of(&mut dsu, node))
        .collect();
    let order = order_nodes
        .iter()
        .map(|&node| region_of(&mut dsu, node))
        .collect();
    Regions { unit, order, count }
}
