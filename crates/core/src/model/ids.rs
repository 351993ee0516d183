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
