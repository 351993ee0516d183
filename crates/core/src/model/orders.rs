//! Order notation: parsing and printing orders as people and the DATC write them.
//!
//! Parsing keeps what was written — an omitted or wrong coast, a missing or wrong unit letter, a
//! nationality — so that the adjudicator can apply the DATC 4.B / 4.C rule choices later.
//! Parsing is not legality checking: `F North Sea - Picardy` parses fine.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): token positions are checked
// against the token count before a slice is taken (`self.pos + n` only after `n` tokens were
// counted ahead); the edit-distance table is allocated as (a+1)x(b+1) and indexed inside those
// bounds; byte positions range over the text being scanned.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

mod keywords;
mod plain;
mod types;

use keywords::{
    BUILD_KW, CONVOY_KW, DISBAND_KW, HOLD_KW, MOVE_KW, REMOVE_KW, SUPPORT_KW, WAIVE_KW, pack,
};
pub use types::{LocSpec, NameStyle, Order, OrderKind, Submitted, UnitRef, UnitSpec};

use crate::base::near::Banded;
use crate::model::error::OrderError;
use crate::model::map::{Coast, Map, PowerId, ProvinceId, UnitKind};

/// A token: a slice of the order text (or a fixed separator), and its column.
#[derive(Clone, Copy, Debug)]
struct Tok<'s> {
    text: &'s str,
    /// Column (1-based, in characters) in the order text.
    col: usize,
    /// The text as a keyword ([`kw_key`]), to compare with the keyword lists in one step.
    kw: u64,
}

impl<'s> Tok<'s> {
    fn new(text: &'s str, col: usize) -> Self {
        Tok {
            text,
            col,
            kw: kw_key(text),
        }
    }
}

/// A token's text as a keyword: [`pack`] of the text less one trailing full stop ("A Paris
/// Holds."), or 0 — which is no keyword's key — when that is not one to eight ASCII bytes
/// without NUL (so not any keyword, whatever its case).
fn kw_key(text: &str) -> u64 {
    let b = text.as_bytes();
    let b = match b.split_last() {
        Some((b'.', rest)) if !rest.is_empty() => rest,
        _ => b,
    };
    if b.is_empty() || b.len() > 8 {
        return 0;
    }
    // The bytes in a register: two four-byte words that overlap when fewer than eight, or up to
    // three single bytes (copying a variable length would call `memcpy`).
    let n = b.len();
    let v = match (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        (Some(lo), Some(hi)) => {
            u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << (8 * (n - 4))
        }
        _ => {
            let byte = |k: usize| b.get(k).map_or(0, |&c| u64::from(c));
            byte(0) | byte(1) << 8 | byte(2) << 16
        }
    };
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if v & HIGH != 0 {
        return 0;
    }
    // A NUL among the text's bytes (the padding after them made 1 for the test): the classic
    // zero-byte test, exact when no byte has its top bit set.
    let padding = u64::MAX.checked_shl(8 * b.len() as u32).unwrap_or(0);
    let x = v | (padding & ONES);
    if x.wrapping_sub(ONES) & !x & HIGH != 0 {
        return 0;
    }
    // Lower-cased eight bytes at a time: every byte is below 0x80, so adding to it never
    // carries into the next; a byte is a capital when adding 0x80 - 'A' sets its top bit and
    // adding 0x80 - 'Z' - 1 does not.
    let from_a = v + (0x80 - u64::from(b'A')) * ONES;
    let past_z = v + (0x80 - u64::from(b'Z') - 1) * ONES;
    let capitals = from_a & !past_z & HIGH;
    v | (capitals >> 2)
}

