//! Embedding the checker in an analyser of your own: load a model from FSP text, bound the check,
//! run it on a worker thread that another thread can cancel, and act on each way it can end.
//!
//! What it shows, in order (each step asserts its outcome, so the example fails if the behaviour
//! changes):
//!
//! 1. [`Checker::from_fsp_str`] loads a model; budgets go in a [`Config`]
//!    (`with_max_states`, `with_timeout`) given with [`Checker::config`].
//! 2. `holds`: two users of a lock keep mutual exclusion.
//! 3. `violated`: without the lock they do not; the counterexample is a trace, and its
//!    [`Violation`] names the property (or the component that reached `ERROR`) by index, in the
//!    order of [`Checker::properties`] (or [`Checker::components`]).
//! 4. A budget error: a state space larger than `max_states` ends in an error for which
//!    [`CheckError::is_budget`] holds, and [`CheckError::budget_kind`] says which budget; a
//!    timeout the same way.
//! 5. Cancellation: the check runs on a worker thread with a cancel flag ([`Config::with_cancel`])
//!    and a [`Monitor`] ([`Config::with_monitor`]); the main thread reads the monitor's progress
//!    and, once the search has gone far enough, raises the flag. The check stops with a budget
//!    error that says it was cancelled.
//!
//! Run it with `cargo run -p guarantor --example embedding`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use guarantor::compose::{Config, Monitor, Verdict, Violation};
use guarantor::{BudgetKind, CheckError, Checker};

/// Two users of a printer, with and without a lock, and the property that they never print at
/// the same time. `||LOCKED` holds, `||UNLOCKED` does not.
const PRINTERS: &str = "
    LOCK = (a.acquire -> a.release -> LOCK | b.acquire -> b.release -> LOCK).
    USER = (acquire -> start -> stop -> release -> USER).
    LONER = (start -> stop -> LONER).
    property MUTEX = (a.start -> a.stop -> MUTEX | b.start -> b.stop -> MUTEX).
    ||LOCKED = (a:USER || b:USER || LOCK || MUTEX).
    ||UNLOCKED = (a:LONER || b:LONER || MUTEX).
";

/// Six independent counters of 30 steps each: 30^6 = 729 million states, far more than any check
/// below is allowed to explore, so each of those ends on its budget.
const COUNTERS: &str = "
    const M = 30
    range R = 0..M-1
    COUNTER = C[0], C[i:R] = (tick -> C[(i + 1) % M]).
    property NEVER_OVER = (over -> NEVER_OVER).
    ||SYS = (c[1..6]:COUNTER || NEVER_OVER).
";

/// Runs `checker` and describes how it ended, the way an analyser would report it.
fn report(checker: &Checker) -> Result<Verdict, CheckError> {
    let outcome = checker.check()?;
    match &outcome.verdict {
        Verdict::Holds(_) => println!(
            "  holds ({} states, method {})",
            outcome.states, outcome.method
        ),
        Verdict::Violated(cex) => {
            // "property MUTEX", "ERROR in P", "deadlock": the violation named, in one call.
            let culprit = checker.describe(&cex.violation);
            println!("  violated: {culprit}, trace {}", cex.trace.join(" -> "));
        }
        // `Verdict` is #[non_exhaustive] too.
        other => println!("  {other:?}"),
    }
    Ok(outcome.verdict)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Budgets an analyser might give every check: about 48 MB of states, ten seconds.
    let budget = Config::default()
        .with_max_states(1_000_000)
        .with_timeout(Duration::from_secs(10));

    println!("LOCKED:");
    let locked = Checker::from_fsp_str(PRINTERS, Some("LOCKED"))?.config(budget.clone());
    assert!(report(&locked)?.is_holds());

    println!("UNLOCKED:");
    let unlocked = Checker::from_fsp_str(PRINTERS, Some("UNLOCKED"))?.config(budget.clone());
    let verdict = report(&unlocked)?;
    let cex = verdict.counterexample().expect("a counterexample");
    // The shortest run: both start printing (in either order).
    let mut steps = cex.trace.clone();
    steps.sort();
    assert_eq!(steps, ["a.start", "b.start"]);
    let Violation::Property { property } = cex.violation else {
        panic!("expected a property violation, got {:?}", cex.violation);
    };
    assert_eq!(unlocked.property_name(property), "MUTEX");

    println!("COUNTERS with at most 100,000 states:");
    let small =
        Checker::from_fsp_str(COUNTERS, None)?.config(Config::default().with_max_states(100_000));
    let err = report(&small).expect_err("729 million states do not fit in 100,000");
    println!("  budget: {err}");
    // Which budget ran out is a typed answer, whichever method or crate stopped.
    assert_eq!(err.budget_kind(), Some(BudgetKind::States));

    println!("COUNTERS within 50 ms:");
    let quick = Checker::from_fsp_str(COUNTERS, None)?
        .config(Config::default().with_timeout(Duration::from_millis(50)));
    let err = report(&quick).expect_err("729 million states take longer than 50 ms");
    println!("  budget: {err}");
    assert_eq!(err.budget_kind(), Some(BudgetKind::Time));

    println!("COUNTERS on a worker thread, cancelled from here:");
    let cancel = Arc::new(AtomicBool::new(false));
    let monitor = Arc::new(Monitor::new());
    // The state limit stays as a safety net: the flag, not the limit, must end this one.
    let config = budget
        .with_max_states(50_000_000)
        .with_timeout(Duration::from_secs(60))
        .with_cancel(Arc::clone(&cancel))
        .with_monitor(Arc::clone(&monitor));
    let big = Checker::from_fsp_str(COUNTERS, None)?.config(config);
    let worker = thread::spawn(move || report(&big));
    // An analyser's UI thread: show progress, and give up once the search has gone far enough
    // (here 200,000 states; a user pressing "stop" would do the same).
    loop {
        thread::sleep(Duration::from_millis(20));
        let seen = monitor.snapshot();
        if seen.states_explored >= 200_000 {
            println!("  {} states explored: cancelling", seen.states_explored);
            cancel.store(true, Ordering::Relaxed);
            break;
        }
        assert!(
            !worker.is_finished(),
            "the check ended before it was cancelled"
        );
    }
    let err = worker
        .join()
        .expect("the worker does not panic")
        .expect_err("a cancelled check has no verdict");
    println!("  budget: {err}");
    assert_eq!(err.budget_kind(), Some(BudgetKind::Cancelled));
    Ok(())
}
