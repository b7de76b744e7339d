//! LTSA's progress check through the facade: [`Checker::check_progress`] runs
//! [`guarantor_compose::check_progress`] on the checker's components, properties, end states and
//! priority, re-runs the answer's run on the original components, and returns a
//! [`ProgressOutcome`] (with the `serde` feature, the JSON object of `guarantor check --progress
//! --format json`, docs/formats.md).
//!
//! The tests come from an FSP model ([`tests_of`]: the file's `progress` definitions, LTSA's
//! names) or are built by hand ([`ProgressTest::new`]); none means the default progress property
//! (every action of the alphabet). [`select`] picks one test by name, as `check --progress NAME`
//! does. Names the FSP front end made up for actions hidden inside nested composites
//! ([`guarantor_fsp::is_internal`]) count as tau.

use std::time::{Duration, Instant};

use guarantor_compose::error_lts::error_ltss;
pub use guarantor_compose::progress::{
    ProgressOptions, ProgressTest, ProgressVerdict, ProgressViolation,
};
use guarantor_compose::replay::{find_violation, replay};
use guarantor_compose::{Config, Violation};
use guarantor_fsp::System;
use guarantor_lts::Lts;

use crate::phase::{Phase, Question};
use crate::{CheckError, Checker};

/// The progress tests of an elaborated FSP system, in source order (`P[i:R]` gives `P.v`).
pub fn tests_of(system: &System) -> Vec<ProgressTest> {
    // The front end and the checker share one type (guarantor_lts::ProgressTest).
    system.progress.clone()
}

/// The test named `name` among `tests`; a name of an indexed test without its index (`P` for
/// `P.1`, `P.2`) selects all of its tests.
///
/// # Errors
/// [`CheckError::NoSuchProgressTest`] when no test has that name.
pub fn select(tests: &[ProgressTest], name: &str) -> Result<Vec<ProgressTest>, CheckError> {
    let exact: Vec<ProgressTest> = tests.iter().filter(|t| t.name == name).cloned().collect();
    let picked = if exact.is_empty() {
        let prefix = format!("{name}.");
        tests
            .iter()
            .filter(|t| t.name.starts_with(&prefix))
            .cloned()
            .collect()
    } else {
        exact
    };
    if picked.is_empty() {
        return Err(CheckError::NoSuchProgressTest {
            name: name.to_owned(),
            tests: tests.iter().map(|t| t.name.clone()).collect(),
        });
    }
    Ok(picked)
}

/// The result of a progress check.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ProgressOutcome {
    /// Holds, violated (a terminal set), or unsafe (an `ERROR` or property violation reachable).
    pub verdict: ProgressVerdict,
    /// The tests checked, by name; empty for the default progress property.
    pub tests: Vec<String>,
    /// What was violated, as the text output names it (`progress HEADS`, `progress (every
    /// action)`, `deadlock`, `property SAFE`, `ERROR in P`); `None` when the check holds.
    pub violated: Option<String>,
    /// Product states of the walk.
    pub states: usize,
    /// Product transitions of the walk.
    pub transitions: usize,
    /// Terminal sets found.
    pub terminal_sets: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The method that answered (for `auto`, the member that won the race).
    pub method: String,
    /// What ran: one progress phase, with its method, time and largest product.
    pub phases: Vec<Phase>,
}

impl ProgressOutcome {
    /// `holds` or `violated` (a deadlock and a safety violation are violations too).
    pub fn verdict_name(&self) -> &'static str {
        if self.verdict.is_holds() {
            "holds"
        } else {
            "violated"
        }
    }

    /// What kind of violation: `progress`, `deadlock` (a deadlock as a terminal set),
    /// `property` or `error_state` (safety must be fixed first); `None` when it holds.
    pub fn violation_name(&self) -> Option<&'static str> {
        match &self.verdict {
            ProgressVerdict::Violated(v) if v.deadlock => Some("deadlock"),
            ProgressVerdict::Violated(_) => Some("progress"),
            ProgressVerdict::Unsafe(cex) => Some(match cex.violation {
                Violation::Property { .. } => "property",
                Violation::ErrorState { .. } => "error_state",
                _ => "deadlock",
            }),
            _ => None,
        }
    }
}

