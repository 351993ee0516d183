//! The app state and its one `update`: every change of state goes through [`App::update`] (or
//! [`App::handle`], which turns input into actions through the keymap).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::action::Action;
use super::browser::{Browser, Folders};
use super::editor::{Choice, Field, Menu, MenuItem, NewKind, OrderEditor};
use super::event::Input;
use super::keymap::{Context, Keymap};
use super::recovery::Recovery;
use super::session::{DiskStamp, Session, next_preset};
use super::theme::Theme;
use super::view::{self, Panes};
use crate::adjudicator::Engine;
use crate::board::PhaseKind;
use crate::edit::Edit;
use crate::map::{ProvinceId, UnitKind};
use crate::rules::Rules;
use crate::scenario::Scenario;

/// What a key did to a one-line prompt.
enum LineKey {
    /// It changed the text (a character, backspace, ctrl-u).
    Edited,
    /// Enter: take the text.
    Enter,
    /// Esc: drop the prompt.
    Esc,
    /// Nothing.
    Other,
}

/// Applies a key to a one-line prompt's text: characters type, backspace deletes, ctrl-u clears.
fn edit_line(text: &mut String, k: &KeyEvent) -> LineKey {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match k.code {
        KeyCode::Char('u') if ctrl => text.clear(),
        KeyCode::Char(c) if !ctrl && !k.modifiers.contains(KeyModifiers::ALT) => text.push(c),
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Enter => return LineKey::Enter,
        KeyCode::Esc => return LineKey::Esc,
        _ => return LineKey::Other,
    }
    LineKey::Edited
}

/// Why a file could not be read, in a few words (the question names the file already).
fn short_read_error(e: &crate::source::ReadError) -> String {
    use crate::source::ReadError;
    match e {
        ReadError::Io { message, .. } => message.clone(),
        ReadError::NotAFile { what, .. } => format!("it is {what}"),
        ReadError::TooLarge { size, limit, .. } => {
            format!("{size} bytes, more than the {limit} a file may have")
        }
        ReadError::NotUtf8 { .. } => "it is not UTF-8 text".into(),
    }
}

/// The views, one per tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Board and orders.
    Board,
    /// Decisions, dependency tree, trace.
    Stepper,
    /// Rules and compare.
    Rules,
}

/// A popup or prompt over the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// The keys of the current view; the scroll offset.
    Help(u16),
    /// The scenario browser.
    Browser(Browser),
    /// Typing a province name; the text so far.
    Goto(String),
    /// Typing the file to save to; the text so far.
    SaveAs(String),
    /// A yes / no question before something that loses or overwrites work.
    Confirm(String, Pending),
    /// A menu of choices (units to place, owners, attackers, new scenarios, details).
    Menu(Menu),
    /// The order editor.
    Order(OrderEditor),
    /// Typing a field of the scenario (title, description, source, phase); the text so far.
    Field(Field, String),
}

/// What a confirmation does on yes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Quit without saving.
    Quit,
    /// Open another file without saving.
    Open(PathBuf),
    /// Save over a file.
    Overwrite(PathBuf),
    /// Restore the edits found in a recovery file (no: discard it).
    Restore(Restoring),
}

/// A recovery file offered back at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restoring {
    /// The recovery file.
    pub file: PathBuf,
    /// The scenario file the edits go back to on yes: the one the recovery file names, when it
    /// is a scenario file (None: they come back as a new, unsaved scenario).
    pub target: Option<PathBuf>,
    /// That file as the edits knew it, as the recovery file says.
    pub stamp: Option<DiskStamp>,
}

/// The dependency tree of one decision: which rows are unfolded (as paths of decision ids
/// from the root) and the highlighted row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// The decision at the root.
    pub root: u32,
    /// Unfolded rows, each as its path from the root (the root's path is `[root]`).
    pub open: Vec<Vec<u32>>,
    /// The highlighted row.
    pub row: usize,
}

/// A message in the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Whether it reports a problem.
    pub error: bool,
}

/// Everything the TUI shows.
#[derive(Debug)]
pub struct App {
    /// The scenario and its adjudication.
    pub session: Session,
    /// Key bindings.
    pub keymap: Keymap,
    /// Colours.
    pub theme: Theme,
    /// Where scenarios and the keymap file are.
    pub folders: Folders,
    /// The tab shown.
    pub view: View,
    /// The panel with the focus (one of the view's panel contexts).
    pub focus: Context,
    /// The selected province.
    pub province: Option<ProvinceId>,
    /// The selected order (index into the scenario's orders).
    pub order: usize,
    /// Show the position after the phase instead of before.
    pub after: bool,
    /// The selected decision (node id).
    pub decision: usize,
    /// The dependency tree.
    pub tree: Tree,
    /// The selected rule option (row).
    pub rule_row: usize,
    /// A popup, if one is open.
    pub popup: Option<Popup>,
    /// The status-bar message.
    pub message: Option<Message>,
    /// Autoplay on.
    pub playing: bool,
    /// Time between autoplay steps.
    pub speed: Duration,
    /// The user asked to quit.
    pub quit: bool,
    /// The terminal's size (for mouse hits; the draw functions get the frame's own).
    pub size: (u16, u16),
    /// A unit picked up to be moved: the province it stands in.
    pub carry: Option<ProvinceId>,
    /// The recovery file of unsaved edits.
    pub recovery: Recovery,
    /// Set (by a signal handler) when the process is asked to stop: the main loop writes the
    /// recovery file and ends.
    pub stop: Arc<AtomicBool>,
    /// Why `keys.ron` was not used, kept to be shown once the restore question is answered.
    pub keymap_problem: Option<String>,
}

const SPEEDS: [u64; 7] = [50, 100, 200, 350, 500, 800, 1200];

/// The longest status-bar message kept.
pub const MAX_MESSAGE_CHARS: usize = 2_000;

