//! The unit tests of the core's `base::random`.

use dipsandbox_core::base::random::{SplitMix64, spread};

/// The reference implementation's numbers (splitmix64.c, Vigna) for seed 0: every seeded
/// position, shuffle and synthetic map depends on these staying the same.
#[test]
fn splitmix64_gives_the_reference_sequence() {
    let mut g = SplitMix64::new(0);
    assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    assert_eq!(g.next_u64(), 0x06c4_5d18_8009_454f);
}

#[test]
fn spread_is_the_first_number_of_its_seed() {
    for x in [0, 1, 2, 0x5EED, u64::MAX] {
        assert_eq!(spread(x), SplitMix64::new(x).next_u64(), "{x}");
    }
}

#[test]
fn below_is_below_and_draws_nothing_for_zero() {
    let mut g = SplitMix64::new(7);
    let mut h = g.clone();
    assert_eq!(g.below(0), 0);
    assert_eq!(g, h, "below(0) draws no number");
    for n in 1..50 {
        let v = g.below(n);
        assert!(v < n);
        assert_eq!(v as u64, h.next_u64() % n as u64);
    }
}
