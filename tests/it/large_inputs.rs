//! Paths that were quadratic on huge synthetic positions. Each test runs the
//! hostile input at (or near) the size first measured, in the debug build: before the fix
//! each took minutes to hours there, so the size itself is what would hang the suite. No test
//! asserts a time; each checks that the result is right. The figures are in docs/limits.md.
//!
//! The full sizes are the slow tier (`cargo test --test it -- --ignored`, which CI runs after
//! `cargo test`): each is also run by a default-tier test on a small board of the same shape,
//! with the same assertions, so that the default run checks every behaviour and the slow tier
//! the size.

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::dipsandbox;

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("r2-perf-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.to_str().expect("utf-8 path").to_string()
}

/// A map file of inland provinces, each with its army borders, and three powers.
pub(crate) fn map_ron(provinces: &[(String, Vec<String>)]) -> String {
    let mut s = String::from("Map(name: \"synthetic\", title: \"Synthetic\", powers: [\n");
    for (name, adj) in [("Alpha", "Alphan"), ("Beta", "Betan"), ("Gamma", "Gamman")] {
        let _ = writeln!(
            s,
            "  Power(name: \"{name}\", adjective: \"{adj}\", home: [], start: []),"
        );
    }
    s.push_str("], provinces: [\n");
    for (abbr, army) in provinces {
        let list: Vec<String> = army.iter().map(|a| format!("\"{a}\"")).collect();
        let _ = writeln!(
            s,
            "  Province(abbr: \"{abbr}\", name: \"Province {abbr}\", kind: Land, supply_center: false, army: [{}]),",
            list.join(", ")
        );
    }
    s.push_str("])\n");
    s
}

/// A ring of `n` provinces `p0`..`p{n-1}`.
pub(crate) fn ring(n: usize) -> Vec<(String, Vec<String>)> {
    (0..n)
        .map(|i| {
            (
                format!("p{i}"),
                vec![format!("p{}", (i + n - 1) % n), format!("p{}", (i + 1) % n)],
            )
        })
        .collect()
}

/// A star: a hub `h` bordering `n` leaves `l0`..`l{n-1}`, each bordering only the hub.
fn star(n: usize) -> Vec<(String, Vec<String>)> {
    std::iter::once(("h".to_string(), (0..n).map(|i| format!("l{i}")).collect()))
        .chain((0..n).map(|i| (format!("l{i}"), vec!["h".to_string()])))
        .collect()
}

/// A scenario on `map` with units and orders per power (the texts as written), and `more`
/// fields (such as `expect: (…)`).
pub(crate) fn scenario_ron(
    title: &str,
    map: &str,
    units: &[(&str, Vec<String>)],
    orders: &[(&str, Vec<String>)],
    more: &str,
) -> String {
    let block = |lists: &[(&str, Vec<String>)]| {
        lists
            .iter()
            .map(|(p, v)| {
                let items: Vec<String> = v.iter().map(|x| format!("\"{x}\"")).collect();
                format!("\"{p}\": [{}]", items.join(", "))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Scenario(title: \"{title}\", map: \"{map}\", phase: \"Spring 1901 Movement\", units: {{{}}}, orders: {{{}}}{more})\n",
        block(units),
        block(orders)
    )
}

/// `diff` without `--rules` on a 10,000-unit ring (every army moving on), one order of which
/// names its army as a fleet: the deciders are computed from one run of the scenario's own
/// rules and one of each other option value, and the two results compared by sorting, not by
/// searching one list for each unit of the other (which made it 10,000² per option value; the
/// issue measured 9 s for 15,000 units in the release build).
/// Under `wrong_unit_type=Invalid` the misnamed order is invalid, its army holds and the whole
/// ring stands: 10,000 verdicts change (the positions do not: a ring that moves one step on
/// leaves an army in every province).
/// Slow tier (its size is what it guards); `diff_deciders_on_a_small_ring` runs the same on 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn diff_deciders_on_a_10000_unit_ring() {
    diff_deciders(10_000, "diff");
}

#[test]
fn diff_deciders_on_a_small_ring() {
    diff_deciders(100, "diff-small");
}

fn diff_deciders(n: usize, name: &str) {
    let d = dir(name);
    write(&d, "ring.map.ron", &map_ron(&ring(n)));
    let units: Vec<String> = (0..n).map(|i| format!("A p{i}")).collect();
    let orders: Vec<String> = (0..n)
        .map(|i| {
            let letter = if i == 0 { "F" } else { "A" };
            format!("{letter} p{i} - p{}", (i + 1) % n)
        })
        .collect();
    let f = write(
        &d,
        "ring.ron",
        &scenario_ron(
            "ring",
            "ring.map.ron",
            &[("Alpha", units)],
            &[("Alpha", orders)],
            "",
        ),
    );
    let (code, out, err) = dipsandbox(&["diff", &f]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        out.trim_end(),
        format!("ring: wrong_unit_type=Invalid ({n})"),
        "{err}"
    );
}

/// `diff --all-presets` on the same ring: each preset adjudicated once, and the table has a row
/// per order.
/// Slow tier (its size is what it guards); `diff_all_presets_on_a_small_ring` runs the same on
/// 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn diff_all_presets_on_a_15000_unit_ring() {
    diff_all_presets(15_000, "presets");
}

#[test]
fn diff_all_presets_on_a_small_ring() {
    diff_all_presets(100, "presets-small");
}

fn diff_all_presets(n: usize, name: &str) {
    let d = dir(name);
    write(&d, "ring.map.ron", &map_ron(&ring(n)));
    let units: Vec<String> = (0..n).map(|i| format!("A p{i}")).collect();
    let orders: Vec<String> = (0..n)
        .map(|i| format!("A p{i} - p{}", (i + 1) % n))
        .collect();
    let f = write(
        &d,
        "ring.ron",
        &scenario_ron(
            "ring",
            "ring.map.ron",
            &[("Alpha", units)],
            &[("Alpha", orders)],
            "",
        ),
    );
    let (code, out, err) = dipsandbox(&["diff", &f, "--all-presets"]);
    assert_eq!(code, 0, "{err}");
    let rows = out
        .lines()
        .filter(|l| l.contains(": A P") && l.contains("succeeds"))
        .count();
    assert_eq!(rows, n, "{}", &out[..out.len().min(2000)]);
    assert!(!out.contains("differs"));
}

/// A map with a province of 60,000 neighbours loads (the symmetry check looked each border up
/// in the other side's whole list: 60,000² steps), and one missing border among them is still
/// reported, naming both provinces.
/// Slow tier (its size is what it guards); `a_province_of_600_neighbours` runs the same on 600.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_province_of_60000_neighbours() {
    province_of_neighbours(60_000, "star");
}

