//! `fleet_on_some_route` (exact on every board, its cost bound by the fleets' component
//! rather than a switch to a looser test above 20 occupied seas) against the exhaustive search of
//! chordless routes it replaced, kept here verbatim: on random sea graphs of up to 12 seas and on
//! the standard map with random fleets, for every fleet, both answer the same.

use dipsandbox_core::engine::legality::{fleet_on_some_route, fleet_on_some_route_to_each};
use dipsandbox_core::model::map::{Map, ProvinceId, ProvinceKind, ProvinceSpec};
use proptest::prelude::*;

fn convoy_adjacent(map: &Map, a: ProvinceId, b: ProvinceId) -> bool {
    map.provinces_adjacent(a, b)
}

/// The search before the speed work, without its switch for boards of more than 20 occupied seas
/// (every board here has fewer): a depth-first search over chordless paths.
fn old_fleet_on_some_route(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    f: ProvinceId,
    is_fleet: &dyn Fn(ProvinceId) -> bool,
) -> bool {
    let seas: Vec<ProvinceId> = map
        .province_ids()
        .filter(|p| map.province(*p).kind == ProvinceKind::Sea && is_fleet(*p))
        .collect();
    assert!(seas.len() <= 20);
    let adj = |a: ProvinceId, b: ProvinceId| convoy_adjacent(map, a, b);
    for &s in &seas {
        if !adj(from, s) {
            continue;
        }
        let mut path: Vec<ProvinceId> = vec![s];
        let mut next: Vec<usize> = vec![0];
        while let Some(&top) = path.last() {
            let k = path.len() - 1;
            if next[k] == 0 && adj(top, to) {
                if path.contains(&f) {
                    return true;
                }
                path.pop();
                next.pop();
                continue;
            }
            let i = next[k];
            if i >= seas.len() {
                path.pop();
                next.pop();
                continue;
            }
            next[k] += 1;
            let cand = seas[i];
            if path.contains(&cand) || !adj(top, cand) {
                continue;
            }
            if adj(from, cand) || path[..k].iter().any(|p| adj(*p, cand)) {
                continue;
            }
            path.push(cand);
            next.push(0);
        }
    }
    false
}

/// A board of `k` seas `s0..` and two coasts `a`, `b`, with the given borders (pairs of
/// indices: seas are 0..k, `a` is k, `b` is k + 1).
fn board(k: usize, edges: &[(usize, usize)]) -> Map {
    let name = |i: usize| match i {
        i if i < k => format!("s{i}"),
        i if i == k => "a".to_string(),
        _ => "b".to_string(),
    };
    let mut fleet: Vec<Vec<String>> = vec![Vec::new(); k + 2];
    let mut army: Vec<Vec<String>> = vec![Vec::new(); k + 2];
    for &(x, y) in edges {
        if x == y || fleet[x].contains(&name(y)) {
            continue;
        }
        fleet[x].push(name(y));
        fleet[y].push(name(x));
        if x >= k && y >= k {
            army[x].push(name(y));
            army[y].push(name(x));
        }
    }
    let provinces = (0..k + 2)
        .map(|i| ProvinceSpec {
            abbr: name(i),
            name: format!("Province {}", name(i)),
            kind: if i < k {
                ProvinceKind::Sea
            } else {
                ProvinceKind::Coast
            },
            supply_center: false,
            army: army[i].clone(),
            fleet: fleet[i].clone(),
        })
        .collect();
    Map::from_lists("routes", "Routes", &[("P", "Pish")], provinces).expect("valid board")
}

fn random_board() -> impl Strategy<Value = (usize, Vec<(usize, usize)>, Vec<bool>)> {
    (2..=12usize).prop_flat_map(|k| {
        let pairs = proptest::collection::vec((0..k + 2, 0..k + 2), 0..(3 * k + 4));
        let fleets = proptest::collection::vec(prop::bool::weighted(0.8), k);
        (Just(k), pairs, fleets)
    })
}

