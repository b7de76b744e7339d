//! What [`check`](crate::check()) returns: a [`Report`] that accepts the certificate or names the
//! first check it fails ([`Rejection`]), and [`CertifyError`] for input it cannot interpret.

use crate::format::{Rule, VerdictKind};

/// The result of checking a certificate that could be interpreted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// The verdict the certificate claims.
    pub verdict: VerdictKind,
    /// Its rule.
    pub rule: Rule,
    /// Accepted, or the first check that failed.
    pub outcome: Outcome,
    /// Premises checked (and passed) before the outcome was known.
    pub premises_checked: usize,
    /// Product states the checker visited, summed over its searches.
    pub states: usize,
    /// For a `program` certificate: the proof obligations discharged by the solver.
    pub obligations: usize,
    /// For a `program` certificate: the solver command that discharged them (`None` when none
    /// was run).
    pub backend: Option<String>,
    /// For an accepted `holds`: whether it also proves deadlock freedom (its `deadlock-free` and
    /// `failure-refinement` premises form the deadlock rule, or rule `reduce` has its
    /// `no-deadlock` premise; docs/formats.md).
    pub deadlock_free: bool,
}

impl Report {
    /// Whether the certificate was accepted.
    pub fn is_accepted(&self) -> bool {
        self.outcome == Outcome::Accepted
    }

    /// Why the certificate was rejected, if it was.
    pub fn rejection(&self) -> Option<&Rejection> {
        match &self.outcome {
            Outcome::Accepted => None,
            Outcome::Rejected(r) => Some(r),
        }
    }
}

/// Accepted or rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Every check passed: the verdict follows from the certificate.
    Accepted,
    /// A check failed.
    Rejected(Rejection),
}

/// The first check a certificate fails, in the order they run: model (names, fingerprints),
/// transformations, assumptions (data and alphabets), premises, rule, counterexample replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// The certificate names other components or properties than the model has.
    #[error("the certificate is for another model: {reason}")]
    Model {
        /// What differs.
        reason: String,
    },
    /// A fingerprint differs from the one computed from the model (`name` is `"<model>"` for the
    /// top-level fingerprint).
    #[error("fingerprint of {name}: the certificate says {certificate}, the model has {computed}")]
    Fingerprint {
        /// The component or property.
        name: String,
        /// The certificate's value.
        certificate: String,
        /// The value computed from the model.
        computed: String,
    },
    /// A transformation cannot be replayed.
    #[error("transformation {index}: {reason}")]
    Transformation {
        /// Its index.
        index: usize,
        /// Why.
        reason: String,
    },
    /// An assumption's LTS is malformed (no states, a state out of range, ...).
    #[error("assumption {index}: {reason}")]
    Assumption {
        /// Its index.
        index: usize,
        /// Why.
        reason: String,
    },
    /// An alphabet is wrong: an assumption's transitions use an undeclared action, its alphabet
    /// repeats a name, or a rule's alphabet condition fails.
    #[error("alphabet of assumption {assumption}: {reason}")]
    Alphabet {
        /// The assumption.
        assumption: usize,
        /// Why.
        reason: String,
    },
    /// A premise does not hold (or refers to something that does not exist).
    #[error("premise {index} ({kind}): {reason}{}", trace_suffix(trace.as_ref()))]
    Premise {
        /// Its index.
        index: usize,
        /// Its kind (`"triple"`, `"circular"`, ...).
        kind: String,
        /// Why.
        reason: String,
        /// The premise's own counterexample, when the failure is a run.
        trace: Option<Vec<String>>,
    },
    /// Every premise holds, but they are not an instance of the rule that proves the verdict.
    #[error("rule {rule}: {reason}")]
    Rule {
        /// The rule.
        rule: String,
        /// What is missing or wrong.
        reason: String,
    },
    /// The abstract system of a `program` certificate is not the one its obligations talk about
    /// (or not the program's: another alphabet, a missing copy of a variant, a wrong property).
    #[error("abstract system: {reason}")]
    Abstraction {
        /// What differs.
        reason: String,
    },
    /// A proof obligation of a `program` certificate is missing, is not the one the checker
    /// derives from the program and the abstract system, or the solver did not answer `unsat`.
    #[error("obligation {what}: {reason}")]
    Obligation {
        /// Which obligation (its index in the certificate, kind, component, state, transition).
        what: String,
        /// Why.
        reason: String,
    },
    /// The certificate of a program's abstract system (`program.inner`) is rejected.
    #[error("abstract check: {0}")]
    AbstractCheck(Box<Rejection>),
    /// The counterexample does not replay.
    #[error("counterexample step {step}: {reason}")]
    Replay {
        /// The step (the number of steps, for the final claim).
        step: usize,
        /// Why.
        reason: String,
    },
}

/// `" (trace: a, b)"` or nothing.
fn trace_suffix(trace: Option<&Vec<String>>) -> String {
    trace.map_or_else(String::new, |t| format!(" (trace: {})", t.join(", ")))
}

/// A certificate or model the checker cannot interpret at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CertifyError {
    /// Not JSON of the certificate schema.
    #[error("malformed certificate: {0}")]
    Json(#[from] serde_json::Error),
    /// The `"format"` field is not `"guarantor-certificate"`.
    #[error("not a guarantor certificate (format {found:?})")]
    Format {
        /// The value found.
        found: String,
    },
    /// A version this checker does not know.
    #[error("certificate version {found} is not supported (this checker reads version 1)")]
    Version {
        /// The version found.
        found: u32,
    },
    /// The model has two components or properties of one name.
    #[error("the model has two parts named {name:?}")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A property of the model is not deterministic.
    #[error("property {name:?} is not deterministic (state {state}, action {action:?})")]
    PropertyNotDeterministic {
        /// The property.
        name: String,
        /// The state.
        state: usize,
        /// The action (`"tau"` counts).
        action: String,
    },
    /// The rule cannot be checked against an LTS model: a `program` certificate is checked
    /// against its program ([`crate::program::check_program`]), and an LTS certificate not
    /// against a program.
    #[error("a certificate of rule {rule} cannot be checked against {against}")]
    Unsupported {
        /// The rule.
        rule: String,
        /// What it was checked against (`"an LTS model"`, `"a program"`).
        against: String,
    },
    /// The program a `program` certificate is checked against is malformed (an index out of
    /// range, a term that is not one SMT-LIB2 term, an undeclared variable).
    #[error("malformed program: {reason}")]
    Program {
        /// What is wrong.
        reason: String,
    },
    /// The SMT solver that discharges a program's obligations cannot be run (not installed,
    /// or it stopped answering): the obligations are neither accepted nor rejected.
    #[error("no SMT solver to discharge the obligations: {command}: {reason}")]
    Solver {
        /// The command tried.
        command: String,
        /// What went wrong.
        reason: String,
    },
}
