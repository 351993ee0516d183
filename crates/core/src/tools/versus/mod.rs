//! `versus`: the differential bench. Random legal positions ([`positions`], seeded: position
//! `i` of a run depends only on the seed and `i`), each adjudicated by two engines; every
//! disagreement shrunk to a minimal position that still disagrees the same way ([`Way`]),
//! classified by its shape and by the single rule options that explain it, and kept as one
//! scenario file per class (a [`ClassRow`] of the [`Summary`]), with a count of the positions that fell in each.
//!
//! The library prints nothing and starts no thread: [`Versus::run`] takes a [`Parallel`] (the
//! command line gives a rayon pool), a stop flag and a progress callback.

pub mod positions;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::base::output::{FolderLock, LOCK_FILE};
use crate::base::text::one_line;
use crate::engine::decision::engine::DecisionEngine;
use crate::engine::outcome::{PhaseResult, Verdict};
use crate::engine::seam::{Engine, PhaseInput};
use crate::model::board::{Phase, PhaseKind, Season, Unit};
use crate::model::map::{Map, PowerId, ProvinceId, UnitKind};
use crate::model::orders::{NameStyle, Order, OrderKind, format_order};
use crate::model::rules::Rules;
use crate::model::scenario::{OrderEntry, Scenario, write_atomic};
use crate::tools::check::{adjudicate_scenario, freeze_expectations};
use crate::tools::diff::verdict_word;
use crate::tools::menu::{adjustment_orders, retreat_orders};
use crate::tools::minimize::ddmin;

use positions::{Recipe, Rng, random_position};

/// What kind of positions a run makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mix {
    /// Convoys next to supported attacks: the paradox core (DATC 6.F.14) in almost every
    /// position, convoys to neighbours (6.G) often.
    Paradox,
    /// Circular movement: rings of moves, no convoys.
    Circular,
    /// Head-to-head battles, often supported, no convoys.
    Head,
    /// Retreat phases: the dislodged units of a random movement phase, with random retreats.
    Retreat,
    /// Adjustment phases: random centre owners, random builds and removals, some powers with no
    /// orders (civil disorder).
    Adjust,
    /// A blend of all of them (the default).
    All,
}

impl Mix {
    /// Every mix, in the order `--mix` lists them.
    pub const ALL: &'static [Mix] = &[
        Mix::Paradox,
        Mix::Circular,
        Mix::Head,
        Mix::Retreat,
        Mix::Adjust,
        Mix::All,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mix::Paradox => "paradox",
            Mix::Circular => "circular",
            Mix::Head => "head",
            Mix::Retreat => "retreat",
            Mix::Adjust => "adjust",
            Mix::All => "all",
        }
    }

    /// The mix of a name (any case).
    pub fn parse(s: &str) -> Option<Mix> {
        Mix::ALL
            .iter()
            .copied()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// splitmix64: a well-spread 64-bit function of a number.
fn spread(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator seed of position `i` of a run with seed `seed`.
pub fn position_seed(seed: u64, i: u64) -> u64 {
    spread(seed ^ spread(i.wrapping_add(0x5EED)))
}

/// Position `i` of a run: a phase on `map` with its units and orders (order texts are left
/// empty; [`with_texts`] fills them for printing). Depends only on `(seed, i, mix)`.
pub fn position(map: &Arc<Map>, seed: u64, i: u64, mix: Mix) -> Scenario {
    let ps = position_seed(seed, i);
    let mix = match mix {
        Mix::All => match ps % 100 {
            0..30 => Mix::Paradox,
            30..45 => Mix::Circular,
            45..60 => Mix::Head,
            60..72 => Mix::Retreat,
            72..84 => Mix::Adjust,
            _ => return movement(map, ps, Recipe::WITH_CONVOYS),
        },
        m => m,
    };
    match mix {
        Mix::Paradox => movement(
            map,
            ps,
            Recipe {
                paradox: 100,
                swap: 50,
                ..Recipe::WITH_CONVOYS
            },
        ),
        Mix::Circular => movement(
            map,
            ps,
            Recipe {
                ring: 100,
                ..Recipe::WITHOUT_CONVOYS
            },
        ),
        Mix::Head => movement(
            map,
            ps,
            Recipe {
                head: 100,
                ring: 10,
                ..Recipe::WITHOUT_CONVOYS
            },
        ),
        Mix::Retreat => retreat(map, ps),
        Mix::Adjust | Mix::All => adjustment(map, ps),
    }
}

fn entry(power: PowerId, order: Order) -> OrderEntry {
    OrderEntry {
        power,
        text: String::new(),
        order,
    }
}

fn movement(map: &Arc<Map>, seed: u64, recipe: Recipe) -> Scenario {
    let (units, orders) = random_position(map, seed, recipe);
    let mut s = Scenario::empty(map.clone(), "standard");
    s.units = units;
    s.orders = orders.into_iter().map(|(p, o)| entry(p, o)).collect();
    s
}

/// A retreat phase: a random movement phase adjudicated by the decision engine under the
/// DATC's rules; its dislodged units retreat or disband at random (now and then they get no
/// order). Tries a few seeds for a phase with a dislodgement; else the movement phase itself.
fn retreat(map: &Arc<Map>, seed: u64) -> Scenario {
    let rules = Rules::default();
    let mut rng = Rng::new(seed);
    let mut first = None;
    for k in 0..8u64 {
        let m = movement(map, spread(seed ^ k), Recipe::WITH_CONVOYS);
        let input = PhaseInput::of(&m, &rules);
        let Ok(adj) = DecisionEngine.movement(&input, false) else {
            continue;
        };
        if adj.phase.dislodged.is_empty() {
            first.get_or_insert(m);
            continue;
        }
        let mut s = Scenario::empty(map.clone(), "standard");
        s.phase = Phase {
            season: Season::Spring,
            year: 1901,
            kind: PhaseKind::Retreat,
        };
        s.units = adj.phase.final_units;
        s.dislodged = adj.phase.dislodged;
        s.contested = adj.phase.contested;
        for d in 0..s.dislodged.len() {
            if !rng.chance(85) {
                continue;
            }
            let menu = retreat_orders(&s, d);
            if let (Some(o), Some(du)) = (rng.pick(&menu).cloned(), s.dislodged.get(d)) {
                let p = du.unit.power;
                s.orders.push(entry(p, o));
            }
        }
        return s;
    }
    first.unwrap_or_else(|| movement(map, seed, Recipe::WITH_CONVOYS))
}

/// An adjustment phase: the units of a random position, supply centres owned at random (home
/// centres mostly by their power), and for each power a random part of its possible builds or
/// removals; now and then a power gives no order at all (civil disorder).
fn adjustment(map: &Arc<Map>, seed: u64) -> Scenario {
    let mut rng = Rng::new(seed);
    let (units, _) = random_position(map, spread(seed), Recipe::WITHOUT_CONVOYS);
    let mut s = Scenario::empty(map.clone(), "standard");
    s.phase = Phase {
        season: Season::Winter,
        year: 1901,
        kind: PhaseKind::Adjustment,
    };
    s.units = units;
    let powers = map.power_ids().count().max(1);
    let owners: Vec<Option<PowerId>> = map
        .provinces
        .iter()
        .map(|p| {
            if !p.supply_center {
                None
            } else if p.home_of.is_some() && rng.chance(70) {
                p.home_of
            } else if rng.chance(60) {
                Some(PowerId(rng.below(powers.min(4)) as u8))
            } else {
                None
            }
        })
        .collect();
    s.owners = Some(owners);
    let all = adjustment_orders(&s);
    let silent: Vec<bool> = (0..powers).map(|_| rng.chance(25)).collect();
    for (p, o) in all {
        if silent.get(p.0 as usize).copied().unwrap_or(false) || !rng.chance(40) {
            continue;
        }
        s.orders.push(entry(p, o));
    }
    s
}

/// The scenario with each order's text written out (the form files and messages show).
pub fn with_texts(mut s: Scenario) -> Scenario {
    let map = s.map.clone();
    for e in &mut s.orders {
        let mut o = e.order.clone();
        o.power = None;
        e.text = format_order(&map, &o, NameStyle::Abbr);
    }
    s
}

/// What an order is, for telling disagreements apart: its kind, with moves split into plain
/// and convoyed, supports into hold and move supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Hold.
    Hold,
    /// A move (or retreat) over land or along a coast.
    Move,
    /// An army's move to a province it does not border, or with `via convoy`.
    ConvoyedMove,
    /// Support of a unit holding.
    SupportHold,
    /// Support of a move.
    SupportMove,
    /// Convoy.
    Convoy,
    /// Disband (retreats).
    Disband,
    /// Build.
    Build,
    /// Remove.
    Remove,
    /// Waive.
    Waive,
}

impl Kind {
    /// The kind of an order on `map`.
    pub fn of(map: &Map, o: &Order) -> Kind {
        match &o.kind {
            OrderKind::Hold => Kind::Hold,
            OrderKind::Move {
                dest, via_convoy, ..
            } => {
                let army = o.unit.is_some_and(|u| u.kind == Some(UnitKind::Army));
                let far = o
                    .unit
                    .is_some_and(|u| !map.army_adjacent(u.loc.province, dest.province));
                if *via_convoy || (army && far) {
                    Kind::ConvoyedMove
                } else {
                    Kind::Move
                }
            }
            OrderKind::Support { dest: None, .. } => Kind::SupportHold,
            OrderKind::Support { dest: Some(_), .. } => Kind::SupportMove,
            OrderKind::Convoy { .. } => Kind::Convoy,
            OrderKind::Disband => Kind::Disband,
            OrderKind::Build => Kind::Build,
            OrderKind::Remove => Kind::Remove,
            OrderKind::Waive => Kind::Waive,
        }
    }

    /// In words: `convoyed move`, `support of a move`.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Hold => "hold",
            Kind::Move => "move",
            Kind::ConvoyedMove => "convoyed move",
            Kind::SupportHold => "support of a hold",
            Kind::SupportMove => "support of a move",
            Kind::Convoy => "convoy",
            Kind::Disband => "disband",
            Kind::Build => "build",
            Kind::Remove => "remove",
            Kind::Waive => "waive",
        }
    }
}

