//! Kearns-Vazirani for Mealy machines: a discrimination tree instead of L*'s table (Kearns and
//! Vazirani, "An Introduction to Computational Learning Theory", 1994, chapter 8, with the
//! Mealy-machine reading LearnLib and AALpy use).
//!
//! Every leaf of the tree is a hypothesis state, named by an access word (the initial state by
//! the empty word); every inner node holds a *discriminator* `v` and has one child per output
//! sequence the system gave on `v` from the words sifted there. To *sift* a word `w` is to walk
//! from the root, asking `w · v` at each inner node and following the child of the outputs on
//! `v`; the leaf reached is the state `w` leads to. A word whose answer matches no child is a
//! new state (it differs from every state in that subtree on `v`, and from the others where the
//! paths part), so sifting alone can grow the hypothesis. The transition of state `u` on `a` is
//! the leaf `u · a` sifts to, with the output of `a` after `u`.
//!
//! A counterexample is cut by Rivest and Schapire's binary search: with `u_i` the access word of
//! the state the hypothesis reaches by `w`'s first `i` inputs, `alpha(i)` says whether the system
//! answers `w[i..]` after `u_i` as the hypothesis does. `alpha(0)` is false and `alpha(|w| - 1)`
//! true (a transition's output was asked), so some `i` has `alpha(i)` false and `alpha(i + 1)`
//! true: `u_i · w[i]` and `u_{i+1}` are then told apart by `v = w[i + 1..]`, though `u_i · w[i]`
//! sifts to `u_{i+1}`'s leaf. That leaf becomes an inner node on `v` with the two as leaves: one
//! new state per counterexample, and `log |w|` queries to find it. Transitions that sifted to the
//! split leaf go on sifting from it; no other transition changes.

use crate::dfa::{Symbol, Word};
use crate::mealy::cache::Cache;
use crate::mealy::machine::{Mealy, OutputId};
use crate::mealy::{Engine, MealyError, build};

/// A node of the discrimination tree.
#[derive(Clone, Debug)]
enum Node {
    /// A hypothesis state.
    Leaf { state: usize },
    /// A discriminator and the child of each output sequence on it.
    Inner {
        discriminator: Word,
        children: Vec<(Vec<OutputId>, usize)>,
    },
}

/// The KV learner's state between rounds.
pub(crate) struct Kv {
    k: usize,
    nodes: Vec<Node>,
    /// Each state's access word.
    access: Vec<Word>,
    /// Each state's leaf.
    leaf: Vec<usize>,
    /// `next[q][a]`: the tree node the sifting of `access[q] · a` has reached (a leaf once
    /// sifted), and the output of `a` after `access[q]`.
    next: Vec<Vec<(usize, OutputId)>>,
}

