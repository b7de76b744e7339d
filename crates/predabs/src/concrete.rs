//! The concrete semantics: one step of the system, counterexample traces with values, their replay,
//! and an explicit-state checker for programs whose reachable state space is finite.
//!
//! A step is either an internal transition of one component, or a visible action taken jointly by
//! every component that has the action (each picks one enabled transition with that action; all
//! assignments read the pre-state). Properties observe the actions in their alphabets; an action
//! that only properties know may happen at any time, as in LTSA's composition. The replay and the
//! explicit checker are independent of the abstraction, so tests use them as oracles.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::fmt;

use guarantor_lts::{Lts, StateId};

use crate::error::PredabsError;
use crate::formula::{Formula, Sym, Term};
use crate::program::{Program, Type, Value};

/// Locations and variable values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConcreteState {
    /// One location per component.
    pub locations: Vec<usize>,
    /// One value per variable.
    pub values: Vec<Value>,
}

/// One step of a concrete run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The action, or the internal label `<component>.t<index>`.
    pub label: String,
    /// The moving components and the transitions they take.
    pub moves: Vec<(usize, usize)>,
    /// The state after the step.
    pub after: ConcreteState,
}

/// A concrete run from an initial state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcreteTrace {
    /// The initial state.
    pub initial: ConcreteState,
    /// The steps.
    pub steps: Vec<Step>,
}

impl ConcreteTrace {
    /// The labels of the steps.
    pub fn labels(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.label.clone()).collect()
    }

    /// The last state.
    pub fn last(&self) -> &ConcreteState {
        self.steps.last().map_or(&self.initial, |s| &s.after)
    }

    /// A readable listing: one line per state, with locations and values.
    pub fn display<'a>(&'a self, sys: &'a Program) -> impl fmt::Display + 'a {
        Listing { trace: self, sys }
    }
}

struct Listing<'a> {
    trace: &'a ConcreteTrace,
    sys: &'a Program,
}

impl Listing<'_> {
    fn state(&self, f: &mut fmt::Formatter<'_>, s: &ConcreteState) -> fmt::Result {
        let locs: Vec<String> = self
            .sys
            .components
            .iter()
            .zip(&s.locations)
            .map(|(c, &l)| format!("{}@{}", c.name, c.locations[l]))
            .collect();
        let vals: Vec<String> = self
            .sys
            .vars
            .iter()
            .zip(&s.values)
            .map(|(v, x)| format!("{}={x}", v.name))
            .collect();
        writeln!(f, "  [{}] {}", locs.join(" "), vals.join(" "))
    }
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.state(f, &self.trace.initial)?;
        for s in &self.trace.steps {
            writeln!(f, "{}", s.label)?;
            self.state(f, &s.after)?;
        }
        Ok(())
    }
}

/// Why a concrete trace does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("step {step}: {message}")]
pub struct ConcreteReplayError {
    /// 0-based step index (`usize::MAX` for the initial state).
    pub step: usize,
    /// What is wrong.
    pub message: String,
}

fn int_of(s: &ConcreteState, x: Sym) -> i128 {
    match s.values.get(x.0 as usize) {
        Some(Value::Int(v)) => *v,
        _ => 0,
    }
}

fn bool_of(s: &ConcreteState, x: Sym) -> bool {
    matches!(s.values.get(x.0 as usize), Some(Value::Bool(true)))
}

/// Whether `f` holds in `s` (overflow counts as false).
pub fn holds(s: &ConcreteState, f: &Formula) -> bool {
    f.eval(&|x| int_of(s, x), &|x| bool_of(s, x))
        .unwrap_or(false)
}

fn value(s: &ConcreteState, t: &Term) -> Result<Value, PredabsError> {
    Ok(match t {
        Term::Int(a) => Value::Int(a.eval(&|x| int_of(s, x))?),
        Term::Bool(f) => Value::Bool(f.eval(&|x| int_of(s, x), &|x| bool_of(s, x))?),
    })
}

/// The state after `moves` from `s`, or `None` if some move is not enabled.
pub fn apply(
    sys: &Program,
    s: &ConcreteState,
    moves: &[(usize, usize)],
) -> Result<Option<ConcreteState>, PredabsError> {
    let mut next = s.clone();
    for &(c, t) in moves {
        let Some(tr) = sys.components.get(c).and_then(|x| x.transitions.get(t)) else {
            return Ok(None);
        };
        if s.locations[c] != tr.from || !tr.guard.eval(&|x| int_of(s, x), &|x| bool_of(s, x))? {
            return Ok(None);
        }
        next.locations[c] = tr.to;
        for (v, term) in &tr.assignments {
            next.values[*v] = value(s, term)?;
        }
    }
    Ok(Some(next))
}

