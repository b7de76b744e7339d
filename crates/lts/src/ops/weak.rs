//! Weak bisimulation (observational equivalence): [`weak_bisimulation_classes`] and
//! [`minimize_weak`], the minimisation LTSA applies to `minimal` processes and composites.
//!
//! Two states are weakly bisimilar when each can match the other's moves up to internal steps: an
//! `a`-move by `tau* a tau*`, a tau-move by `tau*` (possibly no move at all). Computed the classic
//! way, by reduction to strong bisimulation:
//!
//! 1. *Saturate*: build the LTS with a transition `s =a=> t` whenever `s tau* . a . tau* t`, and
//!    `s =tau=> t` whenever `s tau* t` (so every state has a tau self-loop);
//! 2. compute the *strong* bisimulation classes of the saturated LTS
//!    ([`strong_bisimulation_classes`]); they are exactly the weak bisimulation classes of the
//!    original;
//! 3. take the quotient of the *original* LTS by those classes and drop the tau self-loops it gets
//!    from tau moves inside a class (they are invisible to observational equivalence).
//!
//! The error state and accepting status are kept apart as in strong bisimulation, so a state that
//! may silently reach `ERROR` is never merged with one that may not, and callers can mark a state
//! (such as FSP's `END`) as the only accepting one to keep it apart from deadlocks.
//!
//! Cost: the saturated LTS can be quadratic in the original (a long tau chain saturates to a
//! triangle); that is the price of the simple reduction, which is fine for the component and
//! composite sizes FSP models minimise. Branching bisimulation ([`crate::ops::branching`]) needs
//! no saturation but is finer than LTSA's relation, so `minimal` keeps this one to give LTSA's
//! state counts; compositional minimisation, which only needs *an* equivalence that keeps its
//! answers, uses branching bisimulation.

use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::bisim::{quotient, strong_bisimulation_classes, through_classes};
use crate::ops::reach::trim_mapped;
use crate::ops::tau::TauClosure;
use crate::{LtsBuilder, LtsError};

/// The weak-bisimulation class of every state: `classes[s]` is the class of state `s`, numbered
/// densely in order of first state (see [`strong_bisimulation_classes`]).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::weak_bisimulation_classes;
/// // s0 -tau-> s1 -a-> s2 and s3 -a-> s2: s0, s1 and s3 are weakly bisimilar.
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2, s3] = [b.add_state()?, b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "tau", s1)?;
/// b.add_transition_named(s1, "a", s2)?;
/// b.add_transition_named(s3, "a", s2)?;
/// let classes = weak_bisimulation_classes(&b.build()?);
/// assert_eq!(classes, [0, 0, 1, 0]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Panics only if the saturated LTS needs more than `u32::MAX` transitions per state or overall,
/// which cannot happen for an LTS whose closure fits in memory.
pub fn weak_bisimulation_classes(lts: &Lts) -> Vec<u32> {
    let saturated = saturate(lts).expect("the saturation has the states of its input");
    strong_bisimulation_classes(&saturated)
}

/// The saturation of `lts` (step 1 of the module docs).
fn saturate(lts: &Lts) -> Result<Lts, LtsError> {
    let closure = TauClosure::new(lts);
    let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
    b.ensure_states(lts.num_states())?;
    for s in lts.states() {
        for &t in closure.of(s) {
            b.add_transition(s, ActionId::TAU, t)?;
            for e in lts.outgoing(t).iter().filter(|e| !e.action.is_tau()) {
                for &u in closure.of(e.target) {
                    b.add_transition(s, e.action, u)?;
                }
            }
        }
    }
    build_with_markers_of(b, lts)
}

/// The weak-bisimulation (observational equivalence) quotient of the reachable part of `lts`,
/// without tau self-loops, numbered breadth-first from the initial state. Weak traces (traces
/// with tau removed), the error state's reachability by weak traces, and accepting status are
/// preserved; minimising twice gives the same LTS.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::minimize_weak;
/// // (a -> tau -> b -> STOP) becomes (a -> b -> STOP).
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2, s3] = [b.add_state()?, b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s1, "tau", s2)?;
/// b.add_transition_named(s2, "b", s3)?;
/// let min = minimize_weak(&b.build()?);
/// assert_eq!((min.num_states(), min.num_transitions()), (3, 2));
/// assert!(!min.has_tau());
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never for LTSs that fit in memory: the result is no larger than the input.
pub fn minimize_weak(lts: &Lts) -> Lts {
    minimize_weak_mapped(lts).0
}

