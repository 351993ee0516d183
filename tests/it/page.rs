//! `dipsandbox report` without a browser: what the page holds (verdicts, expectations, the rules
//! in force, the trace's steps), that user text stays text, that it fetches nothing, and the
//! folder pages' cards, bad class files and picture cap. `browser.rs` loads the pages in
//! Chromium.

use std::path::Path;

use crate::common::{dipsandbox, temp_dir};
use dipsandbox_core::engine::{PhaseInput, Registry};
use dipsandbox_core::io::page::html::esc;
use dipsandbox_core::io::page::{CaseOptions, case_page};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::adjudicate_scenario;
use dipsandbox_core::tools::versus::summary::{ClassRow, Summary, save_summary};

/// A scenario file's text with its title replaced by `title` (RON-escaped).
pub fn retitled(ron: &str, title: &str) -> String {
    let start = ron.find("title: \"").expect("a title") + "title: \"".len();
    let end = start + ron[start..].find("\",").expect("end of the title");
    let quoted = title.replace('\\', "\\\\").replace('"', "\\\"");
    format!("{}{}{}", &ron[..start], quoted, &ron[end..])
}

fn case(file: &str) -> Scenario {
    Scenario::load(Path::new(file)).expect("scenario loads")
}

fn page_of(s: &Scenario, rules: Option<&str>) -> String {
    let engine = Registry::builtin()
        .default_engine()
        .expect("engine")
        .clone();
    let rules = rules.map(|r| dipsandbox_core::model::rules::Rules::parse_spec(r).expect("rules"));
    case_page(s, rules, &*engine, &CaseOptions::default()).expect("a page")
}

/// The JSON of the page's steps block.
fn steps_of(html: &str) -> serde_json::Value {
    let open = "<script id=\"steps-data\" type=\"application/json\">";
    let start = html.find(open).expect("the steps block") + open.len();
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("JSON")
}

