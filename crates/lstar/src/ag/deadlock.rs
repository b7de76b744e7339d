//! Assume-guarantee reasoning for deadlock freedom with failure-based assumptions, after Chaki
//! and Sinha, "Assume-Guarantee Reasoning for Deadlock" (FMCAD 2006). The paper itself was not
//! at hand when this was written: the rule and its encoding below are designed from first
//! principles in the paper's spirit (assumptions over-approximate the environment's failures).
//!
//! **The rule.** For `M1 || M2` with interface `I = alpha M1 n alpha M2`, an assumption `A` is
//! a set of failures `(t, Y)` over `I`: a trace `t` of interface actions and a *ready set* `Y`
//! (the interface actions a stable state offers; refusals are downward-closed, so the largest
//! refusal `I \ Y` stands for all of them). Then
//!
//! 1. `M1 || A` has no deadlock: no run of `M1` whose interface projection is `t` ends in a state
//!    with no tau and no private move that offers no action of `Y`, for `(t, Y)` in `A`;
//! 2. every failure of `M2` (actions outside `I` hidden) is in `A`: whenever `M2` can do `t` and
//!    reach a stable state (no tau, no private move) offering exactly `Y`, `(t, Y)` is in `A`;
//!
//! give: `M1 || M2` has no deadlock. (A deadlock of `M1 || M2` is a pair of stable states whose
//! offers do not meet on `I`, reached by runs with one interface projection `t`; `M2`'s half is a
//! failure of `M2`, so by 2 it is in `A`, and by 1 `M1`'s half cannot exist.) Conversely `A =`
//! the failures of `M2` satisfies 2, and satisfies 1 exactly when the system is deadlock free:
//! the rule is complete.
//!
//! **Termination** (LTSA's `END`): a stuck state where the components have terminated is not a
//! deadlock. The caller gives each component that takes part in termination a self-loop on
//! [`END_ACTION`] at its end state ([`with_end_action`]), which also declares the action; the
//! others do not declare it. The action is then enabled in a product state exactly when every
//! component that declares it is at its end, and the deadlocks of the rewritten system are the
//! original's in that sense (the `lstar` method applies LTSA's rule,
//! [`Termination`](guarantor_compose::termination::Termination), to choose the components). The
//! action never appears in a counterexample (it is a self-loop).
//!
//! **`ERROR` states** are states without moves here. The rule runs after the safety check has
//! shown that no `ERROR` is reachable in the product (the [`method`](crate::method) runs safety
//! first), so whatever a component would do after its `ERROR` never matters; a run of one side
//! alone into its `ERROR` is a failure like any other, which a real product run cannot reach.
//!
//! **Learning.** `A` is learned by the DFA learner (L* or L#) as a language over `I` plus one
//! *ready letter* per ready set that `M2`'s reachable stable states show: `t . ready(Y)` is in
//! the target iff `(t, Y)` is a failure of `M2`. Membership queries are answered on `M2` alone
//! (a subset simulation with tau and private moves closed over). A conjecture is checked by
//! premise 1 (a product of `M1` with the hypothesis: a violation `(t, Y)` is a real deadlock if
//! `M2` has the failure, whose runs of the two sides are interleaved into a trace of the system,
//! else a word the hypothesis must drop) and premise 2 (a product of `M2` with the hypothesis: a
//! failure of `M2` the hypothesis rejects is a word it must accept). Every counterexample is a
//! word the hypothesis classifies wrongly, so learning ends, at the latest with the failures of
//! `M2` themselves.
//!
//! **The certificate** writes the learned language as an LTS over `I` whose stable failures are
//! exactly its failures ([`DeadlockReport::assumption`]): per live hypothesis state `q` an
//! unstable state (offering the next interface actions, with a tau step to one stable state per
//! accepted ready letter, or a tau self-loop if there is none), per accepted ready set `Y` a
//! stable state offering exactly `Y`, and a divergent sink for actions after which nothing is
//! accepted. The premises are then the standard ones: `M1 || A` deadlock free and `M2`'s stable
//! failures on `I` among `A`'s, which `guarantor-certify` re-checks on its own.

