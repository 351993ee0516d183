//! Files the commands write: one rule for every output.
//!
//! Every file a command writes (`advance -o`, `minimize -o`, `export -o`, `explain --dot`,
//! `check --junit`, each scenario of `import --to`, the TUI's saves) goes through here, and the
//! rule is the same for all:
//!
//! - **never an input**: a target that is the same file as one the command reads (compared by
//!   device and inode, so also through another name, a symbolic link or a hard link) is refused,
//!   even with `--force`;
//! - **never through a symbolic link**: a link at the target, dangling or not, is refused (the
//!   file it names would be written, which the user did not name);
//! - **never anything but a regular file** (a folder, FIFO, socket or device), and never a
//!   read-only file;
//! - **never an existing file without `--force`** (`replace`);
//! - **atomic**: a temporary file in the same folder, created afresh (never through a link that
//!   is there), written in full and synced, then renamed over the target, then the folder
//!   synced; so the target is always the old file or the new one.
//!
//! [`FolderLock`] holds an output folder for one run (`versus`, `versus merge`, `replay`): a
//! second run into the same folder is refused and told which process holds it.
//!
//! [`Batch`] writes many files into one folder all at once (`import`): each into a temporary
//! folder inside the destination, one sync for them all, then renamed into place; any failure
//! leaves the folder as it was.

use std::collections::HashMap;
use std::fs::Metadata;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Why a file may not be, or could not be, written.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum WriteError {
    /// The target is a file the command reads.
    #[error("{file}: will not write over it: it is the input {input}; write to another file")]
    IsInput {
        /// The target.
        file: String,
        /// The input it is, as the user named it.
        input: String,
    },
    /// The target is a symbolic link (writing would follow it to another file).
    #[error("{file}: will not write through it: it is a symbolic link{to}; name the file itself")]
    Link {
        /// The target.
        file: String,
        /// ` (to …)`, where the link points, or empty.
        to: String,
    },
    /// Something other than a regular file is there.
    #[error("{file}: will not replace it: it is {what}")]
    NotAFile {
        /// The target.
        file: String,
        /// What it is.
        what: &'static str,
    },
    /// A read-only file is there.
    #[error("{file}: will not replace it: the file is read-only")]
    ReadOnly {
        /// The target.
        file: String,
    },
    /// A file is there and replacing was not asked for.
    #[error("{file}: exists; {hint}")]
    Exists {
        /// The target.
        file: String,
        /// How to replace it (`give --force to replace it`).
        hint: String,
    },
    /// The folder to write files into is not a folder.
    #[error("{file}: not a folder; expected a folder to write the files into")]
    NotAFolder {
        /// The path.
        file: String,
    },
    /// Another run is writing the folder ([`FolderLock`]).
    #[error(
        "{file}: another dipsandbox is writing this folder ({holder}); wait for it to end, or write to another folder"
    )]
    Locked {
        /// The folder.
        file: String,
        /// Who holds it, as its lock file says: `process 4242, versus decisions dpjudge, for 12 s`.
        holder: String,
    },
    /// The operating system refused.
    #[error("{file}: cannot write: {message}")]
    Io {
        /// The file.
        file: String,
        /// The operating system's message.
        message: String,
    },
}

impl WriteError {
    /// The file the error is about.
    pub fn file(&self) -> &str {
        match self {
            WriteError::IsInput { file, .. }
            | WriteError::Link { file, .. }
            | WriteError::NotAFile { file, .. }
            | WriteError::ReadOnly { file }
            | WriteError::NotAFolder { file }
            | WriteError::Exists { file, .. }
            | WriteError::Locked { file, .. }
            | WriteError::Io { file, .. } => file,
        }
    }

    /// The message without the file in front.
    pub fn reason(&self) -> String {
        let all = self.to_string();
        all.strip_prefix(self.file())
            .and_then(|r| r.strip_prefix(": "))
            .map_or(all.clone(), str::to_string)
    }
}

/// What identifies a file whatever name it is reached by.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
enum FileId {
    /// Device and inode.
    #[cfg(unix)]
    Inode(u64, u64),
    /// The canonical path (where inodes cannot be had).
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(meta: &Metadata, path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// The files a command reads, which its outputs must never be.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    ids: HashMap<FileId, String>,
}

impl Inputs {
    /// No inputs.
    pub fn new() -> Self {
        Inputs::default()
    }

