//! Partition refinement over `0..n`: the one data structure behind every equivalence of this crate.
//!
//! Classes are extracted from labels by splitting blocks with each label in turn, so extraction costs
//! time linear in the total size of the labels (plus one pass per label over the bitset words). The
//! paper sorts states with AVL trees instead, which adds a `log |N_F|` factor; pairwise comparison
//! would cost `|N|^2` label comparisons. The same structure refines the abstraction of `M` (a split
//! by "has an `a`-predecessor in block `b`").
//!
//! Layout: the elements of each block are contiguous in `elems`; `pos` inverts `elems`. A split by a
//! set moves the set's members of every touched block to the block's front and cuts them off as a
//! new block, so it costs time proportional to the set.

/// A partition of `0..n` into numbered blocks.
#[derive(Clone, Debug)]
pub(crate) struct Partition {
    elems: Vec<u32>,
    pos: Vec<u32>,
    block: Vec<u32>,
    start: Vec<u32>,
    end: Vec<u32>,
    marked: Vec<u32>,
    touched: Vec<u32>,
}

impl Partition {
    /// One block holding `0..n` (no block at all when `n == 0`).
    pub(crate) fn new(n: usize) -> Self {
        let blocks = usize::from(n > 0);
        Self {
            elems: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
            block: vec![0; n],
            start: vec![0; blocks],
            end: vec![n as u32; blocks],
            marked: vec![0; blocks],
            touched: Vec::new(),
        }
    }

    /// The number of blocks.
    pub(crate) fn num_blocks(&self) -> usize {
        self.start.len()
    }

    /// The block of `x`.
    #[inline]
    pub(crate) fn block_of(&self, x: u32) -> u32 {
        self.block[x as usize]
    }

    /// The members of block `b`.
    pub(crate) fn members(&self, b: u32) -> &[u32] {
        &self.elems[self.start[b as usize] as usize..self.end[b as usize] as usize]
    }

    /// The size of block `b`.
    pub(crate) fn size(&self, b: u32) -> usize {
        (self.end[b as usize] - self.start[b as usize]) as usize
    }

    /// Splits every block into its members inside `set` and those outside. `set` must not repeat
    /// an element. The part inside gets a new block number; returns the `(old, new)` pairs.
    pub(crate) fn split(&mut self, set: impl IntoIterator<Item = u32>) -> Vec<(u32, u32)> {
        for x in set {
            let b = self.block[x as usize] as usize;
            let at = self.start[b] + self.marked[b];
            let here = self.pos[x as usize];
            let other = self.elems[at as usize];
            self.elems.swap(at as usize, here as usize);
            self.pos[other as usize] = here;
            self.pos[x as usize] = at;
            if self.marked[b] == 0 {
                self.touched.push(b as u32);
            }
            self.marked[b] += 1;
        }
        let mut made = Vec::new();
        for b in std::mem::take(&mut self.touched) {
            let bi = b as usize;
            let cut = self.start[bi] + self.marked[bi];
            self.marked[bi] = 0;
            if cut == self.end[bi] {
                continue; // the whole block is inside: nothing to split
            }
            let nb = self.start.len() as u32;
            self.start.push(self.start[bi]);
            self.end.push(cut);
            self.marked.push(0);
            self.start[bi] = cut;
            for &x in &self.elems[self.start[nb as usize] as usize..cut as usize] {
                self.block[x as usize] = nb;
            }
            made.push((b, nb));
        }
        made
    }

    /// Puts `x` into a block of its own.
    pub(crate) fn isolate(&mut self, x: u32) {
        self.split([x]);
    }

    /// The block of every element renumbered densely by first occurrence (element 0's block is 0).
    pub(crate) fn dense_classes(&self) -> (Vec<u32>, usize) {
        let mut map = vec![u32::MAX; self.num_blocks()];
        let mut next = 0u32;
        let classes = self
            .block
            .iter()
            .map(|&b| {
                if map[b as usize] == u32::MAX {
                    map[b as usize] = next;
                    next += 1;
                }
                map[b as usize]
            })
            .collect();
        (classes, next as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_only_proper_blocks() {
        let mut p = Partition::new(6);
        assert_eq!(p.split([1, 3, 5]), vec![(0, 1)]);
        assert_eq!(p.split([1, 3, 5]), vec![]); // block 1 entirely inside
        assert_eq!(p.split([0, 1]), vec![(0, 2), (1, 3)]);
        let (classes, n) = p.dense_classes();
        assert_eq!(n, 4);
        assert_eq!(classes, [0, 1, 2, 3, 2, 3]);
        assert_eq!(p.size(p.block_of(4)), 2);
        p.isolate(4);
        assert_eq!(p.members(p.block_of(4)), [4]);
        assert_eq!(p.num_blocks(), 5);
    }

    #[test]
    fn empty_partition_has_no_blocks() {
        let p = Partition::new(0);
        assert_eq!(p.num_blocks(), 0);
        assert_eq!(p.dense_classes().1, 0);
    }
}
