//! A map's names: the index from normalized names to provinces (a text arena in a
//! `hashbrown::HashTable`), and the normalization every name goes through.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): province, location and power
// ids index the map's own tables; ids are made only by the map while it is built, after the count
// limits are checked, and always below the table lengths.
#![allow(clippy::indexing_slicing)]

use crate::model::ids::ProvinceId;

/// What a normalized string is in a map's name index ([`Map::lookup_normalized`](super::Map::lookup_normalized)): the
/// province it names, if any, and whether it is followed by a space and more words in some
/// longer name (`"gulf of"` in `"gulf of lyon"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NameEntry(pub(super) u32);

impl NameEntry {
    /// The low 31 bits when the string names no province.
    pub(super) const NONE: u32 = 0x7fff_ffff;
    /// The bit set when a longer name continues the string.
    pub(super) const CONTINUES: u32 = 0x8000_0000;
    /// Not in the index at all: no province, no longer name.
    pub const ABSENT: NameEntry = NameEntry(Self::NONE);

    pub(super) fn named(p: ProvinceId) -> NameEntry {
        // Province ids are below MAX_PROVINCES (2^26), checked before any is made.
        NameEntry(p.0 & Self::NONE)
    }

    /// The province this string names, if any.
    pub fn province(self) -> Option<ProvinceId> {
        let id = self.0 & Self::NONE;
        (id != Self::NONE).then_some(ProvinceId(id))
    }

    /// Whether some longer name starts with this string followed by a space.
    pub fn continues(self) -> bool {
        self.0 & Self::CONTINUES != 0
    }
}

/// A map's name index: every normalized name, and every prefix of one that ends before a space,
/// with its [`NameEntry`].
///
/// Dense, for maps of millions of names: the names are concatenated in one string, and a
/// `hashbrown::HashTable` holds one 12-byte slot per key — where its text is, and its entry —
/// hashed with [`name_hash`] (the table keeps 7 bits of it per slot, so a miss rarely compares
/// strings). A prefix (`"gulf of"`) is a slot over the text of the name it begins; it has no
/// text of its own.
#[derive(Clone, Debug)]
pub(super) struct NameIndex {
    /// The normalized names, concatenated.
    pub(super) text: String,
    /// The keys, each as a span of `text`, with their entries.
    pub(super) table: hashbrown::HashTable<NameSlot>,
}

/// One key of a [`NameIndex`] (`len` bytes of the index's text from `start`) and its entry.
#[derive(Clone, Copy, Debug)]
pub(super) struct NameSlot {
    start: u32,
    len: u32,
    entry: NameEntry,
}

