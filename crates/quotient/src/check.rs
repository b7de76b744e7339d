//! Checking a system with quotient assumptions: [`check_with_quotient`] (one component replaced)
//! and [`check_with_quotients`] (several, one after another).
//!
//! Each stage replaces one component `N` by `N/~`, synthesised against the composition `M` of all
//! the *current* other components (earlier stages' quotients included) and the properties. Every
//! stage is invertible, so the final system satisfies the properties exactly when the original
//! does, and a plain [`check_safety`] of the final system gives the verdict.
//!
//! A violation of the final system is lifted back stage by stage to a counterexample of the
//! original components, through the homomorphisms: for a stage with quotient map `h`, first the
//! states of the quotient system that are both reachable and able to reach an error are collected
//! (a set `G`); then the system with `N` restored is searched breadth first, visiting only tuples
//! whose image under `h` (applied to `N`'s slot) lies in `G`. Every concrete error path maps to an
//! error path of the quotient system, whose states all lie in `G`, so the restricted search finds a
//! shortest concrete counterexample while exploring only what the quotient system says is
//! relevant. The result replays with [`guarantor_compose::replay::replay`] on the original
//! components.
//!
//! When the search that starts every synthesis finds a violation (see
//! [`Synthesis::violation`]), its run is checked against the original components
//! ([`first_violation`]); if it drives them into an error, its prefix up to that error is the
//! counterexample and the check ends there: no later stage, no final check, no lifting (lifting
//! first explores the whole quotient system).

use std::ops::ControlFlow;

use guarantor_compose::error_lts::error_ltss;
use guarantor_compose::product::{Product, Scratch};
use guarantor_compose::replay::{Fill, embed, first_violation};
use guarantor_compose::{
    Assumption, Certificate, Config, Counterexample, Stats, Verdict, Violation, check_safety,
    compose,
};
use guarantor_lts::{ComponentId, Lts, LtsBuilder, PropertyId, StateId};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::config::QuotientConfig;
use crate::error::QuotientError;
use crate::synth::{StepSize, Synthesis, synthesize};

/// One replaced component.
#[derive(Clone, Debug)]
pub struct Stage {
    /// The replaced component.
    pub component: ComponentId,
    /// States of the composition `M` of the other components it was synthesised against.
    pub environment_states: usize,
    /// The synthesis result: assumption, homomorphism, steps, sizes.
    pub synthesis: Synthesis,
}

/// The result of a check with quotient assumptions.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct QuotientReport {
    /// Holds (with every stage's assumption in the certificate, standing for its component) or
    /// Violated (with a counterexample of the *original* components).
    pub verdict: Verdict,
    /// The stages, in the order they ran.
    pub stages: Vec<Stage>,
    /// Refinement steps over all stages.
    pub refinement_steps: usize,
    /// States of the assumptions, summed over the stages.
    pub assumption_states: usize,
    /// Transitions of the assumptions, summed over the stages.
    pub assumption_transitions: usize,
    /// Assumption sizes after each round, all stages one after another.
    pub sizes_per_step: Vec<StepSize>,
    /// Statistics of the final check of the system with the assumptions in place; or, when the
    /// search before a synthesis found a violation of the original components (the check then
    /// ends there, without a final check), of that search.
    pub check_stats: Stats,
}

/// Checks `components || properties` with component `replaced` replaced by its quotient
/// assumption against the others.
///
/// ```
/// use guarantor_lts::{ComponentId, Lts, LtsBuilder, StateId};
/// use guarantor_quotient::{check_with_quotient, QuotientConfig};
/// fn lts(edges: &[(usize, &str, usize)]) -> Lts {
///     let mut b = LtsBuilder::new();
///     for &(s, a, t) in edges {
///         b.ensure_states(s.max(t) + 1).unwrap();
///         b.add_transition_named(StateId::must(s), a, StateId::must(t)).unwrap();
///     }
///     b.build().unwrap()
/// }
/// let input = lts(&[(0, "input", 1), (1, "send", 2), (2, "ack", 0)]);
/// let output = lts(&[(0, "send", 1), (1, "output", 2), (2, "ack", 0)]);
/// let order = lts(&[(0, "input", 1), (1, "output", 0)]);
/// let report = check_with_quotient(
///     &[&input, &output],
///     &[&order],
///     ComponentId::must(1),
///     &QuotientConfig::default(),
/// )?;
/// assert!(report.verdict.is_holds());
/// assert!(report.assumption_states <= output.num_states());
/// # Ok::<(), guarantor_quotient::QuotientError>(())
/// ```
///
/// # Errors
/// No components or `replaced` out of range; a nondeterministic property; an exhausted
/// [`QuotientConfig::compose`] budget.
pub fn check_with_quotient(
    components: &[&Lts],
    properties: &[&Lts],
    replaced: ComponentId,
    config: &QuotientConfig,
) -> Result<QuotientReport, QuotientError> {
    check_with_quotients(components, properties, &[replaced], config)
}

/// The default replacement order: every component, largest (by states, then transitions) first,
/// since a large component has the most to gain and is the most expensive to keep.
pub fn default_order(components: &[&Lts]) -> Vec<ComponentId> {
    let mut order: Vec<ComponentId> = ComponentId::range(components.len()).collect();
    order.sort_by_key(|&c| {
        let lts = components[c.index()];
        std::cmp::Reverse((lts.num_states(), lts.num_transitions()))
    });
    order
}

/// Checks `components || properties` replacing the components listed in `order`, one at a time,
/// each by its quotient against all current others (see the module docs).
///
/// # Errors
/// As [`check_with_quotient`]; also a component listed twice.
pub fn check_with_quotients(
    components: &[&Lts],
    properties: &[&Lts],
    order: &[ComponentId],
    config: &QuotientConfig,
) -> Result<QuotientReport, QuotientError> {
    validate(components, order)?;
    let mut current: Vec<Lts> = components.iter().map(|&c| c.clone()).collect();
    let mut stages = Vec::new();
    let mut replaced_originals = Vec::new();
    for r in order.iter().map(|c| c.index()) {
        // One running total for the check (Config::holding): each construction may use only
        // what the ones still alive leave of the state limit. The stages so far are kept to the
        // end; `M` is kept while its synthesis runs.
        let kept = stages_units(&stages);
        let m = rest(&current, r, &config.compose.holding(kept))?;
        let synthesis = synthesize(
            &m,
            &current[r],
            properties,
            &holding(config, kept + Config::units_of(&m)),
        )?;
        if let Some(found) = confirmed_violation(components, properties, &synthesis)? {
            let stats = synthesis
                .violation
                .as_ref()
                .map_or_else(Stats::default, |v| Stats::new(v.visited, v.moves));
            stages.push(Stage {
                component: ComponentId::must(r),
                environment_states: m.num_states(),
                synthesis,
            });
            return Ok(summarise(Verdict::Violated(found), stages, stats));
        }
        let old = std::mem::replace(&mut current[r], synthesis.assumption.clone());
        replaced_originals.push(old);
        stages.push(Stage {
            component: ComponentId::must(r),
            environment_states: m.num_states(),
            synthesis,
        });
    }
    let refs: Vec<&Lts> = current.iter().collect();
    let compose = config.compose.holding(stages_units(&stages));
    let report = check_safety(&refs, properties, &compose)?;
    let verdict = match report.verdict {
        Verdict::Violated(_) => Verdict::Violated(lift(
            &mut current,
            &stages,
            replaced_originals,
            properties,
            &compose,
        )?),
        _ => Verdict::Holds(certificate(&stages)),
    };
    Ok(summarise(verdict, stages, report.stats))
}

/// The counterexample of the search before `synthesis`, if it found a violation and its trace
/// drives the *original* components into one (at a later stage `M` holds earlier quotients, whose
/// runs need not be runs of the originals; then the violation is left to the final check).
///
/// The trace is cut where the originals first fail: a prefix may already reach an error of the
/// originals while the rest is a run of an earlier stage's quotient only (say `[b]` when a
/// component's `ERROR` is a tau step from the start and only the quotient of another component
/// can do `b`), and a counterexample must be a run of the original components.
fn confirmed_violation(
    components: &[&Lts],
    properties: &[&Lts],
    synthesis: &Synthesis,
) -> Result<Option<Counterexample>, QuotientError> {
    let Some(v) = &synthesis.violation else {
        return Ok(None);
    };
    Ok(first_violation(components, properties, &v.trace)?
        .map(|(len, violation)| Counterexample::new(v.trace[..len].to_vec(), violation)))
}

fn validate(components: &[&Lts], order: &[ComponentId]) -> Result<(), QuotientError> {
    if components.is_empty() {
        return Err(QuotientError::NoComponents);
    }
    let mut seen = vec![false; components.len()];
    for &r in order {
        let slot = seen
            .get_mut(r.index())
            .ok_or(QuotientError::NoSuchComponent {
                replaced: r,
                components: components.len(),
            })?;
        if std::mem::replace(slot, true) {
            return Err(QuotientError::RepeatedInOrder { component: r });
        }
    }
    Ok(())
}

/// `config` with both budgets holding `units` of the state limit (see [`Config::holding`]).
fn holding(config: &QuotientConfig, units: usize) -> QuotientConfig {
    config
        .clone()
        .with_compose(config.compose.holding(units))
        .with_refinement(config.refinement.holding(units))
}

/// What the stages keep to the end of the check, in units of the state limit: each assumption
/// and its homomorphism (a class per state of the replaced component).
fn stages_units(stages: &[Stage]) -> usize {
    stages
        .iter()
        .map(|s| {
            Config::units_of(&s.synthesis.assumption)
                + Config::units_for_bytes(s.synthesis.homomorphism.classes.len() * 4)
        })
        .sum()
}

/// The composition of every current component but `r` (one state, empty alphabet, if none).
fn rest(current: &[Lts], r: usize, config: &Config) -> Result<Lts, QuotientError> {
    let others: Vec<&Lts> = current
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != r)
        .map(|(_, c)| c)
        .collect();
    if others.is_empty() {
        let mut b = LtsBuilder::new();
        b.add_state()?;
        return Ok(b.build()?);
    }
    Ok(compose(&others, config)?)
}

fn certificate(stages: &[Stage]) -> Certificate {
    Certificate::new(stages.iter().map(|s| {
        Assumption::new([s.component], s.synthesis.assumption.clone())
            .with_classes(s.synthesis.homomorphism.classes.clone())
    }))
}

fn summarise(verdict: Verdict, stages: Vec<Stage>, check_stats: Stats) -> QuotientReport {
    let sum = |f: fn(&Stage) -> usize| stages.iter().map(f).sum();
    QuotientReport {
        verdict,
        refinement_steps: sum(|s| s.synthesis.refinement_steps),
        assumption_states: sum(|s| s.synthesis.assumption.num_states()),
        assumption_transitions: sum(|s| s.synthesis.assumption.num_transitions()),
        sizes_per_step: stages
            .iter()
            .flat_map(|s| s.synthesis.sizes.iter().copied())
            .collect(),
        check_stats,
        stages,
    }
}

/// Lifts a violation of the system `current` (all stages applied) back to the original components,
/// undoing the stages last to first. `current` ends as the original system.
fn lift(
    current: &mut [Lts],
    stages: &[Stage],
    originals: Vec<Lts>,
    properties: &[&Lts],
    config: &Config,
) -> Result<Counterexample, QuotientError> {
    let errs = error_ltss(properties.iter().copied())?;
    let mut cex = None;
    for (stage, original) in stages.iter().zip(originals).rev() {
        let r = stage.component.index();
        let quotient_system: Vec<&Lts> = current.iter().chain(&errs).collect();
        let relevant = relevant_tuples(&quotient_system, config)?;
        // The search below runs next to the relevant tuples: a unit each, as a store state.
        let config = &config.holding(relevant.len());
        let abstract_lts = std::mem::replace(&mut current[r], original);
        let concrete: Vec<&Lts> = current.iter().chain(&errs).collect();
        let map = &stage.synthesis.homomorphism.classes;
        cex = Some(guided_search(
            &concrete,
            r,
            map,
            &relevant,
            current.len(),
            config,
        )?);
        drop(abstract_lts);
    }
    if let Some(c) = cex {
        return Ok(c);
    }
    // No stage: the final check's counterexample is already one of the originals.
    let refs: Vec<&Lts> = current.iter().collect();
    let report = check_safety(&refs, properties, config)?;
    report
        .verdict
        .counterexample()
        .cloned()
        .ok_or(QuotientError::LiftFailed)
}

