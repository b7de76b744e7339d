//! [`check_system`]: LTSA's whole analysis of a system in one walk — property violations and
//! `ERROR` states, deadlocks, and action priority.
//!
//! [`check_safety`](crate::check_safety) and [`find_deadlock_with`](crate::find_deadlock_with) each
//! walk the product once; a front end that wants both (as LTSA reports both) would walk twice. Here
//! one walk looks for both: it stops at the first error tuple and remembers the first deadlock it
//! passes. Errors take precedence, as in LTSA's report: the verdict is a violation if any error
//! tuple is reachable, else a deadlock if any is, else the system holds.
//!
//! Two search orders ([`SearchOrder`]). Breadth first (the default), both counterexamples are
//! shortest; as in `explore`'s two-walk scheme, parent pointers are only stored in a second walk
//! that runs when there is something to report. Depth first (as SPIN searches), the walk stops at
//! the first error tuple it meets, which for deep errors is far sooner, and the search stack is the
//! counterexample (shortened through shortcuts among its states, but not shortest in general). A
//! deadlock met first does not stop it (an error elsewhere would take precedence): its stack is
//! copied and the walk goes on, so both orders always agree on the verdict.

use guarantor_lts::{ActionId, Lts, StateId};

use crate::checkpoint::{CheckpointError, Checkpointing, model_fingerprint, options_fingerprint};
use crate::config::{Budget, Config};
use crate::engine::dfs::Dfs;
use crate::engine::explore::{
    Fingerprints, Hit, Layout, Visitor, WithStore, run, run_checkpointed, trace_to, with_store,
};
use crate::engine::store::Store;
use crate::error::ComposeError;
use crate::error_lts::error_ltss;
use crate::priority::Priority;
use crate::product::Product;
use crate::safety::{SafetyReport, Stats, report};
use crate::termination::Termination;
use crate::verdict::{Counterexample, Violation};

/// The order in which [`check_system`] explores the product.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SearchOrder {
    /// Breadth first: counterexamples are shortest (in product steps, tau included); a deep error
    /// is found only after every shallower state was explored.
    #[default]
    BreadthFirst,
    /// Depth first, as SPIN: stops at the first error met along the current path, which for deep
    /// errors comes far sooner; the counterexample is that path, shortened through shortcuts among
    /// its own states, and may be longer than the shortest one. Verdicts and, when the whole
    /// product is explored, state and transition counts are the same as breadth first.
    DepthFirst,
}

impl SearchOrder {
    /// The short name: `bfs` or `dfs`.
    pub fn name(self) -> &'static str {
        match self {
            Self::BreadthFirst => "bfs",
            Self::DepthFirst => "dfs",
        }
    }
}

/// What [`check_system`] looks for besides property violations and `ERROR` states.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SystemOptions {
    /// Also look for deadlocks: reachable tuples without successors that are not terminal.
    /// Default: `false`.
    pub deadlock: bool,
    /// Per component (in order; properties excluded), its successful-termination state (LTSA's
    /// `END`), if any. A tuple without moves is terminal, not a deadlock, by LTSA's rule
    /// ([`crate::termination`]): the machines without an end state have no action of their own,
    /// and every component with one is at it. Missing entries mean no end state. Default: empty.
    pub end_states: Vec<Option<StateId>>,
    /// Action priority applied to the whole product (see [`crate::priority`]). Default: `None`.
    pub priority: Option<Priority>,
    /// The search order. Default: breadth first (shortest counterexamples).
    pub search: SearchOrder,
    /// Write checkpoints of the search, or resume from one ([`crate::checkpoint`]; breadth first
    /// only). Verdict, counts and counterexample are those of the search without. Default:
    /// `None`.
    pub checkpoint: Option<Checkpointing>,
}

impl SystemOptions {
    /// Options that also look for deadlocks, with these end states.
    #[must_use]
    pub fn with_deadlock(mut self, end_states: Vec<Option<StateId>>) -> Self {
        self.deadlock = true;
        self.end_states = end_states;
        self
    }

