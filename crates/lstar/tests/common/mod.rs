//! What the rule tests share: building small LTSs from edge lists, the processes of Cobleigh
//! et al.'s running example (section 4.3), and the re-checks of a verdict against the monolithic
//! checker and of a recursive-ASYM certificate; random DFAs for the learner and oracle tests. Each
//! test binary uses a subset, hence `dead_code`.

#![allow(dead_code)]

use guarantor_compose::{
    Certificate, Config, ErrorActions, Verdict, check_safety, check_triple,
    replay::{replay, violates},
};
use guarantor_lstar::ag::AgConfig;
use guarantor_lstar::{Dfa, LearnerConfig, LearnerKind, Symbol};
use guarantor_lts::{ComponentId, Lts, LtsBuilder, StateId};
use proptest::prelude::*;

/// The rules' configuration with each learner: L* (the default) and L#, both in prefix-closed
/// mode as the rules want.
pub(crate) fn learners() -> [AgConfig; 2] {
    let sharp = LearnerConfig::default()
        .with_prefix_closed(true)
        .with_kind(LearnerKind::LSharp);
    [AgConfig::default(), AgConfig::default().with_learner(sharp)]
}

/// One of [`learners`], for property tests.
pub(crate) fn arb_learner() -> impl Strategy<Value = AgConfig> {
    proptest::sample::select(learners().to_vec())
}

/// An LTS from `(source, action, target)` triples; state 0 is initial.
pub(crate) fn lts(edges: &[(usize, &str, usize)]) -> Lts {
    let mut b = LtsBuilder::new();
    for &(s, a, t) in edges {
        b.ensure_states(s.max(t) + 1).unwrap();
        b.add_transition_named(StateId::must(s), a, StateId::must(t))
            .unwrap();
    }
    b.build().unwrap()
}

/// The system rule SYM reasons about when components have `ERROR` states: each becomes a private
/// action that the property forbids (`ErrorActions`). Its certificates are about these components
/// and this property; without `ERROR` states they are the caller's.
pub(crate) fn rewritten(parts: &[&Lts], p: &Lts) -> (Vec<Lts>, Lts) {
    match ErrorActions::new(parts, &[p]).unwrap() {
        None => (parts.iter().map(|&m| m.clone()).collect(), p.clone()),
        Some(adapted) => (
            adapted.components().into_iter().cloned().collect(),
            adapted.guard(p).unwrap(),
        ),
    }
}

/// Input = (input -> send -> ack -> Input).
pub(crate) fn input() -> Lts {
    lts(&[(0, "input", 1), (1, "send", 2), (2, "ack", 0)])
}

/// Output = (send -> output -> ack -> Output).
pub(crate) fn output() -> Lts {
    lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)])
}

/// property Order = (input -> output -> Order).
pub(crate) fn order() -> Lts {
    lts(&[(0, "input", 1), (1, "output", 0)])
}

/// The verdict agrees with the monolithic check of `parts` against `p`, and a counterexample
/// replays in `parts` and violates `p`. Certificates are left to each rule's own re-check.
pub(crate) fn agrees_with_mono(
    parts: &[&Lts],
    p: &Lts,
    verdict: &Verdict,
) -> Result<(), TestCaseError> {
    let mono = check_safety(parts, &[p], &Config::default()).unwrap();
    prop_assert_eq!(verdict.is_holds(), mono.verdict.is_holds());
    match verdict {
        Verdict::Violated(cex) => {
            prop_assert!(
                replay(parts, &cex.trace).is_ok(),
                "{:?} does not replay",
                cex.trace
            );
            prop_assert!(violates(parts, &[p], &cex.trace).unwrap());
        }
        Verdict::Holds(_) => {}
        _ => prop_assert!(false, "unknown verdict"),
    }
    Ok(())
}

/// Re-checks a certificate of rule ASYM applied recursively, level by level: assumption `i` is
/// about components `i+1, ..`, `<A_i> M_i <A_(i-1)>` (with `A_(-1) = p`) and
/// `M_(i+1) || .. |= A_i`.
pub(crate) fn recheck_chain(
    parts: &[&Lts],
    p: &Lts,
    cert: &Certificate,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(cert.assumptions.len(), parts.len() - 1);
    let mut guarantee = p;
    for (i, a) in cert.assumptions.iter().enumerate() {
        let expected: Vec<ComponentId> = (i + 1..parts.len()).map(ComponentId::must).collect();
        prop_assert_eq!(&a.components, &expected);
        let premise1 = check_triple(&a.lts, parts[i], guarantee, &Config::default()).unwrap();
        prop_assert!(premise1.verdict.is_holds());
        let premise2 = check_safety(&parts[i + 1..], &[&a.lts], &Config::default()).unwrap();
        prop_assert!(premise2.verdict.is_holds());
        guarantee = &a.lts;
    }
    Ok(())
}

/// A random complete DFA with `1..=max_states` states over `1..=max_k` symbols.
pub(crate) fn arb_dfa(max_states: usize, max_k: usize) -> impl Strategy<Value = Dfa> {
    (1..=max_states, 1..=max_k).prop_flat_map(|(n, k)| {
        (
            proptest::collection::vec(0..n, n * k),
            proptest::collection::vec(any::<bool>(), n),
        )
            .prop_map(move |(flat, acc)| {
                let delta = flat.chunks(k).map(<[usize]>::to_vec).collect();
                Dfa::new(k, delta, acc).expect("well-formed by construction")
            })
    })
}

/// A random prefix-closed DFA: every transition into a rejecting state is sent to one rejecting sink.
pub(crate) fn arb_prefix_closed(max_states: usize, max_k: usize) -> impl Strategy<Value = Dfa> {
    arb_dfa(max_states, max_k).prop_map(|d| {
        let (n, k) = (d.num_states(), d.num_symbols());
        let mut delta = Vec::new();
        for q in 0..n {
            let row = Symbol::all(k)
                .map(|a| d.successor(q, a))
                .map(|t| {
                    if d.is_accepting(t) && d.is_accepting(q) {
                        t
                    } else {
                        n
                    }
                })
                .collect();
            delta.push(row);
        }
        delta.push(vec![n; k]);
        let mut acc: Vec<bool> = (0..n).map(|q| d.is_accepting(q)).collect();
        acc.push(false);
        Dfa::new(k, delta, acc).expect("well-formed by construction")
    })
}
