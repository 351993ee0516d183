//! Editing a scenario: every change is an [`Edit`], checked before it is applied (an army is
//! never put at sea, nor a fleet inland), and kept in a history for unlimited undo and redo.
//! The editor in the TUI is built on this; nothing here draws.

use crate::model::board::{Dislodged, Phase, PhaseKind, Unit};
use crate::model::map::{LocId, Map, PowerId, ProvinceId, ProvinceKind, UnitKind};
use crate::model::orders::parse_order;
use crate::model::rules::Rules;
use crate::model::scenario::{Expect, OrderEntry, Scenario};

/// One change to a scenario.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Set the title.
    Title(String),
    /// Set the description.
    Description(String),
    /// Set the source.
    Source(String),
    /// Set the phase.
    Phase(Phase),
    /// Set the scenario's own rules.
    Rules(Rules),
    /// Place a unit (replacing whatever stands in that province).
    PlaceUnit(Unit),
    /// Remove the unit in a province.
    RemoveUnit(ProvinceId),
    /// Set a supply centre's owner (None: neutral).
    Owner(ProvinceId, Option<PowerId>),
    /// Add an order for a power, as text (an illegal or odd order is fine; it must parse). It
    /// goes where a saved file has it: after that power's last order ([`added_order_index`]).
    AddOrder(PowerId, String),
    /// Replace the text of the order at an index.
    ReplaceOrder(usize, String),
    /// Remove the order at an index.
    RemoveOrder(usize),
    /// Set the expectations of the phase and of the retreats that follow it.
    Expectations(Option<Expect>, Option<Expect>),
    /// Move the unit in a province to another place (its orders stay as written).
    MoveUnit(ProvinceId, LocId),
    /// Retreat phase: mark the unit in a province dislodged by a unit that came from another
    /// province (and whether it came by convoy), or (None) put a dislodged unit back.
    Dislodge(ProvinceId, Option<(ProvinceId, bool)>),
    /// Retreat phase: mark a province contested (left empty by a standoff) or not.
    Contested(ProvinceId, bool),
    /// Replace the whole scenario (a new scenario, the next phase); undo brings the old back.
    Replace(Box<Scenario>),
}

/// Where [`Edit::AddOrder`] puts a new order of `power`: after that power's last order, else
/// at the end. A file lists each power's orders together (the powers in the order they first
/// appear), so the orders stay in the order a save writes them and a reload reads them back.
pub fn added_order_index(orders: &[OrderEntry], power: PowerId) -> usize {
    orders
        .iter()
        .rposition(|o| o.power == power)
        .map_or(orders.len(), |i| i + 1)
}

/// Why an edit was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EditError(pub String);

/// A scenario under edit, with its history.
#[derive(Clone, Debug)]
pub struct Editor {
    scenario: Scenario,
    undo: Vec<Scenario>,
    redo: Vec<Scenario>,
    /// The depth of the undo history ([`Editor::depth`]) at which the scenario is as last
    /// saved; None when no state in the history is (the saved one was dropped from the redo
    /// history, or the scenario came with edits its file does not have).
    saved: Option<usize>,
}

impl Editor {
    /// Starts editing a scenario.
    pub fn new(scenario: Scenario) -> Editor {
        Editor {
            scenario,
            undo: Vec::new(),
            redo: Vec::new(),
            saved: Some(0),
        }
    }

    /// The scenario as it stands.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Whether the scenario differs from what was last saved ([`Editor::mark_saved`]): undoing
    /// every edit since a save (or redoing back to it) leaves it clean.
    pub fn is_dirty(&self) -> bool {
        self.saved != Some(self.undo.len())
    }

    /// How many edits the undo history holds: the scenario's place in its history.
    pub fn depth(&self) -> usize {
        self.undo.len()
    }

    /// Records that the scenario was saved.
    pub fn mark_saved(&mut self) {
        self.saved = Some(self.undo.len());
    }

    /// Records that the scenario differs from its file although no edit was made here (edits
    /// restored from a recovery file): it stays unsaved until it is saved.
    pub fn mark_unsaved(&mut self) {
        self.saved = None;
    }

    /// Applies an edit; a refused edit changes nothing.
    pub fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        let mut next = self.scenario.clone();
        apply(&mut next, edit)?;
        // The saved state, if it was among the undone ones, is dropped with the redo history.
        if self.saved.is_some_and(|s| s > self.undo.len()) {
            self.saved = None;
        }
        self.undo.push(std::mem::replace(&mut self.scenario, next));
        self.redo.clear();
        Ok(())
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(prev) => {
                self.redo.push(std::mem::replace(&mut self.scenario, prev));
                true
            }
            None => false,
        }
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(next) => {
                self.undo.push(std::mem::replace(&mut self.scenario, next));
                true
            }
            None => false,
        }
    }
}

