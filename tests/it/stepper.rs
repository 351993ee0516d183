//! The stepper over real trace: Pandin's paradox (a convoy paradox broken by Szykman), three-army
//! circular movement, and a position without a cycle; random call sequences on real and malformed
//! traces.

use std::path::Path;

use dipsandbox_core::engine::MovementResult;
use dipsandbox_core::engine::decision::resolver::NodeKind;
use dipsandbox_core::engine::decision::stepper::Stepper;
use dipsandbox_core::engine::decision::trace::{BackupRule, CycleKind, Event};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::run;
use proptest::prelude::*;

fn traced(file: &str) -> MovementResult {
    let s = Scenario::load(Path::new(file)).expect("scenario loads");
    run(&s, None, true)
        .expect("runs")
        .result
        .decisions()
        .cloned()
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
    // The walk goes once round the six decisions, each reading the next, back to the first.
    assert_eq!(walk.len(), 7, "{walk:?}");
    assert_eq!(walk.first(), walk.last());
    for pair in walk.windows(2) {
        assert!(
            m.graph.deps[pair[0] as usize].contains(&pair[1]),
            "{pair:?}"
        );
    }
    let mut seen = walk[..6].to_vec();
    seen.sort_unstable();
    assert_eq!(seen, members);
    assert_eq!(st.nodes_of(i), members);
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
    // The cancellation is about the fleet's DISLODGE decision.
    let eng_dislodge = m
        .graph
        .node_of(eng, NodeKind::Dislodge)
        .expect("a DISLODGE");
    assert_eq!(st.nodes_of(i), vec![eng_dislodge]);
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
        .result
        .decisions()
        .cloned()
        .expect("movement");
    assert!(Stepper::new(&m).is_none());
}

/// Every decision's `settled_at` is the event after which it keeps its final bounds, and the
/// start and end of a traced result with a cycle (6.C.1, circular movement).
#[test]
fn settled_at_is_where_the_final_value_arrives() {
    let m = traced("scenarios/datc/6.C.1.ron");
    let mut st = Stepper::new(&m).expect("traced");
    let n = m.graph.nodes.len() as u32;
    for id in 0..n {
        let fin = (m.graph.lo[id as usize], m.graph.hi[id as usize]);
        match st.settled_at(id) {
            None => {
                st.seek(0);
                assert_eq!(
                    st.bounds(id),
                    fin,
                    "decision {id} had its value from the start"
                );
            }
            Some(i) => {
                st.seek(i);
                assert_ne!(st.bounds(id), fin, "decision {id} before event {i}");
                assert!(st.nodes_of(i).contains(&id), "event {i} is about {id}");
                for k in i + 1..=st.len() {
                    st.seek(k);
                    assert_eq!(st.bounds(id), fin, "decision {id} after event {}", k - 1);
                }
            }
        }
    }
    // The three MOVEs were settled by the circular movement rule.
    let rule = st.events().iter().position(|e| {
        matches!(
            e,
            Event::BackupApplied {
                rule: BackupRule::CircularMovement,
                ..
            }
        )
    });
    for (id, node) in m.graph.nodes.iter().enumerate() {
        if node.kind == NodeKind::Move {
            assert_eq!(st.settled_at(id as u32), rule);
        }
    }
}

/// One call on a stepper, for the random call sequences below.
#[derive(Clone, Debug)]
enum Call {
    Forward,
    Back,
    Seek(usize),
    Query(u32),
}

fn any_call() -> impl Strategy<Value = Call> {
    prop_oneof![
        4 => Just(Call::Forward),
        3 => Just(Call::Back),
        2 => (0usize..400).prop_map(Call::Seek),
        1 => Just(Call::Seek(usize::MAX)),
        2 => prop_oneof![0u32..64, Just(u32::MAX)].prop_map(Call::Query),
    ]
}

