//! The unit tests of the core's `tools::versus::positions`.

use dipsandbox_core::model::map::Map;
use dipsandbox_core::tools::menu::{movement_menus, movement_orders};
use dipsandbox_core::tools::versus::positions::*;

/// The shared menus are exactly the per-unit ones, on positions with and without convoys.
#[test]
fn shared_menus_are_the_per_unit_menus() {
    let map = Map::standard();
    for seed in 0..300 {
        let recipe = if seed % 2 == 0 {
            Recipe::WITH_CONVOYS
        } else {
            Recipe::WITHOUT_CONVOYS
        };
        let (units, _) = random_position(&map, seed, recipe);
        let shared = movement_menus(&map, &units);
        for (u, m) in shared.iter().enumerate() {
            assert_eq!(
                *m,
                movement_orders(&map, &units, u),
                "seed {seed}, unit {u}"
            );
        }
    }
}

/// A seed gives one position.
#[test]
fn a_seed_reproduces() {
    let map = Map::standard();
    for seed in [0, 1, 99] {
        assert_eq!(
            random_position(&map, seed, Recipe::WITH_CONVOYS),
            random_position(&map, seed, Recipe::WITH_CONVOYS)
        );
    }
}
