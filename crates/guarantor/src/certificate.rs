//! Verdicts as certificates of [`guarantor_certify`]: [`Checker::certificate`] turns an
//! [`Outcome`] into a certificate (format version 1, docs/formats.md "Certificates (version 1)"),
//! and [`Checker::verify`] re-checks one with the independent checker of `guarantor-certify`
//! against this checker's components and properties.
//!
//! What each method's certificate contains (the rule, then its premises):
//!
//! | method | rule | transformations, assumptions and premises |
//! |---|---|---|
//! | `mono` (and any method whose certificate has no assumptions, as `lstar` falling back to a monolithic check) | `mono` | one `monolithic` premise |
//! | `lstar` | `asym` | `<A> M1 <P>` and `<true> M2 <A>`; `A` stands for the second group; with deadlocks also a failure assumption `D` (role `failures`) for the second group, `deadlock-free` (`M1 \|\| D`) and `failure-refinement` (`M2` against `D`) |
//! | `lstar-nway`, `lstar-weakest` | `asym-n`, `weakest` | the chain `<A1> C1 <P>`, `<A2> C2 <A1>`, .., `<true> Cn <A(n-1)>`; `A(i)` stands for the components after `Ci` |
//! | `lstar-sym` | `sym` | `error-as-action` for each component with an `ERROR` state (the action the method used), one `<Ai> Ci <P..>` per component and one `inclusion` |
//! | `circ`, `circ-neighbours` | `circ` | `error-as-action` per component with `ERROR` (`__circ_error_<c>`), `environment` for property actions no component has, one `circular` premise per guarantee (assuming every other guarantee) and `<G1 .. Gm> <P..>` |
//! | `quotient` | `quotient` | `error-as-action` on the replaced component if it has `ERROR`, the `homomorphism` of the component onto its quotient, and `<A> rest <P..>` |
//!
//! | `reduce` | `reduce` | written by the method itself ([`Method::certificate`]): one `reduction` per minimisation step with its map, and `no-deadlock` when deadlocks were searched |
//!
//! A method that writes its own certificate ([`Method::certificate`], as `reduce` does, or a
//! user's method) is asked first; the table's other rows are built here from the assumptions in
//! the method's verdict. `auto` gives the certificate of the member that answered ([`Outcome::method`]). Every
//! assumption is written in its safety reading (a learned DFA without its rejecting sink). A
//! violation gives a `violated` certificate: the counterexample's run with every component's
//! state after every step (tau steps included), found by a search guided by the trace.
//!
//! A method without a known rule that writes no certificate of its own gets a certificate for
//! its violations only: a `holds` of it is [`CertificateError::UnknownRule`], never a monolithic
//! certificate in its name. Action priority cannot be expressed in version 1, so a `holds` of a
//! prioritised system is [`CertificateError::Priority`]. The `holds` of a monolithic check with
//! [`Checker::deadlock`] certifies safety only (the monolithic premise does not look for
//! deadlocks); `reduce`'s carries `no-deadlock` and `lstar`'s the deadlock rule's premises, which
//! [`Report::deadlock_free`](guarantor_certify::Report::deadlock_free) then reports proved.
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

use std::collections::{BTreeSet, HashMap, VecDeque};

use guarantor_certify::fingerprint::model_print;
use guarantor_certify::format::{
    Assumption as CertAssumption, Certificate, Counterexample as CertCounterexample, Guarantee,
    LtsData, Premise, Role, Rule, Step, Transformation, VerdictKind, ViolationClaim,
};
use guarantor_certify::{CertifyError, Model, Report};
use guarantor_compose::ag::safety_assumption;
use guarantor_compose::error_actions::ErrorActions;
use guarantor_compose::method::{Method, MethodError, MethodReport, Problem};
use guarantor_compose::termination::Termination;
use guarantor_compose::{Assumption, ComposeError, Counterexample, Stats, Verdict, Violation};
use guarantor_lts::{ActionId, ComponentId, Lts, LtsBuilder, StateId};

use crate::checker::{Checker, Outcome};

