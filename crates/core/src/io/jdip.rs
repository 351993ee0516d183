//! The jDip test-file format, as jDip, godip and other adjudicators keep their test suites:
//! `CASE … END` blocks with a phase, a position (`PRESTATE`), dislodged units, centre owners,
//! the previous phase's results, the orders, and the expected position afterwards.
//!
//! Each case becomes a [`Scenario`] whose expectations are **positions only** (the format says
//! nothing about each order's success). A line that cannot be read, or a case that cannot be
//! expressed, is a [`Problem`] with its file, line and column; the other cases still come through.

use std::sync::Arc;

use crate::model::board::{Dislodged, Phase, PhaseKind, Unit};
use crate::model::error::{OrderError, quoted};
use crate::model::map::{Map, PowerId, ProvinceId};
use crate::model::orders::{OrderKind, parse_order, parse_unit};
use crate::model::scenario::{Expect, OrderEntry, Scenario};

/// Something in a jDip file that could not be taken in: `file:line:col: case NAME: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file the line is in: the test file, or a rules pairing file.
    pub file: String,
    /// Line (1-based).
    pub line: usize,
    /// Column (1-based, in characters) of what is wrong on the line.
    pub col: usize,
    /// The case it belongs to, if any.
    pub case: Option<String>,
    /// What was found, and what was expected.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.col)?;
        if let Some(c) = &self.case {
            write!(f, "case {}: ", crate::base::text::cut(c))?;
        }
        f.write_str(&self.message)
    }
}

/// The column (1-based, in characters) at which `part`, a slice of `line`, starts; 1 when it is
/// not a slice of it.
fn col_of(line: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    match line.get(..offset) {
        Some(before) if offset <= line.len() => before.chars().count() + 1,
        _ => 1,
    }
}

/// One line of a section: where it is (line; column of its first character) and its text
/// (without a comment, trimmed).
#[derive(Clone, Debug, Default)]
struct Item {
    line: usize,
    col: usize,
    text: String,
}

impl Item {
    /// The column of `part`, a slice of this item's text.
    fn col_of(&self, part: &str) -> usize {
        self.col + col_of(&self.text, part) - 1
    }
}

/// A case imported from a jDip file.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case's name (`6.A.1`).
    pub name: String,
    /// The line of its `CASE`.
    pub line: usize,
    /// The scenario, with positions-only expectations.
    pub scenario: Scenario,
    /// Things accepted with a warning (an assumption made).
    pub warnings: Vec<String>,
}

/// A whole jDip file.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// The `VARIANT_ALL` name, if given.
    pub variant: Option<String>,
    /// The cases that could be imported.
    pub cases: Vec<Case>,
    /// Lines and cases that could not.
    pub problems: Vec<Problem>,
}

/// Whether a text looks like a jDip test file (a `CASE` line and an `END` line), whatever the
/// file is called.
pub fn looks_like_jdip(text: &str) -> bool {
    let text = crate::base::source::normalized(text);
    let mut case = false;
    for l in text.lines().map(str::trim) {
        if l.starts_with("CASE ") || l == "CASE" {
            case = true;
        }
        if case && l == "END" {
            return true;
        }
    }
    false
}

/// jDip's other kind of test file, its order-parser suite (`ORD: …` lines, each followed by the
/// `RES: …` jDip should read): a file with one problem saying so, at its first `ORD:` line, or
/// None when `text` is not one. It holds no positions to adjudicate.
pub fn order_parser_suite(text: &str, file: &str) -> Option<File> {
    let text = crate::base::source::normalized(text);
    let mut ord = None;
    let mut res = false;
    for (i, l) in text.lines().enumerate() {
        let l = l.trim_start();
        if l.starts_with("ORD:") && ord.is_none() {
            ord = Some(i + 1);
        }
        res |= l.starts_with("RES:");
        if l.starts_with("CASE ") {
            return None;
        }
    }
    let line = ord.filter(|_| res)?;
    Some(File {
        variant: None,
        cases: Vec::new(),
        problems: vec![Problem {
            file: file.to_string(),
            line,
            col: 1,
            case: None,
            message: "jDip's order-parser suite (ORD: lines and the RES: jDip reads them as), not a file of test cases: it has no positions to adjudicate; expected CASE … END blocks".into(),
        }],
    })
}

/// The comment that pairs a case with rule options: `# dipsandbox-rules: adjacent_convoy_fallback=true`.
pub const RULES_DIRECTIVE: &str = "dipsandbox-rules:";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    None,
    Prestate,
    Dislodged,
    Owners,
    Results,
    Orders,
    Post,
    PostDislodged,
}

#[derive(Default)]
struct Raw {
    name: String,
    line: usize,
    /// Where its END is.
    end: (usize, usize),
    comment: String,
    phase: Option<Item>,
    prestate: Vec<Item>,
    dislodged: Vec<Item>,
    owners: Vec<Item>,
    results: Vec<(Item, bool)>,
    orders: Vec<Item>,
    post: Option<Vec<Item>>,
    post_same: bool,
    post_dislodged: Vec<Item>,
    rules: Option<Item>,
}

