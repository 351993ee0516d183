//! Pictures of positions (`io::picture`, `dipsandbox render`): every built-in map and every
//! DATC movement case draws, as well-formed SVG with the ids and verdict classes a page relies
//! on; labels never overlap; arrows end at their target's edge; PNGs decode at the asked
//! width and show the units; the command's errors name the file and what was expected.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dipsandbox_core::engine::PhaseResult;
use dipsandbox_core::io::picture::layout::{NODE_R, layout_map};
use dipsandbox_core::io::picture::{Crop, PictureOptions, position_svg, verdict_class};
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::map::{Map, built_in_names};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check;

use crate::common::{dipsandbox, ron_files, temp_dir};

fn built_in_maps() -> Vec<Map> {
    built_in_names()
        .map(|n| Map::load_built_in(n).unwrap_or_else(|e| panic!("{n}: {e}")))
        .collect()
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"))
}

/// The class attribute of the element with `id`, or a failure naming what is missing.
fn class_of<'a>(doc: &'a roxmltree::Document, id: &str, what: &str) -> &'a str {
    let node = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("{what}: no element with id {id}"));
    node.attribute("class").unwrap_or("")
}

/// What every picture must hold: one root `svg` with a viewBox, no script, no outside
/// reference, a province element per province, a unit group per unit and an order group per
/// order.
fn check_contract(s: &Scenario, svg: &str, what: &str) {
    let doc = parse(svg);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg"),
        "{what}"
    );
    assert!(root.attribute("viewBox").is_some(), "{what}: no viewBox");
    // Highlighting works in any page: the picture's own style sheet gives `.hl` a look.
    let style = doc
        .descendants()
        .find(|n| n.has_tag_name("style"))
        .and_then(|n| n.text())
        .unwrap_or_else(|| panic!("{what}: no style sheet"));
    assert!(
        style.contains(".hl") && style.contains("stroke-width"),
        "{what}: no look for .hl in {style}"
    );
    for n in doc.descendants() {
        assert_ne!(n.tag_name().name(), "script", "{what}");
        for a in n.attributes() {
            let v = a.value();
            assert!(
                !(v.contains("http:") || v.contains("https:") || v.contains("file:"))
                    || a.name() == "xmlns",
                "{what}: outside reference {}={v}",
                a.name()
            );
            if a.name() == "href" {
                assert!(v.starts_with('#'), "{what}: href {v}");
            }
        }
    }
    for p in &s.map.provinces {
        let class = class_of(&doc, &format!("prov-{}", p.abbr.to_lowercase()), what);
        assert!(class.split(' ').any(|c| c == "province"), "{what}: {class}");
    }
    for u in 0..s.units.len() {
        let class = class_of(&doc, &format!("unit-{u}"), what);
        assert!(class.split(' ').any(|c| c == "unit"), "{what}: {class}");
    }
    for i in 0..s.orders.len() {
        let class = class_of(&doc, &format!("order-{i}"), what);
        assert!(class.split(' ').any(|c| c == "order"), "{what}: {class}");
    }
}

/// Every order's group carries the class of its verdict in `result`.
fn check_verdicts(s: &Scenario, svg: &str, result: &PhaseResult, what: &str) {
    let doc = parse(svg);
    for (i, o) in result.outcomes.iter().enumerate() {
        let want = format!("verdict-{}", verdict_class(Some(o.verdict)));
        let class = class_of(&doc, &format!("order-{i}"), what);
        let classes: Vec<&str> = class.split(' ').collect();
        assert!(
            classes.contains(&want.as_str()),
            "{what}: order {i} ({}) has class {class:?}, expected {want}",
            s.orders[i].text
        );
        assert_eq!(
            classes.iter().filter(|c| c.starts_with("verdict-")).count(),
            1,
            "{what}: order {i} has {class:?}"
        );
    }
}

#[test]
fn every_province_of_every_built_in_map_has_a_position_in_its_file() {
    for map in built_in_maps() {
        let missing: Vec<&str> = map
            .province_ids()
            .filter(|p| map.position(*p).is_none())
            .map(|p| map.province(p).abbr.as_str())
            .collect();
        assert!(
            missing.is_empty(),
            "{}: no position for {missing:?}",
            map.name
        );
    }
}

