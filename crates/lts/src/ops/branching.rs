//! Branching bisimulation (van Glabbeek and Weijland): [`branching_bisimulation_classes`] and
//! [`minimize_branching`], the minimisation that compositional state-space generation applies
//! to every intermediate part.
//!
//! Two states are branching bisimilar when each matches the other's moves as weak bisimulation
//! asks, with one more condition: the tau steps taken before the matching move stay inside the
//! class (they are *inert*). Branching bisimulation is finer than weak bisimulation, so a
//! quotient by it is weakly bisimilar to its input and keeps everything weak bisimulation keeps
//! (weak traces, the error state's reachability, and whatever marker self-loops a caller adds);
//! it is also a congruence for parallel composition and hiding.
//!
//! What it buys is the algorithm. Weak bisimulation is computed by saturating the LTS with
//! every `tau* a tau*` step ([`crate::ops::weak`]), which is quadratic in the tau closures: a
//! part whose actions are mostly hidden has closures of thousands of states each. Branching
//! bisimulation needs no saturation. Following Blom and Orzan's signature refinement
//! (*Distributed branching bisimulation reduction of state spaces*, PDMC 2003):
//!
//! 1. States on one tau cycle are branching bisimilar, so the tau-strongly-connected components
//!    (among states of one error and accepting status) are contracted first. The tau moves left
//!    form an acyclic graph, and Tarjan's numbering lists each component after every component
//!    its tau moves reach.
//! 2. Given a partition, the *signature* of a component `c` is the set of pairs
//!    `(a, block of d)` over its moves `c -a-> d`, except inert tau moves (to a component of the
//!    same block), whose target's signature is added instead. Computed in Tarjan's order, each
//!    inert target's signature is ready when it is needed: one pass over the moves per round.
//! 3. The next partition splits each block by signature; it is stable (a branching
//!    bisimulation, the coarsest one under the initial partition) when no block splits.
//!
//! Each round costs the moves plus the signatures' sizes; the number of rounds is at most the
//! number of classes. The error state and accepting status start in blocks of their own, as in
//! [`crate::ops::strong_bisimulation_classes`].

use rustc_hash::FxHashMap;

use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::bisim::{quotient, renumber_by_first_occurrence, through_classes};
use crate::ops::reach::trim_mapped;
use crate::ops::scc::{Components, components_of};
use crate::ops::util::sort_dedup_from;
use crate::ops::weak::drop_tau_loops;

/// The branching-bisimulation class of every state: `classes[s]` is the class of state `s`,
/// numbered densely in order of first state (the class of state 0 is 0). The error state and
/// accepting status are respected as in [`crate::ops::strong_bisimulation_classes`].
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::branching_bisimulation_classes;
/// // s0 -tau-> s1 -a-> s2 and s3 -a-> s2: s0, s1 and s3 are branching bisimilar; s4 -tau-> s5
/// // and s4 -b-> s2 with s5 -a-> s2 is not (its tau move changes what it can do).
/// let mut b = LtsBuilder::new();
/// let s: Vec<_> = (0..6).map(|_| b.add_state()).collect::<Result<_, _>>()?;
/// b.add_transition_named(s[0], "tau", s[1])?;
/// b.add_transition_named(s[1], "a", s[2])?;
/// b.add_transition_named(s[3], "a", s[2])?;
/// b.add_transition_named(s[4], "tau", s[5])?;
/// b.add_transition_named(s[4], "b", s[2])?;
/// b.add_transition_named(s[5], "a", s[2])?;
/// assert_eq!(branching_bisimulation_classes(&b.build()?), [0, 0, 1, 0, 2, 0]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn branching_bisimulation_classes(lts: &Lts) -> Vec<u32> {
    let status = |s: StateId| (lts.is_error(s), lts.is_accepting(s));
    let cycles = components_of(lts.num_states(), |s| {
        let from = StateId::must(s);
        lts.outgoing(from)
            .iter()
            .filter(move |e| e.action.is_tau() && status(e.target) == status(from))
            .map(|e| e.target.index())
    });
    let (graph, representative) = Condensed::new(lts, &cycles);
    let mut block = Condensed::initial_blocks(&representative, status);
    let mut count = block.iter().max().map_or(0, |&b| b as usize + 1);
    let mut signatures = Signatures::default();
    loop {
        let (next, next_count) = signatures.refine(&graph, &block);
        block = next;
        if next_count == count {
            break;
        }
        count = next_count;
    }
    let mut classes: Vec<u32> = lts.states().map(|s| block[cycles.of(s)]).collect();
    renumber_by_first_occurrence(&mut classes);
    classes
}

