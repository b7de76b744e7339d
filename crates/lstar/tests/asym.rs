//! Rule ASYM: the worked example of Cobleigh et al. 2003 (section 4.3), a brute-force weakest
//! assumption to compare the learned one with, and random systems checked against the monolithic
//! checker with every counterexample replayed and every certificate re-checked.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{agrees_with_mono, arb_learner, input, lts, order, output, recheck_chain};
use guarantor_compose::{
    Config, Verdict, Violation, check_safety, check_triple, compose, error_lts,
    replay::{replay, violates},
};
use guarantor_lstar::ag::{AgConfig, AgReport, check_asym, check_asym_n, weakest_assumption};
use guarantor_lstar::{CexStrategy, Dfa, LearnerConfig, LearnerKind};
use guarantor_lts::ComponentId;
use guarantor_lts::strategy::{arb_deterministic_property, arb_system};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::prelude::*;

/// Output' = (send -> S), S = (send -> S | output -> ack -> Output').
fn output_prime() -> Lts {
    lts(&[
        (0, "send", 1),
        (1, "send", 1),
        (1, "output", 2),
        (2, "ack", 0),
    ])
}

/// The weakest assumption by brute force: subset construction over `M1 || P_err` with every action
/// outside `interface` internal; a subset holding pi rejects (and, being a trap, so does everything
/// after it); the empty subset accepts (M1 cannot follow, so it cannot fail).
fn weakest_assumption_brute(m1: &Lts, p: &Lts, interface: &[String]) -> Dfa {
    let q = compose(&[m1, &error_lts(p).unwrap()], &Config::default()).unwrap();
    let internal = |name: &str| !interface.iter().any(|n| n == name);
    let close = |mut set: BTreeSet<StateId>| {
        let mut work: Vec<StateId> = set.iter().copied().collect();
        while let Some(s) = work.pop() {
            for e in q.outgoing(s) {
                if (e.action.is_tau() || internal(q.action_name(e.action))) && set.insert(e.target)
                {
                    work.push(e.target);
                }
            }
        }
        set
    };
    let bad = |set: &BTreeSet<StateId>| set.iter().any(|&s| q.is_error(s));
    let mut index: BTreeMap<BTreeSet<StateId>, usize> = BTreeMap::new();
    let mut order = vec![close(BTreeSet::from([q.initial()]))];
    index.insert(order[0].clone(), 0);
    let (mut delta, mut acc) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < order.len() {
        let set = order[i].clone();
        acc.push(!bad(&set));
        let mut row = Vec::new();
        for name in interface {
            let next = if bad(&set) {
                set.clone()
            } else {
                let mut next = BTreeSet::new();
                if let Some(a) = q.alphabet().get(name) {
                    for &s in &set {
                        next.extend(q.successors(s, a));
                    }
                }
                close(next)
            };
            let fresh = order.len();
            let id = *index.entry(next.clone()).or_insert(fresh);
            if id == fresh {
                order.push(next);
            }
            row.push(id);
        }
        delta.push(row);
        i += 1;
    }
    Dfa::new(interface.len(), delta, acc).unwrap()
}

/// The learned assumption of a `Holds` report, as a DFA over the interface.
fn learned_dfa(report: &AgReport) -> Dfa {
    let Verdict::Holds(cert) = &report.verdict else {
        panic!("expected Holds")
    };
    Dfa::from_lts(&cert.assumptions[0].lts, &report.interface).unwrap()
}

