//! Quantifier-free formulas over integer and boolean symbols: the one term language shared by the
//! parser, the abstraction, weakest preconditions and every prover backend.
//!
//! Integer terms are *linear* (sums of symbols times constants), so every atom is normalised to one
//! of two shapes, `sum <= c` or `sum = c`, with coefficients divided by their gcd. Normal forms make
//! predicates comparable by plain equality (a refinement step that finds `y1 < y2` again finds the
//! same [`Atom`]), and they are what the theory solver consumes. Arithmetic is on `i128` and every
//! operation is checked: an overflow is an [`ArithError`], never a wrap.

use std::collections::BTreeSet;
use std::fmt;

/// A symbol: a program variable, an SSA copy of one, or a fresh indicator. Its sort (integer or
/// boolean) is given by where it occurs: in a [`LinExpr`] it is an integer, as an [`Atom::Bool`] a
/// boolean. Callers never use one symbol with both sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sym(pub u32);

/// An integer operation overflowed `i128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("integer overflow in linear arithmetic")]
pub struct ArithError;

/// Shorthand for checked results.
pub(crate) type Arith<T> = Result<T, ArithError>;

pub(crate) fn add(a: i128, b: i128) -> Arith<i128> {
    a.checked_add(b).ok_or(ArithError)
}

pub(crate) fn mul(a: i128, b: i128) -> Arith<i128> {
    a.checked_mul(b).ok_or(ArithError)
}

pub(crate) fn neg(a: i128) -> Arith<i128> {
    a.checked_neg().ok_or(ArithError)
}

/// Greatest common divisor of absolute values (0 for two zeros).
pub(crate) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Both inputs came from i128; their gcd fits unless both are i128::MIN, which we cap.
    i128::try_from(a).unwrap_or(i128::MAX)
}

/// A linear sum `a1*x1 + ... + an*xn` without constant, symbols sorted, no zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinExpr {
    terms: Vec<(Sym, i128)>,
}

impl LinExpr {
    /// The empty sum.
    pub fn zero() -> Self {
        Self::default()
    }

    /// The sum `1*x`.
    pub fn var(x: Sym) -> Self {
        Self {
            terms: vec![(x, 1)],
        }
    }

    /// Builds a sum from `(symbol, coefficient)` pairs in any order, merging duplicates.
    pub fn from_terms(terms: impl IntoIterator<Item = (Sym, i128)>) -> Result<Self, ArithError> {
        let mut out = Self::zero();
        for (s, k) in terms {
            out = out.add(&Self {
                terms: vec![(s, k)],
            })?;
        }
        Ok(out)
    }

    /// The `(symbol, coefficient)` pairs, sorted by symbol.
    pub fn terms(&self) -> &[(Sym, i128)] {
        &self.terms
    }

    /// Whether the sum has no term.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// `self + other`.
    #[allow(clippy::many_single_char_names)] // a merge of two sorted lists: i, j, a, b, x, y
    pub fn add(&self, other: &Self) -> Arith<Self> {
        let (mut i, mut j) = (0, 0);
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        while i < self.terms.len() || j < other.terms.len() {
            let next = match (self.terms.get(i), other.terms.get(j)) {
                (Some(&(a, x)), Some(&(b, y))) if a == b => {
                    i += 1;
                    j += 1;
                    (a, add(x, y)?)
                }
                (Some(&(a, x)), Some(&(b, _))) if a < b => {
                    i += 1;
                    (a, x)
                }
                (Some(&t), None) => {
                    i += 1;
                    t
                }
                (_, Some(&t)) => {
                    j += 1;
                    t
                }
                (None, None) => unreachable!("loop condition"),
            };
            if next.1 != 0 {
                terms.push(next);
            }
        }
        Ok(Self { terms })
    }

    /// `k * self`.
    pub fn scale(&self, k: i128) -> Arith<Self> {
        if k == 0 {
            return Ok(Self::zero());
        }
        let terms = self
            .terms
            .iter()
            .map(|&(s, a)| Ok((s, mul(a, k)?)))
            .collect::<Arith<_>>()?;
        Ok(Self { terms })
    }

    /// Coefficient of `x` (0 when absent).
    pub fn coeff(&self, x: Sym) -> i128 {
        self.terms
            .binary_search_by_key(&x, |t| t.0)
            .map_or(0, |i| self.terms[i].1)
    }

    /// Value under an integer assignment.
    pub fn eval(&self, value: &impl Fn(Sym) -> i128) -> Arith<i128> {
        self.terms
            .iter()
            .try_fold(0i128, |acc, &(s, a)| add(acc, mul(a, value(s))?))
    }

