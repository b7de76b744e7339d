//! The compact visited-state store, the default of the safety and deadlock searches: 8-13 bytes
//! per state, for searches that never ask the number of a state they have already expanded.
//!
//! The table store ([`PackedStore`]) keeps each packed tuple twice, in the key array that doubles
//! as the queue and in its table slot beside the state's number, at most 3/4 full: 40-70 bytes per
//! state once growth is counted. This store keeps each state once, in one 8-byte slot, and
//! forgets tuples once they are expanded. (`LTSmin`'s tree compression, the other well-known scheme,
//! also ends near one 8-byte root entry per state, plus its shared subtrees; it pays off on long
//! state vectors of which a step changes little, while the tuples here pack into one or two
//! words.)
//!
//! - **Compact hashing (Cleary 1984).** A tuple is packed into its `b` bits (laid out as the
//!   table stores lay out their keys, [`Fields`]) and mapped by a
//!   *bijection* `H` of the `b`-bit integers (multiply by an odd constant and xor-shift, twice,
//!   all modulo `2^b`). Because `H` is a bijection, storing `H(key)` identifies the tuple, and
//!   the bits that say *where* it is stored need not be stored: the top 8 bits of `H` pick one of
//!   [`SUBTABLES`] sub-tables, the next 32 bits `T` pick the home slot `T * m / 2^32` of that
//!   sub-table's `m` slots, and the slot keeps only `T`'s low `j` bits (enough to recover `T`
//!   from its home, see [`SubTable::recover`]) and `H`'s remaining bits. Dining philosophers
//!   with N = 10 packs into 68 bits; a slot of its final sub-tables holds 48 of them (20 of `T`
//!   and the 28 below) beside its displacement.
//! - **Robin Hood linear probing** with the displacement from the home slot in the slot's low 8
//!   bits (0 marks a free slot), so the home of every stored entry is known and probes stay
//!   short at high load. A probe longer than 254 grows the sub-table.
//! - **Slots of as few bytes as they need**: `T`'s kept bits, the rest of `H` and the
//!   displacement, rounded up to whole bytes (6 for a 58-bit tuple, 7 for 68, 8 for 74), read
//!   as a `u64` and masked.
//! - **Growth by a quarter, one sub-table at a time.** A sub-table's size need not be a power of
//!   two (the home is `T * m / 2^32`), so it grows by 25 % when it passes 80 % load; its entries
//!   move straight from the old slots into the new ones, which are then freed, so only one
//!   sub-table (1/256 of the store) per thread is ever held twice. (An earlier version copied
//!   them into a scratch buffer first: 16 bytes per entry, more than the old slots, and one
//!   buffer per thread once growth ran on several.) Loads stay between 64 % and 80 % whatever the number of states
//!   (a power-of-two table would swing between 40 % and 80 %, and double during growth). Higher
//!   loads were measured too: at 92 % (growth by an eighth) the tables are 10 % smaller but the
//!   search was 35 % slower on the gas station family, Robin Hood's insertions moving long runs.
//! - **The queue holds only the frontier.** States are still numbered in discovery order and
//!   expanded in that order, but the packed tuples wait in a queue of fixed-size blocks that the
//!   walk trims as it moves on ([`Store::release_below`]); a breadth-first frontier is a small
//!   part of the space (1-2 bytes per state on the model families).
//! - **On every thread.** The sub-tables fall into [`SHARDS`] shards of consecutive ones
//!   ([`TableShard`]), which the parallel walk (`explore::parallel`) hands out one thread per
//!   shard while a slab's successors are inserted, without locks ([`SlabStore`]); a slot holds no
//!   state number, so the walk's renumbering phase has nothing to do here, and the walk appends
//!   the discoveries to the queue in the one-thread walk's order, so numbers, verdicts, counts and
//!   counterexamples are the same on any number of threads.
//!
//! Measured on the model families at their large sizes (docs/benchmarks.md, "Compact storage"):
//! 12-15 bytes per state of peak resident memory on one thread (the process's whole peak, divided
//! by the states), against 55-72 with the table store, at 1.0-1.2 times the table store's time;
//! 14-17 on two threads (slab buffers and a second allocator arena), at 1.3-1.6 times the sharded
//! table store's time, whose 64 small tables gain more from two threads than these sub-tables.
//!
//! Tuples wider than [`MAX_BITS`] (74) bits would leave too few bits of a 64-bit slot for the
//! smallest sub-tables; they take the table store (see `Config::storage`).
//!
//! What it gives up: a lookup of a state that was expanded earlier says "seen" without its number
//! ([`FORGOTTEN`]), so walks whose visitors record edges (the eager composition) or look states up
//! by number (depth-first search, progress) keep the table store. The searches that use this store
//! find their counterexample with a second, parent-recording walk that stops at the violation
//! (`explore::search`), so nothing here is needed for a trace.
//!
//! [`PackedStore`]: crate::engine::store::PackedStore

use std::collections::VecDeque;

use guarantor_lts::{Lts, StateId};

use crate::engine::sharded::{SHARDS, SlabStore};
use crate::engine::store::{EMPTY, Fields, Store, next_id};
use crate::error::ComposeError;

/// The number a lookup returns for a stored state whose number the store has forgotten (it was
/// expanded; see the module docs).
pub(crate) const FORGOTTEN: u32 = EMPTY;

