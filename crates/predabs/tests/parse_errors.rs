//! Located parse errors, snapshotted: one bad input per message kind.

use guarantor_predabs::Program;

fn error(src: &str) -> String {
    Program::parse(src, "bad.gc")
        .expect_err("input must be rejected")
        .to_string()
}

#[test]
fn missing_semicolon() {
    insta::assert_snapshot!(error("global x: int = 0\ncomponent C { loc a; }\n"));
}

#[test]
fn unknown_variable() {
    insta::assert_snapshot!(error("component C {\n  loc a;\n  a -> a when y > 0;\n}\n"));
}

#[test]
fn unknown_location() {
    insta::assert_snapshot!(error("component C {\n  loc a;\n  a -> b;\n}\n"));
}

#[test]
fn nonlinear_multiplication() {
    insta::assert_snapshot!(error(
        "component C {\n  var x: int;\n  loc a;\n  a -> a do x := x * x;\n}\n"
    ));
}

#[test]
fn type_mismatch() {
    insta::assert_snapshot!(error(
        "component C {\n  var b: bool;\n  loc a;\n  a -> a do b := 1 + 2;\n}\n"
    ));
}

#[test]
fn literal_too_large() {
    insta::assert_snapshot!(error(
        "global x: int = 999999999999999999999999999999999999999999;\n"
    ));
}

#[test]
fn constant_overflow() {
    insta::assert_snapshot!(error(
        "component C {\n  var x: int;\n  loc a;\n  a -> a when x < 170141183460469231731687303715884105727 + 1;\n}\n"
    ));
}

#[test]
fn nondeterministic_property() {
    insta::assert_snapshot!(error(
        "property P {\n  s0 -> s1 on a;\n  s0 -> s2 on a;\n}\n"
    ));
}

#[test]
fn assigned_twice() {
    insta::assert_snapshot!(error(
        "component C {\n  var x: int;\n  loc a;\n  a -> a do x := 1, x := 2;\n}\n"
    ));
}

#[test]
fn unexpected_character() {
    insta::assert_snapshot!(error(
        "component C {\n  loc a;\n  a -> a when 1 % 2 == 0;\n}\n"
    ));
}

#[test]
fn never_panics_on_garbage() {
    // Every prefix of a valid program is either accepted or rejected with a located error.
    let src = std::fs::read_to_string(format!(
        "{}/tests/data/bakery.gc",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for cut in 0..src.len() {
        if src.is_char_boundary(cut)
            && let Err(e) = Program::parse(&src[..cut], "cut.gc")
        {
            assert!(e.line >= 1 && e.col >= 1);
        }
    }
}

#[test]
fn mixed_local_and_global_predicate() {
    insta::assert_snapshot!(error(
        "global g: int = 0;\ncomponent C {\n  var x: int = 0;\n  pred x <= g;\n  loc a;\n}\n"
    ));
}
