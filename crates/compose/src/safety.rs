//! Monolithic checks on the fly: safety properties ([`check_safety`]) and deadlocks
//! ([`find_deadlock`]).
//!
//! A safety check explores `M1 || ... || Mn || P1_err || ... || Pk_err` breadth first and stops at
//! the first error tuple: pi of some property, or the `ERROR` state of some component. Nothing is
//! built but the set of visited tuples, so the check runs in about 20 to 40 bytes per product state
//! (see `docs/benchmarks.md`). Because the walk is breadth first, the counterexample is a shortest
//! one (counted in product steps, tau included).

use guarantor_lts::{ActionId, Lts, StateId};

use crate::config::Config;
use crate::engine::explore::{Visitor, search};
use crate::error::ComposeError;
use crate::error_lts::error_ltss;
use crate::product::Product;
use crate::verdict::{Certificate, Counterexample, Verdict, Violation};

pub use crate::engine::stats::Stats;

/// The result of a safety check: the verdict and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SafetyReport {
    /// Holds (with an empty certificate) or violated (with a shortest counterexample).
    pub verdict: Verdict,
    /// States and transitions explored (up to the violation, if there is one).
    pub stats: Stats,
}

/// Stops at every error tuple and names it: components first, then properties.
#[derive(Clone, Copy, Debug)]
struct Safety {
    components: usize,
}

impl Visitor for Safety {
    fn error(&mut self, _: Option<u32>, _: ActionId, component: usize) -> Option<Violation> {
        Some(Violation::of_member(component, self.components))
    }
}

/// Checks that the composition of `components` satisfies every property in `properties` and never
/// reaches an `ERROR` state of a component.
///
/// ```
/// use guarantor_compose::{check_safety, Config, Violation};
/// use guarantor_lts::{LtsBuilder, PropertyId, StateId};
/// let [s0, s1] = [StateId::must(0), StateId::must(1)];
/// // Worker = (start -> stop -> Worker)
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(s0, "start", s1)?;
/// b.add_transition_named(s1, "stop", s0)?;
/// let worker = b.build()?;
/// // property NeverStop = (start -> NeverStop), with `stop` in its alphabet: never allowed.
/// let mut b = LtsBuilder::new();
/// b.ensure_states(1)?;
/// b.add_transition_named(s0, "start", s0)?;
/// b.action("stop")?;
/// let never_stop = b.build()?;
///
/// let report = check_safety(&[&worker], &[&never_stop], &Config::default())?;
/// let cex = report.verdict.counterexample().expect("stop is reachable");
/// assert_eq!(cex.trace, ["start", "stop"]);
/// assert_eq!(cex.violation, Violation::Property { property: PropertyId::must(0) });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic property; budget errors (see
/// [`ComposeError::is_budget`]) when `config`'s limits are reached.
pub fn check_safety(
    components: &[&Lts],
    properties: &[&Lts],
    config: &Config,
) -> Result<SafetyReport, ComposeError> {
    let mut budget = config.budget()?;
    let errs = error_ltss(properties.iter().copied())?;
    let all: Vec<&Lts> = components.iter().copied().chain(errs.iter()).collect();
    let product = Product::new(&all)?;
    let n = components.len();
    let (cex, stats) = search(&product, || Safety { components: n }, &mut budget)?;
    Ok(report(cex, stats))
}

/// Wraps a search result into a report with an empty (monolithic) certificate.
pub(crate) fn report(cex: Option<Counterexample>, stats: Stats) -> SafetyReport {
    let verdict = match cex {
        Some(cex) => Verdict::Violated(cex),
        None => Verdict::Holds(Certificate::monolithic()),
    };
    SafetyReport { verdict, stats }
}

/// Finds a shortest run of the composition of `components` to a deadlock: a reachable tuple that is
/// not an error tuple and has no outgoing transition (tau included).
///
/// LTSA does not count a process that has terminated (reached `END` or `STOP` written as such) as
/// deadlocked; [`Lts`] has no end marker yet, so here *every* such tuple counts. Use
/// [`find_deadlock_with`] to exempt terminal tuples.
///
/// The counterexample's violation is [`Violation::Deadlock`]. Error tuples are never explored
/// through, so an `ERROR` reachable before any deadlock hides nothing but itself.
pub fn find_deadlock(
    components: &[&Lts],
    config: &Config,
) -> Result<Option<Counterexample>, ComposeError> {
    find_deadlock_with(components, config, |_| false)
}

/// Like [`find_deadlock`], but a tuple for which `is_terminal(tuple)` holds is a proper end, not a
/// deadlock (the tuple has one state per component, in order).
pub fn find_deadlock_with(
    components: &[&Lts],
    config: &Config,
    is_terminal: impl Fn(&[StateId]) -> bool + Sync,
) -> Result<Option<Counterexample>, ComposeError> {
    let mut budget = config.budget()?;
    let product = Product::new(components)?;
    let (cex, _) = search(
        &product,
        || Deadlock {
            is_terminal: &is_terminal,
        },
        &mut budget,
    )?;
    Ok(cex)
}

/// Stops at the first non-terminal tuple without successors; walks past error tuples.
struct Deadlock<'f, F> {
    is_terminal: &'f F,
}

impl<F: Fn(&[StateId]) -> bool + Sync> Visitor for Deadlock<'_, F> {
    fn error(&mut self, _: Option<u32>, _: ActionId, _: usize) -> Option<Violation> {
        None
    }

    fn expanded(&mut self, _: u32, tuple: &[StateId], successors: usize) -> Option<Violation> {
        (successors == 0 && !(self.is_terminal)(tuple)).then_some(Violation::Deadlock)
    }
}
