//! # guarantor-certify: certificates for verdicts, and a checker that trusts nothing else
//!
//! A SAT solver's `unsat` can be kept as a DRAT proof and re-checked by a much simpler program;
//! this crate does the same for Guarantor's verdicts. A [`Certificate`] (versioned JSON, specified
//! in docs/formats.md, "Certificates (version 1)") records what is needed to re-check a verdict
//! without the method that found it: the rule, a fingerprint of the model, the assumptions as
//! plain LTSs, the premises of the rule, the transformations applied to the model first, and for
//! a violation the run with every component's state after every step.
//!
//! [`check()`] re-checks a certificate against the user's [`Model`] with its own, deliberately
//! simple product exploration: this crate depends on `guarantor-lts` only, never on
//! `guarantor-compose` or a method crate, so a bug there cannot hide a bug in a certificate.
//!
//! ## Modules
//! - [`mod@format`]: the certificate as Rust types (serde);
//! - [`fingerprint`]: the canonical form of an LTS and its FNV-1a hash;
//! - [`model`]: the user's components and properties, by name;
//! - [`mod@check`]: the checker;
//! - [`program`]: certificates of programs (rule `program`), checked against the program with
//!   an SMT solver ([`smt`]: the solver process and the few term operations the checker needs);
//! - [`report`]: what the checker returns;
//! - [`skeleton`]: proof skeletons, the short file a user writes by hand (the rule and its
//!   assumptions by source), which the `guarantor` facade expands into a certificate.
//!
//! ## Example
//! ```
//! use guarantor_certify::format::{Certificate, Premise, Rule, VerdictKind};
//! use guarantor_certify::{check, fingerprint::model_print, Model};
//! use guarantor_lts::Lts;
//!
//! let model = Model::new()
//!     .component("Switch", Lts::from_edges([(0, "on", 1), (1, "off", 0)])?)
//!     .property("OnOff", Lts::from_edges([(0, "on", 1), (1, "off", 0)])?);
//! let (fingerprint, print) = model_print(&model);
//! let cert = Certificate::new(VerdictKind::Holds, Rule::Mono, fingerprint, print)
//!     .with_premise(Premise::Monolithic);
//! let report = check(&cert, &model)?;
//! assert!(report.is_accepted());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod check;
mod failures;
pub mod fingerprint;
pub mod format;
mod inclusion;
mod machine;
pub mod model;
mod packing;
pub mod program;
pub mod reduction;
pub mod report;
mod search;
pub mod skeleton;
pub mod smt;

pub use check::{check, check_json};
pub use format::Certificate;
pub use model::Model;
pub use report::{CertifyError, Outcome, Rejection, Report};

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