/// Applies a side file of rule pairings (`CASE-NAME RULES` per line, `#` comments), as kept next
/// to a test file that cannot be edited: each named case is adjudicated under those rules (the
/// first case of that name, when several have it). Cases are found by name in a hash table, so
/// the time is linear in the cases and the lines.
pub fn apply_rules_file(f: &mut File, text: &str, file: &str) {
    let text = crate::base::source::normalized(text);
    let mut by_name: std::collections::HashMap<String, usize> =
        std::collections::HashMap::with_capacity(f.cases.len());
    // A case is also found by its first word when no other case starts with it: jDip's own
    // files write `CASE 12.D [Civil Disorder based on Home supply centers]`.
    let mut by_id: std::collections::HashMap<String, Option<usize>> =
        std::collections::HashMap::with_capacity(f.cases.len());
    for (i, c) in f.cases.iter().enumerate() {
        by_name.entry(c.name.clone()).or_insert(i);
        if let Some(id) = c.name.split_whitespace().next() {
            by_id
                .entry(id.to_string())
                .and_modify(|e| *e = None)
                .or_insert(Some(i));
        }
    }
    let with_problem: std::collections::HashSet<String> =
        f.problems.iter().filter_map(|p| p.case.clone()).collect();
    for (i, full) in text.lines().enumerate() {
        let line = full.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let problem = |part: &str, m: String| Problem {
            file: file.to_string(),
            line: i + 1,
            col: col_of(full, part),
            case: None,
            message: m,
        };
        let Some((name, spec)) = line.split_once(char::is_whitespace) else {
            f.problems.push(problem(
                line,
                format!("{}: expected \"CASE-NAME RULES\", e.g. \"6.G.8 adjacent_convoy_fallback=true\"", quoted(line)),
            ));
            continue;
        };
        let spec = spec.trim();
        let rules = match crate::model::rules::Rules::parse_spec(spec) {
            Ok(r) => r,
            Err(e) => {
                f.problems
                    .push(problem(spec, format!("{}: {e}", quoted(spec))));
                continue;
            }
        };
        let at = by_name
            .get(name)
            .copied()
            .or_else(|| by_id.get(name).copied().flatten());
        match at.and_then(|i| f.cases.get_mut(i)) {
            Some(c) => {
                c.scenario.rules = rules;
                c.warnings.push(format!(
                    "adjudicated under {} ({file})",
                    crate::base::text::cut(spec)
                ));
            }
            None if with_problem.contains(name) => {
                f.problems.push(problem(
                    name,
                    format!(
                        "case {} was not imported (its problem is reported with it)",
                        quoted(name)
                    ),
                ));
            }
            None => f.problems.push(problem(
                name,
                format!(
                    "no case named {} in the test file; expected the name after a CASE (or its first word, when no other case begins with it)",
                    quoted(name)
                ),
            )),
        }
    }
}

