//! Several counterexamples from one premise check (the paper's "k counterexamples per
//! iteration").
//!
//! A premise check that stops at its first violation hands `ApplyAG` one trace, so one iteration
//! excludes one bad behaviour: on Client-Server and MER most iterations add a single exclusion of
//! the last premise. [`violations`] explores the same product breadth-first but records up to
//! `limit` violating traces (distinct words, one per reached state and action, shortest first)
//! before it stops, so one SAT call can be answered by many constraints. Every trace it returns is a
//! counterexample of the premise, exactly as a single check would find one; the first is a
//! shortest one.
//!
//! The product is the checked component `M` (absent for the last premise) with the environment
//! parts; the guarantee (or the property) is not a component of it but an *observer* that follows
//! its actions deterministically. A violation is
//! - for a premise `M |= env > g`: a step `a` of `M` (the environment need not allow it: the
//!   circular triple) that `g` cannot take, or a step of `M` into an error state;
//! - for the last premise `env |= P`: a step of the product that `P` cannot take (or that leads
//!   into its error state).

use std::collections::VecDeque;
use std::collections::hash_map::Entry;

use guarantor_compose::ag::{check_circular_premise, safety_assumption};
use guarantor_compose::product::Product;
use guarantor_compose::{Config, check_safety};
use guarantor_lts::{ActionId, Lts, StateId};
use rustc_hash::FxHashMap;

use crate::error::CircError;

/// The result of one exploration: violating traces (names, last step included) and the states
/// explored.
#[derive(Debug)]
pub(crate) struct Found {
    /// Up to `limit` counterexamples, shortest first.
    pub(crate) traces: Vec<Vec<String>>,
    /// Product states (with the observer's state) explored.
    pub(crate) states: usize,
}

/// Up to `limit` violations of `checked || parts` observed by `observer`, as [`violations`]; with
/// `limit == 1` the plain check of `compose` instead ([`check_circular_premise`], or
/// [`check_safety`] without a checked component), so the one-counterexample mode sees the
/// counterexample the paper's loop would.
///
/// # Errors
/// As [`violations`], or the budget errors of the `compose` check.
pub(crate) fn premise_violations(
    checked: Option<&Lts>,
    parts: &[&Lts],
    observer: &Lts,
    limit: usize,
    config: &Config,
) -> Result<Found, CircError> {
    if limit > 1 {
        return violations(checked, parts, observer, limit, config);
    }
    let report = match checked {
        Some(m) => check_circular_premise(m, parts, observer, config)?,
        None => check_safety(parts, &[observer], config)?,
    };
    Ok(Found {
        traces: report
            .verdict
            .counterexample()
            .map(|c| c.trace.clone())
            .into_iter()
            .collect(),
        states: report.stats.states,
    })
}

