//! The JSON contract of `guarantor check --format json` (issue 15, docs/formats.md "JSON output
//! (schema)"): exactly one object on stdout in every situation, with the exit code kept.

mod common;

use common::{guarantor, root};

use std::path::PathBuf;

use guarantor::Checker;
use guarantor::compose::Config;
use serde_json::{Value, json};

/// Runs `check --format json ARGS`, asserts the exit code and that stdout is exactly one JSON
/// object, and returns it.
fn check_json(args: &[&str], code: i32) -> Value {
    let mut all = vec!["check", "--format", "json", "-q"];
    all.extend_from_slice(args);
    let out = guarantor(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    let values: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {stderr}"));
    assert_eq!(values.len(), 1, "{args:?}: one value on stdout: {values:?}");
    let v = values.into_iter().next().unwrap();
    assert!(v.is_object(), "{args:?}: an object: {v}");
    v
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guarantor-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const ORDER: [&str; 4] = [
    "--property",
    "examples/order/Order.aut",
    "examples/order/Input.aut",
    "examples/order/Output.aut",
];

const ORDER_BAD: [&str; 4] = [
    "--property",
    "examples/order/Order.aut",
    "examples/order/Input.aut",
    "examples/order/OutputBad.aut",
];

#[test]
fn holds_is_one_object_with_the_contract_fields() {
    let v = check_json(&ORDER, 0);
    assert_eq!(v["verdict"], "holds");
    assert_eq!(v["method"], "mono");
    assert!(v["counterexample"].is_null());
    assert!(v["violation"].is_null() && v["violated"].is_null());
    assert_eq!(v["states"], 4);
    assert!(v["transitions"].is_u64() && v["seconds"].is_f64());
    assert_eq!(v["warnings"], json!([]));
    assert!(v.get("certificate").is_none() && v.get("deadlock").is_none());
}

#[test]
fn violated_names_the_violation() {
    let v = check_json(&ORDER_BAD, 1);
    assert_eq!(v["verdict"], "violated");
    assert_eq!(v["counterexample"], json!(["output"]));
    assert_eq!(v["violation"], "property");
    assert_eq!(v["violated"], "property Order");
}

#[test]
fn a_deadlock_is_a_counterexample_with_its_violation() {
    let args = [
        "--deadlock",
        "--target",
        "CLASSIC",
        "benchmarks/dining/dining.lts",
    ];
    // The monolithic walk finds it itself; lstar needs the separate search: same object.
    let mut lstar = vec!["--method", "lstar"];
    lstar.extend_from_slice(&args);
    for v in [check_json(&args, 1), check_json(&lstar, 1)] {
        assert_eq!(v["verdict"], "deadlock", "{v}");
        assert_eq!(v["violation"], "deadlock");
        assert_eq!(v["violated"], "deadlock");
        let trace = v["counterexample"].as_array().expect("a trace");
        assert!(!trace.is_empty());
        // Kept for scripts written before the trace moved into `counterexample`.
        assert_eq!(v["deadlock"], v["counterexample"]);
    }
    // --deadlock without a deadlock: `deadlock` is null.
    let mut ok = vec!["--deadlock"];
    ok.extend_from_slice(&ORDER);
    let v = check_json(&ok, 0);
    assert_eq!(v["verdict"], "holds");
    assert!(v["deadlock"].is_null() && v.get("deadlock").is_some());
}

#[test]
fn a_budget_overrun_is_unknown_with_the_reason_and_partial_stats() {
    for method in ["mono", "lstar-sym"] {
        let mut args = vec!["--method", method, "--max-states", "2"];
        args.extend_from_slice(&ORDER);
        let v = check_json(&args, 3);
        assert_eq!(v["verdict"], "unknown", "{v}");
        assert_eq!(v["method"], method);
        assert!(v["counterexample"].is_null());
        assert_eq!(v["reason"]["kind"], "states", "{v}");
        assert!(
            v["reason"]["message"]
                .as_str()
                .unwrap()
                .contains("state limit")
        );
        assert!(v["states"].as_u64().unwrap() >= 2, "{v}");
        assert!(v["transitions"].is_u64() && v["seconds"].is_f64());
    }
    let mut args = vec!["--timeout", "0"];
    args.extend_from_slice(&ORDER);
    let v = check_json(&args, 3);
    assert_eq!(v["verdict"], "unknown");
    assert_eq!(v["reason"]["kind"], "time", "{v}");
}

#[test]
fn bad_input_is_an_error_object_with_its_place() {
    let aut = temp_file("bad.aut", "des (0, 2, 2)\n(0, a, 1\n");
    let v = check_json(&[aut.to_str().unwrap()], 2);
    let e = &v["error"];
    assert_eq!(e["file"], aut.to_str().unwrap(), "{v}");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(9))
    );
    assert!(e["message"].as_str().unwrap().contains("expected ')'"));
    assert!(v.get("verdict").is_none());

    let fsp = temp_file("bad.lts", "P = (a -> b -> P.\n");
    let e = check_json(&[fsp.to_str().unwrap()], 2)["error"].clone();
    assert_eq!(e["file"], fsp.to_str().unwrap());
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(1), Some(17))
    );

    let gc = temp_file("bad.gc", "global x : 0..1;\n");
    let e = check_json(&[gc.to_str().unwrap()], 2)["error"].clone();
    assert_eq!(e["file"], gc.to_str().unwrap(), "{e}");
    assert!(e["line"].is_u64() && e["column"].is_u64(), "{e}");

    // A missing file: the file, no line.
    let e = check_json(&["no/such/file.aut"], 2)["error"].clone();
    assert_eq!(e["file"], "no/such/file.aut");
    assert!(e.get("line").is_none());
    // No place at all: the message alone.
    let e = check_json(&["--target", "NOPE", "examples/fsp/order.lts"], 2)["error"].clone();
    assert!(e["message"].is_string(), "{e}");
    let mut args = vec!["--method", "quotient", "--component", "nobody"];
    args.extend_from_slice(&ORDER);
    assert!(check_json(&args, 2)["error"]["message"].is_string());
}

