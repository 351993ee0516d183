//! `solve`: how many solutions the DATC 5.B equations of a movement phase have, the decisions
//! on which they differ, and whether the resolver did what DATC 5.B.9 asks of it.

use std::collections::BTreeSet;
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};
use serde_json::{Value, json};

use dipsandbox_core::engine::decision::resolver::NodeKind;
use dipsandbox_core::engine::{MovementResult, adjudicate_movement, value_text};
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::map::PowerId;
use dipsandbox_core::model::orders::{NameStyle, Order, format_order};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::oracle::{Agreement, Limits, Oracle, OracleError, UnitValues, solve};

/// Exit status when the resolver departs from the equations (a resolver bug).
const DISAGREES: u8 = 1;
/// Exit status when the position is too large to search.
const TOO_LARGE: u8 = 3;

/// At most this many solutions are shown side by side.
const COLUMNS: usize = 4;

struct Solved {
    rules: Rules,
    orders: Vec<(PowerId, Order)>,
    oracle: Oracle,
    resolver: MovementResult,
}

fn solve_scenario(
    s: &Scenario,
    rules: Option<Rules>,
    steps: u64,
) -> Result<Result<Solved, OracleError>> {
    if s.phase.kind != PhaseKind::Movement {
        return Err(eyre!(
            "solve works on movement phases: the equations of DATC 5.B are those of movement; \
             this scenario is a {} phase",
            s.phase
        ));
    }
    let rules = rules.unwrap_or(s.rules);
    let orders: Vec<(PowerId, Order)> = s
        .orders
        .iter()
        .map(|e| (e.power, e.order.clone()))
        .collect();
    let limits = Limits {
        steps,
        ..Limits::default()
    };
    let oracle = match solve(&s.map, &s.units, &orders, &rules, limits) {
        Ok(o) => o,
        Err(e) => return Ok(Err(e)),
    };
    let resolver = adjudicate_movement(&s.map, &s.units, &orders, &rules);
    Ok(Ok(Solved {
        rules,
        orders,
        oracle,
        resolver,
    }))
}

/// The unit's order in short form (`A Bre - Lon`), or the unit when it has none.
fn unit_label(s: &Scenario, solved: &Solved, u: usize) -> String {
    match solved.oracle.source.get(u).copied().flatten() {
        Some(i) => {
            let mut o = solved.orders[i].1.clone();
            o.power = None;
            format_order(&s.map, &o, NameStyle::Abbr)
        }
        None => s
            .units
            .get(u)
            .map(|unit| format!("{} {}", unit.kind.letter(), s.map.loc_abbr(unit.loc)))
            .unwrap_or_default(),
    }
}

fn value_word(kind: NodeKind, v: Option<i32>) -> String {
    match v {
        Some(v) => value_text(kind, v, v),
        None => "?".into(),
    }
}

/// A decision with its value in each solution shown.
struct Row {
    kind: NodeKind,
    unit: usize,
    values: Vec<Option<i32>>,
}

/// The decisions (derived ones included) whose values differ between the given solutions.
fn differing(solutions: &[Vec<UnitValues>]) -> Vec<Row> {
    let Some(first) = solutions.first() else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    for u in 0..first.len() {
        for (slot, (kind, _)) in first[u].entries().iter().enumerate() {
            let values: Vec<Option<i32>> = solutions
                .iter()
                .map(|sol| sol[u].entries()[slot].1)
                .collect();
            if values.iter().any(|v| *v != values[0]) {
                rows.push(Row {
                    kind: *kind,
                    unit: u,
                    values,
                });
            }
        }
    }
    rows
}

fn backup_names(r: &MovementResult) -> Vec<&'static str> {
    let names: BTreeSet<&'static str> = r
        .outcomes
        .iter()
        .filter_map(|o| o.backup.map(|b| b.name()))
        .collect();
    names.into_iter().collect()
}

fn count_text(n: u128) -> String {
    match n {
        0 => "0 solutions".into(),
        1 => "1 solution".into(),
        n => format!("{n} solutions"),
    }
}

