//! Eager parallel composition: the reachable part of a [`Product`] built as an [`Lts`].
//!
//! States are numbered in BFS discovery order from the initial tuple (state 0). As in LTSA, all
//! error tuples collapse into *one* error state of the result (numbered last), which counts as one
//! state: the product of a system with an `ERROR` is itself a system with an `ERROR`, and two runs
//! that fail differently are not told apart. [`compose_with_tuples`] also keeps the tuple behind
//! every other state.

use guarantor_lts::{ActionId, Lts, LtsBuilder, StateId};

use crate::config::Config;
use crate::engine::explore::{Layout, Visitor, run};
use crate::error::ComposeError;
use crate::product::Product;

/// An eagerly built composition together with the tuple of component states behind each state.
#[derive(Clone, Debug)]
pub struct Composition {
    lts: Lts,
    width: usize,
    /// The tuples of states `0..n` (error state excluded), `width` entries each.
    tuples: Vec<StateId>,
}

impl Composition {
    /// The composed LTS.
    pub fn lts(&self) -> &Lts {
        &self.lts
    }

    /// Gives up the tuples and keeps the LTS.
    pub fn into_lts(self) -> Lts {
        self.lts
    }

    /// The number of components (the length of each tuple).
    pub fn width(&self) -> usize {
        self.width
    }

    /// The component states behind product state `s`, or `None` for the error state (which stands
    /// for every error tuple) and for states that do not exist.
    pub fn tuple(&self, s: StateId) -> Option<&[StateId]> {
        if self.lts.is_error(s) {
            return None;
        }
        let at = s.index().checked_mul(self.width)?;
        self.tuples.get(at..at + self.width)
    }
}

/// Builds the reachable part of the composition of `components`.
///
/// The alphabet is the union of the components' alphabets (see [`Product`] for the order), every
/// declared action kept even if no transition uses it.
///
/// ```
/// use guarantor_compose::{compose, Config};
/// use guarantor_lts::{LtsBuilder, StateId};
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// b.add_transition_named(StateId::must(1), "b", StateId::must(0))?;
/// let toggle = b.build()?;
/// // Two toggles sharing both actions move in lock step: 2 states, not 4.
/// let both = compose(&[&toggle, &toggle], &Config::default())?;
/// assert_eq!((both.num_states(), both.num_transitions()), (2, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Budget errors when `config`'s limits are reached (the error state counts against
/// `max_states`).
pub fn compose(components: &[&Lts], config: &Config) -> Result<Lts, ComposeError> {
    build(components, config, false, Layout::Auto).map(Composition::into_lts)
}

/// Several deterministic safety properties as one: their composition, which is deterministic and
/// violated exactly when one of them is (a trace's projection leaves the product iff it leaves
/// one factor). One property is returned as it is; none is the one-state property over the empty
/// alphabet, which nothing violates. For methods whose rules take a single property.
///
/// ```
/// use guarantor_compose::{merge_properties, Config};
/// use guarantor_lts::Lts;
/// let ab = Lts::from_edges([(0, "a", 1), (1, "b", 0)])?;
/// let cd = Lts::from_edges([(0, "c", 1), (1, "d", 0)])?;
/// let both = merge_properties(&[&ab, &cd], &Config::default())?;
/// assert_eq!(both.num_states(), 4);
/// assert_eq!(merge_properties(&[], &Config::default())?.num_states(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Budget errors of the composition.
pub fn merge_properties(properties: &[&Lts], config: &Config) -> Result<Lts, ComposeError> {
    match properties {
        [] => {
            let mut b = LtsBuilder::new();
            b.add_state()?;
            Ok(b.build()?)
        }
        [one] => Ok((*one).clone()),
        many => compose(many, config),
    }
}

/// Like [`compose`], but also returns the tuple behind each state.
pub fn compose_with_tuples(
    components: &[&Lts],
    config: &Config,
) -> Result<Composition, ComposeError> {
    build(components, config, true, Layout::Auto)
}

/// Records the product as it is discovered.
struct Recorder {
    builder: LtsBuilder,
    /// Transitions into the (not yet numbered) error state.
    into_error: Vec<(u32, ActionId)>,
    initial_is_error: bool,
    keep_tuples: bool,
    tuples: Vec<StateId>,
    /// Transitions stored so far (into the error state too).
    transitions: usize,
    /// States numbered so far (the largest id seen, plus one).
    states: usize,
    /// What each stored state costs beyond its unit: its tuple, when kept.
    state_bytes: usize,
    /// [`Config::max_states`]: states plus the transitions' bytes in state units (see there).
    limit: Option<usize>,
    /// [`Config::held`]: units earlier constructions of the check still hold.
    held: usize,
}

