//! Every public check of this crate called directly, without the facade's input adaptation
//! ([`check_with_quotient`] for every component, [`check_with_quotients`] in two orders, and the
//! [`Quotient`] method): on random systems with `ERROR` states, tau, zero to two properties and an
//! action only a property has, every verdict must be the monolithic checker's, and every
//! counterexample must replay in the user's components and end in a violation.

use std::time::Instant;

use guarantor_compose::replay::{find_violation, replay, violates};
use guarantor_compose::{
    Config, Method, MethodError, Monolithic, Priority, Problem, Verdict, Violation, check_safety,
};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{ComponentId, Lts, LtsBuilder, StateId};
use guarantor_quotient::{
    Quotient, QuotientConfig, check_with_quotient, check_with_quotients, default_order,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// One to three components over a pool the properties share, except for `z`, which only a
/// property has (a property may refuse it, and then nothing stops it from being violated).
fn system() -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        3,
        LtsStrategyConfig::new(4, &["a", "b", "c", "d"])
            .with_max_transitions(7)
            .with_error_state(true),
    )
}

fn properties() -> impl Strategy<Value = Vec<Lts>> {
    vec(arb_deterministic_property(2, &["a", "b", "z"]), 0..=2)
}

fn problem(components: &[Lts], properties: &[Lts]) -> Problem {
    let mut problem = Problem::new();
    for (i, c) in components.iter().enumerate() {
        problem.add_component(format!("C{i}"), c.clone());
    }
    for (i, p) in properties.iter().enumerate() {
        problem.add_property(format!("P{i}"), p.clone());
    }
    problem
}

/// Checks one verdict against the monolithic one: same answer, and a counterexample that is a run
/// of the user's components and drives them into the violation it names (or, when one trace
/// reaches several, into some violation).
fn agrees(
    name: &str,
    verdict: &Verdict,
    expected: bool,
    parts: &[&Lts],
    props: &[&Lts],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(verdict.is_holds(), expected, "{} says {:?}", name, verdict);
    if let Verdict::Violated(cex) = verdict {
        prop_assert!(
            replay(parts, &cex.trace).is_ok(),
            "{}: {:?} does not replay",
            name,
            cex.trace
        );
        prop_assert!(
            violates(parts, props, &cex.trace).unwrap(),
            "{}: {:?} violates nothing",
            name,
            cex.trace
        );
        prop_assert!(find_violation(parts, props, &cex.trace).unwrap().is_some());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every entry point, called directly, gives the monolithic verdict.
    #[test]
    fn every_entry_point_agrees_with_the_monolithic_check(sys in system(), ps in properties()) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let props: Vec<&Lts> = ps.iter().collect();
        let expected = check_safety(&parts, &props, &Config::default()).unwrap().verdict.is_holds();
        let exact = QuotientConfig::default().with_refine(false);
        for r in 0..parts.len() {
            for (how, config) in [("refined", QuotientConfig::default()), ("exact", exact.clone())] {
                let report = check_with_quotient(&parts, &props, ComponentId::must(r), &config).unwrap();
                agrees(&format!("check_with_quotient r = {r} {how}"), &report.verdict, expected, &parts, &props)?;
            }
        }
        let order = default_order(&parts);
        let mut reversed = order.clone();
        reversed.reverse();
        for order in [order, reversed] {
            let report = check_with_quotients(&parts, &props, &order, &QuotientConfig::default()).unwrap();
            agrees(&format!("check_with_quotients {order:?}"), &report.verdict, expected, &parts, &props)?;
        }

        let problem = problem(&sys, &ps);
        let mono = Monolithic::new().check(&problem, &Config::default()).unwrap();
        prop_assert_eq!(mono.verdict.is_holds(), expected);
        let mut methods = vec![Quotient::new(), Quotient::new().with_config(exact)];
        methods.extend(problem.component_ids().map(|c| Quotient::new().with_component(c)));
        for method in &methods {
            let report = method.check(&problem, &Config::default()).unwrap();
            agrees(&format!("{method:?}"), &report.verdict, expected, &parts, &props)?;
            prop_assert!(report.counter("refinement_steps").is_some());
            prop_assert!(report.counter("exact_fallbacks").is_some());
            if let Some(cert) = report.verdict.certificate() {
                // One assumption, standing for the component it replaced, and a premise that holds:
                // the system with it in place satisfies the properties.
                prop_assert_eq!(cert.assumptions.len(), 1);
                let stands_for = &cert.assumptions[0].components;
                prop_assert_eq!(stands_for.len(), 1);
                let replaced = stands_for.first().copied().filter(|c| c.index() < parts.len());
                prop_assert!(replaced.is_some(), "{:?}", stands_for);
                if let Some(c) = method.component() {
                    prop_assert_eq!(replaced, Some(c));
                }
                let mut with_a = parts.clone();
                with_a[replaced.unwrap().index()] = &cert.assumptions[0].lts;
                prop_assert!(check_safety(&with_a, &props, &Config::default()).unwrap().verdict.is_holds());
            }
        }
    }
}