fn verdict_code(v: Verdict) -> u8 {
    match v {
        Verdict::Succeeds => 0,
        Verdict::Fails => 1,
        Verdict::Illegal => 2,
        Verdict::Void => 3,
    }
}

fn code_verdict(c: u8) -> Verdict {
    match c {
        0 => Verdict::Succeeds,
        1 => Verdict::Fails,
        2 => Verdict::Illegal,
        _ => Verdict::Void,
    }
}

/// How two results disagree, with the orders and units abstracted away: which kinds of order
/// get which verdict from each engine, and on which side the dislodgements, the final positions
/// and the standoffs differ. A shrunk position "disagrees the same way" as the position it came
/// from when its `Way` is equal: every kind of order that differed still differs in the same
/// direction, no new kind differs, and the units differ on the same sides.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Way {
    /// Per kind of order that differs: (kind, A's verdict, B's verdict), sorted, no repeats.
    pub orders: Vec<(Kind, u8, u8)>,
    /// Units dislodged only under A, only under B.
    pub dislodged: (bool, bool),
    /// Units at the end only under A, only under B.
    pub positions: (bool, bool),
    /// Standoffs that differ.
    pub contested: bool,
}

impl Way {
    /// Whether the results agree.
    pub fn is_empty(&self) -> bool {
        *self == Way::default()
    }

    /// In words, naming the engines: `convoy: decisions fails, dpjudge succeeds; dislodged
    /// only under decisions`.
    pub fn words(&self, a: &str, b: &str) -> String {
        let mut parts: Vec<String> = self
            .orders
            .iter()
            .map(|(k, x, y)| {
                format!(
                    "{}: {a} {}, {b} {}",
                    k.word(),
                    verdict_word(code_verdict(*x)),
                    verdict_word(code_verdict(*y))
                )
            })
            .collect();
        let side = |what: &str, (x, y): (bool, bool)| match (x, y) {
            (true, true) => Some(format!("{what} differ")),
            (true, false) => Some(format!("{what} only under {a}")),
            (false, true) => Some(format!("{what} only under {b}")),
            (false, false) => None,
        };
        parts.extend(side("units dislodged", self.dislodged));
        parts.extend(side("units at the end", self.positions));
        if self.contested {
            parts.push("standoffs differ".into());
        }
        parts.join("; ")
    }
}

