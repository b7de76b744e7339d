//! Learning a black box in a few lines: a membership function ([`Membership`], any
//! `FnMut(&[Symbol]) -> bool`, or a function over action names through an [`Alphabet`]) and an
//! equivalence oracle of [`oracle`](crate::oracle) make a [`BlackBoxTeacher`], which runs the one
//! [`learn`] loop with either learner.
//!
//! The teacher keeps every answer in a membership cache (the learner's trie, `cache`), so a word
//! is sent to the system once: the learner never repeats itself, but the oracle's test words
//! overlap from one equivalence query to the next and with the learner's later queries. Its
//! [`Counters`] say what was sent, what the cache answered and where the time went.
//!
//! A system that is run symbol by symbol (a [`Dfa`], a simulator, a device fed one action at a
//! time, wrapped in [`StepWise`]) answers for every prefix of a word in one run
//! ([`Membership::accepts_prefixes`]); the teacher then keeps every prefix's answer, answers the
//! learner step-wise ([`Teacher::answers_prefixes`]) and counts one query per word sent.

use std::convert::Infallible;
use std::fmt;
use std::time::{Duration, Instant};

use guarantor_lts::Lts;
use rustc_hash::FxHashMap;

use crate::cache::Cache;
use crate::config::LearnerConfig;
use crate::dfa::{Dfa, Symbol, Word};
use crate::error::{LearnError, LstarError};
use crate::learner::Learner;
use crate::oracle::{EquivalenceOracle, Interrupted};
use crate::teacher::{EqAnswer, Outcome, Teacher, each_prefix, learn, run_prefixes};

/// A system under learning: answers whether it accepts a word.
///
/// Every closure `FnMut(&[Symbol]) -> bool` is one; implement the trait for a system whose
/// queries can fail (a process, a network service).
pub trait Membership {
    /// The system's failure.
    type Error;

    /// Whether the system accepts `word`.
    fn accepts(&mut self, word: &[Symbol]) -> Result<bool, Self::Error>;

    /// Whether [`Membership::accepts_prefixes`] is one run of the system (`true`), rather than
    /// the default's one run per prefix. A [`BlackBoxTeacher`] answers step-wise, and counts one
    /// query per word sent, only then.
    fn answers_prefixes(&self) -> bool {
        false
    }

    /// Whether the system accepts each prefix of `word`: `answers` (emptied first) gets
    /// `word.len() + 1` answers, the empty word's first (the layout of
    /// [`Teacher::membership_prefixes`]). The default asks [`Membership::accepts`] per prefix.
    ///
    /// # Errors
    /// The system's failure.
    fn accepts_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Self::Error> {
        each_prefix(word, answers, |prefix| self.accepts(prefix))
    }
}

/// A DFA is a system run symbol by symbol: it answers step-wise.
impl Membership for Dfa {
    type Error = Infallible;

    fn accepts(&mut self, word: &[Symbol]) -> Result<bool, Infallible> {
        Ok(Dfa::accepts(self, word))
    }

    fn answers_prefixes(&self) -> bool {
        true
    }

    fn accepts_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Infallible> {
        run_prefixes(self, word, answers);
        Ok(())
    }
}

/// A system given by a function that runs a word and reports the acceptance of every prefix, the
/// empty word's first (`FnMut(&[Symbol], &mut Vec<bool>)`, writing `word.len() + 1` answers to
/// an emptied vector): a [`Membership`] that answers step-wise.
///
/// ```
/// use guarantor_lstar::oracle::WpMethod;
/// use guarantor_lstar::{BlackBoxTeacher, LearnerConfig, LearnerKind, StepWise, Symbol};
/// // A counter of 0s modulo 3, run symbol by symbol; accepting at 0.
/// let system = StepWise::new(|w: &[Symbol], answers: &mut Vec<bool>| {
///     answers.clear();
///     let mut zeros = 0;
///     answers.push(true);
///     for a in w {
///         zeros += usize::from(a.index() == 0);
///         answers.push(zeros % 3 == 0);
///     }
/// });
/// let mut teacher = BlackBoxTeacher::new(2, system, WpMethod::new(1));
/// let dfa = teacher.learn(LearnerConfig::default().with_kind(LearnerKind::LSharp))?;
/// assert_eq!(dfa.num_states(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct StepWise<F> {
    run: F,
    answers: Vec<bool>,
}

