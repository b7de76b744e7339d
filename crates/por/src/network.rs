//! The product as a network of synchronising LTSs, seen one component at a time: what a stubborn
//! set is computed from.
//!
//! A product transition is either a component's own move (tau, or an action no other component
//! has) or a joint move on a shared action by every component that has it. Stubborn sets reason
//! about these *keys* and about each component's local state, never about the whole product, so
//! this module gives exactly that: the keys a component's local state offers, which components a
//! key involves, and whether a key is enabled in a tuple.

use guarantor_lts::{ActionId, Lts, StateId};
use rustc_hash::FxHashMap;

/// A kind of product transition: a component's own move on one of its local actions (tau or an
/// action only it has), or the joint move on a shared action (by its number in the network).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Key {
    /// Component, local action.
    Own(u32, ActionId),
    /// Shared action.
    Shared(u32),
}

/// The components a key involves, with their local action for it.
enum Parts<'a> {
    Own([(u32, ActionId); 1]),
    Shared(&'a [(u32, ActionId)]),
}

impl Parts<'_> {
    fn as_slice(&self) -> &[(u32, ActionId)] {
        match self {
            Parts::Own(one) => one,
            Parts::Shared(all) => all,
        }
    }
}

/// The components, with every shared action numbered and its owners listed.
pub(crate) struct Network<'a> {
    pub(crate) comps: Vec<&'a Lts>,
    /// `shared[i][a]`: the shared number of component `i`'s local action `a`, if shared.
    shared: Vec<Vec<Option<u32>>>,
    /// Per shared number: its owners with their local action.
    owners: Vec<Vec<(u32, ActionId)>>,
    /// Per shared number: its name.
    names: Vec<String>,
    /// `doomed[i][s]`: component `i` can reach its `ERROR` state from local state `s` on its own
    /// (empty for a component without one).
    doomed: Vec<Vec<bool>>,
    /// Whether some component can reach its `ERROR` at all (else no tuple has moves towards one).
    any_doomed: bool,
    /// Per component, where its own keys start in [`Network::key_index`]'s numbering (after the
    /// shared actions).
    own_base: Vec<usize>,
    /// How many key indices there are.
    num_keys: usize,
}

impl<'a> Network<'a> {
    /// The network of `comps`.
    pub(crate) fn new(comps: &[&'a Lts]) -> Self {
        let mut by_name: FxHashMap<&str, Vec<(u32, ActionId)>> = FxHashMap::default();
        for (i, c) in comps.iter().enumerate() {
            for (a, name) in c.alphabet().iter().filter(|(a, _)| !a.is_tau()) {
                by_name.entry(name).or_default().push((i as u32, a));
            }
        }
        let mut names: Vec<&str> = by_name
            .iter()
            .filter(|(_, o)| o.len() > 1)
            .map(|(n, _)| *n)
            .collect();
        names.sort_unstable();
        let mut shared: Vec<Vec<Option<u32>>> = comps
            .iter()
            .map(|c| vec![None; c.alphabet().id_bound()])
            .collect();
        let mut owners = Vec::with_capacity(names.len());
        for (g, name) in names.iter().enumerate() {
            let list = by_name[name].clone();
            for &(i, a) in &list {
                shared[i as usize][a.index()] = Some(g as u32);
            }
            owners.push(list);
        }
        let doomed: Vec<Vec<bool>> = comps.iter().map(|c| can_reach_error(c)).collect();
        let mut own_base = Vec::with_capacity(comps.len());
        let mut num_keys = owners.len();
        for c in comps {
            own_base.push(num_keys);
            num_keys += c.alphabet().id_bound();
        }
        Self {
            comps: comps.to_vec(),
            shared,
            owners,
            names: names.into_iter().map(str::to_owned).collect(),
            any_doomed: doomed.iter().any(|d| d.contains(&true)),
            doomed,
            own_base,
            num_keys,
        }
    }

    /// A dense number for `key`, below [`Network::num_keys`]: shared actions first, then each
    /// component's local actions (for marks indexed by key, instead of searching lists).
    pub(crate) fn key_index(&self, key: Key) -> usize {
        match key {
            Key::Shared(g) => g as usize,
            Key::Own(i, a) => self.own_base[i as usize] + a.index(),
        }
    }

    /// How many key indices there are ([`Network::key_index`]).
    pub(crate) fn num_keys(&self) -> usize {
        self.num_keys
    }

    /// Whether some component can reach its `ERROR` at all.
    pub(crate) fn any_doomed(&self) -> bool {
        self.any_doomed
    }

    /// The first component of `tuple` at its `ERROR` state, if any.
    pub(crate) fn error_component(&self, tuple: &[StateId]) -> Option<usize> {
        (0..self.comps.len()).find(|&i| self.comps[i].error_state() == Some(tuple[i]))
    }

    /// The keys of component `i`'s moves from `state` towards its `ERROR` (to states from which
    /// it can still reach it alone); none when it cannot reach it from `state`.
    pub(crate) fn towards_error(&self, i: usize, state: StateId) -> impl Iterator<Item = Key> + '_ {
        let doomed = &self.doomed[i];
        let live = doomed.get(state.index()).copied().unwrap_or(false);
        self.comps[i]
            .outgoing(state)
            .iter()
            .filter(move |e| live && doomed[e.target.index()])
            .map(move |e| self.key(i, e.action))
    }

