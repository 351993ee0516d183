//! `report`: one self-contained HTML page for a scenario (its picture, orders, rules,
//! expectations and a stepper through the engine's trace) or for a `versus` or `replay` output
//! folder (a card per class). The pages are built in the core (`io::page`); this file picks the
//! input's kind, the engines and where the page goes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use super::input::{EngineArg, load, scenario_inputs, target};
use dipsandbox_core::base::output::Inputs;
use dipsandbox_core::engine::Registry;
use dipsandbox_core::io::page::{CaseOptions, FolderOptions, case_page, folder_page};
use dipsandbox_core::io::picture::Crop;
use dipsandbox_core::model::rules::Rules;

/// `report`'s arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A scenario file, or the output folder of `versus` or `replay`.
    path: PathBuf,
    /// Where to write the page (default: FILE.html beside the scenario, DIR.html beside the
    /// folder; `-`: print it).
    #[arg(short, long, value_name = "PAGE.html")]
    output: Option<PathBuf>,
    /// Replace the page if it exists.
    #[arg(long)]
    force: bool,
    /// A folder's page: the cards drawn with pictures (the most frequent classes first); the
    /// others are listed without.
    #[arg(long, value_name = "N", default_value_t = 60)]
    max_pictures: usize,
    /// The pictures' width in pixels (default: 800 for a scenario, 480 on a folder's cards).
    #[arg(long, value_name = "PX")]
    width: Option<u32>,
    /// Draw the whole map (default: the part of it the orders are about, on a scenario's page
    /// and on a folder's cards).
    #[arg(long)]
    whole: bool,
}

/// The page's default place: `FILE.html` beside a scenario, `DIR.html` beside a folder (not in
/// it: a versus folder holds a run's files only).
pub fn default_output(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "report".into());
    if path.is_file()
        && let Some(stem) = path.file_stem()
    {
        name = stem.to_os_string();
    }
    name.push(".html");
    match path.parent() {
        Some(p) => p.join(name),
        None => PathBuf::from(name),
    }
}

/// `report`: writes the page and says where.
pub fn run(
    req: &Args,
    engine: &EngineArg,
    registry: &Registry,
    rules: Option<Rules>,
) -> Result<ExitCode> {
    let folder = req.path.is_dir();
    let out = req
        .output
        .clone()
        .unwrap_or_else(|| default_output(&req.path));
    if folder && rules.is_some() {
        return Err(eyre!(
            "--rules is for a scenario's page: a folder's cards are drawn under the rules of \
             the run that wrote them"
        ));
    }
    let page = if folder {
        let t = (out.as_os_str() != "-")
            .then(|| target(&out, Inputs::new(), req.force))
            .transpose()?;
        let lookup = |name: &str| EngineArg::parse(registry, name).ok().map(|a| a.engine);
        let mut opts = FolderOptions {
            max_pictures: req.max_pictures,
            ..FolderOptions::default()
        };
        if let Some(w) = req.width {
            opts.width = w;
        }
        if req.whole {
            opts.crop = Crop::Whole;
        }
        let page = folder_page(&req.path, &lookup, &opts).map_err(|e| eyre!("{e}"))?;
        (t, page)
    } else {
        let s = load(&req.path)?;
        let t = (out.as_os_str() != "-")
            .then(|| target(&out, scenario_inputs(&req.path, &s), req.force))
            .transpose()?;
        let mut opts = CaseOptions {
            file: Some(req.path.display().to_string()),
            ..CaseOptions::default()
        };
        if req.whole {
            opts.crop = Crop::Whole;
        }
        if let Some(w) = req.width {
            opts.width = w;
        }
        let page = case_page(&s, rules, &*engine.engine, &opts).map_err(|e| eyre!("{e}"))?;
        (t, page)
    };
    match page {
        (Some(t), page) => {
            t.write(&page).map_err(|e| eyre!("{e}"))?;
            outln!("Page written to {}", t.path.display())?;
        }
        (None, page) => out!("{page}")?,
    }
    Ok(ExitCode::SUCCESS)
}
