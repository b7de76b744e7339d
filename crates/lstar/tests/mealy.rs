//! Mealy learning tests: on random Mealy machines every learner with an exact oracle (and with a
//! Wp oracle whose bound covers the target) learns a minimal machine equivalent to the target,
//! checked both by `Mealy::shortest_difference` and by a naive product search written here; the
//! cache never sends a word it knows; no hypothesis that the system's stored answers (the
//! oracle's earlier tests included) refute is given to the oracle; a non-deterministic system is reported, never learned; DOT
//! round-trips, and malformed DOT is a located error; the bundled AALpy models are learned.

// Single letters for states, inputs and outputs, as in the papers.
#![allow(clippy::many_single_char_names)]

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use guarantor_lstar::mealy::{
    Algorithm, Cache, Config, EquivalenceOracle, Exact, Mealy, MealyError, Phase, RandomWalk,
    RandomWords, Simulated, SimulatedOutput, StateId, StatePrefix, Sul, WMethod, WpMethod, learn,
    learn_with,
};
use guarantor_lstar::{Symbol, Word};
use proptest::prelude::*;

/// A random complete Mealy machine: `n` states, `k` inputs `i0..`, outputs `o0..o{m-1}`.
fn arb_mealy() -> impl Strategy<Value = Mealy> {
    (1usize..8, 1usize..4, 1usize..4).prop_flat_map(|(n, k, m)| {
        proptest::collection::vec((0..n, 0..m), n * k).prop_map(move |table| {
            let mut mealy = Mealy::new((0..k).map(|i| format!("i{i}")));
            for _ in 1..n {
                mealy.add_state();
            }
            for (i, &(to, out)) in table.iter().enumerate() {
                mealy.set_transition(
                    StateId::new(i / k),
                    Symbol::new(i % k),
                    StateId::new(to),
                    &format!("o{out}"),
                );
            }
            mealy
        })
    })
}

/// Naive equivalence, independent of the library's: a depth-first search over every pair of
/// states reachable by the same word, comparing output names and input names.
fn naive_equivalent(a: &Mealy, b: &Mealy) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![(a.initial(), b.initial())];
    while let Some((p, q)) = stack.pop() {
        if !seen.insert((p, q)) {
            continue;
        }
        for x in a.inputs() {
            let y = b.input(a.input_name(x)).expect("same inputs");
            match (a.transition(p, x), b.transition(q, y)) {
                (Some((r, o)), Some((s, v))) => {
                    if a.output_name(o) != b.output_name(v) {
                        return false;
                    }
                    stack.push((r, s));
                }
                (None, None) => {}
                _ => return false,
            }
        }
    }
    true
}

/// The number of states of the minimal machine, counted naively: classes of reachable states
/// under "same outputs on every word of length < n".
fn naive_minimal_size(m: &Mealy) -> usize {
    let reach = m.reachable();
    let n = m.num_states();
    let mut words: Vec<Word> = vec![Vec::new()];
    let mut level: Vec<Word> = vec![Vec::new()];
    for _ in 0..n {
        let next: Vec<Word> = level
            .iter()
            .flat_map(|w| m.inputs().map(move |a| [w.clone(), vec![a]].concat()))
            .collect();
        words.extend(next.iter().cloned());
        level = next;
    }
    let sig = |q: StateId| -> Vec<Vec<String>> {
        words
            .iter()
            .map(|w| {
                let mut s = q;
                w.iter()
                    .map(|&a| {
                        let (r, o) = m.transition(s, a).expect("complete");
                        s = r;
                        m.output_name(o).to_owned()
                    })
                    .collect()
            })
            .collect()
    };
    reach.iter().map(|&q| sig(q)).collect::<HashSet<_>>().len()
}

fn algorithms() -> impl Strategy<Value = Algorithm> {
    prop_oneof![
        Just(Algorithm::LSharp),
        Just(Algorithm::LStar),
        Just(Algorithm::Kv)
    ]
}

