//! Property tests of the movement adjudicator and the order notation on the standard map.
//!
//! Positions and orders are generated from raw random choices (`Index`es and random bits) that are
//! interpreted against the map, so every generated position is well formed: distinct provinces,
//! armies on land or coast, fleets at sea or on a coast (with a coast on two-coast provinces).
//! Orders are mostly plausible (moves to neighbours, supports of a neighbour's actual move, convoys
//! of an army's actual move) with a sprinkling of imperfect or junk orders.

use std::fmt::Write as _;
use std::sync::OnceLock;

use dipsandbox_core::base::random::SplitMix64;
use dipsandbox_core::engine::decision::stepper::Stepper;
use dipsandbox_core::engine::decision::trace::Event;
use dipsandbox_core::engine::legality::{convoy_chain_exists, fleet_on_some_route};
use dipsandbox_core::engine::{MovementResult, adjudicate_movement};
use dipsandbox_core::model::board::{PhaseKind, Unit};
use dipsandbox_core::model::map::{Coast, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use dipsandbox_core::model::orders::{
    LocSpec, NameStyle, Order, OrderKind, UnitRef, UnitSpec, format_order, parse_loc, parse_order,
    parse_unit,
};
use dipsandbox_core::model::rules::{
    AdjacentConvoy, CoastGarbage, ConvoyedSelfAttack, Designation, DislodgedNoEffect,
    ImpossibleCoast, MultiRoute, MultipleOrders, OneCoastOmitted, Paradox, ParadoxFallback,
    PathSpecification, Rules, SupportCoast,
};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::invariants;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config;

const CASES: u32 = 200;

/// 200 cases per property; `PROPTEST_CASES=n` overrides it for a longer hunt.
fn config() -> Config {
    let defaults = Config::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        defaults.cases
    } else {
        CASES
    };
    Config {
        cases,
        // Failures are reported with their input; no regression files in the source tree.
        failure_persistence: None,
        ..defaults
    }
}

fn map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(Map::standard)
}

const PRESETS: [&str; 6] = ["datc", "1971", "1982", "2000", "2023", "dptg"];

// ---------------------------------------------------------------------------------------------
// Raw random choices.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct RawUnit {
    prov: Index,
    power: Index,
    fleet: bool,
    coast: Index,
}

#[derive(Clone, Debug)]
struct RawOrder {
    /// 0..100: which kind of order.
    kind: u8,
    a: Index,
    b: Index,
    /// Random bits for the finer choices; see the accessors.
    flags: u64,
}

#[derive(Clone, Debug)]
struct RawRules {
    preset: Index,
    paradox: Option<Index>,
    multi_route: Option<Index>,
}

#[derive(Clone, Debug)]
struct RawCase {
    units: Vec<(RawUnit, RawOrder)>,
    junk: Vec<(Index, RawOrder)>,
    rules: RawRules,
    seed: u64,
}

fn raw_unit() -> impl Strategy<Value = RawUnit> {
    (
        any::<Index>(),
        any::<Index>(),
        any::<bool>(),
        any::<Index>(),
    )
        .prop_map(|(prov, power, fleet, coast)| RawUnit {
            prov,
            power,
            fleet,
            coast,
        })
}

fn raw_order() -> impl Strategy<Value = RawOrder> {
    (0u8..100, any::<Index>(), any::<Index>(), any::<u64>())
        .prop_map(|(kind, a, b, flags)| RawOrder { kind, a, b, flags })
}

fn raw_rules() -> impl Strategy<Value = RawRules> {
    (
        any::<Index>(),
        proptest::option::of(any::<Index>()),
        proptest::option::of(any::<Index>()),
    )
        .prop_map(|(preset, paradox, multi_route)| RawRules {
            preset,
            paradox,
            multi_route,
        })
}

fn raw_case() -> impl Strategy<Value = RawCase> {
    (
        prop::collection::vec((raw_unit(), raw_order()), 1..70),
        prop::collection::vec((any::<Index>(), raw_order()), 0..3),
        raw_rules(),
        any::<u64>(),
    )
        .prop_map(|(units, junk, rules, seed)| RawCase {
            units,
            junk,
            rules,
            seed,
        })
}

// ---------------------------------------------------------------------------------------------
// Building positions and orders from raw choices.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Case {
    units: Vec<Unit>,
    orders: Vec<(PowerId, Order)>,
    rules: Rules,
    seed: u64,
}

/// What a unit was told to do in the first pass (supports and convoys look at it).
#[derive(Clone, Debug)]
enum Plan {
    None,
    Hold,
    Move { dest: LocSpec, via: bool },
    Support,
    Convoy,
}

fn build_rules(r: &RawRules) -> Rules {
    let mut rules = Rules::preset(PRESETS[r.preset.index(PRESETS.len())]).expect("preset exists");
    if let Some(p) = &r.paradox {
        rules.paradox = Paradox::ALL[p.index(Paradox::ALL.len())];
    }
    if let Some(m) = &r.multi_route {
        rules.multi_route_disruption = MultiRoute::ALL[m.index(MultiRoute::ALL.len())];
    }
    rules
}

fn coastal_provinces(map: &Map) -> Vec<ProvinceId> {
    map.province_ids()
        .filter(|p| map.province(*p).kind == ProvinceKind::Coast)
        .collect()
}

fn other_kind(k: UnitKind) -> UnitKind {
    match k {
        UnitKind::Army => UnitKind::Fleet,
        UnitKind::Fleet => UnitKind::Army,
    }
}

impl RawOrder {
    /// `n` bits from bit `lo` on.
    fn bits(&self, lo: u32, n: u32) -> u64 {
        (self.flags >> lo) & ((1 << n) - 1)
    }

    /// A one-in-2^n chance, decided by bits `lo..lo + n`.
    fn rare(&self, lo: u32, n: u32) -> bool {
        self.bits(lo, n) == 0
    }

