//! DPjudge-style `.map` files — the text format of the DPjudge and of the Python `diplomacy`
//! package — read into a dipsandbox map ([`import`]).
//!
//! What the format says and how it is read (the Python package's `engine/map.py` documents the
//! same format by its loader):
//! - `NAME (ADJECTIVE) HOME…` starts a power; the `A LOC` / `F LOC` lines after it are its
//!   starting units; `UNOWNED` (or `NEUTRAL`, `CENTERS`) lists the supply centres nobody owns.
//!   `HOME`/`HOMES`/`INHABITS` change the current power's home centres (`-LOC` removes one),
//!   `UNITS` clears its units, `UNPLAYED …` removes powers.
//! - `Full Name = abbr alias…` names a place: the first word is its abbreviation, the others
//!   aliases (`+` stands for a space; an alias ending in `?` is one the package only accepts when
//!   unambiguous, and is left out here). Names of coasts (`spa/nc`) are the coasts' own.
//! - `LAND|WATER|COAST|PORT|SHUT LOC ABUTS LOC…` gives a place's terrain and borders; `AMEND`
//!   changes a place's borders, `-LOC` in a list removes a border, `DROP LOC…` removes places. A
//!   border written in upper case serves armies and fleets, in lower case armies only, with a
//!   capital first letter only (`Smy`) fleets only. A province with coasts is written in lower
//!   case (`bul`, for armies) and its coasts in upper case (`BUL/EC`, for fleets). `SHUT` places
//!   are impassable: no unit enters them, so they are left out of the map (said in the notes).
//! - `USE`/`USES`/`MAP FILE` include other map files (from the same folder; `.map` added when
//!   the name has no extension).
//! - `BEGIN SPRING YEAR MOVEMENT` gives the map's first year (`start_year`).
//! - `VICTORY N` gives the centres needed to win (`victory`); `RULE BUILD_ANY` builds in any
//!   owned centre (`build_sites: Owned`).
//! - Other `RULE(S)` switches, `DUMMY`/`DUMMIES`, `OWNS`/`CENTERS` after a power are read and
//!   reported as not supported (the notes), never dropped silently.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): `words` is a line's
// non-empty list of words (`words[1..]` is then in range), a power index comes from `by_name`
// or `current`, which hold only indices of `powers` (a power is never removed from it, only from
// `live`), and a unit is a string this module built as `A LOC` / `F LOC`.
#![allow(clippy::indexing_slicing)]

// Every look-up below is by a hash or an ordered set, never a scan of a list: a file of 10^5
// provinces, borders, names, homes, units or powers is read and written in time n log n (it
// was quadratic: 20,000 provinces took 7.8 s in release, 100,000 more than 400 s). The
// hashes are std's (keyed SipHash): the keys are the file's words.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::base::position::SourcePos;
use crate::model::error::MapError;
use crate::model::map::{Map, normalize_name};

/// A map file that could not be imported, with where and why.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A file (the one named, or one it includes) could not be read.
    #[error("{file}: cannot read: {message}")]
    Read {
        /// The file.
        file: String,
        /// The operating system's message.
        message: String,
    },
    /// A line that is not what the format allows there.
    #[error("{pos}: {message}")]
    Syntax {
        /// Where.
        pos: SourcePos,
        /// What was found and what was expected.
        message: String,
    },
    /// The map read but is not a valid dipsandbox map (the map loader's own message).
    #[error("{0}")]
    Invalid(#[from] MapError),
}

/// Something read but not carried into the map, or carried with a change, with where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportNote {
    /// Where it was read.
    pub pos: SourcePos,
    /// What it was and what became of it.
    pub text: String,
}

/// A map imported from a DPjudge-style file.
#[derive(Debug)]
pub struct Imported {
    /// The map, checked by the map loader.
    pub map: Map,
    /// The same map as a dipsandbox map file (RON), to write into `maps/`.
    pub ron: String,
    /// What was read but not supported, or read with a change.
    pub notes: Vec<ImportNote>,
    /// The files read (the one named and those it includes; for a jDip variant, its adjacency
    /// file): what the map written may never replace.
    pub read: Vec<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Terrain {
    Land,
    Water,
    Coast,
    Port,
    Shut,
}

impl Terrain {
    fn parse(word: &str) -> Option<Terrain> {
        Some(match word.to_ascii_uppercase().as_str() {
            "LAND" => Terrain::Land,
            "WATER" => Terrain::Water,
            "COAST" => Terrain::Coast,
            "PORT" => Terrain::Port,
            "SHUT" => Terrain::Shut,
            _ => return None,
        })
    }
}

/// A place as the file gives it: `BUL/EC`, `bul`, `ADR`.
#[derive(Debug)]
struct Place {
    key: String,
    terrain: Terrain,
    /// Its borders as written, in order; `-LOC` takes out those that start with `LOC`.
    abuts: Abuts,
    /// Where it was defined.
    pos: SourcePos,
}

/// A list in the order things were added, whose entries are taken out by a prefix of their
/// key in upper case (`DROP BUL`, a province redefined in upper case taking its coasts) through
/// an ordered index, never by a scan. The index is made at the first such removal and kept from
/// then on, so a file that removes nothing does not pay for it. A taken entry leaves an empty
/// slot, so a slot's number stays its place in the order.
#[derive(Debug)]
struct Listed<T> {
    slots: Vec<Option<T>>,
    /// (key in upper case, slot) of every entry still in the list, once a removal needed it.
    by_upper: Option<BTreeSet<(String, usize)>>,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            slots: Vec::new(),
            by_upper: None,
        }
    }
}

