//! # guarantor-view: pictures of LTSs and of the runs a check finds
//!
//! A verdict's counterexample is a list of action names; a user then works out by hand which
//! components took part in each step. This crate draws it instead, as LTSA and SPIN's iSpin do:
//! - [`draw::svg`]: one LTS as a state diagram (SVG), laid out by the `rust-sugiyama` crate (a
//!   layered layout in the manner of Graphviz's `dot`), with stable ids and classes on every state
//!   and edge so that a page can highlight a path or the current state;
//! - [`chart::svg`]: a run as a message sequence chart, one lane per component and property, each
//!   step across the lanes of those whose alphabet has the action;
//! - [`page::Report`] (and [`page::Report::animator`]): one self-contained HTML page (inline style and
//!   script, no network access) with the verdict, the chart, every drawing, and an animator that
//!   computes the product step by step in the browser (so it works where the full product is
//!   huge).
//!
//! The crate sits on `guarantor-lts` alone: it knows LTSs and action names, not methods or
//! verdicts. The facade (`guarantor`) turns a check's outcome into a [`page::Report`].
//!
//! ```
//! use guarantor_lts::Lts;
//! use guarantor_view::{Ending, Lane, LaneKind, Run, page};
//!
//! let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
//! // An output that may come before anything was sent.
//! let output = Lts::from_edges([(0, "output", 1), (1, "send", 2), (2, "ack", 0)])?;
//! let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
//! let lanes = vec![
//!     Lane::new("Input", LaneKind::Component, &input),
//!     Lane::new("Output", LaneKind::Component, &output),
//!     Lane::new("Order", LaneKind::Property, &order),
//! ];
//! let run = Run::new(["output"], Ending::Violation);
//! let html = page::Report::new("Input || Output against Order", "violated", lanes)
//!     .with_run(run)
//!     .to_html();
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! // Self-contained: no script, style sheet or image is loaded from elsewhere.
//! assert!(!html.contains("src=") && !html.contains("<link rel=\"stylesheet\""));
//! // The property fails at the first step: an output before any input.
//! assert!(html.contains("property Order at step 1: output"));
//! # Ok::<(), guarantor_lts::LtsError>(())
//! ```

#![warn(missing_docs)]

pub mod chart;
pub mod draw;
mod html;
pub mod page;
mod place;
pub mod replay;

use guarantor_lts::{Lts, StateId};

/// What a lane stands for: a component of the system, a safety property, or an assumption a
/// compositional method found (drawn, but not part of the system's runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LaneKind {
    /// A component: it takes part in every step whose action is in its alphabet.
    Component,
    /// A safety property: it watches the actions of its alphabet; an action it does not offer
    /// violates it.
    Property,
    /// An assumption or guarantee of a compositional method.
    Assumption,
}

impl LaneKind {
    /// The word a page shows for it.
    pub fn name(self) -> &'static str {
        match self {
            LaneKind::Component => "component",
            LaneKind::Property => "property",
            LaneKind::Assumption => "assumption",
        }
    }
}

/// The position of a lane among the lanes given to a chart or page, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LaneId(u32);

impl LaneId {
    /// The id of the lane at `index`.
    ///
    /// # Panics
    /// If `index` does not fit in 32 bits (no page has four billion lanes).
    pub fn must(index: usize) -> Self {
        Self(u32::try_from(index).expect("lane index fits in u32"))
    }

    /// Its position.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for LaneId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One named LTS to draw, and (for components and properties) one lane of the chart.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Lane<'a> {
    /// The name shown above the lane and the drawing.
    pub name: &'a str,
    /// What it stands for.
    pub kind: LaneKind,
    /// The LTS.
    pub lts: &'a Lts,
    /// The state that stands for successful termination (FSP's `END`), if any: the animator
    /// calls a state where every component is at its end state terminated, not deadlocked.
    pub end: Option<StateId>,
}

impl<'a> Lane<'a> {
    /// A lane.
    pub fn new(name: &'a str, kind: LaneKind, lts: &'a Lts) -> Self {
        Self {
            name,
            kind,
            lts,
            end: None,
        }
    }

    /// This lane with its end state.
    #[must_use]
    pub fn with_end(mut self, end: Option<StateId>) -> Self {
        self.end = end;
        self
    }

    /// Whether it takes part in runs of the system (components and properties do).
    pub fn in_system(&self) -> bool {
        matches!(self.kind, LaneKind::Component | LaneKind::Property)
    }
}

/// How a run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ending {
    /// Its last step violates a property or reaches a component's `ERROR` state (the lanes that
    /// fail are found by replaying it: [`replay`]).
    Violation,
    /// It ends in a deadlock: no step is possible after its last action.
    Deadlock,
    /// A lasso (a progress or liveness violation): the steps from `start` on form a cycle the
    /// system can repeat for ever.
    Cycle {
        /// The first step of the cycle.
        start: usize,
    },
    /// Nothing special: a run to look at.
    Open,
}

/// A run of the system: its visible actions, and how it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Run {
    /// The visible actions, in order.
    pub actions: Vec<String>,
    /// How it ends.
    pub ending: Ending,
}

impl Run {
    /// A run of `actions` that ends as `ending`.
    pub fn new<S: Into<String>>(actions: impl IntoIterator<Item = S>, ending: Ending) -> Self {
        Self {
            actions: actions.into_iter().map(Into::into).collect(),
            ending,
        }
    }

    /// A lasso: the `prefix`, then the `cycle` repeated for ever.
    pub fn lasso<S: Into<String>>(
        prefix: impl IntoIterator<Item = S>,
        cycle: impl IntoIterator<Item = S>,
    ) -> Self {
        let mut actions: Vec<String> = prefix.into_iter().map(Into::into).collect();
        let start = actions.len();
        actions.extend(cycle.into_iter().map(Into::into));
        Self {
            actions,
            ending: Ending::Cycle { start },
        }
    }
}
