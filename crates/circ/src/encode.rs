//! `GenAssmp`: the SAT encoding of `n` deterministic, prefix-closed assumptions `g_1..g_n` of total
//! size at most `k` satisfying membership constraints, and the search that grows `k` only on UNSAT
//! (so the assumptions found are minimal in total size).
//!
//! ## Encoding (per assumption `i`, with `K_i` colours `1..=K_i`, the sink colour `0` and the
//! overflow colour `K_i + 1`)
//! - A prefix tree (trie) of every word the constraints mention (words over `alpha g_i`, as
//!   letter indices). Node `v` has exactly one colour: `x(v, c)`. The root has colour 1.
//! - Transitions `y(c, a, d)`: exactly one target `d in 0..=K_i+1` per state `1 <= c <= K_i` and
//!   letter `a`; `d = 0` means "`a` is blocked at `c`". Determinism is built in.
//! - Coupling, for a trie edge `v -a-> w`: `x(v,c) & x(w,d) -> y(c,a,d)` and
//!   `x(v,c) & y(c,a,d) -> x(w,d)`; sink absorption `x(v,0) -> x(w,0)`. So a node's colour is the
//!   state its word reaches, and 0 when the word is not in `L(g_i)`; prefix-closure comes free.
//! - Membership atoms are single literals: `+(w, i)` is `!x(node(w), 0)`, `-(w, i)` is
//!   `x(node(w), 0)`. A disjunctive constraint is therefore one clause
//!   ([`Disjunction::Direct`]); the paper's `ceil(log2 m)` selector bits are available as
//!   [`Disjunction::Selectors`] to measure their cost.
//! - Used-state flags `u(c)`: `u(1)`, `u(c+1) -> u(c)`, any use of colour `c` implies `u(c)`, an
//!   unused state has only blocked moves.
//! - Symmetry breaking (optional): states are numbered in BFS order: `par(j, p)` says `p` is the
//!   smallest state with an edge into `j`; every used `j >= 2` has a parent below it, parents do not
//!   decrease with `j`, and siblings are ordered by their smallest letter. Every used state is then
//!   reachable, and each family of DLTSs has exactly one encoding.
//! - Size: one totalizer over all `u(i, c)`, `c >= 2`, and the overflow flags (outputs truncated
//!   at `T >= k - n + 1`), gives literals `o_r` = "at least `r` states beyond the `n` initial
//!   ones"; the bound `k` is the assumption `!o_{k-n+1}`, so one solver serves every `k`
//!   ([`SynthOptions::incremental`]). When `k` outgrows `T`, `T` doubles and the encoding is
//!   rebuilt from the stored constraints.
//!
//! ## Per-assumption capacities and the overflow colour
//! The encoding's size grows with the square of the capacity `K_i` (colour and transition
//! variables per trie node, exactly-one constraints), and a single capacity for all assumptions
//! would have to be `k - n + 1` for minimality: one assumption might need all the states the bound
//! leaves. With many components that is far more than any assumption uses (a system of 20 small
//! guarantees of 3 states would carry 40 colours each). So every assumption has its own `K_i`,
//! starting small, plus an *overflow* colour standing for "some state beyond `K_i`": a state
//! `<= K_i` may move to it, it implies all `K_i` states are used and it counts as one more state,
//! a trie node may take it, and a node below an overflow node is unconstrained. Every DLTS, with
//! its states beyond `K_i` (in BFS order) painted overflow, satisfies this relaxation at no larger
//! size, so **the relaxation is UNSAT under a bound only when no assumptions of that size exist**.
//! The search solves under the bound and `!ov_i` for all `i` (exact: the model is a DLTS family);
//! on UNSAT, if the failed assumptions include no `!ov_i`, the bound was the reason and `k` grows;
//! otherwise it solves the relaxation alone: UNSAT means `k` grows, a model with no overflow is an
//! answer, and a model that overflows `i` doubles `K_i` (and rebuilds). `k` still grows only on
//! a proof that no smaller family exists, so minimality is kept.

use guarantor_lts::{Lts, LtsBuilder, StateId};
use rustc_hash::{FxHashMap, FxHashSet};
use varisat::Lit;