    /// gcd of the coefficients (0 for the empty sum).
    fn content(&self) -> i128 {
        self.terms.iter().fold(0, |g, &(_, a)| gcd(g, a))
    }

    fn div_exact(&self, g: i128) -> Self {
        Self {
            terms: self.terms.iter().map(|&(s, a)| (s, a / g)).collect(),
        }
    }
}

/// An integer term `lin + constant`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Affine {
    /// The linear part.
    pub lin: LinExpr,
    /// The constant part.
    pub constant: i128,
}

impl Affine {
    /// The constant `c`.
    pub fn constant(c: i128) -> Self {
        Self {
            lin: LinExpr::zero(),
            constant: c,
        }
    }

    /// The variable `x`.
    pub fn var(x: Sym) -> Self {
        Self {
            lin: LinExpr::var(x),
            constant: 0,
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Self) -> Arith<Self> {
        Ok(Self {
            lin: self.lin.add(&other.lin)?,
            constant: add(self.constant, other.constant)?,
        })
    }

    /// `k * self`.
    pub fn scale(&self, k: i128) -> Arith<Self> {
        Ok(Self {
            lin: self.lin.scale(k)?,
            constant: mul(self.constant, k)?,
        })
    }

    /// `self - other`.
    pub fn sub(&self, other: &Self) -> Arith<Self> {
        self.add(&other.scale(-1)?)
    }

    /// The constant value, if the linear part is empty.
    pub fn as_constant(&self) -> Option<i128> {
        self.lin.is_zero().then_some(self.constant)
    }

    /// Value under an integer assignment.
    pub fn eval(&self, value: &impl Fn(Sym) -> i128) -> Arith<i128> {
        add(self.lin.eval(value)?, self.constant)
    }
}

/// A normalised atomic formula.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Atom {
    /// A boolean symbol.
    Bool(Sym),
    /// `lin <= c`, coefficients with gcd 1.
    Le(LinExpr, i128),
    /// `lin = c`, coefficients with gcd 1 and the first one positive.
    Eq(LinExpr, i128),
}

impl Atom {
    /// The symbols the atom mentions.
    pub fn syms(&self) -> impl Iterator<Item = Sym> + '_ {
        let (lin, b) = match self {
            Self::Bool(s) => (None, Some(*s)),
            Self::Le(l, _) | Self::Eq(l, _) => (Some(l), None),
        };
        b.into_iter()
            .chain(lin.into_iter().flat_map(|l| l.terms.iter().map(|t| t.0)))
    }
}

/// A quantifier-free formula.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Formula {
    /// `true` or `false`.
    Const(bool),
    /// An atom.
    Atom(Atom),
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction (empty = true).
    And(Vec<Formula>),
    /// Disjunction (empty = false).
    Or(Vec<Formula>),
}

/// A value a substitution may give an integer or boolean symbol.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Term {
    /// An integer term.
    Int(Affine),
    /// A boolean term.
    Bool(Formula),
}

impl Formula {
    /// `true`.
    pub const TRUE: Self = Self::Const(true);
    /// `false`.
    pub const FALSE: Self = Self::Const(false);

    /// The boolean symbol `b`.
    pub fn bool_var(b: Sym) -> Self {
        Self::Atom(Atom::Bool(b))
    }

    /// `a <= b`, normalised.
    pub fn le(a: &Affine, b: &Affine) -> Arith<Self> {
        let d = a.sub(b)?;
        Self::lin_le(&d.lin, neg(d.constant)?)
    }

    /// `a < b`, normalised (integers: `a <= b - 1`).
    pub fn lt(a: &Affine, b: &Affine) -> Arith<Self> {
        Self::le(a, &b.add(&Affine::constant(-1))?)
    }

    /// `a = b`, normalised.
    pub fn eq(a: &Affine, b: &Affine) -> Arith<Self> {
        let d = a.sub(b)?;
        Self::lin_eq(&d.lin, neg(d.constant)?)
    }

    /// `lin <= c`, normalised: divided by the coefficients' gcd, constant rounded down.
    pub fn lin_le(lin: &LinExpr, c: i128) -> Arith<Self> {
        let g = lin.content();
        if g == 0 {
            return Ok(Self::Const(0 <= c));
        }
        Ok(Self::Atom(Atom::Le(lin.div_exact(g), c.div_euclid(g))))
    }

