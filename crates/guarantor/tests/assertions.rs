//! Fluent LTL assertions through the facade (issue 16): LTSA's priority defect pinned with the
//! right answer, safety assertions checked by every built-in method with the monolithic verdict,
//! lassos that replay.

use guarantor::assertion::{LtlVerdict, assertion_of};
use guarantor::compose::Config;
use guarantor::{Checker, MethodKind, model};

fn system(src: &str, target: &str) -> guarantor::fsp::System {
    model::parse_fsp(src, "t.lts", Some(target)).unwrap()
}

/// LTSA says `B` holds: under `<<` its LTL automaton stops following `b`. With `a` preferred, `b`
/// never occurs, so `[]<>b` is violated; without the priority fair choice makes `b` recur.
#[test]
fn ltsa_priority_defect() {
    let src = "P = (a->P | b->P).\n||S = P << {a}.\n||F = (P).\nassert B = []<>b\n";
    let s = system(src, "S");
    let checker = Checker::from_fsp(&s, &Config::default()).unwrap();
    let out = checker
        .check_assertion("B", &assertion_of(&s, "B").unwrap())
        .unwrap();
    assert!(!out.safety);
    match out.verdict {
        LtlVerdict::Violated(lasso) => assert_eq!(lasso.cycle, ["a"]),
        other => panic!("expected a violation, got {other:?}"),
    }
    let f = system(src, "F");
    let checker = Checker::from_fsp(&f, &Config::default()).unwrap();
    assert!(
        checker
            .check_assertion("B", &assertion_of(&f, "B").unwrap())
            .unwrap()
            .holds()
    );
}

const MUTEX: &str = "
const N = 3
LOOP = (mutex.down -> enter -> exit -> mutex.up -> LOOP).
SEMAPHORE(I=1) = SEMA[I],
SEMA[v:0..2] = (up -> SEMA[v+1] | when (v > 0) down -> SEMA[v-1]).
||ONE = (p[1..N]:LOOP || {p[1..N]}::mutex:SEMAPHORE(1)).
||TWO = (p[1..N]:LOOP || {p[1..N]}::mutex:SEMAPHORE(2)).
fluent CRIT[i:1..N] = <p[i].enter, p[i].exit>
assert MUTEX = []!(exists[i:1..N-1] (CRIT[i] && CRIT[i+1..N]))
assert NEXT = [](p[1].enter -> X p[1].exit)
";

/// A safety assertion becomes a property: every built-in method gives the monolithic verdict.
#[test]
fn every_method_checks_safety_assertions() {
    for (target, holds) in [("ONE", true), ("TWO", false)] {
        let s = system(MUTEX, target);
        for name in ["MUTEX", "NEXT"] {
            let ltl = assertion_of(&s, name).unwrap();
            // Every action is a step of the formula's word, as in LTSA: in TWO another process
            // can move between p.1.enter and p.1.exit, so NEXT fails there as MUTEX does.
            let expected = holds;
            for (kind, m) in MethodKind::all() {
                let checker = Checker::from_fsp(&s, &Config::default())
                    .unwrap()
                    .method(kind);
                let out = checker.check_assertion(name, &ltl).unwrap();
                assert!(out.safety);
                assert_eq!(
                    out.holds(),
                    expected,
                    "{target} {name} with {m}: {:?}",
                    out.verdict
                );
            }
        }
    }
}

/// LTSA's `constraint`: a safety formula named in a composite is composed as a process that
/// blocks what the formula forbids.
#[test]
fn constraints_restrict_the_system() {
    let src = "P = (a -> P | b -> P).\nconstraint NOB = []!b\nconstraint LIVE = []<>b\n\
               assert NEVERB = []!b\n||S = (P || NOB).\n||T = (P).\n||U = (P || LIVE).\n";
    let s = system(src, "S");
    assert_eq!(s.constraints, ["NOB"]);
    let checker = Checker::from_fsp(&s, &Config::default()).unwrap();
    let ltl = assertion_of(&s, "NEVERB").unwrap();
    assert!(checker.check_assertion("NEVERB", &ltl).unwrap().holds());
    let t = system(src, "T");
    let checker = Checker::from_fsp(&t, &Config::default()).unwrap();
    assert!(!checker.check_assertion("NEVERB", &ltl).unwrap().holds());
    // LTSA: "LTL constraint must be safety".
    let u = system(src, "U");
    let err = Checker::from_fsp(&u, &Config::default()).unwrap_err();
    assert!(err.to_string().contains("not a safety formula"), "{err}");
}