/// Why a verdict could not be written as a certificate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// The method that answered has no known proof rule (a method of the user's own): its
    /// `holds` cannot be certified (a monolithic certificate would not be its proof).
    #[error("no certificate rule is known for method {method:?}: its holds cannot be certified")]
    UnknownRule {
        /// The method.
        method: String,
    },
    /// Certificates of version 1 cannot express action priority.
    #[error(
        "certificates (version 1) cannot express action priority: a holds of a prioritised system is not certified"
    )]
    Priority,
    /// The method's certificate does not have the shape its rule needs.
    #[error("the certificate of {method} does not fit rule {rule}: {reason}")]
    Shape {
        /// The method.
        method: String,
        /// The rule.
        rule: &'static str,
        /// What does not fit.
        reason: String,
    },
    /// No run of the components follows the counterexample's trace to its violation.
    #[error("no run of the components follows the counterexample: {0}")]
    Run(String),
    /// The method failed to write its certificate (a budget ran out re-running it, ...).
    #[error("the method could not write its certificate: {0}")]
    Method(#[source] MethodError),
    /// Rebuilding a transformed component failed.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// An LTS operation failed.
    #[error(transparent)]
    Lts(#[from] guarantor_lts::LtsError),
}

/// The most product states the search for a counterexample's run visits.
const RUN_SEARCH_LIMIT: usize = 4_000_000;

impl Checker {
    /// The model a certificate of this checker is about: its components (with end states) and
    /// properties, by name, for [`guarantor_certify::check()`].
    pub fn certify_model(&self) -> Model {
        self.problem().certify_model()
    }

    /// The certificate of an outcome of this checker (see the [module docs](self) for what each
    /// method's contains).
    ///
    /// # Errors
    /// [`CertificateError::UnknownRule`] for a `holds` of a method without a known rule,
    /// [`CertificateError::Priority`] for a `holds` under action priority,
    /// [`CertificateError::Shape`] if a method's assumptions do not fit its rule.
    pub fn certificate(&self, outcome: &Outcome) -> Result<Certificate, CertificateError> {
        match &outcome.verdict {
            Verdict::Violated(cex) => {
                let (fingerprint, print) = model_print(&self.certify_model());
                let rule = rule_of(&outcome.method).unwrap_or(Rule::Mono);
                let cex = run_of(&self.problem(), cex)?;
                Ok(
                    Certificate::new(VerdictKind::Violated, rule, fingerprint, print)
                        .with_counterexample(cex),
                )
            }
            Verdict::Holds(cert) => {
                if let Some(certificate) = self.method_certificate(outcome)? {
                    return Ok(certificate);
                }
                let Some(rule) = rule_of(&outcome.method) else {
                    return Err(CertificateError::UnknownRule {
                        method: outcome.method.clone(),
                    });
                };
                let base = self.holds_certificate(rule, &cert.assumptions, &outcome.method)?;
                Ok(self.with_failures(base, &cert.failures))
            }
            _ => Err(CertificateError::Run("an unknown verdict".to_owned())),
        }
    }

    /// The certificate the method that answered writes itself ([`Method::certificate`]), if it
    /// does: the method given with [`Checker::with_method`] or the built-in one of that name.
    fn method_certificate(
        &self,
        outcome: &Outcome,
    ) -> Result<Option<Certificate>, CertificateError> {
        let problem = self.problem();
        if problem.priority().is_some() {
            return Err(CertificateError::Priority);
        }
        let method = match &self.custom {
            Some(m) if m.name() == outcome.method => Some(std::sync::Arc::clone(m)),
            _ => crate::registry::method_named(&outcome.method),
        };
        let Some(method) = method else {
            return Ok(None);
        };
        let stats = Stats::new(outcome.states, outcome.transitions);
        let report = MethodReport::new(outcome.verdict.clone(), stats);
        method
            .certificate(&problem, &report, &self.config)
            .map_err(CertificateError::Method)
    }

    /// The `holds` certificate of `rule` with these assumptions, its premises derived as for a
    /// method of that rule (see the [module docs](self)): for `asym`, `<A> rest <P..>` and
    /// `<true> group <A>` where `group` is what `A` stands for; for `asym-n` and `weakest` the
    /// chain, each assumption standing for part of the previous one's components; for `sym` one
    /// assumption per component; for `circ` one guarantee per component (or group, or none for
    /// `env`); for `quotient` one quotient with its classes. No assumptions give a `mono`
    /// certificate. This is how a proof skeleton written by hand becomes a certificate
    /// ([`crate::skeleton`]); [`Checker::verify`] then says whether it proves the verdict.
    ///
    /// # Errors
    /// [`CertificateError::Priority`] for a system with action priority,
    /// [`CertificateError::Shape`] if the assumptions do not fit the rule (an assumption of
    /// `asym` standing for every component, a `sym` assumption for several, ...).
    pub fn certificate_from_assumptions(
        &self,
        rule: Rule,
        assumptions: &[Assumption],
    ) -> Result<Certificate, CertificateError> {
        self.holds_certificate(rule, assumptions, "the given assumptions")
    }

    /// [`Checker::certificate_from_assumptions`], naming `method` in shape errors.
    pub(crate) fn holds_certificate(
        &self,
        rule: Rule,
        assumptions: &[Assumption],
        method: &str,
    ) -> Result<Certificate, CertificateError> {
        let problem = self.problem();
        if problem.priority().is_some() {
            return Err(CertificateError::Priority);
        }
        let (fingerprint, print) = model_print(&self.certify_model());
        let base = Certificate::new(VerdictKind::Holds, rule, fingerprint, print);
        let build = Build {
            problem: &problem,
            method,
        };
        if assumptions.is_empty() {
            let mut mono = base.with_premise(Premise::Monolithic);
            mono.rule = Rule::Mono;
            return Ok(mono);
        }
        match rule {
            Rule::Asym | Rule::AsymN | Rule::Weakest => build.chain(base, assumptions),
            Rule::Sym => build.sym(base, assumptions),
            Rule::Circ => build.circ(base, assumptions),
            Rule::Quotient => build.quotient(base, assumptions),
            _ => Err(build.shape(rule, "a rule without assumptions was given some")),
        }
    }

    /// `certificate` with the deadlock rule's premises for each failure assumption (the
    /// deadlock answer of `lstar`): `M1 || A` deadlock free, where `M1` is every component the
    /// assumption does not stand for, and `M2 ⊑_F A` for the components it stands for, with the
    /// termination action of [`guarantor_lstar::ag::deadlock::END_ACTION`].
    fn with_failures(&self, mut certificate: Certificate, failures: &[Assumption]) -> Certificate {
        let problem = self.problem();
        let end = guarantor_lstar::ag::deadlock::END_ACTION;
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
                alphabet_of(&f.lts),
                LtsData::from_lts(&f.lts),
            ));
            certificate = certificate
                .with_premise(Premise::DeadlockFree {
                    assumption: index,
                    components: names(false),
                    end_action: end.to_owned(),
                })
                .with_premise(Premise::FailureRefinement {
                    assumption: index,
                    components: names(true),
                    end_action: end.to_owned(),
                });
        }
        certificate
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

