//! Every public check of this crate called directly, without the facade's input adaptation: a
//! component's `ERROR` state must be found by each rule on its own, and every verdict must be the
//! monolithic checker's, with a counterexample that replays in the user's components.

mod common;

use common::{learners, lts, recheck_chain, rewritten};
use guarantor_compose::{
    Config, Verdict, Violation, check_safety, check_triple, compose,
    replay::{find_violation, replay},
};
use guarantor_lstar::ag::{
    AgConfig, AgReport, check_asym, check_asym_n, check_asym_weakest, check_sym, check_sym_n,
};
use guarantor_lts::ComponentId;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::collection::vec;
use proptest::prelude::*;

/// `0 -a-> ERROR` and a `b` self-loop at 0.
fn fails_on_a() -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.add_transition_named(StateId::must(0), "a", StateId::must(1))
        .unwrap();
    b.add_transition_named(StateId::must(0), "b", StateId::must(0))
        .unwrap();
    b.set_error(StateId::must(1)).unwrap();
    b.build().unwrap()
}

/// Issue 14, item 1: rule SYM reasons about the property's language only, so a component's own
/// `ERROR`, reached on an action the property does not mention, went unseen (`Holds`).
#[test]
fn sym_n_reports_a_component_reaching_its_error_state() {
    let m1 = fails_on_a();
    let m2 = lts(&[(0, "a", 0), (0, "b", 0)]);
    let p = lts(&[(0, "b", 0)]);
    let parts = [&m1, &m2];
    let mono = check_safety(&parts, &[&p], &Config::default()).unwrap();
    assert!(mono.verdict.is_violated(), "the oracle says violated");
    let report = check_sym_n(&parts, &p, &AgConfig::default()).unwrap();
    let Verdict::Violated(cex) = &report.verdict else {
        panic!("check_sym_n says {:?}", report.verdict)
    };
    assert_eq!(cex.trace, ["a"]);
    assert_eq!(
        cex.violation,
        Violation::ErrorState {
            component: ComponentId::must(0)
        }
    );
    replay(&parts, &cex.trace).unwrap();
    assert_eq!(
        find_violation(&parts, &[&p], &cex.trace).unwrap(),
        Some(Violation::ErrorState {
            component: ComponentId::must(0)
        })
    );
}

/// Issue 14, item 1, for the ASYM rules: `M2`'s `ERROR` is reachable in `M2` alone (on `x`) but
/// not in the system (`M1` never does `x`). They used to search the composition for it and then
/// make assumptions about `M2` without its `ERROR` transitions, so their certificates were about a
/// component the caller did not write. Now their certificate is the empty one of the monolithic
/// check they do instead, and rule SYM's holds for the `ErrorActions` rewrite it checked (and
/// needs it: the caller's `M2` fails under its assumption).
#[test]
fn certificates_say_what_was_checked_when_an_environment_has_an_error_state() {
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    b.add_transition_named(StateId::must(0), "a", StateId::must(0))
        .unwrap();
    b.action("x").unwrap(); // declared, never done: M1 blocks `x`
    let m1 = b.build().unwrap();
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.add_transition_named(StateId::must(0), "a", StateId::must(0))
        .unwrap();
    b.add_transition_named(StateId::must(0), "x", StateId::must(1))
        .unwrap();
    b.set_error(StateId::must(1)).unwrap();
    let m2 = b.build().unwrap();
    let p = lts(&[(0, "a", 0)]);
    let parts = [&m1, &m2];
    for (config, (name, check)) in learners().iter().flat_map(|c| ENTRY_POINTS.map(|e| (c, e))) {
        let report = check(&parts, &p, config).unwrap();
        let Verdict::Holds(cert) = &report.verdict else {
            panic!("{name} says {:?}", report.verdict)
        };
        if name.starts_with("check_asym") {
            assert!(cert.assumptions.is_empty(), "{name}: {cert:?}");
        } else {
            assert_eq!(cert.assumptions.len(), 2, "{name}");
            recheck(name, &parts, &p, &report).unwrap();
            let a2 = &cert.assumptions[1].lts;
            let caller = check_triple(a2, &m2, &p, &Config::default()).unwrap();
            assert!(caller.verdict.is_violated(), "{name}: {a2:?}");
        }
    }
}

