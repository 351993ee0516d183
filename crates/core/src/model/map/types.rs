//! A map's types: provinces, locations, powers, and [`Map`] with its queries (adjacency, names,
//! build sites). How a map is read and checked is in `load.rs`; its name index in `names.rs`.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): province, location and power
// ids index the map's own tables; ids are made only by the map while it is built, after the count
// limits are checked, and always below the table lengths.
#![allow(clippy::indexing_slicing)]

use std::fmt;

use serde::Deserialize;

use super::names::{NameEntry, NameIndex, name_hash, normalize_name};
use crate::model::art::MapArt;
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
    pub(super) army_adj: Vec<Vec<ProvinceId>>,
    pub(super) fleet_adj: Vec<Vec<LocId>>,
    /// Every normalized name, and every prefix of one that ends before a space (`"gulf"`,
    /// `"gulf of"`): one look-up tells the order parser both whether the words read so far
    /// name a province and whether another word could make a longer name.
    pub(super) names: NameIndex,
    pub(super) power_names: Names<PowerId>,
    pub(super) art: Option<MapArt>,
    /// Per province, its position as the map file gives it (`position: (x, y)`), if any.
    pub(super) positions: Vec<Option<(i32, i32)>>,
}

/// The name (normalized) of the owner of neutral units (unless a power of the map has it).
pub const NEUTRAL_NAME: &str = "neutral";

/// What [`Map::power`] says of [`PowerId::NEUTRAL`].
pub(super) static NEUTRAL_POWER: std::sync::LazyLock<Power> = std::sync::LazyLock::new(|| Power {
    name: "Neutral".into(),
    adjective: "Neutral".into(),
    aliases: Vec::new(),
    home: Vec::new(),
    start: Vec::new(),
    owns: Vec::new(),
    unowned_homes: Vec::new(),
});

/// A map from normalized names (FxHash: names come from the map file, not from an adversary).
pub(super) type Names<V> = rustc_hash::FxHashMap<String, V>;

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
pub(super) const LINEAR_SEARCH: usize = 32;

/// The most provinces a map may have (ids are 32-bit; the limit leaves room for the
/// adjudicator's per-unit decision ids, up to eight per unit, in 32 bits too).
pub const MAX_PROVINCES: usize = 1 << 26;

/// The most locations (provinces plus the coasts of multi-coast provinces) a map may have.
pub const MAX_LOCATIONS: usize = 1 << 27;

/// The most powers a map may have (power ids are 8-bit).
pub const MAX_POWERS: usize = 250;

/// The standard map's RON source, compiled into the binary.
pub const STANDARD_RON: &str = include_str!("../../../../../maps/standard.ron");

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

    /// What a normalized string ([`normalize_into`](super::normalize_into)) is in the name index: the province it
    /// names and whether a longer name continues it, in one look-up.
    pub fn lookup_normalized(&self, key: &str) -> NameEntry {
        self.names.get(key)
    }

    /// [`Map::lookup_normalized`] on bytes already folded (lower-case ASCII letters and digits,
    /// single spaces between words), as a caller folding into its own buffer has them.
    pub(crate) fn lookup_folded(&self, key: &[u8]) -> NameEntry {
        self.names.get_hashed(key, name_hash(key))
    }

    /// Looks a power up by a name already normalized ([`normalize_into`](super::normalize_into)).
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
