//! FSP models for the manifest: a composite of an LTSA model file turned into suite components and
//! properties, the way LTSA would check it.
//!
//! The facade (`guarantor::model`) has the same glue, but the layering keeps the testkit below the
//! facade (it tests the facade), so the few lines that compose nested composites live here again.
//! They are written from the `guarantor_fsp` documentation (compose the parts, then `finish`), not
//! from the facade, so that a slip in one does not silently agree with the other.

use std::path::Path;

use guarantor_compose::{Config, Priority, compose, compose_with_priority, error_lts};
use guarantor_fsp::{Component, Nested, System};
use guarantor_lts::Lts;

/// A named LTS, as the manifest hands them to the suite.
pub(crate) type Named = (String, Lts);

/// Reads an FSP file and elaborates `target` (default: the last composite, as LTSA does).
pub(crate) fn elaborate(path: &Path, target: Option<&str>) -> Result<System, String> {
    let source = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let model =
        guarantor_fsp::parse(&source, &path.display().to_string()).map_err(|e| e.to_string())?;
    let target = match target {
        Some(t) => t.to_owned(),
        None => model
            .default_target()
            .ok_or_else(|| format!("{}: no composite or process to check", path.display()))?
            .to_owned(),
    };
    model.elaborate(&target).map_err(|e| e.to_string())
}

fn priority_of(p: &guarantor_fsp::CompositePriority) -> Priority {
    if p.high {
        Priority::high(p.actions.iter().cloned())
    } else {
        Priority::low(p.actions.iter().cloned())
    }
}

/// Composes leaves (properties in their error form) and built nested composites under `priority`.
fn product(
    components: &[Component],
    nested: &[Nested],
    priority: Option<&guarantor_fsp::CompositePriority>,
) -> Result<Lts, String> {
    let mut parts = Vec::new();
    for c in components {
        parts.push(if c.is_property {
            error_lts(&c.lts).map_err(|e| format!("property {}: {e}", c.name))?
        } else {
            c.lts.clone()
        });
    }
    for n in nested {
        let built = build_nested(n)?;
        parts.push(if n.is_property {
            error_lts(&built).map_err(|e| format!("property {}: {e}", n.name))?
        } else {
            built
        });
    }
    let refs: Vec<&Lts> = parts.iter().collect();
    let config = Config::default();
    match priority {
        Some(p) => compose_with_priority(&refs, &priority_of(p), &config)
            .map(guarantor_compose::Composition::into_lts)
            .map_err(|e| e.to_string()),
        None => compose(&refs, &config).map_err(|e| e.to_string()),
    }
}

/// A nested composite as one component: its parts composed, then hidden, minimised, renamed.
fn build_nested(n: &Nested) -> Result<Lts, String> {
    let p = product(&n.components, &n.nested, n.priority.as_ref())?;
    n.finish(&p).map_err(|e| format!("{}: {e}", n.name))
}

/// The whole target as one component: everything composed, then the target's hiding (and
/// minimisation, for a `minimal` target) applied. Property processes inside are composed in their
/// error form, so a violation shows as the component's error state.
pub(crate) fn composed(system: &System) -> Result<Lts, String> {
    let p = product(&system.components, &system.nested, system.priority.as_ref())?;
    Ok(system.finish(&p))
}

/// The target split into its parts: every process (with its relabelling) and every nested composite
/// is one component, every `property` process one property.
///
/// The target's own hiding is dropped: it is for the caller to allow that (it cannot change a
/// safety verdict when these parts are the whole system, because the properties synchronise with
/// the processes below the hiding). Priority cannot be split: the compositional methods do not
/// honour it.
pub(crate) fn split(system: &System) -> Result<(Vec<Named>, Vec<Named>), String> {
    if system.priority.is_some() {
        return Err(format!(
            "target {} has action priority, which only the monolithic method honours",
            system.name
        ));
    }
    let mut components = Vec::new();
    let mut properties = Vec::new();
    for c in &system.components {
        if c.is_property {
            properties.push((c.name.clone(), c.lts.clone()));
        } else {
            components.push((c.name.clone(), c.lts.clone()));
        }
    }
    for n in &system.nested {
        // A `property ||PP` composite is one property.
        let side = if n.is_property {
            &mut properties
        } else {
            &mut components
        };
        side.push((n.name.clone(), build_nested(n)?));
    }
    Ok((components, properties))
}

/// Every process of the target as a property (a property file may declare them `property` or not:
/// either way its traces are the allowed ones).
pub(crate) fn properties(system: &System) -> Result<Vec<Named>, String> {
    if !system.nested.is_empty() {
        return Err(format!(
            "target {} nests composites; a property file must list processes",
            system.name
        ));
    }
    Ok(system
        .components
        .iter()
        .map(|c| (c.name.clone(), c.lts.clone()))
        .collect())
}
