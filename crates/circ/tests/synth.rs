//! `GenAssmp` against brute force: on small random constraint sets, the SAT search returns
//! assumptions that satisfy every constraint and whose total size is the minimum over *all*
//! families of DLTSs (enumerated exhaustively up to total size 4), in every encoding variant and
//! with any bound hint.

use guarantor_circ::CircError;
use guarantor_circ::Disjunction;
use guarantor_circ::encode::{Atom, Constraint, SynthOptions, Synthesizer};
use guarantor_lts::{Lts, LtsBuilder, StateId};
use proptest::prelude::*;

/// Every DLTS with `m` states over `l` letters (transition table entries: none or a target).
fn all_dlts(m: usize, l: usize) -> Vec<Lts> {
    let cells = m * l;
    let total = (m + 1).pow(cells as u32);
    (0..total)
        .map(|mut code| {
            let mut b = LtsBuilder::new();
            let ids: Vec<_> = (0..l)
                .map(|a| b.action(&format!("x{a}")).unwrap())
                .collect();
            b.ensure_states(m).unwrap();
            for cell in 0..cells {
                let t = code % (m + 1);
                code /= m + 1;
                if t > 0 {
                    b.add_transition(StateId::must(cell / l), ids[cell % l], StateId::must(t - 1))
                        .unwrap();
                }
            }
            b.build().unwrap()
        })
        .collect()
}

