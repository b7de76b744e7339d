//! Differential property tests: quotient checking against the monolithic checker on random systems.
//!
//! For random systems of up to three components and a random deterministic property, and for every
//! component as the replaced one, both the exact construction and the refinement loop must give the
//! monolithic verdict; every intermediate assumption of the loop (stopping it after 0, 1, 2, ...
//! steps) must too; counterexamples found after any number of steps must replay in the original
//! components, violate, and map (through the homomorphism) to runs of the quotient system; the
//! certificate must pass the homomorphism checker, broken maps must not, and the checker must agree
//! with the definition on randomly perturbed maps. A violated property gives the one-class
//! assumption once synthesis has finished.

use guarantor_compose::compose;
use guarantor_compose::{Config, check_safety, replay};
use guarantor_lts::ComponentId;
use guarantor_lts::Lts;
use guarantor_lts::strategy::{arb_deterministic_property, arb_lts, arb_system};
use guarantor_quotient::{
    Homomorphism, QuotientConfig, check_homomorphism, check_with_quotient, check_with_quotients,
    default_order, synthesize,
};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c", "d"];

fn holds(components: &[&Lts], properties: &[&Lts]) -> bool {
    check_safety(components, properties, &Config::default())
        .unwrap()
        .verdict
        .is_holds()
}

fn system() -> impl Strategy<Value = (Vec<Lts>, Lts)> {
    (
        arb_system(3, 7, POOL),
        arb_deterministic_property(3, &["a", "b", "c"]),
    )
}

/// Two components, the first (the environment `M`) larger, so refinement takes several steps.
fn pair() -> impl Strategy<Value = (Vec<Lts>, Lts)> {
    (
        arb_lts(10, &["a", "b", "c"], 24),
        arb_lts(6, &["a", "b", "d"], 12),
        arb_deterministic_property(3, &["a", "b", "d"]),
    )
        .prop_map(|(m, n, p)| (vec![m, n], p))
}

