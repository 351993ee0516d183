//! The unit tests of the core's `io::svg_positions`.

use dipsandbox_core::io::svg_positions::*;

#[test]
fn reads_each_provinces_unit_position_and_nothing_else() {
    let svg = r#"<svg><jdipNS:DISPLAY/>
<jdipNS:PROVINCE_DATA>
  <jdipNS:PROVINCE name="vie">
<jdipNS:UNIT x="750.5" y="195.0"/>
<jdipNS:DISLODGED_UNIT x="762.5" y="183.0"/>
  </jdipNS:PROVINCE>
  <jdipNS:PROVINCE name="spa-nc"><jdipNS:UNIT y='965' x='289'/></jdipNS:PROVINCE>
  <jdipNS:PROVINCE name="swi"></jdipNS:PROVINCE>
</jdipNS:PROVINCE_DATA><text x="1" y="2">vie</text></svg>"#;
    let p = svg_positions(svg).unwrap();
    assert_eq!(
        p,
        vec![
            ("vie".to_string(), (750.5, 195.0)),
            ("spa-nc".to_string(), (289.0, 965.0))
        ]
    );
    assert_eq!(position_of(&p, "SPA"), Some((289.0, 965.0)));
    assert_eq!(position_of(&p, "swi"), None);
}

#[test]
fn a_bad_number_is_located() {
    let svg = "<svg>\n<j:PROVINCE name=\"vie\">\n  <j:UNIT x=\"7a\" y=\"1\"/>";
    let e = svg_positions(svg).unwrap_err();
    assert_eq!((e.line, e.col), (3, 3));
    assert!(e.message.contains("\"7a\""), "{}", e.message);
}

/// What `position_of` was before the large-map work: a search of the whole list. The index must answer
/// as it did.
fn position_by_search(positions: &[(String, (f64, f64))], abbr: &str) -> Option<(f64, f64)> {
    let own = positions
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(abbr))
        .map(|(_, p)| *p);
    own.or_else(|| {
        positions
            .iter()
            .find(|(n, _)| {
                n.get(..abbr.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(abbr))
                    && matches!(n.as_bytes().get(abbr.len()), Some(b'-' | b'/'))
            })
            .map(|(_, p)| *p)
    })
}

#[test]
fn a_province_without_a_point_of_its_own_takes_its_first_coasts() {
    let p: Vec<(String, (f64, f64))> = [
        ("spain", 1.0),
        ("SPA-sc", 2.0),
        ("spa/nc", 3.0),
        ("spa-nc", 4.0),
        ("bul-ec-x", 5.0),
        ("stp", 6.0),
        ("STP", 7.0),
    ]
    .iter()
    .map(|&(n, x)| (n.to_string(), (x, 0.0)))
    .collect();
    let index = PositionIndex::new(&p);
    // The first coast in the file, whatever its separator or case; not `spain`.
    assert_eq!(index.get("spa"), Some((2.0, 0.0)));
    assert_eq!(index.get("bul"), Some((5.0, 0.0)));
    assert_eq!(index.get("bul-ec"), Some((5.0, 0.0)));
    // Its own point first, the first of that name.
    assert_eq!(index.get("Stp"), Some((6.0, 0.0)));
    assert_eq!(index.get("sp"), None);
    assert_eq!(index.get(""), None);
    assert_eq!(PositionIndex::new(&[]).get("spa"), None);
}

proptest::proptest! {
    /// The index answers as the search did, for names of few letters (so that names, their
    /// coasts and their cases collide often).
    #[test]
    fn the_index_answers_as_the_search_did(
        names in proptest::collection::vec("[aAbB]{0,3}([-/][aAbB]{0,2}){0,2}", 0..40),
        abbrs in proptest::collection::vec("[aAbB]{0,3}(-[ab])?", 1..10),
    ) {
        let p: Vec<(String, (f64, f64))> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), (i as f64, 0.0)))
            .collect();
        let index = PositionIndex::new(&p);
        for a in &abbrs {
            proptest::prop_assert_eq!(index.get(a), position_by_search(&p, a), "{}", a);
            proptest::prop_assert_eq!(position_of(&p, a), position_by_search(&p, a));
        }
    }
}