use crate::config::Disjunction;
use crate::error::CircError;
use crate::sat::{ClauseSink, SatBackend, VarisatBackend};

/// The capacity `K_i` every assumption starts with.
const INITIAL_CAP: usize = 3;

/// A membership atom: the word (letter indices into assumption `assumption`'s alphabet) is
/// (`positive`) or is not in `L(g_assumption)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// `+` (must be in the language) or `-` (must not).
    pub positive: bool,
    /// Which assumption.
    pub assumption: usize,
    /// The word, as letter indices.
    pub word: Vec<u32>,
}

impl Atom {
    /// `+(word, assumption)`.
    pub fn plus(assumption: usize, word: Vec<u32>) -> Self {
        Self {
            positive: true,
            assumption,
            word,
        }
    }

    /// `-(word, assumption)`.
    pub fn minus(assumption: usize, word: Vec<u32>) -> Self {
        Self {
            positive: false,
            assumption,
            word,
        }
    }

    /// Whether the atom holds for the assumptions `g` (each with letter `a` named by its
    /// alphabet's `a`-th visible action).
    pub fn holds(&self, g: &[Lts]) -> bool {
        let lts = &g[self.assumption];
        let mut s = lts.initial();
        for &a in &self.word {
            let id = guarantor_lts::ActionId::must(a as usize + 1);
            match lts.successors(s, id).next() {
                Some(t) => s = t,
                None => return !self.positive,
            }
        }
        self.positive
    }
}

/// A disjunction of atoms (an empty one is false).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint(pub Vec<Atom>);

impl Constraint {
    /// Whether some atom holds for `g`.
    pub fn holds(&self, g: &[Lts]) -> bool {
        self.0.iter().any(|a| a.holds(g))
    }
}

/// Options of the assumption search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynthOptions {
    /// BFS symmetry breaking.
    pub symmetry_breaking: bool,
    /// One solver for every bound and every added constraint (else a fresh solver per call).
    pub incremental: bool,
    /// Encoding of disjunctions.
    pub disjunction: Disjunction,
    /// Largest total size to try.
    pub max_total_states: usize,
    /// Budget of learnt clauses over all solvers.
    pub max_conflicts: Option<u64>,
}

impl Default for SynthOptions {
    fn default() -> Self {
        Self {
            symmetry_breaking: true,
            incremental: true,
            disjunction: Disjunction::Direct,
            max_total_states: 10_000,
            max_conflicts: None,
        }
    }
}

/// One trie node: its children by letter and its colour literals `x(v, 0..=K)`.
#[derive(Debug)]
struct Node {
    children: FxHashMap<u32, usize>,
    x: Vec<Lit>,
}

/// The variables of one encoding (one set of capacities).
#[derive(Debug)]
struct Encoding {
    /// `K_i` per assumption.
    caps: Vec<usize>,
    letters: Vec<usize>,
    /// `y[i][((c-1) * L + a) * (K_i+2) + d]`; `d = K_i + 1` is the overflow colour.
    y: Vec<Vec<Lit>>,
    /// `u[i][c-1]`.
    u: Vec<Vec<Lit>>,
    /// `ov[i]`: assumption `i` has a state beyond `K_i`.
    ov: Vec<Lit>,
    tries: Vec<Vec<Node>>,
    /// `outputs[r-1]`: at least `r` extra states.
    outputs: Vec<Lit>,
    disjunction: Disjunction,
}

