//! Learning-based assume-guarantee reasoning: teachers that answer L*'s queries with model checks.
//!
//! - [`asym`]: rule ASYM of Cobleigh et al. 2003 for `M1 || M2 |= P` ([`check_asym`]), and its
//!   recursive n-way form ([`check_asym_n`]).
//! - [`computed`]: the recursive form with each level's weakest assumption computed by subset
//!   construction instead of learned ([`check_asym_weakest`]).
//! - [`sym`]: rule SYM (Rule 2) of Chaki et al. 2004, with complement assumptions ([`check_sym`]),
//!   and its n-way form ([`check_sym_n`]).
//! - [`deadlock`]: deadlock freedom of `M1 || M2` with a learned failure assumption about `M2`
//!   (after Chaki and Sinha 2006; [`check_deadlock`]).
//! - [`weakest`]: the weakest assumption of one component, with a W-method conformance oracle
//!   ([`weakest_assumption`]).
//!
//! The shared pieces live here: the configuration ([`AgConfig`]), the report ([`AgReport`]) and the
//! translation between learner words and action-name traces. Membership queries simulate a word on
//! `M1 || P_err` by composing `M1` with a *chain* LTS that spells the word over the interface
//! alphabet: the chain blocks every other interface action, while `M1`'s actions outside the
//! interface interleave freely — exactly the query's semantics, reusing the one safety checker.
//!
//! **`ERROR` states.** Every check here adapts its own input, so that calling it directly gives the
//! monolithic checker's verdict, with a counterexample that is a run of the caller's components
//! ending where one of them reaches its `ERROR` or the property fails. Rule SYM only sees the
//! property, so a component's `ERROR` state becomes a private action that the property forbids
//! ([`ErrorActions`]) and the rule runs on that system; its certificates are about the rewritten
//! components (an assumption may mention the private actions), and re-checking one means applying
//! the same [`ErrorActions`] rewrite first. The ASYM rules see an `ERROR` of their first component
//! (through membership queries, or in the first level's product); one in a later component makes
//! them check the composition monolithically, with an empty certificate ([`check_asym`]'s docs
//! say why).

pub mod asym;
pub mod computed;
pub mod deadlock;
pub mod sym;
pub mod weakest;

pub use asym::{AsymAnswer, AsymTeacher, check_asym, check_asym_n};
pub use computed::check_asym_weakest;
pub use deadlock::{DeadlockReport, check_deadlock};
pub use sym::{check_sym, check_sym_n};
pub use weakest::{WeakestAssumption, weakest_assumption};

use guarantor_compose::{Config, ErrorActions, Verdict};
use guarantor_lts::{Lts, LtsBuilder, StateId};

use crate::config::{LearnerConfig, Stats};
use crate::dfa::{Symbol, Word};
use crate::error::LstarError;

/// How an assume-guarantee check learns and how much each model check may cost.
///
/// ```
/// use std::time::Duration;
/// use guarantor_compose::Config;
/// use guarantor_lstar::ag::AgConfig;
/// let config = AgConfig::default().with_compose(Config::default().with_timeout(Duration::from_secs(5)));
/// assert!(config.learner.prefix_closed);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AgConfig {
    /// The learner's settings. [default: `LearnerConfig::default().with_prefix_closed(true)`, since
    /// weakest assumptions of safety properties are prefix-closed]
    pub learner: LearnerConfig,
    /// Budgets of every model check (membership queries, oracles). [default: unlimited]
    pub compose: Config,
    /// Alphabet refinement (Gheorghiu, Giannakopoulou, Pasareanu 2007) for rule ASYM and its
    /// n-way form: learning starts over the interface actions the property mentions and the
    /// alphabet grows only when a spurious counterexample shows it must (see [`asym`]'s module
    /// docs). Off: assumptions range over the whole interface alphabet from the start, as in
    /// Cobleigh et al. 2003. Rule SYM and the computed assumptions ignore it. [default: `true`:
    /// on the benchmark families it answered where the whole alphabet ran out of budget (dining
    /// n-way, Client-Server and MER BUGGY n-way, sliding window), and cost 1.2-3.6 x where the
    /// alphabet grows back to the whole interface (Client-Server, MER and bakery SYS);
    /// docs/benchmarks.md, "Alphabet refinement (learning rules)"]
    pub alphabet_refinement: bool,
}

impl Default for AgConfig {
    fn default() -> Self {
        Self {
            learner: LearnerConfig::default().with_prefix_closed(true),
            compose: Config::default(),
            alphabet_refinement: true,
        }
    }
}

impl AgConfig {
    /// Sets the learner's settings.
    #[must_use]
    pub fn with_learner(mut self, learner: LearnerConfig) -> Self {
        self.learner = learner;
        self
    }

    /// Sets the budgets of the model checks.
    #[must_use]
    pub fn with_compose(mut self, compose: Config) -> Self {
        self.compose = compose;
        self
    }

    /// Turns alphabet refinement on or off ([`AgConfig::alphabet_refinement`]).
    #[must_use]
    pub fn with_alphabet_refinement(mut self, yes: bool) -> Self {
        self.alphabet_refinement = yes;
        self
    }
}

