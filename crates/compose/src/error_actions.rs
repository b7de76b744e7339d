//! Components' `ERROR` states as private actions that a property forbids, for methods that reason
//! about traces against a property only.
//!
//! In a composition an `ERROR` state of any component ends the run in a violation, whatever the
//! property says. A method whose premises speak of languages (learned assumptions, rule SYM's
//! complements) does not see such a state: a component that fails on an action the property does
//! not mention looks safe to it. [`ErrorActions`] rewrites the question into one without
//! `ERROR` states: component `i`'s `ERROR` becomes an ordinary state offering one private action
//! `__guarantor_error_<i>` into a dead state, and the property is extended with those actions,
//! refused everywhere ([`ErrorActions::guard`]). The rewritten system violates the extended
//! property exactly when the original system violates the property or reaches an `ERROR`: the
//! private action is shared by its component and the property only, so it is enabled exactly where
//! the component is at its `ERROR`.
//!
//! A counterexample of the rewritten system goes back with [`ErrorActions::restore`]: the private
//! actions are dropped and the trace is cut where the original system first fails (a rewritten
//! run may go on after a component reached its former `ERROR`; the original one stops there).
//!
//! ```
//! use guarantor_compose::{check_safety, error_actions::ErrorActions, Config, Violation};
//! use guarantor_lts::{ComponentId, LtsBuilder, PropertyId, StateId};
//! // M = (a -> ERROR | b -> M), and a property over `b` alone that M cannot break.
//! let mut b = LtsBuilder::new();
//! b.ensure_states(2)?;
//! b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
//! b.add_transition_named(StateId::must(0), "b", StateId::must(0))?;
//! b.set_error(StateId::must(1))?;
//! let m = b.build()?;
//! let mut b = LtsBuilder::new();
//! b.add_state()?;
//! b.add_transition_named(StateId::must(0), "b", StateId::must(0))?;
//! let p = b.build()?;
//!
//! let adapted = ErrorActions::new(&[&m], &[&p])?.expect("M has an ERROR state");
//! assert!(adapted.components()[0].error_state().is_none());
//! let guarded = adapted.guard(&p)?;
//! let report = check_safety(&adapted.components(), &[&guarded], &Config::default())?;
//! let cex = report.verdict.counterexample().expect("a is possible");
//! assert_eq!(cex.trace, ["a", "__guarantor_error_0"]);
//! let back = adapted.restore(&[&m], &[&p], cex)?;
//! assert_eq!(back.trace, ["a"]);
//! assert_eq!(back.violation, Violation::ErrorState { component: ComponentId::must(0) });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use guarantor_lts::{Lts, LtsBuilder};

use crate::error::ComposeError;
use crate::replay::first_violation;
use crate::verdict::Counterexample;

/// The prefix of the private action names; component `i`'s is the prefix followed by `i` (and by
/// underscores if a component or property already uses that name).
const PREFIX: &str = "__guarantor_error_";

/// A system whose `ERROR` states became private actions (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct ErrorActions {
    /// The rewritten components, in the original order (unchanged ones are copies).
    components: Vec<Lts>,
    /// The private action of component `i`, if it had an `ERROR` state.
    actions: Vec<Option<String>>,
}

