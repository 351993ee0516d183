//! The pages of `dipsandbox report` in a real browser: headless Chromium loads every page these
//! tests write, and finds no console error; the stepper's buttons change what the picture
//! highlights (the page's own self-test, `#selftest`, presses them and writes what was
//! highlighted into the page, which `--dump-dom` returns); a screenshot is not blank and has
//! something drawn where the picture put each unit.
//!
//! The browser: `DIPSANDBOX_BROWSER` (a path), else `chromium`, `chromium-browser`,
//! `google-chrome` or `google-chrome-stable` on PATH. With none, each test prints SKIPPED and
//! why, and passes, unless `DIPSANDBOX_REQUIRE_BROWSER=1` (which `.ci/run` sets when it found or
//! installed Chromium): then a missing browser fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{dipsandbox, temp_dir};
use dipsandbox_core::engine::{PhaseInput, Registry};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::adjudicate_scenario;

/// The window every page is loaded in (the self-test's unit boxes and the screenshot agree on
/// it).
const WINDOW: &str = "--window-size=1000,900";

/// The browser to run, or why there is none (then the test is skipped, or fails when
/// `DIPSANDBOX_REQUIRE_BROWSER=1`).
fn browser() -> Option<PathBuf> {
    let found = std::env::var_os("DIPSANDBOX_BROWSER")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            std::env::split_paths(&path).find_map(|dir| {
                [
                    "chromium",
                    "chromium-browser",
                    "google-chrome",
                    "google-chrome-stable",
                ]
                .iter()
                .map(|n| dir.join(n))
                .find(|p| p.is_file())
            })
        });
    if found.is_none() {
        let why = "no chromium, chromium-browser or google-chrome on PATH (and no DIPSANDBOX_BROWSER): \
                   .ci/run installs Chromium with apt-get when it can";
        assert!(
            std::env::var("DIPSANDBOX_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "DIPSANDBOX_REQUIRE_BROWSER=1 but {why}"
        );
        eprintln!("SKIPPED: {why}");
    }
    found
}

/// What one run of the browser gave: the page's DOM (or nothing) and its console lines.
struct Load {
    dom: String,
    console: Vec<String>,
}

/// Runs the headless browser on `url` with `args`, killed after a minute.
fn run_browser(bin: &Path, url: &str, args: &[&str], name: &str) -> Load {
    let dir = temp_dir(&format!("chromium-{name}"));
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(bin)
        .args([
            "--headless=new",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--v=0",
            WINDOW,
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(args)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("stdout file"))
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", bin.display()));
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the browser did not finish {url} within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let stderr = std::fs::read_to_string(&err).unwrap_or_default();
    Load {
        dom: std::fs::read_to_string(&out).unwrap_or_default(),
        console: stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
            .map(str::to_string)
            .collect(),
    }
}

fn file_url(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).expect("page exists");
    format!("file://{}", abs.display())
}

/// Loads `page` with `#selftest` and returns the self-test's JSON; no console line, no error
/// caught by the page.
fn selftest(bin: &Path, page: &Path, name: &str) -> Value {
    let load = run_browser(
        bin,
        &format!("{}#selftest", file_url(page)),
        &["--dump-dom"],
        name,
    );
    assert!(
        load.console.is_empty(),
        "{}: the console says:\n{}",
        page.display(),
        load.console.join("\n")
    );
    let start = load
        .dom
        .find("<pre id=\"selftest-result\">")
        .unwrap_or_else(|| panic!("{}: no self-test result in the DOM", page.display()));
    let rest = &load.dom[start + "<pre id=\"selftest-result\">".len()..];
    let json = &rest[..rest.find("</pre>").expect("end of the result")];
    let json = json
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let v: Value = serde_json::from_str(&json).expect("self-test JSON");
    assert_eq!(
        v["errors"],
        Value::Array(vec![]),
        "{}: the page caught errors",
        page.display()
    );
    v
}

/// The ids the self-test saw highlighted after its `n`th press.
fn highlighted(v: &Value, n: usize) -> Vec<String> {
    let mut ids: Vec<String> = v["record"][n]["hl"]
        .as_array()
        .expect("hl")
        .iter()
        .map(|x| x.as_str().expect("id").to_string())
        .collect();
    ids.sort();
    ids
}

