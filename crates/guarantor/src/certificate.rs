//! Verdicts as certificates of [`guarantor_certify`]: [`Checker::certificate`] turns an
//! [`Outcome`] into a certificate (format version 1, docs/formats.md "Certificates (version 1)"),
//! and [`Checker::verify`] re-checks one with the independent checker of `guarantor-certify`
//! against this checker's components and properties.
//!
//! A `holds` is written by the method that answered ([`Method::certificate`]): each method
//! proves its answer with its own rule, so each writes its own premises (`mono`'s and `por`'s
//! one `monolithic` premise, lstar's `asym`, `asym-n`, `weakest` and `sym` chains and deadlock
//! premises, circ's `circ`, quotient's `quotient`, reduce's `reduce`; each method crate's
//! `proof` module says what its certificate contains). This module knows no rule: it asks the
//! method (the one given with [`Checker::with_method`], or the built-in one of the name the
//! outcome reports: for `auto`, the member that answered, [`Outcome::method`]), and a method that
//! writes none gets [`CheckError::NoCertificates`], never a monolithic certificate in its
//! name. A user's method that writes its premises gets certificates like a built-in one.
//!
//! A violation gives a `violated` certificate, written here for every method: the
//! counterexample's run with every component's state after every step (tau steps included),
//! found by a search guided by the trace, under the rule the method names
//! ([`Method::proof_rule`], `mono` if none). Action priority cannot be expressed in version 1, so
//! a `holds` of a prioritised system is [`CheckError::CertificatePriority`]. The `holds` of a
//! monolithic check with [`Checker::deadlock`] certifies safety only (the monolithic premise does
//! not look for deadlocks); `reduce`'s carries `no-deadlock` and `lstar`'s the deadlock rule's
//! premises, which [`Report::deadlock_free`](guarantor_certify::Report::deadlock_free) then
//! reports proved.
//!
//! ```
//! use guarantor::{Checker, MethodKind};
//! use guarantor::lts::Lts;
//! let checker = Checker::new()
//!     .component("Input", Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?)
//!     .component("Output", Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?)
//!     .property("Order", Lts::from_edges([(0, "input", 1), (1, "output", 0)])?)
//!     .method(MethodKind::Lstar);
//! let outcome = checker.check()?;
//! let certificate = checker.certificate(&outcome)?;
//! assert_eq!(certificate.rule.name(), "asym");
//! let json = certificate.to_json()?; // what `guarantor check --certificate FILE` writes
//! let report = checker.verify_json(&json)?;
//! assert!(report.is_accepted());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;
use std::sync::Arc;

use guarantor_certify::fingerprint::model_print;
use guarantor_certify::format::{
    Certificate, Counterexample as CertCounterexample, Rule, Step, VerdictKind, ViolationClaim,
};
use guarantor_certify::{CertifyError, Model, Report};
use guarantor_compose::method::{Method, MethodReport, Problem};
use guarantor_compose::proof::WriteError;
use guarantor_compose::replay::{Fill, embed};
use guarantor_compose::termination::Termination;
use guarantor_compose::{
    Assumption, ComposeError, Config, Counterexample, Stats, Verdict, Violation,
};
use guarantor_lts::{ActionId, ComponentId, Lts, StateId};

use crate::checker::{CheckError, Checker, Outcome};
use crate::registry;

/// The most pairs (a product tuple, a position in the trace) the search for a counterexample's run
/// remembers, under the checker's own state limit.
const RUN_SEARCH_LIMIT: usize = 4_000_000;

impl Checker {
    /// The model a certificate of this checker is about: its components (with end states) and
    /// properties, by name, for [`guarantor_certify::check()`].
    pub fn certify_model(&self) -> Model {
        self.problem().certify_model()
    }

    /// The certificate of an outcome of this checker (see the [module docs](self)): a `holds`
    /// as the method that answered writes it, a violation as its run.
    ///
    /// # Errors
    /// [`CheckError::NoCertificates`] for a `holds` of a method that writes none,
    /// [`CheckError::CertificatePriority`] for a `holds` under action priority,
    /// [`CheckError::CertificateMethod`] if the method fails to write it.
    pub fn certificate(&self, outcome: &Outcome) -> Result<Certificate, CheckError> {
        let method = self.answering_method(outcome);
        match &outcome.verdict {
            Verdict::Violated(cex) => {
                let (fingerprint, print) = model_print(&self.certify_model());
                let rule = method.and_then(|m| m.proof_rule()).unwrap_or(Rule::Mono);
                let cex = run_of(&self.problem(), cex, &self.config)?;
                Ok(
                    Certificate::new(VerdictKind::Violated, rule, fingerprint, print)
                        .with_counterexample(cex),
                )
            }
            Verdict::Holds(_) => {
                let problem = self.problem();
                if problem.priority().is_some() {
                    return Err(CheckError::CertificatePriority);
                }
                let stats = Stats::new(outcome.states, outcome.transitions);
                let mut report = MethodReport::new(outcome.verdict.clone(), stats);
                // For a portfolio of the user's own: the member it asks.
                report.answered_by = Some(outcome.method.clone());
                let written = match method {
                    Some(m) => m
                        .certificate(&problem, &report, &self.config)
                        .map_err(CheckError::CertificateMethod)?,
                    None => None,
                };
                written.ok_or_else(|| CheckError::NoCertificates {
                    method: outcome.method.clone(),
                })
            }
            _ => Err(CheckError::CertificateRun("an unknown verdict".to_owned())),
        }
    }

