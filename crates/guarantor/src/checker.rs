//! [`Checker`]: the one entry point over every method.
//!
//! A checker collects named components and properties, a method and a [`Config`] with budgets, and
//! returns an [`Outcome`]: the shared [`Verdict`] plus what the method measured. The method is any
//! [`Method`] value: a built-in one with its default settings, chosen by [`MethodKind`]
//! ([`Checker::builtin_method`] makes the value), or any value given with [`Checker::with_method`]:
//! a built-in method with settings of your choice (each method crate's value carries its own
//! settings) or a method of your own. The checker turns its components into a [`Problem`] (names and
//! typed ids travel with them) and hands it to the method; it knows nothing else about any method.
//!
//! Every counterexample a method returns is re-run here on the original components and properties
//! ([`first_violation`]) before it is handed out: a method that claims a violation it cannot
//! demonstrate is reported as [`CheckError::BadEvidence`], never passed on as a verdict.

use std::sync::Arc;
use std::time::{Duration, Instant};

use guarantor_compose::method::{Counter, DeadlockPhase, Method, MethodReport, Problem};
use guarantor_compose::replay::{first_violation, replay};
use guarantor_compose::{
    Config, Counterexample, Priority, SystemOptions, Verdict, Violation, check_system,
    merge_properties,
};
use guarantor_lts::{ComponentId, Lts, PropertyId, StateId};

pub use crate::error::CheckError;
use crate::phase::{Phase, Question};
use crate::registry::{self, MethodKind};

/// The size of one assumption in a certificate, and whom it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AssumptionSummary {
    /// The components the assumption stands for (none: CIRC-AG_N's `env`, the property's own
    /// actions).
    pub components: Vec<ComponentId>,
    /// Their names joined by `" || "`, or `env` when it stands for none.
    pub label: String,
    /// States of the assumption.
    pub states: usize,
    /// Transitions of the assumption.
    pub transitions: usize,
}

/// One step of a counterexample, with the components that take part in it: every component whose
/// alphabet has the action (they synchronise on it; the others stay where they are). This is what
/// SPIN's trail and LTSA's animator show beside each action.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The visible action (tau steps are not part of a trace).
    pub action: String,
    /// The components that take part, in increasing order (none: only properties have it).
    pub components: Vec<ComponentId>,
    /// Their names, in the same order.
    pub names: Vec<String>,
}

/// The result of a check: the verdict with its evidence, and what it cost.
#[derive(Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// Holds (with a certificate) or violated (with a counterexample).
    pub verdict: Verdict,
    /// The name of the method that produced the verdict (for `auto`, the member that answered).
    pub method: String,
    /// States explored by the largest search the method ran (for the compositional methods: the
    /// largest of their many model checks, as seen by a [`Monitor`](guarantor_compose::Monitor)).
    pub states: usize,
    /// Transitions explored by the largest search the method ran.
    pub transitions: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The sizes of the assumptions in the certificate (empty for monolithic checks).
    pub assumptions: Vec<AssumptionSummary>,
    /// Every counter the method reported, by name, in its order (see [`Outcome::counter`]).
    pub counters: Vec<Counter>,
    /// The method's remarks: for `auto`, what became of each other member (`"member: fate"`);
    /// remarks for the user start with `"note: "` (a method that fell back to a monolithic check,
    /// a deadlock search the monolithic walk did instead of the chosen method).
    pub notes: Vec<String>,
    /// For a violation, what was violated, named as the checker has it (`property Order`,
    /// `ERROR in Output`, `deadlock`: [`Checker::describe`]); `None` for a `holds`.
    pub violated: Option<String>,
    /// For a violation, the counterexample's steps with the components that take part in each
    /// ([`Checker::steps`]); empty for a `holds`.
    pub steps: Vec<Step>,
    /// What ran, in order: the question each phase answered, its method, time and largest
    /// product ([`crate::phase`]). [`Outcome::states`] is the largest of them and
    /// [`Outcome::elapsed`] covers them all.
    pub phases: Vec<Phase>,
}

