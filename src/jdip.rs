//! The jDip test-file format, as jDip, godip and other adjudicators keep their test suites:
//! `CASE … END` blocks with a phase, a position (`PRESTATE`), dislodged units, centre owners,
//! the previous phase's results, the orders, and the expected position afterwards.
//!
//! Each case becomes a [`Scenario`] whose expectations are **positions only** (the format says
//! nothing about each order's success). A line that cannot be read, or a case that cannot be
//! expressed, is a [`Problem`] with its line number; the other cases still come through.

use std::sync::Arc;

use crate::board::{Dislodged, Phase, PhaseKind, Unit};
use crate::map::{Map, PowerId, ProvinceId};
use crate::orders::{OrderKind, parse_order, parse_unit};
use crate::scenario::{Expect, OrderEntry, Scenario};

/// Something in a jDip file that could not be taken in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Line (1-based).
    pub line: usize,
    /// The case it belongs to, if any.
    pub case: Option<String>,
    /// What was wrong, and what was expected.
    pub message: String,
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
    comment: String,
    phase: Option<(usize, String)>,
    prestate: Vec<(usize, String)>,
    dislodged: Vec<(usize, String)>,
    owners: Vec<(usize, String)>,
    results: Vec<(usize, bool, String)>,
    orders: Vec<(usize, String)>,
    post: Option<Vec<(usize, String)>>,
    post_same: bool,
    post_dislodged: Vec<(usize, String)>,
    rules: Option<(usize, String)>,
}

/// Applies a side file of rule pairings (`CASE-NAME RULES` per line, `#` comments), as kept next
/// to a test file that cannot be edited: each named case is adjudicated under those rules.
pub fn apply_rules_file(f: &mut File, text: &str, file: &str) {
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let problem = |m: String| Problem {
            line: i + 1,
            case: None,
            message: format!("{file}: {m}"),
        };
        let Some((name, spec)) = line.split_once(char::is_whitespace) else {
            f.problems
                .push(problem(format!("{line:?}: expected \"CASE-NAME RULES\"")));
            continue;
        };
        let rules = match crate::rules::Rules::parse_spec(spec.trim()) {
            Ok(r) => r,
            Err(e) => {
                f.problems.push(problem(format!("{spec:?}: {e}")));
                continue;
            }
        };
        match f.cases.iter_mut().find(|c| c.name == name) {
            Some(c) => {
                c.scenario.rules = rules;
                c.warnings
                    .push(format!("adjudicated under {} ({file})", spec.trim()));
            }
            None => f.problems.push(problem(format!("no case named {name:?}"))),
        }
    }
}

/// Parses a jDip test file for the standard map. `file` names it in the scenarios' sources.
pub fn parse(text: &str, file: &str, map: Arc<Map>) -> File {
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
            r.rules = Some((n, spec.trim().to_string()));
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
            None => (line, ""),
        };
        let problem = |m: String, raw: &Option<Raw>| Problem {
            line: n,
            case: raw.as_ref().map(|r| r.name.clone()),
            message: m,
        };
        match word {
            "VARIANT_ALL" => {
                out.variant = Some(rest.to_string());
                if !rest.eq_ignore_ascii_case("standard") {
                    out.problems.push(problem(
                        format!(
                            "variant {rest:?}: only the standard map is known; its cases are read as standard"
                        ),
                        &raw,
                    ));
                }
            }
            "CASE" => {
                if let Some(r) = raw.take() {
                    out.problems.push(Problem {
                        line: n,
                        case: Some(r.name),
                        message: "a new CASE before END; the unfinished case is skipped".into(),
                    });
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
                    Some(r) => match build(&r, file, map.clone()) {
                        Ok(c) => out.cases.push(c),
                        Err(p) => out.problems.push(p),
                    },
                    None => out
                        .problems
                        .push(problem("END without a CASE".into(), &raw)),
                }
                section = Section::None;
            }
            _ if raw.is_none() => {
                out.problems.push(problem(
                    format!("{line:?} outside a CASE … END block"),
                    &raw,
                ));
            }
            "PRESTATE_SETPHASE" => {
                if let Some(r) = &mut raw {
                    r.phase = Some((n, rest.to_string()));
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
                let item = (n, line.to_string());
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
                            out.problems.push(problem(
                                format!("{line:?}: expected SUCCESS: or FAILURE: and an order"),
                                &raw,
                            ));
                            continue;
                        };
                        r.results.push((n, ok, what.trim().to_string()));
                    }
                    Section::None => out.problems.push(problem(
                        format!(
                            "{line:?}: expected a section keyword (PRESTATE, ORDERS, POSTSTATE, …)"
                        ),
                        &raw,
                    )),
                }
            }
        }
    }
    if let Some(r) = raw {
        out.problems.push(Problem {
            line: text.lines().count(),
            case: Some(r.name),
            message: "the file ends inside a case (no END)".into(),
        });
    }
    out
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
    let close: Vec<PowerId> = map
        .power_ids()
        .filter(|id| crate::orders::edit_distance(&word, &map.power(*id).name.to_lowercase()) <= 2)
        .collect();
    match close.as_slice() {
        [id] => Some((*id, rest.trim(), p.trim().to_string())),
        _ => None,
    }
}

