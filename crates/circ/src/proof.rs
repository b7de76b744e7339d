//! Circ's `holds` as a certificate of `guarantor-certify`, rule `circ`
//! ([`Method::certificate`](guarantor_compose::Method::certificate) of [`Circ`](crate::Circ),
//! whatever its premise policy): the preparation of [`prepare`](crate::prepare) replayed as
//! transformations — `error-as-action` for each component with an `ERROR` state (action
//! `__circ_error_<c>`, primed until new) and `environment` for the property actions no component
//! has — then one `circular` premise per guarantee, assuming every other guarantee, and
//! `<G1 .. Gm> <P..>`. A verdict without guarantees gets rule `mono`.
//!
//! [`circ`] is public so that a proof skeleton written by hand (the facade's `skeleton`) becomes
//! exactly the certificate the method would have written.
//!
//! ```
//! use guarantor_circ::Circ;
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lts::Lts;
//! let problem = Problem::new()
//!     .with_component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!     .with_component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!     .with_property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?);
//! let report = Circ::new().check(&problem, &Config::default())?;
//! let certificate = Circ::new().certificate(&problem, &report, &Config::default())?.ok_or("none")?;
//! assert!(guarantor_certify::check(&certificate, &problem.certify_model())?.is_accepted());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;

use guarantor_certify::Certificate;
use guarantor_certify::format::{
    Assumption as CertAssumption, LtsData, Premise, Role, Rule, Transformation,
};
use guarantor_compose::ag::safety_assumption;
use guarantor_compose::proof::{self, Fresh, WriteError};
use guarantor_compose::{Assumption, MethodError, MethodReport, Problem};
use guarantor_lts::ComponentId;

/// The certificate of a `holds` in `report` ([`proof::of_holds`]).
pub(crate) fn write(
    problem: &Problem,
    report: &MethodReport,
) -> Result<Option<Certificate>, MethodError> {
    proof::of_holds(problem, report, |cert| circ(problem, &cert.assumptions))
}

/// CIRC-AG_N over these guarantees (an assumption standing for no component is the `env`
/// guarantee of the property actions no component has).
///
/// # Errors
/// [`WriteError::Shape`] if a guarantee stands for nothing; [`WriteError::Compose`] if a
/// guarantee's safety reading cannot be built.
pub fn circ(problem: &Problem, assumptions: &[Assumption]) -> Result<Certificate, WriteError> {
    if assumptions.is_empty() {
        return Ok(proof::monolithic(problem));
    }
    let mut taken: Vec<&str> = problem
        .component_lts()
        .into_iter()
        .chain(problem.property_lts())
        .flat_map(|l| l.alphabet().iter().map(|(_, n)| n))
        .collect();
    taken.sort_unstable();
    let action_for = |c: ComponentId| {
        problem.component(c).error_state()?;
        let mut name = format!("__circ_error_{}", c.index());
        while taken.binary_search(&name.as_str()).is_ok() {
            name.push('_');
        }
        Some(name)
    };
    let mut fresh = Fresh::new(problem);
    let base = proof::holds(problem, Rule::Circ);
    let (mut cert, sys) = proof::rewrite(problem, base, &mut fresh, action_for);
    let orphans = orphan_actions(problem);
    let env = if orphans.is_empty() {
        None
    } else {
        let name = fresh.name("env");
        cert = cert.with_transformation(Transformation::Environment {
            actions: orphans.clone(),
            result: name.clone(),
        });
        Some(name)
    };
    let env_has_premise = assumptions.iter().any(|a| a.components.is_empty());
    let mut premise_components = Vec::new();
    for (i, a) in assumptions.iter().enumerate() {
        let mut cs: Vec<String> = a
            .components
            .iter()
            .map(|c| sys.names[c.index()].clone())
            .collect();
        let safe = safety_assumption(&a.lts)?;
        let alphabet = proof::alphabet_of(&safe);
        // The environment has a premise of its own, or (two-way) joined a group; its actions
        // in a guarantee say which.
        if let Some(env) = &env
            && (a.components.is_empty()
                || (!env_has_premise && alphabet.iter().any(|x| orphans.contains(x))))
        {
            cs.push(env.clone());
        }
        if cs.is_empty() {
            return Err(WriteError::shape(
                Rule::Circ,
                format!("guarantee {i} stands for nothing"),
            ));
        }
        cert = cert.with_assumption(CertAssumption::new(
            cs.clone(),
            Role::Guarantee,
            alphabet,
            LtsData::from_lts(&safe),
        ));
        premise_components.push(cs);
    }
    let all: Vec<usize> = (0..assumptions.len()).collect();
    for (i, cs) in premise_components.into_iter().enumerate() {
        cert = cert.with_premise(Premise::Circular {
            assumptions: all.iter().copied().filter(|&j| j != i).collect(),
            components: cs,
            guarantee: i,
        });
    }
    Ok(cert.with_premise(Premise::Triple {
        assumptions: all,
        components: Vec::new(),
        guarantee: sys.goal(problem),
    }))
}

/// Property actions that no component has (circ's `env`), sorted.
fn orphan_actions(problem: &Problem) -> Vec<String> {
    let component_actions: BTreeSet<String> = problem
        .component_lts()
        .into_iter()
        .flat_map(proof::alphabet_of)
        .collect();
    problem
        .property_lts()
        .into_iter()
        .flat_map(proof::alphabet_of)
        .filter(|a| !component_actions.contains(a))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}
