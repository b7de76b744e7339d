//! Small LTSs, random systems and report digests shared by the unit tests of several modules of
//! this crate (test builds only).

use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::prelude::*;

use crate::ag::check_circular_premise;
use crate::priority::Priority;
use crate::system::{SystemOptions, check_system};
use crate::{Config, check_safety, find_deadlock};

/// Everything the searches report on `comps` and `props`, as text (verdicts, counterexamples,
/// counts, errors): safety, deadlock, the system check plain and under priority, and the circular
/// premise's look-ahead. Walks that must agree (threads, stores) are compared on this.
pub(crate) fn reports(comps: &[&Lts], props: &[&Lts], config: &Config) -> Vec<String> {
    let end_states = comps.iter().map(|c| c.states().last()).collect();
    let options = SystemOptions::default().with_deadlock(end_states);
    let prioritised = options.clone().with_priority(Priority::high(["a"]));
    let mut out = vec![
        format!("{:?}", check_safety(comps, props, config)),
        format!("{:?}", find_deadlock(comps, config)),
        format!("{:?}", check_system(comps, props, &options, config)),
        format!("{:?}", check_system(comps, props, &prioritised, config)),
    ];
    if let (Some((m, rest)), Some(p)) = (comps.split_first(), props.first()) {
        out.push(format!("{:?}", check_circular_premise(m, rest, p, config)));
    }
    out
}

/// Random systems of up to four components over `a`..`d` (tau and ERROR states included) with up
/// to two deterministic properties.
pub(crate) fn random_case() -> impl Strategy<Value = (Vec<Lts>, Vec<Lts>)> {
    const POOL: &[&str] = &["a", "b", "c", "d"];
    let comps = arb_system_with(
        4,
        LtsStrategyConfig::new(5, POOL)
            .with_tau(true)
            .with_error_state(true),
    );
    let props = proptest::collection::vec(
        prop_oneof![
            arb_deterministic_property(3, &["a", "b"]),
            arb_deterministic_property(3, &["c", "d"])
        ],
        0..=2,
    );
    (comps, props)
}

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
