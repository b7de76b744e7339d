//! [`TupleSet`]: a set of product tuples kept packed, for search engines outside this crate (the
//! distributed engine of `guarantor-dist` keeps one per worker as its visited set).
//!
//! It is this crate's own stores behind a small public face, not a second copy of them, chosen as
//! [`Storage`] says: the packed table store (`store::PackedStore`, the fastest lookups, 30-40
//! bytes per state) or the compact store (`compact`, 6-8 bytes per state, where the tuples pack
//! into at most 74 bits; the table beyond), and the wide arena store past 128 bits. A
//! tuple travels as its *key*: [`TupleSet::key_words`] `u64` words, the same packing the store
//! uses, so an engine that ships states between processes sends the key and the receiver looks
//! it up without repacking. Unlike the stores inside this crate, a `TupleSet` does not number or
//! queue its states (the engine keeps its own order), so the compact store's queue stays empty.

use guarantor_lts::{Lts, StateId};

use crate::config::Storage;
use crate::engine::compact::CompactStore;
use crate::engine::store::{Fields, PackedKey, PackedStore, Store, WideStore};
use crate::error::ComposeError;

/// A set of tuples of states of fixed components, each kept as a packed key.
///
/// ```
/// use guarantor_compose::TupleSet;
/// use guarantor_lts::{Lts, StateId};
/// let a = Lts::from_edges([(0, "x", 1), (1, "y", 2)])?;
/// let b = Lts::from_edges([(0, "y", 1)])?;
/// let mut set = TupleSet::new(&[&a, &b]);
/// // `TupleSet::with_storage(&[&a, &b], Storage::Compact)` keeps fewer bytes per state.
/// let mut key = vec![0; set.key_words()];
/// set.pack(&[StateId::must(2), StateId::must(1)], &mut key);
/// assert!(!set.contains(&key));
/// assert!(set.insert(&key)?);
/// assert!(!set.insert(&key)?);
/// assert!(set.contains(&key) && set.len() == 1);
/// let mut back = [StateId::must(0); 2];
/// set.unpack(&key, &mut back);
/// assert_eq!(back, [StateId::must(2), StateId::must(1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TupleSet {
    kind: Kind,
    width: usize,
    len: usize,
}

/// The store behind a set, chosen by how many bits a tuple needs.
#[derive(Debug)]
enum Kind {
    /// Up to 64 bits: the compact store, one word.
    Compact64(CompactStore<u64>),
    /// 65 to 74 bits: the compact store, two words.
    Compact128(CompactStore<u128>),
    /// Up to 64 bits: the packed table store, one word.
    Table64(PackedStore<u64>, Fields),
    /// Up to 128 bits: the packed table store, two words.
    Table(PackedStore<[u32; 4]>, Fields),
    /// Wider: the arena store; a key is the tuple's states, two to a word.
    Arena(WideStore),
}

impl TupleSet {
    /// An empty set for tuples of states of `components`, in their order, in the table store
    /// (the default [`Storage`]).
    pub fn new(components: &[&Lts]) -> Self {
        Self::with_storage(components, Storage::Table)
    }

    /// An empty set for tuples of states of `components` in the store `storage` asks for (the
    /// compact store only takes tuples of at most 74 bits: wider ones go to the table).
    pub fn with_storage(components: &[&Lts], storage: Storage) -> Self {
        let compact = storage == Storage::Compact;
        let fields = Fields::plan(components, None);
        let kind = if let Some(store) = CompactStore::<u64>::new(components).filter(|_| compact) {
            Kind::Compact64(store)
        } else if let Some(store) = CompactStore::<u128>::new(components).filter(|_| compact) {
            Kind::Compact128(store)
        } else if let Some(fields) = fields.as_ref().filter(|f| f.bits() <= 64) {
            Kind::Table64(PackedStore::new(fields.clone()), fields.clone())
        } else if let Some(fields) = fields {
            Kind::Table(PackedStore::new(fields.clone()), fields)
        } else {
            Kind::Arena(WideStore::new(components.len()))
        };
        Self {
            kind,
            width: components.len(),
            len: 0,
        }
    }