/// Splits an order into tokens (appended to `toks`) without copying: each token is a slice
/// of `s`.
fn tokenize<'s>(s: &'s str, toks: &mut Vec<Tok<'s>>) {
    // (byte offset, char) pairs, walked with a character count for the columns.
    let mut it = s.char_indices().peekable();
    let mut col = 0usize;
    while let Some((i, c)) = it.next() {
        col += 1;
        if c.is_whitespace() || c == ',' || c == ';' {
            continue;
        }
        // `->` and `=>` are both the move arrow.
        if (c == '-' || c == '=') && it.peek().is_some_and(|&(_, n)| n == '>') {
            it.next();
            toks.push(Tok::new("->", col));
            col += 1;
            continue;
        }
        let single = |i: usize, c: char| &s[i..i + c.len_utf8()];
        if matches!(c, '-' | '(' | ')' | '/' | ':' | '>') {
            toks.push(Tok::new(single(i, c), col));
            continue;
        }
        if !(c.is_alphanumeric() || c == '.' || c == '\'' || c == '_') {
            toks.push(Tok::new(single(i, c), col));
            continue;
        }
        // A word: letters, digits, `.`, `'`, `_`, and hyphens inside it (`Mid-Atlantic`,
        // `spa-nc`, `Par-Bur`; split later if not part of a name).
        let start_col = col;
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = it.peek() {
            if d.is_alphanumeric() || d == '.' || d == '\'' || d == '_' {
                it.next();
                col += 1;
                end = j + d.len_utf8();
            } else if d == '-'
                && s[j + 1..]
                    .chars()
                    .next()
                    .is_some_and(|n| n.is_alphanumeric())
            {
                it.next();
                col += 1;
                end = j + 1;
            } else {
                break;
            }
        }
        toks.push(Tok::new(&s[i..end], start_col));
    }
}

/// [`tokenize`] for ASCII text: the same tokens, found by bytes (a column is a byte offset
/// plus one).
fn tokenize_ascii<'s>(s: &'s str, toks: &mut Vec<Tok<'s>>) {
    let b = s.as_bytes();
    let class = |c: u8| ASCII_CLASS[usize::from(c & 0x7f)];
    let word = |c: u8| class(c) == WORD;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if class(c) == SKIP {
            i += 1;
            continue;
        }
        if (c == b'-' || c == b'=') && b.get(i + 1) == Some(&b'>') {
            toks.push(Tok::new("->", i + 1));
            i += 2;
            continue;
        }
        if !word(c) {
            toks.push(Tok::new(&s[i..i + 1], i + 1));
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < b.len() {
            if word(b[i])
                || (b[i] == b'-' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric()))
            {
                i += 1;
            } else {
                break;
            }
        }
        toks.push(Tok::new(&s[start..i], start + 1));
    }
}

/// A byte the tokenizer skips: white space (as `char::is_whitespace`, so with the vertical
/// tab), `,` and `;`.
const SKIP: u8 = 1;
/// A byte of a word: a letter or digit, `.`, `'` or `_`.
const WORD: u8 = 2;

/// [`SKIP`], [`WORD`] or 0 (a token of its own) for each ASCII byte.
static ASCII_CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        let c = i as u8;
        t[i] = if matches!(c, b'\t'..=b'\r' | b' ' | b',' | b';') {
            SKIP
        } else if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'\'' | b'_') {
            WORD
        } else {
            0
        };
        i += 1;
    }
    t
};

/// Whether a token is a word (starts with a letter or digit), which a name can be.
fn starts_word(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b) if b.is_ascii() => b.is_ascii_alphanumeric(),
        _ => text.chars().next().is_some_and(char::is_alphanumeric),
    }
}

fn is_kw(t: &Tok<'_>, kws: &[u64]) -> bool {
    // A trailing full stop ("A Paris Holds.") does not change the word (see `kw_key`).
    kws.contains(&t.kw)
}

struct Parser<'m, 's> {
    map: &'m Map,
    toks: Vec<Tok<'s>>,
    pos: usize,
    end_col: usize,
    /// The buffer names are normalized into for look-ups (reused: no string per look-up).
    key: String,
}

thread_local! {
    /// The token list (empty) and name key of the last parse on this thread, lent to the next
    /// one: parsing an order allocates nothing once the thread has parsed one.
    static SPARE: std::cell::Cell<(Vec<Tok<'static>>, String)> =
        const { std::cell::Cell::new((Vec::new(), String::new())) };
}

/// An emptied token list for text of another lifetime, in the same allocation (`Tok`s of any
/// lifetime have one layout, so collecting the empty list's iterator reuses its buffer; the
/// closure never runs).
fn recycle<'b>(mut toks: Vec<Tok<'_>>) -> Vec<Tok<'b>> {
    toks.clear();
    toks.into_iter().map(|t| Tok::new("", t.col)).collect()
}

