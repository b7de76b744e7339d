//! Loading models from files: Aldebaran `.aut` components and properties, or a composite of an FSP
//! file, ready for a [`Checker`].
//!
//! The facade owns this glue because it is the only crate that sees both the FSP front end and the
//! composition engine: `fsp` lists a composite's components, `compose` composes them.

use std::path::Path;

use guarantor_compose::termination::{Termination, merge_terminal_states};
use guarantor_compose::{
    ComposeError, Config, Priority, compose_with_priority, compose_with_tuples, error_lts,
};
use guarantor_fsp::{Component, Nested, System, Warning};
use guarantor_lts::io::aut::{AutReadOptions, read_aut_file_with};
use guarantor_lts::{Lts, StateId};

use crate::{CheckError, Checker};

/// Whether a path names an FSP model (by its extension: `.lts` as LTSA writes them, or `.fsp`).
pub fn is_fsp_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lts") || e.eq_ignore_ascii_case("fsp"))
}

/// Reads an `.aut` file; `lenient` accepts a header whose transition count is wrong.
pub fn load_aut(path: &Path, lenient: bool) -> Result<Lts, CheckError> {
    let opts = AutReadOptions::default().with_check_transition_count(!lenient);
    Ok(read_aut_file_with(path, &opts)?)
}

/// Parses an FSP file and elaborates `target` (default: [`guarantor_fsp::Model::default_target`],
/// the last composite, or LTSA's `DEFAULT` in a file without composites).
pub fn load_fsp(path: &Path, target: Option<&str>) -> Result<System, CheckError> {
    load_fsp_with(path, target, &[])
}

/// [`load_fsp`] with some `const` definitions given other values (the command line's
/// `--const N=5`; see [`guarantor_fsp::parse_with_constants`]).
pub fn load_fsp_with(
    path: &Path,
    target: Option<&str>,
    constants: &[(&str, i64)],
) -> Result<System, CheckError> {
    let bytes = std::fs::read(path).map_err(|source| CheckError::Io {
        path: path.to_owned(),
        source,
    })?;
    // LTSA reads a file that is not UTF-8 as Latin-1; `parse_bytes` does too, with a warning.
    let model = guarantor_fsp::parse_bytes(&bytes, &path.display().to_string(), constants)?;
    elaborate_target(&model, &path.display().to_string(), target)
}

/// Parses FSP text and elaborates `target` (default: [`guarantor_fsp::Model::default_target`]);
/// `file` names the text in error messages.
pub fn parse_fsp(source: &str, file: &str, target: Option<&str>) -> Result<System, CheckError> {
    parse_fsp_with(source, file, target, &[])
}

/// [`parse_fsp`] with some `const` definitions given other values.
pub fn parse_fsp_with(
    source: &str,
    file: &str,
    target: Option<&str>,
    constants: &[(&str, i64)],
) -> Result<System, CheckError> {
    let model = guarantor_fsp::parse_with_constants(source, file, constants)?;
    elaborate_target(&model, file, target)
}

/// Elaborates `target` of `model` (default: [`guarantor_fsp::Model::default_target`]).
fn elaborate_target(
    model: &guarantor_fsp::Model,
    file: &str,
    target: Option<&str>,
) -> Result<System, CheckError> {
    let target = match target {
        Some(t) => t.to_owned(),
        None => model
            .default_target()
            .ok_or_else(|| CheckError::NoTarget { path: file.into() })?
            .to_owned(),
    };
    Ok(model.elaborate(&target)?)
}

/// The warnings of an elaborated system, for printing.
pub fn warnings(system: &System) -> impl Iterator<Item = &Warning> {
    system.warnings.iter()
}

