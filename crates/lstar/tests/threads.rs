//! The learning rules give the same answer on one thread and on several (issue 17): a teacher
//! answers a batch of membership queries concurrently ([`Teacher::memberships`]), in order, so the
//! verdict, the counterexample, the learned assumptions and every counter are those of the
//! one-thread run.
//!
//! [`Teacher::memberships`]: guarantor_lstar::Teacher::memberships

use std::num::NonZeroUsize;

use guarantor_compose::Config;
use guarantor_lstar::ag::{AgConfig, AgReport, check_asym, check_asym_n};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::prelude::*;

/// The config of a run on `threads` threads.
fn on(threads: usize) -> AgConfig {
    let threads = NonZeroUsize::new(threads).expect("at least one thread");
    AgConfig::default().with_compose(Config::default().with_threads(threads))
}

/// Everything a report says, in a form two runs can be compared by.
fn summary(report: &AgReport) -> String {
    format!(
        "{:?} {:?} {:?} {:?}",
        report.verdict, report.stats, report.assumption_sizes, report.interface
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn asym_is_the_same_on_one_two_and_four_threads(
        sys in arb_system_with(3, LtsStrategyConfig::new(4, &["a", "b", "c", "d"]).with_error_state(true)),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
    ) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let n_way = |threads| summary(&check_asym_n(&parts, &p, &on(threads)).unwrap());
        let one = n_way(1);
        prop_assert_eq!(&one, &n_way(2));
        prop_assert_eq!(&one, &n_way(4));
        if let [m1, m2, ..] = parts[..] {
            let two = |threads| summary(&check_asym(m1, m2, &p, &on(threads)).unwrap());
            let one = two(1);
            prop_assert_eq!(&one, &two(2));
            prop_assert_eq!(&one, &two(4));
        }
    }
}
