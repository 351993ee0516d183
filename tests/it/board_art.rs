//! Board art generated for maps without their own: every shipped map and the
//! Python package's maps imported on the fly get art that passes the hand-art checks, every
//! abbreviation shows on the board at 120×40 (or, above 80 provinces, by panning), random graphs
//! never fail, `map art` writes it into a map file and `map import --svg` reads positions.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};

use crate::common::{self, dipsandbox, folders, run, temp_dir, text};
use dipsandbox::tui::app::App;
use dipsandbox::tui::keymap::Keymap;
use dipsandbox::tui::session::Session;
use dipsandbox::tui::theme::Theme;
use dipsandbox_core::model::art::MapArt;
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::art_gen::{self, ArtInput, BASE_SIZE, COMFORT};

/// Every shipped map file.
fn shipped() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("maps")
        .expect("maps/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

/// The maps of the Python package kept in tests/data/maps/, imported on the fly.
fn imported() -> Vec<Map> {
    let mut v = Vec::new();
    for name in ["standard", "pure", "ancmed", "modern", "known_world_901"] {
        let f = PathBuf::from(format!("tests/data/maps/{name}.map"));
        if f.exists() {
            let m = dipsandbox_core::io::dpjudge_map::import(&f, name).expect("imports");
            v.push(m.map);
        }
    }
    v
}

/// Checks generated art as a user of the board would: it loads as art, and each province's
/// five-cell slot lies in its own region.
fn check_art(map: &Map) -> MapArt {
    let (g, art) = art_gen::generate_map(map)
        .unwrap_or_else(|e| panic!("{}: no art: {}", map.name, e.message));
    assert_eq!(g.anchors.len(), map.province_count(), "{}", map.name);
    for p in map.province_ids() {
        let (x, y) = art.anchor(p);
        for c in x - 1..=x + 3 {
            assert_eq!(
                art.province_at(c, y),
                Some(p),
                "{}: slot of {} at ({x}, {y})",
                map.name,
                map.province(p).abbr
            );
        }
    }
    if map.province_count() <= COMFORT {
        assert_eq!(
            (art.width() as usize, art.height() as usize),
            BASE_SIZE,
            "{}",
            map.name
        );
    }
    art
}

/// Every shipped map (by its file's stem) with its generated art, checked by [`check_art`]:
/// made once for the tests of this file that ask (generating art is most of their time).
fn shipped_art() -> &'static [(String, Map, MapArt)] {
    static ART: OnceLock<Vec<(String, Map, MapArt)>> = OnceLock::new();
    ART.get_or_init(|| {
        shipped()
            .iter()
            .map(|f| {
                let stem = f.file_stem().expect("stem").to_string_lossy().into_owned();
                let map = Map::load(&f.display().to_string()).expect("loads");
                let art = check_art(&map);
                (stem, map, art)
            })
            .collect()
    })
}

#[test]
fn every_shipped_and_imported_map_gets_art_that_passes_the_hand_art_checks() {
    assert_eq!(shipped_art().len(), shipped().len());
    for m in imported() {
        check_art(&m);
    }
}

#[test]
fn neighbours_on_the_map_touch_on_the_board() {
    // The share of each map's borders whose two provinces touch on its generated art (measured
    // when written: standard 158/206, pure 12/21 — every province borders every other, which a
    // plane cannot show —, ancmed 168/222, modern 302/402, world 276/568 — laid out from its
    // graph alone —, test7 12/12).
    let floors = [
        ("standard", 0.65),
        ("pure", 0.5),
        ("ancmed", 0.7),
        ("modern", 0.7),
        ("world", 0.45),
        ("test7", 1.0),
    ];
    for (name, floor) in floors {
        // The map `Map::load(name)` reads: maps/NAME.ron (the standard map is compiled from it).
        let (_, map, art) = shipped_art()
            .iter()
            .find(|(stem, _, _)| stem == name)
            .unwrap_or_else(|| panic!("maps/{name}.ron"));
        let (hit, all) = art_gen::borders_touching(map, art);
        let share = hit as f64 / all as f64;
        assert!(share >= floor, "{name}: {hit}/{all} borders touch");
    }
}

