//! Pictures of a check: [`Checker::report`], [`Checker::progress_report`] and
//! [`Checker::assertion_report`] turn an outcome into
//! a [`view::page::Report`](guarantor_view::page::Report) (the verdict, the counterexample as a
//! message sequence chart, every component, property and assumption drawn with the path, and the
//! animator), and [`Checker::animator`] makes the animator page alone. The pages themselves are
//! `guarantor-view`'s; this module only says which LTSs are lanes and how the run ends.
//!
//! ```
//! use guarantor::Checker;
//! let outcome_of = |target| -> Result<String, Box<dyn std::error::Error>> {
//!     let source = "
//!         INPUT  = (input -> send -> ack -> INPUT).
//!         EAGER = (send -> output -> ack -> EAGER | output -> ack -> EAGER).
//!         property ORDER = (input -> output -> ORDER).
//!         ||BAD = (INPUT || EAGER || ORDER).
//!     ";
//!     let checker = Checker::from_fsp_str(source, Some(target))?;
//!     let outcome = checker.check()?;
//!     Ok(checker.report(&outcome, "BAD").to_html())
//! };
//! let html = outcome_of("BAD")?;
//! assert!(html.contains("id=\"chart\""));
//! assert!(html.contains("property ORDER"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use guarantor_compose::{Verdict, Violation};
use guarantor_view::page::Report;
use guarantor_view::{Ending, Lane, LaneKind, Run};

use crate::assertion::{AssertOutcome, LtlVerdict};
use crate::progress::{ProgressOutcome, ProgressVerdict};
use crate::{Checker, Outcome};