/// Parses a jDip test file for the standard map. `file` names it in problems and in the
/// scenarios' sources.
pub fn parse(text: &str, file: &str, map: Arc<Map>) -> File {
    // A byte-order mark and old Mac line ends (`\r` alone) are taken as they are meant.
    let text = crate::base::source::normalized(text);
    let text = &*text;
    let mut out = File::default();
    let mut raw: Option<Raw> = None;
    let mut section = Section::None;
    let mut comment = String::new();
    for (i, full) in text.lines().enumerate() {
        let n = i + 1;
        let line = full.split('#').next().unwrap_or("").trim();
        // `# dipsandbox-rules: 1982,…` inside a case: the rules its expectations assume.
        if let Some(spec) = full
            .trim()
            .strip_prefix('#')
            .map(str::trim)
            .and_then(|c| c.strip_prefix(RULES_DIRECTIVE))
            && let Some(r) = &mut raw
        {
            let spec = spec.trim();
            r.rules = Some(Item {
                line: n,
                col: col_of(full, spec),
                text: spec.to_string(),
            });
            continue;
        }
        if line.is_empty() {
            let c = full.trim();
            if let Some(c) = c.strip_prefix('#') {
                let c = c.trim();
                if !c.is_empty() && !c.chars().all(|ch| ch == '#') {
                    comment = c.to_string();
                }
            }
            continue;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            // Nothing after the word: an empty slice at the end of the line (for its column).
            None => (line, line.get(line.len()..).unwrap_or("")),
        };
        let problem = |part: &str, m: String, raw: &Option<Raw>| Problem {
            file: file.to_string(),
            line: n,
            col: col_of(full, part),
            case: raw.as_ref().map(|r| r.name.clone()),
            message: m,
        };
        match word {
            "VARIANT_ALL" => {
                out.variant = Some(rest.to_string());
                // jDip's `DATC_Standard` test variant is the standard map under another name.
                // On another map the caller chose the map for the file's variant.
                if map.name == "standard"
                    && !rest.eq_ignore_ascii_case("standard")
                    && !rest.eq_ignore_ascii_case("datc_standard")
                {
                    out.problems.push(problem(
                        rest,
                        format!(
                            "variant {}: only the standard map is known (expected Standard or DATC_Standard); its cases are read as standard",
                            quoted(rest)
                        ),
                        &raw,
                    ));
                }
            }
            "CASE" => {
                if raw.is_some() {
                    out.problems.push(problem(
                        word,
                        "expected END before the next CASE; the unfinished case is skipped".into(),
                        &raw,
                    ));
                }
                raw = Some(Raw {
                    name: rest.to_string(),
                    line: n,
                    comment: std::mem::take(&mut comment),
                    ..Raw::default()
                });
                section = Section::None;
            }
            "END" => {
                match raw.take() {
                    Some(mut r) => {
                        r.end = (n, col_of(full, word));
                        match build(&r, file, map.clone()) {
                            Ok(c) => out.cases.push(c),
                            Err(p) => out.problems.push(p),
                        }
                    }
                    None => out.problems.push(problem(
                        word,
                        "END without a CASE before it; expected CASE <name> first".into(),
                        &raw,
                    )),
                }
                section = Section::None;
            }
            _ if raw.is_none() => {
                out.problems.push(problem(
                    line,
                    format!(
                        "{} outside a CASE … END block; expected CASE <name> or VARIANT_ALL",
                        quoted(line)
                    ),
                    &raw,
                ));
            }
            "PRESTATE_SETPHASE" => {
                if let Some(r) = &mut raw {
                    r.phase = Some(Item {
                        line: n,
                        col: col_of(full, rest),
                        text: rest.to_string(),
                    });
                }
            }
            "PRESTATE" => section = Section::Prestate,
            "PRESTATE_DISLODGED" => section = Section::Dislodged,
            "PRESTATE_SUPPLYCENTER_OWNERS" => section = Section::Owners,
            "PRESTATE_RESULTS" => section = Section::Results,
            "ORDERS" => section = Section::Orders,
            "POSTSTATE" => {
                section = Section::Post;
                if let Some(r) = &mut raw {
                    r.post.get_or_insert_with(Vec::new);
                }
            }
            "POSTSTATE_DISLODGED" => section = Section::PostDislodged,
            "POSTSTATE_SAME" => {
                if let Some(r) = &mut raw {
                    r.post_same = true;
                }
                section = Section::None;
            }
            _ => {
                let Some(r) = &mut raw else { continue };
                if let Some((part, m)) = section_line(r, section, line, n, full) {
                    out.problems.push(problem(part, m, &raw));
                }
            }
        }
    }
    if let Some(r) = raw {
        let last = text.lines().last().unwrap_or("");
        out.problems.push(Problem {
            file: file.to_string(),
            line: text.lines().count().max(1),
            col: last.chars().count() + 1,
            case: Some(r.name),
            message: format!(
                "the file ends inside the case begun on line {}; expected END",
                r.line
            ),
        });
    }
    out
}

/// Line `n` (`full`, trimmed to `line`) of a case's `section`: a unit, an order or a result,
/// added to the case `r`; or, for a line that is none of these, the part to point at and what
/// is wrong.
fn section_line<'a>(
    r: &mut Raw,
    section: Section,
    line: &'a str,
    n: usize,
    full: &str,
) -> Option<(&'a str, String)> {
    // jDip's own files end many unit and order lines with a full stop.
    let line = line.trim_end_matches('.').trim_end();
    let item = Item {
        line: n,
        col: col_of(full, line),
        text: line.to_string(),
    };
    match section {
        Section::Prestate => r.prestate.push(item),
        Section::Dislodged => r.dislodged.push(item),
        Section::Owners => r.owners.push(item),
        Section::Orders => r.orders.push(item),
        Section::Post => r.post.get_or_insert_with(Vec::new).push(item),
        Section::PostDislodged => r.post_dislodged.push(item),
        Section::Results => {
            let (ok, what) = if let Some(x) = line.strip_prefix("SUCCESS:") {
                (true, x)
            } else if let Some(x) = line.strip_prefix("FAILURE:") {
                (false, x)
            } else {
                return Some((
                    line,
                    format!(
                        "{}: expected SUCCESS: or FAILURE: and an order",
                        quoted(line)
                    ),
                ));
            };
            let what = what.trim();
            let item = Item {
                line: n,
                col: col_of(full, what),
                text: what.to_string(),
            };
            r.results.push((item, ok));
        }
        Section::None => {
            return Some((
                line,
                format!(
                    "{}: expected a section keyword (PRESTATE, ORDERS, POSTSTATE, …)",
                    quoted(line)
                ),
            ));
        }
    }
    None
}

/// Splits `Power: rest` (the colon may be missing: `Italy F gol`).
fn power_and_rest<'a>(map: &Map, line: &'a str) -> Option<(PowerId, &'a str)> {
    if let Some((p, rest)) = line.split_once(':')
        && let Some(id) = map.find_power(p.trim())
    {
        return Some((id, rest.trim()));
    }
    let (p, rest) = line.split_once(char::is_whitespace)?;
    map.find_power(p.trim()).map(|id| (id, rest.trim()))
}