use std::hash::{Hash, Hasher};

use guarantor_compose::replay::{Fill, embed};
use guarantor_compose::{Config, Counterexample, Verdict, Violation};
use guarantor_lts::{ActionId, Lts, LtsBuilder, StateId};
use rustc_hash::FxHashMap;

use super::AgConfig;
use super::asym::flatten;
use crate::config::Stats;
use crate::dfa::{Dfa, Symbol, Word};
use crate::error::LstarError;
use crate::learner::Learner;
use crate::teacher::{EqAnswer, Outcome, Teacher, learn};

/// The action that stands for successful termination: offered (as a self-loop) by a component at
/// its end state ([`with_end_action`]), so that a product state in which every component has
/// terminated has a move and is not a deadlock. No FSP action can be spelled so.
pub const END_ACTION: &str = "@end";

/// `lts` declaring [`END_ACTION`], with a self-loop on it at `end` (if given): see the module
/// docs.
///
/// ```
/// use guarantor_lstar::ag::deadlock::{END_ACTION, with_end_action};
/// use guarantor_lts::{Lts, StateId};
/// let stop = Lts::from_edges([(0, "a", 1)])?;
/// let ended = with_end_action(&stop, Some(StateId::must(1)))?;
/// assert_eq!(ended.enabled(StateId::must(1)).count(), 1);
/// assert!(with_end_action(&stop, None)?.alphabet().contains(END_ACTION));
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
///
/// # Errors
/// [`LstarError::Lts`] for an `end` that is not a state of `lts`.
pub fn with_end_action(lts: &Lts, end: Option<StateId>) -> Result<Lts, LstarError> {
    let mut b = lts.to_builder();
    let action = b.action(END_ACTION)?;
    if let Some(end) = end {
        b.add_transition(end, action, end)?;
    }
    Ok(b.build()?)
}

/// The result of [`check_deadlock`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DeadlockReport {
    /// Holds (with an empty certificate: the assumption is [`DeadlockReport::assumption`]) or a
    /// deadlock of `m1 || m2` whose trace replays in both.
    pub verdict: Verdict,
    /// On a `holds`: the learned assumption about `m2`, an LTS over the interface whose stable
    /// failures are the assumed ones (see the module docs).
    pub assumption: Option<Lts>,
    /// The learner's query statistics.
    pub stats: Stats,
    /// The interface alphabet (termination included).
    pub interface: Vec<String>,
    /// The number of ready sets `m2`'s stable states show (the ready letters).
    pub ready_sets: usize,
}

