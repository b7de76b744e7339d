//! Checkpoints of the monolithic breadth-first search, so that a check killed after hours resumes
//! where its last checkpoint left it instead of starting again ([`Checkpointing`]).
//!
//! **What a checkpoint is.** The search numbers states in discovery order and expands them in
//! that order, so its whole state is: the discovered tuples in order (the visited set, whose tail
//! from the expansion cursor on is the frontier), the parent and action of each (for the
//! counterexample), the cursor, the transition count and the first deadlock met. Tuples and
//! parents only ever grow at the end, so they are kept in two append-only logs (`states.log`,
//! `parents.log`), and a checkpoint appends what was discovered since the last one: its cost is
//! proportional to the new states, not to all of them (TLC rewrites its whole fingerprint set at
//! each checkpoint). What makes a checkpoint *the* checkpoint is the small `manifest`: how many
//! records of each log count, the cursor and counts, running checksums of the logs' counted
//! prefixes, and fingerprints of the model, the options and the program version. It is written
//! to a temporary file, synced, renamed over the old one and the directory synced, after the logs
//! were synced; a kill at any instant therefore leaves either the old manifest or the new one,
//! each describing log prefixes that are on disk. Whatever a log holds past its counted prefix
//! (written after the last manifest) is cut off on resume.
//!
//! **The format** is hand-rolled (`checkpoint/format.rs`): a tuple is packed into
//! the bits its components' state counts need (gas N=13: 8 bytes a state, where a serialised
//! `Vec<u32>` per tuple would take 4 bytes a component, about 150), a parent into 8 bytes, and a
//! resume reads them back sequentially. Every read is checked: a truncated or corrupt checkpoint
//! is a [`CheckpointError`], never a panic.
//!
//! **Shared with the distributed engine.** guarantor-dist checkpoints each worker's share of a
//! distributed search with the pieces made public here: [`Digest`], [`Packer`], [`AppendLog`],
//! [`write_atomically`], [`model_fingerprint`], [`options_fingerprint`] and the errors.

mod format;
pub(crate) mod recorder;

pub use format::{ManifestReader, Packer, manifest_bytes};
pub use recorder::{AppendLog, write_atomically};

use std::path::{Path, PathBuf};
use std::time::Duration;

use guarantor_lts::Lts;

use crate::system::SystemOptions;

/// Where and how often the monolithic breadth-first search writes checkpoints, and whether it
/// resumes from the one in its directory.
///
/// ```
/// use std::time::Duration;
/// use guarantor_compose::checkpoint::Checkpointing;
/// let plan = Checkpointing::new("/tmp/run").with_every(Duration::from_secs(30));
/// assert_eq!(plan.every, Duration::from_secs(30));
/// assert!(!plan.resume);
/// assert!(plan.resuming().resume);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checkpointing {
    /// The directory of the checkpoint (created if missing). A fresh run replaces a checkpoint
    /// it finds there.
    pub dir: PathBuf,
    /// How long the search runs between two checkpoints. Default: 60 s.
    pub every: Duration,
    /// Whether to resume from the checkpoint in [`Checkpointing::dir`] (then go on writing
    /// checkpoints there). Default: `false`.
    pub resume: bool,
    /// The program version a checkpoint records and a resume insists on. Default: this crate's
    /// version; a program built on it passes its own (the command line passes its version).
    pub version: String,
}

impl Checkpointing {
    /// Checkpoints into `dir` every 60 s, from a fresh start.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            every: Duration::from_secs(60),
            resume: false,
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }

    /// Sets how long the search runs between checkpoints.
    #[must_use]
    pub fn with_every(mut self, every: Duration) -> Self {
        self.every = every;
        self
    }

    /// Resumes from the checkpoint in the directory instead of starting fresh.
    #[must_use]
    pub fn resuming(mut self) -> Self {
        self.resume = true;
        self
    }

    /// Sets the program version recorded and checked.
    #[must_use]
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }
}

/// Why a checkpoint could not be written or resumed from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing a file of the checkpoint failed.
    #[error("checkpoint file {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// There is no checkpoint to resume from (no manifest in the directory).
    #[error("no checkpoint to resume from in {dir} (a run with --checkpoint writes one)")]
    Missing {
        /// The directory.
        dir: PathBuf,
    },
    /// A file of the checkpoint is truncated or does not hold what its manifest says.
    #[error("checkpoint file {path} is damaged: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The checkpoint was written by a check of another model (other components or properties).
    #[error("the checkpoint in {dir} is of another model")]
    OtherModel {
        /// The directory.
        dir: PathBuf,
    },
    /// The checkpoint was written with other options (deadlock search, end states, priority).
    #[error(
        "the checkpoint in {dir} was written with other options (deadlock search, end states or priority)"
    )]
    OtherOptions {
        /// The directory.
        dir: PathBuf,
    },
    /// The checkpoint was written by another version of the program or of the format.
    #[error("the checkpoint was written by version {found}, this is {expected}")]
    OtherVersion {
        /// The version in the checkpoint.
        found: String,
        /// This program's version.
        expected: String,
    },
    /// The checkpoint was written by a distributed check on another number of workers (processes
    /// times workers per process): each worker's part holds the states that worker owns, so a
    /// resume needs the same partition.
    #[error(
        "the checkpoint was written by {found} distributed workers (processes x workers), this check has {expected}"
    )]
    OtherWorkers {
        /// The workers that wrote the checkpoint.
        found: usize,
        /// This check's workers.
        expected: usize,
    },
    /// The search asked for cannot be checkpointed (only breadth first can).
    #[error("checkpoints are written by the breadth-first search only, not {search}")]
    Unsupported {
        /// The search order asked for.
        search: &'static str,
    },
}

