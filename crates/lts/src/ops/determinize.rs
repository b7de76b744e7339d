//! Determinisation by subset construction, tau-aware.
//!
//! Each state of the result is a set of states of the input closed under tau, reachable from the
//! tau-closure of the initial state; only reachable subsets are built, numbered in breadth-first
//! order (the initial subset is state 0). Subsets live in one flat arena (see the `util` module), so the
//! construction allocates per *batch*, not per subset.
//!
//! ## Error state
//! LTSA collapses every violation into one `ERROR` state, and so does this: any subset that contains
//! the input's error state becomes the single error state of the result, which has no outgoing
//! transitions (the error state is absorbing; transitions leaving the input's error state, if any, are
//! ignored). So a trace leads to the error state of the result iff, in the input, it can lead to the
//! error state, and the result's traces stop there.
//!
//! ## Accepting states
//! If the input is an FSM (it has an accepting set), a subset accepts iff it contains an accepting
//! state; the collapsed error state accepts iff the input's error state does. Otherwise the result has
//! no accepting set either.

use bit_set::BitSet;

use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::reach::trim;
use crate::ops::tau::SetCloser;
use crate::ops::util::{CsrWriter, SubsetInterner, sort_dedup};

/// Determinises `lts` (see the [module docs](self) for error and accepting states). The result has no
/// tau transitions and at most one transition per (state, action), and the same alphabet.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::determinize;
/// // s0 -a-> s1, s0 -a-> s2, s1 -b-> s1, s2 -tau-> s3 -c-> s3
/// let mut b = LtsBuilder::new();
/// let s: Vec<_> = (0..4).map(|_| b.add_state()).collect::<Result<_, _>>()?;
/// b.add_transition_named(s[0], "a", s[1])?;
/// b.add_transition_named(s[0], "a", s[2])?;
/// b.add_transition_named(s[1], "b", s[1])?;
/// b.add_transition_named(s[2], "tau", s[3])?;
/// b.add_transition_named(s[3], "c", s[3])?;
/// let dfa = determinize(&b.build()?)?;
/// assert!(dfa.is_deterministic());
/// assert_eq!(dfa.num_states(), 4); // {0}, {1,2,3}, {1}, {3}
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn determinize(lts: &Lts) -> Result<Lts, LtsError> {
    determinize_with_limit(lts, StateId::LIMIT)
}

/// Like [`determinize`], but fails with [`LtsError::StateLimit`] as soon as the result would have
/// more than `max_states` states.
pub fn determinize_with_limit(lts: &Lts, max_states: usize) -> Result<Lts, LtsError> {
    determinize_interruptible(lts, max_states, || true)
}

/// Like [`determinize_with_limit`], but asks `keep_going` before expanding each state of the
/// result and stops with [`LtsError::Interrupted`] as soon as it says `false`. A subset
/// construction can run for a long time below any state limit; this is how a caller's deadline or
/// cancel flag reaches inside it.
///
/// ```
/// use guarantor_lts::{LtsBuilder, LtsError, StateId};
/// use guarantor_lts::ops::determinize_interruptible;
/// // s0 -a-> s0, s0 -a-> s1: nondeterministic, so the subset construction runs.
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(0))?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// let lts = b.build()?;
/// let mut asked = 0;
/// let stopped = determinize_interruptible(&lts, usize::MAX, || {
///     asked += 1;
///     asked < 2
/// });
/// assert_eq!(stopped.unwrap_err(), LtsError::Interrupted);
/// assert_eq!(determinize_interruptible(&lts, usize::MAX, || true)?.num_states(), 2);
/// # Ok::<(), LtsError>(())
/// ```
pub fn determinize_interruptible(
    lts: &Lts,
    max_states: usize,
    mut keep_going: impl FnMut() -> bool,
) -> Result<Lts, LtsError> {
    determinize_metered(lts, max_states, |_| keep_going())
}

/// How far a subset construction has got, as [`determinize_metered`] reports it before expanding
/// each state of the result and once when done: enough for a caller to charge the construction's memory (the
/// subsets' members and the result's transitions grow much faster than its states when subsets
/// are large) and to look at its clock in proportion to the work done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubsetProgress {
    /// Subsets built so far (the states of the result).
    pub subsets: usize,
    /// Their members, summed (each is stored once, as a `u32`).
    pub members: usize,
    /// Transitions of the result written so far.
    pub transitions: usize,
    /// Members and moves gone over since the previous report (the last expansion's work).
    pub work: usize,
}