/// The key an entry of a [`Listed`] is found by.
trait HasKey {
    fn key(&self) -> &str;
}

impl HasKey for Place {
    fn key(&self) -> &str {
        &self.key
    }
}

impl HasKey for NameDef {
    fn key(&self) -> &str {
        &self.1
    }
}

impl<T: HasKey> Listed<T> {
    /// Adds `item` at the end; its slot.
    fn push(&mut self, item: T) -> usize {
        let slot = self.slots.len();
        if let Some(ix) = &mut self.by_upper {
            ix.insert((item.key().to_ascii_uppercase(), slot));
        }
        self.slots.push(Some(item));
        slot
    }

    fn get(&self, slot: usize) -> Option<&T> {
        self.slots.get(slot).and_then(Option::as_ref)
    }

    /// Takes out the entry at `slot`.
    fn take(&mut self, slot: usize) -> Option<T> {
        let item = self.slots.get_mut(slot).and_then(Option::take)?;
        if let Some(ix) = &mut self.by_upper {
            ix.remove(&(item.key().to_ascii_uppercase(), slot));
        }
        Some(item)
    }

    /// Takes out every entry whose key in upper case starts with `prefix` (upper case).
    fn take_prefix(&mut self, prefix: &str) -> Vec<T> {
        let slots = &self.slots;
        let ix = self.by_upper.get_or_insert_with(|| {
            slots
                .iter()
                .enumerate()
                .filter_map(|(i, t)| Some((t.as_ref()?.key().to_ascii_uppercase(), i)))
                .collect()
        });
        let hits: Vec<(String, usize)> = ix
            .range((prefix.to_string(), 0)..)
            .take_while(|(u, _)| u.starts_with(prefix))
            .cloned()
            .collect();
        let mut out = Vec::with_capacity(hits.len());
        for h in hits {
            let slot = h.1;
            ix.remove(&h);
            if let Some(t) = self.slots.get_mut(slot).and_then(Option::take) {
                out.push(t);
            }
        }
        out
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten()
    }
}

/// A place's borders as written, in order. The index by upper case that `-LOC` needs is made
/// at the first `-LOC` and kept (an `AMEND` moves it along), so a file without removals pays
/// nothing for it and one with many pays a look-up each.
#[derive(Debug, Default)]
struct Abuts {
    list: Vec<Option<String>>,
    /// (border in upper case, its index in `list`) of each border still in the list.
    index: Option<BTreeSet<(String, usize)>>,
}

impl Abuts {
    fn push(&mut self, a: &str) {
        if let Some(ix) = &mut self.index {
            ix.insert((a.to_ascii_uppercase(), self.list.len()));
        }
        self.list.push(Some(a.to_string()));
    }

