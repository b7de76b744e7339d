//! The label fixpoints of sections 3 to 5: forward labels `V_F` and backward labels `V_B`.
//!
//! `V_F(q)` is the set of subject states `n` such that `(q, n)` is reachable in `Q || N`; `V_B(q)` the
//! set of `n` from which `(q, n)` reaches an error. For every `Q` edge `(q, a, q')`, a synchronised
//! action moves `N` along its `a`-edges, an action outside `alpha N` leaves `N` where it is, and
//! `N`'s local moves (tau, actions outside `alpha Q`) stay at `q`.
//!
//! Both fixpoints work a row at a time ([`DeltaLabels`]): a queued node propagates the bits added to
//! it since it was last taken, as one image per edge merged word by word, so each pair `(q, n)` is
//! still expanded once, but the work per edge is a few word operations rather than one search
//! step per subject state. The same worklist keeps the refinement loop's incremental lower labels,
//! and the images over one edge ([`forward_image`], [`backward_image`]) are shared with it.
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

use crate::bits::{Labels, ones};
use crate::error::QuotientError;
use crate::modal::QGraph;
use crate::problem::{Images, Subject};

/// Which bound a fixpoint computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// Over must edges only.
    Lower,
    /// Over all may edges.
    Upper,
}

/// A labelling with its delta worklist: each bit is propagated once, in the word-at-a-time
/// [`DeltaLabels::merge`] of a whole image. Shared by the one-shot fixpoints here and the
/// incremental lower labels of the refinement loop.
pub(crate) struct DeltaLabels {
    pub(crate) labels: Labels,
    /// Bits added to a row but not yet propagated from it.
    pub(crate) pending: Labels,
    pub(crate) queued: Vec<bool>,
    pub(crate) queue: Vec<u32>,
    /// A subject state whose arrival in any row is a violation (`N`'s `ERROR`, forward).
    pub(crate) watch: Option<u32>,
    /// The watched state has been added to some row.
    pub(crate) hit: bool,
}

impl DeltaLabels {
    pub(crate) fn new(cols: usize) -> Self {
        Self {
            labels: Labels::new(0, cols),
            pending: Labels::new(0, cols),
            queued: Vec::new(),
            queue: Vec::new(),
            watch: None,
            hit: false,
        }
    }

    pub(crate) fn add_row(&mut self) {
        self.labels.add_row();
        self.pending.add_row();
        self.queued.push(false);
    }

    #[inline]
    pub(crate) fn add(&mut self, q: u32, n: u32) {
        if self.labels.insert(q as usize, n) {
            self.hit |= self.watch == Some(n);
            self.pending.insert(q as usize, n);
            if !std::mem::replace(&mut self.queued[q as usize], true) {
                self.queue.push(q);
            }
        }
    }

    /// Adds the bits of `image` to row `q`: one pass over words, so a whole image costs about as
    /// much as one bit did through [`DeltaLabels::add`].
    pub(crate) fn merge(&mut self, q: u32, image: &[u64]) {
        let row = self.labels.row_mut(q as usize);
        let mut grew = false;
        let mut hit = false;
        for (i, (w, &x)) in row.iter_mut().zip(image).enumerate() {
            let new = x & !*w;
            if new != 0 {
                *w |= new;
                grew = true;
                if let Some(n) = self.watch {
                    hit |= n as usize >> 6 == i && new >> (n & 63) & 1 == 1;
                }
                self.pending.row_mut(q as usize)[i] |= new;
            }
        }
        self.hit |= hit;
        if grew && !std::mem::replace(&mut self.queued[q as usize], true) {
            self.queue.push(q);
        }
    }

    /// Takes the pending bits of the next queued row into `into`.
    pub(crate) fn next(&mut self, into: &mut Vec<u64>) -> Option<u32> {
        let q = self.queue.pop()?;
        self.queued[q as usize] = false;
        into.clear();
        into.extend_from_slice(self.pending.row(q as usize));
        self.pending.clear_row(q as usize);
        Some(q)
    }
}

/// Sets `image` to the states `from` moves to over an edge on shared action `g`: their
/// `g`-successors if `N` synchronises on `g`, else themselves; `N`'s `ERROR` moves nowhere.
pub(crate) fn forward_image(s: &Subject, from: &[u64], g: u32, image: &mut Vec<u64>) {
    image_over(s, from, g, s.error, Images::succ, |n| s.succ(n, g), image);
}

