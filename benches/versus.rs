//! The `versus` path, per position of the paradox mix (the positions `dipsandbox versus
//! decisions dpjudge --mix paradox` runs), split where its time goes:
//!
//! - `generate`: making position i (the random generator, with its order menus).
//! - `adjudicate/decisions`, `adjudicate/dpjudge`: one engine's `adjudicate` of a made position,
//!   untraced (the reason strings of every outcome included, as the seam makes them).
//! - `check`: the whole per-position step of a run — make, adjudicate with both, compare.
//! - `run/all`: what `dipsandbox versus decisions dpjudge` does per position of the default mix
//!   on one thread: check, find and explain the causes of each disagreement on the position
//!   itself, shrink each new class to its example and write it, count, save the summary.
//!
//! 1,000 positions per iteration. Run with `cargo bench --features bench --bench versus` (add `-- --warm-up-time
//! 1 --measurement-time 3` for a quicker run). Figures: docs/versus.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dipsandbox_core::engine::{DecisionEngine, DpjudgeEngine, Engine, PhaseInput};
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::versus::{BATCH, Mix, Sequential, Shard, Versus, position};

const N: u64 = 1_000;

fn bench(c: &mut Criterion) {
    let map = Map::standard_arc();
    let rules = Rules::default();
    let made: Vec<_> = (0..N).map(|i| position(&map, 0, i, Mix::Paradox)).collect();
    let mut g = c.benchmark_group("versus");
    g.throughput(Throughput::Elements(N));
    g.sample_size(10);
    g.bench_function("generate", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(position(&map, 0, i, Mix::Paradox));
            }
        })
    });
    let engines: [&dyn Engine; 2] = [&DecisionEngine, &DpjudgeEngine];
    for e in engines {
        g.bench_function(format!("adjudicate/{}", e.name()), |b| {
            b.iter(|| {
                for s in &made {
                    let input = PhaseInput::of(s, &rules);
                    black_box(
                        e.adjudicate(&input, false)
                            .expect("built-in engines answer"),
                    );
                }
            })
        });
    }
    let v = Versus {
        map: map.clone(),
        a: &DecisionEngine,
        b: &DpjudgeEngine,
        rules,
        mix: Mix::Paradox,
        seed: 0,
        batch: BATCH,
    };
    g.bench_function("check", |b| {
        b.iter(|| {
            for i in 0..N {
                black_box(v.check(i));
            }
        })
    });
    let all = Versus { mix: Mix::All, ..v };
    let out = std::env::temp_dir().join(format!("dipsandbox-bench-versus-{}", std::process::id()));
    g.bench_function("run/all", |b| {
        b.iter(|| {
            black_box(
                all.run(N, Shard::WHOLE, &out, &Sequential, None, &mut |_| {})
                    .expect("the run writes its folder"),
            );
        })
    });
    let _ = std::fs::remove_dir_all(&out);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
