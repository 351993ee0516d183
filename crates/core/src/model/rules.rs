//! The disputed rules of DATC v3.0 chapter 4, each an option, with named presets.
//!
//! [`Rules::default`] is the DATC v3.0 preference for every issue. A scenario file lists only the
//! options it changes, e.g. `rules: (paradox: Rule1982)`; on the command line `--rules` takes a
//! preset and single overrides: `--rules 1982,multi_route_disruption=AllRoutes`.

use serde::{Deserialize, Serialize};

macro_rules! option_enum {
    ($(#[doc = $doc:literal])* $name:ident { $($(#[doc = $vdoc:literal])* $variant:ident),+ $(,)? } default $default:ident) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[doc = $vdoc])* $variant),+
        }
        impl Default for $name {
            fn default() -> Self {
                $name::$default
            }
        }
        impl $name {
            /// All values, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The option's doc comment: its DATC section and question.
            pub const QUESTION: &'static str = concat!($($doc),*);
            /// The value's doc comment: what it means.
            pub fn doc(self) -> &'static str {
                match self {
                    $($name::$variant => concat!($($vdoc),*)),+
                }
            }
            /// The value's name as written in scenarios and on the command line.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => stringify!($variant)),+
                }
            }
            fn parse(s: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.as_str().eq_ignore_ascii_case(s))
            }
        }
    };
}

/// 4.A.3 (DATC v2's preference, and DPjudge's reading): whether an army ordered to a neighbouring
/// province by convoy, whose convoy is missing or disrupted, falls back to the land route. Written
/// `false`, `true`, `ExceptSupportAgainstFleet` or `PythonPackage` (the first two as booleans in
/// scenario files).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConvoyFallback {
    /// No fallback: the convoy route is the army's only route (v3.0).
    #[default]
    No,
    /// The army falls back to the land route (DATC v2).
    Yes,
    /// It falls back, except when the land attack would cut a support given to an attack on a
    /// fleet that convoys it: then it keeps to the convoy route, so the fleet's attacker keeps
    /// its support (the DPjudge reads 4.A.3 so).
    ExceptSupportAgainstFleet,
    /// The Python `diplomacy` package's reading (1.1.2, `engine/game.py`): an army ordered `via
    /// convoy` to a neighbouring province with no possible convoy route (no chain of fleets at
    /// sea to the destination, whatever they are ordered) is illegal; with no route of the
    /// fleets ordered to convoy it, it moves by land; when such a route exists it keeps to it,
    /// and a disrupted convoy leaves it where it is. An army that takes the convoy by intent (no
    /// `via convoy`: a fleet of its own power convoys it) falls back as under
    /// `ExceptSupportAgainstFleet`.
    PythonPackage,
}

impl ConvoyFallback {
    /// All values, in declaration order.
    pub const ALL: &'static [ConvoyFallback] = &[
        ConvoyFallback::No,
        ConvoyFallback::Yes,
        ConvoyFallback::ExceptSupportAgainstFleet,
        ConvoyFallback::PythonPackage,
    ];

    /// The value's name as written in scenarios and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ConvoyFallback::No => "false",
            ConvoyFallback::Yes => "true",
            ConvoyFallback::ExceptSupportAgainstFleet => "ExceptSupportAgainstFleet",
            ConvoyFallback::PythonPackage => "PythonPackage",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str().eq_ignore_ascii_case(s))
    }

    /// The option's question (see [`OptionRow::question`]), written out here as this
    /// hand-written option has no doc comment the macro reads.
    pub const QUESTION: &'static str = "4.A.3 (DATC v2's preference, and DPjudge's reading): \
        when an army ordered to a neighbouring province by convoy finds its convoy missing or \
        disrupted, does it fall back to the land route?";

    /// What each value means, in a line (the rules view shows it).
    pub fn doc(self) -> &'static str {
        match self {
            ConvoyFallback::No => "No fallback: the convoy route is the army's only route (v3.0).",
            ConvoyFallback::Yes => "The army falls back to the land route (DATC v2).",
            ConvoyFallback::ExceptSupportAgainstFleet => {
                "It falls back, except when the land attack would cut a support given to an \
                 attack on a fleet that convoys it (the DPjudge's reading)."
            }
            ConvoyFallback::PythonPackage => {
                "The Python diplomacy package's reading: `via convoy` with no possible convoy \
                 route is illegal; with no route of ordered convoys the army moves by land; an \
                 ordered convoy that is disrupted leaves it where it is; a convoy taken by \
                 intent falls back as under ExceptSupportAgainstFleet."
            }
        }
    }
}