/// Checks a system of named components against named safety properties.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    components: Vec<(String, Lts)>,
    /// Per component, the state that stands for successful termination (FSP's `END`), if any.
    end_states: Vec<Option<StateId>>,
    properties: Vec<(String, Lts)>,
    /// Action priority over the whole product (FSP's `<<` / `>>`); monolithic checking only.
    priority: Option<Priority>,
    /// Whether the monolithic walk also looks for deadlocks (in the same walk).
    deadlock: bool,
    method: MethodKind,
    /// A method value given with [`Checker::with_method`]; it wins over `method`.
    pub(crate) custom: Option<Arc<dyn Method>>,
    pub(crate) config: Config,
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

    /// Makes [`Checker::check`] also look for deadlocks (LTSA's Check Safety; on by default for a
    /// checker made by [`Checker::from_fsp`], off for [`Checker::new`]): the verdict is then a
    /// violation if an error is reachable, else a
    /// [`Violation::Deadlock`](guarantor_compose::Violation::Deadlock) counterexample if a deadlock
    /// is, whatever the method. The monolithic method searches in the same walk as its safety
    /// check; a method that reasons about traces is followed by [`Checker::find_deadlock`] after a
    /// `holds` (see [`Checker::check`]).
    #[must_use]
    pub fn deadlock(mut self, on: bool) -> Self {
        self.deadlock = on;
        self
    }

    /// Chooses a built-in method (and forgets a method given with [`Checker::with_method`]).
    #[must_use]
    pub fn method(mut self, method: MethodKind) -> Self {
        self.method = method;
        self.custom = None;
        self
    }

    /// Runs this method value: one of the method crates' ([`Monolithic`](guarantor_compose::Monolithic),
    /// [`Circ`](guarantor_circ::Circ), ...) with settings of your choice, a
    /// [`Portfolio`](crate::Portfolio), or a [`Method`] of your own.
    #[must_use]
    pub fn with_method(mut self, method: impl Method + 'static) -> Self {
        self.custom = Some(Arc::new(method));
        self
    }

    /// Sets budgets (states, timeout, deadline, cancellation), shared by every model check of the
    /// method. A timeout counts from the start of [`Checker::check`].
    #[must_use]
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// The budgets the checker's checks run under.
    pub(crate) fn config_ref(&self) -> &Config {
        &self.config
    }

    /// The action priority over the whole product, if any.
    pub(crate) fn priority_ref(&self) -> Option<&Priority> {
        self.priority.as_ref()
    }

    /// The end state (FSP's `END`) of the component at `index`, if it has one.
    pub(crate) fn end_state(&self, index: usize) -> Option<StateId> {
        self.end_states.get(index).copied().flatten()
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

    /// The system as a [`Problem`] for any [`Method`]: the components and properties with their
    /// names, in order (so component `i` is [`ComponentId`] `i`), the priority, and deadlock
    /// detection if [`Checker::deadlock`] asked for it.
    pub fn problem(&self) -> Problem {
        let mut problem = Problem::new()
            .with_priority(self.priority.clone())
            .with_deadlock(self.deadlock);
        for ((name, lts), end) in self.components.iter().zip(&self.end_states) {
            problem.add_component_with_end(name.clone(), lts.clone(), *end);
        }
        for (name, lts) in &self.properties {
            problem.add_property(name.clone(), lts.clone());
        }
        problem
    }

    /// The value of a built-in method with its default settings (the registry's, under the
    /// method's command-line name). For other settings, build the method crate's value and give
    /// it to [`Checker::with_method`].
    pub fn builtin_method(&self, kind: MethodKind) -> Arc<dyn Method> {
        kind.make()
    }

    /// The method a check runs: the one given with [`Checker::with_method`], else the built-in
    /// one chosen with [`Checker::method`].
    pub fn chosen_method(&self) -> Arc<dyn Method> {
        match &self.custom {
            Some(method) => Arc::clone(method),
            None => self.builtin_method(self.method),
        }
    }

    /// Searches the composed components for a deadlock: a reachable state with no outgoing
    /// transition in which not every component has terminated (LTSA's definition). Properties do
    /// not take part.
    pub fn find_deadlock(&self) -> Result<Option<Counterexample>, CheckError> {
        let config = &self.config;
        if self.components.is_empty() {
            return Err(CheckError::NoComponents);
        }
        let options = self.system_options().with_deadlock(self.end_states.clone());
        let report = check_system(&self.component_refs(), &[], &options, config)?;
        Ok(report.verdict.counterexample().cloned())
    }

    /// Whether anything can be violated besides a deadlock: a property, or an `ERROR` state in a
    /// component. Without either, only a deadlock search has something to find.
    pub fn has_safety_check(&self) -> bool {
        !self.properties.is_empty()
            || self
                .components
                .iter()
                .any(|(_, lts)| lts.error_state().is_some())
    }

    /// Runs the method: the one given with [`Checker::with_method`], else the built-in one chosen
    /// with [`Checker::method`]. The timeout's clock starts here and covers every phase.
    ///
    /// With [`Checker::deadlock`] on (the default of [`Checker::from_fsp`]), deadlocks are
    /// searched whatever the method, as the command line does: in the method's own run when it
    /// answers deadlock questions ([`Method::searches_deadlocks`]: `mono`, `reduce`, `auto`), else
    /// in a second phase after a `holds`, asked of the methods that do ([`registry::auto`] races
    /// them), whose deadlock then becomes the verdict ([`Outcome::with_deadlock`]). A system with
    /// only deadlocks to look for (no property, no `ERROR` state) has that phase alone. Every
    /// phase is in [`Outcome::phases`], and [`Outcome::notes`] says when the chosen method did not
    /// answer the deadlock question.
    ///
    /// # Errors
    /// [`CheckError::NothingToCheck`] at once if nothing can go wrong by construction (no
    /// property, no `ERROR` state) and [`Checker::deadlock`] is off.
    pub fn check(&self) -> Result<Outcome, CheckError> {
        if self.components.is_empty() {
            return Err(CheckError::NoComponents);
        }
        if !self.deadlock && !self.has_safety_check() {
            return Err(CheckError::NothingToCheck);
        }
        let start = Instant::now();
        let config = self.config.started();
        let method = self.chosen_method();
        let in_walk = self.deadlock && method.searches_deadlocks();
        let mut outcome = if !self.has_safety_check() && !in_walk {
            let mut outcome = self.ask_deadlock(&config)?;
            outcome.notes.insert(
                0,
                format!(
                    "note: only deadlocks to search (no property, no ERROR state); {} answers no deadlock question, so {} did",
                    method.name(),
                    outcome.method
                ),
            );
            outcome
        } else {
            let question = Question::of(self.has_safety_check(), in_walk);
            let problem = self.problem().with_deadlock(in_walk);
            let outcome = self.run_phase(&*method, question, &problem, &config)?;
            if self.deadlock && !in_walk && outcome.verdict.is_holds() {
                outcome.with_deadlock_phase(self.ask_deadlock(&config)?)
            } else {
                outcome
            }
        };
        self.fill_steps(&mut outcome);
        outcome.elapsed = start.elapsed();
        Ok(outcome)
    }

    /// One phase: `method` on `problem`, its counterexample confirmed on the original components
    /// and described, its assumptions named, and the phase recorded.
    fn run_phase(
        &self,
        method: &dyn Method,
        question: Question,
        problem: &Problem,
        config: &Config,
    ) -> Result<Outcome, CheckError> {
        let start = Instant::now();
        let mut report = method.check(problem, config)?;
        let second = report.deadlock_phase.take();
        let mut outcome = Outcome::from_report(report, &method.name());
        let question = if second.is_some() {
            Question::Safety
        } else {
            question
        };
        let first_took = start
            .elapsed()
            .saturating_sub(second.as_ref().map_or(Duration::ZERO, |d| d.elapsed));
        self.name_assumptions(&mut outcome);
        outcome.phases.push(Phase::new(
            question,
            outcome.method.clone(),
            first_took,
            outcome.states,
            outcome.transitions,
        ));
        if let Some(second) = second {
            outcome = outcome.with_deadlock_phase(Outcome::of_deadlock_phase(*second));
        }
        self.confirm_counterexample(&mut outcome)?;
        outcome.violated = outcome
            .verdict
            .counterexample()
            .map(|cex| self.describe(&cex.violation));
        Ok(outcome)
    }

    /// The deadlock question alone, for a method that does not answer it: the components without
    /// the properties (a property's error form never blocks), asked of the methods that search
    /// for deadlocks (the members of [`registry::auto`] that do, raced).
    fn ask_deadlock(&self, config: &Config) -> Result<Outcome, CheckError> {
        let components = Checker {
            properties: Vec::new(),
            custom: None,
            ..self.clone()
        };
        // Asked after the safety half held, or with no safety question at all (then no
        // component has an ERROR state to drop).
        let problem = self.problem().deadlock_question(true);
        let searchers = registry::auto().retaining(|m| m.searches_deadlocks());
        components.run_phase(&searchers, Question::Deadlock, &problem, config)
    }

    /// The steps of `trace` with the components that take part in each: every component whose
    /// alphabet has the step's action ([`Step`]).
    ///
    /// ```
    /// use guarantor::Checker;
    /// use guarantor::lts::Lts;
    /// let checker = Checker::new()
    ///     .component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 0)])?)
    ///     .component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 0)])?);
    /// let steps = checker.steps(&["input", "send", "output"]);
    /// assert_eq!(steps[0].names, ["Input"]);
    /// assert_eq!(steps[1].names, ["Input", "Output"]);
    /// assert_eq!(steps[2].names, ["Output"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn steps<S: AsRef<str>>(&self, trace: &[S]) -> Vec<Step> {
        trace
            .iter()
            .map(|action| {
                let action = action.as_ref();
                let components: Vec<ComponentId> = self
                    .components
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, lts))| lts.alphabet().get(action).is_some())
                    .map(|(i, _)| ComponentId::must(i))
                    .collect();
                let names = components
                    .iter()
                    .map(|&c| self.component_name(c).to_owned())
                    .collect();
                Step {
                    action: action.to_owned(),
                    components,
                    names,
                }
            })
            .collect()
    }

    /// Fills in [`Outcome::steps`] from the verdict's counterexample.
    fn fill_steps(&self, outcome: &mut Outcome) {
        outcome.steps = outcome
            .verdict
            .counterexample()
            .map(|cex| self.steps(&cex.trace))
            .unwrap_or_default();
    }

    fn system_options(&self) -> SystemOptions {
        let options = SystemOptions::default();
        match &self.priority {
            Some(p) => options.with_priority(p.clone()),
            None => options,
        }
    }

    /// The properties as one: learning rules take a single property, and the product of
    /// deterministic properties is a deterministic property violated exactly when one of them is.
    pub(crate) fn single_property(&self, config: &Config) -> Result<Lts, CheckError> {
        Ok(merge_properties(&self.property_refs(), config)?)
    }

    /// Re-runs a counterexample on the original components and properties: it must be a run of
    /// them that reaches a violation. A trace that goes on past its first violation is cut there,
    /// and the violation is named as the components and properties have it.
    fn confirm_counterexample(&self, outcome: &mut Outcome) -> Result<(), CheckError> {
        let method = outcome.method.clone();
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
        let found = first_violation(&self.component_refs(), &self.property_refs(), &cex.trace)?;
        match found {
            Some((len, violation)) => {
                cex.trace.truncate(len);
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
                components: a.components.clone(),
                label: self.label_of(&a.components),
                states: a.lts.num_states(),
                transitions: a.lts.num_transitions(),
            })
            .collect();
    }

    /// The names of `components` joined by `" || "`; `env` for none.
    fn label_of(&self, components: &[ComponentId]) -> String {
        if components.is_empty() {
            return "env".to_owned();
        }
        components
            .iter()
            .map(|&c| self.component_name(c))
            .collect::<Vec<_>>()
            .join(" || ")
    }

    /// The name of a component (`?` for an id this checker does not have).
    pub fn component_name(&self, id: ComponentId) -> &str {
        self.components
            .get(id.index())
            .map_or("?", |c| c.0.as_str())
    }

    /// The name of a property (`?` for an id this checker does not have).
    pub fn property_name(&self, id: PropertyId) -> &str {
        self.properties
            .get(id.index())
            .map_or("?", |p| p.0.as_str())
    }

    /// What a violation is, in words and with names: `property Order`, `ERROR in Output`,
    /// `deadlock`.
    pub fn describe(&self, violation: &Violation) -> String {
        match violation {
            Violation::Property { property } => {
                format!("property {}", self.property_name(*property))
            }
            Violation::ErrorState { component } => {
                format!("ERROR in {}", self.component_name(*component))
            }
            Violation::Deadlock => "deadlock".to_owned(),
            _ => format!("{violation:?}"),
        }
    }
}

