//! The years a game may have: shared by phases ([`crate::model::board::Phase`]) and maps (a
//! map's first year), which both check against them.

/// The first year a phase may have.
pub const FIRST_YEAR: i32 = 1;

/// The last year a phase may have: `Phase::parse` refuses a later one, and the turn cycle does
/// not go past its Winter (`crate::tools::turn::advance` says so instead of wrapping).
pub const LAST_YEAR: i32 = 9999;
