//! The modal abstraction of `M` by a partition of its states, and its product with `P_err`.
//!
//! For a partition `≈` of `M`'s states, an abstract edge `([v], a, [v'])` is a *may* edge when some
//! member of `[v]` has an `a`-edge to some member of `[v']`. It is a *forward must* edge when every
//! member of `[v']` has an `a`-predecessor in `[v]`, and a *backward must* edge when every member
//! of `[v]` has an `a`-successor in `[v']` (section 5 of the paper: the two directions need
//! different must edges to give sound lower bounds). Both flags are computed in one pass over `M`'s
//! transitions, grouped by `(block(source), action, block(target))`, by counting distinct sources
//! and distinct targets of each group.
//!
//! [`QGraph`] is the abstract environment `M_may || P_err` with every edge flagged by the modal
//! kinds of its `M` part; restricting to flagged edges gives `M_must || P_err` for either direction
//! without a second graph. Moves of `P` alone (actions outside `alpha M`) are must edges in both
//! directions. All error tuples (pi of `P`, or `M`'s `ERROR`) are one node, in the concrete graph
//! as well, which changes the must flags of the edges into it ([`error_must`]): forward, "every
//! target has a predecessor" holds for any may edge; backward, a move into *any* error tuple will
//! do. (Flagging them per target block, as for other edges, was sound but weaker, and cost the
//! refinement loop steps that split blocks for no change of any label.) With the discrete
//! partition every may edge is a must edge and the graph is the concrete `Q = M || P_err`.

use guarantor_compose::{Budget, Config};
use guarantor_lts::StateId;
use rustc_hash::FxHashMap;

use crate::bits::Csr;
use crate::error::QuotientError;
use crate::partition::Partition;
use crate::problem::Env;

/// The placeholder block and property state of the error node.
pub(crate) const NO_EDGE: u32 = u32::MAX;

/// One may edge of the abstraction of `M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AbsEdge {
    /// Source block.
    pub(crate) src: u32,
    /// `M`'s local action.
    pub(crate) action: u32,
    /// Shared action id.
    pub(crate) g: u32,
    /// Target block.
    pub(crate) dst: u32,
    /// Every member of `dst` has a predecessor in `src`.
    pub(crate) must_f: bool,
    /// Every member of `src` has a successor in `dst`.
    pub(crate) must_b: bool,
    /// Every member of `src` has an `action` successor in some block (used for edges into the
    /// error node, where every target block is the same node).
    pub(crate) any_b: bool,
}

/// The may edges of the abstraction of `env.m` by `part`, sorted by source block.
pub(crate) fn abstract_edges(env: &Env<'_>, part: &Partition) -> Vec<AbsEdge> {
    let m = env.m;
    if part.num_blocks() == m.num_states() {
        return concrete_edges(env, part);
    }
    // `M`'s moves as `(action, target block, source, target)` rows by source block (a counting
    // sort straight from `M`: 16 bytes a move, no other copy), each block's rows sorted in place.
    let mut rows = Csr::default();
    rows.rebuild(
        part.num_blocks(),
        || {
            m.transitions().filter(|t| !m.is_error(t.source)).map(|t| {
                let (s, d) = (t.source.as_u32(), t.target.as_u32());
                (
                    part.block_of(s),
                    (t.action.as_u32(), part.block_of(d), s, d),
                )
            })
        },
        &mut Vec::new(),
        (0, 0, 0, 0),
    );
    let mut edges = Vec::new();
    let mut scratch = Vec::new();
    for b in 0..part.num_blocks() as u32 {
        let group = rows.of_mut(b);
        if !group.is_empty() {
            group.sort_unstable();
            group_edges(env, part, b, group, &mut scratch, &mut edges);
        }
    }
    edges
}

