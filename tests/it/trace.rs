//! The resolver explains itself: Pandin's paradox (6.F.16) shows its decision cycle and the
//! Szykman rule; circular movement (6.C.1) the circular-movement rule; tracing changes nothing.

use std::path::Path;

use dipsandbox_core::engine::decision::graphviz::to_dot;
use dipsandbox_core::engine::decision::resolver::NodeKind;
use dipsandbox_core::engine::decision::trace::{BackupRule, CycleKind, Event};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::run;

fn load(p: &str) -> Scenario {
    Scenario::load(Path::new(p)).expect("loads")
}

#[test]
fn pandin_trace_shows_cycle_and_szykman() {
    let s = load("scenarios/datc/6.F.16.ron");
    let r = run(&s, None, true).expect("runs");
    let m = r.result.decisions().expect("movement");
    let events = m.trace.as_ref().expect("trace recorded");
    let cycle = events
        .iter()
        .find_map(|e| match e {
            Event::CycleFound { members, kind, .. } => Some((members.clone(), *kind)),
            _ => None,
        })
        .expect("a cycle is found");
    assert_eq!(cycle.1, CycleKind::ConvoyParadox);
    let kinds: Vec<NodeKind> = cycle
        .0
        .iter()
        .map(|id| m.graph.nodes[*id as usize].kind)
        .collect();
    // The paradox core: London's support, the convoyed army's attack and path, the channel fleet.
    for k in [
        NodeKind::Support,
        NodeKind::Attack,
        NodeKind::Path,
        NodeKind::Dislodge,
    ] {
        assert!(kinds.contains(&k), "cycle lacks {k:?}: {kinds:?}");
    }
    assert!(events.iter().any(|e| matches!(
        e,
        Event::BackupApplied {
            rule: BackupRule::Szykman,
            ..
        }
    )));
    // The trace text names the cycle, prints it in cycle order (each decision reads the next,
    // back to the first), and names the rule with the value it forced.
    let text = dipsandbox_core::io::report::trace(&s, m, &s.orders);
    assert!(
        text.contains("CYCLE (convoy paradox) of 6 open decisions, in order"),
        "{text}"
    );
    assert!(text.contains("→ PATH [A Bre - Lon]"), "{text}");
    assert_eq!(text.matches("\n        → ").count(), 6, "{text}");
    assert!(
        text.contains("BACKUP RULE: Szykman rule\n          forced PATH [A Bre - Lon] = no path"),
        "{text}"
    );
    // The PATH cites the cancelled convoy it relied on, not an input still open.
    assert!(
        text.contains(
            "forced PATH [A Bre - Lon] = no path   (the convoy of F English Channel is cancelled)"
        ),
        "{text}"
    );
    // The DOT: a cluster per unit, the paradox's members in the paradox colour, the cancelled
    // convoy marked, the forced PATH bold, and a legend.
    let dot = to_dot(
        m,
        &|id| m.node_label(&s.map, &s.units, &s.orders, id),
        &|u| m.unit_label(&s.map, &s.units, &s.orders, u),
    );
    assert!(dot.starts_with("digraph decisions {"));
    assert_eq!(dot.matches("subgraph cluster_u").count(), s.units.len());
    // Members, plus the legend's example.
    assert_eq!(
        dot.matches("color=red, fontcolor=red").count(),
        cycle.0.len() + 1,
        "{dot}"
    );
    assert!(
        dot.contains("F Eng C A Bre - Lon — convoy cancelled (Szykman)"),
        "{dot}"
    );
    assert!(
        dot.contains("PATH [A Bre - Lon] = no path\", color=red, fontcolor=red, peripheries=2"),
        "{dot}"
    );
    assert!(dot.contains("subgraph cluster_legend"), "{dot}");
    assert!(dot.contains("tooltip=\"convoy paradox\""), "{dot}");
    assert!(!dot.contains("tooltip=\"circular movement\""), "{dot}");
}

#[test]
fn dot_colours_circular_movement_apart_and_works_untraced() {
    let s = load("scenarios/datc/6.C.1.ron");
    let r = run(&s, None, false).expect("runs");
    let m = r.result.decisions().expect("movement");
    let dot = to_dot(
        m,
        &|id| m.node_label(&s.map, &s.units, &s.orders, id),
        &|u| m.unit_label(&s.map, &s.units, &s.orders, u),
    );
    assert!(dot.contains("tooltip=\"circular movement\""), "{dot}");
    assert!(!dot.contains("tooltip=\"convoy paradox\""), "{dot}");
    // Three MOVEs forced to move, in the circular-movement colour.
    assert_eq!(
        dot.matches("color=darkgreen, fontcolor=darkgreen, peripheries=2")
            .count(),
        3,
        "{dot}"
    );
}

