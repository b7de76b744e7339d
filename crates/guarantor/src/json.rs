//! The result of a check as `guarantor check --format json` prints it (docs/formats.md, "JSON
//! output (schema)"): with the `serde` feature [`Outcome`] serialises to that object, so a library
//! user and a script read the same fields. The command line adds only what the library does not
//! know (`warnings`, `certificate`, and `deadlock` under `--deadlock`).
//!
//! Without the feature this module still gives what the schema's other two objects need: why a
//! budget ran out ([`CheckError::budget_kind`], compose's [`BudgetKind`]), how far the check got
//! ([`CheckError::partial_stats`]) and where bad input is ([`CheckError::location`]).

use guarantor_compose::{BudgetKind, Counterexample, Stats, Verdict, Violation};
use guarantor_predabs::PredabsError;

use crate::checker::{CheckError, Outcome};

/// What is wrong with an input file and where (the `error` object's `message`, `file`, `line`,
/// `column`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputLocation {
    /// What is wrong, without the place.
    pub message: String,
    /// The file, as it was named.
    pub file: String,
    /// 1-based line, if known.
    pub line: Option<usize>,
    /// 1-based column (in characters), if known.
    pub column: Option<usize>,
}

impl CheckError {
    /// Which budget ran out, if the check ended on one ([`CheckError::is_budget`]): each
    /// crate's error says which itself; a budget that cannot be told apart (learning rounds,
    /// SAT conflicts, ...) is [`BudgetKind::Other`].
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            CheckError::Compose(e) => e.budget_kind(),
            CheckError::Ltl(e) => e.budget_kind(),
            CheckError::Lstar(e) => e.budget_kind(),
            CheckError::Quotient(e) => e.budget_kind(),
            CheckError::Circ(e) => e.budget_kind(),
            CheckError::Method(e) => e.budget_kind(),
            CheckError::Program(e) => e.budget_kind(),
            CheckError::Lts(e) => BudgetKind::of_lts(e),
            _ => None,
        }
    }

    /// For a budget error, how far the check got: the largest search the method ran before it
    /// stopped (zero when the method did not say).
    pub fn partial_stats(&self) -> Option<Stats> {
        if !self.is_budget() {
            return None;
        }
        let partial = match self {
            CheckError::Method(e) | CheckError::Program(PredabsError::Check(e)) => {
                e.partial_stats().copied()
            }
            _ => None,
        };
        Some(partial.unwrap_or_default())
    }

    /// Where the bad input is, if the error names a file: `.aut` and FSP syntax errors and FSP
    /// elaboration errors with their line and column, unreadable files without; for a proof
    /// skeleton the assumption's own file when it could not be loaded, else the skeleton file,
    /// with line and column when known. `None` when no file is named.
    pub fn location(&self) -> Option<InputLocation> {
        use guarantor_lts::io::aut::AutFileError;
        let at = |path: &std::path::Path, message: String, place: Option<(usize, usize)>| {
            InputLocation {
                message,
                file: path.display().to_string(),
                line: place.map(|p| p.0),
                column: place.map(|p| p.1),
            }
        };
        Some(match self {
            CheckError::Io { path, source }
            | CheckError::Aut(AutFileError::Io { path, source }) => {
                at(path, format!("cannot read: {source}"), None)
            }
            CheckError::NoTarget { path } => at(
                path,
                "nothing to check (no composite or process)".to_owned(),
                None,
            ),
            CheckError::Aut(AutFileError::Parse(p)) => at(
                p.file()?,
                p.message().to_owned(),
                Some((p.line(), p.column())),
            ),
            CheckError::Fsp(f) => {
                let l = f.location.as_ref()?;
                InputLocation {
                    message: f.kind.to_string(),
                    file: l.file.clone(),
                    line: Some(l.line),
                    column: Some(l.column),
                }
            }
            CheckError::SkeletonLoad { source, .. } => return source.location(),
            CheckError::SkeletonSyntax {
                path,
                line,
                column,
                message,
            } => at(path, message.clone(), Some((*line, *column))),
            CheckError::SkeletonFormat { path, source } => at(path, source.to_string(), None),
            CheckError::SkeletonRule { path, rule, reason } => {
                at(path, format!("rule {rule}: {reason}"), None)
            }
            CheckError::SkeletonAssumption {
                path,
                location,
                index,
                reason,
            } => at(path, format!("assumption {index}: {reason}"), *location),
            CheckError::SkeletonCertificate { path, source } => at(path, source.to_string(), None),
            _ => return None,
        })
    }
}

