//! The homomorphism `h : N -> N/~` as a certificate, and its linear-time checker.
//!
//! An assumption `A` is useful as evidence only if `L(N) ⊆ L(A)`. For an arbitrary `A` that
//! inclusion is PSPACE-hard to check; for a quotient it is witnessed by the map `h` from states of
//! `N` to states of `A`, and checking a map is linear: `h` must be total and onto, send the initial
//! state to the initial state and `N`'s `ERROR` (if any) to `A`'s, and send every edge `(s, a, t)`
//! of `N` to an edge `(h(s), a, h(t))` of `A`, over the same declared alphabet. Then every run of
//! `N` maps to a run of `A` (and every `ERROR` of `N` to `A`'s), so `A` may replace `N` soundly in
//! `M || A |= P  ==>  M || N |= P`. Edges of `A` are looked up in its sorted edge lists, so the
//! check costs `O(|N| + |E_N| log d)` where `d` is `A`'s largest out-degree.

use guarantor_lts::{Lts, StateId};

/// A map from the states of a component to the states of its quotient: `classes[s]` is the image
/// of state `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Homomorphism {
    /// The image of every state of the original component.
    pub classes: Vec<u32>,
}

impl Homomorphism {
    /// The image of `s`, if `s` is in the domain.
    pub fn image(&self, s: StateId) -> Option<StateId> {
        self.classes.get(s.index()).map(|&c| StateId::from_u32(c))
    }

    /// The identity on `n` states (the trivial quotient, `N` itself).
    pub fn identity(n: usize) -> Self {
        Self {
            classes: (0..n as u32).collect(),
        }
    }
}

/// Why a map is not a homomorphism from a component onto an assumption.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// The two LTSs do not declare the same alphabet (compared by name and order).
    #[error("the assumption's alphabet differs from the component's")]
    AlphabetMismatch,
    /// The map does not have one entry per state of the component.
    #[error("the map has {len} entries for {states} states")]
    WrongLength {
        /// Entries of the map.
        len: usize,
        /// States of the component.
        states: usize,
    },
    /// A state maps outside the assumption.
    #[error("state {state} maps to {image}, but the assumption has {states} states")]
    OutOfRange {
        /// The state.
        state: usize,
        /// Its image.
        image: u32,
        /// States of the assumption.
        states: usize,
    },
    /// Some state of the assumption is nobody's image.
    #[error("state {state} of the assumption is not the image of any state")]
    NotOnto {
        /// The state of the assumption.
        state: usize,
    },
    /// The initial state does not map to the initial state.
    #[error("the initial state maps to {image}, not to the assumption's initial state")]
    Initial {
        /// The image of the initial state.
        image: u32,
    },
    /// The error states do not correspond.
    #[error("the component's ERROR state does not map to the assumption's")]
    ErrorState,
    /// An edge has no image.
    #[error("edge {from} -{action}-> {target} has no image in the assumption")]
    MissingEdge {
        /// The source state.
        from: usize,
        /// The action name.
        action: String,
        /// The target state.
        target: usize,
    },
}

/// Checks that `map` is a homomorphism from `component` onto `assumption` (see the module docs),
/// in time linear in the size of `component` (up to a binary search per edge).
///
/// ```
/// use guarantor_lts::{LtsBuilder, StateId};
/// use guarantor_quotient::{check_homomorphism, Homomorphism};
/// let mut b = LtsBuilder::new();
/// b.ensure_states(3)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// b.add_transition_named(StateId::must(1), "a", StateId::must(2))?;
/// let n = b.build()?;
/// let mut b = LtsBuilder::with_alphabet(n.alphabet().clone());
/// b.ensure_states(1)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(0))?;
/// let a = b.build()?;
/// assert!(check_homomorphism(&n, &a, &Homomorphism { classes: vec![0, 0, 0] }).is_ok());
/// assert!(check_homomorphism(&n, &a, &Homomorphism { classes: vec![0, 0] }).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_homomorphism(
    component: &Lts,
    assumption: &Lts,
    map: &Homomorphism,
) -> Result<(), CertificateError> {
    if component.alphabet() != assumption.alphabet() {
        return Err(CertificateError::AlphabetMismatch);
    }
    let h = &map.classes;
    if h.len() != component.num_states() {
        return Err(CertificateError::WrongLength {
            len: h.len(),
            states: component.num_states(),
        });
    }
    let states = assumption.num_states();
    let mut hit = vec![false; states];
    for (s, &c) in h.iter().enumerate() {
        if c as usize >= states {
            return Err(CertificateError::OutOfRange {
                state: s,
                image: c,
                states,
            });
        }
        hit[c as usize] = true;
    }
    if let Some(state) = hit.iter().position(|&x| !x) {
        return Err(CertificateError::NotOnto { state });
    }
    let image = |s: StateId| StateId::from_u32(h[s.index()]);
    if image(component.initial()) != assumption.initial() {
        return Err(CertificateError::Initial {
            image: h[component.initial().index()],
        });
    }
    if component.error_state().map(image) != assumption.error_state() {
        return Err(CertificateError::ErrorState);
    }
    for t in component.transitions() {
        let (hs, ht) = (image(t.source), image(t.target));
        if !assumption.successors(hs, t.action).any(|x| x == ht) {
            return Err(CertificateError::MissingEdge {
                from: t.source.index(),
                action: component.action_name(t.action).to_owned(),
                target: t.target.index(),
            });
        }
    }
    Ok(())
}
