//! One level of the search on one worker: claiming the level's new states from the candidate
//! streams that arrived for it, in an order that makes every state's parent a fixed function of
//! the product, then expanding them into the next level's streams.
//!
//! # Streams and the canonical parent
//!
//! A worker expands a level's states in ascending order of their packed keys, and writes the
//! successors it finds for each destination worker (itself included) as *groups*: the parent's
//! key, one word with the parent's index and the group's length, then per successor its key and
//! the action, in the product's enumeration order. A destination's groups therefore come in
//! ascending parent key, and the words for one destination form one stream, cut into batches of
//! up to [`FLUSH_WORDS`] words (at group boundaries) numbered in sending order.
//!
//! When the level is complete, the owner merges its streams (one per sender) by parent key and
//! inserts each candidate into its visited set in that merged order: the first candidate of a
//! state claims it. Since the merged order is the ascending order of `(parent key, position in
//! the parent's enumeration)` over every candidate of the level, whichever worker sent it, the
//! claiming candidate is the smallest such pair: the same parent for any number of workers and
//! processes. One probe of the visited set per candidate, as in the monolithic search; no map
//! of candidates, no per-candidate allocation.
//!
//! A successor this worker owns is written to its own stream, which never enters timely's
//! exchange: it waits for the next level in this worker's pending candidates.

use std::ops::ControlFlow;

use guarantor_compose::TupleSet;
use guarantor_compose::product::Scratch;
use guarantor_lts::{Lts, StateId};

use crate::checkpoint::Part;
use crate::engine::{DeadHit, ErrorHit, Job, Msg, ROOT, Ref, Report, Stop, Tally};

/// Words a batch collects for one destination before it is sent: 512 KB, large enough that
/// timely's per-message costs vanish, small enough that a level's sending overlaps its work.
pub(crate) const FLUSH_WORDS: usize = 1 << 16;

/// How far ahead of its insertion a candidate's first cache line is touched, so that the misses
/// of the visited set's lookups overlap (the monolithic walk batches its lookups for this).
const TOUCH_AHEAD: usize = 32;

/// A worker's visited states, as packed keys in compose's [`TupleSet`] (its table store, or its
/// compact store when the config asks and the tuples fit in 74 bits), and per state, in the
/// order stored, its parent reference and action.
/// With checkpoints, also the worker's checkpoint part, and after a resume the frontier to
/// expand first.
#[derive(Debug)]
pub(crate) struct Shard {
    pub(crate) set: TupleSet,
    pub(crate) parents: Vec<(Ref, u32)>,
    /// The checkpoint part this worker writes, if the check writes checkpoints.
    pub(crate) part: Option<Part>,
    /// After a resume: the restored frontier's keys (packed, in the order numbered), expanded
    /// at the first level; its states are the last ones of `parents`.
    pub(crate) frontier: Vec<u64>,
    /// Why restoring this worker's part failed, if it did (the search then stops at once).
    pub(crate) failed: Option<guarantor_compose::ComposeError>,
}

impl Shard {
    pub(crate) fn new(job: &Job) -> Self {
        let refs: Vec<&Lts> = job.all.iter().collect();
        Self {
            set: TupleSet::with_storage(&refs, job.storage),
            parents: Vec::new(),
            part: None,
            frontier: Vec::new(),
            failed: None,
        }
    }
}

/// A packed tuple as a sortable value: one word, two, or more (tuples wider than 128 bits).
pub(crate) trait Key: Clone + Ord + std::fmt::Debug + 'static {
    fn from_words(words: &[u64]) -> Self;
    fn words(&self) -> &[u64];
}

impl<const N: usize> Key for [u64; N] {
    #[inline]
    fn from_words(words: &[u64]) -> Self {
        let mut key = [0; N];
        key.copy_from_slice(&words[..N]);
        key
    }

    #[inline]
    fn words(&self) -> &[u64] {
        self
    }
}

impl Key for Box<[u64]> {
    fn from_words(words: &[u64]) -> Self {
        words.into()
    }

    fn words(&self) -> &[u64] {
        self
    }
}

/// The owner hash of a packed key: a fixed function of the key (splitmix64 of each word,
/// folded), the same in every process.
#[inline]
pub(crate) fn owner_hash(key: &[u64]) -> u64 {
    key.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, &w| {
        let mut x = (h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    })
}

/// This worker's place: its index, how many workers there are, and how many per process.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    pub(crate) index: u32,
    pub(crate) peers: u32,
    pub(crate) per_process: u32,
}

