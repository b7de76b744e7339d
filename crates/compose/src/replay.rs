//! Independent confirmation of counterexamples: [`replay`] checks that a trace is a run of a
//! composition, [`find_violation`] / [`violates`] check that it ends in a violation, and
//! [`first_violation`] says after which prefix. Telling a counterexample as a run:
//! [`embed`] finds one shortest run that reads an observed word, hidden steps filled in.
//!
//! Both simulate the *set* of product tuples the trace can lead to (subset construction on the fly,
//! with tau closure), so they need no determinism and no shortest-path bookkeeping, and they share
//! nothing with the BFS of the checkers except [`Product`]'s successor enumeration. The trace is
//! given by action names, exactly as a [`Counterexample`](crate::Counterexample) carries it.
//!
//! An action that no component has in its alphabet is not observed by the composition: it leaves
//! every component where it is (in `M || P_err`, such actions belong to the property alone).

use std::ops::ControlFlow;

use guarantor_lts::{ActionId, ComponentId, Lts, StateId};
use rustc_hash::FxHashSet;

use crate::error::ComposeError;
use crate::error_lts::error_ltss;
use crate::product::{Product, Scratch};
use crate::verdict::Violation;

mod embed;
pub use embed::{Fill, embed};

/// Why a trace is not a run of a composition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// Component `component` (its position among the replayed components) cannot perform step
    /// `step` (0-based), even after tau steps, on its own projection of the trace.
    #[error("step {step} ({action:?}): component {component} refuses it")]
    Refused {
        /// The 0-based position of the refused action in the trace.
        step: usize,
        /// The refused action.
        action: String,
        /// The component that refuses.
        component: ComponentId,
    },
    /// Every component can follow its own projection up to step `step`, but no synchronised run of
    /// the composition can (the components' choices do not fit together).
    #[error("step {step} ({action:?}): no synchronised run of the composition performs it")]
    NotSynchronised {
        /// The 0-based position of the action in the trace.
        step: usize,
        /// The action.
        action: String,
    },
    /// The composition could not be set up.
    #[error(transparent)]
    Compose(#[from] ComposeError),
}

/// A set of product tuples reachable by a trace prefix.
type Tuples = FxHashSet<Vec<StateId>>;

/// Adds everything reachable by tau steps to `set`.
fn tau_close(product: &Product<'_>, set: &mut Tuples, scratch: &mut Scratch) {
    let mut work: Vec<Vec<StateId>> = set.iter().cloned().collect();
    while let Some(t) = work.pop() {
        let _ = product.for_each_successor::<()>(&t, scratch, |a, target| {
            if a.is_tau() && !set.contains(target) {
                set.insert(target.to_vec());
                work.push(target.to_vec());
            }
            ControlFlow::Continue(())
        });
    }
}

/// The tuples reachable from `set` by one `action` step, then tau steps.
fn step(product: &Product<'_>, set: &Tuples, action: ActionId, scratch: &mut Scratch) -> Tuples {
    let mut next = Tuples::default();
    for t in set {
        let _ = product.for_each_successor::<()>(t, scratch, |a, target| {
            if a == action {
                next.insert(target.to_vec());
            }
            ControlFlow::Continue(())
        });
    }
    tau_close(product, &mut next, scratch);
    next
}

/// The tau-closed set of tuples reached by the initial state alone.
fn start(product: &Product<'_>, scratch: &mut Scratch) -> Tuples {
    let mut set = Tuples::default();
    set.insert(product.initial());
    tau_close(product, &mut set, scratch);
    set
}

