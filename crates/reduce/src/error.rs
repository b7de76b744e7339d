//! The errors of compositional minimisation that are not a budget or a composition error.

/// What can go wrong in [`crate::Reduce`] besides budgets (which are
/// [`guarantor_compose::MethodError::Budget`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReduceError {
    /// The construction found a violation that the monolithic search, run to produce its
    /// counterexample, did not: a defect of this crate, reported instead of a wrong verdict.
    #[error("compositional minimisation found a violation the monolithic search does not confirm")]
    Disagreement,
}

impl ReduceError {
    /// Which budget ran out: none, ever (a budget of this crate's method is a
    /// [`guarantor_compose::MethodError::Budget`] with its kind); here so that every crate's
    /// error answers the same question.
    ///
    /// ```
    /// assert_eq!(guarantor_reduce::ReduceError::Disagreement.budget_kind(), None);
    /// ```
    pub fn budget_kind(&self) -> Option<guarantor_compose::BudgetKind> {
        match self {
            Self::Disagreement => None,
        }
    }
}
