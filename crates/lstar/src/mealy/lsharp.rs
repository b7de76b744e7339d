//! L# for Mealy machines (Vaandrager, Garhewal, Rot and Wissmann, "A New Approach for Active
//! Automata Learning Based on Apartness", TACAS 2022).
//!
//! The observation tree is the [`Cache`]'s trie: every answer the system gave, with the output of
//! every step. Two tree nodes are *apart* when some word is known from both with different outputs
//! (the *witness*); apartness is never revised since answers are never taken back. The *basis* is
//! a set of pairwise apart nodes (the hypothesis states, the root first); the *frontier* is the
//! one-input extensions of basis nodes outside the basis, each with its *candidates*, the basis
//! nodes it is not apart from. The rules, in the paper's order:
//! - **promotion**: a frontier node apart from every basis node joins the basis;
//! - **extension**: every basis node gets a child on every input. The query asks the child's
//!   word followed by an adaptive distinguishing sequence over the basis ([`Ads`], the paper's
//!   and AALpy's `ADS` rule; a separating word while the basis has two nodes), so the one query
//!   also starts telling the new frontier node's candidates apart, and then (ours, not the
//!   paper's) along the deepest known path of the one candidate left ([`Identify`]): a free
//!   test of the node against the state it is about to be mapped to, which finds states that
//!   L# would otherwise learn from a counterexample (on the AALpy models with a Wp oracle
//!   stopped at its first failure, 396 equivalence queries down to 295 and 12,639 membership
//!   queries to 13,078; one input beyond the known depth, with whole suites: 9,272 membership
//!   queries to 7,836; docs/benchmarks/notebook/mealy.md);
//! - **separation**: the first frontier node with two or more candidates is asked an adaptive
//!   distinguishing sequence over its candidates (three or more; for two, or when the tree
//!   knows no ADS, the witness of two of them whose known answers split its candidates most
//!   evenly), continued along the candidate left as in extension. One node at a time, so that
//!   a promotion takes effect before the next query; adaptive sequences and one node at a time
//!   took our L#'s queries from 0.94 to 0.87 of AALpy's (geometric mean over the AALpy models,
//!   docs/benchmarks/notebook/mealy.md);
//! - **verification** (optional, [`Config::verify`](super::Config::verify); ours, not the
//!   paper's): before a hypothesis, each frontier node not yet tested against its one candidate
//!   is asked the deepest path below the candidate that it does not know. One query per frontier
//!   node and candidate; on the AALpy models with whole Wp suites it takes the equivalence
//!   queries from 107 to 88 for 2.1 times the membership queries
//!   (docs/benchmarks/notebook/mealy.md);
//! - **tour** (optional, [`Config::tour`](super::Config::tour); ours, not the paper's): each
//!   hypothesis is walked on the system in one query testing every two-input word from every
//!   state not yet seen ([`super::tour`]); a difference is a stored answer the hypothesis
//!   contradicts, processed as a counterexample (first shortened by [`shorten`]) without an
//!   equivalence query. On the AALpy models with whole Wp suites: 107 equivalence queries to
//!   58, 7,836 membership queries to 13,986 (docs/benchmarks/notebook/mealy.md);
//! - **equivalence**: when every frontier node has one candidate the hypothesis maps it there.
//!
//! Counterexamples are processed by the paper's `ProcCounterEx`: binary search on the part of the
//! word beyond the frontier, one query a step, until a frontier node is apart from its candidate.

use rustc_hash::FxHashMap;

use crate::dfa::{Symbol, Word};
use crate::mealy::ads::Ads;
use crate::mealy::cache::{Cache, NodeId, Probe};
use crate::mealy::machine::{Mealy, OutputId, StateId};
use crate::mealy::tour::Tour;
use crate::mealy::{Engine, MealyError, build};

/// At most this many witnesses are scored when choosing a separating word.
const MAX_SCORED: usize = 32;

