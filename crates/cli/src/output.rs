//! Printing a check's result as text or as one JSON object.
//!
//! The JSON fields `verdict`, `method`, `counterexample` and `states` are a contract with scripts:
//! later methods add fields, never rename these.

use crate::stdout::outln;
use guarantor::compose::method::Counter;
use guarantor::compose::{Counterexample, Verdict, Violation};
use guarantor::{AssumptionSummary, Checker, Outcome};
use serde_json::{Value, json};

/// Everything printed about one check.
#[derive(Debug)]
pub(crate) struct Report {
    verdict: &'static str,
    method: String,
    counterexample: Option<Vec<String>>,
    violated: Option<String>,
    deadlock: Option<Vec<String>>,
    deadlock_checked: bool,
    states: usize,
    transitions: usize,
    seconds: f64,
    assumptions: Vec<AssumptionSummary>,
    counters: Vec<Counter>,
    /// For `auto`: what became of each member that did not answer, as `(member, fate)`.
    tried: Vec<(String, String)>,
}

/// A portfolio's notes, `"member: fate"`, as pairs.
pub(crate) fn tried(outcome: &Outcome) -> Vec<(String, String)> {
    outcome
        .notes
        .iter()
        .filter_map(|n| n.split_once(": "))
        .map(|(m, why)| (m.to_owned(), why.to_owned()))
        .collect()
}

impl Report {
    pub(crate) fn new(
        checker: &Checker,
        outcome: &Outcome,
        deadlock: Option<&Counterexample>,
        deadlock_checked: bool,
    ) -> Self {
        let walk_deadlock = match &outcome.verdict {
            Verdict::Violated(cex) if cex.violation == Violation::Deadlock => Some(cex),
            _ => None,
        };
        let deadlock = deadlock.or(walk_deadlock);
        let (verdict, counterexample, violated) = match &outcome.verdict {
            Verdict::Holds(_) => ("holds", None, None),
            Verdict::Violated(cex) if cex.violation == Violation::Deadlock => {
                ("deadlock", None, None)
            }
            Verdict::Violated(cex) => (
                "violated",
                Some(cex.trace.clone()),
                Some(checker.describe(&cex.violation)),
            ),
            _ => ("unknown", None, None),
        };
        Self {
            verdict: if deadlock.is_some() {
                "deadlock"
            } else {
                verdict
            },
            method: outcome.method.clone(),
            counterexample,
            violated,
            deadlock: deadlock.map(|d| d.trace.clone()),
            deadlock_checked,
            states: outcome.states,
            transitions: outcome.transitions,
            seconds: outcome.elapsed.as_secs_f64(),
            assumptions: outcome.assumptions.clone(),
            counters: outcome.counters.clone(),
            tried: tried(outcome),
        }
    }

    /// 0 holds, 1 violated or deadlocked.
    pub(crate) fn exit_code(&self) -> u8 {
        u8::from(self.verdict != "holds")
    }

    fn to_json(&self) -> Value {
        let mut v = json!({
            "verdict": self.verdict,
            "method": self.method,
            "counterexample": self.counterexample,
            "violated": self.violated,
            "states": self.states,
            "transitions": self.transitions,
            "seconds": self.seconds,
        });
        if self.deadlock_checked {
            v["deadlock"] = json!(self.deadlock);
        }
        if self.method != "mono" {
            v["assumptions"] = self
                .assumptions
                .iter()
                .map(|a| {
                    json!({"component": a.label, "states": a.states, "transitions": a.transitions})
                })
                .collect();
        }
        self.add_stats(&mut v);
        v
    }

    /// Adds the counters the answering method reported under their names, the two L* query
    /// counts as `queries`.
    fn add_stats(&self, v: &mut Value) {
        let get = |name: &str| {
            self.counters
                .iter()
                .find(|c| c.name == name)
                .map(|c| c.value)
        };
        if let (Some(m), Some(e)) = (get("membership_queries"), get("equivalence_queries")) {
            v["queries"] = json!({"membership": m, "equivalence": e});
        }
        for c in &self.counters {
            if !c.name.ends_with("_queries") {
                v[c.name.as_ref()] = json!(c.value);
            }
        }
        if !self.tried.is_empty() {
            v["tried"] = self
                .tried
                .iter()
                .map(|(m, why)| json!({"method": m, "gave_up": why}))
                .collect();
        }
    }
}

fn print_trace(title: &str, trace: &[String]) {
    outln!(
        "{title} ({} step{}):",
        trace.len(),
        if trace.len() == 1 { "" } else { "s" }
    );
    for action in trace {
        outln!("    {action}");
    }
}

pub(crate) fn print_report(report: &Report, json: bool) {
    if json {
        outln!("{}", report.to_json());
        return;
    }
    match (&report.counterexample, &report.deadlock) {
        (Some(trace), _) => {
            outln!(
                "violated: {}",
                report.violated.as_deref().unwrap_or("property")
            );
            print_trace("counterexample", trace);
        }
        (None, Some(trace)) => {
            outln!("deadlock");
            print_trace("trace to deadlock", trace);
        }
        (None, None) => outln!("holds"),
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
}
