//! The scenario browser's data: the bundled `scenarios/` tree and the user's scenario folder,
//! a filter typed by the user, and a preview of the highlighted file.
//!
//! The walk is bounded: linked folders are not followed (a link such as `self -> .` or
//! `up -> ..` would list the tree again and again), a folder reached twice (a bind mount) is
//! walked once, and at most [`MAX_FILES`] files, [`MAX_ENTRIES`] folder entries and
//! [`MAX_DEPTH`] levels are looked at; the browser says so when it left anything out. A preview
//! reads at most [`PREVIEW_BYTES`] of a file.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use dipsandbox_core::base::text::cut_after;
use dipsandbox_core::model::scenario::{Scenario, Words};

/// The most files the browser lists.
pub const MAX_FILES: usize = 10_000;
/// The most folder entries (files, folders, anything) the browser looks at.
pub const MAX_ENTRIES: usize = 200_000;
/// The deepest folder level the browser walks (the scenario folder itself is level 0).
pub const MAX_DEPTH: usize = 32;
/// How much of a file a preview reads: a larger file is previewed by its first lines.
pub const PREVIEW_BYTES: u64 = 64 * 1024;
/// The most lines of a large file's head a preview keeps, each cut to [`PREVIEW_LINE_CHARS`].
pub const PREVIEW_LINES: usize = 40;
/// The longest line of a preview (an error message included).
pub const PREVIEW_LINE_CHARS: usize = 2_000;
/// How many previews are kept, so that moving back and forth reads nothing again.
const PREVIEW_CACHE: usize = 64;

/// Where the browser looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folders {
    /// The bundled scenarios (`./scenarios`, else the source tree's).
    pub bundled: Option<PathBuf>,
    /// The user's scenario folder (`$DIPSANDBOX_DATA_DIR`, else the platform data folder).
    pub user: Option<PathBuf>,
    /// The user's config folder (`$DIPSANDBOX_CONFIG_DIR`, else the platform config folder).
    pub config: Option<PathBuf>,
    /// Where recovery files go (`$DIPSANDBOX_DATA_DIR/.recovery`, else `recovery` in the
    /// platform data folder).
    pub recovery: Option<PathBuf>,
    /// Where `W` writes the picture and page of a bundled or new scenario, which has no folder
    /// of its own (`None`: the current folder; tests give a folder of their own).
    pub pictures: Option<PathBuf>,
}

impl Folders {
    /// The folders from the environment and the platform's conventions.
    pub fn from_env() -> Folders {
        let proj = directories::ProjectDirs::from("", "", "dipsandbox");
        let env_dir = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let data = env_dir("DIPSANDBOX_DATA_DIR");
        let recovery = match &data {
            Some(d) => Some(d.join(".recovery")),
            None => proj.as_ref().map(|p| p.data_dir().join("recovery")),
        };
        let user = data.or_else(|| proj.as_ref().map(|p| p.data_dir().join("scenarios")));
        let config = env_dir("DIPSANDBOX_CONFIG_DIR")
            .or_else(|| proj.as_ref().map(|p| p.config_dir().into()));
        let bundled = [
            PathBuf::from("scenarios"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
        ]
        .into_iter()
        .find(|p| p.is_dir());
        Folders {
            bundled,
            user,
            config,
            recovery,
            pictures: None,
        }
    }
}

/// One file the browser offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// How it is shown: `bundled: datc/6.F.16.ron`.
    pub label: String,
    /// Its title, source and description (read once when the folders are listed), if it is a
    /// scenario file small enough to preview.
    pub words: Option<Words>,
    /// Whether it is a variant of another file in its folder (`6.F.16-1971.ron` beside
    /// `6.F.16.ron`: the same case under other rules). A variant ranks after its base case.
    pub variant: bool,
    /// The label, the file's name without `.ron`, the title, the source and the description in
    /// lower case: what the filter is matched against.
    lower: [String; 5],
}

