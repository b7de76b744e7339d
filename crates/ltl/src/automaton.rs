//! Büchi automata of formulas: a tableau construction (in the style of Gerth, Peled, Vardi and
//! Wolper 1995, with Couvreur's transition-based acceptance) into a transition-based generalised
//! Büchi automaton ([`Gba`]).
//!
//! The formula is put in negation normal form over `true`, `false`, literals, `&&`, `||`, `X`, `U`
//! and `R` (`<>f = true U f`, `[]f = false R f`, `f W g = g R (f || g)`), hash-consed. A state of
//! the automaton is the set of subformulas that must hold from the next letter on; its edges are
//! the ways of satisfying all of them now (the expansion rules `f U g = g || (f && X(f U g))`,
//! `f R g = g && (f || X(f R g))`), each labelled with the literals the letter must satisfy and
//! leading to the set of its `X` obligations. Acceptance set `i` holds the edges on which the
//! `i`-th until was not postponed (its right side was chosen, or it was not required), so a run
//! that meets every set infinitely often fulfils every eventuality.
//!
//! The automaton reads one letter per observed action: the valuation of the propositions just
//! after it (see [`crate::formula`]). Its initial state is `{f}`: the first letter is the one
//! after the first observed action.

use std::collections::{BTreeSet, VecDeque};

use guarantor_compose::{Budget, Config};
use guarantor_lts::ops::components_of;
use rustc_hash::FxHashMap;

use crate::error::LtlError;
use crate::formula::{Formula, PropId};

/// A node of the negation-normal-form arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    True,
    False,
    Lit(PropId, bool),
    And(u32, u32),
    Or(u32, u32),
    Next(u32),
    Until(u32, u32),
    Release(u32, u32),
}

/// Hash-consed negation normal form.
#[derive(Debug, Default)]
struct Arena {
    nodes: Vec<Node>,
    index: FxHashMap<Node, u32>,
}

impl Arena {
    fn add(&mut self, n: Node) -> u32 {
        if let Some(&i) = self.index.get(&n) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(n);
        self.index.insert(n, i);
        i
    }

    /// The negation normal form of `f` (negated when `neg`).
    #[allow(clippy::many_single_char_names)] // a, b: operands; x, y: their forms
    fn nnf(&mut self, f: &Formula, neg: bool) -> u32 {
        match (f, neg) {
            (Formula::True, false) | (Formula::False, true) => self.add(Node::True),
            (Formula::True, true) | (Formula::False, false) => self.add(Node::False),
            (Formula::Prop(p), _) => self.add(Node::Lit(*p, !neg)),
            (Formula::Not(a), _) => self.nnf(a, !neg),
            (Formula::And(a, b), false) | (Formula::Or(a, b), true) => {
                let (x, y) = (self.nnf(a, neg), self.nnf(b, neg));
                self.add(Node::And(x, y))
            }
            (Formula::Or(a, b), false) | (Formula::And(a, b), true) => {
                let (x, y) = (self.nnf(a, neg), self.nnf(b, neg));
                self.add(Node::Or(x, y))
            }
            (Formula::Implies(a, b), false) => {
                let (x, y) = (self.nnf(a, true), self.nnf(b, false));
                self.add(Node::Or(x, y))
            }
            (Formula::Implies(a, b), true) => {
                let (x, y) = (self.nnf(a, false), self.nnf(b, true));
                self.add(Node::And(x, y))
            }
            (Formula::Iff(a, b), _) => {
                // (a && b) || (!a && !b), negated: (a && !b) || (!a && b).
                let (pa, na) = (self.nnf(a, false), self.nnf(a, true));
                let (pb, nb) = (self.nnf(b, false), self.nnf(b, true));
                let (l, r) = if neg {
                    (self.add(Node::And(pa, nb)), self.add(Node::And(na, pb)))
                } else {
                    (self.add(Node::And(pa, pb)), self.add(Node::And(na, nb)))
                };
                self.add(Node::Or(l, r))
            }
            (Formula::Next(a), _) => {
                let x = self.nnf(a, neg);
                self.add(Node::Next(x))
            }
            (Formula::Until(a, b), false) => {
                let (x, y) = (self.nnf(a, false), self.nnf(b, false));
                self.add(Node::Until(x, y))
            }
            (Formula::Until(a, b), true) => {
                // !(a U b) = !a R !b
                let (x, y) = (self.nnf(a, true), self.nnf(b, true));
                self.add(Node::Release(x, y))
            }
            (Formula::WeakUntil(a, b), false) => {
                // a W b = b R (a || b)
                let (x, y) = (self.nnf(a, false), self.nnf(b, false));
                let xy = self.add(Node::Or(x, y));
                self.add(Node::Release(y, xy))
            }
            (Formula::WeakUntil(a, b), true) => {
                // !(a W b) = !b U (!a && !b)
                let (x, y) = (self.nnf(a, true), self.nnf(b, true));
                let xy = self.add(Node::And(x, y));
                self.add(Node::Until(y, xy))
            }
            (Formula::Eventually(a), false) | (Formula::Always(a), true) => {
                let t = self.add(Node::True);
                let x = self.nnf(a, neg);
                self.add(Node::Until(t, x))
            }
            (Formula::Always(a), false) | (Formula::Eventually(a), true) => {
                let fa = self.add(Node::False);
                let x = self.nnf(a, neg);
                self.add(Node::Release(fa, x))
            }
        }
    }
}