impl<'m, 's> Parser<'m, 's> {
    /// Runs `f` on a parser of `text`, with the thread's spare buffers.
    fn with<R>(map: &'m Map, text: &'s str, f: impl FnOnce(&mut Self) -> R) -> R {
        let (spare_toks, mut key) = SPARE.take();
        key.clear();
        let ascii = text.is_ascii();
        let mut toks = recycle(spare_toks);
        if ascii {
            tokenize_ascii(text, &mut toks);
        } else {
            tokenize(text, &mut toks);
        }
        let mut p = Parser {
            map,
            toks,
            pos: 0,
            end_col: if ascii {
                text.len()
            } else {
                text.chars().count()
            } + 1,
            key,
        };
        let r = f(&mut p);
        // A huge order's buffers are not kept.
        if p.toks.capacity() <= 64 && p.key.capacity() <= 256 {
            SPARE.set((recycle(p.toks), p.key));
        }
        r
    }

    fn peek(&self) -> Option<&Tok<'s>> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok<'s>> {
        self.toks.get(self.pos + k)
    }

    /// `words` normalized into the key buffer, joined by single spaces.
    fn normalize(&mut self, words: &[&str]) -> &str {
        self.key.clear();
        for w in words {
            if !self.key.is_empty() {
                self.key.push(' ');
            }
            crate::model::map::normalize_into(w, &mut self.key);
        }
        &self.key
    }

    /// The longest run of words at the cursor (at most five) that names a province: how many
    /// words and which province. The words are folded into the key one at a time, with one
    /// look-up each in the map's index, which also says whether a longer name continues them;
    /// the walk stops as soon as none does.
    fn longest_name(&mut self) -> Option<(usize, ProvinceId)> {
        self.key.clear();
        let mut best = None;
        for (k, w) in self.toks.iter().skip(self.pos).take(5).enumerate() {
            if !starts_word(w.text) {
                break;
            }
            if k > 0 {
                self.key.push(' ');
            }
            crate::model::map::normalize_into(w.text, &mut self.key);
            let e = self.map.lookup_normalized(&self.key);
            if let Some(p) = e.province() {
                best = Some((k + 1, p));
            }
            if !e.continues() {
                break;
            }
        }
        best
    }

    /// A power's name, adjective or alias, or `Neutral` (the owner of neutral units: a
    /// supported unit's nationality, or the prefix of an order, which is then illegal).
    fn find_power_word(&mut self, word: &str) -> Option<PowerId> {
        let map = self.map;
        let key = self.normalize(&[word]);
        map.find_power_normalized(key)
            .or_else(|| (key == crate::model::map::NEUTRAL_NAME).then_some(PowerId::NEUTRAL))
    }

    fn col(&self) -> usize {
        self.peek().map(|t| t.col).unwrap_or(self.end_col)
    }

