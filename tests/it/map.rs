//! Map data: what a user checks against the published facts of the standard map (GUIDE §3),
//! loading another map from a file, and the error messages for malformed map files.

use dipsandbox_core::model::map::{
    BUILT_IN, Coast, LocId, Map, MapSummary, ProvinceId, ProvinceKind, UnitKind, built_in,
};
use dipsandbox_core::model::orders::{NameStyle, format_order, parse_order};

fn province(map: &Map, name: &str) -> ProvinceId {
    map.find_province(name)
        .unwrap_or_else(|| panic!("{name:?} should name a province of map {}", map.name))
}

/// A fleet location written `abbr` or `abbr/nc`.
fn fleet_loc(map: &Map, spec: &str) -> LocId {
    match spec.split_once('/') {
        None => map.province(province(map, spec)).main,
        Some((p, c)) => {
            let coast = Coast::parse(c).unwrap_or_else(|| panic!("bad coast in {spec:?}"));
            map.province(province(map, p))
                .coast(coast)
                .unwrap_or_else(|| panic!("{p} has no coast {c}"))
        }
    }
}

/// Whether `kind` can move from `a` to `b`.
fn borders(map: &Map, kind: UnitKind, a: &str, b: &str) -> bool {
    match kind {
        UnitKind::Army => map.army_adjacent(province(map, a), province(map, b)),
        UnitKind::Fleet => map.fleet_adjacent(fleet_loc(map, a), fleet_loc(map, b)),
    }
}

// A user checks the standard map against the published counts: 75 provinces (19 seas, 14 inland,
// 42 coastal), 34 supply centres of which 22 are home centres.
#[test]
fn standard_map_counts() {
    let map = Map::standard();
    assert_eq!(
        map.summary(),
        MapSummary {
            provinces: 75,
            seas: 19,
            inland: 14,
            coastal: 42,
            supply_centers: 34,
            home_centers: 22,
        }
    );
    assert_eq!(map.province_count(), 75);
    // Every home centre is a supply centre and is marked with its power.
    for p in map.power_ids() {
        for h in &map.power(p).home {
            let prov = map.province(*h);
            assert!(prov.supply_center, "{} is a home centre", prov.name);
            assert_eq!(prov.home_of, Some(p), "{} home_of", prov.name);
        }
    }
    let marked = map.provinces.iter().filter(|p| p.home_of.is_some()).count();
    assert_eq!(marked, 22);
}

// A user checks the seven powers and their home centres: Russia has four, the others three; each
// power starts with one unit per home centre.
#[test]
fn standard_map_powers() {
    let map = Map::standard();
    let names: Vec<&str> = map.powers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"
        ]
    );
    for power in &map.powers {
        let expected = if power.name == "Russia" { 4 } else { 3 };
        assert_eq!(power.home.len(), expected, "home centres of {}", power.name);
        assert_eq!(power.start.len(), expected, "start units of {}", power.name);
    }
    let russia = map.power(map.find_power("Russia").unwrap());
    let mut homes: Vec<&str> = russia
        .home
        .iter()
        .map(|h| map.province(*h).abbr.as_str())
        .collect();
    homes.sort();
    assert_eq!(homes, ["mos", "sev", "stp", "war"]);
    // Russia's fleet starts on the south coast of St Petersburg.
    assert!(
        russia
            .start
            .contains(&(UnitKind::Fleet, fleet_loc(&map, "stp/sc")))
    );
}

// A user checks that exactly three provinces have two coasts: Spain (nc/sc), St Petersburg (nc/sc)
// and Bulgaria (ec/sc).
#[test]
fn standard_map_two_coast_provinces() {
    let map = Map::standard();
    let mut multi: Vec<(String, Vec<Coast>)> = map
        .provinces
        .iter()
        .filter(|p| p.is_multi_coast())
        .map(|p| {
            let mut cs: Vec<Coast> = p.coasts.iter().map(|(c, _)| *c).collect();
            cs.sort();
            (p.abbr.clone(), cs)
        })
        .collect();
    multi.sort();
    assert_eq!(
        multi,
        [
            ("bul".to_string(), vec![Coast::South, Coast::East]),
            ("spa".to_string(), vec![Coast::North, Coast::South]),
            ("stp".to_string(), vec![Coast::North, Coast::South]),
        ]
    );
    // Each coast location belongs to its province and carries its coast.
    for prov in map.provinces.iter().filter(|p| p.is_multi_coast()) {
        for (c, l) in &prov.coasts {
            let loc = map.location(*l);
            assert_eq!(map.province(loc.province).abbr, prov.abbr);
            assert_eq!(loc.coast, Some(*c));
        }
    }
}

