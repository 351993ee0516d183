//! The scenario loader on arbitrary text: no panic; a scenario that loads is adjudicated (its
//! phase, its follow-up retreats, the next phase) with every invariant checked, and survives
//! saving and loading.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = dipsandbox::scenario::Scenario::from_ron(&text, "fuzz.ron") {
        dipsandbox_fuzz::check_loaded(&s, data.len() as u64);
    }
});
