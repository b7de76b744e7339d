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
///
/// The elements of each set are contiguous in `elems`, marked ones first. Per-element and per-set
/// fields are stored together (`Place`, `Block`), because marking touches all of them at random
/// positions and one cache miss per record is what the hot loop costs.
#[derive(Debug)]
pub(crate) struct Partition {
    pub(crate) elems: Vec<u32>,
    places: Vec<Place>,
    pub(crate) blocks: Vec<Block>,
    pub(crate) touched: Vec<u32>,
}

/// Where an element is: its position in `elems` and its set.
#[derive(Clone, Copy, Debug)]
struct Place {
    loc: u32,
    set: u32,
}

/// One set: `elems[first..past]`, of which the first `marked` are marked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    pub(crate) first: u32,
    pub(crate) past: u32,
    pub(crate) marked: u32,
}

impl Partition {
    /// The partition of `0..n` into groups of equal `key`, in key order.
    pub(crate) fn grouped_by<K: Ord>(n: usize, key: impl Fn(u32) -> K) -> Self {
        let mut elems: Vec<u32> = (0..n as u32).collect();
        elems.sort_by_key(|&e| key(e));
        let mut places = vec![Place { loc: 0, set: 0 }; n];
        let mut blocks: Vec<Block> = Vec::new();
        for i in 0..n {
            let e = elems[i];
            if i == 0 || key(elems[i - 1]) != key(e) {
                if let Some(last) = blocks.last_mut() {
                    last.past = i as u32;
                }
                blocks.push(Block {
                    first: i as u32,
                    past: n as u32,
                    marked: 0,
                });
            }
            places[e as usize] = Place {
                loc: i as u32,
                set: (blocks.len() - 1) as u32,
            };
        }
        Self {
            elems,
            places,
            blocks,
            touched: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.blocks.len()
    }

    pub(crate) fn range(&self, set: usize) -> std::ops::Range<usize> {
        self.blocks[set].first as usize..self.blocks[set].past as usize
    }

    /// The set of element `e`.
    #[inline]
    pub(crate) fn set_of(&self, e: u32) -> u32 {
        self.places[e as usize].set
    }

    /// The set of every element, indexed by element.
    pub(crate) fn into_sets(self) -> Vec<u32> {
        self.places.into_iter().map(|p| p.set).collect()
    }

    /// Puts `e` at position `i` of `elems` (the caller keeps each set's range a permutation).
    #[inline]
    pub(crate) fn place(&mut self, e: u32, i: usize) {
        self.elems[i] = e;
        self.places[e as usize].loc = i as u32;
    }

    /// Makes `elems[first..past]` a new set (taken from the set that held them) and returns its id.
    pub(crate) fn new_set(&mut self, first: u32, past: u32) -> u32 {
        let z = self.blocks.len() as u32;
        self.blocks.push(Block {
            first,
            past,
            marked: 0,
        });
        for i in first..past {
            self.places[self.elems[i as usize] as usize].set = z;
        }
        z
    }

    /// Moves `e` into the marked prefix of its set.
    #[inline]
    pub(crate) fn mark(&mut self, e: u32) {
        let Place { loc, set } = self.places[e as usize];
        let block = &mut self.blocks[set as usize];
        let j = block.first + block.marked;
        if loc < j {
            return; // already marked
        }
        block.marked += 1;
        if block.marked == 1 {
            self.touched.push(set);
        }
        let other = self.elems[j as usize];
        self.elems[loc as usize] = other;
        self.places[other as usize].loc = loc;
        self.elems[j as usize] = e;
        self.places[e as usize].loc = j;
    }

    /// Splits every touched set into its marked and unmarked parts; the smaller becomes a new set.
    pub(crate) fn split(&mut self) {
        while let Some(s) = self.touched.pop() {
            let block = &mut self.blocks[s as usize];
            let j = block.first + block.marked;
            block.marked = 0;
            if j == block.past {
                continue;
            }
            let (lo, hi) = if j - block.first <= block.past - j {
                let part = (block.first, j);
                block.first = j;
                part
            } else {
                let part = (j, block.past);
                block.past = j;
                part
            };
            self.new_set(lo, hi);
        }
    }
}
