//! Completion with a rejecting sink, and complement.
//!
//! Both produce finite-state machines (LTSs with an accepting set), because completing a
//! prefix-closed LTS only makes sense if the new sink can reject:
//! - [`complete`](fn@complete) adds one sink state that receives every missing (state, visible
//!   action) pair and loops on every visible action. The sink rejects. If the input has no accepting
//!   set, all its original states become accepting, so the result accepts exactly the input's traces.
//!   The error state is completed like any other state and stays the error state.
//! - [`complement`] accepts exactly the traces over the input's alphabet that the input does not
//!   accept (trace semantics of [`trace`](crate::ops::trace): the error state is an ordinary state).
//!   It drops the error marker, determinises if needed, completes, and flips acceptance.

use bit_set::BitSet;

use crate::error::LtsError;
use crate::id::StateId;
use crate::lts::Lts;
use crate::ops::determinize::determinize;
use crate::ops::util::CsrWriter;

/// Adds a rejecting sink for every missing visible transition (see the [module docs](self)). If no
/// transition is missing, no sink is added. Meant for deterministic LTSs: a missing action is one the
/// state itself does not offer, whatever its tau successors offer.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::complete;
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.action("b")?;
/// let c = complete(&b.build()?)?;
/// assert_eq!(c.num_states(), 3); // plus the sink
/// assert_eq!(c.num_transitions(), 1 + 3 + 2); // 3 missing pairs, 2 sink loops
/// assert!(!c.is_accepting(guarantor_lts::StateId::must(2)));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn complete(lts: &Lts) -> Result<Lts, LtsError> {
    let n = lts.num_states();
    let visible = lts.alphabet().len();
    let missing = lts
        .states()
        .any(|s| lts.enabled(s).filter(|a| !a.is_tau()).count() < visible);
    let sink = StateId::new(n)?;
    let mut w = CsrWriter::with_capacity(n + 1, lts.num_transitions() + n);
    for s in lts.states() {
        w.extend(lts.outgoing(s));
        if missing {
            // Both lists are sorted by action, so one merge finds the gaps.
            let mut enabled = lts.enabled(s).filter(|a| !a.is_tau()).peekable();
            for a in lts.alphabet().visible() {
                if enabled.next_if_eq(&a).is_none() {
                    w.push(a, sink);
                }
            }
        }
        w.end_state()?;
    }
    if missing {
        for a in lts.alphabet().visible() {
            w.push(a, sink);
        }
        w.end_state()?;
    }
    let accepting = lts
        .accepting_set()
        .cloned()
        .unwrap_or_else(|| (0..n).collect::<BitSet>());
    w.finish(
        lts.alphabet().clone(),
        lts.initial(),
        lts.error_state(),
        Some(accepting),
    )
}

/// An FSM accepting exactly the traces over `lts`'s alphabet that `lts` does not accept. The result
/// is deterministic and complete, has no error state, and keeps the alphabet.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::{accepts_trace_named, complement};
/// let mut b = LtsBuilder::new();
/// let [s0, s1] = [b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s1, "b", s0)?;
/// let not_ab = complement(&b.build()?)?;
/// assert!(accepts_trace_named(&not_ab, &["b"]));
/// assert!(!accepts_trace_named(&not_ab, &["a", "b", "a"]));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn complement(lts: &Lts) -> Result<Lts, LtsError> {
    let mut plain = lts.clone();
    plain.error = None;
    let dfa = if plain.is_deterministic() {
        plain
    } else {
        determinize(&plain)?
    };
    let mut full = complete(&dfa)?;
    let acc = full.accepting.take().unwrap_or_default();
    full.accepting = Some(
        (0..full.num_states())
            .filter(|&s| !acc.contains(s))
            .collect(),
    );
    Ok(full)
}