/// An app on the opening of the map in `file`: its scenario in scenarios/variants/ if there is
/// one, else the opening made from the map.
fn opening_app(file: &Path, test: &str) -> App {
    let name = file
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    let scenario = format!("scenarios/variants/{name}-opening.ron");
    if Path::new(&scenario).exists() {
        return common::app(Some(&scenario), test);
    }
    let map = Arc::new(Map::load(&file.display().to_string()).expect("loads"));
    let s = Scenario::opening(map, &name);
    let session = Session::new(s, None, None).expect("session");
    App::new(session, Keymap::default(), Theme::new(true), folders(test))
}

/// The text of the board's map area in a frame.
fn board_text(a: &App, buf: &Buffer) -> Vec<String> {
    let r: Rect = a.panes().board.expect("board").inner(Margin::new(1, 1));
    (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// Whether `abbr` is drawn as a label: after a blank or a unit letter, before a blank or the
/// centre mark.
fn labelled(lines: &[String], abbr: &str) -> bool {
    lines.iter().any(|l| {
        l.match_indices(abbr).any(|(i, _)| {
            let before = l[..i].chars().next_back();
            let after = l[i + abbr.len()..].chars().next();
            matches!(before, Some(' ' | 'A' | 'F' | '|' | ':'))
                && matches!(after, None | Some(' ' | '*' | '|' | ':'))
        })
    })
}

#[test]
fn every_abbreviation_shows_at_120x40_or_by_panning_above_80_provinces() {
    for f in shipped() {
        let map = Map::load(&f.display().to_string()).expect("loads");
        if map.art().is_some() {
            continue;
        }
        let mut seen: Vec<String> = Vec::new();
        if map.province_count() <= COMFORT {
            let mut a = opening_app(&f, "art-abbrs");
            let buf = run(&mut a, 120, 40, "");
            seen = board_text(&a, &buf);
        } else {
            // From the top left, a quarter of the art a key press: along each band to the
            // right, back to the left edge, then a band down (one session: the art is made once).
            let mut a = opening_app(&f, "art-pan");
            for down in 0..=4 {
                for right in 0..=4 {
                    let buf = run(&mut a, 120, 40, if right == 0 { "" } else { "L" });
                    seen.extend(board_text(&a, &buf));
                }
                if down < 4 {
                    run(&mut a, 120, 40, "H H H H J");
                }
            }
        }
        for p in map.province_ids() {
            let abbr = &map.province(p).abbr;
            assert!(
                labelled(&seen, abbr),
                "{}: {abbr} not on the board",
                map.name
            );
        }
    }
}

#[test]
fn a_tiny_terminal_does_not_panic_on_generated_art() {
    for name in ["pure", "world"] {
        let f = PathBuf::from(format!("maps/{name}.ron"));
        let mut a = opening_app(&f, "art-tiny");
        for (w, h) in [(1, 1), (20, 5), (20, 6), (30, 8)] {
            run(&mut a, w, h, "H J K L l j");
        }
    }
}

#[test]
fn the_pure_board_at_120x40() {
    let mut a = opening_app(Path::new("maps/pure.ron"), "art-snap");
    insta::assert_snapshot!("board_art_pure_120x40", text(&run(&mut a, 120, 40, "")));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random connected graphs of 2 to 80 provinces, with and without positions: generation
    /// never fails and its art passes the checks of hand-made art.
    #[test]
    fn generation_never_fails_on_a_connected_graph(
        n in 2usize..=80,
        parents in proptest::collection::vec(0usize..10_000, 79),
        extra in proptest::collection::vec((0usize..80, 0usize..80), 0..160),
        seas in proptest::collection::vec(any::<bool>(), 80),
        placed in 0u8..3,
        pos in proptest::collection::vec((-5000i32..5000, -5000i32..5000), 80),
    ) {
        let names: Vec<String> = (0..n).map(|i| format!("p{i:02}")).collect();
        let mut edges: Vec<(usize, usize)> = (1..n).map(|i| (parents[i - 1] % i, i)).collect();
        edges.extend(extra.iter().map(|&(a, b)| (a % n, b % n)));
        let input = ArtInput {
            names: names.iter().map(String::as_str).collect(),
            sea: seas[..n].to_vec(),
            edges,
            // None, all, or every province but each third.
            positions: (0..n)
                .map(|i| match placed {
                    0 => None,
                    1 => Some((f64::from(pos[i].0), f64::from(pos[i].1))),
                    _ => (i % 3 != 0).then(|| (f64::from(pos[i].0), f64::from(pos[i].1))),
                })
                .collect(),
        };
        let g = art_gen::generate(&input).expect("generates");
        let art = g.art(&input.names).expect("passes the art checks");
        prop_assert_eq!((art.width() as usize, art.height() as usize), BASE_SIZE);
        for (i, &(x, y)) in g.anchors.iter().enumerate() {
            for c in x - 1..=x + 3 {
                prop_assert_eq!(
                    art.province_at(c, y).map(|p| p.0 as usize),
                    Some(i)
                );
            }
        }
    }
}

#[test]
fn map_art_writes_the_generated_art_into_the_map_file() {
    let dir = temp_dir("map-art");
    let input = dir.join("ancmed.ron");
    let out = dir.join("ancmed-art.ron");
    std::fs::copy("maps/ancmed.ron", &input).expect("copy");
    let (code, stdout, stderr) = dipsandbox(&[
        "map",
        "art",
        &input.display().to_string(),
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("generated art of 73×31"), "{stdout}");
    let written = Map::load(&out.display().to_string()).expect("written map loads");
    let original = Map::load(&input.display().to_string()).expect("loads");
    let (_, generated) = art_gen::generate_map(&original).expect("art");
    assert_eq!(written.art(), Some(&generated));
    // The rest of the file is kept: same provinces, borders and positions.
    assert_eq!(written.province_count(), original.province_count());
    for p in original.province_ids() {
        assert_eq!(written.position(p), original.position(p));
        assert_eq!(written.army_neighbours(p), original.army_neighbours(p));
    }
    // Now it has art: not overwritten without --force, with a located message.
    let o = out.display().to_string();
    let (code, _, stderr) = dipsandbox(&["map", "art", &o]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains(&format!("{o}:")) && stderr.contains("--force"),
        "{stderr}"
    );
    let (code, _, stderr) = dipsandbox(&["map", "art", &o, "--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        Map::load(&o).expect("loads").art(),
        Some(&generated),
        "the same art again, the old art replaced"
    );
    // A file that is not a map: located.
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Map(\n    name: 7,\n)\n").expect("write");
    let (code, _, stderr) = dipsandbox(&["map", "art", &bad.display().to_string()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("bad.ron:2:"), "{stderr}");
}

#[test]
fn map_import_reads_positions_from_an_svg_map() {
    let dir = temp_dir("map-import-svg");
    let out = dir.join("pure.ron");
    let (code, _, stderr) = dipsandbox(&[
        "map",
        "import",
        "tests/data/maps/pure.map",
        "--svg",
        "tests/data/maps/pure-positions.svg",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let map = Map::load(&out.display().to_string()).expect("loads");
    let shipped = Map::load("pure").expect("loads");
    let vie = map.find_province("vie").expect("vie");
    // vie's unit is drawn at (750.5, 195.0) in the SVG: rounded to whole units.
    assert_eq!(map.position(vie), Some((751, 195)));
    for p in map.province_ids() {
        let q = shipped
            .find_province(&map.province(p).abbr)
            .expect("same provinces");
        assert_eq!(
            map.position(p),
            shipped.position(q),
            "the shipped positions"
        );
    }
    // An SVG whose position is not a number: located in the SVG.
    let bad = dir.join("bad.svg");
    std::fs::write(
        &bad,
        "<svg>\n<jdipNS:PROVINCE name=\"vie\">\n  <jdipNS:UNIT x=\"7a\" y=\"1\"/>\n",
    )
    .expect("write");
    let (code, _, stderr) = dipsandbox(&[
        "map",
        "import",
        "tests/data/maps/pure.map",
        "--svg",
        &bad.display().to_string(),
        "-o",
        &dir.join("x.ron").display().to_string(),
    ]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("bad.svg:3:3") && stderr.contains("\"7a\""),
        "{stderr}"
    );
}
