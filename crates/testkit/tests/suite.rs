//! The data-driven suite: every case of testdata/manifest.toml against every method of the facade.
//!
//! Adding a method to `guarantor::Method` means adding it to `METHODS` here; adding a model means
//! adding a case to the manifest. Each run checks the verdict and re-checks the evidence.

use guarantor::compose::Verdict;
use guarantor::{Checker, Method};
use guarantor_testkit::{Expected, check_verdict_evidence, load_manifest};

const METHODS: &[Method] = &[Method::Monolithic];

#[test]
fn every_method_agrees_with_the_manifest() {
    let cases = load_manifest("testdata/manifest.toml").expect("manifest loads");
    assert!(cases.len() >= 2, "the manifest lost its cases");
    for case in &cases {
        for &method in METHODS {
            let mut checker = Checker::new().method(method);
            for (name, lts) in &case.components {
                checker = checker.component(name.clone(), lts.clone());
            }
            for (name, lts) in &case.properties {
                checker = checker.property(name.clone(), lts.clone());
            }
            let outcome = checker
                .check()
                .unwrap_or_else(|e| panic!("{} with {}: {e}", case.name, method.name()));
            let got = if outcome.verdict.is_holds() {
                Expected::Holds
            } else {
                Expected::Violated
            };
            assert_eq!(got, case.expected, "{} with {}", case.name, method.name());
            check_verdict_evidence(
                &case.component_refs(),
                &case.property_refs(),
                &outcome.verdict,
            )
            .unwrap_or_else(|e| panic!("{} with {}: {e}", case.name, method.name()));
            if let (Verdict::Violated(cex), Some(len)) = (&outcome.verdict, case.counterexample_len)
            {
                assert_eq!(cex.trace.len(), len, "{}: counterexample length", case.name);
            }
            if let (Method::Monolithic, Some(states)) = (method, case.states) {
                assert_eq!(outcome.states, states, "{}: explored states", case.name);
            }
        }
    }
}
