//! The adjustment phase: builds, removals, waives and civil disorder (DATC 6.I, 6.J).

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): per-power and per-province
// tables are sized to the map's power and province counts, and every power and province id comes
// from that map.
#![allow(clippy::indexing_slicing)]

use std::collections::VecDeque;

use crate::model::board::Unit;
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::{Order, OrderKind, Submitted};
use crate::model::rules::{
    BuildMissingType, CivilDisorder, CoastGarbage, Designation, FleetBuildOnLand, Rules,
    SameProvinceBuilds, TooManyBuilds, TooManyDisbands,
};

use super::outcome::{OrderOutcome, PhaseResult, Verdict};

fn out(verdict: Verdict, reason: impl Into<String>) -> OrderOutcome {
    let reason = reason.into();
    let reason = if verdict == Verdict::Illegal {
        format!("illegal: {reason}")
    } else {
        reason
    };
    OrderOutcome::text(verdict, reason)
}

/// Supply centres owned by each power.
pub fn centre_counts(map: &Map, owners: &[Option<PowerId>]) -> Vec<usize> {
    let mut c = vec![0; map.powers.len()];
    for o in owners.iter().flatten() {
        if let Some(n) = c.get_mut(o.0 as usize) {
            *n += 1;
        }
    }
    c
}

/// Builds (positive) or removals (negative) each power is due. Neutral units count for
/// nobody.
pub fn adjustments_due(map: &Map, units: &[Unit], owners: &[Option<PowerId>]) -> Vec<i32> {
    let centres = centre_counts(map, owners);
    let mut due: Vec<i32> = centres.iter().map(|&c| c as i32).collect();
    for u in units {
        if let Some(d) = due.get_mut(u.power.0 as usize) {
            *d -= 1;
        }
    }
    due
}

/// Civil-disorder distance of each unit of `power`: moves to the nearest owned supply centre over
/// land and sea for both unit types (2023), or to the nearest home centre with fleets by sea only
/// (older rule). `u32::MAX` when unreachable.
pub fn civil_disorder_distances(
    map: &Map,
    units: &[Unit],
    owners: &[Option<PowerId>],
    power: PowerId,
    rule: CivilDisorder,
) -> Vec<u32> {
    let targets: Vec<ProvinceId> = match rule {
        CivilDisorder::Rule2023 => map
            .province_ids()
            .filter(|p| owners[p.0 as usize] == Some(power))
            .collect(),
        CivilDisorder::Older => map.power(power).home.clone(),
    };
    // Province graph over any border.
    let mut pdist = vec![u32::MAX; map.province_count()];
    let mut q = VecDeque::new();
    for &t in &targets {
        pdist[t.0 as usize] = 0;
        q.push_back(t);
    }
    while let Some(p) = q.pop_front() {
        let d = pdist[p.0 as usize];
        let mut next: Vec<ProvinceId> = map.army_neighbours(p).to_vec();
        for l in map.locations_of(p) {
            next.extend(map.fleet_neighbours(l).iter().map(|m| map.province_of(*m)));
        }
        for n in next {
            if pdist[n.0 as usize] == u32::MAX {
                pdist[n.0 as usize] = d + 1;
                q.push_back(n);
            }
        }
    }
    // Location graph for fleets (older rule).
    let mut ldist = vec![u32::MAX; map.locations.len()];
    if rule == CivilDisorder::Older {
        let mut q = VecDeque::new();
        for &t in &targets {
            for l in map.locations_of(t) {
                ldist[l.0 as usize] = 0;
                q.push_back(l);
            }
        }
        while let Some(l) = q.pop_front() {
            let d = ldist[l.0 as usize];
            for &m in map.fleet_neighbours(l) {
                if ldist[m.0 as usize] == u32::MAX {
                    ldist[m.0 as usize] = d + 1;
                    q.push_back(m);
                }
            }
        }
    }
    units
        .iter()
        .map(|u| match (rule, u.kind) {
            (CivilDisorder::Older, UnitKind::Fleet) => ldist[u.loc.0 as usize],
            _ => pdist[map.province_of(u.loc).0 as usize],
        })
        .collect()
}