/// Refuses an edit that names a province, place or power the scenario's map does not have (an
/// id is an index into one map: one from another map, or from before a new scenario replaced
/// this one, would point past it), or an expectation of an order the phase does not have.
fn check_ids(s: &Scenario, edit: &Edit) -> Result<(), EditError> {
    let map = &s.map;
    let province = |p: ProvinceId| (p.0 as usize) < map.provinces.len();
    let place = |l: LocId| (l.0 as usize) < map.locations.len();
    let power = |p: PowerId| (p.0 as usize) < map.powers.len() || p.is_neutral();
    let units_on_map = |e: &Option<Expect>, orders: usize| {
        e.as_ref().is_none_or(|e| {
            e.results.iter().all(|(i, _, _)| *i < orders)
                && [&e.positions, &e.dislodged]
                    .into_iter()
                    .flatten()
                    .flatten()
                    .all(|u| power(u.power) && place(u.loc))
        })
    };
    let ok = match edit {
        Edit::PlaceUnit(u) => power(u.power) && place(u.loc),
        Edit::RemoveUnit(p) | Edit::Contested(p, _) => province(*p),
        Edit::Owner(p, owner) => province(*p) && owner.is_none_or(power),
        Edit::MoveUnit(p, to) => province(*p) && place(*to),
        Edit::Dislodge(p, by) => province(*p) && by.is_none_or(|(from, _)| province(from)),
        Edit::Expectations(phase, retreats) => {
            units_on_map(phase, s.orders.len())
                && units_on_map(retreats, s.retreats.as_ref().map_or(0, |r| r.orders.len()))
        }
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(EditError(format!(
            "no such province, place, power or order in this scenario (map {})",
            map.name
        )))
    }
}

