//! Reachability from the initial state, and trimming away what is not reachable.
//!
//! [`trim`] renumbers the kept states in breadth-first order from the initial state, so the initial
//! state of the result is always state 0 and two trimmed isomorphic LTSs with the same edge order are
//! equal; other operations (minimisation, quotients) rely on that numbering.

use bit_set::BitSet;

use crate::error::LtsError;
use crate::id::StateId;
use crate::lts::Lts;
use crate::ops::util::CsrWriter;

/// The states reachable from the initial state (tau and visible transitions alike).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::reachable_states;
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s2, "b", s0)?; // s2 is unreachable
/// let lts = b.build()?;
/// assert_eq!(reachable_states(&lts).iter().collect::<Vec<_>>(), [0, 1]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn reachable_states(lts: &Lts) -> BitSet {
    let mut seen = BitSet::with_capacity(lts.num_states());
    for s in bfs_order(lts) {
        seen.insert(s.index());
    }
    seen
}

/// The reachable states in breadth-first order from the initial state (which comes first).
pub fn bfs_order(lts: &Lts) -> Vec<StateId> {
    let mut seen = BitSet::with_capacity(lts.num_states());
    let mut order = vec![lts.initial()];
    seen.insert(lts.initial().index());
    let mut i = 0;
    while i < order.len() {
        for e in lts.outgoing(order[i]) {
            if seen.insert(e.target.index()) {
                order.push(e.target);
            }
        }
        i += 1;
    }
    order
}

/// Keeps only the reachable states, renumbered in breadth-first order from the initial state (which
/// becomes state 0). The alphabet is kept whole; the error marker is kept if the error state is
/// reachable and dropped otherwise; an accepting set is kept (restricted to the kept states).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::trim;
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s1, "a", s2)?; // s1, s2 unreachable from s0
/// b.set_initial(s1)?;
/// let lts = b.build()?;
/// let t = trim(&lts);
/// assert_eq!((t.num_states(), t.num_transitions(), t.initial().index()), (2, 1, 0));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never: the result is no larger than the input, so no id or offset can overflow.
pub fn trim(lts: &Lts) -> Lts {
    trim_mapped(lts).0
}

/// [`trim`], with the new number of every state of `lts` (`None` for the states it drops): what a
/// caller that must follow states through the trimming (a certificate's state map) needs.
///
/// ```
/// use guarantor_lts::{LtsBuilder, StateId};
/// use guarantor_lts::ops::trim_mapped;
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s1, "a", s2)?;
/// b.set_initial(s1)?;
/// let (t, map) = trim_mapped(&b.build()?);
/// assert_eq!(t.num_states(), 2);
/// assert_eq!(map, [None, Some(StateId::must(0)), Some(StateId::must(1))]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never, as [`trim`].
pub fn trim_mapped(lts: &Lts) -> (Lts, Vec<Option<StateId>>) {
    let order = bfs_order(lts);
    let mut new_id = vec![u32::MAX; lts.num_states()];
    for (i, s) in order.iter().enumerate() {
        new_id[s.index()] = i as u32;
    }
    let trimmed = renumber(lts, &order, &new_id).expect("trimming never grows an LTS");
    let map = new_id
        .into_iter()
        .map(|i| (i != u32::MAX).then(|| StateId::from_u32(i)))
        .collect();
    (trimmed, map)
}

/// Builds the LTS on the states `order` (new state `i` is `order[i]`), mapping targets by `new_id`.
/// Every target of a kept state must be kept.
fn renumber(lts: &Lts, order: &[StateId], new_id: &[u32]) -> Result<Lts, LtsError> {
    let mut w = CsrWriter::with_capacity(order.len(), lts.num_transitions());
    for &s in order {
        for e in lts.outgoing(s) {
            w.push(e.action, StateId::from_u32(new_id[e.target.index()]));
        }
        w.end_state()?;
    }
    let map = |s: StateId| {
        Some(new_id[s.index()])
            .filter(|&i| i != u32::MAX)
            .map(StateId::from_u32)
    };
    let error = lts.error_state().and_then(map);
    let accepting = lts.accepting_set().map(|acc| {
        acc.iter()
            .filter_map(|s| map(StateId::must(s)))
            .map(StateId::index)
            .collect()
    });
    w.finish(lts.alphabet().clone(), StateId::must(0), error, accepting)
}
