//! Scenarios as RON files: a position, orders, rule options and expectations.
//!
//! Loading checks everything a newcomer could get wrong and names the file, line and column;
//! saving writes a stable layout atomically (temporary file, then rename), keeping the order
//! text exactly as written.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

use crate::base::source::Locator;
use crate::model::board::{Dislodged, Phase, PhaseKind, Unit};
use crate::model::error::{ScenarioError, SourcePos};
use crate::model::map::{Map, PowerId, ProvinceId, UnitKind};
use crate::model::orders::{Order, parse_loc, parse_order, parse_unit};
use crate::model::rules::Rules;

mod parts;
mod raw;

pub use parts::{Expect, Expected, FollowUp, OrderEntry};
#[cfg(feature = "test-hooks")]
pub use raw::fast_reader_agrees;
use raw::{Lists, RawExpect, RawScenario};

/// A map in file order (RON `{ "key": value }`), keeping duplicates for validation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V2<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map like { \"England\": [...] }")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, V>()? {
                    out.push((k, v));
                }
                Ok(OrderedMap(out))
            }
        }
        d.deserialize_map(V2(std::marker::PhantomData))
    }
}

/// A loaded, validated scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Title.
    pub title: String,
    /// Free text.
    pub description: String,
    /// Where it comes from, e.g. "DATC v3.0 6.F.16".
    pub source: String,
    /// The map.
    pub map: Arc<Map>,
    /// The map as the file names it (`standard`, a name in `maps/`, or a path), kept for saving.
    pub map_ref: String,
    /// The map's file, when it was loaded from one (absolute), so that a copy saved in another
    /// folder names it by a path that still resolves from there.
    pub map_file: Option<PathBuf>,
    /// The phase.
    pub phase: Phase,
    /// Rule options.
    pub rules: Rules,
    /// Units on the board (not counting dislodged units).
    pub units: Vec<Unit>,
    /// Dislodged units (retreat phase).
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff (retreat phase).
    pub contested: Vec<ProvinceId>,
    /// Supply-centre owner per province, if stated; None means each power owns its home centres.
    pub owners: Option<Vec<Option<PowerId>>>,
    /// Orders, in file order.
    pub orders: Vec<OrderEntry>,
    /// Expectations, if any.
    pub expect: Option<Expect>,
    /// Retreat orders after the movement phase, if any.
    pub retreats: Option<FollowUp>,
}

/// Finds the map a scenario file names that is not `standard`: a `.ron` path relative to the
/// scenario's folder (or to the current folder); or, for a bare name (`test7`), `maps/NAME.ron`
/// in the scenario's folder or the nearest folder above it that has one, then in the current
/// folder. Never a file whose name does not end in `.ron`. None when none exists (the caller then
/// looks for a built-in map of that name, [`Map::load_built_in`]).
pub fn find_map(scenario: &Path, name: &str) -> Option<PathBuf> {
    let dir = scenario
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A path is a map file's only when it names one, `NAME.ron`: a scenario file from elsewhere
    // cannot make the program read `/proc/self/environ` or a key file and quote it.
    if name.contains(['/', '\\']) && !name.ends_with(".ron") {
        return None;
    }
    let rel = dir.join(name);
    if rel.is_file() && name.ends_with(".ron") {
        return Some(rel);
    }
    let bare = !name.contains(['/', '\\']) && !name.ends_with(".ron");
    if bare {
        let file = format!("{name}.ron");
        let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        for d in start.ancestors() {
            let p = d.join("maps").join(&file);
            if p.is_file() {
                return Some(p);
            }
        }
        let p = Path::new("maps").join(&file);
        if p.is_file() {
            return Some(p);
        }
    }
    let p = PathBuf::from(name);
    (p.is_file() && name.ends_with(".ron")).then_some(p)
}

/// A path from folder `from` to `to` (both absolute): `../maps/m7.ron`; `to` itself when they
/// share no root.
fn relative_path(from: &Path, to: &Path) -> PathBuf {
    use std::path::Component;
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return to.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in b.iter().skip(common) {
        out.push(c.as_os_str());
    }
    out
}

/// The words of a scenario file that say what it is about: its title, source and description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// The title.
    pub title: String,
    /// Where the case comes from.
    pub source: String,
    /// The description.
    pub description: String,
}

/// Reads a scenario file's [`Words`] without looking anything up (no map, no units, no orders):
/// cheap enough to read a whole folder of scenarios for a search. `None` when the text is not
/// a scenario file.
pub fn words(text: &str) -> Option<Words> {
    let text = crate::base::source::normalized(text);
    let raw: RawScenario = match raw::read(&text) {
        Some(raw) => raw,
        None => ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(&text)
            .ok()?,
    };
    Some(Words {
        title: raw.title.to_string(),
        source: raw.source.to_string(),
        description: raw.description.to_string(),
    })
}

/// Writes a file atomically ([`crate::base::output::write_atomic`]): a temporary file in the same
/// folder, written in full and synced, then renamed over the target, so the file is always the
/// old or the new one. Whatever is at the path must be a regular, writable file: a folder,
/// link, FIFO, device or read-only file is never replaced.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), ScenarioError> {
    crate::base::output::write_atomic(path, text).map_err(io_error)
}

/// A write error as a scenario error (same message).
fn io_error(e: crate::base::output::WriteError) -> ScenarioError {
    ScenarioError::Io {
        file: e.file().to_string(),
        message: e.reason(),
    }
}

