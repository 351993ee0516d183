//! The unit tests of the core's `tools::art_gen::layout`.

use dipsandbox_core::tools::art_gen::layout::*;

#[test]
fn a_path_is_laid_out_in_order_with_neighbours_about_one_apart() {
    let n = 6;
    let adj: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let mut v = Vec::new();
            if i > 0 {
                v.push(i - 1);
            }
            if i + 1 < n {
                v.push(i + 1);
            }
            v
        })
        .collect();
    let p = layout(n, &adj);
    for i in 1..n {
        let (dx, dy) = (p[i].0 - p[i - 1].0, p[i].1 - p[i - 1].1);
        let len = (dx * dx + dy * dy).sqrt();
        assert!((0.7..1.3).contains(&len), "{i}: {len}");
    }
    let (dx, dy) = (p[5].0 - p[0].0, p[5].1 - p[0].1);
    assert!((dx * dx + dy * dy).sqrt() > 4.0);
}

#[test]
fn the_same_graph_gives_the_same_layout() {
    let adj = vec![vec![1, 2], vec![0, 2], vec![0, 1, 3], vec![2]];
    assert_eq!(layout(4, &adj), layout(4, &adj));
}
