//! Province positions read from a jDip-style SVG map (the format of jDip's variants and of the
//! SVG maps the Python `diplomacy` package ships): each province's `<…:PROVINCE name="…">`
//! element holds a `<…:UNIT x="…" y="…"/>` element, the point where the map draws a unit there.
//! Only those coordinates are read; the drawing itself is not. A plain scan of the tags, no XML
//! library and no recursion.

use std::collections::HashMap;
use std::fmt;

/// Why an SVG's positions could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SvgError {
    /// Line of the text (from 1).
    pub line: usize,
    /// Column (from 1, in characters).
    pub col: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl fmt::Display for SvgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

/// A province's name as the SVG writes it and its unit's point (x, y).
pub type Placed = (String, (f64, f64));

/// The line and column (from 1) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// The value of attribute `name` in the text of one tag (`name="v"` or `name='v'`).
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    while let Some(i) = rest.find(name) {
        let before_ok = rest
            .get(..i)
            .and_then(|b| b.chars().next_back())
            .is_some_and(char::is_whitespace);
        let tail = rest.get(i + name.len()..).unwrap_or("");
        let after = tail.trim_start();
        if before_ok && let Some(after) = after.strip_prefix('=') {
            let after = after.trim_start();
            let quote = after.chars().next()?;
            if quote == '"' || quote == '\'' {
                let body = after.get(1..)?;
                return body.find(quote).and_then(|end| body.get(..end));
            }
        }
        rest = tail;
    }
    None
}

/// Each province named in the SVG with the position of its unit, in the order of the file:
/// `(name, (x, y))`, the name as the SVG writes it (`"spa"`, `"spa-nc"` for a coast). A province
/// without a unit position is left out; a unit position that is not two numbers is an error.
pub fn svg_positions(text: &str) -> Result<Vec<Placed>, SvgError> {
    let mut out: Vec<(String, (f64, f64))> = Vec::new();
    let mut current: Option<String> = None;
    let mut placed = false;
    let mut at = 0;
    while let Some(open) = text.get(at..).and_then(|t| t.find('<')) {
        let start = at + open;
        let Some(len) = text.get(start..).and_then(|t| t.find('>')) else {
            break;
        };
        let tag = text.get(start + 1..start + len).unwrap_or("");
        at = start + len + 1;
        let (closing, body) = match tag.strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, tag),
        };
        let name_end = body
            .find(|c: char| c.is_whitespace() || c == '/')
            .unwrap_or(body.len());
        let local = body
            .get(..name_end)
            .and_then(|n| n.rsplit(':').next())
            .unwrap_or("");
        match (local, closing) {
            ("PROVINCE", false) => {
                current = attribute(body, "name").map(str::to_string);
                placed = false;
                if body.trim_end().ends_with('/') {
                    current = None;
                }
            }
            ("PROVINCE", true) => current = None,
            ("UNIT", false) if !placed => {
                let Some(name) = &current else {
                    continue;
                };
                // Where the tag is, worked out only for an error: it counts the lines from the
                // start of the text (for every unit, that was quadratic on large maps).
                let error = |message: String| {
                    let (line, col) = line_col(text, start);
                    SvgError { line, col, message }
                };
                let num = |attr: &str| -> Result<f64, SvgError> {
                    let v = attribute(body, attr).ok_or_else(|| {
                        error(format!(
                            "the unit position of province {name:?} has no {attr}=\"…\"; expected x and y"
                        ))
                    })?;
                    v.trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite())
                        .ok_or_else(|| {
                            error(format!(
                                "the unit position of province {name:?} has {attr}={v:?}; expected a number"
                            ))
                        })
                };
                let (x, y) = (num("x")?, num("y")?);
                out.push((name.clone(), (x, y)));
                placed = true;
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The position of the province with abbreviation `abbr` (any case) among `positions`: its own,
/// else the first of its coasts' (`abbr-nc`, `abbr/nc`). To look up many provinces, make a
/// [`PositionIndex`] once (this makes one per call).
pub fn position_of(positions: &[(String, (f64, f64))], abbr: &str) -> Option<(f64, f64)> {
    PositionIndex::new(positions).get(abbr)
}

/// The positions of an SVG map, indexed to answer [`position_of`] for each province of a map in
/// time n log n in all (a search of the whole list per province was quadratic: 20,000
/// provinces took 30 s).
pub struct PositionIndex<'a> {
    positions: &'a [Placed],
    /// Each name in ASCII lower case: the first entry of that name.
    own: HashMap<String, usize>,
    /// Each name in ASCII lower case with its entry, sorted: the names that start with
    /// `abbr-` (or `abbr/`) are a run of it.
    sorted: Vec<(String, usize)>,
    /// The least entry of each run of `sorted` (a segment tree: leaves from `sorted.len()`).
    least: Vec<usize>,
}

