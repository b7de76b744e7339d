//! The refinement loop (Chaki et al.'s CEGAR, per component): abstract, check the abstract system,
//! and either conclude or concretise the abstract counterexample.
//!
//! A counterexample of the abstract system is a label sequence. It is matched to a path of each
//! component's abstract LTS, which names the concrete transition behind every step, and the
//! resulting transition sequence is checked with one SSA formula. Satisfiable: a real
//! counterexample; the model gives concrete values, and the trace is replayed on the concrete
//! semantics before it is returned. Unsatisfiable: the shortest infeasible prefix is found, and the
//! atoms of the weakest preconditions of its last guard back along the prefix become predicates.
//! Only components whose predicates (or cones of shared predicates) changed are abstracted again.
//! The "check the abstract system" step is a closure, so a compositional checker can replace the
//! monolithic one.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use guarantor_compose::{ComposeError, Verdict, Violation};
use guarantor_lts::{ComponentId, StateId};

use crate::abstraction::{
    AbstractComponent, AbstractSystem, Predicates, abstract_component, assemble, cones,
};
use crate::concrete::{self, ConcreteState, ConcreteTrace, Step};
use crate::config::{Abstraction, Backend, Config};
use crate::error::PredabsError;
use crate::formula::{Affine, Formula, Sym, Term};
use crate::program::{Program, Type, Value};
use crate::prover::{CountingProver, NativeProver, Prover, ProverStats, SatResult, SmtLibProver};

/// The outcome for the concrete program.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProgramVerdict {
    /// The property holds (the final abstraction proves it).
    Holds,
    /// A real counterexample, with values; it replays on the concrete semantics.
    Violated(ConcreteTrace),
}

/// One refinement step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refinement {
    /// The iteration (1-based) whose counterexample was spurious.
    pub iteration: usize,
    /// The spurious abstract trace.
    pub trace: Vec<String>,
    /// The new predicates, printed.
    pub predicates: Vec<String>,
}

/// What a run cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PredabsStats {
    /// Prover questions, cache hits and unknown answers.
    pub prover: ProverStats,
    /// Component abstractions computed (re-abstractions included).
    pub abstractions: usize,
    /// Per iteration after the first, the components abstracted again.
    pub reabstracted: Vec<Vec<String>>,
    /// The refinements.
    pub refinements: Vec<Refinement>,
    /// Abstract states of the final abstraction (components only).
    pub abstract_states: usize,
    /// Product states explored by the last check, when the checker reports them.
    pub product_states: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// The result of [`check_cegar`].
#[derive(Clone, Debug)]
pub struct PredabsReport {
    /// The verdict.
    pub verdict: ProgramVerdict,
    /// Abstraction-check rounds run.
    pub iterations: usize,
    /// The final predicates.
    pub predicates: Predicates,
    /// The final abstraction (a plain LTS per component, usable by every other method).
    pub abstraction: AbstractSystem,
    /// Costs.
    pub stats: PredabsStats,
}

/// The answer of an abstract-system checker: a verdict and the product states it explored.
pub type CheckOutcome = (Verdict, usize);

/// Checks `sys` against its properties and error locations with predicate abstraction and CEGAR,
/// checking each abstract system monolithically with [`guarantor_compose::check_safety`].
///
/// ```
/// use guarantor_predabs::{check_cegar, Config, ProgramVerdict, Program};
/// let src = "component C {\n var x: int = 0;\n loc run, bad;\n error bad;\n\
///            run -> run when x < 10 do x := x + 1;\n run -> bad when x == 11;\n}\n";
/// let sys = Program::parse(src, "counter.gc")?;
/// let report = check_cegar(&sys, &Config::default())?;
/// assert_eq!(report.verdict, ProgramVerdict::Holds);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// See [`PredabsError`].
pub fn check_cegar(sys: &Program, config: &Config) -> Result<PredabsReport, PredabsError> {
    // One clock for the loop and the abstract checks (clones share it).
    let config = &config.clone().with_compose(config.compose.started());
    let compose = &config.compose;
    let mut check = |abs: &AbstractSystem| Ok(monolithic(abs, compose)?);
    check_cegar_with_checker(sys, config, &mut check)
}

