//! Minimisation of deterministic LTSs (partial DFAs) by Hopcroft-style partition refinement.
//!
//! The algorithm is Valmari and Lehtinen's formulation of Hopcroft's algorithm for *partial* DFAs
//! (2008): two refinable partitions, one of states into blocks and one of transitions into "cords"
//! (transitions with the same label into the same block), refined against each other with the
//! smaller-half rule. It runs in O(m log n) for m transitions and n states and never materialises the
//! implicit sink that missing transitions lead to — completing a DFA first would cost n × |alphabet|
//! extra transitions, the very thing partial LTSs avoid.
//!
//! ## What "minimal" means here
//! A missing transition goes to an implicit rejecting sink. States are equivalent iff they accept the
//! same language *and* reach the error state by the same traces:
//! - without an accepting set, every state accepts, so the language is the prefix-closed set of
//!   traces (the usual LTS reading);
//! - with an accepting set, the accepted language (states that cannot reach an accepting state, nor
//!   the error state, are equivalent to the sink and removed with their transitions).
//!
//! The error state is its own initial class and is absorbing (its outgoing transitions, if any, are
//! ignored, as in [`determinize`](mod@crate::ops::determinize)). The result is trimmed, numbered
//! breadth-first from the initial state, and keeps the input's alphabet and the FSM-ness of the input.
//! Rejected alternative: Moore's round-based refinement, which is O(n² m) in the worst case.

use bit_set::BitSet;

use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::reach::bfs_order;
use crate::ops::util::{CsrWriter, Partition};

/// The minimal deterministic LTS with the same language as the deterministic `lts` (see the
/// [module docs](self) for the exact equivalence). Fails with [`LtsError::NotDeterministic`] if `lts`
/// has a tau transition or two transitions on one action from one state; determinise first with
/// [`determinize`](crate::ops::determinize()).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::minimize_dfa;
/// // a a-loop unrolled three times: s0 -a-> s1 -a-> s2 -a-> s0
/// let mut b = LtsBuilder::new();
/// let s: Vec<_> = (0..3).map(|_| b.add_state()).collect::<Result<_, _>>()?;
/// for i in 0..3 {
///     b.add_transition_named(s[i], "a", s[(i + 1) % 3])?;
/// }
/// let min = minimize_dfa(&b.build()?)?;
/// assert_eq!((min.num_states(), min.num_transitions()), (1, 1));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn minimize_dfa(lts: &Lts) -> Result<Lts, LtsError> {
    minimize_dfa_interruptible(lts, |_| true)
}

/// Like [`minimize_dfa`], but tells `keep_going` the work done (transitions and states gone
/// over) since it last asked, once per splitter of the refinement, and stops with
/// [`LtsError::Interrupted`] as soon as it says `false`: minimising a DFA of a million states
/// takes seconds, and this is how a caller's deadline or cancel flag reaches inside it.
///
/// ```
/// use guarantor_lts::{LtsBuilder, LtsError, StateId};
/// use guarantor_lts::ops::minimize_dfa_interruptible;
/// let mut b = LtsBuilder::new();
/// b.ensure_states(3)?;
/// for i in 0..3 {
///     b.add_transition_named(StateId::must(i), "a", StateId::must((i + 1) % 3))?;
/// }
/// let lts = b.build()?;
/// let stopped = minimize_dfa_interruptible(&lts, |_| false);
/// assert_eq!(stopped.unwrap_err(), LtsError::Interrupted);
/// assert_eq!(minimize_dfa_interruptible(&lts, |_| true)?.num_states(), 1);
/// # Ok::<(), LtsError>(())
/// ```
pub fn minimize_dfa_interruptible(
    lts: &Lts,
    keep_going: impl FnMut(usize) -> bool,
) -> Result<Lts, LtsError> {
    if let Some((s, a)) = lts.first_nondeterminism() {
        return Err(LtsError::NotDeterministic {
            state: s.index(),
            action: lts.action_name(a).to_owned(),
            count: lts.outgoing_on(s, a).len(),
        });
    }
    let states = relevant_states(lts);
    let Some(&first) = states.first() else {
        return Ok(empty_language(lts));
    };
    debug_assert_eq!(first, lts.initial());
    let mut local = vec![u32::MAX; lts.num_states()];
    for (i, s) in states.iter().enumerate() {
        local[s.index()] = i as u32;
    }
    let graph = LocalGraph::new(lts, &states, &local);
    let blocks = refine(lts, &states, &graph, keep_going).ok_or(LtsError::Interrupted)?;
    quotient_dfa(lts, &states, &local, &blocks)
}

/// The reachable states from which an accepting state or the error state is reachable, in BFS order
/// (initial first); empty if the initial state is not among them.
fn relevant_states(lts: &Lts) -> Vec<StateId> {
    let order = bfs_order(lts);
    if lts.accepting_set().is_none() {
        return order;
    }
    // Backward search from the important states, over reachable transitions only.
    let n = lts.num_states();
    let mut preds_off = vec![0u32; n + 1];
    for t in lts.transitions() {
        preds_off[t.target.index() + 1] += 1;
    }
    for i in 0..n {
        preds_off[i + 1] += preds_off[i];
    }
    let mut fill = preds_off.clone();
    let mut preds = vec![0u32; lts.num_transitions()];
    for t in lts.transitions().filter(|t| !lts.is_error(t.source)) {
        preds[fill[t.target.index()] as usize] = t.source.as_u32();
        fill[t.target.index()] += 1;
    }
    let mut good = BitSet::with_capacity(n);
    let mut stack: Vec<u32> = Vec::new();
    for s in lts
        .states()
        .filter(|&s| lts.is_accepting(s) || lts.is_error(s))
    {
        good.insert(s.index());
        stack.push(s.as_u32());
    }
    while let Some(s) = stack.pop() {
        let s = s as usize;
        for &p in &preds[preds_off[s] as usize..fill[s] as usize] {
            if good.insert(p as usize) {
                stack.push(p);
            }
        }
    }
    if good.contains(lts.initial().index()) {
        order
            .into_iter()
            .filter(|s| good.contains(s.index()))
            .collect()
    } else {
        Vec::new()
    }
}

