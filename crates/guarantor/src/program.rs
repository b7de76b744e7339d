//! The abstraction + assume-guarantee loop for infinite-state component programs (Chaki et al.
//! 2004): `predabs` abstracts each component into an LTS and refines on spurious counterexamples;
//! this module plugs any [`MethodKind`] of the [`Checker`] in as the step that checks the abstract
//! system, which is why the loop lives in the facade and not in `predabs`.
//!
//! **Grouping.** The abstract system is one LTS per component plus one two-state process per
//! shared predicate (a predicate over global variables). Handed to a compositional method as they
//! are, the shared processes are components of their own: recursive rule ASYM then has `2n + 1`
//! levels for `n` components (each level learning against everything after it), and a two-way
//! split leaves them all on one side. Each shared process is therefore composed into the component
//! it synchronises with most, before the method runs; such a group is tiny (a component times a
//! few two-state processes), and the method sees exactly one LTS per program component. Ties go to
//! the *last* component: rule ASYM learns an assumption about everything after the first
//! component, and a process every component uses (a lock) inside the first group puts every other
//! component's use of it into that assumption's alphabet; in the last group it is the innermost
//! recursion level's business (measured on the dining philosophers: docs/benchmarks.md). The monolithic method gets the LTSs ungrouped (it composes everything anyway).
//! For `lstar` (two groups) the first half of the components forms the first group by default,
//! not the first component alone, so neither side holds almost the whole system (which keeps
//! memory low; `--split` chooses otherwise: the first component alone is faster on the
//! philosophers but composes all the others, see docs/benchmarks.md).

use std::cell::RefCell;

use guarantor_compose::{ComposeError, Verdict, Violation, compose};
use guarantor_lts::ops::{determinize, minimize_dfa, project};
use guarantor_lts::{ComponentId, Lts};
use guarantor_predabs::abstraction::AbstractSystem;
use guarantor_predabs::cegar::CheckOutcome;
use guarantor_predabs::prover::{NativeProver, SmtLibProver};
use guarantor_predabs::{Backend, Config, PredabsError, PredabsReport, Program, check_cegar_with};

use crate::{AssumptionSummary, CheckError, Checker, MethodKind, MethodOptions, MethodStats};

/// Why a program check failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    /// Abstraction, refinement or the prover failed.
    #[error(transparent)]
    Predabs(#[from] PredabsError),
    /// Checking an abstract system failed.
    #[error(transparent)]
    Check(#[from] CheckError),
}

impl ProgramError {
    /// Whether a budget (time, iterations, states) ran out.
    pub fn is_budget(&self) -> bool {
        match self {
            ProgramError::Predabs(e) => e.is_budget(),
            ProgramError::Check(e) => e.is_budget(),
        }
    }
}

/// What the method reported on the last abstract system it checked (the one that decided).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AbstractCheck {
    /// The LTSs the method was given, by name: a program component with the shared-predicate
    /// processes grouped into it (`"P1 + [y1 == 0]"`), or, for the monolithic method, each
    /// component and shared process on its own.
    pub components: Vec<String>,
    /// States of each of those LTSs.
    pub component_states: Vec<usize>,
    /// The learned (or synthesised) assumptions of the certificate, when the abstract system
    /// satisfies the property; empty for the monolithic method.
    pub assumptions: Vec<AssumptionSummary>,
    /// The method's own counters (queries, SAT calls, ...).
    pub stats: MethodStats,
    /// States explored by the largest search the method ran (0 when it does not say).
    pub states: usize,
}

/// The result of [`check_program`]: the refinement loop's report and what the method said about
/// the last abstract system.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ProgramReport {
    /// Verdict, iterations, final predicates and abstraction, prover calls.
    pub predabs: PredabsReport,
    /// The last abstract check.
    pub last_check: AbstractCheck,
    /// Abstract checks run (one per iteration).
    pub checks: usize,
}

/// Checks a component program: abstract, check the abstract system with `method`, validate
/// counterexamples on the concrete program, refine, repeat.
///
/// # Errors
/// [`ProgramError`]: the loop's errors (budgets included) and the method's.
pub fn check_program(
    program: &Program,
    config: &Config,
    method: MethodKind,
    abstract_config: &guarantor_compose::Config,
) -> Result<ProgramReport, ProgramError> {
    check_program_with_options(
        program,
        config,
        method,
        &MethodOptions::default(),
        abstract_config,
    )
}

