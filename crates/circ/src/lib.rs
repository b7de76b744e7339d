//! # guarantor-circ: circular n-way assume-guarantee reasoning (CIRC-AG_N)
//!
//! Elkader, Grumberg, Pasareanu and Shoham, "Automated circular assume-guarantee reasoning with
//! N-way decomposition and alphabet refinement" (CAV 2016): prove or refute
//! `M_1 || ... || M_n |= P` with one small *guarantee* `g_i` per component, found by SAT, and a
//! circular rule whose premises are checked one component at a time.
//!
//! ## Should I use this crate?
//! Use it for systems of many components that synchronise on few actions (client-server, resource
//! arbiters): each premise composes one component with a few small assumptions. For two components
//! or one dominant component, monolithic checking ([`guarantor_compose::check_safety`]) or L*
//! (`guarantor-lstar`) is usually faster.
//!
//! ## Example
//! ```
//! use guarantor_circ::{check_circ, CircConfig};
//! use guarantor_lts::{Lts, LtsBuilder, StateId};
//! # fn lts(edges: &[(usize, &str, usize)]) -> Lts {
//! #     let mut b = LtsBuilder::new();
//! #     for &(s, a, t) in edges {
//! #         b.ensure_states(s.max(t) + 1).unwrap();
//! #         b.add_transition_named(StateId::must(s), a, StateId::must(t)).unwrap();
//! #     }
//! #     b.build().unwrap()
//! # }
//! let input = lts(&[(0, "input", 1), (1, "send", 2), (2, "ack", 0)]);
//! let output = lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)]);
//! let order = lts(&[(0, "input", 1), (1, "output", 0)]);
//! let report = check_circ(&[&input, &output], &[&order], &CircConfig::default())?;
//! assert!(report.verdict.is_holds());
//! // The certificate holds one guarantee per kept premise; each re-checks with compose.
//! let cert = report.verdict.certificate().unwrap();
//! assert_eq!(cert.assumptions.len(), 2);
//! # Ok::<(), guarantor_circ::CircError>(())
//! ```
//!
//! ## The rule (section 3)
//! Premises `M_i |= G_i > g_i` (`i = 1..n`) and `G |= P`, where `M |= A > P` is the circular
//! triple of Definition 3 (checked by [`guarantor_compose::ag::check_circular_premise`]: the
//! assumptions need not allow the last step). `G_i` comes from a [`Policy`]: all other guarantees
//! (the paper's experiments), the neighbours sharing actions, or given sets. The rule is sound when
//! `alpha g_i` includes `alpha M_i n alpha P` and complete when it also includes the interface
//! alphabet `alpha J_i`; [`RuleSummary`] reports both conditions for the final alphabet.
//!
//! ## The algorithm, as reconstructed (the paper's listings are lost from our copy)
//! **ACR (Algorithm 1).** `A := alpha P` (with alphabet refinement) or `A := alpha P u U alpha J_i`
//! (without); `alpha g_i = A n alpha M_i`. Outer loop: simplify the rule for `A` ([`rule`]: `S(G_i)`,
//! `S(G_{n+1})`, the kept premises, closures `Cl` and `T`); start a fresh [`encode::Synthesizer`]
//! seeded with the reusable constraints. Inner loop: `GenAssmp`, then `ApplyAG`; stop on "true"
//! (holds, with the assumptions as certificate) or on an abstract counterexample, which goes to
//! `AlphaRefine`: real (violated) or a larger `A` (repeat).
//!
//! **`GenAssmp` (6.1).** Minimal DLTSs `g_1..g_n` of total size `<= k` satisfying the constraints
//! `C`; `k` starts at `n` and grows only on UNSAT ([`encode`] documents the encoding: membership
//! atoms are single literals, BFS symmetry breaking, one totalizer, the bound as an assumption).
//!
//! **`ApplyAG` (Algorithm 2).** Checks every kept premise `M_i |= S(G_i) > g_i`, then
//! `S(G_{n+1}) |= P`. A counterexample `s` of the last premise is an abstract error if
//! `s|g_j in L(M_j|g_j)` for every `j in S(G_{n+1})` (Lemma 3); otherwise it yields
//! `OR_{j in S(G_{n+1})} -(s|g_j, j)`. Every failing premise contributes, each with up to `k`
//! counterexamples (the paper's "k counterexamples per iteration";
//! [`CexPerIteration::PerPremise`], default 64: the check records distinct violating traces,
//! shortest first, instead of stopping at the first). All abstract counterexamples of the last
//! premise go to `AlphaRefine` together.
//!
//! **`UpdateConstraints` (Algorithm 3)** for a counterexample `sa` of premise `i`:
//! 1. `ExtendTrace` (Algorithm 4): embed the trace, component after component, into each
//!    `M_j|g_j` whose actions it does not cover yet, inserting `M_j`'s missing actions breadth-first
//!    (shortest insertion); a component that cannot follow leaves the trace unchanged (we also try
//!    following the prefix `s` and keeping `a` as last step).
//! 2. Abstract error: the shortest prefix violating `P` is in every `M_j|g_j`, `j in S(G_{n+1})`.
//! 3. Closed sets (Lemma 4(1)): if for some closure `G in T(g_i)` the trace `sa` is in every
//!    `M_j|g_j` (`j in G`), add `+(sa|g_j, j)` for all `j in G`; else if `s` is, add `+(s|g_j, j)`
//!    for all `j in G` and `+(sa|g_i, i)`.
//! 4. Property (Lemma 4(2)): if `sa` (resp. `s`) violates `P`, add
//!    `OR_{j in S(G_{n+1}) \ {i}} -(sa|g_j, j)` (resp. with `s`).
//! 5. Otherwise the default `+(sa|g_i, i) OR OR_{j in S(G_i)} -(s|g_j, j)`.
//!
//! Every constraint holds for (1) any assumptions that satisfy the rule and (2) the abstraction
//! `g_j = M_j|alpha g_j` (Lemma 6), so no useful assumption is ever excluded and the minimal-size
//! search terminates; each counterexample is excluded (Lemma 5).
//!
//! **`AlphaRefine` (Algorithm 5).** For each abstract counterexample `s` over `A`: embed `s` into each
//! `M_i`, inserting the actions of its completeness alphabet `alpha_F(g_i)` missing from `A`; if
//! these completions merge into one trace (the paper's Match; our merge is greedy and exact) it is
//! real by Lemma 7, and adding each component's private actions gives a run of the whole system.
//! Otherwise, for every pair of completions, scan their common projections backwards and add the
//! actions at the first disagreement to `A` (the additions of all abstract counterexamples of one
//! iteration are joined: one refinement instead of one per counterexample).
//!
//! **Reuse (7.1, Lemma 8).** Constraints whose validity rests only on property checks and on
//! non-membership checks are kept as traces (`IncTr`): the last-premise exclusions, the Lemma 4(2)
//! constraints and the default constraints (which need no check at all). After a refinement they
//! are projected onto the new alphabets and re-simplified sets (the RC operator). Lemma 4(1)
//! constraints rest on membership checks and are not reused as they are; instead every premise
//! counterexample seen so far is *analysed again* under the refined alphabets (extended, and its
//! membership checks re-done), which is the paper's "naive" reuse and valid for any trace of
//! `M_i` ([`CircConfig::reanalyse_traces`]).
//!
//! ## Guarantees from projections
//! Before the SAT search at an alphabet `A`, ACR tries the components' own projections
//! `g_i = M_i|alpha g_i`, determinised and minimised (while none has more than
//! [`CircConfig::max_projection_states`] states). They satisfy every premise `M_i |= S(G_i) > g_i`
//! by construction, so only the last premise is checked: if it holds they are the certificate; if
//! not, each counterexample is an abstract error (Lemma 3 holds trivially for them) and goes to
//! `AlphaRefine`, which finds it real or grows `A`. This is the classic abstraction of each
//! component to its interface, refined by CIRC's own alphabet refinement, and it is what pays
//! where the state space grows through actions no other component and no property sees: Gas
//! Station's customers arriving, dining philosophers' forks (the guarantees of the lock's users
//! need only `lock`, `unlock` and the property's actions). A projection or a last premise that
//! outgrows its limit hands the alphabet to the synthesis, which goes on from there as before.
//!
//! ## What keeps an iteration cheap
//! - **Per-assumption capacities** ([`encode`]): each assumption's SAT encoding has only the
//!   states it has needed so far (plus an overflow colour that keeps minimality), not
//!   `k - n + 1` states each, so the encoding stays small with many components.
//! - **Reduced environments** (`reduce`): a premise is decided on its assumptions with the actions
//!   the checked component does not see hidden, pairwise merged and minimised (same projected
//!   language), so `M_i` with `m` independent guarantees is not an `m`-fold product; a
//!   counterexample is lifted back to a run of the original guarantees for the analysis.
//! - **Premise cache**: a premise that held is not re-checked while its own guarantee and the
//!   guarantees it assumes are unchanged (any change is a new key; cleared on refinement).
//! - **Bound hint**: after a refinement the search does not climb from `k = n` one UNSAT call at
//!   a time but tries the previous alphabet's bound first and bisects below it when feasible
//!   (feasibility is monotone in `k`, so the result is still minimal).
//!
//! ## Threads
//! The premises of one iteration are independent checks of the same guarantees, so with more than
//! one thread ([`Config::threads`](guarantor_compose::Config::threads) of the composition
//! budgets, every core when unset) they are decided concurrently on the config's
//! [`Threads`](guarantor_compose::threads::Threads), the last premise with them, and their
//! answers are taken in premise order (`premises.rs`). The verdict, the counterexample, the
//! guarantees and every counter are those of the one-thread run; only the
//! largest product a [`Monitor`](guarantor_compose::Monitor) saw may be larger, when an iteration
//! ends at a premise's abstract counterexample after a later premise was checked beside it. The
//! SAT search (`GenAssmp`) stays on one thread: each call depends on the constraints of the last.
//! With [`CexPerIteration::One`] the premises are checked one by one (the loop stops at the first
//! failing one).
//!
//! ## What keeps the iterations few
//! Several counterexamples per premise, the re-analysis of old counterexamples after a
//! refinement, and joined refinements (above). On Client-Server `N = 14` they take NW+AR from 264
//! iterations and 25 refinements to about 25 iterations and 4-6 refinements.
//!
//! All of these are switches of [`CircConfig`] (the capacities are not: they are exact).
//!
//! ## Preparing LTSA inputs
//! Several properties, components with `ERROR` states and property actions no component has are
//! rewritten into the paper's setting (see [`system`]). Certificates are relative to the
//! [`PreparedSystem`] returned by [`prepare`]; counterexamples are traces of the original system.
//!
//! ## API themes
//! - [`Circ`] is the method: it implements [`guarantor_compose::Method`], takes a
//!   [`Problem`](guarantor_compose::Problem) with named components and properties and the check's
//!   budgets, and carries every switch of [`CircConfig`] plus an optional two-way split by
//!   [`ComponentId`](guarantor_lts::ComponentId); its certificates label assumptions with
//!   component names (`"Input"`, `"Input+Output"`, `"env"`: see [`method`]). It is how a checker, a
//!   portfolio or a test suite runs this crate:
//!
//!   ```
//!   use guarantor_circ::Circ;
//!   use guarantor_compose::{Config, Method, Problem};
//!   use guarantor_lts::Lts;
//!
//!   let problem = Problem::new()
//!       .with_component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!       .with_component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!       .with_property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?);
//!   let report = Circ::new().check(&problem, &Config::default())?;
//!   assert!(report.verdict.is_holds());
//!   # Ok::<(), Box<dyn std::error::Error>>(())
//!   ```
//! - [`check_circ`] is the entry point on slices of LTSs; [`CircConfig`] holds the mode, policy,
//!   encoding switches and budgets (iterations, SAT conflicts, total assumption size, and the
//!   composition budgets and deadline). Budgets end in [`CircError`]s with
//!   [`CircError::is_budget`] true.
//! - [`encode`] and [`sat`] can be used alone: [`encode::Synthesizer`] finds minimal assumptions
//!   for given constraints; the encoder writes into a [`sat::ClauseSink`], so a
//!   [`varisat::CnfFormula`] gives a DIMACS dump ([`encode::encode_into`]).
//! - Errors: bad input and budgets are [`CircError`]s; nothing panics on bad input.