/// At most this many witnesses are appended to a separating word (see
/// [`LSharp::extend_separator`]).
const MAX_EXTENSIONS: usize = 6;

/// One frontier node.
#[derive(Clone, Debug)]
struct Frontier {
    node: NodeId,
    /// The cache version at which its candidates were last checked, and the basis size then.
    checked: u32,
    seen_basis: usize,
    /// Indices into the basis of the nodes it is not apart from.
    candidates: Vec<usize>,
}

/// The L# learner's state between rounds.
pub(crate) struct LSharp {
    k: usize,
    basis: Vec<NodeId>,
    frontier: Vec<Frontier>,
    /// The frontier's nodes, for membership tests (the frontier has up to states x inputs).
    in_frontier: rustc_hash::FxHashSet<NodeId>,
    /// Memoised witnesses between basis nodes (indices), smaller index first.
    witnesses: FxHashMap<(usize, usize), Word>,
    /// Frontier nodes already tested against a candidate (see [`LSharp::verify`]).
    verified: rustc_hash::FxHashSet<(NodeId, usize)>,
    /// Whether verification is on.
    verification: bool,
    /// Whether each hypothesis is toured before the oracle sees it (see [`super::tour`]).
    tours: bool,
    /// Scratch space of the apartness checks.
    stack: Vec<(NodeId, NodeId)>,
}

impl LSharp {
    pub(crate) fn new(k: usize, verification: bool, tours: bool) -> Self {
        Self {
            k,
            basis: vec![NodeId::ROOT],
            frontier: Vec::new(),
            in_frontier: rustc_hash::FxHashSet::default(),
            witnesses: FxHashMap::default(),
            verified: rustc_hash::FxHashSet::default(),
            verification,
            tours,
            stack: Vec::new(),
        }
    }

    /// Extension: every basis node has a child on every input, and every such child that is not
    /// basis is a frontier node. True if something was asked.
    fn extend(&mut self, cache: &mut Cache<'_>) -> Result<bool, MealyError> {
        let mut asked = false;
        // One ADS for the whole pass: the answers of the pass add to it little that matters,
        // and building it is most of the rule's cost on deep trees.
        let mut ads: Option<Option<Ads>> = None;
        for b in 0..self.basis.len() {
            for a in Symbol::all(self.k) {
                let node = match cache.child(self.basis[b], a) {
                    Some(n) => n,
                    None => {
                        asked = true;
                        let ads = ads.get_or_insert_with(|| {
                            (self.basis.len() > 2)
                                .then(|| Ads::new(cache, &self.basis))
                                .flatten()
                        });
                        self.explore(cache, b, a, ads.as_ref())?
                    }
                };
                if !self.basis.contains(&node) && self.in_frontier.insert(node) {
                    self.frontier.push(Frontier {
                        node,
                        checked: 0,
                        seen_basis: 0,
                        candidates: (0..self.basis.len()).collect(),
                    });
                }
            }
        }
        Ok(asked)
    }

    /// Asks basis node `b`'s child on `a`, followed by `ads`, an adaptive distinguishing sequence
    /// over the basis (if it has three or more nodes the tree tells apart), else by the
    /// separating word that splits the basis most evenly, then along the one basis node left
    /// (see [`Identify`]), so the one query also starts identifying the new frontier node. The
    /// child.
    fn explore(
        &mut self,
        cache: &mut Cache<'_>,
        b: usize,
        a: Symbol,
        ads: Option<&Ads>,
    ) -> Result<NodeId, MealyError> {
        let mut w = cache.word(self.basis[b]);
        w.push(a);
        let fixed = if ads.is_some() {
            Vec::new()
        } else {
            let all: Vec<usize> = (0..self.basis.len()).collect();
            self.best_witness(cache, &all).unwrap_or_default()
        };
        cache.probe(&w, &mut Identify::new(cache, &fixed, ads, &self.basis))?;
        Ok(cache.child(self.basis[b], a).expect("just asked"))
    }