/// As written in scenarios (`false`, `true`, `ExceptSupportAgainstFleet`, `PythonPackage`): rules
/// are saved with
/// their values' debug forms.
impl std::fmt::Debug for ConvoyFallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ConvoyFallback {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ConvoyFallback::No => s.serialize_bool(false),
            ConvoyFallback::Yes => s.serialize_bool(true),
            ConvoyFallback::ExceptSupportAgainstFleet => {
                s.serialize_unit_variant("ConvoyFallback", 2, "ExceptSupportAgainstFleet")
            }
            ConvoyFallback::PythonPackage => {
                s.serialize_unit_variant("ConvoyFallback", 3, "PythonPackage")
            }
        }
    }
}

impl<'de> Deserialize<'de> for ConvoyFallback {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// The value as written: RON reads `true` and `false` here as identifiers.
        #[derive(Deserialize)]
        enum Written {
            #[serde(rename = "false")]
            False,
            #[serde(rename = "true")]
            True,
            ExceptSupportAgainstFleet,
            PythonPackage,
        }
        Ok(match Written::deserialize(d)? {
            Written::False => ConvoyFallback::No,
            Written::True => ConvoyFallback::Yes,
            Written::ExceptSupportAgainstFleet => ConvoyFallback::ExceptSupportAgainstFleet,
            Written::PythonPackage => ConvoyFallback::PythonPackage,
        })
    }
}

option_enum! {
    /// 4.A.1: when is a convoy with several routes disrupted?
    MultiRoute {
        /// Only when every route is disrupted (1982 and later; preferred).
        AllRoutes,
        /// When any route is disrupted (1971).
        AnyRoute,
    } default AllRoutes
}

option_enum! {
    /// 4.A.2: how convoy disruption paradoxes are resolved.
    Paradox {
        /// The convoying fleets in the paradox hold (preferred).
        Szykman,
        /// 1971: a convoyed army does not cut a support of an attack on one of its convoying fleets.
        Rule1971,
        /// 1982: a convoyed army does not cut a support of an action in a body of water holding a
        /// convoying fleet.
        Rule1982,
        /// 2000/2023: a convoyed army does not cut a support of an attack on a fleet necessary
        /// for its convoy.
        Rule2000,
        /// All moves in the paradox fail.
        AllHold,
    } default Szykman
}

option_enum! {
    /// 4.A.2: the backup when the 1971 or 2000 rule gives no answer.
    ParadoxFallback {
        /// Szykman's rule.
        Szykman,
        /// All moves in the paradox fail.
        AllHold,
    } default Szykman
}

option_enum! {
    /// 4.A.3: when does an army whose destination is adjacent use a convoy?
    AdjacentConvoy {
        /// 1971: only when the unit at the destination moves the opposite way and the convoy is
        /// not disrupted.
        Rule1971,
        /// 1982–2023: when "via convoy" is written or a fleet of the same power convoys it (preferred).
        Intent,
        /// DPTG: only when "via convoy" is written.
        ViaConvoyOnly,
    } default Intent
}

option_enum! {
    /// 4.A.4: does an army convoyed to a supporting unit cut a support of an attack on the army's
    /// own province?
    ConvoyedSelfAttack {
        /// Not cut: the attack comes from the army's own province (preferred).
        NotCut,
        /// Cut: the attack comes from the sea.
        Cut,
    } default NotCut
}

option_enum! {
    /// 4.A.5: may a unit dislodged by a convoyed army retreat to that army's origin?
    RetreatAfterConvoy {
        /// Never to the attacker's origin.
        Forbidden,
        /// Allowed when the attack came by convoy (2023; preferred).
        Allowed,
    } default Allowed
}

option_enum! {
    /// 4.A.6: convoy path specification (`A Yor - Nth - Bel`).
    PathSpecification {
        /// Paths are not part of the rules and are ignored (preferred).
        Ignored,
        /// Paths may be written; when written, the convoy must take that path.
        Allowed,
        /// Every convoyed move must name its path.
        Required,
    } default Ignored
}

option_enum! {
    /// 4.A.7: when does a dislodged unit lose its effect on its attacker's province?
    DislodgedNoEffect {
        /// Always (the literal rulebook).
        Always,
        /// Only when it was dislodged in a head-to-head battle (preferred).
        HeadToHeadOnly,
    } default HeadToHeadOnly
}

option_enum! {
    /// 4.B.2: a fleet's move to a two-coast province without a coast, when only one coast is reachable.
    OneCoastOmitted {
        /// Move to the only reachable coast (preferred).
        Infer,
        /// The move fails.
        Fail,
    } default Infer
}

option_enum! {
    /// 4.B.3: a fleet's move to a coast it cannot reach, when another coast is reachable.
    ImpossibleCoast {
        /// Ignore the coast and move to the reachable one.
        Ignore,
        /// The order is illegal (preferred).
        Illegal,
    } default Illegal
}

