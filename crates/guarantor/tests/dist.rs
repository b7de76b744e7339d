//! The distributed engine chosen like any other method: `guarantor_dist::Distributed` given to a
//! [`Checker`], or the registry's `dist`, agrees with the monolithic check (verdict, counts, the
//! counterexample's length) and certifies its `holds` as the monolithic search's.
#![cfg(feature = "dist")]

use guarantor::Checker;
use guarantor::dist::{DistConfig, Distributed};
use guarantor::lts::Lts;

fn order(eager: bool) -> Checker {
    let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)]).unwrap();
    let output = if eager {
        Lts::from_edges([
            (0, "send", 1),
            (1, "output", 2),
            (2, "output", 3),
            (3, "ack", 0),
        ])
    } else {
        Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])
    }
    .unwrap();
    let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)]).unwrap();
    Checker::new()
        .component("Input", input)
        .component("Output", output)
        .property("Order", order)
}

#[test]
fn distributed_agrees_with_mono_on_holds_and_violated() {
    for eager in [false, true] {
        let mono = order(eager).check().unwrap();
        for workers in [1, 3] {
            let dist = Distributed::new(DistConfig::default().with_workers(workers));
            let outcome = order(eager).with_method(dist).check().unwrap();
            assert_eq!(outcome.method, "dist");
            assert_eq!(outcome.verdict.is_holds(), mono.verdict.is_holds());
            assert_eq!(outcome.violated, mono.violated);
            let len = |o: &guarantor::Outcome| o.verdict.counterexample().map(|c| c.trace.len());
            assert_eq!(len(&outcome), len(&mono));
            if mono.verdict.is_holds() {
                assert_eq!(
                    (outcome.states, outcome.transitions),
                    (mono.states, mono.transitions)
                );
            }
            assert!(outcome.counter("process_0_states").is_some());
        }
    }
}

#[test]
fn the_registry_names_it_and_its_holds_is_certified() {
    let method = guarantor::registry::method_named("dist").expect("dist is built in");
    let checker = order(false).with_method(method);
    let outcome = checker.check().unwrap();
    assert!(outcome.verdict.is_holds());
    let certificate = checker.certificate(&outcome).unwrap();
    let verdict = guarantor::certify::check(&certificate, &checker.certify_model()).unwrap();
    assert!(verdict.is_accepted(), "{verdict:?}");
}

#[test]
fn a_budget_says_which() {
    let err = order(false)
        .config(guarantor::compose::Config::default().with_max_states(2))
        .with_method(Distributed::default())
        .check()
        .unwrap_err();
    assert_eq!(err.budget_kind(), Some(guarantor::BudgetKind::States));
}
