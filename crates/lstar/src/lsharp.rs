//! L#, the second learning engine behind [`Learner`](crate::Learner): active learning by
//! apartness (Vaandrager, Garhewal, Rot and Wissmann, "A New Approach for Active Automata Learning
//! Based on Apartness", TACAS 2022), selected with
//! [`LearnerKind::LSharp`](crate::LearnerKind::LSharp).
//!
//! **Why a second engine.** L* asks every row of its table about every column; most of those
//! answers only confirm what is already known. L# keeps no table: it keeps the *observation tree*
//! (every answer the teacher gave, which is this crate's membership [`Cache`]) and asks only what
//! tells two states apart. Two nodes of the tree are *apart* when some suffix leads both to known
//! answers that differ (that suffix is the *witness*); apartness never has to be revised, since
//! answers are never taken back.
//!
//! **The state of the learner.** The *basis* is a set of tree nodes that are pairwise apart (the
//! states of the hypothesis, the root first); the *frontier* is the one-symbol extensions of basis
//! nodes that are not in the basis. Each frontier node keeps its *candidates*, the basis nodes it
//! is not apart from. The rules of the paper, applied in this order:
//! - **promotion**: a frontier node apart from every basis node joins the basis, and its
//!   one-symbol extensions join the frontier;
//! - **extension**: the answer of every frontier node is asked (one batch);
//! - **separation**: a frontier node with two or more candidates is asked about one suffix that
//!   tells some of them apart; of the witnesses between its candidates, the one whose known answers
//!   split the candidates most evenly is taken (the bit-query reading of the paper's adaptive
//!   distinguishing sequences: one query of a balanced decision tree over the candidates). Every
//!   frontier node that needs it gets one such query per batch;
//! - **verification** (ours, not the paper's): a frontier node with one candidate is asked about
//!   a few words its candidate has answers for and it has not (the shortest first), 3 before the
//!   first hypothesis and one more after each, up to 6;
//! - **equivalence**: when every frontier node has one candidate, the hypothesis maps it there.
//!   A hypothesis that contradicts a known answer gives a counterexample without the teacher.
//!
//! **Why verification.** The paper's queries return a whole output word; a one-bit membership
//! query (the default [`Teacher`](crate::Teacher)) returns one bit. A separating query then always agrees with one of the two candidates it
//! separates, so separation alone never shows a frontier node apart from *all* basis nodes: every
//! new state would cost an equivalence query (on the harness DFAs of `benches/compare/lstar`,
//! one hypothesis per state). Testing the last candidate on words it has answers for finds most
//! new states without the teacher: on those DFAs the equivalence queries fall from about one per
//! state to fewer than L* with Rivest-Schapire asks, for about as many membership queries
//! (docs/benchmarks/notebook/lstar.md, "L# beside L*").
//!
//! **Step-wise answers** ([`Learner::set_prefix_answers`](crate::Learner::set_prefix_answers),
//! [`Learner::answer_prefixes`](crate::Learner::answer_prefixes)). A teacher that runs its
//! system symbol by symbol answers a word with the acceptance of each of its prefixes, for one
//! query: the output word of the paper's Mealy-machine L#, acceptance bits being the outputs.
//! Every one of those answers goes into the tree, and the queries change to use them:
//! - a new frontier node is not asked its own answer alone: it is asked its separating word at
//!   once (its answer comes first among the prefixes; AALpy's `SepSeq` extension rule);
//! - the separating word is a *preset distinguishing sequence* built greedily
//!   ([`LSharp::sequence`]): the witness whose prefixes' known answers at the candidates split them
//!   best (smallest expected number of candidates left), extended symbol by symbol while that
//!   lowers it further; then, since a longer word costs no more queries, run on along the tree
//!   below a candidate of the largest group to a leaf: those answers test the node as
//!   verification does, for free (AALpy's adaptive sequences choose each letter from the last
//!   output; a sans-IO batch of words cannot, so the word is fixed in advance);
//! - verification asks a test word only once 8 hypotheses have been refuted (one per frontier
//!   node and candidate, run on to a leaf), since separation already tests;
//! - a word of a batch that is a prefix of another word of the batch is not sent, and no word
//!   whose answer is in the tree is.
//!
//! On the harness DFAs this asks at most as many membership queries as AALpy's L# on all 24 (72 %
//! of its total), and at most as many equivalence queries as AALpy's L*-RS on 23
//! (docs/benchmarks.md, "L# versus AALpy").
//!
//! **Counterexamples** are processed as the paper's `ProcCounterEx`: with `x` a word whose tree
//! node is apart from the basis state the hypothesis reaches by `x` (witness `eta`), binary search
//! on the part of `x` beyond the frontier replaces a prefix by its hypothesis state's access word
//! or keeps the prefix with a longer witness, one membership query a step, until `x` is a frontier
//! node: that node then loses its only candidate, and the next round promotes it.
//!
//! **Sans-IO.** As the L* engine, every phase is restartable: it runs against the cache and stops
//! where an answer is missing, writing the words it needs; when they are answered it runs again.
//! In prefix-closed mode the cache's inference applies (a word with a rejected prefix is rejected,
//! a prefix of an accepted word accepted), and the tree has at most one rejecting basis node, so
//! hypotheses are prefix-closed with one rejecting sink, as the assume-guarantee rules need.

use rustc_hash::FxHashMap;

use crate::cache::{Cache, Probe};
use crate::config::{LearnerConfig, Stats};
use crate::dfa::{Dfa, Symbol, Word};
use crate::error::LstarError;
use crate::queries::{Queries, Step};

/// At most this many witnesses are scored when choosing a separating query: enough for a good
/// split, few enough that a frontier node with hundreds of candidates costs little.
const MAX_SEPARATORS: usize = 48;

/// Test words an identified frontier node answers before the first hypothesis; one more after
/// each hypothesis, up to [`MAX_TESTS`]. See the module docs, "Verification".
const FIRST_TESTS: usize = 3;
/// At most this many test words per frontier node and candidate.
const MAX_TESTS: usize = 6;
/// Step-wise answers: separating queries run on to a leaf of the tree and so test as they
/// separate, and a round of test words (one per frontier node and candidate, to a leaf) starts
/// only after this many equivalence queries. On the harness DFAs this is where the queries the
/// tests cost and the equivalence queries they save balance (lab notes: the 2026-11-26 entry of
/// docs/benchmarks/notebook/lstar.md).
const STEP_TESTS_AFTER: u64 = 8;