    /// Drops candidates a frontier node is apart from; promotes the first frontier node left with
    /// none. True if a node was promoted.
    fn refresh(&mut self, cache: &Cache<'_>) -> bool {
        // A pair compared before is compared again only if one of the two subtrees grew since.
        let version = cache.version();
        let stack = &mut self.stack;
        for f in &mut self.frontier {
            let basis = &self.basis;
            let (checked, seen) = (f.checked, f.seen_basis);
            let grown = cache.modified(f.node) > checked;
            f.candidates.retain(|&b| {
                if b >= seen {
                    return !apart_since(cache, f.node, basis[b], 0, stack);
                }
                let stale = grown || cache.modified(basis[b]) > checked;
                !stale || !apart_since(cache, f.node, basis[b], checked, stack)
            });
            f.checked = version;
            f.seen_basis = basis.len();
        }
        if let Some(i) = self.frontier.iter().position(|f| f.candidates.is_empty()) {
            let f = self.frontier.swap_remove(i);
            self.in_frontier.remove(&f.node);
            self.basis.push(f.node);
            let new = self.basis.len() - 1;
            for g in &mut self.frontier {
                g.candidates.push(new);
            }
            return true;
        }
        false
    }

    /// The witness of basis nodes `i` and `j` (they are apart).
    fn basis_witness(&mut self, cache: &Cache<'_>, i: usize, j: usize) -> Word {
        let key = (i.min(j), i.max(j));
        if let Some(w) = self.witnesses.get(&key) {
            return w.clone();
        }
        let w =
            witness(cache, self.basis[key.0], self.basis[key.1]).expect("basis nodes are apart");
        self.witnesses.insert(key, w.clone());
        w
    }

