//! The crate's error type, [`CircError`].
//!
//! Budgets (iterations, SAT conflicts, assumption size, the composition budgets of
//! [`guarantor_compose::Config`]) end in typed variants naming the limit, never in a hang; bad input
//! (a nondeterministic property, a malformed policy or grouping) is reported, never panicked on. A
//! violated property is a verdict, not an error.

use guarantor_compose::{BudgetKind, ComposeError};
use guarantor_lts::LtsError;

/// Why a CIRC-AG_N run stopped without a verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CircError {
    /// No components were given.
    #[error("no components to check")]
    NoComponents,
    /// A user-given assumption policy is malformed.
    #[error("bad assumption policy: {reason}")]
    BadPolicy {
        /// What is wrong with it.
        reason: String,
    },
    /// A two-way grouping is malformed.
    #[error("bad two-way grouping: {reason}")]
    BadGrouping {
        /// What is wrong with it.
        reason: String,
    },
    /// More inner iterations (assumption generations) than allowed.
    #[error("iteration limit of {limit} exceeded")]
    IterationLimit {
        /// The configured limit.
        limit: usize,
    },
    /// The SAT solver used more conflicts than allowed (counted as learnt clauses).
    #[error("SAT conflict budget of {limit} exhausted")]
    SatBudget {
        /// The configured limit.
        limit: u64,
    },
    /// The bound on the total assumption size grew past the allowed maximum.
    #[error("total assumption size would exceed {limit} states")]
    SizeLimit {
        /// The configured limit.
        limit: usize,
    },
    /// The SAT backend failed for a reason other than a budget.
    #[error("SAT backend failed: {reason}")]
    Solver {
        /// The backend's message.
        reason: String,
    },
    /// An internal consistency check failed (a bug; please report it with the input).
    #[error("internal error: {reason}")]
    Internal {
        /// What was found inconsistent.
        reason: String,
    },
    /// A composition or premise check failed (bad property or exhausted composition budget).
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// Building an LTS failed.
    #[error(transparent)]
    Lts(#[from] LtsError),
}

impl CircError {
    /// Whether the error is an exhausted budget (iterations, conflicts, size, or a composition
    /// budget) rather than bad input or a bug.
    ///
    /// ```
    /// use guarantor_circ::CircError;
    /// assert!(CircError::SatBudget { limit: 10 }.is_budget());
    /// assert!(!CircError::NoComponents.is_budget());
    /// ```
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if one did: the size limit is [`BudgetKind::States`]; the
    /// iteration limit and the SAT conflict budget are [`BudgetKind::Other`].
    ///
    /// ```
    /// use guarantor_circ::CircError;
    /// use guarantor_compose::BudgetKind;
    /// assert_eq!(CircError::SizeLimit { limit: 9 }.budget_kind(), Some(BudgetKind::States));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::IterationLimit { .. } | Self::SatBudget { .. } => Some(BudgetKind::Other),
            Self::SizeLimit { .. } => Some(BudgetKind::States),
            Self::Lts(e) => BudgetKind::of_lts(e),
            Self::Compose(e) => e.budget_kind(),
            _ => None,
        }
    }
}