fn sorted_units(v: impl Iterator<Item = Unit>) -> Vec<Unit> {
    let mut v: Vec<Unit> = v.collect();
    v.sort_unstable();
    v
}

/// Whether sorted `a` has a unit that sorted `b` lacks.
fn has_extra(a: &[Unit], b: &[Unit]) -> bool {
    a.iter().any(|u| b.binary_search(u).is_err())
}

/// How the results `ra` and `rb` of the scenario `s` disagree.
pub fn way(s: &Scenario, ra: &PhaseResult, rb: &PhaseResult) -> Way {
    let mut orders: Vec<(Kind, u8, u8)> = s
        .orders
        .iter()
        .zip(ra.outcomes.iter().zip(&rb.outcomes))
        .filter(|(_, (x, y))| x.verdict != y.verdict)
        .map(|(e, (x, y))| {
            (
                Kind::of(&s.map, &e.order),
                verdict_code(x.verdict),
                verdict_code(y.verdict),
            )
        })
        .collect();
    orders.sort_unstable();
    orders.dedup();
    let da = sorted_units(ra.dislodged.iter().map(|d| d.unit));
    let db = sorted_units(rb.dislodged.iter().map(|d| d.unit));
    let fa = sorted_units(ra.final_units.iter().copied());
    let fb = sorted_units(rb.final_units.iter().copied());
    let mut ca: Vec<ProvinceId> = ra.contested.clone();
    let mut cb: Vec<ProvinceId> = rb.contested.clone();
    ca.sort_unstable();
    cb.sort_unstable();
    Way {
        orders,
        dislodged: (has_extra(&da, &db), has_extra(&db, &da)),
        positions: (has_extra(&fa, &fb), has_extra(&fb, &fa)),
        contested: ca != cb,
    }
}

/// The shape of a (shrunk) position, for classing: `convoy paradox` (a convoy, and an attack or
/// a support of an attack on a convoying fleet), `convoy`, `circular movement` (a ring of three
/// or more moves), `head-to-head`, `support cut` (a support whose unit is attacked), `retreat`,
/// `adjustment`, `other`.
pub fn shape(s: &Scenario) -> &'static str {
    match s.phase.kind {
        PhaseKind::Retreat => return "retreat",
        PhaseKind::Adjustment => return "adjustment",
        PhaseKind::Movement => {}
    }
    let here = |o: &Order| o.unit.map(|u| u.loc.province);
    let dest = |o: &Order| match &o.kind {
        OrderKind::Move { dest, .. } => Some(dest.province),
        _ => None,
    };
    let fleets: Vec<ProvinceId> = s
        .orders
        .iter()
        .filter(|e| matches!(e.order.kind, OrderKind::Convoy { .. }))
        .filter_map(|e| here(&e.order))
        .collect();
    if !fleets.is_empty() {
        let on_fleet = s.orders.iter().any(|e| match &e.order.kind {
            OrderKind::Move { dest, .. } => fleets.contains(&dest.province),
            OrderKind::Support { dest: Some(d), .. } => fleets.contains(&d.province),
            _ => false,
        });
        return if on_fleet { "convoy paradox" } else { "convoy" };
    }
    // Moves by province: from → to.
    let moves: Vec<(ProvinceId, ProvinceId)> = s
        .orders
        .iter()
        .filter_map(|e| Some((here(&e.order)?, dest(&e.order)?)))
        .collect();
    let next = |p: ProvinceId| moves.iter().find(|(f, _)| *f == p).map(|(_, t)| *t);
    for &(start, _) in &moves {
        let mut p = start;
        for n in 1..=moves.len() {
            match next(p) {
                Some(q) if q == start => {
                    if n >= 3 {
                        return "circular movement";
                    }
                    break;
                }
                Some(q) => p = q,
                None => break,
            }
        }
    }
    if moves
        .iter()
        .any(|&(f, t)| moves.iter().any(|&(f2, t2)| f2 == t && t2 == f))
    {
        return "head-to-head";
    }
    let attacked = |p: ProvinceId| moves.iter().any(|&(_, t)| t == p);
    if s.orders.iter().any(|e| {
        matches!(e.order.kind, OrderKind::Support { .. }) && here(&e.order).is_some_and(attacked)
    }) {
        return "support cut";
    }
    "other"
}

/// A position where the engines disagree, before shrinking.
#[derive(Clone, Debug)]
pub struct Found {
    /// Its index in the run.
    pub index: u64,
    /// The position.
    pub scenario: Scenario,
    /// How the engines disagree on it.
    pub way: Way,
}

/// What one position gave.
#[derive(Clone, Debug)]
pub enum Checked {
    /// Both engines gave the same result.
    Agree,
    /// They did not.
    Differs(Box<Found>),
    /// An engine gave no result (an outside adjudicator that failed): the message.
    Error(String),
}

/// A shrunk disagreement, classed: its shape, the options that explain it, the file to write.
#[derive(Clone, Debug)]
pub struct Case {
    /// The index of the position it came from.
    pub index: u64,
    /// How the engines disagree.
    pub way: Way,
    /// The shape of the shrunk position ([`shape`]).
    pub shape: &'static str,
    /// The single option changes (`paradox=Rule1982`) under which engine A gives B's result.
    pub b_as_a: Vec<String>,
    /// The single option changes under which engine B gives A's result (only options B reads).
    pub a_as_b: Vec<String>,
    /// The class's key: shape, explaining options and way in one line.
    pub key: String,
    /// The class's file name (`convoy-paradox_paradox-Rule1982_1a2b3c4d.ron`).
    pub file: String,
    /// The scenario file's text: comments with both engines' results, then the scenario with
    /// the DATC rules' results as its expectations.
    pub text: String,
}

/// A class of disagreements, as the summary lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassRow {
    /// The scenario file of the class, in the output folder.
    pub file: String,
    /// The shape of its shrunk position.
    pub shape: String,
    /// The single option changes under which engine A gives engine B's result.
    pub b_as_a: Vec<String>,
    /// The single option changes under which engine B gives engine A's result.
    pub a_as_b: Vec<String>,
    /// How the engines disagree, in words.
    pub way: String,
    /// How many positions fell in the class.
    pub count: u64,
    /// The first position (by index) that fell in it.
    pub first: u64,
}

