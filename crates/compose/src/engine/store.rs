//! Visited-state stores: the set of discovered product tuples, numbered densely in discovery order.
//!
//! The store *is* the BFS queue: states are numbered in the order they are discovered, so "the next
//! state to expand" is just a counter, and a state costs its key plus one slot of the hash table.
//! Two layouts:
//! - [`PackedStore`]: when the bit widths of the components' state counts add up to at most 128, a
//!   tuple is packed into a bit string: one `u64` (8 bytes per state) up to 64 bits, three `u32`
//!   words (12 bytes) up to 96 bits, four (16 bytes) up to 128;
//! - [`WideStore`]: otherwise tuples are kept as `u32` slices in one flat arena (4 bytes per
//!   component per state).
//!
//! Both index their states with the same open-addressing table (linear probing, at most 3/4 full).
//! A packed store's slot holds the whole key next to the 32-bit state number (16 bytes up to 96
//! bits, 20 up to 128), so a lookup touches one cache line of the table and nothing else; the
//! wide store's slot holds the 64-bit hash instead, and a tag match is confirmed in the arena. An
//! earlier layout with 4-byte slots pointing into the key array was smaller but paid a second cache
//! miss per transition, which measured as half of the whole check's time; the wide store still pays
//! it, and hashing a 22-word tuple besides, which is why multi-word packed keys exist (dining N=10,
//! 68 bits in 22 components, ran at half the speed and twice the memory per state in the arena).
//!
//! Keys are hashed with a multiply-and-fold mixer (the `FxHash` idea, plus a fold of the high half)
//! and the table index is taken from the *high* bits of the product, which are the well-mixed ones.
//! A packed key keeps each component's field inside one 64-bit half (a field that would straddle
//! bit 64 starts the high half instead), so packing and unpacking are plain `u64` shifts.

use guarantor_lts::{Lts, StateId};

use crate::error::ComposeError;

/// Marks an empty slot of the table (in the state-number half).
pub(crate) const EMPTY: u32 = u32::MAX;

/// How many states are expanded before their successors are looked up. The lookups are cache
/// misses in a table far larger than the cache; issuing the first touch of every successor of a
/// whole batch before the first lookup lets about this many times more misses overlap than
/// looking up state by state (tx3: 0.74 s to 0.5 s per walk).
pub(crate) const BATCH: u32 = 16;

/// What a store must offer the exploration loops.
pub(crate) trait Store {
    /// What a walk keeps of a successor between enumerating it and looking it up: the packed key,
    /// or the hash for the wide store (which then needs the tuple too).
    type Key: Copy;
    /// How many states a walk expands before it looks their successors up ([`BATCH`] unless the
    /// store says otherwise).
    const BATCH: u32 = BATCH;
    /// Whether [`Store::insert_at`] reads the tuple; when false, callers may pass an empty slice
    /// and need not keep tuples.
    const NEEDS_TUPLE: bool;
    /// The hash and key of `tuple`.
    fn locate(&self, tuple: &[StateId]) -> (u64, Self::Key);
    /// Reads the first slot a lookup of `hash` visits and returns something of it, so that the
    /// cache miss overlaps with other work; the caller only folds the result into a value it
    /// discards.
    fn touch(&self, hash: u64) -> u64;
    /// Looks a tuple up by its [`Store::locate`] result (and the tuple itself if
    /// [`Store::NEEDS_TUPLE`]), adding it if it is new; returns its number and whether it was new.
    fn insert_at(
        &mut self,
        tuple: &[StateId],
        hash: u64,
        key: Self::Key,
    ) -> Result<(u32, bool), ComposeError>;
    /// Looks `tuple` up, adding it if it is new; returns its number and whether it was new.
    fn insert(&mut self, tuple: &[StateId]) -> Result<(u32, bool), ComposeError> {
        let (hash, key) = self.locate(tuple);
        self.insert_at(tuple, hash, key)
    }
    /// The number of `tuple`, if it is stored.
    fn find(&self, tuple: &[StateId]) -> Option<u32>;
    /// Writes the tuple of state `id` into `out`.
    fn load(&self, id: u32, out: &mut [StateId]);
    /// The number of stored states.
    fn len(&self) -> usize;
    /// Says that states numbered below `id` will not be loaded again (the walk has expanded
    /// them), so a store that keeps tuples only for the queue may drop theirs.
    fn release_below(&mut self, _id: u32) {}
    /// The most bytes the store has held at once for its tables and tuples (allocated capacity;
    /// a store that does not track its growth reports what it holds now).
    fn peak_bytes(&self) -> usize;
    /// The bytes the store's next growth allocates beside what it holds (a doubled table while
    /// the old one is still alive, a key vector copied into a larger block), for the memory
    /// budget ([`Budget::expect_growth`]); stores that grow in small steps say 0.
    ///
    /// [`Budget::expect_growth`]: crate::Budget::expect_growth
    fn growth_bytes(&self) -> usize {
        0
    }
}

