//! Private building blocks shared by the operations: a direct CSR writer and a subset interner.
//!
//! Operations produce their output state by state, in order; writing the compressed rows directly
//! (sorting each row's few edges) avoids the builder's global sort of all transitions, which matters
//! on products with millions of states. Subset construction (determinisation, language inclusion)
//! interns sets of states into one flat arena instead of one heap allocation per subset.

use bit_set::BitSet;
use rustc_hash::FxHashMap;
use std::hash::{BuildHasher, BuildHasherDefault};

use crate::alphabet::Alphabet;
use crate::error::LtsError;
use crate::id::{ActionId, IdOverflow, StateId};
use crate::lts::{Edge, Lts};

/// Writes an [`Lts`] row by row: push the edges of state 0, close the row, then state 1, and so on.
#[derive(Debug)]
pub(crate) struct CsrWriter {
    offsets: Vec<u32>,
    edges: Vec<Edge>,
}

impl CsrWriter {
    /// A writer expecting about `states` rows and `edges` edges.
    pub(crate) fn with_capacity(states: usize, edges: usize) -> Self {
        let mut offsets = Vec::with_capacity(states + 1);
        offsets.push(0);
        Self {
            offsets,
            edges: Vec::with_capacity(edges),
        }
    }

    /// Adds an edge to the current (open) row.
    #[inline]
    pub(crate) fn push(&mut self, action: ActionId, target: StateId) {
        self.edges.push(Edge { action, target });
    }

    /// Adds edges to the current (open) row.
    #[inline]
    pub(crate) fn extend(&mut self, edges: &[Edge]) {
        self.edges.extend_from_slice(edges);
    }

    /// Closes the current row: sorts and deduplicates its edges.
    pub(crate) fn end_state(&mut self) -> Result<(), LtsError> {
        let start = *self.offsets.last().unwrap_or(&0) as usize;
        sort_dedup_from(&mut self.edges, start);
        let len = self.edges.len();
        let end = u32::try_from(len).map_err(|_| IdOverflow {
            kind: "transition",
            index: len,
            limit: u32::MAX as usize,
        })?;
        StateId::new(self.offsets.len() - 1)?;
        self.offsets.push(end);
        Ok(())
    }

