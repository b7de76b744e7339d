//! The checker's own searches for the deadlock premises: [`deadlock`] (is some reachable state of
//! a product without a move?) and [`refinement`] (are a group's stable failures among an
//! assumption's?), with [`with_end`], the termination self-loop both read components with.
//!
//! Plain breadth-first searches over tuples of member states, sharing nothing with the learner
//! that wrote the assumption (nor with `search`'s violation search, whose product never needs to
//! know that a state has no move): a product state's moves are every member's tau alone and, per
//! visible action some member offers, every way the members that declare it move together.

use std::collections::{BTreeSet, HashMap, VecDeque};

use crate::machine::{Act, Machine, TAU};

/// `m` declaring `end`, with a self-loop on it at `at` (a component's end state), so that a state
/// where every component has terminated has a move (see `deadlock-free` in docs/formats.md).
pub(crate) fn with_end(m: &Machine, at: Option<usize>, end: Act) -> Machine {
    let mut m = m.clone();
    m.alphabet.insert(end);
    if let Some(out) = at.and_then(|s| m.edges.get_mut(s)) {
        out.push((end, at.unwrap_or_default()));
        out.sort_unstable();
        out.dedup();
    }
    m
}

/// The moves of tuple `t` of `ms`: `(action, next tuple)`, tau steps first.
fn moves(ms: &[&Machine], t: &[usize]) -> Vec<(Act, Vec<usize>)> {
    let mut out = Vec::new();
    let mut visible = BTreeSet::new();
    for (i, m) in ms.iter().enumerate() {
        for &(a, target) in m.edges.get(t[i]).map_or(&[][..], Vec::as_slice) {
            if a == TAU {
                let mut next = t.to_vec();
                next[i] = target;
                out.push((TAU, next));
            } else {
                visible.insert(a);
            }
        }
    }
    for a in visible {
        let mut partial = vec![t.to_vec()];
        for (i, m) in ms.iter().enumerate() {
            if !m.alphabet.contains(&a) {
                continue;
            }
            partial = partial
                .iter()
                .flat_map(|p| {
                    m.successors(p[i], a).map(move |s| {
                        let mut q = p.clone();
                        q[i] = s;
                        q
                    })
                })
                .collect();
        }
        out.extend(partial.into_iter().map(|p| (a, p)));
    }
    out
}

/// Breadth-first bookkeeping: each node's index, its parent and the action that reached it.
struct Tree<N> {
    index: HashMap<N, usize>,
    nodes: Vec<N>,
    parent: Vec<Option<(usize, Act)>>,
    queue: VecDeque<usize>,
}

impl<N: Clone + Eq + std::hash::Hash> Tree<N> {
    fn new(root: N) -> Self {
        Self {
            index: HashMap::from([(root.clone(), 0)]),
            nodes: vec![root],
            parent: vec![None],
            queue: VecDeque::from([0]),
        }
    }

    fn visit(&mut self, node: N, from: usize, a: Act) {
        if !self.index.contains_key(&node) {
            self.index.insert(node.clone(), self.nodes.len());
            self.queue.push_back(self.nodes.len());
            self.nodes.push(node);
            self.parent.push(Some((from, a)));
        }
    }

    /// The visible actions from the root to node `i`.
    fn trace(&self, mut i: usize) -> Vec<Act> {
        let mut out = Vec::new();
        while let Some((p, a)) = self.parent[i] {
            if a != TAU {
                out.push(a);
            }
            i = p;
        }
        out.reverse();
        out
    }
}

/// A trace to a reachable state of the product of `ms` without a move, if there is one, and the
/// states visited.
pub(crate) fn deadlock(ms: &[&Machine]) -> (Option<Vec<Act>>, usize) {
    let start: Vec<usize> = ms.iter().map(|m| m.initial).collect();
    let mut tree = Tree::new(start);
    while let Some(i) = tree.queue.pop_front() {
        let next = moves(ms, &tree.nodes[i]);
        if next.is_empty() {
            return (Some(tree.trace(i)), tree.nodes.len());
        }
        for (a, t) in next {
            tree.visit(t, i, a);
        }
    }
    (None, tree.nodes.len())
}

/// The states of `a` reachable from `set` by tau steps, with `set`, sorted.
fn tau_closed(a: &Machine, mut set: Vec<usize>) -> Vec<usize> {
    let mut i = 0;
    while i < set.len() {
        for t in a.successors(set[i], TAU) {
            if !set.contains(&t) {
                set.push(t);
            }
        }
        i += 1;
    }
    set.sort_unstable();
    set
}

/// A trace after which the product of `group` (actions outside `a`'s alphabet hidden) reaches a
/// stable state whose offer no stable state of `a` after the same trace refines (offers a
/// subset of), if there is one, and the states visited.
pub(crate) fn refinement(group: &[&Machine], a: &Machine) -> (Option<Vec<Act>>, usize) {
    let start: Vec<usize> = group.iter().map(|m| m.initial).collect();
    let mut tree = Tree::new((start, tau_closed(a, vec![a.initial])));
    while let Some(i) = tree.queue.pop_front() {
        let (tuple, set) = tree.nodes[i].clone();
        let next = moves(group, &tuple);
        let stable = next
            .iter()
            .all(|(x, _)| *x != TAU && a.alphabet.contains(x));
        if stable {
            let offer: BTreeSet<Act> = next.iter().map(|(x, _)| *x).collect();
            let refined = set.iter().any(|&s| {
                let out = a.edges.get(s).map_or(&[][..], Vec::as_slice);
                out.iter().all(|(x, _)| *x != TAU && offer.contains(x))
            });
            if !refined {
                return (Some(tree.trace(i)), tree.nodes.len());
            }
        }
        for (x, t) in next {
            let after = if x == TAU || !a.alphabet.contains(&x) {
                set.clone()
            } else {
                let stepped: BTreeSet<usize> =
                    set.iter().flat_map(|&s| a.successors(s, x)).collect();
                tau_closed(a, stepped.into_iter().collect())
            };
            tree.visit((t, after), i, x);
        }
    }
    (None, tree.nodes.len())
}