impl Place {
    /// The worker that owns the tuple of `key`.
    #[inline]
    pub(crate) fn owner(self, key: &[u64]) -> u32 {
        if self.peers == 1 {
            return 0;
        }
        (owner_hash(key) % u64::from(self.peers)) as u32
    }
}

/// The one batch that starts the search: the initial state, with the root as its parent.
pub(crate) fn seed(key: &[u64], owner: u32) -> Msg {
    let mut words = key.to_vec();
    words.push(u64::from(ROOT.1) << 32 | 1);
    words.extend_from_slice(key);
    words.push(0);
    Msg::Batch {
        to: owner,
        from: ROOT.0,
        seq: 0,
        words,
    }
}

/// What arrived for one level: the reports on the level before and the candidate batches.
#[derive(Debug, Default)]
pub(crate) struct Arrived {
    pub(crate) reports: Vec<Report>,
    /// `(sender, its batch number, words)`.
    batches: Vec<(u32, u32, Vec<u64>)>,
    /// The first level of a resumed search: expand the shard's restored frontier.
    pub(crate) resume: bool,
}

impl Arrived {
    /// The first level of a resumed search.
    pub(crate) fn resumed() -> Self {
        Self {
            resume: true,
            ..Self::default()
        }
    }

    pub(crate) fn take(&mut self, msg: Msg) {
        match msg {
            Msg::Control { report, .. } => self.reports.push(report),
            Msg::Batch {
                from, seq, words, ..
            } => self.batches.push((from, seq, words)),
        }
    }

    pub(crate) fn has_candidates(&self) -> bool {
        !self.batches.is_empty()
    }
}

/// One sender's stream, read group by group across its batches.
struct Stream<'a> {
    from: u32,
    batches: Vec<&'a [u64]>,
    /// The batch being read and the position in it.
    at: (usize, usize),
}

impl<'a> Stream<'a> {
    /// The parent key of the next group, if any.
    fn head(&self, kw: usize) -> Option<&'a [u64]> {
        let batch = self.batches.get(self.at.0)?;
        Some(&batch[self.at.1..self.at.1 + kw])
    }

    /// The next group: the parent's index and the group's candidates (key words, then the
    /// action, each).
    fn next_group(&mut self, kw: usize) -> (u32, &'a [u64]) {
        let batch = self.batches[self.at.0];
        let header = batch[self.at.1 + kw];
        let n = (header & u64::from(u32::MAX)) as usize;
        let start = self.at.1 + kw + 1;
        let end = start + n * (kw + 1);
        self.at.1 = end;
        if end == batch.len() {
            self.at = (self.at.0 + 1, 0);
        }
        ((header >> 32) as u32, &batch[start..end])
    }
}

/// Reusable buffers of one worker's levels.
#[derive(Debug)]
pub(crate) struct Buffers<K> {
    /// The level's candidates in claiming order: key words, then `action << 32 | parent index`,
    /// then the sender.
    merged: Vec<u64>,
    /// The states claimed at this level, with their indices, sorted before expansion.
    claimed: Vec<(K, u32)>,
}

impl<K> Default for Buffers<K> {
    fn default() -> Self {
        Self {
            merged: Vec::new(),
            claimed: Vec::new(),
        }
    }
}

/// One level's work on one worker.
pub(crate) struct Level<'j> {
    pub(crate) job: &'j Job,
    pub(crate) time: u32,
    pub(crate) place: Place,
}

