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
    let mut number = vec![UNSEEN; n]; // node -> its number in the walk
    let mut node: Vec<u32> = Vec::with_capacity(n); // number -> node
    let mut self_loop = vec![false; n];
    let mut of = vec![0u32; n];
    let mut cyclic = Vec::new();
    let mut walk = SccWalk::new();
    let mut todo: Vec<u32> = Vec::new();
    for root in 0..n {
        let mut next = (number[root] == UNSEEN).then_some(root);
        loop {
            if let Some(v) = next.take() {
                let base = todo.len();
                todo.extend(succ(v).into_iter().map(|w| {
                    assert!(w < n, "successor {w} outside the graph");
                    w as u32
                }));
                // Popping takes the last: reversed, they are followed in `succ`'s order.
                todo[base..].reverse();
                number[v] = walk.enter(base);
                node.push(v as u32);
            }
            let Some((v, base)) = walk.top() else { break };
            if todo.len() > base {
                let w = todo.pop().expect("non-empty") as usize;
                self_loop[w] |= w == node[v as usize] as usize;
                if number[w] == UNSEEN {
                    next = Some(w);
                } else {
                    walk.reach(number[w]);
                }
                continue;
            }
            if let Some(done) = walk.leave() {
                let c = cyclic.len() as u32;
                for &m in &done.members {
                    of[node[m as usize] as usize] = c;
                }
                cyclic.push(done.members.len() > 1 || self_loop[node[v as usize] as usize]);
            }
        }
    }
    Components {
        count: cyclic.len(),
        of,
        cyclic,
    }
}

/// The bookkeeping of Tarjan's algorithm for a walk that discovers its graph as it goes (a
/// product explored on the fly, within budgets): the caller numbers nodes in the order the walk
/// first reaches them (0, 1, 2, ...), keeps each node's successors still to follow on a stack of
/// its own, and tells the walk what it does; the walk keeps the low-links, the component stack
/// and the path, and says when a component completes and whether a move leaves it. Memory: a
/// 32-bit low-link, a bit and a stack entry per node, and 16 bytes per node on the path.
///
/// [`components_of`] drives it over a successor function; `guarantor-compose`'s progress check
/// drives it over the product it explores.
///
/// ```
/// use guarantor_lts::ops::SccWalk;
/// // 0 -> 1 -> 0, 1 -> 2: {2} completes first (terminal), then {0, 1} (a move leaves it).
/// let succ = [vec![1], vec![0, 2], vec![]];
/// let (mut walk, mut todo, mut done) = (SccWalk::new(), Vec::new(), Vec::new());
/// todo.extend(succ[0].iter().rev());
/// walk.enter(0);
/// let mut number = vec![None; 3]; // our node -> its number in the walk (here the same)
/// number[0] = Some(0);
/// while let Some((v, base)) = walk.top() {
///     if todo.len() > base {
///         let w: usize = todo.pop().unwrap();
///         match number[w] {
///             Some(n) => walk.reach(n),
///             None => {
///                 number[w] = Some(walk.len() as u32);
///                 let base = todo.len();
///                 todo.extend(succ[w].iter().rev());
///                 walk.enter(base);
///             }
///         }
///         continue;
///     }
///     if let Some(c) = walk.leave() {
///         done.push((c.members, c.terminal));
///     }
/// }
/// assert_eq!(done, [(vec![2], true), (vec![0, 1], false)]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct SccWalk {
    /// Per node: its low-link while it is on the component stack, [`DONE`] after.
    low: Vec<u32>,
    /// One bit per node: it has a move into an already completed component.
    escapes: Vec<u64>,
    /// The component stack.
    stack: Vec<u32>,
    /// The path: a node and where its pending successors begin on the caller's stack.
    path: Vec<(u32, usize)>,
}

/// A component an [`SccWalk`] completed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completed {
    /// Its nodes, in the order they were numbered (the first is its root).
    pub members: Vec<u32>,
    /// Whether no move leaves it.
    pub terminal: bool,
}

/// The low-link of a node whose component is complete.
const DONE: u32 = u32::MAX;

/// The number of a node [`components_of`] has not reached (no node gets it: see `enter`).
const UNSEEN: u32 = u32::MAX;

impl SccWalk {
    /// A walk that has numbered no node.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many nodes it has numbered: the number the next [`SccWalk::enter`] gives.
    pub fn len(&self) -> usize {
        self.low.len()
    }

    /// Whether it has numbered no node.
    pub fn is_empty(&self) -> bool {
        self.low.is_empty()
    }

    /// Numbers the next node and steps onto it; its successors to follow begin at `base` on the
    /// caller's stack. Returns its number.
    ///
    /// # Panics
    /// After `u32::MAX - 1` nodes.
    pub fn enter(&mut self, base: usize) -> u32 {
        let v = u32::try_from(self.low.len())
            .ok()
            .filter(|&v| v != DONE)
            .expect("fewer than 2^32 - 1 nodes");
        self.low.push(v);
        if self.escapes.len() * 64 <= v as usize {
            self.escapes.push(0);
        }
        self.stack.push(v);
        self.path.push((v, base));
        v
    }

    /// The node the walk is on and where its pending successors begin, if it is on one.
    pub fn top(&self) -> Option<(u32, usize)> {
        self.path.last().copied()
    }

    /// The node the walk is on has a move to the already numbered node `w`.
    ///
    /// # Panics
    /// If the walk is on no node or `w` is not numbered.
    pub fn reach(&mut self, w: u32) {
        let (v, _) = self.top().expect("on a node");
        if self.low[w as usize] == DONE {
            self.set_escape(v);
        } else {
            self.low[v as usize] = self.low[v as usize].min(w);
        }
    }

    /// Steps back from the node the walk is on (all its successors followed); returns the
    /// component it completes, if it is one's root.
    ///
    /// # Panics
    /// If the walk is on no node.
    pub fn leave(&mut self) -> Option<Completed> {
        let (v, _) = self.path.pop().expect("on a node");
        let completed = (self.low[v as usize] == v).then(|| {
            let at = self
                .stack
                .iter()
                .rposition(|&m| m == v)
                .expect("on the stack");
            let members: Vec<u32> = self.stack.drain(at..).collect();
            let terminal = members.iter().all(|&m| !self.escapes(m));
            for &m in &members {
                self.low[m as usize] = DONE;
            }
            Completed { members, terminal }
        });
        if let Some(&(parent, _)) = self.path.last() {
            if self.low[v as usize] == DONE {
                self.set_escape(parent);
            } else {
                self.low[parent as usize] = self.low[parent as usize].min(self.low[v as usize]);
            }
        }
        completed
    }

    /// The bytes its arrays hold (by capacity), for a memory budget.
    pub fn heap_bytes(&self) -> usize {
        self.low.capacity() * 4
            + self.escapes.capacity() * 8
            + self.stack.capacity() * 4
            + self.path.capacity() * std::mem::size_of::<(u32, usize)>()
    }

    fn set_escape(&mut self, v: u32) {
        self.escapes[v as usize / 64] |= 1 << (v % 64);
    }

    fn escapes(&self, v: u32) -> bool {
        self.escapes[v as usize / 64] & (1 << (v % 64)) != 0
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
