//! Issue 28, point 7: no quiet surprises. `export --hide` reads LTSA's set syntax (with the
//! model's constants and ranges) and reports a label that hides nothing; `lstar` on a model whose
//! environment has an `ERROR` state says that it fell back to a monolithic check.

mod common;

use std::path::PathBuf;

use common::{assert_exit, guarantor};
use serde_json::Value;

fn model(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guarantor-surprises-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The labels of an `.aut` text's transitions.
fn labels(aut: &str) -> Vec<String> {
    aut.lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(1))
        .map(|a| a.trim().trim_matches('"').to_owned())
        .collect()
}

const RING: &str = "const N = 3\nrange R = 0..N-1\n\
    P(I=0) = (go[I] -> done[I] -> P | tick -> P).\n\
    ||S = (forall [i:R] P(i)).\n";

fn export(path: &str, hide: &[&str]) -> (Vec<String>, String) {
    let mut args = vec!["export", path];
    for h in hide {
        args.extend(["--hide", h]);
    }
    let out = guarantor(&args);
    assert_exit(&out, 0);
    (
        labels(&String::from_utf8_lossy(&out.stdout)),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn hide_reads_ltsas_set_syntax_with_the_models_ranges() {
    let path = model("ring.lts", RING);
    let path = path.to_str().unwrap();
    let (all, _) = export(path, &[]);
    assert!(all.iter().any(|l| l == "go.1"), "{all:?}");
    // A set literal with a range variable over the model's range, and a plain label.
    for hide in [
        &["{go[i:R], tick}"][..],
        &["go[0..N-1],tick"],
        &["go", "tick"],
    ] {
        let (shown, stderr) = export(path, hide);
        assert!(
            shown.iter().all(|l| !l.starts_with("go.") && l != "tick"),
            "{hide:?}: {shown:?}"
        );
        assert!(shown.iter().any(|l| l.starts_with("done.")), "{hide:?}");
        assert!(!stderr.contains("warning"), "{hide:?}: {stderr}");
    }
    // Only part of a range.
    let (shown, _) = export(path, &["{go[1..2]}"]);
    assert!(shown.iter().any(|l| l == "go.0"), "{shown:?}");
    assert!(
        !shown.iter().any(|l| l == "go.1" || l == "go.2"),
        "{shown:?}"
    );
}

#[test]
fn hide_reports_a_label_that_hides_nothing() {
    let path = model("ring2.lts", RING);
    let (shown, stderr) = export(path.to_str().unwrap(), &["{tick, tock}"]);
    assert!(!shown.iter().any(|l| l == "tick"));
    assert!(stderr.contains("\"tock\""), "{stderr}");
    assert!(stderr.contains("did you mean \"tick\""), "{stderr}");
}

#[test]
fn hide_with_a_syntax_error_is_bad_input_located_in_the_set() {
    let path = model("ring3.lts", RING);
    let out = guarantor(&["export", path.to_str().unwrap(), "--hide", "{go[i:Q]}"]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--hide"), "{stderr}");
    assert!(stderr.contains('Q'), "{stderr}");
}

/// An `ERROR` state in the second component: rule ASYM cannot see it.
const ERROR_IN_ENV: &str = "P = (a -> b -> P).\nQ = (b -> a -> Q | a -> ERROR).\n\
    property SAFE = (a -> b -> SAFE).\n||S = (P || Q || SAFE).\n";

#[test]
fn lstar_says_when_it_fell_back_to_a_monolithic_check() {
    let path = model("error_in_env.lts", ERROR_IN_ENV);
    let path = path.to_str().unwrap();
    let out = guarantor(&["check", "--method", "lstar", path]);
    assert_exit(&out, 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("note: fell back to a monolithic check"),
        "{stderr}"
    );
    assert!(
        stderr.contains("ERROR state in an environment component"),
        "{stderr}"
    );

    let out = guarantor(&["check", "-q", "--method", "lstar", "--format", "json", path]);
    assert_exit(&out, 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = v["notes"].as_array().expect("notes");
    assert!(
        notes[0]
            .as_str()
            .unwrap()
            .starts_with("fell back to a monolithic check"),
        "{v}"
    );
    assert!(v.get("tried").is_none(), "{v}");

    // A learning run that learns says nothing of the kind.
    let out = guarantor(&["check", "--method", "lstar", "examples/fsp/order.lts"]);
    assert_exit(&out, 0);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("fell back"));
}

/// Issue 28, point 1: a build without the `dist` feature (the default) keeps the flags and says
/// which feature they need. (`cargo test --all-features` builds the feature: tests/dist.rs.)
#[cfg(not(feature = "dist"))]
#[test]
fn processes_without_the_dist_feature_name_the_feature() {
    let out = guarantor(&[
        "check",
        "--processes",
        "2",
        "--property",
        "examples/order/Order.aut",
        "examples/order/Input.aut",
        "examples/order/Output.aut",
    ]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--features dist"), "{stderr}");
}
