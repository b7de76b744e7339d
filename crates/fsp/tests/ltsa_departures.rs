//! Issue 16: the corners where the front end departed from LTSA, each pinned with LTSA's own
//! figure (states and transitions as LTSA's Compile/Compose reports them, its verdict, or the
//! gist of its error message).

fn parse(src: &str) -> guarantor_fsp::Model {
    guarantor_fsp::parse(src, "t.lts").unwrap()
}

/// `progress`, `assert`, `fluent` (and the other definitions LTSA checks but we do not) are
/// listed on the system, so a verdict can say what it did not check.
#[test]
fn unchecked_definitions_are_listed() {
    let model = parse(
        "P = (a -> b -> P).\nprogress A = {a}\nfluent F = <a, b>\nassert X = []F\n||S = (P).",
    );
    let names: Vec<String> = model.unchecked().iter().map(ToString::to_string).collect();
    assert_eq!(names, ["progress A", "fluent F", "assert X"]);
    let sys = model.elaborate("S").unwrap();
    assert_eq!(sys.unchecked.len(), 3);
    assert_eq!(sys.unchecked[1].location.line, 3);
}
