//! The one breadth-first exploration loop behind every check and the eager composition.
//!
//! [`run`] walks the reachable tuples of a [`Product`] in BFS order, numbering them in discovery
//! order in a [`Store`] (which doubles as the queue), and reports what it sees to a [`Visitor`]:
//! edges (for the eager composition), error tuples (violations), expansions (for premise checks that
//! look one step past the product, and for deadlocks). A visitor may stop the walk with a [`Hit`].
//!
//! Parent pointers cost 8 bytes per state and are only needed to print a counterexample, so
//! [`search`] first runs without them and, only if it finds a violation, runs again with them. BFS is
//! deterministic, so the second run stops at the same violation; when the property holds (the
//! expensive case, where the whole space is explored) no parent is ever stored. The rejected
//! alternative, always storing parents, would add about a third to the memory of a passing check.

mod checkpointed;
mod parallel;

use std::ops::ControlFlow;

use guarantor_lts::{ActionId, StateId};

use crate::checkpoint::recorder::{Cursor, Recorder};
use crate::config::{Budget, Config, Storage};
use crate::engine::compact::CompactStore;
use crate::engine::sharded::{ShardedStore, SlabStore};
use crate::engine::stats::Stats;
use crate::engine::store::{Fields, PackedStore, Store, WideStore};
use crate::error::ComposeError;
use crate::product::{Product, Scratch};
use crate::threads::Threads;
use crate::verdict::{Counterexample, Violation};

/// Where a walk stopped: after expanding state `state` (none: the initial tuple itself is an error),
/// optionally with one more step on `last`, reaching `violation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) state: Option<u32>,
    pub(crate) last: Option<ActionId>,
    pub(crate) violation: Violation,
}

/// What the exploration loop reports to. Every method has a neutral default.
pub(crate) trait Visitor: Send {
    /// Whether the walk may expand a slab of states ahead of this visitor's calls, on several
    /// threads (see `explore::parallel`). Such a walk never calls [`Visitor::edge`], so a visitor
    /// that records edges says `false`.
    const SLABS: bool = true;
    /// Called before state `id` (not an error tuple) is expanded; may stop the walk.
    fn expand(&mut self, _id: u32, _tuple: &[StateId]) -> Option<Hit> {
        None
    }
    /// Called for every transition between two non-error tuples.
    fn edge(&mut self, _source: u32, _action: ActionId, _target: u32) -> Result<(), ComposeError> {
        Ok(())
    }
    /// Called for a transition into an error tuple whose first failing component is `component`
    /// (`source` is `None` when the initial tuple is an error). Returning a violation stops the walk.
    fn error(
        &mut self,
        source: Option<u32>,
        action: ActionId,
        component: usize,
    ) -> Option<Violation>;
    /// Called after state `id` was expanded with `successors` transitions; may stop the walk.
    fn expanded(&mut self, _id: u32, _tuple: &[StateId], _successors: usize) -> Option<Violation> {
        None
    }
    /// The bytes the visitor will allocate at once when the walk ends (a built LTS beside the
    /// builder), announced to the memory budget with the store's next growth.
    fn growth_bytes(&self) -> usize {
        0
    }
    /// The first deadlock the visitor has remembered, which a checkpoint keeps.
    fn first_deadlock(&self) -> Option<u32> {
        None
    }
    /// Restores what [`Visitor::first_deadlock`] said when the checkpoint was written.
    fn restore_deadlock(&mut self, _deadlock: Option<u32>) {}
}

/// The result of one walk.
#[derive(Debug)]
pub(crate) struct Walk {
    pub(crate) hit: Option<Hit>,
    pub(crate) stats: Stats,
    /// `(parent, action)` of each state in discovery order, if they were recorded.
    pub(crate) parents: Vec<(u32, ActionId)>,
}

/// Which store layout a walk uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Packed keys (one, three or four words) when they fit in 128 bits, the wide arena otherwise.
    Auto,
    /// Always the wide arena (for tests of the fallback).
    #[cfg(test)]
    Wide,
    /// Four-word packed keys with the second half of the components in the high half (for tests
    /// of multi-word keys on small systems).
    #[cfg(test)]
    Split,
}