/// The text of the built-in scenario, Pandin's paradox (DATC 6.F.16): a decision cycle broken by
/// the Szykman rule.
pub const BUILTIN_TEXT: &str = include_str!("../../../../scenarios/pandin.ron");

/// The name the built-in scenario goes by in messages.
pub const BUILTIN_NAME: &str = "<built-in scenarios/pandin.ron>";

impl Scenario {
    /// The built-in scenario (Pandin's paradox), which needs no file.
    pub fn builtin() -> Result<Scenario, ScenarioError> {
        Scenario::from_ron(BUILTIN_TEXT, BUILTIN_NAME)
    }

    /// An empty board on a map: no units, no orders, Spring movement of the map's first year
    /// (1901 on the standard map), home centres owned,
    /// the DATC's preferred rules. `map_ref` is how a saved file names the map (`standard`).
    pub fn empty(map: Arc<Map>, map_ref: &str) -> Scenario {
        let year = map.start_year;
        Scenario {
            title: "New scenario".into(),
            description: String::new(),
            source: String::new(),
            map,
            map_ref: map_ref.into(),
            map_file: None,
            phase: Phase {
                season: crate::model::board::Season::Spring,
                year,
                kind: PhaseKind::Movement,
            },
            rules: Rules::default(),
            units: Vec::new(),
            dislodged: Vec::new(),
            contested: Vec::new(),
            owners: None,
            orders: Vec::new(),
            expect: None,
            retreats: None,
        }
    }

    /// The opening position of the map (its first phase: Spring 1901 on the standard map, the
    /// Winter adjustment before the first Spring on a map whose `start_phase` says so): each
    /// power's starting units, its home centres and the centres it `owns` owned, no orders.
    pub fn opening(map: Arc<Map>, map_ref: &str) -> Scenario {
        let mut s = Scenario::empty(map.clone(), map_ref);
        s.title = "Opening position".into();
        if map.start_phase == crate::model::map::StartPhase::WinterAdjustment {
            s.phase = Phase {
                season: crate::model::board::Season::Winter,
                year: map.start_year,
                kind: PhaseKind::Adjustment,
            };
        }
        for p in map.power_ids() {
            for (kind, loc) in &map.power(p).start {
                s.units.push(Unit {
                    power: p,
                    kind: *kind,
                    loc: *loc,
                });
            }
        }
        for &(kind, loc) in &map.neutral_units {
            s.units.push(Unit {
                power: PowerId::NEUTRAL,
                kind,
                loc,
            });
        }
        s
    }

