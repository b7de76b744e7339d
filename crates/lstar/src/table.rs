//! Angluin's observation table: rows (access words S and their one-symbol extensions S·A), columns
//! (distinguishing suffixes E) and one membership bit per cell.
//!
//! Rows are bit vectors over E so that comparing two rows is a slice comparison and finding a row's
//! representative is one hash lookup. The table never asks anything itself: [`Table::fill`] looks
//! cells up in the [`Cache`] and returns the words it could not find, which the learner turns into
//! membership queries. Every decision iterates rows in creation order, never a hash map, so runs are
//! reproducible.

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::cache::{Cache, Known, Probe};
use crate::config::Stats;
use crate::dfa::{Dfa, Symbol, Word};
use crate::queries::Queries;

/// One row: its word and how many of its cells (a prefix of the columns) are filled. The cell
/// values live in [`Table::bits`].
#[derive(Clone, Debug)]
struct Row {
    /// The row's word is `syms[start..start + len]` of the table.
    start: u32,
    len: u32,
    /// The cache node of `word` (created on the first fill), where cell lookups start.
    node: Option<u32>,
    /// Every cell below this column index is known and stored.
    filled: usize,
    upper: bool,
}

/// Rows of S reserved up front.
const INITIAL_UPPER: usize = 32;

fn get_bit(v: &[u64], j: usize) -> bool {
    v.get(j / 64).is_some_and(|x| x >> (j % 64) & 1 == 1)
}

/// The observation table.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    k: usize,
    suffixes: Vec<Word>,
    /// Column of each suffix.
    suffix_index: FxHashMap<Word, u32>,
    /// `tails[j]`: the column of `suffixes[j]` without its first symbol, if that is a column
    /// (`u32::MAX` if not, and for the empty suffix). Rivest-Schapire's suffixes are often
    /// suffixes of each other, which lets [`Table::agrees`] evaluate a column from a shorter one.
    tails: Vec<u32>,
    rows: Vec<Row>,
    /// The rows' words, back to back (one buffer instead of one allocation per row).
    syms: Vec<Symbol>,
    /// Cell values, `stride` words per row, so a row's content is one short slice.
    bits: Vec<u64>,
    /// Which cells are known, laid out like `bits`.
    known: Vec<u64>,
    stride: usize,
    /// Cells whose word was handed out as a query: (row, column, cache node). Once answered they
    /// are read straight from their node instead of being looked up again.
    waiting: Vec<(u32, u32, u32)>,
    /// Rows by word; only kept when whole words can be added to S (Angluin's analysis), since
    /// otherwise a new row's word is always new.
    row_of_word: Option<FxHashMap<Word, usize>>,
    /// Rows of S, in the order they were promoted.
    upper: Vec<usize>,
    /// `succ[r * k + a]`: the row of `word(r)·a`, for upper rows `r` (`u32::MAX` elsewhere).
    succ: Vec<u32>,
    /// Row content -> first row of S with it. Kept between calls (rows of S only gain members
    /// while the columns stay the same) and rebuilt when a column is added. Rows of at most 64
    /// columns (the common case) are keyed by their one word, without an allocation.
    index: FxHashMap<Box<[u64]>, u32>,
    index_small: FxHashMap<u64, u32>,
    /// The number of columns `index` was built for.
    index_cols: usize,
    /// How many rows of S (in promotion order) are in `index`.
    indexed: usize,
    /// `rep[r]`: the representative of row `r` (see [`Table::representative`]) once looked up,
    /// `u32::MAX` before. A row's content and its representative (the first row of S with that
    /// content) stay fixed until a column is added, so each row is hashed once per column set.
    rep: Vec<u32>,
    /// Every row below this index is filled.
    unfilled_from: usize,
    /// Rows below this index were found closed (or promoted) under the current columns; S only
    /// grows and their cells are fixed, so they stay closed until a column is added.
    closed_rows: usize,
    /// The hypothesis state of each representative row (`u32::MAX` for other rows), as numbered
    /// by the last [`Table::hypothesis`]; kept to avoid an allocation per hypothesis.
    state_of_row: Vec<u32>,
    /// Scratch space of [`Table::agrees`]: the state each row's word leads to in the hypothesis,
    /// the columns by length and each column's value at each state.
    reached: Vec<u32>,
    column_order: Vec<u32>,
    column_values: Vec<bool>,
    /// Scratch space of [`Table::close`]: the rows to promote.
    fresh: Vec<u32>,
}