option_enum! {
    /// 4.B.4: the coast in a support of a fleet's move to a two-coast province.
    SupportCoast {
        /// The coast may be omitted; a coast that is written must match (preferred).
        OmitAllowed,
        /// The coast may be omitted only when supporting one's own fleet (Calhamer).
        OmitOwnOnly,
        /// The coast must be written.
        Required,
    } default OmitAllowed
}

option_enum! {
    /// 4.B.5 / 4.B.6: a wrong coast for the ordered unit, or a coast where none is relevant.
    CoastGarbage {
        /// The order fails.
        Fail,
        /// The coast is ignored (preferred).
        Ignore,
    } default Ignore
}

option_enum! {
    /// 4.C.1, 4.C.2, 4.C.5, 4.C.6: a missing or wrong unit letter or nationality.
    Designation {
        /// The order is invalid (the unit may receive hold support).
        Invalid,
        /// The order is valid (preferred).
        Valid,
        /// Valid unless the unit has another order with the right designation.
        ValidUnlessOther,
    } default Valid
}

option_enum! {
    /// 4.C.3: a build without a unit letter.
    BuildMissingType {
        /// The build always fails.
        AlwaysFail,
        /// An army is built on an inland province; coastal builds fail.
        ArmyOnLand,
        /// An army inland; a fleet on a coast when a coast is named; fails otherwise (preferred).
        Infer,
    } default Infer
}

option_enum! {
    /// 4.C.4: building a fleet on an inland province.
    FleetBuildOnLand {
        /// The build fails (preferred).
        Fail,
        /// An army is built instead.
        BuildArmy,
    } default Fail
}

option_enum! {
    /// 4.D.3: several orders to one unit.
    MultipleOrders {
        /// The first order counts.
        First,
        /// The last order counts.
        Last,
        /// The unit holds and can receive hold support (preferred).
        Hold,
    } default Hold
}

option_enum! {
    /// 4.D.4: more builds than allowed.
    TooManyBuilds {
        /// All builds are invalid.
        AllInvalid,
        /// Builds are taken one by one, first first (preferred).
        First,
        /// The last builds count.
        Last,
    } default First
}

option_enum! {
    /// 4.D.5: several builds in one province.
    SameProvinceBuilds {
        /// All of them fail.
        AllFail,
        /// The first counts (preferred).
        First,
        /// The last counts.
        Last,
    } default First
}

option_enum! {
    /// 4.D.6: more removals than required.
    TooManyDisbands {
        /// The civil-disorder rules choose the removals.
        CivilDisorder,
        /// Removals are taken one by one, first first (preferred).
        First,
        /// The last removals count.
        Last,
    } default First
}

option_enum! {
    /// 4.D.8: which units civil disorder removes.
    CivilDisorder {
        /// 2023: farthest from the nearest owned centre, counting moves over land and sea for
        /// both unit types; fleets first; then alphabetical (preferred).
        Rule2023,
        /// Older: farthest from a home centre; fleets by sea only, armies over land and sea.
        Older,
    } default Rule2023
}

option_enum! {
    /// 4.E.1: what an illegal order does.
    IllegalOrders {
        /// It is ignored entirely: the unit holds and can receive hold support (2023; preferred).
        Ignore,
        /// It stays the unit's order and fails: the unit cannot receive hold support.
        Fail,
    } default Ignore
}

option_enum! {
    /// DPjudge game option (not a DATC issue; only the DPjudge engine reads it): what becomes of a
    /// support or convoy order for a unit that does not exist, and of a convoy path through a
    /// fleet that does not exist (DPjudge algorithm, steps 1 and 2). DPjudge calls the second
    /// choice SHOW_PHANTOM.
    PhantomOrders {
        /// The order is changed to HOLD: the unit holds and can receive hold support (DPjudge's
        /// default).
        Hold,
        /// The order stays: a support or convoy is marked "void", a convoyed army "no convoy"
        /// (SHOW_PHANTOM).
        Void,
    } default Hold
}

option_enum! {
    /// DPjudge algorithm, step 8 (not a DATC issue; only the DPjudge engine reads it): a
    /// strongest move into a space held by a unit of its own power. The published text says
    /// such a victim is "no victim", and then no step stops the move, so a supported unit
    /// dislodges its own power's unit; the step's title ("inability to self-dislodge") and the
    /// DPjudge program bounce the move.
    OwnVictim {
        /// The move bounces in step 8, as the step's title and the DPjudge program do (default).
        Bounces,
        /// The sentence to the letter: no victim, so no bounce; the unit is dislodged in step 10.
        AsWritten,
    } default Bounces
}

