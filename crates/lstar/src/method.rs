//! The learning-based rules as [`Method`]s: [`Asym`], [`AsymN`], [`AsymWeakest`] and [`Sym`].
//!
//! The rules of [`ag`](crate::ag) take components and one property as slices; a [`Problem`] has
//! named components, any number of properties and typed ids. Each method value here adapts the
//! problem itself, so that its verdict is about the problem as given, whoever calls it:
//!
//! - **Several properties become one**, their product: a deterministic property violated exactly
//!   when one of them is. No property at all is the one-state property nothing violates (the check
//!   then looks for `ERROR` states only).
//! - **Groups.** [`Asym`] splits the components into two groups (its split, or the first component
//!   against the rest) and composes each group; the others take the components as they are.
//! - **`ERROR` states** are handled by the rules themselves ([`ag`](crate::ag)'s module docs).
//! - **Counterexamples** are cut at their first violation of the problem's own components and
//!   properties and name it ([`first_violation`]), so a violation found in a group or in the
//!   merged property names the user's component or property.
//! - **Certificates** say which of the problem's components each assumption stands for
//!   ([`Assumption::components`](guarantor_compose::Assumption::components)): for [`Asym`], the
//!   members of the group the rule's component was.
//!
//! **Deadlocks.** [`Asym`] answers [`Problem::deadlock`] itself ([`Method::searches_deadlocks`]):
//! safety first, by the rule above on the problem without deadlocks, then, if that holds,
//! deadlock freedom by the failure rule of [`deadlock`](crate::ag::deadlock) over the same two
//! groups (each component with its end state as a termination self-loop), whose learned failure
//! assumption joins the certificate ([`Certificate::failures`](guarantor_compose::Certificate)).
//! A single component, or an `ERROR` state in the second group (which rule ASYM would check
//! monolithically anyway), is checked monolithically, deadlocks in the same walk. The other rules reason about traces only and
//! refuse deadlock detection, and every rule refuses action priority
//! ([`MethodError::Unsupported`]).
//!
//! Counters of every report: `membership_queries`, `equivalence_queries`, and alphabet
//! refinement's ([`AlphabetStats`](crate::ag::AlphabetStats)) `alphabet_refinements`,
//! `assumption_alphabet` (actions of the outermost assumption) and `interface_alphabet` (actions
//! of the outermost interface). With deadlocks, also `deadlock_membership_queries`,
//! `deadlock_equivalence_queries` and `ready_sets` (the ready letters of the failure assumption).
//!
//! ```
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lstar::method::Asym;
//! use guarantor_lts::Lts;
//!
//! let problem = Problem::new()
//!     .with_component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!     .with_component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!     .with_property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?);
//! let report = Asym::new().check(&problem, &Config::default())?;
//! assert!(report.verdict.is_holds());
//! let assumption = &report.verdict.certificate().unwrap().assumptions[0];
//! assert_eq!(problem.component_name(assumption.components[0]), "Output");
//! assert!(report.counter("membership_queries").is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use guarantor_certify::format::Rule;

use guarantor_compose::method::{Grouping, Monolithic, monitored};
use guarantor_compose::replay::first_violation;
use guarantor_compose::termination::Termination;
use guarantor_compose::{
    Assumption, Config, Method, MethodError, MethodReport, Problem, Stats, Verdict, compose,
    merge_properties,
};
use guarantor_lts::{ComponentId, Lts};

use crate::ag::deadlock::{DeadlockReport, check_deadlock, with_end_action};
use crate::ag::{AgConfig, AgReport, check_asym, check_asym_n, check_asym_weakest, check_sym_n};
use crate::error::LstarError;

/// Rule ASYM over two groups (Cobleigh, Giannakopoulou, Pasareanu 2003): an assumption about the
/// second group is learned for the first ([`check_asym`]). Name `lstar`.
#[derive(Clone, Debug, Default)]
pub struct Asym {
    split: Option<Vec<ComponentId>>,
    config: AgConfig,
}

