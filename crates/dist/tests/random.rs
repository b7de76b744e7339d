//! Random small systems checked by the distributed engine on 1, 2 and 3 workers against the
//! monolithic `check_system` (breadth first): the same verdict, the same counts when the system
//! holds, a shortest counterexample that replays in every component, and the same counterexample
//! for every worker count.

use guarantor_compose::replay::{replay, violates};
use guarantor_compose::{Config, SystemOptions, Verdict, Violation, check_system};
use guarantor_dist::{DistConfig, DistReport, check_distributed};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c"];

/// Components (with tau or not, some with `ERROR`), up to two properties, and per component
/// whether state 0 is its end state (`None`: no deadlock check).
fn case(tau: bool) -> impl Strategy<Value = (Vec<Lts>, Vec<Lts>, Option<Vec<bool>>)> {
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
    let ends = proptest::option::of(proptest::collection::vec(any::<bool>(), 3));
    (comps, props, ends)
}

fn options(comps: usize, ends: Option<&Vec<bool>>) -> SystemOptions {
    match ends {
        None => SystemOptions::default(),
        Some(ends) => SystemOptions::default().with_deadlock(
            (0..comps)
                .map(|i| {
                    ends.get(i)
                        .copied()
                        .unwrap_or(false)
                        .then(|| StateId::must(0))
                })
                .collect(),
        ),
    }
}

/// Runs the comparison; `exact_length`: the counterexample has as many visible actions as the
/// monolithic one (true when no component has tau steps).
fn compare(
    sys: &[Lts],
    props: &[Lts],
    ends: Option<&Vec<bool>>,
    exact_length: bool,
) -> Result<(), TestCaseError> {
    let comps: Vec<&Lts> = sys.iter().collect();
    let props: Vec<&Lts> = props.iter().collect();
    let options = options(comps.len(), ends);
    let mono = check_system(&comps, &props, &options, &Config::default()).unwrap();
    let mut first: Option<DistReport> = None;
    for workers in 1..=3 {
        let dist = DistConfig::default().with_workers(workers);
        let report =
            check_distributed(&comps, &props, &options, &Config::default(), &dist).unwrap();
        match (&mono.verdict, &report.verdict) {
            (Verdict::Holds(_), Verdict::Holds(_)) => prop_assert_eq!(report.stats, mono.stats),
            (Verdict::Violated(m), Verdict::Violated(d)) => {
                prop_assert_eq!(
                    m.violation == Violation::Deadlock,
                    d.violation == Violation::Deadlock
                );
                if exact_length {
                    prop_assert_eq!(m.trace.len(), d.trace.len());
                }
                prop_assert_eq!(replay(&comps, &d.trace), Ok(()));
                for c in &comps {
                    prop_assert_eq!(replay(&[*c], &d.trace), Ok(()));
                }
                if d.violation != Violation::Deadlock {
                    prop_assert!(violates(&comps, &props, &d.trace).unwrap());
                }
            }
            (m, d) => {
                return Err(TestCaseError::fail(format!(
                    "verdicts differ: {m:?} vs {d:?}"
                )));
            }
        }
        match &first {
            None => first = Some(report),
            Some(one) => {
                prop_assert_eq!(&one.verdict, &report.verdict, "{} workers", workers);
                prop_assert_eq!(one.stats, report.stats, "{} workers", workers);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn agrees_with_check_system_without_tau((sys, props, ends) in case(false)) {
        compare(&sys, &props, ends.as_ref(), true)?;
    }

    #[test]
    fn agrees_with_check_system_with_tau((sys, props, ends) in case(true)) {
        compare(&sys, &props, ends.as_ref(), false)?;
    }
}
