//! [`ComposeError`]: everything that can stop a composition or a check before it reaches a verdict.
//!
//! A *verdict* (property holds or is violated) is never an error: it is a
//! [`Verdict`](crate::Verdict). Errors are bad input (a nondeterministic property, ids that overflow)
//! and exhausted budgets. Budget errors are grouped by [`ComposeError::is_budget`] because callers
//! treat them alike (the CLI maps them to one exit code): the question was fine, the answer was too
//! expensive.

use guarantor_lts::LtsError;

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
    /// Whether this error is an exhausted budget (state limit, deadline, cancellation) rather than
    /// bad input. Running out of 32-bit state ids counts as a state budget too.
    ///
    /// ```
    /// use guarantor_compose::ComposeError;
    /// assert!(ComposeError::Deadline.is_budget());
    /// assert!(!ComposeError::PropertyNotDeterministic { state: 0, action: "a".into() }.is_budget());
    /// ```
    pub fn is_budget(&self) -> bool {
        match self {
            Self::StateLimit { .. }
            | Self::MemoryLimit { .. }
            | Self::Deadline
            | Self::Cancelled
            | Self::Lts(
                LtsError::IdOverflow(_) | LtsError::StateLimit { .. } | LtsError::Interrupted,
            ) => true,
            Self::PropertyNotDeterministic { .. } | Self::Checkpoint(_) | Self::Lts(_) => false,
        }
    }
}
