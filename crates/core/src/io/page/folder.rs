//! The page of a `versus` or `replay` output folder: a card per class (or per differing phase)
//! with its picture under each engine, the explanation, the count and the file to open in the
//! terminal UI. A class file that cannot be read or adjudicated gets a card that says why.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::PageError;
use super::html::{base64, document, esc};
use crate::engine::{Engine, PhaseInput};
use crate::io::picture::{Crop, PictureOptions, position_svg};
use crate::model::rules::Rules;
use crate::model::scenario::Scenario;
use crate::tools::check::natural_key;
use crate::tools::replay::ReplayHeader;
use crate::tools::versus::summary::{Summary, load_summary};

/// Looks an engine up by the name a summary or a header gives (`None`: not known here).
pub type EngineLookup<'a> = &'a dyn Fn(&str) -> Option<Arc<dyn Engine>>;

/// How a folder page is made.
#[derive(Clone, Debug)]
pub struct FolderOptions {
    /// Each picture's width in pixels.
    pub width: u32,
    /// Cards with pictures: the first this many (the most frequent classes first); the others
    /// are listed without, and the page says so. A folder of hundreds of classes stays a page
    /// a browser opens at once.
    pub max_pictures: usize,
    /// How much of the map each card's pictures show (default: the part the class's orders are
    /// about, the same frame under every engine, since a class is about a few units).
    pub crop: Crop,
}

impl Default for FolderOptions {
    fn default() -> FolderOptions {
        FolderOptions {
            width: 480,
            max_pictures: 60,
            crop: Crop::Action,
        }
    }
}

/// One card: a class of a versus run, a wording row, or a phase a replay wrote.
struct Card {
    /// The heading (the shape and the cause, the words, the game and phase).
    heading: String,
    /// How many positions (or `None` for a replayed phase).
    count: Option<u64>,
    /// Lines of explanation, plain text.
    lines: Vec<String>,
    /// The file, as a path the reader can give to `dipsandbox`.
    file: PathBuf,
    /// The engines to draw it under, with the rules.
    engines: Vec<String>,
    /// The rules to adjudicate under (None: the scenario's own).
    rules: Option<Rules>,
    /// Why the file is not read (a summary that names a file outside its folder).
    bad: Option<String>,
}

/// The page of the output folder `dir` of `versus` (it holds `summary.versus`) or of `replay`
/// (phase files that begin with the replay header).
pub fn folder_page(
    dir: &Path,
    engines: EngineLookup<'_>,
    opts: &FolderOptions,
) -> Result<String, PageError> {
    let (title, intro, cards) = if dir
        .join(crate::tools::versus::summary::SUMMARY_FILE)
        .exists()
    {
        let summary = load_summary(dir).map_err(|e| PageError::Folder(e.to_string()))?;
        versus_cards(dir, &summary)
    } else {
        replay_cards(dir)?
    };
    let mut body = String::new();
    let _ = writeln!(body, "<h1 id=\"title\">{}</h1>", esc(&title));
    body.push_str(&intro);
    body.push_str("<pre id=\"page-errors\" class=\"error\" hidden></pre>\n");
    if cards.len() > opts.max_pictures {
        let _ = writeln!(
            body,
            "<p class=\"meta\" id=\"capped\">{} cards: the first {} with pictures, the others \
             without (<code>report --max-pictures N</code> draws more).</p>",
            cards.len(),
            opts.max_pictures
        );
    }
    body.push_str("<div class=\"cards\">\n");
    for (i, card) in cards.iter().enumerate() {
        card_html(&mut body, i, card, engines, opts, i < opts.max_pictures);
    }
    body.push_str("</div>\n<pre id=\"selftest-result\" hidden></pre>\n");
    Ok(document(&title, FOLDER_STYLE, &body, Some(FOLDER_JS)))
}

