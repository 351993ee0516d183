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

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): province, location and power
// ids index the map's own tables; ids are made only by the map while it is built, after the count
// limits are checked, and always below the table lengths.
#![allow(clippy::indexing_slicing)]

use std::fmt;

use serde::Deserialize;

use crate::base::source::Locator;
use crate::base::text::cut;
use crate::model::art::MapArt;
use crate::model::error::{MapError, SourcePos, quoted};
pub use crate::model::ids::{LocId, PowerId, ProvinceId};

/// Army or fleet.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, Deserialize,
)]
pub enum UnitKind {
    /// An army: moves over land, can be convoyed.
    Army,
    /// A fleet: moves over sea and along coasts, can convoy.
    Fleet,
}

impl UnitKind {
    /// The letter used in order notation: `A` or `F`.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }
}

/// What kind of terrain a province is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ProvinceKind {
    /// Open water: fleets only.
    Sea,
    /// A coastal land province: armies and fleets.
    Coast,
    /// An inland province: armies only.
    Land,
}

/// Where a power may build (a variant's rule; map data, `build_sites` in a map file). Whatever
/// the rule, a build is in a supply centre the power owns and no unit stands in, and a power
/// builds at most as many units as it is due (centres owned less units).
///
/// Chaos's "build anywhere" is [`BuildSites::Owned`]: its rules build "at any owned supply
/// center", jDip's Chaos says `VALUE_BUILDS_ANY_OWNED` and the DPjudge's `BUILD_ANY` means the
/// same; no variant builds in centres it does not own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum BuildSites {
    /// In its own home supply centres that it still owns (the standard rules; jDip's
    /// `VALUE_BUILDS_HOME_ONLY`).
    #[default]
    Home,
    /// In any supply centre it owns (Modern Diplomacy, Chaos; the DPjudge's
    /// `RULE BUILD_ANY`, jDip's `VALUE_BUILDS_ANY_OWNED`).
    Owned,
    /// In any supply centre it owns, while it owns at least one of its home centres; a power
    /// that owns none of them builds nothing (Hundred's rules; jDip's
    /// `VALUE_BUILDS_ANY_IF_HOME_OWNED`).
    OwnedIfHomeOwned,
}

/// The phase a game on a map begins with (a variant's rule; map data, `start_phase` in a map
/// file). Either way the phase is in the map's `start_year`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum StartPhase {
    /// Spring movement, with every power's starting units on the board (the standard rules).
    #[default]
    SpringMovement,
    /// The winter adjustment before the first Spring: the powers build their first units in the
    /// centres they own (Chaos, whose jDip file says `Fall, 1900, Adjustment`).
    WinterAdjustment,
}

/// A named coast of a multi-coast province.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Coast {
    /// North coast (`nc`).
    North,
    /// South coast (`sc`).
    South,
    /// East coast (`ec`).
    East,
    /// West coast (`wc`).
    West,
}

impl Coast {
    /// All coasts, in a fixed order.
    pub const ALL: [Coast; 4] = [Coast::North, Coast::South, Coast::East, Coast::West];

    /// The two-letter abbreviation (`nc`, `sc`, `ec`, `wc`).
    pub fn abbr(self) -> &'static str {
        match self {
            Coast::North => "nc",
            Coast::South => "sc",
            Coast::East => "ec",
            Coast::West => "wc",
        }
    }

    /// The English name, e.g. "north coast".
    pub fn name(self) -> &'static str {
        match self {
            Coast::North => "north coast",
            Coast::South => "south coast",
            Coast::East => "east coast",
            Coast::West => "west coast",
        }
    }

    /// Parses `nc`, `north`, `north coast`, `n` (any case).
    pub fn parse(s: &str) -> Option<Coast> {
        // Compared without case and without building a lower-case copy.
        let s = s.trim();
        let s = match s
            .len()
            .checked_sub(6)
            .and_then(|k| s.get(k..).map(|t| (k, t)))
        {
            Some((k, tail)) if tail.eq_ignore_ascii_case(" coast") => s[..k].trim(),
            _ => s,
        };
        let is = |words: &[&str]| words.iter().any(|w| s.eq_ignore_ascii_case(w));
        if is(&["nc", "n", "north", "ncs"]) {
            Some(Coast::North)
        } else if is(&["sc", "s", "south", "scs"]) {
            Some(Coast::South)
        } else if is(&["ec", "e", "east", "ecs"]) {
            Some(Coast::East)
        } else if is(&["wc", "w", "west", "wcs"]) {
            Some(Coast::West)
        } else {
            None
        }
    }
}

impl fmt::Display for Coast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abbr())
    }
}

/// A province of the map.
#[derive(Clone, Debug)]
pub struct Province {
    /// Canonical abbreviation, lower case (e.g. `nth`).
    pub abbr: String,
    /// Full English name (e.g. "North Sea").
    pub name: String,
    /// Other accepted spellings, lower case.
    pub aliases: Vec<String>,
    /// Sea, coastal or inland.
    pub kind: ProvinceKind,
    /// Whether the province is a supply centre.
    pub supply_center: bool,
    /// The power whose home centre this is, if any.
    pub home_of: Option<PowerId>,
    /// The location of the province as a whole (armies, and fleets on single-coast provinces).
    pub main: LocId,
    /// Coast locations for multi-coast provinces (empty otherwise).
    pub coasts: Vec<(Coast, LocId)>,
}

impl Province {
    /// Whether this province has more than one coast.
    pub fn is_multi_coast(&self) -> bool {
        !self.coasts.is_empty()
    }

    /// The location of the given coast, if the province has it.
    pub fn coast(&self, coast: Coast) -> Option<LocId> {
        self.coasts
            .iter()
            .find(|(c, _)| *c == coast)
            .map(|(_, l)| *l)
    }
}

/// A location: a province, possibly with a coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The province.
    pub province: ProvinceId,
    /// The coast, for the coast locations of a multi-coast province.
    pub coast: Option<Coast>,
}

/// A great power.
#[derive(Clone, Debug)]
pub struct Power {
    /// Name, e.g. "England".
    pub name: String,
    /// Adjective, e.g. "English".
    pub adjective: String,
    /// Other accepted spellings, lower case.
    pub aliases: Vec<String>,
    /// Home supply centres.
    pub home: Vec<ProvinceId>,
    /// Units at the start of the game.
    pub start: Vec<(UnitKind, LocId)>,
    /// Supply centres it owns at the start besides its home centres (`owns` in a map file;
    /// Chaos gives each power one centre it owns but that is nobody's home).
    pub owns: Vec<ProvinceId>,
    /// Home centres it does not own at the start (`unowned_homes` in a map file; in 1898 each
    /// power starts with one unit in one home centre and must take the others). They are still
    /// its home centres: it builds there once it owns them, and civil disorder measures from
    /// them.
    pub unowned_homes: Vec<ProvinceId>,
}

/// A validated map.
#[derive(Clone, Debug)]
pub struct Map {
    /// Short name, e.g. `standard`.
    pub name: String,
    /// Human title.
    pub title: String,
    /// The year a game on this map starts in (its opening is Spring of that year): 1901 unless
    /// the map file says `start_year`.
    pub start_year: i32,
    /// The phase of `start_year` a game begins with: Spring movement unless the map file says
    /// `start_phase`.
    pub start_phase: StartPhase,
    /// Where powers may build.
    pub build_sites: BuildSites,
    /// Supply centres a power needs to win; None: more than half of them (18 of 34 on the
    /// standard map).
    pub victory: Option<usize>,
    /// The powers, in file order.
    pub powers: Vec<Power>,
    /// Neutral units at the start of a game (`neutral_units` in a map file): garrisons of
    /// unowned supply centres, owned by [`PowerId::NEUTRAL`]. They hold every turn, cannot be
    /// ordered, may be supported by any power, are disbanded when dislodged and never rebuilt.
    pub neutral_units: Vec<(UnitKind, LocId)>,
    /// The provinces, in file order.
    pub provinces: Vec<Province>,
    /// All locations.
    pub locations: Vec<Location>,
    army_adj: Vec<Vec<ProvinceId>>,
    fleet_adj: Vec<Vec<LocId>>,
    /// Every normalized name, and every prefix of one that ends before a space (`"gulf"`,
    /// `"gulf of"`): one look-up tells the order parser both whether the words read so far
    /// name a province and whether another word could make a longer name.
    names: NameIndex,
    power_names: Names<PowerId>,
    art: Option<MapArt>,
    /// Per province, its position as the map file gives it (`position: (x, y)`), if any.
    positions: Vec<Option<(i32, i32)>>,
}

/// The name (normalized) of the owner of neutral units (unless a power of the map has it).
pub const NEUTRAL_NAME: &str = "neutral";