/// What a tree node is for the learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Basis node number `i` (hypothesis state `i`).
    Basis(u32),
    /// Frontier node number `i`.
    Frontier(u32),
}

/// One frontier node.
#[derive(Clone, Debug)]
struct Frontier {
    /// Its cache node.
    node: u32,
    /// The basis node it extends and the symbol.
    from: u32,
    symbol: Symbol,
    /// Basis nodes it is not known to be apart from, in basis order.
    candidates: Vec<u32>,
    /// Promoted to the basis (kept so frontier numbers stay stable).
    promoted: bool,
    /// The candidate it was last tested against (see [`LSharp::explore`]'s verification) and the
    /// number of test words asked for it.
    tested: (u32, u32),
}

/// Where the learner is.
#[derive(Clone, Debug)]
enum Phase {
    /// Applying promotion, extension and separation until the frontier is identified.
    Explore,
    /// A hypothesis is out; waiting for a counterexample.
    Offered,
    /// The teacher's counterexample, whose answer may still be needed.
    Counterexample(Word),
    /// `ProcCounterEx`: the node of `x` is apart, by witness `eta`, from the basis node of the
    /// hypothesis state reached by `x`.
    Process { x: Word, eta: Word },
}

/// The result of running a phase against the cache.
enum Progress {
    Done,
    /// The pending queries have been written.
    Need,
    /// One word not yet in the cache.
    NeedOne(Word),
}

/// One pair of the apartness search: nodes of the two subtrees reached by the same word, the
/// queue index of the pair it came from and the symbol leading here.
#[derive(Clone, Copy, Debug)]
struct Pair {
    x: u32,
    y: u32,
    from: u32,
    symbol: Symbol,
}

/// The L# learner over the symbols `0..k`; driven through [`Learner`](crate::Learner).
#[derive(Clone, Debug)]
pub(crate) struct LSharp {
    k: usize,
    config: LearnerConfig,
    cache: Cache,
    stats: Stats,
    pending: Queries,
    /// The cache node of each pending word.
    pending_nodes: Vec<u32>,
    phase: Phase,
    hypothesis: Option<Dfa>,
    /// Basis nodes in promotion order; basis node `i` is hypothesis state `i`.
    basis: Vec<u32>,
    /// `succ[b * k + a]`: what the `a`-child of basis node `b` is.
    succ: Vec<Role>,
    frontier: Vec<Frontier>,
    /// The role of every basis and frontier node, by cache node.
    role: FxHashMap<u32, Role>,
    /// A shortest known witness of every pair of basis nodes asked for, keyed (smaller, larger).
    witnesses: FxHashMap<(u32, u32), Word>,
    /// The apartness search's queue, reused.
    queue: Vec<Pair>,
    /// Whether queries are answered step-wise (see [`LSharp::set_prefix_answers`]).
    prefixes: bool,
    /// Nodes of words [`LSharp::drop_covered`] took out of the pending batch: still marked
    /// pending, answered with the longer words, or forgotten if the answers come one-bit.
    covered: Vec<u32>,
}

impl LSharp {
    /// A learner over `k` symbols.
    pub(crate) fn new(k: usize, config: LearnerConfig) -> Self {
        let mut learner = Self {
            k,
            cache: Cache::new(k, config.prefix_closed),
            config,
            stats: Stats::default(),
            pending: Queries::with_capacity(256),
            pending_nodes: Vec::with_capacity(256),
            phase: Phase::Explore,
            hypothesis: None,
            basis: Vec::new(),
            succ: Vec::new(),
            frontier: Vec::new(),
            role: FxHashMap::default(),
            witnesses: FxHashMap::default(),
            queue: Vec::new(),
            prefixes: false,
            covered: Vec::new(),
        };
        learner.add_basis(0);
        learner
    }

    pub(crate) fn num_symbols(&self) -> usize {
        self.k
    }

    pub(crate) fn config(&self) -> &LearnerConfig {
        &self.config
    }

    pub(crate) fn stats(&self) -> &Stats {
        &self.stats
    }

    pub(crate) fn hypothesis(&self) -> Option<&Dfa> {
        self.hypothesis.as_ref()
    }

    pub(crate) fn known(&self, w: &[Symbol]) -> Option<bool> {
        self.cache.lookup(w).map(|k| k.accepted)
    }

    /// See [`Learner::set_prefix_answers`](crate::Learner::set_prefix_answers).
    pub(crate) fn set_prefix_answers(&mut self, on: bool) {
        self.prefixes = on;
    }