/// The units civil disorder removes from `candidates` (indices into `units`): farthest first,
/// fleets before armies at equal distance, then alphabetically by English province name.
pub fn civil_disorder_picks(
    map: &Map,
    units: &[Unit],
    owners: &[Option<PowerId>],
    power: PowerId,
    candidates: &[usize],
    count: usize,
    rule: CivilDisorder,
) -> Vec<usize> {
    let dist = civil_disorder_distances(map, units, owners, power, rule);
    let mut c: Vec<usize> = candidates.to_vec();
    c.sort_by(|&a, &b| {
        dist[b]
            .cmp(&dist[a])
            .then_with(|| {
                (units[a].kind != UnitKind::Fleet).cmp(&(units[b].kind != UnitKind::Fleet))
            })
            .then_with(|| {
                map.province(map.province_of(units[a].loc))
                    .name
                    .to_lowercase()
                    .cmp(
                        &map.province(map.province_of(units[b].loc))
                            .name
                            .to_lowercase(),
                    )
            })
    });
    c.truncate(count);
    c
}

/// Adjudicates an adjustment phase.
pub fn adjudicate_adjustments<O: Submitted>(
    map: &Map,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[O],
    rules: &Rules,
) -> PhaseResult {
    let due = adjustments_due(map, units, owners);
    let mut a = Adjuster::new(map, units, owners, orders, rules);
    for (i, o) in orders.iter().enumerate() {
        if o.power().is_neutral() {
            a.outcomes[i] = Some(out(
                Verdict::Illegal,
                "neutral units are never built or removed",
            ));
        }
    }
    for p in map.power_ids() {
        let mine: Vec<usize> = (0..orders.len())
            .filter(|&i| orders[i].power() == p)
            .collect();
        let d = due[p.0 as usize];
        if d == 0 {
            let name = &map.power(p).name;
            for &i in &mine {
                a.outcomes[i] = Some(out(
                    Verdict::Illegal,
                    format!("{name} has as many units as supply centres: no adjustment"),
                ));
            }
        } else if d > 0 {
            a.builds(p, &mine, d);
        } else {
            a.removals(p, &mine, (-d) as usize);
        }
    }
    a.finish()
}

/// An adjustment phase being adjudicated: the position and the orders, and what is decided so
/// far.
struct Adjuster<'a, O> {
    /// The map.
    map: &'a Map,
    /// The units before the phase.
    units: &'a [Unit],
    /// Each province's owner.
    owners: &'a [Option<PowerId>],
    /// The orders.
    orders: &'a [O],
    /// The rules.
    rules: &'a Rules,
    /// Each order's outcome, once decided.
    outcomes: Vec<Option<OrderOutcome>>,
    /// The units removed (by order or by civil disorder).
    removed: Vec<bool>,
    /// What civil disorder did.
    notes: Vec<String>,
    /// The units built.
    built: Vec<Unit>,
    /// The provinces with a unit, built ones included.
    occupied: Vec<bool>,
    /// The unit in each province (the first, should a position list two), for removals.
    unit_at: Vec<Option<usize>>,
    /// Units already ordered removed (each only once).
    ordered_off: Vec<bool>,
}

impl<'a, O: Submitted> Adjuster<'a, O> {
    /// Nothing decided yet.
    fn new(
        map: &'a Map,
        units: &'a [Unit],
        owners: &'a [Option<PowerId>],
        orders: &'a [O],
        rules: &'a Rules,
    ) -> Self {
        let mut occupied = vec![false; map.province_count()];
        let mut unit_at: Vec<Option<usize>> = vec![None; map.province_count()];
        for (k, u) in units.iter().enumerate().rev() {
            occupied[map.province_of(u.loc).0 as usize] = true;
            unit_at[map.province_of(u.loc).0 as usize] = Some(k);
        }
        Adjuster {
            map,
            units,
            owners,
            orders,
            rules,
            outcomes: vec![None; orders.len()],
            removed: vec![false; units.len()],
            notes: Vec::new(),
            built: Vec::new(),
            occupied,
            unit_at,
            ordered_off: vec![false; units.len()],
        }
    }