/// Every enabled step from `s`: `(label, moves)`. A state with a component at an error location
/// has none (an `ERROR` state ends every run, as in LTSA); actions that only properties know are
/// always enabled, with no moves.
pub fn enabled(sys: &Program, s: &ConcreteState) -> Vec<(String, Vec<(usize, usize)>)> {
    let stopped = |c: usize| sys.components[c].error_locations.contains(&s.locations[c]);
    let mut out = Vec::new();
    if (0..sys.components.len()).any(stopped) {
        return out;
    }
    let component_actions: BTreeSet<String> = (0..sys.components.len())
        .flat_map(|c| sys.actions(c))
        .collect();
    for p in &sys.properties {
        for (_, a) in p.lts.alphabet().iter() {
            if a != guarantor_lts::TAU_NAME && !component_actions.contains(a) {
                out.push((a.to_string(), Vec::new()));
            }
        }
    }
    out.sort();
    out.dedup();
    let mut actions: BTreeSet<String> = BTreeSet::new();
    for (c, comp) in sys.components.iter().enumerate() {
        for (t, tr) in comp.transitions.iter().enumerate() {
            match &tr.action {
                None if !stopped(c) && tr.from == s.locations[c] && holds(s, &tr.guard) => {
                    out.push((sys.label(c, t), vec![(c, t)]));
                }
                Some(a) => {
                    actions.insert(a.clone());
                }
                None => {}
            }
        }
    }
    for a in actions {
        let mut choices: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
        for (c, comp) in sys.components.iter().enumerate() {
            if !comp
                .transitions
                .iter()
                .any(|t| t.action.as_deref() == Some(&a))
            {
                continue;
            }
            let mine: Vec<usize> = if stopped(c) {
                Vec::new()
            } else {
                (0..comp.transitions.len())
                    .filter(|&t| {
                        let tr = &comp.transitions[t];
                        tr.action.as_deref() == Some(&a)
                            && tr.from == s.locations[c]
                            && holds(s, &tr.guard)
                    })
                    .collect()
            };
            choices = choices
                .iter()
                .flat_map(|p| {
                    mine.iter().map(move |&t| {
                        let mut p = p.clone();
                        p.push((c, t));
                        p
                    })
                })
                .collect();
        }
        out.extend(choices.into_iter().map(|m| (a.clone(), m)));
    }
    out
}

/// Checks that `trace` is a run of `sys`: initial values match the declarations, and each step's
/// moves are exactly the synchronising components' enabled transitions and produce `after`.
///
/// # Errors
/// A [`ConcreteReplayError`] naming the first step that does not replay.
pub fn replay(sys: &Program, trace: &ConcreteTrace) -> Result<(), ConcreteReplayError> {
    let init = &trace.initial;
    let bad = |step: usize, message: String| Err(ConcreteReplayError { step, message });
    if init.locations != sys.components.iter().map(|c| c.initial).collect::<Vec<_>>() {
        return bad(usize::MAX, "initial locations differ".into());
    }
    for (i, v) in sys.vars.iter().enumerate() {
        if v.init.is_some_and(|x| Some(&x) != init.values.get(i)) {
            return bad(usize::MAX, format!("initial value of `{}` differs", v.name));
        }
    }
    let mut cur = init.clone();
    for (i, step) in trace.steps.iter().enumerate() {
        let options = enabled(sys, &cur);
        let mut sorted = step.moves.clone();
        sorted.sort_unstable();
        let ok = options
            .iter()
            .any(|(l, m)| *l == step.label && *m == sorted);
        if !ok {
            return bad(
                i,
                format!(
                    "`{}` with moves {:?} is not enabled",
                    step.label, step.moves
                ),
            );
        }
        match apply(sys, &cur, &step.moves) {
            Ok(Some(next)) if next == step.after => cur = next,
            Ok(_) => return bad(i, "the state after the step differs".into()),
            Err(e) => return bad(i, e.to_string()),
        }
    }
    Ok(())
}

/// Whether the run ends in a violation: a component at an error location, or the labels driving a
/// property to its error state.
pub fn violates(sys: &Program, trace: &ConcreteTrace) -> bool {
    let last = trace.last();
    let at_error = sys
        .components
        .iter()
        .zip(&last.locations)
        .any(|(c, l)| c.error_locations.contains(l));
    let props: Vec<&Lts> = sys.properties.iter().map(|p| &p.lts).collect();
    at_error || guarantor_compose::replay::violates(&[], &props, &trace.labels()).unwrap_or(false)
}