impl Outcome {
    /// The outcome of a `holds` after a separate deadlock search found `deadlock` (for methods
    /// whose walk does not search for deadlocks): the verdict becomes the deadlock, so the
    /// outcome reads (and serialises) as the monolithic walk's deadlock would.
    #[must_use]
    /// [`Checker::check`](crate::Checker::check) does this itself when the checker searches for
    /// deadlocks; [`Outcome::steps`] is left empty here ([`Checker::steps`](crate::Checker::steps)
    /// computes them).
    pub fn with_deadlock(mut self, deadlock: Counterexample) -> Self {
        self.violated = Some("deadlock".to_owned());
        self.steps.clear();
        self.verdict = Verdict::Violated(deadlock);
        self
    }

    /// The verdict's name in the schema: `holds`, `violated` or `deadlock`.
    pub fn verdict_name(&self) -> &'static str {
        match &self.verdict {
            Verdict::Violated(cex) if cex.violation == Violation::Deadlock => "deadlock",
            Verdict::Violated(_) => "violated",
            _ => "holds",
        }
    }
}

/// The kind of a violation in the schema: `property`, `error_state` or `deadlock`.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
fn violation_name(v: Violation) -> &'static str {
    match v {
        Violation::Property { .. } => "property",
        Violation::ErrorState { .. } => "error_state",
        Violation::Deadlock => "deadlock",
        _ => "other",
    }
}

#[cfg(feature = "serde")]
pub(crate) use ser::PhaseJson;

#[cfg(feature = "serde")]
mod ser {
    use serde::ser::{Serialize, SerializeMap, Serializer};

    use guarantor_compose::{Method, Monolithic};

    use super::violation_name;
    use crate::checker::Outcome;

