//! Certificates of programs on the command line: `guarantor check P.gc --certificate FILE` writes
//! one for a `holds`, `guarantor verify --certificate FILE P.gc` re-checks it with z3 (one test per
//! exit code: 0 valid, 1 invalid, 2 bad input: another program, no solver, unreadable); a
//! violated program has no certificate (exit 2, and with `--format json` an `error` beside the
//! verdict, its `violation` and `violated`).

mod common;

use common::{assert_exit, guarantor};

use std::path::PathBuf;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "guarantor-cli-program-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const LOCK: &str = "crates/predabs/tests/data/lock.gc";

/// Whether z3 is on the PATH (the solver the obligations are discharged by).
fn z3() -> bool {
    let there = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("z3").is_file()));
    if !there {
        eprintln!("z3 is not on the PATH: the obligations cannot be discharged here");
    }
    there
}

/// `check LOCK --certificate FILE`; the file.
fn lock_certificate(name: &str) -> PathBuf {
    let file = scratch(name).join("lock.json");
    let out = guarantor(&[
        "check",
        "--quiet",
        LOCK,
        "--certificate",
        file.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    file
}

fn verify(file: &std::path::Path, program: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["verify", "--certificate", file.to_str().unwrap(), program];
    args.extend(extra);
    guarantor(&args)
}

#[test]
fn a_program_certificate_verifies_with_exit_0() {
    if !z3() {
        return;
    }
    let file = lock_certificate("valid");
    let out = verify(&file, LOCK, &[]);
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("valid: holds certificate, rule program, 7 obligations discharged by z3"),
        "{text}"
    );
}

#[test]
fn a_broken_program_certificate_is_invalid_with_exit_1() {
    if !z3() {
        return;
    }
    let file = lock_certificate("invalid");
    let mut cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // Flip the first kept transition into an omitted one.
    let obligations = cert["program"]["obligations"].as_array_mut().unwrap();
    let kept = obligations
        .iter_mut()
        .find(|o| o["kind"] == "transition")
        .unwrap();
    kept["kept"] = serde_json::json!([]);
    std::fs::write(&file, cert.to_string()).unwrap();
    let out = verify(&file, LOCK, &[]);
    assert_exit(&out, 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("invalid: abstract system:"), "{text}");
}

#[test]
fn program_certificates_of_other_programs_or_without_a_solver_are_bad_input() {
    let file = lock_certificate("bad");
    let other = "crates/predabs/tests/data/bakery.gc";
    let out = verify(&file, other, &[]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("program mismatch"));
    let out = verify(&file, LOCK, &["--solver", "guarantor-no-such-solver -in"]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no SMT solver") && err.contains("guarantor-no-such-solver"),
        "{err}"
    );
    let missing = file.with_file_name("missing.json");
    assert_exit(&verify(&missing, LOCK, &[]), 2);
    // An LTS certificate against a program.
    let order = file.with_file_name("order.json");
    let out = guarantor(&[
        "check",
        "--certificate",
        order.to_str().unwrap(),
        "--property",
        "examples/order/Order.aut",
        "examples/order/Input.aut",
        "examples/order/Output.aut",
    ]);
    assert_exit(&out, 0);
    assert_exit(&verify(&order, LOCK, &[]), 2);
}

#[test]
fn a_violated_program_has_no_certificate_and_says_what_it_violates() {
    let dir = scratch("violated");
    let file = dir.join("bug.json");
    let bug = "crates/predabs/tests/data/bakery_bug.gc";
    let out = guarantor(&[
        "check",
        "--quiet",
        bug,
        "--certificate",
        file.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    let out = guarantor(&[
        "check",
        "--quiet",
        "--format",
        "json",
        bug,
        "--certificate",
        file.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "violated");
    assert_eq!(v["violation"], "property");
    assert_eq!(v["violated"], "property Mutex");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no certificate")
    );
    let out = guarantor(&["check", "--quiet", "--format", "json", LOCK]);
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["violation"], serde_json::Value::Null);
    assert_eq!(v["violated"], serde_json::Value::Null);
}
