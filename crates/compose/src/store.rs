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
//! Both index their states with the same open-addressing table (linear probing, at most 3/4 full)
//! whose 16-byte slots hold a 64-bit *tag* next to the 32-bit state number: for packed tuples the
//! tag is the key itself, for wide tuples it is the full hash. A lookup therefore touches one cache
//! line of the table and, for packed tuples, nothing else; an earlier layout with 4-byte slots
//! pointing into the key array was smaller but paid a second cache miss per transition, which
//! measured as half of the whole check's time. Keys are hashed with a multiply-and-fold mixer (the
//! `FxHash` idea, plus a fold of the high half) and the table index is taken from the *high* bits
//! of the product, which are the well-mixed ones.

use guarantor_lts::{Lts, StateId};

use crate::error::ComposeError;

/// Marks an empty slot of the table (in the state-number half).
const EMPTY: u32 = u32::MAX;

/// What a store must offer the exploration loop.
pub(crate) trait Store {
    /// The hash and tag of `tuple` (see the module docs).
    fn locate(&self, tuple: &[StateId]) -> (u64, u64);
    /// Reads the first slot a lookup of `hash` visits and returns its tag, so that the cache miss
    /// overlaps with other work; the caller only folds the result into a value it discards.
    fn touch(&self, hash: u64) -> u64;
    /// Looks `tuple` up by its [`Store::locate`] result, adding it if it is new; returns its number
    /// and whether it was new.
    fn insert_at(
        &mut self,
        tuple: &[StateId],
        hash: u64,
        tag: u64,
    ) -> Result<(u32, bool), ComposeError>;
    /// Looks `tuple` up, adding it if it is new; returns its number and whether it was new.
    fn insert(&mut self, tuple: &[StateId]) -> Result<(u32, bool), ComposeError> {
        let (hash, tag) = self.locate(tuple);
        self.insert_at(tuple, hash, tag)
    }
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

/// One slot: a tag (packed key or full hash) and a state number (`EMPTY` when free).
#[derive(Clone, Copy, Debug)]
struct Slot {
    tag: u64,
    id: u32,
}

const FREE: Slot = Slot { tag: 0, id: EMPTY };

/// An open-addressing table of tagged state numbers.
#[derive(Debug)]
struct Table {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: the shift that turns a hash into a slot index.
    shift: u32,
}

impl Table {
    fn new() -> Self {
        Self {
            slots: vec![FREE; 1 << 10],
            shift: 64 - 10,
        }
    }

    #[inline]
    fn start(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize
    }

    #[inline]
    fn touch(&self, hash: u64) -> u64 {
        self.slots[self.start(hash)].tag
    }

    /// Finds the state with tag `tag` for which `eq` holds, or the free slot where it belongs.
    #[inline]
    fn probe(&self, hash: u64, tag: u64, mut eq: impl FnMut(u32) -> bool) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot.id == EMPTY {
                return Err(i);
            }
            if slot.tag == tag && eq(slot.id) {
                return Ok(slot.id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Puts state `id` with `tag` into the table (which must not hold it yet), growing first if
    /// one more state would pass the 3/4 load factor. `hash_of(tag)` recomputes a slot's hash.
    fn add(&mut self, len: usize, hash: u64, tag: u64, id: u32, hash_of: impl Fn(u64) -> u64) {
        if (len + 1) * 4 > self.slots.len() * 3 {
            self.grow(&hash_of);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        while self.slots[i].id != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = Slot { tag, id };
    }

    /// Doubles the table, re-inserting every slot by its hash.
    fn grow(&mut self, hash_of: &impl Fn(u64) -> u64) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(&mut self.slots, vec![FREE; 1 << bits]);
        self.shift = 64 - bits;
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.id != EMPTY) {
            let mut i = self.start(hash_of(slot.tag));
            while self.slots[i].id != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
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
    fn locate(&self, tuple: &[StateId]) -> (u64, u64) {
        let key = self.pack(tuple);
        (mix(key), key)
    }

    #[inline]
    fn touch(&self, hash: u64) -> u64 {
        self.table.touch(hash)
    }

    #[inline]
    fn insert_at(
        &mut self,
        _: &[StateId],
        hash: u64,
        key: u64,
    ) -> Result<(u32, bool), ComposeError> {
        if let Ok(id) = self.table.probe(hash, key, |_| true) {
            return Ok((id, false));
        }
        let id = next_id(self.keys.len())?;
        self.table.add(self.keys.len(), hash, key, id, mix);
        self.keys.push(key);
        Ok((id, true))
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
    fn locate(&self, tuple: &[StateId]) -> (u64, u64) {
        let hash = Self::hash(tuple.iter().map(|s| s.as_u32()));
        (hash, hash)
    }

    fn touch(&self, hash: u64) -> u64 {
        self.table.touch(hash)
    }

    fn insert_at(
        &mut self,
        tuple: &[StateId],
        hash: u64,
        _: u64,
    ) -> Result<(u32, bool), ComposeError> {
        let found = self.table.probe(hash, hash, |id| {
            self.row(id)
                .iter()
                .zip(tuple)
                .all(|(&w, s)| w == s.as_u32())
        });
        if let Ok(id) = found {
            return Ok((id, false));
        }
        let id = next_id(self.len)?;
        self.table.add(self.len, hash, hash, id, |h| h);
        self.arena.extend(tuple.iter().map(|s| s.as_u32()));
        self.len += 1;
        Ok((id, true))
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