    /// The method that answered: the one given with [`Checker::with_method`] if it has the
    /// outcome's name, else the built-in one of that name, else the given one if it ran others
    /// (a portfolio of the user's own, asked for its member's certificate).
    fn answering_method(&self, outcome: &Outcome) -> Option<Arc<dyn Method>> {
        match &self.custom {
            Some(m) if m.name() == outcome.method => Some(Arc::clone(m)),
            custom => registry::method_named(&outcome.method).or_else(|| custom.clone()),
        }
    }

    /// The `holds` certificate of `rule` with these assumptions, its premises written by the
    /// method crate whose rule it is, as that method writes them for its own verdict (see each
    /// method crate's `proof` module, reached through the registry): for `asym`, `<A> rest <P..>` and
    /// `<true> group <A>` where `group` is what `A` stands for; for `asym-n` and `weakest` the
    /// chain, each assumption standing for part of the previous one's components; for `sym` one
    /// assumption per component; for `circ` one guarantee per component (or group, or none for
    /// `env`); for `quotient` one quotient with its classes. No assumptions give a `mono`
    /// certificate. This is how a proof skeleton written by hand becomes a certificate
    /// ([`crate::skeleton`]); [`Checker::verify`] then says whether it proves the verdict.
    ///
    /// # Errors
    /// [`CheckError::CertificatePriority`] for a system with action priority,
    /// [`CheckError::CertificateShape`] if the assumptions do not fit the rule (an assumption of
    /// `asym` standing for every component, a `sym` assumption for several, ...).
    pub fn certificate_from_assumptions(
        &self,
        rule: Rule,
        assumptions: &[Assumption],
    ) -> Result<Certificate, CheckError> {
        self.holds_certificate(rule, assumptions, "the given assumptions")
    }

    /// [`Checker::certificate_from_assumptions`], naming `whose` assumptions in shape errors.
    pub(crate) fn holds_certificate(
        &self,
        rule: Rule,
        assumptions: &[Assumption],
        whose: &str,
    ) -> Result<Certificate, CheckError> {
        let problem = self.problem();
        if problem.priority().is_some() {
            return Err(CheckError::CertificatePriority);
        }
        registry::write_rule(&problem, rule, assumptions).map_err(|e| match e {
            WriteError::Shape { rule, reason } => CheckError::CertificateShape {
                method: whose.to_owned(),
                rule,
                reason,
            },
            WriteError::Compose(e) => CheckError::Compose(e),
            WriteError::Lts(e) => CheckError::Lts(e),
            other => CheckError::CertificateMethod(other.into()),
        })
    }

    /// Re-checks a certificate against this checker's components and properties with
    /// `guarantor-certify`'s own checker.
    ///
    /// # Errors
    /// [`CertifyError`] if the certificate cannot be interpreted (another format or version, a
    /// `program` certificate, a model with two parts of one name). A certificate that can be
    /// read but fails a check is an `Ok` report with [`Report::rejection`].
    pub fn verify(&self, certificate: &Certificate) -> Result<Report, CertifyError> {
        guarantor_certify::check(certificate, &self.certify_model())
    }

    /// [`Checker::verify`] of a certificate given as JSON text.
    ///
    /// # Errors
    /// As [`Checker::verify`], and [`CertifyError::Json`] for text that is not a certificate.
    pub fn verify_json(&self, json: &str) -> Result<Report, CertifyError> {
        guarantor_certify::check_json(json, &self.certify_model())
    }
}

