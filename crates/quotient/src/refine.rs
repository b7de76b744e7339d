//! The incremental refinement loop of section 6: one abstract graph and two lower labellings kept
//! up to date across splits, instead of rebuilt per step.
//!
//! A step splits one block `B` of the abstraction of `M` into `B` and `B'`. Only a few things can
//! change, and only those are recomputed:
//! - the abstract edges out of `B`, `B'` and the blocks with a transition into them (their target
//!   blocks changed); every other block keeps its edge list;
//! - the nodes `(block, p)` of those blocks get new out-edge lists; a node `(B', p)` is created
//!   when an edge first reaches it and starts with the labels of `(B, p)` (or of the nearest
//!   ancestor block's node), which stay valid lower bounds for a sub-block (section 6: "the
//!   previously computed bounds remain valid"); node numbers never change, nodes never go;
//! - the lower labels: only edges that are new, or have newly become must edges, can add to a
//!   label, so the fixpoints restart from exactly those edges with a delta worklist (each label
//!   bit is propagated once, when it is added).
//!
//! Upper labels are never computed in the loop (the paper: "we avoid the explicit computation of
//! the upper bounds"). A direction has converged when no may edge out of a node reachable in the
//! may graph is *useful* (its lower labels would grow if it were a must edge): the lower labels are
//! then closed under every may edge, so they contain, and hence equal, the least fixpoint over may
//! edges, which is the upper bound.
//!
//! Backward labels are first computed on `N` itself; when the forward bounds coincide, `N_F` is
//! built, the backward lower labels are carried onto it through the class map (a quotient only adds
//! behaviour, so they stay valid) and closed once more, and the backward direction is checked
//! again on `N_F`. The loop ends when both directions have converged, or earlier when the
//! assumption cannot get any smaller: one class besides `N`'s `ERROR` (the paper: the algorithm
//! "terminates when the assumption cannot be reduced any further"), which is also the answer as
//! soon as the lower labels witness an error path ([`one_class`]).
//!
//! Nodes that are no longer reachable in the may graph (their block was split so that no edge
//! reaches them) keep their labels but are left out of edge choice and of class extraction.

use guarantor_compose::{Budget, Config};
use guarantor_lts::{Lts, StateId, ops};
use rustc_hash::FxHashMap;

use crate::bits::{Csr, Labels, ones};
use crate::equiv::classes;
use crate::error::QuotientError;
use crate::labels::{DeltaLabels, backward_image, forward_image};
use crate::modal::{AbsEdge, error_must, graph_units, group_edges};
use crate::partition::Partition;
use crate::problem::{Env, Subject};

/// `action` of an edge made by `P` alone, and `dst` of an edge into the error node on an action
/// `P` refuses (any target block will do).
const NONE: u32 = u32::MAX;

/// The most entries (4 bytes each) of the dense node table; larger systems hash.
const DENSE_LIMIT: usize = 1 << 22;

/// The coarsest class map of `sub`: every state in one class but `ERROR`, alone. When `M || N`
/// violates the property, so does `M || A` for every quotient `A` of `N` (its language contains
/// `N`'s), so this map is invertible then; a counterexample of `M || A` is lifted to one of
/// `M || N` by the guided search of [`crate::check`].
pub(crate) fn one_class(sub: &Subject) -> Vec<u32> {
    classes(sub.n, sub.error, &Labels::new(0, sub.n), None).0
}

/// One edge of the abstract graph.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Edge {
    /// Shared action id.
    g: u32,
    /// The other end (target in `out`, source in `inc`).
    other: u32,
    /// `M`'s local action, or [`NONE`] for a move of `P` alone.
    action: u32,
    /// The target block of `M`'s move, or [`NONE`] (see there).
    dst: u32,
    /// A forward must edge.
    must_f: bool,
    /// A backward must edge.
    must_b: bool,
}

/// Which equivalence a step refines for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Forward (reachability) labels.
    Forward,
    /// Backward (error-reaching) labels.
    Backward,
}

/// One group of moves of a block: one action, one target block.
#[derive(Clone, Copy, Debug)]
struct Group {
    dst: u32,
    sources: u32,
    targets: u32,
    last_source: u32,
    id: u32,
}

/// Reused buffers for computing a block's may edges in time linear in its moves (a counting sort
/// by action and stamps instead of a comparison sort of all moves).
#[derive(Debug, Default)]
struct EdgeScratch {
    /// Per `M` action: where its moves start in `moves` (then: where the next one goes).
    off: Vec<u32>,
    fill: Vec<u32>,
    /// The block's moves `(source, target)`, grouped by action.
    moves: Vec<(u32, u32)>,
    /// Per block: the epoch (one per action) in which `slot` is valid.
    block_epoch: Vec<u32>,
    slot: Vec<u32>,
    epoch: u32,
    /// Per `M` state: the id of the last group that counted it as a target.
    target_group: Vec<u32>,
    next_group: u32,
    groups: Vec<Group>,
}

impl EdgeScratch {
    /// The may edges out of block `b` with their must flags, sorted by `(action, target block)`,
    /// with their counts (see [`Counts`]).
    fn block_edges(
        &mut self,
        env: &Env<'_>,
        part: &Partition,
        m_out: &Csr<(u32, u32)>,
        b: u32,
    ) -> (Vec<AbsEdge>, Counts) {
        let members = part.members(b);
        let size = members.len() as u32;
        let actions = env.g_of_m.len();
        self.off.clear();
        self.off.resize(actions + 1, 0);
        for &s in members {
            for &(a, _) in m_out.of(s) {
                self.off[a as usize + 1] += 1;
            }
        }
        for a in 0..actions {
            self.off[a + 1] += self.off[a];
        }
        self.fill.clear();
        self.fill.extend_from_slice(&self.off);
        self.moves.clear();
        self.moves.resize(self.off[actions] as usize, (0, 0));
        // Stable: per action, sources keep member order and each source's moves stay together.
        for &s in members {
            for &(a, d) in m_out.of(s) {
                self.moves[self.fill[a as usize] as usize] = (s, d);
                self.fill[a as usize] += 1;
            }
        }
        if self.block_epoch.len() < part.num_blocks() {
            self.block_epoch.resize(part.num_blocks(), 0);
            self.slot.resize(part.num_blocks(), 0);
        }
        if self.target_group.len() < m_out.keys() {
            self.target_group.resize(m_out.keys(), 0);
        }
        let mut edges = Vec::new();
        let mut counts = Counts::default();
        for a in 0..actions {
            let list = &self.moves[self.off[a] as usize..self.off[a + 1] as usize];
            if list.is_empty() {
                continue;
            }
            self.epoch += 1;
            let (mut sources, mut previous) = (0, NONE);
            for &(s, d) in list {
                if s != previous {
                    sources += 1;
                    previous = s;
                }
                let bd = part.block_of(d) as usize;
                if self.block_epoch[bd] != self.epoch {
                    self.block_epoch[bd] = self.epoch;
                    self.slot[bd] = self.groups.len() as u32;
                    self.next_group += 1;
                    self.groups.push(Group {
                        dst: bd as u32,
                        sources: 0,
                        targets: 0,
                        last_source: NONE,
                        id: self.next_group,
                    });
                }
                let g = &mut self.groups[self.slot[bd] as usize];
                if g.last_source != s {
                    g.sources += 1;
                    g.last_source = s;
                }
                if self.target_group[d as usize] != g.id {
                    self.target_group[d as usize] = g.id;
                    g.targets += 1;
                }
            }
            self.groups.sort_unstable_by_key(|g| g.dst);
            counts.by_action.push((a as u32, sources));
            for g in self.groups.drain(..) {
                counts.sources.push(g.sources);
                counts.targets.push(g.targets);
                edges.push(AbsEdge {
                    src: b,
                    action: a as u32,
                    g: env.g_of_m[a],
                    dst: g.dst,
                    must_f: g.targets as usize == part.size(g.dst),
                    must_b: g.sources == size,
                    any_b: sources == size,
                });
            }
        }
        (edges, counts)
    }
}

