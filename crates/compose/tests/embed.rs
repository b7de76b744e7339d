//! `replay::embed` against a naive oracle: the fewest moves of a run reading the word, by layers
//! of (node, letters read) pairs reachable in exactly k moves (no parents, no queue), and the
//! run itself checked move by move.

use guarantor_compose::Config;
use guarantor_compose::replay::{Fill, embed};
use proptest::prelude::*;

/// Labels 0 and 1 are letters; 2 and 3 are hidden.
fn is_hidden(label: u8) -> bool {
    label >= 2
}

fn moves_of(
    edges: &[(usize, u8, usize)],
    word: &[u8],
    s: usize,
    read: usize,
) -> Vec<(Fill, u8, usize)> {
    edges
        .iter()
        .filter(|e| e.0 == s)
        .filter_map(|&(_, l, t)| {
            if is_hidden(l) {
                Some((Fill::Hidden, l, t))
            } else if word.get(read) == Some(&l) {
                Some((Fill::Letter, l, t))
            } else {
                None
            }
        })
        .collect()
}

/// The fewest moves, by layers: pairs reachable in exactly k moves, k = 0, 1, ...
fn fewest(n: usize, edges: &[(usize, u8, usize)], word: &[u8], accept: &[bool]) -> Option<usize> {
    let mut layer = vec![(0usize, 0usize)];
    // A shortest run visits each pair once: at most n * (len + 1) pairs.
    for k in 0..=n * (word.len() + 1) {
        if layer.iter().any(|&(s, r)| r == word.len() && accept[s]) {
            return Some(k);
        }
        let mut next = Vec::new();
        for &(s, r) in &layer {
            for (fill, _, t) in moves_of(edges, word, s, r) {
                let pair = (t, if fill == Fill::Letter { r + 1 } else { r });
                if !next.contains(&pair) {
                    next.push(pair);
                }
            }
        }
        layer = next;
    }
    None
}

proptest! {
    #[test]
    fn embed_finds_a_shortest_run_exactly_when_one_exists(
        n in 1usize..5,
        raw in proptest::collection::vec((0usize..5, 0u8..4, 0usize..5), 0..12),
        word in proptest::collection::vec(0u8..2, 0..4),
        accept in proptest::collection::vec(any::<bool>(), 5),
    ) {
        let edges: Vec<(usize, u8, usize)> =
            raw.iter().map(|&(a, l, b)| (a % n, l, b % n)).collect();
        let config = Config::default();
        let run = embed(
            0usize,
            word.len(),
            |&s, read, out| out.extend(moves_of(&edges, &word, s, read)),
            |&s| accept[s],
            &mut config.budget().unwrap(),
        )
        .unwrap();
        let expected = fewest(n, &edges, &word, &accept);
        prop_assert_eq!(run.as_ref().map(Vec::len), expected);
        if let Some(run) = run {
            let mut at = 0;
            let mut letters = Vec::new();
            for &(label, to) in &run {
                prop_assert!(edges.contains(&(at, label, to)), "no move {at} -{label}-> {to}");
                if !is_hidden(label) {
                    letters.push(label);
                }
                at = to;
            }
            prop_assert_eq!(letters, word);
            prop_assert!(accept[at]);
        }
    }
}

#[test]
fn a_state_limit_stops_the_search() {
    // A long chain of hidden moves and no accepting end: the search remembers every pair.
    let config = Config::default().with_max_states(10);
    let err = embed(
        0u32,
        1,
        |&s, _, out| out.push((Fill::Hidden, (), s + 1)),
        |_| false,
        &mut config.budget().unwrap(),
    )
    .unwrap_err();
    assert!(err.is_budget(), "{err}");
}
