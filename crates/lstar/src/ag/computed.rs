//! Rule ASYM applied recursively with each level's *weakest* assumption computed instead of
//! learned (Giannakopoulou, Pasareanu, Barringer 2002, the construction Cobleigh et al. 2003 learn
//! towards): for `M0 || M1 || ... || Mk |= P`, level 0's assumption is the weakest assumption of
//! `M0` for `P` over its interface with the rest, `A0`; level `i` is the weakest assumption of
//! `Mi` for `A(i-1)`; the last component is checked against the last assumption. Because every
//! assumption is the weakest, the rule is complete at each level: the system satisfies `P` exactly
//! when the last check passes.
//!
//! **Why not learn.** The recursive learner ([`check_asym_n`](super::check_asym_n)) discharges
//! every conjecture of an outer level with a complete learning run of the inner levels, so the runs
//! multiply with the depth (measured on the dining philosophers: docs/benchmarks.md). Here each
//! level is one subset construction over a single component composed with the previous
//! assumption, so no two concrete components are ever composed and the work grows with the sizes
//! of the assumptions only.
//!
//! **Construction.** `Mi || A(i-1)_err` is composed, every action outside the interface
//! `Sigma_i = (alpha Mi u alpha A(i-1)) n alpha(M(i+1) || ...)` is hidden, and the result is
//! determinised; a subset holding pi is pi. The weakest assumption allows a trace unless it leads
//! to pi: transitions into pi are dropped, and a trace the product cannot follow at all (it is
//! blocked, so it is safe) goes to a universal state that allows everything. The result is
//! minimised.
//!
//! **Counterexamples.** A failing last check gives a run of the last component that violates the
//! last assumption; going back level by level, the run of `Mi || A(i-1)_err` that follows its
//! projection to pi is found by simulation (as rule ASYM's teacher does) and interleaved with it,
//! down to a run of the whole system that violates `P`.

use guarantor_compose::{
    Assumption, Certificate, ComposeError, Config, Counterexample, Verdict, check_safety, compose,
    error_lts,
};
use guarantor_lts::ops::{SubsetProgress, determinize_metered, hide, minimize_dfa_interruptible};
use guarantor_lts::{ComponentId, Lts, LtsBuilder, LtsError, StateId};

use super::asym::recursive_rule;
use super::{AgConfig, AgReport, AlphabetStats, chain, merge, names, project};
use crate::config::Stats;
use crate::error::LstarError;

/// The weakest assumption of one level, or the sign that the level violates its property whatever
/// the rest does (pi is reachable through its own actions alone).
enum Level {
    Assumption(Lts),
    ViolatedAlone,
}

/// Checks `components[0] || components[1] || ... |= property` with rule ASYM applied recursively,
/// each level's assumption being the weakest one, computed (see the [module docs](self)).
///
/// On [`Verdict::Holds`] the certificate lists the assumption of every level, like
/// [`check_asym_n`](super::check_asym_n)'s: the first is about components `"1,2,..."` and
/// satisfies `<A0> components[0] <property>`, the next is about `"2,..."` and satisfies
/// `<A1> components[1] <A0>`, and so on; the last component satisfies the last assumption.
/// `assumption_sizes` are the states of each level's assumption in order, and `interface` is the
/// outermost level's. No queries are asked, so the statistics are zero. On [`Verdict::Violated`]
/// the counterexample is a run of the whole system.
///
/// ```
/// use guarantor_lstar::ag::{AgConfig, check_asym_weakest};
/// use guarantor_lts::{Lts, LtsBuilder, StateId};
/// fn cycle(actions: &[&str]) -> Lts {
///     let mut b = LtsBuilder::new();
///     b.ensure_states(actions.len()).unwrap();
///     for (i, a) in actions.iter().enumerate() {
///         let next = StateId::must((i + 1) % actions.len());
///         b.add_transition_named(StateId::must(i), a, next).unwrap();
///     }
///     b.build().unwrap()
/// }
/// let input = cycle(&["input", "send", "ack"]);
/// let output = cycle(&["send", "output", "ack"]);
/// let order = cycle(&["input", "output"]);
/// let report = check_asym_weakest(&[&input, &output], &order, &AgConfig::default())?;
/// assert!(report.verdict.is_holds());
/// let wrong = cycle(&["output", "input"]);
/// let report = check_asym_weakest(&[&input, &output], &wrong, &AgConfig::default())?;
/// assert_eq!(report.verdict.counterexample().unwrap().trace, ["input"]);
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
///
/// # Errors
/// Budgets of the model checks and of the subset constructions ([`AgConfig::compose`]'s state
/// limit bounds each level's product, and each subset construction with its input: a *state* of
/// the subset construction is one subset, charged with its members and transitions in units of
/// [`Config::STATE_BYTES`]; its deadline reaches into the construction and into the
/// minimisation that follows); a nondeterministic property; an empty `components` is
/// [`LstarError::Unsupported`]. An `ERROR` state of the first component is part of the first
/// level's product, so its weakest assumption keeps the component out of it; one in any other
/// component makes the check monolithic, with an empty certificate, as for
/// [`check_asym`](super::check_asym) (whose docs say why).
pub fn check_asym_weakest(
    components: &[&Lts],
    property: &Lts,
    config: &AgConfig,
) -> Result<AgReport, LstarError> {
    recursive_rule(components, property, config, |_, _| {
        levels(components, property, config)
    })
}