/// `solve FILE`: the count, the decisions that tell the solutions apart (or, where there is
/// none, the decisions on the cycles that have none), and the resolver against DATC 5.B.9.
pub fn solve_text(s: &Scenario, rules: Option<Rules>, steps: u64) -> Result<ExitCode> {
    let solved = match solve_scenario(s, rules, steps)? {
        Ok(x) => x,
        Err(e) => {
            errln!("solve: {e}; raise --limit to search further");
            return Ok(ExitCode::from(TOO_LARGE));
        }
    };
    let o = &solved.oracle;
    let label = |u: usize| unit_label(s, &solved, u);
    let cyclic: usize = o.groups.iter().map(|g| g.cyclic.len()).sum();
    let rules_text = match solved.rules.preset_name() {
        Some(p) => format!("the {p} preset"),
        None => solved.rules.name(", "),
    };
    outln!(
        "{} — rules: {rules_text}",
        dipsandbox_core::base::text::one_line(&s.title)
    )?;
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    outln!(
        "The equations of DATC 5.B: {} ({} on dependency cycles) in {}; {}.\n",
        plural(o.decisions.len(), "yes/no decision", "yes/no decisions"),
        cyclic,
        plural(o.groups.len(), "independent group", "independent groups"),
        plural(o.steps as usize, "guess", "guesses"),
    )?;
    match o.count {
        1 => outln!("1 solution: the equations alone decide every order."),
        0 => {
            outln!("0 solutions: no assignment satisfies the equations; a backup rule must decide.")
        }
        n => outln!(
            "{}: the equations do not decide; a backup rule must decide.",
            count_text(n)
        ),
    }?;
    if let Some(values) = o.unique() {
        outln!()?;
        for (u, v) in values.iter().enumerate() {
            let parts: Vec<String> = v
                .entries()
                .iter()
                .filter(|(_, x)| x.is_some())
                .map(|(k, x)| format!("{} {}", k.name(), value_word(*k, *x)))
                .collect();
            outln!("  {:<28} {}", label(u), parts.join(", "))?;
        }
    }
    for (g, group) in o.undecided() {
        outln!()?;
        if group.count == 0 {
            outln!(
                "  No solution for these {} decisions on a cycle:",
                group.cyclic.len()
            )?;
            for &d in &group.cyclic {
                let dec = o.decisions[d as usize];
                outln!("    {:<10} {}", dec.kind.name(), label(dec.unit))?;
            }
            continue;
        }
        let sols = o.group_values(g);
        let shown = &sols[..sols.len().min(COLUMNS)];
        let rows = differing(shown);
        let more = if group.count as usize > shown.len() {
            format!(" (the first {} of {})", shown.len(), group.count)
        } else {
            String::new()
        };
        outln!(
            "  {} for this group; the decisions that differ{more}:",
            count_text(u128::from(group.count))
        )?;
        let mut head = format!("    {:<18} {:<28}", "", "");
        for k in 0..shown.len() {
            head.push_str(&format!(" {:<10}", format!("#{}", k + 1)));
        }
        outln!("{}", head.trim_end())?;
        for row in &rows {
            let mut line = format!("    {:<18} {:<28}", row.kind.name(), label(row.unit));
            for v in &row.values {
                line.push_str(&format!(" {:<10}", value_word(row.kind, *v)));
            }
            outln!("{}", line.trim_end())?;
        }
    }
    outln!()?;
    let r = &solved.resolver;
    let verdict = o.judge(r);
    match &verdict {
        Agreement::TakesTheSolution => {
            outln!("Resolver: takes this solution, with no backup rule (as DATC 5.B.9 asks).")
        }
        Agreement::BackupDecides => outln!(
            "Resolver: the backup rule decides ({}), as DATC 5.B.9 asks.",
            backup_names(r).join(", ")
        ),
        Agreement::Differs(diffs) => {
            outln!("Resolver DISAGREES with the only solution:")?;
            for d in diffs {
                outln!(
                    "  {} [{}]: equations {}, resolver {}",
                    d.kind.name(),
                    label(d.unit),
                    value_word(d.kind, d.oracle),
                    value_word(d.kind, d.resolver)
                )?;
            }
            Ok(())
        }
        Agreement::NeedlessBackup => outln!(
            "Resolver DISAGREES: it applied a backup rule ({}) where the equations have one solution.",
            backup_names(r).join(", ")
        ),
        Agreement::MissingBackup => outln!(
            "Resolver DISAGREES: it applied no backup rule where the equations have {}.",
            count_text(o.count)
        ),
    }?;
    Ok(if verdict.is_agreement() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(DISAGREES)
    })
}

