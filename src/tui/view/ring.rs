//! The cycle as a small picture: the decisions of a cycle in a ring, each arrow pointing to
//! the decision that follows in the walk. The first half goes down the right column, the rest
//! comes back up the left one, and the top row closes the ring:
//!
//! ```text
//! HOLD F Ank - Con  → MOVE F Ank - Con
//!       ↑                  ↓
//! ATTACK A Smy - Ank  ATTACK F Ank - Con
//! ```

/// The picture of a ring of `names` (in walk order, each pointing to the next and the last to
/// the first), if it fits in `width` columns and `height` rows.
pub fn picture(names: &[String], width: usize, height: usize) -> Option<Vec<String>> {
    let n = names.len();
    if n < 2 {
        return None;
    }
    // The right column: walk[0..k] downwards; the left: walk[k..n] upwards (so the left top
    // is the last, pointing right to the first).
    let k = n.div_ceil(2);
    let right: Vec<&str> = names.iter().take(k).map(String::as_str).collect();
    let mut left: Vec<&str> = names.iter().skip(k).map(String::as_str).collect();
    left.reverse();
    let lw = left.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let rw = right.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let gap = 5;
    let rows = 2 * k - 1;
    if lw + gap + rw > width || rows > height {
        return None;
    }
    // The left column is one shorter when n is odd: the right's last points up-left to it.
    let mut out = Vec::new();
    for i in 0..k {
        let l = left.get(i).copied().unwrap_or("");
        let mid = if n == 2 {
            "  ⇄  "
        } else if i == 0 {
            "  →  "
        } else if i + 1 == k && left.len() < k {
            "  ↖  "
        } else if i + 1 == k {
            "  ←  "
        } else {
            "     "
        };
        let r = right.get(i).copied().unwrap_or("");
        out.push(format!("{l:<lw$}{mid}{r}"));
        if i + 1 < k {
            let up = if i + 1 < left.len() { "↑" } else { "" };
            out.push(format!("{up:<lw$}{}↓", " ".repeat(gap)));
        }
    }
    Some(out)
}
