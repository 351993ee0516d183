//! The DPjudge procedure's vocabulary: marks, its view of the orders, the causes of marks, and
//! the events of its trace; and the result it returns.

use std::fmt;

use crate::engine::legality::Prepared;
use crate::engine::outcome::{OrderOutcome, PhaseResult};
use crate::model::board::{Dislodged, Unit};
use crate::model::map::{LocId, ProvinceId};

// ---------------------------------------------------------------------------------------------
// Marks, orders, causes, events.
// ---------------------------------------------------------------------------------------------

/// One of the marks the procedure puts on a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A support or convoy that does not match (steps 1 and 2).
    Void,
    /// A convoyed army whose convoy fails (steps 1 and 5).
    NoConvoy,
    /// checkDisruptions found a fleet of the army's path threatened (steps 4 and 5).
    ConvoyEndangered,
    /// An endangered army waiting for step 5 (step 4).
    ConvoyUnderAttack,
    /// A move that does not go (the bounce procedure).
    Bounce,
    /// A support that is cut (cutSupport).
    Cut,
    /// A unit dislodged (step 10).
    Dislodged,
}

impl Mark {
    /// Every mark, in the text's order.
    pub const ALL: [Mark; 7] = [
        Mark::Void,
        Mark::NoConvoy,
        Mark::ConvoyEndangered,
        Mark::ConvoyUnderAttack,
        Mark::Bounce,
        Mark::Cut,
        Mark::Dislodged,
    ];

    /// The mark as the text writes it: `void`, `no convoy`, `convoy endangered`, …
    pub fn name(self) -> &'static str {
        match self {
            Mark::Void => "void",
            Mark::NoConvoy => "no convoy",
            Mark::ConvoyEndangered => "convoy endangered",
            Mark::ConvoyUnderAttack => "convoy under attack",
            Mark::Bounce => "bounce",
            Mark::Cut => "cut",
            Mark::Dislodged => "dislodged",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The set of marks on a unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marks(u8);

impl Marks {
    /// No mark.
    pub const EMPTY: Marks = Marks(0);

    /// Whether the set has the mark.
    pub fn contains(self, m: Mark) -> bool {
        self.0 & m.bit() != 0
    }

    /// Whether the unit is unmarked.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with the mark added.
    pub fn with(self, m: Mark) -> Marks {
        Marks(self.0 | m.bit())
    }

    /// The set with the mark removed.
    pub fn without(self, m: Mark) -> Marks {
        Marks(self.0 & !m.bit())
    }

    /// The marks in the set, in the text's order.
    pub fn iter(self) -> impl Iterator<Item = Mark> {
        Mark::ALL.into_iter().filter(move |m| self.contains(*m))
    }
}

impl fmt::Display for Marks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("unmarked");
        }
        for (i, m) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(m.name())?;
        }
        Ok(())
    }
}

/// A unit's order as the procedure sees it (after legality, and after steps 1 and 2 changed
/// some orders to HOLD).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DpOrder {
    /// Holds: ordered to, not ordered, illegally ordered, or changed to HOLD.
    Hold,
    /// Moves to `dest`.
    Move {
        /// The destination province.
        dest: ProvinceId,
        /// The destination location (a coast for fleets).
        dest_loc: LocId,
        /// Whether the move is by convoy.
        convoyed: bool,
    },
    /// Supports `target` (None: a unit that does not exist) holding (`dest` None) or moving.
    Support {
        /// The supported unit.
        target: Option<usize>,
        /// The destination of the supported move.
        dest: Option<ProvinceId>,
    },
    /// Convoys `army` (None: a unit that does not exist) to `dest`.
    Convoy {
        /// The convoyed army.
        army: Option<usize>,
        /// Its destination.
        dest: ProvinceId,
    },
}

/// Why a support or convoy is void (steps 1 and 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmatched {
    /// There is no unit there (game option `Void`).
    NoUnit,
    /// The supported unit moves; the support is for holding.
    SupportedUnitMoves,
    /// The supported unit does not move there.
    MoveDoesNotMatch,
    /// The supported move goes to another coast.
    CoastDoesNotMatch,
    /// The army is not moving by convoy to that destination.
    ArmyDoesNotMatch,
    /// The written convoy path does not go through the fleet.
    NotOnPath,
    /// The nationality or unit letter written is rejected by the rules (4.C.2, 4.C.5, 4.C.6).
    Designation,
    /// The supported unit's illegal move stands as a failed move (`illegal_orders=Fail`).
    IllegalMoveStands,
}

