//! The error LTS `P_err` of a safety property `P`.
//!
//! `P_err` is `P` plus an error state pi and, for every state and every action of alpha P that the
//! state does not offer, a transition to pi. Composed with a system `M`, pi is reachable in
//! `M || P_err` exactly when some trace of `M` (projected on alpha P) leaves the language of `P`.
//! This is only well defined for deterministic properties: with a choice, "does not offer" would
//! depend on which branch was taken, so nondeterministic properties are rejected rather than
//! determinised silently (determinise them first with the `lts` crate's operations if that is meant).

use guarantor_lts::{Lts, LtsBuilder, StateId};

use crate::error::ComposeError;

/// The error LTS of each of `properties`, in order ([`error_lts`]): what every search over
/// components and properties composes.
///
/// ```
/// use guarantor_compose::error_lts::error_ltss;
/// use guarantor_lts::Lts;
/// let once = Lts::from_edges([(0, "a", 1)])?;
/// let errs = error_ltss([&once, &once])?;
/// // Each gets pi: `a` from state 1 leads there.
/// assert_eq!(errs.len(), 2);
/// assert_eq!(errs[0].num_states(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`error_lts`], for the first property that is not deterministic.
pub fn error_ltss<'a>(
    properties: impl IntoIterator<Item = &'a Lts>,
) -> Result<Vec<Lts>, ComposeError> {
    properties.into_iter().map(error_lts).collect()
}

/// Builds the error LTS of `property`.
///
/// States keep their numbers; pi is the property's own error state if it has one (LTSA `property`
/// processes may already contain `ERROR`), otherwise a new last state. pi gets no outgoing
/// transitions. The accepting set, if any, is dropped: a safety property accepts every trace that
/// avoids pi.
///
/// ```
/// use guarantor_compose::error_lts;
/// use guarantor_lts::{LtsBuilder, StateId};
/// // Order = (input -> output -> Order)
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "input", StateId::must(1))?;
/// b.add_transition_named(StateId::must(1), "output", StateId::must(0))?;
/// let order = b.build()?;
/// let order_err = error_lts(&order)?;
/// assert_eq!(order_err.num_states(), 3);
/// assert_eq!(order_err.error_state(), Some(StateId::must(2)));
/// assert_eq!(order_err.num_transitions(), 4); // two original, two into pi
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] if the property has a tau transition or two
/// transitions on one action from one state.
pub fn error_lts(property: &Lts) -> Result<Lts, ComposeError> {
    if let Some((state, action)) = property.first_nondeterminism() {
        return Err(ComposeError::PropertyNotDeterministic {
            state: state.index(),
            action: property.action_name(action).to_owned(),
        });
    }
    let mut b = LtsBuilder::with_alphabet(property.alphabet().clone());
    b.ensure_states(property.num_states())?;
    let pi = match property.error_state() {
        Some(pi) => pi,
        None => b.add_state()?,
    };
    b.set_initial(property.initial())?;
    b.set_error(pi)?;
    for s in property.states().filter(|&s| s != pi) {
        copy_and_complete(property, s, pi, &mut b)?;
    }
    Ok(b.build()?)
}

/// Copies the transitions of `s` and adds one to `pi` for each action of the alphabet `s` refuses.
fn copy_and_complete(
    property: &Lts,
    s: StateId,
    pi: StateId,
    b: &mut LtsBuilder,
) -> Result<(), ComposeError> {
    let out = property.outgoing(s);
    for e in out {
        b.add_transition(s, e.action, e.target)?;
    }
    // `out` is sorted by action and deterministic, so a merge walk finds the refused actions.
    let mut offered = out.iter().map(|e| e.action).peekable();
    for a in property.alphabet().visible() {
        if offered.next_if_eq(&a).is_none() {
            b.add_transition(s, a, pi)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lts(n: usize, edges: &[(usize, &str, usize)], extra: &[&str]) -> Lts {
        let mut b = LtsBuilder::new();
        b.ensure_states(n).unwrap();
        for &(s, a, t) in edges {
            b.add_transition_named(StateId::must(s), a, StateId::must(t))
                .unwrap();
        }
        for a in extra {
            b.action(a).unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn refused_actions_go_to_pi_including_declared_unused_ones() {
        let p = lts(2, &[(0, "a", 1), (1, "b", 0)], &["c"]);
        let e = error_lts(&p).unwrap();
        let pi = e.error_state().unwrap();
        assert_eq!(pi.index(), 2);
        let to_pi = |s: usize| -> Vec<&str> {
            let out = e.outgoing(StateId::must(s));
            out.iter()
                .filter(|x| x.target == pi)
                .map(|x| e.action_name(x.action))
                .collect()
        };
        assert_eq!(to_pi(0), ["b", "c"]);
        assert_eq!(to_pi(1), ["a", "c"]);
        assert!(e.outgoing(pi).is_empty());
        assert!(e.is_deterministic());
        // Every non-pi state is complete over the alphabet.
        for s in 0..2 {
            assert_eq!(e.outgoing(StateId::must(s)).len(), 3);
        }
    }

    #[test]
    fn existing_error_state_is_reused() {
        let mut b = lts(3, &[(0, "a", 1), (1, "a", 2)], &[]).to_builder();
        b.set_error(StateId::must(2)).unwrap();
        let p = b.build().unwrap();
        let e = error_lts(&p).unwrap();
        assert_eq!(e.num_states(), 3);
        assert_eq!(e.error_state(), Some(StateId::must(2)));
        assert_eq!(e.num_transitions(), 2); // state 0 and 1 offer the only action already
    }

    #[test]
    fn nondeterministic_or_tau_property_is_rejected() {
        let nd = lts(3, &[(0, "a", 1), (0, "a", 2)], &[]);
        assert_eq!(
            error_lts(&nd),
            Err(ComposeError::PropertyNotDeterministic {
                state: 0,
                action: "a".into()
            })
        );
        let tau = lts(2, &[(1, "tau", 0)], &[]);
        assert!(matches!(
            error_lts(&tau),
            Err(ComposeError::PropertyNotDeterministic { state: 1, .. })
        ));
    }
}