impl ErrorActions {
    /// Rewrites `components`, or `None` if none of them has an `ERROR` state (then there is nothing
    /// to adapt, and callers use the originals without copying them). `properties` are only read
    /// for their action names, so that no private action collides with a name in use.
    ///
    /// # Errors
    /// [`ComposeError::Lts`] if a rewritten component cannot be built (one more state or action
    /// than ids allow).
    pub fn new(components: &[&Lts], properties: &[&Lts]) -> Result<Option<Self>, ComposeError> {
        if components.iter().all(|m| m.error_state().is_none()) {
            return Ok(None);
        }
        let taken = |name: &str| {
            components
                .iter()
                .chain(properties)
                .any(|l| l.alphabet().contains(name))
        };
        let mut out = Vec::with_capacity(components.len());
        let mut actions = Vec::with_capacity(components.len());
        for (i, lts) in components.iter().enumerate() {
            let Some(error) = lts.error_state() else {
                out.push((*lts).clone());
                actions.push(None);
                continue;
            };
            let mut name = format!("{PREFIX}{i}");
            while taken(&name) {
                name.push('_');
            }
            let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
            b.ensure_states(lts.num_states())?;
            let dead = b.add_state()?;
            // An ERROR state has no way out in LTSA; any transition leaving it is dropped, so the
            // private action is the only thing the former ERROR state offers.
            for t in lts.transitions().filter(|t| t.source != error) {
                b.add_transition(t.source, t.action, t.target)?;
            }
            b.add_transition_named(error, &name, dead)?;
            b.set_initial(lts.initial())?;
            if lts.accepting_set().is_some() {
                for s in lts.states() {
                    b.set_accepting(s, lts.is_accepting(s))?;
                }
            }
            out.push(b.build()?);
            actions.push(Some(name));
        }
        Ok(Some(Self {
            components: out,
            actions,
        }))
    }

    /// The rewritten components, in the original order; none has an `ERROR` state.
    pub fn components(&self) -> Vec<&Lts> {
        self.components.iter().collect()
    }

    /// The private action of component `i`, if it had an `ERROR` state.
    pub fn action(&self, i: usize) -> Option<&str> {
        self.actions.get(i).and_then(Option::as_deref)
    }

    /// Whether `name` is one of the private actions.
    pub fn is_private(&self, name: &str) -> bool {
        self.actions.iter().flatten().any(|a| a == name)
    }

    /// `property` with every private action added to its alphabet and refused in every state: the
    /// property of the rewritten system. Several properties can each be guarded, or only one of
    /// them: the private actions are violations of whichever property declares them.
    ///
    /// # Errors
    /// [`ComposeError::Lts`] if the alphabet is full.
    pub fn guard(&self, property: &Lts) -> Result<Lts, ComposeError> {
        let mut b = property.to_builder();
        for name in self.actions.iter().flatten() {
            b.action(name)?;
        }
        Ok(b.build()?)
    }

    /// A counterexample of the rewritten system as one of the original `components` against the
    /// original `properties` (those that were guarded, in the same order): the private actions
    /// are dropped, and the trace is cut after the shortest prefix on which the original system
    /// fails, with the violation named there as [`check_safety`](crate::check_safety) names it. A
    /// trace that fails nowhere in the original system (which a correct method never returns) is
    /// returned without its private actions and otherwise unchanged, for the caller's replay to
    /// reject.
    ///
    /// # Errors
    /// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic property.
    pub fn restore(
        &self,
        components: &[&Lts],
        properties: &[&Lts],
        cex: &Counterexample,
    ) -> Result<Counterexample, ComposeError> {
        let mut trace: Vec<String> = cex
            .trace
            .iter()
            .filter(|a| !self.is_private(a))
            .cloned()
            .collect();
        Ok(match first_violation(components, properties, &trace)? {
            Some((len, violation)) => {
                trace.truncate(len);
                Counterexample::new(trace, violation)
            }
            None => Counterexample::new(trace, cex.violation),
        })
    }
}

#[cfg(test)]
mod tests {
    use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
    use guarantor_lts::{Lts, LtsBuilder, StateId};
    use proptest::prelude::*;

