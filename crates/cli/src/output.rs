//! Printing a check's result as text or as one JSON object.
//!
//! The JSON object of a verdict is the facade's serialisation of the [`Outcome`] (the `serde`
//! feature: one schema for library users and scripts, docs/formats.md "JSON output (schema)")
//! plus the fields only the command line knows: `warnings`, `not_checked` (the model's `progress`
//! and `assert` definitions the check did not cover), `deadlock` when deadlocks were searched,
//! `certificate` with `--certificate`, and `error` when writing the evidence failed. A run that
//! ends without a verdict prints one object too: `"verdict": "unknown"` with the `reason` for a
//! budget, an `error` object for bad input. The fields `verdict`, `method`, `counterexample` and
//! `states` are a contract with scripts: later methods add fields, never rename these.

use std::path::Path;
use std::time::Duration;

use crate::Failure;
use crate::stdout::outln;
use guarantor::fsp::Warning;
use guarantor::predabs::SyntaxError;
use guarantor::{AssumptionSummary, BudgetKind, CheckError, Outcome};
use serde_json::{Value, json};

/// Everything printed about one check as text.
#[derive(Debug)]
pub(crate) struct Report {
    verdict: &'static str,
    method: String,
    trace: Option<Vec<String>>,
    /// The components that take part in each step of the trace, by name.
    movers: Vec<Vec<String>>,
    violated: Option<String>,
    states: usize,
    transitions: usize,
    seconds: f64,
    assumptions: Vec<AssumptionSummary>,
    /// The model's definitions the check did not cover (`progress P`, `assert A`).
    unchecked: Vec<String>,
    /// The phases of the run, one line each ([`guarantor::Phase`]'s display).
    phases: Vec<String>,
}

/// A portfolio's notes, `"member: fate"`, as pairs (the method's remarks for the user,
/// `"note: ..."`, are printed as they are).
pub(crate) fn tried(outcome: &Outcome) -> Vec<(String, String)> {
    outcome
        .notes
        .iter()
        .filter(|n| !n.starts_with("note: "))
        .filter_map(|n| n.split_once(": "))
        .map(|(m, why)| (m.to_owned(), why.to_owned()))
        .collect()
}

impl Report {
    /// The report of an outcome (a deadlock found by a separate search already in it:
    /// [`Outcome::with_deadlock`]).
    pub(crate) fn new(outcome: &Outcome) -> Self {
        Self {
            verdict: outcome.verdict_name(),
            method: outcome.method.clone(),
            trace: outcome.verdict.counterexample().map(|c| c.trace.clone()),
            movers: outcome.steps.iter().map(|s| s.names.clone()).collect(),
            violated: outcome.violated.clone(),
            states: outcome.states,
            transitions: outcome.transitions,
            seconds: outcome.elapsed.as_secs_f64(),
            assumptions: outcome.assumptions.clone(),
            unchecked: Vec::new(),
            phases: outcome.phases.iter().map(ToString::to_string).collect(),
        }
    }

    /// This report, with the wall time of the whole run (loading the model included) in place
    /// of the check's own.
    pub(crate) fn with_wall_time(mut self, elapsed: Duration) -> Self {
        self.seconds = elapsed.as_secs_f64();
        self
    }

    /// This report, saying which of the model's definitions the check did not cover.
    pub(crate) fn with_unchecked(mut self, unchecked: &[String]) -> Self {
        self.unchecked = unchecked.to_vec();
        self
    }

    /// 0 holds, 1 violated or deadlocked.
    pub(crate) fn exit_code(&self) -> u8 {
        u8::from(self.verdict != "holds")
    }
}

/// FSP warnings, each once per source location with the number of times it was given there: an
/// indexed process can repeat the same warning for thousands of index values.
pub(crate) fn warning_groups(warnings: &[Warning]) -> Vec<(&Warning, usize)> {
    let mut groups: Vec<(&Warning, usize)> = Vec::new();
    for w in warnings {
        let key = (w.location.line, w.location.column);
        match groups
            .iter_mut()
            .find(|(g, _)| (g.location.line, g.location.column) == key)
        {
            Some(group) => group.1 += 1,
            None => groups.push((w, 1)),
        }
    }
    groups
}

/// The `warnings` list of the JSON object.
pub(crate) fn warnings_json(warnings: &[Warning]) -> Vec<Value> {
    warning_groups(warnings)
        .into_iter()
        .map(|(w, count)| {
            json!({
                "message": w.message,
                "file": w.location.file,
                "line": w.location.line,
                "column": w.location.column,
                "count": count,
            })
        })
        .collect()
}

/// The JSON object of a verdict: the outcome as the facade serialises it, plus the command
/// line's fields.
pub(crate) fn check_json(
    outcome: &Outcome,
    deadlock_checked: bool,
    warnings: &[Value],
    certificate: Option<&Path>,
) -> Value {
    let mut v = serde_json::to_value(outcome)
        .unwrap_or_else(|e| json!({"error": {"message": e.to_string()}}));
    if deadlock_checked {
        // Kept from before the deadlock trace moved into `counterexample`.
        v["deadlock"] = match &outcome.verdict {
            guarantor::compose::Verdict::Violated(cex)
                if cex.violation == guarantor::compose::Violation::Deadlock =>
            {
                json!(cex.trace)
            }
            _ => Value::Null,
        };
    }
    v["warnings"] = json!(warnings);
    if let Some(path) = certificate {
        v["certificate"] = json!(path.display().to_string());
    }
    v
}