#[test]
fn cobleigh_example_holds_with_a2() {
    // The paper's run, over the whole interface from the start (tests/alphabet.rs has the same
    // example with alphabet refinement).
    let classic = AgConfig::default().with_alphabet_refinement(false);
    let report = check_asym(&input(), &output(), &order(), &classic).unwrap();
    assert!(report.verdict.is_holds());
    assert_eq!(report.interface, ["send", "output", "ack"]);
    // A1 (one state: send and ack only) is too weak; A2 (two states) suffices.
    assert_eq!(report.assumption_sizes, [1, 2]);
    assert_eq!(report.stats.equivalence_queries, 2);
    let a2 = learned_dfa(&report);
    let w = |names: &[&str]| -> Vec<guarantor_lstar::Symbol> {
        names
            .iter()
            .map(|n| {
                guarantor_lstar::Symbol::new(report.interface.iter().position(|x| x == n).unwrap())
            })
            .collect()
    };
    assert!(a2.accepts(&w(&["send", "output", "ack", "send"])));
    assert!(!a2.accepts(&w(&["output"])));
    assert!(!a2.accepts(&w(&["send", "ack"])));
}

#[test]
fn cobleigh_example_with_output_prime_ends_at_the_weakest_assumption() {
    let report = check_asym(&input(), &output_prime(), &order(), &AgConfig::default()).unwrap();
    assert!(report.verdict.is_holds());
    // A1, A2, then A3 and A4 = A_w, as in the paper.
    assert_eq!(report.assumption_sizes.len(), 4);
    let weakest = weakest_assumption_brute(&input(), &order(), &report.interface);
    assert_eq!(learned_dfa(&report).shortest_difference(&weakest), None);
    assert_eq!(
        report.assumption_sizes.last(),
        Some(&(weakest.minimal_size() - 1))
    );
}

#[test]
fn a_violation_is_a_replayable_run_of_both_components() {
    // Output that may say `output` before anything was sent.
    let eager = lts(&[
        (0, "send", 1),
        (0, "output", 2),
        (1, "output", 2),
        (2, "ack", 0),
    ]);
    let report = check_asym(&input(), &eager, &order(), &AgConfig::default()).unwrap();
    let Verdict::Violated(cex) = &report.verdict else {
        panic!("expected a violation")
    };
    replay(&[&input(), &eager], &cex.trace).unwrap();
    assert!(violates(&[&input(), &eager], &[&order()], &cex.trace).unwrap());
}

#[test]
fn budgets_end_in_typed_errors() {
    let config = AgConfig::default().with_learner(
        LearnerConfig::default()
            .with_prefix_closed(true)
            .with_max_rounds(1),
    );
    let err = check_asym(&input(), &output_prime(), &order(), &config).unwrap_err();
    assert_eq!(err, guarantor_lstar::LstarError::RoundLimit { limit: 1 });
    let config = AgConfig::default().with_compose(Config::default().with_max_states(1));
    let err = check_asym(&input(), &output(), &order(), &config).unwrap_err();
    assert!(matches!(err, guarantor_lstar::LstarError::Compose(e) if e.is_budget()));
}

/// Re-checks the evidence of an ASYM report against the monolithic checker.
fn recheck(m1: &Lts, m2: &Lts, p: &Lts, report: &AgReport) -> Result<(), TestCaseError> {
    agrees_with_mono(&[m1, m2], p, &report.verdict)?;
    if let Verdict::Holds(cert) = &report.verdict {
        let a = &cert.assumptions[0].lts;
        prop_assert!(
            check_triple(a, m1, p, &Config::default())
                .unwrap()
                .verdict
                .is_holds()
        );
        prop_assert!(
            check_safety(&[m2], &[a], &Config::default())
                .unwrap()
                .verdict
                .is_holds()
        );
    }
    Ok(())
}

