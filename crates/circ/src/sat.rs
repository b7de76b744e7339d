//! The small solver interface the encoder is written against: [`ClauseSink`] (new variables and
//! clauses) and [`SatBackend`] (solving under assumption literals, reading the model).
//!
//! The encoder only ever writes into a [`ClauseSink`], so the same code feeds a live solver
//! incrementally and a [`varisat::CnfFormula`] that tests dump as DIMACS
//! ([`varisat::dimacs::write_dimacs`]). [`VarisatBackend`] is the default backend.
//!
//! **Conflict budget.** varisat 0.2 has no conflict limit and cannot be interrupted. It can write
//! a proof to any `io::Write`, and every learnt clause is one step there, so a writer that parses
//! the proof stream, counts learnt-clause steps and fails once the budget is spent stops the solver
//! with an I/O error, which becomes [`CircError::SatBudget`]. (DRAT would be simpler to parse but
//! varisat cannot write it when solving under assumptions.) The proof is only produced when a
//! budget is set.

use std::cell::Cell;
use std::fmt;
use std::io;
use std::rc::Rc;

use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

use crate::error::CircError;

/// Where an encoding goes: fresh variables and clauses.
pub trait ClauseSink {
    /// A fresh variable, as its positive literal.
    fn new_lit(&mut self) -> Lit;
    /// Adds the clause (a disjunction of literals).
    fn add_clause(&mut self, lits: &[Lit]);
}

impl ClauseSink for CnfFormula {
    fn new_lit(&mut self) -> Lit {
        ExtendFormula::new_lit(self)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        ExtendFormula::add_clause(self, lits);
    }
}

/// A SAT solver usable incrementally.
pub trait SatBackend: ClauseSink {
    /// Solves the clauses added so far under the `assumptions`; `true` for satisfiable.
    ///
    /// # Errors
    /// [`CircError::SatBudget`] when the backend's conflict budget ran out; [`CircError::Solver`]
    /// for other failures.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, CircError>;
    /// The value of `lit` in the last model (only meaningful after a satisfiable `solve`).
    fn value(&self, lit: Lit) -> bool;
    /// Learnt clauses so far (0 if the backend does not count them).
    fn learnt(&self) -> u64;
    /// After an unsatisfiable `solve`: assumptions that together are contradictory (a subset of
    /// them; all of them if the backend cannot tell).
    fn failed_core(&self) -> Vec<Lit>;
}

/// varisat as a [`SatBackend`], with an optional budget of learnt clauses.
pub struct VarisatBackend {
    solver: Solver<'static>,
    model: Vec<bool>,
    assumed: Vec<Lit>,
    learnt: Rc<Cell<u64>>,
    limit: Option<u64>,
}

impl fmt::Debug for VarisatBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VarisatBackend")
            .field("learnt", &self.learnt.get())
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Default for VarisatBackend {
    fn default() -> Self {
        Self::new(None)
    }
}

impl VarisatBackend {
    /// A fresh solver; with `Some(limit)` it fails with [`CircError::SatBudget`] after about
    /// `limit` learnt clauses.
    pub fn new(limit: Option<u64>) -> Self {
        let mut solver = Solver::new();
        let learnt = Rc::new(Cell::new(0));
        if let Some(limit) = limit {
            let counter = ProofCounter::new(Rc::clone(&learnt), limit);
            solver.write_proof(counter, ProofFormat::Varisat);
        }
        Self {
            solver,
            model: Vec::new(),
            assumed: Vec::new(),
            learnt,
            limit,
        }
    }
}

impl ClauseSink for VarisatBackend {
    fn new_lit(&mut self) -> Lit {
        self.solver.new_lit()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.solver.add_clause(lits);
    }
}

impl SatBackend for VarisatBackend {
    fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, CircError> {
        self.solver.assume(assumptions);
        self.assumed = assumptions.to_vec();
        match self.solver.solve() {
            Ok(true) => {
                let model = self.solver.model().unwrap_or_default();
                self.model = vec![false; model.iter().map(|l| l.index() + 1).max().unwrap_or(0)];
                for l in model {
                    self.model[l.index()] = l.is_positive();
                }
                Ok(true)
            }
            Ok(false) => Ok(false),
            Err(varisat::solver::SolverError::ProofIoError { .. }) if self.limit.is_some() => {
                Err(CircError::SatBudget {
                    limit: self.limit.unwrap_or(0),
                })
            }
            Err(e) => Err(CircError::Solver {
                reason: e.to_string(),
            }),
        }
    }

    fn value(&self, lit: Lit) -> bool {
        self.model.get(lit.index()).copied().unwrap_or(false) == lit.is_positive()
    }

    fn learnt(&self) -> u64 {
        self.learnt.get()
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.solver
            .failed_core()
            .map_or_else(|| self.assumed.clone(), <[Lit]>::to_vec)
    }
}

/// What the proof parser expects next.
#[derive(Clone, Copy, Debug)]
enum Field {
    /// This many plain numbers.
    Fixed(u64),
    /// A length `l`, then `l * width` numbers.
    List(u64),
}

