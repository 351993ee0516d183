//! jDip variant files: a `variants.xml` and its adjacency file read into a map. The
//! round trip: jDip's own Standard variant imports to exactly our `maps/standard.ron` (names,
//! kinds, coasts, borders, centres, homes, starting units), with no renaming of provinces or
//! powers. Full names compare as the map's name index folds them (case and dots): jDip writes
//! "St. Petersburg", our map the DATC's "St Petersburg"; both find the same province.

use std::path::Path;

use dipsandbox_core::io::jdip_variant::{self, Options};
use dipsandbox_core::model::map::{BuildSites, Map, normalize_name};

use crate::map_import::facts;

const STD: &str = "tests/data/maps/jdip/variants.xml";

/// [`facts`] with each province's full name folded as names are looked up.
fn folded_facts(map: &Map) -> std::collections::BTreeSet<String> {
    facts(map)
        .into_iter()
        .map(|f| {
            let (Some(a), Some(b)) = (f.find(" name \""), f.find("\" kind ")) else {
                return f;
            };
            let name = &f[a + 7..b];
            format!("{} name {:?}{}", &f[..a], normalize_name(name), &f[b + 1..])
        })
        .collect()
}

fn standard() -> jdip_variant::VariantImport {
    jdip_variant::import(
        Path::new(STD),
        Some("standard"),
        &Options {
            variant: Some("Standard"),
            adjacency: None,
        },
    )
    .expect("imports")
}

#[test]
fn jdips_standard_variant_imports_to_our_standard_map() {
    let got = standard();
    let ours = Map::standard();
    let (a, b) = (folded_facts(&got.imported.map), folded_facts(&ours));
    let missing: Vec<&String> = b.difference(&a).collect();
    let extra: Vec<&String> = a.difference(&b).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:#?}\nextra {extra:#?}\nnotes {:#?}",
        got.imported.notes
    );
    assert_eq!(got.imported.map.province_count(), 75);
    assert!(b.len() > 600, "{} facts", b.len());
    // The one name written differently, kept as jDip writes it.
    let stp = got
        .imported
        .map
        .find_province("st petersburg")
        .expect("stp");
    assert_eq!(got.imported.map.province(stp).name, "St. Petersburg");
    // 18 of 34 is the majority, the default; Spring 1901; builds at home.
    let m = &got.imported.map;
    assert_eq!((m.victory, m.start_year), (None, 1901));
    assert_eq!(m.build_sites, dipsandbox_core::model::map::BuildSites::Home);
    // Switzerland, which no unit enters, is left out and said; so are the draw rules.
    let notes: Vec<String> = got
        .imported
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.pos, n.text))
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("std_adjacency.xml:43:3: swi: no unit can enter or leave it")),
        "{notes:#?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("a game length of 35 years")),
        "{notes:#?}"
    );
    // The unique names are aliases: jDip's `nor` finds Norway.
    let nwy = m.find_province("nor").expect("nor");
    assert_eq!(m.province(nwy).abbr, "nwy");
    // The written file is the same map.
    let again = Map::from_ron(&got.imported.ron, "again.ron").expect("loads");
    assert_eq!(facts(&again), facts(m));
}

/// The shipped jDip maps are what the importer makes of jDip's files (copied into
/// tests/data/maps/jdip/): importing again gives the same map, and what it left out is said.
#[test]
fn the_shipped_jdip_maps_are_their_variants_imported() {
    for (dir, variant, provinces, powers, centres, year, left_out) in [
        ("hundred", "hundred", 41, 3, 17, 1425, "map graphics"),
        (
            "youngstown",
            "Youngstown",
            180,
            10,
            72,
            1901,
            "him: no unit can enter or leave it",
        ),
        (
            "chaos",
            "chaos",
            75,
            34,
            34,
            1900,
            "a game length of 35 years",
        ),
    ] {
        let path = Path::new("tests/data/maps/jdip")
            .join(dir)
            .join("variants.xml");
        let got = jdip_variant::import(
            &path,
            Some(dir),
            &Options {
                variant: Some(variant),
                adjacency: None,
            },
        )
        .unwrap_or_else(|e| panic!("{dir}: {e}"));
        let m = &got.imported.map;
        let s = m.summary();
        assert_eq!(
            (s.provinces, m.powers.len(), s.supply_centers, m.start_year),
            (provinces, powers, centres, year),
            "{dir}"
        );
        let shipped = Map::load(&format!("maps/{dir}.ron")).expect("shipped");
        assert_eq!(facts(m), facts(&shipped), "{dir}");
        assert_eq!(
            (m.start_phase, m.victory),
            (shipped.start_phase, shipped.victory),
            "{dir}"
        );
        // The one change by hand: Hundred builds by its own rules, not by jDip's option.
        let builds = if dir == "hundred" {
            BuildSites::OwnedIfHomeOwned
        } else {
            m.build_sites
        };
        assert_eq!(shipped.build_sites, builds, "{dir}");
        assert!(
            got.imported.notes.iter().any(|n| n.text.contains(left_out)),
            "{dir}: {:#?}",
            got.imported.notes
        );
    }
}

