//! The teacher side: the [`Teacher`] trait users implement, the three-way equivalence answer
//! [`EqAnswer`], the [`learn`] driver that runs a [`Learner`] against a teacher, and [`DfaTeacher`],
//! a perfect teacher for a known DFA (tests and benchmarks).

use std::convert::Infallible;

use crate::config::Stats;
use crate::dfa::{Dfa, PairSearch, Symbol, Word};
use crate::error::{LearnError, LstarError};
use crate::learner::{Learner, Step};
use crate::queries::Queries;

/// The answer to an equivalence query.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EqAnswer<V> {
    /// The hypothesis is right: learning ends with it.
    Equivalent,
    /// The hypothesis classifies this word wrongly.
    Counterexample(Word),
    /// Stop learning with this verdict. An assume-guarantee teacher uses it when a conjecture
    /// already settles the verification (the property holds with this assumption, or a real
    /// counterexample turned up), long before the target language is learned.
    Stop(V),
}

/// Answers membership and equivalence queries about a target language.
pub trait Teacher {
    /// What a [`EqAnswer::Stop`] carries.
    type Verdict;
    /// The teacher's own failure (a model checker out of budget, an I/O error, ...).
    type Error;

    /// Whether the target language contains `word`.
    fn membership(&mut self, word: &[Symbol]) -> Result<bool, Self::Error>;

    /// Answers a batch of membership queries: `answers` (emptied first) gets one answer per word
    /// of `words`, in order. [`learn`] hands the teacher each batch the learner asks at once
    /// through this method.
    ///
    /// The default asks [`Teacher::membership`] word by word. A teacher whose queries are
    /// independent (a model check each, a call to a system under test, a service that takes
    /// batches) answers them together, concurrently or in one round trip; it must give the answers
    /// `membership` would, in the same order.
    ///
    /// # Errors
    /// The teacher's failure on any word.
    fn memberships(&mut self, words: &Queries, answers: &mut Vec<bool>) -> Result<(), Self::Error> {
        answers.clear();
        for word in words.iter() {
            answers.push(self.membership(word)?);
        }
        Ok(())
    }

    /// Whether `hypothesis` recognises the target language.
    fn equivalence(&mut self, hypothesis: &Dfa) -> Result<EqAnswer<Self::Verdict>, Self::Error>;
}

/// How a [`learn`] run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome<V> {
    /// The teacher accepted this hypothesis.
    Learned(Dfa),
    /// The teacher stopped learning with a verdict while `hypothesis` was on the table.
    Stopped {
        /// The teacher's verdict.
        verdict: V,
        /// The hypothesis the teacher stopped on.
        hypothesis: Dfa,
    },
}

/// Runs `learner` against `teacher` until the teacher accepts a hypothesis or stops.
///
/// ```
/// use guarantor_lstar::{learn, Dfa, DfaTeacher, Learner, LearnerConfig, Outcome};
/// let target = Dfa::new(2, vec![vec![1, 0], vec![2, 0], vec![2, 2]], vec![true, true, false])?;
/// let mut learner = Learner::new(2, LearnerConfig::default().with_prefix_closed(true));
/// let Outcome::Learned(dfa) = learn(&mut learner, &mut DfaTeacher::new(target.clone()))? else {
///     unreachable!("a DfaTeacher never stops")
/// };
/// assert!(dfa.shortest_difference(&target).is_none());
/// assert_eq!(dfa.num_states(), target.minimal_size());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`LearnError::Learner`] when a budget runs out or answers are inconsistent;
/// [`LearnError::Teacher`] when the teacher fails.
pub fn learn<T: Teacher>(
    learner: &mut Learner,
    teacher: &mut T,
) -> Result<Outcome<T::Verdict>, LearnError<T::Error>> {
    // One answer buffer for the whole run rather than one allocation per batch.
    let mut answers = Vec::with_capacity(256);
    loop {
        let eq = match learner.step()? {
            Step::Queries(words) => {
                teacher
                    .memberships(words, &mut answers)
                    .map_err(LearnError::Teacher)?;
                learner.answer(&answers)?;
                continue;
            }
            Step::Hypothesis(h) => teacher.equivalence(h).map_err(LearnError::Teacher)?,
        };
        let current = || {
            learner
                .hypothesis()
                .cloned()
                .ok_or(LstarError::NoHypothesis)
        };
        match eq {
            EqAnswer::Equivalent => return Ok(Outcome::Learned(current()?)),
            EqAnswer::Stop(verdict) => {
                return Ok(Outcome::Stopped {
                    verdict,
                    hypothesis: current()?,
                });
            }
            EqAnswer::Counterexample(w) => learner.counterexample(w)?,
        }
    }
}

/// A perfect teacher for a known DFA. Equivalence answers with the shortest difference found by
/// [`Dfa::shortest_difference`] (the AALpy harness's rule); it never stops early.
#[derive(Clone, Debug)]
pub struct DfaTeacher {
    target: Dfa,
    stats: Stats,
    /// The equivalence search's arrays, reused by every query.
    search: PairSearch,
}

impl DfaTeacher {
    /// A teacher for `target`.
    pub fn new(target: Dfa) -> Self {
        Self {
            search: PairSearch::for_target(&target),
            target,
            stats: Stats::default(),
        }
    }

    /// The target.
    pub fn target(&self) -> &Dfa {
        &self.target
    }

    /// Queries this teacher answered (`membership_queries`, `symbols`, `equivalence_queries`).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

impl Teacher for DfaTeacher {
    type Verdict = Infallible;
    type Error = Infallible;

    fn membership(&mut self, word: &[Symbol]) -> Result<bool, Infallible> {
        self.stats.membership_queries += 1;
        self.stats.symbols += word.len() as u64;
        Ok(self.target.accepts(word))
    }

    fn equivalence(&mut self, hypothesis: &Dfa) -> Result<EqAnswer<Infallible>, Infallible> {
        self.stats.equivalence_queries += 1;
        let found = self
            .search
            .shortest_difference(hypothesis, 0, &self.target, 0);
        Ok(match found {
            None => EqAnswer::Equivalent,
            Some(w) => EqAnswer::Counterexample(w),
        })
    }
}
