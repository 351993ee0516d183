//! The backup rules after a paradox (DATC 4.A.2, 5.B.9), in one place that both movement
//! engines call: which rule applies to a cycle, which orders belong to an All Hold paradox, and
//! what "fail" does to them. `docs/backup-rules.md` argues the definitions from the DATC text.
//!
//! - **Which rule** ([`rule_for`]): a cycle without a convoy is a circular movement (its moves
//!   move; a cycle without a move, which standard orders never make, fails); a convoy paradox
//!   takes the 4.A.2 rule in force: Szykman's, All Hold, or — under the 1971, 1982 and 2000
//!   rules, which have no answer for some paradoxes — their fallback.
//! - **Which orders belong to an All Hold paradox** (`paradox_moves`, [`Part`]): the core of the
//!   paradox is a strongly connected set of decisions still open after partial information
//!   (DATC 5.B.9 of the 2003 draft: "all the decisions that indirectly depend on theirselves");
//!   a unit's move is part of it when its MOVE, ATTACK STRENGTH, PATH or PREVENT STRENGTH is
//!   in the core (the convoyed army appears through its ATTACK STRENGTH only).
//! - **What "fail" does** ([`Hold`]): the MOVE decision fails, and a move by convoy has no
//!   path (its convoy is not carried out, so it neither cuts nor prevents: 5.B.6); every other
//!   decision of the unit follows its 5.B equation — a failed move over land still prevents.
//!   Only decisions still open are set, so no decision that partial information settled is
//!   ever turned around.
//!
//! The decision engine hands `paradox_moves` the cycle it found; the guess engine, whose 5.F
//! cycle is a list of orders, builds the decision graph from the results it has so far and
//! finds the same core there ([`crate::engine::guess`]).

use crate::engine::outcome::BackupRule;
use crate::model::rules::{Paradox, ParadoxFallback, Rules};

/// Whether a convoy paradox is resolved by Szykman's rule under `rules` (else by All Hold):
/// the rule chosen for 4.A.2, or the fallback of a rulebook rule that has no answer.
pub fn szykman(rules: &Rules) -> bool {
    match rules.paradox {
        Paradox::Szykman => true,
        Paradox::AllHold => false,
        Paradox::Rule1971 | Paradox::Rule1982 | Paradox::Rule2000 => {
            rules.paradox_fallback == ParadoxFallback::Szykman
        }
    }
}

/// The backup rule for a cycle the equations cannot settle (zero or two solutions): `convoy`
/// when a convoy order is part of it (a convoy disruption paradox), `moves` when a move is.
pub fn rule_for(rules: &Rules, convoy: bool, moves: bool) -> BackupRule {
    match (convoy, moves) {
        (false, true) => BackupRule::CircularMovement,
        (false, false) => BackupRule::AllFail,
        (true, _) if szykman(rules) => BackupRule::Szykman,
        (true, _) => BackupRule::AllHold,
    }
}

/// A unit whose move is part of an All Hold paradox, and what failing it sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hold {
    /// The unit (index into the position's units).
    pub unit: usize,
    /// Its MOVE decision is still open: set it to 'fails'.
    pub fail_move: bool,
    /// It has a convoy route whose PATH decision is still open: set it to 'no path'.
    pub no_path: bool,
}

/// The decisions that say what a move does: a unit's move is part of an All Hold paradox when
/// one of them is in the paradox's core (DATC 5.B.9, 2003 text: the convoyed army appears in
/// the decision cycle through its ATTACK STRENGTH only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// MOVE.
    Move,
    /// ATTACK STRENGTH.
    Attack,
    /// PATH.
    Path,
    /// PREVENT STRENGTH.
    Prevent,
}

/// The moves part of an All Hold paradox: `core` lists, for each decision of the core (a
/// strongly connected set of open decisions) that is one of a unit's [`Part`]s, the unit;
/// `open(unit)` says whether that unit's MOVE and its PATH (if it has one) are still open. In
/// unit order, with what failing each sets (only decisions still open); a unit with nothing
/// left open is left out.
pub(crate) fn paradox_moves(
    core: impl IntoIterator<Item = (usize, Part)>,
    open: impl Fn(usize) -> (bool, bool),
) -> Vec<Hold> {
    let mut units: Vec<usize> = core.into_iter().map(|(u, _)| u).collect();
    units.sort_unstable();
    units.dedup();
    units
        .into_iter()
        .map(|unit| {
            let (fail_move, no_path) = open(unit);
            Hold {
                unit,
                fail_move,
                no_path,
            }
        })
        .filter(|h| h.fail_move || h.no_path)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_is_held_once_and_only_for_what_is_open() {
        let core = [
            (3, Part::Prevent),
            (1, Part::Attack),
            (3, Part::Move),
            (5, Part::Path),
        ];
        // Unit 1: MOVE settled, PATH open; unit 3: MOVE open, no PATH; unit 5: nothing open.
        let open = |u: usize| match u {
            1 => (false, true),
            3 => (true, false),
            _ => (false, false),
        };
        let held = paradox_moves(core, open);
        let units: Vec<(usize, bool, bool)> = held
            .iter()
            .map(|h| (h.unit, h.fail_move, h.no_path))
            .collect();
        assert_eq!(units, vec![(1, false, true), (3, true, false)]);
    }

    #[test]
    fn the_rule_follows_the_cycle_and_the_option() {
        let mut rules = Rules::default();
        assert_eq!(rule_for(&rules, false, true), BackupRule::CircularMovement);
        assert_eq!(rule_for(&rules, false, false), BackupRule::AllFail);
        assert_eq!(rule_for(&rules, true, true), BackupRule::Szykman);
        rules.paradox = Paradox::AllHold;
        assert_eq!(rule_for(&rules, true, true), BackupRule::AllHold);
        rules.paradox = Paradox::Rule1971;
        assert_eq!(rule_for(&rules, true, false), BackupRule::Szykman);
        rules.paradox_fallback = ParadoxFallback::AllHold;
        assert_eq!(rule_for(&rules, true, false), BackupRule::AllHold);
    }
}
