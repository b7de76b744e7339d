//! The checker's own product exploration: breadth-first search of the product of some
//! [`Member`]s for a state where one of them violates.
//!
//! Deliberately plain, and sharing no code with `guarantor-compose`, so that a bug in the fast
//! engine cannot hide a bug in a certificate: a product state is a tuple of member states (packed
//! into one integer by [`crate::packing`] when it fits), numbered in the order the search meets it;
//! its moves come from its members' own sorted edge lists (every member with the action in its
//! alphabet moves, the others stay; tau moves one member alone). No reduction, no threads. Two
//! things make it fast enough that re-checking a certificate costs about what the check did
//! (docs/benchmarks.md, "Certificates"): each member's edges are laid out flat, split into the
//! edges it *leads* (tau, and the visible actions it is the first member to have) and the rest;
//! and the visited set touches one cache line per lookup.

use crate::machine::{Act, Kind, Machine, Member, TAU};
use crate::packing::{Codec, KeySet, Packed, Plain};

/// The product of some members of a search: who takes part in each action, and each member's
/// edges laid out for enumeration.
///
/// A visible action is started by its *leader*, the first member of `subset` that has it in its
/// alphabet, from the leader's own edges; every other member that has it (a *follower*) must
/// then be able to move on it too. So a tuple's moves cost the leaders' edges plus one lookup
/// per follower, not a pass over the union alphabet.
struct Product {
    /// Each member's edges (empty for members outside `subset`).
    flat: Vec<Flat>,
    subset: Vec<usize>,
    /// For each action number, its followers in `subset` (every member with it in its alphabet
    /// but the leader), in order.
    followers: Vec<Vec<usize>>,
    /// For each action number, the members of `subset` with it in their alphabet.
    takers: Vec<Vec<usize>>,
}

/// A machine's edges in two flat arrays, state by state: all of them (for lookups as a follower)
/// and the ones it leads (for enumeration).
#[derive(Default)]
struct Flat {
    /// State `s`'s edges are `edges[start[s]..start[s + 1]]`, sorted.
    start: Vec<usize>,
    edges: Vec<(Act, usize)>,
    /// State `s`'s led edges are `led[led_start[s]..led_start[s + 1]]`, sorted.
    led_start: Vec<usize>,
    led: Vec<(Act, usize)>,
}

impl Flat {
    /// The layout of `machine`, which leads the actions `leads` says it does (and tau).
    fn new(machine: &Machine, leads: impl Fn(Act) -> bool) -> Self {
        let mut flat = Self {
            start: vec![0],
            led_start: vec![0],
            ..Self::default()
        };
        for out in &machine.edges {
            flat.edges.extend_from_slice(out);
            flat.start.push(flat.edges.len());
            flat.led
                .extend(out.iter().filter(|e| e.0 == TAU || leads(e.0)));
            flat.led_start.push(flat.led.len());
        }
        flat
    }

    /// The edges `s` leads.
    fn led(&self, s: usize) -> &[(Act, usize)] {
        &self.led[self.led_start[s]..self.led_start[s + 1]]
    }

    /// The targets of `s` on `a`.
    fn successors(&self, s: usize, a: Act) -> impl Iterator<Item = usize> + '_ {
        let out = &self.edges[self.start[s]..self.start[s + 1]];
        // Most states have a handful of edges: a scan beats a binary search there.
        let first = if out.len() <= 8 {
            out.iter().position(|e| e.0 >= a).unwrap_or(out.len())
        } else {
            out.partition_point(|e| e.0 < a)
        };
        out[first..]
            .iter()
            .take_while(move |e| e.0 == a)
            .map(|e| e.1)
    }
}

impl Product {
    fn new(members: &[Member], subset: &[usize]) -> Self {
        let mut takers: Vec<Vec<usize>> = Vec::new();
        for &i in subset {
            for &a in &members[i].machine.alphabet {
                let a = a as usize;
                if takers.len() <= a {
                    takers.resize_with(a + 1, Vec::new);
                }
                takers[a].push(i);
            }
        }
        let leader = |a: Act| takers.get(a as usize).and_then(|t| t.first().copied());
        let mut flat: Vec<Flat> = members.iter().map(|_| Flat::default()).collect();
        for &i in subset {
            flat[i] = Flat::new(members[i].machine, |a| leader(a) == Some(i));
        }
        let followers = takers
            .iter()
            .map(|t| t.iter().skip(1).copied().collect())
            .collect();
        Self {
            flat,
            subset: subset.to_vec(),
            followers,
            takers,
        }
    }

