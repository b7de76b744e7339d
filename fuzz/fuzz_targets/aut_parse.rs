//! Fuzz target `aut_parse`: the `.aut` reader must never panic, and whatever it accepts must survive
//! a write-then-read round trip in both error-state styles.
//!
//! The first byte picks the options (lenient transition count or not) so both reader modes get
//! fuzzed; the state limit is kept small so that a tiny header cannot make each run allocate
//! hundreds of megabytes (the limit itself is tested in the crate's own tests).

#![no_main]

use std::collections::BTreeSet;

use guarantor_lts::io::aut::{
    AutReadOptions, AutWriteOptions, ErrorStateStyle, parse_aut_bytes, parse_aut_with,
    to_aut_string,
};
use guarantor_lts::{Lts, StateId};
use libfuzzer_sys::fuzz_target;

type Shape = (
    usize,
    usize,
    Option<usize>,
    BTreeSet<(usize, String, usize)>,
);

/// States, initial, error and transitions by name, with states renumbered by `f`.
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

/// The writer's numbering: the error state goes last, later states move down.
fn renumber(lts: &Lts, s: StateId) -> usize {
    match lts.error_state() {
        Some(e) if s == e => lts.num_states() - 1,
        Some(e) if s > e => s.index() - 1,
        _ => s.index(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, input)) = data.split_first() else {
        return;
    };
    let opts = AutReadOptions::default()
        .with_max_states(1 << 12)
        .with_check_transition_count(flags & 1 == 0);
    let Ok(lts) = parse_aut_bytes(input, &opts) else {
        return;
    };
    let expected = shape(&lts, |s| renumber(&lts, s));

    let text = to_aut_string(&lts, &AutWriteOptions::default());
    let error = lts.error_state().map(|_| (lts.num_states() - 1) as u32);
    let back = parse_aut_with(&text, &AutReadOptions::default().with_error_state(error))
        .unwrap_or_else(|e| panic!("cannot read back what was written:\n{e}\n{text}"));
    assert_eq!(shape(&back, StateId::index), expected, "{text}");

    let minus_one = AutWriteOptions::default().with_error_style(ErrorStateStyle::MinusOne);
    let text = to_aut_string(&lts, &minus_one);
    let back = parse_aut_with(&text, &AutReadOptions::default())
        .unwrap_or_else(|e| panic!("cannot read back what was written:\n{e}\n{text}"));
    let isolated = lts.error_state().is_some_and(|e| {
        lts.initial() != e && lts.transitions().all(|t| t.source != e && t.target != e)
    });
    let (n, init, err, ts) = expected;
    let expected = if isolated {
        (n - 1, init, None, ts)
    } else {
        (n, init, err, ts)
    };
    assert_eq!(shape(&back, StateId::index), expected, "{text}");
});
