//! The decision graph as Graphviz DOT: one cluster per unit holding its decisions, values in the
//! labels, each cycle coloured and labelled by its kind (circular movement or convoy paradox),
//! values forced by a backup rule drawn bold with a double border, a fleet whose convoy the
//! Szykman rule cancelled marked, and a legend.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): decision ids index the
// graph's tables and the union-find parents, all of the graph's decision count.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

use super::adjudicator::MovementResult;
use super::resolver::NodeKind;
use super::trace::CycleKind;
use crate::engine::legality::UnitOrder;

const CIRCULAR: &str = "darkgreen";
const PARADOX: &str = "red";

/// The kind of cycle each decision took part in, if any: from the graph alone (a cycle holding a
/// PATH or a convoying fleet's DISLODGE is a convoy paradox), so it works with or without a
/// trace. Cycle members are grouped by the dependency edges between them (no recursion).
pub fn cycle_kinds(r: &MovementResult) -> Vec<Option<CycleKind>> {
    let g = &r.graph;
    let m = g.nodes.len();
    // Union-find over cycle members joined by dependency edges.
    let mut parent: Vec<usize> = (0..m).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (id, deps) in g.deps.iter().enumerate() {
        if !g.in_cycle[id] {
            continue;
        }
        for &d in deps {
            if g.in_cycle[d as usize] {
                let (a, b) = (root(&mut parent, id), root(&mut parent, d as usize));
                parent[a] = b;
            }
        }
    }
    let mut paradox = vec![false; m];
    for id in 0..m {
        if !g.in_cycle[id] {
            continue;
        }
        let n = g.nodes[id];
        let convoying = matches!(
            r.prepared.orders.get(n.unit),
            Some(UnitOrder::Convoy { void: None, .. })
        );
        if n.kind == NodeKind::Path || (n.kind == NodeKind::Dislodge && convoying) {
            let k = root(&mut parent, id);
            paradox[k] = true;
        }
    }
    (0..m)
        .map(|id| {
            g.in_cycle[id].then(|| {
                if paradox[root(&mut parent, id)] {
                    CycleKind::ConvoyParadox
                } else {
                    CycleKind::CircularMovement
                }
            })
        })
        .collect()
}

/// Renders the decision graph. `label` names a decision (with its value); `unit` names a unit
/// (its order) for the cluster titles.
pub fn to_dot(
    r: &MovementResult,
    label: &dyn Fn(u32) -> String,
    unit: &dyn Fn(usize) -> String,
) -> String {
    let g = &r.graph;
    let kinds = cycle_kinds(r);
    let esc = |t: String| t.replace('\\', "\\\\").replace('"', "\\\"");
    let mut s = String::from(
        "digraph decisions {\n  rankdir=LR;\n  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    // One cluster per unit: the decisions grouped by unit in one counting pass (a search of
    // every decision for each unit was quadratic on large boards).
    let units = r.units.len();
    let mut start = vec![0usize; units + 1];
    for n in &g.nodes {
        if n.unit < units {
            start[n.unit + 1] += 1;
        }
    }
    for u in 0..units {
        start[u + 1] += start[u];
    }
    let mut next = start.clone();
    let mut by_unit = vec![0usize; start[units]];
    for (id, n) in g.nodes.iter().enumerate() {
        if n.unit < units {
            by_unit[next[n.unit]] = id;
            next[n.unit] += 1;
        }
    }
    for u in 0..units {
        let ids = &by_unit[start[u]..start[u + 1]];
        if ids.is_empty() {
            continue;
        }
        // Listed in unit order (`adjudicator::MovementResult::cancelled_convoys`).
        let cancelled = r.cancelled_convoys.binary_search(&u).is_ok();
        let title = if cancelled {
            format!("{} — convoy cancelled (Szykman)", unit(u))
        } else {
            unit(u)
        };
        let _ = writeln!(s, "  subgraph cluster_u{u} {{");
        let _ = writeln!(s, "    label=\"{}\";", esc(title));
        if cancelled {
            let _ = writeln!(s, "    style=dashed; color={PARADOX}; fontcolor={PARADOX};");
        } else {
            s.push_str("    style=rounded; color=gray;\n");
        }
        for &id in ids {
            let mut attrs = Vec::new();
            if let Some(k) = kinds[id] {
                let c = match k {
                    CycleKind::CircularMovement => CIRCULAR,
                    CycleKind::ConvoyParadox => PARADOX,
                };
                attrs.push(format!("color={c}, fontcolor={c}"));
            }
            if g.forced[id] {
                attrs.push("peripheries=2, style=bold".to_string());
            }
            let _ = writeln!(
                s,
                "    n{id} [label=\"{}\"{}{}];",
                esc(label(id as u32)),
                if attrs.is_empty() { "" } else { ", " },
                attrs.join(", ")
            );
        }
        s.push_str("  }\n");
    }
    for (id, deps) in g.deps.iter().enumerate() {
        for d in deps {
            let edge = match (kinds[id], kinds[*d as usize]) {
                (Some(a), Some(b)) if a == b => {
                    let (c, l) = match a {
                        CycleKind::CircularMovement => (CIRCULAR, "circular movement"),
                        CycleKind::ConvoyParadox => (PARADOX, "convoy paradox"),
                    };
                    format!(" [color={c}, penwidth=2, tooltip=\"{l}\"]")
                }
                _ => String::new(),
            };
            let _ = writeln!(s, "  n{id} -> n{d}{edge};");
        }
    }
    // The legend.
    let _ = writeln!(
        s,
        "  subgraph cluster_legend {{\n    label=\"Legend\"; style=solid; color=black;\n    legend_reads [shape=plaintext, label=\"A -> B: the equation of A reads B\"];\n    legend_circular [label=\"cycle: circular movement\", color={CIRCULAR}, fontcolor={CIRCULAR}];\n    legend_paradox [label=\"cycle: convoy paradox\", color={PARADOX}, fontcolor={PARADOX}];\n    legend_forced [label=\"value forced by a backup rule\", peripheries=2, style=bold];\n    legend_cancelled [label=\"dashed cluster: convoy cancelled (Szykman)\", style=dashed];\n  }}"
    );
    s.push_str("}\n");
    s
}
