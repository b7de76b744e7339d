//! The manifest loader on small inline manifests: what each kind of FSP entry turns into, and a
//! typed error naming the case for every kind of bad entry.

use std::path::{Path, PathBuf};

use guarantor_testkit::{Case, ManifestError, parse_manifest};

/// The entries' `asserts` compiled as the suite compiles them.
mod assertions;

/// A fresh directory with the given files, for manifests whose paths are relative to it.
fn dir_with(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("testkit-manifest-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

const MODEL: &str = "
P = (a -> b -> P).
Q = (b -> c -> Q).
property SAFE = (a -> c -> SAFE).
||SYS = (P || Q || SAFE).
||HIDDEN = (P || Q) \\ {b}.
||PRIO = (P || Q) << {a}.
fluent AB = <a, b>
assert NOT_C_IN_AB = [](AB -> !c)
assert ALWAYS_B = []<>b
";

fn load(dir: &Path, body: &str) -> Result<Vec<Case>, ManifestError> {
    let text = format!("[[case]]\nname = \"c1\"\nverdict = \"holds\"\nwhy = \"because\"\n{body}\n");
    parse_manifest(&text, Path::new("inline.toml"), dir, &assertions::compile)
}

fn bad_case(result: Result<Vec<Case>, ManifestError>) -> String {
    match result {
        Err(ManifestError::BadCase { case, message }) => {
            assert_eq!(case, "c1");
            message
        }
        other => panic!("expected BadCase for c1, got {other:?}"),
    }
}

#[test]
fn split_entry_gives_processes_and_properties() {
    let dir = dir_with("split", &[("m.lts", MODEL)]);
    let cases = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "SYS", split = true }]"#,
    )
    .unwrap();
    let names: Vec<&str> = cases[0]
        .components
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["P", "Q"]);
    let props: Vec<&str> = cases[0]
        .properties
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(props, ["SAFE"]);
}

#[test]
fn plain_fsp_entry_is_one_composed_component() {
    let dir = dir_with("whole", &[("m.lts", MODEL)]);
    let cases = load(&dir, r#"components = [{ fsp = "m.lts", target = "SYS" }]"#).unwrap();
    assert_eq!(cases[0].components.len(), 1);
    assert!(cases[0].properties.is_empty());
    // SAFE takes part in its error form, and a, b, a breaks it (a twice without c between).
    assert!(cases[0].components[0].1.error_state().is_some());
}

#[test]
fn fsp_property_entry_gives_each_process() {
    let dir = dir_with(
        "prop",
        &[("m.lts", MODEL), ("p.lts", "property S = (a -> b -> S).")],
    );
    let cases = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "P" }]
properties = ["p.lts"]"#,
    )
    .unwrap();
    assert_eq!(cases[0].properties.len(), 1);
}

#[test]
fn unknown_field_names_the_case() {
    let dir = dir_with("unknown", &[]);
    let msg = bad_case(load(&dir, "components = []\nspeed = 3"));
    assert!(msg.contains("speed"), "{msg}");
}

#[test]
fn unknown_extension_is_rejected() {
    let dir = dir_with("ext", &[("m.txt", "x")]);
    let msg = bad_case(load(&dir, r#"components = ["m.txt"]"#));
    assert!(msg.contains(".lts"), "{msg}");
}

#[test]
fn split_property_entry_is_rejected() {
    let dir = dir_with("splitprop", &[("m.lts", MODEL)]);
    let msg = bad_case(load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "P" }]
properties = [{ fsp = "m.lts", target = "SAFE", split = true }]"#,
    ));
    assert!(msg.contains("split"), "{msg}");
}

#[test]
fn split_with_priority_is_rejected() {
    let dir = dir_with("prio", &[("m.lts", MODEL)]);
    let msg = bad_case(load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "PRIO", split = true }]"#,
    ));
    assert!(msg.contains("priority"), "{msg}");
}

#[test]
fn split_with_hiding_must_stand_alone() {
    let dir = dir_with("hide", &[("m.lts", MODEL)]);
    let alone = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "HIDDEN", split = true }]"#,
    );
    assert!(alone.is_ok(), "{alone:?}");
    let msg = bad_case(load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "HIDDEN", split = true }, { fsp = "m.lts", target = "P" }]"#,
    ));
    assert!(msg.contains("hides"), "{msg}");
}

#[test]
fn missing_model_is_a_model_error() {
    let dir = dir_with("missing", &[]);
    match load(&dir, r#"components = ["nowhere.aut"]"#) {
        Err(ManifestError::Model { case, .. }) => assert_eq!(case, "c1"),
        other => panic!("expected a Model error, got {other:?}"),
    }
}

#[test]
fn unknown_target_is_a_model_error() {
    let dir = dir_with("target", &[("m.lts", MODEL)]);
    match load(&dir, r#"components = [{ fsp = "m.lts", target = "NOPE" }]"#) {
        Err(ManifestError::Model { case, .. }) => assert_eq!(case, "c1"),
        other => panic!("expected a Model error, got {other:?}"),
    }
}

#[test]
fn empty_components_and_bad_known_wrong_are_rejected() {
    let dir = dir_with("empty", &[("m.lts", MODEL)]);
    bad_case(load(&dir, "components = []"));
    let msg = bad_case(load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "P" }]
