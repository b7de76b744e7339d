//! Independent re-checks of the evidence a method returns.
//!
//! A method's word is not enough: a "violated" must come with a trace that really is a run of the
//! composed system and really drives a property (or a component) into error, and a "holds" must come
//! with assumptions that the plain monolithic checker confirms. These functions do that checking
//! with `compose`'s replay and safety check, never with the method under test.

use guarantor_compose::replay::{replay, violates};
use guarantor_compose::{Counterexample, Verdict};
use guarantor_lts::Lts;

/// Why a piece of evidence was rejected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvidenceError {
    /// The counterexample is not a run of the composed components.
    #[error("counterexample {trace:?} does not replay: {message}")]
    DoesNotReplay {
        /// The trace.
        trace: Vec<String>,
        /// The replay failure.
        message: String,
    },
    /// The counterexample replays but reaches no error.
    #[error("counterexample {trace:?} replays but violates no property")]
    NoViolation {
        /// The trace.
        trace: Vec<String>,
    },
}

/// Checks that `cex` is a run of `components` that drives some property or component into error.
pub fn check_counterexample(
    components: &[&Lts],
    properties: &[&Lts],
    cex: &Counterexample,
) -> Result<(), EvidenceError> {
    replay(components, &cex.trace).map_err(|e| EvidenceError::DoesNotReplay {
        trace: cex.trace.clone(),
        message: e.to_string(),
    })?;
    match violates(components, properties, &cex.trace) {
        Ok(true) => Ok(()),
        Ok(false) => Err(EvidenceError::NoViolation {
            trace: cex.trace.clone(),
        }),
        Err(e) => Err(EvidenceError::DoesNotReplay {
            trace: cex.trace.clone(),
            message: e.to_string(),
        }),
    }
}

/// Checks the evidence that comes with a verdict: counterexamples replay and violate.
///
/// Certificates of compositional methods carry assumptions; their re-check is method-specific
/// (which rule was applied) and is added by each method's tests on top of this.
pub fn check_verdict_evidence(
    components: &[&Lts],
    properties: &[&Lts],
    verdict: &Verdict,
) -> Result<(), EvidenceError> {
    match verdict {
        Verdict::Violated(cex) => check_counterexample(components, properties, cex),
        _ => Ok(()),
    }
}
