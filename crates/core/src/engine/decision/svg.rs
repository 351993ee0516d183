//! The decision graph as an SVG picture, with no Graphviz: the `layout-rs` crate places the
//! decisions in layers (left to right, as the DOT file asks) and routes the edges; this module
//! writes the SVG itself so that every decision is one `<g id="decision-{n}">` a page can find,
//! and marks what [`super::graphviz`] marks: each cycle coloured by its kind (circular movement
//! green, convoy paradox red, the edges between its members thick), values forced by a backup
//! rule bold with a double border, the decisions of a fleet whose convoy the Szykman rule
//! cancelled dashed, and a legend. The layout is deterministic: the same graph gives the same
//! bytes.

use std::fmt::Write as _;

use layout::core::base::Orientation;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::{Point, Position};
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;

use super::adjudicator::{MovementResult, value_text};
use super::graphviz::cycle_kinds;
use super::trace::CycleKind;
use crate::base::text::{cut_after, markup, one_line, tenths};

/// The most decisions drawn: the layered layout's crossing reduction grows faster than the
/// square of a layer's width, and a picture of more boxes is not read anyway (`--dot` writes a
/// graph of any size). Measured on a release build: 36 decisions in a few milliseconds, about
/// 200 in well under a second.
pub const MAX_DECISIONS: usize = 300;

/// Why no picture was drawn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SvgError {
    /// More decisions than [`MAX_DECISIONS`].
    #[error(
        "the decision graph has {decisions} decisions; --svg draws at most {limit} (--dot writes a graph of any size)"
    )]
    TooLarge {
        /// The graph's decisions.
        decisions: usize,
        /// [`MAX_DECISIONS`].
        limit: usize,
    },
}

const CIRCULAR: &str = "darkgreen";
const PARADOX: &str = "red";
/// A character of the 12-pixel monospace font, wide and high (with the line's leading).
const CHAR_W: f64 = 7.2;
const LINE_H: f64 = 15.0;
const PAD: f64 = 8.0;
/// The space kept free around each box by the layout.
const HALO: f64 = 24.0;

/// The least width of the rows of decisions set apart (no dependency either way).
const APART_ROW: f64 = 720.0;

/// The height of the caption above them.
const CAPTION_H: f64 = 14.0;
/// Labels longer than this are cut (an order's text is short; a hostile one is not).
const MAX_LABEL: usize = 48;
const MARGIN: f64 = 16.0;

/// One decision's box: its text lines and how it is marked.
struct DecisionBox {
    lines: Vec<String>,
    kind: Option<CycleKind>,
    forced: bool,
    cancelled: bool,
    title: String,
}

/// An edge's route as the layout drew it: its points with their control points, and whether its
/// head is at the start.
type Route = (Vec<(Point, Point)>, bool);

/// What the layout drew: each decision's box (top-left corner and size, by decision id) and each
/// edge's path (by its index in the edge list), collected through `layout-rs`'s drawing trait.
#[derive(Default)]
struct Collected {
    rects: Vec<Option<(Point, Point)>>,
    paths: Vec<Option<Route>>,
    /// Where the rows of decisions set apart begin (their caption goes above), if any.
    apart: Option<Point>,
}

impl RenderBackend for Collected {
    fn draw_rect(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        properties: Option<String>,
        _clip: Option<ClipHandle>,
    ) {
        if let Some(slot) = properties
            .and_then(|p| p.parse::<usize>().ok())
            .and_then(|i| self.rects.get_mut(i))
        {
            *slot = Some((xy, size));
        }
    }

    fn draw_line(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}

    fn draw_circle(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}

    fn draw_text(&mut self, _: Point, _: &str, _: &StyleAttr) {}

    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        _dashed: bool,
        head: (bool, bool),
        _look: &StyleAttr,
        properties: Option<String>,
        _text: &str,
    ) {
        if let Some(slot) = properties
            .and_then(|p| p.parse::<usize>().ok())
            .and_then(|i| self.paths.get_mut(i))
        {
            // An edge turned to break a cycle (`acyclic`) has its head at the start.
            *slot = Some((path.to_vec(), head.0 && !head.1));
        }
    }

    fn create_clip(&mut self, _: Point, _: Point, _: usize) -> ClipHandle {
        0
    }
}

/// Text made safe inside an XML element or attribute, on one line: control characters escaped
/// as [`one_line`] shows them, then [`markup`].
fn xml(text: &str) -> String {
    markup(&one_line(text))
}