/// Sets `image` to the states that move into `to` over an edge on shared action `g`: their
/// `g`-predecessors if `N` synchronises on `g`, else themselves (`N`'s `ERROR` excepted: it is in
/// every label already).
pub(crate) fn backward_image(s: &Subject, to: &[u64], g: u32, image: &mut Vec<u64>) {
    image_over(s, to, g, None, Images::pred, |n| s.pred(n, g), image);
}

/// The image of `rows` over an edge on `g` in one direction: `table` and `moves` give a state's
/// neighbours on `g` (as a bitset, or listed when `N` has no image table); `skip` is a state with
/// no neighbours in this direction. Generic, so each direction compiles to its own loop.
fn image_over<I: Iterator<Item = u32>>(
    s: &Subject,
    rows: &[u64],
    g: u32,
    skip: Option<u32>,
    table: fn(&Images, u32, u32) -> &[u64],
    moves: impl Fn(u32) -> I,
    image: &mut Vec<u64>,
) {
    image.clear();
    if s.syncs[g as usize] {
        image.resize(rows.len(), 0);
        for n in ones(rows).filter(|&n| Some(n) != skip) {
            if let Some(images) = &s.images {
                for (w, &x) in image.iter_mut().zip(table(images, g, n)) {
                    *w |= x;
                }
            } else {
                for t in moves(n) {
                    image[t as usize >> 6] |= 1 << (t & 63);
                }
            }
        }
    } else {
        image.extend_from_slice(rows);
        clear_error(s, image);
    }
}

fn clear_error(s: &Subject, image: &mut [u64]) {
    if let Some(x) = s.error {
        image[x as usize >> 6] &= !(1 << (x & 63));
    }
}

/// A fresh worklist over `rows` rows, every seeded bit pending.
fn start(seed: Option<Labels>, rows: usize, cols: usize) -> DeltaLabels {
    let mut d = DeltaLabels::new(cols);
    for _ in 0..rows {
        d.add_row();
    }
    if let Some(seed) = seed {
        for q in 0..rows {
            d.merge(q as u32, seed.row(q));
        }
    }
    d
}

/// Forward labels of `subject` over `graph`.
pub(crate) fn forward(
    graph: &QGraph,
    subject: &Subject,
    bound: Bound,
    seed: Option<Labels>,
    budget: &mut Budget<'_>,
) -> Result<Labels, QuotientError> {
    let mut d = start(seed, graph.len(), subject.n);
    d.add(0, subject.initial);
    let (mut delta, mut image) = (Vec::new(), Vec::new());
    while let Some(q) = d.next(&mut delta) {
        budget.tick()?;
        if graph.is_error(q) {
            continue;
        }
        clear_error(subject, &mut delta);
        for n in ones(&delta) {
            for &t in subject.local_out.of(n) {
                d.add(q, t);
            }
        }
        for e in graph.out.of(q) {
            if bound == Bound::Lower && !e.must_f {
                continue;
            }
            forward_image(subject, &delta, e.g, &mut image);
            d.merge(e.other, &image);
        }
    }
    Ok(d.labels)
}

/// Backward labels of `subject` over `graph`.
pub(crate) fn backward(
    graph: &QGraph,
    subject: &Subject,
    bound: Bound,
    seed: Option<Labels>,
    budget: &mut Budget<'_>,
) -> Result<Labels, QuotientError> {
    let mut d = start(seed, graph.len(), subject.n);
    if let Some(pi) = graph.error {
        for n in 0..subject.n as u32 {
            d.add(pi, n);
        }
    }
    if let Some(err) = subject.error {
        for q in 0..graph.len() as u32 {
            d.add(q, err);
        }
    }
    let (mut delta, mut image) = (Vec::new(), Vec::new());
    while let Some(q) = d.next(&mut delta) {
        budget.tick()?;
        if !graph.is_error(q) {
            for n in ones(&delta) {
                for &src in subject.local_in.of(n) {
                    d.add(q, src);
                }
            }
        }
        for e in graph.inc.of(q) {
            if bound == Bound::Lower && !e.must_b {
                continue;
            }
            backward_image(subject, &delta, e.g, &mut image);
            d.merge(e.other, &image);
        }
    }
    Ok(d.labels)
}
