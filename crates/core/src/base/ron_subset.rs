//! A fast reader for the part of RON that scenario files use, with the `ron` crate behind it.
//!
//! Loading a scenario spent about two thirds of its time in the `ron` crate's deserializer
//! (the target: loading a scenario file no slower than adjudicating it). This module is a serde
//! [`Deserializer`](serde::Deserializer) for a strict subset of RON — named or anonymous structs,
//! lists, `{ "key": value }` maps, tuples, strings with the common escapes, `true` / `false`,
//! unit enum variants, `None` / `Some(…)` and implicit `Some` (the `IMPLICIT_SOME` extension the
//! scenario loader enables), `//` comments — that reads a file in one pass over its bytes.
//!
//! It never decides anything on its own. [`from_str`] answers `None` for anything outside the
//! subset *and* for anything wrong (a missing comma, an unknown field, a misspelt variant); the
//! caller then reads the same text with the `ron` crate, which either accepts it or gives the
//! error with its line and column, exactly as before. Whenever this reader gives a value, the
//! `ron` crate gives the same value (tested on every scenario file and on mutated copies of
//! them in `scenario`'s tests), so a file means what the `ron` crate says it means.
//!
//! The scenario loader reads its own schema with the same pieces, without serde between them
//! and the values (`scenario/raw.rs`: `Reader::items`, `Reader::option`, `Reader::string`
//! and the rest, each reading exactly what the deserializer reads for the same type); the rules
//! inside a scenario are still read through this deserializer (`Reader::value`).
//!
//! Outside the subset, so left to `ron`: numbers, characters, byte strings, raw strings and raw
//! identifiers, `/* */` comments, `#![enable(…)]` attributes, whitespace other than space, tab,
//! CR and LF, non-ASCII identifiers, escapes other than `\" \\ \' \n \r \t \0`, enum variants
//! with data, and `deserialize_any` (types that do not say what they expect). The nesting depth
//! is the type's, not the input's: nothing here recurses on its own.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Visitor};

/// Reads `text` as a `T` if it lies in the subset and is valid; `None` otherwise (read it with
/// the `ron` crate, which gives the answer or the error).
pub fn from_str<'de, T: Deserialize<'de>>(text: &'de str) -> Option<T> {
    let mut de = Reader::new(text);
    de.skip_ws().ok()?;
    let value = T::deserialize(&mut de).ok()?;
    de.at_end().ok()?.then_some(value)
}

/// A byte that ends a run of blanks: the start of a value or punctuation.
const STOP: u8 = 0;
/// A blank between values: space, tab, line feed and carriage return.
const BLANK: u8 = 1;
/// A byte to look at: `/` (a comment, or outside the subset), and what `ron` reads otherwise
/// (vertical tab and form feed, which it takes for white space, and every non-ASCII byte).
const LOOK: u8 = 2;

/// [`STOP`], [`BLANK`] or [`LOOK`] for each byte: one look-up a byte when skipping white space.
// Indexing in a constant cannot panic at run time: out of bounds, it would not compile.
#[allow(clippy::indexing_slicing)]
static WHITE: [u8; 256] = {
    let mut t = [STOP; 256];
    t[b' ' as usize] = BLANK;
    t[b'\t' as usize] = BLANK;
    t[b'\n' as usize] = BLANK;
    t[b'\r' as usize] = BLANK;
    t[b'/' as usize] = LOOK;
    t[0x0B] = LOOK;
    t[0x0C] = LOOK;
    let mut i = 0x80;
    while i < 256 {
        t[i] = LOOK;
        i += 1;
    }
    t
};

/// The bytes that continue an identifier: ASCII letters and digits, and `_`.
// Indexing in a constant cannot panic at run time: out of bounds, it would not compile.
#[allow(clippy::indexing_slicing)]
static IDENT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric() || c == b'_';
        i += 1;
    }
    t
};

