//! [`Circ`]: CIRC-AG_N as a [`Method`], run on a [`Problem`] like every other method of the
//! workspace.
//!
//! The method prepares the problem's components and properties as [`check_circ`](crate::check_circ)
//! does ([`system`](crate::system): `ERROR` states become forbidden private actions, several
//! properties one, orphan property actions an `env` component) and runs the rule on them. It
//! reasons about traces, so it refuses problems with action priority or deadlock detection
//! ([`MethodError::Unsupported`]); a caller that wants deadlocks too runs a deadlock search beside
//! it.
//!
//! **Whom each assumption stands for.** Each assumption lists the problem's components its premise
//! is about ([`Assumption::components`](guarantor_compose::Assumption::components)): one
//! component, or the members of a two-way group. The component preparation adds when a property
//! has actions that no component has (`env`: one state looping on those actions, so that the
//! rule, like the monolithic product, lets them happen whenever the property allows) stands for no
//! user component: its assumption lists none, and in two-way mode it joins the first group without
//! changing the group's list. As with [`check_circ`](crate::check_circ), the assumptions are about
//! the prepared components ([`PreparedSystem::components`](crate::PreparedSystem::components),
//! matched by [`PreparedSystem::stands_for`](crate::PreparedSystem::stands_for)).
//!
//! ```
//! use guarantor_circ::{Circ, CircConfig, Decomposition};
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lts::Lts;
//!
//! let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
//! let output = Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
//! let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
//! let mut problem = Problem::new();
//! let inp = problem.add_component("Input", input);
//! problem.add_component("Output", output);
//! problem.add_property("Order", order);
//!
//! let report = Circ::new().check(&problem, &Config::default())?;
//! assert!(report.verdict.is_holds());
//! let stands_for: Vec<Vec<&str>> = report
//!     .verdict
//!     .certificate()
//!     .unwrap()
//!     .assumptions
//!     .iter()
//!     .map(|a| a.components.iter().map(|&c| problem.component_name(c)).collect())
//!     .collect();
//! assert_eq!(stands_for, [["Input"], ["Output"]]);
//! assert!(report.counter("sat_calls").is_some());
//!
//! // Two-way mode, `Input` against the rest.
//! let report = Circ::new().with_split([inp]).check(&problem, &Config::default())?;
//! assert!(report.verdict.is_holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use guarantor_compose::method::monitored;
use guarantor_compose::{Config, Method, MethodError, MethodReport, Problem, Stats};
use guarantor_lts::ComponentId;

use crate::config::{CircConfig, Decomposition};
use crate::error::CircError;

/// CIRC-AG_N ([`check_circ`](crate::check_circ)) as a [`Method`], with every switch of
/// [`CircConfig`].
///
/// - **Settings.** [`Circ::with_config`] sets the rule, encoding and budget switches (mode,
///   policy, alphabet refinement, ...); the check's [`Config`] replaces the config's composition
///   budgets ([`CircConfig::compose`]), while its own budgets (iterations, SAT conflicts, total
///   assumption size) stay. [`Circ::with_split`] chooses two-way mode with a given first group.
/// - **Refuses** action priority and deadlock detection ([`MethodError::Unsupported`]); a split
///   naming a component the problem does not have, or none or all of its components, a malformed
///   [`Decomposition::TwoWay`] grouping or [`Policy::Given`](crate::Policy::Given) sets, and a problem
///   without components are [`MethodError::BadSettings`].
/// - **Report.** The statistics are those of the largest product a premise check or composition
///   explored (with several threads this may count a premise checked concurrently past the point
///   where an iteration stopped; see the crate docs, "Threads"); the counters are `iterations`, `alphabet_refinements`, `sat_calls` and `max_k` (the
///   largest bound on the total assumption size reached), as in [`CircReport`](crate::CircReport).
/// - **Certificate.** The assumptions of the kept premises, each with the components it stands for
///   (see the [module docs](self)).
#[derive(Clone, Debug, Default)]
pub struct Circ {
    config: CircConfig,
    split: Option<Vec<ComponentId>>,
}

impl Circ {
    /// CIRC-AG_N with the default [`CircConfig`]: n-way, every other guarantee assumed, alphabet
    /// refinement.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets every switch of the rule, the encoding and the budgets. Its composition budgets are
    /// not used: the check's [`Config`] replaces them.
    #[must_use]
    pub fn with_config(mut self, config: CircConfig) -> Self {
        self.config = config;
        self
    }

    /// Checks in two-way mode ([`Decomposition::TwoWay`]), with `first` as the first group and every other
    /// component as the second; this replaces the config's mode. Naming a component twice is
    /// naming it once.
    #[must_use]
    pub fn with_split(mut self, first: impl IntoIterator<Item = ComponentId>) -> Self {
        self.split = Some(first.into_iter().collect());
        self
    }

    /// The switches.
    pub fn config(&self) -> &CircConfig {
        &self.config
    }

    /// The first group of a two-way split, if one was set.
    pub fn split(&self) -> Option<&[ComponentId]> {
        self.split.as_deref()
    }

    /// The mode for `problem`: the config's, or two-way with the split's groups.
    fn mode(&self, problem: &Problem) -> Result<Decomposition, MethodError> {
        let Some(first) = &self.split else {
            return Ok(self.config.mode.clone());
        };
        let n = problem.num_components();
        if let Some(c) = first.iter().find(|c| c.index() >= n) {
            return Err(MethodError::BadSettings(format!(
                "circ: the split names component {c}, but the problem has {n}"
            )));
        }
        let in_first = problem
            .component_ids()
            .filter(|c| first.contains(c))
            .count();
        if in_first == 0 || in_first == n {
            return Err(MethodError::BadSettings(format!(
                "circ: a split must name between 1 and {} of the {n} components",
                n.saturating_sub(1)
            )));
        }
        Ok(Decomposition::TwoWay {
            first: Some(first.clone()),
        })
    }
}

/// A [`CircError`] as a [`MethodError`]: bad groupings and policies are settings that do not fit
/// the problem.
fn method_error(e: CircError) -> MethodError {
    match e {
        CircError::BadGrouping { .. } | CircError::BadPolicy { .. } => {
            MethodError::BadSettings(format!("circ: {e}"))
        }
        e => {
            let budget = e.budget_kind();
            MethodError::classify(e, budget)
        }
    }
}

impl Method for Circ {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("circ")
    }

    /// Rule `circ`, whatever the premise policy ([`crate::proof`]).
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        _config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        crate::proof::write(problem, report)
    }

    fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
        Some(guarantor_certify::format::Rule::Circ)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        problem.require_traces_only("circ")?;
        if problem.num_components() == 0 {
            return Err(MethodError::BadSettings(
                "the problem has no components".to_owned(),
            ));
        }
        let mode = self.mode(problem)?;
        // One clock for every exploration of this check (a timeout starts now).
        let config = config.started();
        let (report, seen) = monitored(&config, |config| {
            let cc = self
                .config
                .clone()
                .with_mode(mode)
                .with_compose(config.clone());
            crate::run(&problem.component_lts(), &problem.property_lts(), &cc).map_err(method_error)
        })?;
        // Field by field: `Stats` may gain fields.
        #[allow(clippy::field_reassign_with_default)]
        let stats = {
            let mut stats = Stats::default();
            stats.states = report.largest_product.max(seen.largest_states);
            stats
        };
        Ok(MethodReport::new(report.verdict, stats)
            .with_counter("iterations", report.iterations)
            .with_counter("alphabet_refinements", report.alphabet_refinements)
            .with_counter("sat_calls", report.sat_calls)
            .with_counter("max_k", report.max_k))
    }
}