/// The smallest total size (at most `max`) of a family satisfying `cs`, by enumeration.
fn brute_force(letters: &[usize], cs: &[Constraint], max: usize) -> Option<usize> {
    let n = letters.len();
    let mut cache: std::collections::HashMap<(usize, usize), Vec<Lts>> =
        std::collections::HashMap::new();
    for total in n..=max {
        for sizes in splits(total, n) {
            let pools: Vec<Vec<Lts>> = sizes
                .iter()
                .zip(letters)
                .map(|(&m, &l)| {
                    cache
                        .entry((m, l))
                        .or_insert_with(|| all_dlts(m, l))
                        .clone()
                })
                .collect();
            let mut idx = vec![0usize; n];
            loop {
                let fam: Vec<Lts> = idx.iter().zip(&pools).map(|(&i, p)| p[i].clone()).collect();
                if cs.iter().all(|c| c.holds(&fam)) {
                    return Some(total);
                }
                let mut k = 0;
                while k < n {
                    idx[k] += 1;
                    if idx[k] < pools[k].len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
                if k == n {
                    break;
                }
            }
        }
    }
    None
}

/// All ways to write `total` as `n` positive parts.
fn splits(total: usize, n: usize) -> Vec<Vec<usize>> {
    if n == 1 {
        return vec![vec![total]];
    }
    (1..=total - (n - 1))
        .flat_map(|first| {
            splits(total - first, n - 1)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

fn atom(n: usize, l: usize) -> impl Strategy<Value = Atom> {
    (
        any::<bool>(),
        0..n,
        proptest::collection::vec(0..l as u32, 0..4),
    )
        .prop_map(|(p, i, w)| Atom {
            positive: p,
            assumption: i,
            word: w,
        })
}

fn instance() -> impl Strategy<Value = (Vec<usize>, Vec<Constraint>)> {
    prop_oneof![
        Just(vec![2]),
        Just(vec![1, 2]),
        Just(vec![2, 2]),
        Just(vec![1, 1, 1])
    ]
    .prop_flat_map(|letters| {
        let n = letters.len();
        let l = letters.iter().copied().min().unwrap_or(1);
        let c = proptest::collection::vec(atom(n, l), 1..3).prop_map(Constraint);
        (Just(letters), proptest::collection::vec(c, 1..5))
    })
}

fn variants() -> Vec<SynthOptions> {
    let base = SynthOptions {
        max_total_states: 4,
        ..SynthOptions::default()
    };
    vec![
        base,
        SynthOptions {
            symmetry_breaking: false,
            ..base
        },
        SynthOptions {
            incremental: false,
            ..base
        },
        SynthOptions {
            disjunction: Disjunction::Selectors,
            ..base
        },
    ]
}

/// Solves `cs` in every encoding variant (with the bound hint `hint`, if any) and compares the
/// total size with the brute-force minimum, or the size limit with "none up to 4".
fn solves_minimally(
    letters: &[usize],
    cs: &[Constraint],
    hint: Option<usize>,
) -> Result<(), TestCaseError> {
    let expected = brute_force(letters, cs, 4);
    for options in variants() {
        let names = letters
            .iter()
            .map(|&l| (0..l).map(|a| format!("x{a}")).collect())
            .collect();
        let mut s = Synthesizer::new(names, options);
        for c in cs {
            s.add(c.clone()).unwrap();
        }
        if let Some(hint) = hint {
            s.set_hint(hint);
        }
        match (s.solve(), expected) {
            (Ok(g), Some(best)) => {
                prop_assert!(cs.iter().all(|c| c.holds(&g)));
                prop_assert_eq!(
                    g.iter().map(Lts::num_states).sum::<usize>(),
                    best,
                    "{:?} hint {:?}",
                    options,
                    hint
                );
                prop_assert_eq!(s.bound(), best);
            }
            (Err(CircError::SizeLimit { .. }), None) => {}
            (got, want) => prop_assert!(
                false,
                "{:?} hint {:?}: got {:?}, brute force {:?}",
                options,
                hint,
                got.map(|g| g.len()),
                want
            ),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn sat_result_is_minimal((letters, cs) in instance()) {
        solves_minimally(&letters, &cs, None)?;
    }

    /// A bound hint (as after an alphabet refinement) changes the SAT calls, never the answer:
    /// with any hint, below, at or above the minimum (or beyond the size limit), the total size
    /// is still the brute-force minimum.
    #[test]
    fn a_bound_hint_keeps_minimality((letters, cs) in instance(), hint in 0usize..7) {
        solves_minimally(&letters, &cs, Some(hint))?;
    }
}

/// Constraints added between solves keep the bound monotone and the solver live.
#[test]
fn incremental_additions_keep_minimality() {
    let mut s = Synthesizer::new(
        vec![vec!["a".into()], vec!["a".into()]],
        SynthOptions::default(),
    );
    s.add(Constraint(vec![Atom::plus(0, vec![0, 0])])).unwrap();
    assert_eq!(
        s.solve()
            .unwrap()
            .iter()
            .map(Lts::num_states)
            .sum::<usize>(),
        2
    );
    // g_0 must allow "a a" but not "a a a": a chain of three states.
    s.add(Constraint(vec![Atom::minus(0, vec![0, 0, 0])]))
        .unwrap();
    let g = s.solve().unwrap();
    assert_eq!(g[0].num_states(), 3);
    assert_eq!(s.bound(), 4);
    // Either g_1 rejects "a" or g_0 rejects "a": the cheaper is g_1 with one blocked state.
    s.add(Constraint(vec![
        Atom::minus(1, vec![0]),
        Atom::minus(0, vec![0]),
    ]))
    .unwrap();
    let g = s.solve().unwrap();
    assert_eq!((g[0].num_states(), g[1].num_states()), (3, 1));
    assert_eq!(g[1].num_transitions(), 0);
    assert_eq!(s.stats().encodings, 1);
}

/// An assumption larger than the initial capacity: the overflow colour makes the search grow that
/// assumption's capacity only, and the answer is still the minimum.
#[test]
fn capacities_grow_on_demand_and_keep_minimality() {
    let names = vec![vec!["a".into()], vec!["a".into()], vec!["a".into()]];
    let mut s = Synthesizer::new(names, SynthOptions::default());
    // g_0 must be a chain of exactly 10 states: "a^9" in, "a^10" out.
    s.add(Constraint(vec![Atom::plus(0, vec![0; 9])])).unwrap();
    s.add(Constraint(vec![Atom::minus(0, vec![0; 10])]))
        .unwrap();
    // g_1 needs two states; g_2 one.
    s.add(Constraint(vec![Atom::plus(1, vec![0])])).unwrap();
    s.add(Constraint(vec![Atom::minus(1, vec![0, 0])])).unwrap();
    let g = s.solve().unwrap();
    let sizes: Vec<usize> = g.iter().map(Lts::num_states).collect();
    assert_eq!(sizes, [10, 2, 1]);
    assert_eq!(s.bound(), 13);
    let caps = s.capacities();
    assert!(caps[0] >= 10, "{caps:?}");
    assert!(caps[1] < 10 && caps[2] < 10, "only g_0 grew: {caps:?}");
    assert!(s.stats().relaxed_calls > 0);
}

/// Growing a capacity never skips a smaller answer: one of two assumptions must be a chain longer
/// than the initial capacity, and the total found is the brute-force minimum.
#[test]
fn overflow_never_hides_a_smaller_family() {
    for big in [4usize, 5, 6] {
        let names = vec![vec!["a".into()], vec!["a".into()]];
        let mut s = Synthesizer::new(names, SynthOptions::default());
        s.add(Constraint(vec![
            Atom::plus(0, vec![0; big - 1]),
            Atom::plus(1, vec![0; big - 1]),
        ]))
        .unwrap();
        s.add(Constraint(vec![Atom::minus(0, vec![0; big])]))
            .unwrap();
        s.add(Constraint(vec![Atom::minus(1, vec![0; big])]))
            .unwrap();
        let g = s.solve().unwrap();
        let cs = s.constraints().to_vec();
        assert!(cs.iter().all(|c| c.holds(&g)));
        let total: usize = g.iter().map(Lts::num_states).sum();
        assert_eq!(total, big + 1);
        assert_eq!(brute_force(&[1, 1], &cs, total), Some(total), "big = {big}");
    }
}

/// Atoms about the empty word are decided by prefix-closure alone: `-(j, [])` is dropped from its
/// disjunction (the rest still binds), `+(j, [])` makes the constraint true, and a constraint of
/// `-(j, [])` alone stays false (no assumptions exist).
#[test]
fn empty_word_atoms_are_simplified_without_changing_the_meaning() {
    let names = vec![vec!["a".into()], vec!["a".into()]];
    let mut s = Synthesizer::new(names.clone(), SynthOptions::default());
    s.add(Constraint(vec![
        Atom::minus(1, vec![]),
        Atom::plus(0, vec![0]),
    ]))
    .unwrap();
    s.add(Constraint(vec![
        Atom::plus(1, vec![]),
        Atom::minus(0, vec![0]),
    ]))
    .unwrap();
    assert_eq!(s.constraints().len(), 1);
    assert_eq!(s.constraints()[0].0, vec![Atom::plus(0, vec![0])]);
    let g = s.solve().unwrap();
    assert!(Atom::plus(0, vec![0]).holds(&g));
    let mut s = Synthesizer::new(
        names,
        SynthOptions {
            max_total_states: 6,
            ..SynthOptions::default()
        },
    );
    s.add(Constraint(vec![Atom::minus(0, vec![])])).unwrap();
    assert!(matches!(s.solve(), Err(CircError::SizeLimit { .. })));
}
