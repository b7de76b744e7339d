//! Tests of assume-guarantee premises and of the worked examples: Cobleigh et al.'s Input/Output/
//! Order system (both variants), triples against a naive product, and the circular premise against
//! a brute-force enumeration of the traces of `M` that follows its definition word for word.

mod common;

use std::collections::HashSet;

use common::{Member, Naive, lts, rejects};
use guarantor_compose::ag::{check_circular_premise, check_triple};
use guarantor_compose::replay::{replay, violates};
use guarantor_compose::{ComposeError, Config, Violation, check_safety};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_lts_with};
use guarantor_lts::{ComponentId, PropertyId};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

fn input() -> Lts {
    lts(&[(0, "input", 1), (1, "send", 2), (2, "ack", 0)], &[])
}

fn output() -> Lts {
    lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)], &[])
}

fn order() -> Lts {
    lts(&[(0, "input", 1), (1, "output", 0)], &[])
}

#[test]
fn cobleigh_example_holds() {
    let report = check_safety(&[&input(), &output()], &[&order()], &Config::default()).unwrap();
    assert!(report.verdict.is_holds());
    assert_eq!(report.stats.states, 4);
}

#[test]
fn cobleigh_output_prime_variant_holds() {
    // Output' = (send -> S), S = (send -> S | output -> ack -> Output')
    let output_prime = lts(
        &[
            (0, "send", 1),
            (1, "send", 1),
            (1, "output", 2),
            (2, "ack", 0),
        ],
        &[],
    );
    let report = check_safety(&[&input(), &output_prime], &[&order()], &Config::default()).unwrap();
    assert!(report.verdict.is_holds());
}

#[test]
fn output_before_send_violates_order_with_shortest_trace() {
    // Output may also answer `output` after an `ack` without a new `send`.
    let sloppy = lts(
        &[
            (0, "send", 1),
            (1, "output", 2),
            (2, "ack", 3),
            (3, "output", 2),
        ],
        &[],
    );
    let comps = [&input(), &sloppy];
    let report = check_safety(&comps, &[&order()], &Config::default()).unwrap();
    let cex = report.verdict.counterexample().unwrap();
    assert_eq!(cex.trace, ["input", "send", "output", "ack", "output"]);
    assert_eq!(
        cex.violation,
        Violation::Property {
            property: PropertyId::must(0)
        }
    );
    replay(&comps, &cex.trace).unwrap();
    assert!(violates(&comps, &[&order()], &cex.trace).unwrap());
    assert!(!violates(&comps, &[&order()], &cex.trace[..4]).unwrap());
}

#[test]
fn shortest_counterexample_takes_the_short_branch() {
    // A long way (a b c d) and a short way (e) to ERROR; BFS must report the short one.
    let mut b = lts(
        &[
            (0, "a", 1),
            (1, "b", 2),
            (2, "c", 3),
            (3, "d", 4),
            (0, "x", 5),
            (5, "e", 4),
        ],
        &[],
    )
    .to_builder();
    b.set_error(StateId::must(4)).unwrap();
    let m = b.build().unwrap();
    let report = check_safety(&[&m], &[], &Config::default()).unwrap();
    let cex = report.verdict.counterexample().unwrap();
    assert_eq!(cex.trace, ["x", "e"]);
    assert_eq!(
        cex.violation,
        Violation::ErrorState {
            component: ComponentId::must(0)
        }
    );
}

#[test]
fn nondeterministic_property_is_rejected() {
    let nd = lts(&[(0, "input", 1), (0, "input", 0)], &[]);
    let err = check_safety(&[&input()], &[&nd], &Config::default()).unwrap_err();
    assert_eq!(
        err,
        ComposeError::PropertyNotDeterministic {
            state: 0,
            action: "input".into()
        }
    );
    assert!(!err.is_budget());
}

#[test]
fn cobleigh_assumption_discharges_both_premises() {
    // A = (send -> output -> ack -> A) over Sigma = {send, output, ack}.
    let a = lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)], &[]);
    assert!(
        check_triple(&a, &input(), &order(), &Config::default())
            .unwrap()
            .verdict
            .is_holds()
    );
    assert!(
        check_safety(&[&output()], &[&a], &Config::default())
            .unwrap()
            .verdict
            .is_holds()
    );
    // An assumption that lets `output` come first is too weak for premise 1.
    let weak = lts(&[(0, "output", 0), (0, "send", 0), (0, "ack", 0)], &[]);
    let report = check_triple(&weak, &input(), &order(), &Config::default()).unwrap();
    assert_eq!(report.verdict.counterexample().unwrap().trace, ["output"]);
}

/// The brute-force reading of `M |= A > P` on traces of M up to `bound` visible steps: the length
/// of a shortest trace `t = s.x` of M with `s` allowed by A and `t` violating P, if any.
struct Premise<'a> {
    m: &'a Lts,
    a: &'a Lts,
    p: &'a Lts,
}