/// Source counts of a block's may edges, kept so that the edges of the larger piece of a split
/// can be had from its parent's minus the smaller piece's (Hopcroft's smaller half).
#[derive(Clone, Debug, Default)]
struct Counts {
    /// Per edge of the block (same order): how many members have a move on it.
    sources: Vec<u32>,
    /// Per edge of the block (same order): how many members of the target block it reaches.
    targets: Vec<u32>,
    /// Per action with moves, ascending: how many members have a move on it.
    by_action: Vec<(u32, u32)>,
}

/// Per action, the members with a move on it in `parent` but not in `small` (both ascending by
/// action; `small`'s members are among `parent`'s), without the actions left with none.
fn subtract(parent: &[(u32, u32)], small: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut left = Vec::with_capacity(parent.len());
    let mut j = 0;
    for &(a, c) in parent {
        while j < small.len() && small[j].0 < a {
            j += 1;
        }
        let minus = match small.get(j) {
            Some(&(b, d)) if b == a => d,
            _ => 0,
        };
        if c > minus {
            left.push((a, c - minus));
        }
    }
    left
}

/// Which directions have converged, and whether the loop can stop early.
#[derive(Clone, Copy, Debug, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "four independent facts, not a state machine"
)]
struct Done {
    forward: bool,
    backward: bool,
    /// The converged backward labels put every non-error state of their subject in one class.
    minimal: bool,
    /// The lower labels witness an error path of `M || N`: the property is violated.
    violated: bool,
}

/// The state of the incremental refinement loop.
pub(crate) struct Refiner<'a> {
    env: &'a Env<'a>,
    n: &'a Lts,
    subject: &'a Subject,
    pub(crate) part: Partition,
    /// Per block: the block it was split from (`NONE` for the initial blocks).
    parent: Vec<u32>,
    /// `M`'s moves `(action, target)` by source (none out of `ERROR`), and `(source, action)` by
    /// target.
    m_out: Csr<(u32, u32)>,
    m_in: Csr<(u32, u32)>,
    m_err: Option<u32>,
    p_err: Option<u32>,
    /// Per block: its may edges.
    bedges: Vec<Vec<AbsEdge>>,
    /// Per block: the counts of its may edges.
    bcounts: Vec<Counts>,
    nodes: Vec<(u32, u32)>,
    index: FxHashMap<(u32, u32), u32>,
    /// The same map as a table indexed by `block * np + p` (`NONE`: no node), grown with the
    /// blocks; used when `M`'s states times `P`'s fit in [`DENSE_LIMIT`] entries, else `np` is 0.
    dense: Vec<u32>,
    np: usize,
    of_block: Vec<Vec<u32>>,
    error: Option<u32>,
    out: Vec<Vec<Edge>>,
    inc: Csr<Edge>,
    reach: Vec<bool>,
    fl: DeltaLabels,
    bl: DeltaLabels,
    /// `N_F` and the forward class map, once the forward bounds coincide; until then the backward
    /// labels are over `N`.
    nf: Option<(Subject, Vec<u32>)>,
    /// Which directions have converged.
    done: Done,
    scratch: Vec<u64>,
    /// The image of a label over one edge, before it is merged.
    image: Vec<u64>,
    changed: Vec<(u32, Edge, bool, bool)>,
    /// Scratch space for rebuilding `inc`.
    fill: Vec<u32>,
    /// Per node: the node whose labels it started from (or `NONE`).
    copied: Vec<u32>,
    /// Split the chosen block by every useful edge at it, not only the chosen one.
    split_all: bool,
    /// Scratch space of [`Refiner::block_edges`].
    scratch_edges: EdgeScratch,
    /// Must flags of the edges `(source, g, target)` before the current update.
    before: FxHashMap<(u32, u32, u32), (bool, bool)>,
    /// Work done by the steps so far, in items gone over: `M`'s moves scanned to recompute block
    /// edges, and the abstract graph's nodes and edges regrouped and searched after each split.
    work: usize,
    /// What the refiner keeps of `M`'s size, in units of `max_states` ([`Refiner::m_units`]).
    m_units: usize,
}

impl<'a> Refiner<'a> {
    /// Sets up `{m0}, {rest}` (with `M`'s `ERROR` alone) and closes the lower labels.
    pub(crate) fn new(
        env: &'a Env<'a>,
        n: &'a Lts,
        subject: &'a Subject,
        split_all: bool,
        budget: &mut Budget<'_>,
    ) -> Result<Self, QuotientError> {
        let m = env.m;
        let m_units = Self::m_units(m);
        // Charged before it is allocated: on a large `M` this, not the abstract graph, is most
        // of what the loop holds.
        budget.check_states(m_units)?;
        let mut part = Partition::new(m.num_states());
        part.isolate(m.initial().as_u32());
        if let Some(e) = m.error_state() {
            part.isolate(e.as_u32());
        }
        let k = m.num_states();
        // Grouped straight from `M` (two passes), without a list of pairs as large again.
        let moves = || m.transitions().filter(|t| !m.is_error(t.source));
        let (mut m_out, mut m_in, mut fill) = (Csr::default(), Csr::default(), Vec::new());
        m_out.rebuild(
            k,
            || moves().map(|t| (t.source.as_u32(), (t.action.as_u32(), t.target.as_u32()))),
            &mut fill,
            (0, 0),
        );
        m_in.rebuild(
            k,
            || moves().map(|t| (t.target.as_u32(), (t.source.as_u32(), t.action.as_u32()))),
            &mut fill,
            (0, 0),
        );
        drop(fill);
        let mut r = Self {
            env,
            n,
            subject,
            parent: vec![NONE; part.num_blocks()],
            m_out,
            m_in,
            m_err: m.error_state().map(|e| part.block_of(e.as_u32())),
            p_err: env.p.error_state().map(StateId::as_u32),
            bedges: Vec::new(),
            bcounts: Vec::new(),
            nodes: Vec::new(),
            index: FxHashMap::default(),
            dense: Vec::new(),
            np: if k.saturating_mul(env.p.num_states()) <= DENSE_LIMIT {
                env.p.num_states()
            } else {
                0
            },
            of_block: vec![Vec::new(); part.num_blocks()],
            error: None,
            out: Vec::new(),
            inc: Csr::default(),
            reach: Vec::new(),
            fl: DeltaLabels {
                watch: subject.error,
                ..DeltaLabels::new(subject.n)
            },
            bl: DeltaLabels::new(subject.n),
            nf: None,
            done: Done::default(),
            scratch: Vec::new(),
            image: Vec::new(),
            changed: Vec::new(),
            fill: Vec::new(),
            copied: Vec::new(),
            before: FxHashMap::default(),
            scratch_edges: EdgeScratch::default(),
            work: 0,
            m_units,
            split_all,
            part,
        };
        for b in 0..r.part.num_blocks() as u32 {
            let (edges, counts) = r.block_edges(b);
            r.bedges.push(edges);
            r.bcounts.push(counts);
        }
        let start = r.node((
            r.part.block_of(m.initial().as_u32()),
            env.p.initial().as_u32(),
        ));
        r.fl.add(start, subject.initial);
        r.update(vec![start], budget)?;
        // Setting up goes over `M` once, as the exact construction would; only the steps count.
        r.work = 0;
        Ok(r)
    }