impl Checker {
    /// The checker's components and properties as lanes, in that order.
    fn lanes(&self) -> Vec<Lane<'_>> {
        let components = self.components().enumerate().map(|(i, (name, lts))| {
            Lane::new(name, LaneKind::Component, lts).with_end(self.end_state(i))
        });
        let properties = self
            .properties()
            .map(|(name, lts)| Lane::new(name, LaneKind::Property, lts));
        components.chain(properties).collect()
    }

    /// The report page of `outcome`, a result of [`Checker::check`] on this checker, titled
    /// `title` (the question: the model and target, say). Add the certificate's address with
    /// [`Report::with_certificate`], then [`Report::to_html`] gives the page.
    pub fn report<'a>(&'a self, outcome: &'a Outcome, title: &str) -> Report<'a> {
        let mut lanes = self.lanes();
        if let Verdict::Holds(certificate) = &outcome.verdict {
            for (a, summary) in certificate.assumptions.iter().zip(&outcome.assumptions) {
                lanes.push(Lane::new(&summary.label, LaneKind::Assumption, &a.lts));
            }
        }
        let verdict = outcome.verdict_name();
        let mut report = Report::new(title, verdict, lanes)
            .with_fact("method", outcome.method.clone())
            .with_fact("time", format!("{:.3} s", outcome.elapsed.as_secs_f64()))
            .with_fact("states", outcome.states.to_string())
            .with_fact("transitions", outcome.transitions.to_string());
        for phase in &outcome.phases {
            report = report.with_fact(
                format!("phase: {}", phase.question),
                format!(
                    "{}, {} states, {:.3} s",
                    phase.method,
                    phase.states,
                    phase.elapsed.as_secs_f64()
                ),
            );
        }
        for c in &outcome.counters {
            report = report.with_fact(c.name.to_string(), c.value.to_string());
        }
        for a in &outcome.assumptions {
            report = report.with_fact(
                format!("assumption for {}", a.label),
                format!("{} states, {} transitions", a.states, a.transitions),
            );
        }
        if let Some(what) = &outcome.violated {
            report = report.with_note(format!("violated: {what}"));
        }
        for note in &outcome.notes {
            report = report.with_note(note.clone());
        }
        if let Some(cex) = outcome.verdict.counterexample() {
            let ending = if cex.violation == Violation::Deadlock {
                Ending::Deadlock
            } else {
                Ending::Violation
            };
            report = report.with_run(Run::new(cex.trace.iter().cloned(), ending));
        }
        report
    }

    /// The report page of a progress check ([`Checker::check_progress`]): a violation's run to the
    /// terminal set and its cycle as a lasso, or its deadlock.
    pub fn progress_report<'a>(&'a self, outcome: &ProgressOutcome, title: &str) -> Report<'a> {
        let tests = if outcome.tests.is_empty() {
            "the default progress property (every action)".to_owned()
        } else {
            format!("progress {}", outcome.tests.join(", "))
        };
        let mut report = Report::new(title, outcome.verdict_name(), self.lanes())
            .with_fact("checked", tests)
            .with_fact("method", outcome.method.clone())
            .with_fact("time", format!("{:.3} s", outcome.elapsed.as_secs_f64()))
            .with_fact("states", outcome.states.to_string())
            .with_fact("transitions", outcome.transitions.to_string())
            .with_fact("terminal sets", outcome.terminal_sets.to_string());
        if let Some(what) = &outcome.violated {
            report = report.with_note(format!("violated: {what}"));
        }
        match &outcome.verdict {
            ProgressVerdict::Violated(v) if v.deadlock => {
                report.with_run(Run::new(v.trace.iter().cloned(), Ending::Deadlock))
            }
            ProgressVerdict::Violated(v) => report
                .with_note(format!(
                    "actions in the terminal set: {{{}}}",
                    v.actions.join(", ")
                ))
                .with_run(Run::lasso(v.trace.iter().cloned(), v.cycle.iter().cloned())),
            ProgressVerdict::Unsafe(cex) => report
                .with_note("a safety violation: progress is checked once safety holds")
                .with_run(Run::new(cex.trace.iter().cloned(), Ending::Violation)),
            _ => report,
        }
    }

    /// The report page of an LTL assertion check ([`Checker::check_assertion`]): a liveness
    /// violation's lasso with its cycle marked, a safety formula's bad prefix, or the run to an
    /// `ERROR` state reached first.
    pub fn assertion_report<'a>(&'a self, outcome: &AssertOutcome, title: &str) -> Report<'a> {
        let verdict = if outcome.holds() { "holds" } else { "violated" };
        let route = if outcome.safety {
            "a safety formula, checked as a property"
        } else {
            "under fair choice, through the Büchi automaton of its negation"
        };
        let mut report = Report::new(title, verdict, self.lanes())
            .with_fact("checked", format!("assert {} ({route})", outcome.name))
            .with_fact("method", outcome.method.clone())
            .with_fact("time", format!("{:.3} s", outcome.elapsed.as_secs_f64()))
            .with_fact("states", outcome.states.to_string());
        if let Some(what) = &outcome.violated {
            report = report.with_note(format!("violated: {what}"));
        }
        match &outcome.verdict {
            LtlVerdict::Violated(lasso) if outcome.safety => {
                report.with_run(Run::new(lasso.prefix.iter().cloned(), Ending::Violation))
            }
            LtlVerdict::Violated(lasso) if lasso.cycle.is_empty() => report
                .with_note("the run stops there for ever (a deadlock or END)")
                .with_run(Run::new(lasso.prefix.iter().cloned(), Ending::Open)),
            LtlVerdict::Violated(lasso) => report.with_run(Run::lasso(
                lasso.prefix.iter().cloned(),
                lasso.cycle.iter().cloned(),
            )),
            LtlVerdict::Unsafe(trace) => report
                .with_note("an ERROR state is reachable: the assertion is checked once it is not")
                .with_run(Run::new(trace.iter().cloned(), Ending::Violation)),
            _ => report,
        }
    }

    /// The animator page alone: the components and properties drawn, and the product computed
    /// step by step in the page as the user clicks (open it with `#trace=a,b,c` after its address
    /// to start from a run).
    pub fn animator(&self, title: &str) -> Report<'_> {
        Report::animator(title, self.lanes())
    }
}