/// [`minimize_weak`], with the state of the result each state of `lts` became (`None` for the
/// unreachable ones).
///
/// # Panics
/// Never, as [`minimize_weak`].
pub fn minimize_weak_mapped(lts: &Lts) -> (Lts, Vec<Option<StateId>>) {
    let (reachable, first) = trim_mapped(lts);
    let classes = weak_bisimulation_classes(&reachable);
    let q = quotient(&reachable, &classes).expect("a quotient is no larger than its LTS");
    let (min, last) =
        trim_mapped(&drop_tau_loops(&q).expect("dropping transitions cannot overflow"));
    (min, through_classes(&first, &classes, &last))
}

/// `lts` without its tau self-loops.
pub(crate) fn drop_tau_loops(lts: &Lts) -> Result<Lts, LtsError> {
    let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
    b.ensure_states(lts.num_states())?;
    for t in lts.transitions() {
        if !(t.action.is_tau() && t.source == t.target) {
            b.add_transition(t.source, t.action, t.target)?;
        }
    }
    build_with_markers_of(b, lts)
}

/// Finishes `b`, built over the states of `lts`, with `lts`'s initial state, error state and
/// accepting states (both constructions here change transitions only).
fn build_with_markers_of(mut b: LtsBuilder, lts: &Lts) -> Result<Lts, LtsError> {
    b.set_initial(lts.initial())?;
    if let Some(e) = lts.error_state() {
        b.set_error(e)?;
    }
    if let Some(acc) = lts.accepting_set() {
        for s in lts.states() {
            b.set_accepting(s, acc.contains(s.index()))?;
        }
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::StateId;

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
    fn tau_to_error_is_not_merged_with_its_absence() {
        // 0 -a-> 1, 1 -tau-> 2 (ERROR), 0 -b-> 3: states 1 and 3 both offer nothing visible,
        // but 1 may fail silently.
        let mut b = lts(4, &[(0, "a", 1), (1, "tau", 2), (0, "b", 3)]).to_builder();
        b.set_error(StateId::must(2)).unwrap();
        let m = b.build().unwrap();
        let c = weak_bisimulation_classes(&m);
        assert_ne!(c[1], c[3]);
        assert_ne!(c[2], c[3]);
    }

    #[test]
    fn internal_choice_is_kept_apart_from_external_choice() {
        // tau.a + tau.b is not weakly bisimilar to a + b.
        let internal = lts(5, &[(0, "tau", 1), (0, "tau", 2), (1, "a", 3), (2, "b", 4)]);
        let min = minimize_weak(&internal);
        assert_eq!(min.num_states(), 4); // initial, the two choices, one STOP
        let external = lts(2, &[(0, "a", 1), (0, "b", 1)]);
        assert_eq!(minimize_weak(&external).num_states(), 2);
    }

    #[cfg(feature = "proptest")]
    mod props {
        use proptest::prelude::*;

        use super::super::*;
        use crate::id::StateId;
        use crate::ops::{language_included, minimize_strong};
        use crate::strategy::{LtsStrategyConfig, arb_lts_with};

        fn arb() -> impl Strategy<Value = Lts> {
            arb_lts_with(LtsStrategyConfig::new(6, &["a", "b"]).with_error_state(true))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(96))]

            #[test]
            fn preserves_weak_traces(l in arb()) {
                let min = minimize_weak(&l);
                prop_assert_eq!(language_included(&l, &min).unwrap(), None);
                prop_assert_eq!(language_included(&min, &l).unwrap(), None);
                prop_assert_eq!(min.error_state().is_some(), crate::ops::trim(&l).error_state().is_some());
            }

            #[test]
            fn is_idempotent_and_no_larger_than_strong(l in arb()) {
                let min = minimize_weak(&l);
                let again = minimize_weak(&min);
                prop_assert_eq!(&again, &min);
                prop_assert!(min.num_states() <= minimize_strong(&l).num_states());
                prop_assert!(!min.transitions().any(|t| t.action.is_tau() && t.source == t.target));
            }

            #[test]
            fn classes_are_a_weak_bisimulation(l in arb()) {
                // Every weak move of a state is matched by every state of its class.
                let c = weak_bisimulation_classes(&l);
                let sat = saturate(&l).unwrap();
                let moves = |s: StateId| -> std::collections::BTreeSet<(ActionId, u32)> {
                    sat.outgoing(s).iter().map(|e| (e.action, c[e.target.index()])).collect()
                };
                for s in l.states() {
                    for t in l.states() {
                        if c[s.index()] == c[t.index()] {
                            prop_assert_eq!(moves(s), moves(t));
                        }
                    }
                }
            }
        }
    }
}
