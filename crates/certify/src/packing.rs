//! How the search keeps product tuples: as hash keys packed into one integer where the members'
//! state numbers fit in its bits ([`Packed`]), as boxed slices otherwise ([`Plain`]), and the sets
//! it keeps them in.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash};
use std::marker::PhantomData;
use std::ops::{BitAnd, BitOr, Not, Shl, Shr};

use rustc_hash::FxHasher;

/// How a tuple is kept as a hash key: packed into one `u64` or `u128` when the members' state
/// numbers fit in its bits together (every family of the benchmarks does), as a boxed slice
/// otherwise.
pub(crate) trait Codec {
    type Key: Hash + Eq + Clone;
    /// The set the search keeps its keys in.
    type Set: KeySet<Self::Key> + Default;
    fn encode(&self, tuple: &[usize]) -> Self::Key;
    fn decode(&self, key: &Self::Key, tuple: &mut Vec<usize>);
    /// The key of `next`, which differs from the tuple of `key` only at the members `moved`.
    fn update(&self, _key: &Self::Key, next: &[usize], _moved: &[usize]) -> Self::Key {
        self.encode(next)
    }
}

/// An unsigned integer a tuple can be packed into.
pub(crate) trait Word:
    Copy
    + Eq
    + Hash
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const BITS: u32;
    const ZERO: Self;
    fn from_state(s: usize) -> Self;
    fn to_state(self) -> usize;
    /// 64 well-mixed bits of the word, for a hash table's index.
    fn mix(self) -> u64;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            fn from_state(s: usize) -> Self {
                s as $t
            }
            #[allow(clippy::cast_possible_truncation)] // masked to a member's width first
            fn to_state(self) -> usize {
                self as usize
            }
            #[allow(clippy::cast_possible_truncation)] // the high half is folded in first
            fn mix(self) -> u64 {
                let folded = (self ^ (self >> (<$t>::BITS / 2))) as u64;
                // Fibonacci hashing: the high bits of the product depend on every bit of `folded`.
                folded.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            }
        }
    };
}
word!(u64);
word!(u128);

/// Member `i`'s state in bits `shift[i]..shift[i + 1]` of a `W`.
pub(crate) struct Packed<W> {
    shift: Vec<u32>,
    word: PhantomData<W>,
}

impl<W: Word> Packed<W> {
    /// The packing for tuples whose `i`-th entry is below `sizes[i]`, if they fit in a `W`.
    pub(crate) fn new(sizes: impl IntoIterator<Item = usize>) -> Option<Self> {
        let mut shift = vec![0u32];
        for size in sizes {
            let width = usize::BITS - size.saturating_sub(1).leading_zeros();
            shift.push(shift.last()? + width);
        }
        // Strictly fewer bits than the word has: the all-ones word is never a key, so a key set
        // can use it to mark an empty slot.
        (*shift.last()? < W::BITS).then_some(Self {
            shift,
            word: PhantomData,
        })
    }

    /// The bits of member `i`.
    fn mask(&self, i: usize) -> W {
        !(!W::ZERO << (self.shift[i + 1] - self.shift[i])) << self.shift[i]
    }
}

impl<W: Word> Codec for Packed<W> {
    type Key = W;
    type Set = WordSet<W>;
    fn encode(&self, tuple: &[usize]) -> W {
        tuple
            .iter()
            .zip(&self.shift)
            .fold(W::ZERO, |key, (&s, &at)| key | W::from_state(s) << at)
    }
    fn decode(&self, key: &W, tuple: &mut Vec<usize>) {
        tuple.clear();
        tuple.extend(
            (0..self.shift.len() - 1).map(|i| ((*key & self.mask(i)) >> self.shift[i]).to_state()),
        );
    }
    fn update(&self, key: &W, next: &[usize], moved: &[usize]) -> W {
        moved.iter().fold(*key, |key, &i| {
            (key & !self.mask(i)) | W::from_state(next[i]) << self.shift[i]
        })
    }
}

/// Tuples as they are.
pub(crate) struct Plain;

impl Codec for Plain {
    type Key = Box<[usize]>;
    type Set = HashSet<Box<[usize]>, BuildHasherDefault<FxHasher>>;
    fn encode(&self, tuple: &[usize]) -> Box<[usize]> {
        tuple.into()
    }
    fn decode(&self, key: &Box<[usize]>, tuple: &mut Vec<usize>) {
        tuple.clear();
        tuple.extend_from_slice(key);
    }
}

/// A set of keys: `insert` says whether the key is new.
pub(crate) trait KeySet<K> {
    fn insert(&mut self, key: K) -> bool;
}

impl<K: Hash + Eq> KeySet<K> for HashSet<K, BuildHasherDefault<FxHasher>> {
    fn insert(&mut self, key: K) -> bool {
        HashSet::insert(self, key)
    }
}

/// A set of packed keys in one array with linear probing (at most 3/4 full; the all-ones word
/// marks an empty slot). Why not `HashSet`: its control bytes and its keys live in two arrays,
/// and a lookup of a key never met before (most lookups, in a large search) misses the cache in
/// both; here a lookup touches one slot and its neighbours. Measured on bakery N=4 (1.1 M
/// states): the lookup was 45 % of the search with `HashSet` (docs/benchmarks.md, "Certificates").
pub(crate) struct WordSet<W> {
    slots: Vec<W>,
    len: usize,
}

impl<W: Word> Default for WordSet<W> {
    fn default() -> Self {
        Self {
            slots: vec![!W::ZERO; 1 << 10],
            len: 0,
        }
    }
}

impl<W: Word> WordSet<W> {
    /// Where the probe for `key` starts: the high bits of its mix, as many as index the slots.
    fn home(&self, key: W) -> usize {
        let bits = self.slots.len().trailing_zeros();
        usize::try_from(key.mix() >> (64 - bits)).unwrap_or(0)
    }

    /// Twice as many slots, every key placed again.
    fn grow(&mut self) {
        let wider = vec![!W::ZERO; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, wider);
        self.len = 0;
        for key in old.into_iter().filter(|&k| k != !W::ZERO) {
            self.insert(key);
        }
    }
}

impl<W: Word> KeySet<W> for WordSet<W> {
    fn insert(&mut self, key: W) -> bool {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        loop {
            let slot = self.slots[at];
            if slot == key {
                return false;
            }
            if slot == !W::ZERO {
                self.slots[at] = key;
                self.len += 1;
                return true;
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{KeySet, Word, WordSet};
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn agrees<W: Word + std::fmt::Debug>(keys: &[W]) {
        let mut ours = WordSet::<W>::default();
        let mut std = HashSet::new();
        for &k in keys {
            assert_eq!(KeySet::insert(&mut ours, k), std.insert(k), "{k:?}");
        }
        assert_eq!(ours.len, std.len());
    }

    proptest! {
        /// The probing set says "new" exactly when a standard set does, through several growths
        /// (keys drawn from a small range so that repeats are common).
        #[test]
        fn word_set_is_a_set(keys in prop::collection::vec(0u64..3000, 0..5000)) {
            agrees(&keys);
            let wide: Vec<u128> = keys.iter().map(|&k| u128::from(k) << 70 | u128::from(k)).collect();
            agrees(&wide);
        }
    }
}
