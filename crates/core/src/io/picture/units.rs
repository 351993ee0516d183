//! Which unit is drawn where: before the phase, the scenario's units (and, in a retreat phase,
//! its dislodged units beside their provinces); after it, each unit where the phase left it —
//! moved, retreated, built, dislodged (beside its province) or gone (faded where it stood).

use crate::engine::{PhaseResult, Verdict};
use crate::model::board::{PhaseKind, Unit};
use crate::model::map::{Coast, ProvinceId, UnitKind};
use crate::model::orders::OrderKind;
use crate::model::scenario::Scenario;

use super::layout::{Layout, NODE_R};
use super::svg;

/// A unit as drawn.
#[derive(Clone, Debug)]
pub(super) struct Placed {
    /// `unit-{u}`, `dislodged-{k}` or `built-{i}`.
    pub id: String,
    /// Extra classes: `dislodged`, `gone`, `built`, `moved`.
    pub class: &'static str,
    pub unit: Unit,
    /// The province it is drawn in (or beside).
    pub province: ProvinceId,
    /// The coast it stands on, if any.
    pub coast: Option<Coast>,
    /// Where its glyph's centre is.
    pub at: (f64, f64),
    /// Whether it stands in its province (not beside it as a dislodged unit, not gone).
    pub on_board: bool,
    /// Whether it is drawn smaller, beside its province.
    pub small: bool,
}

/// Where a dislodged unit is drawn: up and to the right of its province's node.
pub(super) fn beside((x, y): (f64, f64)) -> (f64, f64) {
    (x + NODE_R * 1.25, y - NODE_R * 1.05)
}

fn verdict(result: Option<&PhaseResult>, i: usize) -> Option<Verdict> {
    result.and_then(|r| r.outcomes.get(i)).map(|o| o.verdict)
}

/// The order (by index) given to the unit in `p`, if any.
pub(super) fn order_for(s: &Scenario, p: ProvinceId) -> Option<usize> {
    s.orders.iter().position(|o| {
        o.order.unit.as_ref().is_some_and(|u| u.loc.province == p)
            && !matches!(o.order.kind, OrderKind::Build | OrderKind::Waive)
    })
}

impl Placed {
    fn new(id: String, unit: Unit, s: &Scenario, lay: &Layout) -> Placed {
        let province = s.map.province_of(unit.loc);
        Placed {
            id,
            class: "",
            unit,
            province,
            coast: s.map.location(unit.loc).coast,
            at: lay.center(province),
            on_board: true,
            small: false,
        }
    }

    fn aside(mut self, class: &'static str, lay: &Layout) -> Placed {
        self.class = class;
        self.at = beside(lay.center(self.province));
        self.on_board = false;
        self.small = true;
        self
    }
}

/// The units to draw (see the module's doc).
pub(super) fn place(
    s: &Scenario,
    result: Option<&PhaseResult>,
    after: bool,
    lay: &Layout,
) -> Vec<Placed> {
    let mut out = Vec::new();
    let dislodged_now: Vec<Unit> = match (s.phase.kind, result) {
        (PhaseKind::Movement, Some(r)) => r.dislodged.iter().map(|d| d.unit).collect(),
        _ => Vec::new(),
    };
    for (u, unit) in s.units.iter().enumerate() {
        let mut p = Placed::new(format!("unit-{u}"), *unit, s, lay);
        let order = order_for(s, p.province);
        if dislodged_now.contains(unit) {
            p = if after {
                p.aside("dislodged", lay)
            } else {
                Placed {
                    class: "dislodged",
                    ..p
                }
            };
        } else if after {
            p = after_move(s, result, p, order, lay);
        }
        out.push(p);
    }
    for (k, d) in s.dislodged.iter().enumerate() {
        let mut p = Placed::new(format!("dislodged-{k}"), d.unit, s, lay).aside("dislodged", lay);
        if after {
            let order = order_for(s, p.province);
            p = after_retreat(s, result, p, order, lay);
        }
        out.push(p);
    }
    if after && s.phase.kind == PhaseKind::Adjustment {
        for (i, o) in s.orders.iter().enumerate() {
            if o.order.kind != OrderKind::Build || verdict(result, i) != Some(Verdict::Succeeds) {
                continue;
            }
            let Some(spec) = &o.order.unit else { continue };
            let found = result.and_then(|r| {
                r.final_units
                    .iter()
                    .find(|f| s.map.province_of(f.loc) == spec.loc.province)
            });
            if let Some(f) = found {
                let mut p = Placed::new(format!("built-{i}"), *f, s, lay);
                p.class = "built";
                out.push(p);
            }
        }
    }
    out
}

