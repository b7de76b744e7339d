//! The breadth-first walk on several threads, with exactly the results of the one-thread walk.
//!
//! **What stays the same.** The sequential walk numbers states in discovery order and expands them
//! in that order; every result (the verdict, the state and transition counts, the counterexample,
//! which is a shortest one) is a function of that order. This walk keeps it: it expands a *slab* of
//! already numbered states at a time (up to `SlabStore::SLAB` consecutive numbers, or fewer so that
//! a slab lists about `SlabStore::SLAB_SUCCESSORS` successors; typically a slice of one BFS level),
//! and numbers the slab's new successors in the order the sequential walk would have
//! met them: by source state, then by the product's successor order. So the numbering, and with it
//! every result, is the same for any number of threads; the property tests of this module compare
//! walks at 1, 2, 4 and 8 threads field by field.
//!
//! **How a slab runs.**
//! 1. *Expand* (parallel, over chunks of [`CHUNK`] states): each state's successors are enumerated,
//!    error tuples set aside, the rest packed and hashed, and each chunk's keys grouped by the
//!    store shard their hash belongs to ([`Chunk`]). Nothing touches the store's tables in this
//!    phase.
//! 2. *Insert* (parallel, one thread per [`SHARDS`](crate::engine::sharded::SHARDS) shard of the
//!    store, [`SlabStore`]: the sharded table store's tables or groups of the compact store's
//!    sub-tables): each shard
//!    looks up its keys in canonical order (chunk by chunk, in order within a chunk) and inserts
//!    those it does not hold, so the first occurrence of a new key is its discovery and later ones
//!    are duplicates. Each successor costs one probe, as in the sequential walk.
//! 3. *Number* (one thread): a scan of the slab's successors in canonical order gives each first
//!    occurrence the next state number and collects its key (and records its parent); the keys
//!    join the queue once phase 5 is done.
//! 4. *Renumber* (parallel, per shard): each shard writes the final numbers into its slots (the
//!    table store only: the compact store's slots hold no numbers).
//! 5. *Commit* (one thread, in order): the visitor sees each state's `expand`, `error` and
//!    `expanded` calls in the sequential walk's order, and the state budget is checked where the
//!    sequential walk checks it. A hit ends the walk with the counts the sequential walk has at that
//!    point (the slab's later states were expanded speculatively; their work is dropped).
//!
//! Phases 1, 2 and 4 hold the cost: successor enumeration, hashing and the cache misses of the
//! lookups. Phases 3 and 5 touch each state and each new state once, in order, and run while the
//! other threads expand the next slab (phase 1), when that slab's states are numbered already
//! (most of a breadth-first level is): phases 3 and 5 of a slab and phase 1 of the next one only
//! read the store, which phases 2 and 4 change. On tx3 that took two threads from 0.45 to
//! 0.43 s, where the sequential phases had left one thread idle for a tenth of the walk.
//!
//! **Where it runs.** Walks whose frontier stays small (most premise checks and membership queries)
//! never start a slab: below [`MIN_SLAB`] unexpanded states the sequential batch step runs, on the
//! same store. Either store runs here: the compact store (the default, `Storage::Compact`) where
//! tuples pack into its 74 bits, else the sharded table store. Visitors that record edges (the
//! eager composition) and tuples wider than 128 bits (the arena store) walk on one thread; so does the depth-first search, whose order is inherently
//! sequential. The whole walk runs on a thread of the pool, its sequential phases too, so a
//! parallel phase splits its work from there instead of being handed to the pool by a thread
//! outside it that sleeps until the phase ends (two thread wake-ups per phase: on tx3 that was
//! one thread doing most of the expand phase while the other was still waking up). Threads are the config's ([`Threads`]): rayon's global pool when
//! [`Config::threads`] is unset (every core), else the process's pool of that size.
//!
//! [`Config::threads`]: crate::config::Config::threads

use std::ops::ControlFlow;

use guarantor_lts::{ActionId, StateId};
use rayon::prelude::*;

use super::{Hit, Pending, Visitor, Walker};
use crate::checkpoint::recorder::Recorder;
use crate::config::Config;
use crate::engine::sharded::{SHARDS, SlabStore};
use crate::engine::store::next_id;
use crate::error::ComposeError;
use crate::product::Scratch;
use crate::threads::Threads;

/// How many unexpanded states a walk needs before it expands them as a slab.
pub(crate) const MIN_SLAB: usize = 2048;

