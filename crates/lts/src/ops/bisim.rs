//! Strong bisimulation: the coarsest equivalence that preserves every transition label, tau included.
//!
//! [`strong_bisimulation_classes`] computes the classes by *signature refinement*: start from the
//! partition by (error?, accepting?), then repeatedly give every state the signature "its block, and
//! the set of (action, block of target) it has", and split blocks by signature, until the number of
//! blocks stops growing. Each round is one pass over the transitions (signatures are written into one
//! flat arena and grouped by hashing borrowed slices, with no per-state allocation), so a round costs
//! O(m) expected time; the number of rounds is bounded by the number of states and in practice is
//! close to the depth of the LTS. The worst case is therefore O(n·m), not the O(m log n) of
//! Paige–Tarjan; we chose the simpler algorithm because the LTSs minimised here (components,
//! assumptions, quotients) are shallow, and because its correctness is easy to check.
//!
//! Tau is an ordinary label here (strong, not weak, bisimulation). [`quotient`] builds the LTS of any
//! partition; [`minimize_strong`] trims, computes the classes and returns the quotient.

use rustc_hash::FxHashMap;

use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::reach::trim;
use crate::ops::util::{CsrWriter, sort_dedup_from};

/// The strong-bisimulation class of every state: `classes[s]` is the class of state `s`. Classes are
/// numbered densely in order of their first state (the class of state 0 is 0). The error state and
/// accepting status are respected (two states are only equivalent if both or neither are the error
/// state, and both or neither accept).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::strong_bisimulation_classes;
/// // s0 -a-> s1, s0 -a-> s2, s1 and s2 both deadlock: they are bisimilar.
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s0, "a", s2)?;
/// assert_eq!(strong_bisimulation_classes(&b.build()?), [0, 1, 1]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn strong_bisimulation_classes(lts: &Lts) -> Vec<u32> {
    let n = lts.num_states();
    let mut block: Vec<u32> = lts
        .states()
        .map(|s| u32::from(lts.is_error(s)) * 2 + u32::from(lts.is_accepting(s)))
        .collect();
    let mut count = renumber_by_first_occurrence(&mut block);
    let mut offsets = vec![0usize; n + 1];
    let mut arena: Vec<Move> = Vec::with_capacity(lts.num_transitions());
    loop {
        arena.clear();
        for s in lts.states() {
            let start = arena.len();
            arena.extend(
                lts.outgoing(s)
                    .iter()
                    .map(|e| (e.action, block[e.target.index()])),
            );
            sort_dedup_from(&mut arena, start);
            offsets[s.index() + 1] = arena.len();
        }
        let mut ids: FxHashMap<(u32, &[Move]), u32> = FxHashMap::default();
        let next: Vec<u32> = (0..n)
            .map(|i| {
                let key = (block[i], &arena[offsets[i]..offsets[i + 1]]);
                let fresh = ids.len() as u32;
                *ids.entry(key).or_insert(fresh)
            })
            .collect();
        let new_count = ids.len();
        drop(ids);
        block = next;
        if new_count == count {
            renumber_by_first_occurrence(&mut block);
            return block;
        }
        count = new_count;
    }
}

/// One entry of a signature: an action and the block of its target.
type Move = (ActionId, u32);

/// Renumbers labels densely in order of first occurrence; returns how many there are.
fn renumber_by_first_occurrence(labels: &mut [u32]) -> usize {
    let mut map: FxHashMap<u32, u32> = FxHashMap::default();
    for l in labels.iter_mut() {
        let fresh = map.len() as u32;
        *l = *map.entry(*l).or_insert(fresh);
    }
    map.len()
}

/// The quotient of `lts` by the partition `classes` (`classes[s]` is the block of state `s`): block
/// `i` becomes state `i`, with a transition `i -a-> j` whenever some member of `i` has an
/// `a`-transition to some member of `j`. The initial state is the block of the initial state; the
/// error state the block of the error state; a block accepts if some member accepts (if `lts` is an
/// FSM). The numbering of blocks is kept, so the result is not trimmed.
///
/// Any partition may be given; for a bisimulation (such as [`strong_bisimulation_classes`]) the
/// quotient is bisimilar to `lts`.
///
/// # Panics
/// Panics if `classes.len()` is not the number of states of `lts`.
pub fn quotient(lts: &Lts, classes: &[u32]) -> Result<Lts, LtsError> {
    assert_eq!(classes.len(), lts.num_states(), "one class per state");
    let num_blocks = classes.iter().max().map_or(0, |&m| m as usize + 1);
    // Counting sort of the states by block, so each block's row is written in one go.
    let mut start = vec![0usize; num_blocks + 1];
    for &c in classes {
        start[c as usize + 1] += 1;
    }
    for i in 0..num_blocks {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut members = vec![StateId::must(0); classes.len()];
    for s in lts.states() {
        let c = classes[s.index()] as usize;
        members[fill[c]] = s;
        fill[c] += 1;
    }
    let mut w = CsrWriter::with_capacity(num_blocks, lts.num_transitions());
    for b in 0..num_blocks {
        for &s in &members[start[b]..start[b + 1]] {
            for e in lts.outgoing(s) {
                w.push(e.action, StateId::from_u32(classes[e.target.index()]));
            }
        }
        w.end_state()?;
    }
    let block = |s: StateId| StateId::from_u32(classes[s.index()]);
    let accepting = lts
        .accepting_set()
        .map(|acc| acc.iter().map(|s| classes[s] as usize).collect());
    w.finish(
        lts.alphabet().clone(),
        block(lts.initial()),
        lts.error_state().map(block),
        accepting,
    )
}

/// The strong-bisimulation quotient of the reachable part of `lts`: the smallest LTS strongly
/// bisimilar to it, numbered breadth-first from the initial state.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::minimize_strong;
/// // Two copies of an a-loop reachable by tau: s0 -tau-> s1 -a-> s1, s0 -tau-> s2 -a-> s2
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// for s in [s1, s2] {
///     b.add_transition_named(s0, "tau", s)?;
///     b.add_transition_named(s, "a", s)?;
/// }
/// let min = minimize_strong(&b.build()?);
/// assert_eq!((min.num_states(), min.num_transitions()), (2, 2));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never: the result is no larger than the input, so no id can overflow.
pub fn minimize_strong(lts: &Lts) -> Lts {
    let reachable = trim(lts);
    let classes = strong_bisimulation_classes(&reachable);
    // Classes are numbered by first state and state 0 is initial, so block 0 is initial; the BFS
    // renumbering of `trim` gives a canonical order.
    let q = quotient(&reachable, &classes).expect("a quotient is no larger than its LTS");
    trim(&q)
}