/// What [`Map::power`] says of [`PowerId::NEUTRAL`].
static NEUTRAL_POWER: std::sync::LazyLock<Power> = std::sync::LazyLock::new(|| Power {
    name: "Neutral".into(),
    adjective: "Neutral".into(),
    aliases: Vec::new(),
    home: Vec::new(),
    start: Vec::new(),
    owns: Vec::new(),
    unowned_homes: Vec::new(),
});

/// A map from normalized names (FxHash: names come from the map file, not from an adversary).
type Names<V> = rustc_hash::FxHashMap<String, V>;

/// What a normalized string is in a map's name index ([`Map::lookup_normalized`]): the
/// province it names, if any, and whether it is followed by a space and more words in some
/// longer name (`"gulf of"` in `"gulf of lyon"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NameEntry(u32);

impl NameEntry {
    /// The low 31 bits when the string names no province.
    const NONE: u32 = 0x7fff_ffff;
    /// The bit set when a longer name continues the string.
    const CONTINUES: u32 = 0x8000_0000;
    /// Not in the index at all: no province, no longer name.
    pub const ABSENT: NameEntry = NameEntry(Self::NONE);

    fn named(p: ProvinceId) -> NameEntry {
        // Province ids are below MAX_PROVINCES (2^26), checked before any is made.
        NameEntry(p.0 & Self::NONE)
    }

    /// The province this string names, if any.
    pub fn province(self) -> Option<ProvinceId> {
        let id = self.0 & Self::NONE;
        (id != Self::NONE).then_some(ProvinceId(id))
    }

    /// Whether some longer name starts with this string followed by a space.
    pub fn continues(self) -> bool {
        self.0 & Self::CONTINUES != 0
    }
}

/// A map's name index: every normalized name, and every prefix of one that ends before a space,
/// with its [`NameEntry`].
///
/// Dense, for maps of millions of names: the names are concatenated in one string, and a
/// `hashbrown::HashTable` holds one 12-byte slot per key — where its text is, and its entry —
/// hashed with [`name_hash`] (the table keeps 7 bits of it per slot, so a miss rarely compares
/// strings). A prefix (`"gulf of"`) is a slot over the text of the name it begins; it has no
/// text of its own.
#[derive(Clone, Debug)]
struct NameIndex {
    /// The normalized names, concatenated.
    text: String,
    /// The keys, each as a span of `text`, with their entries.
    table: hashbrown::HashTable<NameSlot>,
}

/// One key of a [`NameIndex`] (`len` bytes of the index's text from `start`) and its entry.
#[derive(Clone, Copy, Debug)]
struct NameSlot {
    start: u32,
    len: u32,
    entry: NameEntry,
}

/// The hash of a key of a [`NameIndex`]: its 8-byte words (the last one read overlapping the
/// one before, a short key's bytes gathered into one word) and its length, multiplied and
/// folded so that both the low bits (the bucket) and the top bits (the tag) depend on every byte.
fn name_hash(key: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let n = key.len();
    let word = |i: usize| {
        key.get(i..)
            .and_then(|s| s.first_chunk::<8>())
            .map_or(0, |c| u64::from_le_bytes(*c))
    };
    let half = |i: usize| {
        key.get(i..)
            .and_then(|s| s.first_chunk::<4>())
            .map_or(0, |c| u64::from(u32::from_le_bytes(*c)))
    };
    let byte = |i: usize| key.get(i).map_or(0, |&b| u64::from(b));
    let mut h = (n as u64).wrapping_mul(K);
    let last = if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            h = (h.rotate_left(5) ^ word(i)).wrapping_mul(K);
            i += 8;
        }
        word(n - 8)
    } else if n >= 4 {
        half(0) | (half(n - 4) << 32)
    } else if n > 0 {
        byte(0) | (byte(n / 2) << 8) | (byte(n - 1) << 16)
    } else {
        0
    };
    h = (h.rotate_left(5) ^ last).wrapping_mul(K);
    let h = (h ^ (h >> 32)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// Why [`NameIndex::insert_pending`] refused a name.
enum NameClash {
    /// Another province has the name already.
    Province(ProvinceId),
    /// The index's text would pass 4 GiB (its offsets are 32-bit).
    TooLong,
}

impl NameIndex {
    /// An index sized for `names` keys (prefixes included, or it grows) and `bytes` of text.
    fn with_capacity(names: usize, bytes: usize) -> NameIndex {
        NameIndex {
            text: String::with_capacity(bytes),
            table: hashbrown::HashTable::with_capacity(names),
        }
    }

    /// The key of a slot, from the text.
    fn key_of<'t>(text: &'t str, s: &NameSlot) -> &'t [u8] {
        text.as_bytes()
            .get(s.start as usize..s.start as usize + s.len as usize)
            .unwrap_or_default()
    }

    /// The entry of a normalized string ([`NameEntry::ABSENT`] if it is not in the index).
    fn get(&self, key: &str) -> NameEntry {
        let key = key.as_bytes();
        self.get_hashed(key, name_hash(key))
    }

    /// [`NameIndex::get`] with the key's [`name_hash`] already made.
    fn get_hashed(&self, key: &[u8], hash: u64) -> NameEntry {
        self.table
            .find(hash, |s| Self::key_of(&self.text, s) == key)
            .map_or(NameEntry::ABSENT, |s| s.entry)
    }

    /// Adds a slot for `len` bytes of text from `start`, hashed `hash` (not in the table).
    fn put(&mut self, start: usize, len: usize, hash: u64, entry: NameEntry) {
        let text = &self.text;
        self.table.insert_unique(
            hash,
            NameSlot {
                start: start as u32,
                len: len as u32,
                entry,
            },
            |s| name_hash(Self::key_of(text, s)),
        );
    }

    /// Indexes `key` (normalized, [`normalize_into`]; `hash` is its [`name_hash`]) as a name
    /// of province `id`, with its prefixes that end before a space. The key's text is added only
    /// if the key is new (not this province's already, nor a prefix of a longer name). Refused
    /// if another province has the name; the index is then unchanged.
    fn insert_key(&mut self, key: &str, hash: u64, id: ProvinceId) -> Result<(), NameClash> {
        let text = &self.text;
        if let Some(s) = self
            .table
            .find_mut(hash, |s| Self::key_of(text, s) == key.as_bytes())
        {
            let e = s.entry;
            if let Some(other) = e.province()
                && other != id
            {
                return Err(NameClash::Province(other));
            }
            // Its prefixes were indexed with it (or with the longer name it begins).
            s.entry = NameEntry(NameEntry::named(id).0 | (e.0 & NameEntry::CONTINUES));
            return Ok(());
        }
        let start = self.text.len();
        if start + key.len() > u32::MAX as usize {
            return Err(NameClash::TooLong);
        }
        self.text.push_str(key);
        let len = key.len();
        self.put(start, len, hash, NameEntry::named(id));
        for k in 0..len {
            if self.text.as_bytes()[start + k] == b' ' {
                let text = &self.text;
                let prefix = &text.as_bytes()[start..start + k];
                let h = name_hash(prefix);
                match self.table.find_mut(h, |s| Self::key_of(text, s) == prefix) {
                    Some(s) => s.entry.0 |= NameEntry::CONTINUES,
                    None => self.put(
                        start,
                        k,
                        h,
                        NameEntry(NameEntry::NONE | NameEntry::CONTINUES),
                    ),
                }
            }
        }
        Ok(())
    }

    /// Every key and its entry, in table order.
    fn iter(&self) -> impl Iterator<Item = (&str, NameEntry)> + '_ {
        self.table.iter().filter_map(|s| {
            Some((
                self.text
                    .get(s.start as usize..(s.start + s.len) as usize)?,
                s.entry,
            ))
        })
    }
}

/// Normalized keys and their hashes, made for a batch of look-ups before any of them is made. A name that is already normalized (lower-case letters and digits,
/// like most abbreviations) is its own key and is not copied; the others are folded into one
/// buffer.
#[derive(Default)]
struct KeyBatch {
    /// The keys of the names that needed folding, concatenated.
    folded: String,
    /// Each key's place in `folded`, or `None` if the name is its own key.
    spans: Vec<Option<(usize, usize)>>,
    /// Each key's [`name_hash`].
    hashes: Vec<u64>,
}

impl KeyBatch {
    /// Empties the batch (its buffers are kept).
    fn clear(&mut self) {
        self.folded.clear();
        self.spans.clear();
        self.hashes.clear();
    }

    /// Adds the key of `name` ([`normalize_into`]).
    fn push(&mut self, name: &str) {
        if name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            self.hashes.push(name_hash(name.as_bytes()));
            self.spans.push(None);
        } else {
            let start = self.folded.len();
            normalize_into(name, &mut self.folded);
            self.hashes
                .push(name_hash(&self.folded.as_bytes()[start..]));
            self.spans.push(Some((start, self.folded.len())));
        }
    }

    /// The key of the `k`th name pushed, which was `name`, and its hash.
    fn key<'a>(&'a self, k: usize, name: &'a str) -> (&'a str, u64) {
        let key = match self.spans[k] {
            None => name,
            Some((a, b)) => &self.folded[a..b],
        };
        (key, self.hashes[k])
    }
}

