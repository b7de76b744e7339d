//! Differential property tests: on random systems of 1 to 5 small components (tau moves,
//! `ERROR` states, end states, zero to two properties, with and without the deadlock question),
//! compositional minimisation gives the monolithic check's verdict, and its counterexamples
//! replay in every component.

use guarantor_certify::Certificate;
use guarantor_certify::format::{Premise, Reduced};
use guarantor_compose::replay::replay;
use guarantor_compose::strategy::arb_problem;
use guarantor_compose::{Config, Method, Monolithic, Problem};
use guarantor_lts::Lts;
use guarantor_reduce::{Equivalence, Reduce};
use proptest::prelude::*;

const POOL: [&str; 5] = ["a", "b", "c", "d", "e"];

fn refs(problem: &Problem) -> Vec<&Lts> {
    problem.component_lts()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn reduce_agrees_with_the_monolithic_check(problem in arb_problem(&POOL, &["a", "b", "c"])) {
        let config = Config::default();
        let mono = Monolithic::new().check(&problem, &config).unwrap();
        // Branching bisimulation as usual, and strong bisimulation only.
        for method in [Reduce::new(), Reduce::new().with_equivalence(Equivalence::Strong)] {
            check_one(&problem, method, &mono)?;
        }
    }
}

fn check_one(
    problem: &Problem,
    method: Reduce,
    mono: &guarantor_compose::MethodReport,
) -> Result<(), TestCaseError> {
    {
        let ours = method.check(problem, &Config::default()).unwrap();
        prop_assert_eq!(
            ours.verdict.is_holds(),
            mono.verdict.is_holds(),
            "{:?}",
            problem
        );
        if ours.verdict.is_holds() {
            certificate_is_accepted(problem, method, &ours)?;
        }
        if let Some(cex) = ours.verdict.counterexample() {
            prop_assert_eq!(Some(cex), mono.verdict.counterexample());
            // The trace runs in the components (a property's violating last step is its own).
            prop_assert!(
                replay(&refs(problem), &cex.trace).is_ok(),
                "{:?} does not replay",
                cex.trace
            );
        }
    }
    Ok(())
}

/// A `holds` comes with a certificate of rule `reduce` that the independent checker accepts; a
/// certificate whose first step maps the initial state elsewhere, or hides an action of a part
/// outside its own, is rejected.
fn certificate_is_accepted(
    problem: &Problem,
    method: Reduce,
    report: &guarantor_compose::MethodReport,
) -> Result<(), TestCaseError> {
    let config = Config::default();
    let certificate = method
        .certificate(problem, report, &config)
        .unwrap()
        .unwrap();
    let model = problem.certify_model();
    let verdict = guarantor_certify::check(&certificate, &model).unwrap();
    prop_assert!(
        verdict.is_accepted(),
        "{:?}\n{:?}",
        verdict.rejection(),
        problem
    );
    for mutant in mutants(&certificate, problem) {
        let verdict = guarantor_certify::check(&mutant, &model).unwrap();
        prop_assert!(
            !verdict.is_accepted(),
            "a mutant was accepted: {:?}",
            problem
        );
    }
    Ok(())
}

/// Mutants of a valid certificate that no checker may accept.
fn mutants(certificate: &Certificate, problem: &Problem) -> Vec<Certificate> {
    let mut out = Vec::new();
    for (i, p) in certificate.premises.iter().enumerate() {
        let Premise::Reduction {
            result,
            map,
            of,
            hidden,
            ..
        } = p
        else {
            continue;
        };
        // The initial state's image moved (when there is somewhere else to go).
        if result.states > 1 {
            let mut m = certificate.clone();
            if let Premise::Reduction { map, result, .. } = &mut m.premises[i] {
                let initial = result.initial;
                for entry in map.iter_mut() {
                    let image = entry.last_mut().unwrap();
                    if *image == initial {
                        *image = (initial + 1) % result.states;
                    }
                }
            }
            out.push(m);
        }
        // A leaf hides an action of another component.
        if let Reduced::Component(name) = of {
            let foreign = problem
                .components()
                .filter(|(_, n, _)| n != name)
                .flat_map(|(_, _, lts)| {
                    lts.alphabet()
                        .iter()
                        .filter(|(a, _)| !a.is_tau())
                        .map(|(_, n)| n.to_owned())
                        .collect::<Vec<_>>()
                })
                .find(|a| !hidden.contains(a));
            if let Some(a) = foreign {
                let mut m = certificate.clone();
                if let Premise::Reduction { hidden, .. } = &mut m.premises[i] {
                    hidden.push(a);
                }
                out.push(m);
            }
        }
        let _ = map;
    }
    out
}

proptest! {
    // Most random systems either violate safety or have no deadlock: allow many rejects.
    #![proptest_config(ProptestConfig { cases: 120, max_global_rejects: 8192, ..ProptestConfig::default() })]

    /// A certificate of the safety question alone, given a `no-deadlock` premise it never proved,
    /// is rejected whenever the system has a deadlock.
    #[test]
    fn a_deadlock_freedom_never_proved_is_rejected(problem in arb_problem(&POOL, &["a", "b", "c"])) {
        let safety = problem.clone().with_deadlock(false);
        let config = Config::default();
        let report = Reduce::new().check(&safety, &config).unwrap();
        let deadlocks = Monolithic::new().check(&problem.clone().with_deadlock(true), &config).unwrap();
        prop_assume!(report.verdict.is_holds() && deadlocks.verdict.is_violated());
        let mut certificate = Reduce::new().certificate(&safety, &report, &config).unwrap().unwrap();
        certificate = certificate.with_premise(Premise::NoDeadlock);
        let verdict = guarantor_certify::check(&certificate, &problem.certify_model()).unwrap();
        prop_assert!(!verdict.is_accepted(), "{:?}", problem);
    }
}

