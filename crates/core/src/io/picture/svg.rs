//! The picture's pieces that are not the position: text escaping, the style sheet (the `hl`
//! look), the arrowheads, the colours (the powers' as the TUI's theme has them, the verdicts')
//! and the legend.

use crate::engine::Verdict;
use crate::model::map::PowerId;
use crate::model::scenario::Scenario;

/// The class a verdict gives an order: `succeeds`, `fails`, `illegal`, `void`, or `pending`
/// when the order was not adjudicated.
pub fn verdict_class(v: Option<Verdict>) -> &'static str {
    v.map_or("pending", crate::tools::diff::verdict_word)
}

/// `s` safe as XML text or an attribute value ([`crate::base::text::markup`]).
pub(super) fn esc(s: &str) -> String {
    crate::base::text::markup(s)
}

/// The powers' colours by index on the map, the TUI theme's hues (red, blue, light cyan, grey,
/// green, light magenta, yellow), each with the ink its letter is written in.
const POWERS: [(&str, &str); 7] = [
    ("#d62728", "#ffffff"), // Austria: red
    ("#1f4fbf", "#ffffff"), // England: blue
    ("#5fd3f3", "#111111"), // France: light cyan
    ("#8c8c8c", "#ffffff"), // Germany: grey
    ("#2ca02c", "#ffffff"), // Italy: green
    ("#e377e3", "#111111"), // Russia: light magenta
    ("#f2d024", "#111111"), // Turkey: yellow
];

/// The tints of the owned supply centres, the same hues lightened.
const TINTS: [&str; 7] = [
    "#f3b3b3", "#b5c6ec", "#c7eefa", "#d6d6d6", "#bfe3bf", "#f5caf5", "#faeeab",
];

/// A unit's fill and ink for a power (by id; neutral units white).
pub(super) fn power_colour(id: u8) -> (&'static str, &'static str) {
    if id == PowerId::NEUTRAL.0 {
        return ("#ffffff", "#111111");
    }
    POWERS
        .get(usize::from(id) % POWERS.len())
        .copied()
        .unwrap_or(("#ffffff", "#111111"))
}

/// An owned supply centre's fill.
pub(super) fn tint(id: u8) -> String {
    if id == PowerId::NEUTRAL.0 {
        return "#f1e9d2".into();
    }
    TINTS
        .get(usize::from(id) % TINTS.len())
        .copied()
        .unwrap_or("#f1e9d2")
        .into()
}

/// The verdicts' colours by class name.
const VERDICTS: [(&str, &str, &str); 5] = [
    ("succeeds", "#1a9641", "succeeds"),
    ("fails", "#d7191c", "fails"),
    ("illegal", "#9b59b6", "illegal"),
    ("void", "#9a9a9a", "void"),
    ("pending", "#333333", "not adjudicated"),
];

/// The colour of a verdict class.
pub(super) fn verdict_colour(class: &str) -> &'static str {
    VERDICTS
        .iter()
        .find(|v| v.0 == class)
        .map_or("#333333", |v| v.1)
}

/// The style sheet (`hl` draws a highlighted element thick and orange, whatever it is) and
/// one arrowhead per verdict.
pub(super) fn head(s: &Scenario, adjudicated: bool, after: bool) -> String {
    let mut out = String::new();
    let what = if after { "after" } else { "before" };
    out.push_str(&format!(
        "<title>{} — {} ({} the phase{})</title>\n",
        esc(&s.title),
        esc(&s.phase.to_string()),
        what,
        if adjudicated { "" } else { ", not adjudicated" }
    ));
    out.push_str(
        "<style>\n\
         .hl circle, .hl rect, .hl path, .hl line { stroke: #ff7f00; stroke-width: 4.5px; }\n\
         .province.hl circle { stroke-width: 3.5px; }\n\
         .order.hl { opacity: 1; }\n\
         </style>\n<defs>\n",
    );
    for (class, colour, _) in VERDICTS {
        out.push_str(&format!(
            "<marker id=\"arrow-{class}\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"{colour}\" stroke=\"none\"/></marker>\n"
        ));
    }
    out.push_str("</defs>\n");
    out
}

/// A red star (a standoff's mark) centred on `(x, y)` with outer radius `r`.
pub(super) fn star(x: f64, y: f64, r: f64) -> String {
    let mut d = String::new();
    for k in 0..10 {
        let rr = if k % 2 == 0 { r } else { r * 0.45 };
        let a = std::f64::consts::PI * f64::from(k) / 5.0 - std::f64::consts::FRAC_PI_2;
        let cmd = if k == 0 { 'M' } else { 'L' };
        d.push_str(&format!(
            "{cmd}{:.1} {:.1} ",
            x + rr * a.cos(),
            y + rr * a.sin()
        ));
    }
    format!("<path d=\"{d}z\" fill=\"#d7191c\" stroke=\"#ffffff\" stroke-width=\"0.8\"/>")
}

/// The legend: its SVG (drawn from its own top-left corner) and height.
#[derive(Default)]
pub(super) struct Legend {
    body: String,
    pub height: f64,
}