/// The recursion, unrolled: `properties[i]` is level `i`'s property (`property`, then each
/// level's assumption in turn).
fn levels(components: &[&Lts], property: &Lts, config: &AgConfig) -> Result<AgReport, LstarError> {
    let n = components.len();
    let mut properties: Vec<Lts> = vec![property.clone()];
    let mut interfaces: Vec<Vec<String>> = Vec::with_capacity(n - 1);
    for (i, m) in components[..n - 1].iter().enumerate() {
        config.compose.budget()?;
        let rest = &components[i + 1..];
        let sigma = interface(m, &properties[i], rest);
        match weakest(m, &properties[i], &sigma, config)? {
            Level::Assumption(a) => {
                note_level(config, i, &a);
                properties.push(a);
                interfaces.push(sigma);
            }
            Level::ViolatedAlone => {
                interfaces.push(sigma);
                let cex = back(components, &properties, &interfaces, i, Vec::new(), config)?;
                return Ok(AgReport::without_assumptions(Verdict::Violated(cex)));
            }
        }
    }
    let last = check_safety(&[components[n - 1]], &[&properties[n - 1]], &config.compose)?;
    let verdict = match last.verdict {
        Verdict::Violated(cex) => {
            let whole = back(
                components,
                &properties,
                &interfaces,
                n - 2,
                cex.trace,
                config,
            )?;
            Verdict::Violated(whole)
        }
        _ => {
            let assumptions = properties
                .iter()
                .skip(1)
                .enumerate()
                .map(|(i, a)| Assumption::new((i + 1..n).map(ComponentId::must), a.clone()));
            Verdict::Holds(Certificate::new(assumptions))
        }
    };
    Ok(AgReport {
        verdict,
        stats: Stats::default(),
        assumption_sizes: properties.iter().skip(1).map(Lts::num_states).collect(),
        alphabet: AlphabetStats {
            refinements: 0,
            assumption_alphabet: interfaces.first().map_or(0, Vec::len),
            interface_alphabet: interfaces.first().map_or(0, Vec::len),
        },
        fallback: None,
        interface: interfaces.into_iter().next().unwrap_or_default(),
    })
}

/// `(alpha m u alpha property) n alpha rest`, in the order the names first appear.
fn interface(m: &Lts, property: &Lts, rest: &[&Lts]) -> Vec<String> {
    let mut sigma: Vec<String> = Vec::new();
    for name in names(m).chain(names(property)) {
        if rest.iter().any(|r| r.alphabet().contains(name)) && !sigma.iter().any(|s| s == name) {
            sigma.push(name.to_owned());
        }
    }
    sigma
}

