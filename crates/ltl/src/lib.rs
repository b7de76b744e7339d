//! Fluent LTL for labelled transition systems, with LTSA's meaning.
//!
//! LTSA users state temporal properties as `fluent` definitions and `assert NAME = formula`
//! (Magee & Kramer, ch. 14). This crate checks them:
//!
//! - the formulas ([`Formula`], [`Ltl`]) over fluents ([`Fluent`]) and action sets ([`Prop`]),
//!   what a run means to them ([`formula`]), and a parser for LTSA's assertion syntax over
//!   expanded names ([`parse()`], [`Context`]) are `guarantor-ltl-core`'s, re-exported here: that
//!   crate depends on no other, so the FSP front end elaborates its `assert`s into the same values
//!   this crate checks;
//! - the Büchi automaton of a formula ([`automaton::Gba`], a tableau construction of our own:
//!   no maintained LTL-to-Büchi crate was found on crates.io);
//! - safety formulas compiled into deterministic `property` LTSs ([`compile_safety`]), which every
//!   method of the workspace checks, compositional ones included, and which FSP's `constraint`
//!   uses as a component;
//! - the check of any formula under LTSA's fair-choice assumption, with a lasso counterexample
//!   ([`check_ltl`]).
//!
//! ```
//! use guarantor_compose::{check_safety, Config};
//! use guarantor_ltl::{check_ltl, compile_safety, parse, Fluent, LtlVerdict};
//! use guarantor_lts::Lts;
//!
//! // Two processes that may both be inside.
//! let p1 = Lts::from_edges([(0, "p1.enter", 1), (1, "p1.exit", 0)])?;
//! let p2 = Lts::from_edges([(0, "p2.enter", 1), (1, "p2.exit", 0)])?;
//! let fluents = [Fluent::new("C.1", ["p1.enter"], ["p1.exit"]),
//!                Fluent::new("C.2", ["p2.enter"], ["p2.exit"])];
//! let mutex = parse("[]!(C.1 && C.2)", &fluents)?;
//!
//! // As a property automaton, for any method:
//! let prop = compile_safety(&mutex, &Config::default())?;
//! let report = check_safety(&[&p1, &p2], &[&prop], &Config::default())?;
//! assert!(!report.verdict.is_holds());
//!
//! // Or through the Büchi automaton, with a lasso:
//! let r = check_ltl(&[&p1, &p2], None, &mutex, &Config::default())?;
//! assert!(matches!(r.verdict, LtlVerdict::Violated(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod automaton;
pub mod check;
pub mod error;
pub mod safety;

pub use guarantor_ltl_core::{FormulaError, formula, parse};

pub use check::{Lasso, LtlReport, LtlVerdict, check_ltl, check_ltl_on};
pub use error::LtlError;
pub use guarantor_ltl_core::{Context, Fluent, Formula, Ltl, ParseError, Prop, PropId};
pub use safety::{compile_safety, is_safety};

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
