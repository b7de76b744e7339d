//! [`CircConfig`]: what a CIRC-AG_N run may do and how much it may spend.
//!
//! The knobs fall in three groups: the *rule* (decomposition [`Decomposition`], assumption [`Policy`],
//! alphabet refinement on or off), the *SAT encoding* (symmetry breaking, incremental solving, how
//! disjunctions are encoded), and the *budgets* (iterations, SAT conflicts, total assumption size,
//! and the composition budgets of [`guarantor_compose::Config`], whose deadline also bounds the
//! whole run). The encoding knobs exist so that their effect can be measured; the defaults are the
//! fast choices.

use guarantor_compose::Config;
use guarantor_lts::ComponentId;

/// How the system is decomposed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decomposition {
    /// One assumption per component (the paper's NW). Default.
    #[default]
    NWay,
    /// Two groups of components, each composed eagerly first (the paper's 2W): the components
    /// in `first`, and the rest. `None` puts the first half (rounded up) in the first group.
    TwoWay {
        /// The components of the first group, or `None` for first half / second half.
        first: Option<Vec<ComponentId>>,
    },
}

/// Which other guarantees premise `i` may assume (the set `G_i` of the generic rule).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Policy {
    /// Every other guarantee (the paper's choice in its experiments). Default.
    #[default]
    AllOthers,
    /// Only guarantees of components sharing an action of the completeness alphabets with
    /// component `i`. Pays where components meet only through shared hubs: under
    /// [`Policy::AllOthers`] a premise composes every guarantee connected to it, so on MER each
    /// user's premise holds all other users' guarantees and grows like the system; here a user
    /// assumes only the arbiters' (docs/benchmarks.md, "CIRC-AG_N"). It can
    /// also cost iterations (Gas Station), so it is not the default.
    Neighbours,
    /// Given sets: `sets[i]` lists the (decomposed) components whose guarantees premise `i` assumes;
    /// it must not contain `i`.
    Given(Vec<Vec<usize>>),
}

/// How a disjunction of membership atoms becomes clauses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Disjunction {
    /// One clause of the atoms' literals: our atoms are single literals, so this is exact. Default.
    #[default]
    Direct,
    /// The paper's scheme: `ceil(log2 m)` selector variables choose which of `m` disjuncts must
    /// hold. Kept to measure what it costs.
    Selectors,
}

/// How many premise counterexamples one iteration analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CexPerIteration {
    /// Stop at the first failing premise.
    One,
    /// Check every premise and analyse one counterexample of each failing one.
    AllPremises,
    /// Check every premise and analyse up to this many counterexamples of each failing one
    /// (distinct violating steps, shortest first; the paper's optimisation of up to
    /// `n * sum |g_i|` counterexamples per iteration). Needs
    /// [`CircConfig::reduce_environments`] (without it, one counterexample per premise). Default,
    /// with [`CexPerIteration::DEFAULT_PER_PREMISE`].
    PerPremise(usize),
}

impl CexPerIteration {
    /// The default number of counterexamples per premise.
    pub const DEFAULT_PER_PREMISE: usize = 64;

    /// The most counterexamples one premise check contributes.
    pub fn per_premise(self) -> usize {
        match self {
            Self::One | Self::AllPremises => 1,
            Self::PerPremise(k) => k.max(1),
        }
    }
}

impl Default for CexPerIteration {
    fn default() -> Self {
        Self::PerPremise(Self::DEFAULT_PER_PREMISE)
    }
}

