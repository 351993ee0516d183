//! The bottom layer: text, files and positions in them. Imports nothing else of the crate.
//!
//! - [`source`]: reading files (regular files only, with size limits), standard input, and
//!   positions (line, column) in a source.
//! - [`output`]: the one rule for every file a command writes (never an input, never through a
//!   link, never an existing file unless asked, atomic), and many files written all at once.
//! - [`text`]: text from files made safe to print (control characters escaped, long text cut).
//! - [`calendar`]: the years a game may have.
//! - [`position`]: a place in a source file (file, line, column) and located RON messages.
//! - [`near`]: how close two names are (edit distance), for "did you mean" suggestions.
//! - [`random`]: the one pseudo-random generator (splitmix64), for everything made from a seed.
//! - [`ron_subset`]: a fast reader for the RON that scenario files use, with the `ron` crate
//!   behind it for everything else and for every error.

pub mod calendar;
pub mod near;
pub mod output;
pub mod position;
pub mod random;
pub mod ron_subset;
pub mod source;
pub mod text;
