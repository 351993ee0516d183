//! The DPjudge procedure's documented departures from the DATC, as data
//! ([`crate::engine::Engine::departures`]): the tables of docs/dpjudge.md, which a test holds
//! to this list (`tests/it/dpjudge.rs`) and another to the DATC cases themselves.

use crate::engine::departure::Departure;

/// The 1982-rule cases: cutSupport's third criterion (a convoyed army does not cut a support of
/// an attack on a fleet that convoys it) where the DATC's rules take Szykman's.
const RULE_1982: &[&str] = &[
    "6.F.16",
    "6.F.17",
    "6.F.18",
    "6.F.18-1971",
    "6.F.18-2000",
    "6.F.19",
    "6.F.19-2000",
    "6.F.20",
    "6.F.20-2000",
    "6.F.21",
    "6.F.21-1971",
    "6.F.21-2000",
    "6.F.21-AllHold",
    "6.F.23",
    "6.F.23-1971",
    "6.F.23-2000",
    "6.F.24",
    "6.F.24-1971",
    "6.F.24-2000",
    "6.F.25",
];

/// Every departure of the procedure: under its default options (the first eight; one, the
/// own-power threat, shows in no DATC case), and under
/// the options that read its text to the letter (`dpjudge_own_victim=AsWritten`,
/// `dpjudge_no_convoy_list=AsWritten`).
pub fn departures() -> Vec<Departure> {
    vec![
        Departure::own(
            "the DPjudge text's step 6/8",
            &["6.E.6"],
            "dpjudge_swap_victim=SwapCount",
            "A swap won only with supports of the loser's own power: step 8 compares the \
             winner's count less its no help list with the loser's bounce entry (0), not its \
             strength in the battle, so the loser is dislodged.",
        ),
        Departure::own(
            "checkDisruptions counts supports of the fleet's own power",
            &[],
            "dpjudge_threat_count=NoHelp",
            "Steps 4 and 5 compare raw support counts in a convoying fleet's space, so an attack \
             single strongest only thanks to supports of the fleet's own power (which cannot \
             help dislodge it) disrupts the convoy. No DATC case shows it; random positions \
             with convoys do (53 in 30,000).",
        ),
        Departure::others(
            "the 1982 paradox rule in cutSupport's third criterion",
            RULE_1982,
            "paradox=Rule1982",
            "A convoyed army never cuts a support of an attack on a fleet that convoys it, \
             paradox or not: the 1982 rule where the DATC prefers Szykman's.",
        ),
        Departure::others(
            "no All Hold rule",
            &["6.F.14-AllHold"],
            "paradox=Szykman",
            "The procedure has no All Hold rule: the endangered convoy fails and the Szykman \
             answer stands.",
        ),
        Departure::unrecognised(
            "no land fallback for the 1971 rule",
            &["6.G.4-Rule1971"],
            "A convoy the 1971 rule takes and that is disrupted leaves the army in its space \
             (\"no convoy\", step 5); the DATC's 1971 reading sends it by land.",
        ),
        Departure::others(
            "no fallback to the land route (DATC v2, 4.A.3)",
            &["6.G.8-Fallback", "6.G.20-Fallback"],
            "adjacent_convoy_fallback=false",
            "An army ordered via convoy whose convoy is missing or disrupted stays: the \
             procedure has no land fallback.",
        ),
        Departure::others(
            "a dislodged unit bounces its attacker unless both moved by land (4.A.7 b)",
            &["6.G.10-Always", "6.G.14-Always", "6.G.15-Always"],
            "dislodged_no_effect=HeadToHeadOnly",
            "Step 10 takes a dislodged unit out of its attacker's space only when neither of \
             the two was convoyed: 4.A.7 b where the case asks for a.",
        ),
        Departure::others(
            "a convoyed army does not cut a support against its own space (4.A.4 a)",
            &["6.G.13-Cut"],
            "convoyed_attack_on_supporter=NotCut",
            "cutSupport's fourth criterion compares with the army's own space: 4.A.4 a where \
             the case asks for b.",
        ),
        Departure::own(
            "step 8 to the letter: a victim of the mover's own power is no victim",
            &["6.C.8", "6.D.10", "6.D.11", "6.E.2"],
            "dpjudge_own_victim=Bounces",
            "Read to the letter, step 8 lets a unit single strongest in a space held by its \
             own power's unit dislodge it.",
        )
        .under("dpjudge_own_victim=AsWritten"),
        Departure::own(
            "steps 3 and 5 to the letter: a \"no convoy\" army stays in its destination's combat list",
            &["6.C.5", "6.F.7", "6.F.8", "6.H.12"],
            "dpjudge_no_convoy_list=Origin",
            "Read to the letter, an army whose convoy failed still stands in its \
             destination's combat list: it bounces others there and makes a standoff.",
        )
        .under("dpjudge_no_convoy_list=AsWritten"),
    ]
}