/// Configuration of [`check_circ`](crate::check_circ). `CircConfig::default()` is NW+AR with all
/// encoding optimisations and no budgets.
///
/// ```
/// use guarantor_circ::{CircConfig, Decomposition};
/// let config = CircConfig::default().with_alphabet_refinement(false).with_mode(Decomposition::TwoWay { first: None });
/// assert!(!config.alphabet_refinement);
/// ```
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)] // independent switches, each measured separately
#[non_exhaustive]
pub struct CircConfig {
    /// Decomposition. Default: [`Decomposition::NWay`].
    pub mode: Decomposition,
    /// Assumption sets of the rule. Default: [`Policy::AllOthers`].
    pub policy: Policy,
    /// Start from the property's alphabet and refine (AR); otherwise use the completeness
    /// alphabets from the start. Default: `true`.
    pub alphabet_refinement: bool,
    /// Reuse the constraints Lemma 8 keeps valid after an alphabet refinement. Default: `true`.
    pub reuse_constraints: bool,
    /// After an alphabet refinement, analyse every earlier premise counterexample again under
    /// the new alphabets and seed the new search with the Lemma 4(1) constraints that pass their
    /// membership checks *again* (the checks are re-done, so nothing rests on the old alphabet;
    /// needs [`CircConfig::strong_constraints`] and [`CircConfig::reuse_constraints`]).
    /// Default: `true`.
    pub reanalyse_traces: bool,
    /// Greedy `ExtendTrace` of premise counterexamples over the other components. Default: `true`.
    pub extend_traces: bool,
    /// The stronger constraints of closed sets and of the property (Lemma 4). Default: `true`.
    pub strong_constraints: bool,
    /// BFS symmetry breaking in the SAT encoding. Default: `true`.
    pub symmetry_breaking: bool,
    /// Keep one SAT solver across bound steps and iterations (bound by assumption literals); else
    /// a fresh solver per SAT call. Default: `true`.
    pub incremental: bool,
    /// After an alphabet refinement, start the assumption search at the last bound of the
    /// previous alphabet (bisecting below it when it is feasible) instead of climbing from `n`
    /// one UNSAT call at a time; the answer is minimal either way. Default: `true`.
    pub bound_hint: bool,
    /// Encoding of disjunctive constraints. Default: [`Disjunction::Direct`].
    pub disjunction: Disjunction,
    /// Decide premises on a reduced environment: assumptions' actions the checked component (or
    /// the property) does not see are hidden and parts merged, keeping the projected language
    /// (see the crate docs). Default: `true`.
    pub reduce_environments: bool,
    /// Do not re-check a premise that held with the same guarantees. Default: `true`.
    pub reuse_premises: bool,
    /// Counterexamples per iteration. Default: [`CexPerIteration::PerPremise`] with
    /// [`CexPerIteration::DEFAULT_PER_PREMISE`].
    pub cex_per_iteration: CexPerIteration,
    /// Most inner iterations in total. Default: `None`.
    pub max_iterations: Option<usize>,
    /// Most SAT conflicts in total (counted as learnt clauses). Default: `None`.
    pub max_conflicts: Option<u64>,
    /// Largest total assumption size the search may try. Default: `10_000`.
    pub max_total_states: usize,
    /// Before synthesising guarantees at an alphabet, try the components' own projections onto
    /// it (minimised) when none has more than this many states; `0` never tries them. They make
    /// every premise but the last hold by construction, so the last premise decides: it holds
    /// (the certificate) or its counterexample refines the alphabet (or is real). The last
    /// premise is checked within this limit times the number of components, and outgrowing it
    /// hands the alphabet to the SAT synthesis (see the crate docs, "Guarantees from
    /// projections"). Default: [`CircConfig::DEFAULT_MAX_PROJECTION_STATES`].
    pub max_projection_states: usize,
    /// Budgets of every composition and premise check; its deadline bounds the whole run. Its
    /// [`Config::threads`] is how many premises of an iteration are checked at once (each within
    /// the state limit; see the crate docs, "Threads"). Default: unlimited, every core.
    pub compose: Config,
}

impl Default for CircConfig {
    fn default() -> Self {
        Self {
            mode: Decomposition::NWay,
            policy: Policy::AllOthers,
            alphabet_refinement: true,
            reuse_constraints: true,
            reanalyse_traces: true,
            extend_traces: true,
            strong_constraints: true,
            symmetry_breaking: true,
            incremental: true,
            bound_hint: true,
            disjunction: Disjunction::Direct,
            reduce_environments: true,
            reuse_premises: true,
            cex_per_iteration: CexPerIteration::default(),
            max_iterations: None,
            max_conflicts: None,
            max_total_states: 10_000,
            max_projection_states: Self::DEFAULT_MAX_PROJECTION_STATES,
            compose: Config::default(),
        }
    }
}

