//! `lstar` answering the deadlock question itself, through the facade: on random systems (with
//! `ERROR` states, tau steps, end states, zero to two properties) its verdict with deadlocks on
//! is the monolithic check's, a violation's certificate replays, and a `holds` certificate is
//! accepted by `guarantor-certify`, which reports deadlock freedom proved whenever `lstar` ran
//! the deadlock rule (its certificate then carries the failure assumption).

use std::time::Duration;

use guarantor::compose::Config;
use guarantor::lts::strategy::{
    LtsStrategyConfig, arb_deterministic_property, arb_system_with_ends,
};
use guarantor::lts::{Lts, StateId};
use guarantor::{Checker, MethodKind};
use proptest::prelude::*;

const POOL: [&str; 4] = ["a", "b", "c", "d"];

fn checker(system: &[(Lts, Option<StateId>)], properties: &[Lts]) -> Checker {
    let mut checker = Checker::new()
        .config(Config::default().with_timeout(Duration::from_secs(10)))
        .deadlock(true);
    for (i, (lts, end)) in system.iter().enumerate() {
        checker = checker.component_with_end(format!("M{i}"), lts.clone(), *end);
    }
    for (i, lts) in properties.iter().enumerate() {
        checker = checker.property(format!("P{i}"), lts.clone());
    }
    checker
}

fn system() -> impl Strategy<Value = Vec<(Lts, Option<StateId>)>> {
    arb_system_with_ends(3, LtsStrategyConfig::new(4, &POOL).with_error_state(true))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn lstar_answers_deadlocks_as_mono_does_with_certificates_certify_accepts(
        system in system(),
        properties in proptest::collection::vec(arb_deterministic_property(2, &POOL[..3]), 0..=2),
    ) {
        let base = checker(&system, &properties);
        let mono = base.clone().method(MethodKind::Monolithic).check().unwrap();
        let lstar = base.clone().method(MethodKind::Lstar);
        let outcome = lstar.check().unwrap();
        prop_assert_eq!(outcome.verdict.is_holds(), mono.verdict.is_holds(), "{:?}", outcome.verdict);
        prop_assert_eq!(outcome.phases.len(), 1, "lstar answers the whole question in one phase");
        let cert = lstar.certificate(&outcome).unwrap();
        let json = cert.to_json().unwrap();
        let report = lstar.verify_json(&json).unwrap();
        prop_assert!(report.is_accepted(), "{:?}\n{json}", report.rejection());
        let rule_ran = outcome
            .verdict
            .certificate()
            .is_some_and(|c| !c.failures.is_empty());
        prop_assert_eq!(report.deadlock_free, rule_ran);
        if system.len() > 1 && outcome.verdict.is_holds() {
            // Two groups, no property action outside the components: the rule ran.
            let free = properties.iter().any(|p| {
                p.alphabet().iter().any(|(_, a)| system.iter().all(|(c, _)| !c.alphabet().contains(a)))
            });
            // An ERROR in the second group (all but the first component) makes the check
            // monolithic.
            let error_after_first = system[1..].iter().any(|(c, _)| c.error_state().is_some());
            prop_assert_eq!(rule_ran, !free && !error_after_first);
        }
    }
}