/// The weakest assumption of `m` for `property` over `sigma` (see the module docs).
fn weakest(
    m: &Lts,
    property: &Lts,
    sigma: &[String],
    config: &AgConfig,
) -> Result<Level, LstarError> {
    let err = error_lts(property)?;
    let product = compose(&[m, &err], &config.compose)?;
    let hidden: Vec<&str> = names(&product)
        .filter(|n| !sigma.iter().any(|s| s == n))
        .collect();
    let limit = config.compose.max_states.unwrap_or(StateId::LIMIT);
    // Each intermediate is dropped as soon as the next exists: the peak is two of them, not three.
    config.compose.check_memory_for(lts_bytes(&product))?;
    let hidden = hide(&product, hidden);
    drop(product);
    let det = subset_construction(&hidden, limit, &config.compose)?;
    drop(hidden);
    if det.is_error(det.initial()) {
        return Ok(Level::ViolatedAlone);
    }
    let mut budget = config.compose.budget()?;
    // The complete DFA has a transition per state and interface action, next to `det`.
    budget.check_states(
        lts_units(&det)
            + Config::units_for_bytes(
                (det.num_states() + 1) * sigma.len() * Config::TRANSITION_BYTES,
            ),
    )?;
    // The builder's transitions (12 bytes) and the built CSR (8) are filled in one loop.
    config
        .compose
        .check_memory_for((det.num_states() + 1) * sigma.len() * Config::TRANSITION_BYTES)?;
    let mut b = LtsBuilder::new();
    let actions = sigma
        .iter()
        .map(|s| b.action(s))
        .collect::<Result<Vec<_>, _>>()?;
    let own: Vec<Option<guarantor_lts::ActionId>> =
        sigma.iter().map(|s| det.alphabet().get(s)).collect();
    b.ensure_states(det.num_states() + 1)?;
    let anything = StateId::must(det.num_states());
    for s in det.states().filter(|&s| !det.is_error(s)) {
        for (&a, o) in actions.iter().zip(&own) {
            let next = o.and_then(|o| det.outgoing_on(s, o).first());
            match next {
                Some(e) if det.is_error(e.target) => {}
                Some(e) => b.add_transition(s, a, e.target)?,
                None => b.add_transition(s, a, anything)?,
            }
        }
    }
    for &a in &actions {
        b.add_transition(anything, a, anything)?;
    }
    b.set_initial(det.initial())?;
    let complete = b.build()?;
    drop(det);
    // Minimising a DFA of a million states takes seconds: it looks at the clock as it goes.
    let mut stopped = None;
    let min = minimize_dfa_interruptible(&complete, |work| {
        budget.tick_by(work).map_err(|e| stopped = Some(e)).is_ok()
    })
    .map_err(|e| lts_error(e, limit, &mut stopped))?;
    Ok(Level::Assumption(min))
}

/// The memory of `lts` in units of [`Config::max_states`] (its CSR: an offset per state, 8 bytes
/// per transition).
fn lts_units(lts: &Lts) -> usize {
    Config::units_for_bytes(lts_bytes(lts))
}

/// The bytes of `lts`'s CSR: an offset per state, 8 bytes per transition.
fn lts_bytes(lts: &Lts) -> usize {
    lts.num_states() * 4 + lts.num_transitions() * 8
}

/// What a subset construction holds, in units of [`Config::max_states`]: one per subset (its
/// entry in the interner's index and its row of the result, about a store state's 48 bytes),
/// plus 4 bytes per member of a subset and 8 per transition of the result.
fn subset_units(p: &SubsetProgress) -> usize {
    p.subsets + Config::units_for_bytes(p.members * 4 + p.transitions * 8)
}

/// Determinises `hidden` under `config`'s budget. A *state* of the construction is a subset of
/// `hidden`'s states, charged with its members and transitions ([`subset_units`]); the input,
/// alive throughout, is charged too ([`lts_units`]), so the state limit bounds what the two hold
/// together. The construction looks at the clock in proportion to the members and moves it goes
/// over (one expansion of a large subset can take milliseconds), and the budget's own error
/// (state limit, deadline, cancel) is what the caller sees.
fn subset_construction(hidden: &Lts, limit: usize, config: &Config) -> Result<Lts, LstarError> {
    let mut budget = config.budget()?;
    let input = lts_units(hidden);
    let mut stopped = None;
    determinize_metered(hidden, limit, |progress| {
        budget
            .check_states(input + subset_units(progress))
            .and_then(|()| budget.tick_by(progress.work))
            .map_err(|e| stopped = Some(e))
            .is_ok()
    })
    .map_err(|e| lts_error(e, limit, &mut stopped))
}

