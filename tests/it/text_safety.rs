//! Text from files made safe before it reaches a terminal (control
//! characters escaped in every command, on both outputs), every quoted token cut short, years
//! kept in their range, `--rules` without duplicates, unclosed comments located where they
//! start, and error exits that capture no backtrace.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A folder of the test's own.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("r2-text-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("dir");
    d
}

/// The binary run in `cwd` with `args`: exit status, stdout and stderr as bytes.
fn run_in(cwd: &Path, args: &[&str]) -> (i32, Vec<u8>, Vec<u8>) {
    let out = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(args)
        .current_dir(cwd)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .output()
        .expect("binary runs");
    (out.status.code().unwrap_or(-1), out.stdout, out.stderr)
}

/// The first control character a terminal would obey in `bytes` (anything below 0x20 but line
/// feed and tab, DEL, a C1 control U+0080–U+009F), with some text around it.
fn first_control(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let (i, c) = text
        .char_indices()
        .find(|&(_, c)| c.is_control() && c != '\n' && c != '\t')?;
    let from = text[..i].char_indices().rev().nth(40).map_or(0, |(k, _)| k);
    Some(format!("{c:?} after {:?}", &text[from..i]))
}

/// Asserts that neither output of a run holds a control character, and returns them as text.
fn safe(label: &str, run: (i32, Vec<u8>, Vec<u8>)) -> (i32, String, String) {
    let (code, out, err) = run;
    if let Some(c) = first_control(&out) {
        panic!("{label}: stdout has {c}");
    }
    if let Some(c) = first_control(&err) {
        panic!("{label}: stderr has {c}");
    }
    (
        code,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

/// ESC sequences (clear the screen, set the window title), NUL, BEL, a C1 CSI and a line feed.
const NASTY: &str = "\u{1b}[2J\u{1b}]0;pwned\u{7}\0\u{9b}31m\nline2";

/// `NASTY` as a RON string's contents (escaped, so the file itself is plain text).
fn ron_escaped(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// A folder with hostile files: a map whose power, province and map names hold control
/// characters, a scenario on it whose title, source and description do too (with expectations
/// that fail, so that mismatches are printed), a jDip file whose case names do, and files that
/// do not load with such text where the error quotes it.
fn hostile_folder(name: &str) -> PathBuf {
    let d = dir(name);
    let n = ron_escaped(NASTY);
    let map = std::fs::read_to_string("maps/test7.ron")
        .expect("test7 map")
        .replace("name: \"test7\"", &format!("name: \"test7{n}\""))
        .replace(
            "title: \"Seven-province test map\"",
            &format!("title: \"Seven{n}\""),
        );
    std::fs::create_dir_all(d.join("maps")).expect("maps dir");
    std::fs::write(d.join("maps/evil.ron"), &map).expect("map");
    // Names with control characters are refused (they could not be written in an order, nor
    // saved back): a map whose power, and one whose province, has one.
    std::fs::write(
        d.join("maps/bad_power_name.ron"),
        map.replace("name: \"North\"", &format!("name: \"North{n}\"")),
    )
    .expect("map");
    std::fs::write(
        d.join("maps/bad_province_name.ron"),
        map.replace("name: \"Dunmere\"", &format!("name: \"Dunmere{n}\"")),
    )
    .expect("map");
    for m in ["bad_power_name", "bad_province_name"] {
        std::fs::write(
            d.join(format!("on_{m}.ron")),
            format!("Scenario(title: \"t\", map: \"{m}\", phase: \"Spring 1901 Movement\")"),
        )
        .expect("scenario");
    }
    let scenario = format!(
        "Scenario(\n    title: \"Evil{n}\",\n    source: \"src{n}\",\n    description: \"desc{n}\",\n    \
         map: \"evil\",\n    phase: \"Fall 1901 Movement\",\n    \
         units: {{ \"North\": [\"A bor\", \"F ald\"], \"South\": [\"F cal\"] }},\n    \
         orders: {{ \"North\": [\"A bor - dun\", \"F ald S A bor - dun\"], \"South\": [\"F cal - dun(wc)\"] }},\n    \
         expect: (results: [(\"A bor - dun\", Fails), (\"F cal - dun(wc)\", Succeeds)]),\n)\n"
    );
    std::fs::write(d.join("evil.ron"), &scenario).expect("scenario");
    // The same on the standard map, with a failing expectation, for the commands that need it.
    let standard = std::fs::read_to_string("scenarios/datc/6.A.1.ron")
        .expect("6.A.1")
        .replace(
            "title: \"Moving to an area that is not a neighbour\"",
            &format!("title: \"Std{n}\""),
        )
        .replace(
            "(\"F North Sea - Picardy\", Illegal)",
            "(\"F North Sea - Picardy\", Succeeds)",
        );
    std::fs::write(d.join("std.ron"), standard).expect("scenario");
    // Errors that quote the file's text.
    let std_text = std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("6.A.1");
    std::fs::write(
        d.join("bad_power.ron"),
        std_text.replace(
            "\"England\": [\"F North Sea\"]",
            &format!("\"Eng{n}\": [\"F North Sea\"]"),
        ),
    )
    .expect("write");
    std::fs::write(
        d.join("bad_order.ron"),
        std_text.replace(
            "\"F North Sea - Picardy\",",
            &format!("\"F North Sea - Pic{n}\","),
        ),
    )
    .expect("write");
    std::fs::write(
        d.join("bad_phase.ron"),
        std_text.replace("Spring 1901 Movement", &format!("Spring{n} 1901 Movement")),
    )
    .expect("write");
    std::fs::write(
        d.join("bad_field.ron"),
        std_text.replace("    map: \"standard\",", "    ma\u{1b}[2Jp: \"standard\","),
    )
    .expect("write");
    // Raw control bytes outside any string: the RON error quotes what it found.
    std::fs::write(d.join("bad_token.ron"), "Scenario(title: \u{1b}[2J\u{7})").expect("write");
    // A file whose own name holds an ESC sequence.
    std::fs::write(d.join("name\u{1b}[2J.ron"), "Scenario(title: 5)").expect("write");
    // A jDip file: case names and lines with control characters.
    std::fs::write(
        d.join("evil.txt"),
        "CASE evil\u{1b}[2J\u{7}\0name\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\
         \tEngland: F nth\nORDERS\n\tEngland: F nth-pic\u{1b}[31m\nPOSTSTATE_SAME\nEND\n\
         CASE ok\u{1b}]0;x\u{7}\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\
         \tEng\u{1b}land: F nth\nORDERS\nPOSTSTATE_SAME\nEND\n\
         stray\u{1b}[2J line\n",
    )
    .expect("write");
    d
}

/// Every command, on hostile files, prints no control character on either output: what came
/// from a file is shown escaped (`\u{1b}`), and `--json` stays valid JSON that holds the text
/// exactly.
#[test]
fn control_characters_from_files_never_reach_the_terminal() {
    let d = hostile_folder("controls");
    let runs: &[&[&str]] = &[
        &["show", "evil.ron"],
        &["--print", "evil.ron"],
        &["evil.ron"],
        &["check", "evil.ron"],
        &["check", "-v", "evil.ron", "std.ron"],
        &["check", "."],
        &["check", "evil.txt"],
        &["check", "-v", "evil.txt"],
        &["explain", "evil.ron", "--trace"],
        &["explain", "evil.ron", "--trace", "--engine", "dpjudge"],
        &["explain", "std.ron", "--rules", "1982"],
        &["solve", "evil.ron"],
        &["diff", "evil.ron"],
        &["diff", "evil.ron", "--rules", "1982"],
        &["diff", "--all-presets", "evil.ron", "std.ron"],
        &["diff", "--engines", "evil.ron"],
        &["diff", "--engines", "."],
        &["diff", "."],
        &["advance", "evil.ron"],
        &["advance", "evil.ron", "-o", "next.ron"],
        &["show", "next.ron"],
        &["minimize", "evil.ron", "--keep", "mismatch"],
        &["maps"],
        &["export", "std.ron", "evil.ron"],
        &["import", "evil.txt", "--to", "imported"],
        &["check", "imported"],
        &["show", "bad_power.ron"],
        &["show", "bad_order.ron"],
        &["show", "bad_phase.ron"],
        &["show", "bad_field.ron"],
        &["show", "bad_token.ron"],
        &["show", "name\u{1b}[2J.ron"],
        &["show", "no\u{1b}[2Jsuch.ron"],
        &["show", "on_bad_power_name.ron"],
        &["check", "on_bad_province_name.ron"],
        &[
            "check",
            "bad_power.ron",
            "bad_order.ron",
            "name\u{1b}[2J.ron",
        ],
        // Arguments clap cannot read (quoted in its message), and `--help` after one.
        &["show", "evil.ron", "name\u{1b}[2J.ron"],
        &["show", "evil.ron", "x\u{7}\u{9b}\u{1}y"],
        &["--engine", "x\u{1b}[2J", "show", "evil.ron"],
        &["check", "--bad\u{1b}[2J", "evil.ron"],
        &["show", "--help", "x\u{1b}[2J"],
    ];
    let mut printed = 0;
    for args in runs {
        let (_, out, err) = safe(&format!("{args:?}"), run_in(&d, args));
        printed += out.len() + err.len();
    }
    assert!(printed > 10_000, "the commands printed {printed} bytes");

    // The text is shown escaped, one way everywhere, and a one-line field stays one line.
    let (code, out, _) = safe("show", run_in(&d, &["show", "evil.ron"]));
    assert_eq!(code, 0);
    let shown = "\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\0\\u{9b}31m\\nline2";
    assert_eq!(
        out.lines().next(),
        Some(format!("Evil{shown}").as_str()),
        "{out}"
    );
    assert!(out.contains(&format!("  source: src{shown}\n")), "{out}");
    assert!(
        out.contains(&format!(
            "  map: test7{shown}   phase: Fall 1901 Movement\n"
        )),
        "{out}"
    );
    let (code, _, err) = safe(
        "bad power name",
        run_in(&d, &["show", "on_bad_power_name.ron"]),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "maps/bad_power_name.ron:18:19: power name \"North{shown}\" holds the control character \\u{{1b}}; names are plain text"
        )),
        "{err}"
    );
    let (code, _, err) = safe(
        "bad province name",
        run_in(&d, &["show", "on_bad_province_name.ron"]),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "province name \"Dunmere{shown}\" holds the control character"
        )),
        "{err}"
    );
    let (_, _, err) = safe("bad_power", run_in(&d, &["show", "bad_power.ron"]));
    assert!(
        err.contains("unknown power \"Eng\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\0\\u{9b}31m\\nline2\""),
        "{err}"
    );
    let (_, out, _) = safe("check jdip", run_in(&d, &["check", "evil.txt"]));
    assert!(out.contains("case evil\\u{1b}[2J\\u{7}\\0name: "), "{out}");

    // JSON: valid, and the strings are the file's exactly.
    for args in [
        &["check", "--json", "evil.ron"][..],
        &["explain", "--json", "evil.ron"],
        &["solve", "--json", "evil.ron"],
        &["diff", "--json", "evil.ron"],
        &["diff", "--json", "--rules", "1982", "evil.ron"],
        &["diff", "--json", "--all-presets", "evil.ron"],
        &["diff", "--json", "--engines", "evil.ron"],
    ] {
        let (_, out, _) = safe(&format!("{args:?}"), run_in(&d, args));
        let doc: serde_json::Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"));
        let text = doc.to_string();
        assert!(
            text.contains(&serde_json::Value::String(format!("Evil{NASTY}")).to_string()),
            "{args:?}: the title is not in the JSON as it is in the file: {out}"
        );
    }
    // What `advance` prints is the next phase as RON that reads back to the same scenario as
    // the file `advance -o` writes (the escapes are RON's own).
    let (code, out, _) = safe("advance", run_in(&d, &["advance", "evil.ron"]));
    assert_eq!(code, 0);
    std::fs::write(d.join("printed.ron"), out).expect("write");
    let (code, printed, _) = safe("show printed", run_in(&d, &["show", "printed.ron"]));
    assert_eq!(code, 0, "{printed}");
    let (_, written, _) = safe("show next", run_in(&d, &["show", "next.ron"]));
    assert_eq!(printed, written);
    assert!(printed.starts_with(&format!("Evil{shown}")), "{printed}");
}