/// How many provinces' names or borders [`build`] folds and hashes before it looks them up.
const BATCH: usize = 32;

/// Whether a sorted list of borders holds `x`.
fn sorted_contains<T: Copy + Ord>(list: &[T], x: T) -> bool {
    if list.len() <= LINEAR_SEARCH {
        list.contains(&x)
    } else {
        list.binary_search(&x).is_ok()
    }
}

/// Lists of borders up to this length are searched from end to end; longer ones (sorted) by
/// halves.
const LINEAR_SEARCH: usize = 32;

/// The most provinces a map may have (ids are 32-bit; the limit leaves room for the
/// adjudicator's per-unit decision ids, up to eight per unit, in 32 bits too).
pub const MAX_PROVINCES: usize = 1 << 26;

/// The most locations (provinces plus the coasts of multi-coast provinces) a map may have.
pub const MAX_LOCATIONS: usize = 1 << 27;

/// The most powers a map may have (power ids are 8-bit).
pub const MAX_POWERS: usize = 250;

/// The standard map's RON source, compiled into the binary.
pub const STANDARD_RON: &str = include_str!("../../../../maps/standard.ron");

/// Counts of a map, for summaries and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapSummary {
    /// All provinces.
    pub provinces: usize,
    /// Sea provinces.
    pub seas: usize,
    /// Inland provinces.
    pub inland: usize,
    /// Coastal provinces.
    pub coastal: usize,
    /// Supply centres.
    pub supply_centers: usize,
    /// Home supply centres.
    pub home_centers: usize,
}

impl Map {
    /// The standard map, parsed once from the compiled-in data.
    pub fn standard() -> Map {
        (*Map::standard_arc()).clone()
    }

    /// The standard map, shared.
    pub fn standard_arc() -> std::sync::Arc<Map> {
        static STANDARD: std::sync::OnceLock<std::sync::Arc<Map>> = std::sync::OnceLock::new();
        STANDARD
            .get_or_init(|| {
                // Audited exception to `clippy::expect_used`: the map is compiled in and checked
                // by the test suite (tests/it/map.rs), so failing here is a build defect, never
                // something a user's input can cause.
                #[allow(clippy::expect_used)]
                std::sync::Arc::new(
                    Map::from_ron(STANDARD_RON, "maps/standard.ron")
                        .expect("built-in standard map is valid"),
                )
            })
            .clone()
    }

    /// Loads a map by name (`standard`, or a file in `maps/`) or path.
    pub fn load(name_or_path: &str) -> Result<Map, MapError> {
        if name_or_path == "standard" {
            return Ok(Map::standard());
        }
        match Map::locate(name_or_path) {
            Some(path) => {
                let text = crate::base::source::read_text(&path)?;
                Map::from_ron(&text, &path.display().to_string())
            }
            None => Err(MapError::NotFound {
                name: name_or_path.to_string(),
            }),
        }
    }

    /// The file [`Map::load`] reads for a name or path other than `standard`: the path itself,
    /// else `maps/NAME.ron` in the current folder. None when neither is a file.
    pub fn locate(name_or_path: &str) -> Option<std::path::PathBuf> {
        [
            std::path::PathBuf::from(name_or_path),
            std::path::Path::new("maps").join(format!("{name_or_path}.ron")),
        ]
        .into_iter()
        .find(|p| p.is_file())
    }

    /// Parses and validates a map from RON text; `file` names it in errors. A byte-order mark
    /// at the start and old Mac line ends (`\r` alone) are taken as they are meant.
    pub fn from_ron(text: &str, file: &str) -> Result<Map, MapError> {
        let text = &*crate::base::source::normalized(text);
        let raw: RawMap = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .map_err(|e| MapError::Syntax {
                pos: SourcePos::from_ron(file, text, &e),
                message: crate::model::error::ron_message_in(&e, text),
            })?;
        build(raw, text, file)
    }

    /// The board art, if the map has any (a UI lays out maps without art as a list).
    pub fn art(&self) -> Option<&MapArt> {
        self.art.as_ref()
    }

    /// A province's position as the map file gives it (`position: (x, y)`: x to the right, y
    /// downwards, in the unit of the map's source, e.g. an SVG's pixels), if it gives one. Board
    /// art generated for the map places the province's label there.
    pub fn position(&self, p: ProvinceId) -> Option<(i32, i32)> {
        self.positions.get(p.0 as usize).copied().flatten()
    }

    /// Whether power `p` may build in `province` when it owns it and it is empty: a home
    /// centre of its own, or, where the map's rule says so ([`BuildSites::Owned`],
    /// [`BuildSites::OwnedIfHomeOwned`]), any supply centre; under the latter the power must
    /// also own a home centre ([`Map::may_build_at_all`]).
    pub fn may_build_in(&self, p: PowerId, province: ProvinceId) -> bool {
        let prov = self.province(province);
        match self.build_sites {
            BuildSites::Home => prov.home_of == Some(p),
            BuildSites::Owned | BuildSites::OwnedIfHomeOwned => prov.supply_center,
        }
    }

    /// The map's own rules where they differ from the standard ones, each a short phrase for a
    /// summary (`maps`, the rules view): where powers build, a game that begins with the
    /// adjustment, and neutral units. Empty for the standard rules.
    pub fn own_rules(&self) -> Vec<String> {
        let mut own = Vec::new();
        match self.build_sites {
            BuildSites::Home => {}
            BuildSites::Owned => own.push("builds in any owned centre".to_string()),
            BuildSites::OwnedIfHomeOwned => {
                own.push("builds in any owned centre while a home centre is owned".to_string())
            }
        }
        if self.start_phase == StartPhase::WinterAdjustment {
            own.push(format!("opens with Winter {} builds", self.start_year));
        }
        match self.neutral_units.len() {
            0 => {}
            1 => own.push("1 neutral unit (holds, disbanded when dislodged)".to_string()),
            n => own.push(format!(
                "{n} neutral units (hold, disbanded when dislodged)"
            )),
        }
        own
    }

    /// Whether power `p` may build at all with the centres owned as `owners` says (by province
    /// id): always, except under [`BuildSites::OwnedIfHomeOwned`] when it owns none of its
    /// home centres.
    pub fn may_build_at_all(&self, p: PowerId, owners: &[Option<PowerId>]) -> bool {
        self.build_sites != BuildSites::OwnedIfHomeOwned
            || self
                .power(p)
                .home
                .iter()
                .any(|h| owners.get(h.0 as usize).copied().flatten() == Some(p))
    }

    /// The provinces power `p` may build in (owned and empty permitting), in the order a menu
    /// lists them: its home centres as the map gives them, or every supply centre.
    pub fn build_sites_of(&self, p: PowerId) -> Vec<ProvinceId> {
        match self.build_sites {
            BuildSites::Home => self.power(p).home.clone(),
            BuildSites::Owned | BuildSites::OwnedIfHomeOwned => self
                .province_ids()
                .filter(|&q| self.province(q).supply_center)
                .collect(),
        }
    }

    /// Who owns each supply centre at the start of a game (by province id): each power its
    /// home centres but its `unowned_homes`, and the centres it `owns`; the others nobody.
    pub fn start_owners(&self) -> Vec<Option<PowerId>> {
        let mut owners: Vec<Option<PowerId>> = self.provinces.iter().map(|p| p.home_of).collect();
        for w in self.power_ids() {
            for &q in &self.power(w).unowned_homes {
                owners[q.0 as usize] = None;
            }
        }
        for w in self.power_ids() {
            for &q in &self.power(w).owns {
                owners[q.0 as usize] = Some(w);
            }
        }
        owners
    }

    /// Number of provinces.
    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    /// The province with this id.
    pub fn province(&self, id: ProvinceId) -> &Province {
        &self.provinces[id.0 as usize]
    }

    /// The location with this id.
    pub fn location(&self, id: LocId) -> Location {
        self.locations[id.0 as usize]
    }

    /// The province a location belongs to.
    pub fn province_of(&self, id: LocId) -> ProvinceId {
        self.locations[id.0 as usize].province
    }

    /// The power with this id.
    /// [`PowerId::NEUTRAL`] (or any id past the map's powers) is the power named "Neutral",
    /// with no centres and no units.
    pub fn power(&self, id: PowerId) -> &Power {
        self.powers
            .get(id.0 as usize)
            .unwrap_or_else(|| &NEUTRAL_POWER)
    }

    /// A power by name as a scenario's `units` or an order's nationality may write it:
    /// [`Map::find_power`], or [`PowerId::NEUTRAL`] for `Neutral` (any case) on a map with no
    /// power of that name.
    pub fn find_power_or_neutral(&self, name: &str) -> Option<PowerId> {
        self.find_power(name).or_else(|| {
            normalize_name(name)
                .eq(NEUTRAL_NAME)
                .then_some(PowerId::NEUTRAL)
        })
    }

