//! # guarantor-lts: labelled transition systems
//!
//! The bottom layer of Guarantor. Everything else — composition, assumption learning, quotients,
//! circular reasoning, the FSP front end — speaks in terms of the [`Lts`] defined here.
//!
//! ## What lives here
//! - [`StateId`], [`ActionId`]: typed 32-bit ids ([`id`]); running out of them is an error.
//! - [`Alphabet`]: interned action names, tau at id 0 ([`alphabet`]).
//! - [`Lts`] and [`LtsBuilder`]: a compact, immutable LTS with an optional error state and optional
//!   accepting states ([`mod@lts`], [`builder`]).
//! - [`ops`]: reachability and trimming, tau-closure, determinisation, DFA minimisation (Hopcroft),
//!   strong-bisimulation minimisation, hiding, projection, relabelling, completion, complement, trace
//!   membership and language inclusion with a shortest counterexample.
//! - [`io`]: Aldebaran `.aut` read and write, DOT output, JSON (feature `serde`).
//!
//! ## Semantics
//! LTSA's: the alphabet is declared, not inferred; an action of the alphabet that a state does not
//! offer is blocked there; tau is internal and never synchronises. An LTS may carry one *error state*
//! (LTSA's `ERROR`); an LTS may carry accepting states, which makes it a finite-state machine.
//!
//! ## Error handling
//! Fallible operations return [`LtsError`] (in-memory problems) or [`io::ParseError`] (malformed
//! input, with line and column). Functions panic only on caller bugs such as an id from another LTS,
//! and say so under a `# Panics` heading.
//!
//! ## Crate features
//! - `serde`: serialize ids, alphabets and LTSs; JSON I/O in [`io::json`].
//! - `proptest`: strategies for random LTSs and deterministic properties in `strategy`.
//!
//! ## Example
//! ```
//! use guarantor_lts::LtsBuilder;
//! let mut b = LtsBuilder::new();
//! let s0 = b.add_state()?;
//! let s1 = b.add_state()?;
//! b.add_transition_named(s0, "a", s1)?;
//! b.action("never-offered")?; // declared, blocked everywhere
//! let lts = b.build()?;
//! assert_eq!(lts.alphabet().len(), 2);
//! # Ok::<(), guarantor_lts::LtsError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod alphabet;
pub mod builder;
pub mod error;
pub mod id;
pub mod io;
pub mod lts;
pub mod ops;
pub mod progress;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategy;

pub use alphabet::{Alphabet, TAU_NAME};
pub use builder::LtsBuilder;
pub use error::LtsError;
pub use id::{ActionId, ComponentId, IdOverflow, PropertyId, StateId};
pub use lts::{Edge, Lts, Transition};
pub use progress::ProgressTest;

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
