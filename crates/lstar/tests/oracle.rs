//! The teacher writer's toolbox: the equivalence oracles find a counterexample when a hypothesis
//! is wrong (W and Wp always, with a bound that covers the target) and none when it is right; the
//! black-box teacher learns exactly with them, its counters add up and no word reaches the system
//! twice; the named alphabet round-trips; the example's system is learned exactly.

use std::collections::HashSet;
use std::convert::Infallible;

use guarantor_lstar::oracle::{
    EquivalenceOracle, Interrupted, RandomWalk, RandomWords, WMethod, WpMethod,
};
use guarantor_lstar::{
    Alphabet, BlackBoxTeacher, Dfa, LearnError, Learner, LearnerConfig, LearnerKind, Membership,
    Outcome, Step, Symbol, Word, learn, word,
};
use proptest::prelude::*;

mod common;
use common::arb_dfa;

/// The teacher-writer example, compiled in here so its system can be checked.
#[path = "../examples/black_box.rs"]
mod example;

/// Every hypothesis a learner of `config` offers while learning `target` with a perfect teacher
/// (the shortest difference as counterexample), the last one right.
fn hypotheses(target: &Dfa, config: LearnerConfig) -> Vec<Dfa> {
    let mut learner = Learner::new(target.num_symbols(), config);
    let mut out = Vec::new();
    loop {
        match learner.step().unwrap() {
            Step::Queries(words) => {
                let answers: Vec<bool> = words.iter().map(|w| target.accepts(w)).collect();
                learner.answer(&answers).unwrap();
            }
            Step::Hypothesis(h) => {
                let h = h.clone();
                let cex = h.shortest_difference(target);
                out.push(h);
                match cex {
                    None => return out,
                    Some(w) => learner.counterexample(w).unwrap(),
                }
            }
            _ => unreachable!(),
        }
    }
}

/// The oracle's answer on `h` against `target`, with the distinct words it asked.
fn run(oracle: &mut dyn EquivalenceOracle, h: &Dfa, target: &Dfa) -> (Option<Word>, usize) {
    let mut asked = HashSet::new();
    let found = oracle
        .find_counterexample(h, &mut |w| {
            asked.insert(w.to_vec());
            Ok(target.accepts(w))
        })
        .unwrap();
    (found, asked.len())
}

/// `target` with acceptance flipped: every word is a counterexample to it.
fn complement(target: &Dfa) -> Dfa {
    let delta = (0..target.num_states())
        .map(|q| {
            Symbol::all(target.num_symbols())
                .map(|a| target.successor(q, a))
                .collect()
        })
        .collect();
    let accepting = (0..target.num_states())
        .map(|q| !target.is_accepting(q))
        .collect();
    Dfa::new(target.num_symbols(), delta, accepting).unwrap()
}

