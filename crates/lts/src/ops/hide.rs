//! Hiding, projection and relabelling: operations that rename transition labels.
//!
//! All three keep the states and the shape of the LTS and only change labels (and so the alphabet):
//! - [`hide`](fn@hide) turns the named actions into tau and removes them from the alphabet (FSP's
//!   `\{...}`);
//! - [`project`] hides everything *except* the named actions (FSP's `@{...}`, projection onto an
//!   alphabet);
//! - [`relabel`] renames by a relation of (old, new) pairs (FSP's `/{new/old}`): several old names
//!   may map to one new name (their transitions merge), and one old name may map to several new names
//!   (each of its transitions is copied once per new name). Old names not mentioned keep their name.
//!
//! The new alphabet lists the surviving names in the order of the old action ids, so ids change
//! whenever something is hidden or renamed; relate LTSs by name, as everywhere.

use rustc_hash::FxHashSet;
use smallvec::SmallVec;

use crate::alphabet::{Alphabet, TAU_NAME};
use crate::error::LtsError;
use crate::id::ActionId;
use crate::lts::Lts;
use crate::ops::util::CsrWriter;

/// The new ids of one old action (usually exactly one; more for one-to-many relabelling).
type Images = SmallVec<[ActionId; 1]>;

/// Hides the named actions: their transitions become tau and they leave the alphabet. Names the
/// alphabet does not declare are ignored, and so is `"tau"`.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::hide;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "send", s1)?;
/// b.add_transition_named(s1, "ack", s0)?;
/// let hidden = hide(&b.build()?, ["ack"]);
/// assert_eq!(hidden.alphabet().len(), 1);
/// assert!(hidden.has_tau());
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never: the result has as many states and no more transitions than the input.
pub fn hide<'n>(lts: &Lts, actions: impl IntoIterator<Item = &'n str>) -> Lts {
    let hidden: FxHashSet<&str> = actions.into_iter().collect();
    rename_by(lts, |name| {
        if hidden.contains(name) {
            None
        } else {
            Some(name)
        }
    })
}

/// Projects onto the named actions: hides every visible action not in `keep`. Names in `keep` that
/// the alphabet does not declare are ignored (the result declares only names of `lts`).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::project;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "send", s1)?;
/// b.add_transition_named(s1, "ack", s0)?;
/// let p = project(&b.build()?, ["send", "other"]);
/// assert_eq!(p.alphabet().iter().map(|(_, n)| n).collect::<Vec<_>>(), ["send"]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never: the result has as many states and no more transitions than the input.
pub fn project<'n>(lts: &Lts, keep: impl IntoIterator<Item = &'n str>) -> Lts {
    let kept: FxHashSet<&str> = keep.into_iter().collect();
    rename_by(lts, |name| {
        if kept.contains(name) {
            Some(name)
        } else {
            None
        }
    })
}

/// Renames each visible action `name` to `rename(name)`, or to tau if it returns `None`.
fn rename_by<'a>(lts: &'a Lts, rename: impl Fn(&'a str) -> Option<&'a str>) -> Lts {
    let mut alphabet = Alphabet::new();
    let mut images: Vec<Images> = vec![Images::from_elem(ActionId::TAU, 1)];
    for (_, name) in lts.alphabet().iter() {
        let new = rename(name).map_or(Ok(ActionId::TAU), |n| alphabet.intern(n));
        images.push(Images::from_elem(
            new.expect("no more actions than the input"),
            1,
        ));
    }
    map_labels(lts, alphabet, &images).expect("no larger than the input")
}

/// Relabels by the relation `pairs` of `(old, new)` names (see the [module docs](self)). Pairs whose
/// old name the alphabet does not declare are ignored, as are pairs with old name `"tau"` (tau is never
/// renamed); a new name `"tau"` hides. Fails only if the result has too many transitions.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::relabel;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "x", s1)?;
/// b.add_transition_named(s1, "y", s0)?;
/// // x becomes both a and b; y is merged into a.
/// let r = relabel(&b.build()?, &[("x", "a"), ("x", "b"), ("y", "a")])?;
/// assert_eq!(r.num_transitions(), 3);
/// assert_eq!(r.alphabet().len(), 2);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn relabel(lts: &Lts, pairs: &[(&str, &str)]) -> Result<Lts, LtsError> {
    let mut alphabet = Alphabet::new();
    let mut images: Vec<Images> = vec![Images::from_elem(ActionId::TAU, 1)];
    for (_, name) in lts.alphabet().iter() {
        let mut image = Images::new();
        for &(_, new) in pairs
            .iter()
            .filter(|&&(old, _)| old == name && old != TAU_NAME)
        {
            image.push(alphabet.intern(new)?);
        }
        if image.is_empty() {
            image.push(alphabet.intern(name)?);
        }
        images.push(image);
    }
    map_labels(lts, alphabet, &images)
}

/// Rebuilds `lts` over `alphabet`, replacing each transition on `a` by one per id in `images[a]`.
fn map_labels(lts: &Lts, alphabet: Alphabet, images: &[Images]) -> Result<Lts, LtsError> {
    let mut w = CsrWriter::with_capacity(lts.num_states(), lts.num_transitions());
    for s in lts.states() {
        for e in lts.outgoing(s) {
            for &a in &images[e.action.index()] {
                w.push(a, e.target);
            }
        }
        w.end_state()?;
    }
    let accepting = lts.accepting_set().cloned();
    w.finish(alphabet, lts.initial(), lts.error_state(), accepting)
}
