//! `render`: a scenario's position as a picture (SVG, or PNG rasterised by resvg).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::base::output::Target;
use dipsandbox_core::io::picture::{Crop, PictureOptions, position_svg};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{adjudicate_scenario, retreat_phase};

use super::input::{EngineArg, load, scenario_inputs, target};

/// `render`'s arguments.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The scenario file.
    file: PathBuf,
    /// The picture to write: NAME.svg or NAME.png.
    #[arg(short, long, value_name = "NAME.svg|NAME.png")]
    output: Option<PathBuf>,
    /// Draw the position after the phase (units where they end, dislodged units beside
    /// their provinces).
    #[arg(long)]
    after: bool,
    /// The picture's width in pixels (200 to 10000).
    #[arg(long, value_name = "PX", default_value_t = 800)]
    width: u32,
    /// Leave out the legend.
    #[arg(long)]
    no_legend: bool,
    /// Show only the part of the map the orders and units are about (with a ring of
    /// neighbours), enlarged to the width; the whole map when they span most of it.
    #[arg(long)]
    crop: bool,
    /// Draw the scenario's follow-up retreats (its `retreats` section) instead of its phase:
    /// the position after the movement with the dislodged units and their retreat orders.
    #[arg(long)]
    retreats: bool,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// `render FILE [-o NAME.svg|NAME.png] [--after] [--retreats] [--width PX] [--no-legend] [--crop]
/// [--force]`: the output's format is checked first, then the scenario read, then the output
/// (never one of the inputs, an existing file only with --force).
pub fn run(a: &RenderArgs, rules: Option<Rules>, engine: &EngineArg) -> Result<ExitCode> {
    let format = a.output.as_deref().map(format_of).transpose()?;
    let s = load(&a.file)?;
    if a.retreats && s.retreats.is_none() {
        return Err(eyre!(
            "{}: the scenario has no follow-up retreats (a `retreats:` section after a movement \
             phase); --retreats draws them",
            a.file.display()
        ));
    }
    let output = a
        .output
        .as_deref()
        .map(|o| target(o, scenario_inputs(&a.file, &s), a.force))
        .transpose()?;
    let crop = if a.crop { Crop::Action } else { Crop::Whole };
    let opts = PictureOptions {
        after: a.after,
        width: a.width,
        legend: !a.no_legend,
        title: None,
        crop,
    };
    render(
        &s,
        rules,
        engine,
        opts,
        a.retreats,
        output.as_ref().zip(format),
    )
}

/// What `render` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The SVG text.
    Svg,
    /// A PNG image.
    Png,
}

/// The format an output file's extension asks for (`.svg` or `.png`, any case); an error that
/// names the file and what was expected otherwise.
pub fn format_of(path: &Path) -> Result<Format> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(eyre!(
            "{}: unknown picture format; expected a file name ending in .svg or .png",
            dipsandbox_core::base::text::one_line(&path.display().to_string())
        )),
    }
}

/// The scenario adjudicated (under `rules`, or its own, with `engine`) and drawn with `opts`:
/// its phase, or with `retreats` the retreat phase that follows it. The title is what is
/// drawn: the scenario's title and phase, before or after.
pub fn picture(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &EngineArg,
    mut opts: PictureOptions,
    retreats: bool,
) -> Result<String> {
    let run = adjudicate_scenario(s, rules, &*engine.engine, false).map_err(|e| eyre!("{e}"))?;
    let drawn = if retreats {
        retreat_phase(s, &run).zip(run.retreats.as_ref())
    } else {
        None
    };
    let (s, result) = match &drawn {
        Some((next, r)) => (next, *r),
        None => (s, run.phase()),
    };
    let when = if opts.after { "after" } else { "before" };
    opts.title = Some(format!("{} — {} ({when})", s.title, s.phase));
    position_svg(s, Some(result), &opts).map_err(|e| eyre!("{e}"))
}

/// `render`: the picture written to `output` (its extension says SVG or PNG), or the SVG
/// printed when there is no output.
pub fn render(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &EngineArg,
    opts: PictureOptions,
    retreats: bool,
    output: Option<(&Target, Format)>,
) -> Result<ExitCode> {
    let svg = picture(s, rules, engine, opts, retreats)?;
    let Some((target, format)) = output else {
        out!("{svg}")?;
        return Ok(ExitCode::SUCCESS);
    };
    match format {
        Format::Svg => target.write(&svg).map_err(|e| eyre!("{e}"))?,
        Format::Png => {
            if crate::png::no_fonts() {
                errln!(
                    "warning: no font found on this system (fontconfig's folders, /usr/share/fonts): \
                     the PNG has no labels; install one (Debian: fonts-dejavu-core) or write SVG, \
                     which a browser draws with its own fonts"
                );
            }
            let png = crate::png::svg_to_png(&svg)?;
            target.write_bytes(&png).map_err(|e| eyre!("{e}"))?;
        }
    }
    outln!("Written to {}", target.path.display())?;
    Ok(ExitCode::SUCCESS)
}
