//! Rule ASYM with computed weakest assumptions: random systems of up to four components checked
//! against the monolithic checker, every counterexample replayed on the whole system, every
//! certificate re-checked premise by premise; components with `ERROR` states included.

mod common;

use common::{agrees_with_mono, lts, recheck_chain};
use guarantor_compose::{Config, Verdict, replay::violates};
use guarantor_lstar::ag::{AgConfig, check_asym_n, check_asym_weakest};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::prelude::*;

fn agrees(parts: &[&Lts], p: &Lts) -> Result<(), TestCaseError> {
    let report = check_asym_weakest(parts, p, &AgConfig::default()).unwrap();
    agrees_with_mono(parts, p, &report.verdict)?;
    // With ERROR states after the first component the rule checks the composition monolithically,
    // and its certificate says so: no assumptions.
    let monolithic = parts.len() < 2 || parts[1..].iter().any(|m| m.error_state().is_some());
    match &report.verdict {
        Verdict::Holds(cert) if monolithic => {
            prop_assert!(cert.assumptions.is_empty());
            Ok(())
        }
        Verdict::Holds(cert) => {
            prop_assert_eq!(report.assumption_sizes.len(), parts.len() - 1);
            recheck_chain(parts, p, cert)
        }
        _ => Ok(()),
    }
}

fn error_states(mut config: LtsStrategyConfig) -> LtsStrategyConfig {
    config.error_state = true;
    config
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn computed_assumptions_agree_with_the_monolithic_check(
        sys in arb_system_with(4, LtsStrategyConfig::new(3, &["a", "b", "c", "d", "e"])),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
    ) {
        let parts: Vec<&Lts> = sys.iter().collect();
        agrees(&parts, &p)?;
    }

    #[test]
    fn computed_assumptions_agree_with_the_monolithic_check_with_error_states(
        sys in arb_system_with(4, error_states(LtsStrategyConfig::new(3, &["a", "b", "c", "d", "e"]))),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
    ) {
        let parts: Vec<&Lts> = sys.iter().collect();
        agrees(&parts, &p)?;
    }

    #[test]
    fn computed_and_learned_assumptions_give_the_same_verdict(
        sys in arb_system_with(3, LtsStrategyConfig::new(3, &["a", "b", "c", "d"])),
        p in arb_deterministic_property(2, &["a", "b", "c"]),
    ) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let computed = check_asym_weakest(&parts, &p, &AgConfig::default()).unwrap();
        let learned = check_asym_n(&parts, &p, &AgConfig::default()).unwrap();
        prop_assert_eq!(computed.verdict.is_holds(), learned.verdict.is_holds());
    }
}

/// A component that can reach `ERROR` after `a`: the system is violated through it whatever the
/// property says, and the counterexample says so.
#[test]
fn error_states_of_any_component_are_found() {
    let ok = |name: &str| lts(&[(0, name, 0)]);
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.add_transition_named(StateId::must(0), "a", StateId::must(1))
        .unwrap();
    b.set_error(StateId::must(1)).unwrap();
    let failing = b.build().unwrap();
    let p = ok("b");
    for order in [
        [&ok("a"), &failing, &ok("b")],
        [&failing, &ok("a"), &ok("b")],
        [&ok("b"), &ok("a"), &failing],
    ] {
        let report = check_asym_weakest(&order, &p, &AgConfig::default()).unwrap();
        let cex = report.verdict.counterexample().expect("ERROR is reachable");
        assert_eq!(cex.trace, ["a"]);
        assert!(violates(&order, &[&p], &cex.trace).unwrap());
    }
}

/// The property fails through the first component's own actions: no assumption can help, and the
/// counterexample is that run.
#[test]
fn a_violation_of_the_first_component_alone_is_reported() {
    let m0 = lts(&[(0, "bad", 1), (1, "shared", 1)]);
    let m1 = lts(&[(0, "shared", 0)]);
    // `bad` in the alphabet, never allowed (no edge list can say that).
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    b.action("bad").unwrap();
    let never_bad = b.build().unwrap();
    let report = check_asym_weakest(&[&m0, &m1], &never_bad, &AgConfig::default()).unwrap();
    assert_eq!(report.verdict.counterexample().unwrap().trace, ["bad"]);
}

/// "the 22nd action from the end is `a`" as a nondeterministic LTS: its subset construction has
/// 2^22 states, far more than a short deadline allows.
fn nth_from_last(n: usize) -> Lts {
    let mut edges = vec![(0, "a", 0), (0, "b", 0), (0, "a", 1)];
    for i in 1..n {
        edges.extend([(i, "a", i + 1), (i, "b", i + 1)]);
    }
    lts(&edges)
}

#[test]
fn the_deadline_stops_a_long_subset_construction() {
    let m0 = nth_from_last(22);
    // m1 shares both actions, so the interface keeps them and the construction cannot shrink.
    let m1 = lts(&[(0, "a", 0), (0, "b", 0)]);
    let anything_a = lts(&[(0, "a", 0)]);
    let config = AgConfig::default()
        .with_compose(Config::default().with_timeout(std::time::Duration::from_millis(200)));
    let err = check_asym_weakest(&[&m0, &m1], &anything_a, &config).unwrap_err();
    assert!(
        matches!(
            err,
            guarantor_lstar::LstarError::Compose(guarantor_compose::ComposeError::Deadline)
        ),
        "{err:?}"
    );
}