/// The branching-bisimulation quotient of the reachable part of `lts`, without tau self-loops,
/// numbered breadth-first from the initial state. It is weakly bisimilar to `lts` (so weak
/// traces, the error state's reachability by weak traces and accepting status are kept), at
/// most as large as the strong quotient and at least as large as the weak one.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::minimize_branching;
/// // (a -> tau -> b -> STOP) becomes (a -> b -> STOP).
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2, s3] = [b.add_state()?, b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s1, "tau", s2)?;
/// b.add_transition_named(s2, "b", s3)?;
/// let min = minimize_branching(&b.build()?);
/// assert_eq!((min.num_states(), min.num_transitions()), (3, 2));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never for LTSs that fit in memory: the result is no larger than the input.
pub fn minimize_branching(lts: &Lts) -> Lts {
    minimize_branching_mapped(lts).0
}

/// [`minimize_branching`], with the state of the result each state of `lts` became (`None` for
/// the unreachable ones).
///
/// # Panics
/// Never, as [`minimize_branching`].
pub fn minimize_branching_mapped(lts: &Lts) -> (Lts, Vec<Option<StateId>>) {
    let (reachable, first) = trim_mapped(lts);
    let classes = branching_bisimulation_classes(&reachable);
    let q = quotient(&reachable, &classes).expect("a quotient is no larger than its LTS");
    let (min, last) =
        trim_mapped(&drop_tau_loops(&q).expect("dropping transitions cannot overflow"));
    (min, through_classes(&first, &classes, &last))
}

/// The LTS with each tau cycle contracted to one node (step 1 of the module docs): per node, its
/// moves `(action, node)`, sorted and without repeats or tau moves inside the node.
struct Condensed {
    /// Where each node's moves start in `moves` (one more entry than nodes).
    start: Vec<usize>,
    moves: Vec<(ActionId, u32)>,
}

impl Condensed {
    /// The condensed graph, and one member state of each node.
    fn new(lts: &Lts, cycles: &Components) -> (Self, Vec<StateId>) {
        let nodes = cycles.count();
        let mut members: Vec<Vec<StateId>> = vec![Vec::new(); nodes];
        for s in lts.states() {
            members[cycles.of(s)].push(s);
        }
        let mut start = Vec::with_capacity(nodes + 1);
        let mut moves = Vec::with_capacity(lts.num_transitions());
        for (node, states) in members.iter().enumerate() {
            start.push(moves.len());
            let row = moves.len();
            for &s in states {
                for e in lts.outgoing(s) {
                    let target = cycles.of(e.target);
                    if !(e.action.is_tau() && target == node) {
                        moves.push((e.action, target as u32));
                    }
                }
            }
            sort_dedup_from(&mut moves, row);
        }
        start.push(moves.len());
        let representative = members.iter().map(|m| m[0]).collect();
        (Self { start, moves }, representative)
    }

    fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    fn moves(&self, node: usize) -> &[(ActionId, u32)] {
        &self.moves[self.start[node]..self.start[node + 1]]
    }

    /// The initial partition: by error and accepting status (every member of a node shares
    /// it, as cycles are only contracted among states of one status), numbered densely.
    fn initial_blocks(
        representative: &[StateId],
        status: impl Fn(StateId) -> (bool, bool),
    ) -> Vec<u32> {
        let mut seen: Vec<(bool, bool)> = Vec::new();
        representative
            .iter()
            .map(|&s| {
                let key = status(s);
                let id = seen.iter().position(|k| *k == key).unwrap_or_else(|| {
                    seen.push(key);
                    seen.len() - 1
                });
                id as u32
            })
            .collect()
    }
}

/// The signatures of one round, kept in one arena: a node's entry is its block in the current
/// partition followed by its signature's pairs, each packed into a `u64`.
#[derive(Default)]
struct Signatures {
    arena: Vec<u64>,
    range: Vec<(usize, usize)>,
}

