//! Shared helpers of the FSP integration tests: a naive reference product with LTSA's counting
//! conventions (one collapsed ERROR state, END, priority), and the golden-table loader.
//!
//! The product here is deliberately simple (a breadth-first search over state tuples) so that it
//! can serve as an independent reference for `guarantor-compose`.

#![allow(dead_code, unreachable_pub)]

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use guarantor_fsp::{Nested, System};
use guarantor_lts::{ActionId, Lts, StateId};

/// What LTSA reports after composing and analysing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub states: usize,
    pub transitions: usize,
    pub verdict: String,
}

pub const VIOLATION: &str = "ERROR reachable (property violation)";
pub const DEADLOCK: &str = "deadlock";
pub const NONE: &str = "no deadlock/violation";

/// The error form of a property: a fresh error state, reached on every action of the alphabet a
/// state does not offer.
pub fn property_error_form(p: &Lts) -> Lts {
    let mut b = p.to_builder();
    let err = b.add_state().unwrap();
    for s in p.states() {
        if p.is_error(s) {
            continue;
        }
        for a in p.alphabet().visible() {
            if p.outgoing_on(s, a).is_empty() {
                b.add_transition(s, a, err).unwrap();
            }
        }
    }
    let old_err = p.error_state();
    b.set_error(err).unwrap();
    let lts = b.build().unwrap();
    // A property with its own ERROR state keeps one error state: redirect into the new one.
    match old_err {
        None => lts,
        Some(e) => {
            let mut b2 = guarantor_lts::LtsBuilder::with_alphabet(lts.alphabet().clone());
            b2.ensure_states(lts.num_states()).unwrap();
            for t in lts.transitions() {
                let tgt = if t.target == e { err } else { t.target };
                b2.add_transition(t.source, t.action, tgt).unwrap();
            }
            b2.set_initial(lts.initial()).unwrap();
            b2.set_error(err).unwrap();
            b2.build().unwrap()
        }
    }
}

