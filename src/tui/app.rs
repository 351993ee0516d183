//! The app state and its one `update`: every change of state goes through [`App::update`],
//! which takes a message (an action from the keymap, typed text, the mouse, the clock, or what
//! an effect came to) and returns the effects (file I/O, quitting) for the main loop to carry
//! out. The state is split per pane ([`super::state`]); `update`'s work is in the submodules:
//!
//! - `app/popup.rs`: the popups, prompts and questions;
//! - `app/edit.rs`: editing the scenario (orders, units, owners, details, new, advance);
//! - `app/step.rs`: the stepper, the dependency tree, the rules table, the board's selection,
//!   and the mouse;
//! - `app/files.rs`: opening, saving and restoring, and what their effects came to;
//! - `app/compare.rs`: the compare panel's sides (rules, engines, a replay's recording).

mod compare;
mod edit;
mod files;
mod find;
mod popup;
mod position;
mod step;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::action::{Action, Msg};
use super::adapter::Family;
use super::browser::Folders;
use super::effect::Effect;
use super::keymap::{Context, Keymap};
use super::layout::{self, Panes, StepperPanels};
use super::recovery::Recovery;
use super::session::{DiskStamp, RunState, Session, next_preset};
use super::state::{BoardPane, OrdersPane, RulesPane, SPEEDS, StepperPane};
use super::theme::Theme;
use super::view::model::ViewModel;
use dipsandbox_core::base::text::cut_after;
use dipsandbox_core::model::map::ProvinceId;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;