/// Re-checks a certificate premise by premise on what the rule checked: rule SYM's `<Ai> Mi <P>`
/// for every component, on the components and property with their `ERROR` states rewritten (its
/// last premise is left to tests/sym.rs, which enumerates words); the ASYM rules' chain of
/// assumptions on the caller's components. With one component or an `ERROR` state after the
/// first, the ASYM rules check monolithically, and their certificate is empty (the verdict was
/// compared with the monolithic one already).
fn recheck(name: &str, given: &[&Lts], p: &Lts, report: &AgReport) -> Result<(), TestCaseError> {
    let Verdict::Holds(cert) = &report.verdict else {
        return Ok(());
    };
    if name.starts_with("check_sym") {
        prop_assert_eq!(cert.assumptions.len(), given.len());
        let (parts, guarded) = rewritten(given, p);
        for (a, m) in cert.assumptions.iter().zip(&parts) {
            let premise = check_triple(&a.lts, m, &guarded, &Config::default()).unwrap();
            prop_assert!(premise.verdict.is_holds(), "{}: <A> M <P> fails", name);
        }
        return Ok(());
    }
    let monolithic = given.len() < 2 || given[1..].iter().any(|m| m.error_state().is_some());
    if monolithic {
        prop_assert!(cert.assumptions.is_empty(), "{}: {:?}", name, cert);
        Ok(())
    } else {
        recheck_chain(given, p, cert)
    }
}

/// `lts` with its `ERROR` state made an ordinary (dead) state.
fn unmarked(lts: &Lts) -> Lts {
    let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
    b.ensure_states(lts.num_states()).unwrap();
    b.set_initial(lts.initial()).unwrap();
    for t in lts.transitions() {
        b.add_transition(t.source, t.action, t.target).unwrap();
    }
    b.build().unwrap()
}

/// Whether `trace` drives `parts || p_err` to `violation` itself: only the named `ERROR` (or only
/// the property) can fail. Two violations reached by one trace may be named either way, so
/// comparing with [`find_violation`]'s choice would be too strict.
fn reaches(parts: &[&Lts], p: &Lts, trace: &[String], violation: Violation) -> bool {
    let keep = |i: usize| {
        violation
            == Violation::ErrorState {
                component: ComponentId::must(i),
            }
    };
    let only: Vec<Lts> = parts
        .iter()
        .enumerate()
        .map(|(i, m)| if keep(i) { (*m).clone() } else { unmarked(m) })
        .collect();
    let only: Vec<&Lts> = only.iter().collect();
    let properties: &[&Lts] = match violation {
        Violation::Property { property } if property.index() == 0 => &[p],
        _ => &[],
    };
    find_violation(&only, properties, trace).unwrap() == Some(violation)
}

/// A public check of the crate, called on the components it is given, one property and the
/// configuration (each test runs every entry point with each learner of [`learners`]).
type Check = fn(&[&Lts], &Lts, &AgConfig) -> Result<AgReport, guarantor_lstar::LstarError>;

/// Every public check of the crate, by name: the n-way rules and the two-component ones, which
/// get a system of two (the caller groups more components, as a user would).
const ENTRY_POINTS: [(&str, Check); 5] = [
    ("check_asym_n", |parts, p, c| check_asym_n(parts, p, c)),
    ("check_asym_weakest", |parts, p, c| {
        check_asym_weakest(parts, p, c)
    }),
    ("check_sym_n", |parts, p, c| check_sym_n(parts, p, c)),
    ("check_asym", |parts, p, c| {
        check_asym(parts[0], parts[1], p, c)
    }),
    ("check_sym", |parts, p, c| {
        check_sym(parts[0], parts[1], p, c)
    }),
];

/// The system as the two-component rules get it: the first component and the composition of the
/// rest (error tuples collapse into one `ERROR`, as LTSA composes), or `None` for one component.
fn two_groups(parts: &[&Lts]) -> Option<[Lts; 2]> {
    match parts {
        [] | [_] => None,
        [m1, m2] => Some([(*m1).clone(), (*m2).clone()]),
        [m1, rest @ ..] => Some([(*m1).clone(), compose(rest, &Config::default()).unwrap()]),
    }
}