    /// Of the witnesses between pairs of `candidates` (basis indices), the one whose known
    /// answers at the candidates split them most evenly; `None` for fewer than two candidates.
    fn best_witness(&mut self, cache: &Cache<'_>, candidates: &[usize]) -> Option<Word> {
        if candidates.len() < 2 {
            return None;
        }
        let mut best: Option<(usize, Word)> = None;
        let mut scored = 0;
        'pairs: for (x, &i) in candidates.iter().enumerate() {
            for &j in &candidates[x + 1..] {
                let w = self.basis_witness(cache, i, j);
                let score = self.largest_group(cache, candidates, &w);
                if best.as_ref().is_none_or(|(s, _)| score < *s) {
                    best = Some((score, w));
                }
                scored += 1;
                if scored >= MAX_SCORED {
                    break 'pairs;
                }
            }
        }
        best.map(|(_, w)| self.extend_separator(cache, candidates, w))
    }

    /// Extends a separating word `w` for free (a longer word is still one query): while the
    /// largest group of candidates with equal known outputs on `w` has two members whose nodes
    /// after `w` are apart, appends their witness, so that a frontier node in that group is told
    /// apart further by the same query (a preset stand-in for the paper's adaptive sequences).
    fn extend_separator(&self, cache: &Cache<'_>, candidates: &[usize], mut w: Word) -> Word {
        for _ in 0..MAX_EXTENSIONS {
            let mut groups: FxHashMap<Vec<u32>, Vec<NodeId>> = FxHashMap::default();
            for &b in candidates {
                if let Some((key, end)) = outputs_along(cache, self.basis[b], &w) {
                    groups.entry(key).or_default().push(end);
                }
            }
            let Some(group) = groups
                .into_values()
                .filter(|g| g.len() > 1)
                .max_by_key(Vec::len)
            else {
                break;
            };
            let Some(more) = group
                .iter()
                .skip(1)
                .take(4)
                .find_map(|&other| witness(cache, group[0], other))
            else {
                break;
            };
            w.extend(more);
        }
        w
    }

    /// The size of the largest group of `candidates` with the same known outputs on `w`
    /// (candidates that do not know `w` count as one group).
    fn largest_group(&self, cache: &Cache<'_>, candidates: &[usize], w: &[Symbol]) -> usize {
        let mut groups: FxHashMap<Option<Vec<u32>>, usize> = FxHashMap::default();
        for &b in candidates {
            let key = cache.walk(self.basis[b], w).map(|_| {
                let mut n = self.basis[b];
                w.iter()
                    .map(|&a| {
                        n = cache.child(n, a).expect("walked");
                        cache.output(n).index() as u32
                    })
                    .collect()
            });
            *groups.entry(key).or_default() += 1;
        }
        groups.into_values().max().unwrap_or(0)
    }

    /// Separation: one query for the first frontier node with two or more candidates, an
    /// adaptive distinguishing sequence for three or more (see [`Ads`]), else a witness of two.
    /// One node at a time: the answer may promote a node, after which every later query also
    /// tells the frontier apart from it (on the AALpy models, 7 % fewer queries than separating
    /// the whole frontier in one pass). True if something was asked.
    fn separate(&mut self, cache: &mut Cache<'_>) -> Result<bool, MealyError> {
        for i in 0..self.frontier.len() {
            let candidates = self.frontier[i].candidates.clone();
            if candidates.len() > 2 && self.separate_adaptively(cache, i, &candidates)? {
                return Ok(true);
            }
            if let Some(sep) = self.best_witness(cache, &candidates) {
                let w = cache.word(self.frontier[i].node);
                let nodes: Vec<NodeId> = candidates.iter().map(|&b| self.basis[b]).collect();
                cache.probe(&w, &mut Identify::new(cache, &sep, None, &nodes))?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Separation by an adaptive distinguishing sequence over the basis nodes of `candidates`
    /// from frontier node `i` (one query, inputs chosen by the outputs seen). True if it told the
    /// node apart from a candidate; false if the tree has no ADS for them or the run taught
    /// nothing (the caller then asks a preset witness).
    fn separate_adaptively(
        &mut self,
        cache: &mut Cache<'_>,
        i: usize,
        candidates: &[usize],
    ) -> Result<bool, MealyError> {
        let nodes: Vec<NodeId> = candidates.iter().map(|&b| self.basis[b]).collect();
        let Some(ads) = Ads::new(cache, &nodes) else {
            return Ok(false);
        };
        let f = self.frontier[i].node;
        let access = cache.word(f);
        let end = cache.probe(&access, &mut Identify::new(cache, &[], Some(&ads), &nodes))?;
        // The inputs the run took below `f`, then whether some candidate answers them otherwise.
        let mut run = cache.word(end);
        run.drain(..access.len());
        Ok(nodes.iter().any(|&b| differs_along(cache, f, b, &run)))
    }

    /// Verification: each frontier node with one candidate, not tested against it before, is
    /// asked one word its candidate knows and it does not: the path below the candidate to its
    /// deepest leaf. True if something was asked.
    fn verify(&mut self, cache: &mut Cache<'_>) -> Result<bool, MealyError> {
        let mut asked = false;
        for i in 0..self.frontier.len() {
            let (f, c) = (self.frontier[i].node, self.frontier[i].candidates[0]);
            if !self.verified.insert((f, c)) {
                continue;
            }
            let tail = deepest_untested(cache, self.basis[c], f);
            if tail.is_empty() {
                continue;
            }
            let mut w = cache.word(f);
            w.extend(tail);
            cache.ensure(&w)?;
            asked = true;
        }
        Ok(asked)
    }

    /// The hypothesis of an identified frontier: state `i` is basis node `i`.
    fn conjecture(&self, cache: &Cache<'_>) -> Mealy {
        let state: FxHashMap<NodeId, usize> = self
            .basis
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, i))
            .chain(self.frontier.iter().map(|f| (f.node, f.candidates[0])))
            .collect();
        build(cache, self.basis.len(), |q, a| {
            let c = cache.child(self.basis[q], a).expect("extended");
            (state[&c], cache.output(c))
        })
    }

    /// The basis node of hypothesis state `q`.
    fn basis_of(&self, q: StateId) -> NodeId {
        self.basis[q.index()]
    }

    /// `ProcCounterEx`: `sigma`'s node is apart from the basis node of the state the hypothesis
    /// reaches by `sigma`; shortens `sigma` until its node is a frontier node.
    fn process(
        &mut self,
        cache: &mut Cache<'_>,
        hyp: &Mealy,
        mut sigma: Word,
    ) -> Result<(), MealyError> {
        loop {
            let node = cache.walk(NodeId::ROOT, &sigma).expect("known");
            if self.basis.contains(&node) || self.in_frontier.contains(&node) {
                return Ok(());
            }
            // The length of the prefix of sigma that is a frontier node.
            let mut n = NodeId::ROOT;
            let mut rho = 0;
            while self.basis.contains(&n) {
                n = cache.child(n, sigma[rho]).expect("known");
                rho += 1;
            }
            let h = usize::midpoint(rho, sigma.len());
            let (s1, s2) = sigma.split_at(h);
            let q = self.basis_of(hyp.run_from(hyp.initial(), &sigma).expect("complete"));
            let eta = witness(cache, node, q).expect("invariant: apart");
            let r1 = self.basis_of(hyp.run_from(hyp.initial(), s1).expect("complete"));
            let mut w = cache.word(r1);
            w.extend_from_slice(s2);
            let split = w.len();
            w.extend_from_slice(&eta);
            cache.ensure(&w)?;
            let r1s2 = cache.walk(NodeId::ROOT, &w[..split]).expect("just asked");
            if witness(cache, r1s2, q).is_some() {
                w.truncate(split);
                sigma = w;
            } else {
                sigma.truncate(h);
            }
        }
    }
}

