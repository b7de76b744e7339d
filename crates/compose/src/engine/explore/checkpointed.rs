//! The breadth-first walk with checkpoints ([`run_checkpointed`]): the sequential walk of
//! `explore` with a [`Recorder`] that logs every state it numbers and writes a checkpoint after
//! the batch in which one falls due, and that can start from a checkpoint instead of the initial
//! tuple. It records parents from the start (8 bytes a state), so a violation's counterexample
//! comes from the one walk, resumed or not, instead of from a second walk from scratch; the walk
//! numbers states as the plain one does, so verdict, counts and counterexample are the same.
//! A checkpoint is taken between two batches or slabs, where the walk's state is only its
//! cursor; the walk expands large frontiers on several threads as the plain one does.

use std::ops::ControlFlow;

use super::{Hit, Visitor, Walk, Walker, WithSlabStore, WithStore, parallel, with_slab_store};
use crate::checkpoint::Checkpointing;
use crate::checkpoint::recorder::{Cursor, Recorder};
use crate::config::{Budget, Config};
use crate::engine::sharded::SlabStore;
use crate::engine::store::Store;
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
/// store and threads the plain walk uses ([`with_slab_store`]).
pub(crate) fn run_checkpointed<V: Visitor>(
    product: &Product<'_>,
    visitor: &mut V,
    budget: &mut Budget<'_>,
    plan: &Checkpointing,
    prints: Fingerprints,
) -> Result<Walk, ComposeError> {
    let job = Job {
        product,
        visitor,
        budget,
        plan,
        prints,
    };
    with_slab_store(product, job)
}

/// A checkpointed walk as a [`WithStore`] and [`WithSlabStore`] job.
struct Job<'a, 'p, 'b, V> {
    product: &'a Product<'p>,
    visitor: &'a mut V,
    budget: &'a mut Budget<'b>,
    plan: &'a Checkpointing,
    prints: Fingerprints,
}

impl<V: Visitor> WithStore for Job<'_, '_, '_, V> {
    type Output = Result<Walk, ComposeError>;
    /// The walk on the sequential walker.
    fn with<S: Store>(self, store: &mut S) -> Self::Output {
        let mut w = Walker::new(self.product, store, self.visitor, self.budget, true);
        let next = match prepare(&mut w, self.plan, self.prints)? {
            ControlFlow::Break(done) => return Ok(w.finish(done)),
            ControlFlow::Continue(next) => next,
        };
        let hit = w.run_from(next)?;
        Ok(w.finish(hit))
    }
}

impl<V: Visitor> WithSlabStore for Job<'_, '_, '_, V> {
    fn config(&self) -> &Config {
        self.budget.config()
    }

    /// The walk expanding large frontiers as slabs on the threads of `pool`, run whole on one of
    /// them (as the plain walk is).
    fn with_slabs<S: SlabStore>(self, store: &mut S, pool: Threads) -> Self::Output {
        let Self {
            product,
            visitor,
            budget,
            plan,
            prints,
        } = self;
        let min = parallel::min_slab();
        pool.clone().install(move || {
            let mut slabs = parallel::Slabs::new(pool, min);
            let mut w = Walker::new(product, store, visitor, budget, true);
            let next = match prepare(&mut w, plan, prints)? {
                ControlFlow::Break(done) => return Ok(w.finish(done)),
                ControlFlow::Continue(next) => next,
            };
            let hit = w.run_parallel_from(&mut slabs, next)?;
            Ok(w.finish(hit))
        })
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
