//! [`Recorder`]: the checkpoint directory of one running search. It appends each discovered tuple
//! to `states.log` as the search numbers it (so stores that forget expanded tuples can be
//! checkpointed too), appends parents and writes the manifest at each checkpoint, and on resume
//! reads the logs back into a fresh store.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use guarantor_lts::{ActionId, Lts, StateId};

use super::format::{Manifest, PARENT_BYTES, Packer};
use super::{CheckpointError, Checkpointing, Digest};
use crate::config::Budget;
use crate::engine::store::Store;
use crate::error::ComposeError;

const MANIFEST: &str = "manifest";
const STATES: &str = "states.log";
const PARENTS: &str = "parents.log";

/// The search's counters at a checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// States below it are expanded.
    pub(crate) next: u32,
    pub(crate) transitions: usize,
    pub(crate) deadlock: Option<u32>,
}

/// What a resume gives back besides the refilled store.
#[derive(Debug)]
pub(crate) struct Restored {
    pub(crate) cursor: Cursor,
    pub(crate) parents: Vec<(u32, ActionId)>,
}

/// An append-only log of fixed-size records with a running checksum ([`Digest`]) of what it
/// holds: the monolithic search's `states.log` and `parents.log`, and the logs of the distributed
/// engine's checkpoint parts. Records are buffered; [`AppendLog::sync`] puts them on disk.
///
/// ```
/// use guarantor_compose::checkpoint::{AppendLog, Digest};
/// let dir = std::env::temp_dir().join(format!("guarantor-doc-log-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let mut log = AppendLog::open(dir.join("a.log"), 0, Digest::START, 0)?;
/// log.append(b"abcd")?;
/// log.sync()?;
/// assert_eq!((log.records(), log.sum()), (1, Digest::START.bytes(b"abcd")));
/// // Reopened after its first record: what follows is cut off.
/// let log = AppendLog::open(dir.join("a.log"), 4, log.sum(), 1)?;
/// assert_eq!(std::fs::metadata(dir.join("a.log"))?.len(), 4);
/// # drop(log);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AppendLog {
    path: PathBuf,
    out: BufWriter<File>,
    sum: Digest,
    records: u64,
}

impl AppendLog {
    /// Opens `path` (created if missing) for appending after its first `len` bytes, cutting off
    /// the rest; `sum` and `records` are the checksum and count of those bytes.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when the file cannot be opened, cut or positioned.
    pub fn open(
        path: PathBuf,
        len: u64,
        sum: Digest,
        records: u64,
    ) -> Result<Self, CheckpointError> {
        let io = |e: std::io::Error| CheckpointError::io(&path, &e);
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        file.set_len(len).map_err(io)?;
        file.seek(SeekFrom::Start(len)).map_err(io)?;
        Ok(Self {
            out: BufWriter::with_capacity(1 << 20, file),
            path,
            sum,
            records,
        })
    }

    /// Appends one record (buffered).
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when a buffer cannot be written out.
    pub fn append(&mut self, record: &[u8]) -> Result<(), CheckpointError> {
        self.sum = self.sum.bytes(record);
        self.records += 1;
        self.out
            .write_all(record)
            .map_err(|e| CheckpointError::io(&self.path, &e))
    }

    /// Writes what is buffered and waits until it is on disk.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when writing or syncing fails.
    pub fn sync(&mut self) -> Result<(), CheckpointError> {
        let io = |e: std::io::Error| CheckpointError::io(&self.path, &e);
        self.out.flush().map_err(io)?;
        self.out.get_ref().sync_data().map_err(io)
    }

    /// The records appended (those it was opened with included).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The checksum of every record, in order.
    pub fn sum(&self) -> Digest {
        self.sum
    }
}

/// The checkpoint directory of one running search (see the module docs).
#[derive(Debug)]
pub(crate) struct Recorder {
    plan: Checkpointing,
    model: u64,
    options: u64,
    packer: Packer,
    states: AppendLog,
    parents: AppendLog,
    record: Vec<u8>,
    tuple: Vec<StateId>,
    last: Instant,
}