impl Engine for LSharp {
    fn hypothesis(&mut self, cache: &mut Cache<'_>) -> Result<Mealy, MealyError> {
        loop {
            if self.refresh(cache) {
                continue;
            }
            if self.extend(cache)? {
                continue;
            }
            if self.frontier.iter().any(|f| f.candidates.len() > 1) {
                self.separate(cache)?;
                continue;
            }
            if self.verification && self.verify(cache)? {
                continue;
            }
            let hyp = self.conjecture(cache);
            if self.tours {
                tour(cache, &hyp)?;
            }
            return Ok(hyp);
        }
    }

    fn counterexample(
        &mut self,
        cache: &mut Cache<'_>,
        hyp: &Mealy,
        word: &[Symbol],
    ) -> Result<(), MealyError> {
        let Some(mut i) = cache.first_disagreement(hyp, word)? else {
            return Ok(());
        };
        let mut word = word;
        let short;
        if self.tours {
            short = shorten(cache, hyp, &self.basis, &word[..=i])?;
            word = &short;
            // A shorter word may differ before its last input.
            i = cache
                .first_disagreement(hyp, word)?
                .expect("a counterexample");
        }
        // The node of word[..i] is apart from its hypothesis state, with witness word[i].
        self.process(cache, hyp, word[..i].to_vec())
    }
}

/// A shorter counterexample for the same hypothesis (`word` is one), if one is found cheaply.
/// For `j` = 2, 4, 8, ..., the access word of the state `hyp` reaches after all but the last `j`
/// inputs, followed by those inputs, is asked; the first that `hyp` answers wrongly is returned
/// (else `word`). A tour's counterexample is
/// hundreds of inputs long and its wrong transition usually among the last few: the word for
/// `j` = 2 is a frontier node followed by one input, which makes the node apart from its
/// candidate at once, where the binary search of [`LSharp::process`] would cost a query per
/// halving of the whole word.
fn shorten(
    cache: &mut Cache<'_>,
    hyp: &Mealy,
    basis: &[NodeId],
    word: &[Symbol],
) -> Result<Word, MealyError> {
    let mut j = 2;
    while j < word.len() {
        let s = word.len() - j;
        let q = hyp.run_from(hyp.initial(), &word[..s]).expect("complete");
        let mut w = cache.word(basis[q.index()]);
        w.extend_from_slice(&word[s..]);
        if cache.first_disagreement(hyp, &w)?.is_some() {
            return Ok(w);
        }
        j *= 2;
    }
    Ok(word.to_vec())
}

