//! Tau-closure: the states reachable from a state (or a set of states) by internal moves alone.
//!
//! Two forms. [`tau_closure`] answers for one state. [`TauClosure`] computes the closure of every
//! state once and stores them compactly, for algorithms that ask many times. Determinisation and
//! language inclusion close *sets* of states on the fly with the crate-internal `SetCloser`, which
//! reuses one stamp array so that closing a set allocates nothing.

use crate::id::{ActionId, StateId};
use crate::lts::Lts;

/// The states reachable from `s` by zero or more tau transitions, `s` included, sorted.
///
/// ```
/// use guarantor_lts::{LtsBuilder, StateId};
/// use guarantor_lts::ops::tau_closure;
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "tau", s1)?;
/// b.add_transition_named(s1, "a", s2)?;
/// let lts = b.build()?;
/// assert_eq!(tau_closure(&lts, s0), [s0, s1]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Panics if `s` is not a state of `lts`.
pub fn tau_closure(lts: &Lts, s: StateId) -> Vec<StateId> {
    let mut closer = SetCloser::new(lts.num_states());
    let mut set = vec![s.as_u32()];
    closer.close(lts, &mut set);
    set.into_iter().map(StateId::from_u32).collect()
}

/// The tau-closure of every state, computed once and stored in one flat array.
///
/// Computing it costs one search of the tau graph per state that has a tau transition (states without
/// one close to themselves at no search cost); its size is the sum of all closure sizes, which is
/// quadratic in the worst case (a long tau chain).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TauClosure {
    offsets: Vec<usize>,
    states: Vec<StateId>,
}

impl TauClosure {
    /// Computes the closure of every state of `lts`.
    pub fn new(lts: &Lts) -> Self {
        let mut closer = SetCloser::new(lts.num_states());
        let mut offsets = Vec::with_capacity(lts.num_states() + 1);
        offsets.push(0);
        let mut states = Vec::with_capacity(lts.num_states());
        let mut set = Vec::new();
        for s in lts.states() {
            set.clear();
            set.push(s.as_u32());
            closer.close(lts, &mut set);
            states.extend(set.iter().map(|&t| StateId::from_u32(t)));
            offsets.push(states.len());
        }
        Self { offsets, states }
    }

    /// The states reachable from `s` by tau moves, `s` included, sorted.
    ///
    /// # Panics
    /// Panics if `s` is not a state of the LTS this closure was computed for.
    pub fn of(&self, s: StateId) -> &[StateId] {
        &self.states[self.offsets[s.index()]..self.offsets[s.index() + 1]]
    }

    /// The number of states covered.
    pub fn num_states(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// Closes sets of states under tau, reusing its scratch space between calls.
#[derive(Debug)]
pub(crate) struct SetCloser {
    /// `stamp[s] == epoch` iff `s` is in the set being closed.
    stamp: Vec<u32>,
    epoch: u32,
}

impl SetCloser {
    pub(crate) fn new(num_states: usize) -> Self {
        Self {
            stamp: vec![0; num_states],
            epoch: 0,
        }
    }

    /// Extends `set` (any order, duplicates allowed) to its tau-closure, sorted and deduplicated.
    pub(crate) fn close(&mut self, lts: &Lts, set: &mut Vec<u32>) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        set.retain(|&s| {
            let fresh = self.stamp[s as usize] != epoch;
            self.stamp[s as usize] = epoch;
            fresh
        });
        // `set` doubles as the work list: everything before `i` has had its tau edges followed.
        let mut i = 0;
        while i < set.len() {
            let s = StateId::from_u32(set[i]);
            for e in lts.outgoing_on(s, ActionId::TAU) {
                let t = e.target.index();
                if self.stamp[t] != epoch {
                    self.stamp[t] = epoch;
                    set.push(e.target.as_u32());
                }
            }
            i += 1;
        }
        set.sort_unstable();
    }
}