    /// Takes out every border that starts with `prefix` (upper case) in upper case.
    fn take_prefix(&mut self, prefix: &str) {
        let list = &self.list;
        let ix = self.index.get_or_insert_with(|| {
            list.iter()
                .enumerate()
                .filter_map(|(i, a)| Some((a.as_ref()?.to_ascii_uppercase(), i)))
                .collect()
        });
        let hits: Vec<(String, usize)> = ix
            .range((prefix.to_string(), 0)..)
            .take_while(|(u, _)| u.starts_with(prefix))
            .cloned()
            .collect();
        for h in hits {
            let i = h.1;
            ix.remove(&h);
            if let Some(a) = self.list.get_mut(i) {
                *a = None;
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = &String> {
        self.list.iter().flatten()
    }
}

/// The places read so far, by their key as written and by its upper case.
#[derive(Default)]
struct Places {
    list: Listed<Place>,
    by_key: HashMap<String, usize>,
}

impl Places {
    fn get(&self, key: &str) -> Option<&Place> {
        self.by_key.get(key).and_then(|&slot| self.list.get(slot))
    }

    fn take(&mut self, key: &str) -> Option<Place> {
        let slot = self.by_key.remove(key)?;
        self.list.take(slot)
    }

    /// Takes out every place whose key in upper case starts with `prefix` (upper case).
    fn take_prefix(&mut self, prefix: &str) {
        for p in self.list.take_prefix(prefix) {
            self.by_key.remove(&p.key);
        }
    }

    /// Adds a place (no place of its key is in the list: the caller took it out).
    fn push(&mut self, p: Place) {
        let key = p.key.clone();
        let slot = self.list.push(p);
        self.by_key.insert(key, slot);
    }

    fn iter(&self) -> impl Iterator<Item = &Place> {
        self.list.iter()
    }
}

/// Strings in the order added, each under a key that occurs once: a power's homes (the key is
/// the home) or units (the key is the province). Adding a key again moves it to the end, as the
/// format's `LOC` after `-LOC` does.
#[derive(Debug, Default)]
struct Keyed {
    slots: Vec<Option<String>>,
    at: HashMap<String, usize>,
}

impl Keyed {
    fn remove(&mut self, key: &str) {
        if let Some(slot) = self.at.remove(key)
            && let Some(s) = self.slots.get_mut(slot)
        {
            *s = None;
        }
    }

    /// Puts `value` under `key` at the end, taking out what `key` held.
    fn push_last(&mut self, key: String, value: String) {
        self.remove(&key);
        self.at.insert(key, self.slots.len());
        self.slots.push(Some(value));
    }

    /// Empties it; the keys it held.
    fn clear(&mut self) -> Vec<String> {
        self.slots.clear();
        self.at.drain().map(|(k, _)| k).collect()
    }

    fn iter(&self) -> impl Iterator<Item = &String> {
        self.slots.iter().flatten()
    }
}

#[derive(Debug, Default)]
struct PowerDef {
    /// Upper case, as the file's keyword.
    name: String,
    adjective: String,
    homes: Keyed,
    /// `A LOC` / `F LOC` by province (upper case, no coast).
    units: Keyed,
}

/// A place's name line: full name, abbreviation, aliases.
type NameDef = (String, String, Vec<String>);

/// A province as [`Reader::render`] writes it.
struct Prov<'a> {
    /// Its key in upper case (`BUL`).
    key: String,
    /// The terrain of its last main place.
    terrain: Terrain,
    /// Its first main place, whose borders are the province's (`bul` for a province with
    /// coasts: armies).
    first: &'a Place,
    /// Its coasts' places, in the order given.
    coasts: Vec<&'a Place>,
    /// The first name line of its abbreviation.
    name: Option<&'a NameDef>,
    /// A home or unowned centre.
    centre: bool,
}

/// Everything read from the file and its includes.
#[derive(Default)]
struct Reader {
    places: Places,
    /// Name lines, by abbreviation.
    names: Listed<NameDef>,
    /// Every power read; those `UNPLAYED` removed are left out of `live` and `by_name` (an index
    /// into `powers` stays valid).
    powers: Vec<PowerDef>,
    /// The powers not removed, in the order first read.
    live: BTreeSet<usize>,
    /// A live power's index by its name (upper case).
    by_name: HashMap<String, usize>,
    /// The powers a home was given to (maybe since taken back): where `DROP` looks.
    home_powers: HashMap<String, Vec<usize>>,
    /// The power whose unit stands in a province (upper case, no coast), if any.
    unit_at: HashMap<String, usize>,
    unowned: Keyed,
    /// The power the lines are about (an index into `powers`), if any.
    current: Option<usize>,
    /// The year of `BEGIN`, if read.
    start_year: Option<i32>,
    /// `VICTORY`'s centres, if read.
    victory: Option<usize>,
    /// `RULE BUILD_ANY`: builds in any owned centre.
    build_any: bool,
    notes: Vec<ImportNote>,
    read: HashSet<PathBuf>,
    /// How deep the file being read is included (0: the file named).
    depth: usize,
}

/// How deep `USE` may nest files (each include is read on the stack of the one that names it).
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// Reads the DPjudge-style map file `path` (and the files it includes) into a dipsandbox map
/// named `name`.
pub fn import(path: &Path, name: &str) -> Result<Imported, ImportError> {
    let mut r = Reader::default();
    r.read_file(path)?;
    r.finish(name, &path.display().to_string())
}

/// [`import`] from text (`file` names it in messages; includes are read from `dir`).
pub fn import_text(
    text: &str,
    file: &str,
    dir: &Path,
    name: &str,
) -> Result<Imported, ImportError> {
    let mut r = Reader::default();
    r.read_text(text, file, dir)?;
    r.finish(name, file)
}

fn syntax(file: &str, line: usize, col: usize, message: String) -> ImportError {
    ImportError::Syntax {
        pos: SourcePos {
            file: file.to_string(),
            line,
            col,
        },
        message,
    }
}

/// The column (from 1) of `word` in `line`, for messages.
fn col_of(line: &str, word: &str) -> usize {
    line.find(word).map_or(1, |b| line[..b].chars().count() + 1)
}

impl Reader {
    fn read_file(&mut self, path: &Path) -> Result<(), ImportError> {
        let shown = path.display().to_string();
        let text = crate::base::source::read_text(path).map_err(|e| ImportError::Read {
            file: shown.clone(),
            message: e.to_string(),
        })?;
        let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.read.insert(canonical);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.read_text(&text, &shown, &dir)
    }

    fn note(&mut self, file: &str, line: usize, text: String) {
        self.notes.push(ImportNote {
            pos: SourcePos {
                file: file.to_string(),
                line,
                col: 1,
            },
            text,
        });
    }

    fn read_text(&mut self, text: &str, file: &str, dir: &Path) -> Result<(), ImportError> {
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(&first) = words.first() else {
                continue;
            };
            if first.starts_with('#') {
                continue;
            }
            let up = first.to_ascii_uppercase();
            match up.as_str() {
                "VICTORY" => self.victory_line(&words, line, file, n)?,
                "USE" | "USES" | "MAP" => self.include_line(&words, &up, line, file, n, dir)?,
                "BEGIN" => self.begin_line(&words, line, file, n)?,
                "RULE" | "RULES" => {
                    for w in &words[1..] {
                        if w.eq_ignore_ascii_case("BUILD_ANY") {
                            self.build_any = true;
                        } else {
                            self.note(
                                file,
                                n,
                                format!(
                                    "{up} {w}: a DPjudge rule switch dipsandbox does not read; choose its rule options instead"
                                ),
                            );
                        }
                    }
                }
                _ if line.contains('=') => self.name_line(line, file, n)?,
                "OWNS" | "CENTERS" if self.current.is_some() => self.note(
                    file,
                    n,
                    format!(
                        "{up} {}: centres owned at the start are a scenario's; left out (the centres stay supply centres)",
                        words[1..].join(" ")
                    ),
                ),
                "INHABITS" | "HOME" | "HOMES" => {
                    let Some(p) = self.current else {
                        return Err(syntax(
                            file,
                            n,
                            1,
                            format!("{up} before any power line: expected a power's name first"),
                        ));
                    };
                    if up != "INHABITS" {
                        self.powers[p].homes.clear();
                    }
                    self.add_homes(Some(p), &words[1..]);
                }
                "UNITS" => match self.current {
                    Some(p) => {
                        for prov in self.powers[p].units.clear() {
                            if self.unit_at.get(&prov) == Some(&p) {
                                self.unit_at.remove(&prov);
                            }
                        }
                    }
                    None => {
                        return Err(syntax(
                            file,
                            n,
                            1,
                            "UNITS before any power line: expected a power's name first".into(),
                        ));
                    }
                },
                "A" | "F" => self.unit_line(&words, &up, line, file, n)?,
                "DUMMY" | "DUMMIES" => self.note(
                    file,
                    n,
                    format!("{}: dummy powers are not supported; the powers stay ordinary", line.trim()),
                ),
                "DROP" => {
                    for w in &words[1..] {
                        // Places and names by prefix (`DROP SPA` drops `spa/nc` too), homes
                        // by the whole word, as the Python package's `drop` does.
                        let w = w.to_ascii_uppercase();
                        self.places.take_prefix(&w);
                        self.names.take_prefix(&w);
                        for p in self.home_powers.remove(&w).unwrap_or_default() {
                            self.powers[p].homes.remove(&w);
                        }
                        self.unowned.remove(&w);
                    }
                }
                "AMEND" | "WATER" | "LAND" | "COAST" | "PORT" | "SHUT" if words.len() > 1 => {
                    self.place_line(&words, line, file, n)?;
                }
                "UNPLAYED" => self.unplayed_line(&words),
                _ => self.power_line(&words, file, n)?,
            }
        }
        Ok(())
    }

    /// `VICTORY 18`: the centres to win (DPjudge also lists lower numbers for later years:
    /// only the first is kept, and the rest is said).
    fn victory_line(
        &mut self,
        words: &[&str],
        line: &str,
        file: &str,
        n: usize,
    ) -> Result<(), ImportError> {
        match words.get(1).and_then(|w| w.parse::<usize>().ok()) {
            Some(v) => self.victory = Some(v),
            None => {
                return Err(syntax(
                    file,
                    n,
                    col_of(line, words.get(1).copied().unwrap_or("")),
                    format!("{:?}: expected VICTORY CENTRES (VICTORY 18)", line.trim()),
                ));
            }
        }
        if words.len() > 2 {
            self.note(
                file,
                n,
                format!(
                    "{}: a victory threshold that falls by year is not supported; {} is kept",
                    line.trim(),
                    words[1]
                ),
            );
        }
        Ok(())
    }

    /// `USE FILE…`: reads each file named, from the map's own folder, once, and no deeper than
    /// [`MAX_INCLUDE_DEPTH`].
    fn include_line(
        &mut self,
        words: &[&str],
        up: &str,
        line: &str,
        file: &str,
        n: usize,
        dir: &Path,
    ) -> Result<(), ImportError> {
        for w in &words[1..] {
            // Only files in the folder of the map named (DPjudge's own includes are
            // siblings): never through `..`, an absolute path or a link out.
            let named = if Path::new(w).extension().is_none() {
                format!("{w}.map")
            } else {
                (*w).to_string()
            };
            let f = crate::base::source::inside(dir, &named, up)
                .map_err(|e| syntax(file, n, col_of(line, w), e.to_string()))?;
            let canonical = f.canonicalize().unwrap_or_else(|_| f.clone());
            if self.read.contains(&canonical) {
                self.note(file, n, format!("{up} {w}: already read; not read again"));
                continue;
            }
            if self.depth >= MAX_INCLUDE_DEPTH {
                return Err(syntax(
                    file,
                    n,
                    col_of(line, w),
                    format!(
                        "{up} {}: includes nest more than {MAX_INCLUDE_DEPTH} files deep; expected at most {MAX_INCLUDE_DEPTH}",
                        crate::base::text::cut(w)
                    ),
                ));
            }
            self.depth += 1;
            let read = self.read_file(&f);
            self.depth -= 1;
            read?;
        }
        Ok(())
    }

    /// `BEGIN SPRING 1901 MOVEMENT`: the map's first year; a game that starts in another season
    /// or phase is said, and starts in Spring.
    fn begin_line(
        &mut self,
        words: &[&str],
        line: &str,
        file: &str,
        n: usize,
    ) -> Result<(), ImportError> {
        let year = words.get(2).and_then(|y| y.parse::<i32>().ok());
        match year {
            Some(y) => self.start_year = Some(y),
            None => {
                return Err(syntax(
                    file,
                    n,
                    col_of(line, words.get(2).copied().unwrap_or("")),
                    format!(
                        "{:?}: expected BEGIN SEASON YEAR PHASE (BEGIN SPRING 1901 MOVEMENT)",
                        line.trim()
                    ),
                ));
            }
        }
        let rest: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
        if rest.get(1).map(String::as_str) != Some("SPRING")
            || rest.get(3).map(String::as_str) != Some("MOVEMENT")
        {
            self.note(
                file,
                n,
                format!(
                    "{}: a game on a dipsandbox map starts in Spring movement; the year is kept",
                    line.trim()
                ),
            );
        }
        Ok(())
    }

    /// `A LOC` or `F LOC`: a starting unit of the current power, replacing any unit already in
    /// that province.
    fn unit_line(
        &mut self,
        words: &[&str],
        up: &str,
        line: &str,
        file: &str,
        n: usize,
    ) -> Result<(), ImportError> {
        let Some(p) = self.current else {
            return Err(syntax(
                file,
                n,
                1,
                "a unit before any power line: expected a power's name first".into(),
            ));
        };
        let [_, loc] = words[..] else {
            return Err(syntax(
                file,
                n,
                1,
                format!("unit line {:?}: expected `A LOC` or `F LOC`", line.trim()),
            ));
        };
        // One unit a province: one there already (of any power) is replaced.
        let loc = loc.to_ascii_uppercase();
        let province = loc.split('/').next().unwrap_or(&loc).to_string();
        if let Some(q) = self.unit_at.remove(&province) {
            self.powers[q].units.remove(&province);
        }
        self.powers[p]
            .units
            .push_last(province.clone(), format!("{up} {loc}"));
        self.unit_at.insert(province, p);
        Ok(())
    }

    /// `UNPLAYED [POWER… | ALL EXCEPT POWER…]`: powers left out of the game (the current one if
    /// none is named).
    fn unplayed_line(&mut self, words: &[&str]) {
        let gone: Vec<String> = if words.len() == 1 {
            self.current
                .map(|p| vec![self.powers[p].name.clone()])
                .unwrap_or_default()
        } else if words[1].eq_ignore_ascii_case("ALL") {
            let except: HashSet<String> = words
                .iter()
                .skip(3)
                .map(|w| w.to_ascii_uppercase())
                .collect();
            self.live
                .iter()
                .map(|&p| self.powers[p].name.clone())
                .filter(|p| !except.contains(p))
                .collect()
        } else {
            words[1..].iter().map(|w| w.to_ascii_uppercase()).collect()
        };
        for name in gone {
            if let Some(p) = self.by_name.remove(&name) {
                self.live.remove(&p);
            }
        }
        self.current = None;
    }

    fn name_line(&mut self, line: &str, file: &str, n: usize) -> Result<(), ImportError> {
        let (full, rest) = line.split_once('=').unwrap_or((line, ""));
        let full = full.trim();
        if full.contains("->") {
            self.note(
                file,
                n,
                format!(
                    "{}: renaming a place is not supported; the line is left out",
                    line.trim()
                ),
            );
            return Ok(());
        }
        let mut words = rest.split_whitespace();
        let Some(abbr) = words.next() else {
            return Err(syntax(
                file,
                n,
                col_of(line, "=") + 1,
                format!("{full:?} = nothing: expected an abbreviation after `=`"),
            ));
        };
        let aliases = words.map(str::to_string).collect();
        self.names
            .push((full.to_string(), abbr.to_string(), aliases));
        Ok(())
    }

    fn place_line(
        &mut self,
        words: &[&str],
        line: &str,
        file: &str,
        n: usize,
    ) -> Result<(), ImportError> {
        let kind = words[0].to_ascii_uppercase();
        let key = words[1].to_string();
        if words.len() > 2 && !words[2].eq_ignore_ascii_case("ABUTS") {
            return Err(syntax(
                file,
                n,
                col_of(line, words[2]),
                format!("{:?} after {key}: expected ABUTS", words[2]),
            ));
        }
        // The same place written in the other case is replaced (with its coasts when the new
        // one is the province written in upper case).
        let other: String = key
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        let mut old = None;
        if let Some(p) = self.places.take(&other) {
            old = Some(p);
            if key.chars().all(|c| !c.is_ascii_lowercase()) {
                self.places.take_prefix(&format!("{key}/"));
            }
        }
        if let Some(p) = self.places.take(&key) {
            old = old.or(Some(p));
        }
        let (terrain, mut abuts) = if kind == "AMEND" {
            let Some(o) = old else {
                return Err(syntax(
                    file,
                    n,
                    col_of(line, words[1]),
                    format!("AMEND {key}: no place {key} to amend (expected one defined above)"),
                ));
            };
            (o.terrain, o.abuts)
        } else {
            let Some(t) = Terrain::parse(&kind) else {
                return Err(syntax(file, n, 1, format!("{kind}: expected a terrain")));
            };
            (t, Abuts::default())
        };
        for dest in words.iter().skip(3) {
            if let Some(gone) = dest.strip_prefix('-') {
                abuts.take_prefix(&gone.to_ascii_uppercase());
            } else {
                abuts.push(dest);
            }
        }
        self.places.push(Place {
            key,
            terrain,
            abuts,
            pos: SourcePos {
                file: file.to_string(),
                line: n,
                col: 1,
            },
        });
        Ok(())
    }

    fn power_line(&mut self, words: &[&str], file: &str, n: usize) -> Result<(), ImportError> {
        let mut up = words[0].to_ascii_uppercase();
        if matches!(up.as_str(), "NEUTRAL" | "CENTERS") {
            up = "UNOWNED".into();
        }
        if words.get(1) == Some(&"->") {
            return Err(syntax(
                file,
                n,
                1,
                format!("{}: renaming a power is not supported", words.join(" ")),
            ));
        }
        if !up
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(syntax(
                file,
                n,
                1,
                format!(
                    "{:?}: expected a power line (NAME (ADJECTIVE) HOMES…), a place name line (Name = abbr …), a terrain line (LAND|WATER|COAST|PORT|SHUT LOC ABUTS …) or a directive",
                    crate::base::text::cut(words[0])
                ),
            ));
        }
        let mut rest = &words[1..];
        if up == "UNOWNED" {
            self.current = None;
            self.add_homes(None, rest);
            return Ok(());
        }
        let p = match self.by_name.get(&up) {
            Some(&p) => p,
            None => {
                let p = self.powers.len();
                self.powers.push(PowerDef {
                    name: up.clone(),
                    ..PowerDef::default()
                });
                self.by_name.insert(up.clone(), p);
                self.live.insert(p);
                p
            }
        };
        self.current = Some(p);
        if let Some(own) = rest.first().filter(|w| w.starts_with('(')) {
            let inner = own.trim_start_matches('(').trim_end_matches(')');
            let adjective = inner.split(':').next().unwrap_or("");
            if inner.contains(':') {
                self.note(
                    file,
                    n,
                    format!("{own}: a power's one-letter abbreviation is not used; left out"),
                );
            }
            self.powers[p].adjective = adjective.to_string();
            rest = &rest[1..];
        }
        self.powers[p].homes.clear();
        self.add_homes(Some(p), rest);
        Ok(())
    }

