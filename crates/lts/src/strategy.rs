//! Proptest strategies for random LTSs and random deterministic properties (feature `proptest`).
//!
//! Property tests across the workspace compare fast algorithms with naive references on random
//! inputs; these strategies are the one shared source of such inputs, so every crate tests against the
//! same distribution and shrinks the same way.
//!
//! Conventions shared by every strategy here:
//! - **Alphabets are controlled by the caller.** The generated LTS always declares *every* action name
//!   it was given, in the order given, so action `names[i]` has id `i + 1` (tau is id 0). Transitions
//!   use a random subset of those names; a declared name that labels no transition is blocked
//!   everywhere, which is exactly the LTSA case tests want to exercise.
//! - The initial state is state 0. States are numbered `0..n` with `1 <= n <= max_states`; random
//!   LTSs are *not* trimmed, so unreachable states occur (operations must cope with them).
//! - Transitions are drawn as `(source, label, target)` triples and deduplicated by the builder, so the
//!   result has at most `max_transitions` transitions.
//!
//! The knobs live in [`LtsStrategyConfig`] (setters by value); [`arb_lts`] is the common preset.
//! [`arb_lts_with`] takes a config.
//!
//! ```
//! use guarantor_lts::strategy::{arb_lts_with, LtsStrategyConfig};
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//!
//! let config = LtsStrategyConfig::new(4, &["a", "b"]).with_tau(false).with_max_transitions(6);
//! let mut runner = TestRunner::deterministic();
//! let lts = arb_lts_with(config).new_tree(&mut runner).unwrap().current();
//! assert!(lts.num_states() <= 4 && lts.num_transitions() <= 6);
//! assert_eq!(lts.alphabet().get("b").map(|a| a.index()), Some(2));
//! assert!(!lts.has_tau());
//! ```

use proptest::collection::vec;
use proptest::prelude::*;

use crate::alphabet::Alphabet;
use crate::builder::LtsBuilder;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;

/// What a random LTS may look like. Build with [`LtsStrategyConfig::new`] and adjust with the setters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LtsStrategyConfig {
    /// The largest number of states (at least 1 is always generated). Default: given to `new`.
    pub max_states: usize,
    /// The declared alphabet, in id order; all of it is always declared. Default: given to `new`.
    pub actions: Vec<String>,
    /// The largest number of transitions. Default: `2 * max_states`.
    pub max_transitions: usize,
    /// Whether tau may label transitions (it is drawn like one more action). Default: `true`.
    pub tau: bool,
    /// Whether some LTSs get an error state (a random non-initial state, made a sink: its outgoing
    /// transitions are dropped, as LTSA's `ERROR` has none). Default: `false`.
    pub error_state: bool,
    /// Whether the LTS is an FSM with a random accepting set (otherwise every state accepts).
    /// Default: `false`.
    pub accepting: bool,
}

impl LtsStrategyConfig {
    /// A config with `max_states` states at most over the declared alphabet `actions`, tau allowed,
    /// no error state, no accepting set, at most `2 * max_states` transitions.
    pub fn new<S: AsRef<str>>(max_states: usize, actions: &[S]) -> Self {
        Self {
            max_states: max_states.max(1),
            actions: actions.iter().map(|a| a.as_ref().to_owned()).collect(),
            max_transitions: 2 * max_states.max(1),
            tau: true,
            error_state: false,
            accepting: false,
        }
    }

    /// Sets the largest number of states (values below 1 are raised to 1).
    #[must_use]
    pub fn with_max_states(mut self, max_states: usize) -> Self {
        self.max_states = max_states.max(1);
        self
    }

    /// Sets the largest number of transitions.
    #[must_use]
    pub fn with_max_transitions(mut self, max_transitions: usize) -> Self {
        self.max_transitions = max_transitions;
        self
    }

    /// Allows or forbids tau transitions.
    #[must_use]
    pub fn with_tau(mut self, tau: bool) -> Self {
        self.tau = tau;
        self
    }

    /// Allows or forbids an error state.
    #[must_use]
    pub fn with_error_state(mut self, error_state: bool) -> Self {
        self.error_state = error_state;
        self
    }

