//! The data-driven suite: every case of testdata/manifest.toml against every method.
//!
//! Every built-in method of `guarantor::registry::BUILTIN` runs, so a new method joins the suite by
//! itself, and so does the user-defined method of the facade's `custom_method` example (included
//! below: a method from outside the workspace's list runs here like the others); adding a model
//! means adding a case to the manifest (an FSP entry's `asserts` add the file's safety assertions
//! as properties, compiled by the facade: tests/assertions/mod.rs). Each pair runs twice, through the facade
//! (`Checker::with_method`) and directly on the method value (`Method::check` on the checker's
//! `Problem`), and each run checks the verdict and re-checks the evidence. Each (case, method) pair runs under a time budget; a pair that runs out must be listed
//! in the case's `slow` field (with the reason in the manifest), so that a method getting slower
//! fails the suite instead of hiding. A pair listed in `known_wrong` still runs: its wrong answer
//! is reported loudly, and the suite fails once it agrees again, so that the entry is removed.
//!
//! To look at a part while working on it, set `SUITE_METHODS` (comma-separated method names) and
//! `SUITE_CASES` (a substring of case names); the summary then says that the run was filtered. To
//! check the verdicts of the pairs listed as slow (say, in a release build), set `SUITE_SLOW=run`
//! (run them too) or `SUITE_SLOW=only`, and `SUITE_BUDGET_SECS` for a longer budget.
//!
//! Pairs run on a few threads; every failure is collected, and the test fails at the end with all
//! of them, after a per-method summary.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use std::sync::Arc;

use guarantor::compose::{Config, Verdict};
use guarantor::registry::BUILTIN;
use guarantor::{Checker, Method};
use guarantor_testkit::{Case, Expected, check_verdict_evidence, load_manifest};

/// The facade's example of a user-defined method, run by this suite as it stands.
#[allow(dead_code)] // its `main` is the example's, not ours
#[path = "../../guarantor/examples/custom_method.rs"]
mod custom_method;

/// Certificates of every verdict, re-checked by `guarantor-certify`, and their mutations.
mod certificates;

/// The entries' safety `asserts` compiled into property LTSs, as the facade compiles them.
mod assertions;

/// A method under test: its name (as the manifest's `slow` and `known_wrong` lists spell it) and
/// its value.
#[derive(Clone)]
struct Subject {
    name: String,
    method: Arc<dyn Method>,
}

/// Every built-in method, then the user-defined one.
fn subjects() -> Vec<Subject> {
    let mut all: Vec<Subject> = BUILTIN
        .iter()
        .map(|e| Subject {
            name: e.name.to_owned(),
            method: e.make(),
        })
        .collect();
    all.push(Subject {
        name: "minimised".to_owned(),
        method: Arc::new(custom_method::Minimised),
    });
    all
}

/// Per (case, method): generous for debug builds on a loaded 2-core machine.
const BUDGET: Duration = Duration::from_secs(20);