#[test]
fn a_province_of_600_neighbours() {
    province_of_neighbours(600, "star-small");
}

/// A hub of `n` leaves; the leaves the orders and the broken border name are at the same
/// fractions of the star whatever its size (l12345 and l40000 of 60,000).
fn province_of_neighbours(n: usize, name: &str) {
    let d = dir(name);
    let (to, last, before_last) = (n * 12_345 / 60_000, n - 1, n - 2);
    let missing = n / 3 * 2;
    write(&d, "star.map.ron", &map_ron(&star(n)));
    let f = write(
        &d,
        "star.ron",
        &scenario_ron(
            "star",
            "star.map.ron",
            &[
                ("Alpha", vec!["A h".into()]),
                ("Beta", vec![format!("A l{last}")]),
            ],
            &[
                ("Alpha", vec![format!("A h - l{to}")]),
                ("Beta", vec![format!("A l{last} - l{before_last}")]),
            ],
            &format!(
                ", expect: (results: [(\"A h - l{to}\", Succeeds), (\"A l{last} - l{before_last}\", Illegal)])"
            ),
        ),
    );
    let (code, out, err) = dipsandbox(&["check", &f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");

    // The same map with one leaf that does not list the hub back.
    let mut broken = star(n);
    broken[missing + 1].1.clear();
    let e = dipsandbox_core::model::map::Map::from_ron(&map_ron(&broken), "broken.ron")
        .expect_err("refused");
    let text = e.to_string();
    assert!(
        text.contains(&format!(
            "army border \"h\"–\"l{missing}\" is listed by \"h\" but not by \"l{missing}\""
        )),
        "{text}"
    );
}

/// The DPjudge engine on a chain of 59,000 moves whose head bounces: each pass of step 7
/// bounced one more unit of the chain and then looked at every space again (59,000 passes over
/// 59,000 spaces: 15 s in release). Steps 7 and 8 now look only at the spaces that changed;
/// the passes, and so the trace, are the text's as before. Every move fails, each in step 7
/// against the unit behind it, and one province is left contested.
/// Slow tier (its size is what it guards); `the_dpjudge_engine_on_a_590_unit_chain` runs the
/// same on 590.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_dpjudge_engine_on_a_59000_unit_chain() {
    dpjudge_chain(59_000);
}

#[test]
fn the_dpjudge_engine_on_a_590_unit_chain() {
    dpjudge_chain(590);
}

fn dpjudge_chain(n: usize) {
    use dipsandbox_core::engine::Verdict;
    use dipsandbox_core::engine::dpjudge::Mark;
    use dipsandbox_core::model::rules::Rules;
    use dipsandbox_core::tools::synth::{Pattern, position};

    let s = position(Pattern::ChainBounce, n, 1).expect("chain");
    let r = dipsandbox_core::engine::dpjudge::adjudicate(
        &s.map,
        &s.units,
        &s.orders,
        &Rules::default(),
        false,
    );
    assert_eq!(r.outcomes.len(), n);
    assert!(r.outcomes.iter().all(|o| o.verdict == Verdict::Fails));
    assert!(r.marks.iter().all(|m| m.contains(Mark::Bounce)));
    assert_eq!(r.final_units, s.units, "nothing moves");
    assert_eq!(r.contested.len(), 1, "one standoff");
    // The head and the army coming the other way tie; each unit behind then bounces on the
    // bounced unit in front of it, in the pass after.
    assert_eq!(
        r.outcomes[n - 2].reason,
        format!(
            "bounced in step 7: support count 0 is not greater than 0 of A P{n} - P{}",
            n - 1
        )
    );
    assert_eq!(
        r.outcomes[0].reason,
        "bounced in step 7: support count 0 is not greater than 0 of A P1 - P2"
    );
}

/// 10,000 armies moving into one province, one of them supported twice, against a unit that
/// holds there (1.2 GB and 8 s in release: every MOVE read every other mover's PREVENT
/// STRENGTH through an edge of its own, 10,000² edges, each MOVE evaluated over all of them).
/// The supported army dislodges the holder, every other move fails against its prevent
/// strength, through `check` (with expectations), `explain` and `solve`.
/// Slow tier (its size is what it guards); `a_hundred_armies_into_one_province` runs the same on
/// 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn ten_thousand_armies_into_one_province() {
    armies_into_one_province(10_000, "standoff");
}