/// [`check_cegar`] with an abstract-system checker of the caller's, and the prover that
/// [`Config::backend`] names.
///
/// # Errors
/// See [`PredabsError`]; the checker's errors are returned as they are.
pub fn check_cegar_with_checker(
    sys: &Program,
    config: &Config,
    check: &mut dyn FnMut(&AbstractSystem) -> Result<CheckOutcome, PredabsError>,
) -> Result<PredabsReport, PredabsError> {
    match &config.backend {
        Backend::SmtLib(cmd) => {
            check_cegar_with(sys, config, &mut SmtLibProver::new(cmd.clone()), check)
        }
        _ => check_cegar_with(sys, config, &mut NativeProver::new(), check),
    }
}

/// The monolithic check of an abstract system.
///
/// # Errors
/// Composition errors and budgets.
pub fn monolithic(
    abs: &AbstractSystem,
    config: &guarantor_compose::Config,
) -> Result<CheckOutcome, ComposeError> {
    let r = guarantor_compose::check_safety(&abs.ltss(), &abs.property_ltss(), config)?;
    Ok((r.verdict, r.stats.states))
}

/// [`check_cegar`] with an explicit prover and abstract-system checker.
///
/// # Errors
/// See [`PredabsError`].
pub fn check_cegar_with(
    sys: &Program,
    config: &Config,
    prover: &mut dyn Prover,
    check: &mut dyn FnMut(&AbstractSystem) -> Result<CheckOutcome, PredabsError>,
) -> Result<PredabsReport, PredabsError> {
    let start = Instant::now();
    let mut prover = CountingProver::new(prover);
    for f in &config.predicates {
        for a in f.atoms() {
            let atom = Formula::Atom(a);
            if Predicates::scope(sys, &atom).is_none() {
                return Err(mixed(sys, &atom));
            }
        }
    }
    let mut preds = Predicates::initial(sys, &config.predicates);
    let mut cache: Vec<Option<AbstractComponent>> = vec![None; sys.components.len()];
    let mut stats = PredabsStats::default();
    let mut mode = config.mode;
    // The run's clock (kept if the caller started it).
    let budget = config.compose.started();
    for iteration in 1..=config.max_iterations {
        if budget.is_past_deadline() {
            return Err(PredabsError::Deadline);
        }
        if budget
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(ComposeError::Cancelled.into());
        }
        // The memory limit (the deadline and cancel flag are seen above, as this crate's errors).
        budget.check_interrupt()?;
        let redone = refresh(sys, &preds, &mut cache, mode, config, &mut prover)?;
        stats.abstractions += redone.len();
        if iteration > 1 {
            stats.reabstracted.push(
                redone
                    .iter()
                    .map(|&c| sys.components[c].name.clone())
                    .collect(),
            );
        }
        let parts: Vec<AbstractComponent> = cache.iter().flatten().cloned().collect();
        let abs = assemble(sys, &preds, parts)?;
        let (verdict, explored) = check(&abs)?;
        stats.product_states = explored;
        let finish =
            |verdict, abs: AbstractSystem, mut stats: PredabsStats, preds, p: &CountingProver| {
                stats.prover = p.stats;
                stats.abstract_states = abs.abstract_states();
                stats.elapsed = start.elapsed();
                Ok(PredabsReport {
                    verdict,
                    iterations: iteration,
                    predicates: preds,
                    abstraction: abs,
                    stats,
                })
            };
        let Verdict::Violated(cex) = verdict else {
            return finish(ProgramVerdict::Holds, abs, stats, preds, &prover);
        };
        let steps = reconstruct(sys, &abs, &cex.trace, cex.violation)?;
        match feasibility(sys, &steps, &mut prover)? {
            Feasibility::Feasible(trace) => {
                concrete::replay(sys, &trace).map_err(|_| PredabsError::BadCounterexample {
                    trace: cex.trace.clone(),
                })?;
                return finish(ProgramVerdict::Violated(trace), abs, stats, preds, &prover);
            }
            Feasibility::Infeasible(k) => {
                let added = refine(sys, &steps[..k], &mut preds)?;
                if added.is_empty() {
                    if matches!(mode, Abstraction::Cartesian { .. }) {
                        // The cartesian abstraction was too coarse, not the predicates.
                        mode = Abstraction::Exact;
                        cache.fill(None);
                        continue;
                    }
                    return Err(PredabsError::NoProgress {
                        trace: cex.trace,
                        skipped: preds.skipped.iter().map(|f| sys.show(f)).collect(),
                    });
                }
                stats.refinements.push(Refinement {
                    iteration,
                    trace: cex.trace,
                    predicates: added,
                });
            }
        }
    }
    Err(PredabsError::IterationLimit {
        limit: config.max_iterations,
    })
}

