//! Strong bisimulation: the coarsest equivalence that preserves every transition label, tau included.
//!
//! [`strong_bisimulation_classes`] computes the classes by *incremental signature refinement*. The
//! signature of a state is the set of (action, block of target) pairs it has; a partition is a strong
//! bisimulation iff all members of each block have equal signatures. Starting from the partition by
//! (error?, accepting?), each round recomputes the signatures of the *dirty* states only — those with
//! a successor whose block number changed in the previous round — plus one clean member per touched
//! block (clean members of a block still share one signature), and splits the touched blocks by
//! signature. The largest part of a split keeps the old block number (the "smaller half" rule), so a
//! state changes number at most log2(n) times and the total work is O(m·d·log n) for m transitions,
//! n states and maximum out-degree d (plus sorting signatures), instead of the O(n·m) of recomputing
//! every signature each round, which is quadratic on long chains. Paige–Tarjan reaches O(m log n)
//! without the factor d, at the price of counters per (state, block, action) and a three-way split;
//! we chose the signature form because it is much simpler and d is small in the LTSs we minimise.
//! Signatures live in one reused arena; nothing is allocated per state.
//!
//! Tau is an ordinary label here (strong, not weak, bisimulation). [`quotient`] builds the LTS of any
//! partition; [`minimize_strong`] trims, computes the classes and returns the quotient.

use rustc_hash::FxHashMap;

use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;
use crate::ops::reach::trim_mapped;
use crate::ops::util::{Block, CsrWriter, Partition, sort_dedup_from};

/// The strong-bisimulation class of every state: `classes[s]` is the class of state `s`. Classes are
/// numbered densely in order of their first state (the class of state 0 is 0). The error state and
/// accepting status are respected (two states are only equivalent if both or neither are the error
/// state, and both or neither accept).
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::strong_bisimulation_classes;
/// // s0 -a-> s1, s0 -a-> s2, s1 and s2 both deadlock: they are bisimilar.
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// b.add_transition_named(s0, "a", s1)?;
/// b.add_transition_named(s0, "a", s2)?;
/// assert_eq!(strong_bisimulation_classes(&b.build()?), [0, 1, 1]);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
pub fn strong_bisimulation_classes(lts: &Lts) -> Vec<u32> {
    let preds = Predecessors::new(lts);
    let mut part = Partition::grouped_by(lts.num_states(), |s| {
        let s = StateId::from_u32(s);
        (lts.is_error(s), lts.is_accepting(s))
    });
    let mut round = Round::default();
    let mut stamp = vec![0u32; lts.num_states()];
    let mut dirty: Vec<u32> = (0..lts.num_states() as u32).collect();
    let mut changed = Vec::new();
    for epoch in 1.. {
        if dirty.is_empty() {
            break;
        }
        round.collect_signatures(lts, &mut part, &dirty);
        changed.clear();
        round.split_blocks(&mut part, &mut changed);
        // The next round looks again at exactly the states with a successor that changed block.
        dirty.clear();
        for &t in &changed {
            for &s in preds.of(t) {
                if stamp[s as usize] != epoch {
                    stamp[s as usize] = epoch;
                    dirty.push(s);
                }
            }
        }
    }
    let mut classes = part.into_sets();
    renumber_by_first_occurrence(&mut classes);
    classes
}

/// The sources of the transitions entering each state (with repetitions), CSR-style.
struct Predecessors {
    offsets: Vec<u32>,
    sources: Vec<u32>,
}