#[test]
fn a_hundred_armies_into_one_province() {
    armies_into_one_province(100, "standoff-small");
}

fn armies_into_one_province(n: usize, name: &str) {
    let d = dir(name);
    write(&d, "star.map.ron", &map_ron(&star(n)));
    let mut alpha = vec!["A l0".to_string(), "A l1".into(), "A l2".into()];
    let mut alpha_orders = vec![
        "A l0 - h".to_string(),
        "A l1 S A l0 - h".into(),
        "A l2 S A l0 - h".into(),
    ];
    let (mut beta, mut beta_orders) = (Vec::new(), Vec::new());
    for i in 3..n {
        let (u, o) = if i % 2 == 0 {
            (&mut alpha, &mut alpha_orders)
        } else {
            (&mut beta, &mut beta_orders)
        };
        u.push(format!("A l{i}"));
        o.push(format!("A l{i} - h"));
    }
    let mut results = vec![
        "(\"A l0 - h\", Succeeds)".to_string(),
        "(\"A l1 S A l0 - h\", Succeeds)".into(),
        "(\"A l2 S A l0 - h\", Succeeds)".into(),
        "(\"A h H\", Fails)".into(),
    ];
    results.extend((3..n).map(|i| format!("(\"A l{i} - h\", Fails)")));
    let f = write(
        &d,
        "standoff.ron",
        &scenario_ron(
            "standoff",
            "star.map.ron",
            &[
                ("Alpha", alpha),
                ("Beta", beta),
                ("Gamma", vec!["A h".into()]),
            ],
            &[
                ("Alpha", alpha_orders),
                ("Beta", beta_orders),
                ("Gamma", vec!["A h H".into()]),
            ],
            &format!(
                ", expect: (results: [{}], dislodged: [\"A h\"])",
                results.join(", ")
            ),
        ),
    );
    let (code, out, err) = dipsandbox(&["check", &f]);
    assert_eq!(code, 0, "{}{err}", &out[..out.len().min(3000)]);
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");

    let (code, out, err) = dipsandbox(&["explain", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("A l0 - h         moves, attack 3 beats hold 1 of A H H")
            && out.contains(&format!(
                "{:<17}attack 1 does not beat hold 1 of A H H",
                format!("A l{} - h", n - 1)
            )),
        "{}",
        &out[..out.len().min(3000)]
    );
    let (code, out, err) = dipsandbox(&["solve", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("1 solution: the equations alone decide every order."),
        "{}",
        &out[..out.len().min(3000)]
    );

    // The library, on the synthetic standoff: every move bounces, the hub is contested, and the
    // decision graph lists for each MOVE its strongest rival, not the 9,999 others.
    let s = dipsandbox_core::tools::synth::standoff(n).expect("standoff");
    let r = dipsandbox_core::engine::adjudicate_movement(
        &s.map,
        &s.units,
        &s.orders,
        &dipsandbox_core::model::rules::Rules::default(),
    );
    assert!(
        r.outcomes
            .iter()
            .all(|o| o.verdict == dipsandbox_core::engine::Verdict::Fails)
    );
    assert_eq!(
        r.outcomes[n - 1].reason,
        "attack 1 does not beat prevent 1 of A L0 - H"
    );
    assert_eq!(r.contested.len(), 1);
    let edges: usize = r.graph.deps.iter().map(Vec::len).sum();
    assert!(edges < 10 * n, "{edges} edges");
}

/// 10,000 dislodged armies all retreating to one province (a hub bordering every leaf of a
/// ring): each reason named every other retreat, and each retreat looked for its rivals among
/// all the others (3.6 GB and 64 s for `check`). The reason now names five rivals and counts
/// the rest; all of them bounce and are disbanded.
/// Slow tier (its size is what it guards); `a_hundred_retreats_to_one_province` runs the same on
/// 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn ten_thousand_retreats_to_one_province() {
    retreats_to_one_province(10_000, "retreats");
}

#[test]
fn a_hundred_retreats_to_one_province() {
    retreats_to_one_province(100, "retreats-small");
}

fn retreats_to_one_province(n: usize, name: &str) {
    let d = dir(name);
    // The orders' column: as wide as the longest order and two spaces.
    let width = format!("A l{} - h", n - 1).len() + 2;
    let mut wheel = vec![("h".to_string(), (0..n).map(|i| format!("l{i}")).collect())];
    wheel.extend((0..n).map(|i| {
        (
            format!("l{i}"),
            vec![
                "h".to_string(),
                format!("l{}", (i + n - 1) % n),
                format!("l{}", (i + 1) % n),
            ],
        )
    }));
    write(&d, "wheel.map.ron", &map_ron(&wheel));
    let q = |v: Vec<String>| v.join(", ");
    let units = q((0..n).map(|i| format!("\"A l{i}\"")).collect());
    let dislodged = q((0..n)
        .map(|i| format!("Dislodged(unit: \"A l{i}\", from: \"l{}\")", (i + 1) % n))
        .collect());
    let orders = q((0..n).map(|i| format!("\"A l{i} - h\"")).collect());
    let f = write(
        &d,
        "retreats.ron",
        &format!(
            "Scenario(title: \"retreats\", map: \"wheel.map.ron\", phase: \"Spring 1901 Retreat\", \
             units: {{\"Alpha\": [{units}]}}, dislodged: {{\"Beta\": [{dislodged}]}}, \
             orders: {{\"Beta\": [{orders}]}})"
        ),
    );
    let (code, out, err) = dipsandbox(&["check", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
    let (code, out, err) = dipsandbox(&["explain", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "{:<width$}bounces with A L1 - H, A L2 - H, A L3 - H, A L4 - H, A L5 - H and {} others: disbanded",
            "A l0 - h",
            n - 6
        )),
        "{}",
        &out[..out.len().min(3000)]
    );
    assert!(
        out.contains(&format!(
            "{:<width$}bounces with A L0 - H, A L1 - H, A L2 - H, A L3 - H, A L4 - H and {} others: disbanded",
            format!("A l{} - h", n - 1),
            n - 6
        )),
        "{}",
        &out[out.len().saturating_sub(3000)..]
    );
    assert!(out.len() < 400 * n, "{} bytes", out.len());
}

/// `explain --dot` of a 20,000-unit ring: the decisions of each unit were searched among all
/// decisions once per unit (60,000 × 20,000 steps; a 60,000-unit ring took 50 s). One cluster
/// per unit, every edge drawn.
/// Slow tier (its size is what it guards); `the_decision_graph_of_a_200_unit_ring_as_dot` runs
/// the same on 200.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_decision_graph_of_a_20000_unit_ring_as_dot() {
    decision_graph_as_dot(20_000, "dot");
}

#[test]
fn the_decision_graph_of_a_200_unit_ring_as_dot() {
    decision_graph_as_dot(200, "dot-small");
}

fn decision_graph_as_dot(n: usize, name: &str) {
    let d = dir(name);
    write(&d, "ring.map.ron", &map_ron(&ring(n)));
    let units: Vec<String> = (0..n).map(|i| format!("A p{i}")).collect();
    let orders: Vec<String> = (0..n)
        .map(|i| format!("A p{i} - p{}", (i + 1) % n))
        .collect();
    let f = write(
        &d,
        "ring.ron",
        &scenario_ron(
            "ring",
            "ring.map.ron",
            &[("Alpha", units)],
            &[("Alpha", orders)],
            "",
        ),
    );
    let dot = d.join("ring.dot");
    let (code, _, err) = dipsandbox(&["explain", &f, "--dot", dot.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&dot).expect("dot written");
    assert_eq!(text.matches("subgraph cluster_u").count(), n);
    assert!(text.contains(&format!("subgraph cluster_u{} {{", n - 1)));
    // The circular movement is drawn as one cycle through every MOVE.
    assert!(text.matches("color=darkgreen, penwidth=2").count() >= n);
}

/// The invariant checker on positions of tens of thousands of units: 10,000 dislodgements (each
/// dislodged unit's options were checked against a position rebuilt for it), 10,000 standoffs
/// (each checked against every unit), and the turn that follows (each province's owner against
/// every unit). Every invariant holds.
/// Slow tier (its size is what it guards); `the_invariant_checker_on_100_dislodgements_and_standoffs`
/// runs the same on 100.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_invariant_checker_on_10000_dislodgements_and_standoffs() {
    invariant_checker(10_000, "invariants");
}

#[test]
fn the_invariant_checker_on_100_dislodgements_and_standoffs() {
    invariant_checker(100, "invariants-small");
}

fn invariant_checker(m: usize, dir_name: &str) {
    use dipsandbox_core::model::scenario::Scenario;
    use dipsandbox_core::tools::invariants::{check_scenario, report};

    let d = dir(dir_name);
    write(&d, "ring.map.ron", &map_ron(&ring(3 * m)));
    // Each triple: a supported attack that dislodges (ladder), or two moves that bounce into
    // the middle province (standoffs).
    let (mut a, mut ao, mut b, mut bo) = (vec![], vec![], vec![], vec![]);
    let (mut c, mut co, mut e, mut eo) = (vec![], vec![], vec![], vec![]);
    for i in 0..m {
        let (x, y, z) = (3 * i, 3 * i + 1, 3 * i + 2);
        a.extend([format!("A p{x}"), format!("A p{z}")]);
        ao.extend([format!("A p{x} - p{y}"), format!("A p{z} S A p{x} - p{y}")]);
        b.push(format!("A p{y}"));
        bo.push(format!("A p{y} H"));
        c.push(format!("A p{x}"));
        co.push(format!("A p{x} - p{y}"));
        e.push(format!("A p{z}"));
        eo.push(format!("A p{z} - p{y}"));
    }
    for (name, units, orders) in [
        (
            "ladder",
            [("Alpha", a), ("Beta", b)],
            [("Alpha", ao), ("Beta", bo)],
        ),
        (
            "standoffs",
            [("Alpha", c), ("Beta", e)],
            [("Alpha", co), ("Beta", eo)],
        ),
    ] {
        let f = write(
            &d,
            &format!("{name}.ron"),
            &scenario_ron(name, "ring.map.ron", &units, &orders, ""),
        );
        let s = Scenario::load(Path::new(&f)).expect("loads");
        let v = check_scenario(&s, &s.rules, 7);
        assert!(v.is_empty(), "{name}: {}", report(&v));
        let r = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
        let (dislodged, contested) = (r.phase().dislodged.len(), r.phase().contested.len());
        assert_eq!(
            (name, dislodged, contested),
            match name {
                "ladder" => (name, m, 0),
                _ => (name, 0, m),
            }
        );
    }
}

/// `check` of a 30,000-unit ring whose expected positions are all wrong (the armies expected
/// under another power): the units missing and present were each searched for in the other
/// list (30,000² steps; 60,000 units took 4.5 s in release). Both are listed, sorted.
/// Slow tier (its size is what it guards); `check_names_300_wrong_positions` runs the same on 300.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn check_names_30000_wrong_positions() {
    wrong_positions(30_000, "positions");
}

