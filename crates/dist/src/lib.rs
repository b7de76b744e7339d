//! Distributed exploration of the product of n component LTSs on [timely dataflow], in one
//! process with several worker threads or across several processes (and machines).
//!
//! [`check_distributed`] answers what [`guarantor_compose::check_system`] answers with its
//! breadth-first search: the same verdict (holds; a property violation or a component's `ERROR`;
//! a deadlock), for `holds` the same state and transition counts, and for a violation a shortest
//! counterexample (as many product steps as the monolithic one) that replays in every component.
//! Successors come from the public [`Product`] of
//! `guarantor-compose`; nothing of its private search is reused. [`Distributed`] is the same
//! check as a compose [`Method`](guarantor_compose::Method), chosen like any other method.
//!
//! # Algorithm
//!
//! Level-synchronous breadth-first search in a timely loop whose timestamp is the BFS level.
//! Every product state (tuple) travels and is stored as its packed key (compose's
//! [`TupleSet`](guarantor_compose::TupleSet), the store `Config::storage` names) and is owned by
//! the worker `hash(key) % workers`; the hash is a fixed function of the tuple, the same in every
//! process. A worker keeps the states it owns with a reference to their parent (worker, index)
//! and the action from it. At level `t` a worker has received, as flat batches, the candidate
//! successors sent to it at level `t - 1`, grouped by parent; it waits until timely's progress
//! tracking says level `t` is complete, claims the candidates' new states (below), expands them
//! in ascending key order with the product, and sends each successor to its owner at level
//! `t + 1` (successors it owns itself stay here, outside the exchange). Successors that are error
//! tuples are not sent: they are reported. After each level every worker sends a small report
//! (new states, transitions, its best error and deadlock, a budget stop) to every worker, so at
//! the next level all workers hold the same totals and take the same decision: go on, or stop
//! after the first level that reached an error tuple (the counterexample is then shortest), or
//! stop on a budget. The loop ends when no worker sends anything: timely's progress tracking then
//! closes the dataflow everywhere. A second small dataflow walks back from the chosen state along
//! parent references, each step on the worker that stores the state, and hands the trace to
//! every worker.
//!
//! # Why the counterexample does not depend on the number of workers
//!
//! The set of states at each level is the set of states at BFS distance exactly `t` from the
//! initial state, whatever the partition: a state is stored at the first level a candidate for
//! it arrives, and every state at distance `t` gets a candidate at level `t` from a parent at
//! distance `t - 1`. All candidates of a level are seen before the owner decides (it waits for
//! the level to complete). Each sender expands its states in ascending key order, so its stream
//! of candidates to one owner comes in ascending parent key; the owner merges its senders'
//! streams by parent key and inserts the candidates into its visited set in that order, so the
//! candidate that claims a new state is the smallest `(parent key, position in the parent's
//! successor enumeration)`: a choice that depends only on the tuples, not on which worker sent
//! what or when. Hence every state's parent, by induction on the level, is the same function of
//! the product for any number of workers and processes. The reported error is the smallest
//! `(error tuple, parent tuple, action)` over the first level at which any error tuple is
//! reached, and the reported deadlock (when no error is reachable) the smallest `(level, tuple)`;
//! both are minima over sets that do not depend on the partition. Following the fixed parents
//! from a fixed state gives a fixed trace.
//!
//! The state limit of [`guarantor_compose::Config::max_states`] is checked per level against the
//! global total (a level may overshoot it by the states of that level on one worker); the
//! deadline and cancel flag are looked at every few hundred states. A budget stop is reported to
//! every worker, which all stop at the next level.
//!
//! # Failures
//!
//! Processes that cannot connect within [`Cluster::connect_timeout`] give up with
//! [`DistError::Network`]. timely itself has no fault tolerance, so the processes of a cluster
//! also exchange heartbeats on connections of their own: a process that dies (its connections
//! close) or stops answering (no heartbeat for [`Cluster::heartbeat_timeout`]) makes every other
//! process return [`DistError::PeerLost`] naming it, within a heartbeat timeout at most, instead
//! of waiting for its messages for good; the lost process's peers tell each other which process
//! they lost, so all name the same one. The worker threads of a process that returns this error
//! are left behind (they may be waiting on the lost process) and end with the process. A worker
//! that panics is reported as [`DistError::Worker`].
//!
//! # Checkpoints
//!
//! With [`DistConfig::with_checkpoint`] every worker writes its own part of a checkpoint at the
//! end of the levels worker 0 announces (its claims, their parents, the global view before the
//! level), keeping its previous level's until every worker has written the next; a resume takes
//! the highest level every worker holds and re-expands that level's states. A kill of any process
//! at any instant leaves a usable checkpoint; a resume with another number of workers, another
//! model, other options or another version is refused with a typed error.
//!
//! # Example
//!
//! ```
//! use guarantor_compose::{check_system, Config, SystemOptions};
//! use guarantor_dist::{check_distributed, DistConfig};
//! use guarantor_lts::Lts;
//! let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
//! let output = Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
//! let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
//! let options = SystemOptions::default();
//! let report = check_distributed(
//!     &[&input, &output],
//!     &[&order],
//!     &options,
//!     &Config::default(),
//!     &DistConfig::default().with_workers(2),
//! )?;
//! let mono = check_system(&[&input, &output], &[&order], &options, &Config::default())?;
//! assert!(report.verdict.is_holds());
//! assert_eq!(report.stats, mono.stats);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [timely dataflow]: https://docs.rs/timely

