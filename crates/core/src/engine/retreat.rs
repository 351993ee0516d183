//! The retreat phase: each dislodged unit retreats or disbands (DATC 6.H).

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): dislodged-unit and order
// indices range over the lists given; per-province tables are sized to the map's province count
// and indexed by ids of that map.
#![allow(clippy::indexing_slicing)]

use crate::model::board::{Dislodged, Unit};
use crate::model::map::{Map, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{NameStyle, OrderKind, Submitted, format_order};
use crate::model::rules::{
    CoastGarbage, MultipleOrders, OneCoastOmitted, RetreatAfterConvoy, Rules,
};

use super::outcome::{OrderOutcome, PhaseResult, Verdict};
use super::reason::RIVALS_NAMED;
use super::reason::Reason;

fn illegal(reason: impl Into<String>) -> OrderOutcome {
    OrderOutcome::text(Verdict::Illegal, format!("illegal: {}", reason.into()))
}

/// Which provinces hold one of `units` (dense, by province), as [`retreat_options`] takes it.
pub fn occupied(map: &Map, units: &[Unit]) -> Vec<bool> {
    let mut occ = vec![false; map.province_count()];
    for u in units {
        occ[map.province_of(u.loc).0 as usize] = true;
    }
    occ
}

/// Where a dislodged unit may retreat: adjacent for its type and coast, empty, not the attacker's
/// origin (unless the attack came by convoy and 4.A.5 allows it), not left empty by a standoff.
pub fn retreat_options(
    map: &Map,
    d: &Dislodged,
    occupied: &[bool],
    contested: &[ProvinceId],
    rules: &Rules,
) -> Vec<crate::model::map::LocId> {
    options(map, d, occupied, &|p| contested.contains(&p), rules)
}

/// Which provinces are listed in `contested`, as [`retreat_options_marked`] takes them.
pub fn standoffs(map: &Map, contested: &[ProvinceId]) -> Vec<bool> {
    let mut v = vec![false; map.province_count()];
    for p in contested {
        if let Some(x) = v.get_mut(p.0 as usize) {
            *x = true;
        }
    }
    v
}

/// [`retreat_options`] with the provinces left empty by a standoff marked ([`standoffs`]), for
/// the options of many dislodged units (no search of the list per neighbour).
pub fn retreat_options_marked(
    map: &Map,
    d: &Dislodged,
    occupied: &[bool],
    standoff: &[bool],
    rules: &Rules,
) -> Vec<crate::model::map::LocId> {
    let marked = |p: ProvinceId| standoff.get(p.0 as usize).copied().unwrap_or(false);
    options(map, d, occupied, &marked, rules)
}

fn options(
    map: &Map,
    d: &Dislodged,
    occupied: &[bool],
    contested: &dyn Fn(ProvinceId) -> bool,
    rules: &Rules,
) -> Vec<crate::model::map::LocId> {
    let unit = &d.unit;
    let here = map.province_of(unit.loc);
    let candidates: Vec<crate::model::map::LocId> = match unit.kind {
        UnitKind::Army => map
            .army_neighbours(here)
            .iter()
            .map(|p| map.province(*p).main)
            .collect(),
        UnitKind::Fleet => map.fleet_neighbours(unit.loc).to_vec(),
    };
    candidates
        .into_iter()
        .filter(|l| {
            let p = map.province_of(*l);
            !occupied[p.0 as usize]
                && !contested(p)
                && (p != d.attacker_from
                    || (d.by_convoy && rules.retreat_after_convoy == RetreatAfterConvoy::Allowed))
        })
        .collect()
}

/// Adjudicates a retreat phase. `units` are the units that were not dislodged; `dislodged` the
/// dislodged ones with their attackers' origins; `contested` the provinces left empty by a standoff.
pub fn adjudicate_retreats<O: Submitted>(
    map: &Map,
    units: &[Unit],
    dislodged: &[Dislodged],
    contested: &[ProvinceId],
    orders: &[O],
    rules: &Rules,
) -> PhaseResult {
    let mut phase = RetreatPhase {
        map,
        dislodged,
        orders,
        rules,
        occupied: occupied(map, units),
        // The provinces left empty by a standoff, marked once (not searched per retreat).
        standoff: standoffs(map, contested),
        outcomes: vec![None; orders.len()],
    };
    let per_unit = phase.orders_per_unit();
    let chosen = phase.choose(&per_unit);
    let mut final_units: Vec<Unit> = units.to_vec();
    let notes = phase.disbanded_notes(&chosen);
    phase.resolve(&chosen, &mut final_units);
    let mut outcomes = phase.outcomes;
    for (i, first) in chosen.copies {
        outcomes[i] = outcomes[first].clone();
    }
    let outcomes = outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| illegal("not applied")))
        .collect();
    PhaseResult {
        outcomes,
        final_units,
        dislodged: Vec::new(),
        contested: Vec::new(),
        notes,
    }
}