/// How alphabet refinement went in one check. Without refinement the assumption alphabet is the
/// interface alphabet and there are no refinements.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AlphabetStats {
    /// Alphabet refinements (each a restart of learning over a larger alphabet), summed over every
    /// level of an n-way check.
    pub refinements: usize,
    /// The number of actions of the outermost assumption's final alphabet (the report's
    /// [`AgReport::interface`]).
    pub assumption_alphabet: usize,
    /// The number of actions of the outermost level's full interface alphabet
    /// `(alpha M1 u alpha P) n alpha M2`.
    pub interface_alphabet: usize,
}

/// The result of a learning-based assume-guarantee check.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AgReport {
    /// The verdict: with the learned assumption(s) as certificate, or a counterexample of the
    /// whole system.
    pub verdict: Verdict,
    /// The learner's query statistics (summed over all learners for multi-assumption rules).
    pub stats: Stats,
    /// The size (states of the safety LTS) of each conjectured assumption, in order.
    pub assumption_sizes: Vec<usize>,
    /// The alphabet the (outermost) assumption ranges over: the interface alphabet, or with
    /// alphabet refinement the part of it learning ended with.
    pub interface: Vec<String>,
    /// Alphabet refinement's counts ([`AgConfig::alphabet_refinement`]).
    pub alphabet: AlphabetStats,
    /// Why the rule did not apply and the whole composition was checked monolithically instead
    /// (one component, or an `ERROR` state in the environment: see [`check_asym_n`]); `None`
    /// when the rule ran.
    pub fallback: Option<&'static str>,
}

impl AgReport {
    /// The report of a verdict that comes with no assumption: a system of one component, an
    /// `ERROR` state found before a rule applies, or a level that violates its property alone.
    pub(crate) fn without_assumptions(verdict: Verdict) -> Self {
        Self {
            verdict,
            stats: Stats::default(),
            assumption_sizes: Vec::new(),
            interface: Vec::new(),
            alphabet: AlphabetStats::default(),
            fallback: None,
        }
    }
}

/// Runs `rule` on `components` and `property` with every `ERROR` state rewritten as a private
/// action the property forbids (see the module docs), and maps a counterexample back to the
/// caller's components. Without `ERROR` states `rule` gets the caller's input as it is.
pub(crate) fn with_error_actions(
    components: &[&Lts],
    property: &Lts,
    rule: impl FnOnce(&[&Lts], &Lts) -> Result<AgReport, LstarError>,
) -> Result<AgReport, LstarError> {
    let Some(adapted) = ErrorActions::new(components, &[property])? else {
        return rule(components, property);
    };
    let guarded = adapted.guard(property)?;
    let mut report = rule(&adapted.components(), &guarded)?;
    if let Verdict::Violated(cex) = &mut report.verdict {
        *cex = adapted.restore(components, &[property], cex)?;
    }
    Ok(report)
}

/// The names of `lts`'s visible actions, in id order.
pub(crate) fn names(lts: &Lts) -> impl Iterator<Item = &str> {
    lts.alphabet().iter().map(|(_, n)| n)
}

/// Projects a trace of names onto the interface, as a word.
pub(crate) fn project(trace: &[String], interface: &[String]) -> Word {
    trace
        .iter()
        .filter_map(|name| interface.iter().position(|n| n == name))
        .map(Symbol::new)
        .collect()
}

/// The LTS whose only maximal trace is `word`, declaring the whole interface (so it blocks every
/// interface action that does not come next).
pub(crate) fn chain(word: &[Symbol], interface: &[String]) -> Result<Lts, LstarError> {
    let mut b = LtsBuilder::new();
    let actions = interface
        .iter()
        .map(|n| b.action(n))
        .collect::<Result<Vec<_>, _>>()?;
    b.ensure_states(word.len() + 1)?;
    for (i, a) in word.iter().enumerate() {
        b.add_transition(StateId::must(i), actions[a.index()], StateId::must(i + 1))?;
    }
    Ok(b.build()?)
}

/// Interleaves `witness` (a run of `M1 || P_err`, ending in the violation) with `env` (a run of
/// the environment with the same interface projection, or a longer one): before each interface
/// action of `witness`, the environment's own actions up to its matching interface action are
/// inserted. Actions outside the interface belong to one side only, so the result is a run of both.
pub(crate) fn merge(witness: &[String], env: &[String], interface: &[String]) -> Vec<String> {
    let shared = |a: &String| interface.contains(a);
    let mut out = Vec::with_capacity(witness.len() + env.len());
    let mut rest = env.iter();
    for a in witness {
        if shared(a) {
            for b in rest.by_ref() {
                if shared(b) {
                    break;
                }
                out.push(b.clone());
            }
        }
        out.push(a.clone());
    }
    out
}

/// Tells a progress reader (the config's monitor, if any) about a new conjecture, so that a long
/// learning run shows how far it is.
fn note_conjecture(config: &Config, rule: &str, round: usize, states: usize) {
    if let Some(monitor) = &config.monitor {
        monitor.note(format!(
            "{rule}: conjecture {round}, assumption of {states} states"
        ));
    }
}

/// Adds the counts of `other` to `total` (hypothesis sizes are appended).
pub(crate) fn add_stats(total: &mut Stats, other: &Stats) {
    total.membership_queries += other.membership_queries;
    total.symbols += other.symbols;
    total.lookups += other.lookups;
    total.inferred += other.inferred;
    total.equivalence_queries += other.equivalence_queries;
    total.free_counterexamples += other.free_counterexamples;
    total
        .hypothesis_sizes
        .extend_from_slice(&other.hypothesis_sizes);
}
