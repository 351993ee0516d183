//! `explain --svg`: the decision graph drawn with no Graphviz. The picture is well-formed XML
//! with one box per decision of the core's graph and every dependency as an edge; cycles and
//! forced values are marked exactly where `--dot` marks them; no two boxes overlap; the layout is
//! deterministic (and its 6.F.16 picture is a snapshot); every DATC movement case and the versus
//! bench's random dense positions draw whole; a graph past the limit is refused with a message
//! that says so, and one below it (random grids, standoffs, rings) is drawn in bounded time.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use dipsandbox_core::engine::decision::MovementResult;
use dipsandbox_core::engine::decision::svg::{MAX_DECISIONS, SvgError, to_svg};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::run;
use dipsandbox_core::tools::synth::{Pattern, position, standoff};
use quick_xml::events::Event;

use crate::common::{dipsandbox, temp_dir};

/// One decision's box as the picture has it.
#[derive(Debug)]
struct DecisionBox {
    classes: BTreeSet<String>,
    /// x, y, width, height of its outer rectangle.
    rect: [f64; 4],
    stroke: String,
}

/// What a picture holds: its decisions by id and its edges `(reader, read)`.
#[derive(Debug, Default)]
struct Picture {
    decisions: BTreeMap<usize, DecisionBox>,
    edges: BTreeSet<(usize, usize)>,
}

fn attrs(e: &quick_xml::events::BytesStart<'_>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for a in e.attributes() {
        // Duplicate attributes and malformed values are errors here.
        let a = a.expect("a well-formed attribute");
        let key = String::from_utf8(a.key.as_ref().to_vec()).expect("utf-8 name");
        let value = a
            .normalized_value(quick_xml::XmlVersion::Explicit1_0)
            .expect("a well-formed value")
            .into_owned();
        assert!(
            out.insert(key.clone(), value).is_none(),
            "attribute {key} twice"
        );
    }
    out
}

/// Reads a picture, checking that it is well-formed XML: a declaration, one root element `svg`,
/// every element closed in order, no unknown entity, no duplicate attribute.
fn parse(svg: &str) -> Picture {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut current: Option<usize> = None;
    let mut pic = Picture::default();
    let mut first = true;
    loop {
        let ev = reader.read_event().expect("well-formed XML");
        if first {
            assert!(
                matches!(ev, Event::Decl(_)),
                "starts with the XML declaration"
            );
            first = false;
        }
        let (e, empty) = match &ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).expect("utf-8");
                assert_eq!(
                    stack.pop().as_deref(),
                    Some(name.as_str()),
                    "closed in order"
                );
                if name == "g" {
                    // A decision's group holds no other group: its end ends it.
                    current = None;
                }
                continue;
            }
            Event::GeneralRef(r) => {
                let name = String::from_utf8(r.as_ref().to_vec()).expect("utf-8");
                assert!(
                    ["amp", "lt", "gt", "quot", "apos"].contains(&name.as_str())
                        || name.starts_with('#'),
                    "unknown entity &{name};"
                );
                continue;
            }
            Event::Text(t) => {
                assert!(
                    !stack.is_empty() || t.as_ref().iter().all(u8::is_ascii_whitespace),
                    "text outside the root"
                );
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = String::from_utf8(e.name().as_ref().to_vec()).expect("utf-8");
        if stack.is_empty() {
            roots += 1;
            assert_eq!(name, "svg", "the root is svg");
        }
        let a = attrs(e);
        let id = a.get("id").cloned().unwrap_or_default();
        if name == "g"
            && let Some(n) = id.strip_prefix("decision-")
        {
            let n: usize = n.parse().expect("decision-N");
            let classes = a["class"].split(' ').map(str::to_string).collect();
            assert!(
                pic.decisions
                    .insert(
                        n,
                        DecisionBox {
                            classes,
                            rect: [f64::NAN; 4],
                            stroke: String::new()
                        }
                    )
                    .is_none(),
                "decision {n} drawn twice"
            );
            current = Some(n);
        } else if name == "rect"
            && let Some(b) = current.and_then(|n| pic.decisions.get_mut(&n))
            && b.stroke.is_empty()
        {
            let f = |k: &str| a[k].parse::<f64>().expect("a number");
            b.rect = [f("x"), f("y"), f("width"), f("height")];
            b.stroke = a["stroke"].clone();
        } else if name == "path"
            && let Some(ends) = id.strip_prefix("edge-")
        {
            let (x, y) = ends.split_once('-').expect("edge-A-B");
            assert!(a["d"].starts_with("M "), "edge {id} has a path");
            pic.edges
                .insert((x.parse().expect("A"), y.parse().expect("B")));
        }
        if !empty {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "every element closed: {stack:?}");
    assert_eq!(roots, 1, "one root element");
    pic
}

