//! [`DistError`]: everything that can stop a distributed check before it reaches a verdict.
//!
//! Budget and input errors of the exploration itself are [`ComposeError`]s, the same values the
//! monolithic engine returns, so callers map both engines' failures alike; the rest are failures of
//! the distribution: a bad cluster description, a network that would not connect, a worker thread
//! that died.

use guarantor_compose::{BudgetKind, ComposeError};

/// Why a distributed check stopped without a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DistError {
    /// The exploration failed as the monolithic one would: a budget ran out (state limit,
    /// deadline, cancellation) or the input was bad (a nondeterministic property).
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// The cluster description is unusable (no address, a process index out of range, zero
    /// workers, an unreadable hostfile).
    #[error("bad cluster configuration: {0}")]
    Config(String),
    /// The processes of a cluster could not connect to each other in time.
    #[error("cluster network: {0}")]
    Network(String),
    /// Another process of the cluster was lost while the check ran: its connection closed
    /// without its "finished" (it died or failed), or it sent no heartbeat for
    /// [`Cluster::heartbeat_timeout`](crate::Cluster::heartbeat_timeout).
    #[error("process {process} of the cluster ({address}) was lost: {reason}")]
    PeerLost {
        /// The lost process's index in the cluster.
        process: usize,
        /// Its address.
        address: String,
        /// What was seen: its connection closed, no heartbeat, or another process lost it.
        reason: String,
    },
    /// Another worker of the check could not write, read or resume its checkpoint part (this
    /// worker's own checkpoint errors are [`DistError::Compose`] with a
    /// [`ComposeError::Checkpoint`]).
    #[error("worker {worker} of the cluster could not use its checkpoint part: {message}")]
    PeerCheckpoint {
        /// The worker, over all processes (process times workers per process, plus its thread).
        worker: usize,
        /// What it said.
        message: String,
    },
    /// A worker thread failed (timely reports a panic in a worker as an error here).
    #[error("worker failed: {0}")]
    Worker(String),
}

impl DistError {
    /// Whether this error is an exhausted budget (see [`ComposeError::is_budget`]).
    ///
    /// ```
    /// use guarantor_compose::ComposeError;
    /// use guarantor_dist::DistError;
    /// assert!(DistError::from(ComposeError::Deadline).is_budget());
    /// assert!(!DistError::Config("no addresses".into()).is_budget());
    /// ```
    pub fn is_budget(&self) -> bool {
        self.budget_kind().is_some()
    }

    /// Which budget ran out, if one did (the engine honours the config's state limit, deadline,
    /// cancel flag and memory limit).
    ///
    /// ```
    /// use guarantor_compose::{BudgetKind, ComposeError};
    /// use guarantor_dist::DistError;
    /// assert_eq!(DistError::from(ComposeError::Deadline).budget_kind(), Some(BudgetKind::Time));
    /// ```
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::Compose(e) => e.budget_kind(),
            _ => None,
        }
    }
}
