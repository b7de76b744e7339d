//! [`Checker`]: the one entry point over every method.
//!
//! A checker collects named components and properties, a [`Method`], [`MethodOptions`] and a
//! [`Config`] with budgets, and returns an [`Outcome`]: the shared [`Verdict`] plus what the method
//! measured. Names travel with the components so that certificates and messages can say which
//! component an assumption is for.
//!
//! Every counterexample a method returns is re-run here on the original components and properties
//! ([`find_violation`]) before it is handed out: a method that claims a violation it cannot
//! demonstrate is reported as [`CheckError::BadEvidence`], never passed on as a verdict.

use std::sync::Arc;
use std::time::{Duration, Instant};

use guarantor_circ::{CircConfig, CircError, Mode, Policy, check_circ};
use guarantor_compose::replay::{find_violation, replay};
use guarantor_compose::{
    ComposeError, Config, Counterexample, Monitor, Priority, SearchOrder, SystemOptions, Verdict,
    Violation, check_system, compose,
};
use guarantor_lstar::LstarError;
use guarantor_lstar::ag::{
    AgConfig, AgReport, check_asym, check_asym_n, check_asym_weakest, check_sym_n,
};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use guarantor_quotient::{QuotientConfig, QuotientError, check_with_quotient};

/// Which verification method a [`Checker`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// Build the product on the fly and search it breadth-first (the reference method; depth first
    /// with [`MethodOptions::search`]).
    #[default]
    Monolithic,
    /// Learned assumptions, rule ASYM, two groups (Cobleigh et al. 2003).
    Lstar,
    /// Learned assumptions, rule SYM over every component (Chaki et al. 2004, rule 2).
    LstarSym,
    /// Learned assumptions, rule ASYM applied recursively over every component.
    LstarNway,
    /// One component replaced by its quotient assumption (Finkbeiner, Schewe, Brill 2006).
    Quotient,
    /// Circular n-way assume-guarantee with SAT-synthesised assumptions (Elkader et al. 2016).
    Circ,
    /// A portfolio: monolithic under a state budget, then the compositional methods in turn.
    Auto,
}

/// Every method, in the order `auto` would consider them, with its command-line name.
pub const METHODS: &[(Method, &str)] = &[
    (Method::Monolithic, "mono"),
    (Method::Lstar, "lstar"),
    (Method::LstarSym, "lstar-sym"),
    (Method::LstarNway, "lstar-nway"),
    (Method::Quotient, "quotient"),
    (Method::Circ, "circ"),
    (Method::Auto, "auto"),
];

impl Method {
    /// The method's name as the command line spells it.
    pub fn name(self) -> &'static str {
        METHODS
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("?", |(_, n)| n)
    }

    /// Parses a command-line method name (`monolithic` is accepted for `mono`).
    pub fn from_name(name: &str) -> Option<Method> {
        let name = if name == "monolithic" { "mono" } else { name };
        METHODS.iter().find(|(_, n)| *n == name).map(|(m, _)| *m)
    }
}

/// Options that only some methods read.
// Each bool is an independent switch of one method; an enum per switch would only obscure them.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct MethodOptions {
    /// `lstar` and `circ` two-way: the components (by index) of the first group; default: the
    /// first component alone for `lstar`, the first half for two-way `circ`.
    pub split: Option<Vec<usize>>,
    /// `lstar-nway`: compute each level's weakest assumption by subset construction instead of
    /// learning it (no queries, no relearning of inner levels per outer conjecture; see
    /// [`check_asym_weakest`]).
    pub weakest: bool,
    /// `circ`: decompose into two groups (`split`) instead of one assumption per component.
    pub two_way: bool,
    /// `circ`: refine the assumption alphabet starting from the property's (default on).
    pub no_alphabet_refinement: bool,
    /// `circ`: premises assume only the guarantees of neighbours (components sharing actions).
    pub neighbours_only: bool,
    /// `quotient`: the component (by index) to replace; default: the largest.
    pub quotient_component: Option<usize>,
    /// `quotient`: the most refinement steps of the modal abstraction.
    pub max_steps: Option<usize>,
    /// `quotient`: the synthesis settings to start from (for instance
    /// [`QuotientConfig::split_all`]); the checker replaces their budgets with its own, and
    /// `max_steps` above, if set, wins.
    pub quotient: QuotientConfig,
    /// `auto`: the state budget of the first, monolithic attempt (default 2,000,000).
    pub auto_monolithic_states: Option<usize>,
    /// `mono` (and `auto`'s monolithic attempt): the search order. Breadth first (the default)
    /// gives shortest counterexamples; depth first finds deep violations much sooner.
    pub search: SearchOrder,
}