    /// Adds a file the command reads (`-`: standard input, when it is a file). A file that
    /// cannot be looked at is not added (it cannot be a target either).
    pub fn add(&mut self, path: &Path) {
        if path.as_os_str() == "-" {
            self.add_stdin();
            return;
        }
        if let Ok(meta) = std::fs::metadata(path)
            && let Some(id) = file_id(&meta, path)
        {
            self.ids
                .entry(id)
                .or_insert_with(|| path.display().to_string());
        }
    }

    /// Adds every file of a list.
    pub fn add_all<'a>(&mut self, paths: impl IntoIterator<Item = &'a Path>) {
        for p in paths {
            self.add(p);
        }
    }

    /// Standard input, when it is redirected from a file (`< in.ron`).
    fn add_stdin(&mut self) {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
                return;
            };
            let file = std::fs::File::from(fd);
            if let Ok(meta) = file.metadata()
                && meta.is_file()
                && let Some(id) = file_id(&meta, Path::new("-"))
            {
                self.ids.entry(id).or_insert_with(|| "<stdin>".to_string());
            }
        }
    }

    /// The input `meta` (of `path`) is, if any.
    fn find(&self, meta: &Metadata, path: &Path) -> Option<&str> {
        file_id(meta, path)
            .and_then(|id| self.ids.get(&id))
            .map(String::as_str)
    }
}

/// Whether `path` may be written, by the rule of this module: `inputs` are the files the command
/// reads; an existing file is replaced only when `replace` is true (else the error says `hint`).
pub fn check(path: &Path, inputs: &Inputs, replace: bool, hint: &str) -> Result<(), WriteError> {
    let file = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(WriteError::Io {
                file,
                message: e.to_string(),
            });
        }
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        let to = std::fs::read_link(path)
            .map(|t| format!(" (to {})", t.display()))
            .unwrap_or_default();
        // A link to an input says so: that is the worse mistake.
        if let Ok(real) = std::fs::metadata(path)
            && let Some(input) = inputs.find(&real, path)
        {
            return Err(WriteError::IsInput {
                file,
                input: input.to_string(),
            });
        }
        return Err(WriteError::Link { file, to });
    }
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a folder"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(WriteError::NotAFile { file, what });
    }
    if let Some(input) = inputs.find(&meta, path) {
        return Err(WriteError::IsInput {
            file,
            input: input.to_string(),
        });
    }
    if meta.permissions().readonly() {
        return Err(WriteError::ReadOnly { file });
    }
    if !replace {
        return Err(WriteError::Exists {
            file,
            hint: hint.to_string(),
        });
    }
    Ok(())
}

/// One output of a command: where, the inputs it must not be, and whether an existing file may
/// be replaced. [`Target::check`] it before the work (so that a refusal comes first), and
/// [`Target::write`] it after (which checks again: the folder may have changed meanwhile).
#[derive(Clone, Debug)]
pub struct Target {
    /// The file to write.
    pub path: PathBuf,
    /// The files the command reads.
    pub inputs: Inputs,
    /// Whether an existing file may be replaced (`--force`).
    pub replace: bool,
    /// What the refusal of an existing file says.
    pub hint: String,
}

impl Target {
    /// A target that replaces an existing file only with `replace` (`--force`).
    pub fn new(path: &Path, inputs: Inputs, replace: bool) -> Self {
        Target {
            path: path.to_path_buf(),
            inputs,
            replace,
            hint: "give --force to replace it".into(),
        }
    }

    /// Whether it may be written ([`check`]).
    pub fn check(&self) -> Result<(), WriteError> {
        check(&self.path, &self.inputs, self.replace, &self.hint)
    }

    /// Writes `text` atomically, after checking again.
    pub fn write(&self, text: &str) -> Result<(), WriteError> {
        self.check()?;
        write_unchecked(&self.path, text.as_bytes())
    }

    /// Writes `bytes` (a binary file: a PNG) atomically, after checking again.
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<(), WriteError> {
        self.check()?;
        write_unchecked(&self.path, bytes)
    }
}

