//! Property tests for trace membership and language inclusion against brute-force enumeration.
#![cfg(feature = "proptest")]

mod ops_support;

use guarantor_lts::ops::{
    accepts_trace, accepts_trace_named, is_trace, language_included, language_included_with_limit,
};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
use guarantor_lts::{ActionId, LtsError};
use ops_support::{naive_accepts, names, plain, words};
use proptest::prelude::*;

const K: usize = 6;

fn config(actions: &[&str]) -> LtsStrategyConfig {
    LtsStrategyConfig::new(4, actions).with_max_transitions(8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn membership_agrees_with_brute_force(l in arb_lts_with(config(&["a", "b"]).with_accepting(true).with_error_state(true))) {
        for w in words(&names(&l), K) {
            let refs: Vec<&str> = w.iter().map(String::as_str).collect();
            let ids: Vec<ActionId> = w.iter().map(|n| l.alphabet().get(n).unwrap()).collect();
            prop_assert_eq!(accepts_trace_named(&l, &refs), naive_accepts(&l, &w));
            prop_assert_eq!(accepts_trace(&l, &ids), naive_accepts(&l, &w));
            prop_assert_eq!(is_trace(&l, &ids), !plain(&l).run(&w).is_empty());
        }
        prop_assert!(!accepts_trace_named(&l, &["undeclared"]));
    }

    #[test]
    fn inclusion_agrees_with_brute_force(
        a in arb_lts_with(config(&["a", "b"])),
        b in arb_lts_with(config(&["a", "b"])),
        fa in arb_lts_with(config(&["a", "b"]).with_accepting(true)),
        fb in arb_lts_with(config(&["a", "b"]).with_accepting(true)),
        narrow in arb_lts_with(config(&["a"])),
    ) {
        for (x, y) in [(&a, &b), (&fa, &fb), (&a, &fb), (&fa, &b), (&a, &narrow), (&narrow, &a)] {
            let sigma = names(x);
            let shortest_bad = words(&sigma, K)
                .into_iter()
                .find(|w| naive_accepts(x, w) && !naive_accepts(y, w));
            match language_included(x, y).unwrap() {
                None => prop_assert_eq!(shortest_bad, None),
                Some(cex) => {
                    prop_assert!(naive_accepts(x, &cex), "{:?} not accepted by a", cex);
                    prop_assert!(!naive_accepts(y, &cex), "{:?} accepted by b", cex);
                    match shortest_bad {
                        Some(w) => prop_assert_eq!(cex.len(), w.len()),
                        None => prop_assert!(cex.len() > K),
                    }
                }
            }
        }
    }

    #[test]
    fn inclusion_is_reflexive(l in arb_lts_with(config(&["a", "b"]).with_accepting(true))) {
        prop_assert_eq!(language_included(&l, &l).unwrap(), None);
    }
}

#[test]
fn inclusion_limit_is_reported() {
    use guarantor_lts::LtsBuilder;
    let mut b = LtsBuilder::new();
    let s: Vec<_> = (0..4).map(|_| b.add_state().unwrap()).collect();
    for i in 0..3 {
        b.add_transition_named(s[i], "a", s[i + 1]).unwrap();
    }
    let chain = b.build().unwrap();
    assert_eq!(
        language_included_with_limit(&chain, &chain, 2).unwrap_err(),
        LtsError::StateLimit { limit: 2 }
    );
    assert_eq!(
        language_included_with_limit(&chain, &chain, 4).unwrap(),
        None
    );
}
