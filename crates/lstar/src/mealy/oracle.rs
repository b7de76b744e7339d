//! Equivalence oracles for Mealy hypotheses: test words run through the [`Cache`] (which counts
//! them under [`Phase::Testing`](super::Phase::Testing) and answers repeats), the first word on
//! which the system and the hypothesis differ being the counterexample (cut after the first
//! differing output).
//!
//! - [`WMethod`] (Chow 1978) and [`WpMethod`] (Fujiwara et al. 1991): conformance test suites,
//!   exact when the system has at most `extra` states more than the (minimal) hypothesis;
//!   `WpMethod::new(2)` is what `wp:2` means on the command line and in the benchmarks: the bound
//!   is "hypothesis size + 2" anew each round. Both run their whole suite by default and return
//!   its first failing test: every answer goes into the cache, which is the learners' evidence
//!   (L#'s observation tree, and the check of each next hypothesis before an equivalence query),
//!   so one equivalence query refutes every later hypothesis its tests contradict. Stopping at
//!   the first failure instead (AALpy's oracles) is [`WpMethod::with_whole_suite`]`(false)`.
//! - [`RandomWords`], [`RandomWalk`], [`StatePrefix`]: random testing, seeded.
//! - [`Exact`]: compares with a known target (simulated systems only), asking just the
//!   counterexample.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::dfa::{Symbol, Word};
use crate::mealy::MealyError;
use crate::mealy::cache::{Cache, NodeId};
use crate::mealy::machine::{Mealy, OutputId, StateId};
use crate::oracle::SplitMix;

/// Tests hypotheses against the system behind a cache.
pub trait EquivalenceOracle {
    /// A word on which `hypothesis` and the system differ, or `None` if every test passes.
    ///
    /// # Errors
    /// What the cache reports ([`MealyError`]).
    fn find_counterexample(
        &mut self,
        hypothesis: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError>;
}

/// Runs `w` and compares: the shortest prefix of `w` with a different last output, if any.
/// One walk down the trie beside the hypothesis; what the trie does not know is sent to the
/// system from where the walk stopped (see [`Cache::send_from`]).
fn test(cache: &mut Cache<'_>, hyp: &Mealy, w: &[Symbol]) -> Result<Option<Word>, MealyError> {
    Ok(first_failure(cache, hyp, w)?.map(|i| w[..=i].to_vec()))
}

/// [`test`] giving the index of the first input answered otherwise, not the word.
fn first_failure(
    cache: &mut Cache<'_>,
    hyp: &Mealy,
    w: &[Symbol],
) -> Result<Option<usize>, MealyError> {
    Ok(after_known(cache, hyp, (NodeId::ROOT, hyp.initial()), w, 0)?.0)
}

/// What the trie says about a test word below a node the hypothesis agrees with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// The trie knows the word's first `depth` inputs, ending at node `at`, and not the next:
    /// the word must be run. `first`: the index of the first of those inputs answered otherwise
    /// than the hypothesis answers it; if none, `state` is the hypothesis' state after them.
    Unknown {
        at: NodeId,
        depth: usize,
        state: StateId,
        first: Option<usize>,
    },
    /// Known, ending at this node, answered as the hypothesis answers.
    Agrees(NodeId),
    /// Known, ending at the node, its input at the index answered otherwise.
    Differs(usize, NodeId),
}

/// Compares the trie below `node` with the hypothesis from `state` on `suffix`.
// Always: the walk of every test of a suite; inlined, 2 % fewer instructions on the small AALpy
// models (callgrind), which `#[inline]` alone did not get.
#[allow(clippy::inline_always)]
#[inline(always)]
fn compare_known(
    cache: &Cache<'_>,
    hyp: &Mealy,
    mut node: NodeId,
    mut state: StateId,
    suffix: &[Symbol],
) -> Known {
    let mut first = None;
    for (i, &a) in suffix.iter().enumerate() {
        let Some((next, out)) = cache.step(node, a) else {
            return Known::Unknown {
                at: node,
                depth: i,
                state,
                first,
            };
        };
        node = next;
        if first.is_none() {
            match hyp.transition(state, a) {
                Some((r, o)) if o == out => state = r,
                _ => first = Some(i),
            }
        }
    }
    match first {
        None => Known::Agrees(node),
        Some(i) => Known::Differs(i, node),
    }
}

