//! Importing other adjudicators' map files: the DPjudge-style `.map` format of the
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

/// What the directives that change what was read do, in the order read (each became a
/// look-up instead of a scan; this holds them to what they did): `UNITS` and a unit line (one
/// unit a province, of whichever power), `HOME`/`HOMES`/`INHABITS` and `-LOC`, `UNOWNED`,
/// `UNPLAYED` (by name, and `ALL EXCEPT`), `AMEND` with `-LOC` (by prefix: `-I` takes `III`),
/// `DROP` (by prefix: `DROP GGG` takes `GGGX`), `SHUT`, a fleets-only border (`Ttt`), a province
/// with coasts, and one redefined in upper case (`kkk`, then `KKK`, which takes its coasts).
#[test]
fn directives_apply_in_the_order_read() {
    let text = "BEGIN SPRING 1901 MOVEMENT
ALPHA (ALPHAN) AAA BBB CCC
A AAA
F BBB
A CCC
BETA (BETAN) DDD EEE
A DDD
A AAA
GAMMA (GAMMAN) FFF
F FFF/NC
DELTA (DELTAN) GGG
A GGG
HOME GGG -GGG EEE
UNOWNED GGG CCC XXX
ALPHA
HOMES AAA BBB -CCC
INHABITS CCC
UNITS
A BBB
A CCC
UNPLAYED DELTA
EPSILON (EPSILONIC) HHH
ZETA (ZETAN) III
UNPLAYED ALL EXCEPT ALPHA BETA GAMMA ZETA
Alpha Land = aaa alp alpha+land
Beta Land = bbb bet
Gamma = ccc gam
Delta = ddd
Epsilon = eee
Fjord = fff fjo
Fjord (north coast) = fff/nc
Fjord (south coast) = fff/sc
Gone = ggg
Gone Too = gggx
Sea = sss sea
Other Sea = ttt
Hill = hhh
Isle = iii
Kettle = kkk
Lake = lll
LAND AAA ABUTS BBB CCC DDD XXX GGG
COAST BBB ABUTS AAA CCC SSS fff EEE
LAND CCC ABUTS AAA BBB DDD
LAND DDD ABUTS AAA CCC EEE
COAST EEE ABUTS BBB DDD SSS fff
COAST fff ABUTS BBB EEE SSS TTT
COAST FFF/NC ABUTS SSS
COAST FFF/SC ABUTS TTT
WATER SSS ABUTS BBB EEE FFF/NC TTT GGG
WATER TTT ABUTS SSS FFF/SC Hhh
LAND GGG ABUTS AAA SSS
LAND GGGX ABUTS GGG
COAST HHH ABUTS III Ttt
LAND III ABUTS HHH
AMEND AAA ABUTS -XXX -G III -I
AMEND SSS ABUTS -GG -T TTT
DROP GGG
SHUT QQQ ABUTS AAA
COAST kkk ABUTS LLL
COAST KKK/NC ABUTS LLL
COAST KKK/SC ABUTS LLL
COAST KKK ABUTS LLL
COAST LLL ABUTS KKK
";
    let got = dpjudge_map::import_text(text, "d.map", Path::new("."), "d").expect("imports");
    let ron = &got.ron;
    for (power, home, start) in [
        ("Alpha", r#"["aaa", "bbb", "ccc"]"#, r#"["A bbb", "A ccc"]"#),
        ("Beta", r#"["ddd", "eee"]"#, r#"["A ddd", "A aaa"]"#),
        ("Gamma", r#"["fff"]"#, r#"["F fff/nc"]"#),
        ("Zeta", r#"["iii"]"#, "[]"),
    ] {
        let want = format!(
            "name: \"{power}\",\n            adjective: \"{power}n\",\n            home: {home},\n            start: {start},\n"
        );
        assert!(ron.contains(&want), "{want}\nnot in\n{ron}");
    }
    let m = &got.map;
    let powers: Vec<&str> = m.power_ids().map(|w| m.power(w).name.as_str()).collect();
    assert_eq!(powers, ["Alpha", "Beta", "Gamma", "Zeta"]);
    let abbrs: Vec<&str> = m
        .province_ids()
        .map(|p| m.province(p).abbr.as_str())
        .collect();
    assert_eq!(
        abbrs,
        [
            "bbb", "ccc", "ddd", "eee", "fff", "ttt", "hhh", "iii", "aaa", "sss", "kkk", "lll"
        ]
    );
    let borders = |abbr: &str| {
        let p = m.find_province(abbr).expect(abbr);
        let army: Vec<&str> = m
            .army_neighbours(p)
            .iter()
            .map(|&q| m.province(q).abbr.as_str())
            .collect();
        let fleet: Vec<Vec<String>> = m
            .locations_of(p)
            .map(|l| {
                let mut v: Vec<String> = m
                    .fleet_neighbours(l)
                    .iter()
                    .map(|&q| {
                        m.loc_abbr(q)
                            .to_ascii_lowercase()
                            .replace('(', "/")
                            .replace(')', "")
                    })
                    .collect();
                v.sort();
                v
            })
            .collect();
        (army, fleet)
    };
    assert_eq!(borders("aaa").0, ["bbb", "ccc", "ddd"]);
    assert_eq!(borders("sss").1, [["bbb", "eee", "fff/nc", "ttt"]]);
    assert_eq!(borders("hhh"), (vec!["iii"], vec![vec!["ttt".to_string()]]));
    assert_eq!(borders("fff").1, [vec![], vec!["sss"], vec!["ttt"]]);
    // KKK replaced kkk, and took its coasts.
    assert_eq!(borders("kkk").1, [["lll"]]);
    let centres: Vec<&str> = m
        .province_ids()
        .filter(|&p| m.province(p).supply_center)
        .map(|p| m.province(p).abbr.as_str())
        .collect();
    assert_eq!(centres, ["bbb", "ccc", "ddd", "eee", "fff", "iii", "aaa"]);
    let notes: Vec<String> = got
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.pos, n.text))
        .collect();
    assert_eq!(
        notes,
        ["d.map:58:1: SHUT QQQ: an impassable place (no unit may enter it); left out of the map"]
    );
}