fn build<'a>(r: &'a Raw, file: &str, map: Arc<Map>) -> Result<Case, Problem> {
    let err = |line: usize, m: String| Problem {
        line,
        case: Some(r.name.clone()),
        message: m,
    };
    let warnings = std::cell::RefCell::new(Vec::new());
    // `Power: rest`, accepting a misspelled power when only one is close (with a warning).
    let split = |n: usize, line: &'a str| -> Option<(PowerId, &'a str)> {
        power_and_rest(&map, line).or_else(|| {
            let (id, rest, written) = misspelled_power(&map, line)?;
            warnings.borrow_mut().push(format!(
                "line {n}: power {written:?} read as {} (the only power that close)",
                map.power(id).name
            ));
            Some((id, rest))
        })
    };
    let phase = match &r.phase {
        Some((n, p)) => Phase::parse(p).map_err(|m| err(*n, m))?,
        None => Phase::parse("Spring 1901 Movement").unwrap_or(Phase {
            season: crate::board::Season::Spring,
            year: 1901,
            kind: PhaseKind::Movement,
        }),
    };
    let unit = |n: usize, line: &'a str| -> Result<Unit, Problem> {
        let (power, rest) = split(n, line)
            .ok_or_else(|| err(n, format!("{line:?}: expected \"Power: A|F province\"")))?;
        let spec =
            parse_unit(&map, rest).map_err(|e| err(n, format!("{line:?}: {}", e.message)))?;
        let kind = spec
            .kind
            .ok_or_else(|| err(n, format!("{line:?}: the unit type (A or F) is missing")))?;
        let prov = map.province(spec.loc.province);
        let loc = match spec.loc.coast {
            Some(c) => prov
                .coast(c)
                .ok_or_else(|| err(n, format!("{line:?}: no such coast")))?,
            None => prov.main,
        };
        Ok(Unit { power, kind, loc })
    };
    // A unit of a position: where its kind can stand (a fleet in a two-coast province on a
    // coast), and one to a province — what the scenario loader asks of every position.
    let units_of = |list: &'a [(usize, String)]| -> Result<Vec<Unit>, Problem> {
        let mut out: Vec<Unit> = Vec::with_capacity(list.len());
        let mut held: Vec<Option<Unit>> = vec![None; map.province_count()];
        for (n, l) in list {
            let u = unit(*n, l)?;
            let p = map.province_of(u.loc);
            let prov = map.province(p);
            let wrong = match (u.kind, prov.kind) {
                (crate::map::UnitKind::Army, crate::map::ProvinceKind::Sea) => {
                    Some(format!("an army cannot stand in {}, a sea", prov.name))
                }
                (crate::map::UnitKind::Fleet, crate::map::ProvinceKind::Land) => Some(format!(
                    "a fleet cannot stand in {}, an inland province",
                    prov.name
                )),
                (crate::map::UnitKind::Fleet, _) if prov.is_multi_coast() && u.loc == prov.main => {
                    Some(format!("a fleet in {} must name its coast", prov.name))
                }
                (crate::map::UnitKind::Army, _) if u.loc != prov.main => {
                    Some("an army stands in a province, not on a coast".to_string())
                }
                _ => None,
            };
            if let Some(w) = wrong {
                return Err(err(*n, format!("{l:?}: {w}")));
            }
            if let Some(other) = held.get(p.0 as usize).copied().flatten() {
                return Err(err(
                    *n,
                    format!(
                        "{l:?}: two units in {}: {} and {}; a province holds one unit",
                        prov.name,
                        other.describe_owned(&map),
                        u.describe_owned(&map)
                    ),
                ));
            }
            if let Some(slot) = held.get_mut(p.0 as usize) {
                *slot = Some(u);
            }
            out.push(u);
        }
        Ok(out)
    };
    let units = units_of(&r.prestate)?;
    let dislodged_units = units_of(&r.dislodged)?;
    // Centre owners: every centre listed; the others keep the home-centre default only when no
    // owners are listed at all.
    let owners = if r.owners.is_empty() {
        None
    } else {
        let mut o: Vec<Option<PowerId>> = vec![None; map.province_count()];
        for (n, l) in &r.owners {
            let u = unit(*n, l)?;
            let p = map.province_of(u.loc);
            if !map.province(p).supply_center {
                return Err(err(
                    *n,
                    format!("{l:?}: {} is not a supply centre", map.province(p).name),
                ));
            }
            if let Some(slot) = o.get_mut(p.0 as usize) {
                *slot = Some(u.power);
            }
        }
        Some(o)
    };
    // The previous phase's results, parsed once (a line that does not parse says nothing).
    let results: Vec<(bool, crate::orders::Order)> = r
        .results
        .iter()
        .filter_map(|(_, ok, text)| {
            let (_, rest) = power_and_rest(&map, text)?;
            parse_order(&map, rest).ok().map(|o| (*ok, o))
        })
        .collect();
    // A dislodged unit's attacker: the successful move into its province among the results
    // (by convoy when written so, or when a successful convoy carried it).
    let mut dislodged = Vec::new();
    for (d, (n, _)) in dislodged_units.iter().zip(&r.dislodged) {
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
            warnings.borrow_mut().push(format!(
                "line {n}: the results name no attacker of {}; no province is barred to its retreat",
                d.describe(&map)
            ));
            (here, false)
        });
        dislodged.push(Dislodged {
            unit: *d,
            attacker_from,
            by_convoy,
        });
    }
    // Contested provinces: two or more failed moves into a province that nobody entered and
    // nobody holds (a standoff).
    let mut contested: Vec<ProvinceId> = Vec::new();
    if phase.kind == PhaseKind::Retreat {
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
    }
    if !dislodged.is_empty() && phase.kind != PhaseKind::Retreat {
        return Err(err(
            r.line,
            format!("dislodged units in a {phase}: only a retreat phase has them"),
        ));
    }
    let mut orders = Vec::new();
    for (n, l) in &r.orders {
        let (power, rest) =
            split(*n, l).ok_or_else(|| err(*n, format!("{l:?}: expected \"Power: order\"")))?;
        let order = parse_order(&map, rest)
            .map_err(|e| err(*n, format!("{l:?}: column {}: {}", e.col, e.message)))?;
        // `France: Italy: F gol H`: two powers, as the scenario loader refuses too.
        if let Some(p) = order.power
            && p != power
        {
            return Err(err(
                *n,
                format!(
                    "{l:?}: the order is prefixed {} but given by {}",
                    map.power(p).name,
                    map.power(power).name
                ),
            ));
        }
        orders.push(OrderEntry {
            power,
            text: rest.to_string(),
            order,
        });
    }
    let positions = if r.post_same {
        units.clone()
    } else {
        match &r.post {
            Some(p) => units_of(p)?,
            None => {
                return Err(err(
                    r.line,
                    "no POSTSTATE or POSTSTATE_SAME: nothing to expect".into(),
                ));
            }
        }
    };
    let expected_dislodged = if phase.kind == PhaseKind::Movement {
        Some(units_of(&r.post_dislodged)?)
    } else {
        None
    };
    let mut s = Scenario::empty(map.clone(), "standard");
    s.title = if r.comment.is_empty() {
        r.name.clone()
    } else {
        format!("{}: {}", r.name, r.comment)
    };
    s.source = format!("{file}, line {} (jDip test file, case {})", r.line, r.name);
    if let Some((n, spec)) = &r.rules {
        s.rules = crate::rules::Rules::parse_spec(spec)
            .map_err(|e| err(*n, format!("{RULES_DIRECTIVE} {spec}: {e}")))?;
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
        warnings: warnings.into_inner(),
    })
}

