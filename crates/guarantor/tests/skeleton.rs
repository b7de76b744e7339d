//! Proof skeletons expanded into certificates (`guarantor::skeleton`): a skeleton whose
//! assumptions are a method's own gives exactly the certificate that method's verdict gives
//! (rules asym, asym-n, sym, circ), hand-written ones are accepted or rejected by the premise
//! expected, and bad skeletons are errors that say where.

use std::path::{Path, PathBuf};

use guarantor::CheckError;
use guarantor::certify::Rejection;
use guarantor::certify::format::{Guarantee, Premise, Rule};
use guarantor::certify::skeleton::{Skeleton, SkeletonAssumption};
use guarantor::compose::Verdict;
use guarantor::compose::ag::safety_assumption;
use guarantor::lts::io::aut::{AutWriteOptions, parse_aut, to_aut_string};
use guarantor::skeleton::SkeletonFile;
use guarantor::{Checker, MethodKind};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("guarantor-skeleton-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn aut(text: &str) -> guarantor::lts::Lts {
    parse_aut(text).unwrap()
}

/// Cobleigh et al.'s Input || Output |= Order.
fn order() -> Checker {
    Checker::new()
        .component(
            "Input",
            aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n"),
        )
        .component(
            "Output",
            aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n"),
        )
        .property(
            "Order",
            aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n"),
        )
}

/// The same with a channel between them: three components, for the chain of asym-n.
fn relay() -> Checker {
    Checker::new()
        .component(
            "Input",
            aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n"),
        )
        .component(
            "Channel",
            aut("des (0, 3, 3)\n(0, send, 1)\n(1, deliver, 2)\n(2, ack, 0)\n"),
        )
        .component(
            "Output",
            aut("des (0, 3, 3)\n(0, deliver, 1)\n(1, output, 2)\n(2, ack, 0)\n"),
        )
        .property(
            "Order",
            aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n"),
        )
}

/// Writes `skeleton` (and nothing else) as `dir/skeleton.json` and reads it back.
fn file_of(dir: &Path, skeleton: &Skeleton) -> SkeletonFile {
    let path = dir.join("skeleton.json");
    std::fs::write(&path, skeleton.to_json().unwrap()).unwrap();
    SkeletonFile::read(&path).unwrap()
}

#[test]
fn a_skeleton_of_a_methods_assumptions_is_that_methods_certificate() {
    for (model, method) in [
        (order(), MethodKind::Lstar),
        (relay(), MethodKind::LstarNway),
        (order(), MethodKind::LstarSym),
        (order(), MethodKind::Circ),
        (relay(), MethodKind::Circ),
    ] {
        let checker = model.method(method);
        let outcome = checker.check().unwrap();
        let expected = checker.certificate(&outcome).unwrap();
        let Verdict::Holds(found) = &outcome.verdict else {
            panic!("{method:?}: the model holds");
        };
        // Each assumption as the user would write it: an .aut file of its safety reading.
        let dir = scratch(&format!("{method:?}-{}", checker.components().len()));
        let mut skeleton = Skeleton::new(expected.rule);
        for (i, (a, named)) in found
            .assumptions
            .iter()
            .zip(&expected.assumptions)
            .enumerate()
        {
            let file = format!("A{i}.aut");
            let text = to_aut_string(
                &safety_assumption(&a.lts).unwrap(),
                &AutWriteOptions::default(),
            );
            std::fs::write(dir.join(&file), text).unwrap();
            skeleton =
                skeleton.with_assumption(SkeletonAssumption::aut(named.components.clone(), file));
        }
        let certificate = checker
            .skeleton_certificate(&file_of(&dir, &skeleton), None)
            .unwrap();
        assert!(
            checker.verify(&certificate).unwrap().is_accepted(),
            "{method:?}"
        );
        assert_eq!(certificate.premises, expected.premises, "{method:?}");
        // The same up to the order of each alphabet and transition list (an .aut file lists
        // them as they come).
        let sorted = |mut c: guarantor::certify::Certificate| {
            for a in &mut c.assumptions {
                a.alphabet.sort();
                a.lts.transitions.sort();
            }
            c
        };
        assert_eq!(sorted(certificate), sorted(expected), "{method:?}");
    }
}

