//! The breadth-first walk with checkpoints ([`run_checkpointed`]): the sequential walk of
//! `explore` with a [`Recorder`] that logs every state it numbers and writes a checkpoint after
//! the batch in which one falls due, and that can start from a checkpoint instead of the initial
//! tuple. It records parents from the start (8 bytes a state), so a violation's counterexample
//! comes from the one walk, resumed or not, instead of from a second walk from scratch; the walk
//! numbers states as the plain one does, so verdict, counts and counterexample are the same.
//! It runs on one thread: a checkpoint is taken between two batches, where the sequential walk's
//! state is only its cursor.

use std::ops::ControlFlow;

use super::{Layout, Visitor, Walk, Walker, WithStore, with_store};
use crate::checkpoint::Checkpointing;
use crate::checkpoint::recorder::{Cursor, Recorder};
use crate::compact::CompactStore;
use crate::config::{Budget, Storage};
use crate::error::ComposeError;
use crate::product::Product;
use crate::store::Store;

/// The fingerprints a checkpoint records and a resume compares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fingerprints {
    pub(crate) model: u64,
    pub(crate) options: u64,
}

/// Walks `product` breadth first with checkpoints per `plan` (resuming if it says so), on the
/// compact store if the config asks for it and the tuples fit it, else on the table store.
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
    if job.budget.config().storage == Storage::Compact {
        let comps = product.components();
        if let Some(mut store) = CompactStore::<u64>::new(comps) {
            return job.walk(&mut store);
        }
        if let Some(mut store) = CompactStore::<u128>::new(comps) {
            return job.walk(&mut store);
        }
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
    fn walk<S: Store>(&mut self, store: &mut S) -> Result<Walk, ComposeError> {
        let (product, plan, prints) = (self.product, self.plan, self.prints);
        let comps = product.components();
        let mut w = Walker::new(product, store, self.visitor, self.budget, true);
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
                return Ok(w.finish(done));
            }
            recorder.add_state(&*w.store, 0)?;
            let parents = w.parents.as_deref().unwrap_or_default();
            recorder.commit(parents, Cursor::default())?;
            w.recorder = Some(recorder);
            0
        };
        let hit = w.run_from(next)?;
        Ok(w.finish(hit))
    }
}