/// One token of 200,000 characters: five times the most any run below may print, so a message
/// that quoted it whole would fail the size check. (A megabyte reads the same, five times slower
/// in a debug build.)
fn huge() -> String {
    "x".repeat(200_000)
}

/// Every error that quotes a token of the file quotes it cut short: a token of 200,000
/// characters gives a message of a few hundred bytes, whatever reads it (the RON reader, the scenario and
/// map loaders, the jDip importer, rules, phases).
#[test]
fn every_quoted_token_is_cut_short() {
    let d = dir("tokens");
    let w = huge();
    let std_text = std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("6.A.1");
    let map = std::fs::read_to_string("maps/test7.ron").expect("test7");
    let on_map =
        |m: &str| format!("Scenario(title: \"t\", map: \"{m}\", phase: \"Spring 1901 Movement\")");
    let files: Vec<(&str, String)> = vec![
        // The RON reader: a word where a string is expected; an unknown field; an unknown value;
        // a string where a boolean is expected (the deserializer's own message quotes it).
        ("word.ron", format!("Scenario(title: {w})")),
        (
            "field.ron",
            std_text.replace("    map: \"standard\",", &format!("    {w}: 1,")),
        ),
        (
            "variant.ron",
            std_text.replace("rules: (),", &format!("rules: (paradox: {w}),")),
        ),
        (
            "bool.ron",
            std_text.replace(
                "rules: (),",
                &format!("rules: (adjacent_convoy_fallback: \"{w}\"),"),
            ),
        ),
        ("struct.ron", format!("X{w}(title: \"t\")")),
        // The phase: a word, a year, a kind.
        (
            "phase.ron",
            std_text.replace("Spring 1901 Movement", &format!("Spring {w} Movement")),
        ),
        (
            "season.ron",
            std_text.replace("Spring 1901 Movement", &format!("{w} 1901 Movement")),
        ),
        (
            "year.ron",
            std_text.replace(
                "Spring 1901 Movement",
                &format!("Spring {} Movement", "9".repeat(200_000)),
            ),
        ),
        // The map: a scenario naming a map of 200,000 characters, and map files with huge names.
        (
            "mapname.ron",
            std_text.replace("map: \"standard\"", &format!("map: \"{w}\"")),
        ),
        ("on_border.ron", on_map("border_map.ron")),
        ("on_home.ron", on_map("home_map.ron")),
        ("on_power.ron", on_map("power_map.ron")),
    ];
    for (name, text) in &files {
        std::fs::write(d.join(name), text).expect("write");
    }
    std::fs::write(
        d.join("border_map.ron"),
        map.replacen(
            "army: [\"bor\", \"dun\"],",
            &format!("army: [\"bor\", \"{w}\"],"),
            1,
        ),
    )
    .expect("write");
    std::fs::write(
        d.join("home_map.ron"),
        map.replace("home: [\"cal\"],", &format!("home: [\"{w}\"],")),
    )
    .expect("write");
    std::fs::write(
        d.join("power_map.ron"),
        map.replace("name: \"North\"", &format!("name: \"{w}\""))
            .replace("home: [\"cal\"],", "home: [\"ald\"],"),
    )
    .expect("write");
    // jDip: a stray line, an unknown power, a bad order, a case name, a rules side file.
    let case = |name: &str, body: &str| {
        format!(
            "CASE {name}\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n{body}\nPOSTSTATE_SAME\nEND\n"
        )
    };
    std::fs::write(
        d.join("suite.txt"),
        format!(
            "{}{}{}{}stray {w}\n",
            case("a", &format!("\t{w}: F nth\nORDERS")),
            case("b", &format!("\tEngland: F nth\nORDERS\n\tEngland: F {w}")),
            case(&w, "\tEngland: F nth\nORDERS\n\tEngland: F nth H x"),
            case("c", &format!("\tEngland: F nth\nORDERS\n\t{w}")),
        ),
    )
    .expect("write");
    std::fs::write(
        d.join("suite.txt.rules"),
        format!("a paradox={w}\n{w} datc\nb {w}\n"),
    )
    .expect("write");
    let mut runs: Vec<Vec<String>> = files
        .iter()
        .map(|(name, _)| vec!["show".to_string(), name.to_string()])
        .collect();
    runs.push(vec!["check".into(), "suite.txt".into()]);
    runs.push(vec![
        "import".into(),
        "suite.txt".into(),
        "--to".into(),
        "out".into(),
    ]);
    runs.push(
        vec!["check".into()]
            .into_iter()
            .chain(files.iter().map(|(n, _)| n.to_string()))
            .collect(),
    );
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = safe(&format!("{args:?}"), run_in(&d, &args));
        assert_ne!(code, 0, "{args:?}: {out}{err}");
        let size = out.len() + err.len();
        // Each message quotes at most a few hundred characters; `check` of every file prints
        // one line each, twice (the ERROR line and the summary).
        assert!(
            size < 40_000,
            "{args:?}: {size} bytes: {}",
            &format!("{out}{err}")[..2000]
        );
        assert!(
            out.contains("characters)") || err.contains("characters)"),
            "{args:?}: no length of a cut token: {out}{err}"
        );
    }
    // The forms: quoted (with its length), between backticks, a message of another crate.
    let (_, _, err) = run_in(&d, &["show", "word.ron"]);
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains(&format!("found `{}… (200000 characters)`", "x".repeat(60))),
        "{err}"
    );
    let (_, _, err) = run_in(&d, &["show", "season.ron"]);
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains(&format!(
            "unknown season \"{}\"… (200000 characters)",
            "x".repeat(60)
        )),
        "{err}"
    );
    let (_, _, err) = run_in(&d, &["show", "struct.ron"]);
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains(&format!(
            "expected `Scenario(` or `(`, found `X{}… (200001 characters)`",
            "x".repeat(59)
        )),
        "{err}"
    );
}