/// Chaos (jDip's VALUE_BUILDS_ANY_OWNED): the game begins with the Winter 1900 adjustment, each
/// power owning one centre that is nobody's home; each builds there, and the year is played.
#[test]
fn chaos_begins_with_builds_in_owned_centres_and_plays_a_year() {
    use dipsandbox_core::model::map::StartPhase;
    use dipsandbox_core::model::rules::Rules;
    use dipsandbox_core::model::scenario::Scenario;
    let map = std::sync::Arc::new(Map::load("chaos").expect("chaos"));
    assert_eq!(map.build_sites, BuildSites::Owned);
    assert_eq!(map.start_phase, StartPhase::WinterAdjustment);
    assert!(
        map.powers
            .iter()
            .all(|p| p.home.is_empty() && p.owns.len() == 1)
    );
    let s = Scenario::opening(map.clone(), "chaos");
    assert_eq!(s.phase.to_string(), "Winter 1900 Adjustment");
    // Every power owns its centre at the start.
    let owners = s.owners_or_home();
    assert_eq!(owners.iter().filter(|o| o.is_some()).count(), 34);
    // Each power builds an army in its one centre.
    let mut orders = Vec::new();
    for w in map.power_ids() {
        let p = map.power(w);
        let centre = map.province(p.owns[0]);
        assert_eq!(owners[p.owns[0].0 as usize], Some(w), "{}", p.name);
        orders.push(format!("{:?}: [\"Build A {}\"]", p.name, centre.name));
    }
    let text = format!(
        "Scenario(title: \"t\", map: \"chaos\", phase: \"Winter 1900 Adjustment\", units: {{}}, orders: {{{}}})",
        orders.join(", ")
    );
    let mut s = Scenario::from_ron(&text, "chaos.ron").expect("loads");
    let rules = Rules::default();
    let adv = dipsandbox_core::tools::turn::advance(&s, &rules).expect("advances");
    s = adv.next;
    assert_eq!(s.phase.to_string(), "Spring 1901 Movement");
    assert_eq!(s.units.len(), 34, "every power built its army");
    for _ in 0..2 {
        s = dipsandbox_core::tools::turn::advance(&s, &rules)
            .expect("advances")
            .next;
    }
    // No centre changed hands, so no adjustment is due and Winter 1901 is passed over.
    assert_eq!(s.phase.to_string(), "Spring 1902 Movement");
    assert_eq!(s.units.len(), 34);
}

/// A file of several variants needs `--variant`; the error lists them, at the file's
/// `<VARIANTS>`. A variant is found by an alias too, in any case.
#[test]
fn a_variant_is_chosen_by_name_or_alias() {
    let e = jdip_variant::import(Path::new(STD), None, &Options::default())
        .expect_err("several variants")
        .to_string();
    assert!(
        e.starts_with(
            "tests/data/maps/jdip/variants.xml:77:1: 12 variants: Standard, Standard [No Units],"
        ),
        "{e}"
    );
    assert!(e.contains("choose one with --variant NAME"), "{e}");
    let got = jdip_variant::import(
        Path::new(STD),
        None,
        &Options {
            variant: Some("CROWDED1898"),
            adjacency: None,
        },
    )
    .expect("by alias");
    assert_eq!(got.variant, "Crowded 1898");
    assert_eq!(got.name, "crowded-1898");
    assert_eq!(got.imported.map.start_year, 1898);
    let e = jdip_variant::import(
        Path::new(STD),
        None,
        &Options {
            variant: Some("Atlantis"),
            adjacency: None,
        },
    )
    .expect_err("no such variant")
    .to_string();
    assert!(e.contains("no variant named \"Atlantis\""), "{e}");
}