    /// Power `p` may build `d` units: its orders `mine` are checked, then several builds in
    /// one province (4.D.5) and too many builds (4.D.4) decided by the rules.
    fn builds(&mut self, p: PowerId, mine: &[usize], d: i32) {
        let (map, rules) = (self.map, self.rules);
        let name = &map.power(p).name;
        // Builds: legality first.
        let mut cands: Vec<(usize, Option<Unit>)> = Vec::new();
        for &i in mine {
            let o = self.orders[i].order();
            match o.kind {
                OrderKind::Waive => cands.push((i, None)),
                OrderKind::Build => {
                    match check_build(map, p, o, self.owners, &self.occupied, rules) {
                        Ok(u) => cands.push((i, Some(u))),
                        Err(r) => self.outcomes[i] = Some(out(Verdict::Illegal, r)),
                    }
                }
                OrderKind::Remove | OrderKind::Disband => {
                    self.outcomes[i] = Some(out(
                        Verdict::Illegal,
                        format!("{name} may build {d}, not remove"),
                    ));
                }
                _ => {
                    self.outcomes[i] =
                        Some(out(Verdict::Illegal, "not an order of an adjustment phase"))
                }
            }
        }
        // 4.D.5: several builds in one province.
        // The builds in each province, in order (one pass: time linear in the orders).
        let mut in_province: std::collections::HashMap<ProvinceId, Vec<usize>> =
            std::collections::HashMap::new();
        for (k, (_, u)) in cands.iter().enumerate() {
            if let Some(u) = u {
                in_province
                    .entry(map.province_of(u.loc))
                    .or_default()
                    .push(k);
            }
        }
        let mut keep: Vec<(usize, Option<Unit>)> = Vec::new();
        for (k, (i, u)) in cands.iter().enumerate() {
            let Some(u) = u else {
                keep.push((*i, None));
                continue;
            };
            let same: &[usize] = in_province
                .get(&map.province_of(u.loc))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            let wins = same.len() == 1
                || match rules.same_province_builds {
                    SameProvinceBuilds::AllFail => false,
                    SameProvinceBuilds::First => same.first() == Some(&k),
                    SameProvinceBuilds::Last => same.last() == Some(&k),
                };
            if wins {
                keep.push((*i, Some(*u)));
            } else {
                self.outcomes[*i] = Some(out(
                    Verdict::Fails,
                    "another build in the same province counts (4.D.5)",
                ));
            }
        }
        // 4.D.4: too many builds.
        let allowed = d as usize;
        let take: Vec<bool> = match rules.too_many_builds {
            _ if keep.len() <= allowed => vec![true; keep.len()],
            TooManyBuilds::AllInvalid => vec![false; keep.len()],
            TooManyBuilds::First => (0..keep.len()).map(|k| k < allowed).collect(),
            TooManyBuilds::Last => (0..keep.len()).map(|k| k >= keep.len() - allowed).collect(),
        };
        for ((i, u), t) in keep.iter().zip(take) {
            if !t {
                self.outcomes[*i] = Some(out(
                    Verdict::Fails,
                    format!("{name} may build only {allowed} (4.D.4)"),
                ));
                continue;
            }
            match u {
                Some(u) => {
                    self.outcomes[*i] = Some(out(
                        Verdict::Succeeds,
                        format!("builds {}", u.describe(map)),
                    ));
                    self.occupied[map.province_of(u.loc).0 as usize] = true;
                    self.built.push(*u);
                }
                None => self.outcomes[*i] = Some(out(Verdict::Succeeds, "build waived")),
            }
        }
    }