/// The composition of all components but `r`.
fn rest(components: &[&Lts], r: usize) -> Lts {
    let others: Vec<&Lts> = components
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != r)
        .map(|(_, &c)| c)
        .collect();
    if others.is_empty() {
        let mut b = guarantor_lts::LtsBuilder::new();
        b.add_state().unwrap();
        return b.build().unwrap();
    }
    compose(&others, &Config::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn verdicts_agree_with_monolithic((components, property) in system()) {
        let comps: Vec<&Lts> = components.iter().collect();
        let expected = holds(&comps, &[&property]);
        for r in 0..comps.len() {
            for (refine, split_all, fallback) in [
                (false, false, None),
                (true, false, Some(50)),
                (true, true, Some(50)),
                (true, false, None),
            ] {
                let config = QuotientConfig::default()
                    .with_refine(refine)
                    .with_split_all(split_all)
                    .with_exact_fallback(fallback);
                let report = check_with_quotient(&comps, &[&property], ComponentId::must(r), &config).unwrap();
                prop_assert_eq!(report.verdict.is_holds(), expected, "r = {}, refine = {}, split_all = {}, fallback = {:?}", r, refine, split_all, fallback);
                let stage = &report.stages[0];
                let a = &stage.synthesis.assumption;
                prop_assert!(check_homomorphism(comps[r], a, &stage.synthesis.homomorphism).is_ok());
                prop_assert!(a.num_states() <= comps[r].num_states());
                if !expected && stage.synthesis.converged {
                    // A violation: every quotient is invertible, and synthesis returns the
                    // coarsest one (one class besides `ERROR`).
                    let most = 1 + usize::from(comps[r].error_state().is_some());
                    prop_assert!(a.num_states() <= most, "{} states", a.num_states());
                }
                if let Some(cex) = report.verdict.counterexample() {
                    prop_assert!(replay::replay(&comps, &cex.trace).is_ok(), "{:?}", cex);
                    let found = replay::find_violation(&comps, &[&property], &cex.trace).unwrap();
                    prop_assert_eq!(found, Some(cex.violation));
                }
                if let Some(cert) = report.verdict.certificate() {
                    prop_assert_eq!(cert.assumptions.len(), 1);
                    // Premise: M || A |= P with the assumption in place.
                    let mut with_a = comps.clone();
                    with_a[r] = &cert.assumptions[0].lts;
                    prop_assert!(holds(&with_a, &[&property]));
                }
            }
        }
    }

    #[test]
    fn the_exact_fallback_hands_over_to_the_exact_construction(
        (components, property) in prop_oneof![system(), pair()],
        split_all in any::<bool>(),
        percent in prop_oneof![Just(0u32), Just(10), Just(50)],
    ) {
        let comps: Vec<&Lts> = components.iter().collect();
        let r = comps.len() - 1;
        let m = rest(&comps, r);
        let exact = QuotientConfig::default().with_refine(false);
        let exact = synthesize(&m, comps[r], &[&property], &exact).unwrap();
        let pure = QuotientConfig::default()
            .with_split_all(split_all)
            .with_exact_fallback(None);
        let pure = synthesize(&m, comps[r], &[&property], &pure).unwrap();
        prop_assert!(!pure.exact_fallback);
        let config = QuotientConfig::default()
            .with_split_all(split_all)
            .with_exact_fallback(Some(percent));
        let s = synthesize(&m, comps[r], &[&property], &config).unwrap();
        prop_assert!(s.converged);
        prop_assert!(s.refinement_steps <= pure.refinement_steps);
        if s.exact_fallback {
            // Handed over before the loop finished: the exact construction's assumption, map
            // and all.
            prop_assert!(s.refinement_steps <= pure.refinement_steps);
            prop_assert_eq!(&s.homomorphism, &exact.homomorphism);
            prop_assert_eq!(s.assumption.num_states(), exact.assumption.num_states());
        } else {
            // Finished first: the loop's own result, as without the bound.
            prop_assert_eq!(s.refinement_steps, pure.refinement_steps);
            prop_assert_eq!(&s.homomorphism, &pure.homomorphism);
        }
        if percent == 0 && pure.refinement_steps > 0 {
            // No share at all: handed over before the first step.
            prop_assert!(s.exact_fallback);
            prop_assert_eq!(s.refinement_steps, 0);
        }
    }

    #[test]
    fn every_intermediate_assumption_is_invertible(
        (components, property) in prop_oneof![system(), pair()],
        split_all in any::<bool>(),
    ) {
        let comps: Vec<&Lts> = components.iter().collect();
        let expected = holds(&comps, &[&property]);
        let r = comps.len() - 1;
        let m = rest(&comps, r);
        // The paper's loop to the end: every step is to be checked, none handed over.
        let base = QuotientConfig::default()
            .with_split_all(split_all)
            .with_exact_fallback(None);
        let full = synthesize(&m, comps[r], &[&property], &base).unwrap();
        prop_assert!(full.converged);
        // The loop's own size list: one entry per refinement step and one for the start.
        let recorded = base.clone().with_record_sizes(true);
        let sizes = synthesize(&m, comps[r], &[&property], &recorded).unwrap();
        prop_assert_eq!(sizes.refinement_steps, full.refinement_steps);
        prop_assert_eq!(sizes.sizes.len(), full.refinement_steps + 1);
        // The last round is the converged one; recording keeps the smallest assumption seen, which
        // an earlier, coarser abstraction may give (the two-phase construction is not monotone in
        // the abstraction: a proptest seed has 2 states after step 0 and 3 at convergence).
        prop_assert_eq!(sizes.sizes.last().map(|x| x.states), Some(full.assumption.num_states()));
        prop_assert!(sizes.assumption.num_states() <= full.assumption.num_states());
        // Stopping after every number of steps: the assumption of that step (not only the
        // smallest) is a homomorphic image of N, invertible, and a violation found with it
        // lifts, through the homomorphism, to a counterexample of the original components.
        for steps in 0..=full.refinement_steps {
            let config = base.clone().with_max_steps(steps);
            let s = synthesize(&m, comps[r], &[&property], &config).unwrap();
            prop_assert!(s.refinement_steps <= steps);
            prop_assert!(check_homomorphism(comps[r], &s.assumption, &s.homomorphism).is_ok());
            let mut with_a = comps.clone();
            with_a[r] = &s.assumption;
            prop_assert_eq!(holds(&with_a, &[&property]), expected, "after {} steps", steps);
            let report = check_with_quotient(&comps, &[&property], ComponentId::must(r), &config).unwrap();
            prop_assert_eq!(report.verdict.is_holds(), expected, "after {} steps", steps);
            if let Some(cex) = report.verdict.counterexample() {
                prop_assert!(replay::replay(&comps, &cex.trace).is_ok(), "{:?}", cex);
                let found = replay::find_violation(&comps, &[&property], &cex.trace).unwrap();
                prop_assert_eq!(found, Some(cex.violation));
                // Its image under the homomorphism is a run of the quotient system.
                let a = &report.stages[0].synthesis.assumption;
                let mut with_stage = comps.clone();
                with_stage[r] = a;
                prop_assert!(replay::replay(&with_stage, &cex.trace).is_ok());
            }
        }
    }

    #[test]
    fn budget_stops_still_give_invertible_assumptions(
        (components, property) in prop_oneof![system(), pair()],
        max_states in 1usize..12,
    ) {
        let comps: Vec<&Lts> = components.iter().collect();
        let expected = holds(&comps, &[&property]);
        let r = comps.len() - 1;
        let m = rest(&comps, r);
        // A refinement budget on the abstract graph: the loop stops early, the assumption of the
        // abstraction reached is extracted under the (unlimited) compose budget.
        let small = QuotientConfig::default().with_refinement(Config::default().with_max_states(max_states));
        // A refinement deadline already passed: the two-block abstraction's assumption.
        let past = Config::default().with_deadline(std::time::Instant::now());
        let spent = QuotientConfig::default().with_refinement(past);
        for config in [small, spent] {
            let s = synthesize(&m, comps[r], &[&property], &config).unwrap();
            if s.stopped_by.is_some() {
                prop_assert!(!s.converged);
            }
            prop_assert!(s.assumption.num_states() <= comps[r].num_states());
            prop_assert!(check_homomorphism(comps[r], &s.assumption, &s.homomorphism).is_ok());
            let mut with_a = comps.clone();
            with_a[r] = &s.assumption;
            prop_assert_eq!(holds(&with_a, &[&property]), expected);
        }
    }

    #[test]
    fn n_way_replacement_agrees((components, property) in system()) {
        let comps: Vec<&Lts> = components.iter().collect();
        let expected = holds(&comps, &[&property]);
        let order = default_order(&comps);
        let report = check_with_quotients(&comps, &[&property], &order, &QuotientConfig::default()).unwrap();
        prop_assert_eq!(report.verdict.is_holds(), expected);
        // Every component is replaced, unless the search before a stage's synthesis found a
        // violation of the originals: the check ends at that stage, with that run.
        prop_assert!(report.stages.len() <= comps.len());
        if expected {
            prop_assert_eq!(report.stages.len(), comps.len());
        }
        if report.stages.len() < comps.len() {
            let found = report.stages.last().unwrap().synthesis.violation.as_ref().unwrap();
            prop_assert_eq!(&report.verdict.counterexample().unwrap().trace, &found.trace);
        }
        if let Some(cex) = report.verdict.counterexample() {
            prop_assert!(replay::violates(&comps, &[&property], &cex.trace).unwrap());
            prop_assert!(replay::replay(&comps, &cex.trace).is_ok());
        }
    }

    #[test]
    fn broken_maps_are_rejected((components, property) in system()) {
        let comps: Vec<&Lts> = components.iter().collect();
        let r = 0;
        let m = rest(&comps, r);
        let s = synthesize(&m, comps[r], &[&property], &QuotientConfig::default()).unwrap();
        let a = &s.assumption;
        let mut short = s.homomorphism.clone();
        short.classes.pop();
        prop_assert!(check_homomorphism(comps[r], a, &short).is_err());
        if a.num_states() > 1 {
            // Send the initial state elsewhere.
            let mut moved = s.homomorphism.clone();
            let init = comps[r].initial().index();
            moved.classes[init] = (moved.classes[init] + 1) % a.num_states() as u32;
            prop_assert!(check_homomorphism(comps[r], a, &moved).is_err());
        }
        let mut out = s.homomorphism.clone();
        out.classes[0] = a.num_states() as u32;
        prop_assert!(check_homomorphism(comps[r], a, &out).is_err());
        prop_assert!(check_homomorphism(comps[r], comps[r], &Homomorphism::identity(comps[r].num_states())).is_ok());
    }

    #[test]
    fn the_checker_agrees_with_the_definition_on_perturbed_maps(
        (components, property) in system(),
        state in any::<prop::sample::Index>(),
        image in any::<prop::sample::Index>(),
    ) {
        let comps: Vec<&Lts> = components.iter().collect();
        let r = 0;
        let n = comps[r];
        let m = rest(&comps, r);
        let s = synthesize(&m, n, &[&property], &QuotientConfig::default()).unwrap();
        let a = &s.assumption;
        // Send one state elsewhere: the checker must accept exactly when the map still is a
        // homomorphism onto `a` by the definition.
        let mut map = s.homomorphism.clone();
        map.classes[state.index(n.num_states())] = image.index(a.num_states()) as u32;
        let h = |x: guarantor_lts::StateId| guarantor_lts::StateId::from_u32(map.classes[x.index()]);
        let onto = (0..a.num_states() as u32).all(|c| map.classes.contains(&c));
        let edges = n.transitions().all(|t| a.successors(h(t.source), t.action).any(|x| x == h(t.target)));
        let valid = onto
            && edges
            && h(n.initial()) == a.initial()
            && n.error_state().map(h) == a.error_state();
        prop_assert_eq!(check_homomorphism(n, a, &map).is_ok(), valid);
        prop_assert!(check_homomorphism(n, a, &s.homomorphism).is_ok());
    }
}
