//! The main loop's effect runner: it carries out the [`Effect`]s that
//! [`super::app::App::update`] returns (reading and writing files, quitting) and hands back
//! what they came to as [`Done`]. The TUI's only file I/O once the loop runs.

use std::path::{Path, PathBuf};

use super::app::App;
use super::browser::Browser;
use super::effect::{Done, Effect};
use super::session::DiskStamp;
use super::session::compare;
use dipsandbox_core::model::scenario::Scenario;

/// Carries out one effect; what it came to, if anything, goes back to `update`.
pub fn perform(app: &mut App, effect: Effect) -> Option<Done> {
    match effect {
        Effect::Browse => Some(Done::Browsed(Box::new(Browser::open(&app.folders)))),
        Effect::Preview(path) => {
            let p = super::browser::preview(&path);
            Some(Done::Previewed(path, p))
        }
        Effect::Save {
            path,
            force,
            or_save_as,
        } => Some(save(app, path, force, or_save_as)),
        Effect::Open(path) => {
            let stamp = DiskStamp::of(&path);
            let loaded = Scenario::load(&path)
                .map_err(|e| e.to_string())
                .and_then(|s| app.session.reopen(s, Some(path.clone()), None));
            Some(match loaded {
                Ok(mut s) => {
                    s.assume_disk_stamp(stamp);
                    Done::Opened(Box::new(s), path)
                }
                Err(e) => Done::Failed(e),
            })
        }
        Effect::Restore {
            file,
            target,
            stamp,
        } => {
            let loaded = Scenario::load(&file)
                .map_err(|e| e.to_string())
                .and_then(|s| app.session.reopen(s, target.clone(), None));
            Some(Done::Restored(
                loaded.map(|mut s| {
                    s.mark_unsaved();
                    if target.is_some() {
                        s.assume_disk_stamp(stamp);
                    }
                    (Box::new(s), target)
                }),
                file,
            ))
        }
        Effect::DiscardRecovery(file) => Some(Done::Discarded(
            std::fs::remove_file(&file).map_err(|e| format!("{}: {e}", file.display())),
        )),
        Effect::RemoveRestored(file) => {
            let _ = std::fs::remove_file(file);
            None
        }
        Effect::WriteRecovery => {
            app.recovery.written = None;
            autosave(app)
        }
        Effect::ClearRecovery => {
            app.recovery.clear();
            None
        }
        Effect::Quit => {
            app.quit = true;
            None
        }
        Effect::WritePicture {
            beside,
            name,
            svg,
            page,
        } => Some(write_picture(
            app,
            beside.as_deref(),
            &name,
            &svg,
            page.as_deref(),
        )),
    }
}

/// Writes a picture as `NAME.svg` beside `beside` (for a bundled scenario or none: in the
/// pictures folder, by default the current folder), and its page as `NAME.html` when there is
/// one; `NAME-2`, `NAME-3`, … when either exists: never over a file.
fn write_picture(
    app: &App,
    beside: Option<&Path>,
    name: &str,
    svg: &str,
    page: Option<&str>,
) -> Done {
    let dir = match beside {
        Some(p) if !is_bundled(app, p) => p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        // A bundled or new scenario: the pictures folder (the current folder).
        _ => app
            .folders
            .pictures
            .clone()
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    for k in 1..=999 {
        let stem = if k == 1 {
            name.to_string()
        } else {
            format!("{name}-{k}")
        };
        let path = dir.join(format!("{stem}.svg"));
        let html = dir.join(format!("{stem}.html"));
        // The page takes the picture's number: both names must be free.
        if page.is_some() && std::fs::symlink_metadata(&html).is_ok() {
            continue;
        }
        match write_new(&path, svg) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                return Done::Failed(format!(
                    "{}: the picture cannot be written: {e}",
                    path.display()
                ));
            }
        }
        let Some(page) = page else {
            return Done::PictureWritten(path, None);
        };
        return match write_new(&html, page) {
            Ok(true) => Done::PictureWritten(path, Some(html)),
            Ok(false) => Done::Failed(format!("{}: appeared meanwhile", html.display())),
            Err(e) => Done::Failed(format!(
                "{}: the page cannot be written: {e}",
                html.display()
            )),
        };
    }
    Done::Failed(format!(
        "{}: {name}.svg to {name}-999.svg all exist; no picture written",
        dir.display()
    ))
}

/// Writes `text` into a new file at `path`: `Ok(false)` when something is there already (a
/// file or a link, never opened, so never overwritten).
fn write_new(path: &Path, text: &str) -> std::io::Result<bool> {
    use std::io::Write;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(mut f) => f
            .write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map(|()| true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether a file is one of the bundled scenarios (never overwritten).
fn is_bundled(app: &App, path: &Path) -> bool {
    let Some(b) = &app.folders.bundled else {
        return false;
    };
    match (b.canonicalize(), path.canonicalize()) {
        (Ok(b), Ok(p)) => p.starts_with(b),
        _ => path.starts_with(b),
    }
}

fn save(app: &App, path: PathBuf, force: bool, or_save_as: bool) -> Done {
    if is_bundled(app, &path) {
        if or_save_as {
            return Done::AskWhere;
        }
        return Done::Failed(
            "bundled scenarios are not overwritten: save as a new file (S)".into(),
        );
    }
    if !force && path.exists() {
        let same = app.session.path.as_deref() == Some(path.as_path());
        if !same || app.session.changed_on_disk() {
            let why = if same {
                "changed on disk since it was opened"
            } else {
                "exists"
            };
            return Done::AskOverwrite(path, why);
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return Done::Failed(format!("{}: cannot create the folder: {e}", dir.display()));
    }
    // A `versus` or `replay` file keeps its header (what it compares) above the scenario.
    let header = app
        .session
        .path
        .as_deref()
        .and_then(compare::kept_header)
        .unwrap_or_default();
    match app.session.scenario().save_below(&path, &header) {
        Ok(()) => {
            let stamp = DiskStamp::of(&path);
            Done::Saved(path, stamp)
        }
        Err(e) => Done::Failed(e.to_string()),
    }
}

/// Brings the recovery file up to date: written while there are unsaved edits, removed when
/// there are none. The main loop calls it after each input; an error is for the status bar.
pub fn autosave(app: &mut App) -> Option<Done> {
    let s = &app.session;
    let source = s.path.as_deref().map(|p| (p, s.disk_stamp()));
    app.recovery
        .sync(s.generation, s.is_dirty(), s.scenario(), source)
        .err()
        .map(|e| Done::Failed(format!("the recovery file could not be written: {e}")))
}

/// Writes the recovery file whatever was written before (on a signal or a panic), and returns
/// where it is when there are unsaved edits.
pub fn write_recovery_now(app: &mut App) -> Option<PathBuf> {
    app.recovery.written = None;
    let _ = autosave(app);
    if app.session.is_dirty() {
        app.recovery.file()
    } else {
        None
    }
}
