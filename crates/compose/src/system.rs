//! [`check_system`]: LTSA's whole analysis of a system in one walk — property violations and
//! `ERROR` states, deadlocks, and action priority.
//!
//! [`check_safety`](crate::check_safety) and [`find_deadlock_with`](crate::find_deadlock_with) each
//! walk the product once; a front end that wants both (as LTSA reports both) would walk twice. Here
//! one walk looks for both: it stops at the first error tuple and remembers the first deadlock it
//! passes. Errors take precedence, as in LTSA's report: the verdict is a violation if any error
//! tuple is reachable, else a deadlock if any is, else the system holds. Both counterexamples are
//! shortest; as in `explore`'s two-walk scheme, parent pointers are only stored in a second
//! walk that runs when there is something to report.

use guarantor_lts::{ActionId, Lts, StateId};

use crate::config::Config;
use crate::error::ComposeError;
use crate::error_lts::error_lts;
use crate::explore::{Hit, Layout, Visitor, run, trace_to};
use crate::priority::Priority;
use crate::product::Product;
use crate::safety::{SafetyReport, classify, report};
use crate::verdict::{Counterexample, Violation};

/// What [`check_system`] looks for besides property violations and `ERROR` states.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SystemOptions {
    /// Also look for deadlocks: reachable tuples without successors that are not terminal.
    /// Default: `false`.
    pub deadlock: bool,
    /// Per component (in order; properties excluded), its successful-termination state (LTSA's
    /// `END`), if any. A tuple in which *every* component is at its end state is terminal, not a
    /// deadlock. Missing entries mean no end state. Default: empty.
    pub end_states: Vec<Option<StateId>>,
    /// Action priority applied to the whole product (see [`crate::priority`]). Default: `None`.
    pub priority: Option<Priority>,
}

impl SystemOptions {
    /// Options that also look for deadlocks, with these end states.
    #[must_use]
    pub fn with_deadlock(mut self, end_states: Vec<Option<StateId>>) -> Self {
        self.deadlock = true;
        self.end_states = end_states;
        self
    }

    /// Options with this priority.
    #[must_use]
    pub fn with_priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }

    fn is_terminal(&self, components: usize, tuple: &[StateId]) -> bool {
        components > 0
            && (0..components).all(|i| self.end_states.get(i).copied().flatten() == Some(tuple[i]))
    }
}

/// Checks `components` against `properties`, and for deadlocks if `options` ask, in one walk.
///
/// The verdict is [`Violated`](crate::Verdict::Violated) with a shortest run to an error tuple if
/// one is reachable (a property's pi, [`Violation::Property`], or a component's `ERROR`,
/// [`Violation::ErrorState`]); otherwise, with deadlocks asked for, a shortest run to a deadlock
/// ([`Violation::Deadlock`]); otherwise it holds. The statistics are those of the whole first walk.
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
    let errs = properties
        .iter()
        .map(|p| error_lts(p))
        .collect::<Result<Vec<_>, _>>()?;
    let all: Vec<&Lts> = components.iter().copied().chain(errs.iter()).collect();
    let product = match &options.priority {
        Some(p) => Product::with_priority(&all, p)?,
        None => Product::new(&all)?,
    };
    let mut first = Watch {
        options,
        components: components.len(),
        stop_at: None,
        deadlock: None,
    };
    let walk = run(&product, &mut first, &mut budget, false, Layout::Auto)?;
    let stats = walk.stats;
    let target = match (walk.hit, first.deadlock) {
        (Some(hit), _) => hit,
        (None, Some(dead)) => Hit {
            state: Some(dead),
            last: None,
            violation: Violation::Deadlock,
        },
        (None, None) => return Ok(report(None, stats)),
    };
    let mut second = Watch {
        options,
        components: components.len(),
        stop_at: (target.violation == Violation::Deadlock)
            .then_some(target.state)
            .flatten(),
        deadlock: None,
    };
    let again = run(&product, &mut second, &mut budget, true, Layout::Auto)?;
    debug_assert_eq!(again.hit, Some(target), "BFS is deterministic");
    let trace = trace_to(&product, &again.parents, target);
    Ok(report(
        Some(Counterexample::new(trace, target.violation)),
        stats,
    ))
}

/// Stops at the first error tuple; remembers the first deadlock (or, in the second walk, stops at
/// the deadlock the first walk chose).
struct Watch<'o> {
    options: &'o SystemOptions,
    components: usize,
    stop_at: Option<u32>,
    deadlock: Option<u32>,
}

impl Visitor for Watch<'_> {
    fn error(&mut self, _: Option<u32>, _: ActionId, component: usize) -> Option<Violation> {
        Some(classify(component, self.components))
    }

    fn expanded(&mut self, id: u32, tuple: &[StateId], successors: usize) -> Option<Violation> {
        if self.stop_at == Some(id) {
            return Some(Violation::Deadlock);
        }
        if successors == 0
            && self.options.deadlock
            && self.deadlock.is_none()
            && !self.options.is_terminal(self.components, tuple)
        {
            self.deadlock = Some(id);
        }
        None
    }
}
