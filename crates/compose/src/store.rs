//! Visited-state stores: the set of discovered product tuples, numbered densely in discovery order.
//!
//! The store *is* the BFS queue: states are numbered in the order they are discovered, so "the next
//! state to expand" is just a counter, and a state costs its key plus one slot of the hash table.
//! Two layouts:
//! - [`PackedStore`]: when the bit widths of the components' state counts add up to at most 64, a
//!   tuple is packed into one `u64` (8 bytes per state);
//! - [`WideStore`]: otherwise tuples are kept as `u32` slices in one flat arena (4 bytes per
//!   component per state).
//!
//! Both index their keys with the same open-addressing table of `u32` state numbers (linear
//! probing, at most 3/4 full): 4 bytes per slot instead of the 16 or more of a `HashMap<key, u32>`
//! entry, and the key itself is never duplicated. Keys are hashed with a multiply-and-fold mixer
//! (the `FxHash` idea, plus a fold of the high half) and the table index is taken from the *high*
//! bits of the product, which are the well-mixed ones.

use guarantor_lts::{Lts, StateId};

use crate::error::ComposeError;

/// Marks an empty slot of the table.
const EMPTY: u32 = u32::MAX;

/// What a store must offer the exploration loop.
pub(crate) trait Store {
    /// Looks `tuple` up, adding it if it is new; returns its number and whether it was new.
    fn insert(&mut self, tuple: &[StateId]) -> Result<(u32, bool), ComposeError>;
    /// Writes the tuple of state `id` into `out`.
    fn load(&self, id: u32, out: &mut [StateId]);
    /// The number of stored states.
    fn len(&self) -> usize;
}

/// Mixes a 64-bit key (`FxHash`'s multiplier, then the high half folded onto the low half so that
/// every input bit reaches the top bits the table uses).
#[inline]
fn mix(key: u64) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let h = key.wrapping_mul(K);
    (h ^ (h >> 29)).wrapping_mul(K)
}

/// An open-addressing table of state numbers; the keys live in the store that owns it.
#[derive(Debug)]
struct Table {
    slots: Vec<u32>,
    /// `64 - log2(slots.len())`: the shift that turns a hash into a slot index.
    shift: u32,
}

impl Table {
    fn new() -> Self {
        Self {
            slots: vec![EMPTY; 1 << 10],
            shift: 64 - 10,
        }
    }

    #[inline]
    fn start(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize
    }

