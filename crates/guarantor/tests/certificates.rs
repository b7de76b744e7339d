//! Certificates over random systems: every built-in method's verdict on a random system (with
//! `ERROR` states, tau steps, one or two properties) becomes a certificate that
//! `guarantor-certify`'s checker accepts: a `holds` by its rule, a `violated` as a run it replays.

use std::time::Duration;

use guarantor::compose::Config;
use guarantor::lts::Lts;
use guarantor::lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor::registry::BUILTIN;
use guarantor::{CheckError, Checker};
use proptest::prelude::*;

const POOL: [&str; 4] = ["a", "b", "c", "d"];

fn checker(system: &[Lts], properties: &[Lts]) -> Checker {
    let mut checker =
        Checker::new().config(Config::default().with_timeout(Duration::from_secs(10)));
    for (i, lts) in system.iter().enumerate() {
        checker = checker.component(format!("M{i}"), lts.clone());
    }
    for (i, lts) in properties.iter().enumerate() {
        checker = checker.property(format!("P{i}"), lts.clone());
    }
    checker
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_methods_verdict_has_a_certificate_certify_accepts(
        system in arb_system_with(
            3,
            LtsStrategyConfig::new(3, &POOL).with_max_transitions(6).with_error_state(true),
        ),
        properties in proptest::collection::vec(arb_deterministic_property(2, &POOL[..3]), 1..=2),
    ) {
        let base = checker(&system, &properties);
        for entry in BUILTIN {
            let checker = base.clone().with_method(entry.make());
            let outcome = match checker.check() {
                Ok(outcome) => outcome,
                // Budgets and settings a method refuses (a split on one component) are not
                // verdicts.
                Err(CheckError::Method(_)) => continue,
                Err(e) if e.is_budget() => continue,
                Err(e) => return Err(TestCaseError::fail(format!("{}: {e}", entry.name))),
            };
            let cert = checker
                .certificate(&outcome)
                .map_err(|e| TestCaseError::fail(format!("{}: no certificate: {e}", entry.name)))?;
            let json = cert.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let report = checker
                .verify_json(&json)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", entry.name)))?;
            prop_assert!(
                report.is_accepted(),
                "{} ({}): {:?}\n{json}",
                entry.name,
                outcome.method,
                report.rejection()
            );
        }
    }
}
