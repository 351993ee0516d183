//! Random dense positions on a map, seeded and reproducible: the generator the integration tests
//! have used to hold two engines against each other (`tests/it/oracle.rs`, `dpjudge.rs`), moved
//! here so that `versus` runs it too, with recipes that plant the shapes that matter (convoy
//! paradoxes, circular movement, head-to-head battles).
//!
//! Indexing: every index below is an index into a vector of this function (`units`, `plan`,
//! `menus`, `taken`: one slot per unit) made from a number below that vector's length
//! (`rng.below(len)`, an enumeration of it, or a unit index `unit_at` found in it), so it is in
//! bounds.
#![allow(clippy::indexing_slicing)]

use crate::base::random::spread;
use crate::model::board::Unit;
use crate::model::map::{Map, PowerId, ProvinceKind, UnitKind};
use crate::model::orders::{Order, OrderKind};
use crate::tools::menu::movement_menus;

/// The generator of random positions: xorshift64*, seeded through the crate's splitmix64
/// ([`spread`]), so that a seed reproduces on every machine. Kept apart from
/// [`SplitMix64`](crate::base::random::SplitMix64) because every seeded position (`versus`, and
/// the tests that pin positions by seed) is made of its numbers.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        // Spread through splitmix64: neighbouring seeds give unrelated streams. Never 0, which
        // xorshift would keep at 0.
        Rng(spread(seed) | 1)
    }
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    /// A random element.
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> Option<&'a T> {
        if v.is_empty() {
            return None;
        }
        let i = self.below(v.len());
        v.get(i)
    }
}

/// What a random movement position is made of: whether it has convoys, and how often (in
/// percent) each motif is planted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// Convoy orders, moves by convoy and `via convoy` (else moves over land and along coasts,
    /// supports and holds only).
    pub convoys: bool,
    /// A ring: three units each moving to the next one's province.
    pub ring: u64,
    /// The core of a convoy paradox: an army convoyed onto a unit that supports an attack on the
    /// convoying fleet (DATC 6.F.14). Needs `convoys`.
    pub paradox: u64,
    /// A convoy to a neighbouring province, the unit there moving the other way or supporting an
    /// attack on the army's province (DATC 6.G). Needs `convoys`.
    pub swap: u64,
    /// Head-to-head battles: two neighbours moving into each other's province, each now and then
    /// supported (0 draws nothing from the generator, so the other recipes' positions do not
    /// change).
    pub head: u64,
}

impl Recipe {
    /// The recipe the tests have always used, with convoys: ring 30 %, paradox core 75 %,
    /// neighbour convoy 35 %.
    pub const WITH_CONVOYS: Recipe = Recipe {
        convoys: true,
        ring: 30,
        paradox: 75,
        swap: 35,
        head: 0,
    };
    /// The same without any convoy.
    pub const WITHOUT_CONVOYS: Recipe = Recipe {
        convoys: false,
        ..Recipe::WITH_CONVOYS
    };
}

