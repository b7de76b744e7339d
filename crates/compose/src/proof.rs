//! The pieces every method uses to write its `holds` as a certificate of `guarantor-certify`
//! ([`Method::certificate`](crate::Method::certificate)): the certificate's frame with the
//! model's fingerprint ([`holds`], [`monolithic`]), fresh names, `error-as-action` rewrites of
//! components ([`rewrite`]), assumptions in their safety reading ([`safety_data`]), and the one
//! error a rule writer reports when a verdict's assumptions do not fit its rule
//! ([`WriteError::Shape`]).
//!
//! Each method crate writes its own rule with these (lstar's `asym`, `asym-n`, `weakest` and
//! `sym`, circ's `circ`, quotient's `quotient`, reduce's `reduce`); they live here, below every
//! method, because a rewrite must name components and fresh results exactly as the checker of
//! `guarantor-certify` reads them, whichever rule uses it.
//!
//! ```
//! use guarantor_compose::proof;
//! use guarantor_compose::Problem;
//! use guarantor_lts::Lts;
//! let problem = Problem::new()
//!     .with_component("P", Lts::from_edges([(0, "a", 0)])?)
//!     .with_property("A", Lts::from_edges([(0, "a", 0)])?);
//! let certificate = proof::monolithic(&problem);
//! assert_eq!(certificate.rule.name(), "mono");
//! let report = guarantor_certify::check(&certificate, &problem.certify_model())?;
//! assert!(report.is_accepted());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;

use guarantor_certify::Certificate;
use guarantor_certify::format::{
    Assumption as CertAssumption, Guarantee, LtsData, Premise, Role, Rule, Transformation,
};
use guarantor_lts::{ComponentId, Lts, LtsBuilder};

use crate::ag::safety_assumption;
use crate::error::ComposeError;
use crate::method::{MethodError, MethodReport, Problem};
use crate::verdict::{Certificate as Evidence, Verdict};

/// Why a method could not write its `holds` as a certificate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The verdict's assumptions do not have the shape the rule needs.
    #[error("the assumptions do not fit rule {rule}: {reason}")]
    Shape {
        /// The rule.
        rule: &'static str,
        /// What does not fit.
        reason: String,
    },
    /// Rebuilding an assumption or a transformed component failed.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// An LTS operation failed.
    #[error(transparent)]
    Lts(#[from] guarantor_lts::LtsError),
}

impl WriteError {
    /// A [`WriteError::Shape`] of `rule`.
    pub fn shape(rule: Rule, reason: impl Into<String>) -> Self {
        Self::Shape {
            rule: rule.name(),
            reason: reason.into(),
        }
    }
}

impl From<WriteError> for MethodError {
    fn from(e: WriteError) -> Self {
        let kind = match &e {
            WriteError::Compose(c) => c.budget_kind(),
            _ => None,
        };
        MethodError::classify(e, kind)
    }
}

/// The certificate of the `holds` in `report`, written by `write` from the verdict's evidence (its
/// assumptions); `None` for a violation, and for a prioritised problem (version 1 of the format
/// cannot express action priority). What a method's [`Method::certificate`] does with its rule.
///
/// [`Method::certificate`]: crate::Method::certificate
///
/// # Errors
/// What `write` gives, as a [`MethodError`].
pub fn of_holds(
    problem: &Problem,
    report: &MethodReport,
    write: impl FnOnce(&Evidence) -> Result<Certificate, WriteError>,
) -> Result<Option<Certificate>, MethodError> {
    match &report.verdict {
        Verdict::Holds(evidence) if problem.priority().is_none() => Ok(Some(write(evidence)?)),
        _ => Ok(None),
    }
}

/// A `holds` certificate of `rule` about `problem`'s model, with no premise yet.
pub fn holds(problem: &Problem, rule: Rule) -> Certificate {
    problem.holds_certificate(rule)
}

/// The `holds` certificate of rule `mono`: one `monolithic` premise (the checker explores the
/// whole product itself). Also what a rule writes for a verdict without assumptions (a learning
/// method that fell back to a monolithic check).
pub fn monolithic(problem: &Problem) -> Certificate {
    problem
        .holds_certificate(Rule::Mono)
        .with_premise(Premise::Monolithic)
}

