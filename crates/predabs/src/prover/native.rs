//! The default backend: a lazy DPLL(T) loop on varisat with the theory solver of [`super::lia`].
//!
//! The formula is Tseitin-encoded into CNF, one SAT variable per boolean symbol and per `<=` atom
//! (an equality is the conjunction of two `<=` atoms, so the theory never sees a disequality). Each
//! SAT model's arithmetic literals form a conjunction handed to the theory solver; a theory conflict
//! is shrunk to a minimal core by deletion (one theory call per literal) and added as a blocking
//! clause, so the loop learns small lemmas instead of enumerating full assignments. A theory
//! `Unknown` blocks just that assignment and is remembered: the final answer is then `Unknown`
//! unless another assignment turns out satisfiable.

use std::collections::HashMap;

use varisat::{ExtendFormula, Lit, Solver};

use super::lia::{self, Constraint, Limits, TheoryResult};
use super::{Model, Prover, ProverError, SatResult};
use crate::formula::{Atom, Formula, LinExpr, Sym, neg};

/// The pure-Rust prover (DPLL(T) on varisat).
#[derive(Clone, Debug)]
pub struct NativeProver {
    /// Most SAT/theory rounds per query before answering `Unknown`.
    pub max_rounds: usize,
    /// Limits of the general linear procedure.
    pub limits: Limits,
}

impl Default for NativeProver {
    /// 100,000 rounds and the default [`Limits`].
    fn default() -> Self {
        Self {
            max_rounds: 100_000,
            limits: Limits::default(),
        }
    }
}

impl NativeProver {
    /// The prover with default limits.
    pub fn new() -> Self {
        Self::default()
    }
}

struct Encoder<'s> {
    solver: Solver<'s>,
    bools: HashMap<Sym, Lit>,
    atoms: HashMap<(LinExpr, i128), Lit>,
    truth: Option<Lit>,
}

impl Encoder<'_> {
    fn truth(&mut self) -> Lit {
        if let Some(t) = self.truth {
            return t;
        }
        let t = self.solver.new_lit();
        self.solver.add_clause(&[t]);
        self.truth = Some(t);
        t
    }

    fn le(&mut self, lin: &LinExpr, c: i128) -> Lit {
        if let Some(&l) = self.atoms.get(&(lin.clone(), c)) {
            return l;
        }
        let l = self.solver.new_lit();
        self.atoms.insert((lin.clone(), c), l);
        l
    }

    fn encode(&mut self, f: &Formula) -> Result<Lit, crate::formula::ArithError> {
        Ok(match f {
            Formula::Const(b) => {
                let t = self.truth();
                if *b { t } else { !t }
            }
            Formula::Atom(Atom::Bool(s)) => {
                let fresh = self.solver.new_lit();
                *self.bools.entry(*s).or_insert(fresh)
            }
            Formula::Atom(Atom::Le(lin, c)) => self.le(lin, *c),
            Formula::Atom(Atom::Eq(lin, c)) => {
                let a = self.le(lin, *c);
                let b = self.le(&lin.scale(-1)?, neg(*c)?);
                self.gate(&[a, b], true)
            }
            Formula::Not(g) => !self.encode(g)?,
            Formula::And(gs) | Formula::Or(gs) => {
                let lits = gs
                    .iter()
                    .map(|g| self.encode(g))
                    .collect::<Result<Vec<_>, _>>()?;
                self.gate(&lits, matches!(f, Formula::And(_)))
            }
        })
    }

    /// A fresh literal equivalent to the conjunction (or disjunction) of `lits`.
    fn gate(&mut self, lits: &[Lit], conj: bool) -> Lit {
        let v = self.solver.new_lit();
        // Disjunction is the dual: v <-> OR(l) iff !v <-> AND(!l).
        let (out, sign) = if conj { (v, false) } else { (!v, true) };
        let mut big = vec![out];
        for &l in lits {
            let l = if sign { !l } else { l };
            self.solver.add_clause(&[!out, l]);
            big.push(!l);
        }
        self.solver.add_clause(&big);
        v
    }
}

