//! What every engine produces, whatever its method: a verdict and a reason per order, and per
//! phase the units after it, the dislodged units and the standoffs. Shared by the movement
//! engines, retreats and adjustments; a leaf (it imports no other engine module).

use crate::model::board::{Dislodged, Unit};
use crate::model::map::ProvinceId;

use super::reason::Reason;

/// The verdict on one order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Moves, support given, convoy carried, hold not dislodged.
    Succeeds,
    /// Bounced, cut, disrupted, dislodged.
    Fails,
    /// Illegal: ignored entirely.
    Illegal,
    /// A legal support or convoy that does not match.
    Void,
}

/// The outcome of one submitted order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderOutcome {
    /// Succeeds, fails, illegal or void.
    pub verdict: Verdict,
    /// Why, in words: `attack 1 does not beat prevent 2 of A War - Sil` (rendered from
    /// `cause`; for a unit that was dislodged, followed by who dislodged it).
    pub reason: String,
    /// Why, as data: the units involved by index.
    pub cause: Reason,
    /// The backup rule that decided it, if any.
    pub backup: Option<BackupRule>,
}

impl OrderOutcome {
    /// An outcome whose reason is words only (illegal orders of retreat and adjustment phases,
    /// adjustment outcomes).
    pub fn text(verdict: Verdict, reason: String) -> OrderOutcome {
        OrderOutcome {
            verdict,
            cause: Reason::Text(reason.clone()),
            reason,
            backup: None,
        }
    }

    /// An outcome with a typed reason and its words.
    pub fn new(verdict: Verdict, cause: Reason, reason: String) -> OrderOutcome {
        OrderOutcome {
            verdict,
            reason,
            cause,
            backup: None,
        }
    }
}

/// What happened to one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitResult {
    /// Where it ends (None when dislodged).
    pub ends: Option<Unit>,
    /// The unit that dislodged it, if any.
    pub dislodged_by: Option<usize>,
}

/// What any phase produces: an outcome per order and the units after it.
#[derive(Clone, Debug, Default)]
pub struct PhaseResult {
    /// Per submitted order, its outcome.
    pub outcomes: Vec<OrderOutcome>,
    /// Units after the phase (not counting the dislodged).
    pub final_units: Vec<Unit>,
    /// Units dislodged (movement phases only).
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff (movement phases only).
    pub contested: Vec<ProvinceId>,
    /// What happened without an order: civil-disorder removals, disbanded unordered units.
    pub notes: Vec<String>,
}

/// Which backup rule decided a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackupRule {
    /// Circular movement: every MOVE in the cycle moves.
    CircularMovement,
    /// Szykman: the convoying fleets in the paradox hold.
    Szykman,
    /// All Hold: every move in the paradox fails.
    AllHold,
    /// Fallback for a cycle that is neither: every decision in it fails.
    AllFail,
}

impl BackupRule {
    /// Human name.
    pub fn name(self) -> &'static str {
        match self {
            BackupRule::CircularMovement => "circular movement rule",
            BackupRule::Szykman => "Szykman rule",
            BackupRule::AllHold => "All Hold rule",
            BackupRule::AllFail => "all-fail fallback",
        }
    }
}