/// The visible alphabet of an LTS, by name.
pub fn alphabet_of(lts: &Lts) -> Vec<String> {
    lts.alphabet()
        .iter()
        .filter(|(a, _)| !a.is_tau())
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// An assumption in its safety reading (a learned DFA without its rejecting sink), as
/// certificate data standing for `components` in `role`.
///
/// # Errors
/// [`WriteError::Compose`] if the safety reading cannot be built.
pub fn safety_data(
    lts: &Lts,
    components: Vec<String>,
    role: Role,
) -> Result<CertAssumption, WriteError> {
    let safe = safety_assumption(lts)?;
    Ok(CertAssumption::new(
        components,
        role,
        alphabet_of(&safe),
        LtsData::from_lts(&safe),
    ))
}

/// The names of these components of `problem`, in the order given.
pub fn names(problem: &Problem, ids: impl IntoIterator<Item = ComponentId>) -> Vec<String> {
    ids.into_iter()
        .map(|c| problem.component_name(c).to_owned())
        .collect()
}

/// Names not yet used by the model or by earlier transformations.
#[derive(Clone, Debug)]
pub struct Fresh {
    taken: BTreeSet<String>,
}

impl Fresh {
    /// Every component and property name of `problem` taken.
    pub fn new(problem: &Problem) -> Self {
        let taken = problem
            .components()
            .map(|(_, n, _)| n.to_owned())
            .chain(problem.properties().map(|(_, n, _)| n.to_owned()))
            .collect();
        Self { taken }
    }

    /// `base`, primed until it is new; then taken.
    pub fn name(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        while self.taken.contains(&name) {
            name.push('\'');
        }
        self.taken.insert(name.clone());
        name
    }
}

/// The names of the system after `error-as-action` rewrites ([`rewrite`]): each component's,
/// and the forbidding properties added.
#[derive(Clone, Debug, Default)]
pub struct Rewritten {
    /// Per component of the problem, the name it has in the certificate's system.
    pub names: Vec<String>,
    /// The properties the rewrites added (each forbids one component's error action).
    pub forbid: Vec<String>,
}

impl Rewritten {
    /// The guarantee of the whole system: the problem's properties and the forbidding ones.
    pub fn goal(&self, problem: &Problem) -> Guarantee {
        Guarantee::Properties(
            problem
                .properties()
                .map(|(_, n, _)| n.to_owned())
                .chain(self.forbid.iter().cloned())
                .collect(),
        )
    }
}

/// Adds an `error-as-action` rewrite to `cert` for each component `c` that `action(c)` names,
/// with fresh names for its result and its forbidding property.
pub fn rewrite(
    problem: &Problem,
    mut cert: Certificate,
    fresh: &mut Fresh,
    action: impl Fn(ComponentId) -> Option<String>,
) -> (Certificate, Rewritten) {
    let mut names = Vec::new();
    let mut forbid = Vec::new();
    for (id, name, _) in problem.components() {
        match action(id) {
            None => names.push(name.to_owned()),
            Some(action) => {
                let result = fresh.name(&format!("{name}/error-as-action"));
                let property = fresh.name(&format!("no-error-{name}"));
                cert = cert.with_transformation(Transformation::ErrorAsAction {
                    component: name.to_owned(),
                    action,
                    result: result.clone(),
                    property: property.clone(),
                });
                names.push(result);
                forbid.push(property);
            }
        }
    }
    (cert, Rewritten { names, forbid })
}

/// `lts` with its `ERROR` state rewritten as the certificate format's `error-as-action` does:
/// the state loses its moves and its error mark and loops on `action`.
///
/// # Errors
/// [`WriteError::Lts`] if the LTS cannot be rebuilt.
pub fn error_as_action(lts: &Lts, action: &str) -> Result<Lts, WriteError> {
    let Some(error) = lts.error_state() else {
        return Ok(lts.clone());
    };
    let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
    b.ensure_states(lts.num_states())?;
    b.set_initial(lts.initial())?;
    for t in lts.transitions().filter(|t| t.source != error) {
        b.add_transition(t.source, t.action, t.target)?;
    }
    b.add_transition_named(error, action, error)?;
    Ok(b.build()?)
}
