//! LTSA's most common liveness assertion, `[]<>{a, b, ...}` ("one of these actions always
//! happens again"), answered by the progress check of the checker's method when it holds.
//!
//! Under LTSA's fair choice a run ends in a terminal set of the product (a strongly connected
//! component no transition leaves) and takes every transition of it infinitely often; a run that
//! stops (a deadlock, or every component at `END`) is read as its last letter forever. The
//! progress test `progress T = {a, b, ...}` holds when no `ERROR` or property violation is
//! reachable, no reachable state is without moves, and every terminal set has a transition on one
//! of the actions ([`guarantor_compose::progress`]). Then every fair run ends in a terminal set
//! with moves and does one of the actions infinitely often, which is what `[]<>{a, b, ...}` asks:
//! the assertion holds. So a `holds` of the progress test is the assertion's `holds`, and the
//! check needs no Büchi product; with `reduce` (or `auto`) it needs no whole product either.
//!
//! Anything else (a violation, a deadlock, an error reached, a method that refuses progress or
//! runs out of budget, an action the system does not have, which LTSA lets happen freely) goes to
//! the Büchi check, which gives LTSA's verdict and its lasso: the shortcut only ever says `holds`,
//! and only where the argument above does.

use std::collections::BTreeSet;
use std::time::Instant;

use guarantor_compose::Config;
use guarantor_compose::progress::{ProgressTest, ProgressVerdict};
use guarantor_ltl::{Formula, Ltl, LtlVerdict, Prop};

use crate::assertion::AssertOutcome;
use crate::checker::Checker;

/// The actions `A` of a formula `[]<>A` (an action, an action set, or a disjunction of them), or
/// `None` for any other formula.
pub(crate) fn always_eventually(ltl: &Ltl) -> Option<BTreeSet<String>> {
    let Formula::Always(inner) = ltl.formula() else {
        return None;
    };
    let Formula::Eventually(body) = inner.as_ref() else {
        return None;
    };
    let mut actions = BTreeSet::new();
    actions_of(body, ltl.props(), &mut actions).then_some(actions)
}

/// Adds the actions of `f` to `out` when `f` is a disjunction of action propositions.
fn actions_of(f: &Formula, props: &[Prop], out: &mut BTreeSet<String>) -> bool {
    match f {
        Formula::Prop(id) => match &props[id.index()] {
            Prop::Actions(names) => {
                out.extend(names.iter().cloned());
                true
            }
            _ => false,
        },
        Formula::Or(a, b) => actions_of(a, props, out) && actions_of(b, props, out),
        _ => false,
    }
}

impl Checker {
    /// The assertion `name` (`ltl`, of the form `[]<>A`) answered `holds` by the progress test
    /// `{A}` (module docs) within `config`'s budget, or `None` when the Büchi check must answer
    /// (with the same, already started, clock).
    pub(crate) fn always_eventually_holds(
        &self,
        name: &str,
        ltl: &Ltl,
        config: &Config,
        start: Instant,
    ) -> Option<AssertOutcome> {
        let actions = always_eventually(ltl)?;
        let alphabet: BTreeSet<&str> = self
            .components()
            .flat_map(|(_, lts)| lts.alphabet().iter().map(|(_, n)| n))
            .collect();
        // An action the system lacks happens freely in LTSA's check; the progress test would not
        // count it (a test's names outside the alphabet are ignored), so leave it to the automaton.
        if actions.is_empty() || !actions.iter().all(|a| alphabet.contains(a.as_str())) {
            return None;
        }
        let test = ProgressTest::new(name.to_owned(), actions);
        let outcome = self.check_progress(&[test], config).ok()?;
        if !matches!(outcome.verdict, ProgressVerdict::Holds) {
            return None;
        }
        Some(AssertOutcome {
            name: name.to_owned(),
            safety: false,
            by_progress: true,
            verdict: LtlVerdict::Holds,
            violated: None,
            method: outcome.method,
            states: outcome.states,
            elapsed: start.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_always_eventually_of_actions_is_recognised() {
        let shape = |text: &str| always_eventually(&guarantor_ltl::parse(text, &[]).unwrap());
        assert_eq!(
            shape("[]<>a").unwrap().into_iter().collect::<Vec<_>>(),
            ["a"]
        );
        assert_eq!(shape("[]<>(a || b)").unwrap().len(), 2);
        assert!(shape("<>[]a").is_none());
        assert!(shape("[]<>(a && b)").is_none());
        assert!(shape("[](a -> <>b)").is_none());
    }
}
