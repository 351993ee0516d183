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