/// The index of the first input of `w` from `from` on which the hypothesis, in `state` after
/// `w[..from]`, answers otherwise than `out` says.
fn first_difference(
    hyp: &Mealy,
    mut state: StateId,
    w: &[Symbol],
    out: &[OutputId],
    from: usize,
) -> Option<usize> {
    for i in from..w.len() {
        match hyp.transition(state, w[i]) {
            Some((r, o)) if o == out[i] => state = r,
            _ => return Some(i),
        }
    }
    None
}

/// Shortest access words of the hypothesis' states (breadth-first, input order), by state id.
fn state_cover(hyp: &Mealy) -> Vec<Word> {
    let mut access: Vec<Option<Word>> = vec![None; hyp.num_states()];
    access[hyp.initial().index()] = Some(Vec::new());
    for q in hyp.reachable() {
        let u = access[q.index()].clone().expect("reached");
        for a in hyp.inputs() {
            if let Some((r, _)) = hyp.transition(q, a)
                && access[r.index()].is_none()
            {
                let mut ua = u.clone();
                ua.push(a);
                access[r.index()] = Some(ua);
            }
        }
    }
    access.into_iter().flatten().collect()
}

/// A shortest separating word for every pair of states (`None` on the diagonal and for
/// equivalent states), by rounds of refinement: pairs told apart by one input, then pairs one
/// input leads to a pair told apart in the previous round, and so on.
#[allow(clippy::needless_range_loop, clippy::many_single_char_names)] // pairs (p, q) index both
fn separating_words(hyp: &Mealy) -> Vec<Vec<Option<Word>>> {
    let n = hyp.num_states();
    let mut sep: Vec<Vec<Option<Word>>> = vec![vec![None; n]; n];
    let mut changed = true;
    let mut round = 0;
    while changed {
        changed = false;
        let prev = sep.clone();
        for p in 0..n {
            for q in p + 1..n {
                if sep[p][q].is_some() {
                    continue;
                }
                let found = hyp.inputs().find_map(|a| {
                    match (
                        hyp.transition(StateId::new(p), a),
                        hyp.transition(StateId::new(q), a),
                    ) {
                        (Some((r, o)), Some((s, v))) => {
                            if o != v {
                                Some(vec![a])
                            } else if round > 0 {
                                prev[r.index()][s.index()]
                                    .as_ref()
                                    .map(|w| std::iter::once(a).chain(w.iter().copied()).collect())
                            } else {
                                None
                            }
                        }
                        (None, None) => None,
                        _ => Some(vec![a]),
                    }
                });
                if let Some(w) = found {
                    sep[q][p] = Some(w.clone());
                    sep[p][q] = Some(w);
                    changed = true;
                }
            }
        }
        round += 1;
    }
    sep
}

/// Every word over `k` inputs of length at most `len`, shortest first.
fn middles(k: usize, len: usize) -> Vec<Word> {
    let mut out = vec![Vec::new()];
    let mut level = vec![Vec::new()];
    for _ in 0..len {
        let mut next = Vec::new();
        for w in &level {
            for a in Symbol::all(k) {
                let mut wa: Word = w.clone();
                wa.push(a);
                next.push(wa);
            }
        }
        out.extend(next.iter().cloned());
        level = next;
    }
    out
}

/// The W-method: every transition-cover word, then every middle word of length at most `extra`,
/// then every word of the characterisation set.
#[derive(Clone, Debug)]
pub struct WMethod {
    extra: usize,
    whole: bool,
}

impl WMethod {
    /// Exact for systems with at most `extra` states more than the hypothesis; runs its whole
    /// suite each round (see [`WMethod::with_whole_suite`]).
    pub fn new(extra: usize) -> Self {
        Self { extra, whole: true }
    }

    /// With `false`, stops each round at the first failing test, as AALpy's oracles do; with
    /// `true` (the default), runs the rest of the suite too, so that the cache holds every
    /// answer (more tests in a round that fails, fewer rounds). The counterexample is the same
    /// word either way.
    #[must_use]
    pub fn with_whole_suite(mut self, whole: bool) -> Self {
        self.whole = whole;
        self
    }
}

/// The characterisation set of a hypothesis (every pairwise separating word, once), and each
/// state's identification set (its separating words from every other state).
fn characterisation(hyp: &Mealy) -> (Vec<Word>, Vec<Vec<Word>>) {
    let sep = separating_words(hyp);
    let mut all: Vec<Word> = Vec::new();
    let mut seen = FxHashSet::default();
    let mut local = Vec::with_capacity(sep.len());
    for row in &sep {
        let mut mine: Vec<Word> = Vec::new();
        let mut mine_seen = FxHashSet::default();
        for w in row.iter().flatten() {
            if mine_seen.insert(w.clone()) {
                mine.push(w.clone());
            }
            if seen.insert(w.clone()) {
                all.push(w.clone());
            }
        }
        if mine.is_empty() {
            mine.push(Vec::new());
        }
        local.push(mine);
    }
    if all.is_empty() {
        all.push(Vec::new());
    }
    (all, local)
}