impl Predecessors {
    fn new(lts: &Lts) -> Self {
        let n = lts.num_states();
        let mut offsets = vec![0u32; n + 1];
        for t in lts.transitions() {
            offsets[t.target.index() + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut sources = vec![0u32; lts.num_transitions()];
        for t in lts.transitions() {
            sources[fill[t.target.index()] as usize] = t.source.as_u32();
            fill[t.target.index()] += 1;
        }
        Self { offsets, sources }
    }

    fn of(&self, t: u32) -> &[u32] {
        &self.sources[self.offsets[t as usize] as usize..self.offsets[t as usize + 1] as usize]
    }
}

/// A block touched in a round.
struct Touched {
    block: u32,
    /// The arena range of one clean member's signature, if the block has clean members.
    rep: Option<(usize, usize)>,
    /// The range of `Round::entries` holding the block's dirty members.
    entries: std::ops::Range<usize>,
}

/// Scratch space of one refinement round, reused across rounds.
#[derive(Default)]
struct Round {
    /// Signatures, back to back.
    arena: Vec<Move>,
    /// The blocks touched in this round.
    blocks: Vec<Touched>,
    /// (state, signature start, signature end) of each dirty state, grouped by block.
    entries: Vec<(u32, usize, usize)>,
    /// Where the block being split is cut into parts.
    cuts: Vec<usize>,
}

impl Round {
    /// Marks the dirty states and computes their signatures, and one clean member's signature per
    /// touched block, all against the block numbering at the start of the round.
    fn collect_signatures(&mut self, lts: &Lts, part: &mut Partition, dirty: &[u32]) {
        self.arena.clear();
        self.blocks.clear();
        self.entries.clear();
        for &s in dirty {
            part.mark(s);
        }
        for b in std::mem::take(&mut part.touched) {
            let Block {
                first,
                past: end,
                marked,
            } = part.blocks[b as usize];
            let from = self.entries.len();
            for i in first..first + marked {
                let s = part.elems[i as usize];
                let (lo, hi) = self.signature(lts, part, s);
                self.entries.push((s, lo, hi));
            }
            let rep = (first + marked < end)
                .then(|| self.signature(lts, part, part.elems[(first + marked) as usize]));
            self.blocks.push(Touched {
                block: b,
                rep,
                entries: from..self.entries.len(),
            });
        }
    }

    /// Appends the signature of `s` (sorted, deduplicated) to the arena; returns its range.
    fn signature(&mut self, lts: &Lts, part: &Partition, s: u32) -> (usize, usize) {
        let start = self.arena.len();
        let out = lts.outgoing(StateId::from_u32(s));
        self.arena.extend(
            out.iter()
                .map(|e| (e.action, part.set_of(e.target.as_u32()))),
        );
        sort_dedup_from(&mut self.arena, start);
        (start, self.arena.len())
    }

    /// Splits every touched block by signature. The largest part keeps the block's number; the
    /// states of the other parts get new numbers and are appended to `changed`.
    fn split_blocks(&mut self, part: &mut Partition, changed: &mut Vec<u32>) {
        let Self {
            arena,
            blocks,
            entries: all_entries,
            cuts,
        } = self;
        let sig = |&(_, lo, hi): &(u32, usize, usize)| &arena[lo..hi];
        for t in blocks.iter() {
            let (bi, rep) = (t.block as usize, t.rep);
            let Block { first, past, .. } = part.blocks[bi];
            let (first, end) = (first as usize, past as usize);
            part.blocks[bi].marked = 0;
            let entries = &mut all_entries[t.entries.clone()];
            let rep_sig = rep.map(|(lo, hi)| &arena[lo..hi]);
            // Dirty states like the clean ones go last, next to the clean part; the rest sorted.
            entries.sort_unstable_by(|x, y| {
                (Some(sig(x)) == rep_sig)
                    .cmp(&(Some(sig(y)) == rep_sig))
                    .then_with(|| sig(x).cmp(sig(y)))
            });
            for (k, &(s, ..)) in entries.iter().enumerate() {
                part.place(s, first + k);
            }
            // Cut the block's range into parts of equal signature; the clean part joins the last.
            cuts.clear();
            cuts.push(first);
            for k in 1..entries.len() {
                if sig(&entries[k - 1]) != sig(&entries[k]) {
                    cuts.push(first + k);
                }
            }
            let stays_with_clean = entries.last().is_some_and(|e| Some(sig(e)) == rep_sig);
            if rep.is_some() && !stays_with_clean {
                cuts.push(first + entries.len());
            }
            cuts.push(end);
            cuts.dedup();
            split_into(part, bi, cuts, changed);
        }
    }
}

/// Splits block `b` at the positions `cuts` (first..past, strictly increasing). The largest part
/// keeps number `b`.
fn split_into(part: &mut Partition, b: usize, cuts: &[usize], changed: &mut Vec<u32>) {
    if cuts.len() <= 2 {
        return;
    }
    let largest = (0..cuts.len() - 1)
        .max_by_key(|&k| cuts[k + 1] - cuts[k])
        .unwrap_or(0);
    for k in 0..cuts.len() - 1 {
        let (lo, hi) = (cuts[k] as u32, cuts[k + 1] as u32);
        if k == largest {
            part.blocks[b].first = lo;
            part.blocks[b].past = hi;
            continue;
        }
        part.new_set(lo, hi);
        changed.extend_from_slice(&part.elems[lo as usize..hi as usize]);
    }
}

/// One entry of a signature: an action and the block of its target.
type Move = (ActionId, u32);

/// Renumbers labels densely in order of first occurrence; returns how many there are.
pub(crate) fn renumber_by_first_occurrence(labels: &mut [u32]) -> usize {
    let mut map: FxHashMap<u32, u32> = FxHashMap::default();
    for l in labels.iter_mut() {
        let fresh = map.len() as u32;
        *l = *map.entry(*l).or_insert(fresh);
    }
    map.len()
}

/// The largest `(action, block)` table [`quotient`] uses to drop repeated edges (4 MiB).
const QUOTIENT_STAMP_LIMIT: usize = 1 << 20;

/// The quotient of `lts` by the partition `classes` (`classes[s]` is the block of state `s`): block
/// `i` becomes state `i`, with a transition `i -a-> j` whenever some member of `i` has an
/// `a`-transition to some member of `j`. The initial state is the block of the initial state; the
/// error state the block of the error state; a block accepts if some member accepts (if `lts` is an
/// FSM). The numbering of blocks is kept, so the result is not trimmed.
///
/// Any partition may be given; for a bisimulation (such as [`strong_bisimulation_classes`]) the
/// quotient is bisimilar to `lts`.
///
/// # Panics
/// Panics if `classes.len()` is not the number of states of `lts`.
pub fn quotient(lts: &Lts, classes: &[u32]) -> Result<Lts, LtsError> {
    assert_eq!(classes.len(), lts.num_states(), "one class per state");
    let num_blocks = classes.iter().max().map_or(0, |&m| m as usize + 1);
    // Counting sort of the states by block, so each block's row is written in one go.
    let mut start = vec![0usize; num_blocks + 1];
    for &c in classes {
        start[c as usize + 1] += 1;
    }
    for i in 0..num_blocks {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut members = vec![StateId::must(0); classes.len()];
    for s in lts.states() {
        let c = classes[s.index()] as usize;
        members[fill[c]] = s;
        fill[c] += 1;
    }
    let mut w = CsrWriter::with_capacity(num_blocks, lts.num_transitions());
    // A coarse quotient maps many edges onto one: drop repeats as they come (a stamp per
    // `(action, target block)`), so the row sort sees each edge once. Only when the table is
    // small next to the transitions: a fine quotient has few repeats and would pay to clear it.
    let actions = lts.alphabet().id_bound();
    let mut stamp = match actions.checked_mul(num_blocks) {
        Some(cells) if cells <= QUOTIENT_STAMP_LIMIT.min(lts.num_transitions()) => {
            vec![u32::MAX; cells]
        }
        _ => Vec::new(),
    };
    for b in 0..num_blocks {
        for &s in &members[start[b]..start[b + 1]] {
            for e in lts.outgoing(s) {
                let target = classes[e.target.index()];
                if !stamp.is_empty() {
                    let cell = &mut stamp[e.action.index() * num_blocks + target as usize];
                    if *cell == b as u32 {
                        continue;
                    }
                    *cell = b as u32;
                }
                w.push(e.action, StateId::from_u32(target));
            }
        }
        w.end_state()?;
    }
    let block = |s: StateId| StateId::from_u32(classes[s.index()]);
    let accepting = lts
        .accepting_set()
        .map(|acc| acc.iter().map(|s| classes[s] as usize).collect());
    w.finish(
        lts.alphabet().clone(),
        block(lts.initial()),
        lts.error_state().map(block),
        accepting,
    )
}

/// The strong-bisimulation quotient of the reachable part of `lts`: the smallest LTS strongly
/// bisimilar to it, numbered breadth-first from the initial state.
///
/// ```
/// use guarantor_lts::LtsBuilder;
/// use guarantor_lts::ops::minimize_strong;
/// // Two copies of an a-loop reachable by tau: s0 -tau-> s1 -a-> s1, s0 -tau-> s2 -a-> s2
/// let mut b = LtsBuilder::new();
/// let [s0, s1, s2] = [b.add_state()?, b.add_state()?, b.add_state()?];
/// for s in [s1, s2] {
///     b.add_transition_named(s0, "tau", s)?;
///     b.add_transition_named(s, "a", s)?;
/// }
/// let min = minimize_strong(&b.build()?);
/// assert_eq!((min.num_states(), min.num_transitions()), (2, 2));
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
///
/// # Panics
/// Never: the result is no larger than the input, so no id can overflow.
pub fn minimize_strong(lts: &Lts) -> Lts {
    minimize_strong_mapped(lts).0
}

/// [`minimize_strong`], with the state of the result each state of `lts` became (`None` for
/// the unreachable ones).
///
/// # Panics
/// Never, as [`minimize_strong`].
pub fn minimize_strong_mapped(lts: &Lts) -> (Lts, Vec<Option<StateId>>) {
    let (reachable, first) = trim_mapped(lts);
    let classes = strong_bisimulation_classes(&reachable);
    // Classes are numbered by first state and state 0 is initial, so block 0 is initial; the BFS
    // renumbering of `trim` gives a canonical order.
    let q = quotient(&reachable, &classes).expect("a quotient is no larger than its LTS");
    let (min, last) = trim_mapped(&q);
    (min, through_classes(&first, &classes, &last))
}

/// The map of a trim, a quotient by `classes` and a second trim, composed: `first` maps the
/// input's states, `last` the quotient's.
pub(crate) fn through_classes(
    first: &[Option<StateId>],
    classes: &[u32],
    last: &[Option<StateId>],
) -> Vec<Option<StateId>> {
    first
        .iter()
        .map(|s| s.and_then(|s| last[classes[s.index()] as usize]))
        .collect()
}
