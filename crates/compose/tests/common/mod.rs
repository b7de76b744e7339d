//! A deliberately naive reference for the property tests: explicit products over `Vec<usize>`
//! tuples with `HashSet`s, actions compared by *name*, nothing shared with the crate under test.
//! It is slow and obviously correct, which is the point.

#![allow(dead_code, unreachable_pub)]

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use guarantor_lts::{Lts, LtsBuilder, StateId};

/// A tuple of component states; `PI` stands for the error state pi of a naive error LTS.
pub type Tuple = Vec<usize>;

/// The state index used for pi in naive property components.
pub const PI: usize = usize::MAX;

/// One member of a naive product: a component, or a property read as its error LTS.
#[derive(Clone, Copy)]
pub enum Member<'a> {
    Component(&'a Lts),
    Property(&'a Lts),
    /// Read as a safety assumption: moves into rejecting (error or non-accepting) states are
    /// blocked, and a rejecting initial state allows nothing at all.
    Assumption(&'a Lts),
}

impl Member<'_> {
    fn lts(&self) -> &Lts {
        match self {
            Member::Component(l) | Member::Property(l) | Member::Assumption(l) => l,
        }
    }

    fn has(&self, name: &str) -> bool {
        self.lts().alphabet().iter().any(|(_, n)| n == name)
    }

    /// Targets of state `s` on action `name` (`"tau"` for internal moves).
    fn step(&self, s: usize, name: &str) -> Vec<usize> {
        let lts = self.lts();
        if s == PI {
            return vec![];
        }
        let targets: Vec<usize> = lts
            .outgoing(StateId::must(s))
            .iter()
            .filter(|e| lts.action_name(e.action) == name)
            .map(|e| e.target.index())
            .collect();
        match self {
            Member::Assumption(_) if rejects(lts, s) => vec![],
            Member::Assumption(_) => targets.into_iter().filter(|&t| !rejects(lts, t)).collect(),
            Member::Property(_) if name != "tau" && targets.is_empty() => vec![PI],
            Member::Property(_) if targets.iter().any(|&t| lts.is_error(StateId::must(t))) => {
                vec![PI]
            }
            _ => targets,
        }
    }

    fn failed(&self, s: usize) -> bool {
        match self {
            Member::Component(l) => l.is_error(StateId::must(s)),
            Member::Property(l) => s == PI || l.is_error(StateId::must(s)),
            Member::Assumption(_) => false,
        }
    }
}

/// Whether state `s` of an assumption rejects.
pub fn rejects(lts: &Lts, s: usize) -> bool {
    let s = StateId::must(s);
    lts.is_error(s) || !lts.is_accepting(s)
}

/// A naive product of members.
pub struct Naive<'a> {
    pub members: Vec<Member<'a>>,
    pub names: BTreeSet<String>,
}

impl<'a> Naive<'a> {
    pub fn new(members: Vec<Member<'a>>) -> Self {
        let names = members
            .iter()
            .flat_map(|m| {
                m.lts()
                    .alphabet()
                    .iter()
                    .map(|(_, n)| n.to_owned())
                    .collect::<Vec<_>>()
            })
            .collect();
        Self { members, names }
    }

