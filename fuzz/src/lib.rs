//! Shared parts of the fuzz targets: structured inputs (built with `arbitrary`) that become
//! positions, orders and rule options on the standard map or on a small generated map, and the
//! checks every target ends with. A check that fails panics, which libFuzzer reports as a crash.
//!
//! Each target's whole body is a function here ([`order_parser`], [`scenario_loader`],
//! [`map_loader`], [`jdip_import`], [`adjudicate`]) taking the raw input bytes; the files in
//! `fuzz_targets/` only hand libFuzzer's input to it. The repository's `cargo test` includes this
//! file too (`tests/it/fuzz_replay.rs`) and runs every committed corpus input and every past crash
//! (`fuzz/regressions/TARGET/`) through the same functions on the stable compiler, without
//! libFuzzer.

use std::fmt::Write as _;
use std::sync::Arc;

use arbitrary::Arbitrary;
use dipsandbox_core::model::board::{Dislodged, Phase, PhaseKind, Season, Unit};
use dipsandbox_core::model::map::{Coast, LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use dipsandbox_core::model::orders::{
    LocSpec, NameStyle, Order, OrderKind, UnitRef, UnitSpec, format_order, parse_order,
};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::{OrderEntry, Scenario};
use dipsandbox_core::tools::invariants::{Violation, check_scenario, report};

/// Panics (a crash for libFuzzer) when the checker found anything.
pub fn assert_clean(what: &str, v: &[Violation]) {
    if !v.is_empty() {
        panic!("{what}: {} invariant violation(s):\n{}", v.len(), report(v));
    }
}

/// What a scenario means, independent of how its file lists things: the same position, orders
/// (each power's in their order: the file groups them by power), rules and expectations.
fn meaning(s: &Scenario) -> String {
    let mut units = s.units.clone();
    units.sort();
    let mut dislodged: Vec<_> = s
        .dislodged
        .iter()
        .map(|d| (d.unit, d.attacker_from, d.by_convoy))
        .collect();
    dislodged.sort();
    let per_power = |orders: &[OrderEntry]| {
        let mut powers: Vec<PowerId> = orders.iter().map(|e| e.power).collect();
        powers.sort();
        powers.dedup();
        powers
            .into_iter()
            .map(|p| {
                let list: Vec<&Order> = orders
                    .iter()
                    .filter(|e| e.power == p)
                    .map(|e| &e.order)
                    .collect();
                format!("{p:?}: {list:?}")
            })
            .collect::<Vec<_>>()
    };
    let expect = |e: &Option<dipsandbox_core::model::scenario::Expect>, orders: &[OrderEntry]| {
        e.as_ref().map(|e| {
            let mut results: Vec<String> = e
                .results
                .iter()
                .map(|(i, key, r)| {
                    let o = orders.get(*i).map(|o| (o.power, &o.order));
                    format!("{o:?} {key:?} {r:?}")
                })
                .collect();
            results.sort();
            let sorted = |v: &Option<Vec<Unit>>| {
                v.clone().map(|mut v| {
                    v.sort();
                    v
                })
            };
            // Expected dislodgements name a unit by kind and place only (the owner is whoever
            // stands there).
            let dislodged = e.dislodged.as_ref().map(|v| {
                let mut v: Vec<_> = v.iter().map(|u| (u.kind, u.loc)).collect();
                v.sort();
                v
            });
            format!("{results:?} {dislodged:?} {:?}", sorted(&e.positions))
        })
    };
    let retreats = s.retreats.as_ref().map(|f| {
        format!(
            "{:?} {:?}",
            per_power(&f.orders),
            expect(&f.expect, &f.orders)
        )
    });
    format!(
        "{:?}\n{:?}\n{:?}\n{}\n{:?}\n{units:?}\n{dislodged:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{retreats:?}",
        s.title,
        s.description,
        s.source,
        s.phase,
        s.rules,
        s.contested,
        s.owners_or_home(),
        per_power(&s.orders),
        expect(&s.expect, &s.orders),
    )
}

/// A scenario survives saving and loading: it means the same ([`meaning`]).
pub fn assert_roundtrip(s: &Scenario, file: &str) {
    let text = s.to_ron();
    let back = match Scenario::from_ron(&text, file) {
        Ok(b) => b,
        Err(e) => panic!("a saved scenario does not load again: {e}\n{text}"),
    };
    let (a, b) = (meaning(s), meaning(&back));
    if a != b {
        panic!("a saved scenario loads back different:\n{text}\n--- before:\n{a}\n--- after:\n{b}");
    }
}

/// Options of every rule, as the table of [`Rules`] lists them.
fn rules_from(choices: &[(u8, u8)]) -> Rules {
    let table = Rules::default().table();
    let mut rules = Rules::default();
    for &(field, value) in choices {
        let row = &table[field as usize % table.len()];
        let v = row.values[value as usize % row.values.len()];
        // Every value the table lists is accepted.
        rules
            .set(row.field, v)
            .unwrap_or_else(|e| panic!("{}={v}: {e}", row.field));
    }
    rules
}

// ---------------------------------------------------------------------------------------------
// Small generated maps.
// ---------------------------------------------------------------------------------------------

/// One province of a small map.
#[derive(Arbitrary, Debug, Clone)]
pub struct RawProvince {
    kind: u8,
    supply_centre: bool,
    two_coasts: bool,
}

/// A small map: 2 to 12 provinces, borders between any two, 1 to 4 powers.
#[derive(Arbitrary, Debug, Clone)]
pub struct SmallMap {
    provinces: Vec<RawProvince>,
    borders: Vec<(u8, u8, bool, bool)>,
    powers: u8,
    homes: Vec<(u8, u8)>,
}

const LETTERS: &[u8] = b"bdgjkmqvxz";

fn abbr(i: usize) -> String {
    format!(
        "q{}{}",
        LETTERS[i / 10 % 10] as char,
        LETTERS[i % 10] as char
    )
}

impl SmallMap {
    /// The map as RON text; valid by construction (symmetric borders, armies off the sea,
    /// fleets off the land, two-coast provinces' fleet borders on their coasts).
    pub fn to_ron(&self) -> String {
        let n = self.provinces.len().clamp(2, 12);
        let prov = |i: usize| {
            self.provinces.get(i).cloned().unwrap_or(RawProvince {
                kind: 1,
                supply_centre: i == 0,
                two_coasts: false,
            })
        };
        let kinds: Vec<ProvinceKind> = (0..n)
            .map(|i| match prov(i).kind % 3 {
                0 => ProvinceKind::Sea,
                1 => ProvinceKind::Coast,
                _ => ProvinceKind::Land,
            })
            .collect();
        let two: Vec<bool> = (0..n)
            .map(|i| kinds[i] == ProvinceKind::Coast && prov(i).two_coasts)
            .collect();
        let sc: Vec<bool> = (0..n)
            .map(|i| kinds[i] != ProvinceKind::Sea && prov(i).supply_centre)
            .collect();
        let mut army: Vec<Vec<String>> = vec![Vec::new(); n];
        // Fleet borders per location: (province, coast index) -> names.
        let mut fleet: Vec<[Vec<String>; 2]> = vec![[Vec::new(), Vec::new()]; n];
        let mut seen = std::collections::HashSet::new();
        let loc = |p: usize, c: bool| {
            if two[p] {
                format!("{}/{}", abbr(p), if c { "sc" } else { "nc" })
            } else {
                abbr(p)
            }
        };
        for &(a, b, ca, cb) in &self.borders {
            let (a, b) = (a as usize % n, b as usize % n);
            if a == b || !seen.insert((a.min(b), a.max(b))) {
                continue;
            }
            if kinds[a] != ProvinceKind::Sea && kinds[b] != ProvinceKind::Sea {
                army[a].push(abbr(b));
                army[b].push(abbr(a));
            }
            if kinds[a] != ProvinceKind::Land && kinds[b] != ProvinceKind::Land {
                fleet[a][(two[a] && ca) as usize].push(loc(b, cb));
                fleet[b][(two[b] && cb) as usize].push(loc(a, ca));
            }
        }
        let powers = 1 + self.powers as usize % 4;
        let names = ["Red", "Blue", "Green", "Gold"];
        let adjectives = ["Reddish", "Bluish", "Greenish", "Golden"];
        let mut home: Vec<Vec<usize>> = vec![Vec::new(); powers];
        let mut taken = vec![false; n];
        for &(p, q) in &self.homes {
            let q = q as usize % n;
            if sc[q] && !taken[q] {
                taken[q] = true;
                home[p as usize % powers].push(q);
            }
        }
        let list = |v: &[String]| {
            v.iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = String::from(
            "Map(\n    name: \"small\",\n    title: \"a generated map\",\n    powers: [\n",
        );
        for (k, h) in home.iter().enumerate() {
            let homes: Vec<String> = h.iter().map(|&q| abbr(q)).collect();
            let start: Vec<String> = h
                .iter()
                .map(|&q| match kinds[q] {
                    ProvinceKind::Coast if two[q] => format!("F {}", loc(q, false)),
                    _ => format!("A {}", abbr(q)),
                })
                .collect();
            let _ = writeln!(
                s,
                "        Power(name: {:?}, adjective: {:?}, home: [{}], start: [{}]),",
                names[k],
                adjectives[k],
                list(&homes),
                list(&start)
            );
        }
        s.push_str("    ],\n    provinces: [\n");
        for i in 0..n {
            let kind = match kinds[i] {
                ProvinceKind::Sea => "Sea",
                ProvinceKind::Coast => "Coast",
                ProvinceKind::Land => "Land",
            };
            let _ = write!(
                s,
                "        Province(abbr: {:?}, name: \"Place {}\", kind: {kind}, supply_center: {}, army: [{}]",
                abbr(i),
                abbr(i).to_uppercase(),
                sc[i],
                list(&army[i])
            );
            if two[i] {
                let _ = write!(
                    s,
                    ", coasts: [Coast(name: \"nc\", fleet: [{}]), Coast(name: \"sc\", fleet: [{}])]",
                    list(&fleet[i][0]),
                    list(&fleet[i][1])
                );
            } else {
                let _ = write!(s, ", fleet: [{}]", list(&fleet[i][0]));
            }
            s.push_str("),\n");
        }
        s.push_str("    ],\n)\n");
        s
    }
}

// ---------------------------------------------------------------------------------------------
// Positions, orders and phases.
// ---------------------------------------------------------------------------------------------

/// A unit: a province, an owner, army or fleet (where both can stand), a coast.
#[derive(Arbitrary, Debug, Clone)]
pub struct RawUnit {
    province: u8,
    power: u8,
    fleet: bool,
    coast: u8,
}

/// An order: whose unit (an index among the units, or a province), what kind, two choices and
/// bits for the finer ones (letters, coasts, nationalities, `via convoy`, a path, a prefix).
#[derive(Arbitrary, Debug, Clone)]
pub struct RawOrder {
    subject: u8,
    kind: u8,
    a: u8,
    b: u8,
    flags: u16,
    path: Vec<u8>,
}

/// A dislodged unit for a retreat phase: which unit of the position dislodged it (it stands in
/// that unit's province), where the attacker came from.
#[derive(Arbitrary, Debug, Clone)]
pub struct RawDislodged {
    dislodger: u8,
    power: u8,
    fleet: bool,
    coast: u8,
    from: u8,
    by_convoy: bool,
}

/// Everything the adjudicator target builds a game from.
#[derive(Arbitrary, Debug, Clone)]
pub struct Game {
    /// None: the standard map.
    pub map: Option<SmallMap>,
    units: Vec<RawUnit>,
    dislodged: Vec<RawDislodged>,
    contested: Vec<u8>,
    owners: Option<Vec<(u8, u8)>>,
    phase: u8,
    rules: Vec<(u8, u8)>,
    /// Orders of the first phase, then of each phase `turn::advance` goes on to.
    phases: Vec<Vec<RawOrder>>,
    seed: u64,
}

fn place(map: &Map, p: ProvinceId, fleet: bool, coast: u8) -> (UnitKind, LocId) {
    let prov = map.province(p);
    let kind = match prov.kind {
        ProvinceKind::Sea => UnitKind::Fleet,
        ProvinceKind::Land => UnitKind::Army,
        ProvinceKind::Coast if fleet => UnitKind::Fleet,
        ProvinceKind::Coast => UnitKind::Army,
    };
    let loc = if kind == UnitKind::Fleet && prov.is_multi_coast() {
        prov.coasts[coast as usize % prov.coasts.len()].1
    } else {
        prov.main
    };
    (kind, loc)
}

impl RawOrder {
    fn bit(&self, k: u32) -> bool {
        self.flags >> k & 1 == 1
    }

    /// A place as written: a province, and sometimes a coast (right or random).
    fn spec(&self, map: &Map, l: LocId, bit: u32) -> LocSpec {
        let at = map.location(l);
        let coast = if self.bit(bit) {
            at.coast
        } else if self.bit(bit + 1) {
            Some(Coast::ALL[(self.a ^ self.b) as usize % 4])
        } else {
            None
        };
        LocSpec {
            province: at.province,
            coast,
        }
    }

    /// A unit as written: mostly with its letter; sometimes without, sometimes the wrong one.
    fn unit_spec(&self, map: &Map, u: &Unit, bit: u32) -> UnitSpec {
        let kind = match (self.bit(bit), self.bit(bit + 1)) {
            (false, false) => None,
            (true, true) => Some(match u.kind {
                UnitKind::Army => UnitKind::Fleet,
                UnitKind::Fleet => UnitKind::Army,
            }),
            _ => Some(u.kind),
        };
        UnitSpec {
            kind,
            loc: self.spec(map, u.loc, bit + 2),
        }
    }

    /// A province near `l` for unit kind `k` (its `choice`th neighbour), or any province.
    fn near(&self, map: &Map, k: UnitKind, l: LocId, choice: u8) -> LocId {
        let ns: Vec<LocId> = match k {
            UnitKind::Army => map
                .army_neighbours(map.province_of(l))
                .iter()
                .map(|p| map.province(*p).main)
                .collect(),
            UnitKind::Fleet => map.fleet_neighbours(l).to_vec(),
        };
        if ns.is_empty() || self.bit(15) {
            let p = ProvinceId((choice as usize % map.province_count()) as u32);
            map.province(p).main
        } else {
            ns[choice as usize % ns.len()]
        }
    }

    /// The order, for units `pool` (the position's units, or the dislodged ones in a retreat
    /// phase); `moves` holds each unit's move so far, for supports and convoys to match.
    fn build(
        &self,
        map: &Map,
        pool: &[Unit],
        moves: &mut [Option<LocId>],
        phase: PhaseKind,
    ) -> (PowerId, Order) {
        let np = map.powers.len();
        let random_province = |x: u8| ProvinceId((x as usize % map.province_count()) as u32);
        // The ordered unit: one of the pool, or (rarely) whatever stands in a random province.
        // Builds mostly name a province rather than a unit.
        let build = phase == PhaseKind::Adjustment && self.kind % 12 == 9 && !self.bit(0);
        let (who, subject) = if pool.is_empty() || build || (self.bit(0) && self.bit(1)) {
            let p = random_province(self.subject);
            let prov = map.province(p);
            let kind = if prov.kind == ProvinceKind::Sea || self.bit(2) {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            };
            let loc = if kind == UnitKind::Fleet && prov.is_multi_coast() {
                prov.coasts[0].1
            } else {
                prov.main
            };
            let power = PowerId((self.b as usize % np) as u8);
            (None, Unit { power, kind, loc })
        } else {
            let i = self.subject as usize % pool.len();
            (Some(i), pool[i])
        };
        let unit = Some(self.unit_spec(map, &subject, 3));
        let kind = match (phase, self.kind % 12) {
            (_, 0) => OrderKind::Hold,
            (_, 1..=4) => {
                let to = self.near(map, subject.kind, subject.loc, self.a);
                if let Some(i) = who {
                    moves[i] = Some(to);
                }
                let path = if self.bit(8) {
                    self.path
                        .iter()
                        .take(4)
                        .map(|&x| random_province(x))
                        .collect()
                } else {
                    Vec::new()
                };
                OrderKind::Move {
                    dest: self.spec(map, to, 9),
                    via_convoy: self.bit(11),
                    path,
                }
            }
            (_, 5..=7) if !pool.is_empty() => {
                let t = self.b as usize % pool.len();
                let target = self.unit_ref(map, &pool[t]);
                let dest = match (moves[t], self.bit(12)) {
                    (Some(d), false) => Some(self.spec(map, d, 13)),
                    (None, true) => {
                        Some(self.spec(map, self.near(map, pool[t].kind, pool[t].loc, self.a), 13))
                    }
                    _ => None,
                };
                OrderKind::Support { target, dest }
            }
            (_, 8) if !pool.is_empty() => {
                let t = self.b as usize % pool.len();
                let dest = match moves[t] {
                    Some(d) if !self.bit(12) => map.location(d).province,
                    _ => random_province(self.a),
                };
                OrderKind::Convoy {
                    army: self.unit_ref(map, &pool[t]),
                    dest: LocSpec {
                        province: dest,
                        coast: None,
                    },
                }
            }
            (PhaseKind::Adjustment, 9) => OrderKind::Build,
            (_, 9) | (_, 10) => {
                if self.bit(12) {
                    OrderKind::Disband
                } else {
                    OrderKind::Remove
                }
            }
            (_, 11) => OrderKind::Waive,
            _ => OrderKind::Hold,
        };
        let (unit, kind) = match kind {
            OrderKind::Waive => (None, OrderKind::Waive),
            k => (unit, k),
        };
        // Mostly the unit's owner gives the order; sometimes another power.
        let power = if self.bit(14) {
            PowerId((self.a as usize % np) as u8)
        } else {
            subject.power
        };
        let prefix = self.bit(7).then_some(power);
        (
            power,
            Order {
                power: prefix,
                unit,
                kind,
            },
        )
    }

    fn unit_ref(&self, map: &Map, u: &Unit) -> UnitRef {
        let np = map.powers.len();
        let power = match (self.bit(5), self.bit(6)) {
            (true, false) => Some(u.power),
            (true, true) => Some(PowerId(((u.power.0 as usize + 1) % np) as u8)),
            _ => None,
        };
        UnitRef {
            power,
            unit: self.unit_spec(map, u, 9),
        }
    }
}

/// Orders for a scenario's phase: movement orders for its units, retreats for its dislodged
/// units, builds and removals for everyone.
pub fn orders_for(s: &Scenario, raw: &[RawOrder]) -> Vec<OrderEntry> {
    let map = &*s.map;
    let pool: Vec<Unit> = match s.phase.kind {
        PhaseKind::Retreat => s.dislodged.iter().map(|d| d.unit).collect(),
        _ => s.units.clone(),
    };
    let mut moves = vec![None; pool.len()];
    raw.iter()
        .take(120)
        .map(|r| {
            let (power, order) = r.build(map, &pool, &mut moves, s.phase.kind);
            OrderEntry {
                power,
                text: format_order(map, &order, NameStyle::Full),
                order,
            }
        })
        .collect()
}

/// The game's first scenario and rules, on the standard map or its small map (None when the
/// small map does not load, which a check reports).
pub fn first_scenario(g: &Game) -> (Scenario, Rules) {
    let map: Arc<Map> = match &g.map {
        None => Map::standard_arc(),
        Some(m) => {
            let text = m.to_ron();
            match Map::from_ron(&text, "small.ron") {
                Ok(map) => Arc::new(map),
                Err(e) => panic!("a generated map is refused: {e}\n{text}"),
            }
        }
    };
    let map_ref = if g.map.is_none() { "standard" } else { "small" };
    let mut s = Scenario::empty(map.clone(), map_ref);
    let np = map.province_count();
    let mut taken = vec![false; np];
    for ru in g.units.iter().take(90) {
        let p = ProvinceId((ru.province as usize % np) as u32);
        if taken[p.0 as usize] {
            continue;
        }
        taken[p.0 as usize] = true;
        let (kind, loc) = place(&map, p, ru.fleet, ru.coast);
        let power = PowerId((ru.power as usize % map.powers.len()) as u8);
        s.units.push(Unit { power, kind, loc });
    }
    let (season, kind) = match g.phase % 5 {
        0 => (Season::Spring, PhaseKind::Movement),
        1 => (Season::Fall, PhaseKind::Movement),
        2 => (Season::Spring, PhaseKind::Retreat),
        3 => (Season::Fall, PhaseKind::Retreat),
        _ => (Season::Winter, PhaseKind::Adjustment),
    };
    s.phase = Phase {
        season,
        year: 1901 + (g.phase / 5 % 4) as i32,
        kind,
    };
    if kind == PhaseKind::Retreat && !s.units.is_empty() {
        let mut used = vec![false; np];
        for d in g.dislodged.iter().take(20) {
            let by = s.units[d.dislodger as usize % s.units.len()];
            let p = map.province_of(by.loc);
            if used[p.0 as usize] {
                continue;
            }
            used[p.0 as usize] = true;
            let (kind, loc) = place(&map, p, d.fleet, d.coast);
            let power = PowerId((d.power as usize % map.powers.len()) as u8);
            let from = ProvinceId((d.from as usize % np) as u32);
            s.dislodged.push(Dislodged {
                unit: Unit { power, kind, loc },
                attacker_from: from,
                by_convoy: d.by_convoy,
            });
        }
        for &c in g.contested.iter().take(10) {
            let p = ProvinceId((c as usize % np) as u32);
            if !taken[p.0 as usize] && !s.contested.contains(&p) {
                s.contested.push(p);
            }
        }
    }
    if let Some(o) = &g.owners {
        let mut owners: Vec<Option<PowerId>> = map.provinces.iter().map(|p| p.home_of).collect();
        for &(p, w) in o.iter().take(40) {
            let p = p as usize % np;
            if map.provinces[p].supply_center {
                owners[p] = (w as usize)
                    .checked_sub(1)
                    .map(|w| PowerId((w % map.powers.len()) as u8));
            }
        }
        s.owners = Some(owners);
    }
    s.rules = rules_from(&g.rules);
    let first: &[RawOrder] = g.phases.first().map(Vec::as_slice).unwrap_or(&[]);
    s.orders = orders_for(&s, first);
    let rules = s.rules;
    (s, rules)
}

/// Plays the game: each phase is checked ([`check_scenario`]: the invariants, listing order,
/// tracing, the step of the turn cycle) and, on the standard map, saved and loaded again; then
/// `turn::advance` goes on to the next phase with the next list of orders.
pub fn play(g: &Game) {
    let (mut s, rules) = first_scenario(g);
    let standard = g.map.is_none();
    for k in 0..g.phases.len().clamp(1, 6) {
        if k > 0 {
            s.orders = orders_for(&s, &g.phases[k]);
        }
        assert_clean(
            &format!("phase {k} ({})", s.phase),
            &check_scenario(&s, &rules, g.seed.wrapping_add(k as u64)),
        );
        if standard {
            assert_roundtrip(&s, "fuzz.ron");
        }
        // `advance` refuses to go past the last year: the game ends there.
        match dipsandbox_core::tools::turn::advance(&s, &rules) {
            Ok(a) => s = a.next,
            Err(_) => break,
        }
    }
}

/// The order parser: never panics; wherever the fast path for plain orders and units answers,
/// the full parser gives the same; an error points inside the text (or just past its end); a
/// parsed order prints in either style to a text that parses back to the same order.
pub fn check_order_text(map: &Map, text: &str) {
    // The one-pass fast path for plain orders reads what the parser reads, wherever it answers.
    if let Err(e) = dipsandbox_core::model::orders::plain_path_agrees(map, text) {
        panic!("{e}");
    }
    let end = text.chars().count() + 1;
    match parse_order(map, text) {
        Ok(o) => {
            for style in [NameStyle::Abbr, NameStyle::Full] {
                let printed = format_order(map, &o, style);
                match parse_order(map, &printed) {
                    Ok(back) if back == o => {}
                    other => panic!(
                        "{text:?} parses to {o:?}, which prints as {printed:?}, which parses to {other:?}"
                    ),
                }
            }
        }
        Err(e) => assert!(
            e.col >= 1 && e.col <= end,
            "{text:?}: error at column {} of {}: {}",
            e.col,
            end - 1,
            e.message
        ),
    }
    for r in [
        dipsandbox_core::model::orders::parse_unit(map, text).err(),
        dipsandbox_core::model::orders::parse_loc(map, text).err(),
    ]
    .into_iter()
    .flatten()
    {
        assert!(
            r.col >= 1 && r.col <= end,
            "{text:?}: error at column {}: {}",
            r.col,
            r.message
        );
    }
}

/// A scenario that loads is adjudicated and checked, and survives saving and loading.
pub fn check_loaded(s: &Scenario, seed: u64) {
    assert_clean(&s.title, &check_scenario(s, &s.rules, seed));
    assert_roundtrip(s, "fuzz.ron");
}

/// The `order_parser` target: any text, as an order, a unit and a place ([`check_order_text`]).
pub fn order_parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let map = Map::standard_arc();
    check_order_text(&map, &text);
}

/// The `scenario_loader` target: the fast reader agrees with `ron`; a scenario that loads is
/// adjudicated, checked and survives saving and loading ([`check_loaded`]).
pub fn scenario_loader(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = dipsandbox_core::model::scenario::fast_reader_agrees(&text) {
        panic!("{e}");
    }
    if let Ok(s) = Scenario::from_ron(&text, "fuzz.ron") {
        check_loaded(&s, data.len() as u64);
    }
}

/// The `map_loader` target: a map that loads has symmetric borders, and its opening position
/// plays four phases with the invariant checker after each.
pub fn map_loader(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(map) = Map::from_ron(&text, "fuzz.ron") else {
        return;
    };
    for p in map.province_ids() {
        for &q in map.army_neighbours(p) {
            assert!(
                map.army_neighbours(q).contains(&p),
                "army border not symmetric"
            );
        }
        for l in map.locations_of(p) {
            for &m in map.fleet_neighbours(l) {
                assert!(
                    map.fleet_neighbours(m).contains(&l),
                    "fleet border not symmetric"
                );
            }
        }
    }
    let _ = map.summary();
    let mut s = Scenario::opening(Arc::new(map), "fuzz");
    // The opening may put two units in one province (a map file can say so): nothing to play.
    let mut seen = std::collections::HashSet::new();
    if !s
        .units
        .iter()
        .all(|u| seen.insert(s.map.province_of(u.loc)))
    {
        return;
    }
    let rules = s.rules;
    for k in 0..4u64 {
        let v = check_scenario(&s, &rules, k);
        assert_clean(&format!("{}", s.phase), &v);
        match dipsandbox_core::tools::turn::advance(&s, &rules) {
            Ok(a) => s = a.next,
            Err(_) => break,
        }
    }
}

/// The `jdip_import` target: every imported case (up to 8) is checked like a loaded scenario,
/// compared as `check` does; the text read as a pairing file never panics.
pub fn jdip_import(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = dipsandbox_core::io::jdip::looks_like_jdip(&text);
    let mut file = dipsandbox_core::io::jdip::parse(&text, "fuzz.txt", Map::standard_arc());
    for (k, case) in file.cases.iter().enumerate().take(8) {
        check_loaded(&case.scenario, k as u64);
        if let Ok(run) = dipsandbox_core::tools::check::run(&case.scenario, None, false) {
            let _ = dipsandbox_core::io::jdip::compare(&case.scenario, &run);
            let _ = dipsandbox_core::io::jdip::with_destroyed_units(&case.scenario, &run);
        }
    }
    dipsandbox_core::io::jdip::apply_rules_file(&mut file, &text, "fuzz.rules");
}

/// The `adjudicate` target: the bytes become a [`Game`] (as libFuzzer's typed targets build
/// one: `arbitrary_take_rest`), which is [`play`]ed. Bytes that make no game are skipped.
pub fn adjudicate(data: &[u8]) {
    if let Ok(game) = Game::arbitrary_take_rest(arbitrary::Unstructured::new(data)) {
        play(&game);
    }
}

// ---------------------------------------------------------------------------------------------
// The outside-adjudicator protocol's answers.
// ---------------------------------------------------------------------------------------------

/// The phases an answer is read against: DATC movement cases (a supported hold, two
/// dislodgements, coasts, a convoy paradox, a circular movement with a convoy), a whole board's
/// Fall movement, two retreat phases (dislodged units, a standoff, a convoyed attacker, a
/// two-coast province), three adjustment phases (builds, a coast left out, civil disorder) and a
/// movement phase of odd orders ([`ODD_ORDERS`]).
const PROTOCOL_PHASES: &[(&str, &str)] = &[
    ("6.D.1.ron", include_str!("../../scenarios/datc/6.D.1.ron")),
    ("6.H.1.ron", include_str!("../../scenarios/datc/6.H.1.ron")),
    ("6.B.6.ron", include_str!("../../scenarios/datc/6.B.6.ron")),
    (
        "6.F.16.ron",
        include_str!("../../scenarios/datc/6.F.16.ron"),
    ),
    ("6.C.4.ron", include_str!("../../scenarios/datc/6.C.4.ron")),
    (
        "2-fall-1901-movement.ron",
        include_str!("../../scenarios/year-1901/2-fall-1901-movement.ron"),
    ),
    (
        "hand_retreat.ron",
        include_str!("../../tests/data/hand_retreat.ron"),
    ),
    (
        "3-fall-1901-retreat.ron",
        include_str!("../../scenarios/year-1901/3-fall-1901-retreat.ron"),
    ),
    (
        "4-winter-1901-adjustment.ron",
        include_str!("../../scenarios/year-1901/4-winter-1901-adjustment.ron"),
    ),
    (
        "6.B.14.ron",
        include_str!("../../scenarios/datc/6.B.14.ron"),
    ),
    ("6.J.3.ron", include_str!("../../scenarios/datc/6.J.3.ron")),
    ("odd-orders.ron", ODD_ORDERS),
];

/// A movement phase of orders no engine would let succeed — an army to a sea, a fleet inland, a
/// fleet to a two-coast province without its coast, a move to a province not next to it, two
/// orders for one unit, an order for another power's unit and one for an empty province — so
/// that an answer's verdicts can make them succeed.
const ODD_ORDERS: &str = r#"Scenario(
    title: "Odd orders",
    map: "standard",
    phase: "Spring 1901 Movement",
    rules: (),
    units: {
        "France": ["A Paris", "F Brest", "F Mid-Atlantic Ocean", "A Gascony"],
        "Germany": ["A Munich", "F Kiel"],
        "England": ["F English Channel"],
    },
    orders: {
        "France": [
            "A Paris - English Channel",
            "F Brest - Paris",
            "F Mid-Atlantic Ocean - Spain",
            "A Gascony - Moscow",
            "A Gascony - Spain",
            "F Kiel - Berlin",
            "A Burgundy Hold",
        ],
        "Germany": [
            "A Munich - Kiel",
            "F Kiel - Munich",
        ],
        "England": [
            "F English Channel - Brest",
        ],
    },
)"#;

