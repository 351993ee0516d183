//! Synthetic boards for measuring scale: rings and grids of N inland provinces with a unit on
//! each, and four order patterns that stress the adjudicator differently.
//!
//! - [`Pattern::Ring`]: every army moves one step round a ring (one cycle of N moves: the
//!   circular-movement rule decides it).
//! - [`Pattern::ChainBounce`]: a chain of N−1 moves, each into the province the next one leaves,
//!   whose head bounces with the last army coming the other way (every move fails, one province
//!   is left contested).
//! - [`Pattern::SupportHold`]: every army on a ring supports the next one holding.
//! - [`Pattern::Grid`]: a grid in which every province borders its eight neighbours, with seven
//!   powers and random orders (holds, moves, supports of holds and of neighbours' moves), drawn
//!   from a seed so that a run is repeatable.
//!
//! Besides, [`star_map`]: a hub bordering N leaves (a province with N neighbours), and
//! [`standoff`]: N armies on its leaves all moving into the hub.
//!
//! Maps are built with [`Map::from_lists`], which validates them as a map file is validated, so
//! building one also measures map loading. Nothing here recurses or grows faster than N.
//!
//! ```
//! use dipsandbox_core::tools::synth::{Pattern, position};
//! let s = position(Pattern::Ring, 100, 1).unwrap();
//! assert_eq!(s.units.len(), 100);
//! assert_eq!(s.orders.len(), 100);
//! ```

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): the generated boards are
// built here: unit and province indices range over counts this module chose, and the neighbour
// table is indexed modulo its length.
#![allow(clippy::indexing_slicing)]

use crate::base::random::SplitMix64;
use crate::model::board::Unit;
use crate::model::error::MapError;
use crate::model::map::{Map, PowerId, ProvinceId, ProvinceKind, ProvinceSpec, UnitKind};
use crate::model::orders::{LocSpec, Order, OrderKind, UnitRef, UnitSpec};

/// An order pattern on a synthetic board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Every army moves one step round a ring: circular movement.
    Ring,
    /// A chain of moves ending in a bounce: nothing moves.
    ChainBounce,
    /// Every army on a ring supports the next one holding.
    SupportHold,
    /// A grid of eight-neighbour provinces with random orders.
    Grid,
}

impl Pattern {
    /// All patterns, in a fixed order.
    pub const ALL: [Pattern; 4] = [
        Pattern::Ring,
        Pattern::ChainBounce,
        Pattern::SupportHold,
        Pattern::Grid,
    ];

    /// A short name: `ring`, `chain_bounce`, `support_hold`, `grid`.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Ring => "ring",
            Pattern::ChainBounce => "chain_bounce",
            Pattern::SupportHold => "support_hold",
            Pattern::Grid => "grid",
        }
    }
}

/// A synthetic position: the map, a unit per occupied province and an order per unit.
#[derive(Clone, Debug)]
pub struct Synthetic {
    /// The generated map.
    pub map: Map,
    /// The units.
    pub units: Vec<Unit>,
    /// One order per unit, in unit order.
    pub orders: Vec<(PowerId, Order)>,
}

impl Synthetic {
    /// The position as a scenario (Spring 1901 movement, the DATC's preferred rules; each
    /// order's text as the order formats), for the commands that take one (`diff`'s deciders).
    pub fn scenario(&self) -> crate::model::scenario::Scenario {
        let map = std::sync::Arc::new(self.map.clone());
        let mut s = crate::model::scenario::Scenario::empty(map, "synthetic");
        s.title = "Synthetic position".into();
        s.units = self.units.clone();
        s.orders = self
            .orders
            .iter()
            .map(|(power, order)| crate::model::scenario::OrderEntry {
                power: *power,
                text: crate::model::orders::format_order(
                    &self.map,
                    order,
                    crate::model::orders::NameStyle::Abbr,
                ),
                order: order.clone(),
            })
            .collect();
        s
    }
}

