//! One LTS as a state diagram in SVG, laid out by `rust-sugiyama`.
//!
//! `rust-sugiyama` (Sugiyama's layered layout: cycles broken by a feedback arc set, layers by
//! Gansner et al.'s network simplex, crossings reduced by the barycenter heuristic, coordinates by
//! Brandes and Köpf) places the states (in `place.rs`); this module draws them left to right as
//! LTSA does, each edge a curve to its target with its label at its middle, and gives every element
//! the ids and classes a page needs: state `s` of lane `l` is the group `id="l{l}-s{s}"` (class
//! `st`, plus `init`, `err`, `path`, and `last` where the run ends), the edges from `s` to `t` are one group `id="l{l}-e{s}-{t}"`
//! labelled with every action between them, as LTSA draws them (class `tr`, plus `path` when the
//! run takes one of them). The page's style sheet colours the classes, and its script moves the
//! class `cur` for the animator.
//!
//! An LTS with more than [`DrawOptions::max_states`] states is not laid out whole (a layered layout
//! of thousands of states is neither quick nor readable): the drawing shows the states the run
//! visits and their successors, or the states nearest the initial one, and says how many it shows.
//!
//! ```
//! use guarantor_lts::Lts;
//! use guarantor_view::{LaneId, draw};
//! let lts = Lts::from_edges([(0, "on", 1), (1, "off", 0)])?;
//! let d = draw::svg(&lts, LaneId::must(0), None, &draw::DrawOptions::default());
//! assert!(d.svg.contains("id=\"l0-s1\""));
//! assert!(d.svg.contains("id=\"l0-e0-1\""));
//! assert_eq!(d.shown, 2);
//! # Ok::<(), guarantor_lts::LtsError>(())
//! ```

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write;

use guarantor_lts::{Lts, StateId};

use crate::LaneId;
use crate::html::{escape, px};
use crate::place;
use crate::replay::Replay;

/// Options for [`svg`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DrawOptions {
    /// The most states laid out; a larger LTS is drawn in part (see the module docs).
    /// \[default: 300\]
    pub max_states: usize,
    /// The most states of a drawing in part: the run's states and their successors come first,
    /// then those nearest the initial state. \[default: 60\]
    pub partial_states: usize,
}

impl Default for DrawOptions {
    fn default() -> Self {
        Self {
            max_states: 300,
            partial_states: 60,
        }
    }
}

impl DrawOptions {
    /// Sets [`Self::max_states`].
    #[must_use]
    pub fn with_max_states(mut self, max: usize) -> Self {
        self.max_states = max;
        self
    }

    /// Sets [`Self::partial_states`].
    #[must_use]
    pub fn with_partial_states(mut self, max: usize) -> Self {
        self.partial_states = max;
        self
    }
}

/// A drawing: the SVG element and how much of the LTS it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Drawing {
    /// The `<svg>` element.
    pub svg: String,
    /// How many states it shows.
    pub shown: usize,
    /// How many the LTS has.
    pub states: usize,
}

/// Draws `lts` as lane `lane`, with the run `path` highlighted when given.
pub fn svg(lts: &Lts, lane: LaneId, path: Option<&Replay>, options: &DrawOptions) -> Drawing {
    let shown = chosen_states(lts, path, options);
    let index: BTreeMap<StateId, usize> = shown.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let edges = merged_edges(lts, &index, path);
    let pairs: Vec<(usize, usize)> = edges.keys().map(|(s, t)| (index[s], index[t])).collect();
    // The layers stand apart by the longest label, so that labels do not run into states.
    let longest = edges
        .values()
        .map(|l| l.iter().map(|(a, _)| a.chars().count() + 2).sum::<usize>())
        .max()
        .unwrap_or(0);
    let gap = (6.5 * px(longest) + 50.).clamp(110., 420.);
    let root = index.get(&lts.initial()).copied().unwrap_or(0);
    let at = place::positions(shown.len(), &pairs, root, gap);
    let mut out = Canvas::default();
    for (((source, target), labels), &(i, j)) in edges.iter().zip(&pairs) {
        let taken = labels.iter().any(|(_, t)| *t);
        let text: Vec<&str> = labels.iter().map(|(a, _)| a.as_str()).collect();
        let class = if taken { "tr path" } else { "tr" };
        let id = format!("l{lane}-e{}-{}", source.index(), target.index());
        out.edge(&id, class, at[i], at[j], &text.join(", "));
    }
    for (i, &s) in shown.iter().enumerate() {
        let mut class = String::from("st");
        if s == lts.initial() {
            class.push_str(" init");
        }
        if lts.is_error(s) {
            class.push_str(" err");
        }
        if path.is_some_and(|p| p.visits(s)) {
            class.push_str(" path");
        }
        if path.is_some_and(|p| p.states.last().is_some_and(|l| l.binary_search(&s).is_ok())) {
            // Where the run leaves this lane: the dead state of a deadlock, the state before a
            // violation.
            class.push_str(" last");
        }
        let label = if lts.is_error(s) {
            "E".to_owned()
        } else {
            s.index().to_string()
        };
        out.state(&format!("l{lane}-s{}", s.index()), &class, at[i], &label);
    }
    Drawing {
        svg: out.finish(lane),
        shown: shown.len(),
        states: lts.num_states(),
    }
}

