//! Which decisions of the graph decided an order's outcome: its reason, read against the
//! decision engine's graph (for highlighting them in the stepper).

use crate::engine::reason::{Against, Reason};

use super::resolver::{Graph, NodeKind};

/// The decisions that decided the outcome of `subject`'s order, its own first: a move's
/// MOVE, ATTACK and PATH with the HOLD, DEFEND or PREVENT it was measured against; a
/// support's SUPPORT with the cutting ATTACK or its own DISLODGE; a convoy's DISLODGE.
pub fn reason_decisions(reason: &Reason, graph: &Graph, subject: usize) -> Vec<u32> {
    let own = |k: NodeKind| graph.node_of(subject, k);
    let other = |u: usize, k: NodeKind| graph.node_of(u, k);
    let list: Vec<Option<u32>> = match reason {
        Reason::Moves { beat, .. } => {
            let mut v = vec![
                own(NodeKind::Move),
                own(NodeKind::Attack),
                own(NodeKind::Path),
            ];
            if let Some((u, against, _)) = beat {
                v.push(other(*u, strength_kind(*against)));
            }
            v
        }
        Reason::Bounced { against, unit, .. } => vec![
            own(NodeKind::Move),
            own(NodeKind::Attack),
            other(*unit, strength_kind(*against)),
        ],
        Reason::MovesCircular | Reason::OwnUnit { .. } | Reason::Fails { .. } | Reason::AllHold => {
            vec![own(NodeKind::Move), own(NodeKind::Attack)]
        }
        Reason::NoConvoy | Reason::NoChain => vec![own(NodeKind::Move), own(NodeKind::Path)],
        Reason::ConvoyCancelled { fleet } | Reason::ConvoyDislodged { fleet, .. } => vec![
            own(NodeKind::Move),
            own(NodeKind::Path),
            other(*fleet, NodeKind::Dislodge),
        ],
        Reason::Given | Reason::Cut => vec![own(NodeKind::Support)],
        Reason::GivenExempt { attacker, .. } => {
            vec![own(NodeKind::Support), other(*attacker, NodeKind::Attack)]
        }
        Reason::CutBy { by } => vec![own(NodeKind::Support), other(*by, NodeKind::Attack)],
        Reason::CutDislodged { .. } => {
            vec![own(NodeKind::Support), own(NodeKind::Dislodge)]
        }
        Reason::Holds
        | Reason::DislodgedBy { .. }
        | Reason::Convoys
        | Reason::ConvoyHolds
        | Reason::Disrupted { .. }
        | Reason::ConvoyAllHold => vec![own(NodeKind::Dislodge)],
        Reason::Illegal(_)
        | Reason::Void(_)
        | Reason::Text(_)
        | Reason::Disbands
        | Reason::RetreatsTo { .. }
        | Reason::RetreatBounced { .. } => Vec::new(),
    };
    let mut out: Vec<u32> = Vec::new();
    for id in list.into_iter().flatten() {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The decision kind of this strength.
fn strength_kind(against: Against) -> NodeKind {
    match against {
        Against::Hold => NodeKind::Hold,
        Against::Defend => NodeKind::Defend,
        Against::Prevent => NodeKind::Prevent,
    }
}
