//! jDip's adjacency (province) file: provinces with their short, full and unique names, and
//! their borders in layers — `mv` for armies, `xc` for fleets on a single-coast province or a
//! sea, `nc`/`sc`/`ec`/`wc` for the coasts of a province with several.

use std::collections::{BTreeSet, HashMap};

use super::xml;
use crate::base::position::SourcePos;
use crate::io::dpjudge_map::{ImportError, ImportNote};
use crate::model::map::{Coast, normalize_name};

/// A place a fleet stands on: a province (`None`) or one of its coasts.
pub(super) type Spot = (usize, Option<Coast>);

/// A province as the adjacency file gives it, borders resolved.
#[derive(Clone, Debug)]
pub(super) struct Province {
    /// The short name, lower case (the map's abbreviation).
    pub abbr: String,
    /// The full name.
    pub name: String,
    /// The unique names (lower case), in file order.
    pub aliases: Vec<String>,
    /// Where it is defined.
    pub pos: SourcePos,
    /// It has an `mv` layer: armies stand on it.
    pub land: bool,
    /// It has an `xc` layer: fleets stand on it as a whole.
    pub sea: bool,
    /// Its coasts, from their layers.
    pub coasts: Vec<Coast>,
    /// Provinces an army here borders.
    pub army: BTreeSet<usize>,
    /// Fleet borders: from a spot of this province to a spot of another.
    pub fleet: BTreeSet<(Option<Coast>, Spot)>,
}

impl Province {
    /// Whether no unit can enter or leave it (jDip's Switzerland: an `mv` layer naming only
    /// itself, named by nobody).
    pub fn impassable(&self) -> bool {
        self.army.is_empty() && self.fleet.is_empty()
    }
}

/// The adjacency file, read.
pub(super) struct Adjacency {
    /// The provinces, in file order.
    pub provinces: Vec<Province>,
    /// Every name (normalized) to its province.
    index: HashMap<String, usize>,
    /// What was read but not carried into the map.
    pub notes: Vec<ImportNote>,
}

impl Adjacency {
    /// The province a name (short, full or unique) names.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.index.get(&normalize_name(name)).copied()
    }
}

/// One layer as written, before its references are resolved.
struct Layer {
    province: usize,
    /// `None` for `mv`; `Some(None)` for `xc`; `Some(Some(c))` for a coast.
    fleet: Option<Option<Coast>>,
    refs: String,
    pos: SourcePos,
}

fn located(pos: &SourcePos, message: String) -> ImportError {
    ImportError::Syntax {
        pos: pos.clone(),
        message,
    }
}

fn note(notes: &mut Vec<ImportNote>, pos: &SourcePos, text: String) {
    notes.push(ImportNote {
        pos: pos.clone(),
        text,
    });
}

/// The coast of a two-letter coast abbreviation as jDip writes it (`nc`, `sc`, `ec`, `wc`).
fn coast_abbr(s: &str) -> Option<Coast> {
    Coast::ALL
        .into_iter()
        .find(|c| s.eq_ignore_ascii_case(c.abbr()))
}

/// A reference as written: `stp`, `stp-sc`; jDip also takes `stp/sc`, `stp\sc` and `stp(sc)`.
fn split_ref(token: &str) -> (&str, Option<Coast>) {
    if let Some(open) = token.strip_suffix(')')
        && let Some((p, c)) = open.rsplit_once('(')
        && let Some(c) = coast_abbr(c)
    {
        return (p, Some(c));
    }
    if let Some((p, c)) = token.rsplit_once(['-', '/', '\\'])
        && let Some(c) = coast_abbr(c)
    {
        return (p, Some(c));
    }
    (token, None)
}

