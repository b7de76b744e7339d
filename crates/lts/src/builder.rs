//! [`LtsBuilder`]: the one way to make an [`Lts`].
//!
//! Parsers, composition and every operation build through it. It accepts transitions in any order and
//! with duplicates, checks every state and action against what exists, and at [`LtsBuilder::build`]
//! sorts and deduplicates the transitions into the compact form of [`Lts`].

use bit_set::BitSet;

use crate::alphabet::Alphabet;
use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::{Edge, Lts, Transition};

/// Builds an [`Lts`] state by state and transition by transition.
///
/// The initial state defaults to state 0.
#[derive(Clone, Debug, Default)]
pub struct LtsBuilder {
    alphabet: Alphabet,
    num_states: usize,
    transitions: Vec<Transition>,
    initial: StateId,
    error: Option<StateId>,
    accepting: Option<BitSet>,
}

impl LtsBuilder {
    /// An empty builder with an alphabet holding only tau.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder whose alphabet starts as `alphabet` (ids are kept).
    pub fn with_alphabet(alphabet: Alphabet) -> Self {
        Self {
            alphabet,
            ..Self::default()
        }
    }

    /// The alphabet so far.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Interns an action name into the alphabet (declaring it even if no transition uses it).
    pub fn action(&mut self, name: &str) -> Result<ActionId, LtsError> {
        Ok(self.alphabet.intern(name)?)
    }

    /// The number of states added so far.
    pub fn num_states(&self) -> usize {
        self.num_states
    }

    /// The number of transitions added so far (duplicates included).
    pub fn num_transitions(&self) -> usize {
        self.transitions.len()
    }

    /// Adds a fresh state.
    pub fn add_state(&mut self) -> Result<StateId, LtsError> {
        let s = StateId::new(self.num_states)?;
        self.num_states += 1;
        Ok(s)
    }

    /// Makes sure states `0..count` exist.
    pub fn ensure_states(&mut self, count: usize) -> Result<(), LtsError> {
        if count > self.num_states {
            StateId::new(count - 1)?;
            self.num_states = count;
        }
        Ok(())
    }

    fn check_state(&self, s: StateId) -> Result<(), LtsError> {
        if s.index() < self.num_states {
            Ok(())
        } else {
            Err(LtsError::UnknownState {
                state: s.index(),
                num_states: self.num_states,
            })
        }
    }

    /// Adds the transition `source --action--> target`.
    pub fn add_transition(
        &mut self,
        source: StateId,
        action: ActionId,
        target: StateId,
    ) -> Result<(), LtsError> {
        self.check_state(source)?;
        self.check_state(target)?;
        if action.index() >= self.alphabet.id_bound() {
            return Err(LtsError::UnknownAction {
                action: action.index(),
                bound: self.alphabet.id_bound(),
            });
        }
        self.transitions.push(Transition {
            source,
            action,
            target,
        });
        Ok(())
    }

    /// Adds a transition by action name, interning the name.
    pub fn add_transition_named(
        &mut self,
        source: StateId,
        action: &str,
        target: StateId,
    ) -> Result<(), LtsError> {
        let a = self.action(action)?;
        self.add_transition(source, a, target)
    }

    /// Sets the initial state.
    pub fn set_initial(&mut self, s: StateId) -> Result<(), LtsError> {
        self.check_state(s)?;
        self.initial = s;
        Ok(())
    }

    /// Marks `s` as the error state (there is at most one; a second call replaces the first).
    pub fn set_error(&mut self, s: StateId) -> Result<(), LtsError> {
        self.check_state(s)?;
        self.error = Some(s);
        Ok(())
    }

    /// Marks `s` accepting or not. The first call turns the LTS into an FSM with an explicit accepting
    /// set, in which every state not marked accepting rejects.
    pub fn set_accepting(&mut self, s: StateId, accepting: bool) -> Result<(), LtsError> {
        self.check_state(s)?;
        let set = self.accepting.get_or_insert_with(BitSet::new);
        if accepting {
            set.insert(s.index());
        } else {
            set.remove(s.index());
        }
        Ok(())
    }

    /// Finishes the LTS: sorts and deduplicates transitions.
    pub fn build(mut self) -> Result<Lts, LtsError> {
        if self.num_states == 0 {
            return Err(LtsError::NoStates);
        }
        if self.transitions.len() >= u32::MAX as usize {
            return Err(LtsError::IdOverflow(crate::IdOverflow {
                kind: "transition",
                index: self.transitions.len(),
                limit: u32::MAX as usize,
            }));
        }
        self.transitions.sort_unstable();
        self.transitions.dedup();
        let mut offsets = vec![0u32; self.num_states + 1];
        for t in &self.transitions {
            offsets[t.source.index() + 1] += 1;
        }
        for i in 0..self.num_states {
            offsets[i + 1] += offsets[i];
        }
        let edges = self
            .transitions
            .iter()
            .map(|t| Edge {
                action: t.action,
                target: t.target,
            })
            .collect();
        Ok(Lts {
            alphabet: self.alphabet,
            initial: self.initial,
            offsets,
            edges,
            error: self.error,
            accepting: self.accepting,
        })
    }
}

impl Lts {
    /// A new [`LtsBuilder`].
    pub fn builder() -> LtsBuilder {
        LtsBuilder::new()
    }

    /// A builder pre-filled with a copy of this LTS (states, transitions, markers), for variations.
    pub fn to_builder(&self) -> LtsBuilder {
        LtsBuilder {
            alphabet: self.alphabet.clone(),
            num_states: self.num_states(),
            transitions: self.transitions().collect(),
            initial: self.initial,
            error: self.error,
            accepting: self.accepting.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_merged_and_edges_sorted() {
        let mut b = LtsBuilder::new();
        let s0 = b.add_state().unwrap();
        let s1 = b.add_state().unwrap();
        b.add_transition_named(s0, "b", s1).unwrap();
        b.add_transition_named(s0, "a", s1).unwrap();
        b.add_transition_named(s0, "b", s1).unwrap();
        let lts = b.build().unwrap();
        assert_eq!(lts.num_transitions(), 2);
        let names: Vec<_> = lts
            .outgoing(s0)
            .iter()
            .map(|e| lts.action_name(e.action))
            .collect();
        assert_eq!(names, ["b", "a"]); // sorted by id: b was interned first
    }

    #[test]
    fn unknown_state_is_an_error() {
        let mut b = LtsBuilder::new();
        let s0 = b.add_state().unwrap();
        let err = b
            .add_transition_named(s0, "a", StateId::must(5))
            .unwrap_err();
        assert!(matches!(
            err,
            LtsError::UnknownState {
                state: 5,
                num_states: 1
            }
        ));
    }

    #[test]
    fn empty_builder_fails() {
        assert_eq!(LtsBuilder::new().build().unwrap_err(), LtsError::NoStates);
    }
}