    fn err<T>(&self, col: usize, message: impl Into<String>) -> Result<T, OrderError> {
        Err(OrderError {
            col,
            message: message.into(),
        })
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("found {}", crate::model::error::quoted(t.text)),
            None => "found the end of the order".to_string(),
        }
    }

    fn eat(&mut self, kws: &[u64]) -> bool {
        if self.peek().is_some_and(|t| is_kw(t, kws)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// A move keyword, with the `to` that may follow it (`Retreats to`, `moves to`, `- to`).
    fn eat_move(&mut self) -> bool {
        if !self.eat(MOVE_KW) {
            return false;
        }
        while self.eat(&[pack("to")]) {}
        true
    }

    fn unit_kind(&mut self) -> Option<UnitKind> {
        let t = self.peek()?;
        let w = t.text;
        let k = if w.eq_ignore_ascii_case("a") || w.eq_ignore_ascii_case("army") {
            UnitKind::Army
        } else if w.eq_ignore_ascii_case("f") || w.eq_ignore_ascii_case("fleet") {
            UnitKind::Fleet
        } else {
            return None;
        };
        // `A` followed by nothing that could be a place is not a unit letter.
        self.peek_at(1)?;
        self.pos += 1;
        Some(k)
    }

    /// Splits a hyphenated word at the cursor when it is not (the start of) a name.
    fn split_hyphen_word(&mut self) {
        let Some(&t) = self.peek() else { return };
        if t.text.len() < 3 || !t.text.bytes().any(|b| b == b'-') {
            return;
        }
        let map = self.map;
        let e = map.lookup_normalized(self.normalize(&[t.text]));
        if e.province().is_some() || e.continues() {
            return;
        }
        let t = self.toks.remove(self.pos);
        let mut col = t.col;
        let mut new = Vec::new();
        for (i, p) in t.text.split('-').enumerate() {
            if i > 0 {
                // `spa-nc` is a coast; `Par-Bur` is a move.
                let sep = if Coast::parse(p).is_some() && p.len() == 2 {
                    "/"
                } else {
                    "-"
                };
                new.push(Tok::new(sep, col));
                col += 1;
            }
            new.push(Tok::new(p, col));
            col += p.chars().count();
        }
        for (k, tok) in new.into_iter().enumerate() {
            self.toks.insert(self.pos + k, tok);
        }
    }

    /// The next `n` tokens joined by spaces, if they are all words.
    fn joined_words(&self, n: usize) -> Option<String> {
        let words = &self.toks[self.pos..self.pos + n];
        if words.iter().any(|w| !starts_word(w.text)) {
            return None;
        }
        Some(words.iter().map(|w| w.text).collect::<Vec<_>>().join(" "))
    }

    fn province(&mut self) -> Result<ProvinceId, OrderError> {
        self.split_hyphen_word();
        let Some(first) = self.peek() else {
            return self.err(
                self.end_col,
                "expected a province name, found the end of the order",
            );
        };
        let first = *first;
        let col = first.col;
        if !starts_word(first.text) {
            return self.err(
                col,
                format!(
                    "expected a province name, found {}",
                    crate::model::error::quoted(first.text)
                ),
            );
        }
        if let Some((n, p)) = self.longest_name() {
            self.pos += n;
            return Ok(p);
        }
        let mut msg = format!(
            "unknown province {}",
            crate::model::error::quoted(first.text)
        );
        // Suggest for the longest run of words that is close to a name ("Norht Sea", "Gulf of Lyons").
        let mut best = None;
        for n in (1..=3.min(self.toks.len() - self.pos)).rev() {
            let Some(joined) = self.joined_words(n) else {
                continue;
            };
            if let Some(s) = suggest(self.map, &joined) {
                best = Some(s);
                break;
            }
        }
        if let Some(s) = best {
            let _ = write!(msg, "; did you mean {s:?}?");
        } else {
            msg.push_str("; expected a province name or abbreviation (see `dipsandbox maps`)");
        }
        self.err(col, msg)
    }

    fn coast(&mut self) -> Result<Option<Coast>, OrderError> {
        let Some(t) = self.peek() else {
            return Ok(None);
        };
        if t.text == "(" {
            let col = t.col;
            self.pos += 1;
            let c = self.coast_words();
            let Some(c) = c else {
                return self.err(
                    col + 1,
                    format!(
                        "expected a coast such as nc, sc, ec or wc inside parentheses, {}",
                        self.found()
                    ),
                );
            };
            if !self.eat(&[pack(")")]) {
                return self.err(
                    self.col(),
                    format!("expected ')' after the coast, {}", self.found()),
                );
            }
            return Ok(Some(c));
        }
        if t.text == "/" {
            self.pos += 1;
            // `spa/nc-gol` (jDip style): the coast is glued to the next province.
            self.split_hyphen_word();
            let c = self.coast_words();
            return match c {
                Some(c) => Ok(Some(c)),
                None => self.err(
                    self.col(),
                    format!(
                        "expected a coast such as nc, sc, ec or wc after '/', {}",
                        self.found()
                    ),
                ),
            };
        }
        Ok(self.coast_words())
    }

    /// `nc`, `north coast`, `north`, `coast north`.
    fn coast_words(&mut self) -> Option<Coast> {
        let t = self.peek()?;
        let lower = t.text;
        let bare_ok = ["nc", "sc", "ec", "wc"]
            .iter()
            .any(|c| lower.eq_ignore_ascii_case(c));
        let next_is_coast = self
            .peek_at(1)
            .is_some_and(|n| n.text.eq_ignore_ascii_case("coast"));
        if bare_ok {
            self.pos += 1;
            return Coast::parse(lower);
        }
        if next_is_coast && let Some(c) = Coast::parse(lower) {
            self.pos += 2;
            return Some(c);
        }
        if lower.eq_ignore_ascii_case("coast")
            && let Some(c) = self.peek_at(1).and_then(|n| Coast::parse(n.text))
        {
            self.pos += 2;
            return Some(c);
        }
        // Inside parentheses a bare `north` is a coast.
        if self.pos > 0
            && self.toks[self.pos - 1].text == "("
            && let Some(c) = Coast::parse(lower)
        {
            self.pos += 1;
            return Some(c);
        }
        None
    }

    fn loc(&mut self) -> Result<LocSpec, OrderError> {
        let province = self.province()?;
        let coast = self.coast()?;
        Ok(LocSpec { province, coast })
    }

    fn unit_spec(&mut self) -> Result<UnitSpec, OrderError> {
        let kind = self.unit_kind();
        let loc = self.loc()?;
        Ok(UnitSpec { kind, loc })
    }

    fn nationality(&mut self) -> Option<PowerId> {
        let t = *self.peek()?;
        // Only a nationality when followed by a unit letter or a place.
        let p = self.find_power_word(t.text)?;
        // "English Channel": the word is or starts a province name, it is not a nationality.
        if self.longest_name().is_some() {
            return None;
        }
        self.pos += 1;
        Some(p)
    }

    fn unit_ref(&mut self) -> Result<UnitRef, OrderError> {
        let power = self.nationality();
        let unit = self.unit_spec()?;
        Ok(UnitRef { power, unit })
    }

    fn via_convoy(&mut self) -> bool {
        let Some(t) = self.peek() else { return false };
        if is_kw(t, &[pack("via"), pack("by")])
            && self
                .peek_at(1)
                .is_some_and(|n| is_kw(n, &[pack("convoy"), pack("c"), pack("convoys")]))
        {
            self.pos += 2;
            return true;
        }
        false
    }

    fn expect_end(&self) -> Result<(), OrderError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => self.err(
                t.col,
                format!(
                    "unexpected {} after the end of the order",
                    crate::model::error::quoted(t.text)
                ),
            ),
        }
    }

    fn order(&mut self) -> Result<Order, OrderError> {
        // Optional `England:` prefix.
        let mut power = None;
        if let (Some(&a), Some(b)) = (self.peek(), self.peek_at(1))
            && b.text == ":"
        {
            let col = a.col;
            match self.find_power_word(a.text) {
                Some(p) => {
                    power = Some(p);
                    self.pos += 2;
                }
                None => {
                    let names: Vec<&str> =
                        self.map.powers.iter().map(|p| p.name.as_str()).collect();
                    return self.err(
                        col,
                        format!(
                            "unknown power {}; expected one of {}",
                            crate::model::error::quoted(a.text),
                            names.join(", ")
                        ),
                    );
                }
            }
        }
        if self.peek().is_none() {
            return self.err(
                self.end_col,
                "empty order; expected e.g. \"A Paris - Burgundy\"",
            );
        }
        if self.eat(WAIVE_KW) {
            self.expect_end()?;
            return Ok(Order {
                power,
                unit: None,
                kind: OrderKind::Waive,
            });
        }
        if self.eat(BUILD_KW) {
            let unit = self.unit_spec()?;
            self.expect_end()?;
            return Ok(Order {
                power,
                unit: Some(unit),
                kind: OrderKind::Build,
            });
        }
        if self
            .peek()
            .is_some_and(|t| is_kw(t, REMOVE_KW) || t.text.eq_ignore_ascii_case("disband"))
        {
            let disband = self
                .peek()
                .is_some_and(|t| t.text.eq_ignore_ascii_case("disband"));
            self.pos += 1;
            let unit = self.unit_spec()?;
            self.expect_end()?;
            // `Disband A Paris` is a removal in an adjustment phase and a disband in a retreat
            // phase; both are recorded as written and interpreted by the phase.
            let kind = if disband {
                OrderKind::Disband
            } else {
                OrderKind::Remove
            };
            return Ok(Order {
                power,
                unit: Some(unit),
                kind,
            });
        }
        let unit = self.unit_spec()?;
        let kind = match self.peek() {
            None => return self.err(self.end_col, "expected an order after the unit (Hold, -, Supports, Convoys, Disband, Build, Remove), found the end of the order"),
            Some(t) if is_kw(t, HOLD_KW) => {
                self.pos += 1;
                OrderKind::Hold
            }
            Some(t) if is_kw(t, DISBAND_KW) => {
                self.pos += 1;
                OrderKind::Disband
            }
            Some(t) if is_kw(t, BUILD_KW) => {
                self.pos += 1;
                OrderKind::Build
            }
            Some(t) if is_kw(t, REMOVE_KW) => {
                self.pos += 1;
                OrderKind::Remove
            }
            Some(t) if is_kw(t, MOVE_KW) => {
                self.eat_move();
                // The last stop is the destination; the ones before it, a written path.
                let mut dest = self.loc()?;
                let mut path = Vec::new();
                let mut via_convoy = self.via_convoy();
                while !via_convoy && self.eat_move() {
                    path.push(dest.province);
                    dest = self.loc()?;
                    via_convoy = self.via_convoy();
                }
                OrderKind::Move { dest, via_convoy, path }
            }
            Some(t) if is_kw(t, SUPPORT_KW) => {
                self.pos += 1;
                let target = self.unit_ref()?;
                let dest = if self.eat_move() {
                    let d = self.loc()?;
                    // `via convoy` in a support order carries no meaning; accept and drop it.
                    self.via_convoy();
                    Some(d)
                } else {
                    self.eat(HOLD_KW);
                    None
                };
                OrderKind::Support { target, dest }
            }
            Some(t) if is_kw(t, CONVOY_KW) => {
                self.pos += 1;
                let army = self.unit_ref()?;
                if !self.eat_move() {
                    return self.err(self.col(), format!("expected '-' and the convoyed army's destination, {}", self.found()));
                }
                let dest = self.loc()?;
                OrderKind::Convoy { army, dest }
            }
            Some(t) => {
                let col = t.col;
                return self.err(col, format!("expected Hold, '-', Supports, Convoys, Disband, Build or Remove after the unit, found {}", crate::model::error::quoted(t.text)));
            }
        };
        self.expect_end()?;
        Ok(Order {
            power,
            unit: Some(unit),
            kind,
        })
    }
}

