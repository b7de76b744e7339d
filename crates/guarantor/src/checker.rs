//! [`Checker`]: the one entry point over every method.
//!
//! A checker collects named components and properties, a [`Method`] and a [`Config`] with budgets,
//! and returns an [`Outcome`]: the shared [`Verdict`] plus what the method measured. Names travel with
//! the components so that certificates and messages can say which component an assumption is for.

use std::time::{Duration, Instant};

use guarantor_compose::{
    ComposeError, Config, Counterexample, Verdict, check_safety, find_deadlock_with,
};
use guarantor_lts::{Lts, StateId};

/// Which verification method a [`Checker`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// Build the product on the fly and search it breadth-first (the reference method).
    #[default]
    Monolithic,
}

impl Method {
    /// The method's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Monolithic => "mono",
        }
    }

    /// Parses a command-line method name.
    pub fn from_name(name: &str) -> Option<Method> {
        match name {
            "mono" | "monolithic" => Some(Method::Monolithic),
            _ => None,
        }
    }
}

/// What went wrong in a check.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The checker was given no component.
    #[error("no component to check")]
    NoComponents,
    /// Composition or checking failed (including budgets: see [`CheckError::is_budget`]).
    #[error(transparent)]
    Compose(#[from] ComposeError),
}

impl CheckError {
    /// Whether the check ended because a budget (states, time, cancellation) ran out.
    pub fn is_budget(&self) -> bool {
        matches!(self, CheckError::Compose(e) if e.is_budget())
    }
}

/// The result of a check: the verdict with its evidence, and what it cost.
#[derive(Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// Holds (with a certificate) or violated (with a counterexample).
    pub verdict: Verdict,
    /// The method that produced the verdict.
    pub method: Method,
    /// States explored by the largest search the method ran.
    pub states: usize,
    /// Transitions explored by the largest search the method ran.
    pub transitions: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Checks a system of named components against named safety properties.
#[derive(Debug, Default)]
pub struct Checker {
    components: Vec<(String, Lts)>,
    /// Per component, the state that stands for successful termination (FSP's `END`), if any.
    end_states: Vec<Option<StateId>>,
    properties: Vec<(String, Lts)>,
    method: Method,
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

    /// Chooses the method.
    #[must_use]
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Sets budgets (states, deadline, cancellation).
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

    /// Searches the composed components for a deadlock: a reachable state with no outgoing
    /// transition in which not every component has terminated (LTSA's definition). Properties do
    /// not take part.
    pub fn find_deadlock(&self) -> Result<Option<Counterexample>, CheckError> {
        if self.components.is_empty() {
            return Err(CheckError::NoComponents);
        }
        let components: Vec<&Lts> = self.components.iter().map(|(_, l)| l).collect();
        let ends = &self.end_states;
        let all_terminated = |tuple: &[StateId]| {
            tuple
                .iter()
                .zip(ends)
                .all(|(s, end)| end.is_some_and(|e| e == *s))
        };
        Ok(find_deadlock_with(
            &components,
            &self.config,
            all_terminated,
        )?)
    }

    /// Runs the chosen method.
    pub fn check(&self) -> Result<Outcome, CheckError> {
        if self.components.is_empty() {
            return Err(CheckError::NoComponents);
        }
        let start = Instant::now();
        match self.method {
            Method::Monolithic => {
                let components: Vec<&Lts> = self.components.iter().map(|(_, l)| l).collect();
                let properties: Vec<&Lts> = self.properties.iter().map(|(_, l)| l).collect();
                let report = check_safety(&components, &properties, &self.config)?;
                Ok(Outcome {
                    verdict: report.verdict,
                    method: self.method,
                    states: report.stats.states,
                    transitions: report.stats.transitions,
                    elapsed: start.elapsed(),
                })
            }
        }
    }
}
