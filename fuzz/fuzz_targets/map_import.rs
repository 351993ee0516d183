//! Other adjudicators' map files on arbitrary text: a DPjudge `.map` (its `USE` includes read from
//! an empty folder), or, for a text that starts with `<`, a jDip `variants.xml` and its adjacency
//! file after a NUL byte: no panic; an imported map loads again from its own RON with as many
//! provinces, and no province or power name holds a control or invisible character.
//! (The body is [`dipsandbox_fuzz::map_import`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::map_import(data);
});