known_wrong = ["circ"]"#,
    ));
    assert!(msg.contains("method: reason"), "{msg}");
}

#[test]
fn known_wrong_is_parsed() {
    let dir = dir_with("known", &[("m.lts", MODEL)]);
    let cases = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "P" }]
known_wrong = ["circ: says holds"]"#,
    )
    .unwrap();
    assert_eq!(cases[0].known_wrong("circ"), Some("says holds"));
    assert_eq!(cases[0].known_wrong("mono"), None);
}

#[test]
fn empty_why_is_rejected() {
    let text = "[[case]]\nname = \"c1\"\nverdict = \"holds\"\nwhy = \" \"\ncomponents = []\n";
    match parse_manifest(
        text,
        Path::new("inline.toml"),
        Path::new("."),
        &assertions::compile,
    ) {
        Err(ManifestError::BadCase { case, message }) => {
            assert_eq!(case, "c1");
            assert!(message.contains("why"));
        }
        other => panic!("expected BadCase, got {other:?}"),
    }
}

#[test]
fn json_entry_keeps_its_declared_alphabet() {
    let never = r#"{"alphabet":["err"],"initial":0,"states":1,"error":null,"accepting":null,"transitions":[]}"#;
    let dir = dir_with("json", &[("never.json", never), ("m.lts", MODEL)]);
    let cases = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "P" }]
properties = ["never.json"]"#,
    )
    .unwrap();
    let (name, lts) = &cases[0].properties[0];
    assert_eq!(name, "never");
    assert_eq!(lts.alphabet().visible().count(), 1);
    assert_eq!(lts.num_transitions(), 0);
}

#[test]
fn malformed_json_is_a_model_error() {
    let dir = dir_with("badjson", &[("bad.json", "{\"states\": 1}")]);
    match load(&dir, r#"components = ["bad.json"]"#) {
        Err(ManifestError::Model { case, .. }) => assert_eq!(case, "c1"),
        other => panic!("expected a Model error, got {other:?}"),
    }
}

#[test]
fn asserts_become_named_properties() {
    let dir = dir_with("asserts", &[("m.lts", MODEL)]);
    let cases = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "SYS", split = true, asserts = ["NOT_C_IN_AB"] }]"#,
    )
    .unwrap();
    let props: Vec<&str> = cases[0]
        .properties
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(props, ["SAFE", "assert NOT_C_IN_AB"]);
    assert_eq!(cases[0].asserts, ["NOT_C_IN_AB"]);
    let (_, lts) = &cases[0].properties[1];
    assert!(lts.is_deterministic());
    // It observes a, b and c: c inside <a, b> is its only violation.
    assert_eq!(lts.alphabet().visible().count(), 3);
    // On a property entry too (its processes are properties, then its asserts).
    let cases = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "P" }]
properties = [{ fsp = "m.lts", target = "Q", asserts = ["NOT_C_IN_AB"] }]"#,
    )
    .unwrap();
    assert_eq!(cases[0].properties.len(), 2);
}

#[test]
fn unknown_assert_names_the_case_and_the_declared_ones() {
    let dir = dir_with("noassert", &[("m.lts", MODEL)]);
    match load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "SYS", split = true, asserts = ["NOPE"] }]"#,
    ) {
        Err(e @ ManifestError::NoSuchAssertion { .. }) => {
            let ManifestError::NoSuchAssertion {
                case,
                name,
                declared,
                ..
            } = &e
            else {
                unreachable!()
            };
            assert_eq!((case.as_str(), name.as_str()), ("c1", "NOPE"));
            assert_eq!(declared, &["NOT_C_IN_AB", "ALWAYS_B"]);
            assert!(e.to_string().contains("case c1"), "{e}");
        }
        other => panic!("expected NoSuchAssertion for c1, got {other:?}"),
    }
}

#[test]
fn liveness_assert_is_refused() {
    let dir = dir_with("liveness", &[("m.lts", MODEL)]);
    match load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "SYS", split = true, asserts = ["NOT_C_IN_AB", "ALWAYS_B"] }]"#,
    ) {
        Err(ManifestError::NotSafety {
            case,
            name,
            formula,
        }) => {
            assert_eq!((case.as_str(), name.as_str()), ("c1", "ALWAYS_B"));
            assert!(formula.contains("<>"), "{formula}");
        }
        other => panic!("expected NotSafety for c1, got {other:?}"),
    }
}

#[test]
fn asserts_on_a_hidden_or_prioritised_target_are_refused() {
    let dir = dir_with("assertwhere", &[("m.lts", MODEL)]);
    let msg = bad_case(load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "HIDDEN", asserts = ["NOT_C_IN_AB"] }]"#,
    ));
    assert!(msg.contains("hides"), "{msg}");
    let split = load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "HIDDEN", split = true, asserts = ["NOT_C_IN_AB"] }]"#,
    );
    assert!(split.is_ok(), "{split:?}");
    let msg = bad_case(load(
        &dir,
        r#"components = [{ fsp = "m.lts", target = "PRIO", asserts = ["NOT_C_IN_AB"] }]"#,
    ));
    assert!(msg.contains("priority"), "{msg}");
}
