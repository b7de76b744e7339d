//! Mutation tests: a valid certificate with one thing changed is rejected by the check that owns
//! that thing.

mod common;

use common::*;
use guarantor_certify::format::{Counterexample, Rule, Step, VerdictKind, ViolationClaim};
use guarantor_certify::{Rejection, check, check_json};

#[test]
fn dropping_any_transition_of_the_assumption_breaks_a_premise() {
    let model = order_model();
    let cert = asym_cert();
    for i in 0..cert.assumptions[0].lts.transitions.len() {
        let mut m = cert.clone();
        m.assumptions[0].lts.transitions.remove(i);
        let report = check(&m, &model).unwrap();
        // Output does send, output, ack in a cycle: A no longer allows one of them.
        assert!(
            matches!(
                rejection(&report),
                Rejection::Premise {
                    index: 1,
                    trace: Some(_),
                    ..
                }
            ),
            "transition {i}: {report:?}"
        );
    }
}

#[test]
fn renaming_an_action_is_caught() {
    let model = order_model();
    // In the transitions only: the alphabet no longer declares it.
    let mut m = asym_cert();
    m.assumptions[0].lts.transitions[2].1 = "ACK".into();
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Alphabet { assumption: 0, .. }
    ));
    // Everywhere: A no longer synchronises with Input's `ack`, so after input, send, ack A still
    // waits for `output` while Input inputs again: `<A> Input <Order>` fails with that run.
    let mut m = asym_cert();
    m.assumptions[0].lts.transitions[2].1 = "ACK".into();
    m.assumptions[0].alphabet[2] = "ACK".into();
    match rejection(&check(&m, &model).unwrap()) {
        Rejection::Premise {
            index: 0,
            trace: Some(t),
            ..
        } => assert_eq!(t, &["input", "send", "ack", "input"]),
        r => panic!("{r:?}"),
    }
    // A component renamed in a premise.
    let mut m = asym_cert();
    m.premises[0] = triple(&[0], &["Inptu"], props(&["Order"]));
    match rejection(&check(&m, &model).unwrap()) {
        Rejection::Premise {
            index: 0,
            reason,
            trace: None,
            ..
        } => {
            assert!(reason.contains("Inptu"), "{reason}");
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn changing_a_fingerprint_or_the_model_is_refused_before_any_premise() {
    let model = order_model();
    let mut m = asym_cert();
    m.model.components[1].fingerprint = "0000000000000000".into();
    let report = check(&m, &model).unwrap();
    assert_eq!(report.premises_checked, 0);
    assert!(matches!(
        rejection(&report),
        Rejection::Fingerprint { name, .. } if name == "Output"
    ));
    let mut m = asym_cert();
    m.fingerprint = "0000000000000000".into();
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Fingerprint { name, .. } if name == "<model>"
    ));
    // The certificate of Input || Output checked against Input || OutputBad.
    let report = check(&asym_cert(), &bad_order_model()).unwrap();
    assert!(matches!(
        rejection(&report),
        Rejection::Fingerprint { name, .. } if name == "Output"
    ));
    // A model with one more component.
    let bigger = order_model().component("Extra", lts(1, &[], &[], None));
    assert!(matches!(
        rejection(&check(&asym_cert(), &bigger).unwrap()),
        Rejection::Model { .. }
    ));
    // A component renamed in the certificate.
    let mut m = asym_cert();
    m.model.components[0].name = "In".into();
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Model { .. }
    ));
}

fn violated() -> guarantor_certify::Certificate {
    // Input || OutputBad: output (Order violated at once); the longer run input, output... is
    // not needed: one step suffices.
    blank(&bad_order_model(), VerdictKind::Violated, Rule::Mono).with_counterexample(
        Counterexample::new(
            vec![Step::new("output", vec![0, 1])],
            ViolationClaim::Property {
                property: "Order".into(),
            },
        ),
    )
}