/// Whether the negation normal form of `f` has no until: its violations are finite bad prefixes
/// (the syntactic safety fragment: literals, `&&`, `||`, `X`, `W`, `[]`, and `U`/`<>` only where a
/// negation turns them into releases).
pub fn is_syntactic_safety(f: &Formula) -> bool {
    let mut arena = Arena::default();
    arena.nnf(f, false);
    !arena.nodes.iter().any(|n| matches!(n, Node::Until(..)))
}

/// An edge of a [`Gba`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GbaEdge {
    /// Propositions the letter must make true.
    pub pos: Vec<PropId>,
    /// Propositions the letter must make false.
    pub neg: Vec<PropId>,
    /// The target state.
    pub target: u32,
    /// The acceptance sets the edge belongs to (bit `i`: set `i`).
    pub acc: u64,
}

impl GbaEdge {
    /// Whether the letter `v` (a value per proposition) satisfies the edge's literals.
    pub fn allows(&self, v: &[bool]) -> bool {
        self.pos.iter().all(|p| v[p.index()]) && self.neg.iter().all(|p| !v[p.index()])
    }
}

/// A transition-based generalised Büchi automaton: a run is accepted when it is infinite and
/// meets every acceptance set infinitely often.
#[derive(Clone, Debug)]
pub struct Gba {
    edges: Vec<Vec<GbaEdge>>,
    sets: usize,
}

/// One way of satisfying a set of obligations now.
#[derive(Clone, Debug, Default)]
struct Branch {
    todo: Vec<u32>,
    done: BTreeSet<u32>,
    pos: BTreeSet<PropId>,
    neg: BTreeSet<PropId>,
    next: BTreeSet<u32>,
    postponed: BTreeSet<u32>,
}

impl Gba {
    /// The automaton of the words that satisfy `f`; state 0 is initial.
    ///
    /// # Errors
    /// [`LtlError::TooManyEventualities`] past 64 untils.
    pub fn of(f: &Formula) -> Result<Self, LtlError> {
        Self::of_within(f, &Config::default())
    }

