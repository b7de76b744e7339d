//! Symbols, words and complete DFAs: the learner's vocabulary and its hypotheses.
//!
//! The learner works over a dense alphabet `0..k` of [`Symbol`]s rather than over [`ActionId`]s of
//! some LTS: a learned assumption ranges over an interface alphabet that belongs to no single LTS,
//! and dense indices let the observation table and the membership cache index arrays directly.
//! Names come back only at the border, when a [`Dfa`] is exported as an [`Lts`].

use guarantor_lts::{ActionId, Lts, LtsBuilder, LtsError, StateId};

use crate::error::LstarError;

/// One letter of the learner's alphabet: an index in `0..k`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[repr(transparent)]
pub struct Symbol(u32);

impl Symbol {
    /// The symbol with index `index`.
    ///
    /// # Panics
    /// Panics if `index` does not fit in 32 bits (alphabets are far smaller in practice).
    #[track_caller]
    pub fn new(index: usize) -> Self {
        Self(u32::try_from(index).expect("symbol index fits in 32 bits"))
    }

    /// The index, for indexing slices.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The symbols `0..count`, in order.
    pub fn all(count: usize) -> impl ExactSizeIterator<Item = Symbol> + Clone {
        (0..count).map(Symbol::new)
    }
}

/// A word over the learner's alphabet.
pub type Word = Vec<Symbol>;

/// Makes a word from symbol indices (handy in tests and examples).
pub fn word(indices: &[usize]) -> Word {
    indices.iter().map(|&i| Symbol::new(i)).collect()
}

/// A complete deterministic finite automaton over the symbols `0..k`; state 0 is initial.
///
/// ```
/// use guarantor_lstar::{word, Dfa};
/// // Words over {0, 1} with an even number of 1s.
/// let dfa = Dfa::new(2, vec![vec![0, 1], vec![1, 0]], vec![true, false])?;
/// assert!(dfa.accepts(&word(&[1, 0, 1])));
/// assert!(!dfa.accepts(&word(&[1])));
/// assert_eq!(dfa.minimal_size(), 2);
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    num_symbols: usize,
    /// `delta[q * num_symbols + a]` is the successor of `q` on `a`.
    delta: Vec<u32>,
    accepting: Vec<bool>,
}

impl Dfa {
    /// A DFA from a successor table (`delta[q][a]`) and acceptance flags; state 0 is initial.
    ///
    /// # Errors
    /// [`LstarError::MalformedDfa`] if there are no states, a row has the wrong length, a successor
    /// is out of range or the flags do not match the states.
    pub fn new(
        num_symbols: usize,
        delta: Vec<Vec<usize>>,
        accepting: Vec<bool>,
    ) -> Result<Self, LstarError> {
        let n = delta.len();
        let bad = |why: &str| Err(LstarError::MalformedDfa(why.to_owned()));
        if n == 0 || accepting.len() != n || u32::try_from(n).is_err() {
            return bad("state count and acceptance flags disagree, or no states");
        }
        let mut flat = Vec::with_capacity(n * num_symbols);
        for row in delta {
            if row.len() != num_symbols || row.iter().any(|&t| t >= n) {
                return bad("a successor row has the wrong length or an unknown target");
            }
            flat.extend(row.iter().map(|&t| t as u32));
        }
        Ok(Self {
            num_symbols,
            delta: flat,
            accepting,
        })
    }

    /// Builds a DFA from its parts without checks; `delta` is flat and complete.
    pub(crate) fn from_parts(num_symbols: usize, delta: Vec<u32>, accepting: Vec<bool>) -> Self {
        debug_assert_eq!(delta.len(), accepting.len() * num_symbols);
        Self {
            num_symbols,
            delta,
            accepting,
        }
    }

    /// The flat successor table and the acceptance flags, for reuse as another DFA's buffers.
    pub(crate) fn into_parts(self) -> (Vec<u32>, Vec<bool>) {
        (self.delta, self.accepting)
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.accepting.len()
    }

    /// The number of symbols `k`.
    pub fn num_symbols(&self) -> usize {
        self.num_symbols
    }