impl Recorder {
    /// The units charged so far: a state each, plus the stored transitions and tuples in
    /// [`Config::STATE_BYTES`].
    fn units(&self) -> usize {
        self.states
            + Config::units_for_bytes(
                self.transitions * Config::TRANSITION_BYTES + self.states * self.state_bytes,
            )
    }

    /// Counts one transition between states below `states`; fails once over the limit.
    #[inline]
    fn charge(&mut self, states: usize) -> Result<(), ComposeError> {
        self.transitions += 1;
        self.states = self.states.max(states);
        match self.limit {
            Some(limit) if self.units().saturating_add(self.held) > limit => {
                Err(ComposeError::StateLimit { limit })
            }
            _ => Ok(()),
        }
    }
}

impl Visitor for Recorder {
    /// Building the LTS allocates its CSR (an offset per state, 8 bytes per transition) beside
    /// the builder's transitions.
    fn growth_bytes(&self) -> usize {
        self.states * 4 + self.transitions * 8
    }

    // Records edges, which a slab walk does not report.
    const SLABS: bool = false;

    fn expand(&mut self, id: u32, tuple: &[StateId]) -> Option<crate::engine::explore::Hit> {
        if self.keep_tuples {
            debug_assert_eq!(self.tuples.len(), id as usize * tuple.len());
            self.tuples.extend_from_slice(tuple);
        }
        None
    }

    fn edge(&mut self, source: u32, action: ActionId, target: u32) -> Result<(), ComposeError> {
        self.charge(source.max(target) as usize + 1)?;
        self.builder
            .ensure_states(source.max(target) as usize + 1)?;
        self.builder.add_transition(
            StateId::from_u32(source),
            action,
            StateId::from_u32(target),
        )?;
        Ok(())
    }

    fn error(
        &mut self,
        source: Option<u32>,
        action: ActionId,
        _: usize,
    ) -> Option<crate::verdict::Violation> {
        match source {
            Some(s) => {
                self.into_error.push((s, action));
                // Counted now, stored at the end; a limit hit here is reported there.
                self.transitions += 1;
            }
            None => self.initial_is_error = true,
        }
        None
    }
}

pub(crate) fn build(
    components: &[&Lts],
    config: &Config,
    keep_tuples: bool,
    layout: Layout,
) -> Result<Composition, ComposeError> {
    build_product(&Product::new(components)?, config, keep_tuples, layout)
}

/// Like [`compose_with_tuples`], under LTSA's action `priority` (see [`crate::priority`]):
/// transitions a state's preferred transitions prune are not built, nor what only they reach.
///
/// ```
/// use guarantor_compose::{compose_with_priority, Config, Priority};
/// use guarantor_lts::{LtsBuilder, StateId};
/// let mut b = LtsBuilder::new();
/// b.ensure_states(3)?;
/// b.add_transition_named(StateId::must(0), "fast", StateId::must(1))?;
/// b.add_transition_named(StateId::must(0), "slow", StateId::must(2))?;
/// let lts = b.build()?;
/// let c = compose_with_priority(&[&lts], &Priority::high(["fast"]), &Config::default())?;
/// assert_eq!((c.lts().num_states(), c.lts().num_transitions()), (2, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`compose`].
pub fn compose_with_priority(
    components: &[&Lts],
    priority: &crate::Priority,
    config: &Config,
) -> Result<Composition, ComposeError> {
    let product = Product::with_priority(components, priority)?;
    build_product(&product, config, true, Layout::Auto)
}

