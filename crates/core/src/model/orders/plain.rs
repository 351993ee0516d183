//! The fast path of [`super::parse_order`] and [`super::parse_unit`]: an order or unit written
//! the plain way — ASCII words of letters and digits separated by single spaces, a standalone
//! `-`, hyphenated names, a coast as `(nc)`, no prefix or nationality, one stop (`A Paris -
//! Burgundy`, `F North Sea Convoys A London - Norway`, `F Spain(sc) S A Mar - Gulf of Lyon`) —
//! read in one pass, with one name look-up per place.
//!
//! Each word is folded as it is read into a buffer on the stack (lower case, as the name index
//! keys are), and a word short enough to be a keyword is classed with one look-up in a table
//! built at compile time from the parser's keyword lists. A place is the run of words up to the
//! next keyword, looked up whole.
//!
//! It answers only where the parser gives the same order, and leaves everything else to it
//! (`None`): anything it does not read, and any place whose name a longer name continues (the
//! parser reads the longest name, which could run past the keyword). Tests check agreement on
//! every string of every scenario file, and property tests on generated orders.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): the buffer has `MAX + 8`
// bytes and only text of at most `MAX` bytes is read, so every position in the text is in it and
// a word's eight-byte window from its start (at most `MAX - 1`) is too.
#![allow(clippy::indexing_slicing)]

use super::keywords::{
    BUILD_KW, CONVOY_KW, DISBAND_KW, HOLD_KW, MOVE_KW, REMOVE_KW, SUPPORT_KW, WAIVE_KW, pack,
};
use super::types::{LocSpec, Order, OrderKind, UnitRef, UnitSpec};
use crate::model::map::{ALNUM_LOWER, Coast, Map, NameEntry, ProvinceId, UnitKind};

/// Longest text read here (longer orders go to the parser).
const MAX: usize = 120;
/// Most words in a name (the parser looks at five).
const NAME_WORDS: usize = 5;

/// What a word is to the orders read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Not a keyword: a word of a name, or a unit letter.
    Word,
    /// A move keyword (`-`, `to`, `moves`…, as [`MOVE_KW`]).
    Move,
    /// A hold keyword ([`HOLD_KW`]).
    Hold,
    /// A support keyword ([`SUPPORT_KW`]).
    Support,
    /// A convoy keyword ([`CONVOY_KW`]).
    Convoy,
    /// `via` or `by`, which start `via convoy`.
    Via,
    /// Another keyword of the parser's (disband, build, remove, waive): left to it.
    Other,
    /// Not a keyword, and with a hyphen between letters (`Mid-Atlantic`): a word of a name.
    Joined,
    /// A coast in parentheses (`(nc)`), as a word of its own.
    Coast,
    /// The end of the text.
    End,
}

/// Slots in [`KEYWORDS`] (a power of two, several times the keywords).
const SLOTS: usize = 256;

/// The parser's keyword lists with the class of each, and `via`/`by`.
const LISTS: [(&[u64], Class); 9] = [
    (MOVE_KW, Class::Move),
    (HOLD_KW, Class::Hold),
    (SUPPORT_KW, Class::Support),
    (CONVOY_KW, Class::Convoy),
    (&[pack("via"), pack("by")], Class::Via),
    (DISBAND_KW, Class::Other),
    (BUILD_KW, Class::Other),
    (REMOVE_KW, Class::Other),
    (WAIVE_KW, Class::Other),
];

/// A key's slot under the multiplier `m`.
const fn slot_by(key: u64, m: u64) -> usize {
    (key.wrapping_mul(m) >> 56) as usize & (SLOTS - 1)
}

