//! Random [`Problem`]s for differential property tests (feature `proptest`): the input every
//! method crate's "agrees with the monolithic check" test draws from, in one place so that the
//! methods are tested on the same kind of systems.
//!
//! ```
//! use guarantor_compose::strategy::arb_problem;
//! use guarantor_compose::{Config, Method, Monolithic};
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//! let mut runner = TestRunner::deterministic();
//! let tree = arb_problem(&["a", "b", "c"], &["a", "b", "z"]).new_tree(&mut runner);
//! let problem = tree.map_err(|e| e.to_string())?.current();
//! assert!(problem.num_components() >= 1);
//! Monolithic::new().check(&problem, &Config::default())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

use crate::method::Problem;

/// A random problem: one to five components of up to four states over `actions` (tau moves and
/// `ERROR` states included), each with an end state or not (a stuck state when it has one, as
/// FSP's `END`), zero to two deterministic properties of up to three states over
/// `property_actions` (give one an action no component has to test properties' own actions),
/// and the deadlock question asked or not. Components are named `C0`, `C1`, ..., properties `P0`,
/// `P1`.
pub fn arb_problem(
    actions: &'static [&'static str],
    property_actions: &'static [&'static str],
) -> impl Strategy<Value = Problem> {
    let components = arb_system_with(
        5,
        LtsStrategyConfig::new(4, actions)
            .with_tau(true)
            .with_error_state(true),
    );
    let ends = prop::collection::vec(prop::option::weighted(0.6, 0usize..4), 5);
    let properties = prop::collection::vec(arb_deterministic_property(3, property_actions), 0..3);
    (components, ends, properties, any::<bool>()).prop_map(|(components, ends, properties, dl)| {
        let mut problem = Problem::new().with_deadlock(dl);
        for (i, lts) in components.into_iter().enumerate() {
            let end = ends[i].and_then(|e| end_state(&lts, e));
            problem.add_component_with_end(format!("C{i}"), lts, end);
        }
        for (i, p) in properties.into_iter().enumerate() {
            problem.add_property(format!("P{i}"), p);
        }
        problem
    })
}

/// The `e`-th stuck state of `lts` (modulo their number), or its `e`-th state if none is stuck;
/// never its error state.
fn end_state(lts: &Lts, e: usize) -> Option<StateId> {
    let stuck: Vec<StateId> = lts
        .states()
        .filter(|&s| lts.outgoing(s).is_empty() && !lts.is_error(s))
        .collect();
    let end = if stuck.is_empty() {
        StateId::must(e % lts.num_states())
    } else {
        stuck[e % stuck.len()]
    };
    (!lts.is_error(end)).then_some(end)
}

/// A problem of `components` named `M0`, `M1`, ... and `properties` named `P0`, `P1`, ...
pub fn problem_of(components: &[Lts], properties: &[Lts]) -> Problem {
    let mut problem = Problem::new();
    for (i, c) in components.iter().enumerate() {
        problem.add_component(format!("M{i}"), c.clone());
    }
    for (i, p) in properties.iter().enumerate() {
        problem.add_property(format!("P{i}"), p.clone());
    }
    problem
}

/// What a method's own certificates must be on `problem` (the property every method crate's
/// certificate test asserts): a `holds` comes with a certificate whose rule `rule_ok` accepts and
/// that guarantor-certify's independent checker accepts; a violation comes with none.
///
/// # Errors
/// A failed test case saying which of these did not hold.
pub fn own_certificates_are_sound(
    method: &dyn crate::Method,
    problem: &Problem,
    rule_ok: impl Fn(guarantor_certify::format::Rule) -> bool,
) -> Result<(), TestCaseError> {
    let config = crate::Config::default();
    let name = method.name();
    let report = method
        .check(problem, &config)
        .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    let written = method
        .certificate(problem, &report, &config)
        .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    let Some(certificate) = written else {
        prop_assert!(
            report.verdict.is_violated(),
            "{}: a holds without a certificate",
            name
        );
        return Ok(());
    };
    prop_assert!(
        report.verdict.is_holds(),
        "{}: a certificate of a violation",
        name
    );
    prop_assert!(
        rule_ok(certificate.rule),
        "{}: rule {:?}",
        name,
        certificate.rule
    );
    let verdict = guarantor_certify::check(&certificate, &problem.certify_model())
        .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    prop_assert!(verdict.is_accepted(), "{}: {:?}", name, verdict);
    Ok(())
}