/// The text of bad input for stderr, `error: ...` once: the causes anyhow chains, less those
/// already in the message (an I/O error is in its `cannot read` line), and no second `error:`
/// before an FSP error, which starts with its own `file:line:col: error:`.
pub(crate) fn error_text(e: &anyhow::Error) -> String {
    let text = causes_text(e);
    let first = text.lines().next().unwrap_or_default();
    if first.starts_with("error: ") || first.contains(": error: ") {
        text
    } else {
        format!("error: {text}")
    }
}

/// `e` and its causes joined by `: `, each cause once (a wrapper whose message is its source's,
/// as a method's budget error is, would otherwise repeat it).
pub(crate) fn causes_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if text.contains(&c) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&c);
    }
    text
}

/// The `error` object of bad input: the message, and the file, line and column where known.
pub(crate) fn error_json(e: &anyhow::Error) -> Value {
    for cause in e.chain() {
        let located = if let Some(c) = cause.downcast_ref::<CheckError>() {
            c.location()
        } else if let Some(s) = cause.downcast_ref::<SyntaxError>() {
            return json!({
                "message": s.message,
                "file": s.file,
                "line": s.line,
                "column": s.col,
            });
        } else {
            None
        };
        if let Some(l) = located {
            let mut v = json!({"message": l.message, "file": l.file});
            if let Some(line) = l.line {
                v["line"] = json!(line);
            }
            if let Some(column) = l.column {
                v["column"] = json!(column);
            }
            return v;
        }
    }
    json!({"message": format!("{e:#}")})
}

/// The JSON object of a run that ended without a verdict: `unknown` with the reason and the
/// partial statistics for a budget, an `error` object for bad input.
pub(crate) fn failure_json(
    failure: &Failure,
    method: &str,
    elapsed: Duration,
    timeout: Option<f64>,
    warnings: &[Value],
) -> Value {
    match failure {
        Failure::Input(e) => json!({"error": error_json(e), "warnings": warnings}),
        Failure::Budget(e) => {
            let check = e.downcast_ref::<CheckError>();
            let mut kind = check
                .and_then(CheckError::budget_kind)
                .unwrap_or(BudgetKind::Other);
            // An operation interrupted without saying why, once the timeout has passed.
            if kind == BudgetKind::Other && timeout.is_some_and(|t| elapsed.as_secs_f64() >= t) {
                kind = BudgetKind::Time;
            }
            let partial = check
                .and_then(CheckError::partial_stats)
                .unwrap_or_default();
            json!({
                "verdict": "unknown",
                "method": method,
                "counterexample": null,
                "reason": {"kind": kind.name(), "message": e.to_string()},
                "states": partial.states,
                "transitions": partial.transitions,
                "seconds": elapsed.as_secs_f64(),
                "warnings": warnings,
            })
        }
    }
}

/// A trace on one line, as the progress and assertion checks print theirs: the actions separated
/// by spaces, `(empty)` for none.
pub(crate) fn shown(trace: &[String]) -> String {
    if trace.is_empty() {
        "(empty)".to_owned()
    } else {
        trace.join(" ")
    }
}

/// A counterexample, one step a line: the action, then the components that take part in it (SPIN's
/// trail and LTSA's animator show the same).
fn print_trace(title: &str, trace: &[String], movers: &[Vec<String>]) {
    outln!(
        "{title} ({} step{}):",
        trace.len(),
        if trace.len() == 1 { "" } else { "s" }
    );
    let width = trace.iter().map(|a| a.chars().count()).max().unwrap_or(0);
    for (i, action) in trace.iter().enumerate() {
        match movers.get(i) {
            Some(names) if names.is_empty() => {
                outln!("    {action:<width$}  [no component: properties only]");
            }
            Some(names) => outln!("    {action:<width$}  [{}]", names.join(", ")),
            None => outln!("    {action}"),
        }
    }
}

pub(crate) fn print_report(report: &Report) {
    match (report.verdict, &report.trace) {
        ("deadlock", Some(trace)) => {
            outln!("deadlock");
            print_trace("trace to deadlock", trace, &report.movers);
        }
        (_, Some(trace)) => {
            outln!(
                "violated: {}",
                report.violated.as_deref().unwrap_or("property")
            );
            print_trace("counterexample", trace, &report.movers);
        }
        _ => outln!("holds"),
    }
    if !report.unchecked.is_empty() {
        outln!("not checked: {}", report.unchecked.join(", "));
    }
    for a in &report.assumptions {
        outln!(
            "assumption for {}: {} states, {} transitions",
            a.label,
            a.states,
            a.transitions
        );
    }
    outln!(
        "method {}, {} states, {} transitions, {:.3} s",
        report.method,
        report.states,
        report.transitions,
        report.seconds
    );
    if report.phases.len() > 1 {
        for phase in &report.phases {
            outln!("  {phase}");
        }
    }
}