    /// How many `u64` words a key takes: 1 up to 64 bits a tuple, 2 up to 128, then one per two
    /// components.
    pub fn key_words(&self) -> usize {
        match self.kind {
            Kind::Compact64(_) | Kind::Table64(..) => 1,
            Kind::Compact128(_) | Kind::Table(..) => 2,
            Kind::Arena(_) => self.width.div_ceil(2),
        }
    }

    /// Writes the key of `tuple` into `out` (at least [`TupleSet::key_words`] long).
    #[inline]
    pub fn pack(&self, tuple: &[StateId], out: &mut [u64]) {
        match &self.kind {
            Kind::Compact64(store) => out[0] = store.pack(tuple),
            Kind::Compact128(store) => {
                let packed = store.pack(tuple);
                out[0] = packed as u64;
                out[1] = (packed >> 64) as u64;
            }
            Kind::Table64(_, fields) => out[0] = fields.pack(tuple).0,
            Kind::Table(_, fields) => (out[0], out[1]) = fields.pack(tuple),
            Kind::Arena(_) => {
                for (o, pair) in out.iter_mut().zip(tuple.chunks(2)) {
                    let hi = pair.get(1).map_or(0, |s| u64::from(s.as_u32()));
                    *o = u64::from(pair[0].as_u32()) | hi << 32;
                }
            }
        }
    }

    /// Writes the tuple of `key` into `out` (as many states as the set's components).
    #[inline]
    pub fn unpack(&self, key: &[u64], out: &mut [StateId]) {
        match &self.kind {
            Kind::Compact64(store) => store.unpack(key[0], out),
            Kind::Compact128(store) => store.unpack(wide(key), out),
            Kind::Table64(_, fields) => fields.unpack((key[0], 0), out),
            Kind::Table(_, fields) => fields.unpack((key[0], key[1]), out),
            Kind::Arena(_) => {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = StateId::from_u32((key[i / 2] >> (32 * (i % 2))) as u32);
                }
            }
        }
    }

    /// Whether the tuple of `key` is in the set.
    #[inline]
    pub fn contains(&self, key: &[u64]) -> bool {
        match &self.kind {
            Kind::Compact64(store) => store.contains_packed(key[0]),
            Kind::Compact128(store) => store.contains_packed(wide(key)),
            Kind::Table64(store, _) => store.contains_key(key[0]),
            Kind::Table(store, _) => store.contains_key(<[u32; 4]>::from_halves(key[0], key[1])),
            Kind::Arena(store) => store.find(&self.tuple(key)).is_some(),
        }
    }

    /// Reads the memory a lookup of `key` starts at and returns something of it: a caller that
    /// touches a batch of keys before looking them up lets their cache misses overlap (fold the
    /// results into `std::hint::black_box` so the reads are not optimised away).
    #[inline]
    pub fn touch(&self, key: &[u64]) -> u64 {
        match &self.kind {
            Kind::Compact64(store) => store.touch_packed(key[0]),
            Kind::Compact128(store) => store.touch_packed(wide(key)),
            Kind::Table64(store, _) => store.touch(key[0].hash()),
            Kind::Table(store, _) => store.touch(<[u32; 4]>::from_halves(key[0], key[1]).hash()),
            Kind::Arena(_) => 0,
        }
    }

    /// Adds the tuple of `key`; returns whether it was new.
    ///
    /// # Errors
    /// A [`ComposeError`] when the table or arena store, which number their states, would need
    /// a state number past `u32::MAX - 1`.
    #[inline]
    pub fn insert(&mut self, key: &[u64]) -> Result<bool, ComposeError> {
        let new = match &mut self.kind {
            Kind::Compact64(store) => store.add_packed(key[0]),
            Kind::Compact128(store) => store.add_packed(wide(key)),
            Kind::Table64(store, _) => store.insert_at(&[], key[0].hash(), key[0])?.1,
            Kind::Table(store, _) => {
                let packed = <[u32; 4]>::from_halves(key[0], key[1]);
                store.insert_at(&[], packed.hash(), packed)?.1
            }
            Kind::Arena(_) => {
                let tuple = self.tuple(key);
                let Kind::Arena(store) = &mut self.kind else {
                    unreachable!("matched above")
                };
                store.insert(&tuple)?.1
            }
        };
        self.len += usize::from(new);
        Ok(new)
    }

    /// How many tuples the set holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the set's tables hold now.
    pub fn bytes(&self) -> usize {
        match &self.kind {
            Kind::Compact64(store) => store.bytes(),
            Kind::Compact128(store) => store.bytes(),
            Kind::Table64(store, _) => store.peak_bytes(),
            Kind::Table(store, _) => store.peak_bytes(),
            Kind::Arena(store) => store.peak_bytes(),
        }
    }

    /// The bytes the set may hold at once while it grows by its next step (the compact store
    /// grows one of its 256 sub-tables at a time; the others double their table).
    pub fn growth_bytes(&self) -> usize {
        match &self.kind {
            Kind::Compact64(store) => store.bytes() + store.bytes() / 128,
            Kind::Compact128(store) => store.bytes() + store.bytes() / 128,
            Kind::Table64(store, _) => store.growth_bytes(),
            Kind::Table(store, _) => store.growth_bytes(),
            Kind::Arena(store) => store.growth_bytes(),
        }
    }

    /// The tuple of an arena key.
    fn tuple(&self, key: &[u64]) -> Vec<StateId> {
        let mut out = vec![StateId::from_u32(0); self.width];
        self.unpack(key, &mut out);
        out
    }
}