impl Level<'_> {
    /// Claims the new states among `arrived`'s candidates, expands them in key order, sends
    /// their successors owned elsewhere through `emit` and puts those this worker owns into
    /// `next`. `known` is the global state count before the level.
    pub(crate) fn run<K: Key>(
        &self,
        (arrived, next): (&mut Arrived, &mut Arrived),
        shard: &mut Shard,
        known: u64,
        (buffers, tally): (&mut Buffers<K>, &mut Tally),
        emit: &mut impl FnMut(Msg),
    ) -> Report {
        let mut report = Report::default();
        arrived.batches.sort_unstable_by_key(|b| (b.0, b.1));
        // Merged and claimed a chunk at a time: the merged copy never holds more than a chunk.
        let mut merger = Merger::new(&arrived.batches, shard.set.key_words());
        loop {
            let more = merger.fill(&mut buffers.merged, MERGE_CHUNK);
            self.claim(shard, known, buffers, &mut report, tally);
            if report.stop.is_some() || !more {
                break;
            }
        }
        arrived.batches.clear();
        if report.stop.is_none()
            && let Some(part) = shard.part.as_mut()
        {
            // The claims in the order numbered (the claimed list is sorted only below).
            let start = shard.parents.len() - buffers.claimed.len();
            part.append_level(
                &shard.set,
                buffers.claimed.iter().map(|(k, _)| k.words()),
                &shard.parents[start..],
            );
        }
        if report.stop.is_none() {
            buffers.claimed.sort_unstable();
            self.expand(shard, &buffers.claimed, next, &mut report, tally, emit);
        }
        buffers.claimed.clear();
        report
    }

    /// The first level of a resumed search: expands the shard's restored frontier (claimed by
    /// the run that wrote the checkpoint, at this level) as [`Level::run`] expands its claims, and
    /// reports them as this level's new states. `known` is the global state count before the
    /// level.
    pub(crate) fn resume<K: Key>(
        &self,
        next: &mut Arrived,
        shard: &mut Shard,
        known: u64,
        (buffers, tally): (&mut Buffers<K>, &mut Tally),
        emit: &mut impl FnMut(Msg),
    ) -> Report {
        let mut report = Report::default();
        if shard.failed.is_some() {
            report.stop = Some(Stop::Checkpoint(self.place.index));
            return report;
        }
        let kw = shard.set.key_words();
        let frontier = std::mem::take(&mut shard.frontier);
        let count = frontier.len() / kw;
        let start = (shard.parents.len() - count) as u32;
        buffers.claimed.extend(
            frontier
                .chunks_exact(kw)
                .zip(start..)
                .map(|(key, id)| (K::from_words(key), id)),
        );
        report.states = count as u64;
        if self
            .job
            .limit
            .is_some_and(|l| known + report.states > l as u64)
        {
            report.stop = Some(Stop::StateLimit);
        } else {
            buffers.claimed.sort_unstable();
            self.expand(shard, &buffers.claimed, next, &mut report, tally, emit);
        }
        buffers.claimed.clear();
        report
    }

    /// Inserts the merged candidates into the visited set in order; the first candidate of a
    /// state claims it, giving its parent. Stops early on a budget.
    fn claim<K: Key>(
        &self,
        shard: &mut Shard,
        known: u64,
        buffers: &mut Buffers<K>,
        report: &mut Report,
        tally: &mut Tally,
    ) {
        let kw = shard.set.key_words();
        let stride = kw + 2;
        let merged = &buffers.merged;
        let count = merged.len() / stride;
        let mut warm = 0u64;
        for i in 0..count.min(TOUCH_AHEAD) {
            warm ^= shard.set.touch(&merged[i * stride..i * stride + kw]);
        }
        for i in 0..count {
            if i + TOUCH_AHEAD < count {
                let j = (i + TOUCH_AHEAD) * stride;
                warm ^= shard.set.touch(&merged[j..j + kw]);
            }
            if i % 256 == 0 {
                // The parents may be copied into a larger block and a compact sub-table grows:
                // the memory limit counts them ahead.
                let growth = shard.set.growth_bytes() - shard.set.bytes()
                    + shard.parents.capacity() * size_of::<(Ref, u32)>();
                if let Some(stop) = self.job.interrupted(growth as u64) {
                    report.stop = Some(stop);
                    break;
                }
            }
            let cand = &merged[i * stride..(i + 1) * stride];
            match shard.set.insert(&cand[..kw]) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => {
                    report.stop = Some(Stop::StateLimit);
                    break;
                }
            }
            let id = shard.parents.len() as u32;
            let (tail, from) = (cand[kw], cand[kw + 1] as u32);
            shard
                .parents
                .push(((from, tail as u32), (tail >> 32) as u32));
            buffers.claimed.push((K::from_words(&cand[..kw]), id));
            report.states += 1;
            tally.states += 1;
            if self
                .job
                .limit
                .is_some_and(|l| known + report.states > l as u64)
            {
                report.stop = Some(Stop::StateLimit);
                break;
            }
        }
        std::hint::black_box(warm);
        buffers.merged.clear();
    }

    /// Expands the claimed states in key order into per-destination groups.
    fn expand<K: Key>(
        &self,
        shard: &Shard,
        claimed: &[(K, u32)],
        next: &mut Arrived,
        report: &mut Report,
        tally: &mut Tally,
        emit: &mut impl FnMut(Msg),
    ) {
        let product = self.job.product();
        let mut scratch = Scratch::new();
        let mut ids = vec![StateId::from_u32(0); self.job.all.len()];
        let set = &shard.set;
        let mut target_key = vec![0u64; set.key_words()];
        let mut outbox = Outbox::new(self.place);
        for (n, (key, id)) in claimed.iter().enumerate() {
            // The batches for the next level are this level's new memory: each may double.
            if n % 256 == 0 {
                let headroom: usize = outbox.batches.iter().map(|b| 8 * b.capacity()).sum();
                if let Some(stop) = self.job.interrupted(headroom as u64) {
                    report.stop = Some(stop);
                    break;
                }
            }
            set.unpack(key.words(), &mut ids);
            let at = (self.place.index, *id);
            outbox.start_parent(key.words(), *id);
            let mut successors = 0u64;
            let _ = product.for_each_successor(&ids, &mut scratch, |a, target| {
                successors += 1;
                if let Some(member) = product.error_component(target) {
                    let hit = ErrorHit {
                        tuple: words(target),
                        parent: words(&ids),
                        action: a.as_u32(),
                        from: at,
                        member: member as u32,
                    };
                    if report.error.as_ref().is_none_or(|b| hit < *b) {
                        report.error = Some(hit);
                    }
                } else {
                    set.pack(target, &mut target_key);
                    outbox.add(&target_key, a.as_u32());
                }
                ControlFlow::<()>::Continue(())
            });
            outbox.end_parent(next, tally, emit);
            report.transitions += successors;
            if successors == 0 && self.job.deadlock && !self.job.is_terminal(&ids) {
                let hit = DeadHit {
                    level: self.time,
                    tuple: words(&ids),
                    at,
                };
                if report.deadlock.as_ref().is_none_or(|b| hit < *b) {
                    report.deadlock = Some(hit);
                }
            }
        }
        outbox.flush_all(next, tally, emit);
    }
}

