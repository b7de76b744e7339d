//! `lstar` ([`Asym`]) with deadlocks against the monolithic check: random systems with `ERROR`
//! states, tau, end states and zero to two properties. The verdict must be the monolithic one;
//! a deadlock must be a trace that some run of the components follows into a state with no move
//! in which not every component has terminated (checked here on a naive product of our own); a
//! `holds` must carry a failure assumption whose premises hold on a naive oracle of our own too.

use std::collections::{BTreeSet, HashSet};

use guarantor_compose::method::{Method, Monolithic, Problem};
use guarantor_compose::replay::first_violation;
use guarantor_compose::{Config, Verdict, Violation};
use guarantor_lstar::Asym;
use guarantor_lstar::ag::AgConfig;
use guarantor_lstar::ag::deadlock::{END_ACTION, check_deadlock, with_end_action};
use guarantor_lts::strategy::{
    LtsStrategyConfig, arb_deterministic_property, arb_system_with_ends,
};
use guarantor_lts::{ComponentId, Lts, StateId};
use proptest::collection::vec;
use proptest::prelude::*;

fn problem(components: &[(Lts, Option<StateId>)], properties: &[Lts]) -> Problem {
    let mut problem = Problem::new();
    for (i, (c, end)) in components.iter().enumerate() {
        problem.add_component_with_end(format!("M{i}"), c.clone(), *end);
    }
    for (i, p) in properties.iter().enumerate() {
        problem.add_property(format!("P{i}"), p.clone());
    }
    problem.with_deadlock(true)
}

/// Components with a random end state each (or none).
fn system() -> impl Strategy<Value = Vec<(Lts, Option<StateId>)>> {
    arb_system_with_ends(
        3,
        LtsStrategyConfig::new(4, &["a", "b", "c", "d"]).with_error_state(true),
    )
}

fn properties() -> impl Strategy<Value = Vec<Lts>> {
    vec(arb_deterministic_property(2, &["a", "b", "z"]), 0..=2)
}

/// A product state: one state per component.
type Tuple = Vec<StateId>;

