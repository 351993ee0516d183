//! Resource bounds: huge inputs are handled, or refused with a clear message, in time
//! and memory that grow no faster than the input. The limits and the measured times and memory
//! are in docs/limits.md; nothing here asserts a time.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::dipsandbox;
use dipsandbox_core::base::source::MAX_FILE_BYTES;
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::orders::parse_order;
use dipsandbox_core::model::scenario::Scenario;

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("limits-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.to_str().expect("utf-8 path").to_string()
}

fn q(s: &str) -> String {
    format!("{s:?}")
}

/// A 100 MB file is refused by its size before a byte of it is read, by every command that
/// reads a file.
#[test]
fn a_100_mb_file_is_refused_before_it_is_read() {
    let d = dir("big");
    let big = d.join("big.ron");
    let f = std::fs::File::create(&big).expect("create");
    // Sparse: costs no disk.
    f.set_len(100 * 1024 * 1024).expect("size");
    let big = big.to_str().expect("utf-8");
    for args in [vec!["show", big], vec!["check", big], vec!["solve", big]] {
        let (code, out, err) = dipsandbox(&args);
        assert_eq!(code, 2, "{args:?}");
        let text = format!("{out}{err}");
        assert!(
            text.contains(&format!(
                "big.ron: cannot read: 104857600 bytes is more than the {MAX_FILE_BYTES} a file may have"
            )),
            "{args:?}: {text}"
        );
    }
}

/// An endless file: a device named as a file is refused before it is opened for reading;
/// standard input that never ends is read up to the limit and refused.
#[cfg(unix)]
#[test]
fn an_endless_file_is_refused() {
    for args in [["show", "/dev/zero"], ["check", "/dev/zero"]] {
        let (code, out, err) = dipsandbox(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            format!("{out}{err}")
                .contains("/dev/zero: cannot read: it is a FIFO, socket or device, not a file"),
            "{args:?}: {out}{err}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(["show", "-"])
        .env("RUST_BACKTRACE", "0")
        .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "<stdin>: cannot read: {} bytes is more than the {MAX_FILE_BYTES} a file may have",
            MAX_FILE_BYTES + 1
        )),
        "{err}"
    );
}

