//! A position as a picture: an SVG of the map's provinces (seas and land, supply centres,
//! owners' colours), the units, and the orders drawn as people draw them — moves as arrows,
//! supports as dashed lines to the supported move or unit, convoys as the route through the
//! fleets, holds as a ring — each coloured by its verdict, with dislodged units and standoffs
//! marked and a legend. Plain text written here; rasterising is the application's business.
//!
//! - [`layout`]: where each province is drawn (the map's positions, scaled and pushed apart so
//!   no two labels overlap).
//! - `frame`: the frame of a cropped picture ([`Crop::Action`]): the provinces in play and a
//!   ring of their neighbours.
//! - `units`: which unit is drawn where, before or after the phase.
//! - `orders`: an order's shapes.
//! - `svg`: escaping, the style sheet, the arrowheads and the legend.
//!
//! # The contract a page relies on
//! One root `<svg xmlns=… viewBox=…>`, no script, no external reference, generic font families
//! only. Each unit of [`Scenario::units`] is `<g id="unit-{u}" class="unit …">`, each order of
//! [`Scenario::orders`] `<g id="order-{i}" class="order verdict-{succeeds|fails|illegal|void|pending}">`,
//! each province `<g id="prov-{abbr}" class="province …">`. Adding the class `hl` to any of
//! them draws it highlighted (the picture's own style sheet says how).

mod frame;
pub mod layout;
mod orders;
mod svg;
mod units;

use crate::base::text::tenths;
use crate::engine::PhaseResult;
use crate::model::board::PhaseKind;
use crate::model::scenario::Scenario;

use layout::{LABEL_H, Layout, NODE_R, layout_map};
pub use svg::verdict_class;
use units::Placed;

/// What to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureOptions {
    /// Draw the position after the phase (units where they end, dislodged units beside their
    /// province) instead of before it. Needs a result.
    pub after: bool,
    /// The picture's width in pixels (the `width` attribute; the drawing scales to it).
    pub width: u32,
    /// Draw the legend (verdict colours, powers, symbols) below the map.
    pub legend: bool,
    /// A title above the map.
    pub title: Option<String>,
    /// How much of the map to show: the whole map (the default) or the part the orders are
    /// about.
    pub crop: Crop,
}

/// How much of the map a picture shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Crop {
    /// The whole map.
    #[default]
    Whole,
    /// The provinces the position's units and orders are about (every unit, every order's unit
    /// and targets, the supported unit and its target, the convoyed army, dislodged units and
    /// their attackers' provinces, standoffs) with one ring of their neighbours, as a viewBox
    /// of the same drawing: node, unit and label sizes scale with the crop (up to 2.5 times),
    /// the title and the legend keep their size in pixels. The frame is at least 2/5 of the
    /// map wide and at most 5/4 as tall as it is wide; when it would be wider than 4/5 of the
    /// map, or nothing is in play, the whole map is drawn instead. Every province, unit and
    /// order keeps its element and id; the map outside the frame is hidden, not left out.
    Action,
}

impl Default for PictureOptions {
    fn default() -> Self {
        PictureOptions {
            after: false,
            width: 800,
            legend: true,
            title: None,
            crop: Crop::Whole,
        }
    }
}

/// Why a picture cannot be drawn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PictureError {
    /// `after` was asked without a result to take the final position from.
    #[error(
        "the position after the phase needs the phase's result; expected a result with `after`"
    )]
    AfterNeedsResult,
    /// The result is not the scenario's: its outcomes do not match the orders one to one.
    #[error(
        "the result has {outcomes} outcomes for {orders} orders; expected one outcome per order"
    )]
    ResultMismatch {
        /// Outcomes in the result.
        outcomes: usize,
        /// Orders in the scenario.
        orders: usize,
    },
    /// The map has more provinces than a picture is drawn for.
    #[error("the map has {0} provinces; pictures are drawn of maps of at most {MAX_PROVINCES}")]
    TooLarge(usize),
    /// The width is outside what a picture may have.
    #[error("width {0} px is out of range; expected 200 to 10000")]
    Width(u32),
}

/// The most provinces a map may have for a picture: laying it out compares every pair of
/// provinces (a few seconds at this size), and no picture of more would be readable.
pub const MAX_PROVINCES: usize = 2_000;

/// Height of the title line, when there is one.
const TITLE_H: f64 = 26.0;