impl Entry {
    /// An entry of a file, shown as `label`, with the words read from it.
    pub fn new(path: PathBuf, label: String, words: Option<Words>) -> Entry {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let w = words.clone().unwrap_or_default();
        let lower = [
            label.to_lowercase(),
            stem,
            w.title.to_lowercase(),
            w.source.to_lowercase(),
            w.description.to_lowercase(),
        ];
        Entry {
            path,
            label,
            words,
            variant: false,
            lower,
        }
    }

    /// Whether the filter's words (lower case, from [`super::menu::words`]) match this file,
    /// and how well: every word appears in the label or in the title, source or description.
    pub fn hit(&self, words: &[String], filter: &str) -> Option<Hit> {
        let [label, stem, title, source, description] = &self.lower;
        let mut why = None;
        for w in words {
            if label.contains(w.as_str()) {
                continue;
            }
            let field = [
                ("title", title, 0),
                ("source", source, 1),
                ("description", description, 2),
            ]
            .into_iter()
            .find(|(_, text, _)| text.contains(w.as_str()))?;
            if why.is_none() {
                why = Some((field.0, field.2, w.clone()));
            }
        }
        let f = filter.trim().to_lowercase();
        let exact = !f.is_empty() && (*stem == f || *title == f);
        let rank = if exact {
            Rank::Exact
        } else if why.is_none() {
            Rank::Name
        } else {
            Rank::Words
        };
        let why = why.and_then(|(field, i, w)| {
            let words = self.words.as_ref()?;
            let text = [&words.title, &words.source, &words.description][i];
            let (text, at) = snippet(text, &w);
            Some(Why { field, text, at })
        });
        Some(Hit { rank, why })
    }
}

/// How well a file matches the browser's filter; the better come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// The filter is the file's name (without `.ron`) or its title, exactly (any case).
    Exact,
    /// Every word of the filter is in the file's label.
    Name,
    /// Some word is only in its title, source or description.
    Words,
}

/// Why a file is listed under the filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// How well it matches.
    pub rank: Rank,
    /// Where a word of the filter was found when not in the label.
    pub why: Option<Why>,
}

/// Where a word of the browser's filter was found: `title: …Pandin's paradox…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// The field: `title`, `source` or `description`.
    pub field: &'static str,
    /// The text around the word, on one line, with "…" where it is cut.
    pub text: String,
    /// Where the word starts in `text` (characters).
    pub at: usize,
}

impl Why {
    /// `field: text` in at most `room` characters: from the word on when the text before it
    /// does not leave it room, cut with "…".
    pub fn fit(&self, room: usize) -> String {
        let full = format!("{}: {}", self.field, self.text);
        let n = full.chars().count();
        let word_end = self.field.len() + 2 + self.at + 8;
        let text = if n <= room || word_end <= room || self.at == 0 {
            full
        } else {
            let rest: String = self.text.chars().skip(self.at).collect();
            format!("{}: …{rest}", self.field)
        };
        if text.chars().count() <= room {
            text
        } else if room == 0 {
            String::new()
        } else {
            let mut t: String = text.chars().take(room - 1).collect();
            t.push('…');
            t
        }
    }
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.text)
    }
}

/// How many characters a [`Hit`]'s snippet keeps before the word found (it starts at a word)
/// and after it (the view cuts it to the room there is).
const SNIPPET_BEFORE: usize = 12;
const SNIPPET_AFTER: usize = 40;

