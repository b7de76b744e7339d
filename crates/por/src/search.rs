//! The reduced breadth-first search: from each tuple, only the enabled keys of a stubborn set
//! ([`crate::stubborn`]), until a deadlock (a tuple without moves that LTSA's end rule does not
//! call terminated) or the end.

use guarantor_compose::termination::Termination;
use guarantor_compose::{ComposeError, Config, Counterexample, Stats, Violation};
use guarantor_lts::{ComponentId, Lts, StateId};
use rustc_hash::FxHashMap;

use crate::network::{Key, Network};
use crate::stubborn::stubborn;

/// What the search found: a violation's counterexample (a deadlock, or a member's `ERROR`) or
/// none, and what it explored.
pub(crate) struct Found {
    pub(crate) violation: Option<Counterexample>,
    pub(crate) stats: Stats,
}

/// The visited tuples, numbered in order of discovery, with the step that first reached each.
struct Visited {
    index: FxHashMap<Box<[StateId]>, u32>,
    tuples: Vec<Box<[StateId]>>,
    /// Per tuple after the first: its parent and the key of the step.
    parent: Vec<Option<(u32, Key)>>,
}

impl Visited {
    /// Numbers `tuple` if it is new; returns whether it was.
    fn insert(&mut self, tuple: &[StateId], parent: Option<(u32, Key)>) -> bool {
        if self.index.contains_key(tuple) {
            return false;
        }
        let boxed: Box<[StateId]> = tuple.into();
        self.index.insert(boxed.clone(), self.tuples.len() as u32);
        self.tuples.push(boxed);
        self.parent.push(parent);
        true
    }

    /// The visible actions of the steps to tuple `n`.
    fn trace(&self, net: &Network<'_>, mut n: u32) -> Vec<String> {
        let mut names = Vec::new();
        while let Some((p, key)) = self.parent[n as usize] {
            if let Some(name) = net.name(key) {
                names.push(name.to_owned());
            }
            n = p;
        }
        names.reverse();
        names
    }
}

/// Searches `comps` (with their end states) for a member's `ERROR` and, with `deadlock`, for a
/// deadlock, under `config`'s budget.
pub(crate) fn search(
    comps: &[&Lts],
    ends: &[Option<StateId>],
    deadlock: bool,
    config: &Config,
) -> Result<Found, ComposeError> {
    let net = Network::new(comps);
    let end = Termination::ltsa(comps, ends, &[]);
    let mut budget = config.budget()?;
    let mut visited = Visited {
        index: FxHashMap::default(),
        tuples: Vec::new(),
        parent: Vec::new(),
    };
    let initial: Vec<StateId> = comps.iter().map(|c| c.initial()).collect();
    visited.insert(&initial, None);
    let mut transitions = 0;
    let mut expanded = 0usize;
    while expanded < visited.tuples.len() {
        budget.tick()?;
        let tuple = visited.tuples[expanded].clone();
        let keys = stubborn(&net, &tuple);
        if deadlock && keys.is_empty() && !end.is_terminal(&tuple) {
            let trace = visited.trace(&net, expanded as u32);
            return Ok(Found {
                violation: Some(Counterexample::new(trace, Violation::Deadlock)),
                stats: Stats::new(visited.tuples.len(), transitions),
            });
        }
        for key in keys {
            let mut fresh = false;
            let mut error = None;
            net.fire(key, &tuple, |target| {
                transitions += 1;
                if error.is_none() && visited.insert(target, Some((expanded as u32, key))) {
                    fresh = true;
                    error = net.error_component(target);
                }
            });
            if let Some(i) = error {
                // As the monolithic search: an error tuple ends the search when it is found, and
                // is not counted as a state.
                let last = visited.tuples.len() as u32 - 1;
                let violation = Violation::ErrorState {
                    component: ComponentId::must(i),
                };
                return Ok(Found {
                    violation: Some(Counterexample::new(visited.trace(&net, last), violation)),
                    stats: Stats::new(visited.tuples.len() - 1, transitions),
                });
            }
            if fresh {
                budget.check_states(visited.tuples.len())?;
            }
        }
        expanded += 1;
    }
    Ok(Found {
        violation: None,
        stats: Stats::new(visited.tuples.len(), transitions),
    })
}
