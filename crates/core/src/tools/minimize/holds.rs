//! Whether a run shows a property: the checks of [`Property`](super::Property) on an adjudicated
//! candidate, each with the line that says why.

use crate::engine::OrderOutcome;
use crate::engine::decision::trace::{BackupRule, Event};
use crate::model::board::Unit;
use crate::model::map::Map;
use crate::model::orders::{NameStyle, Order, format_order};
use crate::model::rules::Rules;
use crate::model::scenario::Scenario;
use crate::tools::check::Run;
use crate::tools::diff::verdict_word;

pub(super) fn short(map: &Map, o: &Order) -> String {
    let mut o = o.clone();
    o.power = None;
    format_order(map, &o, NameStyle::Abbr)
}

/// The backup rules the resolver applied, from the trace.
pub(super) fn applied(r: &Run) -> Vec<BackupRule> {
    let mut out = Vec::new();
    for e in r
        .result
        .decisions()
        .and_then(|m| m.trace.as_ref())
        .into_iter()
        .flatten()
    {
        if let Event::BackupApplied { rule, .. } = e
            && !out.contains(rule)
        {
            out.push(*rule);
        }
    }
    out
}

/// Whether the equations of the phase have `want` solutions (the oracle's default limit; a
/// position too large to count does not hold).
pub(super) fn solutions_hold(s: &Scenario, r: &Run, want: u128) -> (bool, String) {
    let limits = crate::tools::oracle::Limits::default();
    match crate::tools::oracle::solve(&s.map, &s.units, &s.orders, &r.rules, limits) {
        Ok(o) => {
            let line = match o.count {
                1 => "the equations have 1 solution".to_string(),
                n => format!("the equations have {n} solutions"),
            };
            (o.count == want, line)
        }
        Err(e) => (false, e.to_string()),
    }
}

/// How many orders a witness line names at most.
pub(super) const LISTED: usize = 12;

/// Whether a backup rule (`want`, or any) is applied; with `line`, the witness line, which
/// names the orders it decided (the first [`LISTED`] of them).
pub(super) fn backup_holds(
    map: &Map,
    s: &Scenario,
    r: &Run,
    want: Option<BackupRule>,
    line: bool,
) -> (bool, String) {
    let rules = applied(r);
    let hit = match want {
        None => rules.first().copied(),
        Some(w) => rules.iter().copied().find(|x| *x == w),
    };
    match hit {
        Some(_) if !line => (true, String::new()),
        Some(rule) => {
            let mut decided = s
                .orders
                .iter()
                .zip(&r.phase().outcomes)
                .filter(|(_, o)| o.backup == Some(rule));
            let listed: Vec<String> = decided
                .by_ref()
                .take(LISTED)
                .map(|(e, _)| short(map, &e.order))
                .collect();
            let more = decided.count();
            let mut line = format!("{} applied", capitalized(rule.name()));
            if !listed.is_empty() {
                line.push_str(&format!(": {}", listed.join(", ")));
            }
            if more > 0 {
                line.push_str(&format!(" and {more} more"));
            }
            (true, line)
        }
        None if rules.is_empty() => (false, "no backup rule is applied".into()),
        None => {
            let names: Vec<&str> = rules.iter().map(|x| x.name()).collect();
            (
                false,
                format!("only the {} is applied", names.join(" and the ")),
            )
        }
    }
}

/// `F Wales - English Channel: fails (attack 2 does not beat …)`; a reason that starts with the
/// verdict (`illegal: …`) is not repeated.
pub(super) fn outcome_line(text: &str, o: &OrderOutcome) -> String {
    let word = verdict_word(o.verdict);
    if o.reason.starts_with(word) {
        format!("{text}: {}", o.reason)
    } else {
        format!("{text}: {word} ({})", o.reason)
    }
}

pub(super) fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Whether two runs give different verdicts, dislodgements, positions or retreat verdicts.
pub(super) fn differs(s: &Scenario, a: &Run, b: &Run) -> (bool, String) {
    let map = &*s.map;
    let (na, nb) = (rules_name(&a.rules), rules_name(&b.rules));
    for (e, (x, y)) in s
        .orders
        .iter()
        .zip(a.phase().outcomes.iter().zip(&b.phase().outcomes))
    {
        if x.verdict != y.verdict {
            return (
                true,
                format!(
                    "{} {} under {na}, {} under {nb}",
                    short(map, &e.order),
                    verdict_word(x.verdict),
                    verdict_word(y.verdict)
                ),
            );
        }
    }
    let set = |v: &[Unit]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    let dis = |r: &Run| {
        set(&r
            .phase()
            .dislodged
            .iter()
            .map(|d| d.unit)
            .collect::<Vec<_>>())
    };
    if dis(a) != dis(b) {
        return (
            true,
            format!("the dislodged units differ under {na} and {nb}"),
        );
    }
    if set(&a.phase().final_units) != set(&b.phase().final_units) {
        return (true, format!("the positions differ under {na} and {nb}"));
    }
    if let (Some(f), Some(x), Some(y)) = (&s.retreats, &a.retreats, &b.retreats) {
        for (e, (x, y)) in f.orders.iter().zip(x.outcomes.iter().zip(&y.outcomes)) {
            if x.verdict != y.verdict {
                return (
                    true,
                    format!(
                        "retreat {} {} under {na}, {} under {nb}",
                        short(map, &e.order),
                        verdict_word(x.verdict),
                        verdict_word(y.verdict)
                    ),
                );
            }
        }
    }
    (
        false,
        format!("{na} and {nb} give the same verdicts, dislodgements and positions"),
    )
}

/// Rules in a few words: a preset's name, or the options that differ from the DATC's.
pub fn rules_name(r: &Rules) -> String {
    match r.preset_name() {
        Some(p) => p.to_string(),
        None => format!("datc,{}", r.name(",")),
    }
}