/// The tuples of the product of `system` that are reachable and can reach an error tuple.
fn relevant_tuples(
    system: &[&Lts],
    config: &Config,
) -> Result<FxHashSet<Vec<StateId>>, QuotientError> {
    let mut budget = config.budget()?;
    let product = Product::new(system)?;
    let mut index: FxHashMap<Vec<StateId>, u32> = FxHashMap::default();
    let mut tuples: Vec<Vec<StateId>> = vec![product.initial()];
    index.insert(product.initial(), 0);
    let mut preds: Vec<Vec<u32>> = vec![Vec::new()];
    let mut errors = Vec::new();
    let mut scratch = Scratch::new();
    let mut next = 0;
    while next < tuples.len() {
        budget.tick()?;
        budget.check_states(tuples.len())?;
        let t = tuples[next].clone();
        let from = next as u32;
        next += 1;
        if product.error_component(&t).is_some() {
            errors.push(from);
            continue;
        }
        let _ = product.for_each_successor::<()>(&t, &mut scratch, |_, target| {
            let fresh = tuples.len() as u32;
            let id = *index.entry(target.to_vec()).or_insert(fresh);
            if id == fresh {
                tuples.push(target.to_vec());
                preds.push(Vec::new());
            }
            preds[id as usize].push(from);
            ControlFlow::Continue(())
        });
    }
    let mut keep = vec![false; tuples.len()];
    let mut work = errors;
    for &e in &work {
        keep[e as usize] = true;
    }
    while let Some(t) = work.pop() {
        for &p in &preds[t as usize] {
            if !std::mem::replace(&mut keep[p as usize], true) {
                work.push(p);
            }
        }
    }
    Ok(tuples
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(t, _)| t)
        .collect())
}

/// A shortest error path of `system` among tuples whose image (slot `r` through `map`) is in
/// `relevant`; `components` is how many entries of `system` are components (the rest are property
/// error LTSs).
fn guided_search(
    system: &[&Lts],
    r: usize,
    map: &[u32],
    relevant: &FxHashSet<Vec<StateId>>,
    components: usize,
    config: &Config,
) -> Result<Counterexample, QuotientError> {
    let mut budget = config.budget()?;
    let product = Product::new(system)?;
    let image = |t: &[StateId]| {
        let mut v = t.to_vec();
        v[r] = StateId::from_u32(map[t[r].index()]);
        v
    };
    let start = product.initial();
    if !relevant.contains(&image(&start)) {
        return Err(QuotientError::LiftFailed);
    }
    // The empty word: the fewest moves to an error, through relevant tuples only.
    let mut scratch = Scratch::new();
    let run = embed(
        start.clone(),
        0,
        |t: &Vec<StateId>, _, out| {
            let _ = product.for_each_successor::<()>(t, &mut scratch, |a, target| {
                if relevant.contains(&image(target)) {
                    out.push((Fill::Hidden, a, target.to_vec()));
                }
                ControlFlow::Continue(())
            });
        },
        |t| product.error_component(t).is_some(),
        &mut budget,
    )?
    .ok_or(QuotientError::LiftFailed)?;
    let last = run.last().map_or(&start, |(_, t)| t);
    let c = product
        .error_component(last)
        .ok_or(QuotientError::LiftFailed)?;
    let violation = if c < components {
        Violation::ErrorState {
            component: ComponentId::must(c),
        }
    } else {
        Violation::Property {
            property: PropertyId::must(c - components),
        }
    };
    let trace = run
        .iter()
        .filter(|(a, _)| !a.is_tau())
        .map(|(a, _)| product.action_name(*a).to_owned())
        .collect();
    Ok(Counterexample::new(trace, violation))
}