impl Prover for NativeProver {
    fn check(&mut self, f: &Formula) -> Result<SatResult, ProverError> {
        if let Formula::Const(b) = f {
            return Ok(if *b {
                SatResult::Sat(Model::default())
            } else {
                SatResult::Unsat
            });
        }
        let mut enc = Encoder {
            solver: Solver::new(),
            bools: HashMap::new(),
            atoms: HashMap::new(),
            truth: None,
        };
        let Ok(root) = enc.encode(f) else {
            return Ok(SatResult::Unknown("integer overflow while encoding".into()));
        };
        enc.solver.add_clause(&[root]);
        let atoms: Vec<((LinExpr, i128), Lit)> =
            enc.atoms.iter().map(|(k, &v)| (k.clone(), v)).collect();
        let mut unknown = None;
        for _ in 0..self.max_rounds {
            match enc.solver.solve() {
                Ok(true) => {}
                Ok(false) => {
                    return Ok(unknown.map_or(SatResult::Unsat, SatResult::Unknown));
                }
                Err(e) => return Ok(SatResult::Unknown(format!("SAT solver: {e}"))),
            }
            let model = enc.solver.model().unwrap_or_default();
            let truth: std::collections::HashSet<Lit> = model.into_iter().collect();
            let (cs, lits) = theory_literals(&atoms, &truth);
            match lia::check(&cs, self.limits) {
                TheoryResult::Sat(ints) => {
                    let bools = enc
                        .bools
                        .iter()
                        .map(|(&s, l)| (s, truth.contains(l)))
                        .collect();
                    let m = Model { ints, bools };
                    if !m.satisfies(f) {
                        return Ok(SatResult::Unknown("model check failed".into()));
                    }
                    return Ok(SatResult::Sat(m));
                }
                TheoryResult::Unsat => {
                    let core = minimise(&cs, self.limits);
                    let clause: Vec<Lit> = core.iter().map(|&i| !lits[i]).collect();
                    enc.solver.add_clause(&clause);
                }
                TheoryResult::Unknown(why) => {
                    unknown = Some(why);
                    let clause: Vec<Lit> = lits.iter().map(|&l| !l).collect();
                    enc.solver.add_clause(&clause);
                }
            }
        }
        Ok(SatResult::Unknown(format!(
            "more than {} DPLL(T) rounds",
            self.max_rounds
        )))
    }

    fn name(&self) -> &'static str {
        "native"
    }
}

/// The arithmetic constraints a SAT model asserts, with the literal behind each.
fn theory_literals(
    atoms: &[((LinExpr, i128), Lit)],
    truth: &std::collections::HashSet<Lit>,
) -> (Vec<Constraint>, Vec<Lit>) {
    let mut cs = Vec::with_capacity(atoms.len());
    let mut lits = Vec::with_capacity(atoms.len());
    for ((lin, c), l) in atoms {
        if truth.contains(l) {
            cs.push(Constraint {
                lin: lin.clone(),
                bound: *c,
            });
            lits.push(*l);
        } else if let (Ok(nl), Some(nc)) = (
            lin.scale(-1),
            c.checked_neg().and_then(|x| x.checked_sub(1)),
        ) {
            // not (lin <= c)  <=>  -lin <= -c - 1 over the integers
            cs.push(Constraint { lin: nl, bound: nc });
            lits.push(!*l);
        }
    }
    (cs, lits)
}

/// Deletion-based minimal unsatisfiable subset (indices into `cs`).
fn minimise(cs: &[Constraint], limits: Limits) -> Vec<usize> {
    let mut core: Vec<usize> = (0..cs.len()).collect();
    let mut i = 0;
    while i < core.len() {
        let trial: Vec<Constraint> = core
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &k)| cs[k].clone())
            .collect();
        if lia::check(&trial, limits) == TheoryResult::Unsat {
            core.remove(i);
        } else {
            i += 1;
        }
    }
    core
}