#[test]
fn check_names_300_wrong_positions() {
    wrong_positions(300, "positions-small");
}

fn wrong_positions(n: usize, name: &str) {
    let d = dir(name);
    write(&d, "ring.map.ron", &map_ron(&ring(n)));
    let units: Vec<String> = (0..n).map(|i| format!("A p{i}")).collect();
    let orders: Vec<String> = (0..n)
        .map(|i| format!("A p{i} - p{}", (i + 1) % n))
        .collect();
    let expected: Vec<String> = (0..n).map(|i| format!("\"A p{i}\"")).collect();
    let f = write(
        &d,
        "ring.ron",
        &scenario_ron(
            "ring",
            "ring.map.ron",
            &[("Alpha", units)],
            &[("Alpha", orders)],
            &format!(
                ", expect: (positions: {{\"Beta\": [{}]}})",
                expected.join(", ")
            ),
        ),
    );
    let (code, out, err) = dipsandbox(&["check", &f]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.ends_with("0 passed, 1 failed\n"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
    let line = out
        .lines()
        .find(|l| l.contains("positions: expected but missing: "))
        .expect("the positions line");
    let (missing, present) = line
        .split_once("; present but not expected: ")
        .expect("both lists");
    assert_eq!(missing.matches("Betan A Province p").count(), n);
    assert_eq!(present.matches("Alphan A Province p").count(), n);
    assert!(missing.contains("Betan A Province p0, Betan A Province p1, Betan A Province p10,"));
}

/// A DPjudge-style `.map` file of a grid of `n` provinces, with everything the
/// importer once looked up by scanning a list: a name line per province (with aliases), a
/// power per 500 provinces (3 to 200) with a fifth of the provinces as homes and a unit in
/// each, unowned centres, provinces with two coasts, an `AMEND` (a border added and taken out
/// again) for every third province, and places, powers and units defined and then removed
/// (`DROP`, `UNPLAYED`, `UNITS`) a tenth of `n` times each.
pub(crate) struct DpMap {
    pub text: String,
    /// The grid's width.
    pub w: usize,
    pub n: usize,
    pub powers: usize,
    pub seas: usize,
    pub inland: usize,
    pub coastal: usize,
    pub centres: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum DpTerrain {
    Water,
    Land,
    Coast,
}

impl DpMap {
    fn terrain(i: usize) -> DpTerrain {
        if i % 7 == 3 {
            DpTerrain::Water
        } else if i % 11 == 5 {
            DpTerrain::Land
        } else {
            DpTerrain::Coast
        }
    }

    /// Provinces with a north and a south coast (`p20`, `p70`, … when on the coast).
    fn two_coasts(i: usize) -> bool {
        i % 50 == 20 && Self::terrain(i) == DpTerrain::Coast
    }

    /// The grid neighbours of `i`, with the side they are on (`N`, `S`, `W`, `E`).
    fn neighbours(&self, i: usize) -> Vec<(usize, char)> {
        let (r, c) = (i / self.w, i % self.w);
        let mut out = Vec::new();
        if r > 0 {
            out.push((i - self.w, 'N'));
        }
        if i + self.w < self.n {
            out.push((i + self.w, 'S'));
        }
        if c > 0 {
            out.push((i - 1, 'W'));
        }
        if c + 1 < self.w && i + 1 < self.n {
            out.push((i + 1, 'E'));
        }
        out
    }

    /// How a province that is not of two coasts writes its border with `j` (on side `side`):
    /// `P7` for armies and fleets, a coast for fleets (`P20/NC`, its army border included),
    /// `p20` for armies only beside a province of two coasts.
    fn border(j: usize, side: char) -> String {
        match (Self::two_coasts(j), side) {
            (true, 'S') => format!("P{j}/NC"),
            (true, 'N') => format!("P{j}/SC"),
            (true, _) => format!("p{j}"),
            (false, _) => format!("P{j}"),
        }
    }

    pub fn new(n: usize) -> DpMap {
        let w = n.isqrt().max(2);
        let mut m = DpMap {
            text: String::new(),
            w,
            n,
            powers: (n / 500).clamp(3, 200),
            seas: 0,
            inland: 0,
            coastal: 0,
            centres: 0,
        };
        let mut s = String::from("BEGIN SPRING 1901 MOVEMENT\n");
        let homes: Vec<usize> = (0..n)
            .filter(|&i| Self::terrain(i) == DpTerrain::Coast && !Self::two_coasts(i))
            .collect();
        let per = (n / 5 / m.powers).max(1);
        let mut chunks = homes.chunks(per);
        for p in 0..m.powers {
            let mine = chunks.next().unwrap_or(&[]);
            let list: Vec<String> = mine.iter().map(|h| format!("P{h}")).collect();
            let _ = writeln!(s, "POWER{p} (POWER{p}IAN) {}", list.join(" "));
            // Units placed, cleared (`UNITS`) and placed again.
            for h in mine.iter().take(3) {
                let _ = writeln!(s, "F P{h}");
            }
            s.push_str("UNITS\n");
            for h in mine {
                let _ = writeln!(s, "A P{h}");
            }
            m.centres += mine.len();
        }
        let unowned = chunks.next().unwrap_or(&[]);
        let list: Vec<String> = unowned.iter().map(|h| format!("P{h}")).collect();
        let _ = writeln!(s, "UNOWNED {}", list.join(" "));
        m.centres += unowned.len();
        // Powers and places that come and go.
        for k in 0..n / 10 {
            let _ = writeln!(s, "EXTRA{k} (EXTRAN) Q{k}\nUNPLAYED EXTRA{k}");
        }
        for i in 0..n {
            let _ = writeln!(s, "Province {i} = p{i} prov{i} pr+{i}");
            if Self::two_coasts(i) {
                let _ = writeln!(s, "Province {i} (north coast) = p{i}/nc");
                let _ = writeln!(s, "Province {i} (south coast) = p{i}/sc");
            }
        }
        for k in 0..n / 10 {
            let _ = writeln!(s, "Gone {k} = q{k}\nLAND Q{k} ABUTS P0");
        }
        for i in 0..n {
            let ns = m.neighbours(i);
            if Self::two_coasts(i) {
                m.coastal += 1;
                let all: Vec<String> = ns.iter().map(|(j, _)| format!("p{j}")).collect();
                let _ = writeln!(s, "COAST p{i} ABUTS {}", all.join(" "));
                for (coast, side) in [("NC", 'N'), ("SC", 'S')] {
                    let list: Vec<String> = ns
                        .iter()
                        .filter(|&&(j, d)| d == side && Self::terrain(j) != DpTerrain::Land)
                        .map(|&(j, d)| Self::border(j, d))
                        .collect();
                    let _ = writeln!(s, "COAST P{i}/{coast} ABUTS {}", list.join(" "));
                }
                continue;
            }
            let kind = match Self::terrain(i) {
                DpTerrain::Water => {
                    m.seas += 1;
                    "WATER"
                }
                DpTerrain::Land => {
                    m.inland += 1;
                    "LAND"
                }
                DpTerrain::Coast => {
                    m.coastal += 1;
                    "COAST"
                }
            };
            let list: Vec<String> = ns.iter().map(|&(j, d)| Self::border(j, d)).collect();
            let _ = writeln!(s, "{kind} P{i} ABUTS {}", list.join(" "));
        }
        for i in (0..n).step_by(3).filter(|&i| !Self::two_coasts(i)) {
            let _ = writeln!(s, "AMEND P{i} ABUTS Z{i} -Z{i}");
        }
        for k in 0..n / 10 {
            let _ = writeln!(s, "DROP Q{k}");
        }
        m.text = s;
        m
    }

    /// The army borders the imported map should give province `i` (sorted as strings).
    pub fn army(&self, i: usize) -> Vec<String> {
        if Self::terrain(i) == DpTerrain::Water {
            return Vec::new();
        }
        let mut v: Vec<String> = self
            .neighbours(i)
            .into_iter()
            .filter(|&(j, _)| Self::terrain(j) != DpTerrain::Water)
            .map(|(j, _)| format!("p{j}"))
            .collect();
        v.sort();
        v
    }

    /// The fleet borders of province `i`'s place, or of its coast `N`/`S` (sorted).
    pub fn fleet(&self, i: usize, coast: Option<char>) -> Vec<String> {
        if Self::terrain(i) == DpTerrain::Land || (Self::two_coasts(i) && coast.is_none()) {
            return Vec::new();
        }
        let mut v: Vec<String> = self
            .neighbours(i)
            .into_iter()
            .filter(|&(j, d)| {
                Self::terrain(j) != DpTerrain::Land
                    && coast.is_none_or(|c| c == d)
                    && (coast.is_some() || !Self::two_coasts(j) || matches!(d, 'N' | 'S'))
            })
            .map(|(j, d)| Self::border(j, d).to_ascii_lowercase())
            .collect();
        v.sort();
        v
    }
}

/// `map import` of a DPjudge-style map of 100,000 provinces: once the importer looked up
/// each border's place, each province's name, coasts and main place, each unit's province and
/// each power by scanning whole lists (20,000 provinces took 7.8 s in release, 100,000 more
/// than 400 s). The written map has every province, power and centre, and a sample of
/// provinces has exactly the borders the generator gave them.
/// Slow tier (its size is what it guards); `map_import_of_2000_provinces` runs the same on 2,000.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn map_import_of_100000_provinces() {
    dpjudge_map_import(100_000, "dpmap");
}

#[test]
fn map_import_of_2000_provinces() {
    dpjudge_map_import(2_000, "dpmap-small");
}

fn dpjudge_map_import(n: usize, name: &str) {
    use dipsandbox_core::model::map::{ProvinceId, UnitKind};
    let d = dir(name);
    let m = DpMap::new(n);
    let src = write(&d, "big.map", &m.text);
    let out = d.join("big.ron");
    let o = out.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = dipsandbox(&["map", "import", &src, "-o", o]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "imported big from {src}: {n} provinces ({} sea, {} inland, {} coastal), {} supply centres, {} powers; 0 notes; written to {o}\n",
            m.seas, m.inland, m.coastal, m.centres, m.powers
        )
    );
    assert!(stderr.is_empty(), "{stderr}");
    let text = std::fs::read_to_string(&out).expect("written");
    let map = dipsandbox_core::model::map::Map::from_ron(&text, "big.ron").expect("loads");
    assert_eq!(map.province_count(), n);
    // Every power with its homes, each with its army (the `F` placed first were cleared).
    for (w, p) in map.power_ids().zip(0..) {
        let pw = map.power(w);
        assert_eq!(pw.name, format!("Power{p}"));
        assert_eq!(pw.start.len(), pw.home.len());
        assert!(pw.start.iter().all(|&(k, _)| k == UnitKind::Army));
    }
    let names = |v: &[ProvinceId]| -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|&q| map.province(q).abbr.clone()).collect();
        v.sort();
        v
    };
    // A sample across the grid, with the first provinces of two coasts and of water.
    // (p20 has two coasts, p21 and p20 + w border it on land and on its south coast.)
    let sample = (0..n)
        .step_by((n / 40).max(1))
        .chain([20, 21, 20 + m.w, 70, 3, 10, n - 1]);
    for i in sample {
        let p = map
            .find_province(&format!("p{i}"))
            .unwrap_or_else(|| panic!("p{i} is on the map"));
        assert_eq!(map.province(p).name, format!("Province {i}"));
        assert_eq!(
            names(map.army_neighbours(p)),
            m.army(i),
            "army borders of p{i}"
        );
        let locs: Vec<_> = map.locations_of(p).collect();
        let fleets = |l| {
            let mut v: Vec<String> = map
                .fleet_neighbours(l)
                .iter()
                .map(|&q| {
                    map.loc_abbr(q)
                        .to_ascii_lowercase()
                        .replace('(', "/")
                        .replace(')', "")
                })
                .collect();
            v.sort();
            v
        };
        if DpMap::two_coasts(i) {
            let got: Vec<Vec<String>> = locs.iter().skip(1).map(|&l| fleets(l)).collect();
            assert_eq!(
                got,
                vec![m.fleet(i, Some('N')), m.fleet(i, Some('S'))],
                "p{i}"
            );
        } else {
            assert_eq!(fleets(locs[0]), m.fleet(i, None), "fleet borders of p{i}");
        }
    }
    // The places dropped and the borders amended away are gone.
    assert!(map.find_province("q1").is_none());
    assert!(!text.contains("\"z3\""));
}