/// A misspelled power before a colon (`Germnay: …`): the one power within two edits, if exactly
/// one is; the caller warns.
fn misspelled_power<'a>(map: &Map, line: &'a str) -> Option<(PowerId, &'a str, String)> {
    let (p, rest) = line.split_once(':')?;
    let word = p.trim().to_lowercase();
    // A stray word of 200,000 characters costs nothing: `near` skips names out of reach by
    // length.
    let close: Vec<PowerId> = map
        .power_ids()
        .filter(|id| {
            let name = map.power(*id).name.to_lowercase();
            crate::base::near::within(&word, &name, 2).is_some()
        })
        .collect();
    match close.as_slice() {
        [id] => Some((*id, rest.trim(), p.trim().to_string())),
        _ => None,
    }
}

/// `Power: rest` of a line (the power, and the rest as a slice of the line's text), accepting a
/// misspelled power when only one is close (with a warning); else what is wrong, for a problem
/// at the line's start. `what` is what follows the power, and `form` how the line reads.
fn split_power<'a>(
    map: &Map,
    it: &'a Item,
    (what, form): (&str, &str),
    warnings: &std::cell::RefCell<Vec<String>>,
) -> Result<(PowerId, &'a str), String> {
    let line = it.text.as_str();
    if let Some(found) = power_and_rest(map, line) {
        return Ok(found);
    }
    if let Some((id, rest, written)) = misspelled_power(map, line) {
        warnings.borrow_mut().push(format!(
            "line {}: power {} read as {} (the only power that close)",
            it.line,
            quoted(&written),
            map.power(id).name
        ));
        return Ok((id, rest));
    }
    let first = line.split([':', ' ', '\t']).next().unwrap_or(line);
    Err(if line.contains(':') {
        let powers: Vec<&str> = map.powers.iter().map(|p| p.name.as_str()).collect();
        format!(
            "{}: unknown power {}; expected one of {} before the {what}",
            quoted(line),
            quoted(first),
            powers.join(", ")
        )
    } else {
        format!(
            "{}: expected \"{form}\", found {} where the power should be",
            quoted(line),
            quoted(first)
        )
    })
}

/// Parses a unit or an order as jDip writes them, as leniently as jDip reads them: a word that
/// is no province but begins exactly one province's full name (`Portuga`, `Burgund` in jDip's
/// own test files) is read as that province, with a warning. Returns the parsed value and, when
/// a word was read so, the text as read. Errors are the parser's, on the text as written.
fn lenient<T>(
    map: &Map,
    text: &str,
    parse: fn(&Map, &str) -> Result<T, OrderError>,
    line: usize,
    warnings: &std::cell::RefCell<Vec<String>>,
) -> Result<(T, Option<String>), OrderError> {
    let first = match parse(map, text) {
        Ok(v) => return Ok((v, None)),
        Err(e) => e,
    };
    let mut fixed = text.to_string();
    let mut error = first.clone();
    // A few words at most; each round replaces one.
    for _ in 0..4 {
        if !error.message.starts_with("unknown province") {
            break;
        }
        let Some(start) = fixed
            .char_indices()
            .nth(error.col.saturating_sub(1))
            .map(|(i, _)| i)
        else {
            break;
        };
        let tail = fixed.get(start..).unwrap_or_default();
        let end = start
            + tail
                .find(|c: char| !c.is_alphanumeric())
                .unwrap_or(tail.len());
        let word = fixed.get(start..end).unwrap_or_default().to_string();
        let Some(p) = unique_name_start(map, &word) else {
            break;
        };
        let prov = map.province(p);
        warnings.borrow_mut().push(format!(
            "line {line}: {} read as {} (the only province whose name begins so, as jDip reads it)",
            quoted(&word),
            prov.name
        ));
        fixed.replace_range(start..end, &prov.abbr);
        match parse(map, &fixed) {
            Ok(v) => return Ok((v, Some(fixed))),
            Err(e) => error = e,
        }
    }
    Err(first)
}

/// The one province whose full name begins with `word` (four letters or more, any case), if
/// exactly one does.
fn unique_name_start(map: &Map, word: &str) -> Option<ProvinceId> {
    if word.chars().count() < 4 {
        return None;
    }
    let word = word.to_lowercase();
    let mut found = None;
    for (i, p) in map.provinces.iter().enumerate() {
        if p.name.to_lowercase().starts_with(&word) {
            if found.is_some() {
                return None;
            }
            found = Some(ProvinceId(i as u32));
        }
    }
    found
}

