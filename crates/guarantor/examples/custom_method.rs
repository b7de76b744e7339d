//! A verification method of your own, run by everything that runs Guarantor's methods.
//!
//! `Minimised` shrinks every component to its strong-bisimulation quotient before searching the
//! product (strong bisimulation keeps every trace and every `ERROR` state, so the verdict and the
//! counterexamples are the same as for the components as given). It implements
//! [`guarantor::Method`]; nothing in the workspace knows about it, yet it runs
//!
//! 1. through the facade's [`Checker`] ([`Checker::with_method`]), which re-checks its
//!    counterexamples on the original components,
//! 2. in a [`Portfolio`] beside the built-in methods (the first verdict wins),
//! 3. directly on a [`Problem`],
//!
//! and its `holds` gets a certificate ([`Method::certificate`]) that the independent checker of
//! `guarantor verify` accepts,
//!
//! and the workspace's manifest suite runs it on every case (crates/testkit/tests/suite.rs
//! includes this file). Run it with `cargo run -p guarantor --example custom_method`.

use std::borrow::Cow;
use std::sync::Arc;

use guarantor::certify::Certificate;
use guarantor::certify::fingerprint::model_print;
use guarantor::certify::format::{Premise, Rule, VerdictKind};
use guarantor::compose::method::monitored;
use guarantor::compose::{Config, Monolithic, SystemOptions, check_system};
use guarantor::lts::Lts;
use guarantor::lts::ops::minimize_strong;
use guarantor::{Checker, Method, MethodError, MethodReport, Portfolio, Problem};

/// Minimise every component, then search the product breadth first.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Minimised;

impl Method for Minimised {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("minimised")
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        // Minimising ignores priority (it may merge states a priority tells apart): refuse it.
        if problem.priority().is_some() {
            return Err(MethodError::Unsupported {
                method: "minimised".into(),
                reason: "action priority".into(),
            });
        }
        let small: Vec<Lts> = problem
            .components()
            .map(|(_, _, c)| minimize_strong(c))
            .collect();
        let components: Vec<&Lts> = small.iter().collect();
        // A deadlock is a state without successors; minimisation keeps those, but not the
        // numbering of end states, so deadlock detection is left to methods that keep it.
        if problem.deadlock() {
            return Err(MethodError::Unsupported {
                method: "minimised".into(),
                reason: "deadlock detection".into(),
            });
        }
        // `monitored` gives the largest search to the report and to budget errors.
        let (report, _) = monitored(&config.started(), |config| {
            Ok(check_system(
                &components,
                &problem.property_lts(),
                &SystemOptions::default(),
                config,
            )?)
        })?;
        Ok(MethodReport::new(report.verdict, report.stats)
            .with_counter("states_before_minimising", count_states(problem)))
    }

    /// The proof of a `holds`, for the independent checker (`guarantor verify`): this method's
    /// argument is "the product has no error", so its certificate is rule `mono`, which the
    /// checker re-checks by its own walk of the product of the components *as given* (it
    /// trusts neither the minimisation nor the search above). A method with a proof rule of its
    /// own writes that rule's premises here (the `reduce` method writes one premise per step).
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        _config: &Config,
    ) -> Result<Option<Certificate>, MethodError> {
        if !report.verdict.is_holds() {
            return Ok(None); // a violation is certified from its counterexample
        }
        let (fingerprint, print) = model_print(&problem.certify_model());
        Ok(Some(
            Certificate::new(VerdictKind::Holds, Rule::Mono, fingerprint, print)
                .with_premise(Premise::Monolithic),
        ))
    }
}

fn count_states(problem: &Problem) -> usize {
    problem.components().map(|(_, _, c)| c.num_states()).sum()
}

/// Two users that each take a lock (`a.acquire` / `b.acquire`), use the resource and free it, and
/// the property that the resource is used by one of them at a time.
fn mutex(correct: bool) -> Result<Checker, Box<dyn std::error::Error>> {
    let user = |who: &str| {
        Lts::from_edges([
            (0, format!("{who}.acquire"), 1),
            (1, format!("{who}.enter"), 2),
            (2, format!("{who}.exit"), 3),
            (3, format!("{who}.release"), 0),
        ])
    };
    let mut lock = vec![
        (0, "a.acquire", 1),
        (1, "a.release", 0),
        (0, "b.acquire", 2),
        (2, "b.release", 0),
    ];
    if !correct {
        // A broken lock that lets `b` in while `a` holds it.
        lock.extend([
            (1, "b.acquire", 3),
            (3, "b.release", 1),
            (3, "a.release", 2),
        ]);
    }
    let exclusive = Lts::from_edges([
        (0, "a.enter", 1),
        (1, "a.exit", 0),
        (0, "b.enter", 2),
        (2, "b.exit", 0),
    ])?;
    Ok(Checker::new()
        .component("A", user("a")?)
        .component("B", user("b")?)
        .component("Lock", Lts::from_edges(lock)?)
        .property("Exclusive", exclusive))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Through the facade.
    let outcome = mutex(true)?.with_method(Minimised).check()?;
    println!(
        "facade, correct lock: holds = {}",
        outcome.verdict.is_holds()
    );
    assert!(outcome.verdict.is_holds());
    let outcome = mutex(false)?.with_method(Minimised).check()?;
    let cex = outcome.verdict.counterexample().ok_or("a violation")?;
    println!("facade, broken lock: violated by {:?}", cex.trace);

    // ... and its `holds` certified: the certificate `guarantor check --certificate` would write,
    // accepted by the independent checker that `guarantor verify` runs.
    let checker = mutex(true)?.with_method(Minimised);
    let outcome = checker.check()?;
    let certificate = checker.certificate(&outcome)?;
    let report = checker.verify(&certificate)?;
    println!(
        "facade, correct lock: certificate accepted = {}",
        report.is_accepted()
    );
    assert!(report.is_accepted());

    // 2. In a portfolio, raced against the monolithic search.
    let race = Portfolio::new([
        Arc::new(Minimised) as Arc<dyn Method>,
        Arc::new(Monolithic::new()),
    ]);
    let outcome = mutex(false)?.with_method(race.clone()).check()?;
    println!("portfolio: answered by {}", outcome.method);
    assert!(outcome.verdict.is_violated());
    // Its `holds` is certified by whichever member answered (this method or `mono`).
    let checker = mutex(true)?.with_method(race);
    let outcome = checker.check()?;
    let certificate = checker.certificate(&outcome)?;
    println!(
        "portfolio, correct lock: answered by {}, certificate accepted = {}",
        outcome.method,
        checker.verify(&certificate)?.is_accepted()
    );
    assert!(checker.verify(&certificate)?.is_accepted());

    // 3. Directly on a problem, with a budget.
    let problem = mutex(true)?.problem();
    let report = Minimised.check(&problem, &Config::new().with_max_states(1_000))?;
    println!(
        "direct: holds = {}, {} states, counters {:?}",
        report.verdict.is_holds(),
        report.stats.states,
        report.counters
    );
    Ok(())
}