    /// The successor of state `q` on `a`.
    ///
    /// # Panics
    /// Panics if `q` or `a` is out of range.
    pub fn successor(&self, q: usize, a: Symbol) -> usize {
        assert!(a.index() < self.num_symbols, "symbol out of range");
        self.delta[q * self.num_symbols + a.index()] as usize
    }

    /// The successors of state `q`, by symbol.
    fn row(&self, q: usize) -> &[u32] {
        &self.delta[q * self.num_symbols..(q + 1) * self.num_symbols]
    }

    /// Whether state `q` accepts.
    pub fn is_accepting(&self, q: usize) -> bool {
        self.accepting[q]
    }

    /// The state reached from the initial state by `w`.
    pub fn run(&self, w: &[Symbol]) -> usize {
        self.run_from(0, w)
    }

    /// The state reached from `q` by `w`.
    ///
    /// # Panics
    /// Panics if `q` or a symbol of `w` is out of range.
    pub fn run_from(&self, q: usize, w: &[Symbol]) -> usize {
        let k = self.num_symbols;
        let mut q = q;
        for &a in w {
            assert!(a.index() < k, "symbol out of range");
            q = self.delta[q * k + a.index()] as usize;
        }
        q
    }

    /// Whether the DFA accepts `w`.
    pub fn accepts(&self, w: &[Symbol]) -> bool {
        self.accepting[self.run(w)]
    }

    /// A shortest word on which `self` and `other` disagree, or `None` if their languages are equal.
    ///
    /// Breadth-first search over pairs of states from the pair of initial states, symbols tried in
    /// increasing order, first-in first-out: among the shortest differences, the one found first in
    /// this order. This is the rule of the AALpy comparison harness, so query counts are comparable.
    ///
    /// # Panics
    /// Panics if the two DFAs have different alphabets.
    pub fn shortest_difference(&self, other: &Dfa) -> Option<Word> {
        self.shortest_difference_from(0, other, 0)
    }

    /// Like [`Dfa::shortest_difference`], from state `p` of `self` and state `q` of `other`.
    pub(crate) fn shortest_difference_from(&self, p: usize, other: &Dfa, q: usize) -> Option<Word> {
        PairSearch::default().shortest_difference(self, p, other, q)
    }

    /// The states reachable from the initial state, in breadth-first order.
    pub fn reachable(&self) -> Vec<usize> {
        let mut seen = vec![false; self.num_states()];
        let mut order = vec![0];
        seen[0] = true;
        let mut i = 0;
        while i < order.len() {
            let q = order[i];
            i += 1;
            for a in Symbol::all(self.num_symbols) {
                let t = self.successor(q, a);
                if !seen[t] {
                    seen[t] = true;
                    order.push(t);
                }
            }
        }
        order
    }

    /// The number of states of the minimal complete DFA for the same language (Moore's partition
    /// refinement on the reachable part; quadratic, meant for tests and benchmarks).
    pub fn minimal_size(&self) -> usize {
        let states = self.reachable();
        let mut block: Vec<usize> = vec![0; self.num_states()];
        for &q in &states {
            block[q] = usize::from(self.accepting[q]);
        }
        let mut count = states
            .iter()
            .map(|&q| block[q])
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        loop {
            let mut ids = std::collections::BTreeMap::new();
            let mut next = block.clone();
            for &q in &states {
                let sig: Vec<usize> = std::iter::once(block[q])
                    .chain(Symbol::all(self.num_symbols).map(|a| block[self.successor(q, a)]))
                    .collect();
                let fresh = ids.len();
                next[q] = *ids.entry(sig).or_insert(fresh);
            }
            if ids.len() == count {
                return count;
            }
            count = ids.len();
            block = next;
        }
    }

    /// Whether the language is prefix-closed: no accepting state is reachable from a reachable
    /// rejecting state.
    pub fn is_prefix_closed(&self) -> bool {
        self.reachable().into_iter().all(|q| {
            self.accepting[q]
                || Symbol::all(self.num_symbols).all(|a| !self.accepting[self.successor(q, a)])
        })
    }

