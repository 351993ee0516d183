//! The stepper over real trace: Pandin's paradox (a convoy paradox broken by Szykman), three-army
//! circular movement, and a position without a cycle.

use std::path::Path;

use dipsandbox::adjudicator::MovementResult;
use dipsandbox::adjudicator::resolver::NodeKind;
use dipsandbox::adjudicator::stepper::Stepper;
use dipsandbox::adjudicator::trace::{BackupRule, CycleKind, Event};
use dipsandbox::check::run;
use dipsandbox::scenario::Scenario;

fn traced(file: &str) -> MovementResult {
    let s = Scenario::load(Path::new(file)).expect("scenario loads");
    run(&s, None, true)
        .expect("runs")
        .movement
        .expect("a movement phase")
}

fn all_bounds(st: &Stepper, m: &MovementResult) -> Vec<(i32, i32)> {
    (0..m.graph.nodes.len() as u32)
        .map(|id| st.bounds(id))
        .collect()
}

#[test]
fn pandin_cycle_szykman_and_back() {
    let m = traced("scenarios/datc/6.F.16.ron");
    let mut st = Stepper::new(&m).expect("traced");
    let start = all_bounds(&st, &m);
    assert!(st.len() > 10);
    // At the start nothing is settled that needed reasoning: every MOVE is open.
    for (id, n) in m.graph.nodes.iter().enumerate() {
        if n.kind == NodeKind::Move {
            assert!(!st.resolved(id as u32));
        }
    }
    // The first backup-related event is the cycle: six decisions, a convoy paradox.
    let i = st.next_backup_event().expect("a cycle");
    st.seek(i + 1);
    let Some(Event::CycleFound {
        members,
        walk,
        kind,
    }) = st.last_event()
    else {
        panic!("expected the cycle, got {:?}", st.last_event());
    };
    assert_eq!(*kind, CycleKind::ConvoyParadox);
    assert_eq!(members.len(), 6);
    let members = members.clone();
    assert_eq!(walk.first(), walk.last());
    assert!(
        members
            .iter()
            .all(|id| st.in_cycle(*id) && !st.resolved(*id))
    );
    let kinds: Vec<NodeKind> = members
        .iter()
        .map(|id| m.graph.nodes[*id as usize].kind)
        .collect();
    for k in [
        NodeKind::Support,
        NodeKind::Path,
        NodeKind::Dislodge,
        NodeKind::Move,
    ] {
        assert!(kinds.contains(&k), "{kinds:?}");
    }
    // Then the convoy is cancelled, and the rule names what it forced: Bre's PATH to no path.
    let i = st.next_backup_event().expect("cancellation");
    st.seek(i + 1);
    assert!(matches!(
        st.last_event(),
        Some(Event::ConvoysCancelled { .. })
    ));
    let eng = members
        .iter()
        .map(|id| m.graph.nodes[*id as usize])
        .find(|n| n.kind == NodeKind::Dislodge)
        .map(|n| n.unit)
        .expect("the convoying fleet's DISLODGE is in the cycle");
    assert!(st.cancelled(eng));
    let i = st.next_backup_event().expect("backup");
    st.seek(i + 1);
    let Some(Event::BackupApplied { rule, forced }) = st.last_event() else {
        panic!("expected the backup rule");
    };
    assert_eq!(*rule, BackupRule::Szykman);
    assert_eq!(forced.len(), 1);
    let (path, v) = forced[0];
    assert_eq!(m.graph.nodes[path as usize].kind, NodeKind::Path);
    assert_eq!(v, 0);
    assert!(st.forced(path));
    assert_eq!(st.settled_at(path), Some(i));
    // Back one event: the PATH is open again, exactly as before.
    st.back();
    assert!(!st.forced(path) && !st.resolved(path));
    // Back to the start: exactly the initial bounds, no cycle, nothing cancelled.
    st.seek(0);
    assert_eq!(all_bounds(&st, &m), start);
    assert!(members.iter().all(|id| !st.in_cycle(*id)));
    assert!(!st.cancelled(eng));
    // The end: exactly the adjudicator's values.
    st.seek(usize::MAX);
    let finals: Vec<(i32, i32)> = m
        .graph
        .lo
        .iter()
        .copied()
        .zip(m.graph.hi.iter().copied())
        .collect();
    assert_eq!(all_bounds(&st, &m), finals);
    assert_eq!(st.next_backup_event(), None);
    assert!(st.prev_backup_event().is_some());
}

#[test]
fn circular_movement_forces_the_moves() {
    let m = traced("scenarios/datc/6.C.1.ron");
    let mut st = Stepper::new(&m).expect("traced");
    let i = st.next_backup_event().expect("a cycle");
    st.seek(i + 1);
    assert!(matches!(
        st.last_event(),
        Some(Event::CycleFound {
            kind: CycleKind::CircularMovement,
            ..
        })
    ));
    let i = st.next_backup_event().expect("the rule");
    st.seek(i + 1);
    let Some(Event::BackupApplied { rule, forced }) = st.last_event() else {
        panic!("backup");
    };
    assert_eq!(*rule, BackupRule::CircularMovement);
    assert_eq!(forced.len(), 3, "three armies move");
    assert!(
        forced
            .iter()
            .all(|(id, v)| *v == 1 && m.graph.nodes[*id as usize].kind == NodeKind::Move)
    );
    // prev_backup_event goes back to the cycle.
    let prev = st.prev_backup_event().expect("the cycle before");
    assert!(matches!(st.events()[prev], Event::CycleFound { .. }));
}

#[test]
fn no_cycle_no_backup_event() {
    let m = traced("scenarios/datc/6.A.11.ron");
    let mut st = Stepper::new(&m).expect("traced");
    assert_eq!(st.next_backup_event(), None);
    assert_eq!(st.prev_backup_event(), None);
    // forward and back agree with seek everywhere.
    let n = st.len();
    let mut other = Stepper::new(&m).expect("traced");
    for k in 0..=n {
        other.seek(k);
        assert_eq!(all_bounds(&st, &m), all_bounds(&other, &m), "at {k}");
        st.forward();
    }
    assert!(!st.forward());
    // Nonsense ids answer without panicking.
    assert_eq!(st.bounds(u32::MAX), (0, 0));
    assert!(!st.in_cycle(u32::MAX) && !st.forced(u32::MAX) && !st.cancelled(usize::MAX));
    assert_eq!(st.settled_at(u32::MAX), None);
    assert!(st.nodes_of(usize::MAX).is_empty());
}

#[test]
fn untraced_results_have_no_stepper() {
    let s = Scenario::load(Path::new("scenarios/datc/6.A.11.ron")).expect("loads");
    let m = run(&s, None, false)
        .expect("runs")
        .movement
        .expect("movement");
    assert!(Stepper::new(&m).is_none());
}
