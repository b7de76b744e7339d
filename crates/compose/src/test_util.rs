//! Small LTSs shared by the unit tests of several modules of this crate (test builds only).

use guarantor_lts::{Lts, LtsBuilder, StateId};

/// A ring of `n` states stepping on `tick` with a private action `name` as a shortcut home: rings
/// of different sizes make products whose every state is reachable along several paths.
pub(crate) fn ring(n: usize, name: &str) -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(n).unwrap();
    for i in 0..n {
        let s = StateId::must(i);
        b.add_transition_named(s, "tick", StateId::must((i + 1) % n))
            .unwrap();
        b.add_transition_named(s, name, StateId::must(0)).unwrap();
    }
    b.build().unwrap()
}