impl<F: FnMut(&[Symbol], &mut Vec<bool>)> StepWise<F> {
    /// The system that `run` runs.
    pub fn new(run: F) -> Self {
        Self {
            run,
            answers: Vec::new(),
        }
    }
}

impl<F: FnMut(&[Symbol], &mut Vec<bool>)> Membership for StepWise<F> {
    type Error = Infallible;

    fn accepts(&mut self, word: &[Symbol]) -> Result<bool, Infallible> {
        let mut answers = std::mem::take(&mut self.answers);
        (self.run)(word, &mut answers);
        let last = answers.last().copied();
        self.answers = answers;
        // `run` breaking its contract (no answers) is a caller bug.
        Ok(last.expect("StepWise: the run gave no answer"))
    }

    fn answers_prefixes(&self) -> bool {
        true
    }

    fn accepts_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Infallible> {
        (self.run)(word, answers);
        Ok(())
    }
}

impl<F: FnMut(&[Symbol]) -> bool> Membership for F {
    type Error = Infallible;

    fn accepts(&mut self, word: &[Symbol]) -> Result<bool, Infallible> {
        Ok(self(word))
    }
}

/// What a [`BlackBoxTeacher`] asked and how long it took. With a system that answers step-wise
/// ([`Membership::answers_prefixes`]), a word sent is one query whose answers for all its prefixes
/// go into the cache; a learner's query (all prefixes of one word) is a cache hit when the cache
/// knows every prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counters {
    /// Words sent to the system: the cache's misses, each a distinct word.
    pub membership_queries: u64,
    /// Total length of the words sent to the system.
    pub symbols: u64,
    /// Membership queries of the learner (each reaches the teacher; the cache may answer it).
    pub learner_queries: u64,
    /// Test words of the equivalence oracle (the cache may answer them).
    pub oracle_queries: u64,
    /// Queries of the learner or the oracle answered by the cache:
    /// `learner_queries + oracle_queries - membership_queries`.
    pub cache_hits: u64,
    /// Equivalence queries (hypotheses tested by the oracle).
    pub equivalence_queries: u64,
    /// Time answering the learner's membership queries, the system's time included.
    pub membership_time: Duration,
    /// Time in the equivalence oracle, its membership queries included.
    pub equivalence_time: Duration,
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} membership queries ({} symbols; learner {}, oracle {}, cache hits {}), \
             {} equivalence queries; time: membership {:?}, equivalence {:?}",
            self.membership_queries,
            self.symbols,
            self.learner_queries,
            self.oracle_queries,
            self.cache_hits,
            self.equivalence_queries,
            self.membership_time,
            self.equivalence_time,
        )
    }
}

/// A teacher made of a system's membership function and an equivalence oracle, with a membership
/// cache and [`Counters`].
///
/// ```
/// use guarantor_lstar::oracle::WpMethod;
/// use guarantor_lstar::{word, BlackBoxTeacher, LearnerConfig, Symbol};
/// // Words over {0, 1} whose number of 0s is divisible by 3.
/// let system = |w: &[Symbol]| w.iter().filter(|a| a.index() == 0).count() % 3 == 0;
/// let mut teacher = BlackBoxTeacher::new(2, system, WpMethod::new(1));
/// let dfa = teacher.learn(LearnerConfig::default())?;
/// assert_eq!(dfa.num_states(), 3);
/// assert!(dfa.accepts(&word(&[0, 1, 0, 0])));
/// println!("{}", teacher.counters());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct BlackBoxTeacher<M, O> {
    system: M,
    oracle: O,
    num_symbols: usize,
    cache: Cache,
    counters: Counters,
}

