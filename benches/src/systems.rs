//! Synthetic systems with known state-space sizes, for benchmarks.
//!
//! [`counters`] builds `k` independent modulo-`n` counters: the product has exactly `n^k` states
//! and `k * n^k` transitions, all reachable, so a safety check that holds has to visit every one of
//! them. [`counters_property`] is a property over the first two counters' actions that every
//! interleaving satisfies, so it synchronises with them (exercising the shared-action path) without
//! ending the search early.

use guarantor_lts::{Lts, LtsBuilder, LtsError, StateId};

/// Counter `i` of `n` states: `s --inc_i--> (s + 1) mod n`.
pub fn counter(i: usize, n: usize) -> Result<Lts, LtsError> {
    let mut b = LtsBuilder::new();
    b.ensure_states(n)?;
    let inc = b.action(&format!("inc_{i}"))?;
    for s in 0..n {
        b.add_transition(StateId::new(s)?, inc, StateId::new((s + 1) % n)?)?;
    }
    b.build()
}

/// `k` independent counters of `n` states each.
pub fn counters(k: usize, n: usize) -> Result<Vec<Lts>, LtsError> {
    (0..k).map(|i| counter(i, n)).collect()
}

/// The property `P = (inc_0 -> P | inc_1 -> P)`: deterministic, and it holds for [`counters`].
pub fn counters_property() -> Result<Lts, LtsError> {
    let mut b = LtsBuilder::new();
    let s = b.add_state()?;
    b.add_transition_named(s, "inc_0", s)?;
    b.add_transition_named(s, "inc_1", s)?;
    b.build()
}
