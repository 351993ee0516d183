//! The jDip importer on arbitrary text: no panic; every case it imports is adjudicated with every
//! invariant checked and survives saving and loading; a pairing file (the same text) never panics.
//! (The body is [`dipsandbox_fuzz::jdip_import`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::jdip_import(data);
});
