//! CIRC-AG_N gives the same answer on one thread and on several (issue 17): the premises of an
//! iteration are decided concurrently and taken in premise order, so the verdict, the
//! counterexample, the guarantees, the iteration count and every counter (premise checks, cache
//! hits, the largest product the loop took) are those of the one-thread run, in every mode, and a
//! state limit stops the same run at the same premise.

use std::num::NonZeroUsize;

use guarantor_circ::{
    CexPerIteration, Circ, CircConfig, CircReport, Decomposition, Policy, check_circ,
};
use guarantor_compose::{Config, Method, Problem};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::prelude::*;

const POOL: [&str; 5] = ["a", "b", "c", "d", "e"];

/// The modes whose premise loops differ: n-way and two-way, with and without alphabet
/// refinement, the neighbours policy, one counterexample per premise, the loop that stops at the
/// first failing premise (checked one by one), and the plain loop without reduction or cache.
fn modes() -> Vec<(&'static str, CircConfig)> {
    let base = CircConfig::default().with_max_iterations(2_000);
    vec![
        ("NW+AR", base.clone()),
        ("NW", base.clone().with_alphabet_refinement(false)),
        (
            "2W+AR",
            base.clone()
                .with_mode(Decomposition::TwoWay { first: None }),
        ),
        ("neighbours", base.clone().with_policy(Policy::Neighbours)),
        (
            "all premises",
            base.clone()
                .with_cex_per_iteration(CexPerIteration::AllPremises),
        ),
        (
            "first failing premise",
            base.clone().with_cex_per_iteration(CexPerIteration::One),
        ),
        (
            "plain",
            base.with_reduce_environments(false)
                .with_reuse_premises(false)
                .with_strong_constraints(false),
        ),
    ]
}

/// `config` with its composition budgets on `threads` threads (and at most `max_states`).
fn on(config: &CircConfig, threads: usize, max_states: Option<usize>) -> CircConfig {
    let threads = NonZeroUsize::new(threads).expect("at least one thread");
    let mut compose = Config::default().with_threads(threads);
    if let Some(limit) = max_states {
        compose = compose.with_max_states(limit);
    }
    config.clone().with_compose(compose)
}

/// Everything a report says but the times, in a form two runs can be compared by.
fn summary(report: &CircReport) -> String {
    format!(
        "{:?} iterations {} refinements {} sat {} k {} sizes {:?} constraints {} reused {} \
         rule {:?} premise checks {} cached {} largest {}",
        report.verdict,
        report.iterations,
        report.alphabet_refinements,
        report.sat_calls,
        report.max_k,
        report.assumption_sizes,
        report.constraints,
        report.reused_constraints,
        report.rule,
        report.premise_checks,
        report.cached_premises,
        report.largest_product,
    )
}

fn system() -> impl Strategy<Value = (Vec<Lts>, Lts)> {
    let comp = LtsStrategyConfig::new(3, &POOL)
        .with_max_transitions(5)
        .with_tau(true)
        .with_error_state(true);
    (
        arb_system_with(5, comp).prop_filter("two or more components", |s| s.len() >= 2),
        arb_deterministic_property(3, &POOL[..3]),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn circ_is_the_same_on_one_two_and_four_threads((comps, prop) in system()) {
        let refs: Vec<&Lts> = comps.iter().collect();
        let props = [&prop];
        for (name, config) in modes() {
            // Unlimited, and with a state limit that stops some runs at a premise: the outcome,
            // error included, is the one-thread run's.
            for max_states in [None, Some(6)] {
                let run = |threads| match check_circ(&refs, &props, &on(&config, threads, max_states)) {
                    Ok(report) => summary(&report),
                    Err(e) => format!("error: {e:?}"),
                };
                let one = run(1);
                prop_assert_eq!(&one, &run(2), "{} {:?}", name, max_states);
                prop_assert_eq!(&one, &run(4), "{} {:?}", name, max_states);
            }
        }
    }

    #[test]
    fn the_method_reports_the_same_on_one_and_two_threads((comps, prop) in system()) {
        let mut problem = Problem::new();
        for (k, c) in comps.into_iter().enumerate() {
            problem.add_component(format!("M{k}"), c);
        }
        problem.add_property("P", prop);
        let run = |threads| {
            let config = Config::default().with_threads(NonZeroUsize::new(threads).unwrap());
            let report = Circ::new().check(&problem, &config).unwrap();
            // `stats` is left out: it is the largest product the config's monitor saw, which may
            // include a premise a concurrent batch checked past the point where the loop stopped.
            format!("{:?} {:?}", report.verdict, report.counters)
        };
        let one = run(1);
        prop_assert_eq!(&one, &run(2));
        prop_assert_eq!(&one, &run(4));
    }
}