    /// Exports the DFA as an FSM-style [`Lts`] with an explicit accepting set: one state per DFA
    /// state, one transition per (state, symbol), symbol `i` named `names[i]`.
    ///
    /// # Errors
    /// [`LstarError::AlphabetMismatch`] if `names` does not have one name per symbol;
    /// [`LstarError::Lts`] if the LTS cannot be built.
    pub fn to_lts<S: AsRef<str>>(&self, names: &[S]) -> Result<Lts, LstarError> {
        let (mut b, actions) = self.builder(names)?;
        b.ensure_states(self.num_states())?;
        for q in 0..self.num_states() {
            for (a, &action) in actions.iter().enumerate() {
                let t = self.successor(q, Symbol::new(a));
                b.add_transition(StateId::must(q), action, StateId::must(t))?;
            }
            b.set_accepting(StateId::must(q), self.accepting[q])?;
        }
        Ok(b.build()?)
    }

    /// Exports a prefix-closed DFA as a safety LTS: the rejecting states (for a learned hypothesis,
    /// the one rejecting sink) and every transition into them are dropped, so a blocked action means
    /// "rejected". Only reachable states are kept, numbered in breadth-first order. Lossless for
    /// prefix-closed languages: the LTS's traces are exactly the accepted words. The one exception is
    /// the empty language, which no LTS has (every LTS has the empty trace): it becomes one state
    /// offering nothing.
    ///
    /// # Errors
    /// [`LstarError::NotPrefixClosed`] if the language is not prefix-closed;
    /// [`LstarError::AlphabetMismatch`] for a wrong number of names.
    pub fn to_safety_lts<S: AsRef<str>>(&self, names: &[S]) -> Result<Lts, LstarError> {
        if !self.is_prefix_closed() {
            return Err(LstarError::NotPrefixClosed);
        }
        let (mut b, actions) = self.builder(names)?;
        let order: Vec<usize> = self
            .reachable()
            .into_iter()
            .filter(|&q| self.accepting[q])
            .collect();
        let mut id = vec![usize::MAX; self.num_states()];
        for (i, &q) in order.iter().enumerate() {
            id[q] = i;
        }
        // The empty language still needs an initial state; it simply offers nothing.
        b.ensure_states(order.len().max(1))?;
        for &q in &order {
            for (a, &action) in actions.iter().enumerate() {
                let t = self.successor(q, Symbol::new(a));
                if self.accepting[t] {
                    b.add_transition(StateId::must(id[q]), action, StateId::must(id[t]))?;
                }
            }
        }
        Ok(b.build()?)
    }

    /// A builder declaring `names` in order, with the action id of each symbol.
    fn builder<S: AsRef<str>>(
        &self,
        names: &[S],
    ) -> Result<(LtsBuilder, Vec<ActionId>), LstarError> {
        if names.len() != self.num_symbols {
            return Err(LstarError::AlphabetMismatch {
                expected: self.num_symbols,
                found: names.len(),
            });
        }
        let mut b = LtsBuilder::new();
        let actions = names
            .iter()
            .map(|n| b.action(n.as_ref()))
            .collect::<Result<Vec<_>, LtsError>>()?;
        Ok((b, actions))
    }

    /// Reads a deterministic LTS as a complete DFA over `names` (symbol `i` is the action named
    /// `names[i]`). A state accepts if the LTS says so ([`Lts::is_accepting`]) and it is not the
    /// error state; a missing transition goes to an added rejecting sink. Actions of the LTS not in
    /// `names` are ignored; names the LTS does not declare are blocked everywhere.
    ///
    /// # Errors
    /// [`LstarError::Lts`] with [`LtsError::NotDeterministic`] if the LTS has tau transitions or a
    /// nondeterministic choice.
    pub fn from_lts<S: AsRef<str>>(lts: &Lts, names: &[S]) -> Result<Dfa, LstarError> {
        if let Some((s, a)) = lts.first_nondeterminism() {
            return Err(LstarError::Lts(LtsError::NotDeterministic {
                state: s.index(),
                action: lts.action_name(a).to_owned(),
                count: lts.outgoing_on(s, a).len(),
            }));
        }
        let k = names.len();
        let n = lts.num_states();
        // State n is the sink; the LTS's initial state is renumbered to 0 by swapping.
        let renumber = |s: usize| match s {
            s if s == lts.initial().index() => 0,
            0 => lts.initial().index(),
            s => s,
        };
        let actions: Vec<Option<ActionId>> = names
            .iter()
            .map(|name| lts.alphabet().get(name.as_ref()))
            .collect();
        let mut delta = vec![n as u32; (n + 1) * k];
        let mut accepting = vec![false; n + 1];
        for s in lts.states() {
            let q = renumber(s.index());
            accepting[q] = lts.is_accepting(s) && !lts.is_error(s);
            for (i, action) in actions.iter().enumerate() {
                if let Some(t) = action.and_then(|a| lts.successors(s, a).next()) {
                    delta[q * k + i] = renumber(t.index()) as u32;
                }
            }
        }
        Ok(Dfa::from_parts(k, delta, accepting))
    }
}

