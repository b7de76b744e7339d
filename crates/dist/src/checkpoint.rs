//! Checkpoints of a distributed check at level boundaries: each worker writes its own *part*
//! (the states it owns, their parents, and the level's frontier), and a resume continues from the
//! last level that every worker wrote.
//!
//! **What a part holds.** Worker `w` keeps, in `DIR/dist-w/`, two append-only logs as the
//! monolithic search does (compose's [`AppendLog`]): `states.log`, the tuples it claimed in the
//! order it numbered them (compose's [`Packer`] records, so the log does not depend on the store
//! the visited set uses), and `parents.log`, per state its parent reference and action (12 bytes).
//! While checkpointing, every level's claims are appended (buffered) as they are made. At a
//! checkpoint level `L` (chosen by worker 0 and announced in its report, so every worker takes the
//! same levels) the worker syncs both logs and writes `level-L.manifest` atomically (compose's
//! [`write_atomically`]): how many records count, where level `L`'s claims (the frontier, not yet
//! expanded) start, the logs' checksums, and the global view every worker holds before level `L`'s
//! reports (states, transitions, depth, the best deadlock). A resume re-expands the frontier:
//! expanding is deterministic, so it sends the same candidates the killed run sent.
//!
//! **Generations.** A worker keeps its last two manifests and deletes older ones when it writes
//! a new one. Worker `w` reaching level `L'` means timely's progress tracking saw every worker
//! finish level `L' - 1`, so when it writes `L'` every worker has written its previous checkpoint
//! level: the previous generation is complete everywhere before anything deletes the one before
//! it. A kill at any instant therefore leaves, in every part, the last generation every worker
//! completed. On resume each worker reads its manifests, the workers exchange which levels they
//! hold ([`agree`], a small dataflow), and all take the highest level every one of them holds;
//! each then cuts its logs to that level's prefix and deletes its later manifests.
//!
//! **What must match.** The manifest records the program version, fingerprints of the model and
//! of the options (compose's [`model_fingerprint`] and [`options_fingerprint`]), and the number of
//! workers over all processes: a state's owner is its hash modulo the workers, so a resume needs
//! the same partition. Any difference is refused with a typed [`CheckpointError`].

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use guarantor_compose::SystemOptions;
use guarantor_compose::TupleSet;
use guarantor_compose::checkpoint::{
    AppendLog, CheckpointError, Checkpointing, Digest, ManifestReader, Packer, manifest_bytes,
    model_fingerprint, options_fingerprint, write_atomically,
};
use guarantor_lts::{Lts, StateId};
use timely::dataflow::ProbeHandle;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::Probe;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::vec::ToStream;
use timely::worker::Worker;

/// A reference to a stored state, `(worker, index)`, as the engine keeps it.
type Ref = (u32, u32);

/// The best deadlock found before a checkpoint level, as the engine's `DeadHit` holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dead {
    pub(crate) level: u32,
    pub(crate) tuple: Vec<u32>,
    pub(crate) at: Ref,
}

const STATES: &str = "states.log";
const PARENTS: &str = "parents.log";

/// The bytes of one parent record: the parent's worker and index, and the action.
const PARENT_BYTES: usize = 12;

/// The manifest's first bytes; the last one is the format's version.
const MAGIC: &[u8; 8] = b"GRNTDCK\x01";

/// What every worker of a checkpointing check shares: the plan and the fingerprints.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) checkpointing: Checkpointing,
    pub(crate) model: u64,
    pub(crate) options: u64,
}

impl Plan {
    pub(crate) fn new(plan: Checkpointing, all: &[Lts], options: &SystemOptions) -> Self {
        let refs: Vec<&Lts> = all.iter().collect();
        Self {
            checkpointing: plan,
            model: model_fingerprint(&refs),
            options: options_fingerprint(options),
        }
    }

    fn part_dir(&self, worker: u32) -> PathBuf {
        self.checkpointing.dir.join(format!("dist-{worker}"))
    }
}

/// The global view at a checkpoint level, before that level's reports: what a resume restores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Snapshot {
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) depth: u32,
    pub(crate) deadlock: Option<Dead>,
}