/// Each dislodged unit's order, as chosen among its legal ones (4.D.3).
struct Chosen {
    /// Per dislodged unit: its retreat (the order and where to), if that is what counts.
    target: Vec<Option<(usize, crate::model::map::LocId)>>,
    /// Per dislodged unit: its disband order, if that is what counts.
    disbands: Vec<Option<usize>>,
    /// Repeated identical orders, each with the order whose outcome it shares.
    copies: Vec<(usize, usize)>,
}

/// A retreat phase being adjudicated: the dislodged units and the orders, and each order's
/// outcome once decided.
struct RetreatPhase<'a, O> {
    /// The map.
    map: &'a Map,
    /// The dislodged units, with their attackers' origins.
    dislodged: &'a [Dislodged],
    /// The orders.
    orders: &'a [O],
    /// The rules.
    rules: &'a Rules,
    /// The provinces that hold a unit that was not dislodged.
    occupied: Vec<bool>,
    /// The provinces left empty by a standoff.
    standoff: Vec<bool>,
    /// Each order's outcome, once decided.
    outcomes: Vec<Option<OrderOutcome>>,
}

impl<O: Submitted> RetreatPhase<'_, O> {
    /// Per dislodged unit, the orders that apply to it (retreats and disbands); every other
    /// order is illegal, and says why.
    fn orders_per_unit(&mut self) -> Vec<Vec<usize>> {
        let (map, dislodged) = (self.map, self.dislodged);
        let mut per_unit: Vec<Vec<usize>> = vec![Vec::new(); dislodged.len()];
        // The dislodged unit in each province (the first, should a position list two).
        let mut dislodged_at: Vec<Option<usize>> = vec![None; map.province_count()];
        for (k, d) in dislodged.iter().enumerate().rev() {
            dislodged_at[map.province_of(d.unit.loc).0 as usize] = Some(k);
        }
        for (i, (power, o)) in self
            .orders
            .iter()
            .map(|e| (e.power(), e.order()))
            .enumerate()
        {
            let outcome = &mut self.outcomes[i];
            let Some(spec) = o.unit else {
                *outcome = Some(illegal("not a retreat order"));
                continue;
            };
            let Some(d) = dislodged_at
                .get(spec.loc.province.0 as usize)
                .copied()
                .flatten()
            else {
                *outcome = Some(illegal(
                    if self
                        .occupied
                        .get(spec.loc.province.0 as usize)
                        .copied()
                        .unwrap_or(false)
                    {
                        "only dislodged units are ordered in a retreat phase"
                    } else {
                        "no dislodged unit there"
                    },
                ));
                continue;
            };
            if dislodged[d].unit.power.is_neutral() {
                *outcome = Some(illegal(
                    "a neutral unit cannot be ordered: dislodged, it is disbanded",
                ));
                continue;
            }
            if dislodged[d].unit.power != power {
                *outcome = Some(illegal("the unit belongs to another power"));
                continue;
            }
            match &o.kind {
                OrderKind::Move { .. } | OrderKind::Disband | OrderKind::Remove => {
                    per_unit[d].push(i)
                }
                OrderKind::Support { .. } => {
                    *outcome = Some(illegal("no supports in a retreat phase"))
                }
                OrderKind::Convoy { .. } => {
                    *outcome = Some(illegal("no convoys in a retreat phase"))
                }
                OrderKind::Hold => {
                    *outcome = Some(illegal("a dislodged unit must retreat or disband"))
                }
                _ => *outcome = Some(illegal("not an order of a retreat phase")),
            }
        }
        per_unit
    }

    /// Legality of each retreat; the chosen order per unit (4.D.3).
    fn choose(&mut self, per_unit: &[Vec<usize>]) -> Chosen {
        let (map, orders, rules) = (self.map, self.orders, self.rules);
        let mut target: Vec<Option<(usize, crate::model::map::LocId)>> =
            vec![None; self.dislodged.len()];
        let mut disbands: Vec<Option<usize>> = vec![None; self.dislodged.len()];
        // Repeated identical orders share the outcome of the first.
        let mut copies: Vec<(usize, usize)> = Vec::new();
        for (d, list) in per_unit.iter().enumerate() {
            let dl = &self.dislodged[d];
            let mut legal: Vec<(usize, Option<crate::model::map::LocId>)> = Vec::new();
            for &i in list {
                match &orders[i].order().kind {
                    OrderKind::Move {
                        dest, via_convoy, ..
                    } => {
                        if *via_convoy {
                            self.outcomes[i] = Some(illegal("no convoys in a retreat phase"));
                            continue;
                        }
                        match check_retreat(map, dl, dest, &self.occupied, &self.standoff, rules) {
                            Ok(l) => legal.push((i, Some(l))),
                            Err(r) => self.outcomes[i] = Some(illegal(r)),
                        }
                    }
                    _ => legal.push((i, None)),
                }
            }
            // Orders of the same kind count once; each order's class is the first of its kind
            // (hashed: time linear in the number of orders).
            let mut first_of: std::collections::HashMap<&OrderKind, usize> =
                std::collections::HashMap::with_capacity(legal.len());
            let mut class: Vec<usize> = Vec::with_capacity(legal.len());
            let mut distinct: Vec<usize> = Vec::new();
            for (k, (i, _)) in legal.iter().enumerate() {
                let c = *first_of.entry(&orders[*i].order().kind).or_insert_with(|| {
                    distinct.push(k);
                    k
                });
                class.push(c);
            }
            let chosen = match (distinct.len(), rules.multiple_orders) {
                (0, _) => None,
                (1, _) => Some(distinct[0]),
                (_, MultipleOrders::First) => Some(distinct[0]),
                (_, MultipleOrders::Last) => distinct.last().copied(),
                (_, MultipleOrders::Hold) => None,
            };
            for (k, (i, l)) in legal.iter().enumerate() {
                let is_chosen = chosen.is_some_and(|c| class[c] == class[k]);
                if !is_chosen {
                    self.outcomes[*i] = Some(illegal(if chosen.is_none() {
                        "the unit has several orders (4.D.3): it disbands"
                    } else {
                        "another order to the same unit counts (4.D.3)"
                    }));
                    continue;
                }
                match (target[d], disbands[d], l) {
                    (Some((first, _)), _, _) | (_, Some(first), _) => copies.push((*i, first)),
                    (None, None, Some(l)) => target[d] = Some((*i, *l)),
                    (None, None, None) => disbands[d] = Some(*i),
                }
            }
        }
        Chosen {
            target,
            disbands,
            copies,
        }
    }

    /// The notes of the units disbanded without an order of their own: neutral ones, and those
    /// with no valid retreat order.
    fn disbanded_notes(&self, chosen: &Chosen) -> Vec<String> {
        let map = self.map;
        let mut notes = Vec::new();
        for (d, dl) in self.dislodged.iter().enumerate() {
            if dl.unit.power.is_neutral() {
                notes.push(format!(
                    "Neutral: {} is a neutral unit: dislodged, it is disbanded",
                    dl.unit.describe(map)
                ));
            } else if chosen.target[d].is_none() && chosen.disbands[d].is_none() {
                notes.push(format!(
                    "{}: {} has no valid retreat order and is disbanded",
                    map.power(dl.unit.power).name,
                    dl.unit.describe(map)
                ));
            }
        }
        notes
    }

    /// The chosen orders' outcomes: a disband succeeds; two or more retreats to one province
    /// all fail (the units disband); a retreat alone succeeds and its unit joins `final_units`.
    fn resolve(&mut self, chosen: &Chosen, final_units: &mut Vec<Unit>) {
        let (map, orders, dislodged) = (self.map, self.orders, self.dislodged);
        let (target, disbands) = (&chosen.target, &chosen.disbands);
        // Reasons name other units by their index among the dislodged, rendered by their
        // orders.
        let order_of = |e: usize| -> String {
            let i = target[e].map(|t| t.0).or(disbands[e]);
            match i {
                Some(i) => {
                    let mut o = orders[i].order().clone();
                    o.power = None;
                    format_order(map, &o, NameStyle::Abbr)
                }
                None => dislodged[e].unit.describe(map),
            }
        };
        let unit_of = |e: usize| dislodged[e].unit.describe(map);
        let place = |l: crate::model::map::LocId| map.loc_name(l);
        let outcome = |verdict: Verdict, cause: Reason| {
            let text = cause.render(&order_of, &unit_of, &place);
            OrderOutcome::new(verdict, cause, text)
        };
        // Per province, how many retreat there and the first of them (enough to name the
        // rivals of each): one pass, not one per retreat.
        let mut retreating = vec![0usize; map.province_count()];
        let mut first: Vec<Vec<usize>> = vec![Vec::new(); map.province_count()];
        for (d, t) in target.iter().enumerate() {
            if let Some((_, l)) = t {
                let p = map.province_of(*l).0 as usize;
                retreating[p] += 1;
                if first[p].len() <= RIVALS_NAMED {
                    first[p].push(d);
                }
            }
        }
        for d in 0..dislodged.len() {
            if let Some(i) = disbands[d] {
                self.outcomes[i] = Some(outcome(Verdict::Succeeds, Reason::Disbands));
                continue;
            }
            let Some((i, l)) = target[d] else { continue };
            let p = map.province_of(l).0 as usize;
            let rivals: Vec<usize> = first[p]
                .iter()
                .copied()
                .filter(|&e| e != d)
                .take(RIVALS_NAMED)
                .collect();
            let more = retreating[p] - 1 - rivals.len();
            if rivals.is_empty() {
                self.outcomes[i] = Some(outcome(Verdict::Succeeds, Reason::RetreatsTo { to: l }));
                final_units.push(Unit {
                    loc: l,
                    ..dislodged[d].unit
                });
            } else {
                self.outcomes[i] = Some(outcome(
                    Verdict::Fails,
                    Reason::RetreatBounced { with: rivals, more },
                ));
            }
        }
    }
}

