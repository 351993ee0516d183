//! The unit tests of the core's `tools::check`.

use dipsandbox_core::tools::check::hooks::same_multiset;

fn same(a: &[u32], b: &[u32]) -> bool {
    same_multiset(|| a.iter().copied(), || b.iter().copied())
}

#[test]
fn multisets_compare_by_count_not_order_at_every_length() {
    assert!(same(&[], &[]));
    assert!(same(&[3, 1, 2], &[1, 2, 3]));
    assert!(
        !same(&[1, 1, 2], &[1, 2, 2]),
        "the same items, other counts"
    );
    assert!(!same(&[1, 2], &[1, 2, 3]));
    // Past the item-by-item length: the sorted comparison says the same.
    let long: Vec<u32> = (0..40).map(|i| i % 7).collect();
    let mut shuffled = long.clone();
    shuffled.reverse();
    assert!(same(&long, &shuffled));
    let mut other = long.clone();
    other[0] = 6;
    assert!(!same(&long, &other));
    // Every short pair of lists over a small alphabet against the sorted comparison.
    for code in 0u32..4096 {
        let a: Vec<u32> = (0..3).map(|k| (code >> (2 * k)) & 3).collect();
        let b: Vec<u32> = (3..6).map(|k| (code >> (2 * k)) & 3).collect();
        let (mut x, mut y) = (a.clone(), b.clone());
        x.sort_unstable();
        y.sort_unstable();
        assert_eq!(same(&a, &b), x == y, "{a:?} {b:?}");
    }
}
