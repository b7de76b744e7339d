//! Programs through the facade: the predicate-abstraction loop of `predabs` with any [`Method`]
//! checking each abstract system, and a report of what the method said about the last one.
//!
//! The loop, the grouping of the abstract system into components and the per-group contexts live
//! in `predabs` ([`guarantor_predabs::groups`]). How a method wants the abstract system grouped it
//! says itself ([`Method::program_grouping`]): the monolithic method gets the abstract LTSs as they
//! are (it composes everything anyway), computed weakest assumptions get contexts, the others one
//! component per program component. The one choice the command line adds is in the registry
//! ([`registry::program_method_named`]): `lstar` (two groups) puts the first half of the
//! components in the first group, not the first component alone, so neither side holds almost the
//! whole system.

use std::borrow::Cow;
use std::sync::Arc;

use guarantor_compose::Config as ComposeConfig;
use guarantor_compose::method::{Counter, Method, MethodReport};
use guarantor_lts::ComponentId;
use guarantor_predabs::abstraction::AbstractSystem;
use guarantor_predabs::cegar::CheckOutcome;
use guarantor_predabs::cegar::check_cegar_with_checker;
use guarantor_predabs::groups::{Group, Grouping, check_abstract};
use guarantor_predabs::{Config, PredabsError, PredabsReport, Program};

use crate::{AssumptionSummary, CheckError, MethodKind, registry};

/// What the method reported on the last abstract system it checked (the one that decided).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AbstractCheck {
    /// The LTSs the method was given, by name: a program component with the shared-predicate
    /// processes grouped into it (`"P1 + [y1 == 0]"`), or, for the monolithic method, each
    /// component and shared process on its own.
    pub components: Vec<String>,
    /// States of each of those LTSs.
    pub component_states: Vec<usize>,
    /// The learned (or synthesised) assumptions of the certificate, when the abstract system
    /// satisfies the property; empty for the monolithic method.
    pub assumptions: Vec<AssumptionSummary>,
    /// The method's own counters (queries, SAT calls, ...).
    pub counters: Vec<Counter>,
    /// States explored by the largest search the method ran (0 when it does not say).
    pub states: usize,
}

impl AbstractCheck {
    /// The value of the method's counter `name`, if it reported one.
    pub fn counter(&self, name: &str) -> Option<u64> {
        Counter::find(&self.counters, name)
    }

    fn new(groups: &[Group], report: &MethodReport) -> Self {
        let label = |components: &[ComponentId]| {
            components
                .iter()
                .map(|c| groups.get(c.index()).map_or("?", |g| g.name.as_str()))
                .collect::<Vec<_>>()
                .join(" || ")
        };
        let assumptions = report.verdict.certificate().map_or_else(Vec::new, |cert| {
            cert.assumptions
                .iter()
                .map(|a| AssumptionSummary {
                    components: a.components.clone(),
                    label: label(&a.components),
                    states: a.lts.num_states(),
                    transitions: a.lts.num_transitions(),
                })
                .collect()
        });
        AbstractCheck {
            components: groups.iter().map(|g| g.name.clone()).collect(),
            component_states: groups.iter().map(|g| g.lts.num_states()).collect(),
            assumptions,
            counters: report.counters.clone(),
            states: report.stats.states,
        }
    }
}

/// The result of [`check_program`]: the refinement loop's report and what the method said about
/// the last abstract system.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ProgramReport {
    /// Verdict, iterations, final predicates and abstraction, prover calls.
    pub predabs: PredabsReport,
    /// The last abstract check.
    pub last_check: AbstractCheck,
    /// Abstract checks run (one per iteration).
    pub checks: usize,
}

/// A method for abstract systems and how the abstract LTSs are grouped for it.
#[derive(Clone, Debug)]
pub struct ProgramMethod {
    method: Arc<dyn Method>,
    grouping: Grouping,
}

impl ProgramMethod {
    /// Any method, the abstract LTSs grouped as it says ([`Method::program_grouping`]; the
    /// default, [`Grouping::Grouped`], gives one component per program component).
    pub fn new(method: impl Method + 'static) -> Self {
        Self::of(Arc::new(method))
    }

    /// A method value, grouped as it says.
    fn of(method: Arc<dyn Method>) -> Self {
        let grouping = method.program_grouping();
        Self { method, grouping }
    }

    /// A built-in method as it checks programs (see the module docs).
    pub fn builtin(kind: MethodKind) -> Self {
        Self::named(kind.name()).unwrap_or_else(|| Self::of(kind.make()))
    }

    /// The built-in method with this command-line name (see [`registry::BUILTIN`]) as it checks
    /// programs ([`registry::program_method_named`]), grouped as it says; `None` for an unknown
    /// name.
    pub fn named(name: &str) -> Option<Self> {
        registry::program_method_named(name).map(Self::of)
    }

    /// Groups the abstract LTSs as `grouping` says.
    #[must_use]
    pub fn with_grouping(mut self, grouping: Grouping) -> Self {
        self.grouping = grouping;
        self
    }

    /// The method's name.
    pub fn name(&self) -> Cow<'_, str> {
        self.method.name()
    }
}

/// Checks a component program with a built-in method: abstract, check the abstract system,
/// validate counterexamples on the concrete program, refine, repeat.
///
/// # Errors
/// [`CheckError::Program`]: the loop's errors (budgets included) and the method's
/// ([`PredabsError::Check`]).
pub fn check_program(
    program: &Program,
    config: &Config,
    method: MethodKind,
    abstract_config: &ComposeConfig,
) -> Result<ProgramReport, CheckError> {
    check_program_with_method(
        program,
        config,
        &ProgramMethod::builtin(method),
        abstract_config,
    )
}

/// [`check_program`] with any method (and grouping) checking the abstract systems, under
/// `abstract_config`'s budgets. The method sees the abstract system as a [`Problem`](guarantor_compose::Problem) whose
/// components are the groups (one per program component unless the grouping is
/// [`Grouping::Separate`]), in program order.
///
/// # Errors
/// As [`check_program`].
pub fn check_program_with_method(
    program: &Program,
    config: &Config,
    method: &ProgramMethod,
    abstract_config: &ComposeConfig,
) -> Result<ProgramReport, CheckError> {
    let mut last = AbstractCheck::default();
    let mut checks = 0;
    let mut check = |abs: &AbstractSystem| -> Result<CheckOutcome, PredabsError> {
        checks += 1;
        let (groups, report) = check_abstract(
            abs,
            program,
            &method.method,
            method.grouping,
            abstract_config,
        )?;
        last = AbstractCheck::new(&groups, &report);
        Ok((report.verdict, report.stats.states))
    };
    let predabs = check_cegar_with_checker(program, config, &mut check)?;
    Ok(ProgramReport {
        predabs,
        last_check: last,
        checks,
    })
}