    /// Power `p` must remove `need` units: its orders `mine` are checked, too many removals
    /// decided by the rules (4.D.6), and civil disorder removes the rest.
    fn removals(&mut self, p: PowerId, mine: &[usize], need: usize) {
        let (map, units, rules) = (self.map, self.units, self.rules);
        let name = &map.power(p).name;
        let mut cands: Vec<(usize, usize)> = Vec::new();
        for &i in mine {
            let o = self.orders[i].order();
            match (&o.kind, o.unit) {
                (OrderKind::Remove | OrderKind::Disband, Some(spec)) => {
                    let found = self
                        .unit_at
                        .get(spec.loc.province.0 as usize)
                        .copied()
                        .flatten();
                    match found {
                        None => self.outcomes[i] = Some(out(Verdict::Illegal, "no unit there")),
                        Some(u) if units[u].power != p => {
                            self.outcomes[i] =
                                Some(out(Verdict::Illegal, "the unit belongs to another power"));
                        }
                        Some(u)
                            if spec.kind.is_some_and(|k| k != units[u].kind)
                                && rules.wrong_unit_type == Designation::Invalid =>
                        {
                            self.outcomes[i] =
                                Some(out(Verdict::Illegal, "wrong unit letter (4.C.2)"));
                        }
                        Some(u) => {
                            if self.ordered_off[u] {
                                self.outcomes[i] = Some(out(
                                    Verdict::Fails,
                                    "the unit is already removed by an earlier order",
                                ));
                            } else {
                                self.ordered_off[u] = true;
                                cands.push((i, u));
                            }
                        }
                    }
                }
                (OrderKind::Build | OrderKind::Waive, _) => {
                    self.outcomes[i] = Some(out(
                        Verdict::Illegal,
                        format!("{name} must remove {need}, not build"),
                    ));
                }
                _ => {
                    self.outcomes[i] =
                        Some(out(Verdict::Illegal, "not an order of an adjustment phase"))
                }
            }
        }
        let take: Vec<bool> = match rules.too_many_disbands {
            _ if cands.len() <= need => vec![true; cands.len()],
            TooManyDisbands::CivilDisorder => vec![false; cands.len()],
            TooManyDisbands::First => (0..cands.len()).map(|k| k < need).collect(),
            TooManyDisbands::Last => (0..cands.len()).map(|k| k >= cands.len() - need).collect(),
        };
        let mut done = 0;
        for ((i, u), t) in cands.iter().zip(take) {
            if t {
                self.removed[*u] = true;
                done += 1;
                self.outcomes[*i] = Some(out(
                    Verdict::Succeeds,
                    format!("removes {}", units[*u].describe(map)),
                ));
            } else {
                self.outcomes[*i] = Some(out(
                    Verdict::Fails,
                    format!("{name} must remove only {need} (4.D.6)"),
                ));
            }
        }
        if done < need {
            self.civil_disorder(p, need - done);
        }
    }

    /// Civil disorder removes `count` more of power `p`'s units, with a note for each.
    fn civil_disorder(&mut self, p: PowerId, count: usize) {
        let (map, units, rules) = (self.map, self.units, self.rules);
        let name = &map.power(p).name;
        let left: Vec<usize> = (0..units.len())
            .filter(|&u| units[u].power == p && !self.removed[u])
            .collect();
        let mut in_left = vec![false; units.len()];
        for &u in &left {
            in_left[u] = true;
        }
        for u in civil_disorder_picks(
            map,
            units,
            self.owners,
            p,
            &left,
            count,
            rules.civil_disorder,
        ) {
            self.removed[u] = true;
        }
        let dist = civil_disorder_distances(map, units, self.owners, p, rules.civil_disorder);
        for u in (0..units.len()).filter(|&u| self.removed[u] && units[u].power == p && in_left[u])
        {
            let d = match dist[u] {
                u32::MAX => "no owned centre reachable".to_string(),
                d => format!(
                    "{d} from the nearest {}",
                    match rules.civil_disorder {
                        CivilDisorder::Rule2023 => "owned centre",
                        CivilDisorder::Older => "home centre",
                    }
                ),
            };
            self.notes.push(format!(
                "{name}: civil disorder removes {} ({d})",
                units[u].describe(map)
            ));
        }
    }