impl Signatures {
    /// One round of step 2 and 3 of the module docs: the next partition and its number of
    /// blocks.
    fn refine(&mut self, graph: &Condensed, block: &[u32]) -> (Vec<u32>, usize) {
        self.arena.clear();
        self.range.clear();
        let mut ids: FxHashMap<Vec<u64>, u32> = FxHashMap::default();
        let mut next = Vec::with_capacity(graph.nodes());
        for node in 0..graph.nodes() {
            let start = self.arena.len();
            let own = block[node];
            self.arena.push(u64::from(own));
            for &(action, target) in graph.moves(node) {
                let theirs = block[target as usize];
                if action.is_tau() && theirs == own {
                    // Inert: the target was signed earlier this round (Tarjan's order).
                    let (from, to) = self.range[target as usize];
                    self.arena.extend_from_within(from + 1..to);
                } else {
                    self.arena
                        .push(u64::from(action.as_u32()) << 32 | u64::from(theirs));
                }
            }
            sort_dedup_from(&mut self.arena, start + 1);
            self.range.push((start, self.arena.len()));
            let key = &self.arena[start..];
            let id = match ids.get(key) {
                Some(&id) => id,
                None => {
                    let id = ids.len() as u32;
                    ids.insert(key.to_vec(), id);
                    id
                }
            };
            next.push(id);
        }
        (next, ids.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lts(edges: &[(usize, &str, usize)]) -> Lts {
        Lts::from_edges(edges.iter().copied()).unwrap()
    }

    #[test]
    fn a_tau_cycle_is_one_class_and_leaves_no_self_loop() {
        let l = lts(&[(0, "tau", 1), (1, "tau", 0), (1, "a", 2)]);
        assert_eq!(branching_bisimulation_classes(&l), [0, 0, 1]);
        let min = minimize_branching(&l);
        assert_eq!((min.num_states(), min.num_transitions()), (2, 1));
    }

    #[test]
    fn is_finer_than_weak_bisimulation() {
        // s0 = a + tau.b and s3 = a + tau.b + b are weakly bisimilar (s0 matches s3's b by tau,
        // then b) but not branching bisimilar: that tau leads to a state that can no longer do
        // `a`, so it is not inert.
        let l = lts(&[
            (0, "a", 2),
            (0, "tau", 1),
            (1, "b", 2),
            (3, "a", 2),
            (3, "tau", 4),
            (4, "b", 2),
            (3, "b", 2),
        ]);
        let weak = crate::ops::weak_bisimulation_classes(&l);
        assert_eq!(weak[0], weak[3]);
        let branching = branching_bisimulation_classes(&l);
        assert_ne!(branching[0], branching[3]);
    }

    #[cfg(feature = "proptest")]
    mod props {
        use std::collections::BTreeSet;

        use proptest::prelude::*;

        use super::super::*;
        use crate::ops::{language_included, minimize_strong, weak_bisimulation_classes};
        use crate::strategy::{LtsStrategyConfig, arb_lts_with};

        fn arb() -> impl Strategy<Value = Lts> {
            arb_lts_with(
                LtsStrategyConfig::new(7, &["a", "b"])
                    .with_tau(true)
                    .with_error_state(true),
            )
        }

        /// Branching bisimilarity by its definition, as a greatest fixpoint over pairs: `(s, t)`
        /// stays while every move `s -a-> s'` is matched by `t -tau->* t1 -a-> t'` with every
        /// state on the way related to `s` and `t'` related to `s'` (or, for `a = tau`, by `t`
        /// itself being related to `s'`), and the other way round.
        fn naive(lts: &Lts) -> Vec<Vec<bool>> {
            let status = |s: usize| {
                let s = StateId::must(s);
                (lts.is_error(s), lts.is_accepting(s))
            };
            let n = lts.num_states();
            let mut related: Vec<Vec<bool>> = (0..n)
                .map(|s| (0..n).map(|t| status(s) == status(t)).collect())
                .collect();
            loop {
                let mut changed = false;
                for s in 0..n {
                    for t in 0..n {
                        let kept = simulates(lts, &related, s, t) && simulates(lts, &related, t, s);
                        if related[s][t] && !kept {
                            related[s][t] = false;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    return related;
                }
            }
        }

        /// Every move of `from` matched from `by` (as [`naive`] says), with `related` as the
        /// relation.
        fn simulates(lts: &Lts, related: &[Vec<bool>], from: usize, by: usize) -> bool {
            lts.outgoing(StateId::must(from)).iter().all(|e| {
                let next = e.target.index();
                if e.action.is_tau() && related[next][by] {
                    return true;
                }
                // States reachable from `by` by tau moves through states related to `from`.
                let mut seen = BTreeSet::from([by]);
                let mut stack = vec![by];
                while let Some(here) = stack.pop() {
                    let moves = lts.outgoing(StateId::must(here));
                    if moves
                        .iter()
                        .any(|f| f.action == e.action && related[next][f.target.index()])
                    {
                        return true;
                    }
                    for f in moves {
                        let there = f.target.index();
                        if f.action.is_tau() && related[from][there] && seen.insert(there) {
                            stack.push(there);
                        }
                    }
                }
                false
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn classes_are_branching_bisimilarity(l in arb()) {
                let c = branching_bisimulation_classes(&l);
                let r = naive(&l);
                for s in 0..l.num_states() {
                    for t in 0..l.num_states() {
                        prop_assert_eq!(c[s] == c[t], r[s][t], "states {} and {}", s, t);
                    }
                }
            }

            #[test]
            fn lies_between_strong_and_weak(l in arb()) {
                let c = branching_bisimulation_classes(&l);
                let weak = weak_bisimulation_classes(&l);
                for s in 0..l.num_states() {
                    for t in 0..l.num_states() {
                        prop_assert!(c[s] != c[t] || weak[s] == weak[t]);
                    }
                }
                let min = minimize_branching(&l);
                prop_assert!(min.num_states() <= minimize_strong(&l).num_states());
                prop_assert_eq!(language_included(&l, &min).unwrap(), None);
                prop_assert_eq!(language_included(&min, &l).unwrap(), None);
                prop_assert_eq!(&minimize_branching(&min), &min);
            }
        }
    }
}
