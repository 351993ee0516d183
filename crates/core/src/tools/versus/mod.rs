//! `versus`: the differential bench. Random legal positions ([`positions`], seeded: position
//! `i` of a run depends only on the seed and `i`), each adjudicated by two engines; every
//! disagreement shrunk to a minimal position that still disagrees the same way ([`Way`]),
//! classified by its shape and by the single rule options that explain it, and kept as one
//! scenario file per class (a [`ClassRow`] of the [`Summary`]), with a count of the positions that fell in each.
//!
//! Files: [`positions`] and [`mix`] (the positions of a run, by kind), [`bench`](mod@bench) (the run),
//! [`compare`](mod@compare) (effect and wording apart), [`cause`] (the causes of a disagreement, their
//! explanations and minimal examples), [`datc`] with [`datc_cases`] (the DATC case of a shape),
//! [`summary`] (the summary file, checked and merged).
//!
//! It prints nothing and starts no thread of its own: [`Versus::run`] takes a [`Parallel`]
//! (the command line gives a rayon pool), a stop flag and a progress callback.

pub mod bench;
pub mod cause;
pub mod compare;
pub mod datc;
pub mod datc_cases;
pub mod mix;
pub mod positions;
pub mod summary;

pub use bench::{
    BATCH, Case, Checked, Found, Parallel, Progress, Sequential, Versus, known_words, rules_words,
};
pub use cause::{Cause, Judges};
pub use compare::{Comparison, Kind, OrderDiff, Way, Wording, acts, compare, way};
pub use mix::{Mix, position, position_seed, shape, with_texts};
pub use summary::{
    CLASS_HEADER, ClassRow, SUMMARY_FILE, Shard, Summary, VersusError, WordingRow, check_summary,
    explains, load_summary, merge, merge_summaries, open_output, save_summary, summary_from_ron,
};