#[cfg(test)]
thread_local! {
    /// A lower [`MIN_SLAB`] for the walks of this thread, so that tests on small systems run every
    /// step as a slab.
    pub(crate) static TEST_MIN_SLAB: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

/// [`MIN_SLAB`], or what a test of this thread set instead.
pub(crate) fn min_slab() -> usize {
    #[cfg(test)]
    if let Some(min) = TEST_MIN_SLAB.with(std::cell::Cell::get) {
        return min;
    }
    MIN_SLAB
}

/// How many states one task of the expand phase takes.
const CHUNK: usize = 256;

/// A discovery's number before phase 3.
const UNKNOWN: u32 = u32::MAX;

// A successor's shard is kept in a byte.
const _: () = assert!(SHARDS <= 256);

/// A key phase 2 inserted first (a discovery): the `j`-th key of its shard's group in chunk
/// `chunk`.
#[derive(Clone, Copy, Debug)]
struct Found {
    chunk: u32,
    j: u32,
}

/// One shard's discoveries in a slab, in canonical order, and for a store that numbers its slots
/// ([`SlabStore::NUMBERED`], the table store) each one's slot (phase 2) and number (phase 3),
/// for phase 4. (Kept apart, so that the compact store's discoveries take 8 bytes.)
#[derive(Clone, Debug, Default)]
struct Discoveries {
    found: Vec<Found>,
    slots: Vec<(u32, u32)>,
}

impl Discoveries {
    fn clear(&mut self) {
        self.found.clear();
        self.slots.clear();
    }
}

/// A successor that is an error tuple: its index among its source's successors, its action, and
/// the first failing component.
#[derive(Clone, Copy, Debug)]
struct ErrorStep {
    nth: u32,
    action: ActionId,
    component: u32,
}

/// One expanded state of a chunk: where its successors end in the chunk's lists, how many it has,
/// and the store's length before and after its discoveries were numbered (phase 3).
#[derive(Clone, Copy, Debug, Default)]
struct Expanded {
    successors: u32,
    steps_end: u32,
    errors_end: u32,
    known_before: u32,
    known_after: u32,
}

/// What the expand phase produced for one chunk of a slab; reused from slab to slab.
#[derive(Debug)]
///
/// A successor that is not an error tuple takes 9 bytes, 13 in a walk that records parents (a
/// slab's buffers are most of what the walk holds beside the store, and there are two sets of
/// them: the slab being expanded and the one being committed).
struct Chunk<P> {
    first: u32,
    states: Vec<Expanded>,
    /// Per successor that is not an error tuple, in order: the shard its key belongs to.
    shards: Vec<u8>,
    /// The same successors' actions, if the walk records parents.
    actions: Vec<ActionId>,
    errors: Vec<ErrorStep>,
    /// The successors' keys grouped by shard (in order within a shard), the group of shard
    /// `s` from `starts[s]` to `starts[s + 1]`. Phase 2 reads a shard's keys from here in
    /// order; reading them out of one array of all successors jumped through the chunk, half
    /// of whose lines the other thread had written (on tx3 that load was half of the insert
    /// phase's time on two threads). One array rather than a list per shard: 64 lists of a few
    /// dozen keys each kept about twice the room they used.
    keys: Vec<P>,
    starts: [u32; SHARDS + 1],
}

impl<K: Copy> Chunk<K> {
    fn new() -> Self {
        Self {
            first: 0,
            states: Vec::new(),
            shards: Vec::new(),
            actions: Vec::new(),
            errors: Vec::new(),
            keys: Vec::new(),
            starts: [0; SHARDS + 1],
        }
    }

    /// Phase 1 for states `ids`.
    fn expand<S: SlabStore<SlabKey = K>>(
        &mut self,
        ids: std::ops::Range<u32>,
        walk: &SlabWalk<'_, '_, S>,
        unsorted: &mut Vec<K>,
    ) -> Result<(), ComposeError> {
        walk.config.check_interrupt()?;
        self.first = ids.start;
        self.states.clear();
        self.shards.clear();
        self.actions.clear();
        self.errors.clear();
        unsorted.clear();
        let mut tuple = vec![StateId::default(); walk.product.width()];
        let mut scratch = Scratch::new();
        for id in ids {
            walk.store.load(id, &mut tuple);
            self.enumerate(&tuple, walk, &mut scratch, unsorted);
        }
        self.group_by_shard(unsorted);
        Ok(())
    }

    /// Groups the keys in `unsorted` (in step order) by shard into `keys`, keeping their order
    /// within a shard (a counting sort; `unsorted` is the calling thread's, reused from chunk to
    /// chunk).
    fn group_by_shard(&mut self, unsorted: &[K]) {
        let mut counts = [0u32; SHARDS];
        for &s in &self.shards {
            counts[s as usize] += 1;
        }
        for (s, count) in counts.iter().enumerate() {
            self.starts[s + 1] = self.starts[s] + count;
        }
        let mut next: [u32; SHARDS] = std::array::from_fn(|s| self.starts[s]);
        // Exactly the room needed: the buffers keep their largest size from slab to slab.
        self.keys.clear();
        self.keys.reserve_exact(unsorted.len());
        self.keys.extend_from_slice(unsorted);
        for (&s, &key) in self.shards.iter().zip(unsorted) {
            self.keys[next[s as usize] as usize] = key;
            next[s as usize] += 1;
        }
    }

    /// The keys of shard `s`.
    fn keys_of(&self, s: usize) -> &[K] {
        &self.keys[self.starts[s] as usize..self.starts[s + 1] as usize]
    }

    /// Lists the successors of one state, each non-error one also under its shard.
    fn enumerate<S: SlabStore<SlabKey = K>>(
        &mut self,
        tuple: &[StateId],
        walk: &SlabWalk<'_, '_, S>,
        scratch: &mut Scratch,
        unsorted: &mut Vec<K>,
    ) {
        let (product, store) = (walk.product, walk.store);
        let mut nth = 0u32;
        let _ = product.for_each_successor(tuple, scratch, |action, target| {
            if let Some(c) = product.error_component(target) {
                self.errors.push(ErrorStep {
                    nth,
                    action,
                    component: c as u32,
                });
            } else {
                let (shard, key) = store.slab_key(target);
                unsorted.push(key);
                self.shards.push(shard as u8);
                if walk.actions {
                    self.actions.push(action);
                }
            }
            nth += 1;
            ControlFlow::<()>::Continue(())
        });
        self.states.push(Expanded {
            successors: nth,
            steps_end: self.shards.len() as u32,
            errors_end: self.errors.len() as u32,
            ..Expanded::default()
        });
    }
}

/// Phase 2 for one shard: looks up its keys in canonical order, inserting those it does not hold;
/// lists these discoveries as `(chunk, step, slot)`; returns whether the table grew meanwhile.
fn insert<S: SlabStore>(
    shard: &mut S::Shard,
    index: usize,
    chunks: &[Chunk<S::SlabKey>],
    found: &mut Discoveries,
) -> bool {
    found.clear();
    let mut grew = false;
    for (c, chunk) in chunks.iter().enumerate() {
        let keys = chunk.keys_of(index);
        // Touch a group's slots before probing any of them, so that their cache misses overlap.
        for (g, group) in keys.chunks(S::BATCH as usize).enumerate() {
            let warm = group.iter().fold(0, |w, &key| w ^ S::touch_in(shard, key));
            std::hint::black_box(warm);
            for (k, &key) in group.iter().enumerate() {
                if let Some((slot, grown)) = S::put_new(shard, key) {
                    grew |= grown;
                    found.found.push(Found {
                        chunk: c as u32,
                        j: (g * S::BATCH as usize + k) as u32,
                    });
                    if S::NUMBERED {
                        found.slots.push((slot as u32, UNKNOWN));
                    }
                }
            }
        }
    }
    grew
}

/// Phase 4 for one shard: writes the discoveries' numbers into their slots, found again by key if
/// the table grew during phase 2.
fn renumber<S: SlabStore>(
    shard: &mut S::Shard,
    chunks: &[Chunk<S::SlabKey>],
    index: usize,
    found: &Discoveries,
    grew: bool,
) {
    for (f, &(slot, id)) in found.found.iter().zip(&found.slots) {
        let key = chunks[f.chunk as usize].keys_of(index)[f.j as usize];
        S::renumber(shard, key, slot as usize, grew, id);
    }
}

/// How many states the next slab expands: [`SlabStore::SLAB`], or fewer so that it lists about
/// [`SlabStore::SLAB_SUCCESSORS`] successors at the walk's mean out-degree so far (`transitions`
/// of `expanded` states), but never fewer than [`MIN_SLAB`].
fn slab_states<S: SlabStore>(transitions: usize, expanded: u32) -> usize {
    let degree = transitions.div_ceil(expanded.max(1) as usize).max(1);
    (S::SLAB_SUCCESSORS / degree).clamp(MIN_SLAB.min(S::SLAB), S::SLAB)
}

/// The reusable buffers of the slabs of one walk.
#[derive(Debug)]
pub(crate) struct Slabs<P> {
    /// The chunks of the slab being expanded.
    chunks: Vec<Chunk<P>>,
    /// How many of `chunks` hold that slab.
    chunks_len: usize,
    /// The chunks of the slab expanded and inserted before it, still to be numbered and
    /// committed (the two swap places when a slab's insertion ends).
    staged: Vec<Chunk<P>>,
    /// How many of `staged` hold the staged slab.
    staged_len: usize,
    /// Per shard: the discoveries phase 2 made, in canonical order.
    found: Vec<Discoveries>,
    /// Per shard: whether its table grew in phase 2 (so its slots moved).
    grew: Vec<bool>,
    /// The discoveries' keys in canonical order, from phase 3 until they are queued.
    keys: Vec<P>,
    /// The fewest unexpanded states a slab needs ([`MIN_SLAB`]; tests lower it).
    min: usize,
    pool: Threads,
}

impl<K: Copy + Send> Slabs<K> {
    pub(crate) fn new(pool: Threads, min: usize) -> Self {
        Self {
            chunks: Vec::new(),
            chunks_len: 0,
            staged: Vec::new(),
            staged_len: 0,
            found: vec![Discoveries::default(); SHARDS],
            grew: vec![false; SHARDS],
            keys: Vec::new(),
            min,
            pool,
        }
    }
}

/// What phase 1 reads: the product, the store (only read in phase 1) and the config, and
/// whether the walk records parents (so that each successor's action is kept).
struct SlabWalk<'a, 'p, S> {
    product: &'a crate::product::Product<'p>,
    store: &'a S,
    config: &'a Config,
    actions: bool,
}

/// How many chunks a slab of the states `ids` takes.
fn chunks_of(ids: &std::ops::Range<u32>) -> usize {
    ((ids.end - ids.start) as usize).div_ceil(CHUNK)
}

/// Phase 1 for the states `ids` into `chunks` (grown to as many as the slab needs).
fn expand_chunks<S: SlabStore>(
    chunks: &mut Vec<Chunk<S::SlabKey>>,
    ids: std::ops::Range<u32>,
    walk: &SlabWalk<'_, '_, S>,
    pool: &Threads,
) -> Result<(), ComposeError> {
    let n_chunks = chunks_of(&ids);
    while chunks.len() < n_chunks {
        chunks.push(Chunk::new());
    }
    let chunks = &mut chunks[..n_chunks];
    pool.install(|| {
        chunks
            .par_iter_mut()
            .enumerate()
            .try_for_each_init(Vec::new, |unsorted, (c, chunk)| {
                let from = ids.start + (c * CHUNK) as u32;
                let to = ids.end.min(from + CHUNK as u32);
                chunk.expand(from..to, walk, unsorted)
            })
    })
}

/// Phase 3: numbers the discoveries of `chunks` in canonical order from `base` on, collecting
/// their keys in `keys` (queued afterwards, so that the store can be read meanwhile) and their
/// parents, and giving each discovery of a numbering store its number.
fn number<K: Copy>(
    chunks: &mut [Chunk<K>],
    found: &mut [Discoveries],
    base: u32,
    keys: &mut Vec<K>,
    parents: &mut Option<Vec<(u32, ActionId)>>,
) -> Result<(), ComposeError> {
    keys.clear();
    // Each shard's discoveries are in canonical order, so one cursor per shard meets them in
    // the order of the scan; within a chunk, one cursor per shard says which of its keys a
    // successor is.
    let mut discovery = [0usize; SHARDS];
    let known = |keys: &Vec<K>| next_id(base as usize + keys.len());
    for (c, chunk) in chunks.iter_mut().enumerate() {
        let mut listed = [0u32; SHARDS];
        let mut from = 0;
        for (k, state) in chunk.states.iter_mut().enumerate() {
            state.known_before = known(keys)?;
            let source = chunk.first + k as u32;
            for i in from..state.steps_end as usize {
                let s = chunk.shards[i] as usize;
                let j = listed[s];
                listed[s] += 1;
                let d = discovery[s];
                let Some(f) = found[s].found.get(d) else {
                    continue;
                };
                if (f.chunk, f.j) != (c as u32, j) {
                    continue;
                }
                discovery[s] += 1;
                if let Some((_, id)) = found[s].slots.get_mut(d) {
                    *id = known(keys)?;
                }
                keys.push(chunk.keys[(chunk.starts[s] + j) as usize]);
                if let Some(parents) = parents {
                    parents.push((source, chunk.actions[i]));
                }
            }
            from = state.steps_end as usize;
            state.known_after = known(keys)?;
        }
    }
    Ok(())
}

/// What ends a walk in phase 5: the hit, the transitions counted past the state's last
/// committed one, and the states numbered at that point.
type Stop = (Hit, u32, u32);

/// Phase 5 for `chunks`: the visitor's calls and the state budget, state by state in order.
fn commit<S: SlabStore, V: Visitor>(
    chunks: &[Chunk<S::SlabKey>],
    store: &S,
    width: usize,
    visitor: &mut V,
    budget: &crate::config::Budget<'_>,
    stats: &mut crate::engine::stats::Stats,
) -> Result<Option<Stop>, ComposeError> {
    let mut tuple = vec![StateId::default(); width];
    for chunk in chunks {
        let mut errors_from = 0;
        for (k, state) in chunk.states.iter().enumerate() {
            let id = chunk.first + k as u32;
            store.load(id, &mut tuple);
            if let Some(hit) = visitor.expand(id, &tuple) {
                return Ok(Some((hit, 0, state.known_before)));
            }
            for e in &chunk.errors[errors_from..state.errors_end as usize] {
                if let Some(violation) = visitor.error(Some(id), e.action, e.component as usize) {
                    let hit = Hit {
                        state: Some(id),
                        last: Some(e.action),
                        violation,
                    };
                    return Ok(Some((hit, e.nth + 1, state.known_before)));
                }
            }
            errors_from = state.errors_end as usize;
            budget.check_states(state.known_after as usize)?;
            stats.transitions += state.successors as usize;
            if let Some(violation) = visitor.expanded(id, &tuple, state.successors as usize) {
                let hit = Hit {
                    state: Some(id),
                    last: None,
                    violation,
                };
                return Ok(Some((hit, 0, state.known_after)));
            }
        }
    }
    Ok(None)
}

impl<S: SlabStore, V: Visitor> Walker<'_, '_, S, V> {
    /// The walk of [`Walker::run`], expanding large frontiers as slabs.
    pub(crate) fn run_parallel(
        &mut self,
        slabs: &mut Slabs<S::SlabKey>,
    ) -> Result<Option<Hit>, ComposeError> {
        let tuple = self.product.initial();
        if let ControlFlow::Break(done) = self.start(&tuple)? {
            return Ok(done);
        }
        self.run_parallel_from(slabs, 0)
    }

    /// The walk of [`Walker::run_from`] on slabs: expands the numbered states from `next` on
    /// (all below it are expanded), writing a checkpoint between two slabs or batches once one
    /// is due, if the walk has a recorder.
    ///
    /// A slab is expanded and inserted, then *staged*: it is numbered and committed while the
    /// next slab, if its states are numbered already, is expanded on the other threads, so the
    /// sequential phases 3 and 5 overlap a parallel one instead of leaving the pool idle.
    pub(crate) fn run_parallel_from(
        &mut self,
        slabs: &mut Slabs<S::SlabKey>,
        mut next: u32,
    ) -> Result<Option<Hit>, ComposeError> {
        let mut tuple = self.product.initial();
        let mut scratch = Scratch::new();
        let mut pending = Pending::new();
        // The first state of the staged slab, which ends at `next`.
        let mut staged: Option<u32> = None;
        loop {
            if let Some(first) = staged.take() {
                let following = self.following(first, next, slabs.min);
                if let Some(hit) = self.settle(first, following.clone(), slabs)? {
                    return Ok(Some(hit));
                }
                if let Some(ids) = following {
                    self.insert(slabs);
                    (staged, next) = (Some(ids.start), ids.end);
                    continue;
                }
            } else {
                if next as usize >= self.store.len() {
                    return Ok(None);
                }
                self.store.release_below(next);
                let ready = self.store.len() - next as usize;
                if ready >= slabs.min {
                    let slab_max = slab_states::<S>(self.stats.transitions, next);
                    let end = next + ready.min(slab_max) as u32;
                    self.expand(next..end, slabs)?;
                    self.insert(slabs);
                    (staged, next) = (Some(next), end);
                    continue;
                }
                let end = (self.store.len() as u32).min(next.saturating_add(S::BATCH));
                let hit = self.batch(next..end, &mut tuple, &mut scratch, &mut pending)?;
                if hit.is_some() {
                    return Ok(hit);
                }
                next = end;
            }
            if self.recorder.as_ref().is_some_and(Recorder::due) {
                self.checkpoint_at(next)?;
            }
        }
    }

    /// The slab to expand while the one staged from `first` to `next` is settled: the states
    /// numbered from `next` on, if there are enough for a slab. None in a checkpointed walk,
    /// whose recorder logs each discovery as it is queued and whose checkpoints fall between
    /// settled slabs.
    fn following(&self, first: u32, next: u32, min: usize) -> Option<std::ops::Range<u32>> {
        let ready = self.store.len() - next as usize;
        if self.recorder.is_some() || ready < min {
            return None;
        }
        // The mean out-degree of the states committed so far, those below `first`.
        let slab_max = slab_states::<S>(self.stats.transitions, first);
        Some(next..next + ready.min(slab_max) as u32)
    }

    /// Phase 1 for the states `ids`, into the slabs' chunks.
    fn expand(
        &mut self,
        ids: std::ops::Range<u32>,
        slabs: &mut Slabs<S::SlabKey>,
    ) -> Result<(), ComposeError> {
        self.budget.expect_growth(self.store.growth_bytes());
        self.budget.check_now()?;
        let walk = SlabWalk {
            product: self.product,
            store: &*self.store,
            config: self.budget.config(),
            actions: self.parents.is_some(),
        };
        slabs.chunks_len = chunks_of(&ids);
        let Slabs { chunks, pool, .. } = slabs;
        expand_chunks(chunks, ids, &walk, pool)
    }

    /// Phase 2 for the expanded slab, which is then staged.
    fn insert(&mut self, slabs: &mut Slabs<S::SlabKey>) {
        let n_chunks = slabs.chunks_len;
        let chunks = &slabs.chunks[..n_chunks];
        let (found, grew) = (&mut slabs.found, &mut slabs.grew);
        let shards = self.store.shards();
        let threads = slabs.pool.install(|| {
            (
                shards.par_iter_mut(),
                found.par_iter_mut(),
                grew.par_iter_mut(),
            )
                .into_par_iter()
                .enumerate()
                .for_each(|(s, (shard, found, grew))| *grew = insert::<S>(shard, s, chunks, found));
            rayon::current_num_threads()
        });
        self.store.inserted(threads);
        std::mem::swap(&mut slabs.chunks, &mut slabs.staged);
        slabs.staged_len = n_chunks;
    }

    /// Phases 3 to 5 for the staged slab from `first`, with phase 1 for `following` (if any)
    /// on the other threads meanwhile.
    fn settle(
        &mut self,
        first: u32,
        following: Option<std::ops::Range<u32>>,
        slabs: &mut Slabs<S::SlabKey>,
    ) -> Result<Option<Hit>, ComposeError> {
        self.store.release_below(first);
        if following.is_some() {
            self.budget.expect_growth(self.store.growth_bytes());
            self.budget.check_now()?;
        }
        let base = self.store.len() as u32;
        slabs.chunks_len = following.as_ref().map_or(0, chunks_of);
        let Slabs {
            chunks,
            staged,
            staged_len,
            found,
            keys,
            pool,
            ..
        } = slabs;
        let staged = &mut staged[..*staged_len];
        let (product, store, budget) = (self.product, &*self.store, &*self.budget);
        let walk = SlabWalk {
            product,
            store,
            config: budget.config(),
            actions: self.parents.is_some(),
        };
        let (visitor, stats, parents) = (&mut *self.visitor, &mut self.stats, &mut self.parents);
        let mut expanded = Ok(());
        let mut settled = Ok(None);
        rayon::in_place_scope(|scope| {
            if let Some(ids) = following {
                let (expanded, walk) = (&mut expanded, &walk);
                scope.spawn(move |_| *expanded = expand_chunks(chunks, ids, walk, pool));
            }
            settled = number(staged, found, base, keys, parents)
                .and_then(|()| commit(staged, store, product.width(), visitor, budget, stats));
        });
        // Phase 3's keys are queued (and recorded) only now: the store was being read.
        for &key in keys.iter() {
            let id = self.store.push_key(key)?;
            if let Some(recorder) = &mut self.recorder {
                recorder.add_state(&*self.store, id)?;
            }
        }
        if S::NUMBERED {
            self.renumber(slabs);
        }
        if let Some((hit, successors, known)) = settled? {
            return Ok(Some(self.stop(hit, successors, known)));
        }
        expanded.map(|()| None)
    }

    /// Phase 4 for the staged slab (the table store only).
    fn renumber(&mut self, slabs: &Slabs<S::SlabKey>) {
        let chunks = &slabs.staged[..slabs.staged_len];
        let (found, grew) = (&slabs.found, &slabs.grew);
        let shards = self.store.shards();
        slabs.pool.install(|| {
            (shards.par_iter_mut(), found.par_iter(), grew.par_iter())
                .into_par_iter()
                .enumerate()
                .for_each(|(s, (shard, found, &grew))| {
                    renumber::<S>(shard, chunks, s, found, grew);
                });
        });
    }

    /// Ends the walk at `hit`, after `successors` more transitions, with `known` states numbered
    /// (what the sequential walk has numbered when it meets the hit).
    fn stop(&mut self, hit: Hit, successors: u32, known: u32) -> Hit {
        self.stats.transitions += successors as usize;
        self.states_at_hit = Some(known as usize);
        hit
    }
}

#[cfg(test)]
mod tests {
    //! Walks at 2, 4 and 8 threads on either store (the sharded table and the compact store)
    //! give the reports of the table store on one thread, field by field, with every step of the
    //! many-thread walks run as a slab; the visitors of every search take part (safety,
    //! deadlock, the system check's mix of both under priority, and the circular premise's
    //! look-ahead).

    use std::num::NonZeroUsize;

    use guarantor_lts::Lts;
    use proptest::prelude::*;

    use super::TEST_MIN_SLAB;
    use crate::Config;
    use crate::config::Storage;
    use crate::test_util::{random_case, reports, ring};

    fn at(threads: usize) -> Config {
        Config::default().with_threads(NonZeroUsize::new(threads).unwrap())
    }

    /// Every store and thread count against the table store on one thread.
    fn same_for_every_thread_count(comps: &[&Lts], props: &[&Lts], min_slab: usize) {
        let one = reports(comps, props, &at(1).with_storage(Storage::Table));
        TEST_MIN_SLAB.with(|m| m.set(Some(min_slab)));
        for storage in [Storage::Table, Storage::Compact] {
            for threads in [2, 4, 8] {
                assert_eq!(
                    reports(comps, props, &at(threads).with_storage(storage)),
                    one,
                    "{threads} threads, {storage:?}"
                );
            }
        }
        TEST_MIN_SLAB.with(|m| m.set(None));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn random_systems_give_the_same_reports_on_any_thread_count(
            (comps, props) in random_case(),
            min_slab in 1usize..4,
        ) {
            let comps: Vec<&Lts> = comps.iter().collect();
            let props: Vec<&Lts> = props.iter().collect();
            same_for_every_thread_count(&comps, &props, min_slab);
        }
    }

    #[test]
    fn large_products_give_the_same_reports_at_the_real_slab_size() {
        // 7 * 11 * 13 * 17 = 17,017 states, levels far wider than a slab's minimum.
        let rings = [ring(7, "p"), ring(11, "q"), ring(13, "r"), ring(17, "s")];
        let comps: Vec<&Lts> = rings.iter().collect();
        // At most twelve ticks: violated deep in the walk, inside a slab.
        let twelve = Lts::from_edges((0..12).map(|i| (i, "tick", i + 1))).unwrap();
        for props in [vec![], vec![&twelve]] {
            let one = reports(&comps, &props, &at(1).with_storage(Storage::Table));
            let expected = if props.is_empty() {
                "states: 17017"
            } else {
                "Violated"
            };
            assert!(one[0].contains(expected), "{}", one[0]);
            for storage in [Storage::Table, Storage::Compact] {
                for threads in [2, 4] {
                    let config = at(threads).with_storage(storage);
                    assert_eq!(
                        reports(&comps, &props, &config),
                        one,
                        "{threads} threads, {storage:?}"
                    );
                }
            }
        }
    }
}