// Indices and letters follow the paper's notation (i, j, k, a, c, d), and the SAT encoding's
// loops index several parallel tables at once.
#![allow(clippy::many_single_char_names, clippy::needless_range_loop)]

mod acr;
pub mod config;
pub mod encode;
pub mod error;
pub mod method;
mod premises;
pub mod proof;
mod reduce;
pub mod report;
pub mod rule;
pub mod sat;
mod seed;
pub mod system;
mod violations;

use guarantor_lts::Lts;

pub use config::{CexPerIteration, CircConfig, Decomposition, Disjunction, Policy};
pub use error::CircError;
pub use method::Circ;
pub use report::{CircReport, RuleSummary};
pub use system::{PreparedSystem, prepare};

/// Checks `components || ... |= properties` (all properties) with CIRC-AG_N.
///
/// # Errors
/// Bad input ([`CircError::NoComponents`], a nondeterministic property, a bad policy or grouping)
/// and exhausted budgets.
pub fn check_circ(
    components: &[&Lts],
    properties: &[&Lts],
    config: &CircConfig,
) -> Result<CircReport, CircError> {
    run(components, properties, config)
}

/// Prepares the system and runs ACR on it.
fn run(
    components: &[&Lts],
    properties: &[&Lts],
    config: &CircConfig,
) -> Result<CircReport, CircError> {
    let sys = system::prepare(components, properties, &config.mode, &config.compose)?;
    acr::Acr::new(&sys, config)?.run((components, properties))
}

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
