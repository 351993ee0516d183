//! The app's state, pane by pane: plain data that [`super::app::App`] holds, that
//! [`super::app::App::update`] changes and that the view-model lends to the views. Nothing here
//! imports the app or the views.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::browser::Browser;
use super::editor::{Field, Menu, OrderEditor};
use super::grid::BoardArt;
pub use super::layout::View;
use super::session::{DiskStamp, Session};
use dipsandbox_core::model::map::{PowerId, ProvinceId};

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

/// Rows are capped so that a huge graph unfolded everywhere stays cheap.
const MAX_TREE_ROWS: usize = 2000;

/// One row of the dependency tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeRow {
    /// The decision.
    pub id: u32,
    /// The path of decisions from the root to this row (inclusive).
    pub path: Vec<u32>,
    /// The decision already appears above it on the path: a cycle.
    pub back_edge: bool,
    /// It reads other decisions.
    pub has_children: bool,
    /// It is unfolded.
    pub open: bool,
}

impl Tree {
    /// The visible rows, in order (no recursion: an explicit stack).
    pub fn rows(&self, session: &Session) -> Vec<TreeRow> {
        let Some(m) = session.run.result.decisions() else {
            return Vec::new();
        };
        let deps = &m.graph.deps;
        let root = self.root;
        if root as usize >= deps.len() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut stack = vec![(vec![root], false)];
        while let Some((path, back_edge)) = stack.pop() {
            if out.len() >= MAX_TREE_ROWS {
                break;
            }
            let id = *path.last().unwrap_or(&root);
            let children: &[u32] = deps.get(id as usize).map_or(&[], |d| d.as_slice());
            let open = !back_edge && self.open.contains(&path);
            if open {
                for &c in children.iter().rev() {
                    let mut p = path.clone();
                    let back = path.contains(&c);
                    p.push(c);
                    stack.push((p, back));
                }
            }
            out.push(TreeRow {
                id,
                has_children: !children.is_empty(),
                back_edge,
                open,
                path,
            });
        }
        out
    }
}

/// A message in the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Whether it reports a problem.
    pub error: bool,
    /// Whether it is to be read whole (where a file went: the answer to what the user asked):
    /// longer than the status line, it is shown in a box above it too, as an error is.
    pub whole: bool,
    /// When it goes: set at the first tick after it is shown ([`MESSAGE_TIME`] or
    /// [`ERROR_TIME`] later); the next action clears it anyway.
    pub expires: Option<Instant>,
}

/// How long a message stays in the status bar when nothing else happens.
pub const MESSAGE_TIME: Duration = Duration::from_secs(4);
/// How long an error stays in the status bar when nothing else happens.
pub const ERROR_TIME: Duration = Duration::from_secs(10);

impl Message {
    /// Whether the message has had its time at `now` (the first call starts its clock).
    pub fn expired(&mut self, now: Instant) -> bool {
        let time = if self.error { ERROR_TIME } else { MESSAGE_TIME };
        now >= *self.expires.get_or_insert(now + time)
    }
}

/// The board pane: the selection, what is shown, and the art it is drawn on.
#[derive(Clone, Debug, Default)]
pub struct BoardPane {
    /// The selected province.
    pub province: Option<ProvinceId>,
    /// Show the position after the phase instead of before.
    pub after: bool,
    /// A unit picked up to be moved: the province it stands in.
    pub carry: Option<ProvinceId>,
    /// The power a unit was placed for last (the place menu's highlight where the province
    /// names none).
    pub last_power: Option<PowerId>,
    /// The board's cells, built once per map (and, for a map without art, per width).
    pub art: BoardArt,
    /// How far the view is panned from the selection, in cells (0 on a new selection).
    pub pan: (i32, i32),
}

/// The orders pane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrdersPane {
    /// The selected order (index into the scenario's orders).
    pub order: usize,
}

/// Autoplay speeds (ms between steps), fastest first.
pub const SPEEDS: [u64; 7] = [50, 100, 200, 350, 500, 800, 1200];

/// The stepper's panes: decisions (or DPjudge units), the dependency tree, the trace and its
/// autoplay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepperPane {
    /// The selected decision (node id), or DPjudge unit.
    pub decision: usize,
    /// The dependency tree.
    pub tree: Tree,
    /// Autoplay on.
    pub playing: bool,
    /// Time between autoplay steps.
    pub speed: Duration,
    /// How far the detail panel (the step in full and the engine's state) is scrolled.
    pub detail: u16,
}

impl Default for StepperPane {
    fn default() -> Self {
        StepperPane {
            decision: 0,
            tree: Tree::default(),
            playing: false,
            speed: Duration::from_millis(SPEEDS[3]),
            detail: 0,
        }
    }
}

/// The rules pane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RulesPane {
    /// The selected rule option (row).
    pub row: usize,
    /// How far the compare panel is scrolled (rows), PgUp/PgDn; stops at its last line.
    pub compare_scroll: u16,
    /// How far the selected option's detail is scrolled (rows), J/K; back to its top when
    /// another option or value is chosen.
    pub detail_scroll: u16,
}