#![warn(missing_docs)]

mod checkpoint;
mod config;
mod engine;
mod error;
mod level;
mod method;
mod net;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use guarantor_compose::error_lts::error_ltss;
use guarantor_compose::product::Product;
use guarantor_compose::{
    Certificate, Config, Counterexample, SearchOrder, Stats, SystemOptions, Verdict, Violation,
};
use guarantor_lts::{ActionId, Lts};

pub use config::{Cluster, DistConfig};
pub use error::DistError;
pub use method::Distributed;

use engine::{Job, Stop};
use level::Shard;

/// The result of a distributed check.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DistReport {
    /// Holds, or violated with a shortest counterexample (the same for every worker count).
    pub verdict: Verdict,
    /// States and transitions explored: for `holds`, exactly those of
    /// [`check_system`](guarantor_compose::check_system)'s breadth-first search; for a
    /// violation, those of every level up to the one that found it.
    pub stats: Stats,
    /// The deepest BFS level at which a state was stored.
    pub depth: usize,
    /// Workers over all processes.
    pub workers: usize,
    /// Per process, in process order: its states and what its time went to.
    pub processes: Vec<ProcessTally>,
}

/// What one process of a distributed check did: the states it stored, the bytes it sent to
/// other processes, and where its workers' time went (the slowest worker's figures when a process
/// runs several).
///
/// ```
/// use guarantor_dist::ProcessTally;
/// let tally = ProcessTally::default();
/// assert_eq!((tally.states, tally.bytes_sent), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProcessTally {
    /// States this process stored (its share of the visited set).
    pub states: u64,
    /// Bytes of candidate states it sent to other processes (the payload, before timely's
    /// framing).
    pub bytes_sent: u64,
    /// Time spent storing, expanding and filtering states.
    pub explore: Duration,
    /// Time spent between levels, waiting for the level to be complete everywhere: the
    /// exchange, timely's progress messages and slower peers.
    pub exchange: Duration,
}

/// Checks `components` against `properties`, and for deadlocks if `options` ask, exploring the
/// product on the workers `dist` describes (see the crate docs for the algorithm and why the
/// answer does not depend on them).
///
/// `options.search` must be breadth first (the default): the distributed search is always
/// breadth first. Priority and end states are honoured as by
/// [`check_system`](guarantor_compose::check_system). In a [`Cluster`], every process calls this
/// with the same arguments (but its own [`Cluster::process`]) and every process gets the same
/// report.
///
/// # Errors
/// [`DistError::Compose`] for a nondeterministic property or an exhausted budget of `config`;
/// [`DistError::Config`] for zero workers or a depth-first `options.search`;
/// [`DistError::Network`] when the processes of a cluster cannot connect;
/// [`DistError::PeerLost`] when another process of the cluster dies or stops answering;
/// [`DistError::Worker`] when a worker thread fails.
pub fn check_distributed(
    components: &[&Lts],
    properties: &[&Lts],
    options: &SystemOptions,
    config: &Config,
    dist: &DistConfig,
) -> Result<DistReport, DistError> {
    dist.validate()?;
    if options.search != SearchOrder::BreadthFirst {
        return Err(DistError::Config(format!(
            "the distributed engine searches breadth first only, not {}",
            options.search.name()
        )));
    }
    let config = config.started();
    config.budget()?;
    let errs = error_ltss(properties.iter().copied())?;
    let all: Vec<Lts> = components.iter().map(|&c| c.clone()).chain(errs).collect();
    let mut job = Job::new(
        Arc::new(all),
        components.len(),
        options,
        &config,
        config.effective_deadline(),
    );
    job.workers_per_process = dist.workers;
    if let Some(plan) = dist.checkpoint.as_ref().or(options.checkpoint.as_ref()) {
        job.checkpoint = Some(checkpoint::Plan::new(plan.clone(), &job.all, options));
    }
    let job = Arc::new(job);
    let workers = dist.total_workers();
    {
        // Validates the product once here, so that the workers may build it without failing, and
        // answers the one case that needs no search: the initial tuple is an error tuple.
        let refs: Vec<&Lts> = job.all.iter().collect();
        let product = Product::under(&refs, job.priority.as_ref())?;
        if let Some(member) = product.error_component(&product.initial()) {
            return Ok(DistReport {
                verdict: Verdict::Violated(Counterexample::new(
                    Vec::new(),
                    Violation::of_member(member, components.len()),
                )),
                stats: Stats::new(0, 0),
                depth: 0,
                workers,
                processes: Vec::new(),
            });
        }
    }
    let work = {
        let job = Arc::clone(&job);
        move |worker: &mut timely::worker::Worker| run_worker(worker, &job)
    };
    let results = match &dist.cluster {
        Some(cluster) => net::run_cluster(cluster, dist.workers, work)?,
        None => {
            let timely_config = if dist.workers == 1 {
                timely::Config::thread()
            } else {
                timely::Config::process(dist.workers)
            };
            timely::execute(timely_config, work)
                .map_err(DistError::Worker)?
                .join()
        }
    };
    let mut first = None;
    for result in results {
        let result = result.map_err(DistError::Worker)?;
        first.get_or_insert(result);
    }
    let (verdict, stats, depth, processes) =
        first.ok_or_else(|| DistError::Worker("no worker ran".into()))??;
    Ok(DistReport {
        verdict,
        stats,
        depth,
        workers,
        processes,
    })
}