    /// Makes the generated LTSs FSMs with random accepting sets, or plain LTSs.
    #[must_use]
    pub fn with_accepting(mut self, accepting: bool) -> Self {
        self.accepting = accepting;
        self
    }
}

/// The raw random choices behind one LTS, turned into an [`Lts`] by [`assemble`].
struct RawLts {
    num_states: usize,
    /// `(source, label, target)`; label 0 is tau when tau is allowed, else labels start at action 1.
    triples: Vec<(usize, usize, usize)>,
    /// `Some(k)`: state `k` (a non-initial state) is the error state.
    error: Option<usize>,
    accepting: Option<Vec<bool>>,
}

/// Random LTSs as described by `config`. See the [module docs](self) for the conventions.
pub fn arb_lts_with(config: LtsStrategyConfig) -> impl Strategy<Value = Lts> {
    let labels = config.actions.len() + usize::from(config.tau);
    let max_transitions = if labels == 0 {
        0
    } else {
        config.max_transitions
    };
    let LtsStrategyConfig {
        max_states,
        actions,
        tau,
        error_state,
        accepting,
        ..
    } = config;
    (1..=max_states)
        .prop_flat_map(move |n| {
            let triple = (0..n, 0..labels.max(1), 0..n);
            let error = if error_state && n > 1 {
                proptest::option::of(1..n).boxed()
            } else {
                Just(None).boxed()
            };
            let acc = if accepting {
                vec(any::<bool>(), n).prop_map(Some).boxed()
            } else {
                Just(None).boxed()
            };
            (Just(n), vec(triple, 0..=max_transitions), error, acc)
        })
        .prop_map(move |(num_states, triples, error, accepting)| {
            let raw = RawLts {
                num_states,
                triples,
                error,
                accepting,
            };
            assemble(&actions, tau, &raw)
        })
}

/// Turns raw choices into an LTS. Every index is in range by construction, so this cannot fail.
fn assemble(actions: &[String], tau: bool, raw: &RawLts) -> Lts {
    let alphabet = Alphabet::from_names(actions).expect("a test alphabet fits in 32-bit ids");
    let mut b = LtsBuilder::with_alphabet(alphabet);
    b.ensure_states(raw.num_states)
        .expect("state count is small");
    for &(s, label, t) in &raw.triples {
        if raw.error == Some(s) {
            continue; // the error state is a sink
        }
        let action = ActionId::must(if tau { label } else { label + 1 });
        b.add_transition(StateId::must(s), action, StateId::must(t))
            .expect("in range");
    }
    if let Some(e) = raw.error {
        b.set_error(StateId::must(e)).expect("in range");
    }
    if let Some(acc) = &raw.accepting {
        for (s, &yes) in acc.iter().enumerate() {
            b.set_accepting(StateId::must(s), yes).expect("in range");
        }
    }
    b.build().expect("at least one state")
}

/// Random LTSs with at most `max_states` states and `max_transitions` transitions, declaring every
/// name of `actions` (in order, so `actions[i]` has id `i + 1`), with tau transitions allowed; no
/// error state and no accepting set. Equivalent to
/// `arb_lts_with(LtsStrategyConfig::new(max_states, actions).with_max_transitions(max_transitions))`.
pub fn arb_lts(
    max_states: usize,
    actions: &[&str],
    max_transitions: usize,
) -> impl Strategy<Value = Lts> {
    arb_lts_with(LtsStrategyConfig::new(max_states, actions).with_max_transitions(max_transitions))
}

/// Random deterministic LTSs usable as safety properties: no tau, at most one transition per
/// (state, action), every name of `actions` declared (in order). Each (state, action) pair has a
/// transition with probability about 0.7. No error state, no accepting set; state 0 is initial.
pub fn arb_deterministic_property(
    max_states: usize,
    actions: &[&str],
) -> impl Strategy<Value = Lts> {
    let actions: Vec<String> = actions.iter().map(|&a| a.to_owned()).collect();
    let k = actions.len();
    (1..=max_states.max(1))
        .prop_flat_map(move |n| {
            let entry = proptest::option::weighted(0.7, 0..n);
            (Just(n), vec(entry, n * k))
        })
        .prop_map(move |(n, table)| {
            // table[s * k + i] is the target of state s on action i + 1, if any.
            let triples = table
                .iter()
                .enumerate()
                .filter_map(|(j, t)| t.map(|t| (j / k, j % k, t)))
                .collect();
            let raw = RawLts {
                num_states: n,
                triples,
                error: None,
                accepting: None,
            };
            assemble(&actions, false, &raw)
        })
}