#[test]
fn cutting_or_bending_a_counterexample_is_caught_by_the_replay() {
    let model = bad_order_model();
    assert_accepted(&check(&violated(), &model).unwrap());
    // Cut: no steps, nothing violated.
    let mut m = violated();
    m.counterexample.as_mut().unwrap().steps.clear();
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Replay { step: 0, .. }
    ));
    // A wrong state after the step.
    let mut m = violated();
    m.counterexample.as_mut().unwrap().steps[0].states = vec![0, 2];
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Replay { step: 0, .. }
    ));
    // A component that moves without the action.
    let mut m = violated();
    m.counterexample.as_mut().unwrap().steps[0].states = vec![1, 1];
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Replay { step: 0, .. }
    ));
    // A step after the violation.
    let mut m = violated();
    m.counterexample
        .as_mut()
        .unwrap()
        .steps
        .push(Step::new("send", vec![0, 2]));
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Replay { step: 1, .. }
    ));
    // Too few states, a huge state.
    for states in [vec![0], vec![0, u64::MAX]] {
        let mut m = violated();
        m.counterexample.as_mut().unwrap().steps[0].states = states;
        assert!(matches!(
            rejection(&check(&m, &model).unwrap()),
            Rejection::Replay { step: 0, .. }
        ));
    }
    // Claimed as holds with a counterexample, or violated without one.
    let mut m = violated();
    m.verdict = VerdictKind::Holds;
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Rule { .. }
    ));
    let mut m = violated();
    m.counterexample = None;
    assert!(matches!(
        rejection(&check(&m, &model).unwrap()),
        Rejection::Replay { .. }
    ));
}

/// A change to a certificate.
type Mutation = Box<dyn Fn(&mut guarantor_certify::Certificate)>;

#[test]
fn malformed_assumptions_and_indices_are_rejections_not_panics() {
    let model = order_model();
    let cases: Vec<Mutation> = vec![
        Box::new(|c| {
            c.assumptions[0].lts.states = 0;
        }),
        Box::new(|c| {
            c.assumptions[0].lts.states = u64::MAX;
        }),
        Box::new(|c| {
            c.assumptions[0].lts.initial = 3;
        }),
        Box::new(|c| {
            c.assumptions[0].lts.transitions[0].2 = 99;
        }),
        Box::new(|c| {
            c.assumptions[0].alphabet.push("send".into());
        }),
        Box::new(|c| {
            c.assumptions[0].alphabet.push("tau".into());
        }),
        Box::new(|c| {
            c.assumptions[0].components = names(&["Nobody"]);
        }),
        Box::new(|c| {
            c.premises[0] = triple(&[7], &["Input"], props(&["Order"]));
        }),
        Box::new(|c| {
            c.premises[1] = triple(
                &[],
                &["Output"],
                guarantor_certify::format::Guarantee::Assumption(9),
            );
        }),
        Box::new(|c| {
            c.premises[0] = triple(&[0], &["Input"], props(&["Nope"]));
        }),
    ];
    for (i, mutate) in cases.iter().enumerate() {
        let mut m = asym_cert();
        mutate(&mut m);
        let report = check(&m, &model).unwrap();
        assert!(!report.is_accepted(), "case {i}");
    }
}

#[test]
fn json_round_trip_and_malformed_json() {
    let model = order_model();
    let json = asym_cert().to_json().unwrap();
    assert!(json.contains(r#""format": "guarantor-certificate""#));
    assert!(json.contains(r#""kind": "triple""#));
    assert_accepted(&check_json(&json, &model).unwrap());
    for bad in [
        "",
        "{}",
        "[]",
        &json.replace(r#""rule": "asym""#, r#""rule": "magic""#),
        &json.replace(r#""kind": "triple""#, r#""kind": "lemma""#),
        &json.replace(r#""version": 1,"#, r#""version": 1, "extra": 0,"#),
    ] {
        assert!(check_json(bad, &model).is_err(), "{bad}");
    }
}