/// The seven powers of every synthetic map (name, adjective).
pub const POWERS: [(&str, &str); 7] = [
    ("Alpha", "Alphan"),
    ("Beta", "Betan"),
    ("Gamma", "Gamman"),
    ("Delta", "Deltan"),
    ("Epsilon", "Epsilonian"),
    ("Zeta", "Zetan"),
    ("Eta", "Etan"),
];

fn inland(i: usize, army: Vec<String>) -> ProvinceSpec {
    ProvinceSpec {
        abbr: format!("p{i}"),
        name: format!("Province {i}"),
        kind: ProvinceKind::Land,
        supply_center: false,
        army,
        fleet: Vec::new(),
    }
}

/// A ring of `n` inland provinces `p0`..`p{n-1}`, each bordering the one before and the one
/// after (n ≥ 3), with seven powers.
pub fn ring_map(n: usize) -> Result<Map, MapError> {
    Map::from_lists("ring", "Synthetic ring", &POWERS, ring_provinces(n))
}

/// The provinces of [`ring_map`], as lists (for timing [`Map::from_lists`] alone).
pub fn ring_provinces(n: usize) -> Vec<ProvinceSpec> {
    let n = n.max(3);
    (0..n)
        .map(|i| {
            inland(
                i,
                vec![format!("p{}", (i + n - 1) % n), format!("p{}", (i + 1) % n)],
            )
        })
        .collect()
}

/// A star of `n` inland leaves `l0`..`l{n-1}` round a hub `h` (n ≥ 1): each leaf borders only
/// the hub, and the hub borders every leaf. The hub is listed first, so its id is 0 and leaf
/// `li`'s is i + 1.
pub fn star_map(n: usize) -> Result<Map, MapError> {
    Map::from_lists("star", "Synthetic star", &POWERS, star_provinces(n))
}

/// The provinces of [`star_map`], as lists (for timing [`Map::from_lists`] alone).
pub fn star_provinces(n: usize) -> Vec<ProvinceSpec> {
    let n = n.max(1);
    let mut hub = inland(0, (0..n).map(|i| format!("l{i}")).collect());
    hub.abbr = "h".into();
    hub.name = "Hub".into();
    std::iter::once(hub)
        .chain((0..n).map(|i| {
            let mut leaf = inland(i, vec!["h".into()]);
            leaf.abbr = format!("l{i}");
            leaf.name = format!("Leaf {i}");
            leaf
        }))
        .collect()
}

/// A standoff of `n` armies (n ≥ 2) on the leaves of a [`star_map`], every one moving into the
/// empty hub, their powers taken in turn from the seven: each bounces, and the hub is left
/// contested.
pub fn standoff(n: usize) -> Result<Synthetic, MapError> {
    let n = n.max(2);
    let map = star_map(n)?;
    let hub = ProvinceId(0);
    let mut units = Vec::with_capacity(n);
    let mut orders = Vec::with_capacity(n);
    for i in 0..n {
        let power = PowerId((i % POWERS.len()) as u8);
        let leaf = ProvinceId(i as u32 + 1);
        units.push(army_at(&map, power, leaf));
        orders.push((power, order(leaf, move_to(hub))));
    }
    Ok(Synthetic { map, units, orders })
}

/// A grid of `width` × `height` inland provinces (`p{y*width+x}`), each bordering its up to
/// eight neighbours, with seven powers.
pub fn grid_map(width: usize, height: usize) -> Result<Map, MapError> {
    Map::from_lists(
        "grid",
        "Synthetic grid",
        &POWERS,
        grid_provinces(width, height),
    )
}

/// The provinces of [`grid_map`], as lists (for timing [`Map::from_lists`] alone).
pub fn grid_provinces(width: usize, height: usize) -> Vec<ProvinceSpec> {
    let (w, h) = (width.max(1), height.max(1));
    let mut provinces = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let mut army = Vec::with_capacity(8);
            for (dx, dy) in NEIGHBOURS {
                if let Some(j) = grid_step(w, h, x, y, dx, dy) {
                    army.push(format!("p{j}"));
                }
            }
            provinces.push(inland(y * w + x, army));
        }
    }
    provinces
}

