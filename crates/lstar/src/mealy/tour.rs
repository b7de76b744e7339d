//! L#'s tour of a hypothesis ([`Config::tour`](super::Config::tour)): one membership query, a
//! long adaptive walk on the system guided by the hypothesis, that tests every word of two
//! inputs from every hypothesis state the cache has not yet seen answered from a node in that
//! state, and stops at the first output that differs from the hypothesis.
//!
//! Why: L#'s first hypotheses map each frontier node to its candidate after testing it on what
//! separates basis nodes only, so a state that differs from its candidate on another input is
//! found by an equivalence query. Testing every frontier node on every input takes one query per
//! node and input (L*'s one-input rows), more than L# saves elsewhere; the tour tests them all
//! in one query, since a query is one reset plus a word of any length (steps are reported, not
//! bounded). The answer lands in the cache, which is L#'s observation tree: a difference is a
//! stored word the hypothesis contradicts, processed as a counterexample without an equivalence
//! query ([`learn_with`](super::learn_with) checks every hypothesis against the cache).
//!
//! A pair `(q, a b)` counts as tested when the cache knows `x a b` for some node `x` that the
//! hypothesis maps to `q` ([`Cache::known_pairs`]); the tour then walks, from the state the
//! hypothesis says the system is in, the untested pairs it can chain (the last input and a next
//! one), and travels by a shortest path of the hypothesis to the nearest state with an untested
//! pair when it has none at hand. Every pair it takes is one the cache did not know from that
//! state, so its word is never one the cache knows ([`Cache::probe`] answers it from the trie
//! otherwise).

// States p, q, r and inputs a, b, as in the papers.
#![allow(clippy::many_single_char_names)]

use std::collections::VecDeque;

use crate::dfa::Symbol;
use crate::mealy::cache::{Cache, Probe};
use crate::mealy::machine::{Mealy, OutputId, StateId};

/// The tested pairs of a hypothesis with their counts of untested continuations.
#[derive(Clone)]
struct Coverage {
    /// `tested[(q * k + a) * k + b]`: whether `a b` was seen from state `q`.
    tested: Vec<bool>,
    /// `open[q * k + a]`: untested `b` after `q a`.
    open: Vec<u32>,
    /// `open_state[q]`: untested pairs from `q`.
    open_state: Vec<u32>,
}

impl Coverage {
    fn new(tested: Vec<bool>, states: usize, k: usize) -> Self {
        let open: Vec<u32> = tested
            .chunks(k)
            .map(|c| c.iter().filter(|&&t| !t).count() as u32)
            .collect();
        let open_state = (0..states)
            .map(|q| open[q * k..(q + 1) * k].iter().sum())
            .collect();
        Self {
            tested,
            open,
            open_state,
        }
    }
}

/// The tour as a [`Probe`]: run by [`Cache::probe`] with the empty prefix.
pub(crate) struct Tour<'a> {
    hyp: &'a Mealy,
    k: usize,
    /// `reach[p][q]`: whether the hypothesis reaches `q` from `p`.
    reach: Vec<Vec<bool>>,
    start: Coverage,
    now: Coverage,
    /// The hypothesis state the system should be in, and the state and input before it.
    q: StateId,
    prev: Option<(StateId, Symbol)>,
    /// A shortest path to a state with an untested pair, last input first.
    travel: Vec<Symbol>,
    /// Inputs left to send.
    left: usize,
    limit: usize,
    /// Whether the walk ended on an output the hypothesis does not give.
    pub(crate) differed: bool,
    /// Whether it ended with untested pairs left that it could not reach (a sink).
    pub(crate) stuck: bool,
}

impl<'a> Tour<'a> {
    /// A tour of `hyp` given the pairs the cache knows ([`Cache::known_pairs`]), at most `limit`
    /// inputs long.
    pub(crate) fn new(hyp: &'a Mealy, tested: Vec<bool>, limit: usize) -> Self {
        let k = hyp.num_inputs();
        let start = Coverage::new(tested, hyp.num_states(), k);
        Self {
            hyp,
            k,
            reach: reachability(hyp),
            now: start.clone(),
            start,
            q: hyp.initial(),
            prev: None,
            travel: Vec::new(),
            left: limit,
            limit,
            differed: false,
            stuck: false,
        }
    }

    /// Whether some pair is untested.
    pub(crate) fn open(&self) -> bool {
        self.start.open_state.iter().any(|&n| n > 0)
    }

    /// Marks `a b` tested from `p`.
    fn cover(&mut self, p: StateId, a: Symbol, b: Symbol) {
        let (pa, k) = (p.index() * self.k + a.index(), self.k);
        let c = &mut self.now;
        if !c.tested[pa * k + b.index()] {
            c.tested[pa * k + b.index()] = true;
            c.open[pa] -= 1;
            c.open_state[p.index()] -= 1;
        }
    }

    /// The next input. A pair is *safe* when the state it leads to still reaches every state
    /// with an untested pair that the tour can reach now (it does not lead into a sink while
    /// there is work outside). Safe pairs come first: completing one after the last input
    /// (one going on to a state that starts another first), else starting one here, else the
    /// first input of a shortest path, through states that reach all that work, to a state
    /// that starts one. Only then the pair that loses fewest such states, else a shortest path
    /// to any state with an untested pair.
    fn choose(&mut self) -> Option<Symbol> {
        if let Some(a) = self.travel.pop() {
            return Some(a);
        }
        let q = self.q.index();
        let targets: Vec<usize> = (0..self.hyp.num_states())
            .filter(|&s| self.now.open_state[s] > 0 && self.reach[q][s])
            .collect();
        if let Some(b) = self.pair_move(&targets, true) {
            return Some(b);
        }
        if let Some(path) = self.path_to_open(&targets, true) {
            self.travel = path;
            return self.travel.pop();
        }
        if let Some(b) = self.pair_move(&targets, false) {
            return Some(b);
        }
        self.travel = self.path_to_open(&targets, false)?;
        self.travel.pop()
    }