/// The boxes of the graph's decisions. `unit` names a unit (its order).
fn boxes(r: &MovementResult, unit: &dyn Fn(usize) -> String) -> Vec<DecisionBox> {
    let g = &r.graph;
    let kinds = cycle_kinds(r);
    g.nodes
        .iter()
        .enumerate()
        .map(|(id, n)| {
            let lo = g.lo.get(id).copied().unwrap_or(0);
            let hi = g.hi.get(id).copied().unwrap_or(0);
            let value = value_text(n.kind, lo, hi);
            let who = unit(n.unit);
            let cancelled = r.cancelled_convoys.binary_search(&n.unit).is_ok();
            let mut lines = vec![
                format!("{} = {}", n.kind.name(), value),
                cut_after(&who, MAX_LABEL).into_owned(),
            ];
            if cancelled {
                lines.push("convoy cancelled (Szykman)".to_string());
            }
            DecisionBox {
                lines,
                kind: kinds.get(id).copied().flatten(),
                forced: g.forced.get(id).copied().unwrap_or(false),
                cancelled,
                title: format!(
                    "{} [{}] = {}",
                    n.kind.name(),
                    cut_after(&who, MAX_LABEL),
                    value
                ),
            }
        })
        .collect()
}

/// The size of a box for its lines.
fn box_size(lines: &[String]) -> Point {
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    Point::new(
        chars as f64 * CHAR_W + 2.0 * PAD,
        lines.len() as f64 * LINE_H + PAD,
    )
}

/// The graph's edges, `(from, to)`: decision `from`'s equation reads decision `to`.
fn edges(r: &MovementResult) -> Vec<(usize, usize)> {
    let n = r.graph.nodes.len();
    let mut out = Vec::new();
    for (id, deps) in r.graph.deps.iter().enumerate() {
        for &d in deps {
            let d = d as usize;
            if d < n && d != id {
                out.push((id, d));
            }
        }
    }
    out
}

/// The edges turned so that none closes a cycle, in an order `layout-rs` can take quickly: each
/// `(from, to, k, turned)` for edge `k` (`turned` when it was a back edge of a depth-first
/// search, now drawn from its end to its start), listed by `from` in a topological order.
///
/// `layout-rs` turns an edge that closes a cycle itself, but finds out by asking, per edge,
/// whether its end reaches its start through the edges added so far, with a search that may
/// walk every path (a ring of 20 armies took seconds, one of 34 minutes). Given its edges in
/// this order the end of each has no edge out yet, so each question is answered at once.
fn acyclic(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize, usize, bool)> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (k, &(a, b)) in edges.iter().enumerate() {
        if let Some(list) = out.get_mut(a) {
            list.push((b, k));
        }
    }
    // An iterative depth-first search: 0 unseen, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    let mut turned = vec![false; edges.len()];
    let mut post = Vec::with_capacity(n);
    for root in 0..n {
        if state.get(root) != Some(&0) {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        if let Some(s) = state.get_mut(root) {
            *s = 1;
        }
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            top.1 += 1;
            match out.get(v).and_then(|l| l.get(i)) {
                Some(&(w, k)) => match state.get(w) {
                    Some(0) => {
                        if let Some(s) = state.get_mut(w) {
                            *s = 1;
                        }
                        stack.push((w, 0));
                    }
                    Some(1) => {
                        if let Some(t) = turned.get_mut(k) {
                            *t = true;
                        }
                    }
                    _ => {}
                },
                None => {
                    if let Some(s) = state.get_mut(v) {
                        *s = 2;
                    }
                    post.push(v);
                    stack.pop();
                }
            }
        }
    }
    // Reverse postorder: every edge kept, and every turned one, goes forward in it.
    let mut rank = vec![0usize; n];
    for (i, &v) in post.iter().rev().enumerate() {
        if let Some(r) = rank.get_mut(v) {
            *r = i;
        }
    }
    let mut list: Vec<(usize, usize, usize, bool)> = edges
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let t = turned.get(k).copied().unwrap_or(false);
            if t { (b, a, k, true) } else { (a, b, k, false) }
        })
        .collect();
    list.sort_by_key(|&(from, _, k, _)| (rank.get(from).copied().unwrap_or(0), k));
    list
}

