//! Assumption synthesis: the exact construction (sections 3, 4) and the refinement loop (section 6).
//!
//! One *round* takes a partition `≈` of `M`'s states and produces an assumption:
//! 1. build the abstract environment `M/≈ || P_err` with may edges flagged must-forward and
//!    must-backward;
//! 2. forward bounds: lower labels over forward must edges (seeded with the previous round's lower
//!    labels), upper labels over may edges; extract `≃_F` and build `N_F = N/≃_F`;
//! 3. backward bounds on `N_F` the same way (over backward must edges; seeded with the previous
//!    lower labels, carried over to the new `N_F` through the class map, which only coarsens);
//!    extract `≃_B`;
//! 4. the assumption is `N/(≃_B ∘ ≃_F)`, with the composed class map as its homomorphism.
//!
//! The refinement loop starts from `{m0}, {rest}` (plus `M`'s `ERROR` alone) and, while some lower
//! and upper label differ, splits one block on a may edge that is not a must edge: forward, the
//! target block into members with and without an `a`-predecessor in the source block; backward,
//! the source block into members with and without an `a`-successor in the target block. The edge is
//! chosen by the paper's heuristic: among edges whose lower labels could change (forward: `N` has
//! an `a`-edge from the source's lower label to outside the target's; backward: from outside the
//! source's lower label into the target's), the one nearest the initial node over forward must
//! edges (forward) or nearest the error over backward must edges (backward). If no edge qualifies
//! any non-must edge is taken, nearest first, so every step splits a block and the loop ends after
//! at most `|M|` steps. The direction switches every [`QuotientConfig::switch_every`] steps and is
//! skipped when its bounds already coincide. The loop stops when both pairs of bounds coincide.
//!
//! With the discrete partition every may edge is a must edge, the bounds are exact, and the round
//! is the exact construction; that is what [`QuotientConfig::refine`]` = false` runs.
//!
//! Every round's assumption is sound and invertible (`M || N/≃ |= P` iff `M || N |= P`), because
//! `≃_F` refines the exact forward equivalence and `≃_B` the exact backward equivalence of `N_F`.
//! So the loop is anytime: a step limit, deadline or cancellation returns the smallest assumption
//! found so far (before the first round, `N` itself).

use guarantor_compose::{Budget, ComposeError};
use guarantor_lts::{Lts, ops};

use crate::bits::Labels;
use crate::certificate::Homomorphism;
use crate::config::QuotientConfig;
use crate::equiv::{classes, compose_classes};
use crate::error::QuotientError;
use crate::labels::{Bound, backward, forward};
use crate::modal::{NO_EDGE, QGraph};
use crate::partition::Partition;
use crate::problem::{Env, Subject};

/// The size of the assumption after one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepSize {
    /// Refinement steps done before this round (0 for the initial abstraction).
    pub step: usize,
    /// States of the abstraction of `M`.
    pub abstraction_states: usize,
    /// States of the assumption.
    pub states: usize,
    /// Transitions of the assumption.
    pub transitions: usize,
}

/// The result of synthesising one assumption.
#[derive(Clone, Debug)]
pub struct Synthesis {
    /// The assumption `N/~`, over `N`'s alphabet.
    pub assumption: Lts,
    /// The map from `N`'s states onto the assumption's (check with
    /// [`check_homomorphism`](crate::check_homomorphism)).
    pub homomorphism: Homomorphism,
    /// The number of refinement steps (splits of the abstraction of `M`).
    pub refinement_steps: usize,
    /// The assumption's size after each round, in order.
    pub sizes: Vec<StepSize>,
    /// Whether the loop ran until lower and upper bounds coincided (always true for the exact
    /// construction).
    pub converged: bool,
    /// The budget that ended the loop early, if one did.
    pub stopped_by: Option<ComposeError>,
}