impl Table {
    /// The table with S = {ε} and E = {ε}; `index_words` keeps an index of rows by word, needed
    /// when [`Table::add_upper_word`] may name an existing row.
    pub(crate) fn new(k: usize, index_words: bool) -> Self {
        // Room for a few dozen states up front: a fresh learner's vectors would otherwise be
        // reallocated a dozen times each, which dominates small runs.
        let rows = INITIAL_UPPER * (k + 1);
        let mut t = Self {
            k,
            suffixes: Vec::with_capacity(16),
            suffix_index: FxHashMap::with_capacity_and_hasher(16, FxBuildHasher),
            tails: Vec::with_capacity(16),
            rows: Vec::with_capacity(rows),
            syms: Vec::with_capacity(rows * 8),
            bits: Vec::with_capacity(rows),
            known: Vec::with_capacity(rows),
            stride: 1,
            waiting: Vec::with_capacity(rows),
            row_of_word: index_words.then(FxHashMap::default),
            upper: Vec::with_capacity(INITIAL_UPPER),
            succ: Vec::with_capacity(rows * k),
            index: FxHashMap::default(),
            index_small: FxHashMap::with_capacity_and_hasher(INITIAL_UPPER, FxBuildHasher),
            index_cols: 0,
            indexed: 0,
            rep: Vec::with_capacity(rows),
            closed_rows: 0,
            unfilled_from: 0,
            state_of_row: Vec::with_capacity(rows),
            reached: Vec::with_capacity(rows),
            column_order: Vec::with_capacity(16),
            column_values: Vec::with_capacity(16 * INITIAL_UPPER),
            fresh: Vec::with_capacity(INITIAL_UPPER),
        };
        t.add_suffix(Vec::new());
        t.add_upper_word(&[]);
        t
    }

    /// The word of row `r`.
    pub(crate) fn word(&self, r: usize) -> &[Symbol] {
        let row = &self.rows[r];
        &self.syms[row.start as usize..(row.start + row.len) as usize]
    }

    /// The row of `word`, created if needed.
    fn row_id(&mut self, word: &[Symbol]) -> usize {
        let start = self.syms.len();
        self.syms.extend_from_slice(word);
        self.row_at(start)
    }

    /// The row of the word `syms[start..]` just written to the arena: an existing row (the arena
    /// is truncated back) or a new one.
    fn row_at(&mut self, start: usize) -> usize {
        if let Some(&r) = self
            .row_of_word
            .as_ref()
            .and_then(|m| m.get(&self.syms[start..]))
        {
            self.syms.truncate(start);
            return r;
        }
        let r = self.rows.len();
        let len = (self.syms.len() - start) as u32;
        self.rows.push(Row {
            start: start as u32,
            len,
            node: None,
            filled: 0,
            upper: false,
        });
        if let Some(m) = &mut self.row_of_word {
            m.insert(self.syms[start..].to_vec(), r);
        }
        self.bits.extend(std::iter::repeat_n(0, self.stride));
        self.known.extend(std::iter::repeat_n(0, self.stride));
        self.succ.extend(std::iter::repeat_n(u32::MAX, self.k));
        self.rep.push(u32::MAX);
        r
    }

    /// Widens every row when the columns outgrow `stride` words.
    fn reserve_columns(&mut self) {
        let needed = self.suffixes.len().div_ceil(64);
        if needed <= self.stride {
            return;
        }
        let wider = needed.max(2 * self.stride);
        let copy_wider = |old: &[u64]| {
            let mut new = vec![0; self.rows.len() * wider];
            for r in 0..self.rows.len() {
                new[r * wider..r * wider + self.stride]
                    .copy_from_slice(&old[r * self.stride..(r + 1) * self.stride]);
            }
            new
        };
        self.bits = copy_wider(&self.bits);
        self.known = copy_wider(&self.known);
        self.stride = wider;
    }

