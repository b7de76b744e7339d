//! # guarantor-lstar: L# and L* for Mealy machines and DFAs, and learning-based AG reasoning
//!
//! ## Learning a Mealy machine (start here)
//! A system under learning answers each input with an output: a protocol implementation, a
//! controller, a device. Give its inputs, how it starts and how it steps (or implement
//! [`mealy::Sul`] with reset and step), pick an equivalence oracle, and learn
//! (`examples/mealy_vending.rs`):
//! ```
//! use guarantor_lstar::mealy::{Config, WpMethod, learn, system};
//! // A vending machine: a coin adds credit (at most 2), the button buys a coffee.
//! fn vend(credit: u8, input: &str) -> (u8, &'static str) {
//!     match (input, credit) {
//!         ("coin", 2) => (2, "full"),
//!         ("coin", c) => (c + 1, "ok"),
//!         (_, 0) => (0, "pay first"),
//!         (_, c) => (c - 1, "coffee"),
//!     }
//! }
//! let vending = system(["coin", "button"], || 0, vend);
//! let learned = learn(vending, &mut WpMethod::new(2), Config::default())?;
//! assert_eq!(learned.machine.num_states(), 3);
//! println!("{}", learned.machine.to_dot()); // AALpy's DOT format
//! println!("{} / oracle: {}", learned.stats.learning, learned.stats.testing);
//! # Ok::<(), guarantor_lstar::mealy::MealyError>(())
//! ```
//! [`mealy`] has the machine type ([`mealy::Mealy`]: minimisation, equivalence with a shortest
//! distinguishing word, AALpy's DOT format), the caching layer every query goes through
//! ([`mealy::Cache`]: counts queries, steps and resets, never asks a word twice, reports a
//! non-deterministic system), L# with adaptive distinguishing sequences (the default), L* with
//! Rivest-Schapire processing and Kearns-Vazirani ([`mealy::Algorithm`]), and the oracles W, Wp, random words, random walk, state-prefix and
//! exact. `guarantor learn TARGET.dot` runs them on a simulated black box; docs/learning.md says
//! which learner and oracle to choose.
//!
//! ## Learning DFAs and assumptions
//! Angluin's L* algorithm for regular languages and L# (Vaandrager, Garhewal, Rot and Wissmann,
//! TACAS 2022), written so the caller owns the loop, and the assume-guarantee teachers that use
//! them to learn assumptions (Cobleigh, Giannakopoulou and Pasareanu 2003; Chaki, Clarke,
//! Giannakopoulou and Pasareanu 2004).
//!
//! ## What lives here
//! - [`Learner`]: the sans-IO learner. [`Learner::step`] returns [`Step::Queries`] (answer these
//!   membership queries) or [`Step::Hypothesis`] (here is a DFA; give a counterexample or stop).
//! - [`Teacher`], [`EqAnswer`] and [`learn`]: the convenience driver. An equivalence answer is
//!   three-way — equivalent, a counterexample, or [`EqAnswer::Stop`] with a verdict, which is how an
//!   assume-guarantee teacher ends the whole verification from inside a conjecture.
//! - [`Dfa`], [`Symbol`], [`Word`]: the learner's alphabet is the dense range `0..k`; hypotheses
//!   are complete DFAs, exported as [`Lts`](guarantor_lts::Lts) with [`Dfa::to_lts`] or, when
//!   prefix-closed, as safety LTSs with [`Dfa::to_safety_lts`].
//! - [`LearnerConfig`]: the algorithm ([`LearnerKind`]: L* by default, or L#, which keeps an
//!   observation tree instead of a table and separates states by apartness), L*'s counterexample
//!   analysis ([`CexStrategy`]: Rivest-Schapire by default, Angluin's, Maler-Pnueli's),
//!   prefix-closed mode, budgets. [`Stats`] counts the queries. Every teacher, driver and rule
//!   below runs either algorithm: it is a setting of the one [`Learner`].
//! - [`DfaTeacher`]: a perfect teacher for a known DFA (tests, benchmarks).
//! - [`BlackBoxTeacher`]: a teacher for a system known only by its membership function
//!   ([`Membership`]: any `FnMut(&[Symbol]) -> bool`, or a function over action names through an
//!   [`Alphabet`]) and an equivalence oracle of [`oracle`] ([`oracle::RandomWords`],
//!   [`oracle::RandomWalk`], [`oracle::WMethod`], [`oracle::WpMethod`], or your own
//!   [`oracle::EquivalenceOracle`]); it caches answers so no word reaches the system twice and
//!   keeps [`Counters`] (queries, symbols, cache hits, time per phase). `examples/black_box.rs`
//!   learns a black box in a few lines.
//! - Step-wise answers: a teacher that runs its system symbol by symbol answers for every prefix
//!   of a word in one query ([`Teacher::answers_prefixes`], [`Teacher::membership_prefixes`];
//!   [`DfaTeacher::with_prefix_answers`]; a [`BlackBoxTeacher`] of a [`Dfa`] or a [`StepWise`]
//!   system), as AALpy's SUL does, and L# keeps every one of those answers in its tree.
//! - [`method`]: the rules of [`ag`] as [`Method`](guarantor_compose::Method) values ([`Asym`],
//!   [`AsymN`], [`AsymWeakest`], [`Sym`]) that take a whole [`Problem`](guarantor_compose::Problem):
//!   named components, any number of properties, typed ids.
//! - [`ag`]: assume-guarantee checking with learned assumptions — rule ASYM
//!   ([`ag::check_asym`], the entry point for the facade), its recursive n-way form
//!   ([`ag::check_asym_n`]), the same recursion with each level's weakest assumption computed
//!   rather than learned ([`ag::check_asym_weakest`]) and rule SYM with complement assumptions
//!   ([`ag::check_sym`]). Each
//!   returns an [`ag::AgReport`]: a [`Verdict`](guarantor_compose::Verdict) whose certificate holds
//!   the learned assumptions as safety LTSs, or a counterexample that replays in every component,
//!   plus query statistics and the assumption size of every round.
//!
//! ## How the learner saves queries
//! Every answer goes into a trie; nothing is asked twice, and a batch of queries
//! ([`Queries`]) lists each word once. In prefix-closed mode (weakest
//! assumptions of safety properties are prefix-closed) a word with a rejected prefix is rejected and
//! a prefix of an accepted word is accepted without asking, counterexamples are cut at their first
//! disagreement, and hypotheses have one rejecting sink. Before a hypothesis goes to the teacher it
//! is compared with every known answer; a disagreement is a free counterexample, so a counterexample
//! is reused until it stops being one.
//!
//! ## Determinism
//! No decision depends on hash-map iteration order: rows, columns and cache entries are visited in
//! creation or symbol order, so the same teacher gives the same run.
//!
//! ## Error handling
//! Budgets and inconsistent answers end in [`LstarError`]; the [`learn`] driver adds the teacher's
//! own error in [`LearnError`]. Panics are reserved for caller bugs and documented.
//!
//! ## Example: a DFA
//! ```
//! use guarantor_lstar::{learn, word, Dfa, DfaTeacher, Learner, LearnerConfig, Outcome};
//! // Words over {0, 1} whose number of 0s is divisible by 3.
//! let target = Dfa::new(2, vec![vec![1, 0], vec![2, 1], vec![0, 2]], vec![true, false, false])?;
//! let mut learner = Learner::new(2, LearnerConfig::default());
//! let Outcome::Learned(dfa) = learn(&mut learner, &mut DfaTeacher::new(target))? else {
//!     unreachable!()
//! };
//! assert_eq!(dfa.num_states(), 3);
//! assert!(dfa.accepts(&word(&[0, 1, 0, 0])));
//! println!("{} membership queries", learner.stats().membership_queries);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod ag;
mod black_box;
mod cache;
mod config;
mod dfa;
mod error;
mod learner;
mod lsharp;
pub mod mealy;
pub mod method;
pub mod oracle;
pub mod proof;
mod queries;
mod table;
mod teacher;

pub use black_box::{Alphabet, BlackBoxTeacher, Counters, Membership, Named, StepWise};
pub use config::{CexStrategy, LearnerConfig, LearnerKind, Stats};
pub use dfa::{Dfa, Symbol, Word, word};
pub use error::{LearnError, LstarError};
pub use learner::Learner;
pub use method::{Asym, AsymN, AsymWeakest, Sym};
pub use queries::{Queries, Step};
pub use teacher::{DfaTeacher, EqAnswer, Outcome, Teacher, learn};

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