/// `FxHash`'s multiplier.
pub(crate) const K: u64 = 0xf135_7aea_2e62_a9c5;

/// Mixes a 64-bit key (`FxHash`'s multiplier, then the high half folded onto the low half so that
/// every input bit reaches the top bits the table uses).
#[inline]
fn mix(key: u64) -> u64 {
    let h = key.wrapping_mul(K);
    (h ^ (h >> 29)).wrapping_mul(K)
}

/// A table slot: something that holds a state number (`EMPTY` when free).
pub(crate) trait Entry: Copy + std::fmt::Debug + Send + Sync {
    /// The free slot.
    const FREE: Self;
    /// The state number (`EMPTY` when free).
    fn id(&self) -> u32;
}

/// A slot holding a 64-bit tag (a packed key or a full hash) and a state number.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    tag: u64,
    id: u32,
}

impl Entry for Slot {
    const FREE: Self = Slot { tag: 0, id: EMPTY };
    #[inline]
    fn id(&self) -> u32 {
        self.id
    }
}

/// A slot holding a key of `N` 32-bit words and a state number: `4 * (N + 1)` bytes.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct WordsSlot<const N: usize> {
    key: [u32; N],
    id: u32,
}

impl<const N: usize> Entry for WordsSlot<N> {
    const FREE: Self = WordsSlot {
        key: [0; N],
        id: EMPTY,
    };
    #[inline]
    fn id(&self) -> u32 {
        self.id
    }
}

/// An open-addressing table of slots.
#[derive(Debug)]
pub(crate) struct Table<E> {
    slots: Vec<E>,
    /// `64 - log2(slots.len())`: the shift that turns a hash into a slot index.
    shift: u32,
}

impl<E: Entry> Table<E> {
    fn new() -> Self {
        Self::with_bits(10)
    }