/// The error for an atom that mixes scopes (names the first component whose locals it reads).
fn mixed(sys: &Program, atom: &Formula) -> PredabsError {
    let component = atom
        .syms()
        .iter()
        .find_map(|s| sys.vars.get(s.0 as usize).and_then(|v| v.owner))
        .and_then(|c| sys.components.get(c))
        .map_or_else(String::new, |c| c.name.clone());
    PredabsError::MixedPredicate {
        predicate: sys.show(atom),
        component,
    }
}

/// Re-abstracts the components whose predicates or cones changed; returns their indices.
fn refresh(
    sys: &Program,
    preds: &Predicates,
    cache: &mut [Option<AbstractComponent>],
    mode: Abstraction,
    config: &Config,
    prover: &mut dyn Prover,
) -> Result<Vec<usize>, PredabsError> {
    let mut redone = Vec::new();
    for (c, slot) in cache.iter_mut().enumerate() {
        let fresh = slot
            .as_ref()
            .is_some_and(|a| a.predicates == preds.local[c] && a.cones == cones(sys, c, preds));
        if !fresh {
            *slot = Some(abstract_component(
                sys,
                c,
                preds,
                mode,
                config.substitution,
                config.max_abstract_states,
                prover,
            )?);
            redone.push(c);
        }
    }
    Ok(redone)
}

/// One step of a matched counterexample: the label and the concrete transitions taken.
#[derive(Clone, Debug)]
struct MatchedStep {
    label: String,
    moves: Vec<(usize, usize)>,
}

/// Matches the trace to a path of every component's abstract LTS.
fn reconstruct(
    sys: &Program,
    abs: &AbstractSystem,
    trace: &[String],
    violation: Violation,
) -> Result<Vec<MatchedStep>, PredabsError> {
    let mut steps: Vec<MatchedStep> = trace
        .iter()
        .map(|l| MatchedStep {
            label: abs.base_action(l).to_string(),
            moves: Vec::new(),
        })
        .collect();
    for (c, part) in abs.parts.iter().enumerate() {
        let lts = &abs.components[c];
        let raw = |l: &str| -> String {
            match abs.owner.get(l) {
                Some(&o) if o != c => abs.base_action(l).to_string(),
                _ => l.to_string(),
            }
        };
        let positions: Vec<usize> = (0..trace.len())
            .filter(|&i| lts.alphabet().contains(&trace[i]))
            .collect();
        let mut adj: HashMap<(StateId, &str), Vec<(StateId, usize)>> = HashMap::new();
        for e in &part.edges {
            adj.entry((e.source, e.label.as_str()))
                .or_default()
                .push((e.target, e.transition));
        }
        let must_end_in_error = violation
            == Violation::ErrorState {
                component: ComponentId::must(c),
            };
        let path = find_path(lts.initial(), &positions, trace, &raw, &adj, |s| {
            !must_end_in_error || lts.is_error(s)
        })
        .ok_or_else(|| PredabsError::BadCounterexample {
            trace: trace.to_vec(),
        })?;
        for (&i, t) in positions.iter().zip(path) {
            steps[i].moves.push((c, t));
        }
    }
    let _ = sys;
    Ok(steps)
}