    /// The ordered unit's letter: 0 none, 1 wrong, else right.
    fn own_letter(&self) -> u64 {
        self.bits(0, 4)
    }
    fn own_coast_omitted(&self) -> bool {
        self.rare(4, 2)
    }
    fn dest_coast_omitted(&self) -> bool {
        self.rare(6, 2)
    }
    fn power_prefix(&self) -> bool {
        self.bits(8, 1) == 1
    }
    /// The nationality in a support or convoy: 0 right, 1 wrong, else none.
    fn ref_nationality(&self) -> u64 {
        self.bits(9, 3)
    }
    fn ref_letter(&self) -> u64 {
        self.bits(12, 4)
    }
    fn ref_coast_omitted(&self) -> bool {
        self.rare(16, 2)
    }
    /// A support or convoy that does not match what the unit does.
    fn mismatch(&self) -> bool {
        self.rare(18, 3)
    }
    fn support_coast_omitted(&self) -> bool {
        self.rare(21, 2)
    }
    /// A support or convoy of a random unit rather than a plausible one.
    fn random_target(&self) -> bool {
        self.rare(23, 4)
    }
    /// The order is given by another power.
    fn wrong_power(&self) -> bool {
        self.rare(27, 5)
    }
    /// `via convoy` on a move to an adjacent province.
    fn via_adjacent(&self) -> bool {
        self.rare(32, 3)
    }
    /// `via convoy` on a move by convoy.
    fn via_written(&self) -> bool {
        self.bits(35, 1) == 1
    }
    fn junk_letter(&self) -> u64 {
        self.bits(36, 2)
    }
    fn junk_via(&self) -> bool {
        self.bits(38, 1) == 1
    }
}

/// The unit as written in an order: mostly perfect; sometimes without or with the wrong letter
/// (`letter` 0 or 1), or without its coast.
fn spec_of(map: &Map, u: &Unit, letter: u64, omit_coast: bool) -> UnitSpec {
    let loc = map.location(u.loc);
    let kind = match letter {
        0 => None,
        1 => Some(other_kind(u.kind)),
        _ => Some(u.kind),
    };
    let coast = if omit_coast { None } else { loc.coast };
    UnitSpec {
        kind,
        loc: LocSpec {
            province: loc.province,
            coast,
        },
    }
}

/// A supported or convoyed unit as written: sometimes with a (right or wrong) nationality.
fn ref_of(map: &Map, u: &Unit, ro: &RawOrder) -> UnitRef {
    let power = match ro.ref_nationality() {
        0 => Some(u.power),
        1 => Some(PowerId(((u.power.0 as usize + 1) % map.powers.len()) as u8)),
        _ => None,
    };
    UnitRef {
        power,
        unit: spec_of(map, u, ro.ref_letter(), ro.ref_coast_omitted()),
    }
}

