//! How close two names are, for "did you mean" suggestions: the edit distance counting an
//! adjacent transposition as one edit (optimal string alignment), whole ([`edit_distance`]) or
//! only when it is within a limit ([`within`], [`Banded`]), the closest of a list of names
//! ([`closest`], or the one closest in any case: [`unique_any_case`], [`meant`]), and the tail
//! of an "unknown …" message ([`did_you_mean`]).
//!
//! The limited forms cost O(length × limit), and nothing for a name whose length alone puts it
//! out of reach: a 200,000-character token from a file is compared with every name at no cost.

/// The banded distance with its buffers, reused from one name to the next: a search over many
/// names allocates once ([`closest`] and the order parser's suggestions use it).
#[derive(Default)]
pub struct Banded {
    b: Vec<char>,
    rows: [Vec<usize>; 3],
}

impl Banded {
    /// [`edit_distance`] of `a` and `b` when it is at most `limit`, else `None`: only the cells
    /// within `limit` of the diagonal are computed, and the search stops at the first row whose
    /// every cell is over the limit (time O(len × limit) instead of O(len²)).
    pub fn distance_within(&mut self, a: &[char], b: &str, limit: usize) -> Option<usize> {
        self.b.clear();
        self.b.extend(b.chars());
        let (a, b) = (a, &self.b[..]);
        let (n, m) = (a.len(), b.len());
        if n.abs_diff(m) > limit {
            return None;
        }
        const FAR: usize = usize::MAX / 2;
        let [r2, r1, r0] = &mut self.rows;
        for r in [&mut *r2, &mut *r1, &mut *r0] {
            r.clear();
            r.resize(m + 1, FAR);
        }
        // Row 0: j insertions.
        for (j, cell) in r1.iter_mut().enumerate().take(limit.min(m) + 1) {
            *cell = j;
        }
        let mut prev_a: Option<char> = None;
        for (i, &ca) in a.iter().enumerate() {
            let i = i + 1;
            let lo = i.saturating_sub(limit).max(1);
            let hi = i.saturating_add(limit).min(m);
            // Row i writes its band and the cell left of it (column 0 is i deletions while that
            // is within the limit); nothing else of the row is read. The cells right of the
            // band have never been written since the rows were made far, and the cells left of
            // it are not read again: a row costs its band, not the whole name.
            if let Some(c) = r0.get_mut(lo - 1) {
                *c = if lo == 1 && i <= limit { i } else { FAR };
            }
            let mut row_min = r0.get(lo - 1).copied().unwrap_or(FAR);
            for j in lo..=hi {
                let (Some(&cb), Some(&up), Some(&diag), Some(&left)) =
                    (b.get(j - 1), r1.get(j), r1.get(j - 1), r0.get(j - 1))
                else {
                    continue;
                };
                let mut v = (up + 1).min(left + 1).min(diag + usize::from(ca != cb));
                // An adjacent transposition: a[i-2..i] is b[j-1], b[j-2] swapped.
                if j > 1
                    && prev_a == Some(cb)
                    && b.get(j - 2) == Some(&ca)
                    && let Some(&d2) = r2.get(j - 2)
                {
                    v = v.min(d2 + 1);
                }
                if let Some(c) = r0.get_mut(j) {
                    *c = v;
                }
                row_min = row_min.min(v);
            }
            if row_min > limit {
                return None;
            }
            prev_a = Some(ca);
            // Rotate: r2 <- r1 <- r0 (r0 is overwritten next row).
            std::mem::swap(r2, r1);
            std::mem::swap(r1, r0);
        }
        r1.get(m).copied().filter(|&d| d <= limit)
    }
}

/// Edit distance counting an adjacent transposition as one edit (optimal string alignment): the
/// whole table (the banded search with a limit no distance can pass).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let limit = a.len().max(b.chars().count());
    Banded::default()
        .distance_within(&a, b, limit)
        .unwrap_or(limit)
}

/// The edit distance of `a` and `b` when it is at most `limit`, else None (one search; a loop
/// over many names reuses a [`Banded`]).
pub fn within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    Banded::default().distance_within(&a, b, limit)
}

/// The name of `names` closest to `word` within `limit` edits; of names equally close, the
/// first. None when no name is within the limit.
pub fn closest<'n>(
    word: &str,
    names: impl IntoIterator<Item = &'n str>,
    limit: usize,
) -> Option<&'n str> {
    search(word, names, limit, false).map(|(n, _)| n)
}

/// The one name of `names` closest to `word` within `limit` edits, the letters compared in
/// lower case (`szykmann` finds `Szykman`; the name is returned as written). None when no name
/// is within the limit, or when two are equally close (`Rule1999` is as near `Rule1971` as
/// `Rule1982`: no guess is better than a wrong one).
pub fn unique_any_case<'n>(
    word: &str,
    names: impl IntoIterator<Item = &'n str>,
    limit: usize,
) -> Option<&'n str> {
    match search(&word.to_lowercase(), names, limit, true) {
        Some((n, false)) => Some(n),
        _ => None,
    }
}

/// The first closest name, and whether another name is as close (only when `fold`: the search
/// for [`unique_any_case`] folds case and looks for ties).
fn search<'n>(
    word: &str,
    names: impl IntoIterator<Item = &'n str>,
    limit: usize,
    fold: bool,
) -> Option<(&'n str, bool)> {
    let w: Vec<char> = word.chars().collect();
    let mut scratch = Banded::default();
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    let mut folded = String::new();
    for name in names {
        // Only a name strictly closer than the best so far can replace it; when ties are
        // looked for, one as close is computed too.
        let reach = best.map_or(limit, |(d, _)| if fold { d } else { d.saturating_sub(1) });
        if !fold && best.is_some_and(|(d, _)| d == 0) {
            break;
        }
        let b = if fold {
            folded.clear();
            folded.extend(name.chars().flat_map(char::to_lowercase));
            folded.as_str()
        } else {
            name
        };
        if let Some(d) = scratch.distance_within(&w, b, reach) {
            match best {
                Some((bd, _)) if d == bd => tied = true,
                _ => {
                    best = Some((d, name));
                    tied = false;
                }
            }
        }
    }
    best.map(|(_, n)| (n, tied))
}

/// The name an unknown `word` most likely meant: the one of `names` closest to it in any case,
/// within two edits or a third of the word's length when that is more.
pub fn meant<'n>(word: &str, names: impl IntoIterator<Item = &'n str>) -> Option<&'n str> {
    let limit = (word.chars().count() / 3).max(2);
    unique_any_case(word, names, limit)
}

/// ` (did you mean "NAME"?)` for the name [`meant`], or nothing: the tail of an "unknown …"
/// message.
pub fn did_you_mean<'n>(word: &str, names: impl IntoIterator<Item = &'n str>) -> String {
    meant(word, names)
        .map(|n| format!(" (did you mean {}?)", crate::base::text::quoted(n)))
        .unwrap_or_default()
}
