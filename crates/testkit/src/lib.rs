//! # guarantor-testkit
//!
//! Shared test helpers (not published): model manifests, counterexample replay, certificate re-checks.
