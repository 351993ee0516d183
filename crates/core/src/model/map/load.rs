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
            // Listed once however often it is written: the first time, the centre is still
            // its home power's in `owned_by` (a look-up, not a search of the list so far).
            if owned_by[id.0 as usize].is_some() {
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
