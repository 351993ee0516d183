//! The maps compiled into the program: every map the repository ships in `maps/`, so that a
//! name (`world`, `chaos`, …) finds its map from any folder, with no `maps/` beside the scenario.

use std::path::PathBuf;

use super::types::STANDARD_RON;

/// The built-in maps, by name, each with its RON source (the file `maps/NAME.ron` of the
/// repository, compiled in); the standard map first, then by name. `tests/it/map.rs` checks that
/// the list and the files agree.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("standard", STANDARD_RON),
    ("1898", include_str!("../../../../../maps/1898.ron")),
    ("ancmed", include_str!("../../../../../maps/ancmed.ron")),
    ("chaos", include_str!("../../../../../maps/chaos.ron")),
    (
        "garrisons",
        include_str!("../../../../../maps/garrisons.ron"),
    ),
    ("hundred", include_str!("../../../../../maps/hundred.ron")),
    ("modern", include_str!("../../../../../maps/modern.ron")),
    ("pure", include_str!("../../../../../maps/pure.ron")),
    ("test7", include_str!("../../../../../maps/test7.ron")),
    ("world", include_str!("../../../../../maps/world.ron")),
    (
        "youngstown",
        include_str!("../../../../../maps/youngstown.ron"),
    ),
];

/// Other programs' names for built-in maps: godip's variant folders (`variants/NAME/games`).
pub const OTHER_NAMES: &[(&str, &str)] = &[
    ("classical", "standard"),
    ("ancientmediterranean", "ancmed"),
    ("youngstownredux", "youngstown"),
];

/// The built-in map another program calls `name` (`ancientmediterranean` → `ancmed`), or `name`
/// itself.
pub fn our_name(name: &str) -> &str {
    OTHER_NAMES
        .iter()
        .find(|(other, _)| *other == name)
        .map_or(name, |(_, ours)| ours)
}

/// The RON source of the built-in map `name`, if there is one.
pub fn built_in(name: &str) -> Option<&'static str> {
    BUILT_IN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The built-in maps' names, `standard` first.
pub fn built_in_names() -> impl Iterator<Item = &'static str> {
    BUILT_IN.iter().map(|(n, _)| *n)
}

/// Where a map that a name finds comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapSource {
    /// Compiled in ([`BUILT_IN`]).
    BuiltIn,
    /// A file `maps/NAME.ron` of the current folder.
    File(PathBuf),
}

/// Every map a bare name finds from the current folder, by name, `standard` first: each file
/// `maps/NAME.ron` here, and the built-in maps no such file stands in for. (`standard` is
/// always the built-in one, as [`Map::load`](super::Map::load) reads it.)
pub fn available() -> Vec<(String, MapSource)> {
    let mut out: Vec<(String, MapSource)> = built_in_names()
        .map(|n| (n.to_string(), MapSource::BuiltIn))
        .collect();
    if let Ok(dir) = std::fs::read_dir("maps") {
        for path in dir.filter_map(|e| e.ok().map(|e| e.path())) {
            let Some(name) = path
                .file_stem()
                .filter(|_| path.extension().is_some_and(|x| x == "ron") && path.is_file())
                .map(|s| s.to_string_lossy().into_owned())
            else {
                continue;
            };
            if name == "standard" {
                continue;
            }
            match out.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = MapSource::File(path),
                None => out.push((name, MapSource::File(path))),
            }
        }
    }
    // `standard` first (it is first in BUILT_IN), the others by name.
    if let Some(rest) = out.get_mut(1..) {
        rest.sort_by(|a, b| a.0.cmp(&b.0));
    }
    out
}
