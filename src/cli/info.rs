//! `maps` and `rules`: what the program knows.

use std::path::PathBuf;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use dipsandbox_core::base::text::one_line;
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::rules::{PRESETS, Rules};

/// `maps`: the standard map and every other map file under `maps/`.
pub fn maps() -> Result<ExitCode> {
    let mut maps = vec![Map::standard()];
    if let Ok(dir) = std::fs::read_dir("maps") {
        let mut files: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            if f.extension().is_some_and(|e| e == "ron")
                && f.file_stem().is_some_and(|s| s != "standard")
            {
                match Map::load(&f.display().to_string()) {
                    Ok(m) => maps.push(m),
                    Err(e) => errln!("{e}"),
                }
            }
        }
    }
    for m in maps {
        let s = m.summary();
        let (name, title) = (one_line(&m.name), one_line(&m.title));
        outln!("{name:<10} {title}")?;
        outln!(
            "           {} provinces ({} sea, {} inland, {} coastal), {} supply centres ({} home), {} powers: {}",
            s.provinces,
            s.seas,
            s.inland,
            s.coastal,
            s.supply_centers,
            s.home_centers,
            m.powers.len(),
            m.powers
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `rules`: the presets, then every option with its DATC section and values (default first).
pub fn rules() -> Result<ExitCode> {
    outln!("Presets (--rules NAME):")?;
    for (n, d) in PRESETS {
        outln!("  {n:<6} {d}")?;
        let sets: Vec<String> = Rules::preset(n)
            .map(|r| {
                r.overrides()
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect()
            })
            .unwrap_or_default();
        if !sets.is_empty() {
            outln!("         sets {}", sets.join(", "))?;
        }
    }
    outln!(
        "\nOptions (--rules field=Value, or `rules: (field: Value)` in a scenario); default first:"
    )?;
    for row in Rules::default().table() {
        outln!(
            "  {:<30} {:<6} {} | {}",
            row.field,
            row.issue,
            row.values[0],
            row.values[1..].join(" | ")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
