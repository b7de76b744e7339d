//! The theory solver of the native backend: conjunctions of linear integer constraints
//! `a1*x1 + ... + an*xn <= c`.
//!
//! Two procedures, chosen per conjunction:
//! - **Difference logic** (every constraint is `x - y <= c`, `x <= c` or `-x <= c`): Bellman-Ford
//!   on the constraint graph. Complete: a negative cycle is exactly unsatisfiability, and shortest
//!   distances are an integer model.
//! - **General linear constraints**: Fourier-Motzkin elimination with gcd tightening (every derived
//!   constraint is divided by its coefficients' gcd and its bound rounded down, which is sound over
//!   the integers and removes many rational-only solutions). A contradiction proves
//!   unsatisfiability (over the rationals, hence the integers). Otherwise a model is searched by
//!   back-substitution in reverse elimination order, trying a bounded number of integer values per
//!   variable with backtracking; if that search fails or the constraint set grows past a limit, the
//!   answer is [`TheoryResult::Unknown`]. So: `Unsat` and `Sat` are always right; `Unknown` happens
//!   only for general (non-difference) constraints whose real relaxation is satisfiable but whose
//!   integer solutions are not found near the chosen values.

use std::collections::HashMap;

use crate::formula::{Arith, ArithError, LinExpr, Sym, add, gcd, mul, neg};

/// One constraint `lin <= bound`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// The linear sum.
    pub lin: LinExpr,
    /// The upper bound.
    pub bound: i128,
}

/// The answer of the theory solver.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TheoryResult {
    /// Satisfiable, with an integer model of the constraint symbols.
    Sat(HashMap<Sym, i128>),
    /// Unsatisfiable.
    Unsat,
    /// Not decided (reason).
    Unknown(String),
}

/// Limits of the general procedure.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most constraints alive during Fourier-Motzkin elimination.
    pub max_constraints: usize,
    /// Most value choices tried during back-substitution.
    pub max_search_nodes: usize,
}

impl Default for Limits {
    /// 4,000 constraints, 20,000 search nodes.
    fn default() -> Self {
        Self {
            max_constraints: 4_000,
            max_search_nodes: 20_000,
        }
    }
}

/// Decides the conjunction of `cs` over the integers.
pub fn check(cs: &[Constraint], limits: Limits) -> TheoryResult {
    let r = if cs.iter().all(is_difference) {
        bellman_ford(cs)
    } else {
        fourier_motzkin(cs, limits)
    };
    r.unwrap_or_else(|ArithError| TheoryResult::Unknown("integer overflow".into()))
}

fn is_difference(c: &Constraint) -> bool {
    match c.lin.terms() {
        [] => true,
        [(_, a)] => a.abs() == 1,
        [(_, a), (_, b)] => a + b == 0 && a.abs() == 1,
        _ => false,
    }
}

