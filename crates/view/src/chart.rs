//! A run as a message sequence chart (SVG), as SPIN's iSpin draws a trail.
//!
//! One vertical lane per component and property (assumptions are not part of the system's runs),
//! one row per step. A step is a box across the lanes that take part in it (every lane whose
//! alphabet has the action), with a dot on each of them; the step where a lane fails is marked
//! (class `bad`, a cross on that lane); a deadlock is a last row across every lane; the steps of a
//! lasso's cycle are shaded and bracketed (class `cycle`).
//!
//! Stable hooks for pages and tests: the lane headers are `g.lane` with `data-lane`, the steps
//! `g.step` with `data-step` and `data-lanes` (the lanes that take part, space-separated).
//!
//! ```
//! use guarantor_lts::Lts;
//! use guarantor_view::{Ending, Lane, LaneKind, Run, chart, replay::replay};
//! let a = Lts::from_edges([(0, "x", 1), (1, "y", 0)])?;
//! let b = Lts::from_edges([(0, "y", 1), (1, "z", 0)])?;
//! let lanes = [Lane::new("A", LaneKind::Component, &a), Lane::new("B", LaneKind::Component, &b)];
//! let run = Run::new(["x", "y", "z"], Ending::Deadlock);
//! let replays: Vec<_> = lanes.iter().map(|l| replay(l.lts, l.kind, &run.actions)).collect();
//! let svg = chart::svg(&lanes, &run, &replays);
//! assert_eq!(svg.matches("<g class=\"lane ").count(), 2);
//! assert!(svg.contains("data-step=\"1\" data-lanes=\"0 1\""));
//! # Ok::<(), guarantor_lts::LtsError>(())
//! ```

use std::fmt::Write;

use crate::html::{escape, px};
use crate::replay::{Fate, Replay};
use crate::{Ending, Lane, Run};

const LANE_W: f64 = 112.;
const LEFT: f64 = 78.;
const TOP: f64 = 56.;
const ROW: f64 = 30.;

fn lane_x(i: usize) -> f64 {
    LEFT + LANE_W / 2. + LANE_W * px(i)
}

fn row_y(step: usize) -> f64 {
    TOP + ROW / 2. + ROW * px(step)
}