/// The bounds and flags of every decision id in 0..64 (beyond the graph too) and every unit.
fn snapshot(st: &Stepper) -> Vec<(i32, i32, bool, bool, bool)> {
    (0..64u32)
        .map(|id| {
            let (l, h) = st.bounds(id);
            (
                l,
                h,
                st.in_cycle(id),
                st.forced(id),
                st.cancelled(id as usize),
            )
        })
        .collect()
}

/// The results the random sequences run on: real traces and malformed ones (no start event, a
/// start of the wrong length, events about decisions and units that do not exist, no events).
fn subjects() -> &'static [MovementResult] {
    static SUBJECTS: std::sync::OnceLock<Vec<MovementResult>> = std::sync::OnceLock::new();
    SUBJECTS.get_or_init(|| {
        let real: Vec<MovementResult> = ["6.F.16", "6.C.1", "6.A.11", "6.F.22", "6.F.14-AllHold"]
            .iter()
            .map(|n| traced(&format!("scenarios/datc/{n}.ron")))
            .collect();
        let mut all = real.clone();
        let pandin = &real[0];
        let mut edit = |f: &dyn Fn(&mut Vec<Event>)| {
            let mut r = pandin.clone();
            if let Some(t) = r.trace.as_mut() {
                f(t);
            }
            all.push(r);
        };
        edit(&|t| {
            t.remove(0);
        });
        edit(&|t| {
            t[0] = Event::Start {
                bounds: vec![(0, 1); 3],
            }
        });
        edit(&|t| {
            let junk = [
                Event::Tightened {
                    node: u32::MAX,
                    from: (0, 1),
                    to: (1, 1),
                    inputs: vec![(u32::MAX, 0, 0)],
                },
                Event::Tightened {
                    node: 0,
                    from: (7, 9),
                    to: (-3, 2),
                    inputs: Vec::new(),
                },
                Event::ConvoysCancelled {
                    fleets: vec![usize::MAX, 0, 0],
                },
                Event::CycleFound {
                    members: vec![u32::MAX, 1, 1],
                    walk: vec![u32::MAX],
                    kind: CycleKind::CircularMovement,
                },
                Event::BackupApplied {
                    rule: BackupRule::AllFail,
                    forced: vec![(u32::MAX, 1), (2, 5), (2, 6)],
                },
                Event::Resolved {
                    node: u32::MAX,
                    value: 0,
                },
                Event::Start { bounds: Vec::new() },
            ];
            for (k, e) in junk.into_iter().enumerate() {
                t.insert((3 * k + 1).min(t.len()), e);
            }
        });
        edit(&|t| t.clear());
        all
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// No call sequence panics, on real or malformed traces; after any sequence the state is
    /// that of a fresh stepper sought to the same cursor; the cursor stays within 0..=len.
    #[test]
    fn any_call_sequence_is_consistent(
        which in 0usize..9,
        calls in proptest::collection::vec(any_call(), 0..120),
    ) {
        let r = &subjects()[which % subjects().len()];
        let mut st = Stepper::new(r).expect("traced");
        let start = snapshot(&st);
        for call in &calls {
            let before = st.cursor();
            match call {
                Call::Forward => prop_assert_eq!(st.forward(), before < st.len()),
                Call::Back => prop_assert_eq!(st.back(), before > 0),
                Call::Seek(k) => {
                    st.seek(*k);
                    prop_assert_eq!(st.cursor(), (*k).min(st.len()));
                }
                Call::Query(id) => {
                    let _ = (
                        st.settled_at(*id),
                        st.nodes_of(*id as usize),
                        st.last_event(),
                        st.next_backup_event(),
                        st.prev_backup_event(),
                        st.resolved(*id),
                    );
                }
            }
            prop_assert!(st.cursor() <= st.len());
        }
        let mut fresh = Stepper::new(r).expect("traced");
        fresh.seek(st.cursor());
        prop_assert_eq!(snapshot(&fresh), snapshot(&st));
        st.seek(0);
        prop_assert_eq!(snapshot(&st), start);
    }
}
