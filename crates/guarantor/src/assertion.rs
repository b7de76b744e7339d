//! LTSA's fluent LTL assertions through the facade: [`Checker::check_assertion`] checks one
//! `assert` of an FSP model ([`assertion_of`]) or any [`Ltl`] formula on the checker's system.
//!
//! A *safety* formula ([`guarantor_ltl::is_safety`]) is compiled into a deterministic property
//! LTS over the system's actions ([`guarantor_ltl::compile_safety`]) and checked as one more
//! property by the checker's method, whichever it is: the compositional methods check fluent
//! LTL too. (The check searches no deadlock: as LTSA's safety assertion check, it is about the
//! formula.) Any other formula is checked monolithically under LTSA's fair-choice assumption
//! ([`guarantor_ltl::check_ltl`], with the checker's priority), and its lasso counterexample is
//! replayed in every component, the cycle twice, before it is returned. Properties of the model
//! take part in their error forms: an `ERROR` reachable answers the check, as in LTSA.
//!
//! As in LTSA, an action of the formula that no component has is *free*: it may happen at any
//! time. (LTSA composes the formula's automaton and fluents with the system, and an action in
//! one machine's alphabet alone interleaves.) So `[]<>red.enter` passes on a system without
//! `red.enter`, and `[]!(RED && BLUE)` is violated there by `red.1.enter, blue.1.enter`; LTSA's
//! answers on the book's `CONVOY` are these. The safety route gets this from the composition
//! itself (the property moves alone on its own actions); the Büchi route adds a one-state
//! component with a loop on each such action.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use guarantor_compose::Verdict;
use guarantor_compose::error_lts::error_ltss;
use guarantor_compose::replay::replay;
use guarantor_fsp::System;
pub use guarantor_ltl::{Lasso, Ltl, LtlError, LtlVerdict, Prop};
use guarantor_ltl::{check_ltl, compile_safety, is_safety};
use guarantor_lts::Lts;

use crate::checker::{CheckError, Checker};

/// The assertion `name` of an elaborated FSP system: the front end elaborates it into
/// `guarantor-ltl`'s formulas already, so this finds it by name.
///
/// ```
/// let system = guarantor::model::parse_fsp(
///     "fluent C = <enter, exit>\nassert SAFE = []!C\nP = (enter -> exit -> P).",
///     "m.lts",
///     None,
/// )?;
/// let ltl = guarantor::assertion::assertion_of(&system, "SAFE")?;
/// assert_eq!(ltl.to_string(), "[]!C");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`CheckError::NoSuchAssertion`].
pub fn assertion_of(system: &System, name: &str) -> Result<Ltl, CheckError> {
    match system.assertions.iter().find(|a| a.name == name) {
        Some(a) => Ok(a.formula.clone()),
        None => Err(CheckError::NoSuchAssertion {
            name: name.to_owned(),
            assertions: system.assertions.iter().map(|a| a.name.clone()).collect(),
        }),
    }
}

/// The result of an assertion check.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AssertOutcome {
    /// The assertion's name.
    pub name: String,
    /// Whether it was checked as a safety property (by the checker's method) rather than through
    /// the Büchi automaton of its negation.
    pub safety: bool,
    /// Whether it was answered by the progress test of its actions (a `[]<>A` that holds: the
    /// progress check of the checker's method, no Büchi product), rather than by its automaton.
    pub by_progress: bool,
    /// The verdict: for a safety assertion a violation is a lasso with an empty cycle (the run to
    /// the bad prefix); [`LtlVerdict::Unsafe`] when an `ERROR` state or another property was
    /// violated first.
    pub verdict: LtlVerdict,
    /// For a violation, what was violated (`assert NAME`, `property P`, `ERROR in P`).
    pub violated: Option<String>,
    /// The method that answered (`ltl` for the Büchi route).
    pub method: String,
    /// States explored (the product with the automaton, for the Büchi route).
    pub states: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl AssertOutcome {
    /// Whether the assertion holds.
    pub fn holds(&self) -> bool {
        self.verdict.is_holds()
    }
}

/// A budget or composition error of the LTL crate as the checker's own, so that callers (the
/// command line's JSON) see which budget ran out as for any check.
fn lift(e: LtlError) -> CheckError {
    match e {
        LtlError::Compose(c) => CheckError::Compose(c),
        other => CheckError::Ltl(other),
    }
}

/// A one-state LTS looping on each action of the formula that no component has, if there are any.
fn free_actions(ltl: &Ltl, components: &[&Lts]) -> Result<Option<Lts>, CheckError> {
    let missing: Vec<&str> = ltl
        .alphabet()
        .filter(|a| !components.iter().any(|c| c.alphabet().contains(a)))
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    Ok(Some(Lts::from_edges(
        missing.into_iter().map(|a| (0, a, 0)),
    )?))
}

