//! Every action the TUI can take. The doc comment of each variant is its help text; the keymap
//! binds keys to these, and [`super::app::App::update`] is the only place they change state.

use serde::{Deserialize, Serialize};

/// One thing the user can ask for. Its name in `keys.ron` is the variant's name in snake case
/// (`StepForward` is `step_forward`), derived by `strum`, as is the list of them all.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumIter,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumMessage,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Action {
    /// Quit dipsandbox.
    Quit,
    /// Show or hide the keys of this view.
    Help,
    /// Open a scenario: the bundled scenarios and your own folder.
    Open,
    /// Show the board and the orders.
    ViewBoard,
    /// Show the stepper: the engine's reasoning (the decision graph, the procedure, or any engine's trace and state).
    ViewStepper,
    /// Show the rules and the comparison with another rule set.
    ViewRules,
    /// Move the keyboard focus to the next panel of this view.
    FocusNext,
    /// Move the keyboard focus to the previous panel of this view.
    FocusPrev,
    /// Up: the province above, or the previous row.
    Up,
    /// Down: the province below, or the next row.
    Down,
    /// Left: the province to the left; in the tree, fold; in the rules, the previous value.
    Left,
    /// Right: the province to the right; in the tree, unfold; in the rules, the next value.
    Right,
    /// Pan the board left (a board larger than its panel), away from the selection.
    PanLeft,
    /// Pan the board right.
    PanRight,
    /// Pan the board up.
    PanUp,
    /// Pan the board down.
    PanDown,
    /// Up one page.
    PageUp,
    /// Down one page.
    PageDown,
    /// Open what is selected: unfold a tree row, jump to an order's decision.
    Select,
    /// Close a popup or prompt; clear the selection.
    Back,
    /// Step the trace forward one event.
    StepForward,
    /// Step the trace back one event.
    StepBack,
    /// Jump to the next cycle or backup-rule event.
    NextBackup,
    /// Jump back to the previous cycle or backup-rule event.
    PrevBackup,
    /// Go to the start of the trace (nothing decided yet).
    ToStart,
    /// Go to the end of the trace (everything decided).
    ToEnd,
    /// Go to the event where the selected decision got its final value.
    ToSettled,
    /// Start or stop stepping automatically.
    Play,
    /// Step faster while playing.
    Faster,
    /// Step slower while playing.
    Slower,
    /// Show the position before or after the phase.
    ToggleAfter,
    /// Jump from the selected order to the decisions that decided it.
    Decisions,
    /// Type a province's name or abbreviation to select it.
    Goto,
    /// Switch the rules to the next preset.
    NextPreset,
    /// Switch the rules to the previous preset.
    PrevPreset,
    /// Compare against the next preset.
    NextCompare,
    /// Adjudicate with the next engine there is: the decision model, the DPjudge procedure, the
    /// guess algorithm, then any outside engines the configuration names.
    SwitchEngine,
    /// Compare with the next engine under the same rules (again: back to comparing rule sets;
    /// in a replay file, then back to its recording).
    CompareEngines,
    /// Put the scenario's own rules back.
    ResetRules,
    /// Make the rules in use the scenario's own.
    AdoptRules,
    /// Make the current result the scenario's expectations.
    Freeze,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Save the scenario to its file (a bundled one is saved as a new file).
    Save,
    /// Save the scenario as a new file (in your scenario folder by default).
    SaveAs,
    /// Write or change the order of the selected unit: a menu of its legal orders, or any text.
    EditOrder,
    /// Delete the selected order.
    DeleteOrder,
    /// Place an army on the selected province (asks whose).
    PlaceArmy,
    /// Place a fleet on the selected province (asks whose, and the coast).
    PlaceFleet,
    /// Remove the unit on the selected province.
    RemoveUnit,
    /// Pick up the unit on the selected province; again (or enter) puts it down where selected.
    MoveUnit,
    /// Set the owner of the selected supply centre.
    SetOwner,
    /// Retreat phase: mark the selected unit dislodged, and from where.
    Dislodge,
    /// Retreat phase: mark the selected province contested (a standoff left it empty) or not.
    Contested,
    /// Edit the scenario's title, description, source and phase.
    Details,
    /// Start a new scenario: the opening position, an empty board, or a copy of this one.
    NewScenario,
    /// Adjudicate this phase and go on to the next (retreats, builds, next spring).
    Advance,
    /// Write the position as a picture (SVG, before or after the phase as the board shows it)
    /// and its page (HTML: the picture, orders, rules, expectations and the trace's stepper)
    /// beside the scenario file, or in the current folder for a bundled or new scenario.
    WritePicture,
    /// Complete the name being typed (again: the next candidate).
    Complete,
    /// In a text prompt: delete the character before the cursor.
    DeleteChar,
    /// In a text prompt: clear the text.
    ClearLine,
    /// Answer a question yes.
    Yes,
    /// Answer a question no.
    No,
    /// Restore kept edits as a new scenario rather than as edits to the file they were made to.
    AsNew,
    /// Cancel the adjudication on its way (an outside program is stopped).
    Cancel,
}

impl Action {
    /// Every action, in the order the help lists them (the order of the enum).
    pub fn all() -> impl Iterator<Item = Action> {
        <Action as strum::IntoEnumIterator>::iter()
    }

    /// The name used in the keymap file (`step_forward`).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Parses a keymap-file name.
    pub fn from_name(name: &str) -> Option<Action> {
        name.parse().ok()
    }

    /// The action's doc comment: its help text where the keymap gives none.
    pub fn help(self) -> &'static str {
        strum::EnumMessage::get_documentation(&self).unwrap_or("")
    }
}

/// What the app reacts to: an action from the keymap, text typed into a prompt, the mouse, the
/// clock, or the result of an effect the main loop carried out. [`super::app::App::update`]
/// takes these and nothing else changes the app's state.
#[derive(Debug)]
pub enum Msg {
    /// An action (a key of the keymap, or a test).
    Action(Action),
    /// A character typed into the text of a prompt, a filter or the order editor.
    Type(char),
    /// A mouse click at (column, row).
    Click(u16, u16),
    /// The mouse wheel: -1 up, +1 down, at (column, row).
    Scroll(i8, u16, u16),
    /// The terminal was resized.
    Resize(u16, u16),
    /// Time passed with no input (drives autoplay; messages expire).
    Tick,
    /// A tick at a given time (a test's clock, so that expiry is tested without sleeping).
    Clock(std::time::Instant),
    /// A key: the keymap turns it into an action, or (in a prompt) it is typed.
    Key(ratatui::crossterm::event::KeyEvent),
    /// What an effect came to.
    Done(super::effect::Done),
}

impl From<Action> for Msg {
    fn from(a: Action) -> Msg {
        Msg::Action(a)
    }
}
