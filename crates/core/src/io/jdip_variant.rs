//! jDip variants — a `variants.xml` (one or several `<VARIANT>`s) and the adjacency file its
//! `<MAP adjacencyURI>` names — read into a dipsandbox map ([`import`]).
//!
//! What the format says (jDip's help, `variant_xml_file_format.htm` and
//! `adjacency_xml_file_format.htm`) and how it is read:
//! - The adjacency file's `<PROVINCE shortname fullname>` is a province: its short name (lower
//!   case) is the abbreviation, its full name the name, its `<UNIQUENAME>`s aliases. Its
//!   `<ADJACENCY type refs>` layers give its borders: `mv` for armies, `xc` for fleets on the
//!   province as a whole, `nc`/`sc`/`ec`/`wc` for fleets on one of its coasts (`stp-sc` names a
//!   coast in `refs`). A province with `mv` only is inland, with `xc` or coasts only a sea, with
//!   both coastal (an island's `mv` names only itself). A province no unit can enter or leave
//!   (jDip's Switzerland) is left out, and said. A border listed from one side only is taken as
//!   two-way, and said.
//! - The variant's `<POWER name adjective altnames active>` are the powers (altnames are
//!   aliases); `<SUPPLYCENTER province homepower owner>` the supply centres, a power's home
//!   centres, and the centres it owns at the start (`owns`, when not its home; a home centre
//!   without that owner is in its power's `unowned_homes`, as in 1898);
//!   `<INITIALSTATE province power unit unitcoast>` the starting units.
//! - `<STARTINGTIME turn>`: its year is the map's `start_year`; `Spring … Movement` starts there,
//!   `Fall … Adjustment` (the adjustment before the first Spring) is `start_phase:
//!   WinterAdjustment`.
//! - `<WINNING_SUPPLY_CENTERS value>` is `victory` (left to the default when it is the
//!   majority); `<RULEOPTION name="OPTION_BUILDS">` is `build_sites` (`VALUE_BUILDS_HOME_ONLY`
//!   `Home`, `VALUE_BUILDS_ANY_OWNED` `Owned`, `VALUE_BUILDS_ANY_IF_HOME_OWNED`
//!   `OwnedIfHomeOwned`).
//! - Everything else that changes a game — jDip's border restrictions, convoyable coasts,
//!   inactive powers, a draw after years without captures, a game length, other rule options,
//!   centres that are home to any power — is said in the notes, never dropped silently. Map
//!   graphics and descriptions are not read.

mod adjacency;
mod xml;

use std::collections::HashMap;
use std::path::Path;

use adjacency::Adjacency;
use xml::Element;

use crate::base::position::SourcePos;
use crate::base::text::cut;
use crate::io::dpjudge_map::{ImportError, ImportNote, Imported};
use crate::model::map::{Map, normalize_name};

/// How to read a `variants.xml`: which variant, and where its adjacency file is.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// The variant to read, by name or alias (any case); `None` when the file holds one.
    pub variant: Option<&'a str>,
    /// The adjacency file, instead of the one the variant's `<MAP adjacencyURI>` names.
    pub adjacency: Option<&'a Path>,
}

/// A jDip variant read into a map.
#[derive(Debug)]
pub struct VariantImport {
    /// The variant's name as its file gives it (`Hundred3 v2 [H32]`).
    pub variant: String,
    /// The map name used: the one asked for, else [`map_name`] of the variant's.
    pub name: String,
    /// The map, its RON text and the notes.
    pub imported: Imported,
}

/// A map name made from a variant's name: lower case, each run of other characters than
/// letters and digits one `-` (`Hundred3 v2 [H32]` → `hundred3-v2-h32`).
pub fn map_name(variant: &str) -> String {
    let mut out = String::new();
    for c in variant.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        "variant".into()
    } else {
        out
    }
}

/// Whether a file looks like a jDip variant file (XML) rather than a DPjudge-style map: its
/// name ends in `.xml`, or its text starts with `<`.
pub fn is_variant_file(path: &Path, head: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
        || head
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('<')
}

