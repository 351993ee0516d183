//! What an order is, as written: places, units, the order kinds, and how names are printed.

use crate::model::map::{Coast, PowerId, ProvinceId, UnitKind};

/// A place as written in an order: a province and, optionally, a coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocSpec {
    /// The province.
    pub province: ProvinceId,
    /// The coast, if one was written (it may be wrong or irrelevant).
    pub coast: Option<Coast>,
}

/// A unit as written: optional unit letter, a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitSpec {
    /// `A` or `F`, if written.
    pub kind: Option<UnitKind>,
    /// Where the unit is said to be.
    pub loc: LocSpec,
}

/// A unit referred to by a support or convoy, possibly with a nationality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitRef {
    /// The nationality, if written (`Turkish F Constantinople`).
    pub power: Option<PowerId>,
    /// The unit.
    pub unit: UnitSpec,
}

/// What the order tells the unit to do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    /// Hold (also the default for unordered units).
    Hold,
    /// Move (or retreat, in a retreat phase) to `dest`.
    Move {
        /// Destination.
        dest: LocSpec,
        /// `via convoy` was written.
        via_convoy: bool,
        /// Intermediate provinces of a path specification (`A Yor - Nth - Bel`), DATC 4.A.6.
        path: Vec<ProvinceId>,
    },
    /// Support a unit holding (`dest` None) or moving to `dest`.
    Support {
        /// The supported unit.
        target: UnitRef,
        /// Destination of the supported move, or None for a hold support.
        dest: Option<LocSpec>,
    },
    /// Convoy an army to `dest`.
    Convoy {
        /// The convoyed army.
        army: UnitRef,
        /// Its destination.
        dest: LocSpec,
    },
    /// Disband (retreat phase).
    Disband,
    /// Build the unit (adjustment phase).
    Build,
    /// Remove the unit (adjustment phase).
    Remove,
    /// Waive a build (adjustment phase).
    Waive,
}

impl OrderKind {
    /// Whether an order of this kind has an effect of its own, which its verdict says: a move
    /// (or retreat) is made, a build built, a removal or disbandment carried out. A hold, a
    /// support, a convoy or a waive has none: what it does shows in other orders' results and
    /// on the board.
    pub fn has_own_effect(&self) -> bool {
        matches!(
            self,
            OrderKind::Move { .. } | OrderKind::Disband | OrderKind::Build | OrderKind::Remove
        )
    }
}

/// A submitted order as an engine reads it: whose it is and what it says. Engines take a slice
/// of any such type — a scenario's own entries ([`crate::model::scenario::OrderEntry`]) or bare
/// `(PowerId, Order)` pairs (generated positions, benches) — so that neither has to be copied
/// into the other.
pub trait Submitted {
    /// The power whose order it is.
    fn power(&self) -> PowerId;
    /// The order.
    fn order(&self) -> &Order;
}

impl Submitted for (PowerId, Order) {
    #[inline]
    fn power(&self) -> PowerId {
        self.0
    }
    #[inline]
    fn order(&self) -> &Order {
        &self.1
    }
}

/// One order, as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// The `England:` prefix, if written.
    pub power: Option<PowerId>,
    /// The ordered (or built, removed) unit; None only for `Waive`.
    pub unit: Option<UnitSpec>,
    /// What to do.
    pub kind: OrderKind,
}

/// How names are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NameStyle {
    /// Abbreviations: `A par - bur`.
    Abbr,
    /// Full names: `A Paris - Burgundy` (the DATC style).
    #[default]
    Full,
}
