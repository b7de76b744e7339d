//! The lazy (on-the-fly) parallel composition [`Product`] of n LTSs.
//!
//! A product state is a *tuple*: one [`StateId`] per component, as a slice. [`Product`] never stores
//! product states; it maps actions between the components once, when it is built, and then enumerates
//! the successors of any tuple on demand. The eager composition, the safety check, assume-guarantee
//! triples and trace replay are all loops around [`Product::for_each_successor`].
//!
//! Semantics (LTSA's):
//! - the product's alphabet is the union of the components' alphabets, matched by name; its ids are
//!   the first component's visible actions in order, then the second's new ones, and so on;
//! - an action in the alphabet of exactly one component interleaves; an action in several alphabets
//!   is possible only when *every* component having it can take it, and then all of them move
//!   together (all combinations of their choices, for nondeterministic components);
//! - tau of any component interleaves and never synchronises;
//! - a tuple in which some component is in its error state is an *error tuple*: it has no
//!   successors (the run has already failed).
//!
//! Why a callback and not an iterator: a successor is a whole tuple, and handing out a borrowed
//! slice of one reusable buffer keeps the hot path free of allocation; a lending iterator would do
//! the same with more ceremony. [`Product::successors`] is the allocating convenience.

use std::ops::ControlFlow;

use guarantor_lts::{ActionId, Alphabet, Lts, StateId};
use smallvec::SmallVec;

use crate::engine::moves::{Moves, Role};
use crate::error::ComposeError;

/// One follower of a synchronisation in progress: which component, and which of its edges.
#[derive(Clone, Copy, Debug)]
struct SyncSlot {
    component: u32,
    lo: u32,
    hi: u32,
    cur: u32,
}

/// Reusable buffers for [`Product::for_each_successor`]. Make one per loop and pass it to every call.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    target: Vec<StateId>,
    sync: Vec<SyncSlot>,
    /// Successors buffered for priority pruning: actions, and tuples back to back.
    actions: Vec<ActionId>,
    tuples: Vec<StateId>,
}

impl Scratch {
    /// Empty buffers; they grow to the product's width on first use.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The parallel composition of some LTSs, explored on demand.
///
/// ```
/// use guarantor_compose::product::{Product, Scratch};
/// use guarantor_lts::LtsBuilder;
/// # fn cycle(names: &[&str]) -> Result<guarantor_lts::Lts, guarantor_lts::LtsError> {
/// #     let mut b = LtsBuilder::new();
/// #     b.ensure_states(names.len())?;
/// #     for (i, n) in names.iter().enumerate() {
/// #         let s = guarantor_lts::StateId::must(i);
/// #         b.add_transition_named(s, n, guarantor_lts::StateId::must((i + 1) % names.len()))?;
/// #     }
/// #     b.build()
/// # }
/// let input = cycle(&["input", "send", "ack"])?;
/// let output = cycle(&["send", "output", "ack"])?;
/// let product = Product::new(&[&input, &output])?;
/// assert_eq!(product.alphabet().len(), 4); // input, send, ack, output
/// let init = product.initial();
/// // Only `input` is possible: `send` needs Input to be ready too.
/// let succ: Vec<_> = product.successors(&init).map(|(a, _)| product.action_name(a)).collect();
/// assert_eq!(succ, ["input"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Product<'a> {
    components: Vec<&'a Lts>,
    alphabet: Alphabet,
    /// `moves[i]`: the successor tables of component `i`.
    moves: Vec<Moves>,
    /// `owners[g]`: the components whose alphabet holds product action `g`, with their local id;
    /// only filled for shared actions.
    owners: Vec<SmallVec<[(u32, ActionId); 4]>>,
    /// `followers[g]`: `owners[g]` without the leader, each with its follower slot.
    followers: Vec<SmallVec<[Follower; 4]>>,
    /// `(component, error state)` of the components that have an error state, by component: the
    /// error test runs once per transition, and most components have no error state.
    errors: Vec<(u32, StateId)>,
    /// `preferred[g]` under a priority (see [`crate::priority`]); empty without one.
    preferred: Vec<bool>,
}

