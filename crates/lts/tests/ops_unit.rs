//! Unit tests for the operations on small hand-written LTSs, mostly the Input / Output / Order
//! processes of Cobleigh, Giannakopoulou and Pasareanu (2003). Not gated on a feature.

use guarantor_lts::ops::{
    TauClosure, accepts_trace_named, bfs_order, complement, complete, determinize, hide,
    language_included, minimize_dfa, minimize_strong, project, reachable_states,
    strong_bisimulation_classes, tau_closure, trim,
};
use guarantor_lts::{Lts, LtsBuilder, LtsError, StateId};

/// A cycle through the named actions: state i -names[i]-> state i+1 (mod n).
fn cycle(names: &[&str]) -> Lts {
    let mut builder = LtsBuilder::new();
    builder.ensure_states(names.len()).unwrap();
    for (i, name) in names.iter().enumerate() {
        let target = StateId::must((i + 1) % names.len());
        builder
            .add_transition_named(StateId::must(i), name, target)
            .unwrap();
    }
    builder.build().unwrap()
}

fn input() -> Lts {
    cycle(&["input", "send", "ack"])
}

fn output() -> Lts {
    cycle(&["send", "output", "ack"])
}

fn order() -> Lts {
    cycle(&["input", "output"])
}

fn st(i: usize) -> StateId {
    StateId::must(i)
}

#[test]
fn deterministic_processes_are_already_minimal() {
    for p in [input(), output(), order()] {
        assert_eq!(determinize(&p).unwrap(), p);
        assert_eq!(minimize_dfa(&p).unwrap(), p);
        assert_eq!(minimize_strong(&p), p);
        assert_eq!(trim(&p), p);
    }
}

#[test]
fn hiding_the_handshake_of_input_leaves_an_input_loop() {
    let h = hide(&input(), ["send", "ack"]);
    assert_eq!(h.num_transitions(), 3);
    assert_eq!(tau_closure(&h, st(1)), [st(0), st(1), st(2)]);
    let dfa = determinize(&h).unwrap();
    assert_eq!(dfa.num_states(), 2); // {0} and {0, 1, 2}
    let min = minimize_dfa(&dfa).unwrap();
    assert_eq!((min.num_states(), min.num_transitions()), (1, 1));
    assert!(accepts_trace_named(&min, &["input", "input", "input"]));
    // Strong bisimulation keeps the tau steps: nothing to merge.
    assert_eq!(minimize_strong(&h).num_states(), 3);
}

#[test]
fn projected_input_violates_order_with_a_shortest_trace() {
    let p = project(&input(), ["input"]);
    let cex = language_included(&p, &order()).unwrap();
    assert_eq!(cex, Some(vec!["input".to_owned(), "input".to_owned()]));
    // Order never does `input` twice in a row, so it is included in itself and in a loop on both.
    let both = cycle(&["input"]).to_builder();
    let mut both = both;
    both.add_transition_named(st(0), "output", st(0)).unwrap();
    assert_eq!(
        language_included(&order(), &both.build().unwrap()).unwrap(),
        None
    );
}

#[test]
fn complement_of_order() {
    let c = complement(&order()).unwrap();
    assert!(accepts_trace_named(&c, &["output"]));
    assert!(accepts_trace_named(&c, &["input", "input"]));
    assert!(!accepts_trace_named(&c, &["input", "output"]));
    assert!(!accepts_trace_named(&c, &[]));
    assert_eq!(c.num_states(), 3); // the two states of Order and the accepting sink
}

#[test]
fn complete_adds_no_sink_when_nothing_is_missing() {
    let mut b = LtsBuilder::new();
    let s0 = b.add_state().unwrap();
    b.add_transition_named(s0, "a", s0).unwrap();
    let c = complete(&b.build().unwrap()).unwrap();
    assert_eq!((c.num_states(), c.num_transitions()), (1, 1));
    assert!(c.is_accepting(s0));
}

