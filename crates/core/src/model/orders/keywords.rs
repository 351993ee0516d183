//! The order keywords (`-`, `S`, `Supports`, `C`, `Holds`, …), each folded into one integer so
//! that a token is compared with a whole keyword list in a few integer compares. Shared by the
//! parser (`orders.rs`) and the fast path (`plain.rs`).

/// A keyword folded into an integer: its bytes, lower-cased, little-endian (keywords are ASCII,
/// without NUL, at most eight bytes long, so two keywords are equal exactly when their keys are).
pub(super) const fn pack(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut v = 0u64;
    let mut i = 0;
    while i < b.len() && i < 8 {
        v |= (b[i].to_ascii_lowercase() as u64) << (8 * i);
        i += 1;
    }
    v
}

/// The keywords of a move (and of a retreat, which is written the same way).
pub(super) const MOVE_KW: &[u64] = &[
    pack("-"),
    pack("->"),
    pack("to"),
    pack("moves"),
    pack("move"),
    pack("m"),
    pack("r"),
    pack("retreat"),
    pack("retreats"),
    pack(">"),
];
pub(super) const SUPPORT_KW: &[u64] = &[
    pack("s"),
    pack("supports"),
    pack("support"),
    pack("sup"),
    pack("supp"),
];
pub(super) const CONVOY_KW: &[u64] = &[pack("c"), pack("convoys"), pack("convoy"), pack("cvy")];
pub(super) const HOLD_KW: &[u64] = &[
    pack("h"),
    pack("hold"),
    pack("holds"),
    pack("stand"),
    pack("stands"),
];
pub(super) const DISBAND_KW: &[u64] = &[pack("d"), pack("disband"), pack("disbands")];
pub(super) const BUILD_KW: &[u64] = &[pack("build"), pack("builds"), pack("b")];
pub(super) const REMOVE_KW: &[u64] = &[pack("remove"), pack("removes"), pack("rem")];
pub(super) const WAIVE_KW: &[u64] = &[pack("waive"), pack("waives"), pack("w")];
