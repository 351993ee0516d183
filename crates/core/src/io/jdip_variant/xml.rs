//! A jDip XML file as a flat list of its elements (name, attributes, where, parent), in document
//! order: all the variant and adjacency readers need. Text between tags (descriptions) is
//! skipped; the DTD in the `DOCTYPE` is not read (its attribute defaults are the format's, which
//! the readers apply themselves).

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

use crate::base::position::SourcePos;
use crate::io::dpjudge_map::ImportError;

/// One element of a file.
#[derive(Clone, Debug)]
pub(super) struct Element {
    /// The tag name, as written.
    pub name: String,
    /// The attributes, names as written, values unescaped.
    pub attrs: Vec<(String, String)>,
    /// Where its tag starts.
    pub pos: SourcePos,
    /// The element it is in (an index into the list), if any.
    pub parent: Option<usize>,
    /// How many elements it is in (0 for the root).
    pub depth: usize,
}

impl Element {
    /// The value of attribute `key` (compared without case), if given.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the tag is `name` (without case).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}

/// Turns byte offsets, met in increasing order, into lines and columns (characters) without
/// scanning the text from its start each time.
struct Lines<'a> {
    text: &'a str,
    file: &'a str,
    offset: usize,
    line: usize,
    col: usize,
}

impl Lines<'_> {
    fn at(&mut self, offset: usize) -> SourcePos {
        if offset >= self.offset {
            let upto = offset.min(self.text.len());
            for c in self.text.get(self.offset..upto).unwrap_or_default().chars() {
                if c == '\n' {
                    self.line += 1;
                    self.col = 1;
                } else {
                    self.col += 1;
                }
            }
            self.offset = upto.max(self.offset);
            SourcePos {
                file: self.file.to_string(),
                line: self.line,
                col: self.col,
            }
        } else {
            // Backwards (an error's position before the last element's): counted afresh.
            let mut from_start = Lines {
                text: self.text,
                file: self.file,
                offset: 0,
                line: 1,
                col: 1,
            };
            from_start.at(offset)
        }
    }
}

fn located(pos: SourcePos, message: String) -> ImportError {
    ImportError::Syntax { pos, message }
}

/// The elements of `text` (`file` names it in messages); a file that is not well-formed XML is
/// a located error.
pub(super) fn read(text: &str, file: &str) -> Result<Vec<Element>, ImportError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut lines = Lines {
        text,
        file,
        offset: 0,
        line: 1,
        col: 1,
    };
    let mut out: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        let before = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let at = usize::try_from(reader.error_position()).unwrap_or(0);
                return Err(located(lines.at(at), format!("not well-formed XML: {e}")));
            }
        };
        // The tag starts at the first `<` from where the reader was.
        let tag_at = |lines: &mut Lines<'_>| {
            let rest = text.get(before..).unwrap_or_default();
            lines.at(before + rest.find('<').unwrap_or(0))
        };
        match event {
            Event::Start(e) => {
                let pos = tag_at(&mut lines);
                out.push(element(&e, pos, open.last().copied(), open.len())?);
                open.push(out.len() - 1);
            }
            Event::Empty(e) => {
                let pos = tag_at(&mut lines);
                out.push(element(&e, pos, open.last().copied(), open.len())?);
            }
            Event::End(_) => {
                open.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(e) = open.last().and_then(|&i| out.get(i)) {
        return Err(located(
            e.pos.clone(),
            format!("<{}> is never closed: expected </{}>", e.name, e.name),
        ));
    }
    if out.is_empty() {
        return Err(located(
            SourcePos::start(file),
            "no XML element: expected a jDip variant or adjacency file".to_string(),
        ));
    }
    Ok(out)
}

fn element(
    e: &BytesStart<'_>,
    pos: SourcePos,
    parent: Option<usize>,
    depth: usize,
) -> Result<Element, ImportError> {
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| {
            located(
                pos.clone(),
                format!("<{name}>: a malformed attribute: {err}"),
            )
        })?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let value = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| {
                located(
                    pos.clone(),
                    format!("<{name} {key}=…>: the value cannot be read: {err}"),
                )
            })?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(Element {
        name,
        attrs,
        pos,
        parent,
        depth,
    })
}
