//! The checker's own view of an LTS ([`Machine`]), its own action numbering ([`Actions`]) and its
//! own product exploration ([`search`]).
//!
//! Deliberately simple, and sharing no code with `guarantor-compose`: a product state is a
//! `Vec<usize>` of member states, kept in a `HashMap`; successors are enumerated action by action
//! (every member with the action in its alphabet moves, the others stay; tau moves one member
//! alone). Clarity over speed: a bug in the fast checker must not hide a bug in a certificate.

use std::collections::{BTreeSet, HashMap, VecDeque};

use guarantor_lts::Lts;

/// An action number; [`TAU`] is the internal action.
pub(crate) type Act = u32;

/// The internal action.
pub(crate) const TAU: Act = 0;

/// Action names, numbered for the whole check; `"tau"` is [`TAU`].
#[derive(Debug)]
pub(crate) struct Actions {
    names: Vec<String>,
    index: HashMap<String, Act>,
}

impl Actions {
    /// A numbering holding only tau.
    pub(crate) fn new() -> Self {
        let mut index = HashMap::new();
        index.insert("tau".to_owned(), TAU);
        Self {
            names: vec!["tau".to_owned()],
            index,
        }
    }

    /// The number of `name`, numbering it if it is new.
    pub(crate) fn id(&mut self, name: &str) -> Act {
        if let Some(&a) = self.index.get(name) {
            return a;
        }
        let a = self.names.len() as Act;
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), a);
        a
    }

    /// The number of `name`, if it has one.
    pub(crate) fn get(&self, name: &str) -> Option<Act> {
        self.index.get(name).copied()
    }

    /// The name of `a`.
    pub(crate) fn name(&self, a: Act) -> &str {
        self.names.get(a as usize).map_or("?", String::as_str)
    }

    /// The names of a trace.
    pub(crate) fn names(&self, trace: &[Act]) -> Vec<String> {
        trace.iter().map(|&a| self.name(a).to_owned()).collect()
    }
}

/// An LTS over [`Actions`] numbers.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    /// The visible alphabet.
    pub(crate) alphabet: BTreeSet<Act>,
    /// The initial state.
    pub(crate) initial: usize,
    /// Outgoing transitions per state, sorted.
    pub(crate) edges: Vec<Vec<(Act, usize)>>,
    /// The error state (`ERROR` of a component, pi of a property's error machine).
    pub(crate) error: Option<usize>,
}

impl Machine {
    /// The machine of a model LTS.
    pub(crate) fn from_lts(lts: &Lts, actions: &mut Actions) -> Self {
        let mut alphabet = BTreeSet::new();
        for (a, name) in lts.alphabet().iter() {
            if !a.is_tau() {
                alphabet.insert(actions.id(name));
            }
        }
        let mut edges = vec![Vec::new(); lts.num_states()];
        for t in lts.transitions() {
            let a = actions.id(lts.action_name(t.action));
            edges[t.source.index()].push((a, t.target.index()));
        }
        for e in &mut edges {
            e.sort_unstable();
            e.dedup();
        }
        Self {
            alphabet,
            initial: lts.initial().index(),
            edges,
            error: lts.error_state().map(guarantor_lts::StateId::index),
        }
    }

    /// The number of states.
    pub(crate) fn len(&self) -> usize {
        self.edges.len()
    }

    /// The targets of `s` on `a`.
    pub(crate) fn successors(&self, s: usize, a: Act) -> impl Iterator<Item = usize> + '_ {
        self.edges
            .get(s)
            .into_iter()
            .flatten()
            .filter(move |e| e.0 == a)
            .map(|e| e.1)
    }

    /// Whether `s -a-> t` is a transition.
    pub(crate) fn has_edge(&self, s: usize, a: Act, t: usize) -> bool {
        self.edges.get(s).is_some_and(|e| e.contains(&(a, t)))
    }

    /// A state and action where the machine is not deterministic (tau counts), if any.
    pub(crate) fn nondeterminism(&self) -> Option<(usize, Act)> {
        self.edges.iter().enumerate().find_map(|(s, out)| {
            out.iter()
                .enumerate()
                .find(|&(i, e)| e.0 == TAU || (i > 0 && out[i - 1].0 == e.0))
                .map(|(_, e)| (s, e.0))
        })
    }

    /// The error machine `P_err` of this deterministic property: every action of the alphabet a
    /// state refuses leads to pi (the property's own error state, or a new last state); pi has no
    /// moves. Returns the witness of nondeterminism instead if there is one.
    pub(crate) fn error_machine(&self) -> Result<Self, (usize, Act)> {
        if let Some(w) = self.nondeterminism() {
            return Err(w);
        }
        let mut m = self.clone();
        let pi = match self.error {
            Some(pi) => pi,
            None => {
                m.edges.push(Vec::new());
                m.edges.len() - 1
            }
        };
        m.error = Some(pi);
        for s in 0..m.edges.len() {
            if s == pi {
                m.edges[s].clear();
                continue;
            }
            for &a in &self.alphabet {
                if !m.edges[s].iter().any(|e| e.0 == a) {
                    m.edges[s].push((a, pi));
                }
            }
            m.edges[s].sort_unstable();
        }
        Ok(m)
    }
}