/// Takes in one habit of these files: the expected dislodged list leaves out units that were
/// dislodged with no legal retreat (they are destroyed). Returns the scenario with each such unit
/// added to its expected dislodged list — only when the run shows it indeed had no retreat — and
/// a note for each.
pub fn with_destroyed_units(s: &Scenario, r: &crate::check::Run) -> (Scenario, Vec<String>) {
    let mut notes = Vec::new();
    let mut s2 = s.clone();
    if let Some(expect) = &mut s2.expect
        && let Some(listed) = &mut expect.dislodged
    {
        let map = &*s.map;
        let occupied = crate::adjudicator::retreat::occupied(map, &r.phase.final_units);
        for d in &r.phase.dislodged {
            let named = listed
                .iter()
                .any(|u| u.kind == d.unit.kind && u.loc == d.unit.loc);
            if named {
                continue;
            }
            let options = crate::adjudicator::retreat::retreat_options(
                map,
                d,
                &occupied,
                &r.phase.contested,
                &r.rules,
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

/// Compares a run of an imported case with its expectations, as [`crate::check::compare`] does,
/// after [`with_destroyed_units`]; the notes say what was taken in.
pub fn compare(s: &Scenario, r: &crate::check::Run) -> (Vec<String>, usize, Vec<String>) {
    let (s2, notes) = with_destroyed_units(s, r);
    let (bad, n) = crate::check::compare(&s2, r);
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

/// Writes a scenario as one jDip case named `name`: phase, position, dislodged units (with a
/// `PRESTATE_RESULTS` move from each attacker's province), centre owners when stated, orders, and
/// the expected position (`positions`) and, for a movement phase, the expected dislodged units.
pub fn export_case(s: &Scenario, name: &str, positions: &[Unit], dislodged: &[Unit]) -> String {
    use std::fmt::Write as _;
    let map = &*s.map;
    let mut out = String::new();
    if !s.title.is_empty() {
        let _ = writeln!(out, "# {}", s.title.replace('\n', " "));
    }
    let _ = writeln!(out, "CASE {name}");
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
        for d in &s.dislodged {
            // The attacker: a unit now standing where the dislodged one stood.
            let here = map.province_of(d.unit.loc);
            if let Some(a) = s.units.iter().find(|u| map.province_of(u.loc) == here) {
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
            crate::orders::format_order(map, &ord, crate::orders::NameStyle::Abbr)
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
    out
}