/// At most this many tour queries per hypothesis: a second only when the first ended in a sink
/// with untested pairs left elsewhere.
const MAX_TOURS: usize = 2;

/// Tours `hyp` (see [`super::tour`]) unless it contradicts a stored answer already: at most
/// [`MAX_TOURS`] queries, each at most [`tour_limit`] inputs; the first difference ends it.
fn tour(cache: &mut Cache<'_>, hyp: &Mealy) -> Result<(), MealyError> {
    for _ in 0..MAX_TOURS {
        let Some(tested) = cache.known_pairs(hyp) else {
            return Ok(());
        };
        let mut walk = Tour::new(hyp, tested, tour_limit(hyp));
        if !walk.open() {
            return Ok(());
        }
        cache.probe(&[], &mut walk)?;
        if walk.differed || !walk.stuck {
            return Ok(());
        }
    }
    Ok(())
}

/// The longest tour of `hyp`: enough for every two-input word from every state with a travel
/// of a few inputs before each.
fn tour_limit(hyp: &Mealy) -> usize {
    let (n, k) = (hyp.num_states(), hyp.num_inputs());
    3 * n * k * k + n
}

/// L#'s identification query after a new or frontier node's access word: a preset separating
/// word, then an adaptive distinguishing sequence over the candidates (basis nodes), then, if
/// exactly one candidate answered every output so far, along that candidate's deepest known
/// path (its child with the longest word below, input order breaking ties) as far as the tree
/// knows it. The last part is a free test of the node against the candidate it is about to be
/// mapped to: the same query, a few more steps; a difference is a new basis node found
/// without an equivalence query, where L# would otherwise learn it from a counterexample.
struct Identify<'a> {
    fixed: &'a [Symbol],
    ads: Option<&'a Ads>,
    candidates: &'a [NodeId],
    /// Position in `fixed`; the ADS decision node (`None` once it ended); whether the last
    /// input came from the ADS.
    pos: usize,
    at: Option<usize>,
    in_ads: bool,
    /// Each candidate that knows every input so far and answered it as the system did, moved
    /// along.
    alive: Vec<NodeId>,
    /// Inputs left for the last part: the longest word below a candidate when the probe was
    /// made, plus one. A candidate may be an ancestor of the node asked (the root is), and the
    /// query's own answers must not lengthen the path it follows.
    left: u32,
    limit: u32,
}

impl<'a> Identify<'a> {
    fn new(
        cache: &Cache<'_>,
        fixed: &'a [Symbol],
        ads: Option<&'a Ads>,
        candidates: &'a [NodeId],
    ) -> Self {
        let mut probe = Identify {
            fixed,
            ads,
            candidates,
            pos: 0,
            at: None,
            in_ads: false,
            alive: Vec::new(),
            left: 0,
            // One input beyond the deepest known word below a candidate: while the tree knows
            // nothing below the root (the first queries), the walk still tests one input.
            limit: candidates
                .iter()
                .map(|&n| cache.height(n))
                .max()
                .unwrap_or(0)
                + 1,
        };
        probe.restart();
        probe
    }
}

