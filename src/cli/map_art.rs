//! `map art FILE`: generated board art written into a map file; `map positions FILE`: a position
//! for every province; and the positions `map import --svg` reads from an SVG map.

use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::base::text::one_line;
use dipsandbox_core::tools::art_gen;

/// A map file's text (`ron`, which loads as `map`) with the positions of the SVG map `svg`
/// (jDip-style) in it; a province the SVG does not place is said on stderr.
pub fn with_svg_positions(
    map: &dipsandbox_core::model::map::Map,
    ron: &str,
    svg: &Path,
) -> Result<String> {
    let text = dipsandbox_core::base::source::read_text(svg).map_err(|e| eyre!("{e}"))?;
    let positions = dipsandbox_core::io::svg_positions::svg_positions(&text)
        .map_err(|e| eyre!("{}:{e}", svg.display()))?;
    let (out, missing) =
        dipsandbox_core::io::svg_positions::add_positions_to(map, ron, "imported map", &positions)
            .map_err(|e| eyre!("{e}"))?;
    for abbr in &missing {
        errln!(
            "note: {}: no position for province {}; its place on the board is worked out from its neighbours",
            svg.display(),
            one_line(abbr)
        );
    }
    Ok(out)
}

/// Where a map command writes: `out`, or else the map file itself (which it rewrites); an
/// `out` that exists is overwritten only with `--force`.
fn write_target<'a>(file: &'a Path, out: Option<&'a Path>, force: bool) -> Result<&'a Path> {
    let target = out.unwrap_or(file);
    if out.is_some() && target.exists() && !force {
        return Err(eyre!(
            "{}: exists; not overwritten (give --force, or -o another file)",
            target.display()
        ));
    }
    Ok(target)
}

/// `map art FILE [-o OUT] [--force]`.
pub fn map_art(file: &Path, out: Option<&Path>, force: bool) -> Result<ExitCode> {
    let text = dipsandbox_core::base::source::read_text(file).map_err(|e| eyre!("{e}"))?;
    let (new, map) = art_gen::write::write_art(&text, &file.display().to_string(), force)
        .map_err(|e| eyre!("{e}"))?;
    let target = write_target(file, out, force)?;
    dipsandbox_core::base::output::write_atomic(target, &new).map_err(|e| eyre!("{e}"))?;
    let (w, h) = map.art().map_or((0, 0), |a| (a.width(), a.height()));
    let (hit, all) = map
        .art()
        .map_or((0, 0), |a| art_gen::borders_touching(&map, a));
    outln!(
        "generated art of {w}×{h} for {} ({} provinces; {hit} of {all} borders touch on the board) written to {}",
        one_line(&map.name),
        map.province_count(),
        target.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `map positions FILE [-o OUT] [--force]`.
pub fn map_positions(file: &Path, out: Option<&Path>, force: bool) -> Result<ExitCode> {
    let text = dipsandbox_core::base::source::read_text(file).map_err(|e| eyre!("{e}"))?;
    let (new, added) =
        dipsandbox_core::io::picture::with_positions(&text, &file.display().to_string())
            .map_err(|e| eyre!("{e}"))?;
    let target = write_target(file, out, force)?;
    if added == 0 && out.is_none() {
        outln!(
            "{}: every province has a position already; nothing written",
            target.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    dipsandbox_core::base::output::write_atomic(target, &new).map_err(|e| eyre!("{e}"))?;
    outln!(
        "{} written to {}",
        dipsandbox_core::base::text::count(added, "position"),
        target.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
