//! How long a full frame takes to draw, a step of the stepper (no re-adjudication), and board
//! art generated for a map without any.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use dipsandbox::tui::action::{Action, Msg};
use dipsandbox::tui::app::App;
use dipsandbox::tui::browser::Folders;
use dipsandbox::tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn app(file: &str) -> App {
    let folders = Folders {
        bundled: Some(PathBuf::from("scenarios")),
        user: None,
        config: None,
        recovery: None,
        pictures: None,
    };
    App::open(Some(Path::new(file)), None, folders).expect("scenario opens")
}

fn frames(c: &mut Criterion) {
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    for (name, view) in [
        ("board", Action::ViewBoard),
        ("stepper", Action::ViewStepper),
        ("rules", Action::ViewRules),
    ] {
        let mut a = app("scenarios/datc/6.F.16.ron");
        a.update(view);
        a.update(Msg::Resize(200, 60));
        c.bench_function(&format!("frame 200x60 {name} (6.F.16)"), |b| {
            b.iter(|| {
                terminal
                    .draw(|f| view::draw(f, &black_box(&a).view_model(f.area())))
                    .expect("draws");
            })
        });
    }
    // Board art generated for a map without any: 79 provinces placed from their positions
    // (ancmed), and 192 laid out from the adjacency graph alone (world).
    for name in ["ancmed", "world"] {
        let map = dipsandbox_core::model::map::Map::load(name).expect("map loads");
        c.bench_function(&format!("generated board art ({name})"), |b| {
            b.iter(|| dipsandbox_core::tools::art_gen::generate_map(black_box(&map)).expect("art"))
        });
    }
    let mut a = app("scenarios/year-1901/1-spring-1901-movement.ron");
    a.update(Action::ViewStepper);
    a.update(Action::ToStart);
    c.bench_function("step forward and back (22-unit board)", |b| {
        b.iter(|| {
            a.update(Action::StepForward);
            a.update(Action::StepBack);
        })
    });
}

criterion_group!(benches, frames);
criterion_main!(benches);
