//! The order editor's data: a menu of the unit's legal orders, typed text parsed live, names
//! completed on Tab. The menus of choices are in [`super::menu`] (re-exported here). Nothing here
//! draws or edits the scenario: the app turns the chosen order into an [`dipsandbox_core::tools::edit::Edit`].

use dipsandbox_core::model::board::{PhaseKind, Unit};
use dipsandbox_core::model::error::OrderError;
use dipsandbox_core::model::map::{Map, PowerId, ProvinceId, normalize_name};
use dipsandbox_core::model::orders::{NameStyle, Order, format_order, parse_order};
use dipsandbox_core::model::scenario::Scenario;

pub use super::menu::{Choice, Field, Menu, MenuItem, NewKind, matches, place_menu, words};

/// One order the order editor offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// Whose order it is.
    pub power: PowerId,
    /// The order.
    pub order: Order,
    /// How it is written into the scenario: `A Par - Bur`.
    pub text: String,
    /// How it reads in full: `A Paris - Burgundy`.
    pub full: String,
}

/// How the typed text parses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// Nothing typed yet.
    Empty,
    /// A valid order, read in full names, and whose it is (None: the text names no power and
    /// the editor has none to give it).
    Valid(String, Option<PowerId>),
    /// Not an order: the error, with its column.
    Invalid(OrderError),
}

/// Tab completion in progress: the word being completed and its candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// Byte offset in the text where the completed word starts.
    pub start: usize,
    /// The candidates, in order.
    pub candidates: Vec<String>,
    /// The candidate now in the text.
    pub index: usize,
}

/// The order editor: the unit's menu of orders, the typed text and how it parses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderEditor {
    /// The power the order is for when the text names none (the unit's owner).
    pub power: Option<PowerId>,
    /// The order being replaced (index into the scenario's orders), if any.
    pub replace: Option<usize>,
    /// A heading: `A Par (France)`.
    pub heading: String,
    /// The orders the menu offers.
    pub offers: Vec<Offer>,
    /// The typed text.
    pub text: String,
    /// The highlighted row (see [`OrderEditor::rows`]).
    pub row: usize,
    /// How the text parses.
    pub parsed: Parsed,
    /// The typed order, when it parses, without its power (to find it among the offers however
    /// it is spelled).
    typed_order: Option<Order>,
    /// Tab completion in progress.
    pub completion: Option<Completion>,
    /// The text is the order being replaced, untouched: the first character typed replaces it
    /// (backspace or Tab keeps it for editing).
    pub prefilled: bool,
}

/// A row of the order editor: the text as typed, or an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row<'a> {
    /// The typed text (shown when it parses).
    Typed,
    /// An offer.
    Offer(&'a Offer),
}

impl OrderEditor {
    /// An order editor with the given offers; `text` is typed already (the order being
    /// replaced, say).
    pub fn new(
        map: &Map,
        heading: String,
        power: Option<PowerId>,
        replace: Option<usize>,
        offers: Vec<(PowerId, Order)>,
        text: String,
    ) -> OrderEditor {
        // Offers of several powers (adjustments) name the power in the full reading.
        let several = offers.windows(2).any(|w| matches!(w, [a, b] if a.0 != b.0));
        let offers = offers
            .into_iter()
            .map(|(p, o)| {
                let full = format_order(map, &o, NameStyle::Full);
                Offer {
                    power: p,
                    text: format_order(map, &o, NameStyle::Abbr),
                    full: if several {
                        format!("{}: {full}", map.power(p).name)
                    } else {
                        full
                    },
                    order: o,
                }
            })
            .collect();
        let mut e = OrderEditor {
            power,
            replace,
            heading,
            offers,
            text,
            row: 0,
            parsed: Parsed::Empty,
            typed_order: None,
            completion: None,
            prefilled: false,
        };
        e.prefilled = !e.text.is_empty();
        e.reparse(map);
        e
    }

