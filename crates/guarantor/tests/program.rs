//! The abstraction + assume-guarantee loop on the dining philosophers of Chaki et al. 2004 (and a
//! variant without the lock, which violates the property): every compositional method configuration
//! used in docs/benchmarks.md gives the monolithic verdict, a violation comes with a concrete
//! counterexample, and a method of the user's own runs in the loop like a built-in one.

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

use guarantor::compose::Config;
use guarantor::compose::method::{Method, MethodError, MethodReport, Monolithic, Problem};
use guarantor::predabs::groups::Grouping;
use guarantor::predabs::{Program, ProgramVerdict};
use guarantor::program::{ProgramMethod, check_program_with_method};

include!("../../predabs/tests/shared/philosophers.rs");

/// The philosophers with the lock taken away: nothing stops all of them going right.
fn without_lock(n: usize) -> String {
    philosophers(n).replace("s0 -> s1 when lock == 0 do lock := 1;", "s0 -> s1;")
}

fn verdict(text: &str, method: &str) -> ProgramVerdict {
    let program = Program::parse(text, "philosophers.gc").unwrap();
    let method = ProgramMethod::named(method).expect("a built-in method");
    let report = check_program_with_method(
        &program,
        &guarantor::predabs::Config::new(),
        &method,
        &Config::default(),
    )
    .unwrap();
    report.predabs.verdict
}

#[test]
fn computed_weakest_assumptions_agree_with_the_monolithic_check_on_the_philosophers() {
    for n in 2..=5 {
        for text in [philosophers(n), without_lock(n)] {
            let mono = verdict(&text, "mono");
            let weakest = verdict(&text, "lstar-weakest");
            assert_eq!(
                matches!(mono, ProgramVerdict::Holds),
                matches!(weakest, ProgramVerdict::Holds),
                "n = {n}: {mono:?} vs {weakest:?}"
            );
        }
        assert!(matches!(
            verdict(&philosophers(n), "lstar-weakest"),
            ProgramVerdict::Holds
        ));
        assert!(matches!(
            verdict(&without_lock(n), "lstar-weakest"),
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
    for (method, context) in [("lstar-weakest", true), ("lstar-nway", false)] {
        let report = check_program_with_method(
            &program,
            &guarantor::predabs::Config::new(),
            &ProgramMethod::named(method).unwrap(),
            &Config::default(),
        )
        .unwrap();
        let names = &report.last_check.components;
        assert_eq!(names.len(), 3);
        assert!(
            names.iter().all(|n| n.ends_with(" + context") == context),
            "{method}: {names:?}"
        );
    }
}

/// A method of the user's own: the monolithic check, counting how often it is asked.
#[derive(Debug, Default)]
struct Counting {
    calls: AtomicUsize,
}

impl Method for Counting {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("counting")
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        Monolithic::new().check(problem, config)
    }
}

#[test]
fn a_users_method_checks_every_abstract_system() {
    let program = Program::parse(&without_lock(3), "philosophers.gc").unwrap();
    let counting = std::sync::Arc::new(Counting::default());
    let method = ProgramMethod::new(std::sync::Arc::clone(&counting));
    let report = check_program_with_method(
        &program,
        &guarantor::predabs::Config::new(),
        &method,
        &Config::default(),
    )
    .unwrap();
    assert!(matches!(
        report.predabs.verdict,
        ProgramVerdict::Violated(_)
    ));
    assert_eq!(counting.calls.load(Ordering::Relaxed), report.checks);
    assert!(report.checks >= 1);
    // Grouped by default: one component per program component.
    assert_eq!(report.last_check.components.len(), 3);
    // Ungrouped, the shared predicates' processes are components of their own.
    let separate = ProgramMethod::new(Counting::default()).with_grouping(Grouping::Separate);
    let report = check_program_with_method(
        &program,
        &guarantor::predabs::Config::new(),
        &separate,
        &Config::default(),
    )
    .unwrap();
    assert!(report.last_check.components.len() > 3);
}
