//! The self-contained HTML pages: a check's report ([`Report`]) and the animator alone
//! ([`Report::animator`]).
//!
//! One file, nothing fetched when it is opened: the style sheet and the script are inlined (they
//! live in `assets/` and are compiled in), the drawings are inline SVG, and the LTSs travel as a
//! JSON data block for the animator, which computes the product step by step in the page: it
//! keeps the set of states each lane may be in, offers the actions every component that has them
//! can take, and marks `ERROR` (a component's error state, or a property that does not offer an
//! action of its alphabet) and deadlock (or termination, when every component is at its `END`). A page given a run (the report of a violation) can replay
//! it in the animator; so can any page opened with `#trace=a,b,c` after its address.
//!
//! Hooks for scripts and browser tests: `#verdict`, `#chart` (see [`crate::chart`]), one
//! `figure.drawing` per lane with `data-lane`, the animator's `#enabled button[data-action]`,
//! `#trace li`, `#undo`, `#status` with `data-state` (`running`, `error`, `deadlock`, `end`).

use std::fmt::Write;

use guarantor_lts::{ActionId, Lts};
use serde_json::{Value, json};

use crate::draw::{DrawOptions, svg as draw_svg};
use crate::html::{escape, script_json};
use crate::replay::{Fate, Replay, replay};
use crate::{Ending, Lane, LaneId, LaneKind, Run, chart};

const STYLE: &str = include_str!("../assets/page.css");
const SCRIPT: &str = include_str!("../assets/page.js");

/// A report page: the question, the verdict and what the check measured, the run as a chart, every
/// lane drawn with the run's path, and the animator. Build with [`Report::new`] and the setters,
/// then [`Report::to_html`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Report<'a> {
    /// The question, shown as the page's title.
    pub title: String,
    /// The verdict in a word (`holds`, `violated`, `deadlock`); empty for the animator alone.
    pub verdict: String,
    /// What the check measured, as label and value, in order (method, time, states, ...).
    pub facts: Vec<(String, String)>,
    /// Remarks, one a line (what was violated, a method's notes, the phases of the check).
    pub notes: Vec<String>,
    /// The components, properties and assumptions, in order.
    pub lanes: Vec<Lane<'a>>,
    /// The counterexample or the run to show, if any.
    pub run: Option<Run>,
    /// Where the certificate was written, if it was (shown as a link).
    pub certificate: Option<String>,
    /// How the drawings are made.
    pub draw: DrawOptions,
}

impl<'a> Report<'a> {
    /// A report titled `title` with `verdict` over `lanes`.
    pub fn new(title: impl Into<String>, verdict: impl Into<String>, lanes: Vec<Lane<'a>>) -> Self {
        Self {
            title: title.into(),
            verdict: verdict.into(),
            facts: Vec::new(),
            notes: Vec::new(),
            lanes,
            run: None,
            certificate: None,
            draw: DrawOptions::default(),
        }
    }

    /// The animator alone: no verdict, the lanes drawn and animated.
    pub fn animator(title: impl Into<String>, lanes: Vec<Lane<'a>>) -> Self {
        Self::new(title, "", lanes)
    }

    /// Adds a fact.
    #[must_use]
    pub fn with_fact(mut self, label: impl Into<String>, value: impl Into<String>) -> Self {
        self.facts.push((label.into(), value.into()));
        self
    }

    /// Adds a note.
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the run.
    #[must_use]
    pub fn with_run(mut self, run: Run) -> Self {
        self.run = Some(run);
        self
    }

    /// Sets the certificate's address.
    #[must_use]
    pub fn with_certificate(mut self, href: impl Into<String>) -> Self {
        self.certificate = Some(href.into());
        self
    }

    /// Sets the drawing options.
    #[must_use]
    pub fn with_draw_options(mut self, draw: DrawOptions) -> Self {
        self.draw = draw;
        self
    }