    /// All province ids.
    pub fn province_ids(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        (0..self.provinces.len()).map(|i| ProvinceId(i as u32))
    }

    /// All power ids.
    pub fn power_ids(&self) -> impl Iterator<Item = PowerId> + '_ {
        (0..self.powers.len()).map(|i| PowerId(i as u8))
    }

    /// Every owner a unit can have: the powers, then [`PowerId::NEUTRAL`] (the order files
    /// list units in).
    pub fn unit_owners(&self) -> impl Iterator<Item = PowerId> + '_ {
        self.power_ids().chain(std::iter::once(PowerId::NEUTRAL))
    }

    /// Provinces an army in `p` can move to.
    pub fn army_neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.army_adj[p.0 as usize]
    }

    /// Locations a fleet at `l` can move to.
    pub fn fleet_neighbours(&self, l: LocId) -> &[LocId] {
        &self.fleet_adj[l.0 as usize]
    }

    /// Whether an army can move from `a` to `b` directly.
    pub fn army_adjacent(&self, a: ProvinceId, b: ProvinceId) -> bool {
        sorted_contains(&self.army_adj[a.0 as usize], b)
    }

    /// Whether a fleet at `from` can move directly to location `to`.
    pub fn fleet_adjacent(&self, from: LocId, to: LocId) -> bool {
        sorted_contains(&self.fleet_adj[from.0 as usize], to)
    }

    /// Whether a fleet at `from` can reach some coast of province `to`.
    pub fn fleet_reaches_province(&self, from: LocId, to: ProvinceId) -> bool {
        let list = &self.fleet_adj[from.0 as usize];
        if list.len() <= LINEAR_SEARCH {
            return list.iter().any(|l| self.province_of(*l) == to);
        }
        // A province's locations are numbered together (its main location, then its coasts),
        // and the list is sorted: the first location not before the province's is the one.
        let main = self.province(to).main;
        let k = list.partition_point(|l| *l < main);
        list.get(k).is_some_and(|l| self.province_of(*l) == to)
    }

    /// Whether a unit of `kind` at `from` can move to (some coast of) province `to`.
    pub fn can_reach(&self, kind: UnitKind, from: LocId, to: ProvinceId) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacent(self.province_of(from), to),
            UnitKind::Fleet => self.fleet_reaches_province(from, to),
        }
    }

    /// Whether two provinces share any border (army or fleet, any coast).
    pub fn provinces_adjacent(&self, a: ProvinceId, b: ProvinceId) -> bool {
        if self.army_adjacent(a, b) {
            return true;
        }
        self.locations_of(a)
            .any(|l| self.fleet_reaches_province(l, b))
    }

    /// The locations of a province: its main location and its coasts.
    pub fn locations_of(&self, p: ProvinceId) -> impl Iterator<Item = LocId> + '_ {
        let prov = self.province(p);
        std::iter::once(prov.main).chain(prov.coasts.iter().map(|(_, l)| *l))
    }

    /// Looks a province up by abbreviation, name or alias (any case, spaces and dots folded).
    pub fn find_province(&self, name: &str) -> Option<ProvinceId> {
        self.names.get(&normalize_name(name)).province()
    }

    /// Looks a province up by a name already normalized ([`normalize_into`]): no string is
    /// built.
    pub fn find_province_normalized(&self, key: &str) -> Option<ProvinceId> {
        self.names.get(key).province()
    }

    /// What a normalized string ([`normalize_into`]) is in the name index: the province it
    /// names and whether a longer name continues it, in one look-up.
    pub fn lookup_normalized(&self, key: &str) -> NameEntry {
        self.names.get(key)
    }

    /// [`Map::lookup_normalized`] on bytes already folded (lower-case ASCII letters and digits,
    /// single spaces between words), as a caller folding into its own buffer has them.
    pub(crate) fn lookup_folded(&self, key: &[u8]) -> NameEntry {
        self.names.get_hashed(key, name_hash(key))
    }

    /// Looks a power up by a name already normalized ([`normalize_into`]).
    pub fn find_power_normalized(&self, key: &str) -> Option<PowerId> {
        self.power_names.get(key).copied()
    }

    /// Looks a power up by name, adjective or alias (any case).
    pub fn find_power(&self, name: &str) -> Option<PowerId> {
        self.power_names.get(&normalize_name(name)).copied()
    }

    /// All names a province can be written as (for suggestions).
    pub fn all_names(&self) -> impl Iterator<Item = (&str, ProvinceId)> + '_ {
        self.names
            .iter()
            .filter_map(|(k, v)| Some((k, v.province()?)))
    }

    /// Formats a location short, as people write it: `Lon`, `Spa(nc)`.
    pub fn loc_abbr(&self, l: LocId) -> String {
        let loc = self.location(l);
        let p = self.province(loc.province);
        let mut s = String::new();
        let mut chars = p.abbr.chars();
        if let Some(c) = chars.next() {
            s.extend(c.to_uppercase());
            s.push_str(chars.as_str());
        }
        if let Some(c) = loc.coast {
            s.push('(');
            s.push_str(c.abbr());
            s.push(')');
        }
        s
    }

    /// Formats a location with the province's full name, e.g. `Spain(nc)`.
    pub fn loc_name(&self, l: LocId) -> String {
        let loc = self.location(l);
        let p = self.province(loc.province);
        match loc.coast {
            Some(c) => format!("{}({})", p.name, c.abbr()),
            None => p.name.clone(),
        }
    }

    /// Counts of provinces and centres.
    pub fn summary(&self) -> MapSummary {
        let count = |k| self.provinces.iter().filter(|p| p.kind == k).count();
        MapSummary {
            provinces: self.provinces.len(),
            seas: count(ProvinceKind::Sea),
            inland: count(ProvinceKind::Land),
            coastal: count(ProvinceKind::Coast),
            supply_centers: self.provinces.iter().filter(|p| p.supply_center).count(),
            home_centers: self.powers.iter().map(|p| p.home.len()).sum(),
        }
    }
}

/// One province of a map built from lists (see [`Map::from_lists`]): the same fields a map file
/// gives, with borders named by abbreviation.
#[derive(Clone, Debug)]
pub struct ProvinceSpec {
    /// Abbreviation (unique, no '/').
    pub abbr: String,
    /// Full name (unique).
    pub name: String,
    /// Sea, coastal or inland.
    pub kind: ProvinceKind,
    /// Whether it is a supply centre.
    pub supply_center: bool,
    /// Army borders, by abbreviation.
    pub army: Vec<String>,
    /// Fleet borders, by abbreviation (`"spa/nc"` for a coast).
    pub fleet: Vec<String>,
}

impl Map {
    /// Builds and validates a map from lists instead of RON text (for generated maps, e.g.
    /// [`crate::tools::synth`]): the same checks as [`Map::from_ron`] (unique names, borders listed from
    /// both sides, limits), without a file to point into. `powers` are (name, adjective) pairs
    /// with no home centres or starting units.
    pub fn from_lists(
        name: &str,
        title: &str,
        powers: &[(&str, &str)],
        provinces: Vec<ProvinceSpec>,
    ) -> Result<Map, MapError> {
        let raw = RawMap {
            name: name.to_string(),
            title: title.to_string(),
            start_year: default_start_year(),
            start_phase: StartPhase::SpringMovement,
            build_sites: BuildSites::Home,
            victory: None,
            powers: powers
                .iter()
                .map(|(n, a)| RawPower {
                    name: n.to_string(),
                    adjective: a.to_string(),
                    aliases: Vec::new(),
                    home: Vec::new(),
                    start: Vec::new(),
                    owns: Vec::new(),
                    unowned_homes: Vec::new(),
                })
                .collect(),
            neutral_units: Vec::new(),
            provinces,
            art: Vec::new(),
        };
        build(raw, "", name)
    }
}

/// A starting unit as a map file writes it (`"A par"`, `"F stp/sc"`), or None.
fn parse_start_unit(
    s: &str,
    resolve_loc: &dyn Fn(&str) -> Option<LocId>,
) -> Option<(UnitKind, LocId)> {
    let (k, l) = s.trim().split_once(' ')?;
    let kind = match k.to_ascii_uppercase().as_str() {
        "A" => UnitKind::Army,
        "F" => UnitKind::Fleet,
        _ => return None,
    };
    Some((kind, resolve_loc(l.trim())?))
}

