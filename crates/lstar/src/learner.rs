//! The sans-IO learner: [`Learner`] says what it needs ([`Step`]) and the caller supplies it. It
//! runs one of two engines, chosen by [`LearnerConfig::kind`]: Angluin's L* with an observation
//! table (this file) or L# with an observation tree and apartness (`lsharp`). Both ask through the
//! same [`Step`]s and keep their answers in the same membership cache, so every driver (the
//! [`learn`](crate::learn) loop, the assume-guarantee rules) runs either.
//!
//! The learner never calls a teacher. Each phase (fill and close the table, analyse a counterexample)
//! is written to be *restartable*: it runs against the membership cache, and when it meets a word the
//! cache cannot answer it stops and hands that word out. When the answers come back the phase runs
//! again from its start, now finding more in the cache. Re-running is cheap (cache lookups) and keeps
//! the control flow a plain function instead of a hand-written coroutine, which is what makes every
//! counterexample strategy a few lines.

use crate::cache::Cache;
use crate::config::{CexStrategy, LearnerConfig, LearnerKind, Stats};
use crate::dfa::{Dfa, Symbol, Word};
use crate::error::LstarError;
use crate::lsharp::LSharp;
use crate::queries::Queries;
pub(crate) use crate::queries::Step;
use crate::table::Table;

/// Hypothesis states reserved up front.
const INITIAL_STATES: usize = 32;

/// Where the learner is.
#[derive(Clone, Debug)]
enum Phase {
    /// Filling and closing the table.
    Table,
    /// A hypothesis is out; waiting for a counterexample.
    Offered,
    /// Analysing this counterexample.
    Analyse(Word),
}

/// An active learner of a regular language over the symbols `0..k`, as a state machine driven by
/// its caller: Angluin's L* or L#, as [`LearnerConfig::kind`] says. Both ask through the same
/// [`Step`]s, so a driver need not know which one runs.
///
/// ```
/// use guarantor_lstar::{word, Dfa, Learner, LearnerConfig, Step};
/// // Target: words over {0, 1} ending in 1.
/// let target = Dfa::new(2, vec![vec![0, 1], vec![0, 1]], vec![false, true])?;
/// let mut learner = Learner::new(2, LearnerConfig::default());
/// let learned = loop {
///     match learner.step()? {
///         Step::Queries(words) => {
///             let answers: Vec<bool> = words.iter().map(|w| target.accepts(w)).collect();
///             learner.answer(&answers)?;
///         }
///         Step::Hypothesis(h) => match h.shortest_difference(&target) {
///             None => break h.clone(),
///             Some(cex) => learner.counterexample(cex)?,
///         },
///         _ => unreachable!("no other steps in this version"),
///     }
/// };
/// assert_eq!(learned.num_states(), 2);
/// assert!(learned.accepts(&word(&[0, 1])));
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Learner {
    engine: Engine,
}

/// The engine a [`Learner`] runs.
#[derive(Clone, Debug)]
enum Engine {
    Star(Box<Star>),
    Sharp(Box<LSharp>),
}

impl Learner {
    /// A learner over `num_symbols` symbols, running the engine `config.kind` names.
    pub fn new(num_symbols: usize, config: LearnerConfig) -> Self {
        let engine = match config.kind {
            LearnerKind::LSharp => Engine::Sharp(Box::new(LSharp::new(num_symbols, config))),
            _ => Engine::Star(Box::new(Star::new(num_symbols, config))),
        };
        Self { engine }
    }

    /// The number of symbols.
    pub fn num_symbols(&self) -> usize {
        self.config_ref().0
    }

    /// The configuration.
    pub fn config(&self) -> &LearnerConfig {
        self.config_ref().1
    }

    fn config_ref(&self) -> (usize, &LearnerConfig) {
        match &self.engine {
            Engine::Star(l) => (l.num_symbols(), l.config()),
            Engine::Sharp(l) => (l.num_symbols(), l.config()),
        }
    }

