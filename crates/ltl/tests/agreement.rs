//! Property tests: the safety compilation agrees with the Büchi route on random safety formulas
//! over random systems; every lasso replays in the system and violates the formula (checked by a
//! direct evaluation on the ultimately periodic word); on a single lasso-shaped run the Büchi route
//! answers exactly what that evaluation says.

use guarantor_compose::{Config, check_safety, replay::replay};
use guarantor_ltl::{
    Fluent, Formula, Lasso, Ltl, LtlVerdict, Prop, PropId, check_ltl, compile_safety, is_safety,
};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::prelude::*;

const ACTIONS: [&str; 3] = ["a", "b", "c"];

/// The proposition table of every test: a, b, c as action propositions, F = <a, b>,
/// G = <c, a> initially true.
fn props() -> Vec<Prop> {
    vec![
        Prop::Actions(vec!["a".into()]),
        Prop::Actions(vec!["b".into()]),
        Prop::Actions(vec!["c".into()]),
        Prop::Fluent(Fluent::new("F", ["a"], ["b"])),
        Prop::Fluent(Fluent::new("G", ["c"], ["a"]).with_initially(true)),
    ]
}

fn arb_formula() -> impl Strategy<Value = Formula> {
    let leaf = prop_oneof![
        (0..5usize).prop_map(|i| Formula::Prop(PropId::new(i))),
        Just(Formula::True),
        Just(Formula::False),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        let b = |f: Formula| Box::new(f);
        prop_oneof![
            inner.clone().prop_map(move |f| Formula::Not(b(f))),
            inner.clone().prop_map(move |f| Formula::Next(b(f))),
            inner.clone().prop_map(move |f| Formula::Always(b(f))),
            inner.clone().prop_map(move |f| Formula::Eventually(b(f))),
            (inner.clone(), inner.clone()).prop_map(move |(f, g)| Formula::And(b(f), b(g))),
            (inner.clone(), inner.clone()).prop_map(move |(f, g)| Formula::Or(b(f), b(g))),
            (inner.clone(), inner.clone()).prop_map(move |(f, g)| Formula::Implies(b(f), b(g))),
            (inner.clone(), inner.clone()).prop_map(move |(f, g)| Formula::Until(b(f), b(g))),
            (inner.clone(), inner).prop_map(move |(f, g)| Formula::WeakUntil(b(f), b(g))),
        ]
    })
}

/// A system over a, b, c in which every state has a move (so every run is infinite and observes
/// infinitely many actions).
fn arb_system() -> impl Strategy<Value = Lts> {
    (1..5usize)
        .prop_flat_map(|n| {
            proptest::collection::vec(proptest::collection::vec((0..3usize, 0..n), 1..4), n)
        })
        .prop_map(|rows| {
            let mut b = LtsBuilder::new();
            b.ensure_states(rows.len()).unwrap();
            for (s, row) in rows.iter().enumerate() {
                for &(a, t) in row {
                    b.add_transition_named(StateId::must(s), ACTIONS[a], StateId::must(t))
                        .unwrap();
                }
            }
            b.build().unwrap()
        })
}

fn ltl(f: Formula) -> Ltl {
    Ltl::new(f, props()).unwrap().with_extension(ACTIONS)
}

/// The truth of `f` at position 0 of the word `letters[..]` whose last part, from `loop_at`,
/// repeats forever.
fn eval(f: &Formula, letters: &[Vec<bool>], loop_at: usize) -> bool {
    sat(f, letters, loop_at)[0]
}

#[allow(clippy::many_single_char_names)] // the evaluator reads as the definitions
fn sat(f: &Formula, w: &[Vec<bool>], l: usize) -> Vec<bool> {
    let n = w.len();
    let succ = |i: usize| if i + 1 == n { l } else { i + 1 };
    let fix = |a: &[bool], b: &[bool], least: bool| {
        // least: a U b; greatest: a W b (b || (a && X it)).
        let mut v = vec![!least; n];
        loop {
            let next: Vec<bool> = (0..n).map(|i| b[i] || (a[i] && v[succ(i)])).collect();
            if next == v {
                return v;
            }
            v = next;
        }
    };
    match f {
        Formula::True => vec![true; n],
        Formula::False => vec![false; n],
        Formula::Prop(p) => w.iter().map(|v| v[p.index()]).collect(),
        Formula::Not(a) => sat(a, w, l).into_iter().map(|x| !x).collect(),
        Formula::And(a, b) => zip(sat(a, w, l), sat(b, w, l), |x, y| x && y),
        Formula::Or(a, b) => zip(sat(a, w, l), sat(b, w, l), |x, y| x || y),
        Formula::Implies(a, b) => zip(sat(a, w, l), sat(b, w, l), |x, y| !x || y),
        Formula::Iff(a, b) => zip(sat(a, w, l), sat(b, w, l), |x, y| x == y),
        Formula::Next(a) => {
            let s = sat(a, w, l);
            (0..n).map(|i| s[succ(i)]).collect()
        }
        Formula::Until(a, b) => fix(&sat(a, w, l), &sat(b, w, l), true),
        Formula::WeakUntil(a, b) => fix(&sat(a, w, l), &sat(b, w, l), false),
        Formula::Eventually(a) => fix(&vec![true; n], &sat(a, w, l), true),
        Formula::Always(a) => fix(&sat(a, w, l), &vec![false; n], false),
    }
}

fn zip(x: Vec<bool>, y: Vec<bool>, f: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    x.into_iter().zip(y).map(|(a, b)| f(a, b)).collect()
}