#[test]
fn every_built_in_map_renders_its_opening() {
    for map in built_in_maps() {
        let name = map.name.clone();
        let s = Scenario::opening(Arc::new(map), &name);
        let run = check::run(&s, None, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        for after in [false, true] {
            let opts = PictureOptions {
                after,
                ..PictureOptions::default()
            };
            let svg = position_svg(&s, Some(run.phase()), &opts)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            check_contract(&s, &svg, &name);
        }
        let plain = position_svg(&s, None, &PictureOptions::default()).expect("no result");
        check_contract(&s, &plain, &name);
    }
}

fn datc_cases() -> Vec<PathBuf> {
    let mut files = Vec::new();
    ron_files(Path::new("scenarios/datc"), &mut files);
    assert!(files.len() > 100, "the DATC cases are in scenarios/datc");
    files
}

#[test]
fn every_datc_case_renders_before_and_after_with_each_orders_verdict() {
    let mut movement = 0;
    for f in datc_cases() {
        let what = f.display().to_string();
        let s = Scenario::load(&f).unwrap_or_else(|e| panic!("{e}"));
        let run = check::run(&s, None, false).unwrap_or_else(|e| panic!("{what}: {e}"));
        if s.phase.kind == PhaseKind::Movement {
            movement += 1;
        }
        for after in [false, true] {
            let opts = PictureOptions {
                after,
                title: Some(s.title.clone()),
                ..PictureOptions::default()
            };
            let svg = position_svg(&s, Some(run.phase()), &opts)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            check_contract(&s, &svg, &what);
            check_verdicts(&s, &svg, run.phase(), &what);
        }
        let svg = position_svg(&s, None, &PictureOptions::default()).expect("no result");
        let doc = parse(&svg);
        for i in 0..s.orders.len() {
            let class = class_of(&doc, &format!("order-{i}"), &what);
            assert!(class.contains("verdict-pending"), "{what}: {class}");
        }
    }
    assert!(movement > 100, "{movement} movement cases");
}

#[test]
fn after_a_bounce_both_units_stay_and_the_standoff_is_marked() {
    let s = Scenario::load(Path::new("scenarios/datc/6.A.11.ron")).expect("6.A.11");
    let run = check::run(&s, None, false).expect("adjudicates");
    assert!(!run.phase().contested.is_empty(), "6.A.11 is a standoff");
    let opts = PictureOptions {
        after: true,
        ..PictureOptions::default()
    };
    let svg = position_svg(&s, Some(run.phase()), &opts).expect("draws");
    for p in &run.phase().contested {
        let id = format!("standoff-{}", s.map.province(*p).abbr.to_lowercase());
        assert!(svg.contains(&format!("id=\"{id}\"")), "no {id}");
    }
}

#[test]
fn a_dislodged_unit_is_marked_before_and_drawn_beside_its_province_after() {
    // The first DATC movement case that dislodges a unit.
    for f in datc_cases() {
        let s = Scenario::load(&f).expect("loads");
        if s.phase.kind != PhaseKind::Movement {
            continue;
        }
        let run = check::run(&s, None, false).expect("adjudicates");
        let Some(d) = run.phase().dislodged.first() else {
            continue;
        };
        let u = s.units.iter().position(|x| *x == d.unit).expect("a unit");
        for after in [false, true] {
            let opts = PictureOptions {
                after,
                ..PictureOptions::default()
            };
            let svg = position_svg(&s, Some(run.phase()), &opts).expect("draws");
            let doc = parse(&svg);
            let class = class_of(&doc, &format!("unit-{u}"), &f.display().to_string());
            assert!(class.contains("dislodged"), "{}: {class}", f.display());
        }
        return;
    }
    panic!("no DATC case dislodges a unit");
}

#[test]
fn no_two_labels_overlap_on_any_map() {
    for map in built_in_maps() {
        for width in [800, 400, 1600] {
            let lay = layout_map(&map, width);
            let ids: Vec<_> = map.province_ids().collect();
            for (k, a) in ids.iter().enumerate() {
                let la = lay.label_box(*a);
                for b in ids.iter().skip(k + 1) {
                    let lb = lay.label_box(*b);
                    assert!(
                        !la.overlaps(&lb),
                        "{} at {width}: labels of {} and {} overlap",
                        map.name,
                        map.province(*a).abbr,
                        map.province(*b).abbr
                    );
                    assert!(
                        !lay.footprint(*a).overlaps(&lay.footprint(*b)),
                        "{} at {width}: {} and {} overlap",
                        map.name,
                        map.province(*a).abbr,
                        map.province(*b).abbr
                    );
                }
            }
        }
    }
}

/// The end point of a path `d` of the form `M… Q… x y`.
fn path_end(d: &str) -> (f64, f64) {
    let nums: Vec<f64> = d
        .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("a number"))
        .collect();
    (nums[nums.len() - 2], nums[nums.len() - 1])
}

#[test]
fn move_arrows_end_at_the_targets_edge_not_over_its_unit() {
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("6.F.16");
    let run = check::run(&s, None, false).expect("adjudicates");
    let svg = position_svg(&s, Some(run.phase()), &PictureOptions::default()).expect("draws");
    let doc = parse(&svg);
    let lay = layout_map(&s.map, 800);
    let mut moves = 0;
    for (i, o) in s.orders.iter().enumerate() {
        let dipsandbox_core::model::orders::OrderKind::Move { dest, .. } = &o.order.kind else {
            continue;
        };
        let g = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(&format!("order-{i}")))
            .expect("the order's group");
        let path = g
            .descendants()
            .find(|n| n.has_tag_name("path"))
            .expect("an arrow");
        let end = path_end(path.attribute("d").expect("d"));
        let c = lay.center(dest.province);
        let dist = (end.0 - c.0).hypot(end.1 - c.1);
        assert!(
            (NODE_R + 1.0..=NODE_R + 6.0).contains(&dist),
            "{}: the arrow ends {dist:.1} from the target's centre",
            o.text
        );
        moves += 1;
    }
    assert!(moves >= 3, "6.F.16 has moves");
}