    /// The number of `targets` that `r` does not reach.
    fn loss(&self, r: StateId, targets: &[usize]) -> usize {
        targets
            .iter()
            .filter(|&&s| !self.reach[r.index()][s])
            .count()
    }

    /// The state after `a` from `q`.
    fn after(&self, q: StateId, a: Symbol) -> StateId {
        self.hyp.transition(q, a).expect("complete hypothesis").0
    }

    /// The least loss of an untested pair `a b` from `q` (`usize::MAX` if none).
    fn pair_loss(&self, q: StateId, a: Symbol, targets: &[usize]) -> usize {
        let (k, c) = (self.k, &self.now);
        let row = (q.index() * k + a.index()) * k;
        if c.open[q.index() * k + a.index()] == 0 {
            return usize::MAX;
        }
        let r = self.after(q, a);
        Symbol::all(k)
            .filter(|b| !c.tested[row + b.index()])
            .map(|b| self.loss(self.after(r, b), targets))
            .min()
            .unwrap_or(usize::MAX)
    }

    /// A move completing an untested pair after the last input (one going on to a state that
    /// starts another first), else starting one here: if `safe`, only of a safe pair; else the
    /// one that loses fewest.
    fn pair_move(&self, targets: &[usize], safe: bool) -> Option<Symbol> {
        let (k, q, c) = (self.k, self.q, &self.now);
        let completing: Vec<Symbol> = match self.prev {
            Some((p, pa)) if c.open[p.index() * k + pa.index()] > 0 => {
                let row = (p.index() * k + pa.index()) * k;
                Symbol::all(k)
                    .filter(|b| !c.tested[row + b.index()])
                    .collect()
            }
            _ => Vec::new(),
        };
        let loss = |b: Symbol| self.loss(self.after(q, b), targets);
        let starting = || Symbol::all(k).map(|a| (a, self.pair_loss(q, a, targets)));
        if safe {
            let ok = |b: &Symbol| loss(*b) == 0;
            completing
                .iter()
                .copied()
                .filter(ok)
                .find(|&b| self.pair_loss(self.after(q, b), b, targets) == 0)
                .or_else(|| completing.iter().copied().find(ok))
                .or_else(|| starting().find(|&(_, l)| l == 0).map(|(a, _)| a))
        } else {
            let least = completing.iter().copied().min_by_key(|&b| loss(b));
            least.or_else(|| {
                starting()
                    .filter(|&(_, l)| l != usize::MAX)
                    .min_by_key(|&(_, l)| l)
                    .map(|(a, _)| a)
            })
        }
    }

    /// A shortest input word (last input first) from the current state to one that starts an
    /// untested pair (a safe one, through states that reach every one of `targets`, if `safe`);
    /// `None` if there is none (then, when not `safe`, noting whether untested pairs are left
    /// unreachable).
    fn path_to_open(&mut self, targets: &[usize], safe: bool) -> Option<Vec<Symbol>> {
        let n = self.hyp.num_states();
        let mut from: Vec<Option<(StateId, Symbol)>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[self.q.index()] = true;
        let mut queue = VecDeque::from([self.q]);
        while let Some(s) = queue.pop_front() {
            let starts = if safe {
                Symbol::all(self.k).any(|a| self.pair_loss(s, a, targets) == 0)
            } else {
                self.now.open_state[s.index()] > 0
            };
            if starts && s != self.q {
                let mut path = Vec::new();
                let mut t = s;
                while let Some((p, a)) = from[t.index()] {
                    path.push(a);
                    t = p;
                }
                return Some(path);
            }
            for a in Symbol::all(self.k) {
                let r = self.after(s, a);
                if !seen[r.index()] && (!safe || self.loss(r, targets) == 0) {
                    seen[r.index()] = true;
                    from[r.index()] = Some((s, a));
                    queue.push_back(r);
                }
            }
        }
        if !safe {
            self.stuck = self.now.open_state.iter().any(|&n| n > 0);
        }
        None
    }
}

/// `reach[p][q]`: whether `hyp` reaches state `q` from `p`.
fn reachability(hyp: &Mealy) -> Vec<Vec<bool>> {
    let n = hyp.num_states();
    (0..n)
        .map(|p| {
            let mut seen = vec![false; n];
            seen[p] = true;
            let mut stack = vec![StateId::new(p)];
            while let Some(s) = stack.pop() {
                for a in hyp.inputs() {
                    let (r, _) = hyp.transition(s, a).expect("complete hypothesis");
                    if !seen[r.index()] {
                        seen[r.index()] = true;
                        stack.push(r);
                    }
                }
            }
            seen
        })
        .collect()
}

impl Probe for Tour<'_> {
    fn restart(&mut self) {
        self.now.clone_from(&self.start);
        self.q = self.hyp.initial();
        self.prev = None;
        self.travel.clear();
        self.left = self.limit;
        self.differed = false;
        self.stuck = false;
    }

    fn next(&mut self, _: &Cache<'_>, last: Option<(Symbol, OutputId)>) -> Option<Symbol> {
        if let Some((a, o)) = last {
            let (r, expected) = self.hyp.transition(self.q, a).expect("complete hypothesis");
            if expected != o {
                self.differed = true;
                return None;
            }
            if let Some((p, pa)) = self.prev {
                self.cover(p, pa, a);
            }
            self.prev = Some((self.q, a));
            self.q = r;
        }
        if self.left == 0 {
            return None;
        }
        let a = self.choose()?;
        self.left -= 1;
        Some(a)
    }
}