/// Where the first `"` or `\\` of `b` is. Most strings of a scenario are short (a unit, an order),
/// so their first 64 bytes are searched eight at a time in a register, then the rest with
/// `memchr` (whose setup costs more than a short string's search).
#[inline]
fn quote_or_backslash(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while i < 64 {
        let Some(chunk) = b.get(i..i + 8).and_then(|c| c.first_chunk::<8>()) else {
            break;
        };
        let v = u64::from_le_bytes(*chunk);
        // A byte equal to `"` or `\\` becomes 0 in `q` or `s`; the zero-byte test marks it (and
        // maybe bytes after it, never one before, so the lowest mark is the first match).
        let (q, s) = (v ^ (ONES * 0x22), v ^ (ONES * 0x5c));
        let found = ((q.wrapping_sub(ONES) & !q) | (s.wrapping_sub(ONES) & !s)) & HIGH;
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = b.get(i..)?;
    memchr::memchr2(b'"', b'\\', rest).map(|k| i + k)
}

/// "Not read here": outside the subset, or invalid. Carries nothing; `ron` gives the message.
#[derive(Debug)]
pub struct Outside;

impl fmt::Display for Outside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("outside the RON subset read without the ron crate")
    }
}

impl std::error::Error for Outside {}

impl de::Error for Outside {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Outside
    }
}

/// What every piece of the reader returns.
pub(crate) type Result<T> = std::result::Result<T, Outside>;

/// The cursor over the text. Besides being a serde deserializer, it offers its pieces to
/// readers written for one schema (the scenario loader's, which reads faster than serde's
/// visitors can): each piece reads exactly what the deserializer reads for the same type.
pub(crate) struct Reader<'de> {
    src: &'de [u8],
    text: &'de str,
    pos: usize,
}

impl<'de> Reader<'de> {
    /// A reader at the start of `text`.
    pub(crate) fn new(text: &'de str) -> Self {
        Reader {
            src: text.as_bytes(),
            text,
            pos: 0,
        }
    }

    /// Whether only white space and comments are left.
    pub(crate) fn at_end(&mut self) -> Result<bool> {
        self.skip_ws()?;
        Ok(self.pos == self.src.len())
    }

