//! The progress check: LTSA's examples (fair choice, conditional tests, priority, `END`,
//! deadlocks, the defect we do not copy), and property tests against a naive reference that
//! finds the terminal sets of an explicit product by reachability (nothing shared with the
//! crate's iterative Tarjan).

mod common;

use std::collections::{BTreeSet, HashMap, HashSet};

use common::{Member, Naive, Tuple};
use guarantor_compose::progress::{
    ProgressOptions, ProgressTest, ProgressVerdict, ProgressViolation, check_progress,
};
use guarantor_compose::replay::replay;
use guarantor_compose::{ComposeError, Config, Priority, Violation};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

fn lts(edges: &[(usize, &str, usize)]) -> Lts {
    Lts::from_edges(edges.iter().copied()).unwrap()
}

fn violation(components: &[&Lts], options: &ProgressOptions) -> ProgressViolation {
    match check_progress(components, &[], options, &Config::default())
        .unwrap()
        .verdict
    {
        ProgressVerdict::Violated(v) => v,
        other => panic!("expected a progress violation, got {other:?}"),
    }
}

fn holds(components: &[&Lts], options: &ProgressOptions) -> bool {
    check_progress(components, &[], options, &Config::default())
        .unwrap()
        .verdict
        .is_holds()
}

fn test(name: &str, actions: &[&str]) -> ProgressTest {
    ProgressTest::new(name, actions.iter().copied())
}

#[test]
fn fair_choice_lets_both_sides_of_a_coin_recur() {
    let coin = lts(&[
        (0, "toss", 1),
        (1, "heads", 0),
        (0, "toss", 2),
        (2, "tails", 0),
    ]);
    assert!(holds(&[&coin], &ProgressOptions::default()));
    let heads = ProgressOptions::default().with_tests(vec![test("HEADS", &["heads"])]);
    assert!(holds(&[&coin], &heads));
}

#[test]
fn a_trick_coin_violates_heads_and_the_default_property() {
    // TWOCOIN = (pick -> COIN | pick -> TRICK), TRICK = (toss -> heads -> TRICK).
    let two = lts(&[
        (0, "pick", 1),
        (0, "pick", 3),
        (1, "toss", 2),
        (2, "heads", 1),
        (1, "toss", 4),
        (4, "tails", 1),
        (3, "toss", 5),
        (5, "tails", 3),
    ]);
    let v = violation(&[&two], &ProgressOptions::default());
    assert!(v.tests.is_empty() && !v.deadlock);
    assert_eq!(v.trace, ["pick"]);
    assert_eq!(v.missing, ["pick"]); // the other set lacks pick; this one heads too
    let options = ProgressOptions::default().with_tests(vec![
        test("HEADS", &["heads"]),
        test("TAILS", &["tails"]),
        test("EITHER", &["heads", "tails"]),
    ]);
    let v = violation(&[&two], &options);
    assert_eq!(v.tests, ["HEADS"]);
    assert_eq!(v.actions, ["tails", "toss"]);
    assert_eq!(v.trace, ["pick"]);
    assert_eq!(v.cycle.len(), 2);
    assert_eq!(v.states, 2);
    replay(
        &[&two],
        &[v.trace.clone(), v.cycle.clone(), v.cycle].concat(),
    )
    .unwrap();
}

#[test]
fn a_conditional_test_applies_only_to_sets_with_its_condition() {
    // (a -> A | b -> B), A = (c -> A), B = (d -> B).
    let p = lts(&[(0, "a", 1), (0, "b", 2), (1, "c", 1), (2, "d", 2)]);
    let if_c_then_d = ProgressTest::new("CD", ["d"]).with_condition(["c"]);
    let v = violation(
        &[&p],
        &ProgressOptions::default().with_tests(vec![if_c_then_d]),
    );
    assert_eq!(
        (v.tests, v.trace, v.actions),
        (
            vec!["CD".to_owned()],
            vec!["a".to_owned()],
            vec!["c".to_owned()]
        )
    );
    let unrelated = ProgressTest::new("XD", ["d"]).with_condition(["x"]);
    assert!(holds(
        &[&p],
        &ProgressOptions::default().with_tests(vec![unrelated])
    ));
}

#[test]
fn actions_not_in_the_alphabet_are_ignored_so_such_a_test_fails_everywhere() {
    let p = lts(&[(0, "a", 0)]);
    let v = violation(
        &[&p],
        &ProgressOptions::default().with_tests(vec![test("Z", &["zzz"])]),
    );
    assert_eq!(v.tests, ["Z"]);
    // A mentioned action the system has is enough.
    assert!(holds(
        &[&p],
        &ProgressOptions::default().with_tests(vec![test("AZ", &["a", "zzz"])])
    ));
}