/// Exactly one of `lits` (pairwise at-most-one).
fn exactly_one<S: ClauseSink>(sink: &mut S, lits: &[Lit]) {
    sink.add_clause(lits);
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

impl Encoding {
    fn new<S: ClauseSink>(
        sink: &mut S,
        letters: &[usize],
        caps: &[usize],
        total_cap: usize,
        options: &SynthOptions,
    ) -> Self {
        let mut enc = Self {
            caps: caps.to_vec(),
            letters: letters.to_vec(),
            y: Vec::new(),
            u: Vec::new(),
            ov: Vec::new(),
            tries: Vec::new(),
            outputs: Vec::new(),
            disjunction: options.disjunction,
        };
        for i in 0..letters.len() {
            enc.structure(sink, i);
            if options.symmetry_breaking {
                enc.bfs(sink, i);
            }
            let x = enc.colour_vars(sink, i);
            sink.add_clause(&[x[1]]);
            enc.tries.push(vec![Node {
                children: FxHashMap::default(),
                x,
            }]);
        }
        let inputs: Vec<Lit> = enc
            .u
            .iter()
            .zip(&enc.ov)
            .flat_map(|(u, &ov)| u[1..].iter().copied().chain([ov]))
            .collect();
        enc.outputs = totalizer(sink, &inputs, total_cap);
        enc
    }

    fn y(&self, i: usize, c: usize, a: usize, d: usize) -> Lit {
        self.y[i][((c - 1) * self.letters[i] + a) * (self.caps[i] + 2) + d]
    }

    /// Transition, used-state, overflow and determinism clauses of assumption `i`.
    fn structure<S: ClauseSink>(&mut self, sink: &mut S, i: usize) {
        let (k, l) = (self.caps[i], self.letters[i]);
        let u: Vec<Lit> = (0..k).map(|_| sink.new_lit()).collect();
        let ov = sink.new_lit();
        sink.add_clause(&[u[0]]);
        for c in 1..k {
            sink.add_clause(&[!u[c], u[c - 1]]);
        }
        // A state beyond the capacity comes after all `K_i` (BFS order, or any order without
        // symmetry breaking: the relaxation may renumber).
        sink.add_clause(&[!ov, u[k - 1]]);
        let y: Vec<Lit> = (0..k * l * (k + 2)).map(|_| sink.new_lit()).collect();
        for c in 1..=k {
            for a in 0..l {
                let row = &y[((c - 1) * l + a) * (k + 2)..((c - 1) * l + a + 1) * (k + 2)];
                exactly_one(sink, row);
                sink.add_clause(&[u[c - 1], row[0]]);
                for d in 1..=k {
                    sink.add_clause(&[!row[d], u[d - 1]]);
                }
                sink.add_clause(&[!row[k + 1], ov]);
            }
        }
        self.u.push(u);
        self.ov.push(ov);
        self.y.push(y);
    }

    /// BFS-order symmetry breaking for assumption `i` (see the module docs), over the states
    /// inside the capacity: the first `K_i` states of a BFS-numbered DLTS satisfy it.
    fn bfs<S: ClauseSink>(&self, sink: &mut S, i: usize) {
        let (k, l) = (self.caps[i], self.letters[i]);
        // t[p][j]: some edge p -> j (p < j); par[j][p]; m[p][j][a]: a is p's smallest letter to j.
        let mut t = vec![vec![None; k + 1]; k + 1];
        let mut par = vec![vec![None; k + 1]; k + 1];
        let mut m = vec![vec![vec![None; l]; k + 1]; k + 1];
        for j in 2..=k {
            for p in 1..j {
                let tl = sink.new_lit();
                let ys: Vec<Lit> = (0..l).map(|a| self.y(i, p, a, j)).collect();
                for &y in &ys {
                    sink.add_clause(&[!y, tl]);
                }
                let mut c = ys.clone();
                c.push(!tl);
                sink.add_clause(&c);
                t[p][j] = Some(tl);
                for a in 0..l {
                    let ml = sink.new_lit();
                    sink.add_clause(&[!ml, ys[a]]);
                    let mut back = vec![ml, !ys[a]];
                    for &yb in &ys[..a] {
                        sink.add_clause(&[!ml, !yb]);
                        back.push(yb);
                    }
                    sink.add_clause(&back);
                    m[p][j][a] = Some(ml);
                }
            }
            for p in 1..j {
                let pl = sink.new_lit();
                let tp = t[p][j].unwrap_or(pl);
                sink.add_clause(&[!pl, tp]);
                let mut back = vec![pl, !tp];
                for q in 1..p {
                    let tq = t[q][j].unwrap_or(pl);
                    sink.add_clause(&[!pl, !tq]);
                    back.push(tq);
                }
                sink.add_clause(&back);
                par[j][p] = Some(pl);
            }
            let mut some_parent: Vec<Lit> = (1..j).filter_map(|p| par[j][p]).collect();
            some_parent.push(!self.u[i][j - 1]);
            sink.add_clause(&some_parent);
        }
        Self::order_parents(sink, k, l, &par, &m);
    }

    /// Parents never decrease; siblings are ordered by their smallest letter.
    #[allow(clippy::type_complexity)]
    fn order_parents<S: ClauseSink>(
        sink: &mut S,
        k: usize,
        l: usize,
        par: &[Vec<Option<Lit>>],
        m: &[Vec<Vec<Option<Lit>>>],
    ) {
        for j in 2..k {
            for p in 1..j {
                let (Some(pj), Some(pj1)) = (par[j][p], par[j + 1][p]) else {
                    continue;
                };
                for q in 1..p {
                    if let Some(qj1) = par[j + 1][q] {
                        sink.add_clause(&[!pj, !qj1]);
                    }
                }
                for a in 0..l {
                    for b in a + 1..l {
                        if let (Some(ma), Some(mb)) = (m[p][j + 1][a], m[p][j][b]) {
                            sink.add_clause(&[!pj, !pj1, !ma, !mb]);
                        }
                    }
                }
            }
        }
    }

    /// Exactly-one colour literals (sink, `1..=K_i`, overflow) for a new node of assumption `i`.
    fn colour_vars<S: ClauseSink>(&self, sink: &mut S, i: usize) -> Vec<Lit> {
        let x: Vec<Lit> = (0..=self.caps[i] + 1).map(|_| sink.new_lit()).collect();
        exactly_one(sink, &x);
        x
    }

    /// The trie node of `word` in assumption `i`, created (with its clauses) if new.
    fn node<S: ClauseSink>(&mut self, sink: &mut S, i: usize, word: &[u32]) -> usize {
        let mut v = 0;
        for &a in word {
            if let Some(&w) = self.tries[i][v].children.get(&a) {
                v = w;
                continue;
            }
            let k = self.caps[i];
            let x = self.colour_vars(sink, i);
            for c in 1..=k {
                sink.add_clause(&[!x[c], self.u[i][c - 1]]);
            }
            sink.add_clause(&[!x[k + 1], self.ov[i]]);
            let xv = self.tries[i][v].x.clone();
            sink.add_clause(&[!xv[0], x[0]]);
            // Below an overflow node (colour `k + 1`) anything goes: that is the relaxation.
            for c in 1..=k {
                for d in 0..=k + 1 {
                    let y = self.y(i, c, a as usize, d);
                    sink.add_clause(&[!xv[c], !x[d], y]);
                    sink.add_clause(&[!xv[c], !y, x[d]]);
                }
            }
            let w = self.tries[i].len();
            self.tries[i].push(Node {
                children: FxHashMap::default(),
                x,
            });
            self.tries[i][v].children.insert(a, w);
            v = w;
        }
        v
    }

    fn atom<S: ClauseSink>(&mut self, sink: &mut S, atom: &Atom) -> Lit {
        let v = self.node(sink, atom.assumption, &atom.word);
        let out = self.tries[atom.assumption][v].x[0];
        if atom.positive { !out } else { out }
    }

    fn constraint<S: ClauseSink>(&mut self, sink: &mut S, c: &Constraint) {
        let lits: Vec<Lit> = c.0.iter().map(|a| self.atom(sink, a)).collect();
        match self.disjunction {
            Disjunction::Selectors if lits.len() > 1 => selectors(sink, &lits),
            _ => sink.add_clause(&lits),
        }
    }

    /// The assumption literal bounding the total size by `k` for `n` assumptions, if needed.
    fn bound(&self, k: usize, n: usize) -> Option<Lit> {
        self.outputs.get(k - n).map(|&o| !o)
    }

    /// The assumption literals forbidding every overflow (the exact problem).
    fn no_overflow(&self) -> impl Iterator<Item = Lit> + '_ {
        self.ov.iter().map(|&o| !o)
    }

    /// Reads the assumptions off a model.
    fn extract<B: SatBackend>(
        &self,
        solver: &B,
        names: &[Vec<String>],
    ) -> Result<Vec<Lts>, CircError> {
        (0..self.letters.len())
            .map(|i| {
                let used = (1..=self.caps[i])
                    .take_while(|&c| solver.value(self.u[i][c - 1]))
                    .count();
                let mut b = LtsBuilder::new();
                let ids = names[i]
                    .iter()
                    .map(|n| b.action(n))
                    .collect::<Result<Vec<_>, _>>()?;
                b.ensure_states(used.max(1))?;
                for c in 1..=used {
                    for (a, &id) in ids.iter().enumerate() {
                        if let Some(d) = (1..=used).find(|&d| solver.value(self.y(i, c, a, d))) {
                            b.add_transition(StateId::must(c - 1), id, StateId::must(d - 1))?;
                        }
                    }
                }
                Ok(b.build()?)
            })
            .collect()
    }
}