/// Breadth-first search over (position, state) for a path reading the projected labels.
fn find_path(
    init: StateId,
    positions: &[usize],
    trace: &[String],
    raw: &dyn Fn(&str) -> String,
    adj: &HashMap<(StateId, &str), Vec<(StateId, usize)>>,
    accept: impl Fn(StateId) -> bool,
) -> Option<Vec<usize>> {
    let mut parent: HashMap<(usize, StateId), (StateId, usize)> = HashMap::new();
    let mut queue = VecDeque::from([(0usize, init)]);
    let mut seen: BTreeSet<(usize, StateId)> = BTreeSet::from([(0, init)]);
    while let Some((j, s)) = queue.pop_front() {
        if j == positions.len() {
            if !accept(s) {
                continue;
            }
            let mut out = Vec::new();
            let (mut j, mut s) = (j, s);
            while j > 0 {
                let (p, t) = parent[&(j, s)];
                out.push(t);
                (j, s) = (j - 1, p);
            }
            out.reverse();
            return Some(out);
        }
        let label = raw(&trace[positions[j]]);
        for &(n, t) in adj.get(&(s, label.as_str())).into_iter().flatten() {
            if seen.insert((j + 1, n)) {
                parent.insert((j + 1, n), (s, t));
                queue.push_back((j + 1, n));
            }
        }
    }
    None
}

enum Feasibility {
    Feasible(ConcreteTrace),
    /// The shortest infeasible prefix has this many steps.
    Infeasible(usize),
}

/// SSA encoding of a matched trace: per step, a formula over fresh symbols, and the symbol of each
/// variable after each step.
struct Ssa {
    init: Formula,
    steps: Vec<Formula>,
    syms_after: Vec<Vec<Sym>>,
}

fn rename(current: &[Sym], sys: &Program) -> impl Fn(Sym) -> Option<Term> + use<> {
    let map: Vec<Term> = current
        .iter()
        .enumerate()
        .map(|(v, &s)| match sys.vars[v].ty {
            Type::Bool => Term::Bool(Formula::bool_var(s)),
            _ => Term::Int(Affine::var(s)),
        })
        .collect();
    move |s: Sym| map.get(s.0 as usize).cloned()
}

fn ssa(sys: &Program, steps: &[MatchedStep]) -> Result<Ssa, PredabsError> {
    let n = sys.vars.len();
    let mut cur: Vec<Sym> = (0..n).map(|v| Sym(v as u32)).collect();
    let mut next = n as u32;
    let mut out = Ssa {
        init: sys.init_formula(),
        steps: Vec::new(),
        syms_after: Vec::new(),
    };
    for st in steps {
        let sub = rename(&cur, sys);
        let mut parts = Vec::new();
        let mut new = cur.clone();
        for &(c, t) in &st.moves {
            let tr = &sys.components[c].transitions[t];
            parts.push(tr.guard.substitute(&sub)?);
            for (v, term) in &tr.assignments {
                let s = Sym(next);
                next += 1;
                new[*v] = s;
                parts.push(match term {
                    Term::Int(a) => {
                        let image = a
                            .lin
                            .terms()
                            .iter()
                            .try_fold(Affine::constant(a.constant), |acc, &(x, k)| {
                                acc.add(&Affine::var(cur[x.0 as usize]).scale(k)?)
                            })?;
                        Formula::eq(&Affine::var(s), &image)?
                    }
                    Term::Bool(f) => Formula::iff(Formula::bool_var(s), f.substitute(&sub)?),
                });
            }
        }
        cur = new;
        out.steps.push(Formula::and(parts));
        out.syms_after.push(cur.clone());
    }
    Ok(out)
}