fn build_product(
    product: &Product<'_>,
    config: &Config,
    keep_tuples: bool,
    layout: Layout,
) -> Result<Composition, ComposeError> {
    let mut budget = config.budget()?;
    let mut rec = Recorder {
        builder: LtsBuilder::with_alphabet(product.alphabet().clone()),
        into_error: Vec::new(),
        initial_is_error: false,
        keep_tuples,
        tuples: Vec::new(),
        transitions: 0,
        states: 0,
        state_bytes: if keep_tuples {
            product.width() * std::mem::size_of::<StateId>()
        } else {
            0
        },
        limit: config.max_states,
        held: config.held(),
    };
    let walk = run(product, &mut rec, &mut budget, false, layout)?;
    let states = walk.stats.states;
    let has_error = rec.initial_is_error || !rec.into_error.is_empty();
    budget.check_states(states + usize::from(has_error))?;
    rec.states = states + usize::from(has_error);
    budget.check_states(rec.units())?;
    config.check_memory_for(rec.growth_bytes())?;
    let mut b = rec.builder;
    b.ensure_states(states)?;
    if has_error {
        let pi = b.add_state()?;
        b.set_error(pi)?;
        if rec.initial_is_error {
            b.set_initial(pi)?;
        }
        for (s, a) in rec.into_error {
            b.add_transition(StateId::from_u32(s), a, pi)?;
        }
    }
    Ok(Composition {
        lts: b.build()?,
        width: product.width(),
        tuples: rec.tuples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::ring;

    #[test]
    fn every_layout_builds_the_same_lts() {
        let (a, b, c) = (ring(3, "x"), ring(4, "y"), ring(5, "z"));
        let comps = [&a, &b, &c];
        let packed = build(&comps, &Config::default(), true, Layout::Auto).unwrap();
        for layout in [Layout::Wide, Layout::Split] {
            let other = build(&comps, &Config::default(), true, layout).unwrap();
            assert_eq!(packed.lts(), other.lts());
            for s in packed.lts().states() {
                assert_eq!(packed.tuple(s), other.tuple(s));
            }
        }
        // `tick` moves all rings together; the private shortcuts reset them independently, so the
        // product is larger than any one ring.
        assert!(packed.lts().num_states() > 5);
    }

    #[test]
    fn error_tuples_collapse_into_one_last_state() {
        let mut b = ring(2, "x").to_builder();
        let e = b.add_state().unwrap();
        b.set_error(e).unwrap();
        b.add_transition_named(StateId::must(1), "boom", e).unwrap();
        b.add_transition_named(StateId::must(0), "bang", e).unwrap();
        let m = b.build().unwrap();
        let c = compose_with_tuples(&[&m], &Config::default()).unwrap();
        let lts = c.lts();
        assert_eq!(lts.num_states(), 3);
        let pi = lts.error_state().unwrap();
        assert_eq!(pi.index(), 2);
        assert_eq!(c.tuple(pi), None);
        assert_eq!(lts.transitions().filter(|t| t.target == pi).count(), 2);
        assert!(matches!(
            compose(&[&m], &Config::default().with_max_states(2)),
            Err(ComposeError::StateLimit { limit: 2 })
        ));
    }

    #[test]
    fn stored_transitions_count_against_the_state_limit() {
        // One state with many self-loops: a single product state, but its transitions take far
        // more than one store state's worth of memory.
        let mut b = LtsBuilder::new();
        b.add_state().unwrap();
        for i in 0..100 {
            b.add_transition_named(StateId::must(0), &format!("a{i}"), StateId::must(0))
                .unwrap();
        }
        let loops = b.build().unwrap();
        let units = 1 + Config::units_for_bytes(100 * Config::TRANSITION_BYTES);
        let fits = compose(&[&loops], &Config::default().with_max_states(units)).unwrap();
        assert_eq!((fits.num_states(), fits.num_transitions()), (1, 100));
        let limit = units - 1;
        assert!(matches!(
            compose(&[&loops], &Config::default().with_max_states(limit)),
            Err(ComposeError::StateLimit { limit: l }) if l == limit
        ));
    }

    #[test]
    fn units_held_by_the_caller_count_against_the_state_limit() {
        // Two compositions that each fit the limit alone, the first kept while the second is
        // built: the second fails, reporting the whole limit, and fits again once released.
        let (a, b) = (ring(6, "a"), ring(7, "b"));
        let fits = |limit| compose(&[&a, &b], &Config::default().with_max_states(limit)).is_ok();
        let need = (1..1000).find(|&limit| fits(limit)).unwrap();
        let config = Config::default().with_max_states(need);
        let first = compose(&[&a, &b], &config).unwrap();
        let holding = config.holding(Config::units_of(&first));
        assert!(matches!(
            compose(&[&a, &b], &holding),
            Err(ComposeError::StateLimit { limit }) if limit == need
        ));
        drop((first, holding));
        assert!(compose(&[&a, &b], &config).is_ok());
    }
}
