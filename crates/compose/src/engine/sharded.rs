//! What the multi-core walk needs of a store ([`SlabStore`]: shards one thread owns at a time),
//! and the table store in that form: packed keys, as in [`PackedStore`], indexed by [`SHARDS`]
//! independent hash tables instead of one. The other store in that form is the compact one
//! (`engine::compact`, the default), whose 256 sub-tables fall into the same number of shards;
//! this one serves `Storage::Table` and tuples too wide for the compact store.
//!
//! A key belongs to the shard named by six middle bits of its hash (bits 20 to 25: the tables
//! take their slot index from the top bits, so the two choices do not correlate). A slab's
//! lookups and inserts of a shard all run on the one thread that owns the shard for that phase, so
//! the parallel walk (`explore::parallel`) needs no locks or atomics and the workspace keeps
//! `forbid(unsafe_code)`; the other phases only read the key array. Numbering stays the
//! sequential walk's: keys are numbered densely in discovery order, and the key array doubles as
//! the queue, exactly as in the single-table store.
//!
//! Memory per state is the single-table store's: the key once in the array, once in its slot with
//! the state number, at most 3/4 load. Shards start at 16 slots each, so a small check pays for 1 KB
//! of tables more than the single table, not for 64 full-size ones.
//!
//! [`PackedStore`]: crate::engine::store::PackedStore

use guarantor_lts::StateId;

use crate::engine::store::{Entry, Fields, PackedKey, Store, Table, next_id};
use crate::error::ComposeError;

/// How many shards a store has: enough that a handful of threads rarely wait for the largest.
pub(crate) const SHARDS: usize = 64;

/// The shard a key of this hash belongs to.
#[inline]
pub(crate) fn shard_of(hash: u64) -> usize {
    (hash >> 20) as usize & (SHARDS - 1)
}

/// One shard: a table and how many keys it holds.
#[derive(Debug)]
pub(crate) struct Shard<P: PackedKey> {
    table: Table<P::Slot>,
    len: usize,
}

impl<P: PackedKey> Shard<P> {
    fn new() -> Self {
        Self {
            table: Table::with_bits(4),
            len: 0,
        }
    }

    /// The number of the state with this key, if the shard holds it.
    #[inline]
    pub(crate) fn get(&self, hash: u64, key: P) -> Option<u32> {
        self.table.probe(hash, |s| P::key_of(s) == key).ok()
    }

    /// Adds `key` as state `id` unless the shard holds it already; returns whether it was added.
    #[inline]
    pub(crate) fn add_new(&mut self, hash: u64, key: P, id: u32) -> bool {
        if self.get(hash, key).is_some() {
            return false;
        }
        self.table
            .add(self.len, hash, key.slot(id), |s| P::key_of(s).hash());
        self.len += 1;
        true
    }

    /// Reads the first slot a lookup of `hash` visits (see [`Store::touch`]).
    #[inline]
    pub(crate) fn touch(&self, hash: u64) -> u64 {
        u64::from(self.table.first_slot(hash).id())
    }

    /// Adds `key` as state `id` unless the shard holds it already; returns the index of its
    /// slot if it was added, and whether the table grew first (which moves every slot).
    #[inline]
    pub(crate) fn put_new(&mut self, hash: u64, key: P, id: u32) -> Option<(usize, bool)> {
        let grew = self.table.reserve(self.len, 1, |s| P::key_of(s).hash());
        let at = self
            .table
            .put_new(hash, |s| P::key_of(s) == key, key.slot(id))?;
        self.len += 1;
        Some((at, grew))
    }

    /// Renumbers the state in slot `index` (from [`Shard::put_new`], if the table has not grown
    /// since) to `id`.
    pub(crate) fn renumber_at(&mut self, index: usize, id: u32) {
        let slot = self.table.slot_at_mut(index);
        *slot = P::key_of(slot).slot(id);
    }

    /// Renumbers the state with this key (which the shard must hold) to `id`.
    pub(crate) fn renumber(&mut self, key: P, id: u32) {
        if let Some(slot) = self.table.slot_mut(key.hash(), |s| P::key_of(s) == key) {
            *slot = key.slot(id);
        }
    }
}

