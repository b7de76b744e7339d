//! The crate's error types: [`LstarError`] for the learner and the assume-guarantee drivers, and
//! [`LearnError`], which adds the teacher's own error for the [`learn`](crate::learn) driver.
//!
//! Budgets (rounds, membership queries, hypothesis size) end in typed variants that say which limit
//! was hit, so callers can report it or retry with a larger budget.

use guarantor_compose::{BudgetKind, ComposeError};
use guarantor_lts::LtsError;

/// What can go wrong while learning or while checking with learned assumptions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LstarError {
    /// More hypotheses (learning rounds) than the configured maximum.
    #[error("round limit of {limit} exceeded")]
    RoundLimit {
        /// The configured limit.
        limit: usize,
    },
    /// More membership queries sent to the teacher than the configured maximum.
    #[error("membership query limit of {limit} exceeded")]
    QueryLimit {
        /// The configured limit.
        limit: u64,
    },
    /// A hypothesis with more states than the configured maximum.
    #[error("hypothesis of {states} states exceeds the limit of {limit}")]
    HypothesisLimit {
        /// The configured limit.
        limit: usize,
        /// The size of the offending hypothesis.
        states: usize,
    },
    /// [`Learner::answer`](crate::Learner::answer) got the wrong number of answers, or was called
    /// when no queries were pending.
    #[error("expected {expected} answers, got {found}")]
    AnswerCount {
        /// How many answers were pending.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// [`Learner::counterexample`](crate::Learner::counterexample) was called while no hypothesis
    /// was pending.
    #[error("a counterexample was given while no hypothesis was pending")]
    NoHypothesis,
    /// A word used a symbol outside the learner's alphabet.
    #[error("symbol {symbol} is outside the alphabet of {num_symbols} symbols")]
    SymbolOutOfRange {
        /// The offending symbol index.
        symbol: usize,
        /// The alphabet size.
        num_symbols: usize,
    },
    /// The teacher's counterexample is classified by the hypothesis exactly as the teacher's own
    /// membership answer classifies it.
    #[error("the counterexample {word:?} is not one: hypothesis and teacher agree on it")]
    NotACounterexample {
        /// The word, as symbol indices.
        word: Vec<usize>,
    },
    /// The teacher's answers contradict each other (in prefix-closed mode: an accepted word with a
    /// rejected prefix), so the target is not a (prefix-closed) regular language as promised.
    #[error("inconsistent membership answers on {word:?}")]
    InconsistentAnswers {
        /// A word involved in the contradiction, as symbol indices.
        word: Vec<usize>,
    },
    /// A system answering step-wise gave the wrong number of answers for a word: a run of `word`
    /// must answer for each of its `word.len() + 1` prefixes, the empty word's first.
    #[error(
        "the system gave {found} answers for the prefixes of {word:?}, expected {expected} (the empty word's answer first)"
    )]
    WrongAnswerCount {
        /// The word, as symbol indices.
        word: Vec<usize>,
        /// How many answers its prefixes need.
        expected: usize,
        /// How many the system gave.
        found: usize,
    },
    /// A system answered the same word two ways: it is not deterministic (or is not reset
    /// between runs), so no DFA describes it.
    #[error(
        "the system answered {word:?} first {first}, then {then}: it is not deterministic (or not reset between runs)"
    )]
    ContradictoryAnswers {
        /// The word, as symbol indices.
        word: Vec<usize>,
        /// The answer it gave first.
        first: bool,
        /// The answer it gave when asked again.
        then: bool,
    },
    /// A DFA given to [`Dfa::new`](crate::Dfa::new) is malformed.
    #[error("malformed DFA: {0}")]
    MalformedDfa(String),
    /// A DFA was exported with the wrong number of action names.
    #[error("expected {expected} action names, found {found}")]
    AlphabetMismatch {
        /// The number of symbols.
        expected: usize,
        /// The number of names given.
        found: usize,
    },
    /// A safety LTS was requested from a DFA whose language is not prefix-closed.
    #[error("the language is not prefix-closed, so it has no safety LTS")]
    NotPrefixClosed,
    /// An LTS operation failed.
    #[error(transparent)]
    Lts(#[from] LtsError),
    /// A model check of an assume-guarantee teacher failed: a budget (see
    /// [`ComposeError::is_budget`]) or bad input such as a nondeterministic property.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// The input is outside what this method handles.
    #[error("unsupported: {0}")]
    Unsupported(&'static str),
}

impl LstarError {
    /// Whether the error is a budget running out: the learner's round, query or hypothesis
    /// limit, or a model check's states, deadline or cancellation.
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if one did: a composition's own, or [`BudgetKind::Other`] for the
    /// round, query and hypothesis limits of learning.
    ///
    /// ```
    /// use guarantor_compose::BudgetKind;
    /// use guarantor_lstar::LstarError;
    /// assert_eq!(LstarError::RoundLimit { limit: 3 }.budget_kind(), Some(BudgetKind::Other));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::Compose(e) => e.budget_kind(),
            Self::RoundLimit { .. } | Self::QueryLimit { .. } | Self::HypothesisLimit { .. } => {
                Some(BudgetKind::Other)
            }
            _ => None,
        }
    }
}

/// The error of the [`learn`](crate::learn) driver: the learner's or the teacher's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LearnError<E> {
    /// The learner failed (a budget, or inconsistent answers).
    #[error(transparent)]
    Learner(#[from] LstarError),
    /// The teacher failed.
    #[error("teacher failed: {0}")]
    Teacher(#[source] E),
}