impl<'a> Product<'a> {
    /// Sets up the product of `components` (in this order; tuples follow it). An empty list is the
    /// unit of composition: one state, no actions.
    pub fn new(components: &[&'a Lts]) -> Result<Self, ComposeError> {
        let mut alphabet = Alphabet::new();
        let mut local_to_global = Vec::with_capacity(components.len());
        for lts in components {
            let map = std::iter::once(Ok(ActionId::TAU))
                .chain(lts.alphabet().iter().map(|(_, name)| alphabet.intern(name)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(guarantor_lts::LtsError::from)?;
            local_to_global.push(map);
        }
        let mut owners: Vec<SmallVec<[(u32, ActionId); 4]>> =
            vec![SmallVec::new(); alphabet.id_bound()];
        for (i, map) in local_to_global.iter().enumerate() {
            for (local, &global) in map.iter().enumerate().skip(1) {
                owners[global.index()].push((i as u32, ActionId::must(local)));
            }
        }
        let mut followers: Vec<SmallVec<[Follower; 4]>> =
            vec![SmallVec::new(); alphabet.id_bound()];
        let mut moves = Vec::with_capacity(components.len());
        for (i, map) in local_to_global.iter().enumerate() {
            let mut slots = 0;
            let roles: Vec<Role> = map
                .iter()
                .enumerate()
                .map(|(local, &g)| {
                    let role = role_of(i, g, &owners, &mut slots);
                    if let Role::Follower { slot } = role {
                        followers[g.index()].push(Follower {
                            component: i as u32,
                            local: ActionId::must(local),
                            slot,
                        });
                    }
                    role
                })
                .collect();
            moves.push(Moves::new(components[i], &roles));
        }
        for list in &mut owners {
            if list.len() < 2 {
                list.clear(); // only shared actions need their owners
            }
        }
        let errors = components
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((i as u32, c.error_state()?)))
            .collect();
        Ok(Self {
            components: components.to_vec(),
            alphabet,
            moves,
            owners,
            followers,
            errors,
            preferred: Vec::new(),
        })
    }

    /// [`Product::with_priority`] when `priority` is given, [`Product::new`] otherwise.
    ///
    /// # Errors
    /// As those two.
    pub fn under(
        components: &[&'a Lts],
        priority: Option<&crate::Priority>,
    ) -> Result<Self, ComposeError> {
        match priority {
            Some(p) => Self::with_priority(components, p),
            None => Self::new(components),
        }
    }

    /// Sets up the product of `components` under `priority`: from every tuple, only the preferred
    /// transitions are enumerated when there are any (see [`crate::priority`]).
    ///
    /// ```
    /// use guarantor_compose::{Priority, product::Product};
    /// use guarantor_lts::{LtsBuilder, StateId};
    /// let mut b = LtsBuilder::new();
    /// b.ensure_states(1)?;
    /// b.add_transition_named(StateId::must(0), "fast", StateId::must(0))?;
    /// b.add_transition_named(StateId::must(0), "slow", StateId::must(0))?;
    /// let lts = b.build()?;
    /// let product = Product::with_priority(&[&lts], &Priority::low(["slow"]))?;
    /// let names: Vec<_> =
    ///     product.successors(&product.initial()).map(|(a, _)| product.action_name(a)).collect();
    /// assert_eq!(names, ["fast"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_priority(
        components: &[&'a Lts],
        priority: &crate::Priority,
    ) -> Result<Self, ComposeError> {
        let mut product = Self::new(components)?;
        product.preferred = (0..product.alphabet.id_bound())
            .map(|g| {
                let name = product.alphabet.try_name(ActionId::must(g));
                priority.prefers(name.unwrap_or("tau"))
            })
            .collect();
        Ok(product)
    }

    /// The components, in tuple order.
    pub fn components(&self) -> &[&'a Lts] {
        &self.components
    }

    /// The number of components (the length of every tuple).
    pub fn width(&self) -> usize {
        self.components.len()
    }

    /// The product's alphabet: the union of the components' alphabets.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The name of a product action.
    ///
    /// # Panics
    /// Panics if `a` is not an action of the product's alphabet.
    pub fn action_name(&self, a: ActionId) -> &str {
        self.alphabet.name(a)
    }

    /// The initial tuple.
    pub fn initial(&self) -> Vec<StateId> {
        self.components.iter().map(|c| c.initial()).collect()
    }

    /// The first component (lowest index) whose state in `tuple` is its error state, if any.
    ///
    /// # Panics
    /// Panics if `tuple` is shorter than [`Self::width`].
    #[inline]
    pub fn error_component(&self, tuple: &[StateId]) -> Option<usize> {
        assert!(
            tuple.len() >= self.width(),
            "tuple shorter than the product's width"
        );
        self.errors
            .iter()
            .find(|&&(i, e)| tuple[i as usize] == e)
            .map(|&(i, _)| i as usize)
    }

    /// The components that have product action `a` in their alphabets, with their local ids, when
    /// there are at least two of them (an empty slice for interleaved actions and tau).
    pub fn sharers(&self, a: ActionId) -> &[(u32, ActionId)] {
        self.owners.get(a.index()).map_or(&[], |o| o.as_slice())
    }

    /// The local id of product action `a` in component `i`, if `i` has it in its alphabet.
    ///
    /// # Panics
    /// Panics if `i` is not a component index.
    pub fn local_action(&self, i: usize, a: ActionId) -> Option<ActionId> {
        if a.is_tau() {
            return Some(ActionId::TAU);
        }
        self.components[i]
            .alphabet()
            .get(self.alphabet.try_name(a)?)
    }

    /// Calls `f(action, target)` for every transition of the product from `tuple`, stopping early
    /// when `f` breaks. Error tuples have no successors. `target` borrows `scratch` and is only
    /// valid during the call.
    ///
    /// # Panics
    /// Panics if `tuple` does not have one state of each component (in range).
    pub fn for_each_successor<B>(
        &self,
        tuple: &[StateId],
        scratch: &mut Scratch,
        f: impl FnMut(ActionId, &[StateId]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        assert_eq!(
            tuple.len(),
            self.width(),
            "tuple width differs from the product's"
        );
        if self.error_component(tuple).is_some() {
            return ControlFlow::Continue(());
        }
        if self.preferred.is_empty() {
            self.enumerate(tuple, scratch, f)
        } else {
            self.enumerate_preferred(tuple, scratch, f)
        }
    }

    /// Enumerates all the successors of a non-error tuple, prioritised or not.
    fn enumerate<B>(
        &self,
        tuple: &[StateId],
        scratch: &mut Scratch,
        mut f: impl FnMut(ActionId, &[StateId]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        scratch.target.clear();
        scratch.target.extend_from_slice(tuple);
        for (i, moves) in self.moves.iter().enumerate() {
            for group in moves.groups(tuple[i]) {
                let (g, lo, hi) = (group.action, group.lo as usize, group.hi as usize);
                if group.leads {
                    self.synchronise(i, g, lo..hi, tuple, scratch, &mut f)?;
                } else {
                    for &t in &moves.targets[lo..hi] {
                        scratch.target[i] = t;
                        f(g, &scratch.target)?;
                    }
                    scratch.target[i] = tuple[i];
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Enumerates the successors into a buffer, then hands out the preferred ones if there are
    /// any, else all of them.
    fn enumerate_preferred<B>(
        &self,
        tuple: &[StateId],
        scratch: &mut Scratch,
        mut f: impl FnMut(ActionId, &[StateId]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut actions = std::mem::take(&mut scratch.actions);
        let mut tuples = std::mem::take(&mut scratch.tuples);
        actions.clear();
        tuples.clear();
        let _ = self.enumerate::<()>(tuple, scratch, |a, t| {
            actions.push(a);
            tuples.extend_from_slice(t);
            ControlFlow::Continue(())
        });
        let any = actions.iter().any(|a| self.preferred[a.index()]);
        let w = self.width();
        let result = actions
            .iter()
            .enumerate()
            .filter(|(_, a)| !any || self.preferred[a.index()])
            .try_for_each(|(k, &a)| f(a, &tuples[k * w..(k + 1) * w]));
        scratch.actions = actions;
        scratch.tuples = tuples;
        result
    }

    /// Enumerates the joint moves on shared action `g`, led by component `leader` with `lead` edges.
    fn synchronise<B>(
        &self,
        leader: usize,
        g: ActionId,
        lead: std::ops::Range<usize>,
        tuple: &[StateId],
        scratch: &mut Scratch,
        f: &mut impl FnMut(ActionId, &[StateId]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        scratch.sync.clear();
        for fol in &self.followers[g.index()] {
            let j = fol.component as usize;
            let (lo, hi) = self.moves[j].follow(self.components[j], tuple[j], fol.local, fol.slot);
            if lo == hi {
                return ControlFlow::Continue(()); // a sharer refuses: no joint move
            }
            scratch.sync.push(SyncSlot {
                component: fol.component,
                lo,
                hi,
                cur: lo,
            });
        }
        let result = self.odometer(leader, g, lead, scratch, f);
        for slot in &scratch.sync {
            scratch.target[slot.component as usize] = tuple[slot.component as usize];
        }
        scratch.target[leader] = tuple[leader];
        result
    }

    /// Visits every combination of one leader edge and one edge per follower slot.
    fn odometer<B>(
        &self,
        leader: usize,
        g: ActionId,
        lead: std::ops::Range<usize>,
        scratch: &mut Scratch,
        f: &mut impl FnMut(ActionId, &[StateId]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let edge_of =
            |slot: &SyncSlot, at: u32| self.moves[slot.component as usize].targets[at as usize];
        for &t in &self.moves[leader].targets[lead] {
            scratch.target[leader] = t;
            for slot in &mut scratch.sync {
                slot.cur = slot.lo;
                scratch.target[slot.component as usize] = edge_of(slot, slot.lo);
            }
            'combos: loop {
                f(g, &scratch.target)?;
                for slot in &mut scratch.sync {
                    slot.cur += 1;
                    if slot.cur < slot.hi {
                        scratch.target[slot.component as usize] = edge_of(slot, slot.cur);
                        continue 'combos;
                    }
                    slot.cur = slot.lo;
                    scratch.target[slot.component as usize] = edge_of(slot, slot.lo);
                }
                break;
            }
        }
        ControlFlow::Continue(())
    }

    /// The successors of `tuple` as owned `(action, target)` pairs. Allocates one `Vec` per
    /// successor; loops that care use [`Self::for_each_successor`].
    pub fn successors(&self, tuple: &[StateId]) -> impl Iterator<Item = (ActionId, Vec<StateId>)> {
        let mut out = Vec::new();
        let mut scratch = Scratch::new();
        let _ = self.for_each_successor::<()>(tuple, &mut scratch, |a, t| {
            out.push((a, t.to_vec()));
            ControlFlow::Continue(())
        });
        out.into_iter()
    }
}

/// One non-leading owner of a shared action: its component, its local id and its follower slot.
#[derive(Clone, Copy, Debug)]
struct Follower {
    component: u32,
    local: ActionId,
    slot: u32,
}

/// The role of an action of component `i` that is product action `g`, given all owners; a
/// follower takes the next of the component's slots.
fn role_of(
    i: usize,
    g: ActionId,
    owners: &[SmallVec<[(u32, ActionId); 4]>],
    slots: &mut u32,
) -> Role {
    let list = &owners[g.index()];
    if g.is_tau() || list.len() < 2 {
        Role::Alone(g)
    } else if list[0].0 as usize == i {
        Role::Leader(g)
    } else {
        *slots += 1;
        Role::Follower { slot: *slots - 1 }
    }
}
