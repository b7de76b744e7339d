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

use std::ops::ControlFlow;

use guarantor_lts::{ActionId, StateId};

use crate::config::Budget;
use crate::error::ComposeError;
use crate::product::{Product, Scratch};
use crate::safety::Stats;
use crate::store::{PackedStore, Store, WideStore};
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
pub(crate) trait Visitor {
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
}

/// The result of one walk.
#[derive(Debug)]
pub(crate) struct Walk {
    pub(crate) hit: Option<Hit>,
    pub(crate) stats: Stats,
    /// `(parent, action)` of each state in discovery order, if they were recorded.
    pub(crate) parents: Vec<(u32, ActionId)>,
}

/// Which store layout [`run`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Packed `u64` keys when they fit, the wide arena otherwise.
    Auto,
    /// Always the wide arena (for tests of the fallback).
    #[cfg(test)]
    Wide,
}

/// Walks `product` in BFS order, reporting to `visitor`.
pub(crate) fn run(
    product: &Product<'_>,
    visitor: &mut impl Visitor,
    budget: &mut Budget<'_>,
    parents: bool,
    layout: Layout,
) -> Result<Walk, ComposeError> {
    let packed = match layout {
        Layout::Auto => PackedStore::for_components(product.components()),
        #[cfg(test)]
        Layout::Wide => None,
    };
    match packed {
        Some(mut store) => walk(product, &mut store, visitor, budget, parents),
        None => walk(
            product,
            &mut WideStore::new(product.width()),
            visitor,
            budget,
            parents,
        ),
    }
}

fn walk<S: Store>(
    product: &Product<'_>,
    store: &mut S,
    visitor: &mut impl Visitor,
    budget: &mut Budget<'_>,
    record_parents: bool,
) -> Result<Walk, ComposeError> {
    let mut tuple = product.initial();
    let mut stats = Stats::default();
    let mut parents = Vec::new();
    if let Some(c) = product.error_component(&tuple) {
        let hit = visitor.error(None, ActionId::TAU, c).map(|violation| Hit {
            state: None,
            last: None,
            violation,
        });
        return Ok(Walk {
            hit,
            stats,
            parents,
        });
    }
    store.insert(&tuple)?;
    budget.check_states(1)?;
    if record_parents {
        parents.push((u32::MAX, ActionId::TAU));
    }
    let mut scratch = Scratch::new();
    let mut next = 0u32;
    while (next as usize) < store.len() {
        budget.tick()?;
        store.load(next, &mut tuple);
        if let Some(hit) = visitor.expand(next, &tuple) {
            return Ok(Walk {
                hit: Some(hit),
                stats: stats.with_states(store.len()),
                parents,
            });
        }
        let mut successors = 0usize;
        let flow = product.for_each_successor(&tuple, &mut scratch, |action, target| {
            successors += 1;
            if let Some(c) = product.error_component(target) {
                return match visitor.error(Some(next), action, c) {
                    Some(violation) => ControlFlow::Break(Ok(Hit {
                        state: Some(next),
                        last: Some(action),
                        violation,
                    })),
                    None => ControlFlow::Continue(()),
                };
            }
            match discover(
                store,
                budget,
                target,
                next,
                action,
                record_parents.then_some(&mut parents),
            )
            .and_then(|id| visitor.edge(next, action, id))
            {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => ControlFlow::Break(Err(e)),
            }
        });
        stats.transitions += successors;
        if let ControlFlow::Break(stop) = flow {
            return Ok(Walk {
                hit: Some(stop?),
                stats: stats.with_states(store.len()),
                parents,
            });
        }
        if let Some(violation) = visitor.expanded(next, &tuple, successors) {
            let hit = Hit {
                state: Some(next),
                last: None,
                violation,
            };
            return Ok(Walk {
                hit: Some(hit),
                stats: stats.with_states(store.len()),
                parents,
            });
        }
        next += 1;
    }
    Ok(Walk {
        hit: None,
        stats: stats.with_states(store.len()),
        parents,
    })
}

/// Inserts `target`, checking the state budget and recording its parent when it is new.
#[inline]
fn discover(
    store: &mut impl Store,
    budget: &Budget<'_>,
    target: &[StateId],
    source: u32,
    action: ActionId,
    parents: Option<&mut Vec<(u32, ActionId)>>,
) -> Result<u32, ComposeError> {
    let (id, new) = store.insert(target)?;
    if new {
        budget.check_states(store.len())?;
        if let Some(parents) = parents {
            parents.push((source, action));
        }
    }
    Ok(id)
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