fn lts(edges: &[(usize, &str, usize)]) -> Lts {
    Lts::from_edges(edges.iter().copied()).unwrap()
}

/// A proptest case (found with larger systems than the proptest above draws): `C0` reaches its
/// `ERROR` by a tau step from the start; `C1` has a `b` only in a state it never reaches, and
/// the property forbids `b`. Replacing `C1` first gives a one-state quotient that loops on `b`; the search
/// before the second stage's synthesis (of `C0` against that quotient) then found `[b]`, whose
/// empty prefix drives the original components into `C0`'s `ERROR`. The check took the whole
/// `[b]` as its counterexample, which is no run of the originals (`C1` cannot do `b`); it now cuts
/// the trace where the originals first fail.
#[test]
fn a_later_stage_cuts_its_early_counterexample_to_a_run_of_the_originals() {
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.action("a").unwrap();
    b.add_transition_named(StateId::must(0), "tau", StateId::must(0))
        .unwrap();
    b.add_transition_named(StateId::must(0), "tau", StateId::must(1))
        .unwrap();
    b.set_error(StateId::must(1)).unwrap();
    let c0 = b.build().unwrap();
    let c1 = lts(&[(1, "b", 0)]);
    // Forbids `b`: the quotient's `b` violates it.
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    b.add_transition_named(StateId::must(0), "a", StateId::must(0))
        .unwrap();
    b.action("b").unwrap();
    let p = b.build().unwrap();
    let (parts, props) = ([&c0, &c1], [&p]);
    let report = check_with_quotients(
        &parts,
        &props,
        &[ComponentId::must(1), ComponentId::must(0)],
        &QuotientConfig::default(),
    )
    .unwrap();
    let cex = report.verdict.counterexample().expect("C0 reaches ERROR");
    assert!(cex.trace.is_empty(), "{:?}", cex.trace);
    assert_eq!(
        cex.violation,
        Violation::ErrorState {
            component: ComponentId::must(0)
        }
    );
    replay(&parts, &cex.trace).unwrap();
}

fn small_problem() -> Problem {
    Problem::new()
        .with_component(
            "Input",
            lts(&[(0, "input", 1), (1, "send", 2), (2, "ack", 0)]),
        )
        .with_component(
            "Output",
            lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)]),
        )
        .with_property("Order", lts(&[(0, "input", 1), (1, "output", 0)]))
}

#[test]
fn the_method_refuses_what_it_cannot_decide_and_settings_that_do_not_fit() {
    let config = Config::default();
    let unsupported = |e: MethodError| matches!(e, MethodError::Unsupported { .. });
    let bad = |e: MethodError| matches!(e, MethodError::BadSettings(_));
    let deadlock = small_problem().with_deadlock(true);
    assert!(unsupported(
        Quotient::new().check(&deadlock, &config).unwrap_err()
    ));
    let priority = small_problem().with_priority(Some(Priority::high(["send"])));
    assert!(unsupported(
        Quotient::new().check(&priority, &config).unwrap_err()
    ));
    let missing = Quotient::new().with_component(ComponentId::must(2));
    assert!(bad(missing.check(&small_problem(), &config).unwrap_err()));
    assert!(bad(Quotient::new()
        .check(&Problem::new(), &config)
        .unwrap_err()));
    // The same settings fit a problem that has the component.
    let report = Quotient::new()
        .with_component(ComponentId::must(1))
        .check(&small_problem(), &config)
        .unwrap();
    assert!(report.verdict.is_holds());
    assert_eq!(
        report.verdict.certificate().unwrap().assumptions[0].components,
        [ComponentId::must(1)]
    );
    assert_eq!(Quotient::new().name(), "quotient");
}

#[test]
fn an_exhausted_budget_is_a_budget_error() {
    let problem = small_problem();
    let tiny = Config::default().with_max_states(1);
    let e = Quotient::new().check(&problem, &tiny).unwrap_err();
    assert!(e.is_budget(), "{e}");
    assert!(e.partial_stats().is_some());
    let past = Config::default().with_deadline(Instant::now());
    let e = Quotient::new().check(&problem, &past).unwrap_err();
    assert!(e.is_budget(), "{e}");
    // The method's own settings do not lift the check's budgets.
    let generous = QuotientConfig::default().with_compose(Config::default());
    let e = Quotient::new()
        .with_config(generous)
        .check(&problem, &tiny)
        .unwrap_err();
    assert!(e.is_budget(), "{e}");
}