/// What went wrong in a check.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The checker was given no component.
    #[error("no component to check")]
    NoComponents,
    /// A split or component index does not name a component.
    #[error("{0}")]
    BadOption(String),
    /// Composition or checking failed (including budgets: see [`CheckError::is_budget`]).
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// A learning-based method failed.
    #[error(transparent)]
    Lstar(#[from] LstarError),
    /// An LTS operation failed.
    #[error(transparent)]
    Lts(#[from] guarantor_lts::LtsError),
    /// The quotient method failed.
    #[error(transparent)]
    Quotient(#[from] QuotientError),
    /// The circular method failed.
    #[error(transparent)]
    Circ(#[from] CircError),
    /// A method returned a counterexample that does not violate anything when re-run.
    #[error("{method} returned a counterexample that does not replay: {trace:?}")]
    BadEvidence {
        /// The method.
        method: &'static str,
        /// The trace.
        trace: Vec<String>,
    },
    /// Every method of the portfolio ran out of budget; the last error is kept.
    #[error("every method ran out of budget; last: {0}")]
    PortfolioExhausted(Box<CheckError>),
}

impl CheckError {
    /// Whether the check ended because a budget (states, time, queries, SAT conflicts,
    /// cancellation) ran out.
    pub fn is_budget(&self) -> bool {
        match self {
            CheckError::Compose(e) => e.is_budget(),
            CheckError::Lstar(e) => match e {
                LstarError::Compose(c) => c.is_budget(),
                LstarError::RoundLimit { .. }
                | LstarError::QueryLimit { .. }
                | LstarError::HypothesisLimit { .. } => true,
                _ => false,
            },
            CheckError::Quotient(e) => e.is_budget(),
            CheckError::Circ(e) => e.is_budget(),
            CheckError::PortfolioExhausted(_) => true,
            _ => false,
        }
    }
}

/// The size of one assumption in a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AssumptionSummary {
    /// Which component (or group) the assumption is about.
    pub component: String,
    /// States of the assumption.
    pub states: usize,
    /// Transitions of the assumption.
    pub transitions: usize,
}

/// What a method measured besides states: each field is set by the methods it applies to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MethodStats {
    /// L*: membership queries sent to the teacher.
    pub membership_queries: Option<u64>,
    /// L*: equivalence queries (conjectures).
    pub equivalence_queries: Option<u64>,
    /// Quotient: refinement steps of the modal abstraction.
    pub refinement_steps: Option<usize>,
    /// Quotient: how many stages' loops reached their work bound and finished with the exact
    /// construction ([`QuotientConfig::exact_fallback`]).
    pub exact_fallbacks: Option<usize>,
    /// CIRC-AG_N: inner iterations.
    pub iterations: Option<usize>,
    /// CIRC-AG_N: alphabet refinements.
    pub alphabet_refinements: Option<usize>,
    /// CIRC-AG_N: SAT solver calls.
    pub sat_calls: Option<usize>,
    /// CIRC-AG_N: the largest total assumption size bound reached.
    pub max_k: Option<usize>,
    /// Auto: the methods tried before the one that answered, with why each gave up.
    pub tried: Vec<(Method, String)>,
}

/// The result of a check: the verdict with its evidence, and what it cost.
#[derive(Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// Holds (with a certificate) or violated (with a counterexample).
    pub verdict: Verdict,
    /// The method that produced the verdict (for `auto`, the one that answered).
    pub method: Method,
    /// States explored by the largest search the method ran (for the compositional methods: the
    /// largest of their many model checks, as seen by a [`Monitor`]).
    pub states: usize,
    /// Transitions explored by the largest search the method ran.
    pub transitions: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The sizes of the assumptions in the certificate (empty for monolithic checks).
    pub assumptions: Vec<AssumptionSummary>,
    /// Method-specific counters.
    pub stats: MethodStats,
}