/// The properties as the one property the rules take: their product (violated exactly when one of
/// them is), or a property that nothing violates when there are none.
fn one_property(properties: &[Lts]) -> Lts {
    match properties {
        [] => {
            let mut b = LtsBuilder::new();
            b.add_state().unwrap();
            b.build().unwrap()
        }
        [one] => one.clone(),
        many => {
            let refs: Vec<&Lts> = many.iter().collect();
            compose(&refs, &Config::default()).unwrap()
        }
    }
}

/// Components over a pool that the properties share except for `z`, which no component has (a
/// property may refuse it, and then nothing can stop it from being violated).
fn system() -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        3,
        LtsStrategyConfig::new(3, &["a", "b", "c", "d"]).with_error_state(true),
    )
}

/// Zero to two properties, some written LTSA's way with an explicit `ERROR` state (a random
/// non-initial state, made a sink) that their violations enter.
fn properties() -> impl Strategy<Value = Vec<Lts>> {
    let property = (
        arb_deterministic_property(3, &["a", "b", "z"]),
        proptest::option::of(1..3usize),
    )
        .prop_map(|(p, error)| match error {
            Some(e) if e < p.num_states() => with_error_state(&p, StateId::must(e)),
            _ => p,
        });
    vec(property, 0..=2)
}

/// `p` with `e` as its `ERROR` state (its outgoing transitions dropped).
fn with_error_state(p: &Lts, e: StateId) -> Lts {
    let mut b = LtsBuilder::with_alphabet(p.alphabet().clone());
    b.ensure_states(p.num_states()).unwrap();
    for t in p.transitions().filter(|t| t.source != e) {
        b.add_transition(t.source, t.action, t.target).unwrap();
    }
    b.set_error(e).unwrap();
    b.build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every entry point, called directly, gives the monolithic verdict on random systems with
    /// `ERROR` states, tau, zero to two properties and an action only a property has; a
    /// counterexample replays in the user's components and ends in the violation it names; a
    /// certificate's premises hold for the components as the rules rewrote them.
    #[test]
    fn every_entry_point_agrees_with_the_monolithic_check(sys in system(), ps in properties()) {
        let parts: Vec<&Lts> = sys.iter().collect();
        let prefs: Vec<&Lts> = ps.iter().collect();
        let p = one_property(&ps);
        let mono = check_safety(&parts, &prefs, &Config::default()).unwrap();
        let grouped = two_groups(&parts);
        for (config, (name, check)) in learners().iter().flat_map(|c| ENTRY_POINTS.map(|e| (c, e))) {
            // The components this entry point is given, by which it names its violations.
            let given: Vec<&Lts> = if name.ends_with("_n") || name.ends_with("_weakest") {
                parts.clone()
            } else if let Some(two) = &grouped {
                two.iter().collect()
            } else {
                continue;
            };
            let report = check(&given, &p, config).unwrap();
            prop_assert_eq!(
                report.verdict.is_holds(),
                mono.verdict.is_holds(),
                "{} says {:?}, the monolithic check {:?}",
                name,
                report.verdict,
                mono.verdict
            );
            if let Verdict::Violated(cex) = &report.verdict {
                prop_assert!(
                    replay(&parts, &cex.trace).is_ok(),
                    "{}: {:?} does not replay",
                    name,
                    cex.trace
                );
                prop_assert!(
                    reaches(&given, &p, &cex.trace, cex.violation),
                    "{}: {:?} does not reach {:?}",
                    name,
                    cex.trace,
                    cex.violation
                );
                prop_assert!(find_violation(&parts, &prefs, &cex.trace).unwrap().is_some());
            }
            recheck(name, &given, &p, &report)?;
        }
    }
}

/// No components is bad input for every n-way entry point, not a verdict.
#[test]
fn an_empty_system_is_unsupported_everywhere() {
    let p = lts(&[(0, "a", 0)]);
    let n_way = ENTRY_POINTS
        .iter()
        .filter(|(name, _)| !matches!(*name, "check_asym" | "check_sym"));
    for (name, check) in n_way {
        let err = check(&[], &p, &AgConfig::default()).unwrap_err();
        assert!(
            matches!(err, guarantor_lstar::LstarError::Unsupported(_)),
            "{name}: {err:?}"
        );
    }
}
