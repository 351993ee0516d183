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
// non-empty list of words (`words[1..]` is then in range), a power index comes from a search of
// `powers` or its last element, and a unit is a string this module built as `A LOC` / `F LOC`.
#![allow(clippy::indexing_slicing)]

use std::collections::{BTreeMap, HashSet};
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
#[derive(Clone, Debug)]
struct Place {
    key: String,
    terrain: Terrain,
    abuts: Vec<String>,
    /// Where it was defined.
    pos: SourcePos,
}

#[derive(Clone, Debug, Default)]
struct PowerDef {
    /// Upper case, as the file's keyword.
    name: String,
    adjective: String,
    homes: Vec<String>,
    units: Vec<String>,
}

/// Everything read from the file and its includes.
#[derive(Default)]
struct Reader {
    places: Vec<Place>,
    /// Full name, abbreviation, aliases, where.
    names: Vec<(String, String, Vec<String>)>,
    powers: Vec<PowerDef>,
    unowned: Vec<String>,
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
                "VICTORY" => {
                    // `VICTORY 18` (DPjudge also lists lower numbers for later years: only
                    // the first is kept, and the rest is said).
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
                }
                "USE" | "USES" | "MAP" => {
                    for w in &words[1..] {
                        // Only files in the folder of the map named (DPjudge's own includes are
                        // siblings): never through `..`, an absolute path or a link out.
                        let named = if Path::new(w).extension().is_none() {
                            format!("{w}.map")
                        } else {
                            (*w).to_string()
                        };
                        let f = crate::base::source::inside(dir, &named, &up)
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
                }
                "BEGIN" => {
                    // `BEGIN SPRING 1901 MOVEMENT`: the map's first year; a game that starts
                    // in another season or phase is said, and starts in Spring.
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
                }
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
                    let reset = up != "INHABITS" || !self.powers[p].homes.is_empty();
                    if reset && up != "INHABITS" {
                        self.powers[p].homes.clear();
                    }
                    add_homes(&mut self.powers[p].homes, &words[1..]);
                }
                "UNITS" => match self.current {
                    Some(p) => self.powers[p].units.clear(),
                    None => {
                        return Err(syntax(
                            file,
                            n,
                            1,
                            "UNITS before any power line: expected a power's name first".into(),
                        ));
                    }
                },
                "A" | "F" => {
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
                    let loc = loc.to_ascii_uppercase();
                    let province = |l: &str| l.split('/').next().unwrap_or(l).to_string();
                    for pw in &mut self.powers {
                        pw.units.retain(|u| province(&u[2..]) != province(&loc));
                    }
                    self.powers[p].units.push(format!("{up} {loc}"));
                }
                "DUMMY" | "DUMMIES" => self.note(
                    file,
                    n,
                    format!("{}: dummy powers are not supported; the powers stay ordinary", line.trim()),
                ),
                "DROP" => {
                    for w in &words[1..] {
                        let w = w.to_ascii_uppercase();
                        self.places
                            .retain(|p| !p.key.to_ascii_uppercase().starts_with(&w));
                        self.names
                            .retain(|(_, abbr, _)| !abbr.to_ascii_uppercase().starts_with(&w));
                        for pw in &mut self.powers {
                            pw.homes.retain(|h| *h != w);
                        }
                        self.unowned.retain(|h| *h != w);
                    }
                }
                "AMEND" | "WATER" | "LAND" | "COAST" | "PORT" | "SHUT" if words.len() > 1 => {
                    self.place_line(&words, line, file, n)?;
                }
                "UNPLAYED" => {
                    let gone: Vec<String> = if words.len() == 1 {
                        self.current
                            .map(|p| vec![self.powers[p].name.clone()])
                            .unwrap_or_default()
                    } else if words[1].eq_ignore_ascii_case("ALL") {
                        let except: Vec<String> = words
                            .iter()
                            .skip(3)
                            .map(|w| w.to_ascii_uppercase())
                            .collect();
                        self.powers
                            .iter()
                            .map(|p| p.name.clone())
                            .filter(|p| !except.contains(p))
                            .collect()
                    } else {
                        words[1..].iter().map(|w| w.to_ascii_uppercase()).collect()
                    };
                    self.powers.retain(|p| !gone.contains(&p.name));
                    self.current = None;
                }
                _ => self.power_line(&words, file, n)?,
            }
        }
        Ok(())
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
        if let Some(i) = self.places.iter().position(|p| p.key == other) {
            old = Some(self.places.remove(i));
            if key.chars().all(|c| !c.is_ascii_lowercase()) {
                let prefix = format!("{key}/");
                self.places
                    .retain(|p| !p.key.to_ascii_uppercase().starts_with(&prefix));
            }
        }
        if let Some(i) = self.places.iter().position(|p| p.key == key) {
            let p = self.places.remove(i);
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
            (t, Vec::new())
        };
        for dest in words.iter().skip(3) {
            if let Some(gone) = dest.strip_prefix('-') {
                let gone = gone.to_ascii_uppercase();
                abuts.retain(|a| !a.to_ascii_uppercase().starts_with(&gone));
            } else {
                abuts.push((*dest).to_string());
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
            add_homes(&mut self.unowned, rest);
            return Ok(());
        }
        let p = match self.powers.iter().position(|p| p.name == up) {
            Some(p) => p,
            None => {
                self.powers.push(PowerDef {
                    name: up.clone(),
                    ..PowerDef::default()
                });
                self.powers.len() - 1
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
        add_homes(&mut self.powers[p].homes, rest);
        Ok(())
    }

    fn finish(mut self, name: &str, file: &str) -> Result<Imported, ImportError> {
        let ron = self.render(name, file);
        let map = Map::from_ron(&ron, &format!("{file} (imported)"))?;
        Ok(Imported {
            map,
            ron,
            notes: self.notes,
        })
    }

    /// The map as a dipsandbox map file.
    fn render(&mut self, name: &str, file: &str) -> String {
        let prov_of =
            |key: &str| -> String { key.split('/').next().unwrap_or(key).to_ascii_uppercase() };
        // Provinces, in the order their main places are given; SHUT ones left out.
        let mut terrain: BTreeMap<String, Terrain> = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        for p in &self.places {
            if !p.key.contains('/') {
                let k = p.key.to_ascii_uppercase();
                if !terrain.contains_key(&k) {
                    order.push(k.clone());
                }
                terrain.insert(k, p.terrain);
            }
        }
        let mut shut = Vec::new();
        order.retain(|k| {
            let keep = terrain.get(k) != Some(&Terrain::Shut);
            if !keep {
                shut.push(k.clone());
            }
            keep
        });
        for k in &shut {
            let pos = self
                .places
                .iter()
                .find(|p| p.key.eq_ignore_ascii_case(k))
                .map_or_else(|| SourcePos::start(file), |p| p.pos.clone());
            self.notes.push(ImportNote {
                pos,
                text: format!(
                    "SHUT {k}: an impassable place (no unit may enter it); left out of the map"
                ),
            });
        }
        let known: HashSet<&String> = order.iter().collect();
        let mut unknown: Vec<String> = Vec::new();
        let place = |key: &str| self.places.iter().find(|p| p.key == key);
        // A place's borders: its own list, looked up as written, else in lower case.
        let abut_list = |key: &str| -> Vec<String> {
            place(key)
                .or_else(|| place(&key.to_ascii_lowercase()))
                .map(|p| p.abuts.clone())
                .unwrap_or_default()
        };
        let upper_place = |key: &str| {
            self.places
                .iter()
                .find(|p| p.key == key && key == key.to_ascii_uppercase())
        };
        let mut out = String::new();
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
        let mut centres: HashSet<String> = self.unowned.iter().cloned().collect();
        for pw in &self.powers {
            centres.extend(pw.homes.iter().cloned());
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
        out.push_str("    ],\n    provinces: [\n");
        // Names and aliases; an alias that another name already takes is left out.
        let mut taken: HashSet<String> = HashSet::new();
        for k in &order {
            taken.insert(normalize_name(k));
        }
        for k in &order {
            let Some((full, _, _)) = self
                .names
                .iter()
                .find(|(_, a, _)| a.eq_ignore_ascii_case(k))
            else {
                continue;
            };
            taken.insert(normalize_name(full));
        }
        for k in &order {
            let t = terrain.get(k).copied().unwrap_or(Terrain::Land);
            let named = self
                .names
                .iter()
                .find(|(_, a, _)| a.eq_ignore_ascii_case(k));
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
            // The main place as written: lower case for a province with coasts.
            let main_key = self
                .places
                .iter()
                .find(|p| !p.key.contains('/') && p.key.eq_ignore_ascii_case(k))
                .map(|p| p.key.clone())
                .unwrap_or_else(|| k.clone());
            // Armies: every border of the main place that is not water, not shut, and not
            // written for fleets only.
            let mut army: Vec<String> = Vec::new();
            if t != Terrain::Water {
                for a in abut_list(&main_key) {
                    let q = prov_of(&a);
                    if !known.contains(&q) {
                        if !terrain.contains_key(&q) && !unknown.contains(&q) {
                            unknown.push(q.clone());
                        }
                        continue;
                    }
                    let fleets_only = a == title_case(&a) && a != a.to_ascii_uppercase();
                    if fleets_only || terrain.get(&q) == Some(&Terrain::Water) || q == *k {
                        continue;
                    }
                    let q = lower(&q);
                    if !army.contains(&q) {
                        army.push(q);
                    }
                }
            }
            army.sort();
            // Fleets: from each place a fleet may stand on (the coasts of a province with coasts,
            // else the main place), to each upper-case place that is not land.
            let fleet_from = |key: &str| -> Vec<String> {
                let mut v: Vec<String> = Vec::new();
                for a in abut_list(key) {
                    if !a.starts_with(|c: char| c.is_ascii_uppercase()) {
                        continue;
                    }
                    let target = a.to_ascii_uppercase();
                    let Some(tp) = upper_place(&target) else {
                        continue;
                    };
                    if matches!(tp.terrain, Terrain::Land | Terrain::Shut)
                        || !known.contains(&prov_of(&target))
                        || prov_of(&target) == *k
                    {
                        continue;
                    }
                    let t = lower(&target);
                    if !v.contains(&t) {
                        v.push(t);
                    }
                }
                v.sort();
                v
            };
            let coasts: Vec<&Place> = self
                .places
                .iter()
                .filter(|p| p.key.contains('/') && prov_of(&p.key) == *k)
                .collect();
            let fleet = if t == Terrain::Land || !coasts.is_empty() {
                Vec::new()
            } else {
                fleet_from(&main_key)
            };
            let list = |v: &[String]| v.iter().map(|s| ron_str(s)).collect::<Vec<_>>().join(", ");
            out.push_str(&format!(
                "        Province(\n            abbr: {},\n            name: {},\n            aliases: [{}],\n            kind: {kind},\n            supply_center: {},\n            army: [{}],\n            fleet: [{}],\n",
                ron_str(&lower(k)),
                ron_str(&full),
                aliases.join(", "),
                centres.contains(k),
                list(&army),
                list(&fleet),
            ));
            if !coasts.is_empty() {
                out.push_str("            coasts: [\n");
                let mut cs: Vec<(String, Vec<String>)> = coasts
                    .iter()
                    .map(|c| {
                        let coast = c.key.split('/').nth(1).unwrap_or("").to_ascii_lowercase();
                        (coast, fleet_from(&c.key))
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
            self.notes.push(ImportNote {
                pos: SourcePos::start(file),
                text: format!(
                    "{q}: named in borders but never defined; those borders are left out"
                ),
            });
        }
        out
    }
}

/// `-LOC` removes a home, `LOC` adds one (upper case, no repeats).
fn add_homes(homes: &mut Vec<String>, words: &[&str]) {
    for w in words {
        let w = w.to_ascii_uppercase();
        let (remove, loc) = match w.strip_prefix('-') {
            Some(l) => (true, l.trim_start_matches('-').to_string()),
            None => (false, w),
        };
        if loc.is_empty() {
            continue;
        }
        homes.retain(|h| *h != loc);
        if !remove {
            homes.push(loc);
        }
    }
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
