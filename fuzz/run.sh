#!/usr/bin/env bash
# Runs the fuzz targets, each for a bounded time, and prints what each did.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     # default: 12 s each, every target
#   FUZZ_RUNS=10000000 fuzz/run.sh 86400 adjudicate   # stop after that many executions
#   FUZZ_FLAGS=--no-trace-compares fuzz/run.sh 60 adjudicate   # extra `cargo fuzz` build flags
#
# cargo fuzz needs a nightly compiler: `cargo +nightly fuzz` when rustup has a nightly, else the
# stable compiler with RUSTC_BOOTSTRAP=1. When cargo-fuzz is not installed, or neither compiler
# builds the targets, it says so and exits 0 (status 2 with FUZZ_REQUIRED=1): the tool is missing,
# nothing was found wrong. A crash (a panic, an invariant violation, a timeout) exits 1 and
# leaves its input in fuzz/artifacts/TARGET/.
#
# New inputs go to a temporary corpus (read together with the committed seeds in
# fuzz/corpus/TARGET); with FUZZ_KEEP_CORPUS=1 they go to fuzz/corpus/TARGET itself (run
# fuzz/seed-corpus.sh first for the full seed set; git ignores what is added).
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-12}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(order_parser scenario_loader map_loader jdip_import adjudicate protocol_answer versus_summary map_import)
fi
skip() {
    echo "fuzz: skipped: $1"
    echo "fuzz: to run it: cargo install cargo-fuzz --locked; rustup toolchain install nightly (or use RUSTC_BOOTSTRAP=1 with stable); fuzz/run.sh 60"
    if [ "${FUZZ_REQUIRED:-0}" = 1 ]; then exit 2; fi
    exit 0
}
if ! cargo fuzz --help >/dev/null 2>&1; then
    skip "cargo-fuzz is not installed"
fi
# Outside the repository's own target folder unless told otherwise; a workspace of its own.
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:-$PWD/target}/fuzz}
fuzz=()
if cargo +nightly --version >/dev/null 2>&1; then
    fuzz=(cargo +nightly fuzz)
    how="cargo +nightly fuzz"
else
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
    how="cargo fuzz with RUSTC_BOOTSTRAP=1 (no nightly toolchain)"
fi
# Without a sanitizer: the library forbids unsafe code, and the checks are the panics.
# FUZZ_BUILD=dev builds without optimizations (quicker to build, slower to run: for CI).
if [ "${FUZZ_BUILD:-release}" = dev ]; then
    fuzz_flags=(--sanitizer=none --dev)
else
    fuzz_flags=(--sanitizer=none)
fi
# Extra build flags, e.g. --no-trace-compares (about twice the executions per second on the
# adjudicator, whose dense loops call a comparison hook on every iteration; coverage is still
# edge coverage, but the mutator learns less from comparisons). Use another FUZZ_TARGET_DIR
# when running this beside a default build.
# shellcheck disable=SC2206
fuzz_flags+=(${FUZZ_FLAGS:-})
echo "fuzz: building ${targets[*]} with $how (${FUZZ_BUILD:-release})"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "${fuzz[@]}" build "${fuzz_flags[@]}" >"$tmp/build.log" 2>&1; then
    tail -20 "$tmp/build.log"
    # A compile error in the harness or the library is ours to fix, not a missing tool: the
    # step fails. Anything else (no nightly features, no libFuzzer) skips it.
    if grep -qE 'could not compile `dipsandbox(-fuzz)?`' "$tmp/build.log"; then
        echo "fuzz: the fuzz targets do not compile (see above): fix the harness in fuzz/"
        exit 1
    fi
    skip "the fuzz targets do not build with $how (see above)"
fi
status=0
printf 'fuzz: %-16s %10s %8s %6s %8s  %s\n' target runs seconds cov corpus result
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    if [ "${FUZZ_KEEP_CORPUS:-0}" = 1 ]; then
        dirs=("corpus/$t")
    else
        mkdir -p "$tmp/$t"
        dirs=("$tmp/$t" "corpus/$t")
    fi
    log="$tmp/$t.log"
    start=$(date +%s)
    if "${fuzz[@]}" run "${fuzz_flags[@]}" "$t" "${dirs[@]}" -- \
        -max_total_time="$secs" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result="CRASH: see fuzz/artifacts/$t/"
        status=1
        grep -E -A25 "panicked|ERROR: libFuzzer|timeout after" "$log" | grep -v '^ *[0-9]*: \|^ *at ' | head -40 || true
    fi
    took=$(($(date +%s) - start))
    runs=$(grep -Eo '^Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' | tail -1 || true)
    runs=${runs:-$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || echo '?')}
    cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || echo '?')
    corp=$(grep -Eo 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2 || echo '?')
    printf 'fuzz: %-16s %10s %8s %6s %8s  %s\n' "$t" "$runs" "$took" "$cov" "$corp" "$result"
    if [ -n "${FUZZ_LOG_DIR:-}" ]; then
        mkdir -p "$FUZZ_LOG_DIR"
        cp "$log" "$FUZZ_LOG_DIR/$t.log"
    fi
done
exit $status