/// One worker's manifest of one checkpoint level.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Manifest {
    version: String,
    model: u64,
    options: u64,
    workers: u32,
    worker: u32,
    level: u32,
    /// Records of each log that count.
    states: u64,
    /// The first record claimed at `level`: the frontier runs from here to `states`.
    frontier: u64,
    states_sum: u64,
    parents_sum: u64,
    view: Snapshot,
}

impl Manifest {
    fn encode(&self) -> Vec<u8> {
        let mut words = vec![
            self.model,
            self.options,
            u64::from(self.workers),
            u64::from(self.worker),
            u64::from(self.level),
            self.states,
            self.frontier,
            self.states_sum,
            self.parents_sum,
            self.view.states,
            self.view.transitions,
            u64::from(self.view.depth),
        ];
        match &self.view.deadlock {
            None => words.push(u64::MAX),
            Some(d) => {
                words.extend([
                    u64::from(d.level),
                    u64::from(d.at.0),
                    u64::from(d.at.1),
                    d.tuple.len() as u64,
                ]);
                words.extend(d.tuple.iter().map(|&s| u64::from(s)));
            }
        }
        manifest_bytes(MAGIC, &self.version, words)
    }

    fn decode(bytes: &[u8], path: &Path) -> Result<Self, CheckpointError> {
        let mut r = ManifestReader::open(bytes, path, MAGIC, "distributed checkpoint")?;
        let version = r.version().to_owned();
        let mut m = Self {
            version,
            model: r.word()?,
            options: r.word()?,
            workers: r.narrow()?,
            worker: r.narrow()?,
            level: r.narrow()?,
            states: r.word()?,
            frontier: r.word()?,
            states_sum: r.word()?,
            parents_sum: r.word()?,
            view: Snapshot::default(),
        };
        m.view.states = r.word()?;
        m.view.transitions = r.word()?;
        m.view.depth = r.narrow()?;
        let level = r.word()?;
        if level != u64::MAX {
            let at = (r.narrow()?, r.narrow()?);
            let n = usize::try_from(r.word()?).map_err(|_| r.corrupt("a field out of range"))?;
            let mut tuple = Vec::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                tuple.push(r.narrow()?);
            }
            m.view.deadlock = Some(Dead {
                level: u32::try_from(level).map_err(|_| r.corrupt("a field out of range"))?,
                tuple,
                at,
            });
        }
        if m.frontier > m.states {
            return Err(r.corrupt("frontier past the states"));
        }
        Ok(m)
    }

    fn file_name(level: u32) -> String {
        format!("level-{level:010}.manifest")
    }
}

/// One worker's checkpoint part while the search runs (see the module docs).
#[derive(Debug)]
pub(crate) struct Part {
    plan: Plan,
    dir: PathBuf,
    workers: u32,
    worker: u32,
    packer: Packer,
    states: AppendLog,
    parents: AppendLog,
    /// Levels with a manifest on disk, ascending (at most two after a commit).
    levels: Vec<u32>,
    /// When the last checkpoint was written; `None` in a fresh run, whose first checkpoint is
    /// due at once (at level 1), so that a run killed early, or one that ends before
    /// `every`, leaves one.
    last: Option<Instant>,
    /// The first failure to write, kept to be reported when the search stops.
    pub(crate) failed: Option<CheckpointError>,
    tuple: Vec<StateId>,
    record: Vec<u8>,
}

impl Part {
    /// Starts a fresh part for `worker` (replacing what its directory holds).
    pub(crate) fn create(
        plan: &Plan,
        all: &[Lts],
        worker: u32,
        workers: u32,
    ) -> Result<Self, CheckpointError> {
        let dir = plan.part_dir(worker);
        std::fs::create_dir_all(&dir).map_err(|e| CheckpointError::io(&dir, &e))?;
        for (_, path) in manifests(&dir)? {
            std::fs::remove_file(&path).map_err(|e| CheckpointError::io(&path, &e))?;
        }
        let states = AppendLog::open(dir.join(STATES), 0, Digest::START, 0)?;
        let parents = AppendLog::open(dir.join(PARENTS), 0, Digest::START, 0)?;
        let mut part = Self::with_logs(plan, all, (worker, workers), (states, parents), Vec::new());
        part.last = None;
        Ok(part)
    }