impl Checker {
    /// A checker over the composite `target` (default: the last one) of an FSP model given as
    /// text, in one call: parse, elaborate, compose the nested composites LTSA composes first.
    /// Set budgets with [`Checker::config`] afterwards; to bound the nested compositions too, use
    /// [`parse_fsp`] and [`Checker::from_fsp`] with a config.
    ///
    /// ```
    /// use guarantor::Checker;
    /// let checker = Checker::from_fsp_str(
    ///     "P = (a -> b -> P).\nproperty SAFE = (a -> b -> SAFE).\n||SYS = (P || SAFE).",
    ///     Some("SYS"),
    /// )?;
    /// assert!(checker.check()?.verdict.is_holds());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_fsp_str(source: &str, target: Option<&str>) -> Result<Checker, CheckError> {
        let system = parse_fsp(source, "<string>", target)?;
        Checker::from_fsp(&system, &Config::default())
    }

    /// A checker over an elaborated FSP system: its processes become components (with their `END`
    /// states), its `property` processes become properties, and nested composites that LTSA
    /// composes first (`minimal`, prioritised, or relabelled so that labels merge) are composed,
    /// finished and added as one component each. `config` bounds that composition and becomes
    /// the checker's [`Checker::config`] too (budgets given once apply to the whole check).
    ///
    /// The checker searches for deadlocks as well (LTSA's Check Safety, and the command line's
    /// default on FSP input); [`Checker::deadlock`]`(false)` checks the properties and `ERROR`
    /// states only.
    ///
    /// A composite of properties alone is what LTSA composes too: the error forms of the
    /// properties become the components (`property P = (a -> b -> P).` alone is violated by `b`).
    pub fn from_fsp(system: &System, config: &Config) -> Result<Checker, CheckError> {
        let only_properties = system.nested.is_empty()
            && !system.components.is_empty()
            && system.components.iter().all(|c| c.is_property);
        if only_properties {
            let mut checker = Checker::new();
            for c in &system.components {
                checker = checker.component(c.name.clone(), error_lts(&c.lts)?);
            }
            return Ok(checker
                .priority(system.priority.as_ref().map(priority_of))
                .deadlock(true)
                .config(config.clone()));
        }
        let mut checker = system.components.iter().fold(Checker::new(), |checker, c| {
            if c.is_property {
                checker.property(c.name.clone(), c.lts.clone())
            } else {
                checker.component_with_end(c.name.clone(), c.lts.clone(), c.end_state)
            }
        });
        for nested in &system.nested {
            let built = build_nested(nested, config)?;
            checker = if nested.is_property {
                // `property ||PP`: one (determinised) property, as LTSA uses it.
                checker.property(nested.name.clone(), built)
            } else {
                checker.component(nested.name.clone(), built)
            };
        }
        for name in &system.constraints {
            // LTSA's constraint: the formula's safety automaton, without its ERROR state, as a
            // component (a move the formula forbids is blocked).
            let Some(a) = system.assertions.iter().find(|a| a.name == *name) else {
                continue;
            };
            let lts =
                guarantor_ltl::compile_safety(&a.formula, config).map_err(constraint_error)?;
            checker = checker.component(format!("constraint {name}"), lts);
        }
        Ok(checker
            .priority(system.priority.as_ref().map(priority_of))
            .deadlock(true)
            .config(config.clone()))
    }
}

/// A constraint that cannot be built: a budget, or a formula outside the safety fragment (LTSA:
/// "LTL constraint must be safety").
fn constraint_error(e: guarantor_ltl::LtlError) -> CheckError {
    match e {
        guarantor_ltl::LtlError::Compose(c) => CheckError::Compose(c),
        other => CheckError::Constraint(other.to_string()),
    }
}

/// The composition engine's form of an FSP priority.
pub fn priority_of(p: &guarantor_fsp::CompositePriority) -> Priority {
    let listed = p.actions.iter().cloned();
    if p.high {
        Priority::high(listed)
    } else {
        Priority::low(listed)
    }
}

/// What gets composed for a composite: processes, the error forms of properties, then the nested
/// composites built first.
fn parts_of(
    components: &[Component],
    nested: &[Nested],
    config: &Config,
) -> Result<Vec<Lts>, ComposeError> {
    let leaves = components.iter().map(|c| {
        if c.is_property {
            error_lts(&c.lts)
        } else {
            Ok(c.lts.clone())
        }
    });
    let built = nested.iter().map(|n| {
        let lts = build_nested(n, config)?;
        if n.is_property {
            error_lts(&lts)
        } else {
            Ok(lts)
        }
    });
    leaves.chain(built).collect()
}

