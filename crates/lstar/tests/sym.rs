//! Rule SYM (Chaki et al. 2004, Rule 2): the Cobleigh example, and random systems checked against
//! the monolithic checker, with counterexamples replayed and all three premises of every
//! certificate re-checked independently (premise 3 by enumerating short words with `replay`).

mod common;

use common::{agrees_with_mono, arb_learner, input, lts, order};
use guarantor_compose::{Config, Verdict, check_triple, replay::replay};
use guarantor_lstar::ag::{AgConfig, AgReport, check_sym, check_sym_n};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{arb_deterministic_property, arb_system};
use proptest::prelude::*;

/// Every word over `interface` of length at most `max_len`.
fn words(interface: &[String], max_len: usize) -> Vec<Vec<String>> {
    let mut all = vec![Vec::new()];
    let mut layer = vec![Vec::new()];
    for _ in 0..max_len {
        layer = layer
            .iter()
            .flat_map(|w: &Vec<String>| {
                interface.iter().map(move |a| {
                    let mut v = w.clone();
                    v.push(a.clone());
                    v
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

fn recheck(m1: &Lts, m2: &Lts, p: &Lts, report: &AgReport) -> Result<(), TestCaseError> {
    agrees_with_mono(&[m1, m2], p, &report.verdict)?;
    if let Verdict::Holds(cert) = &report.verdict {
        let (a1, a2) = (&cert.assumptions[0].lts, &cert.assumptions[1].lts);
        prop_assert!(
            check_triple(a1, m1, p, &Config::default())
                .unwrap()
                .verdict
                .is_holds()
        );
        prop_assert!(
            check_triple(a2, m2, p, &Config::default())
                .unwrap()
                .verdict
                .is_holds()
        );
        for w in words(&report.interface, 4) {
            let outside_both = replay(&[a1], &w).is_err() && replay(&[a2], &w).is_err();
            prop_assert!(
                !outside_both || replay(&[p], &w).is_ok(),
                "premise 3 fails on {:?}",
                w
            );
        }
    }
    Ok(())
}

#[test]
fn cobleigh_example_holds_under_sym() {
    let output = lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)]);
    let output_prime = lts(&[
        (0, "send", 1),
        (1, "send", 1),
        (1, "output", 2),
        (2, "ack", 0),
    ]);
    for m2 in [output, output_prime] {
        let report = check_sym(&input(), &m2, &order(), &AgConfig::default()).unwrap();
        recheck(&input(), &m2, &order(), &report).unwrap();
        assert!(report.verdict.is_holds());
        assert_eq!(report.interface, ["input", "send", "ack", "output"]);
    }
}

#[test]
fn an_eager_output_is_caught_under_sym() {
    let eager = lts(&[
        (0, "send", 1),
        (0, "output", 2),
        (1, "output", 2),
        (2, "ack", 0),
    ]);
    let report = check_sym(&input(), &eager, &order(), &AgConfig::default()).unwrap();
    assert!(report.verdict.is_violated());
    recheck(&input(), &eager, &order(), &report).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn sym_agrees_with_the_monolithic_check(
        sys in arb_system(2, 4, &["a", "b", "c", "d"]).prop_filter("two components", |s| s.len() == 2),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
        config in arb_learner(),
    ) {
        let report = check_sym(&sys[0], &sys[1], &p, &config).unwrap();
        recheck(&sys[0], &sys[1], &p, &report)?;
    }
}

/// Re-checks an n-way SYM report: the verdict, the counterexample, and all premises.
fn recheck_n(parts: &[&Lts], p: &Lts, report: &AgReport) -> Result<(), TestCaseError> {
    agrees_with_mono(parts, p, &report.verdict)?;
    if let Verdict::Holds(cert) = &report.verdict {
        prop_assert_eq!(cert.assumptions.len(), parts.len());
        for (a, m) in cert.assumptions.iter().zip(parts) {
            prop_assert!(
                check_triple(&a.lts, m, p, &Config::default())
                    .unwrap()
                    .verdict
                    .is_holds()
            );
        }
        for w in words(&report.interface, 3) {
            let outside_all = cert
                .assumptions
                .iter()
                .all(|a| replay(&[&a.lts], &w).is_err());
            prop_assert!(
                !outside_all || replay(&[p], &w).is_ok(),
                "last premise fails on {:?}",
                w
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn n_way_sym_agrees_with_the_monolithic_check(
        sys in arb_system(3, 3, &["a", "b", "c", "d"]).prop_filter("three components", |s| s.len() == 3),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
        config in arb_learner(),
    ) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let report = check_sym_n(&parts, &p, &config).unwrap();
        recheck_n(&parts, &p, &report)?;
    }
}