/// An error of an interruptible `lts` operation as the budget's error: a state limit is the
/// config's, an interruption is whatever stopped it.
fn lts_error(e: LtsError, limit: usize, stopped: &mut Option<ComposeError>) -> LstarError {
    match e {
        LtsError::StateLimit { .. } => LstarError::Compose(ComposeError::StateLimit { limit }),
        LtsError::Interrupted => {
            LstarError::Compose(stopped.take().unwrap_or(ComposeError::Cancelled))
        }
        other => LstarError::Lts(other),
    }
}

/// From a run `trace` of components `level + 1..` that violates `properties[level + 1]` (level's
/// assumption), a run of the whole system that violates `properties[0]`.
fn back(
    components: &[&Lts],
    properties: &[Lts],
    interfaces: &[Vec<String>],
    level: usize,
    mut trace: Vec<String>,
    config: &AgConfig,
) -> Result<Counterexample, LstarError> {
    let mut violation = None;
    for i in (0..=level).rev() {
        let sigma = &interfaces[i];
        let word = project(&trace, sigma);
        let spelled = chain(&word, sigma)?;
        let report = check_safety(
            &[components[i], &spelled],
            &[&properties[i]],
            &config.compose,
        )?;
        let Some(witness) = report.verdict.counterexample() else {
            return Err(LstarError::Unsupported(
                "a weakest assumption whose violation does not replay (a bug)",
            ));
        };
        trace = merge(&witness.trace, &trace, sigma);
        violation = Some(witness.violation);
    }
    let violation = violation.ok_or(LstarError::Unsupported("an empty level range"))?;
    Ok(Counterexample::new(trace, violation))
}

fn note_level(config: &AgConfig, level: usize, assumption: &Lts) {
    if let Some(monitor) = &config.compose.monitor {
        monitor.note(format!(
            "ASYM (weakest): level {level}, assumption of {} states",
            assumption.num_states()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subset_construction_counts_the_members_of_its_subsets() {
        // s0 -a-> every state: two subsets, {0} and {0..n}, the second with n members.
        let n = 480;
        let mut b = LtsBuilder::new();
        b.ensure_states(n).unwrap();
        for i in 0..n {
            b.add_transition_named(StateId::must(0), "a", StateId::must(i))
                .unwrap();
        }
        let lts = b.build().unwrap();
        let det = subset_construction(&lts, usize::MAX, &Config::default()).unwrap();
        assert_eq!(det.num_states(), 2);
        // Room for the input and ten times the subsets, not for the 481 members.
        let limit = lts_units(&lts) + 20;
        let config = Config::default().with_max_states(limit);
        let err = subset_construction(&lts, limit, &config).unwrap_err();
        assert!(
            matches!(err, LstarError::Compose(ComposeError::StateLimit { limit: l }) if l == limit),
            "{err:?}"
        );
    }

    #[test]
    fn a_tiny_state_limit_stops_the_weakest_assumptions() {
        let mut b = LtsBuilder::new();
        b.ensure_states(3).unwrap();
        for (s, a, t) in [(0, "a", 1), (0, "a", 2), (1, "b", 0), (2, "c", 0)] {
            b.add_transition_named(StateId::must(s), a, StateId::must(t))
                .unwrap();
        }
        let m = b.build().unwrap();
        let mut p = LtsBuilder::new();
        p.ensure_states(2).unwrap();
        p.add_transition_named(StateId::must(0), "b", StateId::must(1))
            .unwrap();
        p.add_transition_named(StateId::must(1), "c", StateId::must(0))
            .unwrap();
        let p = p.build().unwrap();
        let unlimited = check_asym_weakest(&[&m, &m], &p, &AgConfig::default()).unwrap();
        assert!(unlimited.verdict.counterexample().is_some() || unlimited.verdict.is_holds());
        let config = AgConfig::default().with_compose(Config::default().with_max_states(2));
        let err = check_asym_weakest(&[&m, &m], &p, &config).unwrap_err();
        assert!(err.is_budget(), "{err:?}");
    }
}