/// The paper's selector encoding of `OR lits`: `ceil(log2 m)` fresh bits pick a disjunct that must
/// hold; codes beyond `m` are forbidden.
fn selectors<S: ClauseSink>(sink: &mut S, lits: &[Lit]) {
    let m = lits.len();
    let bits = usize::BITS - (m - 1).leading_zeros();
    let s: Vec<Lit> = (0..bits).map(|_| sink.new_lit()).collect();
    let differs = |code: usize| -> Vec<Lit> {
        (0..bits as usize)
            .map(|b| if code >> b & 1 == 1 { !s[b] } else { s[b] })
            .collect()
    };
    for code in 0..1usize << bits {
        let mut clause = differs(code);
        if let Some(&l) = lits.get(code) {
            clause.push(l);
        }
        sink.add_clause(&clause);
    }
}

/// A totalizer over `inputs`: output `r-1` is forced true when at least `r` inputs are true
/// (outputs truncated at `cap`; "at least `cap`" absorbs larger counts).
fn totalizer<S: ClauseSink>(sink: &mut S, inputs: &[Lit], cap: usize) -> Vec<Lit> {
    if inputs.len() <= 1 || cap == 0 {
        return inputs.iter().copied().take(cap).collect();
    }
    let (l, r) = inputs.split_at(inputs.len() / 2);
    let a = totalizer(sink, l, cap);
    let b = totalizer(sink, r, cap);
    let out: Vec<Lit> = (0..(a.len() + b.len()).min(cap))
        .map(|_| sink.new_lit())
        .collect();
    for (i, &ai) in a.iter().enumerate() {
        sink.add_clause(&[!ai, out[i.min(cap - 1)]]);
        for (j, &bj) in b.iter().enumerate() {
            sink.add_clause(&[!ai, !bj, out[(i + j + 1).min(cap - 1)]]);
        }
    }
    for (j, &bj) in b.iter().enumerate() {
        sink.add_clause(&[!bj, out[j.min(cap - 1)]]);
    }
    out
}