/// Synthesises an assumption for `n` against the rest of the system `m` (one explicit LTS) and
/// `properties`, by refinement or exactly as `config.refine` says.
///
/// # Errors
/// A nondeterministic property, or an exhausted [`QuotientConfig::compose`] budget while
/// building the properties' error LTS. Exhausting [`QuotientConfig::refinement`] or
/// [`QuotientConfig::max_steps`] is not an error (see [`Synthesis::stopped_by`]).
pub fn synthesize(
    m: &Lts,
    n: &Lts,
    properties: &[&Lts],
    config: &QuotientConfig,
) -> Result<Synthesis, QuotientError> {
    let env = Env::new(m, properties, &config.compose)?;
    let subject = Subject::new(n, &env.alphabet);
    let mut run = Run {
        env: &env,
        n,
        subject: &subject,
        best: Best {
            lts: n.clone(),
            map: Homomorphism::identity(n.num_states()),
        },
        sizes: Vec::new(),
    };
    let mut budget = match config.refinement.budget() {
        Ok(b) => b,
        Err(e) => return Ok(run.finish(0, false, Some(e))),
    };
    let part = initial_partition(m, config.refine);
    let (steps, converged, stopped) = match run.refine(part, config, &mut budget) {
        Ok((steps, converged)) => (steps, converged, None),
        Err(Stop::Budget(steps, e)) => (steps, false, Some(e)),
        Err(Stop::Fatal(e)) => return Err(e),
    };
    Ok(run.finish(steps, converged, stopped))
}

/// `{m0}, {rest}` with `M`'s `ERROR` alone, or the discrete partition for the exact construction.
fn initial_partition(m: &Lts, refine: bool) -> Partition {
    let mut part = Partition::new(m.num_states());
    if refine {
        part.isolate(m.initial().as_u32());
        if let Some(e) = m.error_state() {
            part.isolate(e.as_u32());
        }
    } else {
        for s in 0..m.num_states() as u32 {
            part.isolate(s);
        }
    }
    part
}

/// Why the loop stopped without converging.
enum Stop {
    /// A budget ran out after this many steps.
    Budget(usize, ComposeError),
    /// A real error.
    Fatal(QuotientError),
}

impl From<QuotientError> for Stop {
    fn from(e: QuotientError) -> Self {
        match e {
            QuotientError::Compose(c) if c.is_budget() => Stop::Budget(0, c),
            other => Stop::Fatal(other),
        }
    }
}

/// The smallest assumption so far.
struct Best {
    lts: Lts,
    map: Homomorphism,
}

/// The state of one synthesis.
struct Run<'a> {
    env: &'a Env<'a>,
    n: &'a Lts,
    subject: &'a Subject,
    best: Best,
    sizes: Vec<StepSize>,
}

/// What a round leaves for the next one.
struct Round {
    graph: QGraph,
    block_of_m: Vec<u32>,
    fl: Labels,
    fu: Labels,
    cf: Vec<u32>,
    nf: Subject,
    bl: Labels,
    bu: Labels,
}

/// Which equivalence a step refines for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
}

