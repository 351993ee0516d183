//! The unit tests of the core's `tools::art_gen`.

use dipsandbox_core::model::map::Map;
use dipsandbox_core::tools::art_gen::*;

fn shipped(name: &str) -> Map {
    Map::load(&format!("{}/maps/{name}.ron", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn every_shipped_map_gets_art_that_passes_the_hand_art_checks() {
    for name in ["standard", "pure", "ancmed", "modern", "world", "test7"] {
        let map = shipped(name);
        let t = std::time::Instant::now();
        let (g, art) = generate_map(&map).unwrap();
        let took = t.elapsed();
        assert_eq!(g.anchors.len(), map.province_count(), "{name}");
        for p in map.province_ids() {
            let (x, y) = art.anchor(p);
            for c in x - 1..=x + 3 {
                assert_eq!(art.province_at(c, y), Some(p), "{name}: slot of {p:?}");
            }
        }
        let (hit, all) = borders_touching(&map, &art);
        if std::env::var_os("ART_SHOW").is_some() {
            eprintln!("{name}: {hit}/{all} borders touch ({took:?})");
            for l in &g.lines {
                eprintln!("{l}");
            }
        }
        if map.province_count() <= COMFORT {
            assert_eq!((art.width() as usize, art.height() as usize), BASE_SIZE);
        }
    }
}

#[test]
fn generation_is_deterministic() {
    let map = shipped("ancmed");
    assert_eq!(generate_map(&map).unwrap().0, generate_map(&map).unwrap().0);
}

#[test]
fn a_map_with_no_provinces_or_one_gets_a_frame() {
    let g = generate(&ArtInput::default()).unwrap();
    assert!(g.anchors.is_empty());
    let one = ArtInput {
        names: vec!["one"],
        sea: vec![false],
        ..ArtInput::default()
    };
    let g = generate(&one).unwrap();
    g.art(&one.names).unwrap();
}

#[test]
fn positions_place_labels_in_the_same_order() {
    // Three provinces left to right, given by position.
    let input = ArtInput {
        names: vec!["aaa", "bbb", "ccc"],
        sea: vec![false, true, false],
        edges: vec![(0, 1), (1, 2)],
        positions: vec![Some((0.0, 5.0)), Some((50.0, 5.0)), Some((100.0, 5.0))],
    };
    let g = generate(&input).unwrap();
    assert!(g.anchors[0].0 < g.anchors[1].0 && g.anchors[1].0 < g.anchors[2].0);
}
