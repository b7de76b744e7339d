//! Property tests of composition: the eager product equals a naive explicit product, the lazy
//! product enumerates the same transitions, and composition is commutative and associative (compared
//! exactly, through the tuple behind every state).

mod common;

use std::collections::HashSet;
use std::ops::ControlFlow;

use common::{Naive, Tuple, tuple_edges};
use guarantor_compose::product::{Product, Scratch};
use guarantor_compose::{ComposeError, Config, compose_with_tuples};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_system_with};
use guarantor_lts::{Lts, StateId};
use proptest::prelude::*;

const POOL: &[&str] = &["a", "b", "c", "d"];

fn systems(max_components: usize) -> impl Strategy<Value = Vec<Lts>> {
    arb_system_with(
        max_components,
        LtsStrategyConfig::new(4, POOL).with_error_state(true),
    )
}

type Edges = HashSet<(Option<Tuple>, String, Option<Tuple>)>;

/// The naive product's transitions with failed tuples collapsed to `None`, as the crate does.
fn naive_edges(comps: &[&Lts]) -> Edges {
    let naive = Naive::components(comps);
    let (_, edges) = naive.explore();
    let norm = |t: Tuple| naive.failed(&t).is_none().then_some(t);
    edges
        .into_iter()
        .map(|(s, a, t)| (norm(s), a, norm(t)))
        .collect()
}

/// Applies `perm` to every tuple of `edges` (`perm[i]` = the old position of new position `i`).
fn permute(edges: &Edges, perm: &[usize]) -> Edges {
    let p = |t: &Option<Tuple>| {
        t.as_ref()
            .map(|t| perm.iter().map(|&i| t[i]).collect::<Tuple>())
    };
    edges
        .iter()
        .map(|(s, a, t)| (p(s), a.clone(), p(t)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn eager_product_equals_naive_product(sys in systems(3)) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let c = compose_with_tuples(&comps, &Config::default()).unwrap();
        prop_assert_eq!(tuple_edges(&c), naive_edges(&comps));
        // The alphabet is the union of the declared alphabets, unused actions included.
        let union: HashSet<&str> =
            comps.iter().flat_map(|l| l.alphabet().iter().map(|(_, n)| n)).collect();
        let got: HashSet<&str> = c.lts().alphabet().iter().map(|(_, n)| n).collect();
        prop_assert_eq!(got, union);
        // Every state is reachable and numbered once: states = distinct tuples (+ one error state).
        let tuples: HashSet<&[StateId]> = c.lts().states().filter_map(|s| c.tuple(s)).collect();
        let errors = usize::from(c.lts().error_state().is_some());
        prop_assert_eq!(tuples.len() + errors, c.lts().num_states());
    }

    #[test]
    fn lazy_and_eager_products_agree(sys in systems(3)) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let c = compose_with_tuples(&comps, &Config::default()).unwrap();
        let product = Product::new(&comps).unwrap();
        let mut scratch = Scratch::new();
        let mut lazy = HashSet::new();
        for s in c.lts().states() {
            let Some(t) = c.tuple(s) else { continue };
            let _ = product.for_each_successor::<()>(t, &mut scratch, |a, u| {
                let u = product.error_component(u).is_none().then(|| u.to_vec());
                lazy.insert((t.to_vec(), product.action_name(a).to_owned(), u));
                ControlFlow::Continue(())
            });
        }
        let eager: HashSet<_> = c.lts().transitions().map(|tr| {
            let src = c.tuple(tr.source).unwrap().to_vec();
            (src, c.lts().action_name(tr.action).to_owned(), c.tuple(tr.target).map(<[StateId]>::to_vec))
        }).collect();
        prop_assert_eq!(lazy, eager);
    }

    #[test]
    fn composition_is_commutative(sys in systems(3), rot in 0usize..3) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let n = comps.len();
        let perm: Vec<usize> = (0..n).map(|i| (i + rot) % n).collect();
        let permuted: Vec<&Lts> = perm.iter().map(|&i| comps[i]).collect();
        let base = compose_with_tuples(&comps, &Config::default()).unwrap();
        let other = compose_with_tuples(&permuted, &Config::default()).unwrap();
        prop_assert_eq!(base.lts().num_states(), other.lts().num_states());
        prop_assert_eq!(base.lts().num_transitions(), other.lts().num_transitions());
        prop_assert_eq!(permute(&tuple_edges(&base), &perm), tuple_edges(&other));
    }

    #[test]
    fn composition_is_associative(sys in arb_system_with(3, LtsStrategyConfig::new(4, POOL).with_error_state(true)).prop_filter("three components", |s| s.len() == 3)) {
        let [a, b, c] = [&sys[0], &sys[1], &sys[2]];
        let flat = compose_with_tuples(&[a, b, c], &Config::default()).unwrap();
        let ab = compose_with_tuples(&[a, b], &Config::default()).unwrap();
        let nested = compose_with_tuples(&[ab.lts(), c], &Config::default()).unwrap();
        // Expand ((a, b), c) tuples into (a, b, c); the inner error state is an error of the whole.
        let expand = |t: &[StateId]| -> Option<Tuple> {
            let inner = ab.tuple(t[0])?;
            Some(inner.iter().chain(&t[1..2]).map(|s| s.index()).collect())
        };
        let nested_edges: Edges = nested.lts().transitions().map(|tr| {
            let src = nested.tuple(tr.source).and_then(expand);
            let dst = nested.tuple(tr.target).and_then(expand);
            (src, nested.lts().action_name(tr.action).to_owned(), dst)
        }).collect();
        prop_assert_eq!(nested_edges, tuple_edges(&flat));
        prop_assert_eq!(nested.lts().num_states(), flat.lts().num_states());
    }

    #[test]
    fn state_budget_ends_in_state_limit(sys in systems(3), limit in 1usize..6) {
        let comps: Vec<&Lts> = sys.iter().collect();
        let full = compose_with_tuples(&comps, &Config::default()).unwrap();
        // The construction charges every transition it generates, before the builder merges
        // duplicates (a tau step of either component to the same tuple, say): count them so.
        let product = Product::new(&comps).unwrap();
        let mut scratch = Scratch::new();
        let mut transitions = 0;
        for s in full.lts().states() {
            let Some(t) = full.tuple(s) else { continue };
            let _ = product.for_each_successor::<()>(t, &mut scratch, |_, _| {
                transitions += 1;
                ControlFlow::Continue(())
            });
        }
        prop_assert!(transitions >= full.lts().num_transitions());
        let full = full.lts().num_states();
        // A state each, plus the transitions and the kept tuples in store states' worth of bytes.
        let units = full
            + Config::units_for_bytes(transitions * Config::TRANSITION_BYTES + full * comps.len() * 4);
        let limit = limit * 4;
        let bounded = compose_with_tuples(&comps, &Config::default().with_max_states(limit));
        if units > limit {
            prop_assert_eq!(bounded.unwrap_err(), ComposeError::StateLimit { limit });
        } else {
            prop_assert_eq!(bounded.unwrap().lts().num_states(), full);
        }
    }
}