/// The new search against the old one on a random board of `k` seas: every fleet, both ways,
/// and the batch form against the single one.
fn sea_graph_agrees(
    k: usize,
    edges: &[(usize, usize)],
    fleets: &[bool],
) -> Result<(), TestCaseError> {
    let map = board(k, edges);
    let id = |s: &str| map.find_province(s).unwrap();
    let is_fleet = |p: ProvinceId| (p.0 as usize) < k && fleets[p.0 as usize];
    for (from, to) in [("a", "b"), ("b", "a")] {
        for f in 0..k {
            let f = ProvinceId(f as u32);
            let new = fleet_on_some_route(&map, id(from), id(to), f, &is_fleet);
            let old = old_fleet_on_some_route(&map, id(from), id(to), f, &is_fleet);
            prop_assert_eq!(
                new,
                old,
                "{} -> {} through s{}; edges {:?}; fleets {:?}",
                from,
                to,
                f.0,
                edges,
                fleets
            );
        }
    }
    // The batch form (one army, every destination, one fleet) finds exactly the
    // destinations the single form does, in the order given.
    let tos: Vec<ProvinceId> = (0..map.province_count() as u32).map(ProvinceId).collect();
    for from in [id("a"), id("b")] {
        for f in 0..k {
            let f = ProvinceId(f as u32);
            let mut batch = Vec::new();
            fleet_on_some_route_to_each(&map, from, &tos, f, &is_fleet, &mut |t| batch.push(t));
            let single: Vec<ProvinceId> = tos
                .iter()
                .copied()
                .filter(|&t| fleet_on_some_route(&map, from, t, f, &is_fleet))
                .collect();
            prop_assert_eq!(
                batch,
                single,
                "from {} through s{}; edges {:?}",
                from.0,
                f.0,
                edges
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// 500 random boards; `random_sea_graphs_agree` (slow tier) runs 2,000.
    #[test]
    fn random_sea_graphs_agree_on_a_sample((k, edges, fleets) in random_board()) {
        sea_graph_agrees(k, &edges, &fleets)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Slow tier: 2,000 random boards (`random_sea_graphs_agree_on_a_sample` runs 500).
    #[test]
    #[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
    fn random_sea_graphs_agree((k, edges, fleets) in random_board()) {
        sea_graph_agrees(k, &edges, &fleets)?;
    }

    #[test]
    fn the_standard_map_agrees(mask in any::<u32>(), a in any::<u8>(), b in any::<u8>()) {
        // Loaded once for every case.
        let map = crate::common::positions::standard();
        let seas: Vec<ProvinceId> = map
            .province_ids()
            .filter(|p| map.province(*p).kind == ProvinceKind::Sea)
            .collect();
        let coasts: Vec<ProvinceId> = map
            .province_ids()
            .filter(|p| map.province(*p).kind == ProvinceKind::Coast)
            .collect();
        let fleet: Vec<bool> = map
            .province_ids()
            .map(|p| seas.iter().position(|s| *s == p).is_some_and(|i| mask & (1 << i) != 0))
            .collect();
        let is_fleet = |p: ProvinceId| fleet[p.0 as usize];
        let from = coasts[a as usize % coasts.len()];
        let to = coasts[b as usize % coasts.len()];
        prop_assume!(from != to);
        for &f in &seas {
            let new = fleet_on_some_route(map, from, to, f, &is_fleet);
            let old = old_fleet_on_some_route(map, from, to, f, &is_fleet);
            prop_assert_eq!(new, old, "{} -> {} through {}", map.province(from).abbr, map.province(to).abbr, map.province(f).abbr);
        }
    }
}

/// DATC 6.G.19: the fleet in the Western Mediterranean is on no chordless route from Marseilles
/// to Spain (the Gulf of Lyon borders Spain), the Gulf of Lyon is.
#[test]
fn datc_6_g_19() {
    let map = Map::standard();
    let p = |s: &str| map.find_province(s).unwrap();
    let fleets = [p("wes"), p("gol")];
    let is_fleet = |x: ProvinceId| fleets.contains(&x);
    assert!(!fleet_on_some_route(
        &map,
        p("mar"),
        p("spa"),
        p("wes"),
        &is_fleet
    ));
    assert!(fleet_on_some_route(
        &map,
        p("mar"),
        p("spa"),
        p("gol"),
        &is_fleet
    ));
}

/// A long chain of fleets on a synthetic sea lane (beyond the old 20-sea switch): a fleet on the
/// lane is needed, a fleet on a side branch is not, whatever the lane's length.
#[test]
fn long_lanes_are_judged_exactly() {
    for k in [5usize, 25, 200] {
        // Lane s0 - s1 - ... - s(k-1), `a` at s0, `b` at s(k-1); a spur x attached to s1 and s2
        // (a shortcut only if it skipped something: it does not, s1 and s2 border each other).
        let mut edges: Vec<(usize, usize)> = (0..k - 1).map(|i| (i, i + 1)).collect();
        edges.push((k, 0));
        edges.push((k + 1, k - 1));
        let map = board(k, &edges);
        let id = |s: &str| map.find_province(s).unwrap();
        let is_fleet = |p: ProvinceId| (p.0 as usize) < k;
        for f in [0, k / 2, k - 1] {
            assert!(fleet_on_some_route(
                &map,
                id("a"),
                id("b"),
                ProvinceId(f as u32),
                &is_fleet
            ));
        }
        // A shortcut from s0 straight to b makes every other fleet unnecessary.
        edges.push((0, k + 1));
        let map = board(k, &edges);
        let id = |s: &str| map.find_province(s).unwrap();
        assert!(fleet_on_some_route(
            &map,
            id("a"),
            id("b"),
            ProvinceId(0),
            &is_fleet
        ));
        assert!(!fleet_on_some_route(
            &map,
            id("a"),
            id("b"),
            ProvinceId((k / 2) as u32),
            &is_fleet
        ));
    }
}