/// The naive product's successors of `t`: per action (tau: one component alone), every way
/// the components that declare it move together.
fn successors(components: &[&Lts], t: &Tuple) -> Vec<(String, Tuple)> {
    let mut out = Vec::new();
    for (i, c) in components.iter().enumerate() {
        for s in c.successors(t[i], guarantor_lts::ActionId::TAU) {
            let mut next = t.clone();
            next[i] = s;
            out.push(("tau".to_owned(), next));
        }
    }
    let names: BTreeSet<&str> = components
        .iter()
        .flat_map(|c| c.alphabet().iter().map(|(_, n)| n))
        .collect();
    for name in names {
        let mut partial = vec![t.clone()];
        for (i, c) in components.iter().enumerate() {
            let Some(a) = c.alphabet().get(name) else {
                continue;
            };
            partial = partial
                .into_iter()
                .flat_map(|p| {
                    c.successors(p[i], a)
                        .map(|s| {
                            let mut q = p.clone();
                            q[i] = s;
                            q
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
        }
        out.extend(partial.into_iter().map(|p| (name.to_owned(), p)));
    }
    out
}

fn tau_closure(components: &[&Lts], set: &mut HashSet<Tuple>) {
    let mut work: Vec<Tuple> = set.iter().cloned().collect();
    while let Some(t) = work.pop() {
        for (a, next) in successors(components, &t) {
            if a == "tau" && set.insert(next.clone()) {
                work.push(next);
            }
        }
    }
}

/// Whether some run of the components with this trace ends in a deadlock (no move; not every
/// component at its end).
fn ends_in_deadlock(
    components: &[&Lts],
    ends: &[Option<StateId>],
    properties: &[&Lts],
    trace: &[String],
) -> bool {
    let start: Tuple = components.iter().map(|c| c.initial()).collect();
    let mut set = HashSet::from([start]);
    tau_closure(components, &mut set);
    for name in trace {
        set = set
            .iter()
            .flat_map(|t| successors(components, t))
            .filter(|(a, _)| a == name)
            .map(|(_, t)| t)
            .collect();
        tau_closure(components, &mut set);
    }
    let can_end = can_terminate(components, ends, properties);
    set.iter().any(|t| {
        let terminated = can_end && t.iter().zip(ends).all(|(s, e)| e.is_none_or(|e| e == *s));
        successors(components, t).is_empty() && !terminated
    })
}

/// LTSA's rule 1 for end states: some component can end (its end is not its initial state),
/// and every action of the others and of the properties is an action of one that can.
fn can_terminate(components: &[&Lts], ends: &[Option<StateId>], properties: &[&Lts]) -> bool {
    let ends_at = |i: usize| ends[i].is_some_and(|e| e != components[i].initial());
    let ending: BTreeSet<&str> = (0..components.len())
        .filter(|&i| ends_at(i))
        .flat_map(|i| components[i].alphabet().iter().map(|(_, n)| n))
        .collect();
    let covered = |l: &Lts| l.alphabet().iter().all(|(_, n)| ending.contains(n));
    (0..components.len()).any(ends_at)
        && (0..components.len())
            .filter(|&i| !ends_at(i))
            .all(|i| covered(components[i]))
        && properties.iter().all(|p| covered(p))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lstar_with_deadlocks_agrees_with_the_monolithic_check(sys in system(), ps in properties()) {
        let problem = problem(&sys, &ps);
        let mono = Monolithic::new().check(&problem, &Config::default()).unwrap();
        let mut methods = vec![Asym::new()];
        if sys.len() > 2 {
            methods.push(Asym::new().with_split([ComponentId::must(0), ComponentId::must(2)]));
        }
        for method in methods {
            let report = method.check(&problem, &Config::default()).unwrap();
            prop_assert_eq!(
                report.verdict.is_holds(), mono.verdict.is_holds(),
                "{:?} / {:?}: {:?} against {:?}", sys, ps, report.verdict, mono.verdict
            );
            match &report.verdict {
                Verdict::Violated(cex) if cex.violation == Violation::Deadlock => {
                    let components = problem.component_lts();
                    let ends: Vec<_> = problem.end_states().collect();
                    prop_assert!(
                        ends_in_deadlock(&components, &ends, &problem.property_lts(), &cex.trace),
                        "{:?}", cex
                    );
                }
                Verdict::Violated(cex) => {
                    let found = first_violation(
                        &problem.component_lts(), &problem.property_lts(), &cex.trace,
                    ).unwrap();
                    prop_assert_eq!(found, Some((cex.trace.len(), cex.violation)));
                }
                // An action only a property declares is a move of the monolithic product.
                // An ERROR in the second group makes the whole check monolithic.
                Verdict::Holds(cert)
                    if sys.len() > 1
                        && !property_moves_freely(&sys, &ps)
                        && sys.iter().all(|(c, _)| c.error_state().is_none()) =>
                {
                    prop_assert_eq!(cert.failures.len(), 1);
                }
                _ => {}
            }
        }
    }

    /// The rule alone on two components: its verdict is the naive product's, and a `holds`
    /// comes with an assumption whose two premises hold on the naive product.
    #[test]
    fn the_failure_rule_proves_what_the_naive_product_shows(sys in system()) {
        prop_assume!(sys.len() >= 2);
        let m1 = with_end_action(&sys[0].0, sys[0].1).unwrap();
        let m2 = with_end_action(&sys[1].0, sys[1].1).unwrap();
        let report = check_deadlock(&m1, &m2, &AgConfig::default()).unwrap();
        let deadlocked = has_deadlock(&[&m1, &m2]);
        prop_assert_eq!(report.verdict.is_violated(), deadlocked);
        if let Some(a) = &report.assumption {
            prop_assert!(!has_deadlock(&[&m1, a]), "premise 1 fails for {:?}", a);
            prop_assert!(failures_included(&m2, a, &report.interface), "premise 2 fails for {:?}", a);
        }
    }
}

fn property_moves_freely(sys: &[(Lts, Option<StateId>)], ps: &[Lts]) -> bool {
    ps.iter().any(|p| {
        p.alphabet()
            .iter()
            .any(|(_, a)| sys.iter().all(|(c, _)| !c.alphabet().contains(a)))
    })
}

/// Whether a reachable state of the naive product has no move.
fn has_deadlock(components: &[&Lts]) -> bool {
    let start: Tuple = components.iter().map(|c| c.initial()).collect();
    let mut seen = HashSet::from([start.clone()]);
    let mut work = vec![start];
    while let Some(t) = work.pop() {
        let next = successors(components, &t);
        if next.is_empty() {
            return true;
        }
        for (_, n) in next {
            if seen.insert(n.clone()) {
                work.push(n);
            }
        }
    }
    false
}

/// The stable ready sets on `interface` that `lts` shows after each interface trace, by
/// brute force up to a depth: `(trace, ready)` for every stable state reachable with that
/// interface projection (actions outside the interface hidden).
fn failures(lts: &Lts, interface: &[String], depth: usize) -> HashSet<(Vec<String>, Vec<String>)> {
    let mut out = HashSet::new();
    let mut seen = HashSet::new();
    let mut work = vec![(lts.initial(), Vec::<String>::new())];
    while let Some((s, trace)) = work.pop() {
        if !seen.insert((s, trace.clone())) {
            continue;
        }
        let enabled: Vec<String> = lts
            .enabled(s)
            .map(|a| lts.action_name(a).to_owned())
            .collect();
        if enabled.iter().all(|a| interface.contains(a)) {
            let mut ready = enabled.clone();
            ready.sort();
            out.insert((trace.clone(), ready));
        }
        for e in lts.outgoing(s) {
            let name = lts.action_name(e.action).to_owned();
            if interface.contains(&name) {
                if trace.len() < depth {
                    let mut t = trace.clone();
                    t.push(name);
                    work.push((e.target, t));
                }
            } else {
                work.push((e.target, trace.clone()));
            }
        }
    }
    out
}

/// Premise 2 by brute force (traces up to a depth): every failure of `m2` is refined by one of
/// `a` (a stable state of `a` after the same trace offering a subset of `m2`'s ready set).
fn failures_included(m2: &Lts, a: &Lts, interface: &[String]) -> bool {
    let depth = 6;
    let of_a = failures(a, interface, depth);
    failures(m2, interface, depth).iter().all(|(trace, ready)| {
        of_a.iter()
            .any(|(t, r)| t == trace && r.iter().all(|x| ready.contains(x)))
    }) && interface.iter().any(|n| n == END_ACTION)
}
