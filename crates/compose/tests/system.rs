//! Tests of [`check_system`] (one walk for errors and deadlocks) against the separate checks, and
//! of action priority against a naive reference that prunes an unprioritised product by hand.

use std::collections::HashSet;

use guarantor_compose::product::Product;
use guarantor_compose::{
    Config, Priority, SystemOptions, Verdict, check_safety, check_system, compose_with_priority,
    find_deadlock,
};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c"];

fn system(tau: bool) -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        3,
        LtsStrategyConfig::new(4, POOL).tau(tau).error_state(true),
    )
}

/// The reachable non-error tuples of `comps` under `priority`, pruning by hand.
fn naive_reachable(comps: &[&Lts], priority: &Priority) -> HashSet<Vec<StateId>> {
    let product = Product::new(comps).unwrap();
    let start = product.initial();
    let mut seen: HashSet<Vec<StateId>> = HashSet::new();
    if product.error_component(&start).is_some() {
        return seen;
    }
    let mut work = vec![start.clone()];
    seen.insert(start);
    while let Some(t) = work.pop() {
        let succ: Vec<_> = product.successors(&t).collect();
        let prefers = |a| priority.prefers(product.action_name(a));
        let any = succ.iter().any(|(a, _)| prefers(*a));
        for (a, n) in succ {
            if (!any || prefers(a))
                && product.error_component(&n).is_none()
                && seen.insert(n.clone())
            {
                work.push(n);
            }
        }
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn one_walk_agrees_with_safety_then_deadlock(
        comps in system(true),
        props in proptest::collection::vec(arb_deterministic_property(3, &["a", "b"]), 0..=1),
    ) {
        let c: Vec<&Lts> = comps.iter().collect();
        let p: Vec<&Lts> = props.iter().collect();
        let config = Config::default();
        let options = SystemOptions::default().with_deadlock(Vec::new());
        let both = check_system(&c, &p, &options, &config).unwrap();
        let safety = check_safety(&c, &p, &config).unwrap();
        match &safety.verdict {
            Verdict::Violated(cex) => prop_assert_eq!(both.verdict.counterexample(), Some(cex)),
            _ => {
                prop_assert_eq!(both.stats, safety.stats);
                // No error tuple is reachable, so the deadlock search sees the same walk.
                let mut all = c.clone();
                let errs: Vec<Lts> =
                    p.iter().map(|q| guarantor_compose::error_lts(q).unwrap()).collect();
                all.extend(errs.iter());
                let dead = find_deadlock(&all, &config).unwrap();
                prop_assert_eq!(both.verdict.counterexample(), dead.as_ref());
            }
        }
        // Without the deadlock search, the verdict is the safety check's.
        let only = check_system(&c, &p, &SystemOptions::default(), &config).unwrap();
        prop_assert_eq!(only.verdict, safety.verdict);
    }

    #[test]
    fn priority_prunes_like_the_naive_reference(
        comps in system(true),
        listed in proptest::sample::subsequence(POOL.to_vec(), 0..=2),
        high in any::<bool>(),
    ) {
        let c: Vec<&Lts> = comps.iter().collect();
        let priority = if high { Priority::high(listed) } else { Priority::low(listed) };
        let composed = compose_with_priority(&c, &priority, &Config::default()).unwrap();
        let lts = composed.lts();
        let got: HashSet<Vec<StateId>> = lts
            .states()
            .filter_map(|s| composed.tuple(s).map(<[StateId]>::to_vec))
            .collect();
        prop_assert_eq!(got, naive_reachable(&c, &priority));
    }
}

fn lts(edges: &[(usize, &str, usize)]) -> Lts {
    let mut b = guarantor_lts::LtsBuilder::new();
    for &(s, a, t) in edges {
        b.ensure_states(s.max(t) + 1).unwrap();
        b.add_transition_named(StateId::must(s), a, StateId::must(t))
            .unwrap();
    }
    b.build().unwrap()
}

#[test]
fn errors_take_precedence_over_earlier_deadlocks() {
    // From 0: `stop` deadlocks at once, `a` then `b` reaches ERROR (later in BFS order).
    let mut b = lts(&[(0, "stop", 1), (0, "a", 2), (2, "b", 3)]).to_builder();
    b.set_error(StateId::must(3)).unwrap();
    let m = b.build().unwrap();
    let options = SystemOptions::default().with_deadlock(vec![None]);
    let report = check_system(&[&m], &[], &options, &Config::default()).unwrap();
    let cex = report.verdict.counterexample().unwrap();
    assert_eq!(cex.trace, ["a", "b"]);
}

#[test]
fn priority_can_hide_a_violation() {
    // P = (fast -> P | slow -> ERROR): with `slow` low, the error is unreachable.
    let mut b = lts(&[(0, "fast", 0), (0, "slow", 1)]).to_builder();
    b.set_error(StateId::must(1)).unwrap();
    let m = b.build().unwrap();
    let config = Config::default();
    let plain = check_system(&[&m], &[], &SystemOptions::default(), &config).unwrap();
    assert!(!plain.verdict.is_holds());
    let low = SystemOptions::default().with_priority(Priority::low(["slow"]));
    assert!(
        check_system(&[&m], &[], &low, &config)
            .unwrap()
            .verdict
            .is_holds()
    );
    let high = SystemOptions::default().with_priority(Priority::high(["slow"]));
    assert!(
        !check_system(&[&m], &[], &high, &config)
            .unwrap()
            .verdict
            .is_holds()
    );
    // tau is never listed: under `<<{fast}` it is pruned where `fast` is possible.
    let t = lts(&[(0, "fast", 0), (0, "tau", 1)]);
    let c = compose_with_priority(&[&t], &Priority::high(["fast"]), &config).unwrap();
    assert_eq!((c.lts().num_states(), c.lts().num_transitions()), (1, 1));
}
