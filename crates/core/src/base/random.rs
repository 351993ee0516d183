//! The crate's one pseudo-random generator: splitmix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", 2014), a counter mixed by a fixed function. It is small,
//! has no state but one number, and gives the same numbers on every machine, so that a seed
//! names the same positions, shuffles and synthetic maps everywhere.
//!
//! Every seeded thing the crate makes (the `invariants` tool's shuffles, `synth`'s maps, the
//! seeds of `versus` positions) draws from it; changing it changes them all, which the
//! reproducibility tests notice.

/// The constant added to the state at each step (2⁶⁴ divided by the golden ratio, odd).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function: a well-spread 64-bit function of one number (neighbouring
/// inputs give unrelated outputs).
const fn finish(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A splitmix64 generator: the sequence of numbers of a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator of `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        finish(self.state)
    }

    /// A number below `n`: the next number modulo `n` (0 when `n` is 0, and then no number is
    /// drawn).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        // The remainder is below `n`, a `usize`, so it converts back without loss.
        (self.next_u64() % n as u64) as usize
    }
}

/// A well-spread 64-bit function of a number: the first number of [`SplitMix64::new`]`(x)`, for
/// deriving unrelated seeds from neighbouring ones.
pub const fn spread(x: u64) -> u64 {
    finish(x.wrapping_add(GOLDEN_GAMMA))
}