/// The closest known name to `word`, if any is close enough to be a useful suggestion.
pub fn suggest(map: &Map, word: &str) -> Option<String> {
    let pid = suggest_province(map, word)?;
    Some(format!(
        "{} ({})",
        map.province(pid).name,
        map.province(pid).abbr
    ))
}

/// The province whose name (any of its names) is closest to `word` by spelling, if any is
/// close enough to be a useful suggestion.
pub fn suggest_province(map: &Map, word: &str) -> Option<ProvinceId> {
    let w = crate::model::map::normalize_name(word);
    if w.is_empty() {
        return None;
    }
    // Ranked by distance, then names the word begins, then the name itself: the same answer
    // every time, whatever order the names are stored in.
    let mut best: Option<(usize, bool, &str, ProvinceId)> = None;
    let wc: Vec<char> = w.chars().collect();
    let mut scratch = Banded::default();
    for (name, pid) in map.all_names() {
        let nn = name.chars().count();
        let mut limit = (wc.len().max(nn) / 3).max(1);
        // The distance is at least the difference in length: no need to compute it (and a
        // megabyte-long word costs nothing).
        if wc.len().abs_diff(nn) > limit {
            continue;
        }
        // A name is only worth computing if it could beat the best so far.
        if let Some((bd, ..)) = best {
            limit = limit.min(bd);
        }
        let Some(d) = scratch.distance_within(&wc, name, limit) else {
            continue;
        };
        let key = (d, !name.starts_with(&w), name, pid);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, _, pid)| pid)
}