/// Builds case `r` of `file` on `map`: its phase, positions (before, dislodged and expected),
/// centre owners, the previous phase's results (attackers and standoffs), orders and rules.
fn build(r: &Raw, file: &str, map: Arc<Map>) -> Result<Case, Problem> {
    let c = CaseReader {
        r,
        file,
        map: &map,
        warnings: std::cell::RefCell::new(Vec::new()),
    };
    let phase = match &r.phase {
        Some(it) => Phase::parse(&it.text).map_err(|m| c.err(it.line, it.col, m))?,
        None => Phase {
            season: crate::model::board::Season::Spring,
            year: 1901,
            kind: PhaseKind::Movement,
        },
    };
    let units = c.units_of(&r.prestate)?;
    let dislodged_units = c.units_of(&r.dislodged)?;
    let owners = c.owners()?;
    // The previous phase's results, parsed once (a line that does not parse says nothing).
    let results: Vec<(bool, crate::model::orders::Order)> = r
        .results
        .iter()
        .filter_map(|(it, ok)| {
            let (_, rest) = power_and_rest(&map, &it.text)?;
            lenient(&map, rest, parse_order, it.line, &c.warnings)
                .ok()
                .map(|(o, _)| (*ok, o))
        })
        .collect();
    let dislodged = c.dislodged(&dislodged_units, &results);
    let contested = if phase.kind == PhaseKind::Retreat {
        contested(&map, &units, &results)
    } else {
        Vec::new()
    };
    if let Some(first) = r.dislodged.first()
        && phase.kind != PhaseKind::Retreat
    {
        return Err(c.err(
            first.line,
            first.col,
            format!(
                "PRESTATE_DISLODGED lists units, but the phase is {phase}; only a retreat phase has dislodged units (PRESTATE_SETPHASE Fall 1901, Retreat)"
            ),
        ));
    }
    let orders = c.orders()?;
    let positions = if r.post_same {
        units.clone()
    } else {
        match &r.post {
            Some(p) => c.units_of(p)?,
            None => {
                return Err(c.err(
                    r.end.0,
                    r.end.1,
                    "END without POSTSTATE or POSTSTATE_SAME; expected one of them, to say what the case expects".into(),
                ));
            }
        }
    };
    let expected_dislodged = if phase.kind == PhaseKind::Movement {
        Some(c.units_of(&r.post_dislodged)?)
    } else {
        None
    };
    let mut s = Scenario::empty(map.clone(), &map.name);
    s.title = if r.comment.is_empty() {
        r.name.clone()
    } else {
        format!("{}: {}", r.name, r.comment)
    };
    s.source = format!("{file}, line {} (jDip test file, case {})", r.line, r.name);
    if let Some(it) = &r.rules {
        let spec = &it.text;
        s.rules = crate::model::rules::Rules::parse_spec(spec).map_err(|e| {
            c.err(
                it.line,
                it.col,
                format!("{RULES_DIRECTIVE} {}: {e}", crate::base::text::cut(spec)),
            )
        })?;
    }
    s.phase = phase;
    s.units = units;
    s.dislodged = dislodged;
    s.contested = contested;
    s.owners = owners;
    s.orders = orders;
    s.expect = Some(Expect {
        results: Vec::new(),
        dislodged: expected_dislodged,
        positions: Some(positions),
    });
    Ok(Case {
        name: r.name.clone(),
        line: r.line,
        scenario: s,
        warnings: c.warnings.into_inner(),
    })
}

/// Contested provinces after the previous phase's `results`: two or more failed moves into a
/// province that nobody entered and nobody holds (a standoff).
fn contested(
    map: &Map,
    units: &[Unit],
    results: &[(bool, crate::model::orders::Order)],
) -> Vec<ProvinceId> {
    let mut contested: Vec<ProvinceId> = Vec::new();
    let moves_into = |ok: bool| {
        results.iter().filter_map(move |(k, o)| match &o.kind {
            OrderKind::Move { dest, .. } if *k == ok => Some(dest.province),
            _ => None,
        })
    };
    let entered: Vec<ProvinceId> = moves_into(true).collect();
    let failed: Vec<ProvinceId> = moves_into(false).collect();
    for &p in &failed {
        let bounces = failed.iter().filter(|q| **q == p).count();
        let held = units.iter().any(|u| map.province_of(u.loc) == p);
        if bounces >= 2 && !held && !entered.contains(&p) && !contested.contains(&p) {
            contested.push(p);
        }
    }
    contested
}

/// What reads the lines of one case: its units, owners, orders and the attackers of its
/// dislodged units, with the warnings they give.
struct CaseReader<'a> {
    /// The case as read.
    r: &'a Raw,
    /// The test file, for problems.
    file: &'a str,
    /// The map the case is on.
    map: &'a Map,
    /// What was read leniently, one line each.
    warnings: std::cell::RefCell<Vec<String>>,
}