/// A map whose one power has 100,000 home centres, all listed as `unowned_homes` (twice): each
/// was looked for in the list of those already read (100,000²/2 steps; 3.3 s in release for
/// the map alone). Each is listed once, and none is owned at the start.
/// Slow tier (its size is what it guards); `unowned_homes_of_1000_centres` runs the same on 1,000.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn unowned_homes_of_100000_centres() {
    unowned_homes(100_000);
}

#[test]
fn unowned_homes_of_1000_centres() {
    unowned_homes(1_000);
}

fn unowned_homes(n: usize) {
    let list: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
    let list = list.join(", ");
    let mut s = format!(
        "Map(name: \"uh\", title: \"UH\", powers: [Power(name: \"Alpha\", adjective: \"Alphan\", home: [{list}], unowned_homes: [{list}, {list}], start: [])], provinces: [\n"
    );
    for (abbr, army) in ring(n) {
        let _ = writeln!(
            s,
            "  Province(abbr: \"{abbr}\", name: \"Province {abbr}\", kind: Land, supply_center: true, army: [\"{}\", \"{}\"]),",
            army[0], army[1]
        );
    }
    s.push_str("])\n");
    let map = dipsandbox_core::model::map::Map::from_ron(&s, "uh.ron").expect("loads");
    let alpha = map.power(map.find_power("Alpha").expect("Alpha"));
    assert_eq!(alpha.home.len(), n);
    assert_eq!(alpha.unowned_homes, alpha.home);
    assert!(map.start_owners().iter().all(Option::is_none));
}