#[test]
fn circular_movement_rule_in_trace() {
    let s = load("scenarios/datc/6.C.1.ron");
    let r = run(&s, None, true).expect("runs");
    let m = r.result.decisions().expect("movement");
    let events = m.trace.as_ref().expect("trace");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CycleFound {
            kind: CycleKind::CircularMovement,
            ..
        }
    )));
    let forced = events
        .iter()
        .find_map(|e| match e {
            Event::BackupApplied {
                rule: BackupRule::CircularMovement,
                forced,
            } => Some(forced.clone()),
            _ => None,
        })
        .expect("circular movement rule applied");
    assert_eq!(forced.len(), 3, "all three MOVE decisions forced");
    assert!(
        forced
            .iter()
            .all(|(id, v)| *v == 1 && m.graph.nodes[*id as usize].kind == NodeKind::Move)
    );
}

#[test]
fn tracing_changes_nothing_on_any_scenario() {
    let mut files = Vec::new();
    for dir in ["scenarios/datc", "scenarios/examples"] {
        for e in std::fs::read_dir(dir).expect("dir") {
            files.push(e.expect("entry").path());
        }
    }
    for f in files {
        let s = Scenario::load(&f).expect("loads");
        let a = run(&s, None, false).expect("runs");
        let b = run(&s, None, true).expect("runs");
        assert_eq!(a.phase().outcomes, b.phase().outcomes, "{}", f.display());
        assert_eq!(
            a.phase().final_units,
            b.phase().final_units,
            "{}",
            f.display()
        );
        assert_eq!(a.phase().dislodged, b.phase().dislodged, "{}", f.display());
    }
}

/// `--dot` on a large board: one cluster per unit and every decision drawn once. The clusters
/// were gathered by searching every decision for each unit, quadratic in the board (once
/// 20,000 units took minutes in the test build); now one counting pass.
/// Slow tier (its size is what it guards); `dot_of_a_200_unit_ring_has_a_cluster_per_unit` runs
/// the same on 200.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn dot_of_a_twenty_thousand_unit_ring_has_a_cluster_per_unit() {
    dot_of_a_ring(20_000);
}

#[test]
fn dot_of_a_200_unit_ring_has_a_cluster_per_unit() {
    dot_of_a_ring(200);
}

fn dot_of_a_ring(n: usize) {
    use dipsandbox_core::tools::synth::{Pattern, position};
    let p = position(Pattern::Ring, n, 0).expect("ring");
    let m = dipsandbox_core::engine::adjudicate_movement(
        &p.map,
        &p.units,
        &p.orders,
        &dipsandbox_core::model::rules::Rules::default(),
    );
    let dot = to_dot(&m, &|id| format!("decision#{id}"), &|u| format!("unit {u}"));
    assert_eq!(dot.matches("subgraph cluster_u").count(), n);
    assert_eq!(
        dot.matches(" [label=\"decision#").count(),
        m.graph.nodes.len(),
        "every decision drawn once"
    );
    // The ring moves round (circular movement), and the dot says so.
    assert!(dot.contains("tooltip=\"circular movement\""));
}

/// The one tracer gates building an event by its `ON` constant: `NoTrace` builds none, for any
/// event type, and `Recorder` keeps each in order.
#[test]
fn no_trace_builds_no_event_and_a_recorder_keeps_them_all() {
    use dipsandbox_core::engine::trace::{NoTrace, Recorder, Tracer};
    let mut built = 0;
    let mut off = NoTrace;
    Tracer::<String>::record(&mut off, || {
        built += 1;
        "built".to_string()
    });
    assert_eq!(built, 0, "NoTrace built an event");
    let mut on = Recorder::<(u8, &str)>::default();
    on.record(|| {
        built += 1;
        (1, "first")
    });
    on.event((2, "second"));
    assert_eq!(built, 1);
    assert_eq!(on.events, vec![(1, "first"), (2, "second")]);
}

/// Every built-in engine records its trace through the one tracer: asked for a trace, it gives
/// steps on a DATC case with moves; not asked, the same result.
#[test]
fn every_engine_traces_and_tracing_changes_nothing() {
    use dipsandbox_core::engine::{PhaseInput, Registry};
    use dipsandbox_core::model::board::PhaseKind;
    let registry = Registry::builtin();
    let mut files: Vec<_> = std::fs::read_dir("scenarios/datc")
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut traced = 0;
    for f in &files {
        let s = Scenario::load(f).expect("loads");
        if s.phase.kind != PhaseKind::Movement {
            continue;
        }
        let input = PhaseInput::of(&s, &s.rules);
        for engine in registry.engines() {
            let name = engine.name();
            let on = engine.movement(&input, true).expect("adjudicates");
            let off = engine.movement(&input, false).expect("adjudicates");
            let (on, off) = (&on.phase, &off.phase);
            assert_eq!(on.outcomes, off.outcomes, "{name}: {}", f.display());
            assert_eq!(on.final_units, off.final_units, "{name}: {}", f.display());
            assert_eq!(on.dislodged, off.dislodged, "{name}: {}", f.display());
        }
        if f.ends_with("6.C.1.ron") || f.ends_with("6.F.16.ron") {
            for engine in registry.engines() {
                let adj = engine.movement(&input, true).expect("adjudicates");
                let steps = adj.steps(&input).map(|s| s.len()).unwrap_or(0);
                assert!(steps > 0, "{}: no trace on {}", engine.name(), f.display());
                traced += 1;
            }
        }
    }
    assert_eq!(traced, 2 * registry.engines().len(), "both cases found");
}