fn read_file(path: &Path) -> Result<String, ImportError> {
    crate::base::source::read_text(path).map_err(|e| ImportError::Read {
        file: path.display().to_string(),
        message: e.to_string(),
    })
}

fn located(pos: &SourcePos, message: String) -> ImportError {
    ImportError::Syntax {
        pos: pos.clone(),
        message,
    }
}

/// Reads the variant `opts.variant` of the `variants.xml` at `path`, and its adjacency file,
/// into a map named `name` (default: [`map_name`] of the variant's name).
pub fn import(
    path: &Path,
    name: Option<&str>,
    opts: &Options<'_>,
) -> Result<VariantImport, ImportError> {
    let shown = path.display().to_string();
    let text = read_file(path)?;
    let elements = xml::read(&text, &shown)?;
    let variant = choose(&elements, &shown, opts.variant)?;
    let adj_path = match opts.adjacency {
        Some(p) => p.to_path_buf(),
        None => {
            let map = descendants(&elements, variant)
                .find(|&i| elements.get(i).is_some_and(|e| e.is("MAP")));
            let map = map.and_then(|i| elements.get(i));
            let Some(uri) = map
                .and_then(|m| m.attr("adjacencyURI"))
                .map(str::trim)
                .filter(|u| !u.is_empty())
            else {
                let at = map
                    .or(elements.get(variant))
                    .map_or_else(|| SourcePos::start(&shown), |e| e.pos.clone());
                return Err(located(&at, "no <MAP adjacencyURI=\"…\"> in the variant: expected the adjacency file's name (or give --adjacency FILE)".into()));
            };
            let at = || map.map_or_else(|| SourcePos::start(&shown), |e| e.pos.clone());
            if uri.contains(':') {
                return Err(located(
                    &at(),
                    format!(
                        "adjacencyURI=\"{}\": only a file in the folder of variants.xml is read, not a URL (give --adjacency FILE)",
                        cut(uri)
                    ),
                ));
            }
            crate::base::source::inside(path.parent().unwrap_or(Path::new("")), uri, "adjacencyURI")
                .map_err(|e| located(&at(), format!("{e} (give --adjacency FILE)")))?
        }
    };
    let adj_shown = adj_path.display().to_string();
    let adj_text = read_file(&adj_path)?;
    let adj = adjacency::read(&adj_text, &adj_shown)?;
    let mut v = build(&elements, variant, &shown, adj, name)?;
    v.imported.read = vec![path.to_path_buf(), adj_path];
    Ok(v)
}

/// [`import`] from texts (`file` and `adj_file` name them in messages).
pub fn import_text(
    text: &str,
    file: &str,
    adj_text: &str,
    adj_file: &str,
    name: Option<&str>,
    variant: Option<&str>,
) -> Result<VariantImport, ImportError> {
    let elements = xml::read(text, file)?;
    let chosen = choose(&elements, file, variant)?;
    let adj = adjacency::read(adj_text, adj_file)?;
    build(&elements, chosen, file, adj, name)
}

/// The elements inside element `i`, in document order.
fn descendants(elements: &[Element], i: usize) -> impl Iterator<Item = usize> + '_ {
    // An element's descendants follow it; the first element no deeper than it ends them.
    let base = elements.get(i).map_or(0, |e| e.depth);
    (i + 1..elements.len()).take_while(move |&k| elements.get(k).is_some_and(|e| e.depth > base))
}

