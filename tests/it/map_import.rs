//! Importing other adjudicators' map files (issue 27): the DPjudge-style `.map` format of the
//! DPjudge and the Python `diplomacy` package. The round trip: the package's own `standard.map`
//! imports to exactly our `maps/standard.ron` (names, kinds, coasts, borders, centres, homes,
//! starting units).

use std::collections::BTreeSet;
use std::path::Path;

use dipsandbox_core::io::dpjudge_map;
use dipsandbox_core::model::map::Map;

/// A map's facts, by abbreviation, in a form two maps compare in (ids may differ).
pub(crate) fn facts(map: &Map) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in map.province_ids() {
        let pr = map.province(p);
        out.insert(format!(
            "province {} name {:?} kind {:?} centre {} home {:?}",
            pr.abbr,
            pr.name,
            pr.kind,
            pr.supply_center,
            pr.home_of.map(|w| map.power(w).name.clone())
        ));
        for &q in map.army_neighbours(p) {
            out.insert(format!("army {} - {}", pr.abbr, map.province(q).abbr));
        }
        for l in map.locations_of(p) {
            for &m in map.fleet_neighbours(l) {
                out.insert(format!("fleet {} - {}", map.loc_abbr(l), map.loc_abbr(m)));
            }
        }
    }
    for w in map.power_ids() {
        let pw = map.power(w);
        out.insert(format!("power {} ({})", pw.name, pw.adjective));
        for &(kind, l) in &pw.start {
            out.insert(format!("start {} {:?} {}", pw.name, kind, map.loc_abbr(l)));
        }
    }
    out
}

#[test]
fn the_python_packages_standard_map_imports_to_ours() {
    let got = dpjudge_map::import(Path::new("tests/data/maps/standard.map"), "standard")
        .expect("imports");
    let ours = Map::standard();
    let (a, b) = (facts(&got.map), facts(&ours));
    let missing: Vec<&String> = b.difference(&a).collect();
    let extra: Vec<&String> = a.difference(&b).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:#?}\nextra {extra:#?}\nnotes {:#?}",
        got.notes
    );
    assert_eq!(got.map.province_count(), 75);
    // Not a comparison of nothing: 75 provinces, 7 powers, 22 units, every border both ways.
    assert!(b.len() > 600, "{} facts", b.len());
}

/// The package's other maps import and load: the counts the files give, and what was read but
/// not supported is said, never dropped silently.
#[test]
fn the_python_packages_variant_maps_import_and_load() {
    for (file, provinces, powers, centres, year) in [
        ("pure.map", 7, 7, 7, 1901),
        ("ancmed.map", 79, 5, 34, 1),
        ("modern.map", 141, 10, 64, 1994),
        ("known_world_901.map", 269, 16, 109, 901),
    ] {
        let path = Path::new("tests/data/maps").join(file);
        let got = dpjudge_map::import(&path, "v").unwrap_or_else(|e| panic!("{file}: {e}"));
        let s = got.map.summary();
        assert_eq!(
            (s.provinces, got.map.powers.len(), s.supply_centers),
            (provinces, powers, centres),
            "{file}"
        );
        // The written file is the same map.
        let again = Map::from_ron(&got.ron, "again.ron").expect("the written map loads");
        assert_eq!(facts(&again), facts(&got.map), "{file}");
        // BEGIN SPRING YEAR MOVEMENT: the map's first year, and the opening is in it.
        assert_eq!(got.map.start_year, year, "{file}");
        let opening =
            dipsandbox_core::model::scenario::Scenario::opening(std::sync::Arc::new(got.map), "v");
        assert_eq!(opening.phase.year, year, "{file}");
        // What the map does not carry is said: known_world_901's dummy powers.
        if file == "known_world_901.map" {
            assert!(
                got.notes.iter().any(|n| n.text.starts_with("DUMMY")),
                "{:?}",
                got.notes
            );
        }
    }
}

#[test]
fn map_import_writes_a_map_that_scenarios_use_and_says_what_it_left_out() {
    let dir = crate::common::temp_dir("map-import");
    let out = dir.join("modern.ron");
    let o = out.to_str().expect("utf-8");
    let (code, stdout, stderr) =
        crate::common::dipsandbox(&["map", "import", "tests/data/maps/modern.map", "-o", o]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("imported modern from tests/data/maps/modern.map: 141 provinces"),
        "{stdout}"
    );
    // RULES BUILD_ANY: builds in any owned centre, as map data; nothing left unsaid.
    let written = std::fs::read_to_string(&out).expect("written");
    assert!(written.contains("build_sites: Owned"), "{written}");
    assert!(stderr.is_empty(), "{stderr}");
    // Not overwritten without --force.
    let (code, _, stderr) =
        crate::common::dipsandbox(&["map", "import", "tests/data/maps/modern.map", "-o", o]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--force"), "{stderr}");
    // A scenario on the imported map loads and adjudicates.
    let s = dir.join("s.ron");
    std::fs::write(
        &s,
        format!(
            "Scenario(title: \"t\", map: {o:?}, phase: \"Spring 1994 Movement\", units: {{\"Britain\": [\"F lon\"]}}, orders: {{\"Britain\": [\"F lon - eng\"]}})"
        ),
    )
    .expect("write");
    let (code, stdout, stderr) = crate::common::dipsandbox(&["show", s.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("F lon - eng") || stdout.contains("London"),
        "{stdout}"
    );
}

#[test]
fn a_bad_map_file_is_a_located_error() {
    let dir = crate::common::temp_dir("map-import-bad");
    for (text, want) in [
        (
            "AUSTRIA (AUSTRIAN) VIE\nLAND VIE NEAR BOH\n",
            "bad.map:2:10: \"NEAR\" after VIE: expected ABUTS",
        ),
        ("A VIE\n", "bad.map:1:1: a unit before any power line"),
        (
            "Vienna =\n",
            "bad.map:1:9: \"Vienna\" = nothing: expected an abbreviation after `=`",
        ),
        (
            "AMEND VIE ABUTS BOH\n",
            "bad.map:1:7: AMEND VIE: no place VIE to amend",
        ),
    ] {
        let f = dir.join("bad.map");
        std::fs::write(&f, text).expect("write");
        let e = dpjudge_map::import(&f, "bad").expect_err(text).to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
}