/// Reads the adjacency file's text (`file` names it in messages).
pub(super) fn read(text: &str, file: &str) -> Result<Adjacency, ImportError> {
    let elements = xml::read(text, file)?;
    let mut notes = Vec::new();
    let Some(root) = elements.first() else {
        return Err(located(
            &SourcePos::start(file),
            "no <PROVINCES>: expected a jDip adjacency file".into(),
        ));
    };
    if !root.is("PROVINCES") {
        return Err(located(
            &root.pos,
            format!(
                "<{}>: expected <PROVINCES> (a jDip adjacency file)",
                root.name
            ),
        ));
    }
    let mut provinces: Vec<Province> = Vec::new();
    // The province of each PROVINCE element, by element index.
    let mut of_element: HashMap<usize, usize> = HashMap::new();
    let mut layers: Vec<Layer> = Vec::new();
    for (i, e) in elements.iter().enumerate().skip(1) {
        let parent_province = e.parent.and_then(|p| of_element.get(&p).copied());
        if e.is("PROVINCE") {
            of_element.insert(i, provinces.len());
            provinces.push(read_province(e, &mut notes)?);
        } else if e.is("UNIQUENAME") {
            let Some(p) = parent_province else {
                note(
                    &mut notes,
                    &e.pos,
                    "<UNIQUENAME> outside a <PROVINCE>; left out".into(),
                );
                continue;
            };
            let Some(n) = e.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
                return Err(located(
                    &e.pos,
                    "<UNIQUENAME> without name: expected name=\"…\"".into(),
                ));
            };
            if let Some(pr) = provinces.get_mut(p) {
                pr.aliases.push(n.to_lowercase());
            }
        } else if e.is("ADJACENCY") {
            let Some(p) = parent_province else {
                note(
                    &mut notes,
                    &e.pos,
                    "<ADJACENCY> outside a <PROVINCE>; left out".into(),
                );
                continue;
            };
            let kind = e.attr("type").unwrap_or("mv").trim().to_ascii_lowercase();
            let fleet = match kind.as_str() {
                "mv" => None,
                "xc" => Some(None),
                c => match coast_abbr(c) {
                    Some(c) => Some(Some(c)),
                    None => {
                        return Err(located(
                            &e.pos,
                            format!(
                                "<ADJACENCY type=\"{kind}\">: expected mv, xc, nc, sc, ec or wc"
                            ),
                        ));
                    }
                },
            };
            let Some(refs) = e.attr("refs") else {
                return Err(located(
                    &e.pos,
                    "<ADJACENCY> without refs: expected refs=\"…\"".into(),
                ));
            };
            let Some(pr) = provinces.get_mut(p) else {
                continue;
            };
            match fleet {
                None => pr.land = true,
                Some(None) => pr.sea = true,
                Some(Some(c)) => {
                    if !pr.coasts.contains(&c) {
                        pr.coasts.push(c);
                    }
                }
            }
            if pr.sea && !pr.coasts.is_empty() {
                return Err(located(
                    &e.pos,
                    format!(
                        "{}: an xc layer and coast layers; jDip's format allows one or the other (xc is the single coast)",
                        pr.abbr
                    ),
                ));
            }
            layers.push(Layer {
                province: p,
                fleet,
                refs: refs.to_string(),
                pos: e.pos.clone(),
            });
        } else if e.is("BORDER") {
            note(
                &mut notes,
                &e.pos,
                format!(
                    "border {} ({}): jDip's border restrictions are not supported; left out",
                    e.attr("id").unwrap_or("?"),
                    e.attr("description").unwrap_or("")
                ),
            );
        } else if !e.is("BORDER_DEFINITIONS") {
            note(
                &mut notes,
                &e.pos,
                format!("<{}>: not an adjacency element; left out", e.name),
            );
        }
    }
    if provinces.is_empty() {
        return Err(located(
            &root.pos,
            "<PROVINCES> holds no <PROVINCE>: expected at least one".into(),
        ));
    }
    let index = name_index(&provinces)?;
    let mut adj = Adjacency {
        provinces,
        index,
        notes,
    };
    resolve(&mut adj, &layers)?;
    Ok(adj)
}

