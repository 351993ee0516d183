//! The adjudicator on structured input: random positions and orders (legal, imperfect and junk)
//! on the standard map or a small generated one, under random rule options, in any phase, then
//! through the turn cycle (`turn::advance`) with new orders each phase; after every phase the
//! invariant checker runs (the invariants, listing order, tracing, the turn step), and a
//! violation is a crash.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|game: dipsandbox_fuzz::Game| {
    dipsandbox_fuzz::play(&game);
});
