//! The Mealy machine type: states with typed ids, named inputs ([`Symbol`]s, as the DFA learners
//! use) and named outputs ([`OutputId`]s), possibly partial transitions; completion, minimisation
//! and equivalence with a shortest distinguishing word.
//!
//! Names live in the machine (not beside it) because two machines are compared by names: a learned
//! machine numbers its outputs in the order it met them, a machine read from a file in the order
//! the file lists them, and the two must still be comparable.

use std::collections::VecDeque;
use std::fmt;

use rustc_hash::FxHashMap;

use crate::dfa::{Symbol, Word};
use crate::mealy::MealyError;

/// A state of a [`Mealy`] machine: an index in `0..num_states`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct StateId(u32);

impl StateId {
    /// The state with index `index`.
    ///
    /// # Panics
    /// Panics if `index` does not fit in 32 bits.
    #[track_caller]
    pub fn new(index: usize) -> Self {
        Self(u32::try_from(index).expect("state index fits in 32 bits"))
    }

    /// The index, for indexing slices.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// An output of a [`Mealy`] machine: an index into its output names.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct OutputId(u32);

impl OutputId {
    /// The output with index `index`.
    ///
    /// # Panics
    /// Panics if `index` does not fit in 32 bits.
    #[track_caller]
    pub fn new(index: usize) -> Self {
        Self(u32::try_from(index).expect("output index fits in 32 bits"))
    }

    /// The index, for indexing slices.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for OutputId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "o{}", self.0)
    }
}

/// Names interned to dense indices, in the order they were first seen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Names {
    names: Vec<String>,
    ids: FxHashMap<String, u32>,
}

impl Names {
    /// The index of `name`, added if new.
    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.ids.get(name) {
            return i;
        }
        let i = u32::try_from(self.names.len()).expect("fewer than 2^32 names");
        self.names.push(name.to_owned());
        self.ids.insert(name.to_owned(), i);
        i
    }

    pub(crate) fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    pub(crate) fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    pub(crate) fn as_slice(&self) -> &[String] {
        &self.names
    }
}

/// A deterministic Mealy machine: on each input a state moves to a successor and emits an output.
/// Transitions may be missing (a partial machine, e.g. one read from a file); [`Mealy::completed`]
/// fills them. State ids are dense, the initial state is [`Mealy::initial`].
///
/// ```
/// use guarantor_lstar::mealy::Mealy;
/// // A coffee machine: a coin makes it beep, the button then gives coffee.
/// let mut m = Mealy::new(["coin", "button"]);
/// let (idle, paid) = (m.initial(), m.add_state());
/// let (coin, button) = (m.input("coin").unwrap(), m.input("button").unwrap());
/// m.set_transition(idle, coin, paid, "beep");
/// m.set_transition(idle, button, idle, "init");
/// m.set_transition(paid, coin, paid, "beep");
/// m.set_transition(paid, button, idle, "coffee");
/// let out = m.outputs(&[coin, button]).unwrap();
/// assert_eq!(m.output_name(out[1]), "coffee");
/// assert_eq!(m.minimized().num_states(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mealy {
    inputs: Names,
    outputs: Names,
    initial: StateId,
    num_states: usize,
    /// `next[q * num_inputs + a]`: the successor and output of `q` on `a`, if defined.
    next: Vec<Option<(StateId, OutputId)>>,
}

impl Mealy {
    /// A machine with one state (initial) and no transitions over the given input names (a name
    /// given twice counts once).
    pub fn new<I, S>(inputs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut names = Names::default();
        for s in inputs {
            names.intern(s.as_ref());
        }
        let k = names.len();
        Self {
            inputs: names,
            outputs: Names::default(),
            initial: StateId(0),
            num_states: 1,
            next: vec![None; k],
        }
    }

    /// Adds a state without transitions.
    pub fn add_state(&mut self) -> StateId {
        let q = StateId::new(self.num_states);
        self.num_states += 1;
        self.next
            .extend(std::iter::repeat_n(None, self.num_inputs()));
        q
    }

    /// Makes `q` the initial state.
    ///
    /// # Panics
    /// Panics if `q` is not a state of this machine.
    pub fn set_initial(&mut self, q: StateId) {
        assert!(q.index() < self.num_states, "unknown state {q:?}");
        self.initial = q;
    }

    /// The id of output `name`, added if new.
    pub fn intern_output(&mut self, name: &str) -> OutputId {
        OutputId(self.outputs.intern(name))
    }

    /// Sets the transition of `from` on `input` (replacing any): to `to`, emitting `output`.
    ///
    /// # Panics
    /// Panics if a state or the input is not of this machine (ids come from this machine).
    pub fn set_transition(&mut self, from: StateId, input: Symbol, to: StateId, output: &str) {
        let o = self.intern_output(output);
        self.set_transition_id(from, input, to, o);
    }

