//! Why an order had its outcome, as data: the units involved are named by index, so a UI can
//! link an order to its cause; [`Reason::render`] is the one place that turns it into words.

use super::legality::{IllegalReason, VoidReason};
use crate::model::map::LocId;
use crate::model::rules::Paradox;

/// What a move's attack was measured against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The hold strength of the unit in the destination.
    Hold,
    /// The defend strength of the unit it meets head to head.
    Defend,
    /// The prevent strength of another unit moving to the same place.
    Prevent,
}

impl Against {
    fn word(self) -> &'static str {
        match self {
            Against::Hold => "hold",
            Against::Defend => "defend",
            Against::Prevent => "prevent",
        }
    }
}

/// How many of the other units retreating to the same province a [`Reason::RetreatBounced`]
/// names (the rest are counted), so that k units retreating to one province make k reasons of
/// bounded length, not k² names.
pub const RIVALS_NAMED: usize = 5;

/// Why an order had its outcome. Unit numbers are indices into the phase's units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A hold (or an unordered unit) that stays.
    Holds,
    /// A hold that is dislodged.
    DislodgedBy {
        /// The dislodging unit.
        by: usize,
    },
    /// A move that moves.
    Moves {
        /// Its attack strength.
        attack: i32,
        /// The unit it beat, what it beat and that strength, when there was one.
        beat: Option<(usize, Against, i32)>,
        /// It went by convoy.
        by_convoy: bool,
    },
    /// A move that moves because the circular-movement rule made it.
    MovesCircular,
    /// A move that does not beat a strength.
    Bounced {
        /// Its attack strength.
        attack: i32,
        /// What it was measured against.
        against: Against,
        /// Whose strength.
        unit: usize,
        /// That strength.
        strength: i32,
    },
    /// A move that cannot dislodge a unit of its own power.
    OwnUnit {
        /// The unit.
        unit: usize,
    },
    /// A move that fails without a named opponent.
    Fails {
        /// Its attack strength.
        attack: i32,
    },
    /// A convoyed move that no fleet convoys.
    NoConvoy,
    /// A convoyed move whose convoy the Szykman rule cancelled.
    ConvoyCancelled {
        /// The fleet.
        fleet: usize,
    },
    /// A convoyed move whose convoying fleet was dislodged.
    ConvoyDislodged {
        /// The fleet.
        fleet: usize,
        /// The unit that dislodged it.
        by: Option<usize>,
    },
    /// A convoyed move whose fleets form no chain.
    NoChain,
    /// A move the All Hold rule failed.
    AllHold,
    /// A support given.
    Given,
    /// A support the paradox rule kept from being cut by a convoyed attack.
    GivenExempt {
        /// The rule.
        rule: Paradox,
        /// The convoyed attacker.
        attacker: usize,
        /// The unit that dislodged the supporter anyway, if any.
        dislodged_by: Option<usize>,
    },
    /// A support cut by dislodgement.
    CutDislodged {
        /// The dislodging unit.
        by: usize,
    },
    /// A support cut by an attack.
    CutBy {
        /// The attacker.
        by: usize,
    },
    /// A support cut (no single attacker named).
    Cut,
    /// A convoy that carries.
    Convoys,
    /// A convoy the Szykman rule cancelled: the fleet holds.
    ConvoyHolds,
    /// A convoy disrupted by dislodgement.
    Disrupted {
        /// The dislodging unit.
        by: usize,
    },
    /// A convoy whose army's move the All Hold rule failed.
    ConvoyAllHold,
    /// An illegal order.
    Illegal(IllegalReason),
    /// A support or convoy that does not match.
    Void(VoidReason),
    /// A retreat phase: the unit disbands as ordered.
    Disbands,
    /// A retreat phase: the unit retreats.
    RetreatsTo {
        /// Where.
        to: LocId,
    },
    /// A retreat phase: two or more units retreat to one province, and all are disbanded. In
    /// retreat phases unit numbers are indices into the dislodged units.
    RetreatBounced {
        /// The other units retreating there: the first [`RIVALS_NAMED`] of them, in the order
        /// of the dislodged units.
        with: Vec<usize>,
        /// How many more retreat there (beyond those named in `with`).
        more: usize,
    },
    /// Illegal orders of retreat and adjustment phases, and adjustment outcomes: in words (they
    /// name no other unit).
    Text(String),
}

