//! # guarantor-testkit (unpublished)
//!
//! What every method's tests share, so that each method is held to the same standard:
//! - [`manifest`]: the data-driven suite — models with their expected verdicts, written down once in
//!   `testdata/manifest.toml` and run against every method (as regex runs one suite against every
//!   engine). Models are `.aut` files or FSP (LTSA) models, with the safety `assert`s of an FSP
//!   file as properties.
//! - [`evidence`]: independent re-checks of what a method returns: a counterexample must replay in
//!   every component and violate a property; a certificate's assumptions must pass the plain checker.
//!
//! It depends on `lts`, `compose` and `fsp` only, and is used as a dev-dependency.

pub mod evidence;
mod fsp_load;
pub mod manifest;

pub use evidence::{EvidenceError, check_counterexample, check_verdict_evidence};
pub use manifest::{
    AssertionError, Case, CompileAssertion, Expected, ManifestError, load_manifest, parse_manifest,
    workspace_root,
};

/// The examples of the workspace README.md, compiled and run as doc-tests so the README cannot rot.
/// They live in this unpublished crate because a published package may not read files outside it.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct WorkspaceReadmeDoctests;
