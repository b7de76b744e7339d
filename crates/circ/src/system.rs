//! The system as the algorithm sees it ([`PreparedSystem`]), and the trace operations the
//! counterexample analysis needs: membership of projections in abstract components, greedy
//! embedding of a trace into a component, and merging per-component traces into one.
//!
//! **Preparation.** The paper assumes one deterministic property `P` whose alphabet lies inside the
//! components', and components without `ERROR` states. LTSA inputs need not fit, so [`prepare`]
//! rewrites them into an equivalent system that does:
//! - several properties become their composition (deterministic, and violated exactly when one of
//!   them is, by Lemma 1);
//! - a component with an `ERROR` state gets a fresh private action `__circ_error_<c>` looping on
//!   that state (which loses its other moves and its error mark), and the property gets a
//!   one-state conjunct over that action that forbids it: reaching `ERROR` is then a property
//!   violation one step later;
//! - property actions that no component has would let `P_err` move alone; an `env` component with
//!   one state looping on them keeps that behaviour inside the rule;
//! - in two-way mode each group is composed eagerly into one component.
//!
//! Certificates refer to the prepared components, each standing for a set of the original ones
//! ([`PreparedSystem::stands_for`]: one component, a group, or none for `env`), so they are
//! re-checked against [`PreparedSystem::components`] and [`PreparedSystem::property`].
//!
//! Actions are numbered globally (`u32`, index into [`PreparedSystem::action_names`]); alphabets
//! are `Vec<bool>` over that numbering. Traces are `Vec<u32>`.

use guarantor_compose::replay::{Fill, embed};
use guarantor_compose::{Budget, ComposeError, Config, compose, error_lts, merge_properties};
use guarantor_lts::{ActionId, ComponentId, Lts, LtsBuilder, StateId};
use rustc_hash::FxHashMap;

use crate::config::Decomposition;
use crate::error::CircError;

/// A set of global actions.
pub(crate) type ActSet = Vec<bool>;

/// The system CIRC-AG_N works on: prepared components, one deterministic property, and a global
/// numbering of actions. See the module docs for what preparation changes.
#[derive(Clone, Debug)]
pub struct PreparedSystem {
    names: Vec<String>,
    components: Vec<Lts>,
    stands_for: Vec<Vec<ComponentId>>,
    property: Lts,
    /// `alpha[c][a]`: component `c` has global action `a`.
    alpha: Vec<ActSet>,
    prop_alpha: ActSet,
    /// Global action of each local action id, per component (`None` for tau).
    to_global: Vec<Vec<Option<u32>>>,
    /// Local id in the property of each global action.
    prop_local: Vec<Option<ActionId>>,
    /// The `__circ_error_<c>` actions.
    error_actions: ActSet,
}

/// Builds the [`PreparedSystem`] of `components` and `properties` for `mode`.
///
/// # Errors
/// [`CircError::NoComponents`], [`CircError::BadGrouping`], a nondeterministic property
/// ([`guarantor_compose::ComposeError::PropertyNotDeterministic`]) or a composition budget.
pub fn prepare(
    components: &[&Lts],
    properties: &[&Lts],
    mode: &Decomposition,
    config: &Config,
) -> Result<PreparedSystem, CircError> {
    if components.is_empty() {
        return Err(CircError::NoComponents);
    }
    for p in properties {
        error_lts(p)?; // rejects nondeterministic properties up front
    }
    let mut taken: Vec<&str> = components
        .iter()
        .chain(properties)
        .flat_map(|l| l.alphabet().iter().map(|(_, n)| n))
        .collect();
    taken.sort_unstable();
    let mut comps = Vec::with_capacity(components.len());
    let mut forbid = Vec::new();
    for (c, m) in components.iter().enumerate() {
        match m.error_state() {
            None => comps.push((*m).clone()),
            Some(e) => {
                let name = fresh_name(&taken, &format!("__circ_error_{c}"));
                comps.push(error_as_action(m, e, &name)?);
                forbid.push(forbidding(&name)?);
            }
        }
    }
    let mut stands_for: Vec<Vec<ComponentId>> = ComponentId::range(components.len())
        .map(|c| vec![c])
        .collect();
    let mut all_props: Vec<&Lts> = properties.to_vec();
    all_props.extend(forbid.iter());
    let property = merge_properties(&all_props, config)?;
    if let Some(env) = environment(&comps, &property)? {
        comps.push(env);
        stands_for.push(Vec::new());
    }
    if let Decomposition::TwoWay { first } = mode {
        (comps, stands_for) = group(
            &comps,
            &stands_for,
            components.len(),
            first.as_deref(),
            config,
        )?;
    }
    Ok(PreparedSystem::new(comps, stands_for, property))
}

/// A name starting with `base` that `taken` (sorted) does not contain.
fn fresh_name(taken: &[&str], base: &str) -> String {
    let mut name = base.to_owned();
    while taken.binary_search(&name.as_str()).is_ok() {
        name.push('_');
    }
    name
}

/// `m` with its error state `e` turned into a plain state whose only move is `name` (a loop).
fn error_as_action(m: &Lts, e: StateId, name: &str) -> Result<Lts, CircError> {
    let mut b = LtsBuilder::with_alphabet(m.alphabet().clone());
    b.ensure_states(m.num_states())?;
    b.set_initial(m.initial())?;
    for t in m.transitions().filter(|t| t.source != e) {
        b.add_transition(t.source, t.action, t.target)?;
    }
    b.add_transition_named(e, name, e)?;
    Ok(b.build()?)
}

/// A one-state property over `{name}` that forbids `name`.
fn forbidding(name: &str) -> Result<Lts, CircError> {
    let mut b = LtsBuilder::new();
    b.add_state()?;
    b.action(name)?;
    Ok(b.build()?)
}

/// The `env` component: one state looping on the property actions no component has.
fn environment(comps: &[Lts], property: &Lts) -> Result<Option<Lts>, CircError> {
    let orphans: Vec<&str> = property
        .alphabet()
        .iter()
        .filter(|&(a, n)| !a.is_tau() && !comps.iter().any(|m| m.alphabet().contains(n)))
        .map(|(_, n)| n)
        .collect();
    if orphans.is_empty() {
        return Ok(None);
    }
    let mut b = LtsBuilder::new();
    let s = b.add_state()?;
    for n in orphans {
        b.add_transition_named(s, n, s)?;
    }
    Ok(Some(b.build()?))
}

/// Composes the components into two groups: those in `first` (default: the first half, rounded
/// up) and the rest; the environment, if any, joins the first group.
fn group(
    comps: &[Lts],
    stands_for: &[Vec<ComponentId>],
    original: usize,
    first: Option<&[ComponentId]>,
    config: &Config,
) -> Result<(Vec<Lts>, Vec<Vec<ComponentId>>), CircError> {
    if let Some(c) = first.into_iter().flatten().find(|c| c.index() >= original) {
        return Err(CircError::BadGrouping {
            reason: format!("the first group names component {c}, but there are {original}"),
        });
    }
    let in_second = |c: usize| match first {
        _ if c >= original => false, // the environment
        Some(first) => !first.contains(&ComponentId::must(c)),
        None => 2 * c >= original,
    };
    let mut out = Vec::new();
    let mut out_stands_for = Vec::new();
    for second in [false, true] {
        let members: Vec<usize> = (0..comps.len())
            .filter(|&c| in_second(c) == second)
            .collect();
        if members.is_empty() {
            continue;
        }
        let refs: Vec<&Lts> = members.iter().map(|&c| &comps[c]).collect();
        out.push(if refs.len() == 1 {
            refs[0].clone()
        } else {
            compose(&refs, config)?
        });
        out_stands_for.push(
            members
                .iter()
                .flat_map(|&c| stands_for[c].iter().copied())
                .collect(),
        );
    }
    Ok((out, out_stands_for))
}

impl PreparedSystem {
    fn new(components: Vec<Lts>, stands_for: Vec<Vec<ComponentId>>, property: Lts) -> Self {
        let mut index: FxHashMap<String, u32> = FxHashMap::default();
        let mut names = Vec::new();
        let mut intern = |n: &str| -> u32 {
            *index.entry(n.to_owned()).or_insert_with(|| {
                names.push(n.to_owned());
                (names.len() - 1) as u32
            })
        };
        let map = |l: &Lts, intern: &mut dyn FnMut(&str) -> u32| -> Vec<Option<u32>> {
            let mut out = vec![None; l.alphabet().id_bound()];
            for (a, n) in l.alphabet().iter().filter(|(a, _)| !a.is_tau()) {
                out[a.index()] = Some(intern(n));
            }
            out
        };
        let to_global: Vec<Vec<Option<u32>>> =
            components.iter().map(|m| map(m, &mut intern)).collect();
        let prop_to_global = map(&property, &mut intern);
        let width = names.len();
        let set_of = |g: &[Option<u32>]| {
            let mut s = vec![false; width];
            for a in g.iter().flatten() {
                s[*a as usize] = true;
            }
            s
        };
        let alpha = to_global.iter().map(|g| set_of(g)).collect();
        let prop_alpha = set_of(&prop_to_global);
        let mut prop_local = vec![None; width];
        for (local, g) in prop_to_global.iter().enumerate() {
            if let Some(g) = g {
                prop_local[*g as usize] = Some(ActionId::must(local));
            }
        }
        let error_actions = names
            .iter()
            .map(|n| n.starts_with("__circ_error_"))
            .collect();
        Self {
            names,
            components,
            stands_for,
            property,
            alpha,
            prop_alpha,
            to_global,
            prop_local,
            error_actions,
        }
    }

    /// The prepared components, in rule order.
    pub fn components(&self) -> &[Lts] {
        &self.components
    }

    /// For each prepared component, the original components it stands for: itself, the members
    /// of its group in two-way mode, or none for the `env` component preparation adds for
    /// property actions no component has (see the module docs).
    pub fn stands_for(&self) -> &[Vec<ComponentId>] {
        &self.stands_for
    }

    /// The single deterministic property.
    pub fn property(&self) -> &Lts {
        &self.property
    }

    /// The global action names.
    pub fn action_names(&self) -> &[String] {
        &self.names
    }

    /// Number of components.
    pub(crate) fn len(&self) -> usize {
        self.components.len()
    }

    /// Number of global actions.
    pub(crate) fn width(&self) -> usize {
        self.names.len()
    }

    /// Alphabet of component `c`.
    pub(crate) fn alpha(&self, c: usize) -> &ActSet {
        &self.alpha[c]
    }

    /// Alphabet of the property.
    pub(crate) fn prop_alpha(&self) -> &ActSet {
        &self.prop_alpha
    }

    /// Name of global action `a`.
    pub(crate) fn name(&self, a: u32) -> &str {
        &self.names[a as usize]
    }

    /// The interface alphabet `alpha J_c`: actions of `c` that another component has.
    pub(crate) fn interface(&self, c: usize) -> ActSet {
        (0..self.width())
            .map(|a| self.alpha[c][a] && (0..self.len()).any(|d| d != c && self.alpha[d][a]))
            .collect()
    }

    /// The completeness alphabet `alpha_F(g_c) = (alpha M_c n alpha P) u alpha J_c`.
    pub(crate) fn completeness(&self, c: usize) -> ActSet {
        let j = self.interface(c);
        (0..self.width())
            .map(|a| j[a] || (self.alpha[c][a] && self.prop_alpha[a]))
            .collect()
    }

    /// The trace as action names, without the error actions added by preparation.
    pub(crate) fn trace_names(&self, trace: &[u32]) -> Vec<String> {
        trace
            .iter()
            .filter(|&&a| !self.error_actions[a as usize])
            .map(|&a| self.names[a as usize].clone())
            .collect()
    }

    /// The global ids of a trace of names (names outside the system are skipped).
    pub(crate) fn trace_ids<S: AsRef<str>>(&self, trace: &[S]) -> Vec<u32> {
        trace
            .iter()
            .filter_map(|n| self.names.iter().position(|m| m == n.as_ref()))
            .map(|a| a as u32)
            .collect()
    }

    /// Whether `trace` projected on `sigma` is a trace of component `c` projected on `sigma`
    /// (`trace|sigma in L(M_c|sigma)`).
    pub(crate) fn in_projection(&self, c: usize, trace: &[u32], sigma: &ActSet) -> bool {
        let m = &self.components[c];
        let g = &self.to_global[c];
        let seen = |a: ActionId| g[a.index()].is_some_and(|x| sigma[x as usize]);
        let mut set = vec![false; m.num_states()];
        let mut current = closure(m, &[m.initial()], &seen, &mut set);
        for &a in trace
            .iter()
            .filter(|&&a| sigma[a as usize] && self.alpha[c][a as usize])
        {
            let next: Vec<StateId> = current
                .iter()
                .flat_map(|&s| m.outgoing(s))
                .filter(|e| g[e.action.index()] == Some(a))
                .map(|e| e.target)
                .collect();
            set.fill(false);
            current = closure(m, &next, &seen, &mut set);
            if current.is_empty() {
                return false;
            }
        }
        true
    }

    /// The length of the shortest prefix of `trace` whose projection violates the property.
    pub(crate) fn violation_prefix(&self, trace: &[u32]) -> Option<usize> {
        let p = &self.property;
        let mut s = p.initial();
        if p.is_error(s) {
            return Some(0);
        }
        for (i, &a) in trace.iter().enumerate() {
            let Some(local) = self.prop_local[a as usize] else {
                continue;
            };
            match p.successors(s, local).next() {
                Some(t) if !p.is_error(t) => s = t,
                _ => return Some(i + 1),
            }
        }
        None
    }

    /// Greedy embedding of `trace` into component `c`: a run of `c` in which the trace's actions
    /// that `c` has and that are `matched` occur in order, actions of `inserted` may be added
    /// anywhere before the last matched step, and `c`'s other actions are silent. Returns the
    /// trace with the inserted actions (`guarantor_compose::replay::embed`: the fewest moves, so
    /// few are inserted), or `None`.
    ///
    /// # Errors
    /// The budget's.
    pub(crate) fn embed(
        &self,
        c: usize,
        trace: &[u32],
        matched: &ActSet,
        inserted: &ActSet,
        budget: &mut Budget<'_>,
    ) -> Result<Option<Vec<u32>>, ComposeError> {
        let m = &self.components[c];
        let g = &self.to_global[c];
        if trace.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let run = embed(
            m.initial(),
            trace.len(),
            |&s, pos, out| {
                let Some(&a) = trace.get(pos) else {
                    return;
                };
                // A step of the trace `c` does not take part in: `c` stays.
                if !(self.alpha[c][a as usize] && matched[a as usize]) {
                    out.push((Fill::Letter, Some(a), s));
                }
                for e in m.outgoing(s) {
                    match g[e.action.index()] {
                        Some(b) if matched[b as usize] => {
                            if b == a {
                                out.push((Fill::Letter, Some(b), e.target));
                            }
                        }
                        Some(b) if inserted[b as usize] => {
                            out.push((Fill::Hidden, Some(b), e.target));
                        }
                        _ => out.push((Fill::Hidden, None, e.target)),
                    }
                }
            },
            |_| true,
            budget,
        )?;
        Ok(run.map(|run| run.into_iter().filter_map(|(emit, _)| emit).collect()))
    }
}

/// The states reachable from `from` by tau and unseen actions; `set` is scratch (all false).
fn closure(
    m: &Lts,
    from: &[StateId],
    seen: &dyn Fn(ActionId) -> bool,
    set: &mut [bool],
) -> Vec<StateId> {
    let mut out = Vec::new();
    let mut work: Vec<StateId> = Vec::new();
    for &s in from {
        if !set[s.index()] {
            set[s.index()] = true;
            work.push(s);
        }
    }
    while let Some(s) = work.pop() {
        out.push(s);
        for e in m.outgoing(s) {
            if (e.action.is_tau() || !seen(e.action)) && !set[e.target.index()] {
                set[e.target.index()] = true;
                work.push(e.target);
            }
        }
    }
    out
}

/// Merges per-component traces into one trace `t` with `t|own[i] = traces[i]` for every `i`
/// (`own[i]` is the alphabet trace `i` is over). Greedy: an action is emitted when it heads every
/// trace whose alphabet has it; the product of chains is confluent, so greedy finds a merge when
/// one exists. `None` when the traces disagree.
pub(crate) fn merge(traces: &[Vec<u32>], own: &[ActSet]) -> Option<Vec<u32>> {
    let mut pos = vec![0usize; traces.len()];
    let mut out = Vec::new();
    loop {
        let heads: Vec<Option<u32>> = traces
            .iter()
            .zip(&pos)
            .map(|(t, &p)| t.get(p).copied())
            .collect();
        if heads.iter().all(Option::is_none) {
            return Some(out);
        }
        let ready = heads.iter().flatten().copied().find(|&b| {
            own.iter()
                .zip(&heads)
                .all(|(o, h)| !o[b as usize] || *h == Some(b))
        })?;
        out.push(ready);
        for (i, o) in own.iter().enumerate() {
            if o[ready as usize] {
                pos[i] += 1;
            }
        }
    }
}
