//! Random dense positions on a map, seeded and reproducible: the generator the integration tests
//! have used to hold two engines against each other (`tests/it/oracle.rs`, `dpjudge.rs`), moved
//! here so that `versus` runs it too, with recipes that plant the shapes that matter (convoy
//! paradoxes, circular movement, head-to-head battles).
//!
//! Indexing: every index below is an index into a vector of the draft (`units`, `plan`,
//! `menus`, `taken`: one slot per unit) made from a number below that vector's length
//! (`rng.below(len)`, an enumeration of it, or a unit index `unit_at` found in it), so it is in
//! bounds.
#![allow(clippy::indexing_slicing)]

use crate::base::random::spread;
use crate::model::board::Unit;
use crate::model::map::{Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
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
///
/// Built in phases, each drawing its numbers from the one generator in a fixed order (so that a
/// seed keeps its position): the region, the units on it, their menus of orders, the first pass
/// (holds and moves), the motifs (ring, paradox core, neighbour convoy, head-to-head battles),
/// the second pass (supports and convoys) and the `via convoy` flags.
pub fn random_position(map: &Map, seed: u64, recipe: Recipe) -> (Vec<Unit>, Vec<(PowerId, Order)>) {
    let mut rng = Rng::new(seed);
    let Some(region) = region(map, &mut rng) else {
        return (Vec::new(), Vec::new());
    };
    let units = place_units(map, &mut rng, &region);
    let mut d = Draft::new(map, units, recipe.convoys);
    d.first_pass(&mut rng);
    if d.units.len() >= 3 && rng.chance(recipe.ring) {
        d.plant_ring(&mut rng);
    }
    if d.with_convoys && d.units.len() >= 4 && rng.chance(recipe.paradox) {
        d.plant_paradox(&mut rng);
    }
    if d.with_convoys && d.units.len() >= 3 && rng.chance(recipe.swap) {
        d.plant_swap(&mut rng);
    }
    if recipe.head > 0 && d.units.len() >= 2 && rng.chance(recipe.head) {
        d.plant_head_to_heads(&mut rng);
    }
    d.second_pass(&mut rng);
    d.via_convoy_now_and_then(&mut rng);
    d.finish()
}

/// The region of a position: a province to start from (a sea 70 % of the time), then a
/// breadth-first region of 7 to 14 provinces around it, neighbours taken in random order. None
/// on a map without provinces.
fn region(map: &Map, rng: &mut Rng) -> Option<Vec<ProvinceId>> {
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
    }?;
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
    Some(region)
}

/// The units on `region`: one on a province 85 % of the time, of the kind the province allows
/// (either on a coast, on a random coast of a province with several), of two or three powers;
/// on a map with neutral units, one unit in five is neutral.
fn place_units(map: &Map, rng: &mut Rng, region: &[ProvinceId]) -> Vec<Unit> {
    // Two or three powers, never more than the map has (the standard map's positions are unchanged).
    let powers = (2 + rng.below(2)).min(map.powers.len()).max(1);
    let mut units = Vec::new();
    for &p in region {
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
    // Other maps draw nothing more: their positions are unchanged.
    if !map.neutral_units.is_empty() {
        for u in units.iter_mut() {
            if rng.chance(20) {
                u.power = PowerId::NEUTRAL;
            }
        }
    }
    units
}

/// A position being built: the units, each unit's menu of orders, the order planned for each
/// and which units a motif has given their orders to (later motifs leave them alone).
struct Draft<'m> {
    map: &'m Map,
    with_convoys: bool,
    units: Vec<Unit>,
    menus: Vec<Vec<Order>>,
    plan: Vec<Option<Order>>,
    taken: Vec<bool>,
}

impl<'m> Draft<'m> {
    /// The draft of `units`, with their menus (without convoys: no convoy order, and no army
    /// move that needs one) and nothing planned.
    fn new(map: &'m Map, units: Vec<Unit>, with_convoys: bool) -> Self {
        let here = |u: usize| map.province_of(units[u].loc);
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
        let n = units.len();
        Draft {
            map,
            with_convoys,
            units,
            menus,
            plan: vec![None; n],
            taken: vec![false; n],
        }
    }

    /// The province of unit `u`.
    fn here(&self, u: usize) -> ProvinceId {
        self.map.province_of(self.units[u].loc)
    }

    /// The unit in province `p`, if any.
    fn unit_at(&self, p: ProvinceId) -> Option<usize> {
        (0..self.units.len()).find(|&u| self.here(u) == p)
    }

    /// The first order of `u`'s menu whose kind passes `pred`.
    fn find(&self, u: usize, pred: &dyn Fn(&OrderKind) -> bool) -> Option<Order> {
        self.menus[u].iter().find(|o| pred(&o.kind)).cloned()
    }

