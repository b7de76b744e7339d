//! When a product state without moves is successful termination rather than a deadlock: LTSA's
//! rule, in one place for every search (safety and deadlock, progress, the distributed engine)
//! and for the composed LTS ([`merge_terminal_states`]).
//!
//! A component may have an end state (FSP's `END`). LTSA's analyser calls a stuck product state
//! an end state when
//! 1. the system *can terminate*: every action of the machines without an end state (and of the
//!    properties) is also an action of some machine with one, so the machines that never end
//!    cannot move on their own once the others have ended; and
//! 2. every machine with an end state is at it (the others may be anywhere).
//!
//! So `A = (a -> END). B = (a -> B).` ends after `a` (B's only action is A's), and
//! `A = (a -> END). B = (a -> B | b -> B).` deadlocks there. A machine whose end state is its
//! initial state (`P = END.`) counts, as in LTSA, among the machines without one for rule 1, and
//! must be at it for rule 2. LTSA's composition also merges all its end states into one state,
//! which [`merge_terminal_states`] does for a composed LTS.

use guarantor_lts::{Lts, StateId};

use crate::compose::Composition;
use crate::error::ComposeError;

/// LTSA's end-state rule for one system (module docs).
#[derive(Clone, Debug, Default)]
pub struct Termination {
    /// Per component, its end state; empty when the system cannot terminate.
    ends: Vec<Option<StateId>>,
}

impl Termination {
    /// The rule for `components` with these end states (`ends[i]` for `components[i]`; missing
    /// entries mean none) and these other machines (the properties, which never end).
    ///
    /// ```
    /// use guarantor_compose::termination::Termination;
    /// use guarantor_lts::{LtsBuilder, StateId};
    /// let mut a = LtsBuilder::new();
    /// let [s0, s1] = [a.add_state()?, a.add_state()?];
    /// a.add_transition_named(s0, "a", s1)?; // A = (a -> END): s1 is its end.
    /// let a = a.build()?;
    /// let mut b = LtsBuilder::new();
    /// let t0 = b.add_state()?;
    /// b.add_transition_named(t0, "a", t0)?; // B = (a -> B): only A's action.
    /// let b = b.build()?;
    /// let rule = Termination::ltsa(&[&a, &b], &[Some(s1), None], &[]);
    /// assert!(rule.is_terminal(&[s1, t0]));
    /// assert!(!rule.is_terminal(&[s0, t0]));
    /// # Ok::<(), guarantor_lts::LtsError>(())
    /// ```
    pub fn ltsa(components: &[&Lts], ends: &[Option<StateId>], others: &[&Lts]) -> Self {
        let end_of = |i: usize| ends.get(i).copied().flatten();
        // LTSA counts a machine as terminating when its end state is not its initial state.
        let terminating = |i: usize, c: &Lts| end_of(i).is_some_and(|e| e != c.initial());
        if !components
            .iter()
            .enumerate()
            .any(|(i, c)| terminating(i, c))
        {
            return Self::default();
        }
        let mut ending: Vec<&str> = Vec::new();
        for (i, c) in components.iter().enumerate() {
            if terminating(i, c) {
                ending.extend(c.alphabet().visible().map(|a| c.alphabet().name(a)));
            }
        }
        ending.sort_unstable();
        ending.dedup();
        let covered = |c: &Lts| {
            c.alphabet()
                .visible()
                .all(|a| ending.binary_search(&c.alphabet().name(a)).is_ok())
        };
        let can_terminate = components
            .iter()
            .enumerate()
            .filter(|&(i, c)| !terminating(i, c))
            .map(|(_, c)| *c)
            .chain(others.iter().copied())
            .all(covered);
        if !can_terminate {
            return Self::default();
        }
        Self {
            ends: (0..components.len()).map(end_of).collect(),
        }
    }

    /// Whether the system can terminate at all (rule 1 of the module docs).
    pub fn can_terminate(&self) -> bool {
        !self.ends.is_empty()
    }

    /// Whether a product state whose first components are at `tuple` is an end state, given that
    /// it has no move (rule 2); entries past the components (properties) are ignored.
    pub fn is_terminal(&self, tuple: &[StateId]) -> bool {
        self.can_terminate()
            && self
                .ends
                .iter()
                .zip(tuple)
                .all(|(end, s)| end.is_none_or(|e| e == *s))
    }
}

/// `composition`'s LTS with its end states (states without moves that `rule` calls terminal)
/// merged into the first of them, as LTSA's composition counts them; other states keep their
/// order. Returns the LTS and the merged end state, if any.
///
/// # Errors
/// None in practice: the result is no larger than the composition.
pub fn merge_terminal_states(
    composition: &Composition,
    rule: &Termination,
) -> Result<(Lts, Option<StateId>), ComposeError> {
    let lts = composition.lts();
    let terminal = |s: StateId| {
        lts.outgoing(s).is_empty() && composition.tuple(s).is_some_and(|t| rule.is_terminal(t))
    };
    // One class per state, the end states sharing the first one's: a partition numbered in
    // state order, so the quotient keeps every other state's place.
    let mut classes: Vec<u32> = Vec::with_capacity(lts.num_states());
    let mut end: Option<u32> = None;
    let mut next = 0u32;
    for s in lts.states() {
        if terminal(s)
            && let Some(e) = end
        {
            classes.push(e);
            continue;
        }
        if terminal(s) {
            end = Some(next);
        }
        classes.push(next);
        next += 1;
    }
    let end = end.map(StateId::from_u32);
    if next as usize == lts.num_states() {
        return Ok((lts.clone(), end));
    }
    Ok((guarantor_lts::ops::quotient(lts, &classes)?, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lts(n: usize, edges: &[(usize, &str, usize)]) -> Lts {
        let mut b = guarantor_lts::LtsBuilder::new();
        b.ensure_states(n).unwrap();
        for &(s, a, t) in edges {
            b.add_transition_named(StateId::must(s), a, StateId::must(t))
                .unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn a_machine_with_its_own_action_keeps_the_system_from_ending() {
        let a = lts(2, &[(0, "a", 1)]);
        let b = lts(1, &[(0, "a", 0), (0, "b", 0)]);
        let end = Some(StateId::must(1));
        let rule = Termination::ltsa(&[&a, &b], &[end, None], &[]);
        assert!(!rule.can_terminate());
        let rule = Termination::ltsa(&[&a], &[end], &[&b]);
        assert!(!rule.can_terminate(), "a property's action counts too");
    }

    #[test]
    fn without_an_end_nothing_terminates() {
        let a = lts(2, &[(0, "a", 1)]);
        assert!(!Termination::ltsa(&[&a], &[None], &[]).can_terminate());
        assert!(!Termination::default().is_terminal(&[StateId::must(1)]));
        // `P = END.`: its end is its initial state, so it does not make the system end alone.
        let stop = lts(1, &[]);
        let rule = Termination::ltsa(&[&stop], &[Some(StateId::must(0))], &[]);
        assert!(!rule.can_terminate());
    }

    #[test]
    fn every_machine_with_an_end_must_be_at_it() {
        let a = lts(2, &[(0, "a", 1)]);
        let c = lts(3, &[(0, "a", 1), (1, "a", 2)]);
        let ends = [Some(StateId::must(1)), Some(StateId::must(2))];
        let rule = Termination::ltsa(&[&a, &c], &ends, &[]);
        assert!(rule.is_terminal(&[StateId::must(1), StateId::must(2)]));
        assert!(!rule.is_terminal(&[StateId::must(1), StateId::must(1)]));
    }
}
