//! Property tests for hiding, projection and relabelling: the traces of the result are exactly the
//! hidden / renamed traces of the input, checked by a naive simulator that treats hidden labels as
//! internal and renamed labels through the relation.
#![cfg(feature = "proptest")]

mod ops_support;

use guarantor_lts::ops::{hide, project, relabel};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
use ops_support::{Sim, executable, names, plain, strs};
use proptest::prelude::*;

const K: usize = 5;

fn config() -> LtsStrategyConfig {
    LtsStrategyConfig::new(5, &["a", "b", "c"]).with_max_transitions(10)
}

/// A subset of {a, b, c, z} (z is not declared by the random LTSs).
fn arb_names() -> impl Strategy<Value = Vec<&'static str>> {
    proptest::sample::subsequence(vec!["a", "b", "c", "z"], 0..=4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn hide_makes_actions_internal(l in arb_lts_with(config().with_accepting(true)), hidden in arb_names()) {
        let h = hide(&l, hidden.iter().copied());
        let kept: Vec<String> = names(&l).into_iter().filter(|n| !hidden.contains(&n.as_str())).collect();
        prop_assert_eq!(names(&h), kept.clone());
        let silent = |n: &str| n == "tau" || hidden.contains(&n);
        let reference = Sim { lts: &l, silent: &silent, matches: &|a, b| a == b };
        let expect = executable(&reference, &kept, K);
        let got = executable(&plain(&h), &kept, K);
        prop_assert_eq!(got.keys().collect::<Vec<_>>(), expect.keys().collect::<Vec<_>>());
        // Same states, so the reached sets (and hence acceptance) agree too.
        prop_assert_eq!(got, expect);
        prop_assert_eq!(h.num_states(), l.num_states());
    }

    #[test]
    fn project_keeps_only_named_actions(l in arb_lts_with(config()), keep in arb_names()) {
        let p = project(&l, keep.iter().copied());
        let kept: Vec<String> = names(&l).into_iter().filter(|n| keep.contains(&n.as_str())).collect();
        prop_assert_eq!(names(&p), kept.clone());
        let silent = |n: &str| n == "tau" || !keep.contains(&n);
        let reference = Sim { lts: &l, silent: &silent, matches: &|a, b| a == b };
        prop_assert_eq!(executable(&plain(&p), &kept, K), executable(&reference, &kept, K));
    }

    #[test]
    fn relabel_follows_the_relation(
        l in arb_lts_with(config().with_accepting(true)),
        pairs in proptest::collection::vec((prop_oneof![Just("a"), Just("b"), Just("z")], prop_oneof![Just("x"), Just("y"), Just("c"), Just("a")]), 0..4),
    ) {
        let r = relabel(&l, &pairs).unwrap();
        let image = |old: &str| -> Vec<String> {
            let mapped: Vec<String> = pairs.iter().filter(|p| p.0 == old).map(|p| p.1.to_owned()).collect();
            if mapped.is_empty() { vec![old.to_owned()] } else { mapped }
        };
        let mut new_names: Vec<String> = names(&l).iter().flat_map(|n| image(n)).collect();
        new_names.sort();
        new_names.dedup();
        let mut got_names = names(&r);
        got_names.sort();
        prop_assert_eq!(&got_names, &new_names);
        let matches = |old: &str, new: &str| image(old).iter().any(|n| n == new);
        let reference = Sim { lts: &l, silent: &|n| n == "tau", matches: &matches };
        prop_assert_eq!(executable(&plain(&r), &new_names, K), executable(&reference, &new_names, K));
    }
}

#[test]
fn relabel_many_to_one_and_one_to_many() {
    use guarantor_lts::LtsBuilder;
    let mut builder = LtsBuilder::new();
    let [s0, s1, s2] = [
        builder.add_state().unwrap(),
        builder.add_state().unwrap(),
        builder.add_state().unwrap(),
    ];
    builder.add_transition_named(s0, "x", s1).unwrap();
    builder.add_transition_named(s0, "y", s2).unwrap();
    let lts = builder.build().unwrap();
    // {a, b}/x: x becomes a and b; y merges into a.
    let r = relabel(&lts, &[("x", "a"), ("x", "b"), ("y", "a")]).unwrap();
    assert_eq!(names(&r), strs(&["a", "b"]));
    let a_id = r.alphabet().get("a").unwrap();
    let b_id = r.alphabet().get("b").unwrap();
    assert_eq!(r.successors(s0, a_id).collect::<Vec<_>>(), [s1, s2]);
    assert_eq!(r.successors(s0, b_id).collect::<Vec<_>>(), [s1]);
    // Relabelling to tau hides.
    let t = relabel(&lts, &[("x", "tau")]).unwrap();
    assert_eq!(names(&t), strs(&["y"]));
    assert!(t.has_tau());
}
