//! [`Reduce`]: compositional minimisation as a [`Method`].
//!
//! The parts start as the components and the error forms of the properties, each flagged per
//! state with "every component with an end state is at it" (LTSA's end rule,
//! [`guarantor_compose::termination`]). Each part is first minimised on its own (after hiding
//! what no other part uses); then, until one part is left, the pair chosen by [`crate::order`]
//! is composed, the actions no other part uses are hidden, and the product is minimised
//! ([`crate::minimise`]). The last part answers both questions: the error state reachable means
//! a violation; a reachable stuck state not flagged as ended means a deadlock.
//!
//! A "holds" is the answer of this construction. A violation is confirmed, and its shortest
//! counterexample found, by the monolithic search, which stops at the first violation it meets;
//! the counterexample therefore replays in every component, and a construction that disagreed
//! with the search would be reported as an [`ReduceError::Disagreement`], never as a verdict.

use std::borrow::Cow;
use std::collections::BTreeSet;

use guarantor_compose::method::monitored;
use guarantor_compose::progress::{ProgressOptions, ProgressReport};
use guarantor_compose::termination::Termination;
use guarantor_compose::{
    Certificate, ComposeError, Config, Method, MethodError, MethodReport, Problem, Stats, Verdict,
    check_system, compose_with_tuples, error_lts,
};
use guarantor_lts::Lts;
use guarantor_lts::ops::hide;

use guarantor_certify::format::Reduced;

use crate::certificate::Recording;
use crate::error::ReduceError;
use crate::minimise::{Equivalence, Flagged, has_deadlock, minimise_mapped, reaches_error};
use crate::order::{Shape, hidden_after, next_pair, visible_names};

/// Compositional minimisation (module docs), the `reduce` method.
///
/// ```
/// use guarantor_compose::{Config, Method, Problem};
/// use guarantor_lts::Lts;
/// use guarantor_reduce::Reduce;
/// // Two users of one lock; the lock's actions are hidden once all three are composed.
/// let user = |n: &str| Lts::from_edges([(0, format!("{n}.acq"), 1), (1, format!("{n}.rel"), 0)]);
/// let lock = Lts::from_edges([
///     (0, "a.acq".to_owned(), 1), (1, "a.rel".to_owned(), 0),
///     (0, "b.acq".to_owned(), 2), (2, "b.rel".to_owned(), 0),
/// ])?;
/// let problem = Problem::new()
///     .with_component("A", user("a")?)
///     .with_component("B", user("b")?)
///     .with_component("Lock", lock)
///     .with_deadlock(true);
/// let report = Reduce::new().check(&problem, &Config::default())?;
/// assert!(report.verdict.is_holds());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reduce {
    /// The equivalence every part is minimised modulo (branching bisimulation by default).
    pub equivalence: Equivalence,
    /// The largest product of two parts the construction builds ([`MAX_PART_STATES`] by
    /// default); past it the method stops with a budget error and a portfolio hands over. The
    /// minimisations are not interruptible, so this bound is what keeps one step within seconds
    /// of the deadline and its memory within hundreds of megabytes.
    pub max_part_states: usize,
    /// The largest product a progress construction answering several tests at once builds
    /// before it is split in two ([`BATCH_PART_STATES`] by default; see
    /// [`crate::progress`](mod@crate::progress)).
    pub max_batch_states: usize,
}

/// The default of [`Reduce::max_part_states`]: a product of a million states is minimised in a
/// few seconds; the gas station's groups grew to 9.6 GB before this bound.
pub const MAX_PART_STATES: usize = 1_000_000;

/// The default of [`Reduce::max_batch_states`]. Each test's action stays visible, so a batch
/// hides less than a lone test: cheap when the actions belong together (the window protocol's
/// sequence numbers, one MER user's six tests), the whole product when they do not (every
/// philosopher's). The bound keeps a failed attempt to a fraction of a second; MER N = 10's
/// default property took 6.1 s at 100,000 states and 1.1 s at 400,000 (one run each).
pub const BATCH_PART_STATES: usize = 400_000;

impl Default for Reduce {
    fn default() -> Self {
        Self {
            equivalence: Equivalence::default(),
            max_part_states: MAX_PART_STATES,
            max_batch_states: BATCH_PART_STATES,
        }
    }
}

impl Reduce {
    /// The method with its defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the equivalence parts are minimised modulo ([`Reduce::equivalence`]).
    #[must_use]
    pub fn with_equivalence(mut self, equivalence: Equivalence) -> Self {
        self.equivalence = equivalence;
        self
    }

    /// Sets the largest product of a construction answering several progress tests at once
    /// ([`Reduce::max_batch_states`]).
    #[must_use]
    pub fn with_max_batch_states(mut self, states: usize) -> Self {
        self.max_batch_states = states;
        self
    }