const NEIGHBOURS: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

fn grid_step(w: usize, h: usize, x: usize, y: usize, dx: isize, dy: isize) -> Option<usize> {
    let nx = x.checked_add_signed(dx)?;
    let ny = y.checked_add_signed(dy)?;
    (nx < w && ny < h).then_some(ny * w + nx)
}

fn army_at(map: &Map, power: PowerId, p: ProvinceId) -> Unit {
    Unit {
        power,
        kind: UnitKind::Army,
        loc: map.province(p).main,
    }
}

fn spec(p: ProvinceId) -> UnitSpec {
    UnitSpec {
        kind: Some(UnitKind::Army),
        loc: LocSpec {
            province: p,
            coast: None,
        },
    }
}

fn order(p: ProvinceId, kind: OrderKind) -> Order {
    Order {
        power: None,
        unit: Some(spec(p)),
        kind,
    }
}

fn move_to(d: ProvinceId) -> OrderKind {
    OrderKind::Move {
        dest: LocSpec {
            province: d,
            coast: None,
        },
        via_convoy: false,
        path: Vec::new(),
    }
}

fn reference(power: PowerId, p: ProvinceId) -> UnitRef {
    UnitRef {
        power: Some(power),
        unit: spec(p),
    }
}

/// A position of pattern `pattern` with `n` units (at least 3), on a map of its own; `seed`
/// draws the grid's powers and orders (the ring patterns ignore it).
pub fn position(pattern: Pattern, n: usize, seed: u64) -> Result<Synthetic, MapError> {
    let n = n.max(3);
    let pid = |i: usize| ProvinceId(i as u32);
    match pattern {
        Pattern::Ring | Pattern::SupportHold => {
            let map = ring_map(n)?;
            let power = PowerId(0);
            let units = (0..n).map(|i| army_at(&map, power, pid(i))).collect();
            let orders = (0..n)
                .map(|i| {
                    let next = pid((i + 1) % n);
                    let kind = if pattern == Pattern::Ring {
                        move_to(next)
                    } else {
                        OrderKind::Support {
                            target: reference(power, next),
                            dest: None,
                        }
                    };
                    (power, order(pid(i), kind))
                })
                .collect();
            Ok(Synthetic { map, units, orders })
        }
        Pattern::ChainBounce => {
            // Ring of n + 1: armies in p0..p(n-2) move one step on, p(n-1) is empty, and the
            // army in p(n) moves back into p(n-1), where it bounces with the chain's head.
            let map = ring_map(n + 1)?;
            let (a, b) = (PowerId(0), PowerId(1));
            let mut units = Vec::with_capacity(n);
            let mut orders = Vec::with_capacity(n);
            for i in 0..n - 1 {
                units.push(army_at(&map, a, pid(i)));
                orders.push((a, order(pid(i), move_to(pid(i + 1)))));
            }
            units.push(army_at(&map, b, pid(n)));
            orders.push((b, order(pid(n), move_to(pid(n - 1)))));
            Ok(Synthetic { map, units, orders })
        }
        Pattern::Grid => {
            let w = (n as f64).sqrt().ceil() as usize;
            let h = n.div_ceil(w);
            let map = grid_map(w, h)?;
            let mut rng = SplitMix64::new(seed);
            let powers: Vec<PowerId> = (0..n)
                .map(|_| PowerId((rng.next_u64() % POWERS.len() as u64) as u8))
                .collect();
            let units: Vec<Unit> = (0..n).map(|i| army_at(&map, powers[i], pid(i))).collect();
            let occupied = |j: usize| j < n;
            let neighbour = |i: usize, r: u64| {
                let (x, y) = (i % w, i / w);
                let (dx, dy) = NEIGHBOURS[(r % 8) as usize];
                grid_step(w, h, x, y, dx, dy)
            };
            // First the moves (40%), so that supports can match them.
            let mut dest: Vec<Option<usize>> = vec![None; n];
            let mut plan = vec![0u8; n];
            for i in 0..n {
                let r = rng.next_u64();
                plan[i] = (r % 20) as u8;
                if plan[i] < 8 {
                    dest[i] = neighbour(i, r >> 8);
                }
            }
            let mut orders = Vec::with_capacity(n);
            for i in 0..n {
                let r = rng.next_u64();
                let kind = match (plan[i], dest[i]) {
                    (_, Some(d)) => move_to(pid(d)),
                    // Supports (30%) of an occupied neighbour: its move when we border its
                    // destination, else its hold.
                    (8..=13, None) => match neighbour(i, r).filter(|&t| occupied(t)) {
                        Some(t) => {
                            let target = reference(powers[t], pid(t));
                            let d =
                                dest[t].filter(|&d| d != i && map.army_adjacent(pid(i), pid(d)));
                            OrderKind::Support {
                                target,
                                dest: d.map(|d| LocSpec {
                                    province: pid(d),
                                    coast: None,
                                }),
                            }
                        }
                        None => OrderKind::Hold,
                    },
                    _ => OrderKind::Hold,
                };
                orders.push((powers[i], order(pid(i), kind)));
            }
            Ok(Synthetic { map, units, orders })
        }
    }
}

