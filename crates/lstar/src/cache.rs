//! The membership cache: a trie of every answer the teacher gave, with prefix-closure inference.
//!
//! The trie stores children densely (`k` slots per node) because the learner's alphabet is small and
//! dense, which makes a lookup one array access per symbol. In prefix-closed mode an accepted word
//! marks its whole path accepted and a rejected node answers for its whole subtree, which is how
//! "prefixes of accepted words are accepted, extensions of rejected words are rejected" costs
//! nothing at lookup time.

use crate::dfa::{Dfa, Symbol, Word};
use crate::error::LstarError;

const UNKNOWN: u8 = 0;
const ACCEPTED: u8 = 1;
const REJECTED: u8 = 2;
/// Child slot meaning "no child": the root is node 0 and is never anyone's child.
const NONE: u32 = 0;

/// What the cache knows about a word, and whether it was inferred rather than asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    pub(crate) accepted: bool,
    pub(crate) inferred: bool,
}

/// A trie of membership answers.
#[derive(Clone, Debug)]
pub(crate) struct Cache {
    k: usize,
    prefix_closed: bool,
    children: Vec<u32>,
    answer: Vec<u8>,
    /// Whether the answer at a node was given by the teacher for exactly that word.
    asked: Vec<bool>,
}

impl Cache {
    pub(crate) fn new(k: usize, prefix_closed: bool) -> Self {
        Self {
            k,
            prefix_closed,
            children: vec![NONE; k],
            answer: vec![UNKNOWN],
            asked: vec![false],
        }
    }

    fn child(&self, node: usize, a: Symbol) -> Option<usize> {
        match self.children[node * self.k + a.index()] {
            NONE => None,
            c => Some(c as usize),
        }
    }

    fn child_or_insert(&mut self, node: usize, a: Symbol) -> usize {
        if let Some(c) = self.child(node, a) {
            return c;
        }
        let c = self.answer.len();
        self.children[node * self.k + a.index()] = c as u32;
        self.children.extend(std::iter::repeat_n(NONE, self.k));
        self.answer.push(UNKNOWN);
        self.asked.push(false);
        c
    }

    /// The known answer for `w`, if any.
    pub(crate) fn lookup(&self, w: &[Symbol]) -> Option<Known> {
        self.lookup_iter(w.iter().copied())
    }

    /// The known answer for the word spelled by `w`, if any.
    pub(crate) fn lookup_iter(&self, w: impl IntoIterator<Item = Symbol>) -> Option<Known> {
        let mut node = 0;
        for a in w {
            if self.prefix_closed && self.answer[node] == REJECTED {
                return Some(Known {
                    accepted: false,
                    inferred: true,
                });
            }
            node = self.child(node, a)?;
        }
        match self.answer[node] {
            ACCEPTED => Some(Known {
                accepted: true,
                inferred: !self.asked[node],
            }),
            REJECTED => Some(Known {
                accepted: false,
                inferred: !self.asked[node],
            }),
            _ => None,
        }
    }

    /// Records the teacher's answer for `w`.
    pub(crate) fn insert(&mut self, w: &[Symbol], accepted: bool) -> Result<(), LstarError> {
        let inconsistent = || LstarError::InconsistentAnswers {
            word: w.iter().map(|a| a.index()).collect(),
        };
        let mut node = 0;
        for &a in w {
            if self.prefix_closed && accepted {
                if self.answer[node] == REJECTED {
                    return Err(inconsistent());
                }
                self.answer[node] = ACCEPTED;
            }
            node = self.child_or_insert(node, a);
        }
        let value = if accepted { ACCEPTED } else { REJECTED };
        if self.answer[node] != UNKNOWN && self.answer[node] != value {
            return Err(inconsistent());
        }
        self.answer[node] = value;
        self.asked[node] = true;
        Ok(())
    }

    /// A shortest word (in breadth-first, symbol order) whose known answer `dfa` contradicts.
    pub(crate) fn first_disagreement(&self, dfa: &Dfa) -> Option<Word> {
        let mut queue = std::collections::VecDeque::from([(0usize, 0usize, Vec::new())]);
        while let Some((node, q, w)) = queue.pop_front() {
            let answer = self.answer[node];
            if answer != UNKNOWN && (answer == ACCEPTED) != dfa.is_accepting(q) {
                return Some(w);
            }
            // A rejected node speaks for its subtree; a prefix-closed hypothesis that rejects here
            // rejects everything below, so the subtree has nothing more to say.
            if self.prefix_closed && answer == REJECTED {
                continue;
            }
            for a in Symbol::all(self.k) {
                if let Some(c) = self.child(node, a) {
                    let mut next = w.clone();
                    next.push(a);
                    queue.push_back((c, dfa.successor(q, a), next));
                }
            }
        }
        None
    }
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