/// A store the parallel walk (`explore::parallel`) can share out: its tables fall into [`SHARDS`]
/// shards, each owned by one thread in the phases that insert keys and renumber slots, while the
/// other phases only read the store; the walk appends discoveries to the queue itself, in order.
/// The sharded table store and the compact store ([`CompactStore`]) are the two.
///
/// [`CompactStore`]: crate::engine::compact::CompactStore
pub(crate) trait SlabStore: Store + Sync + Send {
    /// What one thread owns while it inserts.
    type Shard: Send;
    /// What a slab keeps of a successor from its enumeration to its numbering: as little as the
    /// store can look it up from (a slab holds one per transition, so this is most of the walk's
    /// memory beside the store).
    type SlabKey: Copy + Send + Sync + std::fmt::Debug;
    /// Whether a slot holds its state's number, which the walk then writes once it is known
    /// (the compact store's slots hold none).
    const NUMBERED: bool;
    /// The most states one slab expands: large enough that a slab's phases outweigh their
    /// synchronisation, small enough that its buffers stay small beside the store.
    const SLAB: usize;
    /// About how many successors one slab lists (its states are [`SlabStore::SLAB`] at most,
    /// fewer where states have many successors): what bounds a slab's buffers, which hold one
    /// entry per successor.
    const SLAB_SUCCESSORS: usize = usize::MAX;
    /// The shard and slab key of `tuple`.
    fn slab_key(&self, tuple: &[StateId]) -> (usize, Self::SlabKey);
    /// The shards, to insert into them one thread per shard.
    fn shards(&mut self) -> &mut [Self::Shard];
    /// Reads the first slot a lookup of `key` in `shard` visits (see [`Store::touch`]).
    fn touch_in(shard: &Self::Shard, key: Self::SlabKey) -> u64;
    /// Adds `key` to `shard` unless it holds it; if it was added, returns the index of its slot
    /// and whether the shard's table grew first (which moves every slot).
    fn put_new(shard: &mut Self::Shard, key: Self::SlabKey) -> Option<(usize, bool)>;
    /// Writes state number `id` into the slot of `key` ([`SlabStore::NUMBERED`] stores): at
    /// `index` if the table has not `grown` since [`SlabStore::put_new`] gave it, else found by
    /// key.
    fn renumber(
        _shard: &mut Self::Shard,
        _key: Self::SlabKey,
        _index: usize,
        _grown: bool,
        _id: u32,
    ) {
    }
    /// Appends `key` as the next state number (its shard entry is made separately); returns it.
    fn push_key(&mut self, key: Self::SlabKey) -> Result<u32, ComposeError>;
    /// Called after the insert phase ran on `threads` threads (a store that counts its peak
    /// bytes counts the tables the phase grew).
    fn inserted(&mut self, _threads: usize) {}
}

/// The table store keeps a successor's hash beside its key, as its sequential walk does.
impl<P: PackedKey> SlabStore for ShardedStore<P> {
    type Shard = Shard<P>;
    type SlabKey = (u64, P);
    const NUMBERED: bool = true;
    const SLAB: usize = 1 << 14;

    #[inline]
    fn slab_key(&self, tuple: &[StateId]) -> (usize, (u64, P)) {
        let (hash, key) = self.fields.key(tuple);
        (shard_of(hash), (hash, key))
    }

    fn shards(&mut self) -> &mut [Shard<P>] {
        &mut self.shards
    }

    #[inline]
    fn touch_in(shard: &Shard<P>, (hash, _): (u64, P)) -> u64 {
        shard.touch(hash)
    }

    #[inline]
    fn put_new(shard: &mut Shard<P>, (hash, key): (u64, P)) -> Option<(usize, bool)> {
        // Any number will do until the walk renumbers the slot; lookups in the insert phase only
        // ask whether the key is there.
        shard.put_new(hash, key, 0)
    }

    fn renumber(shard: &mut Shard<P>, (_, key): (u64, P), index: usize, grown: bool, id: u32) {
        if grown {
            shard.renumber(key, id);
        } else {
            shard.renumber_at(index, id);
        }
    }

