//! The deadlock rule's premises (`deadlock-free`, `failure-refinement`): accepted for a failure
//! assumption that proves deadlock freedom, and each mutation of the assumption, the premises or
//! the rule's shape rejected by the check that should catch it.

mod common;

use common::*;
use guarantor_certify::format::{Certificate, Premise, Role, Rule, VerdictKind};
use guarantor_certify::{Model, Rejection, check};
use guarantor_lts::StateId;

const END: &str = "@end";

/// Client = (ask -> reply -> Client); Server = (ask -> work -> reply -> Server).
fn model() -> Model {
    Model::new()
        .component(
            "Client",
            lts(2, &[(0, "ask", 1), (1, "reply", 0)], &[], None),
        )
        .component(
            "Server",
            lts(
                3,
                &[(0, "ask", 1), (1, "work", 2), (2, "reply", 0)],
                &[],
                None,
            ),
        )
}

/// The server's failures on {ask, reply}: `work` as a tau step.
const SERVER: &[(u64, &str, u64)] = &[(0, "ask", 1), (1, "tau", 2), (2, "reply", 0)];

/// A `mono` certificate for safety (nothing to check) with the deadlock rule over `edges`.
fn cert(model: &Model, alphabet: &[&str], states: u64, edges: &[(u64, &str, u64)]) -> Certificate {
    blank(model, VerdictKind::Holds, Rule::Mono)
        .with_premise(Premise::Monolithic)
        .with_assumption(assumption(
            &["Server"],
            Role::Failures,
            alphabet,
            states,
            edges,
        ))
        .with_premise(Premise::DeadlockFree {
            assumption: 0,
            components: names(&["Client"]),
            end_action: END.to_owned(),
        })
        .with_premise(Premise::FailureRefinement {
            assumption: 0,
            components: names(&["Server"]),
            end_action: END.to_owned(),
        })
}

fn failed_premise(report: &guarantor_certify::Report) -> (&str, Option<&Vec<String>>) {
    match rejection(report) {
        Rejection::Premise { kind, trace, .. } => (kind.as_str(), trace.as_ref()),
        r => panic!("expected a premise to fail: {r:?}"),
    }
}

#[test]
fn a_failure_assumption_proves_deadlock_freedom() {
    let report = check(&cert(&model(), &["ask", "reply"], 3, SERVER), &model()).unwrap();
    assert_accepted(&report);
    assert!(report.deadlock_free);
    assert_eq!(report.premises_checked, 3);
    // Without the deadlock premises the same verdict proves safety only.
    let safety = blank(&model(), VerdictKind::Holds, Rule::Mono).with_premise(Premise::Monolithic);
    let report = check(&safety, &model()).unwrap();
    assert_accepted(&report);
    assert!(!report.deadlock_free);
}

#[test]
fn dropping_any_transition_of_the_assumption_breaks_a_premise() {
    for drop in 0..SERVER.len() {
        let edges: Vec<_> = SERVER
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != drop)
            .map(|(_, e)| *e)
            .collect();
        let report = check(&cert(&model(), &["ask", "reply"], 3, &edges), &model()).unwrap();
        let (kind, _) = failed_premise(&report);
        assert!(
            kind == "deadlock-free" || kind == "failure-refinement",
            "{drop}: {kind}"
        );
    }
}

#[test]
fn an_assumption_that_refuses_too_much_fails_premise_one_with_its_trace() {
    // After `ask` the assumption may also stop offering anything.
    let mut stuck = SERVER.to_vec();
    stuck.push((1, "tau", 3));
    let report = check(&cert(&model(), &["ask", "reply"], 4, &stuck), &model()).unwrap();
    let (kind, trace) = failed_premise(&report);
    assert_eq!(kind, "deadlock-free");
    assert_eq!(trace.unwrap(), &["ask"]);
}

