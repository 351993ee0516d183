//! The order parser on arbitrary text (standard map): no panic, errors located inside the text,
//! and every parsed order prints to a text that parses back to it.
//! (The body is [`dipsandbox_fuzz::order_parser`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::order_parser(data);
});