    /// The may edges out of block `b`, sorted by `(action, target block)`, with their counts.
    fn block_edges(&mut self, b: u32) -> (Vec<AbsEdge>, Counts) {
        let edges = self
            .scratch_edges
            .block_edges(self.env, &self.part, &self.m_out, b);
        self.work += self.scratch_edges.moves.len();
        edges
    }

    /// After a block was split into `pieces` (the first keeps the block's number): the edges of
    /// every other block into them, recomputed from the transitions into their members alone (the
    /// rest of such a block's edges did not change). Returns the blocks patched.
    fn patch_into(&mut self, pieces: &[u32]) -> Vec<u32> {
        let mut is_piece = vec![false; self.part.num_blocks()];
        for &b in pieces {
            is_piece[b as usize] = true;
        }
        let mut rows: Vec<(u32, u32, u32, u32, u32)> = Vec::new();
        for &b in pieces {
            for &t in self.part.members(b) {
                self.work += self.m_in.of(t).len();
                for &(s, a) in self.m_in.of(t) {
                    let sb = self.part.block_of(s);
                    if !is_piece[sb as usize] {
                        rows.push((sb, a, b, s, t));
                    }
                }
            }
        }
        rows.sort_unstable();
        let mut patched = Vec::new();
        let mut tail = Vec::new();
        let mut fresh = Vec::new();
        let mut both: Vec<(AbsEdge, (u32, u32))> = Vec::new();
        for chunk in rows.chunk_by(|x, y| x.0 == y.0) {
            let src = chunk[0].0;
            patched.push(src);
            tail.clear();
            tail.extend(chunk.iter().map(|&(_, a, bd, s, d)| (a, bd, s, d)));
            fresh.clear();
            group_edges(
                self.env,
                &self.part,
                src,
                &mut tail,
                &mut Vec::new(),
                &mut fresh,
            );
            let list = std::mem::take(&mut self.bedges[src as usize]);
            let counts = &mut self.bcounts[src as usize];
            // `any_b` is about the source block alone, which did not change; `group_edges` saw
            // only part of its moves, so take it from the old edges of the same action.
            for e in &mut fresh {
                if let Some(o) = list.iter().find(|o| o.action == e.action) {
                    e.any_b = o.any_b;
                }
            }
            // `group_edges` emits one edge per `(action, target)` run of the sorted chunk, and
            // leaves each run of `tail` sorted by target.
            let fresh_counts = chunk
                .chunk_by(|x, y| (x.1, x.2) == (y.1, y.2))
                .zip(tail.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)))
                .map(|(g, t)| {
                    let sources = 1 + g.windows(2).filter(|w| w[0].3 != w[1].3).count() as u32;
                    let targets = 1 + t.windows(2).filter(|w| w[0].3 != w[1].3).count() as u32;
                    (sources, targets)
                });
            both.clear();
            both.extend(
                list.iter()
                    .copied()
                    .zip(
                        counts
                            .sources
                            .iter()
                            .copied()
                            .zip(counts.targets.iter().copied()),
                    )
                    .filter(|(e, _)| !is_piece[e.dst as usize])
                    .chain(fresh.iter().copied().zip(fresh_counts)),
            );
            both.sort_unstable_by_key(|(e, _)| (e.action, e.dst));
            counts.sources.clear();
            counts.sources.extend(both.iter().map(|x| x.1.0));
            counts.targets.clear();
            counts.targets.extend(both.iter().map(|x| x.1.1));
            let mut list = list;
            list.clear();
            list.extend(both.iter().map(|x| x.0));
            self.bedges[src as usize] = list;
        }
        patched
    }

    /// The node of `(b, p)`, created if new (every error tuple is the error node). A new node's
    /// labels start from its nearest ancestor's.
    fn node(&mut self, (b, p): (u32, u32)) -> u32 {
        let is_error = Some(b) == self.m_err || Some(p) == self.p_err;
        if is_error {
            if let Some(e) = self.error {
                return e;
            }
        } else if let Some(q) = self.find(b, p) {
            return q;
        }
        let q = self.nodes.len() as u32;
        self.nodes.push((b, p));
        self.out.push(Vec::new());
        self.copied.push(NONE);
        self.fl.add_row();
        self.bl.add_row();
        if is_error {
            self.error = Some(q);
            for n in 0..self.bl.labels.cols() as u32 {
                self.bl.add(q, n);
            }
        } else {
            self.index.insert((b, p), q);
            if self.np > 0 {
                let i = b as usize * self.np + p as usize;
                if self.dense.len() <= i {
                    self.dense.resize((b as usize + 1) * self.np, NONE);
                }
                self.dense[i] = q;
            }
            self.of_block[b as usize].push(q);
            let mut a = self.parent[b as usize];
            while a != NONE {
                if let Some(from) = self.find(a, p) {
                    self.copied[q as usize] = from;
                    self.fl.labels.copy_within(q as usize, from as usize);
                    self.bl.labels.copy_within(q as usize, from as usize);
                    break;
                }
                a = self.parent[a as usize];
            }
        }
        if let Some(e) = self.backward_subject().error {
            self.bl.add(q, e);
        }
        q
    }

    /// The node of `(b, p)` if it exists: from the dense table when there is one (looking nodes
    /// up is a large part of recomputing out-edges, and hashing dominated it), else the map.
    fn find(&self, b: u32, p: u32) -> Option<u32> {
        if self.np == 0 {
            return self.index.get(&(b, p)).copied();
        }
        self.dense
            .get(b as usize * self.np + p as usize)
            .copied()
            .filter(|&q| q != NONE)
    }

    fn backward_subject(&self) -> &Subject {
        self.nf.as_ref().map_or(self.subject, |(s, _)| s)
    }

    /// The out-edges of non-error node `q` from its block's abstract edges (creating targets).
    fn node_edges(&mut self, node: u32) -> Vec<Edge> {
        let (block, ps) = self.nodes[node as usize];
        let mut edges = std::mem::take(&mut self.out[node as usize]);
        edges.clear();
        for i in 0..self.bedges[block as usize].len() {
            let abs = self.bedges[block as usize][i];
            let Some(ps2) = self.env.p_step(ps, abs.g) else {
                continue;
            };
            let refused = Some(ps2) == self.p_err;
            let to = self.node((abs.dst, ps2));
            let (must_f, must_b, dst) = if Some(to) == self.error {
                let (f, b) = error_must(&abs, refused);
                (f, b, if refused { NONE } else { abs.dst })
            } else {
                (abs.must_f, abs.must_b, abs.dst)
            };
            if dst == NONE
                && edges
                    .last()
                    .is_some_and(|l: &Edge| l.action == abs.action && l.dst == NONE)
            {
                continue; // one edge into the error node per refused action
            }
            edges.push(Edge {
                g: abs.g,
                other: to,
                action: abs.action,
                dst,
                must_f,
                must_b,
            });
        }
        for i in 0..self.env.p_alone.of(ps).len() {
            let (g, ps2) = self.env.p_alone.of(ps)[i];
            let to = self.node((block, ps2));
            edges.push(Edge {
                g,
                other: to,
                action: NONE,
                dst: NONE,
                must_f: true,
                must_b: true,
            });
        }
        edges
    }

    /// Recomputes the out-edges of `dirty` nodes (and of every node created meanwhile), rebuilds
    /// the incoming edges and reachability, and closes both lower labellings from the edges that
    /// are new or newly must.
    ///
    /// An edge `(q, g, t)` needs nothing if `(q°, g, t°)` was already a must edge of the same
    /// direction, where `x°` is `x` for an old node and, for a node created now, the node whose
    /// labels it copied: the labels at both ends are the same as there, so the closure still
    /// holds. This is what keeps a step cheap: most edges of a split block are the edges its parent
    /// had.
    fn update(&mut self, dirty: Vec<u32>, budget: &mut Budget<'_>) -> Result<(), QuotientError> {
        let mut before = std::mem::take(&mut self.before);
        before.clear();
        for &q in &dirty {
            for e in &self.out[q as usize] {
                let flags = before.entry((q, e.g, e.other)).or_insert((false, false));
                flags.0 |= e.must_f;
                flags.1 |= e.must_b;
            }
        }
        let mut work = dirty;
        let mut i = 0;
        let mut changed: Vec<(u32, Edge, bool, bool)> = std::mem::take(&mut self.changed);
        changed.clear();
        let first_new = self.nodes.len();
        while i < work.len() {
            let q = work[i];
            i += 1;
            if Some(q) == self.error {
                continue;
            }
            let created = self.nodes.len();
            let edges = self.node_edges(q);
            work.extend(created as u32..self.nodes.len() as u32);
            budget.check_states(self.units())?;
            let anc = |x: u32| {
                if (x as usize) < first_new {
                    x
                } else {
                    self.copied[x as usize]
                }
            };
            let source = anc(q);
            for e in &edges {
                let target = anc(e.other);
                let (had_f, had_b) = if source == NONE || target == NONE {
                    (false, false)
                } else {
                    before
                        .get(&(source, e.g, target))
                        .copied()
                        .unwrap_or((false, false))
                };
                let (need_f, need_b) = (e.must_f && !had_f, e.must_b && !had_b);
                if need_f || need_b {
                    changed.push((q, *e, need_f, need_b));
                }
            }
            self.out[q as usize] = edges;
        }
        self.before = before;
        let out = &self.out;
        self.inc.rebuild(
            self.nodes.len(),
            || {
                out.iter().enumerate().flat_map(|(q, es)| {
                    es.iter().map(move |e| {
                        (
                            e.other,
                            Edge {
                                other: q as u32,
                                ..*e
                            },
                        )
                    })
                })
            },
            &mut self.fill,
            Edge::default(),
        );
        self.reachability();
        self.work += self.nodes.len() + self.inc.len();
        for &(q, e, need_f, need_b) in &changed {
            if need_f {
                self.scratch.clear();
                self.scratch
                    .extend_from_slice(self.fl.labels.row(q as usize));
                let row = std::mem::take(&mut self.scratch);
                self.forward_edge(&row, &e);
                self.scratch = row;
            }
            if need_b {
                self.scratch.clear();
                self.scratch
                    .extend_from_slice(self.bl.labels.row(e.other as usize));
                let row = std::mem::take(&mut self.scratch);
                self.backward_edge(&row, q, &e);
                self.scratch = row;
            }
        }
        self.changed = changed;
        self.close_forward(budget)?;
        self.close_backward(budget)?;
        self.done.violated |= self.witnessed();
        Ok(())
    }

    /// Whether the lower labels prove an error path of `M || N` (lower labels are true of every
    /// member of a node's block, and node 0 is `({m0}, p0)`): forward, some pair with the error
    /// node or with `N`'s `ERROR` is reachable; backward, `(m0, n0, p0)` reaches an error.
    fn witnessed(&self) -> bool {
        self.fl.hit
            || self
                .error
                .is_some_and(|e| self.fl.labels.row(e as usize).iter().any(|&w| w != 0))
            || self.bl.labels.get(0, self.backward_subject().initial)
    }

    /// Marks the nodes reachable from the initial node over may edges.
    fn reachability(&mut self) {
        self.reach.clear();
        self.reach.resize(self.nodes.len(), false);
        let mut stack = vec![0u32];
        self.reach[0] = true;
        while let Some(q) = stack.pop() {
            if Some(q) == self.error {
                continue;
            }
            for e in &self.out[q as usize] {
                if !std::mem::replace(&mut self.reach[e.other as usize], true) {
                    stack.push(e.other);
                }
            }
        }
    }

    /// Adds to the target of forward edge `e` the images of the states in `from`.
    fn forward_edge(&mut self, from: &[u64], e: &Edge) {
        let mut image = std::mem::take(&mut self.image);
        forward_image(self.subject, from, e.g, &mut image);
        self.fl.merge(e.other, &image);
        self.image = image;
    }

    /// Adds to node `src` the backward images over edge `e` of the states in `to`.
    fn backward_edge(&mut self, to: &[u64], src: u32, e: &Edge) {
        let s = self.nf.as_ref().map_or(self.subject, |(s, _)| s);
        let mut image = std::mem::take(&mut self.image);
        backward_image(s, to, e.g, &mut image);
        self.bl.merge(src, &image);
        self.image = image;
    }

    fn close_forward(&mut self, budget: &mut Budget<'_>) -> Result<(), QuotientError> {
        let mut delta = Vec::new();
        while let Some(q) = self.fl.next(&mut delta) {
            budget.tick()?;
            if Some(q) == self.error {
                continue;
            }
            let s = self.subject;
            for n in ones(&delta) {
                if s.error != Some(n) {
                    for &t in s.local_out.of(n) {
                        self.fl.add(q, t);
                    }
                }
            }
            for i in 0..self.out[q as usize].len() {
                let e = self.out[q as usize][i];
                if e.must_f {
                    self.forward_edge(&delta, &e);
                }
            }
        }
        Ok(())
    }

    fn close_backward(&mut self, budget: &mut Budget<'_>) -> Result<(), QuotientError> {
        let mut delta = Vec::new();
        while let Some(q) = self.bl.next(&mut delta) {
            budget.tick()?;
            if Some(q) != self.error {
                let s = self.nf.as_ref().map_or(self.subject, |(s, _)| s);
                for n in ones(&delta) {
                    for &src in s.local_in.of(n) {
                        self.bl.add(q, src);
                    }
                }
            }
            for i in 0..self.inc.of(q).len() {
                let e = self.inc.of(q)[i];
                if e.must_b {
                    self.backward_edge(&delta, e.other, &e);
                }
            }
        }
        Ok(())
    }

    /// Whether forward edge `e` out of `s` would add to its target's lower label.
    fn useful_forward(&self, s: u32, e: &Edge) -> bool {
        let (sub, fl) = (self.subject, &self.fl.labels);
        fl.members(s as usize).any(|n| {
            if sub.error == Some(n) {
                false
            } else if sub.syncs[e.g as usize] {
                sub.succ(n, e.g).any(|t| !fl.get(e.other as usize, t))
            } else {
                !fl.get(e.other as usize, n)
            }
        })
    }

    /// Whether backward edge `e` (`s` to `t`) would add to `s`'s lower label.
    fn useful_backward(&self, s: u32, t: u32, e: &Edge) -> bool {
        let (sub, bl) = (self.backward_subject(), &self.bl.labels);
        bl.members(t as usize).any(|n| {
            if sub.syncs[e.g as usize] {
                sub.pred(n, e.g).any(|p| !bl.get(s as usize, p))
            } else {
                sub.error != Some(n) && !bl.get(s as usize, n)
            }
        })
    }

    /// The reachable nodes in breadth-first order over must edges of `dir` from its start (the
    /// initial node forward, the error node backward), then the other reachable nodes.
    fn order(&self, dir: Direction) -> Vec<u32> {
        let mut seen = vec![false; self.nodes.len()];
        let mut order = Vec::with_capacity(self.nodes.len());
        let start = match dir {
            Direction::Forward => Some(0),
            Direction::Backward => self.error,
        };
        if let Some(s) = start {
            seen[s as usize] = true;
            order.push(s);
        }
        let mut next = 0;
        while next < order.len() {
            let q = order[next];
            next += 1;
            match dir {
                Direction::Forward => {
                    if Some(q) == self.error {
                        continue;
                    }
                    for e in self.out[q as usize].iter().filter(|e| e.must_f) {
                        if self.reach[e.other as usize]
                            && !std::mem::replace(&mut seen[e.other as usize], true)
                        {
                            order.push(e.other);
                        }
                    }
                }
                Direction::Backward => {
                    for e in self.inc.of(q).iter().filter(|e| e.must_b) {
                        if self.reach[e.other as usize]
                            && !std::mem::replace(&mut seen[e.other as usize], true)
                        {
                            order.push(e.other);
                        }
                    }
                }
            }
        }
        order.extend(
            (0..self.nodes.len() as u32).filter(|&q| self.reach[q as usize] && !seen[q as usize]),
        );
        order
    }

    /// The split edge for `dir` by the paper's heuristic: a useful non-must edge nearest the start
    /// of the direction; `None` when the direction has converged.
    fn choose(&self, dir: Direction) -> Option<(u32, Edge)> {
        for q in self.order(dir) {
            match dir {
                Direction::Forward => {
                    if Some(q) == self.error {
                        continue;
                    }
                    for e in &self.out[q as usize] {
                        if e.action != NONE && !e.must_f && self.useful_forward(q, e) {
                            return Some((q, *e));
                        }
                    }
                }
                Direction::Backward => {
                    for e in self.inc.of(q) {
                        let s = e.other;
                        if e.action != NONE
                            && !e.must_b
                            && self.reach[s as usize]
                            && self.useful_backward(s, q, e)
                        {
                            return Some((s, Edge { other: q, ..*e }));
                        }
                    }
                }
            }
        }
        None
    }

    /// One refinement step in direction `preferred` (or the other one if `preferred` has
    /// converged). Returns `false` when there is nothing to split.
    pub(crate) fn step(
        &mut self,
        preferred: Direction,
        budget: &mut Budget<'_>,
    ) -> Result<bool, QuotientError> {
        let other = match preferred {
            Direction::Forward => Direction::Backward,
            Direction::Backward => Direction::Forward,
        };
        for dir in [preferred, other] {
            if self.converged(dir) {
                continue;
            }
            match self.choose(dir) {
                Some((s, e)) => {
                    self.split(s, &e, dir, budget)?;
                    return Ok(true);
                }
                None => self.set_converged(dir, budget)?,
            }
        }
        // Converging forward may have rebuilt `N_F` and reopened the backward direction.
        if !self.done.backward {
            return self.step(Direction::Backward, budget);
        }
        Ok(false)
    }

    fn converged(&self, dir: Direction) -> bool {
        match dir {
            Direction::Forward => self.done.forward,
            Direction::Backward => self.done.backward,
        }
    }

    /// Records that `dir` has converged; forward convergence builds `N_F` and moves the backward
    /// labels onto it.
    fn set_converged(
        &mut self,
        dir: Direction,
        budget: &mut Budget<'_>,
    ) -> Result<(), QuotientError> {
        match dir {
            Direction::Backward => {
                self.done.backward = true;
                let sub = self.backward_subject();
                let rows = self.reachable_rows(&self.bl.labels);
                let (_, k) = classes(sub.n, sub.error, &rows, None);
                self.done.minimal = k <= 1 + usize::from(sub.error.is_some());
            }
            Direction::Forward => {
                self.done.forward = true;
                let rows = self.reachable_rows(&self.fl.labels);
                let (cf, _) = classes(self.subject.n, self.subject.error, &rows, None);
                let n_f = ops::quotient(self.n, &cf)?;
                let nf = Subject::new(&n_f, &self.env.alphabet);
                let mut bl = DeltaLabels::new(nf.n);
                for q in 0..self.nodes.len() {
                    bl.add_row();
                    for n in self.bl.labels.members(q) {
                        bl.add(q as u32, cf[n as usize]);
                    }
                }
                if let Some(e) = nf.error {
                    for q in 0..self.nodes.len() as u32 {
                        bl.add(q, e);
                    }
                }
                if let Some(pi) = self.error {
                    for n in 0..nf.n as u32 {
                        bl.add(pi, n);
                    }
                }
                // Every row is pending again: N_F has more moves than N.
                for q in 0..self.nodes.len() {
                    bl.pending.copy_row(q, &bl.labels, q);
                    if !bl.queued[q] && bl.labels.row(q).iter().any(|&w| w != 0) {
                        bl.queued[q] = true;
                        bl.queue.push(q as u32);
                    }
                }
                self.bl = bl;
                self.nf = Some((nf, cf));
                self.done.backward = false;
                self.close_backward(budget)?;
                self.done.violated |= self.witnessed();
            }
        }
        Ok(())
    }

    /// The rows of `labels` at reachable nodes, as a matrix of their own.
    fn reachable_rows(&self, labels: &Labels) -> Labels {
        let kept: Vec<usize> = (0..self.nodes.len()).filter(|&q| self.reach[q]).collect();
        let mut rows = Labels::new(kept.len(), labels.cols());
        for (i, &q) in kept.iter().enumerate() {
            rows.copy_row(i, labels, q);
        }
        rows
    }

    /// What the refiner holds, in units of `max_states` ([`graph_units`]): a unit per node of the
    /// abstract graph, plus its edges (each kept in `out` and `inc`, 24 bytes apiece, counted from
    /// the last rebuild of `inc`) and the rows of both lower labellings with their pending rows
    /// (four label sets of a bit per state of `N`), plus its copy of `M`'s moves and its
    /// partition ([`Refiner::m_units`]) and the dense node table.
    pub(crate) fn units(&self) -> usize {
        const REFINER_EDGE_BYTES: usize = 2 * std::mem::size_of::<Edge>();
        graph_units(
            self.nodes.len(),
            self.inc.len(),
            REFINER_EDGE_BYTES,
            4,
            self.subject.n,
        ) + self.m_units
            + Config::units_for_bytes(self.dense.len() * 4)
    }

    /// What the refiner keeps of `M`'s size, in units of `max_states`: its moves by source and by
    /// target (8 bytes each, and a 4-byte offset per state for each list) and the partition of
    /// `M`'s states (three 4-byte entries per state).
    fn m_units(m: &Lts) -> usize {
        Config::units_for_bytes(m.num_transitions() * 16 + m.num_states() * (8 + 12))
    }

    /// The number of nodes of the abstract graph (unreachable ones included: nodes never go).
    pub(crate) fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The work done so far (see the field).
    pub(crate) fn work(&self) -> usize {
        self.work
    }

    /// The final class map if the loop is done: both directions converged, or the backward
    /// direction converged with every non-error state in one class (no smaller assumption exists).
    pub(crate) fn finished(&self) -> Option<Vec<u32>> {
        if self.done.violated {
            return Some(one_class(self.subject));
        }
        if !(self.done.backward && (self.done.forward || self.done.minimal)) {
            return None;
        }
        debug_assert!(self.choose(Direction::Backward).is_none());
        debug_assert!(!self.done.forward || self.choose(Direction::Forward).is_none());
        let sub = self.backward_subject();
        let rows = self.reachable_rows(&self.bl.labels);
        let (cb, _) = classes(sub.n, sub.error, &rows, None);
        Some(match &self.nf {
            Some((_, cf)) => cf.iter().map(|&c| cb[c as usize]).collect(),
            None => cb,
        })
    }

    /// The split sets of several keys (see [`Refiner::split`]; sorted, so keys of one class are
    /// adjacent), with one pass over the moves of each class: forward its members' incoming
    /// moves, backward their outgoing ones. (Computing each set from its edge's source block
    /// would scan a large block once per key.)
    fn split_sets(&self, keys: &[(u32, u32, u32)], dir: Direction) -> Vec<Vec<u32>> {
        let mut sets = Vec::with_capacity(keys.len());
        let mut groups: FxHashMap<(u32, u32), Vec<u32>> = FxHashMap::default();
        for class_keys in keys.chunk_by(|a, b| a.0 == b.0) {
            let class = class_keys[0].0;
            groups.clear();
            for k in class_keys {
                groups.insert((k.1, k.2), Vec::new());
            }
            let mut push = |k: (u32, u32), x: u32| {
                if let Some(v) = groups.get_mut(&k)
                    && v.last() != Some(&x)
                {
                    v.push(x);
                }
            };
            for &x in self.part.members(class) {
                match dir {
                    Direction::Forward => {
                        for &(src, a) in self.m_in.of(x) {
                            push((self.part.block_of(src), a), x);
                        }
                    }
                    Direction::Backward => {
                        for &(a, t) in self.m_out.of(x) {
                            push((a, self.part.block_of(t)), x);
                            push((a, NONE), x);
                        }
                    }
                }
            }
            for k in class_keys {
                sets.push(groups.remove(&(k.1, k.2)).unwrap_or_default());
            }
        }
        sets
    }

    /// Moves into `small`, sorted: `(action, source, target)` from `large`, and the distinct
    /// `(action, target)` from the split block (`small` or `large`).
    fn moves_into(&self, small: u32, large: u32) -> MovesInto {
        let part = &self.part;
        let mut from_large: Vec<(u32, u32, u32)> = Vec::new();
        let mut reached: Vec<(u32, u32)> = Vec::new();
        for &t in part.members(small) {
            for &(x, a) in self.m_in.of(t) {
                let bx = part.block_of(x);
                if bx == large {
                    from_large.push((a, x, t));
                }
                if bx == large || bx == small {
                    reached.push((a, t));
                }
            }
        }
        from_large.sort_unstable();
        reached.sort_unstable();
        reached.dedup();
        (from_large, reached)
    }

    /// The may edges (and counts) of `large` after block `old` was split into `small` and `large`
    /// (nothing else split), from `old`'s edges `parent` and their `counts` before the split
    /// minus what `small` contributes: the cost is proportional to the moves out of and into
    /// `small` (and the degrees of their other ends), not to `large`'s moves.
    #[allow(
        clippy::too_many_lines,
        reason = "one subtraction: its parts share the lists of `small`'s moves"
    )]
    fn larger_edges(
        &self,
        old: u32,
        small: u32,
        large: u32,
        parent: &[AbsEdge],
        counts: &Counts,
    ) -> (Vec<AbsEdge>, Counts) {
        let part = &self.part;
        let size = part.size(large) as u32;
        let (small_edges, small_counts) =
            (&self.bedges[small as usize], &self.bcounts[small as usize]);
        let by_action = subtract(&counts.by_action, &small_counts.by_action);
        let any = |a: u32| {
            by_action
                .binary_search_by_key(&a, |x: &(u32, u32)| x.0)
                .map_or(0, |i| by_action[i].1)
                == size
        };
        let in_large = |a: u32, d: u32| {
            self.m_in
                .of(d)
                .iter()
                .any(|&(x, b)| b == a && part.block_of(x) == large)
        };
        // Targets `large` loses, `(action, target block, target)`: reached from `small` but from
        // no member of `large` (the target block of a move into the split block is `old`).
        let mut lost: Vec<(u32, u32, u32)> = Vec::new();
        // `(action, source)` of `small`'s moves into the split block.
        let mut small_into: Vec<(u32, u32)> = Vec::new();
        for &s in part.members(small) {
            for &(a, d) in self.m_out.of(s) {
                let bd = part.block_of(d);
                let into = bd == small || bd == large;
                if into {
                    small_into.push((a, s));
                }
                if bd != small && !in_large(a, d) {
                    lost.push((a, if into { old } else { bd }, d));
                }
            }
        }
        lost.sort_unstable();
        lost.dedup();
        small_into.sort_unstable();
        small_into.dedup();
        let (mut from_large, reached) = self.moves_into(small, large);
        let count = |v: &[(u32, u32)], a: u32| -> u32 {
            let lo = v.partition_point(|x| x.0 < a);
            let hi = v.partition_point(|x| x.0 <= a);
            (hi - lo) as u32
        };
        let lost_of = |a: u32, b: u32| -> u32 {
            let lo = lost.partition_point(|x| (x.0, x.1) < (a, b));
            let hi = lost.partition_point(|x| (x.0, x.1) <= (a, b));
            (hi - lo) as u32
        };
        let mut both: Vec<(AbsEdge, (u32, u32))> = Vec::with_capacity(parent.len() + 4);
        // Edges into `small`, and which members of `large` have moves into `small` only.
        let mut src_gone: Vec<u32> = Vec::new();
        for group in from_large.chunk_by_mut(|x, y| x.0 == y.0) {
            let action = group[0].0;
            let sources = 1 + group.windows(2).filter(|w| w[0].1 != w[1].1).count() as u32;
            for w in group.chunk_by(|x, y| x.1 == y.1) {
                let x = w[0].1;
                if !self
                    .m_out
                    .of(x)
                    .iter()
                    .any(|&(b, d)| b == action && part.block_of(d) == large)
                {
                    src_gone.push(action);
                }
            }
            group.sort_unstable_by_key(|r| r.2);
            let targets = 1 + group.windows(2).filter(|w| w[0].2 != w[1].2).count() as u32;
            both.push((
                AbsEdge {
                    src: large,
                    action,
                    g: self.env.g_of_m[action as usize],
                    dst: small,
                    must_f: targets as usize == part.size(small),
                    must_b: sources == size,
                    any_b: any(action),
                },
                (sources, targets),
            ));
        }
        let mut k = 0;
        for (i, e) in parent.iter().enumerate() {
            let (c, tc) = (counts.sources[i], counts.targets[i]);
            let (sources, targets, dst) = if e.dst == old {
                // Into the split block: now into `large` (`small`'s part is above).
                let gone = (src_gone.partition_point(|&a| a <= e.action)
                    - src_gone.partition_point(|&a| a < e.action))
                    as u32;
                let sources = c - count(&small_into, e.action) - gone;
                let targets = tc - count(&reached, e.action) - lost_of(e.action, old);
                (sources, targets, large)
            } else {
                while k < small_edges.len()
                    && (small_edges[k].action, small_edges[k].dst) < (e.action, e.dst)
                {
                    k += 1;
                }
                let minus = match small_edges.get(k) {
                    Some(f) if (f.action, f.dst) == (e.action, e.dst) => small_counts.sources[k],
                    _ => 0,
                };
                (c - minus, tc - lost_of(e.action, e.dst), e.dst)
            };
            if sources == 0 {
                continue;
            }
            both.push((
                AbsEdge {
                    src: large,
                    dst,
                    must_f: targets as usize == part.size(dst),
                    must_b: sources == size,
                    any_b: any(e.action),
                    ..*e
                },
                (sources, targets),
            ));
        }
        both.sort_unstable_by_key(|(e, _)| (e.action, e.dst));
        let counts = Counts {
            sources: both.iter().map(|x| x.1.0).collect(),
            targets: both.iter().map(|x| x.1.1).collect(),
            by_action,
        };
        (both.into_iter().map(|x| x.0).collect(), counts)
    }

    /// The members of the block split by edge `e` out of node `s` for `dir` that have the move
    /// `e` asks about (forward: targets with an `e`-predecessor in `s`'s block; backward: sources
    /// with an `e`-successor in the target block).
    fn split_set(&self, s: u32, e: &Edge, dir: Direction) -> Vec<u32> {
        let src = self.nodes[s as usize].0;
        let action = e.action;
        let mut set: Vec<u32> = Vec::new();
        match dir {
            Direction::Forward => {
                for &m in self.part.members(src) {
                    for &(a, t) in self.m_out.of(m) {
                        if a == action && self.part.block_of(t) == e.dst {
                            set.push(t);
                        }
                    }
                }
            }
            Direction::Backward => {
                for &m in self.part.members(src) {
                    if self.m_out.of(m).iter().any(|&(a, t)| {
                        a == action && (e.dst == NONE || self.part.block_of(t) == e.dst)
                    }) {
                        set.push(m);
                    }
                }
            }
        }
        set.sort_unstable();
        set.dedup();
        set
    }

    /// Splits the abstraction on edge `e` out of node `s` for `dir` (with `split_all`, on every
    /// useful edge of that direction at the same block: into it forward, out of it backward), then
    /// updates the graph and the labels.
    fn split(
        &mut self,
        s: u32,
        e: &Edge,
        dir: Direction,
        budget: &mut Budget<'_>,
    ) -> Result<(), QuotientError> {
        let class = match dir {
            Direction::Forward => e.dst,
            Direction::Backward => self.nodes[s as usize].0,
        };
        // The split keys: forward `(class, source block, action)`, backward `(class, action,
        // target block or NONE)`; a key's set is the part of `class` that has the move.
        let key = |r: &Self, q: u32, f: &Edge| match dir {
            Direction::Forward => (f.dst, r.nodes[q as usize].0, f.action),
            Direction::Backward => (r.nodes[q as usize].0, f.action, f.dst),
        };
        let mut keys = vec![key(self, s, e)];
        if self.split_all {
            for q in 0..self.nodes.len() as u32 {
                if !self.reach[q as usize] || Some(q) == self.error {
                    continue;
                }
                for f in &self.out[q as usize] {
                    if f.action == NONE {
                        continue;
                    }
                    let k = key(self, q, f);
                    let wanted = k.0 == class
                        && match dir {
                            Direction::Forward => !f.must_f && self.useful_forward(q, f),
                            Direction::Backward => !f.must_b && self.useful_backward(q, f.other, f),
                        };
                    if wanted {
                        keys.push(k);
                    }
                }
            }
            keys.sort_unstable();
            keys.dedup();
        }
        let sets = if keys.len() == 1 {
            vec![self.split_set(s, e, dir)]
        } else {
            self.split_sets(&keys, dir)
        };
        let mut olds: Vec<u32> = keys.iter().map(|k| k.0).collect();
        olds.dedup();
        let mut pieces = olds;
        let first = pieces.len();
        for set in sets {
            for (old, new) in self.part.split(set) {
                self.parent.push(old);
                self.of_block.push(Vec::new());
                pieces.push(new);
            }
        }
        if pieces.len() == first {
            return Ok(()); // cannot happen: the edge was a may edge and not a must edge
        }
        self.bedges.resize(self.part.num_blocks(), Vec::new());
        self.bcounts
            .resize(self.part.num_blocks(), Counts::default());
        if let [old, new] = pieces[..] {
            let (small, large) = if self.part.size(new) <= self.part.size(old) {
                (new, old)
            } else {
                (old, new)
            };
            let parent = std::mem::take(&mut self.bedges[old as usize]);
            let counts = std::mem::take(&mut self.bcounts[old as usize]);
            let (edges, small_counts) = self.block_edges(small);
            self.bedges[small as usize] = edges;
            self.bcounts[small as usize] = small_counts;
            let (edges, large_counts) = self.larger_edges(old, small, large, &parent, &counts);
            self.bedges[large as usize] = edges;
            self.bcounts[large as usize] = large_counts;
        } else {
            for &b in &pieces {
                let (edges, counts) = self.block_edges(b);
                self.bedges[b as usize] = edges;
                self.bcounts[b as usize] = counts;
            }
        }
        let patched = self.patch_into(&pieces);
        let mut dirty = Vec::new();
        for &b in pieces.iter().chain(&patched) {
            dirty.extend_from_slice(&self.of_block[b as usize]);
        }
        self.update(dirty, budget)
    }
}