/// Composes a system naively and counts as LTSA does. One long function on purpose: it is a
/// reference written to be read top to bottom, not reused.
#[allow(clippy::too_many_lines)]
pub fn naive_outcome(sys: &System, state_cap: usize) -> Option<Outcome> {
    let comps: Vec<Lts> = sys
        .components
        .iter()
        .map(|c| {
            if c.is_property {
                property_error_form(&c.lts)
            } else {
                c.lts.clone()
            }
        })
        .chain(sys.nested.iter().map(build_nested))
        .collect();
    let ends = end_states(sys);
    // Global action table.
    let mut names: Vec<String> = vec!["tau".into()];
    let mut gindex: HashMap<String, usize> = HashMap::new();
    let mut local_to_global: Vec<Vec<usize>> = Vec::new();
    for c in &comps {
        let mut map = vec![0usize; c.alphabet().id_bound()];
        for (a, n) in c.alphabet().iter() {
            let g = *gindex.entry(n.to_string()).or_insert_with(|| {
                names.push(n.to_string());
                names.len() - 1
            });
            map[a.index()] = g;
        }
        local_to_global.push(map);
    }
    let ng = names.len();
    // participants[g] = components whose alphabet has g; local id per component.
    let mut participants: Vec<Vec<(usize, ActionId)>> = vec![Vec::new(); ng];
    for (i, c) in comps.iter().enumerate() {
        for (a, _) in c.alphabet().iter() {
            participants[local_to_global[i][a.index()]].push((i, a));
        }
    }
    let hidden: Vec<bool> = names
        .iter()
        .enumerate()
        .map(|(g, n)| g == 0 || sys.is_hidden(n))
        .collect();
    let listed: Vec<bool> = names
        .iter()
        .map(|n| sys.priority.as_ref().is_some_and(|p| p.lists(n)))
        .collect();
    let high = sys.priority.as_ref().map(|p| p.high);

    let init: Vec<u32> = comps.iter().map(|c| c.initial().as_u32()).collect();
    let mut index: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut queue: Vec<Vec<u32>> = Vec::new();
    let is_err = |t: &[u32]| {
        t.iter()
            .enumerate()
            .any(|(i, &s)| comps[i].is_error(StateId::from_u32(s)))
    };
    let mut error_reached = false;
    let mut deadlock = false;
    let can_end = naive_can_end(&comps, &ends);
    let mut terminal: Vec<u32> = Vec::new();
    let mut transitions = 0usize;
    // Simple BFS with explicit error bookkeeping.
    let mut edges_set: std::collections::HashSet<(u32, usize, u64)> = HashSet::default();
    if is_err(&init) {
        return Some(Outcome {
            states: 1,
            transitions: 0,
            verdict: VIOLATION.into(),
        });
    }
    index.insert(init.clone(), 0);
    queue.push(init);
    let mut head = 0;
    while head < queue.len() {
        if index.len() > state_cap {
            return None;
        }
        let t = queue[head].clone();
        let sid = head as u32;
        head += 1;
        // Enumerate candidate moves: (global action, successor tuple).
        let mut moves: Vec<(usize, Vec<u32>)> = Vec::new();
        for (i, c) in comps.iter().enumerate() {
            for e in c.outgoing(StateId::from_u32(t[i])) {
                if e.action.is_tau() {
                    let mut n = t.clone();
                    n[i] = e.target.as_u32();
                    moves.push((0, n));
                    continue;
                }
                let g = local_to_global[i][e.action.index()];
                // Only the first participant drives the synchronisation.
                if participants[g][0].0 != i {
                    continue;
                }
                let mut partial: Vec<Vec<u32>> = vec![{
                    let mut n = t.clone();
                    n[i] = e.target.as_u32();
                    n
                }];
                for &(j, aj) in &participants[g][1..] {
                    let succ: Vec<u32> = comps[j]
                        .successors(StateId::from_u32(t[j]), aj)
                        .map(StateId::as_u32)
                        .collect();
                    let mut next = Vec::new();
                    for p in &partial {
                        for &s in &succ {
                            let mut n = p.clone();
                            n[j] = s;
                            next.push(n);
                        }
                    }
                    partial = next;
                    if partial.is_empty() {
                        break;
                    }
                }
                for n in partial {
                    moves.push((g, n));
                }
            }
        }
        if let Some(h) = high {
            let pref = |g: usize| {
                if h {
                    g != 0 && listed[g]
                } else {
                    !(g != 0 && listed[g])
                }
            };
            if moves.iter().any(|(g, _)| pref(*g)) {
                moves.retain(|(g, _)| pref(*g));
            }
        }
        if moves.is_empty() {
            if can_end && naive_at_end(&ends, &t) {
                terminal.push(sid);
            } else {
                deadlock = true;
            }
        }
        for (g, n) in moves {
            let label = if hidden[g] { 0 } else { g };
            if is_err(&n) {
                error_reached = true;
                edges_set.insert((sid, label, u64::MAX));
                continue;
            }
            let id = if let Some(&id) = index.get(&n) {
                id
            } else {
                let id = index.len() as u32;
                index.insert(n.clone(), id);
                queue.push(n);
                id
            };
            edges_set.insert((sid, label, u64::from(id)));
        }
        transitions = edges_set.len();
    }
    // LTSA merges its end states into one (the first found) and does not count its ERROR state
    // (it is state -1, outside the numbered states).
    if terminal.len() > 1 {
        let first = u64::from(terminal[0]);
        let merged: HashSet<(u32, usize, u64)> = edges_set
            .iter()
            .map(|&(s, a, t)| {
                let t = if t != u64::MAX && terminal.contains(&(t as u32)) {
                    first
                } else {
                    t
                };
                (s, a, t)
            })
            .collect();
        transitions = merged.len();
    }
    let states = index.len() - terminal.len().saturating_sub(1);
    let verdict = if error_reached {
        VIOLATION
    } else if deadlock {
        DEADLOCK
    } else {
        NONE
    };
    Some(Outcome {
        states,
        transitions,
        verdict: verdict.into(),
    })
}

/// LTSA's rule that a system can end, written out on its own: some machine has an end state
/// other than its initial state, and every action of the machines without one (properties and
/// nested composites included) is an action of a machine with one.
fn naive_can_end(comps: &[Lts], ends: &[Option<StateId>]) -> bool {
    let ending = |i: usize| {
        ends.get(i)
            .copied()
            .flatten()
            .is_some_and(|e| e != comps[i].initial())
    };
    let names = |c: &Lts| -> HashSet<String> {
        c.alphabet()
            .visible()
            .map(|a| c.alphabet().name(a).to_owned())
            .collect()
    };
    let mut covered: HashSet<String> = HashSet::new();
    for (i, c) in comps.iter().enumerate() {
        if ending(i) {
            covered.extend(names(c));
        }
    }
    (0..comps.len()).any(ending)
        && (0..comps.len())
            .filter(|&i| !ending(i))
            .all(|i| names(&comps[i]).is_subset(&covered))
}