impl Recorder {
    /// Starts a fresh checkpoint in `plan.dir` (replacing one that is there).
    pub(crate) fn create(
        plan: &Checkpointing,
        components: &[&Lts],
        model: u64,
        options: u64,
    ) -> Result<Self, CheckpointError> {
        std::fs::create_dir_all(&plan.dir).map_err(|e| CheckpointError::io(&plan.dir, &e))?;
        let manifest = plan.dir.join(MANIFEST);
        match std::fs::remove_file(&manifest) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(CheckpointError::io(&manifest, &e));
            }
            _ => {}
        }
        let states = AppendLog::open(plan.dir.join(STATES), 0, Digest::START, 0)?;
        let parents = AppendLog::open(plan.dir.join(PARENTS), 0, Digest::START, 0)?;
        Ok(Self::with_logs(
            plan, components, model, options, states, parents,
        ))
    }

    fn with_logs(
        plan: &Checkpointing,
        components: &[&Lts],
        model: u64,
        options: u64,
        states: AppendLog,
        parents: AppendLog,
    ) -> Self {
        Self {
            plan: plan.clone(),
            model,
            options,
            packer: Packer::new(components),
            states,
            parents,
            record: Vec::new(),
            tuple: vec![StateId::from_u32(0); components.len()],
            last: Instant::now(),
        }
    }

    /// Appends the tuple of state `id` (just numbered) from `store`.
    #[inline]
    pub(crate) fn add_state<S: Store>(
        &mut self,
        store: &S,
        id: u32,
    ) -> Result<(), CheckpointError> {
        store.load(id, &mut self.tuple);
        self.record.clear();
        self.packer.pack(&self.tuple, &mut self.record);
        self.states.append(&self.record)
    }

    /// Whether the next checkpoint is due.
    #[inline]
    pub(crate) fn due(&self) -> bool {
        self.last.elapsed() >= self.plan.every
    }

    /// Writes a checkpoint: the parents not yet in their log, both logs synced, then the manifest
    /// replaced atomically.
    pub(crate) fn commit(
        &mut self,
        parents: &[(u32, ActionId)],
        cursor: Cursor,
    ) -> Result<(), CheckpointError> {
        for &(parent, action) in &parents[self.parents.records() as usize..] {
            let mut record = [0u8; PARENT_BYTES];
            record[..4].copy_from_slice(&parent.to_le_bytes());
            record[4..].copy_from_slice(&action.as_u32().to_le_bytes());
            self.parents.append(&record)?;
        }
        self.states.sync()?;
        self.parents.sync()?;
        let manifest = Manifest {
            version: self.plan.version.clone(),
            model: self.model,
            options: self.options,
            states: self.states.records(),
            next: u64::from(cursor.next),
            transitions: cursor.transitions as u64,
            deadlock: cursor.deadlock,
            states_sum: self.states.sum().0,
            parents_sum: self.parents.sum().0,
        };
        write_atomically(&self.plan.dir, MANIFEST, &manifest.encode())?;
        self.last = Instant::now();
        Ok(())
    }

    /// Resumes from the checkpoint in `plan.dir`: checks that it is of this model, these options
    /// and this version, numbers its tuples in `store` in their order (which must be empty),
    /// reads the parents and cuts both logs to the checkpoint for appending.
    pub(crate) fn resume<S: Store>(
        plan: &Checkpointing,
        components: &[&Lts],
        model: u64,
        options: u64,
        store: &mut S,
        budget: &mut Budget<'_>,
    ) -> Result<(Self, Restored), ComposeError> {
        let manifest = read_manifest(plan)?;
        if manifest.version != plan.version {
            return Err(CheckpointError::OtherVersion {
                found: manifest.version,
                expected: plan.version.clone(),
            }
            .into());
        }
        if manifest.model != model {
            return Err(CheckpointError::OtherModel {
                dir: plan.dir.clone(),
            }
            .into());
        }
        if manifest.options != options {
            return Err(CheckpointError::OtherOptions {
                dir: plan.dir.clone(),
            }
            .into());
        }
        let packer = Packer::new(components);
        let states_path = plan.dir.join(STATES);
        let sum = refill(&states_path, &packer, components, &manifest, store, budget)?;
        let (parents, parents_sum) = read_parents(&plan.dir.join(PARENTS), manifest.states)?;
        if parents_sum.0 != manifest.parents_sum {
            return Err(
                CheckpointError::corrupt(&plan.dir.join(PARENTS), "checksum mismatch").into(),
            );
        }
        let records = manifest.states;
        let states = AppendLog::open(
            states_path,
            records * packer.record_bytes() as u64,
            sum,
            records,
        )?;
        let parents_log = AppendLog::open(
            plan.dir.join(PARENTS),
            records * PARENT_BYTES as u64,
            parents_sum,
            records,
        )?;
        let recorder = Self::with_logs(plan, components, model, options, states, parents_log);
        let cursor = Cursor {
            next: manifest.next as u32,
            transitions: manifest.transitions as usize,
            deadlock: manifest.deadlock,
        };
        Ok((recorder, Restored { cursor, parents }))
    }
}