/// A `<PROVINCE>`: its short and full names (both required); what is not supported (a
/// convoyable coast, border restrictions, other attributes) is noted.
fn read_province(e: &xml::Element, notes: &mut Vec<ImportNote>) -> Result<Province, ImportError> {
    let req = |k: &str| {
        e.attr(k)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| {
                located(
                    &e.pos,
                    format!("<PROVINCE> without {k}: expected {k}=\"…\""),
                )
            })
    };
    let abbr = req("shortname")?.to_lowercase();
    let name = req("fullname")?.to_string();
    if e.attr("isConvoyableCoast")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        note(
            notes,
            &e.pos,
            format!(
                "{abbr}: a convoyable coast (fleets on it may convoy) is not supported; a fleet there does not convoy"
            ),
        );
    }
    if let Some(b) = e.attr("borders").filter(|b| !b.trim().is_empty()) {
        note(
            notes,
            &e.pos,
            format!(
                "{abbr}: borders=\"{b}\" (jDip's border restrictions) are not supported; its borders are open to every unit in every season"
            ),
        );
    }
    for (k, _) in &e.attrs {
        if !["shortname", "fullname", "isConvoyableCoast", "borders"]
            .iter()
            .any(|a| k.eq_ignore_ascii_case(a))
        {
            note(notes, &e.pos, format!("{abbr}: attribute {k} is not read"));
        }
    }
    Ok(Province {
        abbr,
        name,
        aliases: Vec::new(),
        pos: e.pos.clone(),
        land: false,
        sea: false,
        coasts: Vec::new(),
        army: BTreeSet::new(),
        fleet: BTreeSet::new(),
    })
}

/// Each province's names (short name, full name, unique names), folded: each names one
/// province.
fn name_index(provinces: &[Province]) -> Result<HashMap<String, usize>, ImportError> {
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, p) in provinces.iter().enumerate() {
        for n in [&p.abbr, &p.name].into_iter().chain(p.aliases.iter()) {
            let key = normalize_name(n);
            match index.get(&key) {
                Some(&j) if j != i => {
                    let other = provinces.get(j).map_or("", |o| o.abbr.as_str());
                    return Err(located(
                        &p.pos,
                        format!(
                            "{}: the name \"{n}\" is already a name of {other}; names must be unique",
                            p.abbr
                        ),
                    ));
                }
                _ => {
                    index.insert(key, i);
                }
            }
        }
    }
    Ok(index)
}

