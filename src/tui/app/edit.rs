//! Editing the scenario: orders, its details, a new scenario, and going on to the next phase
//! (the position's edits are in `position.rs`). Every edit goes through the
//! session's editor (undo and redo included).

use super::App;
use crate::tui::editor::{Choice, Field, Menu, MenuItem, NewKind, OrderEditor};
use crate::tui::keymap::Context;
use crate::tui::state::{Popup, Tree};
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::map::ProvinceId;
use dipsandbox_core::tools::edit::Edit;

impl App {
    /// Applies an edit; a refusal becomes the status message. True when it was applied.
    pub(super) fn apply(&mut self, e: Edit) -> bool {
        match self.session.edit(e) {
            Ok(()) => {
                self.after_edit();
                true
            }
            Err(e) => {
                self.error(e.0);
                false
            }
        }
    }

    /// Keeps the selections inside the re-adjudicated scenario.
    pub(super) fn after_edit(&mut self) {
        let n = self.session.scenario().orders.len();
        self.orders.order = self.orders.order.min(n.saturating_sub(1));
        let d = self.decision_count();
        if self.stepper.decision >= d {
            self.stepper.decision = 0;
        }
        if self.stepper.tree.root as usize >= d.max(1) || d == 0 {
            self.stepper.tree = Tree::default();
        }
        self.set_tree_root(self.stepper.decision as u32);
    }

    /// The selected province, or a message asking for one.
    pub(super) fn need_province(&mut self) -> Option<ProvinceId> {
        if self.board.province.is_none() {
            self.info("select a province first (arrows, / and its name, or a click)");
        }
        self.board.province
    }

