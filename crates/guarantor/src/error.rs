//! [`CheckError`]: the one error type of the facade, from loading a model to checking it and
//! writing or reading its certificate.
//!
//! One type, so that a user writes one `match` and the command line one mapping to exit codes: the
//! variants a user acts on carry their data (the file and place of bad input, the budget that ran
//! out, the assertion or progress test that does not exist, the premise that does not fit), and
//! the lower crates' own errors travel whole as payloads (`FspError`, `MethodError`,
//! `CertifyError`, ...) rather than as copies. [`CheckError::is_budget`] and
//! [`CheckError::budget_kind`] say whether a budget ran out, [`CheckError::location`] where bad
//! input is ([`crate::json`]).

use std::path::PathBuf;

use guarantor_certify::CertifyError;
use guarantor_certify::skeleton::SkeletonError as FormatError;
use guarantor_circ::CircError;
use guarantor_compose::ComposeError;
use guarantor_compose::method::MethodError;
use guarantor_fsp::FspError;
use guarantor_lstar::LstarError;
use guarantor_ltl::LtlError;
use guarantor_lts::io::aut::AutFileError;
use guarantor_lts::{ComponentId, LtsError};
use guarantor_predabs::PredabsError;
use guarantor_quotient::QuotientError;

/// What went wrong: the one error type of the facade. A verdict is never an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    // ---- The question itself.
    /// The checker was given no component.
    #[error("no component to check")]
    NoComponents,
    /// Nothing can go wrong by construction: no property, no component with an `ERROR` state,
    /// and no deadlock search. The check stops before any method runs (a learning method would
    /// otherwise spend its whole budget proving `holds` of nothing).
    #[error(
        "nothing to check: no property, no ERROR state and no deadlock search (add a property, or search for deadlocks)"
    )]
    NothingToCheck,
    /// A component id that does not name one of the checker's components.
    #[error("no component {component} (the checker has {components})")]
    NoSuchComponent {
        /// The id asked for.
        component: ComponentId,
        /// How many components the checker has.
        components: usize,
    },
    /// `--assert NAME` names no assertion of the model.
    #[error("no assertion {name:?} ({})", if assertions.is_empty() { "the model declares none".to_owned() } else { format!("assertions: {}", assertions.join(", ")) })]
    NoSuchAssertion {
        /// The name asked for.
        name: String,
        /// The model's assertions.
        assertions: Vec<String>,
    },
    /// `--progress NAME` names no progress test of the model.
    #[error("no progress test {name:?} ({})", if tests.is_empty() { "the model declares none".to_owned() } else { format!("tests: {}", tests.join(", ")) })]
    NoSuchProgressTest {
        /// The name asked for.
        name: String,
        /// The model's progress tests.
        tests: Vec<String>,
    },
    /// A `constraint` the model composes cannot be built (LTSA: "LTL constraint must be
    /// safety").
    #[error("constraint: {0}")]
    Constraint(String),

    // ---- Loading a model ([`crate::model`]).
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An `.aut` file is malformed.
    #[error(transparent)]
    Aut(#[from] AutFileError),
    /// An FSP file is malformed or does not elaborate (with its file, line and column).
    #[error(transparent)]
    Fsp(#[from] FspError),
    /// The FSP file has no composite or process to check.
    #[error("{}: nothing to check (no composite or process)", path.display())]
    NoTarget {
        /// The file.
        path: PathBuf,
    },

    // ---- Checking.
    /// The method gave no verdict: a budget ran out ([`MethodError::budget_kind`]; its partial
    /// statistics say how far it got), it cannot decide this problem, or it failed.
    #[error(transparent)]
    Method(#[from] MethodError),
    /// Composition or checking failed (including budgets: see [`CheckError::is_budget`]).
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// An LTS operation failed.
    #[error(transparent)]
    Lts(#[from] LtsError),
    /// A learning-based method, called directly, failed.
    #[error(transparent)]
    Lstar(#[from] LstarError),
    /// The quotient method, called directly, failed.
    #[error(transparent)]
    Quotient(#[from] QuotientError),
    /// The circular method, called directly, failed.
    #[error(transparent)]
    Circ(#[from] CircError),
    /// A fluent LTL formula could not be built or checked (a budget included).
    #[error(transparent)]
    Ltl(#[from] LtlError),
    /// The predicate-abstraction loop of a program check failed (abstraction, refinement, the
    /// prover, or the method checking an abstract system).
    #[error(transparent)]
    Program(#[from] PredabsError),
    /// A method returned a counterexample that does not violate anything when re-run.
    #[error("{method} returned a counterexample that does not replay: {trace:?}")]
    BadEvidence {
        /// The method.
        method: String,
        /// The trace.
        trace: Vec<String>,
    },

    // ---- Writing a certificate ([`crate::certificate`]).
    /// The method that answered writes no certificates ([`Method::certificate`] gave none: a
    /// method of the user's own that does not implement it): its `holds` cannot be certified (a
    /// monolithic certificate would not be its proof).
    ///
    /// [`Method::certificate`]: guarantor_compose::Method::certificate
    #[error("method {method:?} writes no certificates: its holds cannot be certified")]
    NoCertificates {
        /// The method.
        method: String,
    },
    /// Certificates of version 1 cannot express action priority.
    #[error(
        "certificates (version 1) cannot express action priority: a holds of a prioritised system is not certified"
    )]
    CertificatePriority,
    /// A method's assumptions do not have the shape its rule needs (a defect of the method).
    #[error("the certificate of {method} does not fit rule {rule}: {reason}")]
    CertificateShape {
        /// The method.
        method: String,
        /// The rule.
        rule: &'static str,
        /// What does not fit.
        reason: String,
    },
    /// A counterexample is not a run of the components (a defect of the method).
    #[error("no run of the components follows the counterexample: {0}")]
    CertificateRun(String),
    /// The method's own certificate hook ([`guarantor_compose::Method::certificate`]) failed.
    #[error("the method could not write its certificate: {0}")]
    CertificateMethod(#[source] MethodError),
    /// A program's certificate: a violated program has none (version 1 certifies a program's
    /// `holds` only).
    #[error("a violated program has no certificate (version 1 certifies a program's holds only)")]
    ProgramViolated,
    /// A program's certificate: the program uses something SMT-LIB2 output does not cover.
    #[error("cannot write the program as SMT-LIB2: {0}")]
    ProgramUnsupported(String),
    /// A program's certificate: the abstraction does not fit it (a defect of predabs).
    #[error("the abstraction does not fit the certificate: {0}")]
    ProgramAbstraction(String),
    /// The certificate checker cannot interpret a certificate or run its solver.
    #[error(transparent)]
    Certify(#[from] CertifyError),

    // ---- Proof skeletons ([`crate::skeleton`]); each names the skeleton file.
    /// The skeleton is not JSON.
    #[error("{}:{line}:{column}: {message}", path.display())]
    SkeletonSyntax {
        /// The skeleton file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The skeleton is JSON but not a skeleton (format, version, a field).
    #[error("{}", path.display())]
    SkeletonFormat {
        /// The skeleton file.
        path: PathBuf,
        /// What is wrong, as the certificate crate says.
        source: FormatError,
    },
    /// The skeleton's rule cannot be used with its assumptions.
    #[error("{}: rule {rule}: {reason}", path.display())]
    SkeletonRule {
        /// The skeleton file.
        path: PathBuf,
        /// The rule.
        rule: &'static str,
        /// Why not.
        reason: String,
    },
    /// An assumption of the skeleton names what does not exist.
    #[error(
        "{}{}: assumption {index}: {reason}",
        path.display(),
        location.map_or_else(String::new, |(l, c)| format!(":{l}:{c}"))
    )]
    SkeletonAssumption {
        /// The skeleton file.
        path: PathBuf,
        /// Line and column of the assumption in the file, when known.
        location: Option<(usize, usize)>,
        /// The assumption's position, from 0.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// An assumption's LTS could not be loaded.
    #[error("{}: assumption {index}", path.display())]
    SkeletonLoad {
        /// The skeleton file.
        path: PathBuf,
        /// The assumption's position, from 0.
        index: usize,
        /// Why (a model error naming the assumption's own file).
        source: Box<CheckError>,
    },
    /// The premises could not be derived from the skeleton's assumptions.
    #[error("{}", path.display())]
    SkeletonCertificate {
        /// The skeleton file.
        path: PathBuf,
        /// Why (a certificate error).
        source: Box<CheckError>,
    },
}

impl CheckError {
    /// Whether the check ended because a budget (states, time, memory, queries, SAT conflicts,
    /// cancellation) ran out.
    ///
    /// ```
    /// use guarantor::CheckError;
    /// use guarantor::compose::ComposeError;
    /// assert!(CheckError::Compose(ComposeError::Deadline).is_budget());
    /// assert!(!CheckError::NoComponents.is_budget());
    /// ```
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }
}
