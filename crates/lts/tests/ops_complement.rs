//! Property tests for completion and complement, by brute force over all words up to length 5.
#![cfg(feature = "proptest")]

mod ops_support;

use guarantor_lts::ops::{complement, complete};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
use ops_support::{naive_accepts, names, words};
use proptest::prelude::*;

const K: usize = 5;

fn config() -> LtsStrategyConfig {
    LtsStrategyConfig::new(5, &["a", "b"]).with_max_transitions(10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn complement_flips_every_word(
        lts in arb_lts_with(config().with_error_state(true)),
        fsm in arb_lts_with(config().with_accepting(true).with_error_state(true)),
    ) {
        for l in [&lts, &fsm] {
            let c = complement(l).unwrap();
            prop_assert!(c.is_deterministic());
            prop_assert!(c.error_state().is_none());
            prop_assert_eq!(names(&c), names(l));
            for w in words(&names(l), K) {
                prop_assert_eq!(naive_accepts(&c, &w), !naive_accepts(l, &w), "word {:?}", w);
            }
            // Complementing twice gives back the language.
            let cc = complement(&c).unwrap();
            for w in words(&names(l), K) {
                prop_assert_eq!(naive_accepts(&cc, &w), naive_accepts(l, &w));
            }
        }
    }

    #[test]
    fn complete_keeps_the_language_and_is_total(
        lts in arb_lts_with(config().with_tau(false)),
        fsm in arb_lts_with(config().with_accepting(true)),
    ) {
        for l in [&lts, &fsm] {
            let c = complete(l).unwrap();
            prop_assert!(c.accepting_set().is_some());
            let sink_added = c.num_states() == l.num_states() + 1;
            prop_assert!(sink_added || c.num_states() == l.num_states());
            for s in c.states() {
                let visible = c.enabled(s).filter(|a| !a.is_tau()).count();
                prop_assert_eq!(visible, c.alphabet().len());
            }
            for w in words(&names(l), K) {
                prop_assert_eq!(naive_accepts(&c, &w), naive_accepts(l, &w), "word {:?}", w);
            }
        }
    }
}
