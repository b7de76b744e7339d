//! # guarantor-compose: composition and monolithic checking
//!
//! The second layer of Guarantor, on top of [`guarantor_lts`]. Every compositional method (L*,
//! quotients, CIRC-AG_N) needs the same few things, and they live here: composing LTSs, building the
//! error LTS of a property, checking safety with a shortest counterexample, checking
//! assume-guarantee premises, and re-checking evidence. The result types that *every* method returns
//! ([`Verdict`], [`Counterexample`], [`Certificate`]) are defined here too.
//!
//! ## What lives here
//! - [`product::Product`]: lazy n-ary parallel composition (LTSA semantics: synchronise on shared
//!   actions, interleave the rest, tau never synchronises, an `ERROR` in any component ends the run).
//! - [`compose()`] / [`compose_with_tuples`]: the reachable product built eagerly as an [`Lts`](guarantor_lts::Lts), all
//!   error tuples collapsed into one error state as LTSA does.
//! - [`error_lts()`]: `P_err` of a deterministic safety property.
//! - [`check_safety`]: on-the-fly check of `M1 || ... || Mn || P1_err || ... || Pk_err`, breadth
//!   first, with a shortest counterexample; [`find_deadlock`].
//! - [`check_system`]: LTSA's whole analysis in one walk — errors, then deadlocks (with `END`
//!   states), breadth first or depth first ([`SearchOrder`]), under an optional action [`Priority`] ([`Product::with_priority`](product::Product::with_priority),
//!   [`compose_with_priority`]).
//! - [`ag`]: the triple `<A> M <P>` and the circular premise `M |= A > P` of Elkader et al.
//! - [`check_progress`]: LTSA's progress check under fair choice — a terminal strongly connected
//!   component analysis of the product (iterative Tarjan), default or declared progress tests.
//! - [`replay`]: confirms that a counterexample is a run of the system and that it violates.
//! - [`method`]: the [`Method`] trait every verification method implements, the [`Problem`] it
//!   decides (typed component and property ids, names) and the [`MethodReport`] it returns;
//!   [`Monolithic`] is this crate's own.
//! - [`error_actions`]: components' `ERROR` states as private actions a property forbids, for
//!   methods that only see the property ([`ErrorActions`]).
//!
//! ## Should I use this crate?
//! Use it to check a whole system directly (the *monolithic* reference every other method is tested
//! against), or as the engine of a compositional method. To learn or synthesise assumptions, use the
//! method crates, which call this one.
//!
//! ## Example
//! Cobleigh et al.'s running example: `Input = (input -> send -> ack -> Input)`,
//! `Output = (send -> output -> ack -> Output)` and the property
//! `Order = (input -> output -> Order)`. It holds; an `Output` that may emit `output` before any
//! `send` violates it.
//!
//! ```
//! use guarantor_compose::{check_safety, replay, Config, Verdict, Violation};
//! use guarantor_lts::{Lts, LtsBuilder, PropertyId, StateId};
//!
//! /// An LTS from `(source, action, target)` triples; state 0 is initial.
//! fn lts(edges: &[(usize, &str, usize)]) -> Result<Lts, guarantor_lts::LtsError> {
//!     let mut b = LtsBuilder::new();
//!     for &(s, a, t) in edges {
//!         b.ensure_states(s.max(t) + 1)?;
//!         b.add_transition_named(StateId::must(s), a, StateId::must(t))?;
//!     }
//!     b.build()
//! }
//!
//! let input = lts(&[(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
//! let output = lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
//! let order = lts(&[(0, "input", 1), (1, "output", 0)])?;
//!
//! let report = check_safety(&[&input, &output], &[&order], &Config::default())?;
//! assert!(report.verdict.is_holds());
//! assert_eq!(report.stats.states, 4); // (0,0,0) (1,0,1) (2,1,1) (0,2,0)
//!
//! // A faulty Output may say `output` before anything was sent.
//! let eager = lts(&[(0, "send", 1), (0, "output", 2), (1, "output", 2), (2, "ack", 0)])?;
//! let report = check_safety(&[&input, &eager], &[&order], &Config::default())?;
//! let Verdict::Violated(cex) = &report.verdict else { panic!("expected a violation") };
//! assert_eq!(cex.trace, ["output"]);
//! assert_eq!(cex.violation, Violation::Property { property: PropertyId::must(0) });
//! // Evidence can be re-checked independently:
//! replay::replay(&[&input, &eager], &cex.trace)?;
//! assert!(replay::violates(&[&input, &eager], &[&order], &cex.trace)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## API themes
//! - **Configs and budgets.** Every entry point takes a [`Config`]: `max_states`, a deadline, a
//!   cancel flag and a limit on the process's resident memory ([`memory`]), all unlimited by
//!   default. Running out ends in a [`ComposeError`] for which
//!   [`ComposeError::is_budget`] is true — never in a hang. [`Budget`] is the cheap checker loops
//!   use; the method crates use it too. A [`Monitor`] attached to the config sees the state count
//!   of every exploration run under it, for progress reports.
//! - **Verdicts carry evidence.** [`Verdict::Holds`] carries a [`Certificate`] (assumptions; empty
//!   for monolithic checks), [`Verdict::Violated`] a [`Counterexample`]: visible action names and
//!   the [`Violation`] reached. Counterexamples replay, and are shortest (breadth-first search)
//!   unless [`check_system`] was asked to search depth first.
//! - **Names relate alphabets.** Each LTS owns its alphabet; components are related by action
//!   *names*, once, when a [`product::Product`] is set up. Counterexamples are names, too.
//! - **Errors.** Bad input (a nondeterministic property) and exhausted budgets are
//!   [`ComposeError`]s; a violated property is a verdict, not an error. Nothing here panics on bad
//!   input; functions that panic on caller bugs (a tuple of the wrong width) say so.
//!
//! ## Performance
//! The crate has two jobs: the vocabulary above (products, verdicts, methods, budgets, checks)
//! and the engine below it, in `src/engine/` (the exploration loops, breadth and depth first,
//! sequential and parallel, the visited-state stores and their packing, successor enumeration).
//! The safety check keeps only the set of visited tuples: packed into a bit string of one `u64`
//! when the components' state numbers fit in 64 bits together, of three or four `u32` words up to
//! 128 bits, otherwise as `u32` slices of one arena; a hash table maps them to 32-bit state
//! numbers. Parent pointers are stored only in a second search that runs when a violation was
//! found (breadth first); depth first, the search stack is the counterexample. A breadth-first
//! [`check_system`] can write [`checkpoint`]s and resume from one after a kill. See
//! `docs/benchmarks.md` for figures.
//!
//! ## Crate features
//! - `serde`: `Serialize` for [`Verdict`], [`Counterexample`], [`Certificate`], [`SafetyReport`] and
//!   [`Stats`] (assumption LTSs are written as alphabet, sizes and named transitions).
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod ag;
pub mod checkpoint;
pub mod compose;
pub mod config;
mod engine;
pub mod error;
pub mod error_actions;
pub mod error_lts;
pub mod memory;
pub mod method;
pub mod monitor;
pub mod priority;
pub mod product;
pub mod progress;
pub mod proof;
pub mod replay;
pub mod safety;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategy;
pub mod subproblem;
pub mod system;
pub mod termination;
#[cfg(test)]
mod test_util;
pub mod threads;
pub mod verdict;
pub mod visited;

pub use ag::{check_circular_premise, check_triple};
pub use compose::{
    Composition, compose, compose_with_priority, compose_with_tuples, merge_properties,
};
pub use config::{Budget, Config, Storage};
pub use error::{BudgetKind, ComposeError};
pub use error_actions::ErrorActions;
pub use error_lts::error_lts;
pub use method::{Method, MethodError, MethodReport, Monolithic, Problem};
pub use monitor::{Monitor, MonitorSnapshot};
pub use priority::Priority;
pub use progress::{
    ProgressOptions, ProgressReport, ProgressTest, ProgressVerdict, ProgressViolation,
    check_progress,
};
pub use safety::{SafetyReport, Stats, check_safety, find_deadlock, find_deadlock_with};
pub use subproblem::SubProblem;
pub use system::{SearchOrder, SystemOptions, check_system};
pub use verdict::{Assumption, Certificate, Counterexample, Verdict, Violation};
pub use visited::TupleSet;

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