/// [`abstract_edges`] when every block is one state (the exact construction): each transition is
/// its own edge and a must edge both ways, so grouping by source block (a counting sort, linear)
/// and dropping duplicate transitions is all there is to do.
fn concrete_edges(env: &Env<'_>, part: &Partition) -> Vec<AbsEdge> {
    let m = env.m;
    let block = |s: StateId| part.block_of(s.as_u32());
    let mut by_src = Csr::default();
    by_src.rebuild(
        part.num_blocks(),
        || {
            m.transitions()
                .filter(|t| !m.is_error(t.source))
                .map(|t| (block(t.source), (t.action.as_u32(), block(t.target))))
        },
        &mut Vec::new(),
        (0, 0),
    );
    let mut edges = Vec::with_capacity(by_src.len());
    let mut row = Vec::new();
    for src in 0..part.num_blocks() as u32 {
        row.clear();
        row.extend_from_slice(by_src.of(src));
        row.sort_unstable();
        row.dedup();
        edges.extend(row.iter().map(|&(action, dst)| AbsEdge {
            src,
            action,
            g: env.g_of_m[action as usize],
            dst,
            must_f: true,
            must_b: true,
            any_b: true,
        }));
    }
    edges
}

/// Appends the may edges out of block `src`, given its members' transitions as
/// `(action, target block, source, target)` rows sorted by that tuple.
pub(crate) fn group_edges(
    env: &Env<'_>,
    part: &Partition,
    src: u32,
    rows: &mut [(u32, u32, u32, u32)],
    scratch: &mut Vec<u32>,
    edges: &mut Vec<AbsEdge>,
) {
    let src_size = part.size(src);
    for by_action in rows.chunk_by_mut(|x, y| x.0 == y.0) {
        scratch.clear();
        scratch.extend(by_action.iter().map(|r| r.2));
        scratch.sort_unstable();
        scratch.dedup();
        let any_b = scratch.len() == src_size;
        for group in by_action.chunk_by_mut(|x, y| x.1 == y.1) {
            let (action, dst) = (group[0].0, group[0].1);
            // Sorted by source already; count distinct sources, then distinct targets.
            let sources = 1 + group.windows(2).filter(|w| w[0].2 != w[1].2).count();
            group.sort_unstable_by_key(|r| r.3);
            let targets = 1 + group.windows(2).filter(|w| w[0].3 != w[1].3).count();
            edges.push(AbsEdge {
                src,
                action,
                g: env.g_of_m[action as usize],
                dst,
                must_f: targets == part.size(dst),
                must_b: sources == src_size,
                any_b,
            });
        }
    }
}

/// One edge of [`QGraph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QEdge {
    /// Shared action id.
    pub(crate) g: u32,
    /// The other end (target in `out`, source in `inc`).
    pub(crate) other: u32,
    /// A forward must edge.
    pub(crate) must_f: bool,
    /// A backward must edge.
    pub(crate) must_b: bool,
}

/// The abstract environment `M/≈ || P_err` (may edges, each flagged with its must kinds).
#[derive(Clone, Debug)]
pub(crate) struct QGraph {
    /// `(block, property state)` per node; the error node is `(NO_EDGE, NO_EDGE)`.
    pub(crate) nodes: Vec<(u32, u32)>,
    /// The error node, if reachable.
    pub(crate) error: Option<u32>,
    /// Outgoing edges per node.
    pub(crate) out: Csr<QEdge>,
    /// Incoming edges per node (`other` is the source).
    pub(crate) inc: Csr<QEdge>,
}

/// What [`QGraph::build`] keeps per edge while it builds: the `(source, edge)` list (16 bytes),
/// the incoming list made from it (16), and the outgoing and incoming CSR copies (12 each).
const GRAPH_EDGE_BYTES: usize = 56;

/// What grouping `M`'s moves by source block costs per move of `M` while the abstract edges are
/// computed ([`abstract_edges`]: a row of four `u32`s), charged before it starts.
const GROUPING_MOVE_BYTES: usize = 16;

/// The same for the exact construction: a move of 8 bytes in the list by block and the edge it
/// becomes, both alive until the list goes.
const CONCRETE_MOVE_BYTES: usize = 8 + std::mem::size_of::<AbsEdge>();