/// Explores `checked || parts` (see the module docs) observed by the deterministic `observer`,
/// and returns up to `limit` violations (`limit >= 1`).
///
/// # Errors
/// Budget errors of `config`; an environment part that cannot be made a safety assumption.
pub(crate) fn violations(
    checked: Option<&Lts>,
    parts: &[&Lts],
    observer: &Lts,
    limit: usize,
    config: &Config,
) -> Result<Found, CircError> {
    let mut budget = config.budget()?;
    let safe = parts
        .iter()
        .map(|l| safety_assumption(l))
        .collect::<Result<Vec<_>, _>>()?;
    let comps: Vec<&Lts> = checked.into_iter().chain(safe.iter()).collect();
    let product = Product::new(&comps)?;
    let (watch, own) = action_maps(&product, checked, observer);
    // The observer's move on `a` from `q`: `Some(next)`, or `None` if it is a violation.
    let step = |q: StateId, a: ActionId| -> Option<StateId> {
        let next = observer.successors(q, a).next()?;
        (!observer.is_error(next)).then_some(next)
    };
    let mut index: FxHashMap<(Vec<StateId>, StateId), u32> = FxHashMap::default();
    // Per node: its parent and the product action that reached it.
    let mut parent: Vec<(u32, ActionId)> = Vec::new();
    let mut queue: VecDeque<(u32, Vec<StateId>, StateId)> = VecDeque::new();
    let mut traces = Vec::new();
    let start = (product.initial(), observer.initial());
    if observer.is_error(start.1) {
        return Ok(Found {
            traces: vec![Vec::new()],
            states: 0,
        });
    }
    index.insert(start.clone(), 0);
    parent.push((u32::MAX, ActionId::TAU));
    queue.push_back((0, start.0, start.1));
    while let Some((node, tuple, q)) = queue.pop_front() {
        // The index doubles in one step, old and new tables alive (a slot and a control byte
        // per entry, plus each key's tuple moved along), and the parents may be copied.
        let slot = size_of::<((Vec<StateId>, StateId), u32)>() + 1;
        budget.expect_growth(2 * index.capacity() * slot + parent.capacity() * 8);
        budget.tick()?;
        // Violating steps from here, each action once.
        let mut bad: Vec<ActionId> = Vec::new();
        if let Some(m) = checked {
            for e in m.outgoing(tuple[0]) {
                let a = own[e.action.index()];
                let violates = m.is_error(e.target)
                    || watch
                        .get(a.index())
                        .copied()
                        .flatten()
                        .is_some_and(|la| step(q, la).is_none());
                if violates && !bad.contains(&a) {
                    bad.push(a);
                }
            }
        }
        for (a, target) in product.successors(&tuple) {
            let q2 = match watch[a.index()] {
                None => q,
                Some(la) => match step(q, la) {
                    Some(q2) => q2,
                    None => {
                        // Premise: already a violating step of `M`; last premise: a violation.
                        if checked.is_none() && !bad.contains(&a) {
                            bad.push(a);
                        }
                        continue;
                    }
                },
            };
            if let Entry::Vacant(slot) = index.entry((target, q2)) {
                let id = u32::try_from(parent.len()).map_err(|_| CircError::Internal {
                    reason: "premise product too large".to_owned(),
                })?;
                parent.push((node, a));
                budget.check_states(parent.len())?;
                queue.push_back((id, slot.key().0.clone(), q2));
                slot.insert(id);
            }
        }
        for a in bad {
            let t = trace_to(&product, &parent, node, a);
            if traces.contains(&t) {
                // The same word through other (tau) moves.
                continue;
            }
            traces.push(t);
            if traces.len() >= limit {
                return Ok(Found {
                    traces,
                    states: parent.len(),
                });
            }
        }
    }
    Ok(Found {
        traces,
        states: parent.len(),
    })
}

/// For each product action, the observer's local action (if it has it); for each local action of
/// the checked component, its product action.
fn action_maps(
    product: &Product<'_>,
    checked: Option<&Lts>,
    observer: &Lts,
) -> (Vec<Option<ActionId>>, Vec<ActionId>) {
    let watch = (0..product.alphabet().id_bound())
        .map(|a| {
            let a = ActionId::must(a);
            if a.is_tau() {
                None
            } else {
                observer.alphabet().get(product.action_name(a))
            }
        })
        .collect();
    let own = checked.map_or_else(Vec::new, |m| {
        ActionId::range(m.alphabet().id_bound())
            .map(|a| {
                if a.is_tau() {
                    ActionId::TAU
                } else {
                    product
                        .alphabet()
                        .get(m.action_name(a))
                        .unwrap_or(ActionId::TAU)
                }
            })
            .collect()
    });
    (watch, own)
}