impl Legend {
    /// The legend placed with its top-left corner at `(x, y)`, drawn `k` times its size.
    pub fn svg_at(&self, x: f64, y: f64, k: f64) -> String {
        if self.body.is_empty() {
            return String::new();
        }
        let scale = if k == 1.0 {
            String::new()
        } else {
            format!(" scale({k:.4})")
        };
        format!(
            "<g class=\"legend\" transform=\"translate({x:.1} {y:.1}){scale}\" font-size=\"10\" fill=\"#222222\">\n{}</g>\n",
            self.body
        )
    }
}

/// Lays out legend items left to right, wrapping at `width`.
struct Flow {
    body: String,
    x: f64,
    y: f64,
    width: f64,
}

impl Flow {
    fn item(&mut self, w: f64, draw: impl FnOnce(f64, f64) -> String) {
        if self.x + w > self.width - 12.0 && self.x > 12.0 {
            self.x = 12.0;
            self.y += 18.0;
        }
        self.body.push_str(&draw(self.x, self.y));
        self.x += w;
    }

    fn newline(&mut self) {
        self.x = 12.0;
        self.y += 18.0;
    }
}

/// The legend of a picture `width` units wide: the verdict colours (when adjudicated), the
/// shapes of the orders, the marks, and the powers with units on the board.
pub(super) fn legend(s: &Scenario, adjudicated: bool, width: f64) -> Legend {
    let mut f = Flow {
        body: String::new(),
        x: 12.0,
        y: 8.0,
        width,
    };
    let verdicts: &[(&str, &str, &str)] = if adjudicated {
        VERDICTS.get(..4).unwrap_or(&[])
    } else {
        VERDICTS.get(4..).unwrap_or(&[])
    };
    for (_, colour, label) in verdicts {
        let w = 30.0 + label.len() as f64 * 6.0 + 12.0;
        f.item(w, |x, y| {
            format!(
                "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"4\"/><text x=\"{:.1}\" y=\"{:.1}\">{label}</text>",
                x + 24.0,
                x + 30.0,
                y + 3.5
            )
        });
    }
    f.newline();
    let shapes: [(&str, &str); 4] = [
        (
            "move",
            "stroke-width=\"2.4\" marker-end=\"url(#arrow-pending)\"",
        ),
        ("support", "stroke-width=\"1.8\" stroke-dasharray=\"5 3\""),
        (
            "convoy route",
            "stroke-width=\"2\" stroke-dasharray=\"1.5 3\" stroke-linecap=\"round\"",
        ),
        ("hold", ""),
    ];
    for (label, style) in shapes {
        let w = 34.0 + label.len() as f64 * 6.0 + 12.0;
        f.item(w, |x, y| {
            let shape = if label == "hold" {
                format!(
                    "<circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"6\" fill=\"none\" stroke=\"#333333\" stroke-width=\"2\"/>",
                    x + 14.0
                )
            } else {
                format!(
                    "<path d=\"M{x:.1} {y:.1} L{:.1} {y:.1}\" fill=\"none\" stroke=\"#333333\" {style}/>",
                    x + 26.0
                )
            };
            format!(
                "{shape}<text x=\"{:.1}\" y=\"{:.1}\">{label}</text>",
                x + 34.0,
                y + 3.5
            )
        });
    }
    f.item(90.0, |x, y| {
        format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"11\" height=\"11\" rx=\"2\" fill=\"#ffffff\" stroke=\"#d7191c\" stroke-width=\"2.2\"/><text x=\"{:.1}\" y=\"{:.1}\">dislodged</text>",
            x + 4.0,
            y - 5.5,
            x + 22.0,
            y + 3.5
        )
    });
    f.item(86.0, |x, y| {
        format!(
            "{}<text x=\"{:.1}\" y=\"{:.1}\">standoff</text>",
            star(x + 9.0, y, 6.0),
            x + 22.0,
            y + 3.5
        )
    });
    f.item(110.0, |x, y| {
        format!(
            "<circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"2.6\" fill=\"#222222\"/><text x=\"{:.1}\" y=\"{:.1}\">supply centre</text>",
            x + 9.0,
            x + 22.0,
            y + 3.5
        )
    });
    f.newline();
    let mut shown: Vec<PowerId> = s.units.iter().map(|u| u.power).collect();
    shown.extend(s.dislodged.iter().map(|d| d.unit.power));
    shown.sort_unstable();
    shown.dedup();
    for p in shown {
        let name = esc(&s.map.power(p).name);
        let (fill, _) = power_colour(p.0);
        let w = 22.0 + name.len() as f64 * 6.0 + 14.0;
        f.item(w, |x, y| {
            format!(
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" rx=\"2\" fill=\"{fill}\" stroke=\"#111111\"/><text x=\"{:.1}\" y=\"{:.1}\">{name}</text>",
                y - 6.0,
                x + 18.0,
                y + 3.5
            )
        });
    }
    Legend {
        body: f.body,
        height: f.y + 14.0,
    }
}
