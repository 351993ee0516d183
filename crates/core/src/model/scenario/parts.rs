//! The parts of a scenario below the scenario itself: its order entries and what it expects of
//! them. A leaf module, so that the fast reader (`raw.rs`) and the loader can both use them.

use serde::Deserialize;

use crate::model::board::Unit;
use crate::model::map::PowerId;
use crate::model::orders::{Order, Submitted};

/// What a scenario expects of one order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
pub enum Expected {
    /// The order succeeds (move moves, support given, convoy undisrupted, hold not dislodged…).
    Succeeds,
    /// The order does not succeed, for whatever reason.
    Fails,
    /// The order is illegal and ignored (DATC 4.E.1).
    Illegal,
    /// A legal support or convoy that does not match the supported unit's order.
    Void,
}

/// One order of a scenario: who gave it, the text as written, and its parse.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderEntry {
    /// The power whose order list it is in.
    pub power: PowerId,
    /// The text exactly as written in the file.
    pub text: String,
    /// The parsed order.
    pub order: Order,
}

impl Submitted for OrderEntry {
    #[inline]
    fn power(&self) -> PowerId {
        self.power
    }
    #[inline]
    fn order(&self) -> &Order {
        &self.order
    }
}

/// The expectations for one phase.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expect {
    /// Per order (by index into the phase's orders): the key as written — empty when it is the
    /// order's own text, as keys usually are — and the expected result.
    pub results: Vec<(usize, String, Expected)>,
    /// Units expected to be dislodged, if stated. They are compared by unit type and place only,
    /// as files write them (`"A ruh"`, no power): a loaded list holds `PowerId(0)` as each
    /// owner; a frozen one holds the real owners.
    pub dislodged: Option<Vec<Unit>>,
    /// Every non-dislodged unit at the end of the phase, if stated.
    pub positions: Option<Vec<Unit>>,
}

/// Retreat orders that follow the scenario's movement phase, with their expectations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FollowUp {
    /// The retreat orders.
    pub orders: Vec<OrderEntry>,
    /// What they should do.
    pub expect: Option<Expect>,
}