/// A dense position on a small connected region of `map` (often around a sea, so that convoys
/// and their paradoxes are common), with orders that mostly interact: moves into the region,
/// supports of the moves and holds actually ordered, convoys of the convoyed moves actually
/// ordered, now and then an unmatched support or convoy, and the motifs of `recipe`. The same
/// seed and recipe give the same position; with [`Recipe::WITH_CONVOYS`] on the standard map the
/// positions are exactly those `tests/it/oracle.rs` has always used for a seed.
pub fn random_position(map: &Map, seed: u64, recipe: Recipe) -> (Vec<Unit>, Vec<(PowerId, Order)>) {
    let with_convoys = recipe.convoys;
    let mut rng = Rng::new(seed);
    let all: Vec<_> = map.province_ids().collect();
    let seas: Vec<_> = all
        .iter()
        .copied()
        .filter(|p| map.province(*p).kind == ProvinceKind::Sea)
        .collect();
    let start = if rng.chance(70) {
        rng.pick(&seas).or(all.first()).copied()
    } else {
        rng.pick(&all).copied()
    };
    let Some(start) = start else {
        return (Vec::new(), Vec::new());
    };
    // A breadth-first region of 6 to 13 provinces.
    let size = 7 + rng.below(8);
    let mut region = vec![start];
    let mut k = 0;
    while region.len() < size && k < region.len() {
        let p = region[k];
        k += 1;
        let mut ns: Vec<_> = all
            .iter()
            .copied()
            .filter(|&q| q != p && map.provinces_adjacent(p, q) && !region.contains(&q))
            .collect();
        while !ns.is_empty() && region.len() < size {
            let q = ns.swap_remove(rng.below(ns.len()));
            region.push(q);
        }
    }
    // Two or three powers, never more than the map has (the standard map's positions are unchanged).
    let powers = (2 + rng.below(2)).min(map.powers.len()).max(1);
    let mut units = Vec::new();
    for &p in &region {
        if !rng.chance(85) {
            continue;
        }
        let prov = map.province(p);
        let kind = match prov.kind {
            ProvinceKind::Sea => UnitKind::Fleet,
            ProvinceKind::Land => UnitKind::Army,
            ProvinceKind::Coast if rng.chance(50) => UnitKind::Fleet,
            ProvinceKind::Coast => UnitKind::Army,
        };
        let loc = if kind == UnitKind::Fleet && prov.is_multi_coast() {
            prov.coasts[rng.below(prov.coasts.len())].1
        } else {
            prov.main
        };
        units.push(Unit {
            power: PowerId(rng.below(powers) as u8),
            kind,
            loc,
        });
    }
    // On a map with neutral units, one unit in five is neutral (other maps draw nothing more:
    // their positions are unchanged).
    if !map.neutral_units.is_empty() {
        for u in units.iter_mut() {
            if rng.chance(20) {
                u.power = PowerId::NEUTRAL;
            }
        }
    }
    let here = |u: usize| map.province_of(units[u].loc);
    // Without convoys: no convoy order, and no army move that needs one.
    let keep = |u: usize, o: &Order| match &o.kind {
        OrderKind::Convoy { .. } => with_convoys,
        OrderKind::Move {
            dest, via_convoy, ..
        } => {
            with_convoys
                || (!via_convoy
                    && (units[u].kind == UnitKind::Fleet
                        || map.army_adjacent(here(u), dest.province)))
        }
        _ => true,
    };
    let menus: Vec<Vec<Order>> = movement_menus(map, &units)
        .into_iter()
        .enumerate()
        .map(|(u, mut m)| {
            m.retain(|o| keep(u, o));
            m
        })
        .collect();
    let unit_at = |p| (0..units.len()).find(|&u| here(u) == p);
    // Pass 1: holds and moves (into occupied provinces more often than not).
    let mut plan: Vec<Option<Order>> = vec![None; units.len()];
    for (u, menu) in menus.iter().enumerate() {
        let r = rng.below(100);
        if r < 10 {
            plan[u] = menu.iter().find(|o| o.kind == OrderKind::Hold).cloned();
        } else if r < 62 {
            let moves: Vec<&Order> = menu
                .iter()
                .filter(|o| matches!(o.kind, OrderKind::Move { .. }))
                .collect();
            let dest_of = |o: &Order| match &o.kind {
                OrderKind::Move { dest, .. } => Some(dest.province),
                _ => None,
            };
            let occupied: Vec<&Order> = moves
                .iter()
                .copied()
                .filter(|o| dest_of(o).and_then(unit_at).is_some())
                .collect();
            // The ingredients of paradoxes: attacks on fleets at sea, and moves by convoy.
            let on_fleets: Vec<&Order> = occupied
                .iter()
                .copied()
                .filter(|o| dest_of(o).is_some_and(|d| map.province(d).kind == ProvinceKind::Sea))
                .collect();
            let convoyed: Vec<&Order> = moves
                .iter()
                .copied()
                .filter(|o| {
                    units[u].kind == UnitKind::Army
                        && dest_of(o).is_some_and(|d| !map.army_adjacent(here(u), d))
                })
                .collect();
            let from = if !convoyed.is_empty() && rng.chance(60) {
                &convoyed
            } else if !on_fleets.is_empty() && rng.chance(50) {
                &on_fleets
            } else if !occupied.is_empty() && rng.chance(75) {
                &occupied
            } else {
                &moves
            };
            plan[u] = rng.pick(from).map(|o| (*o).clone());
        }
    }
    // Now and then a ring: three units each moving to the next one's province.
    if units.len() >= 3 && rng.chance(recipe.ring) {
        let move_to = |u: usize, v: usize| {
            menus[u]
                .iter()
                .find(|o| matches!(&o.kind, OrderKind::Move { dest, via_convoy: false, .. } if dest.province == here(v)))
                .cloned()
        };
        'ring: for _ in 0..20 {
            let a = rng.below(units.len());
            let b = rng.below(units.len());
            let c = rng.below(units.len());
            if a == b || b == c || a == c {
                continue;
            }
            if let (Some(x), Some(y), Some(z)) = (move_to(a, b), move_to(b, c), move_to(c, a)) {
                plan[a] = Some(x);
                plan[b] = Some(y);
                plan[c] = Some(z);
                break 'ring;
            }
        }
    }
    // Units a motif has given their orders to (later motifs leave them alone).
    let mut taken = vec![false; units.len()];
    // Now and then the core of a convoy paradox: an army convoyed onto a unit that supports an
    // attack on the convoying fleet (DATC 6.F.14).
    if with_convoys && units.len() >= 4 && rng.chance(recipe.paradox) {
        let find = |u: usize, pred: &dyn Fn(&OrderKind) -> bool| {
            menus[u].iter().find(|o| pred(&o.kind)).cloned()
        };
        'core: for _ in 0..200 {
            let (f, a, x) = (
                rng.below(units.len()),
                rng.below(units.len()),
                rng.below(units.len()),
            );
            if f == a || f == x || a == x || units[a].kind != UnitKind::Army {
                continue;
            }
            let sea = here(f);
            // A convoy by `f` of `a` to a province holding another unit.
            let Some(convoy) = find(f, &|k| {
                matches!(k, OrderKind::Convoy { army, dest }
                    if army.unit.loc.province == here(a)
                        && unit_at(dest.province).is_some_and(|s| s != x && s != f))
            }) else {
                continue;
            };
            let OrderKind::Convoy { dest, .. } = &convoy.kind else {
                continue;
            };
            let d = dest.province;
            let Some(sup) = unit_at(d) else { continue };
            let Some(mv) = find(
                a,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == d),
            ) else {
                continue;
            };
            let Some(attack) = find(
                x,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == sea),
            ) else {
                continue;
            };
            let Some(support) = find(sup, &|k| {
                matches!(k, OrderKind::Support { target, dest: Some(dd) }
                    if target.unit.loc.province == here(x) && dd.province == sea)
            }) else {
                continue;
            };
            plan[f] = Some(convoy);
            plan[a] = Some(mv);
            plan[x] = Some(attack);
            plan[sup] = Some(support);
            for u in [f, a, x, sup] {
                taken[u] = true;
            }
            break 'core;
        }
    }
    // Now and then a convoy to a neighbouring province (DATC 6.G): the unit there moves the
    // other way, or supports an attack on the army's own province (4.A.3, 4.A.4, 4.A.7).
    if with_convoys && units.len() >= 3 && rng.chance(recipe.swap) {
        let find = |u: usize, pred: &dyn Fn(&OrderKind) -> bool| {
            menus[u].iter().find(|o| pred(&o.kind)).cloned()
        };
        'swap: for _ in 0..200 {
            let (f, a) = (rng.below(units.len()), rng.below(units.len()));
            if f == a || units[a].kind != UnitKind::Army || taken[f] || taken[a] {
                continue;
            }
            let Some(convoy) = find(f, &|k| {
                matches!(k, OrderKind::Convoy { army, dest }
                    if army.unit.loc.province == here(a)
                        && map.army_adjacent(here(a), dest.province)
                        && unit_at(dest.province).is_some())
            }) else {
                continue;
            };
            let OrderKind::Convoy { dest, .. } = &convoy.kind else {
                continue;
            };
            let d = dest.province;
            let Some(other) = unit_at(d).filter(|&o| !taken[o]) else {
                continue;
            };
            let Some(mut mv) = find(
                a,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == d),
            ) else {
                continue;
            };
            if let OrderKind::Move { via_convoy, .. } = &mut mv.kind {
                *via_convoy = rng.chance(70);
            }
            let back = if rng.chance(50) {
                find(
                    other,
                    &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == here(a)),
                )
            } else {
                find(
                    other,
                    &|k| matches!(k, OrderKind::Support { dest: Some(dd), .. } if dd.province == here(a)),
                )
            };
            let Some(back) = back else { continue };
            if let OrderKind::Support { target, .. } = &back.kind
                && let Some(x) = unit_at(target.unit.loc.province).filter(|&x| !taken[x])
                && let Some(attack) = find(
                    x,
                    &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == here(a)),
                )
            {
                plan[x] = Some(attack);
            }
            plan[f] = Some(convoy);
            plan[a] = Some(mv);
            plan[other] = Some(back);
            break 'swap;
        }
    }
    // Head-to-head battles (DATC 6.E): two neighbours moving into each other's province.
    if recipe.head > 0 && units.len() >= 2 && rng.chance(recipe.head) {
        let battles = 1 + rng.below(2);
        let mut made = 0;
        for _ in 0..100 {
            if made == battles {
                break;
            }
            let (a, b) = (rng.below(units.len()), rng.below(units.len()));
            if a == b || taken[a] || taken[b] {
                continue;
            }
            let into = |u: usize, v: usize| {
                menus[u]
                    .iter()
                    .find(|o| matches!(&o.kind, OrderKind::Move { dest, via_convoy: false, .. } if dest.province == here(v)))
                    .cloned()
            };
            if let (Some(x), Some(y)) = (into(a, b), into(b, a)) {
                plan[a] = Some(x);
                plan[b] = Some(y);
                taken[a] = true;
                taken[b] = true;
                made += 1;
            }
        }
    }
    // Pass 2: supports and convoys, mostly of what was actually ordered.
    let matches = |o: &Order, plan: &[Option<Order>]| -> bool {
        match &o.kind {
            OrderKind::Support { target, dest } => {
                let Some(t) = unit_at(target.unit.loc.province) else {
                    return false;
                };
                match (dest, plan[t].as_ref().map(|p| &p.kind)) {
                    (None, Some(OrderKind::Move { .. })) => false,
                    (None, _) => true,
                    (Some(d), Some(OrderKind::Move { dest: td, .. })) => d.province == td.province,
                    _ => false,
                }
            }
            OrderKind::Convoy { army, dest } => {
                let Some(t) = unit_at(army.unit.loc.province) else {
                    return false;
                };
                matches!(plan[t].as_ref().map(|p| &p.kind),
                    Some(OrderKind::Move { dest: td, .. }) if td.province == dest.province)
            }
            _ => false,
        }
    };
    let snapshot = plan.clone();
    for (u, menu) in menus.iter().enumerate() {
        if plan[u].is_some() {
            continue;
        }
        let helping: Vec<&Order> = menu
            .iter()
            .filter(|o| matches!(o.kind, OrderKind::Support { .. } | OrderKind::Convoy { .. }))
            .collect();
        let matching: Vec<&Order> = helping
            .iter()
            .copied()
            .filter(|o| matches(o, &snapshot))
            .collect();
        let from = if !matching.is_empty() && rng.chance(90) {
            &matching
        } else {
            &helping
        };
        plan[u] = rng.pick(from).map(|o| (*o).clone());
    }
    // `via convoy` on a move to a neighbour now and then (4.A.3).
    for (u, o) in plan.iter_mut().enumerate() {
        if let Some(OrderKind::Move { via_convoy, .. }) = o.as_mut().map(|o| &mut o.kind)
            && units[u].kind == UnitKind::Army
            && with_convoys
            && rng.chance(15)
        {
            *via_convoy = true;
        }
    }
    let orders = plan
        .into_iter()
        .enumerate()
        .filter_map(|(u, o)| o.map(|o| (units[u].power, o)))
        .collect();
    (units, orders)
}
