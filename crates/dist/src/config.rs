//! Where the workers of a distributed check run: [`DistConfig`] (workers per process, and the
//! [`Cluster`] of processes, if any).
//!
//! Kept apart from [`guarantor_compose::Config`], which says how much a check may spend (states,
//! time, cancellation) and is passed unchanged: this type only says where the work runs, and a
//! check gives the same answer for every value of it.

use std::path::Path;
use std::time::Duration;

use guarantor_compose::checkpoint::Checkpointing;

use crate::error::DistError;

/// The processes of a multi-process run, each started by its user (or by the CLI's
/// `--processes`) with the same address list and its own index.
///
/// ```
/// use guarantor_dist::Cluster;
/// let cluster = Cluster::new(vec!["127.0.0.1:4100".into(), "127.0.0.1:4101".into()], 1)?;
/// assert_eq!((cluster.addresses.len(), cluster.process), (2, 1));
/// let hosts = Cluster::parse_hostfile("# two machines\nhost-a:4100\n\nhost-b:4100\n");
/// assert_eq!(hosts, ["host-a:4100", "host-b:4100"]);
/// # Ok::<(), guarantor_dist::DistError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cluster {
    /// `host:port` of every process, in process order; process `i` listens on `addresses[i]`.
    pub addresses: Vec<String>,
    /// This process's index in [`Cluster::addresses`].
    pub process: usize,
    /// How long this process waits for the others to connect before it gives up with
    /// [`DistError::Network`]. Default: 30 seconds.
    pub connect_timeout: Duration,
    /// How long this process waits for a heartbeat of another process, once connected, before
    /// it stops with [`DistError::PeerLost`] naming it (heartbeats are written every 200 ms;
    /// a process that dies is seen at once, when its connections close). Default: 3 seconds.
    pub heartbeat_timeout: Duration,
}

impl Cluster {
    /// The cluster of `addresses` as seen by process `process`.
    ///
    /// # Errors
    /// [`DistError::Config`] when there is no address or `process` is not an index into them.
    pub fn new(addresses: Vec<String>, process: usize) -> Result<Self, DistError> {
        if addresses.is_empty() {
            return Err(DistError::Config("no process addresses".into()));
        }
        if process >= addresses.len() {
            return Err(DistError::Config(format!(
                "process index {process} out of range for {} addresses",
                addresses.len()
            )));
        }
        Ok(Self {
            addresses,
            process,
            connect_timeout: Duration::from_secs(30),
            heartbeat_timeout: Duration::from_secs(3),
        })
    }

    /// The cluster listed in the hostfile at `path` (one `host:port` per line, blank lines and
    /// `#` comments ignored) as seen by process `process`.
    ///
    /// # Errors
    /// [`DistError::Config`] when the file cannot be read or as [`Cluster::new`].
    pub fn from_hostfile(path: &Path, process: usize) -> Result<Self, DistError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| DistError::Config(format!("cannot read {}: {e}", path.display())))?;
        Self::new(Self::parse_hostfile(&text), process)
    }

    /// The addresses of a hostfile's text: one per line, trimmed; blank lines and lines starting
    /// with `#` are skipped.
    pub fn parse_hostfile(text: &str) -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect()
    }

    /// This cluster with another heartbeat timeout (see [`Cluster::heartbeat_timeout`]).
    #[must_use]
    pub fn with_heartbeat_timeout(mut self, timeout: Duration) -> Self {
        self.heartbeat_timeout = timeout;
        self
    }

    /// This cluster with another connection timeout.
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }
}

/// Where a distributed check runs: `workers` threads in this process and, with a [`Cluster`], as
/// many in each of its processes. The default is one worker in one process.
///
/// ```
/// use guarantor_dist::DistConfig;
/// let config = DistConfig::default().with_workers(3);
/// assert_eq!(config.total_workers(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DistConfig {
    /// Worker threads per process (at least one). Default: 1.
    pub workers: usize,
    /// The processes, when the check runs across several; `None` runs in this process only.
    pub cluster: Option<Cluster>,
    /// Write checkpoints at level boundaries, each worker its own part, or resume from them
    /// (see [`DistConfig::with_checkpoint`]). Default: `None` (a plan in the check's
    /// `SystemOptions::checkpoint` is honoured too).
    pub checkpoint: Option<Checkpointing>,
}

impl Default for DistConfig {
    fn default() -> Self {
        Self {
            workers: 1,
            cluster: None,
            checkpoint: None,
        }
    }
}

impl DistConfig {
    /// One worker in this process (the same as `DistConfig::default()`).
    pub fn new() -> Self {
        Self::default()
    }

    /// This config with `workers` worker threads per process.
    #[must_use]
    pub fn with_workers(mut self, workers: usize) -> Self {
        self.workers = workers;
        self
    }

    /// This config running across the processes of `cluster`.
    #[must_use]
    pub fn with_cluster(mut self, cluster: Cluster) -> Self {
        self.cluster = Some(cluster);
        self
    }

    /// This config writing checkpoints (or resuming from them) as `plan` says. Every worker writes
    /// its own part, `plan.dir/dist-W/`, at the end of a level when `plan.every` has passed on
    /// worker 0; a resume continues from the last level every worker completed, and needs the
    /// same number of workers over all processes, the same model, options and program version.
    /// In a cluster every process passes the same plan (its directory may be local to each
    /// machine: a process reads and writes only its own workers' parts).
    ///
    /// ```
    /// use guarantor_compose::{check_system, Config, SystemOptions};
    /// use guarantor_compose::checkpoint::Checkpointing;
    /// use guarantor_dist::{check_distributed, DistConfig};
    /// use guarantor_lts::Lts;
    /// let ring = Lts::from_edges((0..50).map(|i| (i, "a", (i + 1) % 50)))?;
    /// let other = Lts::from_edges((0..7).map(|i| (i, "b", (i + 1) % 7)))?;
    /// let dir = std::env::temp_dir().join(format!("guarantor-doc-dist-{}", std::process::id()));
    /// let plan = Checkpointing::new(&dir).with_every(std::time::Duration::ZERO);
    /// let (options, config) = (SystemOptions::default(), Config::default());
    /// let dist = DistConfig::default().with_workers(2);
    /// let run = |plan: Checkpointing| {
    ///     check_distributed(&[&ring, &other], &[], &options, &config, &dist.clone().with_checkpoint(plan))
    /// };
    /// let first = run(plan.clone())?;
    /// let resumed = run(plan.resuming())?; // continues from the last checkpoint level
    /// let mono = check_system(&[&ring, &other], &[], &options, &config)?;
    /// assert_eq!((first.stats, resumed.stats), (mono.stats, mono.stats));
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_checkpoint(mut self, plan: Checkpointing) -> Self {
        self.checkpoint = Some(plan);
        self
    }

    /// Workers over all processes.
    pub fn total_workers(&self) -> usize {
        self.workers * self.cluster.as_ref().map_or(1, |c| c.addresses.len())
    }

    /// Fails with [`DistError::Config`] on zero workers.
    pub(crate) fn validate(&self) -> Result<(), DistError> {
        if self.workers == 0 {
            return Err(DistError::Config("zero workers per process".into()));
        }
        Ok(())
    }
}
