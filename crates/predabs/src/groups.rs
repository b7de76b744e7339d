//! The abstract system as any [`Method`] sees it: how its LTSs are grouped into components, and
//! the refinement loop with a method of the caller's choice checking each abstract system.
//!
//! **Grouping.** The abstract system is one LTS per program component plus one two-state process
//! per shared predicate (a predicate over global variables). Handed to a compositional method as
//! they are, the shared processes are components of their own: recursive rule ASYM then has
//! `2n + 1` levels for `n` components (each level learning against everything after it), and a
//! two-way split leaves them all on one side. [`Grouping::Grouped`] therefore composes each shared
//! process into the component it synchronises with most, before the method runs; such a group is
//! tiny (a component times a few two-state processes), and the method sees exactly one LTS per
//! program component. Ties go to the *last* component: rule ASYM learns an assumption about
//! everything after the first component, and a process every component uses (a lock) inside the
//! first group puts every other component's use of it into that assumption's alphabet; in the
//! last group it is the innermost recursion level's business (measured on the dining
//! philosophers: docs/benchmarks.md). The monolithic method composes everything anyway and takes
//! the LTSs as they are ([`Grouping::Separate`]).
//!
//! **Contexts** ([`Grouping::GroupedWithContext`], for computed weakest assumptions): each group
//! is composed with a *context* per deterministic shared process it synchronises with — a copy of
//! the process and, for every other group using it, that group's behaviour projected onto the
//! process's labels (determinised, minimised). A weakest assumption must be right for every
//! environment, including ones the system never is: with the lock in the last group, the abstract
//! release `lock := 0` may come from any philosopher (the predicate does not say who holds the
//! lock), so the assumption of each level tracks the set of inner philosophers that might be
//! inside the lock at once and doubles per level. With the context, a level knows that a
//! philosopher releases only what it took, and the assumptions stay polynomial. It is sound and
//! complete: every context process is deterministic and its language contains the projection of
//! the system's own traces (it is a copy of a component, or a projection of one), so composing it
//! in blocks nothing and each system state has one context state; the system with contexts has
//! exactly the traces and violations of the system without. Groups with an `ERROR` state are given
//! none (the projection would have to keep it).

use guarantor_compose::method::{Method, MethodReport, Problem};
use guarantor_compose::{Config as ComposeConfig, Verdict, Violation, compose};
use guarantor_lts::ops::{determinize, minimize_dfa, project};
use guarantor_lts::{ComponentId, Lts};

use crate::abstraction::AbstractSystem;
use crate::cegar::{CheckOutcome, PredabsReport, check_cegar_with_checker};
use crate::config::Config;
use crate::error::PredabsError;
use crate::program::Program;

/// How the abstract system's LTSs become the components a method checks: each method says which
/// it wants ([`Method::program_grouping`]), so the choice travels with the method.
pub use guarantor_compose::method::Grouping;

/// One component of the system a method checks.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Group {
    /// The program component it holds, or `None` for a shared-predicate process on its own.
    pub owner: Option<ComponentId>,
    /// Its name: the program component's, with the shared processes composed into it
    /// (`"P1 + [y1 == 0]"`), or the shared predicate (`"[lock == 0]"`).
    pub name: String,
    /// The LTS.
    pub lts: Lts,
}

/// The components of `abs` for a method, grouped as `grouping` says.
///
/// # Errors
/// Composition (with `config`'s budgets) and LTS operations.
pub fn groups(
    abs: &AbstractSystem,
    program: &Program,
    grouping: Grouping,
    config: &ComposeConfig,
) -> Result<Vec<Group>, PredabsError> {
    match grouping {
        Grouping::Separate => Ok(separate(abs, program)),
        Grouping::GroupedWithContext => with_context(abs, grouped(abs, program, config)?, config),
        // The default, and what a grouping this crate does not know yet falls back to.
        _ => grouped(abs, program, config),
    }
}

/// The problem a method checks: the groups as components, the abstract properties named after
/// the program's.
pub fn problem(groups: &[Group], abs: &AbstractSystem, program: &Program) -> Problem {
    let mut problem = Problem::new();
    for g in groups {
        problem.add_component(g.name.clone(), g.lts.clone());
    }
    for (i, p) in abs.properties.iter().enumerate() {
        let name = program
            .properties
            .get(i)
            .map_or_else(|| format!("property {i}"), |p| p.name.clone());
        problem.add_property(name, p.clone());
    }
    problem
}

