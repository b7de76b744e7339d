//! Minimisation that keeps deadlocks: branching bisimulation made sensitive to divergence and to
//! successful termination.
//!
//! Each part is minimised by strong bisimulation, then by branching bisimulation
//! (`guarantor_lts::ops::minimize_branching`), which is finer than weak bisimulation and so keeps
//! everything weak bisimulation keeps, without the saturation that made weak bisimulation the
//! cost of every step (86 % of a progress check of MER N = 6, and 23 GB on bakery's groups before
//! it was bounded). Plain branching bisimulation keeps the error state and weak traces, which is
//! all the safety question needs. It does not keep deadlocks: a state that loops on tau for ever
//! is branching bisimilar to a state without moves, and the minimised LTS drops the loop. Nor does it know which stuck states are successful termination (FSP's `END`).
//! Both are made visible before minimising, as LTSA's minimiser does for `END`: a marker
//! self-loop on every divergent state (one on a tau cycle) and on every state flagged as ended.
//! Saturation then carries each marker to the states that reach it silently, so two states are
//! merged only if both or neither can diverge and both or neither can silently end. After the
//! quotient the markers are taken off again: a class with the divergence marker gets a tau
//! self-loop back (so it is never taken for a deadlock), a class with the end marker is flagged.
//!
//! The result answers "is a deadlock (a stuck state not flagged as ended) or the error state
//! reachable, in any context that synchronises on the visible actions" as the input does; the
//! equivalence is a congruence for parallel composition and hiding, which is what lets
//! [`crate::Reduce`] minimise every group before composing it further.

use guarantor_lts::ops::{
    bfs_order, minimize_branching_mapped, minimize_strong_mapped, strongly_connected,
};
use guarantor_lts::{ActionId, Lts, LtsBuilder, LtsError, StateId};

/// The marker of divergent states: not a name any model can give an action.
const DIVERGES: &str = "\u{0}diverges";
/// The marker of states flagged as ended.
const ENDED: &str = "\u{0}ended";

/// An LTS with a flag per state: has every part with an end state reached it (see
/// [`guarantor_compose::termination`]).
#[derive(Clone, Debug)]
pub struct Flagged {
    /// The LTS.
    pub lts: Lts,
    /// `ended[s]` for every state `s` of [`Self::lts`].
    pub ended: Vec<bool>,
}

/// The equivalence a part is minimised modulo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Equivalence {
    /// Strong bisimulation only: the smallest reduction (tau moves are kept as moves).
    Strong,
    /// Strong, then branching bisimulation (the default): tau moves inside a class go.
    #[default]
    Branching,
}

/// `input` minimised modulo branching bisimulation; with `keep_deadlocks`, made sensitive to
/// divergence and to the `ended` flags first (module docs), so that reachable deadlocks and
/// end states are kept. Strong bisimulation runs first (cheap, and it shrinks what the
/// branching refinement walks). The result is trimmed to its reachable part.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_reduce::minimise::{Flagged, minimise};
/// // 0 -tau-> 1 -tau-> 1 (a livelock) and 0 -tau-> 2 (stuck): weakly, 1 and 2 are alike, but a
/// // deadlock is reachable only through 2; the divergence marker keeps them apart.
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "tau", s1)?;
/// b.add_transition_named(s1, "tau", s1)?;
/// b.add_transition_named(s0, "tau", s2)?;
/// let input = Flagged { lts: b.build()?, ended: vec![false; 3] };
/// let min = minimise(&input, true)?;
/// assert_eq!(min.lts.num_states(), 3);
/// assert!(min.lts.states().any(|s| min.lts.outgoing(s).is_empty()));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Errors
/// An [`LtsError`] only if the alphabet with two marker actions would pass 32-bit ids.
pub fn minimise(input: &Flagged, keep_deadlocks: bool) -> Result<Flagged, LtsError> {
    minimise_modulo(input, keep_deadlocks, Equivalence::Branching)
}

/// [`minimise`] modulo another [`Equivalence`].
///
/// # Errors
/// As [`minimise`].
pub fn minimise_modulo(
    input: &Flagged,
    keep_deadlocks: bool,
    equivalence: Equivalence,
) -> Result<Flagged, LtsError> {
    Ok(minimise_mapped(input, keep_deadlocks, equivalence)?.0)
}

/// [`minimise_modulo`], with the state of the result each state of `input` became (`None` for
/// states unreachable from the initial state): what a certificate of the step records.
///
/// # Errors
/// As [`minimise`].
pub fn minimise_mapped(
    input: &Flagged,
    keep_deadlocks: bool,
    equivalence: Equivalence,
) -> Result<(Flagged, Vec<Option<u32>>), LtsError> {
    let marked = if keep_deadlocks {
        with_markers(input)?
    } else {
        input.lts.clone()
    };
    // Each stage renumbers: follow every state through them.
    let (strong, first) = minimize_strong_mapped(&marked);
    let (min, map) = match equivalence {
        Equivalence::Strong => (strong, first),
        Equivalence::Branching => {
            let (branching, second) = minimize_branching_mapped(&strong);
            let composed = first
                .iter()
                .map(|s| s.and_then(|s| second[s.index()]))
                .collect();
            (branching, composed)
        }
    };
    let result = if keep_deadlocks {
        without_markers(&min)?
    } else {
        let ended = vec![false; min.num_states()];
        Flagged { lts: min, ended }
    };
    let map = map.into_iter().map(|s| s.map(StateId::as_u32)).collect();
    Ok((result, map))
}

