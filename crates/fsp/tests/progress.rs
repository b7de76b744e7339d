//! `progress` definitions: parsed and elaborated into `ProgressTest`s (LTSA's forms: a set, a
//! conditional `if C then A`, an indexed test `P[i:R]` giving `P.v`), and no longer warned about.

use guarantor_fsp::{ProgressTest, parse};

#[test]
fn the_three_forms_elaborate_as_ltsa_names_them() {
    let src = "const N = 2\nrange R = 1..N\nset S = {x, y}\n\
               progress A = {a, b.c}\n\
               progress C = if {c[1], b[2]} then {a[1], d[2]}\n\
               progress P[i:R] = {p[i], q[i]}\n\
               progress READ[i:R] = reader[i].acquire\n\
               progress T = S\n\
               P = (a -> P).";
    let model = parse(src, "p.lts").unwrap();
    let tests = model.progress_tests();
    let want = [
        ProgressTest::new("A", ["a", "b.c"]),
        ProgressTest::new("C", ["a.1", "d.2"]).with_condition(["c.1", "b.2"]),
        ProgressTest::new("P.1", ["p.1", "q.1"]),
        ProgressTest::new("P.2", ["p.2", "q.2"]),
        ProgressTest::new("READ.1", ["reader.1.acquire"]),
        ProgressTest::new("READ.2", ["reader.2.acquire"]),
        ProgressTest::new("T", ["x", "y"]),
    ];
    assert_eq!(tests, want);
    // Not ignored any more, but still not checked by a safety check.
    assert!(
        model
            .warnings()
            .iter()
            .all(|w| !w.message.contains("progress"))
    );
    let system = model.elaborate("P").unwrap();
    assert_eq!(system.progress, want);
    assert_eq!(system.unchecked.len(), 5);
}

#[test]
fn a_duplicate_test_and_an_undefined_range_are_located_errors() {
    let err = parse("progress A = {a}\nprogress A = {b}\nP = (a -> P).", "d.lts").unwrap_err();
    assert!(err.to_string().contains("d.lts:2:1"), "{err}");
    assert!(err.to_string().contains("defined twice"), "{err}");
    let err = parse("progress A[i:R] = {a[i]}\nP = (a -> P).", "r.lts").unwrap_err();
    assert!(err.to_string().contains("r.lts:1"), "{err}");
    let err = parse("progress A = if {a} {b}\nP = (a -> P).", "t.lts").unwrap_err();
    assert!(err.to_string().contains("'then'"), "{err}");
}

#[test]
fn every_shared_model_with_progress_tests_parses() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = 0;
    let mut stack = vec![data];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let model = path.extension().is_some_and(|e| e == "lts" || e == "fsp");
            let Some(src) = model.then(|| std::fs::read_to_string(&path).ok()).flatten() else {
                continue;
            };
            if !src.lines().any(|l| l.trim_start().starts_with("progress ")) {
                continue;
            }
            let model = parse(&src, &path.display().to_string())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!model.progress_tests().is_empty(), "{}", path.display());
            files += 1;
        }
    }
    assert!(files >= 10, "only {files} files with progress tests");
}