    pub fn components(comps: &[&'a Lts]) -> Self {
        Self::new(comps.iter().map(|&c| Member::Component(c)).collect())
    }

    pub fn initial(&self) -> Tuple {
        self.members
            .iter()
            .map(|m| m.lts().initial().index())
            .collect()
    }

    /// Index of the first failed member, if any.
    pub fn failed(&self, t: &Tuple) -> Option<usize> {
        self.members.iter().zip(t).position(|(m, &s)| m.failed(s))
    }

    /// All `(action name, target)` moves of `t` (none from a failed tuple).
    pub fn moves(&self, t: &Tuple) -> Vec<(String, Tuple)> {
        let mut out = Vec::new();
        if self.failed(t).is_some() {
            return out;
        }
        for (i, m) in self.members.iter().enumerate() {
            for target in m.step(t[i], "tau") {
                let mut u = t.clone();
                u[i] = target;
                out.push(("tau".to_owned(), u));
            }
        }
        for name in &self.names {
            let mut partial = vec![t.clone()];
            for (i, m) in self.members.iter().enumerate() {
                if !m.has(name) {
                    continue;
                }
                let targets = m.step(t[i], name);
                partial = partial
                    .iter()
                    .flat_map(|p| {
                        targets.iter().map(move |&x| {
                            let mut u = p.clone();
                            u[i] = x;
                            u
                        })
                    })
                    .collect();
            }
            out.extend(partial.into_iter().map(|u| (name.clone(), u)));
        }
        out
    }

    /// Reachable tuples and transitions (error tuples are reached but not expanded).
    pub fn explore(&self) -> (HashSet<Tuple>, HashSet<(Tuple, String, Tuple)>) {
        let mut seen = HashSet::from([self.initial()]);
        let mut edges = HashSet::new();
        let mut queue = VecDeque::from([self.initial()]);
        while let Some(t) = queue.pop_front() {
            for (a, u) in self.moves(&t) {
                edges.insert((t.clone(), a, u.clone()));
                if seen.insert(u.clone()) {
                    queue.push_back(u);
                }
            }
        }
        (seen, edges)
    }

    /// The number of steps (tau included) of a shortest run to a failed tuple, if any.
    pub fn shortest_failure(&self) -> Option<usize> {
        let mut depth = HashMap::from([(self.initial(), 0usize)]);
        let mut queue = VecDeque::from([self.initial()]);
        while let Some(t) = queue.pop_front() {
            let d = depth[&t];
            if self.failed(&t).is_some() {
                return Some(d);
            }
            for (_, u) in self.moves(&t) {
                if !depth.contains_key(&u) {
                    depth.insert(u.clone(), d + 1);
                    queue.push_back(u);
                }
            }
        }
        None
    }

    /// Tau closure of a set of tuples.
    fn close(&self, mut set: HashSet<Tuple>) -> HashSet<Tuple> {
        let mut work: Vec<Tuple> = set.iter().cloned().collect();
        while let Some(t) = work.pop() {
            for (a, u) in self.moves(&t) {
                if a == "tau" && set.insert(u.clone()) {
                    work.push(u);
                }
            }
        }
        set
    }

    /// The tuples `trace` can lead to (actions outside every alphabet are skipped), or the index of
    /// the first step no tuple can take. Also whether a failed tuple was met on the way.
    pub fn run(&self, trace: &[String]) -> (Result<HashSet<Tuple>, usize>, bool) {
        let mut set = self.close(HashSet::from([self.initial()]));
        let mut failed = set.iter().any(|t| self.failed(t).is_some());
        for (i, name) in trace.iter().enumerate() {
            if !self.names.contains(name) {
                continue;
            }
            let next: HashSet<Tuple> = set
                .iter()
                .flat_map(|t| self.moves(t))
                .filter(|(a, _)| a == name)
                .map(|(_, u)| u)
                .collect();
            set = self.close(next);
            if set.is_empty() {
                return (Err(i), failed);
            }
            failed |= set.iter().any(|t| self.failed(t).is_some());
        }
        (Ok(set), failed)
    }
}

/// An LTS from `(source, action, target)` triples plus extra declared actions; state 0 is initial.
pub fn lts(edges: &[(usize, &str, usize)], declared: &[&str]) -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(1).unwrap();
    for &(s, a, t) in edges {
        b.ensure_states(s.max(t) + 1).unwrap();
        b.add_transition_named(StateId::must(s), a, StateId::must(t))
            .unwrap();
    }
    for a in declared {
        b.action(a).unwrap();
    }
    b.build().unwrap()
}

/// The transitions of a composition as tuples (`None` for the collapsed error state).
pub fn tuple_edges(
    c: &guarantor_compose::Composition,
) -> HashSet<(Option<Tuple>, String, Option<Tuple>)> {
    let tup = |s: StateId| {
        c.tuple(s)
            .map(|t| t.iter().map(|x| x.index()).collect::<Tuple>())
    };
    c.lts()
        .transitions()
        .map(|t| {
            (
                tup(t.source),
                c.lts().action_name(t.action).to_owned(),
                tup(t.target),
            )
        })
        .collect()
}
