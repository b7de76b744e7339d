//! The membership cache: a trie of every answer the teacher gave, with prefix-closure inference.
//!
//! A node with one child stores it inline; a node that gets a second child gets a dense block of
//! `k` slots (the alphabet is small and dense), so a lookup is one or two array accesses. Most
//! nodes are interior nodes of one suffix and have at most one child, so the trie stays compact and
//! cache-friendly even for large alphabets. In prefix-closed mode an accepted word
//! //! marks its whole path accepted and a rejected node answers for its whole subtree, which is how
//! "prefixes of accepted words are accepted, extensions of rejected words are rejected" costs
//! nothing at lookup time.

use crate::dfa::{Dfa, Symbol, Word};
use crate::error::LstarError;

const UNKNOWN: u8 = 0;
const ACCEPTED: u8 = 1;
const REJECTED: u8 = 2;
/// Asked, answer not in yet: lets the table list each missing word once without a hash set.
const PENDING: u8 = 3;
/// Child slot meaning "no child": the root is node 0 and is never anyone's child.
const NONE: u32 = 0;
/// [`Link::symbol`] of a node whose children live in a block of `children`.
const BRANCHING: u32 = u32::MAX;

/// How to find a node's children: no child (`child == NONE`), one child `child` reached by
/// `symbol`, or (`symbol == BRANCHING`) a block of `k` slots starting at `children[child * k]`.
#[derive(Clone, Copy, Debug)]
struct Link {
    child: u32,
    symbol: u32,
}

const LEAF: Link = Link {
    child: NONE,
    symbol: 0,
};

/// What the cache knows about a word, and whether it was inferred rather than asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    pub(crate) accepted: bool,
    pub(crate) inferred: bool,
}

/// One trie node's own data (12 bytes), kept together so that creating a node grows one vector,
/// not four, and the known-answer scan reads one small record per node.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The parent node and the symbol leading here, to spell the node's word.
    parent: u32,
    symbol: Symbol,
    answer: u8,
    /// Whether the answer was given by the teacher for exactly this word.
    asked: bool,
}

/// Nodes reserved up front: a few hundred, so small runs never reallocate.
const INITIAL_NODES: usize = 512;

/// A trie of membership answers.
#[derive(Clone, Debug)]
pub(crate) struct Cache {
    k: usize,
    prefix_closed: bool,
    /// Child blocks of branching nodes, `k` slots each.
    children: Vec<u32>,
    /// Each node's [`Link`], apart from [`Node`] so that walks read 8 bytes per node.
    links: Vec<Link>,
    nodes: Vec<Node>,
    /// Scratch space of [`Cache::first_disagreement`], kept to avoid a large allocation (and
    /// its page faults) per hypothesis.
    scratch: Vec<u32>,
}

impl Cache {
    pub(crate) fn new(k: usize, prefix_closed: bool) -> Self {
        let children = Vec::with_capacity(INITIAL_NODES / 4 * k);
        let mut links = Vec::with_capacity(INITIAL_NODES);
        links.push(LEAF);
        let mut nodes = Vec::with_capacity(INITIAL_NODES);
        nodes.push(Node {
            parent: 0,
            symbol: Symbol::new(0),
            answer: UNKNOWN,
            asked: false,
        });
        Self {
            k,
            prefix_closed,
            children,
            links,
            nodes,
            scratch: Vec::new(),
        }
    }

    /// Whether prefix-closure inference is on.
    pub(crate) fn prefix_closed(&self) -> bool {
        self.prefix_closed
    }

    /// The child of `node` on `a`, if it exists.
    #[inline]
    pub(crate) fn child(&self, node: usize, a: Symbol) -> Option<usize> {
        let link = self.links[node];
        let c = if link.symbol == BRANCHING {
            self.children[link.child as usize * self.k + a.index()]
        } else if link.symbol as usize == a.index() {
            link.child
        } else {
            NONE
        };
        (c != NONE).then_some(c as usize)
    }