impl<M: Membership, O: EquivalenceOracle> BlackBoxTeacher<M, O> {
    /// A teacher for `system` over the symbols `0..num_symbols`, testing hypotheses with `oracle`.
    pub fn new(num_symbols: usize, system: M, oracle: O) -> Self {
        Self {
            system,
            oracle,
            num_symbols,
            cache: Cache::new(num_symbols, false),
            counters: Counters::default(),
        }
    }

    /// The number of symbols.
    pub fn num_symbols(&self) -> usize {
        self.num_symbols
    }

    /// What was asked so far.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The system.
    pub fn system(&self) -> &M {
        &self.system
    }

    /// Learns the system with a [`Learner`] of `config` (L* or L#) and returns the hypothesis the
    /// oracle found no counterexample to. Exact when the oracle is (a [`WMethod`] or [`WpMethod`]
    /// whose bound covers the system's size); otherwise the best hypothesis the tests could not
    /// refute.
    ///
    /// [`WMethod`]: crate::oracle::WMethod
    /// [`WpMethod`]: crate::oracle::WpMethod
    ///
    /// # Errors
    /// [`LearnError::Learner`] when a budget of `config` runs out; [`LearnError::Teacher`] when
    /// the system fails.
    pub fn learn(&mut self, config: LearnerConfig) -> Result<Dfa, LearnError<M::Error>> {
        let mut learner = Learner::new(self.num_symbols, config);
        match learn(&mut learner, self)? {
            Outcome::Learned(dfa) => Ok(dfa),
            Outcome::Stopped { verdict, .. } => match verdict {},
        }
    }
}

/// Answers `w` from the cache, or asks the system and caches its answer (every prefix's, when the
/// system answers step-wise).
fn ask<M: Membership>(
    system: &mut M,
    cache: &mut Cache,
    counters: &mut Counters,
    w: &[Symbol],
) -> Result<bool, M::Error> {
    if let Some(known) = cache.lookup(w) {
        counters.cache_hits += 1;
        return Ok(known.accepted);
    }
    if system.answers_prefixes() {
        let mut answers = Vec::with_capacity(w.len() + 1);
        ask_prefixes(system, cache, counters, w, &mut answers)?;
        return Ok(answers[w.len()]);
    }
    let accepted = system.accepts(w)?;
    counters.membership_queries += 1;
    counters.symbols += w.len() as u64;
    let node = cache.node(w);
    // The word was unknown, so any answer is consistent (the cache infers nothing).
    let inserted = cache.insert_at(node, accepted);
    debug_assert!(inserted.is_ok());
    Ok(accepted)
}

/// Step-wise: the answers of every prefix of `w` (layout of [`Teacher::membership_prefixes`]),
/// from the cache where it knows them; the rest from one run of the system on `w` cut after its
/// last unknown prefix (one query), whose answers the cache keeps. A system that does not answer
/// step-wise is asked each unknown prefix alone (one query each).
fn ask_prefixes<M: Membership>(
    system: &mut M,
    cache: &mut Cache,
    counters: &mut Counters,
    w: &[Symbol],
    answers: &mut Vec<bool>,
) -> Result<(), M::Error> {
    answers.clear();
    let mut nodes = Vec::with_capacity(w.len() + 1);
    let mut node = 0;
    let mut last_unknown = None;
    for i in 0..=w.len() {
        if i > 0 {
            node = cache.child_or_insert(node as usize, w[i - 1]) as u32;
        }
        nodes.push(node);
        match cache.answer_at(node) {
            Some(k) => answers.push(k.accepted),
            None => {
                answers.push(false);
                last_unknown = Some(i);
            }
        }
    }
    let Some(m) = last_unknown else {
        counters.cache_hits += 1;
        return Ok(());
    };
    if !system.answers_prefixes() {
        for i in 0..=m {
            if cache.answer_at(nodes[i]).is_none() {
                answers[i] = ask(system, cache, counters, &w[..i])?;
            }
        }
        return Ok(());
    }
    let mut fresh = Vec::with_capacity(m + 1);
    system.accepts_prefixes(&w[..m], &mut fresh)?;
    counters.membership_queries += 1;
    counters.symbols += m as u64;
    for (i, &a) in fresh.iter().enumerate().take(m + 1) {
        if cache.answer_at(nodes[i]).is_none() {
            // Unknown, so any answer is consistent (the cache infers nothing).
            let inserted = cache.insert_at(nodes[i], a);
            debug_assert!(inserted.is_ok());
            answers[i] = a;
        }
    }
    Ok(())
}