    /// Finds the slot holding a state whose key matches (`eq(id)`), or the empty slot where it
    /// belongs.
    #[inline]
    fn probe(&self, hash: u64, mut eq: impl FnMut(u32) -> bool) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        loop {
            match self.slots[i] {
                EMPTY => return Err(i),
                id if eq(id) => return Ok(id),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Whether adding one more state to `len` stored states would pass the 3/4 load factor.
    #[inline]
    fn needs_growth(&self, len: usize) -> bool {
        (len + 1) * 4 > self.slots.len() * 3
    }

    /// Doubles the table, re-inserting every state `0..len` by its hash.
    fn grow(&mut self, len: usize, hash_of: impl Fn(u32) -> u64) {
        let bits = 64 - self.shift + 1;
        self.slots = vec![EMPTY; 1 << bits];
        self.shift = 64 - bits;
        let mask = self.slots.len() - 1;
        for id in 0..len as u32 {
            let mut i = self.start(hash_of(id));
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = id;
        }
    }
}

/// Checks that one more state still gets a 32-bit number (`EMPTY` is reserved).
fn next_id(len: usize) -> Result<u32, ComposeError> {
    if len >= EMPTY as usize {
        return Err(guarantor_lts::LtsError::from(guarantor_lts::IdOverflow {
            kind: "product state",
            index: len,
            limit: EMPTY as usize,
        })
        .into());
    }
    Ok(len as u32)
}

/// Tuples packed into one `u64` each.
#[derive(Debug)]
pub(crate) struct PackedStore {
    keys: Vec<u64>,
    table: Table,
    /// Bit offset of each component's field.
    shifts: Vec<u32>,
    /// Mask of each component's field (after shifting down).
    masks: Vec<u64>,
}

impl PackedStore {
    /// A packed store for tuples of `components`, or `None` if their fields need more than 64 bits.
    pub(crate) fn for_components(components: &[&Lts]) -> Option<Self> {
        let mut shifts = Vec::with_capacity(components.len());
        let mut masks = Vec::with_capacity(components.len());
        let mut used = 0u32;
        for c in components {
            let bits = usize::BITS - (c.num_states() - 1).leading_zeros();
            shifts.push(used);
            masks.push(if bits == 0 {
                0
            } else {
                u64::MAX >> (64 - bits)
            });
            used += bits;
        }
        (used <= 64).then(|| Self {
            keys: Vec::new(),
            table: Table::new(),
            shifts,
            masks,
        })
    }

    #[inline]
    fn pack(&self, tuple: &[StateId]) -> u64 {
        tuple.iter().zip(&self.shifts).fold(0, |key, (s, &sh)| {
            key | u64::from(s.as_u32()).wrapping_shl(sh)
        })
    }
}

impl Store for PackedStore {
    #[inline]
    fn insert(&mut self, tuple: &[StateId]) -> Result<(u32, bool), ComposeError> {
        let key = self.pack(tuple);
        let hash = mix(key);
        let keys = &self.keys;
        match self.table.probe(hash, |id| keys[id as usize] == key) {
            Ok(id) => Ok((id, false)),
            Err(mut slot) => {
                let id = next_id(self.keys.len())?;
                if self.table.needs_growth(self.keys.len()) {
                    let keys = &self.keys;
                    self.table.grow(keys.len(), |i| mix(keys[i as usize]));
                    slot = self.table.probe(hash, |_| false).unwrap_err();
                }
                self.table.slots[slot] = id;
                self.keys.push(key);
                Ok((id, true))
            }
        }
    }

    #[inline]
    fn load(&self, id: u32, out: &mut [StateId]) {
        let key = self.keys[id as usize];
        for ((o, &sh), &m) in out.iter_mut().zip(&self.shifts).zip(&self.masks) {
            *o = StateId::from_u32((key.wrapping_shr(sh) & m) as u32);
        }
    }

    fn len(&self) -> usize {
        self.keys.len()
    }
}

/// Tuples stored as `u32` slices of one flat arena.
#[derive(Debug)]
pub(crate) struct WideStore {
    arena: Vec<u32>,
    width: usize,
    len: usize,
    table: Table,
}

impl WideStore {
    /// A wide store for tuples of `width` components.
    pub(crate) fn new(width: usize) -> Self {
        Self {
            arena: Vec::new(),
            width,
            len: 0,
            table: Table::new(),
        }
    }

    #[inline]
    fn hash(words: impl Iterator<Item = u32>) -> u64 {
        mix(words.fold(0u64, |h, w| mix(h ^ u64::from(w))))
    }

    fn row(&self, id: u32) -> &[u32] {
        let at = id as usize * self.width;
        &self.arena[at..at + self.width]
    }
}

impl Store for WideStore {
    fn insert(&mut self, tuple: &[StateId]) -> Result<(u32, bool), ComposeError> {
        let hash = Self::hash(tuple.iter().map(|s| s.as_u32()));
        let found = self.table.probe(hash, |id| {
            self.row(id)
                .iter()
                .zip(tuple)
                .all(|(&w, s)| w == s.as_u32())
        });
        match found {
            Ok(id) => Ok((id, false)),
            Err(mut slot) => {
                let id = next_id(self.len)?;
                if self.table.needs_growth(self.len) {
                    let (arena, width) = (&self.arena, self.width);
                    self.table.grow(self.len, |i| {
                        let at = i as usize * width;
                        Self::hash(arena[at..at + width].iter().copied())
                    });
                    slot = self.table.probe(hash, |_| false).unwrap_err();
                }
                self.table.slots[slot] = id;
                self.arena.extend(tuple.iter().map(|s| s.as_u32()));
                self.len += 1;
                Ok((id, true))
            }
        }
    }

    fn load(&self, id: u32, out: &mut [StateId]) {
        for (o, &w) in out.iter_mut().zip(self.row(id)) {
            *o = StateId::from_u32(w);
        }
    }

    fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuples() -> Vec<[StateId; 3]> {
        let s = StateId::must;
        (0..5000)
            .map(|i| [s(i % 7), s(i % 13), s(i % 3000)])
            .collect()
    }

    fn exercise(store: &mut impl Store) {
        let mut distinct = std::collections::HashSet::new();
        for t in tuples() {
            let fresh = distinct.insert(t);
            let (id, new) = store.insert(&t).unwrap();
            assert_eq!(new, fresh);
            let mut back = [StateId::default(); 3];
            store.load(id, &mut back);
            assert_eq!(back, t);
        }
        assert_eq!(store.len(), distinct.len());
    }

    #[test]
    fn wide_store_numbers_tuples_once() {
        exercise(&mut WideStore::new(3));
    }

    #[test]
    fn packed_store_numbers_tuples_once() {
        let one = |n: usize| {
            let mut b = guarantor_lts::LtsBuilder::new();
            b.ensure_states(n).unwrap();
            b.build().unwrap()
        };
        let (a, b, c) = (one(7), one(13), one(3000));
        let mut store = PackedStore::for_components(&[&a, &b, &c]).unwrap();
        exercise(&mut store);
        let big = one(1 << 22); // 22 bits each: 66 > 64
        assert!(PackedStore::for_components(&[&big, &big, &big]).is_none());
    }
}