/// What [`QGraph::build_for`] keeps per abstract edge of `M` while it builds: the edge and its
/// entry in the list by source block.
const ABSTRACT_EDGE_BYTES: usize = std::mem::size_of::<AbsEdge>() + 4;

/// Label sets a round of synthesis keeps per node at once: lower and upper bounds forward and
/// backward, and the pending rows of the fixpoint running.
const ROUND_LABEL_SETS: usize = 5;

/// What a graph of `nodes` nodes and `edges` edges costs, with `label_sets` label rows of `cols`
/// bits per node, in units of `max_states`: one per node (its entry and its index slot, about a
/// store state's [`Config::STATE_BYTES`](guarantor_compose::Config::STATE_BYTES)), plus the
/// bytes of the edges and of the label rows. A row has a bit per state of `N`, so on a large `N`
/// the labels, not the nodes, are what fills memory.
pub(crate) fn graph_units(
    nodes: usize,
    edges: usize,
    edge_bytes: usize,
    label_sets: usize,
    cols: usize,
) -> usize {
    let row = cols.div_ceil(64) * 8;
    nodes
        + Config::units_for_bytes(
            edges.saturating_mul(edge_bytes) + nodes.saturating_mul(label_sets * row),
        )
}

impl QGraph {
    /// Builds the nodes reachable from `(block(m0), p0)` by may edges, without labels.
    #[cfg(test)]
    pub(crate) fn build(
        env: &Env<'_>,
        part: &Partition,
        budget: &mut Budget<'_>,
    ) -> Result<Self, QuotientError> {
        Self::build_for(env, part, 0, budget)
    }

    /// Builds the nodes reachable from `(block(m0), p0)` by may edges for a round of synthesis
    /// whose labels have `cols` bits a row. The state budget counts the nodes, edges and the
    /// round's label rows ([`graph_units`]), so the limit is hit while the graph is built rather
    /// than when the labels are allocated; also the abstract edges of `M` it builds from, kept
    /// until it is built, and before those the grouping of `M`'s moves that computes them.
    pub(crate) fn build_for(
        env: &Env<'_>,
        part: &Partition,
        cols: usize,
        budget: &mut Budget<'_>,
    ) -> Result<Self, QuotientError> {
        let per_move = if part.num_blocks() == env.m.num_states() {
            CONCRETE_MOVE_BYTES
        } else {
            GROUPING_MOVE_BYTES
        };
        budget.check_states(Config::units_for_bytes(env.m.num_transitions() * per_move))?;
        let medges = abstract_edges(env, part);
        let mut by_src = Csr::default();
        by_src.rebuild(
            part.num_blocks(),
            || medges.iter().enumerate().map(|(i, e)| (e.src, i as u32)),
            &mut Vec::new(),
            0,
        );
        let kept = Config::units_for_bytes(
            medges.len() * ABSTRACT_EDGE_BYTES + (part.num_blocks() + 1) * 4,
        );
        budget.check_states(kept)?;
        let m_err = env.m.error_state().map(|s| part.block_of(s.as_u32()));
        let p_err = env.p.error_state().map(StateId::as_u32);
        let mut g = Builder {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            error: None,
            m_err,
            p_err,
        };
        let start = (
            part.block_of(env.m.initial().as_u32()),
            env.p.initial().as_u32(),
        );
        g.node(start);
        let mut edges: Vec<(u32, QEdge)> = Vec::new();
        let mut next = 0;
        while next < g.nodes.len() {
            let from = next as u32;
            let (b, p) = g.nodes[next];
            next += 1;
            if Some(from) == g.error {
                continue;
            }
            budget.tick()?;
            for &i in by_src.of(b) {
                let e = medges[i as usize];
                let Some(p2) = env.p_step(p, e.g) else {
                    continue;
                };
                let to = g.node((e.dst, p2));
                let (must_f, must_b) = if g.error == Some(to) {
                    error_must(&e, Some(p2) == p_err)
                } else {
                    (e.must_f, e.must_b)
                };
                edges.push((
                    from,
                    QEdge {
                        g: e.g,
                        other: to,
                        must_f,
                        must_b,
                    },
                ));
            }
            for &(ga, p2) in env.p_alone.of(p) {
                let to = g.node((b, p2));
                edges.push((
                    from,
                    QEdge {
                        g: ga,
                        other: to,
                        must_f: true,
                        must_b: true,
                    },
                ));
            }
            budget.check_states(
                kept + graph_units(
                    g.nodes.len(),
                    edges.len(),
                    GRAPH_EDGE_BYTES,
                    ROUND_LABEL_SETS,
                    cols,
                ),
            )?;
        }
        let k = g.nodes.len();
        let inc: Vec<(u32, QEdge)> = edges
            .iter()
            .map(|&(s, e)| (e.other, QEdge { other: s, ..e }))
            .collect();
        Ok(Self {
            out: Csr::from_pairs(k, &edges),
            inc: Csr::from_pairs(k, &inc),
            nodes: g.nodes,
            error: g.error,
        })
    }

    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether `q` is the error node.
    #[inline]
    pub(crate) fn is_error(&self, q: u32) -> bool {
        self.error == Some(q)
    }
}

