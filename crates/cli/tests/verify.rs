//! `guarantor check --certificate` / `--emit-assumptions` and `guarantor verify`: one test per exit
//! code of `verify` (0 valid, 1 invalid, 2 bad input: unreadable, wrong version, another model),
//! for certificates and for hand-written proof skeletons (`verify --skeleton`, examples/skeleton).

mod common;

use common::{assert_exit, guarantor, root};

use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guarantor-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MODEL: [&str; 4] = [
    "--property",
    "examples/order/Order.aut",
    "examples/order/Input.aut",
    "examples/order/Output.aut",
];

/// `check --method METHOD --certificate FILE` on the order example (or `inputs`); the file.
fn certificate(dir: &Path, method: &str, inputs: &[&str], code: i32) -> PathBuf {
    let file = dir.join(format!("{method}.json"));
    let mut args = vec![
        "check",
        "-q",
        "--method",
        method,
        "--certificate",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(inputs);
    assert_exit(&guarantor(&args), code);
    file
}

fn verify(file: &Path, inputs: &[&str]) -> Output {
    let mut args = vec!["verify", "--certificate", file.to_str().unwrap()];
    args.extend_from_slice(inputs);
    guarantor(&args)
}

#[test]
fn verify_exits_zero_for_the_certificate_check_wrote() {
    let dir = scratch("valid");
    for method in [
        "mono",
        "lstar",
        "lstar-sym",
        "lstar-nway",
        "quotient",
        "circ",
        "auto",
    ] {
        let file = certificate(&dir, method, &MODEL, 0);
        let out = verify(&file, &MODEL);
        assert_exit(&out, 0);
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid: holds"));
    }
    let bad = [
        "--property",
        "examples/order/Order.aut",
        "examples/order/Input.aut",
        "examples/order/OutputBad.aut",
    ];
    let file = certificate(&dir, "mono", &bad, 1);
    let out = verify(&file, &bad);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid: violated"));
}

/// Rule `reduce` certifies deadlock freedom when the check searched deadlocks (FSP input does by
/// default), and `verify` says so; without the search it certifies the properties only.
#[test]
fn verify_says_when_a_certificate_includes_deadlock_freedom() {
    let dir = scratch("deadlock-free");
    let fsp = ["examples/fsp/order.lts"];
    let file = certificate(&dir, "reduce", &fsp, 0);
    let out = verify(&file, &fsp);
    assert_exit(&out, 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("valid: holds certificate, rule reduce"),
        "{stdout}"
    );
    assert!(stdout.contains(", deadlock freedom included"), "{stdout}");
    let file = certificate(&dir, "reduce", &MODEL, 0);
    let out = verify(&file, &MODEL);
    assert_exit(&out, 0);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("deadlock"));
}

#[test]
fn verify_exits_one_with_the_failing_premise_and_its_counterexample() {
    let dir = scratch("invalid");
    let file = certificate(&dir, "lstar", &MODEL, 0);
    let mut cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // The assumption about Output allows nothing: <true> Output <A> fails on Output's first step.
    cert["assumptions"][0]["lts"]["transitions"] = serde_json::json!([]);
    std::fs::write(&file, cert.to_string()).unwrap();
    let out = verify(&file, &MODEL);
    assert_exit(&out, 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("invalid: premise 1 (triple)"),
        "{stdout}"
    );
    assert!(stdout.contains("trace: send"), "{stdout}");
}

#[test]
fn verify_exits_two_for_an_unreadable_file_or_another_version() {
    let dir = scratch("unreadable");
    let out = verify(&dir.join("missing.json"), &MODEL);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let file = certificate(&dir, "lstar", &MODEL, 0);
    let mut cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    cert["version"] = serde_json::json!(2);
    std::fs::write(&file, cert.to_string()).unwrap();
    let out = verify(&file, &MODEL);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("version 2 is not supported"));

    std::fs::write(&file, "not json").unwrap();
    assert_exit(&verify(&file, &MODEL), 2);
}

#[test]
fn verify_exits_two_and_names_a_model_mismatch() {
    let dir = scratch("mismatch");
    let file = certificate(&dir, "lstar", &MODEL, 0);
    // Same names, another Output: a fingerprint mismatch.
    let other = dir.join("Output.aut");
    std::fs::copy(root().join("examples/order/OutputBad.aut"), &other).unwrap();
    let inputs = [
        "--property",
        "examples/order/Order.aut",
        "examples/order/Input.aut",
        other.to_str().unwrap(),
    ];
    let out = verify(&file, &inputs);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("model mismatch"), "{stderr}");
    assert!(stderr.contains("fingerprint of Output"), "{stderr}");
}