/// The request id every answer of the `protocol_answer` target is read against.
pub const PROTOCOL_ID: u64 = 1;

/// [`PROTOCOL_PHASES`], loaded once.
pub fn protocol_phases() -> &'static [Scenario] {
    static PHASES: std::sync::OnceLock<Vec<Scenario>> = std::sync::OnceLock::new();
    PHASES.get_or_init(|| {
        PROTOCOL_PHASES
            .iter()
            .map(|(file, text)| {
                Scenario::from_ron(text, file).unwrap_or_else(|e| panic!("{file}: {e}"))
            })
            .collect()
    })
}

/// A reason's length as shown, an escape (`\u{1b}`, `\n`) counted as the one character it
/// stands for.
fn shown_len(reason: &str) -> usize {
    let mut n = 0;
    let mut rest = reason;
    while let Some(c) = rest.chars().next() {
        let skip = if let Some(t) = rest.strip_prefix("\\u{") {
            t.find('}')
                .filter(|&k| k <= 6 && t[..k].chars().all(|c| c.is_ascii_hexdigit()))
                .map_or(1, |k| 4 + k)
        } else if ["\\n", "\\r", "\\t", "\\0"]
            .iter()
            .any(|e| rest.starts_with(e))
        {
            2
        } else {
            c.len_utf8()
        };
        rest = &rest[skip..];
        n += 1;
    }
    n
}