    /// Calls `visit(action, next, moved)` for every move from `tuple` (`moved`: the members that
    /// took part; the others stay where they are) until `visit` returns `true`; returns whether
    /// it did.
    fn moves(
        &self,
        tuple: &[usize],
        visit: &mut impl FnMut(Act, &[usize], &[usize]) -> bool,
    ) -> bool {
        let mut next = tuple.to_vec();
        for (pos, &i) in self.subset.iter().enumerate() {
            for &(a, t) in self.flat[i].led(tuple[i]) {
                next[i] = t;
                let stop = if a == TAU {
                    // Tau: one member alone.
                    visit(TAU, &next, &self.subset[pos..=pos])
                } else {
                    self.follow(a, 0, tuple, &mut next, visit)
                };
                next[i] = tuple[i];
                if stop {
                    return true;
                }
            }
        }
        false
    }

    /// Every way the followers of `a` from the `from`-th on can move along, each one's target
    /// written into `next`.
    fn follow(
        &self,
        a: Act,
        from: usize,
        tuple: &[usize],
        next: &mut [usize],
        visit: &mut impl FnMut(Act, &[usize], &[usize]) -> bool,
    ) -> bool {
        let Some(&i) = self.followers[a as usize].get(from) else {
            return visit(a, next, &self.takers[a as usize]);
        };
        let mut stop = false;
        for t in self.flat[i].successors(tuple[i], a) {
            next[i] = t;
            stop = self.follow(a, from + 1, tuple, next, visit);
            if stop {
                break;
            }
        }
        next[i] = tuple[i];
        stop
    }
}

/// Whether the members `subset` have any move from `tuple`.
pub(crate) fn can_move(members: &[Member], subset: &[usize], tuple: &[usize]) -> bool {
    Product::new(members, subset).moves(tuple, &mut |_, _, _| true)
}

/// The circular premise's extra check: from every reachable tuple, a move of the components
/// `group` (with the guarantee's error machine `guarantee`, whatever the assumptions allow) that
/// reaches pi or a component's `ERROR` is a violation.
#[derive(Clone, Debug)]
pub(crate) struct Circular {
    pub(crate) group: Vec<usize>,
    pub(crate) guarantee: usize,
}

/// A violation found by [`search`].
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The actions of the run, tau included.
    pub(crate) trace: Vec<Act>,
    /// The member at its error state at the end.
    pub(crate) member: usize,
}

/// The tuples met so far, each numbered in the order it was met, with the move that first
/// reached it (for the trace of a violation).
struct Visited<C: Codec> {
    codec: C,
    /// Every key met (the number of a tuple is its place in `tuples`, which the search knows
    /// when it needs it, so the set need not keep it).
    seen: C::Set,
    tuples: Vec<C::Key>,
    parent: Vec<Option<(usize, Act)>>,
}

impl<C: Codec> Visited<C> {
    fn new(codec: C) -> Self {
        Self {
            codec,
            seen: C::Set::default(),
            tuples: Vec::new(),
            parent: Vec::new(),
        }
    }

    /// Numbers the tuple of `key` if it is new (reached from `parent`); `None` if it was met
    /// before.
    fn insert(&mut self, key: C::Key, parent: Option<(usize, Act)>) -> Option<usize> {
        if !self.seen.insert(key.clone()) {
            return None;
        }
        self.tuples.push(key);
        self.parent.push(parent);
        Some(self.tuples.len() - 1)
    }

    /// The actions from the initial tuple to tuple `id`.
    fn trace_to(&self, mut id: usize) -> Vec<Act> {
        let mut trace = Vec::new();
        while let Some((p, a)) = self.parent[id] {
            trace.push(a);
            id = p;
        }
        trace.reverse();
        trace
    }
}

/// Breadth-first search of the product of `members` for a tuple where some member violates (and,
/// with `circular`, for the free last step of the group). Returns the violation, if any, and the
/// number of tuples visited.
pub(crate) fn search(members: &[Member], circular: Option<&Circular>) -> (Option<Found>, usize) {
    let sizes = || members.iter().map(|m| m.machine.len());
    if let Some(packed) = Packed::<u64>::new(sizes()) {
        search_with(members, circular, Visited::new(packed))
    } else if let Some(packed) = Packed::<u128>::new(sizes()) {
        search_with(members, circular, Visited::new(packed))
    } else {
        search_with(members, circular, Visited::new(Plain))
    }
}