    /// The phase's result: every order's outcome (an order no step decided is not applied),
    /// the units left and built, and the notes.
    fn finish(self) -> PhaseResult {
        let mut final_units: Vec<Unit> = self
            .units
            .iter()
            .enumerate()
            .filter(|(k, _)| !self.removed[*k])
            .map(|(_, u)| *u)
            .collect();
        final_units.extend(self.built);
        PhaseResult {
            outcomes: self
                .outcomes
                .into_iter()
                .map(|o| o.unwrap_or_else(|| out(Verdict::Illegal, "not applied")))
                .collect(),
            final_units,
            dislodged: Vec::new(),
            contested: Vec::new(),
            notes: self.notes,
        }
    }
}

fn check_build(
    map: &Map,
    p: PowerId,
    o: &Order,
    owners: &[Option<PowerId>],
    occupied: &[bool],
    rules: &Rules,
) -> Result<Unit, String> {
    let spec = o.unit.ok_or("a build names a unit")?;
    let prov_id = spec.loc.province;
    let prov = map.province(prov_id);
    let name = &map.power(p).name;
    match map.build_sites {
        crate::model::map::BuildSites::Home if prov.home_of != Some(p) => {
            return Err(format!(
                "{} is not a home supply centre of {name}",
                prov.name
            ));
        }
        crate::model::map::BuildSites::Owned | crate::model::map::BuildSites::OwnedIfHomeOwned
            if !prov.supply_center =>
        {
            return Err(format!("{} is not a supply centre", prov.name));
        }
        _ => {}
    }
    if !map.may_build_at_all(p, owners) {
        return Err(format!(
            "{name} owns none of its home centres, and on this map a power builds only while it owns one"
        ));
    }
    if owners[prov_id.0 as usize] != Some(p) {
        return Err(format!("{name} does not own {}", prov.name));
    }
    if occupied[prov_id.0 as usize] {
        return Err(format!("{} is occupied", prov.name));
    }
    let kind = match spec.kind {
        Some(k) => k,
        None => match (rules.build_missing_type, prov.kind) {
            (BuildMissingType::AlwaysFail, _) => {
                return Err("the build does not say army or fleet (4.C.3)".into());
            }
            (_, ProvinceKind::Land) => UnitKind::Army,
            (BuildMissingType::ArmyOnLand, _) => {
                return Err("the build does not say army or fleet (4.C.3)".into());
            }
            (BuildMissingType::Infer, _) if spec.loc.coast.is_some() => UnitKind::Fleet,
            (BuildMissingType::Infer, _) => {
                return Err(
                    "the build does not say army or fleet, and names no coast (4.C.3)".into(),
                );
            }
        },
    };
    let kind = match (kind, prov.kind) {
        (UnitKind::Fleet, ProvinceKind::Land) => match rules.fleet_build_on_land {
            FleetBuildOnLand::Fail => {
                return Err(format!(
                    "a fleet cannot be built in {}, an inland province (4.C.4)",
                    prov.name
                ));
            }
            FleetBuildOnLand::BuildArmy => UnitKind::Army,
        },
        (k, _) => k,
    };
    let loc: LocId = match kind {
        UnitKind::Army => {
            if spec.loc.coast.is_some()
                && rules.irrelevant_coast == CoastGarbage::Fail
                && spec.kind.is_some()
            {
                return Err("irrelevant coast (4.B.6)".into());
            }
            prov.main
        }
        UnitKind::Fleet => {
            if prov.is_multi_coast() {
                match spec.loc.coast.and_then(|c| prov.coast(c)) {
                    Some(l) => l,
                    None => {
                        return Err(format!(
                            "a fleet built in {} must name its coast (4.B.7)",
                            prov.name
                        ));
                    }
                }
            } else {
                prov.main
            }
        }
    };
    Ok(Unit {
        power: p,
        kind,
        loc,
    })
}
