//! Alphabet refinement for rule ASYM and its n-way form (`AgConfig::with_alphabet_refinement`):
//! a worked example where the property's actions are not enough and one refinement is, and random
//! systems (`ERROR` states, tau, several properties) where the verdict must be the monolithic
//! one, every counterexample must replay in the components, and every certificate must re-check
//! with each assumption over its own (possibly smaller) alphabet.

mod common;

use common::{agrees_with_mono, input, learners, lts, order, output, recheck_chain};
use guarantor_compose::{Config, Verdict, check_safety, check_triple, compose};
use guarantor_lstar::ag::{AgConfig, AgReport, check_asym, check_asym_n};
use guarantor_lts::strategy::{
    LtsStrategyConfig, arb_deterministic_property, arb_lts_with, arb_system_with,
};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::collection::vec;
use proptest::prelude::*;

/// The rules' configurations with refinement on, for each learner.
fn refining() -> Vec<AgConfig> {
    learners()
        .into_iter()
        .map(|c| c.with_alphabet_refinement(true))
        .collect()
}

/// The classic rule: assumptions over the whole interface alphabet.
fn classic() -> AgConfig {
    AgConfig::default().with_alphabet_refinement(false)
}

/// The visible alphabet an LTS declares, by name, in id order.
fn declared(lts: &Lts) -> Vec<String> {
    lts.alphabet()
        .iter()
        .filter(|(a, _)| !a.is_tau())
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// `M1 = (lock -> x -> STOP)` may only do `x` after `lock`; `M2` offers `x` forever and declares
/// `lock` without ever offering it; the property forbids `x`. Over the property's actions `{x}`
/// alone, `M1` looks able to fail after any `x` (its `lock` is free), and `M2` does `x`: a
/// spurious counterexample that `lock` tells apart.
fn lock_example() -> (Lts, Lts, Lts) {
    let m1 = lts(&[(0, "lock", 1), (1, "x", 2)]);
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    b.action("lock").unwrap();
    b.add_transition_named(StateId::must(0), "x", StateId::must(0))
        .unwrap();
    let m2 = b.build().unwrap();
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    b.action("x").unwrap();
    let p = b.build().unwrap();
    (m1, m2, p)
}

#[test]
fn a_spurious_counterexample_adds_the_action_that_tells_it_apart() {
    let (m1, m2, p) = lock_example();
    for config in refining() {
        let report = check_asym(&m1, &m2, &p, &config).unwrap();
        assert!(report.verdict.is_holds(), "{:?}", report.verdict);
        assert_eq!(report.interface, ["lock", "x"]);
        assert_eq!(report.alphabet.refinements, 1);
        assert_eq!(report.alphabet.assumption_alphabet, 2);
        assert_eq!(report.alphabet.interface_alphabet, 2);
    }
    // Without refinement the same verdict, learned over the whole interface at once.
    let report = check_asym(&m1, &m2, &p, &classic()).unwrap();
    assert!(report.verdict.is_holds());
    assert_eq!(report.alphabet.refinements, 0);
}

#[test]
fn a_real_counterexample_found_over_a_small_alphabet_replays() {
    // M2 now offers lock too: the run lock, x is real.
    let (m1, _, p) = lock_example();
    let m2 = lts(&[(0, "lock", 0), (0, "x", 0)]);
    for config in refining() {
        let report = check_asym(&m1, &m2, &p, &config).unwrap();
        let Verdict::Violated(cex) = &report.verdict else {
            panic!("expected a violation, got {:?}", report.verdict)
        };
        assert_eq!(cex.trace, ["lock", "x"]);
        agrees_with_mono(&[&m1, &m2], &p, &report.verdict).unwrap();
    }
}

#[test]
fn the_running_example_needs_only_the_property_s_output_and_send() {
    let config = AgConfig::default().with_alphabet_refinement(true);
    let report = check_asym(&input(), &output(), &order(), &config).unwrap();
    assert!(report.verdict.is_holds());
    assert_eq!(report.alphabet.interface_alphabet, 3);
    assert!(report.alphabet.assumption_alphabet <= 3);
    // The certificate's assumption declares exactly the final alphabet, and both premises hold
    // with it over that alphabet.
    let Verdict::Holds(cert) = &report.verdict else {
        unreachable!()
    };
    let a = &cert.assumptions[0].lts;
    assert_eq!(declared(a), report.interface);
    let premise1 = check_triple(a, &input(), &order(), &Config::default()).unwrap();
    assert!(premise1.verdict.is_holds());
    let premise2 = check_safety(&[&output()], &[a], &Config::default()).unwrap();
    assert!(premise2.verdict.is_holds());
}

/// The refinement counts are consistent, and the outermost assumption declares exactly the
/// alphabet the report names, inside the interface.
fn alphabet_is_recorded(report: &AgReport) -> Result<(), TestCaseError> {
    let stats = &report.alphabet;
    prop_assert!(stats.assumption_alphabet <= stats.interface_alphabet);
    if let Verdict::Holds(cert) = &report.verdict
        && let Some(a) = cert.assumptions.first()
    {
        prop_assert_eq!(declared(&a.lts), report.interface.clone());
        prop_assert_eq!(report.interface.len(), stats.assumption_alphabet);
    }
    Ok(())
}

/// A first component with tau and possibly an `ERROR` state (which the rule sees through its
/// queries), and an environment of one or two components without (an `ERROR` there makes the
/// rule fall back to the monolithic check, which tests/direct.rs covers).
fn system() -> impl Strategy<Value = Vec<Lts>> {
    let m1 = arb_lts_with(
        LtsStrategyConfig::new(4, &["a", "b", "c", "d"])
            .with_tau(true)
            .with_error_state(true),
    );
    let env = arb_system_with(
        2,
        LtsStrategyConfig::new(3, &["a", "b", "c", "d", "e"]).with_tau(true),
    );
    (m1, env).prop_map(|(m1, env)| std::iter::once(m1).chain(env).collect())
}

/// One or two properties over part of the pool, merged as the rules take them (their product).
fn property() -> impl Strategy<Value = (Vec<Lts>, Lts)> {
    vec(arb_deterministic_property(3, &["a", "b", "c", "e"]), 1..=2).prop_map(|ps| {
        let refs: Vec<&Lts> = ps.iter().collect();
        let p = compose(&refs, &Config::default()).unwrap();
        (ps, p)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// ASYM with refinement on the first component against the rest (composed), and n-way ASYM
    /// on every component: the monolithic verdict, a counterexample that replays in the
    /// components and violates a property, certificates whose premises hold for each
    /// assumption over its own alphabet.
    #[test]
    fn refining_rules_agree_with_the_monolithic_check(sys in system(), (ps, p) in property()) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let prefs: Vec<&Lts> = ps.iter().collect();
        let mono = check_safety(&parts, &prefs, &Config::default()).unwrap();
        let rest = compose(&parts[1..], &Config::default()).unwrap();
        for config in refining() {
            let report = check_asym(parts[0], &rest, &p, &config).unwrap();
            prop_assert_eq!(report.verdict.is_holds(), mono.verdict.is_holds());
            agrees_with_mono(&[parts[0], &rest], &p, &report.verdict)?;
            alphabet_is_recorded(&report)?;
            if let Verdict::Holds(cert) = &report.verdict {
                recheck_chain(&[parts[0], &rest], &p, cert)?;
            }

            let report = check_asym_n(&parts, &p, &config).unwrap();
            prop_assert_eq!(report.verdict.is_holds(), mono.verdict.is_holds());
            agrees_with_mono(&parts, &p, &report.verdict)?;
            alphabet_is_recorded(&report)?;
            if let Verdict::Holds(cert) = &report.verdict {
                recheck_chain(&parts, &p, cert)?;
            }
        }
    }

    /// Refinement (the default) never changes the verdict nor the interface it starts from; the
    /// classic rule learns over the whole interface and never refines.
    #[test]
    fn refinement_changes_no_verdict(sys in system(), (_, p) in property()) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let off = check_asym_n(&parts, &p, &classic()).unwrap();
        let on = check_asym_n(&parts, &p, &AgConfig::default()).unwrap();
        prop_assert_eq!(on.verdict.is_holds(), off.verdict.is_holds());
        prop_assert_eq!(on.alphabet.interface_alphabet, off.alphabet.interface_alphabet);
        prop_assert_eq!(off.alphabet.refinements, 0);
        prop_assert_eq!(off.alphabet.assumption_alphabet, off.alphabet.interface_alphabet);
    }
}
