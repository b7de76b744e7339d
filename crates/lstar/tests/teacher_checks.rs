//! Issue 28, point 5: a teacher cannot silently teach the wrong machine. A black box whose
//! step-wise run forgets an answer, or that answers a word two ways, stops learning with a typed
//! error naming the word (no `debug_assert`: the same in release builds); re-asking a sample of
//! words finds a system that answers at random; and on an honest system the checks change
//! nothing (random DFAs learned exactly, every word asked twice with `with_rechecks(1)`).

use std::cell::Cell;

use guarantor_lstar::oracle::WpMethod;
use guarantor_lstar::{
    BlackBoxTeacher, Dfa, LearnError, LearnerConfig, LearnerKind, LstarError, StepWise, Symbol,
};
use proptest::prelude::*;

mod common;
use common::arb_dfa;

const KINDS: [LearnerKind; 2] = [LearnerKind::LStar, LearnerKind::LSharp];

/// Words over {0, 1} whose number of 0s is divisible by 3: three states.
fn zeros_mod_3(w: &[Symbol]) -> bool {
    w.iter()
        .filter(|a| a.index() == 0)
        .count()
        .is_multiple_of(3)
}

#[test]
fn a_step_wise_run_that_forgets_the_empty_words_answer_is_an_error_naming_the_word() {
    for kind in KINDS {
        // The system: the run answers for each symbol read, but not before the first.
        let system = StepWise::new(|w: &[Symbol], answers: &mut Vec<bool>| {
            answers.clear();
            for i in 1..=w.len() {
                answers.push(zeros_mod_3(&w[..i]));
            }
        });
        let mut teacher = BlackBoxTeacher::new(2, system, WpMethod::new(1));
        let err = teacher
            .learn(LearnerConfig::default().with_kind(kind))
            .unwrap_err();
        let LearnError::Learner(LstarError::WrongAnswerCount {
            word,
            expected,
            found,
        }) = &err
        else {
            panic!("{kind:?}: expected WrongAnswerCount, got {err:?}");
        };
        assert_eq!((*expected, *found), (word.len() + 1, word.len()), "{err}");
        assert!(err.to_string().contains(&format!("{word:?}")), "{err}");
    }
}

#[test]
fn a_step_wise_run_that_contradicts_an_earlier_answer_is_an_error_naming_the_word() {
    for kind in KINDS {
        // From the third run on, the empty word (the initial state) is rejected.
        let runs = Cell::new(0_u32);
        let system = StepWise::new(|w: &[Symbol], answers: &mut Vec<bool>| {
            runs.set(runs.get() + 1);
            answers.clear();
            for i in 0..=w.len() {
                answers.push(zeros_mod_3(&w[..i]) && (i > 0 || runs.get() < 3));
            }
        });
        let mut teacher = BlackBoxTeacher::new(2, system, WpMethod::new(1));
        let err = teacher
            .learn(LearnerConfig::default().with_kind(kind))
            .unwrap_err();
        assert!(
            matches!(
                &err,
                LearnError::Learner(LstarError::ContradictoryAnswers { word, first: true, then: false })
                    if word.is_empty()
            ),
            "{kind:?}: {err:?}"
        );
        assert!(err.to_string().contains("[]"), "{err}");
    }
}

#[test]
fn a_step_wise_system_with_no_answer_is_an_error_not_a_panic() {
    use guarantor_lstar::Membership;
    let mut silent = StepWise::new(|_: &[Symbol], answers: &mut Vec<bool>| answers.clear());
    let err = silent.accepts(&[Symbol::new(1)]).unwrap_err();
    assert_eq!(
        err,
        LstarError::WrongAnswerCount {
            word: vec![1],
            expected: 2,
            found: 0
        }
    );
}

#[test]
fn rechecks_find_a_system_that_answers_one_word_two_ways() {
    // One-bit answers; the word [1] is answered `true` on every second run of it only.
    let asked = Cell::new(0_u32);
    let flaky = |w: &[Symbol]| {
        if w.len() == 1 && w[0].index() == 1 {
            asked.set(asked.get() + 1);
            return asked.get().is_multiple_of(2);
        }
        zeros_mod_3(w)
    };
    let mut teacher = BlackBoxTeacher::new(2, flaky, WpMethod::new(2)).with_rechecks(1);
    let err = teacher.learn(LearnerConfig::default()).unwrap_err();
    assert_eq!(
        err,
        LearnError::Learner(LstarError::ContradictoryAnswers {
            word: vec![1],
            first: false,
            then: true
        })
    );
    assert!(teacher.counters().rechecks > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// An honest system: with every word asked twice, both learners still learn the target
    /// exactly (the naive oracle: no shortest difference), and every word sent was re-asked.
    #[test]
    fn rechecks_change_nothing_on_a_deterministic_system(
        target in arb_dfa(5, 3),
        every in 1_u64..4,
        step_wise in any::<bool>(),
    ) {
        for kind in KINDS {
            let config = LearnerConfig::default().with_kind(kind);
            let bound = target.num_states();
            let learned = if step_wise {
                let t = target.clone();
                let system = StepWise::new(move |w: &[Symbol], answers: &mut Vec<bool>| {
                    answers.clear();
                    answers.extend((0..=w.len()).map(|i| t.accepts(&w[..i])));
                });
                let mut teacher =
                    BlackBoxTeacher::new(target.num_symbols(), system, WpMethod::new(bound))
                        .with_rechecks(every);
                let dfa = teacher.learn(config).unwrap();
                let c = teacher.counters();
                prop_assert_eq!(c.rechecks, c.membership_queries / every);
                dfa
            } else {
                let t: Dfa = target.clone();
                let system = move |w: &[Symbol]| t.accepts(w);
                let mut teacher =
                    BlackBoxTeacher::new(target.num_symbols(), system, WpMethod::new(bound))
                        .with_rechecks(every);
                let dfa = teacher.learn(config).unwrap();
                let c = teacher.counters();
                prop_assert_eq!(c.rechecks, c.membership_queries / every);
                dfa
            };
            prop_assert_eq!(learned.shortest_difference(&target), None);
        }
    }
}