/// Where the hypothesis is after `w`, and the trie node of `w` if the trie knows `w` and the
/// hypothesis agrees with it there.
fn start_known(cache: &Cache<'_>, hyp: &Mealy, w: &[Symbol]) -> (Option<StateId>, Option<NodeId>) {
    let state = hyp.run_from(hyp.initial(), w);
    let node = cache.walk(NodeId::ROOT, w).filter(|_| {
        matches!(
            compare_known(cache, hyp, NodeId::ROOT, hyp.initial(), w),
            Known::Agrees(_)
        )
    });
    (state, node)
}

/// [`start_known`] for a word one input `a` longer than the one of `before`.
fn step_known(
    cache: &Cache<'_>,
    hyp: &Mealy,
    before: (Option<StateId>, Option<NodeId>),
    a: Symbol,
) -> (Option<StateId>, Option<NodeId>) {
    let (state, node) = before;
    let step = state.and_then(|q| hyp.transition(q, a));
    let node = node
        .zip(step)
        .and_then(|(n, (_, out))| cache.step(n, a).filter(|&(_, o)| o == out).map(|(c, _)| c));
    (step.map(|(next, _)| next), node)
}

/// [`first_failure`] for a test `w` whose first `len` inputs the trie knows, ending at node
/// `at.0`, and the hypothesis answers as the trie does, reaching state `at.1`: the rest is
/// compared from there, and sent to the system from where the trie's knowledge stops. Also the
/// node of `w` (which the trie knows afterwards).
#[inline]
fn after_known(
    cache: &mut Cache<'_>,
    hyp: &Mealy,
    at: (NodeId, StateId),
    w: &[Symbol],
    len: usize,
) -> Result<(Option<usize>, NodeId), MealyError> {
    Ok(match compare_known(cache, hyp, at.0, at.1, &w[len..]) {
        Known::Agrees(end) => {
            cache.count_hit();
            (None, end)
        }
        Known::Differs(i, end) => {
            cache.count_hit();
            (Some(len + i), end)
        }
        Known::Unknown {
            at,
            depth,
            state,
            first,
        } => {
            let end = cache.send_from(w, at, len + depth)?;
            let differs = first
                .map(|i| len + i)
                .or_else(|| first_difference(hyp, state, w, cache.last_outputs(), len + depth));
            (differs, end)
        }
    })
}

/// Runs `prefix · middle · suffix` for every middle and every suffix `suffixes(state reached)`:
/// the first failing test in this order, cut after its first differing output; with `whole`,
/// the remaining tests are run too (their answers stored in the cache), the same word returned.
fn run_suite<'s>(
    cache: &mut Cache<'_>,
    hyp: &Mealy,
    prefixes: &[Word],
    middles: &[Word],
    suffixes: &dyn Fn(StateId) -> &'s [Word],
    whole: bool,
) -> Result<Option<Word>, MealyError> {
    let mut found: Option<Word> = None;
    // Each middle word but the empty one extends an earlier one by one input: the state and the
    // trie node after `u x` follow from those after `u x'` in one step instead of a walk of
    // the whole word (most of the suite's cost besides running the tests).
    let index: FxHashMap<&[Symbol], usize> = middles
        .iter()
        .enumerate()
        .map(|(i, x)| (x.as_slice(), i))
        .collect();
    let parent: Vec<Option<(usize, Symbol)>> = middles
        .iter()
        .map(|x| {
            x.split_last()
                .and_then(|(&a, rest)| index.get(rest).map(|&p| (p, a)))
        })
        .collect();
    // Every (prefix, middle) is at least one test, which adds at least one node when new.
    cache.reserve(prefixes.len() * middles.len());
    let mut w = Vec::new();
    // After `u` and each middle word: the hypothesis state, and the trie node where the trie
    // knows `u x` and the hypothesis agrees with it there.
    let mut at: Vec<(Option<StateId>, Option<NodeId>)> = vec![(None, None); middles.len()];
    for u in prefixes {
        for (i, x) in middles.iter().enumerate() {
            at[i] = match parent[i] {
                Some((before, a)) => step_known(cache, hyp, at[before], a),
                None => {
                    w.clear();
                    w.extend_from_slice(u);
                    w.extend_from_slice(x);
                    start_known(cache, hyp, &w)
                }
            };
            let (Some(q), mut known) = at[i] else {
                continue;
            };
            w.clear();
            w.extend_from_slice(u);
            w.extend_from_slice(x);
            // Where the trie knows `u x` and the hypothesis agrees with it there, a suffix the
            // trie also knows is compared from that node (in later rounds most tests are words
            // of earlier ones); the others are run whole, after which the trie knows `u x`.
            let len = w.len();
            for e in suffixes(q) {
                w.truncate(len);
                w.extend_from_slice(e);
                let differs = match known {
                    Some(n) => after_known(cache, hyp, (n, q), &w, len)?.0,
                    None => {
                        let start = (NodeId::ROOT, hyp.initial());
                        let (differs, end) = after_known(cache, hyp, start, &w, 0)?;
                        if differs.is_none_or(|i| i >= len) {
                            known = Some(cache.ancestor(end, w.len() - len));
                            at[i].1 = known;
                        }
                        differs
                    }
                };
                if let Some(i) = differs {
                    // Not cut in place: `w`'s first `len` inputs are the next tests' too.
                    if !whole {
                        return Ok(Some(w[..=i].to_vec()));
                    }
                    found.get_or_insert_with(|| w[..=i].to_vec());
                }
            }
        }
    }
    Ok(found)
}

