//! Scale: the adjudicator on synthetic boards of N = 10^3, 10^4, 10^5 and 10^6 units
//! ([`dipsandbox_core::tools::synth`]), for four patterns — a ring all moving (circular movement), a chain
//! of moves ending in a bounce, a ring all supporting each other to hold, and a grid with random
//! orders — plus building (and validating) the map itself.
//!
//! And the hostile shapes of `docs/limits.md`, each once quadratic: N armies moving into one province
//! (`standoff`); the DPjudge engine on the chain and on the standoff (`dp_chain`,
//! `dp_standoff`); a map with a province of N neighbours (`map_star`); and the work of `diff`
//! without `--rules` — the scenario's result under every other value of every option, each
//! compared with its own — on the ring (`diff_ring`, to N = 10^5 only: it is some thirty
//! adjudications).
//!
//! Criterion times N = 10^3 and 10^4; then a table gives, for every N, the time and the peak
//! memory per unit (the best of a few runs, so that load from other processes counts as little
//! as it can), and the ratio of the per-unit cost at 10^6 to that at 10^3 (linear growth keeps it
//! near 1; the target is at most 2).
//!
//! Run with `cargo bench --features bench --bench scale` (`DIPSANDBOX_SCALE_MAX=100000` stops at 10^5;
//! `DIPSANDBOX_SCALE_ONLY=standoff,dp_chain` keeps those rows of the table; add
//! `-- --warm-up-time 1 --measurement-time 2` for a quicker criterion part).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use dipsandbox_core::engine::{Adjudicator, Verdict, adjudicate_movement};
use dipsandbox_core::model::map::{Map, ProvinceSpec};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::diff::deciders;
use dipsandbox_core::tools::synth::{
    POWERS, Pattern, Synthetic, grid_provinces, position, ring_provinces, standoff, star_provinces,
};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = IN_USE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                    - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its time and the peak of memory allocated during it (above what was in
/// use before).
fn measured<R>(f: impl FnOnce() -> R) -> (Duration, usize, R) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let start = Instant::now();
    let r = f();
    let t = start.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    (t, peak, r)
}

