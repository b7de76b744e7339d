//! Depth-first exploration with an explicit stack, for finding deep violations fast.
//!
//! Breadth-first search (`explore`) gives shortest counterexamples, but when the shortest violation
//! is deep it explores most of the state space first (dining BUGGY N=10: 15.6 M states before the
//! first error at depth 40). Depth-first search, as SPIN does it, dives and often meets an error
//! after a few thousand states. [`Dfs`] walks the same [`Product`] with the same stores and the same
//! [`Visitor`] hooks, and the stack *is* the counterexample: no parent pointers, no second walk.
//!
//! The stack is two vectors: `frames`, one per state on the current path (its number, the action
//! that reached it, and where its successors begin in `todo`), and `todo`, the successors of every
//! state on the path still to be looked up, each state's in reverse enumeration order so that
//! popping takes the first. A successor is looked up (and numbered, if new) only when it is popped,
//! so states are numbered in DFS preorder and each transition costs one lookup, as in BFS; its
//! table slot is touched when it is enumerated so the miss of the first lookup overlaps.
//!
//! A DFS path can be long and roundabout. [`Dfs::counterexample`] shortens it cheaply: a BFS over
//! the path's own states only, with the edges between them (one enumeration per path state), finds
//! the shortest way through them to a goal (an error one step away, or the final state). The path
//! has no repeated state, so cutting loops would find nothing; shortcuts are what there is.

use std::ops::ControlFlow;

use guarantor_lts::{ActionId, StateId};
use rustc_hash::FxHashMap;

use crate::config::Budget;
use crate::engine::explore::{Hit, Visitor};
use crate::engine::store::Store;
use crate::error::ComposeError;
use crate::product::{Product, Scratch};
use crate::safety::Stats;
use crate::verdict::{Counterexample, Violation};

/// One state on the current path.
#[derive(Clone, Copy, Debug)]
struct Frame {
    state: u32,
    /// The action that reached this state (tau for the initial state).
    action: ActionId,
    /// Where this state's successors begin in `todo`.
    base: usize,
}

/// A depth-first walk in progress over `product`, numbering states in `store`.
pub(crate) struct Dfs<'a, 'p, S: Store> {
    product: &'a Product<'p>,
    store: &'a mut S,
    todo: Vec<(ActionId, u64, S::Key)>,
    /// The tuples of `todo`, back to back, for stores that need them.
    todo_tuples: Vec<StateId>,
    frames: Vec<Frame>,
    tuple: Vec<StateId>,
    target: Vec<StateId>,
    scratch: Scratch,
    transitions: usize,
    started: bool,
}

impl<'a, 'p, S: Store> Dfs<'a, 'p, S> {
    /// A walk that has not started yet.
    pub(crate) fn new(product: &'a Product<'p>, store: &'a mut S) -> Self {
        Self {
            product,
            store,
            todo: Vec::new(),
            todo_tuples: Vec::new(),
            frames: Vec::new(),
            tuple: product.initial(),
            target: product.initial(),
            scratch: Scratch::new(),
            transitions: 0,
            started: false,
        }
    }

    /// What the walk has visited so far.
    pub(crate) fn stats(&self) -> Stats {
        Stats {
            states: self.store.len(),
            transitions: self.transitions,
        }
    }

    /// The current path: per state, its number and the action that reached it (tau for the first).
    pub(crate) fn path(&self) -> Vec<(u32, ActionId)> {
        self.frames.iter().map(|f| (f.state, f.action)).collect()
    }

    /// Walks on until the visitor reports a hit (returned; the path then ends at the hit's state)
    /// or every reachable state was expanded (`None`). After a hit reported by
    /// [`Visitor::expanded`] the walk may be resumed by calling this again; after any other hit,
    /// resuming would skip the rest of the hit state's successors.
    pub(crate) fn resume<V: Visitor>(
        &mut self,
        visitor: &mut V,
        budget: &mut Budget<'_>,
    ) -> Result<Option<Hit>, ComposeError> {
        if !self.started {
            self.started = true;
            let initial = self.product.initial();
            if let Some(c) = self.product.error_component(&initial) {
                let violation = visitor.error(None, ActionId::TAU, c);
                return Ok(violation.map(|violation| Hit {
                    state: None,
                    last: None,
                    violation,
                }));
            }
            let (id, _) = self.store.insert(&initial)?;
            budget.check_states(1)?;
            if let Some(hit) = self.push(id, ActionId::TAU, visitor, budget)? {
                return Ok(Some(hit));
            }
        }
        let width = self.product.width();
        while let Some(top) = self.frames.last().copied() {
            if self.todo.len() <= top.base {
                self.frames.pop();
                continue;
            }
            let Some((action, hash, key)) = self.todo.pop() else {
                break;
            };
            if S::NEEDS_TUPLE {
                let at = self.todo_tuples.len() - width;
                self.target.copy_from_slice(&self.todo_tuples[at..]);
                self.todo_tuples.truncate(at);
            }
            let target: &[StateId] = if S::NEEDS_TUPLE { &self.target } else { &[] };
            let (id, new) = self.store.insert_at(target, hash, key)?;
            visitor.edge(top.state, action, id)?;
            if new {
                budget.check_states(self.store.len())?;
                budget.expect_growth(self.store.growth_bytes());
                if let Some(hit) = self.push(id, action, visitor, budget)? {
                    return Ok(Some(hit));
                }
            }
        }
        Ok(None)
    }

