//! Opening, saving and restoring: the questions and prompts around them, and what their
//! effects came to. The files themselves are read and written by the main loop
//! ([`crate::tui::effect`]).

use std::path::{Path, PathBuf};

use dipsandbox_core::base::text::{cut_after, slug};

use super::App;
use crate::tui::action::Action;
use crate::tui::effect::{Done, Effect};
use crate::tui::keymap::Context;
use crate::tui::state::{Pending, Popup, Restoring, Tree};

/// Why a file could not be read, in a few words (the question names the file already).
fn short_read_error(e: &dipsandbox_core::base::source::ReadError) -> String {
    use dipsandbox_core::base::source::ReadError;
    match e {
        ReadError::Io { message, .. } => message.clone(),
        ReadError::NotAFile { what, .. } => format!("it is {what}"),
        ReadError::TooLarge { size, limit, .. } => {
            format!("{size} bytes, more than the {limit} a file may have")
        }
        ReadError::NotUtf8 { .. } => "it is not UTF-8 text".into(),
    }
}

impl App {
    /// Opens a scenario file, asking first when there are unsaved changes.
    pub(super) fn open_file(&mut self, path: PathBuf, fx: &mut Vec<Effect>) {
        if self.session.is_dirty() {
            self.popup = Some(Popup::Confirm(
                format!(
                    "The scenario has unsaved changes. Open another anyway? {} ({} saves)",
                    self.yes_no(),
                    self.key_name(Context::Confirm, Action::Save)
                ),
                Pending::Open(path),
            ));
            return;
        }
        fx.push(Effect::Open(path));
    }

    /// Draws the position as the board shows it (before or after the phase) and its page (the
    /// picture, orders, rules, expectations and a stepper through the engine's trace, as
    /// `dipsandbox report` writes it) and asks the runner to write both beside the scenario:
    /// `NAME.svg` and `NAME.html`, named after the scenario's file (or its title when it has
    /// none).
    pub(super) fn write_picture(&mut self, fx: &mut Vec<Effect>) {
        use dipsandbox_core::io::picture::{PictureOptions, position_svg};
        // The picture and the page are the result on screen: none while it is not current
        // (never a second adjudication on the UI thread, nor an empty placeholder drawn).
        if self.session.state != crate::tui::session::RunState::Current {
            return self.error(
                "no picture: the result is not current (wait for the adjudication, or run it again)",
            );
        }
        let s = self.session.scenario();
        let when = if self.board.after { "after" } else { "before" };
        let opts = PictureOptions {
            after: self.board.after,
            title: Some(format!("{} — {} ({when})", s.title, s.phase)),
            ..PictureOptions::default()
        };
        let svg = match position_svg(s, Some(self.session.run.phase()), &opts) {
            Ok(svg) => svg,
            Err(e) => return self.error(format!("no picture: {e}")),
        };
        let stem = self
            .session
            .path
            .as_deref()
            .and_then(Path::file_stem)
            .and_then(|n| n.to_str())
            .map(str::to_string)
            .unwrap_or_else(|| slug(&s.title).to_ascii_lowercase());
        let name = if stem.is_empty() {
            "scenario".to_string()
        } else {
            stem
        };
        let page = dipsandbox_core::io::page::case_page_of(
            s,
            &self.session.run,
            &*self.session.engine,
            &dipsandbox_core::io::page::CaseOptions {
                file: self
                    .session
                    .path
                    .as_deref()
                    .map(|p| p.display().to_string()),
                ..Default::default()
            },
        );
        let page = match page {
            Ok(html) => Some(html),
            Err(e) => {
                self.error(format!("no page: {e}"));
                None
            }
        };
        fx.push(Effect::WritePicture {
            beside: self.session.path.clone(),
            name,
            svg,
            page,
        });
    }

    /// Asks where to save, offering a file named after the title in the user's folder.
    pub(super) fn start_save_as(&mut self) {
        let slug = slug(&self.session.scenario().title).to_ascii_lowercase();
        let name = format!("{}.ron", if slug.is_empty() { "scenario" } else { &slug });
        let default = match &self.folders.user {
            Some(d) => d.join(name).display().to_string(),
            None => name,
        };
        self.popup = Some(Popup::SaveAs(default));
    }

    /// A typed save-as path: relative paths are in the user's scenario folder.
    pub(super) fn save_as_path(&self, text: &str) -> PathBuf {
        let p = PathBuf::from(text.trim());
        match (&self.folders.user, p.is_absolute()) {
            (Some(d), false) if !text.trim().starts_with('.') => d.join(p),
            _ => p,
        }
    }