    /// The child of `node` on `a`, created if needed.
    pub(crate) fn child_or_insert(&mut self, node: usize, a: Symbol) -> usize {
        if let Some(c) = self.child(node, a) {
            return c;
        }
        let c = self.nodes.len() as u32;
        let link = self.links[node];
        if link.symbol == BRANCHING {
            self.children[link.child as usize * self.k + a.index()] = c;
        } else if link.child == NONE {
            self.links[node] = Link {
                child: c,
                symbol: a.index() as u32,
            };
        } else {
            // A second child: move both into a fresh block.
            let block = self.children.len() / self.k;
            self.children.resize(self.children.len() + self.k, NONE);
            self.children[block * self.k + link.symbol as usize] = link.child;
            self.children[block * self.k + a.index()] = c;
            self.links[node] = Link {
                child: block as u32,
                symbol: BRANCHING,
            };
        }
        if self.nodes.len() == self.nodes.capacity() {
            // Grow fourfold rather than twofold: the trie is the learner's largest structure and
            // each regrowth copies all of it.
            self.nodes.reserve(3 * self.nodes.len());
            self.links.reserve(3 * self.links.len());
        }
        self.links.push(LEAF);
        let c = c as usize;
        self.nodes.push(Node {
            parent: node as u32,
            symbol: a,
            answer: UNKNOWN,
            asked: false,
        });
        c
    }