/// Runs `method` on the abstract system grouped as `grouping` says, and names an `ERROR` state
/// reached by the program component behind the group (which is what the refinement loop
/// reconstructs the trace in).
///
/// # Errors
/// The method's error ([`PredabsError::Check`]), grouping's.
pub fn check_abstract(
    abs: &AbstractSystem,
    program: &Program,
    method: &dyn Method,
    grouping: Grouping,
    config: &ComposeConfig,
) -> Result<(Vec<Group>, MethodReport), PredabsError> {
    let groups = groups(abs, program, grouping, config)?;
    let mut report = method.check(&problem(&groups, abs, program), config)?;
    if let Verdict::Violated(cex) = &mut report.verdict
        && let Violation::ErrorState { component } = &mut cex.violation
        && let Some(owner) = groups.get(component.index()).and_then(|g| g.owner)
    {
        *component = owner;
    }
    Ok((groups, report))
}

/// The refinement loop of [`check_cegar`](crate::check_cegar) with `method` checking each
/// abstract system, grouped as `grouping` says, under `abstract_config`'s budgets.
///
/// ```
/// use guarantor_compose::{Config as ComposeConfig, method::Monolithic};
/// use guarantor_predabs::groups::{Grouping, check_program_with_method};
/// use guarantor_predabs::{Config, Program, ProgramVerdict};
/// let src = "component C {\n var x: int = 0;\n loc run, bad;\n error bad;\n\
///            run -> run when x < 10 do x := x + 1;\n run -> bad when x == 11;\n}\n";
/// let sys = Program::parse(src, "counter.gc")?;
/// let report = check_program_with_method(
///     &sys,
///     &Config::default(),
///     &Monolithic::new(),
///     Grouping::Separate,
///     &ComposeConfig::default(),
/// )?;
/// assert_eq!(report.verdict, ProgramVerdict::Holds);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`check_cegar`](crate::check_cegar); the method's errors are
/// [`PredabsError::Check`].
pub fn check_program_with_method(
    program: &Program,
    config: &Config,
    method: &dyn Method,
    grouping: Grouping,
    abstract_config: &ComposeConfig,
) -> Result<PredabsReport, PredabsError> {
    let mut check = |abs: &AbstractSystem| -> Result<CheckOutcome, PredabsError> {
        let (_, report) = check_abstract(abs, program, method, grouping, abstract_config)?;
        Ok((report.verdict, report.stats.states))
    };
    check_cegar_with_checker(program, config, &mut check)
}

fn shared_name(abs: &AbstractSystem, program: &Program, k: usize) -> String {
    format!("[{}]", program.show(&abs.shared[k].predicate))
}

fn separate(abs: &AbstractSystem, program: &Program) -> Vec<Group> {
    let comps = abs.components.iter().enumerate().map(|(c, l)| Group {
        owner: Some(ComponentId::must(c)),
        name: program.components[c].name.clone(),
        lts: l.clone(),
    });
    let shared = abs.shared.iter().enumerate().map(|(k, s)| Group {
        owner: None,
        name: shared_name(abs, program, k),
        lts: s.lts.clone(),
    });
    comps.chain(shared).collect()
}

/// Each shared process composed into the component sharing the most labels with it.
fn grouped(
    abs: &AbstractSystem,
    program: &Program,
    config: &ComposeConfig,
) -> Result<Vec<Group>, PredabsError> {
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
        out.push(Group {
            owner: Some(ComponentId::must(c)),
            name,
            lts,
        });
    }
    out.extend(alone.into_iter().map(|k| Group {
        owner: None,
        name: shared_name(abs, program, k),
        lts: abs.shared[k].lts.clone(),
    }));
    Ok(out)
}

/// Each group composed with its contexts (see the module docs).
fn with_context(
    abs: &AbstractSystem,
    groups: Vec<Group>,
    config: &ComposeConfig,
) -> Result<Vec<Group>, PredabsError> {
    let usable = |l: &Lts| l.is_deterministic() && !l.has_tau() && l.error_state().is_none();
    if groups.iter().any(|g| g.lts.error_state().is_some()) {
        return Ok(groups);
    }
    let shares = |l: &Lts, s: &Lts| s.alphabet().iter().any(|(_, a)| l.alphabet().contains(a));
    // Per shared process: the projection of each group onto its labels (None: no common label).
    let mut projections: Vec<Vec<Option<Lts>>> = Vec::new();
    for s in abs.shared.iter().map(|s| &s.lts) {
        let mut per_group = Vec::with_capacity(groups.len());
        for g in &groups {
            per_group.push(if usable(s) && shares(&g.lts, s) {
                let keep: Vec<&str> = s.alphabet().iter().map(|(_, a)| a).collect();
                let projected = determinize(&project(&g.lts, keep))?;
                Some(minimize_dfa(&projected)?)
            } else {
                None
            });
        }
        projections.push(per_group);
    }
    let mut out = Vec::with_capacity(groups.len());
    for (k, g) in groups.iter().enumerate() {
        let mut parts: Vec<&Lts> = vec![&g.lts];
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
        out.push(if parts.len() == 1 {
            g.clone()
        } else {
            Group {
                owner: g.owner,
                name: format!("{} + context", g.name),
                lts: compose(&parts, config)?,
            }
        });
    }
    Ok(out)
}
