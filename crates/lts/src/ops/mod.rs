//! Operations on LTSs. Each returns a new [`Lts`](crate::Lts); none mutates its input.
//!
//! One file per theme:
//! - [`reach`]: reachable states, breadth-first order, [`trim`].
//! - [`tau`]: tau-closure of one state ([`tau_closure`]) or of all states ([`TauClosure`]).
//! - [`determinize`](mod@determinize): subset construction, tau-aware, with a state limit.
//! - [`minimize`]: Hopcroft-style minimisation of deterministic LTSs ([`minimize_dfa`]).
//! - [`bisim`]: strong-bisimulation classes and quotient ([`minimize_strong`]).
//! - [`branching`]: branching-bisimulation classes and quotient ([`minimize_branching`]), without
//!   the saturation [`weak`] bisimulation needs.
//! - [`hide`](mod@hide): [`hide`](fn@hide), [`project`], [`relabel`].
//! - [`complete`](mod@complete): [`complete`](fn@complete) with a sink, [`complement`].
//! - [`scc`]: strongly connected components over the moves a filter keeps ([`strongly_connected`]),
//!   or of any graph given by a successor function ([`components_of`]).
//! - [`trace`]: trace membership and [`language_included`] with a shortest counterexample.
//!
//! Operations that produce a new state space number it in breadth-first order from the initial state
//! (state 0), and write their output row by row without a global sort, since they run on products with
//! millions of states.

pub mod bisim;
pub mod branching;
pub mod complete;
pub mod determinize;
pub mod hide;
pub mod minimize;
pub mod reach;
pub mod scc;
pub mod tau;
pub mod trace;
mod util;
pub mod weak;

pub use bisim::{minimize_strong, minimize_strong_mapped, quotient, strong_bisimulation_classes};
pub use branching::{
    branching_bisimulation_classes, minimize_branching, minimize_branching_mapped,
};
pub use complete::{complement, complete};
pub use determinize::{
    SubsetProgress, determinize, determinize_interruptible, determinize_metered,
    determinize_with_limit,
};
pub use hide::{hide, project, relabel};
pub use minimize::{minimize_dfa, minimize_dfa_interruptible};
pub use reach::{bfs_order, reachable_states, trim, trim_mapped};
pub use scc::{Completed, Components, SccWalk, components_of, strongly_connected};
pub use tau::{TauClosure, tau_closure};
pub use trace::{
    accepts_trace, accepts_trace_named, is_trace, language_included, language_included_with_limit,
};
pub use weak::{minimize_weak, minimize_weak_mapped, weak_bisimulation_classes};