/// Priority is refused with a typed error, never answered.
#[test]
fn priority_is_refused() {
    let lts = Lts::from_edges([(0, "a", 0)]).unwrap();
    let problem = Problem::new()
        .with_component("P", lts)
        .with_priority(Some(guarantor_compose::Priority::high(["a"])));
    let err = Reduce::new()
        .check(&problem, &Config::default())
        .unwrap_err();
    assert!(
        matches!(err, guarantor_compose::MethodError::Unsupported { .. }),
        "{err}"
    );
}

/// A budget stops the construction with a budget error.
#[test]
fn a_state_budget_stops_the_construction() {
    // Both actions are shared, so nothing is hidden before the pair meets: a 2-state product.
    let p = Lts::from_edges([(0, "a", 1), (1, "b", 0)]).unwrap();
    let q = Lts::from_edges([(0, "a", 0), (0, "b", 0)]).unwrap();
    let problem = Problem::new()
        .with_component("P", p)
        .with_component("Q", q)
        .with_deadlock(true);
    let err = Reduce::new()
        .check(&problem, &Config::default().with_max_states(1))
        .unwrap_err();
    assert!(err.is_budget(), "{err}");
}

/// Random progress tests over the pool: unconditional and conditional, or none (the default
/// property, every action).
fn arb_tests() -> impl Strategy<Value = Vec<guarantor_compose::progress::ProgressTest>> {
    use guarantor_compose::progress::ProgressTest;
    let names = || prop::sample::subsequence(POOL.to_vec(), 1..3);
    let test = (names(), prop::option::of(names())).prop_map(|(actions, condition)| {
        let test = ProgressTest::new("T", actions);
        match condition {
            Some(c) => test.with_condition(c),
            None => test,
        }
    });
    prop::collection::vec(test, 0..3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// LTSA's progress question: the same verdict (holds, violated, unsafe) as the monolithic
    /// progress check, with the monolithic check's evidence for a violation.
    #[test]
    fn reduce_answers_progress_as_the_monolithic_check(
        problem in arb_problem(&POOL, &["a", "b", "c"]),
        tests in arb_tests(),
        internal in prop::sample::subsequence(POOL.to_vec(), 0..2),
    ) {
        use guarantor_compose::progress::ProgressVerdict;
        let internal: Vec<String> = internal.into_iter().map(str::to_owned).collect();
        let options = problem.progress_options(tests, internal);
        let config = Config::default();
        let mono = Monolithic::new().check_progress(&problem, &options, &config).unwrap();
        // A batch bound of one state splits every batch down to single tests.
        let methods = [
            Reduce::new(),
            Reduce::new().with_equivalence(Equivalence::Strong),
            Reduce::new().with_max_batch_states(1),
        ];
        for method in methods {
            let ours = method.check_progress(&problem, &options, &config).unwrap();
            let kind = |v: &ProgressVerdict| match v {
                ProgressVerdict::Holds => 0,
                ProgressVerdict::Violated(_) => 1,
                _ => 2,
            };
            prop_assert_eq!(kind(&ours.verdict), kind(&mono.verdict), "{:?}", ours.verdict);
            if !ours.verdict.is_holds() {
                prop_assert_eq!(&ours.verdict, &mono.verdict);
            }
        }
    }
}

/// Two users and an optional hub over indexed names: the second user is either the first with
/// its index renamed (a symmetric system when the hub is absent or itself symmetric) or a
/// random process of its own (usually not symmetric, sometimes bisimilar by chance).
fn arb_indexed_system() -> impl Strategy<Value = Problem> {
    use guarantor_lts::ops::relabel;
    use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
    let user = |i: &'static [&'static str]| arb_lts_with(LtsStrategyConfig::new(3, i));
    let hub = arb_lts_with(LtsStrategyConfig::new(3, &["u.0.a", "u.1.a", "s"]));
    (
        user(&["u.0.a", "u.0.b", "s"]),
        prop::option::of(user(&["u.1.a", "u.1.b", "s"])),
        prop::option::of(hub),
        any::<bool>(),
    )
        .prop_map(|(first, other, hub, symmetric_hub)| {
            let swap = [
                ("u.0.a", "u.1.a"),
                ("u.1.a", "u.0.a"),
                ("u.0.b", "u.1.b"),
                ("u.1.b", "u.0.b"),
            ];
            let second = other.unwrap_or_else(|| relabel(&first, &swap).unwrap());
            let mut problem = Problem::new()
                .with_component("U0", first)
                .with_component("U1", second);
            if let Some(hub) = hub {
                // A symmetric hub: the hub beside its own renaming.
                if symmetric_hub {
                    let mirror = relabel(&hub, &swap).unwrap();
                    problem = problem.with_component("H1", mirror);
                }
                problem = problem.with_component("H0", hub);
            }
            problem
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The default progress property with the tests of one user standing for the other's when
    /// renaming the users' index maps the system onto itself: the monolithic check's verdict
    /// either way (a symmetry taken for one that is not would skip a failing test).
    #[test]
    fn symmetric_tests_are_asked_once(problem in arb_indexed_system()) {
        let options = problem.progress_options(Vec::new(), Vec::new());
        let config = Config::default();
        let mono = Monolithic::new().check_progress(&problem, &options, &config).unwrap();
        for method in [Reduce::new(), Reduce::new().with_max_batch_states(1)] {
            let ours = method.check_progress(&problem, &options, &config).unwrap();
            prop_assert_eq!(ours.verdict.is_holds(), mono.verdict.is_holds(), "{:?}", ours.verdict);
        }
    }
}