/// The part of `text` around the first place `word` (lower case) appears, on one line, cut
/// with "…" where it is cut, and where the word starts in it (characters).
fn snippet(text: &str, word: &str) -> (String, usize) {
    let flat: Vec<char> = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let lower: String = flat.iter().collect::<String>().to_lowercase();
    let at = lower
        .find(word)
        .map_or(0, |b| lower.get(..b).map_or(0, |s| s.chars().count()))
        .min(flat.len());
    // At most SNIPPET_BEFORE characters before the match, from the start of a word.
    let mut start = at.saturating_sub(SNIPPET_BEFORE);
    while start > 0 && start < at && flat.get(start - 1) != Some(&' ') {
        start += 1;
    }
    let end = (at + word.chars().count() + SNIPPET_AFTER).min(flat.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let word_at = out.chars().count() + (at - start);
    out.extend(flat.get(start..end).unwrap_or_default());
    if end < flat.len() {
        out.push('…');
    }
    (out, word_at)
}

/// Marks the entries that are variants of another in the same folder: a file `X-Y.ron` where
/// `X.ron` (up to any `-` of the name) is listed too.
fn mark_variants(entries: &mut [Entry]) {
    let stems: HashSet<(Option<PathBuf>, String)> = entries
        .iter()
        .filter_map(|e| Some((e.path.parent().map(Path::to_path_buf), stem(&e.path)?)))
        .collect();
    for e in entries.iter_mut() {
        let Some(s) = stem(&e.path) else { continue };
        let dir = e.path.parent().map(Path::to_path_buf);
        e.variant = s.match_indices('-').any(|(i, _)| {
            s.get(..i)
                .is_some_and(|base| stems.contains(&(dir.clone(), base.to_string())))
        });
    }
}

/// A file's name without its extension.
fn stem(path: &Path) -> Option<String> {
    Some(path.file_stem()?.to_string_lossy().into_owned())
}

/// The words of a file for the browser's search: read (at most [`PREVIEW_BYTES`]) and parsed
/// without looking anything up. `None` for a larger file or one that is not a scenario.
pub fn read_words(path: &Path) -> Option<Words> {
    let head = dipsandbox_core::base::source::read_head(path, PREVIEW_BYTES).ok()?;
    if !head.whole {
        return None;
    }
    dipsandbox_core::model::scenario::words(&head.text)
}

/// A preview of a file: its title, source and phase, or why it does not load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preview {
    /// It loads.
    Ok {
        /// Title.
        title: String,
        /// Source.
        source: String,
        /// Phase.
        phase: String,
        /// Description.
        description: String,
        /// Number of orders.
        orders: usize,
    },
    /// It does not load: the located error.
    Error(String),
    /// Too large to preview in full (more than [`PREVIEW_BYTES`]): its size and first lines.
    Head {
        /// Its size in bytes.
        size: u64,
        /// Its first lines (at most [`PREVIEW_LINES`]).
        lines: Vec<String>,
    },
}

/// The browser's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Browser {
    /// Every file found.
    pub entries: Vec<Entry>,
    /// The filter typed so far.
    pub filter: String,
    /// The highlighted row among the filtered entries.
    pub row: usize,
    /// The preview of the highlighted file.
    pub preview: Option<(PathBuf, Preview)>,
    /// What the listing left out, if anything (linked folders, past the limits).
    pub note: Option<String>,
    /// How far the preview is scrolled (rows; the view stops at its last line). Back to the
    /// top when another file is highlighted.
    pub preview_scroll: u16,
    /// Previews made so far (at most [`PREVIEW_CACHE`]).
    cache: HashMap<PathBuf, Preview>,
}

impl Browser {
    /// Lists the `.ron` files of the folders (sorted naturally, `6.A.2` before `6.A.10`) and
    /// previews the first (file I/O: for the main loop's effects only).
    pub fn open(folders: &Folders) -> Browser {
        let mut entries = Vec::new();
        let mut walk = Walk::default();
        for (tag, dir) in [("bundled", &folders.bundled), ("yours", &folders.user)] {
            let Some(dir) = dir else { continue };
            let mut files = walk.collect(dir);
            files.sort_by_cached_key(|p| dipsandbox_core::tools::check::natural_key(p));
            for f in files {
                let rel = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
                let words = read_words(&f);
                entries.push(Entry::new(f, format!("{tag}: {rel}"), words));
            }
        }
        mark_variants(&mut entries);
        let mut b = Browser {
            entries,
            filter: String::new(),
            row: 0,
            preview: None,
            note: walk.note(),
            preview_scroll: 0,
            cache: HashMap::new(),
        };
        b.load_preview();
        b
    }