// A user checks the borders that published adjacency lists get wrong, each from both sides and
// with the right unit type (GUIDE §3: "check every border from two sides").
#[test]
fn standard_map_tricky_borders() {
    use UnitKind::{Army, Fleet};
    let map = Map::standard();
    let table: &[(UnitKind, &str, &str, bool)] = &[
        (Army, "rom", "ven", true),
        (Fleet, "rom", "ven", false),
        (Fleet, "spa/sc", "lyo", true),
        (Fleet, "spa/nc", "lyo", false),
        (Fleet, "spa/nc", "mao", true),
        (Fleet, "spa/sc", "mao", true),
        (Fleet, "spa/nc", "gas", true),
        (Fleet, "spa/sc", "gas", false),
        (Fleet, "bul/ec", "bla", true),
        (Fleet, "bul/sc", "bla", false),
        (Fleet, "bul/sc", "aeg", true),
        (Fleet, "bul/ec", "aeg", false),
        (Fleet, "stp/nc", "nwy", true),
        (Fleet, "stp/sc", "nwy", false),
        (Fleet, "stp/nc", "bar", true),
        (Fleet, "stp/sc", "bot", true),
        (Fleet, "stp/nc", "bot", false),
        (Fleet, "bot", "swe", true),
        (Army, "gal", "ukr", true),
        (Army, "lvn", "war", true),
        (Fleet, "tus", "tys", true),
        (Army, "nwy", "fin", true),
        (Fleet, "nwy", "fin", false),
        (Army, "kie", "den", true),
        (Fleet, "kie", "den", true),
        (Army, "con", "bul", true),
        (Fleet, "con", "bul/ec", true),
        (Fleet, "con", "bul/sc", true),
        (Fleet, "lvp", "nao", true),
        (Fleet, "cly", "iri", false),
        (Fleet, "cly", "nao", true),
        (Army, "mun", "kie", true),
        (Army, "boh", "gal", true),
        (Army, "par", "pic", true),
        (Fleet, "eng", "nth", true),
        (Fleet, "nth", "nwg", true),
        (Fleet, "ska", "swe", true),
        (Fleet, "den", "swe", true),
        (Army, "den", "swe", true),
        (Fleet, "aeg", "bla", false),
    ];
    let mut wrong = Vec::new();
    for &(kind, a, b, expected) in table {
        for (from, to) in [(a, b), (b, a)] {
            if borders(&map, kind, from, to) != expected {
                wrong.push(format!(
                    "{} {from} -> {to}: expected {expected}",
                    kind.letter()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "wrong borders:\n{}", wrong.join("\n"));
}

// A user checks that fleet movement to a province honours coasts: a fleet in the Gulf of Lyon
// reaches Spain (by its south coast), a fleet in Gascony reaches Spain (by its north coast), and
// no army or fleet reaches a province of the wrong terrain.
#[test]
fn standard_map_reach_by_unit_type() {
    let map = Map::standard();
    let spa = province(&map, "spa");
    assert!(map.can_reach(UnitKind::Fleet, fleet_loc(&map, "lyo"), spa));
    assert!(map.can_reach(UnitKind::Fleet, fleet_loc(&map, "gas"), spa));
    assert!(!map.can_reach(UnitKind::Fleet, fleet_loc(&map, "bre"), spa));
    assert!(map.can_reach(UnitKind::Army, fleet_loc(&map, "gas"), spa));
    // Fleets cannot enter Burgundy; armies cannot enter the North Sea.
    assert!(!map.can_reach(
        UnitKind::Fleet,
        fleet_loc(&map, "par"),
        province(&map, "bur")
    ));
    assert!(!map.can_reach(
        UnitKind::Army,
        fleet_loc(&map, "yor"),
        province(&map, "nth")
    ));
    // Provinces sharing only a fleet border are still neighbours.
    assert!(map.provinces_adjacent(province(&map, "lvp"), province(&map, "iri")));
    assert!(!map.provinces_adjacent(province(&map, "lon"), province(&map, "lvp")));
    assert!(!map.provinces_adjacent(province(&map, "par"), province(&map, "mar")));
}

// A user looks provinces up by any common spelling: abbreviations, DATC names, jDip names, with
// dots, hyphens and any case.
#[test]
fn standard_map_aliases() {
    let map = Map::standard();
    let groups: &[(&str, &[&str])] = &[
        (
            "Norwegian Sea",
            &["nwg", "nrg", "Norwegian Sea", "NORWEGIAN SEA", "norwegian"],
        ),
        (
            "Gulf of Lyon",
            &["lyo", "gol", "Gulf of Lyon", "gulf OF lyon"],
        ),
        ("English Channel", &["eng", "ech", "English Channel", "ENG"]),
        (
            "Mid-Atlantic Ocean",
            &[
                "Mid-Atlantic Ocean",
                "mid atlantic ocean",
                "mao",
                "mid",
                "MAO",
                "Mid-Atlantic",
            ],
        ),
        (
            "St Petersburg",
            &[
                "St. Petersburg",
                "St Petersburg",
                "st petersburg",
                "ST. PETERSBURG",
                "stp",
                "StP",
            ],
        ),
        ("Liverpool", &["lvp", "Liverpool", "LIVERPOOL", "liv"]),
    ];
    for (name, spellings) in groups {
        for s in *spellings {
            let id = map
                .find_province(s)
                .unwrap_or_else(|| panic!("{s:?} should resolve to {name}"));
            assert_eq!(&map.province(id).name, name, "{s:?}");
        }
    }
    assert_eq!(map.find_province("Atlantis"), None);
    assert_eq!(map.find_province(""), None);
    // Powers by name, adjective or alias, any case.
    let england = map.find_power("England").unwrap();
    for s in ["england", "ENGLISH", "Britain"] {
        assert_eq!(map.find_power(s), Some(england), "{s:?}");
    }
    assert_eq!(map.find_power("Prussia"), None);
}

// A user checks that every border can be travelled both ways (the data lists every border from
// both sides), and that no army border touches a sea and no fleet border touches an inland
// province.
#[test]
fn standard_map_borders_are_symmetric() {
    let map = Map::standard();
    let mut wrong = Vec::new();
    for p in map.province_ids() {
        for q in map.army_neighbours(p) {
            if !map.army_neighbours(*q).contains(&p) {
                wrong.push(format!(
                    "army {} -> {}",
                    map.province(p).abbr,
                    map.province(*q).abbr
                ));
            }
            if map.province(*q).kind == ProvinceKind::Sea
                || map.province(p).kind == ProvinceKind::Sea
            {
                wrong.push(format!("army border at sea: {}", map.province(p).abbr));
            }
        }
    }
    for i in 0..map.locations.len() {
        let l = LocId(i as u32);
        for m in map.fleet_neighbours(l) {
            if !map.fleet_neighbours(*m).contains(&l) {
                wrong.push(format!("fleet {} -> {}", map.loc_abbr(l), map.loc_abbr(*m)));
            }
            if map.province(map.province_of(*m)).kind == ProvinceKind::Land {
                wrong.push(format!("fleet border inland: {}", map.loc_abbr(*m)));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A fleet on a two-coast province stands on a coast: the province as a whole has no fleet
    // borders of its own.
    for abbr in ["spa", "stp", "bul"] {
        let main = map.province(province(&map, abbr)).main;
        assert!(map.fleet_neighbours(main).is_empty(), "{abbr}");
    }
    // Every sea has fleet borders and no army borders; every inland province the reverse.
    for p in map.province_ids() {
        let prov = map.province(p);
        match prov.kind {
            ProvinceKind::Sea => {
                assert!(map.army_neighbours(p).is_empty(), "{}", prov.abbr);
                assert!(!map.fleet_neighbours(prov.main).is_empty(), "{}", prov.abbr);
            }
            ProvinceKind::Land => {
                assert!(!map.army_neighbours(p).is_empty(), "{}", prov.abbr);
                assert!(map.fleet_neighbours(prov.main).is_empty(), "{}", prov.abbr);
            }
            ProvinceKind::Coast => {
                assert!(!map.army_neighbours(p).is_empty(), "{}", prov.abbr);
            }
        }
    }
}

// A user loads the seven-province test map from its file and checks that its counts are those the
// file's header comment states, and that nothing of the standard map leaks into it.
#[test]
fn test7_map_loads_from_file() {
    let map = Map::load("maps/test7.ron").expect("maps/test7.ron loads");
    assert_eq!(map.name, "test7");
    assert_eq!(map.title, "Seven-province test map");
    assert_eq!(
        map.summary(),
        MapSummary {
            provinces: 7,
            seas: 2,
            inland: 1,
            coastal: 4,
            supply_centers: 4,
            home_centers: 3,
        }
    );
    let powers: Vec<&str> = map.powers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(powers, ["North", "South"]);
    let north = map.power(map.find_power("Northern").unwrap());
    assert_eq!(north.home.len(), 2);
    assert_eq!(
        north.start,
        [
            (UnitKind::Fleet, fleet_loc(&map, "ald")),
            (UnitKind::Army, fleet_loc(&map, "bor")),
        ]
    );
    // Dunmere is the one two-coast province, with an east and a west coast.
    let multi: Vec<&str> = map
        .provinces
        .iter()
        .filter(|p| p.is_multi_coast())
        .map(|p| p.abbr.as_str())
        .collect();
    assert_eq!(multi, ["dun"]);
    let dun = map.province(province(&map, "Dunmere"));
    assert!(dun.coast(Coast::East).is_some() && dun.coast(Coast::West).is_some());
    assert_eq!(dun.coast(Coast::North), None);
    assert_eq!(dun.home_of, None);
    assert!(dun.supply_center);
    // Borders as the header draws them, from both sides.
    use UnitKind::{Army, Fleet};
    for (kind, a, b, expected) in [
        (Fleet, "cal", "dun/ec", true),
        (Fleet, "cal", "dun/wc", true),
        (Fleet, "ald", "dun/wc", true),
        (Fleet, "ald", "dun/ec", false),
        (Fleet, "fen", "dun/ec", true),
        (Fleet, "gry", "hav", false),
        (Fleet, "grey", "Haven Sea", false),
        (Army, "bor", "fen", true),
        (Army, "ald", "cal", false),
    ] {
        assert_eq!(borders(&map, kind, a, b), expected, "{a}-{b}");
        assert_eq!(borders(&map, kind, b, a), expected, "{b}-{a}");
    }
    // Nothing standard-specific: no Paris, no England.
    assert_eq!(map.find_province("par"), None);
    assert_eq!(map.find_province("London"), None);
    assert_eq!(map.find_power("England"), None);
    // The same map by name.
    assert_eq!(Map::load("test7").unwrap().summary(), map.summary());
}

// A user writes orders on the test map: the parser and printer use that map's names, and typos are
// matched against that map's names only.
#[test]
fn test7_orders_use_the_maps_names() {
    let map = Map::load("maps/test7.ron").unwrap();
    let o = parse_order(&map, "F Dunmere(wc) - Grey Sea").unwrap();
    assert_eq!(format_order(&map, &o, NameStyle::Abbr), "F Dun(wc) - Gry");
    assert_eq!(
        format_order(&map, &o, NameStyle::Full),
        "F Dunmere(wc) - Grey Sea"
    );
    let o = parse_order(&map, "North: A bor S Southern F cal - dun").unwrap();
    assert_eq!(
        format_order(&map, &o, NameStyle::Full),
        "North: A Borland Supports Southern F Calder - Dunmere"
    );
    let e = parse_order(&map, "A Borlnd - Fenwick").unwrap_err();
    assert_eq!(
        e.to_string(),
        "column 3: unknown province \"Borlnd\"; did you mean \"Borland (bor)\"?"
    );
    let e = parse_order(&map, "A Paris - Burgundy").unwrap_err();
    assert_eq!(e.col, 3);
    assert!(e.message.starts_with("unknown province \"Paris\""), "{e}");
    let e = parse_order(&map, "England: A Aldmark - Borland").unwrap_err();
    assert_eq!(
        e.to_string(),
        "column 1: unknown power \"England\"; expected one of North, South"
    );
}

// A user asks for a map that does not exist and is told what is accepted.
#[test]
fn unknown_map_name() {
    let e = Map::load("atlantis").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no map named \"atlantis\": expected a built-in map (standard, 1898, ancmed, chaos, garrisons, hundred, modern, pure, test7, world, youngstown), a file maps/<name>.ron, or a path to a .ron map file"
    );
    assert_eq!(Map::load("standard").unwrap().summary().provinces, 75);
    // A near miss is named.
    let e = Map::load("wrold").unwrap_err().to_string();
    assert!(
        e.starts_with("no map named \"wrold\" (did you mean \"world\"?): expected"),
        "{e}"
    );
}

/// Every map the repository ships in maps/ is built in, with the same text, under the name
/// its file and its own `name` field give (a saved scenario names the map so).
#[test]
fn the_built_in_maps_are_the_shipped_files() {
    let mut files: Vec<(String, String)> = std::fs::read_dir("maps")
        .expect("maps/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| {
            let stem = p.file_stem().expect("stem").to_string_lossy().into_owned();
            (stem, std::fs::read_to_string(&p).expect("reads"))
        })
        .collect();
    files.sort();
    let mut built: Vec<(String, String)> = BUILT_IN
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    built.sort();
    let names = |v: &[(String, String)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&built), names(&files));
    for ((name, text), (_, file)) in built.iter().zip(&files) {
        assert!(
            text == file,
            "maps/{name}.ron differs from the built-in text"
        );
        let m = Map::from_ron(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&m.name, name, "maps/{name}.ron names itself otherwise");
        assert_eq!(built_in(name), Some(text.as_str()));
    }
}

/// From a folder without maps/, every built-in map is listed, its opening written and checked,
/// and a scenario naming a built-in map loads; a file maps/NAME.ron there stands in for the
/// built-in map of its name.
#[test]
fn the_built_in_maps_serve_any_folder() {
    let dir = crate::common::temp_dir("built-in-maps");
    let run = |args: &[&str]| crate::common::dipsandbox_in(&dir, args);
    let (code, out, err) = run(&["maps"]);
    assert_eq!(code, 0, "{err}");
    for (name, _) in BUILT_IN {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("{name} ")) && l.ends_with(" · built in")),
            "{name} not listed as built in:\n{out}"
        );
    }
    let (code, _, err) = run(&["map", "opening", "youngstown", "-o", "y.ron"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("y.ron")).expect("written");
    assert!(text.contains("map: \"youngstown\""), "{text}");
    let (code, out, err) = run(&["check", "y.ron"]);
    assert_eq!(
        (code, out.lines().last()),
        (0, Some("1 passed, 0 failed")),
        "{out}{err}"
    );
    // A map file here takes the built-in map's place (and says so).
    std::fs::create_dir_all(dir.join("maps")).expect("maps/");
    std::fs::copy("maps/test7.ron", dir.join("maps/test7.ron")).expect("copied");
    let (code, out, _) = run(&["maps"]);
    assert_eq!(code, 0);
    let test7 = out
        .lines()
        .find(|l| l.starts_with("test7 "))
        .expect("test7 listed");
    assert!(
        test7.ends_with(&format!(
            " · {}",
            std::path::Path::new("maps").join("test7.ron").display()
        )),
        "{test7}"
    );
    let (code, _, err) = run(&["map", "opening", "wrold", "-o", "w.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("(did you mean \"world\"?)"), "{err}");
}

// The malformed maps in tests/invalid/maps, each with its exact message, are in tests/invalid.rs.

/// Map building moves each lower-case abbreviation into the map and copies the others: an
/// abbreviation written in capitals is still quoted as written in errors (a clash with a later
/// province's name, a bad border) and stored lower case, from lists as from a map file.
#[test]
fn abbreviations_in_capitals_are_quoted_as_written() {
    use dipsandbox_core::model::map::ProvinceSpec;
    let spec = |abbr: &str, name: &str, army: &[&str]| ProvinceSpec {
        abbr: abbr.to_string(),
        name: name.to_string(),
        kind: ProvinceKind::Land,
        supply_center: false,
        army: army.iter().map(|s| s.to_string()).collect(),
        fleet: Vec::new(),
    };
    let clash = Map::from_lists(
        "caps",
        "Caps",
        &[("P", "Pish")],
        vec![spec("AbC", "Alpha", &[]), spec("def", "abc", &[])],
    )
    .expect_err("the name clashes");
    assert!(
        clash.to_string().contains(
            "name \"abc\" of province \"def\" is already used by province \"AbC\"; names must be unique"
        ),
        "{clash}"
    );
    let border = Map::from_lists(
        "caps",
        "Caps",
        &[("P", "Pish")],
        vec![spec("AbC", "Alpha", &["xyz"]), spec("def", "Delta", &[])],
    )
    .expect_err("unknown border");
    assert!(
        border
            .to_string()
            .contains("unknown province \"xyz\" in the army borders of \"AbC\""),
        "{border}"
    );
    let map = Map::from_lists(
        "caps",
        "Caps",
        &[("P", "Pish")],
        vec![
            spec("AbC", "Alpha", &["DEF"]),
            spec("def", "Delta", &["abc"]),
        ],
    )
    .expect("valid");
    let a = province(&map, "ABC");
    assert_eq!(map.province(a).abbr, "abc");
    assert_eq!(map.province(a).name, "Alpha");
    assert!(map.army_adjacent(a, province(&map, "delta")));
    assert_eq!(map.summary().provinces, 2);
}