    /// Moves row `r` into S and creates its one-symbol extensions.
    fn promote(&mut self, r: usize) {
        if self.rows[r].upper {
            return;
        }
        self.rows[r].upper = true;
        self.upper.push(r);
        let (start, len) = (self.rows[r].start as usize, self.rows[r].len as usize);
        for a in Symbol::all(self.k) {
            let at = self.syms.len();
            self.syms.extend_from_within(start..start + len);
            self.syms.push(a);
            let c = self.row_at(at);
            self.succ[r * self.k + a.index()] = c as u32;
        }
    }

    /// Adds `word` (whose prefixes must already be rows, or be added first) to S.
    pub(crate) fn add_upper_word(&mut self, word: &[Symbol]) {
        let r = self.row_id(word);
        self.promote(r);
    }

    /// Adds a column; returns `false` if it was already there.
    pub(crate) fn add_suffix(&mut self, suffix: Word) -> bool {
        let j = self.suffixes.len() as u32;
        if self.suffix_index.contains_key(&suffix) {
            return false;
        }
        self.suffix_index.insert(suffix.clone(), j);
        let tail = suffix
            .get(1..)
            .and_then(|t| self.suffix_index.get(t))
            .copied();
        self.tails.push(tail.unwrap_or(u32::MAX));
        for (i, e) in self.suffixes.iter().enumerate() {
            if e.len() == suffix.len() + 1 && e[1..] == suffix[..] {
                self.tails[i] = j;
            }
        }
        self.suffixes.push(suffix);
        self.reserve_columns();
        self.unfilled_from = 0;
        true
    }

    /// A rough cost of [`Table::agrees`] for a hypothesis of `states` states, in the units of
    /// [`Cache::scan_cost`] (about one per instruction).
    pub(crate) fn agree_cost(&self, states: usize) -> usize {
        let symbols: usize = (self.suffixes.iter().zip(&self.tails))
            .map(|(e, &t)| if t == u32::MAX { 6 * e.len() } else { 4 })
            .sum();
        states * symbols + 15 * self.rows.len()
    }

    /// The number of columns.
    pub(crate) fn num_suffixes(&self) -> usize {
        self.suffixes.len()
    }