/// 100,000-deep nesting in a scenario and in a map: refused at once where the nesting starts
/// (a typed field does not nest), with no stack overflow; 100,000 nested comments are skipped.
#[test]
fn deep_nesting_is_refused_where_it_starts() {
    let n = 100_000;
    let open = "[".repeat(n);
    let close = "]".repeat(n);
    let d = dir("deep");
    let cases = [
        (
            format!("{open}{close}"),
            "deep1.ron:1:1: expected `Scenario(` or `(`, found `[`",
        ),
        (
            format!("Scenario(title: {open}{close}, phase: \"Spring 1901 Movement\")"),
            "deep2.ron:1:16: expected a string in double quotes, found `[`",
        ),
        (
            format!(
                "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", units: {{\"England\": {open}{close}}})"
            ),
            "deep3.ron:1:73: expected a string in double quotes, found `[`",
        ),
        (
            format!(
                "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", rules: {}{})",
                "(".repeat(n),
                ")".repeat(n)
            ),
            "deep4.ron:1:61: expected a field or value name, found `(`",
        ),
    ];
    for (k, (text, message)) in cases.iter().enumerate() {
        let f = write(&d, &format!("deep{}.ron", k + 1), text);
        let (code, _, err) = dipsandbox(&["show", &f]);
        assert_eq!(code, 2, "{message}");
        assert!(err.contains(message), "{err}");
    }
    // A map file nested as deep, named by a scenario.
    write(
        &d,
        "deep_map.ron",
        &format!("Map(name: \"deep\", title: \"deep\", powers: [{open}{close}], provinces: [])"),
    );
    let f = write(
        &d,
        "on_deep_map.ron",
        "Scenario(title: \"t\", map: \"deep_map.ron\", phase: \"Spring 1901 Movement\")",
    );
    let (code, _, err) = dipsandbox(&["show", &f]);
    assert_eq!(code, 2);
    assert!(err.contains("map \"deep_map.ron\""), "{err}");
    assert!(
        err.contains("deep_map.ron:1:43: expected `Power(` or `(`, found `[`"),
        "{err}"
    );
    let e = Map::from_ron(&format!("{open}{close}"), "m.ron").expect_err("refused");
    assert!(e.to_string().contains("m.ron:1:1"), "{e}");
    // Comments nest in RON: 100,000 of them are skipped without recursion.
    let f = write(
        &d,
        "comments.ron",
        &format!(
            "{}{}Scenario(title: \"commented\", phase: \"Spring 1901 Movement\")",
            "/*".repeat(n),
            "*/".repeat(n)
        ),
    );
    let (code, out, err) = dipsandbox(&["show", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("commented"), "{out}");
}

/// A megabyte-long token anywhere in an order is an error that names it briefly (its first
/// characters and its length), never the whole token.
#[test]
fn a_megabyte_token_in_an_order_is_reported_briefly() {
    let map = Map::standard();
    let word = "x".repeat(1_000_000);
    for text in [
        format!("A {word} - Burgundy"),
        format!("A Paris - {word}"),
        format!("{word}: A Paris - Burgundy"),
        format!("A Paris - Burgundy({word})"),
        format!("A Paris S A {word} - Burgundy"),
        format!("A Paris {word}"),
    ] {
        let e = parse_order(&map, &text).expect_err("not an order");
        assert!(
            e.message.len() < 400,
            "{} bytes: {}",
            e.message.len(),
            &e.message[..400]
        );
        assert!(e.col >= 1 && e.col <= text.len() + 1);
    }
    // Through the binary, in a scenario's power name and title too.
    let d = dir("token");
    let f = write(
        &d,
        "power.ron",
        &format!(
            "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", units: {{{}: [\"A Paris\"]}})",
            q(&word)
        ),
    );
    let (code, _, err) = dipsandbox(&["show", &f]);
    assert_eq!(code, 2);
    assert!(err.len() < 2000, "{} bytes of error", err.len());
    let f = write(
        &d,
        "title.ron",
        &format!(
            "Scenario(title: {}, phase: \"Spring 1901 Movement\")",
            q(&word)
        ),
    );
    let (code, out, _) = dipsandbox(&["check", &f]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with("1 passed, 0 failed\n"),
        "{}",
        &out[out.len().saturating_sub(200)..]
    );
}

/// 20,000 orders: to 22 units, and all to one unit (distinct orders with written convoy
/// paths: the multiple-order rule then applies to 20,000 of them), each with an expected result;
/// and 20,000 orders written with an escape (`\u{69}`), which are not found verbatim in the file.
/// Every case is adjudicated and checked.
/// Slow tier (its size is what it guards); `two_thousand_orders` runs the same with 2,000.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn twenty_thousand_orders() {
    many_orders(20_000, "orders");
}

#[test]
fn two_thousand_orders() {
    many_orders(2_000, "orders-small");
}

fn many_orders(count: usize, name: &str) {
    let d = dir(name);
    let seas = [
        "Mid-Atlantic Ocean",
        "English Channel",
        "Irish Sea",
        "North Atlantic Ocean",
        "Western Mediterranean",
        "Gulf of Lyon",
        "North Sea",
        "Norwegian Sea",
    ];
    let mut orders = Vec::new();
    'all: for a in seas {
        for b in seas {
            for c in seas {
                for e in seas {
                    for f in seas {
                        orders.push(format!("A Brest - {a} - {b} - {c} - {e} - {f} - Portugal"));
                        if orders.len() == count {
                            break 'all;
                        }
                    }
                }
            }
        }
    }
    let list = |v: &[String]| v.iter().map(|o| q(o)).collect::<Vec<_>>().join(", ");
    let results: Vec<String> = orders
        .iter()
        .map(|o| format!("({}, Fails)", q(o)))
        .collect();
    let f = write(
        &d,
        "one_unit.ron",
        &format!(
            "Scenario(title: \"{count} orders to one unit\", phase: \"Spring 1901 Movement\", \
             units: {{\"France\": [\"A Brest\", \"F Mid-Atlantic Ocean\"]}}, \
             orders: {{\"France\": [{}]}}, expect: (results: [{}]))",
            list(&orders),
            results.join(", ")
        ),
    );
    // Every order but the one that applies is illegal (DATC 4.D.3) and one may fail: the
    // expectations say `Fails` of each, that it does not act, whatever its word.
    let (code, out, err) = dipsandbox(&["check", &f, "--wording", "lenient"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
    let s = Scenario::load(Path::new(&f)).expect("loads");
    assert_eq!(s.orders.len(), count);
    assert_eq!(s.expect.as_ref().map(|e| e.results.len()), Some(count));

    // 22 units, about 900 orders each.
    let opening = Scenario::opening(Map::standard_arc(), "standard");
    let map = &*opening.map;
    let mut by_power: Vec<(String, Vec<String>)> = Vec::new();
    let mut n = 0;
    'fill: for k in 0.. {
        for u in &opening.units {
            let name = map.power(u.power).name.clone();
            let ns = map.army_neighbours(map.province_of(u.loc));
            let text = match (u.kind, ns.get(k % ns.len().max(1))) {
                (dipsandbox_core::model::map::UnitKind::Army, Some(p)) if k % 3 > 0 => {
                    format!("{} - {}", u.describe(map), map.province(*p).name)
                }
                _ => format!("{} Hold", u.describe(map)),
            };
            match by_power.iter_mut().find(|(p, _)| *p == name) {
                Some((_, v)) => v.push(text),
                None => by_power.push((name, vec![text])),
            }
            n += 1;
            if n == count {
                break 'fill;
            }
        }
    }
    let units: Vec<String> = map
        .power_ids()
        .map(|p| {
            let us: Vec<String> = opening
                .units
                .iter()
                .filter(|u| u.power == p)
                .map(|u| q(&u.describe(map)))
                .collect();
            format!("{}: [{}]", q(&map.power(p).name), us.join(", "))
        })
        .collect();
    let ords: Vec<String> = by_power
        .iter()
        .map(|(p, v)| format!("{}: [{}]", q(p), list(v)))
        .collect();
    let f = write(
        &d,
        "many_units.ron",
        &format!(
            "Scenario(title: \"{count} orders\", phase: \"Spring 1901 Movement\", units: {{{}}}, orders: {{{}}})",
            units.join(", "),
            ords.join(", ")
        ),
    );
    let (code, out, err) = dipsandbox(&["check", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");

    // Escaped text is not found verbatim in the file: still located, and still linear.
    let esc: Vec<String> = (0..count)
        .map(|_| "\"A Par\\u{69}s - Burgundy\"".to_string())
        .collect();
    let f = write(
        &d,
        "escapes.ron",
        &format!(
            "Scenario(title: \"escapes\", phase: \"Spring 1901 Movement\", units: {{\"France\": [\"A Paris\"]}}, \
             orders: {{\"France\": [{}, \"A Par\\u{{69}}s - Nowhere\"]}})",
            esc.join(", ")
        ),
    );
    let (code, out, err) = dipsandbox(&["check", &f]);
    assert_eq!(code, 2);
    assert!(
        out.contains("escapes.ron:1:") && out.contains("unknown province \"Nowhere\""),
        "{out}{err}"
    );

    // 20,000 builds in one province and 20,000 retreat orders for one unit.
    let builds: Vec<String> = (0..count).map(|_| q("Build A Paris")).collect();
    let f = write(
        &d,
        "builds.ron",
        &format!(
            "Scenario(title: \"builds\", phase: \"Winter 1901 Adjustment\", units: {{}}, \
             orders: {{\"France\": [{}]}})",
            builds.join(", ")
        ),
    );
    let s = Scenario::load(Path::new(&f)).expect("loads");
    let v = dipsandbox_core::tools::invariants::check_scenario(&s, &s.rules, 1);
    assert!(
        v.is_empty(),
        "{}",
        dipsandbox_core::tools::invariants::report(&v)
    );
    let r = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
    let built = r.phase().final_units.len();
    assert_eq!(built, 1, "one army in Paris");
    let retreats: Vec<String> = (0..count)
        .map(|k| {
            q(&format!(
                "A Paris - {}",
                ["Picardy", "Gascony", "Brest"][k % 3]
            ))
        })
        .collect();
    let f = write(
        &d,
        "retreats.ron",
        &format!(
            "Scenario(title: \"retreats\", phase: \"Spring 1901 Retreat\", units: {{\"Germany\": [\"A Paris\"]}}, \
             dislodged: {{\"France\": [Dislodged(unit: \"A Paris\", from: \"Burgundy\")]}}, \
             orders: {{\"France\": [{}]}})",
            retreats.join(", ")
        ),
    );
    let s = Scenario::load(Path::new(&f)).expect("loads");
    let v = dipsandbox_core::tools::invariants::check_scenario(&s, &s.rules, 2);
    assert!(
        v.is_empty(),
        "{}",
        dipsandbox_core::tools::invariants::report(&v)
    );
}

/// A jDip file of 100,000 cases is imported whole (the library), and one of 10,000 is checked
/// by the binary.
/// Slow tier (its size is what it guards); `a_jdip_file_of_1000_cases` runs the same with 1,000
/// and 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_jdip_file_of_100000_cases() {
    jdip_file_of_many_cases(100_000, 10_000, "jdip");
}

#[test]
fn a_jdip_file_of_1000_cases() {
    jdip_file_of_many_cases(1_000, 100, "jdip-small");
}

fn jdip_file_of_many_cases(count: usize, checked: usize, name: &str) {
    let case = |i: usize| {
        format!(
            "CASE c{i}\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\nGermany: A ber\nRussia: A war\n\
             ORDERS\nGermany: A ber-sil\nRussia: A war-sil\nPOSTSTATE_SAME\nEND\n"
        )
    };
    let text: String = std::iter::once("VARIANT_ALL Standard\n".to_string())
        .chain((0..count).map(case))
        .collect();
    let f = dipsandbox_core::io::jdip::parse(&text, "many.txt", Map::standard_arc());
    assert_eq!(f.cases.len(), count);
    assert!(f.problems.is_empty());
    let small: String = std::iter::once("VARIANT_ALL Standard\n".to_string())
        .chain((0..checked).map(case))
        .collect();
    let d = dir(name);
    let p = write(&d, "many.txt", &small);
    let (code, out, err) = dipsandbox(&["check", &p]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with(&format!("{checked} passed, 0 failed\n")),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
}