impl Checker {
    /// LTSA's progress check (see [`guarantor_compose::progress`]) of `tests` (none: the default
    /// progress property) on the checker's components and properties, with their end states and
    /// priority, under `config`'s budgets. The run of the answer (and, for a terminal set, twice
    /// its cycle) is re-run on the components and properties before it is returned.
    ///
    /// ```
    /// use guarantor::Checker;
    /// use guarantor::progress::{ProgressTest, ProgressVerdict};
    /// use guarantor::compose::Config;
    /// let checker = Checker::from_fsp_str(
    ///     "TWO = (pick -> COIN | pick -> TRICK),\n\
    ///      COIN = (toss -> heads -> COIN | toss -> tails -> COIN),\n\
    ///      TRICK = (toss -> tails -> TRICK).",
    ///     Some("TWO"),
    /// )?;
    /// let heads = [ProgressTest::new("HEADS", ["heads"])];
    /// let outcome = checker.check_progress(&heads, &Config::default())?;
    /// let ProgressVerdict::Violated(v) = &outcome.verdict else { panic!() };
    /// assert_eq!((v.trace.as_slice(), v.actions.as_slice()), (&["pick".to_string()][..], &["tails".to_string(), "toss".to_string()][..]));
    /// assert_eq!(outcome.violated.as_deref(), Some("progress HEADS"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`CheckError::NoComponents`]; a budget or a nondeterministic property
    /// ([`CheckError::Compose`]); [`CheckError::BadEvidence`] if the run does not replay.
    pub fn check_progress(
        &self,
        tests: &[ProgressTest],
        config: &Config,
    ) -> Result<ProgressOutcome, CheckError> {
        let start = Instant::now();
        let problem = self.problem();
        if problem.num_components() == 0 {
            return Err(CheckError::NoComponents);
        }
        let components = problem.component_lts();
        let properties = problem.property_lts();
        let internal = internal_names(&components);
        let options = problem.progress_options(tests.to_vec(), internal);
        let method = self.chosen_method();
        let report = method.check_progress(&problem, &options, &config.started())?;
        let answered = report
            .answered_by
            .clone()
            .unwrap_or_else(|| method.name().into_owned());
        let (replays, run, violated) = match &report.verdict {
            ProgressVerdict::Violated(v) => {
                // Properties take part as their error forms, which never refuse.
                let errs = error_ltss(properties.iter().copied())?;
                let all: Vec<&Lts> = components.iter().copied().chain(&errs).collect();
                let run = [v.trace.as_slice(), &v.cycle, &v.cycle].concat();
                let what = if v.deadlock {
                    "deadlock".to_owned()
                } else if v.tests.is_empty() {
                    "progress (every action)".to_owned()
                } else {
                    format!("progress {}", v.tests.join(", "))
                };
                (replay(&all, &run).is_ok(), run, Some(what))
            }
            ProgressVerdict::Unsafe(cex) => {
                let found = find_violation(&components, &properties, &cex.trace)?;
                (
                    found == Some(cex.violation),
                    cex.trace.clone(),
                    Some(self.describe(&cex.violation)),
                )
            }
            _ => (true, Vec::new(), None),
        };
        if !replays {
            return Err(CheckError::BadEvidence {
                method: "progress".to_owned(),
                trace: run,
            });
        }
        Ok(ProgressOutcome {
            verdict: report.verdict,
            tests: tests.iter().map(|t| t.name.clone()).collect(),
            violated,
            states: report.stats.states,
            transitions: report.stats.transitions,
            terminal_sets: report.terminal_sets,
            elapsed: start.elapsed(),
            phases: vec![Phase::new(
                Question::Progress,
                answered.clone(),
                start.elapsed(),
                report.stats.states,
                report.stats.transitions,
            )],
            method: answered,
        })
    }
}

