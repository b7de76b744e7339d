//! Property tests for strong-bisimulation minimisation: against a naive greatest-fixpoint bisimulation
//! and brute-force trace enumeration.
#![cfg(feature = "proptest")]

mod ops_support;

use guarantor_lts::ops::{minimize_strong, quotient, strong_bisimulation_classes, trim};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
use guarantor_lts::{Lts, StateId};
use ops_support::{accepted, traces};
use proptest::prelude::*;

const K: usize = 5;

fn config() -> LtsStrategyConfig {
    LtsStrategyConfig::new(6, &["a", "b"]).with_max_transitions(12)
}

/// The largest strong bisimulation, as a relation matrix, by removing violating pairs until none is
/// left (O(n^4), fine for six states).
fn naive_bisimilar(lts: &Lts) -> Vec<Vec<bool>> {
    let n = lts.num_states();
    let st = StateId::must;
    let mut rel: Vec<Vec<bool>> = (0..n)
        .map(|p| {
            (0..n)
                .map(|q| {
                    lts.is_error(st(p)) == lts.is_error(st(q))
                        && lts.is_accepting(st(p)) == lts.is_accepting(st(q))
                })
                .collect()
        })
        .collect();
    let simulates = |rel: &Vec<Vec<bool>>, p: usize, q: usize| {
        lts.outgoing(st(p)).iter().all(|e| {
            lts.outgoing_on(st(q), e.action)
                .iter()
                .any(|f| rel[e.target.index()][f.target.index()])
        })
    };
    loop {
        let mut changed = false;
        for p in 0..n {
            for q in 0..n {
                if rel[p][q] && !(simulates(&rel, p, q) && simulates(&rel, q, p)) {
                    rel[p][q] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return rel;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn classes_are_the_coarsest_bisimulation(
        lts in arb_lts_with(config().with_error_state(true)),
        fsm in arb_lts_with(config().with_accepting(true)),
    ) {
        for l in [&lts, &fsm] {
            let classes = strong_bisimulation_classes(l);
            let rel = naive_bisimilar(l);
            for p in 0..l.num_states() {
                for q in 0..l.num_states() {
                    prop_assert_eq!(classes[p] == classes[q], rel[p][q], "states {} and {}", p, q);
                }
            }
            // Dense numbering by first occurrence.
            let mut seen = 0;
            for &c in &classes {
                prop_assert!(c <= seen);
                if c == seen { seen += 1; }
            }
        }
    }

    #[test]
    fn minimisation_preserves_traces_and_is_idempotent(
        lts in arb_lts_with(config()),
        fsm in arb_lts_with(config().with_accepting(true)),
    ) {
        for l in [&lts, &fsm] {
            let min = minimize_strong(l);
            prop_assert_eq!(traces(&min, K), traces(l, K));
            prop_assert_eq!(accepted(&min, K), accepted(l, K));
            prop_assert!(min.num_states() <= trim(l).num_states());
            let again = minimize_strong(&min);
            prop_assert_eq!(&again, &min);
            // The quotient of a minimal LTS by its own classes changes nothing.
            let classes = strong_bisimulation_classes(&min);
            let q = quotient(&min, &classes).unwrap();
            prop_assert_eq!((q.num_states(), q.num_transitions()), (min.num_states(), min.num_transitions()));
            // All states of a minimal LTS are pairwise non-bisimilar.
            let distinct: std::collections::BTreeSet<_> = classes.iter().collect();
            prop_assert_eq!(distinct.len(), min.num_states());
        }
    }

    #[test]
    fn quotient_has_exactly_the_images_of_the_edges(
        lts in arb_lts_with(config()),
        seed in proptest::collection::vec(0u32..3, 1..16),
    ) {
        // Any class map: coarse ones (one to three classes) have many repeated edges.
        let classes: Vec<u32> = (0..lts.num_states()).map(|s| seed[s % seed.len()]).collect();
        let q = quotient(&lts, &classes).unwrap();
        let image = |s: StateId| classes[s.index()];
        let expected: std::collections::BTreeSet<_> = lts
            .transitions()
            .map(|t| (image(t.source), t.action, image(t.target)))
            .collect();
        let got: Vec<_> = q
            .transitions()
            .map(|t| (t.source.as_u32(), t.action, t.target.as_u32()))
            .collect();
        prop_assert_eq!(got.len(), expected.len(), "no repeated edge");
        prop_assert_eq!(got.into_iter().collect::<std::collections::BTreeSet<_>>(), expected);
        prop_assert_eq!(q.initial().as_u32(), image(lts.initial()));
    }

    #[test]
    fn error_marker_survives_minimisation(l in arb_lts_with(config().with_error_state(true))) {
        let min = minimize_strong(&l);
        let reachable_error = l.error_state().filter(|e| guarantor_lts::ops::reachable_states(&l).contains(e.index()));
        prop_assert_eq!(min.error_state().is_some(), reachable_error.is_some());
    }
}