/// Sub-tables per store (`2^SUB_BITS`): the top bits of `H` choose one.
pub(crate) const SUBTABLES: usize = 1 << SUB_BITS;
const SUB_BITS: u32 = 8;

/// The bits of `H` after the sub-table's that choose the home slot.
const HOME_BITS: u32 = 32;

/// Bits of a slot holding the displacement plus one (0: free).
const DISPLACEMENT_BITS: u32 = 8;
const MAX_DISPLACEMENT: u64 = (1 << DISPLACEMENT_BITS) - 2;

/// A sub-table grows when more than `LOAD_NUM / LOAD_DEN` of its slots are used.
const LOAD_NUM: usize = 4;
const LOAD_DEN: usize = 5;

/// A sub-table grows by `1 / GROWTH` of its size.
const GROWTH: usize = 4;

/// The widest packed tuple this store takes: wider ones leave too few bits in a slot for the
/// smallest sub-tables (see [`CompactStore::new`]).
pub(crate) const MAX_BITS: u32 = 74;

/// A packed tuple in a machine word: `u64` when it fits, `u128` otherwise (packing, unpacking
/// and mixing in 64-bit arithmetic where they can is most of this store's speed).
pub(crate) trait Word: Copy + Eq + std::fmt::Debug + Send + Sync {
    /// The bits the word holds.
    const BITS: u32;
    /// The packed `tuple`.
    fn pack(fields: &Fields, tuple: &[StateId]) -> Self;
    /// Writes the tuple back into `out`.
    fn unpack(self, fields: &Fields, out: &mut [StateId]);
    /// `H` of the packed tuple (see [`Mixer`]).
    fn mix(self, mixer: Mixer) -> u128;
}

impl Word for u64 {
    const BITS: u32 = 64;
    #[inline]
    fn pack(fields: &Fields, tuple: &[StateId]) -> Self {
        fields.pack_part(tuple, 0, tuple.len())
    }
    #[inline]
    fn unpack(self, fields: &Fields, out: &mut [StateId]) {
        fields.unpack_part(self, out, 0, out.len());
    }
    #[inline]
    fn mix(self, mixer: Mixer) -> u128 {
        let mask = mixer.mask as u64;
        let mut x = self.wrapping_mul(Mixer::C1 as u64) & mask;
        x ^= x >> mixer.shift;
        x = x.wrapping_mul(Mixer::C2 as u64) & mask;
        u128::from(x ^ (x >> mixer.shift))
    }
}

impl Word for u128 {
    const BITS: u32 = 128;
    #[inline]
    fn pack(fields: &Fields, tuple: &[StateId]) -> Self {
        let (low, high) = fields.pack(tuple);
        u128::from(low) | u128::from(high) << 64
    }
    #[inline]
    fn unpack(self, fields: &Fields, out: &mut [StateId]) {
        fields.unpack((self as u64, (self >> 64) as u64), out);
    }
    /// In 64-bit arithmetic: the low part `lo` (its `low_bits`) takes a multiple of the high
    /// part `hi` and is then mixed as a word of `low_bits` bits, both bijective for a given
    /// `hi`; `H` is the mixed low part with `hi` below it, so the top 40 bits, which choose the
    /// sub-table and home, depend on every field (the store takes wide tuples only when their
    /// low part has at least 40 bits).
    #[inline]
    fn mix(self, mixer: Mixer) -> u128 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        let low_mask = mixer.low_mask;
        let lo = (lo ^ hi.wrapping_mul(Mixer::C2 as u64)) & low_mask;
        let mut x = lo.wrapping_mul(Mixer::C1 as u64) & low_mask;
        x ^= x >> mixer.low_shift;
        x = x.wrapping_mul(Mixer::C2 as u64) & low_mask;
        x ^= x >> mixer.low_shift;
        u128::from(x) << mixer.high_bits | u128::from(hi)
    }
}

/// The queue of unexpanded states' packed tuples, in blocks of [`Frontier::BLOCK`] so that it
/// holds the frontier and at most two blocks more (a growing `VecDeque` would hold up to twice
/// the frontier, and three times while it copies).
#[derive(Debug)]
struct Frontier<Q> {
    blocks: VecDeque<Vec<Q>>,
    /// Entries of the first block already released.
    head: usize,
    /// Keys queued.
    len: usize,
    /// An emptied block kept for the next push.
    spare: Option<Vec<Q>>,
}

impl<Q: Word> Frontier<Q> {
    const BLOCK: usize = 1 << 13;

    fn new() -> Self {
        Self {
            blocks: VecDeque::new(),
            head: 0,
            len: 0,
            spare: None,
        }
    }

    fn push(&mut self, key: Q) {
        if self.blocks.back().is_none_or(|b| b.len() == Self::BLOCK) {
            let block = self
                .spare
                .take()
                .unwrap_or_else(|| Vec::with_capacity(Self::BLOCK));
            self.blocks.push_back(block);
        }
        if let Some(block) = self.blocks.back_mut() {
            block.push(key);
            self.len += 1;
        }
    }

