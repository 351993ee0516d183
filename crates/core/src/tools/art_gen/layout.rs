//! Where each province's label goes when a map gives no coordinates: a drawing of the adjacency
//! graph in the plane. Classical multidimensional scaling of the graph distances gives a start
//! that depends on no random choice; stress majorization (each point moved in turn towards where
//! its graph distances say it should be) then refines it. Everything is deterministic and
//! iterative; the cost is O(n²) a round for a few hundred rounds.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): the tables here are n×n
// (distances) or n long (points, adjacency lists), and every index is a node number below n,
// taken from a loop over 0..n or from an adjacency list whose entries the caller checked.
#![allow(clippy::indexing_slicing)]

/// Rounds of power iteration for each of the two leading eigenvectors.
const POWER_ROUNDS: usize = 60;
/// Rounds of stress majorization.
const STRESS_ROUNDS: usize = 50;

/// Graph distances from every node (breadth first), `n` × `n` row-major; a pair in different
/// components gets one more than the largest finite distance.
fn distances(n: usize, adj: &[Vec<usize>]) -> Vec<f64> {
    const FAR: u32 = u32::MAX;
    let mut d = vec![FAR; n * n];
    let mut queue = Vec::with_capacity(n);
    for s in 0..n {
        let row = &mut d[s * n..(s + 1) * n];
        row[s] = 0;
        queue.clear();
        queue.push(s);
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            for &v in &adj[u] {
                if row[v] == FAR {
                    row[v] = row[u] + 1;
                    queue.push(v);
                }
            }
        }
    }
    let max = d.iter().copied().filter(|&x| x != FAR).max().unwrap_or(0);
    d.into_iter()
        .map(|x| {
            if x == FAR {
                f64::from(max + 1)
            } else {
                f64::from(x)
            }
        })
        .collect()
}

/// The unit vector of the leading eigenvector of the symmetric `b` (n×n), orthogonal to
/// `other` if given, by power iteration from a fixed start.
fn leading(b: &[f64], n: usize, other: Option<&[f64]>, salt: usize) -> (Vec<f64>, f64) {
    let mut v: Vec<f64> = (0..n)
        .map(|i| (((i * 37 + salt * 11) % 101) as f64) - 50.0 + i as f64 * 0.01)
        .collect();
    let mut w = vec![0.0; n];
    let mut value = 0.0;
    for _ in 0..POWER_ROUNDS {
        if let Some(o) = other {
            let dot: f64 = v.iter().zip(o).map(|(a, b)| a * b).sum();
            for (x, y) in v.iter_mut().zip(o) {
                *x -= dot * y;
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm < 1e-12 {
            break;
        }
        for x in v.iter_mut() {
            *x /= norm;
        }
        for (i, wi) in w.iter_mut().enumerate() {
            let row = &b[i * n..(i + 1) * n];
            *wi = row.iter().zip(&v).map(|(a, b)| a * b).sum();
        }
        value = w.iter().zip(&v).map(|(a, b)| a * b).sum();
        std::mem::swap(&mut v, &mut w);
    }
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 1e-12 {
        for x in v.iter_mut() {
            *x /= norm;
        }
    }
    (v, value)
}

/// A point in the plane for each of the `n` nodes of the graph with adjacency lists `adj`
/// (every entry below `n`); neighbours end up about one unit apart.
pub fn layout(n: usize, adj: &[Vec<usize>]) -> Vec<(f64, f64)> {
    match n {
        0 => return Vec::new(),
        1 => return vec![(0.0, 0.0)],
        _ => {}
    }
    let d = distances(n, adj);
    // Classical scaling: B = -1/2 J D² J (J centres the rows and columns).
    let mut b: Vec<f64> = d.iter().map(|x| x * x).collect();
    let mut row_mean = vec![0.0; n];
    for (i, m) in row_mean.iter_mut().enumerate() {
        *m = b[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64;
    }
    let all_mean = row_mean.iter().sum::<f64>() / n as f64;
    for i in 0..n {
        for j in 0..n {
            b[i * n + j] = -0.5 * (b[i * n + j] - row_mean[i] - row_mean[j] + all_mean);
        }
    }
    let (v1, l1) = leading(&b, n, None, 1);
    let (v2, l2) = leading(&b, n, Some(&v1), 2);
    let (s1, s2) = (l1.max(0.0).sqrt(), l2.max(0.0).sqrt());
    let mut p: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            // A small fixed jitter separates nodes the scaling puts on one point.
            let jitter = ((i * 7919) % 997) as f64 / 997.0 - 0.5;
            (v1[i] * s1 + jitter * 0.05, v2[i] * s2 - jitter * 0.03)
        })
        .collect();
    // Stress majorization, one node at a time, weights 1/d².
    for _ in 0..STRESS_ROUNDS {
        for i in 0..n {
            let (mut sx, mut sy, mut sw) = (0.0, 0.0, 0.0);
            let (xi, yi) = p[i];
            for (j, &(xj, yj)) in p.iter().enumerate() {
                if j == i {
                    continue;
                }
                let dij = d[i * n + j].max(1.0);
                let w = 1.0 / (dij * dij);
                let (dx, dy) = (xi - xj, yi - yj);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                sx += w * (xj + dij * dx / len);
                sy += w * (yj + dij * dy / len);
                sw += w;
            }
            if sw > 0.0 {
                p[i] = (sx / sw, sy / sw);
            }
        }
    }
    p
}
