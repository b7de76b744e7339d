//! L* for Mealy machines (Angluin 1987, in the Mealy form of Niese 2003 and Shahbaz and Groz 2009)
//! with Rivest and Schapire's counterexample processing.
//!
//! The table's rows are the access words `S` and their one-input extensions; its columns `E`
//! start as the single inputs, and a cell is the output word of the column after the row. With
//! Rivest-Schapire processing the rows of `S` stay pairwise distinct, so the table needs no
//! consistency check: closing it is the only rule. A counterexample adds one column, the suffix
//! where replacing a prefix by its state's access word first stops changing the answer (binary
//! search, one query a step).

use rustc_hash::FxHashMap;

use crate::dfa::{Symbol, Word};
use crate::mealy::cache::Cache;
use crate::mealy::machine::{Mealy, OutputId};
use crate::mealy::{Engine, MealyError, build};

/// The L* learner's table.
pub(crate) struct LStar {
    k: usize,
    /// Access words, one per state; `rows[i]` is the row of `access[i]`.
    access: Vec<Word>,
    /// Columns.
    columns: Vec<Word>,
    /// The row (cell ids, one per column) of every word in `S` and `S·I`.
    rows: FxHashMap<Word, Vec<u32>>,
    /// Output words interned to cell ids.
    cells: FxHashMap<Vec<OutputId>, u32>,
}

impl LStar {
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            access: vec![Vec::new()],
            columns: Symbol::all(k).map(|a| vec![a]).collect(),
            rows: FxHashMap::default(),
            cells: FxHashMap::default(),
        }
    }

    /// Fills the row of `u` up to the current columns.
    fn fill(&mut self, cache: &mut Cache<'_>, u: &[Symbol]) -> Result<(), MealyError> {
        let have = self.rows.get(u).map_or(0, Vec::len);
        let mut w: Word = u.to_vec();
        let mut new = Vec::new();
        for e in &self.columns[have..] {
            w.truncate(u.len());
            w.extend_from_slice(e);
            let out = cache.outputs(&w)?;
            let n = self.cells.len() as u32;
            new.push(*self.cells.entry(out[u.len()..].to_vec()).or_insert(n));
        }
        self.rows.entry(u.to_vec()).or_default().extend(new);
        Ok(())
    }

    /// Fills every row and closes the table: an extension whose row no access word has becomes
    /// an access word. Returns the state (access index) of every row.
    fn close(&mut self, cache: &mut Cache<'_>) -> Result<FxHashMap<Vec<u32>, usize>, MealyError> {
        let mut i = 0;
        let mut states: FxHashMap<Vec<u32>, usize> = FxHashMap::default();
        while i < self.access.len() {
            let u = self.access[i].clone();
            self.fill(cache, &u)?;
            states.insert(self.rows[&u].clone(), i);
            i += 1;
        }
        let mut i = 0;
        while i < self.access.len() {
            for a in Symbol::all(self.k) {
                let mut ua = self.access[i].clone();
                ua.push(a);
                self.fill(cache, &ua)?;
                let row = &self.rows[&ua];
                if !states.contains_key(row) {
                    states.insert(row.clone(), self.access.len());
                    self.access.push(ua);
                }
            }
            i += 1;
        }
        Ok(states)
    }
}

impl Engine for LStar {
    fn hypothesis(&mut self, cache: &mut Cache<'_>) -> Result<Mealy, MealyError> {
        let states = self.close(cache)?;
        Ok(build(cache, self.access.len(), |q, a| {
            let mut ua = self.access[q].clone();
            ua.push(a);
            let r = states[&self.rows[&ua]];
            let out = cache.known(&ua).expect("filled");
            (r, out[out.len() - 1])
        }))
    }

    fn counterexample(
        &mut self,
        cache: &mut Cache<'_>,
        hyp: &Mealy,
        word: &[Symbol],
    ) -> Result<(), MealyError> {
        // agrees(i): the system's answer to access(state after word[..i]) · word[i..] ends as the
        // hypothesis' outputs on word[i..]. False at 0 (a counterexample), true at word.len().
        let expected = hyp.outputs(word).expect("complete");
        let mut agrees = |i: usize| -> Result<bool, MealyError> {
            let q = hyp.run_from(hyp.initial(), &word[..i]).expect("complete");
            let mut w = self.access[q.index()].clone();
            let split = w.len();
            w.extend_from_slice(&word[i..]);
            let out = cache.outputs(&w)?;
            Ok(out[split..] == expected[i..])
        };
        if agrees(0)? {
            return Ok(());
        }
        let (mut lo, mut hi) = (0, word.len());
        while hi - lo > 1 {
            let mid = usize::midpoint(lo, hi);
            if agrees(mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        // Between lo and lo+1 the answer changes: the suffix after word[lo] tells the state
        // reached by access·word[lo] from the hypothesis' state there.
        let suffix = word[lo + 1..].to_vec();
        if !suffix.is_empty() && !self.columns.contains(&suffix) {
            self.columns.push(suffix);
        }
        Ok(())
    }
}