    pub(super) fn choose(&mut self, item: MenuItem) {
        let s = self.session.scenario();
        let map = s.map.clone();
        match item.choice {
            Choice::Place(u) => {
                self.board.last_power = Some(u.power);
                if self.apply(Edit::PlaceUnit(u)) {
                    self.info(format!("placed {} (i orders it)", u.describe_owned(&map)));
                }
            }
            Choice::Owner(p, o) => {
                if self.apply(Edit::Owner(p, o)) {
                    let who = o.map_or("nobody".to_string(), |w| map.power(w).name.clone());
                    self.info(format!("{} now belongs to {who}", map.province(p).name));
                }
            }
            Choice::Dislodge(p, by) => {
                if self.apply(Edit::Dislodge(p, by)) {
                    self.info(match by {
                        Some((from, c)) => format!(
                            "the unit in {} is dislodged from {}{} (i orders its retreat)",
                            map.province(p).name,
                            map.province(from).name,
                            if c { " by convoy" } else { "" }
                        ),
                        None => format!("the unit in {} is back", map.province(p).name),
                    });
                }
            }
            Choice::MoveTo(from, loc) => {
                self.board.carry = None;
                if self.apply(Edit::MoveUnit(from, loc)) {
                    self.info(format!(
                        "moved to {} (its orders stay as written; u undoes)",
                        map.loc_name(loc)
                    ));
                }
            }
            Choice::New(kind) => {
                // A new scenario keeps the map the current one uses.
                let next = match kind {
                    NewKind::Opening => {
                        dipsandbox_core::model::scenario::Scenario::opening(map, &s.map_ref)
                    }
                    NewKind::Empty => {
                        dipsandbox_core::model::scenario::Scenario::empty(map, &s.map_ref)
                    }
                    NewKind::Copy => {
                        let mut c = s.clone();
                        c.title = format!("Copy of {}", c.title);
                        c
                    }
                };
                if self.replace_scenario(next) {
                    self.board.province = None;
                    self.info(
                        "a new scenario: A / F place units, i orders, t sets the title and phase, S saves",
                    );
                }
            }
            Choice::NewOn { map: name, empty } => {
                match dipsandbox_core::model::map::Map::load(&name) {
                    Ok(m) => {
                        let m = std::sync::Arc::new(m);
                        let next = if empty {
                            dipsandbox_core::model::scenario::Scenario::empty(m, &name)
                        } else {
                            dipsandbox_core::model::scenario::Scenario::opening(m, &name)
                        };
                        if self.replace_scenario(next) {
                            self.board.province = None;
                            self.info(format!(
                                "a new scenario on the map {}: A / F place units, i orders, S saves",
                                dipsandbox_core::base::text::cut(&name)
                            ));
                        }
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            Choice::Field(f) => {
                self.popup = Some(Popup::Field(f, f.value(s)));
            }
            Choice::Refused(m) => self.error(m),
        }
    }

    pub(super) fn commit_field(&mut self, f: Field, text: String) {
        let edit = match f {
            Field::Title => Edit::Title(text.trim().to_string()),
            Field::Description => Edit::Description(text.trim().to_string()),
            Field::Source => Edit::Source(text.trim().to_string()),
            Field::Phase => match dipsandbox_core::model::board::Phase::parse(&text) {
                Ok(p) => Edit::Phase(p),
                Err(e) => {
                    self.error(e);
                    return;
                }
            },
        };
        if self.apply(edit) {
            self.popup = None;
            self.info(format!("{} set (u undoes)", f.label()));
        }
    }

    pub(super) fn start_order(&mut self) {
        let s = self.session.scenario();
        let map = s.map.clone();
        let (replace, province) = if self.focus == Context::Orders {
            if s.orders.is_empty() {
                self.info("no orders yet: select a unit on the board and press i");
                return;
            }
            (
                Some(self.orders.order),
                self.session.order_province(self.orders.order),
            )
        } else {
            let Some(p) = self.need_province() else {
                return;
            };
            let s = self.session.scenario();
            let existing = if s.phase.kind == PhaseKind::Adjustment {
                None
            } else {
                self.session.order_at(p)
            };
            (existing, Some(p))
        };
        let s = self.session.scenario();
        let unit = province.and_then(|p| crate::tui::editor::unit_at(s, p));
        let power = replace
            .and_then(|i| s.orders.get(i).map(|o| o.power))
            .or(unit.map(|u| u.power));
        let offers = crate::tui::editor::offers_at(s, province);
        let heading = match (s.phase.kind, unit) {
            (PhaseKind::Adjustment, _) => {
                // Builds (+) and removals (−) due, per power, short enough for 80 columns:
                // `builds due: Aus+2 Eng+1 Ita−1` (a minus: removals).
                let owners = s.owners_or_home();
                let due = dipsandbox_core::engine::adjust::adjustments_due(&map, &s.units, &owners);
                let parts: Vec<String> = map
                    .power_ids()
                    .filter_map(|p| {
                        let n = due.get(p.0 as usize).copied().unwrap_or(0);
                        let name: String = map.power(p).name.chars().take(3).collect();
                        match n {
                            0 => None,
                            n if n > 0 => Some(format!("{name}+{n}")),
                            n => Some(format!("{name}−{}", -n)),
                        }
                    })
                    .collect();
                if parts.is_empty() {
                    "no builds or removals due".to_string()
                } else {
                    format!("builds due: {}", parts.join(" "))
                }
            }
            (_, Some(u)) => u.describe_owned(&map),
            (_, None) => format!(
                "no unit in {}: write any order, starting with the power (England: A Lon - Nth)",
                province.map_or("this place".into(), |p| map.province(p).name.clone())
            ),
        };
        let text = replace
            .and_then(|i| s.orders.get(i).map(|o| o.text.clone()))
            .unwrap_or_default();
        self.popup = Some(Popup::Order(OrderEditor::new(
            &map, heading, power, replace, offers, text,
        )));
    }

    pub(super) fn commit_order(
        &mut self,
        chosen: Result<(dipsandbox_core::model::map::PowerId, String), String>,
        replace: Option<usize>,
    ) {
        let (power, text) = match chosen {
            Ok(c) => c,
            Err(m) => {
                self.error(m);
                return;
            }
        };
        let s = self.session.scenario();
        let edit = match replace {
            Some(i) if s.orders.get(i).is_some_and(|o| o.power == power) => {
                Edit::ReplaceOrder(i, text.clone())
            }
            Some(i) => {
                // Another power's order: remove this one and add that one.
                if !self.apply(Edit::RemoveOrder(i)) {
                    return;
                }
                Edit::AddOrder(power, text.clone())
            }
            None => Edit::AddOrder(power, text.clone()),
        };
        // Where an added order goes: after its power's last order.
        let added = matches!(edit, Edit::AddOrder(..)).then(|| {
            dipsandbox_core::tools::edit::added_order_index(&self.session.scenario().orders, power)
        });
        if self.apply(edit) {
            self.popup = None;
            if let Some(at) = added {
                self.orders.order = at;
            }
            let verdict = self
                .session
                .run
                .phase()
                .outcomes
                .get(self.orders.order)
                .map(|o| o.reason.clone())
                .unwrap_or_default();
            self.info(format!("{text}: {verdict}"));
        }
    }

    pub(super) fn advance(&mut self) {
        let s = self.session.scenario();
        let map = s.map.clone();
        let from = s.phase;
        let a = match dipsandbox_core::tools::turn::advance(s, &self.session.rules) {
            Ok(a) => a,
            Err(e) => {
                self.error(e.to_string());
                return;
            }
        };
        let to = a.next.phase;
        let dislodged = a.next.dislodged.len();
        if self.replace_scenario(a.next) {
            self.board.after = false;
            let mut msg = format!("{from} adjudicated; now {to}");
            if dislodged > 0 {
                msg.push_str(&format!(" ({dislodged} dislodged)"));
            }
            if let Some(w) = a.winner {
                msg.push_str(&format!(" — {} has won", map.power(w).name));
            }
            msg.push_str(": i orders, > goes on, S saves this phase, u goes back");
            self.info(msg);
        }
    }

    /// Undoes (or redoes) the last edit.
    pub(super) fn undo_redo(&mut self, undo: bool) {
        let done = if undo {
            self.session.undo()
        } else {
            self.session.redo()
        };
        match (done, undo) {
            (true, _) => {
                let before = self.session.path.clone();
                self.follow_replacements();
                self.after_edit();
                let word = if undo { "undone" } else { "redone" };
                // A replacement undone or redone: which file the scenario is now.
                match (&self.session.path, before == self.session.path) {
                    (_, true) => self.info(word),
                    (Some(p), false) => {
                        let saved = if self.session.is_dirty() {
                            ""
                        } else {
                            ", as saved"
                        };
                        self.info(format!("{word}: the scenario of {}{saved}", p.display()))
                    }
                    (None, false) => self.info(format!("{word}: a new scenario (S saves it)")),
                }
            }
            (false, true) => self.info("nothing to undo"),
            (false, false) => self.info("nothing to redo"),
        }
    }

    /// Replaces the scenario by a new one (the next phase, a new or copied scenario), which
    /// has no file yet (saving must not overwrite the old one's); undoing it gives the file
    /// back. False when the edit was refused.
    fn replace_scenario(&mut self, next: dipsandbox_core::model::scenario::Scenario) -> bool {
        let depth = self.session.history_depth();
        if !self.apply(Edit::Replace(Box::new(next))) {
            return false;
        }
        self.left_files.push((depth, self.session.path.take()));
        true
    }

    /// After an undo or a redo: the scenario's file is the one it had before the first
    /// replacement not in force now (undone), else none (every replacement is in force).
    fn follow_replacements(&mut self) {
        let depth = self.session.history_depth();
        if let Some((_, path)) = self.left_files.iter().find(|(d, _)| *d >= depth) {
            self.session.path = path.clone();
        } else if !self.left_files.is_empty() {
            self.session.path = None;
        }
    }

    /// Forgets the files replacements left behind: the scenario was saved, opened or restored.
    pub(super) fn forget_replacements(&mut self) {
        self.left_files.clear();
    }

    /// Deletes the selected order.
    pub(super) fn delete_order(&mut self) {
        if self.session.scenario().orders.is_empty() {
            self.info("there are no orders to delete");
        } else {
            let text = self.session.order_short(self.orders.order);
            if self.apply(Edit::RemoveOrder(self.orders.order)) {
                self.info(format!("deleted {text} (u undoes)"));
            }
        }
    }

    /// The menu of the scenario's details.
    pub(super) fn details(&mut self) {
        let s = self.session.scenario();
        let items = [
            Field::Title,
            Field::Description,
            Field::Source,
            Field::Phase,
        ]
        .into_iter()
        .map(|f| MenuItem {
            label: format!("{}: {}", f.label(), f.value(s)),
            choice: Choice::Field(f),
        })
        .collect();
        self.popup = Some(Popup::Menu(Menu::new("Scenario details", items)));
    }

    /// The menu of new scenarios.
    pub(super) fn new_scenario(&mut self) {
        let mut items = vec![
            MenuItem {
                label: "the opening position".into(),
                choice: Choice::New(NewKind::Opening),
            },
            MenuItem {
                label: "an empty board".into(),
                choice: Choice::New(NewKind::Empty),
            },
            MenuItem {
                label: "a copy of this scenario".into(),
                choice: Choice::New(NewKind::Copy),
            },
        ];
        // Every other map a name finds from here (as `maps` lists them): the built-in ones and
        // each file in maps/.
        let current = self.session.scenario().map.name.clone();
        let names: Vec<String> = dipsandbox_core::model::map::available()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        for name in names.into_iter().filter(|n| *n != current) {
            items.push(MenuItem {
                label: format!("the opening position on the map {name}"),
                choice: Choice::NewOn {
                    map: name.clone(),
                    empty: false,
                },
            });
            items.push(MenuItem {
                label: format!("an empty board on the map {name}"),
                choice: Choice::NewOn {
                    map: name,
                    empty: true,
                },
            });
        }
        self.popup = Some(Popup::Menu(Menu::new("New scenario", items)));
    }
}
