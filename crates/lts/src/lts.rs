//! The [`Lts`] type: a compact, immutable labelled transition system.
//!
//! Transitions are stored CSR-style: one offset per state into one array of [`Edge`]s, sorted by
//! (action, target) within each source state. That makes "all successors of s" a slice, "successors of
//! s on a" a binary search, and the whole LTS about eight bytes per transition plus four per state.
//! LTSs are built with [`LtsBuilder`](crate::LtsBuilder) and never mutated afterwards; operations return
//! new LTSs.
//!
//! Besides states and transitions an LTS carries:
//! - an [`Alphabet`] — the declared actions, which may include actions offered nowhere;
//! - an optional *error state* (LTSA's `ERROR`, the pi of an error LTS): reaching it is a violation;
//! - an optional set of *accepting states*, for finite-state machines (complements of assumptions in
//!   the symmetric assume-guarantee rule). `None` means every state accepts, the usual LTS reading.

use bit_set::BitSet;

use crate::alphabet::Alphabet;
use crate::id::{ActionId, StateId};

/// One outgoing transition: its action and target state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Edge {
    /// The action.
    pub action: ActionId,
    /// The target state.
    pub target: StateId,
}

/// One transition with its source: `(source, action, target)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transition {
    /// The source state.
    pub source: StateId,
    /// The action.
    pub action: ActionId,
    /// The target state.
    pub target: StateId,
}

/// A labelled transition system with an initial state, a declared alphabet, an optional error state
/// and optional accepting states.
///
/// ```
/// use guarantor_lts::{Lts, LtsBuilder};
/// // Input = (input -> send -> ack -> Input)
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "input", s1)?;
/// b.add_transition_named(s1, "send", s2)?;
/// b.add_transition_named(s2, "ack", s0)?;
/// let input: Lts = b.build()?;
/// assert_eq!(input.num_states(), 3);
/// assert_eq!(input.num_transitions(), 3);
/// assert!(input.is_deterministic());
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lts {
    pub(crate) alphabet: Alphabet,
    pub(crate) initial: StateId,
    /// `offsets[s]..offsets[s + 1]` indexes the edges of state `s`; length `num_states + 1`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) error: Option<StateId>,
    pub(crate) accepting: Option<BitSet>,
}

impl Lts {
    /// An LTS from `(source, action, target)` triples, as petgraph's `from_edges`: the states are
    /// `0..=m` for the largest state `m` named, state 0 is initial, and the alphabet holds the
    /// actions named, in order of first appearance (`"tau"` is the internal action). For `ERROR`
    /// states, declared actions without transitions or another initial state, use [`LtsBuilder`](crate::LtsBuilder).
    ///
    /// ```
    /// use guarantor_lts::Lts;
    /// let switch = Lts::from_edges([(0, "on", 1), (1, "off", 0)])?;
    /// assert_eq!((switch.num_states(), switch.num_transitions()), (2, 2));
    /// assert!(switch.alphabet().contains("off"));
    /// # Ok::<(), guarantor_lts::LtsError>(())
    /// ```
    ///
    /// # Errors
    /// [`LtsError::NoStates`](crate::LtsError::NoStates) for no edges, and the builder's errors (a
    /// state or action index past the 32-bit limit).
    pub fn from_edges<A: AsRef<str>>(
        edges: impl IntoIterator<Item = (usize, A, usize)>,
    ) -> Result<Lts, crate::LtsError> {
        let mut builder = crate::LtsBuilder::new();
        for (source, action, target) in edges {
            builder.ensure_states(source.max(target) + 1)?;
            builder.add_transition_named(
                StateId::new(source)?,
                action.as_ref(),
                StateId::new(target)?,
            )?;
        }
        builder.build()
    }