/// `input.lts` with the two marker self-loops added.
fn with_markers(input: &Flagged) -> Result<Lts, LtsError> {
    let lts = &input.lts;
    let divergent = on_tau_cycles(lts);
    let mut b = lts.to_builder();
    let diverges = b.action(DIVERGES)?;
    let ended = b.action(ENDED)?;
    for s in lts.states() {
        if divergent[s.index()] {
            b.add_transition(s, diverges, s)?;
        }
        if input.ended.get(s.index()).copied().unwrap_or(false) {
            b.add_transition(s, ended, s)?;
        }
    }
    b.build()
}

/// `divergent[s]`: `s` lies on a cycle of tau moves (a tau self-loop included).
fn on_tau_cycles(lts: &Lts) -> Vec<bool> {
    let sccs = strongly_connected(lts, |e| e.action.is_tau());
    lts.states().map(|s| sccs.on_cycle(s)).collect()
}

/// The minimised, marked LTS back without its markers (module docs).
fn without_markers(min: &Lts) -> Result<Flagged, LtsError> {
    let diverges = min.alphabet().get(DIVERGES);
    let ended_marker = min.alphabet().get(ENDED);
    let is_marker = |a: ActionId| Some(a) == diverges || Some(a) == ended_marker;
    let mut b = LtsBuilder::new();
    for (a, name) in min.alphabet().iter() {
        if !a.is_tau() && !is_marker(a) {
            b.action(name)?;
        }
    }
    b.ensure_states(min.num_states())?;
    let mut ended = vec![false; min.num_states()];
    for t in min.transitions() {
        if Some(t.action) == diverges {
            b.add_transition(t.source, ActionId::TAU, t.source)?;
        } else if Some(t.action) == ended_marker {
            ended[t.source.index()] = true;
        } else if t.action.is_tau() {
            b.add_transition(t.source, ActionId::TAU, t.target)?;
        } else {
            b.add_transition_named(t.source, min.alphabet().name(t.action), t.target)?;
        }
    }
    b.set_initial(min.initial())?;
    if let Some(e) = min.error_state() {
        b.set_error(e)?;
    }
    let lts = b.build()?;
    Ok(Flagged { lts, ended })
}

/// Whether some state of `part` reachable from its initial state is a deadlock: no move, not the
/// error state, not flagged as ended. (Minimised LTSs are trimmed, so every state is reachable;
/// this still walks from the initial state to be right for any input.)
pub fn has_deadlock(part: &Flagged) -> bool {
    reachable(&part.lts).into_iter().any(|s| {
        part.lts.outgoing(s).is_empty()
            && !part.lts.is_error(s)
            && !part.ended.get(s.index()).copied().unwrap_or(false)
    })
}

/// Whether the error state of `lts` is reachable from its initial state.
pub fn reaches_error(lts: &Lts) -> bool {
    lts.error_state()
        .is_some_and(|e| reachable(lts).contains(&e))
}

/// The states reachable from the initial state.
fn reachable(lts: &Lts) -> Vec<StateId> {
    bfs_order(lts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lts(n: usize, edges: &[(usize, &str, usize)]) -> Lts {
        let mut b = LtsBuilder::new();
        b.ensure_states(n).unwrap();
        for &(s, a, t) in edges {
            b.add_transition_named(StateId::must(s), a, StateId::must(t))
                .unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn an_ended_state_is_kept_apart_from_a_deadlock() {
        // 0 -a-> 1 (ended), 0 -b-> 2 (stuck, not ended).
        let input = Flagged {
            lts: lts(3, &[(0, "a", 1), (0, "b", 2)]),
            ended: vec![false, true, false],
        };
        let min = minimise(&input, true).unwrap();
        assert_eq!(min.lts.num_states(), 3);
        assert!(has_deadlock(&min));
        let plain = minimise(&input, false).unwrap();
        assert_eq!(plain.lts.num_states(), 2);
    }

    #[test]
    fn a_livelock_is_not_a_deadlock() {
        let input = Flagged {
            lts: lts(2, &[(0, "a", 1), (1, "tau", 1)]),
            ended: vec![false; 2],
        };
        let min = minimise(&input, true).unwrap();
        assert!(!has_deadlock(&min));
        assert!(min.lts.alphabet().get(DIVERGES).is_none());
        // Without the markers the loop is dropped and the livelock looks stuck.
        assert!(has_deadlock(&minimise(&input, false).unwrap()));
    }
}
