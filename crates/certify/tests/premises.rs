//! Every premise kind and every rule, accepted when it holds and rejected, by the expected check,
//! when it does not.

mod common;

use common::*;
use guarantor_certify::format::{
    Counterexample, Guarantee, Premise, Role, Rule, Step, Transformation, VerdictKind,
    ViolationClaim,
};
use guarantor_certify::{CertifyError, Model, Rejection, check};
use guarantor_lts::StateId;

#[test]
fn mono_accepts_a_holding_model_and_rejects_a_violated_one_with_its_trace() {
    let model = order_model();
    let cert = blank(&model, VerdictKind::Holds, Rule::Mono).with_premise(Premise::Monolithic);
    let report = check(&cert, &model).unwrap();
    assert_accepted(&report);
    assert_eq!(report.premises_checked, 1);
    assert!(report.states > 0);

    let bad = bad_order_model();
    let cert = blank(&bad, VerdictKind::Holds, Rule::Mono).with_premise(Premise::Monolithic);
    let report = check(&cert, &bad).unwrap();
    match rejection(&report) {
        Rejection::Premise {
            index: 0,
            kind,
            trace: Some(trace),
            reason,
        } => {
            assert_eq!(kind, "monolithic");
            assert_eq!(trace, &["output"]);
            assert!(reason.contains("Order"), "{reason}");
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn mono_needs_exactly_one_premise() {
    let model = order_model();
    let cert = blank(&model, VerdictKind::Holds, Rule::Mono);
    assert!(matches!(
        rejection(&check(&cert, &model).unwrap()),
        Rejection::Rule { .. }
    ));
}

#[test]
fn asym_accepts_cobleighs_assumption() {
    let report = check(&asym_cert(), &order_model()).unwrap();
    assert_accepted(&report);
    assert_eq!(report.premises_checked, 2);
}

#[test]
fn asym_rejects_an_assumption_too_weak_for_the_first_premise() {
    // A allows output before send: <A> Input <Order> fails on `output`.
    let mut cert = asym_cert();
    cert.assumptions[0]
        .lts
        .transitions
        .push((0, "output".into(), 0));
    let report = check(&cert, &order_model()).unwrap();
    match rejection(&report) {
        Rejection::Premise {
            index: 0,
            trace: Some(t),
            ..
        } => assert_eq!(t, &["output"]),
        r => panic!("{r:?}"),
    }
}

#[test]
fn asym_rejects_premises_that_do_not_form_the_rule() {
    // Both triples, but the second one is about Input again: Output is never covered.
    let mut cert = asym_cert();
    cert.premises[1] = triple(&[], &["Input", "Output"], Guarantee::Assumption(0));
    let report = check(&cert, &order_model()).unwrap();
    // The premise holds? Input || Output satisfies A, but A stands for Output only.
    assert!(
        matches!(rejection(&report), Rejection::Rule { .. }),
        "{report:?}"
    );
    // One triple only.
    let mut cert = asym_cert();
    cert.premises.pop();
    assert!(matches!(
        rejection(&check(&cert, &order_model()).unwrap()),
        Rejection::Rule { .. }
    ));
    // The first triple guarantees the assumption instead of the property.
    let mut cert = asym_cert();
    cert.premises.swap(0, 1);
    cert.rule = Rule::Asym;
    assert_accepted(&check(&cert, &order_model()).unwrap()); // order does not matter
}

/// Input || Output || Env, Env = (ack -> Env): ASYM recursively, one assumption per level.
#[test]
fn asym_n_chains_assumptions_level_by_level() {
    let env = lts(1, &[(0, "ack", 0)], &[], None);
    let model = order_model().component("Env", env);
    let cert = blank(&model, VerdictKind::Holds, Rule::AsymN)
        .with_assumption(assumption(
            &["Output", "Env"],
            Role::Assumption,
            &["send", "output", "ack"],
            3,
            &[(0, "send", 1), (1, "output", 2), (2, "ack", 0)],
        ))
        .with_assumption(assumption(
            &["Env"],
            Role::Assumption,
            &["ack"],
            1,
            &[(0, "ack", 0)],
        ))
        .with_premise(triple(&[0], &["Input"], props(&["Order"])))
        .with_premise(triple(&[1], &["Output"], Guarantee::Assumption(0)))
        .with_premise(triple(&[], &["Env"], Guarantee::Assumption(1)));
    assert_accepted(&check(&cert, &model).unwrap());

    // Without the last level, the second assumption is never discharged.
    let mut short = cert.clone();
    short.premises.pop();
    assert!(matches!(
        rejection(&check(&short, &model).unwrap()),
        Rejection::Rule { .. }
    ));

    // A level whose assumption forbids what Env does: the last premise fails.
    let mut wrong = cert;
    wrong.assumptions[1].lts.transitions.clear();
    match rejection(&check(&wrong, &model).unwrap()) {
        Rejection::Premise {
            index: 2,
            trace: Some(t),
            ..
        } => assert_eq!(t, &["ack"]),
        r => panic!("{r:?}"),
    }
}

/// M1 = (a -> c -> M1), M2 = (b -> c -> M2), P = (a -> c -> P).
fn sym_model() -> Model {
    Model::new()
        .component("M1", lts(2, &[(0, "a", 1), (1, "c", 0)], &[], None))
        .component("M2", lts(2, &[(0, "b", 1), (1, "c", 0)], &[], None))
        .property("P", lts(2, &[(0, "a", 1), (1, "c", 0)], &[], None))
}

fn sym_cert(a1: &[(u64, &str, u64)], a1_states: u64) -> guarantor_certify::Certificate {
    let model = sym_model();
    blank(&model, VerdictKind::Holds, Rule::Sym)
        .with_assumption(assumption(
            &["M1"],
            Role::Assumption,
            &["a", "c"],
            a1_states,
            a1,
        ))
        .with_assumption(assumption(
            &["M2"],
            Role::Assumption,
            &["a", "c"],
            2,
            &[(0, "a", 1), (1, "c", 0)],
        ))
        .with_premise(triple(&[0], &["M1"], props(&["P"])))
        .with_premise(triple(&[1], &["M2"], props(&["P"])))
        .with_premise(Premise::Inclusion {
            assumptions: vec![0, 1],
            properties: names(&["P"]),
        })
}

#[test]
fn sym_accepts_when_the_complements_imply_the_property() {
    // A1 = everything, so no word is rejected by both.
    let cert = sym_cert(&[(0, "a", 0), (0, "c", 0)], 1);
    assert_accepted(&check(&cert, &sym_model()).unwrap());
}

#[test]
fn sym_rejects_an_inclusion_with_a_word_both_assumptions_reject() {
    // A1 = A2 = P: `c` is rejected by both and violates P.
    let cert = sym_cert(&[(0, "a", 1), (1, "c", 0)], 2);
    let report = check(&cert, &sym_model()).unwrap();
    assert_eq!(report.premises_checked, 2);
    match rejection(&report) {
        Rejection::Premise {
            index: 2,
            kind,
            trace: Some(t),
            ..
        } => {
            assert_eq!(kind, "inclusion");
            assert_eq!(t, &["c"]);
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn sym_refuses_components_with_error_states_unless_rewritten() {
    // M1 with an ERROR state nothing leads to.
    let m1 = lts(3, &[(0, "a", 1), (1, "c", 0)], &[], Some(2));
    let model = Model::new()
        .component("M1", m1)
        .component("M2", lts(2, &[(0, "b", 1), (1, "c", 0)], &[], None))
        .property("P", lts(2, &[(0, "a", 1), (1, "c", 0)], &[], None));
    let (fp, print) = guarantor_certify::fingerprint::model_print(&model);
    let mut base = sym_cert(&[(0, "a", 0), (0, "c", 0)], 1);
    base.fingerprint = fp;
    base.model = print;
    let report = check(&base, &model).unwrap();
    assert_eq!(report.premises_checked, 3);
    assert!(
        matches!(rejection(&report), Rejection::Rule { reason, .. } if reason.contains("ERROR")),
        "{report:?}"
    );

    // Rewritten: M1' (ERROR loops on `err`) and the property NoErr forbidding it. The premises
    // are about M1' and guarantee P and NoErr; A2 must block `err`, which NoErr could otherwise
    // do alone next to M2.
    let mut cert = base.with_transformation(Transformation::ErrorAsAction {
        component: "M1".into(),
        action: "err".into(),
        result: "M1'".into(),
        property: "NoErr".into(),
    });
    cert.assumptions[0].components = names(&["M1'"]);
    cert.assumptions[1].alphabet.push("err".into());
    let both = || props(&["P", "NoErr"]);
    cert.premises = vec![
        triple(&[0], &["M1'"], both()),
        triple(&[1], &["M2"], both()),
        Premise::Inclusion {
            assumptions: vec![0, 1],
            properties: names(&["P", "NoErr"]),
        },
    ];
    assert_accepted(&check(&cert, &model).unwrap());

    // The inclusion must cover NoErr too: it is part of the goal.
    let mut weaker = cert.clone();
    weaker.premises[2] = Premise::Inclusion {
        assumptions: vec![0, 1],
        properties: names(&["P"]),
    };
    assert!(matches!(
        rejection(&check(&weaker, &model).unwrap()),
        Rejection::Rule { .. }
    ));
    // Without `err` in A2, NoErr moves alone next to M2: premise 1 fails.
    let mut open = cert;
    open.assumptions[1].alphabet.pop();
    match rejection(&check(&open, &model).unwrap()) {
        Rejection::Premise {
            index: 1,
            trace: Some(t),
            ..
        } => assert_eq!(t, &["err"]),
        r => panic!("{r:?}"),
    }
}

/// CIRC-AG_N on the SYM model: g1 = (a -> c -> g1) for M1, g2 = true over {c} for M2.
fn circ_cert() -> guarantor_certify::Certificate {
    let model = sym_model();
    blank(&model, VerdictKind::Holds, Rule::Circ)
        .with_assumption(assumption(
            &["M1"],
            Role::Guarantee,
            &["a", "c"],
            2,
            &[(0, "a", 1), (1, "c", 0)],
        ))
        .with_assumption(assumption(
            &["M2"],
            Role::Guarantee,
            &["c"],
            1,
            &[(0, "c", 0)],
        ))
        .with_premise(Premise::Circular {
            assumptions: vec![1],
            components: names(&["M1"]),
            guarantee: 0,
        })
        .with_premise(Premise::Circular {
            assumptions: vec![0],
            components: names(&["M2"]),
            guarantee: 1,
        })
        .with_premise(triple(&[0, 1], &[], props(&["P"])))
}

#[test]
fn circ_accepts_guarantees_that_imply_the_property() {
    assert_accepted(&check(&circ_cert(), &sym_model()).unwrap());
}

#[test]
fn circular_premise_checks_the_last_step_even_when_the_assumptions_forbid_it() {
    // A guarantee for M1 over {a, c} allowing `c` only, assuming h which forbids `a`: a triple
    // would hold (h blocks `a`); the circular premise does not (M1's free last step `a`).
    let model = sym_model();
    let cert = blank(&model, VerdictKind::Holds, Rule::Circ)
        .with_assumption(assumption(
            &["M1"],
            Role::Guarantee,
            &["a", "c"],
            1,
            &[(0, "c", 0)],
        ))
        .with_assumption(assumption(&["M2"], Role::Guarantee, &["a"], 1, &[]))
        .with_premise(Premise::Circular {
            assumptions: vec![1],
            components: names(&["M1"]),
            guarantee: 0,
        });
    match rejection(&check(&cert, &model).unwrap()) {
        Rejection::Premise {
            index: 0,
            kind,
            trace: Some(t),
            ..
        } => {
            assert_eq!(kind, "circular");
            assert_eq!(t, &["a"]);
        }
        r => panic!("{r:?}"),
    }
    // The same as a triple holds.
    let as_triple = blank(&model, VerdictKind::Holds, Rule::AsymN)
        .with_assumption(cert.assumptions[0].clone())
        .with_assumption(cert.assumptions[1].clone())
        .with_premise(triple(&[1], &["M1"], Guarantee::Assumption(0)));
    let report = check(&as_triple, &model).unwrap();
    assert_eq!(report.premises_checked, 1, "{report:?}");
}

#[test]
fn circ_checks_the_alphabet_condition_and_the_shape() {
    // g2 over {a, c}: `a` is not M2's.
    let mut cert = circ_cert();
    cert.assumptions[1] = assumption(
        &["M2"],
        Role::Guarantee,
        &["a", "c"],
        1,
        &[(0, "a", 0), (0, "c", 0)],
    );
    match rejection(&check(&cert, &sym_model()).unwrap()) {
        Rejection::Alphabet { assumption: 1, .. } => {}
        r => panic!("{r:?}"),
    }
    // The last premise assumes a guarantee no premise establishes.
    let mut cert = circ_cert();
    cert.premises.remove(1);
    assert!(matches!(
        rejection(&check(&cert, &sym_model()).unwrap()),
        Rejection::Rule { .. }
    ));
}

/// Output2 = Output unrolled twice; its quotient by [0, 1, 2, 0, 1, 2] is Output.
fn quotient_model() -> Model {
    let output2 = lts(
        6,
        &[
            (0, "send", 1),
            (1, "output", 2),
            (2, "ack", 3),
            (3, "send", 4),
            (4, "output", 5),
            (5, "ack", 0),
        ],
        &[],
        None,
    );
    Model::new()
        .component("Input", order_file("Input"))
        .component("Output", output2)
        .property("Order", order_file("Order"))
}

fn quotient_cert(classes: Vec<u64>) -> guarantor_certify::Certificate {
    blank(&quotient_model(), VerdictKind::Holds, Rule::Quotient)
        .with_assumption(assumption(
            &["Output"],
            Role::Quotient,
            &["send", "output", "ack"],
            3,
            &[(0, "send", 1), (1, "output", 2), (2, "ack", 0)],
        ))
        .with_premise(Premise::Homomorphism {
            component: "Output".into(),
            assumption: 0,
            classes,
        })
        .with_premise(triple(&[0], &["Input"], props(&["Order"])))
}

#[test]
fn quotient_accepts_a_homomorphism_and_rejects_a_wrong_map() {
    let model = quotient_model();
    assert_accepted(&check(&quotient_cert(vec![0, 1, 2, 0, 1, 2]), &model).unwrap());
    for (classes, needle) in [
        (vec![0, 1, 2, 0, 2, 1], "no image"),
        (vec![0, 1, 2], "3 classes for 6 states"),
        (vec![0, 1, 2, 0, 1, 7], "not a state"),
        (vec![1, 2, 0, 1, 2, 0], "initial"),
    ] {
        match rejection(&check(&quotient_cert(classes), &model).unwrap()) {
            Rejection::Premise {
                index: 0,
                kind,
                reason,
                ..
            } => {
                assert_eq!(kind, "homomorphism");
                assert!(reason.contains(needle), "{reason}");
            }
            r => panic!("{r:?}"),
        }
    }
}

#[test]
fn violated_certificates_replay_their_run() {
    let model = bad_order_model();
    let cert =
        blank(&model, VerdictKind::Violated, Rule::Mono).with_counterexample(Counterexample::new(
            vec![Step::new("output", vec![0, 1])],
            ViolationClaim::Property {
                property: "Order".into(),
            },
        ));
    assert_accepted(&check(&cert, &model).unwrap());

    // A component that reaches ERROR, and a deadlock.
    let m = lts(3, &[(0, "a", 1), (0, "b", 2)], &[], Some(1));
    let model = Model::new().component("M", m.clone());
    let claim = |action: &str, state: u64, v: ViolationClaim| {
        blank(&model, VerdictKind::Violated, Rule::Mono)
            .with_counterexample(Counterexample::new(vec![Step::new(action, vec![state])], v))
    };
    let error = ViolationClaim::ErrorState {
        component: "M".into(),
    };
    assert_accepted(&check(&claim("a", 1, error.clone()), &model).unwrap());
    assert_accepted(&check(&claim("b", 2, ViolationClaim::Deadlock), &model).unwrap());
    // Not a deadlock when `b` leads to the end state.
    let ended = Model::new().component_with_end("M", m, StateId::must(2));
    let report = check(&claim("b", 2, ViolationClaim::Deadlock), &ended).unwrap();
    assert!(matches!(
        rejection(&report),
        Rejection::Replay { step: 1, .. }
    ));
    // Claims that do not match the run.
    for (action, state, v) in [
        ("b", 2, error.clone()),
        ("a", 1, ViolationClaim::Deadlock),
        ("a", 2, error.clone()),
        ("z", 1, error),
    ] {
        let report = check(&claim(action, state, v), &model).unwrap();
        assert!(
            matches!(rejection(&report), Rejection::Replay { .. }),
            "{report:?}"
        );
    }
}

#[test]
fn transformations_are_replayed_not_trusted() {
    // M = (a -> ERROR | c -> M) with `a` blocked by N = (c -> N) over {a, c}.
    let m = lts(2, &[(0, "a", 1), (0, "c", 0)], &[], Some(1));
    let n = lts(1, &[(0, "c", 0)], &["a"], None);
    let model = Model::new().component("M", m).component("N", n);
    let rewrite = |action: &str| Transformation::ErrorAsAction {
        component: "M".into(),
        action: action.into(),
        result: "M'".into(),
        property: "NoErr".into(),
    };
    let cert = blank(&model, VerdictKind::Holds, Rule::Mono)
        .with_transformation(rewrite("err"))
        .with_transformation(Transformation::Environment {
            actions: names(&["x"]),
            result: "env".into(),
        })
        .with_premise(Premise::Monolithic);
    assert_accepted(&check(&cert, &model).unwrap());
    // `c` is not fresh.
    let mut bad = cert.clone();
    bad.transformations[0] = rewrite("c");
    assert!(matches!(
        rejection(&check(&bad, &model).unwrap()),
        Rejection::Transformation { index: 0, .. }
    ));
    // N has no ERROR state.
    let mut bad = cert;
    bad.transformations[0] = Transformation::ErrorAsAction {
        component: "N".into(),
        action: "err".into(),
        result: "N'".into(),
        property: "NoErr".into(),
    };
    assert!(matches!(
        rejection(&check(&bad, &model).unwrap()),
        Rejection::Transformation { index: 0, .. }
    ));
}

#[test]
fn merged_properties_are_the_properties_together() {
    let model =
        order_model().property("Sends", lts(2, &[(0, "send", 1), (1, "ack", 0)], &[], None));
    let cert = blank(&model, VerdictKind::Holds, Rule::Mono)
        .with_transformation(Transformation::MergeProperties {
            properties: names(&["Order", "Sends"]),
            result: "Both".into(),
        })
        .with_premise(triple(&[], &["Input", "Output"], props(&["Both"])));
    assert_accepted(&check(&cert, &model).unwrap());
    // Guaranteeing one of them does not cover the merged goal.
    let mut partial = cert;
    partial.premises[0] = triple(&[], &["Input", "Output"], props(&["Order"]));
    assert!(matches!(
        rejection(&check(&partial, &model).unwrap()),
        Rejection::Rule { .. }
    ));
}

#[test]
fn format_version_and_model_errors() {
    let model = order_model();
    let mut cert = asym_cert();
    cert.format = "drat".into();
    assert!(matches!(
        check(&cert, &model),
        Err(CertifyError::Format { .. })
    ));
    let mut cert = asym_cert();
    cert.version = 2;
    assert!(matches!(
        check(&cert, &model),
        Err(CertifyError::Version { found: 2 })
    ));
    let twice = order_model().component("Input", order_file("Input"));
    assert!(matches!(
        check(&asym_cert(), &twice),
        Err(CertifyError::DuplicateName { .. })
    ));
    let nondet = Model::new().property("P", lts(2, &[(0, "a", 0), (0, "a", 1)], &[], None));
    assert!(matches!(
        check(&asym_cert(), &nondet),
        Err(CertifyError::PropertyNotDeterministic { .. })
    ));
    let mut program = asym_cert();
    program.rule = Rule::Program;
    assert!(matches!(
        check(&program, &model),
        Err(CertifyError::Unsupported { .. })
    ));
}