/// The visible actions of the path to `node` (following `parent`), then `last`.
fn trace_to(
    product: &Product<'_>,
    parent: &[(u32, ActionId)],
    mut node: u32,
    last: ActionId,
) -> Vec<String> {
    let mut out = vec![product.action_name(last).to_owned()];
    while node != u32::MAX {
        let (p, a) = parent[node as usize];
        if p == u32::MAX {
            break;
        }
        if !a.is_tau() {
            out.push(product.action_name(a).to_owned());
        }
        node = p;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use guarantor_compose::ag::check_circular_premise;
    use guarantor_compose::{Config, check_safety};
    use guarantor_lts::Lts;
    use guarantor_lts::ops::accepts_trace_named;
    use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_lts_with};
    use proptest::prelude::*;

    use super::violations;

    const POOL: [&str; 4] = ["a", "b", "c", "d"];

    fn on<'t>(l: &Lts, trace: &'t [String]) -> Vec<&'t str> {
        trace
            .iter()
            .filter(|n| l.alphabet().contains(n))
            .map(String::as_str)
            .collect()
    }

    fn lts() -> impl Strategy<Value = Lts> {
        arb_lts_with(
            LtsStrategyConfig::new(3, &POOL)
                .with_max_transitions(6)
                .with_tau(true),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// A premise `M |= env > g`: found violations exactly when compose's check finds one;
        /// the first is as short as its (shortest) counterexample; every one is a run of `M`
        /// whose prefix the environment allows and whose last step `g` refuses; no two are equal.
        #[test]
        fn premise_violations_are_counterexamples(
            m in lts(),
            env in proptest::collection::vec(lts(), 0..3),
            g in arb_deterministic_property(3, &POOL),
            limit in 1usize..6,
        ) {
            let parts: Vec<&Lts> = env.iter().collect();
            let config = Config::default();
            let found = violations(Some(&m), &parts, &g, limit, &config).unwrap();
            let single = check_circular_premise(&m, &parts, &g, &config).unwrap();
            prop_assert_eq!(found.traces.is_empty(), single.verdict.is_holds());
            prop_assert!(found.traces.len() <= limit);
            if let Some(cex) = single.verdict.counterexample() {
                prop_assert_eq!(found.traces[0].len(), cex.trace.len());
            }
            for (k, t) in found.traces.iter().enumerate() {
                prop_assert!(!found.traces[..k].contains(t), "duplicate {:?}", t);
                let (_, prefix) = t.split_last().unwrap();
                prop_assert!(accepts_trace_named(&m, &on(&m, t)), "{:?} not a run of M", t);
                for e in &parts {
                    prop_assert!(accepts_trace_named(e, &on(e, prefix)), "{:?}: env refuses", t);
                }
                prop_assert!(accepts_trace_named(&g, &on(&g, prefix)));
                prop_assert!(!accepts_trace_named(&g, &on(&g, t)), "{:?}: g allows it", t);
            }
        }

        /// The last premise `env |= P`: the same, with compose's safety check.
        #[test]
        fn last_premise_violations_are_counterexamples(
            env in proptest::collection::vec(lts(), 1..4),
            p in arb_deterministic_property(3, &POOL),
            limit in 1usize..6,
        ) {
            let parts: Vec<&Lts> = env.iter().collect();
            let config = Config::default();
            let found = violations(None, &parts, &p, limit, &config).unwrap();
            let single = check_safety(&parts, &[&p], &config).unwrap();
            prop_assert_eq!(found.traces.is_empty(), single.verdict.is_holds());
            if let Some(cex) = single.verdict.counterexample() {
                prop_assert_eq!(found.traces[0].len(), cex.trace.len());
            }
            for (k, t) in found.traces.iter().enumerate() {
                prop_assert!(!found.traces[..k].contains(t), "duplicate {:?}", t);
                for e in &parts {
                    prop_assert!(accepts_trace_named(e, &on(e, t)), "{:?}: env refuses", t);
                }
                let (_, prefix) = t.split_last().unwrap();
                prop_assert!(accepts_trace_named(&p, &on(&p, prefix)));
                prop_assert!(!accepts_trace_named(&p, &on(&p, t)), "{:?}: P allows it", t);
            }
        }
    }
}
