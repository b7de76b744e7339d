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
//!    error tuples set aside, the rest packed, hashed and listed under the store shard their hash
//!    belongs to. Nothing touches the store's tables in this phase.
//! 2. *Insert* (parallel, one thread per [`SHARDS`](crate::engine::sharded::SHARDS) shard of the
//!    store, [`SlabStore`]: the sharded table store's tables or groups of the compact store's
//!    sub-tables): each shard
//!    looks up its keys in canonical order (chunk by chunk, in order within a chunk) and inserts
//!    those it does not hold, so the first occurrence of a new key is its discovery and later ones
//!    are duplicates. Each successor costs one probe, as in the sequential walk.
//! 3. *Number* (one thread): a scan of the slab's successors in canonical order gives each first
//!    occurrence the next state number and appends its key to the queue (and records its parent).
//! 4. *Renumber* (parallel, per shard): each shard writes the final numbers into its slots (the
//!    table store only: the compact store's slots hold no numbers).
//! 5. *Commit* (one thread, in order): the visitor sees each state's `expand`, `error` and
//!    `expanded` calls in the sequential walk's order, and the state budget is checked where the
//!    sequential walk checks it. A hit ends the walk with the counts the sequential walk has at that
//!    point (the slab's later states were expanded speculatively; their work is dropped).
//!
//! Phases 1, 2 and 4 hold the cost: successor enumeration, hashing and the cache misses of the
//! lookups. Phases 3 and 5 touch each state and each new state once, in order.
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

/// A successor's number before it is known.
const UNKNOWN: u32 = u32::MAX;

/// Marks a successor whose key phase 2 inserted first (a discovery).
const DISCOVERED: u32 = u32::MAX - 1;

/// A successor that is not an error tuple.
#[derive(Clone, Copy, Debug)]
struct Step<K> {
    action: ActionId,
    /// [`DISCOVERED`] from phase 2 and its new number from phase 3 if it is a discovery, else
    /// [`UNKNOWN`] (a walk that reports no edges needs no other number).
    target: u32,
    key: K,
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
struct Chunk<P> {
    first: u32,
    states: Vec<Expanded>,
    steps: Vec<Step<P>>,
    errors: Vec<ErrorStep>,
    /// Per shard: the successors whose keys belong to it, as their index in `steps` (4 bytes
    /// each: a slab's buffers are most of what the walk holds beside the store).
    by_shard: Vec<Vec<u32>>,
}

impl<K: Copy> Chunk<K> {
    fn new() -> Self {
        Self {
            first: 0,
            states: Vec::new(),
            steps: Vec::new(),
            errors: Vec::new(),
            by_shard: vec![Vec::new(); SHARDS],
        }
    }

    /// Phase 1 for states `ids`.
    fn expand<S: SlabStore<SlabKey = K>>(
        &mut self,
        ids: std::ops::Range<u32>,
        product: &crate::product::Product<'_>,
        store: &S,
        config: &Config,
    ) -> Result<(), ComposeError> {
        config.check_interrupt()?;
        self.first = ids.start;
        self.states.clear();
        self.steps.clear();
        self.errors.clear();
        self.by_shard.iter_mut().for_each(Vec::clear);
        let mut tuple = vec![StateId::default(); product.width()];
        let mut scratch = Scratch::new();
        for id in ids {
            store.load(id, &mut tuple);
            self.enumerate(&tuple, product, store, &mut scratch);
        }
        Ok(())
    }