    /// The entries that match the filter, each with why: every word of it appears in the label,
    /// the title, the source or the description (any case). An exact match of the file's name
    /// or title comes first, then the files whose label has every word, then the others; in
    /// each group a base case comes before its rule variants, else the listing's order.
    pub fn hits(&self) -> Vec<(&Entry, Hit)> {
        let words = super::menu::words(&self.filter);
        let mut out: Vec<(&Entry, Hit)> = self
            .entries
            .iter()
            .filter_map(|e| e.hit(&words, &self.filter).map(|h| (e, h)))
            .collect();
        out.sort_by_key(|(e, h)| (h.rank, e.variant));
        out
    }

    /// The entries that match the filter, in the order shown ([`Browser::hits`]).
    pub fn visible(&self) -> Vec<&Entry> {
        self.hits().into_iter().map(|(e, _)| e).collect()
    }

    /// The highlighted entry.
    pub fn current(&self) -> Option<&Entry> {
        self.visible().get(self.row).copied()
    }

    /// Moves the highlight by `delta` rows.
    pub fn move_by(&mut self, delta: isize) {
        let n = self.visible().len();
        if n == 0 {
            self.row = 0;
        } else {
            self.row = (self.row as isize + delta).clamp(0, n as isize - 1) as usize;
        }
        self.show_cached_preview();
    }

    /// Types a character into the filter.
    pub fn type_char(&mut self, c: char) {
        self.filter.push(c);
        self.row = 0;
        self.show_cached_preview();
    }

    /// Deletes the last character of the filter.
    pub fn backspace(&mut self) {
        self.filter.pop();
        self.row = 0;
        self.show_cached_preview();
    }

    /// Clears the filter: every file is listed again.
    pub fn clear_filter(&mut self) {
        self.filter.clear();
        self.row = 0;
        self.show_cached_preview();
    }

    /// The highlighted file when its preview is not shown yet and was not made before: it is to
    /// be read (by the main loop) and given back with [`Browser::set_preview`].
    pub fn wanted_preview(&self) -> Option<PathBuf> {
        let path = &self.current()?.path;
        let shown = self.preview.as_ref().is_some_and(|(p, _)| p == path);
        (!shown && !self.cache.contains_key(path)).then(|| path.clone())
    }

    /// Scrolls the preview by `delta` rows (from its top; the view stops at its last line).
    pub fn scroll_preview(&mut self, delta: i32) {
        let now = i32::from(self.preview_scroll);
        self.preview_scroll = u16::try_from((now + delta).max(0)).unwrap_or(u16::MAX);
    }

    /// Shows the preview of the highlighted file if it was made before (else none, until it is
    /// read). Reads nothing.
    fn show_cached_preview(&mut self) {
        let Some(path) = self.current().map(|e| e.path.clone()) else {
            self.preview = None;
            return;
        };
        if self.preview.as_ref().is_some_and(|(p, _)| *p == path) {
            return;
        }
        self.preview_scroll = 0;
        self.preview = self.cache.get(&path).map(|p| (path, p.clone()));
    }

    /// Keeps the preview of a file, and shows it if the file is still highlighted.
    pub fn set_preview(&mut self, path: PathBuf, preview: Preview) {
        if self.cache.len() >= PREVIEW_CACHE {
            self.cache.clear();
        }
        self.cache.insert(path, preview);
        self.show_cached_preview();
    }

    /// Reads the preview of the highlighted file, if it is not shown yet (file I/O: for the
    /// main loop's effects only).
    pub fn load_preview(&mut self) {
        if let Some(path) = self.wanted_preview() {
            let p = preview(&path);
            self.set_preview(path, p);
        } else {
            self.show_cached_preview();
        }
    }
}