fn build(raw: &RawCase) -> Case {
    let map = map();
    let np = map.province_count();
    let coastal = coastal_provinces(map);
    let mut taken = vec![false; np];
    let mut units: Vec<Unit> = Vec::new();
    let mut raws: Vec<&RawOrder> = Vec::new();
    for (ru, ro) in &raw.units {
        let p = ru.prov.index(np);
        if taken[p] {
            continue;
        }
        taken[p] = true;
        let prov = &map.provinces[p];
        let kind = match prov.kind {
            ProvinceKind::Sea => UnitKind::Fleet,
            ProvinceKind::Land => UnitKind::Army,
            ProvinceKind::Coast if ru.fleet => UnitKind::Fleet,
            ProvinceKind::Coast => UnitKind::Army,
        };
        let loc = if kind == UnitKind::Fleet && prov.is_multi_coast() {
            prov.coasts[ru.coast.index(prov.coasts.len())].1
        } else {
            prov.main
        };
        let power = PowerId(ru.power.index(map.powers.len()) as u8);
        units.push(Unit { power, kind, loc });
        raws.push(ro);
    }
    let n = units.len();
    let here = |u: usize| map.province_of(units[u].loc);

    let fleet_at_sea = |p: ProvinceId| {
        map.province(p).kind == ProvinceKind::Sea
            && (0..n).any(|j| here(j) == p && units[j].kind == UnitKind::Fleet)
    };
    let neighbour_move = |i: usize, ro: &RawOrder| -> Plan {
        let u = &units[i];
        match u.kind {
            UnitKind::Army => {
                let ns = map.army_neighbours(here(i));
                if ns.is_empty() {
                    return Plan::Hold;
                }
                Plan::Move {
                    dest: LocSpec {
                        province: ns[ro.a.index(ns.len())],
                        coast: None,
                    },
                    // `via convoy` to an adjacent province, now and then.
                    via: ro.via_adjacent(),
                }
            }
            UnitKind::Fleet => {
                let ns = map.fleet_neighbours(u.loc);
                if ns.is_empty() {
                    return Plan::Hold;
                }
                let l = map.location(ns[ro.a.index(ns.len())]);
                let coast = if ro.dest_coast_omitted() {
                    None
                } else {
                    l.coast
                };
                Plan::Move {
                    dest: LocSpec {
                        province: l.province,
                        coast,
                    },
                    via: false,
                }
            }
        }
    };

    // Pass 1: holds and moves.
    let mut plans: Vec<Plan> = Vec::with_capacity(n);
    for (i, ro) in raws.iter().enumerate() {
        let u = &units[i];
        let at_sea = map.province(here(i)).kind == ProvinceKind::Sea;
        let plan = match ro.kind {
            0..8 => Plan::Hold,
            8..45 => neighbour_move(i, ro),
            45..60
                if u.kind == UnitKind::Army
                    && map.province(here(i)).kind == ProvinceKind::Coast =>
            {
                // A move by convoy: to a coast that the fleets at sea could carry it to, if any.
                let reachable: Vec<ProvinceId> = coastal
                    .iter()
                    .copied()
                    .filter(|&p| {
                        p != here(i) && convoy_chain_exists(map, here(i), p, &fleet_at_sea)
                    })
                    .collect();
                if !reachable.is_empty() || ro.mismatch() {
                    let dest = if reachable.is_empty() || ro.mismatch() {
                        coastal[ro.a.index(coastal.len())]
                    } else {
                        reachable[ro.a.index(reachable.len())]
                    };
                    Plan::Move {
                        dest: LocSpec {
                            province: dest,
                            coast: None,
                        },
                        via: ro.via_written(),
                    }
                } else {
                    neighbour_move(i, ro)
                }
            }
            45..60 => neighbour_move(i, ro),
            60..82 => Plan::Support,
            82..96 if u.kind == UnitKind::Fleet && at_sea => Plan::Convoy,
            82..96 => Plan::Support,
            _ => Plan::None,
        };
        plans.push(plan);
    }

    let move_dest = |j: usize| match &plans[j] {
        Plan::Move { dest, .. } => Some(*dest),
        _ => None,
    };

    // Pass 2: supports and convoys, looking at the first pass.
    let mut orders: Vec<(PowerId, Order)> = Vec::new();
    for (i, ro) in raws.iter().enumerate() {
        let u = &units[i];
        let kind = match &plans[i] {
            Plan::None => continue,
            Plan::Hold => OrderKind::Hold,
            Plan::Move { dest, via } => OrderKind::Move {
                dest: *dest,
                via_convoy: *via,
                path: Vec::new(),
            },
            Plan::Support => {
                // Mostly a unit it can support in what that unit actually does.
                let cands: Vec<usize> = (0..n)
                    .filter(|&j| {
                        j != i
                            && match move_dest(j) {
                                Some(d) => {
                                    d.province != here(i)
                                        && map.can_reach(u.kind, u.loc, d.province)
                                }
                                None => map.can_reach(u.kind, u.loc, here(j)),
                            }
                    })
                    .collect();
                let t = if !cands.is_empty() && !ro.random_target() {
                    cands[ro.b.index(cands.len())]
                } else if cands.is_empty() && !ro.random_target() {
                    // Nobody to support: move or hold instead.
                    let kind = match neighbour_move(i, ro) {
                        Plan::Move { dest, via } => OrderKind::Move {
                            dest,
                            via_convoy: via,
                            path: Vec::new(),
                        },
                        _ => OrderKind::Hold,
                    };
                    let unit = Some(spec_of(map, u, ro.own_letter(), ro.own_coast_omitted()));
                    orders.push((
                        u.power,
                        Order {
                            power: None,
                            unit,
                            kind,
                        },
                    ));
                    continue;
                } else {
                    ro.b.index(n)
                };
                let dest = match (move_dest(t), ro.mismatch()) {
                    // Hold support of a moving unit: void.
                    (Some(_), true) => None,
                    // The move it makes; the coast now and then omitted.
                    (Some(d), false) => Some(LocSpec {
                        province: d.province,
                        coast: if ro.support_coast_omitted() {
                            None
                        } else {
                            d.coast
                        },
                    }),
                    // A move the unit does not make.
                    (None, true) => {
                        let ns = map.army_neighbours(here(t));
                        (!ns.is_empty()).then(|| LocSpec {
                            province: ns[ro.a.index(ns.len())],
                            coast: None,
                        })
                    }
                    (None, false) => None,
                };
                OrderKind::Support {
                    target: ref_of(map, &units[t], ro),
                    dest,
                }
            }
            Plan::Convoy => {
                // Mostly an army whose convoy route this fleet is on.
                let on_route: Vec<usize> = (0..n)
                    .filter(|&j| {
                        units[j].kind == UnitKind::Army
                            && move_dest(j).is_some_and(|d| {
                                d.province != here(j)
                                    && map.province(d.province).kind == ProvinceKind::Coast
                                    && fleet_on_some_route(
                                        map,
                                        here(j),
                                        d.province,
                                        here(i),
                                        &fleet_at_sea,
                                    )
                            })
                    })
                    .collect();
                if on_route.is_empty() && !ro.mismatch() && !ro.random_target() {
                    // Nobody to convoy: the fleet holds instead (mostly).
                    let (power, unit) = (u.power, spec_of(map, u, 2, false));
                    orders.push((
                        power,
                        Order {
                            power: None,
                            unit: Some(unit),
                            kind: OrderKind::Hold,
                        },
                    ));
                    continue;
                }
                let armies: Vec<usize> = (0..n)
                    .filter(|&j| units[j].kind == UnitKind::Army)
                    .collect();
                let a = if !on_route.is_empty() && !ro.random_target() {
                    on_route[ro.b.index(on_route.len())]
                } else if !armies.is_empty() {
                    armies[ro.b.index(armies.len())]
                } else {
                    ro.b.index(n)
                };
                let dest = match move_dest(a) {
                    Some(d) if !ro.mismatch() => LocSpec {
                        province: d.province,
                        coast: None,
                    },
                    _ => LocSpec {
                        province: coastal[ro.a.index(coastal.len())],
                        coast: None,
                    },
                };
                OrderKind::Convoy {
                    army: ref_of(map, &units[a], ro),
                    dest,
                }
            }
        };
        // Rarely, the order is given by the wrong power.
        let power = if ro.wrong_power() {
            PowerId(((u.power.0 as usize + 3) % map.powers.len()) as u8)
        } else {
            u.power
        };
        let order = Order {
            power: ro.power_prefix().then_some(power),
            unit: Some(spec_of(map, u, ro.own_letter(), ro.own_coast_omitted())),
            kind,
        };
        orders.push((power, order));
    }

    // Junk orders: a random province (maybe empty), a random power, a random move.
    for (p, ro) in &raw.junk {
        let province = ProvinceId(p.index(np) as u32);
        let power = PowerId(ro.a.index(map.powers.len()) as u8);
        let kind = if ro.kind < 50 {
            OrderKind::Hold
        } else {
            OrderKind::Move {
                dest: LocSpec {
                    province: ProvinceId(ro.b.index(np) as u32),
                    coast: None,
                },
                via_convoy: ro.junk_via(),
                path: Vec::new(),
            }
        };
        let kind_letter = match ro.junk_letter() {
            0 => None,
            1 => Some(UnitKind::Fleet),
            _ => Some(UnitKind::Army),
        };
        orders.push((
            power,
            Order {
                power: None,
                unit: Some(UnitSpec {
                    kind: kind_letter,
                    loc: LocSpec {
                        province,
                        coast: None,
                    },
                }),
                kind,
            },
        ));
    }

    Case {
        units,
        orders,
        rules: build_rules(&raw.rules),
        seed: raw.seed,
    }
}