/// Two key words as one `u128`.
#[inline]
fn wide(key: &[u64]) -> u128 {
    u128::from(key[0]) | u128::from(key[1]) << 64
}

#[cfg(test)]
mod tests {
    //! Every kind of set against a `HashSet` of tuples, on random tuples of components whose
    //! widths put the keys in each kind.
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;

    /// An LTS with `n` states in a chain.
    fn chain(n: usize) -> Lts {
        let edges: Vec<(usize, &str, usize)> = (1..n).map(|i| (i - 1, "a", i)).collect();
        Lts::from_edges(edges).expect("a chain is well formed")
    }

    fn check_against_oracle(
        sizes: &[usize],
        picks: &[Vec<u32>],
        storage: Storage,
    ) -> Result<(), TestCaseError> {
        let comps: Vec<Lts> = sizes.iter().map(|&n| chain(n)).collect();
        let refs: Vec<&Lts> = comps.iter().collect();
        let mut set = TupleSet::with_storage(&refs, storage);
        let mut oracle = HashSet::new();
        let mut key = vec![0; set.key_words()];
        let mut back = vec![StateId::from_u32(0); sizes.len()];
        for pick in picks {
            let tuple: Vec<StateId> = pick
                .iter()
                .zip(sizes)
                .map(|(&p, &n)| StateId::from_u32(p % n as u32))
                .collect();
            set.pack(&tuple, &mut key);
            set.unpack(&key, &mut back);
            prop_assert_eq!(&back, &tuple);
            prop_assert_eq!(set.contains(&key), oracle.contains(&tuple));
            prop_assert_eq!(set.insert(&key)?, oracle.insert(tuple.clone()));
            prop_assert!(set.contains(&key));
        }
        prop_assert_eq!(set.len(), oracle.len());
        Ok(())
    }

    proptest! {
        #[test]
        fn sets_of_every_width_agree_with_a_hash_set(
            width in prop_oneof![Just(3usize), Just(9), Just(12), Just(20), Just(40)],
            picks in proptest::collection::vec(proptest::collection::vec(any::<u32>(), 40), 1..300),
            compact in any::<bool>(),
        ) {
            // Components of 200 states (8 bits): 3 -> 24 bits (one word), 9 -> 72 (two words;
            // compact if asked), 12 -> 96 (table), 20 -> 160 and 40 -> 320 (arena).
            let sizes = vec![200; width];
            let storage = if compact { Storage::Compact } else { Storage::Table };
            check_against_oracle(&sizes, &picks, storage)?;
        }
    }

    #[test]
    fn each_width_picks_its_store() {
        let kinds = [(3, 1), (9, 2), (12, 2), (20, 10)];
        for (width, words) in kinds {
            let comps: Vec<Lts> = (0..width).map(|_| chain(200)).collect();
            let refs: Vec<&Lts> = comps.iter().collect();
            for storage in [Storage::Table, Storage::Compact] {
                let set = TupleSet::with_storage(&refs, storage);
                assert_eq!(set.key_words(), words, "{width}");
            }
        }
    }
}