    /// Fills every cell the cache can answer; appends the words it could not to `words`, each once,
    /// in order, with their cache nodes (marked pending in the cache until answered). Returns
    /// whether it appended any.
    ///
    /// In prefix-closed mode a row's first cell (column ε) is settled before the others are asked:
    /// a rejected row word answers the whole row, and an accepted one has no rejected prefix, so its
    /// other cells can be looked up from the row's own cache node.
    pub(crate) fn fill(
        &mut self,
        cache: &mut Cache,
        stats: &mut Stats,
        words: &mut Queries,
        nodes: &mut Vec<u32>,
    ) -> bool {
        self.settle(cache, stats);
        let asked = nodes.len();
        let cols = self.suffixes.len();
        let pc = cache.prefix_closed();
        let mut first_unfilled = None;
        for r in self.unfilled_from..self.rows.len() {
            if self.rows[r].filled == cols {
                continue;
            }
            let (start, len) = (self.rows[r].start as usize, self.rows[r].len as usize);
            let word = &self.syms[start..start + len];
            let node = *self.rows[r].node.get_or_insert_with(|| cache.node(word));
            // Every cell is now answered or waiting for its query's answer, which `settle`
            // records before the next pass, so the row counts as filled unless it stops early.
            let mut complete = true;
            for j in self.rows[r].filled..cols {
                let cell = r * self.stride + j / 64;
                if self.known[cell] >> (j % 64) & 1 == 1 {
                    continue;
                }
                if !pc && self.rows[r].upper && self.tails[j] != u32::MAX {
                    // The word of cell (r, a·e) is that of cell (r·a, e), often known already when
                    // `a·e` is a new column and `e` an old one: copy it instead of walking the trie.
                    let (a, t) = (self.suffixes[j][0].index(), self.tails[j] as usize);
                    let c = self.succ[r * self.k + a] as usize * self.stride + t / 64;
                    if self.known[c] >> (t % 64) & 1 == 1 {
                        let bit = self.bits[c] >> (t % 64) & 1;
                        self.known[cell] |= 1 << (j % 64);
                        self.bits[cell] |= bit << (j % 64);
                        stats.lookups += 1;
                        continue;
                    }
                }
                let dead = pc && j > 0 && self.bits[r * self.stride] & 1 == 0;
                let probe = if dead {
                    Probe::Known(Known {
                        accepted: false,
                        inferred: true,
                    })
                } else if pc && j == 0 {
                    cache.probe(word.iter().copied())
                } else {
                    cache.probe_from(node, self.suffixes[j].iter().copied())
                };
                match probe {
                    Probe::Known(known) => {
                        self.known[cell] |= 1 << (j % 64);
                        self.bits[cell] |= u64::from(known.accepted) << (j % 64);
                        stats.lookups += 1;
                        stats.inferred += u64::from(known.inferred);
                    }
                    Probe::Pending(at) => {
                        self.waiting.push((r as u32, j as u32, at));
                        if pc && j == 0 {
                            complete = false;
                            break;
                        }
                    }
                    Probe::Fresh(at) => {
                        self.waiting.push((r as u32, j as u32, at));
                        words.push_concat(word, &self.suffixes[j]);
                        nodes.push(at);
                        if pc && j == 0 {
                            complete = false;
                            break;
                        }
                    }
                }
            }
            if complete {
                self.rows[r].filled = cols;
            } else {
                first_unfilled.get_or_insert(r);
            }
        }
        self.unfilled_from = first_unfilled.unwrap_or(self.rows.len());
        nodes.len() > asked
    }

    /// Records the answers of cells that were waiting for their queries.
    fn settle(&mut self, cache: &Cache, stats: &mut Stats) {
        // Drained in place (not taken) so the vector keeps its capacity between rounds.
        for (r, j, node) in self.waiting.drain(..) {
            let (r, j) = (r as usize, j as usize);
            if let Some(known) = cache.answer_at(node) {
                let cell = r * self.stride + j / 64;
                self.known[cell] |= 1 << (j % 64);
                self.bits[cell] |= u64::from(known.accepted) << (j % 64);
                stats.lookups += 1;
            } else {
                // Not answered after all: the row is not filled; the next pass asks again.
                let row = &mut self.rows[r];
                row.filled = row.filled.min(j);
                self.unfilled_from = self.unfilled_from.min(r);
            }
        }
    }

    /// Brings `index` up to date with S. Call only when every row is filled.
    fn refresh_index(&mut self) {
        let cols = self.suffixes.len();
        if self.index_cols != cols {
            self.index.clear();
            self.index_small.clear();
            self.indexed = 0;
            self.closed_rows = 0;
            // A row that agrees with its old representative on the new columns keeps it: rows of
            // S with the row's new content had its old content too, and the old representative
            // was the first of those. Only rows that split off are looked up again.
            let (old, stride) = (self.index_cols, self.stride);
            for r in 0..self.rows.len() {
                let rep = self.rep[r];
                if rep == u32::MAX {
                    continue;
                }
                let (mine, theirs) = (r * stride, rep as usize * stride);
                let same = (old..cols).all(|j| {
                    let (word, bit) = (j / 64, j % 64);
                    (self.bits[mine + word] ^ self.bits[theirs + word]) >> bit & 1 == 0
                });
                if !same {
                    self.rep[r] = u32::MAX;
                }
            }
            self.index_cols = cols;
        }
        for i in self.indexed..self.upper.len() {
            let r = self.upper[i];
            if self.stride == 1 {
                self.index_small.entry(self.bits[r]).or_insert(r as u32);
            } else {
                let key: Box<[u64]> = self.content(r).into();
                self.index.entry(key).or_insert(r as u32);
            }
        }
        self.indexed = self.upper.len();
    }