    /// The number of states.
    #[inline]
    pub fn num_states(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of transitions.
    #[inline]
    pub fn num_transitions(&self) -> usize {
        self.edges.len()
    }

    /// The initial state.
    #[inline]
    pub fn initial(&self) -> StateId {
        self.initial
    }

    /// The declared alphabet (its names; tau is id 0).
    #[inline]
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The name of an action of this LTS.
    ///
    /// # Panics
    /// Panics if `a` is not an action of this LTS's alphabet.
    #[inline]
    pub fn action_name(&self, a: ActionId) -> &str {
        self.alphabet.name(a)
    }

    /// All states, in order.
    pub fn states(&self) -> impl DoubleEndedIterator<Item = StateId> + ExactSizeIterator + Clone {
        StateId::range(self.num_states())
    }

    /// Whether `s` is a state of this LTS.
    #[inline]
    pub fn contains_state(&self, s: StateId) -> bool {
        s.index() < self.num_states()
    }

    /// The outgoing transitions of `s`, sorted by (action, target).
    ///
    /// # Panics
    /// Panics if `s` is not a state of this LTS.
    #[inline]
    pub fn outgoing(&self, s: StateId) -> &[Edge] {
        let i = s.index();
        &self.edges[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The transitions of `s` on action `a` (a sub-slice of [`Self::outgoing`]).
    ///
    /// # Panics
    /// Panics if `s` is not a state of this LTS.
    #[inline]
    pub fn outgoing_on(&self, s: StateId, a: ActionId) -> &[Edge] {
        let out = self.outgoing(s);
        let lo = out.partition_point(|e| e.action < a);
        let hi = lo + out[lo..].partition_point(|e| e.action == a);
        &out[lo..hi]
    }

    /// The targets of `s` on action `a`.
    pub fn successors(
        &self,
        s: StateId,
        a: ActionId,
    ) -> impl ExactSizeIterator<Item = StateId> + '_ {
        self.outgoing_on(s, a).iter().map(|e| e.target)
    }

    /// Every transition, by source state.
    pub fn transitions(&self) -> impl Iterator<Item = Transition> + '_ {
        self.states().flat_map(move |source| {
            self.outgoing(source).iter().map(move |e| Transition {
                source,
                action: e.action,
                target: e.target,
            })
        })
    }

    /// The error state (LTSA's `ERROR`, pi of an error LTS), if this LTS has one.
    #[inline]
    pub fn error_state(&self) -> Option<StateId> {
        self.error
    }

    /// Whether `s` is the error state.
    #[inline]
    pub fn is_error(&self, s: StateId) -> bool {
        self.error == Some(s)
    }

    /// Whether `s` is accepting. Without an accepting set every state accepts.
    #[inline]
    pub fn is_accepting(&self, s: StateId) -> bool {
        self.accepting
            .as_ref()
            .is_none_or(|acc| acc.contains(s.index()))
    }

    /// The accepting states, if this LTS is a finite-state machine with an explicit accepting set.
    #[inline]
    pub fn accepting_set(&self) -> Option<&BitSet> {
        self.accepting.as_ref()
    }

    /// Whether some transition is labelled tau.
    pub fn has_tau(&self) -> bool {
        self.edges.iter().any(|e| e.action.is_tau())
    }

    /// Whether there is no tau transition and at most one transition per (state, action).
    pub fn is_deterministic(&self) -> bool {
        self.first_nondeterminism().is_none()
    }

    /// A state and action witnessing nondeterminism (tau counts), if there is one.
    pub fn first_nondeterminism(&self) -> Option<(StateId, ActionId)> {
        self.states().find_map(|s| {
            let out = self.outgoing(s);
            out.iter()
                .enumerate()
                .find(|&(i, e)| e.action.is_tau() || (i > 0 && out[i - 1].action == e.action))
                .map(|(_, e)| (s, e.action))
        })
    }

    /// The actions offered by `s` (each once, in id order).
    pub fn enabled(&self, s: StateId) -> impl Iterator<Item = ActionId> + '_ {
        let out = self.outgoing(s);
        out.iter()
            .enumerate()
            .filter(move |&(i, e)| i == 0 || out[i - 1].action != e.action)
            .map(|(_, e)| e.action)
    }

    /// Bytes of heap memory held by the transition structure (for benchmarks and budgets).
    pub fn heap_bytes(&self) -> usize {
        self.offsets.capacity() * std::mem::size_of::<u32>()
            + self.edges.capacity() * std::mem::size_of::<Edge>()
    }
}