    use super::ErrorActions;
    use crate::replay::{find_violation, replay};
    use crate::{Config, Violation, check_safety};
    use guarantor_lts::{ComponentId, PropertyId};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The rewritten system violates the guarded properties exactly when the original one
        /// fails, and a counterexample of it restores to a run of the original that fails where
        /// the restored violation says.
        #[test]
        fn the_rewrite_keeps_the_verdict_and_restores_counterexamples(
            sys in arb_system_with(3, LtsStrategyConfig::new(3, &["a", "b", "c"]).with_error_state(true)),
            ps in proptest::collection::vec(arb_deterministic_property(2, &["a", "b", "z"]), 0..=2),
        ) {
            let parts: Vec<&Lts> = sys.iter().collect();
            let props: Vec<&Lts> = ps.iter().collect();
            let original = check_safety(&parts, &props, &Config::default()).unwrap();
            let Some(adapted) = ErrorActions::new(&parts, &props).unwrap() else {
                prop_assert!(parts.iter().all(|m| m.error_state().is_none()));
                return Ok(());
            };
            // The private actions need a property that declares them: the first one, or one of
            // their own when there is none.
            let mut guarded: Vec<Lts> = ps.clone();
            match guarded.first_mut() {
                Some(first) => *first = adapted.guard(first).unwrap(),
                None => {
                    let mut b = LtsBuilder::new();
                    b.add_state().unwrap();
                    guarded.push(adapted.guard(&b.build().unwrap()).unwrap());
                }
            }
            let guarded: Vec<&Lts> = guarded.iter().collect();
            let rewritten = check_safety(&adapted.components(), &guarded, &Config::default()).unwrap();
            prop_assert_eq!(rewritten.verdict.is_holds(), original.verdict.is_holds());
            prop_assert!(adapted.components().iter().all(|m| m.error_state().is_none()));
            if let Some(cex) = rewritten.verdict.counterexample() {
                let back = adapted.restore(&parts, &props, cex).unwrap();
                prop_assert!(replay(&parts, &back.trace).is_ok(), "{:?}", back.trace);
                prop_assert!(back.trace.iter().all(|a| !adapted.is_private(a)));
                let found = find_violation(&parts, &props, &back.trace).unwrap();
                prop_assert_eq!(found, Some(back.violation));
            }
        }
    }

    #[test]
    fn a_run_that_goes_on_after_an_error_is_cut_there() {
        // M = (a -> ERROR), N = (c -> N), P refuses c after one c: the rewritten system can do
        // `a c c` and violate P, but the original stops after `a`.
        let mut b = LtsBuilder::new();
        b.ensure_states(2).unwrap();
        b.add_transition_named(StateId::must(0), "a", StateId::must(1))
            .unwrap();
        b.set_error(StateId::must(1)).unwrap();
        let m = b.build().unwrap();
        let mut b = LtsBuilder::new();
        b.add_state().unwrap();
        b.add_transition_named(StateId::must(0), "c", StateId::must(0))
            .unwrap();
        let n = b.build().unwrap();
        let mut b = LtsBuilder::new();
        b.ensure_states(2).unwrap();
        b.add_transition_named(StateId::must(0), "c", StateId::must(1))
            .unwrap();
        let p = b.build().unwrap();
        let adapted = ErrorActions::new(&[&n, &m], &[&p]).unwrap().unwrap();
        assert_eq!(adapted.action(0), None);
        assert_eq!(adapted.action(1), Some("__guarantor_error_1"));
        let cex = crate::Counterexample::new(
            ["a", "c", "c"].map(String::from).to_vec(),
            Violation::Property {
                property: PropertyId::must(0),
            },
        );
        let back = adapted.restore(&[&n, &m], &[&p], &cex).unwrap();
        assert_eq!(back.trace, ["a"]);
        assert_eq!(
            back.violation,
            Violation::ErrorState {
                component: ComponentId::must(1)
            }
        );
        // The verdicts agree.
        let guarded = adapted.guard(&p).unwrap();
        let rewritten = check_safety(&adapted.components(), &[&guarded], &Config::default());
        assert!(rewritten.unwrap().verdict.is_violated());
    }

    #[test]
    fn private_names_avoid_names_in_use() {
        let mut b = LtsBuilder::new();
        b.ensure_states(2).unwrap();
        b.add_transition_named(StateId::must(0), "__guarantor_error_0", StateId::must(1))
            .unwrap();
        b.set_error(StateId::must(1)).unwrap();
        let m = b.build().unwrap();
        let adapted = ErrorActions::new(&[&m], &[]).unwrap().unwrap();
        assert_eq!(adapted.action(0), Some("__guarantor_error_0_"));
        assert!(ErrorActions::new(&[], &[]).unwrap().is_none());
    }
}
