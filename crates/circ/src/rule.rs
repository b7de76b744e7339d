//! The generic rule CIRC-AG_N and its alphabet-based simplification (sections 3, 4 and 6.3 of the
//! paper).
//!
//! A `Rule` fixes, for the current assumption alphabets `alpha g_i = A n alpha M_i`:
//! - `G_i`, the assumptions premise `i` may use, from the [`Policy`];
//! - `S(G_i)`: the members of `G_i` connected to `M_i` through shared actions (an assumption
//!   sharing an action with `M_i` — equivalently with `g_i` — is directly connected; one sharing an
//!   action with a connected one is connected too). Lemma 2: the premise over `S(G_i)` is
//!   equivalent to the premise over `G_i`;
//! - `S(G_{n+1})`: the assumptions connected to the property `P` in the same way;
//! - the premises still *needed*: the closure of `S(G_{n+1})` under `j -> S(G_j)`. The other
//!   premises are dropped altogether (their guarantees cannot influence the property);
//! - closures `Cl(g_k)` (Definition 4: the smallest set containing `S(G_k)` and closed under
//!   `S(G_j)`), for needed `k`, and `T(g_i)` (Definition 5: the closures containing `g_i`).
//!
//! All of it is recomputed whenever the alphabet changes; the sets only grow with the alphabet.

use crate::config::Policy;
use crate::error::CircError;
use crate::system::{ActSet, PreparedSystem};

/// Whether two alphabets share an action.
pub(crate) fn shares(a: &ActSet, b: &ActSet) -> bool {
    a.iter().zip(b).any(|(x, y)| *x && *y)
}

/// The assumption sets `G_i` of the policy, validated.
pub(crate) fn policy_sets(
    sys: &PreparedSystem,
    policy: &Policy,
) -> Result<Vec<Vec<usize>>, CircError> {
    let n = sys.len();
    match policy {
        Policy::AllOthers => Ok((0..n)
            .map(|i| (0..n).filter(|&j| j != i).collect())
            .collect()),
        Policy::Neighbours => {
            let full: Vec<ActSet> = (0..n).map(|i| sys.completeness(i)).collect();
            Ok((0..n)
                .map(|i| {
                    (0..n)
                        .filter(|&j| j != i && shares(&full[i], &full[j]))
                        .collect()
                })
                .collect())
        }
        Policy::Given(sets) => {
            if sets.len() != n {
                return Err(CircError::BadPolicy {
                    reason: format!("{} sets given for {n} (decomposed) components", sets.len()),
                });
            }
            for (i, s) in sets.iter().enumerate() {
                if let Some(&j) = s.iter().find(|&&j| j == i || j >= n) {
                    return Err(CircError::BadPolicy {
                        reason: format!("set {i} contains {j}"),
                    });
                }
            }
            Ok(sets.clone())
        }
    }
}

/// The members of `candidates` connected to `seed` through shared actions of the `alphas`.
pub(crate) fn connected(seed: &ActSet, candidates: &[usize], alphas: &[ActSet]) -> Vec<usize> {
    let mut inside: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&j| shares(seed, &alphas[j]))
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &j in candidates {
            if !inside.contains(&j) && inside.iter().any(|&k| shares(&alphas[k], &alphas[j])) {
                inside.push(j);
                changed = true;
            }
        }
    }
    inside.sort_unstable();
    inside
}

/// The simplified rule for one alphabet (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    /// `S(G_i)` per premise.
    pub(crate) s: Vec<Vec<usize>>,
    /// `S(G_{n+1})`.
    pub(crate) last: Vec<usize>,
    /// Whether premise `i` is kept.
    pub(crate) needed: Vec<bool>,
    /// `Cl(g_k)` for every needed `k`, deduplicated.
    pub(crate) closures: Vec<Vec<usize>>,
}

