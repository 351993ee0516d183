//! Why a page could not be made.

/// Why a page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The scenario could not be adjudicated.
    #[error(transparent)]
    Run(#[from] crate::tools::check::RunError),
    /// The picture could not be drawn.
    #[error("the picture: {0}")]
    Picture(#[from] crate::io::picture::PictureError),
    /// The folder is not one `report` reads, or cannot be read.
    #[error("{0}")]
    Folder(String),
}