    /// The `i`-th queued key.
    #[inline]
    fn get(&self, i: usize) -> Q {
        let at = self.head + i;
        self.blocks[at / Self::BLOCK][at % Self::BLOCK]
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Drops the first `n` keys.
    fn release(&mut self, n: usize) {
        self.head += n;
        self.len -= n;
        while self.head >= Self::BLOCK {
            self.head -= Self::BLOCK;
            if let Some(mut block) = self.blocks.pop_front() {
                block.clear();
                self.spare = Some(block);
            }
        }
    }

    fn bytes(&self) -> usize {
        let blocks = self.blocks.len() + usize::from(self.spare.is_some());
        blocks * Self::BLOCK * size_of::<Q>()
    }
}

/// A bijection of the `bits`-bit integers that spreads every input bit over the top bits (see
/// [`Word::mix`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mixer {
    /// `2^bits - 1`, and the xor-shift, for tuples of at most 64 bits.
    mask: u128,
    shift: u32,
    /// For wider tuples: the high part's bits, the low part's mask and xor-shift.
    high_bits: u32,
    low_mask: u64,
    low_shift: u32,
}

impl Mixer {
    // Multiplying by an odd constant and `x ^= x >> s` (s >= 1) are each invertible modulo
    // `2^bits`, so two rounds of both are a bijection.
    const C1: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;
    const C2: u128 = 0xd6e8_feb8_6659_fd93_2545_f491_4f6c_dd1d;

    fn new(fields: &Fields) -> Self {
        let (low_bits, bits) = (fields.low_bits(), fields.packed_bits());
        Self {
            mask: (1u128 << bits) - 1,
            shift: bits.div_ceil(2).max(1),
            high_bits: bits - low_bits,
            low_mask: if low_bits >= 64 {
                u64::MAX
            } else {
                (1 << low_bits) - 1
            },
            low_shift: low_bits.div_ceil(2).max(1),
        }
    }
}

/// Where a tuple lives: its sub-table, the 32 bits `T` that choose the home slot, and the rest
/// of `H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    sub: u32,
    home_bits: u32,
    rest: u64,
}

/// One sub-table: `m` slots of `fingerprint << 8 | displacement + 1`, each `stride` bytes
/// (little-endian, as few as the fingerprint needs: see [`SubTable::with_slots`]).
#[derive(Debug)]
struct SubTable {
    /// The slots back to back, and 8 bytes more so that every slot can be read as a `u64`.
    bytes: Vec<u8>,
    m: usize,
    stride: usize,
    /// The bits of a slot, as a mask of the `u64` read at its first byte.
    mask: u64,
    /// Slots per 64-byte cache line (rounded down).
    line_slots: usize,
    len: usize,
    /// Bits of `T` kept in a slot: `33 - floor(log2 m)`, enough to tell apart the values of `T`
    /// that share a home.
    t_bits: u32,
    /// `(2^64 - 1) / m`, for [`SubTable::recover`].
    reciprocal: u64,
}

/// An entry on its way into a sub-table: fingerprint and displacement from its home.
#[derive(Clone, Copy, Debug)]
struct Moving {
    fingerprint: u64,
    displacement: u64,
}

impl SubTable {
    /// A sub-table of `m` free slots for fingerprints with `rest_bits` bits of `H` below `T`
    /// (`m` large enough that a slot fits in 64 bits, see [`CompactStore::new`]). A slot takes the bytes its bits
    /// need: `T`'s kept bits, the rest and the displacement (7 bytes for dining philosophers
    /// at N = 10, 6 for the 58-bit client-server and MER families); reading 8 bytes and masking
    /// costs about nothing beside the cache misses that fewer bytes save.
    fn with_slots(m: usize, rest_bits: u32) -> Self {
        let t_bits = 33 - m.max(1).ilog2();
        let bits = t_bits + rest_bits + DISPLACEMENT_BITS;
        let stride = bits.div_ceil(8) as usize;
        Self {
            bytes: vec![0; m * stride + 8],
            m,
            stride,
            mask: if stride == 8 {
                u64::MAX
            } else {
                (1 << (8 * stride)) - 1
            },
            line_slots: 64 / stride,
            len: 0,
            t_bits,
            reciprocal: u64::MAX / m.max(1) as u64,
        }
    }

    /// A sub-table of no slots, in the place of one being rebuilt. (Not `with_slots(0, ..)`:
    /// a slot of a table that small would need more than 64 bits.)
    fn placeholder() -> Self {
        Self {
            bytes: Vec::new(),
            m: 0,
            stride: 8,
            mask: u64::MAX,
            line_slots: 8,
            len: 0,
            t_bits: 0,
            reciprocal: 0,
        }
    }