/// Parses one order. Errors give the column (in characters, from 1) within `text`.
pub fn parse_order(map: &Map, text: &str) -> Result<Order, OrderError> {
    // Most orders are written the plain way, which one pass reads; the parser reads the rest.
    match plain::order(map, text) {
        Some(order) => Ok(order),
        None => order_by_parser(map, text),
    }
}

/// [`parse_order`] by the parser alone.
fn order_by_parser(map: &Map, text: &str) -> Result<Order, OrderError> {
    Parser::with(map, text, Parser::order)
}

/// The fast path for plain orders and units (`orders/plain.rs`) against the parser on `text`:
/// `Ok(true)` when the fast path read it (as an order or as a unit) and the parser gives the
/// same, `Ok(false)` when it left it to the parser, `Err` (describing both) when they differ.
/// For the fuzz target and tests: parsing never needs it (only with the `test-hooks` feature).
#[cfg(feature = "test-hooks")]
pub fn plain_path_agrees(map: &Map, text: &str) -> Result<bool, String> {
    fn check<T: PartialEq + std::fmt::Debug>(
        text: &str,
        fast: Option<T>,
        slow: impl FnOnce() -> Result<T, OrderError>,
    ) -> Result<bool, String> {
        let Some(fast) = fast else {
            return Ok(false);
        };
        match slow() {
            Ok(slow) if slow == fast => Ok(true),
            slow => Err(format!(
                "{text:?}: the fast path read {fast:?}, the parser {slow:?}"
            )),
        }
    }
    let order = check(text, plain::order(map, text), || order_by_parser(map, text))?;
    let unit = check(text, plain::unit(map, text), || unit_by_parser(map, text))?;
    Ok(order || unit)
}

