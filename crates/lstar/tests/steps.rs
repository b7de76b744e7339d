//! Step-wise membership answers: a teacher that answers for every prefix of a word in one query
//! (`Teacher::answers_prefixes`). The default `membership_prefixes` agrees with per-prefix
//! membership and counts one query per prefix; step-wise L# learns random DFAs exactly and
//! minimally, in prefix-closed mode through prefix-closed hypotheses; L* and L# learn the same
//! DFA with step-wise and one-bit answers; no word whose answer is known reaches the teacher; a
//! black box that runs step-wise is asked each word once.

use std::cell::RefCell;
use std::convert::Infallible;
use std::rc::Rc;

use guarantor_lstar::oracle::{EquivalenceOracle, Interrupted, Member};
use guarantor_lstar::{
    BlackBoxTeacher, Dfa, DfaTeacher, EqAnswer, Learner, LearnerConfig, LearnerKind, Outcome,
    Queries, Step, StepWise, Symbol, Teacher, Word, learn,
};
use proptest::prelude::*;

mod common;
use common::{arb_dfa, arb_prefix_closed};

/// A teacher that answers one bit per query: only `membership` and `equivalence`, so
/// `membership_prefixes` is the trait's default.
struct Bits {
    target: Dfa,
    asked: u64,
}

impl Teacher for Bits {
    type Verdict = Infallible;
    type Error = Infallible;
    fn membership(&mut self, w: &[Symbol]) -> Result<bool, Infallible> {
        self.asked += 1;
        Ok(self.target.accepts(w))
    }
    fn equivalence(&mut self, h: &Dfa) -> Result<EqAnswer<Infallible>, Infallible> {
        Ok(match h.shortest_difference(&self.target) {
            None => EqAnswer::Equivalent,
            Some(w) => EqAnswer::Counterexample(w),
        })
    }
}

/// A step-wise perfect teacher that records every batch of words it is sent, and whether every
/// hypothesis was prefix-closed.
struct Recording {
    inner: DfaTeacher,
    batches: Vec<Vec<Word>>,
    all_prefix_closed: bool,
}

impl Recording {
    fn new(target: &Dfa) -> Self {
        Self {
            inner: DfaTeacher::new(target.clone()).with_prefix_answers(true),
            batches: Vec::new(),
            all_prefix_closed: true,
        }
    }
}