impl<'a> PositionIndex<'a> {
    /// Indexes `positions` (as [`svg_positions`] gives them).
    pub fn new(positions: &'a [Placed]) -> PositionIndex<'a> {
        let mut own = HashMap::with_capacity(positions.len());
        let mut sorted = Vec::with_capacity(positions.len());
        for (i, (name, _)) in positions.iter().enumerate() {
            let lower = name.to_ascii_lowercase();
            own.entry(lower.clone()).or_insert(i);
            sorted.push((lower, i));
        }
        sorted.sort_unstable();
        let n = sorted.len();
        let mut least = vec![usize::MAX; 2 * n];
        for (slot, &(_, i)) in least.iter_mut().skip(n).zip(&sorted) {
            *slot = i;
        }
        for k in (1..n).rev() {
            let m = least
                .get(2 * k)
                .copied()
                .unwrap_or(usize::MAX)
                .min(least.get(2 * k + 1).copied().unwrap_or(usize::MAX));
            if let Some(slot) = least.get_mut(k) {
                *slot = m;
            }
        }
        PositionIndex {
            positions,
            own,
            sorted,
            least,
        }
    }

    /// The position of the province with abbreviation `abbr` (any case): its own, else the
    /// first (in the file) of its coasts' (`abbr-nc`, `abbr/nc`).
    pub fn get(&self, abbr: &str) -> Option<(f64, f64)> {
        let lower = abbr.to_ascii_lowercase();
        let entry = match self.own.get(&lower) {
            Some(&i) => i,
            None => {
                let first = |sep: char| self.least_starting_with(&format!("{lower}{sep}"));
                first('-').min(first('/'))
            }
        };
        self.positions.get(entry).map(|(_, p)| *p)
    }

    /// The least entry whose name (lower case) starts with `prefix`, or `usize::MAX`.
    fn least_starting_with(&self, prefix: &str) -> usize {
        let from = self.sorted.partition_point(|(n, _)| n.as_str() < prefix);
        let to = self
            .sorted
            .partition_point(|(n, _)| n.as_str() < prefix || n.starts_with(prefix));
        // The least over leaves `from..to` of the tree.
        let n = self.sorted.len();
        let (mut l, mut r) = (from + n, to + n);
        let mut best = usize::MAX;
        let at = |k: usize| self.least.get(k).copied().unwrap_or(usize::MAX);
        while l < r {
            if l & 1 == 1 {
                best = best.min(at(l));
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                best = best.min(at(r));
            }
            l /= 2;
            r /= 2;
        }
        best
    }
}

/// A map file's text with a `position: (x, y)` line for every province `positions` places
/// (rounded to whole units; any old `position` lines dropped), and the abbreviations of the
/// provinces it does not place. `map` is the map `text` loads as (`map import` has just built
/// it, so the text is not read a second time); `file` names the text in errors.
pub fn add_positions_to(
    map: &crate::model::map::Map,
    text: &str,
    file: &str,
    positions: &[(String, (f64, f64))],
) -> Result<(String, Vec<String>), crate::tools::art_gen::write::WriteArtError> {
    use crate::tools::art_gen::write::set_province_field;
    let abbrs: Vec<&str> = map
        .province_ids()
        .map(|p| map.province(p).abbr.as_str())
        .collect();
    let mut missing = Vec::new();
    let index = PositionIndex::new(positions);
    let out = set_province_field(text, file, "position:", "position", &abbrs, |i| {
        let abbr = abbrs.get(i).copied().unwrap_or("");
        match index.get(abbr) {
            Some((x, y)) => Some(format!("({}, {})", x.round() as i32, y.round() as i32)),
            None => {
                missing.push(abbr.to_string());
                None
            }
        }
    })?;
    Ok((out, missing))
}