/// The product of `parts` (the leaves `components` first, then nested composites) with its end
/// states merged into one, as LTSA's composition counts them (`guarantor_compose::termination`).
fn compose_parts(
    parts: &[Lts],
    components: &[Component],
    priority: Option<&guarantor_fsp::CompositePriority>,
    config: &Config,
) -> Result<Lts, ComposeError> {
    let refs: Vec<&Lts> = parts.iter().collect();
    let composition = match priority {
        Some(p) => compose_with_priority(&refs, &priority_of(p), config)?,
        None => compose_with_tuples(&refs, config)?,
    };
    let ends: Vec<Option<StateId>> = components.iter().map(|c| c.end_state).collect();
    let rule = Termination::ltsa(&refs, &ends, &[]);
    Ok(merge_terminal_states(&composition, &rule)?.0)
}

/// Composes a nested composite and finishes it (hiding, minimisation, the enclosing renaming).
fn build_nested(nested: &Nested, config: &Config) -> Result<Lts, ComposeError> {
    let parts = parts_of(&nested.components, &nested.nested, config)?;
    let product = compose_parts(&parts, &nested.components, nested.priority.as_ref(), config)?;
    Ok(nested.finish(&product)?)
}

/// The product of an FSP system as LTSA builds it: processes and the error forms of properties
/// composed (nested composites first), one error state for every violation, then the composite's
/// hiding (and minimisation, for a `minimal` target) applied.
pub fn compose_fsp(system: &System, config: &Config) -> Result<Lts, ComposeError> {
    let parts = parts_of(&system.components, &system.nested, config)?;
    let product = compose_parts(&parts, &system.components, system.priority.as_ref(), config)?;
    Ok(system.finish(&product))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fsp_text_errors_name_the_text_and_its_line() {
        let err = Checker::from_fsp_str("P = (a -> P).\nQ = (b -> ).\n", None).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("<string>:2"), "{message}");
    }

    #[test]
    fn fsp_text_without_a_composite_checks_every_process() {
        // LTSA's DEFAULT target: every process composed.
        let checker = Checker::from_fsp_str("P = (a -> P).\nQ = (b -> Q).\n", None).unwrap();
        assert_eq!(checker.components().len(), 2);
        let err = Checker::from_fsp_str("P = (a -> P).\n", Some("NOPE")).unwrap_err();
        assert!(matches!(err, CheckError::Fsp(_)), "{err}");
    }

    /// LTSA composes a composite of properties alone (2 states, 4 transitions, ERROR reachable).
    #[test]
    fn a_composite_of_properties_alone_is_checked() {
        let checker = Checker::from_fsp_str("property P = (a -> b -> P).\n", None).unwrap();
        assert_eq!(checker.components().len(), 1);
        let outcome = checker.check().unwrap();
        let cex = outcome.verdict.counterexample().expect("violated");
        assert_eq!(cex.trace, ["b"]);
        assert_eq!(outcome.violated.as_deref(), Some("ERROR in P"));
    }

    /// With no property, no ERROR state and no deadlock search, there is nothing to check.
    #[test]
    fn a_property_composite_is_a_property() {
        let src = "P = (a -> b -> P).\nproperty ||PP = (P).\n\
                   Q = (a -> a -> Q | b -> Q).\n||S = (Q || PP).\n";
        let checker = Checker::from_fsp_str(src, Some("S")).unwrap();
        assert_eq!(
            (checker.components().len(), checker.properties().len()),
            (1, 1)
        );
        let outcome = checker.check().unwrap();
        assert_eq!(outcome.violated.as_deref(), Some("property PP"));
        assert_eq!(outcome.verdict.counterexample().unwrap().trace, ["b"]);
    }

    #[test]
    fn nothing_to_check_stops_at_once() {
        let checker = Checker::from_fsp_str("P = (a -> STOP).\n", None).unwrap();
        let outcome = checker.check().unwrap();
        assert_eq!(outcome.violated.as_deref(), Some("deadlock"));
        let checker = checker.deadlock(false);
        assert!(matches!(checker.check(), Err(CheckError::NothingToCheck)));
    }
}