#[test]
fn fsp_warnings_are_listed() {
    let model = temp_file(
        "warn.lts",
        "P = P[0],\nP[i:0..1] = (a -> P[i+1]).\n||S = (P).\n",
    );
    let v = check_json(&[model.to_str().unwrap()], 1);
    assert_eq!(v["violation"], "error_state");
    assert_eq!(v["violated"], "ERROR in P");
    let w = v["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 1, "{v}");
    assert_eq!(w[0]["file"], model.to_str().unwrap());
    assert_eq!(
        (w[0]["line"].as_u64(), w[0]["column"].as_u64()),
        (Some(2), Some(19))
    );
    assert_eq!(w[0]["count"], 1);
    assert!(w[0]["message"].as_str().unwrap().contains("not defined"));
}

#[test]
fn programs_print_one_object_in_every_case() {
    let bug = check_json(&["crates/predabs/tests/data/bakery_bug.gc"], 1);
    assert_eq!(bug["verdict"], "violated");
    assert!(bug["counterexample"].is_array());
    assert_eq!(bug["warnings"], json!([]));
    let ok = check_json(&["crates/predabs/tests/data/bakery.gc"], 0);
    assert_eq!(ok["verdict"], "holds");
    let over = check_json(
        &["--max-states", "2", "crates/predabs/tests/data/bakery.gc"],
        3,
    );
    assert_eq!(over["verdict"], "unknown");
    assert_eq!(over["method"], "predabs+mono");
    assert_eq!(over["reason"]["kind"], "states", "{over}");
}

#[test]
fn the_certificate_path_is_in_the_object() {
    let cert = temp_file("cert.json", "");
    let mut args = vec!["--certificate", cert.to_str().unwrap()];
    args.extend_from_slice(&ORDER);
    let v = check_json(&args, 0);
    assert_eq!(v["certificate"], cert.to_str().unwrap());
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    assert!(written.is_object());
    // A certificate that cannot be written: still one object, the verdict and the error.
    let mut args = vec!["--certificate", "/nonexistent-dir/cert.json"];
    args.extend_from_slice(&ORDER);
    let v = check_json(&args, 2);
    assert_eq!(v["verdict"], "holds");
    assert!(v["error"]["message"].is_string(), "{v}");
    assert!(v.get("certificate").is_none());
}

/// The command line prints the facade's serialisation of the outcome plus its own fields: the
/// same run through the library gives the same object (the time aside).
#[test]
fn the_cli_prints_what_the_library_serialises() {
    let runs: [(&[&str], &[&str]); 3] = [
        (
            &["examples/order/Input.aut", "examples/order/Output.aut"],
            &[],
        ),
        (
            &["examples/order/Input.aut", "examples/order/OutputBad.aut"],
            &[],
        ),
        (
            &["examples/order/Input.aut", "examples/order/Output.aut"],
            &["--method", "lstar"],
        ),
    ];
    for (components, extra) in runs {
        let mut checker = Checker::new();
        let mut args: Vec<&str> = extra.to_vec();
        args.extend_from_slice(&["--property", "examples/order/Order.aut"]);
        for c in components {
            let path = root().join(c);
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            checker = checker.component(name, guarantor::model::load_aut(&path, false).unwrap());
            args.push(c);
        }
        let order = root().join("examples/order/Order.aut");
        checker = checker.property("Order", guarantor::model::load_aut(&order, false).unwrap());
        let kind =
            guarantor::MethodKind::from_name(extra.get(1).copied().unwrap_or("mono")).unwrap();
        let outcome = checker
            .method(kind)
            .config(Config::default())
            .check()
            .unwrap();
        let mut library = serde_json::to_value(&outcome).unwrap();
        let code = i32::from(!outcome.verdict.is_holds());
        let mut cli = check_json(&args, code);
        // The command line's own fields.
        assert_eq!(cli["warnings"], json!([]));
        cli.as_object_mut().unwrap().remove("warnings");
        // A measurement of the run, like `seconds`: present when a search reported it.
        for measured in ["store_bytes", "peak_rss_bytes"] {
            if let Some(bytes) = cli.as_object_mut().unwrap().remove(measured) {
                assert!(bytes.as_u64().is_some_and(|b| b > 0), "{args:?}");
            }
        }
        for v in [&mut library, &mut cli] {
            assert!(v["seconds"].is_f64());
            without_times(v);
        }
        assert_eq!(cli, library, "{args:?}");
    }
}

/// `v` with its times (the run's and each phase's) set to zero: measurements, not answers.
fn without_times(v: &mut Value) {
    v["seconds"] = json!(0.0);
    for phase in v["phases"].as_array_mut().into_iter().flatten() {
        assert!(phase["seconds"].is_f64(), "{phase}");
        phase["seconds"] = json!(0.0);
    }
}

/// Four rings of 7, 11, 13 and 17 states stepping together on `tick`, each with a private way
/// home: 17,017 states, wide enough that the breadth-first search expands slabs on several threads.
/// `TWELVE` allows at most twelve ticks, so the violation lies deep in the walk.
const RINGS: &str = "
P = P[0], P[i:0..6] = (tick -> P[(i + 1) % 7] | p -> P[0]).
Q = Q[0], Q[i:0..10] = (tick -> Q[(i + 1) % 11] | q -> Q[0]).
R = R[0], R[i:0..12] = (tick -> R[(i + 1) % 13] | r -> R[0]).
S = S[0], S[i:0..16] = (tick -> S[(i + 1) % 17] | s -> S[0]).
property TWELVE = T[0], T[i:0..12] = (when (i < 12) tick -> T[i + 1]).
||FREE = (P || Q || R || S).
||BOUNDED = (FREE || TWELVE).
";

#[test]
fn the_answer_does_not_depend_on_the_thread_count_or_the_storage() {
    let dir = std::env::temp_dir().join(format!("guarantor-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("rings.lts");
    std::fs::write(&model, RINGS).unwrap();
    let model = model.to_str().unwrap();
    for (target, code) in [("FREE", 0), ("BOUNDED", 1)] {
        let answer_with = |threads: &str, storage: &str| {
            let args = [model, "--target", target, "--threads", threads];
            let mut v = check_json(&[&args[..], &["--storage", storage]].concat(), code);
            // Measurements of the run.
            without_times(&mut v);
            v.as_object_mut().unwrap().remove("store_bytes");
            v.as_object_mut().unwrap().remove("peak_rss_bytes");
            v
        };
        let answer = |threads: &str| answer_with(threads, "table");
        let one = answer("1");
        if target == "FREE" {
            assert_eq!(one["states"], json!(17017), "{one}");
        } else {
            assert_eq!(one["counterexample"], json!(vec!["tick"; 13]), "{one}");
        }
        for threads in ["2", "4"] {
            assert_eq!(answer(threads), one, "{target} on {threads} threads");
        }
        // The compact store (the default) gives the same answer on any number of threads.
        for threads in ["1", "2", "4"] {
            let compact = answer_with(threads, "compact");
            assert_eq!(compact, one, "{target}, compact on {threads} threads");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