fn read_manifest(plan: &Checkpointing) -> Result<Manifest, CheckpointError> {
    let path = plan.dir.join(MANIFEST);
    match std::fs::read(&path) {
        Ok(bytes) => Manifest::decode(&bytes, &path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(CheckpointError::Missing {
            dir: plan.dir.clone(),
        }),
        Err(e) => Err(CheckpointError::io(&path, &e)),
    }
}

/// Numbers the manifest's tuples from `path` in `store`, in order; returns the log's checksum.
fn refill<S: Store>(
    path: &Path,
    packer: &Packer,
    components: &[&Lts],
    manifest: &Manifest,
    store: &mut S,
    budget: &mut Budget<'_>,
) -> Result<Digest, ComposeError> {
    let bad = |reason: &str| CheckpointError::corrupt(path, reason);
    let file = File::open(path).map_err(|e| CheckpointError::io(path, &e))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut record = vec![0u8; packer.record_bytes()];
    let mut tuple = vec![StateId::from_u32(0); components.len()];
    let mut sum = Digest::START;
    for i in 0..manifest.states {
        input
            .read_exact(&mut record)
            .map_err(|_| bad("shorter than its manifest says"))?;
        sum = sum.bytes(&record);
        packer
            .unpack(&record, components, &mut tuple)
            .ok_or_else(|| bad("a tuple names a state its component lacks"))?;
        let (id, new) = store.insert(&tuple)?;
        if !new || u64::from(id) != i {
            return Err(bad("a tuple is stored twice").into());
        }
        budget.tick()?;
        if i % 4096 == 0 {
            budget.check_states(store.len())?;
            store.release_below((i as u32).min(manifest.next as u32));
        }
    }
    budget.check_states(store.len())?;
    if sum.0 != manifest.states_sum {
        return Err(bad("checksum mismatch").into());
    }
    Ok(sum)
}

/// The first `count` parent records of `path`, and their checksum.
fn read_parents(
    path: &Path,
    count: u64,
) -> Result<(Vec<(u32, ActionId)>, Digest), CheckpointError> {
    let bad = |reason: &str| CheckpointError::corrupt(path, reason);
    let file = File::open(path).map_err(|e| CheckpointError::io(path, &e))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut parents = Vec::with_capacity(usize::try_from(count).unwrap_or(0).min(1 << 24));
    let mut sum = Digest::START;
    let mut record = [0u8; PARENT_BYTES];
    for i in 0..count {
        input
            .read_exact(&mut record)
            .map_err(|_| bad("shorter than its manifest says"))?;
        sum = sum.bytes(&record);
        let parent = u32::from_le_bytes(record[..4].try_into().expect("4 bytes"));
        let action = u32::from_le_bytes(record[4..].try_into().expect("4 bytes"));
        if parent != u32::MAX && u64::from(parent) >= i {
            return Err(bad("a parent after its child"));
        }
        parents.push((parent, ActionId::from_u32(action)));
    }
    Ok((parents, sum))
}

/// Replaces `dir/name` by `bytes` so that a kill at any instant leaves the old file or the new one:
/// a temporary file, synced, renamed over it, and the directory synced (the rename's durability).
///
/// ```
/// use guarantor_compose::checkpoint::write_atomically;
/// let dir = std::env::temp_dir().join(format!("guarantor-doc-atomic-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// write_atomically(&dir, "manifest", b"one")?;
/// write_atomically(&dir, "manifest", b"two")?;
/// assert_eq!(std::fs::read(dir.join("manifest"))?, b"two");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`CheckpointError::Io`] naming the file when writing, syncing or renaming fails.
pub fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), CheckpointError> {
    let tmp = dir.join(format!("{name}.tmp"));
    let target = dir.join(name);
    let write = || -> std::io::Result<()> {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, &target)?;
        // Syncing a directory is how POSIX makes a rename durable; where a directory cannot be
        // opened as a file (not on Linux) the rename is as durable as the platform makes it.
        if let Ok(d) = File::open(dir) {
            d.sync_all()?;
        }
        Ok(())
    };
    write().map_err(|e| CheckpointError::io(&target, &e))
}
