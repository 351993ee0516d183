//! Editing the position: placing, moving and removing units, a supply centre's owner, and a
//! retreat phase's dislodged units and contested provinces. Every edit goes through the
//! session's editor (undo and redo included).

use super::App;
use crate::tui::editor::{Choice, Menu, MenuItem};
use crate::tui::state::Popup;
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::map::UnitKind;
use dipsandbox_core::tools::edit::Edit;

impl App {
    pub(super) fn move_unit(&mut self) {
        let Some(p) = self.need_province() else {
            return;
        };
        let s = self.session.scenario();
        let map = s.map.clone();
        match self.board.carry {
            None => match s.units.iter().find(|u| map.province_of(u.loc) == p) {
                Some(u) => {
                    self.board.carry = Some(p);
                    self.info(format!(
                        "moving {}: select where it goes, then m or enter (esc cancels)",
                        u.describe_owned(&map)
                    ));
                }
                None => self.info(format!("no unit in {} to move", map.province(p).name)),
            },
            Some(from) if from == p => {
                self.board.carry = None;
                self.info("put back where it was");
            }
            Some(from) => {
                let Some(u) = s
                    .units
                    .iter()
                    .find(|u| map.province_of(u.loc) == from)
                    .copied()
                else {
                    self.board.carry = None;
                    return;
                };
                let prov = map.province(p);
                if u.kind == UnitKind::Fleet && prov.is_multi_coast() {
                    let items = prov
                        .coasts
                        .iter()
                        .map(|(c, l)| MenuItem {
                            label: format!("{} ({})", prov.name, c.name()),
                            choice: Choice::MoveTo(from, *l),
                        })
                        .collect();
                    self.popup = Some(Popup::Menu(Menu::new("Which coast?", items)));
                } else {
                    self.choose(MenuItem {
                        label: String::new(),
                        choice: Choice::MoveTo(from, prov.main),
                    });
                }
            }
        }
    }

    pub(super) fn start_dislodge(&mut self) {
        let Some(p) = self.need_province() else {
            return;
        };
        let s = self.session.scenario();
        if s.phase.kind != PhaseKind::Retreat {
            self.error(format!(
                "units are dislodged in a retreat phase; this is a {} (t changes the phase)",
                s.phase
            ));
            return;
        }
        let map = s.map.clone();
        let here = map.province(p);
        let dislodged = s.dislodged.iter().any(|d| map.province_of(d.unit.loc) == p);
        if !dislodged && !s.units.iter().any(|u| map.province_of(u.loc) == p) {
            self.info(format!("no unit in {} to dislodge", here.name));
            return;
        }
        let mut items = Vec::new();
        if dislodged {
            items.push(MenuItem {
                label: "not dislodged: put it back".into(),
                choice: Choice::Dislodge(p, None),
            });
        }
        for q in map.province_ids().filter(|q| *q != p) {
            if map.provinces_adjacent(p, q) {
                items.push(MenuItem {
                    label: format!(
                        "from {} ({})",
                        map.province(q).name,
                        map.loc_abbr(map.province(q).main)
                    ),
                    choice: Choice::Dislodge(p, Some((q, false))),
                });
            }
        }
        if here.kind == dipsandbox_core::model::map::ProvinceKind::Coast {
            for q in map.province_ids().filter(|q| *q != p) {
                if map.province(q).kind == dipsandbox_core::model::map::ProvinceKind::Coast {
                    items.push(MenuItem {
                        label: format!(
                            "by convoy from {} ({})",
                            map.province(q).name,
                            map.loc_abbr(map.province(q).main)
                        ),
                        choice: Choice::Dislodge(p, Some((q, true))),
                    });
                }
            }
        }
        self.popup = Some(Popup::Menu(Menu::new(
            format!(
                "Dislodged in {}: where did the attacker come from?",
                here.name
            ),
            items,
        )));
    }

    /// Asks whose army (or fleet, and on which coast) to place on the selected province.
    pub(super) fn place(&mut self, army: bool) {
        let Some(p) = self.need_province() else {
            return;
        };
        let kind = if army {
            UnitKind::Army
        } else {
            UnitKind::Fleet
        };
        let menu = crate::tui::menu::place_menu_after(
            self.session.scenario(),
            p,
            kind,
            self.board.last_power,
        );
        let refusal = menu.items.iter().find_map(|i| match &i.choice {
            Choice::Refused(m) => Some(m.clone()),
            _ => None,
        });
        match refusal {
            Some(m)
                if menu
                    .items
                    .iter()
                    .all(|i| matches!(i.choice, Choice::Refused(_))) =>
            {
                self.error(m)
            }
            _ => self.popup = Some(Popup::Menu(menu)),
        }
    }

    /// Removes the unit on the selected province.
    pub(super) fn remove_unit(&mut self) {
        let Some(p) = self.need_province() else {
            return;
        };
        let s = self.session.scenario();
        let name = crate::tui::editor::unit_at(s, p)
            .or_else(|| {
                s.units
                    .iter()
                    .find(|u| s.map.province_of(u.loc) == p)
                    .copied()
            })
            .map(|u| u.describe_owned(&s.map));
        if self.apply(Edit::RemoveUnit(p)) {
            self.info(format!(
                "removed {} (its orders stay; u undoes)",
                name.unwrap_or_default()
            ));
        }
    }

    /// Asks who owns the selected supply centre.
    pub(super) fn set_owner(&mut self) {
        let Some(p) = self.need_province() else {
            return;
        };
        let s = self.session.scenario();
        let prov = s.map.province(p);
        if !prov.supply_center {
            self.error(format!("{} is not a supply centre", prov.name));
            return;
        }
        let mut items: Vec<MenuItem> = s
            .map
            .power_ids()
            .map(|w| MenuItem {
                label: s.map.power(w).name.clone(),
                choice: Choice::Owner(p, Some(w)),
            })
            .collect();
        items.push(MenuItem {
            label: "neutral (nobody)".into(),
            choice: Choice::Owner(p, None),
        });
        self.popup = Some(Popup::Menu(Menu::new(
            format!("Who owns {}?", prov.name),
            items,
        )));
    }

    /// Marks the selected province contested (or not).
    pub(super) fn toggle_contested(&mut self) {
        let Some(p) = self.need_province() else {
            return;
        };
        let s = self.session.scenario();
        let on = !s.contested.contains(&p);
        let name = s.map.province(p).name.clone();
        if self.apply(Edit::Contested(p, on)) {
            self.info(if on {
                format!("{name} is contested: no unit may retreat there")
            } else {
                format!("{name} is no longer contested")
            });
        }
    }
}