/// A system that records every word sent to it: each reset starts one, each step extends it
/// (whole words and L#'s adaptive queries alike).
struct Recording<'a> {
    inner: Simulated<'a>,
    sent: Rc<RefCell<Vec<Word>>>,
}

impl<'a> Sul for Recording<'a> {
    type Output = SimulatedOutput<'a>;
    type Error = guarantor_lstar::mealy::Undefined;
    fn reset(&mut self) -> Result<(), Self::Error> {
        self.sent.borrow_mut().push(Vec::new());
        self.inner.reset()
    }
    fn step(&mut self, input: Symbol) -> Result<SimulatedOutput<'a>, Self::Error> {
        self.sent
            .borrow_mut()
            .last_mut()
            .expect("reset first")
            .push(input);
        self.inner.step(input)
    }
}

/// Wraps a Wp oracle and checks, at each equivalence query, that the hypothesis agrees with
/// the target on every word the system was sent so far (compared by output names, the target
/// walked here): a hypothesis that stored answers refute must have been refuted for free.
struct Watching<'a> {
    inner: WpMethod,
    target: &'a Mealy,
    sent: Rc<RefCell<Vec<Word>>>,
    /// The first word a hypothesis given to the oracle contradicted, if any.
    refuted: Option<Word>,
    calls: u64,
}

impl EquivalenceOracle for Watching<'_> {
    fn find_counterexample(
        &mut self,
        hyp: &Mealy,
        cache: &mut Cache<'_>,
    ) -> Result<Option<Word>, MealyError> {
        self.calls += 1;
        for w in self.sent.borrow().iter() {
            let mut q = self.target.initial();
            let mut expected = Vec::new();
            for &a in w {
                let (r, o) = self.target.transition(q, a).expect("complete");
                expected.push(self.target.output_name(o).to_owned());
                q = r;
            }
            let answered = hyp
                .outputs(w)
                .map(|os| os.iter().map(|&o| hyp.output_name(o).to_owned()).collect());
            if answered != Some(expected) && self.refuted.is_none() {
                self.refuted = Some(w.clone());
            }
        }
        self.inner.find_counterexample(hyp, cache)
    }
}

/// From its `flip`-th reset on, the system answers input 0 from the initial state with a
/// fresh output: a system that changed under the learner's feet.
struct Flaky<'a> {
    inner: Simulated<'a>,
    resets: u64,
    flip: u64,
    first: bool,
    /// Set once the system has answered "changed".
    changed: Rc<std::cell::Cell<bool>>,
}
impl Sul for Flaky<'_> {
    type Output = String;
    type Error = guarantor_lstar::mealy::Undefined;
    fn reset(&mut self) -> Result<(), Self::Error> {
        self.resets += 1;
        self.first = true;
        self.inner.reset()
    }
    fn step(&mut self, a: Symbol) -> Result<String, Self::Error> {
        let out = self.inner.step(a)?.name().to_owned();
        let first = std::mem::replace(&mut self.first, false);
        Ok(if first && a.index() == 0 && self.resets > self.flip {
            self.changed.set(true);
            "changed".into()
        } else {
            out
        })
    }
}