/// What every phase result promises, whoever made it: one outcome per order, every reason one
/// plain line of bounded length, a board that can be (one unit a province, each unit where its
/// kind can stand — also when worked out from an answer's verdicts: bug 6 of docs/fuzzing.md),
/// each dislodged unit a unit of the position, dislodged once, every province named one of the
/// map.
pub fn check_phase_result(
    input: &dipsandbox_core::engine::PhaseInput<'_>,
    r: &dipsandbox_core::engine::PhaseResult,
) {
    use dipsandbox_core::engine::outside::protocol::MAX_REASON;
    let map = input.map;
    assert_eq!(
        r.outcomes.len(),
        input.orders.len(),
        "one outcome per order"
    );
    // The cut note: `… (cut: the message has N characters)`.
    let note = "… (cut: the message has 18446744073709551615 characters)"
        .chars()
        .count();
    for (i, o) in r.outcomes.iter().enumerate() {
        if let Some((at, c)) = dipsandbox_core::base::text::first_unprintable(&o.reason) {
            panic!(
                "order {i}'s reason holds {c:?} at byte {at}: {:?}",
                o.reason
            );
        }
        let shown = shown_len(&o.reason);
        assert!(
            shown <= MAX_REASON + note,
            "order {i}'s reason is {shown} characters long"
        );
        // Escaped, a character takes at most 8 (`\u{202e}`).
        let chars = o.reason.chars().count();
        assert!(
            chars <= 8 * MAX_REASON + note,
            "order {i}'s reason is {chars} characters long once escaped"
        );
    }
    let mut held = std::collections::HashMap::new();
    for u in &r.final_units {
        assert!(
            (u.power.0 as usize) < map.powers.len(),
            "a unit of no power of the map: {u:?}"
        );
        assert!(
            (u.loc.0 as usize) < map.locations.len(),
            "a unit at no location of the map: {u:?}"
        );
        let p = map.province_of(u.loc);
        if let Some(other) = held.insert(p, *u) {
            panic!(
                "two units in {} after the phase: {} and {}\n{:?}",
                map.province(p).name,
                other.describe(map),
                u.describe(map),
                r.final_units
            );
        }
        let prov = map.province(p);
        let at = map.location(u.loc);
        let wrong = match (u.kind, prov.kind) {
            (UnitKind::Army, ProvinceKind::Sea) => Some("an army at sea"),
            (UnitKind::Fleet, ProvinceKind::Land) => Some("a fleet inland"),
            (UnitKind::Army, _) if at.coast.is_some() => Some("an army on a coast"),
            (UnitKind::Fleet, _) if prov.is_multi_coast() && at.coast.is_none() => {
                Some("a fleet on a two-coast province without its coast")
            }
            _ => None,
        };
        if let Some(wrong) = wrong {
            panic!("after the phase, {wrong}: {} ({u:?})", u.describe(map));
        }
    }
    let mut out = std::collections::HashSet::new();
    for d in &r.dislodged {
        assert!(
            input.units.contains(&d.unit),
            "a dislodged unit that was not on the board: {d:?}"
        );
        assert!(
            (d.attacker_from.0 as usize) < map.province_count(),
            "an attacker from no province of the map: {d:?}"
        );
        assert!(
            out.insert(map.province_of(d.unit.loc)),
            "{} dislodged twice",
            d.unit.describe(map)
        );
    }
    for p in &r.contested {
        assert!(
            (p.0 as usize) < map.province_count(),
            "a standoff in no province of the map: {p:?}"
        );
    }
}