/// Statistics of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SynthStats {
    /// Calls to the SAT solver.
    pub sat_calls: usize,
    /// Encodings built (one per alphabet, more when a capacity `K_i` or the totalizer outgrows
    /// its cap, or without incrementality).
    pub encodings: usize,
    /// Relaxed solves (after an UNSAT answer that blamed a capacity).
    pub relaxed_calls: usize,
    /// Learnt clauses, when a conflict budget is set.
    pub learnt: u64,
}

/// `GenAssmp`: minimal assumptions satisfying accumulated constraints.
///
/// ```
/// use guarantor_circ::encode::{Atom, Constraint, Synthesizer, SynthOptions};
/// // One assumption over {a}: it must allow "a" but not "a a".
/// let mut s = Synthesizer::new(vec![vec!["a".to_owned()]], SynthOptions::default());
/// s.add(Constraint(vec![Atom::plus(0, vec![0])]))?;
/// s.add(Constraint(vec![Atom::minus(0, vec![0, 0])]))?;
/// let g = s.solve()?;
/// assert_eq!(g[0].num_states(), 2);
/// assert_eq!(s.bound(), 2);
/// # Ok::<(), guarantor_circ::CircError>(())
/// ```
#[derive(Debug)]
pub struct Synthesizer {
    names: Vec<Vec<String>>,
    options: SynthOptions,
    constraints: Vec<Constraint>,
    seen: FxHashSet<Constraint>,
    live: Option<(VarisatBackend, Encoding)>,
    /// `K_i` per assumption.
    caps: Vec<usize>,
    /// The totalizer's truncation `T`.
    total_cap: usize,
    k: usize,
    /// A bound to try first (see [`Synthesizer::set_hint`]).
    hint: Option<usize>,
    stats: SynthStats,
    spent: u64,
}

