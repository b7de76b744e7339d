//! The circular premise `M |= A > P` of compose against Definition 3 of the paper, by brute force
//! over traces: for every trace `s` of length `k` over `alpha M u alpha A` with `s|M in L(M)` and
//! `s_{k-1}|A in L(A)`, `s|P in L(P)`. In particular the assumption need not allow the last step
//! (the `err_a` labelling of the paper).

use guarantor_compose::Config;
use guarantor_compose::ag::check_circular_premise;
use guarantor_lts::Lts;
use guarantor_lts::ops::is_trace;
use guarantor_lts::strategy::{arb_deterministic_property, arb_lts};
use proptest::prelude::*;

/// Whether `trace` (names) projected on `lts`'s alphabet is a trace of `lts`.
fn in_lang(lts: &Lts, trace: &[&str]) -> bool {
    let ids: Vec<_> = trace.iter().filter_map(|n| lts.alphabet().get(n)).collect();
    is_trace(lts, &ids)
}

/// A trace of length at most `max` violating Definition 3, if any.
fn brute_force(m: &Lts, a: &Lts, p: &Lts, max: usize) -> Option<Vec<&'static str>> {
    let names: Vec<&'static str> = ["a", "b", "c", "d"]
        .into_iter()
        .filter(|n| m.alphabet().contains(n) || a.alphabet().contains(n))
        .collect();
    let mut frontier: Vec<Vec<&'static str>> = vec![Vec::new()];
    for _ in 0..max {
        let mut next = Vec::new();
        for s in &frontier {
            for &x in &names {
                let mut t = s.clone();
                t.push(x);
                if !in_lang(m, &t) || !in_lang(a, s) {
                    continue;
                }
                if !in_lang(p, &t) {
                    return Some(t);
                }
                next.push(t);
            }
        }
        frontier = next;
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn premise_check_matches_definition_3(
        m in arb_lts(3, &["a", "b", "c"], 6),
        a in arb_deterministic_property(2, &["a", "b", "d"]),
        p in arb_deterministic_property(2, &["a", "c"]),
    ) {
        let report = check_circular_premise(&m, &[&a], &p, &Config::default()).unwrap();
        match report.verdict.counterexample() {
            Some(cex) => {
                // The counterexample itself satisfies the definition's hypotheses and violates P.
                let t: Vec<&str> = cex.trace.iter().map(String::as_str).collect();
                prop_assert!(in_lang(&m, &t));
                prop_assert!(in_lang(&a, &t[..t.len() - 1]));
                prop_assert!(!in_lang(&p, &t));
            }
            None => prop_assert_eq!(brute_force(&m, &a, &p, 5), None),
        }
    }
}

/// The last step is free: an assumption that forbids `b` cannot hide a `b` that violates `P`.
#[test]
fn the_assumption_does_not_restrict_the_last_step() {
    use guarantor_lts::{LtsBuilder, StateId};
    let mut b = LtsBuilder::new();
    b.ensure_states(1).unwrap();
    b.add_transition_named(StateId::must(0), "b", StateId::must(0))
        .unwrap();
    let m = b.build().unwrap();
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    b.action("b").unwrap();
    let forbid_b = b.build().unwrap();
    let p = forbid_b.clone();
    let report = check_circular_premise(&m, &[&forbid_b], &p, &Config::default()).unwrap();
    assert_eq!(report.verdict.counterexample().unwrap().trace, ["b"]);
    assert_eq!(brute_force(&m, &forbid_b, &p, 2), Some(vec!["b"]));
}
