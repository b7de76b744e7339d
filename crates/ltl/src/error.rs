//! The crate's error type, [`LtlError`].

use guarantor_compose::{BudgetKind, ComposeError};
use guarantor_ltl_core::FormulaError;
use guarantor_lts::LtsError;

/// What can go wrong building, compiling or checking a formula.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LtlError {
    /// The formula and its proposition table do not fit together (an unknown proposition, a
    /// fluent whose sets overlap).
    #[error(transparent)]
    Formula(#[from] FormulaError),
    /// A formula was to be compiled into a property automaton but is not in the safety fragment.
    #[error("{formula} is not a safety formula (it has an eventuality: <> or U)")]
    NotSafety {
        /// The formula, printed.
        formula: String,
    },
    /// The formula has more eventualities (`U`, `<>` after negation normal form) than the
    /// automaton's 64 acceptance sets.
    #[error("the formula has {count} eventualities; at most 64 are supported")]
    TooManyEventualities {
        /// How many.
        count: usize,
    },
    /// A budget ran out, or composing the system failed.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// Building an LTS failed.
    #[error(transparent)]
    Lts(#[from] LtsError),
}

impl LtlError {
    /// Whether this is an exhausted budget (states, deadline, cancellation).
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if one did (a composition's).
    ///
    /// ```
    /// use guarantor_compose::{BudgetKind, ComposeError};
    /// use guarantor_ltl::LtlError;
    /// assert_eq!(LtlError::Compose(ComposeError::Cancelled).budget_kind(), Some(BudgetKind::Cancelled));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            LtlError::Compose(e) => e.budget_kind(),
            _ => None,
        }
    }
}
