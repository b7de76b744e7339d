//! What the rule tests share: building small LTSs from edge lists, and the processes of Cobleigh
//! et al.'s running example (section 4.3). Each test binary uses a subset, hence `dead_code`.

#![allow(dead_code)]

use guarantor_lts::{Lts, LtsBuilder, StateId};

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
