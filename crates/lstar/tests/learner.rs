//! Learner tests: with a perfect teacher every strategy learns random DFAs exactly and minimally,
//! prefix-closed mode learns prefix-closed languages through prefix-closed hypotheses, budgets end
//! in their typed errors, and misuse of the sans-IO interface is reported.

use std::convert::Infallible;

use guarantor_lstar::{
    CexStrategy, Dfa, DfaTeacher, EqAnswer, LearnError, Learner, LearnerConfig, LstarError,
    Outcome, Step, Symbol, Teacher, learn, word,
};
use proptest::prelude::*;

/// A random complete DFA with `1..=max_states` states over `1..=max_k` symbols.
fn arb_dfa(max_states: usize, max_k: usize) -> impl Strategy<Value = Dfa> {
    (1..=max_states, 1..=max_k).prop_flat_map(|(n, k)| {
        (
            proptest::collection::vec(0..n, n * k),
            proptest::collection::vec(any::<bool>(), n),
        )
            .prop_map(move |(flat, acc)| {
                let delta = flat.chunks(k).map(<[usize]>::to_vec).collect();
                Dfa::new(k, delta, acc).expect("well-formed by construction")
            })
    })
}

/// A random prefix-closed DFA: every transition into a rejecting state is sent to one rejecting sink.
fn arb_prefix_closed(max_states: usize, max_k: usize) -> impl Strategy<Value = Dfa> {
    arb_dfa(max_states, max_k).prop_map(|d| {
        let (n, k) = (d.num_states(), d.num_symbols());
        let mut delta = Vec::new();
        for q in 0..n {
            let row = Symbol::all(k)
                .map(|a| d.successor(q, a))
                .map(|t| {
                    if d.is_accepting(t) && d.is_accepting(q) {
                        t
                    } else {
                        n
                    }
                })
                .collect();
            delta.push(row);
        }
        delta.push(vec![n; k]);
        let mut acc: Vec<bool> = (0..n).map(|q| d.is_accepting(q)).collect();
        acc.push(false);
        Dfa::new(k, delta, acc).expect("well-formed by construction")
    })
}

fn strategies() -> impl Strategy<Value = CexStrategy> {
    prop_oneof![
        Just(CexStrategy::RivestSchapire),
        Just(CexStrategy::Angluin),
        Just(CexStrategy::MalerPnueli)
    ]
}

/// Wraps the perfect teacher and records whether every hypothesis was prefix-closed.
struct Watching {
    inner: DfaTeacher,
    all_prefix_closed: bool,
}

impl Teacher for Watching {
    type Verdict = Infallible;
    type Error = Infallible;
    fn membership(&mut self, w: &[Symbol]) -> Result<bool, Infallible> {
        self.inner.membership(w)
    }
    fn equivalence(&mut self, h: &Dfa) -> Result<EqAnswer<Infallible>, Infallible> {
        self.all_prefix_closed &= h.is_prefix_closed();
        self.inner.equivalence(h)
    }
}