    /// Sets the largest product of two parts ([`Reduce::max_part_states`]).
    #[must_use]
    pub fn with_max_part_states(mut self, states: usize) -> Self {
        self.max_part_states = states;
        self
    }
}

impl Method for Reduce {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("reduce")
    }

    /// The construction answers the deadlock question itself, in the same run as safety.
    fn searches_deadlocks(&self) -> bool {
        true
    }

    fn answers_progress(&self) -> bool {
        true
    }

    /// The construction with the tests' actions kept visible; its last part's terminal sets
    /// answer the tests ([`crate::progress`](mod@crate::progress)).
    fn check_progress(
        &self,
        problem: &Problem,
        options: &ProgressOptions,
        config: &Config,
    ) -> Result<ProgressReport, MethodError> {
        crate::progress::check(self, problem, options, config)
    }

    /// Rule `reduce` of `guarantor-certify`: the construction run again, each step's map
    /// recorded (see the private module `certificate`).
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        if !report.verdict.is_holds() || problem.priority().is_some() {
            return Ok(None);
        }
        crate::certificate::write(self, problem, config)
    }

    fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
        Some(guarantor_certify::format::Rule::Reduce)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        if problem.priority().is_some() {
            return Err(MethodError::Unsupported {
                method: "reduce".to_owned(),
                reason: "action priority is not preserved by minimisation".to_owned(),
            });
        }
        // One clock for the construction and the search that confirms a violation: called
        // directly with a timeout, the check must not get it twice.
        let config = &config.started();
        let keep = BTreeSet::new();
        let deadlock = problem.deadlock();
        let (outcome, _) = monitored(config, |config| {
            Ok(run(problem, config, self, &keep, deadlock)?)
        })?;
        let Outcome {
            last,
            largest,
            steps,
        } = outcome;
        let violated = reaches_error(&last.lts) || (problem.deadlock() && has_deadlock(&last));
        let verdict = if violated {
            confirm(problem, config, &largest)?
        } else {
            Verdict::Holds(Certificate::new([]))
        };
        Ok(MethodReport::new(verdict, largest).with_counter("compositions", steps as u64))
    }
}

/// What the construction leaves: the last part, the largest product it built, how many pairs.
pub(crate) struct Outcome {
    pub(crate) last: Flagged,
    pub(crate) largest: Stats,
    pub(crate) steps: usize,
}

/// The construction of the module docs, within `config`'s budget: the actions of `keep` are never
/// hidden, and with `sensitive` each minimisation keeps divergence and termination apart
/// ([`crate::minimise`]), as deadlocks and progress need.
pub(crate) fn run(
    problem: &Problem,
    config: &Config,
    limits: &Reduce,
    keep: &BTreeSet<String>,
    sensitive: bool,
) -> Result<Outcome, ComposeError> {
    run_recorded(problem, config, limits, keep, sensitive, None)
}

/// [`run`], writing each step into `record` for a certificate ([`crate::certificate`]).
pub(crate) fn run_recorded(
    problem: &Problem,
    config: &Config,
    limits: &Reduce,
    keep: &BTreeSet<String>,
    sensitive: bool,
    mut record: Option<&mut Recording>,
) -> Result<Outcome, ComposeError> {
    let deadlock = sensitive;
    let equivalence = limits.equivalence;
    // The construction's own bound on a step, under the caller's.
    let step_config = config.clone().with_max_states(
        config
            .max_states
            .map_or(limits.max_part_states, |m| m.min(limits.max_part_states)),
    );
    let mut parts = initial_parts(problem)?;
    // Per part, the premise that recorded it (when recording).
    let mut premise: Vec<usize> = Vec::with_capacity(parts.len());
    let mut largest = Stats::default();
    let shapes = |parts: &[Flagged]| -> Vec<Shape> { parts.iter().map(shape).collect() };
    for i in 0..parts.len() {
        let mut local = hidden_alone(&shapes(&parts), i);
        local.retain(|a| !keep.contains(a));
        let (part, map) = reduce(&parts[i], &local, deadlock, equivalence)?;
        if let Some(record) = record.as_deref_mut() {
            premise.push(record.leaf(leaf_name(problem, i), &local, &part, &map));
        }
        parts[i] = part;
    }
    let mut steps = 0;
    while parts.len() > 1 {
        config.budget()?.check_now()?;
        let now = shapes(&parts);
        let (i, j) = next_pair(&now);
        let mut hidden = hidden_after(&now, i, j);
        hidden.retain(|a| !keep.contains(a));
        let b = parts.swap_remove(j);
        let a = parts.swap_remove(i);
        let (product, tuples) = compose_pair(&a, &b, &step_config)?;
        largest.states = largest.states.max(product.lts.num_states());
        largest.transitions = largest.transitions.max(product.lts.num_transitions());
        config.budget()?.check_now()?;
        let (part, map) = reduce(&product, &hidden, deadlock, equivalence)?;
        if let Some(record) = record.as_deref_mut() {
            let pb = premise.swap_remove(j);
            let pa = premise.swap_remove(i);
            premise.push(record.pair([pa, pb], &hidden, &part, &tuples, &map));
        }
        parts.push(part);
        steps += 1;
    }
    let last = match parts.pop() {
        Some(last) => last,
        // No component and no property: one state with no move, which is not a deadlock.
        None => Flagged {
            lts: single_state()?,
            ended: vec![true],
        },
    };
    Ok(Outcome {
        last,
        largest,
        steps,
    })
}

