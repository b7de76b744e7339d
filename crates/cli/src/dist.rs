//! `check --processes N` and `check --hostfile FILE --process-index I`: the checker runs with
//! the distributed engine as its method (`guarantor::dist::Distributed`, the registry's `dist`),
//! across processes. What is left here is what only a command line does: starting and watching
//! the local processes, and reading the cluster from the flags.
//!
//! With `--processes N` this process is process 0 of a cluster on 127.0.0.1: it picks N free
//! loopback ports, starts N-1 copies of its own executable with the same arguments plus the
//! hidden `--cluster-addresses` and `--process-index`, runs its share, prints the result once,
//! and waits for the copies (killing them if its own run fails or they outlive a grace period).
//! With `--hostfile` the user starts one process per line of the file, on each machine, each with
//! its `--process-index`; process 0 prints the result, the others only exit with its code.

use std::ffi::OsString;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use guarantor::compose::checkpoint::Checkpointing;
use guarantor::dist::{Cluster, DistConfig, Distributed};
use guarantor::{Checker, MethodKind, Outcome};

use crate::{CheckArgs, Failure, MethodChoice, Search, classify, input_error};

/// How long the local processes may take to connect (they only have to start).
const CONNECT: Duration = Duration::from_secs(10);

/// How long process 0 waits for its own check to name a lost process when a process it started
/// exits with an error code (within a heartbeat timeout, or at once when a process died).
const LOST_GRACE: Duration = Duration::from_secs(4);

/// How often process 0 looks at the processes it started while its check runs (the check's
/// thread wakes it at once when it ends).
const WATCH: Duration = Duration::from_millis(10);

/// How long process 0 waits for the processes it started once it has its result.
const GRACE: Duration = Duration::from_secs(30);

/// How a distributed `check` runs, from its flags.
#[derive(Debug)]
pub(crate) enum Mode {
    /// `--processes N`: this process starts the others on 127.0.0.1.
    Local { processes: usize, workers: usize },
    /// One process of a cluster whose members were started elsewhere (`--hostfile`, or a copy
    /// started by `--processes`).
    Member { cluster: Cluster, workers: usize },
}

impl Mode {
    /// The mode `args` ask for (`None`: the plain check); refuses what only the plain check does.
    pub(crate) fn of(args: &CheckArgs) -> Result<Option<Self>, Failure> {
        let workers = args.workers.map_or(1, std::num::NonZeroUsize::get);
        let chosen = matches!(args.method, MethodChoice::Registry("dist"));
        let mode = if let Some(n) = args.processes {
            Self::Local {
                processes: n.get(),
                workers,
            }
        } else if let Some(path) = &args.hostfile {
            let index = args
                .process_index
                .ok_or_else(|| input_error(anyhow::anyhow!("--hostfile needs --process-index")))?;
            Self::Member {
                cluster: Cluster::from_hostfile(path, index).map_err(input_error)?,
                workers,
            }
        } else if !args.cluster_addresses.is_empty() {
            let index = args.process_index.unwrap_or(0);
            Self::Member {
                cluster: Cluster::new(args.cluster_addresses.clone(), index)
                    .map_err(input_error)?,
                workers,
            }
        } else if chosen && args.process_index.is_none() {
            // `--method dist` alone: the engine in this process, with --workers threads.
            Self::Local {
                processes: 1,
                workers,
            }
        } else {
            if args.workers.is_some() || args.process_index.is_some() {
                return Err(input_error(anyhow::anyhow!(
                    "--workers and --process-index go with --processes, --hostfile or --method dist"
                )));
            }
            return Ok(None);
        };
        // `--method mono` (the default) is the old spelling: the engine runs the monolithic
        // breadth-first search.
        let mono = matches!(args.method, MethodChoice::Kind(MethodKind::Monolithic));
        if !(mono || chosen) || args.search != Search::Bfs {
            return Err(input_error(anyhow::anyhow!(
                "--processes and --hostfile run the monolithic breadth-first check only (--method dist or mono, --search bfs), not {} {}",
                args.method.name(),
                if args.search == Search::Bfs {
                    "bfs"
                } else {
                    "dfs"
                },
            )));
        }
        if args.progress.is_some() || args.assertion.is_some() {
            return Err(input_error(anyhow::anyhow!(
                "--processes and --hostfile run the safety check only, not --progress or --assert"
            )));
        }
        Ok(Some(mode))
    }

    /// Whether this process prints the result (process 0 does; the others only exit).
    pub(crate) fn prints(&self) -> bool {
        match self {
            Self::Local { .. } => true,
            Self::Member { cluster, .. } => cluster.process == 0,
        }
    }

    /// Runs this process's share of the check: the checker with the distributed engine as its
    /// method, writing checkpoints or resuming from them as `plan` says (every process passes
    /// the same plan; each writes and reads its own workers' parts of the directory).
    pub(crate) fn run(
        &self,
        checker: &Checker,
        plan: Option<&Checkpointing>,
    ) -> Result<Outcome, Failure> {
        quiet_lost_peer_panics();
        let with_plan = |config: DistConfig| match &plan {
            Some(plan) => config.with_checkpoint((*plan).clone()),
            None => config,
        };
        let dist = |config: DistConfig| {
            checker
                .clone()
                .with_method(Distributed::new(with_plan(config)))
        };
        match self {
            Self::Member { cluster, workers } => dist(
                DistConfig::default()
                    .with_workers(*workers)
                    .with_cluster(cluster.clone()),
            )
            .check()
            .map_err(classify),
            Self::Local {
                processes: 1,
                workers,
            } => dist(DistConfig::default().with_workers(*workers))
                .check()
                .map_err(classify),
            Self::Local { processes, workers } => run_local(
                checker,
                *processes,
                with_plan(DistConfig::default().with_workers(*workers)),
            ),
        }
    }
}