/// Writes a file atomically ([`Target::write`]) where no input is at stake (a file the user
/// chose to save over, a recovery file): whatever is at the path must be a regular, writable
/// file — a folder, link, FIFO, device or read-only file is never replaced.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), WriteError> {
    check(path, &Inputs::new(), true, "")?;
    write_unchecked(path, text.as_bytes())
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A new file beside `path`, hidden and named after it and this process (`.NAME.tmpPID.XXXXXX`,
/// so that [`remove_stale_temporaries`] can tell a killed writer's), created afresh by
/// `tempfile` (an existing file or link of that name is never opened) with the permissions a
/// file the command creates gets (`0666` less the umask, not `tempfile`'s private `0600`); it is
/// removed when dropped unless persisted.
fn create_temporary(dir: &Path, name: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let prefix = format!(".{name}.tmp{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

fn write_unchecked(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let file = path.display().to_string();
    let io = |e: std::io::Error| WriteError::Io {
        file: file.clone(),
        message: e.to_string(),
    };
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temporaries(dir, &name);
    let mut tmp = create_temporary(dir, &name).map_err(io)?;
    // On any failure the temporary file is dropped, which removes it.
    write_and_sync(tmp.as_file_mut(), bytes).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    // The rename itself is made durable by syncing the folder (where the system allows it).
    sync_folder(dir);
    Ok(())
}

/// Writes all of `bytes` and syncs.
fn write_and_sync(f: &mut std::fs::File, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(feature = "test-hooks")]
    if let Some(pause) = hooks::write_pause() {
        let (a, b) = bytes.split_at(bytes.len() / 2);
        f.write_all(a)?;
        f.sync_all()?;
        std::thread::sleep(pause);
        f.write_all(b)?;
        return f.sync_all();
    }
    f.write_all(bytes)?;
    f.sync_all()
}

fn sync_folder(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Whether a process of this id runs, where that can be told (`/proc`); None elsewhere.
fn process_alive(pid: u32) -> Option<bool> {
    if !Path::new("/proc/self").exists() {
        return None;
    }
    Some(Path::new(&format!("/proc/{pid}")).exists())
}

/// Temporary files of `name` left by a writer that was killed before its rename
/// (`.NAME.tmpPID…` whose process is gone) are removed, so that an interrupted write leaves
/// nothing behind once the next write of the same file runs. Only where a process's liveness
/// can be told (`/proc`); elsewhere they stay, hidden.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    if process_alive(std::process::id()).is_none() {
        return;
    }
    let prefix = format!(".{name}.tmp");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|p| p.split('.').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && process_alive(pid) == Some(false) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The prefix of the temporary folders of [`Batch`].
const BATCH_PREFIX: &str = ".dipsandbox-batch.tmp";

/// Many files written into one folder all at once: [`Batch::begin`] checks every target first
/// (by the rule of [`check`]) and makes a temporary folder inside the destination;
/// [`Batch::add`] writes each file there (no sync); [`Batch::commit`] syncs once, moves them
/// into place and syncs the folder. Until the commit ends, any failure — or dropping the batch —
/// leaves the destination as it was: files moved in are taken out again, replaced files are put
/// back, the temporary folder goes, and so does the destination when the batch made it.
#[derive(Debug)]
pub struct Batch {
    dir: PathBuf,
    tmp: PathBuf,
    /// The folders the batch created (the destination and missing parents), deepest first.
    created: Vec<PathBuf>,
    names: Vec<String>,
    written: usize,
    inputs: Inputs,
    replace: bool,
    hint: String,
    done: bool,
}

impl Batch {
    /// Checks that each of `names` (file names, no folders) may be written in `dir`, creates
    /// `dir` when it is missing and the temporary folder.
    pub fn begin(
        dir: &Path,
        names: Vec<String>,
        inputs: &Inputs,
        replace: bool,
        hint: &str,
    ) -> Result<Batch, WriteError> {
        let io = |p: &Path, e: std::io::Error| WriteError::Io {
            file: p.display().to_string(),
            message: e.to_string(),
        };
        // The folder itself: a folder (a link to one is fine: the user named it), made when
        // missing.
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(WriteError::NotAFolder {
                    file: dir.display().to_string(),
                });
            }
            Err(_) => {}
        }
        for n in &names {
            check(&dir.join(n), inputs, replace, hint)?;
        }
        let mut created = Vec::new();
        let mut missing = Some(dir);
        while let Some(d) = missing {
            if d.as_os_str().is_empty() || std::fs::symlink_metadata(d).is_ok() {
                break;
            }
            created.push(d.to_path_buf());
            missing = d.parent();
        }
        let mut batch = Batch {
            dir: dir.to_path_buf(),
            tmp: PathBuf::new(),
            created,
            names,
            written: 0,
            inputs: inputs.clone(),
            replace,
            hint: hint.to_string(),
            done: false,
        };
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        remove_stale_batches(dir);
        // A fresh folder named after this process (so that [`remove_stale_batches`] can tell a
        // killed import's); the batch removes it itself (its drop, or the commit), so it is
        // kept from `tempfile`'s own removal.
        batch.tmp = tempfile::Builder::new()
            .prefix(&format!("{BATCH_PREFIX}{}.", std::process::id()))
            .tempdir_in(dir)
            .map_err(|e| io(dir, e))?
            .keep();
        Ok(batch)
    }

    /// The destination of the `i`-th file.
    pub fn path(&self, i: usize) -> PathBuf {
        self.dir.join(self.names.get(i).map_or("", String::as_str))
    }

    /// Writes the next file (in the order of the names) into the temporary folder.
    pub fn add(&mut self, text: &str) -> Result<(), WriteError> {
        let Some(name) = self.names.get(self.written) else {
            return Err(WriteError::Io {
                file: self.dir.display().to_string(),
                message: "more files than names".into(),
            });
        };
        let p = self.tmp.join(name);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&p)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| WriteError::Io {
                file: self.dir.join(name).display().to_string(),
                message: e.to_string(),
            })?;
        self.written += 1;
        Ok(())
    }

    /// Syncs the written files once, then moves each into place (checking each target again;
    /// without `replace`, a file that appeared meanwhile is not replaced), then syncs the
    /// folder. On a failure, what was moved is undone.
    pub fn commit(mut self) -> Result<(), WriteError> {
        if self.written != self.names.len() {
            return Err(WriteError::Io {
                file: self.dir.display().to_string(),
                message: format!("{} of {} files written", self.written, self.names.len()),
            });
        }
        sync_files(&self.tmp, &self.names).map_err(|e| WriteError::Io {
            file: self.dir.display().to_string(),
            message: e.to_string(),
        })?;
        // For each file moved in: its index, and whether an old file was moved aside for it.
        let mut moved: Vec<(usize, bool)> = Vec::with_capacity(self.names.len());
        let mut failure = None;
        for i in 0..self.names.len() {
            match self.place(i) {
                Ok(old) => moved.push((i, old)),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = failure {
            // Undo, last first: each new file back out, each old one back in.
            let mut kept = false;
            for (i, old) in moved.into_iter().rev() {
                let Some(name) = self.names.get(i) else {
                    continue;
                };
                let target = self.dir.join(name);
                let _ = std::fs::rename(&target, self.tmp.join(name));
                if old && std::fs::rename(self.backup().join(name), &target).is_err() {
                    kept = true;
                }
            }
            if kept {
                // An old file could not be put back: the temporary folder stays, with it.
                self.done = true;
                return Err(WriteError::Io {
                    file: e.file().to_string(),
                    message: format!(
                        "{}; the files it replaced could not all be put back: they are in {}",
                        e.reason(),
                        self.backup().display()
                    ),
                });
            }
            return Err(e);
        }
        sync_folder(&self.dir);
        self.done = true;
        let _ = std::fs::remove_dir_all(&self.tmp);
        Ok(())
    }

    /// Where replaced files wait until the batch is committed.
    fn backup(&self) -> PathBuf {
        self.tmp.join(".replaced")
    }

    /// Moves the `i`-th file into place; whether an old file was moved aside for it.
    fn place(&self, i: usize) -> Result<bool, WriteError> {
        let name = self.names.get(i).map_or("", String::as_str);
        let target = self.dir.join(name);
        let from = self.tmp.join(name);
        let io = |p: &Path, e: std::io::Error| WriteError::Io {
            file: p.display().to_string(),
            message: e.to_string(),
        };
        if !self.replace {
            // A new name only: the link fails when something took the name meanwhile, and the
            // rule says what it is.
            return match place_new(&from, &target) {
                Ok(()) => Ok(false),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    Err(check(&target, &self.inputs, false, &self.hint)
                        .err()
                        .unwrap_or_else(|| io(&target, e)))
                }
                Err(e) => Err(io(&target, e)),
            };
        }
        check(&target, &self.inputs, self.replace, &self.hint)?;
        let old = std::fs::symlink_metadata(&target).is_ok();
        if !old {
            place_new(&from, &target).map_err(|e| io(&target, e))?;
            return Ok(false);
        }
        let backup = self.backup();
        if !backup.exists() {
            std::fs::create_dir(&backup).map_err(|e| io(&backup, e))?;
        }
        std::fs::rename(&target, backup.join(name)).map_err(|e| io(&target, e))?;
        if let Err(e) = std::fs::rename(&from, &target) {
            let _ = std::fs::rename(backup.join(name), &target);
            return Err(io(&target, e));
        }
        Ok(true)
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
        // The folders the batch made, when nothing else was put in them meanwhile.
        for d in &self.created {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Moves a new file into place without replacing one that appeared meanwhile: a hard link (which
/// fails when the name is taken), then the temporary name removed; where links cannot be made,
/// a rename after a last look.
fn place_new(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::hard_link(from, to) {
        Ok(()) => std::fs::remove_file(from),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
        Err(_) => {
            if std::fs::symlink_metadata(to).is_ok() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "a file of that name appeared while writing",
                ));
            }
            std::fs::rename(from, to)
        }
    }
}

/// Batches of up to this many files are synced file by file even on Linux: `syncfs` waits for
/// every dirty page of the whole file system (another program's build too), which costs a small
/// batch far more than its own few files.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const SYNC_ONE_BY_ONE: usize = 32;

/// Makes the files written into `dir` durable: each file synced in turn, then the folder; on
/// Linux a batch of more than [`SYNC_ONE_BY_ONE`] files with one `syncfs` for the whole file
/// system instead (one wait, however many files).
fn sync_files(dir: &Path, names: &[String]) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    if names.len() > SYNC_ONE_BY_ONE {
        let d = std::fs::File::open(dir)?;
        rustix::fs::syncfs(&d)?;
        return Ok(());
    }
    for n in names {
        std::fs::File::open(dir.join(n))?.sync_all()?;
    }
    sync_folder(dir);
    Ok(())
}