/// Lays the graph out: each decision's box and each edge's path, from `layout-rs`.
fn place(bx: &[DecisionBox], edges: &[(usize, usize)]) -> Collected {
    let mut vg = VisualGraph::new(Orientation::LeftToRight);
    // Its own check that the graph has no cycle walks every path after every edge; the order
    // below makes it so by construction.
    vg.dag.set_validate(false);
    // Decisions with no dependency either way are set apart (see `place_apart`): the layered
    // layout would stack them all in its first column.
    let mut linked = vec![false; bx.len()];
    for &(a, b) in edges {
        for i in [a, b] {
            if let Some(l) = linked.get_mut(i) {
                *l = true;
            }
        }
    }
    let mut handles = Vec::with_capacity(bx.len());
    for (id, b) in bx.iter().enumerate() {
        if !linked.get(id).copied().unwrap_or(false) {
            handles.push(None);
            continue;
        }
        let mut e = Element::create_with_properties(
            ShapeKind::new_box(""),
            StyleAttr::simple(),
            Orientation::LeftToRight,
            box_size(&b.lines),
            id.to_string(),
        );
        e.pos = Position::new(
            Point::zero(),
            box_size(&b.lines),
            Point::zero(),
            Point::splat(HALO),
        );
        handles.push(Some(vg.add_node(e)));
    }
    for (from, to, k, turned) in acyclic(bx.len(), edges) {
        let (start, end) = if turned {
            (LineEndKind::Arrow, LineEndKind::None)
        } else {
            (LineEndKind::None, LineEndKind::Arrow)
        };
        let arrow = Arrow::with_properties(
            start,
            end,
            LineStyleKind::Normal,
            "",
            &StyleAttr::simple(),
            k.to_string(),
            &None,
            &None,
        );
        if let (Some(&Some(ha)), Some(&Some(hb))) = (handles.get(from), handles.get(to)) {
            vg.add_edge(arrow, ha, hb);
        }
    }
    let mut c = Collected {
        rects: vec![None; bx.len()],
        paths: vec![None; edges.len()],
        apart: None,
    };
    if linked.iter().any(|&l| l) {
        vg.do_it(false, false, false, &mut c);
    }
    place_apart(&mut c, bx, &linked);
    c
}

/// Places the decisions that no other reads and that read none (`linked` false) in rows under
/// the laid-out graph, as wide as it (at least [`APART_ROW`]), in the graph's order.
fn place_apart(c: &mut Collected, bx: &[DecisionBox], linked: &[bool]) {
    let placed = c.rects.iter().flatten();
    let (mut x0, mut y, mut x1) = (f64::MAX, f64::MIN, f64::MIN);
    for &(xy, size) in placed {
        x0 = x0.min(xy.x);
        x1 = x1.max(xy.x + size.x);
        y = y.max(xy.y + size.y);
    }
    if x0 == f64::MAX {
        (x0, y, x1) = (0.0, -HALO, 0.0);
    }
    let right = x0 + (x1 - x0).max(APART_ROW);
    let (mut x, mut row_h) = (x0, 0.0_f64);
    y += HALO + CAPTION_H;
    if linked.iter().any(|&l| !l) {
        c.apart = Some(Point::new(x0, y));
    }
    for (id, b) in bx.iter().enumerate() {
        if linked.get(id).copied().unwrap_or(true) {
            continue;
        }
        let size = box_size(&b.lines);
        if x > x0 && x + size.x > right {
            (x, y, row_h) = (x0, y + row_h + HALO / 2.0, 0.0);
        }
        if let Some(slot) = c.rects.get_mut(id) {
            *slot = Some((Point::new(x, y), size));
        }
        x += size.x + HALO / 2.0;
        row_h = row_h.max(size.y);
    }
}

/// The bounding box of everything drawn: `(min, max)`.
fn bounds(c: &Collected) -> (Point, Point) {
    let mut lo = Point::new(f64::MAX, f64::MAX);
    let mut hi = Point::new(f64::MIN, f64::MIN);
    let mut grow = |p: Point| {
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
    };
    for &(xy, size) in c.rects.iter().flatten() {
        grow(xy);
        grow(xy.add(size));
    }
    for (path, _) in c.paths.iter().flatten() {
        for &(a, b) in path {
            grow(a);
            grow(b);
        }
    }
    if lo.x > hi.x {
        (Point::zero(), Point::zero())
    } else {
        (lo, hi)
    }
}

/// The legend's entries: what each mark means.
const LEGEND: [(&str, &str); 5] = [
    ("reads", "A → B: the equation of A reads B"),
    ("circular", "cycle: circular movement"),
    ("paradox", "cycle: convoy paradox"),
    ("forced", "value forced by a backup rule"),
    ("cancelled", "dashed: convoy cancelled (Szykman)"),
];
const LEGEND_ROW: f64 = 26.0;

