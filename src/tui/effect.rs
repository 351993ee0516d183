//! Effects: what [`super::app::App::update`] asks the world to do (save, open, restore, list
//! files, write or remove the recovery file, quit), and what that came to ([`Done`], fed back
//! to `update` as a message). The main loop's runner ([`super::runner`]) carries them out: the
//! TUI's file I/O happens there and nowhere else once the loop runs, so `update` stays a plain
//! function of state and messages (and tests can look at the effects it returns without a file
//! being touched).

use std::path::PathBuf;

use super::browser::{Browser, Preview};
use super::session::{DiskStamp, Session};

/// Something for the main loop to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// List the scenario files for the browser.
    Browse,
    /// Read the preview of a file in the browser.
    Preview(PathBuf),
    /// Save the scenario to `path`. Without `force`, a file that exists and is not the one
    /// opened, or that changed on disk since, is only overwritten after a yes. A bundled
    /// scenario is never overwritten: `or_save_as` asks where instead, else it is an error.
    Save {
        /// Where.
        path: PathBuf,
        /// Overwrite without asking.
        force: bool,
        /// A bundled target asks for another file instead of failing.
        or_save_as: bool,
    },
    /// Open a scenario file (unsaved changes were asked about already).
    Open(PathBuf),
    /// Restore the edits of a recovery file: as edits to `target` (which was on disk as
    /// `stamp` when they began), or as a new scenario.
    Restore {
        /// The recovery file.
        file: PathBuf,
        /// The scenario file the edits go back to.
        target: Option<PathBuf>,
        /// That file as the edits knew it.
        stamp: Option<DiskStamp>,
    },
    /// Remove a recovery file that was offered and declined.
    DiscardRecovery(PathBuf),
    /// Remove a recovery file whose edits were restored.
    RemoveRestored(PathBuf),
    /// Write this process's recovery file now, whatever was written before.
    WriteRecovery,
    /// Remove this process's recovery file: the user chose to drop the edits.
    ClearRecovery,
    /// Write a picture: `svg` as `NAME.svg` beside the scenario file `beside` (the pictures
    /// folder, by default the current one, when there is none or it is a bundled scenario), and its
    /// page as `NAME.html`; never over an existing file (`NAME-2.svg`, … instead).
    WritePicture {
        /// The scenario's file, if it has one.
        beside: Option<PathBuf>,
        /// The picture's name without `.svg`.
        name: String,
        /// The picture.
        svg: String,
        /// The position's page (`dipsandbox report`'s), written as `NAME.html` with the same
        /// name as the picture.
        page: Option<String>,
    },
    /// End the session.
    Quit,
}

/// What an effect came to, for [`super::app::App::update`].
#[derive(Debug)]
pub enum Done {
    /// The browser's listing.
    Browsed(Box<Browser>),
    /// A file's preview.
    Previewed(PathBuf, Preview),
    /// The scenario was saved: where, and how the file is on disk now.
    Saved(PathBuf, Option<DiskStamp>),
    /// Saving needs a yes first: the file, and why.
    AskOverwrite(PathBuf, &'static str),
    /// Saving to a bundled scenario: ask for another file.
    AskWhere,
    /// A scenario file was opened.
    Opened(Box<Session>, PathBuf),
    /// A recovery file's edits were read (or why not).
    Restored(Result<(Box<Session>, Option<PathBuf>), String>, PathBuf),
    /// A declined recovery file was removed (or why not).
    Discarded(Result<(), String>),
    /// A picture was written here (and its page there).
    PictureWritten(PathBuf, Option<PathBuf>),
    /// An effect failed: the message to show.
    Failed(String),
    /// An adjudication request that ran on a worker came to this (the main loop hands it
    /// over; a stale one is dropped).
    Adjudicated(super::session::Finished),
}