impl Rule {
    /// Simplifies the rule with sets `g` for the assumption alphabets `alphas`, the component
    /// alphabets `comps` and the property alphabet `prop`.
    pub(crate) fn new(
        g: &[Vec<usize>],
        alphas: &[ActSet],
        comps: &[ActSet],
        prop: &ActSet,
    ) -> Self {
        let n = g.len();
        let s: Vec<Vec<usize>> = (0..n)
            .map(|i| connected(&comps[i], &g[i], alphas))
            .collect();
        let all: Vec<usize> = (0..n).collect();
        let last = connected(prop, &all, alphas);
        let needed_list = close(&last, &s);
        let mut needed = vec![false; n];
        for &j in &needed_list {
            needed[j] = true;
        }
        let mut closures: Vec<Vec<usize>> = Vec::new();
        for k in (0..n).filter(|&k| needed[k]) {
            let cl = close(&s[k], &s);
            if !closures.contains(&cl) {
                closures.push(cl);
            }
        }
        Self {
            s,
            last,
            needed,
            closures,
        }
    }

    /// `T(g_i)`: the closures that contain `i`.
    pub(crate) fn t(&self, i: usize) -> impl Iterator<Item = &Vec<usize>> {
        self.closures.iter().filter(move |c| c.contains(&i))
    }
}

/// The smallest superset of `start` closed under `j -> s[j]`, sorted.
pub(crate) fn close(start: &[usize], s: &[Vec<usize>]) -> Vec<usize> {
    let mut out: Vec<usize> = start.to_vec();
    let mut i = 0;
    while i < out.len() {
        for &j in &s[out[i]] {
            if !out.contains(&j) {
                out.push(j);
            }
        }
        i += 1;
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(width: usize, members: &[usize]) -> ActSet {
        (0..width).map(|a| members.contains(&a)).collect()
    }

    /// Example 1 of the paper: g3 shares nothing with g1, g2 or P and drops out of the last
    /// premise; with larger alphabets (d shared by g1 and g3) it stays.
    #[test]
    fn example_1_of_the_paper() {
        // actions: a=0 b=1 c=2 d=3
        let alphas = [set(4, &[0, 1]), set(4, &[1]), set(4, &[2])];
        let prop = set(4, &[0, 1]);
        let all = [0, 1, 2];
        assert_eq!(connected(&prop, &all, &alphas), [0, 1]);
        let bigger = [set(4, &[0, 1, 3]), set(4, &[1]), set(4, &[2, 3])];
        assert_eq!(connected(&prop, &all, &bigger), [0, 1, 2]);
    }

    /// Indirect connection: g2 reaches M0 only through g1.
    #[test]
    fn simplification_is_transitive_and_drops_unneeded_premises() {
        // M0 = {a}, M1 = {a, b}, M2 = {b, c}, M3 = {e}; P = {a}
        let comps = [set(5, &[0]), set(5, &[0, 1]), set(5, &[1, 2]), set(5, &[4])];
        let alphas = comps.clone();
        let g: Vec<Vec<usize>> = (0..4)
            .map(|i| (0..4).filter(|&j| j != i).collect())
            .collect();
        let rule = Rule::new(&g, &alphas, &comps, &set(5, &[0]));
        assert_eq!(rule.s[0], [1, 2]);
        assert_eq!(rule.s[2], [0, 1]);
        assert!(rule.s[3].is_empty());
        assert_eq!(rule.last, [0, 1, 2]);
        assert_eq!(rule.needed, [true, true, true, false]);
        assert!(rule.t(3).next().is_none());
        // Every closure is closed: members' simplified sets stay inside.
        for cl in &rule.closures {
            for &j in cl {
                assert!(rule.s[j].iter().all(|k| cl.contains(k)));
            }
        }
    }

    #[test]
    fn closure_follows_chains_and_t_collects_closures() {
        // S(G_0) = {1}, S(G_1) = {2}, S(G_2) = {}, S(G_3) = {0}
        let s = vec![vec![1], vec![2], vec![], vec![0]];
        assert_eq!(close(&s[3], &s), [0, 1, 2]);
        assert_eq!(close(&s[0], &s), [1, 2]);
        assert!(close(&s[2], &s).is_empty());
        let rule = Rule {
            s: s.clone(),
            last: vec![3],
            needed: vec![true; 4],
            closures: (0..4).map(|k| close(&s[k], &s)).collect(),
        };
        assert_eq!(rule.t(2).count(), 3);
        assert_eq!(rule.t(3).count(), 0);
    }
}
