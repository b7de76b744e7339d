//! The learning rules' `holds` as certificates of `guarantor-certify`
//! ([`Method::certificate`](guarantor_compose::Method::certificate) of [`Asym`](crate::Asym),
//! [`AsymN`](crate::AsymN), [`AsymWeakest`](crate::AsymWeakest) and [`Sym`](crate::Sym)): the
//! premises each rule proved, written from the assumptions of its verdict.
//!
//! - `asym`, `asym-n`, `weakest` ([`chain`]): each assumption stands for a proper part of the
//!   components the previous one stood for: `<A1> C1 <P>`, `<A2> C2 <A1>`, ..,
//!   `<true> Cn <A(n-1)>`. An `asym` verdict with more than one assumption is written as `asym-n`.
//! - `sym` ([`sym`]): `error-as-action` for each component with an `ERROR` state (the action the
//!   rule used, [`ErrorActions`]), one `<Ai> Ci <P..>` per component and one `inclusion`.
//! - With deadlocks, [`Asym`](crate::Asym)'s failure assumption `D` (role `failures`) for the
//!   second group, `deadlock-free` (`M1 || D`) and `failure-refinement` (`M2` against `D`).
//! - A verdict without assumptions (a rule that fell back to a monolithic check) gets rule
//!   `mono`.
//!
//! These are public so that a proof skeleton written by hand (the facade's `skeleton`) becomes
//! exactly the certificate a method would have written.
//!
//! ```
//! use guarantor_compose::{Config, Method, Problem};
//! use guarantor_lstar::Asym;
//! use guarantor_lts::Lts;
//! let problem = Problem::new()
//!     .with_component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!     .with_component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!     .with_property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?);
//! let asym = Asym::new();
//! let report = asym.check(&problem, &Config::default())?;
//! let certificate = asym.certificate(&problem, &report, &Config::default())?.ok_or("none")?;
//! assert_eq!(certificate.rule.name(), "asym");
//! assert!(guarantor_certify::check(&certificate, &problem.certify_model())?.is_accepted());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;

use guarantor_certify::Certificate;
use guarantor_certify::format::{
    Assumption as CertAssumption, Guarantee, LtsData, Premise, Role, Rule,
};
use guarantor_compose::error_actions::ErrorActions;
use guarantor_compose::proof::{self, Fresh, Rewritten, WriteError};
use guarantor_compose::{Assumption, MethodError, MethodReport, Problem};
use guarantor_lts::ComponentId;

use crate::ag::deadlock::END_ACTION;

/// The certificate of a `holds` in `report` by `rule`, failure assumptions included; `None`
/// for a violation or a prioritised problem (version 1 cannot express priority).
pub(crate) fn write(
    problem: &Problem,
    report: &MethodReport,
    rule: Rule,
) -> Result<Option<Certificate>, MethodError> {
    proof::of_holds(problem, report, |cert| {
        let base = match rule {
            Rule::Sym => sym(problem, &cert.assumptions)?,
            _ => chain(problem, rule, &cert.assumptions)?,
        };
        Ok(with_failures(problem, base, &cert.failures))
    })
}