/// Something to do with a store of whichever layout [`with_store`] picks (a closure cannot be
/// generic over the store type).
pub(crate) trait WithStore {
    /// The result.
    type Output;
    /// Does it with `store`.
    fn with<S: Store>(self, store: &mut S) -> Self::Output;
}

/// Runs `job` with a fresh store for the tuples of `product` in `layout`.
pub(crate) fn with_store<W: WithStore>(product: &Product<'_>, layout: Layout, job: W) -> W::Output {
    let comps = product.components();
    let fields = match layout {
        Layout::Auto => Fields::plan(comps, None),
        #[cfg(test)]
        Layout::Wide => None,
        #[cfg(test)]
        Layout::Split => {
            return match Fields::plan(comps, Some(comps.len() / 2)) {
                Some(f) => job.with(&mut PackedStore::<[u32; 4]>::new(f)),
                None => job.with(&mut WideStore::new(product.width())),
            };
        }
    };
    match fields {
        Some(f) if f.bits() <= 64 => job.with(&mut PackedStore::<u64>::new(f)),
        Some(f) if f.bits() <= 96 => job.with(&mut PackedStore::<[u32; 3]>::new(f)),
        Some(f) => job.with(&mut PackedStore::<[u32; 4]>::new(f)),
        None => job.with(&mut WideStore::new(product.width())),
    }
}

/// Walks `product` in BFS order, reporting to `visitor`.
pub(crate) fn run<V: Visitor>(
    product: &Product<'_>,
    visitor: &mut V,
    budget: &mut Budget<'_>,
    parents: bool,
    layout: Layout,
) -> Result<Walk, ComposeError> {
    /// A BFS walk as a [`WithStore`] and [`WithSlabStore`] job.
    struct Bfs<'a, 'p, 'b, V> {
        product: &'a Product<'p>,
        visitor: &'a mut V,
        budget: &'a mut Budget<'b>,
        parents: bool,
    }
    impl<V: Visitor> WithStore for Bfs<'_, '_, '_, V> {
        type Output = Result<Walk, ComposeError>;
        fn with<S: Store>(self, store: &mut S) -> Self::Output {
            walk(self.product, store, self.visitor, self.budget, self.parents)
        }
    }
    impl<V: Visitor> WithSlabStore for Bfs<'_, '_, '_, V> {
        fn config(&self) -> &Config {
            self.budget.config()
        }
        fn with_slabs<S: SlabStore>(self, store: &mut S, pool: Threads) -> Self::Output {
            let (product, visitor, budget, parents) =
                (self.product, self.visitor, self.budget, self.parents);
            let min = parallel::min_slab();
            // The whole walk on a thread of the pool: its sequential phases between slabs too.
            pool.clone().install(move || {
                let mut slabs = parallel::Slabs::new(pool, min);
                let mut w = Walker::new(product, store, visitor, budget, parents);
                let hit = w.run_parallel(&mut slabs)?;
                Ok(w.finish(hit))
            })
        }
    }
    let job = Bfs {
        product,
        visitor,
        budget,
        parents,
    };
    if layout == Layout::Auto && V::SLABS {
        with_slab_store(product, job)
    } else {
        with_store(product, layout, job)
    }
}

/// Something to do with a store the parallel walk can share out ([`SlabStore`]), on the threads
/// of a pool, or, where [`with_slab_store`] runs on one thread, with any store.
pub(crate) trait WithSlabStore: WithStore {
    /// The config the store and the threads are chosen by.
    fn config(&self) -> &Config;
    /// Does it with `store` on the threads of `pool`.
    fn with_slabs<S: SlabStore>(self, store: &mut S, pool: Threads) -> Self::Output;
}

/// Runs `job` with the store a breadth-first walk of `product` uses under the job's config: the
/// compact store if the config asks for it (the default) and the tuples fit it, on the config's
/// threads when there are several; else, with several threads, the sharded table store when the
/// tuples pack into 128 bits; else the store [`with_store`] picks, on one thread.
pub(crate) fn with_slab_store<W: WithSlabStore>(product: &Product<'_>, job: W) -> W::Output {
    let comps = product.components();
    let threads = Threads::for_config(job.config());
    let pool = threads.is_concurrent().then_some(threads);
    if job.config().storage == Storage::Compact {
        if let Some(mut store) = CompactStore::<u64>::new(comps) {
            return with_slabs_or_one(job, &mut store, pool);
        }
        if let Some(mut store) = CompactStore::<u128>::new(comps) {
            return with_slabs_or_one(job, &mut store, pool);
        }
    }
    if let Some(pool) = pool
        && let Some(fields) = Fields::plan(comps, None)
    {
        return if fields.bits() <= 64 {
            job.with_slabs(&mut ShardedStore::<u64>::new(fields), pool)
        } else if fields.bits() <= 96 {
            job.with_slabs(&mut ShardedStore::<[u32; 3]>::new(fields), pool)
        } else {
            job.with_slabs(&mut ShardedStore::<[u32; 4]>::new(fields), pool)
        };
    }
    with_store(product, Layout::Auto, job)
}

