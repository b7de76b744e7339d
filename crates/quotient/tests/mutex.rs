//! Mutual exclusion in the spirit of the paper's figures 1 to 3.
//!
//! Two processes request (`r1`, `r2`), obtain (`c1`, `c2`) and release (`n1`, `n2`) a resource.
//! `M` is process 1 alone: `I -r1-> R -c1-> C -n1-> I`. `N` is process 2 together with the lock it
//! shares with process 1, so the property depends on `N`'s cooperation: process 2 works locally
//! (`work`, `WORK` steps) before it requests, and the lock (`free`, `held1`, `held2`) lets `c1` and
//! `c2` happen only when it is free. `N` is written as the full product of process 2's `WORK + 2`
//! states and the lock's three values, so it also has unreachable states (both processes holding
//! the lock, say), like the states `m, n, o, p` of the paper's figure 3. The property is the error
//! LTS of figure 2: no `c2` between `c1` and the next `n1`, and no `c1` between `c2` and `n2`.
//!
//! The quotient keeps only what matters for mutual exclusion: whether the lock is free, held by
//! process 1, or held by process 2, and (backward) which of those can still lead to an error —
//! four states for `N`'s 18 (one round of refinement: the two-block abstraction gives eight,
//! splitting off process 1's critical state gives four, the same as the exact construction).

use guarantor_compose::{Config, check_safety, replay};
use guarantor_lts::ComponentId;
use guarantor_lts::{Lts, LtsBuilder, StateId};
use guarantor_quotient::{QuotientConfig, check_homomorphism, check_with_quotient};

const WORK: usize = 4;

fn lts(edges: &[(usize, &str, usize)], states: usize) -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(states).unwrap();
    for &(s, a, t) in edges {
        b.add_transition_named(StateId::must(s), a, StateId::must(t))
            .unwrap();
    }
    b.build().unwrap()
}

fn process1() -> Lts {
    lts(&[(0, "r1", 1), (1, "c1", 2), (2, "n1", 0)], 3)
}

/// Process 2 and the lock. State `3 * p + l`: `p < WORK` works, `p == WORK` requested,
/// `p == WORK + 1` critical; `l` is free (0), held by 1 (1), held by 2 (2). With `respect_lock`
/// false, process 2 enters without looking at the lock (the broken variant).
fn process2_with_lock(respect_lock: bool) -> Lts {
    let id = |p: usize, l: usize| 3 * p + l;
    let (req, crit) = (WORK, WORK + 1);
    let mut edges = Vec::new();
    for p in 0..=crit {
        for l in 0..3 {
            if p < WORK - 1 {
                edges.push((id(p, l), "work", id(p + 1, l)));
            }
            if p == WORK - 1 {
                edges.push((id(p, l), "r2", id(req, l)));
            }
            if p == req && (l == 0 || !respect_lock) {
                edges.push((id(p, l), "c2", id(crit, 2)));
            }
            if p == crit {
                edges.push((id(p, l), "n2", id(0, 0)));
            }
            if l == 0 {
                edges.push((id(p, l), "c1", id(p, 1)));
            }
            if l == 1 {
                edges.push((id(p, l), "n1", id(p, 0)));
            }
        }
    }
    lts(&edges, 3 * (WORK + 2))
}

/// Figure 2: 0 idle, 1 after `c1`, 2 after `c2`; the missing transitions lead to pi.
fn mutual_exclusion() -> Lts {
    lts(&[(0, "c1", 1), (1, "n1", 0), (0, "c2", 2), (2, "n2", 0)], 3)
}

#[test]
fn the_assumption_is_far_smaller_than_n() {
    let (m, n, p) = (process1(), process2_with_lock(true), mutual_exclusion());
    assert_eq!(n.num_states(), 18);
    for refine in [false, true] {
        let config = QuotientConfig::default().with_refine(refine);
        let report = check_with_quotient(&[&m, &n], &[&p], ComponentId::must(1), &config).unwrap();
        assert!(report.verdict.is_holds());
        let stage = &report.stages[0];
        let a = &stage.synthesis.assumption;
        check_homomorphism(&n, a, &stage.synthesis.homomorphism).unwrap();
        assert!(
            a.num_states() <= 4,
            "refine = {refine}: {} states",
            a.num_states()
        );
        // The certificate's premise, re-checked by the monolithic checker.
        let premise = check_safety(&[&m, a], &[&p], &Config::default()).unwrap();
        assert!(premise.verdict.is_holds());
    }
}

#[test]
fn a_broken_lock_is_found_and_the_counterexample_replays() {
    let (m, n, p) = (process1(), process2_with_lock(false), mutual_exclusion());
    let report = check_with_quotient(
        &[&m, &n],
        &[&p],
        ComponentId::must(1),
        &QuotientConfig::default(),
    )
    .unwrap();
    let cex = report.verdict.counterexample().expect("violated");
    replay::replay(&[&m, &n], &cex.trace).unwrap();
    assert!(replay::violates(&[&m, &n], &[&p], &cex.trace).unwrap());
    // Shortest: process 1 enters, process 2 works, requests and enters too.
    assert_eq!(cex.trace.len(), 2 + WORK + 1);
    assert!(report.assumption_states < n.num_states());
}
