//! Assumption synthesis: the exact construction (sections 3, 4) and the refinement loop (section 6).
//!
//! One *round* takes a partition `≈` of `M`'s states and produces an assumption:
//! 1. build the abstract environment `M/≈ || P_err` with may edges flagged must-forward and
//!    must-backward;
//! 2. forward bounds: lower labels over forward must edges, upper labels over may edges; extract
//!    `≃_F` and build `N_F = N/≃_F`;
//! 3. backward bounds on `N_F` the same way (over backward must edges); extract `≃_B`;
//! 4. the assumption is `N/(≃_B ∘ ≃_F)`, with the composed class map as its homomorphism.
//!
//! With the discrete partition every may edge is a must edge, the bounds are exact, and the round
//! is the exact construction; that is what [`QuotientConfig::refine`]` = false` runs.
//!
//! The refinement loop (the incremental machinery is private, see the source of `refine.rs`)
//! starts from `{m0}, {rest}` (plus `M`'s `ERROR` alone) and, while some lower and upper label
//! differ, splits one block on a may edge that is not a must edge: forward, the target block into
//! members with and without an `a`-predecessor in the source block; backward, the source block
//! into members with and without an `a`-successor in the target block. The edge is chosen by the
//! paper's heuristic: among edges whose lower labels would change (forward: `N` has an `a`-edge
//! from the source's lower label to outside the target's; backward: from outside the source's
//! lower label into the target's), the one nearest the initial node over forward must edges
//! (forward) or nearest the error over backward must edges (backward). When no edge qualifies the
//! direction has converged (its lower labels are then closed under every may edge, so they equal
//! the upper ones), which is why the loop never computes upper labels. The direction switches every
//! [`QuotientConfig::switch_every`] steps and is skipped when it has converged. Backward labels are
//! over `N` until the forward bounds coincide, then over `N_F`. The loop stops when both directions
//! have converged, or when the backward classes already put every state but `ERROR` in one class
//! (no smaller assumption exists), or when the lower labels witness an error path of `M || N`
//! (the property is violated, so the one-class quotient is invertible and is returned; a round,
//! the exact construction included, does the same when its lower labels witness one). It is
//! incremental: a split recomputes only the abstract edges and label bits it can change, and no
//! assumption is extracted until the end (one round per step only with
//! [`QuotientConfig::record_sizes`]).
//!
//! Every round's assumption is sound and invertible (`M || N/≃ |= P` iff `M || N |= P`), because
//! `≃_F` refines the exact forward equivalence and `≃_B` the exact backward equivalence of `N_F`.
//! So the loop is anytime: a step limit, deadline or cancellation ends it with one round on the
//! abstraction reached (before the first step, the two-block one), run under
//! [`QuotientConfig::compose`]; if that budget is spent as well, the result is `N` itself.
//!
//! Two things bracket the loop. Before it (and before the exact construction), a breadth-first
//! search of the concrete `M || N || P_err`, limited to a small share of the inputs' size, looks for
//! a violation near the start (`probe.rs`); if it finds one, the one-class quotient is the answer
//! at once, for about what the monolithic check pays to find the same error. During it, the
//! steps' work is counted, and once it reaches [`QuotientConfig::exact_fallback`] percent of the
//! exact construction's estimated work, the loop hands over to the exact construction
//! ([`Synthesis::exact_fallback`]): on models whose subject states must all be told apart the
//! loop ends near the concrete `M` anyway, a step at a time, and the hand-over bounds its cost at
//! about `1 + percent / 100` times the exact construction's.

use guarantor_compose::{Budget, ComposeError};
use guarantor_lts::{Lts, ops};

use crate::certificate::Homomorphism;
use crate::config::QuotientConfig;
use crate::equiv::{classes, compose_classes};
use crate::error::QuotientError;
use crate::labels::{Bound, backward, forward};
use crate::modal::QGraph;
use crate::partition::Partition;
use crate::probe::{Found, probe_limit, violation_within};
use crate::problem::{Env, Subject};
use crate::refine::{Direction, Refiner, one_class};