/// Resolves every layer's references into borders, and lists every one-sided border from its
/// other side too.
fn resolve(adj: &mut Adjacency, layers: &[Layer]) -> Result<(), ImportError> {
    // Which provinces each coast layer names (for a fleet reference without a coast).
    let mut coast_names: Vec<(usize, Coast, usize)> = Vec::new();
    for l in layers {
        if let Some(Some(c)) = l.fleet {
            for t in l.refs.split(|ch: char| ch.is_whitespace() || ch == ',') {
                let (name, _) = split_ref(t);
                if let Some(q) = adj.find(name) {
                    coast_names.push((l.province, c, q));
                }
            }
        }
    }
    let mut notes = Vec::new();
    for l in layers {
        let from_abbr = adj
            .provinces
            .get(l.province)
            .map_or(String::new(), |p| p.abbr.clone());
        for token in l.refs.split(|ch: char| ch.is_whitespace() || ch == ',') {
            if token.is_empty() {
                continue;
            }
            let (name, coast) = split_ref(token);
            let Some(q) = adj.find(name) else {
                return Err(located(
                    &l.pos,
                    format!(
                        "{from_abbr}: \"{token}\" in refs names no province: expected a short, full or unique name (a coast as stp-sc or stp/sc)"
                    ),
                ));
            };
            if q == l.province {
                continue;
            }
            let Some(target) = adj.provinces.get(q) else {
                continue;
            };
            match l.fleet {
                None => {
                    if target.land {
                        if let Some(p) = adj.provinces.get_mut(l.province) {
                            p.army.insert(q);
                        }
                    } else {
                        note(
                            &mut notes,
                            &l.pos,
                            format!(
                                "{from_abbr}: army border to {} (a sea) left out",
                                target.abbr
                            ),
                        );
                    }
                }
                Some(from) => {
                    let spot = match coast {
                        Some(c) if target.coasts.contains(&c) => Some((q, Some(c))),
                        Some(c) => {
                            note(
                                &mut notes,
                                &l.pos,
                                format!(
                                    "{from_abbr}: fleet border to {token}: {} has no {c} layer; left out",
                                    target.abbr
                                ),
                            );
                            None
                        }
                        None if target.sea => Some((q, None)),
                        None if !target.coasts.is_empty() => {
                            let back: Vec<Coast> = coast_names
                                .iter()
                                .filter(|(p, _, n)| *p == q && *n == l.province)
                                .map(|(_, c, _)| *c)
                                .collect();
                            if let [c] = back.as_slice() {
                                Some((q, Some(*c)))
                            } else {
                                note(
                                    &mut notes,
                                    &l.pos,
                                    format!(
                                        "{from_abbr}: fleet border to {token}, which has coasts, without a coast (and {} coasts of it name {from_abbr}); left out",
                                        back.len()
                                    ),
                                );
                                None
                            }
                        }
                        None => {
                            note(
                                &mut notes,
                                &l.pos,
                                format!(
                                    "{from_abbr}: fleet border to {} (inland) left out",
                                    target.abbr
                                ),
                            );
                            None
                        }
                    };
                    if let (Some(spot), Some(p)) = (spot, adj.provinces.get_mut(l.province)) {
                        p.fleet.insert((from, spot));
                    }
                }
            }
        }
    }
    // Borders listed from one side only: jDip moves along a border its source lists; a
    // dipsandbox map lists each border from both sides, so the other side is added and said.
    let mut add_army = Vec::new();
    let mut add_fleet = Vec::new();
    for (i, p) in adj.provinces.iter().enumerate() {
        for &q in &p.army {
            if adj.provinces.get(q).is_some_and(|t| !t.army.contains(&i)) {
                add_army.push((q, i));
            }
        }
        for &(from, (q, to)) in &p.fleet {
            if adj
                .provinces
                .get(q)
                .is_some_and(|t| !t.fleet.contains(&(to, (i, from))))
            {
                add_fleet.push((q, to, i, from));
            }
        }
    }
    for (q, i) in add_army {
        let (Some(a), Some(b)) = (adj.provinces.get(i), adj.provinces.get(q)) else {
            continue;
        };
        let text = format!(
            "army border {} - {} is listed by {} only; taken as two-way",
            a.abbr, b.abbr, a.abbr
        );
        let pos = a.pos.clone();
        note(&mut notes, &pos, text);
        if let Some(t) = adj.provinces.get_mut(q) {
            t.army.insert(i);
        }
    }
    for (q, to, i, from) in add_fleet {
        let (Some(a), Some(b)) = (adj.provinces.get(i), adj.provinces.get(q)) else {
            continue;
        };
        let spot = |abbr: &str, c: Option<Coast>| match c {
            Some(c) => format!("{abbr}-{c}"),
            None => abbr.to_string(),
        };
        let text = format!(
            "fleet border {} - {} is listed by {} only; taken as two-way",
            spot(&a.abbr, from),
            spot(&b.abbr, to),
            a.abbr
        );
        let pos = a.pos.clone();
        note(&mut notes, &pos, text);
        if let Some(t) = adj.provinces.get_mut(q) {
            t.fleet.insert((to, (i, from)));
        }
    }
    adj.notes.append(&mut notes);
    Ok(())
}