    /// The children of `node` with their symbols, in symbol order.
    pub(crate) fn children(&self, node: usize) -> impl Iterator<Item = (Symbol, usize)> + '_ {
        let link = self.links[node];
        let (block, single) = if link.symbol == BRANCHING {
            let start = link.child as usize * self.k;
            (&self.children[start..start + self.k], None)
        } else if link.child == NONE {
            (&[][..], None)
        } else {
            (
                &[][..],
                Some((Symbol::new(link.symbol as usize), link.child as usize)),
            )
        };
        block
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != NONE)
            .map(|(a, &c)| (Symbol::new(a), c as usize))
            .chain(single)
    }

    /// The parent of `node` (the root is its own parent).
    pub(crate) fn parent(&self, node: usize) -> usize {
        self.nodes[node].parent as usize
    }

    /// The known answer for the word of `start` followed by `w`, with prefix-closure inference
    /// below `start` (a rejected node *above* `start` is not seen, as in [`Cache::probe_from`]).
    pub(crate) fn lookup_from(&self, start: usize, w: &[Symbol]) -> Option<bool> {
        let mut node = start;
        for &a in w {
            if self.prefix_closed && self.nodes[node].answer == REJECTED {
                return Some(false);
            }
            node = self.child(node, a)?;
        }
        self.answer_at(node as u32).map(|k| k.accepted)
    }

    /// The word leading to `node`.
    pub(crate) fn spell(&self, mut node: usize) -> Word {
        let mut w = Vec::new();
        while node != 0 {
            let n = self.nodes[node];
            w.push(n.symbol);
            node = n.parent as usize;
        }
        w.reverse();
        w
    }

    /// The known answer for `w`, if any.
    pub(crate) fn lookup(&self, w: &[Symbol]) -> Option<Known> {
        self.lookup_iter(w.iter().copied())
    }

    /// The known answer for the word spelled by `w`, if any.
    pub(crate) fn lookup_iter(&self, w: impl IntoIterator<Item = Symbol>) -> Option<Known> {
        let mut node = 0;
        for a in w {
            if self.prefix_closed && self.nodes[node].answer == REJECTED {
                return Some(Known {
                    accepted: false,
                    inferred: true,
                });
            }
            node = self.child(node, a)?;
        }
        self.answer_at(node as u32)
    }

    /// Looks the word spelled by `w` up; if it is unknown, marks it pending (creating its node) so
    /// that it is listed once however many cells need it.
    pub(crate) fn probe(&mut self, w: impl IntoIterator<Item = Symbol>) -> Probe {
        self.probe_from(0, w)
    }

    /// Like [`Cache::probe`] for the word of node `start` followed by `w`. In prefix-closed mode a
    /// rejected node *above* `start` is not seen: callers start below the root only from a node
    /// known to be accepted.
    pub(crate) fn probe_from(&mut self, start: u32, w: impl IntoIterator<Item = Symbol>) -> Probe {
        let mut node = start as usize;
        if self.prefix_closed {
            for a in w {
                if self.nodes[node].answer == REJECTED {
                    return Probe::Known(Known {
                        accepted: false,
                        inferred: true,
                    });
                }
                node = self.child_or_insert(node, a);
            }
        } else {
            for a in w {
                node = self.child_or_insert(node, a);
            }
        }
        let n = &mut self.nodes[node];
        let inferred = !n.asked;
        match n.answer {
            ACCEPTED => Probe::Known(Known {
                accepted: true,
                inferred,
            }),
            REJECTED => Probe::Known(Known {
                accepted: false,
                inferred,
            }),
            PENDING => Probe::Pending(node as u32),
            _ => {
                n.answer = PENDING;
                Probe::Fresh(node as u32)
            }
        }
    }

    /// The answer recorded at `node` itself (no prefix-closure inference), if any.
    #[inline]
    pub(crate) fn answer_at(&self, node: u32) -> Option<Known> {
        let n = &self.nodes[node as usize];
        let inferred = !n.asked;
        match n.answer {
            ACCEPTED => Some(Known {
                accepted: true,
                inferred,
            }),
            REJECTED => Some(Known {
                accepted: false,
                inferred,
            }),
            _ => None,
        }
    }

    /// Whether the word of `node` has been handed out as a query and not answered yet.
    pub(crate) fn is_pending(&self, node: u32) -> bool {
        self.nodes[node as usize].answer == PENDING
    }

    /// The node of `w`, created if needed (for words asked outside the table).
    pub(crate) fn node(&mut self, w: &[Symbol]) -> u32 {
        w.iter().fold(0, |node, &a| self.child_or_insert(node, a)) as u32
    }

    /// Takes the pending mark off `node` if it has no answer yet, so that the next probe lists it
    /// again (a word that was held back from a batch and is not answered after all).
    pub(crate) fn forget_pending(&mut self, node: u32) {
        let n = &mut self.nodes[node as usize];
        if n.answer == PENDING {
            n.answer = UNKNOWN;
        }
    }

    /// Records the teacher's answer for the word of `node`.
    #[inline]
    pub(crate) fn insert_at(&mut self, node: u32, accepted: bool) -> Result<(), LstarError> {
        let node = node as usize;
        let value = if accepted { ACCEPTED } else { REJECTED };
        let answer = self.nodes[node].answer;
        if matches!(answer, ACCEPTED | REJECTED) && answer != value {
            return Err(self.inconsistent(node));
        }
        self.nodes[node].answer = value;
        self.nodes[node].asked = true;
        if self.prefix_closed && accepted {
            // Mark the prefixes accepted, bottom-up; an accepted ancestor means all above it are.
            let mut up = node;
            while up != 0 {
                up = self.nodes[up].parent as usize;
                match self.nodes[up].answer {
                    ACCEPTED => break,
                    REJECTED => return Err(self.inconsistent(node)),
                    _ => self.nodes[up].answer = ACCEPTED,
                }
            }
        }
        Ok(())
    }

    /// Records a step-wise answer for the word of `node`: `answers[i]` for its prefix of length
    /// `i`, so `answers` has one more entry than the word has symbols. Every prefix's node exists
    /// already (it is on the path to `node`), so this creates nothing.
    ///
    /// # Errors
    /// [`LstarError::AnswerCount`] if `answers` has the wrong length;
    /// [`LstarError::InconsistentAnswers`] if an answer contradicts a known one.
    pub(crate) fn insert_prefixes(
        &mut self,
        node: u32,
        answers: &[bool],
    ) -> Result<(), LstarError> {
        let depth = self.depth(node as usize);
        if answers.len() != depth + 1 {
            return Err(LstarError::AnswerCount {
                expected: depth + 1,
                found: answers.len(),
            });
        }
        // Bottom-up: the parent links are all there is to walk.
        let mut n = node as usize;
        for (i, &a) in answers.iter().enumerate().rev() {
            self.insert_at(n as u32, a)?;
            if i > 0 {
                n = self.nodes[n].parent as usize;
            }
        }
        Ok(())
    }

    fn inconsistent(&self, node: usize) -> LstarError {
        LstarError::InconsistentAnswers {
            word: self.spell(node).iter().map(|a| a.index()).collect(),
        }
    }

    /// Records the teacher's answer for `w`.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, w: &[Symbol], accepted: bool) -> Result<(), LstarError> {
        let node = self.node(w);
        self.insert_at(node, accepted)
    }

    /// A rough cost of [`Cache::first_disagreement`], about one per instruction.
    pub(crate) fn scan_cost(&self) -> usize {
        10 * self.nodes.len()
    }

    /// A shortest, then smallest in symbol order, word whose known answer `dfa` contradicts.
    pub(crate) fn first_disagreement(&mut self, dfa: &Dfa) -> Option<Word> {
        // Nodes are created after their parents, so one pass in index order runs the hypothesis
        // along every word with sequential memory access (a breadth-first walk jumps around).
        // Below a rejected node in prefix-closed mode, a disagreement implies one at that node,
        // which is shorter, so scanning those nodes too changes nothing.
        // Every entry is written (parents first) before it is read, so old contents need no
        // clearing; only growth is zero-filled.
        let mut state = std::mem::take(&mut self.scratch);
        // Sized for the trie's capacity, not its length, so growing nodes rarely means regrowing.
        state.reserve(self.nodes.capacity().saturating_sub(state.len()));
        state.resize(self.nodes.len(), 0);
        state[0] = 0;
        let mut best: Option<Word> = None;
        for (node, n) in self.nodes.iter().enumerate() {
            if node > 0 {
                state[node] = dfa.successor(state[n.parent as usize] as usize, n.symbol) as u32;
            }
            let wrong = matches!(n.answer, ACCEPTED | REJECTED)
                && (n.answer == ACCEPTED) != dfa.is_accepting(state[node] as usize);
            if wrong && best.as_ref().is_none_or(|b| self.depth(node) <= b.len()) {
                let w = self.spell(node);
                if best.as_ref().is_none_or(|b| (w.len(), &w) < (b.len(), b)) {
                    best = Some(w);
                }
            }
        }
        self.scratch = state;
        best
    }

    /// The length of the word of `node`. Not stored (a smaller node makes scans faster); only
    /// needed when a disagreement is found.
    fn depth(&self, mut node: usize) -> usize {
        let mut d = 0;
        while node != 0 {
            node = self.nodes[node].parent as usize;
            d += 1;
        }
        d
    }
}

