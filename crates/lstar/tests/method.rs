//! The method values (`Asym`, `AsymN`, `AsymWeakest`, `Sym`) run on whole problems: named
//! components with `ERROR` states, zero to two properties, tau. Each must give the monolithic
//! verdict, with a counterexample that is a run of the problem's components ending in the violation
//! it names (`first_violation`), and must refuse what it cannot decide.

use guarantor_compose::method::{Method, MethodError, Monolithic, Problem};
use guarantor_compose::replay::first_violation;
use guarantor_compose::{Config, Priority, Verdict};
use guarantor_lstar::{Asym, AsymN, AsymWeakest, Sym};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{ComponentId, Lts};
use proptest::collection::vec;
use proptest::prelude::*;

fn methods(components: usize) -> Vec<Box<dyn Method>> {
    let mut all: Vec<Box<dyn Method>> = vec![
        Box::new(Asym::new()),
        Box::new(AsymN::new()),
        Box::new(AsymWeakest::new()),
        Box::new(Sym::new()),
    ];
    if components > 2 {
        // A first group of two components.
        all.push(Box::new(
            Asym::new().with_split([ComponentId::must(0), ComponentId::must(2)]),
        ));
    }
    all
}

fn problem(components: &[Lts], properties: &[Lts]) -> Problem {
    let mut problem = Problem::new();
    for (i, c) in components.iter().enumerate() {
        problem.add_component(format!("M{i}"), c.clone());
    }
    for (i, p) in properties.iter().enumerate() {
        problem.add_property(format!("P{i}"), p.clone());
    }
    problem
}

fn system() -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        3,
        LtsStrategyConfig::new(3, &["a", "b", "c", "d"]).with_error_state(true),
    )
}

fn properties() -> impl Strategy<Value = Vec<Lts>> {
    vec(arb_deterministic_property(2, &["a", "b", "z"]), 0..=2)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_method_value_agrees_with_the_monolithic_check(sys in system(), ps in properties()) {
        let problem = problem(&sys, &ps);
        let mono = Monolithic::new().check(&problem, &Config::default()).unwrap();
        for method in methods(sys.len()) {
            let report = method.check(&problem, &Config::default()).unwrap();
            prop_assert_eq!(
                report.verdict.is_holds(),
                mono.verdict.is_holds(),
                "{} on {:?} / {:?}", method.name(), sys, ps
            );
            if let Verdict::Violated(cex) = &report.verdict {
                let found = first_violation(&problem.component_lts(), &problem.property_lts(), &cex.trace)
                    .unwrap();
                prop_assert_eq!(found, Some((cex.trace.len(), cex.violation)), "{}", method.name());
            }
        }
    }
}

#[test]
fn methods_refuse_priority_and_deadlock_and_bad_splits() {
    let m = Lts::from_edges([(0, "a", 0)]).unwrap();
    let two = problem(&[m.clone(), m.clone()], &[]);
    for method in methods(2) {
        // `lstar` answers deadlocks itself (tests/deadlock.rs); the others refuse them.
        if !method.searches_deadlocks() {
            let err = method
                .check(&two.clone().with_deadlock(true), &Config::default())
                .unwrap_err();
            assert!(matches!(err, MethodError::Unsupported { .. }), "{err}");
        }
        let prioritised = two.clone().with_priority(Some(Priority::high(["a"])));
        let err = method.check(&prioritised, &Config::default()).unwrap_err();
        assert!(matches!(err, MethodError::Unsupported { .. }), "{err}");
        let err = method
            .check(&Problem::new(), &Config::default())
            .unwrap_err();
        assert!(matches!(err, MethodError::BadSettings(_)), "{err}");
    }
    let all = Asym::new().with_split([ComponentId::must(0), ComponentId::must(1)]);
    assert!(matches!(
        all.check(&two, &Config::default()),
        Err(MethodError::BadSettings(_))
    ));
    let missing = Asym::new().with_split([ComponentId::must(5)]);
    assert!(matches!(
        missing.check(&two, &Config::default()),
        Err(MethodError::BadSettings(_))
    ));
}

#[test]
fn a_budget_is_a_budget_error() {
    let counter = Lts::from_edges([(0, "a", 1), (1, "a", 2), (2, "a", 0)]).unwrap();
    let p = Lts::from_edges([(0, "a", 0)]).unwrap();
    let problem = problem(&[counter.clone(), counter], &[p]);
    let past = Config::default().with_deadline(std::time::Instant::now());
    for method in methods(2) {
        let err = method.check(&problem, &past).unwrap_err();
        assert!(err.is_budget(), "{}: {err}", method.name());
    }
}