/// The hash of a key of a [`NameIndex`]: its 8-byte words (the last one read overlapping the
/// one before, a short key's bytes gathered into one word) and its length, multiplied and
/// folded so that both the low bits (the bucket) and the top bits (the tag) depend on every byte.
pub(super) fn name_hash(key: &[u8]) -> u64 {
    pub(super) const K: u64 = 0x517c_c1b7_2722_0a95;
    let n = key.len();
    let word = |i: usize| {
        key.get(i..)
            .and_then(|s| s.first_chunk::<8>())
            .map_or(0, |c| u64::from_le_bytes(*c))
    };
    let half = |i: usize| {
        key.get(i..)
            .and_then(|s| s.first_chunk::<4>())
            .map_or(0, |c| u64::from(u32::from_le_bytes(*c)))
    };
    let byte = |i: usize| key.get(i).map_or(0, |&b| u64::from(b));
    let mut h = (n as u64).wrapping_mul(K);
    let last = if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            h = (h.rotate_left(5) ^ word(i)).wrapping_mul(K);
            i += 8;
        }
        word(n - 8)
    } else if n >= 4 {
        half(0) | (half(n - 4) << 32)
    } else if n > 0 {
        byte(0) | (byte(n / 2) << 8) | (byte(n - 1) << 16)
    } else {
        0
    };
    h = (h.rotate_left(5) ^ last).wrapping_mul(K);
    let h = (h ^ (h >> 32)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// Why [`NameIndex::insert_pending`] refused a name.
pub(super) enum NameClash {
    /// Another province has the name already.
    Province(ProvinceId),
    /// The index's text would pass 4 GiB (its offsets are 32-bit).
    TooLong,
}

impl NameIndex {
    /// An index sized for `names` keys (prefixes included, or it grows) and `bytes` of text.
    pub(super) fn with_capacity(names: usize, bytes: usize) -> NameIndex {
        NameIndex {
            text: String::with_capacity(bytes),
            table: hashbrown::HashTable::with_capacity(names),
        }
    }

    /// The key of a slot, from the text.
    pub(super) fn key_of<'t>(text: &'t str, s: &NameSlot) -> &'t [u8] {
        text.as_bytes()
            .get(s.start as usize..s.start as usize + s.len as usize)
            .unwrap_or_default()
    }

    /// The entry of a normalized string ([`NameEntry::ABSENT`] if it is not in the index).
    pub(super) fn get(&self, key: &str) -> NameEntry {
        let key = key.as_bytes();
        self.get_hashed(key, name_hash(key))
    }

    /// [`NameIndex::get`] with the key's [`name_hash`] already made.
    pub(super) fn get_hashed(&self, key: &[u8], hash: u64) -> NameEntry {
        self.table
            .find(hash, |s| Self::key_of(&self.text, s) == key)
            .map_or(NameEntry::ABSENT, |s| s.entry)
    }

    /// Adds a slot for `len` bytes of text from `start`, hashed `hash` (not in the table).
    pub(super) fn put(&mut self, start: usize, len: usize, hash: u64, entry: NameEntry) {
        let text = &self.text;
        self.table.insert_unique(
            hash,
            NameSlot {
                start: start as u32,
                len: len as u32,
                entry,
            },
            |s| name_hash(Self::key_of(text, s)),
        );
    }

    /// Indexes `key` (normalized, [`normalize_into`]; `hash` is its [`name_hash`]) as a name
    /// of province `id`, with its prefixes that end before a space. The key's text is added only
    /// if the key is new (not this province's already, nor a prefix of a longer name). Refused
    /// if another province has the name; the index is then unchanged.
    pub(super) fn insert_key(
        &mut self,
        key: &str,
        hash: u64,
        id: ProvinceId,
    ) -> Result<(), NameClash> {
        let text = &self.text;
        if let Some(s) = self
            .table
            .find_mut(hash, |s| Self::key_of(text, s) == key.as_bytes())
        {
            let e = s.entry;
            if let Some(other) = e.province()
                && other != id
            {
                return Err(NameClash::Province(other));
            }
            // Its prefixes were indexed with it (or with the longer name it begins).
            s.entry = NameEntry(NameEntry::named(id).0 | (e.0 & NameEntry::CONTINUES));
            return Ok(());
        }
        let start = self.text.len();
        if start + key.len() > u32::MAX as usize {
            return Err(NameClash::TooLong);
        }
        self.text.push_str(key);
        let len = key.len();
        self.put(start, len, hash, NameEntry::named(id));
        for k in 0..len {
            if self.text.as_bytes()[start + k] == b' ' {
                let text = &self.text;
                let prefix = &text.as_bytes()[start..start + k];
                let h = name_hash(prefix);
                match self.table.find_mut(h, |s| Self::key_of(text, s) == prefix) {
                    Some(s) => s.entry.0 |= NameEntry::CONTINUES,
                    None => self.put(
                        start,
                        k,
                        h,
                        NameEntry(NameEntry::NONE | NameEntry::CONTINUES),
                    ),
                }
            }
        }
        Ok(())
    }

    /// Every key and its entry, in table order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, NameEntry)> + '_ {
        self.table.iter().filter_map(|s| {
            Some((
                self.text
                    .get(s.start as usize..(s.start + s.len) as usize)?,
                s.entry,
            ))
        })
    }
}

/// Normalized keys and their hashes, made for a batch of look-ups before any of them is made. A name that is already normalized (lower-case letters and digits,
/// like most abbreviations) is its own key and is not copied; the others are folded into one
/// buffer.
#[derive(Default)]
pub(super) struct KeyBatch {
    /// The keys of the names that needed folding, concatenated.
    folded: String,
    /// Each key's place in `folded`, or `None` if the name is its own key.
    spans: Vec<Option<(usize, usize)>>,
    /// Each key's [`name_hash`].
    hashes: Vec<u64>,
}