/// The size of the assumption after one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepSize {
    /// Refinement steps done before this round (0 for the initial abstraction).
    pub step: usize,
    /// States of the abstraction of `M` (0 when the search before synthesis found a violation).
    pub abstraction_states: usize,
    /// States of the assumption.
    pub states: usize,
    /// Transitions of the assumption.
    pub transitions: usize,
}

/// A run of `M || N` into an error, found by the search before synthesis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeViolation {
    /// The visible actions of a shortest such run (breadth-first over `M || N || P_err`): a trace
    /// of `N` and of the components `M` was composed of.
    pub trace: Vec<String>,
    /// The tuples the search visited.
    pub visited: usize,
    /// The moves it enumerated.
    pub moves: usize,
}

impl From<Found> for ProbeViolation {
    fn from(f: Found) -> Self {
        Self {
            trace: f.trace,
            visited: f.visited,
            moves: f.moves,
        }
    }
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
    /// Whether synthesis finished rather than being stopped by a budget or step limit: the bounds
    /// coincided, or no smaller assumption exists (one class besides `ERROR`), or a violation was
    /// witnessed (always true for the exact construction).
    pub converged: bool,
    /// The budget that ended the loop early, if one did.
    pub stopped_by: Option<ComposeError>,
    /// The loop reached its work bound ([`QuotientConfig::exact_fallback`]) and finished with
    /// the exact construction after [`Synthesis::refinement_steps`] steps.
    pub exact_fallback: bool,
    /// The violation the search before synthesis found, if it found one (the assumption is then
    /// the one-class quotient).
    pub violation: Option<ProbeViolation>,
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
        best: None,
        sizes: Vec::new(),
        exact_fallback: false,
    };
    let mut budget = match config.refinement.budget() {
        Ok(b) => b,
        Err(e) => return Ok(run.finish(0, false, Some(e))),
    };
    // A violation close to the start ends synthesis at once (see `probe`): the coarsest quotient.
    match violation_within(&env, &subject, n, probe_limit(&env, &subject), &mut budget) {
        Ok(Some(found)) => {
            run.offer(one_class(&subject), 0, 0)?;
            let mut s = run.finish(0, true, None);
            s.violation = Some(found.into());
            return Ok(s);
        }
        Ok(None) => {}
        Err(e) => return Ok(run.finish(0, false, Some(budget_stop(e)?))),
    }
    if !config.refine {
        return match run.round(&discrete_partition(m), 0, &mut budget) {
            Ok(()) => Ok(run.finish(0, true, None)),
            Err(e) if e.is_budget() => {
                let QuotientError::Compose(c) = e else {
                    return Err(e);
                };
                Ok(run.finish(0, false, Some(c)))
            }
            Err(e) => Err(e),
        };
    }
    run.refine(config, &mut budget)
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
    best: Option<Best>,
    sizes: Vec<StepSize>,
    /// The loop handed over to the exact construction.
    exact_fallback: bool,
}