    /// See [`Learner::step`](crate::Learner::step).
    pub(crate) fn step(&mut self) -> Result<Step<'_>, LstarError> {
        loop {
            if !self.pending.is_empty() {
                if self.prefixes {
                    self.drop_covered();
                }
                return Ok(Step::Queries(&self.pending));
            }
            match std::mem::replace(&mut self.phase, Phase::Explore) {
                Phase::Offered => {
                    self.phase = Phase::Offered;
                    let h = self.hypothesis.as_ref().ok_or(LstarError::NoHypothesis)?;
                    return Ok(Step::Hypothesis(h));
                }
                Phase::Explore => match self.explore()? {
                    Progress::Done => self.conjecture()?,
                    need => self.request(need)?,
                },
                Phase::Counterexample(w) => match self.check_counterexample(&w)? {
                    Some(need) => {
                        self.phase = Phase::Counterexample(w);
                        self.request(need)?;
                    }
                    None => {
                        self.phase = Phase::Process {
                            x: w,
                            eta: Word::new(),
                        };
                    }
                },
                Phase::Process { mut x, mut eta } => match self.process(&mut x, &mut eta)? {
                    Progress::Done => {}
                    need => {
                        self.phase = Phase::Process { x, eta };
                        self.request(need)?;
                    }
                },
            }
        }
    }

    /// See [`Learner::answer`](crate::Learner::answer).
    pub(crate) fn answer(&mut self, answers: &[bool]) -> Result<(), LstarError> {
        if answers.len() != self.pending.len() || answers.is_empty() {
            return Err(LstarError::AnswerCount {
                expected: self.pending.len(),
                found: answers.len(),
            });
        }
        for (&node, &a) in self.pending_nodes.iter().zip(answers) {
            self.cache.insert_at(node, a)?;
        }
        // One-bit answers to a batch thinned for step-wise answers: the words dropped from it are
        // still unanswered; unmark them so that they are asked again.
        for node in self.covered.drain(..) {
            self.cache.forget_pending(node);
        }
        self.stats.membership_queries += answers.len() as u64;
        self.stats.symbols += self.pending.total_symbols() as u64;
        self.pending.clear();
        self.pending_nodes.clear();
        Ok(())
    }

    /// See [`Learner::answer_prefixes`](crate::Learner::answer_prefixes).
    pub(crate) fn answer_prefixes(&mut self, answers: &[bool]) -> Result<(), LstarError> {
        let expected = self.pending.len() + self.pending.total_symbols();
        if answers.len() != expected || answers.is_empty() {
            return Err(LstarError::AnswerCount {
                expected,
                found: answers.len(),
            });
        }
        let mut start = 0;
        for (w, &node) in self.pending.iter().zip(&self.pending_nodes) {
            let end = start + w.len() + 1;
            self.cache.insert_prefixes(node, &answers[start..end])?;
            start = end;
        }
        // Each dropped word was a prefix of a word sent: answered now.
        self.covered.clear();
        self.stats.membership_queries += self.pending.len() as u64;
        self.stats.symbols += self.pending.total_symbols() as u64;
        self.pending.clear();
        self.pending_nodes.clear();
        Ok(())
    }

    /// Step-wise answers: drops from the pending batch every word that is a prefix of another
    /// pending word, whose answer comes with the longer word's (it stays marked pending in the
    /// cache until then). Sending it too would cost a query and tell nothing.
    fn drop_covered(&mut self) {
        if self.pending.len() < 2 {
            return;
        }
        let pending: rustc_hash::FxHashSet<u32> = self.pending_nodes.iter().copied().collect();
        let mut covered = rustc_hash::FxHashSet::default();
        for &node in &self.pending_nodes {
            let mut up = node as usize;
            while up != 0 {
                up = self.cache.parent(up);
                if pending.contains(&(up as u32)) {
                    covered.insert(up as u32);
                }
            }
        }
        if covered.is_empty() {
            return;
        }
        let (words, nodes) = (
            std::mem::take(&mut self.pending),
            std::mem::take(&mut self.pending_nodes),
        );
        for (w, node) in words.iter().zip(nodes) {
            if covered.contains(&node) {
                self.covered.push(node);
            } else {
                self.pending.push(w.iter().copied());
                self.pending_nodes.push(node);
            }
        }
    }

    /// See [`Learner::counterexample`](crate::Learner::counterexample).
    pub(crate) fn counterexample(&mut self, word: Word) -> Result<(), LstarError> {
        if !matches!(self.phase, Phase::Offered) {
            return Err(LstarError::NoHypothesis);
        }
        if let Some(a) = word.iter().find(|a| a.index() >= self.k) {
            return Err(LstarError::SymbolOutOfRange {
                symbol: a.index(),
                num_symbols: self.k,
            });
        }
        self.phase = Phase::Counterexample(word);
        Ok(())
    }

    /// Hands the needed words out as membership queries, within the query budget.
    fn request(&mut self, need: Progress) -> Result<(), LstarError> {
        if let Progress::NeedOne(word) = need {
            let node = self.cache.node(&word);
            self.pending.push(word);
            self.pending_nodes.push(node);
        }
        if let Some(limit) = self.config.max_membership_queries
            && self.stats.membership_queries + self.pending.len() as u64 > limit
        {
            return Err(LstarError::QueryLimit { limit });
        }
        Ok(())
    }

    /// Adds cache node `node` to the basis, its one-symbol extensions to the frontier, and the new
    /// basis node to every frontier node's candidates.
    fn add_basis(&mut self, node: u32) {
        let b = self.basis.len() as u32;
        self.basis.push(node);
        self.role.insert(node, Role::Basis(b));
        for f in self.frontier.iter_mut().filter(|f| !f.promoted) {
            f.candidates.push(b);
        }
        for a in Symbol::all(self.k) {
            let child = self.cache.child_or_insert(node as usize, a) as u32;
            let i = self.frontier.len() as u32;
            self.frontier.push(Frontier {
                node: child,
                from: b,
                symbol: a,
                candidates: (0..=b).collect(),
                promoted: false,
                tested: (u32::MAX, 0),
            });
            self.role.insert(child, Role::Frontier(i));
            self.succ.push(Role::Frontier(i));
        }
    }

    /// Promotes frontier node `i` to the basis.
    fn promote(&mut self, i: usize) {
        let f = &mut self.frontier[i];
        f.promoted = true;
        f.candidates.clear();
        let (node, slot) = (f.node, f.from as usize * self.k + f.symbol.index());
        self.succ[slot] = Role::Basis(self.basis.len() as u32);
        self.add_basis(node);
    }

    /// Marks the word of `start` followed by `w` for asking unless it is known or already asked;
    /// returns whether it was known.
    fn probe(&mut self, start: u32, w: &[Symbol]) -> bool {
        match self.cache.probe_from(start, w.iter().copied()) {
            Probe::Known(k) => {
                self.stats.lookups += 1;
                self.stats.inferred += u64::from(k.inferred);
                true
            }
            Probe::Pending(_) => false,
            Probe::Fresh(node) => {
                let mut word = self.cache.spell(start as usize);
                word.extend_from_slice(w);
                self.pending.push(word);
                self.pending_nodes.push(node);
                false
            }
        }
    }

    /// Promotion, extension and separation until every frontier node has one candidate, as far as
    /// the cache allows.
    fn explore(&mut self) -> Result<Progress, LstarError> {
        loop {
            // Extension: the answers of the root (alone, so that in prefix-closed mode a rejected
            // root settles everything) and of every frontier node.
            if !self.probe(0, &[]) {
                return Ok(Progress::Need);
            }
            for i in 0..self.frontier.len() {
                let f = &self.frontier[i];
                if f.promoted {
                    continue;
                }
                let (from, a, node) = (self.basis[f.from as usize], f.symbol, f.node);
                if self.prefixes
                    && f.candidates.len() > 1
                    && answer(&self.cache, node as usize).is_none()
                    && !self.cache.is_pending(node)
                {
                    // Step-wise, the node's answer comes with any word through it: ask its
                    // separating suffix at once (AALpy's "SepSeq" extension rule), so extension
                    // and the first separation cost one query.
                    let sigma = self.separator(i);
                    if !sigma.is_empty() && !self.probe(node, &sigma) {
                        continue;
                    }
                }
                self.probe(from, &[a]);
            }
            if !self.pending.is_empty() {
                return Ok(Progress::Need);
            }
            self.refresh();
            // Promotion, one node at a time: the next one may not be apart from this one.
            if let Some(i) = self
                .frontier
                .iter()
                .position(|f| !f.promoted && f.candidates.is_empty())
            {
                self.promote(i);
                continue;
            }
            // Separation: one query for every frontier node with two or more candidates.
            let mut separated = false;
            for i in 0..self.frontier.len() {
                if self.frontier[i].promoted || self.frontier[i].candidates.len() < 2 {
                    continue;
                }
                let sigma = self.separator(i);
                let node = self.frontier[i].node;
                if self.probe(node, &sigma) {
                    // Known already: the next refresh removes a candidate.
                    separated = true;
                }
            }
            if !self.pending.is_empty() {
                return Ok(Progress::Need);
            }
            if !separated {
                self.verify();
                if !self.pending.is_empty() {
                    return Ok(Progress::Need);
                }
                self.refresh();
                if self
                    .frontier
                    .iter()
                    .any(|f| !f.promoted && f.candidates.len() != 1)
                {
                    continue;
                }
                return Ok(Progress::Done);
            }
            // A known answer that separates: the refresh must now drop a candidate.
            let before = self.num_candidates();
            self.refresh();
            if self.num_candidates() == before {
                return Err(LstarError::InconsistentAnswers { word: Vec::new() });
            }
        }
    }

    /// The number of candidates over the frontier.
    /// Verification: identified frontier nodes answer test words (see
    /// [`LSharp::verification_round`] for how many), each word probed below the node.
    fn verify(&mut self) {
        let (tests, most) = self.verification_round();
        let order: Vec<usize> = if most < usize::MAX {
            (0..self.frontier.len()).rev().collect()
        } else {
            (0..self.frontier.len()).collect()
        };
        let mut left = most;
        for i in order {
            if self.frontier[i].promoted || self.frontier[i].candidates.len() != 1 {
                continue;
            }
            if left == 0 {
                break;
            }
            left -= 1;
            let q = self.frontier[i].candidates[0];
            let node = self.frontier[i].node;
            if self.frontier[i].tested.0 != q {
                self.frontier[i].tested = (q, 0);
            }
            while (self.frontier[i].tested.1 as usize) < tests {
                let mut queue = std::mem::take(&mut self.queue);
                let test = untested(&self.cache, self.basis[q as usize], node, &mut queue);
                let w = test.map(|i| {
                    if self.prefixes {
                        leaf(&self.cache, &queue, i)
                    } else {
                        spell(&queue, i)
                    }
                });
                self.queue = queue;
                let Some(w) = w else { break };
                self.probe(node, &w);
                self.frontier[i].tested.1 += 1;
            }
        }
    }

    /// How many test words each identified frontier node answers in this round of verification,
    /// and at most how many nodes answer them (newest first when limited).
    ///
    /// One-bit answers: [`FIRST_TESTS`], one more per hypothesis, up to [`MAX_TESTS`], every node.
    /// Step-wise answers: one word per node from the [`STEP_TESTS_AFTER`]th equivalence query on.
    /// Before that, in prefix-closed mode only, a round for the newest `k` nodes whenever the last
    /// hypothesis grew by a single state: the sign that counterexamples have started to buy one
    /// state each, which a few test words buy cheaper. In plain mode the same round cost more
    /// membership queries than it saved equivalence queries on the harness DFAs (notebook
    /// lstar.md, "Step-wise answers for L#").
    fn verification_round(&self) -> (usize, usize) {
        if !self.prefixes {
            let tests = (FIRST_TESTS + self.stats.equivalence_queries as usize).min(MAX_TESTS);
            return (tests, usize::MAX);
        }
        if self.stats.equivalence_queries >= STEP_TESTS_AFTER {
            return (1, usize::MAX);
        }
        let crept = matches!(self.stats.hypothesis_sizes.as_slice(), [.., a, b] if *b == *a + 1);
        if self.config.prefix_closed && crept {
            (1, self.k)
        } else {
            (0, usize::MAX)
        }
    }

    fn num_candidates(&self) -> usize {
        self.frontier.iter().map(|f| f.candidates.len()).sum()
    }

    /// Drops from every frontier node's candidates the basis nodes it is now apart from.
    fn refresh(&mut self) {
        let mut queue = std::mem::take(&mut self.queue);
        for f in &mut self.frontier {
            if f.promoted {
                continue;
            }
            let node = f.node;
            f.candidates.retain(|&b| {
                apart(&self.cache, node, self.basis[b as usize], &mut queue).is_none()
            });
        }
        self.queue = queue;
    }

    /// A shortest witness of basis nodes `b` and `c` (which are apart), remembered.
    fn witness(&mut self, b: u32, c: u32) -> Word {
        let key = (b.min(c), b.max(c));
        if let Some(w) = self.witnesses.get(&key) {
            return w.clone();
        }
        let mut queue = std::mem::take(&mut self.queue);
        let (first, second) = (self.basis[key.0 as usize], self.basis[key.1 as usize]);
        let found = apart(&self.cache, first, second, &mut queue)
            .map(|i| spell(&queue, i))
            .unwrap_or_default();
        self.queue = queue;
        self.witnesses.insert(key, found.clone());
        found
    }

    /// The suffix to ask frontier node `i` about: of the witnesses between its first candidate and
    /// the others, the one whose known answers at the candidates split them most evenly (ties: the
    /// shorter, then the first found).
    fn separator(&mut self, i: usize) -> Word {
        if self.prefixes
            && let Some(w) = self.sequence(i)
        {
            return w;
        }
        let candidates = std::mem::take(&mut self.frontier[i].candidates);
        let first = candidates[0];
        let mut words: Vec<Word> = Vec::new();
        for &c in candidates[1..].iter().take(MAX_SEPARATORS) {
            let w = self.witness(first, c);
            if !words.contains(&w) {
                words.push(w);
            }
        }
        let mut best: Option<(usize, usize, usize)> = None;
        for (j, w) in words.iter().enumerate() {
            let score = self.split(&candidates, w);
            let better = best.is_none_or(|(s, len, _)| score > s || score == s && w.len() < len);
            if better {
                best = Some((score, w.len(), j));
            }
        }
        self.frontier[i].candidates = candidates;
        best.map(|(_, _, j)| words.swap_remove(j))
            .unwrap_or_default()
    }

    /// Step-wise answers: the suffix to ask frontier node `i` about, chosen for the answers of all
    /// its prefixes (a preset distinguishing sequence, built greedily): the witness between its
    /// first candidate and another whose prefixes' known answers at the candidates split them best,
    /// then extended symbol by symbol while an extension splits them better; or the empty word
    /// extended the same way, if that ends better. `None` when nothing splits the candidates into
    /// two groups, or the word is known already (the one-bit choice then applies).
    ///
    /// "Better" is a smaller [`Groups::cost`]: the expected number of candidates left after the
    /// answers come, if the node is equally likely to be any candidate.
    fn sequence(&mut self, i: usize) -> Option<Word> {
        let candidates = std::mem::take(&mut self.frontier[i].candidates);
        let first = candidates[0];
        let mut seeds: Vec<Word> = Vec::new();
        for &c in candidates[1..].iter().take(MAX_SEPARATORS) {
            let w = self.witness(first, c);
            if !seeds.contains(&w) {
                seeds.push(w);
            }
        }
        let mut groups = Groups::default();
        let mut best_seed: Option<(u64, usize)> = None;
        for (j, w) in seeds.iter().enumerate() {
            groups.start(&self.cache, &self.basis, &candidates);
            for &a in w {
                groups.advance(&self.cache, a);
            }
            let cost = groups.cost().0;
            if best_seed.is_none_or(|(c, b)| cost < c || cost == c && w.len() < seeds[b].len()) {
                best_seed = Some((cost, j));
            }
        }
        let mut best: Option<(u64, Word)> = None;
        let seed = best_seed.map(|(_, j)| seeds.swap_remove(j));
        for seed in [Word::new()].into_iter().chain(seed) {
            groups.start(&self.cache, &self.basis, &candidates);
            for &a in &seed {
                groups.advance(&self.cache, a);
            }
            let (w, cost, split) = groups.extend(&self.cache, seed, self.k);
            if split
                && best
                    .as_ref()
                    .is_none_or(|(c, b)| cost < *c || cost == *c && w.len() < b.len())
            {
                best = Some((cost, w));
            }
        }
        self.frontier[i].candidates = candidates;
        let node = self.frontier[i].node as usize;
        let mut w = best?.1;
        // A longer word costs no more queries: rerun the best word to find where the candidates
        // stand, then continue it along the tree below the first candidate of the largest group,
        // to a leaf. Those answers test the node against that candidate, which is what
        // verification does in one-bit mode, for free.
        let candidates = std::mem::take(&mut self.frontier[i].candidates);
        groups.start(&self.cache, &self.basis, &candidates);
        for &a in &w {
            groups.advance(&self.cache, a);
        }
        self.frontier[i].candidates = candidates;
        if let Some(at) = groups.largest() {
            extend_to_leaf(&self.cache, at as usize, &mut w);
        }
        Some(w).filter(|w| self.cache.lookup_from(node, w).is_none())
    }

    /// How well asking `w` splits `candidates` with one-bit answers: the smaller of the numbers of
    /// candidates known to accept and to reject it (whichever the answer, at least that many go).
    fn split(&self, candidates: &[u32], w: &[Symbol]) -> usize {
        let (mut yes, mut no) = (0, 0);
        for &c in candidates {
            match self.cache.lookup_from(self.basis[c as usize] as usize, w) {
                Some(true) => yes += 1,
                Some(false) => no += 1,
                None => {}
            }
        }
        yes.min(no)
    }

    /// Builds the hypothesis of the identified frontier and offers it, or, if it contradicts a
    /// known answer, processes that contradiction at once.
    fn conjecture(&mut self) -> Result<(), LstarError> {
        let n = self.basis.len();
        if let Some(limit) = self.config.max_hypothesis_states
            && n > limit
        {
            return Err(LstarError::HypothesisLimit { limit, states: n });
        }
        let (mut delta, mut accepting) = self
            .hypothesis
            .take()
            .map(Dfa::into_parts)
            .unwrap_or_default();
        delta.clear();
        accepting.clear();
        for &node in &self.basis {
            accepting.push(self.cache.lookup_from(node as usize, &[]) == Some(true));
        }
        for role in &self.succ {
            delta.push(match *role {
                Role::Basis(b) => b,
                Role::Frontier(i) => self.frontier[i as usize].candidates[0],
            });
        }
        let h = Dfa::from_parts(self.k, delta, accepting);
        let free = if self.config.check_known {
            self.cache.first_disagreement(&h)
        } else {
            None
        };
        self.hypothesis = Some(h);
        if let Some(x) = free {
            self.stats.free_counterexamples += 1;
            self.phase = Phase::Process {
                x,
                eta: Word::new(),
            };
            return Ok(());
        }
        if let Some(limit) = self.config.max_rounds
            && self.stats.equivalence_queries as usize >= limit
        {
            return Err(LstarError::RoundLimit { limit });
        }
        self.stats.equivalence_queries += 1;
        self.stats.hypothesis_sizes.push(n);
        self.phase = Phase::Offered;
        Ok(())
    }

    /// Looks the word `head·tail` up, counting the lookup; `Err` carries it when it must be asked.
    fn lookup(&mut self, head: &[Symbol], tail: &[Symbol]) -> Result<bool, Word> {
        match self.cache.lookup_iter(head.iter().chain(tail).copied()) {
            Some(k) => {
                self.stats.lookups += 1;
                self.stats.inferred += u64::from(k.inferred);
                Ok(k.accepted)
            }
            None => Err([head, tail].concat()),
        }
    }

    /// The teacher's counterexample `w`: `None` once its answer is known and it is one, or the
    /// query that is still needed.
    fn check_counterexample(&mut self, w: &[Symbol]) -> Result<Option<Progress>, LstarError> {
        let target = match self.lookup(w, &[]) {
            Ok(t) => t,
            Err(w) => return Ok(Some(Progress::NeedOne(w))),
        };
        let h = self.hypothesis.as_ref().ok_or(LstarError::NoHypothesis)?;
        if target == h.accepts(w) {
            return Err(LstarError::NotACounterexample {
                word: w.iter().map(|a| a.index()).collect(),
            });
        }
        Ok(None)
    }

    /// `ProcCounterEx`, from `x` and `eta` (updated in place, so that it resumes where it stopped).
    fn process(&mut self, x: &mut Word, eta: &mut Word) -> Result<Progress, LstarError> {
        let h = self.hypothesis.take().ok_or(LstarError::NoHypothesis)?;
        let result = self.process_with(&h, x, eta);
        self.hypothesis = Some(h);
        result
    }

    /// [`LSharp::process`] against hypothesis `h`.
    fn process_with(
        &mut self,
        h: &Dfa,
        x: &mut Word,
        eta: &mut Word,
    ) -> Result<Progress, LstarError> {
        loop {
            // The length of the prefix of `x` that leaves the basis (a frontier node).
            let mut node = 0usize;
            let mut rho = None;
            for (i, &a) in x.iter().enumerate() {
                node = self.cache.child_or_insert(node, a);
                if !matches!(self.role.get(&(node as u32)), Some(Role::Basis(_))) {
                    rho = Some(i + 1);
                    break;
                }
            }
            let Some(rho) = rho.filter(|&r| r < x.len()) else {
                // `x` is a basis or frontier node: the apartness shows in its candidates.
                return Ok(Progress::Done);
            };
            let mid = usize::midpoint(rho, x.len());
            let (x1, x2) = x.split_at(mid);
            // `access` reaches the state `x1` reaches, `target` the state `x` reaches.
            let access = self.cache.spell(self.basis[h.run(x1)] as usize);
            let target = self.cache.spell(self.basis[h.run(x)] as usize);
            let via_access = match self.lookup(&[&access[..], x2].concat(), eta) {
                Ok(t) => t,
                Err(w) => return Ok(Progress::NeedOne(w)),
            };
            let at_target = match self.lookup(&target, eta) {
                Ok(t) => t,
                Err(w) => return Ok(Progress::NeedOne(w)),
            };
            if via_access == at_target {
                // x1 is apart from `access` by x2·eta.
                let mut longer = x2.to_vec();
                longer.extend_from_slice(eta);
                *eta = longer;
                x.truncate(mid);
            } else {
                // access·x2 is apart from `target` by eta, as x was.
                let mut shorter = access;
                shorter.extend_from_slice(x2);
                *x = shorter;
            }
        }
    }
}