/// The cards of a versus run: its classes, then its wording rows.
fn versus_cards(dir: &Path, s: &Summary) -> (String, String, Vec<Card>) {
    let title = format!("versus {} {}", s.a, s.b);
    let rules = Rules::parse_spec(&s.rules).ok();
    let mut intro = format!(
        "<p class=\"meta\" id=\"summary\">{} positions (seed {}, mix {}, map {}, rules {}): \
         {} differ in effect, in {} classes; {} in wording only{}.</p>\n",
        s.positions,
        s.seed,
        esc(&s.mix),
        esc(&s.map),
        esc(&s.rules),
        s.disagreements,
        s.classes.len(),
        s.wording_positions,
        if s.interrupted {
            " — the run was interrupted"
        } else {
            ""
        }
    );
    if s.errors > 0 {
        let _ = writeln!(
            intro,
            "<p class=\"error\">{} positions got no result from an engine{}</p>",
            s.errors,
            s.first_error
                .as_deref()
                .map(|e| format!(": {}", esc(e)))
                .unwrap_or_default()
        );
    }
    let engines = vec![s.a.clone(), s.b.clone()];
    let mut cards = Vec::with_capacity(s.classes.len() + s.wording.len());
    for c in &s.classes {
        let mut lines = vec![c.explains(&s.a, &s.b)];
        lines.extend(c.known.iter().map(|k| k.words()));
        if !c.datc.is_empty() {
            lines.push(format!("like the DATC case {}", c.datc.join(", ")));
        }
        let (file, bad) = class_file(dir, &c.file);
        cards.push(Card {
            heading: format!("{}: {}", c.shape, c.way),
            count: Some(c.count),
            lines,
            file,
            engines: engines.clone(),
            rules,
            bad,
        });
    }
    for w in &s.wording {
        let mut lines = vec![format!("wording only — {}", w.explains(&s.a, &s.b))];
        lines.extend(w.known.iter().map(|k| k.words()));
        let (file, bad) = class_file(dir, &w.file);
        cards.push(Card {
            heading: w.words.clone(),
            count: Some(w.count),
            lines,
            file,
            engines: engines.clone(),
            rules,
            bad,
        });
    }
    (title, intro, cards)
}