/// Keeps the panics that a lost process sets off in timely's threads off stderr: its network
/// threads panic when a connection breaks, and its workers then find their queues poisoned. The
/// check reports the lost process itself (`DistError::PeerLost`), once; a worker's own panic
/// still prints.
fn quiet_lost_peer_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        let name = thread.name().unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        let network = name.starts_with("timely:send") || name.starts_with("timely:recv");
        let poisoned = name.starts_with("timely:work") && message.contains("MergeQueue poisoned");
        if !(network || poisoned) {
            previous(info);
        }
    }));
}

/// `--processes N` with N > 1: starts processes 1..N, runs process 0 here.
fn run_local(checker: &Checker, processes: usize, dist: DistConfig) -> Result<Outcome, Failure> {
    let addresses = free_addresses(processes).map_err(input_error)?;
    let exe = std::env::current_exe().map_err(input_error)?;
    let mut children = Vec::with_capacity(processes - 1);
    for index in 1..processes {
        match spawn(&exe, &addresses, index) {
            Ok(child) => children.push(child),
            Err(e) => {
                stop(&mut children);
                return Err(input_error(anyhow::anyhow!(
                    "cannot start process {index}: {e}"
                )));
            }
        }
    }
    let cluster = Cluster::new(addresses, 0)
        .map_err(input_error)?
        .with_connect_timeout(CONNECT);
    let dist = dist.with_cluster(cluster);
    // The check runs on its own thread so that this one can watch the processes it started: a
    // process that fails (bad input on its side, a crash) would leave the others waiting for its
    // messages, so its failure ends the run here (returning from main ends the waiting thread).
    // The check's thread wakes this one when it ends, so the verdict is not held back by a
    // polling interval.
    let run = {
        let checker = checker.clone().with_method(Distributed::new(dist));
        let watcher = std::thread::current();
        std::thread::spawn(move || {
            let result = checker.check();
            watcher.unpark();
            result
        })
    };
    while !run.is_finished() {
        if let Some((i, status)) = failed_child(&mut children) {
            // A process that exits with an error code may only have lost another one: the
            // check here then names the lost process, if given a moment.
            if status.code().is_some() && finishes_within(&run, LOST_GRACE) {
                break;
            }
            let (i, status) = failed_child(&mut children).unwrap_or((i, status));
            stop(&mut children);
            let e = anyhow::anyhow!("process {i} of {processes} failed ({status})");
            return Err(if status.code() == Some(3) {
                Failure::Budget(e)
            } else {
                input_error(e)
            });
        }
        std::thread::park_timeout(WATCH);
    }
    let outcome = match run.join() {
        Ok(result) => result.map_err(classify),
        Err(_) => Err(input_error(anyhow::anyhow!(
            "the distributed check panicked"
        ))),
    };
    if outcome.is_err() {
        stop(&mut children);
        return outcome;
    }
    let deadline = Instant::now() + GRACE;
    for (i, child) in children.iter_mut().enumerate() {
        loop {
            match child.try_wait() {
                Ok(Some(status)) if status.code().is_some_and(|c| c <= 1) => break,
                Ok(Some(status)) => {
                    eprintln!("warning: process {} ended with {status}", i + 1);
                    break;
                }
                // The others end right after this one (they have the same last level).
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(None) | Err(_) => {
                    eprintln!(
                        "warning: process {} did not end in {}s; killed",
                        i + 1,
                        GRACE.as_secs()
                    );
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
            }
        }
    }
    outcome
}

/// The started processes that have ended with neither verdict code (0 holds, 1 violated), with
/// their index: the first killed by a signal if any (the others may only have lost it), else the
/// first.
fn failed_child(children: &mut [Child]) -> Option<(usize, std::process::ExitStatus)> {
    let failed: Vec<(usize, std::process::ExitStatus)> = children
        .iter_mut()
        .enumerate()
        .filter_map(|(i, child)| match child.try_wait() {
            Ok(Some(status)) if status.code().is_none_or(|c| c > 1) => Some((i + 1, status)),
            _ => None,
        })
        .collect();
    failed
        .iter()
        .find(|(_, status)| status.code().is_none())
        .or(failed.first())
        .copied()
}

/// Waits up to `grace` for the check's thread to end; returns whether it did.
fn finishes_within<T>(run: &std::thread::JoinHandle<T>, grace: Duration) -> bool {
    let deadline = Instant::now() + grace;
    while !run.is_finished() {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::park_timeout(WATCH);
    }
    true
}

/// Kills and reaps the processes this one started.
fn stop(children: &mut [Child]) {
    for child in children.iter_mut() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Starts process `index` of the local cluster: this executable with this run's arguments, less
/// `--processes`, plus the cluster's addresses and the index; it prints nothing.
fn spawn(exe: &PathBuf, addresses: &[String], index: usize) -> std::io::Result<Child> {
    let mut args: Vec<OsString> = Vec::new();
    let mut skip = false;
    for arg in std::env::args_os().skip(1) {
        if skip {
            skip = false;
            continue;
        }
        if arg == "--processes" {
            skip = true;
            continue;
        }
        if arg.to_str().is_some_and(|a| a.starts_with("--processes=")) {
            continue;
        }
        args.push(arg);
    }
    if !args.iter().any(|a| a == "--quiet" || a == "-q") {
        args.push("--quiet".into());
    }
    args.push(format!("--cluster-addresses={}", addresses.join(",")).into());
    args.push(format!("--process-index={index}").into());
    Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

/// `n` free loopback addresses: bound together to learn distinct free ports, then released for
/// the processes to listen on.
fn free_addresses(n: usize) -> std::io::Result<Vec<String>> {
    let listeners = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()?;
    listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.to_string()))
        .collect()
}