impl Run<'_> {
    fn finish(
        self,
        refinement_steps: usize,
        converged: bool,
        stopped_by: Option<ComposeError>,
    ) -> Synthesis {
        Synthesis {
            assumption: self.best.lts,
            homomorphism: self.best.map,
            refinement_steps,
            sizes: self.sizes,
            converged,
            stopped_by,
        }
    }

    /// The refinement loop; returns the number of steps and whether the bounds converged.
    fn refine(
        &mut self,
        mut part: Partition,
        config: &QuotientConfig,
        budget: &mut Budget<'_>,
    ) -> Result<(usize, bool), Stop> {
        let switch = config.switch_every.max(1);
        let mut prev: Option<Round> = None;
        let mut steps = 0;
        loop {
            let round = self
                .round(&part, prev.as_ref(), steps, budget)
                .map_err(|e| with_steps(e, steps))?;
            let (done_f, done_b) = (round.fl.same(&round.fu), round.bl.same(&round.bu));
            if done_f && done_b {
                return Ok((steps, true));
            }
            if config.max_steps.is_some_and(|max| steps >= max) {
                return Ok((steps, false));
            }
            let mut dir = if (steps / switch) % 2 == 0 {
                Direction::Forward
            } else {
                Direction::Backward
            };
            if (dir == Direction::Forward && done_f) || (dir == Direction::Backward && done_b) {
                dir = if dir == Direction::Forward {
                    Direction::Backward
                } else {
                    Direction::Forward
                };
            }
            let edge = match dir {
                Direction::Forward => choose_forward(&round, self.subject),
                Direction::Backward => choose_backward(&round),
            };
            let Some(edge) = edge else {
                return Ok((steps, false));
            };
            split(self.env.m, &mut part, &round.graph, edge, dir);
            steps += 1;
            budget.check_now().map_err(|e| Stop::Budget(steps, e))?;
            prev = Some(round);
        }
    }

    /// One round for the partition `part` (see the module docs); records its assumption.
    fn round(
        &mut self,
        part: &Partition,
        prev: Option<&Round>,
        step: usize,
        budget: &mut Budget<'_>,
    ) -> Result<Round, QuotientError> {
        let graph = QGraph::build(self.env, part, budget)?;
        let all_must = |f: fn(&crate::modal::QEdge) -> bool| {
            (0..graph.len() as u32).all(|q| graph.out.of(q).iter().all(f))
        };
        let (exact_f, exact_b) = (all_must(|e| e.must_f), all_must(|e| e.must_b));
        let seed = prev.map(|p| carry_rows(p, &p.fl, &graph, part));
        let fl = forward(&graph, self.subject, Bound::Lower, seed, budget)?;
        let fu = if exact_f {
            fl.clone()
        } else {
            forward(&graph, self.subject, Bound::Upper, None, budget)?
        };
        let (cf, _) = classes(self.subject.n, self.subject.error, &fl, Some(&fu));
        let n_f = ops::quotient(self.n, &cf)?;
        let nf = Subject::new(&n_f, &self.env.alphabet);
        let seed = prev.and_then(|p| carry_backward(p, &graph, part, &cf, nf.n));
        let bl = backward(&graph, &nf, Bound::Lower, seed, budget)?;
        let bu = if exact_b {
            bl.clone()
        } else {
            backward(&graph, &nf, Bound::Upper, None, budget)?
        };
        let (cb, _) = classes(nf.n, nf.error, &bl, Some(&bu));
        let map = compose_classes(&cf, &cb);
        let lts = ops::quotient(self.n, &map)?;
        self.sizes.push(StepSize {
            step,
            abstraction_states: part.num_blocks(),
            states: lts.num_states(),
            transitions: lts.num_transitions(),
        });
        if lts.num_states() <= self.best.lts.num_states() {
            self.best = Best {
                lts,
                map: Homomorphism { classes: map },
            };
        }
        Ok(Round {
            graph,
            block_of_m: part.blocks().to_vec(),
            fl,
            fu,
            cf,
            nf,
            bl,
            bu,
        })
    }
}

/// Attaches the step count to a budget stop.
fn with_steps(e: QuotientError, steps: usize) -> Stop {
    match Stop::from(e) {
        Stop::Budget(_, c) => Stop::Budget(steps, c),
        fatal @ Stop::Fatal(_) => fatal,
    }
}

/// The old node each node of `graph` refines (its block's old block, same property state).
fn old_node(prev: &Round, graph: &QGraph, part: &Partition, q: usize) -> Option<u32> {
    if graph.is_error(q as u32) {
        return prev.graph.error;
    }
    let (b, p) = graph.nodes[q];
    let m = part.members(b)[0];
    prev.graph
        .index
        .get(&(prev.block_of_m[m as usize], p))
        .copied()
}

/// The previous lower labels `old`, moved onto the nodes of the refined `graph`.
fn carry_rows(prev: &Round, old: &Labels, graph: &QGraph, part: &Partition) -> Labels {
    let mut seed = Labels::new(graph.len(), old.cols());
    for q in 0..graph.len() {
        if let Some(o) = old_node(prev, graph, part, q) {
            seed.copy_row(q, old, o as usize);
        }
    }
    seed
}

/// The previous backward lower labels, moved onto the refined graph and onto the new `N_F`
/// (`None` if the new forward classes are not a coarsening of the old, which should not happen).
fn carry_backward(
    prev: &Round,
    graph: &QGraph,
    part: &Partition,
    cf: &[u32],
    k: usize,
) -> Option<Labels> {
    let mut to_new = vec![u32::MAX; prev.nf.n];
    for (&old, &new) in prev.cf.iter().zip(cf) {
        let slot = &mut to_new[old as usize];
        if *slot != u32::MAX && *slot != new {
            return None;
        }
        *slot = new;
    }
    let mut seed = Labels::new(graph.len(), k);
    for q in 0..graph.len() {
        if let Some(o) = old_node(prev, graph, part, q) {
            for c in prev.bl.members(o as usize) {
                seed.insert(q, to_new[c as usize]);
            }
        }
    }
    Some(seed)
}