/// Checks that `m1 || m2` has no deadlock by learning a failure assumption about `m2` (see the
/// module docs). Termination is a self-loop on [`END_ACTION`] ([`with_end_action`]); without it
/// every state with no move is a deadlock.
///
/// ```
/// use guarantor_lstar::ag::{AgConfig, deadlock::check_deadlock};
/// use guarantor_lts::Lts;
/// // A client that asks and waits for a reply; a server that replies, or one that stops.
/// let client = Lts::from_edges([(0, "ask", 1), (1, "reply", 0)])?;
/// let server = Lts::from_edges([(0, "ask", 1), (1, "work", 2), (2, "reply", 0)])?;
/// let report = check_deadlock(&client, &server, &AgConfig::default())?;
/// assert!(report.verdict.is_holds());
/// assert!(report.assumption.is_some());
/// let stuck = Lts::from_edges([(0, "ask", 1), (1, "reply", 2)])?; // stops after one reply
/// let report = check_deadlock(&client, &stuck, &AgConfig::default())?;
/// assert_eq!(report.verdict.counterexample().unwrap().trace, ["ask", "reply"]);
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
///
/// # Errors
/// Budgets of the learner and of the searches ([`AgConfig::compose`]).
pub fn check_deadlock(m1: &Lts, m2: &Lts, config: &AgConfig) -> Result<DeadlockReport, LstarError> {
    let interface: Vec<String> = m1
        .alphabet()
        .iter()
        .map(|(_, n)| n)
        .filter(|n| m2.alphabet().contains(n))
        .map(str::to_owned)
        .collect();
    let side1 = Side::new(m1, &interface);
    let side2 = Side::new(m2, &interface);
    let ready_sets = side2.ready_sets(&config.compose)?;
    let mut teacher = FailureTeacher {
        m1: side1,
        m2: side2,
        letters: ready_sets.sets.clone(),
        ready_of: ready_sets.of_state,
        config,
        interface_len: interface.len(),
        rounds: 0,
        subsets: Subsets::default(),
        marks: Vec::new(),
        epoch: 0,
    };
    let learner_config = config.learner.clone().with_prefix_closed(false);
    let mut learner = Learner::new(interface.len() + teacher.letters.len(), learner_config);
    let outcome = learn(&mut learner, &mut teacher).map_err(flatten)?;
    let Outcome::Stopped {
        verdict,
        hypothesis,
    } = outcome
    else {
        return Err(LstarError::Unsupported(
            "a failure teacher that accepts a hypothesis",
        ));
    };
    let assumption = if verdict.is_holds() {
        Some(teacher.assumption_lts(&hypothesis, &interface)?)
    } else {
        None
    };
    Ok(DeadlockReport {
        verdict,
        assumption,
        stats: learner.stats().clone(),
        interface,
        ready_sets: teacher.letters.len(),
    })
}

/// One side of the rule: its LTS and, per action id, the interface symbol (none: tau or a
/// private action, which the other side never sees).
#[derive(Debug)]
struct Side<'a> {
    lts: &'a Lts,
    symbol: Vec<Option<u32>>,
}

/// The ready sets of a side's reachable stable states, and each state's.
struct ReadySets {
    /// Distinct ready sets, as sorted interface symbols, in order of discovery.
    sets: Vec<Vec<u32>>,
    /// Per state: the index of its ready set if it is stable.
    of_state: Vec<Option<u32>>,
}

impl<'a> Side<'a> {
    fn new(lts: &'a Lts, interface: &[String]) -> Self {
        let mut symbol = vec![None; lts.alphabet().id_bound()];
        for (id, name) in lts.alphabet().iter() {
            symbol[id.index()] = interface
                .iter()
                .position(|n| n == name)
                .map(|i| u32::try_from(i).unwrap_or(u32::MAX));
        }
        Self { lts, symbol }
    }

    fn symbol_of(&self, a: ActionId) -> Option<u32> {
        self.symbol.get(a.index()).copied().flatten()
    }

    /// The interface symbols `s` offers, sorted, if `s` is stable (no tau, no private move).
    fn stable_offer(&self, s: StateId) -> Option<Vec<u32>> {
        let mut offer = Vec::new();
        for a in self.lts.enabled(s) {
            offer.push(self.symbol_of(a)?);
        }
        offer.sort_unstable();
        Some(offer)
    }

    /// The ready sets of the reachable stable states.
    fn ready_sets(&self, config: &Config) -> Result<ReadySets, LstarError> {
        let mut budget = config.budget()?;
        let mut of_state = vec![None; self.lts.num_states()];
        let mut index: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut sets = Vec::new();
        let mut seen = vec![false; self.lts.num_states()];
        let mut work = vec![self.lts.initial()];
        seen[self.lts.initial().index()] = true;
        while let Some(s) = work.pop() {
            budget.tick()?;
            if let Some(offer) = self.stable_offer(s) {
                let next = u32::try_from(sets.len()).unwrap_or(u32::MAX);
                let k = *index.entry(offer.clone()).or_insert_with(|| {
                    sets.push(offer);
                    next
                });
                of_state[s.index()] = Some(k);
            }
            for e in self.lts.outgoing(s) {
                if !std::mem::replace(&mut seen[e.target.index()], true) {
                    work.push(e.target);
                }
            }
        }
        Ok(ReadySets { sets, of_state })
    }
}