    #[inline]
    fn word_at(&self, at: usize) -> u64 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&self.bytes[at..at + 8]);
        u64::from_le_bytes(word)
    }

    /// The slot at `pos`.
    #[inline]
    fn get(&self, pos: usize) -> u64 {
        self.word_at(pos * self.stride) & self.mask
    }

    /// Sets the slot at `pos`, leaving the bytes after it as they are.
    #[inline]
    fn set(&mut self, pos: usize, slot: u64) {
        let at = pos * self.stride;
        let word = (self.word_at(at) & !self.mask) | slot;
        self.bytes[at..at + 8].copy_from_slice(&word.to_le_bytes());
    }

    /// The stored slots with their positions.
    fn stored(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (0..self.m)
            .map(|pos| (pos, self.get(pos)))
            .filter(|&(_, e)| e != 0)
    }

    #[inline]
    fn home(&self, home_bits: u32) -> usize {
        ((u64::from(home_bits) * self.m as u64) >> HOME_BITS) as usize
    }

    #[inline]
    fn fingerprint(&self, place: Place, rest_bits: u32) -> u64 {
        let t = u64::from(place.home_bits) & ((1 << self.t_bits) - 1);
        t << rest_bits | place.rest
    }

    /// `T` from its home and its low `t_bits` bits. The `T` with `T * m / 2^32 = home` form an
    /// interval of at most `2^32 / m + 1` values starting at `first = ceil(home * 2^32 / m)`;
    /// `base`, computed with the reciprocal instead of a division (growing a table recovers
    /// every entry), is at most 3 below `first`, and `2^t_bits >= 2^33 / m` is at least that
    /// interval plus 3 (sub-tables stay far below 2^30 slots), so exactly one value at or above
    /// `base` and below `base + 2^t_bits` has those low bits.
    fn recover(&self, home: usize, low: u64) -> u32 {
        let base = ((home as u128 * u128::from(self.reciprocal)) >> HOME_BITS) as u64;
        let mask = (1u64 << self.t_bits) - 1;
        let t = base + (low.wrapping_sub(base) & mask);
        debug_assert_eq!(self.home(t as u32), home);
        t as u32
    }

    #[inline]
    fn next(&self, pos: usize) -> usize {
        if pos + 1 == self.m { 0 } else { pos + 1 }
    }

    /// Looks `fingerprint` up from `home`: `Ok` if stored, else the first slot and displacement
    /// where Robin Hood puts it.
    #[inline]
    fn probe(&self, home: usize, fingerprint: u64) -> Result<(), (usize, u64)> {
        let mut pos = home;
        let mut d = 0u64;
        loop {
            let e = self.get(pos);
            if e == 0 {
                return Err((pos, d));
            }
            let ed = (e & 0xff) - 1;
            if ed == d && e >> DISPLACEMENT_BITS == fingerprint {
                return Ok(());
            }
            if ed < d {
                return Err((pos, d));
            }
            d += 1;
            pos = self.next(pos);
        }
    }

    /// Puts `entry` at `pos` (where its displacement is `entry.displacement`), moving the
    /// entries it displaces on; returns the entry left without a slot if a displacement would
    /// pass [`MAX_DISPLACEMENT`] (with the slot it was evicted from).
    fn place(&mut self, mut pos: usize, mut entry: Moving) -> Option<(usize, Moving)> {
        loop {
            if entry.displacement > MAX_DISPLACEMENT {
                return Some((pos, entry));
            }
            let e = self.get(pos);
            let mine = entry.fingerprint << DISPLACEMENT_BITS | (entry.displacement + 1);
            if e == 0 {
                self.set(pos, mine);
                return None;
            }
            let ed = (e & 0xff) - 1;
            if ed < entry.displacement {
                self.set(pos, mine);
                entry = Moving {
                    fingerprint: e >> DISPLACEMENT_BITS,
                    displacement: ed,
                };
            }
            entry.displacement += 1;
            pos = self.next(pos);
        }
    }

    /// Puts `entries` (given by `T` and the rest of `H`) into this empty sub-table; false if a
    /// probe grew too long.
    fn fill(&mut self, entries: impl Iterator<Item = (u32, u64)>, rest_bits: u32) -> bool {
        let mut len = 0;
        for (t, rest) in entries {
            let place = Place {
                sub: 0,
                home_bits: t,
                rest,
            };
            let moving = Moving {
                fingerprint: self.fingerprint(place, rest_bits),
                displacement: 0,
            };
            if self.place(self.home(t), moving).is_some() {
                return false;
            }
            len += 1;
        }
        self.len = len;
        true
    }

    /// Every stored entry (and `homeless`) as its `T` and the rest of its `H`.
    fn entries(
        &self,
        homeless: Option<(usize, Moving)>,
        rest_bits: u32,
    ) -> impl Iterator<Item = (u32, u64)> + '_ {
        let rest_mask = (1u64 << rest_bits) - 1;
        self.stored()
            .map(|(pos, e)| {
                let moving = Moving {
                    fingerprint: e >> DISPLACEMENT_BITS,
                    displacement: (e & 0xff) - 1,
                };
                (pos, moving)
            })
            .chain(homeless)
            .map(move |(pos, entry)| {
                let home = self.home_of(pos, entry.displacement);
                let t = self.recover(home, entry.fingerprint >> rest_bits);
                (t, entry.fingerprint & rest_mask)
            })
    }

    /// The home of an entry found at `pos` with this displacement.
    fn home_of(&self, pos: usize, displacement: u64) -> usize {
        // A displacement is below m: a run of entries never wraps the whole table, which always
        // has free slots.
        let d = displacement as usize;
        if pos >= d { pos - d } else { pos + self.m - d }
    }
}

/// Where a packed tuple lives ([`Place`]): what the store and each of its shards need to
/// compute it (a shard recomputes it from the packed tuple, which is all a slab keeps).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placer {
    mixer: Mixer,
    /// `H`'s bits (at least `SUB_BITS + HOME_BITS`: narrower tuples are shifted up).
    h_bits: u32,
    /// The packed tuple's bits.
    bits: u32,
    /// `H`'s bits below the sub-table's and `T`'s, kept whole in a slot.
    rest_bits: u32,
}

