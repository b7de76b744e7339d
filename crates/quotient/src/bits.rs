//! Labels: one bitset over the subject's states per state of the (abstract) environment graph.
//!
//! The labels `V(q)` of the paper are stored as a dense bit matrix, row `q`, column `n`. Rows of a
//! few hundred bits are a handful of words, so a label costs far less than a hash set and the
//! fixpoints touch memory sequentially. [`Csr`] is the compressed adjacency list used for every
//! graph here.

/// A `rows x cols` bit matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Labels {
    rows: usize,
    cols: usize,
    words: usize,
    data: Vec<u64>,
}

impl Labels {
    /// All-empty labels.
    pub(crate) fn new(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64);
        Self {
            rows,
            cols,
            words,
            data: vec![0; rows * words],
        }
    }

    /// The number of rows.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub(crate) fn cols(&self) -> usize {
        self.cols
    }

    /// Whether `c` is in row `r`.
    #[inline]
    pub(crate) fn get(&self, r: usize, c: u32) -> bool {
        self.data[r * self.words + (c as usize >> 6)] >> (c & 63) & 1 == 1
    }

    /// Adds `c` to row `r`; returns whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, r: usize, c: u32) -> bool {
        let w = &mut self.data[r * self.words + (c as usize >> 6)];
        let bit = 1u64 << (c & 63);
        let new = *w & bit == 0;
        *w |= bit;
        new
    }

    /// The words of row `r`.
    pub(crate) fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words..(r + 1) * self.words]
    }

    /// The words of row `r`, to change.
    pub(crate) fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.data[r * self.words..(r + 1) * self.words]
    }

    /// The members of row `r`, ascending.
    pub(crate) fn members(&self, r: usize) -> impl Iterator<Item = u32> + '_ {
        ones(self.row(r))
    }

    /// Replaces row `r` with row `from` of `other` (same number of columns).
    pub(crate) fn copy_row(&mut self, r: usize, other: &Self, from: usize) {
        let w = self.words;
        self.data[r * w..(r + 1) * w].copy_from_slice(other.row(from));
    }

    /// Appends an empty row.
    pub(crate) fn add_row(&mut self) {
        self.rows += 1;
        self.data.resize(self.rows * self.words, 0);
    }

    /// Empties row `r`.
    pub(crate) fn clear_row(&mut self, r: usize) {
        self.data[r * self.words..(r + 1) * self.words].fill(0);
    }

    /// Replaces row `r` with row `from` of the same matrix.
    pub(crate) fn copy_within(&mut self, r: usize, from: usize) {
        let w = self.words;
        self.data.copy_within(from * w..(from + 1) * w, r * w);
    }
}

/// The positions of the set bits of `words`, ascending.
pub(crate) fn ones(words: &[u64]) -> impl Iterator<Item = u32> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros();
            w &= w - 1;
            Some((i as u32) << 6 | b)
        })
    })
}

/// A compressed adjacency list: the items of key `k` are `data[off[k]..off[k + 1]]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Csr<T> {
    off: Vec<u32>,
    data: Vec<T>,
}

impl<T: Copy> Csr<T> {
    /// Groups `(key, item)` pairs by key (`keys` keys); items of one key keep their order.
    pub(crate) fn from_pairs(keys: usize, pairs: &[(u32, T)]) -> Self {
        let mut off = vec![0u32; keys + 1];
        for &(k, _) in pairs {
            off[k as usize + 1] += 1;
        }
        for i in 0..keys {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut data = Vec::with_capacity(pairs.len());
        // Safe placeholder: every slot is overwritten below.
        if let Some(&(_, first)) = pairs.first() {
            data.resize(pairs.len(), first);
        }
        for &(k, item) in pairs {
            data[fill[k as usize] as usize] = item;
            fill[k as usize] += 1;
        }
        Self { off, data }
    }

    /// Regroups, reusing this list's buffers, the `(key, item)` pairs that `items` yields (it is
    /// called twice and must yield the same pairs both times); items of one key keep their order.
    /// `fill` is scratch space.
    pub(crate) fn rebuild<I: Iterator<Item = (u32, T)>>(
        &mut self,
        keys: usize,
        items: impl Fn() -> I,
        fill: &mut Vec<u32>,
        placeholder: T,
    ) {
        self.off.clear();
        self.off.resize(keys + 1, 0);
        for (k, _) in items() {
            self.off[k as usize + 1] += 1;
        }
        for i in 0..keys {
            self.off[i + 1] += self.off[i];
        }
        fill.clear();
        fill.extend_from_slice(&self.off[..keys]);
        self.data.clear();
        self.data.resize(self.off[keys] as usize, placeholder);
        for (k, item) in items() {
            self.data[fill[k as usize] as usize] = item;
            fill[k as usize] += 1;
        }
    }

    /// Sorts the items of every key.
    pub(crate) fn sort_rows(&mut self)
    where
        T: Ord,
    {
        for k in 0..self.keys() {
            let (lo, hi) = (self.off[k] as usize, self.off[k + 1] as usize);
            // Rows often come sorted (an LTS lists a state's edges by action).
            if !self.data[lo..hi].is_sorted() {
                self.data[lo..hi].sort_unstable();
            }
        }
    }

    /// The number of items.
    pub(crate) fn len(&self) -> usize {
        self.data.len()
    }

    /// The number of keys.
    pub(crate) fn keys(&self) -> usize {
        self.off.len().saturating_sub(1)
    }

    /// The items of key `k`.
    #[inline]
    pub(crate) fn of(&self, k: u32) -> &[T] {
        &self.data[self.off[k as usize] as usize..self.off[k as usize + 1] as usize]
    }

    /// The items of key `k`, to reorder in place.
    pub(crate) fn of_mut(&mut self, k: u32) -> &mut [T] {
        &mut self.data[self.off[k as usize] as usize..self.off[k as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_csr() {
        let mut l = Labels::new(2, 130);
        assert!(l.insert(1, 129));
        assert!(!l.insert(1, 129));
        assert!(l.insert(1, 3));
        assert!(l.get(1, 3) && !l.get(0, 3));
        assert_eq!(l.members(1).collect::<Vec<_>>(), [3, 129]);
        assert_eq!((l.rows(), l.cols()), (2, 130));
        let c = Csr::from_pairs(3, &[(2, 'a'), (0, 'b'), (2, 'c')]);
        assert_eq!(c.of(0), ['b']);
        assert!(c.of(1).is_empty());
        assert_eq!(c.of(2), ['a', 'c']);
    }
}
