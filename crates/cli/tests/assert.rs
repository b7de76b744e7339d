//! `guarantor check --assert NAME` end to end: LTSA's Check > LTL property, its exit codes, text
//! and JSON (docs/formats.md "An assertion check").

mod common;

use common::{assert_exit, guarantor};

use std::path::PathBuf;

use serde_json::Value;

fn model(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guarantor-assert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const MODEL: &str = "P = (a -> P | b -> P).\n\
    ||S = P << {a}.\n\
    ||F = (P).\n\
    fluent A = <a, b>\n\
    fluent Q = <c, d>\n\
    assert B = []<>b\n\
    assert NOTA = []!A\n";

fn json(args: &[&str], code: i32) -> Value {
    let mut all = vec!["check", "--format", "json", "-q"];
    all.extend_from_slice(args);
    let out = guarantor(&all);
    assert_exit(&out, code);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// LTSA's priority defect: it says B holds on S; b never occurs there.
#[test]
fn liveness_with_a_lasso_and_the_ltsa_priority_defect() {
    let path = model("prio.lts", MODEL);
    let p = path.to_str().unwrap();
    let v = json(&["--assert", "B", "--target", "S", p], 1);
    assert_eq!(v["verdict"], "violated");
    assert_eq!(v["check"], "assert");
    assert_eq!(v["safety"], false);
    assert_eq!(v["cycle"], serde_json::json!(["a"]));
    assert_eq!(v["violated"], "assert B");
    // The fluents B does not use, and the other assertion, are listed as not checked.
    assert_eq!(
        v["not_checked"],
        serde_json::json!(["fluent A", "fluent Q", "assert NOTA"])
    );
    assert_eq!(v["by_progress"], false);
    let v = json(&["--assert", "B", "--target", "F", p], 0);
    assert_eq!(v["verdict"], "holds");
    assert!(v["counterexample"].is_null());
    // A `[]<>` that holds is the progress test of its actions holding: no Büchi product.
    assert_eq!(v["by_progress"], true);
    let out = guarantor(&["check", "--assert", "B", "--target", "F", p]);
    assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("by the progress test of its actions, by "),
        "{text}"
    );
}

#[test]
fn safety_assertions_by_any_method() {
    let path = model("safe.lts", MODEL);
    let p = path.to_str().unwrap();
    for method in ["mono", "lstar", "circ", "quotient"] {
        let v = json(
            &["--assert", "NOTA", "--target", "F", "--method", method, p],
            1,
        );
        assert_eq!(v["safety"], true, "{method}");
        assert_eq!(v["counterexample"], serde_json::json!(["a"]), "{method}");
        assert_eq!(
            v["not_checked"],
            serde_json::json!(["fluent Q", "assert B"])
        );
    }
    let out = guarantor(&["check", "-q", "--assert", "NOTA", "--target", "F", p]);
    assert_exit(&out, 1);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("violated: assert NOTA\ntrace: a\n"),
        "{text}"
    );
}

#[test]
fn bad_input() {
    let path = model("bad.lts", MODEL);
    let out = guarantor(&["check", "-q", "--assert", "NOPE", path.to_str().unwrap()]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("assertions: B, NOTA"));
}

/// A budget stops the Büchi product as it stops a safety check: exit 3, the budget named. (A
/// response formula: a `[]<>` that holds would be answered by the progress test, whose walk of
/// this one-state product fits the budget.)
#[test]
fn budgets() {
    let path = model(
        "budget.lts",
        "P = (a[i:0..99] -> P).\nQ = (b[j:0..99] -> Q).\n||S = (P || Q).\nassert L = [](a[0] -> <>b[0])\n",
    );
    let v = json(
        &[
            "--assert",
            "L",
            "--max-states",
            "50",
            path.to_str().unwrap(),
        ],
        3,
    );
    assert_eq!(v["verdict"], "unknown");
    assert_eq!(v["reason"]["kind"], "states");
}

/// Issue 26, departure 7: translating a formula into an automaton honours the budget. Twelve
/// `[]<>` conjuncts under a negation ran on for minutes (60 s and 280 MB, still translating);
/// now the check ends with exit 3 within 10 % + 2 s of `--timeout`.
#[test]
fn an_exponential_formula_ends_within_its_timeout() {
    let actions: Vec<String> = (0..12).map(|i| format!("a{i}")).collect();
    let arms: Vec<String> = actions.iter().map(|a| format!("{a} -> P")).collect();
    let conjuncts: Vec<String> = actions.iter().map(|a| format!("[]<>{a}")).collect();
    let text = format!(
        "P = ({}).\nassert B = !({})\n",
        arms.join(" | "),
        conjuncts.join(" && ")
    );
    let path = model("twelve.lts", &text);
    let start = std::time::Instant::now();
    let v = json(
        &["--assert", "B", "--timeout", "2", path.to_str().unwrap()],
        3,
    );
    let elapsed = start.elapsed();
    assert!(
        elapsed < std::time::Duration::from_millis(4200),
        "{elapsed:?}"
    );
    assert_eq!(v["reason"]["kind"], "time", "{v}");
}

/// Issue 26, found by the differential fuzzer (cause A): every action of the system is a step of
/// the formula's word, as LTSA's `*` makes it. `[]b` is violated by `a`; `b` (true only just
/// after a `b`) is violated at once; LTSA's answers.
#[test]
fn every_action_is_a_step_of_the_formula() {
    let path = model(
        "star.lts",
        "P = (a -> P | b -> P).\n||C = (P).\nassert X = []b\nassert B = b\nassert L = []<>a\n",
    );
    let p = path.to_str().unwrap();
    let v = json(&["--assert", "X", p], 1);
    assert_eq!(v["counterexample"], serde_json::json!(["a"]), "{v}");
    json(&["--assert", "B", p], 1);
    json(&["--assert", "L", p], 0);
}