/// [`search`], keeping tuples in `visited`.
fn search_with<C: Codec>(
    members: &[Member],
    circular: Option<&Circular>,
    mut visited: Visited<C>,
) -> (Option<Found>, usize) {
    let all: Vec<usize> = (0..members.len()).collect();
    let product = Product::new(members, &all);
    let group_step = circular.map(|c| {
        let mut subset = c.group.clone();
        subset.push(c.guarantee);
        (Product::new(members, &subset), subset)
    });
    // Each member's violating state (none for assumptions), read once here for the inner loop.
    let bad: Vec<Option<usize>> = members
        .iter()
        .map(|m| m.machine.error.filter(|_| m.kind != Kind::Assumption))
        .collect();
    let violator = |tuple: &[usize]| (0..tuple.len()).find(|&i| bad[i] == Some(tuple[i]));
    let start: Vec<usize> = members.iter().map(|m| m.machine.initial).collect();
    if let Some(member) = violator(&start) {
        let found = Found {
            trace: Vec::new(),
            member,
        };
        return (Some(found), 1);
    }
    visited.insert(visited.codec.encode(&start), None);
    let mut found: Option<(usize, Act, usize)> = None;
    let mut tuple = Vec::with_capacity(members.len());
    // Tuples are numbered in the order they are met, so expanding them by number is breadth-first.
    for id in 0.. {
        if id == visited.tuples.len() {
            break;
        }
        let key = visited.tuples[id].clone();
        visited.codec.decode(&key, &mut tuple);
        if let (Some((step, subset)), Some(c)) = (&group_step, circular) {
            step.moves(&tuple, &mut |a, next, _| {
                // A move of the group: tau moves come from the group alone (the guarantee is
                // deterministic), a visible action must be one the group has.
                let by_group = a == TAU
                    || c.group
                        .iter()
                        .any(|&i| members[i].machine.alphabet.contains(&a));
                let hit = subset.iter().copied().find(|&i| bad[i] == Some(next[i]));
                if let (true, Some(member)) = (by_group, hit) {
                    found = Some((id, a, member));
                }
                found.is_some()
            });
        }
        if found.is_none() {
            product.moves(&tuple, &mut |a, next, moved| {
                // Only the members that moved can have reached their error state.
                if let Some(&member) = moved.iter().find(|&&i| bad[i] == Some(next[i])) {
                    found = Some((id, a, member));
                } else {
                    visited.insert(visited.codec.update(&key, next, moved), Some((id, a)));
                }
                found.is_some()
            });
        }
        if let Some((from, a, member)) = found {
            let mut trace = visited.trace_to(from);
            trace.push(a);
            let reached = visited.tuples.len() + 1;
            return (Some(Found { trace, member }), reached);
        }
    }
    (None, visited.tuples.len())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::search;
    use crate::machine::{Kind, Machine, Member};

    /// `n` members that all take one action `1` along `0 -> 1 -> 2 -> 3`, the last with `ERROR`
    /// at 3: the product is a line of four tuples, and the violation three steps away, whichever
    /// way the tuples are kept (one `u64` up to 31 members of 2 bits, one `u128` up to 63, boxed
    /// slices beyond).
    #[test]
    fn every_key_layout_finds_the_same_violation() {
        let line = Machine {
            alphabet: BTreeSet::from([1]),
            initial: 0,
            edges: vec![vec![(1, 1)], vec![(1, 2)], vec![(1, 3)], vec![]],
            error: None,
        };
        let failing = Machine {
            error: Some(3),
            ..line.clone()
        };
        for n in [5, 40, 70] {
            let mut members = vec![
                Member {
                    machine: &line,
                    kind: Kind::Component,
                };
                n - 1
            ];
            members.push(Member {
                machine: &failing,
                kind: Kind::Component,
            });
            let (found, _) = search(&members, None);
            let found = found.expect("a violation");
            assert_eq!(
                (found.trace, found.member),
                (vec![1, 1, 1], n - 1),
                "{n} members"
            );
            members.pop();
            assert_eq!(search(&members, None).1, 4, "{n} members without the error");
        }
    }
}
