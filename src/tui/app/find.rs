//! Finding a province (`/`): the typed text goes to the province it names, by any of its
//! names, their starts, the initials or a word of the name ([`dipsandbox_core::tools::find`]);
//! several matches are listed and the prompt stays open to type more.

use dipsandbox_core::tools::find::{How, describe, provinces};

use super::App;
use crate::tui::keymap::Context;
use crate::tui::state::{Popup, View};

impl App {
    /// Enter in the find prompt: goes to the province the text names (one match), or lists the
    /// matches and keeps the prompt open (several), or says what is closest (none).
    pub(super) fn goto(&mut self, text: &str) {
        let map = self.session.scenario().map.clone();
        let Some(found) = provinces(&map, text) else {
            self.error(format!("no province {:?}", text.trim()));
            return;
        };
        match found.unique() {
            Some(p) => {
                self.select_province(p);
                self.set_view(View::Board);
                self.focus = Context::Board;
                if found.how != How::Exact {
                    let pr = map.province(p);
                    self.info(format!("{}: {} ({})", text.trim(), pr.name, pr.abbr));
                }
            }
            None => {
                let words = describe(&map, text, &found);
                if found.how != How::Fuzzy {
                    // Several: the prompt stays, with the text, to type more.
                    self.popup = Some(Popup::Goto(text.to_string()));
                    let more = "; type more to choose";
                    self.info(format!("{words}{more}"));
                } else {
                    self.error(words);
                }
            }
        }
    }
}
