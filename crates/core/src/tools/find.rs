//! Finding a province by what a person types: its name or abbreviation exactly, the initials
//! of its name, the start of its name or of one of its other names (the abbreviations other
//! programs use are among a map's aliases), a word inside its name, or, failing all of these,
//! the closest name by spelling.
//!
//! The provinces of the best kind of match are the answer: one of them is the province meant;
//! several are for the user to choose from.

use crate::model::map::{Map, ProvinceId, normalize_name};

/// How a typed text matched, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum How {
    /// The text is the province's abbreviation, name or one of its aliases (any case).
    Exact,
    /// The text is the initials of the name's words (`ec`: English Channel; `gob`: Gulf of
    /// Bothnia).
    Initials,
    /// The name, the abbreviation or an alias starts with the text (`Picard`: Picardy;
    /// `english`: English Channel).
    Prefix,
    /// A later word of the name starts with the text (`channel`: English Channel).
    Word,
    /// No name holds the text; this is the closest by spelling (a typo, perhaps).
    Fuzzy,
}

impl How {
    /// In words, for a message: `starts with`, `a word of`, ….
    pub fn words(self) -> &'static str {
        match self {
            How::Exact => "named",
            How::Initials => "with the initials",
            How::Prefix => "starting with",
            How::Word => "with a word starting with",
            How::Fuzzy => "spelt like",
        }
    }
}

/// The provinces a text finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// How they match (all the same way: the best way any province matched).
    pub how: How,
    /// The provinces, in the map's order (at least one).
    pub provinces: Vec<ProvinceId>,
}

impl Found {
    /// The one province found, if the text names exactly one: the province to go to. A spelling
    /// match never counts: it is a guess to offer, not a place to jump to.
    pub fn unique(&self) -> Option<ProvinceId> {
        match self.provinces.as_slice() {
            [p] if self.how != How::Fuzzy => Some(*p),
            _ => None,
        }
    }
}

/// The shortest text [`How::Prefix`] looks for among aliases and abbreviations (a name's own
/// start counts from one character): one or two letters are the start of too many of them.
const ALIAS_PREFIX_MIN: usize = 3;

/// The provinces of `map` that `text` finds, by the best way any matches ([`How`]); `None` when
/// the text is empty or nothing is near it.
pub fn provinces(map: &Map, text: &str) -> Option<Found> {
    let q = normalize_name(text);
    if q.is_empty() {
        return None;
    }
    if let Some(p) = map.find_province(text) {
        return Some(Found {
            how: How::Exact,
            provinces: vec![p],
        });
    }
    let squeezed: String = q.chars().filter(|c| *c != ' ').collect();
    let mut best: Option<Found> = None;
    for id in map.province_ids() {
        let Some(how) = how_it_matches(map, id, &q, &squeezed) else {
            continue;
        };
        match &mut best {
            Some(b) if b.how == how => b.provinces.push(id),
            Some(b) if b.how < how => {}
            _ => {
                best = Some(Found {
                    how,
                    provinces: vec![id],
                })
            }
        }
    }
    if best.is_some() {
        return best;
    }
    let near = crate::model::orders::suggest_province(map, text)?;
    Some(Found {
        how: How::Fuzzy,
        provinces: vec![near],
    })
}

/// How the normalized text `q` (and `squeezed`, the same without spaces) matches province `id`
/// by initials, prefix or word; `None` when it does not.
fn how_it_matches(map: &Map, id: ProvinceId, q: &str, squeezed: &str) -> Option<How> {
    let p = map.province(id);
    let name = normalize_name(&p.name);
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    if squeezed.len() >= 2 && words.len() >= 2 {
        let initials: String = words.iter().filter_map(|w| w.chars().next()).collect();
        // Gulf of Bothnia: `gob`, and `gb` without the small word.
        let big: String = words
            .iter()
            .filter(|w| w.len() > 3)
            .filter_map(|w| w.chars().next())
            .collect();
        if squeezed == initials || squeezed == big {
            return Some(How::Initials);
        }
    }
    let name_squeezed: String = name.chars().filter(|c| *c != ' ').collect();
    let other_names = || {
        std::iter::once(p.abbr.as_str())
            .chain(p.aliases.iter().map(String::as_str))
            .map(normalize_name)
    };
    if name.starts_with(q)
        || name_squeezed.starts_with(squeezed)
        || (q.len() >= ALIAS_PREFIX_MIN && other_names().any(|a| a.starts_with(q)))
    {
        return Some(How::Prefix);
    }
    if words.iter().skip(1).any(|w| w.starts_with(q)) {
        return Some(How::Word);
    }
    None
}

/// The most provinces a list of matches names (the rest are counted).
const LISTED: usize = 6;

/// What a search found, in words: `Picardy (pic)`, `3 provinces starting with "nor": Normandy
/// (nrm), North Sea (nth), Northumbria (nbr)`, `no province "xq"; did you mean …?`.
pub fn describe(map: &Map, text: &str, found: &Found) -> String {
    let name = |p| {
        let p = map.province(p);
        format!("{} ({})", p.name, p.abbr)
    };
    if let Some(p) = found.unique() {
        return name(p);
    }
    if found.how == How::Fuzzy {
        let guess = found
            .provinces
            .first()
            .map(|&p| name(p))
            .unwrap_or_default();
        return format!("no province {:?}; did you mean {guess}?", text.trim());
    }
    let n = found.provinces.len();
    let mut names: Vec<String> = found
        .provinces
        .iter()
        .take(LISTED)
        .map(|&p| name(p))
        .collect();
    if n > LISTED {
        names.push(format!("{} more", n - LISTED));
    }
    format!(
        "{n} provinces {} {:?}: {}",
        found.how.words(),
        text.trim(),
        names.join(", ")
    )
}