/// `map import --svg` of a 20,000-province map with an SVG of 120,000 `PROVINCE` entries (issue
/// 38): each unit position computed its line and column by counting the lines from the start of
/// the SVG, for an error message it only needed on an error (quadratic in entries: 20,000 on the
/// standard map took 17 s in release), each province searched the whole list for its position,
/// and each `abbr` line every abbreviation (quadratic in provinces: 20,000 took 30 s). Every
/// province gets its point: its own, or for a province of two coasts the first coast's in
/// the file.
/// Slow tier (its size is what it guards); `map_import_with_an_svg_of_2500_entries` runs the
/// same on 500 provinces and 2,000 more entries.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn map_import_with_an_svg_of_120000_entries() {
    map_import_with_svg(20_000, 100_000, "svg");
}

#[test]
fn map_import_with_an_svg_of_2500_entries() {
    map_import_with_svg(500, 2_000, "svg-small");
}

/// Province `i`'s point in the SVG below (x, y) (whole numbers once rounded).
fn svg_point(i: usize) -> (usize, usize) {
    (i % 1000, i / 1000)
}

fn map_import_with_svg(n: usize, extra: usize, name: &str) {
    let d = dir(name);
    let m = DpMap::new(n);
    let src = write(&d, "big.map", &m.text);
    let mut svg = String::from("<svg xmlns:jdipNS=\"svg.dtd\">\n<jdipNS:PROVINCE_DATA>\n");
    let entry = |s: &mut String, name: &str, (x, y): (usize, usize)| {
        let _ = writeln!(
            s,
            "  <jdipNS:PROVINCE name=\"{name}\">\n    <jdipNS:UNIT x=\"{x}.25\" y=\"{y}.0\"/>\n    <jdipNS:DISLODGED_UNIT x=\"1\" y=\"2\"/>\n  </jdipNS:PROVINCE>"
        );
    };
    for k in 0..extra {
        entry(&mut svg, &format!("elsewhere{k}"), (k, k));
    }
    for i in 0..n {
        if DpMap::two_coasts(i) {
            // Placed by its coasts only: the first in the file is its point.
            entry(&mut svg, &format!("p{i}-sc"), svg_point(i));
            entry(&mut svg, &format!("p{i}-nc"), (0, 0));
        } else {
            entry(&mut svg, &format!("P{i}"), svg_point(i));
        }
    }
    svg.push_str("</jdipNS:PROVINCE_DATA></svg>\n");
    let svg_file = write(&d, "big.svg", &svg);
    let out = d.join("big.ron");
    let o = out.to_str().expect("utf-8 path");
    let (code, _, stderr) = dipsandbox(&["map", "import", &src, "--svg", &svg_file, "-o", o]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "{}", &stderr[..stderr.len().min(2000)]);
    let text = std::fs::read_to_string(&out).expect("written");
    let map = dipsandbox_core::model::map::Map::from_ron(&text, "big.ron").expect("loads");
    for i in 0..n {
        let p = map.find_province(&format!("p{i}")).expect("on the map");
        let (x, y) = svg_point(i);
        assert_eq!(map.position(p), Some((x as i32, y as i32)), "p{i}");
    }
}