/// The edges between shown states, merged per (source, target): each action's name and whether
/// the run takes it.
type Merged = BTreeMap<(StateId, StateId), Vec<(String, bool)>>;

fn merged_edges(lts: &Lts, shown: &BTreeMap<StateId, usize>, path: Option<&Replay>) -> Merged {
    let mut merged: Merged = BTreeMap::new();
    for &s in shown.keys() {
        for e in lts.outgoing(s) {
            if !shown.contains_key(&e.target) {
                continue;
            }
            let taken = path.is_some_and(|p| p.takes(s, e.action, e.target));
            merged
                .entry((s, e.target))
                .or_default()
                .push((lts.action_name(e.action).to_owned(), taken));
        }
    }
    merged
}

/// The states to draw: all of them when there are at most `max_states`; otherwise the run's own
/// states, then their successors, then the states nearest the initial one, up to the larger of
/// `partial_states` and the run's states (never more than `max_states`).
fn chosen_states(lts: &Lts, path: Option<&Replay>, options: &DrawOptions) -> Vec<StateId> {
    if lts.num_states() <= options.max_states {
        return lts.states().collect();
    }
    let visited = path.map_or(0, |p| p.states.iter().map(Vec::len).sum());
    let max = options.partial_states.max(visited).min(options.max_states);
    let mut taken = vec![false; lts.num_states()];
    let mut chosen: Vec<StateId> = Vec::new();
    let mut take = |s: StateId, chosen: &mut Vec<StateId>| {
        if chosen.len() < max && !taken[s.index()] {
            taken[s.index()] = true;
            chosen.push(s);
        }
    };
    let run: Vec<StateId> = path
        .map(|p| p.states.iter().flatten().copied().collect())
        .unwrap_or_default();
    for &s in &run {
        take(s, &mut chosen);
    }
    for &s in &run {
        for e in lts.outgoing(s) {
            take(e.target, &mut chosen);
        }
    }
    // Breadth first from the initial state fills the rest.
    let mut queue = VecDeque::from([lts.initial()]);
    let mut seen = vec![false; lts.num_states()];
    seen[lts.initial().index()] = true;
    while let Some(s) = queue.pop_front() {
        if chosen.len() >= max {
            break;
        }
        take(s, &mut chosen);
        for e in lts.outgoing(s) {
            if !seen[e.target.index()] {
                seen[e.target.index()] = true;
                queue.push_back(e.target);
            }
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The radius of a state's circle.
const R: f64 = 17.;

/// The SVG being written, and the box it covers.
#[derive(Debug, Default)]
struct Canvas {
    edges: String,
    states: String,
    lo: Option<(f64, f64)>,
    hi: Option<(f64, f64)>,
}

impl Canvas {
    fn grow(&mut self, (x, y): (f64, f64)) {
        let (lx, ly) = self.lo.unwrap_or((x, y));
        let (hx, hy) = self.hi.unwrap_or((x, y));
        self.lo = Some((lx.min(x), ly.min(y)));
        self.hi = Some((hx.max(x), hy.max(y)));
    }

    /// Grows the box by a label centred at `(x, y)` (about 6.5 pixels a character at 12 px).
    fn grow_text(&mut self, (x, y): (f64, f64), text: &str) {
        let half = 3.25 * px(text.chars().count());
        self.grow((x - half, y - 8.));
        self.grow((x + half, y + 8.));
    }

    fn state(&mut self, id: &str, class: &str, (x, y): (f64, f64), label: &str) {
        self.grow((x - R, y - R));
        self.grow((x + R, y + R));
        let _ = write!(
            self.states,
            "<g id=\"{id}\" class=\"{class}\"><ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{R}\" \
             ry=\"{R}\"/><text x=\"{x:.1}\" y=\"{y:.1}\">{}</text></g>",
            escape(label)
        );
    }

    /// An edge from the state at `a` to the state at `b`: a curve bent to the right of its
    /// direction (so the edges of a pair of states in both directions stay apart), a loop above
    /// the state for a self-loop; the arrowhead on the target's circle, the label at the middle.
    fn edge(&mut self, id: &str, class: &str, from: (f64, f64), to: (f64, f64), label: &str) {
        let (route, mid) = if from == to {
            let (x, y) = from;
            let route = format!(
                "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
                x - 8.,
                y - R + 2.,
                x - 26.,
                y - 62.,
                x + 26.,
                y - 62.,
                x + 8.,
                y - R + 2.
            );
            (route, (x, y - 56.))
        } else {
            let (dx, dy) = (to.0 - from.0, to.1 - from.1);
            let len = dx.hypot(dy);
            let bend = (0.12 * len).max(20.);
            let control = (
                f64::midpoint(from.0, to.0) - dy / len * bend,
                f64::midpoint(from.1, to.1) + dx / len * bend,
            );
            let start = towards(from, control, R);
            let end = towards(to, control, R + 1.);
            let mid = (
                0.25 * start.0 + 0.5 * control.0 + 0.25 * end.0,
                0.25 * start.1 + 0.5 * control.1 + 0.25 * end.1,
            );
            let route = format!(
                "M {:.1} {:.1} Q {:.1} {:.1}, {:.1} {:.1}",
                start.0, start.1, control.0, control.1, end.0, end.1
            );
            self.grow(control);
            (route, mid)
        };
        self.grow(from);
        self.grow(to);
        self.grow_text((mid.0, mid.1 - 6.), label);
        let _ = write!(
            self.edges,
            "<g id=\"{id}\" class=\"{class}\"><path d=\"{route}\" marker-end=\"url(#arrowhead)\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            mid.0,
            mid.1 - 6.,
            escape(label)
        );
    }

    fn finish(self, lane: LaneId) -> String {
        let pad = 10.;
        let (lx, ly) = self.lo.unwrap_or_default();
        let (hx, hy) = self.hi.unwrap_or_default();
        let (w, h) = (hx - lx + 2. * pad, hy - ly + 2. * pad);
        // Edges first, so that the states are drawn over their ends.
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lts\" id=\"lts{lane}\" \
             viewBox=\"{:.1} {:.1} {w:.1} {h:.1}\" width=\"{w:.0}\" height=\"{h:.0}\">{}{}</svg>",
            lx - pad,
            ly - pad,
            self.edges,
            self.states
        )
    }
}

/// The point at distance `r` from `centre` towards `to`.
fn towards(centre: (f64, f64), to: (f64, f64), r: f64) -> (f64, f64) {
    let (dx, dy) = (to.0 - centre.0, to.1 - centre.1);
    let len = dx.hypot(dy).max(f64::EPSILON);
    (centre.0 + dx / len * r, centre.1 + dy / len * r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LaneKind;
    use crate::replay::replay;

    /// A ring of `n` states on `tick`.
    fn ring(n: usize) -> Lts {
        Lts::from_edges((0..n).map(|i| (i, "tick", (i + 1) % n))).unwrap()
    }

    #[test]
    fn a_large_lts_is_drawn_in_part_around_the_run() {
        let lts = ring(1000);
        let run = ["tick"; 5];
        let r = replay(&lts, LaneKind::Component, &run);
        let d = svg(&lts, LaneId::must(2), Some(&r), &DrawOptions::default());
        assert_eq!((d.shown, d.states), (60, 1000));
        for s in 0..=5 {
            assert!(d.svg.contains(&format!("id=\"l2-s{s}\" class=\"st")), "{s}");
        }
        assert_eq!(d.svg.matches("class=\"tr path\"").count(), 5);
    }

    #[test]
    fn a_small_lts_is_drawn_whole() {
        let lts = ring(7);
        let d = svg(&lts, LaneId::must(0), None, &DrawOptions::default());
        assert_eq!((d.shown, d.states), (7, 7));
        assert_eq!(d.svg.matches("class=\"st").count(), 7);
        assert_eq!(d.svg.matches("class=\"tr").count(), 7);
    }
}
