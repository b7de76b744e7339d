//! [`PredabsError`]: everything that stops abstraction or refinement without a verdict.
//!
//! A violated property is a verdict, not an error. Errors are exhausted budgets (see
//! [`PredabsError::is_budget`]), prover failures, inputs outside what the abstraction supports, and
//! refinement that cannot make progress.

use guarantor_compose::method::MethodError;
use guarantor_compose::{BudgetKind, ComposeError};
use guarantor_lts::LtsError;

use crate::formula::ArithError;
use crate::prover::ProverError;

/// Why a run stopped without a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PredabsError {
    /// The method checking an abstract system gave no verdict (a budget, settings that do not
    /// fit, a failure; see [`MethodError`]).
    #[error("checking the abstract system: {0}")]
    Check(#[from] MethodError),
    /// The prover failed (process error, protocol error).
    #[error(transparent)]
    Prover(#[from] ProverError),
    /// The prover could not decide a question whose answer matters (a counterexample's feasibility).
    #[error("the prover could not decide {what}: {reason}")]
    Undecided {
        /// The question.
        what: String,
        /// The prover's reason.
        reason: String,
    },
    /// Composition or the abstract check failed (including its budgets).
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// Building an LTS failed.
    #[error(transparent)]
    Lts(#[from] LtsError),
    /// Integer overflow while computing with the program's constants.
    #[error(transparent)]
    Arith(#[from] ArithError),
    /// A component's abstraction exceeded the abstract state limit.
    #[error("abstraction of component `{component}` exceeded {limit} abstract states")]
    StateLimit {
        /// The component.
        component: String,
        /// The limit.
        limit: usize,
    },
    /// Too many predicates in one transition's cone for explicit enumeration.
    #[error(
        "transition at line {line} of `{component}` has {count} predicates to enumerate (limit 16)"
    )]
    ConeTooLarge {
        /// The component.
        component: String,
        /// The transition's source line.
        line: usize,
        /// Number of predicates.
        count: usize,
    },
    /// Two components have transitions on one action that touch global predicates; the
    /// shared-predicate processes cannot give that action one meaning.
    #[error(
        "action `{action}` touches global variables in more than one component ({components:?})"
    )]
    SharedGlobalAction {
        /// The action.
        action: String,
        /// The components.
        components: Vec<String>,
    },
    /// A spurious counterexample yielded no new predicate (for example, all candidate predicates
    /// mix local and global variables).
    #[error(
        "refinement made no progress on the spurious counterexample {trace:?}{}",
        if skipped.is_empty() { String::new() } else {
            format!("; untracked predicates mixing local and global variables: {}", skipped.join(", "))
        }
    )]
    NoProgress {
        /// The abstract counterexample.
        trace: Vec<String>,
        /// Candidate predicates that mix one component's locals with globals (not tracked).
        skipped: Vec<String>,
    },
    /// A user predicate mixes one component's local variables with global variables.
    #[error(
        "the predicate `{predicate}` mixes local variables of `{component}` with global variables; \
         a predicate must be over one component's variables or over globals only"
    )]
    MixedPredicate {
        /// The predicate, printed.
        predicate: String,
        /// The component whose locals it reads.
        component: String,
    },
    /// The refinement loop reached its iteration limit.
    #[error("no verdict after {limit} refinement iterations")]
    IterationLimit {
        /// The limit.
        limit: usize,
    },
    /// The deadline passed.
    #[error("deadline passed")]
    Deadline,
    /// A counterexample of the abstract system could not be matched to abstract component paths
    /// (the checker returned a trace the abstract system does not have).
    #[error("the abstract counterexample {trace:?} is not a run of the abstract system")]
    BadCounterexample {
        /// The trace.
        trace: Vec<String>,
    },
}

impl PredabsError {
    /// Whether this is an exhausted budget (states, iterations, deadline) rather than bad input.
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if one did: the abstraction's state limit is
    /// [`BudgetKind::States`], the deadline [`BudgetKind::Time`], the refinement iteration limit
    /// [`BudgetKind::Other`]; a check of the abstract system says its own.
    ///
    /// ```
    /// use guarantor_compose::BudgetKind;
    /// use guarantor_predabs::PredabsError;
    /// assert_eq!(PredabsError::Deadline.budget_kind(), Some(BudgetKind::Time));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::Compose(e) => e.budget_kind(),
            Self::Check(e) => e.budget_kind(),
            Self::StateLimit { .. } => Some(BudgetKind::States),
            Self::Deadline => Some(BudgetKind::Time),
            Self::IterationLimit { .. } => Some(BudgetKind::Other),
            _ => None,
        }
    }
}