impl ClassRow {
    /// The explaining options in words: `dpjudge = decisions under paradox=Rule1982`, or
    /// `unexplained`.
    pub fn explains(&self, a: &str, b: &str) -> String {
        let mut parts = Vec::new();
        if !self.b_as_a.is_empty() {
            parts.push(format!("{b} = {a} under {}", self.b_as_a.join(" or ")));
        }
        if !self.a_as_b.is_empty() {
            parts.push(format!("{a} = {b} under {}", self.a_as_b.join(" or ")));
        }
        if parts.is_empty() {
            "unexplained".into()
        } else {
            parts.join("; ")
        }
    }
}

/// A run's summary: what was run, what was found. Saved as `summary.versus` in the output folder
/// (which `versus merge` reads) and printed as JSON with `--json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// The seed.
    pub seed: u64,
    /// The mix's name.
    pub mix: String,
    /// The rules both engines ran under (`datc` or the options that differ).
    pub rules: String,
    /// The number of positions asked for (`--count`).
    pub count: u64,
    /// The shards this summary covers, as `I/N` each (empty for a whole run).
    pub shards: Vec<String>,
    /// Positions adjudicated.
    pub positions: u64,
    /// Positions where the engines disagreed.
    pub disagreements: u64,
    /// Positions an engine gave no result for.
    pub errors: u64,
    /// The first engine error's message, if any.
    pub first_error: Option<String>,
    /// Whether the run was stopped before its end (ctrl-c).
    pub interrupted: bool,
    /// The classes, the most frequent first.
    pub classes: Vec<ClassRow>,
}

/// Why a run or a merge could not go on.
#[derive(Debug, thiserror::Error)]
pub enum VersusError {
    /// Writing the output folder failed.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A summary file could not be read.
    #[error("{path}: not a versus summary: {message}")]
    Summary {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> VersusError {
    VersusError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Runs work items, in parallel or not; the results come back in the items' order.
pub trait Parallel {
    /// `f` of every item, in order.
    fn map<T: Send, R: Send>(&self, items: Vec<T>, f: &(dyn Fn(T) -> R + Sync)) -> Vec<R>;
}

/// One item after the other, on the calling thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl Parallel for Sequential {
    fn map<T: Send, R: Send>(&self, items: Vec<T>, f: &(dyn Fn(T) -> R + Sync)) -> Vec<R> {
        items.into_iter().map(f).collect()
    }
}

/// Which positions of `0..count` a shard takes: `i ≡ index (mod of)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..of`.
    pub index: u64,
    /// The number of shards.
    pub of: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    /// Reads `I/N` (`0 ≤ I < N`).
    pub fn parse(s: &str) -> Option<Shard> {
        let (i, n) = s.split_once('/')?;
        let (index, of): (u64, u64) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
        (of >= 1 && index < of).then_some(Shard { index, of })
    }

    /// How many of `0..count` it takes.
    pub fn len(self, count: u64) -> u64 {
        count.saturating_sub(self.index).div_ceil(self.of.max(1))
    }

    /// Its `k`-th position.
    pub fn nth(self, k: u64) -> u64 {
        self.index + k * self.of.max(1)
    }
}

/// The positions adjudicated per batch by default ([`Versus::batch`]): the stop flag is read,
/// progress reported and the summary saved between batches.
pub const BATCH: u64 = 4096;

/// How far a run is, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions done.
    pub done: u64,
    /// Positions this run (shard) takes.
    pub total: u64,
    /// Disagreements so far.
    pub disagreements: u64,
    /// Classes so far.
    pub classes: usize,
}

/// A differential run: two engines, the rules, the kind of positions, the seed.
pub struct Versus<'e> {
    /// The map (the standard map).
    pub map: Arc<Map>,
    /// Engine A.
    pub a: &'e dyn Engine,
    /// Engine B.
    pub b: &'e dyn Engine,
    /// The rules both run under.
    pub rules: Rules,
    /// The kind of positions.
    pub mix: Mix,
    /// The seed.
    pub seed: u64,
    /// Disagreements of one [`Way`] shrunk at most this often (0: every one); the others are
    /// counted in the class the first shrunk one of their way fell in.
    pub shrink_limit: usize,
    /// Positions per batch: the stop flag is read, progress reported and the summary saved
    /// between batches ([`BATCH`] on the command line; 0 counts as 1).
    pub batch: u64,
}

/// The phase result of `e` on `s` under `rules`, or the engine's error.
fn result_of(e: &dyn Engine, s: &Scenario, rules: &Rules) -> Result<PhaseResult, String> {
    // Versus compares and writes verdicts, never the words: the result alone is asked for.
    e.verdicts(&PhaseInput::of(s, rules))
        .map_err(|e| e.to_string())
}

/// Whether two results agree in verdicts, dislodgements, final positions and standoffs.
fn same(s: &Scenario, x: &PhaseResult, y: &PhaseResult) -> bool {
    way(s, x, y).is_empty()
}