/// The actions of `components` that the FSP front end made up for hidden nested actions.
fn internal_names(components: &[&Lts]) -> Vec<String> {
    let mut names: Vec<String> = components
        .iter()
        .flat_map(|c| c.alphabet().iter().map(|(_, n)| n))
        .filter(|n| guarantor_fsp::is_internal(n))
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(feature = "serde")]
mod ser {
    use serde::ser::{Serialize, SerializeMap, Serializer};

    use super::{ProgressOutcome, ProgressVerdict};

    /// The object `guarantor check --progress --format json` prints, without the command line's
    /// own fields (docs/formats.md, "A progress check").
    impl Serialize for ProgressOutcome {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("verdict", self.verdict_name())?;
            m.serialize_entry("method", &self.method)?;
            m.serialize_entry("check", "progress")?;
            m.serialize_entry("progress_tests", &self.tests)?;
            let (trace, cycle, actions, missing, tests) = match &self.verdict {
                ProgressVerdict::Violated(v) => (
                    Some(&v.trace),
                    Some(&v.cycle),
                    Some(&v.actions),
                    Some(&v.missing),
                    Some(&v.tests),
                ),
                ProgressVerdict::Unsafe(cex) => (Some(&cex.trace), None, None, None, None),
                _ => (None, None, None, None, None),
            };
            m.serialize_entry("counterexample", &trace)?;
            m.serialize_entry("cycle", &cycle)?;
            m.serialize_entry("terminal_actions", &actions)?;
            m.serialize_entry("missing_actions", &missing)?;
            m.serialize_entry("violated_tests", &tests)?;
            m.serialize_entry("violation", &self.violation_name())?;
            m.serialize_entry("violated", &self.violated)?;
            m.serialize_entry("states", &self.states)?;
            m.serialize_entry("transitions", &self.transitions)?;
            m.serialize_entry("terminal_sets", &self.terminal_sets)?;
            m.serialize_entry("seconds", &self.elapsed.as_secs_f64())?;
            let phases: Vec<crate::json::PhaseJson<'_>> =
                self.phases.iter().map(crate::json::PhaseJson).collect();
            m.serialize_entry("phases", &phases)?;
            m.end()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests() -> Vec<ProgressTest> {
        vec![
            ProgressTest::new("A", ["a"]),
            ProgressTest::new("P.1", ["p.1"]),
            ProgressTest::new("P.2", ["p.2"]),
        ]
    }

    #[test]
    fn select_by_name_or_by_the_name_of_an_indexed_test() {
        let names = |v: Vec<ProgressTest>| v.into_iter().map(|t| t.name).collect::<Vec<_>>();
        assert_eq!(names(select(&tests(), "A").unwrap()), ["A"]);
        assert_eq!(names(select(&tests(), "P.2").unwrap()), ["P.2"]);
        assert_eq!(names(select(&tests(), "P").unwrap()), ["P.1", "P.2"]);
        let err = select(&tests(), "Q").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no progress test \"Q\" (tests: A, P.1, P.2)"
        );
        let err = select(&[], "Q").unwrap_err();
        assert!(err.to_string().contains("declares none"), "{err}");
    }

    #[test]
    fn the_ltsa_defect_example_is_a_deadlock_not_a_safety_violation() {
        let checker =
            Checker::from_fsp_str("P = (a->STOP | b->X), X = (d->Q), Q = (c->Q).", Some("P"))
                .unwrap();
        let outcome = checker.check_progress(&[], &Config::default()).unwrap();
        assert_eq!(outcome.violation_name(), Some("deadlock"));
        let ProgressVerdict::Violated(v) = &outcome.verdict else {
            panic!("{:?}", outcome.verdict)
        };
        assert_eq!(v.trace, ["a"]);
    }
}
