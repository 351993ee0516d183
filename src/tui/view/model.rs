//! The view-model: what one frame draws from, built once per frame by
//! [`crate::tui::app::App::view_model`] and borrowing the app's state (nothing is copied but a
//! few numbers, the contexts and the visible tree rows). Every draw function is a pure function
//! of it.

use std::time::Duration;

use crate::tui::grid::Grid;
use crate::tui::keymap::{Context, Keymap};
use crate::tui::layout::Panes;
use crate::tui::session::Session;
use crate::tui::state::{Message, Popup, Tree, TreeRow, View};
use crate::tui::theme::Theme;
use dipsandbox_core::model::map::ProvinceId;

/// Everything a frame shows.
#[derive(Debug)]
pub struct ViewModel<'a> {
    /// The scenario and its adjudication.
    pub session: &'a Session,
    /// Colours.
    pub theme: &'a Theme,
    /// Key bindings (for the hints and the help).
    pub keymap: &'a Keymap,
    /// The tab shown.
    pub view: View,
    /// The panel with the focus.
    pub focus: Context,
    /// The popup, prompt or question, if one is open.
    pub popup: &'a Option<Popup>,
    /// The status-bar message.
    pub message: &'a Option<Message>,
    /// The selected province.
    pub province: Option<ProvinceId>,
    /// Show the position after the phase.
    pub after: bool,
    /// The board's cells (built once per map, not per frame).
    pub grid: &'a Grid,
    /// How far the board is panned from the selection, in cells.
    pub pan: (i32, i32),
    /// The selected order.
    pub order: usize,
    /// The selected decision (or DPjudge unit).
    pub decision: usize,
    /// The dependency tree's state.
    pub tree: &'a Tree,
    /// The dependency tree's visible rows (computed once per frame, in the stepper view only).
    pub tree_rows: Vec<TreeRow>,
    /// Autoplay on.
    pub playing: bool,
    /// Time between autoplay steps.
    pub speed: Duration,
    /// The selected rule option.
    pub rule_row: usize,
    /// How far the compare panel is scrolled (the view clamps it to the text).
    pub compare_scroll: u16,
    /// How far the detail panel is scrolled.
    pub detail_scroll: u16,
    /// How far the selected rule option's detail is scrolled (the view clamps it).
    pub rule_detail_scroll: u16,
    /// Where each pane goes in this frame.
    pub panes: Panes,
    /// The keymap contexts that apply now, most specific first.
    pub contexts: Vec<Context>,
    /// The contexts the help popup lists.
    pub help_contexts: Vec<Context>,
    /// How many things differ between the rules and the compare rules, as `dipsandbox diff`
    /// counts them (worked out in the rules view only, the one that shows it).
    pub changed_outcomes: usize,
}
