//! Existential predicate abstraction of each component into a plain [`Lts`].
//!
//! **States.** An abstract state of component `c` is a control location and a truth value for
//! each of `c`'s *local* predicates (atoms over `c`'s variables). Only states reachable from the
//! abstract initial states are built (breadth first), so the LTS keeps the control structure of
//! the program, as Bensalem et al. ask, and its edges map back to concrete transitions.
//!
//! **Transitions.** For a concrete transition `t` and an abstract state, the successors are the
//! valuations `v'` such that some concrete state in the state's concretisation satisfies the
//! guard and moves into the concretisation of `v'` (existential abstraction; sound for safety).
//! Only the predicates in `t`'s *cone* matter: those connected to `t`'s variables through shared
//! variables (transitively, so predicate groups outside the cone really are independent); the
//! others keep their values (frame). Post values determined syntactically — the assignment makes the
//! predicate constant, or equal to a pre-state predicate, possibly after substituting equalities of
//! the guard — are computed without the prover (Bensalem et al.'s substitution). The rest are
//! decided per [`Abstraction`].
//!
//! **Global variables.** Predicates over global variables only are *shared*: their values live in a
//! two-state process per predicate ([`SharedPredicate`]), not in the components. A transition whose
//! cone contains shared predicates gets one LTS label per (pre values, post values) combination,
//! `action@n`; each shared-predicate process synchronises on the labels that read or write it. Every
//! other LTS with the plain action in its alphabet (properties, partners) is given copies of its
//! `action` edges under each `action@n`, so the abstract system composes with ordinary LTSs.
//!
//! **Mixed predicates.** An atom over one component's locals *and* globals is not tracked: its
//! value would live in the component's state, yet another component can change the globals without
//! the owner taking part in the step, so keeping it sound would mean havocking it on every foreign
//! write (the owner synchronising on all of them). User predicates of that kind are rejected by the
//! parser and by [`crate::check_cegar_with`] ([`PredabsError::MixedPredicate`]); such atoms met in
//! guards or weakest preconditions are recorded in [`Predicates::skipped`] and reported. Guards
//! themselves are always used exactly (they are part of every prover question), so skipping an
//! atom costs precision, never soundness; if refinement finds nothing else, the loop stops with
//! [`PredabsError::NoProgress`], which lists them.

use std::collections::{BTreeSet, HashMap, VecDeque};

use guarantor_lts::{Lts, LtsBuilder, StateId};

use crate::config::Abstraction;
use crate::error::PredabsError;
use crate::formula::{Formula, Sym};
use crate::program::Program;
use crate::prover::{Prover, SatResult};

/// Rows of an enumeration: shared pre values and open post values.
type Rows = Vec<(Vec<bool>, Vec<bool>)>;

/// A variant's identity: base label, shared pre values, shared post values.
type VariantKey = (String, Vec<(usize, bool)>, Vec<(usize, bool)>);

/// The largest number of predicates enumerated explicitly for one transition.
const MAX_ENUM: usize = 16;

/// Where a predicate lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scope {
    /// Over global variables only: a shared-predicate process.
    Global,
    /// Over the variables of this component only.
    Local(usize),
}

/// The predicates of a system: shared ones, and local ones per component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Predicates {
    /// Predicates over global variables.
    pub global: Vec<Formula>,
    /// Predicates over each component's local variables.
    pub local: Vec<Vec<Formula>>,
    /// Atoms that mix one component's local variables with global variables (from guards or
    /// weakest preconditions): not tracked, because another component may change the globals
    /// behind the owner's back (see the module documentation). Kept so reports can list them.
    pub skipped: Vec<Formula>,
}

impl Predicates {
    /// No predicates.
    pub fn empty(sys: &Program) -> Self {
        Self {
            global: Vec::new(),
            local: vec![Vec::new(); sys.components.len()],
            skipped: Vec::new(),
        }
    }

    /// The initial predicates: the atoms of every guard, of the user predicates in the program and
    /// of `extra`. Atoms mixing locals and globals are left out.
    pub fn initial(sys: &Program, extra: &[Formula]) -> Self {
        let mut p = Self::empty(sys);
        let guards = sys
            .components
            .iter()
            .flat_map(|c| c.transitions.iter().map(|t| &t.guard));
        let user = sys.components.iter().flat_map(|c| c.predicates.iter());
        for f in guards.chain(user).chain(&sys.predicates).chain(extra) {
            for a in f.atoms() {
                p.add(sys, Formula::Atom(a));
            }
        }
        p
    }