impl Run<'_> {
    fn finish(
        self,
        refinement_steps: usize,
        converged: bool,
        stopped_by: Option<ComposeError>,
    ) -> Synthesis {
        let best = self.best.unwrap_or_else(|| Best {
            lts: self.n.clone(),
            map: Homomorphism::identity(self.n.num_states()),
        });
        Synthesis {
            assumption: best.lts,
            homomorphism: best.map,
            refinement_steps,
            sizes: self.sizes,
            converged,
            stopped_by,
            exact_fallback: self.exact_fallback,
            violation: None,
        }
    }

    /// Keeps `map` (an assumption after `step` steps with `blocks` abstract states) if it is no
    /// larger than the best so far; records its size.
    fn offer(&mut self, map: Vec<u32>, step: usize, blocks: usize) -> Result<(), QuotientError> {
        let lts = ops::quotient(self.n, &map)?;
        self.sizes.push(StepSize {
            step,
            abstraction_states: blocks,
            states: lts.num_states(),
            transitions: lts.num_transitions(),
        });
        if self
            .best
            .as_ref()
            .is_none_or(|b| lts.num_states() <= b.lts.num_states())
        {
            self.best = Some(Best {
                lts,
                map: Homomorphism { classes: map },
            });
        }
        Ok(())
    }

    /// The refinement loop (see [`crate::refine`]): the incremental loop decides the splits;
    /// a full round per step runs only when sizes are recorded, and once at the end if the loop
    /// stops before converging.
    fn refine(
        mut self,
        config: &QuotientConfig,
        budget: &mut Budget<'_>,
    ) -> Result<Synthesis, QuotientError> {
        let switch = config.switch_every.max(1);
        let mut steps = 0;
        let mut refiner = None;
        // The abstraction reached, once the loop's own state is gone.
        let mut reached: Option<Partition> = None;
        let stop = loop {
            let r = match refiner.as_mut() {
                Some(r) => r,
                None => {
                    match Refiner::new(self.env, self.n, self.subject, config.split_all, budget) {
                        Ok(r) => refiner.insert(r),
                        Err(e) => break Some(budget_stop(e)?),
                    }
                }
            };
            if config.record_sizes && self.sizes.last().is_none_or(|s| s.step != steps) {
                // The round's graph is built next to the loop's, which it holds.
                let held = config.refinement.holding(r.units());
                if let Err(e) = held
                    .budget()
                    .map_err(Into::into)
                    .and_then(|mut b| self.round(&r.part, steps, &mut b))
                {
                    break Some(budget_stop(e)?);
                }
            }
            if let Some(map) = r.finished() {
                let blocks = r.part.num_blocks();
                if config.record_sizes {
                    self.sizes.pop(); // the same partition's round, replaced by the final map
                }
                self.offer(map, steps, blocks)?;
                return Ok(self.finish(steps, true, None));
            }
            if config.max_steps.is_some_and(|max| steps >= max) {
                break None;
            }
            // Not finished, and the steps have cost their share of the exact construction: it is
            // cheaper to finish with that than to go on splitting.
            if over_work_bound(config, r, self.env.m) {
                // The exact construction needs nothing of the loop's: the loop's memory goes
                // first, but for its partition, kept for the closing round should the exact
                // one not fit.
                let part = r.part.clone();
                refiner = None;
                match self.round(&discrete_partition(self.env.m), steps, budget) {
                    Ok(()) => {
                        self.exact_fallback = true;
                        return Ok(self.finish(steps, true, None));
                    }
                    Err(e) => {
                        reached = Some(part);
                        break Some(budget_stop(e)?);
                    }
                }
            }
            let dir = if (steps / switch).is_multiple_of(2) {
                Direction::Forward
            } else {
                Direction::Backward
            };
            match r.step(dir, budget) {
                Ok(true) => {
                    steps += 1;
                    note_progress(&config.refinement, steps, r.part.num_blocks());
                }
                Ok(false) => {}
                Err(e) => break Some(budget_stop(e)?),
            }
            if let Err(e) = budget.check_now() {
                break Some(e);
            }
        };
        // Stopped early: one round on the abstraction reached gives the (still invertible)
        // assumption. It runs under the compose budget, since the loop's may be spent; if that
        // runs out too (a shared deadline), the assumption is `N` itself and the final check will
        // report the budget. The loop's memory goes first: the round needs only its partition.
        if !config.record_sizes || stop.is_some() {
            let part = match refiner.take() {
                Some(r) => r.part,
                None => reached.unwrap_or_else(|| initial_partition(self.env.m)),
            };
            match config.compose.budget() {
                Ok(mut budget) => {
                    if let Err(e) = self.round(&part, steps, &mut budget) {
                        budget_stop(e)?;
                    }
                }
                Err(e) => {
                    budget_stop(e.into())?;
                }
            }
        }
        Ok(self.finish(steps, false, stop))
    }

    /// One round for the partition `part` (see the module docs); offers its assumption.
    fn round(
        &mut self,
        part: &Partition,
        step: usize,
        budget: &mut Budget<'_>,
    ) -> Result<(), QuotientError> {
        let graph = QGraph::build_for(self.env, part, self.subject.n, budget)?;
        let all_must = |f: fn(&crate::modal::QEdge) -> bool| {
            (0..graph.len() as u32).all(|q| graph.out.of(q).iter().all(f))
        };
        let (exact_f, exact_b) = (all_must(|e| e.must_f), all_must(|e| e.must_b));
        let fl = forward(&graph, self.subject, Bound::Lower, None, budget)?;
        // A must witness of an error path (lower labels hold for every member of a node's block,
        // and node 0 is `({m0}, p0)`): the property is violated, and the one-class quotient is
        // invertible (see `refine::one_class`).
        let error_reached = graph
            .error
            .is_some_and(|e| fl.row(e as usize).iter().any(|&w| w != 0))
            || self
                .subject
                .error
                .is_some_and(|x| (0..fl.rows()).any(|q| fl.get(q, x)));
        if error_reached {
            return self.offer(one_class(self.subject), step, part.num_blocks());
        }
        let fu = if exact_f {
            None
        } else {
            Some(forward(&graph, self.subject, Bound::Upper, None, budget)?)
        };
        let (cf, _) = classes(self.subject.n, self.subject.error, &fl, fu.as_ref());
        let n_f = ops::quotient(self.n, &cf)?;
        let nf = Subject::new(&n_f, &self.env.alphabet);
        let bl = backward(&graph, &nf, Bound::Lower, None, budget)?;
        let bu = if exact_b {
            None
        } else {
            Some(backward(&graph, &nf, Bound::Upper, None, budget)?)
        };
        if bl.get(0, nf.initial) {
            return self.offer(one_class(self.subject), step, part.num_blocks());
        }
        let (cb, _) = classes(nf.n, nf.error, &bl, bu.as_ref());
        self.offer(compose_classes(&cf, &cb), step, part.num_blocks())
    }
}