    /// Puts state `id`, reached on `action`, on the path and enumerates its successors onto
    /// `todo`, reporting to `visitor`.
    fn push<V: Visitor>(
        &mut self,
        id: u32,
        action: ActionId,
        visitor: &mut V,
        budget: &mut Budget<'_>,
    ) -> Result<Option<Hit>, ComposeError> {
        budget.tick()?;
        let base = self.todo.len();
        self.frames.push(Frame {
            state: id,
            action,
            base,
        });
        self.store.load(id, &mut self.tuple);
        if let Some(hit) = visitor.expand(id, &self.tuple) {
            return Ok(Some(hit));
        }
        let mut successors = 0usize;
        let mut warm = 0u64;
        let (product, store) = (self.product, &*self.store);
        let (todo, todo_tuples) = (&mut self.todo, &mut self.todo_tuples);
        let flow = product.for_each_successor(&self.tuple, &mut self.scratch, |a, target| {
            successors += 1;
            if let Some(c) = product.error_component(target) {
                return match visitor.error(Some(id), a, c) {
                    Some(violation) => ControlFlow::Break(Hit {
                        state: Some(id),
                        last: Some(a),
                        violation,
                    }),
                    None => ControlFlow::Continue(()),
                };
            }
            let (hash, key) = store.locate(target);
            warm ^= store.touch(hash);
            todo.push((a, hash, key));
            if S::NEEDS_TUPLE {
                todo_tuples.extend_from_slice(target);
            }
            ControlFlow::Continue(())
        });
        std::hint::black_box(warm);
        self.transitions += successors;
        if let ControlFlow::Break(hit) = flow {
            return Ok(Some(hit));
        }
        self.todo[base..].reverse();
        if S::NEEDS_TUPLE {
            reverse_rows(
                &mut self.todo_tuples[base * self.tuple.len()..],
                self.tuple.len(),
            );
        }
        Ok(visitor
            .expanded(id, &self.tuple, successors)
            .map(|violation| Hit {
                state: Some(id),
                last: None,
                violation,
            }))
    }

    /// The counterexample of `hit`, found with the path `path` (from [`Self::path`] when the hit
    /// was reported), shortened through the edges among the path's states (see the module docs).
    /// A goal is a path state from which one step reaches an error the visitor reports (when the
    /// hit is an error), else the hit's own state.
    pub(crate) fn counterexample<V: Visitor>(
        &mut self,
        visitor: &mut V,
        path: &[(u32, ActionId)],
        hit: Hit,
    ) -> Counterexample {
        let (steps, violation) = self.shortcut(visitor, path, hit);
        let trace = steps
            .iter()
            .filter(|a| !a.is_tau())
            .map(|&a| self.product.action_name(a).to_owned())
            .collect();
        Counterexample::new(trace, violation)
    }

