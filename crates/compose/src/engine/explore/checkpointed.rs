//! The breadth-first walk with checkpoints ([`run_checkpointed`]): the sequential walk of
//! `explore` with a [`Recorder`] that logs every state it numbers and writes a checkpoint after
//! the batch in which one falls due, and that can start from a checkpoint instead of the initial
//! tuple. It records parents from the start (8 bytes a state), so a violation's counterexample
//! comes from the one walk, resumed or not, instead of from a second walk from scratch; the walk
//! numbers states as the plain one does, so verdict, counts and counterexample are the same.
//! A checkpoint is taken between two batches or slabs, where the walk's state is only its
//! cursor; the walk expands large frontiers on several threads as the plain one does.

use std::ops::ControlFlow;

use super::{Hit, Layout, Visitor, Walk, Walker, WithStore, parallel, with_store};
use crate::checkpoint::Checkpointing;
use crate::checkpoint::recorder::{Cursor, Recorder};
use crate::config::{Budget, Storage};
use crate::engine::compact::CompactStore;
use crate::engine::sharded::{ShardedStore, SlabStore};
use crate::engine::store::{Fields, Store};
use crate::error::ComposeError;
use crate::product::Product;
use crate::threads::Threads;

/// The fingerprints a checkpoint records and a resume compares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fingerprints {
    pub(crate) model: u64,
    pub(crate) options: u64,
}

/// Walks `product` breadth first with checkpoints per `plan` (resuming if it says so), on the
/// stores the plain walk uses, on the config's threads when there are several: the compact store
/// if the config asks for it (the default) and the tuples fit it, else the sharded table store
/// when there are several threads and the tuples pack into 128 bits, else the table store.
pub(crate) fn run_checkpointed<V: Visitor>(
    product: &Product<'_>,
    visitor: &mut V,
    budget: &mut Budget<'_>,
    plan: &Checkpointing,
    prints: Fingerprints,
) -> Result<Walk, ComposeError> {
    let mut job = Job {
        product,
        visitor,
        budget,
        plan,
        prints,
    };
    let comps = product.components();
    let threads = Threads::for_config(job.budget.config());
    let pool = threads.is_concurrent().then_some(threads);
    if job.budget.config().storage == Storage::Compact {
        if let Some(mut store) = CompactStore::<u64>::new(comps) {
            return job.walk_slabs(&mut store, pool);
        }
        if let Some(mut store) = CompactStore::<u128>::new(comps) {
            return job.walk_slabs(&mut store, pool);
        }
    }
    if let Some(pool) = pool
        && let Some(fields) = Fields::plan(comps, None)
    {
        let p = Some(pool);
        return if fields.bits() <= 64 {
            job.walk_slabs(&mut ShardedStore::<u64>::new(fields), p)
        } else if fields.bits() <= 96 {
            job.walk_slabs(&mut ShardedStore::<[u32; 3]>::new(fields), p)
        } else {
            job.walk_slabs(&mut ShardedStore::<[u32; 4]>::new(fields), p)
        };
    }
    with_store(product, Layout::Auto, job)
}

/// A checkpointed walk as a [`WithStore`] job.
struct Job<'a, 'p, 'b, V> {
    product: &'a Product<'p>,
    visitor: &'a mut V,
    budget: &'a mut Budget<'b>,
    plan: &'a Checkpointing,
    prints: Fingerprints,
}

impl<V: Visitor> WithStore for Job<'_, '_, '_, V> {
    type Output = Result<Walk, ComposeError>;
    fn with<S: Store>(mut self, store: &mut S) -> Self::Output {
        self.walk(store)
    }
}

impl<V: Visitor> Job<'_, '_, '_, V> {
    /// The walk on the sequential walker.
    fn walk<S: Store>(&mut self, store: &mut S) -> Result<Walk, ComposeError> {
        let mut w = Walker::new(self.product, store, self.visitor, self.budget, true);
        let next = match prepare(&mut w, self.plan, self.prints)? {
            ControlFlow::Break(done) => return Ok(w.finish(done)),
            ControlFlow::Continue(next) => next,
        };
        let hit = w.run_from(next)?;
        Ok(w.finish(hit))
    }

    /// The walk expanding large frontiers as slabs on the threads of `pool`, if there is one.
    fn walk_slabs<S: SlabStore>(
        &mut self,
        store: &mut S,
        pool: Option<Threads>,
    ) -> Result<Walk, ComposeError> {
        let Some(pool) = pool else {
            return self.walk(store);
        };
        let mut slabs = parallel::Slabs::new(pool, parallel::min_slab());
        let mut w = Walker::new(self.product, store, self.visitor, self.budget, true);
        let next = match prepare(&mut w, self.plan, self.prints)? {
            ControlFlow::Break(done) => return Ok(w.finish(done)),
            ControlFlow::Continue(next) => next,
        };
        let hit = w.run_parallel_from(&mut slabs, next)?;
        Ok(w.finish(hit))
    }
}

/// Gives the walk its recorder: from the checkpoint (the store refilled, parents, counters and
/// the visitor's deadlock restored) or fresh (the initial tuple numbered and a first checkpoint
/// written). Continues with the cursor to walk on from, or breaks with the walk's result if the
/// initial tuple ends it.
fn prepare<S: Store, V: Visitor>(
    w: &mut Walker<'_, '_, S, V>,
    plan: &Checkpointing,
    prints: Fingerprints,
) -> Result<ControlFlow<Option<Hit>, u32>, ComposeError> {
    let product = w.product;
    let comps = product.components();
    let next = if plan.resume {
        let (recorder, restored) =
            Recorder::resume(plan, comps, prints.model, prints.options, w.store, w.budget)?;
        w.parents = Some(restored.parents);
        w.stats.transitions = restored.cursor.transitions;
        w.visitor.restore_deadlock(restored.cursor.deadlock);
        w.recorder = Some(recorder);
        restored.cursor.next
    } else {
        let mut recorder = Recorder::create(plan, comps, prints.model, prints.options)?;
        let tuple = product.initial();
        if let ControlFlow::Break(done) = w.start(&tuple)? {
            return Ok(ControlFlow::Break(done));
        }
        recorder.add_state(&*w.store, 0)?;
        let parents = w.parents.as_deref().unwrap_or_default();
        recorder.commit(parents, Cursor::default())?;
        w.recorder = Some(recorder);
        0
    };
    Ok(ControlFlow::Continue(next))
}
