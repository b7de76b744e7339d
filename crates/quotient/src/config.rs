//! [`QuotientConfig`]: how much work synthesis may do, and how it refines.
//!
//! Two budgets are kept apart on purpose. [`QuotientConfig::compose`] limits the work that must
//! finish for a verdict (composing the rest of the system, the final check, lifting a
//! counterexample): running out of it is an error. [`QuotientConfig::refinement`] and
//! [`QuotientConfig::max_steps`] limit only the refinement loop, which is *anytime*: running out of
//! them ends the loop with the best assumption so far, which is still sound and invertible, and the
//! check goes on with it.

use guarantor_compose::Config;

/// Settings for quotient synthesis. `QuotientConfig::default()` refines to the end, switches
/// direction every ten steps, and sets no budget.
///
/// ```
/// use guarantor_quotient::QuotientConfig;
/// let config = QuotientConfig::default().with_max_steps(50).with_switch_every(5);
/// assert_eq!(config.max_steps, Some(50));
/// assert!(config.refine);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct QuotientConfig {
    /// Budget for composing the rest of the system, the final check and counterexample lifting;
    /// exhausting it is an error. Default: unlimited.
    pub compose: Config,
    /// Budget for the refinement loop (its `max_states` bounds the nodes of the abstract
    /// environment); exhausting it ends the loop with the best assumption so far. Default:
    /// unlimited.
    pub refinement: Config,
    /// The largest number of refinement steps (splits of the abstraction). Default: `None`,
    /// refine until the bounds coincide.
    pub max_steps: Option<usize>,
    /// The refinement loop chooses its split for the forward equivalence for this many steps, then
    /// for the backward equivalence as many, and so on (the paper's prototype used ten).
    /// Default: 10. Zero is read as one.
    pub switch_every: usize,
    /// `true`: the abstraction-refinement construction of sections 5 and 6. `false`: the exact
    /// construction of sections 3 and 4 over the full `M || P_err` (no abstraction, no steps).
    /// Default: `true`.
    pub refine: bool,
    /// `true`: extract the assumption after every refinement step and list the sizes in
    /// [`Synthesis::sizes`](crate::Synthesis::sizes) (a full round per step, so slow). `false`:
    /// extract it once, at the end. Default: `false`.
    pub record_sizes: bool,
    /// `false`: each refinement step splits one block on the one edge the paper's heuristic
    /// picks. `true`: it splits that block on every edge that the heuristic would accept at it
    /// (into it forward, out of it backward) at once, so a step may add several abstract states
    /// and fewer steps are needed. Default: `false`.
    pub split_all: bool,
    /// A bound on the refinement loop's work relative to the exact construction, in percent:
    /// once the abstract nodes the loop's steps have gone over (each step's work grows with the
    /// abstract graph) reach this share of the estimated size of the concrete `M || P_err`, the
    /// loop stops splitting and finishes with the exact construction, whose labels are exact
    /// everywhere (the bounds coincide, as at the end of the loop). The paper's loop ends close
    /// to the concrete graph on models whose subject states are all told apart (its own benchmark
    /// took 169 steps for an `M` of 192 states); this caps such runs near `1 + percent / 100`
    /// times the exact construction, the ski-rental bound. `None`: the paper's loop to the end.
    /// Default: `Some(50)`.
    pub exact_fallback: Option<u32>,
}

impl Default for QuotientConfig {
    fn default() -> Self {
        Self {
            compose: Config::default(),
            refinement: Config::default(),
            max_steps: None,
            switch_every: 10,
            refine: true,
            record_sizes: false,
            split_all: false,
            exact_fallback: Some(50),
        }
    }
}

impl QuotientConfig {
    /// The default config.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the budget for composition and checking.
    #[must_use]
    pub fn with_compose(mut self, compose: Config) -> Self {
        self.compose = compose;
        self
    }

    /// Sets the budget of the refinement loop.
    #[must_use]
    pub fn with_refinement(mut self, refinement: Config) -> Self {
        self.refinement = refinement;
        self
    }

    /// Limits the number of refinement steps.
    #[must_use]
    pub fn with_max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = Some(max_steps);
        self
    }

    /// Sets how many steps pass between switches of direction.
    #[must_use]
    pub fn with_switch_every(mut self, switch_every: usize) -> Self {
        self.switch_every = switch_every;
        self
    }

    /// Records the assumption's size after every refinement step (slow; for studying the loop).
    #[must_use]
    pub fn with_record_sizes(mut self, record_sizes: bool) -> Self {
        self.record_sizes = record_sizes;
        self
    }

    /// Splits a block on every useful edge at it at once (see [`QuotientConfig::split_all`]).
    #[must_use]
    pub fn with_split_all(mut self, split_all: bool) -> Self {
        self.split_all = split_all;
        self
    }

    /// Sets the loop's work bound relative to the exact construction (see
    /// [`QuotientConfig::exact_fallback`]); `None` runs the paper's loop to the end.
    #[must_use]
    pub fn with_exact_fallback(mut self, percent: Option<u32>) -> Self {
        self.exact_fallback = percent;
        self
    }

    /// Chooses refinement (`true`) or the exact construction (`false`).
    #[must_use]
    pub fn with_refine(mut self, refine: bool) -> Self {
        self.refine = refine;
        self
    }
}
