//! Writing generated art, or positions, into a map file's text: one field line after each
//! province's `abbr: "…",` line and, for art, the `art: [ … ]` list before the map's closing
//! parenthesis. The rest of the file (comments, order, spacing) is kept as it was. The file is
//! expected in the one-field-a-line layout `dipsandbox map import` writes and the shipped maps
//! use; a province whose `abbr` line cannot be found is a located error.

use std::collections::HashMap;

use crate::base::position::SourcePos;
use crate::model::map::Map;

/// Why a map file could not be given its art.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteArtError {
    /// The map does not load.
    #[error("{0}")]
    Map(String),
    /// The map has hand-made art, and overwriting it was not asked for.
    #[error(
        "{pos}: the map has art of its own; not overwritten (give --force to replace it with generated art)"
    )]
    HasArt {
        /// Where its art starts.
        pos: SourcePos,
    },
    /// The text does not have the layout this edit needs.
    #[error("{pos}: {message}")]
    Layout {
        /// Where.
        pos: SourcePos,
        /// What was found and what was expected.
        message: String,
    },
    /// Generation failed.
    #[error("{file}: no art could be generated: {message}")]
    Generate {
        /// The map file.
        file: String,
        /// Why.
        message: String,
    },
}

/// The abbreviation on a line `abbr: "xyz",` (any indentation), if it is one.
fn abbr_on(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("abbr:")?
        .trim()
        .strip_prefix('"')?
        .strip_suffix("\",")
}

/// `text` with every line whose trimmed text starts with `drop` removed, and after each
/// province's `abbr` line the line `field: value,` (same indentation) from `value_of(abbr)`;
/// `file` names the text in errors. Every province with a value must have its `abbr` line.
pub fn set_province_field(
    text: &str,
    file: &str,
    drop: &str,
    field: &str,
    abbrs: &[&str],
    mut value_of: impl FnMut(usize) -> Option<String>,
) -> Result<String, WriteArtError> {
    let mut out = String::with_capacity(text.len() + abbrs.len() * 32);
    let mut seen = vec![false; abbrs.len()];
    // Each abbreviation (ASCII lower case) to its first place in `abbrs`: a look-up per `abbr`
    // line (a search of `abbrs` per line was quadratic on large maps).
    let mut index: HashMap<String, usize> = HashMap::with_capacity(abbrs.len());
    for (i, b) in abbrs.iter().enumerate() {
        index.entry(b.to_ascii_lowercase()).or_insert(i);
    }
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with(drop) {
            continue;
        }
        out.push_str(line);
        let Some(a) = abbr_on(line) else {
            continue;
        };
        let Some(&i) = index.get(&a.to_ascii_lowercase()) else {
            continue;
        };
        if let Some(s) = seen.get_mut(i) {
            *s = true;
        }
        if let Some(v) = value_of(i) {
            if !line.ends_with('\n') {
                out.push('\n');
            }
            let indent = line
                .get(..line.len() - line.trim_start().len())
                .unwrap_or("");
            out.push_str(&format!("{indent}{field}: {v},\n"));
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        let name = abbrs.get(i).copied().unwrap_or("?");
        let at = text.find(&format!("\"{name}\"")).unwrap_or(0);
        return Err(WriteArtError::Layout {
            pos: pos_of(text, file, at),
            message: format!(
                "no line `abbr: \"{name}\",` found for province {name:?}; expected each field of a province on a line of its own, as `dipsandbox map import` writes them"
            ),
        });
    }
    Ok(out)
}

/// The position of byte `at` of `text`.
fn pos_of(text: &str, file: &str, at: usize) -> SourcePos {
    let before = text.get(..at).unwrap_or(text);
    SourcePos {
        file: file.to_string(),
        line: before.matches('\n').count() + 1,
        col: before.rsplit('\n').next().unwrap_or("").chars().count() + 1,
    }
}

/// The text of a map file with generated art written into it: an `anchor` per province and the
/// `art` list. A map with art of its own is refused unless `force`, when its art is replaced.
/// Returns the new text and the map it loads as (its art the generated one).
pub fn write_art(text: &str, file: &str, force: bool) -> Result<(String, Map), WriteArtError> {
    let map = Map::from_ron(text, file).map_err(|e| WriteArtError::Map(e.to_string()))?;
    if map.art().is_some() && !force {
        // The line that starts with `art:` (not the end of a `start:`).
        let mut at = 0;
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            if line.trim_start().starts_with("art:") {
                at = offset + line.len() - line.trim_start().len();
                break;
            }
            offset += line.len();
        }
        return Err(WriteArtError::HasArt {
            pos: pos_of(text, file, at),
        });
    }
    let (g, _) = super::generate_map(&map).map_err(|e| WriteArtError::Generate {
        file: file.to_string(),
        message: e.message,
    })?;
    let abbrs: Vec<&str> = map
        .province_ids()
        .map(|p| map.province(p).abbr.as_str())
        .collect();
    let with_anchors = set_province_field(text, file, "anchor:", "anchor", &abbrs, |i| {
        g.anchors.get(i).map(|(x, y)| format!("({x}, {y})"))
    })?;
    // Drop the old art list, then put the new one before the map's closing parenthesis.
    let mut body = String::with_capacity(with_anchors.len());
    let mut in_art = false;
    for line in with_anchors.split_inclusive('\n') {
        let t = line.trim();
        if !in_art && t.starts_with("art:") {
            in_art = !t.ends_with("],");
            continue;
        }
        if in_art {
            in_art = t != "],";
            continue;
        }
        body.push_str(line);
    }
    let Some(close) = body.rfind(')') else {
        return Err(WriteArtError::Layout {
            pos: pos_of(text, file, text.len()),
            message: "no closing `)` of `Map(…)` found".into(),
        });
    };
    let mut art = String::from("    art: [\n");
    for l in &g.lines {
        art.push_str(&format!("        {l:?},\n"));
    }
    art.push_str("    ],\n");
    let head = body.get(..close).unwrap_or("");
    let line_start = head.rfind('\n').map_or(0, |i| i + 1);
    let mut out = String::with_capacity(body.len() + art.len());
    out.push_str(body.get(..line_start).unwrap_or(""));
    out.push_str(&art);
    out.push_str(body.get(line_start..).unwrap_or(""));
    let written = Map::from_ron(&out, file).map_err(|e| WriteArtError::Map(e.to_string()))?;
    Ok((out, written))
}