/// A position for the minimizer: a ring of `n` provinces (rounded up to a multiple of four, at
/// least eight) in blocks of four, each of which only touches itself — an Alphan army holding,
/// an Alphan army supporting it, an Alphan army moving into the fourth province, where a Betan
/// army holds and the move bounces — so that the board falls into `n / 4` unrelated pairs of
/// orders. With `circle`, the block halfway round the ring is different: a chord joins its
/// first province to its third, and its three Alphan armies move round that triangle (the
/// circular-movement rule: the only backup rule on the board; the fourth army holds).
///
/// The move that bounces in block `k` is the order of unit `4k + 2`: a wrong expectation
/// planted there gives the minimizer a mismatch to keep.
///
/// ```
/// use dipsandbox_core::tools::synth::ring_blocks;
/// let s = ring_blocks(100, true).unwrap();
/// assert_eq!(s.units.len(), 100);
/// assert_eq!(s.map.province_count(), 100);
/// ```
pub fn ring_blocks(n: usize, circle: bool) -> Result<Synthetic, MapError> {
    let n = n.max(8).div_ceil(4) * 4;
    let pid = |i: usize| ProvinceId(i as u32);
    // The block with the circle starts at `c`; its first and third provinces border.
    let c = (n / 8) * 4;
    let mut provinces = ring_provinces(n);
    if circle {
        provinces[c].army.push(format!("p{}", c + 2));
        provinces[c + 2].army.push(format!("p{c}"));
    }
    let map = Map::from_lists(
        "ring_blocks",
        "Synthetic ring of blocks",
        &POWERS,
        provinces,
    )?;
    let (a, b) = (PowerId(0), PowerId(1));
    let mut units = Vec::with_capacity(n);
    let mut orders = Vec::with_capacity(n);
    for i in 0..n {
        let (block, k) = (i - i % 4, i % 4);
        let power = if k == 3 { b } else { a };
        units.push(army_at(&map, power, pid(i)));
        let kind = if circle && block == c {
            match k {
                0 => move_to(pid(c + 1)),
                1 => move_to(pid(c + 2)),
                2 => move_to(pid(c)),
                _ => OrderKind::Hold,
            }
        } else {
            match k {
                1 => OrderKind::Support {
                    target: reference(a, pid(block)),
                    dest: None,
                },
                2 => move_to(pid(i + 1)),
                _ => OrderKind::Hold,
            }
        };
        orders.push((power, order(pid(i), kind)));
    }
    Ok(Synthetic { map, units, orders })
}