/// The LTSA defect of issue 16: `P = (a->STOP | b->X), X = (d->Q), Q = (c->Q).` LTSA's search
/// for the run to the terminal set {Q} meets the deadlock after `a` first and reports "Safety
/// property violation detected"; there is no safety violation, the deadlock is a terminal set
/// without actions, which is the progress violation we report.
#[test]
fn a_deadlock_met_on_the_way_is_a_progress_violation_not_a_safety_one() {
    let p = lts(&[(0, "a", 1), (0, "b", 2), (2, "d", 3), (3, "c", 3)]);
    let report =
        check_progress(&[&p], &[], &ProgressOptions::default(), &Config::default()).unwrap();
    assert_eq!(report.terminal_sets, 2);
    let ProgressVerdict::Violated(v) = report.verdict else {
        panic!("{:?}", report.verdict)
    };
    assert!(v.deadlock);
    assert_eq!(v.trace, ["a"]);
    assert!(v.cycle.is_empty() && v.actions.is_empty());
    assert_eq!(v.missing, ["a", "b", "c", "d"]);
    // A declared test that c satisfies still fails on the deadlock.
    let v = violation(
        &[&p],
        &ProgressOptions::default().with_tests(vec![test("C", &["c"])]),
    );
    assert!(v.deadlock);
    // A conditional test is not violated by a deadlock (no action of its condition) but by {Q}.
    let cond = ProgressTest::new("DC", ["d"]).with_condition(["c"]);
    let v = violation(&[&p], &ProgressOptions::default().with_tests(vec![cond]));
    assert!(!v.deadlock);
    assert_eq!(
        (v.trace, v.cycle),
        (vec!["b".to_owned(), "d".to_owned()], vec!["c".to_owned()])
    );
}

#[test]
fn an_end_state_is_a_terminal_set_but_not_a_deadlock() {
    let p = lts(&[(0, "a", 1)]);
    let options = ProgressOptions::default().with_end_states(vec![Some(StateId::must(1))]);
    let v = violation(&[&p], &options);
    assert!(!v.deadlock && v.actions.is_empty());
    assert_eq!(v.trace, ["a"]);
}

#[test]
fn priority_prunes_before_the_analysis() {
    // P = (a -> P | b -> P): both recur. With << {a}, b is never taken: b cannot progress.
    let p = lts(&[(0, "a", 0), (0, "b", 0)]);
    assert!(holds(&[&p], &ProgressOptions::default()));
    let high = ProgressOptions::default().with_priority(Some(Priority::high(["a"])));
    let v = violation(&[&p], &high);
    assert_eq!(
        (v.missing, v.actions),
        (vec!["b".to_owned()], vec!["a".to_owned()])
    );
    let low = ProgressOptions::default().with_priority(Some(Priority::low(["a"])));
    assert_eq!(violation(&[&p], &low).missing, ["a"]);
}

#[test]
fn internal_names_count_as_tau() {
    let p = lts(&[(0, "a", 1), (1, "h#1", 0)]);
    assert!(holds(&[&p], &ProgressOptions::default()));
    let q = lts(&[(0, "a", 1), (1, "h#1", 1)]);
    let options = ProgressOptions::default().with_internal(vec!["h#1".to_owned()]);
    let v = violation(&[&q], &options);
    assert_eq!(
        (v.missing, v.actions.len(), v.deadlock),
        (vec!["a".to_owned()], 0, false)
    );
}

#[test]
fn an_error_state_makes_the_check_unsafe_with_a_shortest_run() {
    let mut b = guarantor_lts::LtsBuilder::new();
    b.ensure_states(3).unwrap();
    let s = StateId::must;
    b.add_transition_named(s(0), "a", s(1)).unwrap();
    b.add_transition_named(s(1), "b", s(0)).unwrap();
    b.add_transition_named(s(0), "c", s(2)).unwrap();
    b.set_error(s(2)).unwrap();
    let p = b.build().unwrap();
    let report =
        check_progress(&[&p], &[], &ProgressOptions::default(), &Config::default()).unwrap();
    let ProgressVerdict::Unsafe(cex) = report.verdict else {
        panic!("{:?}", report.verdict)
    };
    assert_eq!(cex.trace, ["c"]);
    assert!(matches!(cex.violation, Violation::ErrorState { .. }));
}