/// Why a convoyed army is marked "no convoy" in step 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRoute {
    /// The fleets ordered to convoy it form no route.
    NoRoute,
    /// The written path goes through a sea with no fleet.
    NoFleet {
        /// The sea.
        space: ProvinceId,
    },
    /// The written path goes through a fleet that did not order a matching convoy.
    NotConvoying {
        /// The fleet.
        fleet: usize,
    },
    /// The written path is not a chain of neighbouring seas from the army to its destination.
    BrokenPath,
}

/// Why a mark was set (or an order changed): the data behind the reason in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Step 1 or 2 changed the order to HOLD (game option `Hold`): a convoy path through a sea
    /// with no fleet (`space`), or a support or convoy of a unit that does not exist.
    ToHold {
        /// The step.
        step: u8,
        /// The empty sea of the written path, for an army.
        space: Option<ProvinceId>,
    },
    /// Void in step 1 (convoys) or 2 (supports).
    Void {
        /// The step.
        step: u8,
        /// Why.
        why: Unmatched,
    },
    /// "No convoy" in step 1.
    NoConvoy(NoRoute),
    /// checkDisruptions: `fleet`'s space has `by` as single strongest unit, foreign to the fleet
    /// (or, with `beleaguered`, among several tied strongest).
    Endangered {
        /// The step (4 or 5).
        step: u8,
        /// The threatened fleet.
        fleet: usize,
        /// The strongest foreign unit in its space.
        by: usize,
        /// Found by the BELEAGUERED_DISRUPTS rule.
        beleaguered: bool,
        /// Found with the counts less the no help lists (`dpjudge_threat_count: NoHelp`).
        no_help: bool,
    },
    /// Marked "convoy under attack" in step 4.
    UnderAttack,
    /// cutSupport by `by`.
    Cut {
        /// The step (3, 4, 5 or 9).
        step: u8,
        /// The moving unit.
        by: usize,
    },
    /// The bounce procedure, from step 6 (swap), 7 (understrength) or 8 (self-dislodgement).
    Bounce {
        /// The step.
        step: u8,
        /// The unit's support count.
        count: i32,
        /// In step 8, the no help list's length that was subtracted.
        no_help: i32,
        /// The unit whose count it did not beat (the swapper in step 6, the strongest other unit
        /// of the combat list in steps 7 and 8).
        other: Option<usize>,
        /// That unit's count.
        other_count: i32,
    },
    /// Bounced in step 8: the victim, `victim`, is of the moving unit's own power (the default
    /// reading of step 8, `dpjudge_own_victim: Bounces`).
    OwnVictim {
        /// The unit it would have dislodged.
        victim: usize,
    },
    /// Dislodged in step 10 by `by`.
    Dislodged {
        /// The moving unit.
        by: usize,
    },
    /// The unbounce procedure, run for `space`, freed the unit.
    Unbounced {
        /// The space.
        space: ProvinceId,
    },
}

/// What a combat list entry stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The unit's own order: it counts with its (live) support count and no help list.
    Order,
    /// Added by the bounce procedure (or for an army marked "no convoy") in the space the unit
    /// began in: support count 0, empty no help list.
    Bounced,
}

/// How a step was entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepVia {
    /// In sequence.
    Next,
    /// "Repeat this step".
    Repeat,
    /// "Return to step N" from step `from`.
    Return {
        /// The step that returned.
        from: u8,
    },
}