/// The keymap's errors (a key or an action of 200,000 characters) are cut too.
#[test]
fn keymap_errors_quote_tokens_cut_short() {
    use dipsandbox::tui::keymap::Keymap;
    let w = huge();
    for text in [
        format!("{{ \"{w}\": [\"q\"] }}"),
        format!("{{ \"quit\": [\"{w}\"] }}"),
        format!("{{ {w} }}"),
    ] {
        let e = Keymap::parse_patch(&text, "keys.ron").expect_err("not a keymap");
        let m = e.to_string();
        assert!(m.len() < 2000, "{} bytes: {}", m.len(), &m[..2000]);
        assert!(m.starts_with("keys.ron:1:"), "{m}");
    }
}

/// Years run from 1 to 9999: a phase outside is a located error wherever a phase is read (a
/// scenario, a jDip file), and `advance` past the last year says so and writes nothing, where
/// it wrote `Spring -2147483648 Movement` with exit 0.
#[test]
fn years_stay_in_their_range() {
    let d = dir("years");
    let scenario = |phase: &str| {
        format!(
            "Scenario(\n    title: \"t\",\n    phase: \"{phase}\",\n    units: {{ \"England\": [\"F North Sea\"] }},\n)\n"
        )
    };
    for (i, year) in ["2147483647", "10000", "0", "-1"].iter().enumerate() {
        let f = format!("y{i}.ron");
        std::fs::write(d.join(&f), scenario(&format!("Winter {year} Adjustment"))).expect("write");
        let (code, out, err) = safe("year", run_in(&d, &["advance", &f]));
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains(&format!(
                "{f}:3:12: phase \"Winter {year} Adjustment\": year {year} is out of range; a year is from 1 to 9999"
            )),
            "{err}"
        );
    }
    // The last Winter: no next phase, and nothing written.
    std::fs::write(d.join("last.ron"), scenario("Winter 9999 Adjustment")).expect("write");
    for args in [
        &["advance", "last.ron"][..],
        &["advance", "last.ron", "-o", "next.ron"],
    ] {
        let (code, out, err) = safe("last", run_in(&d, args));
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains(
                "error: Winter 9999 Adjustment is the last phase there is: the next would be in 10000, and years go up to 9999"
            ),
            "{err}"
        );
        assert!(!out.contains("Scenario("), "{out}");
    }
    assert!(!d.join("next.ron").exists());
    // The last Fall goes on to its Winter when someone adjusts, and stops when no one does.
    std::fs::write(d.join("fall.ron"), scenario("Fall 9999 Movement")).expect("write");
    let (code, out, err) = safe("fall", run_in(&d, &["advance", "fall.ron"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("phase: \"Winter 9999 Adjustment\""), "{out}");
    std::fs::write(
        d.join("opening.ron"),
        "Scenario(\n    title: \"t\",\n    phase: \"Fall 9999 Movement\",\n    units: {\n        \
         \"Austria\": [\"A Vienna\", \"A Budapest\", \"F Trieste\"],\n        \
         \"England\": [\"F London\", \"F Edinburgh\", \"A Liverpool\"],\n        \
         \"France\": [\"F Brest\", \"A Paris\", \"A Marseilles\"],\n        \
         \"Germany\": [\"F Kiel\", \"A Berlin\", \"A Munich\"],\n        \
         \"Italy\": [\"F Naples\", \"A Rome\", \"A Venice\"],\n        \
         \"Russia\": [\"F St Petersburg(sc)\", \"A Moscow\", \"A Warsaw\", \"F Sevastopol\"],\n        \
         \"Turkey\": [\"F Ankara\", \"A Constantinople\", \"A Smyrna\"],\n    },\n)\n",
    )
    .expect("write");
    let (code, out, err) = safe("opening", run_in(&d, &["advance", "opening.ron"]));
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("error: Fall 9999 Movement is the last phase there is"),
        "{err}"
    );
    // jDip: the phase line is named.
    std::fs::write(
        d.join("suite.txt"),
        "CASE far\nPRESTATE_SETPHASE Spring 10000, Movement\nPRESTATE\n\tEngland: F nth\nORDERS\nPOSTSTATE_SAME\nEND\n",
    )
    .expect("write");
    let (code, out, _) = safe("jdip", run_in(&d, &["check", "suite.txt"]));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "suite.txt:2:19: case far: phase \"Spring 10000, Movement\": year 10000 is out of range"
        ),
        "{out}"
    );
}