/// [`check_program`] with method options for the abstract checks. The method sees one LTS per
/// program component, in program order, so `options.split` names program components by index;
/// when it is `None`, `lstar` splits the components into halves.
///
/// # Errors
/// As [`check_program`].
pub fn check_program_with_options(
    program: &Program,
    config: &Config,
    method: MethodKind,
    options: &MethodOptions,
    abstract_config: &guarantor_compose::Config,
) -> Result<ProgramReport, ProgramError> {
    // The abstract checker may fail in ways a ComposeError cannot say; the real error is kept here
    // and the loop is stopped with `Cancelled`, then the kept error is returned instead.
    let failure: RefCell<Option<CheckError>> = RefCell::new(None);
    let last: RefCell<AbstractCheck> = RefCell::new(AbstractCheck::default());
    let mut checks = 0;
    let mut check = |abs: &AbstractSystem| -> Result<CheckOutcome, ComposeError> {
        checks += 1;
        let (checker, owners, names) =
            match abstract_checker(abs, program, method, options, abstract_config) {
                Ok(c) => c,
                Err(other) => {
                    *failure.borrow_mut() = Some(other);
                    return Err(ComposeError::Cancelled);
                }
            };
        let component_states = checker.components().map(|(_, l)| l.num_states()).collect();
        match checker.check() {
            Ok(mut outcome) => {
                // Error-state violations name the group; predabs wants the program component.
                if let Verdict::Violated(cex) = &mut outcome.verdict {
                    if let Violation::ErrorState { component } = &mut cex.violation {
                        if let Some(&c) =
                            owners.get(component.index()).filter(|&&c| c != usize::MAX)
                        {
                            *component = ComponentId::must(c);
                        }
                    }
                }
                let assumptions = outcome.assumptions.clone();
                *last.borrow_mut() = AbstractCheck {
                    components: names,
                    component_states,
                    assumptions,
                    stats: outcome.stats.clone(),
                    states: outcome.states,
                };
                Ok((outcome.verdict, outcome.states))
            }
            Err(CheckError::Compose(e)) => Err(e),
            Err(other) => {
                *failure.borrow_mut() = Some(other);
                Err(ComposeError::Cancelled)
            }
        }
    };
    let result = match &config.backend {
        Backend::SmtLib(cmd) => check_cegar_with(
            program,
            config,
            &mut SmtLibProver::new(cmd.clone()),
            &mut check,
        ),
        _ => check_cegar_with(program, config, &mut NativeProver::new(), &mut check),
    };
    match (result, failure.into_inner()) {
        (_, Some(e)) => Err(e.into()),
        (r, None) => Ok(ProgramReport {
            predabs: r?,
            last_check: last.into_inner(),
            checks,
        }),
    }
}

/// The checker for one abstract system, the program component behind each of its components
/// (`usize::MAX` for a lone shared process) and the components' names.
type CheckerParts = (Checker, Vec<usize>, Vec<String>);

/// Builds the [`CheckerParts`] for one abstract system.
fn abstract_checker(
    abs: &AbstractSystem,
    program: &Program,
    method: MethodKind,
    options: &MethodOptions,
    config: &guarantor_compose::Config,
) -> Result<CheckerParts, CheckError> {
    let groups = if method == MethodKind::Monolithic {
        ungrouped(abs, program)
    } else if method == MethodKind::LstarNway && options.weakest {
        with_context(abs, grouped(abs, program, config)?, config)?
    } else {
        grouped(abs, program, config)?
    };
    let n = groups.len();
    let mut owners = Vec::with_capacity(n);
    let mut names = Vec::with_capacity(n);
    let mut checker = Checker::new();
    for (owner, name, lts) in groups {
        owners.push(owner);
        names.push(name.clone());
        checker = checker.component(name, lts);
    }
    for (i, p) in abs.property_ltss().into_iter().enumerate() {
        let name = program
            .properties
            .get(i)
            .map_or_else(|| format!("property {i}"), |p| p.name.clone());
        checker = checker.property(name, p.clone());
    }
    let mut options = options.clone();
    if method == MethodKind::Lstar && n > 2 && options.split.is_none() {
        options.split = Some((0..n / 2).collect());
    }
    checker = checker.options(options);
    Ok((checker.method(method).config(config.clone()), owners, names))
}

fn shared_name(abs: &AbstractSystem, program: &Program, k: usize) -> String {
    format!("[{}]", program.show(&abs.shared[k].predicate))
}

fn ungrouped(abs: &AbstractSystem, program: &Program) -> Vec<(usize, String, Lts)> {
    let comps = abs
        .components
        .iter()
        .enumerate()
        .map(|(c, l)| (c, program.components[c].name.clone(), l.clone()));
    let shared = abs
        .shared
        .iter()
        .enumerate()
        .map(|(k, s)| (usize::MAX, shared_name(abs, program, k), s.lts.clone()));
    comps.chain(shared).collect()
}