impl Outcome {
    /// The value of the method's counter `name` (`membership_queries`, `sat_calls`, ...), if it
    /// reported one.
    pub fn counter(&self, name: &str) -> Option<u64> {
        Counter::find(&self.counters, name)
    }

    /// The outcome of a method's report; `ran` is the name of the method that was run.
    fn from_report(report: MethodReport, ran: &str) -> Self {
        Outcome {
            verdict: report.verdict,
            method: report.answered_by.unwrap_or_else(|| ran.to_owned()),
            states: report.stats.states,
            transitions: report.stats.transitions,
            elapsed: Duration::ZERO,
            assumptions: Vec::new(),
            counters: report.counters,
            notes: report.notes,
            violated: None,
            steps: Vec::new(),
            phases: Vec::new(),
        }
    }

    /// The outcome of a method's own deadlock phase ([`MethodReport::deadlock_phase`]), with
    /// that phase recorded.
    fn of_deadlock_phase(phase: DeadlockPhase) -> Self {
        let mut found = Outcome::from_report(phase.report, &phase.method);
        found.phases.push(Phase::new(
            Question::Deadlock,
            found.method.clone(),
            phase.elapsed,
            found.states,
            found.transitions,
        ));
        found
    }

    /// This `holds` with the deadlock phase that followed it ([`Checker::check`]): its phases,
    /// its notes, the larger product, and its deadlock as the verdict
    /// ([`Outcome::with_deadlock`]) if it found one.
    fn with_deadlock_phase(mut self, found: Outcome) -> Self {
        self.states = self.states.max(found.states);
        self.transitions = self.transitions.max(found.transitions);
        self.phases.extend(found.phases);
        self.notes
            .extend(found.notes.iter().map(|note| in_deadlock_phase(note)));
        match found.verdict {
            Verdict::Violated(deadlock) => self.with_deadlock(deadlock),
            _ => self,
        }
    }
}

/// A note of the deadlock phase, said so: `"note: ..."` stays a note, a portfolio's
/// `"member: fate"` names the phase beside the member.
fn in_deadlock_phase(note: &str) -> String {
    if let Some(remark) = note.strip_prefix("note: ") {
        format!("note: deadlock phase: {remark}")
    } else if let Some((member, fate)) = note.split_once(": ") {
        format!("{member} (deadlock phase): {fate}")
    } else {
        format!("note: deadlock phase: {note}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_by_name() {
        let report = MethodReport::new(
            Verdict::Holds(guarantor_compose::Certificate::monolithic()),
            guarantor_compose::Stats::default(),
        )
        .with_counter("sat_calls", 4_u64)
        .with_counter("membership_queries", 9_u64);
        let outcome = Outcome::from_report(report, registry::CIRC);
        assert_eq!(outcome.counter("sat_calls"), Some(4));
        assert_eq!(outcome.counter("membership_queries"), Some(9));
        assert_eq!(outcome.counter("max_k"), None);
        assert_eq!(outcome.method, registry::CIRC);
        assert_eq!(outcome.counters.len(), 2);
    }
}
