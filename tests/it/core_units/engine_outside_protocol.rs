//! The unit tests of the core's `engine::outside::protocol`.

use dipsandbox_core::engine::outside::protocol::*;
use dipsandbox_core::engine::seam::PhaseInput;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;

fn scenario(units: &str, orders: &str) -> Scenario {
    let text = format!(
        "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", units: {{ {units} }}, orders: {{ {orders} }})"
    );
    Scenario::from_ron(&text, "t.ron").unwrap()
}

fn answer(json: &str) -> Answer {
    serde_json::from_str(json).unwrap()
}

#[test]
fn the_request_takes_each_order_apart() {
    let s = scenario(
        "\"England\": [\"F London\", \"A Wales\"]",
        "\"England\": [\"F London Supports A Wales - English Channel\", \"A Wales - English Channel via Convoy\"]",
    );
    let rules = Rules::default();
    let r = request(&PhaseInput::of(&s, &rules), 7);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["protocol"], 1);
    assert_eq!(v["id"], 7);
    assert_eq!(v["kind"], "movement");
    assert_eq!(v["rules"], "datc");
    assert_eq!(v["options"]["paradox"], "Szykman");
    assert_eq!(v["units"][0]["unit"], "F Lon");
    let o = &v["orders"][0];
    assert_eq!(o["order"], "F Lon S A Wal - Eng");
    assert_eq!(o["kind"], "support");
    assert_eq!(o["target"], "A Wal");
    assert_eq!(o["to"], "Eng");
    assert_eq!(v["orders"][1]["via_convoy"], true);
}

#[test]
fn a_bounce_without_units_or_contested_is_worked_out() {
    let s = scenario(
        "\"Germany\": [\"A Berlin\"], \"Russia\": [\"A Warsaw\"]",
        "\"Germany\": [\"A Berlin - Silesia\"], \"Russia\": [\"A Warsaw - Silesia\"]",
    );
    let rules = Rules::default();
    let input = PhaseInput::of(&s, &rules);
    let a = answer(
        r#"{"protocol":1,"id":1,"results":[{"id":0,"result":"fails"},{"id":1,"result":"fails","reason":"bounce"}]}"#,
    );
    let p = answer_to_result(&input, 1, a).unwrap();
    assert_eq!(p.outcomes[0].reason, NO_REASON);
    assert_eq!(p.outcomes[1].reason, "bounce");
    let mut want = s.units.clone();
    want.sort();
    let mut got = p.final_units.clone();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(p.contested, vec![s.map.find_province("Silesia").unwrap()]);
}

#[test]
fn a_dislodgement_takes_its_attacker_from_the_successful_move() {
    let s = scenario(
        "\"England\": [\"A Yorkshire\", \"A Wales\"], \"France\": [\"A London\"]",
        "\"England\": [\"A Yorkshire - London\", \"A Wales Supports A Yorkshire - London\"], \"France\": [\"A London Hold\"]",
    );
    let rules = Rules::default();
    let input = PhaseInput::of(&s, &rules);
    let a = answer(
        r#"{"protocol":1,"id":3,"results":[{"id":0,"result":"succeeds"},{"id":1,"result":"succeeds"},{"id":2,"result":"fails"}],"dislodged":[{"unit":"A lon"}]}"#,
    );
    let p = answer_to_result(&input, 3, a).unwrap();
    let map = &s.map;
    assert_eq!(p.dislodged.len(), 1);
    assert_eq!(p.dislodged[0].unit.describe(map), "A London");
    assert_eq!(
        p.dislodged[0].attacker_from,
        map.find_province("yor").unwrap()
    );
    assert!(!p.dislodged[0].by_convoy);
    let mut ends: Vec<String> = p.final_units.iter().map(|u| u.describe(map)).collect();
    ends.sort();
    assert_eq!(ends, ["A London", "A Wales"]);
    assert!(p.contested.is_empty());
}

#[test]
fn wrong_answers_are_named() {
    let s = scenario(
        "\"Germany\": [\"A Berlin\"]",
        "\"Germany\": [\"A Berlin - Silesia\"]",
    );
    let rules = Rules::default();
    let input = PhaseInput::of(&s, &rules);
    let err = |json: &str| answer_to_result(&input, 1, answer(json)).unwrap_err();
    assert!(err(r#"{"protocol":2,"id":1}"#).contains("protocol 2"));
    assert!(err(r#"{"protocol":1,"id":1,"results":[]}"#).contains("no result for order 0"));
    assert!(
        err(r#"{"protocol":1,"id":1,"results":[{"id":0,"result":"fails"},{"id":0,"result":"fails"}]}"#)
            .contains("two results")
    );
    assert!(
        err(r#"{"protocol":1,"id":1,"results":[{"id":0,"result":"fails"}],"units":[{"power":"Germany","unit":"A Atlantis"}]}"#)
            .contains("the answer's units: unit A Atlantis: ")
    );
    assert!(err(r#"{"protocol":1,"id":1,"shared":true}"#).contains("movement phase"));
    assert!(err(r#"{"protocol":1,"id":1,"error":"no"}"#).contains("could not adjudicate it: no"));
    assert!(serde_json::from_str::<Answer>(r#"{"protocol":1,"id":1,"result":[]}"#).is_err());
}

/// A move the program answers `illegal` (it ignored the order: the Python package refuses an
/// army `via convoy` with no possible route) holds its unit and makes no standoff where it
/// was going.
#[test]
fn an_illegal_move_makes_no_standoff() {
    let s = scenario(
        "\"France\": [\"A Picardy\"]",
        "\"France\": [\"A Picardy - Brest via Convoy\"]",
    );
    let rules = Rules::default();
    let input = PhaseInput::of(&s, &rules);
    let a = answer(
        r#"{"protocol":1,"id":1,"results":[{"id":0,"result":"illegal","reason":"refused"}]}"#,
    );
    let p = answer_to_result(&input, 1, a).unwrap();
    assert_eq!(p.final_units, s.units);
    assert!(p.contested.is_empty(), "{:?}", p.contested);
}

/// A move the run's rules keep to its convoy (an army ordered via convoy, no land fallback:
/// DATC 4.A.3) that fails with its convoy has no path and prevents nothing: no standoff where
/// it was going, though its destination is next door; under a fallback rule it went by land
/// and did.
#[test]
fn a_failed_move_kept_to_its_convoy_makes_no_standoff() {
    let s = scenario(
        "\"France\": [\"A Picardy\", \"F English Channel\"]",
        "\"France\": [\"A Picardy - Brest via Convoy\", \"F English Channel Convoys A Picardy - Brest\"]",
    );
    let answered = r#"{"protocol":1,"id":1,"results":[{"id":0,"result":"fails","reason":"no convoy"},{"id":1,"result":"fails"}]}"#;
    let rules = Rules::default();
    let p = answer_to_result(&PhaseInput::of(&s, &rules), 1, answer(answered)).unwrap();
    assert!(p.contested.is_empty(), "{:?}", p.contested);
    let fallback = Rules::parse_spec("adjacent_convoy_fallback=true").unwrap();
    let p = answer_to_result(&PhaseInput::of(&s, &fallback), 1, answer(answered)).unwrap();
    assert_eq!(p.contested, vec![s.map.find_province("Brest").unwrap()]);
}
