//! [`Stats`], what an exploration visited: produced by the search loops (`explore`, `dfs`) and
//! carried by every report, so it sits below all of them (re-exported as `safety::Stats`).

/// What an exploration visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Stats {
    /// Distinct product states discovered (error tuples not included).
    pub states: usize,
    /// Product transitions enumerated from expanded states (those into error tuples included).
    pub transitions: usize,
}

impl Stats {
    /// What an exploration of `states` states and `transitions` transitions visited.
    ///
    /// ```
    /// use guarantor_compose::Stats;
    /// let stats = Stats::new(3, 5);
    /// assert_eq!((stats.states, stats.transitions), (3, 5));
    /// ```
    pub fn new(states: usize, transitions: usize) -> Self {
        Self {
            states,
            transitions,
        }
    }

    pub(crate) fn with_states(mut self, states: usize) -> Self {
        self.states = states;
        self
    }
}