/// The letters of a lasso (every action observed) and where its loop starts.
fn letters(l: &Ltl, lasso: &Lasso) -> (Vec<Vec<bool>>, usize) {
    let mut v: Vec<bool> = l
        .props()
        .iter()
        .map(|p| matches!(p, Prop::Fluent(f) if f.initially))
        .collect();
    let mut out = Vec::new();
    // The fluents' values at the cycle's start settle after one pass: unroll it once.
    for a in lasso.prefix.iter().chain(&lasso.cycle).chain(&lasso.cycle) {
        v = l
            .props()
            .iter()
            .zip(&v)
            .map(|(p, &old)| match p {
                Prop::Fluent(f) if f.initiating.contains(a) => true,
                Prop::Fluent(f) if f.terminating.contains(a) => false,
                Prop::Fluent(_) => old,
                Prop::Actions(acts) => acts.contains(a),
                _ => unreachable!(),
            })
            .collect();
        out.push(v.clone());
    }
    if lasso.cycle.is_empty() {
        out.push(v);
        // (prefix only: the last letter repeats)
        let n = out.len();
        return (out, n - 1);
    }
    (out, lasso.prefix.len() + lasso.cycle.len())
}

/// A system with exactly one run: `prefix` then `cycle` forever.
fn lasso_system(prefix: &[usize], cycle: &[usize]) -> Lts {
    let mut b = LtsBuilder::new();
    let n = prefix.len() + cycle.len();
    b.ensure_states(n).unwrap();
    for (i, &a) in prefix.iter().chain(cycle).enumerate() {
        let t = if i + 1 == n { prefix.len() } else { i + 1 };
        b.add_transition_named(StateId::must(i), ACTIONS[a], StateId::must(t))
            .unwrap();
    }
    b.build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    #[test]
    fn safety_compilation_agrees_with_the_buchi_route(f in arb_formula(), sys in arb_system()) {
        let l = ltl(f);
        prop_assume!(is_safety(&l));
        let config = Config::default();
        let prop = compile_safety(&l.within(|a| sys.alphabet().contains(a)), &config).unwrap();
        prop_assert!(prop.is_deterministic());
        let safe = check_safety(&[&sys], &[&prop], &config).unwrap().verdict.is_holds();
        let buchi = check_ltl(&[&sys], None, &l, &config).unwrap().verdict;
        prop_assert_eq!(safe, buchi.is_holds(), "{} -> {:?}", l, buchi);
    }

    #[test]
    fn every_lasso_replays_and_violates(f in arb_formula(), sys in arb_system()) {
        let l = ltl(f);
        let r = check_ltl(&[&sys], None, &l, &Config::default()).unwrap();
        if let LtlVerdict::Violated(lasso) = &r.verdict {
            prop_assert!(!lasso.cycle.is_empty());
            let twice: Vec<&String> = lasso.prefix.iter().chain(&lasso.cycle).chain(&lasso.cycle).collect();
            prop_assert!(replay(&[&sys], &twice).is_ok());
            let (w, at) = letters(&l, lasso);
            prop_assert!(!eval(l.formula(), &w, at), "{} holds on {:?}", l, lasso);
        }
    }

    #[test]
    fn one_run_systems_are_decided_exactly(
        f in arb_formula(),
        prefix in proptest::collection::vec(0..3usize, 0..4),
        cycle in proptest::collection::vec(0..3usize, 1..4),
    ) {
        let l = ltl(f);
        let sys = lasso_system(&prefix, &cycle);
        let lasso = Lasso::new(
            prefix.iter().map(|&a| ACTIONS[a].to_string()).collect(),
            cycle.iter().map(|&a| ACTIONS[a].to_string()).collect(),
        );
        let (w, at) = letters(&l, &lasso);
        let holds = eval(l.formula(), &w, at);
        let r = check_ltl(&[&sys], None, &l, &Config::default()).unwrap();
        prop_assert_eq!(r.verdict.is_holds(), holds, "{} on {:?}", l, lasso);
    }
}

#[test]
fn priority_is_followed() {
    // LTSA's defect: `P = (a->P | b->P). ||S = P << {a}. assert B = []<>b` passes in LTSA.
    let p = Lts::from_edges([(0, "a", 0), (0, "b", 0)]).unwrap();
    let l = guarantor_ltl::parse("[]<>b", &[]).unwrap();
    let prio = guarantor_compose::Priority::high(["a"]);
    let r = check_ltl(&[&p], Some(&prio), &l, &Config::default()).unwrap();
    match r.verdict {
        LtlVerdict::Violated(lasso) => assert_eq!(lasso.cycle, ["a"]),
        other => panic!("expected a violation, got {other:?}"),
    }
    let r = check_ltl(&[&p], None, &l, &Config::default()).unwrap();
    assert!(r.verdict.is_holds());
}

#[test]
fn a_deadlock_ends_the_word() {
    // a then STOP: <>b is violated by the finite run, []!b holds.
    let p = Lts::from_edges([(0, "a", 1)]).unwrap();
    let ev = guarantor_ltl::parse("<>b", &[]).unwrap();
    let r = check_ltl(&[&p], None, &ev, &Config::default()).unwrap();
    assert_eq!(
        r.verdict,
        LtlVerdict::Violated(Lasso::new(vec!["a".into()], vec![]))
    );
    let never = guarantor_ltl::parse("[]!b", &[]).unwrap();
    assert!(
        check_ltl(&[&p], None, &never, &Config::default())
            .unwrap()
            .verdict
            .is_holds()
    );
}