impl Asym {
    /// The first component against the rest, default learner settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// The components of the first group (the rest form the second).
    #[must_use]
    pub fn with_split(mut self, first: impl IntoIterator<Item = ComponentId>) -> Self {
        self.split = Some(first.into_iter().collect());
        self
    }

    /// The learner's settings; the check's [`Config`] replaces [`AgConfig::compose`].
    #[must_use]
    pub fn with_config(mut self, config: AgConfig) -> Self {
        self.config = config;
        self
    }
}

impl Method for Asym {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("lstar")
    }

    /// Rule `asym` (`asym-n` for a verdict with several assumptions), with the deadlock rule's
    /// premises for a failure assumption ([`crate::proof`]).
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        _config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        crate::proof::write(problem, report, Rule::Asym)
    }

    fn proof_rule(&self) -> Option<Rule> {
        Some(Rule::Asym)
    }

    fn searches_deadlocks(&self) -> bool {
        true
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        if problem.deadlock() {
            return self.check_with_deadlock(problem, config);
        }
        let config = refuse_unsupported(self, problem, config)?;
        if problem.num_components() == 1 {
            return run_rule(problem, &self.config, &config, None, |c, p, ag| {
                check_asym_n(c, p, ag)
            });
        }
        let (first, second) = two_groups(problem, self.split.as_deref())?;
        let groups = [first.clone(), second.clone()];
        run_rule(
            problem,
            &self.config,
            &config,
            Some(&groups),
            |_, property, ag| {
                let m1 = group(problem, &first, &ag.compose)?;
                let m2 = group(problem, &second, &ag.compose)?;
                check_asym(&m1, &m2, property, ag)
            },
        )
    }
}

impl Asym {
    /// Safety by rule ASYM, then deadlock freedom by the failure rule over the same groups (see
    /// the module docs).
    fn check_with_deadlock(
        &self,
        problem: &Problem,
        config: &Config,
    ) -> Result<MethodReport, MethodError> {
        let safety_problem = problem.clone().with_deadlock(false);
        let config = refuse_unsupported(self, &safety_problem, config)?;
        if problem.num_components() == 1 {
            return whole(problem, &config);
        }
        let (first, second) = two_groups(problem, self.split.as_deref())?;
        if second
            .iter()
            .any(|&c| problem.component(c).error_state().is_some())
        {
            // Rule ASYM checks such a system monolithically anyway (an ERROR in the environment
            // is invisible to it); one monolithic walk then answers deadlocks as well, where a
            // failure assumption would have to be learned besides (gas SYS N = 4: over 60 s
            // against 0.01 s; docs/benchmarks/notebook/lstar-deadlock.md).
            let mut report = whole(problem, &config)?;
            report.notes.push(
                "note: fell back to a monolithic check of the whole composition, deadlocks included (an ERROR state in an environment component); no assumption was learned".to_owned(),
            );
            return Ok(report);
        }
        let has_errors = problem
            .components()
            .any(|(_, _, l)| l.error_state().is_some());
        // The groups as the deadlock rule reads them. Without termination loops they are the
        // groups rule ASYM composes too, and both parts share the one composition (Client-Server
        // SYS N = 18: 32.7 s before, 14.9 s after, 11.7 s without deadlocks; the notebook
        // docs/benchmarks/notebook/lstar-deadlock.md).
        let ((m1, m2), built) = monitored(&config, |config| {
            let m1 = group_with_end(problem, &first, config).map_err(classify)?;
            let m2 = group_with_end(problem, &second, config).map_err(classify)?;
            Ok((m1, m2))
        })?;
        let safety = if problem.num_properties() > 0 || has_errors {
            let report = if ends_loop(problem) {
                self.check(&safety_problem, &config)?
            } else {
                let split = [first.clone(), second.clone()];
                run_rule(
                    problem,
                    &self.config,
                    &config,
                    Some(&split),
                    |_, property, ag| check_asym(&m1, &m2, property, ag),
                )?
            };
            if !report.verdict.is_holds() {
                return Ok(report);
            }
            Some(report)
        } else {
            None
        };
        if let Some(report) = safety.as_ref().filter(|_| property_moves_freely(problem)) {
            // The monolithic product has the property's error form among its members: an action
            // only a property declares is always enabled (to pi or along the property), and pi
            // is unreachable now, so no state of the product is without a move.
            return Ok(report.clone());
        }
        let (deadlock, seen) = monitored(&config, |config| {
            let ag = self.config.clone().with_compose(config.clone());
            check_deadlock(&m1, &m2, &ag).map_err(classify)
        })?;
        let largest = seen.largest_states.max(built.largest_states);
        Ok(with_deadlock_answer(safety, deadlock, largest, &second))
    }
}