option_enum! {
    /// DPjudge algorithm, steps 6 and 8 (not a DATC issue; only the DPjudge engine reads it): the
    /// loser of a swap (two units moving into each other's space, neither by convoy) as the
    /// winner's victim. Step 6 bounces the unit with the smaller support count; step 8 then
    /// compares the winner's count less its no help list (the supports of the loser's power)
    /// with the loser's bounce entry, 0, so a battle won only thanks to supports of the loser's
    /// own power dislodges the loser. The DATC (5.B.8, 6.E.6) holds the winner to the loser's
    /// strength in the battle, its own support count.
    SwapVictim {
        /// The text: the loser's bounce entry (0) is what the winner's count less its no help
        /// list must beat (default; the engine follows the published text).
        BounceEntry,
        /// The DATC's head-to-head battle: the winner's count less its no help list must also
        /// beat the loser's support count, else the winner bounces in step 8 (6.E.6).
        SwapCount,
    } default BounceEntry
}

option_enum! {
    /// DPjudge algorithm, steps 4 and 5 (not a DATC issue; only the DPjudge engine reads it): the
    /// counts checkDisruptions compares in a convoying fleet's space. The text takes each
    /// unit's support count as it stands, so an attack that is single strongest only thanks to
    /// supports of the fleet's own power endangers the convoy, though those supports cannot
    /// help dislodge the fleet (the DATC: 5.B.3's attack strength leaves them out).
    ThreatCount {
        /// The support counts as they stand (default; the engine follows the published text).
        Raw,
        /// Each attacker's count less its no help list (the supports of the fleet's power).
        NoHelp,
    } default Raw
}

option_enum! {
    /// DPjudge algorithm, steps 3 and 5 (not a DATC issue; only the DPjudge engine reads it): the
    /// combat list of an army marked "no convoy". The text changes combat lists only in the
    /// bounce and unbounce procedures and in step 10, so read to the letter the army stays in
    /// its destination's list with its support count: it prevents the units that move there
    /// and is missing from its own space's list (an attack on that space meets no defence).
    NoConvoyList {
        /// The army is put in its own space's combat list with a count of 0, like a bounced
        /// unit, and leaves its destination's (default; the procedure's evident intent).
        Origin,
        /// The text to the letter: it stays in its destination's list and never enters its
        /// own space's.
        AsWritten,
    } default Origin
}

/// Every rule option. The default is the DATC v3.0 preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename = "Rules")]
pub struct Rules {
    /// 4.A.1 multi-route convoy disruption.
    pub multi_route_disruption: MultiRoute,
    /// 4.A.2 convoy paradox rule.
    pub paradox: Paradox,
    /// 4.A.2 backup when the 1971 or 2000 rule has no answer.
    pub paradox_fallback: ParadoxFallback,
    /// 4.A.3 convoying to an adjacent province.
    pub adjacent_convoy: AdjacentConvoy,
    /// 4.A.3 whether a missing or disrupted intended convoy falls back to the land route (DATC v2
    /// preference; DPjudge's exception).
    pub adjacent_convoy_fallback: ConvoyFallback,
    /// 4.A.4 support cut by an attack on itself via convoy.
    pub convoyed_attack_on_supporter: ConvoyedSelfAttack,
    /// 4.A.5 retreat to the origin of a convoyed attacker.
    pub retreat_after_convoy: RetreatAfterConvoy,
    /// 4.A.6 convoy path specification.
    pub path_specification: PathSpecification,
    /// 4.A.7 effect of a dislodged unit on its attacker's province.
    pub dislodged_no_effect: DislodgedNoEffect,
    /// 4.B.2 omitted coast when one coast is possible.
    pub one_coast_omitted: OneCoastOmitted,
    /// 4.B.3 move to an impossible coast.
    pub impossible_coast: ImpossibleCoast,
    /// 4.B.4 coast in support orders.
    pub support_coast: SupportCoast,
    /// 4.B.5 wrong coast of the ordered unit.
    pub wrong_unit_coast: CoastGarbage,
    /// 4.B.6 unknown or irrelevant coasts.
    pub irrelevant_coast: CoastGarbage,
    /// 4.C.1 missing unit letter.
    pub missing_unit_type: Designation,
    /// 4.C.2 wrong unit letter.
    pub wrong_unit_type: Designation,
    /// 4.C.3 build without unit letter.
    pub build_missing_type: BuildMissingType,
    /// 4.C.4 fleet build on an inland province.
    pub fleet_build_on_land: FleetBuildOnLand,
    /// 4.C.5 missing nationality in support or convoy.
    pub missing_nationality: Designation,
    /// 4.C.6 wrong nationality in support or convoy.
    pub wrong_nationality: Designation,
    /// 4.D.3 several orders to one unit.
    pub multiple_orders: MultipleOrders,
    /// 4.D.4 too many builds.
    pub too_many_builds: TooManyBuilds,
    /// 4.D.5 several builds in one province.
    pub same_province_builds: SameProvinceBuilds,
    /// 4.D.6 too many removals.
    pub too_many_disbands: TooManyDisbands,
    /// 4.D.8 civil disorder removals.
    pub civil_disorder: CivilDisorder,
    /// 4.E.1 illegal orders.
    pub illegal_orders: IllegalOrders,
    /// DPjudge game option, only for the DPjudge engine: orders for units that do not exist
    /// become HOLD or stay void (SHOW_PHANTOM).
    pub dpjudge_phantom_orders: PhantomOrders,
    /// DPjudge game option BELEAGUERED_DISRUPTS, only for the DPjudge engine: a convoy is also
    /// endangered when the fleet's space has several strongest units tied, one of them foreign to
    /// the fleet and the fleet not among them. Off in DPjudge unless the game asks for it.
    pub dpjudge_beleaguered_disrupts: bool,
    /// DPjudge algorithm step 8, only for the DPjudge engine: whether a strongest move into a
    /// space held by its own power's unit bounces (the program, default) or goes ahead (the text
    /// to the letter).
    pub dpjudge_own_victim: OwnVictim,
    /// DPjudge algorithm steps 3 and 5, only for the DPjudge engine: whether an army marked "no
    /// convoy" moves to its own space's combat list (default) or stays in its destination's
    /// (the text to the letter).
    pub dpjudge_no_convoy_list: NoConvoyList,
    /// DPjudge algorithm steps 6 and 8, only for the DPjudge engine: what the winner of a swap
    /// must beat to dislodge the loser — the loser's bounce entry (the text, default) or its
    /// support count (the DATC's head-to-head battle, 6.E.6).
    pub dpjudge_swap_victim: SwapVictim,
    /// DPjudge algorithm steps 4 and 5, only for the DPjudge engine: whether checkDisruptions
    /// counts an attack on a convoying fleet with the supports of the fleet's own power (the
    /// text, default) or without them (`NoHelp`, as the DATC's attack strength does).
    pub dpjudge_threat_count: ThreatCount,
}