/// Every machine with an end state is at it.
fn naive_at_end(ends: &[Option<StateId>], tuple: &[u32]) -> bool {
    tuple.iter().enumerate().all(|(i, &s)| {
        ends.get(i)
            .copied()
            .flatten()
            .is_none_or(|e| e == StateId::from_u32(s))
    })
}

/// One row of `expected-counts.csv` where LTSA finished.
#[derive(Clone, Debug)]
pub struct Row {
    pub folder: String,
    pub file: String,
    pub composite: String,
    pub expected: Outcome,
}

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

pub fn golden_rows() -> Vec<Row> {
    let text = std::fs::read_to_string(data_dir().join("expected-counts.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.splitn(7, ',').collect();
            if f.len() < 6 || f[3].is_empty() {
                return None;
            }
            Some(Row {
                folder: f[0].into(),
                file: f[1].into(),
                composite: f[2].into(),
                expected: Outcome {
                    states: f[3].parse().unwrap(),
                    transitions: f[4].parse().unwrap(),
                    verdict: f[5].into(),
                },
            })
        })
        .collect()
}

/// The end state of every component of `sys` (leaves, then nested composites, which have none).
pub fn end_states(sys: &System) -> Vec<Option<StateId>> {
    sys.components
        .iter()
        .map(|c| c.end_state)
        .chain(sys.nested.iter().map(|_| None))
        .collect()
}

fn compose_priority(p: &guarantor_fsp::CompositePriority) -> guarantor_compose::Priority {
    let listed = p.actions.iter().cloned();
    if p.high {
        guarantor_compose::Priority::high(listed)
    } else {
        guarantor_compose::Priority::low(listed)
    }
}

/// The components to compose: leaves (error forms of properties), then built nested composites.
pub fn parts_of(components: &[guarantor_fsp::Component], nested: &[Nested]) -> Vec<Lts> {
    components
        .iter()
        .map(|c| {
            if c.is_property {
                guarantor_compose::error_lts(&c.lts).unwrap()
            } else {
                c.lts.clone()
            }
        })
        .chain(nested.iter().map(build_nested))
        .collect()
}

fn compose_all(
    parts: &[Lts],
    priority: Option<&guarantor_fsp::CompositePriority>,
) -> guarantor_compose::Composition {
    let refs: Vec<&Lts> = parts.iter().collect();
    let config = guarantor_compose::Config::default();
    match priority {
        Some(p) => {
            guarantor_compose::compose_with_priority(&refs, &compose_priority(p), &config).unwrap()
        }
        None => guarantor_compose::compose_with_tuples(&refs, &config).unwrap(),
    }
}

/// Builds a nested composite as the facade will: compose its parts, then `finish`; a property
/// composite in its error form.
pub fn build_nested(n: &Nested) -> Lts {
    let parts = parts_of(&n.components, &n.nested);
    let product = compose_all(&parts, n.priority.as_ref());
    let lts = n.finish(product.lts()).unwrap();
    if n.is_property {
        property_error_form(&lts)
    } else {
        lts
    }
}

/// Composes with `guarantor-compose` (eager, reachable, with priority and nested composites),
/// applies the target's hiding (and minimisation, for a `minimal` target), and counts as LTSA
/// does.
pub fn compose_outcome(sys: &System) -> Outcome {
    let parts = parts_of(&sys.components, &sys.nested);
    let product = compose_all(&parts, sys.priority.as_ref());
    let lts = product.lts();
    let ends = end_states(sys);
    let refs: Vec<&Lts> = parts.iter().collect();
    let rule = guarantor_compose::termination::Termination::ltsa(&refs, &ends, &[]);
    let (merged, _) =
        guarantor_compose::termination::merge_terminal_states(&product, &rule).unwrap();
    let shown = sys.finish(&merged);
    let deadlock = if sys.minimal {
        shown
            .states()
            .any(|s| !shown.is_error(s) && shown.outgoing(s).is_empty())
    } else {
        lts.states().any(|s| {
            !lts.is_error(s)
                && lts.outgoing(s).is_empty()
                && !product.tuple(s).is_some_and(|t| rule.is_terminal(t))
        })
    };
    // A `property` target's ERROR transitions are its form, not a violation (LTSA's Check Safety
    // of `property ||Q = (P)` finds none): the components decide.
    let error = if sys.property {
        lts.error_state().is_some()
    } else {
        shown.error_state().is_some()
    };
    let verdict = if error {
        VIOLATION
    } else if deadlock {
        DEADLOCK
    } else {
        NONE
    };
    Outcome {
        states: shown.num_states() - usize::from(shown.error_state().is_some()),
        transitions: shown.num_transitions(),
        verdict: verdict.into(),
    }
}
