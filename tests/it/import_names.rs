//! The file names `import` gives the cases of a jDip file: unique also where case does not
//! count, numbered in turn, cut between characters, never a device name of Windows.

use std::path::Path;

use crate::common::{dipsandbox, temp_dir};

/// A jDip file of cases named `names`, each one fleet holding in London.
fn suite(names: &[&str]) -> String {
    let mut s = String::from("VARIANT_ALL Standard\n");
    for n in names {
        s.push_str(&format!(
            "CASE {n}\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\nEngland: F lon\n\
             ORDERS\nEngland: F lon H\nPOSTSTATE_SAME\nEND\n"
        ));
    }
    s
}

/// Imports the cases named `names` and gives the written files' names in the order of the
/// cases.
fn import(dir: &Path, names: &[&str]) -> Vec<String> {
    let file = dir.join("cases.txt");
    std::fs::write(&file, suite(names)).expect("write");
    let to = dir.join("out");
    let (code, out, err) = dipsandbox(&[
        "import",
        file.to_str().expect("utf-8"),
        "--to",
        to.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let mut files: Vec<String> = std::fs::read_dir(&to)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
        .collect();
    assert_eq!(files.len(), names.len(), "{files:?}");
    // In the order of the cases: each file's `source` names the line its case starts on.
    files.sort_by_key(|f| {
        let text = std::fs::read_to_string(to.join(f)).expect("read");
        let line = text.split(", line ").nth(1).expect("source line");
        let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<usize>().expect("line number")
    });
    files
}

#[test]
fn duplicate_names_are_numbered_in_turn() {
    let dir = temp_dir("import-names-dup");
    let files = import(&dir, &["same", "same", "same", "same-2", "Same", "x"]);
    assert_eq!(
        files,
        [
            "same.ron",
            "same-2.ron",
            "same-3.ron",
            "same-2-2.ron",
            "Same-4.ron",
            "x.ron"
        ]
    );
}

/// A device name of Windows gets `-case`; a name of no usable character is `case`; a long name is
/// cut below 100 bytes between two characters however the bytes fall (`a` then two-byte `é`s).
#[test]
fn reserved_empty_and_long_names_are_made_safe() {
    let dir = temp_dir("import-names-safe");
    let odd = format!("a{}", "é".repeat(150));
    let files = import(&dir, &["CON", "!?", &odd]);
    assert_eq!(
        files,
        [
            "CON-case.ron".to_string(),
            "case.ron".to_string(),
            format!("a{}.ron", "é".repeat(49)),
        ]
    );
}