/// The scenario's position as an SVG document: before the phase (or after it with
/// `opts.after`), with its orders coloured by `result`'s verdicts (uncoloured, "not
/// adjudicated", without a result).
pub fn position_svg(
    s: &Scenario,
    result: Option<&PhaseResult>,
    opts: &PictureOptions,
) -> Result<String, PictureError> {
    if !(200..=10_000).contains(&opts.width) {
        return Err(PictureError::Width(opts.width));
    }
    if let Some(r) = result
        && r.outcomes.len() != s.orders.len()
    {
        return Err(PictureError::ResultMismatch {
            outcomes: r.outcomes.len(),
            orders: s.orders.len(),
        });
    }
    if s.map.province_count() > MAX_PROVINCES {
        return Err(PictureError::TooLarge(s.map.province_count()));
    }
    if opts.after && result.is_none() {
        return Err(PictureError::AfterNeedsResult);
    }
    let lay = layout_map(&s.map, opts.width);
    let placed = units::place(s, result, opts.after, &lay);
    let frame = match opts.crop {
        Crop::Whole => None,
        Crop::Action => frame::action(s, result, &lay),
    };
    let view = frame.unwrap_or(lay.bounds);
    let map_w = lay.bounds.x1 - lay.bounds.x0;
    let view_w = view.x1 - view.x0;
    // The title and the legend keep their size in pixels: one of their units is `k` of the
    // view's (1 for the whole map).
    let k = view_w / map_w;
    let title_h = if opts.title.is_some() {
        TITLE_H * k
    } else {
        0.0
    };
    let legend = if opts.legend {
        svg::legend(s, result.is_some(), map_w)
    } else {
        svg::Legend::default()
    };
    let legend_h = legend.height * k;
    let top = view.y0 - title_h;
    let vb_h = title_h + (view.y1 - view.y0) + legend_h;
    let px_h = (f64::from(opts.width) * vb_h / view_w).round();
    let mut out = String::with_capacity(16 * 1024);
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{:.1} {:.1} {:.1} {:.1}\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\">\n",
        view.x0, top, view_w, vb_h, opts.width, px_h
    ));
    out.push_str(&svg::head(s, result.is_some(), opts.after));
    out.push_str(&format!(
        "<rect class=\"background\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#ffffff\"/>\n",
        view.x0, top, view_w, vb_h
    ));
    let title = opts.title.as_deref().map(|t| title_svg(t, view.x0, top, k));
    if frame.is_none() {
        out.push_str(title.as_deref().unwrap_or(""));
    }
    out.push_str(&borders(s, &lay));
    out.push_str(&provinces(s, &lay, &placed));
    out.push_str(&units::draw(s, &placed));
    out.push_str(&orders::draw(s, result, &lay));
    out.push_str(&standoffs(s, result, &lay));
    if let Some(f) = frame {
        out.push_str(&edges(f, title_h, legend_h, k));
        out.push_str(title.as_deref().unwrap_or(""));
    }
    out.push_str(&legend.svg_at(view.x0, view.y1, k));
    out.push_str("</svg>\n");
    Ok(out)
}

/// The title line, its top-left corner at `(x, y)`, its sizes times `k`.
fn title_svg(t: &str, x: f64, y: f64, k: f64) -> String {
    format!(
        "<text class=\"title\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{}\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n",
        x + 12.0 * k,
        y + 19.0 * k,
        tenths(15.0 * k),
        svg::esc(t)
    )
}

/// A cropped picture's edges: white bands that hide the map drawn above the frame (under the
/// title) and below it (under the legend), and a thin line around the frame that says the map
/// goes on.
fn edges(f: layout::Rect, title_h: f64, legend_h: f64, k: f64) -> String {
    let w = f.x1 - f.x0;
    let mut out = String::from("<g class=\"frame-edges\" fill=\"#ffffff\">\n");
    // Bands a little wider than the picture: a viewBox scaled to fit shows no sliver past them.
    for (y, h) in [
        (f.y0 - title_h - 2.0 * k, title_h + 2.0 * k),
        (f.y1, legend_h + 2.0 * k),
    ] {
        if h > 0.0 {
            out.push_str(&format!(
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{h:.1}\"/>\n",
                f.x0 - 2.0 * k,
                w + 4.0 * k
            ));
        }
    }
    out.push_str(&format!(
        "<rect class=\"frame\" x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#b0a890\" stroke-width=\"{}\"/>\n</g>\n",
        f.x0,
        f.y0,
        f.y1 - f.y0,
        tenths(1.5 * k)
    ));
    out
}

/// The borders between provinces, as thin lines between their nodes (sea to sea in blue).
fn borders(s: &Scenario, lay: &Layout) -> String {
    let map = &s.map;
    let mut out = String::from("<g class=\"borders\" fill=\"none\">\n");
    for p in map.province_ids() {
        for q in layout::neighbours(map, p) {
            if q <= p {
                continue;
            }
            let (a, b) = (lay.center(p), lay.center(q));
            let sea = map.province(p).kind == crate::model::map::ProvinceKind::Sea
                && map.province(q).kind == crate::model::map::ProvinceKind::Sea;
            let colour = if sea { "#9cc3e0" } else { "#cfc6b0" };
            out.push_str(&format!(
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"1.2\"/>\n",
                a.0, a.1, b.0, b.1
            ));
        }
    }
    out.push_str("</g>\n");
    out
}

