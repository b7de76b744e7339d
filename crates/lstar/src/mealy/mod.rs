//! Learning Mealy machines: systems that answer every input with an output (protocol
//! implementations, controllers, parsers), the common case of automata learning.
//!
//! - [`Mealy`]: the machine type (typed [`StateId`]s, input [`Symbol`]s and [`OutputId`]s with
//!   names; completion, minimisation, equivalence with a shortest distinguishing word), read and
//!   written in AALpy's DOT format ([`Mealy::from_dot`], [`Mealy::to_dot`]).
//! - [`Sul`]: the system under learning (reset, step, optional batched query); [`Simulated`]
//!   makes one from a known machine, [`system`] from two closures over input names.
//! - [`Cache`]: the layer every query goes through: answers what it has seen, counts what reaches
//!   the system ([`Counts`] per [`Phase`]), reports a non-deterministic system.
//! - Learners ([`Algorithm`]): L# (Vaandrager, Garhewal, Rot and Wissmann, TACAS 2022) with
//!   adaptive distinguishing sequences, L* with Rivest-Schapire counterexample processing, and
//!   Kearns-Vazirani with a discrimination tree.
//! - Equivalence oracles ([`EquivalenceOracle`]): [`WMethod`], [`WpMethod`], [`RandomWords`],
//!   [`RandomWalk`], [`StatePrefix`], and [`Exact`] for a known target.
//! - [`learn`] and [`learn_with`]: the loop, returning the machine and its [`Stats`].
//!
//! This module is separate from the DFA learners because a Mealy learner asks for output words
//! rather than bits, and its observation tree is the cache itself; the alphabet ([`Symbol`],
//! [`Word`]) is shared.

mod ads;
mod cache;
mod dot;
mod kv;
mod lsharp;
mod lstar;
mod machine;
mod oracle;
mod sul;
mod tour;

use std::time::Instant;

pub use cache::{Cache, Counts, Phase};
pub use dot::DotError;
pub use machine::{Mealy, OutputId, StateId};
pub use oracle::{
    EquivalenceOracle, Exact, RandomWalk, RandomWords, StatePrefix, WMethod, WpMethod,
};
pub use sul::{FnSystem, Named, Simulated, SimulatedOutput, Sul, Undefined, system};

use crate::dfa::{Symbol, Word};

/// What can go wrong while learning a Mealy machine.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MealyError {
    /// The system answered one word two ways: after the inputs `word`, it once output `first` and
    /// once `second`. A non-deterministic system has no Mealy machine to learn.
    #[error(
        "non-deterministic system: after {word:?} it output `{first}` once and `{second}` once"
    )]
    NonDeterministic {
        /// The input names, up to the step that differed.
        word: Vec<String>,
        /// The output the cache had.
        first: String,
        /// The output the system gave now.
        second: String,
    },
    /// The system failed.
    #[error("the system failed: {0}")]
    System(Box<dyn std::error::Error + Send + Sync>),
    /// Two machines compared over different input names.
    #[error("different inputs: {left:?} and {right:?}")]
    AlphabetMismatch {
        /// The inputs of the first machine.
        left: Vec<String>,
        /// The inputs of the second.
        right: Vec<String>,
    },
    /// More learning queries than [`Config::max_queries`].
    #[error("membership query limit of {limit} exceeded")]
    QueryLimit {
        /// The limit.
        limit: u64,
    },
    /// An equivalence oracle returned a word on which the hypothesis and the system agree.
    #[error("the oracle's counterexample {word:?} is not one")]
    SpuriousCounterexample {
        /// The input names of the word.
        word: Vec<String>,
    },
    /// More hypotheses than [`Config::max_rounds`].
    #[error("round limit of {limit} exceeded")]
    RoundLimit {
        /// The limit.
        limit: u64,
    },
}

/// Which learner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// L#: an observation tree, states told apart by apartness (the default: fewest queries).
    #[default]
    LSharp,
    /// L* with an observation table and Rivest-Schapire counterexample processing.
    LStar,
    /// Kearns-Vazirani: a discrimination tree, one new state per counterexample found by
    /// Rivest-Schapire binary search (few queries per state, more equivalence queries).
    Kv,
}

/// Settings of [`learn`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The learner.
    pub algorithm: Algorithm,
    /// At most this many hypotheses (equivalence queries).
    pub max_rounds: Option<u64>,
    /// At most this many words sent to the system by the learner.
    pub max_queries: Option<u64>,
    /// L# only: test every identified frontier node once against its candidate before a
    /// hypothesis (fewer equivalence queries, more membership queries; off by default).
    pub verify: bool,
    /// L# only: before each hypothesis goes to the oracle, one membership query walks the system
    /// along the hypothesis testing every two-input word from every state the cache has not
    /// seen (at most two such queries when the first ends in a sink); a difference is processed
    /// as a counterexample without an equivalence query (fewer equivalence queries, more steps
    /// and one more query and reset per hypothesis; see `mealy::tour`).
    pub tour: bool,
}

impl Config {
    /// The default settings with `algorithm`.
    pub fn with_algorithm(algorithm: Algorithm) -> Self {
        Self {
            algorithm,
            ..Self::default()
        }
    }
}

/// What a learning run cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Stats {
    /// The learner's words, steps and resets that reached the system (after the cache).
    pub learning: Counts,
    /// The equivalence oracle's.
    pub testing: Counts,
    /// Hypotheses given to the equivalence oracle.
    pub equivalence_queries: u64,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
}