/// The budget of this run: [`BUDGET`] unless `SUITE_BUDGET_SECS` says otherwise.
fn budget() -> Duration {
    std::env::var("SUITE_BUDGET_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(BUDGET, Duration::from_secs)
}

/// What to do with pairs listed as slow: `SUITE_SLOW` = `run` (run them too) or `only`.
fn slow_mode() -> (bool, bool) {
    match std::env::var("SUITE_SLOW").as_deref() {
        Ok("run") => (true, true),
        Ok("only") => (true, false),
        _ => (false, true),
    }
}

/// How a (case, method) pair ended.
#[derive(Debug)]
enum Result {
    Pass(Duration),
    Slow,
    /// Listed in `known_wrong` and still wrong: what it gave.
    KnownWrong(String),
    Fail(String),
}

fn checker_for(case: &Case) -> Checker {
    let mut checker = Checker::new().config(Config::default().with_timeout(budget()));
    for (name, lts) in &case.components {
        checker = checker.component(name.clone(), lts.clone());
    }
    for (name, lts) in &case.properties {
        checker = checker.property(name.clone(), lts.clone());
    }
    checker
}

/// Runs one pair through the facade and directly; `Err` says how either disagrees with the
/// manifest.
fn check_pair(case: &Case, subject: &Subject) -> std::result::Result<Duration, String> {
    let started = Instant::now();
    let checker = checker_for(case);
    let outcome = checker
        .clone()
        .with_method(Arc::clone(&subject.method))
        .check()
        .map_err(|e| format!("through the facade: {e} after {:?}", started.elapsed()))?;
    let elapsed = started.elapsed();
    check_run(case, subject, &outcome.verdict, outcome.states)
        .map_err(|e| format!("through the facade: {e}"))?;
    let custom = !BUILTIN.iter().any(|e| e.name == subject.name);
    certificates::check_certificate(&checker, &outcome, custom, &certificates::TALLY)
        .map_err(|e| format!("certificate: {e}"))?;
    let config = Config::default().with_timeout(budget());
    let direct = subject
        .method
        .check(&checker.problem(), &config)
        .map_err(|e| format!("directly: {e} after {:?}", started.elapsed()))?;
    check_run(case, subject, &direct.verdict, direct.stats.states)
        .map_err(|e| format!("directly: {e}"))?;
    Ok(elapsed)
}

/// One run's verdict, evidence, and (for the monolithic search) counterexample length and states.
fn check_run(
    case: &Case,
    subject: &Subject,
    verdict: &Verdict,
    states: usize,
) -> std::result::Result<(), String> {
    let mono = subject.name == "mono";
    let got = if verdict.is_holds() {
        Expected::Holds
    } else {
        Expected::Violated
    };
    if got != case.expected {
        return Err(format!("verdict {got:?}, expected {:?}", case.expected));
    }
    check_verdict_evidence(&case.component_refs(), &case.property_refs(), verdict)
        .map_err(|e| e.to_string())?;
    if let (Verdict::Violated(cex), Some(len), true) = (verdict, case.counterexample_len, mono) {
        // Breadth-first search finds a shortest counterexample; other methods need not.
        if cex.trace.len() != len {
            return Err(format!(
                "counterexample of {} steps, expected {len}: {:?}",
                cex.trace.len(),
                cex.trace
            ));
        }
    }
    if let (true, Some(expected)) = (mono, case.states)
        && states != expected
    {
        return Err(format!("explored {states} states, expected {expected}"));
    }
    Ok(())
}

fn run_pair(case: &Case, subject: &Subject) -> Result {
    let (run_slow, run_others) = slow_mode();
    let slow = case.slow.contains(&subject.name);
    if (slow && !run_slow) || (!slow && !run_others) {
        return Result::Slow;
    }
    let got = check_pair(case, subject);
    match (got, case.known_wrong(&subject.name)) {
        (Ok(t), None) => Result::Pass(t),
        (Err(e), None) => Result::Fail(e),
        (Err(e), Some(_)) => Result::KnownWrong(e),
        (Ok(_), Some(why)) => Result::Fail(format!(
            "agrees with the manifest although listed in known_wrong ({why}): remove the entry"
        )),
    }
}

/// The (case index, subject index) pairs to run, after the `SUITE_CASES` / `SUITE_METHODS`
/// filters.
fn selected_pairs(cases: &[Case], subjects: &[Subject]) -> (Vec<(usize, usize)>, bool) {
    let method_filter = std::env::var("SUITE_METHODS").ok();
    let case_filter = std::env::var("SUITE_CASES").ok();
    let pairs = (0..cases.len())
        .filter(|&c| {
            case_filter
                .as_deref()
                .is_none_or(|f| cases[c].name.contains(f))
        })
        .flat_map(|c| (0..subjects.len()).map(move |m| (c, m)))
        .filter(|&(_, m)| {
            method_filter
                .as_deref()
                .is_none_or(|f| f.split(',').any(|n| n.trim() == subjects[m].name))
        })
        .collect();
    let filtered = method_filter.is_some()
        || case_filter.is_some()
        || std::env::var("SUITE_SLOW").is_ok()
        || std::env::var("SUITE_BUDGET_SECS").is_ok();
    (pairs, filtered)
}

/// Runs every pair on `threads` threads, printing each result as it comes.
fn run_all(
    cases: &[Case],
    subjects: &[Subject],
    pairs: &[(usize, usize)],
    threads: usize,
) -> Vec<Result> {
    let results: Mutex<Vec<Option<Result>>> =
        Mutex::new(std::iter::repeat_with(|| None).take(pairs.len()).collect());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(c, m)) = pairs.get(i) else {
                        break;
                    };
                    let case = &cases[c];
                    let result = run_pair(case, &subjects[m]);
                    let label = format!("{} with {}", case.name, subjects[m].name);
                    match &result {
                        Result::Pass(t) => eprintln!("{label}: {t:?}"),
                        Result::Slow => eprintln!("{label}: skipped"),
                        Result::KnownWrong(e) => eprintln!("{label}: KNOWN WRONG: {e}"),
                        Result::Fail(e) => eprintln!("{label}: FAILED: {e}"),
                    }
                    results.lock().unwrap()[i] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

/// Per-method counts, plus the failures, the known-wrong pairs and the passes that took more than
/// half the budget (candidates for `slow` on a slower machine), one line each.
fn summarise(
    cases: &[Case],
    subjects: &[Subject],
    pairs: &[(usize, usize)],
    results: &[Result],
) -> [String; 4] {
    let mut summary = String::new();
    let mut near = String::new();
    let mut failures = String::new();
    let mut known = String::new();
    for (method, subject) in subjects.iter().enumerate() {
        let (mut pass, mut slow, mut wrong, mut fail) = (0, 0, 0, 0);
        for ((c, m), r) in pairs.iter().zip(results) {
            if *m != method {
                continue;
            }
            let label = format!("{} with {}", cases[*c].name, subject.name);
            match r {
                Result::Pass(t) if *t > budget() / 2 => {
                    pass += 1;
                    let _ = writeln!(near, "  {label}: {t:?}");
                }
                Result::Pass(_) => pass += 1,
                Result::Slow => slow += 1,
                Result::KnownWrong(e) => {
                    wrong += 1;
                    let _ = writeln!(known, "  {label}: {e}");
                }
                Result::Fail(e) => {
                    fail += 1;
                    let _ = writeln!(failures, "  {label}: {e}");
                }
            }
        }
        let _ = writeln!(
            summary,
            "  {:<15} pass {pass:>3}  slow {slow:>3}  known wrong {wrong:>3}  failed {fail:>3}",
            subject.name
        );
    }
    let _ = writeln!(summary, "{}", asserts_tally(cases, pairs, results));
    [summary, failures, known, near]
}

/// One line on the pairs whose case checks safety `asserts` among its properties.
fn asserts_tally(cases: &[Case], pairs: &[(usize, usize)], results: &[Result]) -> String {
    let (mut pass, mut slow, mut wrong, mut fail) = (0, 0, 0, 0);
    let mut with = std::collections::BTreeSet::new();
    for ((c, _), r) in pairs.iter().zip(results) {
        if cases[*c].asserts.is_empty() {
            continue;
        }
        with.insert(*c);
        match r {
            Result::Pass(_) => pass += 1,
            Result::Slow => slow += 1,
            Result::KnownWrong(_) => wrong += 1,
            Result::Fail(_) => fail += 1,
        }
    }
    let asserts: usize = with.iter().map(|&c| cases[c].asserts.len()).sum();
    format!(
        "  cases with safety asserts: {} ({asserts} asserts), pairs: pass {pass}  slow {slow}  \
         known wrong {wrong}  failed {fail}",
        with.len()
    )
}

#[test]
fn every_method_agrees_with_the_manifest() {
    let cases = load_manifest("testdata/manifest.toml", &assertions::compile)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(cases.len() >= 2, "the manifest lost its cases");
    for case in &cases {
        let states: usize = case.components.iter().map(|(_, l)| l.num_states()).sum();
        eprintln!(
            "{}: {} components ({states} states in all), {} properties{}",
            case.name,
            case.components.len(),
            case.properties.len(),
            if case.asserts.is_empty() {
                String::new()
            } else {
                format!(" (asserts {})", case.asserts.join(", "))
            }
        );
    }
    let subjects = subjects();
    let (pairs, filtered) = selected_pairs(&cases, &subjects);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let started = Instant::now();
    let results = run_all(&cases, &subjects, &pairs, threads);
    let [summary, failures, known, near] = summarise(&cases, &subjects, &pairs, &results);
    eprintln!(
        "{} pairs of {} cases x {} methods in {:?} on {threads} threads{}\n{summary}",
        pairs.len(),
        cases.len(),
        subjects.len(),
        started.elapsed(),
        if filtered {
            " (CHANGED by SUITE_METHODS / SUITE_CASES / SUITE_SLOW / SUITE_BUDGET_SECS)"
        } else {
            ""
        }
    );
    eprintln!(
        "certificates and their mutations:\n{}",
        certificates::TALLY.lines()
    );
    if !near.is_empty() {
        eprintln!("passed, but in more than half the budget:\n{near}");
    }
    if !known.is_empty() {
        eprintln!("!!! KNOWN WRONG VERDICTS (listed in the manifest, still wrong):\n{known}");
    }
    assert!(failures.is_empty(), "suite failures:\n{failures}");
}
