//! The manifest's cases asked the other questions (issue 25): deadlock freedom with the
//! properties (LTSA's default question) by every built-in method that answers deadlocks itself
//! (the others are followed by the facade's deadlock phase, a race of these), and the default
//! progress property by every method that answers progress, each through the facade and compared with
//! `mono`'s answer (the manifest records the safety verdict only). A violation's evidence has been
//! replayed by the facade; here its kind must match: a run that violates must be found exactly
//! where `mono` finds one. A pair that runs out of its budget is counted and listed, never
//! compared; `SUITE_CASES` and `SUITE_METHODS` narrow a run as in the suite.

use std::sync::Arc;
use std::time::Duration;

use guarantor::compose::Config;
use guarantor::progress::ProgressVerdict;
use guarantor::registry::BUILTIN;
use guarantor::{Checker, Method};
use guarantor_testkit::{Case, load_manifest};

/// The entries' safety `asserts` compiled into property LTSs, as the facade compiles them.
mod assertions;

/// Per (case, method, question): generous for debug builds on a loaded 2-core machine.
const BUDGET: Duration = Duration::from_secs(5);

fn checker_for(case: &Case, method: Arc<dyn Method>) -> Checker {
    let mut checker = Checker::new()
        .config(Config::default().with_timeout(BUDGET))
        .with_method(method);
    for (name, lts) in &case.components {
        checker = checker.component(name.clone(), lts.clone());
    }
    for (name, lts) in &case.properties {
        checker = checker.property(name.clone(), lts.clone());
    }
    checker
}

/// The answer to the default question (properties and deadlock): `holds`, or `violated`.
fn default_question(case: &Case, method: Arc<dyn Method>) -> Result<&'static str, String> {
    match checker_for(case, method).deadlock(true).check() {
        Ok(outcome) if outcome.verdict.is_holds() => Ok("holds"),
        Ok(outcome) if outcome.verdict.is_violated() => Ok("violated"),
        Ok(outcome) => Err(format!("no answer: {:?}", outcome.verdict)),
        Err(e) if e.is_budget() => Err("budget".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// The answer to the default progress property: `holds`, `violated` or `unsafe`.
fn progress(case: &Case, method: Arc<dyn Method>) -> Result<&'static str, String> {
    let config = Config::default().with_timeout(BUDGET);
    match checker_for(case, method).check_progress(&[], &config) {
        Ok(outcome) => Ok(match outcome.verdict {
            ProgressVerdict::Holds => "holds",
            ProgressVerdict::Violated(_) => "violated",
            ProgressVerdict::Unsafe(_) => "unsafe",
            _ => "?",
        }),
        Err(e) if e.is_budget() => Err("budget".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// What each question says about the pair: agreed, out of budget, refused (an error the method
/// gives for a system it does not take, e.g. action priority), or disagreed.
#[derive(Default)]
struct Tally {
    agreed: usize,
    budget: Vec<String>,
    failures: Vec<String>,
}

impl Tally {
    fn record(&mut self, what: String, mono: &Result<&str, String>, ours: Result<&str, String>) {
        match (mono, ours) {
            (Ok(m), Ok(o)) if *m == o => self.agreed += 1,
            (_, Err(e)) if e == "budget" => self.budget.push(what),
            (Err(_), _) => self.budget.push(format!("{what} (mono gave no answer)")),
            (Ok(m), o) => self.failures.push(format!("{what}: mono {m}, ours {o:?}")),
        }
    }
}

fn wanted(env: &str, name: &str) -> bool {
    std::env::var(env).map_or(true, |filter| filter.split(',').any(|f| name.contains(f)))
}

#[test]
fn every_method_answers_deadlock_and_progress_as_mono() {
    let cases = load_manifest("testdata/manifest.toml", &assertions::compile).unwrap();
    let mono = guarantor::registry::method_named("mono").unwrap();
    let mut tally = Tally::default();
    for case in cases.iter().filter(|c| wanted("SUITE_CASES", &c.name)) {
        let deadlock = default_question(case, Arc::clone(&mono));
        let progress_mono = progress(case, Arc::clone(&mono));
        for entry in BUILTIN.iter().filter(|e| e.name != "mono") {
            let method = entry.make();
            let answers = method.searches_deadlocks() || method.answers_progress();
            if !answers || !wanted("SUITE_METHODS", entry.name) {
                continue;
            }
            let what = format!("{} {}", case.name, entry.name);
            if method.searches_deadlocks() {
                tally.record(
                    format!("{what} deadlock"),
                    &deadlock,
                    default_question(case, Arc::clone(&method)),
                );
            }
            if method.answers_progress() {
                tally.record(
                    format!("{what} progress"),
                    &progress_mono,
                    progress(case, method),
                );
            }
        }
    }
    eprintln!(
        "{} answers agreed with mono; {} out of budget: {:?}",
        tally.agreed,
        tally.budget.len(),
        tally.budget
    );
    assert!(
        tally.failures.is_empty(),
        "{} disagree:\n{}",
        tally.failures.len(),
        tally.failures.join("\n")
    );
    assert!(tally.agreed > 0, "nothing compared");
}