/// Parses a unit as listed in a position: `A Paris`, `F Spain(nc)`, `F stp/sc`.
pub fn parse_unit(map: &Map, text: &str) -> Result<UnitSpec, OrderError> {
    match plain::unit(map, text) {
        Some(unit) => Ok(unit),
        None => unit_by_parser(map, text),
    }
}

/// [`parse_unit`] by the parser alone.
fn unit_by_parser(map: &Map, text: &str) -> Result<UnitSpec, OrderError> {
    Parser::with(map, text, |p| {
        let unit = p.unit_spec()?;
        if unit.kind.is_none() {
            return p.err(1, "expected a unit letter, A or F, before the province");
        }
        p.expect_end()?;
        Ok(unit)
    })
}

/// Parses a single place: `Spain(nc)`, `stp/sc`, `Paris`.
pub fn parse_loc(map: &Map, text: &str) -> Result<LocSpec, OrderError> {
    Parser::with(map, text, |p| {
        let l = p.loc()?;
        p.expect_end()?;
        Ok(l)
    })
}

fn write_loc(out: &mut String, map: &Map, l: &LocSpec, style: NameStyle) {
    let p = map.province(l.province);
    match style {
        // `Lon`, `Spa(nc)`: abbreviations with a capital, as people write them.
        NameStyle::Abbr => {
            let mut chars = p.abbr.chars();
            if let Some(c) = chars.next() {
                out.extend(c.to_uppercase());
                out.push_str(chars.as_str());
            }
        }
        NameStyle::Full => out.push_str(&p.name),
    }
    if let Some(c) = l.coast {
        let _ = write!(out, "({})", c.abbr());
    }
}

fn write_unit(out: &mut String, map: &Map, u: &UnitSpec, style: NameStyle) {
    if let Some(k) = u.kind {
        out.push(k.letter());
        out.push(' ');
    }
    write_loc(out, map, &u.loc, style);
}

fn write_ref(out: &mut String, map: &Map, r: &UnitRef, style: NameStyle) {
    if let Some(p) = r.power {
        out.push_str(&map.power(p).adjective);
        out.push(' ');
    }
    write_unit(out, map, &r.unit, style);
}