/// What one worker returns: every worker returns the same (but for a checkpoint that one worker
/// could not write or read: that worker names its error, the others the worker).
type WorkerResult = Result<(Verdict, Stats, usize, Vec<ProcessTally>), DistError>;

/// The workers' tallies added up per process.
fn per_process(tallies: &BTreeMap<u32, engine::Tally>, per_process: usize) -> Vec<ProcessTally> {
    let mut out: Vec<ProcessTally> = Vec::new();
    for tally in tallies.values() {
        let p = tally.worker as usize / per_process.max(1);
        if out.len() <= p {
            out.resize(p + 1, ProcessTally::default());
        }
        let entry = &mut out[p];
        entry.states += tally.states;
        entry.bytes_sent += tally.bytes_sent;
        entry.explore = entry.explore.max(Duration::from_nanos(tally.explore_nanos));
        entry.exchange = entry
            .exchange
            .max(Duration::from_nanos(tally.exchange_nanos));
    }
    out
}

fn run_worker(worker: &mut timely::worker::Worker, job: &Arc<Job>) -> WorkerResult {
    let mut shard = Shard::new(job);
    let start = match &job.checkpoint {
        Some(plan) => checkpoints(worker, job, plan, &mut shard)?,
        None => engine::Start::default(),
    };
    let shard = Rc::new(RefCell::new(shard));
    let key_words = shard.borrow().set.key_words();
    let global = match key_words {
        1 => engine::explore::<[u64; 1]>(worker, job, &shard, start),
        2 => engine::explore::<[u64; 2]>(worker, job, &shard, start),
        _ => engine::explore::<Box<[u64]>>(worker, job, &shard, start),
    };
    let processes = per_process(&global.tallies, job.workers_per_process);
    let stats = Stats::new(
        usize::try_from(global.states).unwrap_or(usize::MAX),
        usize::try_from(global.transitions).unwrap_or(usize::MAX),
    );
    if let Some(monitor) = job.monitor.as_ref().filter(|_| worker.index() == 0) {
        monitor.finish_exploration(stats.states);
    }
    if let Some(stop) = global.stop {
        return Err(stop_error(stop, job, &mut shard.borrow_mut()));
    }
    let depth = global.depth as usize;
    let (start, last, violation) = if let Some(hit) = &global.error {
        (
            hit.from,
            Some(ActionId::from_u32(hit.action)),
            Violation::of_member(hit.member as usize, job.components),
        )
    } else if let Some(dead) = &global.deadlock {
        (dead.at, None, Violation::Deadlock)
    } else {
        return Ok((
            Verdict::Holds(Certificate::monolithic()),
            stats,
            depth,
            processes,
        ));
    };
    let mut actions = engine::walk_back(worker, start, &shard);
    actions.extend(last);
    let product = job.product();
    let trace = actions
        .into_iter()
        .filter(|a| !a.is_tau())
        .map(|a| product.action_name(a).to_owned())
        .collect();
    Ok((
        Verdict::Violated(Counterexample::new(trace, violation)),
        stats,
        depth,
        processes,
    ))
}

