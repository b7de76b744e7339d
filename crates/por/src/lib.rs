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
//! [`Por`] is a [`guarantor_compose::Method`] (`por` in the facade's registry) made for the
//! deadlock question ([`Problem::deadlock`]), which a checker asks after a compositional method
//! has proved the safety half. It answers the safety question too, soundly but with less
//! reduction: a component's `ERROR` and a property's error state are found because the moves
//! towards them are never postponed (a property takes part as its error form, whose every move
//! can lead to its error). It refuses action priority (not a network of LTSs) with
//! [`guarantor_compose::MethodError::Unsupported`]. A violation comes with a run to it (not always
//! the shortest) that replays in every component.
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
use guarantor_compose::{
    Certificate, Config, Method, MethodError, MethodReport, Problem, Verdict, Violation, error_lts,
};

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

    /// A `holds` is certified by rule `mono`: the independent checker explores the whole product
    /// itself, trusting neither the reduction nor this search. It certifies the properties and
    /// `ERROR` states; the version-1 monolithic premise does not look for deadlocks (rule
    /// `reduce` certifies those).
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        _config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        use guarantor_certify::format::{Premise, Rule, VerdictKind};
        if !report.verdict.is_holds() || problem.priority().is_some() {
            return Ok(None);
        }
        let (fingerprint, print) =
            guarantor_certify::fingerprint::model_print(&problem.certify_model());
        Ok(Some(
            guarantor_certify::Certificate::new(VerdictKind::Holds, Rule::Mono, fingerprint, print)
                .with_premise(Premise::Monolithic),
        ))
    }

    fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
        Some(guarantor_certify::format::Rule::Mono)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        if problem.priority().is_some() {
            return Err(MethodError::Unsupported {
                method: "por".to_owned(),
                reason: "action priority".to_owned(),
            });
        }
        let config = config.started();
        // A property takes part as its error form: one more member whose pi is an `ERROR`, so
        // its moves are never postponed (and it never blocks).
        let errors = problem
            .property_lts()
            .into_iter()
            .map(error_lts)
            .collect::<Result<Vec<_>, _>>()?;
        let mut members = problem.component_lts();
        members.extend(errors.iter());
        let mut ends: Vec<_> = problem.end_states().collect();
        ends.resize(members.len(), None);
        let (found, _) = monitored(&config, |config| {
            Ok(search::search(&members, &ends, problem.deadlock(), config)?)
        })?;
        let verdict = match found.violation {
            Some(mut cex) => {
                cex.violation = match cex.violation {
                    Violation::ErrorState { component } => {
                        Violation::of_member(component.index(), problem.num_components())
                    }
                    other => other,
                };
                Verdict::Violated(cex)
            }
            None => Verdict::Holds(Certificate::new([])),
        };
        Ok(MethodReport::new(verdict, found.stats)
            .with_counter("reduced_states", found.stats.states as u64))
    }
}