impl CaseReader<'_> {
    /// A problem at `line`, `col` of the case.
    fn err(&self, line: usize, col: usize, message: String) -> Problem {
        Problem {
            file: self.file.to_string(),
            line,
            col,
            case: Some(self.r.name.clone()),
            message,
        }
    }

    /// The power of a line (`what`, written as `form`) and the rest of it.
    fn split<'i>(
        &self,
        it: &'i Item,
        what: &str,
        form: &str,
    ) -> Result<(PowerId, &'i str), Problem> {
        split_power(self.map, it, (what, form), &self.warnings)
            .map_err(|m| self.err(it.line, it.col, m))
    }

    /// A unit (`Power: A|F province`), with the column of its text after the power.
    fn unit(&self, it: &Item) -> Result<(Unit, usize), Problem> {
        let map = self.map;
        let line = || quoted(&it.text);
        let (power, rest) = self.split(it, "unit", "Power: A|F province")?;
        let col = it.col_of(rest);
        let first = rest.split_whitespace().next().unwrap_or_default();
        if first.eq_ignore_ascii_case("w") || first.eq_ignore_ascii_case("wing") {
            return Err(self.err(
                it.line,
                col,
                format!(
                    "{}: a wing ({first}), a unit of jDip's test variants, which this map does not have; expected A or F",
                    line()
                ),
            ));
        }
        let (spec, _) = lenient(map, rest, parse_unit, it.line, &self.warnings).map_err(|e| {
            self.err(
                it.line,
                col + e.col - 1,
                format!("{}: {}", line(), e.message),
            )
        })?;
        // parse_unit refuses a unit without A or F, so `kind` is always there; the default is
        // never used.
        let kind = spec.kind.unwrap_or(crate::model::map::UnitKind::Army);
        let prov = map.province(spec.loc.province);
        let loc = match spec.loc.coast {
            Some(c) => prov.coast(c).ok_or_else(|| {
                let named: Vec<String> = prov
                    .coasts
                    .iter()
                    .map(|(c, _)| format!("{}/{c}", prov.abbr))
                    .collect();
                let expected = if named.is_empty() {
                    format!("write {} without a coast", prov.abbr)
                } else {
                    format!("expected {}", named.join(" or "))
                };
                self.err(
                    it.line,
                    col,
                    format!("{}: {} has no {}; {expected}", line(), prov.name, c.name()),
                )
            })?,
            None => prov.main,
        };
        Ok((Unit { power, kind, loc }, col))
    }

    /// The units of a position: each where its kind can stand (a fleet in a two-coast province
    /// on a coast), and one to a province — what the scenario loader asks of every position.
    fn units_of(&self, list: &[Item]) -> Result<Vec<Unit>, Problem> {
        let map = self.map;
        let mut out: Vec<Unit> = Vec::with_capacity(list.len());
        let mut held: Vec<Option<Unit>> = vec![None; map.province_count()];
        for it in list {
            let l = || quoted(&it.text);
            let (u, col) = self.unit(it)?;
            let p = map.province_of(u.loc);
            let prov = map.province(p);
            let wrong = match (u.kind, prov.kind) {
                (crate::model::map::UnitKind::Army, crate::model::map::ProvinceKind::Sea) => {
                    Some(format!("an army cannot stand in {}, a sea", prov.name))
                }
                (crate::model::map::UnitKind::Fleet, crate::model::map::ProvinceKind::Land) => {
                    Some(format!(
                        "a fleet cannot stand in {}, an inland province",
                        prov.name
                    ))
                }
                (crate::model::map::UnitKind::Fleet, _)
                    if prov.is_multi_coast() && u.loc == prov.main =>
                {
                    let named: Vec<String> = prov
                        .coasts
                        .iter()
                        .map(|(c, _)| format!("{}/{c}", prov.abbr))
                        .collect();
                    Some(format!(
                        "a fleet in {} must name its coast: {}",
                        prov.name,
                        named.join(" or ")
                    ))
                }
                (crate::model::map::UnitKind::Army, _) if u.loc != prov.main => Some(format!(
                    "an army stands in a province, not on a coast: write A {}",
                    prov.abbr
                )),
                _ => None,
            };
            if let Some(w) = wrong {
                return Err(self.err(it.line, col, format!("{}: {w}", l())));
            }
            if let Some(other) = held.get(p.0 as usize).copied().flatten() {
                return Err(self.err(
                    it.line,
                    col,
                    format!(
                        "{}: two units in {}: {} and {}; a province holds one unit",
                        l(),
                        prov.name,
                        other.describe_owned(map),
                        u.describe_owned(map)
                    ),
                ));
            }
            if let Some(slot) = held.get_mut(p.0 as usize) {
                *slot = Some(u);
            }
            out.push(u);
        }
        Ok(out)
    }

    /// Centre owners: every centre listed; the others keep the home-centre default only when no
    /// owners are listed at all (then None).
    fn owners(&self) -> Result<Option<Vec<Option<PowerId>>>, Problem> {
        let map = self.map;
        if self.r.owners.is_empty() {
            return Ok(None);
        }
        let mut o: Vec<Option<PowerId>> = vec![None; map.province_count()];
        for it in &self.r.owners {
            let (u, col) = self.unit(it)?;
            let p = map.province_of(u.loc);
            if !map.province(p).supply_center {
                return Err(self.err(
                    it.line,
                    col,
                    format!(
                        "{}: {} is not a supply centre; expected the supply centres the power owns",
                        quoted(&it.text),
                        map.province(p).name
                    ),
                ));
            }
            if let Some(slot) = o.get_mut(p.0 as usize) {
                *slot = Some(u.power);
            }
        }
        Ok(Some(o))
    }

    /// The dislodged units with their attackers: the successful move into each one's province
    /// among the `results` (by convoy when written so, or when a successful convoy carried it);
    /// a warning where there is none.
    fn dislodged(
        &self,
        units: &[Unit],
        results: &[(bool, crate::model::orders::Order)],
    ) -> Vec<Dislodged> {
        let map = self.map;
        let mut dislodged = Vec::new();
        for (d, it) in units.iter().zip(&self.r.dislodged) {
            let here = map.province_of(d.loc);
            let from = results.iter().rev().find_map(|(ok, o)| match (ok, o.unit, &o.kind) {
                (true, Some(u), OrderKind::Move { dest, via_convoy, .. }) if dest.province == here => {
                    let from = u.loc.province;
                    let convoyed = *via_convoy
                        || results.iter().any(|(ok2, c)| {
                            *ok2 && matches!(&c.kind, OrderKind::Convoy { army, .. } if army.unit.loc.province == from)
                        });
                    Some((from, convoyed))
                }
                _ => None,
            });
            let (attacker_from, by_convoy) = from.unwrap_or_else(|| {
                self.warnings.borrow_mut().push(format!(
                    "line {}: the results name no attacker of {}; no province is barred to its retreat",
                    it.line,
                    d.describe(map)
                ));
                (here, false)
            });
            dislodged.push(Dislodged {
                unit: *d,
                attacker_from,
                by_convoy,
            });
        }
        dislodged
    }

    /// The case's orders, each given by the power its line names (and no other).
    fn orders(&self) -> Result<Vec<OrderEntry>, Problem> {
        let map = self.map;
        let mut orders = Vec::new();
        for it in &self.r.orders {
            let l = || quoted(&it.text);
            let (power, rest) = self.split(it, "order", "Power: order")?;
            let col = it.col_of(rest);
            let (order, text) =
                lenient(map, rest, parse_order, it.line, &self.warnings).map_err(|e| {
                    self.err(it.line, col + e.col - 1, format!("{}: {}", l(), e.message))
                })?;
            // `France: Italy: F gol H`: two powers, as the scenario loader refuses too.
            if let Some(p) = order.power
                && p != power
            {
                return Err(self.err(
                    it.line,
                    col,
                    format!(
                        "{}: the order is prefixed {} but given by {}",
                        l(),
                        map.power(p).name,
                        map.power(power).name
                    ),
                ));
            }
            orders.push(OrderEntry {
                power,
                text: text.unwrap_or_else(|| rest.to_string()),
                order,
            });
        }
        Ok(orders)
    }
}