    /// Loads a scenario from a file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let file = path.display().to_string();
        let text = crate::base::source::read_text(path)?;
        Scenario::from_ron(&text, &file)
    }

    /// Parses a scenario from RON text; `file` names it in errors. A byte-order mark at the
    /// start and old Mac line ends (`\r` alone) are taken as they are meant.
    pub fn from_ron(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
        let text = crate::base::source::normalized(text);
        Scenario::from_ron_with(&text, file, SCAN_LIMIT)
    }

    /// [`Scenario::from_ron`], matching result keys by a scan up to `scan_limit` orders.
    fn from_ron_with(text: &str, file: &str, scan_limit: usize) -> Result<Scenario, ScenarioError> {
        let opts = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        // The fast reader first; the `ron` crate for anything it leaves (including every error).
        let raw: RawScenario = match raw::read(text) {
            Some(raw) => raw,
            None => opts.from_str(text).map_err(|e| ScenarioError::Syntax {
                pos: SourcePos::from_ron(file, text, &e),
                message: crate::model::error::ron_message_in(&e, text),
            })?,
        };
        let (map, map_file) = if *raw.map == *"standard" {
            (Map::standard_arc(), None)
        } else {
            // The file found, through any link, must be a `.ron` file itself: a `tok.ron` that
            // links to a token file or `/proc/self/environ` is not read.
            let found = find_map(Path::new(file), &raw.map).filter(|p| {
                std::fs::canonicalize(p).is_ok_and(|r| r.extension().is_some_and(|x| x == "ron"))
            });
            let m = match &found {
                Some(p) => Map::load(&p.display().to_string()),
                // Not a map file found from the scenario: a built-in map's name, or nothing (a
                // path the scenario names is never opened any other way).
                None => Map::load_built_in(&raw.map),
            };
            let m = m.map_err(|source| {
                let at = Locator::new(text, file).find_after(&format!("\"{}\"", &*raw.map), "map:");
                ScenarioError::Invalid {
                    pos: at,
                    message: format!("map {}: {source}", crate::model::error::quoted(&raw.map)),
                }
            })?;
            (
                Arc::new(m),
                found.and_then(|p| std::fs::canonicalize(p).ok()),
            )
        };
        // A first pass that does not locate anything (finding every value in the text costs
        // more than the rest of loading); only when it fails is the text read again with a
        // locator, so that the error names its line and column. Both passes are the same code
        // on the same input, so the second fails with the same error.
        let quiet = Builder {
            map: &map,
            loc: Locator::quiet(text, file),
            scan_limit,
        }
        .build(raw, map.clone());
        let mut s = match quiet {
            Ok(s) => s,
            Err(_) => {
                let raw: RawScenario = opts.from_str(text).map_err(|e| ScenarioError::Syntax {
                    pos: SourcePos::from_ron(file, text, &e),
                    message: crate::model::error::ron_message_in(&e, text),
                })?;
                Builder {
                    map: &map,
                    loc: Locator::new(text, file),
                    scan_limit,
                }
                .build(raw, map.clone())?
            }
        };
        s.map_file = map_file;
        Ok(s)
    }

    /// The supply-centre owners, defaulting to the owners at the start of a game on the map
    /// (home centres, and the centres a map's powers `owns`: [`Map::start_owners`]).
    pub fn owners_or_home(&self) -> Vec<Option<PowerId>> {
        match &self.owners {
            Some(o) => o.clone(),
            None => self.map.start_owners(),
        }
    }

    /// Saves the scenario atomically (temporary file in the same folder, then rename); a map
    /// loaded from a file is named by a path that resolves from the new location.
    pub fn save(&self, path: &Path) -> Result<(), ScenarioError> {
        self.save_below(path, "")
    }

    /// [`Scenario::save`] with `header` (comment lines, each ending in a line break) above the
    /// scenario: what a `versus` or `replay` file says it compares, a recovery file's origin.
    pub fn save_below(&self, path: &Path, header: &str) -> Result<(), ScenarioError> {
        write_atomic(path, &(header.to_string() + &self.placed_at(path).to_ron()))
    }

    /// The scenario as it should be written at `path`: when its map came from a file that its
    /// map reference would not find from there, the reference becomes a path from the new
    /// file's folder to the map (relative where the two share a root, else absolute).
    pub fn placed_at(&self, path: &Path) -> std::borrow::Cow<'_, Scenario> {
        let Some(map_file) = &self.map_file else {
            return std::borrow::Cow::Borrowed(self);
        };
        let found = find_map(path, &self.map_ref).and_then(|p| std::fs::canonicalize(p).ok());
        if found.as_ref() == Some(map_file) {
            return std::borrow::Cow::Borrowed(self);
        }
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let mut s = self.clone();
        s.map_ref = relative_path(&dir, map_file).display().to_string();
        std::borrow::Cow::Owned(s)
    }

    /// The scenario in its stable RON layout.
    pub fn to_ron(&self) -> String {
        let map = &*self.map;
        let mut s = String::new();
        let q = |x: &str| ron::to_string(x).unwrap_or_else(|_| format!("{x:?}"));
        s.push_str("Scenario(\n");
        let _ = writeln!(s, "    title: {},", q(&self.title));
        if !self.description.is_empty() {
            let _ = writeln!(s, "    description: {},", q(&self.description));
        }
        if !self.source.is_empty() {
            let _ = writeln!(s, "    source: {},", q(&self.source));
        }
        let _ = writeln!(s, "    map: {},", q(&self.map_ref));
        let _ = writeln!(s, "    phase: {},", q(&self.phase.to_string()));
        let ov = self.rules.overrides();
        if ov.is_empty() {
            s.push_str("    rules: (),\n");
        } else {
            let parts: Vec<String> = ov.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let _ = writeln!(s, "    rules: ({}),", parts.join(", "));
        }
        write_units(&mut s, map, "units", &self.units, 1);
        if !self.dislodged.is_empty() {
            s.push_str("    dislodged: {\n");
            for p in map.unit_owners() {
                let ds: Vec<&Dislodged> = self
                    .dislodged
                    .iter()
                    .filter(|d| d.unit.power == p)
                    .collect();
                if ds.is_empty() {
                    continue;
                }
                let _ = writeln!(s, "        {}: [", q(&map.power(p).name));
                for d in ds {
                    let _ = writeln!(
                        s,
                        "            Dislodged(unit: {}, from: {}{}),",
                        q(&d.unit.describe(map)),
                        q(&map.province(d.attacker_from).name),
                        if d.by_convoy { ", by_convoy: true" } else { "" }
                    );
                }
                s.push_str("        ],\n");
            }
            s.push_str("    },\n");
        }
        if !self.contested.is_empty() {
            let names: Vec<String> = self
                .contested
                .iter()
                .map(|p| q(&map.province(*p).name))
                .collect();
            let _ = writeln!(s, "    contested: [{}],", names.join(", "));
        }
        if let Some(owners) = &self.owners {
            s.push_str("    owners: {\n");
            // `owners: {}` reads back as the default (home centres): when no centre is owned,
            // a power is written with an empty list, which reads back as no centre owned.
            if owners.iter().all(Option::is_none)
                && let Some(p) = map.power_ids().next()
            {
                let _ = writeln!(s, "        {}: [],", q(&map.power(p).name));
            }
            for p in map.power_ids() {
                let names: Vec<String> = owners
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| **o == Some(p))
                    .filter_map(|(i, _)| map.provinces.get(i).map(|p| q(&p.name)))
                    .collect();
                if !names.is_empty() {
                    let _ = writeln!(
                        s,
                        "        {}: [{}],",
                        q(&map.power(p).name),
                        names.join(", ")
                    );
                }
            }
            s.push_str("    },\n");
        }
        write_orders(&mut s, map, &self.orders, 1);
        if let Some(e) = &self.expect {
            write_expect(&mut s, map, &self.orders, e, 1);
        }
        if let Some(r) = &self.retreats {
            s.push_str("    retreats: (\n");
            write_orders(&mut s, map, &r.orders, 2);
            if let Some(e) = &r.expect {
                write_expect(&mut s, map, &r.orders, e, 2);
            }
            s.push_str("    ),\n");
        }
        s.push_str(")\n");
        s
    }
}

