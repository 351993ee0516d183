//! Benchmarks of pictures: Pandin's paradox (DATC 6.F.16, the standard map) drawn as SVG, and
//! that SVG rasterised as PNG (resvg, fonts loaded once, outside the loop); the world map's
//! opening (192 provinces) as SVG, for a large layout. The scenario is adjudicated once,
//! outside the timing loop.
//!
//! Run with `cargo bench --features bench --bench picture` (add `-- --warm-up-time 1
//! --measurement-time 2` for a quick run).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use dipsandbox_core::io::picture::{PictureOptions, position_svg};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check;

fn pictures(c: &mut Criterion) {
    let opts = PictureOptions::default();
    for (name, file) in [
        ("6.F.16", "scenarios/datc/6.F.16.ron"),
        ("world-opening", "scenarios/variants/world-opening.ron"),
    ] {
        let s = Scenario::load(Path::new(file)).expect("scenario loads");
        let run = check::run(&s, None, false).expect("adjudicates");
        c.bench_function(&format!("svg {name}"), |b| {
            b.iter(|| position_svg(black_box(&s), Some(run.phase()), &opts).expect("draws"))
        });
        if name == "6.F.16" {
            let svg = position_svg(&s, Some(run.phase()), &opts).expect("draws");
            // The first call loads the system's fonts; the loop measures drawing alone.
            dipsandbox::png::svg_to_png(&svg).expect("rasterises");
            c.bench_function(&format!("png {name}"), |b| {
                b.iter(|| dipsandbox::png::svg_to_png(black_box(&svg)).expect("rasterises"))
            });
        }
    }
}

criterion_group!(benches, pictures);
criterion_main!(benches);