impl Versus<'_> {
    /// Position `i` of the run.
    pub fn position(&self, i: u64) -> Scenario {
        position(&self.map, self.seed, i, self.mix)
    }

    /// How A and B disagree on `s`; None when an engine gives no result.
    fn way_on(&self, s: &Scenario) -> Result<Way, String> {
        let ra = result_of(self.a, s, &self.rules)?;
        let rb = result_of(self.b, s, &self.rules)?;
        Ok(way(s, &ra, &rb))
    }

    /// Adjudicates position `i` with both engines and compares.
    pub fn check(&self, i: u64) -> Checked {
        let s = self.position(i);
        match self.way_on(&s) {
            Ok(w) if w.is_empty() => Checked::Agree,
            Ok(w) => Checked::Differs(Box::new(Found {
                index: i,
                scenario: s,
                way: w,
            })),
            Err(e) => Checked::Error(e),
        }
    }

    /// Shrinks a disagreement (units, then orders, by `ddmin`) to a position that still
    /// disagrees the same way.
    pub fn shrink(&self, f: &Found) -> Scenario {
        let s0 = &f.scenario;
        let holds = |s: &Scenario| self.way_on(s).is_ok_and(|w| w == f.way);
        let mut best = s0.clone();
        if s0.phase.kind == PhaseKind::Movement {
            let ids: Vec<usize> = (0..s0.units.len()).collect();
            let build = |keep: &[usize]| {
                let mut s = s0.clone();
                s.units = keep
                    .iter()
                    .filter_map(|&u| s0.units.get(u).copied())
                    .collect();
                let provs: Vec<ProvinceId> =
                    s.units.iter().map(|u| s0.map.province_of(u.loc)).collect();
                s.orders.retain(|e| {
                    e.order
                        .unit
                        .is_some_and(|u| provs.contains(&u.loc.province))
                });
                s
            };
            let kept = ddmin(&ids, |keep| holds(&build(keep)), |_, _| {});
            best = build(&kept);
        }
        let base = best.clone();
        let ids: Vec<usize> = (0..base.orders.len()).collect();
        let build = |keep: &[usize]| {
            let mut s = base.clone();
            s.orders = keep
                .iter()
                .filter_map(|&k| base.orders.get(k).cloned())
                .collect();
            s
        };
        let kept = ddmin(&ids, |keep| holds(&build(keep)), |_, _| {});
        let s = build(&kept);
        if holds(&s) { s } else { best }
    }

    /// The single rule option changes that explain a disagreement on `s`: under which A gives
    /// B's result, and under which B (where it reads the option) gives A's.
    pub fn explain(&self, s: &Scenario) -> (Vec<String>, Vec<String>) {
        let (Ok(ra), Ok(rb)) = (
            result_of(self.a, s, &self.rules),
            result_of(self.b, s, &self.rules),
        ) else {
            return (Vec::new(), Vec::new());
        };
        let mut b_as_a = Vec::new();
        let mut a_as_b = Vec::new();
        for c in self.rules.single_changes() {
            if let Ok(ra2) = result_of(self.a, s, &c.rules)
                && same(s, &ra2, &rb)
            {
                b_as_a.push(c.spec());
            }
            if let Ok(rb2) = result_of(self.b, s, &c.rules)
                && !same(s, &rb2, &rb)
                && same(s, &rb2, &ra)
            {
                a_as_b.push(c.spec());
            }
        }
        (b_as_a, a_as_b)
    }

    /// Shrinks, explains and classes a disagreement, and writes its scenario file's text.
    pub fn case(&self, f: &Found) -> Case {
        let shrunk = with_texts(self.shrink(f));
        let (b_as_a, a_as_b) = self.explain(&shrunk);
        let shape = shape(&shrunk);
        let (an, bn) = (self.a.name(), self.b.name());
        let way_words = f.way.words(an, bn);
        let explained = ClassRow {
            file: String::new(),
            shape: shape.into(),
            b_as_a: b_as_a.clone(),
            a_as_b: a_as_b.clone(),
            way: way_words.clone(),
            count: 0,
            first: f.index,
        }
        .explains(an, bn);
        let key = format!("{shape} | {explained} | {way_words}");
        let opt_slug = if b_as_a.is_empty() && a_as_b.is_empty() {
            "unexplained".to_string()
        } else {
            slug(b_as_a.first().or(a_as_b.first()).map_or("", |s| s.as_str()))
        };
        let file = format!(
            "{}_{}_{:08x}.ron",
            slug(shape),
            opt_slug,
            fnv(key.as_bytes()) as u32
        );
        let text = self.file_text(f, &shrunk, shape, &explained, &way_words);
        Case {
            index: f.index,
            way: f.way.clone(),
            shape,
            b_as_a,
            a_as_b,
            key,
            file,
            text,
        }
    }

    /// The scenario file of a class: a comment block with the run, the class and both engines'
    /// results, then the shrunk scenario under the DATC rules, its expectations the decision
    /// engine's result under them.
    fn file_text(
        &self,
        f: &Found,
        s: &Scenario,
        shape: &str,
        explained: &str,
        way_words: &str,
    ) -> String {
        let (an, bn) = (self.a.name(), self.b.name());
        let mut out = String::new();
        // Engine names are one line here, whatever was typed: the comment cannot end early.
        let (an, bn) = (one_line(an), one_line(bn));
        let (explained, way_words) = (one_line(explained), one_line(way_words));
        out.push_str(&format!(
            "{CLASS_HEADER}{an} {bn} --seed {} --mix {}: position {}\n",
            self.seed,
            self.mix.name(),
            f.index
        ));
        out.push_str(&format!(
            "// rules of the run: {}\n",
            rules_words(&self.rules)
        ));
        out.push_str(&format!("// shape: {shape}\n// explained: {explained}\n"));
        out.push_str(&format!("// the way: {way_words}\n"));
        for (e, name) in [(self.a, &an), (self.b, &bn)] {
            out.push_str(&format!("// {name}:\n"));
            match result_of(e, s, &self.rules) {
                Ok(r) => {
                    for (o, oc) in s.orders.iter().zip(&r.outcomes) {
                        out.push_str(&format!(
                            "//   {}: {}: {}\n",
                            s.map.power(o.power).name,
                            o.text,
                            verdict_word(oc.verdict)
                        ));
                    }
                    for d in &r.dislodged {
                        out.push_str(&format!(
                            "//   dislodged: {} {}\n",
                            s.map.power(d.unit.power).name,
                            d.unit.describe(&s.map)
                        ));
                    }
                }
                Err(m) => out.push_str(&format!("//   no result: {}\n", one_line(&m))),
            }
        }
        let mut file = s.clone();
        file.rules = Rules::default();
        file.title = format!("versus {an} {bn}: {shape}");
        file.description = format!(
            "Found by dipsandbox versus {an} {bn}: {way_words}. Explained: {explained}. The expectations are the DATC rules' (the decision engine's default result)."
        );
        file.source = format!(
            "dipsandbox versus, seed {}, mix {}, position {}",
            self.seed,
            self.mix.name(),
            f.index
        );
        if let Ok(run) = adjudicate_scenario(&file, None, &DecisionEngine, false) {
            freeze_expectations(&mut file, &run);
        }
        out.push_str(&file.to_ron());
        out
    }

    /// Runs positions `0..count` (those of `shard`) into `out`, a folder made ready by
    /// [`open_output`]: class files as they are found, `summary.versus` at the start, after
    /// every batch that found a class (else every two seconds) and at the end. Until the end
    /// the saved summary says `interrupted`, so a run killed at any moment leaves a folder that
    /// `merge` reads and says is incomplete. Stops between batches when `stop` is set; a batch
    /// during which it was set is dropped whole (not counted, nothing of it written), since an
    /// interrupted engine ([`Engine::interrupt`]) answers it with errors: the positions counted
    /// are always the first ones of the shard. `progress` hears after each batch.
    pub fn run<P: Parallel>(
        &self,
        count: u64,
        shard: Shard,
        out: &Path,
        par: &P,
        stop: Option<&AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Summary, VersusError> {
        std::fs::create_dir_all(out).map_err(|e| io_err(out, e))?;
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let total = shard.len(count);
        let mut tally = Tally::new(self, count, shard);
        tally.summary.interrupted = true;
        tally.save(out)?;
        let mut done = 0u64;
        let mut saved = Instant::now();
        let mut ended = true;
        while done < total {
            if stopped() {
                ended = false;
                break;
            }
            let end = (done + self.batch.max(1)).min(total);
            let idx: Vec<u64> = (done..end).map(|k| shard.nth(k)).collect();
            let checked = par.map(idx, &|i| self.check(i));
            let found: Vec<&Found> = checked
                .iter()
                .filter_map(|c| match c {
                    Checked::Differs(f) => Some(&**f),
                    _ => None,
                })
                .collect();
            // Which disagreements are shrunk (in index order), decided on a copy of the counts:
            // the tally changes only once the batch is kept.
            let mut shrunk: HashMap<&Way, usize> = HashMap::new();
            let admitted: Vec<bool> = found
                .iter()
                .map(|f| {
                    let n = shrunk
                        .entry(&f.way)
                        .or_insert_with(|| tally.shrunk.get(&f.way).copied().unwrap_or(0));
                    *n += 1;
                    tally.limit == 0 || *n <= tally.limit
                })
                .collect();
            let to_shrink: Vec<&Found> = found
                .iter()
                .zip(&admitted)
                .filter(|(_, a)| **a)
                .map(|(f, _)| *f)
                .collect();
            let cases = if stopped() {
                Vec::new()
            } else {
                par.map(to_shrink, &|f| self.case(f))
            };
            if stopped() {
                ended = false;
                break;
            }
            for (w, n) in shrunk {
                tally.shrunk.insert(w.clone(), n);
            }
            tally.summary.positions += end - done;
            for c in checked.iter() {
                match c {
                    Checked::Agree => {}
                    Checked::Error(m) => {
                        tally.summary.errors += 1;
                        tally.summary.first_error.get_or_insert_with(|| m.clone());
                    }
                    Checked::Differs(_) => tally.summary.disagreements += 1,
                }
            }
            let mut cases = cases.into_iter();
            let mut new_class = false;
            for (f, a) in found.iter().zip(&admitted) {
                if *a {
                    if let Some(c) = cases.next()
                        && let Some((file, text)) = tally.add_case(&c)
                    {
                        let path = out.join(&file);
                        write_atomic(&path, &text).map_err(|e| io_err(&path, e))?;
                        new_class = true;
                    }
                } else {
                    tally.add_unshrunk(&f.way, f.index);
                }
            }
            done = end;
            progress(&Progress {
                done,
                total,
                disagreements: tally.summary.disagreements,
                classes: tally.rows.len(),
            });
            if new_class || saved.elapsed().as_secs() >= 2 {
                tally.save(out)?;
                saved = Instant::now();
            }
        }
        tally.summary.interrupted = !ended;
        tally.save(out)?;
        Ok(tally.summary())
    }
}