    /// Query statistics so far.
    pub fn stats(&self) -> &Stats {
        match &self.engine {
            Engine::Star(l) => l.stats(),
            Engine::Sharp(l) => l.stats(),
        }
    }

    /// The latest hypothesis built, if any.
    pub fn hypothesis(&self) -> Option<&Dfa> {
        match &self.engine {
            Engine::Star(l) => l.hypothesis(),
            Engine::Sharp(l) => l.hypothesis(),
        }
    }

    /// The teacher's answer to `w` if it is known (asked before, or implied by prefix-closure).
    pub fn known(&self, w: &[Symbol]) -> Option<bool> {
        match &self.engine {
            Engine::Star(l) => l.known(w),
            Engine::Sharp(l) => l.known(w),
        }
    }

    /// Advances until the learner needs something: membership answers or a verdict on a hypothesis.
    /// Calling it again without answering returns the same request.
    ///
    /// # Errors
    /// A budget of the [`LearnerConfig`] was exceeded, or the answers given so far are inconsistent.
    pub fn step(&mut self) -> Result<Step<'_>, LstarError> {
        match &mut self.engine {
            Engine::Star(l) => l.step(),
            Engine::Sharp(l) => l.step(),
        }
    }

    /// Answers the pending membership queries, in the order [`Step::Queries`] listed them.
    ///
    /// # Errors
    /// [`LstarError::AnswerCount`] if the number of answers is wrong;
    /// [`LstarError::InconsistentAnswers`] if an answer contradicts prefix-closure.
    pub fn answer(&mut self, answers: &[bool]) -> Result<(), LstarError> {
        match &mut self.engine {
            Engine::Star(l) => l.answer(answers),
            Engine::Sharp(l) => l.answer(answers),
        }
    }

    /// Tells the learner whether its queries will be answered step-wise, with
    /// [`Learner::answer_prefixes`] (the [`learn`](crate::learn) driver does it for a teacher that
    /// [answers step-wise](crate::Teacher::answers_prefixes)). L# then asks longer words, since
    /// every prefix of a word comes with it: a frontier node is asked its separating suffix at
    /// once rather than its own answer first, and a test word runs to a leaf of the tree. L*
    /// asks the same either way. Either form of answer stays accepted whatever is set here.
    pub fn set_prefix_answers(&mut self, on: bool) {
        if let Engine::Sharp(l) = &mut self.engine {
            l.set_prefix_answers(on);
        }
    }

    /// Answers the pending membership queries step-wise: for each word [`Step::Queries`] listed,
    /// in order, `len + 1` answers, whether the target contains each of its prefixes (the empty
    /// word first, the word itself last), back to back
    /// ([`Teacher::memberships_prefixes`](crate::Teacher::memberships_prefixes)'s layout). Counted
    /// as one membership query per word. L# keeps every answer in its observation tree; L* keeps
    /// the last answer of each word (its table needs no other, and its check that a hypothesis
    /// agrees with every known answer relies on knowing only the words it asked).
    ///
    /// ```
    /// use guarantor_lstar::{Dfa, Learner, LearnerConfig, LearnerKind, Step};
    /// // Words over {0, 1} with an even number of 0s.
    /// let target = Dfa::new(2, vec![vec![1, 0], vec![0, 1]], vec![true, false])?;
    /// let mut learner = Learner::new(2, LearnerConfig::default().with_kind(LearnerKind::LSharp));
    /// learner.set_prefix_answers(true);
    /// let learned = loop {
    ///     match learner.step()? {
    ///         Step::Queries(words) => {
    ///             let answers: Vec<bool> = words
    ///                 .iter()
    ///                 .flat_map(|w| (0..=w.len()).map(|i| target.accepts(&w[..i])))
    ///                 .collect();
    ///             learner.answer_prefixes(&answers)?;
    ///         }
    ///         Step::Hypothesis(h) => match h.shortest_difference(&target) {
    ///             None => break h.clone(),
    ///             Some(cex) => learner.counterexample(cex)?,
    ///         },
    ///         _ => unreachable!("no other steps in this version"),
    ///     }
    /// };
    /// assert_eq!(learned.num_states(), 2);
    /// # Ok::<(), guarantor_lstar::LstarError>(())
    /// ```
    ///
    /// # Errors
    /// [`LstarError::AnswerCount`] if the number of answers is wrong;
    /// [`LstarError::InconsistentAnswers`] if an answer contradicts another or prefix-closure.
    pub fn answer_prefixes(&mut self, answers: &[bool]) -> Result<(), LstarError> {
        match &mut self.engine {
            Engine::Star(l) => l.answer_prefixes(answers),
            Engine::Sharp(l) => l.answer_prefixes(answers),
        }
    }

    /// Rejects the pending hypothesis with a counterexample: a word the hypothesis classifies wrongly.
    ///
    /// # Errors
    /// [`LstarError::NoHypothesis`] if no hypothesis is pending; [`LstarError::SymbolOutOfRange`] if
    /// the word uses an unknown symbol. A word that is no counterexample is reported by the next
    /// [`Learner::step`] as [`LstarError::NotACounterexample`], once its membership is known.
    pub fn counterexample(&mut self, word: Word) -> Result<(), LstarError> {
        match &mut self.engine {
            Engine::Star(l) => l.counterexample(word),
            Engine::Sharp(l) => l.counterexample(word),
        }
    }

    /// The number of columns of L*'s observation table (for statistics and tests); 0 for L#,
    /// which keeps no table.
    pub fn num_suffixes(&self) -> usize {
        match &self.engine {
            Engine::Star(l) => l.num_suffixes(),
            Engine::Sharp(_) => 0,
        }
    }
}