/// Checks a system of named components against named safety properties.
#[derive(Debug, Default)]
pub struct Checker {
    components: Vec<(String, Lts)>,
    /// Per component, the state that stands for successful termination (FSP's `END`), if any.
    end_states: Vec<Option<StateId>>,
    properties: Vec<(String, Lts)>,
    /// Action priority over the whole product (FSP's `<<` / `>>`); monolithic checking only.
    priority: Option<Priority>,
    /// Whether the monolithic walk also looks for deadlocks (in the same walk).
    deadlock: bool,
    method: Method,
    options: MethodOptions,
    config: Config,
}

impl Checker {
    /// A checker with no components, the monolithic method and no budgets.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a component.
    #[must_use]
    pub fn component(self, name: impl Into<String>, lts: Lts) -> Self {
        self.component_with_end(name, lts, None)
    }

    /// Adds a component whose state `end` means successful termination: a product state in which
    /// every component has terminated is not a deadlock.
    #[must_use]
    pub fn component_with_end(
        mut self,
        name: impl Into<String>,
        lts: Lts,
        end: Option<StateId>,
    ) -> Self {
        self.components.push((name.into(), lts));
        self.end_states.push(end);
        self
    }

    /// Adds a safety property (a deterministic LTS).
    #[must_use]
    pub fn property(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.properties.push((name.into(), lts));
        self
    }

    /// Sets action priority over the whole product (FSP's `<<` and `>>`). Only the monolithic
    /// method honours it; the compositional methods refuse a prioritised system.
    #[must_use]
    pub fn priority(mut self, priority: Option<Priority>) -> Self {
        self.priority = priority;
        self
    }

    /// Makes the monolithic method also look for deadlocks, in the same walk as the safety check
    /// (LTSA's analysis): the verdict is then a violation if an error is reachable, else a
    /// [`Violation::Deadlock`](guarantor_compose::Violation::Deadlock) counterexample if a deadlock
    /// is. Other methods ignore it; use [`Checker::find_deadlock`] after them.
    #[must_use]
    pub fn deadlock(mut self, on: bool) -> Self {
        self.deadlock = on;
        self
    }

