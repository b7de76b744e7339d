//! Trace membership and language inclusion with a shortest counterexample.
//!
//! ## Trace semantics used here
//! A *trace* is a sequence of visible actions; tau steps may be taken anywhere in between and are
//! not part of the trace. A trace is *executable* in an LTS if some run from the initial state
//! performs it. An LTS without an accepting set *accepts* exactly its executable traces (its
//! language is prefix-closed); an FSM accepts a trace if some run performing it ends in an accepting
//! state (tau steps after the last action allowed).
//!
//! The error state gets no special treatment here: it is an ordinary state (LTSA's `ERROR` has no
//! outgoing transitions, so it behaves as a deadlock). Contrast [`determinize`](mod@crate::ops::determinize),
//! which collapses subsets containing it.
//!
//! ## Language inclusion
//! [`language_included`] relates two LTSs by action *names*. An action of `a` that `b` does not declare
//! is blocked in `b` (so a trace of `a` using it is a counterexample unless the trace is not accepted by
//! `a` anyway); actions only `b` declares are irrelevant, since `a` never performs them. The search
//! runs breadth-first over pairs (state of `a`, tau-closed set of states of `b`), determinising `b`
//! on the fly and only as far as `a` leads it, so the counterexample it returns is a shortest one.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::tau::SetCloser;
use crate::ops::util::{SubsetInterner, sort_dedup};

/// Whether `trace` can be executed in `lts` from its initial state (accepting states are ignored).
/// Tau entries in `trace` are skipped; an id outside the alphabet is never executable.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::is_trace;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "tau", s1)?;
/// b.add_transition_named(s1, "a", s0)?;
/// let lts = b.build()?;
/// let a = lts.alphabet().get("a").unwrap();
/// assert!(is_trace(&lts, &[a, a]));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn is_trace(lts: &Lts, trace: &[ActionId]) -> bool {
    final_states(lts, trace).is_some_and(|set| !set.is_empty())
}

/// Whether `lts` accepts `trace`: it is executable and, if `lts` is an FSM, some run performing it ends
/// in an accepting state. Tau entries in `trace` are skipped.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::accepts_trace;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.set_accepting(s1, true)?; // an FSM accepting exactly "a"
/// let lts = b.build()?;
/// let a = lts.alphabet().get("a").unwrap();
/// assert!(accepts_trace(&lts, &[a]));
/// assert!(!accepts_trace(&lts, &[]));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn accepts_trace(lts: &Lts, trace: &[ActionId]) -> bool {
    final_states(lts, trace)
        .is_some_and(|set| set.iter().any(|&s| lts.is_accepting(StateId::from_u32(s))))
}

/// [`accepts_trace`] with action names. A name the alphabet does not declare makes the trace
/// rejected; the name `"tau"` is skipped.
pub fn accepts_trace_named(lts: &Lts, trace: &[&str]) -> bool {
    let ids: Option<Vec<ActionId>> = trace.iter().map(|n| lts.alphabet().get(n)).collect();
    ids.is_some_and(|ids| accepts_trace(lts, &ids))
}

/// The tau-closed set of states reachable by `trace`, or `None` if an id is outside the alphabet.
fn final_states(lts: &Lts, trace: &[ActionId]) -> Option<Vec<u32>> {
    if trace.iter().any(|a| a.index() >= lts.alphabet().id_bound()) {
        return None;
    }
    let mut closer = SetCloser::new(lts.num_states());
    let mut set = vec![lts.initial().as_u32()];
    closer.close(lts, &mut set);
    let mut next = Vec::new();
    for &a in trace.iter().filter(|a| !a.is_tau()) {
        next.clear();
        for &s in &set {
            next.extend(lts.successors(StateId::from_u32(s), a).map(StateId::as_u32));
        }
        closer.close(lts, &mut next);
        std::mem::swap(&mut set, &mut next);
        if set.is_empty() {
            break;
        }
    }
    Some(set)
}

/// Whether every trace accepted by `a` is accepted by `b` (see the [module docs](self) for how
/// alphabets are related). Returns `Ok(None)` if so, and otherwise `Ok(Some(trace))` with a shortest
/// trace (as action names) accepted by `a` and not by `b`.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::language_included;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s1, "b", s0)?;
/// let ab_loop = b.build()?; // (a b)*, prefix-closed
/// let mut b = LtsBuilder::new();
/// let s0 = b.add_state()?;
/// b.add_transition_named(s0, "a", s0)?;
/// b.add_transition_named(s0, "b", s0)?;
/// let any = b.build()?; // {a, b}*
/// assert_eq!(language_included(&ab_loop, &any)?, None);
/// assert_eq!(language_included(&any, &ab_loop)?, Some(vec!["b".to_string()]));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn language_included(a: &Lts, b: &Lts) -> Result<Option<Vec<String>>, LtsError> {
    language_included_with_limit(a, b, usize::MAX)
}

/// Like [`language_included`], but fails with [`LtsError::StateLimit`] once more than `max_pairs`
/// pairs (state of `a`, set of states of `b`) have been explored.
pub fn language_included_with_limit(
    a: &Lts,
    b: &Lts,
    max_pairs: usize,
) -> Result<Option<Vec<String>>, LtsError> {
    let mut search = Inclusion::new(a, b, max_pairs);
    let mut start = vec![b.initial().as_u32()];
    search.closer.close(b, &mut start);
    let (b0, _) = search.subsets.intern(&start)?;
    search.visit(a.initial().as_u32(), b0, NO_PARENT, ActionId::TAU)?;
    search.run()
}