/// The index of the `<VARIANT>` to read.
fn choose(elements: &[Element], file: &str, wanted: Option<&str>) -> Result<usize, ImportError> {
    let root = elements.first().filter(|e| e.is("VARIANTS"));
    let Some(root) = root else {
        let at = elements
            .first()
            .map_or_else(|| SourcePos::start(file), |e| e.pos.clone());
        return Err(located(
            &at,
            "expected <VARIANTS> (a jDip variants.xml)".into(),
        ));
    };
    let variants: Vec<usize> = elements
        .iter()
        .enumerate()
        .filter(|(_, e)| e.is("VARIANT") && e.parent == Some(0))
        .map(|(i, _)| i)
        .collect();
    let name_of = |i: usize| {
        elements
            .get(i)
            .and_then(|e| e.attr("name"))
            .unwrap_or("")
            .to_string()
    };
    let names: Vec<String> = variants.iter().map(|&i| name_of(i)).collect();
    let Some(wanted) = wanted else {
        return match variants.as_slice() {
            [one] => Ok(*one),
            [] => Err(located(
                &root.pos,
                "<VARIANTS> holds no <VARIANT>: expected one".into(),
            )),
            _ => Err(located(
                &root.pos,
                format!(
                    "{} variants: {}; choose one with --variant NAME",
                    variants.len(),
                    names.join(", ")
                ),
            )),
        };
    };
    let key = normalize_name(wanted);
    let matches = |e: &Element| {
        e.attr("name").is_some_and(|n| normalize_name(n) == key)
            || e.attr("aliases")
                .is_some_and(|a| a.split(',').any(|a| normalize_name(a) == key))
    };
    // Of several variants of one name, jDip takes the highest version.
    let version = |e: &Element| {
        e.attr("version")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let mut best: Option<usize> = None;
    for &i in &variants {
        let Some(e) = elements.get(i) else { continue };
        if matches(e)
            && best
                .and_then(|b| elements.get(b))
                .is_none_or(|b| version(e) > version(b))
        {
            best = Some(i);
        }
    }
    best.ok_or_else(|| {
        located(
            &root.pos,
            format!(
                "no variant named \"{wanted}\" (by name or alias); the file has: {}",
                names.join(", ")
            ),
        )
    })
}

/// A power as the variant gives it.
struct PowerDef {
    name: String,
    adjective: String,
    aliases: Vec<String>,
    home: Vec<String>,
    owns: Vec<String>,
    unowned_homes: Vec<String>,
    start: Vec<String>,
}

/// Adds a note at `pos` saying `text`.
fn note(notes: &mut Vec<ImportNote>, pos: &SourcePos, text: String) {
    notes.push(ImportNote {
        pos: pos.clone(),
        text,
    });
}

/// The map of variant `v` of `elements` with the provinces of `adj`.
fn build(
    elements: &[Element],
    v: usize,
    file: &str,
    mut adj: Adjacency,
    name: Option<&str>,
) -> Result<VariantImport, ImportError> {
    let mut notes: Vec<ImportNote> = std::mem::take(&mut adj.notes);
    let variant_name = elements
        .get(v)
        .and_then(|e| e.attr("name"))
        .unwrap_or("")
        .trim()
        .to_string();
    let name = name.map_or_else(|| map_name(&variant_name), str::to_string);
    // Powers first: centres and units name them, in any order.
    let mut powers = read_powers(elements, v, &mut notes)?;
    if powers.defs.is_empty() {
        let at = elements
            .get(v)
            .map_or_else(|| SourcePos::start(file), |e| e.pos.clone());
        return Err(located(
            &at,
            format!("variant \"{variant_name}\" has no <POWER>: expected at least one"),
        ));
    }
    let mut settings = Settings::default();
    for i in descendants(elements, v) {
        let Some(e) = elements.get(i) else { continue };
        settings.read(e, i, &mut notes)?;
    }
    let is_centre = place_centres(elements, &settings.centres, &adj, &mut powers, &mut notes)?;
    let has_unit = place_units(elements, &settings.units, &adj, &mut powers)?;
    let keep = kept_provinces(&adj, &is_centre, &has_unit, &mut notes);
    let centre_count = is_centre.iter().filter(|c| **c).count();
    let victory = match settings.victory {
        Some((n, _)) if n == centre_count / 2 + 1 => None,
        Some((n, pos)) if n == 0 || n > centre_count => {
            note(
                &mut notes,
                &pos,
                format!(
                    "{n} supply centres to win, of {centre_count}: the default (a majority) is used"
                ),
            );
            None
        }
        other => other.map(|(n, _)| n),
    };
    let ron = render(
        &RenderInput {
            name: &name,
            variant: &variant_name,
            file,
            start_year: settings.start_year,
            winter_start: settings.winter_start,
            build_sites: settings.build_sites,
            victory,
            powers: &powers.defs,
            adj: &adj,
            keep: &keep,
            is_centre: &is_centre,
        },
        &mut notes,
    );
    let map = Map::from_ron(&ron, &format!("{file} (imported)"))?;
    Ok(VariantImport {
        variant: variant_name,
        name,
        imported: Imported {
            map,
            ron,
            notes,
            read: Vec::new(),
        },
    })
}

/// The powers of a variant, and each one's index by every name it goes by.
struct Powers {
    /// The powers, in the order the variant gives them.
    defs: Vec<PowerDef>,
    /// A power's index by its folded name or alias.
    index: HashMap<String, usize>,
}

impl Powers {
    /// The power that attribute `key` of `e` names by `value`.
    fn of(&self, e: &Element, key: &str, value: &str) -> Result<usize, ImportError> {
        self.index
            .get(&normalize_name(value))
            .copied()
            .ok_or_else(|| {
                located(
                    &e.pos,
                    format!(
                        "{key}=\"{value}\" names no <POWER> of the variant (by name or altnames)"
                    ),
                )
            })
    }
}

/// The `<POWER>`s of variant `v`: each with a name, its adjective (the name if none) and its
/// aliases (`altnames`); an inactive one is a power like the others, with a note.
fn read_powers(
    elements: &[Element],
    v: usize,
    notes: &mut Vec<ImportNote>,
) -> Result<Powers, ImportError> {
    let mut powers = Powers {
        defs: Vec::new(),
        index: HashMap::new(),
    };
    for i in descendants(elements, v) {
        let Some(e) = elements.get(i) else { continue };
        if !e.is("POWER") {
            continue;
        }
        let Some(n) = e.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
            return Err(located(
                &e.pos,
                "<POWER> without name: expected name=\"…\"".into(),
            ));
        };
        let adjective = e
            .attr("adjective")
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .unwrap_or(n);
        let aliases: Vec<String> = e
            .attr("altnames")
            .or_else(|| e.attr("altname"))
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .collect();
        if e.attr("active")
            .is_some_and(|a| a.trim().eq_ignore_ascii_case("false"))
        {
            note(
                notes,
                &e.pos,
                format!(
                    "{n}: an inactive power (jDip holds its units) is a power like the others here; give it no orders"
                ),
            );
        }
        for k in std::iter::once(n).chain(aliases.iter().map(String::as_str)) {
            powers.index.insert(normalize_name(k), powers.defs.len());
        }
        powers.defs.push(PowerDef {
            name: n.to_string(),
            adjective: adjective.to_string(),
            aliases,
            home: Vec::new(),
            owns: Vec::new(),
            unowned_homes: Vec::new(),
            start: Vec::new(),
        });
    }
    Ok(powers)
}