/// Random systems of 1 to `max_components` components with at most `max_states` states each. Each
/// component declares a random sub-alphabet of `action_pool` (each pool action is taken with
/// probability 1/2, independently per component, so some actions are shared by several components,
/// some are local to one, some unused); it keeps the pool order, so ids differ between components
/// and must be related by name. Tau transitions are allowed; at most `2 * max_states` transitions per
/// component.
pub fn arb_system(
    max_components: usize,
    max_states: usize,
    action_pool: &[&str],
) -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        max_components,
        LtsStrategyConfig::new(max_states, action_pool),
    )
}

/// Like [`arb_system`], but each component is drawn from `config` with `config.actions` replaced by
/// its random sub-alphabet of the pool `config.actions`.
pub fn arb_system_with(
    max_components: usize,
    config: LtsStrategyConfig,
) -> impl Strategy<Value = Vec<Lts>> {
    let pool = config.actions.len();
    vec(vec(any::<bool>(), pool), 1..=max_components.max(1)).prop_flat_map(move |masks| {
        masks
            .into_iter()
            .map(|mask| {
                let mut c = config.clone();
                c.actions = c
                    .actions
                    .iter()
                    .zip(&mask)
                    .filter(|&(_, &m)| m)
                    .map(|(a, _)| a.clone())
                    .collect();
                arb_lts_with(c)
            })
            .collect::<Vec<_>>()
    })
}

/// Like [`arb_system_with`], each component with a random end state (FSP's `END`, a stuck state
/// that is not a deadlock) or none.
pub fn arb_system_with_ends(
    max_components: usize,
    config: LtsStrategyConfig,
) -> impl Strategy<Value = Vec<(Lts, Option<StateId>)>> {
    arb_system_with(max_components, config)
        .prop_flat_map(|sys| {
            let ends: Vec<_> = sys
                .iter()
                .map(|l| proptest::option::of(0..l.num_states()))
                .collect();
            (Just(sys), ends)
        })
        .prop_map(|(sys, ends)| {
            sys.into_iter()
                .zip(ends)
                .map(|(l, e)| (l, e.map(StateId::must)))
                .collect()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::test_runner::Config;

    proptest! {
        #![proptest_config(Config::with_cases(64))]

        #[test]
        fn arb_lts_respects_bounds(lts in arb_lts(5, &["a", "b", "c"], 8)) {
            prop_assert!(lts.num_states() >= 1 && lts.num_states() <= 5);
            prop_assert!(lts.num_transitions() <= 8);
            let names: Vec<_> = lts.alphabet().iter().map(|(_, n)| n.to_owned()).collect();
            prop_assert_eq!(names, ["a", "b", "c"]);
            prop_assert_eq!(lts.initial(), StateId::must(0));
            prop_assert!(lts.error_state().is_none() && lts.accepting_set().is_none());
        }

        #[test]
        fn error_state_is_a_sink(lts in arb_lts_with(LtsStrategyConfig::new(4, &["a"]).with_error_state(true))) {
            if let Some(e) = lts.error_state() {
                prop_assert!(lts.outgoing(e).is_empty());
                prop_assert_ne!(e, lts.initial());
            }
        }

        #[test]
        fn properties_are_deterministic(p in arb_deterministic_property(5, &["a", "b"])) {
            prop_assert!(p.is_deterministic());
            prop_assert_eq!(p.alphabet().len(), 2);
        }

        #[test]
        fn systems_use_sub_alphabets(sys in arb_system(3, 3, &["a", "b", "c", "d"])) {
            prop_assert!(!sys.is_empty() && sys.len() <= 3);
            for c in &sys {
                prop_assert!(c.alphabet().iter().all(|(_, n)| ["a", "b", "c", "d"].contains(&n)));
            }
        }
    }
}
