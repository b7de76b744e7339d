//! Issue 28, point 9: sub-problems. A method that decomposes a [`Problem`] (one property at a
//! time, some components) checks parts of it; [`SubProblem`] builds the parts and maps their
//! answers back to the whole problem's ids. Checked against the whole problem: the per-property
//! decomposition agrees with the monolithic check, and every lifted violation is confirmed by
//! replaying its trace on the whole problem's own component and property.

use guarantor_compose::method::{Method, Monolithic, Problem};
use guarantor_compose::replay::{first_violation, replay};
use guarantor_compose::{Assumption, Certificate, Config, MethodError, Verdict, Violation};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{ComponentId, Lts, PropertyId};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c"];

fn problem_of(comps: &[Lts], props: &[Lts]) -> Problem {
    let mut problem = Problem::new();
    for (i, c) in comps.iter().enumerate() {
        problem.add_component(format!("C{i}"), c.clone());
    }
    for (i, p) in props.iter().enumerate() {
        problem.add_property(format!("P{i}"), p.clone());
    }
    problem
}

fn case() -> impl Strategy<Value = (Vec<Lts>, Vec<Lts>)> {
    let comps = arb_system_with(
        3,
        LtsStrategyConfig::new(4, POOL)
            .with_tau(true)
            .with_error_state(true),
    );
    let props = proptest::collection::vec(
        prop_oneof![
            arb_deterministic_property(3, &["a", "b"]),
            arb_deterministic_property(3, &["b", "c"]),
        ],
        1..=3,
    );
    (comps, props)
}

/// The naive reading of a deterministic property: it follows the trace's actions in its alphabet
/// and refuses the last one (no move, or a move into its error state), having allowed the rest.
fn refuses_last(property: &Lts, trace: &[String]) -> bool {
    let mut state = property.initial();
    for (i, name) in trace.iter().enumerate() {
        let Some(action) = property.alphabet().get(name) else {
            continue;
        };
        let next = property
            .successors(state, action)
            .find(|&t| !property.is_error(t));
        match next {
            Some(t) => state = t,
            None => return i + 1 == trace.len(),
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// One property at a time: the whole problem holds exactly when every part does, and a
    /// part's violation, lifted, names a property of the whole problem that its trace violates.
    #[test]
    fn per_property_parts_agree_with_the_whole((comps, props) in case()) {
        let problem = problem_of(&comps, &props);
        let config = Config::default();
        let whole = Monolithic::new().check(&problem, &config).unwrap();
        let comp_refs: Vec<&Lts> = comps.iter().collect();
        let mut all_hold = true;
        for (id, name, _) in problem.properties() {
            let part = problem.with_only_properties([id]).unwrap();
            prop_assert_eq!(part.problem().num_properties(), 1);
            prop_assert_eq!(part.problem().property_name(PropertyId::must(0)), name);
            prop_assert_eq!(part.original_property(PropertyId::must(0)), Some(id));
            let report = part.lift(Monolithic::new().check(part.problem(), &config).unwrap());
            let Verdict::Violated(cex) = &report.verdict else { continue };
            all_hold = false;
            match cex.violation {
                Violation::Property { property } => {
                    prop_assert_eq!(property, id);
                    // A run of the components that the whole problem's own property `id` refuses
                    // at its last step.
                    prop_assert!(replay(&comp_refs, &cex.trace).is_ok());
                    prop_assert!(refuses_last(&props[id.index()], &cex.trace));
                }
                Violation::ErrorState { component } => {
                    prop_assert!(comps[component.index()].error_state().is_some());
                }
                other => prop_assert!(false, "unexpected {:?}", other),
            }
        }
        prop_assert_eq!(all_hold, whole.verdict.is_holds());
    }

    /// Some components: the part's component `i` is the whole's `ids[i]`, and an `ERROR` state
    /// reached in the part is named by the whole problem's id.
    #[test]
    fn component_parts_keep_the_whole_problems_ids((comps, props) in case(), pick in 0usize..7) {
        let problem = problem_of(&comps, &props);
        let mut ids: Vec<ComponentId> = problem
            .component_ids()
            .filter(|c| pick & (1 << c.index()) != 0)
            .collect();
        ids.reverse();
        prop_assume!(!ids.is_empty());
        let part = problem.restrict_to_components(ids.iter().copied()).unwrap();
        prop_assert_eq!(part.components().collect::<Vec<_>>(), ids.clone());
        for (local, name, lts) in part.problem().components() {
            let whole = ids[local.index()];
            prop_assert_eq!(name, problem.component_name(whole));
            prop_assert_eq!(lts, problem.component(whole));
        }
        prop_assert_eq!(part.problem().num_properties(), props.len());
        let raw = Monolithic::new().check(part.problem(), &Config::default()).unwrap();
        let report = part.lift(raw.clone());
        if let (Verdict::Violated(local), Verdict::Violated(lifted)) = (&raw.verdict, &report.verdict)
            && let Violation::ErrorState { component: l } = local.violation
        {
            // The part's component `l` is the whole's `ids[l]`, whose own LTS has an ERROR.
            prop_assert_eq!(
                lifted.violation,
                Violation::ErrorState { component: ids[l.index()] }
            );
            prop_assert!(comps[ids[l.index()].index()].error_state().is_some());
            // The trace is a run of the part's components that reaches an ERROR (some
            // component's: two may reach theirs on the same step; tau steps may reach one before
            // the trace's last visible action).
            let only: Vec<&Lts> = ids.iter().map(|&c| &comps[c.index()]).collect();
            let found = first_violation(&only, &[], &lifted.trace).unwrap();
            let ends_in_error =
                matches!(found, Some((n, Violation::ErrorState { .. })) if n <= lifted.trace.len());
            prop_assert!(ends_in_error, "{:?}", found);
        }
    }
}

#[test]
fn ids_the_problem_does_not_have_are_bad_settings() {
    let a = Lts::from_edges([(0, "a", 0)]).unwrap();
    let problem = Problem::new()
        .with_component("A", a.clone())
        .with_property("P", a);
    let err = problem
        .restrict_to_components([ComponentId::must(3)])
        .unwrap_err();
    assert!(matches!(err, MethodError::BadSettings(_)), "{err}");
    assert!(err.to_string().contains("no component 3"), "{err}");
    let err = problem
        .with_only_properties([PropertyId::must(1)])
        .unwrap_err();
    assert!(matches!(err, MethodError::BadSettings(_)), "{err}");
    // A part of a part takes the whole problem's ids, and only those the part has.
    let part = problem.with_only_properties([]).unwrap();
    assert_eq!(part.problem().num_properties(), 0);
    assert!(part.with_only_properties([PropertyId::must(0)]).is_err());
}

#[test]
fn a_certificate_of_a_part_stands_for_the_whole_problems_components() {
    let a = Lts::from_edges([(0, "a", 0)]).unwrap();
    let problem = Problem::new()
        .with_component("A", a.clone())
        .with_component("B", a.clone())
        .with_component("C", a.clone());
    let part = problem
        .restrict_to_components([ComponentId::must(2), ComponentId::must(1)])
        .unwrap();
    let verdict = Verdict::Holds(Certificate::new([Assumption::new(
        [ComponentId::must(0), ComponentId::must(1)],
        a,
    )]));
    let lifted = part.lift_verdict(verdict);
    let cert = lifted.certificate().unwrap();
    assert_eq!(
        cert.assumptions[0].components,
        [ComponentId::must(1), ComponentId::must(2)]
    );
}
