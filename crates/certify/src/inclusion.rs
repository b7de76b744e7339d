//! SYM's language-inclusion premise: is there a word that every assumption rejects and that
//! drives some property's error machine to pi?
//!
//! Each assumption is made deterministic first, once, by the subset construction ([`Subsets`]:
//! states are the sets of assumption states a word can reach, closed under tau; the empty set is
//! "rejected"). The search then walks tuples of subset numbers and property states breadth
//! first, one union-alphabet action at a time. A word is a counterexample when every assumption
//! is at its empty set and some property at pi.

use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

use crate::machine::{Act, Machine, TAU};
use crate::packing::{Codec, KeySet, Packed, Plain};

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// The subset construction of one assumption, complete over its alphabet.
struct Subsets {
    /// For each subset, its successor subset on every action of the alphabet, sorted by action.
    edges: Vec<Vec<(Act, usize)>>,
    /// The number of the empty subset, if a word reaches it.
    empty: Option<usize>,
}

impl Subsets {
    fn new(m: &Machine) -> Self {
        let close = |mut set: BTreeSet<usize>| {
            let mut work: Vec<usize> = set.iter().copied().collect();
            while let Some(s) = work.pop() {
                for t in m.successors(s, TAU) {
                    if set.insert(t) {
                        work.push(t);
                    }
                }
            }
            set
        };
        let mut number: FxMap<BTreeSet<usize>, usize> = FxMap::default();
        let mut sets = vec![close(BTreeSet::from([m.initial]))];
        number.insert(sets[0].clone(), 0);
        let mut edges = Vec::new();
        let mut at = 0;
        while at < sets.len() {
            let mut out = Vec::with_capacity(m.alphabet.len());
            for &a in &m.alphabet {
                let next = close(sets[at].iter().flat_map(|&s| m.successors(s, a)).collect());
                let id = *number.entry(next.clone()).or_insert_with(|| {
                    sets.push(next);
                    sets.len() - 1
                });
                out.push((a, id));
            }
            edges.push(out);
            at += 1;
        }
        let empty = number.get(&BTreeSet::new()).copied();
        Self { edges, empty }
    }

    /// The subset after `a` from subset `s` (the same subset for an action outside the alphabet).
    fn step(&self, s: usize, a: Act) -> usize {
        let out = &self.edges[s];
        out.binary_search_by_key(&a, |e| e.0)
            .map_or(s, |i| out[i].1)
    }
}

/// A word over the union of the alphabets that every assumption rejects and that drives some
/// property's error machine to pi, if there is one; and the number of tuples visited.
pub(crate) fn inclusion(assumptions: &[&Machine], props: &[&Machine]) -> (Option<Vec<Act>>, usize) {
    let subsets: Vec<Subsets> = assumptions.iter().map(|m| Subsets::new(m)).collect();
    // No word is rejected by an assumption that never reaches its empty set.
    if subsets.iter().any(|d| d.empty.is_none()) {
        return (None, 0);
    }
    let walk = Walk {
        alphabet: assumptions
            .iter()
            .chain(props)
            .flat_map(|m| m.alphabet.iter().copied())
            .collect::<BTreeSet<Act>>()
            .into_iter()
            .collect(),
        subsets,
        props,
    };
    let sizes = || {
        let subsets = walk.subsets.iter().map(|d| d.edges.len());
        subsets.chain(props.iter().map(|m| m.len()))
    };
    if let Some(packed) = Packed::<u64>::new(sizes()) {
        walk.run(&packed)
    } else if let Some(packed) = Packed::<u128>::new(sizes()) {
        walk.run(&packed)
    } else {
        walk.run(&Plain)
    }
}

/// The product the inclusion search walks: the assumptions' subset constructions, then the
/// properties' error machines.
struct Walk<'a> {
    alphabet: Vec<Act>,
    subsets: Vec<Subsets>,
    props: &'a [&'a Machine],
}

impl Walk<'_> {
    /// Whether every assumption rejects and some property is at pi.
    fn bad(&self, tuple: &[usize]) -> bool {
        let k = self.subsets.len();
        let sets = self.subsets.iter().zip(tuple);
        sets.into_iter().all(|(d, &s)| d.empty == Some(s))
            && (self.props.iter().zip(&tuple[k..])).any(|(m, &p)| m.error == Some(p))
    }

    /// The tuple after `a` from `tuple`, written into `next`.
    fn step(&self, tuple: &[usize], a: Act, next: &mut Vec<usize>) {
        let k = self.subsets.len();
        next.clear();
        next.extend(self.subsets.iter().zip(tuple).map(|(d, &s)| d.step(s, a)));
        next.extend(self.props.iter().zip(&tuple[k..]).map(|(m, &p)| {
            // Error machines are complete over their alphabet; pi keeps still.
            if m.error == Some(p) {
                p
            } else {
                m.successors(p, a).next().unwrap_or(p)
            }
        }));
    }

    /// Breadth-first search with tuples kept as `codec` keys.
    fn run<C: Codec>(&self, codec: &C) -> (Option<Vec<Act>>, usize) {
        let start: Vec<usize> = (self.subsets.iter().map(|_| 0))
            .chain(self.props.iter().map(|m| m.initial))
            .collect();
        let mut seen = C::Set::default();
        seen.insert(codec.encode(&start));
        let mut tuples = vec![codec.encode(&start)];
        let mut parent: Vec<Option<(usize, Act)>> = vec![None];
        let (mut tuple, mut next) = (Vec::new(), Vec::new());
        let mut id = 0;
        while id < tuples.len() {
            codec.decode(&tuples[id], &mut tuple);
            if self.bad(&tuple) {
                let mut trace = Vec::new();
                let mut at = id;
                while let Some((p, a)) = parent[at] {
                    trace.push(a);
                    at = p;
                }
                trace.reverse();
                return (Some(trace), tuples.len());
            }
            for &a in &self.alphabet {
                self.step(&tuple, a, &mut next);
                let key = codec.encode(&next);
                if seen.insert(key.clone()) {
                    tuples.push(key);
                    parent.push(Some((id, a)));
                }
            }
            id += 1;
        }
        (None, tuples.len())
    }
}