/// Each shared process composed into the component sharing the most labels with it.
fn grouped(
    abs: &AbstractSystem,
    program: &Program,
    config: &guarantor_compose::Config,
) -> Result<Vec<(usize, String, Lts)>, CheckError> {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); abs.components.len()];
    let mut alone = Vec::new();
    for (k, s) in abs.shared.iter().enumerate() {
        let best = abs
            .components
            .iter()
            .enumerate()
            .map(|(c, l)| {
                let common = s
                    .lts
                    .alphabet()
                    .iter()
                    .filter(|(_, a)| l.alphabet().contains(a))
                    .count();
                (common, c)
            })
            .max()
            .filter(|&(common, _)| common > 0);
        match best {
            Some((_, c)) => members[c].push(k),
            None => alone.push(k),
        }
    }
    let mut out = Vec::with_capacity(abs.components.len() + alone.len());
    for (c, ks) in members.iter().enumerate() {
        let mut name = program.components[c].name.clone();
        let lts = if ks.is_empty() {
            abs.components[c].clone()
        } else {
            let mut parts: Vec<&Lts> = vec![&abs.components[c]];
            for &k in ks {
                parts.push(&abs.shared[k].lts);
                name.push_str(" + ");
                name.push_str(&shared_name(abs, program, k));
            }
            compose(&parts, config)?
        };
        out.push((c, name, lts));
    }
    for k in alone {
        out.push((
            usize::MAX,
            shared_name(abs, program, k),
            abs.shared[k].lts.clone(),
        ));
    }
    Ok(out)
}

/// For computed weakest assumptions: each group composed with a *context* per deterministic
/// shared process it synchronises with — a copy of the process and, for every other group using
/// it, that group's behaviour projected onto the process's labels (determinised, minimised).
///
/// **Why.** A weakest assumption must be right for every environment, including ones the system
/// never is: with the lock in the last group, the abstract release `lock := 0` may come from any
/// philosopher (the predicate does not say who holds the lock), so the assumption of each level
/// tracks the set of inner philosophers that might be inside the lock at once and doubles per
/// level. With the context, a level knows that a philosopher releases only what it took, and the
/// assumptions stay polynomial (docs/benchmarks.md).
///
/// **Sound and complete.** Every context process is deterministic and its language contains the
/// projection of the system's own traces (it is a copy of a component, or a projection of one),
/// so composing it in blocks nothing and each system state has one context state: the system with
/// contexts has exactly the traces and violations of the system without. Groups with an `ERROR`
/// state are given none (the projection would have to keep it).
fn with_context(
    abs: &AbstractSystem,
    groups: Vec<(usize, String, Lts)>,
    config: &guarantor_compose::Config,
) -> Result<Vec<(usize, String, Lts)>, CheckError> {
    let usable = |l: &Lts| l.is_deterministic() && !l.has_tau() && l.error_state().is_none();
    if groups.iter().any(|(_, _, l)| l.error_state().is_some()) {
        return Ok(groups);
    }
    let shares = |l: &Lts, s: &Lts| s.alphabet().iter().any(|(_, a)| l.alphabet().contains(a));
    // Per shared process: the projection of each group onto its labels (None: no common label).
    let mut projections: Vec<Vec<Option<Lts>>> = Vec::new();
    for s in abs.shared.iter().map(|s| &s.lts) {
        let mut per_group = Vec::with_capacity(groups.len());
        for (_, _, g) in &groups {
            per_group.push(if usable(s) && shares(g, s) {
                let keep: Vec<&str> = s.alphabet().iter().map(|(_, a)| a).collect();
                let projected = determinize(&project(g, keep))?;
                Some(minimize_dfa(&projected)?)
            } else {
                None
            });
        }
        projections.push(per_group);
    }
    let mut out = Vec::with_capacity(groups.len());
    for (k, (owner, name, g)) in groups.iter().enumerate() {
        let mut parts: Vec<&Lts> = vec![g];
        for (s, per_group) in abs.shared.iter().zip(&projections) {
            if per_group[k].is_none() {
                continue;
            }
            parts.push(&s.lts);
            parts.extend(
                per_group
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .filter_map(|(_, p)| p.as_ref()),
            );
        }
        if parts.len() == 1 {
            out.push((*owner, name.clone(), g.clone()));
        } else {
            out.push((
                *owner,
                format!("{name} + context"),
                compose(&parts, config)?,
            ));
        }
    }
    Ok(out)
}