    /// [`Gba::of`] within `config`'s budgets: the translation is exponential in the formula
    /// (twelve `[]<>` conjuncts under a negation already take minutes), so it stops with a
    /// budget error at the deadline, on cancellation, or past `max_states` automaton states.
    ///
    /// # Errors
    /// As [`Gba::of`]; [`LtlError::Compose`] with a budget error when a budget runs out.
    pub fn of_within(f: &Formula, config: &Config) -> Result<Self, LtlError> {
        let mut budget = config.budget()?;
        let mut arena = Arena::default();
        let root = arena.nnf(f, false);
        let untils: Vec<u32> = (0..arena.nodes.len() as u32)
            .filter(|&i| matches!(arena.nodes[i as usize], Node::Until(..)))
            .collect();
        if untils.len() > 64 {
            return Err(LtlError::TooManyEventualities {
                count: untils.len(),
            });
        }
        let full: u64 = if untils.len() == 64 {
            u64::MAX
        } else {
            (1u64 << untils.len()) - 1
        };
        let mut states: FxHashMap<BTreeSet<u32>, u32> = FxHashMap::default();
        let mut order: Vec<BTreeSet<u32>> = Vec::new();
        let init: BTreeSet<u32> = [root].into_iter().collect();
        states.insert(init.clone(), 0);
        order.push(init);
        let mut edges: Vec<Vec<GbaEdge>> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let set = order[i].clone();
            let mut out: Vec<GbaEdge> = Vec::new();
            for b in expand(&arena, &set, &mut budget)? {
                let n = states.len() as u32;
                let target = *states.entry(b.next.clone()).or_insert_with(|| {
                    order.push(b.next.clone());
                    n
                });
                budget.check_states(order.len())?;
                let mut acc = full;
                for (k, u) in untils.iter().enumerate() {
                    if b.postponed.contains(u) {
                        acc &= !(1u64 << k);
                    }
                }
                let e = GbaEdge {
                    pos: b.pos.into_iter().collect(),
                    neg: b.neg.into_iter().collect(),
                    target,
                    acc,
                };
                if !out.contains(&e) {
                    out.push(e);
                }
            }
            edges.push(out);
            i += 1;
        }
        Ok(Self {
            edges,
            sets: untils.len(),
        })
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.edges.len()
    }

    /// The edges of state `q`.
    pub fn edges(&self, q: u32) -> &[GbaEdge] {
        &self.edges[q as usize]
    }

    /// The mask of all acceptance sets.
    pub fn full(&self) -> u64 {
        if self.sets == 64 {
            u64::MAX
        } else {
            (1u64 << self.sets) - 1
        }
    }

    /// For each state, whether some infinite word is accepted from it.
    pub fn live(&self) -> Vec<bool> {
        let all: Vec<Vec<(u32, u64)>> = self
            .edges
            .iter()
            .map(|es| es.iter().map(|e| (e.target, e.acc)).collect())
            .collect();
        accepting_reach(&all, self.full())
    }

    /// Whether the automaton accepts the constant word `v v v ...` from state `q`.
    pub fn accepts_constant(&self, q: u32, v: &[bool]) -> bool {
        let sub: Vec<Vec<(u32, u64)>> = self
            .edges
            .iter()
            .map(|es| {
                es.iter()
                    .filter(|e| e.allows(v))
                    .map(|e| (e.target, e.acc))
                    .collect()
            })
            .collect();
        accepting_reach(&sub, self.full())[q as usize]
    }
}

/// The branches that satisfy every obligation of `set` now; each branch examined is one unit of
/// `budget`'s work (the branches of one set can be exponentially many).
fn expand(
    arena: &Arena,
    set: &BTreeSet<u32>,
    budget: &mut Budget<'_>,
) -> Result<Vec<Branch>, LtlError> {
    let mut done = Vec::new();
    let mut work = vec![Branch {
        todo: set.iter().copied().collect(),
        ..Branch::default()
    }];
    while let Some(mut b) = work.pop() {
        budget.tick()?;
        let Some(f) = b.todo.pop() else {
            done.push(b);
            continue;
        };
        if !b.done.insert(f) {
            work.push(b);
            continue;
        }
        match arena.nodes[f as usize] {
            Node::True => work.push(b),
            Node::False => {}
            Node::Lit(p, true) => {
                if !b.neg.contains(&p) {
                    b.pos.insert(p);
                    work.push(b);
                }
            }
            Node::Lit(p, false) => {
                if !b.pos.contains(&p) {
                    b.neg.insert(p);
                    work.push(b);
                }
            }
            Node::And(x, y) => {
                b.todo.push(x);
                b.todo.push(y);
                work.push(b);
            }
            Node::Or(x, y) => {
                let mut c = b.clone();
                b.todo.push(x);
                c.todo.push(y);
                work.push(b);
                work.push(c);
            }
            Node::Next(x) => {
                b.next.insert(x);
                work.push(b);
            }
            Node::Until(x, y) => {
                // y now (fulfilled), or x now and the until again next (postponed).
                let mut c = b.clone();
                b.todo.push(y);
                c.todo.push(x);
                c.next.insert(f);
                c.postponed.insert(f);
                work.push(b);
                work.push(c);
            }
            Node::Release(x, y) => {
                let mut c = b.clone();
                b.todo.push(x);
                b.todo.push(y);
                c.todo.push(y);
                c.next.insert(f);
                work.push(b);
                work.push(c);
            }
        }
    }
    Ok(done)
}