pub use super::state::{Message, Pending, Popup, Restoring, Tree, View};

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
    /// The board pane: selected province, before / after, a unit carried, the art.
    pub board: BoardPane,
    /// The orders pane.
    pub orders: OrdersPane,
    /// The stepper's panes: decision, tree, autoplay.
    pub stepper: StepperPane,
    /// The rules pane.
    pub rules: RulesPane,
    /// A popup, prompt or question, if one is open.
    pub popup: Option<Popup>,
    /// The status-bar message.
    pub message: Option<Message>,
    /// The session ended (set by the main loop when it carries out [`Effect::Quit`]).
    pub quit: bool,
    /// The terminal's size (for mouse hits; the draw functions get the frame's own).
    pub size: (u16, u16),
    /// The recovery file of unsaved edits (written only by the main loop's effects).
    pub recovery: Recovery,
    /// Set (by a signal handler) when the process is asked to stop: the main loop writes the
    /// recovery file and ends.
    pub stop: Arc<AtomicBool>,
    /// Why `keys.ron` was not used, kept to be shown once the restore question is answered.
    pub keymap_problem: Option<String>,
    /// The request whose failure the status bar has shown (it is shown once).
    shown_failure: Option<u64>,
    /// The files that replacing the scenario (`>`, a new scenario) left, each with the depth
    /// of the edit history before it: undoing the replacement gives the scenario its file back.
    left_files: Vec<(usize, Option<std::path::PathBuf>)>,
}

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
            board: BoardPane::default(),
            orders: OrdersPane::default(),
            stepper: StepperPane::default(),
            rules: RulesPane::default(),
            popup: None,
            message: None,
            quit: false,
            size: (120, 40),
            recovery,
            stop: Arc::new(AtomicBool::new(false)),
            keymap_problem: None,
            shown_failure: None,
            left_files: Vec::new(),
        };
        app.select_order(0);
        app.set_tree_root(0);
        app.refresh_art();
        app
    }

    /// An app on a scenario file (or the built-in scenario), with the keymap patched from the
    /// config folder. A file that does not load is an error. (The one place the app reads
    /// files itself: before the loop starts.)
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
        } else if !app.show_opened() {
            app.info(format!(
                "{} — press ? for the keys",
                app.session.scenario().title
            ));
        }
        Ok(app)
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: cut_after(&text.into(), MAX_MESSAGE_CHARS).into_owned(),
            error: false,
            whole: false,
            expires: None,
        });
    }

    /// [`App::info`] for a message to be read whole (where a file was written): when it is
    /// longer than the status line, the box above it shows all of it.
    fn notice(&mut self, text: impl Into<String>) {
        self.info(text);
        if let Some(m) = &mut self.message {
            m.whole = true;
        }
    }

    /// Shows an error in the status bar (cut to [`MAX_MESSAGE_CHARS`]: it is drawn on every
    /// frame, and an error may quote much of a file).
    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: cut_after(&text.into(), MAX_MESSAGE_CHARS).into_owned(),
            error: true,
            whole: true,
            expires: None,
        });
    }

    /// The first key bound to `action` in `context` (else anywhere), as messages name it.
    fn key_name(&self, context: Context, action: Action) -> String {
        self.keymap
            .bindings()
            .iter()
            .find(|b| b.context == context && b.action == action && !b.keys.is_empty())
            .and_then(|b| b.keys.first().copied())
            .or_else(|| self.keymap.key_for(action))
            .map_or_else(|| "?".into(), |k| k.to_string())
    }

    /// A question's yes / no keys, from the keymap: `y / n`.
    fn yes_no(&self) -> String {
        format!(
            "{} / {}",
            self.key_name(Context::Confirm, Action::Yes),
            self.key_name(Context::Confirm, Action::No)
        )
    }

    /// The keymap contexts that apply now, most specific first.
    pub fn contexts(&self) -> Vec<Context> {
        match &self.popup {
            Some(Popup::Help(_)) => vec![Context::Help],
            Some(Popup::Browser(_)) => vec![Context::Browser],
            Some(Popup::Menu(_)) => vec![Context::Menu],
            Some(Popup::Order(_)) => vec![Context::OrderEditor],
            Some(Popup::Goto(_)) => vec![Context::Find],
            Some(Popup::SaveAs(_)) => vec![Context::SaveAs],
            Some(Popup::Field(..)) => vec![Context::Field],
            Some(Popup::Confirm(_, Pending::Restore(_))) => vec![Context::Restore],
            Some(Popup::Confirm(..)) => vec![Context::Confirm],
            None if self.session.state.is_pending() => {
                vec![Context::Adjudicating, self.focus, Context::Global]
            }
            None => vec![self.focus, Context::Global],
        }
    }

    /// The contexts of the current view without any popup: the focused panel, the view's other
    /// panels, then everywhere (what the help popup lists, before the prompts and questions).
    pub fn contexts_without_popup(&self) -> Vec<Context> {
        let mut v = Vec::new();
        if self.session.state.is_pending() {
            v.push(Context::Adjudicating);
        }
        v.push(self.focus);
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
        layout::panels(self.view, self.stepper_panels())
    }

    /// Which panels the stepper shows for the session's result.
    pub fn stepper_panels(&self) -> StepperPanels {
        match self.session.family() {
            Family::Trace => StepperPanels::Trace,
            Family::Procedure => StepperPanels::Procedure,
            Family::Decisions | Family::Outcomes => StepperPanels::Graph,
        }
    }

    /// Whether the stepper shows the trace and the engine's state only (an engine with no
    /// panels of its own).
    pub fn trace_only(&self) -> bool {
        self.stepper_panels() == StepperPanels::Trace
    }

    /// The panes of the current terminal size (as the views lay them out).
    pub fn panes(&self) -> Panes {
        layout::layout_for(
            Rect::new(0, 0, self.size.0, self.size.1),
            self.view,
            self.stepper_panels(),
        )
    }

    /// What the views draw from, for a frame of `area`: built once per frame, borrowing the
    /// state.
    pub fn view_model(&self, area: Rect) -> ViewModel<'_> {
        ViewModel {
            session: &self.session,
            theme: &self.theme,
            keymap: &self.keymap,
            view: self.view,
            focus: self.focus,
            popup: &self.popup,
            message: &self.message,
            province: self.board.province,
            after: self.board.after,
            grid: &self.board.art.grid,
            pan: self.board.pan,
            order: self.orders.order,
            decision: self.stepper.decision,
            tree: &self.stepper.tree,
            tree_rows: if self.view == View::Stepper {
                self.stepper.tree.rows(&self.session)
            } else {
                Vec::new()
            },
            playing: self.stepper.playing,
            speed: self.stepper.speed,
            rule_row: self.rules.row,
            compare_scroll: self.rules.compare_scroll,
            panes: layout::layout_for(area, self.view, self.stepper_panels()),
            detail_scroll: self.stepper.detail,
            rule_detail_scroll: self.rules.detail_scroll,
            contexts: self.contexts(),
            help_contexts: self.contexts_without_popup(),
            changed_outcomes: if self.view == View::Rules {
                self.changed_outcomes()
            } else {
                0
            },
        }
    }

    /// Keeps the board's art in step with the map and the board's width (cheap when neither
    /// changed).
    fn refresh_art(&mut self) {
        let size = self.size;
        let width = || {
            let area = Rect::new(0, 0, size.0, size.1);
            super::grid::board_width(&layout::layout(area, View::Board))
        };
        self.board
            .art
            .refresh(&self.session.scenario().map, size, width);
    }

    /// Applies one message: the only place state changes. Returns what the main loop is to do
    /// (file I/O, quitting); what that comes to comes back as [`Msg::Done`].
    pub fn update(&mut self, msg: impl Into<Msg>) -> Vec<Effect> {
        let mut fx = Vec::new();
        let msg = msg.into();
        // A message is about what the user did last: the next thing they do clears it.
        if matches!(
            msg,
            Msg::Action(_) | Msg::Key(_) | Msg::Type(_) | Msg::Click(..) | Msg::Scroll(..)
        ) {
            self.message = None;
        }
        let compared = self.compared();
        let option = (self.rules.row, self.session.rules);
        match msg {
            Msg::Tick => self.tick(Instant::now()),
            Msg::Clock(now) => self.tick(now),
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Click(x, y) => self.click(x, y),
            Msg::Scroll(d, x, y)
                if self.popup.is_none()
                    && self
                        .panes()
                        .compare
                        .is_some_and(|r| r.contains((x, y).into())) =>
            {
                // The wheel over the compare panel scrolls it (it takes no focus).
                self.scroll_compare(if d < 0 { -3 } else { 3 });
            }
            Msg::Scroll(d, x, y) => {
                // Under a popup the wheel scrolls the popup; the focus stays.
                if self.popup.is_none() {
                    self.click_focus(x, y);
                }
                self.action(if d < 0 { Action::Up } else { Action::Down }, &mut fx);
            }
            Msg::Key(k) => self.key(k, &mut fx),
            Msg::Type(c) => self.type_char(c),
            Msg::Action(a) => self.action(a, &mut fx),
            Msg::Done(d) => self.done(d, &mut fx),
        }
        if let Some(Popup::Browser(b)) = &self.popup
            && let Some(p) = b.wanted_preview()
        {
            fx.push(Effect::Preview(p));
        }
        // Something else compared (rules, engines, an edit, another file): the compare panel
        // starts again at its top, not in the middle of an entry.
        if self.compared() != compared {
            self.rules.compare_scroll = 0;
        }
        if (self.rules.row, self.session.rules) != option {
            self.rules.detail_scroll = 0;
        }
        self.keep_on_the_map();
        self.keep_focus_on_a_panel();
        self.refresh_art();
        self.show_failure();
        fx
    }

    /// Keeps the focus on one of the view's panels: another engine can bring other panels (the
    /// decision graph's three, or any engine's trace and its state).
    fn keep_focus_on_a_panel(&mut self) {
        let panels = self.panels();
        if !panels.contains(&self.focus)
            && let Some(&first) = panels.first()
        {
            self.focus = first;
        }
    }

    /// An engine's error goes to the status bar too, once per request (the views show it
    /// where the verdicts would be for as long as it stands).
    fn show_failure(&mut self) {
        let id = self.session.request_id();
        if let super::session::RunState::Failed(e) = &self.session.state
            && self.shown_failure != Some(id)
        {
            let e = e.clone();
            self.shown_failure = Some(id);
            self.error(e);
        }
    }

    /// Scrolls the selected rule option's detail by `d` rows, from 0 to its last line.
    fn scroll_rule_detail(&mut self, d: i32) {
        let screen = Rect::new(0, 0, self.size.0, self.size.1);
        let vm = self.view_model(screen);
        let most = vm
            .panes
            .rules
            .map_or(0, |r| crate::tui::view::rules::detail_max_scroll(&vm, r));
        let now = i32::from(self.rules.detail_scroll.min(most));
        self.rules.detail_scroll = u16::try_from((now + d).clamp(0, i32::from(most))).unwrap_or(0);
    }

    /// What the compare panel shows, to tell when it changes: the rules and engines of both
    /// sides, the file and the edit count.
    fn compared(
        &self,
    ) -> (
        Rules,
        Rules,
        String,
        String,
        u64,
        Option<std::path::PathBuf>,
    ) {
        let s = &self.session;
        (
            s.rules,
            s.compare_rules,
            s.engine.name().to_string(),
            s.compare_engine.name().to_string(),
            s.generation,
            s.path.clone(),
        )
    }

    /// Keeps what the board points at on the scenario's map: an undo, a redo or a new
    /// scenario can bring another map (the world's 170 provinces, then the standard 75), and a
    /// selected province, a unit being moved or the last power placed for may not exist on it.
    fn keep_on_the_map(&mut self) {
        let map = &self.session.scenario().map;
        let provinces = map.province_count();
        let on_map = |p: &Option<ProvinceId>| p.is_some_and(|p| (p.0 as usize) < provinces);
        if !on_map(&self.board.province) {
            self.board.province = None;
        }
        if !on_map(&self.board.carry) {
            self.board.carry = None;
        }
        if self
            .board
            .last_power
            .is_some_and(|p| p.0 as usize >= map.powers.len())
        {
            self.board.last_power = None;
        }
    }

    /// Time passed (it is `now`): the next autoplay step, and the message goes when its time
    /// is up.
    fn tick(&mut self, now: Instant) {
        if self.stepper.playing && !self.step(1) {
            self.stepper.playing = false;
        }
        if self.message.as_mut().is_some_and(|m| m.expired(now)) {
            self.message = None;
        }
    }

    /// A key: typed into a prompt that takes text, else the keymap's action in the contexts
    /// that apply.
    fn key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
        let mut contexts = self.contexts();
        // The help popup lies over the view: a key it does not bind is looked up everywhere
        // (where, of what it can do while help is open, only quit does something).
        if contexts == [Context::Help] {
            contexts.push(Context::Global);
        }
        let plain = !k
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if let KeyCode::Char(c) = k.code
            && plain
            && contexts.first().is_some_and(|c| c.takes_text())
        {
            self.type_char(c);
            return;
        }
        let in_question = contexts.first().is_some_and(|c| c.is_prompt());
        match self.keymap.action(&contexts, &k) {
            Some(a) => self.action(a, fx),
            // A quick esc then a key arrives from many terminals as alt+key: take it as both.
            None if k.modifiers.contains(KeyModifiers::ALT) && !in_question => {
                let plain = KeyEvent::new(k.code, k.modifiers - KeyModifiers::ALT);
                if self.keymap.action(&contexts, &plain).is_some() {
                    self.action(Action::Back, fx);
                    self.key(plain, fx);
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

    /// An action: to the popup when one is open, else to the view.
    fn action(&mut self, action: Action, fx: &mut Vec<Effect>) {
        if self.popup.is_some() {
            self.popup_action(action, fx);
            return;
        }
        if self.board.carry.is_some() && matches!(action, Action::Select | Action::Decisions) {
            self.move_unit();
            return;
        }
        match action {
            Action::Quit => self.ask_quit(fx),
            Action::Help => self.popup = Some(Popup::Help(0)),
            Action::Open => fx.push(Effect::Browse),
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
            Action::PanUp | Action::PanDown if self.focus == Context::Rules => {
                self.scroll_rule_detail(if action == Action::PanDown { 3 } else { -3 })
            }
            Action::PanLeft | Action::PanRight | Action::PanUp | Action::PanDown => {
                self.pan(action)
            }
            Action::PageUp | Action::PageDown => {
                let d = if action == Action::PageUp { -10 } else { 10 };
                match self.focus {
                    Context::Orders => self.select_order_by(d),
                    Context::Decisions | Context::Units => self.select_decision_by(d),
                    Context::Trace => {
                        self.step(d);
                    }
                    Context::Detail => self.scroll_detail(d),
                    Context::Rules => self.scroll_compare(d),
                    _ => {}
                }
            }
            Action::Select => match self.focus {
                Context::Decisions => {
                    self.set_tree_root(self.stepper.decision as u32);
                    self.focus = Context::Tree;
                }
                Context::Tree => self.toggle_tree_row(None),
                Context::Board | Context::Orders => self.jump_to_decisions(),
                _ => {}
            },
            Action::Back => {
                if self.board.carry.take().is_some() {
                    self.info("move cancelled");
                    return;
                }
                self.board.province = None;
                self.message = None;
                self.stepper.playing = false;
            }
            Action::StepForward => {
                self.step(1);
            }
            Action::StepBack => {
                self.step(-1);
            }
            Action::NextBackup => self.jump_backup(true),
            Action::PrevBackup => self.jump_backup(false),
            Action::ToStart if self.focus == Context::Rules => self.rules.compare_scroll = 0,
            Action::ToEnd if self.focus == Context::Rules => self.scroll_compare(isize::MAX / 2),
            Action::ToStart => self.seek(0),
            Action::ToEnd => self.seek(usize::MAX),
            Action::ToSettled => self.seek_settled(),
            Action::Play => self.play(),
            Action::Faster | Action::Slower => {
                let ms = self.stepper.speed.as_millis() as u64;
                let i = SPEEDS.iter().position(|s| *s >= ms).unwrap_or(3);
                let j = if action == Action::Faster {
                    i.saturating_sub(1)
                } else {
                    (i + 1).min(SPEEDS.len() - 1)
                };
                let ms = SPEEDS.get(j).copied().unwrap_or(ms);
                self.stepper.speed = Duration::from_millis(ms);
                self.info(format!("autoplay: one step every {ms} ms"));
            }
            Action::ToggleAfter => {
                self.board.after = !self.board.after;
                self.info(if self.board.after {
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
            Action::NextCompare => self.next_compare(),
            Action::SwitchEngine => {
                let e = self.session.next_engine();
                self.set_engine(e);
            }
            Action::CompareEngines => self.compare_engines(),
            Action::ResetRules => {
                let r = self.session.scenario().rules;
                self.set_rules(r);
            }
            Action::AdoptRules => match self.session.adopt_rules() {
                Ok(()) => {
                    let save = self.key_name(Context::Global, Action::Save);
                    self.info(format!(
                        "these rules are now the scenario's own ({save} saves)"
                    ));
                }
                Err(e) => self.error(e.0),
            },
            Action::Freeze => match self.session.freeze() {
                Ok(()) => {
                    let save = self.key_name(Context::Global, Action::Save);
                    // The edit asks the engine again: with a slow one the checks are counted
                    // when its result comes.
                    let counted = match &self.session.expectations {
                        Some((_, n)) if self.session.state == RunState::Current => {
                            format!("{n} checks")
                        }
                        _ => "checked when the adjudication ends".to_string(),
                    };
                    self.info(format!(
                        "the current result is now the expectations ({counted}; {save} saves)"
                    ));
                }
                Err(e) => self.error(e.0),
            },
            Action::Undo | Action::Redo => self.undo_redo(action == Action::Undo),
            Action::Save => self.save(fx),
            Action::SaveAs => self.start_save_as(),
            Action::EditOrder => self.start_order(),
            Action::DeleteOrder => self.delete_order(),
            Action::PlaceArmy | Action::PlaceFleet => self.place(action == Action::PlaceArmy),
            Action::RemoveUnit => self.remove_unit(),
            Action::MoveUnit => self.move_unit(),
            Action::SetOwner => self.set_owner(),
            Action::Dislodge => self.start_dislodge(),
            Action::Contested => self.toggle_contested(),
            Action::Details => self.details(),
            Action::NewScenario => self.new_scenario(),
            Action::Advance => self.advance(),
            Action::WritePicture => self.write_picture(fx),
            Action::Complete
            | Action::DeleteChar
            | Action::ClearLine
            | Action::Yes
            | Action::No
            | Action::AsNew => {}
            Action::Cancel => self.cancel_adjudication(),
        }
    }

    /// Cancels the adjudication on its way, and says so.
    fn cancel_adjudication(&mut self) {
        let engine = self.session.engine.name().to_string();
        if self.session.cancel() {
            self.info(format!(
                "cancelled the adjudication by {engine}: no result is shown (an edit, the rules or the engine switch asks again)"
            ));
        }
    }

    /// A request's result came (from the main loop): taken when it is the latest, its
    /// selections kept on it, its error shown.
    pub(super) fn adjudicated(&mut self, done: super::session::Finished) {
        if !self.session.accept(done) {
            return;
        }
        self.after_edit();
    }

    /// Quit: at once, or after a yes when there are unsaved changes.
    fn ask_quit(&mut self, fx: &mut Vec<Effect>) {
        if self.session.is_dirty() {
            self.popup = Some(Popup::Confirm(
                format!(
                    "The scenario has unsaved changes. Quit anyway? {} ({} saves)",
                    self.yes_no(),
                    self.key_name(Context::Confirm, Action::Save)
                ),
                Pending::Quit,
            ));
        } else {
            fx.push(Effect::Quit);
        }
    }

    /// Saves to the scenario's file (a bundled one, or none: asks where).
    fn save(&mut self, fx: &mut Vec<Effect>) {
        match self.session.path.clone() {
            Some(path) => fx.push(Effect::Save {
                path,
                force: false,
                or_save_as: true,
            }),
            None => self.start_save_as(),
        }
    }

    /// Whether a stop was asked for (SIGTERM, SIGHUP).
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn set_view(&mut self, v: View) {
        self.view = v;
        if let Some(&p) = self.panels().first() {
            self.focus = p;
        }
    }

    /// How many things differ between the rules and the compare rules (verdicts, reasons,
    /// dislodgements, positions, retreats: the count `dipsandbox diff` prints).
    pub fn changed_outcomes(&self) -> usize {
        self.session.diff.len()
    }
}