    fn with_logs(
        plan: &Plan,
        all: &[Lts],
        (worker, workers): (u32, u32),
        (states, parents): (AppendLog, AppendLog),
        levels: Vec<u32>,
    ) -> Self {
        let refs: Vec<&Lts> = all.iter().collect();
        Self {
            dir: plan.part_dir(worker),
            plan: plan.clone(),
            workers,
            worker,
            packer: Packer::new(&refs),
            states,
            parents,
            levels,
            last: Some(Instant::now()),
            failed: None,
            tuple: vec![StateId::from_u32(0); all.len()],
            record: Vec::new(),
        }
    }

    /// Whether the next checkpoint is due (asked on worker 0 only, which announces it).
    pub(crate) fn due(&self) -> bool {
        self.last
            .is_none_or(|last| last.elapsed() >= self.plan.checkpointing.every)
    }

    /// Appends a level's claims: `keys` (packed by `set`, in the order numbered) and their
    /// `parents`. A failure is kept in [`Part::failed`] and stops the search at the next level.
    pub(crate) fn append_level<'k>(
        &mut self,
        set: &TupleSet,
        keys: impl Iterator<Item = &'k [u64]>,
        parents: &[(Ref, u32)],
    ) {
        if self.failed.is_some() {
            return;
        }
        let write = || -> Result<(), CheckpointError> {
            for key in keys {
                set.unpack(key, &mut self.tuple);
                self.record.clear();
                self.packer.pack(&self.tuple, &mut self.record);
                self.states.append(&self.record)?;
            }
            for &((worker, index), action) in parents {
                let mut record = [0u8; PARENT_BYTES];
                record[..4].copy_from_slice(&worker.to_le_bytes());
                record[4..8].copy_from_slice(&index.to_le_bytes());
                record[8..].copy_from_slice(&action.to_le_bytes());
                self.parents.append(&record)?;
            }
            Ok(())
        };
        if let Err(e) = write() {
            self.failed = Some(e);
        }
    }

    /// Writes the checkpoint of `level`, whose claims start at record `frontier`: both logs
    /// synced, then the level's manifest atomically, then the manifests older than the previous
    /// checkpoint removed. A failure is kept in [`Part::failed`]; returns whether it succeeded.
    pub(crate) fn commit(&mut self, level: u32, frontier: u64, view: Snapshot) -> bool {
        if self.failed.is_some() {
            return false;
        }
        match self.try_commit(level, frontier, view) {
            Ok(()) => true,
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }

    fn try_commit(
        &mut self,
        level: u32,
        frontier: u64,
        view: Snapshot,
    ) -> Result<(), CheckpointError> {
        self.states.sync()?;
        self.parents.sync()?;
        let manifest = Manifest {
            version: self.plan.checkpointing.version.clone(),
            model: self.plan.model,
            options: self.plan.options,
            workers: self.workers,
            worker: self.worker,
            level,
            states: self.states.records(),
            frontier,
            states_sum: self.states.sum().0,
            parents_sum: self.parents.sum().0,
            view,
        };
        write_atomically(&self.dir, &Manifest::file_name(level), &manifest.encode())?;
        self.levels.push(level);
        // Every worker has written the previous level (see the module docs): the ones before it
        // are no longer needed by any resume.
        while self.levels.len() > 2 {
            let old = self.dir.join(Manifest::file_name(self.levels.remove(0)));
            std::fs::remove_file(&old).map_err(|e| CheckpointError::io(&old, &e))?;
        }
        self.last = Some(Instant::now());
        Ok(())
    }
}