impl<M: Membership, O: EquivalenceOracle> BlackBoxTeacher<M, O> {
    fn learner_asks(&mut self, w: &[Symbol]) -> Result<bool, M::Error> {
        self.counters.learner_queries += 1;
        ask(&mut self.system, &mut self.cache, &mut self.counters, w)
    }
}

impl<M: Membership, O: EquivalenceOracle> Teacher for BlackBoxTeacher<M, O> {
    type Verdict = Infallible;
    type Error = M::Error;

    fn membership(&mut self, word: &[Symbol]) -> Result<bool, M::Error> {
        let start = Instant::now();
        let answer = self.learner_asks(word);
        self.counters.membership_time += start.elapsed();
        answer
    }

    fn memberships(
        &mut self,
        words: &crate::Queries,
        answers: &mut Vec<bool>,
    ) -> Result<(), M::Error> {
        let start = Instant::now();
        answers.clear();
        let mut result = Ok(());
        for w in words.iter() {
            match self.learner_asks(w) {
                Ok(a) => answers.push(a),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.counters.membership_time += start.elapsed();
        result
    }

    fn answers_prefixes(&self) -> bool {
        self.system.answers_prefixes()
    }

    fn membership_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), M::Error> {
        let start = Instant::now();
        self.counters.learner_queries += 1;
        let result = ask_prefixes(
            &mut self.system,
            &mut self.cache,
            &mut self.counters,
            word,
            answers,
        );
        self.counters.membership_time += start.elapsed();
        result
    }

    fn equivalence(&mut self, hypothesis: &Dfa) -> Result<EqAnswer<Infallible>, M::Error> {
        let start = Instant::now();
        let Self {
            system,
            oracle,
            cache,
            counters,
            ..
        } = self;
        counters.equivalence_queries += 1;
        let mut failure = None;
        let found = oracle.find_counterexample(hypothesis, &mut |w| {
            counters.oracle_queries += 1;
            ask(system, cache, counters, w).map_err(|e| {
                failure = Some(e);
                Interrupted
            })
        });
        counters.equivalence_time += start.elapsed();
        match (found, failure) {
            (_, Some(e)) => Err(e),
            (Ok(Some(cex)), None) => Ok(EqAnswer::Counterexample(cex)),
            (Ok(None) | Err(Interrupted), None) => Ok(EqAnswer::Equivalent),
        }
    }
}

/// Action names for the learner's dense symbols: symbol `i` is the `i`-th name. Translates words
/// both ways, wraps a membership function over names ([`Alphabet::named`]) and exports learned
/// DFAs with their names ([`Alphabet::to_lts`], [`Alphabet::to_safety_lts`]).
///
/// ```
/// use guarantor_lstar::{word, Alphabet};
/// let alphabet = Alphabet::new(["send", "ack"]);
/// let w = alphabet.word(&["send", "ack", "send"]).unwrap();
/// assert_eq!(w, word(&[0, 1, 0]));
/// assert_eq!(alphabet.spell(&w), ["send", "ack", "send"]);
/// assert_eq!(alphabet.word(&["lost"]), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alphabet {
    names: Vec<String>,
    index: FxHashMap<String, Symbol>,
}

