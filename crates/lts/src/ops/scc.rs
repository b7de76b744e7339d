//! Strongly connected components of an LTS's transition graph, over the moves a filter keeps.
//!
//! One routine for the questions that ask about cycles: which states lie on a cycle of tau moves
//! (divergence), and which components no move leaves (the terminal sets of LTSA's progress
//! check). It is Tarjan's algorithm without recursion (an explicit stack of frames, so a path of
//! millions of states cannot overflow the thread's stack), linear in states and kept moves.

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
        self.of[state.index()] as usize
    }

    /// How many components there are.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether `state` lies on a cycle of kept moves (a self-loop included).
    pub fn on_cycle(&self, state: StateId) -> bool {
        self.cyclic[self.of(state)]
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
    Tarjan::new(lts, &keep).run()
}

/// The walk's state: depth-first indices, low-links and the component stack.
struct Tarjan<'a, K> {
    lts: &'a Lts,
    keep: &'a K,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    next: u32,
    components: Components,
}

const UNSEEN: u32 = u32::MAX;

impl<'a, K: Fn(&Edge) -> bool> Tarjan<'a, K> {
    fn new(lts: &'a Lts, keep: &'a K) -> Self {
        let n = lts.num_states();
        Tarjan {
            lts,
            keep,
            index: vec![UNSEEN; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            next: 0,
            components: Components {
                of: vec![0; n],
                count: 0,
                cyclic: Vec::new(),
            },
        }
    }

    fn run(mut self) -> Components {
        for root in self.lts.states() {
            if self.index[root.index()] == UNSEEN {
                self.walk_from(root);
            }
        }
        self.components
    }

    /// One depth-first walk; a frame is a state and the position of its next move to follow.
    fn walk_from(&mut self, root: StateId) {
        let mut frames: Vec<(StateId, usize)> = vec![(root, 0)];
        self.visit(root);
        while let Some(&mut (s, ref mut at)) = frames.last_mut() {
            let moves = self.lts.outgoing(s);
            if let Some(t) = moves.get(*at) {
                *at += 1;
                if !(self.keep)(t) {
                    continue;
                }
                let target = t.target;
                if self.index[target.index()] == UNSEEN {
                    self.visit(target);
                    frames.push((target, 0));
                } else if self.on_stack[target.index()] {
                    self.lower(s, self.index[target.index()]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                self.lower(parent, self.low[s.index()]);
            }
            if self.low[s.index()] == self.index[s.index()] {
                self.complete(s);
            }
        }
    }

    fn visit(&mut self, s: StateId) {
        self.index[s.index()] = self.next;
        self.low[s.index()] = self.next;
        self.next += 1;
        self.stack.push(s.index() as u32);
        self.on_stack[s.index()] = true;
    }

    fn lower(&mut self, s: StateId, to: u32) {
        let low = &mut self.low[s.index()];
        *low = (*low).min(to);
    }

    /// Pops the component rooted at `root` off the stack and numbers it.
    fn complete(&mut self, root: StateId) {
        let c = self.components.count as u32;
        let mut size = 0usize;
        while let Some(m) = self.stack.pop() {
            self.on_stack[m as usize] = false;
            self.components.of[m as usize] = c;
            size += 1;
            if m as usize == root.index() {
                break;
            }
        }
        let self_loop = || {
            self.lts
                .outgoing(root)
                .iter()
                .any(|t| (self.keep)(t) && t.target == root)
        };
        let cyclic = size > 1 || self_loop();
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
            let terminal = sccs.terminal(&lts, only_tau);
            for i in 0..n {
                let leaves = kept.iter().any(|&(a, b)| sccs.of(s(a)) == sccs.of(s(i)) && sccs.of(s(b)) != sccs.of(s(i)));
                prop_assert_eq!(terminal[sccs.of(s(i))], !leaves);
            }
        }
    }
}