/// The known answer of cache node `node`, with prefix-closure inference from its ancestors.
fn answer(cache: &Cache, node: usize) -> Option<bool> {
    if let Some(k) = cache.answer_at(node as u32) {
        return Some(k.accepted);
    }
    if cache.prefix_closed() {
        let mut up = node;
        while up != 0 {
            up = cache.parent(up);
            if cache.answer_at(up as u32).is_some_and(|k| !k.accepted) {
                return Some(false);
            }
        }
    }
    None
}

/// Whether nodes `p` and `q` are apart: the queue index (in `queue`) of a pair reached by a
/// shortest witness, first in symbol order, or `None`. Breadth first over the pairs of nodes both
/// subtrees have, walking `p`'s children. In prefix-closed mode a rejected node ends its branch:
/// nothing below it is accepted, and an accepted node on the other side shows at once.
fn apart(cache: &Cache, p: u32, q: u32, queue: &mut Vec<Pair>) -> Option<usize> {
    queue.clear();
    queue.push(Pair {
        x: p,
        y: q,
        from: 0,
        symbol: Symbol::default(),
    });
    let pc = cache.prefix_closed();
    let mut head = 0;
    while let Some(&Pair { x, y, .. }) = queue.get(head) {
        let (ax, ay) = if head == 0 {
            (answer(cache, x as usize), answer(cache, y as usize))
        } else {
            (
                cache.answer_at(x).map(|k| k.accepted),
                cache.answer_at(y).map(|k| k.accepted),
            )
        };
        if let (Some(ax), Some(ay)) = (ax, ay)
            && ax != ay
        {
            return Some(head);
        }
        if !(pc && (ax == Some(false) || ay == Some(false))) {
            for (a, cx) in cache.children(x as usize) {
                if let Some(cy) = cache.child(y as usize, a) {
                    queue.push(Pair {
                        x: cx as u32,
                        y: cy as u32,
                        from: head as u32,
                        symbol: a,
                    });
                }
            }
        }
        head += 1;
    }
    None
}