/// Gives the flaky system its names.
struct NamedFlaky<S>(S, Vec<String>);
impl<S: Sul> Sul for NamedFlaky<S> {
    type Output = S::Output;
    type Error = S::Error;
    fn reset(&mut self) -> Result<(), Self::Error> {
        self.0.reset()
    }
    fn step(&mut self, a: Symbol) -> Result<S::Output, Self::Error> {
        self.0.step(a)
    }
}
impl<S: Sul> guarantor_lstar::mealy::Named for NamedFlaky<S> {
    fn input_names(&self) -> Vec<String> {
        self.1.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_learner_learns_random_machines_exactly(target in arb_mealy(), algo in algorithms()) {
        let learned = learn(Simulated::new(&target), &mut Exact::new(target.clone()),
            Config::with_algorithm(algo)).unwrap();
        prop_assert!(learned.machine.equivalent(&target).unwrap());
        prop_assert!(naive_equivalent(&learned.machine, &target));
        prop_assert!(learned.machine.is_complete());
        prop_assert_eq!(learned.machine.num_states(), naive_minimal_size(&target));
        prop_assert_eq!(target.minimized().num_states(), naive_minimal_size(&target));
    }

    #[test]
    fn lsharp_with_verification_learns_random_machines_exactly(target in arb_mealy()) {
        let mut config = Config::default();
        config.verify = true;
        let learned = learn(Simulated::new(&target), &mut Exact::new(target.clone()), config)
            .unwrap();
        prop_assert!(naive_equivalent(&learned.machine, &target));
        prop_assert_eq!(learned.machine.num_states(), naive_minimal_size(&target));
    }

    /// The tour rule (`Config::tour`): L# still learns every random machine exactly, with both
    /// the exact oracle and a Wp suite of enough extra states, and the tours, like every other
    /// query, never send a word the cache knows (no word sent is a prefix of an earlier one).
    #[test]
    fn lsharp_with_tours_learns_exactly_and_never_resends(target in arb_mealy(), wp in any::<bool>()) {
        let mut config = Config::default();
        config.tour = true;
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sul = Recording { inner: Simulated::new(&target), sent: Rc::clone(&sent) };
        let mut cache = Cache::new(sul, target.input_names());
        let mut oracle: Box<dyn EquivalenceOracle> = if wp {
            Box::new(WpMethod::new(target.num_states()))
        } else {
            Box::new(Exact::new(target.clone()))
        };
        let learned = learn_with(&mut cache, &mut *oracle, &config).unwrap();
        prop_assert!(naive_equivalent(&learned.machine, &target));
        prop_assert_eq!(learned.machine.num_states(), naive_minimal_size(&target));
        let sent = sent.borrow();
        for (i, w) in sent.iter().enumerate() {
            for earlier in &sent[..i] {
                prop_assert!(!earlier.starts_with(w), "{:?} sent after {:?}", w, earlier);
            }
        }
        let total = cache.counts(Phase::Learning).queries + cache.counts(Phase::Testing).queries;
        prop_assert_eq!(total as usize, sent.len());
    }

    #[test]
    fn conformance_oracles_with_a_large_enough_bound_are_exact(
        target in arb_mealy(), algo in algorithms(), w in any::<bool>()
    ) {
        let extra = target.num_states();
        let mut oracle: Box<dyn EquivalenceOracle> =
            if w { Box::new(WMethod::new(extra)) } else { Box::new(WpMethod::new(extra)) };
        let learned = learn(Simulated::new(&target), &mut *oracle, Config::with_algorithm(algo))
            .unwrap();
        prop_assert!(naive_equivalent(&learned.machine, &target));
    }

    #[test]
    fn random_oracles_learn_something_consistent(target in arb_mealy(), seed in any::<u64>()) {
        // Random testing may stop early, but the result is a hypothesis of the system's answers:
        // it agrees with the target on every word the cache asked.
        for mut oracle in [
            Box::new(RandomWords::new(50, 1, 10, seed)) as Box<dyn EquivalenceOracle>,
            Box::new(RandomWalk::new(300, seed)),
            Box::new(StatePrefix::new(5, 8, seed)),
        ] {
            let mut cache = Cache::new(Simulated::new(&target), target.input_names());
            let learned = learn_with(&mut cache, &mut *oracle, &Config::default()).unwrap();
            prop_assert!(learned.machine.num_states() <= naive_minimal_size(&target));
        }
    }

    #[test]
    fn the_cache_never_sends_a_word_it_knows(target in arb_mealy(), algo in algorithms()) {
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sul = Recording { inner: Simulated::new(&target), sent: Rc::clone(&sent) };
        let mut cache = Cache::new(sul, target.input_names());
        let extra = 1;
        learn_with(&mut cache, &mut WpMethod::new(extra), &Config::with_algorithm(algo)).unwrap();
        let sent = sent.borrow();
        for (i, w) in sent.iter().enumerate() {
            for earlier in &sent[..i] {
                prop_assert!(!earlier.starts_with(w), "{:?} sent after {:?}", w, earlier);
            }
        }
        let counts = cache.counts(Phase::default());
        let total = counts.queries + cache.counts(Phase::Testing).queries;
        prop_assert_eq!(total as usize, sent.len());
    }

    #[test]
    fn a_hypothesis_refuted_by_stored_answers_never_reaches_the_oracle(
        target in arb_mealy(), algo in algorithms(), whole in any::<bool>()
    ) {
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sul = Recording { inner: Simulated::new(&target), sent: Rc::clone(&sent) };
        let mut cache = Cache::new(sul, target.input_names());
        let mut oracle = Watching {
            inner: WpMethod::new(1).with_whole_suite(whole),
            target: &target,
            sent: Rc::clone(&sent),
            refuted: None,
            calls: 0,
        };
        let learned = learn_with(&mut cache, &mut oracle, &Config::with_algorithm(algo)).unwrap();
        prop_assert_eq!(oracle.refuted, None);
        prop_assert_eq!(oracle.calls, learned.stats.equivalence_queries);
    }

    #[test]
    fn dot_round_trips(target in arb_mealy()) {
        let back = Mealy::from_dot(&target.to_dot()).unwrap();
        prop_assert!(naive_equivalent(&back, &target));
        prop_assert_eq!(back.num_states(), target.num_states());
    }

    #[test]
    fn minimisation_keeps_behaviour(target in arb_mealy()) {
        let min = target.minimized();
        prop_assert!(naive_equivalent(&min, &target));
        prop_assert_eq!(min.num_states(), naive_minimal_size(&target));
    }

    #[test]
    fn a_shortest_difference_is_a_difference(a in arb_mealy(), b in arb_mealy()) {
        if a.input_names() != b.input_names() {
            prop_assert!(a.shortest_difference(&b).is_err());
            return Ok(());
        }
        match a.shortest_difference(&b).unwrap() {
            None => prop_assert!(naive_equivalent(&a, &b)),
            Some(w) => {
                let name = |m: &Mealy, w: &[Symbol]| -> Vec<String> {
                    m.outputs(w).unwrap().iter().map(|&o| m.output_name(o).to_owned()).collect()
                };
                prop_assert!(!naive_equivalent(&a, &b));
                prop_assert_ne!(name(&a, &w), name(&b, &w));
                // Shortest: every proper prefix agrees.
                let w1 = &w[..w.len() - 1];
                prop_assert_eq!(name(&a, w1), name(&b, w1));
            }
        }
    }

    #[test]
    fn a_non_deterministic_system_is_reported_never_learned(
        target in arb_mealy(), flip in 1u64..6, algo in algorithms(), wp in any::<bool>()
    ) {
        let changed = Rc::new(std::cell::Cell::new(false));
        let sul = Flaky {
            inner: Simulated::new(&target),
            resets: 0,
            flip,
            first: true,
            changed: Rc::clone(&changed),
        };
        // The Wp suite sends its tests from where its walk of the trie stops (its own
        // check of the known prefix), the exact oracle through the cache's usual query. A bound
        // of the target's size makes the suite exact.
        let mut exact = Exact::new(target.clone());
        let mut suite = WpMethod::new(target.num_states());
        let oracle: &mut dyn EquivalenceOracle = if wp { &mut suite } else { &mut exact };
        let result = learn(
            NamedFlaky(sul, target.input_names().to_vec()),
            oracle,
            Config::with_algorithm(algo),
        );
        match result {
            Err(MealyError::NonDeterministic { word, first, second }) => {
                prop_assert_eq!(word, vec!["i0".to_owned()]);
                prop_assert_ne!(first, second);
            }
            // The flip came after the last query: what was learned is the target (a changed
            // answer that reached the cache contradicted what it knew, and was reported).
            Ok(l) => {
                prop_assert!(!changed.get());
                prop_assert!(naive_equivalent(&l.machine, &target));
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }

    }
}

#[test]
fn a_system_answering_at_random_is_reported() {
    let mut count = 0u64;
    let sys = guarantor_lstar::mealy::system(
        ["a", "b"],
        || (),
        move |(), _: &str| {
            count += 1;
            ((), count % 3)
        },
    );
    let err = learn(sys, &mut WpMethod::new(1), Config::default()).unwrap_err();
    assert!(matches!(err, MealyError::NonDeterministic { .. }), "{err}");
}

fn data(name: &str) -> Mealy {
    let path = format!("{}/tests/data/mealy/{name}", env!("CARGO_MANIFEST_DIR"));
    Mealy::from_dot(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn bundled_aalpy_models_are_learned_by_every_learner_with_wp2() {
    for (name, states) in [
        ("coffee_mealy.dot", 2),
        ("Angluin_Mealy.dot", 4),
        ("OpenSSL_1.0.2_server_regular.dot", 7),
        ("CC2650.dot", 5),
    ] {
        let target = data(name);
        assert_eq!(target.num_states(), states, "{name}");
        assert!(target.is_complete());
        for algo in [Algorithm::LSharp, Algorithm::LStar] {
            let learned = learn(
                Simulated::new(&target),
                &mut WpMethod::new(2),
                Config::with_algorithm(algo),
            )
            .unwrap();
            assert!(
                naive_equivalent(&learned.machine, &target),
                "{name} {algo:?}"
            );
            assert_eq!(learned.machine.num_states(), states);
            assert!(learned.stats.learning.queries > 0);
        }
    }
}

#[test]
fn coffee_outputs_keep_aalpy_spacing_trimmed() {
    let m = data("coffee_mealy.dot");
    let coin = m.input("coin").unwrap();
    let out = m.outputs(&[coin]).unwrap();
    assert_eq!(m.output_name(out[0]), "beep");
}

#[test]
fn malformed_dot_is_a_located_error() {
    let cases = [
        ("digraph g {\n  s0 -> s1 [label=\"a\"\n", (3, 1)),
        (
            "digraph g {\n  s0 -> s1 [label=\"a/b\"];\n  s0 -> s2 [label=\"a/c\"];\n}",
            (3, 3),
        ),
        ("graph g {}", (1, 1)),
        (
            "digraph g {\n s0 -> s1 [label=\"a/b\"];\n  s1 -> s0 [label=\"b\"];\n}",
            (3, 3),
        ),
        ("digraph g {\n s0 @ s1\n}", (2, 5)),
        ("digraph g {\n s0 -> s1 [label=\"a/b\"];\n} extra", (3, 3)),
    ];
    for (text, (line, column)) in cases {
        let e = Mealy::from_dot(text).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
    }
}

#[test]
fn completion_adds_one_sink() {
    let m = Mealy::from_dot("digraph g { s0 -> s1 [label=\"a/x\"]; __start0 -> s0; }").unwrap();
    assert!(!m.is_complete());
    let c = m.completed("err");
    assert!(c.is_complete());
    assert_eq!(c.num_states(), 3);
    let a = c.input("a").unwrap();
    let out = c.outputs(&[a, a, a]).unwrap();
    assert_eq!(c.output_name(out[1]), "err");
    // s1 (no transitions) and the sink both answer `err` to everything: one state.
    assert_eq!(c.minimized().num_states(), 2);
}

#[test]
fn budgets_end_in_typed_errors() {
    let target = data("OpenSSL_1.0.2_server_regular.dot");
    let mut config = Config::default();
    config.max_queries = Some(3);
    let e = learn(Simulated::new(&target), &mut WpMethod::new(2), config).unwrap_err();
    assert!(matches!(e, MealyError::QueryLimit { limit: 3 }));
    let mut config = Config::default();
    config.max_rounds = Some(1);
    let e = learn(Simulated::new(&target), &mut WpMethod::new(2), config).unwrap_err();
    assert!(matches!(e, MealyError::RoundLimit { .. }));
}
