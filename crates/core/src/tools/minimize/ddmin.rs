//! Zeller's `ddmin` over index lists, with failing subsets remembered by fingerprint.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): item indices come from
// ranges over the very lists they index (units and orders of the scenario being cut, and subsets
// of those ranges).
#![allow(clippy::indexing_slicing)]

use std::collections::HashSet;
use std::hash::{BuildHasher, Hash, RandomState};

/// A 128-bit fingerprint of index lists, for remembering failed candidates without keeping
/// them (two independently keyed hashes: a collision, which would only skip a candidate, is
/// out of reach).
pub(super) struct Fingerprint(RandomState, RandomState);

impl Fingerprint {
    pub(super) fn new() -> Fingerprint {
        Fingerprint(RandomState::new(), RandomState::new())
    }

    pub(super) fn of<H: Hash + ?Sized>(&self, x: &H) -> u128 {
        (u128::from(self.0.hash_one(x)) << 64) | u128::from(self.1.hash_one(x))
    }
}

/// Zeller's `ddmin`: a 1-minimal subset of `items` (in their order) for which `test` holds,
/// given that it holds for all of them. Splits the current set into `n` chunks; keeps a chunk
/// that passes (back to 2 chunks), else a complement that passes (one chunk fewer), else doubles
/// the granularity, until the chunks are single items. The empty set is tried first. Failing
/// subsets are remembered, so none is tested twice. `reduced(from, to)` is called after each
/// accepted reduction. Iterative: no recursion.
pub fn ddmin<T: Clone>(
    items: &[T],
    mut test: impl FnMut(&[T]) -> bool,
    reduced: impl FnMut(usize, usize),
) -> Vec<T> {
    let kept = ddmin_ids(
        items.len(),
        Start::Halves,
        |ids| {
            let subset: Vec<T> = ids.iter().map(|&i| items[i].clone()).collect();
            Some(test(&subset))
        },
        reduced,
    );
    kept.into_iter().map(|i| items[i].clone()).collect()
}

/// Where [`ddmin_ids`] starts, after the empty set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    /// Zeller's: two chunks, then finer.
    Halves,
    /// Each item left out in turn (dropping it when the rest passes), then, if any was dropped,
    /// single items as chunks. Where every item is expected to be needed this is the proof of
    /// 1-minimality alone — one test per item — without the coarser levels' tests, which would
    /// all fail and cost as much again.
    Singles,
}

/// [`ddmin`] over the indices `0..len`, which may be stopped: `test` returns None to stop the
/// search, which then returns the smallest passing set found so far.
pub(super) fn ddmin_ids(
    len: usize,
    start: Start,
    mut test: impl FnMut(&[usize]) -> Option<bool>,
    mut reduced: impl FnMut(usize, usize),
) -> Vec<usize> {
    let fp = Fingerprint::new();
    let mut failed: HashSet<u128> = HashSet::new();
    let mut attempt = |ids: &[usize]| -> Option<bool> {
        let key = fp.of(ids);
        if failed.contains(&key) {
            return Some(false);
        }
        let ok = test(ids)?;
        if !ok {
            failed.insert(key);
        }
        Some(ok)
    };
    let mut current: Vec<usize> = (0..len).collect();
    if len == 0 {
        return current;
    }
    match attempt(&[]) {
        None => return current,
        Some(true) => {
            reduced(len, 0);
            return Vec::new();
        }
        Some(false) => {}
    }
    let mut n = 2usize;
    if start == Start::Singles {
        let mut dropped = false;
        let mut k = 0;
        while k < current.len() && current.len() >= 2 {
            let mut rest = current.clone();
            rest.remove(k);
            match attempt(&rest) {
                None => return current,
                Some(true) => {
                    reduced(current.len(), rest.len());
                    current = rest;
                    dropped = true;
                }
                Some(false) => k += 1,
            }
        }
        if !dropped {
            // No item can be left out (a single item: the empty set failed above).
            return current;
        }
        n = current.len();
    }
    while current.len() >= 2 {
        let n_eff = n.min(current.len());
        let chunks = split(&current, n_eff);
        let mut next: Option<(Vec<usize>, usize)> = None;
        for chunk in &chunks {
            match attempt(chunk) {
                None => return current,
                Some(true) => {
                    next = Some((chunk.clone(), 2));
                    break;
                }
                Some(false) => {}
            }
        }
        // With two chunks, each complement is the other chunk: already tried.
        if next.is_none() && n_eff > 2 {
            for k in 0..chunks.len() {
                let complement: Vec<usize> = chunks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect();
                match attempt(&complement) {
                    None => return current,
                    Some(true) => {
                        next = Some((complement, (n_eff - 1).max(2)));
                        break;
                    }
                    Some(false) => {}
                }
            }
        }
        match next {
            Some((smaller, n_next)) => {
                reduced(current.len(), smaller.len());
                current = smaller;
                n = n_next;
            }
            None if n_eff >= current.len() => break,
            None => n = (2 * n_eff).min(current.len()),
        }
    }
    current
}

/// `ids` in `n` contiguous chunks whose sizes differ by at most one.
pub(super) fn split(ids: &[usize], n: usize) -> Vec<Vec<usize>> {
    let n = n.clamp(1, ids.len().max(1));
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for k in 0..n {
        let end = start + (ids.len() - start) / (n - k);
        out.push(ids[start..end].to_vec());
        start = end;
    }
    out
}
