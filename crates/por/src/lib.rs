//! # guarantor-por: deadlocks by partial-order reduction
//!
//! A deadlock search over the product of a network of LTSs that, from each state, follows only a
//! *stubborn set* of the enabled transitions (Valmari, "Stubborn sets for reduced state space
//! generation", 1990; the form here is the one for synchronising LTSs: a transition is a
//! component's own move or a joint move on a shared action). Interleavings of independent moves
//! are explored once, yet every reachable deadlock of the full product stays reachable
//! ([`stubborn`](crate) module docs give the argument), so the answer is the monolithic search's.
//! Where components do much on their own (users working, customers arriving, stations sending),
//! the reduced state space is a small fraction of the product.
//!
//! [`Por`] is a [`guarantor_compose::Method`] (`por` in the facade's registry) for the deadlock
//! question of a system without properties ([`Problem::deadlock`] set), which is the question a
//! checker asks after a compositional method has proved the safety half; a component's `ERROR`
//! is found too (the moves towards it are never postponed). It refuses anything else with
//! [`guarantor_compose::MethodError::Unsupported`]: safety properties
//! would need the visibility and cycle provisos, and action priority is not a network of LTSs. A
//! violation comes with a run to it (not always the shortest) that replays in every component.
//!
//! ```
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lts::Lts;
//! use guarantor_por::Por;
//! // Two philosophers who take their left fork first: both can hold one and wait for ever.
//! let phil = |l: &str, r: &str| Lts::from_edges([(0, l, 1), (1, r, 2), (2, "done", 0)]);
//! let problem = Problem::new()
//!     .with_component("P0", phil("f0", "f1")?)
//!     .with_component("P1", phil("f1x", "f0x")?)
//!     .with_component("F0", Lts::from_edges([(0, "f0", 1), (0, "f0x", 1), (1, "done", 0)])?)
//!     .with_component("F1", Lts::from_edges([(0, "f1", 1), (0, "f1x", 1), (1, "done", 0)])?)
//!     .with_deadlock(true);
//! let report = Por::new().check(&problem, &Config::default())?;
//! assert!(report.verdict.is_violated());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod network;
mod search;
mod stubborn;

use std::borrow::Cow;

use guarantor_compose::method::monitored;
use guarantor_compose::{Certificate, Config, Method, MethodError, MethodReport, Problem, Verdict};

/// The stubborn-set deadlock search (crate docs), the `por` method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Por {}

impl Por {
    /// The method.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Method for Por {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("por")
    }

    fn searches_deadlocks(&self) -> bool {
        true
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        refuse_unless_deadlock_only(problem)?;
        let config = config.started();
        let comps = problem.component_lts();
        let ends: Vec<_> = problem.end_states().collect();
        let (found, _) = monitored(&config, |config| Ok(search::search(&comps, &ends, config)?))?;
        let verdict = match found.deadlock {
            Some(cex) => Verdict::Violated(cex),
            None => Verdict::Holds(Certificate::new([])),
        };
        Ok(MethodReport::new(verdict, found.stats)
            .with_counter("reduced_states", found.stats.states as u64))
    }
}

/// [`MethodError::Unsupported`] unless the problem asks the deadlock question alone.
fn refuse_unless_deadlock_only(problem: &Problem) -> Result<(), MethodError> {
    let refuse = |reason: &str| {
        Err(MethodError::Unsupported {
            method: "por".to_owned(),
            reason: reason.to_owned(),
        })
    };
    if !problem.deadlock() {
        return refuse("it answers the deadlock question only");
    }
    if problem.num_properties() > 0 {
        return refuse("safety properties (it answers the deadlock question only)");
    }
    if problem.priority().is_some() {
        return refuse("action priority");
    }
    Ok(())
}