    /// The number of closed rows.
    pub(crate) fn num_states(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Finishes the LTS. `initial`, `error` and `accepting` must refer to closed rows.
    pub(crate) fn finish(
        self,
        alphabet: Alphabet,
        initial: StateId,
        error: Option<StateId>,
        accepting: Option<BitSet>,
    ) -> Result<Lts, LtsError> {
        let num_states = self.num_states();
        if num_states == 0 {
            return Err(LtsError::NoStates);
        }
        for s in std::iter::once(initial).chain(error) {
            if s.index() >= num_states {
                return Err(LtsError::UnknownState {
                    state: s.index(),
                    num_states,
                });
            }
        }
        Ok(Lts {
            alphabet,
            initial,
            offsets: self.offsets,
            edges: self.edges,
            error,
            accepting,
        })
    }
}

/// Interns sorted sets of states (as `u32` slices) to dense ids, storing them in one arena.
#[derive(Debug, Default)]
pub(crate) struct SubsetInterner {
    arena: Vec<u32>,
    starts: Vec<usize>,
    /// Hash of a subset -> the most recent id with that hash; older ones chain through `next`.
    heads: FxHashMap<u64, u32>,
    next: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl SubsetInterner {
    pub(crate) fn new() -> Self {
        Self {
            starts: vec![0],
            ..Self::default()
        }
    }

    /// The number of interned subsets.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The subset with id `id`.
    pub(crate) fn get(&self, id: u32) -> &[u32] {
        let i = id as usize;
        &self.arena[self.starts[i]..self.starts[i + 1]]
    }

    /// The id of `set` (sorted, deduplicated) and whether it was new.
    pub(crate) fn intern(&mut self, set: &[u32]) -> Result<(u32, bool), LtsError> {
        let hash = BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(set);
        let head = self.heads.get(&hash).copied().unwrap_or(NONE);
        let mut cur = head;
        while cur != NONE {
            if self.get(cur) == set {
                return Ok((cur, false));
            }
            cur = self.next[cur as usize];
        }
        let id = StateId::new(self.len())?.as_u32();
        self.arena.extend_from_slice(set);
        self.starts.push(self.arena.len());
        self.next.push(head);
        self.heads.insert(hash, id);
        Ok((id, true))
    }
}

/// Sorts and deduplicates `v` in place.
pub(crate) fn sort_dedup<T: Ord>(v: &mut Vec<T>) {
    v.sort_unstable();
    v.dedup();
}

/// Sorts and deduplicates the tail `v[start..]` in place, leaving `v[..start]` alone.
pub(crate) fn sort_dedup_from<T: Ord + Copy>(v: &mut Vec<T>, start: usize) {
    let tail = &mut v[start..];
    if !tail.is_sorted() {
        tail.sort_unstable();
    }
    let mut len = start;
    for i in start..v.len() {
        if len == start || v[len - 1] != v[i] {
            v[len] = v[i];
            len += 1;
        }
    }
    v.truncate(len);
}

/// A refinable partition of `0..n` (Valmari–Lehtinen): marking elements and splitting the marked
/// part off each touched set, the smaller part becoming the new set.
#[derive(Debug)]
pub(crate) struct Partition {
    pub(crate) elems: Vec<u32>,
    pub(crate) loc: Vec<u32>,
    pub(crate) set_of: Vec<u32>,
    pub(crate) first: Vec<u32>,
    pub(crate) past: Vec<u32>,
    pub(crate) marked: Vec<u32>,
    pub(crate) touched: Vec<u32>,
}

impl Partition {
    /// The partition of `0..n` into groups of equal `key`, in key order.
    pub(crate) fn grouped_by<K: Ord>(n: usize, key: impl Fn(u32) -> K) -> Self {
        let mut elems: Vec<u32> = (0..n as u32).collect();
        elems.sort_by_key(|&e| key(e));
        let mut p = Self {
            loc: vec![0; n],
            set_of: vec![0; n],
            elems,
            first: Vec::new(),
            past: Vec::new(),
            marked: Vec::new(),
            touched: Vec::new(),
        };
        for i in 0..n {
            let e = p.elems[i];
            if i == 0 || key(p.elems[i - 1]) != key(e) {
                if i > 0 {
                    p.past.push(i as u32);
                }
                p.first.push(i as u32);
                p.marked.push(0);
            }
            p.loc[e as usize] = i as u32;
            p.set_of[e as usize] = (p.first.len() - 1) as u32;
        }
        if n > 0 {
            p.past.push(n as u32);
        }
        p
    }

    pub(crate) fn len(&self) -> usize {
        self.first.len()
    }

    pub(crate) fn range(&self, set: usize) -> std::ops::Range<usize> {
        self.first[set] as usize..self.past[set] as usize
    }

    /// Moves `e` into the marked prefix of its set.
    pub(crate) fn mark(&mut self, e: u32) {
        let s = self.set_of[e as usize] as usize;
        let i = self.loc[e as usize] as usize;
        let j = (self.first[s] + self.marked[s]) as usize;
        if i < j {
            return; // already marked
        }
        let other = self.elems[j];
        self.elems[i] = other;
        self.loc[other as usize] = i as u32;
        self.elems[j] = e;
        self.loc[e as usize] = j as u32;
        if self.marked[s] == 0 {
            self.touched.push(s as u32);
        }
        self.marked[s] += 1;
    }

    /// Splits every touched set into its marked and unmarked parts; the smaller becomes a new set.
    pub(crate) fn split(&mut self) {
        while let Some(s) = self.touched.pop() {
            let s = s as usize;
            let j = self.first[s] + self.marked[s];
            self.marked[s] = 0;
            if j == self.past[s] {
                continue;
            }
            let z = self.first.len();
            if j - self.first[s] <= self.past[s] - j {
                self.first.push(self.first[s]);
                self.past.push(j);
                self.first[s] = j;
            } else {
                self.first.push(j);
                self.past.push(self.past[s]);
                self.past[s] = j;
            }
            self.marked.push(0);
            for i in self.range(z) {
                self.set_of[self.elems[i] as usize] = z as u32;
            }
        }
    }
}
