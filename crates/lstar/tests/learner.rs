//! Learner tests: with a perfect teacher every strategy of L*, and L#, learns random DFAs exactly
//! and minimally,
//! prefix-closed mode learns prefix-closed languages through prefix-closed hypotheses, budgets end
//! in their typed errors, and misuse of the sans-IO interface is reported.

use std::convert::Infallible;

use guarantor_lstar::{
    CexStrategy, Dfa, DfaTeacher, EqAnswer, LearnError, Learner, LearnerConfig, LearnerKind,
    LstarError, Outcome, Step, Symbol, Teacher, learn, word,
};
use proptest::prelude::*;

mod common;
use common::{arb_dfa, arb_prefix_closed};

/// Every L* strategy, and L#.
fn configs() -> impl Strategy<Value = LearnerConfig> {
    let star = |s| LearnerConfig::default().with_strategy(s);
    prop_oneof![
        Just(star(CexStrategy::RivestSchapire)),
        Just(star(CexStrategy::Angluin)),
        Just(star(CexStrategy::MalerPnueli)),
        Just(LearnerConfig::default().with_kind(LearnerKind::LSharp)),
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
    fn learns_random_dfas_exactly_and_minimally(target in arb_dfa(8, 3), config in configs()) {
        let (dfa, learner) = learn_exactly(&target, config);
        prop_assert_eq!(dfa.shortest_difference(&target), None);
        prop_assert_eq!(dfa.num_states(), target.minimal_size());
        let stats = learner.stats();
        prop_assert_eq!(stats.hypothesis_sizes.len() as u64, stats.equivalence_queries);
        prop_assert!(stats.hypothesis_sizes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn prefix_closed_mode_learns_prefix_closed_languages(
        target in arb_prefix_closed(8, 3),
        config in configs(),
    ) {
        let config = config.with_prefix_closed(true);
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

/// Both learning algorithms.
const KINDS: [LearnerKind; 2] = [LearnerKind::LStar, LearnerKind::LSharp];

/// Words over {0, 1} whose number of 0s is divisible by `n`.
fn counter(n: usize) -> Dfa {
    let delta = (0..n).map(|q| vec![(q + 1) % n, q]).collect();
    let acc = (0..n).map(|q| q == 0).collect();
    Dfa::new(2, delta, acc).unwrap()
}

#[test]
fn round_budget_is_a_typed_error() {
    for kind in KINDS {
        let mut learner = Learner::new(
            2,
            LearnerConfig::default().with_kind(kind).with_max_rounds(1),
        );
        let err = learn(&mut learner, &mut DfaTeacher::new(counter(5))).unwrap_err();
        assert_eq!(
            err,
            LearnError::Learner(LstarError::RoundLimit { limit: 1 })
        );
    }
}

#[test]
fn query_and_size_budgets_are_typed_errors() {
    for kind in KINDS {
        let mut learner = Learner::new(
            2,
            LearnerConfig::default()
                .with_kind(kind)
                .with_max_membership_queries(3),
        );
        let err = learn(&mut learner, &mut DfaTeacher::new(counter(5))).unwrap_err();
        assert_eq!(
            err,
            LearnError::Learner(LstarError::QueryLimit { limit: 3 })
        );
        let mut learner = Learner::new(
            2,
            LearnerConfig::default()
                .with_kind(kind)
                .with_max_hypothesis_states(3),
        );
        let err = learn(&mut learner, &mut DfaTeacher::new(counter(5))).unwrap_err();
        assert!(matches!(
            err,
            LearnError::Learner(LstarError::HypothesisLimit { limit: 3, .. })
        ));
    }
}

#[test]
fn a_false_counterexample_is_reported() {
    for kind in KINDS {
        let target = counter(2);
        let mut learner = Learner::new(2, LearnerConfig::default().with_kind(kind));
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
}

#[test]
fn sans_io_misuse_is_reported() {
    for kind in KINDS {
        let mut learner = Learner::new(2, LearnerConfig::default().with_kind(kind));
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
}

#[test]
fn prefix_closed_mode_needs_fewer_queries_and_one_sink() {
    for kind in KINDS {
        // Prefix-closed: 0 then 1 alternate, anything else is an error.
        let target = Dfa::new(
            2,
            vec![vec![1, 2], vec![2, 0], vec![2, 2]],
            vec![true, true, false],
        )
        .unwrap();
        let (plain_dfa, plain) = learn_exactly(&target, LearnerConfig::default().with_kind(kind));
        let (pc_dfa, pc) = learn_exactly(
            &target,
            LearnerConfig::default()
                .with_kind(kind)
                .with_prefix_closed(true),
        );
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
}

#[test]
fn runs_are_deterministic() {
    for kind in KINDS {
        let target = counter(7);
        let (_, a) = learn_exactly(&target, LearnerConfig::default().with_kind(kind));
        let (_, b) = learn_exactly(&target, LearnerConfig::default().with_kind(kind));
        assert_eq!(a.stats(), b.stats());
    }
}

/// Reads a `dfa v1` file of the AALpy harness (format in its `aalpy_lstar.py`): the DFA and
/// whether its kind is `prefix_closed`.
fn read_harness_dfa(text: &str) -> (Dfa, bool) {
    let (mut k, mut prefix_closed, mut rows) = (0, false, Vec::new());
    for line in text.lines().map(str::trim) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        match parts.as_slice() {
            ["alphabet", n] => k = n.parse().unwrap(),
            ["kind", kind] => prefix_closed = *kind == "prefix_closed",
            [q, acc, succ @ ..] if q.bytes().all(|b| b.is_ascii_digit()) => {
                let succ: Vec<usize> = succ[..k].iter().map(|s| s.parse().unwrap()).collect();
                rows.push((*acc == "1", succ));
            }
            _ => {}
        }
    }
    let (acc, delta) = rows.into_iter().unzip();
    (Dfa::new(k, delta, acc).unwrap(), prefix_closed)
}

/// L# learns the 24 benchmark DFAs of the shared AALpy harness (`../shared/harness` from the
/// workspace root, outside this repository; skipped when it is absent) exactly, in plain mode and,
/// for the prefix-closed ones, in prefix-closed mode.
#[test]
fn lsharp_learns_the_harness_dfas_exactly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/harness/dfas");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: no harness at {}", dir.display());
        return;
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dfa"))
        .filter(|p| !p.to_string_lossy().contains("_mut"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 24, "{}", dir.display());
    for path in files {
        let (target, prefix_closed) = read_harness_dfa(&std::fs::read_to_string(&path).unwrap());
        let sharp = LearnerConfig::default().with_kind(LearnerKind::LSharp);
        let mut configs = vec![sharp.clone()];
        if prefix_closed {
            configs.push(sharp.with_prefix_closed(true));
        }
        for config in configs {
            let (dfa, _) = learn_exactly(&target, config);
            assert_eq!(dfa.shortest_difference(&target), None, "{}", path.display());
            assert_eq!(
                dfa.num_states(),
                target.minimal_size(),
                "{}",
                path.display()
            );
        }
    }
}