/// The ids a step highlights: `unit-U` for each unit the engine names, `order-I` for their
/// orders (each order's unit is the unit in the province it names).
fn expected_ids(s: &Scenario, units: &[usize]) -> Vec<String> {
    let mut ids: Vec<String> = units.iter().map(|u| format!("unit-{u}")).collect();
    for (i, o) in s.orders.iter().enumerate() {
        let p = o.order.unit.expect("a unit").loc.province;
        if units
            .iter()
            .any(|&u| s.map.province_of(s.units[u].loc) == p)
        {
            ids.push(format!("order-{i}"));
        }
    }
    ids.sort();
    ids
}

/// DATC 6.F.16 (Pandin's paradox): `report` writes its page, and in Chromium the stepper's
/// forward, back, jump to the cycle, end and start change what the picture highlights as the
/// engine's own trace says; nothing is logged to the console.
#[test]
fn report_of_6_f_16_steps_through_the_cycle_in_chromium() {
    let Some(bin) = browser() else { return };
    let dir = temp_dir("browser-case");
    let page = dir.join("case.html");
    let (code, out, err) = dipsandbox(&[
        "report",
        "scenarios/datc/6.F.16.ron",
        "-o",
        page.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("case.html"), "says where: {out}");

    // The engine's own account of the steps, to hold the page against.
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("case");
    let engine = Registry::builtin()
        .default_engine()
        .expect("an engine")
        .clone();
    let run = adjudicate_scenario(&s, None, &*engine, true).expect("runs");
    let input = PhaseInput::of(&s, &run.rules);
    let st = run.result.steps(&input).expect("a trace");
    let shown: Vec<usize> = (0..st.len()).filter(|&i| !st.mark(i).minor).collect();
    let cycle = shown
        .iter()
        .position(|&i| st.mark(i).landmark.is_some())
        .expect("6.F.16 has a cycle");

    let v = selftest(&bin, &page, "case");
    assert_eq!(v["steps"], shown.len(), "every step the TUI shows");
    let rec = |n: usize| &v["record"][n];
    // forward, forward, back, next landmark, end, start
    assert_eq!(rec(0)["pos"], 1);
    assert_eq!(highlighted(&v, 0), expected_ids(&s, &st.units(shown[0])));
    assert_eq!(highlighted(&v, 1), expected_ids(&s, &st.units(shown[1])));
    assert_ne!(
        highlighted(&v, 0),
        highlighted(&v, 1),
        "forward moves the highlight"
    );
    assert_eq!(highlighted(&v, 2), highlighted(&v, 0), "back restores it");
    assert_eq!(rec(3)["pos"], cycle + 1, "] jumps to the cycle");
    assert!(
        rec(3)["text"].as_str().expect("text").contains("CYCLE"),
        "{}",
        rec(3)["text"]
    );
    let on_cycle = highlighted(&v, 3);
    assert_eq!(on_cycle, expected_ids(&s, &st.units(shown[cycle])));
    assert!(
        on_cycle.iter().filter(|i| i.starts_with("unit-")).count() >= 3,
        "the cycle's units light up: {on_cycle:?}"
    );
    assert_eq!(rec(4)["pos"], shown.len());
    assert_eq!(rec(5)["pos"], 0);
    assert!(
        highlighted(&v, 5).is_empty(),
        "the start highlights nothing"
    );

    // A link to a step opens the page there, its units highlighted.
    let load = run_browser(
        &bin,
        &format!("{}#step={}", file_url(&page), cycle + 1),
        &["--dump-dom"],
        "case-link",
    );
    assert!(load.console.is_empty(), "{}", load.console.join("\n"));
    assert!(
        load.dom
            .contains(&format!("step {} of {}", cycle + 1, shown.len())),
        "opened at the cycle"
    );
    let lit: Vec<String> = load
        .dom
        .split("<g ")
        .skip(1)
        .filter_map(|tag| {
            let tag = &tag[..tag.find('>')?];
            let id = tag.split("id=\"").nth(1)?.split('"').next()?;
            let class = tag.split("class=\"").nth(1)?.split('"').next()?;
            class.split(' ').any(|c| c == "hl").then(|| id.to_string())
        })
        .collect();
    let mut lit = lit;
    lit.sort();
    assert_eq!(lit, on_cycle, "the linked step's units and orders are lit");

    screenshot_has_the_units(&bin, &page, &v, s.units.len());
}

/// A screenshot of `page` (as loaded, at the start of the trace): not blank, and something drawn
/// (not the page's white) inside the box of each of the `n` units the self-test `v` located.
fn screenshot_has_the_units(bin: &Path, page: &Path, v: &Value, n: usize) {
    let dir = temp_dir("browser-shot");
    let png = dir.join("shot.png");
    let load = run_browser(
        bin,
        &file_url(page),
        &[&format!("--screenshot={}", png.display())],
        "shot",
    );
    assert!(load.console.is_empty(), "{}", load.console.join("\n"));
    let data = std::fs::read(&png).expect("the screenshot is written");
    let pix = resvg::tiny_skia::Pixmap::decode_png(&data).expect("a PNG");
    let (w, h) = (pix.width(), pix.height());
    let at = |x: u32, y: u32| pix.pixel(x.min(w - 1), y.min(h - 1)).expect("in the image");
    let white = |x: u32, y: u32| {
        let p = at(x, y);
        p.red() > 245 && p.green() > 245 && p.blue() > 245
    };
    let inked = (0..h)
        .step_by(3)
        .flat_map(|y| (0..w).step_by(3).map(move |x| (x, y)))
        .filter(|&(x, y)| !white(x, y))
        .count();
    let all = (h.div_ceil(3) * w.div_ceil(3)) as usize;
    assert!(
        inked * 100 > all * 5,
        "the screenshot is nearly blank: {inked} of {all} sampled pixels drawn"
    );
    let units = v["units"].as_array().expect("unit boxes");
    assert_eq!(units.len(), n, "every unit is on the picture");
    for u in units {
        let f = |k: &str| u[k].as_f64().expect("a number");
        let (x, y, bw, bh) = (f("x"), f("y"), f("w"), f("h"));
        assert!(bw > 0.0 && bh > 0.0, "{u}: drawn with a size");
        assert!(
            x + bw <= f64::from(w) && y + bh <= f64::from(h),
            "{u}: inside the screenshot"
        );
        let drawn = (y as u32..(y + bh) as u32)
            .flat_map(|py| (x as u32..(x + bw) as u32).map(move |px| (px, py)))
            .filter(|&(px, py)| !white(px, py))
            .count();
        assert!(
            drawn as f64 > bw * bh * 0.2,
            "{u}: the screenshot shows nothing where the unit is ({drawn} pixels drawn)"
        );
    }
}

/// `report` of a versus output folder: one card per class and per wording row, each with its
/// picture under both engines, all drawn by the browser; no console error.
#[test]
fn report_of_a_versus_folder_shows_every_class_in_chromium() {
    let Some(bin) = browser() else { return };
    let dir = temp_dir("browser-versus");
    let out = dir.join("versus-out");
    let o = out.to_str().expect("utf-8");
    let (code, text, err) = dipsandbox(&[
        "versus",
        "decisions",
        "dpjudge",
        "--count",
        "200",
        "--mix",
        "paradox",
        "-o",
        o,
    ]);
    assert!(code == 0 || code == 1, "{text}{err}");
    let summary = dipsandbox_core::tools::versus::summary::load_summary(&out).expect("summary");
    let cards = summary.classes.len() + summary.wording.len();
    assert!(cards > 0, "the run found something to show");
    let (code, text, err) = dipsandbox(&["report", o]);
    assert_eq!(code, 0, "{text}{err}");
    let page = dir.join("versus-out.html");
    let html = std::fs::read_to_string(&page).expect("the page beside the folder");
    for c in &summary.classes {
        assert!(html.contains(&c.file), "class {} is on the page", c.file);
    }
    for w in &summary.wording {
        assert!(
            html.contains(&w.file),
            "wording row {} is on the page",
            w.file
        );
    }
    let v = selftest(&bin, &page, "versus");
    assert_eq!(v["cards"], cards);
    assert_eq!(v["pictures"], 2 * cards, "a picture under each engine");
    assert_eq!(v["drawn"], 2 * cards, "the browser draws every picture");
}

/// A scenario whose title and description try to end the script block and run their own: the
/// page shows them as text, its own script still runs, and the injected one never does.
#[test]
fn a_hostile_title_stays_text_in_chromium() {
    let Some(bin) = browser() else { return };
    let dir = temp_dir("browser-hostile");
    let body = std::fs::read_to_string("scenarios/datc/6.F.16.ron").expect("case");
    // Either would leave a mark the escaped text itself cannot hold (the words are split).
    let hostile = "</script><script>document.body.setAttribute('data-x','pw'+'ned')</script>\
                   <img src=x onerror=\"document.body.setAttribute('data-y','i'+'mg')\">";
    let text = crate::page::retitled(&body, hostile);
    let file = dir.join("hostile.ron");
    std::fs::write(&file, text).expect("write");
    let page = dir.join("hostile.html");
    let (code, out, err) = dipsandbox(&[
        "report",
        file.to_str().expect("utf-8"),
        "-o",
        page.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v = selftest(&bin, &page, "hostile");
    assert!(
        v["steps"].as_u64().expect("steps") > 0,
        "the page's own script ran"
    );
    let load = run_browser(&bin, &file_url(&page), &["--dump-dom"], "hostile-dom");
    assert!(load.console.is_empty(), "{}", load.console.join("\n"));
    assert!(
        !load.dom.contains("data-x=\"pwned\""),
        "the injected script ran"
    );
    assert!(
        !load.dom.contains("data-y=\"img\""),
        "the injected image ran its handler"
    );
    assert!(
        load.dom.contains("&lt;/script&gt;&lt;script&gt;"),
        "the title is shown as text"
    );
}

/// A replay output folder: a card per phase that differs, each drawn.
#[test]
fn report_of_a_replay_folder_in_chromium() {
    let Some(bin) = browser() else { return };
    let dir = temp_dir("browser-replay");
    let out = dir.join("replay-out");
    let o = out.to_str().expect("utf-8");
    let (code, text, err) = dipsandbox(&[
        "replay",
        "tests/data/games/python/game-1.json",
        "--all",
        "-o",
        o,
    ]);
    assert_eq!(code, 1, "game 1 differs somewhere: {text}{err}");
    let phases = std::fs::read_dir(&out).expect("folder").count();
    assert!(phases > 0);
    let (code, text, err) = dipsandbox(&["report", o]);
    assert_eq!(code, 0, "{text}{err}");
    let v = selftest(&bin, &dir.join("replay-out.html"), "replay");
    assert_eq!(v["cards"], phases);
    assert_eq!(
        v["drawn"], phases,
        "each phase drawn under the engine that replayed it"
    );
}

/// The page the TUI's `W` writes passes the same self-test in the browser.
#[test]
fn the_tui_page_steps_in_chromium() {
    let Some(bin) = browser() else { return };
    use crate::common::{app, run};
    let dir = temp_dir("browser-tui");
    let file = dir.join("pandin.ron");
    std::fs::copy("scenarios/datc/6.F.16.ron", &file).expect("copy");
    let mut a = app(Some(file.to_str().expect("utf-8")), "browser-tui");
    run(&mut a, 120, 40, "W");
    let v = selftest(&bin, &dir.join("pandin.html"), "tui");
    assert_ne!(
        highlighted(&v, 0),
        highlighted(&v, 1),
        "forward moves the highlight"
    );
    assert!(
        v["record"][3]["text"]
            .as_str()
            .expect("text")
            .contains("CYCLE")
    );
}

/// The folder pages of `page.rs` in the browser: bad class files (cards that say why, one
/// drawn) and a folder of many classes with its pictures capped.
#[test]
fn the_folder_pages_with_bad_files_and_many_classes_load_cleanly() {
    let Some(bin) = browser() else { return };
    let out = crate::page::bad_versus_folder("browser-versus-bad");
    let (code, text, err) = dipsandbox(&["report", out.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{text}{err}");
    let v = selftest(&bin, &out.with_extension("html"), "bad");
    assert_eq!(v["cards"], 3);
    assert_eq!(v["drawn"], 2);
    let page = crate::page::many_classes("browser-versus-many", 120, 4);
    let v = selftest(&bin, &page, "many");
    assert_eq!(v["cards"], 120);
    assert_eq!(v["drawn"], 8);
}
