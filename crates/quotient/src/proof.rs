//! The quotient method's `holds` as a certificate of `guarantor-certify`, rule `quotient`
//! ([`Method::certificate`](guarantor_compose::Method::certificate) of
//! [`Quotient`](crate::Quotient)): `error-as-action` on the replaced component if it has an
//! `ERROR` state (action `__quotient_error_<c>`, primed until new), the `homomorphism` of the
//! component onto its quotient (the classes of the verdict's assumption), and `<A> rest <P..>`.
//! A single component, or a verdict without a quotient, gets rule `mono`.
//!
//! ```
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lts::Lts;
//! use guarantor_quotient::Quotient;
//! let problem = Problem::new()
//!     .with_component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!     .with_component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!     .with_property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?);
//! let report = Quotient::new().check(&problem, &Config::default())?;
//! let certificate = Quotient::new().certificate(&problem, &report, &Config::default())?.ok_or("none")?;
//! assert!(guarantor_certify::check(&certificate, &problem.certify_model())?.is_accepted());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;

use guarantor_certify::Certificate;
use guarantor_certify::format::{Assumption as CertAssumption, LtsData, Premise, Role, Rule};
use guarantor_compose::proof::{self, Fresh, WriteError};
use guarantor_compose::{Assumption, MethodError, MethodReport, Problem};

/// The certificate of a `holds` in `report` ([`proof::of_holds`]).
pub(crate) fn write(
    problem: &Problem,
    report: &MethodReport,
) -> Result<Option<Certificate>, MethodError> {
    proof::of_holds(problem, report, |cert| quotient(problem, &cert.assumptions))
}

/// The quotient rule over one quotient assumption with its classes.
///
/// # Errors
/// [`WriteError::Shape`] for other than one assumption, one standing for several components,
/// or one without classes.
pub fn quotient(problem: &Problem, assumptions: &[Assumption]) -> Result<Certificate, WriteError> {
    if assumptions.is_empty() {
        return Ok(proof::monolithic(problem));
    }
    let [a] = assumptions else {
        return Err(WriteError::shape(
            Rule::Quotient,
            "not exactly one quotient",
        ));
    };
    let [c] = a.components.as_slice() else {
        return Err(WriteError::shape(
            Rule::Quotient,
            "the quotient stands for several components",
        ));
    };
    let Some(classes) = &a.classes else {
        return Err(WriteError::shape(
            Rule::Quotient,
            "the quotient has no classes",
        ));
    };
    let c = *c;
    let rest = proof::names(problem, problem.component_ids().filter(|&x| x != c));
    if rest.is_empty() {
        return Ok(proof::monolithic(problem));
    }
    let mut fresh = Fresh::new(problem);
    let action = problem.component(c).error_state().map(|_| {
        let mut taken: BTreeSet<String> = problem
            .component_lts()
            .into_iter()
            .chain(problem.property_lts())
            .flat_map(proof::alphabet_of)
            .collect();
        taken.extend(proof::alphabet_of(&a.lts));
        let mut name = format!("__quotient_error_{}", c.index());
        while taken.contains(&name) {
            name.push('_');
        }
        name
    });
    let base = proof::holds(problem, Rule::Quotient);
    let (cert, sys) = proof::rewrite(problem, base, &mut fresh, |x| {
        if x == c { action.clone() } else { None }
    });
    let quotient = match &action {
        Some(name) => proof::error_as_action(&a.lts, name)?,
        None => a.lts.clone(),
    };
    let name = sys.names[c.index()].clone();
    let goal = sys.goal(problem);
    Ok(cert
        .with_assumption(CertAssumption::new(
            vec![name.clone()],
            Role::Quotient,
            proof::alphabet_of(&quotient),
            LtsData::from_lts(&quotient),
        ))
        .with_premise(Premise::Homomorphism {
            component: name,
            assumption: 0,
            classes: classes.iter().map(|&x| u64::from(x)).collect(),
        })
        .with_premise(Premise::Triple {
            assumptions: vec![0],
            components: rest,
            guarantee: goal,
        }))
}