/// The case as text, for failure messages.
fn describe(c: &Case) -> String {
    let map = map();
    let mut s = String::new();
    let _ = writeln!(s, "rules: {:?}", c.rules.overrides());
    s.push_str("units:\n");
    for u in &c.units {
        let _ = writeln!(s, "  {}", u.describe_owned(map));
    }
    s.push_str("orders:\n");
    for (p, o) in &c.orders {
        if o.power.is_none_or(|q| q == *p) {
            let o = Order {
                power: None,
                ..o.clone()
            };
            let _ = writeln!(
                s,
                "  {}: {}",
                map.power(*p).name,
                format_order(map, &o, NameStyle::Abbr)
            );
        } else {
            let _ = writeln!(
                s,
                "  {} submits: {}",
                map.power(*p).name,
                format_order(map, o, NameStyle::Abbr)
            );
        }
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

fn run(c: &Case) -> MovementResult {
    adjudicate_movement(map(), &c.units, &c.orders, &c.rules)
}

/// The invariants every result must satisfy, whatever the rules: the library's checker
/// ([`invariants::check_movement`]): one outcome per order and one fate per unit (ending
/// somewhere or dislodged, never both), units keep power and kind, a unit moves only on a move
/// order that succeeds and to its destination, a dislodger moved into the dislodged unit's
/// province, the final and dislodged units agree with the per-unit results, no two units end in
/// one province, standoffs are left empty, every decision is resolved, retreat options are
/// sound, and backup rules are reported where a cycle was broken.
fn check_invariants(c: &Case, r: &MovementResult) -> Result<(), TestCaseError> {
    let v = invariants::check_movement(map(), &c.units, &c.orders, &c.rules, r);
    prop_assert!(
        v.is_empty(),
        "{} violation(s):\n{}{}",
        v.len(),
        invariants::report(&v),
        describe(c)
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties of the adjudicator.
// ---------------------------------------------------------------------------------------------

/// The result does not depend on the order in which orders, or units and orders, are listed
/// (outcomes mapped back, fates, final positions, dislodgements, standoffs, backup rules), nor on
/// tracing: [`invariants::check_movement_stable`], which re-runs the phase shuffled and traced.
fn check_permutation_invariance(c: &Case) -> Result<(), TestCaseError> {
    let v = invariants::check_movement_stable(map(), &c.units, &c.orders, &c.rules, c.seed);
    prop_assert!(
        v.is_empty(),
        "{} violation(s):\n{}{}",
        v.len(),
        invariants::report(&v),
        describe(c)
    );
    Ok(())
}

/// Tracing does not change results: the plain and the traced run agree on everything (the
/// tracing part of [`invariants::check_movement_stable`]).
fn check_traced_same(c: &Case) -> Result<(), TestCaseError> {
    let v: Vec<_> = invariants::check_movement_stable(map(), &c.units, &c.orders, &c.rules, c.seed)
        .into_iter()
        .filter(|v| v.invariant == invariants::Invariant::Tracing)
        .collect();
    prop_assert!(v.is_empty(), "{}{}", invariants::report(&v), describe(c));
    Ok(())
}

/// The stepper over a traced result: `n` steps forward then `n` back is the start again exactly;
/// seeking to `n` equals stepping `n` times; the end is exactly the resolver's final state; every
/// cycle's walk is a closed walk along dependency edges over exactly its members.
fn check_stepper(c: &Case, n: usize) -> Result<(), TestCaseError> {
    let r =
        dipsandbox_core::engine::decision::adjudicate(map(), &c.units, &c.orders, &c.rules, true);
    let d = describe(c);
    let mut st = Stepper::new(&r).expect("a traced result has a stepper");
    let m = r.graph.nodes.len() as u32;
    let units = c.units.len();
    /// Per decision: bounds, in a cycle, forced; per unit: convoy cancelled.
    type State = (Vec<(i32, i32, bool, bool)>, Vec<bool>);
    let state = |st: &Stepper| -> State {
        let nodes = (0..m)
            .map(|id| {
                let (l, h) = st.bounds(id);
                (l, h, st.in_cycle(id), st.forced(id))
            })
            .collect();
        (nodes, (0..units).map(|u| st.cancelled(u)).collect())
    };
    let start = state(&st);
    match st.events().first() {
        Some(Event::Start { bounds }) => {
            let b: Vec<(i32, i32)> = start.0.iter().map(|s| (s.0, s.1)).collect();
            prop_assert_eq!(bounds, &b, "{}", &d);
        }
        other => prop_assert!(false, "the trace starts with {:?}\n{}", other, d),
    }
    let n = n % (st.len() + 1);
    for _ in 0..n {
        prop_assert!(st.forward(), "{}", &d);
    }
    let mut other = Stepper::new(&r).expect("stepper");
    other.seek(n);
    prop_assert_eq!(state(&other), state(&st), "{}", &d);
    for _ in 0..n {
        prop_assert!(st.back(), "{}", &d);
    }
    prop_assert!(!st.back(), "{}", &d);
    prop_assert_eq!(state(&st), start, "{}", &d);
    st.seek(usize::MAX);
    prop_assert_eq!(st.cursor(), st.len(), "{}", &d);
    for id in 0..m {
        let i = id as usize;
        prop_assert_eq!(
            st.bounds(id),
            (r.graph.lo[i], r.graph.hi[i]),
            "decision {} {}",
            id,
            &d
        );
        prop_assert_eq!(
            st.in_cycle(id),
            r.graph.in_cycle[i],
            "decision {} {}",
            id,
            &d
        );
        prop_assert_eq!(st.forced(id), r.graph.forced[i], "decision {} {}", id, &d);
    }
    for u in 0..c.units.len() {
        prop_assert_eq!(st.cancelled(u), r.cancelled_convoys.contains(&u), "{}", &d);
    }
    for e in st.events() {
        if let Event::CycleFound { members, walk, .. } = e {
            prop_assert!(
                walk.len() >= 2 && walk.first() == walk.last(),
                "{:?} {}",
                walk,
                &d
            );
            for pair in walk.windows(2) {
                prop_assert!(
                    r.graph.deps[pair[0] as usize].contains(&pair[1]),
                    "{:?} is not an edge; {}",
                    pair,
                    &d
                );
            }
            let mut seen = walk.clone();
            seen.sort_unstable();
            seen.dedup();
            prop_assert_eq!(&seen, members, "{}", &d);
        }
    }
    // One pass from the start to the end, event by event: each tightening starts from the
    // bounds as of the cursor; `settled_at` is the last event before which a decision's bounds
    // still differ from its final ones (None when they never do); the next and previous backup
    // events are those a scan of the events finds.
    let is_backup = |e: &Event| {
        matches!(
            e,
            Event::CycleFound { .. } | Event::ConvoysCancelled { .. } | Event::BackupApplied { .. }
        )
    };
    let len = st.len();
    let mut next = vec![None; len + 1];
    for k in (0..len).rev() {
        next[k] = if is_backup(&st.events()[k]) {
            Some(k)
        } else {
            next[k + 1]
        };
    }
    let finals: Vec<(i32, i32)> = (0..m as usize)
        .map(|i| (r.graph.lo[i], r.graph.hi[i]))
        .collect();
    let mut last_differs: Vec<Option<usize>> = vec![None; m as usize];
    let mut prev = None;
    st.seek(0);
    for (k, next_k) in next.iter().enumerate() {
        prop_assert_eq!(st.cursor(), k);
        for id in 0..m {
            if st.bounds(id) != finals[id as usize] {
                last_differs[id as usize] = Some(k);
            }
        }
        prop_assert_eq!(st.next_backup_event(), *next_k, "at {} {}", k, &d);
        // Strictly before the last applied event (k - 1).
        let expected_prev = if k >= 1 && prev == Some(k - 1) {
            (0..k - 1).rev().find(|&i| is_backup(&st.events()[i]))
        } else {
            prev
        };
        prop_assert_eq!(st.prev_backup_event(), expected_prev, "at {} {}", k, &d);
        if k < len {
            if let Event::Tightened { node, from, .. } = &st.events()[k] {
                prop_assert_eq!(st.bounds(*node), *from, "event {} {}", k, &d);
            }
            if is_backup(&st.events()[k]) {
                prev = Some(k);
            }
            prop_assert!(st.forward());
        }
    }
    for id in 0..m {
        prop_assert_eq!(
            st.settled_at(id),
            last_differs[id as usize],
            "decision {} {}",
            id,
            &d
        );
    }
    Ok(())
}

/// Every movement-phase option with a random value, on top of a random preset.
fn random_rules() -> impl Strategy<Value = Rules> {
    fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
        all.iter().map(|v| name(*v)).collect()
    }
    let table: Vec<(&'static str, Vec<&'static str>)> = vec![
        (
            "multi_route_disruption",
            names(MultiRoute::ALL, MultiRoute::as_str),
        ),
        ("paradox", names(Paradox::ALL, Paradox::as_str)),
        (
            "paradox_fallback",
            names(ParadoxFallback::ALL, ParadoxFallback::as_str),
        ),
        (
            "adjacent_convoy",
            names(AdjacentConvoy::ALL, AdjacentConvoy::as_str),
        ),
        ("adjacent_convoy_fallback", vec!["true", "false"]),
        (
            "convoyed_attack_on_supporter",
            names(ConvoyedSelfAttack::ALL, ConvoyedSelfAttack::as_str),
        ),
        (
            "path_specification",
            names(PathSpecification::ALL, PathSpecification::as_str),
        ),
        (
            "dislodged_no_effect",
            names(DislodgedNoEffect::ALL, DislodgedNoEffect::as_str),
        ),
        (
            "one_coast_omitted",
            names(OneCoastOmitted::ALL, OneCoastOmitted::as_str),
        ),
        (
            "impossible_coast",
            names(ImpossibleCoast::ALL, ImpossibleCoast::as_str),
        ),
        (
            "support_coast",
            names(SupportCoast::ALL, SupportCoast::as_str),
        ),
        (
            "wrong_unit_coast",
            names(CoastGarbage::ALL, CoastGarbage::as_str),
        ),
        (
            "irrelevant_coast",
            names(CoastGarbage::ALL, CoastGarbage::as_str),
        ),
        (
            "missing_unit_type",
            names(Designation::ALL, Designation::as_str),
        ),
        (
            "wrong_unit_type",
            names(Designation::ALL, Designation::as_str),
        ),
        (
            "missing_nationality",
            names(Designation::ALL, Designation::as_str),
        ),
        (
            "wrong_nationality",
            names(Designation::ALL, Designation::as_str),
        ),
        (
            "multiple_orders",
            names(MultipleOrders::ALL, MultipleOrders::as_str),
        ),
    ];
    (
        any::<Index>(),
        prop::collection::vec(proptest::option::of(any::<Index>()), table.len()),
    )
        .prop_map(move |(preset, choices)| {
            let mut rules =
                Rules::preset(PRESETS[preset.index(PRESETS.len())]).expect("preset exists");
            for ((field, values), choice) in table.iter().zip(choices) {
                if let Some(ch) = choice {
                    rules
                        .set(field, values[ch.index(values.len())])
                        .expect("valid option");
                }
            }
            rules
        })
}

proptest! {
    #![proptest_config(config())]

    /// The result does not depend on the order in which orders or units are listed.
    #[test]
    fn result_independent_of_listing_order(raw in raw_case()) {
        let c = build(&raw);
        check_invariants(&c, &run(&c))?;
        check_permutation_invariance(&c)?;
    }

    /// No two units end in one province.
    #[test]
    fn no_two_units_end_in_one_province(raw in raw_case()) {
        let c = build(&raw);
        let r = run(&c);
        let map = map();
        let mut provs: Vec<ProvinceId> =
            r.final_units.iter().map(|u| map.province_of(u.loc)).collect();
        let n = provs.len();
        provs.sort();
        provs.dedup();
        prop_assert_eq!(provs.len(), n, "{}", describe(&c));
        check_invariants(&c, &r)?;
    }

    /// Every unit has exactly one outcome (ends somewhere, or is dislodged), every order has an
    /// outcome, and the per-unit results agree with the outcomes and the final position.
    #[test]
    fn every_unit_and_order_has_one_outcome(raw in raw_case()) {
        let c = build(&raw);
        let r = run(&c);
        check_invariants(&c, &r)?;
    }

    /// Tracing does not change results.
    #[test]
    fn tracing_does_not_change_results(raw in raw_case()) {
        let c = build(&raw);
        check_invariants(&c, &run(&c))?;
        check_traced_same(&c)?;
    }

    /// The stepper: forward n, back n is the start; seek equals stepping; the end is the
    /// resolver's final state; cycles are walked along their edges.
    #[test]
    fn stepper_round_trips_and_ends_at_the_final_values(raw in raw_case(), n in any::<usize>()) {
        let c = build(&raw);
        check_invariants(&c, &run(&c))?;
        check_stepper(&c, n)?;
    }

    /// Nothing panics, and the invariants, tracing and listing-order properties hold, under
    /// random rules: a random preset with random values for every movement option (including
    /// paths written in convoyed moves).
    #[test]
    fn no_panic_under_random_rules(raw in raw_case(), rules in random_rules(), path_bits in any::<u64>()) {
        let mut c = build(&raw);
        c.rules = rules;
        // Sometimes write a path into moves, for the 4.A.6 options: mostly seas holding fleets.
        let map = map();
        let all_seas: Vec<ProvinceId> = map
            .province_ids()
            .filter(|p| map.province(*p).kind == ProvinceKind::Sea)
            .collect();
        let fleet_seas: Vec<ProvinceId> = c
            .units
            .iter()
            .map(|u| map.province_of(u.loc))
            .filter(|p| map.province(*p).kind == ProvinceKind::Sea)
            .collect();
        let mut rng = SplitMix64::new(path_bits);
        for (_, o) in c.orders.iter_mut() {
            if let OrderKind::Move { path, .. } = &mut o.kind
                && rng.next_u64().is_multiple_of(4)
            {
                let seas = if fleet_seas.is_empty() || rng.next_u64().is_multiple_of(5) {
                    &all_seas
                } else {
                    &fleet_seas
                };
                for _ in 0..rng.next_u64() % 3 {
                    path.push(seas[(rng.next_u64() % seas.len() as u64) as usize]);
                }
            }
        }
        let r = run(&c);
        check_invariants(&c, &r)?;
        check_traced_same(&c)?;
        check_stepper(&c, path_bits as usize)?;
        // With First or Last (4.D.3) the listing order of a unit's orders matters by design:
        // the checker keeps each unit's orders in their relative order then.
        check_permutation_invariance(&c)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Properties of the order notation.
// ---------------------------------------------------------------------------------------------

/// Words that orders are made of, and some that trip tokenizers: unicode whose lower case is
/// longer than itself, combining marks, wide characters, control characters.
const VOCAB: &[&str] = &[
    "A",
    "F",
    "a",
    "f",
    "Army",
    "Fleet",
    "-",
    "->",
    "=>",
    ">",
    "S",
    "Supports",
    "C",
    "Convoys",
    "H",
    "Hold",
    "via",
    "by",
    "convoy",
    "Disband",
    "D",
    "Build",
    "Remove",
    "Waive",
    "W",
    "B",
    "R",
    "M",
    "to",
    "(",
    ")",
    "/",
    ":",
    ",",
    ";",
    "nc",
    "sc",
    "ec",
    "wc",
    "north",
    "coast",
    "Coast",
    "England",
    "English",
    "Turkish",
    "Austria-Hungary",
    "Paris",
    "par",
    "bur",
    "Spain",
    "spa",
    "spa-nc",
    "Par-Bur",
    "stp/sc",
    "St.",
    "Petersburg",
    "St. Petersburg",
    "Mid-Atlantic",
    "Mid-",
    "-Atlantic",
    "Ocean",
    "North",
    "Sea",
    "nth",
    "Gulf",
    "of",
    "Lyon",
    "mid",
    "con",
    "bul",
    "bul/ec",
    "x",
    "'",
    ".",
    "_",
    "--",
    "-(",
    "İ",
    "ß",
    "ǅ",
    "é",
    "e\u{301}",
    "日本",
    "🦀",
    "\u{0}",
    "\t",
    "\u{200b}",
    "\u{feff}",
    "K",
    "ﬁ",
    "",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(VOCAB),
            prop::sample::select(&[" ", "", "  ", "-"][..]),
        ),
        0..14,
    )
    .prop_map(|parts| {
        let mut s = String::new();
        for (w, sep) in parts {
            s.push_str(w);
            s.push_str(sep);
        }
        s
    })
}

fn any_power() -> impl Strategy<Value = PowerId> {
    any::<Index>().prop_map(|i| PowerId(i.index(map().powers.len()) as u8))
}

fn any_province() -> impl Strategy<Value = ProvinceId> {
    any::<Index>().prop_map(|i| ProvinceId(i.index(map().province_count()) as u32))
}

fn any_loc() -> impl Strategy<Value = LocSpec> {
    (
        any_province(),
        proptest::option::weighted(0.2, prop::sample::select(Coast::ALL.to_vec())),
    )
        .prop_map(|(province, coast)| LocSpec { province, coast })
}

fn any_unit_spec() -> impl Strategy<Value = UnitSpec> {
    (
        proptest::option::weighted(
            0.85,
            prop::sample::select(vec![UnitKind::Army, UnitKind::Fleet]),
        ),
        any_loc(),
    )
        .prop_map(|(kind, loc)| UnitSpec { kind, loc })
}

fn any_unit_ref() -> impl Strategy<Value = UnitRef> {
    (
        proptest::option::weighted(0.3, any_power()),
        any_unit_spec(),
    )
        .prop_map(|(power, unit)| UnitRef { power, unit })
}

fn any_order() -> impl Strategy<Value = Order> {
    let kind = prop_oneof![
        2 => Just(OrderKind::Hold),
        4 => (any_loc(), any::<bool>(), prop::collection::vec(any_province(), 0..3)).prop_map(
            |(dest, via_convoy, path)| OrderKind::Move { dest, via_convoy, path }
        ),
        3 => (any_unit_ref(), proptest::option::of(any_loc()))
            .prop_map(|(target, dest)| OrderKind::Support { target, dest }),
        2 => (any_unit_ref(), any_loc()).prop_map(|(army, dest)| OrderKind::Convoy { army, dest }),
        1 => Just(OrderKind::Disband),
        1 => Just(OrderKind::Build),
        1 => Just(OrderKind::Remove),
    ];
    let with_unit = (proptest::option::of(any_power()), any_unit_spec(), kind).prop_map(
        |(power, unit, kind)| Order {
            power,
            unit: Some(unit),
            kind,
        },
    );
    let waive = proptest::option::of(any_power()).prop_map(|power| Order {
        power,
        unit: None,
        kind: OrderKind::Waive,
    });
    prop_oneof![12 => with_unit, 1 => waive]
}

proptest! {
    #![proptest_config(config())]

    /// The parsers never panic on arbitrary text.
    #[test]
    fn parser_never_panics_on_arbitrary_text(s in any::<String>()) {
        let map = map();
        let _ = parse_order(map, &s);
        let _ = parse_unit(map, &s);
        let _ = parse_loc(map, &s);
    }

    /// The parsers never panic on text made of order words and awkward characters; errors point
    /// inside the text (or just past its end).
    #[test]
    fn parser_never_panics_on_token_soup(s in token_soup()) {
        let map = map();
        let end = s.chars().count() + 1;
        for r in [parse_order(map, &s).err(), parse_unit(map, &s).err(), parse_loc(map, &s).err()]
            .into_iter()
            .flatten()
        {
            prop_assert!(r.col >= 1 && r.col <= end, "column {} for {:?}: {}", r.col, s, r.message);
        }
    }

    /// Printing an order and parsing the text gives the same order, in both name styles.
    #[test]
    fn format_then_parse_roundtrips(o in any_order()) {
        let map = map();
        for style in [NameStyle::Abbr, NameStyle::Full] {
            let text = format_order(map, &o, style);
            let back = parse_order(map, &text);
            prop_assert!(back.is_ok(), "{:?} does not parse: {:?}", text, back);
            prop_assert_eq!(back.unwrap(), o.clone(), "text {:?}", text);
        }
    }

    /// Orders generated for positions roundtrip too (they carry real coasts and nationalities).
    #[test]
    fn generated_orders_roundtrip(raw in raw_case()) {
        let c = build(&raw);
        let map = map();
        for (_, o) in &c.orders {
            for style in [NameStyle::Abbr, NameStyle::Full] {
                let text = format_order(map, o, style);
                let back = parse_order(map, &text);
                prop_assert!(back.is_ok(), "{:?} does not parse: {:?}", text, back);
                prop_assert_eq!(&back.unwrap(), o, "text {:?}", text);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The same adjudicator properties on the DATC positions (which hold the convoy paradoxes and
// circular movements that random positions rarely produce), with orders dropped at random and
// random rules.
// ---------------------------------------------------------------------------------------------

struct Seed {
    name: String,
    units: Vec<Unit>,
    orders: Vec<(PowerId, Order)>,
    rules: Rules,
}

/// The movement-phase scenarios of `scenarios/datc` on the standard map (read at test time;
/// files that do not load, e.g. while being edited, are skipped).
fn datc_seeds() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/datc");
        let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        paths.sort();
        let mut seeds = Vec::new();
        for path in paths {
            if path.extension().is_none_or(|e| e != "ron") {
                continue;
            }
            let Ok(sc) = Scenario::load(&path) else {
                continue;
            };
            if sc.phase.kind != PhaseKind::Movement || sc.map.name != "standard" {
                continue;
            }
            seeds.push(Seed {
                name: path.file_name().unwrap().to_string_lossy().into_owned(),
                units: sc.units.clone(),
                orders: sc
                    .orders
                    .iter()
                    .map(|e| (e.power, e.order.clone()))
                    .collect(),
                rules: sc.rules,
            });
        }
        seeds
    })
}

#[test]
fn datc_seeds_are_found() {
    // Guard against the DATC property silently testing nothing.
    assert!(
        datc_seeds().len() > 100,
        "only {} DATC movement scenarios loaded",
        datc_seeds().len()
    );
}

fn datc_case() -> impl Strategy<Value = (usize, Case)> {
    (
        any::<Index>(),
        proptest::option::of(any::<Index>()),
        raw_rules(),
        any::<bool>(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(|(which, second, raw_rules, own_rules, drop, seed)| {
            let seeds = datc_seeds();
            let k = which.index(seeds.len().max(1));
            let Some(sd) = seeds.get(k) else {
                return (
                    k,
                    Case {
                        units: Vec::new(),
                        orders: Vec::new(),
                        rules: Rules::default(),
                        seed,
                    },
                );
            };
            // Sometimes a second scenario on the same board, when no province holds two units:
            // several paradoxes or circles at once.
            let mut units = sd.units.clone();
            let mut all_orders = sd.orders.clone();
            if let Some(other) = second.and_then(|i| seeds.get(i.index(seeds.len()))) {
                let map = map();
                let disjoint = other.units.iter().all(|o| {
                    units
                        .iter()
                        .all(|u| map.province_of(u.loc) != map.province_of(o.loc))
                });
                if disjoint {
                    units.extend(other.units.iter().copied());
                    all_orders.extend(other.orders.iter().cloned());
                }
            }
            // Keep every order most of the time; otherwise drop each with a one-in-four chance.
            let orders = if drop & 1 == 0 {
                all_orders
            } else {
                all_orders
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| (drop >> (1 + 2 * (i % 31))) & 3 != 0)
                    .map(|(_, o)| o.clone())
                    .collect()
            };
            let mut rules = if own_rules {
                sd.rules
            } else {
                build_rules(&raw_rules)
            };
            // With First or Last (4.D.3), the listing order of a unit's orders matters by design.
            rules.multiple_orders = MultipleOrders::Hold;
            (
                k,
                Case {
                    units,
                    orders,
                    rules,
                    seed,
                },
            )
        })
}

proptest! {
    #![proptest_config(config())]

    /// On DATC positions (sometimes two at once, sometimes with orders dropped, under their own,
    /// preset or fully random rules): the invariants, listing-order independence and tracing.
    #[test]
    fn datc_positions_properties(
        (k, mut c) in datc_case(),
        other_rules in proptest::option::weighted(0.3, random_rules()),
        steps in any::<usize>(),
    ) {
        let name = datc_seeds().get(k).map(|s| s.name.as_str()).unwrap_or("none");
        if let Some(rules) = other_rules {
            c.rules = Rules {
                multiple_orders: MultipleOrders::Hold,
                ..rules
            };
        }
        let r = run(&c);
        check_invariants(&c, &r).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        check_permutation_invariance(&c)
            .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        check_traced_same(&c).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        check_stepper(&c, steps).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the properties.
// ---------------------------------------------------------------------------------------------

/// `F Brest Supports English Channel` (the supported unit written without its letter, as DATC
/// 4.C.1 allows) is a support of the unit in the English Channel with no nationality: "English"
/// starts a province name here, it is not a nationality. Found by the roundtrip property; under
/// `wrong_nationality: Invalid` the support of a French fleet in the Channel was void.
#[test]
fn english_channel_is_not_a_nationality() {
    let map = map();
    let eng = map.find_province("eng").unwrap();
    let bre = map.find_province("bre").unwrap();
    let fra = map.find_power("France").unwrap();
    let ger = map.find_power("Germany").unwrap();

    // 1. Parsing.
    let o = parse_order(map, "F Brest Supports English Channel").unwrap();
    let expected = Order {
        power: None,
        unit: Some(UnitSpec {
            kind: Some(UnitKind::Fleet),
            loc: LocSpec {
                province: bre,
                coast: None,
            },
        }),
        kind: OrderKind::Support {
            target: UnitRef {
                power: None,
                unit: UnitSpec {
                    kind: None,
                    loc: LocSpec {
                        province: eng,
                        coast: None,
                    },
                },
            },
            dest: None,
        },
    };
    assert_eq!(
        format_order(map, &expected, NameStyle::Full),
        "F Brest Supports English Channel"
    );
    assert_eq!(o, expected);

    // 2. The consequence: France holds the Channel with a support that names no nationality;
    //    Germany attacks with one support. 2 against 2: the French fleet stays.
    let unit = |power, kind, name: &str| Unit {
        power,
        kind,
        loc: map.province(map.find_province(name).unwrap()).main,
    };
    let units = vec![
        unit(fra, UnitKind::Fleet, "eng"),
        unit(fra, UnitKind::Fleet, "bre"),
        unit(ger, UnitKind::Fleet, "nth"),
        unit(ger, UnitKind::Fleet, "bel"),
    ];
    let orders = vec![
        (fra, parse_order(map, "F English Channel Hold").unwrap()),
        (
            fra,
            parse_order(map, "F Brest Supports English Channel").unwrap(),
        ),
        (
            ger,
            parse_order(map, "F North Sea - English Channel").unwrap(),
        ),
        (
            ger,
            parse_order(map, "F Belgium Supports F North Sea - English Channel").unwrap(),
        ),
    ];
    let mut rules = Rules::default();
    rules.set("wrong_nationality", "Invalid").unwrap();
    let r = adjudicate_movement(map, &units, &orders, &rules);
    assert!(
        r.dislodged.is_empty(),
        "French F English Channel dislodged; support outcome: {:?}",
        r.outcomes[1]
    );
}
