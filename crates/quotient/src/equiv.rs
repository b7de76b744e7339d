//! From labels to an equivalence, and from an equivalence to the assumption `N/~`.
//!
//! With bounds `(lower, upper)` on every label (section 5), two subject states may be merged when,
//! for every node, both are in the lower label or both are outside the upper label. States that are
//! in some upper label but not in the matching lower label are *uncertain* there and stay alone.
//! With exact labels (`upper == lower`) this is "in exactly the same labels", the equivalence of
//! sections 3 and 4.
//!
//! Extraction is partition refinement: start from one block, split every block by each distinct
//! lower label and each distinct upper label (nodes often share a label; duplicates are skipped by
//! hashing the rows), then isolate the uncertain states. Each split costs time proportional to
//! the label (plus its bitset words), so the whole extraction is linear in the total label size —
//! no pairwise comparison, no sorting. `N`'s `ERROR` always stays alone, so the quotient's error
//! state stands for exactly the error of `N`.

use rustc_hash::FxHashSet;

use crate::bits::{Labels, ones};
use crate::partition::Partition;

/// The classes (dense, by first occurrence) of the equivalence given by the bounds, and their
/// number. `upper == None` means the bounds coincide.
pub(crate) fn classes(
    states: usize,
    error: Option<u32>,
    lower: &Labels,
    upper: Option<&Labels>,
) -> (Vec<u32>, usize) {
    let mut part = Partition::new(states);
    if let Some(e) = error {
        part.isolate(e);
    }
    // Many nodes share a label: splitting by each distinct row once is enough.
    let mut seen: FxHashSet<&[u64]> = FxHashSet::default();
    for q in 0..lower.rows() {
        if seen.insert(lower.row(q)) {
            part.split(lower.members(q));
        }
    }
    if let Some(upper) = upper {
        let mut uncertain = vec![0u64; states.div_ceil(64)];
        for q in 0..upper.rows() {
            if seen.insert(upper.row(q)) {
                part.split(upper.members(q));
            }
            for ((u, &hi), &lo) in uncertain.iter_mut().zip(upper.row(q)).zip(lower.row(q)) {
                *u |= hi & !lo;
            }
        }
        for x in ones(&uncertain).collect::<Vec<_>>() {
            part.isolate(x);
        }
    }
    part.dense_classes()
}

/// Composes two class maps: state `s` of `N` goes to `outer[inner[s]]`.
pub(crate) fn compose_classes(inner: &[u32], outer: &[u32]) -> Vec<u32> {
    inner.iter().map(|&c| outer[c as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_only_states_with_the_same_certain_status() {
        // Two nodes, five states. Node 0: lower {0,1}, upper {0,1,2}; node 1: lower {}, upper {3}.
        let mut lower = Labels::new(2, 5);
        let mut upper = Labels::new(2, 5);
        for n in [0, 1] {
            lower.insert(0, n);
        }
        for n in [0, 1, 2] {
            upper.insert(0, n);
        }
        upper.insert(1, 3);
        let (classes, k) = classes(5, None, &lower, Some(&upper));
        // {0,1} certain in; 2 uncertain at node 0; 3 uncertain at node 1; 4 certainly out everywhere.
        assert_eq!(k, 4);
        assert_eq!(classes[0], classes[1]);
        assert!(classes[2] != classes[0] && classes[3] != classes[4]);
        let (exact, k) = classes_exact(&lower);
        assert_eq!(k, 2);
        assert_eq!(exact, [0, 0, 1, 1, 1]);
    }

    fn classes_exact(lower: &Labels) -> (Vec<u32>, usize) {
        classes(lower.cols(), None, lower, None)
    }
}