impl CheckpointError {
    /// An I/O error on `path`.
    ///
    /// ```
    /// use guarantor_compose::checkpoint::CheckpointError;
    /// let e = std::io::Error::other("disk full");
    /// let err = CheckpointError::io(std::path::Path::new("/x/manifest"), &e);
    /// assert!(err.to_string().contains("disk full"));
    /// ```
    pub fn io(path: &Path, e: &std::io::Error) -> Self {
        Self::Io {
            path: path.to_owned(),
            message: e.to_string(),
        }
    }

    /// A damaged file.
    ///
    /// ```
    /// use guarantor_compose::checkpoint::CheckpointError;
    /// let err = CheckpointError::corrupt(std::path::Path::new("/x/states.log"), "truncated");
    /// assert!(err.to_string().contains("damaged: truncated"));
    /// ```
    pub fn corrupt(path: &Path, reason: impl Into<String>) -> Self {
        Self::Corrupt {
            path: path.to_owned(),
            reason: reason.into(),
        }
    }
}

/// A 64-bit running hash (multiply and fold, as the stores' mixer) for fingerprints and log
/// checksums: stable across builds and platforms, unlike `std`'s `DefaultHasher`. Public so that
/// the distributed engine's checkpoints (guarantor-dist) checksum their files alike.
///
/// ```
/// use guarantor_compose::checkpoint::Digest;
/// let a = Digest::START.bytes(b"abc");
/// assert_eq!(a, Digest::START.bytes(b"abc"));
/// assert_ne!(a, Digest::START.bytes(b"abd"));
/// assert_ne!(Digest::START.word(1).0, Digest::START.word(2).0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digest(pub u64);

impl Digest {
    /// The digest of nothing.
    pub const START: Self = Self(0x243f_6a88_85a3_08d3);

    /// Folds one word in.
    #[inline]
    #[must_use]
    pub fn word(self, w: u64) -> Self {
        let h = (self.0 ^ w).wrapping_mul(crate::engine::store::K);
        Self(h ^ (h >> 31))
    }

    /// Folds bytes in, eight at a time (the length too, so that prefixes differ).
    #[must_use]
    pub fn bytes(self, bytes: &[u8]) -> Self {
        let mut d = self.word(bytes.len() as u64);
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            d = d.word(u64::from_le_bytes(w));
        }
        d
    }
}

/// The fingerprint of a model: every LTS of the product (components, then the properties' error
/// LTSs) with its states, initial state and transitions by action name.
///
/// ```
/// use guarantor_compose::checkpoint::model_fingerprint;
/// use guarantor_lts::Lts;
/// let a = Lts::from_edges([(0, "a", 1)])?;
/// let b = Lts::from_edges([(0, "b", 1)])?;
/// assert_eq!(model_fingerprint(&[&a]), model_fingerprint(&[&a.clone()]));
/// assert_ne!(model_fingerprint(&[&a]), model_fingerprint(&[&b]));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn model_fingerprint(all: &[&Lts]) -> u64 {
    let mut d = Digest::START.word(all.len() as u64);
    for lts in all {
        d = d
            .word(lts.num_states() as u64)
            .word(u64::from(lts.initial().as_u32()));
        for t in lts.transitions() {
            d = d
                .word(u64::from(t.source.as_u32()))
                .bytes(lts.action_name(t.action).as_bytes())
                .word(u64::from(t.target.as_u32()));
        }
    }
    d.0
}

/// The fingerprint of the options that change what the search finds: the deadlock search, the end
/// states and the priority (budgets, threads and storage do not, so a resume may change them).
///
/// ```
/// use guarantor_compose::checkpoint::options_fingerprint;
/// use guarantor_compose::SystemOptions;
/// let off = SystemOptions::default();
/// let on = SystemOptions::default().with_deadlock(Vec::new());
/// assert_ne!(options_fingerprint(&on), options_fingerprint(&off));
/// ```
pub fn options_fingerprint(options: &SystemOptions) -> u64 {
    let mut d = Digest::START.word(u64::from(options.deadlock));
    for end in &options.end_states {
        d = d.word(end.map_or(u64::MAX, |s| u64::from(s.as_u32())));
    }
    if let Some(p) = &options.priority {
        d = d.word(u64::from(p.is_high()));
        for a in p.actions() {
            d = d.bytes(a.as_bytes());
        }
    }
    d.0
}

#[cfg(test)]
mod tests;