#[test]
fn the_papers_assumption_proves_order_and_its_first_conjecture_does_not() {
    let dir = scratch("paper");
    let checker = order();
    // A2 (Fig. 7): what Input needs from Output.
    std::fs::write(
        dir.join("a2.lts"),
        "A2 = (send -> SENT | ack -> A2),\nSENT = (output -> A2 | send -> A2).\n\
         A1 = (send -> A1 | ack -> A1) + {output}.\n",
    )
    .unwrap();
    let skeleton = |process: &str| {
        Skeleton::new(Rule::Asym).with_assumption(SkeletonAssumption::process(
            vec!["Output".into()],
            process,
            Some("a2.lts".into()),
        ))
    };
    let cert = checker
        .skeleton_certificate(&file_of(&dir, &skeleton("A2")), None)
        .unwrap();
    assert_eq!(
        cert.premises,
        [
            Premise::Triple {
                assumptions: vec![0],
                components: vec!["Input".into()],
                guarantee: Guarantee::Properties(vec!["Order".into()]),
            },
            Premise::Triple {
                assumptions: vec![],
                components: vec!["Output".into()],
                guarantee: Guarantee::Assumption(0),
            },
        ]
    );
    let mut alphabet = cert.assumptions[0].alphabet.clone();
    alphabet.sort();
    assert_eq!(alphabet, ["ack", "output", "send"]);
    assert!(checker.verify(&cert).unwrap().is_accepted());

    // A1 (Fig. 6): too weak, and the paper's Oracle 1 counterexample is the premise's own.
    let cert = checker
        .skeleton_certificate(&file_of(&dir, &skeleton("A1")), None)
        .unwrap();
    let report = checker.verify(&cert).unwrap();
    let Some(Rejection::Premise { index, trace, .. }) = report.rejection() else {
        panic!("a premise fails: {report:?}");
    };
    assert_eq!(*index, 0);
    assert_eq!(
        trace.as_deref(),
        Some(&["input", "send", "ack", "input"].map(String::from)[..])
    );
}

#[test]
fn processes_come_from_the_models_fsp_file_unless_one_is_named() {
    let dir = scratch("model-fsp");
    let model = dir.join("order.lts");
    std::fs::write(
        &model,
        "INPUT = (input -> send -> ack -> INPUT).\n\
         OUTPUT = (send -> output -> ack -> OUTPUT).\n\
         property ORDER = (input -> output -> ORDER).\n\
         A = (send -> output -> ack -> A).\n\
         ||SYS = (INPUT || OUTPUT || ORDER).\n",
    )
    .unwrap();
    let system = guarantor::model::load_fsp(&model, None).unwrap();
    let checker = Checker::from_fsp(&system, &guarantor::compose::Config::default()).unwrap();
    let skeleton = Skeleton::new(Rule::Asym).with_assumption(SkeletonAssumption::process(
        vec!["OUTPUT".into()],
        "A",
        None,
    ));
    let file = file_of(&dir, &skeleton);
    let cert = checker.skeleton_certificate(&file, Some(&model)).unwrap();
    assert!(checker.verify(&cert).unwrap().is_accepted());
    // Without the model's file there is nowhere to look.
    let err = checker.skeleton_certificate(&file, None).unwrap_err();
    assert!(err.to_string().contains("needs \"fsp\""), "{err}");
}

