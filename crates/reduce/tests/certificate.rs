//! Rule `reduce`: the certificate compositional minimisation writes is accepted, and each of the
//! rule's checks rejects a certificate that breaks it, naming why.

// The certify tests' helpers (the order example, certificates for it): these tests live here
// because guarantor-certify may not dev-depend on compose or a method crate (compose depends on
// certify, and the cycle breaks `cargo package`).
#[path = "../../certify/tests/common/mod.rs"]
mod common;

use common::{assert_accepted, order_file, order_model};
use guarantor_certify::check;
use guarantor_certify::format::{Certificate, Premise, Reduced};
use guarantor_certify::{Model, Rejection};
use guarantor_compose::{Config, Method, Problem};
use guarantor_lts::Lts;
use guarantor_reduce::Reduce;

/// Reduce's certificate of `problem`'s `holds`.
fn certificate_of(problem: &Problem) -> Certificate {
    let report = Reduce::new().check(problem, &Config::default()).unwrap();
    assert!(report.verdict.is_holds());
    Reduce::new()
        .certificate(problem, &report, &Config::default())
        .unwrap()
        .unwrap()
}

fn reason(cert: &Certificate, model: &Model) -> String {
    match check(cert, model).unwrap().rejection() {
        Some(Rejection::Premise { reason, .. } | Rejection::Rule { reason, .. }) => reason.clone(),
        other => panic!("expected a premise or rule rejection, got {other:?}"),
    }
}

/// Two philosophers, two forks, no lock: each may take its left fork, and then both are stuck.
fn classic(deadlock: bool) -> Problem {
    let phil = |i: usize, j: usize| {
        Lts::from_edges([
            (0, format!("p{i}.get{i}"), 1),
            (1, format!("p{i}.get{j}"), 2),
            (2, format!("p{i}.put"), 0),
        ])
        .unwrap()
    };
    let fork = |i: usize, j: usize| {
        Lts::from_edges([
            (0, format!("p{i}.get{i}"), 1),
            (1, format!("p{i}.put"), 0),
            (0, format!("p{j}.get{i}"), 2),
            (2, format!("p{j}.put"), 0),
        ])
        .unwrap()
    };
    Problem::new()
        .with_component("Phil0", phil(0, 1))
        .with_component("Phil1", phil(1, 0))
        .with_component("Fork0", fork(0, 1))
        .with_component("Fork1", fork(1, 0))
        .with_deadlock(deadlock)
}

/// The certificate of rule `reduce` that compositional minimisation writes for the order model
/// (with the deadlock question, so it ends with `no-deadlock`).
fn reduce_cert() -> Certificate {
    let problem = Problem::new()
        .with_component("Input", order_file("Input"))
        .with_component("Output", order_file("Output"))
        .with_property("Order", order_file("Order"))
        .with_deadlock(true);
    certificate_of(&problem)
}

#[test]
fn the_order_models_certificate_is_accepted_and_claims_no_deadlock() {
    let cert = reduce_cert();
    assert!(
        cert.premises
            .iter()
            .any(|p| matches!(p, Premise::NoDeadlock))
    );
    let report = check(&cert, &order_model()).unwrap();
    assert_accepted(&report);
    assert!(report.deadlock_free);
    // Without its `no-deadlock` premise it proves the properties only.
    let mut safety = cert;
    safety
        .premises
        .retain(|p| !matches!(p, Premise::NoDeadlock));
    let report = check(&safety, &order_model()).unwrap();
    assert_accepted(&report);
    assert!(!report.deadlock_free);
}

#[test]
fn deadlock_freedom_that_was_never_proved_is_rejected() {
    let problem = classic(false);
    let cert = certificate_of(&problem).with_premise(Premise::NoDeadlock);
    let why = reason(&cert, &problem.certify_model());
    assert!(
        why.contains("offers or ends") || why.contains("deadlock"),
        "{why}"
    );
}

#[test]
fn a_map_that_loses_the_initial_state_is_rejected() {
    let mut cert = reduce_cert();
    let Some(Premise::Reduction { map, result, .. }) = cert.premises.first_mut() else {
        panic!("a reduction comes first");
    };
    let initial = result.initial;
    map.retain(|entry| entry.last() != Some(&initial));
    assert!(reason(&cert, &order_model()).contains("no image"));
}

#[test]
fn hiding_an_action_the_result_still_shows_is_rejected() {
    let mut cert = reduce_cert();
    let Some(Premise::Reduction { hidden, of, .. }) = cert.premises.first_mut() else {
        panic!("a reduction comes first");
    };
    assert_eq!(*of, Reduced::Component("Input".to_owned()));
    hidden.push("send".to_owned());
    // Caught first by the result's alphabet, which still has the action the part no longer shows.
    assert!(reason(&cert, &order_model()).contains("alphabet"));
}

#[test]
fn a_tree_that_leaves_out_a_part_is_rejected() {
    let mut cert = reduce_cert();
    cert.premises.retain(|p| !matches!(p, Premise::NoDeadlock));
    cert.premises.pop();
    let why = reason(&cert, &order_model());
    assert!(
        why.contains("part of no later") || why.contains("whole system"),
        "{why}"
    );
}

#[test]
fn a_result_that_drops_a_step_is_rejected() {
    let mut cert = reduce_cert();
    let Some(Premise::Reduction { result, .. }) = cert.premises.first_mut() else {
        panic!("a reduction comes first");
    };
    result.transitions.pop();
    assert!(reason(&cert, &order_model()).contains("weak step"));
}
