//! Malformed scenario files: each one is rejected with the exact message a user sees,
//! `file:line:col: message`, pointing at the mistake; none panics.
//!
//! The files are in tests/invalid/scenarios/; the line and column of each expected message were
//! worked out by hand from the file (columns count characters from 1; inside a string the column
//! is that of the offending character).

use std::path::Path;

use dipsandbox::scenario::Scenario;

const DIR: &str = "tests/invalid/scenarios";

const RULE_FIELDS: &str = "`multi_route_disruption`, `paradox`, `paradox_fallback`, `adjacent_convoy`, `adjacent_convoy_fallback`, `convoyed_attack_on_supporter`, `retreat_after_convoy`, `path_specification`, `dislodged_no_effect`, `one_coast_omitted`, `impossible_coast`, `support_coast`, `wrong_unit_coast`, `irrelevant_coast`, `missing_unit_type`, `wrong_unit_type`, `build_missing_type`, `fleet_build_on_land`, `missing_nationality`, `wrong_nationality`, `multiple_orders`, `too_many_builds`, `same_province_builds`, `too_many_disbands`, `civil_disorder`, `illegal_orders`, `dpjudge_phantom_orders`, `dpjudge_beleaguered_disrupts`, `dpjudge_own_victim`";

/// (file, expected message after `path:`), in the order a reader meets the mistakes.
fn cases() -> Vec<(&'static str, String)> {
    let powers = "Austria, England, France, Germany, Italy, Russia, Turkey";
    let phase_help = "expected \"<Spring|Fall|Winter> <year> <Movement|Retreat|Adjustment>\", e.g. \"Spring 1901 Movement\"";
    vec![
        // RON-level mistakes.
        (
            "unknown_field.ron",
            "5:5: unknown field `unitz`; expected one of: `title`, `description`, `source`, `map`, `phase`, `rules`, `units`, `dislodged`, `contested`, `owners`, `orders`, `expect`, `retreats`".into(),
        ),
        ("missing_title.ron", "4:1: missing field `title`".into()),
        ("syntax_error.ron", "4:5: expected `,`, found `phase`".into()),
        (
            "unclosed_list.ron",
            "7:5: expected a string in double quotes, found `}`".into(),
        ),
        (
            "unknown_rule_value.ron",
            "5:22: unknown value `Rule1999`; expected one of: `Szykman`, `Rule1971`, `Rule1982`, `Rule2000`, `AllHold`".into(),
        ),
        (
            "unknown_rule_option.ron",
            format!("5:13: unknown field `paradoks`; expected one of: {RULE_FIELDS}"),
        ),
        // The phase.
        (
            "bad_phase.ron",
            format!(
                "4:12: phase \"Summer 1901 Movement\": unknown season \"summer\"; {phase_help}"
            ),
        ),
        (
            "winter_movement.ron",
            "4:12: phase \"Winter 1901 Movement\": Winter has only the adjustment phase; expected \"Winter 1901 Adjustment\"".into(),
        ),
        // Units.
        (
            "unknown_power.ron",
            format!("6:9: unknown power \"Prussia\"; expected one of {powers}"),
        ),
        (
            "unknown_province_in_unit.ron",
            "6:34: unit \"A Pariss\": unknown province \"Pariss\"; did you mean \"Paris (par)\"?"
                .into(),
        ),
        (
            "fleet_without_coast.ron",
            "6:20: unit \"F Spain\": a fleet in Spain must name its coast: Spain(nc) or Spain(sc)"
                .into(),
        ),
        (
            "fleet_wrong_coast.ron",
            "6:20: unit \"F Spain(ec)\": Spain has no east coast; expected Spain(nc) or Spain(sc)"
                .into(),
        ),
        (
            "two_units_one_province.ron",
            "7:21: two units in Brest: French A Brest and English F Brest; a province holds one unit"
                .into(),
        ),
        (
            "two_fleets_two_coasts.ron",
            "7:19: two units in Spain: French F Spain(nc) and Italian F Spain(sc); a province holds one unit"
                .into(),
        ),
        (
            "army_at_sea.ron",
            "6:21: unit \"A North Sea\": an army cannot stand in North Sea, a sea".into(),
        ),
        (
            "fleet_inland.ron",
            "6:20: unit \"F Paris\": a fleet cannot stand in Paris, an inland province".into(),
        ),
        (
            "dislodged_in_movement.ron",
            "8:5: `dislodged` units belong to a retreat phase, but the phase is Spring 1901 Movement"
                .into(),
        ),
        // Supply-centre owners.
        (
            "owners_not_supply_centre.ron",
            "7:29: Burgundy is not a supply centre, so it cannot be owned".into(),
        ),
        (
            "owners_twice.ron",
            "7:32: Belgium is listed as owned by both France and Germany; a centre has one owner"
                .into(),
        ),
        // Orders: the column is that of the bad word inside the string.
        (
            "bad_order_text.ron",
            "9:36: order \"A Liverpool - Edinbrugh\": unknown province \"Edinbrugh\"; did you mean \"Edinburgh (edi)\"?".into(),
        ),
        (
            "order_wrong_power_prefix.ron",
            "10:13: order \"England: A Paris - Burgundy\" is prefixed England but listed under France"
                .into(),
        ),
        // Expectations.
        (
            "result_key_no_order.ron",
            "13:14: result for \"A Paris - Picardy\", but `orders` has no such order (or it already has a result); keys must repeat an order's text".into(),
        ),
        (
            "result_key_twice.ron",
            "14:14: result for \"A Par - Bur\", but `orders` has no such order (or it already has a result); keys must repeat an order's text".into(),
        ),
    ]
}