/// `--rules` names each option once and names something: a duplicate (even of the same value)
/// and an empty spec are refused, in every command that takes rules, as a scenario's
/// `rules: (…)` refuses a field given twice.
#[test]
fn rules_name_each_option_once() {
    let d = dir("rules");
    let f = std::path::absolute("scenarios/datc/6.A.1.ron").expect("path");
    let f = f.to_str().expect("utf-8");
    for spec in [
        "paradox=Rule1982,paradox=Szykman",
        "paradox=Rule1982, paradox = Rule1982",
        "1982,paradox=Szykman,paradox=Szykman",
    ] {
        for args in [
            &["show", f, "--rules", spec][..],
            &["check", f, "--rules", spec],
            &["diff", f, "--rules", spec],
            &["minimize", f, "--keep", "differs", "--rules", spec],
        ] {
            let (code, out, err) = safe("dup", run_in(&d, args));
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(err.contains("paradox is given twice ("), "{args:?}: {err}");
            assert!(err.contains("give each option once"), "{args:?}: {err}");
        }
    }
    for spec in ["", " ", ",", " , "] {
        let (code, out, err) = safe("empty", run_in(&d, &["show", f, "--rules", spec]));
        assert_eq!(code, 2, "{spec:?}: {out}{err}");
        assert!(err.contains("--rules: no rules given"), "{err}");
    }
    // A preset and an option it sets is not a duplicate: the option overrides the preset.
    let (code, out, err) = safe(
        "override",
        run_in(&d, &["show", f, "--rules", "1982,paradox=Szykman"]),
    );
    assert_eq!(code, 0, "{out}{err}");
    // In a scenario file: a field given twice is a located error.
    std::fs::write(
        d.join("dup.ron"),
        std::fs::read_to_string("scenarios/datc/6.A.1.ron")
            .expect("6.A.1")
            .replace(
                "rules: (),",
                "rules: (paradox: Rule1982, paradox: Rule1982),",
            ),
    )
    .expect("write");
    let (code, _, err) = safe("scenario", run_in(&d, &["show", "dup.ron"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("dup.ron:7:32: field `paradox` is given twice; give each field once"),
        "{err}"
    );
    // In a jDip rules side file and directive.
    std::fs::write(
        d.join("suite.txt"),
        "CASE a\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tEngland: F nth\nORDERS\nPOSTSTATE_SAME\nEND\n",
    )
    .expect("write");
    std::fs::write(
        d.join("suite.txt.rules"),
        "a paradox=Szykman,paradox=Rule1982\n",
    )
    .expect("write");
    let (code, out, _) = safe("side file", run_in(&d, &["check", "suite.txt"]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("suite.txt.rules:1:3: "), "{out}");
    assert!(out.contains("paradox is given twice"), "{out}");
}

/// An unclosed block comment (`/* /* */`: comments nest) is reported where it starts, in a
/// scenario and in a map, not at the end of some later line.
#[test]
fn an_unclosed_comment_is_reported_where_it_starts() {
    let d = dir("comments");
    let text = std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("6.A.1");
    std::fs::write(
        d.join("nested.ron"),
        text.replace(
            "    map: \"standard\",",
            "    map: \"standard\", /* a /* nested */ it's \"quoted\n",
        ),
    )
    .expect("write");
    std::fs::write(d.join("at_end.ron"), format!("{text}\n  /* /* */\n")).expect("write");
    let map = std::fs::read_to_string("maps/test7.ron").expect("test7");
    std::fs::write(d.join("m.ron"), map.replacen("Map(", "Map( /* /* */", 1)).expect("write");
    std::fs::write(
        d.join("on_map.ron"),
        "Scenario(title: \"t\", map: \"m.ron\", phase: \"Spring 1901 Movement\")",
    )
    .expect("write");
    for (f, at) in [
        ("nested.ron", "nested.ron:5:22: "),
        ("at_end.ron", "at_end.ron:28:3: "),
        ("on_map.ron", "m.ron:13:6: "),
    ] {
        let (code, _, err) = safe(f, run_in(&d, &["show", f]));
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!(
                "{at}a `/*` comment that starts here is not closed before the end of the file; expected `*/`"
            )),
            "{err}"
        );
    }
}

/// With `RUST_BACKTRACE=1`, as many developers' shells set it, an error exit (an input error,
/// not a bug) captures no backtrace: it runs in a few megabytes, where capturing and resolving
/// one took 77 MB. Run under a 48 MB address-space limit, the exit is the error message and
/// status 2, not an allocation failure.
#[cfg(target_os = "linux")]
#[test]
fn an_input_error_captures_no_backtrace() {
    let d = dir("backtrace");
    std::fs::write(d.join("bad.ron"), "Scenario(title: 5)").expect("write");
    let bin = env!("CARGO_BIN_EXE_dipsandbox");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 49152 && exec '{bin}' show bad.ron"))
        .current_dir(&d)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "error: bad.ron:1:16: expected a string in double quotes, found `5`\n"
    );
}