/// How a member of a product counts in a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A component: its `ERROR` state is a violation.
    Component,
    /// An assumption: it only restricts (it has no error state).
    Assumption,
    /// A guarantee's error machine: its pi is a violation.
    Guarantee,
}

/// One member of a product.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Member<'a> {
    pub(crate) machine: &'a Machine,
    pub(crate) kind: Kind,
}

impl Member<'_> {
    /// Whether being at `s` is a violation.
    fn violates(&self, s: usize) -> bool {
        self.kind != Kind::Assumption && self.machine.error == Some(s)
    }
}

/// The moves of the members `subset` from `tuple`: `(action, next tuple)`; members outside
/// `subset` stay where they are.
pub(crate) fn moves(
    members: &[Member],
    subset: &[usize],
    tuple: &[usize],
) -> Vec<(Act, Vec<usize>)> {
    let mut out = Vec::new();
    // Tau: one member alone.
    for &i in subset {
        for t in members[i].machine.successors(tuple[i], TAU) {
            let mut next = tuple.to_vec();
            next[i] = t;
            out.push((TAU, next));
        }
    }
    let actions: BTreeSet<Act> = subset
        .iter()
        .flat_map(|&i| members[i].machine.alphabet.iter().copied())
        .collect();
    for a in actions {
        let mut partial = vec![tuple.to_vec()];
        for &i in subset {
            if !members[i].machine.alphabet.contains(&a) {
                continue;
            }
            let mut grown = Vec::new();
            for p in &partial {
                for t in members[i].machine.successors(tuple[i], a) {
                    let mut next = p.clone();
                    next[i] = t;
                    grown.push(next);
                }
            }
            partial = grown;
        }
        out.extend(partial.into_iter().map(|n| (a, n)));
    }
    out
}

/// The circular premise's extra check: from every reachable tuple, a move of the components
/// `group` (with the guarantee's error machine `guarantee`, whatever the assumptions allow) that
/// reaches pi or a component's `ERROR` is a violation.
#[derive(Clone, Debug)]
pub(crate) struct Circular {
    pub(crate) group: Vec<usize>,
    pub(crate) guarantee: usize,
}

/// A violation found by [`search`].
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The actions of the run, tau included.
    pub(crate) trace: Vec<Act>,
    /// The member at its error state at the end.
    pub(crate) member: usize,
}

/// Breadth-first search of the product of `members` for a tuple where some member violates (and,
/// with `circular`, for the free last step of the group). Returns the violation, if any, and the
/// number of tuples visited.
pub(crate) fn search(members: &[Member], circular: Option<&Circular>) -> (Option<Found>, usize) {
    let all: Vec<usize> = (0..members.len()).collect();
    let start: Vec<usize> = members.iter().map(|m| m.machine.initial).collect();
    let mut seen: HashMap<Vec<usize>, usize> = HashMap::new();
    let mut parent: Vec<Option<(usize, Act)>> = Vec::new();
    let mut tuples: Vec<Vec<usize>> = Vec::new();
    let mut queue = VecDeque::new();
    let trace_to = |parent: &[Option<(usize, Act)>], mut id: usize| {
        let mut trace = Vec::new();
        while let Some((p, a)) = parent[id] {
            trace.push(a);
            id = p;
        }
        trace.reverse();
        trace
    };
    let violator = |tuple: &[usize]| (0..members.len()).find(|&i| members[i].violates(tuple[i]));
    if let Some(member) = violator(&start) {
        return (
            Some(Found {
                trace: Vec::new(),
                member,
            }),
            1,
        );
    }
    seen.insert(start.clone(), 0);
    tuples.push(start);
    parent.push(None);
    queue.push_back(0);
    while let Some(id) = queue.pop_front() {
        let tuple = tuples[id].clone();
        if let Some(c) = circular {
            let mut subset = c.group.clone();
            subset.push(c.guarantee);
            for (a, next) in moves(members, &subset, &tuple) {
                // A move of the group: tau moves come from the group alone (the guarantee is
                // deterministic), a visible action must be one the group has.
                if a != TAU
                    && !c
                        .group
                        .iter()
                        .any(|&i| members[i].machine.alphabet.contains(&a))
                {
                    continue;
                }
                if let Some(member) = subset
                    .iter()
                    .copied()
                    .find(|&i| members[i].violates(next[i]))
                {
                    let mut trace = trace_to(&parent, id);
                    trace.push(a);
                    return (Some(Found { trace, member }), tuples.len());
                }
            }
        }
        for (a, next) in moves(members, &all, &tuple) {
            if seen.contains_key(&next) {
                continue;
            }
            let new = tuples.len();
            if let Some(member) = violator(&next) {
                let mut trace = trace_to(&parent, id);
                trace.push(a);
                return (Some(Found { trace, member }), new);
            }
            seen.insert(next.clone(), new);
            tuples.push(next);
            parent.push(Some((id, a)));
            queue.push_back(new);
        }
    }
    (None, tuples.len())
}