/// Draws the legend at `(x, y)`.
fn legend(s: &mut String, x: f64, y: f64) {
    let _ = writeln!(
        s,
        "<g id=\"legend\" transform=\"translate({},{})\">",
        tenths(x),
        tenths(y)
    );
    let _ = writeln!(
        s,
        "<text x=\"0\" y=\"12\" font-weight=\"bold\">Legend</text>"
    );
    for (i, (what, text)) in LEGEND.iter().enumerate() {
        let top = 20.0 + i as f64 * LEGEND_ROW;
        let mid = tenths(top + 9.0);
        match *what {
            "reads" => {
                let _ = writeln!(
                    s,
                    "<path d=\"M 2 {mid} L 34 {mid}\" stroke=\"black\" fill=\"none\" marker-end=\"url(#head-black)\"/>"
                );
            }
            _ => {
                let (stroke, dash, width) = match *what {
                    "circular" => (CIRCULAR, "", 1),
                    "paradox" => (PARADOX, "", 1),
                    "forced" => ("black", "", 2),
                    _ => ("black", " stroke-dasharray=\"5,3\"", 1),
                };
                let _ = writeln!(
                    s,
                    "<rect x=\"2\" y=\"{}\" width=\"32\" height=\"18\" fill=\"white\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>",
                    tenths(top)
                );
                if *what == "forced" {
                    let _ = writeln!(
                        s,
                        "<rect x=\"5\" y=\"{}\" width=\"26\" height=\"12\" fill=\"none\" stroke=\"black\"/>",
                        tenths(top + 3.0)
                    );
                }
            }
        }
        let _ = writeln!(
            s,
            "<text x=\"44\" y=\"{}\">{}</text>",
            tenths(top + 13.0),
            xml(text)
        );
    }
    s.push_str("</g>\n");
}

/// The colour of a cycle's kind.
fn colour(kind: Option<CycleKind>) -> &'static str {
    match kind {
        Some(CycleKind::CircularMovement) => CIRCULAR,
        Some(CycleKind::ConvoyParadox) => PARADOX,
        None => "black",
    }
}

/// The class word of a cycle's kind.
fn class_word(kind: CycleKind) -> &'static str {
    match kind {
        CycleKind::CircularMovement => "circular",
        CycleKind::ConvoyParadox => "paradox",
    }
}

/// The markers that end edges, one per colour.
fn defs(s: &mut String) {
    s.push_str("<defs>\n");
    for c in ["black", CIRCULAR, PARADOX] {
        let _ = writeln!(
            s,
            "<marker id=\"head-{c}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"{c}\"/></marker>"
        );
    }
    s.push_str("</defs>\n");
}

/// An edge's path as SVG path data: the layout's first point and its exit control point, then a
/// curve through each following `(control, point)` pair.
fn path_data(path: &[(Point, Point)], dx: f64, dy: f64) -> String {
    let p = |q: Point| format!("{} {}", tenths(q.x + dx), tenths(q.y + dy));
    let mut d = String::new();
    let mut it = path.iter();
    if let (Some(first), Some(second)) = (it.next(), it.next()) {
        let _ = write!(
            d,
            "M {} C {}, {}, {}",
            p(first.0),
            p(first.1),
            p(second.0),
            p(second.1)
        );
        for q in it {
            let _ = write!(d, " S {}, {}", p(q.0), p(q.1));
        }
    }
    d
}

/// Draws the edges (below the boxes).
fn draw_edges(
    s: &mut String,
    c: &Collected,
    edges: &[(usize, usize)],
    bx: &[DecisionBox],
    dx: f64,
    dy: f64,
) {
    for (k, &(a, b)) in edges.iter().enumerate() {
        let Some(Some((path, reversed))) = c.paths.get(k) else {
            continue;
        };
        let ka = bx.get(a).and_then(|x| x.kind);
        let kb = bx.get(b).and_then(|x| x.kind);
        let cycle = match (ka, kb) {
            (Some(x), Some(y)) if x == y => Some(x),
            _ => None,
        };
        let col = colour(cycle);
        let (class, width) = match cycle {
            Some(k) => (format!("reads {}", class_word(k)), 2),
            None => ("reads".to_string(), 1),
        };
        let marker = if *reversed {
            "marker-start"
        } else {
            "marker-end"
        };
        let tip = match cycle {
            Some(CycleKind::CircularMovement) => " (circular movement)",
            Some(CycleKind::ConvoyParadox) => " (convoy paradox)",
            None => "",
        };
        let _ = writeln!(
            s,
            "<path id=\"edge-{a}-{b}\" class=\"{class}\" d=\"{}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"{width}\" {marker}=\"url(#head-{col})\"><title>decision {a} reads decision {b}{tip}</title></path>",
            path_data(path, dx, dy)
        );
    }
}