/// The tau-closed successors of a set of states on `name` (all states when `name` is `None`).
fn after(
    l: &Lts,
    set: &HashSet<usize>,
    name: Option<&str>,
    keep: &dyn Fn(usize) -> bool,
) -> HashSet<usize> {
    let step = |s: usize, n: &str| -> Vec<usize> {
        l.outgoing(StateId::must(s))
            .iter()
            .filter(|e| l.action_name(e.action) == n)
            .map(|e| e.target.index())
            .filter(|&t| keep(t))
            .collect()
    };
    let mut out: HashSet<usize> = match name {
        Some(n) => set.iter().flat_map(|&s| step(s, n)).collect(),
        None => set.clone(),
    };
    let mut work: Vec<usize> = out.iter().copied().collect();
    while let Some(s) = work.pop() {
        for t in step(s, "tau") {
            if out.insert(t) {
                work.push(t);
            }
        }
    }
    out
}

impl Premise<'_> {
    fn has(l: &Lts, name: &str) -> bool {
        l.alphabet().contains(name)
    }

    /// P's state after `x` (`None`: violated).
    fn p_step(&self, p: Option<usize>, x: &str) -> Option<usize> {
        let p = p?;
        if !Self::has(self.p, x) {
            return Some(p);
        }
        self.p
            .successors(StateId::must(p), self.p.alphabet().get(x)?)
            .next()
            .map(StateId::index)
    }

    /// A's states after `x` (`None`: the trace so far is not allowed).
    fn a_step(&self, a: Option<HashSet<usize>>, x: &str) -> Option<HashSet<usize>> {
        let a = a?;
        if !Self::has(self.a, x) {
            return Some(a);
        }
        let next = after(self.a, &a, Some(x), &|t| !rejects(self.a, t));
        (!next.is_empty()).then_some(next)
    }

    fn initial_a(&self) -> HashSet<usize> {
        let i = self.a.initial().index();
        if rejects(self.a, i) {
            HashSet::new() // only the empty trace is allowed: every step is refused
        } else {
            after(self.a, &HashSet::from([i]), None, &|t| !rejects(self.a, t))
        }
    }

    fn shortest_violation(&self, bound: usize) -> Option<usize> {
        let m0 = after(
            self.m,
            &HashSet::from([self.m.initial().index()]),
            None,
            &|_| true,
        );
        let mut frontier = vec![(m0, Some(self.initial_a()), Some(self.p.initial().index()))];
        for len in 1..=bound {
            let mut next = Vec::new();
            for (m, a, p) in &frontier {
                for (_, x) in self.m.alphabet().iter() {
                    let m2 = after(self.m, m, Some(x), &|_| true);
                    if m2.is_empty() {
                        continue;
                    }
                    let p2 = self.p_step(*p, x);
                    if a.is_some() && p2.is_none() {
                        return Some(len);
                    }
                    next.push((m2, self.a_step(a.clone(), x), p2));
                }
            }
            frontier = next;
        }
        None
    }

    /// Whether `trace` is a violating trace in the sense of the definition.
    fn is_violation(&self, trace: &[String]) -> bool {
        let Some((last, prefix)) = trace.split_last() else {
            return false;
        };
        let mut m = after(
            self.m,
            &HashSet::from([self.m.initial().index()]),
            None,
            &|_| true,
        );
        let mut a = Some(self.initial_a());
        let mut p = Some(self.p.initial().index());
        for x in prefix {
            m = after(self.m, &m, Some(x), &|_| true);
            a = self.a_step(a, x);
            p = self.p_step(p, x);
        }
        let m_last = after(self.m, &m, Some(last), &|_| true);
        !m.is_empty() && !m_last.is_empty() && a.is_some() && self.p_step(p, last).is_none()
    }
}

fn premise_case() -> impl Strategy<Value = (Lts, Lts, Lts)> {
    let m = arb_lts_with(LtsStrategyConfig::new(3, &["a", "b", "c"]).with_max_transitions(7));
    let a = arb_lts_with(
        LtsStrategyConfig::new(3, &["a", "b"])
            .with_error_state(true)
            .with_accepting(true)
            .with_max_transitions(5),
    );
    let p = arb_deterministic_property(2, &["b", "c"]);
    (m, a, p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn circular_premise_agrees_with_trace_definition((m, a, p) in premise_case()) {
        const BOUND: usize = 5;
        let report = check_circular_premise(&m, &[&a], &p, &Config::default()).unwrap();
        let brute = Premise { m: &m, a: &a, p: &p };
        if let Some(cex) = report.verdict.counterexample() {
            prop_assert_eq!(cex.violation, Violation::Property { property: PropertyId::must(0) });
            prop_assert!(brute.is_violation(&cex.trace), "not a violation: {:?}", cex.trace);
        } else {
            prop_assert_eq!(brute.shortest_violation(BOUND), None);
        }
    }

    #[test]
    fn triple_agrees_with_naive_product((m, a, p) in premise_case()) {
        let report = check_triple(&a, &m, &p, &Config::default()).unwrap();
        let naive = Naive::new(vec![Member::Component(&m), Member::Assumption(&a), Member::Property(&p)]);
        prop_assert_eq!(report.verdict.is_holds(), naive.shortest_failure().is_none());
        if let Some(cex) = report.verdict.counterexample() {
            let (reached, failed) = naive.run(&cex.trace);
            prop_assert!(reached.is_ok() && failed);
        }
    }
}
