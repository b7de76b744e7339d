//! The teacher side: the [`Teacher`] trait users implement, the three-way equivalence answer
//! [`EqAnswer`], the [`learn`] driver that runs a [`Learner`] against a teacher, and [`DfaTeacher`],
//! a perfect teacher for a known DFA (tests and benchmarks).
//!
//! **Step-wise answers.** A system that is run symbol by symbol (a simulator, a DFA, a device
//! reset and then fed the word) sees whether every prefix of the word is accepted on its way to
//! the last one; AALpy's SUL returns all of those outputs for one query. A teacher that can do the
//! same says so with [`Teacher::answers_prefixes`] and answers
//! [`Teacher::membership_prefixes`] natively; [`learn`] then hands the learner every prefix's
//! answer ([`Learner::answer_prefixes`]), and L# puts them all in its observation tree. One word
//! sent is one membership query either way; a teacher that does not answer step-wise keeps the
//! default, which asks [`Teacher::membership`] once per prefix and so counts one query per prefix.

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

    /// Whether this teacher answers [`Teacher::membership_prefixes`] *natively*: one run of the
    /// system gives the answer of every prefix, at the cost of one membership query. [`learn`]
    /// asks this once, at the start, and only then asks step-wise and tells the learner
    /// ([`Learner::set_prefix_answers`]).
    ///
    /// The default is `false`: the default [`Teacher::membership_prefixes`] asks one membership
    /// query per prefix, so asking step-wise would cost more, not less.
    fn answers_prefixes(&self) -> bool {
        false
    }

    /// The answers for every prefix of `word`: `answers` (emptied first) gets `word.len() + 1`
    /// answers, `answers[i]` saying whether the target contains `word[..i]`. The empty word comes
    /// first (a system that is reset shows whether its initial state accepts before any step),
    /// `word` itself last.
    ///
    /// The default asks [`Teacher::membership`] once per prefix, which is right for every teacher
    /// and honest about the cost (`word.len() + 1` queries). A teacher that runs its system symbol
    /// by symbol overrides it with one run, and says so with [`Teacher::answers_prefixes`].
    ///
    /// ```
    /// use guarantor_lstar::{word, Dfa, DfaTeacher, Teacher};
    /// // Words over {0, 1} with an even number of 0s.
    /// let target = Dfa::new(2, vec![vec![1, 0], vec![0, 1]], vec![true, false])?;
    /// let mut answers = Vec::new();
    /// // The default: one membership query per prefix.
    /// let mut bits = DfaTeacher::new(target.clone());
    /// bits.membership_prefixes(&word(&[0, 1, 0]), &mut answers)?;
    /// assert_eq!(answers, [true, false, false, true]);
    /// assert_eq!(bits.stats().membership_queries, 4);
    /// // A step-wise teacher: the same answers from one query.
    /// let mut steps = DfaTeacher::new(target).with_prefix_answers(true);
    /// assert!(steps.answers_prefixes());
    /// steps.membership_prefixes(&word(&[0, 1, 0]), &mut answers)?;
    /// assert_eq!(answers, [true, false, false, true]);
    /// assert_eq!(steps.stats().membership_queries, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The teacher's failure.
    fn membership_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Self::Error> {
        each_prefix(word, answers, |prefix| self.membership(prefix))
    }

    /// [`Teacher::membership_prefixes`] for a batch: `answers` (emptied first) gets, word after
    /// word in the order of `words`, the `len + 1` prefix answers of each, back to back. [`learn`]
    /// hands a step-wise teacher each batch through this method.
    ///
    /// The default asks [`Teacher::membership_prefixes`] word by word; a teacher that answers
    /// batches together overrides it as it would [`Teacher::memberships`].
    ///
    /// # Errors
    /// The teacher's failure on any word.
    fn memberships_prefixes(
        &mut self,
        words: &Queries,
        answers: &mut Vec<bool>,
    ) -> Result<(), Self::Error> {
        answers.clear();
        let mut one = Vec::new();
        for word in words.iter() {
            self.membership_prefixes(word, &mut one)?;
            answers.extend_from_slice(&one);
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
/// A teacher that [answers step-wise](Teacher::answers_prefixes) is asked
/// [`Teacher::memberships_prefixes`], and the learner gets every prefix's answer; any other is
/// asked [`Teacher::memberships`].
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
    let prefixes = teacher.answers_prefixes();
    learner.set_prefix_answers(prefixes);
    loop {
        let eq = match learner.step()? {
            Step::Queries(words) if prefixes => {
                teacher
                    .memberships_prefixes(words, &mut answers)
                    .map_err(LearnError::Teacher)?;
                learner.answer_prefixes(&answers)?;
                continue;
            }
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
///
/// By default it answers one bit per membership query; [`DfaTeacher::with_prefix_answers`] makes
/// it answer step-wise (one run of the DFA gives every prefix's answer, one query), as AALpy's DFA
/// SUL does.
#[derive(Clone, Debug)]
pub struct DfaTeacher {
    target: Dfa,
    stats: Stats,
    /// Whether it answers step-wise ([`Teacher::answers_prefixes`]).
    prefixes: bool,
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
            prefixes: false,
        }
    }

    /// This teacher, answering step-wise when `on` ([`Teacher::answers_prefixes`]): a word's
    /// [`Teacher::membership_prefixes`] is then one query (of `word.len()` symbols), as a run of
    /// the DFA passes every prefix on its way.
    #[must_use]
    pub fn with_prefix_answers(mut self, on: bool) -> Self {
        self.prefixes = on;
        self
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

    fn answers_prefixes(&self) -> bool {
        self.prefixes
    }

    fn membership_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Infallible> {
        if !self.prefixes {
            // One bit per query: each prefix is its own query, counted.
            return each_prefix(word, answers, |prefix| self.membership(prefix));
        }
        self.stats.membership_queries += 1;
        self.stats.symbols += word.len() as u64;
        run_prefixes(&self.target, word, answers);
        Ok(())
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

/// Runs `dfa` along `word`, writing whether it accepts each prefix (the empty word first) to
/// `answers`, emptied first: one pass over the word, as a step-wise system answers.
/// The answers for every prefix of `word`, the empty word's first, asked one prefix at a time
/// through `ask` (the one-bit way to give step-wise answers): `answers` is emptied first.
pub(crate) fn each_prefix<E>(
    word: &[Symbol],
    answers: &mut Vec<bool>,
    mut ask: impl FnMut(&[Symbol]) -> Result<bool, E>,
) -> Result<(), E> {
    answers.clear();
    for i in 0..=word.len() {
        answers.push(ask(&word[..i])?);
    }
    Ok(())
}

pub(crate) fn run_prefixes(dfa: &Dfa, word: &[Symbol], answers: &mut Vec<bool>) {
    answers.clear();
    let mut q = 0;
    answers.push(dfa.is_accepting(q));
    for &a in word {
        q = dfa.successor(q, a);
        answers.push(dfa.is_accepting(q));
    }
}
