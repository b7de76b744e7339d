//! Property tests: writing an LTS as `.aut` and reading it back gives the same LTS.
//!
//! "The same" means: the same number of states, the same initial state, the same error state and the
//! same set of transitions by label name — after the renumbering the writer documents (the error state
//! moves to the end; states after it move down by one). Random LTSs come from
//! `guarantor_lts::strategy` with awkward label names (quotes, backslashes, commas, parentheses, line
//! breaks, non-ASCII, the empty name); the error and initial states are then placed anywhere, so
//! error states with outgoing transitions, initial error states and isolated error states all occur.

#![cfg(feature = "proptest")]

use std::collections::BTreeSet;

use guarantor_lts::io::aut::{
    AutReadOptions, AutWriteOptions, ErrorStateStyle, parse_aut_with, to_aut_string,
};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;
use proptest::sample::Index;

const LABELS: &[&str] = &[
    "a",
    "b c",
    "q\"uote",
    "back\\slash",
    "com,ma",
    "par(1,2)",
    "new\nline",
    "cr\rx",
    "é ü",
    "",
    "i",
    "\\\"",
    ")",
];

/// Random LTSs with the error state (if any) and the initial state anywhere.
fn arb_lts() -> impl Strategy<Value = Lts> {
    let config = LtsStrategyConfig::new(6, LABELS).with_max_transitions(14);
    (
        arb_lts_with(config),
        any::<Index>(),
        any::<Index>(),
        any::<bool>(),
    )
        .prop_map(|(lts, initial, error, with_error)| {
            let mut b = lts.to_builder();
            let n = lts.num_states();
            b.set_initial(StateId::must(initial.index(n))).unwrap();
            if with_error {
                b.set_error(StateId::must(error.index(n))).unwrap();
            }
            b.build().unwrap()
        })
}

/// The writer's numbering: the error state goes last, later states move down.
fn renumber(lts: &Lts, s: StateId) -> usize {
    match lts.error_state() {
        Some(e) if s == e => lts.num_states() - 1,
        Some(e) if s > e => s.index() - 1,
        _ => s.index(),
    }
}

type Shape = (
    usize,
    usize,
    Option<usize>,
    BTreeSet<(usize, String, usize)>,
);

/// Everything the round trip must keep, with states renumbered by `f`.
fn shape(lts: &Lts, f: impl Fn(StateId) -> usize) -> Shape {
    let transitions = lts
        .transitions()
        .map(|t| {
            (
                f(t.source),
                lts.action_name(t.action).to_owned(),
                f(t.target),
            )
        })
        .collect();
    (
        lts.num_states(),
        f(lts.initial()),
        lts.error_state().map(&f),
        transitions,
    )
}

/// Whether the error state is mentioned by no line of a `-1`-style file.
fn error_is_isolated(lts: &Lts) -> bool {
    lts.error_state().is_some_and(|e| {
        lts.initial() != e && lts.transitions().all(|t| t.source != e && t.target != e)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn last_state_style_round_trips_with_the_error_option(lts in arb_lts()) {
        let text = to_aut_string(&lts, &AutWriteOptions::default());
        let error = lts.error_state().map(|_| (lts.num_states() - 1) as u32);
        let back = parse_aut_with(&text, &AutReadOptions::default().with_error_state(error))
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(shape(&back, StateId::index), shape(&lts, |s| renumber(&lts, s)));
    }

    #[test]
    fn last_state_style_without_the_option_loses_only_the_marking(lts in arb_lts()) {
        let text = to_aut_string(&lts, &AutWriteOptions::default());
        let back = parse_aut_with(&text, &AutReadOptions::default()).unwrap();
        let (n, init, _, ts) = shape(&lts, |s| renumber(&lts, s));
        prop_assert_eq!(shape(&back, StateId::index), (n, init, None, ts));
    }

    #[test]
    fn minus_one_style_round_trips_unless_the_error_state_is_isolated(lts in arb_lts()) {
        let opts = AutWriteOptions::default().with_error_style(ErrorStateStyle::MinusOne);
        let text = to_aut_string(&lts, &opts);
        let back = parse_aut_with(&text, &AutReadOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let (n, init, error, ts) = shape(&lts, |s| renumber(&lts, s));
        if error_is_isolated(&lts) {
            prop_assert_eq!(shape(&back, StateId::index), (n - 1, init, None, ts));
        } else {
            prop_assert_eq!(shape(&back, StateId::index), (n, init, error, ts));
        }
    }

    #[test]
    fn writing_twice_gives_the_same_text(lts in arb_lts()) {
        // Write, read (restoring the error state), write again: a fixpoint after one round.
        let text = to_aut_string(&lts, &AutWriteOptions::default());
        let error = lts.error_state().map(|_| (lts.num_states() - 1) as u32);
        let back = parse_aut_with(&text, &AutReadOptions::default().with_error_state(error)).unwrap();
        let again = to_aut_string(&back, &AutWriteOptions::default());
        let sorted = |t: &str| { let mut v: Vec<String> = t.lines().map(str::to_owned).collect(); v.sort(); v };
        prop_assert_eq!(sorted(&again), sorted(&text));
    }
}
