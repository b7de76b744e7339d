//! # guarantor-predabs: predicate abstraction of component programs, with CEGAR
//!
//! Turns infinite-state component programs into finite [`guarantor_lts::Lts`]s by predicate
//! abstraction, per component, and refines the predicates from spurious counterexamples (Chaki,
//! Clarke, Giannakopoulou, Pasareanu 2004; the abstraction by elimination and syntactic
//! substitution of Bensalem, Lakhnech, Owre 1998).
//!
//! ## What lives here
//! - [`Program`]: programs in a small guarded-command language ([`Program::parse`]; grammar in
//!   `docs/formats.md`, "Guarded commands (predabs)"): components with control locations, local
//!   and global integer and boolean variables, transitions `l -> l' on action when guard do x := e`.
//!   Errors are [`SyntaxError`]s with file, line, column and a caret.
//! - [`formula`]: linear integer arithmetic and booleans, normalised atoms, substitution.
//! - [`prover`]: the [`prover::Prover`] trait; [`prover::NativeProver`] (DPLL(T) on varisat,
//!   Bellman-Ford for difference logic, Fourier-Motzkin for the rest) and
//!   [`prover::SmtLibProver`] (an external `z3 -in -smt2`).
//! - [`abstraction`]: existential abstraction of each component into an LTS ([`Abstraction::Exact`],
//!   [`Abstraction::Elimination`], [`Abstraction::Cartesian`]); shared predicates over global variables become
//!   two-state processes, so the result is a list of plain LTSs.
//! - [`cegar`]: [`check_cegar`] (abstract, check, concretise, refine) and
//!   [`check_cegar_with`] (any prover, any abstract-system checker).
//! - [`concrete`]: the concrete semantics, counterexample replay, an explicit-state checker.
//!
//! ## Example
//! ```
//! use guarantor_predabs::{check_cegar, Config, ProgramVerdict, Program};
//! let src = r"
//!     global y1: int = 0;
//!     global y2: int = 0;
//!     component P1 { loc idle, wait, crit;
//!       idle -> wait do y1 := y2 + 1;
//!       wait -> crit on enter1 when y2 == 0 || y1 <= y2;
//!       crit -> idle on exit1 do y1 := 0; }
//!     component P2 { loc idle, wait, crit;
//!       idle -> wait do y2 := y1 + 1;
//!       wait -> crit on enter2 when y1 == 0 || y2 < y1;
//!       crit -> idle on exit2 do y2 := 0; }
//!     property Mutex { s0 -> s1 on enter1; s1 -> s0 on exit1; s0 -> s2 on enter2; s2 -> s0 on exit2; }
//! ";
//! let sys = Program::parse(src, "bakery.gc")?;
//! let report = check_cegar(&sys, &Config::default())?;
//! assert_eq!(report.verdict, ProgramVerdict::Holds);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Semantics and limits
//! - Integers are mathematical integers, computed on `i128` with checked arithmetic: an overflow is
//!   an error, never a wrap.
//! - Expressions are linear; multiplication needs a constant side.
//! - A predicate is an atom over one component's variables (local) or over globals only (shared).
//!   Atoms mixing both are not tracked (another component may write the globals): user predicates
//!   of that kind are rejected ([`PredabsError::MixedPredicate`], or a parse error); such atoms from
//!   guards and weakest preconditions are listed in [`abstraction::Predicates::skipped`], and
//!   refinement that finds only such atoms stops with [`PredabsError::NoProgress`].
//! - At most one component may have transitions that touch shared predicates on a given action.
//! - The native prover answers `Unknown` only for non-difference constraints whose rational
//!   relaxation is satisfiable but whose integer models its bounded search misses; the abstraction
//!   then keeps the transition (sound), and a counterexample check stops with
//!   [`PredabsError::Undecided`].
//!
//! ## Error handling
//! Everything fallible returns [`PredabsError`] (or [`SyntaxError`] from the parser); budgets
//! (abstract states, iterations, product states, deadline) end in errors for which
//! [`PredabsError::is_budget`] is true. Nothing panics on bad input.

pub mod abstraction;
pub mod cegar;
pub mod concrete;
pub mod config;
pub mod error;
pub mod formula;
pub mod groups;
pub mod program;
pub mod prover;
pub mod syntax;

pub use cegar::{PredabsReport, PredabsStats, ProgramVerdict, check_cegar, check_cegar_with};
pub use config::{Abstraction, Backend, Config};
pub use error::PredabsError;
pub use program::Program;
pub use syntax::SyntaxError;

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
