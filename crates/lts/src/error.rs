//! The error type of LTS construction and operations.
//!
//! Parse errors of the file formats live with their format (see [`crate::io`]); this enum covers what
//! can go wrong when building or transforming an LTS in memory.

use crate::id::IdOverflow;

/// What can go wrong when building or transforming an LTS.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LtsError {
    /// More states, actions or transitions than 32-bit ids can number.
    #[error(transparent)]
    IdOverflow(#[from] IdOverflow),
    /// A transition or marker names a state that was never added.
    #[error("state {state} does not exist (the LTS has {num_states} states)")]
    UnknownState {
        /// The offending state number.
        state: usize,
        /// How many states there are.
        num_states: usize,
    },
    /// A transition names an action id that is not in the alphabet.
    #[error("action id {action} is not in the alphabet ({bound} ids)")]
    UnknownAction {
        /// The offending action id.
        action: usize,
        /// How many ids the alphabet has, tau included.
        bound: usize,
    },
    /// An LTS needs at least one state (its initial state).
    #[error("an LTS needs at least one state")]
    NoStates,
    /// An operation that needs a deterministic LTS got a nondeterministic one.
    #[error("the LTS is not deterministic: state {state} has {count} transitions on {action:?}")]
    NotDeterministic {
        /// A state with a nondeterministic choice (or a tau transition, reported with action "tau").
        state: usize,
        /// The action name.
        action: String,
        /// How many transitions it has on that action.
        count: usize,
    },
    /// An operation would build more states than the caller allowed.
    #[error("state limit of {limit} exceeded")]
    StateLimit {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// The caller stopped a long operation (its deadline passed or it was cancelled).
    #[error("interrupted by the caller")]
    Interrupted,
}
