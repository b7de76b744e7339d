//! Which progress tests imply which: fewer constructions for the default progress property.
//!
//! The default property asks, for every action `x`, that `x` can always eventually happen
//! (`AG EF x`, [`crate::progress`](mod@crate::progress)), and [`Reduce`](crate::Reduce) answers
//! each on its own construction with only that action visible. Many of those tests follow from
//! others, and the component that has both actions proves it:
//!
//! Let `b` and `x` be actions of component `C`, and let `R` be the states of `C` reachable from
//! the targets of `b`'s moves without an `x` move. If `C`'s moves other than `x` have no cycle
//! inside `R`, then `AG EF b` implies `AG EF x` in any system with `C`. From a reachable state,
//! `AG EF b` gives a run with as many `b` moves as we like; each is a move of `C` (a visible
//! action of `C` synchronises with `C`), and after the first one `C` stays in `R` until it moves
//! on `x` (`R` is closed under `C`'s moves other than `x`, and holds every target of `b`). With
//! no cycle in `R`, `C` can make only so many moves there: a run with more `b`s than `R` has
//! states moves on `x`, so `EF x` holds wherever `AG EF b` does.
//!
//! A philosopher that locks, takes a fork and then either eats or gives up is the example: its
//! lock implies its every unconditional move, its move towards the right fork every move of that
//! branch. So two constructions answer a philosopher's eight tests. [`representatives`] picks,
//! greedily, actions whose tests imply every required one; a representative is itself required,
//! so its violation is a violation of the property.

use std::collections::{BTreeMap, BTreeSet};

use guarantor_lts::ops::strongly_connected;
use guarantor_lts::{ActionId, Lts};

/// A component larger than this (states times actions) is not searched for implications: the
/// search costs a walk of the component per action, and the tests of its actions are then each
/// asked on their own, as before.
const MAX_WORK: usize = 20_000_000;

/// Actions of `required` whose tests imply, through the components, the test of every action of
/// `required` (module docs); in the order of the names, each chosen to cover the most tests not
/// yet covered.
pub(crate) fn representatives(components: &[&Lts], required: &BTreeSet<String>) -> Vec<String> {
    let implied = closed(&implications(components, required));
    let mut uncovered: BTreeSet<&String> = required.iter().collect();
    let mut chosen = Vec::new();
    while !uncovered.is_empty() {
        let covers = |b: &String| {
            let own = usize::from(uncovered.contains(b));
            own + implied
                .get(b)
                .map_or(0, |xs| xs.iter().filter(|x| uncovered.contains(x)).count())
        };
        // The first name with the largest cover (max_by_key keeps the last of equals); while a
        // test is uncovered its own action covers at least it.
        let Some(best) = required.iter().rev().max_by_key(|b| covers(b)) else {
            break;
        };
        uncovered.remove(best);
        if let Some(xs) = implied.get(best) {
            for x in xs {
                uncovered.remove(x);
            }
        }
        chosen.push(best.clone());
    }
    chosen.sort();
    chosen.dedup();
    chosen
}

/// Per required action `b`, the required actions whose tests `b`'s test implies in some
/// component (module docs), not closed under chaining.
fn implications(
    components: &[&Lts],
    required: &BTreeSet<String>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut implied: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for lts in components {
        let actions: Vec<(ActionId, &str)> = lts
            .alphabet()
            .iter()
            .filter(|(a, name)| !a.is_tau() && required.contains(*name))
            .collect();
        if lts.num_transitions().saturating_mul(actions.len()) > MAX_WORK {
            continue;
        }
        for &(x, x_name) in &actions {
            let leads_to_cycle = reaches_cycle_without(lts, x);
            for &(b, b_name) in actions.iter().filter(|(b, _)| *b != x) {
                if implies(lts, b, &leads_to_cycle) {
                    implied
                        .entry(b_name.to_owned())
                        .or_default()
                        .insert(x_name.to_owned());
                }
            }
        }
    }
    implied
}

/// Whether every move of `lts` on `b` leads to a state that cannot reach a cycle avoiding the
/// action `leads_to_cycle` was computed for (and `b` has a move at all).
fn implies(lts: &Lts, b: ActionId, leads_to_cycle: &[bool]) -> bool {
    let mut targets = lts
        .states()
        .flat_map(|s| lts.outgoing_on(s, b))
        .map(|e| e.target)
        .peekable();
    targets.peek().is_some() && targets.all(|t| !leads_to_cycle[t.index()])
}

/// Per state of `lts`, whether it can reach a cycle of moves other than on `x` by such moves.
fn reaches_cycle_without(lts: &Lts, x: ActionId) -> Vec<bool> {
    let keep = |e: &guarantor_lts::Edge| e.action != x;
    let sccs = strongly_connected(lts, keep);
    // Components complete successors first, so a component's successors are decided before it.
    let mut by_component: Vec<_> = lts.states().collect();
    by_component.sort_by_key(|&s| sccs.of(s));
    let mut bad = vec![false; sccs.count()];
    for s in by_component {
        let c = sccs.of(s);
        let onward = lts
            .outgoing(s)
            .iter()
            .filter(|e| keep(e))
            .any(|e| bad[sccs.of(e.target)]);
        bad[c] |= sccs.on_cycle(s) || onward;
    }
    lts.states().map(|s| bad[sccs.of(s)]).collect()
}

/// `implied` closed under chaining: `b` implies `y` when it implies an `x` that implies `y`.
fn closed(implied: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    implied
        .keys()
        .map(|b| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![b];
            while let Some(a) = stack.pop() {
                for x in implied.get(a).into_iter().flatten() {
                    if seen.insert(x.clone()) {
                        stack.push(x);
                    }
                }
            }
            (b.clone(), seen)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn required(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn a_cycle_needs_one_test() {
        let cycle = Lts::from_edges([(0, "a", 1), (1, "b", 2), (2, "c", 0)]).unwrap();
        let reps = representatives(&[&cycle], &required(&["a", "b", "c"]));
        assert_eq!(reps, ["a"]);
    }

    #[test]
    fn a_branch_needs_its_own_test() {
        // 0 -lock-> 1, then 1 -go-> 2 -eat-> 0 or 1 -give-> 0: lock implies nothing on a
        // branch, go implies eat, and neither branch implies the other.
        let phil =
            Lts::from_edges([(0, "lock", 1), (1, "go", 2), (2, "eat", 0), (1, "give", 0)]).unwrap();
        let all = required(&["lock", "go", "eat", "give"]);
        let reps = representatives(&[&phil], &all);
        assert_eq!(reps, ["give", "go"]);
        let implied = closed(&implications(&[&phil], &all));
        assert!(implied["go"].contains("eat") && implied["go"].contains("lock"));
        assert!(!implied.get("lock").is_some_and(|xs| xs.contains("eat")));
    }

    #[test]
    fn a_hidden_cycle_breaks_the_implication() {
        // After `a` the component may loop on tau forever without `b`.
        let lts = Lts::from_edges([(0, "a", 1), (1, "tau", 1), (1, "b", 0)]).unwrap();
        let implied = implications(&[&lts], &required(&["a", "b"]));
        assert!(!implied.get("a").is_some_and(|xs| xs.contains("b")));
        assert!(implied["b"].contains("a"));
    }
}