/// The chart of `run` over the system's `lanes` (assumption lanes are left out), each replayed in
/// `replays` (one per lane, in the same order: [`crate::replay::replay`]).
pub fn svg(lanes: &[Lane<'_>], run: &Run, replays: &[Replay]) -> String {
    let shown: Vec<usize> = (0..lanes.len()).filter(|&i| lanes[i].in_system()).collect();
    let extra_row = usize::from(run.ending == Ending::Deadlock);
    let rows = run.actions.len() + extra_row;
    let width = LEFT + LANE_W * px(shown.len()) + 10.;
    let height = TOP + ROW * px(rows) + 20.;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {width:.0} \
         {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\">"
    );
    if let Ending::Cycle { start } = run.ending {
        cycle_band(&mut out, start, run.actions.len(), width);
    }
    for (col, &i) in shown.iter().enumerate() {
        let x = lane_x(col);
        let _ = write!(
            out,
            "<g class=\"lane {kind}\" data-lane=\"{i}\"><text class=\"name\" x=\"{x:.1}\" \
             y=\"20\">{name}</text><text class=\"kind\" x=\"{x:.1}\" y=\"36\">{kind}</text>\
             <line x1=\"{x:.1}\" y1=\"{y1:.1}\" x2=\"{x:.1}\" y2=\"{y2:.1}\"/></g>",
            kind = lanes[i].kind.name(),
            name = escape(lanes[i].name),
            y1 = TOP - 10.,
            y2 = height - 10.,
        );
    }
    for (step, action) in run.actions.iter().enumerate() {
        step_row(&mut out, step, action, &shown, replays, run.ending);
    }
    if run.ending == Ending::Deadlock {
        let y = row_y(run.actions.len());
        let x2 = lane_x(shown.len().saturating_sub(1)) + LANE_W / 2. - 8.;
        let _ = write!(
            out,
            "<g class=\"end deadlock\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" \
             height=\"{:.1}\" rx=\"4\"/><text x=\"{:.1}\" y=\"{:.1}\">deadlock: no step is \
             possible</text></g>",
            LEFT + 8.,
            y - ROW / 2. + 3.,
            x2 - LEFT - 8.,
            ROW - 6.,
            f64::midpoint(LEFT, x2),
            y + 4.
        );
    }
    out.push_str("</svg>");
    out
}

/// One step: its number, the box across the lanes that take part, a dot on each, a cross on a
/// lane that fails here.
fn step_row(
    out: &mut String,
    step: usize,
    action: &str,
    shown: &[usize],
    replays: &[Replay],
    ending: Ending,
) {
    let y = row_y(step);
    let movers: Vec<usize> = (0..shown.len())
        .filter(|&c| replays[shown[c]].moves.get(step).copied().unwrap_or(false))
        .collect();
    let fails = |c: usize| matches!(replays[shown[c]].fate, Fate::Fails { step: s } | Fate::Blocks { step: s } if s == step);
    let bad = (0..shown.len()).any(fails);
    let mut class = String::from("step");
    if bad {
        class.push_str(" bad");
    }
    if matches!(ending, Ending::Cycle { start } if step >= start) {
        class.push_str(" cycle");
    }
    let ids: Vec<String> = movers.iter().map(|&c| shown[c].to_string()).collect();
    let _ = write!(
        out,
        "<g class=\"{class}\" data-step=\"{step}\" data-lanes=\"{}\" data-action=\"{}\">\
         <text class=\"num\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
        ids.join(" "),
        escape(action),
        LEFT - 12.,
        y + 4.,
        step + 1
    );
    let (lo, hi) = match (movers.first(), movers.last()) {
        (Some(&lo), Some(&hi)) => (lane_x(lo), lane_x(hi)),
        // Nothing takes part (an action no lane has): a box on the left, so the step still shows.
        _ => (lane_x(0), lane_x(0)),
    };
    let half = LANE_W / 2. - 8.;
    let _ = write!(
        out,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"4\"/>",
        lo - half,
        y - ROW / 2. + 3.,
        hi - lo + 2. * half,
        ROW - 6.
    );
    for &c in &movers {
        let _ = write!(
            out,
            "<circle class=\"dot\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4\"/>",
            lane_x(c)
        );
    }
    let _ = write!(
        out,
        "<text class=\"act\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
        f64::midpoint(lo, hi),
        y - 1.,
        escape(action)
    );
    for c in (0..shown.len()).filter(|&c| fails(c)) {
        let x = lane_x(c);
        let _ = write!(
            out,
            "<path class=\"cross\" d=\"M {:.1} {:.1} l 10 10 m 0 -10 l -10 10\"/>",
            x - 5.,
            y + 2.
        );
    }
    out.push_str("</g>");
}

/// The shaded band and bracket of a lasso's cycle, steps `start..end`.
fn cycle_band(out: &mut String, start: usize, end: usize, width: f64) {
    if start >= end {
        return;
    }
    let y0 = row_y(start) - ROW / 2.;
    let h = ROW * px(end - start);
    let _ = write!(
        out,
        "<g class=\"cycle-band\"><rect x=\"4\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{h:.1}\"/>\
         <text x=\"8\" y=\"{:.1}\">cycle</text></g>",
        width - 8.,
        y0 + 12.
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::replay;
    use crate::{LaneKind, Run};
    use guarantor_lts::Lts;
    use proptest::prelude::*;

    /// The values of `attr="..."` in `svg`, in order.
    fn attrs<'a>(svg: &'a str, attr: &str) -> Vec<&'a str> {
        let needle = format!("{attr}=\"");
        svg.match_indices(&needle)
            .map(|(i, _)| {
                let rest = &svg[i + needle.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect()
    }

    proptest! {
        /// One row per action; a row's lanes are exactly the lanes whose alphabet has the action
        /// (the oracle reads the alphabets directly), assumptions never among them.
        #[test]
        fn each_step_spans_the_lanes_whose_alphabet_has_its_action(
            alphabets in prop::collection::vec(prop::collection::vec(0usize..5, 1..4), 1..5),
            run in prop::collection::vec(0usize..5, 0..10),
        ) {
            let names = ["a", "b", "c", "d", "e"];
            let ltss: Vec<Lts> = alphabets
                .iter()
                .map(|alpha| Lts::from_edges(alpha.iter().map(|&a| (0, names[a], 0))).unwrap())
                .collect();
            let kinds = [LaneKind::Component, LaneKind::Property, LaneKind::Assumption];
            let lanes: Vec<Lane<'_>> = ltss
                .iter()
                .enumerate()
                .map(|(i, lts)| Lane::new("L", kinds[i % 3], lts))
                .collect();
            let run = Run::new(run.iter().map(|&a| names[a]), Ending::Open);
            let replays: Vec<_> =
                lanes.iter().map(|l| replay(l.lts, l.kind, &run.actions)).collect();
            let svg = svg(&lanes, &run, &replays);
            let rows = attrs(&svg, "data-lanes");
            prop_assert_eq!(rows.len(), run.actions.len());
            for (row, action) in rows.iter().zip(&run.actions) {
                let expected: Vec<String> = (0..lanes.len())
                    .filter(|&i| lanes[i].in_system() && alphabets[i].iter().any(|&a| names[a] == action))
                    .map(|i| i.to_string())
                    .collect();
                prop_assert_eq!(row.to_string(), expected.join(" "));
            }
            let shown = lanes.iter().filter(|l| l.in_system()).count();
            prop_assert_eq!(svg.matches("<g class=\"lane ").count(), shown);
        }
    }
}