    /// `lin = c`, normalised: gcd 1, first coefficient positive; `false` when `c` is not a multiple.
    pub fn lin_eq(lin: &LinExpr, c: i128) -> Arith<Self> {
        let g = lin.content();
        if g == 0 {
            return Ok(Self::Const(c == 0));
        }
        if c % g != 0 {
            return Ok(Self::FALSE);
        }
        let (mut lin, mut c) = (lin.div_exact(g), c / g);
        if lin.terms[0].1 < 0 {
            lin = lin.scale(-1)?;
            c = neg(c)?;
        }
        Ok(Self::Atom(Atom::Eq(lin, c)))
    }

    /// Negation, folding constants and double negations.
    #[must_use]
    pub fn negate(self) -> Self {
        match self {
            Self::Const(b) => Self::Const(!b),
            Self::Not(f) => *f,
            f => Self::Not(Box::new(f)),
        }
    }

    /// Conjunction, flattening nested conjunctions and folding constants.
    pub fn and(parts: impl IntoIterator<Item = Self>) -> Self {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Self::Const(true) => {}
                Self::Const(false) => return Self::FALSE,
                Self::And(ps) => out.extend(ps),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Self::TRUE,
            1 => out.pop().unwrap_or(Self::TRUE),
            _ => Self::And(out),
        }
    }

    /// Disjunction, flattening nested disjunctions and folding constants.
    pub fn or(parts: impl IntoIterator<Item = Self>) -> Self {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Self::Const(false) => {}
                Self::Const(true) => return Self::TRUE,
                Self::Or(ps) => out.extend(ps),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Self::FALSE,
            1 => out.pop().unwrap_or(Self::FALSE),
            _ => Self::Or(out),
        }
    }

    /// `a => b`.
    #[must_use]
    pub fn implies(a: Self, b: Self) -> Self {
        Self::or([a.negate(), b])
    }

    /// `a <=> b`.
    #[must_use]
    pub fn iff(a: Self, b: Self) -> Self {
        Self::or([
            Self::and([a.clone(), b.clone()]),
            Self::and([a.negate(), b.negate()]),
        ])
    }

    /// The distinct atoms, in order of first occurrence.
    pub fn atoms(&self) -> Vec<Atom> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        self.visit_atoms(&mut |a| {
            if seen.insert(a.clone()) {
                out.push(a.clone());
            }
        });
        out
    }

    fn visit_atoms(&self, f: &mut impl FnMut(&Atom)) {
        match self {
            Self::Const(_) => {}
            Self::Atom(a) => f(a),
            Self::Not(g) => g.visit_atoms(f),
            Self::And(gs) | Self::Or(gs) => gs.iter().for_each(|g| g.visit_atoms(f)),
        }
    }

    /// The symbols the formula mentions.
    pub fn syms(&self) -> BTreeSet<Sym> {
        let mut out = BTreeSet::new();
        self.visit_atoms(&mut |a| out.extend(a.syms()));
        out
    }

    /// Replaces symbols by terms (`subst` returns `None` to keep a symbol) and renormalises.
    pub fn substitute(&self, subst: &impl Fn(Sym) -> Option<Term>) -> Arith<Self> {
        Ok(match self {
            Self::Const(b) => Self::Const(*b),
            Self::Atom(a) => substitute_atom(a, subst)?,
            Self::Not(g) => g.substitute(subst)?.negate(),
            Self::And(gs) => Self::and(
                gs.iter()
                    .map(|g| g.substitute(subst))
                    .collect::<Arith<Vec<_>>>()?,
            ),
            Self::Or(gs) => Self::or(
                gs.iter()
                    .map(|g| g.substitute(subst))
                    .collect::<Arith<Vec<_>>>()?,
            ),
        })
    }

    /// Truth value under an assignment (integer and boolean lookups).
    pub fn eval(&self, int: &impl Fn(Sym) -> i128, boolean: &impl Fn(Sym) -> bool) -> Arith<bool> {
        Ok(match self {
            Self::Const(b) => *b,
            Self::Atom(Atom::Bool(s)) => boolean(*s),
            Self::Atom(Atom::Le(l, c)) => l.eval(int)? <= *c,
            Self::Atom(Atom::Eq(l, c)) => l.eval(int)? == *c,
            Self::Not(g) => !g.eval(int, boolean)?,
            Self::And(gs) => {
                for g in gs {
                    if !g.eval(int, boolean)? {
                        return Ok(false);
                    }
                }
                true
            }
            Self::Or(gs) => {
                for g in gs {
                    if g.eval(int, boolean)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }

    /// A printable form with symbol names from `name`.
    pub fn display<'a>(&'a self, name: &'a dyn Fn(Sym) -> String) -> impl fmt::Display + 'a {
        Shown { f: self, name }
    }
}

fn substitute_atom(a: &Atom, subst: &impl Fn(Sym) -> Option<Term>) -> Arith<Formula> {
    let (lin, c, is_eq) = match a {
        Atom::Bool(s) => {
            return Ok(match subst(*s) {
                Some(Term::Bool(f)) => f,
                _ => Formula::Atom(a.clone()),
            });
        }
        Atom::Le(l, c) => (l, *c, false),
        Atom::Eq(l, c) => (l, *c, true),
    };
    let mut sum = Affine::default();
    for &(s, k) in lin.terms() {
        let t = match subst(s) {
            Some(Term::Int(t)) => t,
            _ => Affine::var(s),
        };
        sum = sum.add(&t.scale(k)?)?;
    }
    let rhs = add(c, neg(sum.constant)?)?;
    if is_eq {
        Formula::lin_eq(&sum.lin, rhs)
    } else {
        Formula::lin_le(&sum.lin, rhs)
    }
}

struct Shown<'a> {
    f: &'a Formula,
    name: &'a dyn Fn(Sym) -> String,
}

impl Shown<'_> {
    fn sub<'b>(&'b self, f: &'b Formula) -> Shown<'b> {
        Shown { f, name: self.name }
    }

    fn lin(&self, out: &mut fmt::Formatter<'_>, l: &LinExpr) -> fmt::Result {
        for (i, &(s, k)) in l.terms().iter().enumerate() {
            let sign = if k < 0 { "-" } else { "+" };
            if i > 0 {
                write!(out, " {sign} ")?;
            } else if k < 0 {
                write!(out, "-")?;
            }
            if k.unsigned_abs() != 1 {
                write!(out, "{}*", k.unsigned_abs())?;
            }
            write!(out, "{}", (self.name)(s))?;
        }
        Ok(())
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.f {
            Formula::Const(b) => write!(out, "{b}"),
            Formula::Atom(Atom::Bool(s)) => write!(out, "{}", (self.name)(*s)),
            Formula::Atom(Atom::Le(l, c)) => {
                self.lin(out, l)?;
                write!(out, " <= {c}")
            }
            Formula::Atom(Atom::Eq(l, c)) => {
                self.lin(out, l)?;
                write!(out, " == {c}")
            }
            Formula::Not(g) => write!(out, "!({})", self.sub(g)),
            Formula::And(gs) | Formula::Or(gs) => {
                let op = if matches!(self.f, Formula::And(_)) {
                    " && "
                } else {
                    " || "
                };
                write!(out, "(")?;
                for (i, g) in gs.iter().enumerate() {
                    if i > 0 {
                        write!(out, "{op}")?;
                    }
                    write!(out, "{}", self.sub(g))?;
                }
                write!(out, ")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Affine {
        Affine::var(Sym(0))
    }
    fn y() -> Affine {
        Affine::var(Sym(1))
    }

    #[test]
    fn normal_forms_make_equal_atoms_equal() {
        // 2x - 2y <= 3  ==  x - y <= 1  ==  x < y + 2
        let a = Formula::le(
            &x().scale(2).unwrap(),
            &y().scale(2).unwrap().add(&Affine::constant(3)).unwrap(),
        )
        .unwrap();
        let b = Formula::lt(&x(), &y().add(&Affine::constant(2)).unwrap()).unwrap();
        assert_eq!(a, b);
        // y = x  ==  x - y = 0 with the first coefficient positive
        assert_eq!(
            Formula::eq(&y(), &x()).unwrap(),
            Formula::eq(&x(), &y()).unwrap()
        );
        // 2x = 1 is false over the integers
        assert_eq!(
            Formula::eq(&x().scale(2).unwrap(), &Affine::constant(1)).unwrap(),
            Formula::FALSE
        );
    }

    #[test]
    fn substitution_renormalises() {
        // (x <= y)[x := y + 1] = (1 <= 0) = false
        let f = Formula::le(&x(), &y()).unwrap();
        let g = f
            .substitute(&|s| {
                (s == Sym(0)).then(|| Term::Int(y().add(&Affine::constant(1)).unwrap()))
            })
            .unwrap();
        assert_eq!(g, Formula::FALSE);
    }

    #[test]
    fn overflow_is_an_error() {
        let big = Affine::constant(i128::MAX);
        assert_eq!(big.add(&Affine::constant(1)), Err(ArithError));
        assert!(x().scale(i128::MAX).unwrap().scale(2).is_err());
    }
}