    /// The rows: the typed text first when it parses, then the offers that match it.
    pub fn rows(&self) -> Vec<Row<'_>> {
        let norm = |t: &str| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let typed = norm(&self.text);
        let same = self
            .offers
            .iter()
            .find(|o| self.typed_order.as_ref() == Some(&o.order) || norm(&o.text) == typed);
        let mut out = Vec::new();
        match same {
            // The typed text is one of the offers: that offer first, no separate row.
            Some(o) => out.push(Row::Offer(o)),
            None if matches!(self.parsed, Parsed::Valid(..)) => out.push(Row::Typed),
            None => {}
        }
        let words = words(&self.text);
        let mut found: Vec<&Offer> = self
            .offers
            .iter()
            .filter(|o| same.is_none_or(|x| !std::ptr::eq(*o, x)))
            .filter(|o| matches(&words, &format!("{} {}", o.text, o.full)))
            .collect();
        // Offers that hold the typed text as written come first (`S F Bel - Eng` before
        // `S F Eng - Bel`).
        found.sort_by_key(|o| !norm(&o.text).contains(&typed) && !norm(&o.full).contains(&typed));
        out.extend(found.into_iter().map(Row::Offer));
        out
    }

    /// Moves the highlight.
    pub fn move_by(&mut self, d: isize) {
        let n = self.rows().len() as isize;
        self.row = if n == 0 {
            0
        } else {
            (self.row as isize + d).clamp(0, n - 1) as usize
        };
    }

    /// Types a character.
    pub fn type_char(&mut self, map: &Map, c: char) {
        if std::mem::take(&mut self.prefilled) {
            self.text.clear();
        }
        self.text.push(c);
        self.completion = None;
        self.reparse(map);
    }

    /// Deletes the last character.
    pub fn backspace(&mut self, map: &Map) {
        self.prefilled = false;
        self.text.pop();
        self.completion = None;
        self.reparse(map);
    }

    /// Clears the typed text.
    pub fn clear(&mut self, map: &Map) {
        self.text.clear();
        self.completion = None;
        self.reparse(map);
    }

    fn reparse(&mut self, map: &Map) {
        self.typed_order = None;
        self.parsed = if self.text.trim().is_empty() {
            Parsed::Empty
        } else {
            match parse_order(map, &self.text) {
                Ok(o) => {
                    let typed = Order {
                        power: None,
                        ..o.clone()
                    };
                    // Whose it is: the power it names, else the power of the offer it is (an
                    // adjustment phase offers every power's builds and removals), else the
                    // editor's.
                    let offered = self
                        .offers
                        .iter()
                        .find(|x| x.order == typed)
                        .map(|x| x.power);
                    let parsed = Parsed::Valid(
                        format_order(map, &o, NameStyle::Full),
                        o.power.or(offered).or(self.power),
                    );
                    self.typed_order = Some(typed);
                    parsed
                }
                Err(e) => Parsed::Invalid(e),
            }
        };
        self.row = 0;
    }

    /// The order to write on Enter: `(power, text)`, or why there is none.
    pub fn chosen(&self) -> Result<(PowerId, String), String> {
        match self.rows().get(self.row) {
            // The typed order, however it is spelled, keeps the user's spelling.
            Some(Row::Offer(o)) if self.typed_order.as_ref() == Some(&o.order) => {
                Ok((o.power, self.text.trim().to_string()))
            }
            Some(Row::Offer(o)) => Ok((o.power, o.text.clone())),
            Some(Row::Typed) => match &self.parsed {
                Parsed::Valid(_, Some(p)) => Ok((*p, self.text.trim().to_string())),
                _ => Err(
                    "whose order is it? start with the power, e.g. \"England: A Lon - Nth\"".into(),
                ),
            },
            None => match &self.parsed {
                Parsed::Invalid(e) => Err(format!("column {}: {}", e.col, e.message)),
                _ => Err("type an order, or pick one from the menu".into()),
            },
        }
    }

    /// Completes the word before the end of the text: a unit after `S`/`C` (`A Par`), a power
    /// at the start (`England:`), else a province (`Bur`). Repeated Tabs cycle through the
    /// candidates. Returns false when nothing matches.
    pub fn complete(&mut self, s: &Scenario) -> bool {
        self.prefilled = false;
        let map = &*s.map;
        if let Some(c) = &mut self.completion
            && c.candidates.len() > 1
        {
            c.index = (c.index + 1) % c.candidates.len();
            let (start, word) = (
                c.start,
                c.candidates.get(c.index).cloned().unwrap_or_default(),
            );
            self.text.truncate(start);
            self.text.push_str(&word);
            self.reparse(map);
            // reparse cleared nothing of the completion; keep cycling from here.
            return true;
        }
        // First from the menu: the offers that begin with the text, up to the end of their
        // next word (`A Ank - ` + tab gives `A Ank - Arm`, then `Con`, `Smy`).
        let n = self.text.len();
        let mut from_offers: Vec<String> = Vec::new();
        for o in &self.offers {
            if o.text.len() > n
                && o.text.is_char_boundary(n)
                && o.text[..n].eq_ignore_ascii_case(&self.text)
            {
                let rest = &o.text[n..];
                let lead = rest.len() - rest.trim_start().len();
                let end = rest[lead..]
                    .find(char::is_whitespace)
                    .map_or(rest.len(), |i| lead + i);
                let word = rest[..end].to_string();
                if !from_offers.contains(&word) {
                    from_offers.push(word);
                }
            }
        }
        if !from_offers.is_empty() {
            let start = self.text.len();
            let first = from_offers.first().cloned().unwrap_or_default();
            self.text.push_str(&first);
            self.reparse(map);
            self.completion = Some(Completion {
                start,
                candidates: from_offers,
                index: 0,
            });
            return true;
        }
        let start = self
            .text
            .rfind(|ch: char| ch.is_whitespace() || ch == '-' || ch == ':')
            .map_or(0, |i| i + 1);
        let word = self.text[start..].to_string();
        let before: Vec<&str> = self.text[..start].split_whitespace().collect();
        let prev = before.last().map(|w| w.to_ascii_lowercase());
        let key = normalize_name(&word);
        let mut candidates: Vec<String> = Vec::new();
        let helps = matches!(
            prev.as_deref(),
            Some("s" | "c" | "supports" | "support" | "convoys" | "convoy")
        );
        if helps {
            let mut units: Vec<Unit> = s.units.clone();
            if s.phase.kind == PhaseKind::Retreat {
                units.extend(s.dislodged.iter().map(|d| d.unit));
            }
            for u in &units {
                let p = map.province(map.province_of(u.loc));
                if p.abbr.starts_with(&key) || normalize_name(&p.name).starts_with(&key) {
                    candidates.push(format!("{} {}", u.kind.letter(), map.loc_abbr(u.loc)));
                }
            }
        }
        if before.is_empty() && !key.is_empty() {
            for p in map.power_ids() {
                let pw = map.power(p);
                if normalize_name(&pw.name).starts_with(&key) {
                    candidates.push(format!("{}:", pw.name));
                }
            }
        }
        if !helps && !key.is_empty() {
            for p in map.province_ids() {
                let prov = map.province(p);
                let by_abbr = prov.abbr.starts_with(&key);
                let by_name = normalize_name(&prov.name).starts_with(&key);
                if by_abbr || by_name {
                    let abbr = map.loc_abbr(prov.main);
                    candidates.push(if by_abbr || key.len() <= 3 {
                        abbr
                    } else {
                        prov.name.clone()
                    });
                }
            }
        }
        candidates.dedup();
        let Some(first) = candidates.first().cloned() else {
            return false;
        };
        self.text.truncate(start);
        self.text.push_str(&first);
        self.reparse(map);
        self.completion = Some(Completion {
            start,
            candidates,
            index: 0,
        });
        true
    }
}

