//! Assume-guarantee premises: the triple `<A> M <P>` ([`check_triple`]) and the circular premise
//! `M |= A > P` of Elkader et al. ([`check_circular_premise`]).
//!
//! Both are safety checks of `M` composed with assumptions and a property's error LTS, so both
//! return a [`SafetyReport`] whose counterexample is a trace of the whole composition.
//!
//! **Assumptions as safety LTSs.** An assumption constrains `M` by what it *allows*. Learned
//! assumptions are DFAs with a rejecting sink, LTSA assumptions may contain `ERROR`, complements are
//! FSMs with accepting states; [`safety_assumption`] reads all of them the same way: a state that is
//! the error state or is not accepting is *rejecting*, and a trace that would enter a rejecting
//! state is not in L(A). So rejecting states are removed with every transition into them. An LTS
//! always has the empty trace, so if the initial state rejects, A becomes one state offering
//! nothing: it allows the empty trace only and blocks every action of its alphabet (actions outside
//! it, and tau steps of the other components, still move). For prefix-closed languages — the only
//! ones a safety assumption can denote — this is exactly L(A), up to that convention for the empty
//! trace.

use guarantor_lts::{ActionId, ComponentId, Lts, LtsBuilder, PropertyId, StateId};

use crate::config::Config;
use crate::engine::explore::{Hit, Visitor, search};
use crate::error::ComposeError;
use crate::error_lts::error_lts;
use crate::product::Product;
use crate::safety::{SafetyReport, check_safety, report};
use crate::verdict::Violation;

/// The safety reading of an assumption (see the module docs): rejecting states (the error state
/// and, in an FSM, non-accepting states) lose every incoming transition; the result has no error
/// state and no accepting set, and keeps state numbers and the alphabet.
///
/// ```
/// use guarantor_compose::ag::safety_assumption;
/// use guarantor_lts::{LtsBuilder, StateId};
/// // A learned DFA: state 1 is the rejecting sink.
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "ok", StateId::must(0))?;
/// b.add_transition_named(StateId::must(0), "bad", StateId::must(1))?;
/// b.set_accepting(StateId::must(0), true)?;
/// let a = safety_assumption(&b.build()?)?;
/// assert_eq!(a.num_transitions(), 1); // only `ok`; `bad` is now blocked
/// assert_eq!(a.alphabet().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn safety_assumption(assumption: &Lts) -> Result<Lts, ComposeError> {
    let rejects = |s: StateId| assumption.is_error(s) || !assumption.is_accepting(s);
    let mut b = LtsBuilder::with_alphabet(assumption.alphabet().clone());
    if rejects(assumption.initial()) {
        b.add_state()?;
        return Ok(b.build()?);
    }
    b.ensure_states(assumption.num_states())?;
    b.set_initial(assumption.initial())?;
    for t in assumption
        .transitions()
        .filter(|t| !rejects(t.source) && !rejects(t.target))
    {
        b.add_transition(t.source, t.action, t.target)?;
    }
    Ok(b.build()?)
}

/// Checks the assume-guarantee triple `<A> M <P>`: pi is unreachable in `A || M || P_err`, with `A`
/// read by [`safety_assumption`].
///
/// Violations are named as by [`check_safety`] on the components `[M, A]`:
/// [`Violation::Property`] `{ property: p0 }` for `P`, [`Violation::ErrorState`] `{ component: c0 }`
/// when `M` reaches its `ERROR` (the assumption never does, having lost its rejecting states).
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic `P`; budget errors.
pub fn check_triple(
    assumption: &Lts,
    component: &Lts,
    property: &Lts,
    config: &Config,
) -> Result<SafetyReport, ComposeError> {
    let a = safety_assumption(assumption)?;
    check_safety(&[component, &a], &[property], config)
}