/// An FSM with one rejecting state: the minimal automaton of the empty language.
fn empty_language(lts: &Lts) -> Lts {
    let mut w = CsrWriter::with_capacity(1, 0);
    w.end_state().expect("one state fits");
    w.finish(
        lts.alphabet().clone(),
        StateId::must(0),
        None,
        Some(BitSet::new()),
    )
    .expect("state 0 exists")
}

/// The kept transitions over local state numbers, with incoming lists per state.
struct LocalGraph {
    tail: Vec<u32>,
    label: Vec<ActionId>,
    /// `in_off[s]..in_off[s + 1]` indexes `incoming`, the transitions entering local state `s`.
    in_off: Vec<u32>,
    incoming: Vec<u32>,
}

impl LocalGraph {
    fn new(lts: &Lts, states: &[StateId], local: &[u32]) -> Self {
        let mut tail = Vec::new();
        let mut label = Vec::new();
        let mut head = Vec::new();
        for (i, &s) in states.iter().enumerate() {
            if lts.is_error(s) {
                continue; // absorbing
            }
            for e in lts.outgoing(s) {
                let t = local[e.target.index()];
                if t != u32::MAX {
                    tail.push(i as u32);
                    label.push(e.action);
                    head.push(t);
                }
            }
        }
        let mut in_off = vec![0u32; states.len() + 1];
        for &h in &head {
            in_off[h as usize + 1] += 1;
        }
        for i in 0..states.len() {
            in_off[i + 1] += in_off[i];
        }
        let mut fill = in_off.clone();
        let mut incoming = vec![0u32; head.len()];
        for (t, &h) in head.iter().enumerate() {
            incoming[fill[h as usize] as usize] = t as u32;
            fill[h as usize] += 1;
        }
        Self {
            tail,
            label,
            in_off,
            incoming,
        }
    }
}

/// Runs the refinement; returns the block of every local state, or `None` once `keep_going`
/// (asked once per splitter, with the work since it was last asked) says `false`.
fn refine(
    lts: &Lts,
    states: &[StateId],
    g: &LocalGraph,
    mut keep_going: impl FnMut(usize) -> bool,
) -> Option<Vec<u32>> {
    let class = |i: u32| {
        let s = states[i as usize];
        (lts.is_error(s), lts.is_accepting(s))
    };
    let mut blocks = Partition::grouped_by(states.len(), class);
    let mut cords = Partition::grouped_by(g.tail.len(), |t| g.label[t as usize]);
    let (mut b, mut c) = (1, 0);
    let mut work = states.len() + g.tail.len();
    while c < cords.len() {
        if !keep_going(std::mem::take(&mut work)) {
            return None;
        }
        work += cords.range(c).len();
        for i in cords.range(c) {
            blocks.mark(g.tail[cords.elems[i] as usize]);
        }
        blocks.split();
        c += 1;
        while b < blocks.len() {
            for i in blocks.range(b) {
                let s = blocks.elems[i] as usize;
                let incoming = &g.incoming[g.in_off[s] as usize..g.in_off[s + 1] as usize];
                work += 1 + incoming.len();
                for &t in incoming {
                    cords.mark(t);
                }
            }
            cords.split();
            b += 1;
        }
    }
    Some(blocks.into_sets())
}

/// Builds the quotient by `blocks`, trimmed and numbered breadth-first.
fn quotient_dfa(
    lts: &Lts,
    states: &[StateId],
    local: &[u32],
    blocks: &[u32],
) -> Result<Lts, LtsError> {
    let num_blocks = blocks.iter().max().map_or(0, |&m| m as usize + 1);
    // A representative original state per block, and the BFS numbering of blocks.
    let mut rep = vec![StateId::must(0); num_blocks];
    for (i, &s) in states.iter().enumerate().rev() {
        rep[blocks[i] as usize] = s;
    }
    let block_of = |s: StateId| {
        Some(local[s.index()])
            .filter(|&l| l != u32::MAX)
            .map(|l| blocks[l as usize])
    };
    let mut number = vec![u32::MAX; num_blocks];
    let mut order = vec![blocks[0]];
    number[blocks[0] as usize] = 0;
    let mut w = CsrWriter::with_capacity(num_blocks, lts.num_transitions());
    let mut i = 0;
    while i < order.len() {
        let s = rep[order[i] as usize];
        if !lts.is_error(s) {
            for e in lts.outgoing(s) {
                let Some(tb) = block_of(e.target) else {
                    continue;
                };
                if number[tb as usize] == u32::MAX {
                    number[tb as usize] = order.len() as u32;
                    order.push(tb);
                }
                w.push(e.action, StateId::from_u32(number[tb as usize]));
            }
        }
        w.end_state()?;
        i += 1;
    }
    let error = lts
        .error_state()
        .and_then(block_of)
        .map(|b| number[b as usize])
        .filter(|&n| n != u32::MAX)
        .map(StateId::from_u32);
    let accepting = lts.accepting_set().map(|_| {
        order
            .iter()
            .enumerate()
            .filter(|&(_, &b)| lts.is_accepting(rep[b as usize]))
            .map(|(n, _)| n)
            .collect()
    });
    w.finish(lts.alphabet().clone(), StateId::must(0), error, accepting)
}