/// Bellman-Ford with a virtual source at distance 0 to every node; node 0 is the constant zero.
#[allow(clippy::many_single_char_names)] // graph notation: u, v, w, d, n
fn bellman_ford(cs: &[Constraint]) -> Arith<TheoryResult> {
    let mut index: HashMap<Sym, usize> = HashMap::new();
    let node = |s: Sym, index: &mut HashMap<Sym, usize>| {
        let n = index.len() + 1;
        *index.entry(s).or_insert(n)
    };
    // Edge (u, v, w) means d[v] <= d[u] + w.
    let mut edges = Vec::with_capacity(cs.len());
    for c in cs {
        match *c.lin.terms() {
            [] if c.bound < 0 => return Ok(TheoryResult::Unsat),
            [] => {}
            [(x, 1)] => edges.push((0, node(x, &mut index), c.bound)),
            [(x, _)] => edges.push((node(x, &mut index), 0, c.bound)),
            [(x, a), (y, _)] => {
                let (p, m) = if a == 1 { (x, y) } else { (y, x) };
                let (p, m) = (node(p, &mut index), node(m, &mut index));
                edges.push((m, p, c.bound));
            }
            _ => unreachable!("checked by is_difference"),
        }
    }
    let n = index.len() + 1;
    let mut d = vec![0i128; n];
    for round in 0..=n {
        let mut changed = false;
        for &(u, v, w) in &edges {
            let cand = add(d[u], w)?;
            if cand < d[v] {
                d[v] = cand;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        if round == n {
            return Ok(TheoryResult::Unsat);
        }
    }
    let model = index
        .into_iter()
        .map(|(s, i)| Ok((s, add(d[i], neg(d[0])?)?)))
        .collect::<Arith<_>>()?;
    Ok(TheoryResult::Sat(model))
}

/// Divides by the gcd of the coefficients and rounds the bound down.
fn tighten(lin: LinExpr, bound: i128) -> Constraint {
    let g = lin.terms().iter().fold(0, |g, &(_, a)| gcd(g, a));
    if g <= 1 {
        return Constraint { lin, bound };
    }
    let terms = lin.terms().iter().map(|&(s, a)| (s, a / g));
    Constraint {
        lin: LinExpr::from_terms(terms).unwrap_or(lin),
        bound: bound.div_euclid(g),
    }
}

/// Keeps the tightest bound per linear sum; reports a trivial contradiction.
fn insert(set: &mut HashMap<LinExpr, i128>, c: Constraint) -> bool {
    if c.lin.is_zero() {
        return c.bound >= 0;
    }
    let e = set.entry(c.lin).or_insert(c.bound);
    *e = (*e).min(c.bound);
    true
}

struct Stage {
    var: Sym,
    mentions: Vec<Constraint>,
}

fn fourier_motzkin(cs: &[Constraint], limits: Limits) -> Arith<TheoryResult> {
    let mut cur: HashMap<LinExpr, i128> = HashMap::new();
    for c in cs {
        if !insert(&mut cur, tighten(c.lin.clone(), c.bound)) {
            return Ok(TheoryResult::Unsat);
        }
    }
    let mut stages = Vec::new();
    while let Some(x) = pick_variable(&cur) {
        let (mentions, rest): (Vec<_>, Vec<_>) = cur
            .drain()
            .map(|(lin, bound)| Constraint { lin, bound })
            .partition(|c| c.lin.coeff(x) != 0);
        cur = rest.into_iter().map(|c| (c.lin, c.bound)).collect();
        for p in mentions.iter().filter(|c| c.lin.coeff(x) > 0) {
            for n in mentions.iter().filter(|c| c.lin.coeff(x) < 0) {
                let (a, b) = (p.lin.coeff(x), neg(n.lin.coeff(x))?);
                let lin = p.lin.scale(b)?.add(&n.lin.scale(a)?)?;
                let bound = add(mul(p.bound, b)?, mul(n.bound, a)?)?;
                if !insert(&mut cur, tighten(lin, bound)) {
                    return Ok(TheoryResult::Unsat);
                }
            }
        }
        if cur.len() > limits.max_constraints {
            return Ok(TheoryResult::Unknown(format!(
                "Fourier-Motzkin grew past {} constraints",
                limits.max_constraints
            )));
        }
        stages.push(Stage { var: x, mentions });
    }
    let mut values = HashMap::new();
    let mut nodes = limits.max_search_nodes;
    if assign(&stages, &mut values, &mut nodes)? {
        Ok(TheoryResult::Sat(values))
    } else {
        Ok(TheoryResult::Unknown(
            "no integer model found by bounded back-substitution".into(),
        ))
    }
}

/// The variable whose elimination creates the fewest constraints.
fn pick_variable(cur: &HashMap<LinExpr, i128>) -> Option<Sym> {
    let mut count: HashMap<Sym, (usize, usize)> = HashMap::new();
    for lin in cur.keys() {
        for &(s, a) in lin.terms() {
            let e = count.entry(s).or_default();
            if a > 0 { e.0 += 1 } else { e.1 += 1 }
        }
    }
    count
        .into_iter()
        .min_by_key(|&(s, (p, n))| (p * n, s))
        .map(|(s, _)| s)
}

fn floor_div(n: i128, d: i128) -> Arith<i128> {
    if d > 0 {
        Ok(n.div_euclid(d))
    } else {
        Ok(neg(n)?.div_euclid(neg(d)?))
    }
}

/// Assigns the eliminated variables last-eliminated first, backtracking over a few candidates.
fn assign(stages: &[Stage], values: &mut HashMap<Sym, i128>, nodes: &mut usize) -> Arith<bool> {
    let Some((stage, earlier)) = stages.split_last() else {
        return Ok(true);
    };
    let (mut lo, mut hi) = (None::<i128>, None::<i128>);
    for c in &stage.mentions {
        let a = c.lin.coeff(stage.var);
        let mut rest = c.bound;
        for &(s, k) in c.lin.terms() {
            if s != stage.var {
                rest = add(rest, neg(mul(k, values.get(&s).copied().unwrap_or(0))?)?)?;
            }
        }
        if a > 0 {
            let h = floor_div(rest, a)?;
            hi = Some(hi.map_or(h, |x| x.min(h)));
        } else {
            // a*x <= rest with a < 0 means x >= ceil(rest / a) = -floor(-rest / a).
            let l = neg(floor_div(neg(rest)?, a)?)?;
            lo = Some(lo.map_or(l, |x| x.max(l)));
        }
    }
    for v in candidates(lo, hi) {
        if *nodes == 0 {
            return Ok(false);
        }
        *nodes -= 1;
        values.insert(stage.var, v);
        if assign(earlier, values, nodes)? {
            return Ok(true);
        }
    }
    values.remove(&stage.var);
    Ok(false)
}

/// Up to 8 integers in `[lo, hi]`, nearest to 0 (clamped) first, alternating outward.
fn candidates(lo: Option<i128>, hi: Option<i128>) -> Vec<i128> {
    if let (Some(l), Some(h)) = (lo, hi)
        && l > h
    {
        return Vec::new();
    }
    let start = 0i128
        .max(lo.unwrap_or(i128::MIN))
        .min(hi.unwrap_or(i128::MAX));
    let ok = |v: i128| lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h);
    let mut out = vec![start];
    for d in 1..=8i128 {
        for v in [start.checked_add(d), start.checked_sub(d)]
            .into_iter()
            .flatten()
        {
            if ok(v) && out.len() < 8 {
                out.push(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(terms: &[(u32, i128)], bound: i128) -> Constraint {
        Constraint {
            lin: LinExpr::from_terms(terms.iter().map(|&(s, a)| (Sym(s), a))).unwrap(),
            bound,
        }
    }

    fn satisfied(cs: &[Constraint], m: &HashMap<Sym, i128>) -> bool {
        cs.iter()
            .all(|c| c.lin.eval(&|s| m.get(&s).copied().unwrap_or(0)).unwrap() <= c.bound)
    }

    #[test]
    fn difference_cycle() {
        // x - y <= -1, y - z <= -1, z - x <= 1: sum is -1 < 0, unsat
        let cs = [
            c(&[(0, 1), (1, -1)], -1),
            c(&[(1, 1), (2, -1)], -1),
            c(&[(2, 1), (0, -1)], 1),
        ];
        assert_eq!(check(&cs, Limits::default()), TheoryResult::Unsat);
        let cs = [
            c(&[(0, 1), (1, -1)], -1),
            c(&[(1, 1), (2, -1)], -1),
            c(&[(2, 1), (0, -1)], 2),
            c(&[(0, 1)], 5),
        ];
        let TheoryResult::Sat(m) = check(&cs, Limits::default()) else {
            panic!()
        };
        assert!(satisfied(&cs, &m));
    }

    #[test]
    fn general_constraints() {
        // 2x + 3y <= 6, x >= 1, y >= 1  -> x = 1, y = 1
        let cs = [
            c(&[(0, 2), (1, 3)], 6),
            c(&[(0, -1)], -1),
            c(&[(1, -1)], -1),
        ];
        let TheoryResult::Sat(m) = check(&cs, Limits::default()) else {
            panic!()
        };
        assert!(satisfied(&cs, &m));
        // 2x + 2y = 1 has no integer solution: tightening proves it
        let cs = [c(&[(0, 2), (1, 2)], 1), c(&[(0, -2), (1, -2)], -1)];
        assert_eq!(check(&cs, Limits::default()), TheoryResult::Unsat);
        // x + y <= 1, x - y >= 3, y >= 0 -> unsat
        let cs = [
            c(&[(0, 1), (1, 1)], 1),
            c(&[(0, -1), (1, 1)], -3),
            c(&[(1, -1)], 0),
            c(&[(0, 3), (1, 1)], 100),
        ];
        assert_eq!(check(&cs, Limits::default()), TheoryResult::Unsat);
    }
}
