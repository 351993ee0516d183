//! The board art of the standard map, and located errors for bad art.

use std::collections::BTreeSet;

use dipsandbox_core::model::map::{Map, ProvinceId};

fn standard() -> Map {
    Map::standard()
}

#[test]
fn every_province_has_an_anchor_and_a_region() {
    let map = standard();
    let art = map.art().expect("the standard map has art");
    assert!(art.lines().iter().all(|l| l.is_ascii()));
    // It fits the board panel at 120×40 with the side panel open: 73 columns, 31 rows.
    assert!(
        art.width() <= 73 && art.height() <= 31,
        "{}×{}",
        art.width(),
        art.height()
    );
    let mut total = 0;
    for p in map.province_ids() {
        let (x, y) = art.anchor(p);
        // The whole slot (unit, abbreviation, centre mark) lies in the province's own region.
        for cx in x - 1..=x + 3 {
            assert_eq!(art.province_at(cx, y), Some(p), "{}", map.province(p).abbr);
        }
        let n = art.cells(p).count();
        assert!(n >= 5);
        total += n;
    }
    // No cell is counted twice: regions do not overlap.
    let distinct: BTreeSet<(u16, u16)> = map.province_ids().flat_map(|p| art.cells(p)).collect();
    assert_eq!(distinct.len(), total);
}

/// Pairs of provinces whose regions meet across one border character.
fn drawn_borders(map: &Map) -> BTreeSet<(ProvinceId, ProvinceId)> {
    let art = map.art().expect("art");
    let mut out = BTreeSet::new();
    for y in 0..art.height() {
        for x in 0..art.width() {
            if art.province_at(x, y).is_some() {
                continue;
            }
            let pairs = [
                (x.checked_sub(1).map(|a| (a, y)), Some((x + 1, y))),
                (y.checked_sub(1).map(|b| (x, b)), Some((x, y + 1))),
            ];
            for (a, b) in pairs {
                if let (Some(a), Some(b)) = (a, b)
                    && let (Some(p), Some(q)) =
                        (art.province_at(a.0, a.1), art.province_at(b.0, b.1))
                    && p != q
                {
                    out.insert((p.min(q), p.max(q)));
                }
            }
        }
    }
    out
}

#[test]
fn the_art_draws_the_real_borders() {
    let map = standard();
    let drawn = drawn_borders(&map);
    let mut real = BTreeSet::new();
    for p in map.province_ids() {
        for q in map.province_ids() {
            if p < q && map.provinces_adjacent(p, q) {
                real.insert((p, q));
            }
        }
    }
    let name = |(p, q): &(ProvinceId, ProvinceId)| {
        format!("{}-{}", map.province(*p).abbr, map.province(*q).abbr)
    };
    let missing: Vec<String> = real.difference(&drawn).map(name).collect();
    let extra: Vec<String> = drawn.difference(&real).map(name).collect();
    // A schematic map on a grid cannot draw every border; these are the known exceptions
    // (Burgundy and Munich, the Gulf of Lyon and Piedmont meet only at a corner; Piedmont and
    // the Ruhr touch without being neighbours). Anything else is a regression.
    assert_eq!(missing, ["bur-mun", "lyo-pie"], "borders not drawn");
    assert_eq!(extra, ["pie-ruh"], "borders drawn that are not real");
    assert!(real.len() > 200);
}

#[test]
fn arrow_keys_go_to_the_neighbour_a_user_expects() {
    let map = standard();
    let art = map.art().expect("art");
    let p = |a: &str| map.find_province(a).expect("province");
    let go = |from: &str, dx: i8, dy: i8| {
        art.nearest_in_direction(p(from), dx, dy)
            .map(|q| map.province(q).abbr.clone())
    };
    assert_eq!(go("par", 1, 0).as_deref(), Some("bur"));
    assert_eq!(go("lon", -1, 0).as_deref(), Some("wal"));
    assert_eq!(go("lon", 0, -1).as_deref(), Some("yor"));
    assert_eq!(go("mun", 1, 0).as_deref(), Some("boh"));
    assert_eq!(go("rom", 0, 1).as_deref(), Some("nap"));
    assert_eq!(go("par", 0, 0), None);
    // Nothing beyond the edge.
    assert_eq!(go("nao", -1, 0), None);
}

fn test7_with_art(art: &str, anchors: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string("maps/test7.ron").expect("test7");
    for (abbr, anchor) in anchors {
        let key = format!("abbr: \"{abbr}\",");
        text = text.replacen(&key, &format!("{key}\n            anchor: {anchor},"), 1);
    }
    let end = text.rfind(')').expect("map closes");
    text.replace_range(end..end, &format!("    art: {art},\n"));
    text
}

const ART: &str = r#"[
        "+-----+-----+-----+",
        "|     |     |     |",
        "+-----+-----+-----+",
        "|     |     |     |",
        "+-----+-----+-----+",
        "|     |     |     |",
        "+-----+-----+-----+",
    ]"#;

const ANCHORS: [(&str, &str); 7] = [
    ("ald", "(2, 1)"),
    ("bor", "(8, 1)"),
    ("cal", "(14, 1)"),
    ("dun", "(2, 3)"),
    ("fen", "(8, 3)"),
    ("gry", "(14, 3)"),
    ("hav", "(2, 5)"),
];

/// The anchors with Haven's moved to `at`.
fn hav_at(at: &str) -> Vec<(&str, &str)> {
    let mut v = ANCHORS[..6].to_vec();
    v.push(("hav", at));
    v
}

#[test]
fn a_small_map_with_art_loads() {
    let map = Map::from_ron(&test7_with_art(ART, &ANCHORS), "t.ron").expect("loads");
    let art = map.art().expect("art");
    assert_eq!((art.width(), art.height()), (19, 7));
    // The test map itself has no art: the TUI generates it.
    assert!(Map::load("test7").expect("loads").art().is_none());
}

#[test]
fn bad_art_is_located() {
    let cases: Vec<(String, &str)> = vec![
        (
            test7_with_art(ART, &ANCHORS[..6]),
            "province \"hav\" has no anchor",
        ),
        (
            test7_with_art(ART, &hav_at("(6, 5)")),
            "the slot of \"hav\" at (6, 5) is not blank",
        ),
        (
            test7_with_art(ART, &hav_at("(2, 1)")),
            "lies in the region of \"ald\"",
        ),
        (
            test7_with_art(
                &ART.replacen("|     |     |     |", "|           |     |", 1),
                &ANCHORS,
            ),
            "the anchor of \"bor\" lies in the region of \"ald\": their regions meet",
        ),
        (
            test7_with_art(ART, &hav_at("(40, 5)")),
            "outside the 19×7 art",
        ),
        (
            test7_with_art(&ART.replacen("|     |", "|  é  |", 1), &ANCHORS),
            "non-ASCII",
        ),
    ];
    for (text, want) in cases {
        let e = Map::from_ron(&text, "bad.ron").expect_err(want).to_string();
        assert!(e.contains(want), "{e}");
        assert!(e.starts_with("bad.ron:"), "{e}");
    }
}