/// Best time and peak memory of `runs` runs (at least one; at most ~3 s in all).
fn best<R>(runs: usize, mut f: impl FnMut() -> R) -> (Duration, usize) {
    let mut t_best = Duration::MAX;
    let mut m_best = usize::MAX;
    let start = Instant::now();
    for k in 0..runs.max(1) {
        let (t, m, r) = measured(&mut f);
        black_box(r);
        t_best = t_best.min(t);
        m_best = m_best.min(m);
        if k > 0 && start.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    (t_best, m_best)
}

fn sizes() -> Vec<usize> {
    let max: usize = std::env::var("DIPSANDBOX_SCALE_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    [1_000, 10_000, 100_000, 1_000_000]
        .into_iter()
        .filter(|&n| n <= max)
        .collect()
}

/// Sanity checks of each pattern's result, so that what is timed is what is meant.
fn check(pattern: Pattern, s: &Synthetic) {
    let r = adjudicate_movement(&s.map, &s.units, &s.orders, &Rules::default());
    let moved = r
        .units
        .iter()
        .zip(&s.units)
        .filter(|(res, u)| res.ends.is_some_and(|e| e.loc != u.loc))
        .count();
    match pattern {
        Pattern::Ring => assert_eq!(moved, s.units.len(), "the ring moves"),
        Pattern::ChainBounce => {
            assert_eq!(moved, 0, "the chain stands");
            assert_eq!(r.contested.len(), 1, "one standoff");
        }
        Pattern::SupportHold => assert_eq!(moved, 0),
        Pattern::Grid => assert!(moved > 0),
    }
}

/// N, nanoseconds per unit, bytes per unit.
type Row = (usize, f64, f64);

/// Whether the table keeps row `name` (`DIPSANDBOX_SCALE_ONLY`, comma-separated; all when
/// unset).
fn wanted(name: &str) -> bool {
    std::env::var("DIPSANDBOX_SCALE_ONLY")
        .map(|v| v.split(',').any(|w| w.trim() == name))
        .unwrap_or(true)
}

/// One run of a shape, made for a size N.
type Run = Box<dyn FnMut() -> usize>;

/// A shape: its name, the largest N it is measured at, and what makes its run.
type Shape = (&'static str, usize, fn(usize) -> Run);

/// The hostile shapes (`docs/limits.md`): a name and one run at size N, which checks its own result
/// (so that what is timed is what is meant) and returns something to keep.
fn hostile_shapes() -> Vec<Shape> {
    fn standoff_run(n: usize) -> Run {
        let s = standoff(n).expect("standoff");
        let rules = Rules::default();
        let mut adj = Adjudicator::new();
        let out = adj.adjudicate(&s.map, &s.units, &s.orders, &rules);
        assert!(
            out.iter().all(|o| o.verdict == Verdict::Fails),
            "all bounce"
        );
        Box::new(move || adj.adjudicate(&s.map, &s.units, &s.orders, &rules).len())
    }
    fn dp_run(s: Synthetic) -> Run {
        let rules = Rules::default();
        let r = dipsandbox_core::engine::dpjudge::adjudicate(
            &s.map, &s.units, &s.orders, &rules, false,
        );
        assert!(
            r.outcomes.iter().all(|o| o.verdict == Verdict::Fails),
            "all bounce"
        );
        assert_eq!(r.contested.len(), 1, "one standoff");
        Box::new(move || {
            dipsandbox_core::engine::dpjudge::adjudicate(&s.map, &s.units, &s.orders, &rules, false)
                .outcomes
                .len()
        })
    }
    fn dp_chain_run(n: usize) -> Run {
        dp_run(position(Pattern::ChainBounce, n, 7).expect("chain"))
    }
    fn dp_standoff_run(n: usize) -> Run {
        dp_run(standoff(n).expect("standoff"))
    }
    fn map_star_run(n: usize) -> Run {
        Box::new(move || {
            let specs = star_provinces(n);
            let map = Map::from_lists("star", "star", &POWERS, specs).expect("map");
            assert_eq!(map.province_count(), n + 1);
            map.province_count()
        })
    }
    fn diff_ring_run(n: usize) -> Run {
        let s = position(Pattern::Ring, n, 7).expect("ring").scenario();
        assert!(
            deciders(&s).expect("runs").is_empty(),
            "no option changes a ring"
        );
        Box::new(move || deciders(&s).expect("runs").len())
    }
    vec![
        ("standoff", usize::MAX, standoff_run),
        ("dp_chain", usize::MAX, dp_chain_run),
        ("dp_standoff", usize::MAX, dp_standoff_run),
        ("map_star", usize::MAX, map_star_run),
        ("diff_ring", 100_000, diff_ring_run),
    ]
}

fn bench_scale(c: &mut Criterion) {
    let rules = Rules::default();
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    for pattern in Pattern::ALL {
        for n in [1_000, 10_000] {
            let s = position(pattern, n, 7).expect("synthetic map");
            check(pattern, &s);
            let mut adj = Adjudicator::new();
            g.bench_with_input(BenchmarkId::new(pattern.name(), n), &s, |b, s| {
                b.iter(|| adj.adjudicate(&s.map, &s.units, &s.orders, &rules).len())
            });
        }
    }
    for (name, _, make) in hostile_shapes() {
        for n in [1_000, 10_000] {
            let mut run = make(n);
            g.bench_function(BenchmarkId::new(name, n), |b| b.iter(&mut run));
        }
    }
    g.finish();

    // The table: every N, time and peak memory per unit.
    let sizes = sizes();
    println!("\nscale (best of up to 5 runs; per unit):");
    println!(
        "  {:<14} {:>9} {:>12} {:>12} {:>12}",
        "pattern", "N", "total", "ns/unit", "bytes/unit"
    );
    let mut rows: Vec<(String, Vec<Row>)> = Vec::new();
    for pattern in Pattern::ALL.into_iter().filter(|p| wanted(p.name())) {
        let mut row = Vec::new();
        for &n in &sizes {
            let s = position(pattern, n, 7).expect("synthetic map");
            if n <= 100_000 {
                check(pattern, &s);
            }
            let mut adj = Adjudicator::new();
            // A first call sizes the workspace; the measured calls reuse it, as a server would.
            black_box(adj.adjudicate(&s.map, &s.units, &s.orders, &rules).len());
            let runs = if n >= 1_000_000 { 3 } else { 5 };
            let (t, _) = best(runs, || {
                adj.adjudicate(&s.map, &s.units, &s.orders, &rules).len()
            });
            // Memory: a fresh workspace, so that its buffers count.
            let (_, m) = best(1, || {
                let mut fresh = Adjudicator::new();
                fresh.adjudicate(&s.map, &s.units, &s.orders, &rules).len()
            });
            let per = t.as_secs_f64() * 1e9 / n as f64;
            let mem = m as f64 / n as f64;
            println!(
                "  {:<14} {:>9} {:>10.2}ms {:>12.1} {:>12.1}",
                pattern.name(),
                n,
                t.as_secs_f64() * 1e3,
                per,
                mem
            );
            row.push((n, per, mem));
        }
        rows.push((pattern.name().to_string(), row));
    }
    // Map loading (`Map::from_lists`: names indexed, borders resolved and checked from both
    // sides), rings and grids; the lists are made outside the timing.
    let lists = |name: &str, n: usize| -> Vec<ProvinceSpec> {
        if name == "map_ring" {
            ring_provinces(n)
        } else {
            let w = (n as f64).sqrt().ceil() as usize;
            grid_provinces(w, n.div_ceil(w))
        }
    };
    for name in ["map_ring", "map_grid"].into_iter().filter(|n| wanted(n)) {
        let mut row = Vec::new();
        for &n in &sizes {
            let runs = if n >= 1_000_000 { 2 } else { 4 };
            let (mut t, mut m) = (Duration::MAX, usize::MAX);
            for _ in 0..runs {
                let specs = lists(name, n);
                let expect = specs.len();
                let (dt, dm, map) = measured(|| Map::from_lists(name, name, &POWERS, specs));
                let map = map.expect("map");
                assert_eq!(map.province_count(), expect);
                drop(map);
                t = t.min(dt);
                m = m.min(dm);
            }
            let per = t.as_secs_f64() * 1e9 / n as f64;
            let mem = m as f64 / n as f64;
            println!(
                "  {:<14} {:>9} {:>10.2}ms {:>12.1} {:>12.1}",
                name,
                n,
                t.as_secs_f64() * 1e3,
                per,
                mem
            );
            row.push((n, per, mem));
        }
        rows.push((name.to_string(), row));
    }
    // The hostile shapes: a first run (made when the shape is built) sizes the buffers; then
    // the best of a few runs, and the memory of one.
    for (name, max, make) in hostile_shapes() {
        if !wanted(name) {
            continue;
        }
        let mut row = Vec::new();
        for &n in sizes.iter().filter(|&&n| n <= max) {
            let runs = if n >= 1_000_000 { 2 } else { 4 };
            let mut run = make(n);
            let (t, _) = best(runs, &mut run);
            let (_, m) = best(1, || make(n)());
            let per = t.as_secs_f64() * 1e9 / n as f64;
            let mem = m as f64 / n as f64;
            println!(
                "  {:<14} {:>9} {:>10.2}ms {:>12.1} {:>12.1}",
                name,
                n,
                t.as_secs_f64() * 1e3,
                per,
                mem
            );
            row.push((n, per, mem));
        }
        rows.push((name.to_string(), row));
    }
    println!("\nper-unit cost at the largest N over that at 10^3 (target: at most 2×):");
    for (name, row) in &rows {
        let (Some(first), Some(last)) = (row.first(), row.last()) else {
            continue;
        };
        println!(
            "  {:<14} time {:>5.2}×  memory {:>5.2}×  (N = {} vs {})",
            name,
            last.1 / first.1,
            last.2 / first.2.max(1e-9),
            last.0,
            first.0
        );
    }
}

criterion_group!(benches, bench_scale);
criterion_main!(benches);