    /// Chooses the method.
    #[must_use]
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Sets options that only some methods read.
    #[must_use]
    pub fn options(mut self, options: MethodOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets budgets (states, deadline, cancellation), shared by every model check of the method.
    #[must_use]
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// The components, with their names.
    pub fn components(&self) -> impl ExactSizeIterator<Item = (&str, &Lts)> {
        self.components.iter().map(|(n, l)| (n.as_str(), l))
    }

    /// The properties, with their names.
    pub fn properties(&self) -> impl ExactSizeIterator<Item = (&str, &Lts)> {
        self.properties.iter().map(|(n, l)| (n.as_str(), l))
    }

    fn component_refs(&self) -> Vec<&Lts> {
        self.components.iter().map(|(_, l)| l).collect()
    }

    fn property_refs(&self) -> Vec<&Lts> {
        self.properties.iter().map(|(_, l)| l).collect()
    }

    /// Searches the composed components for a deadlock: a reachable state with no outgoing
    /// transition in which not every component has terminated (LTSA's definition). Properties do
    /// not take part.
    pub fn find_deadlock(&self) -> Result<Option<Counterexample>, CheckError> {
        if self.components.is_empty() {
            return Err(CheckError::NoComponents);
        }
        let options = self.system_options().with_deadlock(self.end_states.clone());
        let report = check_system(&self.component_refs(), &[], &options, &self.config)?;
        Ok(report.verdict.counterexample().cloned())
    }

    /// Runs the chosen method.
    pub fn check(&self) -> Result<Outcome, CheckError> {
        if self.components.is_empty() {
            return Err(CheckError::NoComponents);
        }
        let start = Instant::now();
        let mut outcome = self.run(self.method, &self.config)?;
        self.confirm_counterexample(&mut outcome)?;
        self.name_assumptions(&mut outcome);
        outcome.elapsed = start.elapsed();
        Ok(outcome)
    }

    fn run(&self, method: Method, config: &Config) -> Result<Outcome, CheckError> {
        if self.priority.is_some() && !matches!(method, Method::Monolithic | Method::Auto) {
            return Err(CheckError::BadOption(format!(
                "the system has action priority, which only the monolithic method honours (not {})",
                method.name()
            )));
        }
        if method == Method::Auto {
            return self.run_auto();
        }
        // Each run gets its own monitor (forwarding to the caller's, if any) so that the largest
        // product it built can be reported even by methods that only run many small checks.
        let monitor = Arc::new(Monitor::child_of(config.monitor.clone()));
        let config = &config.clone().with_monitor(Arc::clone(&monitor));
        monitor.note(method.name());
        let mut outcome = match method {
            Method::Lstar | Method::LstarSym | Method::LstarNway => self.run_lstar(method, config),
            Method::Quotient => self.run_quotient(config),
            Method::Circ => self.run_circ(config),
            // `Auto` returned above; listing it keeps the match exhaustive, so a new method
            // cannot fall through to the monolithic check unnoticed.
            Method::Monolithic | Method::Auto => self.run_monolithic(config),
        }?;
        outcome.states = outcome.states.max(monitor.snapshot().largest_states);
        Ok(outcome)
    }

    fn system_options(&self) -> SystemOptions {
        let options = SystemOptions::default();
        match &self.priority {
            Some(p) => options.with_priority(p.clone()),
            None => options,
        }
    }

    fn run_monolithic(&self, config: &Config) -> Result<Outcome, CheckError> {
        let mut options = self.system_options().with_search(self.options.search);
        if self.deadlock {
            options = options.with_deadlock(self.end_states.clone());
        }
        let report = check_system(
            &self.component_refs(),
            &self.property_refs(),
            &options,
            config,
        )?;
        let mut outcome = Outcome::new(report.verdict, Method::Monolithic);
        outcome.states = report.stats.states;
        outcome.transitions = report.stats.transitions;
        Ok(outcome)
    }

    /// The properties as one: learning rules take a single property, and the product of
    /// deterministic properties is a deterministic property violated exactly when one of them is.
    pub(crate) fn single_property(&self, config: &Config) -> Result<Lts, CheckError> {
        match self.property_refs().as_slice() {
            [] => Ok(trivial_property()?),
            [one] => Ok((*one).clone()),
            many => Ok(compose(many, config)?),
        }
    }

    fn group(&self, indices: &[usize], config: &Config) -> Result<Lts, CheckError> {
        let parts: Vec<&Lts> = indices.iter().map(|&i| &self.components[i].1).collect();
        match parts.as_slice() {
            [one] => Ok((*one).clone()),
            many => Ok(compose(many, config)?),
        }
    }

    fn two_groups(&self) -> Result<(Vec<usize>, Vec<usize>), CheckError> {
        let n = self.components.len();
        let first = self.options.split.clone().unwrap_or_else(|| vec![0]);
        if first.is_empty() || first.iter().any(|&i| i >= n) || first.len() >= n {
            return Err(CheckError::BadOption(format!(
                "--split must name between 1 and {} of the {n} components",
                n.saturating_sub(1)
            )));
        }
        let second = (0..n).filter(|i| !first.contains(i)).collect();
        Ok((first, second))
    }

    fn run_lstar(&self, method: Method, config: &Config) -> Result<Outcome, CheckError> {
        let property = self.single_property(config)?;
        let ag = AgConfig::default().compose(config.clone());
        let report: AgReport = match method {
            Method::Lstar if self.components.len() > 1 => {
                let (first, second) = self.two_groups()?;
                let m1 = self.group(&first, config)?;
                let m2 = self.group(&second, config)?;
                let mut report = check_asym(&m1, &m2, &property, &ag)?;
                // The rule numbers the two groups 0 and 1; certificates name components.
                if let Verdict::Holds(cert) = &mut report.verdict {
                    for a in &mut cert.assumptions {
                        a.component = regroup(&a.component, &[&first, &second]);
                    }
                }
                report
            }
            // The rules rewrite components' ERROR states themselves (ErrorActions).
            Method::LstarSym => check_sym_n(&self.component_refs(), &property, &ag)?,
            Method::LstarNway if self.options.weakest => {
                check_asym_weakest(&self.component_refs(), &property, &ag)?
            }
            _ => check_asym_n(&self.component_refs(), &property, &ag)?,
        };
        let mut outcome = Outcome::new(report.verdict, method);
        outcome.stats.membership_queries = Some(report.stats.membership_queries);
        outcome.stats.equivalence_queries = Some(report.stats.equivalence_queries);
        Ok(outcome)
    }

    fn run_quotient(&self, config: &Config) -> Result<Outcome, CheckError> {
        let components = self.component_refs();
        let replaced = match self.options.quotient_component {
            Some(i) if i < components.len() => i,
            Some(i) => return Err(CheckError::BadOption(format!("no component number {i}"))),
            None => largest(&components),
        };
        // The refinement loop gets the same deadline: when it runs out, the best assumption so far
        // is still sound and invertible, and the final check decides.
        let mut qc = self
            .options
            .quotient
            .clone()
            .with_compose(config.clone())
            .with_refinement(config.clone());
        if let Some(k) = self.options.max_steps {
            qc = qc.with_max_steps(k);
        }
        let report = check_with_quotient(&components, &self.property_refs(), replaced, &qc)?;
        let mut outcome = Outcome::new(report.verdict, Method::Quotient);
        outcome.states = report.check_stats.states;
        outcome.transitions = report.check_stats.transitions;
        outcome.stats.refinement_steps = Some(report.refinement_steps);
        outcome.stats.exact_fallbacks = Some(
            report
                .stages
                .iter()
                .filter(|s| s.synthesis.exact_fallback)
                .count(),
        );
        Ok(outcome)
    }

    fn run_circ(&self, config: &Config) -> Result<Outcome, CheckError> {
        let mut cc = CircConfig::new()
            .with_compose(config.clone())
            .with_alphabet_refinement(!self.options.no_alphabet_refinement);
        if self.options.neighbours_only {
            cc = cc.with_policy(Policy::Neighbours);
        }
        if self.options.two_way {
            let groups = match &self.options.split {
                None => None,
                Some(_) => {
                    let (first, _) = self.two_groups()?;
                    Some(
                        (0..self.components.len())
                            .map(|i| u8::from(!first.contains(&i)))
                            .collect(),
                    )
                }
            };
            cc = cc.with_mode(Mode::TwoWay { groups });
        }
        let report = check_circ(&self.component_refs(), &self.property_refs(), &cc)?;
        let mut outcome = Outcome::new(report.verdict, Method::Circ);
        outcome.stats.iterations = Some(report.iterations);
        outcome.stats.alphabet_refinements = Some(report.alphabet_refinements);
        outcome.stats.sat_calls = Some(report.sat_calls);
        outcome.stats.max_k = Some(report.max_k);
        Ok(outcome)
    }

    /// Monolithic first, under a state budget; when that runs out, the compositional methods in
    /// turn, each under the caller's budgets. The first verdict wins.
    fn run_auto(&self) -> Result<Outcome, CheckError> {
        let mono_states = self.options.auto_monolithic_states.unwrap_or(2_000_000);
        let capped = match self.config.max_states {
            Some(n) if n < mono_states => self.config.clone(),
            _ => self.config.clone().with_max_states(mono_states),
        };
        if self.priority.is_some() {
            return self.run(Method::Monolithic, &self.config);
        }
        let attempts = [
            (Method::Monolithic, &capped),
            (Method::Circ, &self.config),
            (Method::LstarNway, &self.config),
            (Method::Quotient, &self.config),
        ];
        let mut tried = Vec::new();
        let mut last = None;
        for (method, config) in attempts {
            match self.run(method, config) {
                Ok(mut outcome) => {
                    outcome.stats.tried = tried;
                    return Ok(outcome);
                }
                Err(e)
                    if e.is_budget()
                        || matches!(e, CheckError::Lstar(LstarError::Unsupported(_))) =>
                {
                    tried.push((method, e.to_string()));
                    last = Some(e);
                }
                Err(e) => return Err(e),
            }
        }
        Err(CheckError::PortfolioExhausted(Box::new(
            last.unwrap_or(CheckError::NoComponents),
        )))
    }

    /// Re-runs a counterexample on the original components and properties, and reports what it
    /// really violates (methods number components their own way, e.g. after grouping).
    fn confirm_counterexample(&self, outcome: &mut Outcome) -> Result<(), CheckError> {
        let method = outcome.method.name();
        let Verdict::Violated(cex) = &mut outcome.verdict else {
            return Ok(());
        };
        if cex.violation == Violation::Deadlock {
            // A deadlock trace violates nothing; it must still be a run of the components.
            return replay(&self.component_refs(), &cex.trace).map_err(|_| {
                CheckError::BadEvidence {
                    method,
                    trace: cex.trace.clone(),
                }
            });
        }
        let found = find_violation(&self.component_refs(), &self.property_refs(), &cex.trace)?;
        match found {
            Some(violation) => {
                cex.violation = violation;
                Ok(())
            }
            None => Err(CheckError::BadEvidence {
                method,
                trace: cex.trace.clone(),
            }),
        }
    }

    /// Fills in the assumption summaries, naming components where a method used indices.
    fn name_assumptions(&self, outcome: &mut Outcome) {
        let Some(cert) = outcome.verdict.certificate() else {
            return;
        };
        outcome.assumptions = cert
            .assumptions
            .iter()
            .map(|a| AssumptionSummary {
                component: self.name_of(&a.component),
                states: a.lts.num_states(),
                transitions: a.lts.num_transitions(),
            })
            .collect();
    }

    /// `"2"` becomes the name of component 2, `"1,2"` the names of 1 and 2; other text is kept.
    fn name_of(&self, label: &str) -> String {
        let names: Option<Vec<&str>> = label
            .split(',')
            .map(|part| {
                part.trim()
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| self.components.get(i))
                    .map(|c| c.0.as_str())
            })
            .collect();
        names.map_or_else(|| label.to_owned(), |n| n.join(" || "))
    }
}