impl App {
    /// An app on a session.
    pub fn new(session: Session, keymap: Keymap, theme: Theme, folders: Folders) -> App {
        let recovery = Recovery::new(folders.recovery.clone());
        let mut app = App {
            session,
            keymap,
            theme,
            folders,
            view: View::Board,
            focus: Context::Board,
            province: None,
            order: 0,
            after: false,
            decision: 0,
            tree: Tree::default(),
            rule_row: 0,
            popup: None,
            message: None,
            playing: false,
            speed: Duration::from_millis(SPEEDS[3]),
            quit: false,
            size: (120, 40),
            carry: None,
            recovery,
            stop: Arc::new(AtomicBool::new(false)),
            keymap_problem: None,
        };
        app.select_order(0);
        app.set_tree_root(0);
        app
    }

    /// An app on a scenario file (or the built-in scenario), with the keymap patched from the
    /// config folder. A file that does not load is an error.
    pub fn open(
        path: Option<&Path>,
        rules: Option<Rules>,
        folders: Folders,
    ) -> Result<App, String> {
        // The file as it is before it is read: a change made while it is read counts as a
        // change on disk.
        let stamp = path.and_then(DiskStamp::of);
        let scenario = match path {
            Some(p) => Scenario::load(p).map_err(|e| e.to_string())?,
            None => Scenario::builtin().map_err(|e| e.to_string())?,
        };
        let mut session = Session::new(scenario, path.map(Path::to_path_buf), rules)?;
        session.assume_disk_stamp(stamp);
        let (keymap, problem) = Keymap::load(folders.config.as_deref());
        let mut app = App::new(session, keymap, Theme::default(), folders);
        let found = app
            .folders
            .recovery
            .as_deref()
            .and_then(super::recovery::find);
        if let Some(f) = found {
            app.keymap_problem = problem;
            app.offer_recovery(f);
        } else if let Some(p) = problem {
            app.error(p);
        } else {
            app.info(format!(
                "{} — press ? for the keys",
                app.session.scenario().title
            ));
        }
        Ok(app)
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: super::browser::cut(&text.into(), MAX_MESSAGE_CHARS),
            error: false,
        });
    }

    /// Shows an error in the status bar (cut to [`MAX_MESSAGE_CHARS`]: it is drawn on every
    /// frame, and an error may quote much of a file).
    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: super::browser::cut(&text.into(), MAX_MESSAGE_CHARS),
            error: true,
        });
    }

    /// The keymap contexts that apply now, most specific first.
    pub fn contexts(&self) -> Vec<Context> {
        match &self.popup {
            Some(Popup::Help(_)) => vec![Context::Help],
            Some(Popup::Browser(_)) => vec![Context::Browser],
            Some(Popup::Menu(_)) => vec![Context::Menu],
            Some(Popup::Order(_)) => vec![Context::OrderEditor],
            Some(Popup::Goto(_) | Popup::SaveAs(_) | Popup::Confirm(..) | Popup::Field(..)) => {
                Vec::new()
            }
            None => vec![self.focus, Context::Global],
        }
    }

    /// The contexts of the current view without any popup: the focused panel, the view's other
    /// panels, then everywhere (what the help popup lists).
    pub fn contexts_without_popup(&self) -> Vec<Context> {
        let mut v = vec![self.focus];
        for f in self.panels() {
            if !v.contains(f) {
                v.push(*f);
            }
        }
        v.push(Context::Global);
        v
    }

    /// The panels of the current view, in focus order.
    pub fn panels(&self) -> &'static [Context] {
        match self.view {
            View::Board => &[Context::Board, Context::Orders],
            View::Stepper => &[Context::Decisions, Context::Tree, Context::Trace],
            View::Rules => &[Context::Rules],
        }
    }

    /// The panes of the current terminal size (as the views lay them out).
    pub fn panes(&self) -> Panes {
        view::layout(Rect::new(0, 0, self.size.0, self.size.1), self)
    }

    /// Reacts to one input.
    pub fn handle(&mut self, input: Input) {
        match input {
            Input::Tick => {
                if self.playing && !self.step(1) {
                    self.playing = false;
                }
            }
            Input::Resize(w, h) => self.size = (w, h),
            Input::Click(x, y) => self.click(x, y),
            Input::Scroll(d, x, y) => {
                self.click_focus(x, y);
                self.update(if d < 0 { Action::Up } else { Action::Down });
            }
            Input::Key(k) => self.key(k),
        }
    }

    fn key(&mut self, k: KeyEvent) {
        let text_char = match k.code {
            KeyCode::Char(c)
                if !k
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                Some(c)
            }
            _ => None,
        };
        let map = self.session.scenario().map.clone();
        match &mut self.popup {
            Some(Popup::Field(field, text)) => {
                match edit_line(text, &k) {
                    LineKey::Enter => {
                        let (f, t) = (*field, text.clone());
                        self.commit_field(f, t);
                    }
                    LineKey::Esc => self.popup = None,
                    LineKey::Edited | LineKey::Other => {}
                }
                return;
            }
            Some(Popup::Menu(m)) => {
                if let Some(c) = text_char {
                    m.type_char(c);
                    return;
                }
                if k.code == KeyCode::Backspace {
                    m.backspace();
                    return;
                }
            }
            Some(Popup::Order(e)) => {
                if k.code == KeyCode::Char('u') && k.modifiers.contains(KeyModifiers::CONTROL) {
                    e.clear(&map);
                    return;
                }
                if let Some(c) = text_char {
                    e.type_char(&map, c);
                    return;
                }
                if k.code == KeyCode::Backspace {
                    e.backspace(&map);
                    return;
                }
            }
            Some(Popup::Goto(text)) => {
                match edit_line(text, &k) {
                    LineKey::Enter => {
                        let t = text.clone();
                        self.popup = None;
                        self.goto(&t);
                    }
                    LineKey::Esc => self.popup = None,
                    LineKey::Edited | LineKey::Other => {}
                }
                return;
            }
            Some(Popup::SaveAs(text)) => {
                match edit_line(text, &k) {
                    LineKey::Enter => {
                        let t = text.clone();
                        self.popup = None;
                        let path = self.save_as_path(&t);
                        self.save_to(path, false);
                    }
                    LineKey::Esc => self.popup = None,
                    LineKey::Edited | LineKey::Other => {}
                }
                return;
            }
            Some(Popup::Confirm(_, pending)) => {
                let pending = pending.clone();
                match text_char {
                    Some('y' | 'Y') => {
                        self.popup = None;
                        match pending {
                            Pending::Quit => {
                                // The user chose to drop the edits: no recovery file either.
                                self.recovery.clear();
                                self.quit = true;
                            }
                            Pending::Open(p) => self.open_file_now(&p),
                            Pending::Overwrite(p) => self.save_to(p, true),
                            Pending::Restore(r) => self.restore(&r.file, r.target, r.stamp),
                        }
                    }
                    Some('a' | 'A') => {
                        if let Pending::Restore(r) = pending
                            && r.target.is_some()
                        {
                            self.popup = None;
                            self.restore(&r.file, None, None);
                        }
                    }
                    Some('n' | 'N') => {
                        self.popup = None;
                        if let Pending::Restore(r) = pending {
                            self.discard_recovery(&r.file);
                        }
                    }
                    _ if k.code == KeyCode::Esc && !matches!(pending, Pending::Restore(_)) => {
                        self.popup = None
                    }
                    _ => {}
                }
                return;
            }
            Some(Popup::Browser(b)) => {
                if let Some(c) = text_char {
                    b.type_char(c);
                    return;
                }
                if k.code == KeyCode::Backspace {
                    b.backspace();
                    return;
                }
            }
            _ => {}
        }
        if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
            self.update(Action::Quit);
            return;
        }
        match self.keymap.action(&self.contexts(), &k) {
            Some(a) => self.update(a),
            // A quick esc then a key arrives from many terminals as alt+key: take it as both.
            None if k.modifiers.contains(KeyModifiers::ALT) => {
                let plain = KeyEvent::new(k.code, k.modifiers - KeyModifiers::ALT);
                if self.keymap.action(&self.contexts(), &plain).is_some() {
                    self.update(Action::Back);
                    self.key(plain);
                }
            }
            None => {
                if self.popup.is_none() {
                    let help = self
                        .keymap
                        .key_for(Action::Help)
                        .map(|k| k.to_string())
                        .unwrap_or_else(|| "?".into());
                    self.info(format!(
                        "{} does nothing here — press {help} for the keys",
                        super::keymap::Key::of(&k)
                    ));
                }
            }
        }
    }

    /// Applies one action. The only place state changes.
    pub fn update(&mut self, action: Action) {
        if let Some(popup) = &mut self.popup {
            match popup {
                Popup::Help(scroll) => match action {
                    Action::Up => *scroll = scroll.saturating_sub(1),
                    Action::Down => *scroll = scroll.saturating_add(1),
                    Action::Back | Action::Help => self.popup = None,
                    Action::Quit => {
                        self.popup = None;
                        self.update(Action::Quit);
                    }
                    _ => {}
                },
                Popup::Browser(b) => match action {
                    Action::Up => b.move_by(-1),
                    Action::Down => b.move_by(1),
                    Action::PageUp => b.move_by(-10),
                    Action::PageDown => b.move_by(10),
                    Action::Select => {
                        if let Some(e) = b.current() {
                            let path = e.path.clone();
                            self.open_file(&path);
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
                Popup::Order(e) => match action {
                    Action::Up => e.move_by(-1),
                    Action::Down => e.move_by(1),
                    Action::PageUp => e.move_by(-10),
                    Action::PageDown => e.move_by(10),
                    Action::Complete if !e.complete(self.session.scenario()) => {
                        self.info("no province, unit or power name starts like that");
                    }
                    Action::Select => {
                        let (chosen, replace) = (e.chosen(), e.replace);
                        self.commit_order(chosen, replace);
                    }
                    Action::Back => self.popup = None,
                    _ => {}
                },
                Popup::Goto(_) | Popup::SaveAs(_) | Popup::Confirm(..) | Popup::Field(..) => {}
            }
            return;
        }
        if self.carry.is_some() && matches!(action, Action::Select | Action::Decisions) {
            self.update(Action::MoveUnit);
            return;
        }
        match action {
            Action::Quit => {
                if self.session.is_dirty() {
                    self.popup = Some(Popup::Confirm(
                        "The scenario has unsaved changes. Quit anyway? y / n (ctrl-s saves)"
                            .into(),
                        Pending::Quit,
                    ));
                } else {
                    self.quit = true;
                }
            }
            Action::Help => self.popup = Some(Popup::Help(0)),
            Action::Open => {
                let b = Browser::open(&self.folders);
                if b.entries.is_empty() {
                    self.error(
                        "no scenario files found (looked in ./scenarios and your scenario folder)",
                    );
                }
                self.popup = Some(Popup::Browser(b));
            }
            Action::ViewBoard => self.set_view(View::Board),
            Action::ViewStepper => self.set_view(View::Stepper),
            Action::ViewRules => self.set_view(View::Rules),
            Action::FocusNext | Action::FocusPrev => {
                let panels = self.panels();
                let i = panels.iter().position(|f| *f == self.focus).unwrap_or(0);
                let n = panels.len();
                let j = if action == Action::FocusNext {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                };
                if let Some(&p) = panels.get(j) {
                    self.focus = p;
                }
            }
            Action::Up | Action::Down | Action::Left | Action::Right => self.arrow(action),
            Action::PageUp | Action::PageDown => {
                let d = if action == Action::PageUp { -10 } else { 10 };
                match self.focus {
                    Context::Orders => self.select_order_by(d),
                    Context::Decisions => self.select_decision_by(d),
                    Context::Trace => {
                        self.step(d);
                    }
                    _ => {}
                }
            }
            Action::Select => match self.focus {
                Context::Decisions => {
                    self.set_tree_root(self.decision as u32);
                    self.focus = Context::Tree;
                }
                Context::Tree => self.toggle_tree_row(None),
                Context::Board | Context::Orders => self.update(Action::Decisions),
                _ => {}
            },
            Action::Back => {
                if self.carry.take().is_some() {
                    self.info("move cancelled");
                    return;
                }
                self.province = None;
                self.message = None;
                self.playing = false;
            }
            Action::StepForward => {
                self.step(1);
            }
            Action::StepBack => {
                self.step(-1);
            }
            Action::NextBackup => self.jump_backup(true),
            Action::PrevBackup => self.jump_backup(false),
            Action::ToStart => self.seek(0),
            Action::ToEnd => self.seek(usize::MAX),
            Action::ToSettled => self.seek_settled(),
            Action::Play => {
                if self.session.stepper().is_none() && self.session.dp().is_none() {
                    self.info("this phase has no decision graph to play");
                    return;
                }
                self.playing = !self.playing;
                if self.playing
                    && self
                        .session
                        .stepper()
                        .is_some_and(|s| s.cursor() == s.len())
                {
                    self.seek(0);
                }
            }
            Action::Faster | Action::Slower => {
                let ms = self.speed.as_millis() as u64;
                let i = SPEEDS.iter().position(|s| *s >= ms).unwrap_or(3);
                let j = if action == Action::Faster {
                    i.saturating_sub(1)
                } else {
                    (i + 1).min(SPEEDS.len() - 1)
                };
                let ms = SPEEDS.get(j).copied().unwrap_or(ms);
                self.speed = Duration::from_millis(ms);
                self.info(format!("autoplay: one step every {ms} ms"));
            }
            Action::ToggleAfter => {
                self.after = !self.after;
                self.info(if self.after {
                    "showing the position after the phase"
                } else {
                    "showing the position before the phase"
                });
            }
            Action::Decisions => self.jump_to_decisions(),
            Action::Goto => self.popup = Some(Popup::Goto(String::new())),
            Action::NextPreset | Action::PrevPreset => {
                let step = if action == Action::NextPreset { 1 } else { -1 };
                let r = next_preset(&self.session.rules, step);
                self.set_rules(r);
            }
            Action::NextCompare => {
                let mut r = next_preset(&self.session.compare_rules, 1);
                if r == self.session.rules {
                    r = next_preset(&r, 1);
                }
                self.session.set_compare(r);
                self.info(format!(
                    "comparing with the {} rules",
                    super::session::Session::rules_name(&r)
                ));
            }
            Action::SwitchEngine => {
                let e = self.session.next_engine();
                self.set_engine(e);
            }
            Action::CompareEngines => {
                self.session.toggle_compare_engines();
                if self.session.comparing_engines() {
                    self.info(format!(
                        "comparing {} with {} under the same rules",
                        self.session.engine.name(),
                        self.session.compare_engine.name()
                    ));
                } else {
                    self.info(format!(
                        "comparing with the {} rules",
                        super::session::Session::rules_name(&self.session.compare_rules)
                    ));
                }
            }
            Action::ResetRules => {
                let r = self.session.scenario().rules;
                self.set_rules(r);
            }
            Action::AdoptRules => match self.session.adopt_rules() {
                Ok(()) => self.info("these rules are now the scenario's own (ctrl-s saves)"),
                Err(e) => self.error(e.0),
            },
            Action::Freeze => match self.session.freeze() {
                Ok(()) => {
                    let n = self.session.expectations.as_ref().map_or(0, |(_, n)| *n);
                    self.info(format!(
                        "the current result is now the expectations ({n} checks; ctrl-s saves)"
                    ));
                }
                Err(e) => self.error(e.0),
            },
            Action::Undo => {
                if self.session.undo() {
                    self.after_edit();
                    self.info("undone");
                } else {
                    self.info("nothing to undo");
                }
            }
            Action::Redo => {
                if self.session.redo() {
                    self.after_edit();
                    self.info("redone");
                } else {
                    self.info("nothing to redo");
                }
            }
            Action::Save => match self.save_target() {
                Some(p) => self.save_to(p, false),
                None => self.start_save_as(),
            },
            Action::SaveAs => self.start_save_as(),
            Action::EditOrder => self.start_order(),
            Action::DeleteOrder => {
                if self.session.scenario().orders.is_empty() {
                    self.info("there are no orders to delete");
                } else {
                    let text = self.session.order_short(self.order);
                    if self.apply(Edit::RemoveOrder(self.order)) {
                        self.info(format!("deleted {text} (u undoes)"));
                    }
                }
            }
            Action::PlaceArmy | Action::PlaceFleet => {
                let Some(p) = self.need_province() else {
                    return;
                };
                let kind = if action == Action::PlaceArmy {
                    UnitKind::Army
                } else {
                    UnitKind::Fleet
                };
                let menu = super::editor::place_menu(self.session.scenario(), p, kind);
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
            Action::RemoveUnit => {
                let Some(p) = self.need_province() else {
                    return;
                };
                let s = self.session.scenario();
                let name = super::editor::unit_at(s, p)
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
            Action::MoveUnit => self.move_unit(),
            Action::SetOwner => {
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
            Action::Dislodge => self.start_dislodge(),
            Action::Contested => {
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
            Action::Details => {
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
            Action::NewScenario => {
                let items = vec![
                    MenuItem {
                        label: "the opening position (Spring 1901)".into(),
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
                self.popup = Some(Popup::Menu(Menu::new("New scenario", items)));
            }
            Action::Advance => self.advance(),
            Action::Complete => {}
        }
    }

    /// Brings the recovery file up to date: written while there are unsaved edits, removed
    /// when there are none. The main loop calls it after each input.
    pub fn autosave(&mut self) {
        let s = &self.session;
        let source = s.path.as_deref().map(|p| (p, s.disk_stamp()));
        if let Err(e) = self
            .recovery
            .sync(s.generation, s.is_dirty(), s.scenario(), source)
        {
            self.error(format!("the recovery file could not be written: {e}"));
        }
    }

    /// Whether a stop was asked for (SIGTERM, SIGHUP).
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Writes the recovery file whatever was written before (on a signal or a panic), and
    /// returns where it is when there are unsaved edits.
    pub fn save_recovery_now(&mut self) -> Option<PathBuf> {
        self.recovery.written = None;
        self.autosave();
        if self.session.is_dirty() {
            self.recovery.file()
        } else {
            None
        }
    }

    /// Asks whether to restore the edits of a recovery file. The file it names is shown; the
    /// edits can go back to it only when it is a scenario file (else they come back as a new
    /// scenario, and the question says why).
    fn offer_recovery(&mut self, f: super::recovery::Found) {
        let age = super::recovery::age(f.modified);
        let named = f.header.source.clone();
        let target = named.as_deref().map(|p| (p, self.restore_target(p)));
        let question = match &target {
            None => format!(
                "Unsaved edits to a new scenario were kept when dipsandbox last stopped ({age}). Restore them? y restores · n discards"
            ),
            Some((p, Ok(()))) => format!(
                "Unsaved edits to the scenario file {} were kept when dipsandbox last stopped ({age}). Restore them? y restores them as edits to that file (saving asks first if it changed since) · a restores them as a new scenario · n discards",
                p.display()
            ),
            Some((p, Err(why))) => format!(
                "Unsaved edits were kept when dipsandbox last stopped ({age}). The recovery file names {}, which is not a scenario file to save them to ({why}): they come back as a new, unsaved scenario. Restore them? y restores · n discards",
                p.display()
            ),
        };
        let target = match target {
            Some((p, Ok(()))) => Some(p.to_path_buf()),
            _ => None,
        };
        self.popup = Some(Popup::Confirm(
            question,
            Pending::Restore(Restoring {
                file: f.path,
                target,
                stamp: f.header.stamp,
            }),
        ));
    }

    /// Whether restored edits may go back to the file a recovery file names: an absolute path,
    /// outside the recovery folder, to a regular file that loads as a scenario. Else why not.
    fn restore_target(&self, p: &Path) -> Result<(), String> {
        if !p.is_absolute() {
            return Err("not an absolute path".into());
        }
        if let Some(dir) = &self.folders.recovery
            && let (Ok(d), Ok(f)) = (dir.canonicalize(), p.canonicalize())
            && f.starts_with(d)
        {
            return Err("it is in the recovery folder".into());
        }
        match Scenario::load(p) {
            Ok(_) => Ok(()),
            Err(e) => Err(match e {
                crate::error::ScenarioError::Read(r) => short_read_error(&r),
                _ => "it does not load as a scenario".into(),
            }),
        }
    }

    /// Restores the edits of a recovery file: as edits to `target` (which was on disk as
    /// `stamp` when they began), or as a new scenario.
    fn restore(&mut self, file: &Path, target: Option<PathBuf>, stamp: Option<DiskStamp>) {
        let loaded = Scenario::load(file)
            .map_err(|e| e.to_string())
            .and_then(|s| {
                Session::with_registry(s, target.clone(), None, self.session.registry().clone())
            });
        match loaded {
            Ok(mut s) => {
                s.mark_unsaved();
                if target.is_some() {
                    s.assume_disk_stamp(stamp);
                }
                self.session = s;
                self.reset_selection();
                self.save_recovery_now();
                let _ = std::fs::remove_file(file);
                match target {
                    Some(p) => self.info(format!(
                        "restored the unsaved edits to {} — ctrl-s saves, S saves as",
                        p.display()
                    )),
                    None => self.info(
                        "restored the unsaved edits as a new scenario — ctrl-s saves it as a new file",
                    ),
                }
            }
            Err(e) => self.error(format!(
                "the recovery file could not be restored ({e}); it is kept at {}",
                file.display()
            )),
        }
        self.show_keymap_problem();
    }

    fn discard_recovery(&mut self, file: &Path) {
        match std::fs::remove_file(file) {
            Ok(()) => self.info("discarded the kept edits"),
            Err(e) => self.error(format!("{}: {e}", file.display())),
        }
        self.show_keymap_problem();
    }

    /// Shows why `keys.ron` was not used, if that waited for the restore question.
    fn show_keymap_problem(&mut self) {
        if let Some(p) = self.keymap_problem.take() {
            let text = match &self.message {
                Some(m) => format!("{} · {p}", m.text),
                None => p,
            };
            self.error(text);
        }
    }

    fn reset_selection(&mut self) {
        self.popup = None;
        self.decision = 0;
        self.tree = Tree::default();
        self.set_tree_root(0);
        self.province = None;
        self.after = false;
        self.playing = false;
        self.carry = None;
        self.order = 0;
        self.select_order(0);
    }

    /// Applies an edit; a refusal becomes the status message. True when it was applied.
    fn apply(&mut self, e: Edit) -> bool {
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
    fn after_edit(&mut self) {
        let n = self.session.scenario().orders.len();
        self.order = self.order.min(n.saturating_sub(1));
        let d = self.decision_count();
        if self.decision >= d {
            self.decision = 0;
        }
        if self.tree.root as usize >= d.max(1) || d == 0 {
            self.tree = Tree::default();
        }
        self.set_tree_root(self.decision as u32);
    }

    /// The selected province, or a message asking for one.
    fn need_province(&mut self) -> Option<ProvinceId> {
        if self.province.is_none() {
            self.info("select a province first (arrows, / and its name, or a click)");
        }
        self.province
    }

    fn choose(&mut self, item: MenuItem) {
        let s = self.session.scenario();
        let map = s.map.clone();
        match item.choice {
            Choice::Place(u) => {
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
                self.carry = None;
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
                    NewKind::Opening => crate::scenario::Scenario::opening(map, &s.map_ref),
                    NewKind::Empty => crate::scenario::Scenario::empty(map, &s.map_ref),
                    NewKind::Copy => {
                        let mut c = s.clone();
                        c.title = format!("Copy of {}", c.title);
                        c
                    }
                };
                if self.apply(Edit::Replace(Box::new(next))) {
                    self.session.path = None;
                    self.province = None;
                    self.info(
                        "a new scenario: A / F place units, i orders, t sets the title and phase, S saves",
                    );
                }
            }
            Choice::Field(f) => {
                self.popup = Some(Popup::Field(f, f.value(s)));
            }
            Choice::Refused(m) => self.error(m),
        }
    }

    fn commit_field(&mut self, f: Field, text: String) {
        let edit = match f {
            Field::Title => Edit::Title(text.trim().to_string()),
            Field::Description => Edit::Description(text.trim().to_string()),
            Field::Source => Edit::Source(text.trim().to_string()),
            Field::Phase => match crate::board::Phase::parse(&text) {
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

    fn start_order(&mut self) {
        let s = self.session.scenario();
        let map = s.map.clone();
        let (replace, province) = if self.focus == Context::Orders {
            if s.orders.is_empty() {
                self.info("no orders yet: select a unit on the board and press i");
                return;
            }
            (Some(self.order), self.session.order_province(self.order))
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
        let unit = province.and_then(|p| super::editor::unit_at(s, p));
        let power = replace
            .and_then(|i| s.orders.get(i).map(|o| o.power))
            .or(unit.map(|u| u.power));
        let offers = super::editor::offers_at(s, province);
        let heading = match (s.phase.kind, unit) {
            (PhaseKind::Adjustment, _) => {
                // Builds (+) and removals (−) due, per power, short enough for 80 columns:
                // `builds due: Aus+2 Eng+1 Ita−1` (a minus: removals).
                let owners = s.owners_or_home();
                let due = crate::adjudicator::adjust::adjustments_due(&map, &s.units, &owners);
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

    fn commit_order(
        &mut self,
        chosen: Result<(crate::map::PowerId, String), String>,
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
        let added = matches!(edit, Edit::AddOrder(..));
        if self.apply(edit) {
            self.popup = None;
            let n = self.session.scenario().orders.len();
            if added {
                self.order = n.saturating_sub(1);
            }
            let verdict = self
                .session
                .run
                .phase()
                .outcomes
                .get(self.order)
                .map(|o| o.reason.clone())
                .unwrap_or_default();
            self.info(format!("{text}: {verdict}"));
        }
    }

    fn move_unit(&mut self) {
        let Some(p) = self.need_province() else {
            return;
        };
        let s = self.session.scenario();
        let map = s.map.clone();
        match self.carry {
            None => match s.units.iter().find(|u| map.province_of(u.loc) == p) {
                Some(u) => {
                    self.carry = Some(p);
                    self.info(format!(
                        "moving {}: select where it goes, then m or enter (esc cancels)",
                        u.describe_owned(&map)
                    ));
                }
                None => self.info(format!("no unit in {} to move", map.province(p).name)),
            },
            Some(from) if from == p => {
                self.carry = None;
                self.info("put back where it was");
            }
            Some(from) => {
                let Some(u) = s
                    .units
                    .iter()
                    .find(|u| map.province_of(u.loc) == from)
                    .copied()
                else {
                    self.carry = None;
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

    fn start_dislodge(&mut self) {
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
        if here.kind == crate::map::ProvinceKind::Coast {
            for q in map.province_ids().filter(|q| *q != p) {
                if map.province(q).kind == crate::map::ProvinceKind::Coast {
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

    fn advance(&mut self) {
        let s = self.session.scenario();
        let map = s.map.clone();
        let from = s.phase;
        let a = match crate::turn::advance(s, &self.session.rules) {
            Ok(a) => a,
            Err(e) => {
                self.error(e.to_string());
                return;
            }
        };
        let to = a.next.phase;
        let dislodged = a.next.dislodged.len();
        if self.apply(Edit::Replace(Box::new(a.next))) {
            self.session.path = None;
            self.after = false;
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

    fn set_view(&mut self, v: View) {
        self.view = v;
        if let Some(&p) = self.panels().first() {
            self.focus = p;
        }
    }

    /// Re-adjudicates under `r`, compared with the scenario's own rules (or, when `r` are the
    /// scenario's own, with the next preset) so that the compare view shows what the change
    /// decides.
    fn set_rules(&mut self, r: Rules) {
        self.session.set_rules(r);
        let own = self.session.scenario().rules;
        self.session
            .set_compare(if r == own { next_preset(&r, 1) } else { own });
        let changed = self.changed_outcomes();
        self.info(format!(
            "rules: {}; {}",
            super::session::Session::rules_name(&r),
            match changed {
                0 => format!(
                    "no outcome differs from {}",
                    super::session::Session::rules_name(&self.session.compare_rules)
                ),
                n => format!(
                    "{n} outcome(s) differ from {} (3: Rules view)",
                    super::session::Session::rules_name(&self.session.compare_rules)
                ),
            }
        ));
    }

    /// How many orders' verdicts differ between the rules and the compare rules.
    pub fn changed_outcomes(&self) -> usize {
        let a = &self.session.run.phase().outcomes;
        let b = &self.session.compare.phase().outcomes;
        a.iter()
            .zip(b)
            .filter(|(x, y)| x.verdict != y.verdict)
            .count()
    }

    fn arrow(&mut self, a: Action) {
        let (dx, dy): (i8, i8) = match a {
            Action::Up => (0, -1),
            Action::Down => (0, 1),
            Action::Left => (-1, 0),
            _ => (1, 0),
        };
        match self.focus {
            Context::Board => {
                let next = view::board::neighbour(self, dx, dy);
                if let Some(p) = next {
                    self.select_province(p);
                }
            }
            Context::Orders if dy != 0 => self.select_order_by(dy as isize),
            Context::Decisions if dy != 0 => self.select_decision_by(dy as isize),
            Context::Tree => match a {
                Action::Up => self.tree.row = self.tree.row.saturating_sub(1),
                Action::Down => {
                    let n = view::tree::rows(self).len();
                    self.tree.row = (self.tree.row + 1).min(n.saturating_sub(1));
                }
                Action::Right => self.toggle_tree_row(Some(true)),
                _ => self.toggle_tree_row(Some(false)),
            },
            Context::Trace if dy != 0 => {
                self.step(dy as isize);
            }
            Context::Rules => match a {
                Action::Up => self.rule_row = self.rule_row.saturating_sub(1),
                Action::Down => {
                    let n = self.session.rules.table().len();
                    self.rule_row = (self.rule_row + 1).min(n - 1);
                }
                _ => self.cycle_rule_value(dx as isize),
            },
            _ => {}
        }
    }

    fn cycle_rule_value(&mut self, step: isize) {
        let table = self.session.rules.table();
        let Some(row) = table.get(self.rule_row) else {
            return;
        };
        let n = row.values.len() as isize;
        let i = row.values.iter().position(|v| *v == row.value).unwrap_or(0) as isize;
        let Some(&v) = row.values.get((i + step).rem_euclid(n.max(1)) as usize) else {
            return;
        };
        let mut r = self.session.rules;
        if r.set(row.field, v).is_ok() {
            self.set_rules(r);
        }
    }

    /// Selects a province, and the order of its unit if it has one.
    pub fn select_province(&mut self, p: ProvinceId) {
        self.province = Some(p);
        if let Some(i) = self.session.order_at(p) {
            self.order = i;
        }
    }

    /// Selects an order, and its unit's province.
    pub fn select_order(&mut self, i: usize) {
        let n = self.session.scenario().orders.len();
        if n == 0 {
            return;
        }
        self.order = i.min(n - 1);
        if let Some(p) = self.session.order_province(self.order) {
            self.province = Some(p);
        }
    }

    fn select_order_by(&mut self, d: isize) {
        let n = self.session.scenario().orders.len() as isize;
        if n > 0 {
            self.select_order((self.order as isize + d).clamp(0, n - 1) as usize);
        }
    }

    /// Adjudicates with `engine` (the stepper shows its reasoning: the decision graph, or the
    /// DPjudge procedure's steps).
    pub fn set_engine(&mut self, engine: Arc<dyn Engine>) {
        if engine.name() == self.session.engine.name() {
            return;
        }
        self.session.set_engine(engine.clone());
        self.decision = 0;
        self.tree = Tree {
            root: 0,
            open: vec![vec![0]],
            row: 0,
        };
        self.info(format!("engine: {} — {}", engine.name(), engine.title()));
    }

    /// Rows of the stepper's first panel: decisions, or (DPjudge) units.
    fn decision_count(&self) -> usize {
        if self.session.dp().is_some() {
            return self.session.scenario().units.len();
        }
        self.session
            .run
            .result
            .decisions()
            .map_or(0, |m| m.graph.nodes.len())
    }

    fn select_decision_by(&mut self, d: isize) {
        let n = self.decision_count() as isize;
        if n > 0 {
            self.decision = (self.decision as isize + d).clamp(0, n - 1) as usize;
            self.set_tree_root(self.decision as u32);
        }
    }

    fn set_tree_root(&mut self, id: u32) {
        if self.tree.root != id || self.tree.open.is_empty() {
            self.tree = Tree {
                root: id,
                open: vec![vec![id]],
                row: 0,
            };
        }
    }

    fn toggle_tree_row(&mut self, want: Option<bool>) {
        let rows = view::tree::rows(self);
        let Some(row) = rows.get(self.tree.row) else {
            return;
        };
        if row.back_edge || !row.has_children {
            return;
        }
        let pos = self.tree.open.iter().position(|p| *p == row.path);
        match (pos, want) {
            (Some(i), None | Some(false)) => {
                // Fold this row and everything under it.
                let path = self.tree.open.remove(i);
                self.tree.open.retain(|p| !p.starts_with(&path));
            }
            (None, None | Some(true)) => self.tree.open.push(row.path.clone()),
            _ => {}
        }
    }

    /// Moves the stepper by `d` significant events; false when it could not move.
    pub fn step(&mut self, d: isize) -> bool {
        if let Some(dp) = self.session.dp() {
            // Every event of the procedure is a step.
            let cur = dp.cursor() as isize;
            let k = cur + d;
            if k < 0 || k as usize > dp.len() {
                return false;
            }
            self.seek(k as usize);
            return true;
        }
        let Some(st) = self.session.stepper() else {
            self.info("this phase has no decision graph: its outcomes are in the stepper view");
            return false;
        };
        let steps = &self.session.steps;
        let cur = st.cursor();
        // The position of the cursor among the significant events: how many are applied.
        let applied = steps.partition_point(|&i| i < cur);
        let target = applied as isize + d;
        if target < 0 || target as usize > steps.len() {
            return false;
        }
        let k = match (target as usize).checked_sub(1) {
            None => 0,
            Some(j) => match steps.get(j) {
                Some(s) => s + 1,
                None => return false,
            },
        };
        if k == cur {
            return false;
        }
        self.seek(k);
        true
    }

    fn seek(&mut self, k: usize) {
        if let Some(st) = self.session.stepper_mut() {
            st.seek(k.min(st.len()));
        }
        if let Some(dp) = self.session.dp_mut() {
            dp.seek(k.min(dp.len()));
        }
    }

    /// DPjudge: the next (previous) step of the procedure entered, as the cycle jumps of the
    /// decision stepper.
    fn jump_step(&mut self, forward: bool) {
        let Some(dp) = self.session.dp() else {
            return;
        };
        let cur = dp.cursor();
        let is_step = |i: &usize| {
            matches!(
                dp.events().get(*i),
                Some(crate::adjudicator::dpjudge::DpEvent::Step { .. })
            )
        };
        // Cursor k applies events 0..k: the step event i is "reached" at cursor i + 1.
        let target = if forward {
            (cur..dp.len()).find(is_step).map(|i| i + 1)
        } else {
            (0..cur.saturating_sub(1))
                .rev()
                .find(is_step)
                .map(|i| i + 1)
        };
        match target {
            Some(k) => self.seek(k),
            None => self.info(if forward {
                "no later step of the procedure"
            } else {
                "no earlier step of the procedure"
            }),
        }
    }

    fn jump_backup(&mut self, forward: bool) {
        if self.session.dp().is_some() {
            self.jump_step(forward);
            return;
        }
        let Some(st) = self.session.stepper() else {
            return;
        };
        let target = if forward {
            st.next_backup_event()
        } else {
            st.prev_backup_event()
        };
        match target {
            Some(i) => {
                self.seek(i + 1);
                if let Some(st) = self.session.stepper()
                    && let Some(first) = st.nodes_of(i).first()
                {
                    self.decision = *first as usize;
                    self.set_tree_root(*first);
                }
            }
            None => self.info(if forward {
                "no cycle or backup rule after this point"
            } else {
                "no cycle or backup rule before this point"
            }),
        }
    }

    fn seek_settled(&mut self) {
        let id = if self.focus == Context::Tree {
            view::tree::rows(self)
                .get(self.tree.row)
                .map(|r| r.id)
                .unwrap_or(self.decision as u32)
        } else {
            self.decision as u32
        };
        let Some(st) = self.session.stepper() else {
            return;
        };
        match st.settled_at(id) {
            Some(i) => self.seek(i + 1),
            None => self.info("this decision had its value from the start"),
        }
    }

    fn jump_to_decisions(&mut self) {
        let ds = self.session.order_decisions(self.order);
        match ds.first() {
            Some(&id) => {
                self.decision = id as usize;
                self.set_tree_root(id);
                self.view = View::Stepper;
                self.focus = Context::Decisions;
            }
            None => {
                let why = match self.session.run.result.decisions() {
                    None => "this phase has no decision graph",
                    Some(_) => "an illegal or void order has no decision",
                };
                self.info(why);
            }
        }
    }

    fn goto(&mut self, text: &str) {
        let map = &self.session.scenario().map;
        match map.find_province(text.trim()) {
            Some(p) => {
                self.select_province(p);
                self.view = View::Board;
                self.focus = Context::Board;
            }
            None => {
                let hint = crate::orders::suggest(map, text.trim())
                    .map(|s| format!("; did you mean {s}?"))
                    .unwrap_or_default();
                self.error(format!("no province {:?}{hint}", text.trim()));
            }
        }
    }

    /// Opens a scenario file, asking first when there are unsaved changes.
    pub fn open_file(&mut self, path: &Path) {
        if self.session.is_dirty() {
            self.popup = Some(Popup::Confirm(
                "The scenario has unsaved changes. Open another anyway? y / n".into(),
                Pending::Open(path.to_path_buf()),
            ));
            return;
        }
        self.open_file_now(path);
    }

    /// Whether a file is one of the bundled scenarios (never overwritten).
    fn is_bundled(&self, path: &Path) -> bool {
        let Some(b) = &self.folders.bundled else {
            return false;
        };
        match (b.canonicalize(), path.canonicalize()) {
            (Ok(b), Ok(p)) => p.starts_with(b),
            _ => path.starts_with(b),
        }
    }

    /// Where Save writes: the scenario's own file, unless it is built in or bundled.
    fn save_target(&self) -> Option<PathBuf> {
        self.session.path.clone().filter(|p| !self.is_bundled(p))
    }

    fn start_save_as(&mut self) {
        let title: String = self
            .session
            .scenario()
            .title
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let slug = title.trim_matches('-').to_string();
        let name = format!("{}.ron", if slug.is_empty() { "scenario" } else { &slug });
        let default = match &self.folders.user {
            Some(d) => d.join(name).display().to_string(),
            None => name,
        };
        self.popup = Some(Popup::SaveAs(default));
    }

    /// A typed save-as path: relative paths are in the user's scenario folder.
    fn save_as_path(&self, text: &str) -> PathBuf {
        let p = PathBuf::from(text.trim());
        match (&self.folders.user, p.is_absolute()) {
            (Some(d), false) if !text.trim().starts_with('.') => d.join(p),
            _ => p,
        }
    }

    /// Saves to `path`. Without `force`, a file that exists and is not the one opened, or that
    /// changed on disk since it was opened or saved, is only overwritten after a yes.
    fn save_to(&mut self, path: PathBuf, force: bool) {
        if self.is_bundled(&path) {
            self.error("bundled scenarios are not overwritten: save as a new file (S)");
            return;
        }
        if !force && path.exists() {
            let same = self.session.path.as_deref() == Some(path.as_path());
            if !same || self.session.changed_on_disk() {
                let why = if same {
                    "changed on disk since it was opened"
                } else {
                    "exists"
                };
                self.popup = Some(Popup::Confirm(
                    format!("{} {why}. Overwrite? y / n", path.display()),
                    Pending::Overwrite(path),
                ));
                return;
            }
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            self.error(format!("{}: cannot create the folder: {e}", dir.display()));
            return;
        }
        match self.session.scenario().save(&path) {
            Ok(()) => {
                self.info(format!("saved to {}", path.display()));
                self.session.saved_as(path);
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Opens a scenario file; a file that does not load leaves the current scenario and shows
    /// the located error.
    fn open_file_now(&mut self, path: &Path) {
        let stamp = DiskStamp::of(path);
        let loaded = Scenario::load(path)
            .map_err(|e| e.to_string())
            .and_then(|s| {
                let registry = self.session.registry().clone();
                Session::with_registry(s, Some(PathBuf::from(path)), None, registry)
            });
        match loaded {
            Ok(mut s) => {
                s.assume_disk_stamp(stamp);
                self.session = s;
                self.reset_selection();
                self.info(format!("opened {}", path.display()));
            }
            Err(e) => self.error(e),
        }
    }

    fn click_focus(&mut self, x: u16, y: u16) {
        let panes = self.panes();
        for (rect, f) in panes.focusable() {
            if rect.contains((x, y).into()) {
                self.focus = f;
            }
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        if self.popup.is_some() {
            return;
        }
        let panes = self.panes();
        if let Some(v) = panes.tab_at(x, y) {
            self.set_view(v);
            return;
        }
        self.click_focus(x, y);
        match self.focus {
            Context::Board => {
                if let Some(p) = view::board::province_at(self, &panes, x, y) {
                    self.select_province(p);
                }
            }
            Context::Orders => {
                if let Some(i) = view::orders::row_at(self, &panes, y) {
                    self.select_order(i);
                }
            }
            Context::Decisions => {
                if let Some(i) = view::decisions::row_at(self, &panes, y) {
                    self.decision = i;
                    self.set_tree_root(i as u32);
                }
            }
            Context::Tree => {
                if let Some(i) = view::tree::row_at(self, &panes, y) {
                    self.tree.row = i;
                }
            }
            Context::Trace => {
                if let Some(k) = view::trace::cursor_at(self, &panes, y) {
                    self.seek(k);
                }
            }
            Context::Rules => {
                if let Some(i) = view::rules::row_at(self, &panes, y) {
                    self.rule_row = i;
                }
            }
            // Not panels: the focus is never one of these.
            Context::Global
            | Context::Browser
            | Context::Help
            | Context::Menu
            | Context::OrderEditor => {}
        }
    }
}