/// Where order `i` moved its unit, when it is a move that succeeded.
fn succeeded_move(s: &Scenario, result: Option<&PhaseResult>, i: usize) -> Option<ProvinceId> {
    match &s.orders.get(i)?.order.kind {
        OrderKind::Move { dest, .. } if verdict(result, i) == Some(Verdict::Succeeds) => {
            Some(dest.province)
        }
        _ => None,
    }
}

/// After a movement or adjustment phase: a unit whose move succeeded stands at its
/// destination; one removed is gone.
fn after_move(
    s: &Scenario,
    result: Option<&PhaseResult>,
    mut p: Placed,
    order: Option<usize>,
    lay: &Layout,
) -> Placed {
    let Some(i) = order else { return p };
    if s.phase.kind == PhaseKind::Movement
        && let Some(dest) = succeeded_move(s, result, i)
    {
        moved_to(s, result, &mut p, dest, lay);
    } else if let Some(o) = s.orders.get(i)
        && matches!(o.order.kind, OrderKind::Remove | OrderKind::Disband)
        && verdict(result, i) == Some(Verdict::Succeeds)
    {
        p.class = "gone";
        p.on_board = false;
    }
    p
}

/// After a retreat phase: a dislodged unit that retreated stands at its destination; any other
/// is disbanded (gone).
fn after_retreat(
    s: &Scenario,
    result: Option<&PhaseResult>,
    mut p: Placed,
    order: Option<usize>,
    lay: &Layout,
) -> Placed {
    match order.and_then(|i| succeeded_move(s, result, i)) {
        Some(dest) => {
            p.small = false;
            moved_to(s, result, &mut p, dest, lay);
        }
        None => p.class = "gone",
    }
    p
}

fn moved_to(
    s: &Scenario,
    result: Option<&PhaseResult>,
    p: &mut Placed,
    dest: ProvinceId,
    lay: &Layout,
) {
    let landed = result.and_then(|r| {
        r.final_units.iter().find(|f| {
            s.map.province_of(f.loc) == dest && f.power == p.unit.power && f.kind == p.unit.kind
        })
    });
    if let Some(f) = landed {
        p.unit = *f;
        p.coast = s.map.location(f.loc).coast;
    } else {
        p.coast = None;
    }
    p.province = dest;
    p.at = lay.center(dest);
    p.class = "moved";
    p.on_board = true;
}

/// The units' glyphs: a rounded square for an army, a circle for a fleet, in the owner's
/// colour with its letter; dislodged units outlined in red, gone units faded.
pub(super) fn draw(s: &Scenario, placed: &[Placed]) -> String {
    let mut out = String::from("<g class=\"units\">\n");
    for p in placed {
        let (x, y) = p.at;
        let half = if p.small { 5.5 } else { 7.5 };
        let kind = match p.unit.kind {
            UnitKind::Army => "army",
            UnitKind::Fleet => "fleet",
        };
        let rx = match p.unit.kind {
            UnitKind::Army => 2.0,
            UnitKind::Fleet => half,
        };
        let (fill, ink) = svg::power_colour(p.unit.power.0);
        let (stroke, sw, dash) = match p.class {
            "dislodged" => ("#d7191c", 2.2, ""),
            "built" => ("#111111", 1.2, " stroke-dasharray=\"2 1.5\""),
            _ => ("#111111", 1.0, ""),
        };
        let opacity = if p.class == "gone" {
            " opacity=\"0.3\""
        } else {
            ""
        };
        let class = if p.class.is_empty() {
            String::new()
        } else {
            format!(" {}", p.class)
        };
        let note = match p.class {
            "dislodged" => " (dislodged)",
            "gone" => " (gone)",
            "built" => " (built)",
            _ => "",
        };
        out.push_str(&format!(
            "<g id=\"{}\" class=\"unit {kind}{class}\"{opacity}><title>{}{note}</title>",
            p.id,
            svg::esc(&p.unit.describe_owned(&s.map))
        ));
        out.push_str(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"{rx:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{sw}\"{dash}/>",
            x - half,
            y - half,
            2.0 * half,
            2.0 * half
        ));
        out.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
            y + half * 0.45,
            half * 1.25,
            p.unit.kind.letter()
        ));
        if p.class == "dislodged" && !p.small {
            // Before the phase: a red slash says "this unit will be dislodged".
            out.push_str(&format!(
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#d7191c\" stroke-width=\"2\"/>",
                x - half - 2.0,
                y + half + 2.0,
                x + half + 2.0,
                y - half - 2.0
            ));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
    out
}