/// On a terminal, clap prints its messages in colour and, before, printed an argument it
/// quotes as it was: `show FILE $'x\e[2J\a'` cleared the screen and rang the bell. Now such a
/// message is printed plain (clap's colours go too), with nothing of the argument's controls.
#[cfg(unix)]
#[test]
fn an_argument_with_control_characters_is_not_echoed_to_a_terminal() {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::Read;
    let d = hostile_folder("pty");
    let run = |args: &[&str]| -> Vec<u8> {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols: 200,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_dipsandbox"));
        cmd.args(args);
        cmd.cwd(&d);
        cmd.env("TERM", "xterm-256color");
        cmd.env("RUST_BACKTRACE", "0");
        let mut child = pty.slave.spawn_command(cmd).expect("binary starts");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                all.extend_from_slice(&buf[..n]);
            }
            let _ = tx.send(all);
        });
        let status = child.wait().expect("ends");
        assert!(!status.success(), "{args:?}");
        drop(pty.master);
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_default()
    };
    for args in [
        &["show", "evil.ron", "x\u{1b}[2J\u{7}y"][..],
        &["--engine", "x\u{1b}]0;pwned\u{7}", "show", "evil.ron"],
        &["show", "bad_power.ron"],
    ] {
        let out = run(args);
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("error"), "{args:?}: {text:?}");
        for bad in ["\u{1b}[2J", "\u{1b}]", "\u{7}", "\u{9b}", "\0"] {
            assert!(!text.contains(bad), "{args:?}: {bad:?} in {text:?}");
        }
    }
}