/// The counterexample as a run of the components, with every component's state after every
/// step: the trace embedded in the product ([`embed`]: tau steps move one component and are filled
/// in; a visible step moves every component that has the action), shortest first, within the
/// checker's deadline and at most [`RUN_SEARCH_LIMIT`] pairs of a tuple and a position in the
/// trace.
fn run_of(
    problem: &Problem,
    cex: &Counterexample,
    config: &Config,
) -> Result<CertCounterexample, CheckError> {
    let comps = problem.component_lts();
    let ends: Vec<Option<StateId>> = problem.end_states().collect();
    let claim = match cex.violation {
        Violation::Property { property } => ViolationClaim::Property {
            property: problem.property_name(property).to_owned(),
        },
        Violation::ErrorState { component } => ViolationClaim::ErrorState {
            component: problem.component_name(component).to_owned(),
        },
        Violation::Deadlock => ViolationClaim::Deadlock,
        _ => {
            return Err(CheckError::CertificateRun(
                "an unknown violation".to_owned(),
            ));
        }
    };
    let at_error = |s: &[StateId]| comps.iter().zip(s).any(|(l, &x)| l.is_error(x));
    let termination = Termination::ltsa(&comps, &ends, &problem.property_lts());
    let goal = |s: &Vec<StateId>| match cex.violation {
        Violation::ErrorState { component } => {
            comps[component.index()].is_error(s[component.index()])
        }
        // LTSA's end-state rule, as the checks and certify's replay apply it (a component whose
        // end is its initial state does not make the system able to terminate).
        Violation::Deadlock => {
            !at_error(s) && moves(&comps, s, None).is_empty() && !termination.is_terminal(s)
        }
        _ => true,
    };
    let trace = &cex.trace;
    let start: Vec<StateId> = comps.iter().map(|l| l.initial()).collect();
    let limit = config
        .max_states
        .map_or(RUN_SEARCH_LIMIT, |m| m.min(RUN_SEARCH_LIMIT));
    let bounded = config.clone().with_max_states(limit);
    let mut budget = bounded.budget()?;
    let run = embed(
        start,
        trace.len(),
        |states, done, out| {
            if at_error(states) {
                return; // no step starts after a violation
            }
            let next = trace.get(done).map(String::as_str);
            for (action, target, movers) in moves(&comps, states, next) {
                let fill = if action == "tau" {
                    Fill::Hidden
                } else {
                    Fill::Letter
                };
                out.push((fill, (action, movers), target));
            }
        },
        goal,
        &mut budget,
    )
    .map_err(|e| match e {
        ComposeError::StateLimit { .. } => {
            CheckError::CertificateRun(format!("more than {limit} states searched"))
        }
        other => other.into(),
    })?
    .ok_or_else(|| CheckError::CertificateRun(format!("{:?}", cex.trace)))?;
    let steps = run
        .into_iter()
        .map(|((action, movers), states)| {
            let states = states.iter().map(|s| u64::from(s.as_u32())).collect();
            let names = movers
                .iter()
                .map(|&c| problem.component_name(ComponentId::must(c)).to_owned())
                .collect();
            Step::new(action, states).with_components(names)
        })
        .collect();
    Ok(CertCounterexample::new(steps, claim))
}

/// The moves of the composition from `states`: every tau step of one component, and the steps on
/// `visible` (every visible action if `None`) that every component having it can make (no
/// component having it: all stay, a move of the properties alone); each with the components that
/// take part in it.
fn moves(
    comps: &[&Lts],
    states: &[StateId],
    visible: Option<&str>,
) -> Vec<(String, Vec<StateId>, Vec<usize>)> {
    let mut out = Vec::new();
    for (c, lts) in comps.iter().enumerate() {
        for target in lts.successors(states[c], ActionId::TAU) {
            let mut next = states.to_vec();
            next[c] = target;
            out.push(("tau".to_owned(), next, vec![c]));
        }
    }
    let names: Vec<&str> = match visible {
        Some(a) => vec![a],
        None => comps
            .iter()
            .flat_map(|l| {
                l.alphabet()
                    .iter()
                    .filter(|(a, _)| !a.is_tau())
                    .map(|(_, n)| n)
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
    };
    for name in names {
        let mut tuples = vec![states.to_vec()];
        let mut movers = Vec::new();
        for (c, lts) in comps.iter().enumerate() {
            let Some(a) = lts.alphabet().get(name) else {
                continue;
            };
            movers.push(c);
            let targets: Vec<StateId> = lts.successors(states[c], a).collect();
            tuples = tuples
                .into_iter()
                .flat_map(|t| {
                    targets.iter().map(move |&x| {
                        let mut t = t.clone();
                        t[c] = x;
                        t
                    })
                })
                .collect();
        }
        if !movers.is_empty() || visible.is_some() {
            out.extend(
                tuples
                    .into_iter()
                    .map(|t| (name.to_owned(), t, movers.clone())),
            );
        }
    }
    out
}