impl Probe for Identify<'_> {
    fn restart(&mut self) {
        self.pos = 0;
        self.at = self.ads.map(|_| Ads::ROOT);
        self.in_ads = false;
        self.alive.clear();
        self.alive.extend_from_slice(self.candidates);
        self.left = self.limit;
    }

    fn next(&mut self, cache: &Cache<'_>, last: Option<(Symbol, OutputId)>) -> Option<Symbol> {
        if let Some((a, o)) = last {
            self.alive.retain_mut(|n| match cache.child(*n, a) {
                Some(c) if cache.output(c) == o => {
                    *n = c;
                    true
                }
                _ => false,
            });
            if self.in_ads {
                self.at = self.at.zip(self.ads).and_then(|(x, ads)| ads.after(x, o));
            }
        }
        if self.pos < self.fixed.len() {
            self.pos += 1;
            return Some(self.fixed[self.pos - 1]);
        }
        if let Some(a) = self.at.zip(self.ads).and_then(|(x, ads)| ads.input(x)) {
            self.in_ads = true;
            return Some(a);
        }
        self.at = None;
        self.in_ads = false;
        let [t] = self.alive[..] else {
            return None;
        };
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // The child with the longest word below (a repeat of the last input last); the first
        // such in input order.
        let mut best: Option<(u32, Symbol)> = None;
        for (a, c) in cache.children(t) {
            // The input just sent again only if nothing else is known: following the deepest
            // path alone walks self-loops, whose long chains (made by earlier probes) test little.
            let h = if last.is_some_and(|(b, _)| b == a) {
                0
            } else {
                cache.height(c) + 1
            };
            if best.is_none_or(|(bh, _)| h > bh) {
                best = Some((h, a));
            }
        }
        best.map(|(_, a)| a)
    }
}

/// Whether `p` and `q` both know some prefix of `w` and answer its last input differently.
fn differs_along(cache: &Cache<'_>, mut p: NodeId, mut q: NodeId, w: &[Symbol]) -> bool {
    for &a in w {
        match (cache.child(p, a), cache.child(q, a)) {
            (Some(pa), Some(qa)) if cache.output(pa) != cache.output(qa) => return true,
            (Some(pa), Some(qa)) => (p, q) = (pa, qa),
            _ => return false,
        }
    }
    false
}

/// The outputs along `w` from `n` and the node reached, if the tree knows `w` from `n`.
fn outputs_along(cache: &Cache<'_>, mut n: NodeId, w: &[Symbol]) -> Option<(Vec<u32>, NodeId)> {
    let mut key = Vec::with_capacity(w.len());
    for &a in w {
        n = cache.child(n, a)?;
        key.push(cache.output(n).index() as u32);
    }
    Some((key, n))
}

/// A longest path below `c` whose last step `f` does not know (following `f` where it can), or
/// the empty word if `f` knows everything `c` does.
fn deepest_untested(cache: &Cache<'_>, c: NodeId, f: NodeId) -> Word {
    // Depth-first over c's subtree beside f's; keep the deepest path leaving f's tree.
    let mut best: Word = Vec::new();
    let mut stack: Vec<(NodeId, Option<NodeId>, Word)> = vec![(c, Some(f), Vec::new())];
    while let Some((x, y, w)) = stack.pop() {
        let mut leaf = true;
        for (a, cx) in cache.children(x) {
            leaf = false;
            let cy = y.and_then(|y| cache.child(y, a));
            let mut wa = w.clone();
            wa.push(a);
            stack.push((cx, cy, wa));
        }
        if leaf && y.is_none() && w.len() > best.len() {
            best = w;
        }
    }
    best
}

/// Whether `p` and `q` are apart, given that they were not at version `since` (0: never
/// compared). A word known from both with different outputs that was not found then ends in a
/// node stored later, so the search skips every pair of nodes neither of which has grown since
/// (their common subtrees were compared then): after an equivalence query, which adds its
/// tests below every state, this is a search of the new tests only, not of the whole suite.
/// `stack` is scratch space (one allocation for all checks rather than one per pair).
fn apart_since(
    cache: &Cache<'_>,
    p: NodeId,
    q: NodeId,
    since: u32,
    stack: &mut Vec<(NodeId, NodeId)>,
) -> bool {
    cache.apart_since(p, q, since, stack)
}