    /// The first row of S with the content of row `r`, if any; remembered once found. Call only
    /// when row `r` is filled and `index` is up to date.
    #[inline]
    fn representative(&mut self, r: usize) -> Option<usize> {
        if self.rep[r] != u32::MAX {
            return Some(self.rep[r] as usize);
        }
        self.look_up_representative(r)
    }

    /// [`Table::representative`] of a row not looked up yet under the current columns.
    fn look_up_representative(&mut self, r: usize) -> Option<usize> {
        let found = if self.stride == 1 {
            self.index_small.get(&self.bits[r])
        } else {
            self.index.get(self.content(r))
        };
        let s = *found?;
        self.rep[r] = s;
        Some(s as usize)
    }

    /// A row's cells.
    fn content(&self, r: usize) -> &[u64] {
        &self.bits[r * self.stride..(r + 1) * self.stride]
    }

    /// Closes the table: promotes every row of S·A whose content is not in S (one per distinct
    /// content, shortest words first). Returns whether anything was promoted. Call only when every
    /// row is filled.
    pub(crate) fn close(&mut self) -> bool {
        self.refresh_index();
        // A row of S·A whose content is not in S enters the index at once as its content's
        // representative: it is about to be promoted, and later rows with the same content then
        // find it instead of being promoted too.
        let mut fresh = std::mem::take(&mut self.fresh);
        fresh.clear();
        for r in self.closed_rows..self.rows.len() {
            if self.rows[r].upper || self.representative(r).is_some() {
                continue;
            }
            if self.stride == 1 {
                self.index_small.insert(self.bits[r], r as u32);
            } else {
                let key: Box<[u64]> = self.content(r).into();
                self.index.insert(key, r as u32);
            }
            self.rep[r] = r as u32;
            fresh.push(r as u32);
        }
        self.closed_rows = self.rows.len();
        // Shortest words first, ties in row order (what a stable sort by length gives).
        fresh.sort_unstable_by_key(|&r| (self.rows[r as usize].len, r));
        for &r in &fresh {
            self.promote(r as usize);
        }
        let promoted = !fresh.is_empty();
        self.fresh = fresh;
        promoted
    }

    /// A column that makes the table consistent, if it is not: two rows of S with equal content whose
    /// extensions by some symbol `a` differ in column `e` give the new column `a·e`.
    pub(crate) fn inconsistency(&self) -> Option<Word> {
        let mut first: FxHashMap<&[u64], usize> = FxHashMap::default();
        for &r in &self.upper {
            let Some(&s) = first.get(self.content(r)) else {
                first.insert(self.content(r), r);
                continue;
            };
            for a in Symbol::all(self.k) {
                let (x, y) = (
                    self.succ[r * self.k + a.index()],
                    self.succ[s * self.k + a.index()],
                );
                let (x, y) = (self.content(x as usize), self.content(y as usize));
                if let Some(j) = (0..self.suffixes.len()).find(|&j| get_bit(x, j) != get_bit(y, j))
                {
                    let mut e = vec![a];
                    e.extend_from_slice(&self.suffixes[j]);
                    return Some(e);
                }
            }
        }
        None
    }

    /// The hypothesis of a closed (and consistent) table; `access` receives the access row of each
    /// state.
    /// States are numbered in the order their first row entered S, so the empty word's row is 0.
    ///
    /// `old`, the previous hypothesis, lends its buffers.
    pub(crate) fn hypothesis(&mut self, access: &mut Vec<usize>, old: Option<Dfa>) -> Dfa {
        self.refresh_index();
        let mut state_of_row = std::mem::take(&mut self.state_of_row);
        state_of_row.clear();
        state_of_row.resize(self.rows.len(), u32::MAX);
        access.clear();
        for i in 0..self.upper.len() {
            let r = self.upper[i];
            if self.representative(r) == Some(r) {
                state_of_row[r] = access.len() as u32;
                access.push(r);
            }
        }
        let (mut delta, mut accepting) = old.map(Dfa::into_parts).unwrap_or_default();
        delta.clear();
        delta.reserve(access.len() * self.k);
        accepting.clear();
        accepting.reserve(access.len());
        for &r in access.iter() {
            accepting.push(get_bit(self.content(r), 0));
            for a in 0..self.k {
                let c = self.succ[r * self.k + a] as usize;
                let rep = self
                    .representative(c)
                    .expect("a closed table has every row in S");
                delta.push(state_of_row[rep]);
            }
        }
        self.state_of_row = state_of_row;
        Dfa::from_parts(self.k, delta, accepting)
    }