#[test]
fn bad_skeletons_are_errors_that_say_where() {
    let dir = scratch("bad");
    let checker = order();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    std::fs::write(
        dir.join("a.aut"),
        "des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n",
    )
    .unwrap();

    // An unknown rule: the JSON's own place.
    let err = SkeletonFile::read(&write("rule.json", "{\n  \"rule\": \"nope\"\n}\n")).unwrap_err();
    let CheckError::SkeletonSyntax { line, column, .. } = err else {
        panic!("{err:?}");
    };
    assert_eq!((line, column), (2, 16)); // the end of "nope"

    // An unknown component, placed at its name.
    let file = SkeletonFile::read(&write(
        "component.json",
        "{\"rule\": \"asym\",\n \"assumptions\": [{\"components\": [\"Outptu\"], \"aut\": \"a.aut\"}]}",
    ))
    .unwrap();
    let err = checker.skeleton_certificate(&file, None).unwrap_err();
    let loc = err.location().unwrap();
    assert_eq!((loc.line, loc.column), (Some(2), Some(34)), "{err}"); // its opening quote
    assert!(err.to_string().contains("no component \"Outptu\""), "{err}");

    // A process the file does not define.
    write("a.lts", "A = (send -> A).\n");
    let file = SkeletonFile::read(&write(
        "process.json",
        r#"{"rule": "asym", "assumptions": [{"components": ["Output"], "process": "B", "fsp": "a.lts"}]}"#,
    ))
    .unwrap();
    let err = checker.skeleton_certificate(&file, None).unwrap_err();
    assert!(err.to_string().contains("no process \"B\""), "{err}");
    assert!(err.to_string().contains("(processes: A)"), "{err}");

    // A missing .aut file and a malformed one: the assumption's own file is the place.
    for (aut, expect) in [("missing.aut", None), ("bad.aut", Some((2, 11)))] {
        write("bad.aut", "des (0, 1, 2)\n(0, send 1)\n");
        let file = SkeletonFile::read(&write(
            "aut.json",
            &format!(
                r#"{{"rule": "asym", "assumptions": [{{"components": ["Output"], "aut": "{aut}"}}]}}"#
            ),
        ))
        .unwrap();
        let err = checker.skeleton_certificate(&file, None).unwrap_err();
        assert!(
            matches!(err, CheckError::SkeletonLoad { index: 0, .. }),
            "{err:?}"
        );
        let loc = err.location().unwrap();
        assert!(loc.file.ends_with(aut), "{loc:?}");
        assert_eq!(loc.line.zip(loc.column), expect, "{loc:?}");
    }

    // Rules a skeleton cannot use, and wrong counts.
    for (rule, count) in [
        ("quotient", 1),
        ("program", 1),
        ("asym", 2),
        ("mono", 1),
        ("sym", 0),
    ] {
        let assumptions = vec![r#"{"components": ["Output"], "aut": "a.aut"}"#; count].join(",");
        let file = SkeletonFile::read(&write(
            "count.json",
            &format!(r#"{{"rule": "{rule}", "assumptions": [{assumptions}]}}"#),
        ))
        .unwrap();
        let err = checker.skeleton_certificate(&file, None).unwrap_err();
        assert!(
            matches!(err, CheckError::SkeletonRule { .. }),
            "{rule}: {err:?}"
        );
    }

    // Assumptions that do not fit the rule.
    let file = SkeletonFile::read(&write(
        "fit.json",
        r#"{"rule": "asym", "assumptions": [{"components": ["Input", "Output"], "aut": "a.aut"}]}"#,
    ))
    .unwrap();
    let err = checker.skeleton_certificate(&file, None).unwrap_err();
    assert!(
        matches!(err, CheckError::SkeletonCertificate { .. }),
        "{err:?}"
    );
}

#[test]
fn a_mono_skeleton_is_the_monolithic_certificate() {
    let dir = scratch("mono");
    let checker = order();
    let cert = checker
        .skeleton_certificate(&file_of(&dir, &Skeleton::new(Rule::Mono)), None)
        .unwrap();
    assert_eq!(cert.premises, [Premise::Monolithic]);
    assert!(checker.verify(&cert).unwrap().is_accepted());
}
