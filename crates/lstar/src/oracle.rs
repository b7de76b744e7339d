//! Equivalence oracles for black-box learning: ways to test a hypothesis against membership
//! queries alone, when no one can answer an equivalence query exactly.
//!
//! Every oracle implements [`EquivalenceOracle`]: given a hypothesis and a membership function, it
//! runs test words and returns the first one the hypothesis classifies wrongly, or `None` when
//! every test passes. The oracles here:
//! - [`RandomWords`]: a number of random words with lengths in a range (seeded);
//! - [`RandomWalk`]: random steps from the empty word, each extension asked, restarting with a
//!   given probability (seeded);
//! - [`WMethod`] (Chow 1978) and [`WpMethod`] (Fujiwara et al. 1991): conformance tests that are
//!   exact when the target has at most `extra_states` states more than the (minimal) hypothesis.
//!
//! They live in one module, below the teachers, because a teacher of any kind can use them: the
//! [`BlackBoxTeacher`](crate::BlackBoxTeacher) pairs one with a user's membership function, and
//! the weakest-assumption learner of [`ag`](crate::ag) tests its conjectures with [`WMethod`].
//! The oracles never cache: they ask the membership function they are given, and the teacher
//! behind it answers repeated words from its cache. Random oracles keep their generator between
//! calls, so each equivalence query tests fresh words and a run is the same for the same seed.

use std::collections::VecDeque;

use rustc_hash::FxHashSet;

use crate::dfa::{Dfa, Symbol, Word};

/// The membership source of an oracle failed; the oracle stops. The failure itself is kept by
/// whoever supplied the membership function (it knows its error type; the oracle does not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interrupted;

/// Membership answers as an oracle asks them: whether the target accepts the word, or
/// [`Interrupted`] when the source failed.
pub type Member<'a> = dyn FnMut(&[Symbol]) -> Result<bool, Interrupted> + 'a;

