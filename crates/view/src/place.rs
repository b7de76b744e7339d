//! Where each state of a drawing goes: `rust-sugiyama`'s layered layout, turned to run left to
//! right as LTSA draws (layers are columns), its disjoint parts one above the other.
//!
//! The cycles of an LTS are broken here, before the layout, by a depth-first search from the
//! initial state: its back edges are turned around. The library would break them itself (a
//! feedback arc set), but without knowing the initial state, which could then land anywhere; this
//! way the initial state is in the first column and the drawing reads from left to right.
//!
//! Sugiyama's method spends most of its time on the *transpose* step (swapping neighbours in a
//! layer while that removes crossings); it is used up to [`TRANSPOSE_UP_TO`] states, where it
//! costs little and the pictures read best. Without it 300 states take about a quarter of a
//! second (release build).

use rust_sugiyama::configure::Config;

/// The most states laid out with the transpose step.
pub(crate) const TRANSPOSE_UP_TO: usize = 60;
/// The gap between two states of a layer, and between disjoint parts.
const SPACING: f64 = 40.;

/// The centre of each of `n` states connected by `edges` (indices into the states; self-loops
/// are ignored by the layout, which draws them itself), `root` first, layers `gap` apart.
pub(crate) fn positions(
    n: usize,
    edges: &[(usize, usize)],
    root: usize,
    gap: f64,
) -> Vec<(f64, f64)> {
    let Ok(count) = u32::try_from(n) else {
        return vec![(0., 0.); n];
    };
    let vertices: Vec<(u32, (f64, f64))> = (0..count).map(|i| (i, (34., 34.))).collect();
    let pairs: Vec<(u32, u32)> = acyclic(n, edges, root)
        .into_iter()
        .filter_map(|(a, b)| Some((u32::try_from(a).ok()?, u32::try_from(b).ok()?)))
        .collect();
    let config = Config {
        vertex_spacing: SPACING,
        transpose: n <= TRANSPOSE_UP_TO,
        ..Config::default()
    };
    let parts = rust_sugiyama::from_vertices_and_edges(&vertices, &pairs, &config);
    let mut at = vec![(0., 0.); n];
    let mut top = 0.;
    for (part, _, _) in parts {
        // The library's coordinates: x within a layer, y down the layers (34 + spacing apart).
        let layer_step = 34. + SPACING;
        let mut bottom: f64 = 0.;
        for &(v, (x, y)) in &part {
            let layer = (y / layer_step).round();
            let pos = (layer * gap, top + x);
            bottom = bottom.max(pos.1);
            if let Some(slot) = at.get_mut(v) {
                *slot = pos;
            }
        }
        top = bottom + 34. + SPACING + 30.;
    }
    at
}

/// `edges` without self-loops, each back edge of a depth-first search from `root` (then from each
/// state not yet reached, in order) turned around, so that no cycle is left.
fn acyclic(n: usize, edges: &[(usize, usize)], root: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges.iter().filter(|(a, b)| a != b && *a < n && *b < n) {
        out[a].push(b);
    }
    // 0 unseen, 1 on the search's stack, 2 done.
    let mut mark = vec![0u8; n];
    let mut result = Vec::with_capacity(edges.len());
    let starts = std::iter::once(root).chain(0..n).filter(|&s| s < n);
    for start in starts {
        if mark[start] != 0 {
            continue;
        }
        mark[start] = 1;
        let mut stack = vec![(start, 0usize)];
        while let Some((v, i)) = stack.last_mut() {
            let v = *v;
            if let Some(&w) = out[v].get(*i) {
                *i += 1;
                match mark[w] {
                    1 => result.push((w, v)),
                    0 => {
                        result.push((v, w));
                        mark[w] = 1;
                        stack.push((w, 0));
                    }
                    _ => result.push((v, w)),
                }
            } else {
                mark[v] = 2;
                stack.pop();
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The oracle: a graph is acyclic when repeatedly removing states without incoming edges
        /// removes them all (Kahn).
        #[test]
        fn turning_the_back_edges_around_leaves_no_cycle(
            edges in prop::collection::vec((0usize..8, 0usize..8), 0..30),
            root in 0usize..8,
        ) {
            let dag = acyclic(8, &edges, root);
            prop_assert_eq!(dag.len(), edges.iter().filter(|(a, b)| a != b).count());
            let mut live: Vec<(usize, usize)> = dag.clone();
            let mut left: Vec<usize> = (0..8).collect();
            while let Some(pos) = left.iter().position(|&v| live.iter().all(|&(_, b)| b != v)) {
                let v = left.remove(pos);
                live.retain(|&(a, _)| a != v);
            }
            prop_assert!(left.is_empty(), "cycle left among {:?}", left);
            // No state the root reaches has an edge into it: it is in the first column.
            let mut reached = vec![root];
            let mut i = 0;
            while i < reached.len() {
                for &(a, b) in &edges {
                    if a == reached[i] && !reached.contains(&b) {
                        reached.push(b);
                    }
                }
                i += 1;
            }
            prop_assert!(dag.iter().all(|&(a, b)| b != root || !reached.contains(&a)));
        }
    }
}
