//! `guarantor check --progress [NAME]` end to end: LTSA's Check > Progress, its exit codes, text
//! and JSON (docs/formats.md "A progress check").

mod common;

use common::{assert_exit, guarantor};

use std::path::PathBuf;

use guarantor::Checker;
use guarantor::compose::Config;
use guarantor::progress::tests_of;
use serde_json::Value;

fn model(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guarantor-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const COINS: &str = "TWO = (pick -> COIN | pick -> TRICK),\n\
    COIN = (toss -> heads -> COIN | toss -> tails -> COIN),\n\
    TRICK = (toss -> tails -> TRICK).\n\
    progress HEADS = {heads}\n\
    progress TAILS = {tails}\n\
    progress G[i:1..2] = {pick, g[i]}\n\
    ||S = (TWO).\n";

fn json(args: &[&str], code: i32) -> Value {
    let mut all = vec!["check", "--format", "json", "-q"];
    all.extend_from_slice(args);
    let out = guarantor(&all);
    assert_exit(&out, code);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn every_declared_test_in_one_search_or_one_by_name() {
    let path = model("coins.lts", COINS);
    let file = path.to_str().unwrap();
    // All tests: the trick coin's terminal set {toss, tails} violates HEADS (and G.1, G.2,
    // which need pick again).
    let out = guarantor(&["check", "-q", file, "--progress"]);
    assert_exit(&out, 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("violated: progress HEADS, G.1, G.2"),
        "{text}"
    );
    assert!(
        text.contains("trace to terminal set of states: pick"),
        "{text}"
    );
    assert!(
        text.contains("actions in terminal set: {tails, toss}"),
        "{text}"
    );
    // One test by name: TAILS holds; `G` selects G.1 and G.2.
    let v = json(&["--progress", "TAILS", file], 0);
    assert_eq!(v["verdict"], "holds");
    assert_eq!(v["progress_tests"], serde_json::json!(["TAILS"]));
    assert_eq!(
        v["not_checked"],
        serde_json::json!(["progress HEADS", "progress G"])
    );
    let v = json(&["--progress", "HEADS", file], 1);
    assert_eq!(v["violation"], "progress");
    assert_eq!(v["violated_tests"], serde_json::json!(["HEADS"]));
    assert_eq!(v["counterexample"], serde_json::json!(["pick"]));
    assert_eq!(v["terminal_actions"], serde_json::json!(["tails", "toss"]));
    assert_eq!(v["cycle"].as_array().map(Vec::len), Some(2));
    let v = json(&["--progress", "G", file], 1);
    assert_eq!(v["progress_tests"], serde_json::json!(["G.1", "G.2"]));
    // An unknown test is bad input, listing the tests.
    let out = guarantor(&["check", "-q", "--progress", "NOPE", file]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("tests: HEADS, TAILS, G.1, G.2"));
}

#[test]
fn the_json_object_is_the_facades_serialisation_plus_the_cli_fields() {
    let path = model("coins2.lts", COINS);
    let mut v = json(&["--progress", "HEADS", path.to_str().unwrap()], 1);
    let system =
        guarantor::model::load_fsp(&path, Some("S")).expect("the model loads in the library");
    let tests: Vec<_> = tests_of(&system)
        .into_iter()
        .filter(|t| t.name == "HEADS")
        .collect();
    let outcome = Checker::from_fsp(&system, &Config::default())
        .unwrap()
        .check_progress(&tests, &Config::default())
        .unwrap();
    let mut lib = serde_json::to_value(&outcome).unwrap();
    for o in [&mut v, &mut lib] {
        o.as_object_mut().unwrap().remove("seconds");
    }
    for cli_only in ["warnings", "not_checked"] {
        v.as_object_mut().unwrap().remove(cli_only);
    }
    assert_eq!(v, lib);
}

#[test]
fn the_default_property_and_the_ltsa_defect() {
    // LTSA says "Safety property violation detected" here: its search for the run to the
    // terminal set {Q} meets the deadlock after `a`. The deadlock is the progress violation.
    let path = model(
        "defect.lts",
        "P = (a->STOP | b->X), X = (d->Q), Q = (c->Q).\n",
    );
    let v = json(&[path.to_str().unwrap(), "--progress"], 1);
    assert_eq!(v["verdict"], "violated");
    assert_eq!(v["violation"], "deadlock");
    assert_eq!(v["counterexample"], serde_json::json!(["a"]));
    assert_eq!(
        v["missing_actions"],
        serde_json::json!(["a", "b", "c", "d"])
    );
    assert_eq!(v["progress_tests"], serde_json::json!([]));
    // A safety violation comes first.
    let path = model("unsafe.lts", "P = (a -> P | b -> ERROR).\n");
    let v = json(&[path.to_str().unwrap(), "--progress"], 1);
    assert_eq!(v["violation"], "error_state");
    assert_eq!(v["counterexample"], serde_json::json!(["b"]));
    // A ring passes; a budget gives exit 3.
    let path = model("ring.lts", "R = (a -> b -> R).\n");
    assert_eq!(
        json(&[path.to_str().unwrap(), "--progress"], 0)["verdict"],
        "holds"
    );
    let v = json(
        &["--max-states", "1", path.to_str().unwrap(), "--progress"],
        3,
    );
    assert_eq!(v["reason"]["kind"], "states");
}