impl Synthesizer {
    /// A search for `names.len()` assumptions, assumption `i` over the actions `names[i]`
    /// (letter `a` of its words is `names[i][a]`).
    pub fn new(names: Vec<Vec<String>>, options: SynthOptions) -> Self {
        let n = names.len();
        Self {
            names,
            options,
            constraints: Vec::new(),
            seen: FxHashSet::default(),
            live: None,
            caps: vec![INITIAL_CAP; n],
            total_cap: 2 * INITIAL_CAP,
            k: n,
            hint: None,
            stats: SynthStats::default(),
            spent: 0,
        }
    }

    /// The current lower bound on the total size (the size of the last solution).
    pub fn bound(&self) -> usize {
        self.k
    }

    /// Statistics so far.
    pub fn stats(&self) -> SynthStats {
        let live = self.live.as_ref().map_or(0, |(b, _)| b.learnt());
        SynthStats {
            learnt: self.spent + live,
            ..self.stats
        }
    }

    /// The constraints added so far.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Adds a constraint (to the live solver too, when incremental).
    ///
    /// # Errors
    /// [`CircError::Internal`] for an atom naming a missing assumption or letter.
    pub fn add(&mut self, c: Constraint) -> Result<(), CircError> {
        if let Some(bad) = c.0.iter().find(|a| {
            a.assumption >= self.names.len()
                || a.word
                    .iter()
                    .any(|&l| l as usize >= self.names[a.assumption].len())
        }) {
            return Err(CircError::Internal {
                reason: format!("atom outside the assumption alphabets: {bad:?}"),
            });
        }
        // Every assumption is prefix-closed with an initial state, so the empty word is in each
        // language: `+(j, [])` makes the constraint true (nothing to add) and `-(j, [])` is false
        // (dropped from the disjunction; were it the only atom, the empty clause left is false
        // too, exactly as before, so the meaning never changes, only the clause gets shorter).
        if c.0.iter().any(|a| a.positive && a.word.is_empty()) {
            return Ok(());
        }
        let mut c = c;
        c.0.retain(|a| a.positive || !a.word.is_empty());
        let mut seen_atoms = FxHashSet::default();
        c.0.retain(|a| seen_atoms.insert(a.clone()));
        if !self.seen.insert(c.clone()) {
            return Ok(());
        }
        if let Some((backend, enc)) = &mut self.live {
            enc.constraint(backend, &c);
        }
        self.constraints.push(c);
        Ok(())
    }

