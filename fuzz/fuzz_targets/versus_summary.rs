//! `versus merge`'s summaries on arbitrary text: up to three `summary.versus` texts (separated by
//! a NUL byte) read, checked and merged: no panic; a merge sums the parts without wrapping, lists
//! their shards once each, keeps class files plain `.ron` names, counts no more classed positions
//! than disagreements, and writes a summary that reads back the same.
//! (The body is [`dipsandbox_fuzz::versus_summary`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::versus_summary(data);
});