impl Placer {
    #[inline]
    fn place<Q: Word>(self, packed: Q) -> Place {
        let h = packed.mix(self.mixer) << (self.h_bits - self.bits);
        Place {
            sub: (h >> (self.h_bits - SUB_BITS)) as u32,
            home_bits: (h >> self.rest_bits) as u32,
            rest: (h & ((1u128 << self.rest_bits) - 1)) as u64,
        }
    }
}

/// Sub-tables per shard of the parallel walk: the [`SUBTABLES`] sub-tables fall into
/// [`SHARDS`] groups of consecutive ones, each owned by one thread while a slab inserts its
/// successors (`explore::parallel`).
const PER_SHARD: usize = SUBTABLES / SHARDS;

/// The sub-tables one thread owns in a phase of the parallel walk (and that the one-thread walk
/// reaches through its sub-table's number).
#[derive(Debug)]
pub(crate) struct TableShard {
    tables: [SubTable; PER_SHARD],
    /// How a packed tuple maps to its place (and how many bits of `H` a slot keeps whole).
    placer: Placer,
    /// The largest sub-table held beside its replacement since the store last looked
    /// ([`CompactStore::note_growth`]): 0 if none grew.
    transient: usize,
    /// Whether the shard's sub-tables have outgrown [`TableShard::CACHED`], so that the
    /// parallel walk's lookups are worth touching first.
    large: bool,
}

impl TableShard {
    /// The most bytes of sub-tables a shard may hold for its lookups to find them in a core's
    /// cache (2 MB of L2 per core here): the parallel walk then probes without touching first,
    /// which on tx3 (115 KB per shard) was a mix and two loads per successor for nothing (the
    /// two-thread time went from 0.71-0.74 s to 0.65-0.69 s, within this machine's noise).
    const CACHED: usize = 1 << 20;

    fn new(min_log: u32, placer: Placer) -> Self {
        Self {
            tables: std::array::from_fn(|_| SubTable::with_slots(1 << min_log, placer.rest_bits)),
            placer,
            transient: 0,
            large: false,
        }
    }

    #[inline]
    fn table(&self, sub: u32) -> &SubTable {
        &self.tables[sub as usize % PER_SHARD]
    }

    fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.bytes.len()).sum()
    }

    /// Grows sub-table `t` by a quarter, re-inserting its entries and `homeless` (an entry left
    /// without a slot, with the slot where its probe ended) straight from the old slots, which
    /// are then freed: one sub-table (1/256 of the store) per thread is held twice at a time,
    /// and nothing else. (Copying the entries out first, to free the old slots before taking
    /// the new ones, was measured too: on two threads it left the process 1.5-2 MB larger on
    /// Client-Server N = 16, and 0.3 MB smaller on one.)
    fn grow(&mut self, t: usize, homeless: Option<(usize, Moving)>) {
        let rest_bits = self.placer.rest_bits;
        let old = std::mem::replace(&mut self.tables[t], SubTable::placeholder());
        let mut size = old.m + old.m.div_ceil(GROWTH);
        loop {
            let mut table = SubTable::with_slots(size, rest_bits);
            if table.fill(old.entries(homeless, rest_bits), rest_bits) {
                self.transient = self.transient.max(old.bytes.len());
                self.tables[t] = table;
                self.large = self.bytes() > Self::CACHED;
                return;
            }
            // A probe of 255 slots right after growing: very unlikely; grow more.
            size += size.div_ceil(2);
        }
    }

    /// Adds the tuple at `place` (which belongs to this shard) unless it is stored; returns
    /// whether it was added. A sub-table about to pass its load grows first, whether or not the
    /// tuple turns out to be new.
    #[inline]
    pub(crate) fn add_new(&mut self, place: Place) -> bool {
        let t = place.sub as usize % PER_SHARD;
        let table = &self.tables[t];
        if (table.len + 1) * LOAD_DEN > table.m * LOAD_NUM {
            self.grow(t, None);
        }
        let rest_bits = self.placer.rest_bits;
        let table = &mut self.tables[t];
        let fingerprint = table.fingerprint(place, rest_bits);
        let Err((pos, displacement)) = table.probe(table.home(place.home_bits), fingerprint) else {
            return false;
        };
        table.len += 1;
        let entry = Moving {
            fingerprint,
            displacement,
        };
        if let Some(homeless) = table.place(pos, entry) {
            self.grow(t, Some(homeless));
        }
        true
    }

    #[inline]
    fn contains(&self, place: Place) -> bool {
        let table = self.table(place.sub);
        let fingerprint = table.fingerprint(place, self.placer.rest_bits);
        table
            .probe(table.home(place.home_bits), fingerprint)
            .is_ok()
    }

    /// Reads the slots a lookup of `hash` (as [`Store::locate`] gives it) starts at.
    #[inline]
    pub(crate) fn touch(&self, hash: u64) -> u64 {
        // A lookup reads a few slots from its home on: the home's cache line and, often, the
        // next one, so both are touched.
        let table = self.table((hash >> 32) as u32);
        let home = table.home(hash as u32);
        let next = (home + table.line_slots).min(table.m - 1);
        table.get(home) ^ table.get(next)
    }
}

