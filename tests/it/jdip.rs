//! The jDip test-file format: the DATC v2.4 suite as another adjudicator keeps it
//! (`tests/data/jdip/datc-v2.4.txt`, a copy of `../shared/peers/jdip-datc-v2.4.txt`) imports
//! completely and passes, with the one case whose v2.4 expectation assumes another rule paired
//! with that rule in `datc-v2.4.txt.rules`.

use crate::common;

use std::path::Path;

use common::dipsandbox;

use dipsandbox_core::io::jdip::{looks_like_jdip, parse};
use dipsandbox_core::model::map::Map;

const FILE: &str = "tests/data/jdip/datc-v2.4.txt";

#[test]
fn the_v24_suite_imports_completely() {
    let text = std::fs::read_to_string(FILE).expect("fixture");
    assert!(looks_like_jdip(&text));
    let f = parse(&text, FILE, Map::standard_arc());
    assert_eq!(f.variant.as_deref(), Some("Standard"));
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    assert_eq!(
        f.cases.len(),
        text.lines().filter(|l| l.starts_with("CASE")).count()
    );
    // Every expectation is positions only: nothing is claimed about each order.
    for c in &f.cases {
        let e = c.scenario.expect.as_ref().expect("expectations");
        assert!(e.results.is_empty() && e.positions.is_some(), "{}", c.name);
    }
    // The misspelled power of 6.A.5 is read, with a warning.
    let a5 = f
        .cases
        .iter()
        .find(|c| c.name.starts_with("6.A.5 "))
        .expect("6.A.5");
    assert!(
        a5.warnings
            .iter()
            .any(|w| w.contains("\"Germnay\" read as Germany")),
        "{:?}",
        a5.warnings
    );
    // A retreat case: attacker from the results, the contested province from the bounces.
    let h6 = f.cases.iter().find(|c| c.name == "6.H.6").expect("6.H.6");
    let s = &h6.scenario;
    assert_eq!(s.map.province(s.dislodged[0].attacker_from).abbr, "tri");
    assert_eq!(s.contested.len(), 1);
    assert_eq!(s.map.province(s.contested[0]).abbr, "boh");
}

#[test]
fn check_runs_a_jdip_file_by_its_content_and_passes_the_v24_suite() {
    let (code, out, err) = dipsandbox(&["check", FILE]);
    assert_eq!(code, 0, "{out}{err}");
    let n = out.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(n, 167, "{out}");
    assert!(
        out.lines()
            .filter(|l| l.starts_with("ok "))
            .all(|l| l.contains("positions only")),
        "{out}"
    );
    assert!(out.ends_with("167 passed, 0 failed\n"), "{out}");
    // Destroyed units left out of the expected dislodged lists are accepted only after checking
    // they had no retreat, and said so.
    assert!(
        err.contains("6.D.8: A Greece was dislodged with no retreat"),
        "{err}"
    );
    assert!(
        err.contains("adjudicated under adjacent_convoy_fallback=true"),
        "{err}"
    );
}