const NO_PARENT: u32 = u32::MAX;

/// The state of one inclusion search: explored pairs with back pointers, and `b`'s subsets.
struct Inclusion<'x> {
    a: &'x Lts,
    b: &'x Lts,
    /// `a`'s action id -> `b`'s action id with the same name (tau maps to tau).
    to_b: Vec<Option<ActionId>>,
    closer: SetCloser,
    subsets: SubsetInterner,
    /// (subset, b action) -> successor subset, so each step of `b` is computed once.
    steps: FxHashMap<(u32, ActionId), u32>,
    pairs: FxHashMap<(u32, u32), u32>,
    /// Per explored pair: its `a` state, its subset, and how it was first reached.
    nodes: Vec<(u32, u32, u32, ActionId)>,
    layer: Vec<u32>,
    max_pairs: usize,
    scratch: Vec<u32>,
}

impl<'x> Inclusion<'x> {
    fn new(a: &'x Lts, b: &'x Lts, max_pairs: usize) -> Self {
        let to_b = (0..a.alphabet().id_bound())
            .map(|i| b.alphabet().get(a.alphabet().name(ActionId::must(i))))
            .collect();
        Self {
            a,
            b,
            to_b,
            closer: SetCloser::new(b.num_states()),
            subsets: SubsetInterner::new(),
            steps: FxHashMap::default(),
            pairs: FxHashMap::default(),
            nodes: Vec::new(),
            layer: Vec::new(),
            max_pairs,
            scratch: Vec::new(),
        }
    }

    /// Records the pair (s, set) if new, appending it to the current layer.
    fn visit(&mut self, s: u32, set: u32, parent: u32, via: ActionId) -> Result<(), LtsError> {
        if let Entry::Vacant(v) = self.pairs.entry((s, set)) {
            let id = self.nodes.len();
            if id >= self.max_pairs {
                return Err(LtsError::StateLimit {
                    limit: self.max_pairs,
                });
            }
            v.insert(StateId::new(id)?.as_u32());
            self.nodes.push((s, set, parent, via));
            self.layer.push(id as u32);
        }
        Ok(())
    }

    /// Explores layer by layer (one layer per trace length) until a violation or exhaustion.
    fn run(&mut self) -> Result<Option<Vec<String>>, LtsError> {
        while !self.layer.is_empty() {
            self.close_layer_under_tau()?;
            if let Some(bad) = self.layer.iter().copied().find(|&n| self.violates(n)) {
                return Ok(Some(self.trace_to(bad)));
            }
            let layer = std::mem::take(&mut self.layer);
            for &n in &layer {
                let (s, set, ..) = self.nodes[n as usize];
                let a = self.a;
                for e in a
                    .outgoing(StateId::from_u32(s))
                    .iter()
                    .filter(|e| !e.action.is_tau())
                {
                    let target_set = self.step(set, e.action)?;
                    self.visit(e.target.as_u32(), target_set, n, e.action)?;
                }
            }
            // `visit` filled `self.layer` with the next layer.
        }
        Ok(None)
    }

    /// Adds to the current layer every pair reachable from it by tau moves of `a` (`b` stays put).
    fn close_layer_under_tau(&mut self) -> Result<(), LtsError> {
        let mut i = 0;
        while i < self.layer.len() {
            let n = self.layer[i];
            let (s, set, ..) = self.nodes[n as usize];
            let a = self.a;
            for e in a.outgoing_on(StateId::from_u32(s), ActionId::TAU) {
                self.visit(e.target.as_u32(), set, n, ActionId::TAU)?;
            }
            i += 1;
        }
        Ok(())
    }

    fn violates(&self, n: u32) -> bool {
        let (s, set, ..) = self.nodes[n as usize];
        self.a.is_accepting(StateId::from_u32(s))
            && !self
                .subsets
                .get(set)
                .iter()
                .any(|&t| self.b.is_accepting(StateId::from_u32(t)))
    }

    /// The subset `b` reaches from `set` on `a`'s action `action`, tau-closed (empty if blocked).
    fn step(&mut self, set: u32, action: ActionId) -> Result<u32, LtsError> {
        let Some(bx) = self.to_b[action.index()] else {
            return Ok(self.subsets.intern(&[])?.0);
        };
        if let Some(&t) = self.steps.get(&(set, bx)) {
            return Ok(t);
        }
        self.scratch.clear();
        for &q in self.subsets.get(set) {
            self.scratch.extend(
                self.b
                    .successors(StateId::from_u32(q), bx)
                    .map(StateId::as_u32),
            );
        }
        sort_dedup(&mut self.scratch);
        self.closer.close(self.b, &mut self.scratch);
        let (t, _) = self.subsets.intern(&self.scratch)?;
        self.steps.insert((set, bx), t);
        Ok(t)
    }

    /// The visible actions on the path to node `n`, as names of `a`.
    fn trace_to(&self, mut n: u32) -> Vec<String> {
        let mut trace = Vec::new();
        while n != NO_PARENT {
            let (_, _, parent, via) = self.nodes[n as usize];
            if parent != NO_PARENT && !via.is_tau() {
                trace.push(self.a.action_name(via).to_owned());
            }
            n = parent;
        }
        trace.reverse();
        trace
    }
}
