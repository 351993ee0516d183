//! jDip variant files (issue 27): a `variants.xml` and its adjacency file read into a map. The
//! round trip: jDip's own Standard variant imports to exactly our `maps/standard.ron` (names,
//! kinds, coasts, borders, centres, homes, starting units), with no renaming of provinces or
//! powers. Full names compare as the map's name index folds them (case and dots): jDip writes
//! "St. Petersburg", our map the DATC's "St Petersburg"; both find the same province.

use std::path::Path;

use dipsandbox_core::io::jdip_variant::{self, Options};
use dipsandbox_core::model::map::{Map, normalize_name};

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