/// Temporary folders of batches whose process is gone (killed before it could clean up).
fn remove_stale_batches(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let Some(pid) = e
            .file_name()
            .to_str()
            .and_then(|f| f.strip_prefix(BATCH_PREFIX))
            .and_then(|p| p.split('.').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && process_alive(pid) == Some(false) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    use super::{Path, WriteError};

    /// The write under `write_atomic` (temporary file, then rename) without its checks.
    pub fn write_unchecked(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        super::write_unchecked(path, bytes)
    }

    /// The environment variable that holds every file write half-way through for that many
    /// milliseconds (the first half written and synced), so that the interruption tests can
    /// kill the writer there. Read only in builds with the `test-hooks` feature (the tests');
    /// a release build never looks at it.
    pub const WRITE_PAUSE_VAR: &str = "DIPSANDBOX_WRITE_PAUSE_MS";

    /// The pause [`WRITE_PAUSE_VAR`] asks for, if it is set to a number.
    pub(super) fn write_pause() -> Option<std::time::Duration> {
        std::env::var(WRITE_PAUSE_VAR)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .map(std::time::Duration::from_millis)
    }
}

/// The lock file of an output folder ([`FolderLock`]).
pub const LOCK_FILE: &str = ".dipsandbox.lock";

/// An output folder held by this process while a run writes it: the file [`LOCK_FILE`] inside
/// it, locked with the operating system's advisory lock, which the system releases when the
/// process ends however it ends (a `kill -9` leaves a file that the next run simply takes). The
/// file says who holds it (`process 4242, versus decisions dpjudge`), for the message of a run
/// that finds it held. Dropping the lock removes the file.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
    file: std::fs::File,
}