/// Tests hypotheses against membership queries.
///
/// ```
/// use guarantor_lstar::oracle::{EquivalenceOracle, WMethod};
/// use guarantor_lstar::{word, Dfa};
/// // Target: words over {0, 1} with an even number of 1s. Hypothesis: every word.
/// let target = Dfa::new(2, vec![vec![0, 1], vec![1, 0]], vec![true, false])?;
/// let everything = Dfa::new(2, vec![vec![0, 0]], vec![true])?;
/// let mut oracle = WMethod::new(1);
/// let cex = oracle.find_counterexample(&everything, &mut |w| Ok(target.accepts(w)));
/// assert_eq!(cex, Ok(Some(word(&[1]))));
/// assert_eq!(oracle.find_counterexample(&target, &mut |w| Ok(target.accepts(w))), Ok(None));
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
pub trait EquivalenceOracle {
    /// A word on which `hypothesis` and `member` disagree, or `None` if every test passes.
    ///
    /// # Errors
    /// [`Interrupted`] when `member` fails.
    fn find_counterexample(
        &mut self,
        hypothesis: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted>;
}

impl<O: EquivalenceOracle + ?Sized> EquivalenceOracle for Box<O> {
    fn find_counterexample(
        &mut self,
        hypothesis: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted> {
        (**self).find_counterexample(hypothesis, member)
    }
}

/// Asks `w` and compares with the hypothesis.
fn differs(h: &Dfa, member: &mut Member<'_>, w: &[Symbol]) -> Result<bool, Interrupted> {
    Ok(member(w)? != h.accepts(w))
}

/// Runs the test `test` of a suite unless the suite ran it before: the test, if it is a
/// counterexample.
fn run_once(
    seen: &mut FxHashSet<Word>,
    h: &Dfa,
    member: &mut Member<'_>,
    test: Word,
) -> Result<Option<Word>, Interrupted> {
    Ok((seen.insert(test.clone()) && differs(h, member, &test)?).then_some(test))
}

/// `count` random words per equivalence query, each of a length drawn uniformly from
/// `min_len..=max_len` and symbols drawn uniformly; the first one misclassified is the
/// counterexample. Deterministic for a seed.
#[derive(Clone, Debug)]
pub struct RandomWords {
    rng: SplitMix,
    count: usize,
    min_len: usize,
    max_len: usize,
}

impl RandomWords {
    /// `count` words of lengths `min_len..=max_len` per query, from generator seed `seed`.
    ///
    /// # Panics
    /// Panics if `min_len > max_len`.
    #[track_caller]
    pub fn new(seed: u64, count: usize, min_len: usize, max_len: usize) -> Self {
        assert!(min_len <= max_len, "min_len exceeds max_len");
        Self {
            rng: SplitMix(seed),
            count,
            min_len,
            max_len,
        }
    }
}

impl EquivalenceOracle for RandomWords {
    fn find_counterexample(
        &mut self,
        h: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted> {
        let k = h.num_symbols();
        if k == 0 {
            return Ok((member(&[])? != h.accepts(&[])).then(Vec::new));
        }
        let mut w = Word::with_capacity(self.max_len);
        for _ in 0..self.count {
            let len = self.min_len + self.rng.below(self.max_len - self.min_len + 1);
            w.clear();
            w.extend((0..len).map(|_| Symbol::new(self.rng.below(k))));
            if differs(h, member, &w)? {
                return Ok(Some(w));
            }
        }
        Ok(None)
    }
}

/// A random walk of `steps` steps per equivalence query: from the empty word, each step appends a
/// random symbol and asks the word so far; before a step the walk restarts from the empty word
/// with probability `reset` (AALpy's random walk for DFAs). Deterministic for a seed.
#[derive(Clone, Debug)]
pub struct RandomWalk {
    rng: SplitMix,
    steps: usize,
    reset: f64,
}

impl RandomWalk {
    /// `steps` steps per query, restarting with probability `reset` (clamped to `0.0..=1.0`),
    /// from generator seed `seed`.
    pub fn new(seed: u64, steps: usize, reset: f64) -> Self {
        Self {
            rng: SplitMix(seed),
            steps,
            reset: reset.clamp(0.0, 1.0),
        }
    }
}

impl EquivalenceOracle for RandomWalk {
    fn find_counterexample(
        &mut self,
        h: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted> {
        let k = h.num_symbols();
        if differs(h, member, &[])? {
            return Ok(Some(Vec::new()));
        }
        if k == 0 {
            return Ok(None);
        }
        let mut w = Word::new();
        for _ in 0..self.steps {
            if !w.is_empty() && self.rng.chance(self.reset) {
                w.clear();
            }
            w.push(Symbol::new(self.rng.below(k)));
            if differs(h, member, &w)? {
                return Ok(Some(w));
            }
        }
        Ok(None)
    }
}

/// The W-method (Chow 1978): checks a hypothesis `H` with `n` states against a target with at most
/// `n + extra_states` states by running every word `p · m · w`, with `p` from the transition cover
/// of `H` (access words and their one-symbol extensions), `m` any word of length at most
/// `extra_states`, and `w` from a characterisation set of `H` (one shortest separating word per
/// pair of states) or empty. Exact for such targets when `H` is minimal, as the learners'
/// hypotheses are; the number of tests grows as `k^extra_states`.
#[derive(Clone, Copy, Debug)]
pub struct WMethod {
    extra_states: usize,
}

impl WMethod {
    /// The W-method for targets with up to `extra_states` states more than the hypothesis.
    pub fn new(extra_states: usize) -> Self {
        Self { extra_states }
    }
}

impl EquivalenceOracle for WMethod {
    fn find_counterexample(
        &mut self,
        h: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted> {
        let k = h.num_symbols();
        let access = access_words(h);
        let mut cover: Vec<Word> = access.iter().map(|(_, w)| w.clone()).collect();
        for (_, p) in &access {
            for a in Symbol::all(k) {
                cover.push([p.as_slice(), &[a]].concat());
            }
        }
        let middles = middles(k, self.extra_states);
        let mut suffixes = characterisation_set(h);
        suffixes.insert(0, Vec::new());
        let mut seen: FxHashSet<Word> = FxHashSet::default();
        for p in &cover {
            for m in &middles {
                for w in &suffixes {
                    let test = [p.as_slice(), m, w].concat();
                    if let Some(cex) = run_once(&mut seen, h, member, test)? {
                        return Ok(Some(cex));
                    }
                }
            }
        }
        Ok(None)
    }
}

/// The Wp-method (Fujiwara, Bochmann, Khendek, Amalou, Ghedamsi 1991): as complete as the
/// [`WMethod`] for the same bound, with fewer tests. Phase one runs `q · m · w` for `q` an access
/// word, `m` of length at most `extra_states` and `w` from the characterisation set (or empty);
/// phase two runs `p · m · w` for `p` a transition-cover word that is not an access word, with `w`
/// only from the identification set of the state `p · m` reaches (its shortest separating words
/// from every other state) or empty.
#[derive(Clone, Copy, Debug)]
pub struct WpMethod {
    extra_states: usize,
}

impl WpMethod {
    /// The Wp-method for targets with up to `extra_states` states more than the hypothesis.
    pub fn new(extra_states: usize) -> Self {
        Self { extra_states }
    }
}

impl EquivalenceOracle for WpMethod {
    fn find_counterexample(
        &mut self,
        h: &Dfa,
        member: &mut Member<'_>,
    ) -> Result<Option<Word>, Interrupted> {
        let k = h.num_symbols();
        let access = access_words(h);
        let separators = separators(h, &access);
        let middles = middles(k, self.extra_states);
        let mut seen: FxHashSet<Word> = FxHashSet::default();
        // Phase one: the state cover, every middle, the whole characterisation set.
        let mut all: Vec<Word> = vec![Vec::new()];
        for set in &separators {
            for w in set {
                if !all.contains(w) {
                    all.push(w.clone());
                }
            }
        }
        for (_, q) in &access {
            for m in &middles {
                for w in &all {
                    if let Some(cex) =
                        run_once(&mut seen, h, member, [q.as_slice(), m, w].concat())?
                    {
                        return Ok(Some(cex));
                    }
                }
            }
        }
        // Phase two: the rest of the transition cover, with the reached state's identification set.
        let mut index = vec![usize::MAX; h.num_states()];
        for (i, &(q, _)) in access.iter().enumerate() {
            index[q] = i;
        }
        let state_cover: FxHashSet<&[Symbol]> = access.iter().map(|(_, w)| w.as_slice()).collect();
        for (_, q) in &access {
            for a in Symbol::all(k) {
                let p: Word = [q.as_slice(), &[a]].concat();
                if state_cover.contains(p.as_slice()) {
                    continue;
                }
                for m in &middles {
                    let pm: Word = [p.as_slice(), m].concat();
                    // Every state `pm` reaches is reachable, so it has an identification set.
                    let ids = &separators[index[h.run(&pm)]];
                    for w in std::iter::once(&Vec::new()).chain(ids) {
                        if let Some(cex) =
                            run_once(&mut seen, h, member, [pm.as_slice(), w].concat())?
                        {
                            return Ok(Some(cex));
                        }
                    }
                }
            }
        }
        Ok(None)
    }
}

/// Every word of length at most `extra` over `k` symbols, shortest first, in symbol order.
fn middles(k: usize, extra: usize) -> Vec<Word> {
    let mut middles: Vec<Word> = vec![Vec::new()];
    let mut layer: Vec<Word> = vec![Vec::new()];
    for _ in 0..extra {
        layer = layer
            .iter()
            .flat_map(|m| Symbol::all(k).map(move |a| [m.as_slice(), &[a]].concat()))
            .collect();
        middles.extend(layer.iter().cloned());
    }
    middles
}

/// A shortest access word for every reachable state with the state (breadth-first, symbol order).
fn access_words(h: &Dfa) -> Vec<(usize, Word)> {
    let mut word: Vec<Option<Word>> = vec![None; h.num_states()];
    word[0] = Some(Vec::new());
    let mut queue = VecDeque::from([0]);
    let mut order = Vec::new();
    while let Some(q) = queue.pop_front() {
        let w = word[q].clone().unwrap_or_default();
        for a in Symbol::all(h.num_symbols()) {
            let t = h.successor(q, a);
            if word[t].is_none() {
                let mut next = w.clone();
                next.push(a);
                word[t] = Some(next);
                queue.push_back(t);
            }
        }
        order.push((q, w));
    }
    order
}

/// One shortest separating word per pair of distinguishable states, deduplicated, in order of
/// the pairs.
fn characterisation_set(h: &Dfa) -> Vec<Word> {
    let n = h.num_states();
    let mut out: Vec<Word> = Vec::new();
    for p in 0..n {
        for q in p + 1..n {
            if let Some(w) = h.shortest_difference_from(p, h, q)
                && !out.contains(&w)
            {
                out.push(w);
            }
        }
    }
    out
}

/// The identification set of every reachable state, in the order of `access`: a shortest
/// separating word from each other reachable state, deduplicated.
fn separators(h: &Dfa, access: &[(usize, Word)]) -> Vec<Vec<Word>> {
    let mut out: Vec<Vec<Word>> = vec![Vec::new(); access.len()];
    for (i, &(p, _)) in access.iter().enumerate() {
        for (j, &(q, _)) in access.iter().enumerate().skip(i + 1) {
            if let Some(w) = h.shortest_difference_from(p.min(q), h, p.max(q)) {
                for set in [i, j] {
                    if !out[set].contains(&w) {
                        out[set].push(w.clone());
                    }
                }
            }
        }
    }
    out
}

/// Steele, Lea and Flood's `SplitMix64`: a small, fast, seedable generator, enough to draw test
/// words (no dependency for it).
#[derive(Clone, Debug)]
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32 for small `n`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        f64::from((self.next() >> 32) as u32) / 4_294_967_296.0 < p
    }
}