    /// Options with this search order.
    #[must_use]
    pub fn with_search(mut self, search: SearchOrder) -> Self {
        self.search = search;
        self
    }

    /// Options that write checkpoints (or resume from one) as `plan` says.
    #[must_use]
    pub fn with_checkpoint(mut self, plan: Checkpointing) -> Self {
        self.checkpoint = Some(plan);
        self
    }

    /// Options with this priority.
    #[must_use]
    pub fn with_priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }
}

/// Checks `components` against `properties`, and for deadlocks if `options` ask, in one walk.
///
/// The verdict is [`Violated`](crate::Verdict::Violated) with a run to an error tuple if one is
/// reachable (a property's pi, [`Violation::Property`], or a component's `ERROR`,
/// [`Violation::ErrorState`]); otherwise, with deadlocks asked for, a run to a deadlock
/// ([`Violation::Deadlock`]); otherwise it holds. Runs are shortest under the default
/// [`SearchOrder::BreadthFirst`]; see [`SearchOrder::DepthFirst`] for the other. The statistics
/// are those of the whole first walk.
///
/// ```
/// use guarantor_compose::{check_system, Config, SystemOptions, Violation};
/// use guarantor_lts::{LtsBuilder, StateId};
/// // (go -> STOP): no property, but a deadlock after `go`.
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "go", StateId::must(1))?;
/// let lts = b.build()?;
/// let options = SystemOptions::default().with_deadlock(vec![None]);
/// let report = check_system(&[&lts], &[], &options, &Config::default())?;
/// let cex = report.verdict.counterexample().expect("deadlock");
/// assert_eq!((cex.trace.as_slice(), cex.violation), (&["go".to_string()][..], Violation::Deadlock));
/// // With state 1 as its END, the same process terminates properly.
/// let options = SystemOptions::default().with_deadlock(vec![Some(StateId::must(1))]);
/// assert!(check_system(&[&lts], &[], &options, &Config::default())?.verdict.is_holds());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic property; budget errors when
/// `config`'s limits are reached.
pub fn check_system(
    components: &[&Lts],
    properties: &[&Lts],
    options: &SystemOptions,
    config: &Config,
) -> Result<SafetyReport, ComposeError> {
    let mut budget = config.budget()?;
    let errs = error_ltss(properties.iter().copied())?;
    let all: Vec<&Lts> = components.iter().copied().chain(errs.iter()).collect();
    let product = Product::under(&all, options.priority.as_ref())?;
    let termination = Termination::ltsa(components, &options.end_states, properties);
    if let Some(plan) = &options.checkpoint {
        if options.search != SearchOrder::BreadthFirst {
            return Err(CheckpointError::Unsupported {
                search: options.search.name(),
            }
            .into());
        }
        let prints = Fingerprints {
            model: model_fingerprint(&all),
            options: options_fingerprint(options),
        };
        let mut watch = Watch::new(options, &termination, components.len(), None);
        let walk = run_checkpointed(&product, &mut watch, &mut budget, plan, prints)?;
        let Some(target) = target_of(walk.hit, watch.deadlock) else {
            return Ok(report(None, walk.stats));
        };
        let trace = trace_to(&product, &walk.parents, target);
        let cex = Counterexample::new(trace, target.violation);
        return Ok(report(Some(cex), walk.stats));
    }
    if options.search == SearchOrder::DepthFirst {
        let (cex, stats) = with_store(
            &product,
            Layout::Auto,
            DepthFirst {
                product: &product,
                options,
                components: components.len(),
                termination: &termination,
                budget: &mut budget,
            },
        )?;
        return Ok(report(cex, stats));
    }
    let mut first = Watch::new(options, &termination, components.len(), None);
    let walk = run(&product, &mut first, &mut budget, false, Layout::Auto)?;
    let stats = walk.stats;
    let Some(target) = target_of(walk.hit, first.deadlock) else {
        return Ok(report(None, stats));
    };
    let stop_at = (target.violation == Violation::Deadlock)
        .then_some(target.state)
        .flatten();
    let mut second = Watch::new(options, &termination, components.len(), stop_at);
    let again = run(&product, &mut second, &mut budget, true, Layout::Auto)?;
    debug_assert_eq!(again.hit, Some(target), "BFS is deterministic");
    let trace = trace_to(&product, &again.parents, target);
    Ok(report(
        Some(Counterexample::new(trace, target.violation)),
        stats,
    ))
}

