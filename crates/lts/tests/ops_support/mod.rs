//! Naive reference implementations for the operation tests: brute-force trace enumeration over sets of
//! states, written without any of `guarantor_lts::ops`, so the tests compare two independent codes.
#![allow(dead_code, unreachable_pub)]

use std::collections::{BTreeMap, BTreeSet};

use guarantor_lts::{Lts, StateId};

/// A set of states, as indices.
pub type States = BTreeSet<usize>;

/// A trace as action names.
pub type Trace = Vec<String>;

/// Closes `set` under transitions whose label `silent` says are invisible.
pub fn close(lts: &Lts, set: &mut States, silent: &dyn Fn(&str) -> bool) {
    let mut stack: Vec<usize> = set.iter().copied().collect();
    while let Some(s) = stack.pop() {
        for e in lts.outgoing(StateId::must(s)) {
            if silent(lts.action_name(e.action)) && set.insert(e.target.index()) {
                stack.push(e.target.index());
            }
        }
    }
}

/// A generalised simulator: `matches(old_name, trace_name)` says whether a transition labelled
/// `old_name` performs the visible action `trace_name`; `silent(old_name)` says it is internal.
pub struct Sim<'a> {
    pub lts: &'a Lts,
    pub silent: &'a dyn Fn(&str) -> bool,
    pub matches: &'a dyn Fn(&str, &str) -> bool,
}

impl Sim<'_> {
    pub fn start(&self) -> States {
        let mut set = States::from([self.lts.initial().index()]);
        close(self.lts, &mut set, self.silent);
        set
    }

    pub fn step(&self, set: &States, name: &str) -> States {
        let mut next = States::new();
        for &s in set {
            for e in self.lts.outgoing(StateId::must(s)) {
                let label = self.lts.action_name(e.action);
                if !(self.silent)(label) && (self.matches)(label, name) {
                    next.insert(e.target.index());
                }
            }
        }
        close(self.lts, &mut next, self.silent);
        next
    }

    pub fn run(&self, trace: &[String]) -> States {
        let mut set = self.start();
        for a in trace {
            set = self.step(&set, a);
        }
        set
    }
}

/// The plain simulator: tau is silent, every other label matches itself.
pub fn plain(lts: &Lts) -> Sim<'_> {
    Sim {
        lts,
        silent: &|n| n == "tau",
        matches: &|a, b| a == b,
    }
}

/// Every word over `names` of length at most `k`, shortest first.
pub fn words(names: &[String], k: usize) -> Vec<Trace> {
    let mut all = vec![Vec::new()];
    let mut layer = vec![Vec::new()];
    for _ in 0..k {
        let mut next = Vec::new();
        for w in &layer {
            for a in names {
                let mut v: Trace = w.clone();
                v.push(a.clone());
                next.push(v);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// The visible action names of an LTS.
pub fn names(lts: &Lts) -> Vec<String> {
    lts.alphabet().iter().map(|(_, n)| n.to_owned()).collect()
}

/// Whether the set is accepting for `lts` (nonempty and containing an accepting state).
pub fn accepting(lts: &Lts, set: &States) -> bool {
    set.iter().any(|&s| lts.is_accepting(StateId::must(s)))
}

/// The traces of `sim` over `alphabet` up to length `k` with their reached sets (only nonempty ones).
pub fn executable(sim: &Sim<'_>, alphabet: &[String], k: usize) -> BTreeMap<Trace, States> {
    let mut out = BTreeMap::new();
    let mut layer = vec![(Vec::new(), sim.start())];
    for depth in 0..=k {
        let mut next = Vec::new();
        for (t, set) in layer {
            if set.is_empty() {
                continue;
            }
            if depth < k {
                for a in alphabet {
                    let mut u = t.clone();
                    u.push(a.clone());
                    next.push((u, sim.step(&set, a)));
                }
            }
            out.insert(t, set);
        }
        layer = next;
    }
    out
}

/// The traces accepted by `lts` up to length `k`, over its own alphabet.
pub fn accepted(lts: &Lts, k: usize) -> BTreeSet<Trace> {
    executable(&plain(lts), &names(lts), k)
        .into_iter()
        .filter(|(_, set)| accepting(lts, set))
        .map(|(t, _)| t)
        .collect()
}

/// The executable traces of `lts` up to length `k`, over its own alphabet.
pub fn traces(lts: &Lts, k: usize) -> BTreeSet<Trace> {
    executable(&plain(lts), &names(lts), k)
        .into_keys()
        .collect()
}

/// Whether `lts` accepts `trace` (by the naive simulator).
pub fn naive_accepts(lts: &Lts, trace: &[String]) -> bool {
    trace.iter().all(|a| lts.alphabet().contains(a)) && accepting(lts, &plain(lts).run(trace))
}

/// Strings to owned names.
pub fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|&s| s.to_owned()).collect()
}