/// A shortest word known from both `p` and `q` with different outputs, if any.
#[allow(clippy::many_single_char_names)] // p, q, x, y: nodes
pub(crate) fn witness(cache: &Cache<'_>, p: NodeId, q: NodeId) -> Option<Word> {
    if p == q {
        return None;
    }
    // Breadth-first over pairs of nodes reached by the same word; parents for spelling.
    let mut queue: Vec<(NodeId, NodeId, usize, Symbol)> = vec![(p, q, usize::MAX, Symbol::new(0))];
    let mut i = 0;
    while i < queue.len() {
        let (x, y, _, _) = queue[i];
        for (a, cx) in cache.children(x) {
            if let Some(cy) = cache.child(y, a) {
                if cache.output(cx) != cache.output(cy) {
                    let mut w = vec![a];
                    let mut j = i;
                    while queue[j].2 != usize::MAX {
                        w.push(queue[j].3);
                        j = queue[j].2;
                    }
                    w.reverse();
                    return Some(w);
                }
                queue.push((cx, cy, i, a));
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::mealy::{Mealy, Simulated};

    /// A machine of `n` states over 2 inputs and 2 outputs from a table of (target, output).
    fn machine(n: usize, table: &[(usize, usize)]) -> Mealy {
        let mut m = Mealy::new(["a", "b"]);
        for _ in 1..n {
            m.add_state();
        }
        for (i, &(to, out)) in table.iter().take(2 * n).enumerate() {
            m.set_transition(
                StateId::new(i / 2),
                Symbol::new(i % 2),
                StateId::new(to % n),
                &format!("o{}", out % 2),
            );
        }
        m
    }

    /// Naive apartness: some word below both `p` and `q`, listed from `p`'s subtree, is answered
    /// differently at its last input.
    fn naive_apart(cache: &Cache<'_>, p: NodeId, q: NodeId) -> bool {
        let mut todo = vec![(p, Vec::new())];
        while let Some((n, w)) = todo.pop() {
            for (a, c) in cache.children(n) {
                let mut wa: Word = w.clone();
                wa.push(a);
                if let Some(d) = cache.walk(q, &wa)
                    && cache.output(c) != cache.output(d)
                {
                    return true;
                }
                todo.push((c, wa));
            }
        }
        false
    }

    fn words() -> impl Strategy<Value = Vec<Vec<u8>>> {
        proptest::collection::vec(proptest::collection::vec(0u8..2, 0..7), 1..12)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The incremental check agrees with a naive search, both from scratch and after more
        /// answers were stored below nodes that were not apart before.
        #[test]
        fn apart_since_agrees_with_a_naive_search(
            n in 1usize..5,
            table in proptest::collection::vec((0usize..5, 0usize..2), 8),
            first in words(),
            second in words(),
        ) {
            let target = machine(n, &table);
            let mut cache = Cache::new(Simulated::new(&target), target.input_names());
            let ask = |cache: &mut Cache<'_>, ws: &[Vec<u8>]| {
                for w in ws {
                    let w: Word = w.iter().map(|&a| Symbol::new(usize::from(a))).collect();
                    cache.ensure(&w).unwrap();
                }
            };
            ask(&mut cache, &first);
            let mut nodes = vec![NodeId::ROOT];
            let mut i = 0;
            while i < nodes.len() {
                nodes.extend(cache.children(nodes[i]).map(|(_, c)| c));
                i += 1;
            }
            prop_assert_eq!(nodes.len(), cache.num_known());
            let mut not_apart = Vec::new();
            for &p in &nodes {
                for &q in &nodes {
                    let apart = naive_apart(&cache, p, q);
                    prop_assert_eq!(apart_since(&cache, p, q, 0, &mut Vec::new()), apart);
                    prop_assert_eq!(witness(&cache, p, q).is_some(), apart);
                    if !apart {
                        not_apart.push((p, q));
                    }
                }
            }
            let since = cache.version();
            ask(&mut cache, &second);
            for (p, q) in not_apart {
                prop_assert_eq!(
                    apart_since(&cache, p, q, since, &mut Vec::new()),
                    naive_apart(&cache, p, q)
                );
            }
        }
    }
}