/// Every L* strategy, and L#, in prefix-closed mode.
fn learner_configs() -> impl Strategy<Value = LearnerConfig> {
    let star = |s| {
        LearnerConfig::default()
            .with_prefix_closed(true)
            .with_strategy(s)
    };
    prop_oneof![
        Just(star(CexStrategy::RivestSchapire)),
        Just(star(CexStrategy::Angluin)),
        Just(star(CexStrategy::MalerPnueli)),
        Just(
            LearnerConfig::default()
                .with_prefix_closed(true)
                .with_kind(LearnerKind::LSharp)
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn asym_agrees_with_the_monolithic_check(
        sys in arb_system(2, 4, &["a", "b", "c", "d"]).prop_filter("two components", |s| s.len() == 2),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
        learner in learner_configs(),
    ) {
        let config = AgConfig::default().with_learner(learner);
        let report = check_asym(&sys[0], &sys[1], &p, &config).unwrap();
        recheck(&sys[0], &sys[1], &p, &report)?;
    }

    #[test]
    fn the_last_assumption_is_never_weaker_than_the_weakest(
        sys in arb_system(2, 4, &["a", "b", "c"]).prop_filter("two components", |s| s.len() == 2),
        p in arb_deterministic_property(3, &["a", "b"]),
        config in arb_learner(),
    ) {
        let report = check_asym(&sys[0], &sys[1], &p, &config).unwrap();
        if report.verdict.is_holds() {
            // Every learned assumption is sound for M1: its language lies inside A_w.
            let a = learned_dfa(&report);
            let w = weakest_assumption_brute(&sys[0], &p, &report.interface);
            let outside = Dfa::new(
                a.num_symbols(),
                (0..a.num_states() * w.num_states())
                    .map(|i| (0..a.num_symbols())
                        .map(|s| {
                            let sym = guarantor_lstar::Symbol::new(s);
                            a.successor(i / w.num_states(), sym) * w.num_states()
                                + w.successor(i % w.num_states(), sym)
                        })
                        .collect())
                    .collect(),
                (0..a.num_states() * w.num_states())
                    .map(|i| a.is_accepting(i / w.num_states()) && !w.is_accepting(i % w.num_states()))
                    .collect(),
            ).unwrap();
            prop_assert_eq!(outside.minimal_size(), 1, "L(A) is not inside A_w");
            prop_assert!(!outside.accepts(&[]));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn recursive_asym_agrees_with_the_monolithic_check_on_three_components(
        sys in arb_system(3, 3, &["a", "b", "c", "d"]).prop_filter("three components", |s| s.len() == 3),
        p in arb_deterministic_property(3, &["a", "b", "c"]),
        config in arb_learner(),
    ) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let report = check_asym_n(&parts, &p, &config).unwrap();
        agrees_with_mono(&parts, &p, &report.verdict)?;
        if let Verdict::Holds(cert) = &report.verdict {
            // Two levels, about components "1,2" and "2".
            recheck_chain(&parts, &p, cert)?;
        }
    }
}

#[test]
fn weakest_assumption_with_the_w_method_matches_brute_force() {
    let interface: Vec<String> = ["send", "output", "ack"].map(String::from).to_vec();
    let learned =
        weakest_assumption(&input(), &order(), &interface, 1, &AgConfig::default()).unwrap();
    let brute = weakest_assumption_brute(&input(), &order(), &interface);
    assert_eq!(learned.dfa.shortest_difference(&brute), None);
    // The same language as the last assumption of the Output' run, which the paper calls A_w.
    let report = check_asym(&input(), &output_prime(), &order(), &AgConfig::default()).unwrap();
    assert_eq!(learned.dfa.shortest_difference(&learned_dfa(&report)), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn weakest_assumption_is_exact_with_enough_extra_states(
        m1 in guarantor_lts::strategy::arb_lts(3, &["a", "b", "c"], 6),
        p in arb_deterministic_property(2, &["a", "b"]),
    ) {
        let interface: Vec<String> = ["a", "c"].map(String::from).to_vec();
        let brute = weakest_assumption_brute(&m1, &p, &interface);
        let learned = weakest_assumption(&m1, &p, &interface, brute.minimal_size(), &AgConfig::default()).unwrap();
        prop_assert_eq!(learned.dfa.shortest_difference(&brute), None);
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    // A nondeterministic property has no error LTS.
    let nondet = lts(&[(0, "input", 1), (0, "input", 0), (1, "output", 0)]);
    let err = check_asym(&input(), &output(), &nondet, &AgConfig::default()).unwrap_err();
    assert!(matches!(
        err,
        guarantor_lstar::LstarError::Compose(
            guarantor_compose::ComposeError::PropertyNotDeterministic { .. }
        )
    ));
    // An ERROR state in the environment (here unreachable) makes the check monolithic.
    let mut b = output().to_builder();
    let e = b.add_state().unwrap();
    b.set_error(e).unwrap();
    let faulty = b.build().unwrap();
    let report = check_asym(&input(), &faulty, &order(), &AgConfig::default()).unwrap();
    assert!(report.verdict.is_holds());
    // So is an ERROR in the first position.
    let report = check_asym(&faulty, &input(), &order(), &AgConfig::default()).unwrap();
    let mono = check_safety(&[&faulty, &input()], &[&order()], &Config::default()).unwrap();
    assert_eq!(report.verdict.is_holds(), mono.verdict.is_holds());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn asym_handles_error_states_in_m1(
        m1 in guarantor_lts::strategy::arb_lts_with(
            guarantor_lts::strategy::LtsStrategyConfig::new(4, &["a", "b", "c"]).with_error_state(true)
        ),
        m2 in guarantor_lts::strategy::arb_lts(3, &["b", "c", "d"], 6),
        p in arb_deterministic_property(2, &["a", "b", "d"]),
        config in arb_learner(),
    ) {
        let report = check_asym(&m1, &m2, &p, &config).unwrap();
        recheck(&m1, &m2, &p, &report)?;
    }
}

#[test]
fn reachable_error_in_m2_is_a_violation() {
    // M2 = (send -> ERROR): after input, M1 offers send, so M2 reaches ERROR. The property only
    // watches `input`, which it always allows: the ERROR is the only way to fail.
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.add_transition_named(StateId::must(0), "send", StateId::must(1))
        .unwrap();
    b.set_error(StateId::must(1)).unwrap();
    let m2 = b.build().unwrap();
    let p = lts(&[(0, "input", 0)]);
    let report = check_asym(&input(), &m2, &p, &AgConfig::default()).unwrap();
    let Verdict::Violated(cex) = &report.verdict else {
        panic!("expected a violation, got {:?}", report.verdict)
    };
    assert_eq!(cex.trace, ["input", "send"]);
    assert_eq!(
        cex.violation,
        Violation::ErrorState {
            component: ComponentId::must(1)
        }
    );
    assert!(replay(&[&input(), &m2], &cex.trace).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// ERROR states in M2: the verdict is the monolithic one, a counterexample replays in both
    /// components, and a certificate is the empty one of the monolithic check the rule falls back
    /// to (no assumption was learned about an M2 the caller did not write).
    #[test]
    fn asym_handles_error_states_in_m2(
        m1 in guarantor_lts::strategy::arb_lts(3, &["a", "b", "c"], 6),
        m2 in guarantor_lts::strategy::arb_lts_with(
            guarantor_lts::strategy::LtsStrategyConfig::new(4, &["b", "c", "d"]).with_error_state(true)
        ),
        p in arb_deterministic_property(2, &["a", "b", "d"]),
    ) {
        let report = check_asym(&m1, &m2, &p, &AgConfig::default()).unwrap();
        let mono = check_safety(&[&m1, &m2], &[&p], &Config::default()).unwrap();
        prop_assert_eq!(report.verdict.is_holds(), mono.verdict.is_holds());
        match &report.verdict {
            Verdict::Violated(cex) => {
                prop_assert!(replay(&[&m1, &m2], &cex.trace).is_ok());
                prop_assert!(violates(&[&m1, &m2], &[&p], &cex.trace).unwrap());
            }
            Verdict::Holds(cert) if m2.error_state().is_some() => {
                prop_assert!(cert.assumptions.is_empty());
            }
            _ => recheck(&m1, &m2, &p, &report)?,
        }
    }
}