    /// `u`'s move into `v`'s province over land or along a coast, if it has one.
    fn move_into(&self, u: usize, v: usize) -> Option<Order> {
        let there = self.here(v);
        self.find(
            u,
            &|k| matches!(k, OrderKind::Move { dest, via_convoy: false, .. } if dest.province == there),
        )
    }

    /// Pass 1: for each unit, a hold (10 %), a move (52 %: into occupied provinces more often
    /// than not, by convoy or onto a fleet at sea by preference) or nothing yet.
    fn first_pass(&mut self, rng: &mut Rng) {
        let map = self.map;
        for u in 0..self.units.len() {
            let r = rng.below(100);
            if r < 10 {
                self.plan[u] = self.menus[u]
                    .iter()
                    .find(|o| o.kind == OrderKind::Hold)
                    .cloned();
            } else if r < 62 {
                let moves: Vec<&Order> = self.menus[u]
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
                    .filter(|o| dest_of(o).and_then(|d| self.unit_at(d)).is_some())
                    .collect();
                // The ingredients of paradoxes: attacks on fleets at sea, and moves by convoy.
                let on_fleets: Vec<&Order> = occupied
                    .iter()
                    .copied()
                    .filter(|o| {
                        dest_of(o).is_some_and(|d| map.province(d).kind == ProvinceKind::Sea)
                    })
                    .collect();
                let convoyed: Vec<&Order> = moves
                    .iter()
                    .copied()
                    .filter(|o| {
                        self.units[u].kind == UnitKind::Army
                            && dest_of(o).is_some_and(|d| !map.army_adjacent(self.here(u), d))
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
                let picked = rng.pick(from).map(|o| (*o).clone());
                self.plan[u] = picked;
            }
        }
    }

    /// A ring: three units each moving to the next one's province (up to 20 tries).
    fn plant_ring(&mut self, rng: &mut Rng) {
        let n = self.units.len();
        for _ in 0..20 {
            let a = rng.below(n);
            let b = rng.below(n);
            let c = rng.below(n);
            if a == b || b == c || a == c {
                continue;
            }
            if let (Some(x), Some(y), Some(z)) = (
                self.move_into(a, b),
                self.move_into(b, c),
                self.move_into(c, a),
            ) {
                self.plan[a] = Some(x);
                self.plan[b] = Some(y);
                self.plan[c] = Some(z);
                return;
            }
        }
    }

    /// The core of a convoy paradox (DATC 6.F.14): fleet `f` convoys army `a` onto a unit that
    /// supports `x`'s attack on the fleet (up to 200 tries). The four units are then taken.
    fn plant_paradox(&mut self, rng: &mut Rng) {
        let n = self.units.len();
        for _ in 0..200 {
            let (f, a, x) = (rng.below(n), rng.below(n), rng.below(n));
            if f == a || f == x || a == x || self.units[a].kind != UnitKind::Army {
                continue;
            }
            let sea = self.here(f);
            let (from, attacker) = (self.here(a), self.here(x));
            // A convoy by `f` of `a` to a province holding another unit.
            let Some(convoy) = self.find(f, &|k| {
                matches!(k, OrderKind::Convoy { army, dest }
                    if army.unit.loc.province == from
                        && self.unit_at(dest.province).is_some_and(|s| s != x && s != f))
            }) else {
                continue;
            };
            let OrderKind::Convoy { dest, .. } = &convoy.kind else {
                continue;
            };
            let d = dest.province;
            let Some(sup) = self.unit_at(d) else { continue };
            let Some(mv) = self.find(
                a,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == d),
            ) else {
                continue;
            };
            let Some(attack) = self.find(
                x,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == sea),
            ) else {
                continue;
            };
            let Some(support) = self.find(sup, &|k| {
                matches!(k, OrderKind::Support { target, dest: Some(dd) }
                    if target.unit.loc.province == attacker && dd.province == sea)
            }) else {
                continue;
            };
            self.plan[f] = Some(convoy);
            self.plan[a] = Some(mv);
            self.plan[x] = Some(attack);
            self.plan[sup] = Some(support);
            for u in [f, a, x, sup] {
                self.taken[u] = true;
            }
            return;
        }
    }