/// Counts learnt clauses in varisat's native proof stream and fails once more than `limit` were
/// written. The stream is a sequence of steps: a step code, then fields of prefix-length varints
/// (the number of trailing zero bits of the first byte is the number of extra bytes; a zero first
/// byte means 9 or 10 bytes, told apart by the next byte). Code 7 is a redundant (learnt)
/// clause. DRAT, which would be simpler to parse, cannot express solving under assumptions.
#[derive(Debug)]
struct ProofCounter {
    count: Rc<Cell<u64>>,
    limit: u64,
    /// The bytes of the number being read.
    num: Vec<u8>,
    /// Fields still to read in the current step (front first).
    fields: Vec<Field>,
    /// Remaining plain numbers of the current field.
    left: u64,
    /// Width of the current list, when its length is being read.
    list_width: Option<u64>,
}

impl ProofCounter {
    fn new(count: Rc<Cell<u64>>, limit: u64) -> Self {
        Self {
            count,
            limit,
            num: Vec::with_capacity(10),
            fields: Vec::new(),
            left: 0,
            list_width: None,
        }
    }

    /// The number of bytes of the number starting with `num`, once known.
    fn num_len(num: &[u8]) -> Option<usize> {
        match num {
            [] | [0] => None,
            [0, b, ..] => Some(if b & 1 == 1 { 9 } else { 10 }),
            [b, ..] => Some(b.trailing_zeros() as usize + 1),
        }
    }

    /// The value of a complete number (saturated for the long forms, which only hashes use).
    fn value(num: &[u8]) -> u64 {
        if num.len() > 8 {
            return u64::MAX;
        }
        let mut v = 0u64;
        for (i, &b) in num.iter().enumerate() {
            v |= u64::from(b) << (8 * i);
        }
        v >> num.len()
    }

    /// The fields of the step with `code`.
    fn schema(code: u64) -> Vec<Field> {
        match code {
            0 | 2 => vec![Field::Fixed(2)],
            1 | 3..=6 | 13 => vec![Field::Fixed(1)],
            7 | 8 | 17 => vec![Field::List(1), Field::List(1)],
            9 => vec![Field::List(2)],
            10..=12 | 14..=16 => vec![Field::List(1)],
            _ => Vec::new(),
        }
    }

    fn number(&mut self, value: u64) {
        if let Some(width) = self.list_width.take() {
            self.left = value.saturating_mul(width);
        } else if self.left > 0 {
            self.left -= 1;
        } else {
            // A step code.
            if value == 7 {
                self.count.set(self.count.get() + 1);
            }
            let mut fields = Self::schema(value);
            fields.reverse();
            self.fields = fields;
        }
        while self.left == 0 && self.list_width.is_none() {
            match self.fields.pop() {
                Some(Field::Fixed(k)) => self.left = k,
                Some(Field::List(w)) => self.list_width = Some(w),
                None => break,
            }
        }
    }
}

impl io::Write for ProofCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            self.num.push(b);
            if Self::num_len(&self.num) == Some(self.num.len()) {
                let v = Self::value(&self.num);
                self.num.clear();
                self.number(v);
            }
        }
        if self.count.get() > self.limit {
            return Err(io::Error::other("SAT conflict budget exhausted"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pigeonhole: `holes + 1` pigeons into `holes` holes (hard for resolution).
    fn pigeonhole<S: ClauseSink>(sink: &mut S, holes: usize) {
        let p: Vec<Vec<Lit>> = (0..=holes)
            .map(|_| (0..holes).map(|_| sink.new_lit()).collect())
            .collect();
        for row in &p {
            sink.add_clause(row);
        }
        for h in 0..holes {
            for a in 0..=holes {
                for b in a + 1..=holes {
                    sink.add_clause(&[!p[a][h], !p[b][h]]);
                }
            }
        }
    }

    #[test]
    fn conflict_budget_ends_in_a_typed_error() {
        let mut s = VarisatBackend::new(Some(50));
        pigeonhole(&mut s, 8);
        assert_eq!(s.solve(&[]), Err(CircError::SatBudget { limit: 50 }));
    }

    #[test]
    fn budgeted_solver_still_solves_easy_instances_incrementally() {
        let mut s = VarisatBackend::new(Some(10_000));
        let a = s.new_lit();
        let b = s.new_lit();
        s.add_clause(&[a, b]);
        assert_eq!(s.solve(&[!a]), Ok(true));
        assert!(s.value(b) && !s.value(a));
        assert_eq!(s.solve(&[!a, !b]), Ok(false));
        let core = s.failed_core();
        assert!(core.iter().all(|l| [!a, !b].contains(l)) && !core.is_empty());
        let c = s.new_lit();
        assert_eq!(s.solve(&[c, !a, !b]), Ok(false));
        assert!(!s.failed_core().contains(&c), "{:?}", s.failed_core());
        pigeonhole(&mut s, 4);
        assert_eq!(s.solve(&[]), Ok(false));
    }

    #[test]
    fn cnf_sink_dumps_dimacs() {
        let mut f = CnfFormula::new();
        pigeonhole(&mut f, 2);
        let mut out = Vec::new();
        varisat::dimacs::write_dimacs(&mut out, &f).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("p cnf 6 9"), "{text}");
    }
}
