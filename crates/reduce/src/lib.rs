//! # guarantor-reduce: compositional minimisation
//!
//! Checks a system `C1 || .. || Cn` against its safety properties and for deadlocks without
//! building the whole product, when the system allows: it composes two parts at a time, hides
//! every action that no other part uses, and minimises each result modulo an equivalence that
//! keeps the answers. This is the classic compositional state-space generation of CADP and
//! mCRL2; the order in which parts meet decides everything, and it follows Crouzen and Lang's
//! smart reduction ([`order`](crate) heuristic: among the pairs that let nearly the largest share
//! of their actions be hidden, the one with the smallest product first). Parts are minimised
//! modulo branching bisimulation ([`Equivalence`]), which needs no tau saturation.
//!
//! - **Safety**: a property is one more part, in its error form; the error state survives
//!   hiding and branching-bisimulation minimisation, so it is reachable in the last part exactly
//!   when some property is violated or some component reaches `ERROR`.
//! - **Deadlock**: plain branching bisimulation does not keep deadlocks (a livelock looks like a
//!   stuck state once its tau loop is dropped), so each state on a tau cycle, and each state in
//!   which every component with an end state has ended (LTSA's `END`, by LTSA's rule), is marked
//!   before minimising and unmarked after ([`minimise`]).
//! - **Progress** (LTSA's Check Progress, [`Method::check_progress`](guarantor_compose::Method::check_progress)):
//!   the same construction with the tests' actions kept visible; the last part's terminal sets
//!   answer each test as the whole product's would ([`progress`](mod@progress)).
//!
//! The method is [`Reduce`], a [`guarantor_compose::Method`]: the facade's registry knows it as
//! `reduce`. It refuses problems with action priority (minimisation is not a congruence for
//! LTSA's priority operator) with [`guarantor_compose::MethodError::Unsupported`]. A violation is
//! confirmed, and its counterexample found, by the monolithic breadth-first search.
//!
//! ```
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lts::Lts;
//! use guarantor_reduce::Reduce;
//! // A philosopher that takes the fork, eats and stops: once the fork is put back, nobody can
//! // move (three steps, in either order of `eat` and `put`).
//! let phil = Lts::from_edges([(0, "take", 1), (1, "eat", 2)])?;
//! let fork = Lts::from_edges([(0, "take", 1), (1, "put", 0)])?;
//! let problem = Problem::new()
//!     .with_component("Phil", phil)
//!     .with_component("Fork", fork)
//!     .with_deadlock(true);
//! let report = Reduce::new().check(&problem, &Config::default())?;
//! let cex = report.verdict.counterexample().expect("a deadlock");
//! assert_eq!((cex.trace.len(), cex.trace[0].as_str()), (3, "take"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod certificate;
mod error;
mod implied;
mod method;
pub mod minimise;
mod order;
pub mod progress;
mod symmetry;

pub use error::ReduceError;
pub use method::{BATCH_PART_STATES, MAX_PART_STATES, Reduce};
pub use minimise::Equivalence;