impl EquivalenceOracle for WMethod {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        let cover = state_cover(hyp);
        let mut prefixes = cover.clone();
        for u in &cover {
            for a in hyp.inputs() {
                let mut ua = u.clone();
                ua.push(a);
                prefixes.push(ua);
            }
        }
        let (w_set, _) = characterisation(hyp);
        let mids = middles(hyp.num_inputs(), self.extra);
        run_suite(cache, hyp, &prefixes, &mids, &|_| &w_set, self.whole)
    }
}

/// The Wp-method: the state cover with every middle word of length at most `extra` and the
/// whole characterisation set, then the rest of the transition cover with middle words and only
/// the identification set of the state reached. Fewer tests than [`WMethod`], as exact.
#[derive(Clone, Debug)]
pub struct WpMethod {
    extra: usize,
    whole: bool,
}

impl WpMethod {
    /// Exact for systems with at most `extra` states more than the hypothesis; runs its whole
    /// suite each round (see [`WpMethod::with_whole_suite`]).
    pub fn new(extra: usize) -> Self {
        Self { extra, whole: true }
    }

    /// With `false`, stops each round at the first failing test, as AALpy's
    /// `WpMethodEqOracle` does; with `true` (the default), runs the rest of the suite too, so
    /// that the cache holds every answer: the learner checks its next hypotheses against them
    /// before asking another equivalence query (on the AALpy models with L#, 301 equivalence
    /// queries down to 107 and 12,728 membership queries to 7,836, for 5 % more test steps;
    /// docs/benchmarks/notebook/mealy.md). The counterexample is the same word either way.
    ///
    /// ```
    /// use guarantor_lstar::mealy::{learn, Config, Mealy, Simulated, WpMethod};
    /// let target = Mealy::from_dot(
    ///     "digraph g { s0 -> s1 [label=\"a/x\"]; s0 -> s0 [label=\"b/y\"];\n\
    ///      s1 -> s2 [label=\"a/x\"]; s1 -> s0 [label=\"b/y\"];\n\
    ///      s2 -> s2 [label=\"a/z\"]; s2 -> s0 [label=\"b/y\"]; __start0 -> s0; }",
    /// )?;
    /// let whole = learn(Simulated::new(&target), &mut WpMethod::new(2), Config::default())?;
    /// let first = WpMethod::new(2).with_whole_suite(false);
    /// let lazy = learn(Simulated::new(&target), &mut first.clone(), Config::default())?;
    /// assert!(whole.machine.equivalent(&target)? && lazy.machine.equivalent(&target)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_whole_suite(mut self, whole: bool) -> Self {
        self.whole = whole;
        self
    }
}

