//! Replaying a run on one lane's LTS: where the lane is after each step, which edges the run
//! takes, and where it fails. The chart and the drawings both read this.
//!
//! LTSA's semantics: a lane moves on the steps whose action is in its alphabet and stays put on
//! the others; its own tau steps may happen at any time. A lane may be nondeterministic, so it is
//! replayed as a *set* of states (the states the lane may be in after the steps so far, closed
//! under its tau steps), and every edge between two such sets on the step's action counts as
//! taken. A property that does not offer an action of its alphabet is violated there (LTSA's
//! `ERROR`); a component that reaches its `ERROR` state fails there.
//!
//! ```
//! use guarantor_lts::Lts;
//! use guarantor_view::replay::{Fate, replay};
//! use guarantor_view::LaneKind;
//! let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
//! let r = replay(&order, LaneKind::Property, &["input", "send", "input"]);
//! assert_eq!(r.fate, Fate::Fails { step: 2 });
//! assert!(!r.moves[1]); // `send` is not in its alphabet
//! # Ok::<(), guarantor_lts::LtsError>(())
//! ```

use guarantor_lts::{ActionId, Lts, StateId};

use crate::LaneKind;

/// What became of a lane along a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fate {
    /// It followed every step.
    Follows,
    /// It fails at step `step` (from 0): a property that does not offer the action, or a
    /// component that reaches its `ERROR` state.
    Fails {
        /// The step.
        step: usize,
    },
    /// A component that cannot take step `step` although the action is in its alphabet (the run is
    /// not a run of this system).
    Blocks {
        /// The step.
        step: usize,
    },
}

/// One lane's replay of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replay {
    /// The states the lane may be in before the first step (index 0) and after each step it
    /// followed, each sorted.
    pub states: Vec<Vec<StateId>>,
    /// Per step, whether the action is in the lane's alphabet (the lane takes part).
    pub moves: Vec<bool>,
    /// Every edge the run takes, `(source, action, target)`, sorted and without repeats.
    pub edges: Vec<(StateId, ActionId, StateId)>,
    /// Whether it followed the run to the end.
    pub fate: Fate,
}

impl Replay {
    /// Whether the run visits `state` of this lane.
    pub fn visits(&self, state: StateId) -> bool {
        self.states
            .iter()
            .any(|set| set.binary_search(&state).is_ok())
    }

    /// Whether the run takes the edge.
    pub fn takes(&self, source: StateId, action: ActionId, target: StateId) -> bool {
        self.edges.binary_search(&(source, action, target)).is_ok()
    }
}

/// Replays `actions` on `lts`, a lane of kind `kind` (see the module docs).
pub fn replay<S: AsRef<str>>(lts: &Lts, kind: LaneKind, actions: &[S]) -> Replay {
    let mut edges = Vec::new();
    let mut current = closure(lts, vec![lts.initial()], &mut edges);
    let mut states = vec![current.clone()];
    let mut moves = Vec::with_capacity(actions.len());
    let mut fate = Fate::Follows;
    for (step, action) in actions.iter().enumerate() {
        let Some(a) = lts
            .alphabet()
            .get(action.as_ref())
            .filter(|a| *a != ActionId::TAU)
        else {
            moves.push(false);
            continue;
        };
        moves.push(true);
        if fate != Fate::Follows {
            continue;
        }
        let mut next = Vec::new();
        for &s in &current {
            for e in lts.outgoing_on(s, a) {
                edges.push((s, a, e.target));
                next.push(e.target);
            }
        }
        if next.is_empty() {
            fate = match kind {
                LaneKind::Property => Fate::Fails { step },
                _ => Fate::Blocks { step },
            };
            continue;
        }
        current = closure(lts, next, &mut edges);
        if current.iter().any(|&s| lts.is_error(s)) {
            fate = Fate::Fails { step };
        }
        states.push(current.clone());
    }
    edges.sort_unstable();
    edges.dedup();
    Replay {
        states,
        moves,
        edges,
        fate,
    }
}

/// `start` closed under tau steps, sorted; the tau edges inside it are added to `edges`.
fn closure(
    lts: &Lts,
    mut stack: Vec<StateId>,
    edges: &mut Vec<(StateId, ActionId, StateId)>,
) -> Vec<StateId> {
    let mut seen: Vec<StateId> = Vec::new();
    while let Some(s) = stack.pop() {
        if seen.contains(&s) {
            continue;
        }
        seen.push(s);
        for e in lts.outgoing_on(s, ActionId::TAU) {
            edges.push((s, ActionId::TAU, e.target));
            stack.push(e.target);
        }
    }
    seen.sort_unstable();
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive oracle: the states reachable by the actions, each step by every path, computed
    /// over all words of the lane's edges (no tau in these LTSs).
    fn naive_sets(edges: &[(usize, &str, usize)], word: &[&str]) -> Vec<Vec<usize>> {
        let mut sets = vec![vec![0]];
        let mut cur = vec![0usize];
        for a in word {
            let mut next: Vec<usize> = edges
                .iter()
                .filter(|(s, b, _)| cur.contains(s) && b == a)
                .map(|(_, _, t)| *t)
                .collect();
            next.sort_unstable();
            next.dedup();
            if next.is_empty() {
                break;
            }
            sets.push(next.clone());
            cur = next;
        }
        sets
    }

    proptest! {
        #[test]
        fn replay_matches_the_naive_subset_walk(
            raw in prop::collection::vec((0usize..5, 0usize..3, 0usize..5), 1..15),
            word in prop::collection::vec(0usize..3, 0..8),
        ) {
            let names = ["a", "b", "c"];
            let edges: Vec<(usize, &str, usize)> =
                raw.iter().map(|&(s, a, t)| (s, names[a], t)).collect();
            let lts = Lts::from_edges(edges.iter().copied()).unwrap();
            let word: Vec<&str> = word.iter().map(|&i| names[i]).collect();
            let r = replay(&lts, LaneKind::Component, &word);
            let got: Vec<Vec<usize>> = r
                .states
                .iter()
                .map(|set| set.iter().map(|s| s.index()).collect())
                .collect();
            // Actions outside the alphabet are skipped by the lane and by the oracle alike.
            let inside: Vec<&str> =
                word.iter().copied().filter(|a| lts.alphabet().contains(a)).collect();
            prop_assert_eq!(got, naive_sets(&edges, &inside));
        }
    }

    #[test]
    fn a_component_fails_at_its_error_state() {
        let lts =
            guarantor_lts::io::aut::parse_aut("des (0, 2, 2)\n(0, a, 1)\n(1, b, -1)\n").unwrap();
        let r = replay(&lts, LaneKind::Component, &["a", "b"]);
        assert_eq!(r.fate, Fate::Fails { step: 1 });
        assert!(r.visits(StateId::must(1)));
    }
}
