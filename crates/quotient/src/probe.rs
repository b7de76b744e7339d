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

use guarantor_compose::Budget;
use guarantor_lts::{ActionId, Lts, StateId};
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

/// A violation the search found: the visible actions of a shortest run of `M || N` into an error
/// (a trace of the components `M` was composed of, and of `N`), and how many triples it visited
/// and moves it enumerated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) trace: Vec<String>,
    pub(crate) visited: usize,
    pub(crate) moves: usize,
}

/// The action a move is labelled with: a shared one (tau is 0), or one of `N`'s local ones.
#[derive(Clone, Copy, Debug)]
enum Label {
    Shared(u32),
    Local(ActionId),
}

/// A shortest run of `M || N || P_err` into an error, if one is found within `limit` visited
/// triples; `n` is the subject's LTS (for the names of its local actions).
pub(crate) fn violation_within(
    env: &Env<'_>,
    sub: &Subject,
    n: &Lts,
    limit: usize,
    budget: &mut Budget<'_>,
) -> Result<Option<Found>, QuotientError> {
    let m = env.m;
    let p_err = env.p.error_state().map(StateId::as_u32);
    let is_error = |(s, p, n): Triple| {
        m.is_error(StateId::from_u32(s)) || Some(p) == p_err || sub.error == Some(n)
    };
    // Per action of `N`: whether it is local (tau, or outside `alpha Q`), as in `Subject::new`.
    let local: Vec<bool> = std::iter::once(true)
        .chain(
            n.alphabet()
                .iter()
                .map(|(_, name)| env.alphabet.get(name).is_none()),
        )
        .collect();
    let start = (m.initial().as_u32(), env.p.initial().as_u32(), sub.initial);
    // Visited triples with the triple and label they were reached from (index `usize::MAX`: none).
    let mut tuples: Vec<(Triple, usize, Label)> = vec![(start, usize::MAX, Label::Shared(0))];
    let mut moves = 0;
    if is_error(start) {
        return Ok(Some(found(env, n, &tuples, 0, moves)));
    }
    let mut seen: FxHashSet<Triple> = FxHashSet::default();
    seen.insert(start);
    let mut next = 0;
    let mut succ = Vec::new();
    while next < tuples.len() {
        budget.tick()?;
        let (t, from) = (tuples[next].0, next);
        next += 1;
        successors(env, sub, n, &local, t, &mut succ);
        moves += succ.len();
        for &(u, label) in &succ {
            if seen.len() >= limit && !is_error(u) {
                return Ok(None);
            }
            if seen.insert(u) {
                tuples.push((u, from, label));
                if is_error(u) {
                    return Ok(Some(found(env, n, &tuples, tuples.len() - 1, moves)));
                }
            }
        }
    }
    Ok(None)
}

type Triple = (u32, u32, u32);

/// The visible actions on the path to `tuples[at]`.
fn found(
    env: &Env<'_>,
    n: &Lts,
    tuples: &[(Triple, usize, Label)],
    at: usize,
    moves: usize,
) -> Found {
    let mut trace = Vec::new();
    let mut i = at;
    while tuples[i].1 != usize::MAX {
        match tuples[i].2 {
            Label::Shared(0) => {}
            Label::Shared(g) => trace.push(env.alphabet.name(ActionId::from_u32(g)).to_owned()),
            Label::Local(a) if a.is_tau() => {}
            Label::Local(a) => trace.push(n.action_name(a).to_owned()),
        }
        i = tuples[i].1;
    }
    trace.reverse();
    Found {
        trace,
        visited: tuples.len(),
        moves,
    }
}

/// Sets `out` to the successors of triple `(s, p, n)` (not an error triple) with their labels.
fn successors(
    env: &Env<'_>,
    sub: &Subject,
    n_lts: &Lts,
    local: &[bool],
    (s, p, n): Triple,
    out: &mut Vec<(Triple, Label)>,
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
            with_n(g, &mut |n2| out.push(((s2, p2, n2), Label::Shared(g))));
        }
    }
    for &(g, p2) in env.p_alone.of(p) {
        with_n(g, &mut |n2| out.push(((s, p2, n2), Label::Shared(g))));
    }
    for e in n_lts.outgoing(StateId::from_u32(n)) {
        if local[e.action.index()] {
            out.push(((s, p, e.target.as_u32()), Label::Local(e.action)));
        }
    }
}

#[cfg(test)]
mod tests {
    use guarantor_compose::replay::find_violation;
    use guarantor_compose::{Config, check_safety};
    use guarantor_lts::Lts;
    use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_lts_with};
    use proptest::prelude::*;

    use super::*;

    fn system() -> impl Strategy<Value = (Lts, Lts, Lts)> {
        let with_errors = |states, pool: &'static [&'static str], transitions| {
            arb_lts_with(
                LtsStrategyConfig::new(states, pool)
                    .with_max_transitions(transitions)
                    .with_tau(true)
                    .with_error_state(true),
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
            let full = violation_within(&env, &sub, &n, usize::MAX, &mut budget).unwrap();
            prop_assert_eq!(full.is_some(), violated);
            if let Some(found) = full {
                // The trace is a run of the components into the violation.
                prop_assert!(find_violation(&[&m, &n], &[&p], &found.trace).unwrap().is_some());
            }
            if violation_within(&env, &sub, &n, limit, &mut budget).unwrap().is_some() {
                prop_assert!(violated);
            }
        }
    }
}