/// Every order with its verdict and reason, the expectations met, and every step the TUI shows
/// (the engine's non-bookkeeping events, in its words, with its landmarks) in the page's data.
#[test]
fn the_case_page_holds_verdicts_expectations_and_every_step() {
    let s = case("scenarios/datc/6.F.16.ron");
    let html = page_of(&s, None);
    let engine = Registry::builtin()
        .default_engine()
        .expect("engine")
        .clone();
    let run = adjudicate_scenario(&s, None, &*engine, true).expect("runs");
    for (o, out) in s.orders.iter().zip(&run.phase().outcomes) {
        assert!(html.contains(&esc(&o.text)), "order {} listed", o.text);
        assert!(
            html.contains(&esc(&out.reason)),
            "reason {} listed",
            out.reason
        );
    }
    assert!(html.contains("class=\"met\">✓ all"), "expectations met");
    let input = PhaseInput::of(&s, &run.rules);
    let st = run.result.steps(&input).expect("trace");
    let shown: Vec<usize> = (0..st.len()).filter(|&i| !st.mark(i).minor).collect();
    let steps = steps_of(&html);
    let steps = steps["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), shown.len());
    for (step, &i) in steps.iter().zip(&shown) {
        assert_eq!(step["text"], st.describe(&input, i));
        assert_eq!(step["landmark"].is_null(), st.mark(i).landmark.is_none());
    }
    assert!(steps.iter().any(|s| s["landmark"] == "cycle"));
}

/// Under other rules than the scenario's own: the expectations are missed and say how, and the
/// changed option stands out in the rules table.
#[test]
fn the_case_page_shows_missed_expectations_and_the_rules_in_force() {
    let s = case("scenarios/datc/6.F.16.ron");
    let html = page_of(&s, Some("paradox=Rule1982"));
    assert!(html.contains("class=\"missed\">✗"), "expectations missed");
    assert!(
        html.contains("<tr class=\"changed\"><td>4.A.2</td><td class=\"mono\">paradox</td><td class=\"mono\">Rule1982</td>"),
        "the changed option is marked"
    );
}

/// A title and description that try to close the script block or the title: every `<` of them
/// reaches the page as `&lt;`, and the page has exactly its own two script elements.
#[test]
fn hostile_text_stays_text_in_the_page() {
    let ron = std::fs::read_to_string("scenarios/datc/6.F.16.ron").expect("case");
    let hostile = "</title></script><script>alert(1)</script><!--";
    let s = Scenario::from_ron(&retitled(&ron, hostile), "hostile.ron").expect("loads");
    let html = page_of(&s, None);
    assert!(!html.contains(hostile));
    assert!(!html.contains("<script>alert"));
    assert_eq!(
        html.matches("<script").count(),
        2,
        "the data block and the stepper"
    );
    assert_eq!(html.matches("</script>").count(), 2);
    assert!(html.contains("<title>&lt;/title&gt;&lt;/script&gt;"));
    // In the steps' JSON too (the title is not there, but order text and reasons are).
    let steps = steps_of(&html);
    assert!(steps["steps"].is_array());
}

/// Invisible and control characters in user text reach neither a page nor a picture: a
/// right-to-left override in a title (which would reorder what follows it) and an escape
/// character are shown escaped, as the terminal shows them, in the page and in its picture.
#[test]
fn invisible_characters_are_shown_escaped_in_pages_and_pictures() {
    let ron = std::fs::read_to_string("scenarios/datc/6.F.16.ron").expect("case");
    let sly = "Pandin \u{202e}evil\u{1b}[31m";
    let s = Scenario::from_ron(&retitled(&ron, sly), "sly.ron").expect("loads");
    assert!(s.title.contains('\u{202e}') && s.title.contains('\u{1b}'));
    let html = page_of(&s, None);
    assert!(!html.contains('\u{202e}') && !html.contains('\u{1b}'));
    assert!(
        html.contains("Pandin \\u{202e}evil\\u{1b}[31m"),
        "shown escaped"
    );
    let (code, svg, err) = {
        let dir = temp_dir("page-invisible");
        let f = dir.join("sly.ron");
        std::fs::write(&f, retitled(&ron, sly)).expect("write");
        dipsandbox(&["render", f.to_str().expect("utf-8")])
    };
    assert_eq!(code, 0, "{err}");
    assert!(!svg.contains('\u{202e}') && !svg.contains('\u{1b}'));
    assert!(
        svg.contains("Pandin \\u{202e}evil"),
        "shown escaped in the picture's title"
    );
}

/// The page fetches nothing: no external script, style, image or link to follow, and a content
/// security policy that forbids any fetch.
#[test]
fn the_pages_fetch_nothing() {
    let s = case("scenarios/datc/6.F.16.ron");
    let html = page_of(&s, None);
    for bad in [
        "<link",
        "src=\"http",
        "href=\"http",
        "src='http",
        "url(http",
        "@import",
        "<iframe",
        "<script src",
    ] {
        assert!(!html.contains(bad), "the page holds {bad}");
    }
    assert!(html.contains("default-src 'none'"));
}

/// `report FILE` writes FILE.html beside it by default and says where; again without --force
/// is refused; `-o -` prints the page.
#[test]
fn report_writes_beside_the_file_and_refuses_to_overwrite() {
    let dir = temp_dir("page-output");
    let file = dir.join("pandin.ron");
    std::fs::copy("scenarios/datc/6.F.16.ron", &file).expect("copy");
    let f = file.to_str().expect("utf-8");
    let (code, out, err) = dipsandbox(&["report", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("pandin.html").is_file());
    assert!(out.contains("pandin.html"), "{out}");
    let (code, _, err) = dipsandbox(&["report", f]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    let (code, out, _) = dipsandbox(&["report", f, "-o", "-"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<!DOCTYPE html>"));
}

/// A case page draws the part of the map the case is about (a cropped picture, framed), the
/// whole map with `--whole`; each the picture `render` draws with the same choice.
#[test]
fn the_case_pages_picture_is_cropped_unless_whole() {
    let framed = |html: &str| html.contains("<rect class=\"frame\"");
    let view_box = |html: &str| {
        let at = html.find("<svg ").expect("a picture");
        let rest = &html[at..];
        let vb = rest.split("viewBox=\"").nth(1).expect("viewBox");
        // Left edge and width (render's title makes its picture taller).
        let n: Vec<String> = vb[..vb.find('"').expect("end")]
            .split(' ')
            .map(String::from)
            .collect();
        (n[0].clone(), n[2].clone())
    };
    let (code, page, err) = dipsandbox(&["report", "scenarios/datc/6.F.16.ron", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(framed(&page), "the case page is cropped by default");
    let (code, whole, err) =
        dipsandbox(&["report", "scenarios/datc/6.F.16.ron", "-o", "-", "--whole"]);
    assert_eq!(code, 0, "{err}");
    assert!(!framed(&whole), "--whole draws the whole map");
    let (_, crop_svg, _) = dipsandbox(&["render", "scenarios/datc/6.F.16.ron", "--crop"]);
    let (_, whole_svg, _) = dipsandbox(&["render", "scenarios/datc/6.F.16.ron"]);
    assert_eq!(view_box(&page), view_box(&crop_svg));
    assert_eq!(view_box(&whole), view_box(&whole_svg));
    assert_ne!(view_box(&page), view_box(&whole));
}

/// A case with follow-up retreats shows them drawn as well: an image of the retreat phase (so
/// the main picture keeps the ids the stepper highlights), with each retreat order's verdict.
#[test]
fn a_case_with_retreats_shows_the_retreat_phase_as_a_second_picture() {
    use base64::Engine as _;
    let (code, page, err) = dipsandbox(&["report", "scenarios/datc/6.H.1.ron", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    let at = page
        .find("<figure id=\"retreat-picture\">")
        .expect("a retreat picture");
    let figure = &page[at..at + page[at..].find("</figure>").expect("its end")];
    assert!(
        figure.contains("The retreats: Spring 1901 Retreat"),
        "{figure}"
    );
    let data = figure
        .split("data:image/svg+xml;base64,")
        .nth(1)
        .and_then(|d| d.split('"').next())
        .expect("an inline picture");
    let svg = base64::engine::general_purpose::STANDARD
        .decode(data)
        .expect("base64");
    let svg = String::from_utf8(svg).expect("utf-8");
    // F Trieste - Albania and F Greece - Albania bounce; A Serbia's support is illegal.
    assert!(svg.contains("<g id=\"order-0\" class=\"order verdict-fails\""));
    assert!(svg.contains("<g id=\"order-1\" class=\"order verdict-illegal\""));
    assert!(svg.contains("<g id=\"order-2\" class=\"order verdict-fails\""));
    assert!(
        svg.contains("id=\"dislodged-1\""),
        "both dislodged fleets are drawn"
    );
    // Ids stay unique in the page: the second picture is an image, not inline SVG.
    assert_eq!(page.matches("id=\"order-0\"").count(), 1);
    let (_, pandin, _) = dipsandbox(&["report", "scenarios/datc/6.F.16.ron", "-o", "-"]);
    assert!(
        !pandin.contains("<figure id=\"retreat-picture\""),
        "no retreats, no second picture"
    );
}

/// A class row for a hand-made summary.
fn row(file: &str, count: u64) -> ClassRow {
    ClassRow {
        file: file.to_string(),
        shape: "convoy paradox".to_string(),
        b_as_a: vec!["paradox=Rule1982".to_string()],
        a_as_b: Vec::new(),
        way: "move: carried out under decisions only".to_string(),
        count,
        explained: count,
        first: 0,
        datc: Vec::new(),
        known: Vec::new(),
    }
}

/// A versus output folder `NAME/run` whose summary names a good class file, one that does not
/// parse and one outside the folder (`NAME/outside.ron`); returns `NAME/run`.
pub fn bad_versus_folder(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let out = dir.join("run");
    std::fs::create_dir_all(&out).expect("folder");
    std::fs::copy("scenarios/datc/6.F.16.ron", out.join("good.ron")).expect("copy");
    std::fs::write(out.join("broken.ron"), "Scenario(title: ").expect("write");
    std::fs::write(dir.join("outside.ron"), "").expect("write");
    let summary = Summary {
        a: "decisions".to_string(),
        b: "dpjudge".to_string(),
        mix: "paradox".to_string(),
        map: "standard".to_string(),
        rules: "datc".to_string(),
        count: 10,
        positions: 10,
        disagreements: 6,
        classes: vec![
            row("good.ron", 3),
            row("broken.ron", 2),
            row("../outside.ron", 1),
        ],
        ..Summary::default()
    };
    save_summary(&out, &summary).expect("summary");
    out
}

/// The folder of [`bad_versus_folder`]: the page is written, with a card each, the bad ones
/// saying why; with `--max-pictures 1` only the first card has pictures, and the page says so.
#[test]
fn a_versus_folder_with_bad_class_files_gets_cards_saying_why() {
    let out = bad_versus_folder("page-versus-bad");
    let dir = out.parent().expect("parent").to_path_buf();
    let o = out.to_str().expect("utf-8");
    let (code, text, err) = dipsandbox(&["report", o]);
    assert_eq!(code, 0, "{text}{err}");
    let html = std::fs::read_to_string(dir.join("run.html")).expect("page");
    assert_eq!(html.matches("<section class=\"card\"").count(), 3);
    assert_eq!(
        html.matches("<img ").count(),
        2,
        "the good class under both engines"
    );
    assert!(
        html.contains("cannot be read"),
        "the broken file's card says why"
    );
    assert!(
        html.contains("only a file inside"),
        "the outside file is not read"
    );
    assert!(html.contains(&esc(&format!(
        "dipsandbox {}",
        out.join("good.ron").display()
    ))));

    let capped = dir.join("capped.html");
    let (code, text, err) = dipsandbox(&[
        "report",
        o,
        "--max-pictures",
        "1",
        "-o",
        capped.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{text}{err}");
    let html = std::fs::read_to_string(&capped).expect("page");
    assert!(html.contains("3 cards: the first 1 with pictures"));
    assert_eq!(html.matches("<img ").count(), 2);
}

/// A folder card's pictures are cropped to where the class's orders are, with one frame for
/// both engines (their results side by side); `--whole` draws the whole map.
#[test]
fn a_folder_cards_pictures_share_one_cropped_frame_unless_whole() {
    use base64::Engine as _;
    let pictures = |html: &str| -> Vec<String> {
        html.split("data:image/svg+xml;base64,")
            .skip(1)
            .map(|d| {
                let d = d.split('"').next().expect("data");
                let svg = base64::engine::general_purpose::STANDARD
                    .decode(d)
                    .expect("base64");
                String::from_utf8(svg).expect("utf-8")
            })
            .collect()
    };
    let view_box = |svg: &str| {
        let vb = svg.split("viewBox=\"").nth(1).expect("viewBox");
        vb[..vb.find('"').expect("end")].to_string()
    };
    let page = many_classes("page-cards-cropped", 2, 1);
    let cropped = pictures(&std::fs::read_to_string(&page).expect("page"));
    assert_eq!(cropped.len(), 2, "one picture per engine");
    assert!(cropped.iter().all(|p| p.contains("<rect class=\"frame\"")));
    assert_eq!(view_box(&cropped[0]), view_box(&cropped[1]), "one frame");
    let run = page.with_file_name("run");
    let (code, whole, err) = dipsandbox(&[
        "report",
        run.to_str().expect("utf-8"),
        "--whole",
        "--max-pictures",
        "1",
        "-o",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    let whole = pictures(&whole);
    assert_eq!(whole.len(), 2);
    assert!(whole.iter().all(|p| !p.contains("<rect class=\"frame\"")));
    assert_ne!(view_box(&whole[0]), view_box(&cropped[0]));
}

/// A folder that is neither a versus nor a replay output is refused with a message that says
/// what `report` reads.
#[test]
fn report_of_another_folder_says_what_it_reads() {
    let dir = temp_dir("page-other");
    std::fs::write(dir.join("notes.txt"), "x").expect("write");
    let (code, _, err) = dipsandbox(&["report", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("summary.versus") && err.contains("replay"),
        "{err}"
    );
}

/// A versus folder of `n` classes reported with `--max-pictures cap`: one page, every class a
/// card, pictures (two engines each) for the first `cap` only, and the page says so; returns
/// the page.
pub fn many_classes(name: &str, n: u64, cap: usize) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let out = dir.join("run");
    std::fs::create_dir_all(&out).expect("folder");
    let body = std::fs::read_to_string("scenarios/datc/6.F.16.ron").expect("case");
    let mut classes = Vec::new();
    for i in 0..n {
        let file = format!("class-{i}.ron");
        std::fs::write(out.join(&file), &body).expect("write");
        classes.push(row(&file, n - i));
    }
    let summary = Summary {
        a: "decisions".to_string(),
        b: "dpjudge".to_string(),
        mix: "paradox".to_string(),
        map: "standard".to_string(),
        rules: "datc".to_string(),
        count: 100_000,
        positions: 100_000,
        disagreements: n * (n + 1) / 2,
        classes,
        ..Summary::default()
    };
    save_summary(&out, &summary).expect("summary");
    let start = std::time::Instant::now();
    let (code, text, err) = dipsandbox(&[
        "report",
        out.to_str().expect("utf-8"),
        "--max-pictures",
        &cap.to_string(),
    ]);
    let took = start.elapsed();
    assert_eq!(code, 0, "{text}{err}");
    let html = std::fs::read_to_string(dir.join("run.html")).expect("page");
    assert_eq!(html.matches("<section class=\"card\"").count(), n as usize);
    assert_eq!(html.matches("<img ").count(), 2 * cap);
    assert!(html.contains(&format!("{n} cards: the first {cap} with pictures")));
    assert!(
        html.contains(&format!("class-{}.ron", n - 1)),
        "the last class is listed"
    );
    eprintln!(
        "{n} classes, {cap} pictured: {:.1} s, {} KB",
        took.as_secs_f64(),
        html.len() / 1024
    );
    dir.join("run.html")
}

/// 300 classes, the default cap of 60 pictured.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_folder_of_hundreds_of_classes_is_one_page_with_its_pictures_capped() {
    many_classes("page-versus-300", 300, 60);
}

/// The default tier's twin: 120 classes, 4 pictured.
#[test]
fn a_folder_of_many_classes_is_one_page_with_its_pictures_capped() {
    many_classes("page-versus-120", 120, 4);
}

/// The TUI's `W` writes the position's page beside its picture, with the same name, and the
/// status bar says where; again, a second pair (never over a file). The page is the one
/// `report` writes of the scenario as the session has it.
#[test]
fn the_tui_key_writes_the_page_beside_the_picture() {
    use crate::common::{app, run, text};
    // A folder as long as a CI machine's: the names are said before the folder, so the
    // status line never cuts them.
    let dir = temp_dir("tui_page")
        .join("a-folder-whose-name-is-longer-than-the-status-line-leaves-room-for");
    std::fs::create_dir_all(&dir).expect("folder");
    let file = dir.join("pandin.ron");
    std::fs::copy("scenarios/datc/6.F.16.ron", &file).expect("copy");
    let mut a = app(Some(file.to_str().expect("utf-8")), "tui_page");
    let screen = text(&run(&mut a, 120, 40, "W"));
    assert!(
        screen.contains("its page to pandin.html"),
        "the status bar says where:\n{screen}"
    );
    let html = std::fs::read_to_string(dir.join("pandin.html")).expect("the page");
    let s = case("scenarios/datc/6.F.16.ron");
    let steps = steps_of(&html);
    assert_eq!(
        steps,
        steps_of(&page_of(&s, None)),
        "the same trace as report's"
    );
    assert!(html.contains("Pandin"));
    let screen = text(&run(&mut a, 120, 40, "W"));
    assert!(screen.contains("pandin-2.html"), "{screen}");
    assert!(dir.join("pandin-2.svg").is_file());
    // At 80×24 the status line has room for the start only: the whole message, folder and
    // all, is in a box above it until the next key.
    let screen = text(&run(&mut a, 80, 24, "W"));
    let squeezed: String = screen
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect();
    let folder: String = dir
        .display()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    assert!(screen.contains("┌ written"), "{screen}");
    assert!(
        squeezed.contains(&format!("pandin-3.svganditspagetopandin-3.html,in{folder}")),
        "{screen}"
    );
}

/// A page's budget of state lines: the steps within it carry the engine's state, those past
/// it their words and highlights and a line that says the TUI has the rest; a cut trace says
/// how long it was.
#[test]
fn the_page_keeps_to_its_budgets_and_says_so() {
    let s = case("scenarios/datc/6.F.16.ron");
    let engine = Registry::builtin()
        .default_engine()
        .expect("engine")
        .clone();
    let opts = CaseOptions {
        max_steps: 10,
        max_state_lines: 40,
        ..CaseOptions::default()
    };
    let html = case_page(&s, None, &*engine, &opts).expect("page");
    let steps = steps_of(&html);
    let steps = steps["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 10);
    assert!(html.contains("The trace has 32 steps; the page carries the first 10."));
    let carried = |st: &serde_json::Value| !st["sections"].to_string().contains("(not carried");
    assert!(carried(&steps[0]), "the first step's state is there");
    assert!(!carried(&steps[9]), "the budget ran out before the tenth");
    let lines: usize = steps
        .iter()
        .filter(|st| carried(st))
        .flat_map(|st| st["sections"].as_array().expect("sections").iter())
        .map(|sec| sec["lines"].as_array().expect("lines").len() + 1)
        .sum();
    assert!(lines <= 40, "{lines} lines of state");
    assert!(
        steps
            .iter()
            .all(|st| !st["text"].as_str().expect("text").is_empty())
    );
}