/// The cards of a replay folder: every `.ron` file that begins with the replay header.
fn replay_cards(dir: &Path) -> Result<(String, String, Vec<Card>), PageError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| PageError::Folder(format!("{}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort_by_key(|p| natural_key(p));
    let mut cards = Vec::new();
    for f in files {
        let text = match crate::base::source::read_text(&f) {
            Ok(t) => t,
            Err(e) => {
                cards.push(unreadable(f, e.to_string()));
                continue;
            }
        };
        let Some(h) = ReplayHeader::parse(&text) else {
            continue;
        };
        let mut lines = vec![format!(
            "explained by: {}",
            if h.explained_by.is_empty() {
                "no single option".to_string()
            } else {
                h.explained_by.join(", ")
            }
        )];
        lines.push(format!("recorded by {}; rules {}", h.recorder, h.rules));
        lines.extend(h.differences.iter().cloned());
        cards.push(Card {
            heading: format!("{} — {}", h.game, h.phase),
            count: None,
            lines,
            file: f,
            engines: vec![h.engine.clone()],
            rules: Rules::parse_spec(&h.rules).ok(),
            bad: None,
        });
    }
    if cards.is_empty() {
        return Err(PageError::Folder(format!(
            "{}: neither a versus output folder (no summary.versus) nor a replay output folder \
             (no .ron file that begins with `{}`)",
            dir.display(),
            ReplayHeader::MAGIC
        )));
    }
    let intro = format!(
        "<p class=\"meta\" id=\"summary\">{} phases whose result differs from the recording.</p>\n",
        cards.len()
    );
    Ok((format!("replay: {}", dir.display()), intro, cards))
}

/// A card for a file that could not be read.
fn unreadable(file: PathBuf, why: String) -> Card {
    Card {
        heading: file.display().to_string(),
        count: None,
        lines: vec![format!("cannot be read: {why}")],
        file,
        engines: Vec::new(),
        rules: None,
        bad: None,
    }
}

/// The path of a file a summary names, read only inside the folder (never through `..`, an
/// absolute path or a link out); with why not when it is outside.
fn class_file(dir: &Path, name: &str) -> (PathBuf, Option<String>) {
    match crate::base::source::inside(dir, name, "the class file") {
        Ok(p) => (p, None),
        Err(e) => (dir.join(name), Some(e.to_string())),
    }
}

/// Writes one card: its text, then its pictures (when `pictures`), or why there are none.
fn card_html(
    body: &mut String,
    i: usize,
    card: &Card,
    engines: EngineLookup<'_>,
    opts: &FolderOptions,
    pictures: bool,
) {
    let _ = writeln!(
        body,
        "<section class=\"card\" id=\"card-{i}\">\n<h2>{}{}</h2>",
        card.count
            .map(|n| format!("<span class=\"count\">{n}</span> "))
            .unwrap_or_default(),
        esc(&card.heading)
    );
    for l in &card.lines {
        let _ = writeln!(body, "<p>{}</p>", esc(l));
    }
    let file = card.file.display().to_string();
    let _ = writeln!(
        body,
        "<p class=\"meta\">open in the terminal UI: <code class=\"file\">dipsandbox {}</code></p>",
        esc(&file)
    );
    if !pictures {
        body.push_str("</section>\n");
        return;
    }
    match pictures_of(card, engines, opts) {
        Ok(pics) => {
            body.push_str("<div class=\"pictures\">\n");
            for (name, pic) in pics {
                match pic {
                    Ok(svg) => {
                        let _ = writeln!(
                            body,
                            "<figure><img alt=\"{n} picture\" src=\"data:image/svg+xml;base64,{}\"><figcaption>under {n}</figcaption></figure>",
                            base64(svg.as_bytes()),
                            n = esc(&name)
                        );
                    }
                    Err(why) => {
                        let _ = writeln!(
                            body,
                            "<figure class=\"error\"><p>{}: {}</p></figure>",
                            esc(&name),
                            esc(&why)
                        );
                    }
                }
            }
            body.push_str("</div>\n");
        }
        Err(why) => {
            let _ = writeln!(body, "<p class=\"error bad\">{}</p>", esc(&why));
        }
    }
    body.push_str("</section>\n");
}

/// The card's position under each of its engines: the picture, or why there is none.
#[allow(clippy::type_complexity)]
fn pictures_of(
    card: &Card,
    engines: EngineLookup<'_>,
    opts: &FolderOptions,
) -> Result<Vec<(String, Result<String, String>)>, String> {
    if let Some(why) = &card.bad {
        return Err(why.clone());
    }
    if card.engines.is_empty() {
        return Ok(Vec::new());
    }
    let s = Scenario::load(&card.file).map_err(|e| format!("cannot be read: {e}"))?;
    Ok(card
        .engines
        .iter()
        .map(|name| {
            let pic = match engines(name) {
                None => Err(format!("the engine `{name}` is not known here")),
                // The verdicts alone: the picture shows no reasons, nor the retreats.
                Some(e) => {
                    let rules = card.rules.unwrap_or(s.rules);
                    e.verdicts(&PhaseInput::of(&s, &rules))
                        .map_err(|e| e.to_string())
                        .and_then(|phase| {
                            position_svg(
                                &s,
                                Some(&phase),
                                &PictureOptions {
                                    width: opts.width,
                                    legend: false,
                                    title: Some(format!("{name} ({})", rules.name(", "))),
                                    crop: opts.crop,
                                    ..PictureOptions::default()
                                },
                            )
                            .map_err(|e| e.to_string())
                        })
                }
            };
            (name.clone(), pic)
        })
        .collect())
}

/// The folder page's style: cards in a grid.
const FOLDER_STYLE: &str = r#"
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(30em, 1fr)); gap: 1em; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: .3em 1em .8em; }
.card h2 { border: none; margin-top: .4em; }
.count { display: inline-block; min-width: 2em; padding: 0 .4em; background: #24292f; color: #fff; border-radius: 4px; text-align: center; }
.pictures { display: flex; flex-wrap: wrap; gap: .5em; }
.pictures figure { margin: 0; flex: 1 1 14em; }
.pictures img { width: 100%; border: 1px solid #ddd; }
figcaption { text-align: center; color: #555; }
"#;

/// The folder page's script: errors into the page, and with `#selftest` a count of the cards
/// and of the pictures the browser could draw.
const FOLDER_JS: &str = include_str!("folder.js");
