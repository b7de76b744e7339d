//! Decision procedures: the [`Prover`] trait and its two backends.
//!
//! Everything the abstraction and the refinement loop ask is *satisfiability of a quantifier-free
//! formula over linear integer arithmetic and booleans, with a model*. Validity and projected
//! all-solutions enumeration are provided methods on top of that single question, so a backend
//! implements one function. Two backends exist:
//!
//! - [`NativeProver`]: DPLL(T) on varisat with our own theory solver ([`lia`]): Bellman-Ford for
//!   difference constraints (complete), Fourier-Motzkin with bounded integer back-substitution for
//!   general linear constraints (complete for unsatisfiability over the rationals; may answer
//!   [`SatResult::Unknown`] when a rational solution has no integer one nearby). Needs nothing
//!   installed.
//! - [`SmtLibProver`]: an external SMT-LIB2 solver process (`z3 -in -smt2` by default), `QF_LIA`.
//!
//! [`CountingProver`] wraps any backend to count calls and cache answers; the abstraction reports
//! those counts.

pub mod lia;
mod native;
mod smtlib;

use std::collections::HashMap;

use crate::formula::{Formula, Sym};

pub use native::NativeProver;
pub use smtlib::SmtLibProver;

/// A satisfying assignment. Symbols it does not mention are unconstrained (read as 0 / false).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// Integer symbols.
    pub ints: HashMap<Sym, i128>,
    /// Boolean symbols.
    pub bools: HashMap<Sym, bool>,
}

impl Model {
    /// The integer value of `s` (0 when unconstrained).
    pub fn int(&self, s: Sym) -> i128 {
        self.ints.get(&s).copied().unwrap_or(0)
    }

    /// The boolean value of `s` (false when unconstrained).
    pub fn bool(&self, s: Sym) -> bool {
        self.bools.get(&s).copied().unwrap_or(false)
    }

    /// Whether the model satisfies `f` (an overflow counts as no).
    pub fn satisfies(&self, f: &Formula) -> bool {
        f.eval(&|s| self.int(s), &|s| self.bool(s)).unwrap_or(false)
    }
}

/// The answer to a satisfiability question.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SatResult {
    /// Satisfiable, with a model.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The backend could not decide (with a reason).
    Unknown(String),
}

impl SatResult {
    /// `Some(true)` for sat, `Some(false)` for unsat, `None` for unknown.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Sat(_) => Some(true),
            Self::Unsat => Some(false),
            Self::Unknown(_) => None,
        }
    }
}

/// Why a prover failed to answer (distinct from [`SatResult::Unknown`], which is an answer).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProverError {
    /// The external solver could not be started or talked to.
    #[error("solver process: {0}")]
    Process(String),
    /// The external solver answered something we could not read.
    #[error("unexpected solver output: {0}")]
    Protocol(String),
}

/// Projected all-solutions enumeration: the cubes found, and whether the list is complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Distinct truth-value vectors of the projection formulas, one per solution class.
    pub cubes: Vec<Vec<bool>>,
    /// False when the enumeration stopped at the limit or on an unknown answer; callers that need
    /// soundness then treat every vector as possible.
    pub complete: bool,
}

/// A decision procedure for quantifier-free linear integer arithmetic with booleans.
pub trait Prover: std::fmt::Debug {
    /// Decides satisfiability of `f`.
    fn check(&mut self, f: &Formula) -> Result<SatResult, ProverError>;

    /// A short name for reports.
    fn name(&self) -> &str;

    /// `Some(true)` when `f` is valid, `Some(false)` when it is not, `None` when undecided.
    fn is_valid(&mut self, f: &Formula) -> Result<Option<bool>, ProverError> {
        Ok(self.check(&f.clone().negate())?.as_bool().map(|sat| !sat))
    }

    /// Enumerates the truth-value vectors of `over` that some model of `f` realises, by blocking
    /// each found vector (indicator booleans get fresh symbols above every symbol used). Stops after
    /// `limit` vectors.
    fn all_sat(
        &mut self,
        f: &Formula,
        over: &[Formula],
        limit: usize,
    ) -> Result<Enumeration, ProverError> {
        let fresh = std::iter::once(f)
            .chain(over)
            .flat_map(Formula::syms)
            .map(|s| s.0 + 1)
            .max()
            .unwrap_or(0);
        let ind: Vec<Formula> = (0..over.len())
            .map(|i| Formula::bool_var(Sym(fresh + i as u32)))
            .collect();
        let mut parts = vec![f.clone()];
        parts.extend(
            over.iter()
                .zip(&ind)
                .map(|(o, d)| Formula::iff(d.clone(), o.clone())),
        );
        let mut cubes = Vec::new();
        loop {
            if cubes.len() >= limit {
                return Ok(Enumeration {
                    cubes,
                    complete: false,
                });
            }
            let model = match self.check(&Formula::and(parts.clone()))? {
                SatResult::Sat(m) => m,
                SatResult::Unsat => {
                    return Ok(Enumeration {
                        cubes,
                        complete: true,
                    });
                }
                SatResult::Unknown(_) => {
                    return Ok(Enumeration {
                        cubes,
                        complete: false,
                    });
                }
            };
            let cube: Vec<bool> = over.iter().map(|o| model.satisfies(o)).collect();
            let block = Formula::or(
                ind.iter()
                    .zip(&cube)
                    .map(|(d, &v)| if v { d.clone().negate() } else { d.clone() }),
            );
            if block == Formula::FALSE {
                // Nothing to project on: one class, found.
                cubes.push(cube);
                return Ok(Enumeration {
                    cubes,
                    complete: true,
                });
            }
            cubes.push(cube);
            parts.push(block);
        }
    }
}

/// Call and cache counters of a [`CountingProver`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProverStats {
    /// Questions asked by the caller.
    pub queries: usize,
    /// Of those, answered from the cache.
    pub cache_hits: usize,
    /// Answers that were [`SatResult::Unknown`].
    pub unknown: usize,
}

impl ProverStats {
    /// Calls that reached the backend.
    pub fn backend_calls(&self) -> usize {
        self.queries - self.cache_hits
    }
}

/// Wraps a prover: counts calls and caches answers by formula.
#[derive(Debug)]
pub struct CountingProver<'p> {
    inner: &'p mut dyn Prover,
    cache: HashMap<Formula, SatResult>,
    /// The counters so far.
    pub stats: ProverStats,
}

impl<'p> CountingProver<'p> {
    /// Wraps `inner`.
    pub fn new(inner: &'p mut dyn Prover) -> Self {
        Self {
            inner,
            cache: HashMap::new(),
            stats: ProverStats::default(),
        }
    }
}

impl Prover for CountingProver<'_> {
    fn check(&mut self, f: &Formula) -> Result<SatResult, ProverError> {
        self.stats.queries += 1;
        if let Some(r) = self.cache.get(f) {
            self.stats.cache_hits += 1;
            return Ok(r.clone());
        }
        let r = self.inner.check(f)?;
        if matches!(r, SatResult::Unknown(_)) {
            self.stats.unknown += 1;
        }
        self.cache.insert(f.clone(), r.clone());
        Ok(r)
    }

    fn name(&self) -> &str {
        self.inner.name()
    }
}