/// What a DOT file marks: the decisions coloured as a convoy paradox (red) or a circular movement
/// (darkgreen), those forced (a double border), and its edges.
#[derive(Debug, Default, PartialEq)]
struct Marks {
    paradox: BTreeSet<usize>,
    circular: BTreeSet<usize>,
    forced: BTreeSet<usize>,
}

fn dot_marks(dot: &str) -> (Marks, BTreeSet<(usize, usize)>) {
    let mut m = Marks::default();
    let mut edges = BTreeSet::new();
    for line in dot.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix('n') else {
            continue;
        };
        if let Some((a, b)) = rest.split_once(" -> n") {
            let b = b.split([' ', ';']).next().expect("target");
            edges.insert((a.parse().expect("id"), b.parse().expect("id")));
        } else if let Some((id, _)) = rest.split_once(" [label=\"") {
            let id: usize = id.parse().expect("id");
            // The attributes after the label's closing quote.
            let after = &line[line.rfind('"').expect("label ends")..];
            if after.contains("color=red") {
                m.paradox.insert(id);
            }
            if after.contains("color=darkgreen") {
                m.circular.insert(id);
            }
            if after.contains("peripheries=2") {
                m.forced.insert(id);
            }
        }
    }
    (m, edges)
}

fn svg_marks(p: &Picture) -> Marks {
    let with = |c: &str| {
        p.decisions
            .iter()
            .filter(|(_, b)| b.classes.contains(c))
            .map(|(&id, _)| id)
            .collect()
    };
    Marks {
        paradox: with("paradox"),
        circular: with("circular"),
        forced: with("forced"),
    }
}

/// The graph's edges as the core has them.
fn core_edges(m: &MovementResult) -> BTreeSet<(usize, usize)> {
    m.graph
        .deps
        .iter()
        .enumerate()
        .flat_map(|(a, ds)| ds.iter().map(move |&b| (a, b as usize)))
        .collect()
}

/// Two boxes overlap when their interiors meet.
fn overlapping(p: &Picture) -> Vec<(usize, usize)> {
    let v: Vec<_> = p.decisions.iter().collect();
    let mut out = Vec::new();
    for (i, (a, ba)) in v.iter().enumerate() {
        for (b, bb) in &v[i + 1..] {
            let [x1, y1, w1, h1] = ba.rect;
            let [x2, y2, w2, h2] = bb.rect;
            if x1 < x2 + w2 && x2 < x1 + w1 && y1 < y2 + h2 && y2 < y1 + h1 {
                out.push((**a, **b));
            }
        }
    }
    out
}

fn picture_of(m: &MovementResult, s: &Scenario) -> Result<String, SvgError> {
    to_svg(m, &|u| m.unit_label(&s.map, &s.units, &s.orders, u))
}