/// A fresh part for this worker (replacing the directory's), once every worker has one.
fn fresh_part(
    worker: &mut timely::worker::Worker,
    job: &Job,
    plan: &checkpoint::Plan,
) -> Result<checkpoint::Part, DistError> {
    let place = (worker.index() as u32, worker.peers() as u32);
    let part = checkpoint::Part::create(plan, &job.all, place.0, place.1);
    let offers = checkpoint::agree(
        worker,
        &part
            .as_ref()
            .map(|_| Vec::new())
            .map_err(ToString::to_string),
    );
    let part = part.map_err(|e| DistError::from(guarantor_compose::ComposeError::from(e)))?;
    match refused(&offers) {
        Some(e) => Err(e),
        None => Ok(part),
    }
}

/// The first worker's refusal among `offers`, naming it.
fn refused(offers: &[Result<Vec<u32>, String>]) -> Option<DistError> {
    offers.iter().enumerate().find_map(|(w, o)| {
        o.as_ref().err().map(|message| DistError::PeerCheckpoint {
            worker: w,
            message: message.clone(),
        })
    })
}

/// The error of a search all workers stopped early.
fn stop_error(stop: Stop, job: &Job, shard: &mut Shard) -> DistError {
    use guarantor_compose::ComposeError;
    match stop {
        Stop::StateLimit => ComposeError::StateLimit {
            limit: job.configured_limit,
        }
        .into(),
        Stop::Deadline => ComposeError::Deadline.into(),
        Stop::Cancelled => ComposeError::Cancelled.into(),
        Stop::Memory => ComposeError::MemoryLimit {
            limit: job.max_memory.unwrap_or(u64::MAX),
        }
        .into(),
        // The worker whose part failed names its error; the others name the worker.
        Stop::Checkpoint(failed) => {
            let own = shard.failed.take().or_else(|| {
                let part = shard.part.as_mut()?;
                part.failed.take().map(ComposeError::from)
            });
            own.map_or_else(
                || DistError::PeerCheckpoint {
                    worker: failed as usize,
                    message: "could not write or restore its checkpoint part".into(),
                },
                DistError::from,
            )
        }
    }
}

/// Sets up this worker's checkpoint part: a fresh one, or, resuming, the part restored at the
/// highest level every worker holds (agreed with the others first, so that every worker resumes
/// from the same level or every worker fails). Returns where the search starts.
fn checkpoints(
    worker: &mut timely::worker::Worker,
    job: &Job,
    plan: &checkpoint::Plan,
    shard: &mut Shard,
) -> Result<engine::Start, DistError> {
    let place = (worker.index() as u32, worker.peers() as u32);
    let own_error = |e: guarantor_compose::checkpoint::CheckpointError| {
        DistError::from(guarantor_compose::ComposeError::from(e))
    };
    if !plan.checkpointing.resume {
        shard.part = Some(fresh_part(worker, job, plan)?);
        return Ok(engine::Start::default());
    }
    let survey = checkpoint::survey(plan, &job.all, place);
    let offers = checkpoint::agree(
        worker,
        &survey
            .as_ref()
            .map(checkpoint::Survey::levels)
            .map_err(ToString::to_string),
    );
    let level = match checkpoint::common_level(&offers) {
        Ok(level) => level,
        Err(checkpoint::Disagreement::NoCommonLevel) => {
            return Err(own_error(
                guarantor_compose::checkpoint::CheckpointError::Missing {
                    dir: plan.checkpointing.dir.clone(),
                },
            ));
        }
        Err(checkpoint::Disagreement::Refused { worker, message }) => {
            let own = survey.err().map(own_error);
            return Err(own.unwrap_or(DistError::PeerCheckpoint { worker, message }));
        }
    };
    // Every offer, this one included, held the level.
    let survey = survey.map_err(own_error)?;
    let restored = checkpoint::restore(
        plan,
        &job.all,
        place,
        &survey,
        level,
        (&mut shard.set, &mut shard.parents),
    );
    let mut view = engine::Global::default();
    match restored {
        Ok(r) => {
            view.states = r.view.states;
            view.transitions = r.view.transitions;
            view.depth = r.view.depth;
            view.deadlock = r.view.deadlock.map(|d| engine::DeadHit {
                level: d.level,
                tuple: d.tuple,
                at: d.at,
            });
            shard.part = Some(r.part);
            shard.frontier = r.frontier;
        }
        // Every worker has agreed to resume: this one stops the search at its first level.
        Err(e) => shard.failed = Some(e),
    }
    Ok(engine::Start {
        resumed: Some((level, view)),
    })
}

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
