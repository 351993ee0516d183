//! Self-contained HTML pages for sharing: no network, no external script or file. Pure string
//! building over the engines, the tools and the picture ([`crate::io::picture`]).
//!
//! - [`case`]: one case — the picture, the orders with verdicts and reasons, the rule options in
//!   force, the expectations met or missed, and a stepper through the engine's trace (its
//!   hand-written script is `stepper.js`) that highlights on the picture what each step decides.
//! - [`folder`]: a `versus` or `replay` output folder — a card per class or phase, with its
//!   picture under each engine, the explanation, the count and the file to open in the TUI.
//! - [`error`]: why a page could not be made.
//! - [`html`]: escaping every user text into HTML and data into a script block; the document
//!   around a page.

pub mod case;
pub mod error;
pub mod folder;
pub mod html;

pub use case::{CaseOptions, case_page, case_page_of};
pub use error::PageError;
pub use folder::{FolderOptions, folder_page};