#[test]
fn snapshot_standard_pandins_paradox() {
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("6.F.16");
    let run = check::run(&s, None, false).expect("adjudicates");
    let opts = PictureOptions {
        title: Some("6.F.16 Pandin's paradox".into()),
        ..PictureOptions::default()
    };
    let svg = position_svg(&s, Some(run.phase()), &opts).expect("draws");
    insta::assert_snapshot!("picture_standard_6F16", svg);
}

#[test]
fn snapshot_variant_ancmed_convoy_dislodged_after() {
    let f = Path::new("scenarios/variants/ancmed-island-convoy-dislodged.ron");
    let s = Scenario::load(f).expect("loads");
    let run = check::run(&s, None, false).expect("adjudicates");
    let opts = PictureOptions {
        after: true,
        ..PictureOptions::default()
    };
    let svg = position_svg(&s, Some(run.phase()), &opts).expect("draws");
    insta::assert_snapshot!("picture_ancmed_convoy_dislodged_after", svg);
}

const PURE: &str = r#"Scenario(
    title: "Pure: a supported attack and a bounce",
    map: "pure",
    phase: "Spring 1901 Movement",
    units: { "Austria": ["A Vienna"], "Germany": ["A Berlin"], "Italy": ["A Rome"],
             "Russia": ["A Moscow"], "Turkey": ["A Constantinople"], "France": ["A Paris"] },
    orders: {
        "Austria": ["A Vienna - Berlin"],
        "Italy": ["A Rome S A Vienna - Berlin"],
        "Germany": ["A Berlin H"],
        "Russia": ["A Moscow - London"],
        "France": ["A Paris - London"],
        "Turkey": ["A Constantinople S A Berlin"],
    },
)"#;

#[test]
fn snapshot_small_map_pure() {
    let s = Scenario::from_ron(PURE, "pure.ron").expect("loads");
    let run = check::run(&s, None, false).expect("adjudicates");
    let svg = position_svg(&s, Some(run.phase()), &PictureOptions::default()).expect("draws");
    check_contract(&s, &svg, "pure");
    insta::assert_snapshot!("picture_pure", svg);
}

#[test]
fn a_result_that_is_not_the_scenarios_and_after_without_one_are_refused() {
    let s = Scenario::from_ron(PURE, "pure.ron").expect("loads");
    let opts = PictureOptions {
        after: true,
        ..PictureOptions::default()
    };
    assert!(position_svg(&s, None, &opts).is_err());
    let empty = PhaseResult::default();
    let e = position_svg(&s, Some(&empty), &PictureOptions::default()).expect_err("mismatch");
    assert!(
        e.to_string().contains("expected one outcome per order"),
        "{e}"
    );
    let narrow = PictureOptions {
        width: 10,
        ..PictureOptions::default()
    };
    assert!(position_svg(&s, None, &narrow).is_err());
}

