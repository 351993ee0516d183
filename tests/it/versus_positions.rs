//! The random positions of `versus` are a function of their seed: the positions written in
//! `tests/data/versus_positions.txt` (units and orders for a few seeds, recipes and maps, as the
//! generator made them when the file was written) are made again exactly. A run's summary names
//! positions by seed, so a generator that drifts makes every recorded finding unreproducible.

use std::fmt::Write as _;
use std::sync::Arc;

use dipsandbox_core::model::map::{Map, UnitKind};
use dipsandbox_core::model::orders::{NameStyle, format_order};
use dipsandbox_core::tools::versus::mix::{Mix, position};
use dipsandbox_core::tools::versus::positions::{Recipe, random_position};

/// The recorded positions.
const RECORDED: &str = include_str!("../data/versus_positions.txt");

/// Units and orders as text: one line a unit (power index, letter, place), one an order.
fn write_position(
    out: &mut String,
    map: &Map,
    units: &[dipsandbox_core::model::board::Unit],
    orders: &[(
        dipsandbox_core::model::map::PowerId,
        dipsandbox_core::model::orders::Order,
    )],
) {
    for u in units {
        let letter = match u.kind {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        };
        let _ = writeln!(out, "  unit {} {letter} {}", u.power.0, map.loc_name(u.loc));
    }
    for (p, o) in orders {
        let _ = writeln!(
            out,
            "  order {}: {}",
            p.0,
            format_order(map, o, NameStyle::Abbr)
        );
    }
}

/// The positions the file records: `random_position` under five recipes on the standard map,
/// the garrisons map (neutral units) and the modern map (more powers), and `versus`' movement
/// mixes through `mix::position`.
fn positions_text() -> String {
    let standard = Arc::new(Map::standard());
    let garrisons = Arc::new(Map::load("maps/garrisons.ron").expect("garrisons loads"));
    let modern = Arc::new(Map::load("maps/modern.ron").expect("modern loads"));
    let recipes = [
        ("with-convoys", Recipe::WITH_CONVOYS),
        ("without-convoys", Recipe::WITHOUT_CONVOYS),
        (
            "paradox",
            Recipe {
                paradox: 100,
                swap: 50,
                ..Recipe::WITH_CONVOYS
            },
        ),
        (
            "swap",
            Recipe {
                swap: 100,
                ring: 0,
                paradox: 0,
                ..Recipe::WITH_CONVOYS
            },
        ),
        (
            "head",
            Recipe {
                head: 100,
                ring: 100,
                ..Recipe::WITH_CONVOYS
            },
        ),
    ];
    let mut out = String::new();
    for map in [&standard, &garrisons, &modern] {
        for (name, recipe) in recipes {
            for seed in 0..6u64 {
                let (units, orders) = random_position(map, seed, recipe);
                let _ = writeln!(out, "{} {name} seed {seed}", map.name);
                write_position(&mut out, map, &units, &orders);
            }
        }
        for mix in [Mix::Paradox, Mix::Circular, Mix::Head, Mix::All] {
            for i in 0..4u64 {
                let s = position(map, 7, i, mix);
                let orders: Vec<_> = s
                    .orders
                    .iter()
                    .map(|e| (e.power, e.order.clone()))
                    .collect();
                let _ = writeln!(out, "{} mix {} seed 7 position {i}", map.name, mix.name());
                write_position(&mut out, map, &s.units, &orders);
            }
        }
    }
    out
}

/// The same seeds give exactly the recorded positions.
#[test]
fn seeded_positions_are_the_recorded_ones() {
    let made = positions_text();
    assert!(made.lines().count() > 1000, "positions are made");
    if made != RECORDED {
        let (line, (got, want)) = made
            .lines()
            .zip(RECORDED.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(k, pair)| (k + 1, pair))
            .unwrap_or((0, ("(one text is longer)", "")));
        panic!(
            "the positions differ from the recorded ones at line {line}:\n  made:     {got}\n  recorded: {want}"
        );
    }
}