/// The manifests in a part's directory, by level, ascending (temporary files ignored).
fn manifests(dir: &Path) -> Result<Vec<(u32, PathBuf)>, CheckpointError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(CheckpointError::io(dir, &e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| CheckpointError::io(dir, &e))?;
        let name = entry.file_name();
        let Some(level) = name
            .to_str()
            .and_then(|n| n.strip_prefix("level-"))
            .and_then(|n| n.strip_suffix(".manifest"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        found.push((level, entry.path()));
    }
    found.sort_unstable();
    Ok(found)
}

/// What a worker found in its part before the workers agree on a level: its valid manifests and
/// the logs' records up to the latest of them, checked against their checksums.
#[derive(Debug)]
pub(crate) struct Survey {
    manifests: Vec<Manifest>,
    states: Vec<u8>,
    parents: Vec<u8>,
}

impl Survey {
    /// The levels this part can resume from.
    pub(crate) fn levels(&self) -> Vec<u32> {
        self.manifests.iter().map(|m| m.level).collect()
    }
}

/// Reads and checks `worker`'s part: every manifest must be of this version, model, options and
/// worker count, and the logs must hold what the latest says. A part without manifests offers no
/// level.
pub(crate) fn survey(
    plan: &Plan,
    all: &[Lts],
    (worker, workers): (u32, u32),
) -> Result<Survey, CheckpointError> {
    let dir = plan.part_dir(worker);
    let found = manifests(&dir)?;
    if found.is_empty() {
        // Nothing to offer: the workers then hold no level in common, which is reported as a
        // missing checkpoint (a part may lack a level others wrote when its worker stopped
        // there on a budget, or was killed before writing its first).
        return Ok(Survey {
            manifests: Vec::new(),
            states: Vec::new(),
            parents: Vec::new(),
        });
    }
    let mut list = Vec::with_capacity(found.len());
    for (level, path) in found {
        let bytes = std::fs::read(&path).map_err(|e| CheckpointError::io(&path, &e))?;
        let m = Manifest::decode(&bytes, &path)?;
        if m.version != plan.checkpointing.version {
            return Err(CheckpointError::OtherVersion {
                found: m.version,
                expected: plan.checkpointing.version.clone(),
            });
        }
        if m.workers != workers {
            return Err(CheckpointError::OtherWorkers {
                found: m.workers as usize,
                expected: workers as usize,
            });
        }
        if m.model != plan.model {
            return Err(CheckpointError::OtherModel {
                dir: plan.checkpointing.dir.clone(),
            });
        }
        if m.options != plan.options {
            return Err(CheckpointError::OtherOptions {
                dir: plan.checkpointing.dir.clone(),
            });
        }
        if m.worker != worker || m.level != level {
            return Err(CheckpointError::corrupt(
                &path,
                "another worker's or level's",
            ));
        }
        list.push(m);
    }
    let count = list.iter().map(|m| m.states).max().unwrap_or(0);
    let refs: Vec<&Lts> = all.iter().collect();
    let record = Packer::new(&refs).record_bytes();
    let states = read_checked(&dir.join(STATES), record, count, &list, |m| m.states_sum)?;
    let parents = read_checked(&dir.join(PARENTS), PARENT_BYTES, count, &list, |m| {
        m.parents_sum
    })?;
    Ok(Survey {
        manifests: list,
        states,
        parents,
    })
}

/// Reads the first `count` records of `record` bytes from `path`, checking the running checksum
/// at every manifest's prefix.
fn read_checked(
    path: &Path,
    record: usize,
    count: u64,
    list: &[Manifest],
    sum_of: impl Fn(&Manifest) -> u64,
) -> Result<Vec<u8>, CheckpointError> {
    let bad = |reason: &str| CheckpointError::corrupt(path, reason);
    let file = File::open(path).map_err(|e| CheckpointError::io(path, &e))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let total = usize::try_from(count)
        .ok()
        .and_then(|c| c.checked_mul(record))
        .ok_or_else(|| bad("too large"))?;
    let mut bytes = Vec::with_capacity(total.min(1 << 30));
    let mut sum = Digest::START;
    let mut buf = vec![0u8; record];
    for i in 0..=count {
        for m in list.iter().filter(|m| m.states == i) {
            if sum.0 != sum_of(m) {
                return Err(bad("checksum mismatch"));
            }
        }
        if i == count {
            break;
        }
        input
            .read_exact(&mut buf)
            .map_err(|_| bad("shorter than its manifest says"))?;
        sum = sum.bytes(&buf);
        bytes.extend_from_slice(&buf);
    }
    Ok(bytes)
}

/// What a resumed worker starts from: its part (logs cut to the level, later manifests removed),
/// the global view, and the frontier's keys (packed by the shard's set).
#[derive(Debug)]
pub(crate) struct Resumed {
    pub(crate) part: Part,
    pub(crate) view: Snapshot,
    pub(crate) frontier: Vec<u64>,
}

/// Refills `set` and `parents` from `survey` up to `level` (which it must hold), and reopens the
/// part for writing from there.
pub(crate) fn restore(
    plan: &Plan,
    all: &[Lts],
    (worker, workers): (u32, u32),
    survey: &Survey,
    level: u32,
    (set, parents): (&mut TupleSet, &mut Vec<(Ref, u32)>),
) -> Result<Resumed, guarantor_compose::ComposeError> {
    let dir = plan.part_dir(worker);
    let m = survey
        .manifests
        .iter()
        .find(|m| m.level == level)
        .ok_or_else(|| CheckpointError::corrupt(&dir, "the agreed level is missing"))?
        .clone();
    let refs: Vec<&Lts> = all.iter().collect();
    let packer = Packer::new(&refs);
    let record = packer.record_bytes();
    let states_path = dir.join(STATES);
    let bad = |reason: &str| CheckpointError::corrupt(&states_path, reason);
    let count = usize::try_from(m.states).map_err(|_| bad("too large"))?;
    let frontier = refill(
        (&packer, &refs),
        (&survey.states[..count * record], count),
        m.frontier,
        set,
    )
    .map_err(|e| match e {
        Refill::Store(e) => e,
        Refill::Bad(reason) => bad(reason).into(),
    })?;
    parents.extend(
        survey.parents[..count * PARENT_BYTES]
            .chunks_exact(PARENT_BYTES)
            .map(|chunk| {
                let word =
                    |at: usize| u32::from_le_bytes(chunk[at..at + 4].try_into().expect("4 bytes"));
                ((word(0), word(4)), word(8))
            }),
    );
    // The survey checked both logs against this manifest's checksums.
    let (states_sum, parents_sum) = (Digest(m.states_sum), Digest(m.parents_sum));
    let logs = (
        AppendLog::open(
            states_path.clone(),
            (count * record) as u64,
            states_sum,
            m.states,
        )?,
        AppendLog::open(
            dir.join(PARENTS),
            (count * PARENT_BYTES) as u64,
            parents_sum,
            m.states,
        )?,
    );
    // Manifests after the agreed level describe log records that are cut off now.
    for later in survey.manifests.iter().filter(|x| x.level > level) {
        let path = dir.join(Manifest::file_name(later.level));
        std::fs::remove_file(&path).map_err(|e| CheckpointError::io(&path, &e))?;
    }
    let levels = survey
        .manifests
        .iter()
        .map(|x| x.level)
        .filter(|&l| l <= level)
        .collect();
    let part = Part::with_logs(plan, all, (worker, workers), logs, levels);
    Ok(Resumed {
        part,
        view: m.view,
        frontier,
    })
}

/// Why a refill failed: the store (a budget), or a damaged record.
enum Refill {
    Store(guarantor_compose::ComposeError),
    Bad(&'static str),
}

/// Inserts the `count` packed tuples of `records` into `set` in order (a chunk of keys at a time, each
/// key's cache line touched a few keys ahead of its insertion, as the search does, so that the
/// misses overlap); returns the keys of the records from `frontier` on.
fn refill(
    (packer, refs): (&Packer, &[&Lts]),
    (records, count): (&[u8], usize),
    frontier: u64,
    set: &mut TupleSet,
) -> Result<Vec<u64>, Refill> {
    const CHUNK: usize = 4096;
    const AHEAD: usize = 32;
    let kw = set.key_words();
    let mut tuple = vec![StateId::from_u32(0); refs.len()];
    let mut keys = vec![0u64; CHUNK * kw];
    let mut out = Vec::new();
    let mut warm = 0u64;
    let mut index = 0u64;
    // Records of zero bytes (every component has one state) are counted, not sliced by size.
    let rb = packer.record_bytes();
    for start in (0..count).step_by(CHUNK) {
        let n = CHUNK.min(count - start);
        for (j, key) in keys.chunks_exact_mut(kw).take(n).enumerate() {
            let at = (start + j) * rb;
            packer
                .unpack(&records[at..at + rb], refs, &mut tuple)
                .ok_or(Refill::Bad("a tuple names a state its component lacks"))?;
            set.pack(&tuple, key);
        }
        for i in 0..n.min(AHEAD) {
            warm ^= set.touch(&keys[i * kw..(i + 1) * kw]);
        }
        for i in 0..n {
            if i + AHEAD < n {
                warm ^= set.touch(&keys[(i + AHEAD) * kw..(i + AHEAD + 1) * kw]);
            }
            let key = &keys[i * kw..(i + 1) * kw];
            if !set.insert(key).map_err(Refill::Store)? {
                return Err(Refill::Bad("a tuple is stored twice"));
            }
            if index >= frontier {
                out.extend_from_slice(key);
            }
            index += 1;
        }
    }
    std::hint::black_box(warm);
    Ok(out)
}

/// What a worker tells the others before a resume: the levels its part holds, or why it cannot
/// resume.
type Offer = Result<Vec<u32>, String>;

/// Exchanges every worker's offer (in a small dataflow of its own, so that a worker that cannot
/// resume does not leave the others waiting) and returns them by worker.
pub(crate) fn agree(worker: &mut Worker, mine: &Offer) -> Vec<Offer> {
    let index = worker.index() as u32;
    let peers = worker.peers() as u32;
    let got: Rc<RefCell<Vec<(u32, Offer)>>> = Rc::default();
    let probe = ProbeHandle::new();
    worker.dataflow::<u32, _, _>(|scope| {
        let out: Vec<(u32, u32, Offer)> = (0..peers).map(|to| (to, index, mine.clone())).collect();
        let got = Rc::clone(&got);
        out.to_stream(scope)
            .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(|m: &(u32, u32, Offer)| u64::from(m.0)),
                "Agree",
                move |_, _| {
                    move |input, _output| {
                        input.for_each(|_cap, data| {
                            for (_, from, offer) in data.drain(..) {
                                got.borrow_mut().push((from, offer));
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    while !probe.done() {
        worker.step_or_park(None);
    }
    let mut all = got.take();
    all.sort_by_key(|(from, _)| *from);
    all.into_iter().map(|(_, offer)| offer).collect()
}

/// Why the workers cannot resume together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Disagreement {
    /// This worker refused (its part is missing, damaged or of another check).
    Refused { worker: usize, message: String },
    /// Every part is sound, but no level is held by all (a fresh run was killed before its
    /// first checkpoint was complete everywhere).
    NoCommonLevel,
}

/// The highest level every offer holds, or the first worker's refusal.
pub(crate) fn common_level(offers: &[Offer]) -> Result<u32, Disagreement> {
    let mut common: Option<Vec<u32>> = None;
    for (worker, offer) in offers.iter().enumerate() {
        let levels = offer.as_ref().map_err(|message| Disagreement::Refused {
            worker,
            message: message.clone(),
        })?;
        common = Some(match common {
            None => levels.clone(),
            Some(c) => c.into_iter().filter(|l| levels.contains(l)).collect(),
        });
    }
    common
        .and_then(|c| c.into_iter().max())
        .ok_or(Disagreement::NoCommonLevel)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(deadlock: bool) -> Manifest {
        Manifest {
            version: "0.1.0".into(),
            model: 1,
            options: 2,
            workers: 4,
            worker: 3,
            level: 9,
            states: 30,
            frontier: 20,
            states_sum: 5,
            parents_sum: 6,
            view: Snapshot {
                states: 17,
                transitions: 40,
                depth: 8,
                deadlock: deadlock.then(|| Dead {
                    level: 3,
                    tuple: vec![1, 2, 3],
                    at: (2, 7),
                }),
            },
        }
    }

    #[test]
    fn a_manifest_reads_back_and_every_truncation_or_flip_is_an_error() {
        let path = Path::new("m");
        for deadlock in [false, true] {
            let bytes = manifest(deadlock).encode();
            assert_eq!(Manifest::decode(&bytes, path), Ok(manifest(deadlock)));
            for cut in 0..bytes.len() {
                assert!(Manifest::decode(&bytes[..cut], path).is_err(), "cut {cut}");
            }
            for at in 0..bytes.len() {
                let mut flipped = bytes.clone();
                flipped[at] ^= 0x10;
                assert!(Manifest::decode(&flipped, path).is_err(), "flip {at}");
            }
        }
    }

    #[test]
    fn the_common_level_is_the_highest_every_worker_holds() {
        let offers = vec![Ok(vec![4, 6]), Ok(vec![6, 8]), Ok(vec![6])];
        assert_eq!(common_level(&offers), Ok(6));
        assert_eq!(
            common_level(&[Ok(vec![4]), Ok(vec![6])]),
            Err(Disagreement::NoCommonLevel)
        );
        let refused = vec![Ok(vec![1]), Err("no".to_owned())];
        assert_eq!(
            common_level(&refused),
            Err(Disagreement::Refused {
                worker: 1,
                message: "no".to_owned()
            })
        );
    }
}