/// Angluin's L*: the engine behind [`Learner`] for [`LearnerKind::LStar`].
#[derive(Clone, Debug)]
struct Star {
    k: usize,
    config: LearnerConfig,
    table: Table,
    cache: Cache,
    stats: Stats,
    pending: Queries,
    /// The cache node of each pending word.
    pending_nodes: Vec<u32>,
    phase: Phase,
    hypothesis: Option<Dfa>,
    /// The table row of each hypothesis state's access word.
    access: Vec<usize>,
    /// Words asked outside the table (counterexamples and their analysis), with their cache
    /// nodes: with the table's cells, every word the teacher answered.
    extra: Queries,
    extra_nodes: Vec<u32>,
    /// Scratch space for the words of Rivest and Schapire's binary search.
    scratch: Word,
}

/// The result of running a phase against the cache.
enum Progress {
    Done,
    /// The pending queries have been written.
    Need,
    /// One word not yet in the cache.
    NeedOne(Word),
}

impl Star {
    /// A learner over `num_symbols` symbols.
    fn new(num_symbols: usize, config: LearnerConfig) -> Self {
        Self {
            k: num_symbols,
            table: Table::new(num_symbols, config.strategy == CexStrategy::Angluin),
            cache: Cache::new(num_symbols, config.prefix_closed),
            config,
            stats: Stats::default(),
            pending: Queries::with_capacity(256),
            pending_nodes: Vec::with_capacity(256),
            phase: Phase::Table,
            hypothesis: None,
            access: Vec::with_capacity(INITIAL_STATES),
            extra: Queries::with_capacity(16),
            extra_nodes: Vec::with_capacity(16),
            scratch: Word::with_capacity(64),
        }
    }

    /// The number of symbols.
    fn num_symbols(&self) -> usize {
        self.k
    }

    /// The configuration.
    fn config(&self) -> &LearnerConfig {
        &self.config
    }

    /// Query statistics so far.
    fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The latest hypothesis built, if any.
    fn hypothesis(&self) -> Option<&Dfa> {
        self.hypothesis.as_ref()
    }

    /// The teacher's answer to `w` if it is known (asked before, or implied by prefix-closure).
    fn known(&self, w: &[Symbol]) -> Option<bool> {
        self.cache.lookup(w).map(|k| k.accepted)
    }

