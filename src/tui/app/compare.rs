//! The compare panel's sides as a file opens them: a `versus` class file on its two engines, a
//! phase `replay` wrote on its engine against the recording; and what the status bar says of
//! them.

use dipsandbox_core::base::text::{cut, one_line, shell_word};

use super::App;
use crate::tui::action::Action;
use crate::tui::keymap::Context;
use crate::tui::state::View;

impl App {
    /// A file that says what it compares (a `versus` class file, a phase `replay` wrote) opens
    /// on the compare view and says so. False when the session is no such file.
    pub(crate) fn show_opened(&mut self) -> bool {
        if let Some(name) = self.session.unknown_engines.first() {
            // A versus file of an engine this session does not have: it opens as a scenario,
            // and the status says how to open it on its engines.
            // The instruction first: a narrow status bar cuts the end.
            self.error(format!(
                "give --engine {} to open this versus file on its engines (this session has no such engine; engines.ron names count too)",
                shell_word(&cut(name))
            ));
            return true;
        }
        self.show_versus() || self.show_replay()
    }

    /// A `versus` class file opens on the compare view, its two engines side by side; says so.
    /// False when the session is no such file.
    fn show_versus(&mut self) -> bool {
        let Some((a, b)) = self.session.versus.clone() else {
            return false;
        };
        self.set_view(View::Rules);
        let key = self.key_name(Context::Global, Action::CompareEngines);
        // The key first, as for a replay file: a narrow status bar cuts the end.
        self.info(format!(
            "{key} compares rules · versus file: {a} (left) against {b} (right)"
        ));
        true
    }

    /// A phase `replay` wrote opens on the compare view, its engine's result against the
    /// recorded one; says so (the key first: a narrow status bar cuts the end).
    fn show_replay(&mut self) -> bool {
        if !self.session.comparing_recording() {
            return false;
        }
        self.set_view(View::Rules);
        self.info(self.recording_words());
        true
    }

    /// `V compares rules · replay file: decisions (left) vs the recording of game-1.json
    /// (right)`.
    pub(super) fn recording_words(&self) -> String {
        let key = self.key_name(Context::Global, Action::CompareEngines);
        let game = self.session.replay.as_ref().map_or_else(String::new, |h| {
            std::path::Path::new(&h.game)
                .file_name()
                .map_or_else(|| h.game.clone(), |f| f.to_string_lossy().to_string())
        });
        let engine = self.session.engine.name();
        // The replay's engine is not one of this session's (an outside adjudicator): say so.
        let other = match &self.session.replay {
            Some(h) if !h.engine.is_empty() && h.engine != engine => format!(
                " — the replay's engine, {}, is not registered here (open the file with --engine {})",
                cut(&h.engine),
                shell_word(&one_line(&h.engine))
            ),
            _ => String::new(),
        };
        format!(
            "{key} compares rules · replay file: {engine} (left) vs the recording of {game} (right){other}"
        )
    }
}