/// A multiplier under which no two keywords share a slot (a perfect hash), found when the
/// crate is compiled: the first of a fixed sequence that works.
// Indexing in a constant cannot panic at run time: out of bounds, it would not compile.
#[allow(clippy::indexing_slicing)]
const MULTIPLIER: u64 = {
    // No keyword twice (under any multiplier it would clash with itself): checked first, so
    // the search below ends.
    let mut a = 0;
    while a < LISTS.len() {
        let mut b = 0;
        while b < LISTS.len() {
            let (x, y) = (LISTS[a].0, LISTS[b].0);
            let mut i = 0;
            while i < x.len() {
                let mut j = 0;
                while j < y.len() {
                    assert!(x[i] != y[j] || (a == b && i == j), "a keyword listed twice");
                    j += 1;
                }
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    let mut m = 0x9e37_79b9_7f4a_7c15u64;
    loop {
        let mut used = [false; SLOTS];
        let mut clash = false;
        let mut l = 0;
        while l < LISTS.len() && !clash {
            let keys = LISTS[l].0;
            let mut k = 0;
            while k < keys.len() {
                let i = slot_by(keys[k], m);
                clash |= used[i];
                used[i] = true;
                k += 1;
            }
            l += 1;
        }
        if !clash {
            break m;
        }
        m = m.wrapping_add(0x2545_f491_4f6c_dd1d) | 1;
    }
};

/// Every keyword of the parser's lists with its class, each in its own slot ([`MULTIPLIER`]);
/// an empty slot has key 0, which no keyword has. Built from the lists themselves, so the two
/// cannot drift; a keyword listed twice stops the build.
// Indexing in a constant cannot panic at run time: out of bounds, it would not compile.
#[allow(clippy::indexing_slicing)]
static KEYWORDS: [(u64, Class); SLOTS] = {
    let mut t = [(0u64, Class::Word); SLOTS];
    let mut l = 0;
    while l < LISTS.len() {
        let (keys, class) = LISTS[l];
        let mut k = 0;
        while k < keys.len() {
            let i = slot_by(keys[k], MULTIPLIER);
            assert!(t[i].0 == 0, "two keywords in one slot");
            t[i] = (keys[k], class);
            k += 1;
        }
        l += 1;
    }
    t
};

/// The class of a word by its key (0 for a word that cannot be a keyword): one slot read.
fn class(key: u64) -> Class {
    match KEYWORDS.get(slot_by(key, MULTIPLIER)) {
        // Key 0 finds an empty slot's 0 (Word) or a keyword's key (not 0): Word either way.
        Some(&(k, c)) if k == key => c,
        _ => Class::Word,
    }
}

/// A word of the text: where it is (in the text and in the folded buffer), its key as a
/// keyword (its bytes when one to eight long, else 0) and its class.
#[derive(Clone, Copy, Debug)]
struct Word {
    start: usize,
    end: usize,
    key: u64,
    class: Class,
}

/// The end of the text, as a word of no class a reader accepts.
const END: Word = Word {
    start: 0,
    end: 0,
    key: 0,
    class: Class::End,
};

/// The text, folded into a buffer as its words are read, one word at a time.
struct Reader<'t, 'm> {
    text: &'t [u8],
    map: &'m Map,
    /// The text folded: each letter lower-cased, a hyphen inside a word made a space (as the
    /// name index folds names); eight bytes to spare, so that a short word's key is one load.
    buf: [u8; MAX + 8],
    /// Where the word after `cur` starts.
    pos: usize,
    /// The word at the cursor ([`END`] past the last).
    cur: Word,
}

impl<'t, 'm> Reader<'t, 'm> {
    /// A reader of `text`, before its first word ([`Self::first_letter`] reads it).
    fn new(map: &'m Map, text: &'t str) -> Self {
        Reader {
            text: text.as_bytes(),
            map,
            buf: [0; MAX + 8],
            pos: 0,
            cur: END,
        }
    }

    /// Reads the next word into `cur`: `None` for text not read here (a byte other than an
    /// ASCII letter or digit, a single space between words, a hyphen standing alone or between
    /// two letters or digits, or a coast `(nc)`).
    fn bump(&mut self) -> Option<()> {
        let b = self.text;
        let start = self.pos;
        if start == b.len() {
            // The end: not after a space (a space must be followed by a word).
            if start > 0 && b.get(start - 1) == Some(&b' ') {
                return None;
            }
            self.cur = END;
            return Some(());
        }
        let mut i = start;
        let mut inner = false;
        // The buffer as long as the text, so that a position in one is known to be in the other.
        let buf = self.buf.get_mut(..b.len())?;
        loop {
            while let Some(&c) = b.get(i) {
                let f = ALNUM_LOWER[usize::from(c)];
                if f == 0 {
                    break;
                }
                buf[i] = f;
                i += 1;
            }
            // A hyphen between letters or digits (`Mid-Atlantic`) folds to a space.
            let letter = |k: usize| b.get(k).is_some_and(|&c| ALNUM_LOWER[usize::from(c)] != 0);
            if i > start && b.get(i) == Some(&b'-') && letter(i + 1) {
                buf[i] = b' ';
                inner = true;
                i += 1;
            } else {
                break;
            }
        }
        let class = if i > start {
            // A word; a coast may follow it without a space (`Spain(nc)`).
            if b.get(i) == Some(&b'(') {
                self.pos = i;
            } else {
                self.pos = self.after(i)?;
            }
            Class::Word
        } else {
            match b.get(i) {
                Some(b'-') => {
                    self.buf[i] = b'-';
                    i += 1;
                    // `->`, the arrow, is a word as `-` is.
                    if b.get(i) == Some(&b'>') {
                        self.buf[i] = b'>';
                        i += 1;
                    }
                    self.pos = self.after(i)?;
                    Class::Word
                }
                Some(b'(') => {
                    // `(nc)`: the two letters folded, then a space or the end.
                    let code = b.get(i + 1..i + 4)?;
                    let (x, c) = (code[0] | 0x20, code[1] | 0x20);
                    if !matches!(x, b'n' | b's' | b'e' | b'w') || c != b'c' || code[2] != b')' {
                        return None;
                    }
                    self.buf[i + 1] = x;
                    self.buf[i + 2] = c;
                    self.pos = self.after(i + 4)?;
                    self.cur = Word {
                        start: i + 1,
                        end: i + 3,
                        key: 0,
                        class: Class::Coast,
                    };
                    return Some(());
                }
                _ => return None,
            }
        };
        let n = i - start;
        // A word with a hyphen inside is no keyword (no keyword has one, nor a space).
        let key = if n <= 8 && !inner {
            let window = u64::from_le_bytes(self.buf[start..start + 8].try_into().ok()?);
            window & (u64::MAX >> (64 - 8 * n))
        } else {
            0
        };
        self.cur = Word {
            start,
            end: i,
            key,
            class: match class {
                Class::Word if inner => Class::Joined,
                Class::Word => self::class(key),
                other => other,
            },
        };
        Some(())
    }

    /// Where the next word starts, after a word ending at `i`: past one space (kept in the
    /// buffer, between the words of a name), or the end.
    fn after(&mut self, i: usize) -> Option<usize> {
        match self.text.get(i) {
            None => Some(i),
            Some(b' ') => {
                self.buf[i] = b' ';
                Some(i + 1)
            }
            Some(_) => None,
        }
    }

    fn class(&self) -> Class {
        self.cur.class
    }

    /// `A`, `F`, `army` or `fleet`.
    fn unit_letter(&mut self) -> Option<UnitKind> {
        let k = self.letter()?;
        self.bump()?;
        Some(k)
    }

    /// The unit kind the word at the cursor is a letter (or word) for, if it is one.
    fn letter(&self) -> Option<UnitKind> {
        match self.cur.key {
            k if k == pack("a") || k == pack("army") => Some(UnitKind::Army),
            k if k == pack("f") || k == pack("fleet") => Some(UnitKind::Fleet),
            _ => None,
        }
    }

    /// The words up to the next keyword (or the end), as one name: its province, when no
    /// longer name continues it.
    fn province(&mut self) -> Option<ProvinceId> {
        let start = self.cur.start;
        let mut end = start;
        let mut n = 0;
        while matches!(self.class(), Class::Word | Class::Joined) {
            end = self.cur.end;
            n += 1;
            self.bump()?;
        }
        if n == 0 || n > NAME_WORDS {
            return None;
        }
        // The parser splits a first word with a hyphen (`Par-Bur`) unless it names a province
        // or begins a name on its own; a name found here begins with it, so it does.
        let e = self.map.lookup_folded(&self.buf[start..end]);
        // A longer name begins with these words: the parser reads on into the next word if it
        // is a word (not `-`, a coast or the end), and takes the longer text if it is a name
        // or begins one. Where it is neither, the parser reads this name too.
        if e.continues() && self.class() != Class::End && self.class() != Class::Coast {
            let dash = self.cur.key == pack("-") || self.cur.key == pack("->");
            if !dash && self.map.lookup_folded(&self.buf[start..self.cur.end]) != NameEntry::ABSENT
            {
                return None;
            }
        }
        e.province()
    }

    /// A place: its province, and a coast `(nc)` after it.
    fn loc(&mut self) -> Option<LocSpec> {
        let province = self.province()?;
        let coast = if self.class() == Class::Coast {
            let code = &self.buf[self.cur.start..self.cur.end];
            let c = Coast::parse(std::str::from_utf8(code).ok()?);
            self.bump()?;
            c
        } else {
            None
        };
        Some(LocSpec { province, coast })
    }

    /// A move keyword and any `to` after it, if there.
    fn eat_move(&mut self) -> Option<bool> {
        if self.class() != Class::Move {
            return Some(false);
        }
        self.bump()?;
        while self.cur.key == pack("to") {
            self.bump()?;
        }
        Some(true)
    }

    /// `via convoy` (or `by c`…), if there.
    fn via_convoy(&mut self) -> Option<bool> {
        if self.class() != Class::Via {
            return Some(false);
        }
        let (pos, cur) = (self.pos, self.cur);
        self.bump()?;
        if [pack("convoy"), pack("c"), pack("convoys")].contains(&self.cur.key) {
            self.bump()?;
            return Some(true);
        }
        (self.pos, self.cur) = (pos, cur);
        Some(false)
    }

    /// A supported or convoyed unit: a unit letter or none (its first word no power's name, so
    /// that it is not a nationality) and its place.
    fn unit_ref(&mut self) -> Option<UnitRef> {
        let letter = &self.buf[self.cur.start..self.cur.end];
        // Folded bytes are ASCII.
        let letter = std::str::from_utf8(letter).ok()?;
        if self.map.find_power_normalized(letter).is_some()
            || letter == crate::model::map::NEUTRAL_NAME
        {
            return None;
        }
        // The letter may be left out (`S Livonia - Prussia`).
        let kind = self.letter();
        if kind.is_some() {
            self.bump()?;
        }
        Some(UnitRef {
            power: None,
            unit: UnitSpec {
                kind,
                loc: self.loc()?,
            },
        })
    }

    /// The unit letter that starts the text, and the word after it read: `A ` or `F ` (either
    /// case) taken by their two bytes, as nearly every order and unit begins; any other start
    /// word by word.
    fn first_letter(&mut self) -> Option<UnitKind> {
        let kind = match self.text {
            [b'A' | b'a', b' ', ..] => UnitKind::Army,
            [b'F' | b'f', b' ', ..] => UnitKind::Fleet,
            _ => {
                self.bump()?;
                return self.unit_letter();
            }
        };
        self.pos = 2;
        self.bump()?;
        Some(kind)
    }

    fn order(&mut self) -> Option<Order> {
        let kind = self.first_letter()?;
        let unit = UnitSpec {
            kind: Some(kind),
            loc: self.loc()?,
        };
        let order = match self.class() {
            Class::Hold => {
                self.bump()?;
                OrderKind::Hold
            }
            Class::Move => {
                self.eat_move()?;
                let dest = self.loc()?;
                let via_convoy = self.via_convoy()?;
                OrderKind::Move {
                    dest,
                    via_convoy,
                    path: Vec::new(),
                }
            }
            Class::Support => {
                self.bump()?;
                let target = self.unit_ref()?;
                let dest = if self.eat_move()? {
                    let d = self.loc()?;
                    self.via_convoy()?;
                    Some(d)
                } else {
                    if self.class() == Class::Hold {
                        self.bump()?;
                    }
                    None
                };
                OrderKind::Support { target, dest }
            }
            Class::Convoy => {
                self.bump()?;
                let army = self.unit_ref()?;
                if !self.eat_move()? {
                    return None;
                }
                OrderKind::Convoy {
                    army,
                    dest: self.loc()?,
                }
            }
            Class::Word | Class::Via | Class::Other | Class::Joined | Class::Coast | Class::End => {
                return None;
            }
        };
        // Anything after it (a second stop, a stray word) is the parser's to read.
        (self.class() == Class::End).then_some(Order {
            power: None,
            unit: Some(unit),
            kind: order,
        })
    }
}

/// The order, if `text` is written the plain way; `None` leaves it to the parser.
pub(super) fn order(map: &Map, text: &str) -> Option<Order> {
    if text.len() > MAX {
        return None;
    }
    Reader::new(map, text).order()
}

/// A unit written the plain way (`A Paris`, `F Mid-Atlantic Ocean`, `F Spain(nc)`), as
/// [`super::parse_unit`] reads it; `None` leaves it to the parser.
pub(super) fn unit(map: &Map, text: &str) -> Option<UnitSpec> {
    if text.len() > MAX {
        return None;
    }
    let mut r = Reader::new(map, text);
    let kind = r.first_letter()?;
    let loc = r.loc()?;
    (r.class() == Class::End).then_some(UnitSpec {
        kind: Some(kind),
        loc,
    })
}