/// The teacher of the failure assumption (see the module docs).
struct FailureTeacher<'a> {
    m1: Side<'a>,
    m2: Side<'a>,
    /// The ready letters: ready set `k` is symbol `interface.len() + k`.
    letters: Vec<Vec<u32>>,
    /// Per state of `m2`: its ready letter, if it is stable and reachable.
    ready_of: Vec<Option<u32>>,
    config: &'a AgConfig,
    /// The number of interface actions (the first symbols).
    interface_len: usize,
    /// Conjectures checked so far.
    rounds: usize,
    /// `m2` determinised on the interface, as far as the queries went.
    subsets: Subsets,
    /// Subset marks of the membership simulation (`== epoch`: in the current set).
    marks: Vec<u32>,
    epoch: u32,
}

/// `m2` determinised on the interface lazily: subsets of its states closed under tau and
/// private moves (subset 0 the initial one; an empty subset where a trace is impossible), their
/// successors per interface symbol as far as queries asked, and the ready letters of each
/// subset's stable states.
#[derive(Default)]
struct Subsets {
    /// The subsets, sorted.
    sets: Vec<Vec<StateId>>,
    /// Subset ids by a hash of the subset (collisions compared in full).
    by_hash: FxHashMap<u64, Vec<usize>>,
    /// Successors computed so far: (subset, interface symbol) to subset.
    next: FxHashMap<(usize, u32), usize>,
    /// Per subset: the ready letters its stable states show, sorted.
    letters: Vec<Vec<u32>>,
}

/// A node of a product search: a state of one side and a hypothesis state.
type Node = (StateId, usize);