/// The result of [`Cache::probe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Probe {
    /// The answer is known.
    Known(Known),
    /// Newly marked pending; the node to answer.
    Fresh(u32),
    /// Already pending; the node to read once answered.
    Pending(u32),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::word;

    #[test]
    fn prefix_closed_inference_both_ways() {
        let mut c = Cache::new(2, true);
        c.insert(&word(&[0, 1, 1]), true).unwrap();
        c.insert(&word(&[1]), false).unwrap();
        assert_eq!(c.lookup(&word(&[0, 1])).map(|k| k.accepted), Some(true));
        assert!(c.lookup(&word(&[0, 1])).unwrap().inferred);
        assert_eq!(c.lookup(&word(&[1, 0, 0])).map(|k| k.accepted), Some(false));
        assert_eq!(c.lookup(&word(&[0, 0])), None);
        assert!(c.insert(&word(&[1, 1]), true).is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Inline children and branching blocks answer like a map from words: every inserted word
        /// is found with its answer, and a word never inserted is unknown.
        #[test]
        fn trie_agrees_with_a_map(
            entries in proptest::collection::vec(
                (proptest::collection::vec(0usize..4, 0..6), proptest::bool::ANY), 0..40),
            probes in proptest::collection::vec(proptest::collection::vec(0usize..4, 0..6), 0..20),
        ) {
            let mut c = Cache::new(4, false);
            let mut map = std::collections::HashMap::new();
            for (w, a) in &entries {
                if map.insert(w.clone(), *a).is_none_or(|old| old == *a) {
                    c.insert(&word(w), *a).unwrap();
                } else {
                    map.insert(w.clone(), !*a);
                }
            }
            for w in entries.iter().map(|(w, _)| w).chain(&probes) {
                proptest::prop_assert_eq!(c.lookup(&word(w)).map(|k| k.accepted), map.get(w).copied());
            }
        }
    }

    #[test]
    fn plain_mode_infers_nothing() {
        let mut c = Cache::new(2, false);
        c.insert(&word(&[0, 1]), true).unwrap();
        c.insert(&word(&[1]), false).unwrap();
        assert_eq!(c.lookup(&word(&[0])), None);
        assert_eq!(c.lookup(&word(&[1, 0])), None);
        assert!(!c.lookup(&word(&[0, 1])).unwrap().inferred);
    }
}
