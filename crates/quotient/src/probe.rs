//! A short breadth-first search for a real error path of `M || N || P_err`, run before synthesis.
//!
//! When the property is violated, every quotient of `N` is invertible (its language contains
//! `N`'s), and synthesis returns the coarsest one: one class besides `N`'s `ERROR`. The refinement
//! loop reaches that answer once its lower labels witness an error path, and the exact
//! construction once its forward labels reach an error; both first build graphs over the whole
//! of `M`. A violation near the initial state is found far more cheaply by searching the concrete
//! triples `(m, p, n)` directly, as the monolithic check does, so synthesis starts with such a
//! search, stopped at the first error or after a small share of the inputs' size (see
//! [`probe_limit`]): a violation found costs about what the monolithic check pays for it, and a
//! search that finds none costs little next to synthesis.
//!
//! The moves are those of the label fixpoints ([`crate::labels`]): `M` moves with `P` (which stays
//! put on actions it does not observe, and blocks on those it refuses) and with `N` on the actions
//! `N` synchronises on; `P` moves alone on actions outside `alpha M`; `N` moves alone on its local
//! actions. A triple holding an error state has no successors.

use std::collections::VecDeque;

use guarantor_compose::Budget;
use guarantor_lts::StateId;
use rustc_hash::FxHashSet;

use crate::error::QuotientError;
use crate::problem::{Env, Subject};

/// How many triples the search may visit: a thirty-second of the size of the inputs `M` and `N`
/// (states and moves). A triple costs about what one node or edge of the exact construction does
/// (a hash insertion and a successor scan), so a search that finds nothing adds a few percent at
/// most; the violations it is for lie within a few dozen triples of the start.
pub(crate) fn probe_limit(env: &Env<'_>, n: &Subject) -> usize {
    let size = env.m.num_states() + env.m.num_transitions() + n.n + n.out.len() + n.local_out.len();
    size / 32 + 1
}

/// Whether an error of `M || N || P_err` is reachable within `limit` visited triples.
pub(crate) fn violation_within(
    env: &Env<'_>,
    sub: &Subject,
    limit: usize,
    budget: &mut Budget<'_>,
) -> Result<bool, QuotientError> {
    let m = env.m;
    let p_err = env.p.error_state().map(StateId::as_u32);
    let is_error = |(s, p, n): (u32, u32, u32)| {
        m.is_error(StateId::from_u32(s)) || Some(p) == p_err || sub.error == Some(n)
    };
    let start = (m.initial().as_u32(), env.p.initial().as_u32(), sub.initial);
    if is_error(start) {
        return Ok(true);
    }
    let mut seen: FxHashSet<(u32, u32, u32)> = FxHashSet::default();
    let mut queue = VecDeque::new();
    seen.insert(start);
    queue.push_back(start);
    let mut next = Vec::new();
    while let Some(t) = queue.pop_front() {
        budget.tick()?;
        successors(env, sub, t, &mut next);
        for &u in &next {
            if is_error(u) {
                return Ok(true);
            }
            if seen.len() >= limit {
                return Ok(false);
            }
            if seen.insert(u) {
                queue.push_back(u);
            }
        }
    }
    Ok(false)
}

/// Sets `out` to the successors of triple `(s, p, n)` (not an error triple).
fn successors(
    env: &Env<'_>,
    sub: &Subject,
    (s, p, n): (u32, u32, u32),
    out: &mut Vec<(u32, u32, u32)>,
) {
    out.clear();
    // `N` on shared action `g`: along its `g`-moves if it synchronises on `g`, else unmoved.
    let with_n = |g: u32, f: &mut dyn FnMut(u32)| {
        if sub.syncs[g as usize] {
            sub.succ(n, g).for_each(f);
        } else {
            f(n);
        }
    };
    for e in env.m.outgoing(StateId::from_u32(s)) {
        let g = env.g_of_m[e.action.index()];
        if let Some(p2) = env.p_step(p, g) {
            let s2 = e.target.as_u32();
            with_n(g, &mut |n2| out.push((s2, p2, n2)));
        }
    }
    for &(g, p2) in env.p_alone.of(p) {
        with_n(g, &mut |n2| out.push((s, p2, n2)));
    }
    for &n2 in sub.local_out.of(n) {
        out.push((s, p, n2));
    }
}

#[cfg(test)]
mod tests {
    use guarantor_compose::{Config, check_safety};
    use guarantor_lts::Lts;
    use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_lts_with};
    use proptest::prelude::*;

    use super::*;

    fn system() -> impl Strategy<Value = (Lts, Lts, Lts)> {
        let with_errors = |states, pool: &'static [&'static str], transitions| {
            arb_lts_with(
                LtsStrategyConfig::new(states, pool)
                    .max_transitions(transitions)
                    .tau(true)
                    .error_state(true),
            )
        };
        (
            with_errors(9, &["a", "b", "c"], 22),
            with_errors(5, &["a", "b", "d"], 10),
            arb_deterministic_property(3, &["a", "b", "d"]),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Unlimited, the search is a complete safety check of `M || N`; limited, it never
        /// reports a violation that is not there.
        #[test]
        fn agrees_with_the_monolithic_check((m, n, p) in system(), limit in 0usize..40) {
            let config = Config::default();
            let env = Env::new(&m, &[&p], &config).unwrap();
            let sub = Subject::new(&n, &env.alphabet);
            let violated = !check_safety(&[&m, &n], &[&p], &config).unwrap().verdict.is_holds();
            let mut budget = config.budget().unwrap();
            prop_assert_eq!(violation_within(&env, &sub, usize::MAX, &mut budget).unwrap(), violated);
            if violation_within(&env, &sub, limit, &mut budget).unwrap() {
                prop_assert!(violated);
            }
        }
    }
}