    /// Lists the successors of one state, each non-error one also under its shard.
    fn enumerate<S: SlabStore<SlabKey = K>>(
        &mut self,
        tuple: &[StateId],
        product: &crate::product::Product<'_>,
        store: &S,
        scratch: &mut Scratch,
    ) {
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
                self.by_shard[shard].push(self.steps.len() as u32);
                self.steps.push(Step {
                    action,
                    target: UNKNOWN,
                    key,
                });
            }
            nth += 1;
            ControlFlow::<()>::Continue(())
        });
        self.states.push(Expanded {
            successors: nth,
            steps_end: self.steps.len() as u32,
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
    found: &mut Vec<(u32, u32, usize)>,
) -> bool {
    found.clear();
    let mut grew = false;
    for (c, chunk) in chunks.iter().enumerate() {
        // Touch a group's slots before probing any of them, so that their cache misses overlap.
        for group in chunk.by_shard[index].chunks(S::BATCH as usize) {
            let key = |&i: &u32| chunk.steps[i as usize].key;
            let warm = group.iter().fold(0, |w, i| w ^ S::touch_in(shard, key(i)));
            std::hint::black_box(warm);
            for i in group {
                if let Some((slot, grown)) = S::put_new(shard, key(i)) {
                    grew |= grown;
                    found.push((c as u32, *i, slot));
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
    found: &[(u32, u32, usize)],
    grew: bool,
) {
    for &(c, i, slot) in found {
        let step = &chunks[c as usize].steps[i as usize];
        S::renumber(shard, step.key, slot, grew, step.target);
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
    chunks: Vec<Chunk<P>>,
    /// Per shard: the discoveries phase 2 made, with their slots.
    found: Vec<Vec<(u32, u32, usize)>>,
    /// Per shard: whether its table grew in phase 2 (so its slots moved).
    grew: Vec<bool>,
    /// The fewest unexpanded states a slab needs ([`MIN_SLAB`]; tests lower it).
    min: usize,
    pool: Threads,
}

impl<K: Copy> Slabs<K> {
    pub(crate) fn new(pool: Threads, min: usize) -> Self {
        Self {
            chunks: Vec::new(),
            found: vec![Vec::new(); SHARDS],
            grew: vec![false; SHARDS],
            min,
            pool,
        }
    }
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
    pub(crate) fn run_parallel_from(
        &mut self,
        slabs: &mut Slabs<S::SlabKey>,
        mut next: u32,
    ) -> Result<Option<Hit>, ComposeError> {
        let mut tuple = self.product.initial();
        let mut scratch = Scratch::new();
        let mut pending = Pending::new();
        while (next as usize) < self.store.len() {
            self.store.release_below(next);
            let ready = self.store.len() - next as usize;
            let end = if ready >= slabs.min {
                let slab_max = slab_states::<S>(self.stats.transitions, next);
                next + ready.min(slab_max) as u32
            } else {
                (self.store.len() as u32).min(next.saturating_add(S::BATCH))
            };
            let hit = if ready >= slabs.min {
                self.slab(next..end, slabs)?
            } else {
                self.batch(next..end, &mut tuple, &mut scratch, &mut pending)?
            };
            if hit.is_some() {
                return Ok(hit);
            }
            next = end;
            if self.recorder.as_ref().is_some_and(Recorder::due) {
                self.checkpoint_at(next)?;
            }
        }
        Ok(None)
    }

    /// Expands the states `ids` in the five phases of the module docs.
    fn slab(
        &mut self,
        ids: std::ops::Range<u32>,
        slabs: &mut Slabs<S::SlabKey>,
    ) -> Result<Option<Hit>, ComposeError> {
        self.budget.expect_growth(self.store.growth_bytes());
        self.budget.check_now()?;
        let count = (ids.end - ids.start) as usize;
        let n_chunks = count.div_ceil(CHUNK);
        while slabs.chunks.len() < n_chunks {
            slabs.chunks.push(Chunk::new());
        }
        let chunks = &mut slabs.chunks[..n_chunks];
        let (product, config) = (self.product, self.budget.config());
        let store = &*self.store;
        slabs.pool.install(|| {
            chunks
                .par_iter_mut()
                .enumerate()
                .try_for_each(|(c, chunk)| {
                    let from = ids.start + (c * CHUNK) as u32;
                    let to = ids.end.min(from + CHUNK as u32);
                    chunk.expand(from..to, product, store, config)
                })
        })?;
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
        self.number(&mut slabs.chunks[..n_chunks], &slabs.found)?;
        if S::NUMBERED {
            let chunks = &slabs.chunks[..n_chunks];
            let (found, grew) = (&slabs.found, &slabs.grew);
            let shards = self.store.shards();
            slabs.pool.install(|| {
                (shards.par_iter_mut(), found.par_iter(), grew.par_iter())
                    .into_par_iter()
                    .for_each(|(shard, found, &grew)| {
                        renumber::<S>(shard, chunks, found, grew);
                    });
            });
        }
        self.commit(&slabs.chunks[..n_chunks])
    }

    /// Phase 3: numbers the discoveries in canonical order, appending their keys (and parents).
    fn number(
        &mut self,
        chunks: &mut [Chunk<S::SlabKey>],
        found: &[Vec<(u32, u32, usize)>],
    ) -> Result<(), ComposeError> {
        for &(c, i, _) in found.iter().flatten() {
            chunks[c as usize].steps[i as usize].target = DISCOVERED;
        }
        for chunk in chunks {
            let mut from = 0;
            for (k, state) in chunk.states.iter_mut().enumerate() {
                state.known_before = self.store.len() as u32;
                let source = chunk.first + k as u32;
                for step in &mut chunk.steps[from..state.steps_end as usize] {
                    if step.target == DISCOVERED {
                        step.target = self.store.push_key(step.key)?;
                        if let Some(parents) = &mut self.parents {
                            parents.push((source, step.action));
                        }
                        if let Some(recorder) = &mut self.recorder {
                            recorder.add_state(&*self.store, step.target)?;
                        }
                    }
                }
                from = state.steps_end as usize;
                state.known_after = self.store.len() as u32;
            }
        }
        Ok(())
    }

    /// Phase 5: the visitor's calls and the state budget, state by state in order; a hit ends the
    /// walk with the counts the sequential walk would have.
    fn commit(&mut self, chunks: &[Chunk<S::SlabKey>]) -> Result<Option<Hit>, ComposeError> {
        let mut tuple = vec![StateId::default(); self.product.width()];
        for chunk in chunks {
            let mut errors_from = 0;
            for (k, state) in chunk.states.iter().enumerate() {
                let id = chunk.first + k as u32;
                self.store.load(id, &mut tuple);
                if let Some(hit) = self.visitor.expand(id, &tuple) {
                    return Ok(Some(self.stop(hit, 0, state.known_before)));
                }
                for e in &chunk.errors[errors_from..state.errors_end as usize] {
                    if let Some(violation) =
                        self.visitor.error(Some(id), e.action, e.component as usize)
                    {
                        let hit = Hit {
                            state: Some(id),
                            last: Some(e.action),
                            violation,
                        };
                        return Ok(Some(self.stop(hit, e.nth + 1, state.known_before)));
                    }
                }
                errors_from = state.errors_end as usize;
                self.budget.check_states(state.known_after as usize)?;
                self.stats.transitions += state.successors as usize;
                if let Some(violation) =
                    self.visitor.expanded(id, &tuple, state.successors as usize)
                {
                    let hit = Hit {
                        state: Some(id),
                        last: None,
                        violation,
                    };
                    return Ok(Some(self.stop(hit, 0, state.known_after)));
                }
            }
        }
        Ok(None)
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