#[test]
fn emit_assumptions_writes_each_assumption_as_aut() {
    let dir = scratch("emit");
    let out_dir = dir.join("assumptions");
    let mut args = vec![
        "check",
        "-q",
        "--method",
        "lstar-nway",
        "--emit-assumptions",
        out_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(&MODEL);
    assert_exit(&guarantor(&args), 0);
    let text = std::fs::read_to_string(out_dir.join("0-Output.aut")).unwrap();
    assert!(text.starts_with("des (0, "), "{text}");
}

fn verify_skeleton(file: &str, inputs: &[&str]) -> Output {
    let mut args = vec!["verify", "--skeleton", file];
    args.extend_from_slice(inputs);
    guarantor(&args)
}

#[test]
fn verify_skeleton_exits_zero_for_the_papers_assumption() {
    // A2 as an .aut file, as an FSP process of a file of its own, and beside the FSP model.
    for (skeleton, inputs) in [
        ("examples/skeleton/asym.json", &MODEL[..]),
        ("examples/skeleton/asym-fsp.json", &MODEL[..]),
        (
            "examples/skeleton/order.json",
            &["examples/skeleton/order.lts"][..],
        ),
    ] {
        let out = verify_skeleton(skeleton, inputs);
        assert_exit(&out, 0);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("premise 1: <true> O"), "{stdout}");
        assert!(
            stdout.contains("valid: holds skeleton, rule asym, 2 premises checked"),
            "{stdout}"
        );
    }
    // The certificate it expands to verifies on its own.
    let dir = scratch("skeleton-valid");
    let file = dir.join("expanded.json");
    let mut args = vec![
        "verify",
        "--skeleton",
        "examples/skeleton/asym.json",
        "--write-certificate",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(&MODEL);
    assert_exit(&guarantor(&args), 0);
    assert_exit(&verify(&file, &MODEL), 0);
}

#[test]
fn verify_skeleton_exits_one_for_a_wrong_assumption_and_names_the_premise() {
    // The paper's first conjecture A1: too weak for <A1> Input <Order>.
    let out = verify_skeleton("examples/skeleton/asym-a1.json", &MODEL);
    assert_exit(&out, 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("premise 0: <A0> Input <Order>"), "{stdout}");
    assert!(
        stdout.contains("invalid: premise 0 (triple): property \"Order\" is violated"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(trace: input, send, ack, input)"),
        "{stdout}"
    );
}

#[test]
fn verify_skeleton_exits_two_for_bad_input_and_says_where() {
    let dir = scratch("skeleton-bad");
    let a2 = root().join("examples/skeleton/A2.aut");
    let a2_lts = root().join("examples/skeleton/A2.lts");
    let cases = [
        // A missing .aut file: its path.
        (
            "missing.json",
            r#"{"rule": "asym", "assumptions": [{"components": ["Output"], "aut": "Missing.aut"}]}"#
                .to_owned(),
            "missing.json: assumption 0: cannot read ",
        ),
        // A process the file does not define: where the skeleton names it.
        (
            "process.json",
            format!(
                "{{\"rule\": \"asym\",\n \"assumptions\": [{{\"components\": [\"Output\"], \
                 \"process\": \"A3\", \"fsp\": {:?}}}]}}",
                a2_lts.display()
            ),
            "process.json:2:56: assumption 0: no process \"A3\"",
        ),
        // An unknown rule: the JSON's line and column.
        (
            "rule.json",
            format!(
                "{{\n  \"rule\": \"assym\",\n  \"assumptions\": [{{\"components\": [\"Output\"], \
                 \"aut\": {:?}}}]\n}}",
                a2.display()
            ),
            "rule.json:2:17: unknown variant `assym`",
        ),
        // An unknown component.
        (
            "component.json",
            format!(
                r#"{{"rule": "asym", "assumptions": [{{"components": ["Outptu"], "aut": {:?}}}]}}"#,
                a2.display()
            ),
            "no component \"Outptu\" (components: Input, Output)",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = verify_skeleton(path.to_str().unwrap(), &MODEL);
        assert_exit(&out, 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{name}: {stderr}");
    }
    // A malformed .aut file: its own line and column.
    std::fs::write(dir.join("bad.aut"), "des (0, 1, 2)\n(0, send 1)\n").unwrap();
    let path = dir.join("aut.json");
    std::fs::write(
        &path,
        r#"{"rule": "asym", "assumptions": [{"components": ["Output"], "aut": "bad.aut"}]}"#,
    )
    .unwrap();
    let out = verify_skeleton(path.to_str().unwrap(), &MODEL);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.aut:2:11: error: expected ','"),
        "{stderr}"
    );
}

/// The alphabet of a certificate's first assumption, by name.
fn assumption_alphabet(file: &Path) -> Vec<String> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    json["assumptions"][0]["alphabet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect()
}

/// Alphabet refinement (on by default) gives an assumption over part of the interface; the
/// certificate records that alphabet and `verify` re-checks the premises with it. Declaring one
/// more interface action in the assumption (which then forbids it) must make premise 2 fail.
#[test]
fn an_assumption_over_a_refined_alphabet_verifies_and_its_alphabet_is_checked() {
    let dir = scratch("refined");
    let model = dir.join("dining.lts");
    let source = std::fs::read_to_string(root().join("benchmarks/dining/dining.lts")).unwrap();
    let three: String = source
        .lines()
        .map(|l| {
            if l.starts_with("const N = ") {
                "const N = 3"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&model, three).unwrap();
    let inputs = [model.to_str().unwrap(), "--target", "SYS"];
    let check_inputs = [&inputs[..], &["--no-deadlock"]].concat();
    let refined = certificate(&dir, "lstar", &check_inputs, 0);
    let mut classic_inputs = check_inputs.clone();
    classic_inputs.push("--no-alphabet-refinement");
    let classic = dir.join("classic.json");
    let mut args = vec!["check", "-q", "--method", "lstar", "--certificate"];
    args.push(classic.to_str().unwrap());
    args.extend_from_slice(&classic_inputs);
    assert_exit(&guarantor(&args), 0);

    let small = assumption_alphabet(&refined);
    let full = assumption_alphabet(&classic);
    assert!(small.iter().all(|a| full.contains(a)), "{small:?} {full:?}");
    assert!(small.len() < full.len(), "{small:?} {full:?}");
    let out = verify(&refined, &inputs);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid: holds"));

    let extra = full.iter().find(|a| !small.contains(a)).unwrap();
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&refined).unwrap()).unwrap();
    json["assumptions"][0]["alphabet"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::Value::String(extra.clone()));
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, json.to_string()).unwrap();
    let out = verify(&tampered, &inputs);
    assert_exit(&out, 1);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("premise"), "{said}");
}
