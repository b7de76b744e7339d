//! Per-component successor tables, built once when a [`Product`](crate::product::Product) is set up.
//!
//! Enumerating the successors of a tuple used to walk every edge of every component and look up
//! each action's role, skipping the edges of shared actions that another component drives. In a
//! system of many small shared objects (tx3: four threads and eleven objects, each object offering
//! one action per thread in every state) that skipping was most of the work: about ninety edges
//! looked at per tuple for four or so successors. The tables here remove it:
//!
//! - per state, only the *driving* edge groups (interleaved actions, and shared actions this
//!   component leads), each a range of a flat target array, so a follower-only component costs two
//!   loads per tuple;
//! - per state and followed action, the range of targets, found in a dense table when it is small
//!   (one load) and by binary search otherwise.
//!
//! Enumeration order is unchanged (components in order, edges by action), so BFS numbering and
//! counterexamples stay what they were.

use guarantor_lts::{ActionId, Lts, StateId};

/// Dense follower tables are used up to this many entries (8 bytes each) per component.
const DENSE_LIMIT: usize = 1 << 18;

/// A run of edges of one state on one action that this component drives.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    /// The product action.
    pub(crate) action: ActionId,
    /// Whether the action is shared (this component leads its synchronisation).
    pub(crate) leads: bool,
    /// The targets, as a range of [`Moves::targets`].
    pub(crate) lo: u32,
    pub(crate) hi: u32,
}

/// What a component does with each of its local actions, as the product set-up decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Moves this component alone, labelled with the given product action (tau stays tau).
    Alone(ActionId),
    /// A shared action this component drives (it is the lowest-numbered owner).
    Leader(ActionId),
    /// A shared action driven by another component; `slot` numbers it among this component's
    /// followed actions.
    Follower { slot: u32 },
}

/// The successor tables of one component.
#[derive(Clone, Debug)]
pub(crate) struct Moves {
    /// `group_start[s]..group_start[s + 1]` indexes the driving groups of state `s`.
    group_start: Vec<u32>,
    groups: Vec<Group>,
    /// `edge_start[s]`: where the targets of state `s` begin in `targets`.
    edge_start: Vec<u32>,
    /// Every edge's target, state by state, in the component's edge order.
    pub(crate) targets: Vec<StateId>,
    /// `dense[s * slots + slot]`: the target range of state `s` on followed action `slot`, when the
    /// table is small enough; otherwise empty and ranges are found by binary search.
    dense: Vec<(u32, u32)>,
    slots: usize,
}

impl Moves {
    /// Builds the tables of `lts`, whose local action `a` has role `roles[a]`.
    pub(crate) fn new(lts: &Lts, roles: &[Role]) -> Self {
        Self::with_dense_limit(lts, roles, DENSE_LIMIT)
    }

    /// [`Self::new`] with another bound on the dense table (tests use 0 to force binary search).
    fn with_dense_limit(lts: &Lts, roles: &[Role], dense_limit: usize) -> Self {
        let n = lts.num_states();
        let slots = roles
            .iter()
            .filter(|r| matches!(r, Role::Follower { .. }))
            .count();
        let dense_ok = slots > 0 && n.saturating_mul(slots) <= dense_limit;
        let mut m = Moves {
            group_start: Vec::with_capacity(n + 1),
            groups: Vec::new(),
            edge_start: Vec::with_capacity(n + 1),
            targets: Vec::with_capacity(lts.num_transitions()),
            dense: if dense_ok {
                vec![(0, 0); n * slots]
            } else {
                Vec::new()
            },
            slots,
        };
        for s in lts.states() {
            m.add_state(s, lts, roles);
        }
        m.group_start.push(m.groups.len() as u32);
        m.edge_start.push(m.targets.len() as u32);
        m
    }

    fn add_state(&mut self, s: StateId, lts: &Lts, roles: &[Role]) {
        self.group_start.push(self.groups.len() as u32);
        let base = self.targets.len();
        self.edge_start.push(base as u32);
        let edges = lts.outgoing(s);
        self.targets.extend(edges.iter().map(|e| e.target));
        let mut lo = 0;
        while lo < edges.len() {
            let action = edges[lo].action;
            let hi = lo + edges[lo..].partition_point(|e| e.action == action);
            let range = ((base + lo) as u32, (base + hi) as u32);
            match roles[action.index()] {
                Role::Alone(g) | Role::Leader(g) => self.groups.push(Group {
                    action: g,
                    leads: matches!(roles[action.index()], Role::Leader(_)),
                    lo: range.0,
                    hi: range.1,
                }),
                Role::Follower { slot } => {
                    if !self.dense.is_empty() {
                        self.dense[s.index() * self.slots + slot as usize] = range;
                    }
                }
            }
            lo = hi;
        }
    }

    /// The driving groups of state `s`.
    #[inline]
    pub(crate) fn groups(&self, s: StateId) -> &[Group] {
        let i = s.index();
        &self.groups[self.group_start[i] as usize..self.group_start[i + 1] as usize]
    }

    /// The range of [`Self::targets`] reached from `s` on the followed local action `local`
    /// (numbered `slot` among the followed actions); empty when `s` refuses it.
    #[inline]
    pub(crate) fn follow(&self, lts: &Lts, s: StateId, local: ActionId, slot: u32) -> (u32, u32) {
        if !self.dense.is_empty() {
            return self.dense[s.index() * self.slots + slot as usize];
        }
        let out = lts.outgoing(s);
        let lo = out.partition_point(|e| e.action < local);
        let hi = lo + out[lo..].partition_point(|e| e.action == local);
        let base = self.edge_start[s.index()];
        (base + lo as u32, base + hi as u32)
    }
}

#[cfg(test)]
mod tests {
    use guarantor_lts::LtsBuilder;

    use super::*;

    #[test]
    fn dense_and_searched_follower_ranges_agree() {
        let mut b = LtsBuilder::new();
        b.ensure_states(4).unwrap();
        let s = StateId::must;
        for (from, a, to) in [
            (0, "x", 1),
            (0, "x", 2),
            (0, "y", 3),
            (1, "z", 0),
            (2, "y", 2),
        ] {
            b.add_transition_named(s(from), a, s(to)).unwrap();
        }
        let lts = b.build().unwrap();
        // tau alone, x led, y and z followed (slots 0 and 1).
        let roles = [
            Role::Alone(ActionId::TAU),
            Role::Leader(ActionId::must(1)),
            Role::Follower { slot: 0 },
            Role::Follower { slot: 1 },
        ];
        let dense = Moves::new(&lts, &roles);
        let searched = Moves::with_dense_limit(&lts, &roles, 0);
        assert!(!dense.dense.is_empty() && searched.dense.is_empty());
        for st in lts.states() {
            for (local, slot) in [(2, 0), (3, 1)] {
                let a = ActionId::must(local);
                let want: Vec<StateId> = lts.successors(st, a).collect();
                for m in [&dense, &searched] {
                    let (lo, hi) = m.follow(&lts, st, a, slot);
                    assert_eq!(&m.targets[lo as usize..hi as usize], want.as_slice());
                }
            }
        }
        assert_eq!(dense.groups(s(0)).len(), 1); // only x: y is followed
        assert!(dense.groups(s(0))[0].leads);
    }
}
