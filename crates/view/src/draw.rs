//! One LTS as a state diagram in SVG, laid out by `layout-rs`.
//!
//! `layout-rs` (a layered layout in the manner of Graphviz's `dot`: cycles broken, ranks,
//! crossings reduced, edges routed as splines) places the states and routes the edges; it reports
//! them as draw calls to a render backend, and the backend here ([`Svg`]) writes them as SVG
//! elements with the ids and classes a page needs: state `s` of lane `l` is the group
//! `id="l{l}-s{s}"` (class `st`, plus `init`, `err`, `path`), the edges from `s` to `t` are one
//! group `id="l{l}-e{s}-{t}"` labelled with every action between them, as LTSA draws them (class
//! `tr`, plus `path` when the run takes one of them). The page's style sheet colours the classes,
//! and its script moves the class `cur` for the animator.
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
use layout::core::base::Orientation;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

use crate::LaneId;
use crate::html::{escape, px};
use crate::replay::Replay;

/// Options for [`svg`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DrawOptions {
    /// The most states laid out; a larger LTS is drawn in part (see the module docs).
    /// \[default: 300\]
    pub max_states: usize,
}

impl Default for DrawOptions {
    fn default() -> Self {
        Self { max_states: 300 }
    }
}

impl DrawOptions {
    /// Sets [`Self::max_states`].
    #[must_use]
    pub fn with_max_states(mut self, max: usize) -> Self {
        self.max_states = max;
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
    let shown = chosen_states(lts, path, options.max_states);
    let mut graph = VisualGraph::new(Orientation::LeftToRight);
    let mut handles = BTreeMap::new();
    for &s in &shown {
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
        let label = if lts.is_error(s) {
            "E".to_owned()
        } else {
            s.index().to_string()
        };
        let props = format!("id=\"l{lane}-s{}\" class=\"{class}\"", s.index());
        let look = StyleAttr::simple();
        let size = Point::new(34., 34.);
        let shape = ShapeKind::new_circle(&label);
        let element =
            Element::create_with_properties(shape, look, Orientation::LeftToRight, size, props);
        handles.insert(s, graph.add_node(element));
    }
    for ((source, target), labels) in merged_edges(lts, &handles, path) {
        let taken = labels.iter().any(|(_, t)| *t);
        let text: Vec<&str> = labels.iter().map(|(a, _)| a.as_str()).collect();
        let class = if taken { "tr path" } else { "tr" };
        let props = format!(
            "id=\"l{lane}-e{}-{}\" class=\"{class}\"",
            source.index(),
            target.index()
        );
        let arrow = Arrow::simple_with_properties(&text.join(", "), props);
        graph.add_edge(arrow, handles[&source], handles[&target]);
    }
    let mut backend = Svg::default();
    graph.do_it(false, false, false, &mut backend);
    Drawing {
        svg: backend.finish(lane),
        shown: shown.len(),
        states: lts.num_states(),
    }
}

/// The edges between shown states, merged per (source, target): each action's name and whether
/// the run takes it.
type Merged = BTreeMap<(StateId, StateId), Vec<(String, bool)>>;

fn merged_edges(
    lts: &Lts,
    shown: &BTreeMap<StateId, layout::adt::dag::NodeHandle>,
    path: Option<&Replay>,
) -> Merged {
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

/// The states to draw: all of them when there are at most `max`; otherwise those the run visits
/// and their successors, then the states nearest the initial one, up to `max`.
fn chosen_states(lts: &Lts, path: Option<&Replay>, max: usize) -> Vec<StateId> {
    if lts.num_states() <= max {
        return lts.states().collect();
    }
    let mut chosen: Vec<StateId> = Vec::new();
    let take = |s: StateId, chosen: &mut Vec<StateId>| {
        if chosen.len() < max && !chosen.contains(&s) {
            chosen.push(s);
        }
    };
    if let Some(p) = path {
        for set in &p.states {
            for &s in set {
                take(s, &mut chosen);
            }
        }
        for set in &p.states {
            for &s in set {
                for e in lts.outgoing(s) {
                    take(e.target, &mut chosen);
                }
            }
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

/// The render backend: `layout-rs`'s draw calls as SVG elements, the properties given with each
/// state and edge as the attributes of its group.
#[derive(Debug, Default)]
struct Svg {
    body: String,
    min: Option<Point>,
    max: Option<Point>,
}

impl Svg {
    fn grow(&mut self, p: Point) {
        let (lo, hi) = (self.min.unwrap_or(p), self.max.unwrap_or(p));
        self.min = Some(Point::new(lo.x.min(p.x), lo.y.min(p.y)));
        self.max = Some(Point::new(hi.x.max(p.x), hi.y.max(p.y)));
    }

    /// Grows the box by a label centred at `at` (about 6.5 pixels a character at 12 px).
    fn grow_text(&mut self, at: Point, text: &str) {
        let half = 3.25 * px(text.chars().count());
        self.grow(Point::new(at.x - half, at.y - 8.));
        self.grow(Point::new(at.x + half, at.y + 8.));
    }

    fn finish(self, lane: LaneId) -> String {
        let pad = 10.;
        let lo = self.min.unwrap_or_else(Point::zero);
        let hi = self.max.unwrap_or_else(Point::zero);
        let (w, h) = (hi.x - lo.x + 2. * pad, hi.y - lo.y + 2. * pad);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lts\" id=\"lts{lane}\" \
             viewBox=\"{:.1} {:.1} {w:.1} {h:.1}\" width=\"{w:.0}\" height=\"{h:.0}\">{}</svg>",
            lo.x - pad,
            lo.y - pad,
            self.body
        )
    }
}

impl RenderBackend for Svg {
    fn draw_rect(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        properties: Option<String>,
        _clip: Option<ClipHandle>,
    ) {
        self.grow(xy);
        self.grow(xy.add(size));
        let _ = write!(
            self.body,
            "<g {}><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/></g>",
            properties.unwrap_or_default(),
            xy.x,
            xy.y,
            size.x,
            size.y
        );
    }

    fn draw_line(
        &mut self,
        start: Point,
        stop: Point,
        _look: &StyleAttr,
        properties: Option<String>,
    ) {
        self.grow(start);
        self.grow(stop);
        let _ = write!(
            self.body,
            "<g {}><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/></g>",
            properties.unwrap_or_default(),
            start.x,
            start.y,
            stop.x,
            stop.y
        );
    }

    fn draw_circle(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        properties: Option<String>,
    ) {
        self.grow(xy.sub(size.scale(0.5)));
        self.grow(xy.add(size.scale(0.5)));
        // The state's label follows in its own draw_text call, on top of the ellipse.
        let _ = write!(
            self.body,
            "<g {}><ellipse cx=\"{:.1}\" cy=\"{:.1}\" rx=\"{:.1}\" ry=\"{:.1}\"/></g>",
            properties.unwrap_or_default(),
            xy.x,
            xy.y,
            size.x / 2.,
            size.y / 2.
        );
    }

    fn draw_text(&mut self, xy: Point, text: &str, _look: &StyleAttr) {
        if text.is_empty() {
            return;
        }
        self.grow_text(xy, text);
        let _ = write!(
            self.body,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            xy.x,
            xy.y,
            escape(text)
        );
    }

    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        dashed: bool,
        head: (bool, bool),
        _look: &StyleAttr,
        properties: Option<String>,
        text: &str,
    ) {
        let Some((first, rest)) = path.split_first() else {
            return;
        };
        let Some(second) = rest.first() else {
            return;
        };
        for (a, b) in path {
            self.grow(*a);
            self.grow(*b);
        }
        let mut d = format!(
            "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
            first.0.x,
            first.0.y,
            first.1.x,
            first.1.y,
            second.0.x,
            second.0.y,
            second.1.x,
            second.1.y
        );
        for (a, b) in &rest[1..] {
            let _ = write!(d, " S {:.1} {:.1}, {:.1} {:.1}", a.x, a.y, b.x, b.y);
        }
        let dash = if dashed {
            " stroke-dasharray=\"5,5\""
        } else {
            ""
        };
        // layout-rs reverses the edges it turns around to break cycles, and says at which end
        // the head is.
        let start = if head.0 {
            " marker-start=\"url(#arrowhead)\""
        } else {
            ""
        };
        let end = if head.1 {
            " marker-end=\"url(#arrowhead)\""
        } else {
            ""
        };
        let _ = write!(
            self.body,
            "<g {}><path d=\"{d}\"{dash}{start}{end}/>",
            properties.unwrap_or_default()
        );
        if !text.is_empty() {
            // The label sits at the middle of the route (layout-rs routes a labelled edge through
            // a node the size of its label).
            let mid = path[path.len() / 2].0;
            self.grow_text(mid, text);
            let _ = write!(
                self.body,
                "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                mid.x,
                mid.y - 3.,
                escape(text)
            );
        }
        self.body.push_str("</g>");
    }

    fn create_clip(&mut self, _xy: Point, _size: Point, _rounded_px: usize) -> ClipHandle {
        0
    }
}