/// The whole problem, deadlocks included, by one monolithic walk, a counterexample cut at its
/// first violation as every rule's is ([`first_violation`]; a breadth-first walk may reach
/// another error at the same depth first).
fn whole(problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
    let mut report = Monolithic::new().check(problem, config)?;
    let deadlock = matches!(
        &report.verdict,
        Verdict::Violated(cex) if cex.violation == guarantor_compose::Violation::Deadlock
    );
    if !deadlock {
        report.verdict = in_problem_terms(problem, report.verdict, None)?;
    }
    Ok(report)
}

/// Whether some property declares an action that no component declares (see
/// [`Asym::check_with_deadlock`]).
fn property_moves_freely(problem: &Problem) -> bool {
    problem.properties().any(|(_, _, p)| {
        p.alphabet().iter().any(|(_, a)| {
            !problem
                .components()
                .any(|(_, _, c)| c.alphabet().contains(a))
        })
    })
}

/// The report of [`Asym`] with deadlocks: the safety report (if safety was asked) with the
/// deadlock rule's verdict, its failure assumption added to the certificate (standing for the
/// second group), its counters and the larger of the two searches.
fn with_deadlock_answer(
    safety: Option<MethodReport>,
    deadlock: DeadlockReport,
    largest: usize,
    second: &[ComponentId],
) -> MethodReport {
    let mut report = safety.unwrap_or_else(|| {
        MethodReport::new(
            Verdict::Holds(guarantor_compose::Certificate::monolithic()),
            Stats::default(),
        )
    });
    report.stats.states = report.stats.states.max(largest);
    report.verdict = match (report.verdict, deadlock.verdict, deadlock.assumption) {
        (Verdict::Holds(cert), Verdict::Holds(_), Some(lts)) => {
            Verdict::Holds(cert.with_failures([Assumption::new(second.iter().copied(), lts)]))
        }
        (_, verdict, _) => verdict,
    };
    report
        .with_counter(
            "deadlock_membership_queries",
            deadlock.stats.membership_queries,
        )
        .with_counter(
            "deadlock_equivalence_queries",
            deadlock.stats.equivalence_queries,
        )
        .with_counter("ready_sets", deadlock.ready_sets)
}

/// Whether the components with an end state get a termination self-loop: by LTSA's rule, only
/// if the system can terminate at all is a stuck state with every component that has an end
/// state at it an end rather than a deadlock; the components without one do not take part in
/// termination (they do not declare the end action).
fn ends_loop(problem: &Problem) -> bool {
    let ends: Vec<_> = problem.end_states().collect();
    ends.iter().any(Option::is_some)
        && Termination::ltsa(&problem.component_lts(), &ends, &problem.property_lts())
            .can_terminate()
}