    /// One assumption's size, as `{"component", "states", "transitions"}`.
    struct Assumption<'a>(&'a crate::AssumptionSummary);

    impl Serialize for Assumption<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(3))?;
            m.serialize_entry("component", &self.0.label)?;
            m.serialize_entry("states", &self.0.states)?;
            m.serialize_entry("transitions", &self.0.transitions)?;
            m.end()
        }
    }

    /// One step of a counterexample, as `{"action", "components": [names]}`.
    struct Step<'a>(&'a crate::Step);

    impl Serialize for Step<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("action", &self.0.action)?;
            m.serialize_entry("components", &self.0.names)?;
            m.end()
        }
    }

    /// A portfolio member that did not answer, from its note `"member: fate"`.
    struct Tried<'a>(&'a str, &'a str);

    impl Serialize for Tried<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("method", self.0)?;
            m.serialize_entry("gave_up", self.1)?;
            m.end()
        }
    }

    /// One phase of the run: `{"question", "method", "seconds", "states", "transitions"}`.
    pub(crate) struct PhaseJson<'a>(pub(crate) &'a crate::Phase);

    impl Serialize for PhaseJson<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(5))?;
            m.serialize_entry("question", self.0.question.name())?;
            m.serialize_entry("method", &self.0.method)?;
            m.serialize_entry("seconds", &self.0.elapsed.as_secs_f64())?;
            m.serialize_entry("states", &self.0.states)?;
            m.serialize_entry("transitions", &self.0.transitions)?;
            m.end()
        }
    }

    struct Queries(u64, u64);

    impl Serialize for Queries {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("membership", &self.0)?;
            m.serialize_entry("equivalence", &self.1)?;
            m.end()
        }
    }

    /// The object `guarantor check --format json` prints, without the command line's own fields.
    impl Serialize for Outcome {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let cex = self.verdict.counterexample();
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("verdict", self.verdict_name())?;
            m.serialize_entry("method", &self.method)?;
            m.serialize_entry("counterexample", &cex.map(|c| &c.trace))?;
            if cex.is_some() {
                let steps: Vec<Step<'_>> = self.steps.iter().map(Step).collect();
                m.serialize_entry("steps", &steps)?;
            }
            m.serialize_entry("violation", &cex.map(|c| violation_name(c.violation)))?;
            m.serialize_entry("violated", &self.violated)?;
            m.serialize_entry("states", &self.states)?;
            m.serialize_entry("transitions", &self.transitions)?;
            m.serialize_entry("seconds", &self.elapsed.as_secs_f64())?;
            // The monolithic search assumes nothing: its JSON has no `assumptions` field.
            if self.method.as_str() != Method::name(&Monolithic::new()) {
                let assumptions: Vec<Assumption<'_>> =
                    self.assumptions.iter().map(Assumption).collect();
                m.serialize_entry("assumptions", &assumptions)?;
            }
            if let (Some(mq), Some(eq)) = (
                self.counter("membership_queries"),
                self.counter("equivalence_queries"),
            ) {
                m.serialize_entry("queries", &Queries(mq, eq))?;
            }
            for c in &self.counters {
                if !c.name.ends_with("_queries") {
                    m.serialize_entry(c.name.as_ref(), &c.value)?;
                }
            }
            let phases: Vec<PhaseJson<'_>> = self.phases.iter().map(PhaseJson).collect();
            m.serialize_entry("phases", &phases)?;
            let tried: Vec<Tried<'_>> = self
                .notes
                .iter()
                .filter(|n| !n.starts_with("note: "))
                .filter_map(|n| n.split_once(": "))
                .map(|(method, why)| Tried(method, why))
                .collect();
            if !tried.is_empty() {
                m.serialize_entry("tried", &tried)?;
            }
            let notes: Vec<&str> = self
                .notes
                .iter()
                .filter_map(|n| n.strip_prefix("note: "))
                .collect();
            if !notes.is_empty() {
                m.serialize_entry("notes", &notes)?;
            }
            m.end()
        }
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use crate::Checker;
    use guarantor_compose::{Method, Monolithic};
    use guarantor_lts::io::aut::parse_aut;
    use serde_json::json;

    #[test]
    fn an_outcome_serialises_to_the_schema() {
        let input = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, send, 0)\n").unwrap();
        let output = parse_aut("des (0, 2, 2)\n(0, send, 1)\n(1, output, 0)\n").unwrap();
        let order = parse_aut("des (0, 1, 2)\n(0, output, 1)\n").unwrap();
        let outcome = Checker::new()
            .component("Input", input)
            .component("Output", output)
            .property("Order", order)
            .check()
            .unwrap();
        let mut v = serde_json::to_value(&outcome).unwrap();
        // A second `output` before the next `input`'s output is the first wrong step.
        assert_eq!(v["counterexample"].as_array().map(Vec::len), Some(6));
        assert_eq!(v["counterexample"][5], "output");
        assert!(v["seconds"].is_f64());
        // Each step names the components that take part: `send` is shared.
        assert_eq!(
            v["steps"][0],
            json!({"action": "input", "components": ["Input"]})
        );
        assert_eq!(
            v["steps"][1],
            json!({"action": "send", "components": ["Input", "Output"]})
        );
        assert_eq!(v["steps"].as_array().map(Vec::len), Some(6));
        v.as_object_mut().unwrap().remove("seconds");
        // One phase ran: the monolithic walk, on the properties only (no deadlock search asked).
        assert_eq!(v["phases"][0]["question"], "safety");
        let mono = Monolithic::new().name().into_owned();
        assert_eq!(v["phases"][0]["method"], mono.as_str());
        assert_eq!(v["phases"][0]["states"], v["states"]);
        assert_eq!(v["phases"].as_array().map(Vec::len), Some(1));
        v.as_object_mut().unwrap().remove("phases");
        assert_eq!(
            v,
            json!({
                "verdict": "violated",
                "method": mono,
                "counterexample": v["counterexample"],
                "steps": v["steps"],
                "violation": "property",
                "violated": "property Order",
                "states": v["states"],
                "transitions": v["transitions"],
            })
        );
    }
}
