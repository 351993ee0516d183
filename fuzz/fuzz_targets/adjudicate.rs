//! The adjudicator on structured input: random positions and orders (legal, imperfect and junk)
//! on the standard map or a small generated one, under random rule options, in any phase, then
//! through the turn cycle (`turn::advance`) with new orders each phase; after every phase the
//! invariant checker runs (the invariants, listing order, tracing, the turn step), and a
//! violation is a crash.
//! (The body is [`dipsandbox_fuzz::adjudicate`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::adjudicate(data);
});