impl Checker {
    /// Checks the formula `ltl`, named `name`, on this checker's system (see the [module
    /// documentation](crate::assertion)).
    ///
    /// ```
    /// use guarantor::Checker;
    /// use guarantor::assertion::{assertion_of, LtlVerdict};
    /// let system = guarantor::model::parse_fsp(
    ///     "fluent C[i:1..2] = <p[i].enter, p[i].exit>\n\
    ///      assert MUTEX = []!(C[1] && C[2])\n\
    ///      assert LIVE = []<>p[1].enter\n\
    ///      P = (enter -> exit -> P).\n||S = (p[1..2]:P).",
    ///     "m.lts",
    ///     None,
    /// )?;
    /// let checker = Checker::from_fsp(&system, &Default::default())?;
    /// let mutex = checker.check_assertion("MUTEX", &assertion_of(&system, "MUTEX")?)?;
    /// assert!(mutex.safety && !mutex.holds());
    /// let live = checker.check_assertion("LIVE", &assertion_of(&system, "LIVE")?)?;
    /// assert!(!live.safety && live.holds());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`CheckError::NoComponents`]; budgets; [`CheckError::BadEvidence`] if a counterexample does
    /// not replay.
    pub fn check_assertion(&self, name: &str, ltl: &Ltl) -> Result<AssertOutcome, CheckError> {
        let start = Instant::now();
        if self.components().len() == 0 {
            return Err(CheckError::NoComponents);
        }
        let components: Vec<&Lts> = self.components().map(|(_, l)| l).collect();
        // LTSA's assertion automaton has `*` in its alphabet, which moves on every action the
        // formula does not name (AssertDefinition, Analyser.mergeAsterisk): each action of the
        // system is a step of the formula's word, where the formula's action propositions are
        // false. Observing every action of the system does the same.
        let every: BTreeSet<&str> = components
            .iter()
            .copied()
            .chain(self.properties().map(|(_, p)| p))
            .flat_map(|l| {
                l.alphabet()
                    .iter()
                    .filter(|(a, _)| !a.is_tau())
                    .map(|(_, n)| n)
            })
            .collect();
        let ltl = &ltl.clone().with_extension(every);
        if is_safety(ltl) {
            let prop = compile_safety(ltl, &self.config_ref().started()).map_err(lift)?;
            let label = format!("assert {name}");
            let outcome = self
                .clone()
                .property(label.clone(), prop)
                .deadlock(false)
                .check()?;
            let verdict = match &outcome.verdict {
                Verdict::Violated(cex)
                    if outcome
                        .violated
                        .as_deref()
                        .is_some_and(|v| v.strip_prefix("property ").unwrap_or(v) == label) =>
                {
                    LtlVerdict::Violated(Lasso::new(cex.trace.clone(), Vec::new()))
                }
                Verdict::Violated(cex) => LtlVerdict::Unsafe(cex.trace.clone()),
                _ => LtlVerdict::Holds,
            };
            return Ok(AssertOutcome {
                name: name.to_owned(),
                safety: true,
                by_progress: false,
                verdict,
                violated: outcome.violated,
                method: outcome.method,
                states: outcome.states,
                elapsed: start.elapsed(),
            });
        }
        // One clock for the progress shortcut and the Büchi check after it: a timeout covers both.
        let config = self.config_ref().started();
        if let Some(holds) = self.always_eventually_holds(name, ltl, &config, start) {
            return Ok(holds);
        }
        let errs = error_ltss(self.properties().map(|(_, p)| p)).map_err(CheckError::from)?;
        let free = free_actions(ltl, &components)?;
        let all: Vec<&Lts> = components
            .iter()
            .copied()
            .chain(&errs)
            .chain(free.as_ref())
            .collect();
        let report = check_ltl(&all, self.priority_ref(), ltl, &config).map_err(lift)?;
        let (run, violated) = match &report.verdict {
            LtlVerdict::Violated(l) => (
                [l.prefix.as_slice(), &l.cycle, &l.cycle].concat(),
                Some(format!("assert {name}")),
            ),
            LtlVerdict::Unsafe(t) => (t.clone(), Some("ERROR".to_owned())),
            _ => (Vec::new(), None),
        };
        let visible: Vec<&String> = run.iter().filter(|a| *a != "tau").collect();
        if violated.is_some() && replay(&all, &visible).is_err() {
            return Err(CheckError::BadEvidence {
                method: "ltl".to_owned(),
                trace: run,
            });
        }
        Ok(AssertOutcome {
            name: name.to_owned(),
            safety: false,
            by_progress: false,
            verdict: report.verdict,
            violated,
            method: "ltl".to_owned(),
            states: report.product_states,
            elapsed: start.elapsed(),
        })
    }
}