    /// As [`Mealy::set_transition`], with an output id of this machine.
    ///
    /// # Panics
    /// Panics if a state, the input or the output is not of this machine.
    pub fn set_transition_id(&mut self, from: StateId, input: Symbol, to: StateId, o: OutputId) {
        assert!(to.index() < self.num_states && from.index() < self.num_states);
        assert!(input.index() < self.num_inputs() && o.index() < self.outputs.len());
        let k = self.num_inputs();
        self.next[from.index() * k + input.index()] = Some((to, o));
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.num_states
    }

    /// The number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.inputs.len()
    }

    /// The number of distinct outputs named so far.
    pub fn num_outputs(&self) -> usize {
        self.outputs.len()
    }

    /// The initial state.
    pub fn initial(&self) -> StateId {
        self.initial
    }

    /// Every state, in id order.
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..self.num_states).map(StateId::new)
    }

    /// Every input, in id order.
    pub fn inputs(&self) -> impl ExactSizeIterator<Item = Symbol> + use<> {
        Symbol::all(self.num_inputs())
    }

    /// The input named `name`.
    pub fn input(&self, name: &str) -> Option<Symbol> {
        self.inputs.get(name).map(|i| Symbol::new(i as usize))
    }

    /// The name of `input`.
    ///
    /// # Panics
    /// Panics if `input` is not an input of this machine.
    pub fn input_name(&self, input: Symbol) -> &str {
        self.inputs.name(input.index())
    }

    /// The input names, in id order.
    pub fn input_names(&self) -> &[String] {
        self.inputs.as_slice()
    }

    /// The output named `name`, if some transition or [`Mealy::intern_output`] named it.
    pub fn output(&self, name: &str) -> Option<OutputId> {
        self.outputs.get(name).map(OutputId)
    }

    /// The name of `output`.
    ///
    /// # Panics
    /// Panics if `output` is not an output of this machine.
    pub fn output_name(&self, output: OutputId) -> &str {
        self.outputs.name(output.index())
    }

    /// The output names, in id order.
    pub fn output_names(&self) -> &[String] {
        self.outputs.as_slice()
    }

    /// The successor and output of `q` on `input`, if defined.
    ///
    /// # Panics
    /// Panics if `q` or `input` is not of this machine.
    #[inline]
    pub fn transition(&self, q: StateId, input: Symbol) -> Option<(StateId, OutputId)> {
        assert!(input.index() < self.num_inputs(), "unknown input {input:?}");
        self.next[q.index() * self.num_inputs() + input.index()]
    }

    /// The transitions of every state, `k` per state in input order (see
    /// [`Mealy::transition`]): for loops that step many times and know their inputs are the
    /// machine's.
    pub(crate) fn table(&self) -> &[Option<(StateId, OutputId)>] {
        &self.next
    }

    /// The outputs of the machine on `word` from the initial state, or `None` if it runs into a
    /// missing transition.
    pub fn outputs(&self, word: &[Symbol]) -> Option<Vec<OutputId>> {
        let mut q = self.initial;
        let mut out = Vec::with_capacity(word.len());
        for &a in word {
            let (r, o) = self.transition(q, a)?;
            out.push(o);
            q = r;
        }
        Some(out)
    }

    /// The state reached by `word` from `q`, or `None` on a missing transition.
    pub fn run_from(&self, mut q: StateId, word: &[Symbol]) -> Option<StateId> {
        for &a in word {
            q = self.transition(q, a)?.0;
        }
        Some(q)
    }

    /// Whether every state has a transition on every input.
    pub fn is_complete(&self) -> bool {
        self.next.iter().all(Option::is_some)
    }

    /// This machine with every missing transition going to a new sink state that emits `output`
    /// on every input (the machine itself when it is complete).
    #[must_use]
    pub fn completed(&self, output: &str) -> Mealy {
        if self.is_complete() {
            return self.clone();
        }
        let mut m = self.clone();
        let sink = m.add_state();
        let o = m.intern_output(output);
        for slot in &mut m.next {
            slot.get_or_insert((sink, o));
        }
        m
    }

    /// The states reachable from the initial state, in breadth-first, input order.
    pub fn reachable(&self) -> Vec<StateId> {
        let mut order = vec![self.initial];
        let mut seen = vec![false; self.num_states];
        seen[self.initial.index()] = true;
        let mut i = 0;
        while let Some(&q) = order.get(i) {
            i += 1;
            for a in self.inputs() {
                if let Some((r, _)) = self.transition(q, a)
                    && !std::mem::replace(&mut seen[r.index()], true)
                {
                    order.push(r);
                }
            }
        }
        order
    }

    /// The minimal machine with the same behaviour: reachable states only, equivalent states
    /// merged (a missing transition counts as one more output), states numbered breadth-first
    /// from the initial one in input order (so equal behaviours give equal machines up to output
    /// numbering).
    #[must_use]
    pub fn minimized(&self) -> Mealy {
        let reach = self.reachable();
        let block = self.partition(&reach);
        // Renumber blocks breadth-first from the initial state.
        let mut number: FxHashMap<u32, StateId> = FxHashMap::default();
        let mut reps = Vec::new();
        let mut queue = VecDeque::from([self.initial]);
        number.insert(block[self.initial.index()], StateId(0));
        reps.push(self.initial);
        while let Some(q) = queue.pop_front() {
            for a in self.inputs() {
                if let Some((r, _)) = self.transition(q, a)
                    && let std::collections::hash_map::Entry::Vacant(e) =
                        number.entry(block[r.index()])
                {
                    e.insert(StateId::new(reps.len()));
                    reps.push(r);
                    queue.push_back(r);
                }
            }
        }
        let mut m = Mealy {
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            initial: StateId(0),
            num_states: reps.len(),
            next: Vec::with_capacity(reps.len() * self.num_inputs()),
        };
        for &q in &reps {
            for a in self.inputs() {
                let t = self
                    .transition(q, a)
                    .map(|(r, o)| (number[&block[r.index()]], o));
                m.next.push(t);
            }
        }
        m
    }

    /// Moore-style partition refinement over `states`: the block number of each state (indexed by
    /// state id; states outside `states` get `u32::MAX`).
    fn partition(&self, states: &[StateId]) -> Vec<u32> {
        let k = self.num_inputs();
        let mut block = vec![u32::MAX; self.num_states];
        for &q in states {
            block[q.index()] = 0;
        }
        let mut count = 1;
        loop {
            let mut ids: FxHashMap<Vec<u64>, u32> = FxHashMap::default();
            let mut next = vec![u32::MAX; self.num_states];
            for &q in states {
                let mut sig = Vec::with_capacity(2 * k + 1);
                sig.push(u64::from(block[q.index()]));
                for a in self.inputs() {
                    sig.push(match self.transition(q, a) {
                        Some((r, o)) => (u64::from(block[r.index()]) << 32) | u64::from(o.0),
                        None => u64::MAX,
                    });
                }
                let n = ids.len() as u32;
                next[q.index()] = *ids.entry(sig).or_insert(n);
            }
            block = next;
            if ids.len() == count {
                return block;
            }
            count = ids.len();
        }
    }

    /// A shortest word (breadth-first, input order) on which the two machines emit different
    /// outputs, comparing inputs and outputs by name; `None` if they are equivalent. A transition
    /// missing in one machine and present in the other is a difference.
    ///
    /// # Errors
    /// [`MealyError::AlphabetMismatch`] when the machines have different input names.
    #[allow(clippy::many_single_char_names)] // p, q, r, u: states; s, t: transitions
    pub fn shortest_difference(&self, other: &Mealy) -> Result<Option<Word>, MealyError> {
        let map = self.input_map(other)?;
        let mut parent: Parents = FxHashMap::default();
        let start = (self.initial, other.initial);
        parent.insert(start, None);
        let mut queue = VecDeque::from([start]);
        while let Some((p, q)) = queue.pop_front() {
            for a in self.inputs() {
                let (s, t) = (self.transition(p, a), other.transition(q, map[a.index()]));
                let next = match (s, t) {
                    (None, None) => continue,
                    (Some((r, o)), Some((u, v))) if self.output_name(o) == other.output_name(v) => {
                        (r, u)
                    }
                    _ => return Ok(Some(spell(&parent, (p, q), a))),
                };
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                    e.insert(Some(((p, q), a)));
                    queue.push_back(next);
                }
            }
        }
        Ok(None)
    }

    /// For each input of `self`, the input of `other` with the same name.
    fn input_map(&self, other: &Mealy) -> Result<Vec<Symbol>, MealyError> {
        let mismatch = || MealyError::AlphabetMismatch {
            left: self.input_names().to_vec(),
            right: other.input_names().to_vec(),
        };
        if self.num_inputs() != other.num_inputs() {
            return Err(mismatch());
        }
        self.input_names()
            .iter()
            .map(|n| other.input(n).ok_or_else(mismatch))
            .collect()
    }

    /// Whether the machines have the same behaviour (see [`Mealy::shortest_difference`]).
    ///
    /// # Errors
    /// [`MealyError::AlphabetMismatch`] when the machines have different input names.
    pub fn equivalent(&self, other: &Mealy) -> Result<bool, MealyError> {
        Ok(self.shortest_difference(other)?.is_none())
    }

    /// The word of input names for `word`.
    pub fn input_word(&self, word: &[Symbol]) -> Vec<String> {
        word.iter()
            .map(|&a| self.input_name(a).to_owned())
            .collect()
    }
}

/// Breadth-first parents of pairs of states: the pair and input each was first reached from.
type Parents = FxHashMap<(StateId, StateId), Option<((StateId, StateId), Symbol)>>;

/// The word leading to `at` in a breadth-first search's parent map, followed by `last`.
fn spell<K: Copy + Eq + std::hash::Hash>(
    parent: &FxHashMap<K, Option<(K, Symbol)>>,
    mut at: K,
    last: Symbol,
) -> Word {
    let mut w = vec![last];
    while let Some(&Some((p, a))) = parent.get(&at) {
        w.push(a);
        at = p;
    }
    w.reverse();
    w
}