fn row_json(s: &Scenario, solved: &Solved, kind: NodeKind, unit: usize, values: Value) -> Value {
    json!({
        "decision": kind.name(),
        "unit": unit_label(s, solved, unit),
        "values": values,
    })
}

/// `solve --json`: schema `dipsandbox.solve/1` (docs/json.md).
pub fn solve_json(s: &Scenario, rules: Option<Rules>, steps: u64) -> Result<ExitCode> {
    let solved = match solve_scenario(s, rules, steps)? {
        Ok(x) => x,
        Err(e) => {
            let doc = json!({
                "schema": "dipsandbox.solve/1",
                "title": s.title,
                "too_large": e.to_string(),
            });
            super::out::json(&doc)?;
            return Ok(ExitCode::from(TOO_LARGE));
        }
    };
    let o = &solved.oracle;
    let words = |kind: NodeKind, vs: &[Option<i32>]| -> Value {
        vs.iter()
            .map(|v| Value::String(value_word(kind, *v)))
            .collect()
    };
    let solution = o.unique().map(|values| {
        let mut rows = Vec::new();
        for (u, v) in values.iter().enumerate() {
            for (kind, x) in v.entries() {
                if x.is_some() {
                    rows.push(row_json(s, &solved, kind, u, words(kind, &[x])));
                }
            }
        }
        rows
    });
    let groups: Vec<Value> = o
        .undecided()
        .map(|(g, group)| {
            let sols = o.group_values(g);
            let differing: Vec<Value> = differing(&sols)
                .iter()
                .map(|row| row_json(s, &solved, row.kind, row.unit, words(row.kind, &row.values)))
                .collect();
            let cycle: Vec<Value> = group
                .cyclic
                .iter()
                .map(|&d| {
                    let dec = o.decisions[d as usize];
                    json!({ "decision": dec.kind.name(), "unit": unit_label(s, &solved, dec.unit) })
                })
                .collect();
            json!({
                "count": group.count,
                "kept": group.solutions.len(),
                "cycle": cycle,
                "differing": differing,
            })
        })
        .collect();
    let verdict = o.judge(&solved.resolver);
    let disagreements: Vec<Value> = match &verdict {
        Agreement::Differs(diffs) => diffs
            .iter()
            .map(|d| {
                json!({
                    "decision": d.kind.name(),
                    "unit": unit_label(s, &solved, d.unit),
                    "equations": value_word(d.kind, d.oracle),
                    "resolver": value_word(d.kind, d.resolver),
                })
            })
            .collect(),
        _ => Vec::new(),
    };
    let rules_obj: serde_json::Map<String, Value> = solved
        .rules
        .overrides()
        .into_iter()
        .map(|(k, v)| (k.to_string(), Value::String(v)))
        .collect();
    let ok = verdict.is_agreement();
    let agreement = match verdict {
        Agreement::TakesTheSolution => "takes_the_solution",
        Agreement::BackupDecides => "backup_decides",
        Agreement::Differs(_) => "differs",
        Agreement::NeedlessBackup => "needless_backup",
        Agreement::MissingBackup => "missing_backup",
    };
    let doc = json!({
        "schema": "dipsandbox.solve/1",
        "title": s.title,
        "source": s.source,
        "phase": s.phase.to_string(),
        "rules": { "preset": solved.rules.preset_name(), "overrides": rules_obj },
        "solutions": u64::try_from(o.count).unwrap_or(u64::MAX),
        "decisions": o.decisions.len(),
        "guesses": o.steps,
        "solution": solution,
        "groups": groups,
        "resolver": {
            "agreement": agreement,
            "backup_rules": backup_names(&solved.resolver),
            "disagreements": disagreements,
        },
    });
    super::out::json(&doc)?;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(DISAGREES)
    })
}