    /// The shortest run through the path's states to a goal: its actions (tau included) and the
    /// violation reached.
    fn shortcut<V: Visitor>(
        &mut self,
        visitor: &mut V,
        path: &[(u32, ActionId)],
        hit: Hit,
    ) -> (Vec<ActionId>, Violation) {
        if path.is_empty() {
            return (hit.last.into_iter().collect(), hit.violation);
        }
        let index: FxHashMap<u32, usize> =
            path.iter().enumerate().map(|(i, &(s, _))| (s, i)).collect();
        let last = path.len() - 1;
        // BFS over path indices; `from[j]`: the index and action that first reached j.
        let mut from: Vec<Option<(usize, ActionId)>> = vec![None; path.len()];
        let mut queue = std::collections::VecDeque::from([0usize]);
        let mut seen = vec![false; path.len()];
        seen[0] = true;
        let mut goal = None;
        while let Some(i) = queue.pop_front() {
            if hit.last.is_none() && i == last {
                goal = Some((i, None, hit.violation));
                break;
            }
            self.store.load(path[i].0, &mut self.tuple);
            let (product, store) = (self.product, &*self.store);
            let mut reached = Vec::new();
            let found = product.for_each_successor(&self.tuple, &mut self.scratch, |a, target| {
                if let Some(c) = product.error_component(target) {
                    if hit.last.is_some()
                        && let Some(v) = visitor.error(Some(path[i].0), a, c)
                    {
                        return ControlFlow::Break((a, v));
                    }
                    return ControlFlow::Continue(());
                }
                if let Some(&j) = store.find(target).and_then(|id| index.get(&id)) {
                    reached.push((j, a));
                }
                ControlFlow::Continue(())
            });
            if let ControlFlow::Break((a, v)) = found {
                goal = Some((i, Some(a), v));
                break;
            }
            for (j, a) in reached {
                if !seen[j] {
                    seen[j] = true;
                    from[j] = Some((i, a));
                    queue.push_back(j);
                }
            }
        }
        // The path itself always reaches the goal, so the BFS does too; fall back to it anyway.
        let Some((mut at, step, violation)) = goal else {
            let mut steps: Vec<ActionId> = path[1..].iter().map(|&(_, a)| a).collect();
            steps.extend(hit.last);
            return (steps, hit.violation);
        };
        let mut steps: Vec<ActionId> = step.into_iter().collect();
        while let Some((i, a)) = from[at] {
            steps.push(a);
            at = i;
        }
        steps.reverse();
        (steps, violation)
    }
}

/// Reverses the order of the `width`-long rows of `rows`.
fn reverse_rows(rows: &mut [StateId], width: usize) {
    if width == 0 {
        return;
    }
    let n = rows.len() / width;
    for i in 0..n / 2 {
        let (head, tail) = rows.split_at_mut((n - 1 - i) * width);
        head[i * width..(i + 1) * width].swap_with_slice(&mut tail[..width]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::explore::{Layout, WithStore, with_store};
    use crate::test_util::ring;

    /// Records every edge the walk looks up.
    struct Edges(Vec<(u32, ActionId, u32)>);

    impl Visitor for Edges {
        // Records edges, which a slab walk does not report.
        const SLABS: bool = false;

        fn edge(&mut self, source: u32, action: ActionId, target: u32) -> Result<(), ComposeError> {
            self.0.push((source, action, target));
            Ok(())
        }
        fn error(&mut self, _: Option<u32>, _: ActionId, _: usize) -> Option<Violation> {
            None
        }
    }

    /// A whole depth-first walk: its edges and statistics.
    struct Whole<'a, 'p>(&'a Product<'p>);

    impl WithStore for Whole<'_, '_> {
        type Output = (Vec<(u32, ActionId, u32)>, Stats);
        fn with<S: Store>(self, store: &mut S) -> Self::Output {
            let config = crate::Config::default();
            let mut budget = config.budget().unwrap();
            let mut edges = Edges(Vec::new());
            let mut dfs = Dfs::new(self.0, store);
            assert_eq!(dfs.resume(&mut edges, &mut budget).unwrap(), None);
            (edges.0, dfs.stats())
        }
    }

    #[test]
    fn every_layout_walks_the_same_depth_first() {
        let (a, b, c) = (ring(3, "x"), ring(4, "y"), ring(5, "z"));
        let product = Product::new(&[&a, &b, &c]).unwrap();
        let packed = with_store(&product, Layout::Auto, Whole(&product));
        assert_eq!(packed.1.transitions, packed.0.len());
        assert_eq!(packed.1.states, 60);
        for layout in [Layout::Wide, Layout::Split] {
            assert_eq!(with_store(&product, layout, Whole(&product)), packed);
        }
        // Preorder: every state but the first is first reached from a lower-numbered one.
        let mut seen = 1;
        for &(s, _, t) in &packed.0 {
            assert!(s < seen);
            if t == seen {
                seen += 1;
            }
        }
    }

    #[test]
    fn rows_reverse_in_place() {
        let s = StateId::must;
        let mut rows: Vec<StateId> = (0..10).map(s).collect();
        reverse_rows(&mut rows, 2);
        let want: Vec<StateId> = [8, 9, 6, 7, 4, 5, 2, 3, 0, 1].into_iter().map(s).collect();
        assert_eq!(rows, want);
        let mut odd: Vec<StateId> = (0..9).map(s).collect();
        reverse_rows(&mut odd, 3);
        let want: Vec<StateId> = [6, 7, 8, 3, 4, 5, 0, 1, 2].into_iter().map(s).collect();
        assert_eq!(odd, want);
    }
}