    /// Where `atom` would live, or `None` if it mixes scopes.
    pub fn scope(sys: &Program, atom: &Formula) -> Option<Scope> {
        let owners: BTreeSet<Option<usize>> = atom
            .syms()
            .iter()
            .filter_map(|s| sys.vars.get(s.0 as usize))
            .map(|v| v.owner)
            .collect();
        match owners.len() {
            1 => Some(
                owners
                    .into_iter()
                    .next()
                    .flatten()
                    .map_or(Scope::Global, Scope::Local),
            ),
            _ => None,
        }
    }

    /// Adds an atom; returns its scope when it is new and supported. An atom mixing scopes is
    /// recorded in [`Predicates::skipped`] instead.
    pub fn add(&mut self, sys: &Program, atom: Formula) -> Option<Scope> {
        let Some(scope) = Self::scope(sys, &atom) else {
            if !self.skipped.contains(&atom) {
                self.skipped.push(atom);
            }
            return None;
        };
        let list = match scope {
            Scope::Global => &mut self.global,
            Scope::Local(c) => &mut self.local[c],
        };
        if list.contains(&atom) {
            return None;
        }
        list.push(atom);
        Some(scope)
    }

    /// Total number of predicates.
    pub fn len(&self) -> usize {
        self.global.len() + self.local.iter().map(Vec::len).sum::<usize>()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What an abstract LTS state stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AbstractState {
    /// A fresh initial state offering the moves of every abstract initial state (only when there
    /// are several).
    Hub,
    /// A location and the values of the component's local predicates.
    At {
        /// The location.
        location: usize,
        /// One value per local predicate.
        valuation: Vec<bool>,
    },
    /// The error state (every error location maps here).
    Error,
}

/// A label `base@n` for a transition that reads or writes shared predicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The label.
    pub name: String,
    /// The action (or internal label) it refines.
    pub base: String,
    /// Pre-state values of the shared predicates in the cone `(global index, value)`.
    pub pre: Vec<(usize, bool)>,
    /// Post-state values of the shared predicates written.
    pub post: Vec<(usize, bool)>,
}

/// One edge of an abstract LTS and the concrete transition behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbstractEdge {
    /// Source state.
    pub source: StateId,
    /// Label.
    pub label: String,
    /// Target state.
    pub target: StateId,
    /// Index of the concrete transition in the component.
    pub transition: usize,
}

/// The abstraction of one component.
#[derive(Clone, Debug)]
pub struct AbstractComponent {
    /// The component index.
    pub component: usize,
    /// The LTS (own labels and own variants; see [`AbstractSystem::components`] for the LTS with
    /// partners' variants added).
    pub lts: Lts,
    /// What each LTS state stands for (indexed by state id).
    pub states: Vec<AbstractState>,
    /// The local predicates used (the predicate map of [`AbstractState::At`] valuations).
    pub predicates: Vec<Formula>,
    /// The variant labels this component created.
    pub variants: Vec<Variant>,
    /// Every edge with its concrete transition.
    pub edges: Vec<AbstractEdge>,
    /// The abstract initial states: the LTS's initial state, or, when that is a
    /// [`AbstractState::Hub`], the states whose moves it offers.
    pub initial: Vec<StateId>,
    /// Per transition, the local and global predicate indices of its cone (to decide reuse).
    pub(crate) cones: Vec<(Vec<usize>, Vec<usize>)>,
}

