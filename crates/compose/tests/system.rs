//! Tests of [`check_system`] (one walk for errors and deadlocks) against the separate checks, of
//! action priority against a naive reference that prunes an unprioritised product by hand, and of
//! the depth-first search order against the breadth-first one.

use std::collections::HashSet;

use guarantor_compose::product::Product;
use guarantor_compose::replay::{find_violation, replay};
use guarantor_compose::{
    Config, Priority, SearchOrder, SystemOptions, Verdict, Violation, check_safety, check_system,
    compose_with_priority, find_deadlock,
};
use guarantor_lts::ComponentId;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c"];

fn system(tau: bool) -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        3,
        LtsStrategyConfig::new(4, POOL)
            .with_tau(tau)
            .with_error_state(true),
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

/// Whether `trace` (visible actions, tau steps anywhere) can lead the composition of `comps` to a
/// non-error tuple without successors.
fn reaches_deadlock(comps: &[&Lts], trace: &[String]) -> bool {
    let product = Product::new(comps).unwrap();
    let closure = |set: HashSet<Vec<StateId>>| {
        let mut all = set.clone();
        let mut work: Vec<_> = set.into_iter().collect();
        while let Some(t) = work.pop() {
            for (a, n) in product.successors(&t) {
                if a.is_tau() && product.error_component(&n).is_none() && all.insert(n.clone()) {
                    work.push(n);
                }
            }
        }
        all
    };
    let mut set = closure(HashSet::from([product.initial()]));
    for name in trace {
        let next = set
            .iter()
            .flat_map(|t| product.successors(t))
            .filter(|(a, n)| {
                product.action_name(*a) == name && product.error_component(n).is_none()
            })
            .map(|(_, n)| n)
            .collect();
        set = closure(next);
    }
    set.iter().any(|t| product.successors(t).next().is_none())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn depth_first_agrees_with_breadth_first_and_replays(
        comps in system(true),
        props in proptest::collection::vec(arb_deterministic_property(3, &["a", "b"]), 0..=1),
        deadlock in any::<bool>(),
    ) {
        let c: Vec<&Lts> = comps.iter().collect();
        let p: Vec<&Lts> = props.iter().collect();
        let config = Config::default();
        let bfs = if deadlock {
            SystemOptions::default().with_deadlock(Vec::new())
        } else {
            SystemOptions::default()
        };
        let dfs = bfs.clone().with_search(SearchOrder::DepthFirst);
        let b = check_system(&c, &p, &bfs, &config).unwrap();
        let d = check_system(&c, &p, &dfs, &config).unwrap();
        match (&b.verdict, &d.verdict) {
            (Verdict::Holds(_), Verdict::Holds(_)) => prop_assert_eq!(b.stats, d.stats),
            (Verdict::Violated(x), Verdict::Violated(y)) => {
                prop_assert_eq!(x.violation == Violation::Deadlock, y.violation == Violation::Deadlock);
                if y.violation == Violation::Deadlock {
                    // No error anywhere: both walked the whole product.
                    prop_assert_eq!(b.stats, d.stats);
                    prop_assert!(replay(&c, &y.trace).is_ok());
                    let mut all = c.clone();
                    let errs: Vec<Lts> =
                        p.iter().map(|q| guarantor_compose::error_lts(q).unwrap()).collect();
                    all.extend(errs.iter());
                    prop_assert!(reaches_deadlock(&all, &y.trace), "{:?}", y.trace);
                } else {
                    prop_assert!(find_violation(&c, &p, &y.trace).unwrap().is_some(), "{:?}", y.trace);
                }
            }
            (x, y) => prop_assert!(false, "bfs {:?} but dfs {:?}", x, y),
        }
    }

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

#[test]
fn depth_first_looks_past_a_deadlock_for_errors() {
    // `stop` (enumerated first) deadlocks at once; `a` then `b` reaches ERROR.
    let mut b = lts(&[(0, "stop", 1), (0, "a", 2), (2, "b", 3)]).to_builder();
    b.set_error(StateId::must(3)).unwrap();
    let m = b.build().unwrap();
    let options = SystemOptions::default()
        .with_deadlock(vec![None])
        .with_search(SearchOrder::DepthFirst);
    let report = check_system(&[&m], &[], &options, &Config::default()).unwrap();
    let cex = report.verdict.counterexample().unwrap();
    assert_eq!(cex.trace, ["a", "b"]);
    assert_eq!(
        cex.violation,
        Violation::ErrorState {
            component: ComponentId::must(0)
        }
    );
}

#[test]
fn depth_first_counterexamples_take_shortcuts_along_the_path() {
    // Depth first dives along `a` (enumerated before `b`) to 3 and meets `bad` there; 0 -b-> 3 is
    // a shortcut between two states of that path.
    let mut b = lts(&[
        (0, "a", 1),
        (1, "a", 2),
        (2, "a", 3),
        (0, "b", 3),
        (3, "bad", 4),
    ])
    .to_builder();
    b.set_error(StateId::must(4)).unwrap();
    let m = b.build().unwrap();
    let options = SystemOptions::default().with_search(SearchOrder::DepthFirst);
    let report = check_system(&[&m], &[], &options, &Config::default()).unwrap();
    assert_eq!(report.verdict.counterexample().unwrap().trace, ["b", "bad"]);
    // Depth first met the error before looking at 0's second successor: 4 states were numbered.
    assert_eq!(report.stats.states, 4);
    // A deadlock path is shortened the same way.
    let m = lts(&[(0, "a", 1), (1, "a", 2), (2, "a", 3), (0, "b", 3)]);
    let options = SystemOptions::default()
        .with_deadlock(vec![None])
        .with_search(SearchOrder::DepthFirst);
    let report = check_system(&[&m], &[], &options, &Config::default()).unwrap();
    let cex = report.verdict.counterexample().unwrap();
    assert_eq!(
        (cex.trace.as_slice(), cex.violation),
        (&["b".to_string()][..], Violation::Deadlock)
    );
}