/// Each province: its node (sea or land, an owner's tint), its supply-centre dot and its label
/// (with the coast of a fleet standing on one, `spa/sc`).
fn provinces(s: &Scenario, lay: &Layout, placed: &[Placed]) -> String {
    use crate::model::map::ProvinceKind;
    let map = &s.map;
    let owners = s.owners_or_home();
    let mut out = String::from("<g class=\"provinces\">\n");
    for p in map.province_ids() {
        let prov = map.province(p);
        let (x, y) = lay.center(p);
        let kind = match prov.kind {
            ProvinceKind::Sea => "sea",
            ProvinceKind::Coast => "land coastal",
            ProvinceKind::Land => "land inland",
        };
        let owner = owners.get(p.0 as usize).copied().flatten();
        let fill = match (prov.kind, owner) {
            (ProvinceKind::Sea, _) => "#cfe3f3".to_string(),
            (_, Some(o)) if prov.supply_center => svg::tint(o.0),
            _ => "#f1e9d2".to_string(),
        };
        let sc = if prov.supply_center { " sc" } else { "" };
        let abbr = prov.abbr.to_lowercase();
        out.push_str(&format!(
            "<g id=\"prov-{}\" class=\"province {kind}{sc}\"><title>{}</title>",
            svg::esc(&abbr),
            svg::esc(&prov.name)
        ));
        out.push_str(&format!(
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{NODE_R}\" fill=\"{fill}\" stroke=\"#7a7263\" stroke-width=\"1\"/>"
        ));
        if prov.supply_center {
            out.push_str(&format!(
                "<circle class=\"centre\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.6\" fill=\"#222222\" stroke=\"#ffffff\" stroke-width=\"0.8\"/>",
                x + NODE_R * 0.72,
                y - NODE_R * 0.72
            ));
        }
        let coast = placed
            .iter()
            .filter(|u| u.on_board && u.province == p)
            .find_map(|u| u.coast);
        let label = match coast {
            Some(c) => format!("{}/{}", prov.abbr, c.abbr()),
            None => prov.abbr.clone(),
        };
        let lb = lay.label_box(p);
        out.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#333333\">{}</text></g>\n",
            lb.y0 + LABEL_H - 2.5,
            svg::esc(&label)
        ));
    }
    out.push_str("</g>\n");
    out
}

/// The standoffs (provinces left empty by a bounce) marked with a red star beside the node:
/// the result's in a movement phase, the scenario's own in a retreat phase.
fn standoffs(s: &Scenario, result: Option<&PhaseResult>, lay: &Layout) -> String {
    let list = match (s.phase.kind, result) {
        (PhaseKind::Movement, Some(r)) => r.contested.clone(),
        (PhaseKind::Retreat, _) => s.contested.clone(),
        _ => Vec::new(),
    };
    let mut out = String::from("<g class=\"standoffs\">\n");
    for p in list {
        let (x, y) = lay.center(p);
        let (cx, cy) = (x - NODE_R * 0.95, y - NODE_R * 0.8);
        out.push_str(&format!(
            "<g id=\"standoff-{}\" class=\"standoff\"><title>standoff in {}</title>{}</g>\n",
            svg::esc(&s.map.province(p).abbr.to_lowercase()),
            svg::esc(&s.map.province(p).name),
            svg::star(cx, cy, 6.0)
        ));
    }
    out.push_str("</g>\n");
    out
}

/// A map file's text with a `position` for every province that has none: from its neighbours'
/// positions, else (a map with none at all) from its board art or a layout of its borders
/// ([`layout::province_points`]), so that pictures of it need no derivation and stay the same
/// when the derivation changes. Returns the new text and how many positions were added (0:
/// the text is returned as it was). `file` names the text in errors.
pub fn with_positions(
    text: &str,
    file: &str,
) -> Result<(String, usize), crate::tools::art_gen::write::WriteArtError> {
    use crate::tools::art_gen::write::WriteArtError;
    let map = crate::model::map::Map::from_ron(text, file)
        .map_err(|e| WriteArtError::Map(e.to_string()))?;
    if map.province_count() > MAX_PROVINCES {
        return Err(WriteArtError::Map(format!(
            "{file}: {}",
            PictureError::TooLarge(map.province_count())
        )));
    }
    let added = map
        .province_ids()
        .filter(|p| map.position(*p).is_none())
        .count();
    if added == 0 {
        return Ok((text.to_string(), 0));
    }
    let points: Vec<(String, (f64, f64))> = layout::province_points(&map)
        .into_iter()
        .zip(&map.provinces)
        .map(|(pt, p)| (p.abbr.clone(), pt))
        .collect();
    let (out, _) = crate::io::svg_positions::add_positions_to(&map, text, file, &points)?;
    Ok((out, added))
}
