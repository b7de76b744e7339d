//! [`CircReport`]: the verdict of a CIRC-AG_N run and what it cost.

use std::time::Duration;

use guarantor_compose::Verdict;

/// The simplified rule at the end of a run, and whether its alphabet conditions hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSummary {
    /// `S(G_i)` for each (decomposed) component `i`, as component indices.
    pub premises: Vec<Vec<usize>>,
    /// `S(G_{n+1})`, the assumptions of the last premise.
    pub last: Vec<usize>,
    /// Premises dropped by the simplification.
    pub dropped: Vec<usize>,
    /// Soundness condition: `alpha g_i` includes `alpha M_i n alpha P` for every `i`.
    pub sound: bool,
    /// Completeness condition: `alpha g_i` includes `alpha_F(g_i)` for every `i`.
    pub complete: bool,
    /// The assumption alphabet `A` (action names).
    pub alphabet: Vec<String>,
}

/// The result of [`check_circ`](crate::check_circ).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CircReport {
    /// Holds with the assumptions of the needed premises (labelled by prepared component), or
    /// violated with a counterexample of the full system.
    pub verdict: Verdict,
    /// Inner iterations (assumption generations followed by premise checks).
    pub iterations: usize,
    /// Alphabet refinements.
    pub alphabet_refinements: usize,
    /// SAT solver calls.
    pub sat_calls: usize,
    /// The largest total-size bound `k` reached.
    pub max_k: usize,
    /// The sizes of the final assumptions, one per (decomposed) component; 0 for a dropped
    /// premise or when no assumptions were generated for the final alphabet.
    pub assumption_sizes: Vec<usize>,
    /// Constraints in the final encoding.
    pub constraints: usize,
    /// Constraints carried over by alphabet refinements (Lemma 8).
    pub reused_constraints: usize,
    /// The final rule.
    pub rule: RuleSummary,
    /// Time spent in SAT (encoding and solving).
    pub sat_time: Duration,
    /// Time spent checking premises and analysing counterexamples.
    pub check_time: Duration,
    /// Premise checks run (the last premise included; a violated premise decided on a reduced
    /// environment and re-run for its counterexample counts once).
    pub premise_checks: usize,
    /// Premise checks skipped because the premise held before with the same guarantees.
    pub cached_premises: usize,
    /// States of the largest product a premise check explored.
    pub largest_product: usize,
}

impl CircReport {
    /// The largest and smallest final assumption (over kept premises), if any.
    pub fn size_range(&self) -> Option<(usize, usize)> {
        let kept = self.assumption_sizes.iter().copied().filter(|&s| s > 0);
        let max = kept.clone().max()?;
        Some((max, kept.min().unwrap_or(max)))
    }
}