/// The offers for the unit or order at a province, by phase: a movement unit's legal orders, a
/// dislodged unit's retreats, every power's adjustments (those at the province first).
pub fn offers_at(s: &Scenario, p: Option<ProvinceId>) -> Vec<(PowerId, Order)> {
    let map = &*s.map;
    match s.phase.kind {
        PhaseKind::Movement => {
            let Some(i) = p.and_then(|p| s.units.iter().position(|u| map.province_of(u.loc) == p))
            else {
                return Vec::new();
            };
            let Some(power) = s.units.get(i).map(|u| u.power) else {
                return Vec::new();
            };
            dipsandbox_core::tools::menu::movement_orders(map, &s.units, i)
                .into_iter()
                .map(|o| (power, o))
                .collect()
        }
        PhaseKind::Retreat => {
            let Some(i) = p.and_then(|p| {
                s.dislodged
                    .iter()
                    .position(|d| map.province_of(d.unit.loc) == p)
            }) else {
                return Vec::new();
            };
            let Some(power) = s.dislodged.get(i).map(|d| d.unit.power) else {
                return Vec::new();
            };
            dipsandbox_core::tools::menu::retreat_orders(s, i)
                .into_iter()
                .map(|o| (power, o))
                .collect()
        }
        PhaseKind::Adjustment => {
            let mut all = dipsandbox_core::tools::menu::adjustment_orders(s);
            if let Some(p) = p {
                all.sort_by_key(|(_, o)| o.unit.is_none_or(|u| u.loc.province != p));
            }
            all
        }
    }
}

/// The unit an order editor at a province is for: the unit there (the dislodged one in a retreat
/// phase).
pub fn unit_at(s: &Scenario, p: ProvinceId) -> Option<Unit> {
    let map = &*s.map;
    if s.phase.kind == PhaseKind::Retreat {
        return s
            .dislodged
            .iter()
            .find(|d| map.province_of(d.unit.loc) == p)
            .map(|d| d.unit);
    }
    s.units
        .iter()
        .find(|u| map.province_of(u.loc) == p)
        .copied()
}
