//! Maps as data: provinces, coasts, powers and adjacency, loaded from RON and validated.
//!
//! A [`Map`] is dense: provinces, locations (a province, or one coast of a two-coast province) and
//! powers are small integer ids, and adjacency is stored as per-id lists, so the adjudicator's hot
//! paths never touch strings. Names are only used when parsing and printing.
//!
//! A map file may list neutral units, `neutral_units: ["A ser", "F nwy"]` (each written as a
//! power's `start` units are): garrisons of supply centres no power owns, owned by
//! [`PowerId::NEUTRAL`] and written under `"Neutral"` in a scenario's `units`. They hold every
//! turn (their hold strength counts any power's supports), cannot be ordered, are disbanded
//! when dislodged (no retreat), are never built or removed, count for no power and change no
//! centre's owner. A map with neutral units may have no power named `Neutral` (a map without
//! them may: there `Neutral` names that power).

//!
//! - `types.rs`: the types and [`Map`]'s queries;
//! - `names.rs`: the name index and name normalization;
//! - `load.rs`: reading and checking a map file (or lists) into a [`Map`];
//! - `builtin.rs`: the maps compiled in (every map in the repository's `maps/`).

mod builtin;
mod load;
mod names;
mod types;

pub use builtin::{
    BUILT_IN, MapSource, OTHER_NAMES, available, built_in, built_in_names, our_name,
};
pub use load::ProvinceSpec;
pub(crate) use names::ALNUM_LOWER;
pub use names::{NameEntry, normalize_into, normalize_name};
pub use types::*;

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    use super::names::{NameClash, NameEntry};
    use super::types::ProvinceId;

    /// The entry of a name of province `p`.
    pub fn named(p: ProvinceId) -> NameEntry {
        NameEntry::named(p)
    }

    /// `e` with its `continues` bit set (a longer name continues it after a space).
    pub fn continued(e: NameEntry) -> NameEntry {
        NameEntry(e.0 | NameEntry::CONTINUES)
    }

    /// The entry of a prefix that names no province but that a longer name continues.
    pub const PREFIX_ONLY: NameEntry = NameEntry(NameEntry::NONE | NameEntry::CONTINUES);

    /// A map's index of names, on its own.
    pub struct NameIndex(super::names::NameIndex);

    impl NameIndex {
        /// An empty index with room for `names` names of `bytes` bytes in all.
        pub fn with_capacity(names: usize, bytes: usize) -> NameIndex {
            NameIndex(super::names::NameIndex::with_capacity(names, bytes))
        }

        /// Adds the normalized name `key` of `id` (with its hash, as a map does): `Err(Some)`
        /// names the other province a clash is with, `Err(None)` is a name too long.
        pub fn insert(&mut self, key: &str, id: ProvinceId) -> Result<(), Option<ProvinceId>> {
            match self
                .0
                .insert_key(key, super::names::name_hash(key.as_bytes()), id)
            {
                Ok(()) => Ok(()),
                Err(NameClash::Province(other)) => Err(Some(other)),
                Err(NameClash::TooLong) => Err(None),
            }
        }

        /// The entry of the normalized `key`.
        pub fn get(&self, key: &str) -> NameEntry {
            self.0.get(key)
        }

        /// Every key with its entry.
        pub fn iter(&self) -> impl Iterator<Item = (&str, NameEntry)> + '_ {
            self.0.iter()
        }

        /// Its text and its table's length (to see that a refused insert changed nothing).
        pub fn state(&self) -> (String, usize) {
            (self.0.text.clone(), self.0.table.len())
        }
    }
}