fn check_retreat(
    map: &Map,
    d: &Dislodged,
    dest: &crate::model::orders::LocSpec,
    occupied: &[bool],
    standoff: &[bool],
    rules: &Rules,
) -> Result<crate::model::map::LocId, String> {
    let unit = &d.unit;
    let here = map.province_of(unit.loc);
    let dprov = map.province(dest.province);
    if dest.province == here {
        return Err("a unit cannot retreat to its own province".into());
    }
    let loc = match unit.kind {
        UnitKind::Army => {
            if dprov.kind == ProvinceKind::Sea {
                return Err("an army cannot retreat to sea".into());
            }
            if !map.army_adjacent(here, dest.province) {
                return Err(format!("{} is not adjacent", dprov.name));
            }
            if dest.coast.is_some() && rules.irrelevant_coast == CoastGarbage::Fail {
                return Err("irrelevant coast (4.B.6)".into());
            }
            dprov.main
        }
        UnitKind::Fleet => {
            if dprov.kind == ProvinceKind::Land {
                return Err("a fleet cannot retreat inland".into());
            }
            let reachable: Vec<crate::model::map::LocId> = map
                .fleet_neighbours(unit.loc)
                .iter()
                .copied()
                .filter(|l| map.province_of(*l) == dest.province)
                .collect();
            if reachable.is_empty() {
                return Err(format!(
                    "{} is not adjacent for a fleet on this coast",
                    dprov.name
                ));
            }
            if !dprov.is_multi_coast() {
                dprov.main
            } else {
                match dest.coast.and_then(|c| dprov.coast(c)) {
                    Some(l) if reachable.contains(&l) => l,
                    Some(_) => return Err("the fleet cannot reach that coast".into()),
                    None if reachable.len() == 1
                        && rules.one_coast_omitted == OneCoastOmitted::Infer =>
                    {
                        reachable[0]
                    }
                    None => return Err("the destination's coast must be named".into()),
                }
            }
        }
    };
    if occupied[dest.province.0 as usize] {
        return Err(format!("{} is occupied", dprov.name));
    }
    if dest.province == d.attacker_from
        && !(d.by_convoy && rules.retreat_after_convoy == RetreatAfterConvoy::Allowed)
    {
        return Err(format!("{} is where the attacker came from", dprov.name));
    }
    if standoff
        .get(dest.province.0 as usize)
        .copied()
        .unwrap_or(false)
    {
        return Err(format!("{} was left empty by a standoff", dprov.name));
    }
    Ok(loc)
}