impl Teacher for Recording {
    type Verdict = Infallible;
    type Error = Infallible;
    fn membership(&mut self, w: &[Symbol]) -> Result<bool, Infallible> {
        self.inner.membership(w)
    }
    fn answers_prefixes(&self) -> bool {
        true
    }
    fn membership_prefixes(
        &mut self,
        w: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Infallible> {
        self.inner.membership_prefixes(w, answers)
    }
    fn memberships_prefixes(
        &mut self,
        words: &Queries,
        answers: &mut Vec<bool>,
    ) -> Result<(), Infallible> {
        self.batches
            .push(words.iter().map(<[Symbol]>::to_vec).collect());
        answers.clear();
        let mut one = Vec::new();
        for w in words.iter() {
            self.inner.membership_prefixes(w, &mut one)?;
            answers.extend_from_slice(&one);
        }
        Ok(())
    }
    fn equivalence(&mut self, h: &Dfa) -> Result<EqAnswer<Infallible>, Infallible> {
        self.all_prefix_closed &= h.is_prefix_closed();
        self.inner.equivalence(h)
    }
}

fn sharp() -> LearnerConfig {
    LearnerConfig::default().with_kind(LearnerKind::LSharp)
}

/// Learns `target` with `config` against `teacher`; the learned DFA and the learner.
fn run<T: Teacher<Verdict = Infallible>>(
    target: &Dfa,
    config: LearnerConfig,
    teacher: &mut T,
) -> (Dfa, Learner)
where
    T::Error: std::fmt::Debug,
{
    let mut learner = Learner::new(target.num_symbols(), config);
    let Outcome::Learned(dfa) = learn(&mut learner, teacher).expect("no budget") else {
        panic!("a perfect teacher never stops")
    };
    (dfa, learner)
}

/// A perfect equivalence oracle for a black box (the Wp-method would be exact only with a bound
/// as large as the target, too slow for a property test): the shortest difference from the
/// target, asked through `member` as a real oracle's test words are.
struct Perfect(Dfa);

impl EquivalenceOracle for Perfect {
    fn find_counterexample(
        &mut self,
        h: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted> {
        let Some(w) = h.shortest_difference(&self.0) else {
            return Ok(None);
        };
        assert_ne!(
            member(&w)?,
            h.accepts(&w),
            "the system disagrees with its DFA"
        );
        Ok(Some(w))
    }
}

/// Whether `a` is a prefix of `b` (or equal).
fn is_prefix(a: &[Symbol], b: &[Symbol]) -> bool {
    a.len() <= b.len() && b[..a.len()] == *a
}

/// Every word sent is new: not a prefix of (or equal to) a word sent in an earlier batch, whose
/// answers came with it, nor of another word of its own batch.
fn nothing_known_is_sent(batches: &[Vec<Word>]) -> Result<(), String> {
    let mut earlier: Vec<&Word> = Vec::new();
    for batch in batches {
        for (i, w) in batch.iter().enumerate() {
            if let Some(old) = earlier.iter().find(|old| is_prefix(w, old)) {
                return Err(format!("{w:?} was known from the earlier {old:?}"));
            }
            if let Some((_, other)) = batch
                .iter()
                .enumerate()
                .find(|&(j, v)| j != i && is_prefix(w, v))
            {
                return Err(format!("{w:?} comes with {other:?} of the same batch"));
            }
        }
        earlier.extend(batch);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_default_asks_membership_once_per_prefix(
        target in arb_dfa(8, 3),
        w in proptest::collection::vec(0usize..3, 0..12),
    ) {
        let w: Word = w.into_iter().filter(|&a| a < target.num_symbols()).map(Symbol::new).collect();
        let expected: Vec<bool> = (0..=w.len()).map(|i| target.accepts(&w[..i])).collect();
        let mut bits = Bits { target: target.clone(), asked: 0 };
        prop_assert!(!bits.answers_prefixes());
        let mut answers = vec![true; 3];
        bits.membership_prefixes(&w, &mut answers).unwrap();
        prop_assert_eq!(&answers, &expected);
        prop_assert_eq!(bits.asked, w.len() as u64 + 1);
        // The perfect teacher: one query step-wise, one per prefix otherwise.
        for (steps, queries) in [(true, 1), (false, w.len() as u64 + 1)] {
            let mut teacher = DfaTeacher::new(target.clone()).with_prefix_answers(steps);
            teacher.membership_prefixes(&w, &mut answers).unwrap();
            prop_assert_eq!(&answers, &expected);
            prop_assert_eq!(teacher.stats().membership_queries, queries);
        }
    }

    #[test]
    fn step_wise_lsharp_learns_random_dfas_exactly_and_minimally(target in arb_dfa(10, 3)) {
        let mut teacher = Recording::new(&target);
        let (dfa, learner) = run(&target, sharp(), &mut teacher);
        prop_assert!(dfa.shortest_difference(&target).is_none());
        prop_assert_eq!(dfa.num_states(), target.minimal_size());
        // One query per word sent, and the learner counted the same.
        let sent: usize = teacher.batches.iter().map(Vec::len).sum();
        prop_assert_eq!(teacher.inner.stats().membership_queries, sent as u64);
        prop_assert_eq!(learner.stats().membership_queries, sent as u64);
        if let Err(e) = nothing_known_is_sent(&teacher.batches) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn step_wise_lsharp_learns_prefix_closed_languages(target in arb_prefix_closed(10, 3)) {
        let mut teacher = Recording::new(&target);
        let config = sharp().with_prefix_closed(true);
        let (dfa, _) = run(&target, config, &mut teacher);
        prop_assert!(dfa.shortest_difference(&target).is_none());
        prop_assert_eq!(dfa.num_states(), target.minimal_size());
        prop_assert!(teacher.all_prefix_closed);
        if let Err(e) = nothing_known_is_sent(&teacher.batches) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn step_wise_and_one_bit_learn_the_same_dfa(target in arb_dfa(8, 3), star in any::<bool>()) {
        let config = if star { LearnerConfig::default() } else { sharp() };
        let mut learned = Vec::new();
        for steps in [false, true] {
            let mut teacher = DfaTeacher::new(target.clone()).with_prefix_answers(steps);
            let (dfa, learner) = run(&target, config.clone(), &mut teacher);
            prop_assert_eq!(learner.stats().membership_queries, teacher.stats().membership_queries);
            learned.push(dfa);
        }
        for dfa in &learned {
            prop_assert!(dfa.shortest_difference(&target).is_none());
            prop_assert_eq!(dfa.num_states(), target.minimal_size());
        }
        // A learner told to expect step-wise answers and given one bit per word: still exact.
        let mut learner = Learner::new(target.num_symbols(), config.clone());
        learner.set_prefix_answers(true);
        let dfa = loop {
            match learner.step().unwrap() {
                Step::Queries(ws) => {
                    let answers: Vec<bool> = ws.iter().map(|w| target.accepts(w)).collect();
                    learner.answer(&answers).unwrap();
                }
                Step::Hypothesis(h) => match h.shortest_difference(&target) {
                    None => break h.clone(),
                    Some(w) => learner.counterexample(w).unwrap(),
                },
                _ => unreachable!(),
            }
        };
        prop_assert!(dfa.shortest_difference(&target).is_none());
        // The default membership_prefixes (one bit per prefix) through `learn`: still exact.
        let mut bits = Bits { target: target.clone(), asked: 0 };
        let (dfa, _) = run(&target, config, &mut bits);
        prop_assert!(dfa.shortest_difference(&target).is_none());
    }

    #[test]
    fn a_step_wise_black_box_is_asked_each_word_once(target in arb_dfa(8, 3)) {
        let sent = Rc::new(RefCell::new(Vec::<Word>::new()));
        let (log, dfa_system) = (Rc::clone(&sent), target.clone());
        let system = StepWise::new(move |w: &[Symbol], answers: &mut Vec<bool>| {
            log.borrow_mut().push(w.to_vec());
            answers.clear();
            answers.extend((0..=w.len()).map(|i| dfa_system.accepts(&w[..i])));
        });
        let k = target.num_symbols();
        let mut teacher = BlackBoxTeacher::new(k, system, Perfect(target.clone()));
        let dfa = teacher.learn(sharp()).unwrap();
        prop_assert!(dfa.shortest_difference(&target).is_none());
        let sent = sent.borrow();
        prop_assert_eq!(teacher.counters().membership_queries, sent.len() as u64);
        // A word whose answer came with an earlier one is answered by the cache.
        for (i, w) in sent.iter().enumerate() {
            prop_assert!(!sent[..i].iter().any(|old| is_prefix(w, old)), "{:?} sent again", w);
        }
        let c = teacher.counters();
        prop_assert_eq!(c.cache_hits, c.learner_queries + c.oracle_queries - c.membership_queries);
        // A DFA is a step-wise system too: the same language.
        let mut by_dfa = BlackBoxTeacher::new(k, target.clone(), Perfect(target.clone()));
        let again = by_dfa.learn(sharp()).unwrap();
        prop_assert!(again.shortest_difference(&target).is_none());
    }
}

#[test]
fn step_wise_answers_save_queries_on_a_counter() {
    // Words over {0, 1} whose number of 0s is divisible by 5.
    let n = 5;
    let delta = (0..n).map(|q| vec![(q + 1) % n, q]).collect();
    let target = Dfa::new(2, delta, (0..n).map(|q| q == 0).collect()).unwrap();
    let mut counts = Vec::new();
    for steps in [false, true] {
        let mut teacher = DfaTeacher::new(target.clone()).with_prefix_answers(steps);
        let (dfa, learner) = run(&target, sharp(), &mut teacher);
        assert_eq!(dfa.num_states(), n);
        counts.push(learner.stats().membership_queries);
    }
    assert!(
        counts[1] < counts[0],
        "step-wise {} vs one-bit {}",
        counts[1],
        counts[0]
    );
}
