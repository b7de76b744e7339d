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
        // What ran: one progress phase, by the monolithic check (the default method).
        assert_eq!(o["phases"][0]["question"], "progress", "{o}");
        assert_eq!(o["phases"][0]["method"], "mono", "{o}");
        o.as_object_mut().unwrap().remove("phases");
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

/// `--method` chooses who answers the progress question (issue 25): `reduce` and `auto` give
/// the monolithic answer and evidence and say who answered; a method that answers no progress
/// question refuses it as bad input, never with a hidden monolithic walk.
#[test]
fn the_method_answers_the_progress_question_or_refuses_it() {
    let path = model("coins3.lts", COINS);
    let file = path.to_str().unwrap();
    for name in ["TAILS", "HEADS", ""] {
        let mut args = vec![file, "--progress"];
        if !name.is_empty() {
            args.push(name);
        }
        let code = i32::from(name != "TAILS");
        let mut mono = json(&args, code);
        for method in ["reduce", "auto"] {
            let mut ours = json(&[&args[..], &["--method", method]].concat(), code);
            let answered = ours["method"].as_str().unwrap().to_owned();
            assert!(
                answered == "mono" || answered == "reduce",
                "{method}: {ours}"
            );
            assert_eq!(ours["phases"][0]["method"], answered.as_str());
            for v in [&mut ours, &mut mono] {
                for measured in [
                    "seconds",
                    "phases",
                    "method",
                    "states",
                    "transitions",
                    "terminal_sets",
                ] {
                    v.as_object_mut().unwrap().remove(measured);
                }
            }
            assert_eq!(ours, mono, "{method} {name}");
        }
    }
    let out = guarantor(&["check", "-q", "--method", "circ", file, "--progress"]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("answers no progress question"), "{stderr}");
}
