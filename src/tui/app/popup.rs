//! The popups, prompts and questions: what an action or a typed character does while one is
//! open.

use super::App;
use crate::tui::action::Action;
use crate::tui::effect::Effect;
use crate::tui::state::{Pending, Popup};

impl App {
    /// A character typed into the open prompt, filter or order.
    pub(super) fn type_char(&mut self, c: char) {
        let map = self.session.scenario().map.clone();
        match &mut self.popup {
            Some(Popup::Goto(t) | Popup::SaveAs(t) | Popup::Field(_, t)) => t.push(c),
            Some(Popup::Menu(m)) => m.type_char(c),
            Some(Popup::Order(e)) => e.type_char(&map, c),
            Some(Popup::Browser(b)) => b.type_char(c),
            Some(Popup::Help(_) | Popup::Confirm(..)) | None => {}
        }
    }

    /// An action while a popup is open: it goes to the popup.
    pub(super) fn popup_action(&mut self, action: Action, fx: &mut Vec<Effect>) {
        let help_max = match self.popup {
            Some(Popup::Help(_)) => {
                let screen = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
                crate::tui::view::help::max_scroll(&self.view_model(screen), screen)
            }
            _ => 0,
        };
        let Some(popup) = &mut self.popup else {
            return;
        };
        match popup {
            Popup::Help(scroll) => match action {
                // Scrolling stops at the last line (a resize since may have left it further).
                Action::Up => *scroll = (*scroll).min(help_max).saturating_sub(1),
                Action::Down => *scroll = scroll.saturating_add(1).min(help_max),
                Action::PageUp => *scroll = (*scroll).min(help_max).saturating_sub(10),
                Action::PageDown => *scroll = scroll.saturating_add(10).min(help_max),
                Action::ToStart => *scroll = 0,
                Action::ToEnd => *scroll = help_max,
                Action::Back | Action::Help => self.popup = None,
                Action::Quit => {
                    self.popup = None;
                    self.ask_quit(fx);
                }
                _ => {}
            },
            Popup::Browser(b) => match action {
                Action::Up => b.move_by(-1),
                Action::Down => b.move_by(1),
                Action::PageUp => b.move_by(-10),
                Action::PageDown => b.move_by(10),
                Action::DeleteChar => b.backspace(),
                Action::ClearLine => b.clear_filter(),
                Action::PanDown | Action::PanUp => {
                    let screen = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
                    let most =
                        crate::tui::view::browser::preview_max_scroll(screen, &self.theme, b);
                    b.scroll_preview(if action == Action::PanDown { 3 } else { -3 });
                    b.preview_scroll = b.preview_scroll.min(most);
                }
                Action::Select => {
                    if let Some(e) = b.current() {
                        let path = e.path.clone();
                        self.open_file(path, fx);
                    }
                }
                Action::Back => self.popup = None,
                _ => {}
            },
            Popup::Menu(m) => match action {
                Action::Up => m.move_by(-1),
                Action::Down => m.move_by(1),
                Action::PageUp => m.move_by(-10),
                Action::PageDown => m.move_by(10),
                Action::DeleteChar => m.backspace(),
                Action::ClearLine => m.clear_filter(),
                Action::Select => match m.current().cloned() {
                    Some(item) => {
                        self.popup = None;
                        self.choose(item);
                    }
                    None => self.info("nothing matches the filter (backspace clears it)"),
                },
                Action::Back => self.popup = None,
                _ => {}
            },
            Popup::Order(e) => {
                let map = self.session.scenario().map.clone();
                match action {
                    Action::Up => e.move_by(-1),
                    Action::Down => e.move_by(1),
                    Action::PageUp => e.move_by(-10),
                    Action::PageDown => e.move_by(10),
                    Action::DeleteChar => e.backspace(&map),
                    Action::ClearLine => e.clear(&map),
                    Action::Complete if !e.complete(self.session.scenario()) => {
                        self.info("no province, unit or power name starts like that");
                    }
                    Action::Select => {
                        let (chosen, replace) = (e.chosen(), e.replace);
                        self.commit_order(chosen, replace);
                    }
                    Action::Back => self.popup = None,
                    _ => {}
                }
            }
            Popup::Goto(t) | Popup::SaveAs(t) | Popup::Field(_, t) => match action {
                Action::DeleteChar => {
                    t.pop();
                }
                Action::ClearLine => t.clear(),
                Action::Back => self.popup = None,
                Action::Select => self.take_prompt(fx),
                _ => {}
            },
            Popup::Confirm(_, pending) => {
                let pending = pending.clone();
                self.answer(action, pending, fx);
            }
        }
    }

    /// Enter in a text prompt: take its text.
    fn take_prompt(&mut self, fx: &mut Vec<Effect>) {
        match self.popup.take() {
            Some(Popup::Goto(t)) => self.goto(&t),
            Some(Popup::SaveAs(t)) => {
                let path = self.save_as_path(&t);
                fx.push(Effect::Save {
                    path,
                    force: false,
                    or_save_as: false,
                });
            }
            Some(Popup::Field(f, t)) => {
                // The prompt stays open when the text is refused (a phase that does not parse).
                self.popup = Some(Popup::Field(f, t.clone()));
                self.commit_field(f, t);
            }
            other => self.popup = other,
        }
    }

    /// The answer to a question.
    fn answer(&mut self, action: Action, pending: Pending, fx: &mut Vec<Effect>) {
        match (action, pending) {
            (Action::Yes, pending) => {
                self.popup = None;
                match pending {
                    Pending::Quit => {
                        // The user chose to drop the edits: no recovery file either.
                        fx.push(Effect::ClearRecovery);
                        fx.push(Effect::Quit);
                    }
                    Pending::Open(p) => fx.push(Effect::Open(p)),
                    Pending::Overwrite(p) => fx.push(Effect::Save {
                        path: p,
                        force: true,
                        or_save_as: false,
                    }),
                    Pending::Restore(r) => fx.push(Effect::Restore {
                        file: r.file,
                        target: r.target,
                        stamp: r.stamp,
                    }),
                }
            }
            (Action::AsNew, Pending::Restore(r)) if r.target.is_some() => {
                self.popup = None;
                fx.push(Effect::Restore {
                    file: r.file,
                    target: None,
                    stamp: None,
                });
            }
            (Action::No, pending) => {
                self.popup = None;
                if let Pending::Restore(r) = pending {
                    fx.push(Effect::DiscardRecovery(r.file));
                }
            }
            // Save, from the questions that name it (quitting or opening with unsaved
            // changes): the question closes and the scenario is saved as ctrl-s saves it
            // anywhere; then quitting or opening asks nothing.
            (Action::Save, Pending::Quit | Pending::Open(_)) => {
                self.popup = None;
                self.save(fx);
            }
            (Action::Back, pending) if !matches!(pending, Pending::Restore(_)) => {
                self.popup = None;
            }
            _ => {}
        }
    }
}
