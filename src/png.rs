//! Pictures as PNG: an SVG (the core's [`dipsandbox_core::io::picture`]) rasterised by resvg,
//! in pure Rust, with the system's fonts for its text (no system tool at run time).

use std::sync::OnceLock;

use color_eyre::eyre::{Result, eyre};
use resvg::{tiny_skia, usvg};

/// The families tried, in order, for the picture's generic `sans-serif` text.
const SANS: [&str; 6] = [
    "DejaVu Sans",
    "Liberation Sans",
    "Arial",
    "Helvetica",
    "Noto Sans",
    "FreeSans",
];

/// The system's fonts, read once, with `sans-serif` set to the first of [`SANS`] it has (or to
/// any family it has, so that labels are drawn whatever the system ships).
fn fonts() -> &'static std::sync::Arc<usvg::fontdb::Database> {
    static DB: OnceLock<std::sync::Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let has = |name: &str| {
            db.faces()
                .any(|f| f.families.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
        };
        let family = SANS
            .iter()
            .find(|n| has(n))
            .map(|n| n.to_string())
            .or_else(|| {
                db.faces()
                    .next()
                    .and_then(|f| f.families.first().map(|(n, _)| n.clone()))
            });
        if let Some(f) = family {
            db.set_sans_serif_family(f);
        }
        std::sync::Arc::new(db)
    })
}

/// Whether the system has no font at all: a PNG then has no text (its labels, the legend's
/// words), and `render` says so.
pub fn no_fonts() -> bool {
    fonts().is_empty()
}

/// The SVG `svg` as a PNG image, as wide as the SVG's `width`.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>> {
    let opt = usvg::Options {
        fontdb: fonts().clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| eyre!("the picture's SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        eyre!(
            "the picture is {}×{} px; expected a size above zero",
            size.width(),
            size.height()
        )
    })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| eyre!("PNG encoding: {e}"))
}