    fn push_key(&mut self, (_, key): (u64, P)) -> Result<u32, ComposeError> {
        let id = next_id(self.keys.len())?;
        self.keys.push(key);
        Ok(id)
    }
}

/// Tuples packed into keys of type `P`, indexed by [`SHARDS`] tables.
#[derive(Debug)]
pub(crate) struct ShardedStore<P: PackedKey> {
    keys: Vec<P>,
    shards: Vec<Shard<P>>,
    fields: Fields,
}

impl<P: PackedKey> ShardedStore<P> {
    /// A store with this field layout.
    ///
    /// # Panics
    /// Panics if the layout needs more bits than `P` holds (a caller bug).
    pub(crate) fn new(fields: Fields) -> Self {
        assert!(
            fields.bits() <= P::BITS,
            "packed key too small for its fields"
        );
        Self {
            keys: Vec::new(),
            shards: (0..SHARDS).map(|_| Shard::new()).collect(),
            fields,
        }
    }

    /// The number of the state with this key, if stored.
    #[inline]
    pub(crate) fn get(&self, hash: u64, key: P) -> Option<u32> {
        self.shards[shard_of(hash)].get(hash, key)
    }
}

impl<P: PackedKey> Store for ShardedStore<P> {
    type Key = P;
    const NEEDS_TUPLE: bool = false;

    #[inline]
    fn locate(&self, tuple: &[StateId]) -> (u64, P) {
        self.fields.key(tuple)
    }

    #[inline]
    fn touch(&self, hash: u64) -> u64 {
        self.shards[shard_of(hash)].touch(hash)
    }

    #[inline]
    fn insert_at(&mut self, _: &[StateId], hash: u64, key: P) -> Result<(u32, bool), ComposeError> {
        if let Some(id) = self.get(hash, key) {
            return Ok((id, false));
        }
        let id = next_id(self.keys.len())?;
        self.shards[shard_of(hash)].add_new(hash, key, id);
        self.keys.push(key);
        Ok((id, true))
    }

    fn find(&self, tuple: &[StateId]) -> Option<u32> {
        let (hash, key) = self.locate(tuple);
        self.get(hash, key)
    }

    #[inline]
    fn load(&self, id: u32, out: &mut [StateId]) {
        self.fields.unpack(self.keys[id as usize].halves(), out);
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn peak_bytes(&self) -> usize {
        let tables: usize = self.shards.iter().map(|s| s.table.bytes()).sum();
        self.keys.capacity() * size_of::<P>() + tables
    }

    /// The shards fill evenly (keys are spread by hash), so they double within a few slabs of
    /// each other: the walk soon holds every table twice over, plus one old table per growing
    /// shard while it moves.
    fn growth_bytes(&self) -> usize {
        let tables: usize = self.shards.iter().map(|s| s.table.bytes()).sum();
        let largest = self
            .shards
            .iter()
            .map(|s| s.table.bytes())
            .max()
            .unwrap_or(0);
        tables + 2 * largest + self.keys.capacity() * size_of::<P>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(n: usize) -> guarantor_lts::Lts {
        let mut b = guarantor_lts::LtsBuilder::new();
        b.ensure_states(n).unwrap();
        b.build().unwrap()
    }

    #[test]
    fn numbers_tuples_once_in_discovery_order() {
        let (a, b) = (one(100), one(300));
        let mut store = ShardedStore::<u64>::new(Fields::plan(&[&a, &b], None).unwrap());
        let s = StateId::must;
        let mut seen = std::collections::HashMap::new();
        for i in 0..20_000 {
            let t = [s(i % 97), s(i % 293)];
            let fresh = seen.len();
            let id = *seen.entry(t).or_insert(fresh);
            let (got, new) = store.insert(&t).unwrap();
            assert_eq!((got as usize, new), (id, id == fresh));
            let mut back = [StateId::default(); 2];
            store.load(got, &mut back);
            assert_eq!(back, t);
        }
        assert_eq!(store.len(), seen.len());
        let used = store.shards.iter().filter(|s| s.len > 0).count();
        assert_eq!(used, SHARDS, "every shard gets keys");
    }
}
