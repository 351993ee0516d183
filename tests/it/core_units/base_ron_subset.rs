//! The unit tests of the core's `base::ron_subset`.

use dipsandbox_core::base::ron_subset::hooks::quote_or_backslash;
use proptest::prelude::*;

proptest! {
    /// The eight-bytes-at-once search finds the first `"` or `\` as a plain search does,
    /// wherever it is (in the first 64 bytes or after them) and whatever bytes surround it.
    #[test]
    fn finds_the_first_quote_or_backslash(
        bytes in proptest::collection::vec(
            prop_oneof![1 => Just(b'"'), 1 => Just(b'\\'), 2 => Just(0u8), 2 => Just(0x80u8), 60 => any::<u8>()],
            0..150,
        ),
    ) {
        let plain = bytes.iter().position(|&c| c == b'"' || c == b'\\');
        prop_assert_eq!(quote_or_backslash(&bytes), plain);
    }
}
