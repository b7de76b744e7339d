//! The JSON shape of verdicts (feature `serde`): what the CLI and other tools read.

#![cfg(feature = "serde")]

mod common;

use common::lts;
use guarantor_compose::{Assumption, Certificate, Config, Verdict, check_safety};
use guarantor_lts::ComponentId;

#[test]
fn violated_report_serializes_trace_and_violation() {
    let m = lts(&[(0, "a", 1), (1, "b", 0)], &[]);
    let p = lts(&[(0, "a", 0)], &["b"]);
    let report = check_safety(&[&m], &[&p], &Config::default()).unwrap();
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["verdict"]["Violated"]["trace"],
        serde_json::json!(["a", "b"])
    );
    assert_eq!(
        json["verdict"]["Violated"]["violation"],
        serde_json::json!({"Property": {"property": 0}})
    );
    assert_eq!(json["stats"]["states"], serde_json::json!(2));
}

#[test]
fn assumptions_serialize_with_named_transitions() {
    let a = lts(&[(0, "send", 1), (1, "ack", 0)], &["output"]);
    let cert = Certificate::new([Assumption::new([ComponentId::must(0)], a)]);
    let json = serde_json::to_value(Verdict::Holds(cert)).unwrap();
    let assumption = &json["Holds"]["assumptions"][0];
    assert_eq!(assumption["components"], serde_json::json!([0]));
    let lts = &assumption["lts"];
    assert_eq!(
        lts["alphabet"],
        serde_json::json!(["send", "ack", "output"])
    );
    assert_eq!(
        lts["transitions"],
        serde_json::json!([[0, "send", 1], [1, "ack", 0]])
    );
    assert_eq!(lts["states"], serde_json::json!(2));
}