/// Like [`determinize_interruptible`], but `keep_going` is told how far the construction has got
/// ([`SubsetProgress`]) before each expansion and once at the end, so that it can bound the memory of the subsets and look at a clock in
/// proportion to the work of each expansion (one expansion of a large subset can take
/// milliseconds). Stops with [`LtsError::Interrupted`] as soon as `keep_going` says `false`.
///
/// ```
/// use guarantor_lts::{LtsBuilder, LtsError, StateId};
/// use guarantor_lts::ops::determinize_metered;
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(0))?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// let lts = b.build()?;
/// // At most 2 members in all: {0} fits, {0, 1} does not.
/// let stopped = determinize_metered(&lts, usize::MAX, |p| p.members <= 2);
/// assert_eq!(stopped.unwrap_err(), LtsError::Interrupted);
/// assert_eq!(determinize_metered(&lts, usize::MAX, |p| p.members <= 3)?.num_states(), 2);
/// # Ok::<(), LtsError>(())
/// ```
pub fn determinize_metered(
    lts: &Lts,
    max_states: usize,
    mut keep_going: impl FnMut(&SubsetProgress) -> bool,
) -> Result<Lts, LtsError> {
    // Fast path: on a deterministic LTS every subset is a singleton and the construction is trimming
    // (same breadth-first numbering), unless the error state has transitions to drop.
    if lts.is_deterministic() && lts.error_state().is_none_or(|e| lts.outgoing(e).is_empty()) {
        let trimmed = trim(lts);
        return check_size(trimmed.num_states(), max_states).map(|()| trimmed);
    }
    let error = lts.error_state().map(StateId::as_u32);
    let mut closer = SetCloser::new(lts.num_states());
    let mut subsets = SubsetInterner::new();
    let mut set = vec![lts.initial().as_u32()];
    close_and_collapse(lts, &mut closer, &mut set, error);
    subsets.intern(&set)?;
    check_limit(&subsets, max_states)?;

    let mut out = CsrWriter::with_capacity(1, 0);
    let mut pairs: Vec<(ActionId, u32)> = Vec::new();
    let mut current: Vec<u32> = Vec::new();
    let mut progress = SubsetProgress {
        subsets: subsets.len(),
        members: set.len(),
        transitions: 0,
        work: set.len(),
    };
    while out.num_states() < subsets.len() {
        progress.subsets = subsets.len();
        if !keep_going(&progress) {
            return Err(LtsError::Interrupted);
        }
        progress.work = 0;
        let id = out.num_states() as u32;
        current.clear();
        current.extend_from_slice(subsets.get(id));
        if error.is_none_or(|e| current != [e]) {
            collect_visible_moves(lts, &current, &mut pairs);
            progress.work += current.len() + pairs.len();
            for group in pairs.chunk_by(|x, y| x.0 == y.0) {
                set.clear();
                set.extend(group.iter().map(|&(_, t)| t));
                close_and_collapse(lts, &mut closer, &mut set, error);
                progress.work += set.len();
                let (target, fresh) = subsets.intern(&set)?;
                if fresh {
                    progress.members += set.len();
                    check_limit(&subsets, max_states)?;
                }
                out.push(group[0].0, StateId::from_u32(target));
                progress.transitions += 1;
            }
        }
        out.end_state()?;
    }
    progress.subsets = subsets.len();
    if !keep_going(&progress) {
        return Err(LtsError::Interrupted);
    }

    let accepting = lts.accepting_set().map(|_| {
        (0..subsets.len())
            .filter(|&i| {
                subsets
                    .get(i as u32)
                    .iter()
                    .any(|&s| lts.is_accepting(StateId::from_u32(s)))
            })
            .collect::<BitSet>()
    });
    let error_id = error
        .and_then(|e| find_singleton(&subsets, e))
        .map(StateId::from_u32);
    out.finish(
        lts.alphabet().clone(),
        StateId::must(0),
        error_id,
        accepting,
    )
}

/// All visible `(action, target)` moves of the states in `set`, sorted and deduplicated.
fn collect_visible_moves(lts: &Lts, set: &[u32], pairs: &mut Vec<(ActionId, u32)>) {
    pairs.clear();
    for &s in set {
        pairs.extend(
            lts.outgoing(StateId::from_u32(s))
                .iter()
                .filter(|e| !e.action.is_tau())
                .map(|e| (e.action, e.target.as_u32())),
        );
    }
    sort_dedup(pairs);
}

/// Tau-closes `set`; a set containing the error state becomes `[error]`.
fn close_and_collapse(lts: &Lts, closer: &mut SetCloser, set: &mut Vec<u32>, error: Option<u32>) {
    closer.close(lts, set);
    if let Some(e) = error
        && set.binary_search(&e).is_ok()
    {
        set.clear();
        set.push(e);
    }
}

fn check_limit(subsets: &SubsetInterner, limit: usize) -> Result<(), LtsError> {
    check_size(subsets.len(), limit)
}

fn check_size(size: usize, limit: usize) -> Result<(), LtsError> {
    if size > limit {
        Err(LtsError::StateLimit { limit })
    } else {
        Ok(())
    }
}

/// The id of the subset `[e]`, if it was built.
fn find_singleton(subsets: &SubsetInterner, e: u32) -> Option<u32> {
    (0..subsets.len() as u32).find(|&i| subsets.get(i) == [e])
}