    /// `-LOC` removes a home, `LOC` adds one (upper case, no repeats), to power `who`'s homes
    /// or, without one, to the unowned centres.
    fn add_homes(&mut self, who: Option<usize>, words: &[&str]) {
        for w in words {
            let w = w.to_ascii_uppercase();
            let (remove, loc) = match w.strip_prefix('-') {
                Some(l) => (true, l.trim_start_matches('-').to_string()),
                None => (false, w),
            };
            if loc.is_empty() {
                continue;
            }
            let homes = match who {
                Some(p) => &mut self.powers[p].homes,
                None => &mut self.unowned,
            };
            if remove {
                homes.remove(&loc);
            } else {
                homes.push_last(loc.clone(), loc.clone());
                if let Some(p) = who {
                    self.home_powers.entry(loc).or_default().push(p);
                }
            }
        }
    }

    fn finish(mut self, name: &str, file: &str) -> Result<Imported, ImportError> {
        let ron = self.render(name, file);
        // What was read is not needed any more: freed before the map is built from the text.
        let notes = std::mem::take(&mut self.notes);
        let read: Vec<PathBuf> = self.read.drain().collect();
        drop(self);
        let map = Map::from_ron(&ron, &format!("{file} (imported)"))?;
        Ok(Imported {
            map,
            ron,
            notes,
            read,
        })
    }