/// Tuples in compact sub-tables, the unexpanded ones queued (see the module docs).
#[derive(Debug)]
pub(crate) struct CompactStore<Q: Word> {
    layout: Fields,
    placer: Placer,
    /// The sub-tables, [`PER_SHARD`] to a shard.
    shards: Vec<TableShard>,
    /// The packed tuples of states `base..len`, in number order.
    queue: Frontier<Q>,
    base: u32,
    len: usize,
    /// The most bytes the sub-tables and the queue held at once.
    peak_bytes: usize,
}

impl<Q: Word> CompactStore<Q> {
    /// A store for the tuples of `components`, or `None` if they pack into more than
    /// [`MAX_BITS`] bits (or `Q` is too narrow for them).
    pub(crate) fn new(components: &[&Lts]) -> Option<Self> {
        let layout = Fields::layout(components, None);
        let bits = layout.packed_bits();
        let wide_low_part_too_narrow = bits > 64 && layout.low_bits() < SUB_BITS + HOME_BITS;
        if bits > MAX_BITS || bits > Q::BITS || wide_low_part_too_narrow {
            return None;
        }
        let h_bits = bits.max(SUB_BITS + HOME_BITS);
        let rest_bits = h_bits - SUB_BITS - HOME_BITS;
        // A slot keeps `33 - floor(log2 m)` bits of T, `rest_bits` and the displacement: the
        // smallest sub-table must be large enough for that to fit in 64 bits.
        let min_log = (33 + rest_bits + DISPLACEMENT_BITS)
            .saturating_sub(64)
            .max(6);
        let placer = Placer {
            mixer: Mixer::new(&layout),
            h_bits,
            bits,
            rest_bits,
        };
        let shards = (0..SHARDS)
            .map(|_| TableShard::new(min_log, placer))
            .collect();
        let mut store = Self {
            layout,
            placer,
            shards,
            queue: Frontier::new(),
            base: 0,
            len: 0,
            peak_bytes: 0,
        };
        store.peak_bytes = store.bytes();
        Some(store)
    }

    /// The bytes the store holds now: the sub-tables' slots and the queue's buffer.
    pub(crate) fn bytes(&self) -> usize {
        let tables: usize = self.shards.iter().map(TableShard::bytes).sum();
        tables + self.queue.bytes()
    }

    #[inline]
    fn place_of(&self, packed: Q) -> Place {
        self.placer.place(packed)
    }

    #[inline]
    fn shard(&self, sub: u32) -> &TableShard {
        &self.shards[sub as usize / PER_SHARD]
    }

    /// Adds the tuple at `place` unless it is stored; returns whether it was added.
    #[inline]
    fn add_new(&mut self, place: Place) -> bool {
        let shard = &mut self.shards[place.sub as usize / PER_SHARD];
        let added = shard.add_new(place);
        if shard.transient > 0 {
            self.note_growth(1);
        }
        added
    }

    /// Counts in the peak the sub-tables that grew since the last call, of which at most
    /// `threads` were held twice at once (each thread grows one at a time).
    pub(crate) fn note_growth(&mut self, threads: usize) {
        let mut transients: Vec<usize> = self
            .shards
            .iter_mut()
            .filter(|s| s.transient > 0)
            .map(|s| std::mem::take(&mut s.transient))
            .collect();
        transients.sort_unstable_by(|a, b| b.cmp(a));
        let held: usize = transients.iter().take(threads.max(1)).sum();
        self.peak_bytes = self.peak_bytes.max(self.bytes() + held);
    }

    #[inline]
    fn contains(&self, place: Place) -> bool {
        self.shard(place.sub).contains(place)
    }

    /// `tuple` packed into this store's word (for callers that keep tuples packed, such as the
    /// visited sets of [`crate::visited`]).
    #[inline]
    pub(crate) fn pack(&self, tuple: &[StateId]) -> Q {
        Q::pack(&self.layout, tuple)
    }

    /// The tuple of a word [`CompactStore::pack`] made.
    #[inline]
    pub(crate) fn unpack(&self, packed: Q, out: &mut [StateId]) {
        packed.unpack(&self.layout, out);
    }

    /// Whether the packed tuple is stored.
    #[inline]
    pub(crate) fn contains_packed(&self, packed: Q) -> bool {
        self.contains(self.place_of(packed))
    }

    /// Reads the slots a lookup of the packed tuple starts at (see [`Store::touch`]).
    #[inline]
    pub(crate) fn touch_packed(&self, packed: Q) -> u64 {
        let place = self.place_of(packed);
        self.touch(u64::from(place.sub) << 32 | u64::from(place.home_bits))
    }

    /// Stores the packed tuple without queueing it (a set that never loads states back); returns
    /// whether it was new.
    #[inline]
    pub(crate) fn add_packed(&mut self, packed: Q) -> bool {
        let added = self.add_new(self.place_of(packed));
        if added {
            self.len += 1;
        }
        added
    }

    fn note_peak(&mut self) {
        let bytes = self.bytes();
        if bytes > self.peak_bytes {
            self.peak_bytes = bytes;
        }
    }
}

impl<Q: Word> Store for CompactStore<Q> {
    type Key = (Place, Q);
    const NEEDS_TUPLE: bool = false;
    // Its touches are two loads (see `touch`) and its lookups a few more instructions than the
    // table store's: four times the batch hides more of them (gas N=13: 26.5 s -> 23.5 s; 256
    // was slower again).
    const BATCH: u32 = 64;

