//! Property tests for determinisation and DFA minimisation against brute-force trace enumeration and
//! a naive Moore-style minimiser.
#![cfg(feature = "proptest")]

mod ops_support;

use std::collections::BTreeMap;

use guarantor_lts::ops::{determinize, determinize_with_limit, language_included, minimize_dfa};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_lts_with};
use guarantor_lts::{Lts, LtsError, StateId};
use ops_support::{accepted, executable, names, plain, words};
use proptest::prelude::*;

const K: usize = 6;

fn config(accepting: bool) -> LtsStrategyConfig {
    LtsStrategyConfig::new(5, &["a", "b", "c"])
        .with_max_transitions(10)
        .with_accepting(accepting)
}

/// The number of Myhill–Nerode classes among the reachable states of a deterministic LTS, by naive
/// Moore refinement over the explicitly completed automaton (an extra sink state `n`). States that
/// are equivalent to the sink are not counted; if the initial state is, the answer is 1.
fn moore_size(dfa: &Lts) -> usize {
    let n = dfa.num_states();
    let sigma: Vec<_> = dfa.alphabet().visible().collect();
    let succ = |s: usize, a| {
        if s == n {
            n
        } else {
            dfa.successors(StateId::must(s), a)
                .next()
                .map_or(n, StateId::index)
        }
    };
    // (error?, accepting?); the sink is a non-error rejecting state.
    let initial_class = |s: usize| {
        if s == n {
            0
        } else {
            usize::from(dfa.is_accepting(StateId::must(s)))
                + 2 * usize::from(dfa.is_error(StateId::must(s)))
        }
    };
    let mut class: Vec<usize> = (0..=n).map(initial_class).collect();
    loop {
        let mut ids = BTreeMap::new();
        let next: Vec<usize> = (0..=n)
            .map(|s| {
                // The error state is absorbing: its successors do not matter.
                let sig: Vec<usize> = if s < n && dfa.is_error(StateId::must(s)) {
                    Vec::new()
                } else {
                    sigma.iter().map(|&a| class[succ(s, a)]).collect()
                };
                let len = ids.len();
                *ids.entry((class[s], sig)).or_insert(len)
            })
            .collect();
        let stable = ids.len()
            == class
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len();
        class = next;
        if stable {
            break;
        }
    }
    let reach = guarantor_lts::ops::reachable_states(dfa);
    let sink = class[n];
    let live: std::collections::BTreeSet<_> = reach
        .iter()
        .map(|s| class[s])
        .filter(|&c| c != sink)
        .collect();
    live.len().max(1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn determinize_preserves_accepted_language(lts in arb_lts_with(config(false)), fsm in arb_lts_with(config(true))) {
        for l in [&lts, &fsm] {
            let dfa = determinize(l).unwrap();
            prop_assert!(dfa.is_deterministic());
            prop_assert_eq!(names(&dfa), names(l));
            prop_assert_eq!(accepted(&dfa, K), accepted(l, K));
            prop_assert_eq!(language_included(l, &dfa).unwrap(), None);
            prop_assert_eq!(language_included(&dfa, l).unwrap(), None);
        }
    }

    #[test]
    fn minimize_preserves_language_and_is_minimal(
        lts in arb_lts_with(config(false)),
        fsm in arb_lts_with(config(true)),
        err in arb_lts_with(config(false).with_error_state(true)),
        err_fsm in arb_lts_with(config(true).with_error_state(true)),
    ) {
        for l in [&lts, &fsm, &err, &err_fsm] {
            let dfa = determinize(l).unwrap();
            let min = minimize_dfa(&dfa).unwrap();
            prop_assert!(min.is_deterministic());
            prop_assert_eq!(accepted(&min, K), accepted(&dfa, K));
            prop_assert_eq!(language_included(&min, &dfa).unwrap(), None);
            prop_assert_eq!(language_included(&dfa, &min).unwrap(), None);
            // The error state is reached by the same traces.
            let sigma = names(l);
            let errors = |x: &Lts| -> Vec<_> {
                executable(&plain(x), &sigma, K).into_iter()
                    .filter(|(_, set)| set.iter().any(|&s| x.is_error(StateId::must(s))))
                    .map(|(t, _)| t).collect()
            };
            prop_assert_eq!(errors(&min), errors(&dfa));
            prop_assert!(min.num_states() <= dfa.num_states());
            prop_assert_eq!(min.num_states(), moore_size(&dfa));
            let again = minimize_dfa(&min).unwrap();
            prop_assert_eq!((again.num_states(), again.num_transitions()), (min.num_states(), min.num_transitions()));
        }
    }

    #[test]
    fn determinize_collapses_error_subsets(l in arb_lts_with(config(false).with_error_state(true))) {
        let dfa = determinize(&l).unwrap();
        let sigma = names(&l);
        let original = executable(&plain(&l), &sigma, K);
        let det = executable(&plain(&dfa), &sigma, K);
        let error = l.error_state().map(StateId::index);
        let hits_error = |set: &ops_support::States| error.is_some_and(|e| set.contains(&e));
        for w in words(&sigma, K) {
            // The result executes w iff the input does and no proper prefix could reach the error.
            let blocked_before = (0..w.len()).any(|i| original.get(&w[..i]).is_some_and(hits_error));
            let expect = original.contains_key(&w) && !blocked_before;
            prop_assert_eq!(det.contains_key(&w), expect, "trace {:?}", w);
            if let Some(set) = det.get(&w) {
                let s = *set.iter().next().unwrap();
                prop_assert_eq!(set.len(), 1);
                prop_assert_eq!(dfa.is_error(StateId::must(s)), hits_error(&original[&w]));
            }
        }
    }

    #[test]
    fn fast_path_for_deterministic_input_matches_subset_construction(p in arb_deterministic_property(6, &["a", "b", "c"])) {
        // An unreachable state with a tau loop makes the LTS nondeterministic without changing
        // its reachable subsets, forcing the general construction.
        let mut b = p.to_builder();
        let extra = b.add_state().unwrap();
        b.add_transition_named(extra, "tau", extra).unwrap();
        let forced = b.build().unwrap();
        prop_assert!(!forced.is_deterministic());
        prop_assert_eq!(determinize(&p).unwrap(), determinize(&forced).unwrap());
    }

    #[test]
    fn determinize_limit_is_exact(l in arb_lts_with(config(false))) {
        let size = determinize(&l).unwrap().num_states();
        prop_assert_eq!(determinize_with_limit(&l, size).unwrap().num_states(), size);
        prop_assert_eq!(determinize_with_limit(&l, size - 1).unwrap_err(), LtsError::StateLimit { limit: size - 1 });
    }

    #[test]
    fn minimize_rejects_nondeterminism(l in arb_lts_with(config(false))) {
        let result = minimize_dfa(&l);
        prop_assert_eq!(result.is_err(), !l.is_deterministic());
        if let Err(e) = result {
            let is_not_deterministic = matches!(e, LtsError::NotDeterministic { .. });
            prop_assert!(is_not_deterministic);
        }
    }
}
