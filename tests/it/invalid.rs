//! Malformed input for the three loaders — scenarios, maps and jDip test files: each file in
//! `tests/invalid/` is rejected with the exact message a user sees, naming the file, line and
//! column, what was found and what was expected; none panics; and every file on disk is listed
//! in a table here, so none is forgotten.
//!
//! The line and column of each expected message were worked out by hand from the file (columns
//! count characters from 1; inside a string the column is that of the offending character; a
//! tab is one character).
//!
//! Each section begins with the list of the error sites of its loader and the file that reaches
//! each. Sites that no input can reach are named there too, with the reason.

use std::path::Path;

/// The built-in maps, as the "no map named" message lists them.
const BUILT_IN_MAPS: &str =
    "standard, 1898, ancmed, chaos, garrisons, hundred, modern, pure, test7, world, youngstown";

use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::scenario::Scenario;

/// The sorted names of the files in `dir`, leaving out companions (`X.rules` beside `X`).
fn files_in(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| !f.ends_with(".rules"))
        .collect();
    v.sort();
    v
}

/// The sorted first elements of a table.
fn listed<T>(cases: &[(&'static str, T)]) -> Vec<String> {
    let mut v: Vec<String> = cases.iter().map(|(f, _)| f.to_string()).collect();
    v.sort();
    v
}

/// The rows whose message is not the one expected, as `file / got / want`.
fn mismatches(rows: impl IntoIterator<Item = (String, String, String)>) -> String {
    rows.into_iter()
        .filter(|(_, got, want)| got != want)
        .map(|(file, got, want)| format!("{file}\n   got: {got}\n  want: {want}"))
        .collect::<Vec<_>>()
        .join("\n")
}

// ## Scenarios: `Scenario::load` (src/scenario.rs), files in tests/invalid/scenarios/
//
// Site (where the message is made)                          File (or test below)
// Reading, src/source.rs `read_text`:
//   `ReadError::Io`: no such file                            missing_file_is_reported
//   `ReadError::NotAFile`: a folder; a FIFO or device        a_folder_or_a_device_is_not_read
//   `ReadError::TooLarge`: over 64 MB                        tests/limits.rs, a_100_mb_file_is_refused_before_it_is_read
//   `ReadError::NotUtf8`                                     not_utf8
// RON, `ScenarioError::Syntax` worded by src/error.rs `ron_message_in`:
//   unknown field, in the scenario / in `rules`              unknown_field, unknown_rule_option
//   missing field; a field given twice                       missing_title, duplicate_field
//   unknown value of an enum                                 unknown_rule_value
//   a missing comma; at the end of the file                  syntax_error, unclosed_scenario
//   another kind of value than expected                      unclosed_list, wrong_type
//   the single-quote hint                                    single_quotes
//   text after the scenario                                  trailing_text
//   the file ends inside a value                             truncated
//   (The second parse in `Scenario::from_ron`, run when the quiet first pass fails, parses the
//   text the first parse accepted: its `Syntax` error cannot happen.)
// The map (`map:`), `Scenario::from_ron`:
//   no such map                                              unknown_map
//   the map is found but invalid (its own error, nested)     map_invalid
// The phase, src/board.rs `Phase::parse`:
//   not three words; season; year; kind; Winter              phase_two_words, bad_phase, phase_bad_year, phase_bad_kind, winter_movement
// `Builder::power`: unknown power (units, dislodged, owners, orders)   unknown_power
// `Builder::unit` (units, dislodged units, expected positions and dislodged units):
//   the text, src/orders.rs `parse_unit`                     unknown_province_in_unit, unit_without_letter, unit_trailing_text, unit_unclosed_coast
//   no such coast; a fleet must name its coast               fleet_wrong_coast, fleet_without_coast
//   an army at sea; a fleet inland                           army_at_sea, fleet_inland
//   (in `expect: (dislodged: …)`)                            expect_dislodged_army_at_sea
// `Builder::units`: two units in one province                two_units_one_province, two_fleets_two_coasts
// `dislodged`: not a retreat phase; the attacker's origin    dislodged_in_movement, dislodged_bad_origin
// `contested`: the province (`parse_loc`)                    contested_unknown_province
// `owners`: the centre (`parse_loc`); not a centre; twice    owners_bad_coast, owners_not_supply_centre, owners_twice
// `orders`, `Builder::orders`: prefixed by another power     order_wrong_power_prefix
// `orders`, src/orders.rs `parse_order`, each message:
//   unknown province, with / without a suggestion           bad_order_text, retreat_order_unknown_province
//   expected a province, found the end / found punctuation  order_missing_destination, order_punctuation_for_province
//   a coast: in parentheses; the `)`; after `/`              order_bad_coast, unit_unclosed_coast, owners_bad_coast
//   text after the end                                      unit_trailing_text
//   unknown `Power:` prefix; empty order                    order_unknown_power_prefix, order_empty
//   no action; unknown action; convoy without `-`           order_without_action, order_unknown_action, order_convoy_without_destination
//   a unit without A or F (`parse_unit`)                    unit_without_letter
// `expect`, `Builder::expect`:
//   a result key that is no order (`parse_order`)           result_key_bad_order
//   no such order, or it already has a result               result_key_no_order, result_key_twice
// `retreats`: not after a movement phase; their orders      retreats_after_retreat, retreat_order_unknown_province

const SCENARIOS: &str = "tests/invalid/scenarios";

const RULE_FIELDS: &str = "`multi_route_disruption`, `paradox`, `paradox_fallback`, `adjacent_convoy`, `adjacent_convoy_fallback`, `convoyed_attack_on_supporter`, `retreat_after_convoy`, `path_specification`, `dislodged_no_effect`, `one_coast_omitted`, `impossible_coast`, `support_coast`, `wrong_unit_coast`, `irrelevant_coast`, `missing_unit_type`, `wrong_unit_type`, `build_missing_type`, `fleet_build_on_land`, `missing_nationality`, `wrong_nationality`, `multiple_orders`, `too_many_builds`, `same_province_builds`, `too_many_disbands`, `civil_disorder`, `illegal_orders`, `dpjudge_phantom_orders`, `dpjudge_beleaguered_disrupts`, `dpjudge_own_victim`, `dpjudge_no_convoy_list`, `dpjudge_swap_victim`, `dpjudge_threat_count`";

/// (file, expected message after `path:`), in the order a reader meets the mistakes.
fn scenario_cases() -> Vec<(&'static str, String)> {
    let powers = "Austria, England, France, Germany, Italy, Russia, Turkey";
    let phase_help = "expected \"<Spring|Fall|Winter> <year> <Movement|Retreat|Adjustment>\", e.g. \"Spring 1901 Movement\"";
    let no_province = "expected a province name or abbreviation (see `dipsandbox maps`)";
    vec![
        // Reading.
        (
            "not_utf8.ron",
            "3:16: not UTF-8 text: byte 0xe9 cannot start or continue a character; expected UTF-8 text".into(),
        ),
        // RON-level mistakes.
        (
            "unknown_field.ron",
            "5:5: unknown field `unitz` (did you mean `units`?); expected one of: `title`, `description`, `source`, `map`, `phase`, `rules`, `units`, `dislodged`, `contested`, `owners`, `orders`, `expect`, `retreats`".into(),
        ),
        ("missing_title.ron", "4:1: missing field `title`".into()),
        (
            "duplicate_field.ron",
            "4:5: field `title` is given twice; give each field once".into(),
        ),
        // The comma is missing after the title (line 3): pointed at the next field.
        ("syntax_error.ron", "4:5: expected `,`, found `phase`".into()),
        (
            "unclosed_scenario.ron",
            "5:1: expected `,` or a closing bracket, found the end of the file".into(),
        ),
        (
            "unclosed_list.ron",
            "7:5: expected a string in double quotes, found `}`".into(),
        ),
        (
            "wrong_type.ron",
            "5:15: expected `[` (a list), found `\"Burgundy\"`".into(),
        ),
        (
            "single_quotes.ron",
            "3:11: expected a string in double quotes, found `'`; strings take double quotes (\"Paris\"), not single quotes".into(),
        ),
        (
            "trailing_text.ron",
            "5:2: expected nothing after the end of the value, found `Scenario`".into(),
        ),
        (
            "truncated.ron",
            "2:10: expected the rest of the value, found the end of the file (a bracket or a string is not closed)".into(),
        ),
        (
            "unknown_rule_value.ron",
            "5:22: unknown value `Rule1999`; expected one of: `Szykman`, `Rule1971`, `Rule1982`, `Rule2000`, `AllHold`".into(),
        ),
        (
            "unknown_rule_option.ron",
            format!("5:13: unknown field `paradoks` (did you mean `paradox`?); expected one of: {RULE_FIELDS}"),
        ),
        // The map.
        (
            "unknown_map.ron",
            format!("4:10: map \"atlantis\": no map named \"atlantis\": expected a built-in map ({BUILT_IN_MAPS}), a file maps/<name>.ron, or a path to a .ron map file"),
        ),
        (
            "map_invalid.ron",
            "4:10: map \"../maps/duplicate_name.ron\": tests/invalid/scenarios/../maps/duplicate_name.ron:15:19: name \"Alpha\" of province \"bbb\" is already used by province \"aaa\"; names must be unique".into(),
        ),
        // The phase.
        (
            "phase_two_words.ron",
            format!("4:12: phase \"Spring Movement\": {phase_help}"),
        ),
        (
            "bad_phase.ron",
            format!(
                "4:12: phase \"Summer 1901 Movement\": unknown season \"summer\"; {phase_help}"
            ),
        ),
        (
            "phase_bad_year.ron",
            format!(
                "4:12: phase \"Spring 19o1 Movement\": year \"19o1\" is not a number; {phase_help}"
            ),
        ),
        (
            "phase_bad_kind.ron",
            format!(
                "4:12: phase \"Spring 1901 Battle\": unknown phase kind \"battle\"; {phase_help}"
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
            "unit_without_letter.ron",
            "6:21: unit \"Paris\": expected a unit letter, A or F, before the province".into(),
        ),
        (
            "unit_trailing_text.ron",
            "6:29: unit \"A Paris Hold\": unexpected \"Hold\" after the end of the order".into(),
        ),
        (
            "unit_unclosed_coast.ron",
            "6:31: unit \"F Spain(nc\": expected ')' after the coast, found the end of the order"
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
        // Dislodged units and contested provinces.
        (
            "dislodged_in_movement.ron",
            "8:5: `dislodged` units belong to a retreat phase, but the phase is Spring 1901 Movement"
                .into(),
        ),
        (
            "dislodged_bad_origin.ron",
            "9:57: attacker origin \"Hollland\": unknown province \"Hollland\"; did you mean \"Holland (hol)\"?".into(),
        ),
        (
            "contested_unknown_province.ron",
            format!(
                "5:18: contested province \"Xyzzy\": unknown province \"Xyzzy\"; {no_province}"
            ),
        ),
        // Supply-centre owners.
        (
            "owners_bad_coast.ron",
            "6:36: supply centre \"Brest/\": expected a coast such as nc, sc, ec or wc after '/', found the end of the order".into(),
        ),
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
        (
            "order_unknown_power_prefix.ron",
            format!(
                "9:21: order \"Prussia: A Paris Hold\": unknown power \"Prussia\"; expected one of {powers}"
            ),
        ),
        (
            "order_empty.ron",
            "9:21: order \"\": empty order; expected e.g. \"A Paris - Burgundy\"".into(),
        ),
        (
            "order_without_action.ron",
            "9:28: order \"A Paris\": expected an order after the unit (Hold, -, Supports, Convoys, Disband, Build, Remove), found the end of the order".into(),
        ),
        (
            "order_unknown_action.ron",
            "9:29: order \"A Paris Attacks Burgundy\": expected Hold, '-', Supports, Convoys, Disband, Build or Remove after the unit, found \"Attacks\"".into(),
        ),
        (
            "order_missing_destination.ron",
            "9:30: order \"A Paris -\": expected a province name, found the end of the order".into(),
        ),
        (
            "order_punctuation_for_province.ron",
            "9:31: order \"A Paris - ?\": expected a province name, found \"?\"".into(),
        ),
        (
            "order_convoy_without_destination.ron",
            "9:50: order \"F North Sea Convoys A London\": expected '-' and the convoyed army's destination, found the end of the order".into(),
        ),
        (
            "order_bad_coast.ron",
            "9:50: order \"F Mid-Atlantic Ocean - Spain(xx)\": expected a coast such as nc, sc, ec or wc inside parentheses, found \"xx\"".into(),
        ),
        // Expectations.
        (
            "result_key_bad_order.ron",
            "13:25: result key \"A Paris - Burgundyy\": unknown province \"Burgundyy\"; did you mean \"Burgundy (bur)\"?".into(),
        ),
        (
            "result_key_no_order.ron",
            "13:14: result for \"A Paris - Picardy\", but `orders` has no such order (or it already has a result); keys must repeat an order's text".into(),
        ),
        (
            "result_key_twice.ron",
            "14:14: result for \"A Par - Bur\", but `orders` has no such order (or it already has a result); keys must repeat an order's text".into(),
        ),
        (
            "expect_dislodged_army_at_sea.ron",
            "9:21: unit \"A North Sea\": an army cannot stand in North Sea, a sea".into(),
        ),
        // Retreats after the movement phase.
        (
            "retreats_after_retreat.ron",
            "5:5: `retreats` follow a movement phase, but the phase is Fall 1901 Retreat".into(),
        ),
        (
            "retreat_order_unknown_province.ron",
            format!(
                "10:35: order \"A Paris - Nowhere\": unknown province \"Nowhere\"; {no_province}"
            ),
        ),
    ]
}

/// Loads a scenario that must fail, and returns the error's Display text.
fn scenario_error(file: &str) -> String {
    let path = Path::new(SCENARIOS).join(file);
    match Scenario::load(&path) {
        Ok(s) => panic!("{} should not load (title {:?})", path.display(), s.title),
        Err(e) => e.to_string(),
    }
}

// A user loads each malformed scenario and reads an exact message that names file, line and
// column and says what was found and what was expected.
#[test]
fn malformed_scenarios_give_exact_errors() {
    let wrong = mismatches(scenario_cases().into_iter().map(|(file, message)| {
        (
            file.to_string(),
            scenario_error(file),
            format!("{SCENARIOS}/{file}:{message}"),
        )
    }));
    assert!(wrong.is_empty(), "{wrong}");
}

// Every file in tests/invalid/scenarios has an expected message above (so none is forgotten),
// and loading any of them returns an error instead of panicking.
#[test]
fn every_malformed_scenario_is_covered_and_none_panics() {
    let on_disk = files_in(SCENARIOS);
    assert_eq!(on_disk, listed(&scenario_cases()));
    assert!(on_disk.len() >= 50, "{}", on_disk.len());
    for file in on_disk {
        let path = Path::new(SCENARIOS).join(&file);
        match std::panic::catch_unwind(|| Scenario::load(&path)) {
            Ok(Ok(_)) => panic!("{file} loaded"),
            Ok(Err(_)) => {}
            Err(_) => panic!("{file} panicked"),
        }
    }
}

// A user who loads a file that is not there is told the file and the reason.
#[test]
fn missing_file_is_reported() {
    let got = scenario_error("no_such_file.ron");
    assert!(
        got.starts_with("tests/invalid/scenarios/no_such_file.ron: cannot read: "),
        "{got}"
    );
}

// A folder, or a device that might never end, is refused before it is read.
#[test]
fn a_folder_or_a_device_is_not_read() {
    let e = Scenario::load(Path::new(SCENARIOS)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tests/invalid/scenarios: cannot read: it is a folder, not a file"
    );
    #[cfg(unix)]
    {
        let e = Scenario::load(Path::new("/dev/null")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/null: cannot read: it is a FIFO, socket or device, not a file"
        );
    }
}

// The same mistakes given as text (e.g. from an editor buffer) name the buffer's name instead of
// a path.
#[test]
fn from_ron_uses_the_given_name() {
    let text = std::fs::read_to_string(Path::new(SCENARIOS).join("bad_order_text.ron")).unwrap();
    let e = Scenario::from_ron(&text, "<buffer>").unwrap_err();
    assert_eq!(
        e.to_string(),
        "<buffer>:9:36: order \"A Liverpool - Edinbrugh\": unknown province \"Edinbrugh\"; did you mean \"Edinburgh (edi)\"?"
    );
}

// ## Maps: `Map::load` (crates/core/src/model/map/load.rs `build`, model/art.rs `MapArt::new`), files in
// tests/invalid/maps/
//
// Site (where the message is made)                          File (or test below)
// Reading, src/source.rs `read_text`: as for scenarios; not UTF-8      not_utf8
// No such map (`MapError::NotFound`)                         scenarios/unknown_map, tests/map.rs unknown_map_name
// RON, `MapError::Syntax`: a missing comma; unknown field; missing field   syntax_error, unknown_field, missing_field
// Limits:
//   more than MAX_POWERS (250) powers                        too_many_powers
//   more than MAX_PROVINCES provinces or MAX_LOCATIONS locations: cannot be reached from a file,
//   which is refused over 64 MB (src/source.rs MAX_FILE_BYTES) while 2^26 provinces take far
//   more; only `Map::from_ron` on gigabytes of text reaches it
// Provinces (pass 1):
//   abbreviation empty or with '/'                           bad_abbreviation
//   a name used twice (name, abbreviation, alias, any case)  duplicate_name, duplicate_alias
//   coasts on a province that is not Coast                   coasts_on_inland, coasts_on_inland_second
//   one coast; `fleet` beside coasts                         one_coast, fleet_and_coasts
//   unknown coast; a coast twice                             unknown_coast, coast_twice
// Borders (pass 2):
//   army: unknown province; into a sea                       unknown_army_border, army_border_to_sea
//   fleet: inland province with fleet borders                inland_fleet_borders
//   fleet: unknown location; into an inland province         unknown_border, fleet_border_inland
//   fleet: into a two-coast province without the coast       fleet_border_without_coast
//   army / fleet border listed from one side only            asymmetric_army_border, asymmetric_fleet_border
// Powers:
//   a name used by another power; twice by one power         power_name_twice, power_alias_is_name
//   home centre: unknown; not a supply centre; of two powers unknown_home_centre, home_not_supply_centre, home_centre_two_powers
//   an unowned home centre that is not a home centre         unowned_home_not_home
//   start unit that does not read like "A par"               bad_start_unit
// Board art, src/art.rs:
//   a non-ASCII character; larger than 1000×1000             art_non_ascii, art_too_large
//   65535 provinces or more with art                         art_with_too_many_provinces (a 4 MB map, made by the test)
//   a province without anchor; its slot outside the art      art_no_anchor, art_anchor_outside
//   the slot not blank; two anchors in one region            art_slot_not_blank, art_regions_meet

const MAPS: &str = "tests/invalid/maps";

/// (file, expected message after `path:`).
fn map_cases() -> Vec<(&'static str, String)> {
    let name_help = "expected a province's abbreviation, name or alias";
    vec![
        (
            "not_utf8.ron",
            "4:16: not UTF-8 text: byte 0xe9 cannot start or continue a character; expected UTF-8 text".into(),
        ),
        // A forgotten comma is pointed at the token where the comma was expected (line 9,
        // `name`, right after `abbr: "aaa"` on line 8).
        ("syntax_error.ron", "9:13: expected `,`, found `name`".into()),
        (
            "unknown_field.ron",
            "12:13: unknown field `armies`; expected one of: `abbr`, `name`, `aliases`, `kind`, `supply_center`, `army`, `fleet`, `coasts`, `anchor`, `position`".into(),
        ),
        ("missing_field.ron", "11:9: missing field `kind`".into()),
        // At the name of the 251st power.
        (
            "too_many_powers.ron",
            "256:21: a map has at most 250 powers; this one has 251".into(),
        ),
        // Provinces.
        (
            "bad_abbreviation.ron",
            "8:19: province abbreviation \"a/b\" must be non-empty and contain no '/'".into(),
        ),
        // Pointed at the second use of the name (line 15, Bravo's `name: "Alpha"`), which is
        // the one to change.
        (
            "duplicate_name.ron",
            "15:19: name \"Alpha\" of province \"bbb\" is already used by province \"aaa\"; names must be unique".into(),
        ),
        // Names are compared without case: an alias "AAA" clashes with the abbreviation "aaa".
        (
            "duplicate_alias.ron",
            "16:23: name \"AAA\" of province \"bbb\" is already used by province \"aaa\"; names must be unique".into(),
        ),
        (
            "coasts_on_inland.ron",
            "8:19: province \"aaa\" is Land but lists coasts; only Coast provinces can have coasts"
                .into(),
        ),
        // The faulty province's own `abbr: "bbb"` (line 16), not the earlier mention of "bbb"
        // in Alpha's army list (line 13).
        (
            "coasts_on_inland_second.ron",
            "16:19: province \"bbb\" is Land but lists coasts; only Coast provinces can have coasts"
                .into(),
        ),
        (
            "one_coast.ron",
            "8:19: province \"aaa\" lists one coast; list two or more, or none".into(),
        ),
        (
            "fleet_and_coasts.ron",
            "8:19: province \"aaa\" has coasts, so its fleet borders belong in its coasts, not in `fleet`".into(),
        ),
        (
            "unknown_coast.ron",
            "14:29: unknown coast \"xc\" in province \"aaa\"; expected nc, sc, ec or wc".into(),
        ),
        (
            "coast_twice.ron",
            "8:19: province \"aaa\" lists coast nc twice; list each coast once".into(),
        ),
        // Borders.
        (
            "unknown_army_border.ron",
            format!(
                "12:20: unknown province \"zzz\" in the army borders of \"aaa\"; {name_help}"
            ),
        ),
        (
            "army_border_to_sea.ron",
            "12:20: army border \"aaa\"–\"sss\": armies cannot enter sea provinces".into(),
        ),
        (
            "inland_fleet_borders.ron",
            "12:13: inland province \"aaa\" lists fleet borders; fleets cannot enter inland provinces".into(),
        ),
        (
            "unknown_border.ron",
            format!(
                "12:21: unknown location \"zzz\" in the fleet borders of \"aaa\"; {name_help}, with its coast (\"spa/nc\") where it has several"
            ),
        ),
        (
            "fleet_border_inland.ron",
            "18:21: fleet border \"sss\"–\"aaa\": fleets cannot enter inland provinces".into(),
        ),
        (
            "fleet_border_without_coast.ron",
            "22:21: fleet border \"sss\"–\"aaa\": \"aaa\" has several coasts; name the coast, e.g. \"aaa/nc\"".into(),
        ),
        // A border written from one side only: pointed at the province that lacks it (line 15,
        // `abbr: "bbb"`).
        (
            "asymmetric_army_border.ron",
            "15:13: army border \"aaa\"–\"bbb\" is listed by \"aaa\" but not by \"bbb\"; list every border from both sides".into(),
        ),
        (
            "asymmetric_fleet_border.ron",
            "15:13: fleet border \"aaa\"–\"sss\" is listed by \"aaa\" but not by \"sss\"; list every border from both sides".into(),
        ),
        // Powers.
        (
            "power_name_twice.ron",
            "7:40: power name \"Red\" of Blue is already used by Red; names must be unique".into(),
        ),
        (
            "power_alias_is_name.ron",
            "7:21: power name \"red\" is given twice for Red (as its name, adjective or an alias); give each name once".into(),
        ),
        (
            "unknown_home_centre.ron",
            format!("6:57: unknown home centre \"zzz\" of Red; {name_help}"),
        ),
        (
            "home_not_supply_centre.ron",
            "9:20: home centre \"aaa\" of Red is not a supply centre; set supply_center: true or remove it".into(),
        ),
        (
            "home_centre_two_powers.ron",
            "7:57: home centre \"Alpha\" of Blue is already a home centre of Red; a centre has one home power".into(),
        ),
        (
            "unowned_home_not_home.ron",
            "12:29: unowned home centre \"bbb\" of Red: expected one of its home centres".into(),
        ),
        // Pointed at the start list's "aaa", not the home list's before it.
        (
            "bad_start_unit.ron",
            "6:73: start unit \"aaa\" of Red should read like \"A par\" or \"F stp/sc\"".into(),
        ),
        // Board art: rows and columns count from 0, as the anchors do.
        (
            "art_non_ascii.ron",
            "26:9: art row 1 has the non-ASCII character 'é' at column 9; the art is plain ASCII, one character a cell".into(),
        ),
        (
            "art_too_large.ron",
            "24:5: art is 1001×3; at most 1000×1000 is accepted".into(),
        ),
        (
            "art_no_anchor.ron",
            "16:19: province \"bbb\" has no anchor; with art, every province needs `anchor: (x, y)`"
                .into(),
        ),
        (
            "art_anchor_outside.ron",
            "21:13: the anchor (20, 1) of \"bbb\" puts its slot (columns 19..=23, row 1) outside the 13×3 art".into(),
        ),
        (
            "art_slot_not_blank.ron",
            "21:13: the slot of \"bbb\" at (6, 1) is not blank: '|' at column 6; columns 5..=9 of row 1 must be spaces".into(),
        ),
        (
            "art_regions_meet.ron",
            "21:13: the anchor of \"bbb\" lies in the region of \"aaa\": their regions meet; close the border between them".into(),
        ),
    ]
}

/// Loads a map that must fail, and returns the error's Display text.
fn map_error(file: &str) -> String {
    let path = format!("{MAPS}/{file}");
    match Map::load(&path) {
        Ok(m) => panic!("{path} should not load (name {:?})", m.name),
        Err(e) => e.to_string(),
    }
}

// A user loads each malformed map and reads an exact message naming file, line and column.
#[test]
fn malformed_maps_give_exact_errors() {
    let wrong = mismatches(map_cases().into_iter().map(|(file, message)| {
        (
            file.to_string(),
            map_error(file),
            format!("{MAPS}/{file}:{message}"),
        )
    }));
    assert!(wrong.is_empty(), "{wrong}");
}

// Every file in tests/invalid/maps has an expected message above, and none panics.
#[test]
fn every_malformed_map_is_covered_and_none_panics() {
    let on_disk = files_in(MAPS);
    assert_eq!(on_disk, listed(&map_cases()));
    for file in on_disk {
        let path = format!("{MAPS}/{file}");
        match std::panic::catch_unwind(|| Map::load(&path)) {
            Ok(Ok(_)) => panic!("{file} loaded"),
            Ok(Err(_)) => {}
            Err(_) => panic!("{file} panicked"),
        }
    }
}

// Art keeps a province index in 16 bits per cell: a map with art and 65535 provinces (4 MB of
// text, made here rather than kept as a file) is refused at its `art` field. The slow tier: the
// limit is the size itself, no smaller map reaches it.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn art_with_too_many_provinces() {
    let n = 65_535;
    let mut text = String::from("Map(name: \"big\", title: \"Big\", powers: [], provinces: [\n");
    for i in 0..n {
        text.push_str(&format!(
            "Province(abbr: \"p{i}\", name: \"n{i}\", kind: Land, supply_center: false, anchor: (1, 0)),\n"
        ));
    }
    text.push_str("], art: [\"      \"])\n");
    let e = Map::from_ron(&text, "big.ron").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "big.ron:{}:4: a map with art has at most 65534 provinces; this one has 65535",
            n + 2
        )
    );
}

// ## jDip test files: `jdip::parse` and `jdip::apply_rules_file` (src/jdip.rs), files in
// tests/invalid/jdip/ (`X.txt.rules` is the pairing file of `X.txt`)
//
// A `Problem` reads `file:line:col: case NAME: message`, as `dipsandbox check` and `import`
// print it; the other cases of the file still come through. Warnings (an assumption made, the
// case imported) are listed after the problems, as `check` prints them.
//
// Site (where the message is made)                          File
// `parse`, line by line:
//   a variant other than Standard                            variant
//   CASE before the END of the case before                   case_before_end
//   END without a CASE                                       end_without_case
//   a line outside CASE … END                                outside_case
//   a PRESTATE_RESULTS line without SUCCESS:/FAILURE:        results_line
//   a line before any section keyword                        no_section
//   the file ends inside a case                              no_end
// `build`, per case:
//   the phase (`Phase::parse`; each of its messages is covered by the scenarios)   bad_phase
//   a unit: no power; an unknown power (`split_power`)       unit_without_power, unit_unknown_power
//   a unit: its text (`parse_unit`)                          unit_unknown_province
//   a unit: no such coast, on a two-coast / one-coast province   unit_no_such_coast, unit_coast_of_one_coast_province
//   (`parse_unit` refuses a unit without A or F, so the unit's type is always there: the check
//   that followed it could not fail and is gone)
//   a position: army at sea; fleet inland; fleet without its coast; army on a coast   army_at_sea, fleet_inland, fleet_without_coast, army_on_coast
//   a position: two units in one province                    two_units
//   a centre owner that is not a supply centre               owner_not_centre
//   dislodged units outside a retreat phase                  dislodged_in_movement
//   an order: no power; its text (with the column on the line); prefixed by another power   order_without_power, order_unknown_province, order_other_power
//   neither POSTSTATE nor POSTSTATE_SAME                     no_poststate
//   a `# dipsandbox-rules:` comment that does not parse      bad_rules_directive
// `apply_rules_file`, per line of the pairing file:
//   no rules after the name; rules that do not parse; no such case; a case not imported   rules_file
// Warnings: a misspelled power read as the one close; no attacker in the results   warnings

const JDIP: &str = "tests/invalid/jdip";

/// (file, the problems and warnings, in order, each without the `file:` prefix).
fn jdip_cases() -> Vec<(&'static str, Vec<String>)> {
    let no_province = "expected a province name or abbreviation (see `dipsandbox maps`)";
    let one = |m: &str| vec![m.to_string()];
    vec![
        (
            "variant.txt",
            one(
                ":2:13: variant \"Fleet_Rome\": only the standard map is known (expected Standard or DATC_Standard); its cases are read as standard",
            ),
        ),
        (
            "case_before_end.txt",
            one(
                ":7:1: case first: expected END before the next CASE; the unfinished case is skipped",
            ),
        ),
        (
            "end_without_case.txt",
            one(":9:1: END without a CASE before it; expected CASE <name> first"),
        ),
        (
            "outside_case.txt",
            one(
                ":2:2: \"England: F nth\" outside a CASE … END block; expected CASE <name> or VARIANT_ALL",
            ),
        ),
        (
            "results_line.txt",
            one(
                ":7:2: case results: \"DONE: England: F lon-nth\": expected SUCCESS: or FAILURE: and an order",
            ),
        ),
        (
            "no_section.txt",
            one(
                ":3:2: case nosection: \"England: F nth\": expected a section keyword (PRESTATE, ORDERS, POSTSTATE, …)",
            ),
        ),
        // At the end of the last line.
        (
            "no_end.txt",
            one(
                ":13:18: case unfinished: the file ends inside the case begun on line 9; expected END",
            ),
        ),
        (
            "bad_phase.txt",
            one(
                ":3:19: case phase: phase \"Summer 1901, Movement\": unknown season \"summer\"; expected \"<Spring|Fall|Winter> <year> <Movement|Retreat|Adjustment>\", e.g. \"Spring 1901 Movement\"",
            ),
        ),
        (
            "unit_without_power.txt",
            one(
                ":4:2: case nopower: \"F nth\": expected \"Power: A|F province\", found \"F\" where the power should be",
            ),
        ),
        (
            "unit_unknown_power.txt",
            one(
                ":4:2: case unknownpower: \"Atlantis: A ber\": unknown power \"Atlantis\"; expected one of Austria, England, France, Germany, Italy, Russia, Turkey before the unit",
            ),
        ),
        (
            "unit_unknown_province.txt",
            vec![format!(
                ":4:13: case unknownprovince: \"England: F xyz\": unknown province \"xyz\"; {no_province}"
            )],
        ),
        (
            "unit_no_such_coast.txt",
            one(
                ":4:10: case nosuchcoast: \"France: F spa/ec\": Spain has no east coast; expected spa/nc or spa/sc",
            ),
        ),
        (
            "unit_coast_of_one_coast_province.txt",
            one(
                ":4:10: case onecoast: \"France: F bre/nc\": Brest has no north coast; write bre without a coast",
            ),
        ),
        (
            "army_at_sea.txt",
            one(
                ":4:11: case armyatsea: \"England: A nth\": an army cannot stand in North Sea, a sea",
            ),
        ),
        (
            "fleet_inland.txt",
            one(
                ":4:10: case fleetinland: \"Russia: F war\": a fleet cannot stand in Warsaw, an inland province",
            ),
        ),
        (
            "fleet_without_coast.txt",
            one(
                ":4:10: case fleetnocoast: \"Russia: F stp\": a fleet in St Petersburg must name its coast: stp/nc or stp/sc",
            ),
        ),
        (
            "army_on_coast.txt",
            one(
                ":4:10: case armyoncoast: \"Russia: A stp/nc\": an army stands in a province, not on a coast: write A stp",
            ),
        ),
        (
            "two_units.txt",
            one(
                ":12:11: case twounits: \"Germany: A ber\": two units in Berlin: German A Berlin and German A Berlin; a province holds one unit",
            ),
        ),
        (
            "owner_not_centre.txt",
            one(
                ":5:10: case owner: \"France: A bur\": Burgundy is not a supply centre; expected the supply centres the power owns",
            ),
        ),
        (
            "dislodged_in_movement.txt",
            one(
                ":7:2: case dislodged: PRESTATE_DISLODGED lists units, but the phase is Spring 1901 Movement; only a retreat phase has dislodged units (PRESTATE_SETPHASE Fall 1901, Retreat)",
            ),
        ),
        (
            "order_without_power.txt",
            one(
                ":6:2: case ordernopower: \"F nth H\": expected \"Power: order\", found \"F\" where the power should be",
            ),
        ),
        // The column is that of "xyz" on the line, not in the order after the power.
        (
            "order_unknown_province.txt",
            vec![format!(
                ":6:17: case orderbad: \"England: F nth-xyz\": unknown province \"xyz\"; {no_province}"
            )],
        ),
        (
            "order_other_power.txt",
            one(
                ":6:10: case otherpower: \"France: Italy: F gol H\": the order is prefixed Italy but given by France",
            ),
        ),
        (
            "no_poststate.txt",
            one(
                ":7:1: case nopost: END without POSTSTATE or POSTSTATE_SAME; expected one of them, to say what the case expects",
            ),
        ),
        (
            "bad_rules_directive.txt",
            one(
                ":3:21: case rules: dipsandbox-rules: paradoks=Szykman: unknown rule option \"paradoks\" (did you mean \"paradox\"?); expected one of multi_route_disruption, paradox, paradox_fallback, adjacent_convoy, adjacent_convoy_fallback, convoyed_attack_on_supporter, retreat_after_convoy, path_specification, dislodged_no_effect, one_coast_omitted, impossible_coast, support_coast, wrong_unit_coast, irrelevant_coast, missing_unit_type, wrong_unit_type, build_missing_type, fleet_build_on_land, missing_nationality, wrong_nationality, multiple_orders, too_many_builds, same_province_builds, too_many_disbands, civil_disorder, illegal_orders, dpjudge_phantom_orders, dpjudge_beleaguered_disrupts, dpjudge_own_victim, dpjudge_no_convoy_list, dpjudge_swap_victim, dpjudge_threat_count",
            ),
        ),
        // The pairing file's problems name the pairing file and its lines.
        (
            "rules_file.txt",
            vec![
                ":12:11: case bad: \"England: A nth\": an army cannot stand in North Sea, a sea".into(),
                ".rules:2:1: \"good\": expected \"CASE-NAME RULES\", e.g. \"6.G.8 adjacent_convoy_fallback=true\"".into(),
                ".rules:3:6: \"paradox=Rule1999\": unknown value \"Rule1999\" for paradox; expected one of Szykman, Rule1971, Rule1982, Rule2000, AllHold".into(),
                ".rules:4:1: no case named \"missing\" in the test file; expected the name after a CASE (or its first word, when no other case begins with it)".into(),
                ".rules:5:1: case \"bad\" was not imported (its problem is reported with it)".into(),
            ],
        ),
        (
            "warnings.txt",
            vec![
                ": case warnings: line 8: power \"Englnd\" read as England (the only power that close)".into(),
                ": case warnings: line 8: the results name no attacker of A Belgium; no province is barred to its retreat".into(),
            ],
        ),
    ]
}

/// A jDip file imported as `check` imports it (with its `.rules` pairing file, if any): its
/// problems, then its cases' warnings, each line as `check` prints it.
fn jdip_report(file: &str) -> Vec<String> {
    let path = format!("{JDIP}/{file}");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut f = dipsandbox_core::io::jdip::parse(&text, &path, Map::standard_arc());
    let rules = format!("{path}.rules");
    if let Ok(t) = std::fs::read_to_string(&rules) {
        dipsandbox_core::io::jdip::apply_rules_file(&mut f, &t, &rules);
    }
    let mut out: Vec<String> = f.problems.iter().map(|p| p.to_string()).collect();
    for c in &f.cases {
        for w in &c.warnings {
            out.push(format!("{path}: case {}: {w}", c.name));
        }
    }
    out
}

// A user imports each malformed jDip file and reads, for each problem, the file, line and
// column, and what was found and expected.
#[test]
fn malformed_jdip_files_give_exact_problems() {
    let wrong = mismatches(jdip_cases().into_iter().map(|(file, lines)| {
        let want: Vec<String> = lines.iter().map(|l| format!("{JDIP}/{file}{l}")).collect();
        (
            file.to_string(),
            jdip_report(file).join("\n         "),
            want.join("\n         "),
        )
    }));
    assert!(wrong.is_empty(), "{wrong}");
}

// Every file in tests/invalid/jdip is listed above, each is taken for a jDip file by its
// content (so `check` imports it), and none panics.
#[test]
fn every_malformed_jdip_file_is_covered_and_none_panics() {
    let on_disk = files_in(JDIP);
    assert_eq!(on_disk, listed(&jdip_cases()));
    for file in on_disk {
        let text = std::fs::read_to_string(format!("{JDIP}/{file}")).unwrap();
        assert!(dipsandbox_core::io::jdip::looks_like_jdip(&text), "{file}");
        if std::panic::catch_unwind(|| jdip_report(&file)).is_err() {
            panic!("{file} panicked");
        }
    }
}

// `dipsandbox check` prints the same lines: a problem of the test file and one of its pairing
// file, each under its own name.
#[test]
fn check_prints_the_problems_with_file_line_and_column() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(["check", &format!("{JDIP}/rules_file.txt")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        "ERROR tests/invalid/jdip/rules_file.txt:12:11: case bad: \"England: A nth\": an army cannot stand in North Sea, a sea",
        "ERROR tests/invalid/jdip/rules_file.txt.rules:4:1: no case named \"missing\" in the test file; expected the name after a CASE (or its first word, when no other case begins with it)",
    ] {
        assert!(stdout.lines().any(|l| l == line), "{stdout}");
    }
}
