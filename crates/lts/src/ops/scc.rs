//! Strongly connected components of an LTS's transition graph, over the moves a filter keeps
//! ([`strongly_connected`]), or of any graph given by a successor function ([`components_of`]).
//!
//! One routine for the questions that ask about cycles: which states lie on a cycle of tau moves
//! (divergence), which components no move leaves (the terminal sets of LTSA's progress check),
//! which components of a Büchi product accept (guarantor-ltl). It is Tarjan's algorithm without
//! recursion (an explicit stack of frames, so a path of millions of states cannot overflow the
//! thread's stack), linear in nodes and kept moves.

use crate::{Edge, Lts, StateId};

/// The strongly connected components of an LTS under a filter on its moves
/// ([`strongly_connected`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// `of[s]`: the component of state `s`, numbered in the order Tarjan's algorithm completes
    /// them (a component's successors complete before it: reverse topological order).
    of: Vec<u32>,
    /// How many components there are.
    count: usize,
    /// `cyclic[c]`: component `c` has a kept move inside it (more than one state, or a
    /// self-loop).
    cyclic: Vec<bool>,
}

impl Components {
    /// The component of `state`, a number below [`Components::count`].
    pub fn of(&self, state: StateId) -> usize {
        self.of_node(state.index())
    }

    /// The component of node `node` of a graph given by [`components_of`] (a state's index for
    /// [`strongly_connected`]).
    pub fn of_node(&self, node: usize) -> usize {
        self.of[node] as usize
    }

    /// Whether component `c` has a kept move inside it (more than one node, or a self-loop).
    pub fn is_cyclic(&self, c: usize) -> bool {
        self.cyclic[c]
    }

    /// How many components there are.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether `state` lies on a cycle of kept moves (a self-loop included).
    pub fn on_cycle(&self, state: StateId) -> bool {
        self.is_cyclic(self.of(state))
    }

    /// `terminal[c]`: no kept move leaves component `c` (every component reachable from it is
    /// itself).
    pub fn terminal(&self, lts: &Lts, keep: impl Fn(&Edge) -> bool) -> Vec<bool> {
        let mut terminal = vec![true; self.count];
        for s in lts.states() {
            let c = self.of(s);
            if lts
                .outgoing(s)
                .iter()
                .any(|t| keep(t) && self.of(t.target) != c)
            {
                terminal[c] = false;
            }
        }
        terminal
    }
}

/// The strongly connected components of `lts` over the moves `keep` accepts (every state, whether
/// reachable or not).
///
/// ```
/// use guarantor_lts::Lts;
/// use guarantor_lts::ops::strongly_connected;
/// // 0 -a-> 1 -b-> 2 -c-> 1: {1, 2} is a cycle no move leaves; {0} is neither.
/// let lts = Lts::from_edges([(0, "a", 1), (1, "b", 2), (2, "c", 1)])?;
/// let sccs = strongly_connected(&lts, |_| true);
/// let [s0, s1, s2]: [_; 3] = std::array::from_fn(|i| lts.states().nth(i).unwrap());
/// assert_eq!(sccs.count(), 2);
/// assert_eq!(sccs.of(s1), sccs.of(s2));
/// assert!(sccs.on_cycle(s1) && !sccs.on_cycle(s0));
/// let terminal = sccs.terminal(&lts, |_| true);
/// assert!(terminal[sccs.of(s1)] && !terminal[sccs.of(s0)]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn strongly_connected(lts: &Lts, keep: impl Fn(&Edge) -> bool) -> Components {
    components_of(lts.num_states(), |s| {
        lts.outgoing(StateId::must(s))
            .iter()
            .filter(|t| keep(t))
            .map(|t| t.target.index())
    })
}

/// The strongly connected components of the graph on the nodes `0..n` whose successors `succ`
/// gives, for any graph that is not an LTS (an automaton, a product numbered elsewhere). Each
/// node's successors are followed in the order `succ` yields them, and components are numbered
/// as they complete (reverse topological order), as in [`strongly_connected`].
///
/// ```
/// use guarantor_lts::ops::components_of;
/// // 0 -> 1 -> 2 -> 1, 3 -> 3.
/// let succ = [vec![1], vec![2], vec![1], vec![3]];
/// let sccs = components_of(4, |v| succ[v].iter().copied());
/// assert_eq!(sccs.count(), 3);
/// assert_eq!(sccs.of_node(1), sccs.of_node(2));
/// assert!(sccs.of_node(1) < sccs.of_node(0)); // successors complete first
/// assert!(sccs.is_cyclic(sccs.of_node(3)) && !sccs.is_cyclic(sccs.of_node(0)));
/// ```
///
/// # Panics
/// If `succ` yields a node outside `0..n`, or `n` does not fit in 32 bits.
pub fn components_of<I: IntoIterator<Item = usize>>(
    n: usize,
    mut succ: impl FnMut(usize) -> I,
) -> Components {
    assert!(u32::try_from(n).is_ok(), "at most 2^32 nodes");
    let mut walk = Tarjan::new(n);
    for root in 0..n {
        if walk.index[root] == UNSEEN {
            walk.walk_from(root, &mut succ);
        }
    }
    walk.components
}

