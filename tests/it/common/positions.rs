//! Random dense positions on the standard map, shared by the tests that hold two engines
//! against each other (`tests/oracle.rs`, `tests/dpjudge.rs`): the core's deterministic
//! generator (`dipsandbox_core::tools::versus::positions`, which `versus` runs too), so that a
//! failing seed reproduces, and positions with or without convoys.

use std::sync::OnceLock;

use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{Map, PowerId};
use dipsandbox_core::model::orders::Order;
use dipsandbox_core::tools::versus::positions::{self, Recipe};

/// The standard map, loaded once.
pub fn standard() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(Map::standard)
}

/// Whether random positions may hold convoys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convoys {
    /// Convoy orders, moves by convoy (planted paradox cores, convoys to neighbours, `via
    /// convoy`) as well as moves, supports and holds.
    Included,
    /// Moves over land and along coasts, supports and holds only: no convoy order, no move that
    /// needs a convoy, no `via convoy`.
    Excluded,
}

/// A dense position on a small connected region of the standard map
/// ([`positions::random_position`] with [`Recipe::WITH_CONVOYS`] or
/// [`Recipe::WITHOUT_CONVOYS`]): with [`Convoys::Included`] the positions are exactly those
/// `tests/oracle.rs` has always used for a seed.
pub fn random_position(seed: u64, convoys: Convoys) -> (Vec<Unit>, Vec<(PowerId, Order)>) {
    let recipe = match convoys {
        Convoys::Included => Recipe::WITH_CONVOYS,
        Convoys::Excluded => Recipe::WITHOUT_CONVOYS,
    };
    positions::random_position(standard(), seed, recipe)
}
