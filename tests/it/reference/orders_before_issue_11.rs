//! Order notation: parsing and printing orders as people and the DATC write them.
//!
//! Parsing keeps what was written — an omitted or wrong coast, a missing or wrong unit letter, a
//! nationality — so that the adjudicator can apply the DATC 4.B / 4.C rule choices later.
//! Parsing is not legality checking: `F North Sea - Picardy` parses fine.

use std::fmt::Write as _;

use super::error::OrderError;
use super::map::{Coast, Map, PowerId, ProvinceId, UnitKind};

/// A place as written in an order: a province and, optionally, a coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocSpec {
    /// The province.
    pub province: ProvinceId,
    /// The coast, if one was written (it may be wrong or irrelevant).
    pub coast: Option<Coast>,
}

/// A unit as written: optional unit letter, a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitSpec {
    /// `A` or `F`, if written.
    pub kind: Option<UnitKind>,
    /// Where the unit is said to be.
    pub loc: LocSpec,
}

/// A unit referred to by a support or convoy, possibly with a nationality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitRef {
    /// The nationality, if written (`Turkish F Constantinople`).
    pub power: Option<PowerId>,
    /// The unit.
    pub unit: UnitSpec,
}

/// What the order tells the unit to do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    /// Hold (also the default for unordered units).
    Hold,
    /// Move (or retreat, in a retreat phase) to `dest`.
    Move {
        /// Destination.
        dest: LocSpec,
        /// `via convoy` was written.
        via_convoy: bool,
        /// Intermediate provinces of a path specification (`A Yor - Nth - Bel`), DATC 4.A.6.
        path: Vec<ProvinceId>,
    },
    /// Support a unit holding (`dest` None) or moving to `dest`.
    Support {
        /// The supported unit.
        target: UnitRef,
        /// Destination of the supported move, or None for a hold support.
        dest: Option<LocSpec>,
    },
    /// Convoy an army to `dest`.
    Convoy {
        /// The convoyed army.
        army: UnitRef,
        /// Its destination.
        dest: LocSpec,
    },
    /// Disband (retreat phase).
    Disband,
    /// Build the unit (adjustment phase).
    Build,
    /// Remove the unit (adjustment phase).
    Remove,
    /// Waive a build (adjustment phase).
    Waive,
}

/// One order, as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// The `England:` prefix, if written.
    pub power: Option<PowerId>,
    /// The ordered (or built, removed) unit; None only for `Waive`.
    pub unit: Option<UnitSpec>,
    /// What to do.
    pub kind: OrderKind,
}

/// How names are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NameStyle {
    /// Abbreviations: `A par - bur`.
    Abbr,
    /// Full names: `A Paris - Burgundy` (the DATC style).
    #[default]
    Full,
}

#[derive(Clone, Debug)]
struct Tok {
    text: String,
    /// Column (1-based, in characters) in the order text.
    col: usize,
}

fn tokenize(s: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' || c == ';' {
            i += 1;
            continue;
        }
        // `->` and `=>` are both the move arrow.
        if (c == '-' || c == '=') && chars.get(i + 1) == Some(&'>') {
            toks.push(Tok {
                text: "->".into(),
                col: i + 1,
            });
            i += 2;
            continue;
        }
        if matches!(c, '-' | '(' | ')' | '/' | ':' | '>') {
            toks.push(Tok {
                text: c.to_string(),
                col: i + 1,
            });
            i += 1;
            continue;
        }
        let start = i;
        let mut word = String::new();
        while i < chars.len() {
            let d = chars[i];
            if d.is_alphanumeric() || d == '.' || d == '\'' || d == '_' {
                word.push(d);
                i += 1;
            } else if d == '-'
                && !word.is_empty()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
            {
                // A hyphen inside a word (`Mid-Atlantic`, `spa-nc`, `Par-Bur`); split later if it is
                // not part of a name.
                word.push(d);
                i += 1;
            } else {
                break;
            }
        }
        if word.is_empty() {
            toks.push(Tok {
                text: c.to_string(),
                col: i + 1,
            });
            i += 1;
        } else {
            toks.push(Tok {
                text: word,
                col: start + 1,
            });
        }
    }
    toks
}

fn is_kw(t: &Tok, kws: &[&str]) -> bool {
    // A trailing full stop ("A Paris Holds.") does not change the word.
    let text = t
        .text
        .strip_suffix('.')
        .filter(|w| !w.is_empty())
        .unwrap_or(&t.text);
    kws.iter().any(|k| text.eq_ignore_ascii_case(k))
}