fn write_units(s: &mut String, map: &Map, field: &str, units: &[Unit], depth: usize) {
    let ind = "    ".repeat(depth);
    let q = |x: &str| ron::to_string(x).unwrap_or_else(|_| format!("{x:?}"));
    if units.is_empty() {
        let _ = writeln!(s, "{ind}{field}: {{}},");
        return;
    }
    let _ = writeln!(s, "{ind}{field}: {{");
    for p in map.unit_owners() {
        let us: Vec<String> = units
            .iter()
            .filter(|u| u.power == p)
            .map(|u| q(&u.describe(map)))
            .collect();
        if !us.is_empty() {
            let _ = writeln!(
                s,
                "{ind}    {}: [{}],",
                q(&map.power(p).name),
                us.join(", ")
            );
        }
    }
    let _ = writeln!(s, "{ind}}},");
}

/// The powers of `orders` in the order of their first order: the order saving writes them in
/// (each power's orders together) and loading takes them in.
fn powers_in_order(orders: &[OrderEntry]) -> Vec<PowerId> {
    let mut powers: Vec<PowerId> = Vec::new();
    for o in orders {
        if !powers.contains(&o.power) {
            powers.push(o.power);
        }
    }
    powers
}

fn write_orders(s: &mut String, map: &Map, orders: &[OrderEntry], depth: usize) {
    let ind = "    ".repeat(depth);
    let q = |x: &str| ron::to_string(x).unwrap_or_else(|_| format!("{x:?}"));
    if orders.is_empty() {
        let _ = writeln!(s, "{ind}orders: {{}},");
        return;
    }
    let _ = writeln!(s, "{ind}orders: {{");
    for p in powers_in_order(orders) {
        let _ = writeln!(s, "{ind}    {}: [", q(&map.power(p).name));
        for o in orders.iter().filter(|o| o.power == p) {
            let _ = writeln!(s, "{ind}        {},", q(&o.text));
        }
        let _ = writeln!(s, "{ind}    ],");
    }
    let _ = writeln!(s, "{ind}}},");
}

/// The keys to write for an expectation's results: each as held (the order's text when none is
/// held), or prefixed with its order's power (`"Germany: Build A Berlin"`) when a reload would
/// otherwise match it to another power's order. Loading matches each key, in turn, to the first
/// order not yet matched with the same parse, in the order saving writes the orders (by power,
/// see [`write_orders`]); this replays that matching.
fn result_keys(map: &Map, orders: &[OrderEntry], e: &Expect) -> Vec<String> {
    // The orders as written: the powers in order of first appearance, each power's in turn.
    let written: Vec<usize> = powers_in_order(orders)
        .iter()
        .flat_map(|&p| {
            (0..orders.len()).filter(move |&i| orders.get(i).is_some_and(|o| o.power == p))
        })
        .collect();
    let mut used = vec![false; orders.len()];
    let mut keys = Vec::with_capacity(e.results.len());
    for (i, key, _) in &e.results {
        let order = orders.get(*i);
        let mut key = match order {
            Some(o) if key.is_empty() => o.text.clone(),
            _ => key.clone(),
        };
        // The order a reload gives a key, marked as matched.
        let matched = |parsed: &Order, used: &[bool]| {
            written.iter().copied().find(|&j| {
                orders.get(j).is_some_and(|o| {
                    !used.get(j).copied().unwrap_or(true)
                        && parsed.power.is_none_or(|p| p == o.power)
                        && o.order.unit == parsed.unit
                        && o.order.kind == parsed.kind
                })
            })
        };
        if let Ok(parsed) = parse_order(map, &key) {
            let mut m = matched(&parsed, &used);
            if let Some(o) = order
                && m != Some(*i)
                && parsed.power.is_none()
            {
                let prefixed = Order {
                    power: Some(o.power),
                    ..parsed
                };
                if matched(&prefixed, &used) == Some(*i) {
                    key = format!("{}: {key}", map.power(o.power).name);
                    m = Some(*i);
                }
            }
            if let Some(u) = m.and_then(|m| used.get_mut(m)) {
                *u = true;
            }
        }
        keys.push(key);
    }
    keys
}

fn write_expect(s: &mut String, map: &Map, orders: &[OrderEntry], e: &Expect, depth: usize) {
    let ind = "    ".repeat(depth);
    let q = |x: &str| ron::to_string(x).unwrap_or_else(|_| format!("{x:?}"));
    let _ = writeln!(s, "{ind}expect: (");
    let _ = writeln!(s, "{ind}    results: [");
    let keys = result_keys(map, orders, e);
    for ((_, _, r), key) in e.results.iter().zip(&keys) {
        let _ = writeln!(s, "{ind}        ({}, {:?}),", q(key), r);
    }
    let _ = writeln!(s, "{ind}    ],");
    if let Some(d) = &e.dislodged {
        let names: Vec<String> = d.iter().map(|u| q(&u.describe(map))).collect();
        let _ = writeln!(s, "{ind}    dislodged: [{}],", names.join(", "));
    }
    if let Some(p) = &e.positions {
        write_units(s, map, "positions", p, depth + 1);
    }
    let _ = writeln!(s, "{ind}),");
}

/// Up to this many orders, a result key's order is found by scanning them; above, through an
/// [`OrderIndex`].
const SCAN_LIMIT: usize = 32;