/// `{m0}, {rest}` with `M`'s `ERROR` alone.
/// What the exact construction costs per node or edge of the concrete graph, in the units of
/// [`Refiner::work`]: it builds the graph (hashing every node), runs two label fixpoints over it
/// and extracts classes, where a loop step's unit is one move or node gone over. Measured with
/// callgrind on the FSP sliding window protocol (`examples/swp_fsp`): about 760 instructions per
/// estimated item for the exact construction against about 130 per unit of a step.
const EXACT_COST_PER_ITEM: u128 = 6;

/// Whether the loop's work ([`Refiner::work`]: `M`'s moves scanned, abstract nodes and edges gone
/// over) has reached its share of the estimated work of the exact construction, which goes over
/// every node and edge of the concrete `M || P_err`: `M`'s states and moves, times the abstract
/// graph's nodes per block. Counting items, not time, keeps the hand-over point (and so the step
/// count) the same on every machine.
fn over_work_bound(config: &QuotientConfig, r: &Refiner<'_>, m: &Lts) -> bool {
    config.exact_fallback.is_some_and(|percent| {
        // work * 100 >= percent% of (M's states and moves) * (nodes / blocks) * cost per item,
        // in integers: both sides multiplied by the number of blocks.
        let wide = |x: usize| x as u128;
        let items = wide(m.num_states() + m.num_transitions()) * wide(r.num_nodes().max(1));
        let estimate = items * EXACT_COST_PER_ITEM * u128::from(percent);
        wide(r.work()) * 100 * wide(r.part.num_blocks().max(1)) >= estimate
    })
}

/// Every state of `m` in a block of its own: the exact construction.
fn discrete_partition(m: &Lts) -> Partition {
    let mut part = Partition::new(m.num_states());
    for s in 0..m.num_states() as u32 {
        part.isolate(s);
    }
    part
}

fn initial_partition(m: &Lts) -> Partition {
    let mut part = Partition::new(m.num_states());
    part.isolate(m.initial().as_u32());
    if let Some(e) = m.error_state() {
        part.isolate(e.as_u32());
    }
    part
}

/// The budget error inside `e`, or `e` itself if it is a real error.
fn budget_stop(e: QuotientError) -> Result<ComposeError, QuotientError> {
    match e {
        QuotientError::Compose(c) if c.is_budget() => Ok(c),
        other => Err(other),
    }
}

/// Tells a progress reader (the refinement config's monitor, if any) how far the loop is; every
/// eighth step, since a step can take microseconds.
fn note_progress(config: &guarantor_compose::Config, steps: usize, blocks: usize) {
    if let Some(monitor) = config.monitor.as_ref().filter(|_| steps.is_multiple_of(8)) {
        monitor.note(format!(
            "refinement step {steps}: abstraction of {blocks} classes"
        ));
    }
}