/// A shortest word (first in symbol order) that basis node `q` has a known answer for and node `f`
/// has not: the queue index of its pair, or `None`. The `y` side of a pair is `u32::MAX` once `f`'s
/// subtree has no node there.
fn untested(cache: &Cache, q: u32, f: u32, queue: &mut Vec<Pair>) -> Option<usize> {
    const NO_NODE: u32 = u32::MAX;
    queue.clear();
    queue.push(Pair {
        x: q,
        y: f,
        from: 0,
        symbol: Symbol::default(),
    });
    let pc = cache.prefix_closed();
    let mut head = 0;
    while let Some(&Pair { x, y, .. }) = queue.get(head) {
        let ax = cache.answer_at(x).map(|k| k.accepted);
        let ay = (y != NO_NODE)
            .then(|| cache.answer_at(y).map(|k| k.accepted))
            .flatten();
        if head > 0 && ax.is_some() && ay.is_none() && (y == NO_NODE || !cache.is_pending(y)) {
            return Some(head);
        }
        if !(pc && (ax == Some(false) || ay == Some(false))) {
            for (a, cx) in cache.children(x as usize) {
                let cy = if y == NO_NODE {
                    None
                } else {
                    cache.child(y as usize, a)
                };
                queue.push(Pair {
                    x: cx as u32,
                    y: cy.map_or(NO_NODE, |c| c as u32),
                    from: head as u32,
                    symbol: a,
                });
            }
        }
        head += 1;
    }
    None
}