    /// A convoy to a neighbouring province (DATC 6.G; 4.A.3, 4.A.4, 4.A.7): the unit there
    /// moves the other way, or supports an attack on the army's own province, whose attacker
    /// is then ordered to make it (up to 200 tries; taken units are left alone).
    fn plant_swap(&mut self, rng: &mut Rng) {
        let map = self.map;
        let n = self.units.len();
        for _ in 0..200 {
            let (f, a) = (rng.below(n), rng.below(n));
            if f == a || self.units[a].kind != UnitKind::Army || self.taken[f] || self.taken[a] {
                continue;
            }
            let from = self.here(a);
            let Some(convoy) = self.find(f, &|k| {
                matches!(k, OrderKind::Convoy { army, dest }
                    if army.unit.loc.province == from
                        && map.army_adjacent(from, dest.province)
                        && self.unit_at(dest.province).is_some())
            }) else {
                continue;
            };
            let OrderKind::Convoy { dest, .. } = &convoy.kind else {
                continue;
            };
            let d = dest.province;
            let Some(other) = self.unit_at(d).filter(|&o| !self.taken[o]) else {
                continue;
            };
            let Some(mut mv) = self.find(
                a,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == d),
            ) else {
                continue;
            };
            if let OrderKind::Move { via_convoy, .. } = &mut mv.kind {
                *via_convoy = rng.chance(70);
            }
            let back = if rng.chance(50) {
                self.find(
                    other,
                    &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == from),
                )
            } else {
                self.find(
                    other,
                    &|k| matches!(k, OrderKind::Support { dest: Some(dd), .. } if dd.province == from),
                )
            };
            let Some(back) = back else { continue };
            if let OrderKind::Support { target, .. } = &back.kind
                && let Some(x) = self
                    .unit_at(target.unit.loc.province)
                    .filter(|&x| !self.taken[x])
                && let Some(attack) = self.find(
                    x,
                    &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == from),
                )
            {
                self.plan[x] = Some(attack);
            }
            self.plan[f] = Some(convoy);
            self.plan[a] = Some(mv);
            self.plan[other] = Some(back);
            return;
        }
    }

    /// One or two head-to-head battles (DATC 6.E): two neighbours moving into each other's
    /// province (up to 100 tries). Their units are then taken.
    fn plant_head_to_heads(&mut self, rng: &mut Rng) {
        let n = self.units.len();
        let battles = 1 + rng.below(2);
        let mut made = 0;
        for _ in 0..100 {
            if made == battles {
                break;
            }
            let (a, b) = (rng.below(n), rng.below(n));
            if a == b || self.taken[a] || self.taken[b] {
                continue;
            }
            if let (Some(x), Some(y)) = (self.move_into(a, b), self.move_into(b, a)) {
                self.plan[a] = Some(x);
                self.plan[b] = Some(y);
                self.taken[a] = true;
                self.taken[b] = true;
                made += 1;
            }
        }
    }

    /// Whether support or convoy `o` matches what `plan` orders the unit it helps.
    fn helps_as_planned(&self, o: &Order, plan: &[Option<Order>]) -> bool {
        match &o.kind {
            OrderKind::Support { target, dest } => {
                let Some(t) = self.unit_at(target.unit.loc.province) else {
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
                let Some(t) = self.unit_at(army.unit.loc.province) else {
                    return false;
                };
                matches!(plan[t].as_ref().map(|p| &p.kind),
                    Some(OrderKind::Move { dest: td, .. }) if td.province == dest.province)
            }
            _ => false,
        }
    }

    /// Pass 2: each unit without an order gets a support or a convoy, matching what pass 1
    /// and the motifs ordered 90 % of the time when one does.
    fn second_pass(&mut self, rng: &mut Rng) {
        let snapshot = self.plan.clone();
        for u in 0..self.units.len() {
            if self.plan[u].is_some() {
                continue;
            }
            let helping: Vec<&Order> = self.menus[u]
                .iter()
                .filter(|o| matches!(o.kind, OrderKind::Support { .. } | OrderKind::Convoy { .. }))
                .collect();
            let matching: Vec<&Order> = helping
                .iter()
                .copied()
                .filter(|o| self.helps_as_planned(o, &snapshot))
                .collect();
            let from = if !matching.is_empty() && rng.chance(90) {
                &matching
            } else {
                &helping
            };
            let picked = rng.pick(from).map(|o| (*o).clone());
            self.plan[u] = picked;
        }
    }

    /// `via convoy` on an army's move now and then (15 %, with convoys only; 4.A.3).
    fn via_convoy_now_and_then(&mut self, rng: &mut Rng) {
        for (u, o) in self.plan.iter_mut().enumerate() {
            if let Some(OrderKind::Move { via_convoy, .. }) = o.as_mut().map(|o| &mut o.kind)
                && self.units[u].kind == UnitKind::Army
                && self.with_convoys
                && rng.chance(15)
            {
                *via_convoy = true;
            }
        }
    }

    /// The units and the planned orders, each with its unit's power.
    fn finish(self) -> (Vec<Unit>, Vec<(PowerId, Order)>) {
        let units = self.units;
        let orders = self
            .plan
            .into_iter()
            .enumerate()
            .filter_map(|(u, o)| o.map(|o| (units[u].power, o)))
            .collect();
        (units, orders)
    }
}