    /// A value of any type, read by its serde implementation.
    pub(crate) fn value<T: Deserialize<'de>>(&mut self) -> Result<T> {
        T::deserialize(self)
    }

    /// `open` items `close`, separated by commas, with an optional trailing comma, as the
    /// deserializer reads lists, tuples, maps and structs: `item` reads each item.
    pub(crate) fn items(
        &mut self,
        open: u8,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.expect(open)?;
        loop {
            self.skip_ws()?;
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok(());
            }
            item(self)?;
            if !self.eat(b',')? {
                return self.expect(close);
            }
        }
    }

    /// An `Option`, as the deserializer reads one: `None`, `Some(value)` or, the
    /// `IMPLICIT_SOME` extension, the bare value; `value` reads the value.
    pub(crate) fn option<T>(
        &mut self,
        value: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<Option<T>> {
        // Neither word can start here (the value is bare, as it mostly is): no look for them.
        self.skip_ws()?;
        if !matches!(self.peek(), Some(b'N' | b'S')) {
            return value(self).map(Some);
        }
        if self.eat_word("None")? {
            return Ok(None);
        }
        if self.eat_word("Some")? {
            self.expect(b'(')?;
            let v = value(self)?;
            self.eat(b',')?;
            self.expect(b')')?;
            return Ok(Some(v));
        }
        value(self).map(Some)
    }

    /// `pair` — `()`, `{}` or `[]` with nothing inside — consumed if it comes next: an empty
    /// struct (all defaults), map or list.
    pub(crate) fn eat_empty(&mut self, pair: &[u8; 2]) -> Result<bool> {
        self.skip_ws()?;
        if self.src.get(self.pos..self.pos + 2) == Some(pair) {
            self.pos += 2;
            return Ok(true);
        }
        Ok(false)
    }

    /// A `true` or `false`.
    pub(crate) fn bool(&mut self) -> Result<bool> {
        match self.ident()? {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(Outside),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    /// Skips spaces, tabs, line ends and `//` comments.
    #[inline]
    fn skip_ws(&mut self) -> Result<()> {
        let src = self.src;
        let mut i = self.pos;
        loop {
            let Some(&c) = src.get(i) else {
                self.pos = i;
                return Ok(());
            };
            match WHITE.get(usize::from(c)).copied().unwrap_or(LOOK) {
                BLANK => i += 1,
                STOP => {
                    self.pos = i;
                    return Ok(());
                }
                _ if c == b'/' && src.get(i + 1) == Some(&b'/') => {
                    match memchr::memchr(b'\n', src.get(i..).unwrap_or_default()) {
                        Some(n) => i += n + 1,
                        None => i = src.len(),
                    }
                }
                _ => {
                    self.pos = i;
                    return Err(Outside);
                }
            }
        }
    }

    /// Consumes `c` (after whitespace) if it comes next.
    pub(crate) fn eat(&mut self, c: u8) -> Result<bool> {
        // Right here, as punctuation mostly is (`",`, `":`, `("`): no white space to skip.
        if self.peek() == Some(c) {
            self.pos += 1;
            return Ok(true);
        }
        self.skip_ws()?;
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub(crate) fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c)? { Ok(()) } else { Err(Outside) }
    }

    /// An ASCII identifier, or nothing (`Ok(None)`) when none starts here. Anything `ron` reads
    /// differently (raw identifiers and strings, byte strings, a non-ASCII letter) is outside.
    pub(crate) fn ident(&mut self) -> Result<Option<&'de str>> {
        self.skip_ws()?;
        let start = self.pos;
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {}
            Some(c) if c >= 0x80 => return Err(Outside),
            _ => return Ok(None),
        }
        let mut end = start + 1;
        while self
            .src
            .get(end)
            .is_some_and(|&c| IDENT.get(usize::from(c)).copied().unwrap_or(false))
        {
            end += 1;
        }
        self.pos = end;
        if matches!(self.peek(), Some(b'#' | b'"' | b'\'') | Some(0x80..)) {
            return Err(Outside);
        }
        // Boundaries are ASCII bytes, so the slice is on character boundaries.
        self.text.get(start..self.pos).map(Some).ok_or(Outside)
    }

    /// The identifier `word` if it comes next (whole), consumed; otherwise nothing is consumed.
    fn eat_word(&mut self, word: &str) -> Result<bool> {
        self.skip_ws()?;
        let end = self.pos + word.len();
        if self.src.get(self.pos..end) == Some(word.as_bytes())
            && !matches!(self.src.get(end), Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c >= 0x80)
        {
            self.pos = end;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A `"…"` string: borrowed when it has no escape.
    #[inline]
    pub(crate) fn string(&mut self) -> Result<Cow<'de, str>> {
        self.expect(b'"')?;
        let start = self.pos;
        let rest = self.src.get(start..).ok_or(Outside)?;
        let n = quote_or_backslash(rest).ok_or(Outside)?;
        self.pos += n;
        if self.peek() == Some(b'"') {
            self.pos += 1;
            return self
                .text
                .get(start..start + n)
                .map(Cow::Borrowed)
                .ok_or(Outside);
        }
        let mut out = String::from(self.text.get(start..start + n).ok_or(Outside)?);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    let c = match self.src.get(self.pos + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'\'') => '\'',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'0') => '\0',
                        _ => return Err(Outside),
                    };
                    out.push(c);
                    self.pos += 2;
                }
                Some(_) => {
                    let from = self.pos;
                    let rest = self.src.get(from..).ok_or(Outside)?;
                    let n = memchr::memchr2(b'"', b'\\', rest).ok_or(Outside)?;
                    self.pos += n;
                    out.push_str(self.text.get(from..self.pos).ok_or(Outside)?);
                }
                None => return Err(Outside),
            }
        }
    }

    /// A struct's optional name, which must be `name` when given.
    pub(crate) fn struct_name(&mut self, name: &str) -> Result<()> {
        match self.ident()? {
            None => Ok(()),
            Some(found) if found == name && !name.is_empty() => Ok(()),
            Some(_) => Err(Outside),
        }
    }
}

