//! # guarantor-quotient: assumptions as quotients
//!
//! Assumption synthesis after Finkbeiner, Schewe and Brill, *Automatic synthesis of assumptions for
//! compositional model checking* (FORTE 2006). To check `M || N |= P`, the component `N` is replaced
//! by a quotient `A = N/~` for an equivalence `~` on `N`'s states chosen so that
//! `M || A |= P` **iff** `M || N |= P`. The assumption therefore proves *and* disproves, it is
//! related to `N` by a homomorphism (a certificate checkable in linear time), and computing it costs
//! about one exploration of `M || N || P_err` — no deterministic automata, no learning. On the
//! paper's benchmark (the sliding window protocol, in FSP) synthesis costs 0.6-1.7 times the
//! monolithic check (docs/benchmarks.md).
//!
//! No other public implementation of this method exists; this crate documents the construction
//! precisely so that it can serve as a reference.
//!
//! ## The construction
//! Let `Q = M || P_err` (all error tuples collapsed into one node). Semantics are LTSA's: `N` moves
//! with `Q` on shared actions, stays put on actions of `Q` outside `alpha N`, and moves alone on its
//! local actions (tau and actions outside `alpha Q`); a tuple holding an error (pi, or an `ERROR`
//! state) has no successors.
//!
//! 1. **Forward labels** ([`synth`], section 3): `V_F(q) = { n | (q, n) reachable in Q || N }`, one
//!    search over pairs, each pair expanded once (a row of bits at a time). `n1 ~F n2` iff they lie in exactly
//!    the same labels. `N_F = N/~F`. Merging forward-equivalent states adds no reachable pair.
//! 2. **Backward labels** (section 4), on `N_F`: `V_B(q) = { n | (q, n) reaches an error in
//!    Q || N_F }`, a backward search from the error node (whose label is every state) and from `N`'s
//!    `ERROR` (in every label). `~B` is "same labels" again; the assumption is
//!    `N/(~B ∘ ~F)`: `n1 ~ n2` iff `[n1]_F ~B [n2]_F`.
//! 3. **Classes from labels** by partition refinement: split by every label in turn, linear in the
//!    total label size (the paper sorts with AVL trees, a `log` factor more). `N`'s `ERROR` always
//!    stays alone, so the quotient's error state is exactly `N`'s.
//! 4. **Modal abstraction of `M`** (section 5): for a partition `≈` of `M`'s states, may edges
//!    (some member to some member), *forward* must edges (every target-block member has a
//!    predecessor in the source block) and *backward* must edges (every source-block member has a
//!    successor in the target block). All error tuples are one node, so an edge into it is a
//!    forward must edge whenever it is a may edge, and a backward one when every source-block
//!    member has a move into some error tuple. Labels over must edges are lower bounds (forward ones need
//!    `M`'s initial state alone in its block), labels over may edges upper bounds. Two states of `N`
//!    are merged only if, at every abstract node, both are in the lower label or both outside the
//!    upper label; states between the bounds somewhere stay alone. The result refines the exact
//!    equivalence, so it is still invertible.
//! 5. **Refinement loop** (section 6): start from `{m0}, {rest}`; while bounds differ, split a block
//!    on a may edge that is not a must edge, chosen by the paper's heuristic (an edge whose lower
//!    labels would change, nearest the initial node); keep the previous lower labels and extend
//!    them only from the edges the split changed; alternate forward and backward every ten steps
//!    ([`QuotientConfig::switch_every`]); stop when no such edge is left in either direction (the
//!    bounds then coincide), the assumption has one state besides `ERROR`, or the lower labels
//!    witness an error path (item 6). The assumption is
//!    extracted once, at the end; upper labels are needed only when the loop is stopped early.
//!    Every round gives a sound and invertible
//!    assumption, so the loop is anytime ([`QuotientConfig::max_steps`],
//!    [`QuotientConfig::refinement`] with its deadline and cancel flag). Details, including the
//!    choices the paper leaves open, are in the docs of [`synth`].
//!
//!    The loop counts its work, and once that reaches [`QuotientConfig::exact_fallback`] percent
//!    (default 50) of the exact construction's estimated work, it finishes with the exact
//!    construction ([`Synthesis::exact_fallback`]): where `N`'s states must nearly all be told
//!    apart, the bounds coincide only on a nearly exact abstraction, reached a split at a time; the
//!    hand-over caps the loop's cost near 1.5 times the exact construction's. `None` runs the
//!    paper's loop to the end.
//! 6. **Violations**: before any of this, a short breadth-first search of the concrete
//!    `M || N || P_err` (a small share of the inputs' size) looks for an error near the start, and
//!    ends synthesis with the one-class quotient if it finds one; the check then ends too, with
//!    the run found as its counterexample once it replays on the original components ([`check`]).
//!    Later, lower labels hold for every member of a block, so an error in a lower label
//!    (forward: the error node labelled, or `N`'s `ERROR` in some label; backward: `n0` in the
//!    label of the initial node `({m0}, p0)`) is a real error path of `M || N`. Then every quotient
//!    of `N` is invertible (its language contains `N`'s, so `M || N/~` violates too), and the
//!    synthesis returns the coarsest: one class besides `ERROR` (the paper's one-state assumption
//!    for its failing property D). The counterexample is not read off the quotient system but
//!    found by a search of the original components guided by it ([`check`]), so it replays.
//! 7. **n components** ([`check_with_quotients`]): replace one component at a time by its quotient
//!    against the composition of the current others; [`default_order`] takes the largest first.
//!
//! ## Should I use this crate?
//! Use it when one component is large and only a small part of its behaviour matters for the
//! property, when you want evidence (the homomorphism) rather than a bare answer, or when you need
//! the assumption to disprove as well as prove. The environment `M` is built explicitly (its states
//! are what the abstraction merges), so the method suits two-process systems and systems whose
//! other components compose to a moderate size.
//!
//! ## Example
//! ```
//! use guarantor_lts::{ComponentId, Lts, LtsBuilder, StateId};
//! use guarantor_quotient::{check_homomorphism, check_with_quotient, QuotientConfig};
//!
//! fn lts(edges: &[(usize, &str, usize)]) -> Lts {
//!     let mut b = LtsBuilder::new();
//!     for &(s, a, t) in edges {
//!         b.ensure_states(s.max(t) + 1).unwrap();
//!         b.add_transition_named(StateId::must(s), a, StateId::must(t)).unwrap();
//!     }
//!     b.build().unwrap()
//! }
//! // N counts up to three local `tick`s before it sends; only "sent or not" matters to P.
//! let m = lts(&[(0, "send", 1), (1, "ack", 0)]);
//! let n = lts(&[(0, "tick", 1), (1, "tick", 2), (2, "tick", 3), (3, "send", 4), (4, "ack", 0)]);
//! let p = lts(&[(0, "send", 1), (1, "ack", 0)]);
//! let report = check_with_quotient(&[&m, &n], &[&p], ComponentId::must(1), &QuotientConfig::default())?;
//! assert!(report.verdict.is_holds());
//! let stage = &report.stages[0];
//! assert!(stage.synthesis.assumption.num_states() < n.num_states());
//! check_homomorphism(&n, &stage.synthesis.assumption, &stage.synthesis.homomorphism).unwrap();
//! # Ok::<(), guarantor_quotient::QuotientError>(())
//! ```
//!
//! ## API themes
//! - **The method.** [`Quotient`] implements [`guarantor_compose::Method`]: it takes a
//!   [`Problem`](guarantor_compose::Problem) with named components and properties and the check's
//!   budgets, replaces one component (by default the largest) and reports the verdict, the
//!   largest search and its counters; its certificate names the replaced component. It is how a
//!   checker, a portfolio or a test suite runs this crate:
//!
//!   ```
//!   use guarantor_compose::{Config, Method, Problem};
//!   use guarantor_lts::Lts;
//!   use guarantor_quotient::Quotient;
//!
//!   let problem = Problem::new()
//!       .with_component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!       .with_component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!       .with_property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?);
//!   let report = Quotient::new().check(&problem, &Config::default())?;
//!   assert!(report.verdict.is_holds());
//!   # Ok::<(), Box<dyn std::error::Error>>(())
//!   ```
//! - **Entry points.** [`check_with_quotient`] (one component replaced) and
//!   [`check_with_quotients`] return a [`QuotientReport`] with compose's [`Verdict`]: `Holds` with
//!   the assumptions in the certificate, `Violated` with a counterexample of the *original*
//!   components, lifted back through the homomorphisms (it replays with
//!   [`guarantor_compose::replay`]). [`synthesize`] gives the assumption alone.
//! - **Evidence.** [`Homomorphism`] and [`check_homomorphism`]: total, onto, initial to initial,
//!   `ERROR` to `ERROR`, every edge to an edge — which gives `L(N) ⊆ L(A)`.
//! - **Budgets.** [`QuotientConfig::compose`] must suffice for a verdict (exhausting it is an
//!   error, [`QuotientError::is_budget`]); the refinement budget and step limit end the loop early
//!   with a still-invertible assumption ([`Synthesis::stopped_by`]).
//! - **Errors.** One [`QuotientError`]; bad input never panics.
//!
//! ## Crate features
//! None.
//!
//! [`Verdict`]: guarantor_compose::Verdict

mod bits;
pub mod certificate;
pub mod check;
pub mod config;
mod equiv;
pub mod error;
mod labels;
pub mod method;
mod modal;
mod partition;
mod probe;
mod problem;
pub mod proof;
mod refine;
pub mod synth;

pub use certificate::{CertificateError, Homomorphism, check_homomorphism};
pub use check::{QuotientReport, Stage, check_with_quotient, check_with_quotients, default_order};
pub use config::QuotientConfig;
pub use error::QuotientError;
pub use method::Quotient;
pub use synth::{ProbeViolation, StepSize, Synthesis, synthesize};

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