/// The `protocol_answer` target: the first byte chooses a phase of [`PROTOCOL_PHASES`] (`B` the
/// first, `C` the second, …, counted round), the rest is read as an answer (JSON) to its request,
/// and turned into a phase result. Never panics; a
/// result it gives keeps [`check_phase_result`]'s promises.
pub fn protocol_answer(data: &[u8]) {
    use dipsandbox_core::engine::outside::protocol::{Answer, answer_to_result};
    let Some((&choice, json)) = data.split_first() else {
        return;
    };
    let phases = protocol_phases();
    let s = &phases[choice.wrapping_sub(b'B') as usize % phases.len()];
    let Ok(answer) = serde_json::from_slice::<Answer>(json) else {
        return;
    };
    let rules = s.rules;
    let input = dipsandbox_core::engine::PhaseInput::of(s, &rules);
    // The request is written for the phase (no panic), then the answer read.
    let _ = dipsandbox_core::engine::outside::protocol::request(&input, PROTOCOL_ID);
    match answer_to_result(&input, PROTOCOL_ID, answer) {
        Ok(r) => check_phase_result(&input, &r),
        Err(e) => {
            // An error names what is wrong on one line.
            if let Some((at, c)) = dipsandbox_core::base::text::first_unprintable(&e) {
                panic!("the error holds {c:?} at byte {at}: {e:?}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// `versus merge`'s summaries.
// ---------------------------------------------------------------------------------------------

/// What separates the summaries of one `versus_summary` input.
pub const SUMMARY_SEPARATOR: u8 = 0;

/// Whether `name` is one plain file name in a folder (what a class file must be).
fn plain_file_name(name: &str) -> bool {
    use std::path::{Component, Path};
    let mut parts = Path::new(name).components();
    matches!(parts.next(), Some(Component::Normal(n)) if n == std::ffi::OsStr::new(name))
        && parts.next().is_none()
        && name.ends_with(".ron")
        && name != ".."
        && !name.contains(['/', '\\'])
        && dipsandbox_core::base::text::first_unprintable(name).is_none()
}

/// The `versus_summary` target: up to three summaries (separated by [`SUMMARY_SEPARATOR`]) read
/// with `summary_from_ron` and checked with `check_summary`; those that read are merged. Never
/// panics; a merge keeps its promises: sums of the parts (no wrap), the shards the parts' shards,
/// each once, class and wording files plain names, one part per class and per wording row (the
/// first that has it), no class counting more than the disagreements, the wording rows counting
/// the positions that differ in words only; the merged summary is possible itself and reads back
/// from its text.
pub fn versus_summary(data: &[u8]) {
    use dipsandbox_core::tools::versus::{
        Shard, Summary, check_summary, merge_summaries, summary_from_ron,
    };
    let parts: Vec<Summary> = data
        .splitn(3, |&b| b == SUMMARY_SEPARATOR)
        .filter_map(|t| summary_from_ron(&String::from_utf8_lossy(t)).ok())
        .collect();
    let checked: Vec<_> = parts.iter().map(check_summary).collect();
    let Ok((t, from)) = merge_summaries(&parts) else {
        return;
    };
    // Every part was possible.
    for (i, c) in checked.iter().enumerate() {
        assert!(c.is_ok(), "part {i} merged, but check_summary says {c:?}");
    }
    let sum = |f: fn(&Summary) -> u64| {
        parts
            .iter()
            .try_fold(0u64, |a, s| a.checked_add(f(s)))
            .expect("a merge whose sums wrap")
    };
    assert_eq!(t.positions, sum(|s| s.positions), "positions");
    assert_eq!(t.disagreements, sum(|s| s.disagreements), "disagreements");
    assert_eq!(t.errors, sum(|s| s.errors), "errors");
    assert_eq!(
        t.wording_positions,
        sum(|s| s.wording_positions),
        "wording positions"
    );
    // The shards: the parts' shards, each once, in order.
    let mut theirs: Vec<(u64, u64)> = parts
        .iter()
        .flat_map(|s| s.shards.iter())
        .map(|x| Shard::parse(x).expect("a merged part's shard reads"))
        .map(|x| (x.index, x.of))
        .collect();
    theirs.sort_unstable();
    let ours: Vec<(u64, u64)> = t
        .shards
        .iter()
        .map(|x| Shard::parse(x).unwrap_or_else(|| panic!("merged shard {x:?} does not read")))
        .map(|x| (x.index, x.of))
        .collect();
    assert_eq!(ours, theirs, "the merged shards are the parts' shards");
    let mut distinct = ours.clone();
    distinct.dedup();
    assert_eq!(distinct, ours, "a shard listed twice");
    // The classes, then the wording rows: one part each.
    assert_eq!(
        from.len(),
        t.classes.len() + t.wording.len(),
        "one part per class and per wording row"
    );
    let mut files = std::collections::HashSet::new();
    for (c, &i) in t.classes.iter().zip(&from) {
        assert!(
            plain_file_name(&c.file),
            "class file {:?} is not a plain .ron name",
            c.file
        );
        assert!(files.insert(c.file.as_str()), "class {:?} twice", c.file);
        assert!(
            i < parts.len(),
            "class {:?} from part {i} of {}",
            c.file,
            parts.len()
        );
        let first = parts
            .iter()
            .position(|s| s.classes.iter().any(|r| r.file == c.file));
        assert_eq!(
            first,
            Some(i),
            "class {:?}: the first part that has it",
            c.file
        );
        let count = parts
            .iter()
            .flat_map(|s| &s.classes)
            .filter(|r| r.file == c.file)
            .try_fold(0u64, |a, r| a.checked_add(r.count))
            .expect("a class count that wraps");
        assert_eq!(c.count, count, "class {:?}: the sum of its counts", c.file);
        // A position with two causes is in two classes: each class alone is bounded.
        assert!(
            c.count <= t.disagreements && c.explained <= c.count,
            "class {:?}: {} positions ({} explained) of {} disagreements",
            c.file,
            c.count,
            c.explained,
            t.disagreements
        );
    }
    let mut worded = 0u64;
    for (w, &i) in t.wording.iter().zip(&from[t.classes.len()..]) {
        assert!(
            plain_file_name(&w.file),
            "wording file {:?} is not a plain .ron name",
            w.file
        );
        assert!(files.insert(w.file.as_str()), "file {:?} twice", w.file);
        assert!(i < parts.len(), "wording row {:?} from part {i}", w.file);
        worded = worded.checked_add(w.count).expect("wording count wraps");
    }
    assert_eq!(worded, t.wording_positions, "the wording rows' counts");
    if let Err(e) = check_summary(&t) {
        panic!("the merged summary is not possible: {e}");
    }
    // `versus merge` writes it as `summary.versus`, which reads back the same.
    let text = ron::ser::to_string_pretty(&t, ron::ser::PrettyConfig::default())
        .expect("a summary is written");
    match summary_from_ron(&text) {
        Ok(back) => assert_eq!(back, t, "the merged summary reads back different:\n{text}"),
        Err(e) => panic!("the merged summary does not read back: {e}\n{text}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Other adjudicators' map files.
// ---------------------------------------------------------------------------------------------

/// An empty folder for DPjudge's `USE` includes to be read from (so that they find nothing).
fn no_includes() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join("dipsandbox-fuzz-no-includes");
        let _ = std::fs::create_dir_all(&d);
        d
    })
}

/// An imported map loads again from its own RON with as many provinces and powers, and no name
/// of a province or a power holds a control or invisible character.
pub fn check_imported(what: &str, imported: &dipsandbox_core::io::dpjudge_map::Imported) {
    let map = &imported.map;
    let back = match Map::from_ron(&imported.ron, "imported.ron") {
        Ok(m) => m,
        Err(e) => panic!(
            "{what}: the imported map does not load again: {e}\n{}",
            imported.ron
        ),
    };
    assert_eq!(
        back.province_count(),
        map.province_count(),
        "{what}: the provinces of the imported map"
    );
    assert_eq!(
        back.powers.len(),
        map.powers.len(),
        "{what}: the powers of the imported map"
    );
    for m in [map, &back] {
        let provinces = m.provinces.iter().flat_map(|p| {
            [p.abbr.as_str(), p.name.as_str()]
                .into_iter()
                .chain(p.aliases.iter().map(String::as_str))
        });
        let powers = m.powers.iter().flat_map(|p| {
            [p.name.as_str(), p.adjective.as_str()]
                .into_iter()
                .chain(p.aliases.iter().map(String::as_str))
        });
        for n in std::iter::once(m.name.as_str())
            .chain(provinces)
            .chain(powers)
        {
            if let Some((at, c)) = dipsandbox_core::base::text::first_unprintable(n) {
                panic!("{what}: the name {n:?} holds {c:?} at byte {at}");
            }
        }
    }
}

/// The `map_import` target: a text that starts with `<` is a jDip `variants.xml`, its
/// adjacency file after a NUL byte (and, after another, the variant to read); any other text a
/// DPjudge `.map` (its includes read from an empty folder). Never panics; an imported map keeps
/// [`check_imported`]'s promises.
pub fn map_import(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('<')
    {
        let mut parts = text.splitn(3, '\0');
        let variants = parts.next().unwrap_or("");
        let adjacency = parts.next().unwrap_or("");
        let variant = parts.next();
        if let Ok(v) = dipsandbox_core::io::jdip_variant::import_text(
            variants,
            "variants.xml",
            adjacency,
            "adjacency.xml",
            None,
            variant,
        ) {
            assert!(
                dipsandbox_core::base::text::first_unprintable(&v.name).is_none(),
                "map name {:?}",
                v.name
            );
            check_imported("jDip variant", &v.imported);
        }
    } else if let Ok(m) =
        dipsandbox_core::io::dpjudge_map::import_text(&text, "fuzz.map", no_includes(), "fuzz")
    {
        check_imported("DPjudge map", &m);
    }
}
