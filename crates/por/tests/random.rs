//! Differential property tests: on random systems of 1 to 5 small components (tau moves, shared
//! and own actions, end states, `ERROR` states), zero to two properties and deadlocks asked or
//! not, the stubborn-set search finds a violation exactly when the monolithic search does, its
//! run replays in every component, and a `holds` never visits more states than the monolithic
//! search.

use guarantor_compose::replay::replay;
use guarantor_compose::strategy::arb_problem;
use guarantor_compose::{Config, Method, MethodError, Monolithic, Problem};
use guarantor_lts::Lts;
use guarantor_por::Por;
use proptest::prelude::*;

const POOL: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn por_finds_a_violation_exactly_when_the_monolithic_search_does(problem in arb_problem(&POOL, &["a", "b", "z"])) {
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

/// Action priority is refused with a typed error, never answered.
#[test]
fn priority_is_refused() {
    let lts = Lts::from_edges([(0, "a", 0)]).unwrap();
    let problem = Problem::new()
        .with_component("A", lts)
        .with_deadlock(true)
        .with_priority(Some(guarantor_compose::Priority::low(["a"])));
    let err = Por::new().check(&problem, &Config::default()).unwrap_err();
    assert!(matches!(err, MethodError::Unsupported { .. }), "{err}");
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
