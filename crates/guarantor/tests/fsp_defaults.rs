//! Issue 28, point 3: the library's defaults on FSP input are the command line's (LTSA's Check
//! Safety). A checker made by [`Checker::from_fsp`] or [`Checker::from_fsp_str`] searches for
//! deadlocks as well as property violations and `ERROR` states, whatever the method;
//! [`Checker::deadlock`]`(false)` turns the search off. A checker built by hand (`.aut` input)
//! keeps properties only, as `check` without `--deadlock` does.

use guarantor::compose::Method;
use guarantor::compose::{Verdict, Violation};
use guarantor::{CheckError, Checker, MethodKind, Question};

/// The textbook dining philosophers (no property): every philosopher takes the left fork, and
/// nobody can take a right one.
const DINING: &str = "
const N = 3
range P = 0..N-1
PHIL(I=0) = (phil[I].getleft -> phil[I].getright -> phil[I].eat
               -> phil[I].putright -> phil[I].putleft -> PHIL).
FORK(F=0) = ( phil[F].getleft -> phil[F].putleft -> FORK
            | phil[(F+N-1)%N].getright -> phil[(F+N-1)%N].putright -> FORK).
||DINING = (forall [i:P] (PHIL(i) || FORK(i))).
";

/// A property that holds, and a deadlock after `c`.
const DEADLOCKS: &str = "P = (a -> b -> P | c -> STOP).\nQ = (a -> b -> Q | c -> Q).\n\
    property SAFE = (a -> b -> SAFE).\n||S = (P || Q || SAFE).\n";

fn is_deadlock(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Violated(cex) if cex.violation == Violation::Deadlock)
}

#[test]
fn the_textbook_dining_philosophers_deadlock_through_the_library() {
    let checker = Checker::from_fsp_str(DINING, None).unwrap();
    let outcome = checker.check().unwrap();
    assert!(is_deadlock(&outcome.verdict), "{:?}", outcome.verdict);
    assert_eq!(outcome.violated.as_deref(), Some("deadlock"));
    // Three philosophers, each holding a left fork.
    let cex = outcome.verdict.counterexample().unwrap();
    assert_eq!(cex.trace.len(), 3, "{:?}", cex.trace);
    assert!(cex.trace.iter().all(|a| a.ends_with("getleft")));
}

#[test]
fn every_method_reports_the_deadlock_of_an_fsp_model() {
    for (kind, name) in MethodKind::all() {
        let checker = Checker::from_fsp_str(DEADLOCKS, None).unwrap().method(kind);
        let outcome = checker.check().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            is_deadlock(&outcome.verdict),
            "{name}: {:?}",
            outcome.verdict
        );
        assert_eq!(outcome.violated.as_deref(), Some("deadlock"), "{name}");
        // What ran is what the outcome says: one run that answered both questions, or the
        // method's safety phase and then a deadlock phase of the methods that search deadlocks.
        let phases: Vec<Question> = outcome.phases.iter().map(|p| p.question).collect();
        if kind == MethodKind::Auto && phases.len() == 2 {
            // The portfolio: a member that answers safety only won the first race, and the
            // members that search deadlocks raced on the deadlock question (issue 25).
            assert_eq!(phases, [Question::Safety, Question::Deadlock], "{name}");
            assert!(searches_deadlocks(&outcome.phases[1].method), "{name}");
        } else if searches_deadlocks(name) {
            assert_eq!(phases, [Question::SafetyAndDeadlock], "{name}");
        } else {
            assert_eq!(phases, [Question::Safety, Question::Deadlock], "{name}");
            assert_eq!(outcome.phases[0].method, name);
            assert!(searches_deadlocks(&outcome.phases[1].method), "{name}");
        }
        assert!(outcome.phases.iter().all(|p| p.elapsed <= outcome.elapsed));
    }
}

/// Whether the built-in method of this name answers deadlock questions itself.
fn searches_deadlocks(name: &str) -> bool {
    guarantor::registry::method_named(name).is_some_and(|m| m.searches_deadlocks())
}

#[test]
fn deadlock_false_checks_the_properties_only() {
    for (kind, name) in MethodKind::all() {
        let checker = Checker::from_fsp_str(DEADLOCKS, None)
            .unwrap()
            .deadlock(false)
            .method(kind);
        let outcome = checker.check().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.verdict.is_holds(), "{name}: {:?}", outcome.verdict);
    }
    let only_deadlocks = Checker::from_fsp_str(DINING, None).unwrap().deadlock(false);
    assert!(matches!(
        only_deadlocks.check(),
        Err(CheckError::NothingToCheck)
    ));
}

#[test]
fn a_method_with_only_deadlocks_to_search_leaves_the_search_to_the_deadlock_searchers() {
    for (kind, name) in MethodKind::all() {
        let outcome = Checker::from_fsp_str(DINING, None)
            .unwrap()
            .method(kind)
            .check()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            is_deadlock(&outcome.verdict),
            "{name}: {:?}",
            outcome.verdict
        );
        assert!(
            searches_deadlocks(&outcome.method),
            "{name}: {}",
            outcome.method
        );
        assert_eq!(outcome.phases.len(), 1, "{name}");
        assert_eq!(outcome.phases[0].question, Question::Deadlock, "{name}");
        // Said for every method but those that search deadlocks themselves: the monolithic one,
        // `lstar` (its failure rule), and `auto`, which races its members that do (issue 25).
        let said = outcome.notes.iter().any(|n| n.contains("only deadlocks"));
        let searches = searches_deadlocks(name);
        assert_eq!(said, !searches, "{name}: {:?}", outcome.notes);
    }
}

#[test]
fn a_checker_built_by_hand_searches_no_deadlock_unless_asked() {
    let system = guarantor::fsp::parse(DEADLOCKS, "d.lts")
        .unwrap()
        .elaborate("S")
        .unwrap();
    let mut checker = Checker::new();
    for c in &system.components {
        checker = if c.is_property {
            checker.property(c.name.clone(), c.lts.clone())
        } else {
            checker.component_with_end(c.name.clone(), c.lts.clone(), c.end_state)
        };
    }
    assert!(checker.check().unwrap().verdict.is_holds());
    assert!(is_deadlock(
        &checker.deadlock(true).check().unwrap().verdict
    ));
}

/// An action only a property has is always possible (its error form offers it), so the system
/// never deadlocks: every method says so, those with a deadlock phase of their own too.
#[test]
fn an_action_only_a_property_has_keeps_the_system_from_deadlocking() {
    let model = "A = (a -> STOP).\nproperty P = (a -> P | z -> P).\n||S = (A || P).\n";
    for (kind, name) in MethodKind::all() {
        let checker = Checker::from_fsp_str(model, None).unwrap().method(kind);
        let outcome = checker.check().unwrap();
        assert!(outcome.verdict.is_holds(), "{name}: {:?}", outcome.verdict);
    }
}
