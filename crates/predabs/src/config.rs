//! [`Config`]: how to abstract, which prover, and the budgets of the refinement loop.

use std::time::{Duration, Instant};

/// How abstract successors are computed for a transition from an abstract state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Abstraction {
    /// Exact boolean abstraction: all successor valuations, enumerated by projected all-SAT
    /// (one prover call per abstract successor, plus one).
    Exact,
    /// Bensalem, Lakhnech, Owre's elimination: start from every candidate successor valuation and
    /// drop each one whose Hoare triple `{pre} t {not post}` is valid (one call per candidate).
    /// Same result as [`Abstraction::Exact`], more calls; kept for comparison.
    Elimination,
    /// Cartesian abstraction: each post predicate is decided on its own, from a pre-state summary of
    /// at most `max_cube` predicate literals (those sharing variables with it first). Coarser and
    /// cheaper; the loop switches to [`Abstraction::Exact`] when a refinement finds no new predicate.
    Cartesian {
        /// The longest pre-state cube used per post predicate.
        max_cube: usize,
    },
}

/// Which decision procedure to use.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Backend {
    /// [`crate::prover::NativeProver`] (pure Rust, nothing to install).
    Native,
    /// [`crate::prover::SmtLibProver`] running this command (program and arguments).
    SmtLib(Vec<String>),
}

/// Settings of [`crate::check_cegar`]. Every field has a default; setters return `Self`.
///
/// ```
/// use std::time::Duration;
/// use guarantor_predabs::{Abstraction, Config};
/// let config = Config::default()
///     .with_mode(Abstraction::Cartesian { max_cube: 3 })
///     .with_compose(guarantor_compose::Config::default().with_max_states(100_000))
///     .with_timeout(Duration::from_secs(60));
/// assert_eq!(config.compose.max_states, Some(100_000));
/// assert!(config.compose.deadline.is_some());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Abstraction mode. Default: [`Abstraction::Exact`].
    pub mode: Abstraction,
    /// Bensalem et al.'s syntactic shortcut: a post predicate whose value the assignments (and
    /// equalities in the guard) determine is computed by substitution, without a prover call.
    /// Default: `true`.
    pub substitution: bool,
    /// The prover. Default: [`Backend::Native`].
    pub backend: Backend,
    /// Most abstract states per component. Default: 1,000,000.
    pub max_abstract_states: usize,
    /// Most refinement iterations. Default: 200.
    pub max_iterations: usize,
    /// The budgets: its deadline (and timeout, whose clock starts with the check) and cancel flag
    /// end the whole run; its state limit, cancel flag and monitor apply to each check of the
    /// abstract system by [`crate::check_cegar`]. Default: unlimited.
    pub compose: guarantor_compose::Config,
    /// Extra user predicates (atoms over one component's variables, or over globals), in addition
    /// to those in the program text. Default: none.
    pub predicates: Vec<crate::formula::Formula>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            mode: Abstraction::Exact,
            substitution: true,
            backend: Backend::Native,
            max_abstract_states: 1_000_000,
            max_iterations: 200,
            compose: guarantor_compose::Config::default(),
            predicates: Vec::new(),
        }
    }
}

impl Config {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the abstraction mode.
    #[must_use]
    pub fn with_mode(mut self, mode: Abstraction) -> Self {
        self.mode = mode;
        self
    }

    /// Turns the syntactic substitution shortcut on or off.
    #[must_use]
    pub fn with_substitution(mut self, on: bool) -> Self {
        self.substitution = on;
        self
    }

    /// Sets the prover backend.
    #[must_use]
    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }

    /// Sets the iteration limit.
    #[must_use]
    pub fn with_max_iterations(mut self, n: usize) -> Self {
        self.max_iterations = n;
        self
    }

    /// Sets the budgets ([`Config::compose`]).
    #[must_use]
    pub fn with_compose(mut self, compose: guarantor_compose::Config) -> Self {
        self.compose = compose;
        self
    }

    /// Sets a deadline `t` from now in [`Config::compose`] (a timeout too long for the clock to
    /// represent is no limit).
    #[must_use]
    pub fn with_timeout(mut self, t: Duration) -> Self {
        self.compose.deadline = Instant::now().checked_add(t);
        self
    }

    /// Adds user predicates.
    #[must_use]
    pub fn with_predicates(mut self, preds: Vec<crate::formula::Formula>) -> Self {
        self.predicates.extend(preds);
        self
    }
}