/// A comma-separated list of group numbers as the list of the components in those groups.
fn regroup(label: &str, groups: &[&[usize]]) -> String {
    let members: Option<Vec<String>> = label
        .split(',')
        .map(|part| {
            let group = groups.get(part.trim().parse::<usize>().ok()?)?;
            Some(
                group
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            )
        })
        .collect();
    members.map_or_else(|| label.to_owned(), |m| m.join(","))
}

impl Outcome {
    fn new(verdict: Verdict, method: Method) -> Self {
        Outcome {
            verdict,
            method,
            states: 0,
            transitions: 0,
            elapsed: Duration::ZERO,
            assumptions: Vec::new(),
            stats: MethodStats::default(),
        }
    }
}

/// The index of the component with the most states (the first of equals).
fn largest(components: &[&Lts]) -> usize {
    components
        .iter()
        .enumerate()
        .max_by_key(|(i, l)| (l.num_states(), std::cmp::Reverse(*i)))
        .map_or(0, |(i, _)| i)
}

/// A one-state LTS with an empty alphabet: the property that nothing violates.
fn trivial_property() -> Result<Lts, guarantor_lts::LtsError> {
    let mut b = LtsBuilder::new();
    b.add_state()?;
    b.build()
}

#[cfg(test)]
mod tests {
    use super::regroup;

    #[test]
    fn group_numbers_become_component_lists() {
        let first = [0usize];
        let second = [1usize, 2, 3];
        assert_eq!(regroup("1", &[&first, &second]), "1,2,3");
        assert_eq!(regroup("0,1", &[&first, &second]), "0,1,2,3");
        assert_eq!(regroup("env", &[&first, &second]), "env");
    }
}