    /// An empty table of `2^bits` slots.
    pub(crate) fn with_bits(bits: u32) -> Self {
        Self {
            slots: vec![E::FREE; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// Grows the table until `len + extra` entries fit under the 3/4 load factor; returns whether
    /// it grew.
    pub(crate) fn reserve(
        &mut self,
        len: usize,
        extra: usize,
        hash_of: impl Fn(&E) -> u64,
    ) -> bool {
        let mut grew = false;
        while (len + extra) * 4 > self.slots.len() * 3 {
            self.grow(&hash_of);
            grew = true;
        }
        grew
    }

    /// The slot holding the entry for which `eq` holds, if any.
    pub(crate) fn slot_mut(&mut self, hash: u64, eq: impl FnMut(&E) -> bool) -> Option<&mut E> {
        let i = self.probe_index(hash, eq).ok()?;
        Some(&mut self.slots[i])
    }

    /// Puts `entry` into the free slot where a lookup of `hash` ends, unless a slot for which `eq`
    /// holds comes first; returns the slot's index if it was put. The caller must have made room
    /// ([`Table::reserve`]): this never grows the table.
    pub(crate) fn put_new(
        &mut self,
        hash: u64,
        eq: impl FnMut(&E) -> bool,
        entry: E,
    ) -> Option<usize> {
        let i = self.probe_index(hash, eq).err()?;
        self.slots[i] = entry;
        Some(i)
    }

    /// The bytes of the slots.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * size_of::<E>()
    }

    /// The slot at `index`.
    pub(crate) fn slot_at_mut(&mut self, index: usize) -> &mut E {
        &mut self.slots[index]
    }

    /// Like [`Table::probe`], but returns the index of the matching slot.
    fn probe_index(&self, hash: u64, mut eq: impl FnMut(&E) -> bool) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        loop {
            let slot = &self.slots[i];
            if slot.id() == EMPTY {
                return Err(i);
            }
            if eq(slot) {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    pub(crate) fn start(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize
    }

    /// Finds the state of a slot for which `eq` holds, or the free slot where it belongs.
    #[inline]
    pub(crate) fn probe(&self, hash: u64, eq: impl FnMut(&E) -> bool) -> Result<u32, usize> {
        self.probe_index(hash, eq).map(|i| self.slots[i].id())
    }

    /// The slot a lookup of `hash` visits first.
    #[inline]
    pub(crate) fn first_slot(&self, hash: u64) -> &E {
        &self.slots[self.start(hash)]
    }

    /// Puts `entry` into the table (which must not hold it yet), growing first if one more state
    /// would pass the 3/4 load factor. `hash_of(slot)` recomputes a slot's hash.
    pub(crate) fn add(&mut self, len: usize, hash: u64, entry: E, hash_of: impl Fn(&E) -> u64) {
        if (len + 1) * 4 > self.slots.len() * 3 {
            self.grow(&hash_of);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        while self.slots[i].id() != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = entry;
    }

    /// Doubles the table, re-inserting every slot by its hash.
    fn grow(&mut self, hash_of: &impl Fn(&E) -> u64) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(&mut self.slots, vec![E::FREE; 1 << bits]);
        self.shift = 64 - bits;
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.id() != EMPTY) {
            let mut i = self.start(hash_of(&slot));
            while self.slots[i].id() != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

/// Checks that one more state still gets a 32-bit number (`EMPTY` is reserved).
pub(crate) fn next_id(len: usize) -> Result<u32, ComposeError> {
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

/// A packed key: a bit string of at most 128 bits, given as a low and a high `u64` half.
pub(crate) trait PackedKey: Copy + Eq + std::fmt::Debug + Send + Sync {
    /// The table slot holding such a key.
    type Slot: Entry;
    /// How many bits the key holds.
    const BITS: u32;
    /// The key of the halves `lo` and `hi` (which fit in [`Self::BITS`]).
    fn from_halves(lo: u64, hi: u64) -> Self;
    /// The halves of the key.
    fn halves(self) -> (u64, u64);
    /// The hash of the key.
    fn hash(self) -> u64;
    /// A slot holding the key and state `id`.
    fn slot(self, id: u32) -> Self::Slot;
    /// The key held by `slot`.
    fn key_of(slot: &Self::Slot) -> Self;
}

impl PackedKey for u64 {
    type Slot = Slot;
    const BITS: u32 = 64;
    #[inline]
    fn from_halves(lo: u64, _: u64) -> Self {
        lo
    }
    #[inline]
    fn halves(self) -> (u64, u64) {
        (self, 0)
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }
    #[inline]
    fn slot(self, id: u32) -> Slot {
        Slot { tag: self, id }
    }
    #[inline]
    fn key_of(slot: &Slot) -> Self {
        slot.tag
    }
}

/// Keys of three or four 32-bit words (the low half first, low word first).
impl<const N: usize> PackedKey for [u32; N] {
    type Slot = WordsSlot<N>;
    const BITS: u32 = 32 * N as u32;
    #[inline]
    fn from_halves(lo: u64, hi: u64) -> Self {
        std::array::from_fn(|i| match i {
            0 => lo as u32,
            1 => (lo >> 32) as u32,
            2 => hi as u32,
            _ => (hi >> 32) as u32,
        })
    }
    #[inline]
    fn halves(self) -> (u64, u64) {
        let word = |i: usize| u64::from(self.get(i).copied().unwrap_or(0));
        (word(0) | word(1) << 32, word(2) | word(3) << 32)
    }
    #[inline]
    fn hash(self) -> u64 {
        let (lo, hi) = self.halves();
        mix(lo ^ hi.wrapping_mul(K).rotate_left(32))
    }
    #[inline]
    fn slot(self, id: u32) -> WordsSlot<N> {
        WordsSlot { key: self, id }
    }
    #[inline]
    fn key_of(slot: &WordsSlot<N>) -> Self {
        slot.key
    }
}

/// Where each component's field lies in a packed tuple: the one packing layout of the crate, used
/// by the table stores here and by the compact store ([`crate::engine::compact`]). The fields that fit in
/// 64 bits come first (the low half, at their shifts from bit 0), the rest in the high half (at
/// their shifts from its bit 0), so that packing and unpacking are plain `u64` shifts.
#[derive(Clone, Debug)]
pub(crate) struct Fields {
    /// Bit offset of each component's field within its half.
    shifts: Vec<u32>,
    /// Mask of each component's field (after shifting down).
    masks: Vec<u64>,
    /// The components from this index on live in the high half.
    split: usize,
    /// The bits of the low half's fields, and of the high half's.
    low_bits: u32,
    high_bits: u32,
}

impl Fields {
    /// Lays out the fields of `components` in order, starting the high half at the first field
    /// that does not fit in the low one, or at `force_split` if given (tests use it to put fields
    /// in the high half of small systems).
    pub(crate) fn layout(components: &[&Lts], force_split: Option<usize>) -> Self {
        let mut shifts = Vec::with_capacity(components.len());
        let mut masks = Vec::with_capacity(components.len());
        let mut split = components.len();
        let (mut low_bits, mut high_bits) = (0u32, 0u32);
        for (i, c) in components.iter().enumerate() {
            let bits = usize::BITS - (c.num_states().max(1) - 1).leading_zeros();
            if split == components.len() && (low_bits + bits > 64 || force_split == Some(i)) {
                split = i;
            }
            let half = if split <= i {
                &mut high_bits
            } else {
                &mut low_bits
            };
            shifts.push(*half);
            masks.push(if bits == 0 {
                0
            } else {
                u64::MAX >> (64 - bits)
            });
            *half += bits;
        }
        Self {
            shifts,
            masks,
            split,
            low_bits,
            high_bits,
        }
    }

    /// [`Fields::layout`] for a table store's key, `None` if it would take more than 128 bits.
    pub(crate) fn plan(components: &[&Lts], force_split: Option<usize>) -> Option<Self> {
        let fields = Self::layout(components, force_split);
        (fields.bits() <= 128).then_some(fields)
    }

    /// The bits a key needs, the high half counted from bit 64 (so at most 64 without a high
    /// half).
    pub(crate) fn bits(&self) -> u32 {
        if self.split < self.shifts.len() {
            64 + self.high_bits
        } else {
            self.low_bits
        }
    }

    /// The bits the fields take, without the gap a high half leaves.
    pub(crate) fn packed_bits(&self) -> u32 {
        self.low_bits + self.high_bits
    }

    /// The bits of the low half's fields.
    pub(crate) fn low_bits(&self) -> u32 {
        self.low_bits
    }

    /// The hash and packed key of `tuple`.
    #[inline]
    pub(crate) fn key<P: PackedKey>(&self, tuple: &[StateId]) -> (u64, P) {
        let (lo, hi) = self.pack(tuple);
        let key = P::from_halves(lo, hi);
        (key.hash(), key)
    }

    /// The two halves of `tuple`.
    #[inline]
    pub(crate) fn pack(&self, tuple: &[StateId]) -> (u64, u64) {
        let split = self.split.min(tuple.len());
        (
            self.pack_part(tuple, 0, split),
            self.pack_part(tuple, split, tuple.len()),
        )
    }

    /// Writes the tuple of the halves `(lo, hi)` into `out`.
    #[inline]
    pub(crate) fn unpack(&self, (lo, hi): (u64, u64), out: &mut [StateId]) {
        let split = self.split.min(out.len());
        self.unpack_part(lo, out, 0, split);
        self.unpack_part(hi, out, split, out.len());
    }

    /// Packs the fields `from..to` of `tuple` (all in one half) at their shifts.
    #[inline]
    pub(crate) fn pack_part(&self, tuple: &[StateId], from: usize, to: usize) -> u64 {
        let fields = tuple[from..to].iter().zip(&self.shifts[from..to]);
        // A field of no bits may sit at shift 64 (a full low half): wrapping keeps it 0.
        fields.fold(0, |k, (s, &sh)| k | u64::from(s.as_u32()).wrapping_shl(sh))
    }

    /// Unpacks the fields `from..to` of `out` from `part`, the half they are in.
    #[inline]
    pub(crate) fn unpack_part(&self, part: u64, out: &mut [StateId], from: usize, to: usize) {
        let fields = out[from..to].iter_mut().zip(&self.shifts[from..to]);
        for ((o, &sh), &m) in fields.zip(&self.masks[from..to]) {
            *o = StateId::from_u32((part.wrapping_shr(sh) & m) as u32);
        }
    }
}

/// Tuples packed into keys of type `P` (see the module docs).
#[derive(Debug)]
pub(crate) struct PackedStore<P: PackedKey> {
    keys: Vec<P>,
    table: Table<P::Slot>,
    fields: Fields,
}

impl<P: PackedKey> PackedStore<P> {
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
            table: Table::new(),
            fields,
        }
    }
}

impl<P: PackedKey> PackedStore<P> {
    /// Whether the packed key is stored.
    #[inline]
    pub(crate) fn contains_key(&self, key: P) -> bool {
        self.table
            .probe(key.hash(), |s| P::key_of(s) == key)
            .is_ok()
    }
}

impl<P: PackedKey> Store for PackedStore<P> {
    type Key = P;
    const NEEDS_TUPLE: bool = false;

    #[inline]
    fn locate(&self, tuple: &[StateId]) -> (u64, P) {
        self.fields.key(tuple)
    }

    #[inline]
    fn touch(&self, hash: u64) -> u64 {
        u64::from(self.table.slots[self.table.start(hash)].id())
    }

    #[inline]
    fn insert_at(&mut self, _: &[StateId], hash: u64, key: P) -> Result<(u32, bool), ComposeError> {
        if let Ok(id) = self.table.probe(hash, |s| P::key_of(s) == key) {
            return Ok((id, false));
        }
        let id = next_id(self.keys.len())?;
        self.table
            .add(self.keys.len(), hash, key.slot(id), |s| P::key_of(s).hash());
        self.keys.push(key);
        Ok((id, true))
    }

    fn find(&self, tuple: &[StateId]) -> Option<u32> {
        let (hash, key) = self.locate(tuple);
        self.table.probe(hash, |s| P::key_of(s) == key).ok()
    }

    #[inline]
    fn load(&self, id: u32, out: &mut [StateId]) {
        self.fields.unpack(self.keys[id as usize].halves(), out);
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn peak_bytes(&self) -> usize {
        self.keys.capacity() * size_of::<P>() + self.table.bytes()
    }

    fn growth_bytes(&self) -> usize {
        // A vector that outgrows its block may be copied (the allocator moves blocks below its
        // mmap threshold, up to 32 MB), old and new alive at once.
        2 * self.table.bytes() + self.keys.capacity() * size_of::<P>()
    }
}

/// Tuples stored as `u32` slices of one flat arena.
#[derive(Debug)]
pub(crate) struct WideStore {
    arena: Vec<u32>,
    width: usize,
    len: usize,
    table: Table<Slot>,
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

    fn probe(&self, tuple: &[StateId], hash: u64) -> Result<u32, usize> {
        self.table.probe(hash, |slot| {
            slot.tag == hash
                && self
                    .row(slot.id)
                    .iter()
                    .zip(tuple)
                    .all(|(&w, s)| w == s.as_u32())
        })
    }
}

impl Store for WideStore {
    type Key = u64;
    const NEEDS_TUPLE: bool = true;

    fn locate(&self, tuple: &[StateId]) -> (u64, u64) {
        let hash = Self::hash(tuple.iter().map(|s| s.as_u32()));
        (hash, hash)
    }

    fn touch(&self, hash: u64) -> u64 {
        self.table.slots[self.table.start(hash)].tag
    }

    fn insert_at(
        &mut self,
        tuple: &[StateId],
        hash: u64,
        _: u64,
    ) -> Result<(u32, bool), ComposeError> {
        if let Ok(id) = self.probe(tuple, hash) {
            return Ok((id, false));
        }
        let id = next_id(self.len)?;
        self.table
            .add(self.len, hash, Slot { tag: hash, id }, |s| s.tag);
        self.arena.extend(tuple.iter().map(|s| s.as_u32()));
        self.len += 1;
        Ok((id, true))
    }

    fn find(&self, tuple: &[StateId]) -> Option<u32> {
        let (hash, _) = self.locate(tuple);
        self.probe(tuple, hash).ok()
    }

    fn load(&self, id: u32, out: &mut [StateId]) {
        for (o, &w) in out.iter_mut().zip(self.row(id)) {
            *o = StateId::from_u32(w);
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn peak_bytes(&self) -> usize {
        self.arena.capacity() * size_of::<u32>() + self.table.bytes()
    }

    fn growth_bytes(&self) -> usize {
        2 * self.table.bytes() + self.arena.capacity() * size_of::<u32>()
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
            assert_eq!(store.find(&t), Some(id));
            let mut back = [StateId::default(); 3];
            store.load(id, &mut back);
            assert_eq!(back, t);
        }
        assert_eq!(store.len(), distinct.len());
        assert_eq!(
            store.find(&[StateId::must(6), StateId::must(0), StateId::must(1)]),
            None
        );
    }

    fn one(n: usize) -> Lts {
        let mut b = guarantor_lts::LtsBuilder::new();
        b.ensure_states(n).unwrap();
        b.build().unwrap()
    }

    #[test]
    fn wide_store_numbers_tuples_once() {
        exercise(&mut WideStore::new(3));
    }

    #[test]
    fn packed_stores_number_tuples_once() {
        let (a, b, c) = (one(7), one(13), one(3000));
        let fields = Fields::plan(&[&a, &b, &c], None).unwrap();
        assert_eq!(fields.bits(), 3 + 4 + 12);
        exercise(&mut PackedStore::<u64>::new(fields));
        // Fields in the high half of three- and four-word keys.
        for split in [1, 2] {
            let fields = Fields::plan(&[&a, &b, &c], Some(split)).unwrap();
            assert!(fields.bits() > 64 && fields.bits() <= 96);
            exercise(&mut PackedStore::<[u32; 3]>::new(fields.clone()));
            exercise(&mut PackedStore::<[u32; 4]>::new(fields));
        }
    }

    #[test]
    fn fields_never_straddle_the_halves() {
        let big = one(1 << 22); // 22 bits each
        let f = Fields::plan(&[&big, &big, &big], None).unwrap();
        assert_eq!((f.split, f.bits()), (2, 64 + 22));
        let f = Fields::plan(&[&big; 4], None).unwrap();
        assert_eq!((f.split, f.bits()), (2, 64 + 44));
        // 5 x 22 = 110 bits, but not straddling bit 64 takes 64 + 66.
        assert!(Fields::plan(&[&big; 5], None).is_none());
        let mut store = PackedStore::<[u32; 3]>::new(Fields::plan(&[&big; 3], None).unwrap());
        let t = [
            StateId::must((1 << 22) - 1),
            StateId::must(5),
            StateId::must((1 << 22) - 2),
        ];
        let (id, _) = store.insert(&t).unwrap();
        let mut back = [StateId::default(); 3];
        store.load(id, &mut back);
        assert_eq!(back, t);
    }
}