/// The proof rule of a built-in method, by the name it reports.
fn rule_of(method: &str) -> Option<Rule> {
    Some(match method {
        "mono" | "monolithic" => Rule::Mono,
        // Its `holds` is written by the method itself (`Method::certificate`).
        "reduce" => Rule::Reduce,
        "lstar" => Rule::Asym,
        "lstar-nway" => Rule::AsymN,
        "lstar-weakest" => Rule::Weakest,
        "lstar-sym" => Rule::Sym,
        "circ" | "circ-neighbours" => Rule::Circ,
        "quotient" => Rule::Quotient,
        _ => return None,
    })
}

/// The visible alphabet of an LTS, by name.
fn alphabet_of(lts: &Lts) -> Vec<String> {
    lts.alphabet()
        .iter()
        .filter(|(a, _)| !a.is_tau())
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// An assumption in its safety reading, as certificate data.
fn safety_data(
    lts: &Lts,
    components: Vec<String>,
    role: Role,
) -> Result<CertAssumption, CertificateError> {
    let safe = safety_assumption(lts)?;
    Ok(CertAssumption::new(
        components,
        role,
        alphabet_of(&safe),
        LtsData::from_lts(&safe),
    ))
}

/// Names not yet used by the model or by earlier transformations.
struct Fresh {
    taken: BTreeSet<String>,
}

impl Fresh {
    fn new(problem: &Problem) -> Self {
        let taken = problem
            .components()
            .map(|(_, n, _)| n.to_owned())
            .chain(problem.properties().map(|(_, n, _)| n.to_owned()))
            .collect();
        Self { taken }
    }

    fn name(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        while self.taken.contains(&name) {
            name.push('\'');
        }
        self.taken.insert(name.clone());
        name
    }
}

/// The names of the system after `error-as-action` rewrites: each component's, and the
/// forbidding properties added.
struct Rewritten {
    names: Vec<String>,
    forbid: Vec<String>,
}

impl Rewritten {
    fn goal(&self, problem: &Problem) -> Guarantee {
        Guarantee::Properties(
            problem
                .properties()
                .map(|(_, n, _)| n.to_owned())
                .chain(self.forbid.iter().cloned())
                .collect(),
        )
    }
}

struct Build<'a> {
    problem: &'a Problem,
    method: &'a str,
}

