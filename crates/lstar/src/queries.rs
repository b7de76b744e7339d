//! [`Queries`], a batch of membership queries: filled by the observation table (`table`), the L*
//! learner (`learner`) and the L# learner (`lsharp`), handed to the caller by [`Step::Queries`];
//! and [`Step`], what a learner asks for next, the one request type of both learners.

use crate::dfa::{Dfa, Symbol};

/// What the learner needs next.
#[derive(Debug)]
#[non_exhaustive]
pub enum Step<'a> {
    /// Answer these membership queries (in order) with [`Learner::answer`](crate::Learner::answer).
    Queries(&'a Queries),
    /// Here is a hypothesis: if it is wrong, give a counterexample with
    /// [`Learner::counterexample`](crate::Learner::counterexample); if it is right, learning is
    /// over.
    Hypothesis(&'a Dfa),
}

/// A batch of membership queries, stored back to back in one buffer that the learner reuses, so
/// asking a word costs no allocation of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Queries {
    symbols: Vec<Symbol>,
    ends: Vec<usize>,
}

impl Queries {
    /// The number of words.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no words.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The number of symbols over all words.
    pub(crate) fn total_symbols(&self) -> usize {
        self.symbols.len()
    }

    /// Word number `i`.
    pub fn get(&self, i: usize) -> Option<&[Symbol]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.symbols[start..end])
    }

    /// The words, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[Symbol]> + '_ {
        (0..self.len()).map(|i| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.symbols[start..self.ends[i]]
        })
    }

    /// Room for `words` words of a few symbols each.
    pub(crate) fn with_capacity(words: usize) -> Self {
        Self {
            symbols: Vec::with_capacity(8 * words),
            ends: Vec::with_capacity(words),
        }
    }

    /// Appends a word.
    pub(crate) fn push(&mut self, word: impl IntoIterator<Item = Symbol>) {
        self.symbols.extend(word);
        self.ends.push(self.symbols.len());
    }

    /// Appends the word `head·tail`.
    #[inline]
    pub(crate) fn push_concat(&mut self, head: &[Symbol], tail: &[Symbol]) {
        // Symbol by symbol into reserved room: words are a few symbols long, too short for a
        // `memcpy` call (what `extend_from_slice` becomes) or a chained iterator to pay.
        self.symbols.reserve(head.len() + tail.len());
        for &a in head {
            self.symbols.push(a);
        }
        for &a in tail {
            self.symbols.push(a);
        }
        self.ends.push(self.symbols.len());
    }

    /// Removes every word, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.symbols.clear();
        self.ends.clear();
    }
}