/// The candidates of a frontier node walked along a word, grouped by the answers of its prefixes
/// ([`LSharp::sequence`]). Scratch space, reused.
#[derive(Default)]
struct Groups {
    /// Per candidate: its tree node (or [`Groups::UNKNOWN`], [`Groups::DEAD`]) and the answers
    /// so far, one bit per prefix.
    walk: Vec<(u32, u64)>,
    /// A copy of `walk` to try an extension on.
    trial: Vec<(u32, u64)>,
    keys: Vec<u64>,
}

impl Groups {
    /// A prefix without a known answer at this candidate: it cannot be told apart by this word.
    const UNKNOWN: u32 = u32::MAX;
    /// Prefix-closed mode, below a rejected node: every answer is "rejected".
    const DEAD: u32 = u32::MAX - 1;
    /// At most this many symbols: the answers must fit a `u64`.
    const MAX_LEN: usize = 63;

    /// Starts at the basis nodes of `candidates`, with their own answers.
    fn start(&mut self, cache: &Cache, basis: &[u32], candidates: &[u32]) {
        self.walk.clear();
        for &c in candidates {
            let node = basis[c as usize];
            self.walk.push(Self::enter(cache, node, 0));
        }
    }

    /// The entry of a candidate at tree node `node` with the answers `key` before it.
    fn enter(cache: &Cache, node: u32, key: u64) -> (u32, u64) {
        match cache.answer_at(node) {
            None => (Self::UNKNOWN, 0),
            Some(k) if !k.accepted && cache.prefix_closed() => (Self::DEAD, key << 1),
            Some(k) => (node, key << 1 | u64::from(k.accepted)),
        }
    }