/// Draws the decisions' boxes.
fn draw_boxes(s: &mut String, c: &Collected, bx: &[DecisionBox], dx: f64, dy: f64) {
    for (id, b) in bx.iter().enumerate() {
        let Some(Some((xy, size))) = c.rects.get(id) else {
            continue;
        };
        let (x, y) = (xy.x + dx, xy.y + dy);
        let col = colour(b.kind);
        let mut class = String::from("decision");
        if let Some(k) = b.kind {
            class.push(' ');
            class.push_str(class_word(k));
        }
        if b.forced {
            class.push_str(" forced");
        }
        if b.cancelled {
            class.push_str(" cancelled");
        }
        let _ = writeln!(s, "<g id=\"decision-{id}\" class=\"{class}\">");
        let _ = writeln!(s, "<title>{}</title>", xml(&b.title));
        let dash = if b.cancelled {
            " stroke-dasharray=\"5,3\""
        } else {
            ""
        };
        let width = if b.forced { 2 } else { 1 };
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"white\" stroke=\"{col}\" stroke-width=\"{width}\"{dash}/>",
            tenths(x),
            tenths(y),
            tenths(size.x),
            tenths(size.y)
        );
        if b.forced {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"none\" stroke=\"{col}\"/>",
                tenths(x + 3.0),
                tenths(y + 3.0),
                tenths(size.x - 6.0),
                tenths(size.y - 6.0)
            );
        }
        let weight = if b.forced {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = write!(s, "<text fill=\"{col}\"{weight}>");
        for (i, line) in b.lines.iter().enumerate() {
            let _ = write!(
                s,
                "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
                tenths(x + PAD),
                tenths(y + PAD / 2.0 + LINE_H * (i as f64 + 1.0) - 3.0),
                xml(line)
            );
        }
        s.push_str("</text>\n</g>\n");
    }
}

/// Renders the decision graph as SVG. `unit` names a unit (its order), as for
/// [`super::graphviz::to_dot`]. A graph of more than [`MAX_DECISIONS`] decisions is refused.
pub fn to_svg(r: &MovementResult, unit: &dyn Fn(usize) -> String) -> Result<String, SvgError> {
    let n = r.graph.nodes.len();
    if n > MAX_DECISIONS {
        return Err(SvgError::TooLarge {
            decisions: n,
            limit: MAX_DECISIONS,
        });
    }
    let bx = boxes(r, unit);
    let edges = edges(r);
    let c = place(&bx, &edges);
    let (lo, hi) = bounds(&c);
    let legend_h = 20.0 + LEGEND.len() as f64 * LEGEND_ROW;
    let legend_w = 44.0 + 36.0 * CHAR_W;
    // The legend on top, the graph below it.
    let (dx, dy) = (MARGIN - lo.x, MARGIN + legend_h + MARGIN - lo.y);
    let width = (hi.x - lo.x).max(legend_w) + 2.0 * MARGIN;
    let height = legend_h + MARGIN + (hi.y - lo.y) + 2.0 * MARGIN;
    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\">",
        w = tenths(width),
        h = tenths(height)
    );
    let _ = writeln!(
        s,
        "<title>Decision graph: {n} decisions, {} dependencies</title>",
        edges.len()
    );
    defs(&mut s);
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    legend(&mut s, MARGIN, MARGIN);
    if n == 0 {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">(no decisions in this phase)</text>",
            tenths(MARGIN),
            tenths(MARGIN + legend_h + MARGIN + 12.0)
        );
    }
    if let Some(at) = c.apart {
        let _ = writeln!(
            s,
            "<text id=\"apart\" x=\"{}\" y=\"{}\" fill=\"#555\">No decision reads these, and they read none:</text>",
            tenths(at.x + dx),
            tenths(at.y + dy - 6.0)
        );
    }
    s.push_str("<g id=\"edges\">\n");
    draw_edges(&mut s, &c, &edges, &bx, dx, dy);
    s.push_str("</g>\n<g id=\"decisions\">\n");
    draw_boxes(&mut s, &c, &bx, dx, dy);
    s.push_str("</g>\n</svg>\n");
    Ok(s)
}
