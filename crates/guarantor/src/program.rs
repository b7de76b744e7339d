//! The abstraction + assume-guarantee loop for infinite-state component programs (Chaki et al.
//! 2004): `predabs` abstracts each component into an LTS and refines on spurious counterexamples;
//! this module plugs any [`Method`] of the [`Checker`] in as the step that checks the abstract
//! system, which is why the loop lives in the facade and not in `predabs`.

use std::cell::RefCell;

use guarantor_compose::ComposeError;
use guarantor_predabs::abstraction::AbstractSystem;
use guarantor_predabs::cegar::CheckOutcome;
use guarantor_predabs::prover::{NativeProver, SmtLibProver};
use guarantor_predabs::{Backend, Config, PredabsError, PredabsReport, System, check_program_with};

use crate::{CheckError, Checker, Method};

/// Why a program check failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    /// Abstraction, refinement or the prover failed.
    #[error(transparent)]
    Predabs(#[from] PredabsError),
    /// Checking an abstract system failed.
    #[error(transparent)]
    Check(#[from] CheckError),
}

impl ProgramError {
    /// Whether a budget (time, iterations, states) ran out.
    pub fn is_budget(&self) -> bool {
        match self {
            ProgramError::Predabs(e) => e.is_budget(),
            ProgramError::Check(e) => e.is_budget(),
        }
    }
}

/// Checks a component program: abstract, check the abstract system with `method`, validate
/// counterexamples on the concrete program, refine, repeat.
pub fn check_program(
    program: &System,
    config: &Config,
    method: Method,
    abstract_config: &guarantor_compose::Config,
) -> Result<PredabsReport, ProgramError> {
    // The abstract checker may fail in ways a ComposeError cannot say; the real error is kept here
    // and the loop is stopped with `Cancelled`, then the kept error is returned instead.
    let failure: RefCell<Option<CheckError>> = RefCell::new(None);
    let mut check = |abs: &AbstractSystem| -> Result<CheckOutcome, ComposeError> {
        let checker = abstract_checker(abs, method, abstract_config);
        match checker.check() {
            Ok(outcome) => Ok((outcome.verdict, outcome.states)),
            Err(CheckError::Compose(e)) => Err(e),
            Err(other) => {
                *failure.borrow_mut() = Some(other);
                Err(ComposeError::Cancelled)
            }
        }
    };
    let result = match &config.backend {
        Backend::SmtLib(cmd) => check_program_with(
            program,
            config,
            &mut SmtLibProver::new(cmd.clone()),
            &mut check,
        ),
        _ => check_program_with(program, config, &mut NativeProver::new(), &mut check),
    };
    match (result, failure.into_inner()) {
        (_, Some(e)) => Err(e.into()),
        (r, None) => Ok(r?),
    }
}

fn abstract_checker(
    abs: &AbstractSystem,
    method: Method,
    config: &guarantor_compose::Config,
) -> Checker {
    let components = abs
        .ltss()
        .into_iter()
        .enumerate()
        .fold(Checker::new(), |c, (i, lts)| {
            c.component(format!("abstract component {i}"), lts.clone())
        });
    let checker = abs
        .property_ltss()
        .into_iter()
        .enumerate()
        .fold(components, |c, (i, p)| {
            c.property(format!("property {i}"), p.clone())
        });
    checker.method(method).config(config.clone())
}