/// 6.F.16 (Pandin's paradox) and 6.F.24 (a second order paradox): `explain --dot --svg`.
#[test]
fn svg_has_every_decision_and_edge_and_marks_what_dot_marks() {
    for case in ["6.F.16", "6.F.24"] {
        let file = format!("scenarios/datc/{case}.ron");
        let d = temp_dir(&format!("graph-svg-{case}"));
        let (dot, svg) = (d.join("g.dot"), d.join("g.svg"));
        let (code, out, err) = dipsandbox(&[
            "explain",
            &file,
            "--dot",
            dot.to_str().expect("utf-8"),
            "--svg",
            svg.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{err}");
        let s = Scenario::load(Path::new(&file)).expect("loads");
        let r = run(&s, None, false).expect("runs");
        let m = r.result.decisions().expect("a movement phase");
        let n = m.graph.nodes.len();
        assert!(
            out.contains(&format!(
                "Decision graph drawn to {} ({n} decisions)",
                svg.display()
            )),
            "{out}"
        );
        let pic = parse(&std::fs::read_to_string(&svg).expect("svg written"));
        let (marks, dot_edges) = dot_marks(&std::fs::read_to_string(&dot).expect("dot written"));
        assert_eq!(
            pic.decisions.keys().copied().collect::<Vec<_>>(),
            (0..n).collect::<Vec<_>>(),
            "{case}: one box per decision of the graph"
        );
        assert_eq!(
            pic.edges,
            core_edges(m),
            "{case}: every dependency is an edge"
        );
        assert_eq!(pic.edges, dot_edges, "{case}: the same edges as the DOT");
        assert_eq!(svg_marks(&pic), marks, "{case}: marked as the DOT marks");
        assert!(
            !marks.paradox.is_empty() && !marks.forced.is_empty(),
            "{case} is a paradox with a forced value: {marks:?}"
        );
        // What a reader sees: the colour of each box's border.
        for (id, b) in &pic.decisions {
            let want = if marks.paradox.contains(id) {
                "red"
            } else if marks.circular.contains(id) {
                "darkgreen"
            } else {
                "black"
            };
            assert_eq!(b.stroke, want, "{case}: decision {id}");
        }
        assert_eq!(overlapping(&pic), vec![], "{case}: boxes overlap");
    }
}

/// A ring of moves is a circular movement: its decisions are marked green, as in the DOT.
#[test]
fn a_circular_movement_is_marked_green() {
    let p = position(Pattern::Ring, 6, 0).expect("ring");
    let m = dipsandbox_core::engine::adjudicate_movement(
        &p.map,
        &p.units,
        &p.orders,
        &dipsandbox_core::model::rules::Rules::default(),
    );
    let svg = to_svg(&m, &|u| m.unit_label(&p.map, &p.units, &p.orders, u)).expect("drawn");
    let dot = dipsandbox_core::engine::decision::graphviz::to_dot(
        &m,
        &|id| m.node_label(&p.map, &p.units, &p.orders, id),
        &|u| m.unit_label(&p.map, &p.units, &p.orders, u),
    );
    let pic = parse(&svg);
    let (marks, _) = dot_marks(&dot);
    assert!(!marks.circular.is_empty(), "{dot}");
    assert_eq!(svg_marks(&pic), marks);
    assert_eq!(pic.decisions.len(), m.graph.nodes.len());
    assert_eq!(overlapping(&pic), vec![]);
}

/// The layout is deterministic: two runs give the same bytes, and 6.F.16's picture is kept as a
/// snapshot.
#[test]
fn the_6f16_picture_is_deterministic_and_matches_its_snapshot() {
    let d = temp_dir("graph-svg-snapshot");
    let draw = |name: &str| {
        let out = d.join(name);
        let (code, _, err) = dipsandbox(&[
            "explain",
            "scenarios/datc/6.F.16.ron",
            "--svg",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(&out).expect("svg written")
    };
    let (a, b) = (draw("a.svg"), draw("b.svg"));
    assert_eq!(a, b, "two runs give the same picture");
    insta::assert_snapshot!("pandin_svg", a);
}

/// `--svg -` prints the picture alone; with `--trace` it is refused (the text would spoil it).
#[test]
fn svg_to_standard_output_is_the_picture_alone() {
    let (code, out, err) = dipsandbox(&["explain", "scenarios/datc/6.F.16.ron", "--svg", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<?xml"), "{out}");
    assert!(out.ends_with("</svg>\n"));
    assert_eq!(parse(&out).decisions.len(), 27);
    let (code, _, err) = dipsandbox(&[
        "explain",
        "scenarios/datc/6.F.16.ron",
        "--svg",
        "-",
        "--trace",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--svg - prints only the picture"), "{err}");
}

/// With an engine that keeps no decision graph no file is written, and a note says why.
#[test]
fn no_picture_without_a_decision_graph() {
    let d = temp_dir("graph-svg-dpjudge");
    let svg = d.join("g.svg");
    let (code, out, err) = dipsandbox(&[
        "explain",
        "scenarios/datc/6.F.16.ron",
        "--engine",
        "dpjudge",
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("--dot and --svg draw the decision graph of the decision model"),
        "{out}"
    );
    assert!(!svg.exists());
}

/// Random grid positions of growing size, and standoffs: each is either drawn (one box per decision, none
/// overlapping, in bounded time) or, past [`MAX_DECISIONS`], refused with a message naming its
/// size and the limit. Both happen.
#[test]
fn big_random_positions_are_drawn_in_bounded_time_or_refused() {
    let (mut drawn, mut refused) = (0, 0);
    // Grids of random orders, and the widest layer there is: every unit moving into one
    // province (a standoff of N), whose crossing reduction is the slowest.
    let grids = [16, 36, 49, 64, 72, 81, 85, 88, 100]
        .into_iter()
        .enumerate()
        .map(|(seed, n)| {
            (
                format!("grid of {n} units"),
                position(Pattern::Grid, n, seed as u64),
            )
        });
    let standoffs = [20, 50, 58, 70]
        .into_iter()
        .map(|n| (format!("standoff of {n} units"), standoff(n)));
    // Rings: one long cycle, whose every path the layout crate once walked (a ring of 20 armies
    // took seconds, one of 34 minutes).
    let rings = [20, 34, 50, 51]
        .into_iter()
        .map(|n| (format!("ring of {n} units"), position(Pattern::Ring, n, 0)));
    for (name, p) in grids.chain(standoffs).chain(rings) {
        let p = p.expect("synthetic board");
        let m = dipsandbox_core::engine::adjudicate_movement(
            &p.map,
            &p.units,
            &p.orders,
            &dipsandbox_core::model::rules::Rules::default(),
        );
        let decisions = m.graph.nodes.len();
        let t = Instant::now();
        let got = to_svg(&m, &|u| m.unit_label(&p.map, &p.units, &p.orders, u));
        let took = t.elapsed();
        eprintln!("{name}: {decisions} decisions, {took:?}");
        match got {
            Ok(svg) => {
                assert!(decisions <= MAX_DECISIONS);
                assert!(
                    took < Duration::from_secs(10),
                    "{name}: {decisions} decisions took {took:?}"
                );
                let pic = parse(&svg);
                assert_eq!(pic.decisions.len(), decisions);
                assert_eq!(pic.edges, core_edges(&m));
                assert_eq!(overlapping(&pic), vec![], "{name}");
                drawn += 1;
            }
            Err(e) => {
                assert!(decisions > MAX_DECISIONS);
                assert_eq!(
                    e.to_string(),
                    format!(
                        "the decision graph has {decisions} decisions; --svg draws at most {MAX_DECISIONS} (--dot writes a graph of any size)"
                    )
                );
                refused += 1;
            }
        }
    }
    assert!(
        drawn >= 2 && refused >= 1,
        "drawn {drawn}, refused {refused}"
    );
}

/// The command line says the same for a graph past the limit, and writes no file.
#[test]
fn explain_refuses_a_picture_past_the_limit_with_a_message() {
    let d = temp_dir("graph-svg-big");
    let n = 100;
    let map = crate::large_inputs::map_ron(&crate::large_inputs::ring(n));
    std::fs::write(d.join("ring.map.ron"), map).expect("map written");
    let units: Vec<String> = (0..n).map(|i| format!("A p{i}")).collect();
    let orders: Vec<String> = (0..n)
        .map(|i| format!("A p{i} - p{}", (i + 1) % n))
        .collect();
    let f = d.join("ring.ron");
    std::fs::write(
        &f,
        crate::large_inputs::scenario_ron(
            "ring",
            "ring.map.ron",
            &[("Alpha", units)],
            &[("Alpha", orders)],
            "",
        ),
    )
    .expect("scenario written");
    let svg = d.join("g.svg");
    let (code, _, err) = dipsandbox(&[
        "explain",
        f.to_str().expect("utf-8"),
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!(
            "--svg draws at most {MAX_DECISIONS} (--dot writes a graph of any size)"
        )),
        "{err}"
    );
    assert!(!svg.exists());
}

/// Every DATC movement case draws as well-formed XML with all its decisions and edges, and no
/// two boxes overlapping.
#[test]
fn every_datc_movement_case_draws_as_well_formed_xml() {
    let mut n = 0;
    let mut files: Vec<_> = std::fs::read_dir("scenarios/datc")
        .expect("datc folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for f in files {
        let Ok(s) = Scenario::load(&f) else { continue };
        let Ok(r) = run(&s, None, false) else {
            continue;
        };
        let Some(m) = r.result.decisions() else {
            continue;
        };
        let pic = parse(&picture_of(m, &s).expect("drawn"));
        assert_eq!(pic.decisions.len(), m.graph.nodes.len(), "{}", f.display());
        assert_eq!(pic.edges, core_edges(m), "{}", f.display());
        assert_eq!(overlapping(&pic), vec![], "{}", f.display());
        let svg = picture_of(m, &s).expect("drawn");
        check_apart(&pic, &core_edges(m), &svg, &f.display().to_string());
        n += 1;
    }
    assert!(n > 100, "{n} cases drawn");
}

/// The decisions with no dependency either way stand in rows below every other decision, under
/// a caption that is there exactly when they are.
fn check_apart(pic: &Picture, edges: &BTreeSet<(usize, usize)>, svg: &str, what: &str) {
    let linked = |id: usize| edges.iter().any(|&(a, b)| a == id || b == id);
    let bottom = pic
        .decisions
        .iter()
        .filter(|(id, _)| linked(**id))
        .map(|(_, b)| b.rect[1] + b.rect[3])
        .fold(f64::MIN, f64::max);
    let apart: Vec<_> = pic
        .decisions
        .iter()
        .filter(|(id, _)| !linked(**id))
        .collect();
    for (id, b) in &apart {
        assert!(
            b.rect[1] > bottom,
            "{what}: decision {id} is not below the graph"
        );
    }
    assert_eq!(
        svg.contains("id=\"apart\""),
        !apart.is_empty(),
        "{what}: the caption"
    );
}

/// The versus bench's random dense positions (convoys, paradox cores, rings) draw whole: one box
/// per decision, every edge, no two boxes overlapping, the DOT's marks.
#[test]
fn random_dense_positions_draw_whole() {
    use crate::common::positions::{Convoys, random_position, standard};
    let map = standard();
    let mut marked = 0;
    for seed in 0..40 {
        let (units, orders) = random_position(seed, Convoys::Included);
        let m = dipsandbox_core::engine::adjudicate_movement(
            map,
            &units,
            &orders,
            &dipsandbox_core::model::rules::Rules::default(),
        );
        let svg = to_svg(&m, &|u| m.unit_label(map, &units, &orders, u)).expect("drawn");
        let dot = dipsandbox_core::engine::decision::graphviz::to_dot(
            &m,
            &|id| m.node_label(map, &units, &orders, id),
            &|u| m.unit_label(map, &units, &orders, u),
        );
        let pic = parse(&svg);
        let (marks, _) = dot_marks(&dot);
        assert_eq!(pic.decisions.len(), m.graph.nodes.len(), "seed {seed}");
        assert_eq!(pic.edges, core_edges(&m), "seed {seed}");
        assert_eq!(svg_marks(&pic), marks, "seed {seed}");
        assert_eq!(overlapping(&pic), vec![], "seed {seed}");
        if marks != Marks::default() {
            marked += 1;
        }
    }
    assert!(marked > 0, "some positions have a cycle or a forced value");
}