/// The result of [`check_explicit`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitResult {
    /// A shortest violating run, if any.
    pub counterexample: Option<ConcreteTrace>,
    /// Concrete states visited.
    pub states: usize,
}

/// Breadth-first search of the concrete state space, uninitialised integers ranging over `domain`.
/// Only for programs whose reachable state space is finite (small bounded domains).
///
/// # Errors
/// [`PredabsError::StateLimit`] past `max_states` states; overflow errors.
pub fn check_explicit(
    sys: &Program,
    domain: std::ops::RangeInclusive<i128>,
    max_states: usize,
) -> Result<ExplicitResult, PredabsError> {
    let props: Vec<&Lts> = sys.properties.iter().map(|p| &p.lts).collect();
    let mut seen: HashMap<(ConcreteState, Vec<StateId>), usize> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut queue = VecDeque::new();
    for init in initial_states(sys, domain) {
        let key = (init, props.iter().map(|p| p.initial()).collect::<Vec<_>>());
        if !seen.contains_key(&key) {
            seen.insert(key.clone(), nodes.len());
            queue.push_back(nodes.len());
            nodes.push((key.0, key.1, None));
        }
    }
    while let Some(i) = queue.pop_front() {
        let (s, ps, _) = nodes[i].clone();
        if sys
            .components
            .iter()
            .zip(&s.locations)
            .any(|(c, l)| c.error_locations.contains(l))
        {
            return Ok(ExplicitResult {
                counterexample: Some(trace_to(&nodes, i)),
                states: nodes.len(),
            });
        }
        for (label, moves) in enabled(sys, &s) {
            let Some(next) = apply(sys, &s, &moves)? else {
                continue;
            };
            let mut nps = ps.clone();
            let mut violated = false;
            for (k, p) in props.iter().enumerate() {
                if let Some(a) = p.alphabet().get(&label) {
                    match p.successors(ps[k], a).next() {
                        Some(t) => nps[k] = t,
                        None => violated = true,
                    }
                }
            }
            let key = (next, nps);
            if violated {
                nodes.push((key.0, key.1, Some((i, label, moves))));
                return Ok(ExplicitResult {
                    counterexample: Some(trace_to(&nodes, nodes.len() - 1)),
                    states: nodes.len(),
                });
            }
            if !seen.contains_key(&key) {
                if nodes.len() >= max_states {
                    return Err(PredabsError::StateLimit {
                        component: "<concrete system>".into(),
                        limit: max_states,
                    });
                }
                seen.insert(key.clone(), nodes.len());
                queue.push_back(nodes.len());
                nodes.push((key.0, key.1, Some((i, label, moves))));
            }
        }
    }
    Ok(ExplicitResult {
        counterexample: None,
        states: nodes.len(),
    })
}

type Node = (
    ConcreteState,
    Vec<StateId>,
    Option<(usize, String, Vec<(usize, usize)>)>,
);

fn trace_to(nodes: &[Node], mut i: usize) -> ConcreteTrace {
    let mut steps = Vec::new();
    while let Some((p, label, moves)) = nodes[i].2.clone() {
        steps.push(Step {
            label,
            moves,
            after: nodes[i].0.clone(),
        });
        i = p;
    }
    steps.reverse();
    ConcreteTrace {
        initial: nodes[i].0.clone(),
        steps,
    }
}

/// Every initial state, uninitialised integers over `domain` and booleans over both values.
fn initial_states(sys: &Program, domain: std::ops::RangeInclusive<i128>) -> Vec<ConcreteState> {
    let locations: Vec<usize> = sys.components.iter().map(|c| c.initial).collect();
    let mut out = vec![Vec::new()];
    for v in &sys.vars {
        let options: Vec<Value> = match (v.init, v.ty) {
            (Some(x), _) => vec![x],
            (None, Type::Bool) => vec![Value::Bool(false), Value::Bool(true)],
            (None, _) => domain.clone().map(Value::Int).collect(),
        };
        out = out
            .iter()
            .flat_map(|p: &Vec<Value>| {
                options.iter().map(move |&x| {
                    let mut p = p.clone();
                    p.push(x);
                    p
                })
            })
            .collect();
    }
    out.into_iter()
        .map(|values| ConcreteState {
            locations: locations.clone(),
            values,
        })
        .collect()
}