#[test]
fn budgets_stop_the_walk() {
    let ring = Lts::from_edges((0..10_000).map(|i| (i, "a", (i + 1) % 10_000))).unwrap();
    let config = Config::default().with_max_states(1_000);
    let err = check_progress(&[&ring], &[], &ProgressOptions::default(), &config).unwrap_err();
    assert!(matches!(err, ComposeError::StateLimit { .. }), "{err}");
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let config = Config::default().with_cancel(cancel);
    let err = check_progress(&[&ring], &[], &ProgressOptions::default(), &config).unwrap_err();
    assert!(err.is_budget());
}

#[test]
fn a_long_chain_does_not_overflow_the_stack() {
    // 300,000 states in one line then a loop: a recursive Tarjan would overflow.
    let n = 300_000;
    let chain = Lts::from_edges((0..n).map(|i| (i, "a", i + 1)).chain([(n, "b", n)])).unwrap();
    let v = violation(&[&chain], &ProgressOptions::default());
    assert_eq!(
        (v.trace.len(), v.cycle.as_slice()),
        (n, &["b".to_owned()][..])
    );
    // A big ring is one terminal set with every action: holds.
    let ring = Lts::from_edges((0..n).map(|i| (i, "a", (i + 1) % n))).unwrap();
    assert!(holds(&[&ring], &ProgressOptions::default()));
}

// ---- the naive reference ----

/// The terminal sets of the explicit product, each with its actions (tau excluded) and whether
/// it is a stuck state, found by plain reachability.
struct Reference {
    sets: Vec<(BTreeSet<String>, bool)>,
    failure: bool,
}

fn reference(naive: &Naive<'_>, priority: Option<&Priority>) -> Reference {
    let moves = |t: &Tuple| -> Vec<(String, Tuple)> {
        let all = naive.moves(t);
        match priority {
            Some(p) if all.iter().any(|(a, _)| p.prefers(a)) => {
                all.into_iter().filter(|(a, _)| p.prefers(a)).collect()
            }
            _ => all,
        }
    };
    // Reachable states, then for each its reachable set.
    let mut seen = HashSet::from([naive.initial()]);
    let mut stack = vec![naive.initial()];
    let mut failure = false;
    while let Some(t) = stack.pop() {
        failure |= naive.failed(&t).is_some();
        for (_, u) in moves(&t) {
            if seen.insert(u.clone()) {
                stack.push(u);
            }
        }
    }
    let states: Vec<Tuple> = seen.into_iter().collect();
    let reach = |from: &Tuple| -> HashSet<Tuple> {
        let mut r = HashSet::from([from.clone()]);
        let mut stack = vec![from.clone()];
        while let Some(t) = stack.pop() {
            for (_, u) in moves(&t) {
                if r.insert(u.clone()) {
                    stack.push(u);
                }
            }
        }
        r
    };
    let reaches: HashMap<Tuple, HashSet<Tuple>> =
        states.iter().map(|t| (t.clone(), reach(t))).collect();
    let mut done: HashSet<Tuple> = HashSet::new();
    let mut sets = Vec::new();
    for t in &states {
        if done.contains(t) {
            continue;
        }
        let r = &reaches[t];
        // Terminal: everything t reaches reaches t back.
        if r.iter().all(|u| reaches[u].contains(t)) {
            let actions: BTreeSet<String> = r
                .iter()
                .flat_map(|u| moves(u).into_iter().map(|(a, _)| a))
                .filter(|a| a != "tau")
                .collect();
            let no_moves = r.len() == 1 && moves(t).is_empty();
            done.extend(r.iter().cloned());
            sets.push((actions, no_moves));
        }
    }
    Reference { sets, failure }
}

fn violated_by(
    tests: &[ProgressTest],
    alphabet: &BTreeSet<String>,
    actions: &BTreeSet<String>,
) -> Option<Vec<String>> {
    if tests.is_empty() {
        return alphabet.iter().any(|a| !actions.contains(a)).then(Vec::new);
    }
    let meets = |set: &[String]| set.iter().any(|a| actions.contains(a));
    let names: Vec<String> = tests
        .iter()
        .filter(|t| t.condition.as_deref().is_none_or(meets) && !meets(&t.actions))
        .map(|t| t.name.clone())
        .collect();
    (!names.is_empty()).then_some(names)
}

const POOL: &[&str] = &["a", "b", "c"];