    /// The page.
    pub fn to_html(&self) -> String {
        let replays: Option<Vec<Replay>> = self.run.as_ref().map(|run| {
            self.lanes
                .iter()
                .map(|l| replay(l.lts, l.kind, &run.actions))
                .collect()
        });
        let mut body = String::new();
        self.header(&mut body);
        if let (Some(run), Some(replays)) = (&self.run, &replays) {
            run_section(&mut body, &self.lanes, run, replays);
        }
        body.push_str(ANIMATOR);
        self.drawings(&mut body, replays.as_deref());
        let data = script_json(&model_data(&self.lanes, self.run.as_ref()).to_string());
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <link rel=\"icon\" href=\"data:,\"><title>{title}</title><style>{STYLE}</style>\
             </head><body>{DEFS}{body}<script type=\"application/json\" id=\"model\">{data}\
             </script><script>{SCRIPT}</script></body></html>\n",
            title = escape(&self.title),
        )
    }

    /// The title, the verdict, the facts, the notes and the certificate's link.
    fn header(&self, out: &mut String) {
        let _ = write!(out, "<header><h1>{}</h1>", escape(&self.title));
        if !self.verdict.is_empty() {
            let _ = write!(
                out,
                "<p id=\"verdict\" class=\"verdict {v}\">{v}</p>",
                v = escape(&self.verdict)
            );
        }
        if !self.facts.is_empty() {
            out.push_str("<dl class=\"facts\">");
            for (label, value) in &self.facts {
                let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(label), escape(value));
            }
            out.push_str("</dl>");
        }
        if !self.notes.is_empty() {
            out.push_str("<ul class=\"notes\">");
            for note in &self.notes {
                let _ = write!(out, "<li>{}</li>", escape(note));
            }
            out.push_str("</ul>");
        }
        if let Some(href) = &self.certificate {
            let _ = write!(
                out,
                "<p class=\"certificate\">Certificate: <a href=\"{h}\">{h}</a> (re-check it with \
                 <code>guarantor verify</code>)</p>",
                h = escape(href)
            );
        }
        out.push_str("</header>");
    }

    /// One figure per lane: its drawing (whole, or the part around the run with a way to list
    /// every state).
    fn drawings(&self, out: &mut String, replays: Option<&[Replay]>) {
        out.push_str("<section id=\"drawings\"><h2>The models</h2>");
        for (i, lane) in self.lanes.iter().enumerate() {
            let id = LaneId::must(i);
            let path = replays.map(|r| &r[i]);
            let d = draw_svg(lane.lts, id, path, &self.draw);
            let _ = write!(
                out,
                "<figure class=\"drawing {kind}\" data-lane=\"{i}\"><figcaption><b>{name}</b> \
                 {kind}: {s} states, {t} transitions{fate}</figcaption>",
                kind = lane.kind.name(),
                name = escape(lane.name),
                s = lane.lts.num_states(),
                t = lane.lts.num_transitions(),
                fate = path.map_or(String::new(), |p| fate_text(p.fate)),
            );
            if d.shown < d.states {
                let _ = write!(
                    out,
                    "<p class=\"partial\">Too large to lay out whole: showing {} of {} states \
                     (the run's states and their successors, then those nearest the initial \
                     state). <button class=\"list-all\" data-lane=\"{i}\">List every state\
                     </button></p>",
                    d.shown, d.states
                );
            }
            let _ = write!(out, "<div class=\"scroll\">{}</div></figure>", d.svg);
        }
        out.push_str("</section>");
    }
}

