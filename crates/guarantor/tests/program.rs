//! The abstraction + assume-guarantee loop on the dining philosophers of Chaki et al. 2004 (and a
//! variant without the lock, which violates the property): every compositional method configuration
//! used in docs/benchmarks.md gives the monolithic verdict, and a violation comes with a concrete
//! counterexample.

use guarantor::compose::Config;
use guarantor::predabs::{Program, ProgramVerdict};
use guarantor::program::check_program_with_options;
use guarantor::{MethodKind, MethodOptions};

include!("../../predabs/tests/shared/philosophers.rs");

/// The philosophers with the lock taken away: nothing stops all of them going right.
fn without_lock(n: usize) -> String {
    philosophers(n).replace("s0 -> s1 when lock == 0 do lock := 1;", "s0 -> s1;")
}

fn verdict(text: &str, method: MethodKind, weakest: bool) -> ProgramVerdict {
    let program = Program::parse(text, "philosophers.gc").unwrap();
    let mut options = MethodOptions::default();
    options.weakest = weakest;
    let report = check_program_with_options(
        &program,
        &guarantor::predabs::Config::new(),
        method,
        &options,
        &Config::default(),
    )
    .unwrap();
    report.predabs.verdict
}

#[test]
fn computed_weakest_assumptions_agree_with_the_monolithic_check_on_the_philosophers() {
    for n in 2..=5 {
        for text in [philosophers(n), without_lock(n)] {
            let mono = verdict(&text, MethodKind::Monolithic, false);
            let weakest = verdict(&text, MethodKind::LstarNway, true);
            assert_eq!(
                matches!(mono, ProgramVerdict::Holds),
                matches!(weakest, ProgramVerdict::Holds),
                "n = {n}: {mono:?} vs {weakest:?}"
            );
        }
        assert!(matches!(
            verdict(&philosophers(n), MethodKind::LstarNway, true),
            ProgramVerdict::Holds
        ));
        assert!(matches!(
            verdict(&without_lock(n), MethodKind::LstarNway, true),
            ProgramVerdict::Violated(_)
        ));
    }
}

/// Computed weakest assumptions get each group with its lock and fork context (a copy of each
/// shared process it uses, and the other groups projected onto that process's labels); the learned
/// ones get the plain groups.
#[test]
fn only_computed_assumptions_get_a_context() {
    let program = Program::parse(&philosophers(3), "philosophers.gc").unwrap();
    for (weakest, context) in [(true, true), (false, false)] {
        let mut options = MethodOptions::default();
        options.weakest = weakest;
        let report = check_program_with_options(
            &program,
            &guarantor::predabs::Config::new(),
            MethodKind::LstarNway,
            &options,
            &Config::default(),
        )
        .unwrap();
        let names = &report.last_check.components;
        assert_eq!(names.len(), 3);
        assert!(
            names.iter().all(|n| n.ends_with(" + context") == context),
            "{names:?}"
        );
    }
}
