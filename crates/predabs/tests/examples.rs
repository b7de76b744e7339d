//! End-to-end examples: the bakery algorithm (holds; a planted bug gives a concrete, replaying
//! counterexample), a counter needing refinement, dining philosophers.

use guarantor_predabs::concrete::{replay, violates};
use guarantor_predabs::{Abstraction, Config, Program, ProgramVerdict, check_cegar};

fn load(name: &str) -> Program {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    Program::parse(&src, name).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn bakery_is_mutually_exclusive() {
    let sys = load("bakery.gc");
    // Elimination gives the same abstraction as Exact with ~100x the prover calls; see the ignored
    // test below.
    for mode in [Abstraction::Exact, Abstraction::Cartesian { max_cube: 3 }] {
        let report = check_cegar(&sys, &Config::default().with_mode(mode)).unwrap();
        assert_eq!(report.verdict, ProgramVerdict::Holds, "{mode:?}");
        eprintln!(
            "{mode:?}: {} iterations, {} predicates, prover {:?}",
            report.iterations,
            report.predicates.len(),
            report.stats.prover
        );
    }
}

#[test]
fn buggy_bakery_has_a_concrete_counterexample() {
    let sys = load("bakery_bug.gc");
    let report = check_cegar(&sys, &Config::default()).unwrap();
    let ProgramVerdict::Violated(trace) = &report.verdict else {
        panic!("expected a violation")
    };
    replay(&sys, trace).unwrap();
    assert!(violates(&sys, trace));
    eprintln!("{}", trace.display(&sys));
}

#[test]
#[ignore = "slow in debug builds (about 25,000 prover calls); run with --ignored"]
fn bakery_with_elimination_matches_exact() {
    let sys = load("bakery.gc");
    let exact = check_cegar(&sys, &Config::default()).unwrap();
    let elim = check_cegar(&sys, &Config::default().with_mode(Abstraction::Elimination)).unwrap();
    assert_eq!(elim.verdict, ProgramVerdict::Holds);
    assert_eq!(
        exact.abstraction.abstract_states(),
        elim.abstraction.abstract_states()
    );
}

include!("shared/philosophers.rs");

#[test]
fn philosophers_hold_for_small_n() {
    for n in 2..=4 {
        let sys =
            Program::parse(&philosophers(n), "philosophers.gc").unwrap_or_else(|e| panic!("{e}"));
        let report = check_cegar(&sys, &Config::default()).unwrap();
        assert_eq!(report.verdict, ProgramVerdict::Holds, "n = {n}");
        // The explicit concrete search agrees (forks and lock stay in {0, 1}).
        let explicit = guarantor_predabs::concrete::check_explicit(&sys, 0..=1, 1_000_000).unwrap();
        assert!(explicit.counterexample.is_none());
    }
}

#[test]
fn philosophers_without_the_lock_violate() {
    // Dropping the lock acquisition lets everybody take the left fork and go right.
    let src = philosophers(3).replace("s0 -> s1 when lock == 0 do lock := 1;", "s0 -> s1;");
    let sys = Program::parse(&src, "nolock.gc").unwrap();
    let report = check_cegar(&sys, &Config::default()).unwrap();
    let ProgramVerdict::Violated(trace) = &report.verdict else {
        panic!("expected a violation")
    };
    replay(&sys, trace).unwrap();
    assert!(violates(&sys, trace));
}

#[test]
fn bakery_with_z3_backend() {
    if !guarantor_predabs::prover::SmtLibProver::on_path("z3") {
        eprintln!("skipped: no z3 on PATH (apt-get install z3)");
        return;
    }
    let z3 = guarantor_predabs::Backend::SmtLib(vec!["z3".into(), "-in".into(), "-smt2".into()]);
    let report = check_cegar(
        &load("bakery.gc"),
        &Config::default().with_backend(z3.clone()),
    )
    .unwrap();
    assert_eq!(report.verdict, ProgramVerdict::Holds);
    let sys = load("bakery_bug.gc");
    let report = check_cegar(&sys, &Config::default().with_backend(z3)).unwrap();
    let ProgramVerdict::Violated(trace) = &report.verdict else {
        panic!("expected a violation")
    };
    replay(&sys, trace).unwrap();
}

#[test]
fn counter_needs_refinement() {
    // x counts to 10; the error needs x == 11, which the guards alone do not rule out.
    let src = "component C {\n var x: int = 0;\n loc run, bad;\n error bad;\n\
               run -> run when x < 10 do x := x + 1;\n run -> bad when x == 11;\n}\n";
    let sys = Program::parse(src, "counter.gc").unwrap();
    let report = check_cegar(&sys, &Config::default()).unwrap();
    assert_eq!(report.verdict, ProgramVerdict::Holds);
    // and with x == 10 the error is reachable, with concrete values
    let sys = Program::parse(&src.replace("x == 11", "x == 10"), "counter.gc").unwrap();
    let report = check_cegar(&sys, &Config::default()).unwrap();
    let ProgramVerdict::Violated(trace) = &report.verdict else {
        panic!("expected a violation")
    };
    assert_eq!(trace.steps.len(), 11);
    replay(&sys, trace).unwrap();
}

#[test]
fn mixed_predicates_are_rejected_or_reported() {
    let src = "global g: int = 20;\ncomponent C {\n var x: int = 0;\n loc run, bad;\n error bad;\n\
               run -> run when x <= g && x < 10 do x := x + 1;\n run -> bad when x == 11;\n}\n";
    let sys = Program::parse(src, "mixed.gc").unwrap();
    // A user predicate mixing C's local x with the global g is a typed error, not ignored.
    let x_le_g = Program::parse(
        &src.replace("loc run", "pred x <= 2 * g;\n loc run"),
        "m.gc",
    )
    .map(|_| ())
    .unwrap_err();
    assert!(x_le_g.to_string().contains("mixes"), "{x_le_g}");
    let x_le_g = sys.components[0].transitions[0].guard.clone();
    let err = check_cegar(&sys, &Config::default().with_predicates(vec![x_le_g])).unwrap_err();
    assert!(
        matches!(err, guarantor_predabs::PredabsError::MixedPredicate { ref component, .. } if component == "C"),
        "{err}"
    );
    // The same atom in a guard is used exactly by the prover but not tracked; the report says so.
    let report = check_cegar(&sys, &Config::default()).unwrap();
    assert_eq!(report.verdict, ProgramVerdict::Holds);
    let skipped: Vec<String> = report
        .predicates
        .skipped
        .iter()
        .map(|f| sys.show(f))
        .collect();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(
        skipped[0].contains('x') && skipped[0].contains('g'),
        "{skipped:?}"
    );
}
