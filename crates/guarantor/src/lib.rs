//! # guarantor: compositional verification of concurrent systems
//!
//! The facade of the Guarantor workspace: one [`Checker`] over every verification method, and the
//! sub-crates re-exported as modules ([`lts`], [`compose`], [`fsp`], ...), so that one dependency
//! gives the whole toolbox.
//!
//! ## Should I use this crate?
//! Use it when you want "check this system against this property" and do not mind which method does
//! it. Depend on a single method crate (`guarantor-lstar`, `guarantor-quotient`, ...) when you embed
//! one method in a larger tool, or on `guarantor-lts` alone when you only need LTSs.
//!
//! ## Example
//! ```
//! use guarantor::{Checker, Method};
//! use guarantor::lts::io::aut::parse_aut;
//!
//! let input = parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! let output = parse_aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n")?;
//! let order = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?;
//! let outcome = Checker::new()
//!     .component("Input", input)
//!     .component("Output", output)
//!     .property("Order", order)
//!     .method(Method::Monolithic)
//!     .check()?;
//! assert!(outcome.verdict.is_holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod assume;
mod checker;
pub mod model;
pub mod program;

pub use assume::ComponentAssumption;
pub use checker::{
    AssumptionSummary, CheckError, Checker, METHODS, Method, MethodOptions, MethodStats, Outcome,
};
pub use guarantor_circ as circ;
pub use guarantor_compose as compose;
pub use guarantor_fsp as fsp;
pub use guarantor_lstar as lstar;
pub use guarantor_lts as lts;
pub use guarantor_predabs as predabs;
pub use guarantor_quotient as quotient;

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot (the
/// workspace README's examples run as doc-tests of the unpublished `guarantor-testkit`, so that
/// this package reads no file outside itself).
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
