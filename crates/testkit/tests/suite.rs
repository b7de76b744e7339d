//! The data-driven suite: every case of testdata/manifest.toml against every method of the facade.
//!
//! Adding a method to `guarantor::Method` means adding it to `METHODS` here; adding a model means
//! adding a case to the manifest. Each run checks the verdict and re-checks the evidence. Each
//! (case, method) pair runs under a time budget; a pair that runs out must be listed in the case's
//! `slow` field (with the reason in the manifest), so that a method getting slower fails the suite
//! instead of hiding.

use std::time::{Duration, Instant};

use guarantor::compose::{Config, Verdict};
use guarantor::{Checker, Method};
use guarantor_testkit::{Case, Expected, check_verdict_evidence, load_manifest};

const METHODS: &[Method] = &[
    Method::Monolithic,
    Method::Lstar,
    Method::LstarSym,
    Method::LstarNway,
    Method::Quotient,
    Method::Circ,
    Method::Auto,
];

/// Per (case, method): generous for debug builds on a loaded 2-core machine.
const BUDGET: Duration = Duration::from_secs(20);

fn checker_for(case: &Case, method: Method) -> Checker {
    let mut checker = Checker::new()
        .method(method)
        .config(Config::default().with_timeout(BUDGET));
    for (name, lts) in &case.components {
        checker = checker.component(name.clone(), lts.clone());
    }
    for (name, lts) in &case.properties {
        checker = checker.property(name.clone(), lts.clone());
    }
    checker
}

fn run_case(case: &Case, method: Method) {
    let label = format!("{} with {}", case.name, method.name());
    if case.slow.iter().any(|m| m == method.name()) {
        eprintln!("{label}: skipped (listed as slow in the manifest)");
        return;
    }
    let started = Instant::now();
    let outcome = checker_for(case, method)
        .check()
        .unwrap_or_else(|e| panic!("{label}: {e} after {:?}", started.elapsed()));
    eprintln!("{label}: {:?}", started.elapsed());
    let got = if outcome.verdict.is_holds() {
        Expected::Holds
    } else {
        Expected::Violated
    };
    assert_eq!(got, case.expected, "{label}");
    check_verdict_evidence(
        &case.component_refs(),
        &case.property_refs(),
        &outcome.verdict,
    )
    .unwrap_or_else(|e| panic!("{label}: {e}"));
    if let (Verdict::Violated(cex), Some(len), Method::Monolithic) =
        (&outcome.verdict, case.counterexample_len, method)
    {
        // Breadth-first search finds a shortest counterexample; other methods need not.
        assert_eq!(cex.trace.len(), len, "{label}: counterexample length");
    }
    if let (Method::Monolithic, Some(states)) = (method, case.states) {
        assert_eq!(outcome.states, states, "{label}: explored states");
    }
}

#[test]
fn every_method_agrees_with_the_manifest() {
    let cases = load_manifest("testdata/manifest.toml").expect("manifest loads");
    assert!(cases.len() >= 2, "the manifest lost its cases");
    for case in &cases {
        for &method in METHODS {
            run_case(case, method);
        }
    }
}
