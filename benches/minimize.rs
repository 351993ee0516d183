//! The minimizer on synthetic rings ([`dipsandbox_core::tools::synth`]):
//!
//! - `blocks_mismatch/N`: a ring of N units in unrelated pairs, one of which misses a wrong
//!   expectation (`--keep mismatch`): the regions pass goes straight to the pair, so the cost is
//!   a few adjudications of the whole board, linear in N.
//! - `blocks_circle/N`: the same ring with one circular movement of three armies
//!   (`--keep backup:circular`).
//! - `circle/N`: the whole ring moving round (`--keep backup:circular`): every unit is needed,
//!   ddmin's worst case. The backup rule decided every order, so each pass leaves items out
//!   singly: one adjudication of the board per unit and one per order (2N + 3 runs), each
//!   turned down before its decisions are resolved (a chain has no cycle for a backup rule), and
//!   no run in the holds pass; still quadratic in N, which `--max-runs` and `--max-time` bound.
//!   N = 976 is the figure of `docs/limits.md` (8,775 runs before).
//!
//! Run with `cargo bench --features bench --bench minimize` (add `-- --warm-up-time 1 --measurement-time 2` for
//! a quicker run).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use dipsandbox_core::model::orders::{NameStyle, format_order};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::{Expect, Expected, OrderEntry, Scenario};
use dipsandbox_core::tools::minimize::{Goal, Property, minimize};
use dipsandbox_core::tools::synth::{Pattern, Synthetic, position, ring_blocks};

fn scenario(p: Synthetic) -> Scenario {
    let map = Arc::new(p.map);
    let mut s = Scenario::empty(map.clone(), "ring");
    s.units = p.units;
    s.orders = p
        .orders
        .into_iter()
        .map(|(power, order)| OrderEntry {
            power,
            text: format_order(&map, &order, NameStyle::Abbr),
            order,
        })
        .collect();
    s
}

fn goal(s: &Scenario, keep: &str) -> Goal {
    Goal {
        keep: vec![Property::parse(&s.map, keep).expect("property")],
        rules: Rules::default(),
        other: None,
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("minimize");
    g.sample_size(10);
    for n in [1_000usize, 10_000] {
        let mut s = scenario(ring_blocks(n, false).expect("ring"));
        // The bouncing move of a block three quarters of the way round, expected to succeed.
        s.expect = Some(Expect {
            results: vec![(4 * (n / 4 * 3 / 4) + 2, String::new(), Expected::Succeeds)],
            dislodged: None,
            positions: None,
        });
        let keep = goal(&s, "mismatch");
        g.bench_with_input(BenchmarkId::new("blocks_mismatch", n), &s, |b, s| {
            b.iter(|| black_box(minimize(s, &keep, &mut |_| {}).expect("minimizes").after))
        });
        let s = scenario(ring_blocks(n, true).expect("ring"));
        let keep = goal(&s, "backup:circular");
        g.bench_with_input(BenchmarkId::new("blocks_circle", n), &s, |b, s| {
            b.iter(|| black_box(minimize(s, &keep, &mut |_| {}).expect("minimizes").after))
        });
    }
    for n in [50usize, 200, 976] {
        let s = scenario(position(Pattern::Ring, n, 0).expect("ring"));
        let keep = goal(&s, "backup:circular");
        g.bench_with_input(BenchmarkId::new("circle", n), &s, |b, s| {
            b.iter(|| black_box(minimize(s, &keep, &mut |_| {}).expect("minimizes").after))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