/// Checks the circular premise `M |= A > P` of Elkader et al.: for every trace of `M` of length k,
/// if its first k-1 steps are allowed by the assumptions (their composition, each read by
/// [`safety_assumption`]), the whole trace satisfies the guarantee `P`.
///
/// It is checked on `M || A1 || ... || An || P_err`: a violation is a reachable tuple from which `M`
/// offers an action `a` on which `P_err` goes to pi — whether or not the assumptions allow `a` — or
/// on which `M` enters its `ERROR`; and, as in any safety check, a reachable error tuple (an action
/// of `P` that `M` does not have may move `P_err` to pi on its own). The counterexample includes
/// that last step, and its violation is [`Violation::Property`] `{ property: p0 }` (the guarantee) or
/// [`Violation::ErrorState`] `{ component: c0 }` (`M`).
///
/// ```
/// use guarantor_compose::{ag::check_circular_premise, Config};
/// use guarantor_lts::{LtsBuilder, StateId};
/// # fn lts(n: usize, edges: &[(usize, &str, usize)], also: &[&str]) -> guarantor_lts::Lts {
/// #     let mut b = LtsBuilder::new();
/// #     b.ensure_states(n).unwrap();
/// #     for &(s, a, t) in edges { b.add_transition_named(StateId::must(s), a, StateId::must(t)).unwrap(); }
/// #     for a in also { b.action(a).unwrap(); }
/// #     b.build().unwrap()
/// # }
/// let m = lts(2, &[(0, "req", 1), (1, "grant", 0), (0, "grant", 0)], &[]);
/// let never_grant = lts(1, &[(0, "req", 0)], &["grant"]); // allows req only
/// let grant_after_req = lts(2, &[(0, "req", 1), (1, "grant", 0)], &[]);
/// // Even an assumption that forbids `grant` cannot hide the *last* step: M may grant first.
/// let report = check_circular_premise(&m, &[&never_grant], &grant_after_req, &Config::default())?;
/// assert_eq!(report.verdict.counterexample().unwrap().trace, ["grant"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic guarantee; budget errors.
pub fn check_circular_premise(
    component: &Lts,
    assumptions: &[&Lts],
    guarantee: &Lts,
    config: &Config,
) -> Result<SafetyReport, ComposeError> {
    let mut budget = config.budget()?;
    let p_err = error_lts(guarantee)?;
    let safe = assumptions
        .iter()
        .map(|a| safety_assumption(a))
        .collect::<Result<Vec<_>, _>>()?;
    let all: Vec<&Lts> = [component, &p_err].into_iter().chain(safe.iter()).collect();
    let product = Product::new(&all)?;
    let links = Links::new(&product);
    let (cex, stats) = search(
        &product,
        || Circular {
            product: &product,
            links: &links,
        },
        &mut budget,
    )?;
    Ok(report(cex, stats))
}

/// For each local action of `M`: its product id and its id in `P_err`, if `P` observes it.
#[derive(Debug)]
struct Links {
    to_product: Vec<ActionId>,
    to_property: Vec<Option<ActionId>>,
}

impl Links {
    fn new(product: &Product<'_>) -> Self {
        let (m, p) = (product.components()[0], product.components()[1]);
        let ids = ActionId::range(m.alphabet().id_bound());
        let to_product = ids
            .clone()
            .map(|a| {
                product
                    .alphabet()
                    .get(m.action_name(a))
                    .unwrap_or(ActionId::TAU)
            })
            .collect();
        let to_property = ids
            .map(|a| {
                if a.is_tau() {
                    None
                } else {
                    p.alphabet().get(m.action_name(a))
                }
            })
            .collect();
        Self {
            to_product,
            to_property,
        }
    }
}

/// The premise's visitor: stops at error tuples and at one free last step of `M`.
struct Circular<'p, 'a> {
    product: &'p Product<'a>,
    links: &'p Links,
}

impl Visitor for Circular<'_, '_> {
    fn error(&mut self, _: Option<u32>, _: ActionId, component: usize) -> Option<Violation> {
        Some(Violation::of_member(component, 1))
    }

    fn expand(&mut self, id: u32, tuple: &[StateId]) -> Option<Hit> {
        let (m, p_err) = (self.product.components()[0], self.product.components()[1]);
        m.outgoing(tuple[0]).iter().find_map(|e| {
            let violation = if m.is_error(e.target) {
                Violation::ErrorState {
                    component: ComponentId::must(0),
                }
            } else {
                let pa = self.links.to_property[e.action.index()]?;
                // P_err is complete over its alphabet and deterministic: exactly one edge.
                let next = p_err.successors(tuple[1], pa).next()?;
                if !p_err.is_error(next) {
                    return None;
                }
                Violation::Property {
                    property: PropertyId::must(0),
                }
            };
            let last = Some(self.links.to_product[e.action.index()]);
            Some(Hit {
                state: Some(id),
                last,
                violation,
            })
        })
    }
}
