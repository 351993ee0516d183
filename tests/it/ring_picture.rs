//! The picture of a decision cycle in the stepper (`tui::view::ring::picture`): names around a
//! rectangle, arrows in the cycle's direction, nothing when it does not fit.

use dipsandbox::tui::view::ring::picture;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("D{i}")).collect()
}

#[test]
fn four_decisions_make_a_square() {
    let p = picture(&names(4), 40, 10).expect("fits");
    assert_eq!(p, ["D3  →  D0", "↑      ↓", "D2  ←  D1"]);
}

#[test]
fn an_odd_ring_closes_up_left() {
    let p = picture(&names(5), 40, 10).expect("fits");
    assert_eq!(
        p,
        [
            "D4  →  D0",
            "↑      ↓",
            "D3     D1",
            "       ↓",
            "    ↖  D2"
        ]
    );
}

#[test]
fn too_small_gives_none() {
    assert!(picture(&names(9), 8, 20).is_none());
    assert!(picture(&names(9), 80, 3).is_none());
    assert!(picture(&names(1), 80, 20).is_none());
}