#[test]
fn an_assumption_that_offers_more_than_the_group_fails_premise_two() {
    // A stable state after `ask` offering `ask` too: the server refuses `ask` there.
    let more = [(0, "ask", 1), (1, "tau", 2), (2, "reply", 0), (2, "ask", 2)];
    let report = check(&cert(&model(), &["ask", "reply"], 3, &more), &model()).unwrap();
    let (kind, trace) = failed_premise(&report);
    assert_eq!(kind, "failure-refinement");
    assert_eq!(trace.unwrap(), &["ask", "work"]);
}

#[test]
fn a_real_deadlock_leaves_no_assumption_that_passes_both_premises() {
    // A server that stops after one reply: its own failures (the best assumption) fail premise 1.
    let model = Model::new()
        .component(
            "Client",
            lts(2, &[(0, "ask", 1), (1, "reply", 0)], &[], None),
        )
        .component(
            "Server",
            lts(
                4,
                &[(0, "ask", 1), (1, "work", 2), (2, "reply", 3)],
                &[],
                None,
            ),
        );
    let own = [(0, "ask", 1), (1, "tau", 2), (2, "reply", 3)];
    let report = check(&cert(&model, &["ask", "reply"], 4, &own), &model).unwrap();
    let (kind, trace) = failed_premise(&report);
    assert_eq!(kind, "deadlock-free");
    assert_eq!(trace.unwrap(), &["ask", "reply"]);
}

#[test]
fn the_rule_needs_its_shape_and_the_interface_alphabet() {
    let model = model();
    let good = cert(&model, &["ask", "reply"], 3, SERVER);
    let rule_error = |c: &Certificate| {
        let report = check(c, &model).unwrap();
        matches!(
            rejection(&report),
            Rejection::Rule { .. } | Rejection::Alphabet { .. }
        )
    };
    // A smaller alphabet: the client's `reply` would no longer wait for the server.
    let small = cert(&model, &["ask"], 2, &[(0, "ask", 1), (1, "tau", 0)]);
    assert!(rule_error(&small));
    // A larger one (an action the client does not have): here premise 2 already fails, since
    // the server's `work` becomes visible.
    let large = cert(&model, &["ask", "reply", "work"], 3, SERVER);
    assert!(!check(&large, &model).unwrap().is_accepted());
    // One premise missing.
    let mut one = good.clone();
    one.premises.pop();
    assert!(rule_error(&one));
    // Components that do not split the system.
    let mut both = good.clone();
    both.premises[1] = Premise::DeadlockFree {
        assumption: 0,
        components: names(&["Client", "Server"]),
        end_action: END.to_owned(),
    };
    assert!(rule_error(&both));
    // The assumption standing for the wrong group.
    let mut wrong = good.clone();
    wrong.assumptions[0].components = names(&["Client"]);
    assert!(rule_error(&wrong));
    // An end action that is an action of the model.
    let mut taken = good;
    for p in &mut taken.premises {
        if let Premise::DeadlockFree { end_action, .. }
        | Premise::FailureRefinement { end_action, .. } = p
        {
            *end_action = "ask".to_owned();
        }
    }
    let report = check(&taken, &model).unwrap();
    assert!(!report.is_accepted());
}

#[test]
fn termination_is_not_a_deadlock_but_stopping_short_of_it_is() {
    // Client = (ask -> END); Server = (ask -> END): both end after `ask`.
    let model = Model::new()
        .component_with_end(
            "Client",
            lts(2, &[(0, "ask", 1)], &[], None),
            StateId::must(1),
        )
        .component_with_end(
            "Server",
            lts(2, &[(0, "ask", 1)], &[], None),
            StateId::must(1),
        );
    let ends = [(0, "ask", 1), (1, END, 1)];
    let report = check(&cert(&model, &["ask", END], 2, &ends), &model).unwrap();
    assert_accepted(&report);
    assert!(report.deadlock_free);
    // An assumption that claims the server stops without terminating.
    let stops = [(0, "ask", 1)];
    let report = check(&cert(&model, &["ask", END], 2, &stops), &model).unwrap();
    let (kind, trace) = failed_premise(&report);
    assert_eq!(kind, "deadlock-free");
    assert_eq!(trace.unwrap(), &["ask"]);
}