/// The preview of a file: it is read only up to [`PREVIEW_BYTES`] (a larger file shows its
/// first lines), and every line shown is cut to [`PREVIEW_LINE_CHARS`].
pub fn preview(path: &Path) -> Preview {
    let head = match dipsandbox_core::base::source::read_head(path, PREVIEW_BYTES) {
        Ok(h) => h,
        Err(e) => return Preview::Error(cut_line(&e.to_string())),
    };
    if !head.whole {
        let lines = head
            .text
            .lines()
            .take(PREVIEW_LINES)
            .map(cut_line)
            .collect::<Vec<_>>();
        return Preview::Head {
            size: head.size,
            lines,
        };
    }
    match Scenario::from_ron(&head.text, &path.display().to_string()) {
        Ok(s) => Preview::Ok {
            title: cut_line(&s.title),
            source: cut_line(&s.source),
            phase: s.phase.to_string(),
            description: cut_line(&s.description),
            orders: s.orders.len(),
        },
        Err(e) => Preview::Error(cut_line(&e.to_string())),
    }
}

/// A text cut to [`PREVIEW_LINE_CHARS`] characters.
fn cut_line(text: &str) -> String {
    cut_after(text, PREVIEW_LINE_CHARS).into_owned()
}

/// A folder's identity, to walk each folder once however it is reached.
#[cfg(unix)]
type DirId = (u64, u64);
#[cfg(not(unix))]
type DirId = PathBuf;

#[cfg(unix)]
fn dir_id(_path: &Path, meta: &std::fs::Metadata) -> Option<DirId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn dir_id(path: &Path, _meta: &std::fs::Metadata) -> Option<DirId> {
    path.canonicalize().ok()
}

/// The walk over the browser's folders, with what it has seen and what it left out.
#[derive(Default)]
struct Walk {
    /// Folders walked.
    seen: HashSet<DirId>,
    /// Files listed so far (over all folders).
    files: usize,
    /// Folder entries looked at so far.
    entries: usize,
    /// Linked folders not followed.
    links: usize,
    /// Folders not walked for being too deep.
    deep: usize,
    /// Whether the file or entry limit stopped the walk.
    cut: bool,
}

impl Walk {
    /// The `.ron` files under `dir` (regular files, or links to them), hidden ones left out.
    fn collect(&mut self, dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        // An explicit stack: no recursion however deep the folders go.
        let mut stack = vec![(dir.to_path_buf(), 0usize)];
        while let Some((d, depth)) = stack.pop() {
            let Ok(meta) = std::fs::metadata(&d) else {
                continue;
            };
            if let Some(id) = dir_id(&d, &meta)
                && !self.seen.insert(id)
            {
                continue;
            }
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                if self.files >= MAX_FILES || self.entries >= MAX_ENTRIES {
                    self.cut = true;
                    return out;
                }
                self.entries += 1;
                let p = e.path();
                let hidden = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                if hidden {
                    // Recovery files and editors' temporary files are not scenarios to offer.
                    continue;
                }
                let Ok(kind) = e.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    if depth < MAX_DEPTH {
                        stack.push((p, depth + 1));
                    } else {
                        self.deep += 1;
                    }
                } else if kind.is_symlink() && p.is_dir() {
                    self.links += 1;
                } else if p.extension().is_some_and(|x| x == "ron")
                    && (kind.is_file() || p.is_file())
                {
                    // A link counts when it leads to a regular file (not to a FIFO or a
                    // device, which would block or never end when previewed).
                    self.files += 1;
                    out.push(p);
                }
            }
        }
        out
    }

    /// What the walk left out, in words (None: nothing).
    fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.cut {
            parts.push(format!(
                "the listing stopped at {} files ({} entries looked at): open others with dipsandbox FILE",
                self.files, self.entries
            ));
        }
        if self.deep > 0 {
            parts.push(format!(
                "{} deeper than {MAX_DEPTH} levels not listed",
                dipsandbox_core::base::text::count(self.deep, "folder")
            ));
        }
        if self.links > 0 {
            parts.push(format!(
                "{} not followed",
                dipsandbox_core::base::text::count(self.links, "linked folder")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}
