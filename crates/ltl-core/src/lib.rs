//! The vocabulary of fluent LTL for labelled transition systems, with LTSA's meaning.
//!
//! LTSA users state temporal properties as `fluent` definitions and `assert NAME = formula`
//! (Magee & Kramer, ch. 14). This crate holds what such a property *is*, and nothing that checks
//! it:
//!
//! - the formulas ([`Formula`], [`Ltl`]) over fluents ([`Fluent`]) and action sets ([`Prop`]),
//!   and what a run means to them ([`formula`]: [`Ltl::initial_valuation`], [`Ltl::step`]);
//! - a parser for LTSA's assertion syntax over expanded names ([`parse()`], [`Context`]).
//!
//! It depends on no other crate of the workspace: the FSP front end (`guarantor-fsp`) elaborates
//! a model's `fluent`s and `assert`s into these values, and `guarantor-ltl` (which re-exports
//! them) compiles and checks them with `guarantor-compose`, so a formula is never converted
//! between two vocabularies.
//!
//! ```
//! use guarantor_ltl_core::{Fluent, Formula, Ltl, Prop, PropId};
//!
//! // []!CRIT, built by hand, then parsed: the same value.
//! let crit = Fluent::new("CRIT", ["enter"], ["exit"]);
//! let f = Formula::Always(Box::new(Formula::negation(Formula::Prop(PropId::new(0)))));
//! let built = Ltl::new(f, vec![Prop::Fluent(crit.clone())])?;
//! assert_eq!(built, guarantor_ltl_core::parse("[]!CRIT", &[crit])?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod error;
pub mod formula;
pub mod parse;

pub use error::FormulaError;
pub use formula::{Fluent, Formula, Ltl, Prop, PropId};
pub use parse::{Context, ParseError, parse};

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