/// What a variant says besides its powers: its start, rule options and victory, and where its
/// supply centres and starting units are (read after, once the powers are known).
struct Settings {
    /// The first year, if the variant gives one.
    start_year: Option<i32>,
    /// Whether the game starts with the adjustment before Spring.
    winter_start: bool,
    /// Where builds go: `Home`, `Owned` or `OwnedIfHomeOwned`.
    build_sites: &'static str,
    /// The supply centres to win, and where the variant says so.
    victory: Option<(usize, SourcePos)>,
    /// Whether the map graphics were already noted as left out.
    graphics_noted: bool,
    /// The `<SUPPLYCENTER>` elements.
    centres: Vec<usize>,
    /// The `<INITIALSTATE>` elements.
    units: Vec<usize>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            start_year: None,
            winter_start: false,
            build_sites: "Home",
            victory: None,
            graphics_noted: false,
            centres: Vec::new(),
            units: Vec::new(),
        }
    }
}

impl Settings {
    /// Reads element `e` (number `i`) of the variant; notes what is left out.
    fn read(
        &mut self,
        e: &Element,
        i: usize,
        notes: &mut Vec<ImportNote>,
    ) -> Result<(), ImportError> {
        let attr = |k: &str| e.attr(k).map(str::trim).filter(|s| !s.is_empty());
        let need = |k: &str| {
            attr(k).ok_or_else(|| {
                located(
                    &e.pos,
                    format!("<{}> without {k}: expected {k}=\"…\"", e.name),
                )
            })
        };
        match e.name.to_ascii_uppercase().as_str() {
            "POWER" | "DESCRIPTION" | "MAP" | "RULEOPTIONS" | "VICTORYCONDITIONS" => {}
            "MAP_GRAPHIC" | "GRAPHIC" => {
                if !self.graphics_noted {
                    self.graphics_noted = true;
                    note(
                        notes,
                        &e.pos,
                        "map graphics (SVG) are not read; left out (give one with --svg to place the provinces of the generated board)".into(),
                    );
                }
            }
            "RULEOPTION" => {
                let (n, val) = (need("name")?, need("value")?);
                self.rule_option(e, n, val, notes);
            }
            "STARTINGTIME" => self.starting_time(e, need("turn")?, notes)?,
            "WINNING_SUPPLY_CENTERS" => {
                let val = need("value")?;
                let n = val.parse::<usize>().map_err(|_| {
                    located(
                        &e.pos,
                        format!("value=\"{val}\": expected a number of supply centres"),
                    )
                })?;
                self.victory = Some((n, e.pos.clone()));
            }
            "YEARS_WITHOUT_SC_CAPTURE" | "GAME_LENGTH" => {
                let val = attr("value").unwrap_or("0");
                if val != "0" {
                    let what = if e.is("GAME_LENGTH") {
                        format!("a game length of {val} years")
                    } else {
                        format!("a draw after {val} years without a supply centre changing hands")
                    };
                    note(
                        notes,
                        &e.pos,
                        format!(
                            "{what} is not modelled (dipsandbox adjudicates phases, not whole games)"
                        ),
                    );
                }
            }
            "SUPPLYCENTER" => self.centres.push(i),
            "INITIALSTATE" => self.units.push(i),
            _ => note(
                notes,
                &e.pos,
                format!("<{}>: not a jDip variant element; left out", e.name),
            ),
        }
        Ok(())
    }

