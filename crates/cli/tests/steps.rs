//! Issue 28, point 8: a counterexample says who moves. Each step of a violation's trace names the
//! components that take part in it (every component whose alphabet has the action), in the text
//! report, in the JSON object and in a `violated` certificate, which `verify` checks.

mod common;

use common::{assert_exit, guarantor, root};
use serde_json::Value;

const ORDER_BAD: [&str; 5] = [
    "check",
    "--property",
    "examples/order/Order.aut",
    "examples/order/Input.aut",
    "examples/order/OutputBad.aut",
];

/// The components of the bundled example whose alphabet has `action`, read from the files (the
/// independent oracle: an `.aut` file's alphabet is the labels of its transitions).
fn owners(action: &str) -> Vec<&'static str> {
    ["Input", "OutputBad"]
        .into_iter()
        .filter(|name| {
            let text =
                std::fs::read_to_string(root().join(format!("examples/order/{name}.aut"))).unwrap();
            text.lines()
                .skip(1)
                .any(|l| l.split(',').nth(1).map(|a| a.trim().trim_matches('"')) == Some(action))
        })
        .collect()
}

#[test]
fn the_text_report_names_the_components_of_each_step() {
    let out = guarantor(&ORDER_BAD);
    assert_exit(&out, 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let steps: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("counterexample"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert!(!steps.is_empty(), "{stdout}");
    for line in steps {
        let (action, rest) = line
            .trim()
            .split_once(' ')
            .expect("an action and its components");
        let names = rest.trim().trim_start_matches('[').trim_end_matches(']');
        let names: Vec<&str> = names.split(", ").collect();
        assert_eq!(names, owners(action), "{line}");
    }
}

#[test]
fn the_json_object_lists_the_steps_with_their_components() {
    let mut args = ORDER_BAD.to_vec();
    args.extend(["--format", "json"]);
    let out = guarantor(&args);
    assert_exit(&out, 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let trace = v["counterexample"].as_array().unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), trace.len());
    for (step, action) in steps.iter().zip(trace) {
        assert_eq!(step["action"], *action);
        let names: Vec<&str> = step["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(names, owners(action.as_str().unwrap()), "{step}");
    }
}

#[test]
fn a_violated_certificate_names_the_components_of_each_step_and_verify_checks_them() {
    let dir = std::env::temp_dir().join(format!("guarantor-steps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("bad.json");
    let cert = cert.to_str().unwrap();
    let mut args = ORDER_BAD.to_vec();
    args.extend(["--certificate", cert]);
    assert_exit(&guarantor(&args), 1);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(cert).unwrap()).unwrap();
    let steps = v["counterexample"]["steps"].as_array().unwrap().clone();
    assert!(!steps.is_empty());
    for step in &steps {
        let names: Vec<&str> = step["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        let action = step["action"].as_str().unwrap();
        assert_eq!(names, owners(action), "{step}");
    }
    let verify = |path: &str| {
        guarantor(&[
            "verify",
            "--certificate",
            path,
            "--property",
            "examples/order/Order.aut",
            "examples/order/Input.aut",
            "examples/order/OutputBad.aut",
        ])
    };
    assert_exit(&verify(cert), 0);

    // A certificate that names the wrong components is rejected ...
    v["counterexample"]["steps"][0]["components"] = serde_json::json!(["Input", "OutputBad"]);
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, v.to_string()).unwrap();
    let out = verify(wrong.to_str().unwrap());
    assert_exit(&out, 1);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("taking part"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // ... and one without them (as written before they existed) is read and checked as before.
    for step in v["counterexample"]["steps"].as_array_mut().unwrap() {
        step.as_object_mut().unwrap().remove("components");
    }
    let old = dir.join("old.json");
    std::fs::write(&old, v.to_string()).unwrap();
    assert_exit(&verify(old.to_str().unwrap()), 0);
}
