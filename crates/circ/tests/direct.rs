//! Every public check of this crate called directly, without the facade's input adaptation
//! ([`check_circ`] in several modes, and the [`Circ`] method with and without a split): on random
//! systems with `ERROR` states, tau, zero to two properties and an action only a property has,
//! every verdict must be the monolithic checker's, every counterexample must replay in the user's
//! components and end in a violation, and every certificate must re-check on the prepared system.

use std::time::Instant;

use guarantor_circ::{Circ, CircConfig, Decomposition, Policy, check_circ, prepare};
use guarantor_compose::ag::check_circular_premise;
use guarantor_compose::replay::{find_violation, replay, violates};
use guarantor_compose::{
    Certificate, Config, Method, MethodError, Monolithic, Priority, Problem, Verdict, Violation,
    check_safety,
};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{ComponentId, Lts, LtsBuilder, StateId};
use proptest::collection::vec;
use proptest::prelude::*;

/// One to three components over a pool the properties share, except for `z`, which only a
/// property has (a property may refuse it, and then nothing stops it from being violated).
fn system() -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        3,
        LtsStrategyConfig::new(3, &["a", "b", "c", "d"])
            .with_max_transitions(6)
            .with_error_state(true),
    )
}

fn properties() -> impl Strategy<Value = Vec<Lts>> {
    vec(arb_deterministic_property(2, &["a", "b", "c", "z"]), 0..=2)
}

/// Component `i` is called `C<i>`, property `j` `P<j>`.
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
/// of the user's components and drives them into a violation.
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
        prop_assert_eq!(
            find_violation(parts, props, &cex.trace).unwrap(),
            Some(cex.violation),
            "{}: {:?}",
            name,
            cex.trace
        );
    }
    Ok(())
}

/// Re-checks a certificate on the system prepared in `mode`: every premise with all other
/// certified assumptions, and the assumptions against the property. Each assumption is matched to
/// the prepared component that stands for the same components.
fn recheck(
    parts: &[&Lts],
    props: &[&Lts],
    mode: &Decomposition,
    cert: &Certificate,
) -> Result<(), TestCaseError> {
    let sys = prepare(parts, props, mode, &Config::default()).unwrap();
    for (k, a) in cert.assumptions.iter().enumerate() {
        let i = sys.stands_for().iter().position(|s| *s == a.components);
        prop_assert!(
            i.is_some(),
            "no prepared component stands for {:?}",
            a.components
        );
        let others: Vec<&Lts> = cert
            .assumptions
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, b)| &b.lts)
            .collect();
        let premise = check_circular_premise(
            &sys.components()[i.unwrap()],
            &others,
            &a.lts,
            &Config::default(),
        )
        .unwrap();
        prop_assert!(
            premise.verdict.is_holds(),
            "premise {:?} fails",
            a.components
        );
    }
    let all: Vec<&Lts> = cert.assumptions.iter().map(|a| &a.lts).collect();
    let holds = if all.is_empty() {
        sys.property().error_state() != Some(sys.property().initial())
    } else {
        check_safety(&all, &[sys.property()], &Config::default())
            .unwrap()
            .verdict
            .is_holds()
    };
    prop_assert!(holds, "the assumptions violate the property");
    Ok(())
}

fn two_way() -> Decomposition {
    Decomposition::TwoWay { first: None }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every entry point, called directly, gives the monolithic verdict.
    #[test]
    fn every_entry_point_agrees_with_the_monolithic_check(sys in system(), ps in properties()) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let props: Vec<&Lts> = ps.iter().collect();
        let expected = check_safety(&parts, &props, &Config::default()).unwrap().verdict.is_holds();
        let base = CircConfig::default().with_max_iterations(2_000);
        let configs = [
            ("NW+AR", base.clone()),
            ("NW+AR synthesis only", base.clone().with_max_projection_states(0)),
            ("NW+AR projections up to 2 states", base.clone().with_max_projection_states(2)),
            ("NW", base.clone().with_alphabet_refinement(false)),
            ("2W+AR", base.clone().with_mode(two_way())),
            ("NW+AR neighbours", base.clone().with_policy(Policy::Neighbours)),
        ];
        for (name, config) in &configs {
            let report = check_circ(&parts, &props, config).unwrap();
            agrees(&format!("check_circ {name}"), &report.verdict, expected, &parts, &props)?;
            if let Verdict::Holds(cert) = &report.verdict {
                recheck(&parts, &props, &config.mode, cert)?;
            }
        }

        let problem = problem(&sys, &ps);
        let mono = Monolithic::new().check(&problem, &Config::default()).unwrap();
        prop_assert_eq!(mono.verdict.is_holds(), expected);
        let mut methods: Vec<Circ> = configs.iter().map(|(_, c)| Circ::new().with_config(c.clone())).collect();
        if parts.len() > 1 {
            // Each component alone against the rest.
            methods.extend(problem.component_ids().map(|c| Circ::new().with_config(base.clone()).with_split([c])));
        }
        for method in &methods {
            let report = method.check(&problem, &Config::default()).unwrap();
            agrees(&format!("{method:?}"), &report.verdict, expected, &parts, &props)?;
            for counter in ["iterations", "alphabet_refinements", "sat_calls", "max_k"] {
                prop_assert!(report.counter(counter).is_some(), "no {}", counter);
            }
            if let Verdict::Holds(cert) = &report.verdict {
                // Every assumption stands for components of the problem.
                for a in &cert.assumptions {
                    prop_assert!(
                        a.components.iter().all(|c| c.index() < problem.num_components()),
                        "components {:?}", a.components
                    );
                }
                let mode = match method.split() {
                    None => method.config().mode.clone(),
                    Some(first) => Decomposition::TwoWay { first: Some(first.to_vec()) },
                };
                recheck(&parts, &props, &mode, cert)?;
            }
        }
    }
}