/// Bad files are located errors: XML that is not well-formed, a reference to no province, a
/// power no `<POWER>` names, a fleet on a two-coast province without its coast.
#[test]
fn a_bad_variant_file_is_a_located_error() {
    let adj = r#"<PROVINCES>
  <PROVINCE shortname="aaa" fullname="Aland"><ADJACENCY type="mv" refs="bbb" /><ADJACENCY type="xc" refs="sea" /></PROVINCE>
  <PROVINCE shortname="bbb" fullname="Bland"><ADJACENCY type="mv" refs="aaa" /></PROVINCE>
  <PROVINCE shortname="sea" fullname="Sea"><ADJACENCY type="xc" refs="aaa ccc" /></PROVINCE>
</PROVINCES>"#;
    let variant = |body: &str| {
        format!(
            "<VARIANTS>\n<VARIANT name=\"V\" version=\"1\">\n<POWER name=\"North\" adjective=\"Northern\" />\n<STARTINGTIME turn=\"Spring, 1901, Movement\" />\n{body}\n</VARIANT>\n</VARIANTS>\n"
        )
    };
    for (vtext, atext, want) in [
        (
            variant("<SUPPLYCENTER province=\"aaa\" homepower=\"north\" owner=\"north\"/>"),
            adj.to_string(),
            "a.xml:4:44: sea: \"ccc\" in refs names no province",
        ),
        (
            variant("<SUPPLYCENTER province=\"aaa\" homepower=\"south\"/>"),
            adj.replace(" ccc", ""),
            "v.xml:5:1: homepower=\"south\" names no <POWER>",
        ),
        (
            variant("<SUPPLYCENTER province=\"aaa\"> </VARIANT>"),
            adj.replace(" ccc", ""),
            "v.xml:5:",
        ),
        (
            variant("<INITIALSTATE province=\"zzz\" power=\"north\" unit=\"army\"/>"),
            adj.replace(" ccc", ""),
            "v.xml:5:1: province=\"zzz\" names no province",
        ),
    ] {
        let e = jdip_variant::import_text(&vtext, "v.xml", &atext, "a.xml", Some("v"), None)
            .expect_err(&vtext)
            .to_string();
        assert!(e.contains(want), "{vtext}\n{e}");
    }
    // The same files without the mistakes import; the border the sea lists but the land does
    // not is taken as two-way and said.
    let one_sided = adj.replace(" ccc", "").replace("refs=\"sea\"", "refs=\"\"");
    let got = jdip_variant::import_text(
        &variant("<SUPPLYCENTER province=\"aaa\" homepower=\"north\" owner=\"north\"/><INITIALSTATE province=\"aaa\" power=\"north\" unit=\"fleet\"/>"),
        "v.xml",
        &one_sided,
        "a.xml",
        Some("v"),
        None,
    )
    .expect("imports");
    let m = &got.imported.map;
    let (aaa, sea) = (
        m.find_province("aaa").expect("aaa"),
        m.find_province("sea").expect("sea"),
    );
    assert!(m.fleet_adjacent(m.province(aaa).main, m.province(sea).main));
    assert!(
        got.imported.notes.iter().any(|n| n.pos.line == 4
            && n.text
                .contains("fleet border sea - aaa is listed by sea only")),
        "{:#?}",
        got.imported.notes
    );
}