/// Makes `out` ready for a run (`what`: `versus decisions dpjudge`) and holds it: locked against
/// a second run ([`FolderLock`]), and holding no earlier run's files unless `force` is given,
/// in which case the earlier run's `summary.versus` and class files (the `.ron` files that
/// begin with this bench's header) are removed; other files are left alone.
pub fn open_output(out: &Path, what: &str, force: bool) -> Result<FolderLock, VersusError> {
    let lock = FolderLock::take(out, what).map_err(|e| VersusError::Io {
        path: out.to_path_buf(),
        message: e.reason(),
    })?;
    let entries = std::fs::read_dir(out).map_err(|e| io_err(out, e))?;
    let mut ours = Vec::new();
    let mut others = 0usize;
    for e in entries {
        let e = e.map_err(|e| io_err(out, e))?;
        let name = e.file_name();
        let Some(name) = name.to_str() else {
            others += 1;
            continue;
        };
        if name == LOCK_FILE {
            continue;
        }
        let path = e.path();
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        let from_a_run = is_file
            && (name == SUMMARY_FILE
                || (name.ends_with(".ron")
                    && crate::base::source::read_head(&path, 64)
                        .is_ok_and(|h| h.text.starts_with(CLASS_HEADER))));
        if from_a_run {
            ours.push(path);
        } else {
            others += 1;
        }
    }
    if !ours.is_empty() && !force {
        return Err(VersusError::Io {
            path: out.to_path_buf(),
            message: format!(
                "holds a versus run already ({}); give --force to replace its files, or another -o DIR",
                crate::base::text::count(ours.len(), "file")
            ),
        });
    }
    if others > 0 && !force {
        return Err(VersusError::Io {
            path: out.to_path_buf(),
            message: format!(
                "holds other files ({}); give --force to write into it anyway (they are left alone), or another -o DIR",
                others
            ),
        });
    }
    for p in ours {
        std::fs::remove_file(&p).map_err(|e| io_err(&p, e))?;
    }
    Ok(lock)
}

/// How a class file of this bench begins: the header [`Versus::case`] writes.
pub const CLASS_HEADER: &str = "// dipsandbox versus ";