/// Applies an edit whose ids [`check_ids`] has let through: every id below is on the map.
fn apply(s: &mut Scenario, edit: Edit) -> Result<(), EditError> {
    check_ids(s, &edit)?;
    let map = s.map.clone();
    let err = |m: String| Err(EditError(m));
    match edit {
        Edit::Title(t) => s.title = t,
        Edit::Description(t) => s.description = t,
        Edit::Source(t) => s.source = t,
        Edit::Phase(p) => {
            if p.kind != PhaseKind::Retreat && (!s.dislodged.is_empty() || !s.contested.is_empty())
            {
                return err(format!(
                    "a {p} has no dislodged units or contested provinces: unmark them first"
                ));
            }
            if p.kind != PhaseKind::Movement && s.retreats.is_some() {
                return err(format!(
                    "this scenario's retreat orders follow a movement phase, not a {p}"
                ));
            }
            s.phase = p;
        }
        Edit::Rules(r) => s.rules = r,
        Edit::PlaceUnit(u) => {
            check_standing(&map, &u)?;
            let p = map.province_of(u.loc);
            s.units.retain(|x| map.province_of(x.loc) != p);
            s.units.push(u);
        }
        Edit::RemoveUnit(p) => {
            let before = s.units.len();
            s.units.retain(|x| map.province_of(x.loc) != p);
            if s.units.len() == before {
                return err(format!("no unit in {}", map.province(p).name));
            }
        }
        Edit::Owner(p, owner) => {
            let prov = map.province(p);
            if !prov.supply_center {
                return err(format!("{} is not a supply centre", prov.name));
            }
            let mut owners = s.owners_or_home();
            let Some(slot) = owners.get_mut(p.0 as usize) else {
                return err("no such province".into());
            };
            *slot = owner;
            s.owners = Some(owners);
        }
        Edit::AddOrder(power, text) => {
            if power.0 as usize >= map.powers.len() {
                return err("no such power".into());
            }
            let order = parse_order(&map, &text)
                .map_err(|e| EditError(format!("column {}: {}", e.col, e.message)))?;
            let at = added_order_index(&s.orders, power);
            s.orders.insert(at, OrderEntry { power, text, order });
            // Expectations name orders by index: those after the new order move up one.
            if let Some(e) = &mut s.expect {
                for (k, _, _) in &mut e.results {
                    if *k >= at {
                        *k += 1;
                    }
                }
            }
        }
        Edit::ReplaceOrder(i, text) => {
            let order = parse_order(&map, &text)
                .map_err(|e| EditError(format!("column {}: {}", e.col, e.message)))?;
            let Some(o) = s.orders.get_mut(i) else {
                return err(format!("no order {i}"));
            };
            // An expectation keyed by the old text follows the order (a saved file must load):
            // its key becomes "", the order's text.
            if let Some(e) = &mut s.expect {
                for (k, key, _) in &mut e.results {
                    if *k == i {
                        key.clear();
                    }
                }
            }
            o.text = text;
            o.order = order;
        }
        Edit::Expectations(phase, retreats) => {
            s.expect = phase;
            if let Some(f) = &mut s.retreats {
                f.expect = retreats;
            }
        }
        Edit::RemoveOrder(i) => {
            if i >= s.orders.len() {
                return err(format!("no order {i}"));
            }
            s.orders.remove(i);
            // Expectations name orders by index: drop the removed one's, shift the rest.
            if let Some(e) = &mut s.expect {
                e.results.retain(|(k, _, _)| *k != i);
                for (k, _, _) in &mut e.results {
                    if *k > i {
                        *k -= 1;
                    }
                }
            }
        }
        Edit::MoveUnit(from, to) => {
            let Some(i) = s.units.iter().position(|x| map.province_of(x.loc) == from) else {
                return err(format!("no unit in {}", name(&map, from)));
            };
            let Some(&unit) = s.units.get(i) else {
                return err(format!("no unit in {}", name(&map, from)));
            };
            let moved = Unit { loc: to, ..unit };
            check_standing(&map, &moved)?;
            let dest = map.province_of(to);
            if dest != from && s.units.iter().any(|x| map.province_of(x.loc) == dest) {
                return err(format!("{} already has a unit", map.province(dest).name));
            }
            if let Some(slot) = s.units.get_mut(i) {
                *slot = moved;
            }
        }
        Edit::Dislodge(p, by) => {
            if s.phase.kind != PhaseKind::Retreat {
                return err(format!(
                    "units are dislodged in a retreat phase; this is a {} (change the phase first)",
                    s.phase
                ));
            }
            let here = name(&map, p);
            match by {
                Some((from, by_convoy)) => {
                    if from == p {
                        return err(format!(
                            "a unit in {here} is dislodged from another province"
                        ));
                    }
                    if let Some(d) = s
                        .dislodged
                        .iter_mut()
                        .find(|d| map.province_of(d.unit.loc) == p)
                    {
                        d.attacker_from = from;
                        d.by_convoy = by_convoy;
                    } else {
                        let Some(i) = s.units.iter().position(|x| map.province_of(x.loc) == p)
                        else {
                            return err(format!("no unit in {here} to dislodge"));
                        };
                        let unit = s.units.remove(i);
                        s.dislodged.push(Dislodged {
                            unit,
                            attacker_from: from,
                            by_convoy,
                        });
                    }
                }
                None => {
                    let Some(i) = s
                        .dislodged
                        .iter()
                        .position(|d| map.province_of(d.unit.loc) == p)
                    else {
                        return err(format!("no dislodged unit in {here}"));
                    };
                    if s.units.iter().any(|x| map.province_of(x.loc) == p) {
                        return err(format!(
                            "{here} is taken by another unit: remove it before putting the dislodged unit back"
                        ));
                    }
                    let d = s.dislodged.remove(i);
                    s.units.push(d.unit);
                }
            }
        }
        Edit::Contested(p, on) => {
            if s.phase.kind != PhaseKind::Retreat {
                return err(format!(
                    "provinces are contested in a retreat phase; this is a {} (change the phase first)",
                    s.phase
                ));
            }
            let has = s.contested.contains(&p);
            if on && !has {
                s.contested.push(p);
            } else if !on && has {
                s.contested.retain(|x| *x != p);
            } else {
                return err(format!(
                    "{} is {}contested already",
                    name(&map, p),
                    if on { "" } else { "not " }
                ));
            }
        }
        Edit::Replace(next) => *s = *next,
    }
    Ok(())
}

fn name(map: &Map, p: ProvinceId) -> String {
    map.province(p).name.clone()
}

/// Whether a unit can stand where it is: no army at sea or on a coast, no fleet inland, a fleet
/// in a two-coast province on one of its coasts.
pub fn check_standing(map: &Map, u: &Unit) -> Result<(), EditError> {
    let err = |m: String| Err(EditError(m));
    if (u.power.0 as usize >= map.powers.len() && !u.power.is_neutral())
        || u.loc.0 as usize >= map.locations.len()
    {
        return err("no such power or place on this map".into());
    }
    let p = map.province_of(u.loc);
    let prov = map.province(p);
    match (u.kind, prov.kind) {
        (UnitKind::Army, ProvinceKind::Sea) => {
            err(format!("an army cannot stand in {} (a sea)", prov.name))
        }
        (UnitKind::Fleet, ProvinceKind::Land) => {
            err(format!("a fleet cannot stand in {} (inland)", prov.name))
        }
        (UnitKind::Fleet, _) if prov.is_multi_coast() && u.loc == prov.main => {
            let coasts: Vec<&str> = prov.coasts.iter().map(|(c, _)| c.abbr()).collect();
            err(format!(
                "a fleet in {} needs a coast: {}",
                prov.name,
                coasts.join(" or ")
            ))
        }
        (UnitKind::Army, _) if u.loc != prov.main => {
            err(format!("an army in {} stands in no coast", prov.name))
        }
        _ => Ok(()),
    }
}