/// The composition of a group, each member with an end state given a termination self-loop
/// there ([`with_end_action`]) when the system can terminate by LTSA's rule
/// ([`Termination::ltsa`]).
fn group_with_end(
    problem: &Problem,
    ids: &[ComponentId],
    config: &Config,
) -> Result<Lts, LstarError> {
    let ends: Vec<_> = problem.end_states().collect();
    let loops = ends_loop(problem);
    let parts = ids
        .iter()
        .map(|&c| match ends[c.index()] {
            Some(end) if loops => with_end_action(problem.component(c), Some(end)),
            _ => Ok(problem.component(c).clone()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    match parts.as_slice() {
        [one] => Ok(one.clone()),
        many => Ok(compose(&many.iter().collect::<Vec<_>>(), config)?),
    }
}

/// Rule ASYM applied recursively over every component ([`check_asym_n`]). Name `lstar-nway`.
#[derive(Clone, Debug, Default)]
pub struct AsymN {
    config: AgConfig,
}

/// Rule ASYM applied recursively, each level's weakest assumption computed by subset construction
/// rather than learned ([`check_asym_weakest`]). Name `lstar-weakest`.
#[derive(Clone, Debug, Default)]
pub struct AsymWeakest {
    config: AgConfig,
}

/// The n-way symmetric rule with complement assumptions (Chaki, Clarke, Giannakopoulou,
/// Pasareanu 2004; [`check_sym_n`]). Name `lstar-sym`.
#[derive(Clone, Debug, Default)]
pub struct Sym {
    config: AgConfig,
}

/// `new` and `with_config` for the rules over every component, and their `Method` impl.
macro_rules! every_component_rule {
    ($ty:ident, $name:literal, $rule:path, $proof:expr, $grouping:expr) => {
        impl $ty {
            /// Default learner settings.
            pub fn new() -> Self {
                Self::default()
            }

            /// The learner's settings; the check's [`Config`] replaces [`AgConfig::compose`].
            #[must_use]
            pub fn with_config(mut self, config: AgConfig) -> Self {
                self.config = config;
                self
            }
        }

        impl Method for $ty {
            fn name(&self) -> Cow<'_, str> {
                Cow::Borrowed($name)
            }

            /// This rule's premises ([`crate::proof`]).
            fn certificate(
                &self,
                problem: &Problem,
                report: &MethodReport,
                _config: &Config,
            ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
                crate::proof::write(problem, report, $proof)
            }

            fn proof_rule(&self) -> Option<Rule> {
                Some($proof)
            }

            fn program_grouping(&self) -> Grouping {
                $grouping
            }

            fn check(
                &self,
                problem: &Problem,
                config: &Config,
            ) -> Result<MethodReport, MethodError> {
                let config = refuse_unsupported(self, problem, config)?;
                run_rule(problem, &self.config, &config, None, |c, p, ag| {
                    $rule(c, p, ag)
                })
            }
        }
    };
}

every_component_rule!(
    AsymN,
    "lstar-nway",
    check_asym_n,
    Rule::AsymN,
    Grouping::Grouped
);
// Computed weakest assumptions must be right for every environment: each group of a program's
// abstract system comes with its context (`guarantor-predabs`'s module `groups`).
every_component_rule!(
    AsymWeakest,
    "lstar-weakest",
    check_asym_weakest,
    Rule::Weakest,
    Grouping::GroupedWithContext
);
every_component_rule!(Sym, "lstar-sym", check_sym_n, Rule::Sym, Grouping::Grouped);

/// Refuses what a trace-based rule cannot decide, and starts the check's clock.
fn refuse_unsupported(
    method: &dyn Method,
    problem: &Problem,
    config: &Config,
) -> Result<Config, MethodError> {
    problem.require_traces_only(&method.name())?;
    if problem.num_components() == 0 {
        return Err(MethodError::BadSettings("no component to check".into()));
    }
    Ok(config.started())
}

/// Runs `rule` on the problem's components and merged property under `config`, and turns its
/// report into the problem's terms: the counterexample cut at its first violation of the
/// problem's own components and properties, and the rule's component `i` in the certificate
/// replaced by the problem's components `groups[i]` (no `groups`: the rule ran on the problem's
/// components as they are).
fn run_rule(
    problem: &Problem,
    settings: &AgConfig,
    config: &Config,
    groups: Option<&[Vec<ComponentId>]>,
    rule: impl FnOnce(&[&Lts], &Lts, &AgConfig) -> Result<AgReport, LstarError>,
) -> Result<MethodReport, MethodError> {
    let (report, seen) = monitored(config, |config| {
        let ag = settings.clone().with_compose(config.clone());
        let property = merge_properties(&problem.property_lts(), config)?;
        rule(&problem.component_lts(), &property, &ag).map_err(classify)
    })?;
    let verdict = in_problem_terms(problem, report.verdict, groups)?;
    let stats = Stats::new(seen.largest_states, 0);
    let mut method_report = MethodReport::new(verdict, stats);
    if let Some(why) = report.fallback {
        // Said where the user reads the verdict: 0 queries and a `mono` certificate would
        // otherwise look like a learning run that learned nothing.
        method_report.notes.push(format!(
            "note: fell back to a monolithic check of the whole composition ({why}); no assumption was learned"
        ));
    }
    Ok(method_report
        .with_counter("membership_queries", report.stats.membership_queries)
        .with_counter("equivalence_queries", report.stats.equivalence_queries)
        .with_counter("alphabet_refinements", report.alphabet.refinements)
        .with_counter("assumption_alphabet", report.alphabet.assumption_alphabet)
        .with_counter("interface_alphabet", report.alphabet.interface_alphabet))
}

fn in_problem_terms(
    problem: &Problem,
    mut verdict: Verdict,
    groups: Option<&[Vec<ComponentId>]>,
) -> Result<Verdict, MethodError> {
    match &mut verdict {
        Verdict::Violated(cex) => {
            let found = first_violation(
                &problem.component_lts(),
                &problem.property_lts(),
                &cex.trace,
            )?;
            let Some((len, violation)) = found else {
                return Err(MethodError::failed(format!(
                    "the rule's counterexample {:?} violates nothing in the problem",
                    cex.trace
                )));
            };
            cex.trace.truncate(len);
            cex.violation = violation;
        }
        Verdict::Holds(cert) => {
            if let Some(groups) = groups {
                for a in &mut cert.assumptions {
                    let members = a.components.iter().flat_map(|c| &groups[c.index()]);
                    *a = Assumption::new(members.copied(), a.lts.clone());
                }
            }
        }
        _ => {}
    }
    Ok(verdict)
}

/// The two groups of rule ASYM: the split (default: the first component) and the rest.
fn two_groups(
    problem: &Problem,
    split: Option<&[ComponentId]>,
) -> Result<(Vec<ComponentId>, Vec<ComponentId>), MethodError> {
    let n = problem.num_components();
    let first: Vec<ComponentId> = split.map_or_else(|| vec![ComponentId::must(0)], <[_]>::to_vec);
    if first.is_empty() || first.len() >= n || first.iter().any(|c| c.index() >= n) {
        return Err(MethodError::BadSettings(format!(
            "the split must name between 1 and {} of the {n} components",
            n - 1
        )));
    }
    let second = problem
        .component_ids()
        .filter(|c| !first.contains(c))
        .collect();
    Ok((first, second))
}

fn group(problem: &Problem, ids: &[ComponentId], config: &Config) -> Result<Lts, LstarError> {
    match ids {
        [one] => Ok(problem.component(*one).clone()),
        many => {
            let parts: Vec<&Lts> = many.iter().map(|&c| problem.component(c)).collect();
            Ok(compose(&parts, config)?)
        }
    }
}

fn classify(e: LstarError) -> MethodError {
    let budget = e.budget_kind();
    MethodError::classify(e, budget)
}

#[cfg(test)]
mod tests {
    use guarantor_compose::{Assumption, Certificate, Problem, Verdict};
    use guarantor_lts::{ComponentId, Lts};

    use super::in_problem_terms;

    #[test]
    fn the_rules_components_become_the_problems_groups() {
        let c = ComponentId::must;
        let lts = Lts::from_edges([(0, "a", 0)]).unwrap();
        let cert = Certificate::new([
            Assumption::new([c(1)], lts.clone()),
            Assumption::new([c(0)], lts),
        ]);
        let groups = [vec![c(2)], vec![c(0), c(1)]];
        let verdict =
            in_problem_terms(&Problem::new(), Verdict::Holds(cert), Some(&groups)).unwrap();
        let stands_for: Vec<&[ComponentId]> = verdict
            .certificate()
            .unwrap()
            .assumptions
            .iter()
            .map(|a| a.components.as_slice())
            .collect();
        assert_eq!(stands_for, [&[c(0), c(1)][..], &[c(2)][..]]);
    }
}
