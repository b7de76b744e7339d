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