/// Takes in one habit of these files: the expected dislodged list leaves out units that were
/// dislodged with no legal retreat (they are destroyed). Returns the scenario with each such unit
/// added to its expected dislodged list — only when the run shows it indeed had no retreat — and
/// a note for each.
pub fn with_destroyed_units(s: &Scenario, r: &crate::tools::check::Run) -> (Scenario, Vec<String>) {
    let mut notes = Vec::new();
    let mut s2 = s.clone();
    if let Some(expect) = &mut s2.expect
        && let Some(listed) = &mut expect.dislodged
    {
        let map = &*s.map;
        let occupied = crate::engine::retreat::occupied(map, &r.phase().final_units);
        let standoff = crate::engine::retreat::standoffs(map, &r.phase().contested);
        // The units the file lists, looked up by place (not searched per dislodged unit).
        let named: std::collections::HashSet<(
            crate::model::map::UnitKind,
            crate::model::map::LocId,
        )> = listed.iter().map(|u| (u.kind, u.loc)).collect();
        for d in &r.phase().dislodged {
            if named.contains(&(d.unit.kind, d.unit.loc)) {
                continue;
            }
            let options = crate::engine::retreat::retreat_options_marked(
                map, d, &occupied, &standoff, &r.rules,
            );
            if options.is_empty() {
                notes.push(format!(
                    "{} was dislodged with no retreat; the file leaves destroyed units out of its dislodged list",
                    d.unit.describe(map)
                ));
                listed.push(d.unit);
            }
        }
    }
    (s2, notes)
}

/// Compares a run of an imported case with its expectations, as [`crate::tools::check::compare`] does,
/// after [`with_destroyed_units`]; the notes say what was taken in.
pub fn compare(s: &Scenario, r: &crate::tools::check::Run) -> (Vec<String>, usize, Vec<String>) {
    let (s2, notes) = with_destroyed_units(s, r);
    let (bad, n) = crate::tools::check::compare(&s2, r);
    (bad, n, notes)
}

fn unit_line(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        u.kind.letter(),
        map.loc_abbr(u.loc)
            .to_lowercase()
            .replace('(', "/")
            .replace(')', "")
    )
}

/// Why a scenario cannot be written as a jDip case.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExportError {
    /// The scenario is on another map than the standard one.
    #[error(
        "it is on the map {map:?}; a jDip test file names its map by a variant (VARIANT_ALL), and only the standard map is written (VARIANT_ALL Standard)"
    )]
    NotStandard {
        /// The map's name.
        map: String,
    },
    /// The position has neutral units, which a jDip test file cannot write.
    #[error("it has neutral units, which a jDip test file has no way to write")]
    NeutralUnits,
}

/// Whether a scenario is on the standard map: the built-in one, or a file with its very text.
pub fn on_standard_map(s: &Scenario) -> bool {
    if Arc::ptr_eq(&s.map, &Map::standard_arc()) {
        return true;
    }
    s.map_file
        .as_ref()
        .and_then(|f| crate::base::source::read_text(f).ok())
        .is_some_and(|t| t == crate::model::map::STANDARD_RON)
}

/// Whether a character cannot stand in a line of a jDip file: it would end the line (a line
/// feed, a carriage return, a Unicode line or paragraph separator, a next-line control), is
/// another control character, or an invisible one that changes how the line reads (a
/// bidirectional override, a zero-width character: [`crate::base::text::is_invisible`]).
fn breaks_line(c: char) -> bool {
    c.is_control() || crate::base::text::is_invisible(c)
}