impl FailureTeacher<'_> {
    fn letter(&self, k: usize) -> Symbol {
        Symbol::new(self.interface_len + k)
    }

    /// Splits a word into its interface trace and final ready letter, if it has that shape.
    fn split<'w>(&self, word: &'w [Symbol]) -> Option<(&'w [Symbol], usize)> {
        let n = self.interface_len;
        let (last, trace) = word.split_last()?;
        let k = last.index().checked_sub(n)?;
        trace.iter().all(|a| a.index() < n).then_some((trace, k))
    }

    /// Whether `m2` can do `trace` (hiding its private actions) and reach a stable state with
    /// ready set `k`: a walk through `m2` determinised on the interface ([`Subsets`]), whose
    /// subsets and steps are computed once for all queries (L*'s queries share their prefixes,
    /// and a subset of a large group costs as much as the group: dining SYS N = 8 asked 434
    /// queries of a 639,353-state group).
    fn has_failure(&mut self, trace: &[Symbol], k: usize) -> Result<bool, LstarError> {
        let lts = self.m2.lts;
        if self.marks.len() != lts.num_states() {
            self.marks = vec![0; lts.num_states()];
            self.epoch = 0;
        }
        let mut budget = self.config.compose.budget()?;
        if self.subsets.sets.is_empty() {
            let mut start = vec![lts.initial()];
            self.close(&mut start, &mut budget)?;
            self.intern(start);
        }
        let mut at = 0;
        for a in trace {
            let a = u32::try_from(a.index()).unwrap_or(u32::MAX);
            at = match self.subsets.next.get(&(at, a)) {
                Some(&next) => next,
                None => {
                    let next = self.step(at, a, &mut budget)?;
                    self.subsets.next.insert((at, a), next);
                    next
                }
            };
            if self.subsets.sets[at].is_empty() {
                return Ok(false);
            }
        }
        let want = u32::try_from(k).unwrap_or(u32::MAX);
        Ok(self.subsets.letters[at].binary_search(&want).is_ok())
    }

    /// The subset after subset `at` and interface symbol `a`, interned.
    fn step(
        &mut self,
        at: usize,
        a: u32,
        budget: &mut guarantor_compose::Budget<'_>,
    ) -> Result<usize, LstarError> {
        let lts = self.m2.lts;
        let mut next = Vec::new();
        self.next_epoch();
        for &s in &self.subsets.sets[at] {
            for e in lts.outgoing(s) {
                budget.tick()?;
                if self.m2.symbol_of(e.action) == Some(a)
                    && self.marks[e.target.index()] != self.epoch
                {
                    self.marks[e.target.index()] = self.epoch;
                    next.push(e.target);
                }
            }
        }
        self.close(&mut next, budget)?;
        Ok(self.intern(next))
    }

    /// The id of `set` (made sorted here) among the subsets, added if new.
    fn intern(&mut self, mut set: Vec<StateId>) -> usize {
        set.sort_unstable();
        let key = {
            let mut h = rustc_hash::FxHasher::default();
            set.hash(&mut h);
            h.finish()
        };
        let same = self.subsets.by_hash.entry(key).or_default();
        if let Some(&id) = same.iter().find(|&&id| self.subsets.sets[id] == set) {
            return id;
        }
        let id = self.subsets.sets.len();
        same.push(id);
        let mut letters: Vec<u32> = set
            .iter()
            .filter_map(|s| self.ready_of[s.index()])
            .collect();
        letters.sort_unstable();
        letters.dedup();
        self.subsets.letters.push(letters);
        self.subsets.sets.push(set);
        id
    }

    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.marks.fill(0);
            self.epoch = 1;
        }
    }

    /// Closes `set` under tau and private moves of `m2` (marking with a fresh epoch).
    fn close(
        &mut self,
        set: &mut Vec<StateId>,
        budget: &mut guarantor_compose::Budget<'_>,
    ) -> Result<(), LstarError> {
        self.next_epoch();
        for s in set.iter() {
            self.marks[s.index()] = self.epoch;
        }
        let mut i = 0;
        while i < set.len() {
            let s = set[i];
            i += 1;
            for e in self.m2.lts.outgoing(s) {
                budget.tick()?;
                if self.m2.symbol_of(e.action).is_none()
                    && self.marks[e.target.index()] != self.epoch
                {
                    self.marks[e.target.index()] = self.epoch;
                    set.push(e.target);
                }
            }
        }
        budget.check_states(set.len())?;
        Ok(())
    }

    /// The hypothesis states from which some word `t . ready` is accepted.
    fn live(&self, h: &Dfa) -> Vec<bool> {
        let n = self.interface_len;
        let mut live: Vec<bool> = (0..h.num_states())
            .map(|q| {
                (0..self.letters.len()).any(|k| h.is_accepting(h.successor(q, self.letter(k))))
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for q in 0..h.num_states() {
                if !live[q] && (0..n).any(|a| live[h.successor(q, Symbol::new(a))]) {
                    live[q] = true;
                    changed = true;
                }
            }
        }
        live
    }

    /// Premise 1: a deadlock of `m1 || h`, as `m1`'s run (action ids of `m1`), its interface
    /// trace and the ready letter, if there is one.
    fn premise1(&self, h: &Dfa) -> Result<Option<(Vec<ActionId>, Word, usize)>, LstarError> {
        let live = self.live(h);
        if !live[0] {
            return Ok(None);
        }
        let lts = self.m1.lts;
        let mut budget = self.config.compose.budget()?;
        // The ready letter `h` allows after `(s, q)` that the stable state `s` cannot meet.
        let blocked = |&(s, q): &Node| {
            let offer = self.m1.stable_offer(s)?;
            (0..self.letters.len()).find(|&k| {
                h.is_accepting(h.successor(q, self.letter(k))) && !meets(&offer, &self.letters[k])
            })
        };
        let moves = |&(s, q): &Node, _: usize, out: &mut Vec<(Fill, ActionId, Node)>| {
            for e in lts.outgoing(s) {
                let next = match self.m1.symbol_of(e.action) {
                    None => q,
                    Some(a) => h.successor(q, Symbol::new(a as usize)),
                };
                if live[next] {
                    out.push((Fill::Hidden, e.action, (e.target, next)));
                }
            }
        };
        let start = (lts.initial(), 0);
        let Some(run) = embed(start, 0, moves, |n| blocked(n).is_some(), &mut budget)? else {
            return Ok(None);
        };
        let end = run.last().map_or(start, |&(_, n)| n);
        let path: Vec<ActionId> = run.into_iter().map(|(a, _)| a).collect();
        let word = path
            .iter()
            .filter_map(|&a| self.m1.symbol_of(a))
            .map(|a| Symbol::new(a as usize))
            .collect();
        Ok(blocked(&end).map(|k| (path, word, k)))
    }

    /// Premise 2: a failure of `m2` that `h` rejects, as a word, if there is one.
    fn premise2(&self, h: &Dfa) -> Result<Option<Word>, LstarError> {
        let lts = self.m2.lts;
        let mut budget = self.config.compose.budget()?;
        // The ready letter of `s`, if `s` is stable and `h` rejects it after `q`.
        let rejected = |&(s, q): &Node| {
            let letter = self.letter(self.ready_of[s.index()]? as usize);
            (!h.is_accepting(h.successor(q, letter))).then_some(letter)
        };
        let moves = |&(s, q): &Node, _: usize, out: &mut Vec<(Fill, ActionId, Node)>| {
            for e in lts.outgoing(s) {
                let next = match self.m2.symbol_of(e.action) {
                    None => q,
                    Some(a) => h.successor(q, Symbol::new(a as usize)),
                };
                out.push((Fill::Hidden, e.action, (e.target, next)));
            }
        };
        let start = (lts.initial(), 0);
        let Some(run) = embed(start, 0, moves, |n| rejected(n).is_some(), &mut budget)? else {
            return Ok(None);
        };
        let end = run.last().map_or(start, |&(_, n)| n);
        let mut word: Word = run
            .iter()
            .filter_map(|&(a, _)| self.m2.symbol_of(a))
            .map(|a| Symbol::new(a as usize))
            .collect();
        Ok(rejected(&end).map(|letter| {
            word.push(letter);
            word
        }))
    }

    /// A run of `m2` (action ids) whose interface projection is `trace` and that ends in a stable
    /// state with ready set `k`.
    fn env_run(&self, trace: &[Symbol], k: usize) -> Result<Option<Vec<ActionId>>, LstarError> {
        let lts = self.m2.lts;
        let want = u32::try_from(k).ok();
        let mut budget = self.config.compose.budget()?;
        let moves = |&s: &StateId, at: usize, out: &mut Vec<(Fill, ActionId, StateId)>| {
            for e in lts.outgoing(s) {
                match self.m2.symbol_of(e.action) {
                    None => out.push((Fill::Hidden, e.action, e.target)),
                    Some(a) if trace.get(at).is_some_and(|t| t.index() == a as usize) => {
                        out.push((Fill::Letter, e.action, e.target));
                    }
                    Some(_) => {}
                }
            }
        };
        let stable_with = |s: &StateId| self.ready_of[s.index()] == want;
        let run = embed(lts.initial(), trace.len(), moves, stable_with, &mut budget)?;
        Ok(run.map(|run| run.into_iter().map(|(a, _)| a).collect()))
    }

    /// The trace of the system made of `m1`'s run and `m2`'s run (same interface projection):
    /// `m2`'s private actions before each interface action of `m1`'s run, and the rest at the
    /// end; tau steps and termination dropped.
    fn interleave(&self, run1: &[ActionId], run2: &[ActionId]) -> Vec<String> {
        let name1 = |a: ActionId| self.m1.lts.action_name(a).to_owned();
        let name2 = |a: ActionId| self.m2.lts.action_name(a).to_owned();
        let mut out = Vec::with_capacity(run1.len() + run2.len());
        let mut rest = run2.iter();
        for &a in run1 {
            if self.m1.symbol_of(a).is_some() {
                for &b in rest.by_ref() {
                    if self.m2.symbol_of(b).is_some() {
                        break;
                    }
                    if !b.is_tau() {
                        out.push(name2(b));
                    }
                }
            }
            if !a.is_tau() {
                out.push(name1(a));
            }
        }
        out.extend(rest.filter(|b| !b.is_tau()).map(|&b| name2(b)));
        out.retain(|n| n != END_ACTION);
        out
    }

    /// The hypothesis as an LTS over the interface whose stable failures are its accepted
    /// failures (module docs).
    fn assumption_lts(&self, hyp: &Dfa, interface: &[String]) -> Result<Lts, LstarError> {
        let live = self.live(hyp);
        let mut builder = LtsBuilder::new();
        let actions = interface
            .iter()
            .map(|n| builder.action(n))
            .collect::<Result<Vec<_>, _>>()?;
        let mut id: FxHashMap<usize, StateId> = FxHashMap::default();
        let sink = |builder: &mut LtsBuilder| -> Result<StateId, LstarError> {
            let s = builder.add_state()?;
            builder.add_transition(s, ActionId::TAU, s)?;
            Ok(s)
        };
        if !live[0] {
            sink(&mut builder)?;
            return Ok(builder.build()?);
        }
        let mut order = vec![0];
        id.insert(0, builder.add_state()?);
        let dead = sink(&mut builder)?;
        let mut next = 0;
        while next < order.len() {
            let q = order[next];
            next += 1;
            let here = id[&q];
            let mut target = |builder: &mut LtsBuilder, t: usize| -> Result<StateId, LstarError> {
                if !live[t] {
                    return Ok(dead);
                }
                if let Some(&s) = id.get(&t) {
                    return Ok(s);
                }
                let s = builder.add_state()?;
                id.insert(t, s);
                order.push(t);
                Ok(s)
            };
            let mut stable_states = 0;
            for (a, &action) in actions.iter().enumerate() {
                let t = hyp.successor(q, Symbol::new(a));
                if live[t] {
                    let to = target(&mut builder, t)?;
                    builder.add_transition(here, action, to)?;
                }
            }
            for (k, ready) in self.letters.iter().enumerate() {
                if !hyp.is_accepting(hyp.successor(q, self.letter(k))) {
                    continue;
                }
                stable_states += 1;
                let stable = builder.add_state()?;
                builder.add_transition(here, ActionId::TAU, stable)?;
                for &a in ready {
                    let to = target(&mut builder, hyp.successor(q, Symbol::new(a as usize)))?;
                    builder.add_transition(stable, actions[a as usize], to)?;
                }
            }
            if stable_states == 0 {
                builder.add_transition(here, ActionId::TAU, here)?;
            }
        }
        Ok(builder.build()?)
    }
}

