//! Reading a map: from a RON map file (or the standard map compiled in) or from lists, and every
//! check a map must pass before it is built (unique names, borders listed from both sides,
//! limits), with errors located in the file.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): province, location and power
// ids index the map's own tables; ids are made only by the map while it is built, after the count
// limits are checked, and always below the table lengths.
#![allow(clippy::indexing_slicing)]

use serde::Deserialize;

use super::builtin::{built_in, built_in_names};
use super::names::{BATCH, KeyBatch, NameClash, NameIndex, normalize_into, normalize_name};
use super::types::*;
use crate::base::source::Locator;
use crate::base::text::cut;
use crate::model::art::MapArt;
use crate::model::error::{MapError, SourcePos, quoted};

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

    /// Loads a map by name or path: `standard` (built in); a path; a name, from the file
    /// `maps/NAME.ron` of the current folder, else the built-in map of that name
    /// ([`BUILT_IN`](super::BUILT_IN)).
    pub fn load(name_or_path: &str) -> Result<Map, MapError> {
        if name_or_path == "standard" {
            return Ok(Map::standard());
        }
        if let Some(path) = Map::locate(name_or_path) {
            let text = crate::base::source::read_text(&path)?;
            return Map::from_ron(&text, &path.display().to_string());
        }
        match built_in(name_or_path) {
            Some(text) => Map::from_ron(text, &format!("{name_or_path} (built in)")),
            None => Err(MapError::NotFound {
                name: name_or_path.to_string(),
                hint: crate::base::near::did_you_mean(name_or_path, built_in_names()),
                built_in: built_in_names().collect::<Vec<_>>().join(", "),
            }),
        }
    }

    /// The built-in map `name` ([`BUILT_IN`](super::BUILT_IN), or another program's name for
    /// one: [`OTHER_NAMES`](super::OTHER_NAMES)) and nothing else: for a map that a
    /// file names (a recorded game's `"map"`), which must never open a file of its own choosing.
    pub fn load_built_in(name: &str) -> Result<Map, MapError> {
        // Another program's name for one of them (godip's `ancientmediterranean`).
        let name = super::builtin::our_name(name);
        if name == "standard" {
            return Ok(Map::standard());
        }
        match built_in(name) {
            Some(text) => Map::from_ron(text, &format!("{name} (built in)")),
            None => Err(MapError::NotFound {
                name: name.to_string(),
                hint: crate::base::near::did_you_mean(name, built_in_names()),
                built_in: built_in_names().collect::<Vec<_>>().join(", "),
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

/// For a name (of a province or a power) that holds a control character or an invisible one
/// (a bidirectional override, a zero-width character), what to say about it: names are written
/// in orders, shown on one line and saved back into scenario files, and a line end, an ESC
/// sequence or a NUL can do none of that; an invisible character makes two names look alike
/// or a line read backwards.
/// Also the name as the file has it up to that character (`"Dunmere`), to find it by.
fn control_in_name(n: &str) -> Option<(String, String)> {
    let (i, c) = crate::base::text::first_unprintable(n)?;
    let what = if c.is_control() {
        "control"
    } else {
        "invisible"
    };
    let message = format!(
        "{} holds the {what} character {}; names are plain text",
        quoted(n),
        crate::base::text::one_line(c.encode_utf8(&mut [0; 4]))
    );
    Some((format!("\"{}", n.get(..i).unwrap_or_default()), message))
}

/// A map's error at `pos`, saying `message`.
fn err(pos: SourcePos, message: String) -> MapError {
    MapError::Invalid { pos, message }
}

/// Checks a map as read and builds it: its facts and limits, then its provinces and names, its
/// borders (each listed from both sides), its powers and who owns what at the start, and its art.
fn build<P: ProvinceSource>(mut raw: RawMap<P>, text: &str, file: &str) -> Result<Map, MapError> {
    let loc = Locator::new(text, file);
    check_facts(&raw, &loc)?;
    let sizes = TableSizes::of(&raw.provinces, file)?;

    // Pass 1: provinces, names and locations.
    let mut reader = ProvinceReader::new(&loc, &sizes);
    reader.read(&mut raw.provinces)?;
    let ProvinceReader {
        mut provinces,
        locations,
        names,
        mut batch,
        ..
    } = reader;

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

    // Pass 2: adjacency.
    let mut borders = BorderReader {
        provinces: &provinces,
        locations: &locations,
        loc: &loc,
        lookups: BorderLookups::default(),
        army_adj: vec![Vec::new(); provinces.len()],
        fleet_adj: vec![Vec::new(); locations.len()],
    };
    borders.read(&raw.provinces, &names, &mut batch)?;
    let BorderReader {
        mut army_adj,
        mut fleet_adj,
        ..
    } = borders;
    check_symmetry(&army_adj, &fleet_adj, &provinces, &locations, &loc)?;

    let PowersRead {
        mut powers,
        power_names,
        home_of,
    } = read_powers(&raw.powers, &names, &provinces, &resolve_loc, &loc)?;
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
    read_owners(&raw.powers, &mut powers, &home_of, &names, &provinces, &loc)?;
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
    let art = read_art(&raw, &provinces, &loc)?;
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

/// The map's own facts: its first year, its victory count and its number of powers (the hard
/// limit checked before any id is made from an index, so nothing wraps: power ids are 8-bit).
fn check_facts<P: ProvinceSource>(raw: &RawMap<P>, loc: &Locator) -> Result<(), MapError> {
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
    Ok(())
}

/// Every count the map's tables are sized by, from one pass over the provinces.
struct TableSizes {
    /// Locations: each province's main one and its coasts.
    locations: usize,
    /// Names: abbreviations, names and aliases.
    names: usize,
    /// The bytes of all those names.
    name_bytes: usize,
}

impl TableSizes {
    /// The sizes of `provinces`' tables, within the hard limits (province and location ids are
    /// 32-bit), checked before any id is made from an index.
    fn of<P: ProvinceSource>(provinces: &[P], file: &str) -> Result<Self, MapError> {
        let (mut locations, mut names, mut name_bytes) = (0usize, 0usize, 0usize);
        for p in provinces {
            locations = locations.saturating_add(1 + p.coasts().len());
            names = names.saturating_add(2 + p.aliases().len());
            name_bytes = name_bytes
                .saturating_add(p.abbr().len() + p.name().len())
                .saturating_add(p.aliases().iter().map(String::len).sum());
        }
        if provinces.len() > MAX_PROVINCES || locations > MAX_LOCATIONS {
            return Err(err(
                SourcePos::start(file),
                format!(
                    "a map has at most {MAX_PROVINCES} provinces and {MAX_LOCATIONS} locations; this one has {} provinces and {locations} locations",
                    provinces.len()
                ),
            ));
        }
        Ok(TableSizes {
            locations,
            names,
            name_bytes,
        })
    }
}

/// The text `abbr: "…"` that opens a province in its map file (the anchor of its messages).
fn province_anchor(abbr: &str) -> String {
    format!("abbr: \"{abbr}\"")
}

/// Pass 1: the provinces, their names and their locations, built from the map as read.
struct ProvinceReader<'a> {
    /// The map file, to locate errors.
    loc: &'a Locator<'a>,
    /// The provinces built so far.
    provinces: Vec<Province>,
    /// Their locations: each province's main one, then its coasts.
    locations: Vec<Location>,
    /// Every name of every province so far.
    names: NameIndex,
    /// The names of the next provinces, folded and hashed together.
    batch: KeyBatch,
    /// The next name of `batch` to look up.
    next_key: usize,
}

impl<'a> ProvinceReader<'a> {
    /// An empty reader with its tables sized once for the whole map.
    fn new(loc: &'a Locator<'a>, sizes: &TableSizes) -> Self {
        ProvinceReader {
            loc,
            provinces: Vec::new(),
            locations: Vec::with_capacity(sizes.locations),
            // Sized once for every name (and a prefix for one in three), so that a big map's
            // index is rarely rebuilt as it grows; the text is at most the names' length
            // (folding only drops bytes).
            names: NameIndex::with_capacity(
                sizes.names.saturating_add(sizes.names / 3),
                sizes.name_bytes.min(u32::MAX as usize),
            ),
            batch: KeyBatch::default(),
            next_key: 0,
        }
    }

    /// Reads every province. A province's abbreviation, name and aliases are moved into the
    /// map (lower-cased in place), not copied; an abbreviation that was not lower case stays in
    /// `raw` too, for messages that quote it as written ([`raw_abbr`]).
    fn read<P: ProvinceSource>(&mut self, raw: &mut [P]) -> Result<(), MapError> {
        self.provinces.reserve_exact(raw.len());
        for i in 0..raw.len() {
            if i % BATCH == 0 {
                self.fill_batch(raw.iter().skip(i).take(BATCH));
            }
            let (done, rest) = raw.split_at_mut(i);
            let Some(rp) = rest.first_mut() else { break };
            let id = ProvinceId(i as u32);
            if rp.abbr().trim().is_empty() || rp.abbr().contains('/') {
                return Err(err(
                    self.province_pos(rp.abbr()),
                    format!(
                        "province abbreviation {} must be non-empty and contain no '/'",
                        quoted(rp.abbr())
                    ),
                ));
            }
            self.index_names(&*rp, id, done)?;
            let main = LocId(self.locations.len() as u32);
            self.locations.push(Location {
                province: id,
                coast: None,
            });
            let coasts = self.read_coasts(&*rp, id)?;
            let abbr = if rp.abbr().bytes().any(|b| b.is_ascii_uppercase()) {
                rp.abbr().to_ascii_lowercase()
            } else {
                std::mem::take(rp.abbr_mut())
            };
            let mut aliases = rp.take_aliases();
            for a in &mut aliases {
                a.make_ascii_lowercase();
            }
            self.provinces.push(Province {
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
        Ok(())
    }

    /// The position of the province's own `abbr: "…"` value (built only for an error).
    fn province_pos(&self, abbr: &str) -> SourcePos {
        self.loc
            .find_after(&province_anchor(abbr), "provinces")
            .shifted(6)
    }

    /// Folds and hashes the names of the next provinces together.
    fn fill_batch<'r, P: ProvinceSource + 'r>(&mut self, next: impl Iterator<Item = &'r P>) {
        self.batch.clear();
        self.next_key = 0;
        for rp in next {
            for n in [rp.abbr(), rp.name()]
                .into_iter()
                .chain(rp.aliases().iter().map(String::as_str))
            {
                self.batch.push(n);
            }
        }
    }

    /// Indexes the province's abbreviation, name and aliases: each plain text and used by no
    /// other province (`done` are the provinces before it, to quote the other's abbreviation).
    fn index_names<P: ProvinceSource>(
        &mut self,
        rp: &P,
        id: ProvinceId,
        done: &[P],
    ) -> Result<(), MapError> {
        for n in [rp.abbr(), rp.name()]
            .into_iter()
            .chain(rp.aliases().iter().map(String::as_str))
        {
            if let Some((start, message)) = control_in_name(n) {
                let at = self.loc.find_after(&start, &province_anchor(rp.abbr()));
                return Err(err(at, format!("province name {message}")));
            }
            let (key, hash) = self.batch.key(self.next_key, n);
            self.next_key += 1;
            match self.names.insert_key(key, hash, id) {
                Ok(()) => {}
                Err(NameClash::Province(other)) => {
                    let o = other.0 as usize;
                    let other_abbr = raw_abbr(&done[o], &self.provinces[o]);
                    return Err(err(
                        self.loc
                            .find_after(&format!("\"{n}\""), &province_anchor(rp.abbr())),
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
                        self.loc
                            .find_after(&format!("\"{n}\""), &province_anchor(rp.abbr())),
                        format!(
                            "the names of a map add up to at most 4 GiB; at name {} of province {} they pass it",
                            quoted(n),
                            quoted(rp.abbr())
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The province's coasts, each a new location: only a Coast province has them, two or more,
    /// each named once, and then its fleet borders are its coasts'.
    fn read_coasts<P: ProvinceSource>(
        &mut self,
        rp: &P,
        id: ProvinceId,
    ) -> Result<Vec<(Coast, LocId)>, MapError> {
        let mut coasts = Vec::new();
        if rp.coasts().is_empty() {
            return Ok(coasts);
        }
        if rp.kind() != ProvinceKind::Coast {
            return Err(err(
                self.province_pos(rp.abbr()),
                format!(
                    "province {} is {:?} but lists coasts; only Coast provinces can have coasts",
                    quoted(rp.abbr()),
                    rp.kind()
                ),
            ));
        }
        if rp.coasts().len() < 2 {
            return Err(err(
                self.province_pos(rp.abbr()),
                format!(
                    "province {} lists one coast; list two or more, or none",
                    quoted(rp.abbr())
                ),
            ));
        }
        if !rp.fleet().is_empty() {
            return Err(err(
                self.province_pos(rp.abbr()),
                format!(
                    "province {} has coasts, so its fleet borders belong in its coasts, not in `fleet`",
                    quoted(rp.abbr())
                ),
            ));
        }
        for rc in rp.coasts() {
            let Some(c) = Coast::parse(&rc.name) else {
                return Err(err(
                    self.loc.find_after(&format!("\"{}\"", rc.name), "coasts"),
                    format!(
                        "unknown coast {} in province {}; expected nc, sc, ec or wc",
                        quoted(&rc.name),
                        quoted(rp.abbr())
                    ),
                ));
            };
            if coasts.iter().any(|(x, _)| *x == c) {
                return Err(err(
                    self.province_pos(rp.abbr()),
                    format!(
                        "province {} lists coast {c} twice; list each coast once",
                        quoted(rp.abbr())
                    ),
                ));
            }
            coasts.push((c, LocId(self.locations.len() as u32)));
            self.locations.push(Location {
                province: id,
                coast: Some(c),
            });
        }
        Ok(coasts)
    }
}

/// The borders of the next [`BATCH`] provinces, folded and hashed in a batch and looked up
/// together, then handed out one by one in the order they are checked.
#[derive(Default)]
struct BorderLookups<'r> {
    /// Each border of the batch split at its '/': the province, and the coast if any.
    parts: Vec<(&'r str, Option<&'r str>)>,
    /// Each border's location, if it names one.
    resolved: Vec<Option<LocId>>,
    /// The next border of `resolved` to hand out.
    next: usize,
}

impl<'r> BorderLookups<'r> {
    /// Looks up the borders of `next`: army borders, then fleet borders, then each coast's,
    /// province by province (the order they are checked in).
    fn fill<P: ProvinceSource + 'r>(
        &mut self,
        next: impl Iterator<Item = &'r P>,
        names: &NameIndex,
        provinces: &[Province],
        batch: &mut KeyBatch,
    ) {
        batch.clear();
        self.parts.clear();
        self.resolved.clear();
        self.next = 0;
        for rp in next {
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
                    self.parts.push(part);
                }
            }
        }
        for (k, &(p, c)) in self.parts.iter().enumerate() {
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
            self.resolved.push(l);
        }
    }

    /// The next border's location, or None if it names none.
    fn next(&mut self) -> Option<LocId> {
        let l = self.resolved.get(self.next).copied().flatten();
        self.next += 1;
        l
    }
}

/// Pass 2: every province's army and fleet borders, each to a place its units can enter.
struct BorderReader<'a, 'r> {
    /// The provinces of pass 1.
    provinces: &'a [Province],
    /// Their locations.
    locations: &'a [Location],
    /// The map file, to locate errors.
    loc: &'a Locator<'a>,
    /// The borders looked up, in batches.
    lookups: BorderLookups<'r>,
    /// Each province's army borders.
    army_adj: Vec<Vec<ProvinceId>>,
    /// Each location's fleet borders.
    fleet_adj: Vec<Vec<LocId>>,
}

impl<'r> BorderReader<'_, 'r> {
    /// Reads the borders of every province of `raw`, in order.
    fn read<P: ProvinceSource>(
        &mut self,
        raw: &'r [P],
        names: &NameIndex,
        batch: &mut KeyBatch,
    ) -> Result<(), MapError> {
        for (i, rp) in raw.iter().enumerate() {
            if i % BATCH == 0 {
                self.lookups
                    .fill(raw.iter().skip(i).take(BATCH), names, self.provinces, batch);
            }
            self.read_army(rp, i)?;
            self.read_fleet(rp, i)?;
        }
        Ok(())
    }

    /// Province `i`'s army borders: each a known province, and neither side a sea.
    fn read_army<P: ProvinceSource>(&mut self, rp: &P, i: usize) -> Result<(), MapError> {
        let prov = &self.provinces[i];
        let abbr = raw_abbr(rp, prov);
        let loc = self.loc;
        // Each list allocated once, at its final size (before duplicates are removed).
        self.army_adj[i].reserve_exact(rp.army().len());
        for n in rp.army() {
            let p = || loc.find_after(&format!("\"{n}\""), &province_anchor(abbr));
            let Some(l) = self.lookups.next() else {
                return Err(err(
                    p(),
                    format!(
                        "unknown province {} in the army borders of {}; expected a province's abbreviation, name or alias",
                        quoted(n),
                        quoted(abbr)
                    ),
                ));
            };
            let target = &self.provinces[self.locations[l.0 as usize].province.0 as usize];
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
            self.army_adj[i].push(self.locations[l.0 as usize].province);
        }
        Ok(())
    }

    /// Province `i`'s own fleet borders, or each coast's (no list is built for this): none for
    /// an inland province, each a known location that is not inland, with its coast where it has
    /// several.
    fn read_fleet<P: ProvinceSource>(&mut self, rp: &P, i: usize) -> Result<(), MapError> {
        let prov = &self.provinces[i];
        let abbr = raw_abbr(rp, prov);
        let loc = self.loc;
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
            self.fleet_adj[from.0 as usize].reserve_exact(list.len());
            if prov.kind == ProvinceKind::Land && !list.is_empty() {
                return Err(err(
                    loc.find_after("fleet", &province_anchor(abbr)),
                    format!(
                        "inland province {} lists fleet borders; fleets cannot enter inland provinces",
                        quoted(abbr)
                    ),
                ));
            }
            for n in list {
                let p = || loc.find_after(&format!("\"{n}\""), &province_anchor(abbr));
                let Some(l) = self.lookups.next() else {
                    return Err(err(
                        p(),
                        format!(
                            "unknown location {} in the fleet borders of {}; expected a province's abbreviation, name or alias, with its coast (\"spa/nc\") where it has several",
                            quoted(n),
                            quoted(abbr)
                        ),
                    ));
                };
                let target = &self.provinces[self.locations[l.0 as usize].province.0 as usize];
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
                if target.is_multi_coast() && self.locations[l.0 as usize].coast.is_none() {
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
                self.fleet_adj[from.0 as usize].push(l);
            }
        }
        Ok(())
    }
}

/// For each list, a sorted copy if it is long (empty if not). A long list (a province with
/// thousands of borders) is searched in its sorted copy, so that such a province costs n log n,
/// not n².
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

/// Whether list `j` holds `x`, searched in its sorted copy if it is long ([`sorted_long`]).
fn listed<T: Copy + Ord>(lists: &[Vec<T>], sorted: &[Vec<T>], j: usize, x: T) -> bool {
    if lists[j].len() <= LINEAR_SEARCH {
        lists[j].contains(&x)
    } else {
        sorted[j].binary_search(&x).is_ok()
    }
}

/// Symmetry: each border looked up in the other side's list, visited in the order the map
/// lists them (so that the first one missing is the one reported).
fn check_symmetry(
    army_adj: &[Vec<ProvinceId>],
    fleet_adj: &[Vec<LocId>],
    provinces: &[Province],
    locations: &[Location],
    loc: &Locator,
) -> Result<(), MapError> {
    let sorted = sorted_long(army_adj);
    for (i, list) in army_adj.iter().enumerate() {
        for j in list {
            if !listed(army_adj, &sorted, j.0 as usize, ProvinceId(i as u32)) {
                let a = &provinces[i].abbr;
                let b = &provinces[j.0 as usize].abbr;
                return Err(err(
                    loc.find_after(&province_anchor(b), "provinces"),
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
    let sorted = sorted_long(fleet_adj);
    for (i, list) in fleet_adj.iter().enumerate() {
        for j in list {
            if !listed(fleet_adj, &sorted, j.0 as usize, LocId(i as u32)) {
                let a = loc_name(LocId(i as u32));
                let b = loc_name(*j);
                let b_abbr = &provinces[locations[j.0 as usize].province.0 as usize].abbr;
                return Err(err(
                    loc.find_after(&province_anchor(b_abbr), "provinces"),
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
    Ok(())
}

/// What [`read_powers`] builds.
struct PowersRead {
    /// The powers, without their starting ownership besides home centres.
    powers: Vec<Power>,
    /// Every name, adjective and alias of a power.
    power_names: Names<PowerId>,
    /// Which power each province is a home centre of.
    home_of: Vec<Option<PowerId>>,
}

/// The powers, their names (each used once) and home centres (each a supply centre of one
/// power), and which power each province is a home centre of.
fn read_powers(
    raw: &[RawPower],
    names: &NameIndex,
    provinces: &[Province],
    resolve_loc: &dyn Fn(&str) -> Option<LocId>,
    loc: &Locator,
) -> Result<PowersRead, MapError> {
    let mut powers = Vec::new();
    let mut power_names: Names<PowerId> = Names::default();
    let mut home_of: Vec<Option<PowerId>> = vec![None; provinces.len()];
    for (pi, rp) in raw.iter().enumerate() {
        let pid = PowerId(pi as u8);
        index_power_names(raw, rp, pid, &mut power_names, loc)?;
        let mut home = Vec::new();
        for h in &rp.home {
            let p = || in_power_list(loc, &rp.name, "home:", h);
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
                let other = raw_power_name(raw, other);
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
            let p = || in_power_list(loc, &rp.name, "start:", s);
            let Some((kind, l)) = parse_start_unit(s, resolve_loc) else {
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
    Ok(PowersRead {
        powers,
        power_names,
        home_of,
    })
}

/// Indexes power `rp`'s name, adjective and aliases: each plain text and given once. An
/// adjective that is the name itself (a variant's `BYZANTINUM (BYZANTINUM)`) names nothing new;
/// every other repeat is a mistake.
fn index_power_names(
    raw: &[RawPower],
    rp: &RawPower,
    pid: PowerId,
    power_names: &mut Names<PowerId>,
    loc: &Locator,
) -> Result<(), MapError> {
    let ppos = || loc.find_after(&format!("\"{}\"", rp.name), "powers");
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
            let message = match raw.get(other.0 as usize) {
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
    Ok(())
}

/// Centres owned at the start besides home centres: after every power's homes are known, and
/// home centres not owned at the start taken out first. Each centre has one owner.
fn read_owners(
    raw: &[RawPower],
    powers: &mut [Power],
    home_of: &[Option<PowerId>],
    names: &NameIndex,
    provinces: &[Province],
    loc: &Locator,
) -> Result<(), MapError> {
    let mut owned_by: Vec<Option<PowerId>> = home_of.to_vec();
    for (pi, rp) in raw.iter().enumerate() {
        let pid = PowerId(pi as u8);
        for h in &rp.unowned_homes {
            let p = || in_power_list(loc, &rp.name, "unowned_homes:", h);
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
            // Listed once however often it is written: the first time, the centre is still
            // its home power's in `owned_by` (a look-up, not a search of the list so far).
            if owned_by[id.0 as usize].is_some() {
                powers[pi].unowned_homes.push(id);
            }
            owned_by[id.0 as usize] = None;
        }
    }
    for (pi, rp) in raw.iter().enumerate() {
        let pid = PowerId(pi as u8);
        for o in &rp.owns {
            let p = || in_power_list(loc, &rp.name, "owns:", o);
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
                let other = raw_power_name(raw, other);
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
    Ok(())
}

/// The map's art, if it has any, with its errors located at the province or art line at fault.
fn read_art<P: ProvinceSource>(
    raw: &RawMap<P>,
    provinces: &[Province],
    loc: &Locator,
) -> Result<Option<MapArt>, MapError> {
    if raw.art.is_empty() {
        return Ok(None);
    }
    let anchors: Vec<Option<(u16, u16)>> = raw.provinces.iter().map(|p| p.anchor()).collect();
    let abbrs: Vec<&str> = raw
        .provinces
        .iter()
        .zip(provinces)
        .map(|(r, p)| raw_abbr(r, p))
        .collect();
    let built = MapArt::new(raw.art.clone(), &anchors, &abbrs).map_err(|e| {
        let pos = match (e.province, e.line) {
            (Some(i), _) => {
                let abbr = province_anchor(raw_abbr(&raw.provinces[i], &provinces[i]));
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
    Ok(Some(built))
}