fn feasibility(
    sys: &Program,
    steps: &[MatchedStep],
    prover: &mut dyn Prover,
) -> Result<Feasibility, PredabsError> {
    let enc = ssa(sys, steps)?;
    let prefix = |k: usize| {
        Formula::and(
            [enc.init.clone()]
                .into_iter()
                .chain(enc.steps[..k].iter().cloned()),
        )
    };
    let decide = |r: SatResult, what: &str| match r {
        SatResult::Unknown(reason) => Err(PredabsError::Undecided {
            what: what.into(),
            reason,
        }),
        r => Ok(r),
    };
    match decide(
        prover.check(&prefix(steps.len()))?,
        "the feasibility of a counterexample",
    )? {
        SatResult::Sat(m) => Ok(Feasibility::Feasible(concretise(sys, steps, &enc, &m))),
        _ => {
            // Shortest infeasible prefix: prefix(lo) feasible, prefix(hi) infeasible.
            let (mut lo, mut hi) = (0, steps.len());
            while hi - lo > 1 {
                let mid = usize::midpoint(lo, hi);
                match decide(prover.check(&prefix(mid))?, "the feasibility of a prefix")? {
                    SatResult::Unsat => hi = mid,
                    _ => lo = mid,
                }
            }
            Ok(Feasibility::Infeasible(hi))
        }
    }
}

fn concretise(
    sys: &Program,
    steps: &[MatchedStep],
    enc: &Ssa,
    m: &crate::prover::Model,
) -> ConcreteTrace {
    let state = |syms: &[Sym], locations: Vec<usize>| ConcreteState {
        locations,
        values: syms
            .iter()
            .enumerate()
            .map(|(v, &s)| match sys.vars[v].ty {
                Type::Bool => Value::Bool(m.bool(s)),
                _ => Value::Int(m.int(s)),
            })
            .collect(),
    };
    let init_syms: Vec<Sym> = (0..sys.vars.len()).map(|v| Sym(v as u32)).collect();
    let mut locs: Vec<usize> = sys.components.iter().map(|c| c.initial).collect();
    let initial = state(&init_syms, locs.clone());
    let mut out = Vec::new();
    for (st, syms) in steps.iter().zip(&enc.syms_after) {
        for &(c, t) in &st.moves {
            locs[c] = sys.components[c].transitions[t].to;
        }
        out.push(Step {
            label: st.label.clone(),
            moves: st.moves.clone(),
            after: state(syms, locs.clone()),
        });
    }
    ConcreteTrace {
        initial,
        steps: out,
    }
}

/// Adds the atoms of the weakest preconditions along an infeasible prefix; returns the new ones.
fn refine(
    sys: &Program,
    prefix: &[MatchedStep],
    preds: &mut Predicates,
) -> Result<Vec<String>, PredabsError> {
    let guard = |st: &MatchedStep| {
        Formula::and(
            st.moves
                .iter()
                .map(|&(c, t)| sys.components[c].transitions[t].guard.clone()),
        )
    };
    let subst = |st: &MatchedStep| {
        let map: HashMap<Sym, Term> = st
            .moves
            .iter()
            .flat_map(|&(c, t)| sys.components[c].transitions[t].assignments.iter())
            .map(|(v, term)| (Sym(*v as u32), term.clone()))
            .collect();
        move |s: Sym| map.get(&s).cloned()
    };
    let Some(last) = prefix.last() else {
        return Ok(Vec::new());
    };
    // wp(t_k, false) = not g_k; wp(t_i, Q) = not g_i or Q[u_i].
    let mut psi = guard(last).negate();
    let mut atoms = psi.atoms();
    for st in prefix[..prefix.len() - 1].iter().rev() {
        psi = Formula::or([guard(st).negate(), psi.substitute(&subst(st))?]);
        atoms.extend(psi.atoms());
    }
    let mut added = Vec::new();
    for a in atoms {
        // An equality `lin = c` from a weakest precondition is usually one point of a region the
        // program never leaves (tickets are never negative); its half-space `lin <= c` lets the
        // abstraction track the region instead of enumerating points.
        let half = match &a {
            crate::formula::Atom::Eq(lin, c) => Some(Formula::lin_le(lin, *c)?),
            _ => None,
        };
        for f in std::iter::once(Formula::Atom(a)).chain(half) {
            if matches!(f, Formula::Atom(_)) && preds.add(sys, f.clone()).is_some() {
                added.push(sys.show(&f));
            }
        }
    }
    Ok(added)
}
