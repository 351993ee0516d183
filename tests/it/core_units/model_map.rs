//! The unit tests of the core's `model::map`.

use dipsandbox_core::model::map::hooks::{NameIndex, PREFIX_ONLY, continued, named};
use dipsandbox_core::model::map::*;
use proptest::prelude::*;
use std::collections::HashMap;

/// The FxHash tables of the core (power names, a scenario's orders by parse, the
/// legality step's sets of province ids) spread the keys they are given over the low bits a
/// hash table picks its bucket by, with no pile-up: province ids over their whole range (up
/// to [`MAX_PROVINCES`], so ids that differ only in their high bits too), and fields of a
/// few bits written one after another (an order hashed field by field).
#[test]
fn fx_hash_spreads_the_keys_the_tables_hash() {
    use std::hash::BuildHasher;
    let fx = rustc_hash::FxBuildHasher;
    // The fullest of 4096 buckets (the low 12 bits) that 4096 keys fall into.
    let fullest = |keys: &mut dyn Iterator<Item = u64>| {
        let mut count = vec![0u32; 4096];
        for h in keys {
            count[(h & 0xfff) as usize] += 1;
        }
        count.into_iter().max().unwrap_or(0)
    };
    const { assert!((MAX_PROVINCES >> 14) <= 4096) };
    let patterns = [
        fullest(&mut (0u32..4096).map(|k| fx.hash_one(k))),
        fullest(&mut (0u32..4096).map(|k| fx.hash_one(k << 14))),
        fullest(&mut (0u32..4096).map(|k| fx.hash_one((k & 63, k >> 6, 3u8)))),
        fullest(&mut (0u32..4096).map(|k| fx.hash_one(format!("prov {k}")))),
    ];
    // A random function's fullest bucket holds about 7.
    for (i, n) in patterns.into_iter().enumerate() {
        assert!(n <= 8, "pattern {i}: a bucket holds {n} of 4096 keys");
    }
}

/// The index as a `HashMap` would be built: the names first (a clash refused and the
/// index left as it was), then a prefix entry, or the `continues` bit, for every part of a
/// name before a space.
fn model(names: &[(String, u32)]) -> (HashMap<String, NameEntry>, Vec<Option<u32>>) {
    let mut m: HashMap<String, NameEntry> = HashMap::new();
    let mut clashes = Vec::new();
    for (n, id) in names {
        let key = normalize_name(n);
        match m.get(&key).and_then(|e| e.province()) {
            Some(other) if other.0 != *id => clashes.push(Some(other.0)),
            _ => {
                clashes.push(None);
                m.insert(key, named(ProvinceId(*id)));
            }
        }
    }
    let keys: Vec<String> = m.keys().cloned().collect();
    for key in keys {
        for (i, b) in key.bytes().enumerate() {
            if b == b' ' {
                m.entry(key[..i].to_string())
                    .and_modify(|e| *e = continued(*e))
                    .or_insert(PREFIX_ONLY);
            }
        }
    }
    (m, clashes)
}

fn built(names: &[(String, u32)], capacity: usize) -> (NameIndex, Vec<Option<u32>>) {
    let mut index = NameIndex::with_capacity(capacity, 0);
    let mut clashes = Vec::new();
    for (n, id) in names {
        let before = index.state();
        let key = normalize_name(n);
        match index.insert(&key, ProvinceId(*id)) {
            Ok(()) => clashes.push(None),
            Err(Some(other)) => {
                assert_eq!(index.state(), before, "a clash changes nothing");
                clashes.push(Some(other.0));
            }
            Err(None) => unreachable!("a test's names are short"),
        }
    }
    (index, clashes)
}

proptest! {
    /// The index answers every look-up as the `HashMap` model does — names, prefixes,
    /// strings in neither — and holds the same keys, whatever its starting size (a small
    /// one grows many times).
    #[test]
    fn name_index_behaves_like_a_hash_map(
        names in prop::collection::vec(("[abAB .-]{0,12}", 0u32..40), 0..120),
        queries in prop::collection::vec("[ab ]{0,8}", 0..40),
        capacity in 0usize..200,
    ) {
        let (m, want_clashes) = model(&names);
        let (index, clashes) = built(&names, capacity);
        prop_assert_eq!(clashes, want_clashes);
        for (k, e) in &m {
            prop_assert_eq!(index.get(k), *e, "key {:?}", k);
        }
        for q in &queries {
            let q = normalize_name(q);
            prop_assert_eq!(index.get(&q), m.get(&q).copied().unwrap_or(NameEntry::ABSENT));
        }
        let mut got: Vec<(String, NameEntry)> =
            index.iter().map(|(k, e)| (k.to_string(), e)).collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        let mut want: Vec<(String, NameEntry)> = m.into_iter().collect();
        want.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(got, want);
    }
}

#[test]
fn name_index_prefixes_duplicates_and_clashes() {
    let names: Vec<(String, u32)> = [
        ("gulf of lyon", 0),
        ("Gulf  of", 1),
        ("GOL", 0),
        ("gol", 0),
        ("gulf", 2),
        ("Gulf-of-Lyon", 3),
    ]
    .iter()
    .map(|(n, i)| (n.to_string(), *i))
    .collect();
    let (index, clashes) = built(&names, 0);
    assert_eq!(clashes, [None, None, None, None, None, Some(0)]);
    let at = |k: &str| {
        (
            index.get(k).province().map(|p| p.0),
            index.get(k).continues(),
        )
    };
    assert_eq!(at("gulf of lyon"), (Some(0), false));
    assert_eq!(at("gulf of"), (Some(1), true));
    assert_eq!(at("gulf"), (Some(2), true));
    assert_eq!(at("gol"), (Some(0), false));
    assert_eq!(at("gulf of l"), (None, false));
    assert_eq!(index.get("lyon"), NameEntry::ABSENT);
    assert_eq!(index.iter().count(), 4);
}