impl CircConfig {
    /// The default of [`CircConfig::max_projection_states`].
    pub const DEFAULT_MAX_PROJECTION_STATES: usize = 1024;

    /// The default configuration.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`CircConfig::mode`].
    #[must_use]
    pub fn with_mode(mut self, mode: Decomposition) -> Self {
        self.mode = mode;
        self
    }

    /// Sets [`CircConfig::policy`].
    #[must_use]
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets [`CircConfig::alphabet_refinement`].
    #[must_use]
    pub fn with_alphabet_refinement(mut self, on: bool) -> Self {
        self.alphabet_refinement = on;
        self
    }

    /// Sets [`CircConfig::reuse_constraints`].
    #[must_use]
    pub fn with_reuse_constraints(mut self, on: bool) -> Self {
        self.reuse_constraints = on;
        self
    }

    /// Sets [`CircConfig::reanalyse_traces`].
    #[must_use]
    pub fn with_reanalyse_traces(mut self, on: bool) -> Self {
        self.reanalyse_traces = on;
        self
    }

    /// Sets [`CircConfig::extend_traces`].
    #[must_use]
    pub fn with_extend_traces(mut self, on: bool) -> Self {
        self.extend_traces = on;
        self
    }

    /// Sets [`CircConfig::strong_constraints`].
    #[must_use]
    pub fn with_strong_constraints(mut self, on: bool) -> Self {
        self.strong_constraints = on;
        self
    }

    /// Sets [`CircConfig::symmetry_breaking`].
    #[must_use]
    pub fn with_symmetry_breaking(mut self, on: bool) -> Self {
        self.symmetry_breaking = on;
        self
    }

    /// Sets [`CircConfig::incremental`].
    #[must_use]
    pub fn with_incremental(mut self, on: bool) -> Self {
        self.incremental = on;
        self
    }

    /// Sets [`CircConfig::bound_hint`].
    #[must_use]
    pub fn with_bound_hint(mut self, on: bool) -> Self {
        self.bound_hint = on;
        self
    }

    /// Sets [`CircConfig::disjunction`].
    #[must_use]
    pub fn with_disjunction(mut self, d: Disjunction) -> Self {
        self.disjunction = d;
        self
    }

    /// Sets [`CircConfig::reduce_environments`].
    #[must_use]
    pub fn with_reduce_environments(mut self, on: bool) -> Self {
        self.reduce_environments = on;
        self
    }

    /// Sets [`CircConfig::reuse_premises`].
    #[must_use]
    pub fn with_reuse_premises(mut self, on: bool) -> Self {
        self.reuse_premises = on;
        self
    }

    /// Sets [`CircConfig::cex_per_iteration`].
    #[must_use]
    pub fn with_cex_per_iteration(mut self, c: CexPerIteration) -> Self {
        self.cex_per_iteration = c;
        self
    }

    /// Sets [`CircConfig::max_iterations`].
    #[must_use]
    pub fn with_max_iterations(mut self, limit: usize) -> Self {
        self.max_iterations = Some(limit);
        self
    }

    /// Sets [`CircConfig::max_conflicts`].
    #[must_use]
    pub fn with_max_conflicts(mut self, limit: u64) -> Self {
        self.max_conflicts = Some(limit);
        self
    }

    /// Sets [`CircConfig::max_total_states`].
    #[must_use]
    pub fn with_max_total_states(mut self, limit: usize) -> Self {
        self.max_total_states = limit;
        self
    }

    /// Sets [`CircConfig::max_projection_states`] (`0`: synthesise every guarantee).
    #[must_use]
    pub fn with_max_projection_states(mut self, limit: usize) -> Self {
        self.max_projection_states = limit;
        self
    }

    /// Sets [`CircConfig::compose`].
    #[must_use]
    pub fn with_compose(mut self, compose: Config) -> Self {
        self.compose = compose;
        self
    }
}
