//! The scenario loader on arbitrary text: no panic; a scenario that loads is adjudicated (its
//! phase, its follow-up retreats, the next phase) with every invariant checked, and survives
//! saving and loading; and the fast RON reader reads it as the `ron` crate does, or leaves it.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = dipsandbox::scenario::fast_reader_agrees(&text) {
        panic!("{e}");
    }
    if let Ok(s) = dipsandbox::scenario::Scenario::from_ron(&text, "fuzz.ron") {
        dipsandbox_fuzz::check_loaded(&s, data.len() as u64);
    }
});