/// Prints an order; parsing the result gives the same [`Order`].
pub fn format_order(map: &Map, o: &Order, style: NameStyle) -> String {
    let mut s = String::new();
    if let Some(p) = o.power {
        let _ = write!(s, "{}: ", map.power(p).name);
    }
    let (verb_s, verb_c) = match style {
        NameStyle::Abbr => ("S", "C"),
        NameStyle::Full => ("Supports", "Convoys"),
    };
    match (&o.kind, &o.unit) {
        (OrderKind::Waive, _) => s.push_str("Waive"),
        (OrderKind::Build, Some(u)) => {
            s.push_str("Build ");
            write_unit(&mut s, map, u, style);
        }
        (OrderKind::Remove, Some(u)) => {
            s.push_str("Remove ");
            write_unit(&mut s, map, u, style);
        }
        (kind, Some(u)) => {
            write_unit(&mut s, map, u, style);
            match kind {
                OrderKind::Hold => s.push_str(if style == NameStyle::Abbr {
                    " H"
                } else {
                    " Hold"
                }),
                OrderKind::Disband => s.push_str(" Disband"),
                OrderKind::Move {
                    dest,
                    via_convoy,
                    path,
                } => {
                    for p in path {
                        s.push_str(" - ");
                        write_loc(
                            &mut s,
                            map,
                            &LocSpec {
                                province: *p,
                                coast: None,
                            },
                            style,
                        );
                    }
                    s.push_str(" - ");
                    write_loc(&mut s, map, dest, style);
                    if *via_convoy {
                        s.push_str(" via Convoy");
                    }
                }
                OrderKind::Support { target, dest } => {
                    let _ = write!(s, " {verb_s} ");
                    write_ref(&mut s, map, target, style);
                    if let Some(d) = dest {
                        s.push_str(" - ");
                        write_loc(&mut s, map, d, style);
                    }
                }
                OrderKind::Convoy { army, dest } => {
                    let _ = write!(s, " {verb_c} ");
                    write_ref(&mut s, map, army, style);
                    s.push_str(" - ");
                    write_loc(&mut s, map, dest, style);
                }
                OrderKind::Waive | OrderKind::Build | OrderKind::Remove => {
                    unreachable!("handled above")
                }
            }
        }
        (_, None) => s.push_str("Waive"),
    }
    s
}

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    use super::{
        BUILD_KW, CONVOY_KW, DISBAND_KW, HOLD_KW, MOVE_KW, Map, Order, OrderError, REMOVE_KW,
        SUPPORT_KW, Tok, UnitSpec, WAIVE_KW,
    };

    /// The keys of every keyword list: move, support, convoy, hold, disband, build, remove,
    /// waive.
    pub const KEYWORD_LISTS: [&[u64]; 8] = [
        MOVE_KW, SUPPORT_KW, CONVOY_KW, HOLD_KW, DISBAND_KW, BUILD_KW, REMOVE_KW, WAIVE_KW,
    ];

    /// The byte-by-byte key of a keyword.
    pub fn pack(s: &str) -> u64 {
        super::pack(s)
    }

    /// The eight-bytes-at-once key of a token's text.
    pub fn kw_key(text: &str) -> u64 {
        super::kw_key(text)
    }

    /// Whether the token `text` is one of the keywords `kws`.
    pub fn is_kw(text: &str, kws: &[u64]) -> bool {
        super::is_kw(&Tok::new(text, 1), kws)
    }

    /// An order by the parser alone (no fast path).
    pub fn order_by_parser(map: &Map, text: &str) -> Result<Order, OrderError> {
        super::order_by_parser(map, text)
    }

    /// A unit by the parser alone (no fast path).
    pub fn unit_by_parser(map: &Map, text: &str) -> Result<UnitSpec, OrderError> {
        super::unit_by_parser(map, text)
    }

    /// An order by the fast path for plain orders alone (`None`: left to the parser).
    pub fn plain_order(map: &Map, text: &str) -> Option<Order> {
        super::plain::order(map, text)
    }

    /// A unit by the fast path for plain units alone (`None`: left to the parser).
    pub fn plain_unit(map: &Map, text: &str) -> Option<UnitSpec> {
        super::plain::unit(map, text)
    }
}
