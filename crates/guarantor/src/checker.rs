//! [`Checker`]: the one entry point over every method.
//!
//! A checker collects named components and properties, a [`Method`] and a [`Config`] with budgets,
//! and returns an [`Outcome`]: the shared [`Verdict`] plus what the method measured. Names travel with
//! the components so that certificates and messages can say which component an assumption is for.

use std::time::{Duration, Instant};

use guarantor_compose::{ComposeError, Config, Verdict, check_safety};
use guarantor_lts::Lts;

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
    pub fn component(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.components.push((name.into(), lts));
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
