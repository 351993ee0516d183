//! The jDip importer on arbitrary text: no panic; every case it imports is adjudicated with every
//! invariant checked and survives saving and loading; a pairing file (the same text) never panics.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = dipsandbox::jdip::looks_like_jdip(&text);
    let mut file = dipsandbox::jdip::parse(&text, "fuzz.txt", dipsandbox::map::Map::standard_arc());
    for (k, case) in file.cases.iter().enumerate().take(8) {
        dipsandbox_fuzz::check_loaded(&case.scenario, k as u64);
        if let Ok(run) = dipsandbox::check::run(&case.scenario, None, false) {
            let _ = dipsandbox::jdip::compare(&case.scenario, &run);
            let _ = dipsandbox::jdip::with_destroyed_units(&case.scenario, &run);
        }
    }
    dipsandbox::jdip::apply_rules_file(&mut file, &text, "fuzz.rules");
});
