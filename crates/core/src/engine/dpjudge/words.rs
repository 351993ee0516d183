//! The DPjudge procedure in words: the causes of marks and the titles of the steps, as the text
//! names them.

use crate::model::map::ProvinceId;

use super::types::{Cause, NoRoute, Unmatched};

/// A cause in words, naming the step and the mark.
pub(crate) fn cause_words(
    c: Option<Cause>,
    label: &dyn Fn(usize) -> String,
    space: &dyn Fn(ProvinceId) -> String,
) -> String {
    let Some(c) = c else {
        return "fails".into();
    };
    match c {
        Cause::ToHold { step, space: s } => match s {
            Some(s) => format!(
                "changed to HOLD in step {step}: no fleet in {} on its convoy path",
                space(s)
            ),
            None => format!("changed to HOLD in step {step}"),
        },
        Cause::Void { step, why } => {
            let w = match why {
                Unmatched::NoUnit => "there is no unit to help".to_string(),
                Unmatched::SupportedUnitMoves => "the supported unit does not hold".into(),
                Unmatched::MoveDoesNotMatch => "the supported unit does not make that move".into(),
                Unmatched::CoastDoesNotMatch => "the supported move goes to another coast".into(),
                Unmatched::ArmyDoesNotMatch => {
                    "the army does not move by convoy to that destination".into()
                }
                Unmatched::NotOnPath => "the army's written path does not use this fleet".into(),
                Unmatched::Designation => "nationality or unit letter rejected (4.C)".into(),
                Unmatched::IllegalMoveStands => {
                    "the supported unit's illegal move stands (illegal_orders=Fail)".into()
                }
            };
            format!("void in step {step}: {w}")
        }
        Cause::NoConvoy(why) => {
            let w = match why {
                NoRoute::NoRoute => "the fleets ordered to convoy it form no route".to_string(),
                NoRoute::NoFleet { space: s } => format!("no fleet in {} on its path", space(s)),
                NoRoute::NotConvoying { fleet } => {
                    format!("{} did not order the matching convoy", label(fleet))
                }
                NoRoute::BrokenPath => "its written path is not a chain of seas".into(),
            };
            format!("no convoy in step 1: {w}")
        }
        Cause::Endangered {
            step,
            fleet,
            by,
            beleaguered,
            no_help,
        } => {
            let how = if beleaguered {
                "is among the tied strongest (BELEAGUERED_DISRUPTS)"
            } else if no_help {
                "is the single strongest, its count less its no help list greater than every other count"
            } else {
                "is the single strongest"
            };
            format!(
                "convoy endangered in step {step}: in the combat list of {}, {} {how}",
                label(fleet),
                label(by)
            )
        }
        Cause::UnderAttack => "convoy under attack (step 4)".into(),
        Cause::Cut { step, by } => format!("cut in step {step} by {}", label(by)),
        Cause::Bounce {
            step,
            count,
            no_help,
            other,
            other_count,
        } => {
            let who = other.map(label).unwrap_or_else(|| "nobody".into());
            match step {
                6 => format!(
                    "bounced in step 6: support count {count} is not greater than {other_count} of the swapper {who}"
                ),
                8 => format!(
                    "bounced in step 8: support count {count} less {no_help} in the no help list is not greater than {other_count} of {who}"
                ),
                _ => format!(
                    "bounced in step {step}: support count {count} is not greater than {other_count} of {who}"
                ),
            }
        }
        Cause::OwnVictim { victim } => format!(
            "bounced in step 8: the victim, {}, is of its own power (inability to self-dislodge)",
            label(victim)
        ),
        Cause::Dislodged { by } => format!("dislodged in step 10 by {}", label(by)),
        Cause::Unbounced { space: p } => format!("unbounced in step 10 ({})", space(p)),
    }
}

/// The text's title of a step.
pub fn step_title(step: u8) -> &'static str {
    match step {
        1 => "mark all invalid convoy orders",
        2 => "mark all invalid support orders",
        3 => "cut all supports made by non-convoyed attacks",
        4 => "mark support cuts made by convoyed armies and mark endangered convoys",
        5 => "mark convoy disruptions and support cuts made by successful convoys",
        6 => "mark bounces caused by inability to swap places",
        7 => "mark bounces suffered by understrength attackers",
        8 => "mark bounces caused by inability to self-dislodge",
        9 => "mark supports cut by dislodgements",
        10 => "mark dislodged units and make all successful moves",
        _ => "",
    }
}
