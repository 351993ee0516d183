//! The scenario loader on arbitrary text: no panic; a scenario that loads is adjudicated (its
//! phase, its follow-up retreats, the next phase) with every invariant checked, and survives
//! saving and loading; and the fast RON reader reads it as the `ron` crate does, or leaves it.
//! (The body is [`dipsandbox_fuzz::scenario_loader`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::scenario_loader(data);
});