/// Breadth-first distances over the edges `pick` keeps, from `start`, following `adj`.
fn distances(
    graph: &QGraph,
    start: Option<u32>,
    adj: &crate::bits::Csr<crate::modal::QEdge>,
    pick: fn(&crate::modal::QEdge) -> bool,
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; graph.len()];
    let mut queue = std::collections::VecDeque::new();
    if let Some(s) = start {
        dist[s as usize] = 0;
        queue.push_back(s);
    }
    while let Some(q) = queue.pop_front() {
        for e in adj.of(q).iter().filter(|e| pick(e)) {
            if dist[e.other as usize] == u32::MAX {
                dist[e.other as usize] = dist[q as usize] + 1;
                queue.push_back(e.other);
            }
        }
    }
    dist
}

/// A non-must edge `(source node, edge)` chosen by `key` (smallest first), preferring edges that
/// `useful` accepts.
fn pick_edge(
    graph: &QGraph,
    is_must: fn(&crate::modal::QEdge) -> bool,
    key: impl Fn(u32, &crate::modal::QEdge) -> u32,
    useful: impl Fn(u32, &crate::modal::QEdge) -> bool,
) -> Option<u32> {
    let mut best: Option<(bool, u32, u32)> = None; // (not useful, key, medge)
    for q in 0..graph.len() as u32 {
        for e in graph.out.of(q) {
            if e.medge == NO_EDGE || is_must(e) {
                continue;
            }
            let k = key(q, e);
            if best.is_some_and(|(nu, bk, _)| !nu && bk <= k) {
                continue; // cannot beat a useful edge that is at least as near
            }
            let cand = (!useful(q, e), k, e.medge);
            if best.is_none_or(|b| (cand.0, cand.1) < (b.0, b.1)) {
                best = Some(cand);
            }
        }
    }
    best.map(|(_, _, m)| m)
}

/// The forward split edge (see the module docs).
fn choose_forward(round: &Round, subject: &Subject) -> Option<u32> {
    let g = &round.graph;
    let dist = distances(g, Some(0), &g.out, |e| e.must_f);
    let fl = &round.fl;
    let useful = |s: u32, e: &crate::modal::QEdge| {
        fl.members(s as usize).any(|n| {
            if subject.error == Some(n) {
                false
            } else if subject.syncs[e.g as usize] {
                subject.succ(n, e.g).any(|t| !fl.get(e.other as usize, t))
            } else {
                !fl.get(e.other as usize, n)
            }
        })
    };
    pick_edge(g, |e| e.must_f, |s, _| dist[s as usize], useful)
}

/// The backward split edge (see the module docs).
fn choose_backward(round: &Round) -> Option<u32> {
    let g = &round.graph;
    let dist = distances(g, g.error, &g.inc, |e| e.must_b);
    let (bl, nf) = (&round.bl, &round.nf);
    let useful = |s: u32, e: &crate::modal::QEdge| {
        bl.members(e.other as usize).any(|t| {
            if nf.syncs[e.g as usize] {
                nf.pred(t, e.g).any(|src| !bl.get(s as usize, src))
            } else {
                nf.error != Some(t) && !bl.get(s as usize, t)
            }
        })
    };
    pick_edge(g, |e| e.must_b, |_, e| dist[e.other as usize], useful)
}

/// Splits the abstraction of `m` on abstract edge `medge` (see the module docs).
fn split(m: &Lts, part: &mut Partition, graph: &QGraph, medge: u32, dir: Direction) {
    let e = graph.medges[medge as usize];
    let action = guarantor_lts::ActionId::from_u32(e.action);
    let mut set: Vec<u32> = Vec::new();
    match dir {
        Direction::Forward => {
            for &s in part.members(e.src) {
                for t in m.successors(guarantor_lts::StateId::from_u32(s), action) {
                    if part.block_of(t.as_u32()) == e.dst {
                        set.push(t.as_u32());
                    }
                }
            }
        }
        Direction::Backward => {
            for &s in part.members(e.src) {
                let sid = guarantor_lts::StateId::from_u32(s);
                if m.successors(sid, action)
                    .any(|t| part.block_of(t.as_u32()) == e.dst)
                {
                    set.push(s);
                }
            }
        }
    }
    set.sort_unstable();
    set.dedup();
    part.split(set);
}