impl Kv {
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            nodes: vec![Node::Leaf { state: 0 }],
            access: Vec::new(),
            leaf: Vec::new(),
            next: Vec::new(),
        }
    }

    /// Adds the state of access word `u` at leaf `node` (already made), asking its transitions'
    /// outputs; its transitions start sifting at the root.
    fn add_state(
        &mut self,
        cache: &mut Cache<'_>,
        u: Word,
        node: usize,
    ) -> Result<usize, MealyError> {
        let q = self.access.len();
        let mut row = Vec::with_capacity(self.k);
        let mut w = u.clone();
        for a in Symbol::all(self.k) {
            w.push(a);
            let out = cache.outputs(&w)?;
            row.push((0, *out.last().expect("one input")));
            w.pop();
        }
        self.access.push(u);
        self.leaf.push(node);
        self.next.push(row);
        Ok(q)
    }

    /// The outputs of the system on `v` after `u`.
    fn answer(
        cache: &mut Cache<'_>,
        u: &[Symbol],
        v: &[Symbol],
    ) -> Result<Vec<OutputId>, MealyError> {
        let mut w = u.to_vec();
        w.extend_from_slice(v);
        let out = cache.outputs(&w)?;
        Ok(out[u.len()..].to_vec())
    }

    /// Sifts `w` from tree node `node` down to a leaf, making a new state where no child
    /// matches; the leaf.
    fn sift(
        &mut self,
        cache: &mut Cache<'_>,
        w: &[Symbol],
        mut node: usize,
    ) -> Result<usize, MealyError> {
        loop {
            let Node::Inner { discriminator, .. } = &self.nodes[node] else {
                return Ok(node);
            };
            let v = discriminator.clone();
            let label = Self::answer(cache, w, &v)?;
            let Node::Inner { children, .. } = &self.nodes[node] else {
                unreachable!("checked above")
            };
            if let Some(&(_, c)) = children.iter().find(|(l, _)| *l == label) {
                node = c;
                continue;
            }
            // A new state: its answer on `v` is no state's in this subtree.
            let leaf = self.nodes.len();
            self.nodes.push(Node::Leaf {
                state: self.access.len(),
            });
            if let Node::Inner { children, .. } = &mut self.nodes[node] {
                children.push((label, leaf));
            }
            self.add_state(cache, w.to_vec(), leaf)?;
            return Ok(leaf);
        }
    }

    /// The state of leaf `node`.
    fn state_of(&self, node: usize) -> usize {
        match self.nodes[node] {
            Node::Leaf { state } => state,
            Node::Inner { .. } => unreachable!("sifted to a leaf"),
        }
    }

    /// Whether the system answers `w[i..]` after the access word of the state the hypothesis
    /// reaches by `w[..i]` as the hypothesis does (Rivest and Schapire's `alpha`).
    fn alpha(
        &self,
        cache: &mut Cache<'_>,
        hyp: &Mealy,
        word: &[Symbol],
        at: usize,
    ) -> Result<bool, MealyError> {
        let start = hyp.run_from(hyp.initial(), &word[..at]).expect("complete");
        let sys = Self::answer(cache, &self.access[start.index()], &word[at..])?;
        let mut state = start;
        for (&input, &out) in word[at..].iter().zip(&sys) {
            let (next, expected) = hyp.transition(state, input).expect("complete");
            if expected != out {
                return Ok(false);
            }
            state = next;
        }
        Ok(true)
    }
}

impl Engine for Kv {
    fn hypothesis(&mut self, cache: &mut Cache<'_>) -> Result<Mealy, MealyError> {
        if self.access.is_empty() {
            self.add_state(cache, Vec::new(), 0)?;
        }
        // Sifting may add states, whose transitions are sifted in turn.
        let mut q = 0;
        while q < self.access.len() {
            for a in 0..self.k {
                let mut w = self.access[q].clone();
                w.push(Symbol::new(a));
                let leaf = self.sift(cache, &w, self.next[q][a].0)?;
                self.next[q][a].0 = leaf;
            }
            q += 1;
        }
        Ok(build(cache, self.access.len(), |q, a| {
            let (node, o) = self.next[q][a.index()];
            (self.state_of(node), o)
        }))
    }

    fn counterexample(
        &mut self,
        cache: &mut Cache<'_>,
        hyp: &Mealy,
        word: &[Symbol],
    ) -> Result<(), MealyError> {
        let Some(first) = cache.first_disagreement(hyp, word)? else {
            return Ok(());
        };
        let cex = &word[..=first];
        // alpha(0) is false (cex is a counterexample), alpha(|cex| - 1) true (module doc).
        let (mut lo, mut hi) = (0, cex.len() - 1);
        while hi - lo > 1 {
            let mid = usize::midpoint(lo, hi);
            if self.alpha(cache, hyp, cex, mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let (input, suffix) = (cex[lo], cex[lo + 1..].to_vec());
        let from = hyp
            .run_from(hyp.initial(), &cex[..lo])
            .expect("complete")
            .index();
        let target = self.state_of(self.next[from][input.index()].0);
        let mut access = self.access[from].clone();
        access.push(input);
        let old = Self::answer(cache, &self.access[target], &suffix)?;
        let new = Self::answer(cache, &access, &suffix)?;
        if old == new {
            // No split (only for a one-input word, which a current hypothesis never gets wrong).
            return Ok(());
        }
        // The leaf of `target` becomes an inner node on `suffix` over it and the new state.
        let split = self.leaf[target];
        let (old_leaf, new_leaf) = (self.nodes.len(), self.nodes.len() + 1);
        self.nodes.push(Node::Leaf { state: target });
        self.nodes.push(Node::Leaf {
            state: self.access.len(),
        });
        self.nodes[split] = Node::Inner {
            discriminator: suffix,
            children: vec![(old, old_leaf), (new, new_leaf)],
        };
        self.leaf[target] = old_leaf;
        self.add_state(cache, access, new_leaf)?;
        Ok(())
    }
}
