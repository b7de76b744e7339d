//! [`ComposeError`]: everything that can stop a composition or a check before it reaches a verdict.
//!
//! A *verdict* (property holds or is violated) is never an error: it is a
//! [`Verdict`](crate::Verdict). Errors are bad input (a nondeterministic property, ids that overflow)
//! and exhausted budgets. Budget errors are grouped by [`ComposeError::is_budget`] because callers
//! treat them alike (the CLI maps them to one exit code): the question was fine, the answer was too
//! expensive. Which budget ran out is a [`BudgetKind`]: every crate's error answers
//! `budget_kind()` itself, so a caller reads it without knowing which crate stopped.

use guarantor_lts::LtsError;

/// Which budget ran out: the kinds a caller treats differently (a bigger state limit, more time,
/// more memory; a cancellation asked for), and [`BudgetKind::Other`] for the limits of one method.
///
/// ```
/// use guarantor_compose::{BudgetKind, ComposeError};
/// assert_eq!(ComposeError::Deadline.budget_kind(), Some(BudgetKind::Time));
/// assert_eq!(BudgetKind::Time.name(), "time");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetKind {
    /// The state limit ([`Config::max_states`](crate::Config::max_states)), a size limit of a
    /// method, or 32-bit state ids running out.
    States,
    /// The timeout or deadline.
    Time,
    /// The cancel flag.
    Cancelled,
    /// The memory limit ([`Config::max_memory`](crate::Config::max_memory)).
    Memory,
    /// Another limit: learning rounds or queries, SAT conflicts, refinement iterations, or an
    /// interrupted operation that does not say why.
    Other,
}

impl BudgetKind {
    /// The kind's name as the JSON output spells it: `states`, `time`, `cancelled`, `memory` or
    /// `other`.
    pub fn name(self) -> &'static str {
        match self {
            Self::States => "states",
            Self::Time => "time",
            Self::Cancelled => "cancelled",
            Self::Memory => "memory",
            Self::Other => "other",
        }
    }

    /// The budget behind an error of `guarantor-lts` (which sits below this crate and so cannot
    /// name the kind itself): state limits and id overflow are [`BudgetKind::States`], an
    /// interrupted operation [`BudgetKind::Other`].
    ///
    /// ```
    /// use guarantor_compose::BudgetKind;
    /// use guarantor_lts::LtsError;
    /// assert_eq!(BudgetKind::of_lts(&LtsError::Interrupted), Some(BudgetKind::Other));
    /// assert_eq!(BudgetKind::of_lts(&LtsError::NoStates), None);
    /// ```
    pub fn of_lts(e: &LtsError) -> Option<Self> {
        match e {
            LtsError::StateLimit { .. } | LtsError::IdOverflow(_) => Some(Self::States),
            LtsError::Interrupted => Some(Self::Other),
            _ => None,
        }
    }
}

/// Why a composition or a check stopped without a verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ComposeError {
    /// The exploration would discover more product states than [`Config::max_states`] allows.
    ///
    /// [`Config::max_states`]: crate::Config::max_states
    #[error("state limit of {limit} product states exceeded")]
    StateLimit {
        /// The configured limit.
        limit: usize,
    },
    /// The configured deadline passed.
    #[error("deadline passed before the exploration finished")]
    Deadline,
    /// The configured cancel flag was raised.
    #[error("cancelled")]
    Cancelled,
    /// The process's resident memory (with the growth the exploration had announced) would pass
    /// [`Config::max_memory`].
    ///
    /// [`Config::max_memory`]: crate::Config::max_memory
    #[error("memory limit of {limit} bytes (resident set) exceeded")]
    MemoryLimit {
        /// The configured limit, in bytes.
        limit: u64,
    },
    /// A safety property (or guarantee) is not deterministic, so its error LTS is undefined.
    #[error(
        "the property is not deterministic: state {state} has a tau transition or several transitions on {action:?}"
    )]
    PropertyNotDeterministic {
        /// The state with a nondeterministic choice.
        state: usize,
        /// The action name (`"tau"` for a tau transition).
        action: String,
    },
    /// Writing a checkpoint failed, or the checkpoint to resume from is missing, damaged or of
    /// another model, options or version.
    #[error(transparent)]
    Checkpoint(#[from] crate::checkpoint::CheckpointError),
    /// Building an LTS failed (for example, more product states than 32-bit ids can number).
    #[error(transparent)]
    Lts(#[from] LtsError),
}

impl ComposeError {
    /// Whether this error is an exhausted budget (state limit, deadline, cancellation, memory)
    /// rather than bad input. Running out of 32-bit state ids counts as a state budget too.
    ///
    /// ```
    /// use guarantor_compose::ComposeError;
    /// assert!(ComposeError::Deadline.is_budget());
    /// assert!(!ComposeError::PropertyNotDeterministic { state: 0, action: "a".into() }.is_budget());
    /// ```
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if this error is an exhausted budget.
    ///
    /// ```
    /// use guarantor_compose::{BudgetKind, ComposeError};
    /// assert_eq!(ComposeError::StateLimit { limit: 9 }.budget_kind(), Some(BudgetKind::States));
    /// assert_eq!(ComposeError::Cancelled.budget_kind(), Some(BudgetKind::Cancelled));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::StateLimit { .. } => Some(BudgetKind::States),
            Self::MemoryLimit { .. } => Some(BudgetKind::Memory),
            Self::Deadline => Some(BudgetKind::Time),
            Self::Cancelled => Some(BudgetKind::Cancelled),
            Self::Lts(e) => BudgetKind::of_lts(e),
            Self::PropertyNotDeterministic { .. } | Self::Checkpoint(_) => None,
        }
    }
}
