//! The phases of a check: which question each part of a run answered, with which method, in how
//! long and over how large a product.
//!
//! A user's default question (LTSA's Check Safety) is two questions: do the properties hold, and is
//! the system free of deadlocks. A method that searches the product answers both in one walk; a
//! method that reasons about traces (the learners, circ, the quotient) answers the first, and the
//! second is then asked of the methods that answer deadlock questions ([`crate::registry::auto`],
//! which races only those on a deadlock question). Each part is a [`Phase`] of the
//! [`Outcome`](crate::Outcome), so what a user reads is what ran: no phase runs unreported, and
//! [`Outcome::elapsed`](crate::Outcome::elapsed) is the sum of them and the checker's own work.

use std::fmt;
use std::time::Duration;

/// The question a [`Phase`] answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Question {
    /// The safety properties and the components' `ERROR` states.
    Safety,
    /// Deadlock freedom alone.
    Deadlock,
    /// Safety and deadlock freedom in one run of one method.
    SafetyAndDeadlock,
    /// Progress (LTSA's Check Progress).
    Progress,
    /// A linear-time assertion (LTSA's `assert`).
    Assertion,
}

impl Question {
    /// The question's name in text and JSON reports: `safety`, `deadlock`, `safety+deadlock`,
    /// `progress` or `assertion`.
    pub fn name(self) -> &'static str {
        match self {
            Question::Safety => "safety",
            Question::Deadlock => "deadlock",
            Question::SafetyAndDeadlock => "safety+deadlock",
            Question::Progress => "progress",
            Question::Assertion => "assertion",
        }
    }

    /// The question one run answers, given whether it looks for deadlocks and whether there is
    /// anything besides a deadlock to find.
    pub(crate) fn of(safety: bool, deadlock: bool) -> Self {
        match (safety, deadlock) {
            (true, true) => Question::SafetyAndDeadlock,
            (false, true) => Question::Deadlock,
            _ => Question::Safety,
        }
    }
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One part of a check: the question, the method that answered it (for a portfolio, the member
/// that won), its wall time and the largest product it explored.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Phase {
    /// What this phase answered.
    pub question: Question,
    /// The method that answered it.
    pub method: String,
    /// Its wall time.
    pub elapsed: Duration,
    /// States of the largest search it ran.
    pub states: usize,
    /// Transitions of the largest search it ran.
    pub transitions: usize,
}

impl Phase {
    /// A phase record.
    pub fn new(
        question: Question,
        method: impl Into<String>,
        elapsed: Duration,
        states: usize,
        transitions: usize,
    ) -> Self {
        Phase {
            question,
            method: method.into(),
            elapsed,
            states,
            transitions,
        }
    }
}

impl fmt::Display for Phase {
    /// `deadlock: reduce, 1234 states, 0.012 s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}, {} states, {} transitions, {:.3} s",
            self.question,
            self.method,
            self.states,
            self.transitions,
            self.elapsed.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_names_the_questions_it_answered() {
        assert_eq!(Question::of(true, true).name(), "safety+deadlock");
        assert_eq!(Question::of(false, true), Question::Deadlock);
        assert_eq!(Question::of(true, false), Question::Safety);
        let phase = Phase::new(
            Question::Deadlock,
            guarantor_compose::Method::name(&guarantor_reduce::Reduce::new()).into_owned(),
            Duration::from_millis(12),
            10,
            20,
        );
        assert_eq!(
            phase.to_string(),
            "deadlock: reduce, 10 states, 20 transitions, 0.012 s"
        );
    }
}