/// A learned machine and what it cost.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Learned {
    /// The last hypothesis, which passed the oracle's tests.
    pub machine: Mealy,
    /// The counts.
    pub stats: Stats,
}

/// A learner's side of the loop.
trait Engine {
    /// The next hypothesis: consistent with every answer the learner has looked at.
    fn hypothesis(&mut self, cache: &mut Cache<'_>) -> Result<Mealy, MealyError>;
    /// Takes a word on which `hypothesis` and the system (whose answer the cache has) differ.
    fn counterexample(
        &mut self,
        cache: &mut Cache<'_>,
        hypothesis: &Mealy,
        word: &[Symbol],
    ) -> Result<(), MealyError>;
}

/// Learns the Mealy machine of `sul` over its own input names, testing each hypothesis with
/// `oracle`.
///
/// ```
/// use guarantor_lstar::mealy::{learn, Config, Mealy, Simulated, WpMethod};
/// let target = Mealy::from_dot(
///     "digraph g { s0 -> s1 [label=\"coin/beep\"]; s0 -> s0 [label=\"button/init\"];\n\
///      s1 -> s1 [label=\"coin/beep\"]; s1 -> s0 [label=\"button/coffee\"]; __start0 -> s0; }",
/// )?;
/// let learned = learn(Simulated::new(&target), &mut WpMethod::new(2), Config::default())?;
/// assert!(learned.machine.equivalent(&target)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// See [`MealyError`].
pub fn learn<S: Named>(
    sul: S,
    oracle: &mut dyn EquivalenceOracle,
    config: Config,
) -> Result<Learned, MealyError> {
    let names = sul.input_names();
    let mut cache = Cache::new(sul, names);
    learn_with(&mut cache, oracle, &config)
}

/// As [`learn`], through a cache the caller made (and can read afterwards).
///
/// # Errors
/// See [`MealyError`].
pub fn learn_with(
    cache: &mut Cache<'_>,
    oracle: &mut dyn EquivalenceOracle,
    config: &Config,
) -> Result<Learned, MealyError> {
    let start = Instant::now();
    cache.set_max_queries(config.max_queries);
    let mut engine: Box<dyn Engine> = match config.algorithm {
        Algorithm::LSharp => Box::new(lsharp::LSharp::new(
            cache.num_inputs(),
            config.verify,
            config.tour,
        )),
        Algorithm::LStar => Box::new(lstar::LStar::new(cache.num_inputs())),
        Algorithm::Kv => Box::new(kv::Kv::new(cache.num_inputs())),
    };
    let mut equivalence_queries = 0;
    let mut last_cex: Option<Word> = None;
    let machine = loop {
        cache.set_phase(Phase::Learning);
        let mut hyp = engine.hypothesis(cache)?;
        // A counterexample that still is one, or any other answer the cache has (the oracle's
        // earlier tests included) that the hypothesis contradicts, is processed without the
        // oracle: the cache's answers cost nothing more.
        loop {
            let free = match last_cex.as_ref().filter(|w| differs(cache, &hyp, w)) {
                Some(w) => Some(w.clone()),
                None => cache.disagreement(&hyp),
            };
            let Some(cex) = free else { break };
            engine.counterexample(cache, &hyp, &cex)?;
            hyp = engine.hypothesis(cache)?;
        }
        if config
            .max_rounds
            .is_some_and(|limit| equivalence_queries >= limit)
        {
            return Err(MealyError::RoundLimit {
                limit: equivalence_queries,
            });
        }
        equivalence_queries += 1;
        cache.set_phase(Phase::Testing);
        let found = oracle.find_counterexample(&hyp, cache)?;
        if let Some(cex) = &found {
            let out = cache.outputs(cex)?;
            if hyp.outputs(cex).as_ref() == Some(&out) {
                return Err(MealyError::SpuriousCounterexample {
                    word: hyp.input_word(cex),
                });
            }
        }
        cache.set_phase(Phase::Learning);
        match found {
            None => break hyp,
            Some(cex) => {
                engine.counterexample(cache, &hyp, &cex)?;
                last_cex = Some(cex);
            }
        }
    };
    let stats = Stats {
        learning: cache.counts(Phase::Learning),
        testing: cache.counts(Phase::Testing),
        equivalence_queries,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok(Learned { machine, stats })
}

/// Whether the cache knows `word` and `hyp` answers it differently.
fn differs(cache: &Cache<'_>, hyp: &Mealy, word: &[Symbol]) -> bool {
    cache
        .known(word)
        .is_some_and(|out| hyp.outputs(word).as_ref() != Some(&out))
}

/// The hypothesis with `n` states whose transition of state `q` on input `a` is
/// `next(q, a)`, its outputs numbered as the cache numbers them.
fn build(
    cache: &Cache<'_>,
    n: usize,
    mut next: impl FnMut(usize, Symbol) -> (usize, OutputId),
) -> Mealy {
    let mut m = Mealy::new(cache.input_names());
    for o in cache.output_names() {
        m.intern_output(o);
    }
    for _ in 1..n {
        m.add_state();
    }
    for q in 0..n {
        for a in Symbol::all(cache.num_inputs()) {
            let (r, o) = next(q, a);
            m.set_transition_id(StateId::new(q), a, StateId::new(r), o);
        }
    }
    m
}