/// The elements of a list, map, tuple or struct up to `end`, separated by commas, with an
/// optional trailing comma (as `ron` reads them).
struct Separated<'a, 'de> {
    de: &'a mut Reader<'de>,
    end: u8,
    had_comma: bool,
}

impl Separated<'_, '_> {
    fn has_element(&mut self) -> Result<bool> {
        self.de.skip_ws()?;
        let more = self.de.peek() != Some(self.end);
        match (self.had_comma, more) {
            (true, more) => Ok(more),
            (false, false) => Ok(false),
            (false, true) => Err(Outside),
        }
    }
}

impl<'de> de::SeqAccess<'de> for Separated<'_, 'de> {
    type Error = Outside;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.has_element()? {
            return Ok(None);
        }
        let v = seed.deserialize(&mut *self.de)?;
        self.had_comma = self.de.eat(b',')?;
        Ok(Some(v))
    }
}

impl<'de> de::MapAccess<'de> for Separated<'_, 'de> {
    type Error = Outside;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.has_element()? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.de.expect(b':')?;
        let v = seed.deserialize(&mut *self.de)?;
        self.had_comma = self.de.eat(b',')?;
        Ok(v)
    }
}

impl<'de> Reader<'de> {
    /// `open` elements `close`, each read by the visitor as a sequence.
    fn seq<V: Visitor<'de>>(&mut self, open: u8, close: u8, visitor: V) -> Result<V::Value> {
        self.expect(open)?;
        let value = visitor.visit_seq(Separated {
            de: &mut *self,
            end: close,
            had_comma: true,
        })?;
        self.expect(close)?;
        Ok(value)
    }

    /// `open` entries `close`, each read by the visitor as a map.
    fn map<V: Visitor<'de>>(&mut self, open: u8, close: u8, visitor: V) -> Result<V::Value> {
        self.expect(open)?;
        let value = visitor.visit_map(Separated {
            de: &mut *self,
            end: close,
            had_comma: true,
        })?;
        self.expect(close)?;
        Ok(value)
    }
}

/// Kinds of value outside the subset: left to `ron`.
macro_rules! outside {
    ($($name:ident)*) => {
        $(fn $name<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
            Err(Outside)
        })*
    };
}

/// The same, for kinds that come with their type's name.
macro_rules! outside_named {
    ($($name:ident)*) => {
        $(fn $name<V: Visitor<'de>>(self, _name: &'static str, _visitor: V) -> Result<V::Value> {
            Err(Outside)
        })*
    };
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Outside;

    outside! {
        deserialize_any deserialize_ignored_any
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes deserialize_byte_buf
    }
    outside_named! { deserialize_unit_struct deserialize_newtype_struct }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_bool(self.bool()?)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.eat_word("None")? {
            return visitor.visit_none();
        }
        // `Some(…)` or the bare value (`IMPLICIT_SOME`), as the schema reader reads an option.
        self.option(|r| visitor.visit_some(r))?.ok_or(Outside)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        if self.src.get(self.pos..self.pos + 2) == Some(b"()") {
            self.pos += 2;
            visitor.visit_unit()
        } else {
            Err(Outside)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.seq(b'[', b']', visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.seq(b'(', b')', visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.struct_name(name)?;
        self.seq(b'(', b')', visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.map(b'{', b'}', visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.struct_name(name)?;
        self.map(b'(', b')', visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.ident()? {
            Some(s) => visitor.visit_borrowed_str(s),
            None => Err(Outside),
        }
    }
}

impl<'de> de::EnumAccess<'de> for &mut Reader<'de> {
    type Error = Outside;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(&mut *self)?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = Outside;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(Outside)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(Outside)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Outside)
    }
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    /// The position of the first `"` or `\` in `b`, searched eight bytes at once.
    pub fn quote_or_backslash(b: &[u8]) -> Option<usize> {
        super::quote_or_backslash(b)
    }
}