/// The rules in words: `datc`, or the options that differ from it.
pub fn rules_words(r: &Rules) -> String {
    let ov = r.overrides();
    if ov.is_empty() {
        "datc".into()
    } else {
        ov.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Lower case, letters and digits, one `-` between words.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// FNV-1a, 64 bits: a stable hash for file names.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The classes of a run as it goes: which ways have been shrunk how often, the classes by key.
struct Tally {
    summary: Summary,
    limit: usize,
    shrunk: HashMap<Way, usize>,
    /// The class the first shrunk disagreement of a way fell in.
    class_of_way: HashMap<Way, String>,
    /// The classes by key.
    rows: BTreeMap<String, ClassRow>,
}

impl Tally {
    fn new(v: &Versus<'_>, count: u64, shard: Shard) -> Tally {
        Tally {
            summary: Summary {
                a: v.a.name().into(),
                b: v.b.name().into(),
                seed: v.seed,
                mix: v.mix.name().into(),
                rules: rules_words(&v.rules),
                count,
                shards: if shard == Shard::WHOLE {
                    Vec::new()
                } else {
                    vec![format!("{}/{}", shard.index, shard.of)]
                },
                ..Summary::default()
            },
            limit: v.shrink_limit,
            shrunk: HashMap::new(),
            class_of_way: HashMap::new(),
            rows: BTreeMap::new(),
        }
    }

    /// Counts a shrunk case; the file name and text when its class is new.
    fn add_case(&mut self, c: &Case) -> Option<(String, String)> {
        self.class_of_way
            .entry(c.way.clone())
            .or_insert_with(|| c.key.clone());
        if let Some(r) = self.rows.get_mut(&c.key) {
            r.count += 1;
            return None;
        }
        self.rows.insert(
            c.key.clone(),
            ClassRow {
                file: c.file.clone(),
                shape: c.shape.into(),
                b_as_a: c.b_as_a.clone(),
                a_as_b: c.a_as_b.clone(),
                way: c.way.words(&self.summary.a, &self.summary.b),
                count: 1,
                first: c.index,
            },
        );
        Some((c.file.clone(), c.text.clone()))
    }

    /// Counts a disagreement that was not shrunk in the class of its way.
    fn add_unshrunk(&mut self, w: &Way, _index: u64) {
        if let Some(r) = self.class_of_way.get(w).and_then(|k| self.rows.get_mut(k)) {
            r.count += 1;
        }
    }

    fn summary(&self) -> Summary {
        let mut s = self.summary.clone();
        s.classes = sorted_rows(self.rows.values().cloned().collect());
        s
    }

    fn save(&self, out: &Path) -> Result<(), VersusError> {
        save_summary(out, &self.summary())
    }
}

/// The most frequent class first, then by file name.
fn sorted_rows(mut v: Vec<ClassRow>) -> Vec<ClassRow> {
    v.sort_by(|x, y| y.count.cmp(&x.count).then_with(|| x.file.cmp(&y.file)));
    v
}

/// The summary file of an output folder.
pub const SUMMARY_FILE: &str = "summary.versus";

/// Writes `summary.versus` into `out`.
pub fn save_summary(out: &Path, s: &Summary) -> Result<(), VersusError> {
    let path = out.join(SUMMARY_FILE);
    let text = ron::ser::to_string_pretty(s, ron::ser::PrettyConfig::default())
        .map_err(|e| io_err(&path, e))?;
    write_atomic(&path, &format!("{text}\n")).map_err(|e| io_err(&path, e))
}

/// Reads `summary.versus` from a folder (a regular file of at most the file limit).
pub fn load_summary(dir: &Path) -> Result<Summary, VersusError> {
    let path = dir.join(SUMMARY_FILE);
    let text = crate::base::source::read_text(&path).map_err(|e| io_err(&path, e))?;
    summary_from_ron(&text).map_err(|message| VersusError::Summary { path, message })
}

/// A summary from its text (what `summary.versus` holds); the error is the reader's, cut.
pub fn summary_from_ron(text: &str) -> Result<Summary, String> {
    ron::from_str(text).map_err(|e| crate::base::text::bounded(&e.to_string(), 1000).into_owned())
}

/// The shards a summary covers, read back; an error names what is wrong.
fn shards_of(s: &Summary) -> Result<Vec<Shard>, String> {
    s.shards
        .iter()
        .map(|t| {
            Shard::parse(t).ok_or_else(|| {
                format!(
                    "shard {}: expected I/N with 0 ≤ I < N",
                    crate::base::text::quoted(t)
                )
            })
        })
        .collect()
}

/// Whether `name` can be a class file of an output folder: one plain file name ending in `.ron`
/// (no folder, no `..`, nothing unprintable), as [`Versus::case`] makes them.
fn class_file_ok(name: &str) -> bool {
    use std::path::Component;
    let mut parts = Path::new(name).components();
    matches!(parts.next(), Some(Component::Normal(_)))
        && parts.next().is_none()
        && name.ends_with(".ron")
        && !name.contains(['/', '\\'])
        && crate::base::text::first_unprintable(name).is_none()
}

/// Checks what a summary says of itself: its shards readable and of one N, its counts
/// possible (no more positions than its shards hold, no more disagreements and errors than
/// positions, no more in its classes than disagreements), its class files plain names.
pub fn check_summary(s: &Summary) -> Result<Vec<Shard>, String> {
    let shards = shards_of(s)?;
    if let Some(first) = shards.first()
        && let Some(other) = shards.iter().find(|x| x.of != first.of)
    {
        return Err(format!(
            "shards {}/{} and {}/{} are of different runs",
            first.index, first.of, other.index, other.of
        ));
    }
    let room = if shards.is_empty() {
        s.count
    } else {
        shards
            .iter()
            .try_fold(0u64, |t, x| t.checked_add(x.len(s.count)))
            .ok_or("its shards hold more positions than can be counted")?
    };
    if s.positions > room {
        return Err(format!(
            "{} positions, but its {} of a run of {} hold {room}",
            s.positions,
            if shards.is_empty() {
                "whole run".to_string()
            } else {
                crate::base::text::count(shards.len(), "shard")
            },
            s.count
        ));
    }
    let bad = s
        .disagreements
        .checked_add(s.errors)
        .is_none_or(|n| n > s.positions);
    if bad {
        return Err(format!(
            "{} disagreements and {} errors in {} positions",
            s.disagreements, s.errors, s.positions
        ));
    }
    let classed = s
        .classes
        .iter()
        .try_fold(0u64, |t, c| t.checked_add(c.count));
    if classed.is_none_or(|n| n > s.disagreements) {
        return Err(format!(
            "its classes count more than its {} disagreements",
            s.disagreements
        ));
    }
    if let Some(c) = s.classes.iter().find(|c| !class_file_ok(&c.file)) {
        return Err(format!(
            "class file {}: expected a file name ending in .ron, in the folder itself",
            crate::base::text::quoted(&c.file)
        ));
    }
    Ok(shards)
}

/// The run a summary is of, in words: `versus decisions dpjudge --seed 0 --mix all --count 300
/// (rules datc)`.
fn run_words(s: &Summary) -> String {
    format!(
        "versus {} {} --seed {} --mix {} --count {} (rules {})",
        one_line(&s.a),
        one_line(&s.b),
        s.seed,
        one_line(&s.mix),
        s.count,
        one_line(&s.rules)
    )
}

/// The summaries of the shards of one run merged, without touching a file: counts summed per
/// class file, positions, disagreements and errors summed, the shards listed in order. The
/// parts must be of one run (the same engines, rules, seed, mix and count), each shard once,
/// each summary possible ([`check_summary`]); every sum is checked for overflow. Besides the
/// merged summary, for each of its classes (in its order) the part whose class file is kept
/// (the first that has it). An error names the part (its index) and what is wrong with it.
pub fn merge_summaries(parts: &[Summary]) -> Result<(Summary, Vec<usize>), (usize, String)> {
    let mut checked: Vec<Vec<Shard>> = Vec::with_capacity(parts.len());
    for (i, s) in parts.iter().enumerate() {
        checked.push(check_summary(s).map_err(|m| (i, m))?);
    }
    let Some(first) = parts.first() else {
        return Err((0, "no summary to merge".into()));
    };
    let mut taken: HashMap<u64, usize> = HashMap::new();
    let mut of: Option<u64> = None;
    for (i, (s, shards)) in parts.iter().zip(&checked).enumerate() {
        if run_words(s) != run_words(first) {
            return Err((
                i,
                format!(
                    "a run of `{}`, not of `{}` as the first is; only the shards of one run merge",
                    run_words(s),
                    run_words(first)
                ),
            ));
        }
        if shards.is_empty() && parts.len() > 1 {
            return Err((
                i,
                "a whole run (no --shard): it holds every position already, and merges with no other"
                    .into(),
            ));
        }
        for x in shards {
            if let Some(n) = of
                && n != x.of
            {
                return Err((
                    i,
                    format!(
                        "shard {}/{} is of a run cut in {} shards, the others in {n}",
                        x.index, x.of, x.of
                    ),
                ));
            }
            of = Some(x.of);
            if let Some(other) = taken.insert(x.index, i) {
                return Err((
                    i,
                    format!(
                        "shard {}/{} is in summary {} too; each shard is merged once",
                        x.index,
                        x.of,
                        other + 1
                    ),
                ));
            }
        }
    }
    let overflow = |i: usize| (i, "counts too large to add up (past 2^64)".to_string());
    let mut t = first.clone();
    let mut rows: BTreeMap<&str, (ClassRow, usize)> = BTreeMap::new();
    for (i, s) in parts.iter().enumerate() {
        for r in &s.classes {
            match rows.get_mut(r.file.as_str()) {
                Some((have, _)) => {
                    have.count = have.count.checked_add(r.count).ok_or_else(|| overflow(i))?;
                    have.first = have.first.min(r.first);
                }
                None => {
                    rows.insert(&r.file, (r.clone(), i));
                }
            }
        }
        if i > 0 {
            let add = |x: u64, y: u64| x.checked_add(y).ok_or_else(|| overflow(i));
            t.positions = add(t.positions, s.positions)?;
            t.disagreements = add(t.disagreements, s.disagreements)?;
            t.errors = add(t.errors, s.errors)?;
            if t.first_error.is_none() {
                t.first_error.clone_from(&s.first_error);
            }
            t.interrupted |= s.interrupted;
        }
    }
    // A shard that left positions out (stopped early, killed) makes the merge incomplete.
    t.interrupted |= parts.iter().zip(&checked).any(|(s, shards)| {
        let room = if shards.is_empty() {
            s.count
        } else {
            shards.iter().map(|x| x.len(s.count)).sum()
        };
        s.positions < room
    });
    let mut shards: Vec<Shard> = checked.into_iter().flatten().collect();
    shards.sort_by_key(|x| x.index);
    t.shards = shards
        .iter()
        .map(|x| format!("{}/{}", x.index, x.of))
        .collect();
    let mut kept: Vec<(ClassRow, usize)> = rows.into_values().collect();
    kept.sort_by(|(x, _), (y, _)| y.count.cmp(&x.count).then_with(|| x.file.cmp(&y.file)));
    let from = kept.iter().map(|(_, i)| *i).collect();
    t.classes = kept.into_iter().map(|(r, _)| r).collect();
    Ok((t, from))
}

/// `versus merge`: the output folders of the shards of one run merged into `out` (made ready by
/// [`open_output`] with `force`, and locked while it is written): their summaries by
/// [`merge_summaries`], each class file copied from the first folder that has it. The folders
/// must be distinct (by their real paths) and none the output; a class file is read only
/// inside its own folder.
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Summary, VersusError> {
    let out_real = out.canonicalize().ok();
    let mut real: HashMap<PathBuf, &PathBuf> = HashMap::new();
    for d in dirs {
        let r = d.canonicalize().map_err(|e| io_err(d, e))?;
        if out_real.as_ref() == Some(&r) {
            return Err(io_err(
                d,
                "it is the output folder too; merge into another -o DIR",
            ));
        }
        if let Some(other) = real.insert(r, d) {
            return Err(io_err(
                d,
                format!(
                    "given twice (also as {}); each shard is merged once",
                    other.display()
                ),
            ));
        }
    }
    let parts = dirs
        .iter()
        .map(|d| load_summary(d))
        .collect::<Result<Vec<_>, _>>()?;
    let (t, from) = merge_summaries(&parts).map_err(|(i, message)| VersusError::Summary {
        path: dirs
            .get(i)
            .map_or_else(PathBuf::new, |d| d.join(SUMMARY_FILE)),
        message,
    })?;
    let _lock = open_output(out, "versus merge", force)?;
    for (row, i) in t.classes.iter().zip(from) {
        let Some(d) = dirs.get(i) else { continue };
        let from = crate::base::source::inside(d, &row.file, "file").map_err(|e| {
            VersusError::Summary {
                path: d.join(SUMMARY_FILE),
                message: e.to_string(),
            }
        })?;
        let to = out.join(&row.file);
        let text = crate::base::source::read_text(&from).map_err(|e| io_err(&from, e))?;
        write_atomic(&to, &text).map_err(|e| io_err(&to, e))?;
    }
    save_summary(out, &t)?;
    Ok(t)
}