fn kinds() -> [LearnerConfig; 2] {
    [
        LearnerConfig::default(),
        LearnerConfig::default().with_kind(LearnerKind::LSharp),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// W and Wp with a bound covering the target find a counterexample to every wrong hypothesis
    /// and none to the right one; on the right hypothesis, where both run their whole suite, Wp
    /// asks no more words than W. (On a wrong one each stops at its first counterexample, and the
    /// two suites meet their counterexamples in different orders, so there is no such bound.)
    #[test]
    fn w_and_wp_are_exact_with_a_sufficient_bound(target in arb_dfa(6, 3), sharp in any::<bool>()) {
        let config = kinds()[usize::from(sharp)].clone();
        for h in hypotheses(&target, config) {
            let wrong = h.shortest_difference(&target).is_some();
            let extra = target.minimal_size().saturating_sub(h.num_states());
            let (w, w_asked) = run(&mut WMethod::new(extra), &h, &target);
            let (wp, wp_asked) = run(&mut WpMethod::new(extra), &h, &target);
            for found in [&w, &wp] {
                prop_assert_eq!(found.is_some(), wrong);
                if let Some(cex) = found {
                    prop_assert_ne!(h.accepts(cex), target.accepts(cex));
                }
            }
            if !wrong {
                prop_assert!(wp_asked <= w_asked, "Wp asked {} words, W {}", wp_asked, w_asked);
            }
        }
    }

    /// The random oracles only return real counterexamples, none to the right hypothesis, and
    /// one to a hypothesis that is wrong on every word.
    #[test]
    fn random_oracles_are_sound(target in arb_dfa(6, 3), seed in any::<u64>()) {
        let mut oracles: [Box<dyn EquivalenceOracle>; 2] = [
            Box::new(RandomWords::new(seed, 50, 0, 10)),
            Box::new(RandomWalk::new(seed, 100, 0.1)),
        ];
        for oracle in &mut oracles {
            for h in hypotheses(&target, LearnerConfig::default()) {
                if let (Some(cex), _) = run(oracle.as_mut(), &h, &target) {
                    prop_assert_ne!(h.accepts(&cex), target.accepts(&cex));
                }
            }
            prop_assert_eq!(run(oracle.as_mut(), &target, &target).0, None);
            prop_assert!(run(oracle.as_mut(), &complement(&target), &target).0.is_some());
        }
    }

    /// The black-box teacher with Wp learns the target exactly, with either learner; the system
    /// sees each word once, and the counters add up.
    #[test]
    fn black_box_teacher_learns_exactly_and_counts(target in arb_dfa(5, 3), sharp in any::<bool>()) {
        let mut calls: Vec<Word> = Vec::new();
        let system = |w: &[Symbol]| {
            calls.push(w.to_vec());
            target.accepts(w)
        };
        let extra = target.minimal_size() - 1;
        let mut teacher = BlackBoxTeacher::new(target.num_symbols(), system, WpMethod::new(extra));
        let mut learner = Learner::new(target.num_symbols(), kinds()[usize::from(sharp)].clone());
        let Outcome::Learned(dfa) = learn(&mut learner, &mut teacher).unwrap() else {
            unreachable!()
        };
        prop_assert_eq!(dfa.shortest_difference(&target), None);
        let c = teacher.counters().clone();
        drop(teacher);
        let distinct: HashSet<&Word> = calls.iter().collect();
        prop_assert_eq!(distinct.len(), calls.len(), "a word reached the system twice");
        prop_assert_eq!(c.membership_queries, calls.len() as u64);
        prop_assert_eq!(c.symbols, calls.iter().map(|w| w.len() as u64).sum::<u64>());
        prop_assert_eq!(c.learner_queries, learner.stats().membership_queries);
        prop_assert_eq!(c.equivalence_queries, learner.stats().equivalence_queries);
        prop_assert_eq!(c.membership_queries + c.cache_hits, c.learner_queries + c.oracle_queries);
    }
}

/// Same seed, same run: the random oracles draw the same words, so learning asks the same.
#[test]
fn random_oracles_are_deterministic() {
    let target = Dfa::new(
        2,
        vec![vec![1, 0], vec![2, 1], vec![0, 2]],
        vec![true, false, false],
    )
    .unwrap();
    let counts = |seed| {
        let system = |w: &[Symbol]| target.accepts(w);
        let mut a = BlackBoxTeacher::new(2, system, RandomWords::new(seed, 100, 0, 12));
        let mut b = BlackBoxTeacher::new(2, system, RandomWalk::new(seed, 300, 0.2));
        let (da, db) = (
            a.learn(LearnerConfig::default()).unwrap(),
            b.learn(LearnerConfig::default()).unwrap(),
        );
        assert_eq!(da.shortest_difference(&target), None);
        assert_eq!(db.shortest_difference(&target), None);
        let key = |t: &guarantor_lstar::Counters| (t.membership_queries, t.oracle_queries);
        (key(a.counters()), key(b.counters()))
    };
    assert_eq!(counts(1), counts(1));
    assert_eq!(counts(99), counts(99));
}

/// A system that fails after `budget` answers.
struct Flaky<'a> {
    target: &'a Dfa,
    budget: usize,
}