/// The walk's state: depth-first indices, low-links, the component stack, and the successors
/// still to follow of every node on the path (one vector; a frame knows where its own begin).
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    todo: Vec<u32>,
    next: u32,
    components: Components,
}

const UNSEEN: u32 = u32::MAX;

impl Tarjan {
    fn new(n: usize) -> Self {
        Tarjan {
            index: vec![UNSEEN; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            todo: Vec::new(),
            next: 0,
            components: Components {
                of: vec![0; n],
                count: 0,
                cyclic: Vec::new(),
            },
        }
    }

    /// One depth-first walk; a frame is a node and where its pending successors begin in `todo`.
    fn walk_from<I: IntoIterator<Item = usize>>(
        &mut self,
        root: usize,
        succ: &mut impl FnMut(usize) -> I,
    ) {
        let mut frames: Vec<(usize, usize)> = vec![(root, self.visit(root, succ))];
        while let Some(&(v, base)) = frames.last() {
            if self.todo.len() > base {
                let w = self.todo.pop().expect("non-empty") as usize;
                if self.index[w] == UNSEEN {
                    let base = self.visit(w, succ);
                    frames.push((w, base));
                } else if self.on_stack[w] {
                    self.low[v] = self.low[v].min(self.index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                self.low[parent] = self.low[parent].min(self.low[v]);
            }
            if self.low[v] == self.index[v] {
                self.complete(v, succ);
            }
        }
    }

    /// Numbers `v`, pushes it on the component stack and its successors on `todo` (reversed, so
    /// that popping follows them in `succ`'s order); returns where they begin.
    fn visit<I: IntoIterator<Item = usize>>(
        &mut self,
        v: usize,
        succ: &mut impl FnMut(usize) -> I,
    ) -> usize {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v as u32);
        self.on_stack[v] = true;
        let base = self.todo.len();
        self.todo.extend(succ(v).into_iter().map(|w| {
            assert!(w < self.index.len(), "successor {w} outside the graph");
            w as u32
        }));
        self.todo[base..].reverse();
        base
    }

    /// Pops the component rooted at `root` off the stack and numbers it.
    fn complete<I: IntoIterator<Item = usize>>(
        &mut self,
        root: usize,
        succ: &mut impl FnMut(usize) -> I,
    ) {
        let c = self.components.count as u32;
        let mut size = 0usize;
        while let Some(m) = self.stack.pop() {
            self.on_stack[m as usize] = false;
            self.components.of[m as usize] = c;
            size += 1;
            if m as usize == root {
                break;
            }
        }
        // A single node is cyclic only with a move to itself: asked once more, as it is rare.
        let cyclic = size > 1 || succ(root).into_iter().any(|w| w == root);
        self.components.cyclic.push(cyclic);
        self.components.count += 1;
    }
}

#[cfg(test)]
// The reference is a reachability matrix, read by state number on both axes.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Mutual reachability by a naive closure: the definition, for comparison.
    fn reach(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut r = vec![vec![false; n]; n];
        for (i, row) in r.iter_mut().enumerate() {
            row[i] = true;
        }
        for &(a, b) in edges {
            r[a][b] = true;
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if r[i][k] && r[k][j] {
                        r[i][j] = true;
                    }
                }
            }
        }
        r
    }

    proptest! {
        #[test]
        fn components_are_mutual_reachability(
            n in 1usize..9,
            raw in proptest::collection::vec((0usize..9, 0usize..9, any::<bool>()), 0..20),
        ) {
            let edges: Vec<(usize, &str, usize)> = raw
                .iter()
                .map(|&(a, b, tau)| (a % n, if tau { "tau" } else { "a" }, b % n))
                .collect();
            let mut builder = crate::LtsBuilder::new();
            builder.ensure_states(n).unwrap();
            for &(a, name, b) in &edges {
                builder.add_transition_named(StateId::must(a), name, StateId::must(b)).unwrap();
            }
            let lts = builder.build().unwrap();
            let only_tau = |t: &Edge| t.action.is_tau();
            let sccs = strongly_connected(&lts, only_tau);
            let kept: Vec<(usize, usize)> =
                edges.iter().filter(|e| e.1 == "tau").map(|&(a, _, b)| (a, b)).collect();
            let r = reach(n, &kept);
            let s = |i: usize| StateId::must(i);
            for i in 0..n {
                for j in 0..n {
                    prop_assert_eq!(sccs.of(s(i)) == sccs.of(s(j)), r[i][j] && r[j][i]);
                }
                let cycle = kept.iter().any(|&(a, b)| a == i && r[b][i]);
                prop_assert_eq!(sccs.on_cycle(s(i)), cycle);
            }
            // Numbered as they complete: a move never leads to a later component.
            for &(a, b) in &kept {
                prop_assert!(sccs.of(s(b)) <= sccs.of(s(a)));
            }
            let terminal = sccs.terminal(&lts, only_tau);
            for i in 0..n {
                let leaves = kept.iter().any(|&(a, b)| sccs.of(s(a)) == sccs.of(s(i)) && sccs.of(s(b)) != sccs.of(s(i)));
                prop_assert_eq!(terminal[sccs.of(s(i))], !leaves);
            }
        }
    }
}