impl EquivalenceOracle for WpMethod {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        let cover = state_cover(hyp);
        let (w_set, local) = characterisation(hyp);
        let mids = middles(hyp.num_inputs(), self.extra);
        let first = run_suite(cache, hyp, &cover, &mids, &|_| &w_set, self.whole)?;
        if first.is_some() && !self.whole {
            return Ok(first);
        }
        let mut rest = Vec::new();
        for u in &cover {
            for a in hyp.inputs() {
                let mut ua = u.clone();
                ua.push(a);
                if !cover.contains(&ua) {
                    rest.push(ua);
                }
            }
        }
        let second = run_suite(cache, hyp, &rest, &mids, &|q| &local[q.index()], self.whole)?;
        Ok(first.or(second))
    }
}

/// Random words: `count` words per equivalence query, lengths uniform in `min_len..=max_len`,
/// inputs uniform.
#[derive(Clone, Debug)]
pub struct RandomWords {
    count: usize,
    min_len: usize,
    max_len: usize,
    rng: SplitMix,
}

impl RandomWords {
    /// `count` words of lengths `min_len..=max_len` per query, from generator seed `seed`.
    pub fn new(count: usize, min_len: usize, max_len: usize, seed: u64) -> Self {
        Self {
            count,
            min_len,
            max_len: max_len.max(min_len),
            rng: SplitMix(seed),
        }
    }
}

impl EquivalenceOracle for RandomWords {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        let k = hyp.num_inputs();
        if k == 0 {
            return Ok(None);
        }
        for _ in 0..self.count {
            let len = self.min_len + self.rng.below(self.max_len - self.min_len + 1);
            let w: Word = (0..len).map(|_| Symbol::new(self.rng.below(k))).collect();
            if let Some(cex) = test(cache, hyp, &w)? {
                return Ok(Some(cex));
            }
        }
        Ok(None)
    }
}

/// A random walk of `steps` inputs per equivalence query, reset with probability
/// `reset_probability` after each step (each stretch between resets is one test word).
#[derive(Clone, Debug)]
pub struct RandomWalk {
    steps: usize,
    reset_probability: f64,
    rng: SplitMix,
}

impl RandomWalk {
    /// `steps` random inputs per query, resetting with probability 0.09 (AALpy's default) after
    /// each, from generator seed `seed`.
    pub fn new(steps: usize, seed: u64) -> Self {
        Self {
            steps,
            reset_probability: 0.09,
            rng: SplitMix(seed),
        }
    }

    /// Sets the reset probability.
    #[must_use]
    pub fn with_reset_probability(mut self, p: f64) -> Self {
        self.reset_probability = p;
        self
    }
}

impl EquivalenceOracle for RandomWalk {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        let k = hyp.num_inputs();
        if k == 0 {
            return Ok(None);
        }
        let mut w = Vec::new();
        for i in 0..self.steps {
            w.push(Symbol::new(self.rng.below(k)));
            if i + 1 == self.steps || self.rng.chance(self.reset_probability) {
                if let Some(cex) = test(cache, hyp, &w)? {
                    return Ok(Some(cex));
                }
                w.clear();
            }
        }
        Ok(None)
    }
}

/// For every hypothesis state, `walks_per_state` random words of `walk_len` inputs after its
/// access word (AALpy's `StatePrefixEqOracle`).
#[derive(Clone, Debug)]
pub struct StatePrefix {
    walks_per_state: usize,
    walk_len: usize,
    rng: SplitMix,
}

impl StatePrefix {
    /// `walks_per_state` walks of `walk_len` inputs per state, from generator seed `seed`.
    pub fn new(walks_per_state: usize, walk_len: usize, seed: u64) -> Self {
        Self {
            walks_per_state,
            walk_len,
            rng: SplitMix(seed),
        }
    }
}

impl EquivalenceOracle for StatePrefix {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        let k = hyp.num_inputs();
        if k == 0 {
            return Ok(None);
        }
        for u in state_cover(hyp) {
            for _ in 0..self.walks_per_state {
                let mut w = u.clone();
                w.extend((0..self.walk_len).map(|_| Symbol::new(self.rng.below(k))));
                if let Some(cex) = test(cache, hyp, &w)? {
                    return Ok(Some(cex));
                }
            }
        }
        Ok(None)
    }
}

/// The exact oracle of a known target: a shortest word on which the hypothesis differs from it
/// (by input and output names), asked once through the cache. For simulated systems.
#[derive(Clone, Debug)]
pub struct Exact {
    target: Mealy,
}

impl Exact {
    /// The oracle of `target`.
    pub fn new(target: Mealy) -> Self {
        Self { target }
    }
}

impl EquivalenceOracle for Exact {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        let Some(w) = hyp.shortest_difference(&self.target)? else {
            return Ok(None);
        };
        cache.ensure(&w)?;
        Ok(Some(w))
    }
}