/// A map file's `neutral_units`: each a unit as `start:` writes it, in a province no other
/// starting unit (a power's or a neutral one) stands in.
fn neutral_units(
    list: &[String],
    neutral_name_taken: bool,
    powers: &[Power],
    provinces: &[Province],
    locations: &[Location],
    loc: &Locator,
    resolve_loc: &dyn Fn(&str) -> Option<LocId>,
) -> Result<Vec<(UnitKind, LocId)>, MapError> {
    let mut taken: Vec<bool> = vec![false; provinces.len()];
    for (_, l) in powers.iter().flat_map(|p| &p.start) {
        if let Some(t) = locations
            .get(l.0 as usize)
            .and_then(|x| taken.get_mut(x.province.0 as usize))
        {
            *t = true;
        }
    }
    if neutral_name_taken && !list.is_empty() {
        return Err(MapError::Invalid {
            pos: loc.find_after("neutral_units", ""),
            message: "neutral_units: a power of this map is called \"Neutral\", the name scenarios write neutral units under; rename the power to give the map neutral units".into(),
        });
    }
    let mut out = Vec::with_capacity(list.len());
    for s in list {
        let at = || loc.find_after(&format!("{s:?}"), "neutral_units");
        let Some((kind, l)) = parse_start_unit(s, resolve_loc) else {
            return Err(MapError::Invalid {
                pos: at(),
                message: format!(
                    "neutral unit {}: expected a unit like \"A ser\" or \"F stp/sc\"",
                    quoted(s)
                ),
            });
        };
        let Some(location) = locations.get(l.0 as usize) else {
            continue;
        };
        let prov = &provinces[location.province.0 as usize];
        let fits = match kind {
            UnitKind::Army => prov.kind != ProvinceKind::Sea,
            UnitKind::Fleet => {
                prov.kind != ProvinceKind::Land
                    && !(prov.is_multi_coast() && location.coast.is_none())
            }
        };
        if !fits {
            return Err(MapError::Invalid {
                pos: at(),
                message: format!(
                    "neutral unit {}: {} cannot stand in {} (an army needs land, a fleet a sea or coast, and a fleet on a two-coast province its coast)",
                    quoted(s),
                    if kind == UnitKind::Army {
                        "an army"
                    } else {
                        "a fleet"
                    },
                    prov.name
                ),
            });
        }
        let slot = &mut taken[location.province.0 as usize];
        if *slot {
            return Err(MapError::Invalid {
                pos: at(),
                message: format!(
                    "neutral unit {}: another starting unit is already in {}; a province holds one unit",
                    quoted(s),
                    prov.name
                ),
            });
        }
        *slot = true;
        out.push((kind, l));
    }
    Ok(out)
}

/// Folds case, dots, hyphens and repeated spaces so that "St. Petersburg", "st petersburg" and
/// "ST-PETERSBURG" are one key.
pub fn normalize_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    normalize_into(s, &mut out);
    out
}

/// Each ASCII letter or digit lower-cased; 0 for every other byte.
// Indexing in a constant cannot panic at run time: out of bounds, it would not compile.
#[allow(clippy::indexing_slicing)]
pub(crate) static ALNUM_LOWER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        if c.is_ascii_alphanumeric() {
            t[i] = c.to_ascii_lowercase();
        }
        i += 1;
    }
    t
};

/// Whether `b` is empty or words of ASCII letters and digits separated by single spaces, with
/// no space at either end: text that [`normalize_into`] only lower-cases.
fn plain_words(b: &[u8]) -> bool {
    // After a space (or at the start), a letter or digit must come.
    let mut after_space = true;
    for &c in b {
        if c.is_ascii_alphanumeric() {
            after_space = false;
        } else if c == b' ' && !after_space {
            after_space = true;
        } else {
            return false;
        }
    }
    !after_space || b.is_empty()
}