/// Candidates merged and claimed at a time (see [`Level::run`]).
const MERGE_CHUNK: usize = 1 << 14;

/// The streams of a level's batches, merged by parent key (see the module docs).
struct Merger<'a> {
    streams: Vec<Stream<'a>>,
    kw: usize,
}

impl<'a> Merger<'a> {
    /// The streams of `batches`, sorted by sender and batch number.
    fn new(batches: &'a [(u32, u32, Vec<u64>)], kw: usize) -> Self {
        let mut streams: Vec<Stream<'a>> = Vec::new();
        for (from, _, words) in batches {
            if words.is_empty() {
                continue;
            }
            match streams.last_mut() {
                Some(s) if s.from == *from => s.batches.push(words),
                _ => streams.push(Stream {
                    from: *from,
                    batches: vec![words],
                    at: (0, 0),
                }),
            }
        }
        Self { streams, kw }
    }

    /// Appends the next candidates in merged order to `merged` (key words, then
    /// `action << 32 | parent index`, then the sender), whole groups until at least `chunk`
    /// candidates; returns whether any are left.
    fn fill(&mut self, merged: &mut Vec<u64>, chunk: usize) -> bool {
        let kw = self.kw;
        let limit = chunk * (kw + 2);
        while merged.len() < limit {
            let mut best: Option<(usize, &[u64])> = None;
            for (i, s) in self.streams.iter().enumerate() {
                if let Some(head) = s.head(kw)
                    && best.is_none_or(|(_, b)| head < b)
                {
                    best = Some((i, head));
                }
            }
            let Some((i, _)) = best else { return false };
            let stream = &mut self.streams[i];
            let from = stream.from;
            let (parent, group) = stream.next_group(kw);
            for cand in group.chunks_exact(kw + 1) {
                merged.extend_from_slice(&cand[..kw]);
                merged.push(cand[kw] << 32 | u64::from(parent));
                merged.push(u64::from(from));
            }
        }
        self.streams.iter().any(|s| s.head(kw).is_some())
    }
}

/// The batches being filled, one per destination worker.
struct Outbox {
    place: Place,
    batches: Vec<Vec<u64>>,
    /// Per destination, the next batch number.
    seqs: Vec<u32>,
    /// Per destination, where the current parent's group header is, if it has one yet.
    open: Vec<Option<usize>>,
    /// Destinations with a group of the current parent.
    touched: Vec<u32>,
    /// The current parent's key and index.
    parent: Vec<u64>,
    parent_id: u32,
}

impl Outbox {
    fn new(place: Place) -> Self {
        let peers = place.peers as usize;
        Self {
            place,
            batches: vec![Vec::new(); peers],
            seqs: vec![0; peers],
            open: vec![None; peers],
            touched: Vec::new(),
            parent: Vec::new(),
            parent_id: 0,
        }
    }

    fn start_parent(&mut self, key: &[u64], id: u32) {
        self.parent.clear();
        self.parent.extend_from_slice(key);
        self.parent_id = id;
    }

