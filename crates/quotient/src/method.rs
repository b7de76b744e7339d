//! [`Quotient`]: quotient checking as a [`Method`], run on a [`Problem`] like every other method
//! of the workspace.
//!
//! The method replaces one component by its quotient assumption against the others
//! ([`check_with_quotient`]) and decides the system with it in place. It reasons about traces
//! (safety properties and `ERROR` states), so it refuses problems with action priority or deadlock
//! detection ([`MethodError::Unsupported`]); a caller that wants deadlocks too runs a deadlock
//! search beside it.
//!
//! ```
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lts::Lts;
//! use guarantor_quotient::Quotient;
//!
//! let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
//! let output = Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
//! let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
//! let mut problem = Problem::new();
//! problem.add_component("Input", input);
//! let out = problem.add_component("Output", output);
//! problem.add_property("Order", order);
//!
//! let report = Quotient::new().with_component(out).check(&problem, &Config::default())?;
//! assert!(report.verdict.is_holds());
//! // The certificate's assumption stands for the replaced component.
//! let cert = report.verdict.certificate().unwrap();
//! assert_eq!(cert.assumptions[0].components, [out]);
//! assert!(report.counter("refinement_steps").is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use guarantor_compose::method::monitored;
use guarantor_compose::{Config, Method, MethodError, MethodReport, Problem};
use guarantor_lts::ComponentId;

use crate::check::check_with_quotient;
use crate::config::QuotientConfig;

/// Quotient checking ([`check_with_quotient`]) as a [`Method`]: one component, by default the
/// largest, is replaced by its quotient assumption against the others.
///
/// - **Settings.** [`Quotient::with_component`] chooses the component to replace;
///   [`Quotient::with_config`] sets the synthesis switches ([`QuotientConfig`]). The check's
///   [`Config`] replaces the config's two budgets ([`QuotientConfig::compose`] and
///   [`QuotientConfig::refinement`]): when the deadline passes during refinement, the best
///   assumption so far is still sound and invertible and the final check decides; when it passes
///   later, the check ends with a budget error.
/// - **Refuses** action priority and deadlock detection ([`MethodError::Unsupported`]), a
///   component the problem does not have and a problem without components
///   ([`MethodError::BadSettings`]).
/// - **Report.** The statistics are the larger of the final check's and the largest search the
///   method ran; the counters are `refinement_steps` (over all stages) and `exact_fallbacks` (the
///   stages that finished with the exact construction, see
///   [`QuotientConfig::exact_fallback`]).
/// - **Certificate.** One assumption, standing for the replaced component
///   ([`components`](guarantor_compose::Assumption::components)), with the homomorphism's classes.
#[derive(Clone, Debug, Default)]
pub struct Quotient {
    component: Option<ComponentId>,
    config: QuotientConfig,
}

impl Quotient {
    /// Replaces the largest component (by states; the first of equals), with the default
    /// [`QuotientConfig`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces `component` instead of the largest.
    #[must_use]
    pub fn with_component(mut self, component: ComponentId) -> Self {
        self.component = Some(component);
        self
    }

    /// Sets the synthesis switches. Their budgets are not used: the check's [`Config`] replaces
    /// both.
    #[must_use]
    pub fn with_config(mut self, config: QuotientConfig) -> Self {
        self.config = config;
        self
    }

    /// The component to replace, if one was chosen (`None`: the largest).
    pub fn component(&self) -> Option<ComponentId> {
        self.component
    }

    /// The synthesis switches.
    pub fn config(&self) -> &QuotientConfig {
        &self.config
    }

    /// The component this method replaces in `problem`.
    fn replaced(&self, problem: &Problem) -> Result<ComponentId, MethodError> {
        let n = problem.num_components();
        if n == 0 {
            return Err(MethodError::BadSettings(
                "the problem has no components".to_owned(),
            ));
        }
        match self.component {
            Some(c) if c.index() < n => Ok(c),
            Some(c) => Err(MethodError::BadSettings(format!(
                "quotient: no component {c} to replace (the problem has {n})"
            ))),
            None => Ok(largest(problem)),
        }
    }
}

/// The component with the most states (the first of equals).
fn largest(problem: &Problem) -> ComponentId {
    problem
        .components()
        .max_by_key(|&(id, _, lts)| (lts.num_states(), std::cmp::Reverse(id)))
        .map_or(ComponentId::must(0), |(id, _, _)| id)
}

impl Method for Quotient {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("quotient")
    }

    /// Rule `quotient` ([`crate::proof`]).
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        _config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        crate::proof::write(problem, report)
    }

    fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
        Some(guarantor_certify::format::Rule::Quotient)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        problem.require_traces_only("quotient")?;
        let replaced = self.replaced(problem)?;
        // One clock for every exploration of this check (a timeout starts now).
        let config = config.started();
        let (report, seen) = monitored(&config, |config| {
            // The refinement loop gets the same budgets: when they run out, the best assumption
            // so far is still sound and invertible, and the final check decides.
            let qc = self
                .config
                .clone()
                .with_compose(config.clone())
                .with_refinement(config.clone());
            check_with_quotient(
                &problem.component_lts(),
                &problem.property_lts(),
                replaced,
                &qc,
            )
            .map_err(|e| {
                let budget = e.budget_kind();
                MethodError::classify(e, budget)
            })
        })?;
        let mut stats = report.check_stats;
        stats.states = stats.states.max(seen.largest_states);
        let exact_fallbacks = report
            .stages
            .iter()
            .filter(|s| s.synthesis.exact_fallback)
            .count();
        Ok(MethodReport::new(report.verdict, stats)
            .with_counter("refinement_steps", report.refinement_steps)
            .with_counter("exact_fallbacks", exact_fallbacks))
    }
}