#[test]
fn render_writes_a_png_of_the_asked_width_with_the_units_drawn() {
    let dir = temp_dir("render_png");
    let out = dir.join("pandin.png");
    let (code, stdout, stderr) = dipsandbox(&[
        "render",
        "scenarios/datc/6.F.16.ron",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("pandin.png"), "{stdout}");
    let bytes = std::fs::read(&out).expect("written");
    let png = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a PNG");
    assert_eq!(png.width(), 800);
    // The units' glyphs are drawn in their powers' colours where the layout puts them (the
    // picture's viewBox may be wider than 800 units: scale by it).
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("loads");
    let svg = std::fs::read_to_string({
        let svg = dir.join("pandin.svg");
        let (code, _, e) = dipsandbox(&[
            "render",
            "scenarios/datc/6.F.16.ron",
            "-o",
            svg.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{e}");
        svg
    })
    .expect("svg");
    let doc = parse(&svg);
    let vb: Vec<f64> = doc
        .root_element()
        .attribute("viewBox")
        .expect("viewBox")
        .split(' ')
        .map(|t| t.parse().expect("number"))
        .collect();
    let scale = 800.0 / vb[2];
    let lay = layout_map(&s.map, 800);
    for u in &s.units {
        let (x, y) = lay.center(s.map.province_of(u.loc));
        let (px, py) = ((x - vb[0]) * scale, (y - vb[1]) * scale);
        // Points around the glyph's middle (its letter, in the middle, may be white) in its power's colour:
        // the TUI's hues, in map order (England blue, France light cyan, Germany grey).
        let want: [(u8, u8, u8); 7] = [
            (0xd6, 0x27, 0x28),
            (0x1f, 0x4f, 0xbf),
            (0x5f, 0xd3, 0xf3),
            (0x8c, 0x8c, 0x8c),
            (0x2c, 0xa0, 0x2c),
            (0xe3, 0x77, 0xe3),
            (0xf2, 0xd0, 0x24),
        ];
        let (r, g, b) = want[usize::from(u.power.0) % 7];
        let near = |a: u8, b: u8| a.abs_diff(b) <= 24;
        let coloured = [
            (-5.0, 0.0),
            (5.0, 0.0),
            (-4.0, -4.0),
            (4.0, -4.0),
            (-4.0, 4.0),
            (4.0, 4.0),
        ]
        .iter()
        .filter(|(dx, dy)| {
            let p = png
                .pixel((px + dx).round() as u32, (py + dy).round() as u32)
                .expect("inside");
            near(p.red(), r) && near(p.green(), g) && near(p.blue(), b)
        })
        .count();
        assert!(
            coloured >= 3,
            "{}: not drawn in its power's colour",
            u.describe(&s.map)
        );
    }
}

/// On a system with no font the PNG is still written, and `render` says it has no labels (and
/// what to do), instead of a picture silently without words.
#[test]
fn render_to_png_without_any_font_says_so() {
    let dir = temp_dir("render_no_fonts");
    let empty = dir.join("no-fonts-here");
    std::fs::create_dir_all(&empty).expect("folder");
    let conf = dir.join("fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?>\n<fontconfig><dir>{}</dir></fontconfig>\n",
            empty.display()
        ),
    )
    .expect("write");
    let png = dir.join("bare.png");
    let _ = std::fs::remove_file(&png);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(["render", "scenarios/datc/6.A.1.ron", "-o"])
        .arg(&png)
        .env("FONTCONFIG_FILE", &conf)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("no font found"), "{stderr}");
    assert!(png.is_file(), "the picture is written all the same");
    // With the system's fonts, when it has some, no such warning.
    if dipsandbox::png::no_fonts() {
        eprintln!("this system has no font: the warning's absence is not checked");
        return;
    }
    let (code, _, stderr) = dipsandbox(&[
        "render",
        "scenarios/datc/6.A.1.ron",
        "-o",
        dir.join("fonts.png").to_str().expect("utf-8"),
        "--force",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("no font found"), "{stderr}");
}

#[test]
fn render_prints_svg_without_output_and_draws_after() {
    let (code, stdout, stderr) = dipsandbox(&["render", "scenarios/datc/6.A.11.ron", "--after"]);
    assert_eq!(code, 0, "{stderr}");
    let doc = parse(&stdout);
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(stdout.contains("class=\"standoff\""), "6.A.11 bounces");
}

#[test]
fn render_errors_name_the_file_and_what_was_expected() {
    let dir = temp_dir("render_errors");
    let bad = dir.join("picture.gif");
    let (code, _, stderr) = dipsandbox(&[
        "render",
        "scenarios/datc/6.A.1.ron",
        "-o",
        bad.to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("picture.gif"), "{stderr}");
    assert!(stderr.contains(".svg or .png"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let missing = dir.join("no-such-case.ron");
    let (code, _, stderr) = dipsandbox(&[
        "render",
        missing.to_str().expect("utf-8"),
        "-o",
        dir.join("x.svg").to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("no-such-case.ron"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let garbage = dir.join("garbage.ron");
    std::fs::write(&garbage, "Scenario(units: {\"Nobody\": [\"Q Atlantis\"]})").expect("write");
    let (code, _, stderr) = dipsandbox(&[
        "render",
        garbage.to_str().expect("utf-8"),
        "-o",
        dir.join("y.png").to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("garbage.ron"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!dir.join("y.png").exists());
    // An existing picture is not replaced without --force.
    let existing = dir.join("keep.svg");
    std::fs::write(&existing, "mine").expect("write");
    let (code, _, stderr) = dipsandbox(&[
        "render",
        "scenarios/datc/6.A.1.ron",
        "-o",
        existing.to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&existing).expect("read"), "mine");
}

#[test]
fn the_tui_key_writes_the_picture_beside_the_scenario_and_says_where_never_over_a_file() {
    use crate::common::{app, run, text};
    let dir = temp_dir("tui_picture");
    let file = dir.join("pandin.ron");
    std::fs::copy("scenarios/datc/6.F.16.ron", &file).expect("copy");
    let mut a = app(Some(file.to_str().expect("utf-8")), "tui_picture");
    let screen = text(&run(&mut a, 120, 40, "W"));
    let svg_path = dir.join("pandin.svg");
    let svg = std::fs::read_to_string(&svg_path).expect("W writes pandin.svg beside the file");
    let s = Scenario::load(&file).expect("loads");
    check_contract(&s, &svg, "the TUI's picture");
    assert!(
        screen.contains("picture written to") && screen.contains("pandin.svg"),
        "the status bar says where:\n{screen}"
    );
    // Again, after the phase: a new file, the first one kept.
    let screen = text(&run(&mut a, 120, 40, "a W"));
    let second = dir.join("pandin-2.svg");
    let after = std::fs::read_to_string(&second).expect("a second picture beside the first");
    assert!(after.contains("(after)"), "the board's after view");
    assert_eq!(std::fs::read_to_string(&svg_path).expect("kept"), svg);
    assert!(screen.contains("pandin-2.svg"), "{screen}");
}

#[test]
fn the_tui_key_on_a_bundled_scenario_writes_into_the_pictures_folder_not_beside_it() {
    use crate::common::{app, run, text};
    let mut a = app(Some("scenarios/datc/6.A.11.ron"), "tui_picture_bundled");
    let dir = a.folders.pictures.clone().expect("a pictures folder");
    let screen = text(&run(&mut a, 120, 40, "W"));
    let written = dir.join("6.A.11.svg");
    let svg = std::fs::read_to_string(&written).expect("written into the pictures folder");
    parse(&svg);
    assert!(screen.contains("6.A.11.svg"), "{screen}");
    assert!(!Path::new("scenarios/datc/6.A.11.svg").exists());
}

/// The centre of the first `rect` in the group with `id`.
fn glyph_centre(doc: &roxmltree::Document, id: &str) -> (f64, f64) {
    let g = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no {id}"));
    let r = g
        .descendants()
        .find(|n| n.has_tag_name("rect"))
        .expect("a glyph");
    let num = |a: &str| -> f64 { r.attribute(a).expect("attribute").parse().expect("number") };
    (
        num("x") + num("width") / 2.0,
        num("y") + num("height") / 2.0,
    )
}

#[test]
fn a_retreat_phase_draws_the_dislodged_unit_beside_its_province_then_where_it_retreated() {
    let s =
        Scenario::load(Path::new("scenarios/year-1901/3-fall-1901-retreat.ron")).expect("loads");
    assert_eq!(s.phase.kind, PhaseKind::Retreat);
    let run = check::run(&s, None, false).expect("adjudicates");
    let lay = layout_map(&s.map, 800);
    let tri = lay.center(s.map.find_province("Trieste").expect("tri"));
    let ven = lay.center(s.map.find_province("Venice").expect("ven"));
    let before = position_svg(&s, Some(run.phase()), &PictureOptions::default()).expect("draws");
    let doc = parse(&before);
    assert!(class_of(&doc, "dislodged-0", "before").contains("dislodged"));
    let at = glyph_centre(&doc, "dislodged-0");
    let d = (at.0 - tri.0).hypot(at.1 - tri.1);
    assert!(
        d > 5.0 && d < 30.0,
        "beside Trieste, not on it: {d:.1} away"
    );
    check_verdicts(&s, &before, run.phase(), "before");
    let opts = PictureOptions {
        after: true,
        ..PictureOptions::default()
    };
    let after = position_svg(&s, Some(run.phase()), &opts).expect("draws");
    let doc = parse(&after);
    assert!(!class_of(&doc, "dislodged-0", "after").contains("dislodged"));
    let at = glyph_centre(&doc, "dislodged-0");
    assert!(
        (at.0 - ven.0).hypot(at.1 - ven.1) < 1.0,
        "the retreated army stands in Venice"
    );
}

/// Every DATC case with follow-up retreats draws them as a retreat phase: each dislodged unit
/// beside its province, each retreat order coloured by the verdict the scenario expects, and
/// after them the retreated units where they stand.
#[test]
fn every_datc_cases_follow_up_retreats_draw_with_their_expected_verdicts() {
    let mut drawn = 0;
    for f in datc_cases() {
        let what = f.display().to_string();
        let s = Scenario::load(&f).unwrap_or_else(|e| panic!("{e}"));
        let run = check::run(&s, None, false).unwrap_or_else(|e| panic!("{what}: {e}"));
        let Some(next) = check::retreat_phase(&s, &run) else {
            assert!(s.retreats.is_none(), "{what}");
            continue;
        };
        drawn += 1;
        let result = run.retreats.as_ref().expect("the retreats' result");
        assert_eq!(next.phase.kind, PhaseKind::Retreat, "{what}");
        assert_eq!(next.dislodged.len(), run.phase().dislodged.len(), "{what}");
        for after in [false, true] {
            let opts = PictureOptions {
                after,
                ..PictureOptions::default()
            };
            let svg =
                position_svg(&next, Some(result), &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
            check_contract(&next, &svg, &what);
            check_verdicts(&next, &svg, result, &what);
            let doc = parse(&svg);
            for k in 0..next.dislodged.len() {
                class_of(&doc, &format!("dislodged-{k}"), &what);
            }
        }
        // The verdicts drawn are the ones the file expects (the DATC's word for them).
        let expect = s.retreats.as_ref().and_then(|r| r.expect.as_ref());
        for (i, _, want) in expect.map(|e| e.results.as_slice()).unwrap_or_default() {
            assert!(
                check::meets(*want, result.outcomes[*i].verdict),
                "{what}: {}",
                next.orders[*i].text
            );
        }
    }
    assert!(drawn >= 10, "{drawn} DATC cases with follow-up retreats");
}

#[test]
fn render_retreats_draws_the_retreat_phase_and_refuses_a_case_without_one() {
    let (code, stdout, stderr) = dipsandbox(&["render", "scenarios/datc/6.H.1.ron", "--retreats"]);
    assert_eq!(code, 0, "{stderr}");
    let doc = parse(&stdout);
    assert!(
        stdout.contains("Spring 1901 Retreat"),
        "the title says the phase"
    );
    // F Trieste - Albania and F Greece - Albania bounce; A Serbia's support is illegal.
    assert!(class_of(&doc, "order-0", "6.H.1").contains("verdict-fails"));
    assert!(class_of(&doc, "order-1", "6.H.1").contains("verdict-illegal"));
    assert!(class_of(&doc, "order-2", "6.H.1").contains("verdict-fails"));
    class_of(&doc, "dislodged-0", "6.H.1");
    class_of(&doc, "dislodged-1", "6.H.1");
    let (code, _, stderr) = dipsandbox(&["render", "scenarios/datc/6.A.1.ron", "--retreats"]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("6.A.1.ron") && stderr.contains("no follow-up retreats"),
        "{stderr}"
    );
}

#[test]
fn the_readmes_picture_is_what_render_draws_now() {
    let (code, stdout, stderr) = dipsandbox(&["render", "scenarios/datc/6.F.16.ron", "--crop"]);
    assert_eq!(code, 0, "{stderr}");
    let committed = std::fs::read_to_string("docs/pictures/6.F.16.svg").expect("the picture");
    assert!(
        committed == stdout,
        "docs/pictures/6.F.16.svg is out of date: dipsandbox render scenarios/datc/6.F.16.ron --crop -o docs/pictures/6.F.16.svg --force"
    );
}

/// A box: left, top, right, bottom.
type Frame = (f64, f64, f64, f64);

/// The numbers of an SVG's viewBox: x, y, width, height.
fn view_box(doc: &roxmltree::Document) -> [f64; 4] {
    let v: Vec<f64> = doc
        .root_element()
        .attribute("viewBox")
        .expect("viewBox")
        .split(' ')
        .map(|t| t.parse().expect("number"))
        .collect();
    [v[0], v[1], v[2], v[3]]
}

/// The part of a picture the map is drawn in: a cropped picture's frame (`rect.frame`), else
/// the viewBox above the legend.
fn map_frame(doc: &roxmltree::Document) -> Frame {
    let num = |n: roxmltree::Node, a: &str| -> f64 {
        n.attribute(a).expect("attribute").parse().expect("number")
    };
    if let Some(r) = doc
        .descendants()
        .find(|n| n.has_tag_name("rect") && n.attribute("class") == Some("frame"))
    {
        let (x, y) = (num(r, "x"), num(r, "y"));
        return (x, y, x + num(r, "width"), y + num(r, "height"));
    }
    let [x, y, w, h] = view_box(doc);
    let legend_top = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("legend"))
        .and_then(|g| g.attribute("transform"))
        .and_then(|t| t.strip_prefix("translate(")?.split([' ', ')']).nth(1))
        .map_or(y + h, |t| t.parse().expect("number"));
    (x, y, x + w, legend_top)
}

/// The centre and radius of a province's node.
fn node(doc: &roxmltree::Document, abbr: &str) -> (f64, f64, f64) {
    let id = format!("prov-{}", abbr.to_lowercase());
    let g = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(id.as_str()))
        .unwrap_or_else(|| panic!("no {id}"));
    let c = g
        .descendants()
        .find(|n| n.has_tag_name("circle"))
        .expect("a node");
    let num = |a: &str| -> f64 { c.attribute(a).expect("attribute").parse().expect("number") };
    (num("cx"), num("cy"), num("r"))
}

fn inside(f: Frame, (x, y): (f64, f64), r: f64) -> bool {
    x - r >= f.0 - 0.05 && x + r <= f.2 + 0.05 && y - r >= f.1 - 0.05 && y + r <= f.3 + 0.05
}

/// The provinces every order of `s` names: its unit's and its targets (a move's destination,
/// the supported unit and the move it supports, the convoyed army and its destination).
fn order_places(s: &Scenario) -> Vec<String> {
    use dipsandbox_core::model::orders::OrderKind;
    let mut out = Vec::new();
    for o in &s.orders {
        let mut ps = Vec::new();
        if let Some(u) = &o.order.unit {
            ps.push(u.loc.province);
        }
        match &o.order.kind {
            OrderKind::Move { dest, .. } => ps.push(dest.province),
            OrderKind::Support { target, dest } => {
                ps.push(target.unit.loc.province);
                ps.extend(dest.iter().map(|d| d.province));
            }
            OrderKind::Convoy { army, dest } => {
                ps.push(army.unit.loc.province);
                ps.push(dest.province);
            }
            _ => {}
        }
        out.extend(ps.into_iter().map(|p| s.map.province(p).abbr.clone()));
    }
    out
}

fn cropped(s: &Scenario, result: Option<&PhaseResult>, title: Option<String>) -> String {
    let opts = PictureOptions {
        crop: Crop::Action,
        title,
        ..PictureOptions::default()
    };
    position_svg(s, result, &opts).expect("draws")
}

/// Every unit's glyph and every node an order names lies inside the map's frame.
fn check_framed(s: &Scenario, doc: &roxmltree::Document, what: &str) {
    let f = map_frame(doc);
    for u in 0..s.units.len() {
        let c = glyph_centre(doc, &format!("unit-{u}"));
        assert!(
            inside(f, c, 7.5),
            "{what}: {} at {c:?} is outside the frame {f:?}",
            s.units[u].describe(&s.map)
        );
    }
    for abbr in order_places(s) {
        let (x, y, r) = node(doc, &abbr);
        assert!(
            inside(f, (x, y), r),
            "{what}: {abbr} at ({x}, {y}) is outside the frame {f:?}"
        );
    }
}

#[test]
fn cropped_6_f_16_frames_every_unit_and_target_in_less_than_the_map() {
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("6.F.16");
    let run = check::run(&s, None, false).expect("adjudicates");
    let crop = cropped(&s, Some(run.phase()), None);
    let doc = parse(&crop);
    check_contract(&s, &crop, "cropped 6.F.16");
    check_verdicts(&s, &crop, run.phase(), "cropped 6.F.16");
    check_framed(&s, &doc, "cropped 6.F.16");
    let whole = position_svg(&s, Some(run.phase()), &PictureOptions::default()).expect("draws");
    let whole_doc = parse(&whole);
    let (f, w) = (map_frame(&doc), map_frame(&whole_doc));
    assert!(
        f.2 - f.0 < 0.8 * (w.2 - w.0) && f.3 - f.1 < 0.8 * (w.3 - w.1),
        "the frame {f:?} is not much smaller than the map {w:?}"
    );
    let (vb, wvb) = (view_box(&doc), view_box(&whole_doc));
    assert!(vb[2] < wvb[2], "viewBox {vb:?} against the map's {wvb:?}");
    // The whole map is still drawn, hidden outside the frame: Moscow is far from the Channel.
    let (mx, my, _) = node(&doc, "mos");
    assert!(!inside(f, (mx, my), 0.0), "Moscow is outside the frame");
}

#[test]
fn cropped_units_are_larger_at_800_px_than_on_the_whole_map() {
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("6.F.16");
    let run = check::run(&s, None, false).expect("adjudicates");
    // A node's radius in output pixels: its radius in the drawing × width / viewBox width.
    let px = |svg: &str| {
        let doc = parse(svg);
        let (_, _, r) = node(&doc, "eng");
        let width: f64 = doc
            .root_element()
            .attribute("width")
            .expect("width")
            .parse()
            .expect("number");
        r * width / view_box(&doc)[2]
    };
    let whole =
        px(&position_svg(&s, Some(run.phase()), &PictureOptions::default()).expect("draws"));
    let crop = px(&cropped(&s, Some(run.phase()), None));
    eprintln!("6.F.16 at 800 px: a node's radius is {whole:.1} px whole, {crop:.1} px cropped");
    assert!(
        crop >= 1.6 * whole,
        "cropped nodes are {crop:.1} px, whole-map ones {whole:.1} px"
    );
}

#[test]
fn every_built_in_maps_opening_cropped_keeps_the_contract_and_frames_its_units() {
    for map in built_in_maps() {
        let name = map.name.clone();
        let s = Scenario::opening(Arc::new(map), &name);
        let run = check::run(&s, None, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        for result in [Some(run.phase()), None] {
            let svg = cropped(&s, result, Some(name.clone()));
            check_contract(&s, &svg, &name);
            check_framed(&s, &parse(&svg), &name);
        }
    }
    // A lone unit's order on the standard map: cropped, enlarged at most 2.5 times.
    let one = Scenario::from_ron(
        r#"Scenario(title: "one", map: "standard", phase: "Spring 1901 Movement",
           units: { "England": ["F London"] }, orders: { "England": ["F London - North Sea"] })"#,
        "one.ron",
    )
    .expect("loads");
    let doc_svg = cropped(&one, None, None);
    let doc = parse(&doc_svg);
    let whole = position_svg(&one, None, &PictureOptions::default()).expect("draws");
    let zoom = view_box(&parse(&whole))[2] / view_box(&doc)[2];
    assert!(
        (2.0..=2.5001).contains(&zoom),
        "a lone unit is enlarged {zoom:.2} times"
    );
    check_framed(&one, &doc, "one unit");
}

#[test]
fn snapshot_standard_pandins_paradox_cropped() {
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("6.F.16");
    let run = check::run(&s, None, false).expect("adjudicates");
    let svg = cropped(
        &s,
        Some(run.phase()),
        Some("6.F.16 Pandin's paradox".into()),
    );
    insta::assert_snapshot!("picture_standard_6F16_cropped", svg);
}

/// The label boxes of the provinces a picture draws (as the layout sizes them: `CHAR_W` a
/// character, `LABEL_H` high, the baseline 2.5 above the bottom), with their text.
fn label_boxes(doc: &roxmltree::Document) -> Vec<(String, Frame)> {
    use dipsandbox_core::io::picture::layout::{CHAR_W, LABEL_H};
    doc.descendants()
        .filter(|n| n.attribute("id").is_some_and(|id| id.starts_with("prov-")))
        .filter_map(|g| g.children().find(|c| c.has_tag_name("text")))
        .map(|t| {
            let text = t.text().unwrap_or("").to_string();
            let num =
                |a: &str| -> f64 { t.attribute(a).expect("attribute").parse().expect("number") };
            let (x, y) = (num("x"), num("y"));
            let w = text.chars().count() as f64 * CHAR_W + 2.0;
            let b = (x - w / 2.0, y + 2.5 - LABEL_H, x + w / 2.0, y + 2.5);
            (text, b)
        })
        .collect()
}

#[test]
fn every_datc_movement_case_cropped_frames_its_orders_and_no_labels_overlap() {
    let mut cases = 0;
    for f in datc_cases() {
        let what = f.display().to_string();
        let s = Scenario::load(&f).unwrap_or_else(|e| panic!("{e}"));
        if s.phase.kind != PhaseKind::Movement {
            continue;
        }
        let run = check::run(&s, None, false).unwrap_or_else(|e| panic!("{what}: {e}"));
        let svg = cropped(&s, Some(run.phase()), Some(s.title.clone()));
        check_contract(&s, &svg, &what);
        check_verdicts(&s, &svg, run.phase(), &what);
        let doc = parse(&svg);
        check_framed(&s, &doc, &what);
        let fr = map_frame(&doc);
        let seen: Vec<(String, Frame)> = label_boxes(&doc)
            .into_iter()
            .filter(|(_, b)| b.0 < fr.2 && fr.0 < b.2 && b.1 < fr.3 && fr.1 < b.3)
            .collect();
        for (k, (ta, a)) in seen.iter().enumerate() {
            for (tb, b) in seen.iter().skip(k + 1) {
                assert!(
                    !(a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3),
                    "{what}: the labels {ta} {a:?} and {tb} {b:?} overlap"
                );
            }
        }
        cases += 1;
    }
    assert!(cases > 100, "{cases} movement cases");
}

#[test]
fn render_crop_writes_a_png_with_each_unit_in_its_colour_where_the_svg_puts_it() {
    let dir = temp_dir("render_crop_png");
    let (png_path, svg_path) = (dir.join("pandin.png"), dir.join("pandin.svg"));
    for out in [&png_path, &svg_path] {
        let (code, _, stderr) = dipsandbox(&[
            "render",
            "scenarios/datc/6.F.16.ron",
            "--crop",
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{stderr}");
    }
    let png = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(&png_path).expect("written"))
        .expect("a PNG");
    assert_eq!(png.width(), 800);
    let svg = std::fs::read_to_string(&svg_path).expect("svg");
    let doc = parse(&svg);
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("frame")),
        "--crop crops 6.F.16"
    );
    let vb = view_box(&doc);
    let scale = 800.0 / vb[2];
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("loads");
    let want: [(u8, u8, u8); 7] = [
        (0xd6, 0x27, 0x28),
        (0x1f, 0x4f, 0xbf),
        (0x5f, 0xd3, 0xf3),
        (0x8c, 0x8c, 0x8c),
        (0x2c, 0xa0, 0x2c),
        (0xe3, 0x77, 0xe3),
        (0xf2, 0xd0, 0x24),
    ];
    for (u, unit) in s.units.iter().enumerate() {
        let (x, y) = glyph_centre(&doc, &format!("unit-{u}"));
        let (r, g, b) = want[usize::from(unit.power.0) % 7];
        let near = |a: u8, b: u8| a.abs_diff(b) <= 24;
        // Points inside the glyph (half 7.5 units) and off its letter, in output pixels.
        let points = [
            (-5.5, 0.0),
            (5.5, 0.0),
            (0.0, -5.5),
            (0.0, 5.5),
            (-4.0, -4.0),
            (4.0, -4.0),
            (-4.0, 4.0),
            (4.0, 4.0),
        ];
        let coloured = points
            .iter()
            .filter(|(dx, dy)| {
                let (px, py) = ((x + dx - vb[0]) * scale, (y + dy - vb[1]) * scale);
                let p = png
                    .pixel(px.round() as u32, py.round() as u32)
                    .expect("inside");
                near(p.red(), r) && near(p.green(), g) && near(p.blue(), b)
            })
            .count();
        assert!(
            coloured >= 6,
            "{}: {coloured} of 8 points in its power's colour",
            unit.describe(&s.map)
        );
    }
}