fn lts(edges: &[(usize, &str, usize)]) -> Lts {
    Lts::from_edges(edges.iter().copied()).unwrap()
}

/// A proptest case (found with larger systems than the proptest above draws): `C0` reaches its
/// `ERROR` on `a`; `C1` loops on `c`; the property allows `a` then `a`, but no `c` after `a`; a
/// second property adds `b`, which no component has (so preparation adds `env`). In two-way mode
/// with alphabet refinement the real counterexample came out as `[a, c]`: in the prepared system
/// `C0`'s `ERROR` is a plain state, so the run goes on to the property's violation, but the
/// original composition stops at the `ERROR` and `[a, c]` is no run of it. The counterexample is
/// now cut at the first violation of the original components.
#[test]
fn a_counterexample_stops_at_the_first_error_of_the_original_components() {
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.add_transition_named(StateId::must(0), "a", StateId::must(1))
        .unwrap();
    b.set_error(StateId::must(1)).unwrap();
    let c0 = b.build().unwrap();
    let c1 = lts(&[(0, "c", 0)]);
    let p0 = lts(&[(0, "a", 1), (0, "c", 1), (1, "a", 0)]);
    let p1 = lts(&[(0, "a", 0), (0, "b", 0), (0, "c", 0)]);
    let (parts, props) = ([&c0, &c1], [&p0, &p1]);
    let config = CircConfig::default().with_mode(two_way());
    let report = check_circ(&parts, &props, &config).unwrap();
    let cex = report.verdict.counterexample().expect("C0 reaches ERROR");
    assert_eq!(cex.trace, ["a"]);
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
        Circ::new().check(&deadlock, &config).unwrap_err()
    ));
    let priority = small_problem().with_priority(Some(Priority::high(["send"])));
    assert!(unsupported(
        Circ::new().check(&priority, &config).unwrap_err()
    ));
    let problem = small_problem();
    let (input, output) = (ComponentId::must(0), ComponentId::must(1));
    for split in [vec![ComponentId::must(2)], vec![], vec![input, output]] {
        let e = Circ::new()
            .with_split(split.clone())
            .check(&problem, &config);
        assert!(bad(e.unwrap_err()), "split {split:?}");
    }
    let wrong_groups = CircConfig::default().with_mode(Decomposition::TwoWay {
        first: Some(vec![ComponentId::must(7)]),
    });
    assert!(bad(Circ::new()
        .with_config(wrong_groups)
        .check(&problem, &config)
        .unwrap_err()));
    let wrong_policy = CircConfig::default().with_policy(Policy::Given(vec![vec![0], vec![0]]));
    assert!(bad(Circ::new()
        .with_config(wrong_policy)
        .check(&problem, &config)
        .unwrap_err()));
    assert!(bad(Circ::new()
        .check(&Problem::new(), &config)
        .unwrap_err()));
    // A split that fits: two-way, each assumption standing for one of the two components.
    let report = Circ::new()
        .with_split([output])
        .check(&problem, &config)
        .unwrap();
    let cert = report.verdict.certificate().unwrap();
    assert!(
        cert.assumptions
            .iter()
            .all(|a| a.components == [input] || a.components == [output]),
        "{cert:?}"
    );
    assert_eq!(Circ::new().name(), "circ");
}

/// A property action no component has becomes the `env` component, which two-way mode puts in the
/// first group, which still stands for `Input` alone (`env` is no user component).
#[test]
fn the_environment_joins_the_first_group() {
    let problem = small_problem().with_property(
        "Alarms",
        lts(&[
            (0, "input", 1),
            (1, "output", 0),
            (0, "alarm", 0),
            (1, "alarm", 1),
        ]),
    );
    let report = Circ::new()
        .with_config(CircConfig::default().with_alphabet_refinement(false))
        .with_split([ComponentId::must(0)])
        .check(&problem, &Config::default())
        .unwrap();
    let cert = report.verdict.certificate().unwrap();
    let stands_for: Vec<Vec<&str>> = cert
        .assumptions
        .iter()
        .map(|a| {
            a.components
                .iter()
                .map(|&c| problem.component_name(c))
                .collect()
        })
        .collect();
    assert_eq!(stands_for, [vec!["Input"], vec!["Output"]]);
    assert!(cert.assumptions[0].lts.alphabet().contains("alarm"));
}

#[test]
fn an_exhausted_budget_is_a_budget_error() {
    let problem = small_problem();
    let tiny = Config::default().with_max_states(1);
    let e = Circ::new().check(&problem, &tiny).unwrap_err();
    assert!(e.is_budget(), "{e}");
    assert!(e.partial_stats().is_some());
    let past = Config::default().with_deadline(Instant::now());
    let e = Circ::new().check(&problem, &past).unwrap_err();
    assert!(e.is_budget(), "{e}");
    // The method's own budgets stay: no iteration allowed.
    let none = CircConfig::default().with_max_iterations(0);
    let e = Circ::new()
        .with_config(none)
        .check(&problem, &Config::default())
        .unwrap_err();
    assert!(e.is_budget(), "{e}");
}