    /// The provinces of the map, in the order their main places (keys without `/`, in any
    /// case) are first given, each with its coasts, name and whether it is a supply centre; and
    /// each one's index by its upper-case key.
    fn province_table(&self) -> (Vec<Prov<'_>>, HashMap<String, usize>) {
        let places = &self.places;
        // Each province looked up once here: the table holds what the provinces' lines need,
        // and the loop over them in `render` looks up only their borders.
        let mut provs: Vec<Prov<'_>> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::with_capacity(places.by_key.len());
        for p in places.iter().filter(|p| !p.key.contains('/')) {
            let k = p.key.to_ascii_uppercase();
            match index.get(&k) {
                // A later main place of the same province gives its terrain.
                Some(&i) => {
                    if let Some(pr) = provs.get_mut(i) {
                        pr.terrain = p.terrain;
                    }
                }
                None => {
                    index.insert(k.clone(), provs.len());
                    provs.push(Prov {
                        key: k,
                        terrain: p.terrain,
                        first: p,
                        coasts: Vec::new(),
                        name: None,
                        centre: false,
                    });
                }
            }
        }
        // Its coasts: the places `K/…` in any case.
        for p in places.iter() {
            if let Some((prov, _)) = p.key.split_once('/')
                && let Some(&i) = index.get(&prov.to_ascii_uppercase())
                && let Some(pr) = provs.get_mut(i)
            {
                pr.coasts.push(p);
            }
        }
        // Its name: the first name line of its abbreviation.
        for nd in self.names.iter() {
            if let Some(&i) = index.get(&nd.1.to_ascii_uppercase())
                && let Some(pr) = provs.get_mut(i)
                && pr.name.is_none()
            {
                pr.name = Some(nd);
            }
        }
        // Supply centres: the homes and the unowned centres.
        let homes = self.live.iter().flat_map(|&p| self.powers[p].homes.iter());
        for h in self.unowned.iter().chain(homes) {
            if let Some(&i) = index.get(h)
                && let Some(pr) = provs.get_mut(i)
            {
                pr.centre = true;
            }
        }
        (provs, index)
    }

