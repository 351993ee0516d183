//! The dense ids every table of a map is indexed by. They sit below [`crate::model::map`] and
//! [`crate::model::art`] so that both can use them without importing each other.

/// Index of a province in [`Map::provinces`](crate::model::map::Map::provinces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProvinceId(pub u32);

/// Index of a location in [`Map::locations`](crate::model::map::Map::locations): a province as a whole, or one coast of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocId(pub u32);

/// Index of a power in [`Map::powers`](crate::model::map::Map::powers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PowerId(pub u8);

impl PowerId {
    /// The owner of neutral units: the garrisons some variants put in unowned supply centres.
    /// It is no power of the map (maps have at most
    /// [`MAX_POWERS`](crate::model::map::MAX_POWERS) powers, fewer than this id): neutral units
    /// hold every turn, cannot be ordered, may be supported by any power, are disbanded when
    /// dislodged and are never built; they own no centre and count for nobody.
    pub const NEUTRAL: PowerId = PowerId(u8::MAX);

    /// Whether this is [`PowerId::NEUTRAL`].
    pub fn is_neutral(self) -> bool {
        self == PowerId::NEUTRAL
    }
}