/// The chart and what the run ends in.
fn run_section(out: &mut String, lanes: &[Lane<'_>], run: &Run, replays: &[Replay]) {
    let what = match run.ending {
        Ending::Violation => "Counterexample",
        Ending::Deadlock => "Trace to deadlock",
        Ending::Cycle { .. } => "Counterexample: a lasso (the shaded steps repeat for ever)",
        _ => "Run",
    };
    let _ = write!(
        out,
        "<section id=\"run\"><h2>{what} ({} step{})</h2>",
        run.actions.len(),
        if run.actions.len() == 1 { "" } else { "s" }
    );
    for (lane, r) in lanes.iter().zip(replays) {
        if let Fate::Fails { step } | Fate::Blocks { step } = r.fate {
            let _ = write!(
                out,
                "<p class=\"failure\">{} {} at step {}: {}</p>",
                lane.kind.name(),
                escape(lane.name),
                step + 1,
                escape(&run.actions[step])
            );
        }
    }
    out.push_str(
        "<p><button id=\"animate-run\">Step through it in the animator</button></p>\
         <div class=\"scroll\" id=\"chart\">",
    );
    out.push_str(&chart::svg(lanes, run, replays));
    out.push_str("</div></section>");
}

fn fate_text(fate: Fate) -> String {
    match fate {
        Fate::Fails { step } => format!("; fails at step {}", step + 1),
        Fate::Blocks { step } => format!("; cannot take step {}", step + 1),
        _ => String::new(),
    }
}

/// The lanes as the animator's data: every action name once, and per lane its initial state, error
/// state, alphabet and each state's edges as flat `[action, target, ...]` lists.
fn model_data(lanes: &[Lane<'_>], run: Option<&Run>) -> Value {
    let mut names: Vec<String> = vec!["tau".to_owned()];
    let mut index = std::collections::HashMap::from([("tau".to_owned(), 0usize)]);
    let mut global = |name: &str| -> usize {
        if let Some(&i) = index.get(name) {
            return i;
        }
        names.push(name.to_owned());
        index.insert(name.to_owned(), names.len() - 1);
        names.len() - 1
    };
    let lanes: Vec<Value> = lanes.iter().map(|l| lane_data(l, &mut global)).collect();
    let run = run.map(|r| {
        let (ending, start) = match r.ending {
            Ending::Violation => ("violation", None),
            Ending::Deadlock => ("deadlock", None),
            Ending::Cycle { start } => ("cycle", Some(start)),
            _ => ("open", None),
        };
        json!({"actions": r.actions, "ending": ending, "start": start})
    });
    json!({"actions": names, "lanes": lanes, "run": run})
}

fn lane_data(lane: &Lane<'_>, global: &mut impl FnMut(&str) -> usize) -> Value {
    let lts: &Lts = lane.lts;
    // Local action id -> the page's action number (tau is 0 in both).
    let ids: Vec<usize> = (0..lts.alphabet().id_bound())
        .map(|i| global(lts.alphabet().try_name(ActionId::must(i)).unwrap_or("tau")))
        .collect();
    let alpha: Vec<usize> = lts
        .alphabet()
        .iter()
        .filter(|(a, _)| *a != ActionId::TAU)
        .map(|(a, _)| ids[a.index()])
        .collect();
    let out: Vec<Vec<usize>> = lts
        .states()
        .map(|s| {
            lts.outgoing(s)
                .iter()
                .flat_map(|e| [ids[e.action.index()], e.target.index()])
                .collect()
        })
        .collect();
    json!({
        "name": lane.name,
        "kind": lane.kind.name(),
        "system": matches!(lane.kind, LaneKind::Component | LaneKind::Property),
        "init": lts.initial().index(),
        "err": lts.error_state().map(guarantor_lts::StateId::index),
        "end": lane.end.map(guarantor_lts::StateId::index),
        "alpha": alpha,
        "out": out,
    })
}

/// The arrowhead every drawing's edges share.
const DEFS: &str = "<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs>\
    <marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"9\" \
    markerHeight=\"9\" markerUnits=\"userSpaceOnUse\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\"/></marker></defs></svg>";

/// The animator's panel; the script fills it.
const ANIMATOR: &str = "<section id=\"animator\"><h2>Animator</h2><p class=\"hint\">Click an \
    action the system can take; every drawing below shows where its lane is now.</p>\
    <p id=\"status\" data-state=\"running\"></p><div id=\"enabled\"></div>\
    <p><button id=\"undo\">Undo</button> <button id=\"reset\">Reset</button></p>\
    <ol id=\"trace\"></ol></section>";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_markup_stay_text() {
        let lts = Lts::from_edges([(0, "a<b>", 1), (1, "</script>", 0)]).unwrap();
        let html = Report::new(
            "t",
            "violated",
            vec![Lane::new("<X>", LaneKind::Component, &lts)],
        )
        .with_run(Run::new(["a<b>", "</script>"], Ending::Open))
        .to_html();
        assert!(!html.contains("<X>"));
        assert_eq!(html.matches("</script>").count(), 2);
    }

    #[test]
    fn the_page_fetches_nothing() {
        let lts = Lts::from_edges([(0, "a", 1)]).unwrap();
        let html = Report::animator("t", vec![Lane::new("A", LaneKind::Component, &lts)]).to_html();
        for needle in ["src=", "href=\"http", "url(http", "@import"] {
            assert!(!html.contains(needle), "{needle}");
        }
    }
}