/// Where a post predicate's value comes from.
#[derive(Clone, Debug)]
enum Post {
    Const(bool),
    Same(PredRef, bool),
    Open(Formula),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PredRef {
    Local(usize),
    Global(usize),
}

#[derive(Debug)]
struct TransInfo {
    cone_l: Vec<usize>,
    cone_g: Vec<usize>,
    posts: Vec<(PredRef, Post)>,
    written_g: Vec<usize>,
    guard: Formula,
}

/// One abstract successor: shared pre values (over `cone_g`), local updates, shared post values
/// (over `written_g`).
#[derive(Clone, Debug)]
struct Succ {
    g_pre: Vec<bool>,
    l_post: Vec<(usize, bool)>,
    g_post: Vec<bool>,
}

fn lit(f: &Formula, v: bool) -> Formula {
    if v { f.clone() } else { f.clone().negate() }
}

/// The cones of every transition of component `c`: predicates connected to its variables.
pub(crate) fn cones(sys: &Program, c: usize, preds: &Predicates) -> Vec<(Vec<usize>, Vec<usize>)> {
    let lsyms: Vec<BTreeSet<Sym>> = preds.local[c].iter().map(Formula::syms).collect();
    let gsyms: Vec<BTreeSet<Sym>> = preds.global.iter().map(Formula::syms).collect();
    sys.components[c]
        .transitions
        .iter()
        .map(|t| {
            let mut vars: BTreeSet<Sym> = t.vars().into_iter().map(|v| Sym(v as u32)).collect();
            let (mut in_l, mut in_g) = (vec![false; lsyms.len()], vec![false; gsyms.len()]);
            loop {
                let mut changed = false;
                for (syms, inside) in [(&lsyms, &mut in_l), (&gsyms, &mut in_g)] {
                    for (i, s) in syms.iter().enumerate() {
                        if !inside[i] && !s.is_disjoint(&vars) {
                            inside[i] = true;
                            vars.extend(s.iter().copied());
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            let pick = |v: &[bool]| v.iter().enumerate().filter(|x| *x.1).map(|x| x.0).collect();
            (pick(&in_l), pick(&in_g))
        })
        .collect()
}

/// Equalities `x = c` and boolean literals that the guard's top-level conjunction fixes.
fn guard_equalities(guard: &Formula) -> HashMap<Sym, crate::formula::Term> {
    use crate::formula::{Affine, Atom, Term};
    let parts = match guard {
        Formula::And(ps) => ps.as_slice(),
        g => std::slice::from_ref(g),
    };
    let mut out = HashMap::new();
    for p in parts {
        match p {
            Formula::Atom(Atom::Eq(l, c)) if l.terms().len() == 1 && l.terms()[0].1 == 1 => {
                out.insert(l.terms()[0].0, Term::Int(Affine::constant(*c)));
            }
            Formula::Atom(Atom::Bool(s)) => {
                out.insert(*s, Term::Bool(Formula::TRUE));
            }
            Formula::Not(inner) => {
                if let Formula::Atom(Atom::Bool(s)) = &**inner {
                    out.insert(*s, Term::Bool(Formula::FALSE));
                }
            }
            _ => {}
        }
    }
    out
}

struct Builder<'a> {
    sys: &'a Program,
    c: usize,
    preds: &'a Predicates,
    infos: Vec<TransInfo>,
    mode: Abstraction,
    prover: &'a mut dyn Prover,
    cache: HashMap<(usize, Vec<bool>), Vec<Succ>>,
}

/// Abstracts component `c` under `preds`.
///
/// # Errors
/// [`PredabsError::StateLimit`] past `max_states` abstract states, [`PredabsError::ConeTooLarge`]
/// when a transition needs more than 16 predicates enumerated, prover and overflow errors.
pub fn abstract_component(
    sys: &Program,
    c: usize,
    preds: &Predicates,
    mode: Abstraction,
    substitution: bool,
    max_states: usize,
    prover: &mut dyn Prover,
) -> Result<AbstractComponent, PredabsError> {
    let cones = cones(sys, c, preds);
    let infos = cones
        .iter()
        .zip(&sys.components[c].transitions)
        .map(|((cl, cg), t)| trans_info(preds, c, cl, cg, t, substitution))
        .collect::<Result<Vec<_>, _>>()?;
    let mut b = Builder {
        sys,
        c,
        preds,
        infos,
        mode,
        prover,
        cache: HashMap::new(),
    };
    let mut out = b.explore(max_states)?;
    out.cones = cones;
    Ok(out)
}

fn trans_info(
    preds: &Predicates,
    c: usize,
    cone_l: &[usize],
    cone_g: &[usize],
    t: &crate::program::Transition,
    substitution: bool,
) -> Result<TransInfo, PredabsError> {
    let written: BTreeSet<Sym> = t.assignments.iter().map(|a| Sym(a.0 as u32)).collect();
    let eqs = if substitution {
        guard_equalities(&t.guard)
    } else {
        HashMap::new()
    };
    let refs = cone_l
        .iter()
        .map(|&i| (PredRef::Local(i), &preds.local[c][i]))
        .chain(
            cone_g
                .iter()
                .map(|&k| (PredRef::Global(k), &preds.global[k])),
        );
    let all: Vec<(PredRef, &Formula)> = refs.collect();
    let mut posts = Vec::new();
    for &(r, q) in &all {
        if q.syms().is_disjoint(&written) {
            continue;
        }
        let image = q.substitute(&t.subst())?;
        let post = if substitution {
            let image = image.substitute(&|s| eqs.get(&s).cloned())?;
            classify_post(image, &all)
        } else {
            Post::Open(image)
        };
        posts.push((r, post));
    }
    let written_g = posts
        .iter()
        .filter_map(|(r, _)| match r {
            PredRef::Global(k) => Some(*k),
            PredRef::Local(_) => None,
        })
        .collect();
    // A shared predicate the transition sets to a constant, over variables nothing else in the
    // transition reads (guard, right-hand sides, other predicates of the cone), has a pre value
    // that decides nothing: it is left out of the label, and its process moves from either value
    // (one label instead of two per such predicate; the same abstraction).
    let mut read: BTreeSet<Sym> = t.guard.syms();
    for (_, term) in &t.assignments {
        read.extend(crate::program::term_syms(term));
    }
    let free = |k: usize| {
        let syms = preds.global[k].syms();
        posts
            .iter()
            .any(|(r, p)| *r == PredRef::Global(k) && matches!(p, Post::Const(_)))
            && syms.is_disjoint(&read)
            && all
                .iter()
                .filter(|(r, _)| *r != PredRef::Global(k))
                .all(|(_, q)| q.syms().is_disjoint(&syms))
    };
    let cone_g: Vec<usize> = cone_g.iter().copied().filter(|&k| !free(k)).collect();
    Ok(TransInfo {
        cone_l: cone_l.to_vec(),
        cone_g,
        posts,
        written_g,
        guard: t.guard.clone(),
    })
}

fn classify_post(image: Formula, all: &[(PredRef, &Formula)]) -> Post {
    if let Formula::Const(b) = image {
        return Post::Const(b);
    }
    for &(r, p) in all {
        if *p == image {
            return Post::Same(r, true);
        }
        if let Formula::Not(inner) = &image
            && **inner == *p
        {
            return Post::Same(r, false);
        }
    }
    Post::Open(image)
}

/// All boolean vectors of length `n` (n <= 16).
fn combos(n: usize) -> impl Iterator<Item = Vec<bool>> {
    (0..1u32 << n).map(move |m| (0..n).map(|i| m >> i & 1 == 1).collect())
}

impl Builder<'_> {
    fn name(&self) -> String {
        self.sys.components[self.c].name.clone()
    }

    fn possibly(&mut self, f: &Formula) -> Result<bool, PredabsError> {
        Ok(!matches!(self.prover.check(f)?, SatResult::Unsat))
    }

    fn too_large(&self, t: usize, count: usize) -> PredabsError {
        PredabsError::ConeTooLarge {
            component: self.name(),
            line: self.sys.components[self.c].transitions[t].line,
            count,
        }
    }

    fn initial_valuations(&mut self) -> Result<Vec<Vec<bool>>, PredabsError> {
        let local = &self.preds.local[self.c];
        let known = |f: &Formula| {
            f.syms()
                .iter()
                .all(|s| self.sys.vars[s.0 as usize].init.is_some())
        };
        let undetermined: Vec<usize> = (0..local.len()).filter(|&i| !known(&local[i])).collect();
        let init = self.sys.init_formula();
        let value = |f: &Formula| {
            f.eval(
                &|s| match self.sys.vars[s.0 as usize].init {
                    Some(crate::program::Value::Int(v)) => v,
                    _ => 0,
                },
                &|s| {
                    matches!(
                        self.sys.vars[s.0 as usize].init,
                        Some(crate::program::Value::Bool(true))
                    )
                },
            )
        };
        let base = local.iter().map(value).collect::<Result<Vec<bool>, _>>()?;
        if undetermined.is_empty() {
            return Ok(vec![base]);
        }
        if undetermined.len() > MAX_ENUM {
            return Err(PredabsError::ConeTooLarge {
                component: self.name(),
                line: 0,
                count: undetermined.len(),
            });
        }
        let over: Vec<Formula> = undetermined.iter().map(|&i| local[i].clone()).collect();
        let e = self.prover.all_sat(&init, &over, 1 << MAX_ENUM)?;
        let cubes = if e.complete {
            e.cubes
        } else {
            combos(over.len()).collect()
        };
        Ok(cubes
            .into_iter()
            .map(|cube| {
                let mut v = base.clone();
                for (&i, b) in undetermined.iter().zip(cube) {
                    v[i] = b;
                }
                v
            })
            .collect())
    }

    /// The abstract successors of transition `t` from local valuation `v`.
    fn successors(&mut self, t: usize, v: &[bool]) -> Result<Vec<Succ>, PredabsError> {
        let key = (
            t,
            self.infos[t]
                .cone_l
                .iter()
                .map(|&i| v[i])
                .collect::<Vec<bool>>(),
        );
        if let Some(s) = self.cache.get(&key) {
            return Ok(s.clone());
        }
        let info = &self.infos[t];
        let local = &self.preds.local[self.c];
        let pre_lits: Vec<Formula> = info.cone_l.iter().map(|&i| lit(&local[i], v[i])).collect();
        let pre = Formula::and(pre_lits.iter().cloned().chain([info.guard.clone()]));
        let gforms: Vec<Formula> = info
            .cone_g
            .iter()
            .map(|&k| self.preds.global[k].clone())
            .collect();
        let open: Vec<Formula> = info
            .posts
            .iter()
            .filter_map(|(_, p)| match p {
                Post::Open(f) => Some(f.clone()),
                _ => None,
            })
            .collect();
        if gforms.len() + open.len() > MAX_ENUM {
            return Err(self.too_large(t, gforms.len() + open.len()));
        }
        let rows = match self.mode {
            Abstraction::Exact => self.rows_exact(&pre, &gforms, &open)?,
            Abstraction::Elimination => self.rows_elimination(&pre, &gforms, &open)?,
            Abstraction::Cartesian { max_cube } => {
                self.rows_cartesian(&pre_lits, t, &gforms, &open, max_cube)?
            }
        };
        let succs = rows
            .into_iter()
            .map(|(g, o)| self.complete(t, v, g, &o))
            .collect::<Vec<_>>();
        self.cache.insert(key, succs.clone());
        Ok(succs)
    }

    fn rows_exact(
        &mut self,
        pre: &Formula,
        g: &[Formula],
        open: &[Formula],
    ) -> Result<Rows, PredabsError> {
        let over: Vec<Formula> = g.iter().chain(open).cloned().collect();
        let e = self.prover.all_sat(pre, &over, 1 << MAX_ENUM)?;
        let cubes: Vec<Vec<bool>> = if e.complete {
            e.cubes
        } else if self.possibly(pre)? {
            // Undecided: keep every combination (sound over-approximation).
            combos(over.len()).collect()
        } else {
            Vec::new()
        };
        Ok(cubes
            .into_iter()
            .map(|mut c| {
                let o = c.split_off(g.len());
                (c, o)
            })
            .collect())
    }

    fn rows_elimination(
        &mut self,
        pre: &Formula,
        g: &[Formula],
        open: &[Formula],
    ) -> Result<Rows, PredabsError> {
        let mut rows = Vec::new();
        for gv in combos(g.len()) {
            let pg = Formula::and(
                [pre.clone()]
                    .into_iter()
                    .chain(g.iter().zip(&gv).map(|(f, &b)| lit(f, b))),
            );
            if !self.possibly(&pg)? {
                continue;
            }
            for ov in combos(open.len()) {
                // Keep (pre, post) unless {pre} t {not post} is valid.
                let q = Formula::and(
                    [pg.clone()]
                        .into_iter()
                        .chain(open.iter().zip(&ov).map(|(f, &b)| lit(f, b))),
                );
                if self.possibly(&q)? {
                    rows.push((gv.clone(), ov));
                }
            }
        }
        Ok(rows)
    }

    fn rows_cartesian(
        &mut self,
        pre_lits: &[Formula],
        t: usize,
        g: &[Formula],
        open: &[Formula],
        max_cube: usize,
    ) -> Result<Rows, PredabsError> {
        let guard = self.infos[t].guard.clone();
        let mut rows = Vec::new();
        for gv in combos(g.len()) {
            let lits: Vec<Formula> = pre_lits
                .iter()
                .cloned()
                .chain(g.iter().zip(&gv).map(|(f, &b)| lit(f, b)))
                .collect();
            if !self.possibly(&Formula::and(lits.iter().cloned().chain([guard.clone()])))? {
                continue;
            }
            let mut options: Vec<Vec<bool>> = Vec::new();
            for q in open {
                let qs = q
                    .syms()
                    .union(&guard.syms())
                    .copied()
                    .collect::<BTreeSet<_>>();
                let cube: Vec<Formula> = lits
                    .iter()
                    .filter(|l| !l.syms().is_disjoint(&qs))
                    .take(max_cube)
                    .cloned()
                    .collect();
                let ctx = Formula::and(cube.into_iter().chain([guard.clone()]));
                let mut vals = Vec::new();
                for b in [false, true] {
                    if self.possibly(&Formula::and([ctx.clone(), lit(q, b)]))? {
                        vals.push(b);
                    }
                }
                options.push(vals);
            }
            let mut acc: Vec<Vec<bool>> = vec![Vec::new()];
            for opts in &options {
                acc = acc
                    .iter()
                    .flat_map(|p| {
                        opts.iter().map(move |&b| {
                            let mut p = p.clone();
                            p.push(b);
                            p
                        })
                    })
                    .collect();
            }
            rows.extend(acc.into_iter().map(|o| (gv.clone(), o)));
        }
        Ok(rows)
    }

    /// Fills in determined post values.
    fn complete(&self, t: usize, v: &[bool], g_pre: Vec<bool>, open: &[bool]) -> Succ {
        let info = &self.infos[t];
        let pre_of = |r: PredRef| match r {
            PredRef::Local(i) => v[i],
            PredRef::Global(k) => info
                .cone_g
                .iter()
                .position(|&x| x == k)
                .is_some_and(|p| g_pre[p]),
        };
        let mut open_iter = open.iter();
        let (mut l_post, mut g_post) = (Vec::new(), Vec::new());
        for (r, post) in &info.posts {
            let value = match post {
                Post::Const(b) => *b,
                Post::Same(p, pol) => pre_of(*p) == *pol,
                Post::Open(_) => open_iter.next().copied().unwrap_or(false),
            };
            match r {
                PredRef::Local(i) => l_post.push((*i, value)),
                PredRef::Global(_) => g_post.push(value),
            }
        }
        Succ {
            g_pre,
            l_post,
            g_post,
        }
    }

    #[allow(clippy::too_many_lines)] // one breadth-first loop; its parts share the interning state
    fn explore(&mut self, max_states: usize) -> Result<AbstractComponent, PredabsError> {
        let comp = &self.sys.components[self.c];
        let inits = self.initial_valuations()?;
        let mut states: Vec<AbstractState> = Vec::new();
        let mut index: HashMap<AbstractState, u32> = HashMap::new();
        let mut queue = VecDeque::new();
        let mut intern = |s: AbstractState,
                          states: &mut Vec<AbstractState>,
                          queue: &mut VecDeque<u32>|
         -> Result<u32, PredabsError> {
            if let Some(&i) = index.get(&s) {
                return Ok(i);
            }
            if states.len() >= max_states {
                return Err(PredabsError::StateLimit {
                    component: comp.name.clone(),
                    limit: max_states,
                });
            }
            let i = states.len() as u32;
            index.insert(s.clone(), i);
            if matches!(s, AbstractState::At { .. }) {
                queue.push_back(i);
            }
            states.push(s);
            Ok(i)
        };
        let at = |location: usize, valuation: Vec<bool>| {
            if comp.error_locations.contains(&location) {
                AbstractState::Error
            } else {
                AbstractState::At {
                    location,
                    valuation,
                }
            }
        };
        let hub = if inits.len() > 1 {
            Some(intern(AbstractState::Hub, &mut states, &mut queue)?)
        } else {
            None
        };
        let mut init_ids = Vec::new();
        for v in inits {
            init_ids.push(intern(at(comp.initial, v), &mut states, &mut queue)?);
        }
        let mut edges: Vec<AbstractEdge> = Vec::new();
        let mut variants: Vec<Variant> = Vec::new();
        let mut variant_index: HashMap<VariantKey, String> = HashMap::new();
        while let Some(s) = queue.pop_front() {
            let AbstractState::At {
                location,
                valuation,
            } = states[s as usize].clone()
            else {
                continue;
            };
            for (ti, t) in comp.transitions.iter().enumerate() {
                if t.from != location {
                    continue;
                }
                for succ in self.successors(ti, &valuation)? {
                    let mut v2 = valuation.clone();
                    for &(i, b) in &succ.l_post {
                        v2[i] = b;
                    }
                    let target = intern(at(t.to, v2), &mut states, &mut queue)?;
                    let base = self.sys.label(self.c, ti);
                    let label = if self.infos[ti].cone_g.is_empty()
                        && self.infos[ti].written_g.is_empty()
                    {
                        base
                    } else {
                        let info = &self.infos[ti];
                        let pre: Vec<(usize, bool)> = info
                            .cone_g
                            .iter()
                            .copied()
                            .zip(succ.g_pre.iter().copied())
                            .collect();
                        let post: Vec<(usize, bool)> = info
                            .written_g
                            .iter()
                            .copied()
                            .zip(succ.g_post.iter().copied())
                            .collect();
                        let key = (base.clone(), pre.clone(), post.clone());
                        if let Some(n) = variant_index.get(&key) {
                            n.clone()
                        } else {
                            let name = format!(
                                "{base}@{}",
                                variants.iter().filter(|v| v.base == base).count()
                            );
                            variant_index.insert(key, name.clone());
                            variants.push(Variant {
                                name: name.clone(),
                                base,
                                pre,
                                post,
                            });
                            name
                        }
                    };
                    edges.push(AbstractEdge {
                        source: StateId::must(s as usize),
                        label,
                        target: StateId::must(target as usize),
                        transition: ti,
                    });
                }
            }
        }
        if let Some(h) = hub {
            let copies: Vec<AbstractEdge> = edges
                .iter()
                .filter(|e| init_ids.contains(&(e.source.as_u32())))
                .map(|e| AbstractEdge {
                    source: StateId::must(h as usize),
                    ..e.clone()
                })
                .collect();
            edges.extend(copies);
        }
        let initial = hub.unwrap_or(init_ids[0]);
        let lts = self.build_lts(&states, &edges, &variants, initial)?;
        Ok(AbstractComponent {
            component: self.c,
            lts,
            states,
            predicates: self.preds.local[self.c].clone(),
            variants,
            edges,
            initial: init_ids
                .iter()
                .map(|&i| StateId::must(i as usize))
                .collect(),
            cones: Vec::new(),
        })
    }

    fn build_lts(
        &self,
        states: &[AbstractState],
        edges: &[AbstractEdge],
        variants: &[Variant],
        initial: u32,
    ) -> Result<Lts, PredabsError> {
        let mut b = LtsBuilder::new();
        b.ensure_states(states.len())?;
        for t in 0..self.sys.components[self.c].transitions.len() {
            b.action(&self.sys.label(self.c, t))?;
        }
        for v in variants {
            b.action(&v.name)?;
        }
        for e in edges {
            b.add_transition_named(e.source, &e.label, e.target)?;
        }
        if let Some(err) = states.iter().position(|s| *s == AbstractState::Error) {
            b.set_error(StateId::must(err))?;
        }
        b.set_initial(StateId::must(initial as usize))?;
        Ok(b.build()?)
    }
}

/// A shared predicate's two-state process.
#[derive(Clone, Debug)]
pub struct SharedPredicate {
    /// The global predicate.
    pub predicate: Formula,
    /// States: 0 = true, 1 = false (2 = unknown initial value, when the globals have no initial value).
    pub lts: Lts,
}

/// The abstract system: what the check runs on.
#[derive(Clone, Debug)]
pub struct AbstractSystem {
    /// The component abstractions.
    pub parts: Vec<AbstractComponent>,
    /// The component LTSs, with copies of partners' variant labels.
    pub components: Vec<Lts>,
    /// One process per shared predicate.
    pub shared: Vec<SharedPredicate>,
    /// The properties, with copies of variant labels.
    pub properties: Vec<Lts>,
    /// Variant label to base label.
    pub base: HashMap<String, String>,
    /// Variant label to owning component.
    pub owner: HashMap<String, usize>,
}

impl AbstractSystem {
    /// Every LTS of the system: components, then shared-predicate processes.
    pub fn ltss(&self) -> Vec<&Lts> {
        self.components
            .iter()
            .chain(self.shared.iter().map(|s| &s.lts))
            .collect()
    }

    /// The properties.
    pub fn property_ltss(&self) -> Vec<&Lts> {
        self.properties.iter().collect()
    }

    /// The action (or internal label) a label stands for.
    pub fn base_action<'a>(&'a self, label: &'a str) -> &'a str {
        self.base.get(label).map_or(label, String::as_str)
    }

    /// Total abstract states over the components.
    pub fn abstract_states(&self) -> usize {
        self.components.iter().map(Lts::num_states).sum()
    }
}

/// Copies every edge labelled with a base of `by_base` under each of its variants.
fn expand(lts: &Lts, by_base: &HashMap<&str, Vec<&str>>) -> Result<Lts, PredabsError> {
    let mut b = lts.to_builder();
    let mut any = false;
    for (a, name) in lts.alphabet().iter() {
        if let Some(vs) = by_base.get(name) {
            any = true;
            for v in vs {
                b.action(v)?;
            }
            for s in lts.states() {
                for t in lts.successors(s, a).collect::<Vec<_>>() {
                    for v in vs {
                        b.add_transition_named(s, v, t)?;
                    }
                }
            }
        }
    }
    if !any {
        return Ok(lts.clone());
    }
    Ok(b.build()?)
}

/// Puts component abstractions together with shared-predicate processes and relabelled properties.
///
/// # Errors
/// [`PredabsError::SharedGlobalAction`] when two components own variants of one action.
pub fn assemble(
    sys: &Program,
    preds: &Predicates,
    parts: Vec<AbstractComponent>,
) -> Result<AbstractSystem, PredabsError> {
    let mut owners: HashMap<&str, BTreeSet<usize>> = HashMap::new();
    for p in &parts {
        for v in &p.variants {
            owners
                .entry(v.base.as_str())
                .or_default()
                .insert(p.component);
        }
    }
    if let Some((a, cs)) = owners.iter().find(|(_, cs)| cs.len() > 1) {
        return Err(PredabsError::SharedGlobalAction {
            action: (*a).to_string(),
            components: cs.iter().map(|&c| sys.components[c].name.clone()).collect(),
        });
    }
    let mut base = HashMap::new();
    let mut owner = HashMap::new();
    for p in &parts {
        for v in &p.variants {
            base.insert(v.name.clone(), v.base.clone());
            owner.insert(v.name.clone(), p.component);
        }
    }
    let by_base_except = |c: Option<usize>| {
        let mut m: HashMap<&str, Vec<&str>> = HashMap::new();
        for p in parts.iter().filter(|p| Some(p.component) != c) {
            for v in &p.variants {
                m.entry(v.base.as_str()).or_default().push(v.name.as_str());
            }
        }
        m
    };
    let components = parts
        .iter()
        .map(|p| expand(&p.lts, &by_base_except(Some(p.component))))
        .collect::<Result<Vec<_>, _>>()?;
    let all = by_base_except(None);
    let properties = sys
        .properties
        .iter()
        .map(|p| expand(&p.lts, &all))
        .collect::<Result<Vec<_>, _>>()?;
    let shared = (0..preds.global.len())
        .map(|k| shared_process(sys, &preds.global[k], k, &parts))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(AbstractSystem {
        parts,
        components,
        shared,
        properties,
        base,
        owner,
    })
}

fn shared_process(
    sys: &Program,
    pred: &Formula,
    k: usize,
    parts: &[AbstractComponent],
) -> Result<SharedPredicate, PredabsError> {
    let init = initial_value(sys, pred)?;
    let mut b = LtsBuilder::new();
    b.ensure_states(if init.is_some() { 2 } else { 3 })?;
    let state = |v: bool| StateId::must(usize::from(!v));
    for p in parts {
        for v in &p.variants {
            let pre = v.pre.iter().find(|x| x.0 == k).map(|x| x.1);
            let post = v.post.iter().find(|x| x.0 == k).map(|x| x.1);
            let (froms, post): (&[bool], bool) = match (pre, post) {
                (Some(pre), post) => (if pre { &[true] } else { &[false] }, post.unwrap_or(pre)),
                // Written with a value that does not depend on the old one.
                (None, Some(post)) => (&[true, false], post),
                (None, None) => continue,
            };
            for &from in froms {
                b.add_transition_named(state(from), &v.name, state(post))?;
            }
            if init.is_none() {
                b.add_transition_named(StateId::must(2), &v.name, state(post))?;
            }
        }
    }
    b.set_initial(init.map_or(StateId::must(2), state))?;
    Ok(SharedPredicate {
        predicate: pred.clone(),
        lts: b.build()?,
    })
}

/// The value of a global predicate in the initial state, if the globals it reads are initialised.
fn initial_value(sys: &Program, pred: &Formula) -> Result<Option<bool>, PredabsError> {
    use crate::program::Value;
    if pred
        .syms()
        .iter()
        .any(|s| sys.vars[s.0 as usize].init.is_none())
    {
        return Ok(None);
    }
    let v = pred.eval(
        &|s| match sys.vars[s.0 as usize].init {
            Some(Value::Int(v)) => v,
            _ => 0,
        },
        &|s| matches!(sys.vars[s.0 as usize].init, Some(Value::Bool(true))),
    )?;
    Ok(Some(v))
}
