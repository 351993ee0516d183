//! The map loader on arbitrary text: no panic; a map that loads has symmetric borders, and its
//! opening position (every unit holding) adjudicates through a year with every invariant checked.

#![no_main]

use std::sync::Arc;

use dipsandbox::map::Map;
use dipsandbox::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(map) = Map::from_ron(&text, "fuzz.ron") else {
        return;
    };
    for p in map.province_ids() {
        for &q in map.army_neighbours(p) {
            assert!(
                map.army_neighbours(q).contains(&p),
                "army border not symmetric"
            );
        }
        for l in map.locations_of(p) {
            for &m in map.fleet_neighbours(l) {
                assert!(
                    map.fleet_neighbours(m).contains(&l),
                    "fleet border not symmetric"
                );
            }
        }
    }
    let _ = map.summary();
    let mut s = Scenario::opening(Arc::new(map), "fuzz");
    // The opening may put two units in one province (a map file can say so): nothing to play.
    let mut seen = std::collections::HashSet::new();
    if !s
        .units
        .iter()
        .all(|u| seen.insert(s.map.province_of(u.loc)))
    {
        return;
    }
    let rules = s.rules;
    for k in 0..4u64 {
        let v = dipsandbox::invariants::check_scenario(&s, &rules, k);
        dipsandbox_fuzz::assert_clean(&format!("{}", s.phase), &v);
        match dipsandbox::turn::advance(&s, &rules) {
            Ok(a) => s = a.next,
            Err(_) => break,
        }
    }
});
