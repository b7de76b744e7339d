//! Graphviz DOT output, for looking at an LTS.
//!
//! The drawing follows LTSA's conventions where it has them:
//! - states are circles labelled with their number; the initial state gets an arrow from an
//!   invisible start node (`__start`);
//! - the error state is labelled `-1` and drawn in red, as LTSA draws `ERROR`;
//! - when the LTS has an explicit accepting set (a finite-state machine), accepting states are
//!   double circles;
//! - tau is shown as `tau`; every label is escaped for a DOT quoted string;
//! - by default the transitions between the same two states are drawn as one edge whose label lists
//!   the actions separated by commas, as LTSA does (see [`DotOptions::merge_edges`]).
//!
//! The output is deterministic (states in order, edges by source then target then action id), so
//! it can be snapshot-tested and diffed. Reading DOT back is not supported: it is a picture, not an
//! interchange format (use `.aut` or JSON for that).
//!
//! ```
//! use guarantor_lts::io::dot::{to_dot_string, DotOptions};
//! use guarantor_lts::io::aut::parse_aut;
//! let lts = parse_aut("des(0,2,1)\n(0,a,0)\n(0,b,-1)")?;
//! let dot = to_dot_string(&lts, &DotOptions::default());
//! assert!(dot.contains("s0 -> s0 [label=\"a\"];"));
//! assert!(dot.contains("s1 [label=\"-1\", color=red, fontcolor=red];"));
//! # Ok::<(), guarantor_lts::io::ParseError>(())
//! ```

use std::io::{self, BufWriter, Write};

use crate::id::StateId;
use crate::lts::{Edge, Lts};

/// Options for [`write_dot`]. Build with [`Default`] and the setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DotOptions {
    /// The name of the graph. \[default: `"lts"`\]
    pub graph_name: String,
    /// Whether to draw all transitions between the same two states as one edge with a combined
    /// label. \[default: `true`\]
    pub merge_edges: bool,
    /// Whether to lay the graph out left to right (`rankdir=LR`) rather than top to bottom.
    /// \[default: `true`\]
    pub left_to_right: bool,
}

impl Default for DotOptions {
    fn default() -> Self {
        Self {
            graph_name: "lts".to_owned(),
            merge_edges: true,
            left_to_right: true,
        }
    }
}

impl DotOptions {
    /// Sets [`Self::graph_name`].
    #[must_use]
    pub fn with_graph_name(mut self, name: impl Into<String>) -> Self {
        self.graph_name = name.into();
        self
    }

    /// Sets [`Self::merge_edges`].
    #[must_use]
    pub fn with_merge_edges(mut self, merge: bool) -> Self {
        self.merge_edges = merge;
        self
    }

    /// Sets [`Self::left_to_right`].
    #[must_use]
    pub fn with_left_to_right(mut self, lr: bool) -> Self {
        self.left_to_right = lr;
        self
    }
}

/// Writes `lts` as a Graphviz digraph.
///
/// # Errors
/// Only errors of the writer `w`.
pub fn write_dot<W: Write>(lts: &Lts, w: W, opts: &DotOptions) -> io::Result<()> {
    let mut w = BufWriter::new(w);
    writeln!(w, "digraph \"{}\" {{", escape(&opts.graph_name))?;
    if opts.left_to_right {
        writeln!(w, "    rankdir=LR;")?;
    }
    writeln!(w, "    node [shape=circle];")?;
    writeln!(
        w,
        "    __start [shape=none, label=\"\", width=0, height=0];"
    )?;
    writeln!(w, "    __start -> s{};", lts.initial())?;
    for s in lts.states() {
        write_state(&mut w, lts, s)?;
    }
    let mut by_target: Vec<Edge> = Vec::new();
    for s in lts.states() {
        by_target.clear();
        by_target.extend_from_slice(lts.outgoing(s));
        by_target.sort_unstable_by_key(|e| (e.target, e.action));
        for group in by_target.chunk_by(|x, y| opts.merge_edges && x.target == y.target) {
            write_edge(&mut w, lts, s, group)?;
        }
    }
    writeln!(w, "}}")?;
    w.flush()
}

/// Writes `lts` as a Graphviz digraph into a string.
pub fn to_dot_string(lts: &Lts, opts: &DotOptions) -> String {
    let mut buf = Vec::new();
    // Writing into a Vec cannot fail, and all names are UTF-8, so neither fallback is ever taken.
    if write_dot(lts, &mut buf, opts).is_err() {
        buf.clear();
    }
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes one state's node line.
fn write_state<W: Write>(w: &mut W, lts: &Lts, s: StateId) -> io::Result<()> {
    let shape = if lts.accepting_set().is_some() && lts.is_accepting(s) {
        ", shape=doublecircle"
    } else {
        ""
    };
    if lts.is_error(s) {
        writeln!(
            w,
            "    s{s} [label=\"-1\", color=red, fontcolor=red{shape}];"
        )
    } else {
        writeln!(w, "    s{s} [label=\"{s}\"{shape}];")
    }
}

/// Writes one edge, labelled with the actions of `group` (all with the same target).
fn write_edge<W: Write>(w: &mut W, lts: &Lts, s: StateId, group: &[Edge]) -> io::Result<()> {
    let Some(first) = group.first() else {
        return Ok(());
    };
    write!(w, "    s{s} -> s{} [label=\"", first.target)?;
    for (i, e) in group.iter().enumerate() {
        if i > 0 {
            w.write_all(b", ")?;
        }
        w.write_all(escape(lts.action_name(e.action)).as_bytes())?;
    }
    writeln!(w, "\"];")
}

/// Escapes text for a DOT double-quoted string.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}