    /// Whether hypothesis `h`, built by the last [`Table::hypothesis`] with access rows `access`,
    /// agrees with every cell of the table.
    ///
    /// Cheap: every row's word must lead `h` to the state of the row's representative, and then a
    /// cell `(r, e)` agrees exactly when the cell `(representative, e)` does, since the two rows
    /// have equal content and `h` is in the same state after both words; so only the states'
    /// access rows are run along the columns. A row's state is found from its parent's (each row
    /// but the empty word's is an upper row's one-symbol extension), not by running its word.
    pub(crate) fn agrees(&mut self, h: &Dfa, access: &[usize]) -> bool {
        // When every row of S is a state (Rivest-Schapire, Maler-Pnueli: rows of S are pairwise
        // distinct), `h`'s transitions are the table's successor rows' representatives, so every
        // row's word leads `h` to its representative's state by construction.
        access.len() == self.upper.len() && self.columns_agree(h, access)
            || self.rows_reach_representatives(h) && self.columns_agree(h, access)
    }

    /// Whether the word of every row leads `h` to the state of the row's representative.
    fn rows_reach_representatives(&mut self, h: &Dfa) -> bool {
        let mut reached = std::mem::take(&mut self.reached);
        reached.clear();
        reached.resize(self.rows.len(), u32::MAX);
        reached[0] = 0;
        let mut ok = true;
        for &u in &self.upper {
            let q = match reached[u] {
                u32::MAX => h.run(self.word(u)),
                q => q as usize,
            };
            for a in Symbol::all(self.k) {
                reached[self.succ[u * self.k + a.index()] as usize] = h.successor(q, a) as u32;
            }
        }
        for (r, &q) in reached.iter().enumerate() {
            let q = match q {
                u32::MAX => h.run(self.word(r)) as u32,
                q => q,
            };
            let rep = self.representative(r);
            if rep.is_none_or(|s| self.state_of_row[s] != q) {
                ok = false;
                break;
            }
        }
        self.reached = reached;
        ok
    }

    /// Whether `h` run from each state along each column agrees with the state's access row.
    ///
    /// Columns are evaluated shortest first, for all states at once: a column whose tail (itself
    /// minus its first symbol `a`) is a column takes the tail's value at the `a`-successor, one
    /// step instead of a run along the whole suffix.
    fn columns_agree(&mut self, h: &Dfa, access: &[usize]) -> bool {
        let (states, cols) = (h.num_states(), self.suffixes.len());
        let mut order = std::mem::take(&mut self.column_order);
        order.clear();
        order.extend(0..cols as u32);
        order.sort_by_key(|&j| self.suffixes[j as usize].len());
        let mut value = std::mem::take(&mut self.column_values);
        value.clear();
        value.resize(cols * states, false);
        for &j in &order {
            let (j, suffix) = (j as usize, &self.suffixes[j as usize]);
            let out = j * states;
            match self.tails[j] {
                u32::MAX => {
                    for q in 0..states {
                        value[out + q] = h.is_accepting(h.run_from(q, suffix));
                    }
                }
                tail => {
                    let (tail, first) = (tail as usize * states, suffix[0]);
                    for q in 0..states {
                        value[out + q] = value[tail + h.successor(q, first)];
                    }
                }
            }
        }
        let ok = access.iter().enumerate().all(|(q, &r)| {
            let row = self.content(r);
            (0..cols).all(|j| value[j * states + q] == get_bit(row, j))
        });
        self.column_order = order;
        self.column_values = value;
        ok
    }
}