/// `job` on `store`, on the threads of `pool` if there is one.
fn with_slabs_or_one<W: WithSlabStore, S: SlabStore>(
    job: W,
    store: &mut S,
    pool: Option<Threads>,
) -> W::Output {
    match pool {
        Some(pool) => job.with_slabs(store, pool),
        None => job.with(store),
    }
}

/// The successors of a batch of expanded states, waiting to be looked up: action, hash and key per
/// successor, their tuples back to back (only for stores that need them), and per state where its
/// successors end.
#[derive(Debug)]
struct Pending<K> {
    moves: Vec<(ActionId, u64, K)>,
    tuples: Vec<StateId>,
    /// `(state, number of successors, end of its successors in moves)`, in expansion order.
    states: Vec<(u32, usize, usize)>,
}

impl<K> Pending<K> {
    fn new() -> Self {
        Self {
            moves: Vec::new(),
            tuples: Vec::new(),
            states: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.moves.clear();
        self.tuples.clear();
        self.states.clear();
    }
}

/// The walk's mutable state, so the steps can be short functions.
struct Walker<'w, 'b, S, V> {
    product: &'w Product<'w>,
    store: &'w mut S,
    visitor: &'w mut V,
    budget: &'w mut Budget<'b>,
    parents: Option<Vec<(u32, ActionId)>>,
    stats: Stats,
    /// The states numbered when a slab's hit ended the walk (the store holds more: the states a
    /// slab numbered past the hit).
    states_at_hit: Option<usize>,
    /// Where a checkpointed walk records what it discovers (`explore::checkpointed`).
    recorder: Option<Recorder>,
}

fn walk<S: Store, V: Visitor>(
    product: &Product<'_>,
    store: &mut S,
    visitor: &mut V,
    budget: &mut Budget<'_>,
    record_parents: bool,
) -> Result<Walk, ComposeError> {
    let mut w = Walker::new(product, store, visitor, budget, record_parents);
    let hit = w.run()?;
    Ok(w.finish(hit))
}

impl<'w, 'b, S: Store, V: Visitor> Walker<'w, 'b, S, V> {
    fn new(
        product: &'w Product<'w>,
        store: &'w mut S,
        visitor: &'w mut V,
        budget: &'w mut Budget<'b>,
        record_parents: bool,
    ) -> Self {
        Self {
            product,
            store,
            visitor,
            budget,
            parents: record_parents.then(Vec::new),
            stats: Stats::default(),
            states_at_hit: None,
            recorder: None,
        }
    }

    /// The walk's result, once it ended at `hit` (or ran out of states).
    fn finish(self, hit: Option<Hit>) -> Walk {
        let states = self.states_at_hit.unwrap_or(self.store.len());
        if let Some(monitor) = &self.budget.config().monitor {
            monitor.record_store_bytes(self.store.peak_bytes());
        }
        Walk {
            hit,
            stats: self.stats.with_states(states),
            parents: self.parents.unwrap_or_default(),
        }
    }
}

impl<S: Store, V: Visitor> Walker<'_, '_, S, V> {
    fn run(&mut self) -> Result<Option<Hit>, ComposeError> {
        let tuple = self.product.initial();
        if let ControlFlow::Break(done) = self.start(&tuple)? {
            return Ok(done);
        }
        self.run_from(0)
    }

