//! The map loader on arbitrary text: no panic; a map that loads has symmetric borders, and its
//! opening position (every unit holding) adjudicates through a year with every invariant checked.
//! (The body is [`dipsandbox_fuzz::map_loader`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::map_loader(data);
});
