//! End-to-end tests of `guarantor learn`: every learner with every oracle on the bundled AALpy
//! models (crates/lstar/tests/data/mealy, SOURCES.md there), the JSON fields, the learned DOT file
//! read back, a DFA target, and malformed input as a located error.

mod common;

use common::{assert_exit, guarantor, root};

const MODELS: [(&str, u64); 4] = [
    ("coffee_mealy.dot", 2),
    ("Angluin_Mealy.dot", 4),
    ("OpenSSL_1.0.2_server_regular.dot", 7),
    ("CC2650.dot", 5),
];

fn model(name: &str) -> String {
    format!("crates/lstar/tests/data/mealy/{name}")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = guarantor(args);
    assert_exit(&out, 0);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn every_learner_and_exact_oracle_learns_every_bundled_model() {
    for (name, states) in MODELS {
        let path = model(name);
        for learner in ["lsharp", "lstar", "kv"] {
            for oracle in ["wp:2", "w:1", "wp-first:2", "w-first:1", "exact"] {
                let v = json(&[
                    "learn",
                    &path,
                    "--learner",
                    learner,
                    "--oracle",
                    oracle,
                    "--format",
                    "json",
                ]);
                assert_eq!(v["equivalent"], true, "{name} {learner} {oracle}");
                assert_eq!(v["states"], states, "{name} {learner} {oracle}");
                for field in [
                    "membership_queries",
                    "steps",
                    "resets",
                    "equivalence_queries",
                    "oracle_queries",
                    "oracle_steps",
                ] {
                    assert!(v[field].is_u64(), "{field} in {v}");
                }
                assert!(v["seconds"].is_f64());
                assert_eq!(v["resets"], v["membership_queries"]);
            }
        }
    }
}

#[test]
fn lsharp_with_tours_learns_every_bundled_model() {
    for (name, states) in MODELS {
        let path = model(name);
        for oracle in ["wp:2", "wp-first:2", "exact"] {
            let v = json(&[
                "learn", &path, "--tour", "--oracle", oracle, "--format", "json",
            ]);
            assert_eq!(v["equivalent"], true, "{name} {oracle}");
            assert_eq!(v["states"], states, "{name} {oracle}");
            assert_eq!(v["tour"], true);
            // A tour is one query and one reset, however long.
            assert_eq!(v["resets"], v["membership_queries"]);
        }
    }
}

#[test]
fn random_oracles_run_and_report() {
    for oracle in ["random-walk:2000", "random-words:200", "state-prefix:10"] {
        let out = guarantor(&[
            "learn",
            &model("OpenSSL_1.0.2_server_regular.dot"),
            "--oracle",
            oracle,
            "--seed",
            "7",
            "--format",
            "json",
        ]);
        // Random testing may miss a state (exit 1), never crashes or lies.
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            out.status.code() == Some(0),
            v["equivalent"] == true,
            "{oracle}: {v}"
        );
        assert!(v["oracle_queries"].as_u64().unwrap() > 0);
    }
}

#[test]
fn the_learned_machine_is_written_in_aalpy_dot_and_reads_back() {
    let dir = std::env::temp_dir().join(format!("guarantor-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let learned = dir.join("learned.dot");
    let out = guarantor(&[
        "learn",
        &model("CC2650.dot"),
        "--output",
        learned.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("equivalent"));
    // Learning the learned machine again gives the same size.
    let v = json(&[
        "learn",
        learned.to_str().unwrap(),
        "--oracle",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(v["states"], 5);
    let text = std::fs::read_to_string(&learned).unwrap();
    assert!(text.contains("__start0 -> s0"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_dfa_target_is_learned_as_its_acceptance_machine() {
    let dir = std::env::temp_dir().join(format!("guarantor-learn-dfa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dfa = dir.join("even.dot");
    // Words over {a, b} with an even number of a's (AALpy's DFA format).
    std::fs::write(
        &dfa,
        "digraph dfa {\ns0 [label=\"s0\", shape=doublecircle];\ns1 [label=\"s1\", shape=circle];\n\
         s0 -> s1  [label=\"a\"];\ns0 -> s0  [label=\"b\"];\ns1 -> s0  [label=\"a\"];\n\
         s1 -> s1  [label=\"b\"];\n__start0 [label=\"\", shape=none];\n__start0 -> s0  [label=\"\"];\n}\n",
    )
    .unwrap();
    let v = json(&["learn", dfa.to_str().unwrap(), "--format", "json"]);
    assert_eq!(v["states"], 2);
    assert_eq!(v["equivalent"], true);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn malformed_dot_is_a_located_error_and_bad_options_are_rejected() {
    let dir = std::env::temp_dir().join(format!("guarantor-learn-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.dot");
    std::fs::write(
        &bad,
        "digraph g {\n  s0 -> s1 [label=\"a/b\"];\n  s1 -> [label=\"a/b\"];\n}\n",
    )
    .unwrap();
    let out = guarantor(&["learn", bad.to_str().unwrap()]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.dot:3:9"), "{err}");
    let out = guarantor(&["learn", &model("coffee_mealy.dot"), "--oracle", "wp"]);
    assert_exit(&out, 2);
    let out = guarantor(&["learn", &model("coffee_mealy.dot"), "--oracle", "magic:3"]);
    assert_exit(&out, 2);
    let out = guarantor(&["learn", "no/such/file.dot"]);
    assert_exit(&out, 2);
    std::fs::remove_dir_all(&dir).ok();
    let _ = root();
}