/// The breadth-first search over pairs of states behind [`Dfa::shortest_difference`], with its
/// buffers kept between searches, so a teacher answering many equivalence queries allocates
/// nothing per query once they have grown.
///
/// Discovered pairs are marked in a bit set over first-DFA states x second-DFA states, cleared at
/// the start of each search: one bit per pair keeps the set small enough (a few kilobytes for
/// hundreds of states) that clearing it costs less than the search, and a fresh learning run does
/// not page in a large table.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSearch {
    /// Bit `p * width + q` (`width` the second DFA's number of states): pair `(p, q)` was
    /// discovered by the current search.
    seen: Vec<u64>,
    /// The first-in first-out queue of discovered pairs, each with the queue index of the pair it
    /// was discovered from and the symbol leading from there; every pair enters at most once, so
    /// nothing is popped and the queue doubles as the search tree.
    queue: Vec<Discovered>,
}

/// One entry of [`PairSearch::queue`].
#[derive(Clone, Copy, Debug)]
struct Discovered {
    p: u32,
    q: u32,
    from: u32,
    symbol: Symbol,
}

impl PairSearch {
    /// A search with room for comparing DFAs of up to `target`'s size with `target`.
    pub(crate) fn for_target(target: &Dfa) -> Self {
        let n = target.num_states();
        Self {
            seen: Vec::with_capacity((n * n).div_ceil(64)),
            queue: Vec::with_capacity(n * target.num_symbols.min(4)),
        }
    }

    /// A shortest word on which `x` from state `p` and `y` from state `q` disagree, first in
    /// breadth-first, symbol order.
    ///
    /// # Panics
    /// Panics if the two DFAs have different alphabets.
    pub(crate) fn shortest_difference(
        &mut self,
        x: &Dfa,
        p: usize,
        y: &Dfa,
        q: usize,
    ) -> Option<Word> {
        assert_eq!(x.num_symbols, y.num_symbols, "alphabets differ");
        let width = y.num_states();
        self.seen.clear();
        self.seen.resize((x.num_states() * width).div_ceil(64), 0);
        self.queue.clear();
        self.mark(p * width + q);
        self.queue.push(Discovered {
            p: p as u32,
            q: q as u32,
            from: 0,
            symbol: Symbol::default(),
        });
        let mut head = 0;
        while let Some(&Discovered { p, q, .. }) = self.queue.get(head) {
            let (p, q) = (p as usize, q as usize);
            if x.accepting[p] != y.accepting[q] {
                return Some(self.spell(head));
            }
            for (a, (&s, &t)) in x.row(p).iter().zip(y.row(q)).enumerate() {
                if self.mark(s as usize * width + t as usize) {
                    self.queue.push(Discovered {
                        p: s,
                        q: t,
                        from: head as u32,
                        symbol: Symbol::new(a),
                    });
                }
            }
            head += 1;
        }
        None
    }

    /// Marks `pair` discovered; returns whether it was not yet.
    fn mark(&mut self, pair: usize) -> bool {
        let (word, bit) = (&mut self.seen[pair / 64], 1u64 << (pair % 64));
        let fresh = *word & bit == 0;
        *word |= bit;
        fresh
    }

    /// The word leading from the start pair to queue entry `i`.
    fn spell(&self, mut i: usize) -> Word {
        let mut w = Vec::new();
        while i != 0 {
            let d = self.queue[i];
            w.push(d.symbol);
            i = d.from as usize;
        }
        w.reverse();
        w
    }
}