/// The named presets, with one line each.
pub const PRESETS: &[(&str, &str)] = &[
    ("datc", "DATC v3.0 preferences (the default)"),
    (
        "2023",
        "2023 rulebook: 2000/2023 paradox rule with Szykman fallback, intent-based adjacent convoys",
    ),
    (
        "2000",
        "2000 rulebook: as 2023, older civil-disorder distances",
    ),
    (
        "1982",
        "1982 rulebook: 1982 paradox rule, all-routes disruption",
    ),
    (
        "1971",
        "1971 rulebook: 1971 paradox and any-route disruption, 1971 adjacent convoys",
    ),
    (
        "dptg",
        "DPTG: adjacent convoys only with explicit 'via convoy'",
    ),
];

/// An error in a `--rules` specification.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct RulesError(pub String);

impl Rules {
    /// A named preset.
    pub fn preset(name: &str) -> Option<Rules> {
        let d = Rules::default();
        Some(match name.to_ascii_lowercase().as_str() {
            "datc" | "default" => d,
            "2023" => Rules {
                paradox: Paradox::Rule2000,
                ..d
            },
            "2000" => Rules {
                paradox: Paradox::Rule2000,
                civil_disorder: CivilDisorder::Older,
                ..d
            },
            "1982" => Rules {
                paradox: Paradox::Rule1982,
                civil_disorder: CivilDisorder::Older,
                ..d
            },
            "1971" => Rules {
                paradox: Paradox::Rule1971,
                multi_route_disruption: MultiRoute::AnyRoute,
                adjacent_convoy: AdjacentConvoy::Rule1971,
                civil_disorder: CivilDisorder::Older,
                ..d
            },
            "dptg" => Rules {
                adjacent_convoy: AdjacentConvoy::ViaConvoyOnly,
                ..d
            },
            _ => return None,
        })
    }