#[test]
fn determinize_collapses_possible_errors() {
    // s0 -a-> s1, s0 -a-> ERROR, s1 -b-> s1
    let mut b = LtsBuilder::new();
    let [s0, s1, err] = [
        b.add_state().unwrap(),
        b.add_state().unwrap(),
        b.add_state().unwrap(),
    ];
    b.add_transition_named(s0, "a", s1).unwrap();
    b.add_transition_named(s0, "a", err).unwrap();
    b.add_transition_named(s1, "b", s1).unwrap();
    b.set_error(err).unwrap();
    let dfa = determinize(&b.build().unwrap()).unwrap();
    assert_eq!(dfa.num_states(), 2);
    let after_a = dfa.outgoing(st(0))[0].target;
    assert!(dfa.is_error(after_a));
    assert!(dfa.outgoing(after_a).is_empty());
}

#[test]
fn minimize_dfa_drops_dead_states_and_handles_empty_languages() {
    // FSM: s0 -a-> s1 (accepting), s0 -b-> s2 (dead, rejecting, loops on b)
    let mut b = LtsBuilder::new();
    let [s0, s1, s2] = [
        b.add_state().unwrap(),
        b.add_state().unwrap(),
        b.add_state().unwrap(),
    ];
    b.add_transition_named(s0, "a", s1).unwrap();
    b.add_transition_named(s0, "b", s2).unwrap();
    b.add_transition_named(s2, "b", s2).unwrap();
    b.set_accepting(s1, true).unwrap();
    let fsm = b.build().unwrap();
    let min = minimize_dfa(&fsm).unwrap();
    assert_eq!((min.num_states(), min.num_transitions()), (2, 1));
    assert!(min.is_accepting(st(1)) && !min.is_accepting(st(0)));

    let mut b = fsm.to_builder();
    b.set_accepting(s1, false).unwrap();
    let empty = minimize_dfa(&b.build().unwrap()).unwrap();
    assert_eq!((empty.num_states(), empty.num_transitions()), (1, 0));
    assert!(!empty.is_accepting(st(0)));
}

#[test]
fn minimize_dfa_reports_nondeterminism() {
    let h = hide(&input(), ["send"]);
    let err = minimize_dfa(&h).unwrap_err();
    assert_eq!(
        err,
        LtsError::NotDeterministic {
            state: 1,
            action: "tau".into(),
            count: 1
        }
    );
}

#[test]
fn bisimulation_merges_equal_branches_only() {
    // s0 -a-> s1 -b-> s3, s0 -a-> s2 -b-> s3, s0 -c-> s4 (deadlock), s3 deadlocks.
    let mut b = LtsBuilder::new();
    b.ensure_states(5).unwrap();
    for (s, a, t) in [
        (0, "a", 1),
        (0, "a", 2),
        (1, "b", 3),
        (2, "b", 3),
        (0, "c", 4),
    ] {
        b.add_transition_named(st(s), a, st(t)).unwrap();
    }
    let lts = b.build().unwrap();
    assert_eq!(strong_bisimulation_classes(&lts), [0, 1, 1, 2, 2]);
    let min = minimize_strong(&lts);
    assert_eq!((min.num_states(), min.num_transitions()), (3, 3));
}

#[test]
fn reachability_and_trimming() {
    let mut b = input().to_builder();
    let extra = b.add_state().unwrap();
    b.add_transition_named(extra, "input", st(0)).unwrap();
    b.set_error(extra).unwrap();
    let lts = b.build().unwrap();
    assert_eq!(reachable_states(&lts).len(), 3);
    assert_eq!(bfs_order(&lts), [st(0), st(1), st(2)]);
    let t = trim(&lts);
    assert_eq!(t.num_states(), 3);
    assert_eq!(t.error_state(), None); // the error state was unreachable
}

#[test]
fn tau_closure_table_matches_single_queries() {
    let h = hide(&output(), ["output", "ack"]);
    let table = TauClosure::new(&h);
    assert_eq!(table.num_states(), 3);
    for s in h.states() {
        assert_eq!(table.of(s), tau_closure(&h, s).as_slice());
    }
    assert_eq!(table.of(st(0)), [st(0)]);
    assert_eq!(table.of(st(1)), [st(0), st(1), st(2)]);
}
