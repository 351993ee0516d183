//! The order parser on arbitrary text (standard map): no panic, errors located inside the text,
//! and every parsed order prints to a text that parses back to it.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let map = dipsandbox::map::Map::standard_arc();
    dipsandbox_fuzz::check_order_text(&map, &text);
});
