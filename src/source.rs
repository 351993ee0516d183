//! Finding positions in source text, for error messages that name file, line and column.
//!
//! serde does not give positions for values that parsed fine but are wrong (an unknown province in
//! an order string, an asymmetric border). The [`Locator`] finds such values in the original text,
//! searching forward from a cursor so that repeated values are found in file order.

use crate::error::SourcePos;

/// Finds text in a source file and turns byte offsets into line/column positions.
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    text: &'a str,
    file: &'a str,
    cursor: usize,
}

impl<'a> Locator<'a> {
    /// A locator over `text`, which was read from `file`.
    pub fn new(text: &'a str, file: &'a str) -> Self {
        Locator {
            text,
            file,
            cursor: 0,
        }
    }

    /// The position of byte `offset` (1-based line and column, columns counted in characters).
    pub fn pos(&self, offset: usize) -> SourcePos {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col = before[line_start..].chars().count() + 1;
        SourcePos {
            file: self.file.to_string(),
            line,
            col,
        }
    }

    /// Position of the first `needle` after the first `anchor` (or after the start when the anchor
    /// is absent); the anchor's position, or the file start, when the needle is not found.
    pub fn find_after(&self, needle: &str, anchor: &str) -> SourcePos {
        let base = self.text.find(anchor).unwrap_or(0);
        match self.text[base..].find(needle) {
            Some(i) => self.pos(base + i),
            None => self.pos(base),
        }
    }

    /// Moves the cursor to just after the first `anchor` at or after the cursor; returns whether
    /// it was found (the cursor stays put otherwise).
    pub fn seek(&mut self, anchor: &str) -> bool {
        match self.text[self.cursor..].find(anchor) {
            Some(i) => {
                self.cursor += i + anchor.len();
                true
            }
            None => false,
        }
    }

    /// Byte offset of the next string literal whose content is exactly `content`, at or after the
    /// cursor; the cursor moves past it. Falls back to the cursor when not found.
    pub fn next_literal(&mut self, content: &str) -> usize {
        let quoted = format!("\"{content}\"");
        match self.text[self.cursor..].find(&quoted) {
            Some(i) => {
                let at = self.cursor + i;
                self.cursor = at + quoted.len();
                at
            }
            None => self.cursor,
        }
    }

    /// The current cursor offset.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Resets the cursor to an offset.
    pub fn set_cursor(&mut self, offset: usize) {
        self.cursor = offset.min(self.text.len());
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