/// `dipsandbox map import variants.xml --variant NAME` writes the map and lists what it left
/// out on stderr; `maps` lists the shipped jDip maps.
#[test]
fn map_import_reads_a_jdip_variant_from_the_command_line() {
    let dir = crate::common::temp_dir("jdip-variant-import");
    let out = dir.join("std.ron");
    let o = out.to_str().expect("utf-8");
    let (code, stdout, stderr) = crate::common::dipsandbox(&[
        "map",
        "import",
        STD,
        "--variant",
        "standard",
        "--name",
        "std",
        "-o",
        o,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("imported std from tests/data/maps/jdip/variants.xml: 75 provinces (19 sea, 14 inland, 42 coastal), 34 supply centres, 7 powers; 4 notes"),
        "{stdout}"
    );
    assert!(
        stderr.contains("note: tests/data/maps/jdip/std_adjacency.xml:43:3: swi: no unit can enter or leave it (impassable); left out of the map"),
        "{stderr}"
    );
    // --adjacency names the adjacency file instead of the variant's MAP.
    let copy = dir.join("elsewhere.xml");
    std::fs::copy("tests/data/maps/jdip/std_adjacency.xml", &copy).expect("copy");
    let (code, _, stderr) = crate::common::dipsandbox(&[
        "map",
        "import",
        STD,
        "--variant",
        "1898",
        "--adjacency",
        copy.to_str().expect("utf-8"),
        "-o",
        dir.join("1898.ron").to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("elsewhere.xml:43:3: swi"), "{stderr}");
    let (code, stdout, _) = crate::common::dipsandbox(&["maps"]);
    assert_eq!(code, 0);
    for m in ["chaos ", "hundred ", "youngstown "] {
        assert!(stdout.contains(m), "{stdout}");
    }
    // Chaos's own rules are said under its summary.
    let chaos = stdout.split("\nchaos ").nth(1).expect("chaos listed");
    assert!(
        chaos.contains("rules: builds in any owned centre; opens with Winter 1900 builds"),
        "{stdout}"
    );
}

/// The hand-checked scenarios of the jDip maps (their two-coast provinces, Hundred's strait and
/// Castile, Youngstown's Suez, their islands, Chaos's builds) pass `check`.
#[test]
fn the_jdip_maps_hand_checked_scenarios_pass() {
    let mut files: Vec<String> = std::fs::read_dir("scenarios/variants")
        .expect("scenarios/variants")
        .filter_map(|e| e.ok().map(|e| e.path().display().to_string()))
        .filter(|p| {
            ["hundred-", "youngstown-", "chaos-"]
                .iter()
                .any(|m| p.contains(m))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 12, "{files:?}");
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let (code, stdout, stderr) = crate::common::dipsandbox(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("{} passed, 0 failed", files.len())),
        "{stdout}"
    );
}

/// Hundred's build rule (`OwnedIfHomeOwned`, jDip's VALUE_BUILDS_ANY_IF_HOME_OWNED): the
/// adjustment menu offers Burgundy the centre it took from England while it keeps a home centre,
/// and France, which owns only English home centres, nothing but a waive.
#[test]
fn hundred_builds_in_taken_centres_only_while_a_home_centre_is_kept() {
    use dipsandbox_core::model::orders::OrderKind;
    use dipsandbox_core::model::scenario::Scenario;
    let s = Scenario::load(Path::new(
        "scenarios/variants/hundred-build-while-a-home-is-owned.ron",
    ))
    .expect("loads");
    assert_eq!(s.map.build_sites, BuildSites::OwnedIfHomeOwned);
    let menu = dipsandbox_core::tools::menu::adjustment_orders(&s);
    let of = |power: &str| -> Vec<String> {
        let w = s.map.find_power(power).expect("power");
        menu.iter()
            .filter(|(p, o)| *p == w && o.kind == OrderKind::Build)
            .map(|(_, o)| {
                dipsandbox_core::model::orders::format_order(
                    &s.map,
                    o,
                    dipsandbox_core::model::orders::NameStyle::Full,
                )
            })
            .collect()
    };
    let burgundy = of("Burgundy");
    assert!(
        burgundy.contains(&"Build A London".to_string()),
        "{burgundy:?}"
    );
    assert!(of("France").is_empty(), "{:?}", of("France"));
}

/// Any prefix of a variant file or of its adjacency file is read without a panic: an import or
/// a located error (`file:line:col:`).
#[test]
fn cut_files_are_errors_not_panics() {
    let v = std::fs::read_to_string("tests/data/maps/jdip/hundred/variants.xml").expect("v");
    let a =
        std::fs::read_to_string("tests/data/maps/jdip/hundred/h31_h32_adjacency.xml").expect("a");
    let cuts = |t: &str| -> Vec<usize> {
        (1..150)
            .map(|k| k * t.len() / 150)
            .filter(|&i| t.is_char_boundary(i))
            .collect()
    };
    let mut errors = 0;
    for i in cuts(&a) {
        match jdip_variant::import_text(&v, "v.xml", &a[..i], "a.xml", None, Some("h32")) {
            Ok(_) => {}
            Err(e) => {
                errors += 1;
                let e = e.to_string();
                assert!(e.starts_with("a.xml:") || e.contains("(imported)"), "{e}");
            }
        }
    }
    for i in cuts(&v) {
        if let Err(e) = jdip_variant::import_text(&v[..i], "v.xml", &a, "a.xml", None, Some("h32"))
        {
            errors += 1;
            let e = e.to_string();
            assert!(e.starts_with("v.xml:") || e.contains("(imported)"), "{e}");
        }
    }
    assert!(errors > 100, "{errors} errors");
}
