//! [`Distributed`]: the distributed engine as a [`Method`], so that a checker, a portfolio or the
//! command line choose it like any other method (by value, with its process and worker settings).
//!
//! It answers what the monolithic breadth-first search answers (the crate docs say why the
//! answer does not depend on the workers), deadlocks included, so it says it searches them; it
//! refuses nothing the monolithic search accepts, priority included. Its figures per process
//! become the report's counters.

use std::borrow::Cow;

use guarantor_compose::Config;
use guarantor_compose::method::{Method, MethodError, MethodReport, Monolithic, Problem};

use crate::{DistConfig, DistError, ProcessTally, check_distributed};

/// The monolithic breadth-first check on the distributed engine: in this process with
/// [`DistConfig::workers`] threads, or as one process of [`DistConfig::cluster`] (every process
/// of the cluster runs the same problem with its own [`Cluster::process`](crate::Cluster::process),
/// and every process gets the same report).
///
/// ```
/// use guarantor_compose::method::{Method, Monolithic, Problem};
/// use guarantor_compose::Config;
/// use guarantor_dist::{DistConfig, Distributed};
/// use guarantor_lts::Lts;
/// let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
/// let output = Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
/// let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
/// let problem = Problem::new()
///     .with_component("Input", input)
///     .with_component("Output", output)
///     .with_property("Order", order);
/// let dist = Distributed::new(DistConfig::default().with_workers(2));
/// let report = dist.check(&problem, &Config::default())?;
/// let mono = Monolithic::new().check(&problem, &Config::default())?;
/// assert!(report.verdict.is_holds());
/// assert_eq!(report.stats, mono.stats);
/// assert_eq!(report.counter("bytes_sent"), Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Distributed {
    /// Workers per process, and the cluster if the check runs across processes.
    pub config: DistConfig,
}

impl Distributed {
    /// The engine with these workers and processes.
    pub fn new(config: DistConfig) -> Self {
        Self { config }
    }
}

impl Method for Distributed {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("dist")
    }

    fn searches_deadlocks(&self) -> bool {
        true
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        let report = check_distributed(
            &problem.component_lts(),
            &problem.property_lts(),
            &problem.system_options(),
            config,
            &self.config,
        )
        .map_err(method_error)?;
        let mut out = MethodReport::new(report.verdict, report.stats);
        out.counters = counters(&report.processes).collect();
        Ok(out)
    }

    /// The monolithic search's certificate: both explore the same product and answer the same.
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        Monolithic::new().certificate(problem, report, config)
    }
}

/// A [`DistError`] as a [`MethodError`]: a budget with its kind, else a failure (the cluster's
/// configuration or network, a lost process, a worker) that keeps its words.
fn method_error(e: DistError) -> MethodError {
    let kind = e.budget_kind();
    MethodError::classify(e, kind)
}

/// A distributed check's figures as counters (JSON fields): per process `p` its states and the
/// milliseconds its workers spent exploring and in the exchange, and the bytes all processes
/// sent to each other.
fn counters(
    processes: &[ProcessTally],
) -> impl Iterator<Item = guarantor_compose::method::Counter> + '_ {
    use guarantor_compose::method::Counter;
    let sent: u64 = processes.iter().map(|t| t.bytes_sent).sum();
    processes
        .iter()
        .enumerate()
        .flat_map(|(p, tally)| {
            [
                Counter::new(format!("process_{p}_states"), tally.states),
                Counter::new(format!("process_{p}_explore_ms"), tally.explore.as_millis()),
                Counter::new(
                    format!("process_{p}_exchange_ms"),
                    tally.exchange.as_millis(),
                ),
            ]
        })
        .chain(std::iter::once(Counter::new("bytes_sent", sent)))
}