#[cfg(test)]
mod budget_tests {
    use guarantor_compose::{ComposeError, Config};
    use guarantor_lts::{Lts, LtsBuilder, StateId};

    use super::*;

    fn ring(n: usize, action: &str) -> Lts {
        let mut b = LtsBuilder::new();
        b.ensure_states(n).unwrap();
        for i in 0..n {
            b.add_transition_named(StateId::must(i), action, StateId::must((i + 1) % n))
                .unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn a_tiny_state_limit_stops_the_quotient_check_with_a_budget_error() {
        let (m, n, p) = (ring(6, "a"), ring(5, "b"), ring(1, "a"));
        let unlimited = check_with_quotient(
            &[&m, &n],
            &[&p],
            ComponentId::must(1),
            &QuotientConfig::default(),
        );
        assert!(unlimited.unwrap().verdict.is_holds());
        let tiny = Config::default().with_max_states(3);
        let config = QuotientConfig::default()
            .with_compose(tiny.clone())
            .with_refinement(tiny);
        match check_with_quotient(&[&m, &n], &[&p], ComponentId::must(1), &config) {
            Err(QuotientError::Compose(e)) => assert!(e.is_budget(), "{e:?}"),
            other => panic!("expected a budget error, got {other:?}"),
        }
    }

    /// A ring of 6 states on `a` with ten self-loops per state: a rest `M` whose transitions
    /// weigh more than its states.
    fn busy_ring() -> Lts {
        let mut b = ring(6, "a").to_builder();
        for s in 0..6 {
            for x in 0..10 {
                b.add_transition_named(StateId::must(s), &format!("x{x}"), StateId::must(s))
                    .unwrap();
            }
        }
        b.build().unwrap()
    }

    #[test]
    fn constructions_that_fit_alone_but_not_together_stop_with_a_budget_error() {
        let (m, n, p) = (busy_ring(), ring(200, "b"), ring(1, "a"));
        let exact = |limit: usize| {
            let config = Config::default().with_max_states(limit);
            QuotientConfig::default()
                .with_refine(false)
                .with_compose(config.clone())
                .with_refinement(config)
        };
        // The smallest limit under which the exact synthesis against the composed rest finishes
        // when nothing else is held.
        let rest = compose(&[&m], &Config::default()).unwrap();
        let converges =
            |limit| synthesize(&rest, &n, &[&p], &exact(limit)).is_ok_and(|s| s.converged);
        let limit = (1..100_000).find(|&l| converges(l)).unwrap();
        // Each construction of the check fits that limit alone: composing the rest, the
        // synthesis, and the final check with the assumption it finds.
        let alone = Config::default().with_max_states(limit);
        assert!(compose(&[&m], &alone).is_ok());
        let synthesis = synthesize(&rest, &n, &[&p], &exact(limit)).unwrap();
        let fin = check_safety(&[&m, &synthesis.assumption], &[&p], &alone).unwrap();
        assert!(fin.verdict.is_holds());
        // Together they do not: the synthesis runs next to `M` and stops at the limit, and the
        // final check of the whole system (the assumption is then `N` itself) does not fit.
        assert!(Config::units_of(&rest) > 0);
        assert!(m.num_states() * n.num_states() > limit);
        match check_with_quotient(&[&m, &n], &[&p], ComponentId::must(1), &exact(limit)) {
            Err(QuotientError::Compose(ComposeError::StateLimit { limit: l })) => {
                assert_eq!(l, limit);
            }
            other => panic!("expected the state limit, got {other:?}"),
        }
        // With the rest's units to spare, the check answers.
        let roomy = exact(limit + Config::units_of(&rest));
        assert!(
            check_with_quotient(&[&m, &n], &[&p], ComponentId::must(1), &roomy)
                .unwrap()
                .verdict
                .is_holds()
        );
    }
}
