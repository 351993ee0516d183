//! The unit tests of the core's `base::near` (the edit distance of "did you mean").

use dipsandbox_core::base::near::{closest, did_you_mean, edit_distance, unique_any_case, within};
use proptest::prelude::*;

/// The whole optimal-string-alignment table, written the plain way: what the banded search is
/// checked against.
fn full_table(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

proptest! {
    /// The banded distance agrees with the whole table wherever it answers, and answers
    /// exactly when the distance is within the limit; `edit_distance` is the table's.
    #[test]
    fn banded_distance_agrees_with_the_full_table(
        a in "[abc]{0,9}",
        b in "[abc]{0,9}",
        limit in 0usize..6,
    ) {
        let full = full_table(&a, &b);
        prop_assert_eq!(edit_distance(&a, &b), full);
        prop_assert_eq!(within(&a, &b, limit), (full <= limit).then_some(full));
    }

    /// `closest` is the first name of least distance within the limit, as a search through
    /// the whole table finds it.
    #[test]
    fn closest_is_the_first_nearest_name(
        word in "[abc]{0,7}",
        names in proptest::collection::vec("[abc]{0,7}", 0..8),
        limit in 0usize..4,
    ) {
        let mut want: Option<(usize, &str)> = None;
        for n in &names {
            let d = full_table(&word, n);
            if d <= limit && want.is_none_or(|(bd, _)| d < bd) {
                want = Some((d, n));
            }
        }
        prop_assert_eq!(
            closest(&word, names.iter().map(String::as_str), limit),
            want.map(|(_, n)| n)
        );
    }
}

#[test]
fn a_transposition_counts_once() {
    assert_eq!(within("prais", "paris", 2), Some(1));
    assert_eq!(within("prais", "paris", 0), None);
    assert_eq!(closest("qiut", ["help", "quit", "quiet"], 3), Some("quit"));
    // Equally close (3 edits each): the first (a case the property test once shrank to).
    assert_eq!(closest("cb", ["aaba", "aaacb"], 3), Some("aaba"));
    assert_eq!(closest("cb", ["aaacb", "aaba"], 3), Some("aaacb"));
}

#[test]
fn a_long_token_is_out_of_reach_at_once() {
    let long = "x".repeat(200_000);
    assert_eq!(within(&long, "paris", 3), None);
    assert_eq!(closest(&long, ["paris", "quit"], 3), None);
}

proptest! {
    /// `unique_any_case` answers exactly when one name, in lower case, is nearer than every
    /// other within the limit, and then names it as written.
    #[test]
    fn unique_any_case_is_the_one_nearest_name(
        word in "[aAbB]{0,6}",
        names in proptest::collection::vec("[aAbB]{0,6}", 0..6),
        limit in 0usize..4,
    ) {
        let w = word.to_lowercase();
        let ds: Vec<usize> = names.iter().map(|n| full_table(&w, &n.to_lowercase())).collect();
        let best = ds.iter().copied().filter(|&d| d <= limit).min();
        let want = best.and_then(|b| {
            let at: Vec<usize> = (0..ds.len()).filter(|&i| ds[i] == b).collect();
            (at.len() == 1).then(|| names[at[0]].as_str())
        });
        prop_assert_eq!(unique_any_case(&word, names.iter().map(String::as_str), limit), want);
    }
}

#[test]
fn did_you_mean_names_one_close_name_or_nothing() {
    let values = ["Szykman", "Rule1971", "Rule1982", "Rule2000", "AllHold"];
    assert_eq!(
        did_you_mean("szykmann", values),
        " (did you mean \"Szykman\"?)"
    );
    // As near one year as another: no guess.
    assert_eq!(did_you_mean("Rule1999", values), "");
    assert_eq!(
        did_you_mean("oracle", ["decisions", "dpjudge", "guess"]),
        ""
    );
}
