//! The reduced breadth-first search: from each tuple, only the enabled keys of a stubborn set
//! ([`crate::stubborn`]), until a deadlock (a tuple without moves that LTSA's end rule does not
//! call terminated) or the end.

use guarantor_compose::termination::Termination;
use guarantor_compose::{ComposeError, Config, Counterexample, Stats, TupleSet, Violation};
use guarantor_lts::{ComponentId, Lts, StateId};

use crate::network::{Key, Network};
use crate::stubborn::Stubborn;

/// What the search found: a violation's counterexample (a deadlock, or a member's `ERROR`) or
/// none, and what it explored.
pub(crate) struct Found {
    pub(crate) violation: Option<Counterexample>,
    pub(crate) stats: Stats,
}

/// The visited tuples, numbered in order of discovery, with the step that first reached each:
/// a [`TupleSet`] of packed keys (the store `--storage` chooses), the keys again in discovery
/// order as the queue, and the parents.
struct Visited {
    set: TupleSet,
    /// The keys, [`TupleSet::key_words`] words each, in discovery order.
    keys: Vec<u64>,
    words: usize,
    /// Per tuple after the first: its parent and the key of the step.
    parent: Vec<Option<(u32, Key)>>,
    /// The key being looked up.
    packed: Vec<u64>,
}

impl Visited {
    fn new(comps: &[&Lts], config: &Config) -> Self {
        let set = TupleSet::with_storage(comps, config.storage);
        let words = set.key_words();
        Self {
            set,
            keys: Vec::new(),
            words,
            parent: Vec::new(),
            packed: vec![0; words],
        }
    }

    /// How many tuples are numbered.
    fn len(&self) -> usize {
        self.parent.len()
    }

    /// Numbers `tuple` if it is new; returns whether it was.
    fn insert(
        &mut self,
        tuple: &[StateId],
        parent: Option<(u32, Key)>,
    ) -> Result<bool, ComposeError> {
        self.set.pack(tuple, &mut self.packed);
        if !self.set.insert(&self.packed)? {
            return Ok(false);
        }
        self.keys.extend_from_slice(&self.packed);
        self.parent.push(parent);
        Ok(true)
    }

    /// Tuple `n` into `out`.
    fn tuple(&self, n: usize, out: &mut [StateId]) {
        self.set
            .unpack(&self.keys[n * self.words..(n + 1) * self.words], out);
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
    let mut visited = Visited::new(comps, config);
    let mut stubborn = Stubborn::new(&net);
    let initial: Vec<StateId> = comps.iter().map(|c| c.initial()).collect();
    visited.insert(&initial, None)?;
    let mut tuple = initial.clone();
    let mut keys = Vec::new();
    let mut target_buffer = Vec::with_capacity(tuple.len());
    let mut transitions = 0;
    let mut expanded = 0usize;
    while expanded < visited.len() {
        budget.tick()?;
        visited.tuple(expanded, &mut tuple);
        keys.clear();
        keys.extend_from_slice(stubborn.of(&net, &tuple));
        if deadlock && keys.is_empty() && !end.is_terminal(&tuple) {
            let trace = visited.trace(&net, expanded as u32);
            return Ok(Found {
                violation: Some(Counterexample::new(trace, Violation::Deadlock)),
                stats: Stats::new(visited.len(), transitions),
            });
        }
        for &key in &keys {
            let mut fresh = false;
            let mut error = None;
            let mut failed = None;
            net.fire(key, &tuple, &mut target_buffer, |target| {
                transitions += 1;
                if error.is_some() || failed.is_some() {
                    return;
                }
                match visited.insert(target, Some((expanded as u32, key))) {
                    Ok(true) => {
                        fresh = true;
                        error = net.error_component(target);
                    }
                    Ok(false) => {}
                    Err(e) => failed = Some(e),
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            if let Some(i) = error {
                // As the monolithic search: an error tuple ends the search when it is found, and
                // is not counted as a state.
                let last = visited.len() as u32 - 1;
                let violation = Violation::ErrorState {
                    component: ComponentId::must(i),
                };
                return Ok(Found {
                    violation: Some(Counterexample::new(visited.trace(&net, last), violation)),
                    stats: Stats::new(visited.len() - 1, transitions),
                });
            }
            if fresh {
                budget.check_states(visited.len())?;
            }
        }
        expanded += 1;
    }
    Ok(Found {
        violation: None,
        stats: Stats::new(visited.len(), transitions),
    })
}
