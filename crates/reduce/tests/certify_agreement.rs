//! The checker's premises mean what `guarantor-compose`'s checks mean: on random systems, a
//! monolithic premise holds exactly when `check_safety` says the property holds, a triple exactly
//! when `check_triple` does, and a circular premise exactly when `check_circular_premise` does.
//! (They live in this crate's tests because certify may not depend on compose, even for tests:
//! compose depends on certify.)

// The certify tests' helpers (the order example, certificates for it): these tests live here
// because guarantor-certify may not dev-depend on compose or a method crate (compose depends on
// certify, and the cycle breaks `cargo package`).
#[path = "../../certify/tests/common/mod.rs"]
mod common;

use common::blank;
use guarantor_certify::format::{Assumption, Guarantee, LtsData, Premise, Role, Rule, VerdictKind};
use guarantor_certify::{Model, Rejection, Report, check};
use guarantor_compose::{Config, check_circular_premise, check_safety, check_triple};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{
    LtsStrategyConfig, arb_deterministic_property, arb_lts_with, arb_system_with,
};
use proptest::prelude::*;

const POOL: [&str; 4] = ["a", "b", "c", "d"];

/// Whether the report failed at premise 0 (the premise does not hold); any later outcome means it
/// held.
fn premise_failed(report: &Report) -> bool {
    matches!(
        report.rejection(),
        Some(Rejection::Premise { index: 0, .. })
    )
}

fn as_assumption(lts: &Lts, role: Role) -> Assumption {
    let alphabet = lts
        .alphabet()
        .visible()
        .map(|a| lts.action_name(a).to_owned())
        .collect();
    Assumption::new(vec!["M".into()], role, alphabet, LtsData::from_lts(lts))
}

fn component() -> impl Strategy<Value = Lts> {
    arb_lts_with(
        LtsStrategyConfig::new(4, &POOL)
            .with_max_transitions(8)
            .with_error_state(true),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn monolithic_agrees_with_check_safety(
        system in arb_system_with(3, LtsStrategyConfig::new(3, &POOL).with_max_transitions(6).with_error_state(true)),
        property in arb_deterministic_property(3, &["a", "b", "c"]),
    ) {
        let mut model = Model::new().property("P", property.clone());
        for (i, c) in system.iter().enumerate() {
            model = model.component(format!("C{i}"), c.clone());
        }
        let cert = blank(&model, VerdictKind::Holds, Rule::Mono).with_premise(Premise::Monolithic);
        let report = check(&cert, &model).unwrap();
        let refs: Vec<&Lts> = system.iter().collect();
        let expected = check_safety(&refs, &[&property], &Config::default()).unwrap();
        prop_assert_eq!(report.is_accepted(), expected.verdict.is_holds(), "{:?}", report);
    }

    #[test]
    fn triple_agrees_with_check_triple(
        m in component(),
        a in arb_lts_with(LtsStrategyConfig::new(3, &["a", "b"]).with_max_transitions(6)),
        p in arb_deterministic_property(3, &["b", "c"]),
    ) {
        let model = Model::new().component("M", m.clone()).property("P", p.clone());
        let cert = blank(&model, VerdictKind::Holds, Rule::AsymN)
            .with_assumption(as_assumption(&a, Role::Assumption))
            .with_premise(Premise::Triple {
                assumptions: vec![0],
                components: vec!["M".into()],
                guarantee: Guarantee::Properties(vec!["P".into()]),
            });
        let report = check(&cert, &model).unwrap();
        let expected = check_triple(&a, &m, &p, &Config::default()).unwrap();
        prop_assert_eq!(!premise_failed(&report), expected.verdict.is_holds(), "{:?}", report);
    }

    #[test]
    fn circular_agrees_with_check_circular_premise(
        m in component(),
        a in arb_lts_with(LtsStrategyConfig::new(3, &["a", "b", "d"]).with_max_transitions(6)),
        g in arb_deterministic_property(3, &["a", "b", "c"]),
    ) {
        let model = Model::new().component("M", m.clone());
        let cert = blank(&model, VerdictKind::Holds, Rule::Circ)
            .with_assumption(as_assumption(&g, Role::Guarantee))
            .with_assumption(as_assumption(&a, Role::Guarantee))
            .with_premise(Premise::Circular {
                assumptions: vec![1],
                components: vec!["M".into()],
                guarantee: 0,
            });
        let report = check(&cert, &model).unwrap();
        let expected = check_circular_premise(&m, &[&a], &g, &Config::default()).unwrap();
        prop_assert_eq!(!premise_failed(&report), expected.verdict.is_holds(), "{:?}", report);
    }
}
