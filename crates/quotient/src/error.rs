//! [`QuotientError`]: why a synthesis or a check stopped without a verdict.
//!
//! A violated property is a verdict, not an error. Errors are bad input (no components, an index
//! out of range, a nondeterministic property) and exhausted budgets, which come from
//! [`guarantor_compose::Config`] as [`ComposeError`]s and are recognised by
//! [`QuotientError::is_budget`].

use guarantor_compose::{BudgetKind, ComposeError};
use guarantor_lts::{ComponentId, LtsError};

/// Why quotient synthesis or a quotient check stopped without a verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuotientError {
    /// The system has no component to replace.
    #[error("the system has no components")]
    NoComponents,
    /// The component to replace does not exist.
    #[error("component {replaced} does not exist (the system has {components})")]
    NoSuchComponent {
        /// The requested component.
        replaced: ComponentId,
        /// The number of components.
        components: usize,
    },
    /// An order for n-way replacement names a component twice.
    #[error("component {component} appears twice in the replacement order")]
    RepeatedInOrder {
        /// The repeated component.
        component: ComponentId,
    },
    /// Composition, a safety check, or a budget failed.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// Building an LTS failed.
    #[error(transparent)]
    Lts(#[from] LtsError),
    /// A counterexample of the quotient system could not be lifted to the original components.
    /// This would contradict the invertibility of the construction: please report it.
    #[error("internal error: a counterexample of the quotient system has no concrete witness")]
    LiftFailed,
}

impl QuotientError {
    /// Whether this error is an exhausted budget (state limit, deadline, cancellation).
    ///
    /// ```
    /// use guarantor_compose::ComposeError;
    /// use guarantor_quotient::QuotientError;
    /// assert!(QuotientError::Compose(ComposeError::Cancelled).is_budget());
    /// assert!(!QuotientError::NoComponents.is_budget());
    /// ```
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if one did (a composition's, or an LTS operation's).
    ///
    /// ```
    /// use guarantor_compose::{BudgetKind, ComposeError};
    /// use guarantor_quotient::QuotientError;
    /// let e = QuotientError::Compose(ComposeError::Deadline);
    /// assert_eq!(e.budget_kind(), Some(BudgetKind::Time));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::Compose(e) => e.budget_kind(),
            Self::Lts(e) => BudgetKind::of_lts(e),
            _ => None,
        }
    }
}