    /// Expands the numbered states from `next` on (all below it are expanded), writing a
    /// checkpoint after each batch once one is due, if the walk has a recorder.
    fn run_from(&mut self, mut next: u32) -> Result<Option<Hit>, ComposeError> {
        let mut tuple = self.product.initial();
        let mut scratch = Scratch::new();
        let mut pending = Pending::new();
        // The store doubles as the queue: states are expanded in the order they were numbered,
        // a batch of already numbered states at a time.
        while (next as usize) < self.store.len() {
            self.store.release_below(next);
            let end = (self.store.len() as u32).min(next.saturating_add(S::BATCH));
            if let Some(hit) = self.batch(next..end, &mut tuple, &mut scratch, &mut pending)? {
                return Ok(Some(hit));
            }
            next = end;
            if self.recorder.as_ref().is_some_and(Recorder::due) {
                self.checkpoint_at(next)?;
            }
        }
        Ok(None)
    }

    /// Writes a checkpoint with every state below `next` expanded.
    fn checkpoint_at(&mut self, next: u32) -> Result<(), ComposeError> {
        let cursor = Cursor {
            next,
            transitions: self.stats.transitions,
            deadlock: self.visitor.first_deadlock(),
        };
        if let (Some(recorder), Some(parents)) = (&mut self.recorder, &self.parents) {
            recorder.commit(parents, cursor)?;
        }
        Ok(())
    }