    #[inline]
    fn locate(&self, tuple: &[StateId]) -> (u64, (Place, Q)) {
        let packed = Q::pack(&self.layout, tuple);
        let place = self.place_of(packed);
        let hash = u64::from(place.sub) << 32 | u64::from(place.home_bits);
        (hash, (place, packed))
    }

    #[inline]
    fn touch(&self, hash: u64) -> u64 {
        self.shard((hash >> 32) as u32).touch(hash)
    }

    fn insert_at(
        &mut self,
        _: &[StateId],
        _: u64,
        (place, packed): (Place, Q),
    ) -> Result<(u32, bool), ComposeError> {
        next_id(self.len)?;
        if !self.add_new(place) {
            return Ok((FORGOTTEN, false));
        }
        Ok((self.push_key(packed)?, true))
    }

    fn find(&self, tuple: &[StateId]) -> Option<u32> {
        let packed = Q::pack(&self.layout, tuple);
        if !self.contains(self.place_of(packed)) {
            return None;
        }
        let queued = (0..self.queue.len()).find(|&i| self.queue.get(i) == packed);
        Some(queued.map_or(FORGOTTEN, |i| self.base + i as u32))
    }

    #[inline]
    fn load(&self, id: u32, out: &mut [StateId]) {
        self.queue
            .get((id - self.base) as usize)
            .unpack(&self.layout, out);
    }

    fn len(&self) -> usize {
        self.len
    }

    fn release_below(&mut self, id: u32) {
        let drop = (id.saturating_sub(self.base) as usize).min(self.queue.len());
        self.queue.release(drop);
        self.base += drop as u32;
    }

    fn peak_bytes(&self) -> usize {
        self.peak_bytes.max(self.bytes())
    }
}

/// The parallel walk inserts into the sub-tables a shard at a time, one thread per shard; a
/// slot holds no number, so there is nothing to renumber.
impl<Q: Word> SlabStore for CompactStore<Q> {
    type Shard = TableShard;
    type SlabKey = Q;
    const NUMBERED: bool = false;
    // A slab holds 9 bytes per successor (the packed tuple and its shard; 13 with its action
    // when the walk records parents), and the walk holds two (the slab being expanded and the
    // one being committed), so it is bounded by successors, 2^14 of them (about 0.15 MB): on
    // Client-Server N = 16 (8.8 successors per state), whose whole check must fit in 26 MB for
    // 16 bytes per state, that is 1,860 states, about the 2^11 of the earlier bound in states;
    // on tx3 (3.6 per state) 4,500. 2^15 successors took 0.4-0.6 bytes per state more on
    // Client-Server for no measurable gain on tx3 (0.495 s against 0.488 s on two threads).
    // Slabs of 2^14 states with 72-byte entries (the table store's) took 33 MB more than one
    // thread on Client-Server.
    const SLAB: usize = 1 << 14;
    const SLAB_SUCCESSORS: usize = 1 << 14;

    #[inline]
    fn slab_key(&self, tuple: &[StateId]) -> (usize, Q) {
        let packed = Q::pack(&self.layout, tuple);
        let sub = self.place_of(packed).sub;
        (sub as usize / PER_SHARD, packed)
    }

    fn shards(&mut self) -> &mut [TableShard] {
        &mut self.shards
    }

    #[inline]
    fn touch_in(shard: &TableShard, packed: Q) -> u64 {
        if !shard.large {
            return 0;
        }
        let place = shard.placer.place(packed);
        shard.touch(u64::from(place.sub) << 32 | u64::from(place.home_bits))
    }

    #[inline]
    fn put_new(shard: &mut TableShard, packed: Q) -> Option<(usize, bool)> {
        let place = shard.placer.place(packed);
        shard.add_new(place).then_some((0, false))
    }

    fn push_key(&mut self, packed: Q) -> Result<u32, ComposeError> {
        let id = next_id(self.len)?;
        let before = self.queue.bytes();
        self.queue.push(packed);
        if self.queue.bytes() > before {
            self.note_peak();
        }
        self.len += 1;
        Ok(id)
    }

    fn inserted(&mut self, threads: usize) {
        self.note_growth(threads);
    }
}

#[cfg(test)]
mod tests {
    //! The store alone (numbering, lookups, the queue, growth on narrow, 64-bit and wider
    //! tuples), then whole searches: every report of a random system with the compact store, on
    //! one thread and on two (the parallel walk's slabs), is the one-thread table store's, field
    //! by field (verdicts, counts, counterexamples), on narrow tuples and on tuples wider than 64
    //! bits.

    use std::sync::OnceLock;

    use guarantor_lts::{Lts, LtsBuilder};
    use proptest::prelude::*;

    use super::*;
    use crate::config::{Config, Storage};
    use crate::test_util::{random_case, reports, ring};

    /// An LTS of `n` states and no transitions: it only widens the tuples.
    fn padding(n: usize) -> Lts {
        let mut b = LtsBuilder::new();
        b.ensure_states(n).unwrap();
        b.build().unwrap()
    }