impl Reason {
    /// The units a reason names.
    pub fn units(&self) -> Vec<usize> {
        match self {
            Reason::DislodgedBy { by }
            | Reason::CutDislodged { by }
            | Reason::CutBy { by }
            | Reason::Disrupted { by } => vec![*by],
            Reason::Moves { beat, .. } => beat.iter().map(|b| b.0).collect(),
            Reason::Bounced { unit, .. } | Reason::OwnUnit { unit } => vec![*unit],
            Reason::ConvoyCancelled { fleet } => vec![*fleet],
            Reason::ConvoyDislodged { fleet, by } => std::iter::once(*fleet).chain(*by).collect(),
            Reason::GivenExempt {
                attacker,
                dislodged_by,
                ..
            } => std::iter::once(*attacker).chain(*dislodged_by).collect(),
            Reason::RetreatBounced { with, .. } => with.clone(),
            _ => Vec::new(),
        }
    }

    /// The reason in words. `order` names a unit by its order (`A Bre - Lon`), `unit` by
    /// itself (`F Eng`), `place` a location (`Spain (north coast)`).
    pub fn render(
        &self,
        order: &dyn Fn(usize) -> String,
        unit: &dyn Fn(usize) -> String,
        place: &dyn Fn(LocId) -> String,
    ) -> String {
        let rule_name = |r: &Paradox| match r {
            Paradox::Rule1971 => "1971",
            Paradox::Rule1982 => "1982",
            _ => "2000",
        };
        match self {
            Reason::Holds => "holds".into(),
            Reason::DislodgedBy { by } => format!("dislodged by {}", order(*by)),
            Reason::Moves {
                attack,
                beat,
                by_convoy,
            } => {
                // "by convoy" belongs to the move, so it comes right after "moves".
                let via = if *by_convoy { " by convoy" } else { "" };
                match beat {
                    Some((u, against, s)) => format!(
                        "moves{via}, attack {attack} beats {} {s} of {}",
                        against.word(),
                        order(*u)
                    ),
                    None => format!("moves{via} (attack {attack})"),
                }
            }
            Reason::MovesCircular => "moves (circular movement)".into(),
            Reason::Bounced {
                attack,
                against,
                unit: u,
                strength,
            } => format!(
                "attack {attack} does not beat {} {strength} of {}",
                against.word(),
                order(*u)
            ),
            Reason::OwnUnit { unit: u } => format!("cannot dislodge own unit {}", order(*u)),
            Reason::Fails { attack } => format!("fails (attack {attack})"),
            Reason::NoConvoy => "no path: no fleet convoys it".into(),
            Reason::ConvoyCancelled { fleet } => format!(
                "no path: the convoy of {} is cancelled (Szykman rule)",
                unit(*fleet)
            ),
            Reason::ConvoyDislodged { fleet, by } => format!(
                "no path: convoying {} was dislodged by {}",
                unit(*fleet),
                by.map(order).unwrap_or_default()
            ),
            Reason::NoChain => "no path: the convoying fleets do not form a chain".into(),
            Reason::AllHold => "fails: part of a convoy paradox (All Hold rule)".into(),
            Reason::Given => "given".into(),
            Reason::GivenExempt {
                rule,
                attacker,
                dislodged_by: None,
            } => format!(
                "given: under the {} paradox rule the convoyed attack of {} does not cut it",
                rule_name(rule),
                order(*attacker)
            ),
            Reason::GivenExempt {
                rule,
                attacker,
                dislodged_by: Some(d),
            } => format!(
                "given although dislodged by {}: under the {} paradox rule the convoyed attack of {} does not cut it",
                order(*d),
                rule_name(rule),
                order(*attacker)
            ),
            Reason::CutDislodged { by } => format!("cut: dislodged by {}", order(*by)),
            Reason::CutBy { by } => format!("cut by {}", order(*by)),
            Reason::Cut => "cut".into(),
            Reason::Convoys => "convoys".into(),
            Reason::ConvoyHolds => "fails: cancelled by the Szykman rule, the fleet holds".into(),
            Reason::Disrupted { by } => format!("disrupted: dislodged by {}", order(*by)),
            Reason::ConvoyAllHold => {
                "fails: the army's move is part of a convoy paradox (All Hold rule)".into()
            }
            Reason::Illegal(r) => format!("illegal: {r}"),
            Reason::Void(v) => format!("void: {v}"),
            Reason::Disbands => "disbands".into(),
            Reason::RetreatsTo { to } => format!("retreats to {}", place(*to)),
            Reason::RetreatBounced { with, more } => {
                let named = with
                    .iter()
                    .map(|u| order(*u))
                    .collect::<Vec<_>>()
                    .join(", ");
                match more {
                    0 => format!("bounces with {named}: disbanded"),
                    1 => format!("bounces with {named} and 1 other: disbanded"),
                    k => format!("bounces with {named} and {k} others: disbanded"),
                }
            }
            Reason::Text(t) => t.clone(),
        }
    }
}
