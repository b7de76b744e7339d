//! The checker's own view of an LTS ([`Machine`]), its own action numbering ([`Actions`]), and
//! the members a product search is made of ([`Member`]); the search itself is in
//! [`crate::search`].

use std::collections::{BTreeSet, HashMap};

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
        let out = self.edges.get(s).map_or(&[][..], Vec::as_slice);
        let first = out.partition_point(|e| e.0 < a);
        out[first..]
            .iter()
            .take_while(move |e| e.0 == a)
            .map(|e| e.1)
    }

    /// Whether `s -a-> t` is a transition.
    pub(crate) fn has_edge(&self, s: usize, a: Act, t: usize) -> bool {
        self.edges
            .get(s)
            .is_some_and(|e| e.binary_search(&(a, t)).is_ok())
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