    /// Adds a successor of the current parent for its owner.
    #[inline]
    fn add(&mut self, key: &[u64], action: u32) {
        let to = self.place.owner(key) as usize;
        let batch = &mut self.batches[to];
        let header = match self.open[to] {
            Some(at) => at,
            None => {
                batch.extend_from_slice(&self.parent);
                batch.push(u64::from(self.parent_id) << 32);
                self.open[to] = Some(batch.len() - 1);
                self.touched.push(to as u32);
                batch.len() - 1
            }
        };
        batch[header] += 1;
        batch.extend_from_slice(key);
        batch.push(u64::from(action));
    }

    /// Closes the current parent's groups; sends the batches that are full.
    fn end_parent(&mut self, next: &mut Arrived, tally: &mut Tally, emit: &mut impl FnMut(Msg)) {
        for i in 0..self.touched.len() {
            let to = self.touched[i];
            self.open[to as usize] = None;
            if self.batches[to as usize].len() >= FLUSH_WORDS {
                self.send(to, next, tally, emit);
            }
        }
        self.touched.clear();
    }

    fn flush_all(&mut self, next: &mut Arrived, tally: &mut Tally, emit: &mut impl FnMut(Msg)) {
        for to in 0..self.place.peers {
            self.send(to, next, tally, emit);
        }
    }

    /// Sends destination `to`'s batch: into `next` when this worker owns it, else through timely.
    fn send(&mut self, to: u32, next: &mut Arrived, tally: &mut Tally, emit: &mut impl FnMut(Msg)) {
        let batch = &mut self.batches[to as usize];
        if batch.is_empty() {
            return;
        }
        // A destination that filled a batch will likely fill the next: give it the room at once
        // rather than doubling up to it again.
        let room = if batch.len() >= FLUSH_WORDS {
            FLUSH_WORDS + FLUSH_WORDS / 8
        } else {
            0
        };
        let words = std::mem::replace(batch, Vec::with_capacity(room));
        let seq = self.seqs[to as usize];
        self.seqs[to as usize] += 1;
        let place = self.place;
        if to == place.index {
            next.batches.push((to, seq, words));
            return;
        }
        if to / place.per_process != place.index / place.per_process {
            tally.bytes_sent += 8 * words.len() as u64;
        }
        emit(Msg::Batch {
            to,
            from: place.index,
            seq,
            words,
        });
    }
}

/// A tuple as raw words.
fn words(tuple: &[StateId]) -> Vec<u32> {
    tuple.iter().map(|s| s.as_u32()).collect()
}

#[cfg(test)]
mod tests {
    //! The merge alone: chunked or not, the candidates come out in ascending parent key, each
    //! group whole and in its sender's order.
    use super::*;

    /// A sender's stream cut into batches of at most `per_batch` groups: group `g` of sender
    /// `from` has parent key `3 * g + from` and `g % 3 + 1` candidates.
    fn stream(from: u32, groups: u64, per_batch: usize) -> Vec<(u32, u32, Vec<u64>)> {
        let mut batches = Vec::new();
        let mut words = Vec::new();
        let mut in_batch = 0;
        for g in 0..groups {
            let n = g % 3 + 1;
            words.push(3 * g + u64::from(from));
            words.push(g << 32 | n);
            for c in 0..n {
                words.push(1000 * (3 * g + u64::from(from)) + c);
                words.push(c);
            }
            in_batch += 1;
            if in_batch == per_batch {
                batches.push((from, batches.len() as u32, std::mem::take(&mut words)));
                in_batch = 0;
            }
        }
        if !words.is_empty() {
            batches.push((from, batches.len() as u32, words));
        }
        batches
    }

    fn merged(batches: &[(u32, u32, Vec<u64>)], chunk: usize) -> Vec<u64> {
        let mut merger = Merger::new(batches, 1);
        let mut all = Vec::new();
        let mut part = Vec::new();
        loop {
            let more = merger.fill(&mut part, chunk);
            all.append(&mut part);
            if !more {
                return all;
            }
        }
    }

    #[test]
    fn chunked_merges_give_the_parent_key_order() {
        let mut batches: Vec<_> = (0..3).flat_map(|f| stream(f, 40, 7)).collect();
        batches.sort_unstable_by_key(|b| (b.0, b.1));
        let whole = merged(&batches, usize::MAX / 8);
        for chunk in [1, 2, 5, 64] {
            assert_eq!(merged(&batches, chunk), whole, "chunk {chunk}");
        }
        // Key, then action << 32 | parent index, then sender: parent keys 0, 1, 2, ... in turn.
        let parents: Vec<u64> = whole.chunks(3).map(|c| c[0] / 1000).collect();
        assert!(parents.windows(2).all(|w| w[0] <= w[1]), "{parents:?}");
        assert_eq!(parents.len(), 3 * (14 + 13 + 13 * 3 + 13));
    }
}