/// Up to this many units (or orders with results), a look-up scans what was read so far and
/// bookkeeping lives on the stack; above, tables by province or order are made.
const FEW: usize = 64;

/// A phase's orders by their parse without a `Power:` prefix (and by power too), in file order,
/// each list with a cursor past the orders already used; and the first order with each text.
struct OrderIndex<'o> {
    by_text: std::collections::HashMap<&'o str, usize, FastHash>,
    by_order: OrderLists<Order>,
    by_power: OrderLists<(Order, PowerId)>,
}

/// FxHash: the keys are the scenario's own orders, small and not chosen to collide.
type FastHash = rustc_hash::FxBuildHasher;

/// Unit texts already read (the `units` field's, in file order), with the units read from
/// them, which the expected positions mostly repeat in the same order. Only a shortcut: a text
/// not found here is parsed, with the same result.
#[derive(Default)]
struct KnownUnits<'k, 't> {
    texts: &'k [raw::Text<'t>],
    units: &'k [Unit],
    /// Where the next look-up starts: just past the last text found.
    next: usize,
}

impl KnownUnits<'_, '_> {
    fn get(&mut self, text: &str) -> Option<(UnitKind, crate::model::map::LocId)> {
        let at = match self.texts.get(self.next) {
            Some(t) if **t == *text => self.next,
            _ if self.texts.len() <= FEW => self.texts.iter().position(|t| **t == *text)?,
            _ => return None,
        };
        self.next = at + 1;
        self.units.get(at).map(|u| (u.kind, u.loc))
    }
}

type OrderLists<K> = std::collections::HashMap<K, (Vec<usize>, usize), FastHash>;

impl<'o> OrderIndex<'o> {
    fn new(orders: &'o [OrderEntry]) -> Self {
        let mut ix = OrderIndex {
            by_text: Default::default(),
            by_order: Default::default(),
            by_power: Default::default(),
        };
        for (i, o) in orders.iter().enumerate() {
            ix.by_text.entry(o.text.as_str()).or_insert(i);
            let bare = Order {
                power: None,
                ..o.order.clone()
            };
            ix.by_power
                .entry((bare.clone(), o.power))
                .or_default()
                .0
                .push(i);
            ix.by_order.entry(bare).or_default().0.push(i);
        }
        ix
    }

    /// The first unused order matching `key` (see [`Builder::expect`]).
    fn find(&mut self, key: Order, used: &[bool]) -> Option<usize> {
        fn next_unused(list: Option<&mut (Vec<usize>, usize)>, used: &[bool]) -> Option<usize> {
            let (v, cursor) = list?;
            while v
                .get(*cursor)
                .is_some_and(|&i| used.get(i).copied().unwrap_or(true))
            {
                *cursor += 1;
            }
            v.get(*cursor).copied()
        }
        let power = key.power;
        let bare = Order { power: None, ..key };
        match power {
            Some(p) => next_unused(self.by_power.get_mut(&(bare, p)), used),
            None => next_unused(self.by_order.get_mut(&bare), used),
        }
    }
}

struct Builder<'a> {
    map: &'a Map,
    loc: Locator<'a>,
    /// Up to this many orders, result keys are matched by a scan ([`SCAN_LIMIT`]).
    scan_limit: usize,
}