/// [`Refiner::moves_into`]'s answer: `(action, source, target)` moves from `large`, and the
/// `(action, target)` pairs reached from the split block.
type MovesInto = (Vec<(u32, u32, u32)>, Vec<(u32, u32)>);

#[cfg(test)]
mod tests {
    //! The incrementally maintained graph and labels against brute force from the definitions:
    //! after every step, every node's may edges and must flags are recomputed from `M`'s
    //! transitions, and the lower labels are checked to be below the concrete labels of every
    //! member and closed under the must edges.

    use guarantor_compose::Config;
    use guarantor_lts::strategy::{
        LtsStrategyConfig, arb_deterministic_property, arb_lts, arb_lts_with,
    };
    use proptest::prelude::*;

    use super::*;
    use crate::labels::{Bound, backward, forward};
    use crate::modal::QGraph;

    /// The may edges of node `q` and their must flags, straight from the definitions (section 5,
    /// with all error tuples one node), as sorted `(g, target, must_f, must_b)`.
    fn brute_edges(r: &Refiner<'_>, node: u32) -> Vec<(u32, u32, bool, bool)> {
        let (block, ps) = r.nodes[node as usize];
        let err_state = r.env.m.error_state().map(StateId::as_u32);
        let members = r.part.members(block);
        let has = |from: u32, action: u32, to: &dyn Fn(u32) -> bool| {
            r.m_out.of(from).iter().any(|&(x, t)| x == action && to(t))
        };
        let mut out = Vec::new();
        for &w in members {
            for &(action, t) in r.m_out.of(w) {
                let g = r.env.g_of_m[action as usize];
                let Some(ps2) = r.env.p_step(ps, g) else {
                    continue;
                };
                let refused = Some(ps2) == r.p_err;
                let to_err = refused || Some(t) == err_state;
                let target = if to_err {
                    r.error.expect("error node exists")
                } else {
                    r.index[&(r.part.block_of(t), ps2)]
                };
                let flags = if to_err {
                    let into: &dyn Fn(u32) -> bool = if refused {
                        &|_| true
                    } else {
                        &|x| Some(x) == err_state
                    };
                    (true, members.iter().all(|&v| has(v, action, into)))
                } else {
                    let bt = r.part.block_of(t);
                    let into_bt = |x: u32| r.part.block_of(x) == bt;
                    let forward = r
                        .part
                        .members(bt)
                        .iter()
                        .all(|&v2| members.iter().any(|&v| has(v, action, &|x| x == v2)));
                    (forward, members.iter().all(|&v| has(v, action, &into_bt)))
                };
                out.push((g, target, flags.0, flags.1));
            }
        }
        for &(g, ps2) in r.env.p_alone.of(ps) {
            let target = if Some(ps2) == r.p_err {
                r.error.unwrap()
            } else {
                r.index[&(block, ps2)]
            };
            out.push((g, target, true, true));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A violation the lower labels witness is a real one: the concrete forward labels reach an
    /// error.
    fn check_witness(r: &Refiner<'_>, concrete: &QGraph, vf: &Labels) {
        if r.witnessed() {
            let sub = r.subject;
            let reached = concrete
                .error
                .is_some_and(|e| vf.row(e as usize).iter().any(|&w| w != 0))
                || sub
                    .error
                    .is_some_and(|x| (0..vf.rows()).any(|c| vf.get(c, x)));
            assert!(reached, "witnessed violation without an error path");
        }
    }

    fn check(
        r: &Refiner<'_>,
        concrete: &QGraph,
        index: &FxHashMap<(u32, u32), u32>,
        vf: &Labels,
        vb: &Labels,
    ) {
        for q in 0..r.nodes.len() as u32 {
            if Some(q) == r.error || !r.reach[q as usize] {
                continue;
            }
            let mut have: Vec<_> = r.out[q as usize]
                .iter()
                .map(|e| (e.g, e.other, e.must_f, e.must_b))
                .collect();
            have.sort_unstable();
            have.dedup();
            assert_eq!(
                have,
                brute_edges(r, q),
                "node {q} = {:?}",
                r.nodes[q as usize]
            );
        }
        // The graph the exact construction and the anytime extraction build from scratch has
        // the same edges and flags (compared by `(block, property state)`).
        let fresh =
            QGraph::build(r.env, &r.part, &mut Config::default().budget().unwrap()).unwrap();
        let key = |g: &QGraph, q: u32| g.nodes[q as usize];
        let err = (u32::MAX, u32::MAX);
        let mine_key = |q: u32| {
            if Some(q) == r.error {
                err
            } else {
                r.nodes[q as usize]
            }
        };
        for q in 0..fresh.len() as u32 {
            if fresh.is_error(q) {
                continue;
            }
            let mut theirs: Vec<_> = fresh
                .out
                .of(q)
                .iter()
                .map(|e| (e.g, key(&fresh, e.other), e.must_f, e.must_b))
                .collect();
            theirs.sort_unstable();
            theirs.dedup();
            let mut mine: Vec<_> = brute_edges(r, r.index[&key(&fresh, q)])
                .into_iter()
                .map(|(g, t, f, b)| (g, mine_key(t), f, b))
                .collect();
            mine.sort_unstable();
            // The fresh graph keeps one edge per target block into the error node; the flags
            // must agree with the collapsed ones.
            theirs.dedup_by_key(|x| *x);
            assert_eq!(theirs, mine, "fresh graph, node {:?}", key(&fresh, q));
        }
        // DeltaLabels labels are below the concrete labels of every member.
        for q in 0..r.nodes.len() {
            let members: Vec<Option<u32>> = if Some(q as u32) == r.error {
                vec![concrete.error]
            } else {
                let (b, p) = r.nodes[q];
                r.part
                    .members(b)
                    .iter()
                    .map(|&m| index.get(&(m, p)).copied())
                    .collect()
            };
            for c in members {
                for n in r.fl.labels.members(q) {
                    assert!(c.is_some_and(|c| vf.get(c as usize, n)), "forward {q} {n}");
                }
                if r.nf.is_none()
                    && let Some(c) = c
                {
                    for n in r.bl.labels.members(q) {
                        assert!(vb.get(c as usize, n), "backward {q} {n}");
                    }
                }
            }
        }
        check_witness(r, concrete, vf);
        // Closed under must edges (and nothing pending).
        assert!(r.fl.queue.is_empty() && r.bl.queue.is_empty());
        let (sub, bsub) = (r.subject, r.backward_subject());
        for q in 0..r.nodes.len() as u32 {
            if Some(q) == r.error {
                continue;
            }
            for e in &r.out[q as usize] {
                let fl = &r.fl.labels;
                for n in fl.members(q as usize).filter(|&n| sub.error != Some(n)) {
                    if e.must_f && sub.syncs[e.g as usize] {
                        assert!(sub.succ(n, e.g).all(|t| fl.get(e.other as usize, t)));
                    } else if e.must_f {
                        assert!(fl.get(e.other as usize, n));
                    }
                }
                let bl = &r.bl.labels;
                for n in bl.members(e.other as usize) {
                    if e.must_b && bsub.syncs[e.g as usize] {
                        assert!(bsub.pred(n, e.g).all(|x| bl.get(q as usize, x)));
                    } else if e.must_b && bsub.error != Some(n) {
                        assert!(bl.get(q as usize, n));
                    }
                }
            }
        }
    }

    fn system() -> impl Strategy<Value = (Lts, Lts, Lts)> {
        (
            arb_lts_with(
                LtsStrategyConfig::new(9, &["a", "b", "c"])
                    .with_max_transitions(22)
                    .with_tau(true)
                    .with_error_state(true),
            ),
            arb_lts(5, &["a", "b", "d"], 10),
            arb_deterministic_property(3, &["a", "b", "d"]),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(160))]

        #[test]
        fn graph_and_labels_match_brute_force((m, n, p) in system(), switch in 1usize..4, split_all in any::<bool>()) {
            let config = Config::default();
            let env = Env::new(&m, &[&p], &config).unwrap();
            let subject = Subject::new(&n, &env.alphabet);
            let mut budget = config.budget().unwrap();
            let mut discrete = Partition::new(m.num_states());
            for s in 0..m.num_states() as u32 {
                discrete.isolate(s);
            }
            // With the discrete partition, node (block, p) is (state, p) up to numbering.
            let concrete = QGraph::build(&env, &discrete, &mut budget).unwrap();
            // Concrete node of each `(state, property state)`.
            let renamed: FxHashMap<(u32, u32), u32> = (0..concrete.len() as u32)
                .filter(|&q| !concrete.is_error(q))
                .map(|q| {
                    let (b, p) = concrete.nodes[q as usize];
                    ((discrete.members(b)[0], p), q)
                })
                .collect();
            let vf = forward(&concrete, &subject, Bound::Lower, None, &mut budget).unwrap();
            let vb = backward(&concrete, &subject, Bound::Lower, None, &mut budget).unwrap();
            let mut r = Refiner::new(&env, &n, &subject, split_all, &mut budget).unwrap();
            check(&r, &concrete, &renamed, &vf, &vb);
            for steps in 0..=m.num_states() {
                let dir = if (steps / switch) % 2 == 0 { Direction::Forward } else { Direction::Backward };
                if !r.step(dir, &mut budget).unwrap() {
                    break;
                }
                check(&r, &concrete, &renamed, &vf, &vb);
            }
            prop_assert!(r.finished().is_some());
        }
    }
}
