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
    type Error = LstarError;

    /// The last of the run's answers.
    ///
    /// # Errors
    /// [`LstarError::WrongAnswerCount`] if the run did not give `word.len() + 1` answers.
    fn accepts(&mut self, word: &[Symbol]) -> Result<bool, LstarError> {
        let mut answers = std::mem::take(&mut self.answers);
        (self.run)(word, &mut answers);
        let found = answers.len();
        let last = answers.last().copied();
        self.answers = answers;
        match last {
            Some(last) if found == word.len() + 1 => Ok(last),
            _ => Err(wrong_count(word, found)),
        }
    }

    fn answers_prefixes(&self) -> bool {
        true
    }

    /// The run's answers, as they are: the [`BlackBoxTeacher`] checks their number.
    fn accepts_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), LstarError> {
        (self.run)(word, answers);
        Ok(())
    }
}

/// [`LstarError::WrongAnswerCount`] for `found` answers to the prefixes of `word`.
fn wrong_count(word: &[Symbol], found: usize) -> LstarError {
    LstarError::WrongAnswerCount {
        word: word.iter().map(|a| a.index()).collect(),
        expected: word.len() + 1,
        found,
    }
}

/// [`LstarError::ContradictoryAnswers`] for `word`.
fn contradiction(word: &[Symbol], first: bool, then: bool) -> LstarError {
    LstarError::ContradictoryAnswers {
        word: word.iter().map(|a| a.index()).collect(),
        first,
        then,
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
    /// Words sent to the system a second time to check that it answers them the same way
    /// ([`BlackBoxTeacher::with_rechecks`]); not counted in `membership_queries`.
    pub rechecks: u64,
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
        )?;
        if self.rechecks > 0 {
            write!(f, "; {} words asked twice", self.rechecks)?;
        }
        Ok(())
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
///
/// Every answer is checked (in release builds too): a step-wise system that gives the wrong number
/// of answers for a word ([`LstarError::WrongAnswerCount`]), or answers a word already answered
/// the other way ([`LstarError::ContradictoryAnswers`]), stops learning with an error that names
/// the word, rather than teaching the learner a wrong machine. The cache never asks a word twice,
/// so a system that answers at random can still go unnoticed: [`BlackBoxTeacher::with_rechecks`]
/// sends a sample of the words again to find out.
#[derive(Clone, Debug)]
pub struct BlackBoxTeacher<M, O> {
    oracle: O,
    num_symbols: usize,
    asked: Asked<M>,
}

/// The system side of a [`BlackBoxTeacher`]: the system, every answer it gave (the cache), what
/// was asked, and how often a word sent is sent again.
#[derive(Clone, Debug)]
struct Asked<M> {
    system: M,
    cache: Cache,
    counters: Counters,
    /// Every this-many-th word sent is sent twice (0: never).
    recheck_every: u64,
}

impl<M: Membership, O: EquivalenceOracle> BlackBoxTeacher<M, O> {
    /// A teacher for `system` over the symbols `0..num_symbols`, testing hypotheses with `oracle`.
    pub fn new(num_symbols: usize, system: M, oracle: O) -> Self {
        Self {
            oracle,
            num_symbols,
            asked: Asked {
                system,
                cache: Cache::new(num_symbols, false),
                counters: Counters::default(),
                recheck_every: 0,
            },
        }
    }

    /// This teacher, sending every `every`-th word it sends to the system a second time and
    /// stopping with [`LstarError::ContradictoryAnswers`] if the two runs disagree (for a
    /// step-wise system, on any prefix): a sample that detects a non-deterministic system, or one
    /// that is not reset between runs, at the cost of `1 / every` more runs. 0 (the default)
    /// never asks twice; 1 asks every word twice.
    ///
    /// ```
    /// use std::cell::Cell;
    /// use guarantor_lstar::oracle::WpMethod;
    /// use guarantor_lstar::{BlackBoxTeacher, LearnError, LearnerConfig, LstarError, Symbol};
    /// // A system with a hidden state that no reset clears: every fifth run flips its answer.
    /// let runs = Cell::new(0_u32);
    /// let system = |w: &[Symbol]| {
    ///     runs.set(runs.get() + 1);
    ///     (w.len() % 2 == 0) != (runs.get() % 5 == 0)
    /// };
    /// let mut teacher = BlackBoxTeacher::new(2, system, WpMethod::new(1)).with_rechecks(1);
    /// let err = teacher.learn(LearnerConfig::default()).unwrap_err();
    /// assert!(matches!(err, LearnError::Learner(LstarError::ContradictoryAnswers { .. })));
    /// assert!(teacher.counters().rechecks > 0);
    /// ```
    #[must_use]
    pub fn with_rechecks(mut self, every: u64) -> Self {
        self.asked.recheck_every = every;
        self
    }

    /// The number of symbols.
    pub fn num_symbols(&self) -> usize {
        self.num_symbols
    }

    /// What was asked so far.
    pub fn counters(&self) -> &Counters {
        &self.asked.counters
    }

    /// The system.
    pub fn system(&self) -> &M {
        &self.asked.system
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
    /// [`LearnError::Learner`] when a budget of `config` runs out or the system's answers do not
    /// describe a DFA (see the type's docs); [`LearnError::Teacher`] when the system fails.
    pub fn learn(&mut self, config: LearnerConfig) -> Result<Dfa, LearnError<M::Error>> {
        let mut learner = Learner::new(self.num_symbols, config);
        match learn(&mut learner, self) {
            Ok(Outcome::Learned(dfa)) => Ok(dfa),
            Ok(Outcome::Stopped { verdict, .. }) => match verdict {},
            Err(LearnError::Learner(e)) => Err(LearnError::Learner(e)),
            Err(LearnError::Teacher(e)) => Err(e),
        }
    }
}

impl<M: Membership> Asked<M> {
    /// Answers `w` from the cache, or asks the system and caches its answer (every prefix's, when
    /// the system answers step-wise).
    fn ask(&mut self, w: &[Symbol]) -> Result<bool, LearnError<M::Error>> {
        if let Some(known) = self.cache.lookup(w) {
            self.counters.cache_hits += 1;
            return Ok(known.accepted);
        }
        if self.system.answers_prefixes() {
            let mut answers = Vec::with_capacity(w.len() + 1);
            self.ask_prefixes(w, &mut answers)?;
            return Ok(answers[w.len()]);
        }
        let accepted = self.system.accepts(w).map_err(LearnError::Teacher)?;
        self.count(w.len());
        if self.recheck_due() {
            self.counters.rechecks += 1;
            let again = self.system.accepts(w).map_err(LearnError::Teacher)?;
            if again != accepted {
                return Err(contradiction(w, accepted, again).into());
            }
        }
        let node = self.cache.node(w);
        self.cache.insert_at(node, accepted)?;
        Ok(accepted)
    }

    /// Counts one word of `symbols` symbols sent.
    fn count(&mut self, symbols: usize) {
        self.counters.membership_queries += 1;
        self.counters.symbols += symbols as u64;
    }

    /// Whether the word just sent is one to send again.
    fn recheck_due(&self) -> bool {
        self.recheck_every > 0
            && self
                .counters
                .membership_queries
                .is_multiple_of(self.recheck_every)
    }

    /// One step-wise run of `w` (one query): `fresh` gets the answers of its prefixes, checked
    /// for their number, and against a second run when one is due.
    fn run(&mut self, w: &[Symbol], fresh: &mut Vec<bool>) -> Result<(), LearnError<M::Error>> {
        self.system
            .accepts_prefixes(w, fresh)
            .map_err(LearnError::Teacher)?;
        self.count(w.len());
        if fresh.len() != w.len() + 1 {
            return Err(wrong_count(w, fresh.len()).into());
        }
        if self.recheck_due() {
            self.counters.rechecks += 1;
            let mut again = Vec::with_capacity(w.len() + 1);
            self.system
                .accepts_prefixes(w, &mut again)
                .map_err(LearnError::Teacher)?;
            if again.len() != w.len() + 1 {
                return Err(wrong_count(w, again.len()).into());
            }
            if let Some(i) = (0..=w.len()).find(|&i| again[i] != fresh[i]) {
                return Err(contradiction(&w[..i], fresh[i], again[i]).into());
            }
        }
        Ok(())
    }

    /// Step-wise: the answers of every prefix of `w` (layout of [`Teacher::membership_prefixes`]),
    /// from the cache where it knows them; the rest from one run of the system on `w` cut after
    /// its last unknown prefix (one query), whose answers the cache keeps, and whose answers for
    /// the prefixes the cache knew must agree with it. A system that does not answer step-wise is
    /// asked each unknown prefix alone (one query each).
    fn ask_prefixes(
        &mut self,
        w: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), LearnError<M::Error>> {
        answers.clear();
        let mut nodes = Vec::with_capacity(w.len() + 1);
        let mut node = 0;
        let mut last_unknown = None;
        for i in 0..=w.len() {
            if i > 0 {
                node = self.cache.child_or_insert(node as usize, w[i - 1]) as u32;
            }
            nodes.push(node);
            match self.cache.answer_at(node) {
                Some(k) => answers.push(k.accepted),
                None => {
                    answers.push(false);
                    last_unknown = Some(i);
                }
            }
        }
        let Some(m) = last_unknown else {
            self.counters.cache_hits += 1;
            return Ok(());
        };
        if !self.system.answers_prefixes() {
            for i in 0..=m {
                if self.cache.answer_at(nodes[i]).is_none() {
                    answers[i] = self.ask(&w[..i])?;
                }
            }
            return Ok(());
        }
        let mut fresh = Vec::with_capacity(m + 1);
        self.run(&w[..m], &mut fresh)?;
        for (i, &a) in fresh.iter().enumerate() {
            match self.cache.answer_at(nodes[i]) {
                Some(known) if known.accepted != a => {
                    return Err(contradiction(&w[..i], known.accepted, a).into());
                }
                Some(_) => {}
                None => {
                    self.cache.insert_at(nodes[i], a)?;
                    answers[i] = a;
                }
            }
        }
        Ok(())
    }
}

impl<M: Membership, O: EquivalenceOracle> BlackBoxTeacher<M, O> {
    fn learner_asks(&mut self, w: &[Symbol]) -> Result<bool, LearnError<M::Error>> {
        self.asked.counters.learner_queries += 1;
        self.asked.ask(w)
    }
}

/// The teacher's error is [`LearnError`]: the system's failure ([`LearnError::Teacher`]), or
/// answers that describe no DFA ([`LearnError::Learner`] with
/// [`LstarError::WrongAnswerCount`] or [`LstarError::ContradictoryAnswers`]).
/// [`BlackBoxTeacher::learn`] hands it on as it is.
impl<M: Membership, O: EquivalenceOracle> Teacher for BlackBoxTeacher<M, O> {
    type Verdict = Infallible;
    type Error = LearnError<M::Error>;

    fn membership(&mut self, word: &[Symbol]) -> Result<bool, Self::Error> {
        let start = Instant::now();
        let answer = self.learner_asks(word);
        self.asked.counters.membership_time += start.elapsed();
        answer
    }

    fn memberships(
        &mut self,
        words: &crate::Queries,
        answers: &mut Vec<bool>,
    ) -> Result<(), Self::Error> {
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
        self.asked.counters.membership_time += start.elapsed();
        result
    }

    fn answers_prefixes(&self) -> bool {
        self.asked.system.answers_prefixes()
    }

    fn membership_prefixes(
        &mut self,
        word: &[Symbol],
        answers: &mut Vec<bool>,
    ) -> Result<(), Self::Error> {
        let start = Instant::now();
        self.asked.counters.learner_queries += 1;
        let result = self.asked.ask_prefixes(word, answers);
        self.asked.counters.membership_time += start.elapsed();
        result
    }

    fn equivalence(&mut self, hypothesis: &Dfa) -> Result<EqAnswer<Infallible>, Self::Error> {
        let start = Instant::now();
        let Self { oracle, asked, .. } = self;
        asked.counters.equivalence_queries += 1;
        let mut failure = None;
        let found = oracle.find_counterexample(hypothesis, &mut |w| {
            asked.counters.oracle_queries += 1;
            asked.ask(w).map_err(|e| {
                failure = Some(e);
                Interrupted
            })
        });
        asked.counters.equivalence_time += start.elapsed();
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