/// ASYM, ASYM-N, weakest: each assumption stands for a proper subset of the components the
/// previous one stood for: `<Ai> (S(i-1) \ Si) <A(i-1)>`, and `<true> Sn <An>` to close. `asym`
/// with more than one assumption is written as `asym-n`; no assumptions give rule `mono`.
///
/// # Errors
/// [`WriteError::Shape`] if an assumption does not stand for a proper part of the components
/// the previous one stood for.
pub fn chain(
    problem: &Problem,
    rule: Rule,
    assumptions: &[Assumption],
) -> Result<Certificate, WriteError> {
    if assumptions.is_empty() {
        return Ok(proof::monolithic(problem));
    }
    let rule = if rule == Rule::Asym && assumptions.len() > 1 {
        Rule::AsymN
    } else {
        rule
    };
    let mut cert = proof::holds(problem, rule);
    let mut rest: BTreeSet<ComponentId> = problem.component_ids().collect();
    let mut goal = Rewritten::default().goal(problem);
    for (i, a) in assumptions.iter().enumerate() {
        let stands: BTreeSet<ComponentId> = a.components.iter().copied().collect();
        if stands.is_empty() || !stands.is_subset(&rest) || stands.len() == rest.len() {
            return Err(WriteError::shape(
                rule,
                format!("assumption {i} does not stand for a proper part of the rest"),
            ));
        }
        cert = cert
            .with_assumption(proof::safety_data(
                &a.lts,
                proof::names(problem, stands.iter().copied()),
                Role::Assumption,
            )?)
            .with_premise(Premise::Triple {
                assumptions: vec![i],
                components: proof::names(problem, rest.difference(&stands).copied()),
                guarantee: goal,
            });
        rest = stands;
        goal = Guarantee::Assumption(i);
    }
    Ok(cert.with_premise(Premise::Triple {
        assumptions: Vec::new(),
        components: proof::names(problem, rest),
        guarantee: goal,
    }))
}

/// SYM: the rule ran on the components with `ERROR` states as private actions
/// ([`ErrorActions`]), one assumption per component; no assumptions give rule `mono`.
///
/// # Errors
/// [`WriteError::Shape`] if an assumption stands for more than one component.
pub fn sym(problem: &Problem, assumptions: &[Assumption]) -> Result<Certificate, WriteError> {
    if assumptions.is_empty() {
        return Ok(proof::monolithic(problem));
    }
    let actions = ErrorActions::new(&problem.component_lts(), &problem.property_lts())?;
    let mut fresh = Fresh::new(problem);
    let base = proof::holds(problem, Rule::Sym);
    let (mut cert, sys) = proof::rewrite(problem, base, &mut fresh, |c| {
        actions
            .as_ref()
            .and_then(|a| a.action(c.index()))
            .map(str::to_owned)
    });
    let goal = sys.goal(problem);
    for (i, a) in assumptions.iter().enumerate() {
        let [c] = a.components.as_slice() else {
            return Err(WriteError::shape(
                Rule::Sym,
                "an assumption stands for several components",
            ));
        };
        let name = sys.names[c.index()].clone();
        cert = cert
            .with_assumption(proof::safety_data(
                &a.lts,
                vec![name.clone()],
                Role::Assumption,
            )?)
            .with_premise(Premise::Triple {
                assumptions: vec![i],
                components: vec![name],
                guarantee: goal.clone(),
            });
    }
    let Guarantee::Properties(properties) = goal else {
        unreachable!("goal() gives properties");
    };
    Ok(cert.with_premise(Premise::Inclusion {
        assumptions: (0..assumptions.len()).collect(),
        properties,
    }))
}

/// `certificate` with the deadlock rule's premises for each failure assumption (the deadlock
/// answer of [`Asym`](crate::Asym)): `M1 || A` deadlock free, where `M1` is every component the
/// assumption does not stand for, and `M2 ⊑_F A` for the components it stands for, with the
/// termination action [`END_ACTION`].
fn with_failures(
    problem: &Problem,
    mut certificate: Certificate,
    failures: &[Assumption],
) -> Certificate {
    for f in failures {
        let names = |keep: bool| -> Vec<String> {
            problem
                .components()
                .filter(|(c, _, _)| f.components.contains(c) == keep)
                .map(|(_, n, _)| n.to_owned())
                .collect()
        };
        let index = certificate.assumptions.len();
        certificate.assumptions.push(CertAssumption::new(
            names(true),
            Role::Failures,
            proof::alphabet_of(&f.lts),
            LtsData::from_lts(&f.lts),
        ));
        certificate = certificate
            .with_premise(Premise::DeadlockFree {
                assumption: index,
                components: names(false),
                end_action: END_ACTION.to_owned(),
            })
            .with_premise(Premise::FailureRefinement {
                assumption: index,
                components: names(true),
                end_action: END_ACTION.to_owned(),
            });
    }
    certificate
}
