//! Property tests of the safety check against the naive reference: every "holds" is confirmed by
//! an explicit product, every counterexample replays (in the crate's replay and in the naive
//! product) and ends in a violation, and counterexamples are shortest.

mod common;

use std::time::Instant;

use common::{Member, Naive};
use guarantor_compose::replay::{replay, violates};
use guarantor_compose::{ComposeError, Config, Verdict, Violation, check_safety, find_deadlock};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c"];

fn naive_with_properties<'a>(comps: &[&'a Lts], props: &[&'a Lts]) -> Naive<'a> {
    let members = comps
        .iter()
        .map(|&c| Member::Component(c))
        .chain(props.iter().map(|&p| Member::Property(p)))
        .collect();
    Naive::new(members)
}

fn case(tau: bool) -> impl Strategy<Value = (Vec<Lts>, Vec<Lts>)> {
    let comps = arb_system_with(
        3,
        LtsStrategyConfig::new(4, POOL)
            .with_tau(tau)
            .with_error_state(true),
    );
    let props = proptest::collection::vec(
        prop_oneof![
            arb_deterministic_property(3, &["a", "b"]),
            arb_deterministic_property(3, &["c"])
        ],
        0..=2,
    );
    (comps, props)
}

/// Checks a verdict against the naive reference; returns the counterexample length, if any.
fn confirm(comps: &[&Lts], props: &[&Lts]) -> Result<Option<(usize, usize)>, TestCaseError> {
    let report = check_safety(comps, props, &Config::default()).unwrap();
    let naive = naive_with_properties(comps, props);
    let shortest = naive.shortest_failure();
    match &report.verdict {
        Verdict::Holds(cert) => {
            prop_assert!(cert.assumptions.is_empty());
            prop_assert_eq!(shortest, None, "holds, but the naive product fails");
            let (states, _) = naive.explore();
            prop_assert_eq!(report.stats.states, states.len());
            Ok(None)
        }
        Verdict::Violated(cex) => {
            let Some(depth) = shortest else {
                return Err(TestCaseError::fail(
                    "violated, but the naive product never fails",
                ));
            };
            prop_assert_eq!(replay(comps, &cex.trace), Ok(()));
            for c in comps {
                prop_assert_eq!(replay(&[*c], &cex.trace), Ok(()));
            }
            prop_assert!(violates(comps, props, &cex.trace).unwrap());
            let (reached, failed) = naive.run(&cex.trace);
            prop_assert!(
                reached.is_ok() && failed,
                "naive replay: {:?}",
                reached.err()
            );
            match cex.violation {
                Violation::Property { property } => prop_assert!(property.index() < props.len()),
                Violation::ErrorState { component } => {
                    prop_assert!(component.index() < comps.len());
                }
                other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
            }
            Ok(Some((cex.trace.len(), depth)))
        }
        other => Err(TestCaseError::fail(format!("unknown verdict {other:?}"))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn verdicts_agree_with_naive_product_and_counterexamples_replay((sys, props) in case(true)) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let props: Vec<&Lts> = props.iter().collect();
        if let Some((len, depth)) = confirm(&comps, &props)? {
            prop_assert!(len <= depth, "visible length {} > shortest run {}", len, depth);
        }
    }

    #[test]
    fn counterexamples_are_shortest_without_tau((sys, props) in case(false)) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let props: Vec<&Lts> = props.iter().collect();
        if let Some((len, depth)) = confirm(&comps, &props)? {
            prop_assert_eq!(len, depth);
        }
    }

    #[test]
    fn budgets_end_in_typed_errors((sys, props) in case(true), limit in 1usize..4) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let props: Vec<&Lts> = props.iter().collect();
        let past = Config::default().with_deadline(Instant::now());
        prop_assert_eq!(check_safety(&comps, &props, &past).unwrap_err(), ComposeError::Deadline);
        let full = check_safety(&comps, &props, &Config::default()).unwrap();
        let bounded = check_safety(&comps, &props, &Config::default().with_max_states(limit));
        match bounded {
            Err(e) => {
                prop_assert_eq!(&e, &ComposeError::StateLimit { limit });
                prop_assert!(e.is_budget());
                prop_assert!(full.stats.states > limit);
            }
            // A violation may be found before the budget is reached; then it is the same one.
            Ok(r) => prop_assert_eq!(r.verdict, full.verdict),
        }
    }

    #[test]
    fn deadlocks_agree_with_naive_product(sys in arb_system_with(3, LtsStrategyConfig::new(4, POOL).with_error_state(true))) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let naive = Naive::components(&comps);
        let (states, _) = naive.explore();
        let stuck = states.iter().any(|t| naive.failed(t).is_none() && naive.moves(t).is_empty());
        let found = find_deadlock(&comps, &Config::default()).unwrap();
        prop_assert_eq!(found.is_some(), stuck);
        if let Some(cex) = found {
            prop_assert_eq!(cex.violation, Violation::Deadlock);
            let (reached, _) = naive.run(&cex.trace);
            let reached = reached.map_err(|i| TestCaseError::fail(format!("refused at {i}")))?;
            prop_assert!(reached.iter().any(|t| naive.failed(t).is_none() && naive.moves(t).is_empty()));
        }
    }
}