/// One event of the procedure's trace. Every event that changes the state carries what it
/// replaced, so that [`DpStepper`](super::DpStepper) undoes it exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DpEvent {
    /// The first event: the size of the position.
    Start {
        /// Number of units.
        units: u32,
        /// Number of spaces (provinces).
        spaces: u32,
    },
    /// A step is entered.
    Step {
        /// The step (1–10).
        step: u8,
        /// How.
        via: StepVia,
        /// The step that was current before (0 at the start).
        prev: u8,
    },
    /// A unit's order is changed to HOLD (a game option of steps 1 and 2).
    ToHold {
        /// The unit.
        unit: usize,
        /// Its order before.
        was: DpOrder,
    },
    /// An army is put in the convoying armies list (step 1).
    Listed {
        /// The army.
        army: usize,
    },
    /// An army is put in the convoy succeeded list (steps 4 and 5).
    Succeeded {
        /// The army.
        army: usize,
    },
    /// A unit's support count changes.
    SupportCount {
        /// The supported unit.
        unit: usize,
        /// The count before.
        from: i32,
        /// The count after.
        to: i32,
        /// The supporting unit that was counted (step 2) or cut.
        by: usize,
    },
    /// A supporting unit is added to, or removed from, a unit's no help list.
    NoHelp {
        /// The supported unit.
        unit: usize,
        /// The supporting unit.
        supporter: usize,
        /// Added (true) or removed.
        added: bool,
    },
    /// A mark is set or removed.
    Mark {
        /// The unit.
        unit: usize,
        /// The mark.
        mark: Mark,
        /// Set (true) or removed.
        set: bool,
        /// The unit's marks before.
        before: Marks,
        /// Why, when the engine knows.
        cause: Option<Cause>,
    },
    /// An entry is added to, or removed from, a space's combat list.
    Combat {
        /// The space.
        space: ProvinceId,
        /// The unit.
        unit: usize,
        /// The kind of entry.
        entry: Entry,
        /// Added (true) or removed.
        added: bool,
    },
    /// checkDisruptions ran for an army.
    CheckDisruptions {
        /// The army.
        army: usize,
        /// Whether it marked the army "convoy endangered".
        endangered: bool,
    },
    /// The unbounce procedure runs for a space.
    Unbounce {
        /// The space.
        space: ProvinceId,
    },
    /// Step 10 moves a unit.
    Moved {
        /// The unit.
        unit: usize,
        /// Where it was.
        from: LocId,
        /// Where it goes.
        to: LocId,
    },
    /// Step 10 lists a dislodged unit's possible retreats.
    Retreats {
        /// The unit.
        unit: usize,
        /// The spaces.
        spaces: Vec<ProvinceId>,
    },
}

/// Everything the DPjudge engine found.
#[derive(Clone, Debug)]
pub struct DpjudgeResult {
    /// Per submitted order, its outcome (indexed as the decision engine's).
    pub outcomes: Vec<OrderOutcome>,
    /// Units after the phase (not counting the dislodged).
    pub final_units: Vec<Unit>,
    /// Units dislodged, with where their attackers came from.
    pub dislodged: Vec<Dislodged>,
    /// Spaces left empty with a combat list: standoffs (no retreat there).
    pub contested: Vec<ProvinceId>,
    /// Step 10's possible-retreat list of each dislodged unit (unit index, spaces).
    pub retreats: Vec<(usize, Vec<ProvinceId>)>,
    /// Per unit, its marks at the end.
    pub marks: Vec<Marks>,
    /// Per unit, its support count at the end.
    pub support_counts: Vec<i32>,
    /// Per unit, its order as the procedure saw it.
    pub orders: Vec<DpOrder>,
    /// Per unit, why it carries its marks (the last void, no convoy, bounce, cut or HOLD change).
    pub causes: Vec<Option<Cause>>,
    /// Per unit, the unit that dislodged it.
    pub dislodged_by: Vec<Option<usize>>,
    /// Per unit, whether step 10 moved it.
    pub moved: Vec<bool>,
    /// The trace, when asked for.
    pub trace: Option<Vec<DpEvent>>,
    /// The orders as the legality step classed them (which submitted order applies to which
    /// unit).
    pub prepared: Prepared,
}

impl DpjudgeResult {
    /// The phase-level view: outcomes, final units, dislodged units, standoffs.
    pub fn phase(&self) -> PhaseResult {
        PhaseResult {
            outcomes: self.outcomes.clone(),
            final_units: self.final_units.clone(),
            dislodged: self.dislodged.clone(),
            contested: self.contested.clone(),
            notes: Vec::new(),
        }
    }
}
