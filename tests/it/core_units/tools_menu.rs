//! The unit tests of the core's `tools::menu`.

use dipsandbox_core::engine::legality::{convoy_chain_exists, fleet_on_some_route};
use dipsandbox_core::model::map::{Map, ProvinceId, ProvinceKind, UnitKind};
use dipsandbox_core::tools::menu::hooks::{convoy_reach, fleets_at_sea};
use dipsandbox_core::tools::versus::positions::{Recipe, random_position};

/// One search per army gives what a chain search per province gives, and every fleet on a
/// convoy route of the army is among the seas it reached.
#[test]
fn convoy_reach_is_the_chain_search() {
    let map = Map::standard();
    for seed in 0..400 {
        let (units, _) = random_position(&map, seed, Recipe::WITH_CONVOYS);
        let fleet_at = fleets_at_sea(&map, &units);
        let is_fleet = |p: ProvinceId| fleet_at[p.0 as usize];
        for x in &units {
            let here = map.province_of(x.loc);
            let (dests, seas) = convoy_reach(&map, x, &fleet_at);
            let army_on_coast =
                x.kind == UnitKind::Army && map.province(here).kind == ProvinceKind::Coast;
            let want: Vec<ProvinceId> = map
                .province_ids()
                .filter(|&to| {
                    army_on_coast
                        && to != here
                        && map.province(to).kind == ProvinceKind::Coast
                        && convoy_chain_exists(&map, here, to, &is_fleet)
                })
                .collect();
            assert_eq!(dests, want, "seed {seed}, {x:?}");
            for &d in &dests {
                for f in map.province_ids().filter(|&f| is_fleet(f)) {
                    if fleet_on_some_route(&map, here, d, f, &is_fleet) {
                        assert!(seas.contains(&f), "seed {seed}: {f:?} not reached");
                    }
                }
            }
        }
    }
}