/// [`normalize_name`] appended to `out` (which is not cleared), so that a caller can reuse one
/// buffer: the words of `s` (after what `out` already holds, if anything) are folded the same way.
pub fn normalize_into(s: &str, out: &mut String) {
    let base = out.len();
    let mut space = false;
    // A word of ASCII letters and digits (`Par`, `Burgundy`: nearly every word of an order) is
    // lower-cased in one pass through a byte table.
    for &c in s.as_bytes() {
        let folded = ALNUM_LOWER.get(usize::from(c)).copied().unwrap_or(0);
        if folded == 0 {
            out.truncate(base);
            break;
        }
        out.push(char::from(folded));
    }
    if out.len() - base == s.len() {
        return;
    }
    // Words of them separated by single spaces (`North Sea`) are only lower-cased.
    if plain_words(s.as_bytes()) {
        out.push_str(s);
        out[base..].make_ascii_lowercase();
        return;
    }
    if s.is_ascii() {
        // The same folding on bytes (every name of the standard map, and most of any map).
        for &b in s.trim().as_bytes() {
            let c = b.to_ascii_lowercase();
            if c == b'.' || c == b'\'' {
                continue;
            }
            if c == b' ' || c == b'-' || c == b'_' {
                space = out.len() > base;
                continue;
            }
            if space {
                out.push(' ');
                space = false;
            }
            out.push(char::from(c));
        }
        return;
    }
    for ch in s.trim().chars() {
        let c = ch.to_ascii_lowercase();
        if c == '.' || c == '\'' {
            continue;
        }
        if c == ' ' || c == '-' || c == '_' {
            space = out.len() > base;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
}

/// A map as read, before it is checked: from a map file (`P` = [`RawProvince`]) or from lists
/// ([`ProvinceSpec`], [`Map::from_lists`], which are not copied into `RawProvince`s first).
#[derive(Deserialize)]
#[serde(rename = "Map", deny_unknown_fields)]
struct RawMap<P = RawProvince> {
    name: String,
    title: String,
    #[serde(default = "default_start_year")]
    start_year: i32,
    #[serde(default)]
    start_phase: StartPhase,
    #[serde(default)]
    build_sites: BuildSites,
    #[serde(default)]
    victory: Option<usize>,
    powers: Vec<RawPower>,
    /// Neutral units at the start, `"A ser"` as in a power's `start`.
    #[serde(default)]
    neutral_units: Vec<String>,
    provinces: Vec<P>,
    #[serde(default)]
    art: Vec<String>,
}

/// A map's first year when its file names none: the standard map's.
fn default_start_year() -> i32 {
    1901
}

#[derive(Deserialize)]
#[serde(rename = "Power", deny_unknown_fields)]
struct RawPower {
    name: String,
    adjective: String,
    #[serde(default)]
    aliases: Vec<String>,
    home: Vec<String>,
    start: Vec<String>,
    #[serde(default)]
    owns: Vec<String>,
    #[serde(default)]
    unowned_homes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename = "Province", deny_unknown_fields)]
struct RawProvince {
    abbr: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    kind: ProvinceKind,
    supply_center: bool,
    #[serde(default)]
    army: Vec<String>,
    #[serde(default)]
    fleet: Vec<String>,
    #[serde(default)]
    coasts: Vec<RawCoast>,
    #[serde(default)]
    anchor: Option<(u16, u16)>,
    #[serde(default)]
    position: Option<(i32, i32)>,
}

#[derive(Deserialize)]
#[serde(rename = "Coast", deny_unknown_fields)]
struct RawCoast {
    name: String,
    fleet: Vec<String>,
}

/// What [`build`] reads of a province, from a map file ([`RawProvince`]) or a list
/// ([`ProvinceSpec`]), and the strings it moves into the map.
trait ProvinceSource {
    fn abbr(&self) -> &str;
    fn name(&self) -> &str;
    fn aliases(&self) -> &[String];
    fn kind(&self) -> ProvinceKind;
    fn supply_center(&self) -> bool;
    fn army(&self) -> &[String];
    fn fleet(&self) -> &[String];
    fn coasts(&self) -> &[RawCoast];
    fn anchor(&self) -> Option<(u16, u16)>;
    fn position(&self) -> Option<(i32, i32)>;
    /// The abbreviation, to be moved out (leaving it empty).
    fn abbr_mut(&mut self) -> &mut String;
    /// The name, moved out.
    fn take_name(&mut self) -> String;
    /// The aliases, moved out.
    fn take_aliases(&mut self) -> Vec<String>;
}

impl ProvinceSource for RawProvince {
    fn abbr(&self) -> &str {
        &self.abbr
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn aliases(&self) -> &[String] {
        &self.aliases
    }
    fn kind(&self) -> ProvinceKind {
        self.kind
    }
    fn supply_center(&self) -> bool {
        self.supply_center
    }
    fn army(&self) -> &[String] {
        &self.army
    }
    fn fleet(&self) -> &[String] {
        &self.fleet
    }
    fn coasts(&self) -> &[RawCoast] {
        &self.coasts
    }
    fn anchor(&self) -> Option<(u16, u16)> {
        self.anchor
    }
    fn position(&self) -> Option<(i32, i32)> {
        self.position
    }
    fn abbr_mut(&mut self) -> &mut String {
        &mut self.abbr
    }
    fn take_name(&mut self) -> String {
        std::mem::take(&mut self.name)
    }
    fn take_aliases(&mut self) -> Vec<String> {
        std::mem::take(&mut self.aliases)
    }
}

impl ProvinceSource for ProvinceSpec {
    fn abbr(&self) -> &str {
        &self.abbr
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn aliases(&self) -> &[String] {
        &[]
    }
    fn kind(&self) -> ProvinceKind {
        self.kind
    }
    fn supply_center(&self) -> bool {
        self.supply_center
    }
    fn army(&self) -> &[String] {
        &self.army
    }
    fn fleet(&self) -> &[String] {
        &self.fleet
    }
    fn coasts(&self) -> &[RawCoast] {
        &[]
    }
    fn anchor(&self) -> Option<(u16, u16)> {
        None
    }
    fn position(&self) -> Option<(i32, i32)> {
        None
    }
    fn abbr_mut(&mut self) -> &mut String {
        &mut self.abbr
    }
    fn take_name(&mut self) -> String {
        std::mem::take(&mut self.name)
    }
    fn take_aliases(&mut self) -> Vec<String> {
        Vec::new()
    }
}

/// The name of power `w` of a map file, cut for a message (empty if there is none).
fn raw_power_name(powers: &[RawPower], w: PowerId) -> String {
    powers
        .get(w.0 as usize)
        .map_or(String::new(), |o| cut(&o.name))
}

/// The position of `value` in the list `field` (`home:`, `start:`) of the power named `power`:
/// the first such string after the power's name and the field, else as near as found.
fn in_power_list(loc: &Locator, power: &str, field: &str, value: &str) -> SourcePos {
    let mut at = loc.clone();
    at.seek("powers");
    at.seek(&format!("\"{power}\""));
    at.seek(field);
    let offset = at.next_literal(value);
    loc.pos(offset)
}

/// A province's abbreviation as its map wrote it: [`build`] moves an abbreviation that is already
/// lower case into the map, leaving `raw`'s empty (a valid abbreviation is never empty), and
/// copies one that is not.
fn raw_abbr<'a>(raw: &'a impl ProvinceSource, built: &'a Province) -> &'a str {
    if raw.abbr().is_empty() {
        &built.abbr
    } else {
        raw.abbr()
    }
}

/// For a name (of a province or a power) that holds a control character, what to say about
/// it: names are written in orders, shown on one line and saved back into scenario files, and
/// a line end, an ESC sequence or a NUL can do none of that.
/// Also the name as the file has it up to that character (`"Dunmere`), to find it by.
fn control_in_name(n: &str) -> Option<(String, String)> {
    // The bytes that can start a control character: below 0x20, DEL, and 0xC2 (U+0080–U+009F).
    if !n.bytes().any(|b| b < 0x20 || b == 0x7f || b == 0xc2) {
        return None;
    }
    let (i, c) = n.char_indices().find(|(_, c)| c.is_control())?;
    let message = format!(
        "{} holds the control character {}; names are plain text",
        quoted(n),
        c.escape_debug()
    );
    Some((format!("\"{}", n.get(..i).unwrap_or_default()), message))
}

fn build<P: ProvinceSource>(mut raw: RawMap<P>, text: &str, file: &str) -> Result<Map, MapError> {
    let loc = Locator::new(text, file);
    let err = |pos: SourcePos, message: String| MapError::Invalid { pos, message };

    let years = crate::base::calendar::FIRST_YEAR..=crate::base::calendar::LAST_YEAR;
    if !years.contains(&raw.start_year) {
        return Err(err(
            loc.find_after("start_year", "Map"),
            format!(
                "start_year {}: expected a year from {} to {}",
                raw.start_year,
                years.start(),
                years.end()
            ),
        ));
    }
    if let Some(v) = raw.victory {
        let centres = raw.provinces.iter().filter(|p| p.supply_center()).count();
        if v == 0 || v > centres {
            return Err(err(
                loc.find_after("victory", "Map"),
                format!("victory {v}: expected 1 to the map's {centres} supply centres"),
            ));
        }
    }
    // Hard limits, checked before any id is made from an index, so nothing wraps: province and
    // location ids are 32-bit, power ids 8-bit.
    if raw.powers.len() > MAX_POWERS {
        // At the name of the first power over the limit.
        let mut at = loc.clone();
        at.seek("powers");
        let mut offset = 0;
        for p in raw.powers.iter().take(MAX_POWERS + 1) {
            offset = at.next_literal(&p.name);
        }
        return Err(err(
            loc.pos(offset),
            format!(
                "a map has at most {MAX_POWERS} powers; this one has {}",
                raw.powers.len()
            ),
        ));
    }
    // One pass over the provinces for every count the tables are sized by.
    let (mut location_count, mut name_count, mut name_bytes) = (0usize, 0usize, 0usize);
    for p in &raw.provinces {
        location_count = location_count.saturating_add(1 + p.coasts().len());
        name_count = name_count.saturating_add(2 + p.aliases().len());
        name_bytes = name_bytes
            .saturating_add(p.abbr().len() + p.name().len())
            .saturating_add(p.aliases().iter().map(String::len).sum());
    }
    if raw.provinces.len() > MAX_PROVINCES || location_count > MAX_LOCATIONS {
        return Err(err(
            SourcePos::start(file),
            format!(
                "a map has at most {MAX_PROVINCES} provinces and {MAX_LOCATIONS} locations; this one has {} provinces and {location_count} locations",
                raw.provinces.len()
            ),
        ));
    }

    let mut provinces = Vec::with_capacity(raw.provinces.len());
    let mut locations = Vec::with_capacity(location_count);
    // Sized once for every name (and a prefix for one in three), so that a big map's index is
    // rarely rebuilt as it grows; the text is at most the names' length (folding only drops
    // bytes).
    let mut names = NameIndex::with_capacity(
        name_count.saturating_add(name_count / 3),
        name_bytes.min(u32::MAX as usize),
    );

    // Pass 1: provinces, names and locations. A province's abbreviation, name and aliases are
    // moved into the map (lower-cased in place), not copied; an abbreviation that was not lower
    // case stays in `raw` too, for messages that quote it as written ([`raw_abbr`]).
    let mut batch = KeyBatch::default();
    let mut next_key = 0;
    for i in 0..raw.provinces.len() {
        if i % BATCH == 0 {
            // The names of the next provinces, folded and hashed together.
            batch.clear();
            next_key = 0;
            for rp in raw.provinces.iter().skip(i).take(BATCH) {
                for n in [rp.abbr(), rp.name()]
                    .into_iter()
                    .chain(rp.aliases().iter().map(String::as_str))
                {
                    batch.push(n);
                }
            }
        }
        let (done, rest) = raw.provinces.split_at_mut(i);
        let Some(rp) = rest.first_mut() else { break };
        let id = ProvinceId(i as u32);
        // The province's own `abbr: "…"` value.
        // (Built only for an error.)
        let anchor = || format!("abbr: \"{}\"", rp.abbr());
        let pos = || loc.find_after(&anchor(), "provinces").shifted(6);
        if rp.abbr().trim().is_empty() || rp.abbr().contains('/') {
            return Err(err(
                pos(),
                format!(
                    "province abbreviation {} must be non-empty and contain no '/'",
                    quoted(rp.abbr())
                ),
            ));
        }
        for n in [rp.abbr(), rp.name()]
            .into_iter()
            .chain(rp.aliases().iter().map(String::as_str))
        {
            if let Some((start, message)) = control_in_name(n) {
                let at = loc.find_after(&start, &anchor());
                return Err(err(at, format!("province name {message}")));
            }
            let (key, hash) = batch.key(next_key, n);
            next_key += 1;
            match names.insert_key(key, hash, id) {
                Ok(()) => {}
                Err(NameClash::Province(other)) => {
                    let o = other.0 as usize;
                    let other_abbr = raw_abbr(&done[o], &provinces[o]);
                    return Err(err(
                        loc.find_after(&format!("\"{n}\""), &anchor()),
                        format!(
                            "name {} of province {} is already used by province {}; names must be unique",
                            quoted(n),
                            quoted(rp.abbr()),
                            quoted(other_abbr)
                        ),
                    ));
                }
                Err(NameClash::TooLong) => {
                    return Err(err(
                        loc.find_after(&format!("\"{n}\""), &anchor()),
                        format!(
                            "the names of a map add up to at most 4 GiB; at name {} of province {} they pass it",
                            quoted(n),
                            quoted(rp.abbr())
                        ),
                    ));
                }
            }
        }
        let main = LocId(locations.len() as u32);
        locations.push(Location {
            province: id,
            coast: None,
        });
        let mut coasts = Vec::new();
        if !rp.coasts().is_empty() {
            if rp.kind() != ProvinceKind::Coast {
                return Err(err(
                    pos(),
                    format!(
                        "province {} is {:?} but lists coasts; only Coast provinces can have coasts",
                        quoted(rp.abbr()),
                        rp.kind()
                    ),
                ));
            }
            if rp.coasts().len() < 2 {
                return Err(err(
                    pos(),
                    format!(
                        "province {} lists one coast; list two or more, or none",
                        quoted(rp.abbr())
                    ),
                ));
            }
            if !rp.fleet().is_empty() {
                return Err(err(
                    pos(),
                    format!(
                        "province {} has coasts, so its fleet borders belong in its coasts, not in `fleet`",
                        quoted(rp.abbr())
                    ),
                ));
            }
            for rc in rp.coasts() {
                let Some(c) = Coast::parse(&rc.name) else {
                    return Err(err(
                        loc.find_after(&format!("\"{}\"", rc.name), "coasts"),
                        format!(
                            "unknown coast {} in province {}; expected nc, sc, ec or wc",
                            quoted(&rc.name),
                            quoted(rp.abbr())
                        ),
                    ));
                };
                if coasts.iter().any(|(x, _)| *x == c) {
                    return Err(err(
                        pos(),
                        format!(
                            "province {} lists coast {c} twice; list each coast once",
                            quoted(rp.abbr())
                        ),
                    ));
                }
                coasts.push((c, LocId(locations.len() as u32)));
                locations.push(Location {
                    province: id,
                    coast: Some(c),
                });
            }
        }
        let abbr = if rp.abbr().bytes().any(|b| b.is_ascii_uppercase()) {
            rp.abbr().to_ascii_lowercase()
        } else {
            std::mem::take(rp.abbr_mut())
        };
        let mut aliases = rp.take_aliases();
        for a in &mut aliases {
            a.make_ascii_lowercase();
        }
        provinces.push(Province {
            abbr,
            name: rp.take_name(),
            aliases,
            kind: rp.kind(),
            supply_center: rp.supply_center(),
            home_of: None,
            main,
            coasts,
        });
    }

    // Border names are folded into one reused buffer (no string per border).
    let key = std::cell::RefCell::new(String::new());
    let resolve_loc = |s: &str| -> Option<LocId> {
        let (p, c) = match s.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (s, None),
        };
        let pid = {
            let mut k = key.borrow_mut();
            k.clear();
            normalize_into(p, &mut k);
            names.get(k.as_str()).province()?
        };
        let prov = &provinces[pid.0 as usize];
        match c {
            None => Some(prov.main),
            Some(c) => prov.coast(Coast::parse(c)?),
        }
    };

    // Pass 2: adjacency. The borders of the next provinces are folded and hashed in a batch,
    // then looked up and checked one by one in order.
    let mut army_adj = vec![Vec::new(); provinces.len()];
    let mut fleet_adj = vec![Vec::new(); locations.len()];
    let mut resolved: Vec<Option<LocId>> = Vec::new();
    // Each border of the batch split at its '/': the province, and the coast if any.
    let mut parts: Vec<(&str, Option<&str>)> = Vec::new();
    let mut next_border = 0;
    for (i, rp) in raw.provinces.iter().enumerate() {
        if i % BATCH == 0 {
            batch.clear();
            parts.clear();
            resolved.clear();
            next_border = 0;
            for rp in raw.provinces.iter().skip(i).take(BATCH) {
                // Army borders, then fleet borders, then each coast's: the order they are
                // checked in below.
                let lists = [rp.army(), rp.fleet()]
                    .into_iter()
                    .chain(rp.coasts().iter().map(|c| c.fleet.as_slice()));
                for list in lists {
                    for n in list {
                        let part = match n.bytes().position(|b| b == b'/') {
                            Some(k) => (&n[..k], Some(&n[k + 1..])),
                            None => (n.as_str(), None),
                        };
                        batch.push(part.0);
                        parts.push(part);
                    }
                }
            }
            for (k, &(p, c)) in parts.iter().enumerate() {
                let (key, hash) = batch.key(k, p);
                let l = names
                    .get_hashed(key.as_bytes(), hash)
                    .province()
                    .and_then(|pid| {
                        let prov = &provinces[pid.0 as usize];
                        match c {
                            None => Some(prov.main),
                            Some(c) => prov.coast(Coast::parse(c)?),
                        }
                    });
                resolved.push(l);
            }
        }
        let mut resolve_next = || {
            let l = resolved.get(next_border).copied().flatten();
            next_border += 1;
            l
        };
        let prov = &provinces[i];
        let abbr = raw_abbr(rp, prov);
        // Each list allocated once, at its final size (before duplicates are removed).
        army_adj[i].reserve_exact(rp.army().len());
        for n in rp.army() {
            let p = || loc.find_after(&format!("\"{n}\""), &format!("abbr: \"{}\"", abbr));
            let Some(l) = resolve_next() else {
                return Err(err(
                    p(),
                    format!(
                        "unknown province {} in the army borders of {}; expected a province's abbreviation, name or alias",
                        quoted(n),
                        quoted(abbr)
                    ),
                ));
            };
            let target = &provinces[locations[l.0 as usize].province.0 as usize];
            if prov.kind == ProvinceKind::Sea || target.kind == ProvinceKind::Sea {
                return Err(err(
                    p(),
                    format!(
                        "army border {}–{}: armies cannot enter sea provinces",
                        quoted(abbr),
                        quoted(n)
                    ),
                ));
            }
            army_adj[i].push(locations[l.0 as usize].province);
        }
        // The province's own fleet borders, or each coast's (no list is built for this).
        let own = [(prov.main, rp.fleet())];
        let fleet_lists = own
            .iter()
            .copied()
            .take(usize::from(prov.coasts.is_empty()))
            .chain(
                rp.coasts()
                    .iter()
                    .zip(prov.coasts.iter())
                    .map(|(rc, (_, l))| (*l, rc.fleet.as_slice())),
            );
        for (from, list) in fleet_lists {
            fleet_adj[from.0 as usize].reserve_exact(list.len());
            if prov.kind == ProvinceKind::Land && !list.is_empty() {
                let p = || loc.find_after("fleet", &format!("abbr: \"{}\"", abbr));
                return Err(err(
                    p(),
                    format!(
                        "inland province {} lists fleet borders; fleets cannot enter inland provinces",
                        quoted(abbr)
                    ),
                ));
            }
            for n in list {
                let p = || loc.find_after(&format!("\"{n}\""), &format!("abbr: \"{}\"", abbr));
                let Some(l) = resolve_next() else {
                    return Err(err(
                        p(),
                        format!(
                            "unknown location {} in the fleet borders of {}; expected a province's abbreviation, name or alias, with its coast (\"spa/nc\") where it has several",
                            quoted(n),
                            quoted(abbr)
                        ),
                    ));
                };
                let target = &provinces[locations[l.0 as usize].province.0 as usize];
                if target.kind == ProvinceKind::Land {
                    return Err(err(
                        p(),
                        format!(
                            "fleet border {}–{}: fleets cannot enter inland provinces",
                            quoted(abbr),
                            quoted(n)
                        ),
                    ));
                }
                if target.is_multi_coast() && locations[l.0 as usize].coast.is_none() {
                    return Err(err(
                        p(),
                        format!(
                            "fleet border {}–{}: {} has several coasts; name the coast, e.g. \"{}/{}\"",
                            quoted(abbr),
                            quoted(n),
                            quoted(n),
                            target.abbr,
                            target.coasts[0].0
                        ),
                    ));
                }
                fleet_adj[from.0 as usize].push(l);
            }
        }
    }

    // Symmetry: each border looked up in the other side's list, visited in the order the map
    // lists them (so that the first one missing is the one reported). A long list (a province
    // with thousands of borders) is searched in a sorted copy, so that such a province costs
    // n log n, not n².
    fn sorted_long<T: Copy + Ord>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
        lists
            .iter()
            .map(|l| {
                if l.len() <= LINEAR_SEARCH {
                    return Vec::new();
                }
                let mut l = l.clone();
                l.sort_unstable();
                l
            })
            .collect()
    }
    fn listed<T: Copy + Ord>(lists: &[Vec<T>], sorted: &[Vec<T>], j: usize, x: T) -> bool {
        if lists[j].len() <= LINEAR_SEARCH {
            lists[j].contains(&x)
        } else {
            sorted[j].binary_search(&x).is_ok()
        }
    }
    let sorted = sorted_long(&army_adj);
    for (i, list) in army_adj.iter().enumerate() {
        for j in list {
            if !listed(&army_adj, &sorted, j.0 as usize, ProvinceId(i as u32)) {
                let a = &provinces[i].abbr;
                let b = &provinces[j.0 as usize].abbr;
                return Err(err(
                    loc.find_after(&format!("abbr: \"{b}\""), "provinces"),
                    format!(
                        "army border {}–{} is listed by {} but not by {}; list every border from both sides",
                        quoted(a),
                        quoted(b),
                        quoted(a),
                        quoted(b)
                    ),
                ));
            }
        }
    }
    drop(sorted);
    let loc_name = |l: LocId| {
        let lo = locations[l.0 as usize];
        let p = &provinces[lo.province.0 as usize];
        match lo.coast {
            Some(c) => format!("{}/{}", p.abbr, c),
            None => p.abbr.clone(),
        }
    };
    let sorted = sorted_long(&fleet_adj);
    for (i, list) in fleet_adj.iter().enumerate() {
        for j in list {
            if !listed(&fleet_adj, &sorted, j.0 as usize, LocId(i as u32)) {
                let a = loc_name(LocId(i as u32));
                let b = loc_name(*j);
                let b_abbr = &provinces[locations[j.0 as usize].province.0 as usize].abbr;
                return Err(err(
                    loc.find_after(&format!("abbr: \"{b_abbr}\""), "provinces"),
                    format!(
                        "fleet border {}–{} is listed by {} but not by {}; list every border from both sides",
                        quoted(&a),
                        quoted(&b),
                        quoted(&a),
                        quoted(&b)
                    ),
                ));
            }
        }
    }
    drop(sorted);

    // Powers.
    let mut powers = Vec::new();
    let mut power_names: Names<PowerId> = Names::default();
    let mut home_of: Vec<Option<PowerId>> = vec![None; provinces.len()];
    for (pi, rp) in raw.powers.iter().enumerate() {
        let pid = PowerId(pi as u8);
        let ppos = || loc.find_after(&format!("\"{}\"", rp.name), "powers");
        // An adjective that is the name itself (a variant's `BYZANTINUM (BYZANTINUM)`) names
        // nothing new; every other repeat is a mistake.
        let adjective =
            (normalize_name(&rp.adjective) != normalize_name(&rp.name)).then_some(&rp.adjective);
        for n in std::iter::once(&rp.name)
            .chain(adjective)
            .chain(rp.aliases.iter())
        {
            if let Some((start, message)) = control_in_name(n) {
                let at = loc.find_after(&start, "powers");
                return Err(err(at, format!("power name {message}")));
            }
            if let Some(other) = power_names.insert(normalize_name(n), pid) {
                let at = loc.find_after(&format!("\"{n}\""), &format!("name: \"{}\"", rp.name));
                let pos = if other == pid { ppos() } else { at };
                let message = match raw.powers.get(other.0 as usize) {
                    Some(o) if other != pid => format!(
                        "power name {} of {} is already used by {}; names must be unique",
                        quoted(n),
                        cut(&rp.name),
                        cut(&o.name)
                    ),
                    _ => format!(
                        "power name {} is given twice for {} (as its name, adjective or an alias); give each name once",
                        quoted(n),
                        cut(&rp.name)
                    ),
                };
                return Err(err(pos, message));
            }
        }
        let mut home = Vec::new();
        for h in &rp.home {
            let p = || in_power_list(&loc, &rp.name, "home:", h);
            let Some(id) = names.get(&normalize_name(h)).province() else {
                return Err(err(
                    p(),
                    format!(
                        "unknown home centre {} of {}; expected a province's abbreviation, name or alias",
                        quoted(h),
                        cut(&rp.name)
                    ),
                ));
            };
            let prov = &provinces[id.0 as usize];
            if !prov.supply_center {
                return Err(err(
                    p(),
                    format!(
                        "home centre {} of {} is not a supply centre; set supply_center: true or remove it",
                        quoted(h),
                        cut(&rp.name)
                    ),
                ));
            }
            if let Some(other) = home_of[id.0 as usize] {
                let other = raw_power_name(&raw.powers, other);
                return Err(err(
                    p(),
                    format!(
                        "home centre {} of {} is already a home centre of {other}; a centre has one home power",
                        quoted(h),
                        cut(&rp.name)
                    ),
                ));
            }
            home_of[id.0 as usize] = Some(pid);
            home.push(id);
        }
        let mut start = Vec::new();
        for s in &rp.start {
            let p = || in_power_list(&loc, &rp.name, "start:", s);
            let Some((kind, l)) = parse_start_unit(s, &resolve_loc) else {
                return Err(err(
                    p(),
                    format!(
                        "start unit {} of {} should read like \"A par\" or \"F stp/sc\"",
                        quoted(s),
                        cut(&rp.name)
                    ),
                ));
            };
            start.push((kind, l));
        }
        powers.push(Power {
            name: rp.name.clone(),
            adjective: rp.adjective.clone(),
            aliases: rp.aliases.clone(),
            home,
            start,
            owns: Vec::new(),
            unowned_homes: Vec::new(),
        });
    }
    // `Neutral` names the owner of neutral units, unless it names a power of the map (a
    // DPjudge map may call a power that): such a map has no neutral units.
    let neutral_name_taken = power_names.contains_key(NEUTRAL_NAME);
    let neutral_units = neutral_units(
        &raw.neutral_units,
        neutral_name_taken,
        &powers,
        &provinces,
        &locations,
        &loc,
        &resolve_loc,
    )?;
    // Centres owned at the start besides home centres: after every power's homes are known,
    // and home centres not owned at the start taken out first.
    let mut owned_by: Vec<Option<PowerId>> = home_of.clone();
    for (pi, rp) in raw.powers.iter().enumerate() {
        let pid = PowerId(pi as u8);
        for h in &rp.unowned_homes {
            let p = || in_power_list(&loc, &rp.name, "unowned_homes:", h);
            let id = names
                .get(&normalize_name(h))
                .province()
                .filter(|id| home_of[id.0 as usize] == Some(pid));
            let Some(id) = id else {
                return Err(err(
                    p(),
                    format!(
                        "unowned home centre {} of {}: expected one of its home centres",
                        quoted(h),
                        cut(&rp.name)
                    ),
                ));
            };
            if !powers[pi].unowned_homes.contains(&id) {
                powers[pi].unowned_homes.push(id);
            }
            owned_by[id.0 as usize] = None;
        }
    }
    for (pi, rp) in raw.powers.iter().enumerate() {
        let pid = PowerId(pi as u8);
        for o in &rp.owns {
            let p = || in_power_list(&loc, &rp.name, "owns:", o);
            let id = names
                .get(&normalize_name(o))
                .province()
                .filter(|id| provinces[id.0 as usize].supply_center);
            let Some(id) = id else {
                return Err(err(
                    p(),
                    format!(
                        "owned centre {} of {}: expected the abbreviation, name or alias of a supply centre",
                        quoted(o),
                        cut(&rp.name)
                    ),
                ));
            };
            if let Some(other) = owned_by[id.0 as usize] {
                let other = raw_power_name(&raw.powers, other);
                return Err(err(
                    p(),
                    format!(
                        "owned centre {} of {} is already owned by {other} at the start (as a home centre or in its owns); a centre has one owner",
                        quoted(o),
                        cut(&rp.name)
                    ),
                ));
            }
            owned_by[id.0 as usize] = Some(pid);
            powers[pi].owns.push(id);
        }
    }
    for list in army_adj.iter_mut() {
        list.sort();
        list.dedup();
    }
    for list in fleet_adj.iter_mut() {
        list.sort();
        list.dedup();
    }
    for (prov, h) in provinces.iter_mut().zip(home_of) {
        prov.home_of = h;
    }
    let positions = raw.provinces.iter().map(|p| p.position()).collect();
    let art = if raw.art.is_empty() {
        None
    } else {
        let anchors: Vec<Option<(u16, u16)>> = raw.provinces.iter().map(|p| p.anchor()).collect();
        let abbrs: Vec<&str> = raw
            .provinces
            .iter()
            .zip(&provinces)
            .map(|(r, p)| raw_abbr(r, p))
            .collect();
        let built = MapArt::new(raw.art.clone(), &anchors, &abbrs).map_err(|e| {
            let pos = match (e.province, e.line) {
                (Some(i), _) => {
                    let abbr = format!("abbr: \"{}\"", raw_abbr(&raw.provinces[i], &provinces[i]));
                    if raw.provinces[i].anchor().is_some() {
                        loc.find_after("anchor:", &abbr)
                    } else {
                        loc.find_after(&abbr, "provinces").shifted(6)
                    }
                }
                (None, Some(l)) => loc.find_after(&format!("{:?}", raw.art[l]), "art:"),
                (None, None) => loc.find_after("art:", ""),
            };
            err(pos, e.message)
        })?;
        Some(built)
    };
    Ok(Map {
        name: raw.name,
        title: raw.title,
        start_year: raw.start_year,
        start_phase: raw.start_phase,
        build_sites: raw.build_sites,
        victory: raw.victory,
        powers,
        neutral_units,
        provinces,
        locations,
        army_adj,
        fleet_adj,
        names,
        power_names,
        art,
        positions,
    })
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    use super::{NameClash, NameEntry, ProvinceId};

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
    pub struct NameIndex(super::NameIndex);

    impl NameIndex {
        /// An empty index with room for `names` names of `bytes` bytes in all.
        pub fn with_capacity(names: usize, bytes: usize) -> NameIndex {
            NameIndex(super::NameIndex::with_capacity(names, bytes))
        }

        /// Adds the normalized name `key` of `id` (with its hash, as a map does): `Err(Some)`
        /// names the other province a clash is with, `Err(None)` is a name too long.
        pub fn insert(&mut self, key: &str, id: ProvinceId) -> Result<(), Option<ProvinceId>> {
            match self.0.insert_key(key, super::name_hash(key.as_bytes()), id) {
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