    /// Minimal assumptions (total size, with the bound never decreasing between calls) that
    /// satisfy every constraint added so far.
    ///
    /// With a [hint](Self::set_hint) above the current bound, the hint is decided first and, if
    /// feasible, the least feasible bound is found by bisection below it (feasibility is monotone
    /// in the bound); otherwise the search goes on above it. Either way every bound below the one
    /// returned has been proved infeasible, so the answer is still minimal.
    ///
    /// # Errors
    /// [`CircError::SizeLimit`], [`CircError::SatBudget`], backend failures.
    pub fn solve(&mut self) -> Result<Vec<Lts>, CircError> {
        if let Some(h) = self.hint.take() {
            let h = h.min(self.options.max_total_states);
            if h > self.k {
                if self.decide(h)? {
                    let (mut lo, mut hi) = (self.k, h);
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        if self.decide(mid)? {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    self.k = lo;
                } else {
                    self.k = h + 1;
                }
            }
        }
        loop {
            if self.k > self.options.max_total_states {
                return Err(CircError::SizeLimit {
                    limit: self.options.max_total_states,
                });
            }
            if !self.decide(self.k)? {
                self.k += 1;
                continue;
            }
            let Some((backend, enc)) = &self.live else {
                return Err(CircError::Internal {
                    reason: "no live solver".to_owned(),
                });
            };
            let g = enc.extract(backend, &self.names)?;
            self.k = g
                .iter()
                .map(Lts::num_states)
                .sum::<usize>()
                .max(self.names.len());
            if let Some(c) = self.constraints.iter().find(|c| !c.holds(&g)) {
                return Err(CircError::Internal {
                    reason: format!("SAT model violates {c:?}"),
                });
            }
            return Ok(g);
        }
    }

    /// A total size the caller expects to be feasible (say, the last bound before an alphabet
    /// refinement); the next [`Self::solve`] tries it first (see there). Never affects
    /// minimality, only the number of SAT calls.
    pub fn set_hint(&mut self, k: usize) {
        self.hint = Some(k);
    }

    /// Whether assumptions of total size at most `k` exist; when they do, the live solver holds
    /// a model of the exact problem (no overflow). Grows capacities as needed.
    fn decide(&mut self, k: usize) -> Result<bool, CircError> {
        let n = self.names.len();
        loop {
            let need = k - n + 1;
            if need > self.total_cap {
                self.total_cap = need.max(2 * self.total_cap);
                self.drop_live();
            }
            if !self.options.incremental {
                self.drop_live();
            }
            self.ensure_live()?;
            let Some((backend, enc)) = &mut self.live else {
                return Err(CircError::Internal {
                    reason: "no live solver".to_owned(),
                });
            };
            let bound = enc.bound(k, n);
            if !self.options.incremental
                && let Some(l) = bound
            {
                backend.add_clause(&[l]);
            }
            let relaxed: Vec<Lit> = bound.into_iter().collect();
            let mut exact = relaxed.clone();
            exact.extend(enc.no_overflow());
            self.stats.sat_calls += 1;
            if backend.solve(&exact)? {
                return Ok(true);
            }
            if backend.failed_core().iter().all(|l| !enc.ov.contains(&!*l)) {
                // The bound alone is contradictory: no family of size `k` at all.
                return Ok(false);
            }
            self.stats.sat_calls += 1;
            self.stats.relaxed_calls += 1;
            if !backend.solve(&relaxed)? {
                return Ok(false);
            }
            let over: Vec<usize> = (0..n).filter(|&i| backend.value(enc.ov[i])).collect();
            if over.is_empty() {
                // The relaxation's model is itself a DLTS family (it has no overflow).
                return Ok(true);
            }
            // Some assumption may need more states than its capacity: grow and retry `k`.
            for i in over {
                self.caps[i] = (2 * self.caps[i]).min(need.max(self.caps[i] + 1));
            }
            self.drop_live();
        }
    }

    /// The current capacity `K_i` of each assumption (grown on demand; see the module docs).
    pub fn capacities(&self) -> &[usize] {
        &self.caps
    }

    fn drop_live(&mut self) {
        if let Some((b, _)) = self.live.take() {
            self.spent += b.learnt();
        }
    }

    fn ensure_live(&mut self) -> Result<(), CircError> {
        if self.live.is_some() {
            return Ok(());
        }
        let remaining = match self.options.max_conflicts {
            Some(limit) if self.spent >= limit => return Err(CircError::SatBudget { limit }),
            Some(limit) => Some(limit - self.spent),
            None => None,
        };
        let mut backend = VarisatBackend::new(remaining);
        let letters: Vec<usize> = self.names.iter().map(Vec::len).collect();
        let mut enc = Encoding::new(
            &mut backend,
            &letters,
            &self.caps,
            self.total_cap,
            &self.options,
        );
        for c in &self.constraints {
            enc.constraint(&mut backend, c);
        }
        self.stats.encodings += 1;
        self.live = Some((backend, enc));
        Ok(())
    }
}

/// Writes the encoding of `constraints` over assumptions with `letters[i]` letters, `K_i = cap`
/// for all `i` (overflow forbidden), bounded by total size `k`, into `sink` (for DIMACS dumps and
/// tests).
pub fn encode_into<S: ClauseSink>(
    sink: &mut S,
    letters: &[usize],
    cap: usize,
    k: usize,
    constraints: &[Constraint],
    options: &SynthOptions,
) {
    let caps = vec![cap.max(1); letters.len()];
    let mut enc = Encoding::new(sink, letters, &caps, cap.max(1), options);
    for c in constraints {
        enc.constraint(sink, c);
    }
    for l in enc.no_overflow().collect::<Vec<_>>() {
        sink.add_clause(&[l]);
    }
    if let Some(l) = enc.bound(k, letters.len()) {
        sink.add_clause(&[l]);
    }
}