impl Membership for Flaky<'_> {
    type Error = &'static str;
    fn accepts(&mut self, w: &[Symbol]) -> Result<bool, &'static str> {
        if self.budget == 0 {
            return Err("the system is down");
        }
        self.budget -= 1;
        Ok(self.target.accepts(w))
    }
}

/// The system's failure ends learning as the teacher's error, whether the learner or the oracle
/// was asking.
#[test]
fn a_failing_system_is_the_teachers_error() {
    let target = Dfa::new(
        2,
        vec![vec![1, 0], vec![2, 1], vec![0, 2]],
        vec![true, false, false],
    )
    .unwrap();
    for budget in [0, 3, 10, 40] {
        let system = Flaky {
            target: &target,
            budget,
        };
        let mut teacher = BlackBoxTeacher::new(2, system, WMethod::new(2));
        let err = teacher.learn(LearnerConfig::default()).unwrap_err();
        assert!(
            matches!(err, LearnError::Teacher("the system is down")),
            "{err:?}"
        );
    }
    // An oracle whose membership source fails stops with `Interrupted`.
    let h = Dfa::new(2, vec![vec![0, 0]], vec![true]).unwrap();
    let found = WpMethod::new(1).find_counterexample(&h, &mut |_| Err(Interrupted));
    assert_eq!(found, Err(Interrupted));
}

#[test]
fn the_alphabet_round_trips_names() {
    let alphabet = Alphabet::new(["a", "b", "tau'"]);
    assert_eq!(alphabet.len(), 3);
    for (i, name) in alphabet.names().iter().enumerate() {
        assert_eq!(alphabet.symbol(name), Some(Symbol::new(i)));
        assert_eq!(alphabet.name(Symbol::new(i)), name);
    }
    let names = ["b", "a", "tau'", "b"];
    let w = alphabet.word(&names).unwrap();
    assert_eq!(w, word(&[1, 0, 2, 1]));
    assert_eq!(alphabet.spell(&w), names);
    assert_eq!(alphabet.word(&["a", "c"]), None);
    // The membership adapter hands the system names; the export names the actions.
    let mut system = alphabet.named(|w: &[&str]| w.first() == Some(&"a"));
    assert_eq!(system.accepts(&word(&[0, 1])), Ok::<_, Infallible>(true));
    assert_eq!(system.accepts(&word(&[1, 0])), Ok(false));
    let dfa = Dfa::new(3, vec![vec![0, 0, 0]], vec![true]).unwrap();
    let lts = alphabet.to_lts(&dfa).unwrap();
    for name in alphabet.names() {
        assert!(lts.alphabet().get(name).is_some(), "{name} not declared");
    }
}

#[test]
#[should_panic(expected = "appears twice")]
fn a_repeated_name_is_a_caller_bug() {
    let _ = Alphabet::new(["a", "b", "a"]);
}

/// The example runs, and what it learns is its system: even number of a's, no "bb" (states:
/// parity of a's x whether the last symbol was b, and a rejecting sink).
#[test]
fn the_example_learns_its_system_exactly() {
    example::main().unwrap();
    let alphabet = Alphabet::new(["a", "b"]);
    let mut teacher = alphabet.teacher(example::system, WpMethod::new(2));
    let learned = teacher.learn(LearnerConfig::default()).unwrap();
    // States: 0 even, 1 even after b, 2 odd, 3 odd after b, 4 sink; columns a, b.
    let target = Dfa::new(
        2,
        vec![vec![2, 1], vec![2, 4], vec![0, 3], vec![0, 4], vec![4, 4]],
        vec![true, true, false, false, false],
    )
    .unwrap();
    assert_eq!(learned.shortest_difference(&target), None);
    assert_eq!(learned.num_states(), 5);
    let c = teacher.counters();
    assert_eq!(
        c.membership_queries + c.cache_hits,
        c.learner_queries + c.oracle_queries
    );
}