    /// Walks every candidate on by `a`.
    fn advance(&mut self, cache: &Cache, a: Symbol) {
        Self::step(&mut self.walk, cache, a);
    }

    fn step(walk: &mut [(u32, u64)], cache: &Cache, a: Symbol) {
        for entry in walk {
            *entry = match *entry {
                (Self::UNKNOWN, _) => (Self::UNKNOWN, 0),
                (Self::DEAD, key) => (Self::DEAD, key << 1),
                (node, key) => match cache.child(node as usize, a) {
                    Some(c) => Self::enter(cache, c as u32, key),
                    None => (Self::UNKNOWN, 0),
                },
            };
        }
    }

    /// The cost of the grouping (times the number of candidates, to stay an integer): the sum of
    /// the squared group sizes, plus the number of candidates for each candidate with an unknown
    /// answer (it stays, whatever the answers), and whether there are two groups or more.
    fn cost(&mut self) -> (u64, bool) {
        Self::cost_of(&self.walk, &mut self.keys)
    }

    fn cost_of(walk: &[(u32, u64)], keys: &mut Vec<u64>) -> (u64, bool) {
        keys.clear();
        keys.extend(walk.iter().filter(|e| e.0 != Self::UNKNOWN).map(|e| e.1));
        keys.sort_unstable();
        let unknown = (walk.len() - keys.len()) as u64;
        let mut cost = unknown * walk.len() as u64;
        let mut groups = 0;
        for g in keys.chunk_by(|a, b| a == b) {
            cost += (g.len() * g.len()) as u64;
            groups += 1;
        }
        (cost, groups > 1)
    }

    /// The tree node of the first candidate of the largest group, if one has a node.
    fn largest(&mut self) -> Option<u32> {
        let known = |e: &&(u32, u64)| e.0 != Self::UNKNOWN && e.0 != Self::DEAD;
        self.keys.clear();
        self.keys
            .extend(self.walk.iter().filter(known).map(|e| e.1));
        self.keys.sort_unstable();
        let key = self.keys.chunk_by(|a, b| a == b).max_by_key(|g| g.len())?[0];
        self.walk
            .iter()
            .filter(known)
            .find(|e| e.1 == key)
            .map(|e| e.0)
    }

    /// Extends `w` (the word walked so far) one symbol at a time, the symbol that lowers the cost
    /// most, while one does; returns the word, its cost and whether it splits the candidates.
    fn extend(&mut self, cache: &Cache, mut w: Word, k: usize) -> (Word, u64, bool) {
        let (mut cost, mut split) = self.cost();
        while w.len() < Self::MAX_LEN {
            let mut best: Option<(u64, bool, Symbol)> = None;
            for a in Symbol::all(k) {
                self.trial.clone_from(&self.walk);
                Self::step(&mut self.trial, cache, a);
                let (c, s) = Self::cost_of(&self.trial, &mut self.keys);
                if c < best.map_or(cost, |b| b.0) {
                    best = Some((c, s, a));
                }
            }
            if let Some((c, s, a)) = best {
                self.advance(cache, a);
                w.push(a);
                (cost, split) = (c, s);
                continue;
            }
            break;
        }
        (w, cost, split)
    }
}

/// Step-wise tests: the word of queue entry `i` of [`untested`], extended down the basis side's
/// subtree (first child in symbol order with an answer) to a node with no answered child. Its
/// answers test every node on the way, for the one query the shortest word would cost.
fn leaf(cache: &Cache, queue: &[Pair], i: usize) -> Word {
    let mut w = spell(queue, i);
    extend_to_leaf(cache, queue[i].x as usize, &mut w);
    w
}

/// Extends `w` along the tree from node `x`, the first child in symbol order with an answer at
/// each step, to a node with no answered child (or, prefix-closed, a rejected one).
fn extend_to_leaf(cache: &Cache, mut x: usize, w: &mut Word) {
    let pc = cache.prefix_closed();
    loop {
        if pc && cache.answer_at(x as u32).is_some_and(|k| !k.accepted) {
            break;
        }
        let next = cache
            .children(x)
            .find(|&(_, c)| cache.answer_at(c as u32).is_some());
        let Some((a, c)) = next else { break };
        w.push(a);
        x = c;
    }
}