impl Alphabet {
    /// The alphabet of `names`, in order.
    ///
    /// # Panics
    /// Panics if a name appears twice.
    #[track_caller]
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        let mut index = FxHashMap::default();
        for (i, name) in names.iter().enumerate() {
            let fresh = index.insert(name.clone(), Symbol::new(i)).is_none();
            assert!(fresh, "the name {name:?} appears twice in the alphabet");
        }
        Self { names, index }
    }

    /// The number of names (the learner's `num_symbols`).
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names, symbol `i` first at index `i`.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The symbol named `name`, if there is one.
    pub fn symbol(&self, name: &str) -> Option<Symbol> {
        self.index.get(name).copied()
    }

    /// The name of `symbol`.
    ///
    /// # Panics
    /// Panics if `symbol` is out of range.
    pub fn name(&self, symbol: Symbol) -> &str {
        &self.names[symbol.index()]
    }

    /// The word spelled by `names`, or `None` if a name is not in the alphabet.
    pub fn word<S: AsRef<str>>(&self, names: &[S]) -> Option<Word> {
        names.iter().map(|n| self.symbol(n.as_ref())).collect()
    }

    /// The names of `word`'s symbols.
    ///
    /// # Panics
    /// Panics if a symbol is out of range.
    pub fn spell(&self, word: &[Symbol]) -> Vec<&str> {
        word.iter().map(|&a| self.name(a)).collect()
    }

    /// A membership function over symbols that asks `system` with the names.
    pub fn named<F: FnMut(&[&str]) -> bool>(&self, system: F) -> Named<F> {
        Named {
            alphabet: self.clone(),
            system,
        }
    }

    /// A [`BlackBoxTeacher`] for `system`, a membership function over names, testing hypotheses
    /// with `oracle`.
    ///
    /// ```
    /// use guarantor_lstar::oracle::RandomWords;
    /// use guarantor_lstar::{Alphabet, LearnerConfig};
    /// let alphabet = Alphabet::new(["open", "close"]);
    /// // A door that is never closed twice in a row.
    /// let door = |w: &[&str]| !w.windows(2).any(|p| p == ["close", "close"]);
    /// let mut teacher = alphabet.teacher(door, RandomWords::new(7, 200, 0, 8));
    /// let dfa = teacher.learn(LearnerConfig::default())?;
    /// assert_eq!(dfa.num_states(), 3);
    /// let lts = alphabet.to_safety_lts(&dfa)?;
    /// assert_eq!(lts.num_states(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn teacher<F, O>(&self, system: F, oracle: O) -> BlackBoxTeacher<Named<F>, O>
    where
        F: FnMut(&[&str]) -> bool,
        O: EquivalenceOracle,
    {
        BlackBoxTeacher::new(self.len(), self.named(system), oracle)
    }

    /// `dfa` as an [`Lts`] with an accepting set, actions named by this alphabet
    /// ([`Dfa::to_lts`]).
    ///
    /// # Errors
    /// [`LstarError::AlphabetMismatch`] if `dfa` has another number of symbols.
    pub fn to_lts(&self, dfa: &Dfa) -> Result<Lts, LstarError> {
        dfa.to_lts(&self.names)
    }

    /// A prefix-closed `dfa` as a safety [`Lts`], actions named by this alphabet
    /// ([`Dfa::to_safety_lts`]).
    ///
    /// # Errors
    /// [`LstarError::NotPrefixClosed`]; [`LstarError::AlphabetMismatch`].
    pub fn to_safety_lts(&self, dfa: &Dfa) -> Result<Lts, LstarError> {
        dfa.to_safety_lts(&self.names)
    }
}

/// A membership function over action names, seen as one over symbols ([`Alphabet::named`]).
#[derive(Clone, Debug)]
pub struct Named<F> {
    alphabet: Alphabet,
    system: F,
}

impl<F> Named<F> {
    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }
}

impl<F: FnMut(&[&str]) -> bool> Membership for Named<F> {
    type Error = Infallible;

    fn accepts(&mut self, word: &[Symbol]) -> Result<bool, Infallible> {
        let names = self.alphabet.spell(word);
        Ok((self.system)(&names))
    }
}