#[test]
fn without_its_rule_pairing_the_v24_case_that_prefers_another_rule_fails() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jdip-no-rules");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    // Any name: the format is known by its content.
    let copy = dir.join("suite.tests");
    std::fs::copy(FILE, &copy).expect("copy");
    let (code, out, _) = dipsandbox(&["check", copy.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 1, "{out}");
    assert!(failed[0].contains(" 6.G.8 "), "{out}");
    // The same case with the rule as a comment in the file passes.
    let text = std::fs::read_to_string(FILE).expect("fixture").replace(
        "CASE 6.G.8\n",
        "CASE 6.G.8\n# dipsandbox-rules: adjacent_convoy_fallback=true\n",
    );
    std::fs::write(&copy, text).expect("write");
    let (code, out, _) = dipsandbox(&["check", copy.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
}

/// A suite kept elsewhere (as `../shared/peers/` keeps the v2.4 one) is paired with its rules by
/// `--pairing`, for `check` and `import` alike; a missing pairing file is an error.
#[test]
fn a_pairing_file_named_on_the_command_line_pairs_the_cases() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jdip-pairing");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let copy = dir.join("suite.txt");
    std::fs::copy(FILE, &copy).expect("copy");
    let pairing = format!("{FILE}.rules");
    let (code, out, _) = dipsandbox(&[
        "check",
        copy.to_str().expect("utf-8"),
        "--pairing",
        &pairing,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("167 passed, 0 failed\n"), "{out}");
    let to = dir.join("cases");
    let (code, _, err) = dipsandbox(&[
        "import",
        copy.to_str().expect("utf-8"),
        "--to",
        to.to_str().expect("utf-8"),
        "--pairing",
        &pairing,
    ]);
    assert_eq!(code, 0, "{err}");
    let g8 = std::fs::read_dir(&to)
        .expect("written")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("6.G.8"))
        .expect("6.G.8 written");
    let text = std::fs::read_to_string(&g8).expect("read");
    assert!(text.contains("adjacent_convoy_fallback: true"), "{text}");
    let (code, _, err) = dipsandbox(&[
        "check",
        copy.to_str().expect("utf-8"),
        "--pairing",
        "no/such.rules",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--pairing no/such.rules: cannot read"),
        "{err}"
    );
}

#[test]
fn unreadable_lines_are_reported_with_their_line_and_the_rest_still_runs() {
    let text = "VARIANT_ALL Standard\nCASE good\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n England: F nth\nORDERS\n England: F nth-eng\nPOSTSTATE\n England: F eng\nEND\nCASE bad\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n England: F xyz\nORDERS\nPOSTSTATE_SAME\nEND\n";
    let f = parse(text, "t.txt", Map::standard_arc());
    assert_eq!(f.cases.len(), 1);
    assert_eq!(f.problems.len(), 1);
    assert_eq!(f.problems[0].line, 14);
    assert_eq!(f.problems[0].case.as_deref(), Some("bad"));
    assert!(
        f.problems[0].message.contains("xyz"),
        "{}",
        f.problems[0].message
    );
}

/// Export then import gives back the same positions, orders and expectations, and the exported
/// file checks; `import` writes scenarios that check too.
#[test]
fn export_then_import_round_trips_and_import_writes_scenarios_that_check() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jdip-round-trip");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let out = dir.join("ours.txt");
    let (code, _, err) = dipsandbox(&[
        "export",
        "scenarios/datc",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).expect("written");
    let f = parse(&text, "ours.txt", Map::standard_arc());
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let mut compared = 0;
    for c in &f.cases {
        let orig = dipsandbox_core::model::scenario::Scenario::load(
            &Path::new("scenarios/datc").join(format!("{}.ron", c.name)),
        )
        .expect("the original");
        let s = &c.scenario;
        let mut a = orig.units.clone();
        let mut b = s.units.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{}", c.name);
        assert_eq!(s.phase, orig.phase, "{}", c.name);
        assert_eq!(s.rules, orig.rules, "{}", c.name);
        assert_eq!(s.orders.len(), orig.orders.len(), "{}", c.name);
        for (x, y) in s.orders.iter().zip(&orig.orders) {
            assert_eq!(
                (x.power, &x.order.kind),
                (y.power, &y.order.kind),
                "{}",
                c.name
            );
        }
        let d1: Vec<_> = s
            .dislodged
            .iter()
            .map(|d| (d.unit, d.attacker_from))
            .collect();
        let d2: Vec<_> = orig
            .dislodged
            .iter()
            .map(|d| (d.unit, d.attacker_from))
            .collect();
        assert_eq!(d1, d2, "{}", c.name);
        // The expected position is the original's result under its own rules.
        let r = dipsandbox_core::tools::check::run(&orig, None, false).expect("runs");
        let mut want = r.phase().final_units.clone();
        let mut got = s
            .expect
            .as_ref()
            .and_then(|e| e.positions.clone())
            .expect("positions");
        want.sort();
        got.sort();
        assert_eq!(got, want, "{}", c.name);
        compared += 1;
    }
    assert!(compared > 200, "{compared}");
    let (code, stdout, _) = dipsandbox(&["check", out.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stdout}");
    // import: one scenario per case, each of which checks.
    let to = dir.join("imported");
    let (code, stdout, err) = dipsandbox(&["import", FILE, "--to", to.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.starts_with("167 cases written"), "{stdout}");
    let (code, stdout, _) = dipsandbox(&["check", to.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("167 passed, 0 failed\n"), "{stdout}");
}

/// The spellings real files use: glued coasts and dashes (`F spa/nc-mid`, `F spa-nc-mid`),
/// `spa(sc)`, a missing colon after the power, one-word sea names.
#[test]
fn the_spellings_of_real_files_are_taken_in() {
    let text = "VARIANT_ALL Standard\nCASE quirks\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tFrance: F spa/nc\n\tItaly F gol\n\tEngland: F Baltic\nORDERS\n\tFrance: F spa/nc-mid\n\tItaly F gol-spa(sc)\n\tEngland: F Baltic H\nPOSTSTATE\n\tFrance: F mid\n\tItaly: F spa/sc\n\tEngland: F bal\nEND\nCASE quirks2\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tFrance: F spa-nc\nORDERS\n\tFrance: F spa-nc-mid\nPOSTSTATE\n\tFrance: F mid\nEND\n";
    let f = parse(text, "q.txt", Map::standard_arc());
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    assert_eq!(f.cases.len(), 2);
    for c in &f.cases {
        let r = dipsandbox_core::tools::check::run(&c.scenario, None, false).expect("runs");
        let (bad, n, _) = dipsandbox_core::io::jdip::compare(&c.scenario, &r);
        assert!(bad.is_empty() && n == 2, "{}: {bad:?}", c.name);
    }
    let s = &f.cases[0].scenario;
    assert_eq!(s.map.loc_abbr(s.units[0].loc), "Spa(nc)");
    assert_eq!(s.map.power(s.units[1].power).name, "Italy");
}

/// jDip's own notations (the way jDip writes its test files: `Spring 1901 (Movement)`, `Army`,
/// `SUPPORT`, `=>`, a full stop after a line, `(south coast)`, a nationality before a foreign
/// unit, jDip's names such as `nor`, and a word that begins one province's name only) load with
/// no problem and pass; the word read by its beginning is said in a warning.
#[test]
fn jdips_own_notations_load_and_pass() {
    let text = std::fs::read_to_string("tests/data/jdip/notations.txt").expect("fixture");
    let f = parse(&text, "notations.txt", Map::standard_arc());
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    assert_eq!(f.cases.len(), 2);
    for c in &f.cases {
        let r = dipsandbox_core::tools::check::run(&c.scenario, None, false).expect("runs");
        let (bad, n, _) = dipsandbox_core::io::jdip::compare(&c.scenario, &r);
        assert!(bad.is_empty() && n >= 1, "{}: {bad:?}", c.name);
    }
    let first = &f.cases[0];
    assert_eq!(first.scenario.phase.to_string(), "Spring 1901 Movement");
    assert_eq!(f.cases[1].scenario.phase.to_string(), "Fall 1901 Movement");
    assert!(
        first
            .warnings
            .iter()
            .any(|w| w.contains("\"Portuga\" read as Portugal")),
        "{:?}",
        first.warnings
    );
    // A word that begins several names is not guessed: "North" (North Sea, North Africa, …).
    let bad = "VARIANT_ALL Standard\nCASE x\nPRESTATE_SETPHASE Spring 1901 (Movement)\nPRESTATE\n\tEngland: Fleet Nort\nORDERS\n\tEngland: Fleet Nort HOLD\nPOSTSTATE_SAME\nEND\n";
    let f = parse(bad, "x.txt", Map::standard_arc());
    assert_eq!(f.problems.len(), 1, "{:?}", f.problems);
    assert!(
        f.problems[0].message.contains("unknown province \"Nort\""),
        "{}",
        f.problems[0]
    );
}

/// Every name jDip's standard map gives a province (its full names and UNIQUENAMEs) and every
/// name of the Python `diplomacy` package's standard.map reads as the province or coast it
/// names, but for the three the map cannot take: `liv` (Python: Livonia; here, as in most
/// judges, Liverpool), and the Python package's odd coast names `bul/nc` (for the east coast) and
/// `spa/wc` (for the south coast), which would name coasts Bulgaria and Spain do not have.
#[test]
fn every_name_other_programs_give_a_standard_province_reads_as_it() {
    let map = Map::standard_arc();
    let text = std::fs::read_to_string("tests/data/standard-map-names.txt").expect("names");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.splitn(3, ' ');
        let (Some(source), Some(abbr), Some(name)) = (parts.next(), parts.next(), parts.next())
        else {
            panic!("bad line {line:?}");
        };
        let exception = matches!(
            (source, name),
            ("python", "liv")
                | (
                    "python",
                    "bul/nc" | "bul(nc)" | "bulgaria/nc" | "bulgaria(nc)"
                )
                | ("python", "spa/wc")
        );
        let (prov, coast) = abbr
            .split_once('/')
            .map_or((abbr, None), |(p, c)| (p, Some(c)));
        let got = if let Some(c) = coast {
            dipsandbox_core::model::orders::parse_unit(&map, &format!("F {name}"))
                .ok()
                .filter(|u| u.loc.coast.map(|k| k.to_string()) == Some(c.to_string()))
                .map(|u| map.province(u.loc.province).abbr.clone())
        } else {
            map.find_province(name)
                .map(|p| map.province(p).abbr.clone())
        };
        let right = got.as_deref() == Some(prov);
        if right == exception {
            wrong.push(format!("{line}: read as {got:?}"));
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// jDip's other test file, its order-parser suite (`ORD:` / `RES:` lines), is named for what it
/// is, not read as a scenario; a wing (`W`), a unit of jDip's test variants, is named too.
#[test]
fn jdips_order_suite_and_wings_are_named_for_what_they_are() {
    let suite = "# order parsing\nVARIANT: DATC_Standard\nSETUP\n\tEngland: A lon\nEND\nORD: a lon holds\nRES: hold(england, lon/mv, army)\n";
    let f = dipsandbox_core::io::jdip::order_parser_suite(suite, "orders.txt").expect("a suite");
    assert_eq!(f.problems.len(), 1);
    assert_eq!(f.problems[0].line, 6);
    assert!(f.problems[0].message.contains("order-parser suite"));
    assert!(dipsandbox_core::io::jdip::order_parser_suite("CASE x\nEND\n", "x").is_none());
    let wing = "VARIANT_ALL DATC_Standard\nCASE w\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tRussia: W Black Sea\nORDERS\n\tRussia: W Black Sea H\nPOSTSTATE_SAME\nEND\n";
    let f = parse(wing, "wing.txt", Map::standard_arc());
    assert_eq!(f.problems.len(), 1, "{:?}", f.problems);
    assert!(
        f.problems[0].message.contains("a wing (W)"),
        "{}",
        f.problems[0]
    );
}