/// An LTS of one state and no transition.
fn single_state() -> Result<Lts, ComposeError> {
    let mut b = guarantor_lts::LtsBuilder::new();
    b.add_state()?;
    Ok(b.build()?)
}

/// The components, then the properties' error forms, each with its end flags.
fn initial_parts(problem: &Problem) -> Result<Vec<Flagged>, ComposeError> {
    let components = problem.component_lts();
    let properties = problem.property_lts();
    let ends: Vec<_> = problem.end_states().collect();
    let rule = Termination::ltsa(&components, &ends, &properties);
    let can_end = rule.can_terminate();
    let mut parts: Vec<Flagged> = components
        .iter()
        .zip(&ends)
        .map(|(lts, end)| Flagged {
            lts: (*lts).clone(),
            ended: lts
                .states()
                .map(|s| can_end && end.is_none_or(|e| e == s))
                .collect(),
        })
        .collect();
    for p in properties {
        let lts = error_lts(p)?;
        let ended = vec![can_end; lts.num_states()];
        parts.push(Flagged { lts, ended });
    }
    Ok(parts)
}

/// The actions only `parts[i]` uses.
fn hidden_alone(parts: &[Shape], i: usize) -> BTreeSet<String> {
    parts[i]
        .alphabet
        .iter()
        .filter(|a| {
            parts
                .iter()
                .enumerate()
                .all(|(k, p)| k == i || !p.alphabet.contains(*a))
        })
        .cloned()
        .collect()
}

fn shape(part: &Flagged) -> Shape {
    Shape {
        alphabet: visible_names(&part.lts).collect(),
        states: part.lts.num_states(),
    }
}

/// The part the construction starts from at `i` ([`initial_parts`]'s order): a component, then
/// the properties.
fn leaf_name(problem: &Problem, i: usize) -> Reduced {
    let components = problem.num_components();
    match problem.components().nth(i) {
        Some((_, name, _)) => Reduced::Component(name.to_owned()),
        None => Reduced::Property(
            problem
                .properties()
                .nth(i - components)
                .map_or_else(String::new, |(_, name, _)| name.to_owned()),
        ),
    }
}

/// `part` with `hidden` hidden, then minimised; with the state each of `part`'s became.
fn reduce(
    part: &Flagged,
    hidden: &BTreeSet<String>,
    deadlock: bool,
    equivalence: Equivalence,
) -> Result<(Flagged, Vec<Option<u32>>), ComposeError> {
    let lts = hide(&part.lts, hidden.iter().map(String::as_str));
    let hidden = Flagged {
        lts,
        ended: part.ended.clone(),
    };
    Ok(minimise_mapped(&hidden, deadlock, equivalence)?)
}

/// Per state of a product of two parts, the pair of their states behind it (none for the error).
type Tuples = Vec<Option<[u32; 2]>>;

/// The product of two parts, with the pair of states behind each of its states (none for the
/// error state); a state is ended when both of its parts' states are.
fn compose_pair(
    a: &Flagged,
    b: &Flagged,
    config: &Config,
) -> Result<(Flagged, Tuples), ComposeError> {
    let composition = compose_with_tuples(&[&a.lts, &b.lts], config)?;
    let lts = composition.lts().clone();
    let tuples: Vec<Option<[u32; 2]>> = lts
        .states()
        .map(|s| composition.tuple(s).map(|t| [t[0].as_u32(), t[1].as_u32()]))
        .collect();
    let ended = tuples
        .iter()
        .map(|t| t.is_some_and(|[x, y]| a.ended[x as usize] && b.ended[y as usize]))
        .collect();
    Ok((Flagged { lts, ended }, tuples))
}

/// The monolithic search's counterexample for a violation the construction found.
fn confirm(problem: &Problem, config: &Config, largest: &Stats) -> Result<Verdict, MethodError> {
    let report = check_system(
        &problem.component_lts(),
        &problem.property_lts(),
        &problem.system_options(),
        config,
    )
    .map_err(|e| MethodError::from(e).with_partial_at_least(*largest))?;
    if report.verdict.is_violated() {
        Ok(report.verdict)
    } else {
        Err(MethodError::failed(ReduceError::Disagreement))
    }
}