impl Builder<'_> {
    fn invalid(&self, offset: usize, message: String) -> ScenarioError {
        ScenarioError::Invalid {
            pos: self.loc.pos(offset),
            message,
        }
    }

    /// Positions the cursor on a top-level-ish field.
    fn seek_field(&mut self, field: &str) {
        if !self.loc.is_searching() {
            return;
        }
        let save = self.loc.cursor();
        if !self.loc.seek(&format!("{field}:")) {
            self.loc.set_cursor(save);
        }
    }

    /// [`Self::seek_field`], returning where the field's name is: found from the cursor, or,
    /// when the cursor is already past it, from the start of the text.
    fn field_at(&mut self, field: &str) -> SourcePos {
        let key = format!("{field}:");
        let save = self.loc.cursor();
        if self.loc.seek(&key) {
            self.loc.pos(self.loc.cursor().saturating_sub(key.len()))
        } else {
            self.loc.set_cursor(save);
            self.loc.find_after(&key, "")
        }
    }

    /// A power, or `Neutral` (the owner of neutral units): the keys of `units`, `dislodged`,
    /// expected positions and orders (an order for a neutral unit reads, and is illegal).
    fn unit_owner(&mut self, name: &str) -> Result<PowerId, ScenarioError> {
        if self.map.find_power(name).is_none()
            && self.map.find_power_or_neutral(name) == Some(PowerId::NEUTRAL)
        {
            self.loc.next_literal(name);
            return Ok(PowerId::NEUTRAL);
        }
        self.power(name)
    }

    fn power(&mut self, name: &str) -> Result<PowerId, ScenarioError> {
        let at = self.loc.next_literal(name);
        // A power's name as the map spells it (as files usually have it) is that power: names,
        // adjectives and aliases are unique, so this is what the folded look-up would find.
        // Compared by length and first byte before the text (the names differ there mostly).
        let first = name.as_bytes().first();
        let exact = self.map.powers.iter().position(|p| {
            p.name.len() == name.len() && p.name.as_bytes().first() == first && p.name == name
        });
        if let Some(i) = exact
            && let Ok(i) = u8::try_from(i)
        {
            return Ok(PowerId(i));
        }
        self.map.find_power(name).ok_or_else(|| {
            let names: Vec<&str> = self.map.powers.iter().map(|p| p.name.as_str()).collect();
            self.invalid(
                at,
                format!(
                    "unknown power {}; expected one of {}",
                    crate::model::error::quoted(name),
                    names.join(", ")
                ),
            )
        })
    }

    fn unit(&mut self, power: PowerId, text: &str) -> Result<Unit, ScenarioError> {
        let at = self.loc.next_literal(text);
        let spec = parse_unit(self.map, text).map_err(|e| ScenarioError::Invalid {
            pos: self.loc.pos(at).shifted(e.col),
            message: format!("unit {}: {}", crate::model::error::quoted(text), e.message),
        })?;
        let kind = spec.kind.unwrap_or(UnitKind::Army);
        let prov = self.map.province(spec.loc.province);
        let loc = match (kind, spec.loc.coast) {
            (UnitKind::Fleet, Some(c)) => match prov.coast(c) {
                Some(l) => l,
                None if !prov.is_multi_coast() => prov.main,
                None => {
                    let named: Vec<String> = prov
                        .coasts
                        .iter()
                        .map(|(c, _)| format!("{}({})", prov.name, c.abbr()))
                        .collect();
                    return Err(self.invalid(
                        at,
                        format!(
                            "unit {}: {} has no {}; expected {}",
                            crate::model::error::quoted(text),
                            prov.name,
                            c.name(),
                            named.join(" or ")
                        ),
                    ));
                }
            },
            (UnitKind::Fleet, None) if prov.is_multi_coast() => {
                let cs: Vec<String> = prov
                    .coasts
                    .iter()
                    .map(|(c, _)| format!("{}({})", prov.name, c.abbr()))
                    .collect();
                return Err(self.invalid(
                    at,
                    format!(
                        "unit {}: a fleet in {} must name its coast: {}",
                        crate::model::error::quoted(text),
                        prov.name,
                        cs.join(" or ")
                    ),
                ));
            }
            _ => prov.main,
        };
        match (kind, prov.kind) {
            (UnitKind::Army, crate::model::map::ProvinceKind::Sea) => {
                return Err(self.invalid(
                    at,
                    format!(
                        "unit {}: an army cannot stand in {}, a sea",
                        crate::model::error::quoted(text),
                        prov.name
                    ),
                ));
            }
            (UnitKind::Fleet, crate::model::map::ProvinceKind::Land) => {
                return Err(self.invalid(
                    at,
                    format!(
                        "unit {}: a fleet cannot stand in {}, an inland province",
                        crate::model::error::quoted(text),
                        prov.name
                    ),
                ));
            }
            _ => {}
        }
        Ok(Unit { power, kind, loc })
    }

    /// A unit whose text was read before (in `units`) has the same kind and place: it is not
    /// parsed again.
    fn known_unit(
        &mut self,
        known: &mut KnownUnits,
        power: PowerId,
        text: &str,
    ) -> Result<Unit, ScenarioError> {
        match known.get(text) {
            Some((kind, loc)) => {
                // The cursor moves past the text as `unit` would move it.
                self.loc.next_literal(text);
                Ok(Unit { power, kind, loc })
            }
            None => self.unit(power, text),
        }
    }

    fn units(&mut self, raw: &Lists, known: &mut KnownUnits) -> Result<Vec<Unit>, ScenarioError> {
        let count = raw.texts().len();
        let mut out: Vec<Unit> = Vec::with_capacity(count);
        // The unit already in each province: found among the units read so far when they are
        // few, kept by province when they are many.
        let mut held: Vec<Option<Unit>> = if count > FEW {
            vec![None; self.map.province_count()]
        } else {
            Vec::new()
        };
        // On a map of up to 128 provinces, a bit each for those taken: the units read so far
        // are searched only when a second one comes (which is an error).
        let mut taken = 0u128;
        let small = self.map.province_count() <= 128;
        known.next = 0;
        for (pname, list) in raw.iter() {
            let p = self.unit_owner(pname)?;
            for u in list {
                let save = self.loc.cursor();
                let unit = self.known_unit(known, p, u)?;
                let prov = self.map.province_of(unit.loc);
                let bit = 1u128.checked_shl(prov.0).unwrap_or(0);
                let before = if held.is_empty() {
                    if small && taken & bit == 0 {
                        taken |= bit;
                        None
                    } else {
                        out.iter()
                            .find(|u| self.map.province_of(u.loc) == prov)
                            .copied()
                    }
                } else {
                    held.get(prov.0 as usize).copied().flatten()
                };
                if let Some(other) = before {
                    let msg = format!(
                        "two units in {}: {} and {}; a province holds one unit",
                        self.map.province(prov).name,
                        other.describe_owned(self.map),
                        unit.describe_owned(self.map)
                    );
                    self.loc.set_cursor(save);
                    let at = self.loc.next_literal(u);
                    return Err(self.invalid(at, msg));
                }
                if let Some(slot) = held.get_mut(prov.0 as usize) {
                    *slot = Some(unit);
                }
                out.push(unit);
            }
        }
        Ok(out)
    }

    fn orders(&mut self, raw: &Lists) -> Result<Vec<OrderEntry>, ScenarioError> {
        let mut out = Vec::with_capacity(raw.texts().len());
        for (pname, list) in raw.iter() {
            let power = self.unit_owner(pname)?;
            for text in list {
                let at = self.loc.next_literal(text);
                let order = parse_order(self.map, text).map_err(|e| ScenarioError::Invalid {
                    pos: self.loc.pos(at).shifted(e.col),
                    message: format!("order {}: {}", crate::model::error::quoted(text), e.message),
                })?;
                if let Some(p) = order.power
                    && p != power
                {
                    return Err(self.invalid(
                        at,
                        format!(
                            "order {} is prefixed {} but listed under {}",
                            crate::model::error::quoted(text),
                            self.map.power(p).name,
                            self.map.power(power).name
                        ),
                    ));
                }
                out.push(OrderEntry {
                    power,
                    text: text.to_string(),
                    order,
                });
            }
        }
        // A power whose orders are listed twice (`"England": [...]` again further down) has
        // them taken together, at its first list: the order saving writes them in, so that a
        // result key matches the same order before and after a save. (Only orders of different
        // powers change places; each power's own orders keep their order.)
        // The powers in the order of their first list, and whether one comes back after another.
        // Powers are numbered below 256: a bit each for those seen.
        let mut seen = [0u64; 4];
        let mut last = None;
        let mut split = false;
        for o in &out {
            if last != Some(o.power) {
                let (word, bit) = (usize::from(o.power.0 / 64), 1u64 << (o.power.0 % 64));
                if let Some(w) = seen.get_mut(word) {
                    split |= *w & bit != 0;
                    *w |= bit;
                }
                last = Some(o.power);
            }
        }
        if split {
            let first = powers_in_order(&out);
            // Stable: each power's orders keep their order.
            out.sort_by_key(|o| first.iter().position(|&p| p == o.power));
        }
        Ok(out)
    }

    fn expect(
        &mut self,
        raw: RawExpect,
        orders: &[OrderEntry],
        known: &mut KnownUnits,
    ) -> Result<Expect, ScenarioError> {
        let mut results = Vec::with_capacity(raw.results.len());
        // Which orders have a result already: on the stack for a usual scenario's few.
        let mut few = [false; FEW];
        let mut many = Vec::new();
        let used: &mut [bool] = match few.get_mut(..orders.len()) {
            Some(u) => u,
            None => {
                many.resize(orders.len(), false);
                &mut many
            }
        };
        // Each key names the first order not yet used (in file order) with the same parse, less
        // any `Power:` prefix, in that power's list when the key has a prefix. A few orders are
        // scanned; many are indexed by their parse, so that matching every key costs time
        // linear in the orders, not their number squared.
        let mut index = (orders.len() > self.scan_limit).then(|| OrderIndex::new(orders));
        // Every order before this one is used (the scan starts here).
        let mut first_unused = 0;
        self.seek_field("results");
        for (n, (key, r)) in raw.results.iter().enumerate() {
            let at = self.loc.next_literal(key);
            // A key that repeats an order's text verbatim (as keys usually do, and usually in
            // the orders' order) has that order's parse.
            let same_text = match &index {
                Some(ix) => ix.by_text.get(&**key).and_then(|&i| orders.get(i)),
                None => orders
                    .get(n)
                    .filter(|o| o.text == **key)
                    .or_else(|| orders.iter().find(|o| o.text == **key)),
            };
            let parsed = match same_text {
                Some(o) => o.order.clone(),
                None => parse_order(self.map, key).map_err(|e| ScenarioError::Invalid {
                    pos: self.loc.pos(at).shifted(e.col),
                    message: format!(
                        "result key {}: {}",
                        crate::model::error::quoted(key),
                        e.message
                    ),
                })?,
            };
            let found = match &mut index {
                Some(ix) => ix.find(parsed, used),
                None => {
                    while used.get(first_unused).copied().unwrap_or(false) {
                        first_unused += 1;
                    }
                    let mut found = None;
                    for (i, o) in orders.iter().enumerate().skip(first_unused) {
                        if !used.get(i).copied().unwrap_or(true)
                            && parsed.power.is_none_or(|p| p == o.power)
                            && o.order.unit == parsed.unit
                            && o.order.kind == parsed.kind
                        {
                            found = Some(i);
                            break;
                        }
                    }
                    found
                }
            };
            let Some(i) = found else {
                return Err(self.invalid(
                    at,
                    format!("result for {}, but `orders` has no such order (or it already has a result); keys must repeat an order's text", crate::model::error::quoted(key)),
                ));
            };
            if let Some(u) = used.get_mut(i) {
                *u = true;
            }
            // A key that is its order's text is held as "" (which saving writes as that text):
            // no copy of it.
            let key = match orders.get(i) {
                Some(o) if o.text == **key => String::new(),
                _ => key.to_string(),
            };
            results.push((i, key, *r));
        }
        let dislodged = match raw.dislodged {
            None => None,
            Some(list) => {
                self.seek_field("dislodged");
                let mut out = Vec::new();
                for u in &list {
                    // Compared by unit type and place only; the owner is whoever stands there.
                    out.push(self.known_unit(known, PowerId(0), u)?);
                }
                Some(out)
            }
        };
        let positions = match raw.positions {
            None => None,
            Some(p) => {
                self.seek_field("positions");
                Some(self.units(&p, known)?)
            }
        };
        Ok(Expect {
            results,
            dislodged,
            positions,
        })
    }

    fn build(mut self, raw: RawScenario, map: Arc<Map>) -> Result<Scenario, ScenarioError> {
        self.seek_field("phase");
        let phase_at = self.loc.next_literal(&raw.phase);
        let phase = Phase::parse(&raw.phase).map_err(|m| self.invalid(phase_at, m))?;
        self.loc.set_cursor(0);
        self.seek_field("units");
        let units = self.units(&raw.units, &mut KnownUnits::default())?;
        // The units' texts, for the expected positions, which mostly repeat them.
        let mut known = KnownUnits {
            texts: raw.units.texts(),
            units: &units,
            next: 0,
        };

        let mut dislodged = Vec::new();
        if !raw.dislodged.0.is_empty() {
            let at = self.field_at("dislodged");
            if phase.kind != PhaseKind::Retreat {
                return Err(ScenarioError::Invalid {
                    pos: at,
                    message: format!(
                        "`dislodged` units belong to a retreat phase, but the phase is {phase}"
                    ),
                });
            }
            for (pname, list) in &raw.dislodged.0 {
                let power = self.unit_owner(pname)?;
                for d in list {
                    let unit = self.unit(power, &d.unit)?;
                    let at = self.loc.next_literal(&d.from);
                    let from =
                        parse_loc(self.map, &d.from).map_err(|e| ScenarioError::Invalid {
                            pos: self.loc.pos(at).shifted(e.col),
                            message: format!(
                                "attacker origin {}: {}",
                                crate::model::error::quoted(&d.from),
                                e.message
                            ),
                        })?;
                    dislodged.push(Dislodged {
                        unit,
                        attacker_from: from.province,
                        by_convoy: d.by_convoy,
                    });
                }
            }
        }
        let mut contested = Vec::new();
        if !raw.contested.is_empty() {
            self.seek_field("contested");
            for c in &raw.contested {
                let at = self.loc.next_literal(c);
                let l = parse_loc(self.map, c).map_err(|e| ScenarioError::Invalid {
                    pos: self.loc.pos(at).shifted(e.col),
                    message: format!(
                        "contested province {}: {}",
                        crate::model::error::quoted(c),
                        e.message
                    ),
                })?;
                contested.push(l.province);
            }
        }
        let owners = match &raw.owners {
            // `owners: {}` means the default: every power owns its home centres.
            None => None,
            Some(o) if o.is_empty() => None,
            Some(o) => {
                self.loc.set_cursor(0);
                self.seek_field("owners");
                let mut owners: Vec<Option<PowerId>> = vec![None; self.map.provinces.len()];
                for (pname, list) in o.iter() {
                    let power = self.power(pname)?;
                    for c in list {
                        let at = self.loc.next_literal(c);
                        let l = parse_loc(self.map, c).map_err(|e| ScenarioError::Invalid {
                            pos: self.loc.pos(at).shifted(e.col),
                            message: format!(
                                "supply centre {}: {}",
                                crate::model::error::quoted(c),
                                e.message
                            ),
                        })?;
                        let prov = self.map.province(l.province);
                        if !prov.supply_center {
                            return Err(self.invalid(
                                at,
                                format!(
                                    "{} is not a supply centre, so it cannot be owned",
                                    prov.name
                                ),
                            ));
                        }
                        if let Some(other) = owners.get(l.province.0 as usize).copied().flatten()
                            && other != power
                        {
                            return Err(self.invalid(
                                at,
                                format!(
                                    "{} is listed as owned by both {} and {}; a centre has one owner",
                                    prov.name,
                                    self.map.power(other).name,
                                    self.map.power(power).name
                                ),
                            ));
                        }
                        if let Some(slot) = owners.get_mut(l.province.0 as usize) {
                            *slot = Some(power);
                        }
                    }
                }
                Some(owners)
            }
        };
        self.loc.set_cursor(0);
        self.seek_field("orders");
        let orders = self.orders(&raw.orders)?;
        let expect = match raw.expect {
            None => None,
            Some(e) => {
                self.seek_field("expect");
                Some(self.expect(e, &orders, &mut known)?)
            }
        };
        let retreats = match raw.retreats {
            None => None,
            Some(r) => {
                let at = self.field_at("retreats");
                if phase.kind != PhaseKind::Movement {
                    return Err(ScenarioError::Invalid {
                        pos: at,
                        message: format!(
                            "`retreats` follow a movement phase, but the phase is {phase}"
                        ),
                    });
                }
                self.seek_field("orders");
                let orders = self.orders(&r.orders)?;
                let expect = match r.expect {
                    None => None,
                    Some(e) => {
                        self.seek_field("expect");
                        Some(self.expect(e, &orders, &mut known)?)
                    }
                };
                Some(FollowUp { orders, expect })
            }
        };
        Ok(Scenario {
            title: raw.title.0.into_owned(),
            map_ref: raw.map.0.into_owned(),
            map_file: None,
            description: raw.description.0.into_owned(),
            source: raw.source.0.into_owned(),
            map,
            phase,
            rules: raw.rules,
            units,
            dislodged,
            contested,
            owners,
            orders,
            expect,
            retreats,
        })
    }
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    use super::{Scenario, ScenarioError};

    /// `Scenario::from_ron` on normalized text, matching result keys by a scan up to
    /// `scan_limit` orders (beyond it, by an index).
    pub fn from_ron_with(
        text: &str,
        file: &str,
        scan_limit: usize,
    ) -> Result<Scenario, ScenarioError> {
        Scenario::from_ron_with(text, file, scan_limit)
    }
}