    /// Inserts `count` distinct tuples of `comps` (a different mix per round), checking numbers,
    /// lookups and loads, releasing the queue as a walk would.
    fn exercise<Q: Word>(comps: &[&Lts], count: usize) {
        let mut store = CompactStore::<Q>::new(comps).expect("fits");
        let sizes: Vec<usize> = comps.iter().map(|c| c.num_states()).collect();
        let tuple = |i: usize| -> Vec<StateId> {
            let mut x = i;
            sizes
                .iter()
                .map(|&n| {
                    let s = x % n;
                    x = x / n + i.wrapping_mul(7) % 3;
                    StateId::must(s)
                })
                .collect()
        };
        let mut seen = std::collections::HashMap::new();
        let mut back = vec![StateId::default(); comps.len()];
        for i in 0..count {
            let t = tuple(i);
            let fresh = seen.len();
            let want = *seen.entry(t.clone()).or_insert(fresh);
            let (id, new) = store.insert(&t).unwrap();
            if new {
                assert_eq!(id as usize, want);
                store.load(id, &mut back);
                assert_eq!(back, t);
            } else {
                assert_eq!(id, FORGOTTEN);
            }
            assert!(store.find(&t).is_some());
            if i % 1000 == 999 {
                store.release_below((store.len() as u32).saturating_sub(10));
            }
        }
        assert_eq!(store.len(), seen.len());
        for t in seen.keys() {
            assert!(store.find(t).is_some(), "{t:?} lost");
        }
        let tables = || store.shards.iter().flat_map(|s| &s.tables);
        let stored: usize = tables().map(|t| t.len).sum();
        assert_eq!(stored, seen.len());
        let slots: usize = tables().map(|t| t.m).sum();
        assert!(
            slots * LOAD_NUM >= stored * LOAD_DEN,
            "within the load factor"
        );
    }

    #[test]
    fn narrow_tuples_are_numbered_once_and_found() {
        let (a, b) = (padding(7), padding(300));
        exercise::<u64>(&[&a, &b], 5000);
    }

    #[test]
    fn many_tuples_grow_every_sub_table() {
        let (a, b, c) = (padding(1000), padding(1000), padding(1000));
        exercise::<u64>(&[&a, &b, &c], 100_000);
    }

    #[test]
    fn tuples_wider_than_64_bits_use_wide_queue_keys() {
        let wide = padding(1 << 18);
        let comps = [&wide, &wide, &wide, &wide];
        assert!(CompactStore::<u64>::new(&comps).is_none(), "72 bits");
        // Enough for the sub-tables (512 slots at first, for slots of 72-bit tuples to fit in
        // 64 bits) to grow: a placeholder sized like a 0-slot table once overflowed here.
        exercise::<u128>(&comps, 300_000);
        let five = [&wide; 5];
        assert!(
            CompactStore::<u128>::new(&five).is_none(),
            "90 bits is past MAX_BITS"
        );
    }

    #[test]
    fn recover_finds_t_from_its_home_for_any_table_size() {
        for m in [64usize, 65, 80, 100, 127, 1000, 4099] {
            let table = SubTable::with_slots(m, 20);
            for t in (0..u32::MAX).step_by(9_999_991).chain([u32::MAX, 0, 1]) {
                let low = u64::from(t) & ((1 << table.t_bits) - 1);
                assert_eq!(table.recover(table.home(t), low), t, "m = {m}");
            }
        }
    }

    /// The compact store's reports, on one thread and on two with every step a slab, against
    /// the table store's on one thread (the independent oracle: another store, no slabs).
    fn same_reports(comps: &[&Lts], props: &[&Lts]) {
        let at = |n: usize| std::num::NonZeroUsize::new(n).unwrap();
        let table = Config::default()
            .with_threads(at(1))
            .with_storage(Storage::Table);
        let want = reports(comps, props, &table);
        let compact = Config::default().with_storage(Storage::Compact);
        let one = compact.clone().with_threads(at(1));
        assert_eq!(reports(comps, props, &one), want, "one thread");
        let two = compact.with_threads(at(2));
        let got = crate::engine::explore::with_min_slab(1, || reports(comps, props, &two));
        assert_eq!(got, want, "two threads, every step a slab");
    }

    /// Four components of 2^13 states that never move: with them a tuple needs 52 bits more,
    /// past 64 in all for most random systems.
    fn wide_padding() -> &'static [Lts; 4] {
        static PADDING: OnceLock<[Lts; 4]> = OnceLock::new();
        PADDING.get_or_init(|| std::array::from_fn(|_| padding(1 << 13)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn random_systems_give_the_table_stores_reports((comps, props) in random_case(), wide in any::<bool>()) {
            let mut comps: Vec<&Lts> = comps.iter().collect();
            if wide {
                comps.extend(wide_padding());
            }
            let props: Vec<&Lts> = props.iter().collect();
            same_reports(&comps, &props);
        }
    }

    #[test]
    fn large_products_give_the_table_stores_reports() {
        // 7 * 11 * 13 * 17 = 17,017 states: every sub-table grows.
        let rings = [ring(7, "p"), ring(11, "q"), ring(13, "r"), ring(17, "s")];
        let comps: Vec<&Lts> = rings.iter().collect();
        same_reports(&comps, &[]);
        let twelve = Lts::from_edges((0..12).map(|i| (i, "tick", i + 1))).unwrap();
        same_reports(&comps, &[&twelve]);
    }
}