/// Checks that `trace` (visible action names, tau steps left out) is a run of the composition of
/// `components`.
///
/// ```
/// use guarantor_compose::replay::{replay, ReplayError};
/// use guarantor_lts::{ComponentId, LtsBuilder, StateId};
/// // M = (a -> tau -> M), Once = (a -> STOP)
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// b.add_transition_named(StateId::must(1), "tau", StateId::must(0))?;
/// let m = b.build()?;
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// let once = b.build()?;
/// assert!(replay(&[&m], &["a", "a"]).is_ok()); // tau steps are taken in between
/// assert!(replay(&[&m], &["a", "b"]).is_ok()); // "b" is in no alphabet: unobserved
/// assert_eq!(
///     replay(&[&m, &once], &["a", "a"]),
///     Err(ReplayError::Refused { step: 1, action: "a".into(), component: ComponentId::must(1) })
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ReplayError::Refused`] names the first step and the first component whose own projection of
/// the trace cannot be executed; [`ReplayError::NotSynchronised`] says that all projections can be
/// executed but not together.
pub fn replay<S: AsRef<str>>(components: &[&Lts], trace: &[S]) -> Result<(), ReplayError> {
    let product = Product::new(components)?;
    let mut scratch = Scratch::new();
    let mut set = start(&product, &mut scratch);
    for (i, name) in trace.iter().enumerate() {
        let Some(action) = product.alphabet().get(name.as_ref()) else {
            continue; // observed by no component
        };
        set = step(&product, &set, action, &mut scratch);
        if set.is_empty() {
            return Err(explain(components, trace, i));
        }
    }
    Ok(())
}

/// Says why step `failed` of `trace` cannot be taken: the first component whose projection refuses
/// it, or, failing that, the synchronisation.
fn explain<S: AsRef<str>>(components: &[&Lts], trace: &[S], failed: usize) -> ReplayError {
    let action = trace[failed].as_ref().to_owned();
    for (c, lts) in components.iter().enumerate() {
        if let Some(step) = first_refusal(lts, &trace[..=failed]) {
            let action = trace[step].as_ref().to_owned();
            return ReplayError::Refused {
                step,
                action,
                component: ComponentId::must(c),
            };
        }
    }
    ReplayError::NotSynchronised {
        step: failed,
        action,
    }
}

/// The first step of `trace` that `lts` cannot perform on its projection, if any.
fn first_refusal<S: AsRef<str>>(lts: &Lts, trace: &[S]) -> Option<usize> {
    let product = Product::new(&[lts]).ok()?;
    let mut scratch = Scratch::new();
    let mut set = start(&product, &mut scratch);
    for (i, name) in trace.iter().enumerate() {
        if let Some(action) = product.alphabet().get(name.as_ref()) {
            set = step(&product, &set, action, &mut scratch);
            if set.is_empty() {
                return Some(i);
            }
        }
    }
    None
}

/// The violation that `trace` can drive the composition of `components` and the error LTSs of
/// `properties` into, if any: after some prefix of the trace (tau steps included) some reachable
/// tuple is an error tuple. Violations are named as by [`check_safety`](crate::check_safety):
/// components by index, then properties by index.
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic property.
pub fn find_violation<S: AsRef<str>>(
    components: &[&Lts],
    properties: &[&Lts],
    trace: &[S],
) -> Result<Option<Violation>, ComposeError> {
    Ok(first_violation(components, properties, trace)?.map(|(_, v)| v))
}

/// Like [`find_violation`], with the length of the shortest prefix of `trace` that reaches the
/// violation: `trace[..len]` is then a run of the composition that ends in it. A method that
/// checked an adapted system (see [`ErrorActions`](crate::error_actions::ErrorActions)) cuts its
/// counterexample there, since the user's composition stops at the first error.
///
/// ```
/// use guarantor_compose::{replay::first_violation, Violation};
/// use guarantor_lts::{ComponentId, LtsBuilder, StateId};
/// // M = (a -> ERROR) with a local `b` loop at the start.
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "b", StateId::must(0))?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// b.set_error(StateId::must(1))?;
/// let m = b.build()?;
/// let found = first_violation(&[&m], &[], &["b", "a", "b"])?;
/// assert_eq!(found, Some((2, Violation::ErrorState { component: ComponentId::must(0) })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`find_violation`].
pub fn first_violation<S: AsRef<str>>(
    components: &[&Lts],
    properties: &[&Lts],
    trace: &[S],
) -> Result<Option<(usize, Violation)>, ComposeError> {
    let errs = error_ltss(properties.iter().copied())?;
    let all: Vec<&Lts> = components.iter().copied().chain(errs.iter()).collect();
    let product = Product::new(&all)?;
    let mut scratch = Scratch::new();
    let error_in = |set: &Tuples| {
        set.iter()
            .filter_map(|t| product.error_component(t))
            .min()
            .map(|c| Violation::of_member(c, components.len()))
    };
    let mut set = start(&product, &mut scratch);
    for (len, name) in trace.iter().enumerate() {
        if let Some(v) = error_in(&set) {
            return Ok(Some((len, v)));
        }
        if let Some(action) = product.alphabet().get(name.as_ref()) {
            set = step(&product, &set, action, &mut scratch);
        }
    }
    Ok(error_in(&set).map(|v| (trace.len(), v)))
}

/// Whether `trace` drives some property's error LTS to pi or some component into `ERROR` (see
/// [`find_violation`]).
pub fn violates<S: AsRef<str>>(
    components: &[&Lts],
    properties: &[&Lts],
    trace: &[S],
) -> Result<bool, ComposeError> {
    Ok(find_violation(components, properties, trace)?.is_some())
}