/// The must flags of an abstract edge `e` whose target is the error node (`refused`: because `P`
/// refuses its action, not because `M` enters `ERROR`).
///
/// All error tuples are one node, concretely as well as abstractly, so "every target has a
/// predecessor" holds for any may edge into it: forward it is always a must edge. Backward, every
/// source needs a move into *some* error tuple: when `P` refuses the action, any `action` move of
/// `M` will do, whatever block it enters ([`AbsEdge::any_b`]); when `M` enters its `ERROR` (a block
/// of its own) the block-level flag is exact.
#[inline]
pub(crate) fn error_must(e: &AbsEdge, refused: bool) -> (bool, bool) {
    (true, if refused { e.any_b } else { e.must_b })
}

/// Node numbering during [`QGraph::build`].
struct Builder {
    nodes: Vec<(u32, u32)>,
    index: FxHashMap<(u32, u32), u32>,
    error: Option<u32>,
    m_err: Option<u32>,
    p_err: Option<u32>,
}

impl Builder {
    /// The node of `(b, p)`, added if new; every error tuple is the one error node.
    fn node(&mut self, (b, p): (u32, u32)) -> u32 {
        if Some(b) == self.m_err || Some(p) == self.p_err {
            if let Some(e) = self.error {
                return e;
            }
            self.nodes.push((NO_EDGE, NO_EDGE));
            let e = self.nodes.len() as u32 - 1;
            self.error = Some(e);
            return e;
        }
        let fresh = self.nodes.len() as u32;
        let id = *self.index.entry((b, p)).or_insert(fresh);
        if id == fresh {
            self.nodes.push((b, p));
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use guarantor_compose::{ComposeError, Config};
    use guarantor_lts::{Lts, LtsBuilder};

    use super::*;

    /// A ring of `n` states on `a`.
    fn ring(n: usize) -> Lts {
        let mut b = LtsBuilder::new();
        b.ensure_states(n).unwrap();
        for i in 0..n {
            b.add_transition_named(StateId::must(i), "a", StateId::must((i + 1) % n))
                .unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn the_state_limit_counts_the_label_rows_of_a_round() {
        let m = ring(4);
        let env = Env::new(&m, &[], &Config::default()).unwrap();
        let mut discrete = Partition::new(m.num_states());
        for s in 0..m.num_states() as u32 {
            discrete.isolate(s);
        }
        // Four nodes; twenty units leave room for them and their edges, not for rows of 64 000
        // bits of a subject with that many states.
        let config = Config::default().with_max_states(20);
        let graph = QGraph::build_for(&env, &discrete, 1, &mut config.budget().unwrap()).unwrap();
        assert_eq!(graph.len(), 4);
        let err =
            QGraph::build_for(&env, &discrete, 64_000, &mut config.budget().unwrap()).unwrap_err();
        assert!(
            matches!(
                err,
                QuotientError::Compose(ComposeError::StateLimit { limit: 20 })
            ),
            "{err:?}"
        );
    }
}
