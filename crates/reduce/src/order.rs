//! Which two parts to compose next: the heart of compositional minimisation.
//!
//! A bad order builds the whole product anyway (compose two components that share nothing and
//! nothing can be hidden). Crouzen and Lang's *smart reduction* (FASE 2011) picks the subset
//! whose composition lets the largest share of its actions be hidden, since hidden actions are
//! what minimisation removes. We apply that rule to pairs, measured on the parts as they are
//! now (already minimised). Ratios that differ a little say little, so among the pairs close to
//! the best ratio the smaller estimated product (the product of the two sizes) wins, then the
//! higher ratio, then the lower index, so that the order is deterministic:
//!
//! 1. the *hiding ratio*: actions of the pair that no other part uses (they become tau once the
//!    pair is composed) over all actions of the pair; a pair with no actions at all has ratio 1;
//! 2. whether the pair synchronises at all (a pair that shares no action only interleaves);
//! 3. among the pairs within [`NEAR`] of the best ratio, the estimated product size, smaller
//!    first.

use std::collections::BTreeSet;

use guarantor_lts::Lts;

/// What the order needs to know of one part: its visible alphabet and its number of states.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) alphabet: BTreeSet<String>,
    pub(crate) states: usize,
}

/// How good a pair is (module docs): hiding ratio in millionths, whether it synchronises, and
/// the estimated product size (smaller is better).
type Score = (u64, bool, std::cmp::Reverse<u128>);

/// The visible action names of `lts`: a part's alphabet as the order sees it.
pub(crate) fn visible_names(lts: &Lts) -> impl Iterator<Item = String> + '_ {
    lts.alphabet()
        .iter()
        .filter(|(a, _)| !a.is_tau())
        .map(|(_, name)| name.to_owned())
}

/// The pair `(i, j)`, `i < j`, to compose next among `parts` (at least two): among the pairs
/// whose hiding ratio is at least [`NEAR`] of the best (and that synchronise, if the best does),
/// the one with the smallest estimated product, then the higher ratio, then the lower indices.
pub(crate) fn next_pair(parts: &[Shape]) -> (usize, usize) {
    let mut scored = Vec::new();
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            scored.push((score(parts, i, j), (i, j)));
        }
    }
    let Some(&((ratio, shares, _), _)) = scored.iter().max_by_key(|(key, _)| (key.0, key.1)) else {
        return (0, 1);
    };
    let near = |key: &Score| key.1 == shares && key.0 * NEAR.1 >= ratio * NEAR.0;
    scored
        .iter()
        .filter(|(key, _)| near(key))
        .max_by(|(a, p), (b, q)| (a.2, a.0).cmp(&(b.2, b.0)).then(q.cmp(p)))
        .map_or((0, 1), |(_, pair)| *pair)
}

/// How close to the best hiding ratio a pair must come to be chosen for a smaller product:
/// 4/5. Ratios close together say little (the window protocol's channel with its sender, or with
/// its receiver, hide 0.47 and 0.48 of their actions), product sizes a lot (30,772 states
/// against 588 there): picking by ratio alone composed the sender first and met the step bound
/// on every progress test.
const NEAR: (u64, u64) = (4, 5);

/// The actions of `parts[i]` and `parts[j]` that no other part uses.
pub(crate) fn hidden_after(parts: &[Shape], i: usize, j: usize) -> BTreeSet<String> {
    parts[i]
        .alphabet
        .union(&parts[j].alphabet)
        .filter(|a| {
            parts
                .iter()
                .enumerate()
                .all(|(k, p)| k == i || k == j || !p.alphabet.contains(*a))
        })
        .cloned()
        .collect()
}

/// The [`Score`] of the pair `(i, j)`.
fn score(parts: &[Shape], i: usize, j: usize) -> Score {
    let all = parts[i].alphabet.union(&parts[j].alphabet).count();
    let hidden = hidden_after(parts, i, j).len();
    let ratio = if all == 0 {
        1_000_000
    } else {
        (hidden as u64 * 1_000_000) / all as u64
    };
    let shares = parts[i]
        .alphabet
        .intersection(&parts[j].alphabet)
        .next()
        .is_some();
    let size = parts[i].states as u128 * parts[j].states as u128;
    (ratio, shares, std::cmp::Reverse(size))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(actions: &[&str], states: usize) -> Shape {
        Shape {
            alphabet: actions.iter().map(|a| (*a).to_owned()).collect(),
            states,
        }
    }

    #[test]
    fn the_pair_that_hides_most_comes_first() {
        // A and B share `x`, which nobody else uses; C shares `y` with A and B.
        let parts = [
            shape(&["x", "y"], 4),
            shape(&["x", "y"], 4),
            shape(&["y", "z"], 2),
        ];
        assert_eq!(next_pair(&parts), (0, 1));
        assert_eq!(hidden_after(&parts, 0, 1).len(), 1);
    }

    #[test]
    fn a_near_ratio_with_a_much_smaller_product_wins() {
        // A ring of four: (0, 1) and (2, 3) hide 2/5 of their actions, (1, 2) 1/3, within 4/5
        // of the best, with a product 50 times smaller.
        let parts = [
            shape(&["a", "b", "c"], 600),
            shape(&["a", "b", "d", "e"], 50),
            shape(&["d", "e", "f", "g"], 12),
            shape(&["f", "g", "c"], 5000),
        ];
        assert_eq!(next_pair(&parts), (1, 2));
        // Far from the best ratio, size does not count.
        let parts = [
            shape(&["x"], 100),
            shape(&["x"], 100),
            shape(&["y", "z", "v"], 2),
            shape(&["y", "z", "v", "u", "s"], 2),
            shape(&["u", "s", "t"], 2),
        ];
        assert_eq!(next_pair(&parts), (0, 1));
    }

    #[test]
    fn ties_go_to_the_smaller_product() {
        let parts = [shape(&["a"], 10), shape(&["a"], 10), shape(&["a"], 2)];
        // No pair hides anything (a third part always shares `a`); the two smallest meet.
        assert_eq!(next_pair(&parts), (0, 2));
    }
}