    /// What an effect came to.
    pub(super) fn done(&mut self, done: Done, fx: &mut Vec<Effect>) {
        match done {
            Done::Adjudicated(f) => self.adjudicated(f),
            Done::Browsed(b) => {
                if b.entries.is_empty() {
                    self.error(
                        "no scenario files found (looked in ./scenarios and your scenario folder)",
                    );
                }
                self.popup = Some(Popup::Browser(*b));
            }
            Done::Previewed(path, p) => {
                if let Some(Popup::Browser(b)) = &mut self.popup {
                    b.set_preview(path, p);
                }
            }
            Done::Saved(path, stamp) => {
                self.forget_replacements();
                self.notice(format!("saved to {}", path.display()));
                self.session.saved_as(path, stamp);
            }
            Done::AskOverwrite(path, why) => {
                self.popup = Some(Popup::Confirm(
                    format!("{} {why}. Overwrite? {}", path.display(), self.yes_no()),
                    Pending::Overwrite(path),
                ));
            }
            Done::AskWhere => self.start_save_as(),
            Done::Opened(s, path) => {
                self.session = *s;
                self.reset_selection();
                if !self.show_opened() {
                    // A file with rules of its own (a case's rule variant) says so.
                    let rules = self.session.scenario().rules;
                    let own = if rules == dipsandbox_core::model::rules::Rules::default() {
                        String::new()
                    } else {
                        format!(
                            " (its own rules: {})",
                            crate::tui::session::Session::rules_name(&rules)
                        )
                    };
                    // The name and the rules first: a deep folder is what gets cut.
                    let (name, folder) = name_and_folder(&path);
                    let folder = folder.map_or(String::new(), |d| format!(", in {d}"));
                    self.info(format!("opened {name}{own}{folder}"));
                }
            }
            Done::Restored(Ok((s, target)), file) => {
                self.session = *s;
                self.reset_selection();
                fx.push(Effect::WriteRecovery);
                fx.push(Effect::RemoveRestored(file));
                match target {
                    Some(p) => self.info(format!(
                        "restored the unsaved edits to {} — ctrl-s saves, S saves as",
                        p.display()
                    )),
                    None => self.info(
                        "restored the unsaved edits as a new scenario — ctrl-s saves it as a new file",
                    ),
                }
                self.show_keymap_problem();
            }
            Done::Restored(Err(e), file) => {
                self.error(format!(
                    "the recovery file could not be restored ({e}); it is kept at {}",
                    file.display()
                ));
                self.show_keymap_problem();
            }
            Done::Discarded(r) => {
                match r {
                    Ok(()) => self.info("discarded the kept edits"),
                    Err(e) => self.error(e),
                }
                self.show_keymap_problem();
            }
            Done::PictureWritten(path, page) => {
                // The names first and the folder last: a long folder is what the status line
                // cuts, never the names the user looks for.
                let (name, folder) = name_and_folder(&path);
                let folder = folder.unwrap_or_else(|| ".".to_string());
                match page {
                    Some(p) => self.notice(format!(
                        "picture written to {name} and its page to {}, in {folder}",
                        name_and_folder(&p).0,
                    )),
                    None => self.notice(format!("picture written to {name}, in {folder}")),
                }
            }
            Done::Failed(e) => self.error(e),
        }
    }

    /// Asks whether to restore the edits of a recovery file. The file it names is shown; the
    /// edits can go back to it only when it is a scenario file (else they come back as a new
    /// scenario, and the question says why).
    pub(super) fn offer_recovery(&mut self, f: crate::tui::recovery::Found) {
        let age = crate::tui::recovery::age(f.modified);
        let named = f.header.source.clone();
        let target = named.as_deref().map(|p| (p, self.restore_target(p)));
        let (y, a, n) = (
            self.key_name(Context::Restore, Action::Yes),
            self.key_name(Context::Restore, Action::AsNew),
            self.key_name(Context::Restore, Action::No),
        );
        // Which scenario: its title as the kept edits have it.
        let what = match crate::tui::browser::read_words(&f.path) {
            Some(w) => format!("“{}”", cut_after(&w.title, 200)),
            None => "a scenario".into(),
        };
        let question = match &target {
            None => format!(
                "Unsaved edits to {what}, a new scenario, were kept when dipsandbox last stopped ({age}). Restore them? {y} restores · {n} discards"
            ),
            Some((p, Ok(()))) => format!(
                "Unsaved edits to {what}, the scenario file {}, were kept when dipsandbox last stopped ({age}). Restore them? {y} restores them as edits to that file (saving asks first if it changed since) · {a} restores them as a new scenario · {n} discards",
                p.display()
            ),
            Some((p, Err(why))) => format!(
                "Unsaved edits to {what} were kept when dipsandbox last stopped ({age}). The recovery file names {}, which is not a scenario file to save them to ({why}): they come back as a new, unsaved scenario. Restore them? {y} restores · {n} discards",
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
    /// (Read at start, before the loop.)
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
        match dipsandbox_core::model::scenario::Scenario::load(p) {
            Ok(_) => Ok(()),
            Err(e) => Err(match e {
                dipsandbox_core::model::error::ScenarioError::Read(r) => short_read_error(&r),
                _ => "it does not load as a scenario".into(),
            }),
        }
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

    pub(super) fn reset_selection(&mut self) {
        self.forget_replacements();
        self.rules.compare_scroll = 0;
        self.rules.detail_scroll = 0;
        self.popup = None;
        self.stepper.decision = 0;
        self.stepper.tree = Tree::default();
        self.set_tree_root(0);
        self.board.province = None;
        self.board.after = false;
        self.stepper.playing = false;
        self.board.carry = None;
        self.orders.order = 0;
        self.select_order(0);
    }
}

/// A file's name and its folder (None for a bare name), for messages that say the name first.
fn name_and_folder(path: &std::path::Path) -> (String, Option<String>) {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.display().to_string());
    (name.into_owned(), folder)
}