impl FolderLock {
    /// Takes the folder `dir` (created if missing) for `what` (`versus decisions dpjudge`), or
    /// says who holds it.
    pub fn take(dir: &Path, what: &str) -> Result<FolderLock, WriteError> {
        let shown = dir.display().to_string();
        let io = |e: std::io::Error| WriteError::Io {
            file: shown.clone(),
            message: e.to_string(),
        };
        match std::fs::symlink_metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(m) if m.file_type().is_symlink() && dir.is_dir() => {}
            Ok(_) => return Err(WriteError::NotAFolder { file: shown }),
            Err(_) => std::fs::create_dir_all(dir).map_err(io)?,
        }
        let path = dir.join(LOCK_FILE);
        // A lock file removed by its holder between our open and our lock is a file no one
        // will look at again: try again on the new one.
        for _ in 0..8 {
            // Never through a link, never anything but a regular file: an existing lock file is
            // opened only when it is one (and checked again once open); a missing one is made
            // afresh (`create_new` does not follow a link that appears in between).
            let lock_io = |e: std::io::Error| WriteError::Io {
                file: path.display().to_string(),
                message: e.to_string(),
            };
            let file = match std::fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(WriteError::Link {
                        file: path.display().to_string(),
                        to: std::fs::read_link(&path)
                            .map(|t| {
                                format!(
                                    " (to {})",
                                    crate::base::text::cut(&t.display().to_string())
                                )
                            })
                            .unwrap_or_default(),
                    });
                }
                Ok(m) if !m.is_file() => {
                    return Err(WriteError::NotAFile {
                        file: path.display().to_string(),
                        what: "not a regular file",
                    });
                }
                Ok(_) => std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .map_err(lock_io)?,
                Err(_) => match std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create_new(true)
                    .open(&path)
                {
                    Ok(f) => f,
                    // Made by another run in between: look again.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(lock_io(e)),
                },
            };
            if !file.metadata().is_ok_and(|m| m.is_file()) {
                return Err(WriteError::NotAFile {
                    file: path.display().to_string(),
                    what: "not a regular file",
                });
            }
            // A lock file with another name elsewhere (a hard link) would have the holder's line
            // written into that other file: refused.
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                if file.metadata().is_ok_and(|m| m.nlink() > 1) {
                    return Err(WriteError::NotAFile {
                        file: path.display().to_string(),
                        what: "a file with other names (a hard link), not a lock file of its own",
                    });
                }
            }
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let holder = crate::base::source::read_head(&path, 512)
                        .map(|h| crate::base::text::cut(h.text.lines().next().unwrap_or("")))
                        .unwrap_or_default();
                    return Err(WriteError::Locked {
                        file: shown,
                        holder: if holder.is_empty() {
                            "a process that has not said who it is yet".into()
                        } else {
                            holder_words(&holder)
                        },
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
            let same = match (file.metadata(), std::fs::symlink_metadata(&path)) {
                (Ok(a), Ok(b)) => file_id(&a, &path) == file_id(&b, &path),
                _ => false,
            };
            if !same {
                continue;
            }
            let started = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let line = format!(
                "process {}, {}, started {started}\n",
                std::process::id(),
                crate::base::text::cut(what)
            );
            let mut f = &file;
            f.set_len(0)
                .and_then(|()| f.write_all(line.as_bytes()))
                .map_err(io)?;
            return Ok(FolderLock { path, file });
        }
        Err(io(std::io::Error::other(
            "its lock file kept changing under this run",
        )))
    }
}

/// `process 4242, versus decisions dpjudge, started 1764358800` as a message says it: `process
/// 4242, versus decisions dpjudge, for 12 s`.
fn holder_words(line: &str) -> String {
    let Some((head, started)) = line.rsplit_once(", started ") else {
        return line.to_string();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    match started.trim().parse::<u64>() {
        Ok(t) if t <= now => format!("{head}, for {} s", now - t),
        _ => head.to_string(),
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked: a run that opened the file and waits for it finds it gone
        // and opens the new one.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}
