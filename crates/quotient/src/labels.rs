//! The label fixpoints of sections 3 to 5: forward labels `V_F` and backward labels `V_B`.
//!
//! `V_F(q)` is the set of subject states `n` such that `(q, n)` is reachable in `Q || N`; `V_B(q)` the
//! set of `n` from which `(q, n)` reaches an error. Both are computed as a breadth-first search over
//! *pairs* `(q, n)` with the labels themselves as the visited set, so each pair is expanded once and
//! the cost is that of exploring `Q || N`: for every `Q` edge `(q, a, q')`, a synchronised action
//! moves `N` along its `a`-edges, an action outside `alpha N` leaves `N` where it is, and `N`'s local
//! moves (tau, actions outside `alpha Q`) stay at `q`.
//!
//! On an abstract graph, [`Bound::Lower`] uses only the must edges of the direction (forward must
//! edges forward, backward must edges backward) and [`Bound::Upper`] every may edge. Lower bounds
//! may be *seeded* with the lower labels of a coarser abstraction, which stay valid under
//! refinement (section 6); seeding with valid lower bounds only speeds the fixpoint up.
//!
//! Error tuples — the error node of `Q`, or `N`'s `ERROR` — are never expanded forwards and are the
//! start of the backward search: the error node's label holds every subject state and every node's
//! label holds `N`'s `ERROR`.

use guarantor_compose::Budget;

use crate::bits::Labels;
use crate::error::QuotientError;
use crate::modal::QGraph;
use crate::problem::Subject;

/// Which bound a fixpoint computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// Over must edges only.
    Lower,
    /// Over all may edges.
    Upper,
}

/// A worklist of pairs whose visited set is the label matrix.
struct Search {
    labels: Labels,
    work: Vec<(u32, u32)>,
}

impl Search {
    fn new(seed: Option<Labels>, rows: usize, cols: usize) -> Self {
        let labels = seed.unwrap_or_else(|| Labels::new(rows, cols));
        let mut work = Vec::new();
        for q in 0..labels.rows() {
            work.extend(labels.members(q).map(|n| (q as u32, n)));
        }
        Self { labels, work }
    }

    #[inline]
    fn add(&mut self, q: u32, n: u32) {
        if self.labels.insert(q as usize, n) {
            self.work.push((q, n));
        }
    }
}

/// Forward labels of `subject` over `graph`.
pub(crate) fn forward(
    graph: &QGraph,
    subject: &Subject,
    bound: Bound,
    seed: Option<Labels>,
    budget: &mut Budget<'_>,
) -> Result<Labels, QuotientError> {
    let mut s = Search::new(seed, graph.len(), subject.n);
    s.add(0, subject.initial);
    while let Some((q, n)) = s.work.pop() {
        budget.tick()?;
        if graph.is_error(q) || subject.error == Some(n) {
            continue;
        }
        for &t in subject.local_out.of(n) {
            s.add(q, t);
        }
        for e in graph.out.of(q) {
            if bound == Bound::Lower && !e.must_f {
                continue;
            }
            if subject.syncs[e.g as usize] {
                for t in subject.succ(n, e.g) {
                    s.add(e.other, t);
                }
            } else {
                s.add(e.other, n);
            }
        }
    }
    Ok(s.labels)
}

/// Backward labels of `subject` over `graph`.
pub(crate) fn backward(
    graph: &QGraph,
    subject: &Subject,
    bound: Bound,
    seed: Option<Labels>,
    budget: &mut Budget<'_>,
) -> Result<Labels, QuotientError> {
    let mut s = Search::new(seed, graph.len(), subject.n);
    if let Some(pi) = graph.error {
        for n in 0..subject.n as u32 {
            s.add(pi, n);
        }
    }
    if let Some(err) = subject.error {
        for q in 0..graph.len() as u32 {
            s.add(q, err);
        }
    }
    while let Some((q, n)) = s.work.pop() {
        budget.tick()?;
        if !graph.is_error(q) {
            for &src in subject.local_in.of(n) {
                s.add(q, src);
            }
        }
        for e in graph.inc.of(q) {
            if bound == Bound::Lower && !e.must_b {
                continue;
            }
            if subject.syncs[e.g as usize] {
                for src in subject.pred(n, e.g) {
                    s.add(e.other, src);
                }
            } else if subject.error != Some(n) {
                s.add(e.other, n);
            }
        }
    }
    Ok(s.labels)
}
