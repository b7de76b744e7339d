//! Differential property tests: on random systems of 2 to 5 small components, CIRC-AG_N in every
//! mode (NW, NW+AR, 2W, 2W+AR) agrees with the monolithic check; counterexamples replay and
//! violate; certificates re-check premise by premise with compose.

use guarantor_circ::{
    CexPerIteration, CircConfig, CircReport, Decomposition, Policy, check_circ, prepare,
};
use guarantor_compose::ag::check_circular_premise;
use guarantor_compose::replay::{replay, violates};
use guarantor_compose::{Config, check_safety};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::prelude::*;

const POOL: [&str; 5] = ["a", "b", "c", "d", "e"];

fn modes() -> Vec<(&'static str, CircConfig)> {
    // The SAT synthesis alone in most modes: with projections (the default) these small systems
    // rarely reach it. The projection rounds have their own modes at the end.
    let seeded = CircConfig::default().with_max_iterations(2_000);
    let base = seeded.clone().with_max_projection_states(0);
    vec![
        ("NW+AR projections (the default)", seeded.clone()),
        (
            "NW projections",
            seeded.clone().with_alphabet_refinement(false),
        ),
        (
            "2W+AR projections",
            seeded
                .clone()
                .with_mode(Decomposition::TwoWay { first: None }),
        ),
        (
            "NW+AR projections, neighbours",
            seeded.clone().with_policy(Policy::Neighbours),
        ),
        (
            // Projections of two states at most: most runs hand some alphabet to the synthesis.
            "NW+AR projections up to 2 states",
            seeded.with_max_projection_states(2),
        ),
        ("NW+AR", base.clone()),
        ("NW", base.clone().with_alphabet_refinement(false)),
        (
            "2W",
            base.clone()
                .with_mode(Decomposition::TwoWay { first: None })
                .with_alphabet_refinement(false),
        ),
        (
            "2W+AR",
            base.clone()
                .with_mode(Decomposition::TwoWay { first: None }),
        ),
        (
            "NW+AR neighbours",
            base.clone().with_policy(Policy::Neighbours),
        ),
        (
            "NW+AR one cex per premise, no reanalysis, no hint",
            base.clone()
                .with_cex_per_iteration(CexPerIteration::AllPremises)
                .with_reanalyse_traces(false)
                .with_bound_hint(false),
        ),
        (
            "NW+AR first failing premise only",
            base.clone().with_cex_per_iteration(CexPerIteration::One),
        ),
        (
            "NW plain",
            base.with_strong_constraints(false)
                .with_reanalyse_traces(false)
                .with_bound_hint(false)
                .with_cex_per_iteration(CexPerIteration::AllPremises)
                .with_extend_traces(false)
                .with_reuse_constraints(false)
                .with_symmetry_breaking(false)
                .with_incremental(false)
                .with_reduce_environments(false)
                .with_reuse_premises(false),
        ),
    ]
}

/// Re-checks a certificate on the prepared system: every premise with all other certified
/// assumptions, and the assumptions against the property.
fn recheck(
    comps: &[&Lts],
    props: &[&Lts],
    config: &CircConfig,
    report: &CircReport,
) -> Result<(), String> {
    let cert = report.verdict.certificate().ok_or("no certificate")?;
    let sys = prepare(comps, props, &config.mode, &Config::default()).map_err(|e| e.to_string())?;
    let index = |stands_for: &[_]| sys.stands_for().iter().position(|s| s == stands_for);
    for (k, a) in cert.assumptions.iter().enumerate() {
        let i = index(&a.components).ok_or("unknown components")?;
        let others: Vec<&Lts> = cert
            .assumptions
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, b)| &b.lts)
            .collect();
        let r = check_circular_premise(&sys.components()[i], &others, &a.lts, &Config::default())
            .map_err(|e| e.to_string())?;
        if !r.verdict.is_holds() {
            return Err(format!("premise {:?} fails: {:?}", a.components, r.verdict));
        }
    }
    let all: Vec<&Lts> = cert.assumptions.iter().map(|a| &a.lts).collect();
    let ok = if all.is_empty() {
        sys.property().error_state() != Some(sys.property().initial())
    } else {
        check_safety(&all, &[sys.property()], &Config::default())
            .map_err(|e| e.to_string())?
            .verdict
            .is_holds()
    };
    if ok {
        Ok(())
    } else {
        Err("assumptions violate the property".into())
    }
}

fn system() -> impl Strategy<Value = (Vec<Lts>, Lts)> {
    let comp = LtsStrategyConfig::new(3, &POOL)
        .with_max_transitions(5)
        .with_tau(true);
    (
        arb_system_with(5, comp).prop_filter("two or more components", |s| s.len() >= 2),
        arb_deterministic_property(3, &POOL[..3]),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_mode_agrees_with_the_monolithic_check((comps, prop) in system()) {
        let refs: Vec<&Lts> = comps.iter().collect();
        let props = [&prop];
        let expected = check_safety(&refs, &props, &Config::default()).unwrap().verdict.is_holds();
        for (name, config) in modes() {
            let report = check_circ(&refs, &props, &config).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            prop_assert_eq!(report.verdict.is_holds(), expected, "{}", name);
            if let Some(cex) = report.verdict.counterexample() {
                prop_assert!(replay(&refs, &cex.trace).is_ok(), "{}: {:?} does not replay", name, cex.trace);
                prop_assert!(violates(&refs, &props, &cex.trace).unwrap(), "{}: {:?} does not violate", name, cex.trace);
            } else {
                recheck(&refs, &props, &config, &report).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            }
            prop_assert!(report.rule.sound);
            if !config.alphabet_refinement {
                prop_assert!(report.rule.complete);
            }
        }
    }
}

/// Components with ERROR states and several properties are prepared into the paper's setting.
#[test]
fn error_states_and_several_properties() {
    use guarantor_lts::strategy::arb_lts_with;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let comp = LtsStrategyConfig::new(3, &POOL[..4])
        .with_max_transitions(6)
        .with_error_state(true);
    for _ in 0..40 {
        let comps: Vec<Lts> = (0..3)
            .map(|_| {
                arb_lts_with(comp.clone())
                    .new_tree(&mut runner)
                    .unwrap()
                    .current()
            })
            .collect();
        let p1 = arb_deterministic_property(2, &POOL[..2])
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let p2 = arb_deterministic_property(2, &POOL[2..5])
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let refs: Vec<&Lts> = comps.iter().collect();
        let props = [&p1, &p2];
        let expected = check_safety(&refs, &props, &Config::default())
            .unwrap()
            .verdict;
        let report = check_circ(&refs, &props, &CircConfig::default()).unwrap();
        assert_eq!(report.verdict.is_holds(), expected.is_holds());
        if let Some(cex) = report.verdict.counterexample() {
            assert!(replay(&refs, &cex.trace).is_ok());
            assert!(violates(&refs, &props, &cex.trace).unwrap());
        } else {
            recheck(&refs, &props, &CircConfig::default(), &report).unwrap();
        }
    }
}