    /// The map file's head: its name, title, first year, build sites and victory, and its
    /// powers (each with its homes and starting units).
    fn write_header(&self, out: &mut String, name: &str, file: &str) {
        out.push_str(&format!(
            "// Imported by `dipsandbox map import` from the DPjudge-style map file {}.\n",
            file.rsplit('/').next().unwrap_or(file)
        ));
        out.push_str("Map(\n");
        out.push_str(&format!("    name: {},\n", ron_str(name)));
        out.push_str(&format!(
            "    title: {},\n",
            ron_str(&format!(
                "{name} (imported from {})",
                file.rsplit('/').next().unwrap_or(file)
            ))
        ));
        if let Some(y) = self.start_year {
            out.push_str(&format!("    start_year: {y},\n"));
        }
        if self.build_any {
            out.push_str("    build_sites: Owned,\n");
        }
        if let Some(v) = self.victory {
            out.push_str(&format!("    victory: Some({v}),\n"));
        }
        out.push_str("    powers: [\n");
        let lower = |s: &str| s.to_ascii_lowercase();
        for pw in self.live.iter().map(|&p| &self.powers[p]) {
            let title = title_case(&pw.name);
            let adjective = if pw.adjective.is_empty() {
                title.clone()
            } else {
                title_case(&pw.adjective)
            };
            let homes: Vec<String> = pw.homes.iter().map(|h| ron_str(&lower(h))).collect();
            let start: Vec<String> = pw
                .units
                .iter()
                .map(|u| ron_str(&format!("{} {}", &u[..1], lower(&u[2..]))))
                .collect();
            out.push_str(&format!(
                "        Power(\n            name: {},\n            adjective: {},\n            home: [{}],\n            start: [{}],\n        ),\n",
                ron_str(&title),
                ron_str(&adjective),
                homes.join(", "),
                start.join(", ")
            ));
        }
    }