/// Loads a file that must fail, and returns the error's Display text.
fn load_error(file: &str) -> String {
    let path = Path::new(DIR).join(file);
    match Scenario::load(&path) {
        Ok(s) => panic!("{} should not load (title {:?})", path.display(), s.title),
        Err(e) => e.to_string(),
    }
}

// A user loads each malformed scenario and reads an exact message that names file, line and
// column and says what is wrong.
#[test]
fn malformed_scenarios_give_exact_errors() {
    let mut wrong = Vec::new();
    for (file, message) in cases() {
        let expected = format!("{DIR}/{file}:{message}");
        let got = load_error(file);
        if got != expected {
            wrong.push(format!("{file}\n   got: {got}\n  want: {expected}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// A user who names a map that does not exist is told which scenario and which map name.
#[test]
fn unknown_map_is_reported() {
    let got = load_error("unknown_map.ron");
    assert_eq!(
        got,
        "tests/invalid/scenarios/unknown_map.ron:4:10: map \"atlantis\": no map named \"atlantis\": expected `standard`, a file maps/<name>.ron, or a path to a .ron map file"
    );
}

// The library promises that every error from a file names its line and column; the unknown map
// should point at the `map` value (line 4, column 10).
#[test]
fn unknown_map_names_line_and_column() {
    let got = load_error("unknown_map.ron");
    assert!(
        got.starts_with("tests/invalid/scenarios/unknown_map.ron:4:10: "),
        "{got}"
    );
}

// A user who loads a file that is not there is told the file and the reason.
#[test]
fn missing_file_is_reported() {
    let got = load_error("no_such_file.ron");
    assert!(
        got.starts_with("tests/invalid/scenarios/no_such_file.ron: cannot read: "),
        "{got}"
    );
}

// Every file in tests/invalid/scenarios has an expected message above (so none is forgotten),
// there are at least ten, and loading any of them returns an error instead of panicking.
#[test]
fn every_malformed_scenario_is_covered_and_none_panics() {
    let mut listed: Vec<String> = cases().into_iter().map(|(f, _)| f.to_string()).collect();
    listed.push("unknown_map.ron".into());
    listed.sort();
    let mut on_disk: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    assert_eq!(on_disk, listed);
    assert!(on_disk.len() >= 10);
    for file in on_disk {
        let path = Path::new(DIR).join(&file);
        match std::panic::catch_unwind(|| Scenario::load(&path)) {
            Ok(Ok(_)) => panic!("{file} loaded"),
            Ok(Err(_)) => {}
            Err(_) => panic!("{file} panicked"),
        }
    }
}

// The same mistakes given as text (e.g. from an editor buffer) name the buffer's name instead of
// a path.
#[test]
fn from_ron_uses_the_given_name() {
    let text = std::fs::read_to_string(Path::new(DIR).join("bad_order_text.ron")).unwrap();
    let e = Scenario::from_ron(&text, "<buffer>").unwrap_err();
    assert_eq!(
        e.to_string(),
        "<buffer>:9:36: order \"A Liverpool - Edinbrugh\": unknown province \"Edinbrugh\"; did you mean \"Edinburgh (edi)\"?"
    );
}
