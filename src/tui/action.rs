//! Every action the TUI can take. The doc comment of each variant is its help text; the keymap
//! binds keys to these, and [`super::app::App::update`] is the only place they change state.

use serde::{Deserialize, Serialize};

/// One thing the user can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Quit dipsandbox.
    Quit,
    /// Show or hide the keys of this view.
    Help,
    /// Open a scenario: the bundled scenarios and your own folder.
    Open,
    /// Show the board and the orders.
    ViewBoard,
    /// Show the decision stepper: decisions, dependency tree, trace.
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
    /// Adjudicate with the other engine: the decision model or the DPjudge procedure.
    SwitchEngine,
    /// Compare the two engines under the same rules (again: back to comparing rule sets).
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
    /// Complete the name being typed (again: the next candidate).
    Complete,
}

impl Action {
    /// Every action, in the order the help lists them.
    pub const ALL: &'static [Action] = &[
        Action::Quit,
        Action::Help,
        Action::Open,
        Action::ViewBoard,
        Action::ViewStepper,
        Action::ViewRules,
        Action::FocusNext,
        Action::FocusPrev,
        Action::Up,
        Action::Down,
        Action::Left,
        Action::Right,
        Action::PageUp,
        Action::PageDown,
        Action::Select,
        Action::Back,
        Action::StepForward,
        Action::StepBack,
        Action::NextBackup,
        Action::PrevBackup,
        Action::ToStart,
        Action::ToEnd,
        Action::ToSettled,
        Action::Play,
        Action::Faster,
        Action::Slower,
        Action::ToggleAfter,
        Action::Decisions,
        Action::Goto,
        Action::NextPreset,
        Action::PrevPreset,
        Action::NextCompare,
        Action::SwitchEngine,
        Action::CompareEngines,
        Action::ResetRules,
        Action::AdoptRules,
        Action::Freeze,
        Action::Undo,
        Action::Redo,
        Action::Save,
        Action::SaveAs,
        Action::EditOrder,
        Action::DeleteOrder,
        Action::PlaceArmy,
        Action::PlaceFleet,
        Action::RemoveUnit,
        Action::MoveUnit,
        Action::SetOwner,
        Action::Dislodge,
        Action::Contested,
        Action::Details,
        Action::NewScenario,
        Action::Advance,
        Action::Complete,
    ];

    /// The name used in the keymap file (`step_forward`).
    pub fn name(self) -> String {
        let mut out = String::new();
        for (i, c) in format!("{self:?}").chars().enumerate() {
            if c.is_ascii_uppercase() {
                if i > 0 {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            } else {
                out.push(c);
            }
        }
        out
    }

    /// Parses a keymap-file name.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.iter().copied().find(|a| a.name() == name)
    }
}