    /// The map as a dipsandbox map file.
    fn render(&mut self, name: &str, file: &str) -> String {
        let places = &self.places;
        let mut notes = Vec::new();
        let (provs, index) = self.province_table();
        // SHUT provinces are left out, and said.
        for pr in provs.iter().filter(|pr| pr.terrain == Terrain::Shut) {
            notes.push(ImportNote {
                pos: pr.first.pos.clone(),
                text: format!(
                    "SHUT {}: an impassable place (no unit may enter it); left out of the map",
                    pr.key
                ),
            });
        }
        let terrain = |q: &str| {
            index
                .get(q)
                .and_then(|&i| provs.get(i))
                .map(|pr| pr.terrain)
        };
        // A province of the map (read, and not SHUT).
        let known = |q: &str| matches!(terrain(q), Some(t) if t != Terrain::Shut);
        // Names in borders that no place has, in the order met (the set says which are in).
        let mut unknown: Vec<String> = Vec::new();
        let mut unknown_set: HashSet<String> = HashSet::new();
        // A place written in upper case (`key` is).
        let upper_place = |key: &str| places.get(key);
        let mut out = String::new();
        self.write_header(&mut out, name, file);
        let lower = |s: &str| s.to_ascii_lowercase();
        out.push_str("    ],\n    provinces: [\n");
        // Names and aliases; an alias that another name already takes is left out.
        let order: Vec<&Prov<'_>> = provs
            .iter()
            .filter(|pr| pr.terrain != Terrain::Shut)
            .collect();
        // (Sized for an abbreviation, a name and an alias each: no growing, no hashing again.)
        let mut taken: HashSet<String> = HashSet::with_capacity(order.len() * 3);
        for pr in &order {
            taken.insert(normalize_name(&pr.key));
        }
        for pr in &order {
            if let Some((full, _, _)) = pr.name {
                taken.insert(normalize_name(full));
            }
        }
        for pr in &order {
            let k = &pr.key;
            let t = pr.terrain;
            let named = pr.name;
            let full = named.map_or_else(|| k.clone(), |(f, _, _)| f.clone());
            let mut aliases = Vec::new();
            if let Some((_, _, al)) = named {
                for a in al {
                    if a.ends_with('?') || a.contains('/') || a.contains('(') {
                        continue;
                    }
                    let a = lower(&a.replace('+', " "));
                    let key = normalize_name(&a);
                    if key.is_empty() || !taken.insert(key) {
                        continue;
                    }
                    aliases.push(ron_str(&a));
                }
            }
            let kind = match t {
                Terrain::Water => "Sea",
                Terrain::Land => "Land",
                Terrain::Coast | Terrain::Port | Terrain::Shut => "Coast",
            };
            // Armies: every border of the main place that is not water, not shut, and not
            // written for fleets only.
            let mut army: Vec<String> = Vec::new();
            if t != Terrain::Water {
                let mut q = String::new();
                for a in pr.first.abuts.iter() {
                    q.clear();
                    q.push_str(prov_part(a));
                    q.make_ascii_uppercase();
                    match terrain(&q) {
                        None => {
                            if unknown_set.insert(q.clone()) {
                                unknown.push(q.clone());
                            }
                            continue;
                        }
                        Some(Terrain::Shut | Terrain::Water) => continue,
                        Some(_) => {}
                    }
                    let fleets_only = is_title_case(a) && a.bytes().any(|b| b.is_ascii_lowercase());
                    if fleets_only || q == *k {
                        continue;
                    }
                    army.push(lower(&q));
                }
            }
            army.sort();
            army.dedup();
            // Fleets: from each place a fleet may stand on (the coasts of a province with coasts,
            // else the main place), to each upper-case place that is not land.
            let fleet_from = |place: &Place| -> Vec<String> {
                let mut v: Vec<String> = Vec::new();
                for a in place.abuts.iter() {
                    if !a.starts_with(|c: char| c.is_ascii_uppercase()) {
                        continue;
                    }
                    let target = a.to_ascii_uppercase();
                    let Some(tp) = upper_place(&target) else {
                        continue;
                    };
                    let q = prov_part(&target);
                    if matches!(tp.terrain, Terrain::Land | Terrain::Shut) || !known(q) || q == k {
                        continue;
                    }
                    v.push(lower(&target));
                }
                v.sort();
                v.dedup();
                v
            };
            let coasts = &pr.coasts;
            // From the main place as written (lower case for a province with coasts).
            let fleet = if t == Terrain::Land || !coasts.is_empty() {
                Vec::new()
            } else {
                fleet_from(pr.first)
            };
            let list = |v: &[String]| v.iter().map(|s| ron_str(s)).collect::<Vec<_>>().join(", ");
            out.push_str(&format!(
                "        Province(\n            abbr: {},\n            name: {},\n            aliases: [{}],\n            kind: {kind},\n            supply_center: {},\n            army: [{}],\n            fleet: [{}],\n",
                ron_str(&lower(k)),
                ron_str(&full),
                aliases.join(", "),
                pr.centre,
                list(&army),
                list(&fleet),
            ));
            if !coasts.is_empty() {
                out.push_str("            coasts: [\n");
                let mut cs: Vec<(String, Vec<String>)> = coasts
                    .iter()
                    .map(|c| {
                        let coast = c.key.split('/').nth(1).unwrap_or("").to_ascii_lowercase();
                        (coast, fleet_from(c))
                    })
                    .collect();
                cs.sort();
                for (coast, f) in cs {
                    out.push_str(&format!(
                        "                Coast(name: {}, fleet: [{}]),\n",
                        ron_str(&coast),
                        list(&f)
                    ));
                }
                out.push_str("            ],\n");
            }
            out.push_str("        ),\n");
        }
        out.push_str("    ],\n)\n");
        for q in unknown {
            notes.push(ImportNote {
                pos: SourcePos::start(file),
                text: format!(
                    "{q}: named in borders but never defined; those borders are left out"
                ),
            });
        }
        self.notes.extend(notes);
        out
    }
}

/// The province part of a place's key (`BUL` of `BUL/EC`), as written.
fn prov_part(key: &str) -> &str {
    key.split('/').next().unwrap_or(key)
}

/// Whether `s` is its own [`title_case`] (`Smy`, `North-Africa`), without building it.
fn is_title_case(s: &str) -> bool {
    let mut start = true;
    for c in s.chars() {
        let same = if start {
            c.to_uppercase().eq(std::iter::once(c))
        } else {
            c.to_lowercase().eq(std::iter::once(c))
        };
        if !same {
            return false;
        }
        start = !c.is_alphanumeric();
    }
    true
}

/// `AUSTRIA` → `Austria`; `NORTH-AFRICA` → `North-Africa`.
fn title_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut start = true;
    for c in s.chars() {
        if start {
            out.extend(c.to_uppercase());
        } else {
            out.extend(c.to_lowercase());
        }
        start = !c.is_alphanumeric();
    }
    out
}

/// A RON string literal.
pub(crate) fn ron_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