/// What a breadth-first walk reports: the error tuple it stopped at, else the first deadlock.
fn target_of(hit: Option<Hit>, deadlock: Option<u32>) -> Option<Hit> {
    hit.or_else(|| {
        deadlock.map(|dead| Hit {
            state: Some(dead),
            last: None,
            violation: Violation::Deadlock,
        })
    })
}

/// The depth-first check as a [`WithStore`] job.
struct DepthFirst<'a, 'p, 'b> {
    product: &'a Product<'p>,
    options: &'a SystemOptions,
    components: usize,
    termination: &'a Termination,
    budget: &'a mut Budget<'b>,
}

impl WithStore for DepthFirst<'_, '_, '_> {
    type Output = Result<(Option<Counterexample>, Stats), ComposeError>;

    fn with<S: Store>(self, store: &mut S) -> Self::Output {
        let mut watch = Watch {
            options: self.options,
            termination: self.termination,
            components: self.components,
            stop_at: None,
            deadlock: None,
            stop_at_deadlock: true,
        };
        let mut dfs = Dfs::new(self.product, store);
        let mut dead = None;
        let found = loop {
            match dfs.resume(&mut watch, self.budget)? {
                // The first deadlock: keep its path, look on for errors (Watch reports no other).
                Some(hit) if hit.violation == Violation::Deadlock => {
                    dead = Some((hit, dfs.path()));
                }
                Some(hit) => break Some((hit, dfs.path())),
                None => break dead,
            }
        };
        let stats = dfs.stats();
        let cex = found.map(|(hit, path)| dfs.counterexample(&mut watch, &path, hit));
        Ok((cex, stats))
    }
}

/// Stops at the first error tuple; remembers the first deadlock (or, in the second walk, stops at
/// the deadlock the first walk chose; or, depth first, reports the first deadlock as a hit).
struct Watch<'o> {
    options: &'o SystemOptions,
    termination: &'o Termination,
    components: usize,
    stop_at: Option<u32>,
    deadlock: Option<u32>,
    stop_at_deadlock: bool,
}

impl<'o> Watch<'o> {
    /// A breadth-first watch (stopping at the deadlock `stop_at`, if given).
    fn new(
        options: &'o SystemOptions,
        termination: &'o Termination,
        components: usize,
        stop_at: Option<u32>,
    ) -> Self {
        Self {
            options,
            termination,
            components,
            stop_at,
            deadlock: None,
            stop_at_deadlock: false,
        }
    }
}

impl Visitor for Watch<'_> {
    fn first_deadlock(&self) -> Option<u32> {
        self.deadlock
    }

    fn restore_deadlock(&mut self, deadlock: Option<u32>) {
        self.deadlock = deadlock;
    }

    fn error(&mut self, _: Option<u32>, _: ActionId, component: usize) -> Option<Violation> {
        Some(Violation::of_member(component, self.components))
    }

    fn expanded(&mut self, id: u32, tuple: &[StateId], successors: usize) -> Option<Violation> {
        if self.stop_at == Some(id) {
            return Some(Violation::Deadlock);
        }
        if successors == 0
            && self.options.deadlock
            && self.deadlock.is_none()
            && !self.termination.is_terminal(tuple)
        {
            self.deadlock = Some(id);
            if self.stop_at_deadlock {
                return Some(Violation::Deadlock);
            }
        }
        None
    }
}