/// For a graph with acceptance-marked edges, which nodes reach a strongly connected component
/// whose internal edges cover `full`.
pub(crate) fn accepting_reach(graph: &[Vec<(u32, u64)>], full: u64) -> Vec<bool> {
    let comp = sccs(graph.len(), |v| graph[v].iter().map(|&(t, _)| t as usize));
    let ncomp = comp.iter().copied().max().map_or(0, |m| m + 1);
    let mut mask = vec![0u64; ncomp];
    let mut has_edge = vec![false; ncomp];
    for (v, es) in graph.iter().enumerate() {
        for &(t, acc) in es {
            if comp[v] == comp[t as usize] {
                mask[comp[v]] |= acc;
                has_edge[comp[v]] = true;
            }
        }
    }
    let mut good: Vec<bool> = comp
        .iter()
        .map(|&c| has_edge[c] && mask[c] & full == full)
        .collect();
    // Backward closure.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); graph.len()];
    for (v, es) in graph.iter().enumerate() {
        for &(t, _) in es {
            preds[t as usize].push(v);
        }
    }
    let mut queue: VecDeque<usize> = (0..graph.len()).filter(|&v| good[v]).collect();
    while let Some(v) = queue.pop_front() {
        for &p in &preds[v] {
            if !good[p] {
                good[p] = true;
                queue.push_back(p);
            }
        }
    }
    good
}

/// Strongly connected components (`guarantor_lts::ops::components_of`, iterative Tarjan): a
/// component number per node, components numbered in the order they complete (so successors'
/// components come first). Each node's successors are followed last first, the order this
/// crate's lassos were first found in.
pub(crate) fn sccs<I>(n: usize, succ: impl Fn(usize) -> I) -> Vec<usize>
where
    I: DoubleEndedIterator<Item = usize>,
{
    let components = components_of(n, |v| succ(v).rev());
    (0..n).map(|v| components.of_node(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(i: usize) -> Formula {
        Formula::Prop(PropId::new(i))
    }

    #[test]
    fn eventually_needs_the_letter() {
        let g = Gba::of(&Formula::Eventually(Box::new(p(0)))).unwrap();
        assert!(g.accepts_constant(0, &[true]));
        assert!(!g.accepts_constant(0, &[false]));
    }

    #[test]
    fn always_eventually_in_an_always() {
        // [](b && X<>b) holds on b^omega: the re-introduced eventuality must not block acceptance.
        let f = Formula::Always(Box::new(Formula::and(
            p(0),
            Formula::Next(Box::new(Formula::Eventually(Box::new(p(0))))),
        )));
        let g = Gba::of(&f).unwrap();
        assert!(g.accepts_constant(0, &[true]));
        assert!(!g.accepts_constant(0, &[false]));
    }

    #[test]
    fn safety_fragment() {
        assert!(is_syntactic_safety(&Formula::Always(Box::new(p(0)))));
        assert!(!is_syntactic_safety(&Formula::Eventually(Box::new(p(0)))));
        assert!(is_syntactic_safety(&Formula::negation(
            Formula::Eventually(Box::new(p(0)))
        )));
        assert!(is_syntactic_safety(&Formula::WeakUntil(
            Box::new(p(0)),
            Box::new(p(1))
        )));
    }
}