    /// Parses `PRESET[,field=Value…]` or `field=Value[,…]` (on top of the defaults). A spec
    /// that names nothing (`''`) and an option given twice (`paradox=Rule1982,paradox=Szykman`)
    /// are errors: which of two values was meant cannot be told.
    pub fn parse_spec(spec: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        // The options set so far, with the part that set each (a spec sets each option once,
        // so this holds at most one entry per option).
        let mut given: Vec<(&str, &str)> = Vec::new();
        if spec.split(',').all(|p| p.trim().is_empty()) {
            return Err(RulesError(format!(
                "no rules given ({}); expected a preset ({}) and/or field=Value options, comma-separated",
                crate::model::error::quoted(spec),
                PRESETS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        for (i, part) in spec
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .enumerate()
        {
            match part.split_once('=') {
                None if i == 0 => {
                    rules = Rules::preset(part).ok_or_else(|| {
                        RulesError(format!(
                            "unknown rules preset {}; expected one of {}, or field=Value",
                            crate::model::error::quoted(part),
                            PRESETS
                                .iter()
                                .map(|(n, _)| *n)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                }
                None => {
                    return Err(RulesError(format!(
                        "{}: a preset must come first; later parts are field=Value",
                        crate::model::error::quoted(part)
                    )));
                }
                Some((field, value)) => {
                    let field = field.trim();
                    rules.set(field, value.trim())?;
                    if let Some((_, first)) = given.iter().find(|(f, _)| *f == field) {
                        return Err(RulesError(format!(
                            "{field} is given twice ({}, then {}); give each option once",
                            crate::model::error::quoted(first),
                            crate::model::error::quoted(part)
                        )));
                    }
                    given.push((field, part));
                }
            }
        }
        Ok(rules)
    }

    /// Sets one option by its field name and value name.
    pub fn set(&mut self, field: &str, value: &str) -> Result<(), RulesError> {
        fn p<T: Copy>(
            field: &str,
            value: &str,
            parse: fn(&str) -> Option<T>,
            all: &[&str],
        ) -> Result<T, RulesError> {
            parse(value).ok_or_else(|| {
                RulesError(format!(
                    "unknown value {} for {field}{}; expected one of {}",
                    crate::model::error::quoted(value),
                    crate::base::near::did_you_mean(value, all.iter().copied()),
                    all.join(", ")
                ))
            })
        }
        fn boolean(field: &str, value: &str) -> Result<bool, RulesError> {
            match value.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Ok(true),
                "false" | "no" | "0" => Ok(false),
                _ => Err(RulesError(format!(
                    "{field} takes true or false, not {}",
                    crate::model::error::quoted(value)
                ))),
            }
        }
        macro_rules! set {
            ($f:ident, $t:ty) => {{
                let all: Vec<&str> = <$t>::ALL.iter().map(|v| v.as_str()).collect();
                self.$f = p(field, value, <$t>::parse, &all)?;
            }};
        }
        match field {
            "multi_route_disruption" => set!(multi_route_disruption, MultiRoute),
            "paradox" => set!(paradox, Paradox),
            "paradox_fallback" => set!(paradox_fallback, ParadoxFallback),
            "adjacent_convoy" => set!(adjacent_convoy, AdjacentConvoy),
            "adjacent_convoy_fallback" => {
                self.adjacent_convoy_fallback = p(
                    field,
                    value,
                    ConvoyFallback::parse,
                    &ConvoyFallback::ALL
                        .iter()
                        .map(|v| v.as_str())
                        .collect::<Vec<_>>(),
                )?
            }
            "convoyed_attack_on_supporter" => {
                set!(convoyed_attack_on_supporter, ConvoyedSelfAttack)
            }
            "retreat_after_convoy" => set!(retreat_after_convoy, RetreatAfterConvoy),
            "path_specification" => set!(path_specification, PathSpecification),
            "dislodged_no_effect" => set!(dislodged_no_effect, DislodgedNoEffect),
            "one_coast_omitted" => set!(one_coast_omitted, OneCoastOmitted),
            "impossible_coast" => set!(impossible_coast, ImpossibleCoast),
            "support_coast" => set!(support_coast, SupportCoast),
            "wrong_unit_coast" => set!(wrong_unit_coast, CoastGarbage),
            "irrelevant_coast" => set!(irrelevant_coast, CoastGarbage),
            "missing_unit_type" => set!(missing_unit_type, Designation),
            "wrong_unit_type" => set!(wrong_unit_type, Designation),
            "build_missing_type" => set!(build_missing_type, BuildMissingType),
            "fleet_build_on_land" => set!(fleet_build_on_land, FleetBuildOnLand),
            "missing_nationality" => set!(missing_nationality, Designation),
            "wrong_nationality" => set!(wrong_nationality, Designation),
            "multiple_orders" => set!(multiple_orders, MultipleOrders),
            "too_many_builds" => set!(too_many_builds, TooManyBuilds),
            "same_province_builds" => set!(same_province_builds, SameProvinceBuilds),
            "too_many_disbands" => set!(too_many_disbands, TooManyDisbands),
            "civil_disorder" => set!(civil_disorder, CivilDisorder),
            "illegal_orders" => set!(illegal_orders, IllegalOrders),
            "dpjudge_phantom_orders" => set!(dpjudge_phantom_orders, PhantomOrders),
            "dpjudge_beleaguered_disrupts" => {
                self.dpjudge_beleaguered_disrupts = boolean(field, value)?
            }
            "dpjudge_own_victim" => set!(dpjudge_own_victim, OwnVictim),
            "dpjudge_no_convoy_list" => set!(dpjudge_no_convoy_list, NoConvoyList),
            "dpjudge_swap_victim" => set!(dpjudge_swap_victim, SwapVictim),
            "dpjudge_threat_count" => set!(dpjudge_threat_count, ThreatCount),
            _ => {
                return Err(RulesError(format!(
                    "unknown rule option {}{}; expected one of {}",
                    crate::model::error::quoted(field),
                    crate::base::near::did_you_mean(field, Rules::FIELDS.iter().copied()),
                    Rules::FIELDS.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// The option field names.
    pub const FIELDS: &'static [&'static str] = &[
        "multi_route_disruption",
        "paradox",
        "paradox_fallback",
        "adjacent_convoy",
        "adjacent_convoy_fallback",
        "convoyed_attack_on_supporter",
        "retreat_after_convoy",
        "path_specification",
        "dislodged_no_effect",
        "one_coast_omitted",
        "impossible_coast",
        "support_coast",
        "wrong_unit_coast",
        "irrelevant_coast",
        "missing_unit_type",
        "wrong_unit_type",
        "build_missing_type",
        "fleet_build_on_land",
        "missing_nationality",
        "wrong_nationality",
        "multiple_orders",
        "too_many_builds",
        "same_province_builds",
        "too_many_disbands",
        "civil_disorder",
        "illegal_orders",
        "dpjudge_phantom_orders",
        "dpjudge_beleaguered_disrupts",
        "dpjudge_own_victim",
        "dpjudge_no_convoy_list",
        "dpjudge_swap_victim",
        "dpjudge_threat_count",
    ];

    /// The options that differ from the defaults, as `field: Value` pairs (for printing and saving).
    pub fn overrides(&self) -> Vec<(&'static str, String)> {
        let d = Rules::default();
        let mut out = Vec::new();
        macro_rules! cmp {
            ($($f:ident),*) => {$(
                if self.$f != d.$f {
                    out.push((stringify!($f), format!("{:?}", self.$f)));
                }
            )*};
        }
        cmp!(
            multi_route_disruption,
            paradox,
            paradox_fallback,
            adjacent_convoy,
            adjacent_convoy_fallback,
            convoyed_attack_on_supporter,
            retreat_after_convoy,
            path_specification,
            dislodged_no_effect,
            one_coast_omitted,
            impossible_coast,
            support_coast,
            wrong_unit_coast,
            irrelevant_coast,
            missing_unit_type,
            wrong_unit_type,
            build_missing_type,
            fleet_build_on_land,
            missing_nationality,
            wrong_nationality,
            multiple_orders,
            too_many_builds,
            same_province_builds,
            too_many_disbands,
            civil_disorder,
            illegal_orders,
            dpjudge_phantom_orders,
            dpjudge_beleaguered_disrupts,
            dpjudge_own_victim,
            dpjudge_no_convoy_list,
            dpjudge_swap_victim,
            dpjudge_threat_count
        );
        out
    }
}

/// A rule set that differs from another in one option: the option's row (of the rules changed
/// from), the value it takes instead, and the rules with it.
#[derive(Clone, Debug)]
pub struct SingleChange {
    /// The option, as it stands in the rules changed from.
    pub row: OptionRow,
    /// The other value.
    pub value: &'static str,
    /// The rules with that value.
    pub rules: Rules,
}

impl SingleChange {
    /// `field=Value`, as `--rules` takes it.
    pub fn spec(&self) -> String {
        format!("{}={}", self.row.field, self.value)
    }
}

impl Rules {
    /// Every rule set one option away from these: for each option, each of its other values
    /// (what `diff` tries for deciders, and `versus` and `replay` for explaining options).
    pub fn single_changes(&self) -> Vec<SingleChange> {
        let mut out = Vec::new();
        for row in self.table() {
            for &value in &row.values {
                if value == row.value {
                    continue;
                }
                let mut rules = *self;
                if rules.set(row.field, value).is_ok() {
                    out.push(SingleChange {
                        row: row.clone(),
                        value,
                        rules,
                    });
                }
            }
        }
        out
    }
}

/// One rule option as a row of a table: its field, its DATC issue, its value and every value it
/// can take (the default first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionRow {
    /// The field name, as in scenarios and `--rules`.
    pub field: &'static str,
    /// The DATC v3.0 section that discusses it, e.g. `4.A.2`; `DPj` for the DPjudge game
    /// options.
    pub issue: &'static str,
    /// The current value's name.
    pub value: &'static str,
    /// Every value, the default first.
    pub values: Vec<&'static str>,
    /// Whether only the DPjudge engine ([`crate::engine::dpjudge`]) reads the option: the
    /// decision engine, and so `diff` and its deciders, never change with it.
    pub dpjudge_only: bool,
    /// The option's question, from its type's doc comment (`4.A.2: how convoy disruption
    /// paradoxes are resolved.`); empty where the type has none to give.
    pub question: &'static str,
    /// What each value of [`OptionRow::values`] means, from the values' doc comments (in the
    /// same order; empty where there is none to give).
    pub meanings: Vec<&'static str>,
}

impl Rules {
    /// Every option with its value, in the order of DATC chapter 4, then the DPjudge game
    /// options (which only the DPjudge engine reads).
    pub fn table(&self) -> Vec<OptionRow> {
        fn row<T: Copy + PartialEq + Default>(
            field: &'static str,
            issue: &'static str,
            value: T,
            all: &[T],
            name: fn(T) -> &'static str,
            docs: (&'static str, fn(T) -> &'static str),
        ) -> OptionRow {
            let d = T::default();
            let order = std::iter::once(d).chain(all.iter().copied().filter(|v| *v != d));
            let (values, meanings) = order.map(|v| (name(v), docs.1(v).trim())).unzip();
            OptionRow {
                field,
                issue,
                value: name(value),
                values,
                dpjudge_only: issue == "DPj",
                question: docs.0.trim(),
                meanings,
            }
        }
        macro_rules! r {
            ($f:ident, $issue:literal, $t:ty) => {
                row(
                    stringify!($f),
                    $issue,
                    self.$f,
                    <$t>::ALL,
                    <$t>::as_str,
                    (<$t>::QUESTION, <$t>::doc),
                )
            };
        }
        let bool_name = |b: bool| if b { "true" } else { "false" };
        vec![
            r!(multi_route_disruption, "4.A.1", MultiRoute),
            r!(paradox, "4.A.2", Paradox),
            r!(paradox_fallback, "4.A.2", ParadoxFallback),
            r!(adjacent_convoy, "4.A.3", AdjacentConvoy),
            r!(adjacent_convoy_fallback, "4.A.3", ConvoyFallback),
            r!(convoyed_attack_on_supporter, "4.A.4", ConvoyedSelfAttack),
            r!(retreat_after_convoy, "4.A.5", RetreatAfterConvoy),
            r!(path_specification, "4.A.6", PathSpecification),
            r!(dislodged_no_effect, "4.A.7", DislodgedNoEffect),
            r!(one_coast_omitted, "4.B.2", OneCoastOmitted),
            r!(impossible_coast, "4.B.3", ImpossibleCoast),
            r!(support_coast, "4.B.4", SupportCoast),
            r!(wrong_unit_coast, "4.B.5", CoastGarbage),
            r!(irrelevant_coast, "4.B.6", CoastGarbage),
            r!(missing_unit_type, "4.C.1", Designation),
            r!(wrong_unit_type, "4.C.2", Designation),
            r!(build_missing_type, "4.C.3", BuildMissingType),
            r!(fleet_build_on_land, "4.C.4", FleetBuildOnLand),
            r!(missing_nationality, "4.C.5", Designation),
            r!(wrong_nationality, "4.C.6", Designation),
            r!(multiple_orders, "4.D.3", MultipleOrders),
            r!(too_many_builds, "4.D.4", TooManyBuilds),
            r!(same_province_builds, "4.D.5", SameProvinceBuilds),
            r!(too_many_disbands, "4.D.6", TooManyDisbands),
            r!(civil_disorder, "4.D.8", CivilDisorder),
            r!(illegal_orders, "4.E.1", IllegalOrders),
            r!(dpjudge_phantom_orders, "DPj", PhantomOrders),
            OptionRow {
                field: "dpjudge_beleaguered_disrupts",
                issue: "DPj",
                value: bool_name(self.dpjudge_beleaguered_disrupts),
                values: vec!["false", "true"],
                dpjudge_only: true,
                question: "DPjudge game option BELEAGUERED_DISRUPTS (read only by the DPjudge \
                    engine): is a convoy also endangered when the fleet's space has several \
                    strongest units tied, one of them foreign to the fleet and the fleet not \
                    among them?",
                meanings: vec![
                    "No: DPjudge's default, unless a game asks for the option.",
                    "Yes: checkDisruptions also endangers the convoy in that tie (the game option on).",
                ],
            },
            r!(dpjudge_own_victim, "DPj", OwnVictim),
            r!(dpjudge_no_convoy_list, "DPj", NoConvoyList),
            r!(dpjudge_swap_victim, "DPj", SwapVictim),
            r!(dpjudge_threat_count, "DPj", ThreatCount),
        ]
    }

    /// The rules in words: the name of the preset they equal, else the options that differ
    /// from the DATC's preferences as `field=Value`, joined by `sep` (`","` as `--rules` takes
    /// them).
    pub fn name(&self, sep: &str) -> String {
        match self.preset_name() {
            Some(p) => p.to_string(),
            None => self
                .overrides()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(sep),
        }
    }

    /// The name of the first preset these rules equal, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS
            .iter()
            .map(|(n, _)| *n)
            .find(|n| Rules::preset(n).as_ref() == Some(self))
    }
}
