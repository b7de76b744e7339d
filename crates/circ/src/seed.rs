//! Guarantees taken from the components themselves: `g_i = M_i|alpha g_i`, the minimal
//! deterministic LTS of component `i` projected onto its guarantee alphabet.
//!
//! Lemma 6 of the paper says these abstractions satisfy every constraint the synthesis ever adds,
//! and they make every premise `M_i |= S(G_i) > g_i` hold by construction: each trace of `M_i`
//! projects into `g_i`, whatever the other guarantees allow. So when they are small, the only
//! question left at an alphabet is the last premise `S(G_{n+1}) |= P`, and its counterexamples are
//! all abstract errors (Lemma 3 holds trivially), which go straight to `AlphaRefine`. ACR then
//! becomes a refinement loop over alphabets with no SAT search at all, which is what pays on
//! systems whose explosion comes from private actions (customers arriving at a gas station,
//! philosophers picking up forks): projected away, they no longer multiply the state space, and the
//! certificate is still the rule's (guarantees re-checked premise by premise).
//!
//! The SAT synthesis stays the fallback: a projection larger than
//! [`CircConfig::max_projection_states`](crate::CircConfig::max_projection_states), or a last
//! premise that outgrows it times the number of components, hands the current alphabet to it.

use guarantor_lts::ops::determinize::{SubsetProgress, determinize_metered};
use guarantor_lts::ops::{bfs_order, minimize_dfa, project};
use guarantor_lts::{Lts, LtsBuilder, LtsError, StateId};

use crate::error::CircError;
use crate::system::PreparedSystem;

/// `M_c` projected onto the global actions `letters` (the guarantee alphabet), determinised and
/// minimised, with its actions declared in the order of `letters` and its initial state 0 (as the
/// synthesiser builds guarantees). `None` when the determinised projection has more than `cap`
/// states or `keep_going` (told each step of the subset construction) says to stop: it carries
/// the run's deadline, and the caller's limit on the work of all projections.
pub(crate) fn projection(
    sys: &PreparedSystem,
    c: usize,
    letters: &[u32],
    cap: usize,
    keep_going: impl FnMut(&SubsetProgress) -> bool,
) -> Result<Option<Lts>, CircError> {
    let names: Vec<&str> = letters.iter().map(|&a| sys.name(a)).collect();
    let projected = project(&sys.components()[c], names.iter().copied());
    let dfa = match determinize_metered(&projected, cap, keep_going) {
        Ok(dfa) => dfa,
        Err(LtsError::StateLimit { .. } | LtsError::Interrupted) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let minimal = minimize_dfa(&dfa)?;
    Ok(Some(renumbered(&minimal, &names)?))
}

/// `dfa` with its states in breadth-first order from the initial one and every name of `names`
/// declared, in that order (an action the component never takes gets no transition).
fn renumbered(dfa: &Lts, names: &[&str]) -> Result<Lts, CircError> {
    let order = bfs_order(dfa);
    let mut index = vec![usize::MAX; dfa.num_states()];
    for (k, s) in order.iter().enumerate() {
        index[s.index()] = k;
    }
    let mut b = LtsBuilder::new();
    for name in names {
        b.action(name)?;
    }
    b.ensure_states(order.len().max(1))?;
    for (k, &s) in order.iter().enumerate() {
        for edge in dfa.outgoing(s) {
            b.add_transition_named(
                StateId::must(k),
                dfa.alphabet().name(edge.action),
                StateId::must(index[edge.target.index()]),
            )?;
        }
    }
    Ok(b.build()?)
}