impl KeyBatch {
    /// Empties the batch (its buffers are kept).
    pub(super) fn clear(&mut self) {
        self.folded.clear();
        self.spans.clear();
        self.hashes.clear();
    }

    /// Adds the key of `name` ([`normalize_into`]).
    pub(super) fn push(&mut self, name: &str) {
        if name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            self.hashes.push(name_hash(name.as_bytes()));
            self.spans.push(None);
        } else {
            let start = self.folded.len();
            normalize_into(name, &mut self.folded);
            self.hashes
                .push(name_hash(&self.folded.as_bytes()[start..]));
            self.spans.push(Some((start, self.folded.len())));
        }
    }

    /// The key of the `k`th name pushed, which was `name`, and its hash.
    pub(super) fn key<'a>(&'a self, k: usize, name: &'a str) -> (&'a str, u64) {
        let key = match self.spans[k] {
            None => name,
            Some((a, b)) => &self.folded[a..b],
        };
        (key, self.hashes[k])
    }
}

/// How many provinces' names or borders [`build`] folds and hashes before it looks them up.
pub(super) const BATCH: usize = 32;

/// Folds case, dots, hyphens and repeated spaces so that "St. Petersburg", "st petersburg" and
/// "ST-PETERSBURG" are one key.
pub fn normalize_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    normalize_into(s, &mut out);
    out
}

/// Each ASCII letter or digit lower-cased; 0 for every other byte.
// Indexing in a constant cannot panic at run time: out of bounds, it would not compile.
#[allow(clippy::indexing_slicing)]
pub(crate) static ALNUM_LOWER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        if c.is_ascii_alphanumeric() {
            t[i] = c.to_ascii_lowercase();
        }
        i += 1;
    }
    t
};

/// Whether `b` is empty or words of ASCII letters and digits separated by single spaces, with
/// no space at either end: text that [`normalize_into`] only lower-cases.
pub(super) fn plain_words(b: &[u8]) -> bool {
    // After a space (or at the start), a letter or digit must come.
    let mut after_space = true;
    for &c in b {
        if c.is_ascii_alphanumeric() {
            after_space = false;
        } else if c == b' ' && !after_space {
            after_space = true;
        } else {
            return false;
        }
    }
    !after_space || b.is_empty()
}

/// [`normalize_name`] appended to `out` (which is not cleared), so that a caller can reuse one
/// buffer: the words of `s` (after what `out` already holds, if anything) are folded the same way.
pub fn normalize_into(s: &str, out: &mut String) {
    let base = out.len();
    let mut space = false;
    // A word of ASCII letters and digits (`Par`, `Burgundy`: nearly every word of an order) is
    // lower-cased in one pass through a byte table.
    for &c in s.as_bytes() {
        let folded = ALNUM_LOWER.get(usize::from(c)).copied().unwrap_or(0);
        if folded == 0 {
            out.truncate(base);
            break;
        }
        out.push(char::from(folded));
    }
    if out.len() - base == s.len() {
        return;
    }
    // Words of them separated by single spaces (`North Sea`) are only lower-cased.
    if plain_words(s.as_bytes()) {
        out.push_str(s);
        out[base..].make_ascii_lowercase();
        return;
    }
    if s.is_ascii() {
        // The same folding on bytes (every name of the standard map, and most of any map).
        for &b in s.trim().as_bytes() {
            let c = b.to_ascii_lowercase();
            if c == b'.' || c == b'\'' {
                continue;
            }
            if c == b' ' || c == b'-' || c == b'_' {
                space = out.len() > base;
                continue;
            }
            if space {
                out.push(' ');
                space = false;
            }
            out.push(char::from(c));
        }
        return;
    }
    for ch in s.trim().chars() {
        let c = ch.to_ascii_lowercase();
        if c == '.' || c == '\'' {
            continue;
        }
        if c == ' ' || c == '-' || c == '_' {
            space = out.len() > base;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
}