const MOVE_KW: &[&str] = &[
    "-", "->", "to", "moves", "move", "m", "r", "retreat", "retreats", ">",
];
const SUPPORT_KW: &[&str] = &["s", "supports", "support", "sup", "supp"];
const CONVOY_KW: &[&str] = &["c", "convoys", "convoy", "cvy"];
const HOLD_KW: &[&str] = &["h", "hold", "holds", "stand", "stands"];
const DISBAND_KW: &[&str] = &["d", "disband", "disbands"];
const BUILD_KW: &[&str] = &["build", "builds", "b"];
const REMOVE_KW: &[&str] = &["remove", "removes", "rem"];
const WAIVE_KW: &[&str] = &["waive", "waives", "w"];

struct Parser<'m> {
    map: &'m Map,
    toks: Vec<Tok>,
    pos: usize,
    end_col: usize,
}

impl<'m> Parser<'m> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k)
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
            Some(t) => format!("found {:?}", t.text),
            None => "found the end of the order".to_string(),
        }
    }

    fn eat(&mut self, kws: &[&str]) -> bool {
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
        while self.eat(&["to"]) {}
        true
    }

    fn unit_kind(&mut self) -> Option<UnitKind> {
        let t = self.peek()?;
        let k = match t.text.to_ascii_lowercase().as_str() {
            "a" | "army" => UnitKind::Army,
            "f" | "fleet" => UnitKind::Fleet,
            _ => return None,
        };
        // `A` followed by nothing that could be a place is not a unit letter.
        self.peek_at(1)?;
        self.pos += 1;
        Some(k)
    }

    /// Splits a hyphenated word at the cursor when it is not (the start of) a name.
    fn split_hyphen_word(&mut self) {
        let Some(t) = self.peek() else { return };
        if !t.text.contains('-') || t.text.len() < 3 {
            return;
        }
        if self.map.find_province(&t.text).is_some() || self.is_name_prefix(&t.text) {
            return;
        }
        let t = self.toks.remove(self.pos);
        let parts: Vec<&str> = t.text.split('-').collect();
        let mut col = t.col;
        let mut new = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                // `spa-nc` is a coast; `Par-Bur` is a move.
                let sep = if Coast::parse(p).is_some() && p.len() == 2 {
                    "/"
                } else {
                    "-"
                };
                new.push(Tok {
                    text: sep.into(),
                    col,
                });
                col += 1;
            }
            new.push(Tok {
                text: p.to_string(),
                col,
            });
            col += p.chars().count();
        }
        for (k, tok) in new.into_iter().enumerate() {
            self.toks.insert(self.pos + k, tok);
        }
    }

    fn is_name_prefix(&self, word: &str) -> bool {
        let key = super::map::normalize_name(word);
        let with_space = format!("{key} ");
        self.map
            .all_names()
            .any(|(n, _)| n.starts_with(&with_space))
    }

    /// The next `n` tokens joined by spaces, if they are all words.
    fn joined_words(&self, n: usize) -> Option<String> {
        let words = &self.toks[self.pos..self.pos + n];
        if words
            .iter()
            .any(|w| !w.text.chars().next().is_some_and(|c| c.is_alphanumeric()))
        {
            return None;
        }
        Some(
            words
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        )
    }

    fn province(&mut self) -> Result<ProvinceId, OrderError> {
        self.split_hyphen_word();
        let Some(first) = self.peek() else {
            return self.err(
                self.end_col,
                "expected a province name, found the end of the order",
            );
        };
        let col = first.col;
        if !first
            .text
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric())
        {
            return self.err(
                col,
                format!("expected a province name, found {:?}", first.text),
            );
        }
        // Longest run of words that is a name.
        let max = 5.min(self.toks.len() - self.pos);
        for n in (1..=max).rev() {
            let Some(joined) = self.joined_words(n) else {
                continue;
            };
            if let Some(p) = self.map.find_province(&joined) {
                self.pos += n;
                return Ok(p);
            }
        }
        let mut msg = format!("unknown province {}", super::error::quoted(&first.text));
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
            if !self.eat(&[")"]) {
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
        let lower = t.text.to_ascii_lowercase();
        let bare_ok = matches!(lower.as_str(), "nc" | "sc" | "ec" | "wc");
        let next_is_coast = self
            .peek_at(1)
            .is_some_and(|n| n.text.eq_ignore_ascii_case("coast"));
        if bare_ok {
            self.pos += 1;
            return Coast::parse(&lower);
        }
        if next_is_coast && let Some(c) = Coast::parse(&lower) {
            self.pos += 2;
            return Some(c);
        }
        if lower == "coast"
            && let Some(c) = self.peek_at(1).and_then(|n| Coast::parse(&n.text))
        {
            self.pos += 2;
            return Some(c);
        }
        // Inside parentheses a bare `north` is a coast.
        if self.pos > 0
            && self.toks[self.pos - 1].text == "("
            && let Some(c) = Coast::parse(&lower)
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
        let t = self.peek()?;
        // Only a nationality when followed by a unit letter or a place.
        let p = self.map.find_power(&t.text)?;
        if self.map.find_province(&t.text).is_some() {
            return None;
        }
        // "English Channel": the word starts a province name, it is not a nationality.
        let max = 5.min(self.toks.len() - self.pos);
        if (2..=max).any(|n| {
            self.joined_words(n)
                .is_some_and(|w| self.map.find_province(&w).is_some())
        }) {
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
        if is_kw(t, &["via", "by"])
            && self
                .peek_at(1)
                .is_some_and(|n| is_kw(n, &["convoy", "c", "convoys"]))
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
                format!("unexpected {:?} after the end of the order", t.text),
            ),
        }
    }

    fn order(&mut self) -> Result<Order, OrderError> {
        // Optional `England:` prefix.
        let mut power = None;
        if let (Some(a), Some(b)) = (self.peek(), self.peek_at(1))
            && b.text == ":"
        {
            let col = a.col;
            match self.map.find_power(&a.text) {
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
                            "unknown power {:?}; expected one of {}",
                            a.text,
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
                let mut stops = vec![self.loc()?];
                let mut via_convoy = self.via_convoy();
                while !via_convoy && self.eat_move() {
                    stops.push(self.loc()?);
                    via_convoy = self.via_convoy();
                }
                let dest = stops.pop().expect("at least one stop");
                let path = stops.iter().map(|s| s.province).collect();
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
                return self.err(col, format!("expected Hold, '-', Supports, Convoys, Disband, Build or Remove after the unit, found {:?}", t.text));
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
    let w = super::map::normalize_name(word);
    if w.is_empty() {
        return None;
    }
    // Ranked by distance, then names the word begins, then the name itself: the same answer
    // every time, whatever order the names are stored in.
    let mut best: Option<(usize, bool, &str, ProvinceId)> = None;
    let wn = w.chars().count();
    for (name, pid) in map.all_names() {
        let nn = name.chars().count();
        let limit = (wn.max(nn) / 3).max(1);
        // The distance is at least the difference in length: no need to compute it (and a
        // megabyte-long word costs nothing).
        if wn.abs_diff(nn) > limit {
            continue;
        }
        let d = edit_distance(&w, name);
        let key = (d, !name.starts_with(&w), name, pid);
        if d <= limit && best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, _, pid)| format!("{} ({})", map.province(pid).name, map.province(pid).abbr))
}

/// Edit distance counting an adjacent transposition as one edit (optimal string alignment).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// Parses one order. Errors give the column (in characters, from 1) within `text`.
pub fn parse_order(map: &Map, text: &str) -> Result<Order, OrderError> {
    let toks = tokenize(text);
    let mut p = Parser {
        map,
        toks,
        pos: 0,
        end_col: text.chars().count() + 1,
    };
    p.order()
}

/// Parses a unit as listed in a position: `A Paris`, `F Spain(nc)`, `F stp/sc`.
pub fn parse_unit(map: &Map, text: &str) -> Result<UnitSpec, OrderError> {
    let toks = tokenize(text);
    let mut p = Parser {
        map,
        toks,
        pos: 0,
        end_col: text.chars().count() + 1,
    };
    let unit = p.unit_spec()?;
    if unit.kind.is_none() {
        return p.err(1, "expected a unit letter, A or F, before the province");
    }
    p.expect_end()?;
    Ok(unit)
}

/// Parses a single place: `Spain(nc)`, `stp/sc`, `Paris`.
pub fn parse_loc(map: &Map, text: &str) -> Result<LocSpec, OrderError> {
    let toks = tokenize(text);
    let mut p = Parser {
        map,
        toks,
        pos: 0,
        end_col: text.chars().count() + 1,
    };
    let l = p.loc()?;
    p.expect_end()?;
    Ok(l)
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
