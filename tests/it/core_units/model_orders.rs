//! The unit tests of the core's `model::orders`.

use dipsandbox_core::model::orders::hooks::{KEYWORD_LISTS, is_kw, kw_key, pack};
use proptest::prelude::*;

/// Every keyword list, as text.
const KEYWORD_TEXTS: &[&[&str]] = &[
    &[
        "-", "->", "to", "moves", "move", "m", "r", "retreat", "retreats", ">",
    ],
    &["s", "supports", "support", "sup", "supp"],
    &["c", "convoys", "convoy", "cvy"],
    &["h", "hold", "holds", "stand", "stands"],
    &["d", "disband", "disbands"],
    &["build", "builds", "b"],
    &["remove", "removes", "rem"],
    &["waive", "waives", "w"],
];

proptest! {
    /// The eight-bytes-at-once key is the byte-by-byte fold ([`pack`]) of every short
    /// ASCII word, whatever its bytes (`@`, `[`, `` ` `` and `{` sit next to the capitals).
    #[test]
    fn keyword_keys_fold_as_pack_does(word in "[\\x01-\\x7f]{1,8}", nul in proptest::option::of(0usize..8)) {
        // With a NUL anywhere among its bytes, no word is a keyword.
        if let Some(at) = nul.filter(|&at| at < word.len()) {
            let mut with_nul = word.clone().into_bytes();
            with_nul[at] = 0;
            let with_nul = String::from_utf8(with_nul).expect("ASCII");
            prop_assert_eq!(kw_key(&with_nul), 0);
        }
        prop_assert_eq!(kw_key(&word), pack(word.strip_suffix('.').filter(|w| !w.is_empty()).unwrap_or(&word)));
    }

    /// A token is a keyword by its integer key exactly when its text, less one trailing
    /// full stop, equals the keyword in any ASCII case.
    #[test]
    fn keyword_keys_match_as_text_does(
        word in prop_oneof![
            "[a-zA-Z.>\\-]{0,10}",
            "(MOVES|Supports|hOlD|retreats|disbands|to|Cvy|->)[.]{0,2}",
            "[a-z\\x00\\u{e9}\\u{130}]{1,9}",
        ],
    ) {
        let lists = KEYWORD_LISTS;
                let text = word.strip_suffix('.').filter(|w| !w.is_empty()).unwrap_or(&word);
        for (keys, texts) in lists.iter().zip(KEYWORD_TEXTS) {
            prop_assert_eq!(keys.len(), texts.len());
            let by_text = texts.iter().any(|k| text.eq_ignore_ascii_case(k));
            prop_assert_eq!(is_kw(&word, keys), by_text, "{:?} in {:?}", word, texts);
        }
    }
}