/// The word leading from the start pair to queue entry `i`.
fn spell(queue: &[Pair], mut i: usize) -> Word {
    let mut w = Word::new();
    while i != 0 {
        w.push(queue[i].symbol);
        i = queue[i].from as usize;
    }
    w.reverse();
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::word;

    /// Runs `learner` against `target` with shortest counterexamples; returns the learned DFA.
    fn run(learner: &mut LSharp, target: &Dfa) -> Dfa {
        loop {
            match learner.step().unwrap() {
                Step::Queries(ws) => {
                    let answers: Vec<bool> = ws.iter().map(|w| target.accepts(w)).collect();
                    learner.answer(&answers).unwrap();
                }
                Step::Hypothesis(h) => match h.shortest_difference(target) {
                    None => return h.clone(),
                    Some(w) => learner.counterexample(w).unwrap(),
                },
            }
        }
    }

    /// Words over {0, 1} whose number of 0s is divisible by `n`.
    fn counter(n: usize) -> Dfa {
        let delta = (0..n).map(|q| vec![(q + 1) % n, q]).collect();
        Dfa::new(2, delta, (0..n).map(|q| q == 0).collect()).unwrap()
    }

    #[test]
    fn apartness_has_a_shortest_witness() {
        let mut cache = Cache::new(2, false);
        // Node "0" and node "1": both accept, "0·1" rejects and "1·1" accepts.
        for (w, a) in [
            (&[0][..], true),
            (&[1], true),
            (&[0, 1], false),
            (&[1, 1], true),
        ] {
            cache.insert(&word(w), a).unwrap();
        }
        let (p, q) = (cache.node(&word(&[0])), cache.node(&word(&[1])));
        let mut queue = Vec::new();
        let i = apart(&cache, p, q, &mut queue).expect("apart");
        assert_eq!(spell(&queue, i), word(&[1]));
        // The root and "1" agree wherever both are known.
        let root_answer = cache.node(&[]);
        cache.insert_at(root_answer, true).unwrap();
        assert_eq!(apart(&cache, 0, q, &mut queue), None);
        // What "0" knows and "1" does not: "0·1"; nothing the other way round.
        let j = untested(&cache, p, q, &mut queue);
        assert_eq!(j, None, "1 has an answer for every word 0 has");
        cache.insert(&word(&[0, 0]), true).unwrap();
        let j = untested(&cache, p, q, &mut queue).expect("0·0 is untested at 1");
        assert_eq!(spell(&queue, j), word(&[0]));
    }

    #[test]
    fn prefix_closed_apartness_stops_at_rejected_nodes() {
        let mut cache = Cache::new(2, true);
        cache.insert(&word(&[0, 0]), true).unwrap();
        cache.insert(&word(&[1]), false).unwrap();
        let (p, q) = (cache.node(&word(&[0])), cache.node(&word(&[1])));
        let mut queue = Vec::new();
        // "0" is accepted (a prefix of an accepted word), "1" rejected: apart by the empty word.
        let i = apart(&cache, p, q, &mut queue).expect("apart");
        assert_eq!(spell(&queue, i), Word::new());
        // A node below a rejected one is rejected without asking.
        let below = cache.node(&word(&[1, 1]));
        assert_eq!(answer(&cache, below as usize), Some(false));
        assert_eq!(apart(&cache, q, below, &mut queue), None);
    }

    #[test]
    fn learns_counters_exactly_with_growing_hypotheses() {
        for n in 1..8 {
            let mut learner = LSharp::new(2, LearnerConfig::default());
            let dfa = run(&mut learner, &counter(n));
            assert_eq!(dfa.shortest_difference(&counter(n)), None);
            assert_eq!(dfa.num_states(), n);
            let sizes = &learner.stats().hypothesis_sizes;
            assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
        }
    }

    #[test]
    fn a_counterexample_is_processed_into_a_new_state() {
        // Words over {0, 1} with at least three 1s: 4 states in a line.
        let delta = vec![vec![0, 1], vec![1, 2], vec![2, 3], vec![3, 3]];
        let target = Dfa::new(2, delta, vec![false, false, false, true]).unwrap();
        let mut learner = LSharp::new(2, LearnerConfig::default());
        let Step::Queries(_) = learner.step().unwrap() else {
            panic!("queries first")
        };
        let dfa = run(&mut learner, &target);
        assert_eq!(dfa.num_states(), 4);
        // Every word the teacher answered agrees with the learned DFA.
        assert_eq!(learner.cache.first_disagreement(&dfa), None);
    }

    #[test]
    fn prefix_closed_hypotheses_have_one_rejecting_sink() {
        // 0 and 1 alternate, starting with 0; anything else is an error.
        let target = Dfa::new(
            2,
            vec![vec![1, 2], vec![2, 0], vec![2, 2]],
            vec![true, true, false],
        )
        .unwrap();
        let mut learner = LSharp::new(2, LearnerConfig::default().with_prefix_closed(true));
        let dfa = run(&mut learner, &target);
        assert_eq!(dfa.num_states(), 3);
        assert!(dfa.is_prefix_closed());
        assert_eq!((0..3).filter(|&q| !dfa.is_accepting(q)).count(), 1);
        assert!(learner.stats().inferred > 0);
        // The empty language: one rejecting state after one query.
        let empty = Dfa::new(2, vec![vec![0, 0]], vec![false]).unwrap();
        let mut learner = LSharp::new(2, LearnerConfig::default().with_prefix_closed(true));
        let dfa = run(&mut learner, &empty);
        assert_eq!(dfa.num_states(), 1);
        assert_eq!(learner.stats().membership_queries, 1);
    }

    #[test]
    fn step_wise_batches_drop_words_that_come_with_longer_ones() {
        let mut learner = LSharp::new(2, LearnerConfig::default());
        learner.set_prefix_answers(true);
        for w in [&[0, 1][..], &[0, 1, 1], &[1], &[0, 1, 1, 0], &[0, 0]] {
            assert!(!learner.probe(0, &word(w)));
        }
        let Step::Queries(ws) = learner.step().unwrap() else {
            panic!("queries first")
        };
        let sent: Vec<Word> = ws.iter().map(<[Symbol]>::to_vec).collect();
        assert_eq!(sent, [word(&[1]), word(&[0, 1, 1, 0]), word(&[0, 0])]);
        let answers: Vec<bool> = sent.iter().flat_map(|w| vec![true; w.len() + 1]).collect();
        learner.answer_prefixes(&answers).unwrap();
        assert_eq!(learner.stats().membership_queries, 3);
        // The dropped words are answered, with every prefix of the words sent.
        for w in [&[][..], &[0], &[0, 1], &[0, 1, 1], &[0, 1, 1, 0]] {
            assert_eq!(learner.known(&word(w)), Some(true), "{w:?}");
        }
        let node = learner.cache.node(&word(&[0, 1]));
        assert!(!learner.cache.is_pending(node));
    }

    #[test]
    fn words_held_back_are_asked_again_if_the_answers_come_one_bit() {
        let mut learner = LSharp::new(2, LearnerConfig::default());
        learner.set_prefix_answers(true);
        for w in [&[0][..], &[0, 1]] {
            assert!(!learner.probe(0, &word(w)));
        }
        let Step::Queries(ws) = learner.step().unwrap() else {
            panic!("queries first")
        };
        assert_eq!(ws.len(), 1, "0 comes with 0·1");
        learner.answer(&[true]).unwrap();
        assert_eq!(learner.known(&word(&[0])), None);
        assert!(
            !learner.probe(0, &word(&[0])),
            "asked again, not left pending"
        );
        let Step::Queries(ws) = learner.step().unwrap() else {
            panic!("queries")
        };
        assert_eq!(ws.iter().next(), Some(&word(&[0])[..]));
    }

    #[test]
    fn no_symbols_means_one_state() {
        let target = Dfa::new(0, vec![vec![]], vec![true]).unwrap();
        let mut learner = LSharp::new(0, LearnerConfig::default());
        let dfa = run(&mut learner, &target);
        assert_eq!(dfa.num_states(), 1);
        assert!(dfa.accepts(&[]));
    }
}