impl Build<'_> {
    fn shape(&self, rule: Rule, reason: &str) -> CertificateError {
        CertificateError::Shape {
            method: self.method.to_owned(),
            rule: rule.name(),
            reason: reason.to_owned(),
        }
    }

    fn names(&self, ids: impl IntoIterator<Item = ComponentId>) -> Vec<String> {
        ids.into_iter()
            .map(|c| self.problem.component_name(c).to_owned())
            .collect()
    }

    /// Adds an `error-as-action` rewrite for each component `c` that `action(c)` names.
    fn rewrite(
        &self,
        mut cert: Certificate,
        fresh: &mut Fresh,
        action: impl Fn(ComponentId) -> Option<String>,
    ) -> (Certificate, Rewritten) {
        let mut names = Vec::new();
        let mut forbid = Vec::new();
        for (id, name, _) in self.problem.components() {
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

    /// ASYM, ASYM-N, weakest: each assumption stands for a proper subset of the components the
    /// previous one stood for: `<Ai> (S(i-1) \ Si) <A(i-1)>`, and `<true> Sn <An>` to close.
    fn chain(
        &self,
        mut cert: Certificate,
        assumptions: &[Assumption],
    ) -> Result<Certificate, CertificateError> {
        let rule = if cert.rule == Rule::Asym && assumptions.len() > 1 {
            Rule::AsymN
        } else {
            cert.rule
        };
        cert.rule = rule;
        let mut rest: BTreeSet<ComponentId> = self.problem.component_ids().collect();
        let mut goal = Rewritten {
            names: Vec::new(),
            forbid: Vec::new(),
        }
        .goal(self.problem);
        for (i, a) in assumptions.iter().enumerate() {
            let stands: BTreeSet<ComponentId> = a.components.iter().copied().collect();
            if stands.is_empty() || !stands.is_subset(&rest) || stands.len() == rest.len() {
                return Err(self.shape(
                    rule,
                    &format!("assumption {i} does not stand for a proper part of the rest"),
                ));
            }
            cert = cert
                .with_assumption(safety_data(
                    &a.lts,
                    self.names(stands.iter().copied()),
                    Role::Assumption,
                )?)
                .with_premise(Premise::Triple {
                    assumptions: vec![i],
                    components: self.names(rest.difference(&stands).copied()),
                    guarantee: goal,
                });
            rest = stands;
            goal = Guarantee::Assumption(i);
        }
        Ok(cert.with_premise(Premise::Triple {
            assumptions: Vec::new(),
            components: self.names(rest),
            guarantee: goal,
        }))
    }

    /// SYM: the rule ran on the components with `ERROR` states as private actions
    /// ([`ErrorActions`]), one assumption per component.
    fn sym(
        &self,
        cert: Certificate,
        assumptions: &[Assumption],
    ) -> Result<Certificate, CertificateError> {
        let actions =
            ErrorActions::new(&self.problem.component_lts(), &self.problem.property_lts())?;
        let mut fresh = Fresh::new(self.problem);
        let (mut cert, sys) = self.rewrite(cert, &mut fresh, |c| {
            actions
                .as_ref()
                .and_then(|a| a.action(c.index()))
                .map(str::to_owned)
        });
        let goal = sys.goal(self.problem);
        for (i, a) in assumptions.iter().enumerate() {
            let [c] = a.components.as_slice() else {
                return Err(self.shape(Rule::Sym, "an assumption stands for several components"));
            };
            let name = sys.names[c.index()].clone();
            cert = cert
                .with_assumption(safety_data(&a.lts, vec![name.clone()], Role::Assumption)?)
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

    /// CIRC-AG_N: the preparation of `guarantor_circ::prepare` replayed as transformations, one
    /// circular premise per guarantee assuming all the others, and `G |= P`.
    fn circ(
        &self,
        cert: Certificate,
        assumptions: &[Assumption],
    ) -> Result<Certificate, CertificateError> {
        let mut taken: Vec<&str> = self
            .problem
            .component_lts()
            .into_iter()
            .chain(self.problem.property_lts())
            .flat_map(|l| l.alphabet().iter().map(|(_, n)| n))
            .collect();
        taken.sort_unstable();
        let action_for = |c: ComponentId| {
            self.problem.component(c).error_state()?;
            let mut name = format!("__circ_error_{}", c.index());
            while taken.binary_search(&name.as_str()).is_ok() {
                name.push('_');
            }
            Some(name)
        };
        let mut fresh = Fresh::new(self.problem);
        let (mut cert, sys) = self.rewrite(cert, &mut fresh, action_for);
        // Property actions that no (rewritten) component has: circ's `env`.
        let component_actions: BTreeSet<String> = self
            .problem
            .component_lts()
            .into_iter()
            .flat_map(alphabet_of)
            .collect();
        let orphans: Vec<String> = self
            .problem
            .property_lts()
            .into_iter()
            .flat_map(alphabet_of)
            .filter(|a| !component_actions.contains(a))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
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
            let alphabet = alphabet_of(&safe);
            // The environment has a premise of its own, or (two-way) joined a group; its
            // actions in a guarantee say which.
            if let Some(env) = &env
                && (a.components.is_empty()
                    || (!env_has_premise && alphabet.iter().any(|x| orphans.contains(x))))
            {
                cs.push(env.clone());
            }
            if cs.is_empty() {
                return Err(self.shape(Rule::Circ, &format!("guarantee {i} stands for nothing")));
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
            guarantee: sys.goal(self.problem),
        }))
    }

    /// The quotient rule: the homomorphism of the replaced component onto its quotient, and
    /// `<A> rest <P>`.
    fn quotient(
        &self,
        cert: Certificate,
        assumptions: &[Assumption],
    ) -> Result<Certificate, CertificateError> {
        let [a] = assumptions else {
            return Err(self.shape(Rule::Quotient, "not exactly one quotient"));
        };
        let [c] = a.components.as_slice() else {
            return Err(self.shape(Rule::Quotient, "the quotient stands for several components"));
        };
        let Some(classes) = &a.classes else {
            return Err(self.shape(Rule::Quotient, "the quotient has no classes"));
        };
        let c = *c;
        let rest: Vec<String> = self.names(self.problem.component_ids().filter(|&x| x != c));
        if rest.is_empty() {
            let mut mono = cert.with_premise(Premise::Monolithic);
            mono.rule = Rule::Mono;
            return Ok(mono);
        }
        let mut fresh = Fresh::new(self.problem);
        let mut action = None;
        if self.problem.component(c).error_state().is_some() {
            let mut taken: BTreeSet<String> = self
                .problem
                .component_lts()
                .into_iter()
                .chain(self.problem.property_lts())
                .flat_map(alphabet_of)
                .collect();
            taken.extend(alphabet_of(&a.lts));
            let mut name = format!("__quotient_error_{}", c.index());
            while taken.contains(&name) {
                name.push('_');
            }
            action = Some(name);
        }
        let (cert, sys) =
            self.rewrite(
                cert,
                &mut fresh,
                |x| {
                    if x == c { action.clone() } else { None }
                },
            );
        let quotient = match &action {
            Some(name) => error_as_action(&a.lts, name)?,
            None => a.lts.clone(),
        };
        let name = sys.names[c.index()].clone();
        let goal = sys.goal(self.problem);
        Ok(cert
            .with_assumption(CertAssumption::new(
                vec![name.clone()],
                Role::Quotient,
                alphabet_of(&quotient),
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
}

/// `lts` with its `ERROR` state rewritten as the certificate format's `error-as-action` does: the
/// state loses its moves and its error mark and loops on `action`.
fn error_as_action(lts: &Lts, action: &str) -> Result<Lts, CertificateError> {
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

/// A node of the search for a counterexample's run: the components' states, how much of the
/// trace is done, and how it was reached (the parent node and the action).
struct Node {
    states: Vec<StateId>,
    done: usize,
    /// The node before, the step's action and the components that take part in it.
    parent: Option<(usize, String, Vec<usize>)>,
}

/// The counterexample as a run of the components, with every component's state after every
/// step: a breadth-first search over the product guided by the trace (tau steps move one
/// component; a visible step moves every component that has the action).
fn run_of(problem: &Problem, cex: &Counterexample) -> Result<CertCounterexample, CertificateError> {
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
        _ => return Err(CertificateError::Run("an unknown violation".to_owned())),
    };
    let at_error = |s: &[StateId]| comps.iter().zip(s).any(|(l, &x)| l.is_error(x));
    let termination = Termination::ltsa(&comps, &ends, &problem.property_lts());
    let goal = |s: &[StateId]| match cex.violation {
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
    let mut nodes = vec![Node {
        states: comps.iter().map(|l| l.initial()).collect(),
        done: 0,
        parent: None,
    }];
    let mut seen: HashMap<(Vec<StateId>, usize), usize> = HashMap::new();
    seen.insert((nodes[0].states.clone(), 0), 0);
    let mut queue = VecDeque::from([0_usize]);
    let mut found = None;
    while let Some(n) = queue.pop_front() {
        let (states, done) = (nodes[n].states.clone(), nodes[n].done);
        if done == trace.len() && goal(&states) {
            found = Some(n);
            break;
        }
        if at_error(&states) {
            continue; // no step starts after a violation
        }
        let next = trace.get(done).map(String::as_str);
        for (action, target, movers) in moves(&comps, &states, next) {
            let d = if action == "tau" { done } else { done + 1 };
            if seen.contains_key(&(target.clone(), d)) {
                continue;
            }
            if nodes.len() >= RUN_SEARCH_LIMIT {
                return Err(CertificateError::Run(format!(
                    "more than {RUN_SEARCH_LIMIT} states searched"
                )));
            }
            seen.insert((target.clone(), d), nodes.len());
            queue.push_back(nodes.len());
            nodes.push(Node {
                states: target,
                done: d,
                parent: Some((n, action, movers)),
            });
        }
    }
    let Some(mut n) = found else {
        return Err(CertificateError::Run(format!("{:?}", cex.trace)));
    };
    let mut steps = Vec::new();
    while let Some((parent, action, movers)) = &nodes[n].parent {
        let states = nodes[n]
            .states
            .iter()
            .map(|s| u64::from(s.as_u32()))
            .collect();
        let names = movers
            .iter()
            .map(|&c| problem.component_name(ComponentId::must(c)).to_owned())
            .collect();
        steps.push(Step::new(action.clone(), states).with_components(names));
        n = *parent;
    }
    steps.reverse();
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
