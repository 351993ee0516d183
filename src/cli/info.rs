//! `maps`, `map import` and `rules`: what the program knows, and other programs' maps.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::base::text::one_line;
use dipsandbox_core::model::map::{Map, MapSource};
use dipsandbox_core::model::rules::{PRESETS, Rules};

/// `maps`: every map a name finds from here: the built-in ones and each file in `maps/` (a
/// file there stands in for the built-in map of its name), with where each comes from.
pub fn maps() -> Result<ExitCode> {
    let mut maps = Vec::new();
    for (name, source) in dipsandbox_core::model::map::available() {
        let (loaded, from) = match &source {
            MapSource::BuiltIn => (Map::load(&name), "built in".to_string()),
            MapSource::File(f) => (Map::load(&f.display().to_string()), f.display().to_string()),
        };
        match loaded {
            Ok(m) => maps.push((m, from)),
            Err(e) => errln!("{e}"),
        }
    }
    for (m, from) in maps {
        let s = m.summary();
        let (name, title) = (one_line(&m.name), one_line(&m.title));
        outln!("{name:<10} {title} · {}", one_line(&from))?;
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
        // A variant's own rules, when they are not the standard ones.
        let own = m.own_rules();
        if !own.is_empty() {
            outln!("           rules: {}", own.join("; "))?;
        }
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

/// `map import`'s jDip options: which variant of a `variants.xml`, and its adjacency file.
pub struct JdipChoice<'a> {
    /// `--variant NAME`.
    pub variant: Option<&'a str>,
    /// `--adjacency FILE`.
    pub adjacency: Option<&'a Path>,
}

/// `map import FILE`: a DPjudge-style map file or a jDip variant to a dipsandbox map file
/// (default `maps/NAME.ron`); each note (read but not supported, or changed) on stderr.
pub fn map_import(
    file: &Path,
    out: Option<&Path>,
    name: Option<&str>,
    force: bool,
    jdip: &JdipChoice<'_>,
    svg: Option<&Path>,
) -> Result<ExitCode> {
    use dipsandbox_core::io::jdip_variant;
    // The first bytes, to tell a jDip variant: read with the checks of every reader (a FIFO or
    // a device is refused before it is opened, and nothing blocks).
    let head = dipsandbox_core::base::source::read_head(file, 256)
        .map_err(|e| eyre!("{e}"))?
        .text;
    let variant = if jdip.variant.is_some()
        || jdip.adjacency.is_some()
        || jdip_variant::is_variant_file(file, &head)
    {
        let opts = jdip_variant::Options {
            variant: jdip.variant,
            adjacency: jdip.adjacency,
        };
        Some(jdip_variant::import(file, name, &opts).map_err(|e| eyre!("{e}"))?)
    } else {
        None
    };
    let name = match variant.as_ref().map(|v| v.name.as_str()).or(name) {
        Some(n) => n.to_string(),
        None => file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .ok_or_else(|| {
                eyre!(
                    "{}: no file name to name the map by; give --name",
                    file.display()
                )
            })?,
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(eyre!(
            "map name {}: expected letters, digits, '_' or '-' (it names maps/NAME.ron); give --name",
            dipsandbox_core::base::text::quoted(&name)
        ));
    }
    let mut imported = match variant {
        Some(v) => v.imported,
        None => dipsandbox_core::io::dpjudge_map::import(file, &name).map_err(|e| eyre!("{e}"))?,
    };
    // With --svg the map's own graphics are not needed: the positions come from that file.
    if svg.is_some() {
        imported
            .notes
            .retain(|n| !n.text.starts_with("map graphics (SVG) are not read"));
    }
    for n in &imported.notes {
        errln!("note: {}: {}", n.pos, one_line(&n.text));
    }
    if let Some(svg) = svg {
        imported.ron = super::map_art::with_svg_positions(&imported.map, &imported.ron, svg)?;
    }
    let target = out.map_or_else(
        || Path::new("maps").join(format!("{name}.ron")),
        Path::to_path_buf,
    );
    // Never over a file it read (the map file, an include, the adjacency file, the SVG), even
    // with --force; never through a link; an existing file only with --force.
    let mut inputs = dipsandbox_core::base::output::Inputs::new();
    inputs.add(file);
    inputs.add_all(imported.read.iter().map(PathBuf::as_path));
    inputs.add_all(svg);
    inputs.add_all(jdip.adjacency);
    let t = dipsandbox_core::base::output::Target::new(&target, inputs, force);
    t.check().map_err(|e| {
        eyre!(
            "{e}{}",
            if target.exists() && !force {
                " (or -o another file)"
            } else {
                ""
            }
        )
    })?;
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| eyre!("{}: {e}", dir.display()))?;
    }
    t.write(&imported.ron).map_err(|e| eyre!("{e}"))?;
    let s = imported.map.summary();
    outln!(
        "imported {} from {}: {} provinces ({} sea, {} inland, {} coastal), {} supply centres, {} powers; {}; written to {}",
        one_line(&name),
        file.display(),
        s.provinces,
        s.seas,
        s.inland,
        s.coastal,
        s.supply_centers,
        imported.map.powers.len(),
        dipsandbox_core::base::text::count(imported.notes.len(), "note"),
        target.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

pub use super::map_art::map_art;

/// `map opening MAP`: the map's opening position as a scenario file, its expectations the
/// result of no orders (every unit holds).
pub fn map_opening(map: &str, out: Option<&Path>) -> Result<ExitCode> {
    let m = std::sync::Arc::new(Map::load(map).map_err(|e| eyre!("{e}"))?);
    let mut s = dipsandbox_core::model::scenario::Scenario::opening(m.clone(), map);
    s.title = format!("Opening position — {}", m.title);
    s.source = format!("dipsandbox map opening {map}");
    // With no orders every unit holds: that is written as the expectations, so `check` of the
    // file says whether the map still adjudicates its opening.
    let run = dipsandbox_core::tools::check::run(&s, None, false).map_err(|e| eyre!("{e}"))?;
    dipsandbox_core::tools::check::freeze_expectations(&mut s, &run);
    let text = s.to_ron();
    match out {
        None => out!("{text}")?,
        Some(f) => {
            if f.exists() {
                return Err(eyre!("{}: exists; not overwritten", f.display()));
            }
            dipsandbox_core::base::output::write_atomic(f, &text).map_err(|e| eyre!("{e}"))?;
            outln!(
                "the opening of {} written to {}",
                one_line(&m.name),
                f.display()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