/// A name the jDip format can hold as a case name, and the same name when it can already: `CASE
/// NAME` runs to the end of its line and `#` starts a comment there, so control characters
/// (line ends among them), Unicode line separators and `#` become `-`, white space around it
/// goes, and an empty name becomes `case`.
pub fn case_name(raw: &str) -> String {
    let name: String = raw
        .chars()
        .map(|c| if breaks_line(c) || c == '#' { '-' } else { c })
        .collect();
    let name = name.trim();
    if name.is_empty() {
        "case".into()
    } else {
        name.to_string()
    }
}

/// A title as one comment line: control characters and line separators become spaces.
fn comment_line(text: &str) -> String {
    text.chars()
        .map(|c| if breaks_line(c) { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Writes a scenario as one jDip case named `name` (made safe by [`case_name`]): phase,
/// position, dislodged units (with a `PRESTATE_RESULTS` move from each attacker's province),
/// centre owners when stated, orders, and the expected position (`positions`) and, for a
/// movement phase, the expected dislodged units. The title goes into a comment line. A
/// scenario on another map than the standard one is refused: the format would name it
/// `Standard`; so is one with neutral units, which the format has no way to write.
pub fn export_case(
    s: &Scenario,
    name: &str,
    positions: &[Unit],
    dislodged: &[Unit],
) -> Result<String, ExportError> {
    use std::fmt::Write as _;
    if !on_standard_map(s) {
        return Err(ExportError::NotStandard {
            map: s.map.name.clone(),
        });
    }
    if s.units
        .iter()
        .chain(s.dislodged.iter().map(|d| &d.unit))
        .any(|u| u.power.is_neutral())
    {
        return Err(ExportError::NeutralUnits);
    }
    let map = &*s.map;
    let mut out = String::new();
    let title = comment_line(&s.title);
    if !title.is_empty() {
        let _ = writeln!(out, "# {title}");
    }
    let _ = writeln!(out, "CASE {}", case_name(name));
    let ov = s.rules.overrides();
    if !ov.is_empty() {
        let spec: Vec<String> = ov.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(out, "# {RULES_DIRECTIVE} {}", spec.join(","));
    }
    let ph = s.phase.to_string();
    let mut w = ph.split(' ');
    let (season, year, kind) = (
        w.next().unwrap_or(""),
        w.next().unwrap_or(""),
        w.next().unwrap_or(""),
    );
    let _ = writeln!(out, "PRESTATE_SETPHASE {season} {year}, {kind}");
    if let Some(owners) = &s.owners {
        let _ = writeln!(out, "PRESTATE_SUPPLYCENTER_OWNERS");
        for (i, o) in owners.iter().enumerate() {
            if let Some(p) = o {
                let prov = map.province(ProvinceId(i as u32));
                let _ = writeln!(out, "\t{}: A {}", map.power(*p).name, prov.abbr);
            }
        }
    }
    let _ = writeln!(out, "PRESTATE");
    for u in &s.units {
        let _ = writeln!(out, "\t{}", unit_line(map, u));
    }
    if !s.dislodged.is_empty() {
        let _ = writeln!(out, "PRESTATE_DISLODGED");
        for d in &s.dislodged {
            let _ = writeln!(out, "\t{}", unit_line(map, &d.unit));
        }
        let _ = writeln!(out, "PRESTATE_RESULTS");
        // The unit standing in each province (one look-up per dislodged unit).
        let mut standing: Vec<Option<&Unit>> = vec![None; map.province_count()];
        for u in &s.units {
            if let Some(slot) = standing.get_mut(map.province_of(u.loc).0 as usize) {
                slot.get_or_insert(u);
            }
        }
        for d in &s.dislodged {
            // The attacker: a unit now standing where the dislodged one stood.
            let here = map.province_of(d.unit.loc);
            if let Some(a) = standing.get(here.0 as usize).copied().flatten() {
                let _ = writeln!(
                    out,
                    "\tSUCCESS: {}: {} {}-{}",
                    map.power(a.power).name,
                    a.kind.letter(),
                    map.province(d.attacker_from).abbr,
                    map.province(here).abbr
                );
            }
        }
    }
    let _ = writeln!(out, "ORDERS");
    for o in &s.orders {
        let mut ord = o.order.clone();
        ord.power = None;
        let _ = writeln!(
            out,
            "\t{}: {}",
            map.power(o.power).name,
            crate::model::orders::format_order(map, &ord, crate::model::orders::NameStyle::Abbr)
        );
    }
    let _ = writeln!(out, "POSTSTATE");
    for u in positions {
        let _ = writeln!(out, "\t{}", unit_line(map, u));
    }
    if s.phase.kind == PhaseKind::Movement && !dislodged.is_empty() {
        let _ = writeln!(out, "POSTSTATE_DISLODGED");
        for u in dislodged {
            let _ = writeln!(out, "\t{}", unit_line(map, u));
        }
    }
    let _ = writeln!(out, "END");
    Ok(out)
}