    /// A `<RULEOPTION>`: where builds go; any other option is noted and left out.
    fn rule_option(&mut self, e: &Element, n: &str, val: &str, notes: &mut Vec<ImportNote>) {
        match (
            n.to_ascii_uppercase().as_str(),
            val.to_ascii_uppercase().as_str(),
        ) {
            ("OPTION_BUILDS", "VALUE_BUILDS_HOME_ONLY") => self.build_sites = "Home",
            ("OPTION_BUILDS", "VALUE_BUILDS_ANY_OWNED") => self.build_sites = "Owned",
            ("OPTION_BUILDS", "VALUE_BUILDS_ANY_IF_HOME_OWNED") => {
                self.build_sites = "OwnedIfHomeOwned";
            }
            _ => note(
                notes,
                &e.pos,
                format!("rule option {n} = {val} is not supported; the standard rule is used"),
            ),
        }
    }

    /// A `<STARTINGTIME>`: its year, and whether the game starts with the adjustment before
    /// Spring; any other start is noted and Spring Movement used.
    fn starting_time(
        &mut self,
        e: &Element,
        turn: &str,
        notes: &mut Vec<ImportNote>,
    ) -> Result<(), ImportError> {
        let words: Vec<String> = turn
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let year = words.iter().find_map(|w| w.parse::<i32>().ok());
        let Some(year) = year else {
            return Err(located(
                &e.pos,
                format!(
                    "turn=\"{turn}\": expected a season, a year and a phase (\"Spring, 1901, Movement\")"
                ),
            ));
        };
        let has = |w: &str| words.iter().any(|x| x == w);
        self.start_year = Some(year);
        if has("adjustment") && (has("fall") || has("winter")) {
            self.winter_start = true;
        } else if !(has("spring") && has("movement")) {
            note(
                notes,
                &e.pos,
                format!(
                    "turn=\"{turn}\": a game here starts in Spring {year} Movement or the adjustment before it; Spring {year} is used"
                ),
            );
        }
        if e.attr("allowBCYears")
            .is_some_and(|b| b.trim().eq_ignore_ascii_case("true"))
        {
            note(
                notes,
                &e.pos,
                "allowBCYears: years before 1 are not supported".into(),
            );
        }
        Ok(())
    }
}