/// Whether two sorted symbol lists share a symbol.
fn meets(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// How the failure teacher ends a learning run: the verdict of the whole check.
impl Teacher for FailureTeacher<'_> {
    type Verdict = Verdict;
    type Error = LstarError;

    fn membership(&mut self, word: &[Symbol]) -> Result<bool, LstarError> {
        match self.split(word) {
            Some((trace, k)) => self.has_failure(trace, k),
            None => Ok(false),
        }
    }

    fn equivalence(&mut self, h: &Dfa) -> Result<EqAnswer<Verdict>, LstarError> {
        self.rounds += 1;
        super::note_conjecture(
            &self.config.compose,
            "deadlock",
            self.rounds,
            h.num_states(),
        );
        if let Some((run1, trace, k)) = self.premise1(h)? {
            if self.has_failure(&trace, k)? {
                let run2 = self.env_run(&trace, k)?.ok_or(LstarError::Unsupported(
                    "a failure of the environment without a run",
                ))?;
                let cex = Counterexample::new(self.interleave(&run1, &run2), Violation::Deadlock);
                return Ok(EqAnswer::Stop(Verdict::Violated(cex)));
            }
            let mut word = trace;
            word.push(self.letter(k));
            return Ok(EqAnswer::Counterexample(word));
        }
        if let Some(word) = self.premise2(h)? {
            return Ok(EqAnswer::Counterexample(word));
        }
        Ok(EqAnswer::Stop(Verdict::Holds(
            guarantor_compose::Certificate::monolithic(),
        )))
    }
}