    /// Advances until the learner needs something: membership answers or a verdict on a hypothesis.
    /// Calling it again without answering returns the same request.
    ///
    /// # Errors
    /// A budget of the [`LearnerConfig`] was exceeded, or the answers given so far are inconsistent.
    fn step(&mut self) -> Result<Step<'_>, LstarError> {
        loop {
            if !self.pending.is_empty() {
                return Ok(Step::Queries(&self.pending));
            }
            match std::mem::replace(&mut self.phase, Phase::Table) {
                Phase::Offered => {
                    self.phase = Phase::Offered;
                    // Offered is only entered with a hypothesis built; the error is unreachable.
                    let h = self.hypothesis.as_ref().ok_or(LstarError::NoHypothesis)?;
                    return Ok(Step::Hypothesis(h));
                }
                Phase::Table => match self.advance_table()? {
                    Progress::Done => self.conjecture()?,
                    need => self.request(need)?,
                },
                Phase::Analyse(cex) => match self.analyse(&cex)? {
                    Progress::Done => {}
                    need => {
                        self.phase = Phase::Analyse(cex);
                        self.request(need)?;
                    }
                },
            }
        }
    }

    /// Answers the pending membership queries, in the order [`Step::Queries`] listed them.
    ///
    /// # Errors
    /// [`LstarError::AnswerCount`] if the number of answers is wrong;
    /// [`LstarError::InconsistentAnswers`] if an answer contradicts prefix-closure.
    fn answer(&mut self, answers: &[bool]) -> Result<(), LstarError> {
        if answers.len() != self.pending.len() || answers.is_empty() {
            return Err(LstarError::AnswerCount {
                expected: self.pending.len(),
                found: answers.len(),
            });
        }
        for (&node, &a) in self.pending_nodes.iter().zip(answers) {
            self.cache.insert_at(node, a)?;
        }
        self.stats.membership_queries += answers.len() as u64;
        self.stats.symbols += self.pending.total_symbols() as u64;
        self.pending.clear();
        self.pending_nodes.clear();
        Ok(())
    }

    /// See [`Learner::answer_prefixes`]: the last answer of each word is the one-bit answer.
    fn answer_prefixes(&mut self, answers: &[bool]) -> Result<(), LstarError> {
        let expected = self.pending.len() + self.pending.total_symbols();
        if answers.len() != expected {
            return Err(LstarError::AnswerCount {
                expected,
                found: answers.len(),
            });
        }
        let mut last = Vec::with_capacity(self.pending.len());
        let mut end = 0;
        for w in self.pending.iter() {
            end += w.len() + 1;
            last.push(answers[end - 1]);
        }
        self.answer(&last)
    }

    /// Rejects the pending hypothesis with a counterexample: a word the hypothesis classifies wrongly.
    ///
    /// # Errors
    /// [`LstarError::NoHypothesis`] if no hypothesis is pending; [`LstarError::SymbolOutOfRange`] if
    /// the word uses an unknown symbol. A word that is no counterexample is reported by the next
    /// [`Learner::step`] as [`LstarError::NotACounterexample`], once its membership is known.
    fn counterexample(&mut self, word: Word) -> Result<(), LstarError> {
        if !matches!(self.phase, Phase::Offered) {
            return Err(LstarError::NoHypothesis);
        }
        if let Some(a) = word.iter().find(|a| a.index() >= self.k) {
            return Err(LstarError::SymbolOutOfRange {
                symbol: a.index(),
                num_symbols: self.k,
            });
        }
        self.phase = Phase::Analyse(word);
        Ok(())
    }

    /// Hands the needed words out as membership queries, within the query budget.
    fn request(&mut self, need: Progress) -> Result<(), LstarError> {
        match need {
            Progress::Done | Progress::Need => {}
            Progress::NeedOne(word) => {
                let node = self.cache.node(&word);
                self.extra.push_concat(&word, &[]);
                self.extra_nodes.push(node);
                self.pending.push(word);
                self.pending_nodes.push(node);
            }
        }
        if let Some(limit) = self.config.max_membership_queries
            && self.stats.membership_queries + self.pending.len() as u64 > limit
        {
            return Err(LstarError::QueryLimit { limit });
        }
        Ok(())
    }

    /// Fills, closes and (for Angluin's strategy) makes the table consistent, as far as the cache
    /// allows.
    fn advance_table(&mut self) -> Result<Progress, LstarError> {
        loop {
            let (out, nodes) = (&mut self.pending, &mut self.pending_nodes);
            if self
                .table
                .fill(&mut self.cache, &mut self.stats, out, nodes)
            {
                return Ok(Progress::Need);
            }
            if self.table.close() {
                continue;
            }
            if self.config.strategy == CexStrategy::Angluin
                && let Some(e) = self.table.inconsistency()
            {
                self.table.add_suffix(e);
                continue;
            }
            return Ok(Progress::Done);
        }
    }

    /// Builds the hypothesis of the closed table and either offers it or, if it contradicts a known
    /// answer, analyses that contradiction at once.
    fn conjecture(&mut self) -> Result<(), LstarError> {
        let mut access = std::mem::take(&mut self.access);
        let h = self.table.hypothesis(&mut access, self.hypothesis.take());
        if let Some(limit) = self.config.max_hypothesis_states
            && h.num_states() > limit
        {
            return Err(LstarError::HypothesisLimit {
                limit,
                states: h.num_states(),
            });
        }
        // The quick check pays when the table is small next to the cache (many letters, short
        // columns); with long columns and a compact cache the scan alone is cheaper. Debug builds
        // always run it, and check that it never misses a disagreement the scan finds.
        let quick = cfg!(debug_assertions)
            || self.table.agree_cost(h.num_states()) < self.cache.scan_cost();
        let agrees = self.config.check_known && quick && self.agrees_quickly(&h, &access);
        debug_assert!(!agrees || self.cache.first_disagreement(&h).is_none());
        let free = if self.config.check_known && !agrees {
            self.cache.first_disagreement(&h)
        } else {
            None
        };
        self.hypothesis = Some(h);
        self.access = access;
        if let Some(w) = free {
            self.stats.free_counterexamples += 1;
            self.phase = Phase::Analyse(w);
            return Ok(());
        }
        if let Some(limit) = self.config.max_rounds
            && self.stats.equivalence_queries as usize >= limit
        {
            return Err(LstarError::RoundLimit { limit });
        }
        self.stats.equivalence_queries += 1;
        let size = self.hypothesis.as_ref().map_or(0, Dfa::num_states);
        self.stats.hypothesis_sizes.push(size);
        self.phase = Phase::Offered;
        Ok(())
    }

    /// A cheap sufficient condition for `h` to agree with every known answer, so that the full scan
    /// of the cache ([`Cache::first_disagreement`]) runs only when it may find something. The
    /// cache's answers are the teacher's answers to table cells (checked by [`Table::agrees`]) and
    /// to the words in `extra` and, in prefix-closed mode, the prefixes of accepted answers, which
    /// a prefix-closed `h` accepts when it accepts the answers themselves.
    fn agrees_quickly(&mut self, h: &Dfa, access: &[usize]) -> bool {
        let prefix_closed = || {
            (0..h.num_states()).all(|q| {
                h.is_accepting(q) || Symbol::all(self.k).all(|a| !h.is_accepting(h.successor(q, a)))
            })
        };
        self.table.agrees(h, access)
            && self.extra.iter().zip(&self.extra_nodes).all(|(w, &node)| {
                self.cache
                    .answer_at(node)
                    .is_none_or(|k| k.accepted == h.accepts(w))
            })
            && (!self.config.prefix_closed || prefix_closed())
    }

    /// Looks `w` up, counting the lookup; `Err(w)` says it must be asked (the word is copied only
    /// then).
    fn lookup(&mut self, w: &[Symbol]) -> Result<bool, Word> {
        match self.cache.lookup(w) {
            Some(k) => {
                self.stats.lookups += 1;
                self.stats.inferred += u64::from(k.inferred);
                Ok(k.accepted)
            }
            None => Err(w.to_vec()),
        }
    }

    /// Turns a counterexample into new rows or columns, as far as the cache allows.
    fn analyse(&mut self, cex: &[Symbol]) -> Result<Progress, LstarError> {
        // Taken out and put back rather than cloned: the analysis resumes once per query.
        let h = self.hypothesis.take().ok_or(LstarError::NoHypothesis)?;
        let result = self.analyse_with(&h, cex);
        self.hypothesis = Some(h);
        result
    }

    /// [`Learner::analyse`] against hypothesis `h`.
    fn analyse_with(&mut self, h: &Dfa, cex: &[Symbol]) -> Result<Progress, LstarError> {
        let target = match self.lookup(cex) {
            Ok(t) => t,
            Err(w) => return Ok(Progress::NeedOne(w)),
        };
        if target == h.accepts(cex) {
            return Err(LstarError::NotACounterexample {
                word: cex.iter().map(|a| a.index()).collect(),
            });
        }
        let cex = if self.config.prefix_closed {
            match self.trim(h, cex, target) {
                Ok(c) => c,
                Err(w) => return Ok(Progress::NeedOne(w)),
            }
        } else {
            cex
        };
        match self.config.strategy {
            CexStrategy::RivestSchapire => match self.rivest_schapire(h, cex, target) {
                Ok(suffix) => {
                    if !self.table.add_suffix(suffix) {
                        return Err(LstarError::InconsistentAnswers {
                            word: cex.iter().map(|a| a.index()).collect(),
                        });
                    }
                }
                Err(w) => return Ok(Progress::NeedOne(w)),
            },
            CexStrategy::Angluin => {
                for i in 1..=cex.len() {
                    self.table.add_upper_word(&cex[..i]);
                }
            }
            CexStrategy::MalerPnueli => {
                for i in 0..cex.len() {
                    self.table.add_suffix(cex[i..].to_vec());
                }
            }
        }
        Ok(Progress::Done)
    }

    /// Prefix-closed targets: cuts a counterexample at its first disagreement. A positive one
    /// (target accepts) is cut where the hypothesis first rejects, which needs no query; a negative
    /// one at its shortest rejected prefix, found by binary search.
    fn trim<'c>(&mut self, h: &Dfa, cex: &'c [Symbol], target: bool) -> Result<&'c [Symbol], Word> {
        if target {
            let mut q = 0;
            for (i, &a) in cex.iter().enumerate() {
                if !h.is_accepting(q) {
                    return Ok(&cex[..i]);
                }
                q = h.successor(q, a);
            }
            return Ok(cex);
        }
        // Invariant: the target accepts cex[..lo] and rejects cex[..hi]. The hypothesis accepts
        // every prefix (it is prefix-closed and accepts cex), so it accepts the empty word and so
        // does the table's (correct) answer for it.
        let (mut lo, mut hi) = (0, cex.len());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.lookup(&cex[..mid])? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(&cex[..hi])
    }

    /// Rivest and Schapire's analysis: with alpha(i) the answer for the hypothesis's access word of
    /// `cex[..i]` followed by `cex[i..]`, alpha(0) is the target's answer and alpha(len) the
    /// hypothesis's; binary search finds `i` with alpha(i) != alpha(i + 1) and returns
    /// `cex[i + 1..]`, which separates two rows the hypothesis merged.
    fn rivest_schapire(&mut self, h: &Dfa, cex: &[Symbol], target: bool) -> Result<Word, Word> {
        let (mut lo, mut hi) = (0, cex.len());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let mut w = std::mem::take(&mut self.scratch);
            w.clear();
            w.extend_from_slice(self.table.word(self.access[h.run(&cex[..mid])]));
            w.extend_from_slice(&cex[mid..]);
            let found = self.lookup(&w);
            self.scratch = w;
            if found? == target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(cex[hi..].to_vec())
    }

    /// The number of columns of the observation table (for statistics and tests).
    fn num_suffixes(&self) -> usize {
        self.table.num_suffixes()
    }
}