/// The province of the adjacency file that `value` (a `province=` of `e`) names.
fn province_of(adj: &Adjacency, e: &Element, value: &str) -> Result<usize, ImportError> {
    adj.find(value).ok_or_else(|| {
        located(
            &e.pos,
            format!("province=\"{value}\" names no province of the adjacency file"),
        )
    })
}

/// The `<SUPPLYCENTER>`s (`centres`): each one's home power and owner at the start, given to
/// the powers. Returns which provinces are supply centres.
fn place_centres(
    elements: &[Element],
    centres: &[usize],
    adj: &Adjacency,
    powers: &mut Powers,
    notes: &mut Vec<ImportNote>,
) -> Result<Vec<bool>, ImportError> {
    let mut is_centre = vec![false; adj.provinces.len()];
    for &i in centres {
        let Some(e) = elements.get(i) else { continue };
        let prov = e.attr("province").map(str::trim).unwrap_or("");
        let p = province_of(adj, e, prov)?;
        if let Some(c) = is_centre.get_mut(p) {
            *c = true;
        }
        let abbr = adj
            .provinces
            .get(p)
            .map_or(String::new(), |q| q.abbr.clone());
        let named = |k: &str| {
            e.attr(k)
                .map(str::trim)
                .filter(|s| !s.is_empty() && !s.eq_ignore_ascii_case("none"))
        };
        let home = match named("homepower") {
            Some(h) if h.eq_ignore_ascii_case("any") => {
                note(
                    notes,
                    &e.pos,
                    format!(
                        "{abbr}: a home centre of any power is not supported; it is nobody's home here"
                    ),
                );
                None
            }
            Some(h) => Some(powers.of(e, "homepower", h)?),
            None => None,
        };
        let owner = match named("owner") {
            Some(o) => Some(powers.of(e, "owner", o)?),
            None => None,
        };
        let defs = &mut powers.defs;
        if let Some(h) = home.and_then(|h| defs.get_mut(h)) {
            h.home.push(abbr.clone());
        }
        match (home, owner) {
            // A home centre owned by another power, or by nobody, at the start (1898: each
            // power owns one of its home centres): still its home, not its centre yet.
            (Some(h), Some(o)) if h != o => {
                if let Some(h) = defs.get_mut(h) {
                    h.unowned_homes.push(abbr.clone());
                }
                if let Some(o) = defs.get_mut(o) {
                    o.owns.push(abbr.clone());
                }
            }
            (Some(h), None) => {
                if let Some(h) = defs.get_mut(h) {
                    h.unowned_homes.push(abbr.clone());
                }
            }
            (None, Some(o)) => {
                if let Some(o) = defs.get_mut(o) {
                    o.owns.push(abbr.clone());
                }
            }
            _ => {}
        }
    }
    Ok(is_centre)
}