    /// The key of component `i`'s local action `a`.
    pub(crate) fn key(&self, i: usize, a: ActionId) -> Key {
        match self.shared[i].get(a.index()).copied().flatten() {
            Some(g) => Key::Shared(g),
            None => Key::Own(i as u32, a),
        }
    }

    /// The components a key involves.
    pub(crate) fn involved(&self, key: Key) -> impl Iterator<Item = usize> + '_ {
        let (own, shared) = match key {
            Key::Own(i, _) => (Some(i as usize), &[][..]),
            Key::Shared(g) => (None, self.owners[g as usize].as_slice()),
        };
        own.into_iter()
            .chain(shared.iter().map(|&(i, _)| i as usize))
    }

    /// Component `i`'s local action for `key` (it must be involved).
    fn local(&self, key: Key, i: usize) -> Option<ActionId> {
        match key {
            Key::Own(j, a) => (j as usize == i).then_some(a),
            Key::Shared(g) => self.owners[g as usize]
                .iter()
                .find(|&&(j, _)| j as usize == i)
                .map(|&(_, a)| a),
        }
    }

    /// Whether component `i` at `state` can take part in `key`.
    pub(crate) fn locally_enabled(&self, key: Key, i: usize, state: StateId) -> bool {
        self.local(key, i)
            .is_some_and(|a| !self.comps[i].outgoing_on(state, a).is_empty())
    }

    /// The components of `key` with their local action: one for a component's own move, every
    /// owner for a shared action.
    fn parts(&self, key: Key) -> Parts<'_> {
        match key {
            Key::Own(i, a) => Parts::Own([(i, a)]),
            Key::Shared(g) => Parts::Shared(&self.owners[g as usize]),
        }
    }

    /// Whether `key` is enabled in `tuple`: every component it involves can take part.
    pub(crate) fn enabled(&self, key: Key, tuple: &[StateId]) -> bool {
        self.parts(key).as_slice().iter().all(|&(i, a)| {
            let i = i as usize;
            !self.comps[i].outgoing_on(tuple[i], a).is_empty()
        })
    }

    /// The keys of component `i`'s moves from `state`.
    pub(crate) fn offers(&self, i: usize, state: StateId) -> impl Iterator<Item = Key> + '_ {
        self.comps[i]
            .outgoing(state)
            .iter()
            .map(move |e| self.key(i, e.action))
    }

    /// Calls `f(target)` for every transition of `key` from `tuple` (enabled there); `target`
    /// is a buffer the caller keeps between calls.
    pub(crate) fn fire(
        &self,
        key: Key,
        tuple: &[StateId],
        target: &mut Vec<StateId>,
        mut f: impl FnMut(&[StateId]),
    ) {
        target.clear();
        target.extend_from_slice(tuple);
        self.fire_from(self.parts(key).as_slice(), target, &mut f);
    }

    /// Every combination of the local moves of `parts` (components with their local action).
    fn fire_from(
        &self,
        parts: &[(u32, ActionId)],
        target: &mut [StateId],
        f: &mut impl FnMut(&[StateId]),
    ) {
        let Some((&(i, a), rest)) = parts.split_first() else {
            f(target);
            return;
        };
        let i = i as usize;
        let from = target[i];
        for e in self.comps[i].outgoing_on(from, a) {
            target[i] = e.target;
            self.fire_from(rest, target, f);
        }
        target[i] = from;
    }

    /// The action name of a key (`None` for tau).
    pub(crate) fn name(&self, key: Key) -> Option<&str> {
        match key {
            Key::Own(i, a) if !a.is_tau() => Some(self.comps[i as usize].action_name(a)),
            Key::Own(..) => None,
            Key::Shared(g) => Some(&self.names[g as usize]),
        }
    }
}

/// Per state of `lts`: whether its error state is reachable from it (all false without one).
fn can_reach_error(lts: &Lts) -> Vec<bool> {
    let mut doomed = vec![false; lts.num_states()];
    let Some(error) = lts.error_state() else {
        return doomed;
    };
    let mut incoming: Vec<Vec<StateId>> = vec![Vec::new(); lts.num_states()];
    for t in lts.transitions() {
        incoming[t.target.index()].push(t.source);
    }
    doomed[error.index()] = true;
    let mut stack = vec![error];
    while let Some(s) = stack.pop() {
        for &p in &incoming[s.index()] {
            if !std::mem::replace(&mut doomed[p.index()], true) {
                stack.push(p);
            }
        }
    }
    doomed
}