fn learn_exactly(target: &Dfa, config: LearnerConfig) -> (Dfa, Learner) {
    let mut learner = Learner::new(target.num_symbols(), config);
    let outcome = learn(&mut learner, &mut DfaTeacher::new(target.clone())).expect("no budget");
    let Outcome::Learned(dfa) = outcome else {
        panic!("a DfaTeacher never stops")
    };
    (dfa, learner)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn learns_random_dfas_exactly_and_minimally(target in arb_dfa(8, 3), strategy in strategies()) {
        let (dfa, learner) = learn_exactly(&target, LearnerConfig::default().with_strategy(strategy));
        prop_assert_eq!(dfa.shortest_difference(&target), None);
        prop_assert_eq!(dfa.num_states(), target.minimal_size());
        let stats = learner.stats();
        prop_assert_eq!(stats.hypothesis_sizes.len() as u64, stats.equivalence_queries);
        prop_assert!(stats.hypothesis_sizes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn prefix_closed_mode_learns_prefix_closed_languages(
        target in arb_prefix_closed(8, 3),
        strategy in strategies(),
    ) {
        let config = LearnerConfig::default().with_strategy(strategy).with_prefix_closed(true);
        let mut learner = Learner::new(target.num_symbols(), config);
        let mut teacher = Watching { inner: DfaTeacher::new(target.clone()), all_prefix_closed: true };
        let Ok(Outcome::Learned(dfa)) = learn(&mut learner, &mut teacher) else {
            panic!("learning failed")
        };
        prop_assert_eq!(dfa.shortest_difference(&target), None);
        prop_assert_eq!(dfa.num_states(), target.minimal_size());
        prop_assert!(teacher.all_prefix_closed);
        // The safety LTS has exactly the accepting states; no sink survives the export.
        let names: Vec<String> = (0..dfa.num_symbols()).map(|i| format!("a{i}")).collect();
        let lts = dfa.to_safety_lts(&names).expect("prefix-closed");
        let accepting = (0..dfa.num_states()).filter(|&q| dfa.is_accepting(q)).count();
        prop_assert_eq!(lts.num_states(), accepting.max(1));
        let back = Dfa::from_lts(&lts, &names).expect("deterministic");
        // An LTS always has the empty trace, so only non-empty languages survive the round trip.
        if dfa.accepts(&[]) {
            prop_assert_eq!(back.shortest_difference(&dfa), None);
        } else {
            prop_assert_eq!((lts.num_states(), lts.num_transitions()), (1, 0));
        }
    }

    #[test]
    fn dfa_lts_round_trip_keeps_the_language(target in arb_dfa(6, 3)) {
        let names: Vec<String> = (0..target.num_symbols()).map(|i| format!("x{i}")).collect();
        let lts = target.to_lts(&names).expect("exportable");
        let back = Dfa::from_lts(&lts, &names).expect("deterministic");
        prop_assert_eq!(back.shortest_difference(&target), None);
    }
}

/// Words over {0, 1} whose number of 0s is divisible by `n`.
fn counter(n: usize) -> Dfa {
    let delta = (0..n).map(|q| vec![(q + 1) % n, q]).collect();
    let acc = (0..n).map(|q| q == 0).collect();
    Dfa::new(2, delta, acc).unwrap()
}

#[test]
fn round_budget_is_a_typed_error() {
    let mut learner = Learner::new(2, LearnerConfig::default().with_max_rounds(1));
    let err = learn(&mut learner, &mut DfaTeacher::new(counter(5))).unwrap_err();
    assert_eq!(
        err,
        LearnError::Learner(LstarError::RoundLimit { limit: 1 })
    );
}

#[test]
fn query_and_size_budgets_are_typed_errors() {
    let mut learner = Learner::new(2, LearnerConfig::default().with_max_membership_queries(3));
    let err = learn(&mut learner, &mut DfaTeacher::new(counter(5))).unwrap_err();
    assert_eq!(
        err,
        LearnError::Learner(LstarError::QueryLimit { limit: 3 })
    );
    let mut learner = Learner::new(2, LearnerConfig::default().with_max_hypothesis_states(3));
    let err = learn(&mut learner, &mut DfaTeacher::new(counter(5))).unwrap_err();
    assert!(matches!(
        err,
        LearnError::Learner(LstarError::HypothesisLimit { limit: 3, .. })
    ));
}

#[test]
fn a_false_counterexample_is_reported() {
    let target = counter(2);
    let mut learner = Learner::new(2, LearnerConfig::default());
    loop {
        match learner.step().unwrap() {
            Step::Queries(ws) => {
                let answers: Vec<bool> = ws.iter().map(|w| target.accepts(w)).collect();
                learner.answer(&answers).unwrap();
            }
            Step::Hypothesis(h) => {
                // The first hypothesis for "even number of 0s" is the one-state "all words".
                assert!(h.accepts(&word(&[1])));
                learner.counterexample(word(&[1, 1])).unwrap();
                break;
            }
            _ => unreachable!(),
        }
    }
    // [1, 1] is accepted by both: once its answer is known the learner refuses it.
    let err = loop {
        match learner.step() {
            Ok(Step::Queries(ws)) => {
                let answers: Vec<bool> = ws.iter().map(|w| target.accepts(w)).collect();
                learner.answer(&answers).unwrap();
            }
            Ok(_) => panic!("expected an error"),
            Err(e) => break e,
        }
    };
    assert_eq!(err, LstarError::NotACounterexample { word: vec![1, 1] });
}

#[test]
fn sans_io_misuse_is_reported() {
    let mut learner = Learner::new(2, LearnerConfig::default());
    assert_eq!(
        learner.counterexample(word(&[0])),
        Err(LstarError::NoHypothesis)
    );
    let Step::Queries(ws) = learner.step().unwrap() else {
        panic!("queries first")
    };
    let expected = ws.len();
    assert_eq!(
        learner.answer(&[true; 100]),
        Err(LstarError::AnswerCount {
            expected,
            found: 100
        })
    );
    // Asking again without answering repeats the same request.
    let Step::Queries(again) = learner.step().unwrap() else {
        panic!("same queries")
    };
    assert_eq!(again.len(), expected);
}

#[test]
fn prefix_closed_mode_needs_fewer_queries_and_one_sink() {
    // Prefix-closed: 0 then 1 alternate, anything else is an error.
    let target = Dfa::new(
        2,
        vec![vec![1, 2], vec![2, 0], vec![2, 2]],
        vec![true, true, false],
    )
    .unwrap();
    let (plain_dfa, plain) = learn_exactly(&target, LearnerConfig::default());
    let (pc_dfa, pc) = learn_exactly(&target, LearnerConfig::default().with_prefix_closed(true));
    assert_eq!(plain_dfa.shortest_difference(&pc_dfa), None);
    assert!(pc.stats().membership_queries < plain.stats().membership_queries);
    assert!(pc.stats().inferred > 0);
    let lts = pc_dfa.to_safety_lts(&["a", "b"]).unwrap();
    assert_eq!((lts.num_states(), lts.num_transitions()), (2, 2));
    assert_eq!(
        counter(2).to_safety_lts(&["a", "b"]),
        Err(LstarError::NotPrefixClosed)
    );
}

#[test]
fn runs_are_deterministic() {
    let target = counter(7);
    let (_, a) = learn_exactly(&target, LearnerConfig::default());
    let (_, b) = learn_exactly(&target, LearnerConfig::default());
    assert_eq!(a.stats(), b.stats());
}