fn arb_tests() -> impl Strategy<Value = Vec<ProgressTest>> {
    let names = prop::sample::subsequence(vec!["a", "b", "c", "z"], 0..=2);
    let one = (names.clone(), prop::option::of(names)).prop_map(|(acts, cond)| {
        let t = ProgressTest::new("T", acts);
        match cond {
            Some(c) => t.with_condition(c),
            None => t,
        }
    });
    prop::collection::vec(one, 0..=3).prop_map(|ts| {
        ts.into_iter()
            .enumerate()
            .map(|(i, mut t)| {
                t.name = format!("T{i}");
                t
            })
            .collect()
    })
}

fn arb_priority() -> impl Strategy<Value = Option<Priority>> {
    prop::option::of((
        any::<bool>(),
        prop::sample::subsequence(POOL.to_vec(), 1..=2),
    ))
    .prop_map(|p| {
        p.map(|(high, acts)| {
            if high {
                Priority::high(acts)
            } else {
                Priority::low(acts)
            }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The terminal-set analysis agrees with the naive reference: an error reachable exactly
    /// when the check says unsafe; otherwise a violation exactly when some terminal set of the
    /// reference violates a test, and then the reported set is one of the reference's, with the
    /// tests it violates, and its run and cycle replay.
    #[test]
    fn terminal_sets_agree_with_reachability(
        comps in arb_system_with(3, LtsStrategyConfig::new(4, POOL).with_tau(true).with_error_state(true)),
        props in prop::collection::vec(arb_deterministic_property(2, &["a", "b"]), 0..=1),
        tests in arb_tests(),
        priority in arb_priority(),
    ) {
        let refs: Vec<&Lts> = comps.iter().collect();
        let prefs: Vec<&Lts> = props.iter().collect();
        let options = ProgressOptions::default().with_tests(tests.clone()).with_priority(priority.clone());
        let report = check_progress(&refs, &prefs, &options, &Config::default()).unwrap();
        let naive = Naive::new(
            refs.iter().map(|&c| Member::Component(c)).chain(prefs.iter().map(|&p| Member::Property(p))).collect(),
        );
        let want = reference(&naive, priority.as_ref());
        if want.failure {
            let is_unsafe = matches!(report.verdict, ProgressVerdict::Unsafe(_));
            prop_assert!(is_unsafe, "{:?}", report.verdict);
            return Ok(());
        }
        prop_assert_eq!(report.terminal_sets, want.sets.len());
        let violating: Vec<(BTreeSet<String>, bool, Vec<String>)> = want
            .sets
            .iter()
            .filter_map(|(acts, stuck)| violated_by(&tests, &naive.names, acts).map(|t| (acts.clone(), *stuck, t)))
            .collect();
        match report.verdict {
            ProgressVerdict::Holds => prop_assert!(violating.is_empty(), "{:?}", violating),
            ProgressVerdict::Violated(v) => {
                let acts: BTreeSet<String> = v.actions.iter().cloned().collect();
                let found = violating.iter().any(|(a, stuck, t)| {
                    *a == acts && *t == v.tests && (!v.deadlock || *stuck)
                });
                prop_assert!(found, "{:?} not among {:?}", v, violating);
                let run = [v.trace.clone(), v.cycle.clone(), v.cycle.clone()].concat();
                let all: Vec<&Lts> = refs.iter().copied().chain(prefs.iter().copied()).collect();
                prop_assert!(replay(&all, &run).is_ok(), "{:?}", run);
            }
            ProgressVerdict::Unsafe(cex) => prop_assert!(false, "unsafe without an error: {:?}", cex),
            _ => prop_assert!(false, "unknown verdict"),
        }
    }
}

#[test]
fn wide_tuples_use_the_arena_store() {
    // 130 components of 3 states (2 bits each: 260 bits, past the packed keys), all sharing a
    // and b: the product is a 3-state system.
    let one = lts(&[(0, "a", 1), (1, "a", 0), (0, "b", 2), (2, "b", 0)]);
    let many: Vec<&Lts> = std::iter::repeat_n(&one, 130).collect();
    assert!(holds(&many, &ProgressOptions::default()));
    let stuck = lts(&[(0, "a", 1), (1, "a", 0), (0, "b", 2)]);
    let mut with_stuck = many.clone();
    with_stuck.push(&stuck);
    let v = violation(&with_stuck, &ProgressOptions::default());
    assert!(v.deadlock);
    assert_eq!(v.trace, ["b"]);
    let report = check_progress(
        &with_stuck,
        &[],
        &ProgressOptions::default(),
        &Config::default(),
    )
    .unwrap();
    assert_eq!(report.stats.states, 3);
}