/// The `<INITIALSTATE>`s (`units`): each a power's army or fleet (on its coast where the
/// province has several), given to the power as a starting unit. Returns which provinces have
/// a unit.
fn place_units(
    elements: &[Element],
    units: &[usize],
    adj: &Adjacency,
    powers: &mut Powers,
) -> Result<Vec<bool>, ImportError> {
    let mut has_unit = vec![false; adj.provinces.len()];
    for &i in units {
        let Some(e) = elements.get(i) else { continue };
        let prov = e.attr("province").map(str::trim).unwrap_or("");
        let p = province_of(adj, e, prov)?;
        let Some(pw) = e.attr("power").map(str::trim) else {
            return Err(located(
                &e.pos,
                "<INITIALSTATE> without power: expected power=\"…\"".into(),
            ));
        };
        let w = powers.of(e, "power", pw)?;
        let Some(q) = adj.provinces.get(p) else {
            continue;
        };
        let unit = e.attr("unit").map(str::trim).unwrap_or("");
        let letter = match unit.to_ascii_lowercase().as_str() {
            "army" => 'A',
            "fleet" => 'F',
            _ => {
                return Err(located(
                    &e.pos,
                    format!("unit=\"{unit}\": expected army or fleet"),
                ));
            }
        };
        let coast = e.attr("unitcoast").map(str::trim).filter(|c| {
            !c.is_empty() && !c.eq_ignore_ascii_case("xc") && !c.eq_ignore_ascii_case("mv")
        });
        let place = match (letter, coast) {
            ('F', Some(c)) if q.coasts.iter().any(|k| k.abbr().eq_ignore_ascii_case(c)) => {
                format!("{}/{}", q.abbr, c.to_ascii_lowercase())
            }
            ('F', _) if !q.coasts.is_empty() => {
                return Err(located(
                    &e.pos,
                    format!(
                        "a fleet in {} (coasts {}) without unitcoast: expected unitcoast=\"…\"",
                        q.abbr,
                        q.coasts
                            .iter()
                            .map(|c| c.abbr())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            _ => q.abbr.clone(),
        };
        if let Some(h) = has_unit.get_mut(p) {
            *h = true;
        }
        if let Some(pd) = powers.defs.get_mut(w) {
            pd.start.push(format!("{letter} {place}"));
        }
    }
    Ok(has_unit)
}

/// Which provinces the map keeps: provinces no unit can enter or leave are left out (with a
/// note), unless something stands or counts there.
fn kept_provinces(
    adj: &Adjacency,
    is_centre: &[bool],
    has_unit: &[bool],
    notes: &mut Vec<ImportNote>,
) -> Vec<bool> {
    let keep: Vec<bool> = adj
        .provinces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            !p.impassable() || is_centre.get(i) == Some(&true) || has_unit.get(i) == Some(&true)
        })
        .collect();
    for (i, p) in adj.provinces.iter().enumerate() {
        if keep.get(i) == Some(&false) {
            note(
                notes,
                &p.pos,
                format!(
                    "{}: no unit can enter or leave it (impassable); left out of the map",
                    p.abbr
                ),
            );
        }
    }
    keep
}

/// What [`render`] writes.
struct RenderInput<'a> {
    name: &'a str,
    variant: &'a str,
    file: &'a str,
    start_year: Option<i32>,
    winter_start: bool,
    build_sites: &'a str,
    victory: Option<usize>,
    powers: &'a [PowerDef],
    adj: &'a Adjacency,
    keep: &'a [bool],
    is_centre: &'a [bool],
}

/// The map as a dipsandbox map file.
fn render(r: &RenderInput<'_>, notes: &mut Vec<ImportNote>) -> String {
    use std::fmt::Write as _;
    let q = crate::io::dpjudge_map::ron_str;
    let list = |v: &[String]| v.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ");
    let base = r.file.rsplit(['/', '\\']).next().unwrap_or(r.file);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Imported by `dipsandbox map import` from the jDip variant \"{}\" ({base}).",
        r.variant.replace('\n', " ")
    );
    out.push_str("Map(\n");
    let _ = writeln!(out, "    name: {},", q(r.name));
    let _ = writeln!(
        out,
        "    title: {},",
        q(&format!("{} (jDip variant)", r.variant))
    );
    if let Some(y) = r.start_year {
        let _ = writeln!(out, "    start_year: {y},");
    }
    if r.winter_start {
        out.push_str("    start_phase: WinterAdjustment,\n");
    }
    if r.build_sites != "Home" {
        let _ = writeln!(out, "    build_sites: {},", r.build_sites);
    }
    if let Some(v) = r.victory {
        let _ = writeln!(out, "    victory: Some({v}),");
    }
    out.push_str("    powers: [\n");
    for p in r.powers {
        let _ = write!(
            out,
            "        Power(\n            name: {},\n            adjective: {},\n",
            q(&p.name),
            q(&p.adjective)
        );
        if !p.aliases.is_empty() {
            let _ = writeln!(out, "            aliases: [{}],", list(&p.aliases));
        }
        let _ = writeln!(out, "            home: [{}],", list(&p.home));
        let _ = writeln!(out, "            start: [{}],", list(&p.start));
        if !p.owns.is_empty() {
            let _ = writeln!(out, "            owns: [{}],", list(&p.owns));
        }
        if !p.unowned_homes.is_empty() {
            let _ = writeln!(
                out,
                "            unowned_homes: [{}],",
                list(&p.unowned_homes)
            );
        }
        out.push_str("        ),\n");
    }
    out.push_str("    ],\n    provinces: [\n");
    let provinces = &r.adj.provinces;
    let kept = |i: usize| r.keep.get(i) == Some(&true);
    let spot = |(i, c): adjacency::Spot| {
        let abbr = provinces.get(i).map_or("", |p| p.abbr.as_str());
        match c {
            Some(c) => format!("{abbr}/{c}"),
            None => abbr.to_string(),
        }
    };
    // Names a province's alias may not take: every abbreviation and full name, then each alias
    // as it is given out.
    let mut taken: HashMap<String, usize> = HashMap::new();
    for (i, p) in provinces.iter().enumerate().filter(|(i, _)| kept(*i)) {
        taken.insert(normalize_name(&p.abbr), i);
        taken.insert(normalize_name(&p.name), i);
    }
    for (i, p) in provinces.iter().enumerate() {
        if !kept(i) {
            continue;
        }
        let mut aliases = Vec::new();
        for a in &p.aliases {
            let key = normalize_name(a);
            if key.is_empty() {
                continue;
            }
            match taken.get(&key) {
                Some(&j) if j == i => {}
                Some(_) => notes.push(ImportNote {
                    pos: p.pos.clone(),
                    text: format!(
                        "{}: the unique name \"{a}\" folds to another province's name; left out",
                        p.abbr
                    ),
                }),
                None => {
                    taken.insert(key, i);
                    aliases.push(a.clone());
                }
            }
        }
        // Already-folded duplicates (the same alias twice) are given once.
        aliases.dedup();
        let kind = match (p.land, p.sea || !p.coasts.is_empty()) {
            (true, true) => "Coast",
            (true, false) => "Land",
            _ => "Sea",
        };
        let mut army: Vec<String> = p
            .army
            .iter()
            .filter(|&&j| kept(j))
            .map(|&j| spot((j, None)))
            .collect();
        army.sort();
        let fleet_from = |from: Option<crate::model::map::Coast>| {
            let mut v: Vec<String> = p
                .fleet
                .iter()
                .filter(|(f, (j, _))| *f == from && kept(*j))
                .map(|(_, s)| spot(*s))
                .collect();
            v.sort();
            v
        };
        let fleet = if p.coasts.is_empty() {
            fleet_from(None)
        } else {
            Vec::new()
        };
        let _ = write!(
            out,
            "        Province(\n            abbr: {},\n            name: {},\n",
            q(&p.abbr),
            q(&p.name)
        );
        if !aliases.is_empty() {
            let _ = writeln!(out, "            aliases: [{}],", list(&aliases));
        }
        let _ = write!(
            out,
            "            kind: {kind},\n            supply_center: {},\n            army: [{}],\n            fleet: [{}],\n",
            r.is_centre.get(i) == Some(&true),
            list(&army),
            list(&fleet)
        );
        if !p.coasts.is_empty() {
            out.push_str("            coasts: [\n");
            let mut coasts = p.coasts.clone();
            coasts.sort();
            for c in coasts {
                let _ = writeln!(
                    out,
                    "                Coast(name: {}, fleet: [{}]),",
                    q(c.abbr()),
                    list(&fleet_from(Some(c)))
                );
            }
            out.push_str("            ],\n");
        }
        out.push_str("        ),\n");
    }
    out.push_str("    ],\n)\n");
    out
}