    /// Stores the initial tuple `tuple`; breaks with the walk's result if it ends there (the tuple
    /// is an error tuple).
    fn start(&mut self, tuple: &[StateId]) -> Result<ControlFlow<Option<Hit>>, ComposeError> {
        if let Some(c) = self.product.error_component(tuple) {
            let violation = self.visitor.error(None, ActionId::TAU, c);
            return Ok(ControlFlow::Break(violation.map(|violation| Hit {
                state: None,
                last: None,
                violation,
            })));
        }
        self.store.insert(tuple)?;
        self.budget.check_states(1)?;
        if let Some(parents) = &mut self.parents {
            parents.push((u32::MAX, ActionId::TAU));
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Expands the numbered states `ids`, numbering their new successors.
    fn batch(
        &mut self,
        ids: std::ops::Range<u32>,
        tuple: &mut [StateId],
        scratch: &mut Scratch,
        pending: &mut Pending<S::Key>,
    ) -> Result<Option<Hit>, ComposeError> {
        pending.clear();
        // The parents, when recorded, may be copied into a larger block as they grow.
        let parents = self.parents.as_ref().map_or(0, |p| p.capacity() * 8);
        self.budget
            .expect_growth(self.store.growth_bytes() + self.visitor.growth_bytes() + parents);
        let mut stop = None;
        for id in ids {
            self.budget.tick()?;
            self.store.load(id, tuple);
            if let Some(hit) = self.enumerate(id, tuple, scratch, pending) {
                stop = Some(hit);
                break;
            }
        }
        if let Some(hit) = self.discover_batch(pending, tuple)? {
            return Ok(Some(hit));
        }
        if let Some((hit, successors)) = stop {
            self.stats.transitions += successors;
            return Ok(Some(hit));
        }
        Ok(None)
    }

    /// Enumerates the successors of state `id` into `pending`, touching their table slots. A hit
    /// (from the visitor's `expand` or an error tuple) is returned with the number of successors
    /// enumerated before it, and the state's successors are then dropped from `pending`.
    fn enumerate(
        &mut self,
        id: u32,
        tuple: &[StateId],
        scratch: &mut Scratch,
        pending: &mut Pending<S::Key>,
    ) -> Option<(Hit, usize)> {
        if let Some(hit) = self.visitor.expand(id, tuple) {
            return Some((hit, 0));
        }
        let mut successors = 0usize;
        let mut warm = 0u64;
        let (product, store, visitor) = (self.product, &*self.store, &mut *self.visitor);
        let width = product.width();
        let flow = product.for_each_successor(tuple, scratch, |action, target| {
            successors += 1;
            if let Some(c) = product.error_component(target) {
                return match visitor.error(Some(id), action, c) {
                    Some(violation) => ControlFlow::Break(Hit {
                        state: Some(id),
                        last: Some(action),
                        violation,
                    }),
                    None => ControlFlow::Continue(()),
                };
            }
            let (hash, key) = store.locate(target);
            // Start the cache miss now; the lookup proper comes after the whole batch is
            // enumerated, so the misses overlap instead of queueing.
            warm ^= store.touch(hash);
            pending.moves.push((action, hash, key));
            if S::NEEDS_TUPLE {
                pending.tuples.extend_from_slice(target);
            }
            ControlFlow::Continue(())
        });
        std::hint::black_box(warm);
        if let ControlFlow::Break(hit) = flow {
            let kept = pending.states.last().map_or(0, |s| s.2);
            pending.moves.truncate(kept);
            pending
                .tuples
                .truncate(if S::NEEDS_TUPLE { kept * width } else { 0 });
            return Some((hit, successors));
        }
        pending.states.push((id, successors, pending.moves.len()));
        None
    }

    /// Looks up (and numbers, if new) the pending successors, state by state in expansion order,
    /// and reports each state as expanded; stops at the first hit the visitor reports.
    fn discover_batch(
        &mut self,
        pending: &Pending<S::Key>,
        tuple: &mut [StateId],
    ) -> Result<Option<Hit>, ComposeError> {
        let mut from = 0;
        for &(id, successors, to) in &pending.states {
            self.stats.transitions += successors;
            self.discover_all(id, pending, from..to)?;
            from = to;
            self.store.load(id, tuple);
            if let Some(violation) = self.visitor.expanded(id, tuple, successors) {
                return Ok(Some(Hit {
                    state: Some(id),
                    last: None,
                    violation,
                }));
            }
        }
        Ok(None)
    }

    /// Looks up (and numbers, if new) the pending successors `range` of state `source`.
    fn discover_all(
        &mut self,
        source: u32,
        pending: &Pending<S::Key>,
        range: std::ops::Range<usize>,
    ) -> Result<(), ComposeError> {
        let width = self.product.width();
        for i in range {
            let (action, hash, key) = pending.moves[i];
            let target = if S::NEEDS_TUPLE {
                &pending.tuples[i * width..(i + 1) * width]
            } else {
                &[]
            };
            let (id, new) = self.store.insert_at(target, hash, key)?;
            if new {
                self.budget.check_states(self.store.len())?;
                if let Some(parents) = &mut self.parents {
                    parents.push((source, action));
                }
                if let Some(recorder) = &mut self.recorder {
                    recorder.add_state(&*self.store, id)?;
                }
            }
            self.visitor.edge(source, action, id)?;
        }
        Ok(())
    }
}

/// Looks for a violation with two walks (see the module docs): returns the shortest counterexample,
/// if any, and the statistics of the first walk. `make` builds a fresh visitor for each walk.
pub(crate) fn search<V: Visitor>(
    product: &Product<'_>,
    mut make: impl FnMut() -> V,
    budget: &mut Budget<'_>,
) -> Result<(Option<Counterexample>, Stats), ComposeError> {
    let first = run(product, &mut make(), budget, false, Layout::Auto)?;
    let Some(hit) = first.hit else {
        return Ok((None, first.stats));
    };
    let second = run(product, &mut make(), budget, true, Layout::Auto)?;
    debug_assert_eq!(second.hit, Some(hit), "BFS is deterministic");
    let trace = trace_to(product, &second.parents, hit);
    Ok((Some(Counterexample::new(trace, hit.violation)), first.stats))
}

pub(crate) use checkpointed::{Fingerprints, run_checkpointed};

/// Runs `f` with walks of this thread expanding every frontier of at least `min` states as a
/// slab (tests of the parallel walk on small systems).
#[cfg(test)]
pub(crate) fn with_min_slab<T>(min: usize, f: impl FnOnce() -> T) -> T {
    parallel::TEST_MIN_SLAB.with(|m| m.set(Some(min)));
    let out = f();
    parallel::TEST_MIN_SLAB.with(|m| m.set(None));
    out
}

/// The visible actions on the BFS path to `hit`, including its last step.
pub(crate) fn trace_to(
    product: &Product<'_>,
    parents: &[(u32, ActionId)],
    hit: Hit,
) -> Vec<String> {
    let mut actions: Vec<ActionId> = hit.last.into_iter().collect();
    let mut at = hit.state;
    while let Some(s) = at.filter(|&s| s != u32::MAX) {
        let (parent, action) = parents[s as usize];
        if parent != u32::MAX {
            actions.push(action);
        }
        at = Some(parent);
    }
    actions
        .iter()
        .rev()
        .filter(|a| !a.is_tau())
        .map(|&a| product.action_name(a).to_owned())
        .collect()
}
